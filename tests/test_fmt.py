"""`sgs fmt`: the canonical layout, idempotent, meaning-preserving, comments kept, over every
built-in .sgs and .ruling file, a fuzz of the spaces between tokens, and the command."""

from __future__ import annotations

from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import attrs
import pytest
import tomllib
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgs_dsl.cli import main
from sgs_dsl.editor import fmt
from sgs_dsl.rulings.parser import parse_rulings
from sgs_dsl.syntax.diagnostics import SgsError, Span
from sgs_dsl.syntax.parser import parse

ROOT = Path(__file__).resolve().parent.parent
SGS_FOLDERS = ("cards", "heroes", "rulesets", "examples", "tests/data")
SGS_FILES = sorted(p for folder in SGS_FOLDERS for p in (ROOT / folder).rglob("*.sgs"))
RULING_FILES = sorted([*(ROOT / "tests" / "rulings").glob("*.ruling"), *(ROOT / "examples").rglob("*.ruling")])


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def shape(value: Any) -> Any:
    """A parsed value with every source position (spans, a ruling's line) left out: what it
    means, not where it stood."""
    if isinstance(value, Span):
        return None
    if isinstance(value, (tuple, list)):
        return tuple(shape(v) for v in value)
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if attrs.has(type(value)):
        return (type(value).__name__,
                *(shape(getattr(value, f.name)) for f in attrs.fields(type(value)) if f.name != "line"))
    return value


def comments(text: str) -> list[str]:
    """Every comment of a text, read without the formatter: a '#' outside a quoted text (which
    holds no '"' and no line break) to the end of its line."""
    found = []
    for line in text.split("\n"):
        quoted = False
        for i, ch in enumerate(line):
            if ch == '"':
                quoted = not quoted
            elif ch == "#" and not quoted:
                found.append(line[i:].rstrip())
                break
    return found


@cache
def ruling_library() -> Any:
    """The library the ruling files are read with: the built-in one and the ini's extra files."""
    from sgs_dsl.compiler.library import load_library

    ini = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    return load_library([ROOT / p for p in ini["sgs_rulings_library"]])


def test_every_built_in_folder_has_files() -> None:
    assert len(SGS_FILES) > 40 and len(RULING_FILES) > 40
    assert {p.relative_to(ROOT).parts[0] for p in SGS_FILES} == {"cards", "heroes", "rulesets", "examples", "tests"}


@pytest.mark.parametrize("path", SGS_FILES, ids=_id)
def test_sgs_file_formats_idempotently_with_its_meaning_and_comments(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    out = fmt.format_text(text, str(path))
    assert fmt.format_text(out, str(path)) == out
    assert shape(parse(out, str(path)).definitions) == shape(parse(text, str(path)).definitions)
    assert comments(out) == comments(text)


@pytest.mark.parametrize("path", RULING_FILES, ids=_id)
def test_ruling_file_formats_idempotently_with_its_meaning_and_comments(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    out = fmt.format_text(text, str(path))
    assert fmt.format_text(out, str(path)) == out
    library = ruling_library()
    assert shape(parse_rulings(out, str(path), library)) == shape(parse_rulings(text, str(path), library))
    assert comments(out) == comments(text)


# ---------------------------------------------------------------- the layout

MESSY = """\
# a card
card  樣例 yangli   basic "示範"{use play:one other where in_range(user,it)and it.hp>-1 ;
limit 1;   # once


  respond{repeat need(use,target){if not ask_use(target,閃){break;}}}
  effect {damage( target ,1,nature:card.nature) ;}
}
hero 甲 jia {kingdom 魏;gender male;
  hp 4; skills 樣技;}
skill 樣技 yangji 鎖定技 {
  modify limit(殺|決鬥)=unlimited;
  on damaged when damage.target==you and damage.source!=none{
    # say why
    let n=[p in others(you) where p.hand>0 ];
    if count(n)>0{draw(you,1);}else{draw(you,2);}
  }
}
"""

TIDY = """\
# a card
card 樣例 yangli basic "示範" {
  use play: one other where in_range(user, it) and it.hp > -1;
  limit 1;  # once

  respond {
    repeat need(use, target) {
      if not ask_use(target, 閃) { break; }
    }
  }
  effect { damage(target, 1, nature: card.nature); }
}
hero 甲 jia { kingdom 魏; gender male; hp 4; skills 樣技; }
skill 樣技 yangji 鎖定技 {
  modify limit(殺|決鬥) = unlimited;
  on damaged when damage.target == you and damage.source != none {
    # say why
    let n = [p in others(you) where p.hand > 0];
    if count(n) > 0 {
      draw(you, 1);
    } else {
      draw(you, 2);
    }
  }
}
"""


def test_messy_text_gets_the_canonical_layout() -> None:
    assert fmt.format_text(MESSY, "x.sgs") == TIDY


def test_a_one_statement_block_too_wide_for_one_line_keeps_its_statement_on_a_line_of_its_own() -> None:
    call = "draw(you, " + " + ".join(["1"] * 30) + ");"
    out = fmt.format_text(f"skill 甲 jia {{ active {{ {call} }} }}", "x.sgs")
    assert out == f"skill 甲 jia {{\n  active {{\n    {call}\n  }}\n}}\n"
    short = fmt.format_text("skill 甲 jia { active { draw(you, 1); } }", "x.sgs")
    assert short == "skill 甲 jia {\n  active { draw(you, 1); }\n}\n"


def test_a_ruling_keeps_one_entry_a_line_and_a_long_card_list_in_rows_of_ten() -> None:
    pile = ", ".join(f"殺 ♠{n}" for n in [*range(2, 11)] * 3)  # 27 cards
    text = f'ruling "甲" {{ source "s"; seat 1 lord hand [{pile}]; seat 2 rebel hp 3/4; expect {{ seat 2 hp 3; }} }}'
    out = fmt.format_text(text, "x.ruling")
    rows = out.split("\n")
    assert rows[:3] == ['ruling "甲" {', '  source "s";', "  seat 1 lord hand ["]
    assert [r.count("殺") for r in rows[3:6]] == [10, 10, 7] and rows[6] == "  ];"
    assert rows[7:] == ["  seat 2 rebel hp 3/4;", "  expect {", "    seat 2 hp 3;", "  }", "}", ""]


def test_comments_stay_where_they_were_said() -> None:
    text = ("skill 甲 jia {  # after the brace\n"
            "  active when you.hp > 0 and # inside a condition\n"
            "     you.hand > 0 {\n"
            "    draw(you, 1);\n"
            "    # at the end of a body\n"
            "  }  # after a block\n"
            "  # before the closing brace\n"
            "}\n"
            "# at the end of the file\n")
    out = fmt.format_text(text, "x.sgs")
    assert comments(out) == comments(text)
    assert fmt.format_text(out, "x.sgs") == out
    assert "{  # after the brace\n" in out and "\n  }  # after a block\n" in out
    assert "\n    # at the end of a body\n  }" in out and "\n  # before the closing brace\n}" in out
    assert out.endswith("}\n# at the end of the file\n")
    assert "and  # inside a condition\n      you.hand > 0 {\n" in out  # the item goes on, 4 more spaces in


def test_trailing_comments_of_consecutive_lines_share_a_column() -> None:
    text = 'ruling "甲" {\n  source "s"; # one\n  seat 1 lord hand [殺 ♠7]; # two\n\n  phase 1 play; # three\n}\n'
    out = fmt.format_text(text, "x.ruling")
    assert out.split("\n")[1:5] == ['  source "s";                # one', "  seat 1 lord hand [殺 ♠7];  # two",
                                    "", "  phase 1 play;  # three"]


def test_line_endings_and_a_bom_are_normalised() -> None:
    assert fmt.format_text("\ufeffhero 甲 jia {\r\n  hp 4;\r\n}\r\n", "x.sgs") == "hero 甲 jia { hp 4; }\n"


# ---------------------------------------------------------------- the fuzz

def _snippets() -> list[tuple[str, str]]:
    """Definitions and rulings of built-in files, each a text of its own (grammar, text)."""
    picked = [ROOT / "cards" / "standard.sgs", ROOT / "cards" / "maneuvering.sgs", ROOT / "heroes" / "standard.sgs",
              ROOT / "heroes" / "fire.sgs", ROOT / "rulesets" / "builtin.sgs", ROOT / "examples" / "rulings" / "basics.ruling",
              ROOT / "tests" / "rulings" / "basic_cards.ruling"]
    out = []
    for path in picked:
        grammar = fmt.grammar_of(path)
        text = fmt.format_text(path.read_text(encoding="utf-8"), str(path))
        for item in fmt._parser(grammar).parse(text).children:
            tokens = [t for t, _ in fmt._tokens(item)]
            out.append((grammar, text[tokens[0].start_pos:tokens[-1].end_pos]))
    return out


SNIPPETS = _snippets()
_TIGHT = set(";,()[]{}:")  # a token next to one of these needs no space to stay itself
_SPACES = [" ", "  ", "\t", "\n", "\n    ", "  \n\t"]


@given(st.data())
@settings(max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
def test_fmt_ignores_the_spaces_and_line_breaks_between_tokens(data: st.DataObject) -> None:
    grammar, text = data.draw(st.sampled_from(SNIPPETS))
    tokens = [t for t, _ in fmt._tokens(fmt._parser(grammar).parse(text))]
    pieces = [text[:tokens[0].start_pos]]
    for left, right in pairwise(tokens):
        pieces.append(str(left))
        gap = text[left.end_pos:right.start_pos]
        if "#" in gap:  # a comment stays after its code or on a line of its own
            pieces.append(gap)
        elif gap.count("\n") >= 2:  # a blank line is kept (and several are one)
            pieces.append(data.draw(st.sampled_from(["\n\n", "\n \n\t", "\n\n\n\n  "])))
        else:
            tight = str(left)[-1] in _TIGHT or str(right)[0] in _TIGHT
            pieces.append(data.draw(st.sampled_from(([""] if tight else []) + _SPACES)))
    pieces.append(str(tokens[-1]) + text[tokens[-1].end_pos:])
    shaken = "".join(pieces)
    path = "x.ruling" if grammar == "ruling.lark" else "x.sgs"
    assert fmt.format_text(shaken, path) == fmt.format_text(text, path)


# ---------------------------------------------------------------- the command

def test_check_lists_the_files_that_would_change_and_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "tidy.sgs").write_text(TIDY, encoding="utf-8")
    (tmp_path / "messy.sgs").write_text(MESSY, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not read", encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", "--check", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert f"would reformat {tmp_path / 'messy.sgs'}" in result.output and "tidy.sgs" not in result.output
    assert (tmp_path / "messy.sgs").read_text(encoding="utf-8") == MESSY

    result = CliRunner().invoke(main, ["fmt", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "messy.sgs").read_text(encoding="utf-8") == TIDY
    result = CliRunner().invoke(main, ["fmt", "--check", str(tmp_path)])
    assert result.exit_code == 0 and "ok: 2 files, 0 would change" in result.output


def test_a_file_that_does_not_parse_is_reported_located_and_left_untouched(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sgs"
    text = "card 甲 jia basic {\n  use play: one\n}\n"
    bad.write_bytes(text.encode("utf-8"))
    for args in (["fmt", str(bad)], ["fmt", "--check", str(bad)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1, result.output
        assert f"{bad}:2:16: error: missing ';'" in result.output
        assert "Traceback" not in result.output and isinstance(result.exception, SystemExit | None)
        assert bad.read_bytes() == text.encode("utf-8")
    with pytest.raises(SgsError, match="x.ruling:1:"):
        fmt.format_text('ruling "甲" { seat one; }', "x.ruling")


def test_bad_paths_are_reported_without_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", str(tmp_path / "a.txt"), str(tmp_path / "none.sgs")])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit | None)
    assert "is not a .sgs or .ruling file" in result.output and "no such file or folder" in result.output


def test_standard_input_is_formatted_to_standard_output() -> None:
    result = CliRunner().invoke(main, ["fmt", "-"], input=MESSY)
    assert result.exit_code == 0 and result.output == TIDY
    ruling = CliRunner().invoke(main, ["fmt", "-", "--stdin-filename", "a.ruling"], input='ruling "甲" {seat 1;}')
    assert ruling.exit_code == 0 and ruling.output == 'ruling "甲" {\n  seat 1;\n}\n'
