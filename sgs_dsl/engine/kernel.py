"""The engine kernel: `Game`, one table. It knows no card by name: what a card does comes
from its compiled text (`CardKind`), and what a mode adds (roles, rewards, victory) comes
from the mode object. This module holds the core (questions, seats and distance, skills,
modifiers and windows); the processes live in one module each and join `Game` as mixins:
zones.py (moves), hp.py (damage, recovery, dying, death, judgement), using.py (using and
answering cards), choices.py (what skills ask for) and turn.py (the turn and its phases)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..core.defs import CardKind, Ctx, Skill, TriggerDef
from ..core.model import (
    MAX_DEPTH,
    PHASE_ZH,
    Budget,
    Card,
    Damage,
    Move,
    Player,
    RulesError,
    Use,
    UsedCard,
)
from ..core.windows import WINDOW_BY_ID
from .attached import AttachedMixin  # actions for others
from .bound_modifiers import Bound, bound_modifiers, index_bound  # modifiers for others
from .choices import ChoicesMixin
from .damage_rules import DamageRulesMixin
from .decisions import Option, Request
from .extra_turns import ExtraTurnsMixin
from .filters import FiltersMixin
from .game_start import GameStartMixin
from .history import History
from .hp import HpMixin
from .labelled import LabelledMixin
from .moves import MovesMixin
from .pindian import PointFight, PointFightMixin
from .prohibits import ProhibitsMixin
from .questioning import QuestioningMixin
from .state import StateMixin
from .turn import ACTIVE_KEY, END_PLAY, MAX_ACTIONS_PER_PHASE, TurnMixin
from .using import ALIKE_MODIFIERS, EQUIP_USE, UsingMixin, use_mode
from .view import SeatView
from .zones import FROM_DECK, ZonesMixin, where, zone_zh

INVOKE, NOT_INVOKE = "發動", "不發動"  # the answers to an optional skill's question

__all__ = ["ACTIVE_KEY", "END_PLAY", "EQUIP_USE", "FROM_DECK", "MAX_ACTIONS_PER_PHASE", "MAX_DEPTH",
           "Game", "use_mode", "where", "zone_zh"]


class Game(QuestioningMixin, GameStartMixin, AttachedMixin, FiltersMixin, ProhibitsMixin, LabelledMixin, ExtraTurnsMixin, PointFightMixin, DamageRulesMixin, StateMixin, MovesMixin, ZonesMixin, HpMixin, UsingMixin, ChoicesMixin, TurnMixin):
    """One table: state, the seeded RNG, the agents, and the processes."""

    def __init__(self, library: Any, players: list[Player], deck: list[Card], agents: list[Any],
                 mode: Any, seed: int, log: bool = True):
        self.library = library
        self.players = players
        # the table's order (交換位置 changes it): the players as seated, and each seat's place;
        # a seat number names its player for the whole game
        self.table: list[Player] = list(players)
        self.place_of: list[int] = list(range(len(players)))
        self.deck = deck  # top of the deck is the end of the list
        self.discard_pile: list[Card] = []
        self.processing: list[Card] = []
        self.agents = agents
        self.mode = mode
        ruleset = getattr(mode, "ruleset", None)  # the cards it plays under another definition (`variants`)
        self._variants: dict[str, Any] = ruleset.options.get("variants", {}) if ruleset is not None else {}
        if not mode.hides_skills:  # nothing face down: every skill is in effect and on offer (a hot path)
            self.effective_skills = self.offered_skills = self.skills_of
        self.rng = random.Random(seed)
        self.logging = log
        self.tracing = False  # rulings: also windows, moves, questions and answers
        self.lines: list[str] = []
        self.hidden_lines: dict[int, tuple[frozenset[int], str]] = {}  # line -> who may read it, what others read
        self.current: Player = players[0]
        self.turns = 0
        self.windows_opened = 0
        # bumped when what a mode keeps of the seats may have changed (the skills in play: a
        # general shown, hidden or removed; a kingdom or hero text changed): the free-time
        # invariants ask the mode about its own state only then (invariants.py)
        self.seats_version = 0
        self.use_stack: list[Use] = []
        self.budget = Budget()  # what the text may still spend: steps, nesting, time
        self.all_cards: list[Card] = list(deck)
        self._listeners: dict[str, list[tuple[Player, Skill, TriggerDef]]] | None = None
        self.counter_kinds: tuple[CardKind, ...] = tuple(k for k in library.cards.values() if k.mode("counter"))
        self.fired: dict[str, int] = {}
        self.damage_log: list[Damage] = []  # every damage dealt, in order (rulings check it)
        self.recover_log: list[tuple[Player | None, Player, int]] = []  # every recovery: source, who, hp gained
        self.skipped_log: list[tuple[Player, str]] = []  # every phase skipped: whose, which
        # turns, phases and point fights
        self.extra_turns: list[Player] = []  # granted, not yet played: first granted first
        self.extra_phases: list[tuple[Player, str]] = []  # to run after the current phase
        self.turn_log: list[Player] = []  # whose turn each turn played was (rulings check it)
        self.phase_log: list[tuple[Player, str]] = []  # every phase run: whose, which
        self.fight_log: list[PointFight] = []  # every point fight, in order
        self.judged_player: Player | None = None  # whose delayed trick is being judged
        self.block_endings: list[list[Callable[[], None]]] = []  # per running block: what ends with it
        self.crediting: set[str] | None = None  # skills that shaped the choice being made
        self.judge_as: dict[int, CardKind] = {}  # judge-area cards used as another trick
        self._rules: tuple[Skill, ...] | None = None
        self._skills: dict[int, list[Skill]] = {}  # seat -> skills, until changed_skills()
        self._modifier_seats: dict[str, frozenset[int]] | None = None
        self._deck_kinds: frozenset[CardKind] | None = None
        self._alike: dict[int, bool] = {}  # seat -> kinds_judged_alike, until changed_skills()
        self._weapon_ranges: dict[int, tuple[list[Skill], int]] = {}  # seat -> (its skills, treated_weapon_range)
        self._converts: dict[int, bool] = {}  # seat -> a skill of p's has a conversion (_may_counter)
        self._usable: dict[str, frozenset[CardKind]] = {}  # context -> the deck's kinds with a use in it
        self._probes: dict[int, UsedCard] = {}  # uid -> the card as printed, for legality checks (probe)
        self._va_kinds: dict[tuple[int, str], tuple[Any, list[CardKind]]] = {}  # (id of a conversion, context) -> it, its kinds
        self._bound: Bound = {}  # modifiers with a subject, by name and bound seat (with the index)
        self.set_aside: frozenset[int] = frozenset()  # equipped cards being converted right now
        self.asker = ""  # the skill or card whose text is running: it asks the text's questions
        self.departed: Player | None = None  # the dead player whose 死亡時 is open
        # moves are recorded when text of this game may ask about them
        self.history = History(on=library.queries_history(getattr(mode, "ruleset", None)) or any(
            s.name in library.history_skills for p in players for s in p.skills))  # a ruling seats any hero

    # ------------------------------------------------------------ log and questions
    def log(self, text: str) -> None:
        if self.logging:
            self.lines.append(text)

    def log_hidden(self, text: str, public: str, seats: frozenset[int]) -> None:
        """A line that names what only `seats` may see: the others read `public` (SeatView.log_lines;
        "" when the others see nothing happen)."""
        if self.logging:
            self.hidden_lines[len(self.lines)] = (seats, public)
            self.lines.append(text)

    def log_skill(self, player: Player, skill: Skill | str, text: str) -> None:
        """A line that names a skill of the player's: while no face-up general of theirs gives
        it (國戰), only the player reads it; the others see nothing happen."""
        if not self.logging:
            return
        if self.mode.hides_skills:
            found = self.library.skills.get(skill) if isinstance(skill, str) else skill
            if found is not None and self.mode.hidden(player, found):
                self.log_hidden(text, "", frozenset({player.seat}))
                return
        self.lines.append(text)

    def trace(self, text: str) -> None:
        """A line of a ruling's trace (windows, moves, questions and answers): the whole
        table's, so no seat reads it (SeatView.log_lines gives "")."""
        self.hidden_lines[len(self.lines)] = (frozenset(), "")
        self.lines.append(text)

    def ask(self, player: Player, kind: str, prompt: str, options: list[Option], asker: str | None = None,
            for_seat: int | None = None) -> Option:
        """Put one question to a player's agent; the answer is one of the options. The prompt
        is shown as `ASKER：QUESTION`: `asker` names the rule asking (a phase, a card being
        used); when left out, the skill or card whose text is running asks. `for_seat`: the
        player the answer is for, when it is not the one asked."""
        asker = self.asker if asker is None else asker
        if asker:
            prompt = f"{asker}：{prompt}"
        if len(options) == 1 and kind != "invoke":
            forced = getattr(self.agents[player.seat], "forced", None)
            if forced is not None:  # an agent may want to see the choices made for it
                forced(Request(player.seat, kind, prompt, tuple(options), asker, for_seat))
            if self.tracing:
                self.trace(f"  〔唯一選項〕{player.label()}：{prompt} → {options[0].label}")
            return options[0]
        request = Request(player.seat, kind, prompt, tuple(options), asker, for_seat)
        index = self.agents[player.seat].choose(request, SeatView(self, player.seat))
        if not 0 <= index < len(options):
            raise RulesError(f"agent of seat {player.seat + 1} answered {index} to a {len(options)}-option question")
        if self.tracing:
            labels = "／".join(o.label for o in options)
            self.trace(f"  〔詢問〕{player.label()}：{prompt}［{labels}］→ {options[index].label}")
        return options[index]

    def confirm(self, player: Player, prompt: str, yes: str, no: str, asker: str | None = None) -> bool:
        """A question with two answers, each labelled by what it does (never a bare 是／否)."""
        return self.ask(player, "invoke", prompt, [Option(yes, True), Option(no, False)], asker).value

    # ------------------------------------------------------------ seats and distance
    def alive(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def seat_order(self, start: Player | None = None) -> list[Player]:
        """Living players in seat order from `start` (default: the current player)."""
        place = self.place_of[(start or self.current).seat]
        table = self.table
        return [p for p in table[place:] + table[:place] if p.alive]

    def next_alive(self, player: Player) -> Player:
        n = len(self.table)
        place = self.place_of[player.seat]
        for i in range(1, n + 1):
            p = self.table[(place + i) % n]
            if p.alive:
                return p
        return player

    def kind_named(self, name: str) -> CardKind:
        """The card a text names (a conversion, a virtual use), as this game plays it: the
        ruleset's variant of it when it has one (`variants`), else the library's card."""
        return self._variants.get(name) or self.library.cards[name]

    def distance(self, a: Player, b: Player) -> int:
        if a is b:
            return 0
        if not (a.alive and b.alive):
            return 99
        living = [p for p in self.table if p.alive]
        i, j = living.index(a), living.index(b)
        steps = abs(i - j)
        base = min(steps, len(living) - steps)
        index = self._modifier_seats if self._modifier_seats is not None else self._index_modifiers()
        if b.seat not in index.get("distance_from", ()) and a.seat not in index.get("distance_to", ()):
            return max(1, base)  # no modifier of either: the seats alone (as the parts below would give)
        set_to: list[int] = []  # `modify distance_to = N`: the distance is N, whatever else counts
        base += self._distance_part(b, "distance_from", a, set_to) + self._distance_part(a, "distance_to", b, set_to)
        return max(1, min(set_to) if set_to else base)

    def _distance_part(self, p: Player, name: str, other: Player, set_to: list[int]) -> int:
        """p's `name` modifiers toward `other` (their `player`): the sum of the += and -= ones;
        the values of the applying `=` ones go to `set_to`."""
        total = 0
        for m in self.modifiers(p, name):
            ctx = Ctx(self, {"player": other, "you": p})  # a bound modifier rebinds `player`
            if m.cond is None or m.cond(ctx):
                value = m.value(ctx)
                if m.op == "=":
                    set_to.append(value)
                else:
                    total += -value if m.op == "-=" else value
                if value or m.op == "=":
                    self.credit(m.skill)
        return total

    def attack_range(self, p: Player) -> int:
        weapon = p.equips.get("weapon")
        if weapon is None:
            base = self.treated_weapon_range(p)
        else:  # a weapon set aside gives no range
            base = 1 if weapon.uid in self.set_aside else weapon.kind.range
        if not self.has_modifiers(p, "attack_range"):
            return max(0, base)
        return max(0, self.modified(p, "attack_range", base))

    def treated_weapon_range(self, p: Player) -> int:
        """With the weapon slot empty, a weapon p is treated as equipped with (`equipped`)
        gives its range: its skill is then the only one of p's with the weapon slot. Kept with
        the list of skills it was read from (a new list after any change of skills)."""
        skills = self.effective_skills(p)
        known = self._weapon_ranges.get(p.seat)
        if known is not None and known[0] is skills:
            return known[1]
        reach = next((self.library.cards[s.from_card].range for s in skills if s.slot == "weapon" and s.from_card), 1)
        self._weapon_ranges[p.seat] = (skills, reach)
        return reach

    def in_range(self, a: Player, b: Player, card: Any = None) -> bool:
        """b is within a's attack range; for a card a is choosing targets for, a
        `modify range(PATTERN) = unlimited` of a's that fits it lifts the range."""
        if a is b or not b.alive:
            return False
        return (card is not None and self.has_modifiers(a, "range") and self.unlimited(a, "range", card)) or (
            self.distance(a, b) <= self.attack_range(a))

    # ------------------------------------------------------------ skills, modifiers, windows
    def skills_of(self, p: Player, suppressed: bool = False) -> list[Skill]:
        """Hero skills, then the skills of equipped cards; an ignored armour's skill only
        when `suppressed` is asked for (the window index holds it, and checks at firing)."""
        skills = self._skills.get(p.seat)
        if skills is None:  # rebuilt after changed_skills(): equipment moved, a player died
            skills = [s for s in p.skills if self.mode.has_skill(p, s)]  # 主公技: the mode says
            if p.skills_off:  # 技能失效, the hero skills lose effect
                skills = []
            skills += [c.kind.skill for c in p.equips.values() if c.kind.skill is not None]
            if any(s.equipped for s in skills):  # treated as equipped
                skills += self.treated_equipment(p, skills)
            skills += self.rule_skills()
            self._skills[p.seat] = skills
        if suppressed or not self.use_stack or "armor" not in p.equips or not self.armor_ignored(p):
            return skills
        return [s for s in skills if s.slot != "armor"]

    def effective_skills(self, p: Player, suppressed: bool = False) -> list[Skill]:
        """The skills in effect: `skills_of` without a face-down general's skills, which wait
        to be invoked (國戰); their modifiers, prohibits and filters do not act meanwhile."""
        skills = self.skills_of(p, suppressed)
        if not self.mode.hides_skills:
            return skills
        return [s for s in skills if not self.mode.hidden(p, s)]

    def offered_skills(self, p: Player) -> list[Skill]:
        """The skills p may invoke now: a face-down general's only while p may show a general
        (a `forbid reveal` binds no one)."""
        skills = self.skills_of(p)
        if not self.mode.hides_skills or self.may_reveal(p):
            return skills
        return [s for s in skills if not self.mode.hidden(p, s)]

    def rule_skills(self) -> tuple[Skill, ...]:
        """The rules that cards of this game's deck add for everyone (酒's next-殺 bonus)."""
        if self._rules is None:
            kinds = {c.kind for c in self.all_cards}
            self._rules = tuple(k.skill for k in sorted(kinds, key=lambda k: k.name)
                                if k.skill is not None and k.skill.rule)
        return self._rules

    def deck_kinds(self) -> frozenset[CardKind]:
        """The kinds of card this game is played with (its deck)."""
        if self._deck_kinds is None:
            self._deck_kinds = frozenset(c.kind for c in self.all_cards)
        return self._deck_kinds

    def armor_ignored(self, p: Player) -> bool:
        return any(p.seat in u.armor_off for u in self.use_stack)

    def modifiers(self, p: Player, name: str):
        """p's modifiers called `name`; () at once when none of p's skills has one (the usual case)."""
        if not self.has_modifiers(p, name):
            return ()
        return self._modifiers(p, name)

    def has_modifiers(self, p: Player, name: str) -> bool:
        """Some skill in play may give p a modifier called `name` (by the index of seats)."""
        index = self._modifier_seats
        if index is None:
            index = self._index_modifiers()
        return p.seat in index.get(name, ())

    def _index_modifiers(self) -> dict[str, frozenset[int]]:
        """Which seats have a modifier of each name, until changed_skills()."""
        seats: dict[str, set[int]] = {}
        for p in self.players:
            for skill in self.effective_skills(p, suppressed=True):
                for m in skill.modifiers:
                    if m.subject == "you":
                        seats.setdefault(m.name, set()).add(p.seat)
        self._bound = index_bound(self, seats)  # `for others` / `for all`: the seats they bind
        self._modifier_seats = {name: frozenset(s) for name, s in seats.items()}
        return self._modifier_seats

    def _modifiers(self, p: Player, name: str):
        aside = {self.equip_skill_uid(p, s) for s in self.skills_of(p)} & self.set_aside if self.set_aside else ()
        stacks = self.mode.hides_skills  # one skill on both generals acts twice (seed 001 Q&A 11)
        for skill in self.effective_skills(p):
            if aside and self.equip_skill_uid(p, skill) in aside:
                continue
            for m in skill.modifiers:
                if m.name == name and m.subject == "you":
                    for _ in range(self.mode.copies(p, skill) if stacks else 1):
                        yield m
        yield from bound_modifiers(self, self._bound, p, name)

    @staticmethod
    def equip_skill_uid(p: Player, skill: Skill) -> int:
        """The uid of the equipped card that grants `skill` (-1 for a hero skill)."""
        card = p.equips.get(skill.slot) if skill.slot else None
        return card.uid if card is not None and card.kind.skill is skill else -1

    def modified(self, p: Player, name: str, base: int, ctx_vars: dict | None = None, card: Any = None,
                 credit: bool = True, mods: Any = None) -> int:
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
            ctx = Ctx(self, {"you": p, **(ctx_vars or {})})
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

    def credited(self, read: Callable[[], Any]) -> Any:
        """Make a read the rules act on (the targets of a real use, a judgement's result): the
        modifiers, prohibits and filters it consulted are counted as fired, once each."""
        outer, self.crediting = self.crediting, set()
        try:
            return read()
        finally:
            for skill in sorted(self.crediting):
                self.fired[skill] = self.fired.get(skill, 0) + 1
            self.crediting = outer

    def credit(self, skill: str) -> None:
        """While a real choice is being made (`crediting`), note the modifiers and forbids
        that shaped it: the statistics count them as fired once per choice."""
        if self.crediting is not None and skill:
            self.crediting.add(skill)

    def use_limit(self, p: Player, kind: CardKind) -> int | None:
        """How often `kind` may be used this play phase (None: no limit)."""
        if kind.limit is None:
            return None
        if not self.has_modifiers(p, "limit"):
            return kind.limit
        probe = UsedCard.virtual(kind)
        if self.unlimited(p, "limit", probe, credit=False):
            return None  # lifted (咆哮); a use beyond the card's own limit credits it (using.py)
        return self.modified(p, "limit", kind.limit, card=probe, credit=False)

    def extra_targets(self, p: Player, card: UsedCard) -> int:
        """The targets a card may have beyond its own (`modify targets(CARD) ...` without `where`)."""
        plain = [m for m in self.modifiers(p, "targets") if m.where is None]  # `where`: using.py
        return self.modified(p, "targets", 0, {"user": p, "card": card}, card, credit=False, mods=plain) if plain else 0

    def listeners(self) -> dict[str, list[tuple[Player, Skill, TriggerDef]]]:
        if self._listeners is None:
            table: dict[str, list[tuple[Player, Skill, TriggerDef]]] = {}
            for p in self.players:
                if not p.alive:
                    continue
                for skill in self.skills_of(p, suppressed=True):
                    for window, triggers in skill.triggers.items():
                        for t in triggers:
                            table.setdefault(window, []).append((p, skill, t))
            self._listeners = table
        return self._listeners

    def changed_skills(self) -> None:
        self.table_version += 1  # `modify survive` may hold or not now (invariants.py)
        self.seats_version += 1
        self._listeners = None
        self._modifier_seats = None  # which seats have modifiers of each name
        self._forbid_table = self._forbid_binding = None  # the prohibits in play
        self._filter_table = None  # the filters in play
        self._skills.clear()
        self._alike.clear()  # kinds_judged_alike, read off the tables above
        self._converts.clear()
        self._attach_live = None

    def changed_equipment(self, p: Player) -> None:
        """p's equipment changed: p's skills are worked out again, and only the tables that the
        skills gained or lost feed are rebuilt (a horse moving leaves the listeners as they were,
        a weapon the modifiers and prohibits). Each table is a function of the skills in play,
        so one the changed skills add nothing to stays right."""
        old = self._skills.pop(p.seat, None)
        if old is None:  # p's skills were not worked out since the last change: nothing to compare
            self.changed_skills()
            return
        self.table_version += 1
        new = self.skills_of(p, suppressed=True)
        kept = {id(s) for s in old} & {id(s) for s in new}
        changed = [s for s in (*old, *new) if id(s) not in kept]
        if not changed:
            return
        if any(s.triggers for s in changed):
            self._listeners = None
        if any(s.modifiers for s in changed):
            self._modifier_seats = None
        if any(s.forbids for s in changed):
            self._forbid_table = self._forbid_binding = None
        if any(s.filters for s in changed):
            self._filter_table = None
        if any(s.forbids or s.filters or any(m.name in ALIKE_MODIFIERS for m in s.modifiers) for s in changed):
            self._alike.clear()  # kinds_judged_alike reads these (a horse's distance leaves it)
        if any(s.view_as for s in changed):
            self._converts.pop(p.seat, None)
        if any(s.attached for s in changed):
            self._attach_live = None

    def open_window(self, window: str, variables: dict[str, Any],
                    extra: list[tuple[Player, Skill, TriggerDef]] | None = None) -> None:
        """Poll every trigger on `window`: players from the current one in seat order; for
        one player, hero skills before equipment, in the order the player chooses, each once.
        `extra`: triggers of a player the listeners leave out (the dead, at their death)."""
        self.windows_opened += 1
        if self.tracing:
            self.trace(f"  〔時機〕{window_label(window, variables)}")
        entries = (self._listeners if self._listeners is not None else self.listeners()).get(window)
        if extra:
            entries = (entries or []) + extra
        if not entries:
            return
        if len(entries) == 1:  # one listener: no seats to order
            self._fire_own(entries, variables, window)
            return
        n = len(self.players)
        place = self.place_of
        start = place[self.current.seat]
        by_seat: dict[int, list[tuple[Player, Skill, TriggerDef]]] = {}
        for entry in entries:
            by_seat.setdefault(entry[0].seat, []).append(entry)
        for seat in sorted(by_seat, key=lambda s: (place[s] - start) % n):
            self._fire_own(by_seat[seat], variables, window)

    def skip_window(self, window: str) -> bool:
        """True when opening `window` would poll no one and trace nothing (most windows of most
        games): it is counted as opened, and the caller need not build its payload."""
        if self.tracing or window in (self._listeners if self._listeners is not None else self.listeners()):
            return False
        self.windows_opened += 1
        return True

    def _fire_own(self, entries: list[tuple[Player, Skill, TriggerDef]], variables: dict[str, Any],
                  window: str, leaving: bool = False) -> None:
        remaining = list(entries)
        while remaining:
            if window in TARGET_WINDOWS and variables["target"] not in variables["use"].targets:
                return  # cancelled (取消) or redirected: the rest of this target's window is gone
            ready = [(e, ctx) for e in remaining if (ctx := self._ready(e, variables, leaving)) is not None]
            if not ready:
                return
            first_class = [r for r in ready if bool(r[0][1].slot) == bool(ready[0][0][1].slot)]
            if self.mode.locked_first and any("locked" in r[0][1].tags for r in first_class) and not any(
                    self.mode.hidden(r[0][0], r[0][1]) for r in first_class):
                # locked skills first, except while generals are still to be shown: the player
                # then orders the skills as they choose which general to show first (Q&A 7)
                first_class = [r for r in first_class if "locked" in r[0][1].tags]
            if len(first_class) > 1:
                options = [Option(f"【{r[0][1].name}】", r) for r in first_class]
                chosen = self.ask(first_class[0][0][0], "order", "選擇先結算的技能", options,
                                  window_label(window, variables)).value
            else:
                chosen = first_class[0]
            (p, skill, trig), ctx = chosen
            remaining.remove(chosen[0])
            waiting = self.mode.hides_skills and self.mode.hidden(p, skill)  # a locked one too (Q&A 7)
            if (trig.optional or waiting) and not self.confirm(p, "是否發動？", INVOKE, NOT_INVOKE, skill.name):
                self.log_skill(p, skill, f"{p.label()}不發動【{skill.name}】")
                continue
            if waiting:
                self.mode.on_invoke(self, p, skill)  # a face-down general is shown, then the skill acts
            self._fire(p, skill, trig, ctx, self._times(trig, variables))

    @staticmethod
    def _times(trig: TriggerDef, variables: dict[str, Any]) -> int:
        """How often a firing repeats: per point of its damage, per card of its move."""
        if trig.each_point:
            return variables["damage"].amount
        if trig.each_card:
            return len(variables["move"].cards)
        return 1

    def _fire(self, p: Player, skill: Skill, trig: TriggerDef, ctx: Ctx, times: int) -> None:
        budget = self.budget
        self.spend(p, skill)  # limited and wake skills fire once a game
        for i in range(times):
            if i and (not p.alive or (trig.optional and not self.confirm(
                    p, "是否再次發動？", INVOKE, NOT_INVOKE, skill.name))):
                break
            if trig.each_card:  # each firing hears one card of the move
                move = ctx.vars["move"]
                ctx.vars["move"] = Move(move.player, move.zone, move.cards[i], move.cards)
            budget.steps -= 1  # a firing costs a step even when its body is empty
            if budget.steps < 0:
                budget.ran_out(trig.span)
            self._log_firing(p, skill, trig)
            if skill.rule or not trig.helper:  # a helper carries out an earlier invocation: not counted again
                self.fired[skill.name] = self.fired.get(skill.name, 0) + 1
                if skill.slot and self.treated_as(p, skill):  # and the skill that gives the equipment acts
                    for name in self.equipment_givers(p, skill):
                        self.fired[name] = self.fired.get(name, 0) + 1
            outer, budget.firing = budget.firing, trig
            try:
                self.run_block(trig.body, ctx, skill.name)
            finally:
                budget.firing = outer

    def _log_firing(self, p: Player, skill: Skill, trig: TriggerDef) -> None:
        if not skill.rule:
            self.log_skill(p, skill, f"{p.label()}的【{skill.name}】生效" if trig.helper else f"{p.label()}發動【{skill.name}】")
            return
        # a card's rule is not a skill anyone invokes: it takes effect, once on a use of a
        # card however many windows of that use it acts in (酒: the 殺's use and its damage)
        use = self.use_stack[-1] if self.use_stack else None
        ruled = use.ruled if use is not None else set()
        if (skill.name, p.seat) not in ruled:
            ruled.add((skill.name, p.seat))
            if self.logging:
                self.log(f"【{skill.name}】對{p.label()}生效")

    def _ready(self, entry: tuple[Player, Skill, TriggerDef], variables: dict[str, Any],
               leaving: bool = False) -> Ctx | None:
        """The context to fire a trigger in, or None when it cannot fire now."""
        p, skill, trig = entry
        for concern in trig.guard:  # who or what the window is about, first (compiler.guards)
            if not concern.holds(variables, p):
                return None
        if not p.alive and p is not self.departed:  # the dead act at their death
            return None
        if p.spent and skill.name in p.spent:  # a spent limited or wake skill
            return None
        damage = variables.get("damage")  # a prevented damage ends its windows
        if damage is not None and damage.prevented:
            return None
        asked = variables.get("asked")  # and a need already met: nothing more is offered for it
        if asked is not None and asked.provided is not None:
            return None
        if skill.slot and not leaving and (
                p.equips.get(skill.slot) is None or p.equips[skill.slot].kind.skill is not skill) and (
                not self.treated_as(p, skill)):
            return None
        if skill.slot == "armor" and self.armor_ignored(p):
            return None
        hidden = self.mode.hides_skills and self.mode.hidden(p, skill)
        if hidden and trig.helper:
            return None  # a face-down general's skill acts only when invoked, which shows it
        ctx = Ctx(self, {"you": p, **variables})
        if trig.cond is not None and not trig.cond(ctx):
            return None
        if hidden and not self.credited(lambda: self.may_reveal(p)):
            return None  # it would be offered, but its general may not be shown now (`forbid reveal`)
        return ctx


# windows opened per target of a use: one whose target stops being one (取消, redirected) closes
TARGET_WINDOWS = frozenset(("specifying", "targeted", "after_specify", "after_targeted"))


def window_label(window: str, variables: dict[str, Any]) -> str:
    """A window as the trace names it: a phase's start and end name the phase."""
    zh = WINDOW_BY_ID[window].zh
    phase = variables.get("phase")
    if phase is not None and zh.startswith("階段"):
        return PHASE_ZH.get(phase.name, "") + zh
    return zh
