"""One player with two triggers in one window chooses their order; each fires once."""

from __future__ import annotations

from table import finish, make_table

from sgs_dsl.compiler.library import load_library

SKILLS = """
skill 先 xian "受到傷害後，摸一張牌。" { on damaged when damage.target == you { draw(you, 1); } }
skill 後 hou "受到傷害後，摸兩張牌。" { on damaged when damage.target == you { draw(you, 2); } }
"""


def _table(tmp_path, answers):
    path = tmp_path / "two_skills.sgs"
    path.write_text(SKILLS, encoding="utf-8")
    lib = load_library([path])
    game = make_table(lib, seats=[dict(role="lord"), dict(role="rebel")], answers=answers)
    game.players[1].skills = (lib.skills["xian"], lib.skills["hou"])
    game.skills.changed_skills()
    return game


def test_player_chooses_order_of_own_triggers(tmp_path):
    game = _table(tmp_path, {1: ["【後】"]})
    game.hp.damage(game.players[1], 1, source=game.players[0])
    fired = [line for line in game.lines if "發動" in line]
    assert fired == ["2號位無將(男)發動【後】", "2號位無將(男)發動【先】"]
    assert len(game.players[1].hand) == 3
    finish(game)


def test_each_trigger_fires_once_per_window(tmp_path):
    game = _table(tmp_path, {1: ["【先】"]})
    game.hp.damage(game.players[1], 1, source=game.players[0])
    assert [line for line in game.lines if "發動" in line] == [
        "2號位無將(男)發動【先】", "2號位無將(男)發動【後】"]
    finish(game)
