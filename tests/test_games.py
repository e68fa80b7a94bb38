"""Whole random games: determinism, invariants in every game, and the 300-game sweep."""

from __future__ import annotations

import pytest

from sgs_dsl.compiler.library import load_library
from sgs_dsl.game import play_game, run, setup


@pytest.fixture(scope="module")
def library():
    return load_library()


def test_same_seed_same_log(library):
    first = play_game(library, "basic", 5, 3, log=True)
    second = play_game(library, "basic", 5, 3, log=True)
    assert first.log == second.log
    assert len(first.log) > 20


def test_different_seeds_differ(library):
    a = play_game(library, "basic", 5, 1, log=True)
    b = play_game(library, "basic", 5, 2, log=True)
    assert a.log != b.log


@pytest.mark.parametrize("players", range(2, 11))
def test_random_games_keep_invariants(library, players):
    """300 random games across 2-10 players: no engine error, no invariant violation, every game ends."""
    for seed in range(34 if players < 10 else 28):
        result = play_game(library, "basic", players, 1000 * players + seed)
        assert result.error is None, result.error
        assert result.violations == []
        assert result.winner in ("lord", "rebel", "renegade", "draw")
        assert result.capped or result.winner != "draw" or "平局" in result.reason


def test_turn_cap_ends_game_as_reported_draw(library):
    game = setup(library, "basic", 4, 7)
    result = run(game, max_turns=2)
    assert result.capped and result.winner == "draw" and result.turns == 2


def test_lord_has_extra_hp_from_five_players(library):
    four = setup(library, "basic", 4, 1)
    five = setup(library, "basic", 5, 1)
    assert four.players[0].role == "lord" and four.players[0].max_hp == 4
    assert five.players[0].role == "lord" and five.players[0].max_hp == 5
    assert all(p.max_hp == 4 for p in five.players[1:])
    assert all(len(p.hand) == 4 for p in five.players)


@pytest.mark.parametrize("players,roles", [
    (2, ["lord", "renegade"]), (4, ["lord", "loyalist", "rebel", "renegade"]),
    (8, ["lord"] + ["loyalist"] * 2 + ["rebel"] * 4 + ["renegade"]),
    (10, ["lord"] + ["loyalist"] * 3 + ["rebel"] * 4 + ["renegade"] * 2),
])
def test_role_table(library, players, roles):
    game = setup(library, "basic", players, 5)
    assert sorted(p.role for p in game.players) == sorted(roles)
    assert game.players[0].role == "lord"


def test_agents_see_only_what_their_seat_may_see(library):
    seen = []

    class Spy:
        def __init__(self, seat):
            self.seat = seat

        def choose(self, request, view):
            seen.append(view)
            assert view.seat == request.seat == self.seat
            assert not hasattr(view, "players_state") and not hasattr(view, "deck")
            infos = view.players()
            for info in infos:
                hidden = info.seat != view.seat and info.alive and info.seat != 0
                assert (info.role is None) == hidden
            return len(request.options) - 1

    game = setup(library, "basic", 5, 11, agents=[Spy(i) for i in range(5)])
    run(game, max_turns=5)
    assert seen
    me = seen[0]
    assert len(me.hand) == me.players()[me.seat].hand_count
