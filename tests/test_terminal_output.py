"""What the commands print reads well on a terminal: text tables aligned by display width
(a CJK character takes two columns), the wide tables within 100 columns, every command in
the top-level help, and the built-in files named as the repository names them."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from sgs_dsl.cli import main
from sgs_dsl.tables import WIDTH, display_width, format_table, wrap


def _out(*args: str) -> str:
    done = CliRunner().invoke(main, list(args))
    assert done.exit_code == 0, done.output[-500:]
    return done.output


def _column(lines: list[str], pattern: str) -> set[int]:
    """The display column where `pattern` first matches in each line."""
    columns = set()
    for line in lines:
        found = re.search(pattern, line)
        if found:
            columns.add(display_width(line[:found.start()]))
    return columns


def test_the_hero_table_of_a_simulation_is_aligned_whatever_the_names_length():
    lines = _out("simulate", "-p", "5", "-g", "30", "--seed", "4", "-q").splitlines()
    start = lines.index(next(x for x in lines if x.startswith("wins by hero")))
    rows = [x for x in lines[start + 1:] if re.match(r"  \S+ +\d+/\d+", x)]
    assert len({len(r.split()[0]) for r in rows}) > 1  # names of two and three characters
    assert len(_column(rows, r"\d+/\d+")) == 1


@pytest.mark.parametrize(("args", "before"), [(["heroes"], r"^\S+ +"),
                                             (["text", "--report"], r"^\d\.\d\d  \S+ +\S+ +\S+ +")])
def test_tables_of_names_are_aligned(args, before):
    """The column after a column of names starts at one display column in every row."""
    rows = [line for line in _out(*args).splitlines()[2:] if re.match(before, line) and " in the library" not in line]
    assert len({len(re.match(before, r).group(0).split()[-1]) for r in rows}) > 1  # names of several lengths
    assert len({display_width(re.match(before, r).group(0)) for r in rows}) == 1


@pytest.mark.parametrize("command", ["windows", "rulesets", "modes", "heroes", "cards"])
def test_the_wide_tables_fit_a_100_column_terminal(command):
    lines = _out(command).splitlines()
    assert max(display_width(line) for line in lines) <= WIDTH


def test_windows_keeps_every_window_and_its_notes():
    text = _out("windows")
    markdown = _out("windows", "--markdown")
    for window_id in re.findall(r"^\| `?([a-z_]+)`? \|", markdown, re.M):
        assert re.search(rf"^{window_id} ", text, re.M), window_id
    assert "    polled: " in text and "    note: " in text


@given(st.text(alphabet="ab 殺閃，、", max_size=80), st.integers(min_value=4, max_value=30))
def test_wrap_keeps_the_text_and_the_width(text, width):
    lines = wrap(text, width)
    assert all(display_width(line) <= width for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_a_table_wraps_its_widest_column_to_fit():
    table = format_table(["a", "b"], [["x" * 10, "殺" * 80]], width=60)
    assert max(display_width(line) for line in table.splitlines()) <= 60
    assert table.count("殺") == 80


def test_the_top_level_help_lists_every_command():
    helped = _out("--help")
    commands = re.findall(r"^  ([a-z]+) ", helped.split("Commands:")[1], re.M)
    assert set(commands) == set(main.commands)


def test_explain_names_a_built_in_file_as_the_repository_does(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # wherever sgs runs and the package is installed
    assert "source: heroes/standard.sgs:" in _out("explain", "奸雄")
    assert "source: cards/standard.sgs:" in _out("explain", "殺")
