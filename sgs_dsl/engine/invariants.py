"""Invariants of a table, checked while a game runs so that an engine bug shows up as a named
violation near where it happened, not as a strange game many turns later.

At every free time (between actions of the play phase, between phases: `Game.on_free_time`)
at which the table has changed since the last one (`Game.table_version`, bumped by every move,
hp change, death and change of skills) `Invariants.at_free_time` runs a cheap test (card count, hp bounds, the dead empty-handed, the
processing area empty, the deck not growing, the mode's victory when someone died) and, only
if it looks wrong, the full check that names the problems. After every turn the full check
runs: each card in exactly one zone (its face cannot change: `Card` is frozen), the deck holding only
cards it held at the last check or the last reshuffle, the equipment in the right slots.
docs/reliability.md ("Invariants") lists every check and its message."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..core.model import Card, GameOver, Player
from ..core.native import mypyc_attr

if TYPE_CHECKING:
    from .kernel import Game


class InvariantLevel(str, enum.Enum):
    """How much of a game is checked (`sgs simulate --invariants`): at every free time inside a
    turn, between turns and at the end (a bug is named where it happened); between turns and at
    the end only (the full check: a bug is named at the end of the turn it happened in, unless
    the turn undid it); or not at all. The game played is the same at every level, up to the
    first violation, where a checked game stops."""

    EVERY_FREE_TIME = "every-free-time"
    TURN = "turn"
    OFF = "off"

    def __str__(self) -> str:  # as enum.StrEnum (Python 3.11) reads: its value
        return str(self.value)


#: The level games are checked at unless told: see docs/reliability.md ("How often").
DEFAULT_LEVEL = InvariantLevel.EVERY_FREE_TIME


class InvariantBroken(Exception):
    """An invariant failed at a free time (inside a turn or between turns): the game stops there."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


def check_invariants(game: Game, total: int) -> list[str]:
    """The checks that need no history (the cards and the players), for a table built by hand
    (whose roles and seats need not be any the mode deals: its own invariants are left out)."""
    return _card_problems(game, total, None) + _player_problems(game)


def declared(game: Game) -> GameOver | None:
    """The end of the game the mode's victory check declares now, if any."""
    try:
        game.mode.check_victory(game)
    except GameOver as over:
        return over
    return None


def victory_problems(game: Game) -> list[str]:
    """At a free time the game goes on: the mode's victory check declares no winner, and the
    table, read afresh by the mode's `outcome`, shows none either."""
    over, shown = declared(game), game.mode.outcome(game)
    problems = []
    if over is not None:
        problems.append(f"the game goes on though the mode says it is over ({over.reason})")
        if over.winner != shown:
            problems.append(f"the mode's victory check declares {over.winner}, but the table shows "
                            f"{shown or 'no winner'}")
    elif shown is not None:
        problems.append(f"the game goes on though the table shows {shown} has won (the mode's victory check "
                        "declares no winner)")
    return problems


def outcome_problems(game: Game, over: GameOver) -> list[str]:
    """The game ended: the winner declared is the one the table shows (a draw: none)."""
    shown = game.mode.outcome(game)
    if over.winner == (shown or "draw"):
        return []
    return [f"the game ended with {over.winner} the winner ({over.reason}), but the table shows "
            f"{shown or 'no winner'}"]


@mypyc_attr(allow_interpreted_subclasses=True)
class Invariants:
    """The invariants of one game from the table it started with (what needs history lives here).
    Each check first asks cheaply whether all is well, and builds its messages only if not. A
    plain class, not attrs': the compiled build compiles it and tools subclass it."""

    def __init__(self, game: Game, cards: frozenset[Card], originals: tuple[Card, ...], deck: list[Card],
                 deck_ref: list[Card], deck_ref_len: int, deck_size: int, living: int) -> None:
        self.game = game
        self.cards = cards  # the game's physical cards (identity-hashed)
        self.originals = originals  # `game.all_cards` at the start
        self.deck = deck  # the deck list object: draw_top replaces it when it reshuffles the discard pile
        self.deck_ref = deck_ref  # the deck at the last full check (or the reshuffle): its first `deck_ref_len` cards
        self.deck_ref_len = deck_ref_len
        # the cards of `deck_ref[:deck_ref_len]` as a set if they are distinct and all the game's,
        # else None: while the deck has only been drawn from, it is the deck's cards
        self.deck_ref_set = self._known_set(deck_ref[:deck_ref_len])
        self.deck_size = deck_size  # the deck's size at the last free time
        self.living = living
        # the table's version (`Game.table_version`) and the shared zones' sizes at the last look
        self.seen: tuple[int, int, int, int] | None = None
        self.seats_version = -1  # `Game.seats_version` when the mode's own state was last checked
        self.living_at_mode_check = -1  # and the living players then
        self.victory_seen = (-1, -1)  # the living players and `Game.seats_version` at the last victory check
        self.waived: frozenset[str] = frozenset()  # problems the table was set up with (rulings only)

    @classmethod
    def start(cls, game: Game, waive: bool = False) -> Invariants:
        """The checker of a game about to start; with `waive`, what is wrong with the table as it
        was set (a ruling's table may start with a winner, or with a player at hp 0) is not
        reported again, unless it changes."""
        cards = tuple(game.all_cards)
        living = sum(p.alive for p in game.players)
        invariants = cls(game, frozenset(cards), cards, game.deck, list(game.deck), len(game.deck), len(game.deck),
                         living)
        if waive:
            invariants.waived = frozenset(invariants.problems(free_time=True))
        return invariants

    def at_free_time(self) -> None:
        """Raise InvariantBroken when the table is wrong; costs a few counts when it is right."""
        g = self.game
        seen = (g.table_version, len(g.deck), len(g.discard_pile), len(g.processing))
        if seen == self.seen:  # nothing moved and no hp changed since the last look
            return
        self.seen = seen
        count = len(g.deck) + len(g.discard_pile) + len(g.processing)
        returned = g.returned_to_deck  # cards a move put on the deck (top or bottom)
        suspect = bool(g.processing) or (g.deck is self.deck and len(g.deck) > self.deck_size + returned)
        living = 0
        for p in g.players:
            count += len(p.hand) + len(p.equips) + len(p.judge)
            if p.piles:
                count += sum(map(len, p.piles.values()))
            if p.alive:
                living += 1
                suspect = suspect or not 0 < p.hp <= p.max_hp
            elif p.hand or p.equips or p.judge or any(p.piles.values()):
                suspect = True
        if living != self.living:  # only a death (or a revival) changes what the mode decides
            self.living = living
            suspect = suspect or bool(self._victory_problems(living))
        if g.seats_version != self.seats_version or living != self.living_at_mode_check:
            self.seats_version, self.living_at_mode_check = g.seats_version, living
            suspect = suspect or bool(g.mode.invariant_problems(g))
        if suspect or count != len(self.cards):
            self.check(free_time=True)
        elif g.deck is not self.deck or returned:  # reshuffled, or cards put back, since the last look
            self._new_deck_ref()
        g.returned_to_deck = 0
        self.deck_size = len(g.deck)

    def check(self, free_time: bool) -> None:
        """The full check; at a free time also the processing area and the end of the game."""
        problems = self.problems(free_time)
        if problems:
            raise InvariantBroken(problems)

    def problems(self, free_time: bool, ended: GameOver | None = None) -> list[str]:
        """Everything wrong now; at a free time the game must go on; `ended`: the game just
        ended so, and the table must show that end."""
        g = self.game
        drawn_only = self._drawn_only()
        if drawn_only:  # the reference shrinks to the deck
            if self.deck_ref_set is not None:
                self.deck_ref_set.difference_update(self.deck_ref[len(g.deck):self.deck_ref_len])
            self.deck_ref_len = len(g.deck)
        problems = [] if self._cards_fine(drawn_only) else _card_problems(g, len(self.cards), self._known())
        problems += _player_problems(g) + self._deck_problems(drawn_only) + g.mode.invariant_problems(g)
        if free_time and g.processing:
            problems.append(f"{len(g.processing)} card(s) left in the processing area at a free time: "
                            + ", ".join(c.label() for c in g.processing))
        if free_time:
            problems += self._victory_problems(sum(p.alive for p in g.players))
        if ended is not None:
            problems += outcome_problems(g, ended)
        if not drawn_only:
            self._new_deck_ref()
        self.deck_size = len(g.deck)
        g.returned_to_deck = 0
        return [p for p in problems if p not in self.waived]

    def _drawn_only(self) -> bool:
        """The deck is the reference's list object and a prefix of it: only drawn from since."""
        g = self.game
        n = len(g.deck)
        return g.deck is self.deck and n <= self.deck_ref_len and g.deck == self.deck_ref[:n]

    def _new_deck_ref(self) -> None:
        """The deck as it is now is the reference (after a reshuffle or cards put back)."""
        g = self.game
        self.deck, self.deck_ref, self.deck_ref_len = g.deck, list(g.deck), len(g.deck)
        self.deck_ref_set = self._known_set(g.deck)

    def _known_set(self, cards: list[Card]) -> set[Card] | None:
        """The cards as a set if each is there once and all are the game's, else None."""
        out = set(cards)
        return out if len(out) == len(cards) and out <= self.cards else None

    def _victory_problems(self, living: int) -> list[str]:
        """victory_problems, asked again only when a death or a change of seats may have changed
        what the mode decides (as the free-time test's own look does)."""
        key = (living, self.game.seats_version)
        if key == self.victory_seen:
            return []
        problems = victory_problems(self.game)
        if not problems:  # a problem is named again at every check until the table changes
            self.victory_seen = key
        return problems

    def _cards_fine(self, drawn_only: bool) -> bool:
        """Every card of the game on the table once: set operations only. While the deck has
        only been drawn from, its cards are the reference's (`deck_ref_set`: distinct, the
        game's), and only the cards elsewhere are looked at one by one."""
        g = self.game
        others = set(g.discard_pile)
        others.update(g.processing)
        count = len(g.discard_pile) + len(g.processing)
        for p in g.players:
            others.update(p.hand, p.judge, p.equips.values())
            count += len(p.hand) + len(p.judge) + len(p.equips)
            for pile in p.piles.values():
                others.update(pile)
                count += len(pile)
        deck = self.deck_ref_set if drawn_only else None
        if deck is None:  # as many cards as the game's, and the same set: so each of them once
            return count + len(g.deck) == len(self.cards) and others.union(g.deck) == self.cards
        # the others distinct, the game's, none in the deck, and with the deck as many as the game's
        return (count + len(deck) == len(self.cards) and len(others) == count and others.isdisjoint(deck)
                and others <= self.cards)

    def _deck_problems(self, drawn_only: bool) -> list[str]:
        g = self.game
        if g.deck is not self.deck:  # reshuffled: the new deck is what the discard pile was
            return []
        returned = g.returned_to_deck  # moves put cards on the deck, each traced
        problems = []
        if len(g.deck) > self.deck_size + returned:
            problems.append(f"the deck grew from {self.deck_size} to {len(g.deck)} cards without a reshuffle")
        if not returned and not drawn_only:
            known = set(self.deck_ref[:self.deck_ref_len])
            strays = [c.label() for c in g.deck if c not in known]
        else:
            strays = []
        if strays:
            problems.append("card(s) went into the deck from elsewhere without a reshuffle: " + ", ".join(strays))
        return problems

    def _known(self) -> dict[int, Card]:
        """uid -> the card, for the messages of the slow path."""
        return {c.uid: c for c in self.originals}


def _zones(game: Game) -> list[tuple[str, Iterable[Card]]]:
    zones: list[tuple[str, Iterable[Card]]] = [("the deck", game.deck), ("the discard pile", game.discard_pile),
                                    ("the processing area", game.processing)]
    for p in game.players:
        zones += [(f"{p.label()}'s hand", p.hand), (f"{p.label()}'s equipment", p.equips.values()),
                  (f"{p.label()}'s judge area", p.judge)]
        zones += [(f"{p.label()}'s pile {name}", pile) for name, pile in p.piles.items()]
    return zones


def _card_problems(game: Game, total: int, known: dict[int, Card] | None) -> list[str]:
    """Each card in one zone and the count right; with `known`, each card the game's."""
    problems = []
    seen: dict[int, str] = {}
    count = 0
    for name, cards in _zones(game):
        for c in cards:
            count += 1
            if c.uid in seen:
                problems.append(f"card {c.label()} is in two places: {seen[c.uid]} and {name}")
            seen[c.uid] = name
            if known is not None and known.get(c.uid) is not c:
                problems.append(f"card {c.label()} in {name} is not one of this game's cards")
    if count != total:
        problems.append(f"{count} cards on the table, expected {total}")
    return problems


def _player_problems(game: Game) -> list[str]:
    problems = []
    for p in game.players:
        if p.alive and not 0 < p.hp <= p.max_hp:
            problems += _hp_problems(p, game)
        elif not p.alive and (p.hand or p.equips or p.judge or any(p.piles.values())):
            problems.append(f"{p.label()} is dead but holds cards")
        for slot, c in p.equips.items():
            if c.kind.type != slot:
                problems.append(f"{c.label()} in the {slot} slot of {p.label()}")
    return problems


def _hp_problems(p: Player, game: Game) -> list[str]:
    problems = []
    if p.max_hp < 1:
        problems.append(f"{p.label()} is alive with max hp {p.max_hp}, below 1")
    if p.hp > p.max_hp:
        problems.append(f"{p.label()} has hp {p.hp} above its max hp {p.max_hp}")
    if p.hp <= 0 and not p.dying and not game.damage_rules.survives(p) and (  # `modify survive` holds
            game.damage_rules.kept_out_of_dying(p) is None):  # or `modify dying = false` does
        problems.append(f"{p.label()} is alive at hp {p.hp} outside a rescue round (dying)")
    return problems
