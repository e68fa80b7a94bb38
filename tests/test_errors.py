"""Bad .sgs text gets a located, readable error, never a Python traceback.

Every case is a small file written to a temporary folder and checked together with the
built-in library (so it may use 殺, 閃 and the other built-in cards). For each we assert
the exact file:line:col, what the message says, the hint (a "did you mean" where a near
name exists), and that the rendered text shows the source line with a caret under the
right place.
"""

from __future__ import annotations

import os
import random
import unicodedata
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgs_dsl.compiler.library import build, check_paths
from sgs_dsl.resources import data_dir
from sgs_dsl.syntax.diagnostics import Diagnostic, SgsError
from sgs_dsl.syntax.source import decode_source

CARDS = data_dir("cards")
RULESETS = data_dir("rulesets")


# ---------------------------------------------------------------- helpers

def check(tmp_path: Path, text: str, name: str = "bad.sgs") -> list[Diagnostic]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return check_paths([path])


def width(text: str) -> int:
    """Display width: wide (CJK) characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def assert_caret(diagnostic: Diagnostic, marked: str | None) -> None:
    """The rendering shows the source line, and carets under `marked` (or one caret at the column)."""
    span = diagnostic.span
    rendered = diagnostic.render()
    lines = rendered.splitlines()
    assert lines[0].startswith(f"{span}: error: "), rendered
    source = diagnostic.source_line
    assert source, f"no source line in:\n{rendered}"
    row = f"  {span.line:>4} | {source}"
    assert row in lines, rendered
    caret = lines[lines.index(row) + 1]
    assert caret.startswith("       | "), rendered
    body = caret[len("       | "):]
    pad, carets = body[: body.index("^")], body[body.index("^"):]
    assert pad.strip() == "" and set(carets) == {"^"}, rendered
    assert len(pad) == width(source[: span.column - 1]), f"caret is not under column {span.column}:\n{rendered}"
    if marked is None:
        assert len(carets) == 1, rendered
    else:
        assert source[span.column - 1:].startswith(marked), f"{marked!r} is not at column {span.column}:\n{rendered}"
        assert len(carets) == width(marked), rendered


def only(diagnostics: list[Diagnostic]) -> Diagnostic:
    assert len(diagnostics) == 1, "\n\n".join(d.render() for d in diagnostics)
    return diagnostics[0]


@contextmanager
def no_parse_cache():
    old = os.environ.get("SGS_NO_CACHE")
    os.environ["SGS_NO_CACHE"] = "1"
    try:
        yield
    finally:
        if old is None:
            del os.environ["SGS_NO_CACHE"]
        else:
            os.environ["SGS_NO_CACHE"] = old


# ---------------------------------------------------------------- the table of bad inputs

def card(body: str, head: str = "card 測試 ceshi basic") -> str:
    """A card definition; `body` is its lines after the opening brace (line 2 onwards)."""
    return f"{head} {{\n{body}}}\n"


def weapon(body: str) -> str:
    return card(body, "card 測劍 cejian weapon")


# (id, text, line, column, words in the message, words in the hint (or None), text under the caret)
CASES = [
    # ---- syntax
    ("missing semicolon before a block",
     card("  use play: self\n  effect { draw(target, 1); }\n"),
     2, 17, "missing ';' at the end of the line", "end with ';'", None),
    ("missing semicolon after a statement",
     card("  use play: self;\n  effect {\n    draw(target, 1)\n    draw(target, 1);\n  }\n"),
     4, 20, "missing ';' at the end of the line (line 5 goes on with 'draw')", "end with ';'", None),
    ("missing closing brace",
     "card 測試 ceshi basic {\n  use play: self;\n  effect { draw(target, 1); }\n",
     1, 21, "this '{' is never closed", "add the missing '}'", "{"),
    ("missing closing brace before the next card",
     "card 測試 ceshi basic {\n  use play: self;\n  effect { draw(target, 1); }\n\n" + card("  use play: self;\n", "card 測二 ceer basic"),
     5, 1, "a new `card` starts here, but the '{' at line 1, column 21 is not closed yet", "add the missing '}'", "card"),
    ("one closing brace too many",
     card("  use play: self;\n") + "}\n",
     4, 1, "unexpected '}'; expected 'card', 'deck', 'define', 'general', 'hero', 'procedure', 'ruleset', 'skill'", "closes nothing", "}"),
    ("unexpected character",
     card("  use play: self;\n  effect { draw(target, 1) @ }\n"),
     3, 28, "unexpected character '@'; expected ';'", "end with ';'", "@"),
    ("quoted text not closed",
     'card 測試 ceshi basic "出牌階段 {\n  use play: self;\n}\n',
     1, 21, "a quoted text is not closed on this line", "on the same line", '"'),
    ("missing closing parenthesis",
     card("  use play: self;\n  effect { draw(target, 1; }\n"),
     3, 26, "unexpected ';'; expected ')', ','", None, ";"),
    ("misspelt keyword at the top level",
     "crad 測試 ceshi basic {\n  use play: self;\n}\n",
     1, 1, "unexpected 'crad'; expected 'card', 'deck'", "did you mean 'card'?", "crad"),
    ("misspelt statement keyword",
     card("  use play: self;\n  effect { lett x = 1; }\n"),
     3, 12, "unexpected 'x' after 'lett'; expected '('", "'lett' is not a keyword; did you mean 'let'?", "lett x"),
    ("misspelt 'where'",
     card("  use play: one other;\n  choose victim: one whre it != target;\n", "card 測試 ceshi trick"),
     3, 22, "unexpected 'it' after 'whre'", "did you mean 'where'?", "whre it"),
    # ---- windows, cards, patterns
    ("unknown window",
     weapon("  range 2;\n  on damged { draw(you, 1); }\n"),
     3, 6, "unknown window 'damged'", "did you mean 'damaged'?", "damged"),
    ("unknown window in Chinese",
     weapon("  range 2;\n  on 受到傷害后了 { draw(you, 1); }\n"),
     3, 6, "unknown window '受到傷害后了'", "did you mean '受到傷害後'?", "受到傷害后了"),
    ("unknown card in a pattern",
     card("  use play: self;\n  effect { if card is 殺殺 { draw(target, 1); } }\n"),
     3, 23, "unknown card or pattern word '殺殺'", "did you mean '殺'?", "殺殺"),
    ("misspelt pinyin id in a pattern",
     card("  use play: self;\n  effect { if card is shaa { draw(target, 1); } }\n"),
     3, 23, "unknown card or pattern word 'shaa'", "did you mean 'sha'?", "shaa"),
    ("bad pattern word",
     card("  use play: self;\n  effect { if card is redd 殺 { draw(target, 1); } }\n"),
     3, 23, "unknown card or pattern word 'redd'", "did you mean 'red'?", "redd"),
    ("unknown card asked for",
     card("  use play: one other;\n  effect { ask_use(target, 閃閃); }\n"),
     3, 28, "unknown card or pattern word '閃閃'", "did you mean '閃'?", "閃閃"),
    # ---- effects and functions
    ("unknown effect",
     card("  use play: self;\n  effect { drwa(target, 1); }\n"),
     3, 12, "unknown effect or function 'drwa'", "did you mean 'draw'?", "drwa"),
    ("wrong number of arguments",
     card("  use play: self;\n  effect { draw(target); }\n"),
     3, 12, "'draw' takes 2 arguments, got 1", "draw(player, n)", "draw(target)"),
    ("unknown keyword option",
     card("  use play: one other;\n  effect { damage(target, 1, natur: fire); }\n"),
     3, 30, "'damage' has no option 'natur'", "did you mean 'nature'?", "natur"),
    ("unknown nature",
     card("  use play: one other;\n  effect { damage(target, 1, nature: frie); }\n"),
     3, 38, "unknown nature 'frie'", "did you mean 'fire'?", "frie"),
    ("unknown phase",
     card("  use play: one other;\n  effect { skip(target, plya); }\n"),
     3, 25, "unknown phase 'plya'", "did you mean 'play'?", "plya"),
    ("argument of the wrong type",
     card("  use play: self;\n  effect { draw(target, \"2\"); }\n"),
     3, 25, "expected int, found str", None, '"2"'),
    ("effect outside its window",
     weapon("  on damaged { provide(閃); }\n"),
     2, 16, "'provide' only works where 'asked' is known", None, "provide"),
    ("division by zero",
     card("  use play: self;\n  effect { draw(target, 1 / 0); }\n"),
     3, 29, "division by zero", None, "0"),
    # ---- variables and fields
    ("unknown variable",
     card("  use play: self;\n  effect { draw(targt, 1); }\n"),
     3, 17, "unknown variable 'targt'", "did you mean 'target'?", "targt"),
    ("unknown variable field",
     weapon("  on damaged { draw(you, damage.amout); }\n"),
     2, 33, "damage has no field 'amout'", "did you mean 'amount'?", "amout"),
    ("unknown field of a player",
     card("  use play: self;\n  effect { draw(target, target.hpp); }\n"),
     3, 32, "player has no field 'hpp'", "did you mean 'hp'?", "hpp"),
    ("variable used before its let",
     card("  use play: self;\n  effect {\n    draw(target, n);\n    let n = 2;\n  }\n"),
     4, 18, "variable 'n' is used before it is defined", "defined by `let` later, at line 5, column 9", "n"),
    ("variable of an inner block",
     card("  use play: self;\n  effect {\n    if target.hurt { let n = 2; }\n    draw(target, n);\n  }\n"),
     5, 18, "variable 'n' is not visible here", "known only inside it", "n"),
    ("a card name used as a value",
     card("  use play: self;\n  effect { gain(target, 閃); }\n"),
     3, 25, "unknown variable '閃'", "test a card with `is`", "閃"),
    ("set on a field that cannot change",
     weapon("  on damaged { set damage.target = you; }\n"),
     2, 27, "'damage.target' cannot be changed", "changeable fields of damage: amount, nature, source", "target"),
    ("set on a fixed field of a use",
     card("  use play: one other;\n  effect { set use.card = 1; }\n"),
     3, 20, "'use.card' cannot be changed", "keeps a value of your own", "card"),
    ("break outside a loop",
     card("  use play: self;\n  effect { if target.hurt { break; } }\n"),
     3, 29, "`break` outside a loop", "use `stop;`", "break;"),
    ("comparing a player with a number",
     card("  use play: self;\n  effect { if target < 3 { draw(target, 1); } }\n"),
     3, 15, "'<' compares numbers, not player", None, "target"),
    # ---- definitions
    ("duplicate card in one file",
     card("  use play: self;\n") + card("  use play: self;\n", "card 測試 ceshi2 basic"),
     4, 6, "duplicate card '測試'", "first defined at {file}:1:6", "測試"),
    ("duplicate card in one package (in the other script)",
     card("  use play: self;\n", "card 殺 ceshi basic") + card("  use play: self;\n", "card 杀 ceshi2 basic"),
     4, 6, "duplicate card '杀' in the package 'bad'", "first defined at {file}:1:6", "杀"),
    ("duplicate card id",
     card("  use play: self;\n") + card("  use play: self;\n", "card 測試二 ceshi basic"),
     4, 10, "duplicate card id 'ceshi' in the package 'bad'", "first defined at {file}:1:9", "ceshi"),
    ("duplicate block",
     card("  use play: self;\n  effect { draw(target, 1); }\n  effect { draw(target, 2); }\n"),
     4, 3, "duplicate block 'effect'", "merge the two blocks", "effect"),
    ("unknown block",
     card("  use play: self;\n  efect { draw(target, 1); }\n"),
     3, 3, "unknown block 'efect' in a card", "did you mean 'effect'?", "efect"),
    ("unknown use context",
     card("  use pley: self;\n"),
     2, 7, "unknown use context 'pley'", "did you mean 'play'?", "pley"),
    ("unknown target words",
     card("  use play: one othr;\n"),
     2, 13, "unknown target 'one othr'", "did you mean 'one other'?", "one othr"),
    ("unknown card type",
     card("  use play: self;\n", "card 測試 ceshi basik"),
     1, 15, "unknown card type 'basik'", "did you mean 'basic'?", "basik"),
    ("unknown card property",
     card("  use play: self;\n  rnage 2;\n"),
     3, 3, "unknown card property 'rnage'", "did you mean 'range'?", "rnage"),
    ("a card with no use clause",
     card("  effect { draw(target, 1); }\n"),
     1, 6, "card '測試' has no `use` clause", "use play: one other;", "測試"),
    ("a modifier on a basic card",
     card("  use play: self;\n  modify distance_to -= 1;\n"),
     3, 3, "only equipment cards may carry modifiers", "may carry triggers", "modify distance_to -= 1;"),
    ("unknown modifier",
     weapon("  range 2;\n  modify limt(殺) = unlimited;\n"),
     3, 10, "unknown modifier 'limt'", "did you mean 'limit'?", "limt"),
    ("unknown trigger flag",
     "skill 測技 ceji {\n  on damaged optinal { draw(you, 1); }\n}\n",
     2, 14, "unknown trigger flag 'optinal'", "did you mean 'optional'?", "optinal"),
    ("unknown skill tag",
     "skill 測技 ceji lockd {\n  on damaged { draw(you, 1); }\n}\n",
     1, 15, "unknown skill tag 'lockd'", "did you mean 'locked'?", "lockd"),
    ("unknown card in view_as",
     "skill 測技 ceji {\n  view_as 殺殺 from 1 red;\n}\n",
     2, 11, "unknown card '殺殺'", "did you mean '殺'?", "殺殺"),
    # ---- heroes
    ("unknown hero property",
     "hero 測將 cejiang {\n  kingdm 魏;\n  hp 4;\n}\n",
     2, 3, "unknown hero property 'kingdm'", "did you mean 'kingdom'?", "kingdm"),
    ("hero hp is not a number",
     "hero 測將 cejiang {\n  hp four;\n}\n",
     2, 6, "'hp' needs a number", "hp 4;", "four"),
    ("hero with an unknown skill",
     "skill 奸計 jianji {\n  on damaged { draw(you, 1); }\n}\nhero 測將 cejiang {\n  skills 姦計;\n}\n",
     5, 10, "unknown skill '姦計'", "did you mean '奸計'?", "姦計"),
    ("hero with a misspelt skill id",
     "skill 奸計 jianji {\n  on damaged { draw(you, 1); }\n}\nhero 測將 cejiang {\n  skills jainji;\n}\n",
     5, 10, "unknown skill 'jainji'", "did you mean 'jianji'?", "jainji"),
    # ---- decks
    ("rank 14 in a deck",
     "deck mine {\n  殺 ♠7 ♠14;\n}\n",
     2, 8, "bad rank '14' in the card face '♠14'", "ranks are A, 2-10, J, Q, K", "♠14"),
    ("rank X in a deck",
     "deck mine {\n  殺 ♠7 ♠X;\n}\n",
     2, 8, "bad rank 'X' in the card face '♠X'", "ranks are A, 2-10, J, Q, K", "♠X"),
    ("lower-case rank in a deck",
     "deck mine {\n  殺 ♥q;\n}\n",
     2, 5, "bad rank 'q' in the card face '♥q'", "write the rank in capitals: ♥Q", "♥q"),
    ("suit and rank apart in a deck",
     "deck mine {\n  殺 ♠ 7;\n}\n",
     2, 5, "a card face needs a rank right after the suit", "♠7", "♠"),
    ("unknown card in a deck",
     "deck mine {\n  殺 ♠7;\n  無懈可撃 ♠J;\n}\n",
     3, 3, "unknown card '無懈可撃'", "did you mean '無懈可擊'?", "無懈可撃"),
    ("duplicate deck",
     "deck mine {\n  殺 ♠7;\n}\ndeck mine {\n  殺 ♠8;\n}\n",
     4, 6, "duplicate deck 'mine' in the package 'bad'", "first defined at {file}:1:6", "mine"),
    # ---- rulesets
    ("unknown ruleset property",
     "ruleset mine {\n  mode identity;\n  decks standard;\n  dekcs ex;\n}\n",
     4, 3, "unknown ruleset property 'dekcs'", "did you mean 'decks'?", "dekcs"),
    ("unknown deck in a ruleset",
     "ruleset mine {\n  mode identity;\n  decks standard, exx;\n}\n",
     3, 19, "unknown deck 'exx'", "did you mean 'ex'?", "exx"),
    ("unknown mode",
     "ruleset mine {\n  mode identty;\n  decks standard;\n}\n",
     2, 8, "unknown mode 'identty'", "did you mean 'identity'?", "identty"),
    ("a number where a deck is named",
     "ruleset mine {\n  decks standard, 3;\n}\n",
     2, 19, "unknown deck '3'", "decks: ", "3"),
    ("ruleset without decks",
     "ruleset mine {\n  mode identity;\n}\n",
     1, 9, "ruleset 'mine' names no decks", "decks standard, ex;", "mine"),
]


@pytest.mark.parametrize(("text", "line", "column", "message", "hint", "marked"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_located_and_explained(tmp_path, text, line, column, message, hint, marked):
    d = only(check(tmp_path, text))
    path = str(tmp_path / "bad.sgs")
    assert d.span.file == path
    assert (d.span.line, d.span.column) == (line, column), d.render()
    assert message in d.message, d.render()
    if hint is not None:
        assert hint.replace("{file}", path) in d.hint, d.render()
    assert d.source_line == text.splitlines()[line - 1]
    assert_caret(d, marked)
    assert "Traceback" not in d.render()


def test_there_are_at_least_twenty_kinds():
    assert len({c[0] for c in CASES}) >= 20


# ---------------------------------------------------------------- more than one error

def test_every_error_is_reported_in_file_order(tmp_path):
    text = card("  use play: self;\n  effect { drwa(target, 1); draw(targt, 1); }\n") + \
        card("  use play: self;\n", "card 測試 ceshi2 basic") + \
        "deck mine {\n  殺 ♠14;\n}\n"
    diagnostics = check(tmp_path, text)
    places = [(d.span.line, d.span.column) for d in diagnostics]
    assert places == [(3, 12), (3, 34), (5, 6), (9, 5)], "\n\n".join(d.render() for d in diagnostics)
    assert places == sorted(places)
    assert [d.message.split(" '")[0] for d in diagnostics] == [
        "unknown effect or function", "unknown variable", "duplicate card", "bad rank"]


def test_errors_of_several_files_are_grouped_by_file(tmp_path):
    (tmp_path / "a.sgs").write_text(card("  effect { drwa(target, 1); }\n", "card 甲 jia basic"), encoding="utf-8")
    (tmp_path / "b.sgs").write_text("deck mine {\n  殺 ♠0;\n}\n", encoding="utf-8")
    diagnostics = check_paths([tmp_path / "b.sgs", tmp_path / "a.sgs"])
    files = [Path(d.span.file).name for d in diagnostics]
    assert files == ["b.sgs", "a.sgs", "a.sgs"], "\n\n".join(d.render() for d in diagnostics)
    assert [d.span.line for d in diagnostics] == [2, 1, 2]


def test_lines_are_counted_like_the_lexer_counts_them(tmp_path):
    text = "card 測試 ceshi basic {\r\n  # form\x0cfeed\n  use play: self;\n  effect { drwa(target, 1); }\n}\n"
    d = only(check(tmp_path, text))
    assert (d.span.line, d.span.column) == (4, 12)
    assert d.source_line == "  effect { drwa(target, 1); }"
    assert_caret(d, "drwa")


def test_a_bad_use_context_does_not_also_report_a_missing_use(tmp_path):
    d = only(check(tmp_path, card("  use counter;\n", "card 測試 ceshi trick")))
    assert "`use counter` needs a card pattern" in d.message


def test_a_missing_file_is_an_error_not_a_crash(tmp_path):
    d = only(check_paths([tmp_path / "nowhere.sgs"]))
    assert "no such file" in d.message
    assert d.render().startswith(str(tmp_path / "nowhere.sgs") + ": error:")


def test_text_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin.sgs"
    path.write_bytes("# caf\xe9\n".encode("latin-1"))
    with no_parse_cache():
        d = only(check_paths([path]))
    assert "not UTF-8" in d.message


def test_the_rendered_error_reads_well(tmp_path):
    d = only(check(tmp_path, weapon("  range 2;\n  on damged { draw(you, 1); }\n")))
    path = tmp_path / "bad.sgs"
    assert d.render() == (
        f"{path}:3:6: error: unknown window 'damged'\n"
        "     3 |   on damged { draw(you, 1); }\n"
        "       |      ^^^^^^\n"
        "  hint: did you mean 'damaged'?"
    )


def test_sgs_error_carries_the_diagnostics(tmp_path):
    path = tmp_path / "bad.sgs"
    path.write_text(card("  use play: self;\n  effect { drwa(target, 1); }\n"), encoding="utf-8")
    with pytest.raises(SgsError) as caught:
        build([CARDS / "standard.sgs", path])
    assert len(caught.value.diagnostics) == 1
    assert f"{path}:3:12: error: unknown effect or function 'drwa'" in str(caught.value)


# ---------------------------------------------------------------- good text stays good

def test_simplified_names_and_pinyin_ids_check_clean(tmp_path):
    text = (
        "card 测锦 cejin trick \"简体字的锦囊\" {\n"
        "  use play: one other where in_range(user, it);\n"
        "  effect {\n"
        "    if not ask_play(target, 杀) { damage(target, 1); }\n"
        "    if card is sha or card is 杀|闪 { draw(user, 1); }\n"
        "    if target.weapon is 诸葛连弩 { draw(user, 1); }\n"
        "  }\n"
        "}\n"
        "card 测剑 cejian weapon {\n"
        "  range 2;\n"
        "  on 受到伤害后 optional when damage.card is sha { draw(you, 1); }\n"
        "  on 受到傷害後 when damage.card is 殺 { draw(you, 1); }\n"
        "}\n"
        "deck mine {\n"
        "  杀 ♠7 ♥A;\n"
        "  sha ♦10;\n"
        "  无懈可击 ♣K;\n"
        "}\n"
    )
    assert check(tmp_path, text) == []


def test_the_builtin_library_checks_clean():
    assert check_paths([CARDS, RULESETS]) == []


# ---------------------------------------------------------------- the command line

def test_sgs_check_exits_non_zero_on_a_bad_file(tmp_path):
    cli = pytest.importorskip("sgs_dsl.cli")
    from click.testing import CliRunner

    bad = tmp_path / "bad.sgs"
    bad.write_text(weapon("  range 2;\n  on damged { draw(you, 1); }\n"), encoding="utf-8")
    result = CliRunner().invoke(cli.main, ["check", str(bad)])
    assert result.exit_code != 0
    output = result.output + (result.stderr if hasattr(result, "stderr") and result.stderr_bytes is not None else "")
    assert f"{bad}:3:6: error: unknown window 'damged'" in output
    assert "did you mean 'damaged'?" in output
    assert "Traceback" not in output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)

    good = tmp_path / "good.sgs"
    good.write_text(weapon("  range 2;\n  on damaged { draw(you, 1); }\n"), encoding="utf-8")
    assert CliRunner().invoke(cli.main, ["check", str(good)]).exit_code == 0


# ---------------------------------------------------------------- no tracebacks, whatever the text

STANDARD = (CARDS / "standard.sgs").read_text(encoding="utf-8")
DESIGNER_FILE = """\
skill 奸計 jianji "當你受到傷害後，你可以獲得對你造成傷害的牌。" {
  on damaged optional when damage.target == you and damage.card != none {
    gain(you, damage.card);
  }
}
skill 連殺 liansha locked { modify limit(殺) = unlimited; }
skill 紅殺 hongsha { view_as 殺 from 1 red in hand_equip; }
skill 測數 ceshu {
  on draw_phase when phase.player == you { set phase.count += 1; }
  on phase_start when phase.name == "play" {
    let n = 0;
    repeat 3 { set n = n + 1; if n > 2 { break; } }
    for p in others(you) { if p.hp < 2 { recover(p, 1); } else { stop; } }
    loop { draw(you, 1 / 1); break; }
  }
}
hero 測將 cejiang { kingdom 魏; gender male; hp 4; skills 奸計; }
hero 測將二 cejianger { kingdom 蜀; gender male; hp 4; skills 連殺, 紅殺, 測數; }
deck mine "測試" {
  殺 ♠7 ♥A ♦10 ♣K;
  閃 ♥2;
}
ruleset mine "測試" { mode identity; decks standard, ex, mine; heroes standard; max_turns 50; }
"""
NOISE = list("{}();:.,|=+-*/<>!#\"♠♥♣♦_ \n\r\t\x0c0123456789AJQKaz殺閃") + [
    " card ", " use ", " on ", " let ", " set ", " if ", " else ", " for ", " in ", " loop ", " break; ",
    " is ", " not ", " where ", " when ", " modify ", " view_as ", " from ", " none ", " you ", "damage.",
]


def mutate(text: str, edits: list[tuple[str, float, str]]) -> str:
    chars = list(text)
    for op, where, new in edits:
        if not chars:
            break
        i = int(where * len(chars)) % len(chars)
        if op == "delete":
            del chars[i]
        elif op == "duplicate":
            chars.insert(i, chars[i])
        else:
            chars[i] = new
    return "".join(chars)


EDITS = st.lists(st.tuples(st.sampled_from(["delete", "duplicate", "replace"]),
                           st.floats(0, 1, allow_nan=False), st.sampled_from(NOISE)), min_size=1, max_size=3)


def _assert_sound(d: Diagnostic) -> None:
    assert isinstance(d, Diagnostic)
    rendered = d.render()
    assert rendered.startswith(str(d.span)) and "Traceback" not in rendered
    assert d.message
    text = decode_source(Path(d.span.file).read_bytes(), d.span.file)  # CR, CRLF and LF end a line
    lines = text.split("\n")
    assert 1 <= d.span.line <= len(lines), rendered
    assert d.source_line == lines[d.span.line - 1], rendered


def _assert_only_diagnostics(files: list[Path]) -> None:
    try:
        build(files)
    except SgsError as error:
        assert error.diagnostics
        for d in error.diagnostics:
            _assert_sound(d)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=EDITS)
def test_mutated_standard_cards_never_crash(edits):
    """Random edits of cards/standard.sgs give diagnostics (or a clean build), never another exception."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder, no_parse_cache():
        path = Path(folder) / "standard.sgs"
        path.write_text(mutate(STANDARD, edits), encoding="utf-8")
        # ex.sgs names standard cards in its deck; the ruleset names both decks
        _assert_only_diagnostics([path, CARDS / "ex.sgs", RULESETS / "builtin.sgs"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=EDITS)
def test_mutated_designer_files_never_crash(edits):
    """The same for a file of skills, heroes, a deck and a ruleset, checked against the library."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder, no_parse_cache():
        path = Path(folder) / "mine.sgs"
        path.write_text(mutate(DESIGNER_FILE, edits), encoding="utf-8")
        for d in check_paths([path]):
            _assert_sound(d)


def test_the_designer_file_itself_is_clean(tmp_path):
    assert check(tmp_path, DESIGNER_FILE, "mine.sgs") == []


def test_random_garbage_never_crashes(tmp_path):
    rng = random.Random(7)
    alphabet = "".join(NOISE) + "abcdefghij測試殺閃桃"
    with no_parse_cache():
        for i in range(30):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 200)))
            path = tmp_path / f"g{i}.sgs"
            path.write_text(text, encoding="utf-8")
            for d in check_paths([path]):
                _assert_sound(d)
