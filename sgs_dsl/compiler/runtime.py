"""What each effect and function of the language does, in terms of the kernel's processes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.defs import Ctx
from ..core.model import PHASE_ZH, Card, RulesError, UsedCard


def _real(card: Any) -> Card | None:
    if isinstance(card, UsedCard):
        return card.subcards[0] if len(card.subcards) == 1 else None
    return card


def _cards(value: Any) -> list[Card]:
    """Real cards: of a card, of a card made of several, or of a list of them."""
    if value is None:
        return []
    if isinstance(value, list):
        return [c for v in value for c in _cards(v)]
    if isinstance(value, UsedCard):
        return list(value.subcards)
    return [value]


def draw(ctx: Ctx, player, n) -> None:
    ctx.game.zones.draw(player, n)


def damage(ctx: Ctx, player, n, nature="normal", by=None, card=None) -> None:
    if isinstance(card, Card):  # `card:` may name a real card (cards_of, fight_card)
        card = UsedCard.of(card)
    ctx.game.hp.damage(player, n, nature, by, card)


def recover(ctx: Ctx, player, n) -> None:
    in_card = "user" in ctx.vars and "you" not in ctx.vars  # a card's own block
    source = ctx.vars.get("user") if in_card else ctx.vars.get("you")
    ctx.game.hp.recover(player, n, source, ctx.vars.get("card") if in_card else None)


def lose_hp(ctx: Ctx, player, n) -> None:
    ctx.game.hp.lose_hp(player, n)


def discard(ctx: Ctx, player, n, **kw) -> bool:
    return ctx.game.zones.discard_cards(player, n, kw["from"], kw["optional"], kw["keep"])


def throw(ctx: Ctx, card) -> None:
    for c in _cards(card):
        ctx.game.zones.throw(c)


def gain(ctx: Ctx, player, card) -> None:
    for c in _cards(card):
        ctx.game.zones.gain(player, c)


def pick(ctx: Ctx, chooser, source, zone=None):
    if zone is None:
        if not isinstance(source, list):
            raise RulesError("pick(p, cards) needs a list of cards")
        return ctx.game.zones.pick_from(chooser, source)
    if source is None:
        return None
    return ctx.game.zones.pick_card(chooser, source, zone)


def reveal(ctx: Ctx, n) -> list:
    return ctx.game.zones.reveal(n)


def judge(ctx: Ctx, player):
    return ctx.game.hp.judge(player)


def replace_judge(ctx: Ctx, judge, card) -> None:
    real = _real(card)
    if real is not None:
        ctx.game.hp.replace_judge(judge, real)


def skip(ctx: Ctx, player, phase) -> None:
    player.skipped.add(phase)
    ctx.game.log(f"{player.label()}將跳過{PHASE_ZH[phase]}階段")


def ask_use(ctx: Ctx, player, card, on=None) -> bool:
    matcher, kind = card
    return ctx.game.using.ask_for(player, kind, matcher, "use", on)


def ask_play(ctx: Ctx, player, card, count=1) -> bool:
    matcher, kind = card
    return all(ctx.game.using.ask_for(player, kind, matcher, "play") for _ in range(max(1, count)))


def cancel(ctx: Ctx, use, **kw) -> None:
    if use is None:
        return
    key = use.key(use.current)
    if kw.get("for") is not None:  # several targets at once: the others listed, outright
        use.cancelled.update(use.key(p) for p in kw["for"] if p in use.targets and p is not use.current)
    use.need[key] = use.need.get(key, 1) - 1
    if use.need[key] <= 0:
        use.cancelled.add(key)


def hit(ctx: Ctx, use) -> None:
    use.cancelled.discard(use.key(use.current))
    ctx.game.log(f"{use.card.label()}依然生效")


def invalidate(ctx: Ctx, use) -> None:
    use.invalid.add(use.key(use.current))


def ignore_armor(ctx: Ctx, use, player) -> None:
    use.armor_off.add(player.seat)


def prevent(ctx: Ctx, damage) -> None:
    ctx.game.hp.prevent_damage(damage)


def pass_on(ctx: Ctx, card) -> None:
    real = _real(card)
    if real is None:
        return
    if ctx.game.zones.zone_of(real)[0] != "judge" and ctx.game.judged_player is None:  # located by the call
        raise RulesError(f"pass_on: {real.label()} is not a delayed trick in a judge area or being judged")
    ctx.game.using.pass_on(real)


def provide(ctx: Ctx, card, by=None) -> bool:
    matcher, kind = card
    asked = ctx.vars["asked"]
    if by is None:
        asked.provided = UsedCard.virtual(ctx.game.kind_named(kind))
        return True
    real = ctx.game.using.provide_card(by, kind, matcher, asked.player)  # the real card
    if real is not None:
        asked.provided = real
    return real is not None


def in_range(ctx: Ctx, a, b) -> bool:
    # a card's target rule (`one other where in_range(user, it)`) asks for the card: a
    # `modify range(CARD) = unlimited` lifts it
    rule = ctx.vars.get("user") is a and ctx.vars.get("it") is b
    return ctx.game.seats.in_range(a, b, ctx.vars.get("card") if rule else None)


def opposite_gender(ctx: Ctx, a, b) -> bool:
    return bool(a.gender) and bool(b.gender) and a.gender != b.gender


def distance(ctx: Ctx, a, b) -> int:
    return ctx.game.seats.distance(a, b)


def count(ctx: Ctx, items) -> int:
    return len(items) if items is not None else 0


def attack_range(ctx: Ctx, player) -> int:
    return ctx.game.seats.attack_range(player)


def count_in_range(ctx: Ctx, player) -> int:
    return sum(1 for p in ctx.game.seats.alive() if ctx.game.seats.in_range(player, p))


def uses_last_hand(ctx: Ctx, player, card) -> bool:  # hand cards only, all of them
    subcards = getattr(card, "subcards", ())
    return bool(subcards) and all(c in player.hand for c in subcards) and all(c in subcards for c in player.hand)


def others(ctx: Ctx, player) -> list:
    return [p for p in ctx.game.seats.seat_order(player) if p is not player]


def players(ctx: Ctx) -> list:
    return ctx.game.seats.seat_order()


def current(ctx: Ctx):
    return ctx.game.current


def confirm(ctx: Ctx, player, question, yes, no) -> bool:
    return ctx.game.confirm(player, question, yes, no)


def choose_player(ctx: Ctx, chooser, candidates, prompt="") -> Any:
    return ctx.game.choices.choose_players(chooser, candidates, 1, 1, prompt)[0] if candidates else None


def choose_players(ctx: Ctx, chooser, candidates, max=1, min=1, prompt="") -> list:
    return ctx.game.choices.choose_players(chooser, candidates or [], min, max, prompt)


def choose_cards(ctx: Ctx, chooser, max=1, min=1, match=None, among=None, **kw) -> list:
    if match is None and among is None:
        return ctx.game.choices.choose_own_cards(chooser, kw["from"], min, max)
    pool = _cards(among) if among is not None else ctx.game.zones.zone_cards(chooser, kw["from"])
    if match is not None:
        pool = [c for c in pool if match[0](ctx.game.filters.seen_used(c))]  # through filters
    return ctx.game.labelled.choose_among(chooser, pool, min, max)


def choose_option(ctx: Ctx, chooser, options, offer=None, prompt="") -> str | None:
    return ctx.game.labelled.choose_option(chooser, options, offer, prompt)


def declare(ctx: Ctx, chooser, names, prompt="") -> str:
    return ctx.game.labelled.declare(chooser, names, prompt)


def choose_suit(ctx: Ctx, chooser) -> str:
    return ctx.game.choices.choose_suit(chooser)


def give(ctx: Ctx, giver, receiver, cards) -> None:
    ctx.game.choices.give(giver, receiver, _cards(cards))


def show(ctx: Ctx, card) -> None:
    if card is not None:
        ctx.game.zones.show_cards([card])


def look(ctx: Ctx, player, n) -> list:
    return ctx.game.choices.look(player, n)


def arrange(ctx: Ctx, player, n) -> None:
    ctx.game.choices.arrange(player, n)


def in_processing(ctx: Ctx, card) -> bool:
    return _all_in(card, ctx.game.processing)


def in_discard_pile(ctx: Ctx, card) -> bool:
    return _all_in(card, ctx.game.discard_pile)


def _all_in(card, zone: list) -> bool:
    """The card (all the real cards it is made of) lies in `zone`."""
    cards = _cards(card)
    return bool(cards) and all(c in zone for c in cards)


def need(ctx: Ctx, use, player) -> int:
    return use.need.get(use.key(player), 1)


def require(ctx: Ctx, use, player, n) -> None:
    use.need[use.key(player)] = n


def no_response(ctx: Ctx, use, player) -> None:
    use.no_response.add(player.seat)


def redirect(ctx: Ctx, use, old, new) -> None:
    ctx.game.choices.redirect(use, old, new)


def can_target(ctx: Ctx, user, player, card) -> bool:
    probe = UsedCard.virtual(ctx.game.kind_named(card[1]))
    return player.alive and not ctx.game.prohibits.forbidden(player, "target", probe, user)


def can_use(ctx: Ctx, player, card) -> bool:
    return ctx.game.choices.can_use_named(player, card[1])


def choose_targets(ctx: Ctx, player, card) -> list:
    return ctx.game.choices.choose_named_targets(player, card[1])


def use_virtual(ctx: Ctx, player, card, on=None, counter=True, limit=False) -> bool:
    targets = on if isinstance(on, list) else ([on] if on is not None else [])
    return ctx.game.choices.use_virtual(player, card[1], targets, counter, limit)


def mark(ctx: Ctx, player, key, n, until="game") -> None:
    player.marks[key] = n  # `until` is checked at load time (a mark scope)
    player.mark_until[key] = until


def marks(ctx: Ctx, player, key) -> int:
    return player.marks.get(key, 0)


def count_this_turn(ctx: Ctx, player, card) -> int:
    matcher, kind = card
    return sum(1 for name in player.turn_cards if name == kind)



def chain(ctx: Ctx, player) -> None:
    player.chained = not player.chained
    ctx.game.log(f"{player.label()}{'進入' if player.chained else '解除'}連環狀態")


def cards_of(ctx: Ctx, player, zone) -> list:
    return ctx.game.zones.zone_cards(player, zone)


# player state and skills as state
def gain_max_hp(ctx: Ctx, player, n) -> None:
    if n > 0:
        ctx.game.state.change_max_hp(player, n)


def lose_max_hp(ctx: Ctx, player, n) -> None:
    if n > 0:
        ctx.game.state.change_max_hp(player, -n)


def turn_over(ctx: Ctx, player) -> None:
    ctx.game.state.turn_over(player)


def remember(ctx: Ctx, player, state, value) -> None:
    ctx.game.state.remember(player, state.key, value, state.scope)


def recall(ctx: Ctx, player, state) -> Any:
    return ctx.game.state.recall(player, state.key, state.default)


def remember_game(ctx: Ctx, state, value) -> None:
    ctx.game.state.remember(None, state.key, value, state.scope)


def recall_game(ctx: Ctx, state) -> Any:
    return ctx.game.state.recall(None, state.key, state.default)


def current_phase(ctx: Ctx) -> str | None:
    return ctx.game.phase_now


def grant_skill(ctx: Ctx, player, skill) -> None:
    ctx.game.state.grant_skill(player, skill)


def remove_skill(ctx: Ctx, player, skill) -> None:
    ctx.game.state.remove_skill(player, skill)


def disable_skills(ctx: Ctx, player, until="turn") -> None:
    ctx.game.state.disable_skills(player, until)


def spent(ctx: Ctx, player, skill) -> bool:
    return ctx.game.state.is_spent(player, skill)


def times_used(ctx: Ctx, player, skill) -> int:
    return ctx.game.using.times_used(player, skill.name)


def set_gender(ctx: Ctx, player, gender) -> None:
    ctx.game.state.set_gender(player, gender)


def set_kingdom(ctx: Ctx, player, kingdom) -> None:
    ctx.game.state.set_kingdom(player, kingdom)


def set_hero(ctx: Ctx, player, hero) -> None:
    ctx.game.state.set_hero(player, hero)


# the hero cards not in play
def unused_heroes(ctx: Ctx) -> list[str]:
    return ctx.game.start.unused_heroes()


def choose_hero(ctx: Ctx, chooser, names, prompt="") -> str | None:
    return ctx.game.start.choose_hero(chooser, list(names or []), prompt)


# a use made with a card another player provides; where a use may go
def use_provided(ctx: Ctx, player, card, by, on=None, limit=False) -> bool:
    matcher, kind = card
    targets = [t for t in (on or []) if t.alive]
    if not player.alive or not targets:
        return False
    real = ctx.game.using.provide_card(by, kind, matcher, player)
    if real is None:
        return False
    ctx.game.using.use_card(player, real, targets, "play" if limit else "virtual")
    return True


def can_redirect(ctx: Ctx, use, player) -> bool:
    return ctx.game.choices.can_redirect(use, player)


# damage and hp, turns and phases, point fights
def transfer(ctx: Ctx, damage, to) -> None:
    ctx.game.damage_rules.transfer_damage(damage, to)


def to_hp_loss(ctx: Ctx, damage) -> None:
    ctx.game.damage_rules.damage_to_hp_loss(damage)


def extra_turn(ctx: Ctx, player) -> None:
    ctx.game.extra_turns.grant_extra_turn(player)


def extra_phase(ctx: Ctx, player, phase) -> None:
    ctx.game.extra_turns.grant_extra_phase(player, phase)


def skip_turn(ctx: Ctx, player) -> None:
    ctx.game.extra_turns.skip_next_turn(player)


def end_play(ctx: Ctx, player) -> None:
    ctx.game.extra_turns.end_play_phase(player)


def can_point_fight(ctx: Ctx, a, b) -> bool:
    return ctx.game.fights.can_point_fight(a, b)


def point_fight(ctx: Ctx, a, b):
    return ctx.game.fights.point_fight(a, b)


def fight_card(ctx: Ctx, fight, player):
    return fight.card_of(player)


def replace_fight_card(ctx: Ctx, fight, player, card) -> None:
    real = _real(card)
    if real is not None:
        ctx.game.fights.replace_fight_card(fight, player, real)


# moving cards, piles, history
def move(ctx: Ctx, cards, to="discard", of=None, reason="put", replace=False) -> bool:
    mover = ctx.vars.get("you") or ctx.vars.get("user")
    return ctx.game.moves.move_by_text(_cards(cards), to, of, reason, mover, replace)


def swap_hands(ctx: Ctx, a, b) -> None:
    if a is not b:
        ctx.game.moves.swap_hands(a, b)


def pile(ctx: Ctx, player, name) -> list:
    return ctx.game.zones.zone_cards(player, name)


def history(ctx: Ctx, player, kind, period) -> list:
    return ctx.game.history.cards(player, kind, period)


def damage_history(ctx: Ctx, player, kind, period) -> int:
    return ctx.game.history.damage(ctx.game.damage_log, player, kind, period)


# kingdoms, read from Player.kingdom only (the mode sets it; "" while unknown)
CAREERIST = "careerist"  # 野心家: a kingdom of their own, the same as nobody's


def kingdom_known(ctx: Ctx, player) -> bool:
    return player.kingdom != ""


def same_kingdom(ctx: Ctx, a, b) -> bool:
    return a.kingdom != "" and a.kingdom == b.kingdom and a.kingdom != CAREERIST


def kingdom_players(ctx: Ctx, player) -> list:
    if player.kingdom == "":
        return []
    return [p for p in ctx.game.seats.seat_order() if p is player or same_kingdom(ctx, player, p)]


def kingdom_size(ctx: Ctx, kingdom) -> int:
    return sum(p.alive and p.kingdom == kingdom for p in ctx.game.players)


def revealed(ctx: Ctx, player) -> bool:
    return ctx.game.mode.revealed(player)


def head(ctx: Ctx, player) -> str:
    return ctx.game.mode.general_name(player, 0)


def deputy(ctx: Ctx, player) -> str:
    return ctx.game.mode.general_name(player, 1)


def hidden_generals(ctx: Ctx, player) -> int:
    return ctx.game.mode.hidden_count(player)


def look_general(ctx: Ctx, viewer, player) -> str:
    return ctx.game.mode.look_general(ctx.game, viewer, player)


def hide_general(ctx: Ctx, player, which) -> None:
    ctx.game.mode.hide(ctx.game, player, 0 if which == "head" else 1)


def remove_general(ctx: Ctx, player, which) -> None:
    ctx.game.mode.remove(ctx.game, player, 0 if which == "head" else 1)


def swap_seats(ctx: Ctx, a, b) -> None:
    ctx.game.state.swap_seats(a, b)


def lose_general_skills(ctx: Ctx, player, which) -> None:
    ctx.game.mode.lose_skills(ctx.game, player, 0 if which == "head" else 1)


def cancel_target(ctx: Ctx, use, player) -> None:
    ctx.game.choices.cancel_target(use, player)


def look_at(ctx: Ctx, player, cards) -> None:
    ctx.game.zones.look_at(player, list(cards))


# The arguments that say how many times an effect acts (cards drawn, answers asked for,
# picks): each is capped at MAX_COUNT and paid for in steps (engine.model.Budget.count).
COUNTS: dict[str, tuple[str, ...]] = {
    "draw": ("n",), "discard": ("n",), "reveal": ("n",), "look": ("n",), "arrange": ("n",),
    "ask_play": ("count",), "choose_cards": ("max", "min"), "choose_players": ("max", "min"),
    "require": ("n",),
}

IMPLS: dict[str, Callable[..., Any]] = {
    name: fn for name, fn in list(globals().items())
    if callable(fn) and not name.startswith("_") and getattr(fn, "__module__", "") == __name__
}
