"""Small mechanisms at unit level: the checker's located errors for `modify hand_limit(PATTERN)`;
the cards it keeps out of the count; the attack range of a weapon one is treated as equipped
with; the labels of one action for others offered by two owners; and `sgs explain` listing a
skill's filters, treated equipment and actions for others. Their effects in play are the
rulings of tests/rulings/mech_small.ruling."""

from __future__ import annotations

from pathlib import Path

import pytest
from checking import assert_located, check
from click.testing import CliRunner
from table import find, make_table

from sgs_dsl.cli import main
from sgs_dsl.compiler.library import check_paths, load_library

DATA = Path(__file__).parent / "data"
HEROES = DATA / "mech_small.sgs"


@pytest.fixture(scope="module")
def library():
    return load_library([HEROES])


def table(library, skills: dict[int, list[str]], seats: int = 3, **first):
    game = make_table(library, seats=[dict(role="lord", **first)] + [dict() for _ in range(seats - 1)])
    for i, names in skills.items():
        game.players[i].skills = tuple(library.skills[n] for n in names)
    game.skills.changed_skills()
    return game


# ---------------------------------------------------------------- the checker

@pytest.mark.parametrize("body, message, hint", [
    ("  modify hand_limit(殺) += 1;", "takes the matching cards out of the count", "hand_limit(PATTERN) = unlimited"),
    ("  modify hand_limit = unlimited;", "`unlimited` only fits", "keeps those cards out of the count"),
    ("  modify hand_limit(沙) = unlimited;", "unknown card or pattern word '沙'", ""),
    ("  modify distance_to(殺) -= 1;", "`distance_to` is not about a card", "`hand_limit(...)`"),
])
def test_hand_limit_patterns_are_checked_with_located_errors(tmp_path, body, message, hint):
    assert_located(check(tmp_path, body), body, message, hint)


def test_the_test_heroes_check_clean():
    assert check_paths([HEROES]) == []


# ---------------------------------------------------------------- hand limit per pattern

def test_only_matching_hand_cards_are_kept_out_of_the_count(library):
    game = table(library, {0: ["small_cang"]}, hand=["殺 ♠7", "殺 ♣9", "閃 ♦2"])
    owner = game.players[0]
    assert game.turn.uncounted_hand(owner) == [find(game, "殺 ♠7"), find(game, "殺 ♣9")]
    assert game.turn.uncounted_hand(game.players[1]) == []


def test_an_uncounted_card_is_never_discarded_even_when_too_few_others_are_left(library):
    game = table(library, {0: ["small_cang"]}, hand=["殺 ♠7", "閃 ♦2"])
    owner = game.players[0]
    assert game.zones.discard_cards(owner, 2, "hand", spare=game.turn.uncounted_hand(owner))
    assert owner.hand == [find(game, "殺 ♠7")]


# ---------------------------------------------------------------- a treated weapon's range

def test_a_treated_weapon_gives_its_range_only_while_the_slot_is_empty(library):
    game = table(library, {0: ["small_gong"]}, seats=5)
    owner = game.players[0]
    assert game.seats.attack_range(owner) == library.cards["麒麟弓"].range == 5
    assert game.seats.in_range(owner, game.players[2])
    assert game.seats.attack_range(game.players[1]) == 1
    owner.equips["weapon"] = game.deck.pop(game.deck.index(find(game, "諸葛連弩 ♣A")))
    game.skills.changed_skills()
    assert game.seats.attack_range(owner) == 1


def test_a_weapon_set_aside_gives_no_range_and_no_treated_one(library):
    game = table(library, {0: ["small_gong"]}, equips=["青釭劍 ♠6"])
    owner = game.players[0]
    assert game.seats.attack_range(owner) == 2
    game.set_aside = frozenset({owner.equips["weapon"].uid})
    assert game.seats.attack_range(owner) == 1


# ---------------------------------------------------------------- two owners of one action

def test_owners_are_named_only_when_two_offer_one_action(library):
    game = table(library, {0: ["small_zeng"], 2: ["small_zeng"]}, seats=4)
    actor = game.players[1]
    actor.hand.append(game.deck.pop(game.deck.index(find(game, "閃 ♦2"))))
    labels = [o.label for o in game.attached.attached_options(actor)]
    assert labels == [f"發動【試贈】（{game.players[2].label()}）", f"發動【試贈】（{game.players[0].label()}）"]
    game.players[2].skills = ()
    game.skills.changed_skills()
    assert [o.label for o in game.attached.attached_options(actor)] == ["發動【試贈】"]


# ---------------------------------------------------------------- sgs explain

@pytest.mark.parametrize("args, section, line", [
    (["試弓", "-L", str(HEROES)], "equipped:", "`equipped 麒麟弓;` at"),
    (["試贈", "-L", str(HEROES)], "actions for others:", "`attach others once when"),
    (["試紅", "-L", str(DATA / "mech_kinds2.sgs")], "filters:", "`filter ♠ as ♥;` at"),
])
def test_explain_lists_filters_treated_equipment_and_actions_for_others(args, section, line):
    result = CliRunner().invoke(main, ["explain", *args])
    assert result.exit_code == 0, result.output
    out = result.output.splitlines()
    assert section in out
    assert out[out.index(section) + 1].strip().startswith(line)


def test_explain_json_names_each_member_with_its_source(library):
    result = CliRunner().invoke(main, ["explain", "試贈", "-L", str(HEROES), "--json"])
    assert result.exit_code == 0, result.output
    assert '"attached"' in result.output and "mech_small.sgs:13" in result.output
