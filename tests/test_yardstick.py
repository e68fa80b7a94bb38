"""The yardstick (benchmarks/yardstick.py): whole games to an end, sane, deterministic."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("yardstick", ROOT / "benchmarks" / "yardstick.py")
assert _spec is not None and _spec.loader is not None
yardstick = importlib.util.module_from_spec(_spec)
sys.modules["yardstick"] = yardstick  # attrs resolves the classes' module by name
_spec.loader.exec_module(yardstick)

SUITS = {"♠": "S", "♣": "C", "♥": "H", "♦": "D"}
GAMES = [(seed, 4 + seed % 7) for seed in range(20)]  # 4 to 10 players


def every_card(result) -> list[int]:
    cards = list(result.deck) + list(result.discard)
    for p in result.players:
        cards += p.hand + p.judge + p.equips()
    return sorted(cards)


def victory_holds(result) -> bool:
    alive = [p for p in result.players if p.alive]
    lord = result.players[0]
    if result.winner == "lord":
        return lord.alive and all(p.role in ("lord", "loyalist") for p in alive)
    if result.winner == "renegade":
        return not lord.alive and [p.role for p in alive] == ["renegade"]
    return result.winner == "rebel" and not lord.alive


@pytest.mark.parametrize(("seed", "players"), GAMES)
def test_a_game_ends_with_a_winner_and_sane_state(seed: int, players: int) -> None:
    result = yardstick.play_game(players, seed)
    assert result.winner in ("lord", "rebel", "renegade")
    assert victory_holds(result)
    assert 0 < result.turns < yardstick.MAX_TURNS
    assert every_card(result) == list(range(yardstick.N_CARDS))  # each card in exactly one place
    for p in result.players:
        assert p.hp <= p.max_hp
        assert (p.hp > 0) == p.alive
        if not p.alive:
            assert not p.hand and not p.judge and not p.equips()
    assert sorted(p.role for p in result.players).count("lord") == 1


def test_games_are_deterministic_per_seed() -> None:
    def digest(seed: int) -> tuple:
        r = yardstick.play_game(5, seed)
        return r.winner, r.turns, r.uses, tuple(p.hp for p in r.players), tuple(r.discard)

    assert digest(7) == digest(7)
    assert len({digest(s) for s in range(5)}) == 5


KINDS = {"殺": "sha", "閃": "shan", "桃": "tao", "諸葛連弩": "zhuge", "雌雄雙股劍": "cixiong", "青釭劍": "qinggang",
         "青龍偃月刀": "qinglong", "丈八蛇矛": "zhangba", "貫石斧": "guanshi", "方天畫戟": "fangtian", "麒麟弓": "qilin",
         "八卦陣": "bagua", "絕影": "dhorse", "的盧": "dhorse", "爪黃飛電": "dhorse", "赤兔": "ohorse", "大宛": "ohorse",
         "紫騂": "ohorse", "五穀豐登": "wugu", "桃園結義": "taoyuan", "南蠻入侵": "nanman", "萬箭齊發": "wanjian",
         "決鬥": "juedou", "無中生有": "wuzhong", "順手牽羊": "shunshou", "過河拆橋": "guohe", "借刀殺人": "jiedao",
         "無懈可擊": "wuxie", "樂不思蜀": "lebu", "閃電": "shandian", "寒冰劍": "hanbing", "仁王盾": "renwang"}
FACES = {1: "A", 11: "J", 12: "Q", 13: "K"}


def test_the_deck_is_the_standard_and_ex_deck() -> None:
    dealt = []
    for name in ("standard.sgs", "ex.sgs"):
        text = (ROOT / "cards" / name).read_text(encoding="utf-8")
        for body in re.findall(r"^deck \S+ \"[^\"]*\" \{(.*?)^\}", text, re.S | re.M):
            for kind, cards in re.findall(r"^\s*(\S+) ([^;]*);", body, re.M):
                dealt += [(KINDS[kind], SUITS[c[0]] + c[1:]) for c in cards.split()]
    ours = [(k, s + FACES.get(r, str(r))) for k, s, r in zip(yardstick.KIND, yardstick.SUIT, yardstick.RANK, strict=True)]
    assert len(ours) == 108
    assert sorted(ours) == sorted(dealt)


def test_distance_counts_horses_and_the_living() -> None:
    game = yardstick.Game(5, 1)
    a, b, c = game.players[0], game.players[1], game.players[2]
    assert game.distance(a, c) == 2 and not game.in_range(a, c)
    c.dhorse = game.deck[0]
    assert game.distance(a, c) == 3
    a.ohorse, a.weapon = game.deck[1], yardstick.KIND.index("qinggang")
    assert game.distance(a, c) == 2 and game.in_range(a, c)
    b.alive = False
    game.alive.remove(b)
    game.pos = {p.seat: i for i, p in enumerate(game.alive)}
    assert game.distance(a, c) == 1
