"""國戰 (Hegemony), seed 001: every player is two face-down generals of one kingdom (the head
and the deputy); a general shows (明置) as its owner's turn starts or when one of its skills is
invoked; the first general shown decides the kingdom, or a careerist (野心家) once that kingdom
would have more than half the players; max hp from the generals' yin-yang halves; companions
(珠聯璧合) and a leftover half reward the first time both generals are face up; rewards and
penalties by kingdom; victory only once every living player's kingdom is known."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import attr

from ..core.defs import Ruleset, Skill
from ..core.model import GameOver, Player
from ..core.modes import HEGEMONY
from ..core.native import mypyc_attr
from ..engine.decisions import Option
from .base import Dealer, Mode, Placed, placed_cards, unplaced

if TYPE_CHECKING:
    from ..compiler.library import General, Library
    from ..engine.kernel import Game

CAREERIST = "careerist"  # 野心家: a kingdom of its own, different from every other player's
KINGDOM_ZH = {"wei": "魏", "shu": "蜀", "wu": "吳", "qun": "群", "god": "神", CAREERIST: "野心家"}
COMPANION_DRAW, COMPANION_RECOVER = "摸兩張牌", "回復1點體力"
SHOW, KEEP = "明置", "不明置"
HEAD, DEPUTY = 0, 1
SLOT_ZH = ("主將", "副將")


# attr.s(auto_attribs=True), not a slotted attrs.define: the form mypyc compiles (docs/performance.md)
@attr.s(auto_attribs=True, eq=False, order=False)
class Generals:
    """A player's two general cards and which are face up."""

    cards: tuple[General, General]  # (head, deputy)
    shown: list[bool] = attr.ib(factory=lambda: [False, False])
    paired: bool = False  # both have been face up (the first time is rewarded)
    removed: list[bool] = attr.ib(factory=lambda: [False, False])  # 移除: out of the game
    silenced: list[bool] = attr.ib(factory=lambda: [False, False])  # its skills lost (斷腸)

    def gives(self, slot: int, skill: Skill) -> bool:
        """The general in this slot gives the skill: it is in the game and its skills are not lost."""
        return not self.removed[slot] and not self.silenced[slot] and any(s is skill for s in self.cards[slot].skills)

    def owner_of(self, skill: Skill) -> int | None:
        """Which general in the game has the skill (the head when both have it)."""
        return next((i for i in (HEAD, DEPUTY) if self.gives(i, skill)), None)

    def showing(self, skill: Skill) -> int:
        """How many face-up generals give the skill."""
        return sum(self.shown[i] and self.gives(i, skill) for i in (HEAD, DEPUTY))


@mypyc_attr(allow_interpreted_subclasses=True)  # tests subclass it
class HegemonyMode(Mode):
    spec = HEGEMONY
    lone_sides = (CAREERIST,)
    hides_skills = True
    cards_per_seat = 2
    locked_first = True  # one player's locked skills of one window before the others (seed 001 Q&A 7)
    turned_words = ("將武將牌疊置", "將武將牌恢復平置")  # seed 001 新概念 3, 4: 疊置 and 平置

    def __init__(self, ruleset: Ruleset | None = None):
        super().__init__(ruleset)
        self.generals: dict[int, Generals] = {}
        self.shown_by_kingdom: dict[str, int] = {}  # players who showed a general of each kingdom (dead too)
        self.first: int = 0
        self.fish: dict[int, int] = {}  # 陰陽魚 tokens (the `token` variant of the leftover half)
        # seats whose kingdom text changed (set_kingdom, set_hero) -> whether it had been decided
        # (and counted towards the careerist threshold) before: that kingdom is the text's
        self.text_kingdoms: dict[int, bool] = {}
        self.fish_limit: dict[int, int] = {}  # seat -> the turn its token raised the hand limit

    # ------------------------------------------------------------ setup
    def seats(self, n: int, rng: random.Random, with_heroes: bool) -> list[Player]:
        if not with_heroes:
            raise ValueError("國戰 needs general cards: give the ruleset `heroes` packages of generals")
        self.first = rng.randrange(n)  # the first player is chosen at random (seed 001)
        return [Player(i, "", "", 0, 0, "") for i in range(n)]

    def hero_pool(self, library: Library, packages: tuple[str, ...]) -> list[General]:
        return [g for g in library.generals.values() if g.package in packages]

    def dealt(self, players: int) -> int:
        return self.option("generals") or (5 if players >= 9 else 7)

    def choose_heroes(self, game: Game, pool: list[General], rng: Dealer, placed: Placed | None = None) -> None:
        """Each player is dealt 7 generals (5 at 9-12 players; fewer from a small package) and
        chooses two of one kingdom, face down: the head, then the deputy (seed 001). A `placed`
        general is one of its seat's two, the head or the deputy as the seat chooses; the other
        is one of its kingdom among the generals dealt to the seat: the first of that kingdom in
        the shuffled cards, so that it can always pair it, and as many more as fill its hand,
        dealt after the other seats'."""
        fixed = placed_cards(pool, placed)
        cards = unplaced(pool, fixed)
        rng.shuffle(cards)
        mates = {seat: _mate(general, cards) for seat, general in fixed.items()}
        n = len(game.players)
        each = min(self.dealt(n), len(pool) // n)
        dealt = iter(_deal(cards, n - len(fixed), each, rng))
        hands = [[mates[seat]] if seat in mates else next(dealt) for seat in range(n)]
        if mates:
            _fill(hands, list(mates), cards, each - 2)
        picks = [(p, self._pick_pair(game, p, hands[p.seat]) if p.seat not in fixed
                  else self._pick_beside(game, p, hands[p.seat], fixed[p.seat])) for p in game.players]
        for p, (head, deputy) in picks:
            self.seat_generals(game, p, head, deputy)
        game.skills.changed_skills()

    def placement_problem(self, pool: list[Any], name: str) -> str:
        """A general placed on a seat needs another of its kingdom in the pool to pair with."""
        kingdom = next((g.kingdom for g in pool if g.key == name), None)
        if sum(g.kingdom == kingdom for g in pool) >= 2:
            return ""
        return f"{name} is the only general of its kingdom in the ruleset: a seat's two generals are of one kingdom"

    def _pick_pair(self, game: Game, p: Player, hand: list[General]) -> tuple[General, General]:
        heads = [g for g in hand if any(o is not g and o.kingdom == g.kingdom for o in hand)]
        head = game.ask(p, "hero", "選擇主將", [Option(g.name, g) for g in heads], "選將").value
        mates = [g for g in hand if g is not head and g.kingdom == head.kingdom]
        deputy = game.ask(p, "hero", "選擇副將", [Option(g.name, g) for g in mates], "選將").value
        return head, deputy

    def _pick_beside(self, game: Game, p: Player, hand: list[General], placed: General) -> tuple[General, General]:
        """The placed general and one of its kingdom from the hand: the head is either (the
        placed one offered first), the other is the deputy."""
        mates = [g for g in hand if g.kingdom == placed.kingdom]
        head = game.ask(p, "hero", "選擇主將", [Option(g.name, g) for g in [placed, *mates]], "選將").value
        if head is not placed:
            return head, placed
        deputy = game.ask(p, "hero", "選擇副將", [Option(g.name, g) for g in mates], "選將").value
        return placed, deputy

    def seat_generals(self, game: Game, p: Player, head: General, deputy: General) -> None:
        """The two generals face down: max hp from their halves; no name, gender or kingdom yet."""
        self.generals[p.seat] = Generals((head, deputy))
        p.max_hp = p.hp = (head.hp_half + deputy.hp_half) // 2
        p.skills = tuple(dict.fromkeys(head.skills + deputy.skills))
        p.gender, p.kingdom = "", ""
        self._rename(p)

    def place_generals(self, game: Game, p: Player, head: General, deputy: General, shown: str,
                       careerist: bool = False) -> None:
        """A table set by hand (a ruling): the generals, those named face up already shown, the
        kingdom decided as if they had been shown in the order the seats are placed; no event,
        no reward. `careerist`: the player revealed itself as one (野心家): placed once the
        players who showed its kingdom before it are, past half the table."""
        self.seat_generals(game, p, head, deputy)
        seat = self.generals[p.seat]
        seat.shown = [shown in ("head", "both"), shown in ("deputy", "both")]
        seat.paired = all(seat.shown)
        if any(seat.shown):
            first = seat.cards[HEAD] if seat.shown[HEAD] else seat.cards[DEPUTY]
            count = self.shown_by_kingdom.get(first.kingdom, 0) + 1
            self.shown_by_kingdom[first.kingdom] = count
            p.kingdom = CAREERIST if careerist or count * 2 > len(game.players) else first.kingdom
            p.gender = first.gender if not seat.shown[HEAD] else head.gender
        self._rename(p)

    def opening(self, game: Game) -> str:
        return f"國戰 {len(game.players)}人：{self.first_player(game).label()}為起始玩家"

    def first_player(self, game: Game) -> Player:
        return game.players[self.first]

    # ------------------------------------------------------------ showing generals
    def phase_starting(self, game: Game, player: Player, phase: str) -> None:
        """回合開始階段開始時: the player may show any face-down general (seed 001); as the
        discard phase starts, a 陰陽魚 token may be spent for hand limit +2 this turn."""
        if phase == "discard" and self.fish.get(player.seat) and game.ask(
                player, "choice", "是否棄置陰陽魚標記，本回合手牌上限+2？",
                [Option("棄置陰陽魚", True), Option("不棄置", False)], "陰陽魚").value:
            self._spend_fish(game, player)
            self.fish_limit[player.seat] = game.turns
        if phase != "prepare" or player.seat not in self.generals:
            return
        for slot in (HEAD, DEPUTY):
            if not self.generals[player.seat].shown[slot] and player.alive and game.prohibits.may_reveal(player):
                name = self.generals[player.seat].cards[slot].name
                if game.ask(player, "reveal", f"是否明置{SLOT_ZH[slot]}{name}？", [Option(SHOW, True),
                            Option(KEEP, False)], "明置").value:
                    self.show(game, player, slot)

    def on_invoke(self, game: Game, player: Player, skill: Skill) -> None:
        seat = self.generals.get(player.seat)
        if seat is None:
            return
        slot = seat.owner_of(skill)
        if slot is not None and self.hidden(player, skill):
            self.show(game, player, slot)

    def show(self, game: Game, player: Player, slot: int) -> None:
        """明置: the general turns face up; the first one decides the kingdom (or a careerist)."""
        seat = self.generals[player.seat]
        if seat.shown[slot]:
            return
        seat.shown[slot] = True
        general = seat.cards[slot]
        game.log(f"{player.label()}明置{SLOT_ZH[slot]}{general.name}")
        if not player.kingdom:
            self._decide_kingdom(game, player, general.kingdom)
        head, deputy = seat.cards
        player.gender = head.gender if seat.shown[HEAD] else deputy.gender  # the head's once both show
        self._rename(player)
        game.skills.changed_skills()
        if all(seat.shown) and not seat.paired:
            seat.paired = True
            self._both_shown(game, player, seat)
        self.check_victory(game)  # a kingdom now known may be the last one standing

    def _decide_kingdom(self, game: Game, player: Player, kingdom: str) -> None:
        count = self.shown_by_kingdom.get(kingdom, 0) + 1
        self.shown_by_kingdom[kingdom] = count
        if count * 2 > len(game.players):  # more than half the players: a careerist (seed 001)
            player.kingdom = CAREERIST
            game.log(f"{player.label()}成為野心家")
        else:
            player.kingdom = kingdom
            game.log(f"{player.label()}的勢力確定為{KINGDOM_ZH.get(kingdom, kingdom)}")

    def _both_shown(self, game: Game, player: Player, seat: Generals) -> None:
        """The first time both generals are face up: companions may draw 2 or recover 1; a
        leftover half of a yin-yang fish may draw 1 (seed 001, the original rules)."""
        head, deputy = seat.cards
        if deputy.key in head.companions:
            game.log(f"{player.label()}的{head.name}與{deputy.name}珠聯璧合")
            options = [Option(COMPANION_DRAW, "draw")] + (
                [Option(COMPANION_RECOVER, "recover")] if player.hp < player.max_hp else [])
            if game.ask(player, "choice", "選擇一項", options, "珠聯璧合").value == "draw":
                game.zones.draw(player, 2)
            else:
                game.hp.recover(player, 1)
        if not (head.hp_half + deputy.hp_half) % 2:
            return
        if self.option("leftover_half") == "token":  # the revised rules: a token to spend later
            self.fish[player.seat] = self.fish.get(player.seat, 0) + 1
            game.log(f"{player.label()}獲得一枚陰陽魚標記")
        elif game.ask(player, "choice", "是否摸一張牌？", [Option("摸一張牌", True), Option("不摸", False)],
                      "陰陽魚").value:
            game.zones.draw(player, 1)

    def _spend_fish(self, game: Game, player: Player) -> None:
        self.fish[player.seat] -= 1
        game.log(f"{player.label()}棄置一枚陰陽魚標記")

    def hand_limit_bonus(self, game: Game, player: Player) -> int:
        return 2 if self.fish_limit.get(player.seat) == game.turns else 0

    def _rename(self, player: Player) -> None:
        player.name = self._name(self.generals[player.seat])

    @staticmethod
    def _name(seat: Generals) -> str:
        """A seat's name as the table shows it: its face-up generals, 暗將 for a face-down one."""
        return f"{_face(seat, HEAD)}·{_face(seat, DEPUTY)}"

    # ------------------------------------------------------------ during the game
    def plays_skill(self, skill: Skill) -> bool:
        return "lord" not in skill.tags  # no lords in this package of 國戰

    def has_skill(self, player: Player, skill: Skill) -> bool:
        if not self.plays_skill(skill):
            return False
        seat = self.generals.get(player.seat)
        if seat is None:
            return True
        slot = seat.owner_of(skill)
        if slot is None:  # its general was removed or lost its skills; else a skill granted
            return not any(s is skill for g in seat.cards for s in g.skills)
        if ("head" in skill.tags and slot != HEAD) or ("deputy" in skill.tags and slot != DEPUTY):
            return False  # 主將技 / 副將技: only on a general in that place
        return not self.hidden(player, skill) or _invocable(skill)

    def hidden(self, player: Player, skill: Skill) -> bool:
        """A skill of the player's generals that no face-up general has, unless it acts while
        face down (`while_hidden`); equipment's skills and cards' rules are no general's."""
        seat = self.generals.get(player.seat)
        if seat is None or "while_hidden" in skill.tags or seat.owner_of(skill) is None:
            return False
        return not seat.showing(skill)

    def copies(self, player: Player, skill: Skill) -> int:
        seat = self.generals.get(player.seat)
        if seat is None:
            return 1
        if "while_hidden" in skill.tags:
            return max(1, sum(seat.gives(i, skill) for i in (HEAD, DEPUTY)))
        return max(1, seat.showing(skill))

    def play_options(self, game: Game, player: Player) -> list[Option]:
        """A face-down general with a `show_in_play` skill may be shown in its owner's play phase;
        a 陰陽魚 token may be spent to draw one."""
        seat = self.generals.get(player.seat)
        fish = [Option("棄置陰陽魚標記，摸一張牌", ("mode", "fish"))] if self.fish.get(player.seat) else []
        if seat is None or all(seat.shown):
            return fish
        slots = [i for i in (HEAD, DEPUTY) if not seat.shown[i] and not seat.removed[i] and not seat.silenced[i]
                 and any("show_in_play" in s.tags for s in seat.cards[i].skills)]
        if not slots or not game.prohibits.may_reveal(player):
            return fish
        return [Option(f"明置{SLOT_ZH[i]}{seat.cards[i].name}", ("mode", i)) for i in slots] + fish

    def play_action(self, game: Game, player: Player, what: Any) -> None:
        if what == "fish":
            self._spend_fish(game, player)
            game.zones.draw(player, 1)
        else:
            self.show(game, player, what)

    def hidden_count(self, player: Player) -> int:
        seat = self.generals.get(player.seat)
        return 0 if seat is None else sum(not s and not r for s, r in zip(seat.shown, seat.removed, strict=True))

    def look_general(self, game: Game, viewer: Player, player: Player) -> str:
        """The viewer looks at one of the player's face-down generals (知己知彼)."""
        seat = self.generals.get(player.seat)
        slots = [i for i in (HEAD, DEPUTY) if seat is not None and not seat.shown[i] and not seat.removed[i]]
        if seat is None or not slots:
            return ""
        slot = game.ask(viewer, "choice", f"觀看{player.label()}的哪一張暗置武將牌？",
                        [Option(SLOT_ZH[i], i) for i in slots]).value
        name = seat.cards[slot].name
        looked = f"{viewer.label()}觀看{player.label()}的{SLOT_ZH[slot]}"  # which one is public, not what it is
        game.log_hidden(f"{looked}（{name}）", looked, frozenset({viewer.seat, player.seat}))
        return name

    def hide(self, game: Game, player: Player, slot: int) -> None:
        """暗置: a face-up general turns face down; the kingdom stays decided, its skills wait."""
        seat = self.generals.get(player.seat)
        if seat is None or not seat.shown[slot] or seat.removed[slot]:
            return
        seat.shown[slot] = False
        game.log(f"{player.label()}暗置{SLOT_ZH[slot]}{seat.cards[slot].name}")
        other = seat.cards[1 - slot]
        player.gender = other.gender if seat.shown[1 - slot] else ""
        self._rename(player)
        game.skills.changed_skills()

    def remove(self, game: Game, player: Player, slot: int) -> None:
        """移除: the general leaves the game with its skills; a face-down one is shown first."""
        seat = self.generals.get(player.seat)
        if seat is None or seat.removed[slot]:
            return
        if not seat.shown[slot]:
            self.show(game, player, slot)
        seat.removed[slot] = True
        game.log(f"{player.label()}移除{SLOT_ZH[slot]}{seat.cards[slot].name}")
        player.gender = seat.cards[1 - slot].gender if seat.shown[1 - slot] and not seat.removed[1 - slot] else ""
        self._rename(player)
        game.skills.changed_skills()

    def lose_all_skills(self, game: Game, player: Player) -> None:
        """Both generals' skills are lost (each general stays, face up or down), and any skill
        the player gained besides."""
        for slot in (HEAD, DEPUTY):
            self.lose_skills(game, player, slot)
        if player.skills:
            player.skills = ()
            game.skills.changed_skills()

    def lose_skills(self, game: Game, player: Player, slot: int) -> None:
        """The general stays (its kingdom, gender and place) but its skills are lost for the game."""
        seat = self.generals.get(player.seat)
        if seat is None or seat.removed[slot] or seat.silenced[slot]:
            return
        seat.silenced[slot] = True
        general = f"{player.label()}失去{SLOT_ZH[slot]}"
        named = f"{general}{seat.cards[slot].name}的所有技能"
        if seat.shown[slot]:
            game.log(named)
        else:  # a face-down general stays unnamed to the others
            game.log_hidden(named, f"{general}的所有技能", frozenset({player.seat}))
        game.skills.changed_skills()

    def determinize(self, game: Game, viewer: int, rng: random.Random,
                    belief: tuple[float, ...] | None = None) -> None:
        """The pairs of generals `viewer` cannot see (both face down, on a living player) are
        dealt again among the seats that hold them, each keeping a pair of its max hp (the
        table shows hp). A general the viewer looked at (知己知彼) is dealt again too: the
        forward model does not keep that look."""
        groups: dict[int, list[Player]] = {}
        for p in game.players:
            seat = self.generals.get(p.seat)
            if p.seat != viewer and p.alive and seat is not None and not any(seat.shown) and not any(seat.removed):
                groups.setdefault(p.max_hp, []).append(p)
        for players in groups.values():
            pairs = [self.generals[p.seat] for p in players]
            rng.shuffle(pairs)
            for p, pair in zip(players, pairs, strict=True):
                self.generals[p.seat] = pair
                p.skills = tuple(dict.fromkeys(pair.cards[HEAD].skills + pair.cards[DEPUTY].skills))

    def revealed(self, player: Player) -> bool:
        seat = self.generals.get(player.seat)
        return seat is None or any(seat.shown)

    def general_name(self, player: Player, slot: int) -> str:
        seat = self.generals.get(player.seat)
        if seat is None:
            return ""
        return seat.cards[slot].name if seat.shown[slot] else ""

    def death_note(self, player: Player) -> str:
        seat = self.generals.get(player.seat)
        if seat is None:
            return ""
        for slot in (HEAD, DEPUTY):  # the dead show their generals
            if not seat.shown[slot]:
                seat.shown[slot] = True
                if not player.kingdom:
                    player.kingdom = self._kingdom_of_dead(seat.cards[slot].kingdom)
        self._rename(player)
        return f"，勢力是{KINGDOM_ZH.get(player.kingdom, player.kingdom)}"

    def _kingdom_of_dead(self, kingdom: str) -> str:
        """A player who dies unrevealed is shown to verify the kingdom: counted like a reveal."""
        count = self.shown_by_kingdom.get(kingdom, 0) + 1
        self.shown_by_kingdom[kingdom] = count
        return kingdom if count * 2 <= self._players else CAREERIST

    @property
    def _players(self) -> int:
        return len(self.generals)

    def check_victory(self, game: Game) -> None:
        """Only once every living player's kingdom is known: one kingdom left (or one player) wins."""
        alive = [p for p in game.players if p.alive]
        if any(not p.kingdom for p in alive):
            return
        if len(alive) == 1:
            p = alive[0]
            raise GameOver(p.kingdom, f"{p.label()}是唯一存活的角色：{KINGDOM_ZH.get(p.kingdom, p.kingdom)}獲勝")
        kingdoms = {p.kingdom for p in alive}
        if len(kingdoms) == 1 and CAREERIST not in kingdoms:
            k = kingdoms.pop()
            raise GameOver(k, f"只剩下{KINGDOM_ZH.get(k, k)}勢力的角色：{KINGDOM_ZH.get(k, k)}獲勝")

    def outcome(self, game: Game) -> str | None:
        """Once no living player's kingdom is unknown: the last one standing, or the one
        kingdom (not careerists) that every living player is of."""
        kingdoms = [p.kingdom for p in game.players if p.alive]
        if "" in kingdoms:
            return None
        if len(kingdoms) == 1:
            return kingdoms[0]
        return kingdoms[0] if len(set(kingdoms)) == 1 and kingdoms[0] != CAREERIST else None

    def text_sets_kingdom(self, game: Game, player: Player) -> None:
        self.text_kingdoms.setdefault(player.seat, bool(player.kingdom))

    def invariant_problems(self, game: Game) -> list[str]:
        """Kingdoms agree with the generals shown (seed 001): a player with a general face up,
        or dead, has a kingdom, that of its generals or careerist; the players counted towards
        the careerist threshold of each kingdom are those whose kingdom was decided by a general
        of it; no kingdom holds more than half the players, and a careerist's kingdom had
        passed half when it was decided; each seat's name shows its face-up generals."""
        n = len(game.players)
        problems: list[str] = []
        counted: dict[str, int] = {}
        by_kingdom: dict[str, int] = {}
        for p in game.players:
            seat = self.generals.get(p.seat)
            if seat is None:
                continue
            origin = seat.cards[HEAD].kingdom
            if p.seat in self.text_kingdoms:
                counted[origin] = counted.get(origin, 0) + self.text_kingdoms[p.seat]
                continue
            if not p.kingdom:
                if any(seat.shown) or not p.alive:
                    problems.append(f"{p.label()} has a general face up{'' if p.alive else ' (dead)'} but no kingdom")
                continue
            counted[origin] = counted.get(origin, 0) + 1
            by_kingdom[p.kingdom] = by_kingdom.get(p.kingdom, 0) + 1
            if p.kingdom not in (origin, CAREERIST):
                problems.append(f"{p.label()} is of kingdom {p.kingdom}, but its generals are {origin}")
            elif p.kingdom == CAREERIST and self.shown_by_kingdom.get(origin, 0) * 2 <= n:
                problems.append(f"{p.label()} is a careerist, but only {self.shown_by_kingdom.get(origin, 0)} "
                                f"of {n} players showed {origin}")
            if p.name != self._name(seat):
                problems.append(f"{p.label()} is named {p.name}, but its generals show {self._name(seat)}")
        for kingdom in sorted(set(counted) | set(self.shown_by_kingdom)):
            if counted.get(kingdom, 0) != self.shown_by_kingdom.get(kingdom, 0):
                problems.append(f"{self.shown_by_kingdom.get(kingdom, 0)} player(s) counted towards the careerist "
                                f"threshold of {kingdom}, but {counted.get(kingdom, 0)} decided it by its generals")
        problems += [f"{count} of {n} players are of kingdom {kingdom}: past half, the later ones are careerists"
                     for kingdom, count in sorted(by_kingdom.items()) if kingdom != CAREERIST and count * 2 > n]
        return problems

    def after_death(self, game: Game, dead: Player, killer: Player | None) -> None:
        """獎懲, only for a killer whose kingdom is known: the same kingdom discards all hand and
        equipment cards; another kingdom draws that kingdom's number of players, the dead one
        included (a careerist is a kingdom of one)."""
        if killer is None or not killer.alive or not killer.kingdom:
            return
        if killer.kingdom == dead.kingdom and killer.kingdom != CAREERIST:
            cards = killer.hand + list(killer.equips.values())
            game.log(f"{killer.label()}除掉同勢力角色，棄置所有手牌和裝備")
            if cards:
                game.zones.to_discard(cards)
            return
        if dead.kingdom == CAREERIST:
            n = 1
        else:
            n = 1 + sum(p.alive and p.kingdom == dead.kingdom for p in game.players)
        game.log(f"{killer.label()}除掉{KINGDOM_ZH.get(dead.kingdom, dead.kingdom)}勢力角色，摸{n}張牌")
        game.zones.draw(killer, n)

    def visible_generals(self, viewer: int, player: Player) -> tuple[str, ...]:
        """Face-up generals for everyone; one's own face-down ones for oneself only."""
        seat = self.generals.get(player.seat)
        if seat is None:
            return ()
        return tuple(g.name if shown or player.seat == viewer else ""
                     for g, shown in zip(seat.cards, seat.shown, strict=True))

    def generals_shown(self, player: Player) -> tuple[bool, ...]:
        seat = self.generals.get(player.seat)
        return tuple(seat.shown) if seat is not None else ()

    def dealt_sides(self, game: Game) -> dict[str, int] | None:
        return None  # how many of each kingdom sit at the table shows only as generals are shown

    def visible_side(self, viewer: int, player: Player) -> str | None:
        if player.kingdom:
            return player.kingdom
        seat = self.generals.get(player.seat)
        return seat.cards[HEAD].kingdom if player.seat == viewer and seat is not None else None

    # ------------------------------------------------------------ results
    def side(self, game: Game, player: Player) -> str:
        if player.kingdom:
            return player.kingdom
        seat = self.generals.get(player.seat)
        return seat.cards[HEAD].kingdom if seat is not None else ""

    def seat_heroes(self, game: Game, player: Player) -> tuple[str, ...]:
        seat = self.generals.get(player.seat)
        return tuple(c.key for c in seat.cards) if seat is not None else ()


def _face(seat: Generals, slot: int) -> str:
    """What the table shows of one general card: its name face up, 暗將 face down, 移除 removed."""
    if seat.removed[slot]:
        return "移除"
    return seat.cards[slot].name if seat.shown[slot] else "暗將"


def _deal(cards: list[General], n: int, each: int, rng: Dealer) -> list[list[General]]:
    """`each` generals per seat, in order from the shuffled cards. Seven (or five) always hold
    two of one kingdom; from a small package a seat might hold none, and then every seat is
    first given two of one kingdom (a kingdom chosen at random among those left with two),
    and the rest is dealt after."""
    hands = [cards[i * each:(i + 1) * each] for i in range(n)]
    if all(_pairs(h) for h in hands):
        return hands
    pool = list(cards)
    hands = [[] for _ in range(n)]
    for hand in hands:
        kingdoms = sorted({g.kingdom for g in pool if sum(o.kingdom == g.kingdom for o in pool) >= 2})
        if not kingdoms:
            raise ValueError(f"{len(cards)} generals are too few for {n} players: not every seat can hold two of one kingdom")
        kingdom = rng.choice(kingdoms)
        pair = [g for g in pool if g.kingdom == kingdom][:2]
        for g in pair:
            pool.remove(g)
        hand += pair
    for hand in hands:
        while len(hand) < each and pool:
            hand.append(pool.pop())
    return hands


def _mate(placed: General, cards: list[General]) -> General:
    """The first general of the placed one's kingdom, taken out of the shuffled `cards`."""
    at = next((i for i, g in enumerate(cards) if g.kingdom == placed.kingdom), None)
    if at is None:
        raise ValueError(f"{placed.name} is the only general of its kingdom here: a seat needs two of one kingdom")
    return cards.pop(at)


def _fill(hands: list[list[General]], seats: list[int], cards: list[General], more: int) -> None:
    """Deal `more` of the cards no hand holds to each of `seats`, in seat order."""
    left = [g for g in cards if not any(g is o for h in hands for o in h)]
    for i, seat in enumerate(seats):
        hands[seat] += left[i * more:(i + 1) * more]


def _pairs(hand: list[General]) -> bool:
    kingdoms = [g.kingdom for g in hand]
    return len(set(kingdoms)) < len(kingdoms)


def _invocable(skill: Skill) -> bool:
    """A skill that can be invoked from a face-down general, which shows it (seed 001): an
    action, a conversion, a trigger (a locked one too: Q&A 7), or extra targets a card may
    take (`modify targets(CARD) += N`, not locked: 短兵-like; picking such a target is the use,
    engine.using.hidden_slots). Other modifiers, prohibits and filters only act face up
    (`show_in_play` lets one be shown in the play phase)."""
    return bool(skill.actives or skill.view_as or any(not t.helper for ts in skill.triggers.values() for t in ts)
                or ("locked" not in skill.tags and any(m.adds_targets for m in skill.modifiers)))
