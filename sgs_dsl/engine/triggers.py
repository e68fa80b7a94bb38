"""Windows and triggers: who listens on each window, the order they fire in, and one firing."""


from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.defs import Ctx, Skill, TriggerDef
from ..core.model import (
    MAX_DEPTH,
    PHASE_ZH,
    Damage,
    Move,
    Player,
)
from ..core.native import mypyc_attr
from ..core.windows import WINDOW_BY_ID
from .decisions import Option
from .turn import ACTIVE_KEY, END_PLAY, MAX_ACTIONS_PER_PHASE
from .using import EQUIP_USE, use_mode
from .zones import FROM_DECK, where, zone_zh

if TYPE_CHECKING:
    from .filters import Filters
    from .hp import Hp
    from .kernel import Game
    from .prohibits import Prohibits
    from .skills import Skills
    from .state import PlayerState

INVOKE, NOT_INVOKE = "發動", "不發動"  # the answers to an optional skill's question

__all__ = ["ACTIVE_KEY", "END_PLAY", "EQUIP_USE", "FROM_DECK", "MAX_ACTIONS_PER_PHASE", "MAX_DEPTH",
           "Game", "use_mode", "where", "zone_zh"]




@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class Triggers:
    """Windows and triggers: who listens on each window, in what order they fire, and one firing.
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    filters: Filters
    hp: Hp
    state: PlayerState
    prohibits: Prohibits
    skills: Skills

    def __init__(self, game: Game) -> None:
        self.game = game

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.filters = game.filters
        self.hp = game.hp
        self.state = game.state
        self.prohibits = game.prohibits
        self.skills = game.skills


    def listened(self, window: str) -> bool:
        """Some living player's skill listens to the window (those opened only then)."""
        return bool((self.game._listeners if self.game._listeners is not None else self.listeners()).get(window))

    def listeners(self) -> dict[str, list[tuple[Player, Skill, TriggerDef]]]:
        game = self.game
        if game._listeners is None:
            table: dict[str, list[tuple[Player, Skill, TriggerDef]]] = {}
            for p in game.players:
                if not p.alive:
                    continue
                for skill in self.skills.skills_of(p, suppressed=True):
                    for window, triggers in skill.triggers.items():
                        for t in triggers:
                            table.setdefault(window, []).append((p, skill, t))
            game._listeners = table
        return game._listeners

    def open_window(self, window: str, variables: dict[str, Any],
                    extra: list[tuple[Player, Skill, TriggerDef]] | None = None) -> None:
        """Poll every trigger on `window`: players from the current one in seat order; for
        one player, hero skills before equipment, in the order the player chooses, each once.
        After each resolution the triggers are gathered again (a skill gained in the window
        answers in it while its owner's turn in the poll has not passed; one lost does not).
        `extra`: triggers of a player the listeners leave out (the dead, at their death)."""
        game = self.game
        game.windows_opened += 1
        if game.tracing:
            game.trace(f"  〔時機〕{window_label(window, variables)}")
        table = self.listeners()
        entries = table.get(window)
        if extra:
            entries = (entries or []) + extra
        if not entries:
            return
        if len(entries) == 1:  # one listener: no seats to order
            self._fire_own(entries, variables, window)
            if game._listeners is table:
                return
        n = len(game.players)
        place = game.place_of
        start = place[game.current.seat]
        passed = -1  # the place in the poll of the last seat asked
        if len(entries) == 1:
            passed = (place[entries[0][0].seat] - start) % n
            table = self.listeners()
            entries = (table.get(window) or []) + (extra or [])
        while True:
            by_seat: dict[int, list[tuple[Player, Skill, TriggerDef]]] = {}
            for entry in entries:
                if (place[entry[0].seat] - start) % n > passed:
                    by_seat.setdefault(entry[0].seat, []).append(entry)
            for seat in sorted(by_seat, key=lambda s: (place[s] - start) % n):
                passed = (place[seat] - start) % n
                self._fire_own(by_seat[seat], variables, window)
                if game._listeners is not table:  # a skill gained or lost: gather the rest again
                    table = self.listeners()
                    entries = (table.get(window) or []) + (extra or [])
                    break
            else:
                return

    def skip_window(self, window: str) -> bool:
        """True when opening `window` would poll no one and trace nothing (most windows of most
        games): it is counted as opened, and the caller need not build its payload."""
        game = self.game
        if game.tracing or window in (game._listeners if game._listeners is not None else self.listeners()):
            return False
        game.windows_opened += 1
        return True

    def _fire_own(self, entries: list[tuple[Player, Skill, TriggerDef]], variables: dict[str, Any],
                  window: str, leaving: bool = False) -> None:
        game = self.game
        remaining = list(entries)
        table = game._listeners
        done: set[tuple[int, int]] = set()  # (skill, trigger) answered in this window
        while remaining:
            if window in TARGET_WINDOWS and variables["target"] not in variables["use"].targets:
                return  # cancelled (取消) or redirected: the rest of this target's window is gone
            ready = [(e, ctx) for e in remaining if (ctx := self._ready(e, variables, leaving)) is not None]
            if not ready:
                return
            first_class = [r for r in ready if bool(r[0][1].slot) == bool(ready[0][0][1].slot)]
            if game.mode.locked_first and any("locked" in r[0][1].tags for r in first_class) and not any(
                    game.mode.hidden(r[0][0], r[0][1]) for r in first_class):
                # locked skills first, except while generals are still to be shown: the player
                # then orders the skills as they choose which general to show first (Q&A 7)
                first_class = [r for r in first_class if "locked" in r[0][1].tags]
            if len(first_class) > 1:
                options = [Option(f"【{r[0][1].name}】", r) for r in first_class]
                chosen = game.ask(first_class[0][0][0], "order", "選擇先結算的技能", options,
                                  window_label(window, variables)).value
            else:
                chosen = first_class[0]
            (p, skill, trig), ctx = chosen
            remaining.remove(chosen[0])
            done.add((id(skill), id(trig)))
            # a face-down general's skill asks to be shown, a locked one too (Q&A 7); keeping a
            # record is no invocation: it shows nothing
            waiting = game.mode.hides_skills and not trig.bookkeeping and game.mode.hidden(p, skill)
            asked = p
            if trig.by is not None:  # `optional by PLAYER`: that player decides
                asked = trig.by(ctx)
                if asked is None or not asked.alive:
                    continue
            if (trig.optional or waiting) and not game.confirm(asked, "是否發動？", INVOKE, NOT_INVOKE, skill.key):
                whose = f"{p.label()}的" if asked is not p else ""
                game.log_skill(p, skill, f"{asked.label()}不發動{whose}【{skill.name}】")
                continue
            if waiting:
                game.mode.on_invoke(game, p, skill)  # a face-down general is shown, then the skill acts
            self._fire(p, skill, trig, ctx, self._times(trig, variables), asked)
            if game._listeners is not table and not leaving:  # a skill gained or lost: gather again
                table = self.listeners()
                remaining = self._gathered_again(p, window, remaining, done, table)

    @staticmethod
    def _gathered_again(p: Player, window: str, remaining: list[tuple[Player, Skill, TriggerDef]],
                        done: set[tuple[int, int]],
                        table: dict[str, list[tuple[Player, Skill, TriggerDef]]]) -> list[tuple[Player, Skill, TriggerDef]]:
        """The player's triggers on the window still to answer: those it still has, and those
        of skills it gained; a dead player's (at its death) stay as they were."""
        listed = [e for e in table.get(window, ()) if e[0] is p]
        keys = {(id(e[1]), id(e[2])) for e in listed}
        kept = [e for e in remaining if (id(e[1]), id(e[2])) in keys or not e[0].alive]
        known = done | {(id(e[1]), id(e[2])) for e in kept}
        return kept + [e for e in listed if (id(e[1]), id(e[2])) not in known]

    def _heard(self, trig: TriggerDef, p: Player, variables: dict[str, Any]) -> bool:
        """An `each_card` trigger hears this card of the move: its guard and condition hold
        with `move` that card (its zone, its card)."""
        if not all(concern.holds(variables, p) for concern in trig.guard):
            return False
        return trig.cond is None or bool(trig.cond(Ctx(self.game, {"you": p, **variables})))

    @staticmethod
    def _times(trig: TriggerDef, variables: dict[str, Any]) -> int:
        """How often a firing repeats: per point of its damage or hp change (per card of a
        move: `_fire` counts the cards heard)."""
        if trig.each_point:
            damage: Damage | None = variables.get("damage")
            return damage.amount if damage is not None else abs(variables["change"].delta)
        return 1

    def _fire(self, p: Player, skill: Skill, trig: TriggerDef, ctx: Ctx, times: int,
              asked: Player | None = None) -> None:
        game = self.game
        budget = game.budget
        if not trig.bookkeeping:  # limited and wake skills fire once a game; keeping a record spends nothing
            self.state.spend(p, skill)
        views: list[Move] = []
        if trig.each_card:  # once per card of the move it hears (梟姬: the equipment among them)
            views = [v for v in ctx.vars["move"].views() if self._heard(trig, p, {**ctx.vars, "move": v})]
            times = len(views)
        for i in range(times):
            if i and (not p.alive or (trig.optional and not game.confirm(
                    asked or p, "是否再次發動？", INVOKE, NOT_INVOKE, skill.key))):
                break
            if views:  # each firing hears one card of the move
                ctx.vars["move"] = views[i]
            budget.steps -= 1  # a firing costs a step even when its body is empty
            if budget.steps < 0:
                budget.ran_out(trig.span)
            self._log_firing(p, skill, trig, asked)
            # a record kept is no invocation, and a helper carries out an earlier one: neither is counted
            if not trig.bookkeeping and (skill.rule or not trig.helper):
                game.fired[skill.key] = game.fired.get(skill.key, 0) + 1
                if skill.slot and self.filters.treated_as(p, skill):  # and the skill that gives the equipment acts
                    for name in self.filters.equipment_givers(p, skill):
                        game.fired[name] = game.fired.get(name, 0) + 1
            outer, budget.firing = budget.firing, trig
            try:
                self.hp.run_block(trig.body, ctx, skill.key)
            finally:
                budget.firing = outer

    def _log_firing(self, p: Player, skill: Skill, trig: TriggerDef, asked: Player | None = None) -> None:
        game = self.game
        if trig.bookkeeping:  # the players see nothing; a ruling's trace shows the record kept
            if game.tracing:
                game.trace(f"  〔記錄〕{p.label()}的【{skill.name}】")
            return
        if not skill.rule:
            if asked is not None and asked is not p:  # another player invokes the owner's skill (頌威)
                game.log_skill(p, skill, f"{asked.label()}發動{p.label()}的【{skill.name}】")
            else:
                game.log_skill(p, skill, f"{p.label()}的【{skill.name}】生效" if trig.helper else f"{p.label()}發動【{skill.name}】")
            return
        # a card's rule is not a skill anyone invokes: it takes effect, once on a use of a
        # card however many windows of that use it acts in (酒: the 殺's use and its damage)
        use = game.use_stack[-1] if game.use_stack else None
        ruled = use.ruled if use is not None else set()
        if (skill.key, p.seat) not in ruled:
            ruled.add((skill.key, p.seat))
            if game.logging:
                game.log(f"【{skill.name}】對{p.label()}生效")

    def _ready(self, entry: tuple[Player, Skill, TriggerDef], variables: dict[str, Any],
               leaving: bool = False) -> Ctx | None:
        """The context to fire a trigger in, or None when it cannot fire now."""
        game = self.game
        p, skill, trig = entry
        if trig.each_card:  # heard card by card: ready when some card of the move is heard
            if not any(self._heard(trig, p, {**variables, "move": view}) for view in variables["move"].views()):
                return None
        elif not all(concern.holds(variables, p) for concern in trig.guard):  # who the window is about (compiler.guards)
            return None
        if not p.alive and p is not game.departed:  # the dead act at their death
            return None
        if p.spent and skill.key in p.spent:  # a spent limited or wake skill
            return None
        damage = variables.get("damage")  # a prevented damage ends its windows
        if damage is not None and damage.prevented:
            return None
        asked = variables.get("asked")  # and a need already met: nothing more is offered for it
        if asked is not None and asked.provided is not None:
            return None
        if skill.slot and not leaving and (
                p.equips.get(skill.slot) is None or p.equips[skill.slot].kind.skill is not skill) and (
                not self.filters.treated_as(p, skill)):
            return None
        if skill.slot == "armor" and self.skills.armor_ignored(p):
            return None
        hidden = game.mode.hides_skills and game.mode.hidden(p, skill)
        if hidden and trig.helper:
            return None  # a face-down general's skill acts only when invoked, which shows it
        ctx = Ctx(game, {"you": p, **variables})
        if trig.cond is not None and not trig.each_card and not trig.cond(ctx):
            return None
        if hidden and not self.skills.credited(lambda: self.prohibits.may_reveal(p)):
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
