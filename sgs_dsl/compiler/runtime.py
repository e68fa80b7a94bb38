"""What each effect and function of the language does, in terms of the kernel's processes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.model import PHASE_ZH, Card, RulesError, UsedCard
from .defs import Ctx


def _real(card: Any) -> Card | None:
    if isinstance(card, UsedCard):
        return card.subcards[0] if len(card.subcards) == 1 else None
    return card


def draw(ctx: Ctx, player, n) -> None:
    ctx.game.draw(player, n)


def damage(ctx: Ctx, player, n, nature="normal", by=None, card=None) -> None:
    ctx.game.damage(player, n, nature, by, card)


def recover(ctx: Ctx, player, n) -> None:
    ctx.game.recover(player, n, ctx.vars.get("user") or ctx.vars.get("you"))


def lose_hp(ctx: Ctx, player, n) -> None:
    ctx.game.lose_hp(player, n)


def discard(ctx: Ctx, player, n, **kw) -> bool:
    return ctx.game.discard_cards(player, n, kw["from"], kw["optional"], kw["keep"])


def throw(ctx: Ctx, card) -> None:
    ctx.game.throw(_real(card))


def gain(ctx: Ctx, player, card) -> None:
    ctx.game.gain(player, _real(card))


def pick(ctx: Ctx, chooser, source, zone=None):
    if zone is None:
        if not isinstance(source, list):
            raise RulesError("pick(p, cards) needs a list of cards")
        return ctx.game.pick_from(chooser, source)
    if source is None:
        return None
    return ctx.game.pick_card(chooser, source, zone)


def reveal(ctx: Ctx, n) -> list:
    cards = ctx.game.reveal(n)
    if ctx.game.use_stack:
        ctx.game.use_stack[-1].vars.setdefault("_revealed", []).extend(cards)
    return cards


def judge(ctx: Ctx, player):
    return ctx.game.judge(player)


def replace_judge(ctx: Ctx, judge, card) -> None:
    real = _real(card)
    if real is not None:
        ctx.game.replace_judge(judge, real)


def skip(ctx: Ctx, player, phase) -> None:
    player.skipped.add(phase)
    ctx.game.log(f"{player.label()}將跳過{PHASE_ZH[phase]}階段")


def ask_use(ctx: Ctx, player, card, on=None, unlimited=False) -> bool:
    matcher, kind = card
    return ctx.game.ask_for(player, kind, matcher, "use", on, unlimited)


def ask_play(ctx: Ctx, player, card) -> bool:
    matcher, kind = card
    return ctx.game.ask_for(player, kind, matcher, "play")


def cancel(ctx: Ctx, use) -> None:
    if use is not None:
        use.cancelled.add(use.key(use.current))


def hit(ctx: Ctx, use) -> None:
    use.cancelled.discard(use.key(use.current))
    ctx.game.log(f"{use.card.label()}依然生效")


def invalidate(ctx: Ctx, use) -> None:
    use.invalid.add(use.key(use.current))


def ignore_armor(ctx: Ctx, use, player) -> None:
    use.armor_off.add(player.seat)


def prevent(ctx: Ctx, damage) -> None:
    damage.prevented = True


def pass_on(ctx: Ctx, card) -> None:
    real = _real(card)
    if real is not None:
        ctx.game.pass_on(real)


def provide(ctx: Ctx, card) -> None:
    matcher, kind = card
    asked = ctx.vars["asked"]
    asked.provided = UsedCard.virtual(ctx.game.library.cards[kind])


def in_range(ctx: Ctx, a, b) -> bool:
    return ctx.game.in_range(a, b)


def distance(ctx: Ctx, a, b) -> int:
    return ctx.game.distance(a, b)


def count(ctx: Ctx, items) -> int:
    return len(items) if items is not None else 0


def count_in_range(ctx: Ctx, player) -> int:
    return sum(1 for p in ctx.game.alive() if ctx.game.in_range(player, p))


def uses_last_hand(ctx: Ctx, player, card) -> bool:
    subcards = getattr(card, "subcards", ())
    return bool(subcards) and all(c in subcards for c in player.hand)


def others(ctx: Ctx, player) -> list:
    return [p for p in ctx.game.seat_order(player) if p is not player]


IMPLS: dict[str, Callable[..., Any]] = {f.__name__: f for f in (
    draw, damage, recover, lose_hp, discard, throw, gain, pick, reveal, judge, replace_judge, skip, ask_use, ask_play,
    cancel, hit, invalidate, ignore_armor, prevent, pass_on, provide, in_range, distance, count,
    count_in_range, uses_last_hand, others,
)}
