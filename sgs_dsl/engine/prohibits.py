"""Prohibits (禁止技): `forbid KIND(PATTERN) [for SUBJECT] [when COND];` of any
living player's skills binds its subject (the owner, the others, or everyone) on every path
that uses, plays, answers with, targets or discards a card. The forbids in play are indexed
by kind once per change of skills, so a game where no skill forbids anything pays one
dictionary look-up per question."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.defs import Ctx, ForbidDef, Skill
from ..core.model import Card, Player, Use, UsedCard
from ..core.native import mypyc_attr

if TYPE_CHECKING:
    from .filters import Filters
    from .kernel import Game
    from .skills import Skills

# What a card produced in each context of `castable` counts as doing, for the prohibits.
CONTEXT_VERBS: dict[str, tuple[str, ...]] = {
    "play": ("use",),                      # free time, or a use asked for `on:` a target
    "dying": ("use",),
    "respond": ("use", "respond"),         # a card used in answer (閃 to 殺)
    "counter": ("use", "respond"),         # a card that counters a card (無懈可擊)
    "play_response": ("play", "respond"),  # a card played out (打出) when asked
}

Entry = tuple[Player, Skill, ForbidDef]


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class Prohibits:
    """Prohibits (禁止技) in play, indexed by kind and bound seat, and the checks every path asks.
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    filters: Filters
    skills: Skills

    def __init__(self, game: Game) -> None:
        self.game = game

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.filters = game.filters
        self.skills = game.skills



    def forbid_table(self) -> dict[str, list[Entry]]:
        """Every forbid of a living player's skills, by kind, in seat order (rebuilt after
        changed_skills)."""
        table = self.game._forbid_table
        return table if table is not None else self._index_forbids()[0]

    def _index_forbids(self) -> tuple[dict[str, list[Entry]], dict[tuple[str, int], list[Entry]]]:
        """forbid_table, and by kind and seat the forbids that bind that seat; kept on the game."""
        game = self.game
        table: dict[str, list[Entry]] = {}
        for owner in game.players:
            if owner.alive:
                for skill in self.skills.effective_skills(owner, suppressed=True):
                    for f in skill.forbids:
                        table.setdefault(f.kind, []).append((owner, skill, f))
        binding: dict[tuple[str, int], list[Entry]] = {}
        for kind, entries in table.items():
            for p in game.players:
                bound = [e for e in entries if e[2].subject == "all" or (e[2].subject == "you") == (e[0] is p)]
                if bound:
                    binding[kind, p.seat] = bound
        game._forbid_table, game._forbid_binding = table, binding
        return table, binding

    def forbid_binding(self) -> dict[tuple[str, int], list[Entry]]:
        """The prohibits binding each seat, by (kind, seat): forbid_table's second index."""
        binding = self.game._forbid_binding
        return binding if binding is not None else self._index_forbids()[1]

    def forbidden(self, p: Player, kind: str, card: UsedCard, user: Player) -> bool:
        """A forbid binding p stops this: p may not be targeted by (`target`; `user` uses the
        card), or use, play out, answer with or discard (`user` is p) the card."""
        game = self.game
        binding = game._forbid_binding  # read inline: this is asked for every card and target
        entries = (binding if binding is not None else self.forbid_binding()).get((kind, p.seat))
        if not entries:
            return False
        for owner, skill, f in entries:
            if skill.slot == "armor" and game.use_stack and self.skills.armor_ignored(owner):
                continue
            if f.matches(card) and (f.cond is None or f.cond(
                    Ctx(game, {"you": owner, "player": p, "user": user, "card": card}))):
                self.skills.credit(f.skill)
                return True
        return False

    def may_reveal(self, p: Player) -> bool:
        """No `forbid reveal` binds p now: p may show a face-down general (國戰)."""
        for owner, _skill, f in self.forbid_binding().get(("reveal", p.seat), ()):
            if f.cond is None or f.cond(Ctx(self.game, {"you": owner, "player": p, "user": p})):
                self.skills.credit(f.skill)
                return False
        return True

    def may_forbid(self, context: str) -> bool:
        """Some prohibit in play is about what a `castable` context produces (else none can stop it)."""
        table = self.game._forbid_table
        if table is None:
            table = self.forbid_table()
        return bool(table) and any(table.get(verb) for verb in CONTEXT_VERBS.get(context, ()))

    def forbidden_in(self, p: Player, context: str, card: UsedCard) -> bool:
        """p may not produce this card in a `castable` context (use, play out, respond)."""
        return any(self.forbidden(p, verb, card, p) for verb in CONTEXT_VERBS.get(context, ()))

    def discardable(self, p: Player, cards: list[Card]) -> list[Card]:
        """The cards p may discard: those no `forbid discard` binding p matches."""
        if not self.forbid_table().get("discard"):
            return cards
        return [c for c in cards if not self.forbidden(p, "discard", self.filters.seen_used(c, p), p)]

    def redirect_refused(self, use: Use, new: Player) -> bool:
        """A use may not be moved to a player who may not be its target."""
        return self.forbidden(new, "target", use.card, use.user)
