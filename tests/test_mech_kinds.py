"""Prohibits, modifiers per card and ranges at unit level: the checker's located errors for prohibits with a subject,
modifiers keyed by a card pattern, lists written out and labelled choices; prohibits binding
the subject they name (and costing nothing when no skill forbids); a pattern modifier applying
to its pattern only. The forms' effects in play are the rulings of tests/rulings/mech_kinds.ruling."""

from __future__ import annotations

from pathlib import Path

import pytest
from checking import assert_located, check
from table import make_table

from sgs_dsl.compiler.library import check_paths, load_library
from sgs_dsl.core.model import Use, UsedCard

HEROES = Path(__file__).parent / "data" / "mech_kinds.sgs"


@pytest.fixture(scope="module")
def library():
    return load_library([HEROES])


# ---------------------------------------------------------------- the checker

@pytest.mark.parametrize("body, message, hint", [
    ("  forbid use(桃) for other;", "unknown forbid subject 'other'", "others"),
    ("  forbid uze(桃);", "unknown forbid 'uze'", "use"),
    ("  forbid use(桃) for all when player.hpp > 0;", "player has no field 'hpp'", "hp"),
    ("  modify distance_to(殺) -= 1;", "`distance_to` is not about a card", "trick_distance"),
    ("  active { let x = [you, 1]; }", "a list holds values of one type", ""),
    ("  active { let c = choose_option(you, [\"摸兩張牌\", \"摸兩張牌\"]); }", "offered twice", "own label"),
    ("  active { let c = choose_option(you, [\"是\", \"摸兩張牌\"]); }", "does not say what it does", "name"),
    ("  active { let c = choose_option(you, [you.hp]); }", "must be written as text", "摸兩張牌"),
    ("  active { let c = choose_option(you, \"摸兩張牌\"); }", "expected a list written out", "ruling"),
    ("  active { let c = choose_option(you, [\"摸\", \"回\"], offer: [true]); }", "1 conditions for 2 options",
     "one condition per option"),
    ("  active { let n = declare(you, [殺, shanx]); }", "unknown card 'shanx'", "shan"),
    ("  active { let n = declare(you, [殺, 殺]); }", "'殺' is offered twice", "once"),
    ("  active { let cs = choose_cards(you, match: rde); }", "unknown card or pattern word 'rde'", "red"),
])
def test_new_forms_are_checked_with_located_errors(tmp_path, body, message, hint):
    assert_located(check(tmp_path, body), body, message, hint)


def test_the_test_heroes_check_clean():
    assert check_paths([HEROES]) == []


# ---------------------------------------------------------------- prohibits

def table(library, skills: dict[int, list[str]], seats: int = 3, **kw):
    game = make_table(library, seats=[dict(role="lord")] + [dict() for _ in range(seats - 1)], **kw)
    for i, names in skills.items():
        game.players[i].skills = tuple(library.skills[n] for n in names)
    game.skills.changed_skills()
    return game


def peach(library) -> UsedCard:
    return UsedCard.virtual(library.cards["桃"])


def test_a_forbid_for_others_binds_the_others_only_while_its_condition_holds(library):
    game = table(library, {0: ["kinds_jue"]})
    owner, other = game.players[0], game.players[1]
    game.current = owner
    assert game.prohibits.forbidden(other, "use", peach(library), other)
    assert not game.prohibits.forbidden(owner, "use", peach(library), owner)  # `others`: never the owner
    other.dying = True
    assert not game.prohibits.forbidden(other, "use", peach(library), other)  # the dying player may
    other.dying = False
    game.current = other
    assert not game.prohibits.forbidden(other, "use", peach(library), other)  # outside the owner's turn


def test_a_forbid_for_all_binds_the_owner_too_and_stops_when_the_owner_dies(library):
    game = table(library, {1: ["kinds_zhi"]})
    red = UsedCard.of(next(c for c in game.deck if c.kind.name == "殺" and c.color == "red"))
    black = UsedCard.of(next(c for c in game.deck if c.kind.name == "殺" and c.color == "black"))
    user = game.players[0]
    assert all(game.prohibits.forbidden(p, "target", red, user) for p in game.players)
    assert not game.prohibits.forbidden(game.players[2], "target", black, user)
    game.players[1].alive = False
    game.skills.changed_skills()
    assert not game.prohibits.forbidden(game.players[2], "target", red, user)


def test_no_forbid_in_play_means_an_empty_table(library):
    game = table(library, {})
    assert game.prohibits.forbid_table() == {}
    assert not game.prohibits.forbidden(game.players[1], "use", peach(library), game.players[1])


def test_a_virtual_use_and_a_named_use_respect_a_prohibit_on_using(library):
    game = table(library, {0: ["kinds_shan"], 2: ["kinds_zhi"]})
    owner = game.players[0]
    assert not game.choices.use_virtual(owner, "閃", [game.players[1]], True, False)
    assert not game.choices.can_use_named(owner, "閃")


# ---------------------------------------------------------------- modifiers per pattern

def test_a_trick_distance_modifier_applies_to_its_pattern_only(library):
    game = table(library, {0: ["kinds_liang"]}, seats=5)
    user, far = game.players[0], game.players[2]
    assert game.seats.distance(user, far) == 2
    for name, allowed in (("兵糧寸斷", True), ("順手牽羊", False)):
        kind = library.cards[name]
        card = UsedCard.virtual(kind)
        assert game.using.target_ok(user, kind.mode("play").target, far, card) is allowed, name


def test_attack_range_is_readable(library):
    game = table(library, {})
    assert game.seats.attack_range(game.players[0]) == 1


# ---------------------------------------------------------------- labelled choices

def test_an_option_whose_condition_fails_is_not_offered_and_none_when_nothing_is(library):
    game = table(library, {})
    p = game.players[0]
    assert game.labelled.choose_option(p, ["回復1點體力", "摸兩張牌"], [False, True]) == "摸兩張牌"
    assert game.labelled.choose_option(p, ["回復1點體力"], [False]) is None


def test_a_redirect_never_moves_a_use_onto_a_player_it_may_not_target(library):
    game = table(library, {2: ["kinds_zhi"]})
    red = UsedCard.of(next(c for c in game.deck if c.kind.name == "殺" and c.color == "red"))
    use = Use(red, game.players[0], [game.players[1]], "play")
    game.choices.redirect(use, game.players[1], game.players[2])
    assert use.targets == [game.players[1]]
