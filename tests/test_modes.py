"""The mode layer: a mode owns what a way of playing decides (seats, heroes, order, rewards,
victory, what seats see, how results read); the game and the kernel ask it. A new mode is a
new module and its data, not a change of the game: shown here by a made-up mode."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgs_dsl import modes
from sgs_dsl.cli import main
from sgs_dsl.compiler.library import check_paths, load_library
from sgs_dsl.core import modes as specs
from sgs_dsl.core.model import GameOver, Player
from sgs_dsl.game import play_game
from sgs_dsl.modes.base import BLANK_HP, Mode

GAME_PY = Path(__file__).resolve().parents[1] / "sgs_dsl" / "game.py"


def test_game_py_names_no_mode() -> None:
    # its code (not its comments) says nothing only one mode decides: roles, lords, kingdoms
    code = [n.value for n in ast.walk(ast.parse(GAME_PY.read_text(encoding="utf-8")))
            if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    names = {n.id for n in ast.walk(ast.parse(GAME_PY.read_text(encoding="utf-8"))) if isinstance(n, ast.Name)}
    assert not any(w in text for text in code[1:] for w in ("identity", "lord", "身份", "主公", "rebel"))
    assert not names & {"IdentityMode", "deal_roles", "lord_bonus", "ROLE_TABLE"}


def test_sgs_modes_lists_each_mode_with_its_players_and_options() -> None:
    result = CliRunner().invoke(main, ["modes"])
    assert result.exit_code == 0
    assert "identity 身份局: 2-10 players" in result.output and "lords (heroes" in result.output


def test_sgs_rulesets_shows_the_mode_and_its_options() -> None:
    result = CliRunner().invoke(main, ["rulesets", "--json"])
    standard = next(r for r in __import__("json").loads(result.output) if r["name"] == "standard")
    assert standard["mode"] == "identity" and standard["mode_options"] == {"lords": ["曹操", "劉備", "孫權"],
                                                                     "roles": "standard"}


def test_a_mode_option_the_mode_does_not_have_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "r.sgs"
    path.write_text('ruleset mine "測試" {\n  mode identity;\n  decks standard, ex;\n  generals 7;\n}\n',
                    encoding="utf-8")
    found = check_paths([path])
    assert found and found[0].span.line == 4 and "unknown ruleset property 'generals' for mode identity" \
        in found[0].message, [d.render() for d in found]


def test_a_player_count_the_mode_does_not_seat_is_refused() -> None:
    result = CliRunner().invoke(main, ["simulate", "-p", "11", "-g", "1"])
    assert result.exit_code == 2 and "2 to 10 players, not 11" in result.output


# ---------------------------------------------------------------- a mode of one's own

LAST = specs.ModeSpec("last_standing", "混戰", (2, 4),
                      (specs.ModeOption("reward", "int", 1, "cards drawn for a kill", low=0, high=5),),
                      "everyone for themselves: the last player alive wins", ("survivor", "draw"))


class LastStanding(Mode):
    """Every seat its own side, a kill rewarded, the last one alive wins."""

    spec = LAST

    def seats(self, n: int, rng: random.Random, with_heroes: bool) -> list[Player]:
        return [Player(i, f"鬥士{i + 1}", "male", BLANK_HP, BLANK_HP, "") for i in range(n)]

    def check_victory(self, game) -> None:
        alive = [p for p in game.players if p.alive]
        if len(alive) == 1:
            raise GameOver("survivor", f"{alive[0].label()}是最後的存活者")

    def outcome(self, game) -> str | None:
        return "survivor" if sum(p.alive for p in game.players) == 1 else None

    def after_death(self, game, dead, killer) -> None:
        if killer is not None and killer.alive:
            game.zones.draw(killer, self.option("reward"))

    def side(self, game, player) -> str:
        return "survivor" if player.alive else "fallen"


@pytest.fixture
def last_standing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setitem(specs.MODE_SPECS, LAST.name, LAST)
    monkeypatch.setitem(modes.MODES, LAST.name, LastStanding)
    path = tmp_path / "brawl.sgs"
    path.write_text('ruleset brawl "混戰" {\n  mode last_standing;\n  decks standard, ex;\n  reward 3;\n}\n',
                    encoding="utf-8")
    return load_library([path])


def test_a_new_mode_is_a_module_and_its_data(last_standing) -> None:
    results = [play_game(last_standing, "brawl", 3, seed, max_turns=300, log=True) for seed in range(4)]
    assert all(r.error is None and not r.violations for r in results), [r.error for r in results]
    won = [r for r in results if r.winner == "survivor"]
    assert won and all(r.roles.count("survivor") == 1 for r in won)
    assert all(r.log[0] == "混戰 3人" for r in results)
    # the ruleset's reward option: a kill by a player draws 3 (a death by no one's hand, none)
    assert any(any("摸3張牌" in line for line in r.log) for r in won)


def test_a_new_modes_options_are_checked_by_its_declaration(last_standing, tmp_path: Path) -> None:
    path = tmp_path / "bad.sgs"
    path.write_text('ruleset brawl2 "混戰" {\n  mode last_standing;\n  decks standard, ex;\n  reward 9;\n}\n',
                    encoding="utf-8")
    found = check_paths([path])
    assert found and "'reward' needs one number from 0 to 5" in found[0].message and found[0].span.line == 4


def test_the_examples_of_docs_modes_are_real_or_check_with_the_library(tmp_path: Path) -> None:
    import re

    from sgs_dsl.resources import library_files

    text = (GAME_PY.parents[1] / "docs" / "modes.md").read_text(encoding="utf-8")
    known = "\n".join(p.read_text(encoding="utf-8") for p in library_files())
    blocks = re.findall(r"^```sgs\n(.*?)^```$", text, flags=re.S | re.M)
    assert len(blocks) >= 2
    for i, block in enumerate(blocks):
        if all(line in known for line in block.strip().splitlines()):
            continue
        path = tmp_path / f"example{i}.sgs"
        path.write_text(block, encoding="utf-8")
        found = check_paths([*library_files(), path])
        assert found == [], "\n\n".join(d.render() for d in found)


def test_the_skills_a_batch_counts_are_those_the_mode_plays() -> None:
    """`catalog.hero_skills` (what --skill-stats, balance reports and the every-skill-fires
    test count) asks the mode: identity plays lord skills (the lord's), 3v3 and 國戰 none, the
    五人簡易場 no skill at all."""
    from sgs_dsl.catalog import hero_skills, heroes_of

    library = load_library()

    def lord_skills(ruleset: str) -> set[str]:
        lords = {s.name for h in heroes_of(library, ruleset) for s in h.skills if "lord" in s.tags}
        return {s for names in hero_skills(library, ruleset).values() for s in names} & lords

    assert lord_skills("standard") and lord_skills("campus")
    assert not lord_skills("campus_3v3") and not lord_skills("hegemony")
    assert any(hero_skills(library, "campus").values())
    assert not any(hero_skills(library, "campus_simple").values())
    assert hero_skills(library, "campus_simple").keys() == hero_skills(library, "campus").keys()


def test_the_pivotal_player_is_the_one_whose_death_ends_its_side() -> None:
    library = load_library()

    def pivotal(ruleset: str, players: int) -> list[str]:
        mode = modes.make_mode(library.ruleset(ruleset))
        return [p.role for p in mode.seats(players, random.Random(1), True) if mode.pivotal(p)]

    assert pivotal("standard", 8) == ["lord"] and pivotal("campus", 5) == ["lord"]
    assert pivotal("campus_3v3", 6) == ["leader", "leader"]
    assert pivotal("hegemony", 6) == []


@pytest.mark.parametrize(("ruleset", "players", "apart"), [("campus", 8, True), ("standard", 8, False)])
def test_the_lords_candidates_are_dealt_again_only_where_the_seed_says(ruleset, players, apart) -> None:
    """Seed 003 (campus): no hero is offered twice in one set-up, so the lord's unchosen
    candidates go to no other seat; seed 000 shuffles them back (剩餘的24張)."""
    library = load_library()
    shared = 0
    for seed in range(30):
        lines = play_game(library, ruleset, players, seed, log=True, max_turns=1).log
        offered = [line.split("候選：")[1].rstrip("）").split("、") for line in lines if "候選：" in line]
        lord, others = set(offered[0]), {h for heroes in offered[1:] for h in heroes}
        shared += bool(lord & others)
    assert (shared == 0) if apart else shared > 0
