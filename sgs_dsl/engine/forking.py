"""A game's state copied, so that a copy plays on exactly as the original would (the forward
model a player that looks ahead plays on: docs/ai.md, "The forward model").

A copy is taken between turns (`Game.fork`): then nothing is resolving, and the state is data
(the seats, the cards' places, the logs, the mode's own state), with no Python frame in the
middle of a rule. What the library defines (cards, card kinds, skills and
their compiled text, source spans) never changes during a game and is shared, as are strings
and numbers; every object of a state class (the game, its processes, its mode, the players and
the records a game keeps, the agents, the random generators) is copied, with the containers
holding them, keeping shared references shared (two lists holding one player hold one copy of
it). A function found in the state is refused rather than shared: it could act on the original.
The game's processes hold no state of their own (only the game and each other: a test keeps
it so), so the copy's are made anew and connected.
The compiled build copies its native objects by the names mypyc lists (`__mypyc_attrs__`)."""

from __future__ import annotations

import random
import types
from typing import TYPE_CHECKING, Any

import attr

from ..core import defs, model
from .history import History

if TYPE_CHECKING:
    from .kernel import Game

# the records a game keeps (the cards' faces are frozen: `Card` is shared)
_MODEL = (model.Player, model.UsedCard, model.Use, model.Damage, model.Judge, model.Asked, model.Dying,
          model.Recover, model.Move, model.Phase, model.Budget, History, random.Random)
# what the library defines, known before the copy meets it (others are found as met)
_SHARED = (model.Card, defs.CardKind, defs.Skill, defs.TriggerDef, defs.ModifierDef, defs.ViewAsDef)
# the classes defined here hold a game's state (a mode's own records, an agent's)
_STATE_PACKAGES = ("sgs_dsl.engine.", "sgs_dsl.modes.", "sgs_dsl.agents.")
_ATOMS = (str, int, float, bool, type(None), bytes, type)


# the game's tables worked out on demand from the skills and cards in play (each read as "if
# not worked out, work it out"): a copy starts them afresh rather than copying them; those in
# _LAZY_DICTS are filled key by key, the others are None until worked out
_LAZY_DICTS = ("_skills", "_alike", "_converts", "_usable", "_probes", "_va_kinds", "_weapon_ranges")
_LAZY_TABLES = (*_LAZY_DICTS, "_listeners", "_filter_table", "_forbid_table", "_forbid_binding", "_attach_live",
                "_rules", "_deck_kinds")

# what only the rulings' checks read (rulings/checks.py): every turn, phase, skip and point fight
_RULINGS_LOGS = ("turn_log", "phase_log", "skipped_log", "fight_log")


class ForkError(Exception):
    """The game's state cannot be copied as it stands (a closure in it, a copy mid-turn): a
    fault of the tool asking, not of a rules text (a plain exception: the compiled build's
    `RulesError` takes no Python subclass)."""


def _state_classes(game: Game) -> tuple[type, ...]:
    """The classes whose objects are a game's state besides those of `_STATE_PACKAGES`: the
    records, the game's own class, its mode's and its agents' (a test's or a tool's own)."""
    return (*_MODEL, type(game), type(game.mode), *{type(a) for a in game.agents})


def _processes(game: Game) -> list[Any]:
    return [game.seats, game.skills, game.triggers, game.zones, game.moves, game.hp, game.damage_rules, game.using,
            game.choices, game.labelled, game.questioning, game.filters, game.prohibits, game.attached, game.state,
            game.fights, game.turn, game.extra_turns, game.start]


class _Copier:
    """One deep copy of a game's state, sharing what the library defines."""

    def __init__(self, game: Game, state: tuple[type, ...], skip: dict[int, Any]) -> None:
        self.game = id(game)
        self.processes = {type(p) for p in _processes(game)}  # they hold no state: made anew
        self.made: list[Any] = []
        self.state = state
        self.memo: dict[int, Any] = dict(skip)  # id -> its copy (or what to put in its place)
        self.shared: set[type] = {*_ATOMS, *_SHARED}  # the classes whose objects are shared, and those found
        self.required: dict[type, tuple[str, ...]] = {}  # a compiled record's required fields (_blank)

    def copy(self, x: Any) -> Any:
        cls = x.__class__
        if cls in self.shared:
            return x
        found = self.memo.get(id(x))
        if found is not None or id(x) in self.memo:
            return found
        shared = self.shared
        if cls is list:
            if {v.__class__ for v in x} <= shared:  # cards, names: a shallow copy is a deep one
                out: Any = x.copy()
                self.memo[id(x)] = out
                return out
            out = []
            self.memo[id(x)] = out
            out.extend(self.copy(v) for v in x)
            return out
        if cls is dict:
            if {v.__class__ for v in x.values()} <= shared and {k.__class__ for k in x} <= shared:
                out = x.copy()
                self.memo[id(x)] = out
                return out
            out = {}
            self.memo[id(x)] = out
            for k, v in x.items():
                out[self.copy(k)] = self.copy(v)
            return out
        if cls is set:
            out = x.copy() if {v.__class__ for v in x} <= shared else {self.copy(v) for v in x}
            self.memo[id(x)] = out
            return out
        if cls is tuple or cls is frozenset:
            if {v.__class__ for v in x} <= shared:  # of cards, names, seats: shared as it is
                self.memo[id(x)] = x
                return x
            items = [self.copy(v) for v in x]
            out = x if all(a is b for a, b in zip(items, x, strict=True)) else cls(items)
            self.memo[id(x)] = out
            return out
        if isinstance(x, random.Random):
            out = cls.__new__(cls)  # (not seeded: its state is set at once)
            out.setstate(x.getstate())
            self.memo[id(x)] = out
            return out
        if cls in self.processes:  # made anew for the copy, connected once all are made
            made = cls(self.memo[self.game])
            self.memo[id(x)] = made
            self.made.append(made)
            return made
        if issubclass(cls, self.state) or cls.__module__.startswith(_STATE_PACKAGES):
            return self._object(x)
        if isinstance(x, (types.MethodType, types.BuiltinMethodType)) and isinstance(x.__self__, self.state):
            return getattr(self.copy(x.__self__), x.__name__)
        if isinstance(x, types.FunctionType) and x.__closure__:
            raise ForkError(f"the game's state holds a closure ({x.__qualname__}): a copy of it would act on "
                            "the original game")
        if not isinstance(x, (types.MethodType, types.BuiltinMethodType, types.FunctionType)):
            self.shared.add(cls)  # what the library defines (a card, a skill, a span): shared
        return x

    def _blank(self, x: Any) -> Any:
        """An object of a compiled class to fill in: a native class makes its objects through
        its __init__ (mypyc's own `__new__` calls it), so it is given the original's required
        fields, every one of which is then replaced by its copy. A class of the game's own
        parts allows Python subclasses, and mypyc makes those without __init__."""
        cls = x.__class__
        required = self.required.get(cls)
        if required is None:
            required = self.required[cls] = _required(cls) or ()
        return cls(*[getattr(x, name) for name in required]) if required else cls.__new__(cls)

    def _object(self, x: Any) -> Any:
        cls = x.__class__
        names = getattr(cls, "__mypyc_attrs__", None)  # a compiled class's attributes
        out = cls.__new__(cls) if names is None or hasattr(x, "__dict__") else self._blank(x)
        self.memo[id(x)] = out
        if names is not None:
            for name in names:
                if name == "__dict__":
                    continue
                try:
                    value = getattr(x, name)
                except AttributeError:  # never set
                    continue
                object.__setattr__(out, name, self.copy(value))
        own = getattr(x, "__dict__", None)
        if own is not None:
            for name, value in own.items():
                object.__setattr__(out, name, self.copy(value))
        return out


def _required(cls: type) -> tuple[str, ...] | None:
    """The fields an attrs record's __init__ requires, in order (its hand-written __init__, if
    any, takes them first: tests/test_forward_model.py checks it); None for other classes."""
    if not attr.has(cls):
        return None
    return tuple(f.name for f in attr.fields(cls) if f.default is attr.NOTHING and f.init is not False)


def fork_game(game: Game, agents: list[Any] | None = None, light: bool = False) -> Game:
    """A copy of `game` between turns that plays on exactly as the original would given the
    same answers: with `agents` None the agents are copied too (a random agent's generator
    with them), else the copy's seats are answered by `agents`. The copy checks no invariants
    (`on_free_time` is None) until its runner hooks a checker of its own, and keeps no turn
    start of its own. A `light` copy (a branch played forward and thrown away) starts the
    records only rulings read (`_RULINGS_LOGS`) empty, records no answers (no one branches
    from a branch), and shares the damages dealt before
    the current round (all of them when no text reads the history), which no rule reads again
    (agents read their seats and amounts)."""
    if game.use_stack or game.block_endings or game.processing or game.phase_now is not None:
        raise ForkError("a game is copied between turns: nothing may be resolving")
    skip: dict[int, Any] = {} if agents is None else {id(game.agents): list(agents)}
    # not copied (set aside for the copy, each as its empty value): the tables the copy works
    # out afresh, the replica and its turns, what each seat knows (a table of immutable
    # values: copied flat below), the damage log (below), and in a light copy the rulings' records
    names = [*_LAZY_TABLES, "turn_start", "turn_marks", "knowledge", "damage_log",
             *((*_RULINGS_LOGS, "recording") if light else ())]
    aside = {name: getattr(game, name) for name in names}
    for name in names:
        empty = aside[name]
        setattr(game, name, {} if name in _LAZY_DICTS else [] if isinstance(empty, list) else None)
    copier = _Copier(game, _state_classes(game), skip)
    try:
        copy: Game = copier.copy(game)
    finally:
        for name, value in aside.items():
            setattr(game, name, value)
    for process in copier.made:
        process.connect()
    for name in _LAZY_DICTS:
        setattr(copy, name, {})
    copy.turn_marks = []
    if light:
        for name in _RULINGS_LOGS:
            setattr(copy, name, [])
        copy.recording = None
    copy.knowledge = None if game.knowledge is None else dict(game.knowledge)
    history = game.history  # (off, no text reads the damage log: all of it is kept)
    kept = 0 if not light else history.since.get("round", (0, 0))[1] if history.on else len(game.damage_log)
    copy.damage_log = game.damage_log[:kept] + [copier.copy(d) for d in game.damage_log[kept:]]
    copy.on_free_time = None
    return copy


class Unasked:
    """The agent of a seat in a copy kept to play forward from: it is never asked (a branch
    of the copy gets agents of its own)."""

    def choose(self, request: Any, view: Any) -> int:
        raise ForkError("a turn's starting copy was asked a question: branch it first")


class Replica:
    """A private copy of a game that no agent answers, taken as its first turn started: it is
    brought to the start of a later turn when a branch needs it, by replaying the answers the
    game recorded (the game's own turns again, without any agent's thinking: cheaper than a
    copy at every turn). A plain class: compiled, an attrs class naming `Game` needs the
    kernel loaded before this module, which imports none of it."""

    def __init__(self, game: Game, mark: int) -> None:
        self.game = game
        self.mark = mark  # the turn (an index of `Game.turn_marks`) it stands at the start of


def keep_forward_model(game: Game) -> None:
    """From now on the game keeps what a player looking ahead needs: what each seat knows of
    the cards (knowledge.py), a replica of it (`Replica`), where each turn starts and the
    answers given (`Game.turn_marks`, `Game.recording`)."""
    from .knowledge import track

    track(game)
    game.forward_model = True
    game.turn_start = None
    game.turn_marks = []
    game.recording = []


def mark_turn_start(game: Game, seat: int) -> None:
    """A turn of `seat`'s is about to start (between turns): where it starts in the answers;
    at the first, the replica."""
    recording = game.recording if game.recording is not None else []
    game.turn_marks.append((seat, len(recording)))
    if game.turn_start is None:
        replica = fork_game(game, [Unasked() for _ in game.players])
        replica.recording = None
        replica.forward_model = False
        game.turn_start = Replica(replica, len(game.turn_marks) - 1)


def play_turns(game: Game, player: Any, turns: int) -> Any:
    """`turns` turns from `player`'s, each with the extra turns granted in it, in the mode's
    order (as the game's loop plays them); the player whose turn comes next."""
    for _ in range(turns):
        game.extra_turns.take_turn(player)
        player = game.mode.next_player(game, player)
    return player


def replayed_all(game: Game) -> bool:
    """Did a copy give every answer it was to replay (none refused: `Game.diverged`)?"""
    return not game.diverged and (game.replay is None or game.replay_at >= len(game.replay))


def turn_start(game: Game) -> Replica:
    """The replica, brought to the start of the current turn."""
    replica = game.turn_start
    if not isinstance(replica, Replica):
        raise ForkError("the game keeps no replica (keep_forward_model)")
    last = len(game.turn_marks) - 1
    if replica.mark < last:
        copy = replica.game
        seat, start = game.turn_marks[replica.mark]
        copy.replay, copy.replay_at = (game.recording or [])[start:game.turn_marks[last][1]], 0
        play_turns(copy, copy.players[seat], last - replica.mark)
        if not replayed_all(copy):
            raise ForkError("the replica did not follow the game's recorded answers")
        copy.replay = None
        replica.mark = last
    return replica


def branch(game: Game, seat: int, rng: random.Random, agents: list[Any], answer: tuple[int, str] | None = None,
           pinned: frozenset[int] | None = None, deal_again: bool = True,
           belief: tuple[float, ...] | None = None) -> tuple[Game, Any]:
    """A world `seat` cannot tell from this one, at the start of the current turn: a copy of
    the turn's starting game dealt again for the seat (knowledge.determinize, keeping the
    cards it knows now, `pinned` if worked out already), that replays the answers given since
    and then `answer` (the option of the question being asked, by index and label), then asks
    `agents`. Returns the copy and the player whose turn it replays. Without `deal_again` the
    copy is the real game (for tests and tools that read everything; never an agent's)."""
    from .knowledge import determinize, known_cards

    start = turn_start(game)
    copy = fork_game(start.game, agents, light=True)
    if deal_again:
        determinize(copy, seat, rng, known_cards(game, seat) if pinned is None else pinned, belief)
    copy.knowledge = None  # played forward by players who read no one's knowledge: not kept
    seat_now, since = game.turn_marks[start.mark]
    copy.replay = (game.recording or [])[since:] + ([answer] if answer is not None else [])
    copy.replay_at = 0
    return copy, copy.players[seat_now]
