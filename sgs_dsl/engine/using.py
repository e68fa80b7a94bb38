"""Using a card and answering: which cards and conversions are castable, legal targets,
the use process window by window, counters (無懈可擊-like cards), asking for a card."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..core.defs import CardKind, Ctx, Fn, ModifierDef, Skill, TargetRule, UseMode, ViewAsDef
from ..core.model import (
    CALL_LEVELS,
    SLOT_ZH,
    Asked,
    Card,
    Player,
    RulesError,
    Use,
    UsedCard,
)
from ..core.native import mypyc_attr
from . import viewas
from .decisions import Option

if TYPE_CHECKING:
    from typing_extensions import TypeIs

    from .filters import Filters
    from .hp import Hp
    from .kernel import Game
    from .moves import Moves
    from .prohibits import Prohibits
    from .questioning import Questioning
    from .seats import Seats
    from .skills import Skills
    from .triggers import Triggers
    from .turn import Turn
    from .zones import Zones

DONE = "完成"  # the option that stops picking more (targets, players, cards)
FACE_DOWN = "（扣置）"  # a conversion used face down, which others may question
CONVERT_KEY = "convert:"  # Player.used key prefix: a skill's conversions used this play phase
# Equipment is used in the play phase on oneself (seed 000 裝備牌): a rule of the game, not of
# any card's text, so a card that says nothing about its use still has this mode.
EQUIP_USE = UseMode("play", TargetRule("self", None))
TARGETING = frozenset({"using", "specifying", "targeted", "after_specify", "after_targeted"})  # _target_windows

# What a castable option is made of: its real cards, or ("view_as", the conversion) whose cards
# are picked when it is chosen.
Subcards = tuple[Card, ...] | tuple[str, ViewAsDef]
# A pattern of text (`ask_for(閃, card.suit == red)`): does a card fit?
Pattern = Callable[[UsedCard], bool]


def is_conversion(subcards: Subcards) -> TypeIs[tuple[str, ViewAsDef]]:
    """The option is a conversion, its cards not yet picked."""
    return bool(subcards) and subcards[0] == "view_as"


def counters(kind: CardKind, card: UsedCard) -> bool:
    """A card of `kind` (a `use counter` card) may counter `card`."""
    mode = kind.mode("counter")
    return mode is not None and mode.counter is not None and mode.counter(card)


def _as_printed(card: Card, holder: Player) -> Card:
    """A card as a pattern reads it when no filter of its holder applies: its own face."""
    return card


# the modifiers whose patterns match the card can_play reads (kinds_judged_alike): no other
# modifier of a player's makes two real cards of one kind judged apart
ALIKE_MODIFIERS = ("range", "trick_distance")


def use_mode(kind: CardKind, context: str) -> UseMode | None:
    mode = kind.mode(context)
    if mode is None and context == "play" and kind.is_equip:
        return EQUIP_USE
    return mode


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class Using:
    """Using and answering with cards: what is castable, legal targets, the use window by window, counters, asking for a card.
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    filters: Filters
    hp: Hp
    moves: Moves
    prohibits: Prohibits
    questioning: Questioning
    seats: Seats
    skills: Skills
    triggers: Triggers
    turn: Turn
    zones: Zones

    def __init__(self, game: Game) -> None:
        self.game = game

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.filters = game.filters
        self.hp = game.hp
        self.moves = game.moves
        self.prohibits = game.prohibits
        self.questioning = game.questioning
        self.seats = game.seats
        self.skills = game.skills
        self.triggers = game.triggers
        self.turn = game.turn
        self.zones = game.zones


    # ------------------------------------------------------------ which cards can be used
    def make_card(self, kind: CardKind, subcards: tuple[Card, ...]) -> UsedCard:
        if len(subcards) == 1:  # a real card, as its holder's filters make it count
            real = self.filters.seen_used(subcards[0])
            if real.kind is kind:
                return real
        return self.filters.filtered_virtual(kind, subcards)

    def castable(self, p: Player, context: str, pattern: Pattern | None = None) -> Iterator[tuple[str, CardKind, Subcards]]:
        """(label, kind, subcards) for each way p could produce a card usable in `context`:
        a real hand card, or a view-as skill's conversion (offered once; cards picked later)."""
        playing_out = context == "play_response"  # 打出 needs no use clause, only a match
        seen = set()
        guarded = self.prohibits.may_forbid(context)  # a prohibit in play could stop this context
        filtered = p.seat in self.filters.filter_table()  # p's cards count as others
        if pattern is None and not guarded and not filtered and not playing_out:  # the usual case
            usable = self.usable_kinds(context)
            for c in p.hand:
                if c.kind in usable:
                    yield c.label(), c.kind, (c,)
        else:
            yield from self._castable_hand(p, context, pattern, guarded, filtered, playing_out)
        for skill in self.skills.offered_skills(p):
            for va in skill.view_as:
                if ("play" if playing_out else "use") not in va.modes:
                    continue
                kinds = self._conversion_kinds(va, context, playing_out)
                if va.declared and va.cond is not None:  # the condition is asked of each name
                    kinds = [k for k in kinds if va.cond(Ctx(self.game, {"you": p, "name": k.name}))]
                elif not kinds or (va.cond is not None and not va.cond(Ctx(self.game, {"you": p}))):
                    continue
                if not kinds:
                    continue
                some = self.view_as_sample(p, va)
                if some is None:
                    continue
                for kind in kinds:
                    if pattern is not None and not pattern(UsedCard.virtual(kind, some)):
                        continue
                    if guarded and self.prohibits.forbidden_in(p, context, UsedCard.virtual(kind, some)):
                        continue
                    key = (skill.key, kind.key, va.label)
                    if key in seen:
                        continue
                    seen.add(key)
                    yield f"【{skill.name}】視為【{kind.name}】{va.label}{FACE_DOWN if va.face_down else ''}", kind, (
                        "view_as", va)

    def _conversion_kinds(self, va: ViewAsDef, context: str, playing_out: bool) -> list[CardKind]:
        """The cards a conversion may count as in `context`, as far as the game decides it: its
        names as this game plays them, a declared one only from the deck, each with a use in the
        context (unless played out). Fixed for a game, so worked out once per conversion."""
        game = self.game
        key = (id(va), context)
        known = game._va_kinds.get(key)
        if known is not None and known[0] is va:  # (held, so its id cannot be another's)
            return known[1]
        # one, or each name declarable (two editions of a card may be played as one: `variants`)
        kinds = list(dict.fromkeys(game.kind_named(name) for name in va.kind_names))
        if va.declared:  # a name is declared from the cards this game is played with
            kinds = [k for k in kinds if k in self.skills.deck_kinds()]
        if not playing_out:
            kinds = [k for k in kinds if use_mode(k, context) is not None]
        game._va_kinds[key] = (va, kinds)
        return kinds

    def usable_kinds(self, context: str) -> frozenset[CardKind]:
        """The kinds of this game's deck that have a use in `context` (fixed for a game)."""
        usable = self.game._usable.get(context)
        if usable is None:
            usable = self.game._usable[context] = frozenset(k for k in self.skills.deck_kinds() if use_mode(k, context))
        return usable

    def _castable_hand(self, p: Player, context: str, pattern: Pattern | None, guarded: bool, filtered: bool,
                       playing_out: bool) -> Iterator[tuple[str, CardKind, Subcards]]:
        """castable()'s hand cards when filters, a pattern, a prohibit or playing out is in play."""
        for c in p.hand:
            used = self.filters.seen_used(c, p) if filtered else None
            kind = used.kind if used is not None else c.kind
            if not playing_out and use_mode(kind, context) is None:
                continue
            if pattern is None and not guarded and used is None:
                yield c.label(), c.kind, (c,)
                continue
            used = used or UsedCard.of(c)
            if pattern is not None and not pattern(used):
                continue
            if guarded and self.prohibits.forbidden_in(p, context, used):
                continue
            yield used.label(), kind, (c,)

    def view_as_sample(self, p: Player, va: ViewAsDef) -> tuple[Card, ...] | None:
        """Some cards a conversion could be made of now (its rule across them kept), or None."""
        # a card of a holder no filter touches is matched by its face (patterns read only a card's
        # face: schema.PATTERN_WORDS), without a view made of it
        face = self.filters.seen_used if p.seat in self.filters.filter_table() else _as_printed
        pool = [c for c in self.zones.zone_cards(p, va.zone) if va.matches(face(c, p))]
        if va.across is None:
            return tuple(pool[:va.count]) if len(pool) >= va.count else None
        how, prop = va.across
        some = viewas.sample(how, [(viewas.key_of(face(c, p), prop), c) for c in pool], va.count)
        return tuple(some) if some is not None else None

    def view_as_fitting(self, p: Player, va: ViewAsDef, chosen: list[Card], pool: list[Card]) -> list[Card]:
        """The cards of `pool` that, added to `chosen`, still leave a set that keeps the rule."""
        if va.across is None:
            return pool
        how, prop = va.across
        keys = {c.uid: viewas.key_of(self.filters.seen_used(c, p), prop) for c in chosen + pool}
        picked = [keys[c.uid] for c in chosen]
        return [c for c in pool if viewas.completable(
            how, picked + [keys[c.uid]], [keys[o.uid] for o in pool if o is not c], va.count)]

    def produce(self, p: Player, kind: CardKind, subcards: Subcards) -> UsedCard:
        """The card a castable option makes: a real card, or a conversion's cards picked now
        (face down, as the declared card, when the conversion is used face down)."""
        cards = self.resolve_subcards(p, kind, subcards)
        if is_conversion(subcards) and subcards[1].face_down:
            return UsedCard.face_down_as(kind, cards)
        return self.make_card(kind, cards)

    def resolve_subcards(self, p: Player, kind: CardKind, subcards: Subcards) -> tuple[Card, ...]:
        """A view-as choice becomes real cards: the player picks them one by one."""
        if not is_conversion(subcards):
            return subcards
        va = subcards[1]
        chosen = self.pick_for(p, va, f"選擇當【{kind.name}】的牌")
        self.invoked(p, va.skill)
        if self.game.logging:
            self.game.log_skill(p, va.skill, f"{p.label()}發動【{self.game.shown_name(va.skill)}】" + (f"，扣置{len(chosen)}張牌" if va.face_down else ""))
        return tuple(chosen)

    def invoked(self, p: Player, skill_name: str) -> None:
        """A conversion of a skill is invoked: counted, and (國戰) its face-down general shown."""
        game = self.game
        game.fired[skill_name] = game.fired.get(skill_name, 0) + 1
        p.used[CONVERT_KEY + skill_name] = p.used.get(CONVERT_KEY + skill_name, 0) + 1  # times_used()
        if game.mode.hides_skills:
            skill = next((s for s in self.skills.skills_of(p) if s.key == skill_name), None)
            if skill is not None:
                game.mode.on_invoke(game, p, skill)

    def times_used(self, p: Player, skill_name: str) -> int:
        """How often p has used the skill (its actions and conversions) in p's play phase now."""
        from .turn import ACTIVE_KEY  # turn.py imports this module

        if self.game.current is not p or self.game.phase_now != "play":
            return 0  # the counts of p.used are of p's last play phase
        return p.used.get(ACTIVE_KEY + skill_name, 0) + p.used.get(CONVERT_KEY + skill_name, 0)

    def pick_for(self, p: Player, va: ViewAsDef, prompt: str) -> list[Card]:
        """The cards of a conversion, picked one by one, its rule across them kept."""
        chosen: list[Card] = []
        for _ in range(va.count):
            pool = [c for c in self.zones.zone_cards(p, va.zone) if va.matches(self.filters.seen_used(c, p)) and c not in chosen]
            pool = self.view_as_fitting(p, va, chosen, pool)
            chosen.append(self.game.ask(p, "pick_card", prompt, [Option(self.filters.seen(c, p).label(), c) for c in pool],
                                   va.skill).value)
        return chosen

    def target_ok(self, user: Player, rule: TargetRule | None, target: Player, card: UsedCard,
                  kind: CardKind | None = None, distance: bool = True, extra: dict[str, Any] | None = None) -> bool:
        return bool(self.targets_ok(user, rule, [target], card, kind, distance, extra))

    def targets_ok(self, user: Player, rule: TargetRule | None, candidates: list[Player], card: UsedCard,
                   kind: CardKind | None = None, distance: bool = True, extra: dict[str, Any] | None = None,
                   first: bool = False) -> list[Player]:
        """The candidates `user` may target with `card` under `rule`, in their order; with
        `first`, at most the first of them (a question only needs to know there is one). What
        holds for every candidate is worked out once: the rule's kind, the trick's distance
        limit (when a candidate needs it), the prohibits index, one context for the condition."""
        if rule is None:
            return []
        k = rule.kind
        kind = kind or card.kind
        delayed = kind.type == "delayed"
        reach = kind.distance if distance else None  # the trick's own distance limit, if it has one
        limit: int | None = None  # the trick's distance limit, once a candidate needs it
        lifted: bool | None = None  # `trick_distance = unlimited`, once a candidate is too far
        probe: UsedCard | None = None
        cond = rule.cond
        ctx: Ctx | None = None
        chosen: list[Player] = []
        for target in candidates:
            if not target.alive:
                continue
            if k == "self" and target is not user:
                continue
            if k in ("one_other", "all_others") and target is user:
                continue
            if k == "dying" and not target.dying:
                continue
            if delayed and any(self.turn.judged_kind(c) is kind for c in target.judge):
                continue
            if reach is not None and target is not user:
                if limit is None:
                    probe = card if card.kind is kind else UsedCard.virtual(kind)  # per pattern
                    limit = self.skills.modified(user, "trick_distance", reach, card=probe)
                if self.seats.distance(user, target) > limit:
                    if lifted is None:
                        lifted = self.unlimited(user, "trick_distance", probe)
                    if not lifted:
                        continue
            binding = self.game._forbid_binding  # the prohibits binding each seat (None: not built yet)
            if (binding is None or ("target", target.seat) in binding) and self.prohibits.forbidden(target, "target", card, user):
                continue
            if cond is not None:
                if ctx is None:
                    ctx = Ctx(self.game, {"user": user, "it": target, "card": card, "you": user, **(extra or {})})
                else:
                    ctx.vars["it"] = target
                if not cond(ctx):
                    continue
            chosen.append(target)
            if first:
                break
        return chosen

    def unlimited(self, p: Player, name: str, card: UsedCard | None = None, credit: bool = True,
                  target: Player | None = None) -> bool:
        """A modifier `name = unlimited` of p's skills applies (to this card, if it has a pattern;
        one with `where` only for a `target` that meets it); with `credit`, its skill shaped the
        choice being made."""
        for m in self.skills.modifiers(p, name):
            if m.matches is not None and (card is None or not m.matches(card)):
                continue
            if m.where is not None and (target is None or not m.where(Ctx(self.game, {"you": p, "it": target}))):
                continue
            if m.op == "=" and m.value(Ctx(self.game, {"you": p})) is None and (
                    m.cond is None or m.cond(Ctx(self.game, {"you": p}))):
                if credit:
                    self.skills.credit(m.skill)
                return True
        return False

    def legal_targets(self, user: Player, rule: TargetRule, card: UsedCard) -> list[Player]:
        return self.targets_ok(user, rule, self.seats.seat_order(user), card)

    def _limit_waiver(self, user: Player, card: UsedCard, targets: list[Player]) -> str | None:
        """The skill whose `modify limit(CARD) = unlimited where COND` every target of this
        play-phase use meets (the use is then not counted against the limit), or None."""
        if not targets or card.kind.limit is None or not self.skills.has_modifiers(user, "limit"):
            return None
        for m in self.skills.modifiers(user, "limit"):
            if m.where is not None and m.op == "=" and (m.matches is None or m.matches(card)) and (
                    m.cond is None or m.cond(Ctx(self.game, {"you": user}))) and all(
                    m.where(Ctx(self.game, {"you": user, "it": t})) for t in targets):
                return m.skill
        return None

    def kinds_judged_alike(self, p: Player) -> bool:
        """Whether can_play of p's real cards depends on nothing but their kind (when their
        kind's target rule is `card_free`), so one verdict per kind serves a play question:
        p's cards are read as printed (no filter), no prohibit binds p's uses or anyone's
        being targeted (those match the card), and p has no `range` or `trick_distance`
        modifier (whose patterns match it). Everything else can_play reads is the kind, the
        players and p's counts, which one question does not change. It is read off the
        tables of skills, so it is kept as long as they are (until changed_skills)."""
        alike = self.game._alike.get(p.seat)
        if alike is None:
            alike = self.game._alike[p.seat] = self._judged_alike(p)
        return alike

    def _judged_alike(self, p: Player) -> bool:
        game = self.game
        binding = self.prohibits.forbid_binding()
        if p.seat in self.filters.filter_table() or ("use", p.seat) in binding or any(
                ("target", t.seat) in binding for t in game.players):
            return False
        index = game._modifier_seats if game._modifier_seats is not None else self.skills._index_modifiers()
        return not any(p.seat in index.get(name, ()) for name in ALIKE_MODIFIERS)

    def over_limit(self, p: Player, kind: CardKind) -> bool:
        """p has used `kind` as often as the play phase allows: only a use on targets that a
        `modify limit(CARD) = unlimited where COND` waives it for is left."""
        limit = self.skills.use_limit(p, kind)
        return limit is not None and p.used.get(kind.rule_name, 0) >= limit

    def limit_waived(self, p: Player, card: UsedCard, target: Player) -> bool:
        """A use of the card on `target` is outside the play phase's limit (`where` holds)."""
        return self.skills.has_modifiers(p, "limit") and self.unlimited(p, "limit", card, credit=False, target=target)

    def can_play(self, p: Player, kind: CardKind, card: UsedCard, ignore_limit: bool = False) -> bool:
        mode = use_mode(kind, "play")
        if mode is None or self.prohibits.forbidden(p, "use", card, p):  # a prohibit on using it
            return False
        if not ignore_limit and self.over_limit(p, kind):
            if kind.is_equip or mode.target is None or not self.skills.has_modifiers(p, "limit"):
                return False
            return any(self.limit_waived(p, card, t) for t in self.targets_ok(p, mode.target, self.seats.seat_order(p), card))
        if kind.is_equip:
            return True
        if mode.target is not None and mode.target.kind == "self":  # target_ok refuses everyone else
            return self.target_ok(p, mode.target, p, card)
        return bool(self.targets_ok(p, mode.target, self.seats.seat_order(p), card, first=True))

    # ------------------------------------------------------------ using a card
    def choose_targets(self, user: Player, kind: CardKind, card: UsedCard, mode: UseMode,
                       forced: Player | None = None, play: bool = False) -> list[Player] | None:
        """Targets for a use that is really being made; the modifiers and forbids that
        shaped the candidates are credited as fired. `play`: a use in the play phase, under its
        limit: once the limit is reached only targets a `limit ... where` waives it for may be
        chosen, and a use on such targets alone credits the skill that waives it."""
        def choose() -> list[Player] | None:
            targets = self._choose_targets(user, kind, card, mode, forced, play and self.over_limit(user, kind))
            waiver = self._limit_waiver(user, card, targets) if play and targets else None
            if waiver is not None:
                self.skills.credit(waiver)
            return targets
        return self.skills.credited(choose)

    def play_targets(self, p: Player, kind: CardKind, card: UsedCard) -> list[Player]:
        """Whom a play-phase use of the card may target now (past its limit, only those a
        `limit ... where` waives it for)."""
        mode = use_mode(kind, "play")
        if mode is None or mode.target is None:
            return []
        targets = self.legal_targets(p, mode.target, card)
        return [t for t in targets if self.limit_waived(p, card, t)] if self.over_limit(p, kind) else targets

    def _choose_targets(self, user: Player, kind: CardKind, card: UsedCard, mode: UseMode,
                        forced: Player | None = None, waived_only: bool = False) -> list[Player] | None:
        rule = mode.target
        if kind.is_equip or rule is None:
            return [user]
        # the cards a converted card is made of no longer count for its distance and range
        self.game.set_aside = frozenset(c.uid for c in card.subcards if c.kind is not kind)
        try:
            return self._pick_targets(user, kind, card, rule, forced, waived_only)
        finally:
            self.game.set_aside = frozenset()

    def _pick_targets(self, user: Player, kind: CardKind, card: UsedCard, rule: TargetRule,
                      forced: Player | None, waived_only: bool = False) -> list[Player] | None:
        game = self.game
        if rule.kind in ("all", "all_others"):
            return self.legal_targets(user, rule, card)
        if forced is not None:
            return [forced] if self.target_ok(user, rule, forced, card, distance=False) else None
        candidates = self.legal_targets(user, rule, card)
        if waived_only:  # past the limit: only where a `limit ... where` waives it
            candidates = [p for p in candidates if self.limit_waived(user, card, p)]
        if not candidates:
            return None
        if rule.kind == "self":
            return [user]
        asker = card.label()  # a card's use asks for its targets
        chosen = [game.ask(user, "target", "選擇目標", [Option(p.label(), p) for p in candidates], asker).value]
        free = max(0, self.skills.extra_targets(user, card) + kind.targets - 1)
        conditioned, skills = self.where_slots(user, card)
        slots = [None] * free + conditioned
        hidden = self.hidden_slots(user, card)  # 國戰: a face-down general's extra targets, on offer
        while len(chosen) - 1 < len(slots) + sum(len(h) for _, h in hidden):
            offered = slots + [s for _, h in hidden for s in h]
            rest = [p for p in candidates if p not in chosen and fills(offered, [*chosen[1:], p], user, card, game)]
            if not rest:
                break
            options = [Option(p.label(), p) for p in rest] + [Option(DONE, None)]
            pick = game.ask(user, "target", "選擇額外的目標", options, asker).value
            if pick is None:
                break
            chosen.append(pick)
            while hidden and not fills(slots, chosen[1:], user, card, game):
                # the picks need a face-down skill: the first whose slots make them fit (else the
                # first in order, and on) has its general shown, and acts
                i = next((i for i, (_, more) in enumerate(hidden) if fills(slots + more, chosen[1:], user, card, game)), 0)
                skill, more = hidden.pop(i)
                game.mode.on_invoke(game, user, skill)
                slots = slots + more
                skills = [*skills, skill.key]
            if len(chosen) - 1 > free:  # a conditioned slot is taken: its skill shaped the use
                for name in skills:
                    self.skills.credit(name)
        return chosen

    def hidden_slots(self, user: Player, card: UsedCard) -> list[tuple[Skill, list[Fn | None]]]:
        """The extra targets the user's face-down generals' skills would give this card (國戰:
        a skill that is not locked may be used by showing its general, and picking the target
        it allows is that use), one entry per skill in the order of the user's skills: a free
        slot (None) per `modify targets(CARD) += N`, a condition per one with `where`."""
        if not self.game.mode.hides_skills or not self.prohibits.may_reveal(user):
            return []
        found = []
        for skill in self.skills.skills_of(user):
            if "locked" in skill.tags or not self.game.mode.hidden(user, skill):
                continue
            more = [slot for m in skill.modifiers if m.adds_targets for slot in self._target_slots(m, user, card) or ()]
            if more:
                found.append((skill, more))
        return found

    def where_slots(self, user: Player, card: UsedCard) -> tuple[list[Fn | None], list[str]]:
        """The extra targets of `modify targets(CARD) += N where COND`: one condition per
        target, and the skills that give them."""
        slots, skills = [], []
        for m in self.skills.modifiers(user, "targets"):
            if m.where is not None and (more := self._target_slots(m, user, card)) is not None:
                slots += more
                skills.append(m.skill)
        return slots, skills

    def _target_slots(self, m: ModifierDef, user: Player, card: UsedCard) -> list[Fn | None] | None:
        """The extra targets one `modify targets(CARD) += N [where COND]` gives this card: N
        slots, each its `where` condition (None: any target); None when the modifier does not
        apply (another card, its `when` false)."""
        if m.matches is not None and not m.matches(card):
            return None
        ctx = Ctx(self.game, {"you": user, "user": user, "card": card})
        if m.cond is not None and not m.cond(ctx):
            return None
        return [m.where] * max(0, m.value(ctx))

    def use_card(self, user: Player, card: UsedCard, targets: list[Player], context: str,
                 responded: Use | None = None, extra: dict[str, Any] | None = None,
                 counterable: bool = True) -> Use:
        """The whole process of using a card (使用), per DESIGN.md "Timing". `extra`: the
        players its `choose` clauses picked, by name."""
        game = self.game
        game.cards_used += 1
        game.budget.enter(card.kind.span)  # a runaway chain of uses names the card's text
        try:
            return self._use(user, card, targets, context, responded, extra or {}, counterable)
        finally:
            game.budget.depth -= CALL_LEVELS

    def _use(self, user: Player, card: UsedCard, targets: list[Player], context: str, responded: Use | None,
             extra: dict[str, Any], counterable: bool) -> Use:
        game = self.game
        if card.face_down:  # others may question it before it is used (質疑)
            revealed = self.questioning.question(user, card, targets)
            if revealed is None:
                return Use(card, user, list(targets), context, responded, void=True)
            card = revealed
        kind: CardKind = card.kind
        use = Use(card, user, list(targets), context, responded, uncounterable=not counterable)
        use.vars.update(extra)
        if game.logging:
            to_whom = "、".join(t.label() for t in self.in_resolve_order(targets))
            titles = {var: title for var, _, title in kind.choose}
            named = "".join(f"，{titles.get(var, var)}：{p.label()}" for var, p in extra.items() if isinstance(p, Player))
            game.log(f"{user.label()}使用{card.label()}" + (f"，目標：{to_whom}" if to_whom else "") + named)
        # a use on targets a `limit ... where` waives it for is not counted (不計入次數); the
        # waiving skill was credited as the targets were chosen
        if context == "play" and self._limit_waiver(user, card, targets) is None:
            user.used[kind.rule_name] = user.used.get(kind.rule_name, 0) + 1
            if kind.limit is not None and user.used[kind.rule_name] > kind.limit:
                for m in self.skills.modifiers(user, "limit"):
                    if m.where is None and (m.matches is None or m.matches(card)):
                        game.fired[m.skill] = game.fired.get(m.skill, 0) + 1
        user.turn_cards.append(kind.rule_name)
        if kind.is_equip:
            self.equip(user, card)
            return use
        if kind.type == "delayed":
            self._lay_delayed(use)
            return use
        self.zones.to_processing([c for c in card.subcards if c not in game.processing], "use")
        game.use_stack.append(use)
        try:
            self._resolve_use(use)
        finally:
            game.use_stack.pop()
            self.discard_leftovers(use)
        return use

    def discard_leftovers(self, use: Use) -> None:
        """When a use ends, its cards and the cards text revealed during it that are still in
        the processing area go to the discard pile."""
        leftovers = [c for c in use.card.subcards if c in self.game.processing] + [
            c for c in use.revealed if c in self.game.processing]
        if leftovers:
            self.zones.to_discard(leftovers)

    def _lay_delayed(self, use: Use) -> None:
        """A delayed trick lies in its target's judge area from the moment it is used; then the
        use and target windows open as for any card (timing.md "Using a card"). Left without a
        target it goes to the discard pile (seed 001 Q&A 4); moved to another target, it moves
        to that player's judge area."""
        game = self.game
        kind, target = use.card.kind, use.targets[0]
        for c in use.card.subcards:
            self.zones.place(c, "judge", target, reason="use")
            if c.kind is not kind:  # a converted card lies there as the trick it was used as
                game.judge_as[c.uid] = kind
        game.use_stack.append(use)
        try:
            self._target_windows(use, self._use_vars(use))
        finally:
            game.use_stack.pop()
            self.discard_leftovers(use)  # cards text revealed in those windows (its own lie in the judge area)
        lying = [c for c in use.card.subcards if self.zones.zone_of(c) == ("judge", target)]
        if lying and not use.targets:
            self.zones.to_discard(lying)
        elif lying and use.targets[0] is not target:
            self.moves.move_cards(lying, "judge", use.targets[0], "use")

    @staticmethod
    def _use_vars(use: Use) -> dict[str, Any]:
        # the card it answers, for every block and window (a counter's `prepare` reads it)
        return {"use": use, "card": use.card, "user": use.user, "responded": use.responded}

    def _target_windows(self, use: Use, base: dict[str, Any]) -> None:
        game = self.game
        if not game.tracing and TARGETING.isdisjoint(game._listeners if game._listeners is not None else self.triggers.listeners()):
            game.windows_opened += 1 + 4 * len(use.targets)  # none of them heard: each counted as opened
            return
        if not self.triggers.skip_window("using"):
            self.triggers.open_window("using", {**base, "target": None})
        for window in ("specifying", "targeted", "after_specify", "after_targeted"):
            for t in list(use.targets):
                # not cancelled nor redirected away by an earlier window
                if t in use.targets and not self.triggers.skip_window(window):
                    self.triggers.open_window(window, {**base, "target": t})

    def _resolve_use(self, use: Use) -> None:
        kind = use.card.kind
        base = self._use_vars(use)
        self._target_windows(use, base)
        if use.responded is None and not use.targets:
            return
        if kind.choose and not all(var in use.vars for var, _, _ in kind.choose):
            chosen = self.turn.choose_extra(use.user, use.card, use.targets)
            if chosen is None:
                return
            use.vars.update(chosen)
        prepare = kind.blocks.get("prepare")
        if prepare is not None:
            self.hp.run_block(prepare, Ctx(self.game, {**base, "target": None}), use.card.label())
        order = self.in_resolve_order(use.targets) if use.targets else [None]
        for target in order:
            if target is not None and not target.alive:
                continue
            self.resolve_for_target(use, target, base)
        finish = kind.blocks.get("finish")
        if finish is not None:
            self.hp.run_block(finish, Ctx(self.game, {**base, "target": None}), use.card.label())
        self.triggers.open_window("use_end", {**base, "target": None})

    def in_resolve_order(self, targets: list[Player]) -> list[Player]:
        """Targets in the order they resolve: in seat order from the current player (a player
        chosen twice resolves twice)."""
        game = self.game
        n, place = len(game.players), game.place_of
        start = place[game.current.seat]
        return sorted(targets, key=lambda p: (place[p.seat] - start) % n)

    def resolve_for_target(self, use: Use, target: Player | None, base: dict[str, Any]) -> None:
        game = self.game
        kind = use.card.kind
        use.current = target
        key = use.key(target)
        variables = {**base, "target": target, "responded": use.responded}
        ctx = Ctx(game, variables)
        self.triggers.open_window("effect_start", variables)
        if key in use.invalid:
            game.log(f"{use.card.label()}{on_whom(use, target)}無效")
            return
        # 生效前: its triggers, then the responses (the card's `respond` block, then the
        # cards that counter it, polled in seat order)
        self.triggers.open_window("before_effect", variables)
        respond = kind.blocks.get("respond")
        if respond is not None and key not in use.cancelled:
            self.hp.run_block(respond, ctx, use.card.label())
        if key not in use.cancelled:
            self.poll_counters(use)
        if key in use.cancelled:
            game.log(f"{use.card.label()}{on_whom(use, target)}的效果被抵消")
            self.triggers.open_window("cancelled", variables)
            if key in use.cancelled:
                nullified = kind.blocks.get("nullified")
                if nullified is not None:
                    self.hp.run_block(nullified, ctx, use.card.label())
                return
        if target is not None and not target.alive:
            return
        self.triggers.open_window("on_effect", variables)
        effect = kind.blocks.get("effect")
        if effect is not None:
            self.hp.run_block(effect, ctx, use.card.label())
        self.triggers.open_window("effect_end", variables)

    def poll_counters(self, use: Use) -> None:
        """Before a card takes effect, players in seat order may use a card that counters it
        (a `use counter` card), which may itself be countered. While the card still stands,
        the asking goes round again, until a whole round passes with no counter."""
        if use.uncounterable or not any(counters(k, use.card) for k in self.game.counter_kinds):
            return
        key = use.key(use.current)
        while key not in use.cancelled:
            if not self._counter_round(use):
                return

    def _counter_round(self, use: Use) -> bool:
        """One round of asking in seat order; True when someone used a counter."""
        question = f"是否抵消其對{use.current.label()}的效果？" if use.current else "是否抵消其效果？"
        may_counter = self._may_counter()  # the tables it reads are the round's: a counter used ends it
        for p in self.seats.seat_order():
            if not may_counter(p):
                continue
            options = [Option(f"使用{label}", (kind, subcards))
                       for label, kind, subcards in self.castable(p, "counter")
                       if counters(kind, use.card)]
            if not options:
                continue
            options.append(Option("不使用", None))
            choice = self.game.ask(p, "counter", question, options, use.card.label()).value
            if choice is None:
                continue
            kind, subcards = choice
            if not self.use_card(p, self.produce(p, kind, subcards), [], "counter", responded=use).void:
                return True  # a void counter (質疑) leaves the others still to be asked
        return False

    def _may_counter(self) -> Callable[[Player], bool]:
        """A test of whether castable(p, "counter") may yield something, for the players of one
        round of asking (the tables are read once). In castable's usual case (no prohibit about
        using or answering, p's cards read as printed) that needs a hand card of a kind with a
        counter use or a skill with a conversion, so p, holding neither, is not asked."""
        if self.prohibits.may_forbid("counter"):
            return lambda p: True  # castable's slow path decides
        filtered = self.filters.filter_table()
        converts = self.game._converts
        usable = self.usable_kinds("counter")

        def may_counter(p: Player) -> bool:
            if p.seat in filtered:
                return True  # castable's slow path decides
            converting = converts.get(p.seat)
            if converting is None:  # all of p's skills: a superset of those on offer now
                converting = converts[p.seat] = any(s.view_as for s in self.skills.skills_of(p, suppressed=True))
            return converting or any(c.kind in usable for c in p.hand)
        return may_counter

    def equip(self, user: Player, card: UsedCard) -> None:
        game = self.game
        real = card.subcards[0]
        slot = real.kind.type
        old = user.equips.get(slot)
        if old is not None:
            game.log(f"{old.label()}被替換，置入棄牌堆")
            self.zones.to_discard([old])
        self.zones.place(real, "equip", user, reason="use")  # the move tells the tables of skills (changed_skills)
        if game.logging:
            game.log(f"{user.label()}裝備{real.label()}（{SLOT_ZH[slot]}）")

    def pass_on(self, card: Card) -> None:
        """A delayed trick moves to the next player who can take it (閃電's rule, as text)."""
        game = self.game
        zone, owner = self.zones.zone_of(card)
        holder = owner if owner is not None else game.judged_player
        if holder is None:
            raise RulesError(f"pass_on: {card.label()} is in no one's judge area and no one is being judged")
        p = holder
        for _ in range(len(game.players)):
            p = self.seats.next_alive(p)
            if p is holder:
                break
            if not any(self.turn.judged_kind(c) is self.turn.judged_kind(card) for c in p.judge) and not self.prohibits.forbidden(
                    p, "target", UsedCard.of(card), holder):  # nor one it may not target
                self.zones.place(card, "judge", p)
                if game.logging:
                    game.log(f"{self.turn.face(card)}移至{p.label()}的判定區")
                return
        if zone != "judge":
            self.zones.place(card, "judge", holder)
            if game.logging:
                game.log(f"{self.turn.face(card)}留在{holder.label()}的判定區")

    # ------------------------------------------------------------ asking for a card
    def ask_for(self, player: Player, kind_name: str, pattern: Pattern | None, mode: str,
                on: Player | None = None) -> bool:
        """Ask `player` to use (mode "use") or play out (mode "play") a card matching pattern.
        Skills on the `asked` window may provide the card first (八卦陣-like effects)."""
        game = self.game
        if not player.alive:
            return False
        kind = game.kind_named(kind_name)
        asked = Asked(player, UsedCard.virtual(kind), pattern, mode)
        responded = game.use_stack[-1] if game.use_stack else None
        if on is None and responded is not None and player.seat in responded.no_response:
            game.log(f"{player.label()}不能響應{responded.card.label()}")
            return False
        if on is None:
            self.triggers.open_window("asked", {"asked": asked, "use": responded, "target": player})
            if asked.provided is not None:
                return self._answer(player, asked.provided, mode, responded, None)
        context = "play_response" if mode == "play" else ("play" if on is not None else "respond")
        options = []
        for label, k, subcards in self.castable(player, context if context != "play" else "play", pattern):
            options.append(Option(("使用" if mode == "use" else "打出") + label, (k, subcards)))
        if on is not None:
            options = [o for o in options if self._usable_on(player, o.value[0], on)]
        if not options:
            return False
        options.append(Option("不" + ("使用" if mode == "use" else "打出"), None))
        verb = "使用" if mode == "use" else "打出"
        choice = game.ask(player, "respond", f"是否{verb}【{kind.name}】？", options).value
        if choice is None:
            return False
        k, subcards = choice
        return self._answer(player, self.produce(player, k, subcards), mode, responded, on)

    def _usable_on(self, player: Player, kind: CardKind, on: Player) -> bool:
        # A use asked for by a card's text is outside the play-phase limit; the asking text
        # already chose the target, so only its life and the card's own kind matter.
        mode = kind.mode("play")
        return (mode is not None and mode.target is not None and on.alive and on is not player
                and not self.prohibits.forbidden(on, "target", UsedCard.virtual(kind), player))

    def _answer(self, player: Player, card: UsedCard, mode: str, responded: Use | None,
                on: Player | None) -> bool:
        game = self.game
        if mode == "play":
            if card.face_down:
                shown = self.questioning.question(player, card, verb="play")
                if shown is None:  # void: as if nothing was played
                    return False
                card = shown
            player.turn_cards.append(card.kind.rule_name)
            if game.logging:
                game.log(f"{player.label()}打出{card.label()}")
            self.zones.to_processing([c for c in card.subcards if c not in game.processing], "play")
            self.triggers.open_window("played", {"card": card, "user": player, "responded": responded})
            leftovers = [c for c in card.subcards if c in game.processing]
            self.zones.to_discard(leftovers)
            return True
        if on is not None:
            return not self.use_card(player, card, [on], "respond").void
        return not self.use_card(player, card, [], "respond", responded=responded).void

    # a card another player provides is that real card
    def provide_card(self, provider: Player, kind_name: str, pattern: Pattern | None, beneficiary: Player) -> UsedCard | None:
        """The provider plays out (打出) a matching card on the beneficiary's behalf; the real
        card stays in the processing area, for the beneficiary to use or play (None: refused)."""
        game = self.game
        if not provider.alive:
            return None
        kind = game.kind_named(kind_name)
        asked = Asked(provider, UsedCard.virtual(kind), pattern, "play")
        self.triggers.open_window("asked", {"asked": asked, "use": game.use_stack[-1] if game.use_stack else None,
                                   "target": provider})
        if asked.provided is not None:  # the provider's own skills gave it (八卦陣)
            return asked.provided
        options = [Option("打出" + label, (k, subcards))
                   for label, k, subcards in self.castable(provider, "play_response", pattern)]
        if not options:
            return None
        options.append(Option("不打出", None))
        choice = game.ask(provider, "respond", f"是否為{beneficiary.label()}打出【{kind_name}】？", options,
                          for_seat=beneficiary.seat).value
        if choice is None:
            return None
        k, subcards = choice
        card = self.produce(provider, k, subcards)
        if card.face_down:
            shown = self.questioning.question(provider, card, verb="play")
            if shown is None:
                return None
            card = shown
        provider.turn_cards.append(card.kind.rule_name)
        if game.logging:
            game.log(f"{provider.label()}打出{card.label()}")
        self.zones.to_processing(card.subcards, "play")
        self.triggers.open_window("played", {"card": card, "user": provider,
                                    "responded": game.use_stack[-1] if game.use_stack else None})
        return card if all(c in game.processing for c in card.subcards) else None


def on_whom(use: Use, target: Player | None) -> str:
    """`對WHOM` for a log line about a use: its target, or the card it answers; "" for neither."""
    if target is not None:
        return f"對{target.label()}"
    return f"對{use.responded.card.label()}" if use.responded is not None else ""


def fills(slots: list[Fn | None], picks: list[Player], user: Player, card: UsedCard, game: Game) -> bool:
    """The extra picks can each take a slot of their own: a free one (None) or one whose
    condition they meet. Tried in every way, so the order of picking does not matter."""
    if not picks:
        return True
    first, rest = picks[0], picks[1:]
    tried: set[int] = set()  # slots of one condition are alike: each is tried once
    for i, cond in enumerate(slots):
        if id(cond) in tried:
            continue
        tried.add(id(cond))
        if cond is None or cond(Ctx(game, {"you": user, "user": user, "card": card, "it": first})):
            if fills(slots[:i] + slots[i + 1:], rest, user, card, game):
                return True
    return False
