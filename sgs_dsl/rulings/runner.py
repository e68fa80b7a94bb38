"""Run a ruling: build its exact table, play its runs with a strict script, check the outcome."""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs

from ..compiler.library import load_library
from ..engine.decisions import Request
from ..engine.invariants import InvariantBroken, Invariants
from ..engine.kernel import END_PLAY, Game, use_mode
from ..engine.model import (
    PHASE_ZH,
    RANK_FACE,
    SUIT_ZH,
    Card,
    GameOver,
    Player,
    RulesError,
    TurnEnded,
    UsedCard,
)
from ..game import build_deck
from ..modes.identity import IdentityMode
from .model import CardRef, Check, Ruling, Run, Step

WINNER_ZH = {"lord": "主公和忠臣獲勝", "rebel": "反賊獲勝", "renegade": "內奸獲勝", "draw": "平局"}


class ScriptFailure(Exception):
    """The script and the engine disagree: the ruling fails with this message."""


@attrs.frozen
class RulingResult:
    ruling: Ruling
    trace: tuple[str, ...]
    failures: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.failures


def label_of(ref: CardRef) -> str:
    return f"【{ref.name}】{SUIT_ZH[ref.suit]}{RANK_FACE.get(ref.rank, str(ref.rank))}"


def _where(step: Step) -> str:
    return f"(script at {step.span})"


@attrs.define
class _Expected:
    """One expected question: the seat, what the answer must be, and where the script says so."""

    seat: int
    label: str
    kind: str  # "play", "target", "any"
    step: Step
    forced_ok: bool = False  # may be settled by a choice the engine made alone (one option)


class Script:
    """The strict script shared by every seat of one ruling."""

    def __init__(self, steps: tuple[Step, ...], game: Game):
        self.game = game
        self.queue: list[_Expected | Step] = []
        for step in steps:
            if step.kind == "uses":
                self.queue.append(_Expected(step.seat, label_of(step.card), "play", step))
                for n in step.on:
                    self.queue.append(_Expected(step.seat, f"{n}號位", "target", step, forced_ok=True))
            elif step.kind == "ends":
                self.queue.append(_Expected(step.seat, END_PLAY, "play", step, forced_ok=True))
            elif step.kind == "answer":
                self.queue.append(_Expected(step.seat, step.text, "any", step))
            else:
                self.queue.append(step)  # cannot: checked at that seat's next play question

    def agent(self, seat: int) -> _SeatAgent:
        return _SeatAgent(self, seat)

    def _candidates(self, request: Request) -> str:
        return ", ".join(request.labels())

    def _check_cannot(self, request: Request) -> None:
        seat = request.seat + 1
        while self.queue and isinstance(self.queue[0], Step) and self.queue[0].seat == seat and request.kind == "play":
            step = self.queue.pop(0)
            label = label_of(step.card)
            legal = [o for o in request.options if o.label == label]
            if not legal:
                continue
            if not step.on:
                raise ScriptFailure(f"seat {seat} can use {label}, but the script says it cannot {_where(step)}")
            kind, subcards = legal[0].value
            player = self.game.players[request.seat]
            mode = use_mode(kind, "play")
            targets = self.game.legal_targets(player, mode.target, UsedCard.of(subcards[0]))
            bad = [n for n in step.on if self.game.players[n - 1] in targets]
            if bad:
                raise ScriptFailure(f"seat {seat} can use {label} on seat {bad[0]}, but the script says it cannot "
                                    f"{_where(step)}")

    def choose(self, request: Request) -> int:
        self._check_cannot(request)
        seat = request.seat + 1
        question = f"'{request.prompt}' (candidates: {self._candidates(request)})"
        if not self.queue:
            raise ScriptFailure(f"unanswered question to seat {seat}: {question}")
        expected = self.queue[0]
        if isinstance(expected, Step):
            raise ScriptFailure(f"seat {seat} was asked {question}, but the script next says seat "
                                f"{expected.seat} cannot use {label_of(expected.card)} {_where(expected)}")
        if expected.seat != seat:
            raise ScriptFailure(f"seat {seat} was asked {question}, but the script's next answer is seat "
                                f"{expected.seat}'s '{expected.label}' {_where(expected.step)}")
        index = self._match(request, expected)
        if index is None:
            raise ScriptFailure(f"'{expected.label}' is not a legal answer for seat {seat} to {question} "
                                f"{_where(expected.step)}")
        self.queue.pop(0)
        return index

    def forced(self, request: Request) -> None:
        """The engine chose alone (one option): settle a scripted target that names it."""
        self._check_cannot(request)
        seat = request.seat + 1
        if self.queue and isinstance(self.queue[0], _Expected):
            expected = self.queue[0]
            if expected.seat == seat and expected.forced_ok and expected.kind == request.kind:
                if self._match(request, expected) is not None:
                    self.queue.pop(0)
                elif expected.kind == "target":
                    raise ScriptFailure(f"'{expected.label}' is not a legal answer for seat {seat} to "
                                        f"'{request.prompt}': the only candidate is {request.options[0].label} "
                                        f"{_where(expected.step)}")

    @staticmethod
    def _match(request: Request, expected: _Expected) -> int | None:
        if expected.kind == "play" and request.kind != "play":
            return None
        if expected.kind == "target" and request.kind != "target":
            return None
        labels = request.labels()
        if expected.label in labels:
            return labels.index(expected.label)
        if expected.kind == "target":
            for i, label in enumerate(labels):
                if label.startswith(expected.label):
                    return i
        return None

    def leftovers(self) -> list[str]:
        out = []
        for item in self.queue:
            if isinstance(item, Step):
                out.append(f"seat {item.seat} was never asked to play, so 'cannot use {label_of(item.card)}' "
                           f"was not checked {_where(item)}")
            else:
                out.append(f"scripted answer never asked for: seat {item.seat} '{item.label}' {_where(item.step)}")
        return out


class _SeatAgent:
    def __init__(self, script: Script, seat: int):
        self.script = script
        self.seat = seat

    def choose(self, request: Request, view: Any) -> int:
        return self.script.choose(request)

    def forced(self, request: Request) -> None:
        self.script.forced(request)


def build_table(ruling: Ruling, library: Any) -> tuple[Game, Script]:
    """The exact table of a ruling: nothing the fixture fixes is shuffled."""
    deck = build_deck(library, ruling.ruleset)
    pool = list(deck)

    def take(ref: CardRef) -> Card:
        for c in pool:
            if (c.kind.name, c.suit, c.rank) == (ref.name, ref.suit, ref.rank):
                pool.remove(c)
                return c
        raise ScriptFailure(f"{ref.text()} is not available in the deck")

    players = []
    for spec in ruling.seats:
        hero = library.heroes.get(spec.hero) if spec.hero else None
        max_hp = spec.max_hp or (spec.hp if spec.hp and not hero else (hero.hp if hero else 4))
        max_hp = max(max_hp, spec.hp or 0)
        hp = spec.hp if spec.hp is not None else max_hp
        name = hero.name if hero else "無將" + ("(男)" if spec.gender == "male" else "(女)")
        gender = hero.gender if hero else spec.gender
        p = Player(spec.seat - 1, name, gender, hp, max_hp, spec.role)
        if hero:
            p.skills = hero.skills
            p.kingdom = hero.kingdom
        players.append(p)
    placed: list[tuple[Player, str, Card]] = []
    for spec, p in zip(ruling.seats, players, strict=True):
        placed += [(p, "hand", take(r)) for r in spec.hand]
        placed += [(p, "equip", take(r)) for r in spec.equip]
        placed += [(p, "judge", take(r)) for r in spec.judge]
    top = [take(r) for r in ruling.deck_top]
    discard = [take(r) for r in ruling.discard]
    rest = list(pool)
    game = Game(library, players, [], [], IdentityMode(), 0, log=True)
    game.deck = list(reversed(rest)) + list(reversed(top))  # the first listed card is on top
    game.all_cards = list(deck)
    game.discard_pile = discard
    for p, zone, card in placed:
        if zone == "hand":
            p.hand.append(card)
        elif zone == "equip":
            p.equips[card.kind.type] = card
        else:
            p.judge.append(card)
    script = Script(ruling.steps, game)
    game.agents = [script.agent(p.seat + 1) for p in players]
    game.tracing = True
    game.changed_skills()
    return game, script


def run_ruling(ruling: Ruling, library: Any = None) -> RulingResult:
    library = library or load_library()
    failures: list[str] = []
    winner = "none"
    try:
        game, script = build_table(ruling, library)
    except ScriptFailure as problem:
        return RulingResult(ruling, (), (str(problem),))
    game.lines.append(f"裁定：{ruling.title}（依據：{ruling.source}）")
    invariants = Invariants.start(game, waive=True)  # what the table was set up with is not a failure
    game.on_free_time = invariants.at_free_time
    try:
        for run in ruling.runs:
            _play(game, run)
            invariants.check(free_time=True)  # a run ends with nothing resolving
    except GameOver as over:
        winner = over.winner
        game.lines.append(f"遊戲結束：{over.reason}")
        failures.extend(_violated(invariants.problems(free_time=False)))
    except InvariantBroken as broken:
        failures.extend(_violated(broken.problems))
    except ScriptFailure as problem:
        failures.append(str(problem))
    except RulesError as problem:
        failures.append(f"rules error: {problem}")
    game.on_free_time = None
    if not failures:
        failures.extend(script.leftovers())
    failures.extend(_check(game, c, winner) for c in ruling.checks)
    return RulingResult(ruling, tuple(game.lines), tuple(f for f in failures if f))


def _play(game: Game, run: Run) -> None:
    """One run of a ruling: a whole turn (from a phase on), or one phase of a seat."""
    player = game.players[run.seat - 1]
    if run.whole_turn:
        game.play_turn(player, run.phase)
        return
    game.current = player
    game.lines.append(f"—— {player.label()}的{_phase_zh(run.phase)}階段 ——")
    try:
        game.run_phase(player, run.phase)
    except TurnEnded:
        pass
    finally:
        if game.processing:
            game.to_discard(list(game.processing))
        game.use_stack.clear()


def _violated(problems: list[str]) -> list[str]:
    return [f"invariant violated: {p}" for p in problems]


def _phase_zh(phase: str | None) -> str:
    return PHASE_ZH.get(phase or "", "")


def _names(cards: list[Card]) -> list[str]:
    return [c.label() for c in cards]


def _check(game: Game, check: Check, winner: str) -> str:
    where = f"(expectation at {check.span})"
    player = game.players[check.seat - 1] if check.seat else None
    if check.kind == "hp":
        if player.hp != check.value:
            return f"seat {check.seat} hp is {player.hp}, expected {check.value} {where}"
    elif check.kind == "life":
        alive = check.value == "alive"
        if player.alive != alive:
            return f"seat {check.seat} is {'alive' if player.alive else 'dead'}, expected {check.value} {where}"
    elif check.kind in ("hand", "equip", "judge", "discard"):
        actual = {"hand": lambda: player.hand, "equip": lambda: list(player.equips.values()),
                  "judge": lambda: player.judge, "discard": lambda: game.discard_pile}[check.kind]()
        want = [label_of(r) for r in check.value]
        ordered = check.kind == "judge"
        same = _names(actual) == want if ordered else Counter(_names(actual)) == Counter(want)
        if not same:
            whose = f"seat {check.seat} {check.kind}" if player else "the discard pile"
            return f"{whose} is [{', '.join(_names(actual))}], expected [{', '.join(want)}] {where}"
    elif check.kind == "deck":
        want = [label_of(r) for r in check.value]
        top = _names(list(reversed(game.deck))[:len(want)])
        if top != want:
            return f"the deck top is [{', '.join(top)}], expected [{', '.join(want)}] {where}"
    elif check.kind == "winner":
        if winner != check.value:
            return f"the winner is {winner}, expected {check.value} {where}"
    return ""
