"""Hp, dying and death, and judgement: damage (with chain transmission), recovery, losing
hp, the rescue round, death with its mode rewards, and the judgement process."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.defs import CardKind, Ctx, Fn
from ..core.model import (
    NATURE_ZH,
    Card,
    Damage,
    Dying,
    GameOver,
    HpChange,
    Judge,
    Player,
    Recover,
    TurnEnded,
    UsedCard,
)
from ..core.native import mypyc_attr
from .decisions import Option
from .using import Subcards, is_conversion
from .zones import FROM_DECK

if TYPE_CHECKING:
    from .damage_rules import DamageRules
    from .filters import Filters
    from .kernel import Game
    from .moves import Moves
    from .seats import Seats
    from .skills import Skills
    from .triggers import Triggers
    from .using import Using
    from .zones import Zones


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class Hp:
    """Damage, recovery, hp loss, dying and death, and judgement; and running a block of text.
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    damage_rules: DamageRules
    filters: Filters
    moves: Moves
    seats: Seats
    skills: Skills
    triggers: Triggers
    using: Using
    zones: Zones

    def __init__(self, game: Game) -> None:
        self.game = game

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.damage_rules = game.damage_rules
        self.filters = game.filters
        self.moves = game.moves
        self.seats = game.seats
        self.skills = game.skills
        self.triggers = game.triggers
        self.using = game.using
        self.zones = game.zones


    # ------------------------------------------------------------ hp
    def damage(self, target: Player, amount: int, nature: str = "normal", source: Player | None = None,
               card: UsedCard | None = None, chained: bool = False, caused: bool = False) -> None:
        # `caused`: a transferred damage, whose source's window (causing_damage) has been opened
        game = self.game
        if not target.alive:
            return
        d = Damage(source, target, amount, nature, card, chained)
        d.use = game.use_stack[-1] if card is not None and game.use_stack else None
        if d.use is not None and d.use.damage_bonus and not chained and not caused and card is d.use.card:
            d.amount += d.use.damage_bonus  # the card's bonus is part of it from the start
        variables = {"damage": d}
        if source is not None and not chained and not caused:  # transmitted damage keeps the source's amount
            self.triggers.open_window("causing_damage", variables)
        base = d.amount  # what chain transmission passes on: after the source's window only
        if not d.prevented and d.amount > 0:
            self.triggers.open_window("taking_damage", variables)
        if d.prevented:  # logged by prevent_damage, where it happened
            return
        if d.amount <= 0:  # reduced to nothing in the window just closed: prevented there
            if game.logging:
                game.log(f"{damage_words(d)}減至0點，被防止")
            return
        source = d.source  # a skill may have changed the source
        transmits = d.nature != "normal" and target.chained and not chained
        target.hp -= d.amount
        game.table_version += 1
        game.damage_log.append(d)
        if game.logging:
            dealt = f"{source.label()}對{target.label()}造成" if source else f"{target.label()}受到"
            game.log(f"{dealt}{d.amount}點{NATURE_ZH[d.nature]}傷害（體力{target.hp}/{target.max_hp}）")
        ended: TurnEnded | None = None
        try:
            self.hp_changed(target, -d.amount, d)
            if target.alive and target.hp <= 0:
                self.enter_dying(target, d)
        except TurnEnded as stop:  # the current player died; the chain still passes on
            ended = stop
        if ended is None:
            if source is not None and source.alive:
                self.triggers.open_window("caused_damage", variables)
            if target.alive:
                self.triggers.open_window("damaged", variables)
            self.triggers.open_window("damage_end", variables)
        if d.nature != "normal" and target.chained:
            target.chained = False  # 傷害結算結束: a chained victim of nature damage is unchained
            if game.logging:
                game.log(f"{target.label()}解除連環狀態")
        if transmits:
            self.transmit(d, base)
        if ended is not None:
            raise ended

    def prevent_damage(self, d: Damage) -> None:
        if not d.prevented:
            d.prevented = True
            if self.game.logging:
                self.game.log(f"{damage_words(d, f'{d.amount}點{NATURE_ZH[d.nature]}')}被防止")

    def transmit(self, d: Damage, amount: int) -> None:
        """Chain transmission: every other chained player, in seat order from the current
        player, takes damage of the same source, nature and amount (the amount as the source
        dealt it), even if the first victim died; it is not transmitted again."""
        for p in self.seats.seat_order():
            if p.chained and p is not d.target:
                self.game.log(f"連環傳導至{p.label()}")
                self.damage(p, amount, d.nature, d.source, d.card, chained=True)

    def recover(self, player: Player, amount: int, source: Player | None = None,
                card: UsedCard | None = None) -> None:
        game = self.game
        if not player.alive or amount <= 0:
            return
        r = Recover(player, amount, source, card=card)
        self.triggers.open_window("recovering", {"recover": r})
        gained = min(r.amount, player.max_hp - player.hp)
        if r.prevented or gained <= 0:
            return
        player.hp += gained
        game.table_version += 1
        game.recover_log.append((r.source, player, gained))  # public: agents read who helped whom
        if game.logging:
            game.log(f"{player.label()}回復{gained}點體力（體力{player.hp}/{player.max_hp}）")
        self.hp_changed(player, gained)
        if player.alive:
            self.triggers.open_window("recovered", {"recover": r})

    def lose_hp(self, player: Player, amount: int) -> None:
        game = self.game
        if not player.alive or amount <= 0:
            return
        player.hp -= amount
        game.table_version += 1
        if game.logging:
            game.log(f"{player.label()}失去{amount}點體力（體力{player.hp}/{player.max_hp}）")
        self.hp_changed(player, -amount)
        if player.alive and player.hp <= 0:
            self.enter_dying(player, None)
        if player.alive:
            self.triggers.open_window("lost_hp", {"lose": Recover(player, amount, None)})

    def hp_changed(self, player: Player, delta: int, damage: Damage | None = None,
                   window: str = "hp_changed") -> None:
        """體力值改變後 (or 體力上限改變後): right after the change, before dying is checked;
        opened only when a living player's skill listens to it."""
        if delta and player.alive and self.triggers.listened(window):
            self.triggers.open_window(window, {"change": HpChange(player, delta, damage)})

    # ------------------------------------------------------------ dying and death
    def enter_dying(self, player: Player, damage: Damage | None) -> None:
        game = self.game
        held = self.damage_rules.kept_out_of_dying(player) if self.skills.has_modifiers(player, "dying") else None
        if held is not None:  # alive below 1 hp, not dying, while the condition holds
            if player.seat not in game.held_out:
                game.held_out.add(player.seat)
                game.fired[held] = game.fired.get(held, 0) + 1
                game.log_skill(player, held, f"{player.label()}體力為{player.hp}，因【{game.shown_name(held)}】不進入瀕死狀態")
            return
        game.held_out.discard(player.seat)
        player.dying = True
        if game.logging:
            game.log(f"{player.label()}進入瀕死狀態")
        dying = Dying(player, damage)
        self.triggers.open_window("dying", {"dying": dying})
        for saver in self.seats.seat_order():
            while player.hp <= 0 and saver.alive and player.alive:
                if not self.ask_save(saver, player):
                    break
            if player.hp > 0:
                break
        player.dying = False
        game.table_version += 1
        if player.hp <= 0 and player.alive and not self.damage_rules.survives(player, log=True):
            killer = damage.source if damage is not None else None
            self.die(player, killer)

    def settle_held_out(self) -> None:
        """The players kept out of the dying state at hp 0 or below whose condition no longer
        holds enter it now (seen at each free time: between actions and phases)."""
        game = self.game
        for seat in sorted(game.held_out):
            p = game.players[seat]
            if not p.alive or p.hp > 0:
                game.held_out.discard(seat)
            elif self.damage_rules.kept_out_of_dying(p) is None:
                game.held_out.discard(seat)
                self.enter_dying(p, None)

    def ask_save(self, saver: Player, dying: Player) -> bool:
        options = self.skills.credited(lambda: self.save_options(saver, dying))  # a prohibit may shape them
        if not options:
            return False
        options.append(Option("不使用", None))
        choice = self.game.ask(saver, "save", "是否使用牌救之？", options, f"{dying.label()}瀕死").value
        if choice is None:
            return False
        kind, subcards = choice
        return not self.using.use_card(saver, self.using.produce(saver, kind, subcards), [dying], "dying").void

    def save_options(self, saver: Player, dying: Player) -> list[Option]:
        options = []
        for card, kind, subcards in self.using.castable(saver, "dying"):
            mode = kind.mode("dying")  # (castable offers only cards with one)
            if mode is not None and self.using.target_ok(saver, mode.target, dying, self.probe(saver, kind, subcards)):
                options.append(Option(f"使用{card}", (kind, subcards)))
        return options

    def probe(self, p: Player, kind: CardKind, subcards: Subcards) -> UsedCard:
        """The card a castable option would make, for legality checks before cards are picked:
        a conversion is made of some cards it could take, so its suit and colour count."""
        if is_conversion(subcards):
            va = subcards[1]
            some = None if va.face_down else self.using.view_as_sample(p, va)
            return UsedCard.virtual(kind, some or ())
        if len(subcards) == 1 and subcards[0].kind is kind and p.seat not in self.filters.filter_table():
            # a real card read as printed: one view of it serves every legality check of the
            # game (text that reads cannot keep it, and nothing writes to it)
            card = subcards[0]
            used = self.game._probes.get(card.uid)
            if used is None or used.subcards[0] is not card:
                used = self.game._probes[card.uid] = UsedCard.of(card)
            return used
        return self.using.make_card(kind, subcards)

    def die(self, player: Player, killer: Player | None) -> None:
        game = self.game
        player.alive = False
        game.table_version += 1
        self.skills.changed_skills()
        game.log(f"{player.label()}陣亡{game.mode.death_note(player)}")
        try:
            game.mode.check_victory(game)
            self.death_window(player, killer)  # 死亡時 may end the game too (a death it sets off)
        except (GameOver, TurnEnded):  # the game, or the turn, ends in a death it sets off
            self._discard_everything(player)  # the dead keep no card, however it ends
            raise
        self._discard_everything(player)
        game.mode.after_death(game, player, killer)
        self.triggers.open_window("after_death", {"death": Dying(player, None), "killer": killer})
        if player is game.current:
            raise TurnEnded()

    def death_window(self, player: Player, killer: Player | None) -> None:
        """死亡時: the living are polled, and the dead player's own skills that act on it."""
        game = self.game
        own = [(player, s, t) for s in self.skills.skills_of(player, suppressed=True) for t in s.triggers.get("death", ())]
        outer, game.departed = game.departed, player
        try:
            self.triggers.open_window("death", {"death": Dying(player, None), "killer": killer}, own)
        finally:
            game.departed = outer

    def _discard_everything(self, player: Player) -> None:
        everything = player.hand + list(player.equips.values()) + player.judge
        if everything:
            self.zones.to_discard(everything, "discard")
        self.moves.empty_piles(player)

    # ------------------------------------------------------------ judgement
    def judge(self, player: Player) -> Judge:
        """Reveal the judge card and let retrials act (判定牌生效前). The result is then fixed
        and the text that asked for the judgement acts on it (判定牌生效); the after-window
        and the discard follow when that text's block ends (see `finish_judgements`)."""
        game = self.game
        self.finish_judgements()  # the text acted on an earlier judgement: its after-window comes first
        card = self.zones.draw_top()
        self.zones.place(card, "processing", source=FROM_DECK)
        j = Judge(player, card)
        game.judging += (j,)  # its card is read through the player's filters
        game.log(f"{player.label()}的判定牌是{self.filters.seen(card, player).label()}")
        self.triggers.open_window("judge_before", {"judge": j})
        result = self.skills.credited(lambda: self.filters.seen(j.card, player))  # a filter that reads it acts
        if game.logging:
            game.log(f"{player.label()}的判定結果是{result.label()}")
        self.after_block(functools.partial(self.finish_judgement, j))
        return j

    def finish_judgements(self) -> None:
        """The judgements the running block asked for earlier end now (判定牌生效後, the
        discard), before it asks for another: each judgement is whole before the next begins."""
        endings = self.game.block_endings
        if endings and endings[-1]:
            pending = [f for f in endings[-1] if isinstance(f, functools.partial) and f.func == self.finish_judgement]
            endings[-1][:] = [f for f in endings[-1] if f not in pending]
            for finish in pending:
                finish()

    def after_block(self, finish: Callable[[], None]) -> None:
        """`finish` runs when the block of text now running ends (at once outside any): what a
        process the text asked for does once the text has acted on its result (a judgement's
        after-window and discard, a point fight's cards going to the discard pile)."""
        if self.game.block_endings:
            self.game.block_endings[-1].append(finish)
        else:
            finish()

    def run_block(self, block: Fn, ctx: Ctx, asker: str) -> Any:
        """Run a card's or skill's block; what it asked for finishes when it ends. `asker`
        (the skill's name, or the card as used) asks the questions of the block's text."""
        game = self.game
        game.block_endings.append([])
        outer, game.asker = game.asker, asker
        try:
            result = block(ctx)
        except BaseException:  # the game or the turn ended: nothing more opens
            game.block_endings.pop()
            raise
        finally:
            game.asker = outer
        for finish in game.block_endings.pop():
            finish()
        return result

    def finish_judgement(self, j: Judge) -> None:
        """判定牌生效後, then the judge card goes to the discard pile unless a skill took it."""
        game = self.game
        self.triggers.open_window("judge_after", {"judge": j})
        game.judging = tuple(x for x in game.judging if x is not j)
        if j.card in game.processing:
            self.zones.to_discard([j.card], "judge")

    def replace_judge(self, j: Judge, card: Card) -> None:
        """Retrial: `card` becomes the judge card; the one it replaces is discarded."""
        game = self.game
        old = j.card
        zone, owner = self.zones.zone_of(card)
        who = f"{owner.label()}的" if owner else ""
        self.zones.place(card, "processing")
        j.card = card
        if game.logging:
            game.log(f"{who}{card.label()}代替{old.label()}成為判定牌")
        if old in game.processing:
            self.zones.to_discard([old], "judge")


def damage_words(d: Damage, size: str = "") -> str:
    """The damage named in a log line: who deals it to whom (no source: who takes it), with
    its size when given (`1點火焰`)."""
    whose = f"{d.source.label()}對{d.target.label()}" if d.source else f"{d.target.label()}受到"
    return f"{whose}的{size}傷害"
