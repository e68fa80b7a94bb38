"""The turn: its windows, the six phases and their bodies, and free time in the play phase."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.defs import CardKind, Ctx, ViewAsDef
from ..core.model import (
    PHASE_ZH,
    PHASES,
    Card,
    Phase,
    Player,
    RulesError,
    TurnEnded,
    Use,
    UsedCard,
)
from ..core.native import mypyc_attr
from .decisions import Option
from .using import use_mode

if TYPE_CHECKING:
    from .attached import Attached
    from .choices import Choices
    from .extra_turns import ExtraTurns
    from .hp import Hp
    from .kernel import Game
    from .moves import Moves
    from .seats import Seats
    from .skills import Skills
    from .state import PlayerState
    from .triggers import Triggers
    from .using import Using
    from .zones import Zones

MAX_ACTIONS_PER_PHASE = 300
MAX_EXTRA_PHASES = 100  # extra phases in a row: more is text that grants itself phases forever
END_PLAY = "結束出牌"  # the play-phase option that ends the phase
ACTIVE_KEY = "skill:"  # Player.used key prefix for a skill's play-phase uses


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class Turn:
    """The turn: its windows, the six phases and their bodies, free time in the play phase.
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    attached: Attached
    choices: Choices
    extra_turns: ExtraTurns
    hp: Hp
    moves: Moves
    state: PlayerState
    seats: Seats
    skills: Skills
    triggers: Triggers
    using: Using
    zones: Zones

    def __init__(self, game: Game) -> None:
        self.game = game
        # each phase's body, by the phase's name (core.model.PHASES)
        self.bodies: dict[str, Callable[[Player, Phase], None]] = {
            "prepare": self._phase_prepare, "judge": self._phase_judge, "draw": self._phase_draw,
            "play": self._phase_play, "discard": self._phase_discard, "finish": self._phase_finish}

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.attached = game.attached
        self.choices = game.choices
        self.extra_turns = game.extra_turns
        self.hp = game.hp
        self.moves = game.moves
        self.state = game.state
        self.seats = game.seats
        self.skills = game.skills
        self.triggers = game.triggers
        self.using = game.using
        self.zones = game.zones



    # ------------------------------------------------------------ the turn
    def play_turn(self, player: Player, start: str | None = None, extra: bool = False) -> None:
        """A whole turn; with `start`, the turn is taken up at that phase (rulings set a
        table mid-turn): the turn windows before it are not opened again. What starts and
        ends with a turn happens here, in this order: the round (a regular turn whose seat is
        at or before the last regular one's), a skipped turn (skip_turn), the turn's history,
        the windows, turning face up, the phases."""
        game = self.game
        game.extra_phases.clear()  # phases granted in a turn that ended early are lost with it
        if not extra:
            self._maybe_new_round(player)
        game.current = player
        game.turns += 1
        if game.logging:
            game.log(f"—— 第{game.turns}回合：{player.label()} ——")
        if start is None and self.extra_turns.turn_skipped(player):  # skip_turn: the turn counts, nothing is played
            return
        game.turn_log.append(player)
        if game.history.on:  # some text queries what happened this turn
            game.history.start("turn", len(game.damage_log))
        turn = Phase("turn", player)
        player.turn_cards = []
        if start is None:
            player.skipped = set()
        game.budget.new_action()  # the turn's opening windows
        try:
            if start is None:
                self.triggers.open_window("turn_before", {"turn": turn})
                if self.state.turns_back(player):  # turned over: face up again, and the turn is skipped
                    game.turn_log.pop()  # skipped, not played (rulings: `turns`, `skipped N turn`)
                    game.skipped_log.append((player, "turn"))
                    return
                self.triggers.open_window("turn_start", {"turn": turn})
            for phase in PHASES[PHASES.index(start or PHASES[0]):]:
                if game.held_out:  # kept out of dying: is the condition still holding?
                    self.hp.settle_held_out()
                if game.on_free_time is not None:  # between phases nothing is resolving
                    game.on_free_time()
                if not player.alive:
                    break
                if phase in player.skipped:
                    game.log(f"{player.label()}跳過{PHASE_ZH[phase]}階段")
                    game.skipped_log.append((player, phase))
                    continue
                self.run_phase(player, phase)
            game.budget.new_action()
            self.triggers.open_window("turn_end", {"turn": turn})
        except TurnEnded:
            pass
        finally:
            self.choices.clear_marks("turn")
            if game.processing:
                self.zones.to_discard(list(game.processing))
            game.use_stack.clear()

    def _maybe_new_round(self, player: Player) -> None:
        """A round (輪) starts with the first regular turn, and with each one whose seat is at
        or before the previous regular turn's (the seat order wrapped round): what lasts a
        round ends, and the history starts a new round."""
        game = self.game
        last, game.last_regular_seat = game.last_regular_seat, player.seat
        if last is not None and player.seat > last:
            return
        self.choices.clear_marks("round")
        if game.history.on:
            game.history.start_round(len(game.damage_log))

    def run_phase(self, player: Player, phase: str) -> None:
        """A phase, then the extra phases granted during it, first granted first."""
        game = self.game
        self._one_phase(player, phase, extra=False)
        for _ in range(MAX_EXTRA_PHASES):
            if not game.extra_phases:
                return
            owner, granted = game.extra_phases.pop(0)
            if owner.alive:
                game.log(f"{owner.label()}執行額外的{PHASE_ZH[granted]}階段")
                self._one_phase(owner, granted, extra=True)
        raise RulesError(f"runaway text: more than {MAX_EXTRA_PHASES} extra phases in a row", game.granted_by)

    def _one_phase(self, player: Player, phase: str, extra: bool) -> None:
        """階段開始前 (only when someone listens), then the phase's windows and body. A skip of
        the regular phase does not reach an extra one, nor a skip of an extra one the regular."""
        game = self.game
        held = extra and phase in player.skipped
        if held:
            player.skipped.discard(phase)
        info = Phase(phase, player)
        outer, game.phase_now = game.phase_now, phase
        try:
            if "phase_before" in (game._listeners if game._listeners is not None else self.triggers.listeners()):
                game.budget.new_action()
                self.triggers.open_window("phase_before", {"phase": info})
                if phase in player.skipped:
                    game.log(f"{player.label()}跳過{PHASE_ZH[phase]}階段")
                    game.skipped_log.append((player, phase))
                    return
            game.phase_log.append((player, phase))
            player.play_ended = False
            if game.history.on:
                game.history.start("phase", len(game.damage_log))
            game.budget.new_action()
            game.mode.phase_starting(game, player, phase)  # 國戰: generals shown as the turn starts
            if not self.triggers.skip_window("phase_start"):
                self.triggers.open_window("phase_start", {"phase": info})
            if phase in player.skipped:
                game.skipped_log.append((player, phase))  # skipped as it started
                return
            try:
                self.bodies[phase](player, info)
                if not self.triggers.skip_window("phase_end"):
                    self.triggers.open_window("phase_end", {"phase": info})
            finally:
                self.choices.clear_marks("phase")
        finally:
            game.phase_now = outer
            if extra:
                (player.skipped.add if held else player.skipped.discard)(phase)

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
        return self.game.judge_as.get(card.uid, card.kind)

    def face(self, card: Card) -> str:
        """A card as the table reads it where it lies: one that lies in a judge area as another
        trick (a conversion) as that trick made of it, 【樂不思蜀】(【閃】♦4); any other by its face."""
        kind = self.game.judge_as.get(card.uid) if self.game.judge_as else None
        return card.label() if kind is None or kind is card.kind else UsedCard.virtual(kind, (card,)).label()

    def resolve_delayed(self, player: Player, card: Card) -> None:
        game = self.game
        kind = self.judged_kind(card)
        used = UsedCard.of(card) if kind is card.kind else UsedCard.virtual(kind, (card,))
        if game.logging:
            game.log(f"{player.label()}判定區的{self.face(card)}開始判定")
        self.zones.place(card, "processing")
        use = Use(used, player, [player], "delayed")
        game.use_stack.append(use)
        previous, game.judged_player = game.judged_player, player
        try:
            self.using.resolve_for_target(use, player, {"use": use, "card": use.card, "user": player})
        finally:
            game.judged_player = previous
            game.use_stack.pop()
            self.using.discard_leftovers(use)

    def _phase_draw(self, player: Player, info: Phase) -> None:
        info.count = 2
        self.triggers.open_window("draw_phase", {"phase": info})
        if info.count > 0:
            self.zones.draw(player, info.count)

    def _phase_play(self, player: Player, info: Phase) -> None:
        game = self.game
        player.used = {}
        for _ in range(MAX_ACTIONS_PER_PHASE):
            if not player.alive or "play" in player.skipped or player.play_ended:  # end_play
                return
            if game.held_out:  # kept out of dying: is the condition still holding?
                self.hp.settle_held_out()
                if not player.alive:
                    return
            if game.on_free_time is not None:  # between actions nothing is resolving
                game.on_free_time()
            candidates, legal = self.play_candidates(player)
            choice = game.ask(player, "play", "選擇要使用的牌", candidates, "出牌階段", legal=legal).value
            if choice is None:
                return
            game.budget.new_action()  # each free-time choice is an action of its own
            self.play_action(player, *choice)
        raise RulesError(f"more than {MAX_ACTIONS_PER_PHASE} actions in one play phase")

    def play_options(self, player: Player) -> list[Option]:
        """The play phase's legal actions, in the order they are offered (ending it last)."""
        candidates, legal = self.play_candidates(player)
        return [o for o in candidates if legal(o)]

    def play_candidates(self, player: Player) -> tuple[list[Option], Callable[[Option], bool]]:
        """The play phase's actions before each card is checked, and the check: the actions
        legal by construction (recasts, active skills, actions others' skills give, the mode's,
        conversions to recast, ending the phase), and each card or conversion that may be
        played, which `legal` accepts only if it can be played now."""
        game = self.game
        options = [Option(f"重鑄{c.label()}", ("recast", c)) for c in player.hand if c.kind.recast]
        for skill in self.skills.offered_skills(player):
            for act in skill.actives:
                if act.once and player.used.get(ACTIVE_KEY + skill.key, 0) >= 1:
                    continue
                if player.spent and skill.key in player.spent:  # a spent limited skill
                    continue
                if act.cond is None or act.cond(Ctx(game, {"you": player})):
                    options.append(Option(f"發動【{skill.name}】", ("active", (skill, act))))
        options += self.attached.attached_options(player)  # actions other players' skills give
        options += game.mode.play_options(game, player)
        options += self.recast_options(player)
        options += [Option(label, (kind, subcards)) for label, kind, subcards in self.using.castable(player, "play")]
        options.append(Option(END_PLAY, None))
        alike = self.using.kinds_judged_alike(player)
        verdicts: dict[CardKind, bool] = {}  # kind -> can_play, for real cards judged alike

        def legal(option: Option) -> bool:
            if option.value is None or option.value[0].__class__ is str:  # legal by construction
                return True
            kind, subcards = option.value
            ok = verdicts.get(kind) if alike and subcards[0] != "view_as" else None
            if ok is None:
                ok = self.using.can_play(player, kind, self.hp.probe(player, kind, subcards))
                if alike and subcards[0] != "view_as" and _card_free(kind):
                    verdicts[kind] = ok
            return ok
        return options, legal

    def play_action(self, player: Player, kind: Any, subcards: Any) -> None:
        game = self.game
        if kind == "recast":  # 重鑄: into the discard pile, then draw; not a use
            if game.logging:
                game.log(f"{player.label()}重鑄{subcards.label()}")
            self.recast(player, [subcards], subcards.kind.recast)
            return
        if kind == "recast_as":  # a conversion's cards recast as the card they count as
            self.recast_as(player, subcards)
            return
        if kind == "attach":  # an action another player's skill gives
            self.attached.run_attached(player, subcards)
            return
        if kind == "mode":  # an action of the mode's own (國戰: show a general)
            game.mode.play_action(game, player, subcards)
            return
        if kind == "active":
            skill, act = subcards
            player.used[ACTIVE_KEY + skill.key] = player.used.get(ACTIVE_KEY + skill.key, 0) + 1
            if game.mode.hides_skills:
                game.mode.on_invoke(game, player, skill)
            self.state.spend(player, skill)
            game.log_skill(player, skill, f"{player.label()}發動【{skill.name}】")
            game.fired[skill.key] = game.fired.get(skill.key, 0) + 1
            outer, game.budget.firing = game.budget.firing, act  # the text running, to name if it runs away
            try:
                self.hp.run_block(act.body, Ctx(game, {"you": player}), skill.key)
            finally:
                game.budget.firing = outer
            return
        card = self.using.produce(player, kind, subcards)
        mode = use_mode(kind, "play")
        assert mode is not None, "castable offers only cards with a use in the play phase"
        targets = self.using.choose_targets(player, kind, card, mode, play=True)
        if not targets:
            return
        extra = self.choose_extra(player, card, targets) if kind.choose else {}
        if extra is None:
            return
        self.using.use_card(player, card, targets, "play", extra=extra)

    def recast_options(self, player: Player) -> list[Option]:
        """The conversions that may be recast (`view_as ... for use or recast`) with cards to do it."""
        options = []
        for skill in self.skills.offered_skills(player):
            for va in skill.view_as:
                if "recast" not in va.modes or (va.cond is not None and not va.cond(Ctx(self.game, {"you": player, "name": va.kind_name}))):
                    continue
                if self.using.view_as_sample(player, va) is not None:
                    options.append(Option(f"【{skill.name}】當【{va.kind_name}】重鑄{va.label}", ("recast_as", va)))
        return options

    def recast_as(self, player: Player, va: ViewAsDef) -> None:
        game = self.game
        kind = game.kind_named(va.kind_name)
        cards = self.using.pick_for(player, va, f"選擇當【{kind.name}】重鑄的牌")
        self.using.invoked(player, va.skill)
        if game.logging:
            game.log_skill(player, va.skill, f"{player.label()}發動【{game.shown_name(va.skill)}】，將{'、'.join(c.label() for c in cards)}當【{kind.name}】重鑄")
        self.recast(player, cards, kind.recast)

    def recast(self, player: Player, cards: list[Card], draw: int) -> None:
        """重鑄: the cards go into the discard pile (one move), then the player draws; not a use."""
        self.moves.move_cards(cards, "discard", None, "recast")
        self.zones.draw(player, draw)

    def choose_extra(self, user: Player, card: UsedCard, targets: list[Player]) -> dict[str, Player] | None:
        """The players a card's `choose` clauses name, picked with the targets (選擇目標時).
        Their rule may name the card's target (e.g. "in the target's range")."""
        chosen: dict[str, Player] = {}
        for var, rule, title in card.kind.choose:
            candidates = self.using.targets_ok(user, rule, self.seats.seat_order(user), card,
                                         extra={"target": targets[0]}) if targets else []
            if not candidates:
                return None
            options = [Option(p.label(), p) for p in candidates]
            chosen[var] = self.game.ask(user, "target", f"選擇{title}", options, card.label()).value
        return chosen

    def _phase_discard(self, player: Player, info: Phase) -> None:
        spared = self.uncounted_hand(player)
        counted, base = len(player.hand) - len(spared), max(0, player.hp)
        limit = self.skills.modified(player, "hand_limit", base, credit=False)
        if max(0, counted - limit) != max(0, counted - base):  # the skills that changed it decide the discard
            self.skills.credited(lambda: self.skills.modified(player, "hand_limit", base))
        excess = counted - limit - self.game.mode.hand_limit_bonus(self.game, player)
        if excess > 0:
            self.zones.discard_cards(player, excess, "hand", asker="棄牌階段", spare=spared)

    def uncounted_hand(self, player: Player) -> list[Card]:
        """The hand cards a `modify hand_limit(PATTERN) = unlimited` keeps out of the count
        (不計入手牌上限): they neither count nor need be discarded."""
        spared = []
        for m in self.skills.modifiers(player, "hand_limit"):
            ctx = Ctx(self.game, {"you": player})
            if m.matches is None or (m.cond is not None and not m.cond(ctx)):
                continue
            mine = [c for c in player.hand if m.matches(c) and c not in spared]
            if mine:
                spared += mine
                self.skills.credit(m.skill)
        return spared


FROM_DECK: tuple[str, None] = ("deck", None)


def _card_free(kind: CardKind) -> bool:
    """can_play reads no more of a card of this kind than its kind: equipment (no targets),
    or a target rule whose condition never reads the card."""
    mode = use_mode(kind, "play")
    return mode is None or kind.is_equip or mode.target is None or mode.target.card_free
