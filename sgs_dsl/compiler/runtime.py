"""What each effect and function of the language does, in terms of the kernel's processes."""

from __future__ import annotations

from collections.abc import Callable, Sized
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypeVar

from ..core.defs import Ctx, Skill
from ..core.model import PHASE_ZH, Card, Damage, Judge, Player, RulesError, Use, UsedCard

if TYPE_CHECKING:
    from .library import Hero
    from .state_check import State

# What text hands an effect (the language's types, compiler/schema.py): a card is a real card
# or a card as used (virtual, or read through filters); a card pattern, compiled, is its test
# and the card it names (Compiler.argument); a skill, a hero, a state are the library's.
AnyCard: TypeAlias = Card | UsedCard
Cards: TypeAlias = AnyCard | list[Any] | None  # a card, or a list of cards (or of lists of them)
Pattern: TypeAlias = tuple[Callable[[Any], bool], str]
Matcher: TypeAlias = tuple[Callable[[Any], bool], str | None]  # `match:` may name no card (`red`)


class Fight(Protocol):
    """A point fight (拼點) as text reads it: engine.pindian.PointFight, which this layer does not import."""

    def card_of(self, p: Player) -> Card | None: ...


def _real(card: AnyCard | None) -> Card | None:
    if isinstance(card, UsedCard):
        return card.subcards[0] if len(card.subcards) == 1 else None
    return card


def _cards(value: Cards) -> list[Card]:
    """Real cards: of a card, of a card made of several, or of a list of them."""
    if value is None:
        return []
    if isinstance(value, list):
        return [c for v in value for c in _cards(v)]
    if isinstance(value, UsedCard):
        return list(value.subcards)
    return [value]


def draw(ctx: Ctx, player: Player, n: int) -> None:
    ctx.game.zones.draw(player, n)


def damage(ctx: Ctx, player: Player, n: int, nature: str = "normal", by: Player | None = None,
           card: AnyCard | None = None) -> None:
    used = UsedCard.of(card) if isinstance(card, Card) else card  # `card:` may name a real card (cards_of, fight_card)
    ctx.game.hp.damage(player, n, nature, by, used)


def recover(ctx: Ctx, player: Player, n: int) -> None:
    in_card = "user" in ctx.vars and "you" not in ctx.vars  # a card's own block
    source = ctx.vars.get("user") if in_card else ctx.vars.get("you")
    ctx.game.hp.recover(player, n, source, ctx.vars.get("card") if in_card else None)


def lose_hp(ctx: Ctx, player: Player, n: int) -> None:
    ctx.game.hp.lose_hp(player, n)


def discard(ctx: Ctx, player: Player, n: int, **kw: Any) -> bool:
    discarded: bool = ctx.game.zones.discard_cards(player, n, kw["from"], kw["optional"], kw["keep"], among=kw["among"])
    return discarded


def throw(ctx: Ctx, card: Cards) -> None:
    for c in _cards(card):
        ctx.game.zones.throw(c)


def gain(ctx: Ctx, player: Player, card: Cards) -> None:
    for c in _cards(card):
        ctx.game.zones.gain(player, c)


def pick(ctx: Ctx, chooser: Player, source: Player | list[Card] | None, zone: str | None = None) -> Card | None:
    if zone is None:
        if not isinstance(source, list):
            raise RulesError("pick(p, cards) needs a list of cards")
        among: Card | None = ctx.game.zones.pick_from(chooser, source)
        return among
    if source is None:
        return None
    card: Card | None = ctx.game.zones.pick_card(chooser, source, zone)
    return card


def reveal(ctx: Ctx, n: int) -> list[Card]:
    cards: list[Card] = ctx.game.zones.reveal(n)
    return cards


def judge(ctx: Ctx, player: Player) -> Judge:
    result: Judge = ctx.game.hp.judge(player)
    return result


def replace_judge(ctx: Ctx, judge: Judge, card: AnyCard | None) -> None:
    real = _real(card)
    if real is not None:
        ctx.game.hp.replace_judge(judge, real)


def skip(ctx: Ctx, player: Player, phase: str) -> None:
    player.skipped.add(phase)
    ctx.game.log(f"{player.label()}將跳過{PHASE_ZH[phase]}階段")


def ask_use(ctx: Ctx, player: Player, card: Pattern, on: Player | None = None) -> bool:
    matcher, kind = card
    used: bool = ctx.game.using.ask_for(player, kind, matcher, "use", on)
    return used


def ask_play(ctx: Ctx, player: Player, card: Pattern, count: int = 1) -> bool:
    matcher, kind = card
    return all(ctx.game.using.ask_for(player, kind, matcher, "play") for _ in range(max(1, count)))


def cancel(ctx: Ctx, use: Use | None, **kw: Any) -> None:
    if use is None:
        return
    key = use.key(use.current)
    if kw.get("for") is not None:  # several targets at once: the others listed, outright
        use.cancelled.update(use.key(p) for p in kw["for"] if p in use.targets and p is not use.current)
    use.need[key] = use.need.get(key, 1) - 1
    if use.need[key] <= 0:
        use.cancelled.add(key)


def hit(ctx: Ctx, use: Use) -> None:
    use.cancelled.discard(use.key(use.current))
    ctx.game.log(f"{use.card.label()}依然生效")


def invalidate(ctx: Ctx, use: Use) -> None:
    use.invalid.add(use.key(use.current))


def ignore_armor(ctx: Ctx, use: Use, player: Player) -> None:
    use.armor_off.add(player.seat)


def prevent(ctx: Ctx, damage: Damage) -> None:
    ctx.game.hp.prevent_damage(damage)


def pass_on(ctx: Ctx, card: AnyCard) -> None:
    real = _real(card)
    if real is None:
        return
    if ctx.game.zones.zone_of(real)[0] != "judge" and ctx.game.judged_player is None:  # located by the call
        raise RulesError(f"pass_on: {real.label()} is not a delayed trick in a judge area or being judged")
    ctx.game.using.pass_on(real)


def provide(ctx: Ctx, card: Pattern, by: Player | None = None) -> bool:
    matcher, kind = card
    asked = ctx.vars["asked"]
    if by is None:
        asked.provided = UsedCard.virtual(ctx.game.kind_named(kind))
        return True
    real = ctx.game.using.provide_card(by, kind, matcher, asked.player)  # the real card
    if real is not None:
        asked.provided = real
    return real is not None


T = TypeVar("T")


def _without(ctx: Ctx, without: Card | list[Card] | None, read: Callable[[], T]) -> T:
    """A distance or a range read with `without:` equipped cards counted as gone (their range,
    their distance: a cost that would discard them), as a converted card's are while it is used."""
    if without is None:
        return read()
    game = ctx.game
    outer: frozenset[int] = game.set_aside
    cards = [without] if isinstance(without, Card) else list(without)
    game.set_aside = outer | frozenset(c.uid for c in cards if c is not None)
    try:
        return read()
    finally:
        game.set_aside = outer


def in_range(ctx: Ctx, a: Player, b: Player, without: Card | list[Card] | None = None) -> bool:
    # a card's target rule (`one other where in_range(user, it)`) asks for the card: a
    # `modify range(CARD) = unlimited` lifts it
    rule = ctx.vars.get("user") is a and ctx.vars.get("it") is b
    card = ctx.vars.get("card") if rule else None
    return _without(ctx, without, lambda: bool(ctx.game.seats.in_range(a, b, card)))


def opposite_gender(ctx: Ctx, a: Player, b: Player) -> bool:
    return bool(a.gender) and bool(b.gender) and a.gender != b.gender


def distance(ctx: Ctx, a: Player, b: Player, without: Card | list[Card] | None = None) -> int:
    return _without(ctx, without, lambda: int(ctx.game.seats.distance(a, b)))


def count(ctx: Ctx, items: Sized | None) -> int:
    return len(items) if items is not None else 0


def attack_range(ctx: Ctx, player: Player, without: Card | list[Card] | None = None) -> int:
    return _without(ctx, without, lambda: int(ctx.game.seats.attack_range(player)))


def count_in_range(ctx: Ctx, player: Player) -> int:
    return sum(1 for p in ctx.game.seats.alive() if ctx.game.seats.in_range(player, p))


def uses_last_hand(ctx: Ctx, player: Player, card: AnyCard) -> bool:  # hand cards only, all of them
    subcards: tuple[Card, ...] = getattr(card, "subcards", ())
    return bool(subcards) and all(c in player.hand for c in subcards) and all(c in subcards for c in player.hand)


def others(ctx: Ctx, player: Player) -> list[Player]:
    return [p for p in ctx.game.seats.seat_order(player) if p is not player]


def players(ctx: Ctx) -> list[Player]:
    seated: list[Player] = ctx.game.seats.seat_order()
    return seated


def current(ctx: Ctx) -> Player:
    player: Player = ctx.game.current
    return player


def confirm(ctx: Ctx, player: Player, question: str, yes: str, no: str) -> bool:
    answer: bool = ctx.game.confirm(player, question, yes, no)
    return answer


def choose_player(ctx: Ctx, chooser: Player, candidates: list[Player], prompt: str = "") -> Player | None:
    return ctx.game.choices.choose_players(chooser, candidates, 1, 1, prompt)[0] if candidates else None


def choose_players(ctx: Ctx, chooser: Player, candidates: list[Player] | None, max: int = 1, min: int = 1,
                   prompt: str = "") -> list[Player]:
    chosen: list[Player] = ctx.game.choices.choose_players(chooser, candidates or [], min, max, prompt)
    return chosen


def choose_cards(ctx: Ctx, chooser: Player, max: int = 1, min: int = 1, match: Matcher | None = None,
                 among: Cards = None, **kw: Any) -> list[Card]:
    if match is None and among is None:
        own: list[Card] = ctx.game.choices.choose_own_cards(chooser, kw["from"], min, max)
        return own
    pool = _cards(among) if among is not None else ctx.game.zones.zone_cards(chooser, kw["from"])
    if match is not None:
        test = match[0]
        pool = [c for c in pool if test(ctx.game.filters.seen_used(c))]  # through filters
    chosen: list[Card] = ctx.game.labelled.choose_among(chooser, pool, min, max)
    return chosen


def choose_option(ctx: Ctx, chooser: Player, options: list[str], offer: list[bool] | None = None,
                  prompt: str = "") -> str | None:
    label: str | None = ctx.game.labelled.choose_option(chooser, options, offer, prompt)
    return label


def declare(ctx: Ctx, chooser: Player, names: list[str], prompt: str = "") -> str:
    name: str = ctx.game.labelled.declare(chooser, names, prompt)
    return name


def choose_suit(ctx: Ctx, chooser: Player) -> str:
    suit: str = ctx.game.choices.choose_suit(chooser)
    return suit


def give(ctx: Ctx, giver: Player, receiver: Player, cards: Cards) -> None:
    ctx.game.choices.give(giver, receiver, _cards(cards))


def show(ctx: Ctx, card: AnyCard | None) -> None:
    if card is not None:
        ctx.game.zones.show_cards([card])


def look(ctx: Ctx, player: Player, n: int) -> list[Card]:
    cards: list[Card] = ctx.game.choices.look(player, n)
    return cards


def arrange(ctx: Ctx, player: Player, n: int) -> None:
    ctx.game.choices.arrange(player, n)


def in_processing(ctx: Ctx, card: AnyCard | None) -> bool:
    return _all_in(card, ctx.game.processing)


def in_discard_pile(ctx: Ctx, card: AnyCard | None) -> bool:
    return _all_in(card, ctx.game.discard_pile)


def _all_in(card: AnyCard | None, zone: list[Card]) -> bool:
    """The card (all the real cards it is made of) lies in `zone`."""
    cards = _cards(card)
    return bool(cards) and all(c in zone for c in cards)


def need(ctx: Ctx, use: Use, player: Player) -> int:
    return use.need.get(use.key(player), 1)


def require(ctx: Ctx, use: Use, player: Player, n: int) -> None:
    use.need[use.key(player)] = n


def no_response(ctx: Ctx, use: Use, player: Player) -> None:
    use.no_response.add(player.seat)


def redirect(ctx: Ctx, use: Use, old: Player, new: Player) -> None:
    ctx.game.choices.redirect(use, old, new)


def can_target(ctx: Ctx, user: Player, player: Player, card: Pattern) -> bool:
    probe = UsedCard.virtual(ctx.game.kind_named(card[1]))
    return player.alive and not ctx.game.prohibits.forbidden(player, "target", probe, user)


def can_use(ctx: Ctx, player: Player, card: Pattern) -> bool:
    able: bool = ctx.game.choices.can_use_named(player, card[1])
    return able


def choose_targets(ctx: Ctx, player: Player, card: Pattern) -> list[Player]:
    targets: list[Player] = ctx.game.choices.choose_named_targets(player, card[1])
    return targets


def use_virtual(ctx: Ctx, player: Player, card: Pattern, on: list[Player] | Player | None = None,
                counter: bool = True, limit: bool = False) -> bool:
    targets = on if isinstance(on, list) else ([on] if on is not None else [])
    used: bool = ctx.game.choices.use_virtual(player, card[1], targets, counter, limit)
    return used


def mark(ctx: Ctx, player: Player, key: str, n: int, until: str = "game") -> None:
    player.marks[key] = n  # `until` is checked at load time (a mark scope)
    player.mark_until[key] = until


def marks(ctx: Ctx, player: Player, key: str) -> int:
    return player.marks.get(key, 0)


def count_this_turn(ctx: Ctx, player: Player, card: Pattern) -> int:
    matcher, kind = card
    return sum(1 for name in player.turn_cards if name == kind)



def chain(ctx: Ctx, player: Player) -> None:
    player.chained = not player.chained
    ctx.game.log(f"{player.label()}{'進入' if player.chained else '解除'}連環狀態")


def cards_of(ctx: Ctx, player: Player, zone: str) -> list[Card]:
    cards: list[Card] = ctx.game.zones.zone_cards(player, zone)
    return cards


# player state and skills as state
def gain_max_hp(ctx: Ctx, player: Player, n: int) -> None:
    if n > 0:
        ctx.game.state.change_max_hp(player, n)


def lose_max_hp(ctx: Ctx, player: Player, n: int) -> None:
    if n > 0:
        ctx.game.state.change_max_hp(player, -n)


def turn_over(ctx: Ctx, player: Player) -> None:
    ctx.game.state.turn_over(player)


def remember(ctx: Ctx, player: Player, state: State, value: Any) -> None:
    ctx.game.state.remember(player, state.key, value, state.scope)


def recall(ctx: Ctx, player: Player, state: State) -> Any:
    return ctx.game.state.recall(player, state.key, state.default)


def remember_game(ctx: Ctx, state: State, value: Any) -> None:
    ctx.game.state.remember(None, state.key, value, state.scope)


def recall_game(ctx: Ctx, state: State) -> Any:
    return ctx.game.state.recall(None, state.key, state.default)


def current_phase(ctx: Ctx) -> str | None:
    phase: str | None = ctx.game.phase_now
    return phase


def grant_skill(ctx: Ctx, player: Player, skill: Skill) -> None:
    ctx.game.state.grant_skill(player, skill)


def lose_all_skills(ctx: Ctx, player: Player) -> None:
    ctx.game.mode.lose_all_skills(ctx.game, player)


def remove_skill(ctx: Ctx, player: Player, skill: Skill) -> None:
    ctx.game.state.remove_skill(player, skill)


def disable_skills(ctx: Ctx, player: Player, until: str = "turn") -> None:
    ctx.game.state.disable_skills(player, until)


def spent(ctx: Ctx, player: Player, skill: Skill) -> bool:
    fired: bool = ctx.game.state.is_spent(player, skill)
    return fired


def times_used(ctx: Ctx, player: Player, skill: Skill) -> int:
    times: int = ctx.game.using.times_used(player, skill.key)
    return times


def set_gender(ctx: Ctx, player: Player, gender: str) -> None:
    ctx.game.state.set_gender(player, gender)


def set_kingdom(ctx: Ctx, player: Player, kingdom: str) -> None:
    ctx.game.state.set_kingdom(player, kingdom)


def set_hero(ctx: Ctx, player: Player, hero: Hero) -> None:
    ctx.game.state.set_hero(player, hero)


# the hero cards not in play
def unused_heroes(ctx: Ctx) -> list[str]:
    names: list[str] = ctx.game.start.unused_heroes()
    return names


def choose_hero(ctx: Ctx, chooser: Player, names: list[str] | None, prompt: str = "") -> str | None:
    name: str | None = ctx.game.start.choose_hero(chooser, list(names or []), prompt)
    return name


# hero cards and skills as data
def hero_kingdom(ctx: Ctx, hero: Hero) -> str:
    return hero.kingdom


def hero_gender(ctx: Ctx, hero: Hero) -> str:
    return hero.gender


def hero_hp(ctx: Ctx, hero: Hero) -> int:
    hp: int = hero.hp
    return hp


def hero_skills(ctx: Ctx, hero: Hero) -> list[str]:
    return [s.key for s in hero.skills]


def skill_tags(ctx: Ctx, skill: Skill) -> list[str]:
    return list(skill.tags)


def choose_skill(ctx: Ctx, chooser: Player, names: list[str] | None, prompt: str = "") -> str | None:
    name: str | None = ctx.game.start.choose_skill(chooser, list(names or []), prompt)
    return name


# a use made with a card another player provides; where a use may go
def use_provided(ctx: Ctx, player: Player, card: Pattern, by: Player, on: list[Player] | None = None,
                 limit: bool = False) -> bool:
    matcher, kind = card
    targets = [t for t in (on or []) if t.alive]
    if not player.alive or not targets:
        return False
    real = ctx.game.using.provide_card(by, kind, matcher, player)
    if real is None:
        return False
    ctx.game.using.use_card(player, real, targets, "play" if limit else "virtual")
    return True


def can_redirect(ctx: Ctx, use: Use, player: Player) -> bool:
    able: bool = ctx.game.choices.can_redirect(use, player)
    return able


# damage and hp, turns and phases, point fights
def transfer(ctx: Ctx, damage: Damage, to: Player) -> None:
    ctx.game.damage_rules.transfer_damage(damage, to)


def to_hp_loss(ctx: Ctx, damage: Damage) -> None:
    ctx.game.damage_rules.damage_to_hp_loss(damage)


def extra_turn(ctx: Ctx, player: Player) -> None:
    ctx.game.extra_turns.grant_extra_turn(player)


def extra_phase(ctx: Ctx, player: Player, phase: str) -> None:
    ctx.game.extra_turns.grant_extra_phase(player, phase)


def skip_turn(ctx: Ctx, player: Player) -> None:
    ctx.game.extra_turns.skip_next_turn(player)


def end_play(ctx: Ctx, player: Player) -> None:
    ctx.game.extra_turns.end_play_phase(player)


def can_point_fight(ctx: Ctx, a: Player, b: Player) -> bool:
    able: bool = ctx.game.fights.can_point_fight(a, b)
    return able


def point_fight(ctx: Ctx, a: Player, b: Player) -> Fight | None:
    fight: Fight | None = ctx.game.fights.point_fight(a, b)
    return fight


def fight_card(ctx: Ctx, fight: Fight, player: Player) -> Card | None:
    card: Card | None = fight.card_of(player)
    return card


def replace_fight_card(ctx: Ctx, fight: Fight, player: Player, card: AnyCard | None) -> None:
    real = _real(card)
    if real is not None:
        ctx.game.fights.replace_fight_card(fight, player, real)


# moving cards, piles, history
def move(ctx: Ctx, cards: Cards, to: str = "discard", of: Player | None = None, reason: str = "put",
         replace: bool = False) -> bool:
    mover = ctx.vars.get("you") or ctx.vars.get("user")
    moved: bool = ctx.game.moves.move_by_text(_cards(cards), to, of, reason, mover, replace)
    return moved


def swap_hands(ctx: Ctx, a: Player, b: Player) -> None:
    if a is not b:
        ctx.game.moves.swap_hands(a, b)


def swap_areas(ctx: Ctx, a: Player, b: Player, area: str) -> None:
    ctx.game.moves.swap_areas(a, b, area)


def pile(ctx: Ctx, player: Player, name: str) -> list[Card]:
    cards: list[Card] = ctx.game.zones.zone_cards(player, name)
    return cards


def history(ctx: Ctx, player: Player, kind: str, period: str) -> list[Card]:
    cards: list[Card] = ctx.game.history.cards(player, kind, period)
    return cards


def damage_history(ctx: Ctx, player: Player, kind: str, period: str) -> int:
    taken: int = ctx.game.history.damage(ctx.game.damage_log, player, kind, period)
    return taken


# kingdoms, read from Player.kingdom only (the mode sets it; "" while unknown)
CAREERIST = "careerist"  # 野心家: a kingdom of their own, the same as nobody's


def kingdom_known(ctx: Ctx, player: Player) -> bool:
    return player.kingdom != ""


def same_kingdom(ctx: Ctx, a: Player, b: Player) -> bool:
    return a.kingdom != "" and a.kingdom == b.kingdom and a.kingdom != CAREERIST


def kingdom_players(ctx: Ctx, player: Player) -> list[Player]:
    if player.kingdom == "":
        return []
    return [p for p in ctx.game.seats.seat_order() if p is player or same_kingdom(ctx, player, p)]


def kingdom_size(ctx: Ctx, kingdom: str) -> int:
    return sum(p.alive and p.kingdom == kingdom for p in ctx.game.players)


def revealed(ctx: Ctx, player: Player) -> bool:
    shown: bool = ctx.game.mode.revealed(player)
    return shown


def head(ctx: Ctx, player: Player) -> str:
    name: str = ctx.game.mode.general_name(player, 0)
    return name


def deputy(ctx: Ctx, player: Player) -> str:
    name: str = ctx.game.mode.general_name(player, 1)
    return name


def hidden_generals(ctx: Ctx, player: Player) -> int:
    hidden: int = ctx.game.mode.hidden_count(player)
    return hidden


def look_general(ctx: Ctx, viewer: Player, player: Player) -> str:
    name: str = ctx.game.mode.look_general(ctx.game, viewer, player)
    return name


def hide_general(ctx: Ctx, player: Player, which: str) -> None:
    ctx.game.mode.hide(ctx.game, player, 0 if which == "head" else 1)


def remove_general(ctx: Ctx, player: Player, which: str) -> None:
    ctx.game.mode.remove(ctx.game, player, 0 if which == "head" else 1)


def swap_seats(ctx: Ctx, a: Player, b: Player) -> None:
    ctx.game.state.swap_seats(a, b)


def lose_general_skills(ctx: Ctx, player: Player, which: str) -> None:
    ctx.game.mode.lose_skills(ctx.game, player, 0 if which == "head" else 1)


def cancel_target(ctx: Ctx, use: Use, player: Player) -> None:
    ctx.game.choices.cancel_target(use, player)


def look_at(ctx: Ctx, player: Player, cards: list[Card]) -> None:
    ctx.game.zones.look_at(player, list(cards))


# The arguments that say how many times an effect acts (cards drawn, answers asked for,
# picks): each is capped at MAX_COUNT and paid for in steps (engine.model.Budget.count).
COUNTS: dict[str, tuple[str, ...]] = {
    "draw": ("n",), "discard": ("n",), "reveal": ("n",), "look": ("n",), "arrange": ("n",),
    "ask_play": ("count",), "choose_cards": ("max", "min"), "choose_players": ("max", "min"),
    "require": ("n",),
}

# every effect and function of this module, by name (its classes are types, no effect)
IMPLS: dict[str, Callable[..., Any]] = {
    name: fn for name, fn in list(globals().items())
    if callable(fn) and not isinstance(fn, type) and not name.startswith("_")
    and getattr(fn, "__module__", "") == __name__
}
