"""The engine kernel: every process of the rules (use, play out, damage, judge, dying, death,
draw, discard, move, the turn), and the windows they open. It knows no card by name: what a
card does comes from its compiled text (`CardKind`), and what a mode adds (roles, rewards,
victory) comes from the mode object."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from ..compiler.defs import CardKind, Ctx, Skill, TargetRule, TriggerDef, UseMode
from .decisions import Option, Request
from .model import (
    NATURE_ZH,
    PHASE_ZH,
    PHASES,
    ROLE_ZH,
    SLOT_ZH,
    SUIT_ZH,
    Asked,
    Card,
    Damage,
    Dying,
    GameOver,
    Judge,
    Move,
    Phase,
    Player,
    Recover,
    RulesError,
    TurnEnded,
    Use,
    UsedCard,
)
from .view import SeatView
from .windows import WINDOW_BY_ID

MAX_ACTIONS_PER_PHASE = 300
END_PLAY = "結束出牌"
ACTIVE_KEY = "skill:"
UNCOUNTERABLE = "_uncounterable"  # Use.vars flag: no card may counter this use  # Player.used key prefix for a skill's play-phase uses  # the play-phase option that ends the phase
MAX_DEPTH = 60
# Equipment is used in the play phase on oneself (seed 000 裝備牌): a rule of the game, not of
# any card's text, so a card that says nothing about its use still has this mode.
EQUIP_USE = UseMode("play", TargetRule("self", None))


def use_mode(kind: CardKind, context: str) -> UseMode | None:
    mode = kind.mode(context)
    if mode is None and context == "play" and kind.is_equip:
        return EQUIP_USE
    return mode


class Game:
    """One table: state, the seeded RNG, the agents, and the processes."""

    def __init__(self, library: Any, players: list[Player], deck: list[Card], agents: list[Any],
                 mode: Any, seed: int, log: bool = True):
        self.library = library
        self.players = players
        self.deck = deck  # top of the deck is the end of the list
        self.discard_pile: list[Card] = []
        self.processing: list[Card] = []
        self.agents = agents
        self.mode = mode
        self.rng = random.Random(seed)
        self.logging = log
        self.tracing = False  # rulings: also windows, moves, questions and answers
        self.lines: list[str] = []
        self.current: Player = players[0]
        self.turns = 0
        self.windows_opened = 0
        self.use_stack: list[Use] = []
        self.depth = 0
        self.all_cards: list[Card] = list(deck)
        self._listeners: dict[str, list[tuple[Player, Skill, TriggerDef]]] | None = None
        self.counter_kinds: tuple[CardKind, ...] = tuple(k for k in library.cards.values() if k.mode("counter"))
        self.fired: dict[str, int] = {}
        self.judged_player: Player | None = None
        self.pending_judgements: list[list[Judge]] = []
        self.crediting: set[str] | None = None
        self.judge_as: dict[int, CardKind] = {}
        self._rules: tuple[Skill, ...] | None = None
        self._skills: dict[int, list[Skill]] = {}  # seat -> skills, until changed_skills()
        self.set_aside: frozenset[int] = frozenset()  # equipped cards being converted right now  # judge-area cards used as another trick  # skills that shaped the choice being made  # whose delayed trick is being judged

    # ------------------------------------------------------------ log and questions
    def log(self, text: str) -> None:
        if self.logging:
            self.lines.append(text)

    def ask(self, player: Player, kind: str, prompt: str, options: list[Option]) -> Option:
        """Put one question to a player's agent; the answer is one of the options."""
        if len(options) == 1 and kind != "invoke":
            forced = getattr(self.agents[player.seat], "forced", None)
            if forced is not None:  # an agent may want to see the choices made for it
                forced(Request(player.seat, kind, prompt, tuple(options)))
            if self.tracing:
                self.lines.append(f"  〔唯一選項〕{player.label()}：{prompt} → {options[0].label}")
            return options[0]
        request = Request(player.seat, kind, prompt, tuple(options))
        index = self.agents[player.seat].choose(request, SeatView(self, player.seat))
        if not 0 <= index < len(options):
            raise RulesError(f"agent of seat {player.seat + 1} answered {index} to a {len(options)}-option question")
        if self.tracing:
            labels = "／".join(o.label for o in options)
            self.lines.append(f"  〔詢問〕{player.label()}：{prompt}［{labels}］→ {options[index].label}")
        return options[index]

    def confirm(self, player: Player, prompt: str) -> bool:
        return self.ask(player, "invoke", prompt, [Option("是", True), Option("否", False)]).value

    # ------------------------------------------------------------ seats and distance
    def alive(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def seat_order(self, start: Player | None = None) -> list[Player]:
        """Living players in seat order from `start` (default: the current player)."""
        start = start or self.current
        n = len(self.players)
        ordered = [self.players[(start.seat + i) % n] for i in range(n)]
        return [p for p in ordered if p.alive]

    def next_alive(self, player: Player) -> Player:
        n = len(self.players)
        for i in range(1, n + 1):
            p = self.players[(player.seat + i) % n]
            if p.alive:
                return p
        return player

    def distance(self, a: Player, b: Player) -> int:
        if a is b:
            return 0
        living = self.alive()
        if a not in living or b not in living:
            return 99
        i, j = living.index(a), living.index(b)
        steps = abs(i - j)
        base = min(steps, len(living) - steps)
        base += self.modifier_total(b, "distance_from") + self.modifier_total(a, "distance_to")
        return max(1, base)

    def attack_range(self, p: Player) -> int:
        weapon = p.equips.get("weapon")
        if weapon is not None and weapon.uid in self.set_aside:
            weapon = None
        base = weapon.kind.range if weapon is not None else 1
        return max(0, base + self.modifier_total(p, "attack_range"))

    def in_range(self, a: Player, b: Player) -> bool:
        return a is not b and b.alive and self.distance(a, b) <= self.attack_range(a)

    # ------------------------------------------------------------ skills, modifiers, windows
    def skills_of(self, p: Player, suppressed: bool = False) -> list[Skill]:
        """Hero skills, then the skills of equipped cards; an ignored armour's skill only
        when `suppressed` is asked for (the window index holds it, and checks at firing)."""
        skills = self._skills.get(p.seat)
        if skills is None:  # rebuilt after changed_skills(): equipment moved, a player died
            skills = [s for s in p.skills if "lord" not in s.tags or p.role == "lord"]
            skills += [c.kind.skill for c in p.equips.values() if c.kind.skill is not None]
            skills += self.rule_skills()
            self._skills[p.seat] = skills
        if suppressed or not self.use_stack or "armor" not in p.equips or not self.armor_ignored(p):
            return skills
        return [s for s in skills if s.slot != "armor"]

    def rule_skills(self) -> tuple[Skill, ...]:
        """The rules that cards of this game's deck add for everyone (酒's next-殺 bonus)."""
        if self._rules is None:
            kinds = {c.kind for c in self.all_cards}
            self._rules = tuple(k.skill for k in sorted(kinds, key=lambda k: k.name)
                                if k.skill is not None and k.skill.rule)
        return self._rules

    def armor_ignored(self, p: Player) -> bool:
        return any(p.seat in u.armor_off for u in self.use_stack)

    def modifiers(self, p: Player, name: str):
        aside = {self.equip_skill_uid(p, s) for s in self.skills_of(p)} & self.set_aside if self.set_aside else ()
        for skill in self.skills_of(p):
            if aside and self.equip_skill_uid(p, skill) in aside:
                continue
            for m in skill.modifiers:
                if m.name == name:
                    yield m

    @staticmethod
    def equip_skill_uid(p: Player, skill: Skill) -> int:
        """The uid of the equipped card that grants `skill` (-1 for a hero skill)."""
        card = p.equips.get(skill.slot) if skill.slot else None
        return card.uid if card is not None and card.kind.skill is skill else -1

    def modifier_total(self, p: Player, name: str, ctx_vars: dict | None = None) -> int:
        total = 0
        for m in self.modifiers(p, name):
            ctx = Ctx(self, {"you": p, **(ctx_vars or {})})
            if m.cond is None or m.cond(ctx):
                value = m.value(ctx)
                if value:  # `= unlimited` (None) is asked with unlimited()
                    total += -value if m.op == "-=" else value
                    self.credit(m.skill)
        return total

    def credit(self, skill: str) -> None:
        """While a real choice is being made (`crediting`), note the modifiers and forbids
        that shaped it: the statistics count them as fired once per choice."""
        if self.crediting is not None and skill:
            self.crediting.add(skill)

    def use_limit(self, p: Player, kind: CardKind) -> int | None:
        """How often `kind` may be used this play phase (None: no limit)."""
        limit = kind.limit
        if limit is None:
            return None
        probe = UsedCard.virtual(kind)
        for m in self.modifiers(p, "limit"):
            if m.matches is not None and not m.matches(probe):
                continue
            ctx = Ctx(self, {"you": p})
            if m.cond is not None and not m.cond(ctx):
                continue
            value = m.value(ctx)
            if value is None:
                return None
            limit = value if m.op == "=" else limit + (value if m.op == "+=" else -value)
        return limit

    def extra_targets(self, p: Player, card: UsedCard) -> int:
        total = 0
        for m in self.modifiers(p, "targets"):
            if m.matches is not None and not m.matches(card):
                continue
            ctx = Ctx(self, {"you": p, "user": p, "card": card})
            if m.cond is None or m.cond(ctx):
                total += m.value(ctx) * (-1 if m.op == "-=" else 1)
        return total

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
        self._listeners = None
        self._skills.clear()

    def open_window(self, window: str, variables: dict[str, Any]) -> None:
        """Poll every trigger on `window`: players from the current one in seat order; for
        one player, hero skills before equipment, in the order the player chooses, each once."""
        self.windows_opened += 1
        if self.tracing:
            phase = variables.get("phase")
            named = PHASE_ZH.get(phase.name, "") if phase is not None else ""
            self.lines.append(f"  〔時機〕{named}{WINDOW_BY_ID[window].zh}")
        entries = self.listeners().get(window)
        if not entries:
            return
        n = len(self.players)
        start = self.current.seat
        by_seat: dict[int, list[tuple[Player, Skill, TriggerDef]]] = {}
        for entry in entries:
            by_seat.setdefault(entry[0].seat, []).append(entry)
        for seat in sorted(by_seat, key=lambda s: (s - start) % n):
            self._fire_own(by_seat[seat], variables)

    def _fire_own(self, entries: list[tuple[Player, Skill, TriggerDef]], variables: dict[str, Any],
                  leaving: bool = False) -> None:
        remaining = list(entries)
        while remaining:
            ready = [(e, ctx) for e in remaining if (ctx := self._ready(e, variables, leaving)) is not None]
            if not ready:
                return
            first_class = [r for r in ready if bool(r[0][1].slot) == bool(ready[0][0][1].slot)]
            if len(first_class) > 1:
                options = [Option(f"【{r[0][1].name}】", r) for r in first_class]
                chosen = self.ask(first_class[0][0][0], "order", "選擇先結算的技能", options).value
            else:
                chosen = first_class[0]
            (p, skill, trig), ctx = chosen
            remaining.remove(chosen[0])
            if trig.optional and not self.confirm(p, f"發動【{skill.name}】？"):
                self.log(f"{p.label()}不發動【{skill.name}】")
                continue
            times = variables["damage"].amount if trig.each_point else 1
            for i in range(times):
                if i and (not p.alive or (trig.optional and not self.confirm(p, f"再次發動【{skill.name}】？"))):
                    break
                self.log(f"{p.label()}發動【{skill.name}】")
                self.fired[skill.name] = self.fired.get(skill.name, 0) + 1
                self.run_block(trig.body, ctx)

    def _ready(self, entry: tuple[Player, Skill, TriggerDef], variables: dict[str, Any],
               leaving: bool = False) -> Ctx | None:
        """The context to fire a trigger in, or None when it cannot fire now."""
        p, skill, trig = entry
        if not p.alive:
            return None
        if skill.slot and not leaving and (
                p.equips.get(skill.slot) is None or p.equips[skill.slot].kind.skill is not skill):
            return None
        if skill.slot == "armor" and self.armor_ignored(p):
            return None
        ctx = Ctx(self, {"you": p, **variables})
        if trig.cond is not None and not trig.cond(ctx):
            return None
        return ctx

    # ------------------------------------------------------------ zones and moves
    def zone_of(self, card: Card) -> tuple[str, Player | None]:
        for p in self.players:
            if card in p.hand:
                return "hand", p
            if card in p.judge:
                return "judge", p
            for c in p.equips.values():
                if c is card:
                    return "equip", p
        if card in self.processing:
            return "processing", None
        if card in self.discard_pile:
            return "discard", None
        if card in self.deck:
            return "deck", None
        return "nowhere", None

    def take_out(self, card: Card) -> tuple[str, Player | None]:
        """Remove a card from wherever it is; return where it was."""
        zone, owner = self.zone_of(card)
        if zone == "hand":
            owner.hand.remove(card)
        elif zone == "judge":
            owner.judge.remove(card)
        elif zone == "equip":
            for slot, c in list(owner.equips.items()):
                if c is card:
                    del owner.equips[slot]
            self.changed_skills()
        elif zone == "processing":
            self.processing.remove(card)
        elif zone == "discard":
            self.discard_pile.remove(card)
        elif zone == "deck":
            self.deck.remove(card)
        return zone, owner

    def place(self, card: Card, zone: str, owner: Player | None = None,
              source: tuple[str, Player | None] | None = None) -> None:
        """Every card move goes through here: out of where it is (or `source`, when the
        caller already took it out), into `zone`; traced from -> to when tracing."""
        src = source if source is not None else self.take_out(card)
        self._place(card, zone, owner)
        if self.tracing:
            self.lines.append(f"  〔移動〕{card.label()}：{where(*src)} → {where(zone, owner)}")
        lost_from, loser = src
        if loser is not None and lost_from in ("hand", "equip") and loser.alive and not (
                loser is owner and zone == lost_from):
            variables = {"move": Move(loser, lost_from, card)}
            own = card.kind.skill
            if lost_from == "equip" and own is not None and own.triggers.get("cards_lost"):
                # a card's own skill hears the move that takes it out of the equipment area
                self._fire_own([(loser, own, t) for t in own.triggers["cards_lost"]], variables, leaving=True)
            self.open_window("cards_lost", variables)

    def _place(self, card: Card, zone: str, owner: Player | None) -> None:
        if zone not in ("judge", "processing"):
            self.judge_as.pop(card.uid, None)
        if zone == "hand":
            owner.hand.append(card)
        elif zone == "judge":
            owner.judge.append(card)
        elif zone == "equip":
            owner.equips[card.kind.type] = card
            self.changed_skills()
        elif zone == "processing":
            self.processing.append(card)
        elif zone == "discard":
            self.discard_pile.append(card)
        else:
            raise RulesError(f"no zone '{zone}'")

    def to_discard(self, cards: Iterable[Card]) -> None:
        for c in cards:
            self.place(c, "discard")

    def to_hand(self, player: Player, cards: Iterable[Card]) -> None:
        for c in cards:
            self.place(c, "hand", player)

    def to_processing(self, cards: Iterable[Card]) -> None:
        for c in cards:
            self.place(c, "processing")

    def draw_top(self) -> Card:
        if not self.deck:
            if not self.discard_pile:
                raise GameOver("draw", "牌堆與棄牌堆皆無牌，平局")
            if self.tracing:
                self.lines.append(f"  〔移動〕棄牌堆的{len(self.discard_pile)}張牌 → 牌堆（洗混）")
            self.deck = self.discard_pile
            self.discard_pile = []
            self.rng.shuffle(self.deck)
            self.log(f"棄牌堆洗混成為新的牌堆（{len(self.deck)}張）")
        return self.deck.pop()

    def draw(self, player: Player, n: int) -> list[Card]:
        cards = []
        for _ in range(max(0, n)):
            card = self.draw_top()
            self.place(card, "hand", player, FROM_DECK)
            cards.append(card)
        if cards:
            self.log(f"{player.label()}摸{len(cards)}張牌")
        return cards

    def hand_equip(self, p: Player) -> list[Card]:
        return p.hand + list(p.equips.values())

    def zone_cards(self, p: Player, zone: str) -> list[Card]:
        if zone == "hand":
            return list(p.hand)
        if zone == "equip":
            return list(p.equips.values())
        if zone == "judge":
            return list(p.judge)
        if zone == "hand_equip":
            return self.hand_equip(p)
        if zone == "area":
            return self.hand_equip(p) + list(p.judge)
        if zone == "horses":
            return [c for s, c in p.equips.items() if s.endswith("horse")]
        return [c for s, c in p.equips.items() if s == zone]

    def pick_card(self, chooser: Player, owner: Player, zone: str) -> Card | None:
        """`chooser` picks one of `owner`'s cards in `zone`; another's hand cards are face down."""
        cards = self.zone_cards(owner, zone)
        if not cards:
            return None
        options = []
        hidden = 0
        for c in cards:
            if c in owner.hand and chooser is not owner:
                hidden += 1
                options.append(Option(f"手牌{hidden}", c))
            else:
                where = "判定區" if c in owner.judge else ("裝備區" if c not in owner.hand else "手牌")
                options.append(Option(f"{where}{c.label()}", c))
        return self.ask(chooser, "pick_card", f"選擇{owner.label()}的一張牌", options).value

    def pick_from(self, chooser: Player, cards: list[Card]) -> Card | None:
        if not cards:
            return None
        return self.ask(chooser, "pick_card", "選擇一張牌", [Option(c.label(), c) for c in cards]).value

    def discard_cards(self, player: Player, n: int, zone: str = "hand", optional: bool = False,
                      keep: str = "") -> bool:
        """`player` discards n of their own cards from `zone`; False if they cannot or decline."""
        pool = self.zone_cards(player, zone)
        if keep:
            kept = player.equips.get(keep)
            pool = [c for c in pool if c is not kept]
        if n <= 0:
            return True
        if len(pool) < n:
            if optional:
                return False
            n = len(pool)
            if n == 0:
                return False
        if optional and not self.confirm(player, f"棄置{n}張牌？"):
            return False
        chosen: list[Card] = []
        for _ in range(n):
            options = [Option(c.label(), c) for c in pool if c not in chosen]
            chosen.append(self.ask(player, "discard", f"棄置一張牌（{len(chosen) + 1}/{n}）", options).value)
        self.log(f"{player.label()}棄置" + "、".join(c.label() for c in chosen))
        self.to_discard(chosen)
        return True

    def throw(self, card: Card | None) -> None:
        if card is None:
            return
        zone, owner = self.zone_of(card)
        who = owner.label() if owner else ""
        self.log(f"{card.label()}被棄置（{who}{zone_zh(zone)}）")
        self.to_discard([card])

    def gain(self, player: Player, card: Card | None) -> None:
        if card is None:
            return
        zone, owner = self.zone_of(card)
        shown = card.label() if zone != "hand" else "一張手牌"
        source = f"{owner.label()}的" if owner else ""
        self.log(f"{player.label()}獲得{source}{shown}")
        self.to_hand(player, [card])

    def reveal(self, n: int) -> list[Card]:
        cards = []
        for _ in range(max(0, n)):
            card = self.draw_top()
            self.place(card, "processing", source=FROM_DECK)
            cards.append(card)
        self.log("亮出" + "、".join(c.label() for c in cards))
        return cards

    # ------------------------------------------------------------ hp
    def damage(self, target: Player, amount: int, nature: str = "normal", source: Player | None = None,
               card: UsedCard | None = None, chained: bool = False) -> None:
        if not target.alive:
            return
        d = Damage(source, target, amount, nature, card, chained)
        d.use = self.use_stack[-1] if card is not None and self.use_stack else None
        variables = {"damage": d}
        if source is not None and not chained:  # transmitted damage keeps the source's amount
            self.open_window("causing_damage", variables)
        base = d.amount  # what chain transmission passes on: after the source's window only
        if not d.prevented and d.amount > 0:
            self.open_window("taking_damage", variables)
        if d.prevented or d.amount <= 0:
            self.log(f"對{target.label()}的傷害被防止")
            return
        transmits = d.nature != "normal" and target.chained and not chained
        target.hp -= d.amount
        dealt = f"{source.label()}對{target.label()}造成" if source else f"{target.label()}受到"
        self.log(f"{dealt}{d.amount}點{NATURE_ZH[d.nature]}傷害（體力{target.hp}/{target.max_hp}）")
        ended: TurnEnded | None = None
        if target.hp <= 0:
            try:
                self.enter_dying(target, d)
            except TurnEnded as stop:  # the current player died; the chain still passes on
                ended = stop
        if ended is None:
            if source is not None and source.alive:
                self.open_window("caused_damage", variables)
            if target.alive:
                self.open_window("damaged", variables)
            self.open_window("damage_end", variables)
        if d.nature != "normal" and target.chained:
            target.chained = False  # 傷害結算結束: a chained victim of nature damage is unchained
            self.log(f"{target.label()}解除連環狀態")
        if transmits:
            self.transmit(d, base)
        if ended is not None:
            raise ended

    def transmit(self, d: Damage, amount: int) -> None:
        """Chain transmission: every other chained player, in seat order from the current
        player, takes damage of the same source, nature and amount (the amount as the source
        dealt it), even if the first victim died; it is not transmitted again."""
        for p in self.seat_order():
            if p.chained and p is not d.target:
                self.log(f"連環傳導至{p.label()}")
                self.damage(p, amount, d.nature, d.source, d.card, chained=True)

    def recover(self, player: Player, amount: int, source: Player | None = None,
                card: UsedCard | None = None) -> None:
        if not player.alive or amount <= 0:
            return
        r = Recover(player, amount, source, card=card)
        self.open_window("recovering", {"recover": r})
        gained = min(r.amount, player.max_hp - player.hp)
        if r.prevented or gained <= 0:
            return
        player.hp += gained
        self.log(f"{player.label()}回復{gained}點體力（體力{player.hp}/{player.max_hp}）")
        self.open_window("recovered", {"recover": r})

    def lose_hp(self, player: Player, amount: int) -> None:
        if not player.alive or amount <= 0:
            return
        player.hp -= amount
        self.log(f"{player.label()}失去{amount}點體力（體力{player.hp}/{player.max_hp}）")
        if player.hp <= 0:
            self.enter_dying(player, None)
        if player.alive:
            self.open_window("lost_hp", {"lose": Recover(player, amount, None)})

    # ------------------------------------------------------------ dying and death
    def enter_dying(self, player: Player, damage: Damage | None) -> None:
        player.dying = True
        self.log(f"{player.label()}進入瀕死狀態")
        dying = Dying(player, damage)
        self.open_window("dying", {"dying": dying})
        for saver in self.seat_order():
            while player.hp <= 0 and saver.alive and player.alive:
                if not self.ask_save(saver, player):
                    break
            if player.hp > 0:
                break
        player.dying = False
        if player.hp <= 0 and player.alive:
            killer = damage.source if damage is not None else None
            self.die(player, killer)

    def ask_save(self, saver: Player, dying: Player) -> bool:
        options = []
        for card, kind, subcards in self.castable(saver, "dying"):
            mode = kind.mode("dying")
            if self.target_ok(saver, mode.target, dying, self.probe(kind, subcards)):
                options.append(Option(f"使用{card}", (kind, subcards)))
        if not options:
            return False
        options.append(Option("不使用", None))
        choice = self.ask(saver, "save", f"{dying.label()}瀕死，是否使用牌救之？", options).value
        if choice is None:
            return False
        kind, subcards = choice
        subcards = self.resolve_subcards(saver, kind, subcards)
        self.use_card(saver, self.make_card(kind, subcards), [dying], "dying")
        return True

    def probe(self, kind: CardKind, subcards: Any) -> UsedCard:
        """The card a castable option would make, for legality checks before cards are picked."""
        if subcards and subcards[0] == "view_as":
            return UsedCard.virtual(kind)
        return self.make_card(kind, subcards)

    def die(self, player: Player, killer: Player | None) -> None:
        player.alive = False
        self.changed_skills()
        self.log(f"{player.label()}陣亡，身份是{ROLE_ZH.get(player.role, player.role)}")
        try:
            self.mode.check_victory(self)
        except GameOver:
            self._discard_everything(player)
            raise
        self.open_window("death", {"death": Dying(player, None), "killer": killer})
        self._discard_everything(player)
        self.mode.after_death(self, player, killer)
        self.open_window("after_death", {"death": Dying(player, None), "killer": killer})
        if player is self.current:
            raise TurnEnded()

    def _discard_everything(self, player: Player) -> None:
        everything = player.hand + list(player.equips.values()) + player.judge
        if everything:
            self.to_discard(everything)

    # ------------------------------------------------------------ judgement
    def judge(self, player: Player) -> Judge:
        """Reveal the judge card and let retrials act (判定牌生效前). The result is then fixed
        and the text that asked for the judgement acts on it (判定牌生效); the after-window
        and the discard follow when that text's block ends (see `finish_judgements`)."""
        card = self.draw_top()
        self.place(card, "processing", source=FROM_DECK)
        j = Judge(player, card)
        self.log(f"{player.label()}的判定牌是{card.label()}")
        self.open_window("judge_before", {"judge": j})
        self.log(f"{player.label()}的判定結果是{j.card.label()}")
        if self.pending_judgements:
            self.pending_judgements[-1].append(j)
        else:
            self.finish_judgement(j)
        return j

    def run_block(self, block: Any, ctx: Ctx) -> Any:
        """Run a card's or skill's block; judgements it made finish when it ends."""
        self.pending_judgements.append([])
        try:
            result = block(ctx)
        except BaseException:  # the game or the turn ended: nothing more opens
            self.pending_judgements.pop()
            raise
        for j in self.pending_judgements.pop():
            self.finish_judgement(j)
        return result

    def finish_judgement(self, j: Judge) -> None:
        """判定牌生效後, then the judge card goes to the discard pile unless a skill took it."""
        self.open_window("judge_after", {"judge": j})
        if j.card in self.processing:
            self.to_discard([j.card])

    def replace_judge(self, j: Judge, card: Card) -> None:
        """Retrial: `card` becomes the judge card; the one it replaces is discarded."""
        old = j.card
        zone, owner = self.zone_of(card)
        who = f"{owner.label()}的" if owner else ""
        self.place(card, "processing")
        j.card = card
        self.log(f"{who}{card.label()}代替{old.label()}成為判定牌")
        if old in self.processing:
            self.to_discard([old])

    # ------------------------------------------------------------ which cards can be used
    def make_card(self, kind: CardKind, subcards: tuple[Card, ...]) -> UsedCard:
        if len(subcards) == 1 and subcards[0].kind is kind:
            return UsedCard.of(subcards[0])
        return UsedCard.virtual(kind, subcards)

    def castable(self, p: Player, context: str, pattern: Any = None):
        """(label, kind, subcards) for each way p could produce a card usable in `context`:
        a real hand card, or a view-as skill's conversion (offered once; cards picked later)."""
        playing_out = context == "play_response"  # 打出 needs no use clause, only a match
        seen = set()
        for c in p.hand:
            if not playing_out and use_mode(c.kind, context) is None:
                continue
            if pattern is not None and not pattern(UsedCard.of(c)):
                continue
            yield c.label(), c.kind, (c,)
        for skill in self.skills_of(p):
            for va in skill.view_as:
                kind = self.library.cards[va.kind_name]
                if not playing_out and use_mode(kind, context) is None:
                    continue
                if ("play" if playing_out else "use") not in va.modes:
                    continue
                if va.cond is not None and not va.cond(Ctx(self, {"you": p})):
                    continue
                pool = [c for c in self.zone_cards(p, va.zone) if va.matches(UsedCard.of(c))]
                if len(pool) < va.count:
                    continue
                if pattern is not None and not pattern(UsedCard.virtual(kind, tuple(pool[:va.count]))):
                    continue
                key = (skill.name, kind.name)
                if key in seen:
                    continue
                seen.add(key)
                yield f"【{skill.name}】視為【{kind.name}】", kind, ("view_as", va)

    def resolve_subcards(self, p: Player, kind: CardKind, subcards) -> tuple[Card, ...]:
        """A view-as choice becomes real cards: the player picks them one by one."""
        if not subcards or subcards[0] != "view_as":
            return subcards
        va = subcards[1]
        chosen: list[Card] = []
        for _ in range(va.count):
            pool = [c for c in self.zone_cards(p, va.zone) if va.matches(UsedCard.of(c)) and c not in chosen]
            chosen.append(self.ask(p, "pick_card", f"選擇當【{kind.name}】的牌", [Option(c.label(), c) for c in pool]).value)
        self.log(f"{p.label()}發動【{va.skill}】")
        self.fired[va.skill] = self.fired.get(va.skill, 0) + 1
        return tuple(chosen)

    def target_ok(self, user: Player, rule: TargetRule | None, target: Player, card: UsedCard,
                  kind: CardKind | None = None, distance: bool = True, extra: dict | None = None) -> bool:
        if rule is None or not target.alive:
            return False
        k = rule.kind
        if k == "self" and target is not user:
            return False
        if k in ("one_other", "all_others") and target is user:
            return False
        if k == "dying" and not target.dying:
            return False
        kind = kind or card.kind
        if kind.type == "delayed" and any(self.judged_kind(c) is kind for c in target.judge):
            return False
        if distance and kind.distance is not None and target is not user:
            limit = kind.distance + self.modifier_total(user, "trick_distance")
            if self.distance(user, target) > limit and not self.unlimited(user, "trick_distance"):
                return False
        if self.forbidden(target, "target", card, user):
            return False
        if rule.cond is not None:
            ctx = Ctx(self, {"user": user, "it": target, "card": card, "you": user, **(extra or {})})
            if not rule.cond(ctx):
                return False
        return True

    def forbidden(self, p: Player, kind: str, card: UsedCard, user: Player) -> bool:
        """A `forbid` of p's skills stops this (p cannot be targeted by / use the card)."""
        for skill in self.skills_of(p):
            for f in skill.forbids:
                if f.kind == kind and f.matches(card) and (
                        f.cond is None or f.cond(Ctx(self, {"you": p, "user": user, "card": card}))):
                    self.credit(f.skill)
                    return True
        return False

    def unlimited(self, p: Player, name: str) -> bool:
        """A modifier `name = unlimited` of p's skills applies."""
        for m in self.modifiers(p, name):
            if m.op == "=" and m.value(Ctx(self, {"you": p})) is None and (
                    m.cond is None or m.cond(Ctx(self, {"you": p}))):
                self.credit(m.skill)
                return True
        return False

    def legal_targets(self, user: Player, rule: TargetRule, card: UsedCard) -> list[Player]:
        return [p for p in self.seat_order(user) if self.target_ok(user, rule, p, card)]

    def can_play(self, p: Player, kind: CardKind, card: UsedCard, ignore_limit: bool = False) -> bool:
        mode = use_mode(kind, "play")
        if mode is None:
            return False
        if not ignore_limit:
            limit = self.use_limit(p, kind)
            if limit is not None and p.used.get(kind.rule_name, 0) >= limit:
                return False
        return kind.is_equip or bool(self.legal_targets(p, mode.target, card))

    # ------------------------------------------------------------ using a card
    def choose_targets(self, user: Player, kind: CardKind, card: UsedCard, mode: UseMode,
                       forced: Player | None = None) -> list[Player] | None:
        """Targets for a use that is really being made; the modifiers and forbids that
        shaped the candidates are credited as fired."""
        self.crediting = set()
        try:
            return self._choose_targets(user, kind, card, mode, forced)
        finally:
            for skill in sorted(self.crediting):
                self.fired[skill] = self.fired.get(skill, 0) + 1
            self.crediting = None

    def _choose_targets(self, user: Player, kind: CardKind, card: UsedCard, mode: UseMode,
                        forced: Player | None = None) -> list[Player] | None:
        rule = mode.target
        if kind.is_equip or rule is None:
            return [user]
        # the cards a converted card is made of no longer count for its distance and range
        self.set_aside = frozenset(c.uid for c in card.subcards if c.kind is not kind)
        try:
            return self._pick_targets(user, kind, card, rule, forced)
        finally:
            self.set_aside = frozenset()

    def _pick_targets(self, user: Player, kind: CardKind, card: UsedCard, rule: TargetRule,
                      forced: Player | None) -> list[Player] | None:
        if rule.kind in ("all", "all_others"):
            return self.legal_targets(user, rule, card)
        if forced is not None:
            return [forced] if self.target_ok(user, rule, forced, card, distance=False) else None
        candidates = self.legal_targets(user, rule, card)
        if not candidates:
            return None
        if rule.kind == "self":
            return [user]
        chosen = [self.ask(user, "target", f"選擇{card.label()}的目標", [Option(p.label(), p) for p in candidates]).value]
        extra = self.extra_targets(user, card) + kind.targets - 1
        while extra > 0:
            rest = [p for p in candidates if p not in chosen]
            if not rest:
                break
            pick = self.ask(user, "target", "選擇額外的目標", [Option(p.label(), p) for p in rest] + [Option("完成", None)]).value
            if pick is None:
                break
            chosen.append(pick)
            extra -= 1
        return chosen

    def use_card(self, user: Player, card: UsedCard, targets: list[Player], context: str,
                 responded: Use | None = None, extra: dict[str, Any] | None = None) -> Use:
        """The whole process of using a card (使用), per DESIGN.md "Timing"."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise RulesError("resolution nested too deeply (a runaway chain of uses)")
        try:
            return self._use(user, card, targets, context, responded, extra or {})
        finally:
            self.depth -= 1

    def _use(self, user, card, targets, context, responded, extra) -> Use:
        kind: CardKind = card.kind
        use = Use(card, user, list(targets), context, responded)
        use.vars.update(extra)
        to_whom = "、".join(t.label() for t in targets)
        titles = {var: title for var, _, title in kind.choose}
        named = "".join(f"，{titles.get(var, var)}：{p.label()}" for var, p in extra.items() if isinstance(p, Player))
        self.log(f"{user.label()}使用{card.label()}" + (f"，目標：{to_whom}" if to_whom else "") + named)
        if context == "play":
            user.used[kind.rule_name] = user.used.get(kind.rule_name, 0) + 1
            if kind.limit is not None and user.used[kind.rule_name] > kind.limit:
                for m in self.modifiers(user, "limit"):
                    if m.matches is None or m.matches(card):
                        self.fired[m.skill] = self.fired.get(m.skill, 0) + 1
        user.turn_cards.append(kind.rule_name)
        if kind.is_equip:
            self.equip(user, card)
            return use
        if kind.type == "delayed":
            target = targets[0]
            for c in card.subcards:
                self.place(c, "judge", target)
                if c.kind is not kind:  # a converted card lies there as the trick it was used as
                    self.judge_as[c.uid] = kind
            return use
        self.to_processing(card.subcards)
        self.use_stack.append(use)
        try:
            self._resolve_use(use)
        finally:
            self.use_stack.pop()
            leftovers = [c for c in card.subcards if c in self.processing] + [
                c for c in use.vars.get("_revealed", ()) if c in self.processing]
            if leftovers:
                self.to_discard(leftovers)
        return use

    def _resolve_use(self, use: Use) -> None:
        kind = use.card.kind
        base = {"use": use, "card": use.card, "user": use.user}
        self.open_window("using", {**base, "target": None})
        for window in ("specifying", "targeted", "after_specify", "after_targeted"):
            for t in list(use.targets):
                self.open_window(window, {**base, "target": t})
        if use.responded is None and not use.targets:
            return
        if kind.choose and not all(var in use.vars for var, _, _ in kind.choose):
            chosen = self.choose_extra(use.user, use.card, use.targets)
            if chosen is None:
                return
            use.vars.update(chosen)
        prepare = kind.blocks.get("prepare")
        if prepare is not None:
            self.run_block(prepare, Ctx(self, {**base, "target": None}))
        order = [p for p in self.seat_order() if p in use.targets] if use.targets else [None]
        if use.targets and len(use.targets) != len(set(map(id, use.targets))):
            order = sorted(use.targets, key=lambda p: (p.seat - self.current.seat) % len(self.players))
        for target in order:
            if target is not None and not target.alive:
                continue
            self.resolve_for_target(use, target, base)
        finish = kind.blocks.get("finish")
        if finish is not None:
            self.run_block(finish, Ctx(self, {**base, "target": None}))
        self.open_window("use_end", {**base, "target": None})

    def resolve_for_target(self, use: Use, target: Player | None, base: dict[str, Any]) -> None:
        kind = use.card.kind
        use.current = target
        key = use.key(target)
        variables = {**base, "target": target, "responded": use.responded}
        ctx = Ctx(self, variables)
        self.open_window("effect_start", variables)
        if key in use.invalid:
            self.log(f"{use.card.label()}對{target.label() if target else ''}無效")
            return
        # 生效前: its triggers, then the responses (the card's `respond` block, then the
        # cards that counter it, polled in seat order)
        self.open_window("before_effect", variables)
        respond = kind.blocks.get("respond")
        if respond is not None and key not in use.cancelled:
            self.run_block(respond, ctx)
        if key not in use.cancelled:
            self.poll_counters(use)
        if key in use.cancelled:
            self.log(f"{use.card.label()}被抵消")
            self.open_window("cancelled", variables)
            if key in use.cancelled:
                nullified = kind.blocks.get("nullified")
                if nullified is not None:
                    self.run_block(nullified, ctx)
                return
        if target is not None and not target.alive:
            return
        self.open_window("on_effect", variables)
        effect = kind.blocks.get("effect")
        if effect is not None:
            self.run_block(effect, ctx)
        self.open_window("effect_end", variables)

    def poll_counters(self, use: Use) -> None:
        """Before a card takes effect, players in seat order may use a card that counters it
        (a `use counter` card), which may itself be countered. While the card still stands,
        the asking goes round again, until a whole round passes with no counter."""
        if use.vars.get(UNCOUNTERABLE) or not any(k.mode("counter").counter(use.card) for k in self.counter_kinds):
            return
        key = use.key(use.current)
        while key not in use.cancelled:
            if not self._counter_round(use):
                return

    def _counter_round(self, use: Use) -> bool:
        """One round of asking in seat order; True when someone used a counter."""
        target = f"對{use.current.label()}" if use.current else ""
        for p in self.seat_order():
            options = [Option(f"使用{label}", (kind, subcards))
                       for label, kind, subcards in self.castable(p, "counter")
                       if kind.mode("counter").counter(use.card)]
            if not options:
                continue
            options.append(Option("不使用", None))
            choice = self.ask(p, "counter", f"是否抵消{use.card.label()}{target}的效果？", options).value
            if choice is None:
                continue
            kind, subcards = choice
            subcards = self.resolve_subcards(p, kind, subcards)
            self.use_card(p, self.make_card(kind, subcards), [], "counter", responded=use)
            return True
        return False

    def equip(self, user: Player, card: UsedCard) -> None:
        real = card.subcards[0]
        slot = real.kind.type
        old = user.equips.get(slot)
        if old is not None:
            self.log(f"{old.label()}被替換，置入棄牌堆")
            self.to_discard([old])
        self.place(real, "equip", user)
        self.changed_skills()
        self.log(f"{user.label()}裝備{real.label()}（{SLOT_ZH[slot]}）")

    def pass_on(self, card: Card) -> None:
        """A delayed trick moves to the next player who can take it (閃電's rule, as text)."""
        zone, owner = self.zone_of(card)
        holder = owner if owner is not None else self.judged_player
        p = holder
        for _ in range(len(self.players)):
            p = self.next_alive(p)
            if p is holder:
                break
            if not any(self.judged_kind(c) is self.judged_kind(card) for c in p.judge):
                self.place(card, "judge", p)
                self.log(f"{card.label()}移至{p.label()}的判定區")
                return
        if zone != "judge":
            self.place(card, "judge", holder)
            self.log(f"{card.label()}留在{holder.label()}的判定區")

    # ------------------------------------------------------------ asking for a card
    def ask_for(self, player: Player, kind_name: str, pattern: Any, mode: str,
                on: Player | None = None) -> bool:
        """Ask `player` to use (mode "use") or play out (mode "play") a card matching pattern.
        Skills on the `asked` window may provide the card first (八卦陣-like effects)."""
        if not player.alive:
            return False
        kind = self.library.cards[kind_name]
        asked = Asked(player, UsedCard.virtual(kind), pattern, mode)
        responded = self.use_stack[-1] if self.use_stack else None
        if on is None and responded is not None and player.seat in responded.no_response:
            self.log(f"{player.label()}不能響應{responded.card.label()}")
            return False
        if on is None:
            self.open_window("asked", {"asked": asked, "use": responded, "target": player})
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
        choice = self.ask(player, "respond", f"是否{verb}【{kind.name}】？", options).value
        if choice is None:
            return False
        k, subcards = choice
        subcards = self.resolve_subcards(player, k, subcards)
        return self._answer(player, self.make_card(k, subcards), mode, responded, on)

    def _usable_on(self, player: Player, kind: CardKind, on: Player) -> bool:
        # A use asked for by a card's text is outside the play-phase limit; the asking text
        # already chose the target, so only its life and the card's own kind matter.
        mode = kind.mode("play")
        return (mode is not None and mode.target is not None and on.alive and on is not player
                and not self.forbidden(on, "target", UsedCard.virtual(kind), player))

    def _answer(self, player: Player, card: UsedCard, mode: str, responded: Use | None,
                on: Player | None) -> bool:
        if mode == "play":
            player.turn_cards.append(card.kind.rule_name)
            self.log(f"{player.label()}打出{card.label()}")
            self.to_processing(card.subcards)
            self.open_window("played", {"use": None, "card": card, "user": player, "target": None})
            leftovers = [c for c in card.subcards if c in self.processing]
            self.to_discard(leftovers)
            return True
        if on is not None:
            self.use_card(player, card, [on], "respond")
        else:
            self.use_card(player, card, [], "respond", responded=responded)
        return True

    # ------------------------------------------------------------ choices and moves skills ask for
    def clear_marks(self, until: str) -> None:
        for p in self.players:
            for key in [k for k, u in p.mark_until.items() if u == until or (until == "turn" and u == "phase")]:
                p.marks.pop(key, None)
                p.mark_until.pop(key, None)

    def choose_players(self, chooser: Player, candidates: list[Player], least: int, most: int,
                       prompt: str = "") -> list[Player]:
        chosen: list[Player] = []
        while len(chosen) < most:
            rest = [p for p in candidates if p not in chosen and p.alive]
            if not rest:
                break
            options = [Option(p.label(), p) for p in rest]
            if len(chosen) >= least:
                options.append(Option("完成", None))
            pick = self.ask(chooser, "target", prompt or f"選擇角色（{len(chosen) + 1}）", options).value
            if pick is None:
                break
            chosen.append(pick)
        return chosen

    def choose_own_cards(self, chooser: Player, zone: str, least: int, most: int) -> list[Card]:
        chosen: list[Card] = []
        while len(chosen) < most:
            rest = [c for c in self.zone_cards(chooser, zone) if c not in chosen]
            if not rest:
                break
            options = [Option(c.label(), c) for c in rest]
            if len(chosen) >= least:
                options.append(Option("完成", None))
            pick = self.ask(chooser, "pick_card", f"選擇牌（{len(chosen) + 1}）", options).value
            if pick is None:
                break
            chosen.append(pick)
        return chosen

    def choose_suit(self, chooser: Player) -> str:
        options = [Option(SUIT_ZH[s], s) for s in ("spade", "heart", "club", "diamond")]
        suit = self.ask(chooser, "suit", "選擇一種花色", options).value
        self.log(f"{chooser.label()}選擇了{SUIT_ZH[suit]}")
        return suit

    def give(self, giver: Player, receiver: Player, cards: list[Card]) -> None:
        if not cards or not receiver.alive:
            return
        self.log(f"{giver.label()}將{len(cards)}張牌交給{receiver.label()}")
        self.to_hand(receiver, cards)

    def look(self, player: Player, n: int) -> list[Card]:
        cards = []
        for _ in range(max(0, n)):
            card = self.draw_top()
            self.place(card, "processing", source=FROM_DECK)
            cards.append(card)
        self.log(f"{player.label()}觀看牌堆頂的{len(cards)}張牌")
        return cards

    def arrange(self, player: Player, n: int) -> None:
        """The player looks at the top n cards and puts each on the top or the bottom; the
        cards put on top are in the order chosen, the first chosen on top."""
        cards = [self.draw_top() for _ in range(max(0, min(n, len(self.deck) + len(self.discard_pile))))]
        top: list[Card] = []
        bottom: list[Card] = []
        rest = list(cards)
        while rest:
            card = self.ask(player, "pick_card", "選擇下一張牌", [Option(c.label(), c) for c in rest]).value
            rest.remove(card)
            where_to = self.ask(player, "arrange", f"將{card.label()}置於",
                                [Option("牌堆頂", "top"), Option("牌堆底", "bottom")]).value
            (top if where_to == "top" else bottom).append(card)
        self.deck.extend(reversed(top))
        self.deck[:0] = bottom
        self.log(f"{player.label()}將{len(top)}張牌置於牌堆頂，{len(bottom)}張牌置於牌堆底")

    def redirect(self, use: Use, old: Player, new: Player) -> None:
        use.targets = [new if t is old else t for t in use.targets]
        self.log(f"{use.card.label()}的目標由{old.label()}轉移給{new.label()}")

    def can_use_named(self, p: Player, kind_name: str) -> bool:
        kind = self.library.cards[kind_name]
        return self.can_play(p, kind, UsedCard.virtual(kind))

    def choose_named_targets(self, p: Player, kind_name: str) -> list[Player]:
        kind = self.library.cards[kind_name]
        card = UsedCard.virtual(kind)
        return self.choose_targets(p, kind, card, use_mode(kind, "play")) or []

    def use_virtual(self, p: Player, kind_name: str, targets: list[Player], counter: bool, limit: bool) -> bool:
        """p is treated as using a card of this kind, made of no real card."""
        targets = [t for t in targets if t.alive]
        if not p.alive or not targets:
            return False
        extra = {} if counter else {UNCOUNTERABLE: True}
        self.use_card(p, UsedCard.virtual(self.library.cards[kind_name]), targets, "play" if limit else "virtual",
                      extra=extra)
        return True

    # ------------------------------------------------------------ the turn
    def play_turn(self, player: Player, start: str | None = None) -> None:
        """A whole turn; with `start`, the turn is taken up at that phase (rulings set a
        table mid-turn): the turn windows before it are not opened again."""
        self.changed_skills()
        self.current = player
        self.turns += 1
        self.log(f"—— 第{self.turns}回合：{player.label()} ——")
        turn = Phase("turn", player)
        player.turn_cards = []
        if start is None:
            player.skipped = set()
        try:
            if start is None:
                self.open_window("turn_before", {"turn": turn})
                self.open_window("turn_start", {"turn": turn})
            for phase in PHASES[PHASES.index(start or PHASES[0]):]:
                if not player.alive:
                    break
                if phase in player.skipped:
                    self.log(f"{player.label()}跳過{PHASE_ZH[phase]}階段")
                    continue
                self.run_phase(player, phase)
            self.open_window("turn_end", {"turn": turn})
        except TurnEnded:
            pass
        finally:
            self.clear_marks("turn")
            if self.processing:
                self.to_discard(list(self.processing))
            self.use_stack.clear()
            self.depth = 0

    def run_phase(self, player: Player, phase: str) -> None:
        info = Phase(phase, player)
        self.open_window("phase_start", {"phase": info})
        if phase in player.skipped:
            return
        try:
            getattr(self, f"_phase_{phase}")(player, info)
            self.open_window("phase_end", {"phase": info})
        finally:
            self.clear_marks("phase")

    def _phase_prepare(self, player: Player, info: Phase) -> None:
        pass  # only skills act here (觀星, 洛神): they listen on phase_start

    def _phase_finish(self, player: Player, info: Phase) -> None:
        pass  # only skills act here (閉月): they listen on phase_start

    def _phase_judge(self, player: Player, info: Phase) -> None:
        for card in list(reversed(player.judge)):  # last placed first
            if card not in player.judge or not player.alive:
                continue
            self.resolve_delayed(player, card)

    def judged_kind(self, card: Card) -> CardKind:
        """What a card in a judge area counts as: its own kind, or the trick it was used as."""
        return self.judge_as.get(card.uid, card.kind)

    def resolve_delayed(self, player: Player, card: Card) -> None:
        kind = self.judged_kind(card)
        used = UsedCard.of(card) if kind is card.kind else UsedCard.virtual(kind, (card,))
        self.log(f"{player.label()}判定區的{used.label()}開始判定")
        self.place(card, "processing")
        use = Use(used, player, [player], "delayed")
        self.use_stack.append(use)
        previous, self.judged_player = self.judged_player, player
        try:
            self.resolve_for_target(use, player, {"use": use, "card": use.card, "user": player})
        finally:
            self.judged_player = previous
            self.use_stack.pop()
            if card in self.processing:
                self.to_discard([card])

    def _phase_draw(self, player: Player, info: Phase) -> None:
        info.count = 2
        self.open_window("draw_phase", {"phase": info})
        if info.count > 0:
            self.draw(player, info.count)

    def _phase_play(self, player: Player, info: Phase) -> None:
        player.used = {}
        for _ in range(MAX_ACTIONS_PER_PHASE):
            if not player.alive or "play" in player.skipped:
                return
            options = self.play_options(player)
            options.append(Option(END_PLAY, None))
            choice = self.ask(player, "play", "出牌階段：選擇要使用的牌", options).value
            if choice is None:
                return
            self.play_action(player, *choice)
        raise RulesError(f"more than {MAX_ACTIONS_PER_PHASE} actions in one play phase")

    def play_options(self, player: Player) -> list[Option]:
        options = [Option(f"重鑄{c.label()}", ("recast", c)) for c in player.hand if c.kind.recast]
        for skill in self.skills_of(player):
            for act in skill.actives:
                if act.once and player.used.get(ACTIVE_KEY + skill.name, 0) >= 1:
                    continue
                if act.cond is None or act.cond(Ctx(self, {"you": player})):
                    options.append(Option(f"發動【{skill.name}】", ("active", (skill, act))))
        for label, kind, subcards in self.castable(player, "play"):
            if self.can_play(player, kind, self.probe(kind, subcards)):
                options.append(Option(label, (kind, subcards)))
        return options

    def play_action(self, player: Player, kind: Any, subcards: Any) -> None:
        if kind == "recast":  # 重鑄: into the discard pile, then draw; not a use
            self.log(f"{player.label()}重鑄{subcards.label()}")
            self.place(subcards, "discard")
            self.draw(player, subcards.kind.recast)
            return
        if kind == "active":
            skill, act = subcards
            player.used[ACTIVE_KEY + skill.name] = player.used.get(ACTIVE_KEY + skill.name, 0) + 1
            self.log(f"{player.label()}發動【{skill.name}】")
            self.fired[skill.name] = self.fired.get(skill.name, 0) + 1
            self.run_block(act.body, Ctx(self, {"you": player}))
            return
        subcards = self.resolve_subcards(player, kind, subcards)
        card = self.make_card(kind, subcards)
        targets = self.choose_targets(player, kind, card, use_mode(kind, "play"))
        if not targets:
            return
        extra = self.choose_extra(player, card, targets) if kind.choose else {}
        if extra is None:
            return
        self.use_card(player, card, targets, "play", extra=extra)

    def choose_extra(self, user: Player, card: UsedCard, targets: list[Player]) -> dict[str, Player] | None:
        """The players a card's `choose` clauses name, picked with the targets (選擇目標時).
        Their rule may name the card's target (e.g. "in the target's range")."""
        chosen: dict[str, Player] = {}
        for var, rule, title in card.kind.choose:
            candidates = [p for p in self.seat_order(user)
                          if targets and self.target_ok(user, rule, p, card, extra={"target": targets[0]})]
            if not candidates:
                return None
            chosen[var] = self.ask(user, "target", f"選擇{title}", [Option(p.label(), p) for p in candidates]).value
        return chosen

    def _phase_discard(self, player: Player, info: Phase) -> None:
        limit = max(0, player.hp) + self.modifier_total(player, "hand_limit")
        excess = len(player.hand) - limit
        if excess > 0:
            self.discard_cards(player, excess, "hand")


FROM_DECK: tuple[str, None] = ("deck", None)


def where(zone: str, owner: Player | None) -> str:
    return (f"{owner.label()}的" if owner is not None else "") + zone_zh(zone)


def zone_zh(zone: str) -> str:
    return {"hand": "手牌", "equip": "裝備區", "judge": "判定區", "processing": "處理區",
            "discard": "棄牌堆", "deck": "牌堆"}.get(zone, zone)
