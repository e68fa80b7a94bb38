"""Piles, moves and history at unit level: the checker's errors for piles, `move` and the history queries
(located, with hints), one move as one cards-lost window per player and zone, private piles
picked face down, the invariants with piles and cards put on the deck, and the history's
periods. The forms' effects in play are the rulings of tests/rulings/mech_moves.ruling."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from checking import check_text as check
from table import TOTAL, find, make_table, specs

from sgs_dsl.compiler.library import load_library
from sgs_dsl.engine.invariants import InvariantBroken, Invariants, check_invariants
from sgs_dsl.engine.parts import Parts
from sgs_dsl.engine.triggers import Triggers
from sgs_dsl.rulings.parser import parse_rulings
from sgs_dsl.syntax.diagnostics import SgsError

HEROES = Path(__file__).parent / "data" / "mech_moves.sgs"


@pytest.fixture(scope="module")
def library():
    return load_library([HEROES])


def skill(body: str) -> str:
    return f'skill 例 li "測試" {{\n  pile 例堆;\n{body}\n}}\n'


# ---------------------------------------------------------------- the checker

@pytest.mark.parametrize("body, message, hint", [
    ("  pile 權, secret;", "unknown pile visibility 'secret'", "private"),
    ("  pile hand;", "'hand' names a zone already", "pile 權"),
    ("  pile 例堆, private;", "pile '例堆' is declared both public and private", "same way"),
    ("  pile 權, private, more;", "a pile is declared with a name", "pile 權"),
    ("  active { move(cards_of(you, hand), to: hnd); }", "unknown place 'hnd'", "hand"),
    ("  active { move(cards_of(you, hand), to: 例推); }", "unknown place '例推'", "例堆"),
    ("  active { move(cards_of(you, hand), reason: thrown); }", "unknown reason 'thrown'", "reasons"),
    ("  active { move(cards_of(you, hand), to: \"hand\"); }", "expected a place name here", "deck_top"),
    ("  active { draw(you, count(history(you, discard, phase))); }", "unknown history_kind 'discard'",
     "discarded"),
    ("  active { draw(you, damage_history(you, dealt, game)); }", "unknown period 'game'", "phase, turn, round"),
    ("  active { draw(you, damage_history(you, lost, turn)); }", "unknown damage_kind 'lost'", "dealt"),
    ("  active { draw(you, count(pile(you, 權))); }", "unknown pile '權'", ""),
    ("  view_as 殺 from 1 any in 例推;", "unknown zone '例推' for view_as", "例堆"),
    ("  active { let c = pick(you, you, 例推); }", "unknown zone '例推'", "例堆"),
    ('  on cards_lost when move.player == you and move.zone == "hand" { draw(you, 1); }',
     "one loss may take cards from the hand and the equipment area at once", "count(move.hand) > 0"),
    ("  on into_discard_pile when discarded.origin == \"hnd\" { draw(you, 1); }", "'hnd'", "hand"),
    ("  on hp_changed each_card when change.player == you { draw(you, 1); }", "`each_card` repeats per card",
     ""),
])
def test_new_forms_are_checked_with_located_errors(tmp_path, body, message, hint):
    found = check(tmp_path, skill(body))
    assert found, f"no error for {body!r}"
    first = found[0]
    assert message in first.message, first.render()
    assert hint in first.hint
    assert "bad.sgs:3:" in first.render()


def test_a_declared_pile_is_a_zone_for_every_skill(tmp_path):
    text = skill("") + ('skill 例二 lier "測試" {\n  active { let c = pick(you, you, 例堆); '
                        'move(choose_cards(you, from: 例堆), to: hand); }\n  view_as 桃 from 1 red in 例堆;\n}\n')
    assert check(tmp_path, text) == []


def test_a_ruling_naming_an_undeclared_pile_is_a_located_error(library):
    text = ('ruling "r" {\n  seat 1 lord pile 權 [殺 ♠7];\n  seat 2 rebel;\n  phase 1 play;\n'
            '  expect { seat 1 pile 全 []; }\n}\n')
    with pytest.raises(SgsError) as caught:
        parse_rulings(text, "bad.ruling", library)
    rendered = str(caught.value)
    assert "bad.ruling:5:" in rendered and "unknown pile '全'" in rendered and "權" in rendered


# ---------------------------------------------------------------- the engine

def test_cards_that_move_together_open_one_window_per_player(library):
    """One loss event for the player's hand and equipment alike (move.hand, move.equip)."""
    game = make_table(library, seats=[dict(role="lord", hand=["殺 ♠7", "閃 ♦2"], equips=["諸葛連弩 ♣A"]),
                                      dict()])
    game.tracing = True
    game.moves.move_cards([find(game, c) for c in ("殺 ♠7", "閃 ♦2", "諸葛連弩 ♣A")], "discard", reason="discard")
    windows = [line for line in game.lines if "〔時機〕" in line]
    assert windows == ["  〔時機〕失去牌後"]
    assert specs(game.discard_pile) == ["殺 ♠7", "閃 ♦2", "諸葛連弩 ♣A"]


class LostWindows(Triggers):
    """Windows that only record the cards each move carries (no skill hears them)."""

    seen: list = []

    def open_window(self, window, variables, extra=None):
        self.seen.append(specs(variables["move"].cards))


def test_the_window_carries_every_card_lost(library):
    seen = LostWindows.seen = []
    game = make_table(library, seats=[dict(role="lord", hand=["殺 ♠7", "閃 ♦2"]), dict()],
                      parts=Parts(triggers=LostWindows))
    game.tracing = True  # a window nobody hears is only counted (no payload is built) unless traced
    game.zones.to_discard(list(game.players[0].hand), "discard")
    assert seen == [["殺 ♠7", "閃 ♦2"]]


def test_a_private_pile_is_picked_face_down_by_others_and_face_up_by_its_owner(library):
    game = make_table(library, seats=[dict(role="lord"), dict()], answers={0: ["【殺】♠7"], 1: ["扣置的牌2"]})
    game.tracing = True
    owner = game.players[0]
    game.moves.move_cards([find(game, "閃 ♦2"), find(game, "殺 ♠7")], "pile:藏", owner)
    assert game.zones.pick_card(game.players[1], owner, "pile:藏") is find(game, "殺 ♠7")
    assert game.zones.pick_card(owner, owner, "pile:藏") is find(game, "殺 ♠7")
    asked = [line for line in game.lines if "〔詢問〕" in line]
    assert "［扣置的牌1／扣置的牌2］" in asked[0] and "［【閃】♦2／【殺】♠7］" in asked[1]


def test_piles_are_counted_by_the_invariants(library):
    game = make_table(library, seats=[dict(role="lord", hand=["殺 ♠7"]), dict()])
    p = game.players[0]
    game.moves.move_cards([find(game, "殺 ♠7")], "pile:權", p)
    assert p.piles == {"權": [find(game, "殺 ♠7")]} and p.hand == []
    assert check_invariants(game, TOTAL) == []
    p.alive = False
    assert any("dead but holds cards" in problem for problem in check_invariants(game, TOTAL))


def test_a_dead_players_piles_go_to_the_discard_pile(library):
    game = make_table(library, seats=[dict(role="lord"), dict(), dict()])
    p = game.players[1]
    game.moves.move_cards([find(game, "殺 ♠7"), find(game, "閃 ♦2")], "pile:權", p)
    game.moves.empty_piles(p)
    assert p.piles == {"權": []} and specs(game.discard_pile) == ["殺 ♠7", "閃 ♦2"]


def test_cards_put_on_the_deck_pass_the_free_time_check(library):
    game = make_table(library, seats=[dict(role="lord", hand=["殺 ♠7", "閃 ♦2", "閃 ♦3"]), dict()])
    watch = Invariants.start(game)
    game.moves.move_by_text([find(game, "殺 ♠7")], "deck_top", None, "put", game.players[0])
    game.moves.move_by_text([find(game, "閃 ♦2")], "deck_bottom", None, "put", game.players[0])
    watch.at_free_time()  # no InvariantBroken: the deck grew by two traced moves
    assert game.deck[-1] is find(game, "殺 ♠7") and game.deck[0] is find(game, "閃 ♦2")
    game.deck.append(game.players[0].hand.pop())  # a card slipped onto the deck, not by a move
    with pytest.raises(InvariantBroken, match="deck"):
        watch.at_free_time()


def test_a_refused_move_moves_nothing(library):
    game = make_table(library, seats=[dict(role="lord", hand=["殺 ♠7"]), dict(equips=["青釭劍 ♠6"])])
    before = specs(game.players[0].hand)
    assert not game.moves.move_by_text([find(game, "殺 ♠7")], "equip", game.players[1], "put", game.players[0])
    assert not game.moves.move_by_text([find(game, "殺 ♠7")], "judge", game.players[1], "put", game.players[0])
    assert specs(game.players[0].hand) == before
    assert game.moves.move_by_text([find(game, "諸葛連弩 ♣A")], "equip", game.players[1], "put", game.players[0],
                             replace=True)
    assert specs(game.players[1].equips.values()) == ["諸葛連弩 ♣A"] and specs(game.discard_pile) == ["青釭劍 ♠6"]


def test_the_history_is_kept_per_period_and_only_when_text_queries_it(library):
    game = make_table(library, seats=[dict(role="lord", hand=["殺 ♠7", "閃 ♦2"]), dict()])
    p = game.players[0]
    assert game.history.on  # mech_moves.sgs queries it
    game.turn._maybe_new_round(game.players[0])  # the turn starts rounds (engine/turn.py)
    game.history.start("turn", 0)
    game.history.start("phase", 0)
    game.zones.to_discard([find(game, "殺 ♠7")], "discard")
    game.history.start("phase", 0)
    game.zones.to_discard([find(game, "閃 ♦2")], "discard")
    assert specs(game.history.cards(p, "discarded", "phase")) == ["閃 ♦2"]
    assert specs(game.history.cards(p, "discarded", "turn")) == ["殺 ♠7", "閃 ♦2"]
    assert specs(game.history.cards(p, "lost", "turn")) == ["殺 ♠7", "閃 ♦2"]
    game.turn._maybe_new_round(game.players[1])  # the next seat: the same round
    assert len(game.history.cards(p, "discarded", "round")) == 2
    game.turn._maybe_new_round(game.players[0])  # back to the first seat: a new round, the log starts again
    assert game.history.moves == []
    # a library whose text never queries the history (the shipped one does: 固政 of 國戰)
    quiet = attrs.evolve(library, history_used=False, history_skills=frozenset())
    plain = make_table(quiet, seats=[dict(role="lord", hand=["殺 ♠7"]), dict()])
    plain.zones.to_discard([find(plain, "殺 ♠7")], "discard")
    assert not plain.history.on and plain.history.moves == []


def test_swapping_hands_is_one_move_recorded_for_both(library):
    game = make_table(library, seats=[dict(role="lord", hand=["殺 ♠7"]), dict(hand=["閃 ♦2", "閃 ♦3"])])
    a, b = game.players
    game.moves.swap_hands(a, b)
    assert specs(a.hand) == ["閃 ♦2", "閃 ♦3"] and specs(b.hand) == ["殺 ♠7"]
    assert specs(game.history.cards(a, "gained", "round")) == ["閃 ♦2", "閃 ♦3"]
    assert specs(game.history.cards(b, "lost", "round")) == ["閃 ♦2", "閃 ♦3"]


def test_moves_are_recorded_only_in_games_whose_text_may_ask() -> None:
    # a skill of the 國戰 generals queries the history: identity games do not pay for it
    from sgs_dsl.compiler.library import load_library as load

    lib = load()
    assert lib.history_skills and not lib.history_used
    assert not lib.queries_history(lib.rulesets["standard"]) and lib.queries_history(lib.rulesets["hegemony"])
