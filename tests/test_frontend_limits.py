"""The front end on text of any size or shape: huge numbers, deep nesting,
huge files and lines, odd encodings and line endings, full-width punctuation, control
characters. Each gets a located error (file:line:col, the line, a caret, a hint) and exit
status 1, or is read as it should be; never a traceback, never exit 70, and fast."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgs_dsl.cli import main
from sgs_dsl.compiler.library import check_paths, load_library
from sgs_dsl.core.model import MAX_INT
from sgs_dsl.game import play_game
from sgs_dsl.resources import data_dir
from sgs_dsl.rulings.parser import load_rulings, parse_rulings
from sgs_dsl.syntax import ast, astcodec
from sgs_dsl.syntax.diagnostics import Diagnostic, SgsError, Span
from sgs_dsl.syntax.parser import MAX_DIGITS, MAX_NESTING, MAX_NUMBER, parse, parse_tree
from sgs_dsl.syntax.source import MAX_FILE_BYTES, decode_source, read_bytes

HERE = Path(__file__).resolve().parent
BASICS = HERE.parent / "examples" / "rulings" / "basics.ruling"
LARK_NAMES = re.compile(r"\b(__ANON\w*|LSQB|RSQB|lsqb|rsqb|LPAR|RPAR|lpar|rpar|LBRACE|RBRACE|SEMICOLON|"
                        r"COLON|COMMA|DOT|VBAR|SLASH|PLUS|STAR|MINUS|EQUAL|\$END)\b")


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("parse-cache")


@pytest.fixture(autouse=True)
def own_cache(cache_dir, monkeypatch):
    """A parse cache of these tests' own: the built-in files are parsed once, and no entry
    from elsewhere can stand in for a file under test."""
    monkeypatch.setenv("SGS_CACHE_DIR", str(cache_dir))


# Seconds within which the inputs here must be answered: a backstop against work quadratic
# in the size of the text (which took minutes to hours on these inputs), not a timing, which
# a loaded machine would make flaky; the figures are measured in benchmarks/ (docs/performance.md).
BACKSTOP = 60


def skill(body: str, trigger: str = "on damaged") -> str:
    return f"skill 測深 ceshen {{ {trigger} {{ {body} }} }}\n"


def sgs(tmp_path: Path, data: str | bytes, command: str = "check", name: str = "case.sgs"):
    """Run `sgs check` (or `sgs ruling`) on one file; the result and the file's path."""
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    start = time.perf_counter()
    result = CliRunner().invoke(main, [command, str(path)])
    elapsed = time.perf_counter() - start
    assert elapsed < BACKSTOP, f"{command} took {elapsed:.1f} s"
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result, path


def assert_located(tmp_path: Path, data: str | bytes, where: str, message: str, hint: str = "",
                   command: str = "check", name: str = "case.sgs") -> str:
    """Exit status 1 and an error at `where` ("line:col", or "line" alone) saying `message`,
    with `hint`; the rendered error, which shows the source line and a caret."""
    result, path = sgs(tmp_path, data, command, name)
    assert result.exit_code == 1, result.output
    first = re.search(re.escape(f"{path}:{where}") + ("" if ":" in where else r":\d+") + ": error: (.*)", result.stderr)
    assert first, result.stderr
    assert message in first.group(1), result.stderr
    assert hint in result.stderr, result.stderr
    return result.stderr


def only(call) -> Diagnostic:
    with pytest.raises(SgsError) as caught:
        call()
    assert len(caught.value.diagnostics) == 1, caught.value.render()
    return caught.value.diagnostics[0]


def caret_under(d: Diagnostic) -> str:
    """The shown text the carets stand under (display columns: a CJK character takes two)."""
    shown, carets = d.render().splitlines()[1:3]
    start, end = carets.index("^"), len(carets)
    out, column = "", 0
    for ch in shown:
        if start <= column < end:
            out += ch
        column += 2 if ord(ch) >= 0x2E80 else 1
    return out


# ---------------------------------------------------------------- numbers

def test_a_number_of_thousands_of_digits_is_located(tmp_path):
    text = skill("draw(you, " + "9" * 5000 + ");")
    column = text.index("9") + 1
    assert_located(tmp_path, text, f"1:{column}", "a number of 5,000 digits; the limit is 18 digits",
                   "numbers in the rules are small counts")


def test_the_digit_limit_is_exact():
    parse(skill("draw(you, " + "0" * (MAX_DIGITS - 1) + "1);"))  # 18 digits, the value 1
    d = only(lambda: parse(skill("draw(you, " + "1" * (MAX_DIGITS + 1) + ");"), "x.sgs"))
    assert d.message == f"a number of {MAX_DIGITS + 1} digits; the limit is {MAX_DIGITS} digits"


def test_a_huge_number_in_a_ruling_is_located(tmp_path):
    text = 'ruling "大數" {\n  seat ' + "7" * 4400 + " lord;\n}\n"
    assert_located(tmp_path, text, "2:8", "a number of 4,400 digits", command="ruling", name="case.ruling")


# ---------------------------------------------------------------- the value of a number

BIG = str(MAX_NUMBER + 1)
# every kind of place a number is written: NUMBER stands for the number
NUMBER_PLACES = {
    "an expression": skill("draw(you, NUMBER);"),
    "a card's range": 'card 刀 dao weapon "x" { range NUMBER; }\n',
    "a card's limit": 'card 刀 dao basic "x" { use play: one other; limit NUMBER; effect { damage(target, 1); } }\n',
    "a card's distance": 'card 刀 dao trick "x" { use play: one other; distance NUMBER; effect { damage(target, 1); } }\n',
    "a card's targets": 'card 刀 dao basic "x" { use play: one other; targets NUMBER; effect { damage(target, 1); } }\n',
    "a hero's hp": "hero 雄 xiong { kingdom 魏; gender male; hp NUMBER; }\n",
    "a general's hp_half": "general 將 jiang { kingdom 魏; gender male; hp_half NUMBER; }\n",
    "a negative property": "hero 雄 xiong { kingdom 魏; gender male; hp -NUMBER; }\n",
    "a ruleset's max_turns": 'ruleset r "r" { mode identity; decks standard; max_turns NUMBER; }\n',
    "a view_as count": 'skill 測 ce { view_as 殺 from NUMBER any in hand; }\n',
    "a ruling": 'ruling "大數" {\n  seat 1 lord hp NUMBER;\n}\n',
}


@pytest.mark.parametrize("place", NUMBER_PLACES)
def test_a_number_over_the_limit_is_located_wherever_it_is_written(tmp_path, place):
    text = NUMBER_PLACES[place].replace("NUMBER", BIG)
    line = text[:text.index(BIG)].count("\n") + 1
    column = len(text[:text.index(BIG)].split("\n")[-1]) + 1
    ruling = place == "a ruling"
    stderr = assert_located(tmp_path, text, f"{line}:{column}", f"the number {BIG} is too large",
                            f"numbers in text are at most {MAX_NUMBER}", command="ruling" if ruling else "check",
                            name="case.ruling" if ruling else "case.sgs")
    assert "^" * len(BIG) in stderr


@pytest.mark.parametrize("place", NUMBER_PLACES)
def test_the_number_limit_is_exact(place):
    grammar = "ruling.lark" if place == "a ruling" else "sgs.lark"
    parse_tree(NUMBER_PLACES[place].replace("NUMBER", str(MAX_NUMBER)), "case", grammar)


def test_the_limit_on_numbers_written_is_the_limit_on_numbers_computed():
    assert MAX_NUMBER == MAX_INT == astcodec.MAX_NUMBER == 10**9


def test_a_cached_tree_with_a_number_over_the_limit_is_refused():
    module = parse(skill("draw(you, 7);"), "case.sgs")
    data = astcodec.encode(module)
    assert astcodec.decode(data, "case.sgs", module.lines) == module

    def forge(node):  # the literal 7 made one over the limit
        if isinstance(node, list) and node[:2] == ["Int", 7]:
            return ["Int", MAX_NUMBER + 1, *node[2:]]
        return [forge(x) for x in node] if isinstance(node, list) else node

    forged = forge(data)
    assert BIG in json.dumps(forged)
    with pytest.raises(astcodec.CodecError, match="integer too large"):
        astcodec.decode(forged, "case.sgs", module.lines)


# ---------------------------------------------------------------- nesting

@pytest.mark.parametrize(("text", "marked", "hint"), [
    (skill("draw(you, " + "(" * 97 + "1" + ")" * 97 + ");"), "(", "not yet closed is one level"),
    (skill("draw(you, " + "[x in " * 70 + "others(you)" + " where true]" * 70 + ");"), "[", "not yet closed"),
    (skill("if true { " * 243 + "} " * 243), "{", "not yet closed is one level"),
    (skill("if true { } " + "else if true { } " * 240), "if true", "`else if` chain"),
    (skill("draw(you, " + " + ".join(["1"] * 325) + ");"), "1 + 1", "each + - * / of a chain is one level"),
    (skill("if " + "not " * 300 + "true { }"), "not", "`let`"),
    (skill("draw(you, " + "- " * 300 + "1);"), "-", "`let`"),
    (skill("draw(you, you" + ".hp" * 300 + ");"), "hp", "`let`"),
], ids=["97 parentheses", "70 filters", "243 nested ifs", "240 else ifs", "a sum of 325 terms",
        "300 nots", "300 minus signs", "300 fields"])
def test_deep_nesting_is_located(tmp_path, text, marked, hint):
    stderr = assert_located(tmp_path, text, "1", f"nested too deeply: more than {MAX_NESTING} levels", hint)
    d = only(lambda: parse(text, "x.sgs"))
    assert d.span.line == 1 and d.source_line == text.rstrip("\n")
    assert text[d.span.column - 1:].startswith(marked), stderr


def test_the_limit_is_at_the_bracket_that_passes_it():
    opened = MAX_NESTING - 3  # the skill's '{', the trigger's '{' and draw's '('
    parse(skill("draw(you, " + "(" * opened + "1" + ")" * opened + ");"))
    text = skill("draw(you, " + "(" * (opened + 1) + "1" + ")" * (opened + 1) + ");")
    d = only(lambda: parse(text, "x.sgs"))
    assert d.span.column == text.index("(" * (opened + 1)) + opened + 1


def test_brackets_in_quoted_texts_and_comments_do_not_count():
    module = parse(f'skill 測深 ceshen "{"(" * 200}" {{ on damaged {{ # {"{" * 200}\n draw(you, 1); }} }}\n')
    assert len(module.definitions) == 1


def test_flat_chains_of_any_length_are_fine():
    module = parse(skill("if " + " and ".join(["you.hp > 0"] * 2000) + " { draw(you, 1); }"))
    assert len(module.definitions[0].members[0].body[0].cond.items) == 2000


def test_text_nested_up_to_the_limit_checks_compiles_and_runs(tmp_path):
    """Every stage after the parser recurses per level: at the limit they all still work."""
    ifs = MAX_NESTING - 4  # skill, trigger, the ifs, then the statement and its call
    terms = MAX_NESTING - 3  # skill, trigger, the statement, the call, then one level per '+'
    text = (skill("if true { " * ifs + "draw(you, 1); " + "} " * ifs + "draw(you, "
                  + " + ".join(["0"] * terms) + ");", "on damaged when damage.target == you")
            + "hero 測深雄 ceshenxiong { kingdom 群; gender male; hp 4; skills 測深; }\n"
            + 'ruleset deep "深" { mode identity; decks standard, ex; heroes standard, case; lords 測深雄; }\n')
    parse(text)
    for deeper in (text.replace("if true { ", "if true { if true { ", 1).replace("} ", "} } ", 1),
                   text.replace("0 + ", "0 + 0 + ", 1)):
        with pytest.raises(SgsError, match="nested too deeply"):
            parse(deeper)
    path = tmp_path / "case.sgs"
    path.write_text(text, encoding="utf-8")
    assert check_paths([path]) == []
    library = load_library([path])
    fired = 0
    for seed in range(12):  # the lord picks the deep hero in some of these games
        result = play_game(library, "deep", 5, seed, log=True)
        assert not result.error and not result.violations, result.error
        fired += sum("【測深】" in line for line in result.log)
        if fired:
            break
    assert fired


# ---------------------------------------------------------------- file size

def test_a_file_over_the_size_limit_is_located(tmp_path):
    text = "# comment\n" * (MAX_FILE_BYTES // 10 + 100)  # 10 bytes a line
    where = f"{MAX_FILE_BYTES // 10 + 1}:{MAX_FILE_BYTES % 10 + 1}"  # the first byte past the limit
    message = f"the file is {len(text):,} bytes; the limit is {MAX_FILE_BYTES:,} bytes (256 KiB)"
    assert_located(tmp_path, text, where, message, "split it into several files")
    assert_located(tmp_path, text, where, message, command="ruling", name="case.ruling")


def test_the_size_limit_is_exact():
    ok = b"#" * (MAX_FILE_BYTES - 1) + b"\n"
    assert decode_source(ok, "x.sgs") == ok.decode()
    d = only(lambda: decode_source(ok + b"#", "x.sgs"))
    assert d.message.startswith(f"the file is {MAX_FILE_BYTES + 1:,} bytes")
    assert (d.span.line, d.span.column) == (2, 1)


def test_reading_a_huge_file_stops_at_the_limit_and_reports_its_real_size(tmp_path):
    path = tmp_path / "huge.sgs"
    with open(path, "wb") as f:
        f.truncate(64 * MAX_FILE_BYTES)  # sparse: 16 MiB of NUL bytes, never read in full
    d = only(lambda: read_bytes(path))
    assert d.message.startswith(f"the file is {64 * MAX_FILE_BYTES:,} bytes")
    assert d.span.line == 1 and d.span.column == MAX_FILE_BYTES + 1


# ---------------------------------------------------------------- long lines, linear diagnostics

LONG = 100_000


@pytest.mark.parametrize("text", [
    skill('draw(you, "' + "a" * LONG + '" ) x;'),  # was quadratic: a `$`-anchored search per word
    skill("draw(you, " + "a" * LONG + " @);"),
    skill("draw(you, 1) " + "x " * (LONG // 2)),
    skill("let x = " + "a" * LONG + "\n let y = 1;"),
    "card " + "a" * LONG + " x",
    skill("draw(you, 1); " * (LONG // 14))[:-4],
    skill("") + "}" * LONG,
    "deck 牌 { 殺 " + "♠7 " * (LONG // 3) + "♠ 1; }",
    "skill 測深 ceshen { on damaged { draw(you, 1); }\ncard " + "a" * LONG + " x y {",
], ids=["long string", "long name", "many words", "missing semicolon", "long word at the top",
        "never closed", "too many closing braces", "a suit alone", "an unclosed skill before a card"])
def test_a_100kB_line_with_a_syntax_error_is_located_at_once(text):
    start = time.perf_counter()
    d = only(lambda: parse(text, "x.sgs"))
    rendered = d.render()
    assert time.perf_counter() - start < BACKSTOP
    assert d.span.line >= 1 and d.message
    assert all(len(line) < 400 for line in rendered.splitlines()), "a long line is shown as a window"
    assert len(d.message) < 300


COMMENTS = (1 << 20) // 15  # '# 一行註解\n' is 15 bytes: 1 MiB of lines
OPEN = "skill 測深 ceshen { on damaged { draw(you, 1)"


@pytest.mark.parametrize(("head", "tail", "line", "message"), [
    (OPEN + ";", " x x", COMMENTS + 2, "unexpected 'x'"),
    (OPEN + ";", "", 1, "this '{' is never closed"),
    (OPEN + ";", "card x", COMMENTS + 2, "a new `card` starts here"),
    (OPEN + "; } }", "}", COMMENTS + 2, "unexpected '}'"),
    (OPEN, "x; } }", 1, "missing ';' at the end of the line"),
], ids=["unexpected word", "end of file", "new card", "extra brace", "missing ;"])
def test_a_long_file_with_an_error_at_the_end_is_located_at_once(head, tail, line, message):
    text = head + "\n" + "# 一行註解\n" * COMMENTS + tail
    start = time.perf_counter()
    d = only(lambda: parse(text, "x.sgs"))
    d.render()
    assert time.perf_counter() - start < BACKSTOP
    assert d.span.line == line and d.message.startswith(message), d.render()


def test_a_long_line_is_shown_as_a_window_with_the_caret_in_place():
    text = skill('draw(you, "' + "a" * 500 + '") 錯 ' + "b" * 500 + ";")
    d = only(lambda: parse(text, "x.sgs"))
    assert d.message == "unexpected '錯'; expected ';'"
    assert caret_under(d) == "錯"
    shown = d.render().splitlines()[1]
    assert "..." in shown and len(shown) < 300


# ---------------------------------------------------------------- bytes and lines

def test_a_bom_is_accepted_and_columns_do_not_move(tmp_path):
    text = skill("draw(you, 1) x;")
    column = text.index(" x;") + 2
    plain = assert_located(tmp_path, text, f"1:{column}", "unexpected 'x'")
    with_bom = assert_located(tmp_path, b"\xef\xbb\xbf" + text.encode(), f"1:{column}", "unexpected 'x'")
    assert plain == with_bom
    result, _ = sgs(tmp_path, b"\xef\xbb\xbf" + skill("draw(you, 1);").encode())
    assert result.exit_code == 0, result.output


def test_a_ruling_file_with_a_bom_or_cr_line_endings_runs_as_the_plain_one(tmp_path):
    data = BASICS.read_bytes()
    plain, _ = sgs(tmp_path, data, "ruling", "case.ruling")
    assert plain.exit_code == 0, plain.output
    for variant in (b"\xef\xbb\xbf" + data, data.replace(b"\n", b"\r"), data.replace(b"\n", b"\r\n")):
        result, _ = sgs(tmp_path, variant, "ruling", "case.ruling")
        assert (result.exit_code, result.stdout) == (0, plain.stdout)


@pytest.mark.parametrize("newline", ["\r", "\r\n"], ids=["CR only", "CRLF"])
def test_cr_and_crlf_line_endings_count_lines(tmp_path, newline):
    text = newline.join(["# 測試", "skill 測深 ceshen {", "  on damaged {", "    draw(you, 1) x;", "  }", "}", ""])
    stderr = assert_located(tmp_path, text, "4:18", "unexpected 'x'; expected ';'")
    assert "     4 |     draw(you, 1) x;\n" in stderr
    assert_located(tmp_path, newline.join(["# 測試", "skill 測深 ceshen {", "  on damagd { draw(you, 1); }", "}"]),
                   "3:6", "unknown window 'damagd'")  # a CR-only file is not one comment line


def test_cr_line_endings_in_a_ruling_count_lines(tmp_path):
    text = '# 測試\rruling "t" {\r  seat 1 lord\r  seat 2 rebel;\r}\r'
    assert_located(tmp_path, text, "3:14", "missing ';' at the end of the line", command="ruling", name="case.ruling")


@pytest.mark.parametrize(("command", "name"), [("check", "case.sgs"), ("ruling", "case.ruling")])
def test_a_byte_that_is_not_utf8_is_located(tmp_path, command, name):
    data = "# 註解\n\n  測試 ".encode() + b"\xb2\xe2 x\n"  # GBK bytes
    stderr = assert_located(tmp_path, b"\xef\xbb\xbf" + data, "3:6", "this is not UTF-8 text (byte 0xb2)",
                            "save the file as UTF-8", command, name)
    assert "     3 |   測試 " in stderr


def test_a_bad_byte_after_cr_line_endings_is_located():
    d = only(lambda: decode_source(b"a\rb\r\ncc\xff\n", "x.sgs"))
    assert (d.span.line, d.span.column) == (3, 3)
    assert d.source_line == "cc\ufffd"


# ---------------------------------------------------------------- what messages say

@pytest.mark.parametrize(("char", "ascii"), [
    ("；", ";"), ("（", "("), ("）", ")"), ("：", ":"), ("，", ","), ("｛", "{"), ("｝", "}"), ("\u3000", " "),
])
def test_full_width_punctuation_gets_a_hint(tmp_path, char, ascii):
    body = {"；": "draw(you, 1)；", "（": "draw（you, 1);", "）": "draw(you, 1）;", "：": "let x：",
            "，": "draw(you，1);", "｛": "if true ｛", "｝": "if true { ｝", "\u3000": "draw(you,\u30001);"}[char]
    text = skill(body)
    column = text.index(char) + 1
    if ascii == " ":
        hint = "a full-width space (U+3000): use an ASCII space"
    else:
        hint = f"full-width '{char}' (U+{ord(char):04X}): use the ASCII '{ascii}'"
    assert_located(tmp_path, text, f"1:{column}", "unexpected character", hint)


def test_full_width_characters_in_names_and_texts_are_fine():
    module = parse('skill 測深 ceshen "當你受到傷害後，你可以摸一張牌；（示範）" { on damaged { draw(you, 1); } }\n')
    assert module.definitions[0].text.endswith("（示範）")


def test_a_full_width_semicolon_in_a_ruling_gets_a_hint(tmp_path):
    text = 'ruling "t" { source "x"；}\n'
    assert_located(tmp_path, text, f"1:{text.index('；') + 1}", "unexpected character",
                   "full-width '；' (U+FF1B): use the ASCII ';'", "ruling", "case.ruling")


def broken_prefixes(text: str, grammar: str, count: int) -> list[str]:
    """The messages (and hints) of `count` cuts of a text, each also followed by odd characters."""
    messages = []
    step = max(1, len(text) // count)
    for cut in range(step, len(text), step):
        for broken in (text[:cut], text[:cut] + " @ ", text[:cut] + " ] / "):
            try:
                parse_tree(broken, "x", grammar)
            except SgsError as error:
                messages.extend(f"{d.message}\n{d.hint}" for d in error.diagnostics)
    return messages


def test_messages_never_name_lark_terminals():
    cards = (data_dir("cards") / "standard.sgs").read_text(encoding="utf-8")
    messages = broken_prefixes(cards[: cards.index("\ncard", 2500)], "sgs.lark", 120)
    messages += broken_prefixes(BASICS.read_text(encoding="utf-8"), "ruling.lark", 80)
    for body in ("draw(you, [x in );", "draw(you, [x in you where true);", "let x = [;", "if a | b {}"):
        with pytest.raises(SgsError) as caught:
            parse(skill(body), "x")
        messages.append(caught.value.render())
    assert len(messages) > 400
    assert any("'['" in m for m in messages) and any("']'" in m for m in messages)
    assert any("'/'" in m for m in messages)
    leaked = sorted({m for m in messages if LARK_NAMES.search(m)})
    assert not leaked, leaked[:5]


def test_a_ruling_without_brackets_says_what_it_expected(tmp_path):
    assert_located(tmp_path, 'ruling "t" {\n  seat 1 lord hand 殺 ♠7;\n}\n', "2:20", "expected '['",
                   command="ruling", name="case.ruling")


def test_a_long_misspelt_name_gets_no_suggestion_and_is_shortened():
    d = only(lambda: parse("card" + "d" * 5000 + " x", "x.sgs"))
    assert len(d.message) < 200 and d.hint == ""


# ---------------------------------------------------------------- control characters

def test_control_and_bidi_characters_are_escaped_and_the_caret_stays_in_place(tmp_path):
    text = skill('draw(you, 1) "\x1b[2J\u202e紅\u2066" 錯;')
    column = text.index('"') + 1
    stderr = assert_located(tmp_path, text, f"1:{column}", "unexpected '\"\\u001b[2J\\u202e紅\\u2066\"'")
    assert "\x1b" not in stderr and "\u202e" not in stderr and "\u2066" not in stderr
    d = only(lambda: parse(text, "x.sgs"))
    assert caret_under(d) == '"\\u001b[2J\\u202e紅\\u2066"'
    after = only(lambda: parse(skill('draw(you, "\x1b\u200f") 錯;'), "x.sgs"))
    assert caret_under(after) == "錯"


def test_a_title_with_control_characters_is_escaped_in_a_ruling_error(tmp_path):
    ruling = 'ruling "t\x1b[31m\u202e" { source "s"; seat 1 lord; seat 2 rebel; turn 1; }\n'
    stderr = assert_located(tmp_path, ruling * 2, "2:1", "duplicate ruling title 't\\u001b[31m\\u202e'",
                            command="ruling", name="case.ruling")
    assert "\x1b" not in stderr and "\u202e" not in stderr


def test_a_diagnostic_escapes_every_part_it_shows():
    d = Diagnostic(Span("a\x1b.sgs", 1, 3, 4), "bad \x07 thing", "try \u202e this", "a\x00b\tc")
    rendered = d.render()
    assert not re.search("[\x00-\x08\x0b-\x1f\u202e]", rendered)
    assert rendered.splitlines() == [
        "a\\u001b.sgs:1:3: error: bad \\u0007 thing",
        "     1 | a\\u0000b\tc",
        "       |        ^",  # under 'b': past 'a' and the six columns of \u0000
        "  hint: try \\u202e this",
    ]


def test_line_numbers_of_five_digits_keep_the_caret_in_place():
    d = Diagnostic(Span("x.sgs", 12345, 2), "m", "", "ab")
    assert d.render().splitlines()[1:] == ["  12345 | ab", "        |  ^"]


# ---------------------------------------------------------------- the API the library uses

def test_decode_source_gives_the_text_the_parser_sees():
    assert decode_source(b"\xef\xbb\xbfa\r\nb\rc\n", "x.sgs") == "a\nb\nc\n"
    assert decode_source("測試".encode(), "x.sgs") == "測試"


def test_load_rulings_uses_the_same_reader(tmp_path):
    path = tmp_path / "bom.ruling"
    path.write_bytes(b"\xef\xbb\xbf" + BASICS.read_bytes().replace(b"\n", b"\r"))
    rulings = load_rulings(path)
    assert [r.title for r in rulings] == [r.title for r in parse_rulings(BASICS.read_text(encoding="utf-8"), "b")]
    assert rulings[1].line == parse_rulings(BASICS.read_text(encoding="utf-8"), "b")[1].line


def test_the_parse_is_an_ast_module():
    module = parse("\ufeff" + skill("draw(you, 1);").replace("\n", "\r"), "x.sgs")
    assert isinstance(module, ast.Module) and module.lines == (skill("draw(you, 1);").rstrip("\n"),)
