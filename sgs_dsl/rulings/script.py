"""The strict script of a ruling: every question the engine asks is matched against the
script's next answer; the script's claims (`cannot use`, `cannot answer`, `not asked`)
watch the questions put to their seat.

Answers that name a card, a skill or a hero are matched by what the option *is* (its
value: the physical card, the conversion, the skill), not by how it is worded, so they hold
whatever the engine's labels say; `answers "LABEL"` matches the label."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import attrs

from ..core.model import Card, Player, UsedCard
from ..engine.decisions import Request
from ..engine.kernel import Game, use_mode
from ..syntax.names import normalize
from .model import CardRef, Step


class ScriptFailure(Exception):
    """The script and the engine disagree so that the script can no longer be matched."""


Picker = Callable[[Request], "int | None"]
SEAT_ONLY = re.compile(r"\d+[號号]位")


def label_of(ref: CardRef) -> str:
    return f"【{ref.name}】{ref.face()}"


def where(step: Step) -> str:
    return f"(script at {step.span})"


def label_index(labels: list[str], text: str) -> int | None:
    """The option labelled `text`; `N號位` alone names the seat whatever its hero."""
    if text in labels:
        return labels.index(text)
    keys = [normalize(label) for label in labels]  # an answer written in the other script
    if normalize(text) in keys:
        return keys.index(normalize(text))
    if SEAT_ONLY.fullmatch(text):
        seats = [i for i, key in enumerate(keys) if key.startswith(normalize(text))]
        return seats[0] if len(seats) == 1 else None
    return None


def _first(request: Request, test: Callable[[Any], bool]) -> int | None:
    return next((i for i, o in enumerate(request.options) if test(o.value)), None)


def _real_card(value: Any) -> Card | None:
    """The physical card an option uses or plays as itself: (kind, (card,)); the kind may be
    another one that its holder's filter makes it count as."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], tuple) and len(value[1]) == 1:
        card = value[1][0]
        if isinstance(card, Card):
            return card
    return None


def _conversion(value: Any) -> tuple[str, str] | None:
    """(card name, skill) of an option that converts cards: (kind, ("view_as", view_as))."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], tuple) and len(value[1]) == 2:
        if value[1][0] == "view_as":
            return value[0].name, value[1][1].skill
    return None


def _active_skill(value: Any) -> str | None:
    """The skill a play-phase option invokes: one's own action, or one another player's skill
    attaches (黃天, 制霸: `invokes` names the skill)."""
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "active":
        return value[1][0].key
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "attach":
        return value[1][1].key
    return None


@attrs.define
class Answer:
    """One expected answer: the seat asked, how the script names it, which option it picks."""

    seat: int
    what: str  # for messages: the label, or the step as written
    kinds: frozenset[str] | None  # the kinds of question it answers; None: any
    pick: Picker
    step: Step
    strict_forced: bool = False  # a question settled alone must be this one (a target, a card of a conversion)

    def index(self, request: Request) -> int | None:
        if self.kinds is not None and request.kind not in self.kinds:
            return None
        return self.pick(request)


PLAY = frozenset({"play"})
RESPONSES = frozenset({"respond", "counter", "save"})


@attrs.frozen
class Shape:
    """A kind of label, and the questions that could offer a label of that kind."""

    what: str  # for messages: what the label is, and where it is offered
    pattern: re.Pattern[str]  # matched at the start of the label, in Simplified script (normalize)
    kinds: frozenset[str]  # the kinds of question (Request.kind) that offer such labels


# The shapes of labels, first match wins (docs/rulings.md, "claims"). A yes/no question
# (invoke, question, reveal) always offers both answers, so no `cannot answer` lands on one.
SHAPES = (
    Shape("a seat, offered by a choice of players", re.compile(r"\d+号位"), frozenset({"target", "order"})),
    Shape("a response, offered by a question asking for a card", re.compile(r"不?(使用|打出)"), RESPONSES),
    Shape("a play-phase action, offered by the play phase",
          re.compile(r"(发动【|重铸|结束出牌$|【[^】]+】(视为|当)【|明置(主将|副将)|弃置阴阳鱼)"), PLAY),
    Shape("a card, offered by the play phase or a choice of cards", re.compile(r"(【[^】]+】[♠♥♣♦(]|手牌\d+$)"),
          frozenset({"play", "pick_card", "discard"})),
    Shape("'完成', offered by a choice of players or cards that allows fewer", re.compile(r"完成$"),
          frozenset({"target", "pick_card", "discard"})),
    Shape("a skill or a card's name, offered by a choice of skills or names", re.compile(r"【[^】]+】$"),
          frozenset({"order", "skill", "declare"})),
)
TEXT = Shape("an option of text, offered by a choice among options",
             re.compile(""), frozenset({"option", "choice", "arrange", "suit", "hero", "order"}))


def shape_of(label: str) -> Shape:
    key = normalize(label)
    return next((s for s in SHAPES if s.pattern.match(key)), TEXT)


class Script:
    """The strict script shared by every seat of one ruling."""

    def __init__(self, steps: tuple[Step, ...], game: Game):
        self.game = game
        self.queue: list[Answer | Step] = []  # a Step here is a claim, active once the script reaches it
        self.active: list[Step] = []
        self.failures: list[str] = []  # failures that leave the script matchable
        for step in steps:
            self.queue.extend(self._expect(step))

    # ------------------------------------------------------------ what each step expects
    def _expect(self, step: Step) -> list[Answer | Step]:
        s, kind = step.seat, step.kind
        if kind in ("cannot", "cannot_answer", "not_asked"):
            return [step]
        if kind == "answer":
            return [Answer(s, f"'{step.text}'", None, lambda r: label_index(r.labels(), step.text), step)]
        if kind == "ends":
            return [Answer(s, "'結束出牌'", PLAY, lambda r: _first(r, lambda v: v is None), step)]
        if kind in ("invokes", "declines"):
            return [self._invoke(step)]
        if kind == "chooses":
            return [Answer(s, f"'{step.text}'", frozenset({"hero"}),
                           lambda r: _first(r, lambda v: getattr(v, "key", None) == step.text), step)]
        if kind == "picks":
            return [Answer(s, f"'picks {step.zone} {step.card.text()} of {step.owner}'", None, self._picker(step), step)]
        kinds = PLAY if kind == "uses" else RESPONSES
        if step.via:
            first = self._converted(step, kinds)
            parts = [first] + [self._subcard(step, ref) for ref in step.subcards]
        else:
            parts = [self._real(step, kinds)]
        return parts + [self._target(step, n) for n in step.on]

    def _real(self, step: Step, kinds: frozenset[str]) -> Answer:
        ref = step.card
        what = f"'{label_of(ref)}'" if step.kind == "uses" else f"'plays {ref.text()}'"
        return Answer(step.seat, what, kinds, lambda r: _first(r, lambda v: ref.matches(_real_card(v))), step)

    def _converted(self, step: Step, kinds: frozenset[str]) -> Answer:
        wanted = (step.converted, step.via)
        return Answer(step.seat, f"'{step.converted} via {step.via}'", kinds,
                      lambda r: _first(r, lambda v: _conversion(v) == wanted), step)

    def _subcard(self, step: Step, ref: CardRef) -> Answer:
        return Answer(step.seat, f"'{ref.text()}' (a card of {step.converted} via {step.via})",
                      frozenset({"pick_card"}), lambda r: _first(r, ref.matches), step, strict_forced=True)

    def _target(self, step: Step, n: int) -> Answer:
        def pick(r: Request) -> int | None:
            found = _first(r, lambda v: isinstance(v, Player) and v.seat == n - 1)
            return found if found is not None else label_index(r.labels(), f"{n}號位")

        return Answer(step.seat, f"'{n}號位'", frozenset({"target"}), pick, step, strict_forced=True)

    def _invoke(self, step: Step) -> Answer:
        """`invokes`: the active skill of the play phase, or yes to the skill's question;
        `declines`: no to it. The question names its skill (in its prompt)."""
        skill, yes = step.text, step.kind == "invokes"

        def pick(r: Request) -> int | None:
            if r.kind == "play":
                return _first(r, lambda v: _active_skill(v) == skill) if yes else None
            return _first(r, lambda v: v is yes) if r.asker == skill or skill in r.prompt else None

        return Answer(step.seat, f"'{step.kind} {skill}'", frozenset({"play", "invoke"}), pick, step)

    def _picker(self, step: Step) -> Picker:
        """The option that is that very card, in that seat's zone: hidden hand cards
        (`手牌1`, `手牌2`...) are found by what they are."""
        ref, zone = step.card, step.zone

        def pick(r: Request) -> int | None:
            owner = self.game.players[step.owner - 1]
            return _first(r, lambda v: ref.matches(v) and self.game.zones.zone_of(v) == (zone, owner))

        return pick

    # ------------------------------------------------------------ the agent's side
    def agent(self, seat: int) -> SeatAgent:
        return SeatAgent(self, seat)

    def choose(self, request: Request) -> int:
        self._observe(request)
        seat = request.seat + 1
        question = _question(request)
        head = self._head()
        if head is None:
            raise ScriptFailure(f"unanswered question to seat {seat}: {question}")
        if head.seat != seat:
            dead = ", who is dead" if not self.game.players[head.seat - 1].alive else ""
            raise ScriptFailure(f"seat {seat} was asked {question}, but the script's next answer is seat "
                                f"{head.seat}'s {head.what}{dead} {where(head.step)}")
        index = head.index(request)
        if index is None:
            raise ScriptFailure(f"{head.what} is not a legal answer for seat {seat} to {question} {where(head.step)}")
        self.queue.pop(0)
        return index

    def forced(self, request: Request) -> None:
        """The engine chose alone (one option): a scripted answer that names it is taken as said."""
        self._observe(request)
        head = self._head()
        if head is None or head.seat != request.seat + 1:
            return
        if head.index(request) is not None:
            self.queue.pop(0)
        elif head.strict_forced and head.kinds is not None and request.kind in head.kinds:
            raise ScriptFailure(f"{head.what} is not a legal answer for seat {head.seat} to '{request.prompt}': "
                                f"the only candidate is {request.options[0].label} {where(head.step)}")

    def _head(self) -> Answer | None:
        self._activate()
        return self.queue[0] if self.queue else None  # type: ignore[return-value]

    def _activate(self) -> None:
        """Claims the script has reached become active; a `not asked` ends at its seat's next step."""
        while self.queue and isinstance(self.queue[0], Step):
            self.active.append(self.queue.pop(0))
        if self.queue:
            seat = self.queue[0].seat
            self.active = [c for c in self.active if not (c.kind == "not_asked" and c.seat == seat)]

    # ------------------------------------------------------------ claims
    def _observe(self, request: Request) -> None:
        self._activate()
        seat = request.seat + 1
        for claim in [c for c in self.active if c.seat == seat]:
            if self._settled(claim, request):
                self.active.remove(claim)

    def _settled(self, claim: Step, request: Request) -> bool:
        """Check a claim against a question to its seat; True when it is done with."""
        seat = claim.seat
        if claim.kind == "not_asked":
            self.failures.append(f"seat {seat} was asked {_question(request)}, but the script says seat {seat} "
                                 f"is not asked {where(claim)}")
            return True
        if claim.kind == "cannot_answer":
            if request.kind not in shape_of(claim.text).kinds:
                return False  # a question that could not offer it: the claim waits for one that could
            index = label_index(request.labels(), claim.text)
            if index is not None:
                self.failures.append(f"seat {seat} was offered '{request.options[index].label}' in {_question(request)}, "
                                     f"but the script says it cannot answer it {where(claim)}")
            return True
        if request.kind != "play":
            return False  # `cannot use` waits for the seat's next play-phase question
        problem = self._cannot_use(claim, request)
        if problem:
            self.failures.append(problem)
        return True

    def _cannot_use(self, claim: Step, request: Request) -> str:
        seat, ref = claim.seat, claim.card
        player = self.game.players[seat - 1]
        card = next((c for c in player.hand if ref.matches(c)), None)
        if card is None:
            held = ", ".join(c.label() for c in player.hand) or "nothing"
            return (f"seat {seat} does not hold {label_of(ref)} when asked what to use (it holds {held}), so "
                    f"'cannot use' tests nothing {where(claim)}")
        usable = [o for o in request.options if _real_card(o.value) is card]
        if not claim.on:
            return f"seat {seat} can use {label_of(ref)}, but the script says it cannot {where(claim)}" if usable else ""
        mode = use_mode(card.kind, "play")
        if mode is None or mode.target is None:
            return (f"{label_of(ref)} is not used in the play phase at all, so 'cannot use {ref.text()} on ...' "
                    f"does not test the target {where(claim)}")
        if usable:  # past its limit, only on the targets a `limit ... where` waives it for
            targets = self.game.using.play_targets(player, card.kind, UsedCard.of(card))
            bad = [n for n in claim.on if self.game.players[n - 1] in targets]
            if bad:
                return f"seat {seat} can use {label_of(ref)} on seat {bad[0]}, but the script says it cannot {where(claim)}"
            return ""
        targets = self.game.using.legal_targets(player, mode.target, UsedCard.of(card))
        bad = [n for n in claim.on if self.game.players[n - 1] in targets]
        if bad:  # not usable for another reason (its limit, ...): the claim says nothing about the target
            return (f"seat {seat} cannot use {label_of(ref)} at all, though seat {bad[0]} is a legal target for it: "
                    f"'cannot use {ref.text()} on {bad[0]}' does not test the target; write "
                    f"`{seat} cannot use {ref.text()};` {where(claim)}")
        return ""

    def leftovers(self) -> list[str]:
        """What the script said that never happened (the script ran to its end)."""
        self._activate()
        out = [f"seat {c.seat} was never asked to play, so 'cannot use {label_of(c.card)}' was not checked {where(c)}"
               for c in self.active if c.kind == "cannot"]
        out += [f"seat {c.seat} was never asked a question that could offer '{c.text}' ({shape_of(c.text).what}), "
                f"so 'cannot answer' tests nothing {where(c)}" for c in self.active if c.kind == "cannot_answer"]
        for item in self.queue:
            if isinstance(item, Step):
                continue  # a claim the script never reached: the answer before it is reported
            dead = "" if self.game.players[item.seat - 1].alive else f" (seat {item.seat} is dead)"
            out.append(f"scripted answer never asked for: seat {item.seat} {item.what}{dead} {where(item.step)}")
        return out


def _question(request: Request) -> str:
    return f"'{request.prompt}' (candidates: {', '.join(request.labels())})"


class SeatAgent:
    def __init__(self, script: Script, seat: int):
        self.script = script
        self.seat = seat

    def choose(self, request: Request, view: Any) -> int:
        return self.script.choose(request)

    def forced(self, request: Request) -> None:
        self.script.forced(request)
