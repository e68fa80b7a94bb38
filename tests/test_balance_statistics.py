"""Statistics a designer can act on: the hero's strength adjusted for role (and seat), the
Benjamini–Hochberg correction of each family of tests and the minimum sample, skills that
never fired said in words, `--compare` paired by seed with n/a for missing data, and the
per-game export (`--records`) read back."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from sgs_dsl.cli import main
from sgs_dsl.sim.balance import balance, by_hero, by_skill
from sgs_dsl.sim.batch import GameRecord, derive_seed, run_batch
from sgs_dsl.sim.compare import compare, format_comparison, load_run
from sgs_dsl.sim.paired import paired_row
from sgs_dsl.sim.records import records_text
from sgs_dsl.sim.report import PLOTTED, write_figures
from sgs_dsl.sim.significance import ALPHA, MIN_SAMPLE, bh_adjust, correct, two_sided_p
from sgs_dsl.sim.stats import format_skill_stats, skill_stats, summarize, wilson_interval
from sgs_dsl.sim.strata import adjusted_strength

FIVE = ("lord", "loyalist", "rebel", "rebel", "renegade")


# --- Benjamini–Hochberg ------------------------------------------------------------------------


def test_bh_against_a_hand_computed_example():
    # m = 8; m*p/rank: .008 .032 .104 .082 .0672 .08 .0846 .205; the running minimum from the top
    p = [0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205]
    q = bh_adjust(p)
    assert q == pytest.approx([0.008, 0.032, 0.0672, 0.0672, 0.0672, 0.08, 0.084571, 0.205], abs=1e-6)
    assert sum(x < ALPHA for x in p) == 5 and sum(x <= ALPHA for x in q) == 2  # uncorrected 5, BH 2
    assert bh_adjust([0.04, 0.01, 0.03, 0.005]) == pytest.approx([0.04, 0.02, 0.04, 0.02])  # order kept
    assert bh_adjust([]) == [] and bh_adjust([0.9, 0.95]) == [0.95, 0.95]


def test_a_family_of_noise_flags_nothing_after_correction():
    """Three of twenty p-values under 0.05: each would be flagged alone, none survives BH."""
    p = [0.02, 0.03, 0.04] + [0.1 + 0.05 * i for i in range(17)]
    tests = [{"p": x} for x in p] + [None]  # a row not tested is no part of the family
    assert correct(tests) == 20
    assert sum(x < ALPHA for x in p) == 3
    assert not any(t["significant"] for t in tests if t is not None)
    assert tests[0]["q"] == pytest.approx(0.2667, abs=1e-4)  # 0.04 * 20 / 3, the step-up minimum


def test_bh_q_values_are_monotone_and_at_least_p():
    p = [0.3, 0.001, 0.5, 0.02, 0.02, 1.0, 0.0]
    q = bh_adjust(p)
    assert all(qi >= pi for pi, qi in zip(p, q, strict=True)) and max(q) <= 1.0
    ranked = sorted(zip(p, q, strict=True))
    assert all(a[1] <= b[1] for a, b in zip(ranked, ranked[1:], strict=False))


# --- the role-adjusted estimate ------------------------------------------------------------------


def test_the_adjusted_estimate_matches_the_formula():
    # one stratum: the hero 30/40, the others 30/60. E = 40*30/60 = 20, p = 0.6,
    # V = 40 * 0.6 * 0.4 * 100/60 = 16, z = (30 - 20)/4 = 2.5
    obs = [("H", "rebel", i < 30) for i in range(40)] + [("O", "rebel", i < 30) for i in range(60)]
    h = adjusted_strength(obs)["H"]
    assert (h["observed"], h["expected"], h["excess"]) == (30, 20.0, 0.25)
    assert h["test"]["z"] == 2.5 and h["test"]["p"] == pytest.approx(two_sided_p(2.5), abs=1e-6)
    half = 1.959963984540054 * 4 / 40
    assert h["excess_ci95"] == pytest.approx([0.25 - half, 0.25 + half], abs=1e-6)


def _lord_world(games: int = 400) -> list[GameRecord]:
    """A 5-player world where the lord side wins 3 games in 10, whoever plays: the lord is L in
    even games and M in odd ones (the same outcome for each pair), eight heroes rotate through
    the other seats."""
    outcomes = ["lord"] * 3 + ["rebel"] * 6 + ["renegade"]
    records = []
    for i in range(games):
        others = tuple(f"H{(i + j) % 8}" for j in range(4))
        records.append(GameRecord(index=i, seed=i, winner=outcomes[(i // 2) % 10], turns=20, roles=FIVE,
                                  heroes=("L" if i % 2 == 0 else "M", *others)))
    return records


@pytest.mark.parametrize("strata", ["role", "role+seat"])
def test_a_hero_only_ever_lord_in_a_losing_lord_world_is_neutral_once_adjusted(strata):
    heroes = by_hero(_lord_world(), "identity", strata)
    lord = heroes["heroes"]["L"]
    # pooled, L looks weak: 30% against a seat's mean of 38%, its whole interval below it
    assert lord["rate"] == 0.3 and heroes["mean"] == pytest.approx(0.38)
    assert wilson_interval(lord["wins"], lord["games"])[1] < heroes["mean"]  # the old flag: "below"
    # adjusted, it is exactly the other lord: no excess, not flagged
    assert lord["excess"] == 0.0 and lord["adjusted_rate"] == pytest.approx(0.38)
    assert lord["test"]["p"] == 1.0 and lord["flag"] == ""
    assert lord["excess_ci95"][0] < 0 < lord["excess_ci95"][1]
    assert heroes["strata"] == strata and "Benjamini" in heroes["correction"]
    assert not any(r["flag"] for r in heroes["heroes"].values())


def test_per_role_tables_hold_each_hero_in_each_role_with_intervals():
    heroes = by_hero(_lord_world(), "identity")
    roles = heroes["by_role"]
    assert set(roles) == set(FIVE)
    assert set(roles["lord"]["heroes"]) == {"L", "M"} and roles["lord"]["mean"] == 0.3
    rebels = roles["rebel"]["heroes"]
    assert set(rebels) == {f"H{i}" for i in range(8)}
    assert sum(r["games"] for r in rebels.values()) == 2 * 400
    for row in rebels.values():
        assert row["ci95"] == [round(x, 6) for x in wilson_interval(row["wins"], row["games"])]
        assert (row["test"] is None) == (row["games"] < MIN_SAMPLE)
    tested = sum(r["test"] is not None for t in roles.values() for r in t["heroes"].values())
    assert heroes["by_role_tested"] == tested > 0


def test_a_hero_truly_stronger_in_its_role_is_flagged_above():
    records = _lord_world()
    # H0 wins every game it plays as a rebel, whatever the table did
    flipped = []
    for r in records:
        if any(h == "H0" and role == "rebel" for h, role in zip(r.heroes, r.roles, strict=True)):
            r = GameRecord(index=r.index, seed=r.seed, winner="rebel", turns=20, roles=r.roles, heroes=r.heroes)
        flipped.append(r)
    heroes = by_hero(flipped, "identity")
    assert heroes["heroes"]["H0"]["flag"] == "above" and heroes["heroes"]["H0"]["test"]["q"] <= ALPHA
    assert list(heroes["heroes"])[0] == "H0"  # strongest first


def test_a_hero_with_too_few_seats_is_shown_but_not_tested():
    records = _lord_world(40)  # each of H0..H7 sits 20 times
    heroes = by_hero(records, "identity")
    h = heroes["heroes"]["H0"]
    assert h["games"] == 20 and h["excess"] is not None and h["test"] is None and h["flag"] == ""


def test_a_bad_strata_is_an_error():
    with pytest.raises(ValueError, match="unknown strata"):
        by_hero(_lord_world(4), "identity", "seat")


# --- skills that never fired ---------------------------------------------------------------------


def _skill_world() -> list[GameRecord]:
    return [GameRecord(index=i, seed=i, winner="rebel", turns=20, roles=FIVE,
                       heroes=("L", "H0", "H1", "H2", "H3"), fired=(("s", 2),) if i % 2 else ()) for i in range(40)]


def test_a_skill_that_never_fired_has_no_rate_when_fired_anywhere(tmp_path):
    held = {"H0": ["s"], "H1": ["quiet"], "X": ["unseen"]}
    records = _skill_world()
    skills = by_skill(records, held, "identity")
    quiet = skills["quiet"]
    assert quiet["never_fired"] and quiet["held"] == 40 and quiet["when_fired"]["rate"] is None
    assert skills["unseen"]["held"] == 0 and skills["unseen"]["never_fired"]
    # the figure: no point at 0% for it, and its numbers say None
    summary = {"balance": {**balance(records, held, "identity"), "ids": {}}}
    write_figures(summary, tmp_path)
    from test_balance import _png_text

    plotted = json.loads(_png_text((tmp_path / "skills.png").read_bytes())[PLOTTED])
    assert plotted["quiet"] == {"fired": 0, "never_fired": True, "when_fired": None, "when_not": 100.0}
    assert plotted["s"]["when_fired"] == 0.0 and not plotted["s"]["never_fired"]  # fired, lost: a real 0%
    # --skill-stats: said in words, never fired told from never dealt
    text = format_skill_stats(skill_stats(records, ["s", "quiet", "unseen"], held))
    lines = {line.split()[0]: line for line in text.splitlines() if line.startswith("  ")}
    assert lines["quiet"].split()[1:] == ["never", "fired", "(held", "by", "40", "seats)"]
    assert lines["unseen"].split()[1:] == ["never", "dealt"]
    assert lines["s"].split()[1:] == ["40", "20"]


# --- --compare: pairing by seed and n/a -----------------------------------------------------------


def _games(seeds, won) -> list[dict]:
    """Records-file games: hero P at seat 1 (role lord), won as ``won(seed)`` says."""
    out = []
    for i, seed in enumerate(seeds):
        w = won(seed)
        out.append({"game": i, "seed": seed, "root_seed": 0, "ruleset": "t", "mode": "identity", "players": 2,
                    "winner": "lord" if w else "rebel", "turns": 10, "capped": False, "timed_out": False,
                    "error": False, "fired_unattributed": {},
                    "seats": [{"seat": 1, "heroes": ["P"], "role": "lord", "agent": "random", "won": w, "fired": {}},
                              {"seat": 2, "heroes": ["Q"], "role": "rebel", "agent": "random", "won": not w,
                               "fired": {}}]})
    return out


def test_paired_rows_are_mcnemar_for_one_seat_a_game():
    # 40 pairs: 12 lost in A and won in B, 3 the other way, 25 the same
    pairs = [(0, 1, 1, 1)] * 12 + [(1, 1, 0, 1)] * 3 + [(1, 1, 1, 1)] * 10 + [(0, 1, 0, 1)] * 15
    row = paired_row(pairs)
    assert row["pairs"] == 40 and row["diff"] == pytest.approx((22 - 13) / 40)
    assert row["test"]["z"] == pytest.approx(9 / math.sqrt(15), abs=1e-4)
    assert paired_row(pairs[:MIN_SAMPLE - 1])["test"] is None


def test_compare_pairs_games_by_seed_and_says_how():
    a = _games(range(1, 61), lambda s: s % 2 == 0)
    b = _games(range(31, 91), lambda s: s % 2 == 0 or s % 5 == 0)  # B wins more of the shared seeds
    c = compare(a, b)
    assert c["pairing"] == {"paired": 30, "a_unpaired": 30, "b_unpaired": 30, "why": c["pairing"]["why"]}
    assert "30 games played from the same seed" in c["pairing"]["why"] and c["method"].startswith("paired by seed")
    p = c["heroes"]["P"]
    shared = range(31, 61)
    assert p["pairs"] == 30 and p["a"]["wins"] == sum(s % 2 == 0 for s in shared)
    assert p["b"]["wins"] == sum(s % 2 == 0 or s % 5 == 0 for s in shared)
    assert p["test"]["z"] == pytest.approx(3 / math.sqrt(3), abs=1e-4)  # 3 discordant pairs, all one way
    text = format_comparison(c)
    assert "pairing: 30 games" in text and "30 pairs" in text
    # runs that share no seed: compared unpaired, and it says so
    far = compare(a, _games(range(100, 160), lambda s: s % 2 == 0))
    assert far["pairing"]["paired"] == 0 and "share no seed" in far["pairing"]["why"]
    assert far["method"].startswith("unpaired") and "pairs" not in far["heroes"]["P"]


def test_compare_says_n_a_for_missing_data_and_corrects_each_section():
    a = _games(range(1, 41), lambda s: True)
    b = _games(range(1, 41), lambda s: True)
    b[0]["seats"][0]["heroes"] = ["R"]  # a hero only B has, in one game
    text = format_comparison(compare(a, b))
    rows = {line.split()[0]: line for line in text.splitlines() if line.startswith("  ")}
    assert rows["R"].split() == ["R", "n/a", "(not", "in", "A)", "100.0%", "(1/1)", "n/a"]
    assert "+57.0" not in text and "0/0" not in text
    assert "Benjamini–Hochberg" in text


def test_two_records_files_of_one_batch_compare_as_identical(tmp_path):
    runner = CliRunner()
    paths = [tmp_path / "a.jsonl", tmp_path / "b.jsonl"]
    for path in paths:
        result = runner.invoke(main, ["simulate", "-q", "-p", "4", "-g", "8", "-s", "3", "--invariants", "turn",
                                      "--records", str(path)])
        assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["balance", "--compare", *map(str, paths), "--out", str(tmp_path / "cmp")])
    assert result.exit_code == 0, result.output
    assert "pairing: 8 games played from the same seed in both runs are paired" in result.output
    c = json.loads((tmp_path / "cmp" / "compare.json").read_text(encoding="utf-8"))
    rows = [row for s in ("sides", "roles", "heroes", "agents") for row in c[s].values()]
    assert rows and all(row["diff"] == 0 and row["pairs"] > 0 for row in rows)
    assert not any(row["test"] and row["test"]["significant"] for row in rows)


def test_a_records_file_that_is_malformed_names_the_game_and_key(tmp_path):
    good = _games(range(3), lambda s: True)
    bad = json.loads(json.dumps(good))
    bad[1]["seats"][0]["won"] = "yes"
    twice = json.loads(json.dumps(good))
    twice[2]["seed"] = 0
    for games, fault in ((bad, "game 2 (line 2): `seats.1.won` should be true, false or null"),
                         (twice, "games 1 and 3 have the same seed 0")):
        path = tmp_path / "r.jsonl"
        path.write_text("".join(json.dumps(g) + "\n" for g in games), encoding="utf-8")
        result = CliRunner().invoke(main, ["balance", "--compare", str(path), str(path)])
        assert result.exit_code == 1 and fault in result.output and "Traceback" not in result.output


# --- --records ----------------------------------------------------------------------------------------


def test_records_round_trip(tmp_path):
    out, report = tmp_path / "games.jsonl", tmp_path / "report.json"
    result = CliRunner().invoke(main, ["simulate", "-q", "-p", "5", "-g", "6", "-s", "2", "--agent", "lord=heuristic",
                                       "--records", str(out), "--json", str(report)])
    assert result.exit_code == 0, result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    games = [json.loads(line) for line in lines]
    summary = json.loads(report.read_text(encoding="utf-8"))
    assert [g["game"] for g in games] == list(range(6)) and [g["seed"] for g in games] == [derive_seed(2, i)
                                                                                            for i in range(6)]
    assert list(games[0]) == ["game", "seed", "root_seed", "ruleset", "mode", "players", "winner", "turns", "capped",
                              "timed_out", "error", "seats", "fired_unattributed"]
    for g in games:
        assert [s["seat"] for s in g["seats"]] == [1, 2, 3, 4, 5] and g["ruleset"] == "standard"
        assert {s["role"] for s in g["seats"]} == set(FIVE) and not g["error"]
        lord = next(s for s in g["seats"] if s["role"] == "lord")
        assert lord["agent"] == "heuristic" and lord["won"] == (g["winner"] == "lord")
    assert sum(g["winner"] == "lord" for g in games) == summary["wins_by_side"]["lord"]["wins"]
    played = {}
    for g in games:
        for s in g["seats"]:
            for h in s["heroes"]:
                played[h] = played.get(h, 0) + 1
    assert played == {h: r["games"] for h, r in summary["wins_by_hero"].items()}
    fired: dict[str, int] = {}
    for g in games:
        for part in [*(s["fired"] for s in g["seats"]), g["fired_unattributed"]]:
            for name, n in part.items():
                fired[name] = fired.get(name, 0) + n
    assert fired == summary["fired"]  # every firing is a seat's or the game's, once
    assert compare(load_run(out), load_run(out))["pairing"]["paired"] == 6  # read back by --compare


def test_records_are_the_same_bytes_whatever_the_jobs():
    records = run_batch("standard", 4, 6, 9, jobs=2).records
    again = run_batch("standard", 4, 6, 9, jobs=1).records
    kwargs = {"ruleset": "standard", "mode": "identity", "players": 4, "root_seed": 9, "hero_skills": {}}
    assert records_text(records, **kwargs) == records_text(again, **kwargs)


def test_balance_writes_records_and_bad_records_paths_are_usage_errors(tmp_path):
    runner = CliRunner()
    out = tmp_path / "g.jsonl"
    result = runner.invoke(main, ["balance", "-q", "-p", "4", "-g", "3", "--invariants", "turn", "--out",
                                  str(tmp_path / "rep"), "--records", str(out), "--strata", "role+seat"])
    assert result.exit_code == 0, result.output
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3
    summary = json.loads((tmp_path / "rep" / "summary.json").read_text(encoding="utf-8"))
    assert summary["balance"]["heroes"]["strata"] == "role+seat"
    for args, said in ((["simulate", "-g", "1", "--records", "-"], "give a file"),
                       (["simulate", "-g", "1", "--records", str(tmp_path)], "--records"),
                       (["balance", "--compare", str(out), str(out), "--records", str(out)], "--compare plays none"),
                       (["balance", "-g", "1", "--out", str(tmp_path / "x"), "--strata", "seat"], "--strata")):
        result = runner.invoke(main, args)
        assert result.exit_code == 2 and said in result.output and "Traceback" not in result.output, args


# --- two runs that differ only in their seed -------------------------------------------------------


SEED_PAIRS = ((1, 2), (3, 4), (5, 6))
GAMES = 200


def _run(seed: int) -> tuple[dict, list[dict]]:
    from sgs_dsl.catalog import heroes_of
    from sgs_dsl.compiler.library import load_library

    library = load_library(())
    records = run_batch("standard", 5, GAMES, seed, library=library, invariants="turn").records
    skills = {h.name: [s.name for s in h.skills] for h in heroes_of(library, "standard")}
    report = summarize(records, ruleset="standard", players=5, seed=seed, max_turns=600, elapsed_s=1.0)
    report["balance"] = balance([r for r in records if not r.failed], skills, "identity")
    text = records_text(records, ruleset="standard", mode="identity", players=5, root_seed=seed, hero_skills=skills)
    return report, [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize(("seed_a", "seed_b"), SEED_PAIRS)
def test_runs_differing_only_in_seed_flag_nothing(seed_a, seed_b):
    (report_a, games_a), (report_b, games_b) = _run(seed_a), _run(seed_b)
    for c in (compare(report_a, report_b), compare(games_a, games_b)):
        assert c["pairing"]["paired"] == 0  # different root seeds share no game seed
        tested = [row["test"] for s in ("sides", "roles", "heroes", "agents") for row in c.get(s, {}).values()
                  if row["test"] is not None]
        assert len(tested) > 20  # heroes too were tested, not skipped for want of seats
        assert not any(t["significant"] for t in tested), [(t["p"], t["q"]) for t in tested if t["significant"]]
