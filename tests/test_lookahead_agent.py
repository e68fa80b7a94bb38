"""The lookahead agent's choice of questions and candidates, and its score of a table
(agents/lookahead.py; its games are tested with the forward model, tests/test_forward_model.py)."""

from __future__ import annotations

import pytest

from sgs_dsl.agents.lookahead import LookaheadAgent, Settings, evaluate, worth
from sgs_dsl.agents.registry import make_agent
from sgs_dsl.compiler.library import load_library
from sgs_dsl.engine.decisions import Option, Request
from sgs_dsl.game import build_deck, setup


@pytest.fixture(scope="module")
def library():
    return load_library()


@pytest.fixture(scope="module")
def deck(library):
    return build_deck(library, "junzheng")


def _card(deck, name, color=None, skip=0):
    found = [c for c in deck if c.kind.name == name and (color is None or c.color == color)]
    return found[skip]


def _play_option(card):
    return Option(f"【{card.kind.name}】{card.suit}{card.rank}", (card.kind, [card]))


def _request(kind, options):
    return Request(0, kind, "", tuple(options))


def test_the_registry_makes_the_default_settings():
    agent = make_agent("lookahead", 1)
    assert isinstance(agent, LookaheadAgent) and agent.settings == Settings()


def test_a_close_call_is_an_option_scored_near_the_pick_but_no_equipment(deck):
    """Within `margin` of the pick and not a piece of equipment (one that would replace
    another is a wash the heuristic declines): best first, the pick leading."""
    options = [Option("結束出牌"), _play_option(_card(deck, "殺")), _play_option(_card(deck, "過河拆橋")),
               _play_option(_card(deck, "諸葛連弩")), _play_option(_card(deck, "順手牽羊"))]
    agent = LookaheadAgent(1, Settings(margin=1.0))
    agent.heuristic.last_scores = [0.0, -1.0, -0.5, -0.5, -1.5]
    assert agent._close_calls(_request("play", options), 0) == [0, 2, 1]
    agent.heuristic.last_scores = [0.0, -2.0, -2.0, -0.5, -3.0]
    assert agent._close_calls(_request("play", options), 0) == []  # only the equipment is near
    assert LookaheadAgent(1, Settings(margin=None))._close_calls(_request("play", options), 0) == []


def test_alike_cards_are_one_candidate(deck):
    """Two cards of one kind and colour are one candidate; another colour is another."""
    from sgs_dsl.agents.lookahead import _unlike

    red = [c for c in deck if c.kind.name == "殺" and c.color == "red"]
    black = _card(deck, "殺", "black")
    options = [Option("結束出牌"), _play_option(red[0]), _play_option(red[1]), _play_option(black)]
    assert _unlike(_request("play", options), [0, 1, 2, 3]) == [0, 1, 3]


def test_a_pivotal_player_weighs_more_in_the_score(library):
    """The score is the seat's camp's worth less the others'; the lord's (Mode.pivotal) counts
    `pivotal` times."""
    game = setup(library, "standard", 5, 3)
    lord = next(p for p in game.players if p.role == "lord")
    rebel = next(p for p in game.players if p.role == "rebel")
    plain = evaluate(game, rebel.seat, None, pivotal=1.0)
    weighed = evaluate(game, rebel.seat, None, pivotal=2.0)
    assert weighed == pytest.approx(plain - worth(lord))  # the lord is the rebel's enemy
    mine = evaluate(game, lord.seat, None, pivotal=1.0)
    assert evaluate(game, lord.seat, None, pivotal=2.0) == pytest.approx(mine + worth(lord))  # its own


class _View:
    """What `_best` reads of a seat's view: the sides it sees, the cards it knows."""

    def __init__(self, hidden: int, seats: int = 8):
        self._sides = ("lord",) + ("rebel",) * (seats - 1 - hidden) + (None,) * hidden
        self.seat, self.turn = 1, 1

    def sides(self):
        return self._sides

    def known_cards(self):
        return frozenset()


class _Guess:
    def relation(self, view):
        return (0.0,) * len(view.sides())


@pytest.mark.parametrize("hidden,worlds", [(0, 1), (4, 1), (5, 2), (7, 2)])
def test_more_worlds_are_dealt_the_more_sides_are_hidden(hidden, worlds):
    """One world per question, and one more for every `hidden_per_world` (5) seats whose side
    the seat cannot see; each candidate is played in each world."""
    agent = LookaheadAgent(1)
    played = []
    agent._rollout = lambda request, view, index, world, pinned, belief: played.append(index) or 0.0
    agent.heuristic = _Guess()  # (the compiled build's heuristic agent takes no patched method)
    agent._best(_request("play", [Option("a"), Option("b")]), _View(hidden), [0, 1], 0)
    assert played == [0, 1] * worlds
