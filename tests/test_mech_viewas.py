"""Conversions (view_as) at unit level: the checker's located errors for a rule across the
chosen cards and for the judge area as a source; which sets of cards keep a rule; the offer
and the one-by-one pick respecting it; several conversions of one skill with labels of their
own. The forms in play are the rulings of tests/rulings/mech_viewas.ruling."""

from __future__ import annotations

from pathlib import Path

import pytest
from checking import assert_located, check
from table import find, make_table

from sgs_dsl.compiler.library import load_library
from sgs_dsl.engine import viewas

HEROES = Path(__file__).parent / "data" / "mech_viewas.sgs"


@pytest.fixture(scope="module")
def library():
    return load_library([HEROES])


def table(library, skill: str, **first):
    game = make_table(library, seats=[dict(role="lord", **first), dict()])
    game.players[0].skills = (library.skills[skill],)
    game.skills.changed_skills()
    return game


def offers(game, context: str = "play") -> list[str]:
    return [label for label, _, subcards in game.using.castable(game.players[0], context) if subcards[0] == "view_as"]


def conversion(game, label: str):
    return next(sub[1] for lab, _, sub in game.using.castable(game.players[0], "play") if lab == label)


# ---------------------------------------------------------------- the checker

@pytest.mark.parametrize("body, message, hint", [
    ("  view_as 殺 from 2 any in hand with samee suit;", "unknown rule 'samee'", "same"),
    ("  view_as 殺 from 2 any with different typs;", "not 'typs'", "types"),
    ("  view_as 殺 from 1 any with same suit;", "needs at least 2 cards, not 1", "from 2"),
    ("  view_as 殺 from 1 any in judgee;", "unknown zone 'judgee' for view_as", "judge"),
])
def test_the_new_forms_are_checked_with_located_errors(tmp_path, body, message, hint):
    assert_located(check(tmp_path, body), body, message, hint)


def test_a_rule_and_the_judge_area_compile_into_the_definition(library):
    same, = library.skills["viewas_tong"].view_as
    judge, = library.skills["viewas_pan"].view_as
    assert (same.count, same.zone, same.across) == (2, "hand", ("same", "suit"))
    assert (judge.zone, judge.across) == ("judge", None)


# ---------------------------------------------------------------- which sets keep a rule

def test_completable_and_sample_follow_the_rule():
    assert viewas.completable("same", [], ["s", "h", "s"], 2)
    assert not viewas.completable("same", [], ["s", "h", "c"], 2)
    assert not viewas.completable("same", ["s"], ["h", "c"], 2)
    assert not viewas.completable("same", ["s", "h"], ["s"], 3)
    assert viewas.completable("different", ["basic"], ["basic", "equip"], 2)
    assert not viewas.completable("different", ["basic"], ["basic", "basic"], 2)
    assert viewas.sample("same", [("s", 1), ("h", 2), ("h", 3)], 2) == [2, 3]
    assert viewas.sample("different", [("s", 1), ("s", 2), ("h", 3)], 2) == [1, 3]
    assert viewas.sample("different", [("s", 1), ("s", 2)], 2) is None


def test_a_delayed_trick_is_a_trick_for_different_types(library):
    kinds = library.cards
    assert {viewas.category(kinds[n]) for n in ("樂不思蜀", "決鬥")} == {"trick"}
    assert viewas.category(kinds["赤兔"]) == "equip" and viewas.category(kinds["殺"]) == "basic"


# ---------------------------------------------------------------- the offer and the pick

def test_the_offer_needs_a_set_that_keeps_the_rule(library):
    assert offers(table(library, "viewas_tong", hand=["閃 ♦2", "桃 ♥3", "殺 ♣4"])) == []
    assert offers(table(library, "viewas_tong", hand=["閃 ♦2", "桃 ♥3", "桃 ♦Q"])) == ["【試同】視為【殺】"]


def test_each_pick_offers_only_cards_that_keep_a_fitting_set_possible(library):
    game = table(library, "viewas_se", hand=["桃 ♥3", "殺 ♠8", "殺 ♣5", "閃 ♦2"])
    owner = game.players[0]
    va = owner.skills[0].view_as[0]
    pool = list(owner.hand)
    assert game.using.view_as_fitting(owner, va, [], pool) == pool  # two of each colour
    red = game.using.view_as_fitting(owner, va, [find(game, "桃 ♥3")], [c for c in pool if c.rank != 3])
    assert red == [find(game, "閃 ♦2")]


def test_the_sample_for_the_offer_keeps_the_rule(library):
    game = table(library, "viewas_yi", hand=["閃 ♦2", "桃 ♥3"], equips=["赤兔 ♥5"])
    va = game.players[0].skills[0].view_as[0]
    some = game.using.view_as_sample(game.players[0], va)
    assert some is not None and {c.kind.type for c in some} == {"basic", "offense_horse"}


def test_cards_in_the_judge_area_are_the_pool_of_a_judge_conversion(library):
    game = table(library, "viewas_pan", hand=["閃 ♦2"], judge=["樂不思蜀 ♠6"])
    va = conversion(game, "【試判】視為【殺】")
    assert game.using.view_as_sample(game.players[0], va) == (find(game, "樂不思蜀 ♠6"),)
    assert offers(table(library, "viewas_pan", hand=["閃 ♦2"])) == []


# ---------------------------------------------------------------- several conversions of one skill

def test_one_skill_offers_each_conversion_that_fits_with_its_own_label(library):
    both = table(library, "viewas_shuang", hand=["桃 ♥3", "殺 ♠8", "南蠻入侵 ♠7"])
    assert offers(both) == ["【試雙】視為【殺】（1張）", "【試雙】視為【殺】（2張同花色）"]
    one = table(library, "viewas_shuang", hand=["桃 ♥3", "殺 ♠8", "過河拆橋 ♣3"])
    assert offers(one) == ["【試雙】視為【殺】（1張）"]
    assert offers(one, "play_response") == ["【試雙】視為【殺】（1張）", "【試雙】視為【閃】"]  # 打出
    assert offers(one, "respond") == ["【試雙】視為【閃】"]  # used in answer: a 殺 never is
