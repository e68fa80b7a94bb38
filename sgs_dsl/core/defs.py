"""What the compiler produces and the engine runs: card kinds, skills, triggers, modifiers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ..syntax.diagnostics import Span

Fn = Callable[[Any], Any]  # a compiled expression or block: ctx -> value / signal


class Ctx:
    """The variables a compiled closure sees: the game and a scope of named values."""

    __slots__ = ("game", "vars")

    def __init__(self, game: Any, variables: dict[str, Any]):
        self.game = game
        self.vars = variables


@attrs.frozen(slots=True)
class TargetRule:
    kind: str  # self / one / one_other / all / all_others / dying
    cond: Fn | None
    card_free: bool = False  # cond never reads the card used (compiler._card_free): cards of a kind judge alike


@attrs.frozen(slots=True)
class UseMode:
    context: str  # play / dying / respond / counter
    target: TargetRule | None
    counter: Callable[[Any], bool] | None = None  # for counter: which used cards it answers


@attrs.frozen(slots=True)
class Concern:
    """One leading conjunct of a trigger's condition, read as data (compiler.guards):
    `VAR.FIELD... == you` (`player`) or `VAR.FIELD... == "TEXT"` (the text as the compiled
    condition reads it: a phase name by its id)."""

    var: str
    getters: tuple[Callable[[Any], Any], ...]
    player: bool  # compared with the owner, by identity; else with `value`, by ==
    value: Any = None

    def holds(self, variables: dict[str, Any], you: Any) -> bool:
        value = variables.get(self.var)
        for getter in self.getters:
            if value is None:
                break
            value = getter(value)
        return value is you if self.player else value == self.value


@attrs.frozen(slots=True)
class TriggerDef:
    window: str
    optional: bool
    cond: Fn | None
    body: Fn
    skill: str
    span: Span
    each_point: bool = False  # repeat once per point of the damage (遺計-like)
    each_card: bool = False  # repeat once per card of the move (梟姬-like)
    helper: bool = False  # a forced trigger of a skill invoked by choice: not a new invocation
    guard: tuple[Concern, ...] = ()  # what `cond` first asks of the window (compiler.guards)


def mark_helpers(triggers: dict[str, list[TriggerDef]], chosen: bool) -> dict[str, tuple[TriggerDef, ...]]:
    """A skill whose owner invokes it by choice (an optional trigger, an action, a view_as) may
    carry forced triggers that carry out that choice later (裸衣's +1): those are helpers, not
    invocations, so the log and the statistics do not count them as 發動."""
    chosen = chosen or any(t.optional for ts in triggers.values() for t in ts)
    return {k: tuple(attrs.evolve(t, helper=chosen and not t.optional) for t in ts) for k, ts in triggers.items()}


@attrs.frozen(slots=True)
class ModifierDef:
    name: str  # limit / targets / distance_to / distance_from / attack_range / hand_limit
    matches: Callable[[Any], bool] | None
    op: str  # = += -=
    value: Fn  # ctx -> int or None (unlimited)
    cond: Fn | None
    skill: str = ""  # whose modifier: credited in statistics when it changes an outcome
    subject: str = "you"  # who is bound: you / others / all (engine.bound_modifiers)
    where: Fn | None = None  # `targets ... where`: each extra target's own condition (ctx: it)

    @property
    def adds_targets(self) -> bool:
        """`modify targets(CARD) += N [where ...]` of the owner's: extra targets its owner may
        choose to take (a 國戰 face-down general's skill is used by taking one)."""
        return self.name == "targets" and self.op == "+=" and self.subject == "you"


@attrs.frozen(slots=True)
class ViewAsDef:
    kind_name: str
    count: int
    matches: Callable[[Any], bool]
    zone: str  # hand / hand_equip
    modes: tuple[str, ...]  # use / play
    skill: str
    cond: Fn | None = None  # when the conversion is offered (ctx: you)
    across: tuple[str, str] | None = None  # ("same" | "different", "suit" | "color" | "type")
    label: str = ""  # tells apart several conversions of one skill into the same card
    declared: tuple[str, ...] = ()  # the names the user may declare (`declared(PATTERN)`)
    face_down: bool = False  # used face down: others may question it (質疑) before it counts

    @property
    def kind_names(self) -> tuple[str, ...]:
        """The cards this conversion can make: its declared set, or its one card."""
        return self.declared or (self.kind_name,)


@attrs.frozen(slots=True)
class ActiveDef:
    """A play-phase action: offered at free time while `cond` holds; `once` per play phase."""

    skill: str
    once: bool
    cond: Fn | None
    body: Fn
    span: Span | None = None  # where it is written: named when text it sets off runs away


@attrs.frozen(slots=True)
class AttachDef:
    """An action the skill gives others in their own play phase: offered while
    the owner lives and `cond` holds; `once` per acting player's play phase. ctx: you (the
    owner), player (who acts)."""

    skill: str
    once: bool
    cond: Fn | None
    body: Fn


@attrs.frozen(slots=True)
class ForbidDef:
    """What the owner cannot do (`use`) or be chosen for (`target`) with matching cards."""

    kind: str  # target / use / play / respond / discard
    matches: Callable[[Any], bool]
    cond: Fn | None
    skill: str = ""
    subject: str = "you"  # who is bound: you / others / all


@attrs.frozen(slots=True)
class FilterDef:
    """the owner's cards that match count as `suit` or as the card `kind_name`."""

    matches: Callable[[Any], bool]
    suit: str | None
    kind_name: str | None
    cond: Fn | None  # ctx: you, card
    skill: str = ""


@attrs.frozen(slots=True)
class EquippedDef:
    """while the slot of `kind_name` is empty, the owner has that card's skill."""

    kind_name: str


@attrs.define(slots=True, eq=False)
class Skill:
    name: str
    id: str
    text: str
    tags: tuple[str, ...]
    triggers: dict[str, tuple[TriggerDef, ...]]
    modifiers: tuple[ModifierDef, ...]
    view_as: tuple[ViewAsDef, ...]
    span: Span
    actives: tuple[ActiveDef, ...] = ()
    forbids: tuple[ForbidDef, ...] = ()
    from_card: str = ""  # the card that grants it while equipped
    slot: str = ""
    rule: bool = False  # a card's rule: every player has it while the card is in the game
    filters: tuple[FilterDef, ...] = ()
    equipped: tuple[EquippedDef, ...] = ()
    attached: tuple[AttachDef, ...] = ()  # actions for others


EQUIP_TYPES = frozenset({"weapon", "armor", "offense_horse", "defense_horse"})


def _forget_modes(kind: CardKind, _attribute: Any, uses: Any) -> Any:
    kind._modes = None  # the uses changed (the compiler, `like`): mode() reads them afresh
    return uses


@attrs.define(slots=True, eq=False)
class CardKind:
    name: str
    id: str
    type: str = attrs.field(on_setattr=attrs.setters.frozen)  # basic / trick / delayed / weapon / armor / ...
    text: str
    span: Span
    nature: str = "normal"
    range: int = 1
    uses: tuple[UseMode, ...] = attrs.field(default=(), on_setattr=_forget_modes)
    limit: int | None = None
    distance: int | None = None
    choose: tuple[tuple[str, TargetRule, str], ...] = ()  # variable, rule, title
    targets: int = 1  # how many targets a `one` / `one other` use may choose
    recast: int = 0  # > 0: may be recast (重鑄) in the play phase, drawing this many
    like: CardKind | None = None  # this card is a kind of that one (火殺 is a 殺)
    blocks: dict[str, Fn] = attrs.field(factory=dict)
    skill: Skill | None = None
    # read at every question: worked out from `type` once (it cannot change), and `uses` by context
    is_equip: bool = attrs.field(init=False, repr=False)
    _modes: dict[str, UseMode] | None = attrs.field(init=False, default=None, repr=False)

    @is_equip.default
    def _is_equip(self) -> bool:
        return self.type in EQUIP_TYPES

    @property
    def rule_name(self) -> str:
        """The name the rules know it by: 火殺 and 雷殺 are 殺 for limits and answers."""
        kind = self
        while kind.like is not None:
            kind = kind.like
        return kind.name

    def is_a(self, name: str) -> bool:
        kind: CardKind | None = self  # a loop, not a recursion: a chain of `like`s may be long
        while kind is not None:
            if kind.name == name:
                return True
            kind = kind.like
        return False

    def mode(self, context: str) -> UseMode | None:
        """The first use of the card in `context` (None: it has none there)."""
        modes = self._modes
        if modes is None:
            modes = {}
            for m in self.uses:
                modes.setdefault(m.context, m)
            self._modes = modes
        return modes.get(context)

    @property
    def is_trick(self) -> bool:
        return self.type in ("trick", "delayed")


@attrs.frozen
class CardSpec:
    """One card of a deck list: name, id, suit and rank."""

    name: str
    id: str
    suit: str
    rank: int
    type: str


@attrs.frozen
class Ruleset:
    name: str
    title: str
    mode: str
    decks: tuple[str, ...]
    heroes: tuple[str, ...]
    default: bool
    options: dict[str, Any]
    span: Span
    lords: tuple[str, ...] = ()  # hero names the lord may always choose from (seed 000 §2)
    mode_options: dict[str, Any] = attrs.field(factory=dict)  # the options the ruleset sets for its mode
