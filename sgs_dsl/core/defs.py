"""What the compiler produces and the engine runs: card kinds, skills, triggers, modifiers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attr

from ..syntax.diagnostics import Span

# Classes here are `attr.s(auto_attribs=True)`, not slotted `attrs.define`/`attrs.frozen`: the form
# mypyc compiles (docs/performance.md, "The compiled build"); frozen ones refuse writes by on_setattr.

Fn = Callable[[Any], Any]  # a compiled expression or block: ctx -> value / signal


class Ctx:
    """The variables a compiled closure sees: the game and a scope of named values."""

    __slots__ = ("game", "vars")

    def __init__(self, game: Any, variables: dict[str, Any]):
        self.game = game
        self.vars = variables


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
class TargetRule:
    kind: str  # self / one / one_other / all / all_others / dying
    cond: Fn | None
    card_free: bool = False  # cond never reads the card used (compiler._card_free): cards of a kind judge alike


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
class UseMode:
    context: str  # play / dying / respond / counter
    target: TargetRule | None
    counter: Callable[[Any], bool] | None = None  # for counter: which used cards it answers


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
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


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
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
    bookkeeping: bool = False  # forced, its body only records or reads state: not an invocation at all
    guard: tuple[Concern, ...] = ()  # what `cond` first asks of the window (compiler.guards)
    by: Fn | None = None  # `optional by PLAYER`: the player asked, who invokes it (頌威), else the owner


def mark_helpers(triggers: dict[str, list[TriggerDef]], chosen: bool) -> dict[str, tuple[TriggerDef, ...]]:
    """A skill whose owner invokes it by choice (an optional trigger, an action, a view_as) may
    carry forced triggers that carry out that choice later (裸衣's +1): those are helpers, not
    invocations, so the log and the statistics do not count them as 發動."""
    chosen = chosen or any(t.optional for ts in triggers.values() for t in ts)
    return {k: tuple(attr.evolve(t, helper=chosen and not t.optional) for t in ts) for k, ts in triggers.items()}


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
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


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
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


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
class ActiveDef:
    """A play-phase action: offered at free time while `cond` holds; `once` per play phase."""

    skill: str
    once: bool
    cond: Fn | None
    body: Fn
    span: Span | None = None  # where it is written: named when text it sets off runs away


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
class AttachDef:
    """An action the skill gives others in their own play phase: offered while
    the owner lives and `cond` holds; `once` per acting player's play phase. ctx: you (the
    owner), player (who acts)."""

    skill: str
    once: bool
    cond: Fn | None
    body: Fn


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
class ForbidDef:
    """What the owner cannot do (`use`) or be chosen for (`target`) with matching cards."""

    kind: str  # target / use / play / respond / discard
    matches: Callable[[Any], bool]
    cond: Fn | None
    skill: str = ""
    subject: str = "you"  # who is bound: you / others / all


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
class FilterDef:
    """the owner's cards that match count as `suit` or as the card `kind_name`."""

    matches: Callable[[Any], bool]
    suit: str | None
    kind_name: str | None
    cond: Fn | None  # ctx: you, card
    skill: str = ""


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
class EquippedDef:
    """while the slot of `kind_name` is empty, the owner has that card's skill."""

    kind_name: str


@attr.s(auto_attribs=True, eq=False, order=False)
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
    package: str = ""  # the stem of the file that defines it (core/names.py)
    key: str = ""  # what the engine and reports keep it by: its name, or package.name when shared
    differs: str = ""  # `differs "REASON";`: why its rules knowingly differ from its printed text (sgs text)


EQUIP_TYPES = frozenset({"weapon", "armor", "offense_horse", "defense_horse"})


@attr.s(auto_attribs=True, eq=False, order=False)
class CardKind:
    """A card of the library. `type` cannot change once made (a read-only property); `uses`
    may (the compiler, `like`), and its setter forgets what `mode` worked out from them.
    Properties, not attrs' on_setattr hooks: a compiled writer skips a hook, never a setter."""

    name: str
    id: str
    _type: str = attr.ib(alias="type")  # basic / trick / delayed / weapon / armor / ...
    text: str
    span: Span
    nature: str = "normal"
    range: int = 1
    _uses: tuple[UseMode, ...] = attr.ib(default=(), alias="uses")
    limit: int | None = None
    distance: int | None = None
    choose: tuple[tuple[str, TargetRule, str], ...] = ()  # variable, rule, title
    targets: int = 1  # how many targets a `one` / `one other` use may choose
    recast: int = 0  # > 0: may be recast (重鑄) in the play phase, drawing this many
    like: CardKind | None = None  # this card is a kind of that one (火殺 is a 殺)
    blocks: dict[str, Fn] = attr.ib(factory=dict)
    skill: Skill | None = None
    package: str = ""  # the stem of the file that defines it: cards/standard.sgs -> standard
    key: str = ""  # what the engine keeps it by: its name, or package.name when shared (core/names.py)
    differs: str = ""  # `differs "REASON";`: why its rules knowingly differ from its printed text (sgs text)
    # read at every question: worked out from `type` once (it cannot change), and `uses` by context
    is_equip: bool = attr.ib(init=False, default=False, repr=False)
    _modes: dict[str, UseMode] | None = attr.ib(init=False, default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        self.is_equip = self._type in EQUIP_TYPES
        self.key = self.key or self.name

    @property
    def type(self) -> str:
        return self._type

    @property
    def uses(self) -> tuple[UseMode, ...]:
        return self._uses

    @uses.setter
    def uses(self, uses: tuple[UseMode, ...]) -> None:
        self._uses = uses
        self._modes = None  # mode() reads them afresh

    @property
    def rule_name(self) -> str:
        """The key the rules know it by: 火殺 and 雷殺 are 殺 for limits and answers."""
        kind = self
        while kind.like is not None:
            kind = kind.like
        return kind.key

    def is_a(self, key: str) -> bool:
        """This card is the card of that key, or a kind of it (`like`)."""
        kind: CardKind | None = self  # a loop, not a recursion: a chain of `like`s may be long
        while kind is not None:
            if kind.key == key:
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


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
class CardSpec:
    """One card of a deck list: name, id, suit and rank."""

    name: str
    id: str
    suit: str
    rank: int
    type: str


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
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
    mode_options: dict[str, Any] = attr.ib(factory=dict)  # the options the ruleset sets for its mode
