"""What a ruling's table says of a seat's state beyond its cards: a card lying in a judge
area as another delayed trick (`as`), a limited skill already used (`spent`); their misuse is a
located error."""

from __future__ import annotations

import pytest

from sgs_dsl.rulings.parser import parse_rulings
from sgs_dsl.syntax.diagnostics import SgsError


def load(seat_1: str) -> list:
    text = f'ruling "t" {{\n  source "s";\n  seat 1 lord {seat_1};\n  seat 2 rebel;\n  phase 1 play;\n}}\n'
    return parse_rulings(text, "t.ruling")


def errors(seat_1: str) -> list[tuple[int, int, str, str]]:
    with pytest.raises(SgsError) as error:
        load(seat_1)
    return [(d.span.line, d.span.column, d.message, d.hint) for d in error.value.diagnostics]


def test_a_card_as_a_trick_and_a_spent_skill_are_read():
    (ruling,) = load("hero 賈詡 spent 亂武 judge [閃 ♦3 as 樂不思蜀, 閃電 ♠A]")
    seat = ruling.seats[0]
    assert seat.judge[0].counts_as.endswith("樂不思蜀") and seat.judge[1].counts_as == ""
    assert seat.spent and seat.spent[0].endswith("亂武")


def test_as_names_a_delayed_trick():
    ((line, column, message, hint),) = errors("judge [閃 ♦3 as 桃]")
    assert (line, column) == (3, 30) and message == "桃 is not a delayed trick"
    assert "樂不思蜀" in hint and "閃電" in hint  # the library's delayed tricks, listed


def test_a_card_that_is_no_delayed_trick_needs_as():
    ((line, column, message, hint),) = errors("judge [閃 ♦3]")
    assert (line, column) == (3, 22) and message == "閃 is not a delayed trick" and "閃 ♦3 as TRICK" in hint


def test_spent_names_a_limited_skill_of_the_hero():
    ((line, _, message, _),) = errors("hero 賈詡 spent 完殺")
    assert line == 3 and message == "完殺 is not a limited skill (限定技)"
    ((line, _, message, _),) = errors("hero 劉備 spent forest.亂武")
    assert line == 3 and message == "劉備 has no skill 亂武"


def test_a_dead_seat_has_no_spent_skill():
    found = errors("hero 賈詡 spent 亂武 dead")
    assert any("is dead but is given" in message for _, _, message, _ in found)
