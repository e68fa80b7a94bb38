"""Identity mode (身份局), seed 000 §1-7: roles by the player count, the lord first and shown,
hero selection, the lord's extra max hp, rewards and penalties, victory by role."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, ClassVar

from ..core.defs import Skill
from ..core.model import ROLE_ZH, GameOver, Player
from ..core.modes import IDENTITY
from ..core.native import mypyc_attr
from ..engine.decisions import Option
from .base import BLANK_HP, Dealer, Mode, Placed, placed_cards, unplaced

#: How much a seat's look (its `belief`, -1 to 1) weighs the role a world deals it: a seat that
#: looks a sure ally is e^(2 x 2), about 55 times, likelier dealt a role of one's camp than a sure enemy
BELIEF_WEIGHT = 2.0
LORD_CAMP = ("lord", "loyalist")

if TYPE_CHECKING:
    from ..compiler.library import Hero
    from ..engine.kernel import Game

# players -> (lord, loyalist, rebel, renegade); 2 players: lord vs renegade (seed 002)
ROLE_TABLE: dict[int, tuple[int, int, int, int]] = {
    2: (1, 0, 0, 1), 3: (1, 0, 1, 1), 4: (1, 1, 1, 1), 5: (1, 1, 2, 1), 6: (1, 1, 3, 1),
    7: (1, 2, 3, 1), 8: (1, 2, 4, 1), 9: (1, 3, 4, 1), 10: (1, 3, 4, 2),
}
# `roles alternative` (seed 004's table; data/roles_identity.tsv's variants): two renegades at 6 and 8
# players; its 10-player row (1/3/4/2) is the standard one
ALTERNATIVE_ROLES = {**ROLE_TABLE, 6: (1, 1, 2, 2), 8: (1, 2, 3, 2)}
ROLE_TABLES = {"standard": ROLE_TABLE, "alternative": ALTERNATIVE_ROLES}
REWARD_DRAW = 3
HERO_CHOICES = 3  # heroes dealt to each seat but the lord (seed 000 §2)
HERO_CHOICES_AT_TEN = 2  # at 10 players
LORD_EXTRA_CHOICES = 2  # random heroes the lord gets besides the ruleset's lords


def deal_roles(n: int, rng: Dealer, table: str = "standard") -> list[str]:
    """Roles for n seats by the role table (`roles`); seat 0 is the lord, who takes the first
    turn (the table is rotated so that the lord sits first; the others are shuffled)."""
    lord, loyal, rebel, renegade = ROLE_TABLES[table][n]
    rest = ["loyalist"] * loyal + ["rebel"] * rebel + ["renegade"] * renegade
    rng.shuffle(rest)
    return ["lord"] * lord + rest


def per_seat(players: int) -> int:
    """How many heroes each seat but the lord is dealt."""
    return HERO_CHOICES_AT_TEN if players == 10 else HERO_CHOICES


@mypyc_attr(allow_interpreted_subclasses=True)  # campus and tests subclass it
class IdentityMode(Mode):
    spec = IDENTITY

    # ------------------------------------------------------------ setup
    # random heroes the lord chooses from, besides the ruleset's lords
    lord_extra_choices: ClassVar[int] = LORD_EXTRA_CHOICES
    # the lord's unchosen candidates are shuffled back among the heroes the others are dealt
    # (seed 000 §2: 將剩餘的24張武將牌洗混); False: no hero is offered twice (seed 003)
    unchosen_dealt_again: ClassVar[bool] = True

    def seats(self, n: int, rng: random.Random, with_heroes: bool) -> list[Player]:
        return seat_roles(deal_roles(n, rng, self.option("roles") or "standard"), rng, with_heroes, self.lord_bonus(n))

    def choose_heroes(self, game: Game, pool: list[Hero], rng: Dealer, placed: Placed | None = None) -> None:
        """Hero selection (seed 000 §2): the lord chooses from the ruleset's lords and 2 random
        others, and shows the choice; the remaining heroes are shuffled and every other seat is
        dealt 3 (2 at 10 players) and chooses one; those choices are revealed together. No hero
        is dealt twice. Max hp is the hero's, the lord's +1 from 5 players up (§3). A `placed`
        seat (the lord's too) takes its hero without a choice; no other seat is dealt it."""
        players = game.players
        fixed = placed_cards(pool, placed)
        free = unplaced(pool, fixed)
        lord = next(p for p in players if p.role == "lord")
        others = [p for p in players if p is not lord]
        if lord.seat in fixed:
            chosen = fixed[lord.seat]
            seat_hero(lord, chosen, self.lord_bonus(len(players)))
            game.log(f"{lord.seat + 1}號位主公的武將是{chosen.name}（指定）")
            offered = [chosen]
        else:
            chosen, offered = self._lord_choice(game, lord, free, rng)
        rest = [h for h in free if h is not chosen and (self.unchosen_dealt_again or h not in offered)]
        rng.shuffle(rest)
        dealt = self._deal_others(rest, [p for p in others if p.seat not in fixed], len(pool), len(players))
        # every seat chooses before any choice is shown: the seats keep no hero until all have chosen
        picks = {p.seat: game.ask(p, "hero", "選擇武將", [Option(h.name, h) for h in dealt[p.seat]], "選將").value
                 for p in others if p.seat in dealt}
        for p in others:
            hero = fixed[p.seat] if p.seat in fixed else picks[p.seat]
            seat_hero(p, hero, 0)
            if p.seat in fixed:
                game.log(f"{p.seat + 1}號位的武將是{hero.name}（指定）")
                continue
            picked = f"{p.seat + 1}號位選擇了{hero.name}"
            game.log_hidden(f"{picked}（候選：{'、'.join(h.name for h in dealt[p.seat])}）", picked, frozenset({p.seat}))
        game.skills.changed_skills()

    def _lord_choice(self, game: Game, lord: Player, pool: list[Hero], rng: Dealer) -> tuple[Hero, list[Hero]]:
        """The lord's hero, chosen from the ruleset's lords in the pool and the first random
        others, seated and shown; and the heroes the lord was offered."""
        lords = self.ruleset.lords if self.ruleset is not None else ()
        lord_heroes = [h for key in lords for h in pool if h.key == key]
        rest = [h for h in pool if h.key not in lords]
        rng.shuffle(rest)
        options = lord_heroes + [h for h in rest if not getattr(h, "never_lord", False)][:self.lord_extra_choices]
        if not options:
            raise ValueError("the ruleset's hero packages have no heroes")
        chosen: Hero = game.ask(lord, "hero", "選擇武將（主公）", [Option(h.name, h) for h in options], "選將").value
        seat_hero(lord, chosen, self.lord_bonus(len(game.players)))
        picked = f"{lord.seat + 1}號位主公選擇了{chosen.name}"  # the candidates are the chooser's to see
        game.log_hidden(f"{picked}（候選：{'、'.join(h.name for h in options)}）", picked, frozenset({lord.seat}))
        return chosen, options

    @staticmethod
    def _deal_others(rest: list[Hero], choosers: list[Player], pool: int, players: int) -> dict[int, list[Hero]]:
        """Seat -> the heroes dealt to it to choose from, in order from the shuffled `rest`."""
        each = per_seat(players)
        if choosers and len(rest) < each * len(choosers):  # a small hero package: deal what there is
            each = len(rest) // len(choosers)
            if each == 0:
                raise ValueError(f"{pool} heroes are too few for {players} players")
        return {p.seat: rest[i * each:(i + 1) * each] for i, p in enumerate(choosers)}

    def seat_won(self, game: Game, player: Player, winner: str) -> bool:
        """A renegade's win is the survivor's alone (of two renegades, the one left)."""
        return super().seat_won(game, player, winner) and (player.role != "renegade" or player.alive)

    def opening(self, game: Game) -> str:
        lord = next(p for p in game.players if p.role == "lord")
        return f"身份局 {len(game.players)}人：主公是{lord.label()}（體力上限{lord.max_hp}）"

    def blank_hp(self, role: str, players: int) -> int:
        """The max hp of a blank hero in this role (rulings' tables use it)."""
        return BLANK_HP + (self.lord_bonus(players) if role == "lord" else 0)

    def lord_bonus(self, players: int) -> int:
        """The lord's extra max hp: +1 from 5 players up (seed 000 §3)."""
        return 1 if players >= 5 else 0

    # ------------------------------------------------------------ during the game
    def has_skill(self, player: Player, skill: Skill) -> bool:
        return self.plays_skill(skill) and ("lord" not in skill.tags or player.role == "lord")  # 主公技: the lord's

    def death_note(self, player: Player) -> str:
        return f"，身份是{ROLE_ZH.get(player.role, player.role)}"

    def check_victory(self, game: Game) -> None:
        players: list[Player] = game.players
        lord = next(p for p in players if p.role == "lord")
        alive = [p for p in players if p.alive]
        if not lord.alive:
            if len(alive) == 1 and alive[0].role == "renegade":
                raise GameOver("renegade", "主公陣亡，內奸是唯一存活的角色：內奸獲勝")
            raise GameOver("rebel", "主公陣亡：反賊獲勝")
        if not any(p.alive and p.role in ("rebel", "renegade") for p in players):
            raise GameOver("lord", "反賊和內奸全部陣亡：主公和忠臣獲勝")

    def outcome(self, game: Game) -> str | None:
        """By the roles still alive: without the lord, a renegade alone wins and otherwise the
        rebels (two renegades left alone too: seed 003's campus table); with the lord, once no
        rebel and no renegade is left, the lord's side."""
        alive = sorted(p.role for p in game.players if p.alive)
        if "lord" not in alive:
            return "renegade" if alive == ["renegade"] else "rebel"
        return "lord" if not {"rebel", "renegade"} & set(alive) else None

    def after_death(self, game: Game, dead: Player, killer: Player | None) -> None:
        if killer is None or not killer.alive:
            return
        if dead.role == "rebel":
            game.log(f"{killer.label()}除掉反賊，摸{REWARD_DRAW}張牌")
            game.zones.draw(killer, REWARD_DRAW)
        elif dead.role == "loyalist" and killer.role == "lord":
            cards = killer.hand + list(killer.equips.values())
            game.log(f"主公{killer.label()}除掉忠臣，棄置所有手牌和裝備")
            if cards:
                game.zones.to_discard(cards)

    def visible_side(self, viewer: int, player: Player) -> str | None:
        """Roles are hidden but one's own, the lord's (shown at once) and the dead's."""
        known = player.seat == viewer or player.role == "lord" or not player.alive
        return player.role if known else None

    def pivotal(self, player: Player) -> bool:
        return player.role == "lord"

    def allied(self, mine: str, theirs: str) -> bool:
        """The lord and the loyalists are one camp, the rebels another; a renegade stands alone."""
        return (mine in LORD_CAMP and theirs in LORD_CAMP) or mine == theirs == "rebel"

    def determinize(self, game: Game, viewer: int, rng: random.Random,
                    belief: tuple[float, ...] | None = None) -> None:
        """The roles `viewer` cannot see are dealt again among the players who hold them: at
        random, or with `belief` (the viewer's guess of each seat, 1 an ally, -1 an enemy)
        each seat in turn more likely to be dealt a role of the camp it seems to be of."""
        hidden = [p for p in game.players if self.visible_side(viewer, p) is None]
        roles = [p.role for p in hidden]
        rng.shuffle(roles)
        if belief is None:
            for p, role in zip(hidden, roles, strict=True):
                p.role = role
            return
        mine = game.players[viewer].role
        rng.shuffle(hidden)
        for p in hidden:
            weights = [math.exp(BELIEF_WEIGHT * belief[p.seat] * (1.0 if self.allied(mine, role) else -1.0))
                       for role in roles]
            pick = rng.random() * sum(weights)
            i = 0
            while i < len(roles) - 1 and pick >= weights[i]:
                pick -= weights[i]
                i += 1
            p.role = roles.pop(i)


def seat_roles(roles: list[str], rng: Dealer, with_heroes: bool, lord_bonus: int) -> list[Player]:
    """A seat per role, in order: without a hero until the heroes are chosen, or (a ruleset
    without heroes) a blank hero of a random gender, with the lord's bonus (`lord_bonus`)."""
    seats = []
    for i, role in enumerate(roles):
        if with_heroes:
            seats.append(Player(i, "", "", 0, 0, role))
            continue
        hp = BLANK_HP + (lord_bonus if role == "lord" else 0)
        gender = rng.choice(("male", "female"))
        seats.append(Player(i, "無將" + ("(男)" if gender == "male" else "(女)"), gender, hp, hp, role))
    return seats


def seat_hero(p: Player, hero: Hero, bonus: int) -> None:
    p.name, p.gender, p.kingdom = hero.name, hero.gender, hero.kingdom
    p.hero_key = hero.key
    p.max_hp = p.hp = hero.hp + bonus
    p.skills = tuple(hero.skills)
