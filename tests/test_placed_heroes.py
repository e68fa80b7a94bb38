"""Heroes placed on purpose: `placed` (seat -> hero) from setup down to each mode's
`choose_heroes`, `--hero SEAT=NAME` on run/play/simulate/balance, `--feature NAME` rotating a
hero over the seats of a batch, and the errors of each misuse."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from seat_secrets import watched_parts, watching_agent

from sgs_dsl.cli import main
from sgs_dsl.compiler.library import load_library
from sgs_dsl.game import play_game, ruleset_heroes, run, setup
from sgs_dsl.placement import HeroPlacement, PlacementError, parse_placement
from sgs_dsl.sim.batch import run_batch
from sgs_dsl.sim.stats import strip_timing

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "custom_hero.sgs"
SEEDS = range(6)


@pytest.fixture(scope="module")
def library():
    return load_library(())


@pytest.fixture(scope="module")
def with_tanxiong():
    return load_library((EXAMPLE,))


def names(result) -> list[str]:
    """Every hero card of the table, 國戰's generals one by one."""
    return [n for seat in result.heroes for n in (seat if isinstance(seat, tuple) else (seat,))]


# --- the engine: each mode seats the placed heroes ----------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_identity_seats_a_placed_lord_and_a_placed_other_and_deals_them_to_nobody(library, seed):
    placed = {0: "張飛", 3: "曹操"}  # 張飛 is no lord candidate; 曹操 is one, placed on another seat
    result = play_game(library, "standard", 5, seed, log=True, placed=placed)
    assert result.error is None and result.heroes[0] == "張飛" and result.heroes[3] == "曹操"
    assert len(set(result.heroes)) == 5
    dealt = [line for line in result.log if "候選" in line]
    assert len(dealt) == 3 and not any("張飛" in line or "曹操" in line for line in dealt)
    assert "1號位主公的武將是張飛（指定）" in result.log and "4號位的武將是曹操（指定）" in result.log


def test_a_placed_lord_keeps_the_lords_bonus(library):
    game = setup(library, "standard", 5, 1, placed={0: "張飛"})
    lord = game.players[0]
    assert lord.role == "lord" and lord.name == "張飛" and lord.max_hp == 5  # 4 + 1 from 5 players


@pytest.mark.parametrize("seed", SEEDS)
def test_campus_seats_placed_heroes(library, seed):
    pool = [h.name for h in ruleset_heroes(library, "campus")]
    placed = {0: pool[0], 5: pool[1]}
    result = play_game(library, "campus", 8, seed, placed=placed)
    assert result.error is None and result.heroes[0] == pool[0] and result.heroes[5] == pool[1]
    assert len(set(result.heroes)) == 8


@pytest.mark.parametrize("seed", SEEDS)
def test_3v3_sets_placed_heroes_aside_from_the_shared_pool(library, seed):
    pool = [h.name for h in ruleset_heroes(library, "campus_3v3")]
    placed = {0: pool[2], 4: pool[3]}
    result = play_game(library, "campus_3v3", 6, seed, log=True, placed=placed)
    assert result.error is None and result.heroes[0] == pool[2] and result.heroes[4] == pool[3]
    assert len(set(result.heroes)) == 6
    shared = next(line for line in result.log if line.startswith("備選英雄池"))
    assert pool[2] not in shared and pool[3] not in shared


@pytest.mark.parametrize("seed", SEEDS)
def test_hegemony_makes_a_placed_general_one_of_the_seats_two(library, seed):
    generals = {g.name: g for g in ruleset_heroes(library, "hegemony")}
    result = play_game(library, "hegemony", 6, seed, placed={1: "張角", 4: "曹操"})
    assert result.error is None
    assert "張角" in result.heroes[1] and "曹操" in result.heroes[4]
    for pair in result.heroes:
        assert len(pair) == 2 and generals[pair[0]].kingdom == generals[pair[1]].kingdom
    assert len(set(names(result))) == 12  # no general dealt twice


def test_hegemony_pairs_a_placed_general_even_from_a_hand_without_its_kingdom(library):
    # over many seeds some dealt hands hold no other general of the placed one's kingdom
    for seed in range(30):
        game = setup(library, "hegemony", 10, seed, placed={s: n for s, n in enumerate(["張角", "曹操", "孫權", "劉備"])})
        for seat, name in enumerate(["張角", "曹操", "孫權", "劉備"]):
            cards = game.mode.generals[seat].cards
            assert name in [c.name for c in cards] and cards[0].kingdom == cards[1].kingdom


@pytest.mark.parametrize("ruleset, players, seats", [
    ("standard", 5, (0, 2)), ("standard", 8, (2, 4)), ("campus", 8, (3, 6)), ("campus_3v3", 6, (1, 3)), ("hegemony", 5, (0, 4)),
])
def test_placed_heroes_show_no_seat_what_it_may_not_know(library, ruleset, players, seats):
    pool = [h.name for h in ruleset_heroes(library, ruleset)]
    placed = {seat: pool[i] for i, seat in enumerate(seats)}
    for seed in range(2):
        game = setup(library, ruleset, players, seed, log=True, agent_factory=watching_agent,
                     parts=watched_parts(), placed=placed)
        result = run(game)
        game.watch.finished()
        assert result.error is None and not result.violations
        assert game.watch.leaks == []


def test_no_placement_plays_the_games_of_before(library):
    for seed in (0, 5):
        plain = play_game(library, "standard", 5, seed, log=True)
        empty = play_game(library, "standard", 5, seed, log=True, placed={})
        assert plain.log == empty.log


def test_the_engine_refuses_what_it_cannot_place(library):
    with pytest.raises(ValueError, match="deals no heroes"):
        setup(library, "basic", 5, 1, placed={0: "曹操"})
    with pytest.raises(ValueError, match="not among the heroes"):
        setup(library, "standard", 5, 1, placed={0: "張角"})
    with pytest.raises(ValueError, match="two seats"):
        setup(library, "standard", 5, 1, placed={0: "曹操", 1: "曹操"})


# --- the placement: parsed, checked, and game by game ------------------------------------------


def test_either_script_and_the_id_name_a_hero(library):
    pool = ruleset_heroes(library, "standard")
    spec = parse_placement(["1=张飞", " 3 = guanyu "], "黃蓋", pool, 5, "standard")
    assert spec == HeroPlacement(((0, "張飛"), (2, "關羽")), "黃蓋")
    assert spec.as_json() == {"heroes": {"1": "張飛", "3": "關羽"}, "featured": "黃蓋"}


def test_the_featured_hero_turns_over_the_free_seats_game_by_game():
    spec = HeroPlacement(featured="X")
    assert [spec.featured_seat(i, 5) for i in range(7)] == [0, 1, 2, 3, 4, 0, 1]
    assert spec.for_game(3, 5) == {3: "X"}
    fixed = HeroPlacement(((1, "Y"),), "X")
    assert [fixed.featured_seat(i, 4) for i in range(4)] == [0, 2, 3, 0]
    assert fixed.for_game(1, 4) == {1: "Y", 2: "X"}
    assert HeroPlacement().for_game(3, 5) == {} and HeroPlacement().featured_seat(3, 5) is None


@pytest.mark.parametrize("items, featured, words", [
    (["3"], None, ["is not SEAT=NAME", "--hero 3=NAME"]),
    (["=曹操"], None, ["is not SEAT=NAME"]),
    (["6=曹操"], None, ["no seat '6'", "1 to 5"]),
    (["0=曹操"], None, ["no seat '0'", "1 to 5"]),
    (["lord=曹操"], None, ["no seat 'lord'", "1 to 5"]),
    (["1=曹操", "1=劉備"], None, ["gives seat 1 twice", "one hero"]),
    (["1=曹操", "2=曹操"], None, ["places 曹操 on seats 1 and 2", "one seat only"]),
    (["1=曹操", "2=caocao"], None, ["places 曹操 on seats 1 and 2"]),
    (["1=曹搡"], None, ["no hero named '曹搡'", "did you mean '曹操'?", "sgs heroes --ruleset standard"]),
    (["1=張角"], None, ["package 'wind'", "does not deal", "standard"]),
    ([], "張角", ["package 'wind'", "(--feature)"]),
    (["2=關羽"], "关羽", ["--feature 關羽 is also placed by --hero 2=關羽", "drop one"]),
    ([f"{i}={n}" for i, n in enumerate(["曹操", "劉備", "孫權", "關羽", "張飛"], 1)], "黃蓋", ["no seat", "all 5"]),
])
def test_bad_placements_say_what_is_wrong_and_what_is_right(library, items, featured, words):
    everyone = [*library.heroes.values(), *library.generals.values()]
    with pytest.raises(PlacementError) as bad:
        parse_placement(items, featured, ruleset_heroes(library, "standard"), 5, "standard", everyone)
    text = f"{bad.value}; {bad.value.hint}"
    for word in words:
        assert word in text


# --- the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["run", "simulate", "balance", "play"])
@pytest.mark.parametrize("args, option, words", [
    (["--hero", "9=曹操"], "--hero", ["no seat '9'", "1 to 5"]),
    (["--hero", "2=曹操", "--hero", "2=劉備"], "--hero", ["gives seat 2 twice"]),
    (["--hero", "2=曹操", "--hero", "3=曹操"], "--hero", ["places 曹操 on seats 2 and 3"]),
    (["--hero", "2=無名"], "--hero", ["no hero named '無名' in ruleset 'standard'", "sgs heroes"]),
    (["-r", "basic", "--hero", "1=曹操"], "--hero", ["ruleset 'basic' deals no heroes", "sgs rulesets"]),
])
def test_misused_hero_options_are_usage_errors(tmp_path, command, args, option, words):
    extra = {"simulate": ["-q", "-g", "1"], "balance": ["-q", "-g", "1", "--out", str(tmp_path / "r")],
             "run": [], "play": []}[command]
    result = CliRunner().invoke(main, [command, "-p", "5", *extra, *args], input="q\n")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and f"Invalid value for '{option}'" in result.output
    for word in words:
        assert word in result.output
    assert not (tmp_path / "r").exists()  # no game was played, no report written


@pytest.mark.parametrize("command", ["simulate", "balance"])
@pytest.mark.parametrize("args, words", [
    (["--feature", "無名"], ["'--feature'", "no hero named '無名'"]),
    (["-r", "basic", "--feature", "曹操"], ["'--feature'", "deals no heroes"]),
    (["--hero", "1=曹操", "--feature", "曹操"], ["'--feature'", "also placed by --hero 1=曹操"]),
])
def test_misused_feature_options_are_usage_errors(tmp_path, command, args, words):
    extra = ["--out", str(tmp_path / "r")] if command == "balance" else []
    result = CliRunner().invoke(main, [command, "-q", "-g", "1", *extra, *args])
    assert result.exit_code == 2 and "Traceback" not in result.output
    for word in words:
        assert word in result.output


def test_run_seats_the_hero_named_in_simplified_script():
    result = CliRunner().invoke(main, ["run", "-s", "3", "--hero", "1=张飞", "--hero", "4=guanyu"])
    assert result.exit_code == 0, result.output
    assert "1號位主公的武將是張飛（指定）" in result.output and "4號位的武將是關羽（指定）" in result.output


def test_play_seats_the_hero_of_the_persons_seat():
    command = [sys.executable, "-m", "sgs_dsl.cli", "play", "-p", "5", "-s", "3", "--ai", "random",
               "--hero", "1=張飛", "--hero", "2=孫權"]
    done = subprocess.run(command, input=b"q\n", capture_output=True, timeout=60, check=False)
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()
    assert "1號位主公的武將是張飛（指定）" in out and "2號位的武將是孫權（指定）" in out
    assert "選擇武將（主公）" not in out  # the person's seat is placed: no hero to choose


def _simulate(tmp_path, name, *args):
    out = tmp_path / name
    result = CliRunner().invoke(main, ["simulate", "-q", "--json", str(out), *args])
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text(encoding="utf-8"))


def test_simulate_keeps_a_placed_hero_on_its_seat_in_every_game(tmp_path):
    report = _simulate(tmp_path, "a.json", "-p", "5", "-g", "8", "-s", "1", "--hero", "3=呂布")
    assert report["placement"] == {"heroes": {"3": "呂布"}, "featured": None}
    assert report["wins_by_hero"]["呂布"]["games"] == report["valid_games"] == 8
    assert "featured" not in report


def test_a_featured_hero_is_in_every_game_on_every_seat_in_turn(with_tanxiong):
    spec = HeroPlacement(featured="探雄")
    batch = run_batch("with_tanxiong", 5, 15, 2, library=with_tanxiong, placement=spec)
    for r in batch.records:
        assert not r.failed, r.failure_text()
        assert r.featured_seat == r.index % 5 and r.heroes[r.featured_seat] == "探雄"
        assert Counter(r.heroes)["探雄"] == 1
    roles = {r.roles[r.featured_seat] for r in batch.records}
    assert roles == {"lord", "loyalist", "rebel", "renegade"}


def test_balance_features_the_example_hero_in_every_game(tmp_path):
    out = tmp_path / "report"
    result = CliRunner().invoke(main, ["balance", "-q", "--feature", "探雄", "-L", str(EXAMPLE), "-r", "with_tanxiong",
                                       "-p", "5", "-g", "10", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    featured = summary["featured"]
    assert featured["games"] == 10 and featured["by_seat"] == {str(s): 2 for s in range(1, 6)}
    assert summary["wins_by_hero"]["探雄"]["games"] == summary["valid_games"] == featured["wins"]["seats"]
    assert "featured 探雄: in 10 games" in result.output


def test_featured_batches_are_the_same_on_any_jobs_and_run(tmp_path):
    args = ["-p", "5", "-g", "8", "-s", "5", "--feature", "甄姬", "--hero", "2=曹操"]
    one = _simulate(tmp_path, "one.json", *args, "-j", "1")
    again = _simulate(tmp_path, "again.json", *args, "-j", "1")
    two = _simulate(tmp_path, "two.json", *args, "-j", "2")
    assert strip_timing(one) == strip_timing(again) == strip_timing(two)
    assert one["featured"]["by_seat"] == {"1": 2, "3": 2, "4": 2, "5": 2}  # seat 2 is 曹操's
    assert one["wins_by_hero"]["曹操"]["games"] == 8


def test_a_placed_batch_plays_the_same_games_byte_for_byte(library):
    spec = HeroPlacement(((0, "劉備"),), "貂蟬")
    a = run_batch("standard", 6, 6, 9, library=library, placement=spec)
    b = run_batch("standard", 6, 6, 9, library=library, placement=spec)
    assert a.records == b.records
    for r in a.records:
        game = play_game(library, "standard", 6, r.seed, log=True, placed=spec.for_game(r.index, 6))
        assert game.heroes == r.heroes and game.log == play_game(library, "standard", 6, r.seed, log=True,
                                                                 placed=spec.for_game(r.index, 6)).log


LONE = """
general 甲 jia_lone { kingdom 魏; gender male; hp_half 4; skills 奸雄; }
general 乙 yi_lone { kingdom 魏; gender male; hp_half 4; skills 奸雄; }
general 丙 bing_lone { kingdom 蜀; gender male; hp_half 4; skills 奸雄; }
general 丁 ding_lone { kingdom 蜀; gender male; hp_half 4; skills 奸雄; }
general 戊 wu_lone { kingdom 吳; gender male; hp_half 4; skills 奸雄; }
ruleset lone_wu "國戰：吳只有一名武將" { mode hegemony; decks hegemony; heroes lone; }
"""


def test_hegemony_refuses_a_general_alone_of_its_kingdom_and_pairs_the_others(tmp_path):
    path = tmp_path / "lone.sgs"
    path.write_text(LONE, encoding="utf-8")
    base = ["-q", "-L", str(path), "-r", "lone_wu", "-p", "2", "-g", "4"]
    bad = CliRunner().invoke(main, ["simulate", *base, "--hero", "1=戊"])
    assert bad.exit_code == 2 and "戊 is the only general of its kingdom" in bad.output
    assert "Traceback" not in bad.output
    # a small package: the featured general's seat is paired first, the other seat dealt after
    report = _simulate(tmp_path, "lone.json", *base[1:], "--feature", "甲")
    assert report["errors"] == 0 and report["featured"]["by_seat"] == {"1": 2, "2": 2}
