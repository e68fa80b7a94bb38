"""Flat lists of any length: `and`/`or` chains, argument lists, card patterns, statements in
a block, definitions in a file. Every stage (the parser, the parse cache's codec, the
checker and the compiler) does work linear in their length, and a condition of tens of
thousands of terms checks, compiles and runs.

Linear work is asserted by counting, not timing: the Python calls a stage makes (cProfile's
count, the same on every machine) for lists of n, 2n and 4n items. Going from 2n to 4n adds
twice what going from n to 2n added when the work is linear, four times when it is
quadratic."""

from __future__ import annotations

import cProfile
import gc
import pstats
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sgs_dsl.compiler.library import build, check_paths, load_library
from sgs_dsl.game import play_game
from sgs_dsl.syntax import astcodec
from sgs_dsl.syntax.diagnostics import Diagnostic, SgsError
from sgs_dsl.syntax.parser import parse
from sgs_dsl.syntax.source import MAX_FILE_BYTES

SIZES = (150, 300, 600)
#: 2.0 for linear work, 4.0 for quadratic; the margin takes what a hash order may change
LINEAR = 2.3

CARD = 'card 刀 dao basic "x" { use play: one other; effect { damage(target, 1); } }\n'


def skill(cond: str = "true", body: str = "draw(you, 1);") -> str:
    return CARD + f'skill 長 chang "x" {{\n  on phase_start when {cond} {{\n    {body}\n  }}\n}}\n'


def in_hand(pattern: str) -> str:
    return skill(body=f"if count([c in cards_of(you, hand) where c is {pattern}]) > 0 {{ draw(you, 1); }}")


SHAPES: dict[str, Callable[[int], str]] = {
    "and chain": lambda n: skill(" and ".join(["you.hp > 1"] * n)),
    "and chain, each term narrowing": lambda n: skill(" and ".join(["phase.player != none"] * n)),
    "or chain": lambda n: skill(" or ".join(["you.hp > 1"] * n)),
    "or chain, each term narrowing": lambda n: skill(
        body="if " + " or ".join(["current() == none"] * n) + " { stop; } draw(you, 1);"),
    "X or DEFAULT chain": lambda n: skill(body="let p = " + " or ".join(["first(others(you))"] * n) + " or you; draw(p, 1);"),
    "arguments of max": lambda n: skill(body="draw(you, max(" + ", ".join(["1"] * n) + "));"),
    "a list written out": lambda n: skill(body="draw(you, count([" + ", ".join(["you"] * n) + "]));"),
    "pattern alternatives": lambda n: in_hand("|".join(["刀"] * n)),
    "pattern words of one term": lambda n: in_hand(" ".join(["刀"] * n)),
    "statements in a block": lambda n: skill(body="draw(you, 1); " * n),
    "lets in a block": lambda n: skill(body="".join(f"let v{i} = {i}; draw(you, v{i}); " for i in range(n))),
    "skills in a file": lambda n: "".join(
        f'skill 技{i} ji{i} "x" {{ on phase_start when true {{ draw(you, 1); }} }}\n' for i in range(n)),
    "a chain of cards each like the one before": lambda n: CARD + "".join(
        f'card 刀{i} dao{i} basic "x" {{ like {"刀" if i == 0 else f"刀{i - 1}"}; }}\n' for i in range(n)),
    "skills of a hero": lambda n: "".join(f'skill 技{i} ji{i} "x" {{ modify attack_range += 1; }}\n' for i in range(n))
    + 'hero 長雄 changxiong { kingdom 魏; gender male; hp 4; skills ' + ", ".join(f"技{i}" for i in range(n)) + "; }\n",
    "faces of a deck line": lambda n: CARD + 'deck big "x" {\n  刀 ' + " ".join(["♠7"] * n) + ";\n}\n",
    # errors: past the first ones, the hints (which search every name in sight) cost nothing more
    "unknown variables among many lets": lambda n: skill(
        body="".join(f"let v{i} = {i}; draw(you, v{i}); " for i in range(n)) + "draw(you, w); " * n),
    "unknown cards among many cards": lambda n: in_hand("|".join(f"卡{i}" for i in range(n))) + "".join(
        f'card 器{i} qi{i} basic "x" {{ like 刀; }}\n' for i in range(n)),
}


def check_alone(path: Path) -> list[Diagnostic]:
    """The errors of a file built on its own (the built-in library would only add a constant)."""
    try:
        build([path])
    except SgsError as error:
        return error.diagnostics
    return []


def calls(run: Callable[[], object]) -> int:
    """The Python function calls `run` makes."""
    profile = cProfile.Profile()
    profile.enable()
    try:
        run()
    finally:
        profile.disable()
    return pstats.Stats(profile).total_calls  # type: ignore[attr-defined]


def growth(work: Callable[[int], int]) -> float:
    """What doubling the length from 2n to 4n adds, over what doubling it from n to 2n added."""
    work(SIZES[-1])  # once first: what is done once (caches filled, tables built) is not counted
    small, middle, large = (work(n) for n in SIZES)
    return (large - middle) / (middle - small)


@pytest.fixture(autouse=True)
def no_cache(monkeypatch):
    monkeypatch.setenv("SGS_NO_CACHE", "1")  # every build parses, so the parser is counted too


@pytest.mark.parametrize("shape", SHAPES)
def test_parsing_checking_and_compiling_a_flat_list_is_linear_work(tmp_path, shape):
    path = tmp_path / "flat.sgs"

    def work(n: int) -> int:
        path.write_text(SHAPES[shape](n), encoding="utf-8")
        return calls(lambda: check_alone(path))

    assert growth(work) < LINEAR


@pytest.mark.parametrize("shape", ["and chain", "statements in a block", "skills in a file", "pattern alternatives"])
def test_the_parse_caches_codec_is_linear_work(shape):
    def work(n: int) -> int:
        module = parse(SHAPES[shape](n), "flat.sgs")
        return calls(lambda: astcodec.decode(astcodec.encode(module), "flat.sgs", module.lines))

    assert growth(work) < LINEAR


def test_the_shapes_check_as_expected(tmp_path):
    """The lists above are good text (but the two of errors): the work counted is that of a check
    that goes through, not of one that stopped early."""
    for shape, text in SHAPES.items():
        path = tmp_path / "flat.sgs"
        path.write_text(text(SIZES[0]), encoding="utf-8")
        errors = check_alone(path)
        assert bool(errors) == shape.startswith("unknown"), (shape, [e.render() for e in errors[:2]])


def test_thousands_of_errors_stop_at_the_first_hundred(tmp_path):
    path = tmp_path / "flat.sgs"
    path.write_text(SHAPES["unknown variables among many lets"](1000), encoding="utf-8")
    found = check_alone(path)
    assert [d.severity for d in found] == ["error"] * 100 + ["note"]
    assert found[-1].message == "too many errors: the check stopped here, at its 100th"
    assert found[-1].span == found[-2].span  # the last error in the file is the last one found
    assert all(d.message == "unknown variable 'w'" for d in found[:-1])


def test_a_condition_of_the_largest_file_checks_compiles_and_runs(tmp_path, monkeypatch):
    """A skill whose condition is one `and` chain filling a file up to the size limit (29,000
    terms) checks, compiles, and runs in a game: no stage recurses per term. The time bound is
    only a backstop (the work is counted above); docs/performance.md has the timings."""
    monkeypatch.setenv("SGS_CACHE_DIR", str(tmp_path / "cache"))
    head = 'skill 長 chang "x" {\n  on phase_start when phase.player == you'
    tail = ' {\n    draw(you, 1);\n  }\n}\nhero 長雄 changxiong { kingdom 魏; gender male; hp 4; skills 長; }\n' \
        'ruleset long "長" { mode identity; decks standard, ex; heroes standard, case; lords 長雄; }\n'
    terms = (MAX_FILE_BYTES - len((head + tail).encode())) // len(" and true")
    assert terms > 20_000
    path = tmp_path / "case.sgs"
    path.write_text(head + " and true" * terms + tail, encoding="utf-8")
    start = time.perf_counter()
    assert check_paths([path]) == []
    assert time.perf_counter() - start < 120
    library = load_library([path])
    for seed in range(12):  # the lord picks the hero in some of these games
        result = play_game(library, "long", 5, seed, log=True, max_turns=4)
        assert not result.error and not result.violations, result.error
        if any("【長】" in line for line in result.log):
            return
    raise AssertionError("the skill never fired")


def test_a_cycle_of_likes_is_a_located_error_not_a_crash(tmp_path):
    path = tmp_path / "cycle.sgs"
    path.write_text(CARD + 'card 甲 jia basic "x" { like 乙; }\ncard 乙 yi basic "x" { like 丙; }\n'
                    'card 丙 bing basic "x" { like 甲; }\n', encoding="utf-8")
    (error,) = check_alone(path)
    assert (error.span.line, error.span.column) == (4, 30)
    assert error.message == "a card cannot be like itself: '甲' is already a kind of '丙'"
    assert "drop one of the two" in error.hint


def test_a_long_chain_of_likes_makes_every_card_a_kind_of_the_first(tmp_path):
    path = tmp_path / "likes.sgs"
    path.write_text(SHAPES["a chain of cards each like the one before"](3000), encoding="utf-8")
    library = build([path])
    last = library.cards["刀2999"]
    assert last.is_a("刀") and last.is_a("刀1500") and not last.is_a("刀3000")
    assert last.rule_name == "刀" and last.uses == library.cards["刀"].uses


def test_building_leaves_the_cyclic_collector_as_it_found_it(tmp_path):
    """A build runs with the collector off (it only slows the build of a big tree down), and
    turns it back on, whether the build succeeds or fails."""
    path = tmp_path / "flat.sgs"
    for text in (SHAPES["and chain"](10), SHAPES["unknown variables among many lets"](10)):
        path.write_text(text, encoding="utf-8")
        check_alone(path)
        assert gc.isenabled()
    gc.disable()
    try:
        check_alone(path)
        assert not gc.isenabled()
    finally:
        gc.enable()
