"""Player state and skills as state. The checker's located errors for the new
forms, and the engine's side of them that rulings cannot show (tests/rulings/mech_state.ruling
has the rulings; tests/data/mech_state.sgs the test heroes)."""

from __future__ import annotations

from pathlib import Path

import pytest
from table import finish, make_table

from sgs_dsl.compiler.library import check_paths, load_library
from sgs_dsl.core.defs import Ctx
from sgs_dsl.core.model import TurnEnded
from sgs_dsl.game import run, setup

MECH = Path(__file__).parent / "data" / "mech_state.sgs"

SKILLS = """
skill 例限 lixian limited "限定技，出牌階段，你可以摸兩張牌。" {
  active { draw(you, 2); }
}
skill 例記 liji "回合開始時，你記下此時是否翻面及當前階段；出牌階段開始時，若已發動【例限】，摸一張牌。" {
  state 翻面: bool until turn;
  state 輪次: int until round;
  on turn_start when turn.player == you {
    remember(you, "翻面", you.turned);
    remember_game("輪次", recall_game("輪次") + 1);
  }
  on phase_start when phase.player == you and phase.name == "play" and spent(you, 例限) {
    draw(you, 1);
  }
}
skill 例標 libiao locked "鎖定技，你造成傷害時將其標記；受到有標記的傷害後，你摸一張牌；你使用牌時將其標記，結算後若有標記，你摸一張牌。" {
  on causing_damage when damage.source == you {
    set damage.marked = 1;
  }
  on damaged when damage.marked == 1 {
    draw(damage.target, 1);
  }
  on using when use.user == you {
    set use.noted = you.hand;
  }
  on use_end when use.user == you and use.noted == 0 {
    draw(you, 1);
  }
}
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    path = tmp_path_factory.mktemp("g1") / "g1_skills.sgs"
    path.write_text(SKILLS, encoding="utf-8")
    return load_library([MECH, path])


def errors(tmp_path: Path, text: str) -> list[tuple[int, int, str, str]]:
    path = tmp_path / "bad.sgs"
    path.write_text(text, encoding="utf-8")
    return [(d.span.line, d.span.column, d.message, d.hint) for d in check_paths([path])]


def skill(body: str, tags: str = "") -> str:
    return f'skill 測態 cetai {tags} "測試" {{\n{body}}}\n'


# ---------------------------------------------------------------- the checker

@pytest.mark.parametrize(("body", "tags", "where", "message", "hint"), [
    ('  state 記住: player until turn;\n  active { draw(recall(you, "記注"), 1); }\n', "",
     (3, 29), "unknown state '記注'", "did you mean '記住'?"),
    ('  state 記住: player until turn;\n  active { remember(you, "記住", 3); }\n', "",
     (3, 32), "state '記住' holds player, not int", "`記住: player`"),
    ('  state 記住: plyer;\n', "", (2, 13), "unknown state type 'plyer'", "did you mean 'player'?"),
    ('  state 記住: int until trun;\n', "", (2, 23), "unknown scope 'trun'", "did you mean 'turn'?"),
    ('  active { grant_skill(you, 奸熊); }\n', "", (2, 29), "unknown skill '奸熊'", "did you mean '奸雄'?"),
    ('  active { set_hero(you, 司馬意); }\n', "", (2, 26), "unknown hero '司馬意'", "did you mean '司馬懿'?"),
    ('  active { set_kingdom(you, 秦); }\n', "", (2, 29), "unknown kingdom '秦'", "kingdoms:"),
    ('  active { disable_skills(you, until: forever); }\n', "", (2, 39), "unknown scope 'forever'", "scopes:"),
    ('  on phase_start when phase.name == "出排" { draw(you, 1); }\n', "",
     (2, 37), "'出排' is not a phase name", "did you mean '出牌'?"),
    ('  active { if you.kingdom == "蜀國" { draw(you, 1); } }\n', "",
     (2, 30), "'蜀國' is not a kingdom", "did you mean '蜀'?"),
    ('  on phase_start optional when phase.name == "準備" { draw(you, 1); }\n', "wake",
     (2, 18), "a wake skill (覺醒技) fires by itself", "leave out `optional`"),
    ('  active { draw(you, 1); }\n', "wake", (2, 3), "a wake skill (覺醒技) fires by itself", "trigger"),
    ('  active { set_kingdom(you, you.hp); }\n', "", (2, 33), "expected a kingdom here, found int",
     "hero_kingdom(h)"),
    ('  active { set_gender(you, hero_kingdom(曹操)); }\n', "", (2, 28), "expected a gender here, found kingdom",
     "male"),
    ('  active { for n in [1, 2] { draw(you, n); } }\n', "", (2, 21), "`for` needs players, cards or text",
     ""),
    ('  active { draw(you, recall(you, "化身.化身卡")); }\n', "", (2, 34), "unknown state '化身.化身卡'",
     "did you mean '化身牌'?"),
    ('  active { remember(you, "化身.化身牌", 1); }\n', "", (2, 36), "state '化身牌' holds strs, not int", ""),
    ('  on damaged by damage.target when damage.target != you { draw(you, 1); }\n', "", (2, 24),
     "`by` names the player asked whether the skill acts", "optional by PLAYER"),
    ('  on damaged optional by damage.amount when damage.target != you { draw(you, 1); }\n', "", (2, 33),
     "`by` needs a player, not int", "judge.player"),
])
def test_bad_state_forms_are_located_with_a_hint(tmp_path, body, tags, where, message, hint):
    found = errors(tmp_path, skill(body, tags))
    assert len(found) == 1, found
    line, column, got, got_hint = found[0]
    assert (line, column) == where and got.startswith(message) and hint in got_hint, found[0]


def test_the_test_heroes_check_clean():
    assert check_paths([MECH]) == []


def test_lists_of_text_are_filtered_and_walked_and_kingdoms_computed(tmp_path):
    """Hero names and skill names are lists of text: `[x in LIST where ...]` and `for` take
    them; set_kingdom and set_gender take a kingdom or gender computed in play."""
    body = ('  active {\n    for k in [k in hero_skills(劉備) where not any(t in skill_tags(k), t == "lord")] {\n'
            '      grant_skill(you, k);\n    }\n    set_kingdom(you, hero_kingdom(劉備));\n'
            '    set_gender(you, hero_gender(甄姬));\n  }\n')
    path = tmp_path / "lists.sgs"
    path.write_text(skill(body) + 'hero 測將 cejiang { kingdom 魏; gender male; hp 4; skills 測態; }\n', encoding="utf-8")
    assert check_paths([path]) == []
    library = load_library([path])
    game = make_table(library, seats=[dict(role="lord", hero="測將"), dict()])
    p = game.players[0]
    act = library.skills["測態"].actives[0]
    game.hp.run_block(act.body, Ctx(game, {"you": p}), "測態")
    names = [s.name for s in p.skills]
    assert "仁德" in names and "激將" not in names  # 激將 is a lord skill: filtered out
    assert (p.kingdom, p.gender) == ("shu", "female")


# ---------------------------------------------------------------- the engine

def seat(game, i, lib, *names):
    game.players[i].skills = tuple(lib.skills[n] for n in names)
    game.skills.changed_skills()


def test_a_limited_active_is_offered_once_a_game_then_spent(lib):
    game = make_table(lib, seats=[dict(role="lord"), dict(role="rebel")],
                      answers={0: ["發動【例限】", "結束出牌", "結束出牌"]})
    seat(game, 0, lib, "lixian", "liji")
    lord = game.players[0]
    game.turn.run_phase(lord, "play")
    assert len(lord.hand) == 2 and game.fired == {"例限": 1}
    assert "發動【例限】" not in [o.label for o in game.turn.play_options(lord)]
    game.turn.run_phase(lord, "play")  # a new play phase: still spent, and 例記 sees it spent
    assert len(lord.hand) == 3 and game.fired["例記"] == 1
    finish(game)


def test_values_set_on_a_damage_and_a_use_are_read_in_later_windows(lib):
    game = make_table(lib, seats=[dict(role="lord", hand=["殺 ♠7"]), dict(role="rebel")],
                      answers={0: ["【殺】♠7"]}, deck_top=["閃 ♦2", "閃 ♦3"])
    seat(game, 0, lib, "libiao")
    game.turn.run_phase(game.players[0], "play")
    rebel, lord = game.players[1], game.players[0]
    assert rebel.hp == 3 and [c.name for c in rebel.hand] == ["閃"]  # the marked damage: drew one
    assert [c.name for c in lord.hand] == ["閃"]  # the use noted an empty hand: drew one at its end
    finish(game)


def test_state_lasts_as_declared_turn_and_round(lib):
    game = make_table(lib, seats=[dict(role="lord"), dict(role="rebel")],
                      answers={0: ["結束出牌"] * 2, 1: ["結束出牌"]}, deck_top=["閃 ♦2"])
    seat(game, 0, lib, "liji")
    lord = game.players[0]
    lord.turned = False
    game.turn.play_turn(lord)
    key = "例記.輪次"
    assert game.state.recall(None, key, 0) == 1 and lord.memory == {}  # the turn's value is gone
    game.turn.play_turn(game.players[1])
    assert game.state.recall(None, key, 0) == 1  # the round goes on through seat 2's turn
    game.turn.play_turn(lord)  # the first seat again: a new round, counted from 0
    assert game.state.recall(None, key, 0) == 1


def test_current_phase_is_none_outside_a_phase(lib, tmp_path):
    text = skill('  on turn_start when current_phase() == none and you.turned == false { draw(you, 1); }\n'
                 '  on phase_start when current_phase() == "摸牌" and phase.player == you { draw(you, 1); }\n')
    path = tmp_path / "phase.sgs"
    path.write_text(text, encoding="utf-8")
    extra = load_library([path])
    game = make_table(extra, seats=[dict(role="lord"), dict(role="rebel")], answers={0: ["結束出牌"]})
    seat(game, 0, extra, "cetai")
    game.turn.play_turn(game.players[0])
    assert game.fired == {"測態": 2} and len(game.players[0].hand) == 4  # 1 + 1 + the 2 of the draw


def test_losing_the_last_max_hp_on_ones_own_turn_ends_it(lib):
    game = make_table(lib, seats=[dict(role="lord", hp=1, max_hp=1), dict(role="rebel"), dict(role="rebel")])
    victim = game.players[1]
    game.current = victim
    victim.max_hp = victim.hp = 1
    with pytest.raises(TurnEnded):
        game.state.change_max_hp(victim, -1)
    assert not victim.alive and victim.max_hp == 0


def test_a_game_that_uses_none_of_it_schedules_nothing():
    """No cost when unused: a whole standard game never fills the scoped-state list."""
    game = setup(load_library(), "standard", 5, seed=3)
    result = run(game)
    assert result.error is None and result.turns > 5 and game._expiring is None
