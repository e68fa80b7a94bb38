"""The skills in play and their modifiers: each seat's skills (hero, equipment, the deck's rules), the tables read off them and when they are rebuilt, and the credit a modifier earns when it shapes a real choice."""


from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from ..core.defs import CardKind, Ctx, ModifierDef, Skill
from ..core.model import (
    MAX_DEPTH,
    Player,
    UsedCard,
)
from ..core.native import mypyc_attr
from .bound_modifiers import bound_modifiers, index_bound  # modifiers for others
from .turn import ACTIVE_KEY, END_PLAY, MAX_ACTIONS_PER_PHASE
from .using import ALIKE_MODIFIERS, EQUIP_USE, use_mode
from .zones import FROM_DECK, where, zone_zh

if TYPE_CHECKING:
    from .filters import Filters
    from .kernel import Game
    from .prohibits import Prohibits
    from .using import Using

INVOKE, NOT_INVOKE = "發動", "不發動"  # the answers to an optional skill's question
T = TypeVar("T")

__all__ = ["ACTIVE_KEY", "END_PLAY", "EQUIP_USE", "FROM_DECK", "MAX_ACTIONS_PER_PHASE", "MAX_DEPTH",
           "Game", "use_mode", "where", "zone_zh"]




@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class Skills:
    """The skills in play, their modifiers, and the tables read off them until the skills change.
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    filters: Filters
    prohibits: Prohibits
    using: Using

    def __init__(self, game: Game) -> None:
        self.game = game

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.filters = game.filters
        self.prohibits = game.prohibits
        self.using = game.using


    # ------------------------------------------------------------ skills, modifiers, windows
    def skills_of(self, p: Player, suppressed: bool = False) -> list[Skill]:
        """Hero skills, then the skills of equipped cards; an ignored armour's skill only
        when `suppressed` is asked for (the window index holds it, and checks at firing)."""
        game = self.game
        skills = game._skills.get(p.seat)
        if skills is None:  # rebuilt after changed_skills(): equipment moved, a player died
            skills = [s for s in p.skills if game.mode.has_skill(p, s)]  # 主公技: the mode says
            if p.skills_off:  # 技能失效, the hero skills lose effect
                skills = []
            skills += [c.kind.skill for c in p.equips.values() if c.kind.skill is not None]
            if any(s.equipped for s in skills):  # treated as equipped
                skills += self.filters.treated_equipment(p, skills)
            skills += self.rule_skills()
            game._skills[p.seat] = skills
        if suppressed or not game.use_stack or "armor" not in p.equips or not self.armor_ignored(p):
            return skills
        return [s for s in skills if s.slot != "armor"]

    def effective_skills(self, p: Player, suppressed: bool = False) -> list[Skill]:
        """The skills in effect: `skills_of` without a face-down general's skills, which wait
        to be invoked (國戰); their modifiers, prohibits and filters do not act meanwhile."""
        skills = self.skills_of(p, suppressed)
        if not self.game.mode.hides_skills:
            return skills
        return [s for s in skills if not self.game.mode.hidden(p, s)]

    def offered_skills(self, p: Player) -> list[Skill]:
        """The skills p may invoke now: a face-down general's only while p may show a general
        (a `forbid reveal` binds no one)."""
        skills = self.skills_of(p)
        if not self.game.mode.hides_skills or self.prohibits.may_reveal(p):
            return skills
        return [s for s in skills if not self.game.mode.hidden(p, s)]

    def rule_skills(self) -> tuple[Skill, ...]:
        """The rules that cards of this game's deck add for everyone (酒's next-殺 bonus)."""
        game = self.game
        if game._rules is None:
            kinds = {c.kind for c in game.all_cards}
            game._rules = tuple(k.skill for k in sorted(kinds, key=lambda k: k.name)
                                if k.skill is not None and k.skill.rule)
        return game._rules

    def deck_kinds(self) -> frozenset[CardKind]:
        """The kinds of card this game is played with (its deck)."""
        game = self.game
        if game._deck_kinds is None:
            game._deck_kinds = frozenset(c.kind for c in game.all_cards)
        return game._deck_kinds

    def armor_ignored(self, p: Player) -> bool:
        return any(p.seat in u.armor_off for u in self.game.use_stack)

    def modifiers(self, p: Player, name: str) -> Iterable[ModifierDef]:
        """p's modifiers called `name`; () at once when none of p's skills has one (the usual case)."""
        if not self.has_modifiers(p, name):
            return ()
        return self._modifiers(p, name)

    def has_modifiers(self, p: Player, name: str) -> bool:
        """Some skill in play may give p a modifier called `name` (by the index of seats)."""
        index = self.game._modifier_seats
        if index is None:
            index = self._index_modifiers()
        return p.seat in index.get(name, ())

    def _index_modifiers(self) -> dict[str, frozenset[int]]:
        """Which seats have a modifier of each name, until changed_skills()."""
        game = self.game
        seats: dict[str, set[int]] = {}
        for p in game.players:
            for skill in self.effective_skills(p, suppressed=True):
                for m in skill.modifiers:
                    if m.subject == "you":
                        seats.setdefault(m.name, set()).add(p.seat)
        game._bound = index_bound(game, seats)  # `for others` / `for all`: the seats they bind
        game._modifier_seats = {name: frozenset(s) for name, s in seats.items()}
        return game._modifier_seats

    def _modifiers(self, p: Player, name: str) -> Iterator[ModifierDef]:
        game = self.game
        aside = {self.equip_skill_uid(p, s) for s in self.skills_of(p)} & game.set_aside if game.set_aside else ()
        stacks = game.mode.hides_skills  # one skill on both generals acts twice (seed 001 Q&A 11)
        for skill in self.effective_skills(p):
            if aside and self.equip_skill_uid(p, skill) in aside:
                continue
            for m in skill.modifiers:
                if m.name == name and m.subject == "you":
                    for _ in range(game.mode.copies(p, skill) if stacks else 1):
                        yield m
        yield from bound_modifiers(game, game._bound, p, name)

    @staticmethod
    def equip_skill_uid(p: Player, skill: Skill) -> int:
        """The uid of the equipped card that grants `skill` (-1 for a hero skill)."""
        card = p.equips.get(skill.slot) if skill.slot else None
        return card.uid if card is not None and card.kind.skill is skill else -1

    def modified(self, p: Player, name: str, base: int, ctx_vars: dict[str, Any] | None = None,
                 card: UsedCard | None = None, credit: bool = True, mods: Iterable[ModifierDef] | None = None) -> int:
        """`base` as p's `name` modifiers that apply change it (手牌上限, 攻擊範圍, the targets
        and distance limits of cards): the largest `= N` replaces the base, then every `+=` and
        `-=` counts, in any order. `= unlimited` (None) is asked with unlimited(). With `credit`,
        the skills that changed it count as fired when a real choice is being made. `mods`: those
        of p's modifiers to fold, when not all of them."""
        fixed: int | None = None
        total = 0
        for m in self.modifiers(p, name) if mods is None else mods:
            if m.matches is not None and (card is None or not m.matches(card)):  # its pattern only
                continue
            ctx = Ctx(self.game, {"you": p, **(ctx_vars or {})})
            if m.cond is None or m.cond(ctx):
                value = m.value(ctx)
                if value is None:
                    continue
                if m.op == "=":
                    fixed = value if fixed is None else max(fixed, value)
                elif value:
                    total += -value if m.op == "-=" else value
                else:
                    continue
                if credit:
                    self.credit(m.skill)
        return (base if fixed is None else fixed) + total

    def credited(self, read: Callable[[], T]) -> T:
        """Make a read the rules act on (the targets of a real use, a judgement's result): the
        modifiers, prohibits and filters it consulted are counted as fired, once each."""
        game = self.game
        outer, game.crediting = game.crediting, set()
        try:
            return read()
        finally:
            for skill in sorted(game.crediting):
                game.fired[skill] = game.fired.get(skill, 0) + 1
            game.crediting = outer

    def credit(self, skill: str) -> None:
        """While a real choice is being made (`crediting`), note the modifiers and forbids
        that shaped it: the statistics count them as fired once per choice."""
        if self.game.crediting is not None and skill:
            self.game.crediting.add(skill)

    def use_limit(self, p: Player, kind: CardKind) -> int | None:
        """How often `kind` may be used this play phase (None: no limit)."""
        if kind.limit is None:
            return None
        if not self.has_modifiers(p, "limit"):
            return kind.limit
        probe = UsedCard.virtual(kind)
        if self.using.unlimited(p, "limit", probe, credit=False):
            return None  # lifted (咆哮); a use beyond the card's own limit credits it (using.py)
        return self.modified(p, "limit", kind.limit, card=probe, credit=False)

    def extra_targets(self, p: Player, card: UsedCard) -> int:
        """The targets a card may have beyond its own (`modify targets(CARD) ...` without `where`)."""
        plain = [m for m in self.modifiers(p, "targets") if m.where is None]  # `where`: using.py
        return self.modified(p, "targets", 0, {"user": p, "card": card}, card, credit=False, mods=plain) if plain else 0

    def changed_skills(self) -> None:
        game = self.game
        game.table_version += 1  # `modify survive` may hold or not now (invariants.py)
        game.seats_version += 1
        game._listeners = None
        game._modifier_seats = None  # which seats have modifiers of each name
        game._forbid_table = game._forbid_binding = None  # the prohibits in play
        game._filter_table = None  # the filters in play
        game._skills.clear()
        game._alike.clear()  # kinds_judged_alike, read off the tables above
        game._converts.clear()
        game._attach_live = None

    def changed_equipment(self, p: Player) -> None:
        """p's equipment changed: p's skills are worked out again, and only the tables that the
        skills gained or lost feed are rebuilt (a horse moving leaves the listeners as they were,
        a weapon the modifiers and prohibits). Each table is a function of the skills in play,
        so one the changed skills add nothing to stays right."""
        game = self.game
        old = game._skills.pop(p.seat, None)
        if old is None:  # p's skills were not worked out since the last change: nothing to compare
            self.changed_skills()
            return
        game.table_version += 1
        new = self.skills_of(p, suppressed=True)
        kept = {id(s) for s in old} & {id(s) for s in new}
        changed = [s for s in (*old, *new) if id(s) not in kept]
        if not changed:
            return
        if any(s.triggers for s in changed):
            game._listeners = None
        if any(s.modifiers for s in changed):
            game._modifier_seats = None
        if any(s.forbids for s in changed):
            game._forbid_table = game._forbid_binding = None
        if any(s.filters for s in changed):
            game._filter_table = None
        if any(s.forbids or s.filters or any(m.name in ALIKE_MODIFIERS for m in s.modifiers) for s in changed):
            game._alike.clear()  # kinds_judged_alike reads these (a horse's distance leaves it)
        if any(s.view_as for s in changed):
            game._converts.pop(p.seat, None)
        if any(s.attached for s in changed):
            game._attach_live = None

