"""The campus identity games of seed 003 (英雄殺-style, 五人場 and 八人場): identity mode with
its own role tables (5: 1 lord, 1 loyalist, 2 rebels, 1 renegade; 8: 1/2/4/1, or 1/2/3/2 with
the two-renegade option), the lord choosing from 5 random heroes and every other seat from 3,
the seed's victory table, and the 五人簡易場 (5 players, no hero skills) as an option."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..core.defs import Skill
from ..core.model import GameOver, Player
from ..core.modes import CAMPUS
from ..core.native import mypyc_attr
from .identity import IdentityMode, seat_roles

if TYPE_CHECKING:
    from ..engine.kernel import Game

# players -> (lord, loyalist, rebel, renegade), seed 003 1、抽選身份
CAMPUS_ROLES: dict[int, tuple[int, int, int, int]] = {5: (1, 1, 2, 1), 8: (1, 2, 4, 1)}
TWO_RENEGADES = (1, 2, 3, 2)  # the 8-player table of the two-renegade rule (勝負判斷 (4))
LORD_CHOICES = 5  # 主公……武將是隨機產生五個供選擇


@mypyc_attr(allow_interpreted_subclasses=True)
class CampusMode(IdentityMode):
    spec = CAMPUS
    lord_extra_choices = LORD_CHOICES
    unchosen_dealt_again = False  # 每個玩家隨機產生3個武將可供選擇（不得出現重複）

    # ------------------------------------------------------------ setup
    def check_players(self, n: int) -> None:
        if n not in CAMPUS_ROLES:
            raise ValueError(f"{self.spec.title} ({self.name}) is played by 5 or 8 players (五人場，八人場), not {n}")
        if self.option("renegades") == 2 and n != 8:
            raise ValueError("two renegades (`renegades 2`) is the 8-player table (1 lord, 2 loyalists, 3 rebels, 2 renegades)")
        if self.option("skills") == "off" and n != 5:
            raise ValueError("the 五人簡易場 without skills (`skills off`) is a 5-player game")

    def seats(self, n: int, rng: random.Random, with_heroes: bool) -> list[Player]:
        lord, loyal, rebel, renegade = TWO_RENEGADES if self.option("renegades") == 2 else CAMPUS_ROLES[n]
        rest = ["loyalist"] * loyal + ["rebel"] * rebel + ["renegade"] * renegade
        rng.shuffle(rest)
        return seat_roles(["lord"] * lord + rest, rng, with_heroes, self.lord_bonus(n))

    def opening(self, game: Game) -> str:
        lord = next(p for p in game.players if p.role == "lord")
        simple = "（簡易場：無技能）" if self.option("skills") == "off" else ""
        return f"校園身份局 {len(game.players)}人{simple}：主公是{lord.label()}（體力上限{lord.max_hp}）"

    # ------------------------------------------------------------ during the game
    def plays_skill(self, skill: Skill) -> bool:
        return bool(self.option("skills") != "off")  # 五人簡易場無技能: no hero has a skill (equipment keeps its own)

    def check_victory(self, game: Game) -> None:
        """Seed 003 勝負判斷: the lord and loyalists win once every rebel and renegade is dead;
        the lord's death is the rebels' win (while rebels live, or killed by a loyalist or a
        renegade after they died) unless one renegade alone survives, having killed everyone
        else first. With two renegades, the one who wins must have killed the other before the
        lord: both alive at the end is the rebels' win."""
        players: list[Player] = game.players
        lord = next(p for p in players if p.role == "lord")
        alive = [p for p in players if p.alive]
        if not lord.alive:
            if len(alive) == 1 and alive[0].role == "renegade":
                raise GameOver("renegade", "內奸先除掉主公以外的所有角色，最後除掉主公：內奸獲勝（奸臣當道）")
            renegades = [p for p in alive if p.role == "renegade"]
            if len(renegades) == 2 and len(alive) == 2:
                raise GameOver("rebel", "最後兩名內奸均存活：判作反賊獲勝（群雄並起）")
            raise GameOver("rebel", "主公陣亡：反賊獲勝（群雄並起）")
        if not any(p.alive and p.role in ("rebel", "renegade") for p in players):
            raise GameOver("lord", "反賊和內奸全部陣亡，主公存活：主公和忠臣獲勝（平定天下）")
