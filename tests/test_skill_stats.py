"""`--skill-stats` counts invocations (the 發動【X】 a player saw), not the helper triggers that
carry out an earlier invocation; helpers are logged as taking effect, not as a new 發動."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgs_dsl.cli import main
from sgs_dsl.compiler.library import load_library
from sgs_dsl.game import play_game

# 計數蓄: chosen in the draw phase, carried out by a forced helper at every damage it causes;
# 計數鎖: a locked skill of two forced triggers, each one an invocation.
TEXT = """
skill 計數蓄 jishu_xu "摸牌階段，你可以少摸一張牌；本回合你造成傷害時，摸一張牌。" {
  on draw_phase optional when phase.player == you and phase.count > 0 {
    set phase.count -= 1;
    mark(you, "計數蓄", 1, until: "turn");
  }
  on causing_damage when damage.source == you and marks(you, "計數蓄") > 0 {
    draw(you, 1);
  }
}

skill 計數鎖 jishu_suo locked "鎖定技，你受到傷害後摸一張牌；你造成傷害後摸一張牌。" {
  on damaged when damage.target == you { draw(you, 1); }
  on caused_damage when damage.source == you { draw(you, 1); }
}

hero 計數甲 jishu_jia { kingdom 魏; gender male; hp 4; skills 計數蓄; }
hero 計數乙 jishu_yi { kingdom 蜀; gender male; hp 4; skills 計數鎖; }
hero 計數丙 jishu_bing { kingdom 吳; gender female; hp 4; }

ruleset jishu "測試：發動次數" {
  mode identity;
  decks standard, ex;
  heroes skill_stats_heroes;
  lords 計數甲;
}
"""

SEEDS = range(8)


@pytest.fixture(scope="module")
def heroes_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("stats") / "skill_stats_heroes.sgs"
    path.write_text(TEXT, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def library(heroes_file: Path):
    return load_library((heroes_file,))


def _triggers(library, name: str) -> list:
    skill = next(s for s in library.skills.values() if s.name == name)
    return [t for ts in skill.triggers.values() for t in ts]


def test_only_forced_triggers_of_a_chosen_skill_are_helpers(library):
    chosen = _triggers(library, "計數蓄")
    assert [(t.optional, t.helper) for t in chosen] == [(True, False), (False, True)]
    assert [t.helper for t in _triggers(library, "計數鎖")] == [False, False]


def test_helpers_are_logged_as_taking_effect_and_not_counted(library):
    seen_helper = False
    for seed in SEEDS:
        result = play_game(library, "jishu", 3, seed, log=True, max_turns=30)
        log = "\n".join(result.log)
        for name in ("計數蓄", "計數鎖"):
            invoked = len(re.findall(f"發動【{name}】", log)) - len(re.findall(f"不發動【{name}】", log))
            assert result.fired.get(name, 0) == invoked, (seed, name)
        assert "的【計數鎖】生效" not in log  # a locked skill's forced triggers are invocations
        seen_helper |= "的【計數蓄】生效" in log
    assert seen_helper, "no seed showed the helper firing: pick other seeds"


def test_skill_stats_report_counts_invocations(heroes_file: Path, library):
    runner = CliRunner()
    result = runner.invoke(main, ["simulate", "-q", "-L", str(heroes_file), "-r", "jishu", "-p", "3",
                                  "-g", str(len(SEEDS)), "--max-turns", "30", "--skill-stats", "--json", "-"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)["skill_stats"]["skills"]
    from sgs_dsl.sim.batch import derive_seed

    logs = ["\n".join(play_game(library, "jishu", 3, derive_seed(0, i), log=True, max_turns=30).log)
            for i in SEEDS]
    for name in ("計數蓄", "計數鎖"):
        said = sum(len(re.findall(f"(?<!不)發動【{name}】", log)) for log in logs)
        assert stats[name]["fired"] == said, name
