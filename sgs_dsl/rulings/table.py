"""The table of a ruling: exactly as written (nothing the ruling fixes is shuffled), and
with `setup;` the mode's own setup on it: heroes chosen by the script, the lord's extra max
hp, starting hands."""

from __future__ import annotations

from typing import Any

import attrs

from ..core.model import Card, Player
from ..engine.kernel import Game
from ..engine.parts import DEFAULT_PARTS, Parts
from ..game import build_deck, ruleset_heroes
from ..modes import make_mode
from ..modes.base import BLANK_HP
from ..modes.identity import per_seat
from .model import CardRef, Ruling, SeatSpec
from .script import Script, ScriptFailure


def build_table(ruling: Ruling, library: Any, parts: Parts = DEFAULT_PARTS) -> tuple[Game, Script]:
    """The exact table of a ruling: nothing the fixture fixes is shuffled (`parts`: engine/parts.py)."""
    deck = build_deck(library, ruling.ruleset)
    pool = list(deck)

    def take(ref: CardRef) -> Card:
        for c in pool:
            if (c.kind.name, c.suit, c.rank) == (ref.name, ref.suit, ref.rank):
                pool.remove(c)
                return c
        raise ScriptFailure(f"{ref.text()} is not available in the deck")

    mode = (parts.mode or make_mode)(library.ruleset(ruling.ruleset))
    dealt = ruling.setup and bool(library.ruleset(ruling.ruleset).heroes)
    players = [_dealt_seat(spec) if dealt else _seat(spec, library, ruling, mode) for spec in ruling.seats]
    placed: list[tuple[Player, str, Card]] = []
    converted: list[tuple[Card, str]] = []  # judge-area cards that lie there as another trick
    for spec, p in zip(ruling.seats, players, strict=True):
        placed += [(p, "hand", take(r)) for r in spec.hand]
        placed += [(p, "equip", take(r)) for r in spec.equip]
        for r in spec.judge:
            placed.append((p, "judge", take(r)))
            if r.counts_as:
                converted.append((placed[-1][2], r.counts_as))
        placed += [(p, "pile:" + name, take(r)) for name, refs in spec.piles for r in refs]
    top = [take(r) for r in ruling.deck_top]
    discard = [take(r) for r in ruling.discard]
    game = (parts.game or Game)(library, players, [], [], mode, 0, True, parts)
    game.deck = list(reversed(pool)) + list(reversed(top))  # the first listed card is on top
    game.all_cards = list(deck)
    game.hero_pool = tuple(h.key for h in ruleset_heroes(library, ruling.ruleset))  # for unused_heroes()
    game.discard_pile = discard
    for card, name in converted:
        game.judge_as[card.uid] = game.kind_named(name)
    for p, zone, card in placed:
        if zone == "hand":
            p.hand.append(card)
        elif zone == "equip":
            p.equips[card.kind.type] = card
        elif zone.startswith("pile:"):
            p.piles.setdefault(zone[len("pile:"):], []).append(card)
        else:
            p.judge.append(card)
    for spec, p in zip(ruling.seats, players, strict=True):
        p.chained, p.turned = "chained" in spec.states, "turned" in spec.states
        p.marks.update(spec.marks)
        p.spent.update(spec.spent)
        if spec.dead:  # died before the ruling: out of the seat order, its role shown
            p.alive = False
    # 國戰: the generals as the table has them, no event; the kingdoms decided as if shown in seat
    # order, a careerist's after the others' (it showed past half the table)
    for spec in sorted(ruling.seats, key=lambda s: s.careerist is not None):
        if spec.generals is not None and not ruling.setup:
            p = players[spec.seat - 1]
            head, deputy, shown = spec.generals
            mode.place_generals(game, p, library.generals[head], library.generals[deputy], shown,
                                careerist=spec.careerist is not None)
            p.max_hp = spec.max_hp or p.max_hp
            p.hp = spec.hp if spec.hp is not None else p.max_hp
    script = Script(ruling.steps, game)
    game.agents = [script.agent(p.seat + 1) for p in players]
    game.tracing = True
    game.skills.changed_skills()
    return game, script


def _seat(spec: SeatSpec, library: Any, ruling: Ruling, mode: Any) -> Player:
    hero = library.heroes.get(spec.hero) if spec.hero else None
    if ruling.setup:  # no heroes to deal: a blank hero, the lord's bonus from the mode
        max_hp = mode.blank_hp(spec.role, len(ruling.seats))
    else:
        max_hp = spec.max_hp or (hero.hp if hero else (spec.hp or BLANK_HP))
    hp = spec.hp if spec.hp is not None else max_hp
    name = hero.name if hero else "無將" + ("(男)" if spec.gender == "male" else "(女)")
    p = Player(spec.seat - 1, name, hero.gender if hero else spec.gender, hp, max_hp, spec.role)
    if hero:
        p.skills = hero.skills
        p.kingdom = hero.kingdom
        p.hero_key = hero.key
    return p


def _dealt_seat(spec: SeatSpec) -> Player:
    return Player(spec.seat - 1, "", "", 0, 0, spec.role)  # no hero until the heroes are chosen


def deal(game: Game, ruling: Ruling) -> None:
    """The mode's setup on the ruling's table: heroes chosen (the script answers), the
    lord's +1 max hp from 5 players, then 4 cards from the deck top to each seat whose hand
    the ruling leaves out, in seat order."""
    library = game.library
    rules = library.ruleset(ruling.ruleset)
    if rules.heroes and game.mode.cards_per_seat == 2:  # 國戰: each seat's named generals are dealt to it
        named = {s.seat - 1: [library.generals[g] for g in s.generals[:2]] for s in ruling.seats if s.generals}
        pool = ruleset_heroes(library, ruling.ruleset)
        each = min(game.mode.dealt(len(game.players)), len(pool) // len(game.players))
        game.mode.choose_heroes(game, pool, _GeneralDealer(named, each))
    elif rules.heroes and getattr(game.mode, "shared_pool", False):  # 3v3: one pool, the named heroes in it
        named = [library.heroes[s.hero] for s in ruling.seats if s.hero]
        game.mode.choose_heroes(game, ruleset_heroes(library, ruling.ruleset), _PoolDealer(named))
    elif rules.heroes:
        wanted = {s.seat - 1: library.heroes[s.hero] for s in ruling.seats if s.hero}
        apart = not getattr(game.mode, "unchosen_dealt_again", True)  # the lord's candidates are dealt to no other
        game.mode.choose_heroes(game, ruleset_heroes(library, ruling.ruleset), _Dealer(game.players, wanted, apart))
    game.add_line(game.mode.opening(game))
    for spec, p in zip(ruling.seats, game.players, strict=True):
        if not spec.hand_given:
            game.zones.draw(p, game.mode.starting_hand)


@attrs.define
class _Dealer:
    """Stands in for the shuffles of hero selection, so that no chance is left: each seat's
    named hero is among its candidates, the others follow in library order.

    `choose_heroes` shuffles twice: the heroes the lord may take besides the ruleset's lords
    (its first ones are offered), then the heroes dealt to the other seats in seat order,
    `per_seat` each."""

    players: list[Player]
    wanted: dict[int, Any]  # seat -> the hero the ruling names for it
    apart: bool = False  # the heroes the lord is offered are dealt to no other seat (campus)
    shuffles: int = 0

    def shuffle(self, heroes: list[Any]) -> None:
        self.shuffles += 1
        lord = next(p for p in self.players if p.role == "lord")
        if self.shuffles == 1:
            slots = {0: self.wanted[lord.seat]} if lord.seat in self.wanted else {}
            if self.apart:  # the others' heroes last: never among the lord's candidates
                theirs = [h for seat, h in self.wanted.items() if seat != lord.seat]
                heroes[:] = [h for h in heroes if h not in theirs] + [h for h in heroes if h in theirs]
        else:
            others = [p for p in self.players if p is not lord]
            each = per_seat(len(self.players))
            if len(heroes) < each * len(others):  # as choose_heroes deals a small package
                each = len(heroes) // len(others)
            slots = {i * each: self.wanted[p.seat] for i, p in enumerate(others) if p.seat in self.wanted}
        heroes[:] = _arranged(heroes, {i: h for i, h in slots.items() if h in heroes})


@attrs.define
class _PoolDealer:
    """The shuffles of a shared pool's deal (3v3), arranged: the heroes the ruling names come
    first, in seat order, the others follow in library order; anything else (the numbers the
    leaders draw) keeps its order."""

    named: list[Any]

    def shuffle(self, items: list[Any]) -> None:
        first = [h for h in self.named if h in items]
        items[:] = first + [x for x in items if x not in first]


@attrs.define
class _GeneralDealer:
    """The shuffle of 國戰's deal, arranged: each seat's named generals are the first two of
    the `each` dealt to it (the head, then the deputy), the others follow in library order."""

    named: dict[int, list[Any]]  # seat -> [head, deputy] the ruling names
    each: int  # generals dealt to each seat

    def shuffle(self, generals: list[Any]) -> None:
        slots = {seat * self.each + i: g for seat, pair in self.named.items() for i, g in enumerate(pair)}
        generals[:] = _arranged(generals, slots)

    def choice(self, options: list[Any]) -> Any:
        return options[0]  # a small package dealt kingdom by kingdom: the first kingdom left


def _arranged(heroes: list[Any], slots: dict[int, Any]) -> list[Any]:
    rest = iter([h for h in heroes if h not in slots.values()])
    return [slots[i] if i in slots else next(rest) for i in range(len(heroes))]
