"""General mechanisms a future skill will use: retrial of a judgement, bounded repetition."""

from __future__ import annotations

import pytest
from table import finish, make_table, specs

from sgs_dsl.compiler.library import load_library
from sgs_dsl.core.model import RulesError

RETRIAL = """
skill 改判 gaipan "一名角色的判定牌生效前，你可以用一張手牌代替之。" {
  on judge_before optional when you.hand > 0 {
    replace_judge(judge, pick(you, you, hand));
  }
}
skill 收判 shoupan "你的判定牌生效後，你獲得此牌。" {
  on judge_after when judge.player == you { gain(you, judge.card); }
}
skill 連擊 lianji "受到傷害後，摸三百次零張牌。" {
  on damaged when damage.target == you { repeat 300 { draw(you, 0); } }
}
"""


@pytest.fixture()
def lib(tmp_path):
    path = tmp_path / "mechanisms.sgs"
    path.write_text(RETRIAL, encoding="utf-8")
    return load_library([path])


def test_retrial_replaces_the_judge_card_and_decides_the_result(lib):
    game = make_table(lib, seats=[
        dict(role="lord", judge=["樂不思蜀 ♠6"]),
        dict(role="rebel", hand=["桃 ♥3"]),
    ], deck_top=["殺 ♠7", "閃 ♦2", "閃 ♦3"], answers={1: ["發動"]})
    game.players[1].skills = (lib.skills["gaipan"],)
    game.skills.changed_skills()
    lord = game.players[0]
    game.current = lord
    game.turn.run_phase(lord, "judge")
    assert "play" not in lord.skipped  # the ♥ replaced the ♠: 樂不思蜀 does not take effect
    assert game.players[1].hand == []
    assert specs(game.discard_pile) == ["殺 ♠7", "桃 ♥3", "樂不思蜀 ♠6"]
    assert any("代替" in line for line in game.lines)
    finish(game)


def test_repeat_above_the_limit_is_a_located_rules_error(lib):
    game = make_table(lib, seats=[dict(role="lord"), dict(role="rebel")])
    game.players[1].skills = (lib.skills["lianji"],)
    game.skills.changed_skills()
    with pytest.raises(RulesError, match=r"mechanisms\.sgs:11:42: repeat 300 times"):
        game.hp.damage(game.players[1], 1, source=game.players[0])


def test_a_judgement_takes_effect_before_its_after_window(lib):
    """判定牌生效 (閃電 strikes) comes before 判定牌生效後 (a skill takes the judge card)."""
    game = make_table(lib, seats=[
        dict(role="lord", hp=4, judge=["閃電 ♠A"]),
        dict(role="rebel"),
    ], deck_top=["殺 ♠7"])
    lord = game.players[0]
    lord.skills = (lib.skills["shoupan"],)
    game.skills.changed_skills()
    game.current = lord
    game.turn.run_phase(lord, "judge")
    assert lord.hp == 1
    assert specs(lord.hand) == ["殺 ♠7"]
    struck = next(i for i, line in enumerate(game.lines) if "雷電傷害" in line)
    taken = next(i for i, line in enumerate(game.lines) if "發動【收判】" in line)
    assert struck < taken
    assert specs(game.discard_pile) == ["閃電 ♠A"]
    finish(game)
