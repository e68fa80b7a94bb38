"""The 3v3 team mode of seed 003 (3V3競技模式): two teams of three seated together, a leader
(主將) and two followers (副將) each; heroes picked from one shared pool; the teams alternate
actions, an action being the leader's turn alone or the turns of every living follower; a team
loses when its leader dies. docs/modes.md, "3v3 (seed 003)"."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar

from ..core.defs import Ruleset, Skill
from ..core.model import GameOver, Player
from ..core.modes import TEAM3V3
from ..core.native import mypyc_attr
from ..engine.decisions import Option
from .base import BLANK_HP, Dealer, Mode, Placed, placed_cards, unplaced
from .identity import seat_hero

if TYPE_CHECKING:
    from ..compiler.library import Hero
    from ..engine.kernel import Game

TEAM_SIZE = 3  # seats 1-3 are team A (leader at seat 1), seats 4-6 team B (leader at seat 4)
POOL_SIZE = 12  # heroes dealt to the shared pool (seed 003 選將)
POINTS = tuple(range(6, 0, -1))  # the numbers the two leaders draw from, without replacement: no tie
TEAMS = ("team_a", "team_b")
TEAM_ZH = {"team_a": "甲隊", "team_b": "乙隊"}
ROLE_ZH = TEAM3V3.roles  # leader 主將, follower 副將
LEADER_ALONE, FOLLOWERS = "主將行動", "副將行動"
ACTION_ASKER = "行動權"  # the rule asking who acts (seed 003: 移交行動權)


def team_of(player: Player) -> int:
    """0 for team A (seats 1-3), 1 for team B (seats 4-6): the teams sit together."""
    return player.seat // TEAM_SIZE


@mypyc_attr(allow_interpreted_subclasses=True)  # tests subclass it
class Team3v3Mode(Mode):
    spec = TEAM3V3
    shared_pool: ClassVar[bool] = True  # heroes are picked from one pool, not dealt to each seat (rulings' setup)

    def __init__(self, ruleset: Ruleset | None = None):
        super().__init__(ruleset)
        self.first_team = 0  # the team whose leader takes the game's first turn
        self.queue: list[Player] = []  # the followers still to play in the current team action

    # ------------------------------------------------------------ setup
    def seats(self, n: int, rng: random.Random, with_heroes: bool) -> list[Player]:
        seats = []
        for i in range(n):
            role = "leader" if i % TEAM_SIZE == 0 else "follower"
            if with_heroes:
                seats.append(Player(i, "", "", 0, 0, role))
            else:
                gender = rng.choice(("male", "female"))
                name = "無將" + ("(男)" if gender == "male" else "(女)")
                seats.append(Player(i, name, gender, BLANK_HP, BLANK_HP, role))
        return seats

    def choose_heroes(self, game: Game, pool: list[Hero], rng: Dealer, placed: Placed | None = None) -> None:
        """Seed 003 選將: 12 heroes to one shared pool; each leader draws a number and the higher
        chooses whether its team picks first or second; the teams pick alternately, one hero at a
        time, each seat choosing its own hero when its team's pick comes (the leader first, then
        the followers in seat order); the team that picked second chooses whether it acts first.
        Max hp is the hero's: there is no lord, so no lord bonus. A `placed` hero is set aside
        before the 12 are dealt: its seat takes it when its pick comes, without a choice."""
        fixed = placed_cards(pool, placed)
        heroes = unplaced(pool, fixed)
        rng.shuffle(heroes)
        heroes = heroes[:POOL_SIZE]
        if len(heroes) < len(game.players) - len(fixed):
            raise ValueError(f"{len(pool)} heroes are too few for {len(game.players)} players")
        game.log(f"備選英雄池：{'、'.join(h.name for h in heroes)}")
        first = self._pick_order(game, rng)
        for p in self._pick_seats(game, first):
            self._pick(game, p, heroes, fixed.get(p.seat))
        second = self.leader(game, 1 - first)
        acts_first = game.ask(second, "order", "選擇行動順序", [Option("先行動", True), Option("後行動", False)],
                              ACTION_ASKER).value
        self.first_team = 1 - first if acts_first else first
        game.log(f"{TEAM_ZH[TEAMS[1 - first]]}後選將，選擇{'先' if acts_first else '後'}行動")
        game.skills.changed_skills()

    def _pick(self, game: Game, p: Player, heroes: list[Hero], placed: Hero | None) -> None:
        """The seat's pick: a hero from the shared pool, or the one placed for it."""
        if placed is not None:
            seat_hero(p, placed, 0)
            game.log(f"{p.seat + 1}號位{ROLE_ZH[p.role]}的武將是{placed.name}（指定）")
            return
        hero = game.ask(p, "hero", "選擇武將", [Option(h.name, h) for h in heroes], "選將").value
        heroes.remove(hero)
        seat_hero(p, hero, 0)
        game.log(f"{p.seat + 1}號位{ROLE_ZH[p.role]}選擇了{hero.name}")

    def _pick_order(self, game: Game, rng: Dealer) -> int:
        """The team that picks first: the leader with the higher number decides."""
        points = list(POINTS)
        rng.shuffle(points)
        a, b = points[0], points[1]
        game.log(f"{TEAM_ZH['team_a']}主將點數{a}，{TEAM_ZH['team_b']}主將點數{b}")
        higher = 0 if a > b else 1
        goes_first = game.ask(self.leader(game, higher), "order", "選擇選將順序",
                              [Option("先選將", True), Option("後選將", False)], "選將").value
        game.log(f"{TEAM_ZH[TEAMS[higher]]}點數大，選擇{'先' if goes_first else '後'}選將")
        return higher if goes_first else 1 - higher

    def _pick_seats(self, game: Game, first: int) -> list[Player]:
        """The seats in picking order: the teams alternate, each team's seats in seat order."""
        teams = [[p for p in game.players if team_of(p) == t] for t in (first, 1 - first)]
        return [p for pair in zip(*teams, strict=True) for p in pair]

    def opening(self, game: Game) -> str:
        first = self.leader(game, self.first_team)
        return f"3V3競技模式：{TEAM_ZH[TEAMS[self.first_team]]}先行動，{first.label()}先行動"

    # ------------------------------------------------------------ turn order
    def leader(self, game: Game, team: int) -> Player:
        return game.players[team * TEAM_SIZE]

    def first_player(self, game: Game) -> Player:
        """The first action of the game is a leader's (seed 003 開始遊戲 1)."""
        return self.leader(game, self.first_team)

    def next_player(self, game: Game, player: Player) -> Player:
        """The current team action goes on while followers are left to play; otherwise the other
        team acts, its leader choosing to play alone or to let every living follower play, and
        which of them plays first."""
        self.queue = [p for p in self.queue if p.alive]
        if self.queue:
            return self.queue.pop(0)
        team = 1 - team_of(player)
        leader = self.leader(game, team)
        followers = [p for p in game.players if team_of(p) == team and p is not leader and p.alive]
        options = [Option(LEADER_ALONE, False)] + ([Option(FOLLOWERS, True)] if followers else [])
        followers_act = game.ask(leader, "order", "選擇本隊行動", options, ACTION_ASKER).value
        game.log(f"{TEAM_ZH[TEAMS[team]]}行動：{leader.label()}選擇{FOLLOWERS if followers_act else LEADER_ALONE}")
        if not followers_act:
            return leader
        first = followers[0]
        if len(followers) > 1:  # the leader chooses which follower takes the first turn (seed 003)
            first = game.ask(leader, "order", "選擇先行動的副將", [Option(p.label(), p) for p in followers],
                             ACTION_ASKER).value
        self.queue = [p for p in followers if p is not first]
        return first

    # ------------------------------------------------------------ during the game
    def pivotal(self, player: Player) -> bool:
        return player.role == "leader"  # a team loses when its leader dies

    def plays_skill(self, skill: Skill) -> bool:
        return "lord" not in skill.tags  # no 主公 in 3v3: no lord skills

    def death_note(self, player: Player) -> str:
        return f"，身份是{TEAM_ZH[self.side(None, player)]}{ROLE_ZH.get(player.role, player.role)}"

    def check_victory(self, game: Game) -> None:
        for team, name in enumerate(TEAMS):
            if not self.leader(game, team).alive:
                winner = TEAMS[1 - team]
                raise GameOver(winner, f"{TEAM_ZH[name]}主將陣亡：{TEAM_ZH[winner]}獲勝")

    def outcome(self, game: Game) -> str | None:
        """The team whose leader alone is still alive."""
        standing = [team for team, name in enumerate(TEAMS)
                    if any(p.alive and p.role == "leader" and team_of(p) == team for p in game.players)]
        return TEAMS[standing[0]] if len(standing) == 1 else None

    def invariant_problems(self, game: Game) -> list[str]:
        """Each team is a leader in its first seat and two followers; the seats still to play
        in the current team action are followers of one team (one who died since is passed
        over when its turn would come)."""
        problems = [f"{p.label()} is a {p.role}, but seat {p.seat + 1} holds the "
                    + ("leader" if p.seat % TEAM_SIZE == 0 else "follower") + " of its team"
                    for p in game.players if (p.role == "leader") != (p.seat % TEAM_SIZE == 0)]
        teams = {team_of(p) for p in self.queue}
        if len(teams) > 1 or any(p.role != "follower" for p in self.queue):
            problems.append("the seats still to act are not followers of one team: "
                            + "、".join(p.label() for p in self.queue))
        return problems

    def visible_side(self, viewer: int, player: Player) -> str | None:
        return self.side(None, player)  # the teams sit together, their roles shown

    # ------------------------------------------------------------ results
    def side(self, game: Game | None, player: Player) -> str:  # the seat alone says it: no game needed
        return TEAMS[team_of(player)]
