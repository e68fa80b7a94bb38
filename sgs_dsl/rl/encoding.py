"""A seat's view as a fixed-shape array (docs/rl.md, "Observations"). Built from the seat's
view (engine.view.SeatView) and the question only, so an observation holds nothing the seat
may not see. The layout depends on the ruleset (its cards) and nothing else, so one ruleset's
observations all have one shape.

The vector, in order:
- the hand: one count per card name of the ruleset (`Encoding.cards`, sorted);
- the table: deck size, discard pile size, turn number;
- `MAX_SEATS` seat blocks, the first one's own seat then the others in seat order (a block
  of zeros for a seat the table does not have): present, alive, hp, max hp, hand count,
  judge area count, chained, turned, whose turn, distance from the observer (-1 for itself
  or a dead seat), in the observer's attack range, pile cards, marks, the equipment (one
  flag per card name), the side the observer knows it is on (one flag per `SIDES`; none when
  unknown), its kingdom (one flag per `KINGDOMS`);
- the question: its kind (one flag per `QUESTION_KINDS`, the last for any other), the number
  of options, whether one declines;
- `MAX_OPTIONS` option blocks: present, the card it names (1 + its index in `cards`, 0 for
  none), the seat it names (1 + its place counted from the observer, 0 for none), declines,
  names a skill.
"""

from __future__ import annotations

import re
from typing import Any

import attrs
import numpy as np

from ..engine.decisions import Request, declining_option
from ..engine.view import SeatView

MAX_SEATS = 10
MAX_OPTIONS = 128  # options past this many are never offered to the policy (action_mask 0)
SIDES = ("lord", "loyalist", "rebel", "renegade", "wei", "shu", "wu", "qun", "careerist", "team_a", "team_b")
KINGDOMS = ("wei", "shu", "wu", "qun", "god")
QUESTION_KINDS = ("play", "target", "respond", "counter", "save", "invoke", "discard", "pick_card", "hero", "option",
                  "choice", "declare", "skill", "suit", "order", "arrange", "reveal", "question")
SEAT_FIELDS = 13
OPTION_FIELDS = 5
BRACKETED = re.compile(r"【([^】]+)】")
SEAT_NAMED = re.compile(r"(\d+)號位")


@attrs.frozen
class Encoding:
    """The observation layout of one ruleset: `cards` are the card names it deals."""

    cards: tuple[str, ...]
    skills: frozenset[str]
    index: dict[str, int] = attrs.field(eq=False)  # a card name -> its place in `cards`

    @classmethod
    def of(cls, library: Any, ruleset: str) -> Encoding:
        names = tuple(sorted({card.kind.name for card in library.dealt_cards(ruleset)}))
        return cls(names, frozenset(s.name for s in library.skills.values()), {n: i for i, n in enumerate(names)})

    @property
    def seat_size(self) -> int:
        return SEAT_FIELDS + len(self.cards) + len(SIDES) + len(KINGDOMS)

    @property
    def size(self) -> int:
        return (len(self.cards) + 3 + MAX_SEATS * self.seat_size + len(QUESTION_KINDS) + 1 + 2
                + MAX_OPTIONS * OPTION_FIELDS)

    def card_index(self, label: str) -> int:
        """1 + the index of the card a label names first (its 【NAME】), 0 for none."""
        for name in BRACKETED.findall(label):
            if name in self.index:
                return self.index[name] + 1
        return 0

    def observe(self, view: SeatView, request: Request | None) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        at = 0
        for label in view.hand:
            index = self.card_index(label)
            if index:
                out[index - 1] += 1
        at += len(self.cards)
        out[at:at + 3] = (view.deck_count, len(view.discard_pile), view.turn)
        at += 3
        players = view.players()
        order = [(view.seat + k) % len(players) for k in range(len(players))]
        for seat in order[:MAX_SEATS]:
            self._seat(out, at, view, players[seat])
            at += self.seat_size
        at += (MAX_SEATS - min(len(order), MAX_SEATS)) * self.seat_size
        self._question(out, at, view, request, len(players))
        return out

    def _seat(self, out: np.ndarray, at: int, view: SeatView, p: Any) -> None:
        me = view.seat
        near = p.alive and p.seat != me and view.alive(me) and p.max_hp > 0
        out[at:at + SEAT_FIELDS] = (
            1, p.alive, p.hp, p.max_hp, p.hand_count, len(p.judge), p.chained, p.turned, p.seat == view.current,
            view.distance(me, p.seat) if near else -1, view.in_range(me, p.seat) if near else 0,
            sum(n for _, n, _ in p.piles), sum(n for _, n in p.marks))
        at += SEAT_FIELDS
        for label in p.equips:
            index = self.card_index(label)
            if index:
                out[at + index - 1] = 1
        at += len(self.cards)
        if p.role in SIDES:
            out[at + SIDES.index(p.role)] = 1
        at += len(SIDES)
        if p.kingdom in KINGDOMS:
            out[at + KINGDOMS.index(p.kingdom)] = 1

    def _question(self, out: np.ndarray, at: int, view: SeatView, request: Request | None, seats: int) -> None:
        if request is None:
            return
        kind = QUESTION_KINDS.index(request.kind) if request.kind in QUESTION_KINDS else len(QUESTION_KINDS)
        out[at + kind] = 1
        at += len(QUESTION_KINDS) + 1
        declining = declining_option(request)
        out[at:at + 2] = (len(request.options), declining is not None)
        at += 2
        for i, option in enumerate(request.options[:MAX_OPTIONS]):
            label = option.label
            seat = SEAT_NAMED.match(label)
            named = (int(seat.group(1)) - 1 - view.seat) % seats + 1 if seat else 0
            skill = any(name in self.skills for name in BRACKETED.findall(label))
            out[at:at + OPTION_FIELDS] = (1, self.card_index(label), named, i == declining, skill)
            at += OPTION_FIELDS


def action_mask(request: Request | None) -> np.ndarray:
    """1 for each option of the question (the first MAX_OPTIONS), 0 elsewhere."""
    mask = np.zeros(MAX_OPTIONS, dtype=np.int8)
    if request is not None:
        mask[:min(len(request.options), MAX_OPTIONS)] = 1
    return mask

