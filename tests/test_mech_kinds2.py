"""Filters and treated-as-equipped at unit level: the checker's located errors for filters and treated-as-equipped
skills; a filter read wherever a card's suit or name is read (patterns, fields, conversions,
piles, equipment, judgement cards) without changing the physical card, and costing nothing when
no filter is in play; equipment a player is treated as having only while its slot is empty.
The forms' effects in play are the rulings of tests/rulings/mech_kinds2.ruling."""

from __future__ import annotations

from pathlib import Path

import pytest
from checking import assert_located, check
from table import find, make_table

from sgs_dsl.compiler.library import check_paths, load_library
from sgs_dsl.core.defs import Ctx
from sgs_dsl.core.model import Judge, UsedCard
from sgs_dsl.engine.invariants import check_invariants

HEROES = Path(__file__).parent / "data" / "mech_kinds2.sgs"


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    reader = tmp_path_factory.mktemp("g6") / "reader.sgs"
    reader.write_text('skill 讀紅 kinds2_du "測試：數手牌中紅桃牌" {\n'
                      '  active { for c in cards_of(you, hand) {\n'
                      '    if c is ♥ and c.suit == "heart" and c.red { draw(you, 1); } } }\n}\n',
                      encoding="utf-8")
    return load_library([HEROES, reader])


# ---------------------------------------------------------------- the checker

@pytest.mark.parametrize("body, message, hint", [
    ("  filter ♠ as red;", "count as one suit or one card, not 'red'", "filter ♠ as ♥"),
    ("  filter 殺 as 閃閃;", "not '閃閃'", "閃"),
    ("  filter shaa as ♥;", "unknown card or pattern word 'shaa'", "sha"),
    ("  filter ♠ as ♥ when card.suitt == \"spade\";", "card has no field 'suitt'", "suit"),
    ("  equipped 殺;", "'殺' is a basic card, not equipment", "a weapon, an armour or a horse"),
    ("  equipped 八卦鎮;", "unknown card '八卦鎮'", "八卦陣"),
    ("  equipped 絕影x;", "unknown card", ""),
])
def test_new_forms_are_checked_with_located_errors(tmp_path, body, message, hint):
    assert_located(check(tmp_path, body), body, message, hint)


def test_treated_as_equipped_with_a_card_that_carries_no_skill_is_an_error(tmp_path):
    path = tmp_path / "bare.sgs"
    path.write_text('card 空馬 kongma defense_horse "測試" { }\n'
                    'skill 例 li "測試" {\n  equipped 空馬;\n}\n', encoding="utf-8")
    found = check_paths([path])
    assert [d.span.line for d in found] == [3]
    assert "'空馬' carries no skill" in found[0].message


def test_the_test_heroes_check_clean():
    assert check_paths([HEROES]) == []


# ---------------------------------------------------------------- filters

def table(library, skills: dict[int, list[str]], **kw):
    game = make_table(library, seats=[dict(role="lord", **kw.pop("first", {})), dict(), dict()], **kw)
    for i, names in skills.items():
        game.players[i].skills = tuple(library.skills[n] for n in names)
    game.skills.changed_skills()
    return game


def test_no_filter_in_play_returns_every_card_as_it_is(library):
    game = table(library, {}, first=dict(hand=["殺 ♠7"]))
    card = game.players[0].hand[0]
    assert game.filters.filter_table() == {}
    assert game.filters.seen(card) is card


def test_a_suit_filter_is_read_in_hand_equipment_and_piles_but_the_card_never_changes(library):
    game = table(library, {0: ["kinds2_hong"]}, first=dict(hand=["殺 ♠7"], equips=["八卦陣 ♠2"]))
    owner = game.players[0]
    hand, armour = owner.hand[0], owner.equips["armor"]
    owner.piles["權"] = [game.deck.pop()]
    for card in (hand, armour, *owner.piles["權"]):
        view = game.filters.seen(card)
        assert card.suit != "heart" or view is card
        if card.suit == "spade":
            assert (view.suit, view.color, view.is_virtual) == ("heart", "red", False)
    assert hand.suit == "spade" and game.filters.seen(hand).label() == "【殺】♠7(視為♥)"
    assert check_invariants(game, len(game.all_cards)) == []


def test_another_players_cards_and_a_card_out_of_play_are_not_filtered(library):
    game = table(library, {0: ["kinds2_hong"]})
    other_card = find(game, "殺 ♠7")
    game.players[1].hand.append(game.deck.pop(game.deck.index(other_card)))
    assert game.filters.seen(other_card) is other_card
    loose = next(c for c in game.deck if c.suit == "spade")
    assert game.filters.seen(loose) is loose  # in the deck: nobody's card


def test_a_judgement_card_is_read_as_the_judged_players(library):
    game = table(library, {0: ["kinds2_hong"]}, deck_top=["殺 ♠9"])
    seen = []

    def body(ctx: Ctx) -> None:  # the judgement is open while the text that asked for it runs
        j = game.hp.judge(game.players[0])
        seen.append((j, game.filters.seen(j).suit, game.filters.seen(j.card).color))
    game.hp.run_block(body, Ctx(game, {}), "測試")
    j, suit, color = seen[0]
    assert (suit, color, j.card.suit) == ("heart", "red", "spade")
    assert game.judging == ()  # closed with its block
    assert game.filters.seen(Judge(game.players[1], j.card)).suit == "spade"


def test_text_reads_a_card_through_the_filter_in_patterns_and_fields(library):
    game = table(library, {0: ["kinds2_hong", "kinds2_du"]}, first=dict(hand=["殺 ♠7", "殺 ♣8"]))
    owner = game.players[0]
    before = len(owner.hand)
    body = library.skills["kinds2_du"].actives[0].body
    game.hp.run_block(body, Ctx(game, {"you": owner}), "讀紅")
    assert len(owner.hand) == before + 1  # ♠7 counts as ♥; ♣8 does not


def test_a_name_filter_makes_the_card_castable_as_the_other_card_only(library):
    game = table(library, {0: ["kinds2_ming"]}, first=dict(hand=["閃 ♦2"]))
    owner = game.players[0]
    options = list(game.using.castable(owner, "play"))
    assert [(label, kind.name) for label, kind, _ in options] == [("【閃】♦2(視為【殺】)", "殺")]
    assert list(game.using.castable(owner, "respond", lambda c: c.kind.is_a("閃"))) == []  # no longer a 閃
    used = game.using.make_card(library.cards["殺"], (owner.hand[0],))
    assert used.name == "殺" and not used.is_virtual and used.subcards == (owner.hand[0],)


def test_a_conversion_takes_the_colour_its_cards_count_as(library):
    game = table(library, {0: ["kinds2_hong"]}, first=dict(hand=["殺 ♠7", "殺 ♠8"]))
    owner = game.players[0]
    card = game.using.make_card(library.cards["閃"], tuple(owner.hand))
    assert (card.suit, card.color) == ("heart", "red")
    assert UsedCard.virtual(library.cards["閃"], tuple(owner.hand)).color == "black"


# ---------------------------------------------------------------- treated as equipped

def test_treated_equipment_is_a_skill_only_while_its_slot_is_empty(library):
    armour = library.cards["八卦陣"].skill
    game = table(library, {0: ["kinds2_zhen"]})
    owner = game.players[0]
    assert armour in game.skills.skills_of(owner) and game.filters.treated_as(owner, armour)
    owner.equips["armor"] = game.deck.pop(game.deck.index(find(game, "仁王盾 ♣2")))
    game.skills.changed_skills()
    assert armour not in game.skills.skills_of(owner)
    assert library.cards["仁王盾"].skill in game.skills.skills_of(owner)


def test_a_filter_applies_only_while_its_condition_holds(tmp_path):
    text = tmp_path / "when.sgs"
    text.write_text('skill 試條 kinds2_tiao locked "鎖定技，若你已受傷，你的♠牌視為♥牌。" {\n'
                    '  filter ♠ as ♥ when you.hurt;\n}\n', encoding="utf-8")
    lib = load_library([HEROES, text])
    game = table(lib, {0: ["kinds2_tiao"]}, first=dict(hand=["殺 ♠7"]))
    owner = game.players[0]
    card = owner.hand[0]
    assert game.filters.seen(card) is card  # at full hp: read as printed
    owner.hp -= 1
    assert game.filters.seen(card).suit == "heart" and card.suit == "spade"
