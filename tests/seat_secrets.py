"""A test helper: what each seat of a game must not know, and a watch that looks, at every log
line and every question, at everything a seat is shown (its log lines, the terminal agent's
screen: the table, the question and its options, the forced choices; SeatView's sides and
asker) for any of it.

The secrets are worked out from the whole game, independently of the views:

- cards by identity: a seat knows a card where it lies now when it has seen it there or seen it
  go there (a public zone: discard pile, equipment, judge area, a public pile, the processing
  area unless the card was only looked at; its own hand or private pile; a card shown, looked at
  or arranged by it); the reshuffled deck is known to nobody. A card named in a line a seat
  reads must be known to it by the next thing that happens (a line may come just before its
  move): a label names one of its cards the seat knows, or it is a leak;
- 國戰: the face-down generals of the others (one looked at is known to its viewer), the skills
  only those generals give, by name in 【】; a face-down player's side;
- identity: the others' roles (but the lord's and the dead's), named by a role word no seat
  known to hold it explains; the heroes dealt to another seat that no one plays.

Use: `setup(..., parts=watched_parts())` builds a watched game (engine/parts.py); its
seats play by computer agents through a TerminalAgent writing to memory (`watching_agent`). Each leak found is
one line in `Watch.leaks`."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from typing import Any

import attrs

from sgs_dsl.agents.registry import make_agent
from sgs_dsl.agents.terminal import TerminalAgent
from sgs_dsl.core.model import ROLE_ZH, Card, GameOver
from sgs_dsl.core.vocab import PILE
from sgs_dsl.engine.choices import Choices
from sgs_dsl.engine.decisions import Request
from sgs_dsl.engine.kernel import Game
from sgs_dsl.engine.moves import Moves
from sgs_dsl.engine.parts import DEFAULT_PARTS, Parts
from sgs_dsl.engine.using import Using
from sgs_dsl.engine.view import SeatView
from sgs_dsl.engine.zones import Zones
from sgs_dsl.modes import make_mode

CARD_LABEL = re.compile(r"【[^】]+】[♠♥♣♦](?:10|[2-9AJQK])")
SKILL_NAME = re.compile(r"【([^】]+)】")
PUBLIC_ZONES = frozenset(("discard", "equip", "judge"))
HIDDEN_ROLES = {ROLE_ZH[r]: r for r in ("loyalist", "rebel", "renegade")}  # the lord's is shown at once
MAX_LEAKS = 10  # of each kind: a broken view leaks at every line, the first few say enough


class Watch:
    """Everything the seats of one game may know, kept up to date line by line."""

    def __init__(self, game: Game):
        self.game = game
        self.n = len(game.players)
        self.everyone = frozenset(range(self.n))
        self.knowers: dict[int, frozenset[int]] = {}  # card uid -> the seats that know it where it lies
        self.places: dict[int, tuple[str, int | None]] = {}
        self.by_label: dict[str, list[Card]] = {}
        for card in game.all_cards:
            self.by_label.setdefault(card.label(), []).append(card)
        self.deck = game.deck
        self.version = -1  # the table_version of the last look at the cards
        self.private: dict[int, int] = {}  # card uid -> the one seat that sees it in the processing area
        self.looking: int | None = None  # the seat looking at the deck's top cards (Game.look)
        self.arranging: int | None = None  # the seat arranging the deck's top cards (Game.arrange)
        self.looked_generals: set[tuple[int, int, int]] = set()  # (viewer, seat, slot)
        self.seen_generals: set[tuple[int, int]] = set()  # (seat, slot) face up once: everyone saw it
        self.glancing: tuple[int, int] | None = None  # (viewer, seat) while a general is looked at
        self.offered: dict[int, set[str]] = {}  # seat -> the heroes or generals it was offered
        self.pending: list[tuple[int, str, str, str]] = []  # cards named in lines, not yet known to the reader
        self.leaks: list[str] = []
        self.counts: dict[str, int] = {}  # leaks found of each kind
        self.cached: dict[tuple, tuple[set[str], set[str]]] = {}  # the secret names by seat and generals shown
        self.over = False  # the game has ended: everything is shown
        self.views = [SeatView(game, seat) for seat in range(self.n)]

    # ------------------------------------------------------------ what happens
    def line_added(self, index: int) -> None:
        """A log line was written: what each seat reads of it is checked now (its generals,
        skills, roles, judge areas) and, for its cards, until the next question."""
        texts = [view.log_lines(index)[0] for view in self.views]
        if not any(texts):  # a line no seat reads (a trace line, a face-down skill declined)
            return
        self.step()
        for seat, text in enumerate(texts):
            self.check_names(seat, text, f"log line {index}")
            self.check_judged(seat, text, f"log line {index}")
            self.pending += [(seat, label, f"log line {index}", text) for label in CARD_LABEL.findall(text)]
        self.step()

    def asked(self, seat: int, shown: str, what: str) -> None:
        """Seat `seat` is shown `shown` (its screen at a question); all of it is checked now."""
        self.step()
        self.settle()
        self.check_names(seat, shown, what)
        self.check_cards(seat, shown, what)
        self.check_sides(seat, what)

    def finished(self) -> None:
        self.step()
        self.settle()

    def step(self) -> None:
        """Update who knows each card, and which cards named in lines the seats now know;
        then forget the order of a reshuffled deck."""
        self._observe()
        self.pending = [entry for entry in self.pending if not self.knows_label(entry[0], entry[1])]
        if self.game.deck is not self.deck:  # the discard pile became the deck, shuffled
            self.deck = self.game.deck
            for card in self.deck:
                self.knowers[card.uid] = frozenset()

    def settle(self) -> None:
        """A card a line named that its reader has not seen by the next question is a leak (a
        line may come before the move it tells of, or just before a card is shown)."""
        for seat, label, what, text in self.pending:
            self.leak(seat, what, text, f"the card {label}")
        self.pending.clear()

    def _observe(self) -> None:
        """Each card that moved since the last look is known, from now on, to those who see
        it where it lies (the others who knew it where it was keep knowing it)."""
        if self.game.table_version == self.version:  # nothing moved
            return
        self.version = self.game.table_version
        for card, place in self._places():
            uid = card.uid
            if self.places.get(uid) == place:
                continue
            if place[0] != "processing":
                self.private.pop(uid, None)
            elif uid not in self.private and self.places.get(uid, ("deck",))[0] == "deck" and self.looking is not None:
                self.private[uid] = self.looking
            self.places[uid] = place
            seen = self._seers(uid, place)
            if place[0] == "nowhere" and self.arranging is not None:
                seen = frozenset({self.arranging})
            old = self.knowers.get(uid, frozenset())
            if not seen <= old:
                self.knowers[uid] = old | seen

    def _places(self) -> Iterable[tuple[Card, tuple[str, int | None]]]:
        game = self.game
        found: set[int] = set()
        for p in game.players:
            for zone, cards in (("hand", p.hand), ("equip", p.equips.values()), ("judge", p.judge),
                                *((PILE + name, pile) for name, pile in p.piles.items())):
                for card in cards:
                    found.add(card.uid)
                    yield card, (zone, p.seat)
        for zone, cards in (("discard", game.discard_pile), ("deck", game.deck), ("processing", game.processing)):
            for card in cards:
                found.add(card.uid)
                yield card, (zone, None)
        for card in game.all_cards:
            if card.uid not in found:
                yield card, ("nowhere", None)

    def _seers(self, uid: int, place: tuple[str, int | None]) -> frozenset[int]:
        zone, owner = place
        if zone in PUBLIC_ZONES or (zone == "processing" and uid not in self.private):
            return self.everyone
        if zone == "processing":
            return frozenset({self.private[uid]})
        if zone == "hand":
            return frozenset({owner})
        if zone.startswith(PILE):
            return frozenset({owner}) if self.game.moves.pile_hidden(zone) else self.everyone
        return frozenset()

    def learn(self, seat: int | None, cards: Iterable[Card]) -> None:
        """Cards shown (seat None: to everyone) or looked at."""
        seen = self.everyone if seat is None else frozenset({seat})
        for card in cards:
            self.knowers[card.uid] = self.knowers.get(card.uid, frozenset()) | seen

    # ------------------------------------------------------------ the checks
    def leak(self, seat: int, what: str, text: str, secret: str) -> None:
        kind = secret.split()[0:2] if secret.startswith("the ") else ["judge"]
        counted = self.counts[" ".join(kind)] = self.counts.get(" ".join(kind), 0) + 1
        if counted <= MAX_LEAKS and not self.over:
            self.leaks.append(f"seat {seat + 1}, {what}, turn {self.game.turns}: {secret} in {text!r}")

    def check_cards(self, seat: int, text: str, what: str) -> None:
        for label in CARD_LABEL.findall(text):
            if not self.knows_label(seat, label):
                self.leak(seat, what, text, f"the card {label}")
        self.check_judged(seat, text, what)

    def check_judged(self, seat: int, text: str, what: str) -> None:
        """A card that lies in a judge area as another trick (a conversion) is named as that
        trick, made of the card: 【TRICK】(【CARD】♠7) (a label another card shares may name that one)."""
        game = self.game
        for p in game.players:
            for card in p.judge:
                kind = game.turn.judged_kind(card)
                if kind is card.kind or card.label() not in text or any(
                        game.turn.judged_kind(twin) is twin.kind for twin in self.by_label[card.label()] if twin is not card):
                    continue
                if f"【{kind.name}】({card.label()})" not in text:
                    self.leak(seat, what, text, f"{card.label()} not shown as the 【{kind.name}】 it counts as")

    def knows_label(self, seat: int, label: str) -> bool:
        """The seat knows where one of the cards with this label lies (or it names no card)."""
        cards = self.by_label.get(label)
        return not cards or any(seat in self.knowers.get(c.uid, ()) for c in cards)

    def check_names(self, seat: int, text: str, what: str) -> None:
        if not text:
            return
        names, skills = self.secret_names(seat)
        for name in names:
            if name in text and name in self._without_longer(text, name):
                self.leak(seat, what, text, f"the hidden general or hero {name}")
        for skill in SKILL_NAME.findall(text):
            if skill in skills:
                self.leak(seat, what, text, f"the skill 【{skill}】 of a face-down general")
        for word, role in HIDDEN_ROLES.items():
            if word in text and self._hides_roles() and not any(
                    p.role == role and self._knows_role(seat, p) for p in self.game.players):
                self.leak(seat, what, text, f"the role {word}")

    def _without_longer(self, text: str, name: str) -> str:
        """The text without the longer names that hold this one (臥龍諸葛亮 holds 諸葛亮)."""
        library = self.game.library
        for other in (*library.generals, *library.heroes):
            if name in other and other != name:
                text = text.replace(other, "")
        return text

    def check_sides(self, seat: int, what: str) -> None:
        view = self.views[seat]
        for p, side in zip(self.game.players, view.sides(), strict=True):
            if side is not None and not self._knows_side(seat, p):
                self.leak(seat, what, f"SeatView.sides() {view.sides()}", f"the side of seat {p.seat + 1}")

    # ------------------------------------------------------------ the secrets
    def secret_names(self, seat: int) -> tuple[set[str], set[str]]:
        """The names of generals (or heroes) and skills `seat` must not read."""
        generals = getattr(self.game.mode, "generals", None)
        if generals:
            self.seen_generals.update((other, slot) for other, g in generals.items()
                                      for slot, shown in enumerate(g.shown) if shown)
            key = (seat, len(self.seen_generals), len(self.looked_generals), self.glancing,
                   len(self.offered.get(seat, ())))
            found = self.cached.get(key)
            if found is None:
                found = self.cached[key] = self._face_down(seat, generals)
            return found
        playing = {p.name for p in self.game.players}
        mine = self.offered.get(seat, set())
        return {h for s, heroes in self.offered.items() if s != seat for h in heroes} - playing - mine, set()

    def _face_down(self, seat: int, generals: dict[int, Any]) -> tuple[set[str], set[str]]:
        hidden, known = [], []
        for other, g in generals.items():
            for slot, card in enumerate(g.cards):
                if other == seat or (other, slot) in self.seen_generals or (seat, other, slot) in self.looked_generals or (
                        self.glancing == (seat, other)):
                    known.append(card)
                else:
                    hidden.append(card)
        names = {g.name for g in hidden} - {g.name for g in known} - self.offered.get(seat, set())
        public = {s.name for g in known for s in g.skills} | set(self.game.library.cards)
        return names, {s.name for g in hidden for s in g.skills} - public

    def _hides_roles(self) -> bool:
        """The mode hides roles (identity modes)."""
        return not hasattr(self.game.mode, "generals") and not hasattr(self.game.mode, "leader")

    def _knows_role(self, seat: int, p: Any) -> bool:
        return p.seat == seat or p.role == "lord" or not p.alive

    def _knows_side(self, seat: int, p: Any) -> bool:
        mode = self.game.mode
        if hasattr(mode, "generals"):  # 國戰: a kingdom shows with a general (one's own, face down too)
            return bool(p.kingdom) or p.seat == seat
        return not self._hides_roles() or self._knows_role(seat, p)


class WatchedGame(Game):
    """A Game whose log and whose mode's hooks the watch follows (its processes: below)."""

    traced = False  # also the trace lines of rulings (windows, moves, questions)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.tracing = self.traced
        self.watch = Watch(self)
        for agent in self.agents:
            if isinstance(agent, WatchingAgent):
                agent.watch = self.watch

    def add_line(self, text: str) -> None:  # every line added is handed to the watch (the log only grows)
        super().add_line(text)
        self.watch.line_added(len(self.lines) - 1)


class WatchedMode:
    """Mixed into the class of a watched game's mode (`watched_mode`): the victory it declares
    and the generals it lets a seat look at, followed by the game's watch."""

    def check_victory(self, game: Any) -> None:
        try:
            super().check_victory(game)  # type: ignore[misc]  # the mode class it is mixed into
        except GameOver:
            game.watch.step()
            game.watch.settle()
            game.watch.over = True
            raise

    def look_general(self, game: Any, viewer: Any, player: Any) -> str:
        generals = getattr(self, "generals", None)  # 國戰's: other modes have no general to look at
        if generals is None:
            return super().look_general(game, viewer, player)  # type: ignore[misc, no-any-return]
        watch = game.watch
        watch.glancing = (viewer.seat, player.seat)
        try:
            name: str = super().look_general(game, viewer, player)  # type: ignore[misc]
        finally:
            watch.glancing = None
        for slot, card in enumerate(generals[player.seat].cards):
            if card.name == name:
                watch.looked_generals.add((viewer.seat, player.seat, slot))
        return name


def watched_mode(make: Any) -> Any:
    """The mode part of a watched game: the mode `make` (a Parts.mode, None for the ruleset's)
    would make, of a class with WatchedMode mixed in (a subclass: a compiled mode cannot be
    patched)."""
    def build(ruleset: Any) -> Any:
        kind = type((make or make_mode)(ruleset))
        return type(f"Watched{kind.__name__}", (WatchedMode, kind), {})(ruleset)
    return build


class TracedWatchedGame(WatchedGame):
    traced = True


class WatchedZones(Zones):
    """Cards drawn, shown and looked at: what each seat comes to know."""

    def draw_top(self) -> Card:
        try:
            card = super().draw_top()
        except GameOver:
            self.game.watch.over = True
            raise
        self.game.watch.version = -1  # the card left the deck after a reshuffle's line was watched
        return card

    def show_cards(self, cards: list[Card]) -> None:
        self.game.watch.learn(None, cards)
        super().show_cards(cards)

    def look_at(self, player: Any, cards: list[Card]) -> None:
        watch = self.game.watch
        watch.learn(player.seat, cards)
        for holder in {self.zone_of(c)[1] for c in cards} - {None}:
            watch.learn(holder.seat, [c for c in cards if self.zone_of(c)[1] is holder])
        super().look_at(player, cards)


class WatchedMoves(Moves):
    def move_cards(self, *args: Any, **kwargs: Any) -> None:
        super().move_cards(*args, **kwargs)
        self.game.watch.step()  # each move seen: a card may pass a face-up place between two lines


class WatchedUsing(Using):
    def use_card(self, user: Any, card: Any, *args: Any, **kwargs: Any) -> Any:
        if not card.face_down:  # a card used is shown, wherever it goes (equipment: not through processing)
            self.game.watch.learn(None, card.subcards)
        return super().use_card(user, card, *args, **kwargs)


class WatchedChoices(Choices):
    def look(self, player: Any, n: int) -> list[Card]:
        self.game.watch.looking = player.seat
        try:
            return super().look(player, n)
        finally:
            self.game.watch.looking = None

    def arrange(self, player: Any, n: int) -> None:
        self.game.watch.arranging = player.seat
        try:
            super().arrange(player, n)
        finally:
            self.game.watch.arranging = None


def watched_parts(traced: bool = False, base: Parts = DEFAULT_PARTS, undone: dict[str, Any] | None = None) -> Parts:
    """What a watched game is built from (`base`: another game's parts, watched; `undone`:
    parts swapped for ones with a fix undone, the mode among them watched too)."""
    parts = attrs.evolve(base, game=TracedWatchedGame if traced else WatchedGame, zones=WatchedZones,
                         moves=WatchedMoves, using=WatchedUsing, choices=WatchedChoices)
    parts = attrs.evolve(parts, **(undone or {}))
    return attrs.evolve(parts, mode=watched_mode(parts.mode))


class WatchingAgent(TerminalAgent):
    """A seat played by a computer agent (random, or the heuristic one that reads the view)
    through the terminal agent, into memory: all the terminal would print but the log
    (checked line by line) is checked at each question."""

    def __init__(self, seat: int, seed: int, inner: str = "random"):
        super().__init__(io.StringIO(), io.StringIO())
        self.seat = seat
        self.inner = make_agent(inner, seed)
        self.request: Request | None = None
        self.view: SeatView | None = None
        self.watch: Watch | None = None  # set by the WatchedGame it plays in
        self.in_log = False
        self.screen: list[str] = []

    def choose(self, request: Request, view: SeatView) -> int:
        self.request, self.view = request, view
        watch = self.watch
        if request.kind == "hero":
            watch.offered.setdefault(self.seat, set()).update(o.label for o in request.options)
        index = super().choose(request, view)
        if view.asker:  # the skill or card whose text asks
            self.screen.append(f"【{view.asker}】")
        self.flush(watch, f"question {request.prompt!r}")
        return index

    def forced(self, request: Request) -> None:
        super().forced(request)
        self.flush(self.watch, f"forced {request.prompt!r}")

    def show_log(self) -> None:
        self.in_log = True
        try:
            super().show_log()
        finally:
            self.in_log = False

    def flush(self, watch: Watch, what: str) -> None:
        shown, self.screen = "\n".join(self.screen), []
        watch.asked(self.seat, shown, what)

    def _read(self, n: int) -> int:
        assert self.request is not None
        return self.inner.choose(self.request, self.view)

    def _write(self, text: str, end: str = "\n") -> None:
        if not self.in_log:
            self.screen.append(text)


def watching_agent(player: Any, seed: int) -> WatchingAgent:
    """A random agent at every seat."""
    return WatchingAgent(player.seat, seed)


def mixed_watching_agent(player: Any, seed: int) -> WatchingAgent:
    """Random agents at the even seats, heuristic ones (which read the view) at the odd seats."""
    return WatchingAgent(player.seat, seed, "heuristic" if player.seat % 2 else "random")
