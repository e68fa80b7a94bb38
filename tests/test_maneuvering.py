"""The junzheng ruleset: the 160-card deck, and random games with natures, chains and 酒."""

from __future__ import annotations

import collections
import csv
import json
from pathlib import Path

from click.testing import CliRunner

from sgs_dsl.cli import main
from sgs_dsl.compiler.library import load_library
from sgs_dsl.game import play_game
from sgs_dsl.sim import derive_seed

DATA = Path(__file__).parent / "data"


def _tsv(name: str) -> collections.Counter:
    with open(DATA / name, encoding="utf-8", newline="") as f:
        return collections.Counter((r["name_zh_hant"], r["suit"], int(r["rank"]))
                                   for r in csv.DictReader(f, delimiter="\t"))


def test_junzheng_deck_is_the_160_cards_of_both_tables():
    result = CliRunner().invoke(main, ["cards", "--ruleset", "junzheng", "--json"])
    assert result.exit_code == 0, result.output
    cards = json.loads(result.output)
    got = collections.Counter((c["name"], c["suit"], c["rank"]) for c in cards)
    assert len(cards) == 160
    assert got == _tsv("cards_standard.tsv") + _tsv("cards_junzheng.tsv")


def test_fire_and_thunder_slash_are_slash_for_the_rules():
    lib = load_library()
    for name in ("火殺", "雷殺"):
        kind = lib.cards[name]
        assert kind.is_a("殺") and kind.rule_name == "殺" and kind.limit == 1
    assert lib.cards["火殺"].nature == "fire" and lib.cards["雷殺"].nature == "thunder"


def test_junzheng_games_keep_invariants():
    lib = load_library()
    natures = collections.Counter()
    for i in range(40):
        result = play_game(lib, "junzheng", 8, derive_seed(5, i), log=True)
        assert result.error is None, result.error
        assert result.violations == []
        natures.update(n for line in result.log for n in ("火焰傷害", "雷電傷害", "連環傳導") if n in line)
    assert natures["火焰傷害"] and natures["雷電傷害"] and natures["連環傳導"]


def test_the_custom_hero_example_checks_and_plays():
    path = Path(__file__).parent.parent / "examples" / "custom_hero.sgs"
    lib = load_library([path])
    assert "探雄" in lib.heroes
    fired = collections.Counter()
    for i in range(30):
        result = play_game(lib, "with_tanxiong", 8, derive_seed(3, i))
        assert result.error is None and result.violations == []
        fired.update(result.fired)
    assert fired["探囊"] > 0
