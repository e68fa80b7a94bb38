"""交換位置 (`swap_seats`): the table's order changes, seat numbers keep naming their players."""

from __future__ import annotations

from sgs_dsl.compiler.library import load_library
from sgs_dsl.game import setup


def test_swapping_two_seats_changes_distances_seat_order_and_the_next_turn() -> None:
    game = setup(load_library(), "basic", 5, 1)
    one, two, three, four, five = game.players
    assert game.seats.distance(one, four) == 2 and game.seats.next_alive(one) is two
    game.state.swap_seats(one, three)  # the table reads 3, 2, 1, 4, 5
    assert [p.seat for p in game.table] == [2, 1, 0, 3, 4]
    assert game.seats.distance(one, four) == 1 and game.seats.distance(three, five) == 1 and game.seats.distance(one, three) == 2
    assert game.seats.next_alive(one) is four and game.seats.next_alive(five) is three
    assert [p.seat for p in game.seats.seat_order(one)] == [0, 3, 4, 2, 1]
    assert one.seat == 0 and game.players[0] is one  # a seat number keeps naming its player
    game.current = one
    assert game.using.in_resolve_order([two, four, three]) == [four, three, two]  # from one's new place


def test_a_dead_player_cannot_swap() -> None:
    game = setup(load_library(), "basic", 4, 1)
    a, b = game.players[0], game.players[2]
    b.alive = False
    game.state.swap_seats(a, b)
    assert [p.seat for p in game.table] == [0, 1, 2, 3]
