"""The 108-card 國戰 deck as text (cards/hegemony.sgs), the kingdom builtins
every mode has, and modifiers with a subject (`modify ... for others when ...`). The cards in
play: tests/rulings/hegemony_cards.ruling, identity games of the test ruleset h5_deck."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest
from checking import assert_located, check
from click.testing import CliRunner
from table import make_table

from sgs_dsl.cli import main
from sgs_dsl.compiler import runtime
from sgs_dsl.compiler.library import load_library
from sgs_dsl.core.defs import Ctx
from sgs_dsl.core.model import Card
from sgs_dsl.game import build_deck

DATA = Path(__file__).parent / "data"
H5 = DATA / "h5_deck.sgs"
HEG_ONLY = {"zhiji_zhibi": "trick", "yuanjiao_jingong": "trick", "yiyi_dailao": "trick",
            "wuxie_keji_guo": "trick", "wu_liu_jian": "weapon", "sanjian_liangren_dao": "weapon"}


@pytest.fixture(scope="module")
def library():
    return load_library([H5])


def tsv_rows() -> list[dict[str, str]]:
    with (DATA / "cards_guozhan.tsv").open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def test_the_deck_is_exactly_cards_guozhan_tsv(library):
    deck = build_deck(library, "h5_deck")
    rows = tsv_rows()
    assert len(deck) == len(rows) == 108
    assert Counter((c.kind.name, c.suit, c.rank) for c in deck) == Counter(
        (r["name_zh_hant"], r["suit"], int(r["rank"])) for r in rows)
    assert Counter(c.kind.id for c in deck) == Counter(r["id"] for r in rows)
    assert Counter(c.suit for c in deck) == {s: 27 for s in ("spade", "heart", "club", "diamond")}


def test_the_six_hegemony_kinds_are_defined_once_with_the_tsv_names(library):
    by_id = {k.id: k for k in library.cards.values()}
    names = {r["id"]: r["name_zh_hant"] for r in tsv_rows() if r["heg_only"] == "yes"}
    assert set(names) == set(HEG_ONLY)
    for ident, kind_type in HEG_ONLY.items():
        assert (by_id[ident].name, by_id[ident].type) == (names[ident], kind_type)
    assert by_id["wuxie_keji_guo"].rule_name == by_id["wuxie_keji"].name  # it works as 無懈可擊
    assert (by_id["wu_liu_jian"].range, by_id["sanjian_liangren_dao"].range) == (2, 3)
    assert by_id["zhiji_zhibi"].recast == 1


def test_sgs_cards_lists_the_108_cards():
    result = CliRunner().invoke(main, ["cards", "--ruleset", "h5_deck", "--library", str(H5), "--json"])
    assert result.exit_code == 0, result.output
    cards = json.loads(result.output)
    assert len(cards) == 108
    assert Counter(c["id"] for c in cards)["wuxie_keji_guo"] == 2


# ---------------------------------------------------------------- kingdoms

def kingdom_table(library, kingdoms: list[str]):
    game = make_table(library, seats=[dict(role="lord")] + [dict() for _ in kingdoms[1:]], current=1)
    for p, k in zip(game.players, kingdoms, strict=True):
        p.kingdom = k
    return game, Ctx(game, {})


def test_same_kingdom_needs_both_known_and_no_careerist(library):
    game, ctx = kingdom_table(library, ["wei", "wei", "", "careerist", "careerist", "shu"])
    a, b, unknown, c1, c2, shu = game.players
    assert runtime.same_kingdom(ctx, a, b) and runtime.same_kingdom(ctx, a, a)
    assert not runtime.same_kingdom(ctx, a, shu)
    assert not runtime.same_kingdom(ctx, unknown, unknown)  # an unknown kingdom is nobody's
    assert not runtime.same_kingdom(ctx, c1, c2) and not runtime.same_kingdom(ctx, c1, c1)
    assert [runtime.kingdom_known(ctx, p) for p in (a, unknown, c1)] == [True, False, True]


def test_kingdom_players_in_seat_order_from_the_current_player(library):
    game, ctx = kingdom_table(library, ["wei", "shu", "wei", "", "careerist", "wei"])
    a, shu, b, unknown, careerist, c = game.players
    c.alive = False
    assert runtime.kingdom_players(ctx, a) == [b, a]  # the current player is seat 2; the dead are left out
    assert runtime.kingdom_players(ctx, shu) == [shu]
    assert runtime.kingdom_players(ctx, unknown) == []
    assert runtime.kingdom_players(ctx, careerist) == [careerist]


# ---------------------------------------------------------------- modifiers with a subject

@pytest.mark.parametrize("body, message, hint", [
    ("  modify attack_range += 1 for other;", "unknown modifier subject 'other'", "others"),
    ("  modify attack_range += 1 when player.hp > 1;", "unknown variable 'player'", ""),
])
def test_a_modifier_subject_is_checked_with_located_errors(tmp_path, body, message, hint):
    assert_located(check(tmp_path, body), body, message, hint)


def subject_table(library, owner_kingdom: str = "wei"):
    game = make_table(library, seats=[dict(role="lord"), dict(), dict(), dict()])
    for p, k in zip(game.players, [owner_kingdom, "wei", "shu", ""], strict=True):
        p.kingdom = k
    return game


def test_for_others_binds_the_owners_kingdom_mates_and_not_the_owner(library):
    game = subject_table(library)
    owner, mate, shu, unknown = game.players
    assert game.skills.modifiers(mate, "attack_range") == ()  # no modifier in play: the fast path
    kind = next(k for k in library.cards.values() if k.id == "wu_liu_jian")
    owner.equips["weapon"] = Card(len(game.all_cards), kind, "diamond", 6)  # not of the basic deck
    game.skills.changed_skills()
    assert [game.seats.attack_range(p) for p in game.players] == [2, 2, 1, 1]
    owner.alive = False
    game.skills.changed_skills()
    assert game.seats.attack_range(mate) == 1  # a dead owner binds nobody


def test_for_all_binds_the_owner_too(library):
    game = subject_table(library)
    game.players[0].skills = (library.skills["試助"],)
    game.skills.changed_skills()
    assert [game.skills.modified(p, "hand_limit", 0) for p in game.players] == [1, 1, 0, 0]
    game.players[0].kingdom = "careerist"
    assert [game.skills.modified(p, "hand_limit", 0) for p in game.players] == [0, 0, 0, 0]
