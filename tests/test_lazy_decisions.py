"""Decisions that cost what they use: a uniformly random agent (decisions.UniformAgent) is
answered by drawing candidates until one is legal (decisions.first_legal), instead of checking
every candidate first. Shown here: the draw is exactly uniform over the legal options, it checks
no more than it must, and in real games it only ever picks an option the full check lists."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from sgs_dsl.agents.random_agent import RandomAgent
from sgs_dsl.compiler.library import load_library
from sgs_dsl.engine.decisions import Option, first_legal
from sgs_dsl.engine.kernel import Game
from sgs_dsl.engine.parts import Parts
from sgs_dsl.game import play_game, setup


def chances(pool: list[Option], legal) -> dict[str, Fraction]:
    """The exact probability of each option being picked, over every sequence of uniform draws."""
    found: dict[str, Fraction] = {}
    for draws in itertools.product(*(range(n) for n in range(len(pool), 0, -1))):
        it = iter(draws)
        picked = first_legal(pool, legal, lambda n, it=it: next(it))
        weight = Fraction(1)
        for n in range(len(pool), 1, -1):
            weight /= n  # every sequence is equally likely; the picks it never reads weigh as one
        found[picked.label] = found.get(picked.label, Fraction(0)) + weight
    return found


@pytest.mark.parametrize("legal_labels", ["a", "ae", "bcd", "abcde", "be"])
def test_the_draw_is_uniform_over_the_legal_options(legal_labels):
    pool = [Option(c) for c in "abcde"]
    found = chances(pool, lambda o: o.label in legal_labels)
    assert found == {label: Fraction(1, len(legal_labels)) for label in legal_labels}


def test_the_draw_checks_no_more_than_it_must():
    checked = []

    def legal(o: Option) -> bool:
        checked.append(o.label)
        return True

    pool = [Option(c) for c in "abcdefgh"]
    first_legal(pool, legal, RandomAgent(3).below)
    assert len(checked) == 1  # every option legal: one check, not eight
    with pytest.raises(ValueError, match="no legal option"):
        first_legal(pool, lambda o: False, RandomAgent(3).below)


class CheckedAsks(Game):
    """A game that, at every question asked with candidates, works out the legal options in
    full and asserts the answer is one of them."""

    lazy_asks = 0

    def ask(self, player, kind, prompt, options, asker=None, for_seat=None, legal=None):
        if legal is None:
            return super().ask(player, kind, prompt, options, asker, for_seat)
        listed = [o for o in options if legal(o)]
        answer = super().ask(player, kind, prompt, options, asker, for_seat, legal)
        assert any(answer is o for o in listed), (answer.label, [o.label for o in listed])
        CheckedAsks.lazy_asks += 1
        return answer


@pytest.mark.parametrize("ruleset, players", [("standard", 5), ("junzheng", 6), ("hegemony", 6), ("campus", 5)])
def test_in_real_games_a_drawn_answer_is_always_one_the_full_check_lists(ruleset, players):
    library = load_library()
    CheckedAsks.lazy_asks = 0
    for seed in range(4):
        result = play_game(library, ruleset, players, seed, parts=Parts(game=CheckedAsks))
        assert result.error is None and not result.violations, (result.error, result.violations)
    assert CheckedAsks.lazy_asks > 50


def test_a_traced_game_lists_every_legal_option():
    """Tracing (rulings, `sgs run --trace`) shows each question with its options: a uniform
    agent's play questions are then listed in full, ending the phase among them."""
    game = setup(load_library(), "basic", 4, 2, log=True)
    game.tracing = True
    game.extra_turns.take_turn(game.current)
    asked = [line for line in game.lines if "〔詢問〕" in line and "出牌階段" in line]
    assert asked and all("結束出牌" in line for line in asked)
