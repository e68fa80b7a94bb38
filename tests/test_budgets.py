"""Budgets for runaway text: every runaway pattern ends in a rules error that starts with the
`.sgs` location of the text that ran over, after a bounded amount of work; real games stay far
inside the budgets; `game_timeout` cuts off a game by wall-clock time without changing the
games that end in time."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from table import make_table

import sgs_dsl
from sgs_dsl.compiler import schema
from sgs_dsl.compiler.library import check_paths, load_library
from sgs_dsl.compiler.runtime import COUNTS
from sgs_dsl.core.model import CALL_LEVELS, MAX_COUNT, MAX_DEPTH, MAX_INT, MAX_STEPS, Budget, RulesError
from sgs_dsl.engine.parts import Parts
from sgs_dsl.game import play_game
from sgs_dsl.sim.batch import run_batch
from sgs_dsl.sim.stats import format_summary, summarize

RUNAWAY = Path(__file__).parent / "data" / "runaway"
DOC = Path(__file__).resolve().parents[1] / "docs" / "language.md"


@pytest.fixture(scope="module")
def lib():
    return load_library(sorted(RUNAWAY.glob("*.sgs")))


def table(lib, skills: dict[int, str], seats: int = 2):
    """A table of `seats` players; seat -> comma-separated skill ids."""
    roles = ["lord", "rebel", "rebel", "loyalist"][:seats]
    game = make_table(lib, seats=[dict(role=r) for r in roles])
    for seat, ids in skills.items():
        game.players[seat].skills = tuple(lib.skills[i] for i in ids.split(","))
    game.skills.changed_skills()
    return game


def located(file: str, line: int, column: int, message: str) -> str:
    return re.escape(f"{RUNAWAY / file}:{line}:{column}: {message}")


def play_active(game, name: str) -> None:
    """The lord's play phase, in which the lord invokes the active skill `name`."""
    game.agents[0].answers.append(f"發動【{name}】")
    game.turn.run_phase(game.players[0], "play")


# ------------------------------------------------------------ re-entry depth


def test_a_trigger_that_sets_itself_off_stops_at_the_depth_budget(lib):
    game = table(lib, {0: "fanshi"})
    with pytest.raises(RulesError, match=located("self_trigger.sgs", 5, 5, f"runaway text: nested more than "
                                                 f"{MAX_DEPTH} levels deep while 【反噬】 ({RUNAWAY}/"
                                                 "self_trigger.sgs:4:3) fired;")) as caught:
        game.hp.damage(game.players[0], 1, source=game.players[1])
    assert caught.value.span.line == 5
    # each firing's damage, at level 4 of its text (skill, trigger, statement, call), stays running
    assert game.fired["反噬"] == MAX_DEPTH // (CALL_LEVELS + 4) + 1
    assert game.players[0].alive


def test_two_skills_that_set_each_other_off_stop_at_the_depth_budget(lib):
    game = table(lib, {0: "yiya", 1: "huanya"})
    with pytest.raises(RulesError, match=located("mutual.sgs", 5, 5, "runaway text: nested more than")
                       + ".*" + re.escape(f" while 【以牙】 ({RUNAWAY}/mutual.sgs:4:3) fired;")):
        game.hp.damage(game.players[0], 1, source=game.players[1])
    # in turn: 以牙's damage is at level 4, 還牙's inside an `if` at level 5
    pair = 2 * CALL_LEVELS + 4 + 5
    assert (game.fired["以牙"], game.fired["還牙"]) == (MAX_DEPTH // pair + 1, MAX_DEPTH // pair)


def test_a_condition_that_asks_for_what_it_decides_stops_at_the_depth_budget(lib):
    """No window and no trigger: the range modifier's condition needs the range itself."""
    game = table(lib, {0: "ziyin"})
    with pytest.raises(RulesError, match=located("range_loop.sgs", 4, 33, "runaway text: nested more than")):
        game.seats.in_range(game.players[0], game.players[1])


def test_a_card_that_uses_itself_stops_at_the_card(lib):
    game = table(lib, {})
    with pytest.raises(RulesError, match=located("self_use.sgs", 2, 1, "runaway text: nested more than")):
        game.choices.use_virtual(game.players[0], "回環", [game.players[0]], True, False)
    assert game.budget.depth == 0  # every level was left on the way out


def test_text_nested_deep_inside_itself_ends_at_the_budget_before_python_stack_fills(tmp_path):
    """30 nested `if`s around the recursive calls: each call counts the levels it is written
    in, so the nesting budget stops it, located, while Python's stack has room to spare."""
    body = "recover(you, 1); damage(you, 1);"
    for _ in range(30):
        body = f"if true {{ {body} }}"
    path = tmp_path / "deep.sgs"
    path.write_text(f'skill 深 shen "x" {{\n  on damaged when damage.target == you {{ {body} }}\n}}\n',
                    encoding="utf-8")
    deep = load_library([path])
    game = table(deep, {0: "shen"})
    recover = 42 + 10 * 30  # each `if true { ` moves the calls 10 columns right
    where = f"{re.escape(str(path))}:2:{recover}: "  # the recovery of the firing past the budget
    with pytest.raises(RulesError, match=where + "runaway text: nested more than"):
        game.hp.damage(game.players[0], 1)
    assert game.fired["深"] == MAX_DEPTH // (CALL_LEVELS + 4 + 30) + 1  # each `if` is one level
    assert game.budget.depth == 0


def _levels(k: int, call: str) -> str:
    """`call` inside k nested `if`s."""
    return "".join(f"if n > {-i - 1} {{ " for i in range(k)) + call + " }" * k


# Text that sets itself off through each way text runs again (a procedure, a definition, a
# trigger, a card use), with the call that does it nested k levels deep in its text.
RECURSIONS = {
    "procedure": lambda k: f"""procedure 遞(n: int) {{ {_levels(k, "遞(n + 1);")} }}
skill 遞歸 digui "x" {{ on phase_start when phase.player == you {{ 遞(0); }} }}""",
    "definition": lambda k: f"""define 深(n: int): int = {"(1 + " * k} 深(n + 1) {")" * k};
skill 遞歸 digui "x" {{ on phase_start when phase.player == you {{ draw(you, 深(0)); }} }}""",
    "trigger": lambda k: f"""skill 遞歸 digui "x" {{
  on drawn when move.player == you {{ let n = 1; {_levels(k, "draw(you, 1);")} }} }}""",
    "use": lambda k: f"""skill 遞歸 digui "x" {{
  on using when use.user == you {{ let n = 1; {_levels(k, "use_virtual(you, 無中生有, on: [you]);")} }} }}""",
}


def _stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def _runaway(tmp_path: Path, kind: str, k: int, frames: int, message: str) -> RulesError:
    """The rules error of text that sets itself off (`RECURSIONS[kind]`, its call under k levels
    of text), set off `frames` Python frames deeper than here."""
    path = tmp_path / "x.sgs"
    path.write_text(RECURSIONS[kind](k), encoding="utf-8")
    game = table(load_library([path]), {0: "digui"})
    lord = game.players[0]
    set_off = {"trigger": lambda: game.zones.draw(lord, 1),
               "use": lambda: game.choices.use_virtual(lord, "無中生有", [lord], True, False)}.get(
                   kind, lambda: game.turn.run_phase(lord, "prepare"))

    def deeper(n: int) -> RulesError:
        if n > 0:
            return deeper(n - 1)
        with pytest.raises(RulesError, match=r"^\S+\.sgs:\d+:\d+: " + message) as caught:
            set_off()
        return caught.value

    error = deeper(frames)
    assert str(path) in str(error)  # at the call, or at the card whose use went past, naming the trigger
    assert game.budget.depth == 0
    return error


@pytest.mark.parametrize("kind", sorted(RECURSIONS))
@pytest.mark.parametrize("k", [0, 12, 30, 56])
def test_recursion_under_nesting_ends_at_the_budget_from_a_deep_stack(tmp_path, kind, k):
    """Every way text sets itself off, with its call under up to 56 levels of text (the front
    end allows 64), started 300 frames deep (a test runner, a worker): a located rules error
    of the nesting budget, never Python's RecursionError nor the stack-full fallback."""
    error = _runaway(tmp_path, kind, k, 300, f".*nested more than {MAX_DEPTH} levels deep")
    assert "Python" not in str(error)


@pytest.mark.parametrize("kind", sorted(RECURSIONS))
def test_recursion_from_a_nearly_full_stack_still_ends_located(tmp_path, kind):
    """Started 150 frames short of Python's limit, the game still ends with a rules error at
    the text, never a RecursionError: in the pure build the stack fills before the budget (the
    stack-full fallback); compiled, the closures of a procedure or a definition call each
    other in C, not in Python frames, and the nesting budget may be reached first."""
    message = (f"(runaway text: |.*nested more than {MAX_DEPTH} levels deep)" if sgs_dsl.compiled()
               else "runaway text: ")
    _runaway(tmp_path, kind, 30, sys.getrecursionlimit() - _stack_depth() - 150, message)


# ------------------------------------------------------------ steps per action


def test_nested_repeats_stop_at_the_step_budget(lib):
    game = table(lib, {0: "qianceng"})
    with pytest.raises(RulesError, match=located("nested_repeat.sgs", 6, 22, f"runaway text: more than "
                                                 f"{MAX_STEPS} steps in one action")):
        play_active(game, "千層")


def test_empty_nested_loops_stop_at_the_step_budget(lib):
    """Eight `for`s over 4 players with nothing inside: the rounds themselves are paid for."""
    game = table(lib, {0: "kongzhuan"}, seats=4)
    with pytest.raises(RulesError, match=located("nested_for.sgs", 12, 19, "runaway text: more than")):
        play_active(game, "空轉")


def test_a_trigger_per_point_of_a_huge_damage_stops_at_the_step_budget(lib):
    game = table(lib, {0: "juchuang,dianshu"})
    with pytest.raises(RulesError, match=located("each_point.sgs", 7, 3, "runaway text: more than")):
        play_active(game, "巨創")
    assert game.fired["點數"] == MAX_STEPS - 1  # the active's one statement took a step
    assert game.players[0].hp == 4  # stopped before the damage was dealt


def test_each_action_has_its_own_steps(lib):
    """A second action of the same phase, and the next phase, start with the full budget."""
    game = table(lib, {0: "kongzhuan"}, seats=2)  # 2 players: 2^8 rounds, well within one action
    game.agents[0].answers.extend(["發動【空轉】", "發動【空轉】", "結束出牌"])
    game.turn.run_phase(game.players[0], "play")
    assert game.fired["空轉"] == 2
    rounds = sum(2 ** k for k in range(1, 9))  # of the eight loops, each paid when it starts
    bodies = sum(2 ** k for k in range(1, 8))  # the seven loop bodies that hold a statement
    assert game.budget.steps == MAX_STEPS - 1 - rounds - bodies  # the second action's spend only
    game.turn.run_phase(game.players[0], "finish")
    assert game.budget.steps == MAX_STEPS


# ------------------------------------------------------------ counts and numbers


@pytest.mark.parametrize(("skill", "name", "file", "what"), [
    ("wanshan", "萬閃", "ask_play.sgs", "ask_play(count)"),
    ("tanmo", "貪摸", "huge_draw.sgs", "draw(n)"),
])
def test_a_count_past_the_limit_stops_at_the_call(lib, skill, name, file, what):
    game = table(lib, {0: skill})
    hand = list(game.players[0].hand)
    with pytest.raises(RulesError, match=located(file, 3, 12, f"{what}: 1000000000 is more than {MAX_COUNT}")):
        play_active(game, name)
    assert game.players[0].hand == hand  # nothing was drawn or asked before the check


def test_a_number_squared_in_a_loop_stops_at_the_arithmetic(lib):
    game = table(lib, {0: "pingfang"})
    with pytest.raises(RulesError, match=located("squaring.sgs", 5, 20, f"a number ran past the limit of "
                                                 f"±{MAX_INT}: 4294967296")):
        play_active(game, "平方")


@pytest.mark.parametrize(("card", "line", "column"), [("亂數", 7, 17), ("亂摸", 16, 22)])  # at the field
def test_a_list_used_as_a_number_stops_at_its_place(lib, card, line, column):
    """`use.NAME` has no type the checker knows: a list times 10^9 would fill the memory."""
    game = table(lib, {})
    where = located("list_number.sgs", line, column, "expected a number, found a list")
    with pytest.raises(RulesError, match=where):
        game.choices.use_virtual(game.players[0], card, [game.players[0]], True, False)


def test_adding_to_a_field_past_the_limit_stops_at_the_set(tmp_path):
    path = tmp_path / "grow.sgs"
    path.write_text('skill 增傷 zengshang "x" {\n  on causing_damage when damage.source == you {\n'
                    '    set damage.amount += 1000000000;\n  }\n}\n', encoding="utf-8")
    grow = load_library([path])
    game = table(grow, {0: "zengshang"})
    with pytest.raises(RulesError, match=re.escape(f"{path}:3:5: a number ran past the limit")):
        game.hp.damage(game.players[1], 1, source=game.players[0])


def test_a_number_too_large_to_write_is_a_check_error(tmp_path):
    path = tmp_path / "big.sgs"
    path.write_text('skill 大數 dashu "x" {\n  active { draw(you, 10000000000); }\n}\n', encoding="utf-8")
    (d,) = check_paths([path])
    assert (d.span.line, d.span.column) == (2, 22)
    assert d.message == "the number 10000000000 is too large"
    assert str(MAX_INT) in d.hint


def test_every_count_names_a_number_of_its_builtin():
    for name, params in COUNTS.items():
        builtin = schema.BUILTINS[name]
        types = {p.name: p.type for p in builtin.params} | {k: t for k, (t, _) in builtin.keywords.items()}
        assert all(types[p] == "int" for p in params), name


# ------------------------------------------------------------ whole games


def test_a_runaway_skill_ends_the_game_with_a_located_rules_error(lib):
    result = play_game(lib, "runaway", 2, 1)
    assert result.error is not None
    assert result.error.startswith(f"rules error: {RUNAWAY}/self_trigger.sgs:5:5: runaway text: ")
    assert not result.timed_out


class Watched(Budget):
    """A budget that remembers the most any action spent and the deepest nesting reached."""

    spent = deepest = 0

    def enter(self, span, levels=CALL_LEVELS) -> None:
        super().enter(span, levels)
        Watched.deepest = max(Watched.deepest, self.depth)

    def new_action(self) -> None:
        Watched.spent = max(Watched.spent, MAX_STEPS - self.steps)
        super().new_action()


def test_real_games_stay_far_inside_the_budgets():
    Watched.spent = Watched.deepest = 0
    standard = load_library()
    for seed in range(6):
        assert play_game(standard, "standard", 8, seed, parts=Parts(budget=Watched)).error is None
    assert 0 < Watched.spent < MAX_STEPS // 20
    assert 0 < Watched.deepest < MAX_DEPTH // 2


def test_the_budgets_in_the_doc_are_the_engines():
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Budgets"):]
    section = section[:section.index("\n## ", 1)]
    for value in (f"{MAX_STEPS:,}", str(MAX_DEPTH), f"{MAX_COUNT:,}", "10^9"):
        assert value in section, value


# ------------------------------------------------------------ the per-game time limit


class FakeClock:
    """time.monotonic that moves one second each time it is read."""

    def __init__(self):
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 1.0
        return self.now


def on_a_fake_clock() -> Budget:
    """A game's budget on a clock of its own: each game is cut off at its third action."""
    return Budget(clock=FakeClock().monotonic)


def test_a_budget_past_its_deadline_cuts_the_game_off_at_the_next_action():
    budget = on_a_fake_clock()
    budget.limit_time(2.5)
    budget.steps = 3
    budget.new_action()
    assert budget.steps == MAX_STEPS
    budget.new_action()
    with pytest.raises(RulesError, match="the game ran past its time limit of 2.5 s"):
        budget.new_action()
    assert budget.timed_out


@pytest.mark.parametrize("jobs", [1, 2])
def test_games_cut_off_by_the_time_limit_are_counted_apart(jobs):
    batch = run_batch("standard", 4, 3, seed=5, jobs=jobs, game_timeout=2.5, parts=Parts(budget=on_a_fake_clock))
    assert [r.timed_out for r in batch.records] == [True] * 3
    assert all(r.error is None and r.winner == "timeout" and not r.failed for r in batch.records)
    report = summarize(batch.records, ruleset="standard", players=4, seed=5, max_turns=600, elapsed_s=1.0)
    assert (report["timed_out"], report["valid_games"], report["errors"]) == (3, 0, 0)
    assert "timed out: 3" in format_summary(report)


def test_a_time_limit_that_is_not_reached_changes_nothing():
    library = load_library()
    limited = run_batch("standard", 5, 4, seed=8, library=library, game_timeout=3600)
    free = run_batch("standard", 5, 4, seed=8, library=library)
    assert limited.records == free.records
    assert not any(r.timed_out for r in limited.records)


@pytest.mark.parametrize("seconds", [0, -1.5])
def test_the_time_limit_must_be_positive(seconds):
    with pytest.raises(ValueError, match="game_timeout must be a positive number"):
        run_batch("standard", 4, 1, seed=1, game_timeout=seconds)
