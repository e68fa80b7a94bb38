"""Identity mode (身份局), seed 000 §1-7: roles, seating, rewards and penalties, victory."""

from __future__ import annotations

from typing import Any

from ..core.model import GameOver, Player

# players -> (lord, loyalist, rebel, renegade); 2 players: lord vs renegade (seed 002)
ROLE_TABLE: dict[int, tuple[int, int, int, int]] = {
    2: (1, 0, 0, 1), 3: (1, 0, 1, 1), 4: (1, 1, 1, 1), 5: (1, 1, 2, 1), 6: (1, 1, 3, 1),
    7: (1, 2, 3, 1), 8: (1, 2, 4, 1), 9: (1, 3, 4, 1), 10: (1, 3, 4, 2),
}
REWARD_DRAW = 3


def deal_roles(n: int, rng: Any) -> list[str]:
    """Roles for n seats; seat 0 is the lord, who takes the first turn (the table is rotated
    so that the lord sits first; the others are shuffled)."""
    lord, loyal, rebel, renegade = ROLE_TABLE[n]
    rest = ["loyalist"] * loyal + ["rebel"] * rebel + ["renegade"] * renegade
    rng.shuffle(rest)
    return ["lord"] * lord + rest


def lord_bonus(n: int) -> int:
    """The lord's extra max hp: +1 from 5 players up (seed 000 §3)."""
    return 1 if n >= 5 else 0


class IdentityMode:
    name = "identity"

    def check_victory(self, game: Any) -> None:
        players: list[Player] = game.players
        lord = next(p for p in players if p.role == "lord")
        alive = [p for p in players if p.alive]
        if not lord.alive:
            if len(alive) == 1 and alive[0].role == "renegade":
                raise GameOver("renegade", "主公陣亡，內奸是唯一存活的角色：內奸獲勝")
            raise GameOver("rebel", "主公陣亡：反賊獲勝")
        if not any(p.alive and p.role in ("rebel", "renegade") for p in players):
            raise GameOver("lord", "反賊和內奸全部陣亡：主公和忠臣獲勝")

    def after_death(self, game: Any, dead: Player, killer: Player | None) -> None:
        if killer is None or not killer.alive:
            return
        if dead.role == "rebel":
            game.log(f"{killer.label()}除掉反賊，摸{REWARD_DRAW}張牌")
            game.draw(killer, REWARD_DRAW)
        elif dead.role == "loyalist" and killer.role == "lord":
            cards = killer.hand + list(killer.equips.values())
            game.log(f"主公{killer.label()}除掉忠臣，棄置所有手牌和裝備")
            if cards:
                game.to_discard(cards)
