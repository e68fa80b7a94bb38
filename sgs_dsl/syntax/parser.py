"""Text -> AST: the lark LALR parser and a transformer into frozen nodes with spans.

Nothing here recurses per level of the input: LALR parsing is iterative, the transformer is
lark's non-recursive one, and the nesting check walks the AST with an explicit stack. The
limits below keep the later, recursive stages (checker, compiler, the compiled closures)
far from Python's recursion limit; docs/reliability.md lists them.
"""

from __future__ import annotations

import difflib
import functools
import re

import attrs
import lark
from lark import Token, Transformer_NonRecursive, v_args

from ..gcpause import no_gc
from ..resources import data_dir
from . import ast
from .diagnostics import LONGEST_NAME, Diagnostic, SgsError, Span, did_you_mean
from .source import clean_text, source_lines

SUITS = {"♠": "spade", "♥": "heart", "♣": "club", "♦": "diamond"}

#: Blocks, statements and expressions nest at most this deep (the checker and the compiler
#: recurse per level; they are tested to well beyond it).
MAX_NESTING = 64
#: The most digits a number may have (every count in the game is small; Python's int() of
#: thousands of digits is slow or refused).
MAX_DIGITS = 18
#: The largest number text may write, wherever it stands: an expression, a card's, hero's or
#: ruleset's property, a `view_as` count, a ruling. The same bound as the numbers text
#: computes (core.model.MAX_INT; a test holds the two equal), checked here, as each number
#: is read, so that no later stage has a number to check.
MAX_NUMBER = 10**9

# How terminals are named in "expected ..." messages; keyword and punctuation terminals are
# shown as written ('card', '['), never by lark's internal names.
_TERMINAL_WORDS = {
    "NAME": "a name", "INT": "a number", "STRING": "a quoted text", "FACE": "a card face like ♠7",
    "SUIT": "a suit (♠ ♥ ♣ ♦)", "ASSIGNOP": "'=', '+=' or '-='", "COMPOP": "a comparison",
    "ADDOP": "'+' or '-'", "MULOP": "'*', '/' or '%'", "SIGN": "'+' or '-'", "ZONE": "'hand', 'equip' or 'judge'",
    "LIFE": "'alive' or 'dead'", "$END": "the end of the file",
}


class _LimitError(Exception):
    """A token over a front-end limit, raised from inside the lexer."""

    def __init__(self, token: Token, message: str, hint: str):
        super().__init__(message)
        self.token, self.message, self.hint = token, message, hint


def _check_int(token: Token) -> Token:
    if len(token) > MAX_DIGITS:
        raise _LimitError(token, f"a number of {len(token):,} digits; the limit is {MAX_DIGITS} digits",
                          "numbers in the rules are small counts: hp, cards, distances, turns")
    if int(token) > MAX_NUMBER:
        raise _LimitError(token, f"the number {token} is too large",
                          f"numbers in text are at most {MAX_NUMBER} (see Budgets in docs/language.md)")
    return token


@functools.lru_cache(maxsize=4)
def parser(grammar_file: str = "sgs.lark") -> lark.Lark:
    grammar = (data_dir("grammar") / grammar_file).read_text(encoding="utf-8")
    return lark.Lark(grammar, parser="lalr", strict=True, propagate_positions=True, maybe_placeholders=True,
                     lexer_callbacks={"INT": _check_int})


def parse_tree(text: str, path: str, grammar_file: str = "sgs.lark") -> lark.Tree:
    """The parse tree of a text in one of the grammars; SgsError on bad syntax or a number
    over the limit. Lines and columns are those of `clean_text(text)`."""
    text = clean_text(text)
    _check_brackets(text, path)
    try:
        with no_gc():
            return parser(grammar_file).parse(text)
    except lark.exceptions.UnexpectedInput as error:
        raise SgsError([_syntax_diagnostic(error, path, source_lines(text), grammar_file)]) from None
    except _LimitError as error:
        raise SgsError([_located(path, source_lines(text), error.token, error.message, error.hint)]) from None


def parse(text: str, path: str = "<text>") -> ast.Module:
    """Parse one .sgs file; raise SgsError with a located, readable message on bad syntax."""
    text = clean_text(text)
    tree = parse_tree(text, path)
    lines = source_lines(text)
    with no_gc():
        definitions = tuple(_ToAst(path).transform(tree))
    _check_nesting(definitions, path, lines)
    return ast.Module(path=path, definitions=definitions, lines=lines)


def _located(path: str, lines: tuple[str, ...], span: Token | Span, message: str, hint: str) -> Diagnostic:
    if isinstance(span, Token):
        span = Span(path, span.line, span.column, span.end_column or 0)
    source = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
    return Diagnostic(span, message, hint, source)


# ---------------------------------------------------------------- nesting

_TOO_DEEP = f"nested too deeply: more than {MAX_NESTING} levels of blocks and expressions"
_BRACKETS = re.compile(r"[(\[{]|[)\]}]")


def _check_brackets(text: str, path: str) -> None:
    """SgsError at the first bracket opened more than MAX_NESTING deep. Checked on the text,
    before lark builds a parse tree several levels deeper than the brackets."""
    depth = 0
    lines = source_lines(text)
    for number, line in enumerate(lines, 1):
        for m in _BRACKETS.finditer(_code(line)):
            if m.group() not in "([{":
                depth = max(0, depth - 1)
                continue
            depth += 1
            if depth > MAX_NESTING:
                span = Span(path, number, m.start() + 1, m.start() + 2)
                raise SgsError([_located(path, lines, span, _TOO_DEEP, "every '(', '[' and '{' not yet closed is one level")])


def _check_nesting(definitions: tuple[ast.Definition, ...], path: str, lines: tuple[str, ...]) -> None:
    """SgsError at the first node (in source order) with something inside it, nested deeper
    than MAX_NESTING; leaves (names, numbers) do not count as a level."""
    for node, depth in ast.levels(definitions):
        if depth > MAX_NESTING and ast.children(node):
            raise SgsError([_located(path, lines, node.span, _TOO_DEEP, _nesting_hint(node))])


def _nesting_hint(node: object) -> str:
    if isinstance(node, ast.Arith):
        return "each + - * / of a chain is one level: add it up in steps with `let`"
    if isinstance(node, ast.If):
        return "a long `else if` chain or deep `if`s: split it, or test with `let` variables first"
    return "move part of it into a `let` variable, or split the block"


# ---------------------------------------------------------------- syntax errors

@attrs.define
class _Problem:
    """A syntax error as it is being worded: where, what, what was expected, a hint."""

    line: int
    column: int
    source: str
    words: str
    width: int = 1
    message: str = ""
    hint: str = ""


def _syntax_diagnostic(error: lark.exceptions.UnexpectedInput, path: str, lines: tuple[str, ...],
                       grammar_file: str = "sgs.lark") -> Diagnostic:
    line = getattr(error, "line", 1) or 1
    column = getattr(error, "column", 1) or 1
    if line < 0:  # unexpected end of input
        line = max(1, len(lines))
        column = len(lines[-1]) + 1 if lines else 1
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    expected = sorted(getattr(error, "expected", None) or getattr(error, "allowed", None) or ())
    p = _Problem(line, column, source, _expected_words(expected, grammar_file))
    if isinstance(error, lark.exceptions.UnexpectedToken):
        _token_problem(p, error.token, expected, lines, grammar_file)
    elif isinstance(error, lark.exceptions.UnexpectedCharacters):
        _char_problem(p, expected)
    else:
        p.message = "unexpected end of the file"
    if p.words:
        p.message += f"; expected {p.words}"
    if not p.hint and "SEMICOLON" in expected:
        p.hint = "statements and properties end with ';'"
    return Diagnostic(Span(path, p.line, p.column, p.column + p.width), p.message, p.hint, p.source)


def _token_problem(p: _Problem, token: Token, expected: list[str], lines: tuple[str, ...], grammar_file: str) -> None:
    line, column, source = p.line, p.column, p.source
    at_end = token.type == "$END"
    found = "end of the file" if at_end else f"'{_short(str(token))}'"
    p.message = f"unexpected {found}"
    p.width = 1 if at_end else len(str(token))
    keywords = [k for k in (_keyword_of(e, grammar_file) for e in expected) if k]
    if token.type == "NAME" and keywords:
        p.hint = did_you_mean(str(token), keywords)
    before = _previous_word(lines, line, column)
    top = _TOP_LEVEL[grammar_file].match(source)
    opened = _unclosed_brace(lines[: line - 1]) if top and not at_end else None
    if opened is not None:
        # `card B ...` read as a property of card A: A's '}' is missing
        p.message = (f"a new `{top.group(1)}` starts here, but the '{{' at line {opened[0]}, "
                     f"column {opened[1]} is not closed yet")
        p.column, p.width, p.words = 1, len(top.group(1)), ""
        p.hint = "add the missing '}' before this line"
    elif at_end and "RBRACE" in expected:
        p.message = "the file ends inside a block: missing '}'"
        opened = _unclosed_brace(lines)
        if opened is not None:
            p.message = f"this '{{' is never closed: the file ends before its '}}' (line {line})"
            p.line, p.column = opened
            p.source = lines[p.line - 1]
            p.hint = "add the missing '}' (check the blocks inside this one too)"
        p.words = ""
    elif "SEMICOLON" in expected and not at_end and (
            (before is not None and before[0] < line) or _semicolon_line_above(lines, line, column)):
        # the ';' is missing at the end of an earlier line: point there, not at the next line
        if before[0] == line:  # `use play: self` + `effect {` read as one target spec "self effect"
            prefix = source[: column - 1]
            before = _previous_word(lines, line, len(prefix) - len(prefix.lstrip()) + 1) or before
            found = f"'{_short(prefix.strip())}'"
        p.message = f"missing ';' at the end of the line (line {line} goes on with {found})"
        p.words = ""
        p.line, p.column, p.width = before[0], before[1] + 1, 1
        p.source = lines[p.line - 1]
        p.hint = "statements and properties end with ';'"
    elif token.type == "RBRACE" and _unmatched_close(lines, line, column):
        p.hint = "this '}' closes nothing: there is one '}' more than '{' above it"
    elif token.type == "SUIT" and "FACE" in expected:
        p.message = f"a card face needs a rank right after the suit, found '{token}' alone"
        p.words = ""
        p.hint = "write the suit and the rank with no space between: ♠7, ♥A, ♦10, ♣K"
    elif not p.hint and before is not None and before[2]:
        _misspelt_keyword(p, found, before, grammar_file)


# The words that start a definition, by grammar: one at the start of a line inside an open
# block means the block's '}' is missing.
_TOP_LEVEL = {"sgs.lark": re.compile(r"(card|skill|hero|general|deck|ruleset|procedure|define)\s"), "ruling.lark": re.compile(r"(ruling)\s")}


def _misspelt_keyword(p: _Problem, found: str, before: tuple[int, int, str], grammar_file: str) -> None:
    """`lett x = 1;`, `iff cond {`: the word before the unexpected token is a misspelt keyword."""
    word = before[2]
    known = _keywords(grammar_file)
    near = difflib.get_close_matches(word, known, n=1, cutoff=0.75) if len(word) <= LONGEST_NAME else []
    if near and word not in known:
        p.hint = f"'{word}' is not a keyword; did you mean '{near[0]}'?"
        if before[0] == p.line:
            p.message = f"unexpected {found} after '{word}'"
            start = before[1] - len(word) + 1
            p.width = p.column + p.width - start
            p.column = start


def _char_problem(p: _Problem, expected: list[str]) -> None:
    char = p.source[p.column - 1] if 0 < p.column <= len(p.source) else ""
    p.message = f"unexpected character {char!r}" if char else "unexpected character"
    ascii_char = _ascii_for(char)
    if char == '"':
        p.message = "a quoted text is not closed on this line"
        p.hint = "a quoted text starts and ends with '\"' on the same line"
        p.words = ""
    elif char and char in "♠♥♣♦" and "FACE" in expected:
        p.message = f"bad card face starting with {char!r}"
        p.hint = "a card face is a suit and a rank: ♠7, ♥A, ♦10, ♣K"
        p.words = ""
    elif ascii_char == " ":
        p.hint = f"a full-width space (U+{ord(char):04X}): use an ASCII space"
    elif ascii_char:
        p.hint = f"full-width '{char}' (U+{ord(char):04X}): use the ASCII '{ascii_char}'"


# Characters an input method types in place of ASCII punctuation, beside the full-width
# forms U+FF01-U+FF5E (which map to ASCII by an offset).
_LOOKALIKES = {"\u3000": " ", "\u3001": ",", "\u3002": ".", "\u201c": '"', "\u201d": '"'}


def _ascii_for(char: str) -> str:
    """The ASCII character a full-width or look-alike one stands for, or ''."""
    if len(char) == 1 and 0xFF01 <= ord(char) <= 0xFF5E:
        return chr(ord(char) - 0xFEE0)
    return _LOOKALIKES.get(char, "")


def _short(text: str) -> str:
    return text if len(text) <= LONGEST_NAME else text[:LONGEST_NAME] + "..."


_CODE = re.compile(r'("[^"\n]*")|#.*')
_BRACES = re.compile(r"[{}]")
_DIGITS = re.compile(r"\d*")
_WORD_END = re.compile(r"\w*")


def _strip_comment(text: str) -> str:
    return _CODE.sub(lambda m: m.group(1) or "", text).rstrip()


def _code(text: str) -> str:
    """A line with its quoted texts blanked out and its comment removed (columns kept)."""
    return _CODE.sub(lambda m: " " * len(m.group(0)) if m.group(1) else "", text)


def _previous_word(lines: tuple[str, ...], line: int, column: int) -> tuple[int, int, str] | None:
    """(line, column of its last character, the word or '') of the text just before a position."""
    for number in range(min(line, len(lines)), 0, -1):
        text = lines[number - 1][: column - 1] if number == line else lines[number - 1]
        code = _strip_comment(text)
        if code:
            return number, len(code), _last_word(code)
    return None


def _last_word(code: str) -> str:
    """The name (a word not starting with a digit) the text ends with, or '': read from the end,
    in linear time (a `$`-anchored search is quadratic on a long word)."""
    tail = _WORD_END.match(code[::-1]).group(0)[::-1]
    return tail[_DIGITS.match(tail).end():]


def _semicolon_line_above(lines: tuple[str, ...], line: int, column: int) -> bool:
    """The unexpected token follows one word at the start of its line, and the line above ends
    like a statement missing its ';' (a word, a number, ')' or a quoted text)."""
    prefix = _strip_comment(lines[line - 1][: column - 1]) if 0 < line <= len(lines) else ""
    if not re.fullmatch(r"\s*[^\W\d]\w*", prefix):
        return False
    above = _previous_word(lines, line, len(prefix) - len(prefix.lstrip()) + 1)
    if above is None or above[0] >= line:
        return False
    last = _strip_comment(lines[above[0] - 1])[-1:]
    return bool(re.fullmatch(r'[\w)"]', last))


def _unclosed_brace(lines: tuple[str, ...]) -> tuple[int, int] | None:
    """Where the innermost '{' that is never closed was opened."""
    stack: list[tuple[int, int]] = []
    for number, text in enumerate(lines, 1):
        for m in _BRACES.finditer(_code(text)):
            if m.group(0) == "{":
                stack.append((number, m.start() + 1))
            elif stack:
                stack.pop()
    return stack[-1] if stack else None


def _unmatched_close(lines: tuple[str, ...], line: int, column: int) -> bool:
    """The '}' at (line, column) has no '{' to close."""
    depth = 0
    for number, text in enumerate(lines[:line], 1):
        code = _code(text)
        if number == line:
            code = code[:column - 1]
        depth += code.count("{") - code.count("}")
    return depth <= 0


@functools.lru_cache(maxsize=4)
def _terminal_words(grammar_file: str) -> dict[str, str]:
    """Every terminal of a grammar as a reader sees it: a word, or its text in quotes."""
    words = {}
    for t in parser(grammar_file).terminals:
        literal = f"'{t.pattern.value}'" if t.pattern.type == "str" else t.name.lower()
        words[t.name] = _TERMINAL_WORDS.get(t.name, literal)
    return words | {"$END": _TERMINAL_WORDS["$END"]}


def _keyword_of(terminal: str, grammar_file: str) -> str:
    """The keyword a terminal stands for ('card' for CARD), or '' for names and punctuation."""
    for t in parser(grammar_file).terminals:
        if t.name == terminal and t.pattern.type == "str" and t.pattern.value.isidentifier():
            return t.pattern.value
    return ""


@functools.lru_cache(maxsize=4)
def _keywords(grammar_file: str = "sgs.lark") -> tuple[str, ...]:
    return tuple(t.pattern.value for t in parser(grammar_file).terminals
                 if t.pattern.type == "str" and t.pattern.value.isidentifier())


def _expected_words(expected: list[str], grammar_file: str = "sgs.lark") -> str:
    known = _terminal_words(grammar_file)
    words = sorted(dict.fromkeys(known.get(name, _short(name)) for name in expected))
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


def _span(path: str, meta_or_token) -> Span:
    if isinstance(meta_or_token, Token):
        return Span(path, meta_or_token.line, meta_or_token.column, meta_or_token.end_column or 0)
    meta = meta_or_token
    if getattr(meta, "empty", False):
        return Span(path, 1, 1, 0)
    end = meta.end_column if meta.end_line == meta.line else 0
    return Span(path, meta.line, meta.column, end)


def _text(token: Token | None) -> str:
    return "" if token is None else str(token)[1:-1]


@v_args(meta=True)
class _ToAst(Transformer_NonRecursive):
    """Builds ast nodes; every node keeps the span of its text."""

    def __init__(self, path: str):
        super().__init__()
        self.file = path

    def _s(self, x) -> Span:
        return _span(self.file, x)

    def _name(self, token: Token | ast.Name) -> ast.Name:
        if isinstance(token, ast.Name):  # already one: a qualified name (standard.殺)
            return token
        return ast.Name(str(token), self._s(token))

    # ---- top level
    def start(self, meta, items):
        return items

    def card_def(self, meta, c):
        name, ident, kind, text, *members = c
        return ast.CardDef(self._name(name), self._name(ident), self._name(kind), _text(text),
                           tuple(members), self._s(meta))

    def skill_def(self, meta, c):
        name, ident, tags, text, *members = c
        return ast.SkillDef(self._name(name), self._name(ident), tags, _text(text), tuple(members), self._s(meta))

    def hero_def(self, meta, c):
        name, ident, text, *props = c
        return ast.HeroDef(self._name(name), self._name(ident), _text(text), tuple(props), self._s(meta))

    def general_def(self, meta, c):
        name, ident, text, *props = c
        return ast.HeroDef(self._name(name), self._name(ident), _text(text), tuple(props), self._s(meta), True)

    def deck_def(self, meta, c):
        name, title, *lines = c
        return ast.DeckDef(self._name(name), _text(title), tuple(lines), self._s(meta))

    def ruleset_def(self, meta, c):
        name, tags, title, *props = c
        return ast.RulesetDef(self._name(name), tags, _text(title), tuple(props), self._s(meta))

    def tags(self, meta, c):
        return tuple(self._name(t) for t in c)

    def deck_line(self, meta, c):
        card, *faces = c
        return ast.DeckLine(self._name(card), tuple(
            ast.Face(SUITS[str(f)[0]], str(f)[1:], self._s(f)) for f in faces), self._s(meta))

    def prop(self, meta, c):
        name, *values = c
        return ast.Prop(self._name(name), tuple(self._value(v) for v in values), self._s(meta))

    def qualified(self, meta, c):
        package, name = c
        return ast.Name(f"{package}.{name}", self._s(meta))

    def signed(self, meta, c):
        sign, number = c
        value = int(number) * (-1 if str(sign) == "-" else 1)
        return ast.Int(value, self._s(meta))

    def _value(self, v):
        if isinstance(v, (ast.Int, ast.Name)):
            return v
        if v.type == "INT":
            return ast.Int(int(v), self._s(v))
        if v.type == "STRING":
            return ast.Str(_text(v), self._s(v))
        return self._name(v)

    # ---- members
    def use_clause(self, meta, c):
        context, target = c
        return ast.UseClause(self._name(context), target, self._s(meta))

    def choose_clause(self, meta, c):
        var, title, target = c
        return ast.ChooseClause(self._name(var), _text(title) or str(var), target, self._s(meta))

    def target_spec(self, meta, c):
        first, second, cond = c
        words = (self._name(first),) + ((self._name(second),) if second is not None else ())
        return ast.TargetSpec(words, cond, self._s(meta))

    def block(self, meta, c):
        name, *body = c
        return ast.Block(self._name(name), tuple(body), self._s(meta))

    def trigger(self, meta, c):
        n = next(i for i, x in enumerate(c) if not isinstance(x, Token))  # the windows, then the tags
        windows, (tags, by, cond, *body) = [self._name(w) for w in c[:n]], c[n:]
        return ast.Trigger(windows[0], tags, cond, tuple(body), self._s(meta), tuple(windows[1:]), by)

    def by(self, meta, c):
        return c[0]

    # ---- procedures and definitions
    def procedure_def(self, meta, c):
        name, params, *body = c
        return ast.ProcedureDef(self._name(name), params or (), tuple(body), self._s(meta))

    def define_def(self, meta, c):
        name, params, returns, value = c
        return ast.DefineDef(self._name(name), params or (), self._name(returns), value, self._s(meta))

    def params(self, meta, c):
        return tuple(c)

    def param(self, meta, c):
        return ast.Param(self._name(c[0]), self._name(c[1]), self._s(meta))

    def modifier(self, meta, c):
        name, pattern, op, value, where, subject, cond = c
        return ast.Modifier(self._name(name), pattern, str(op), value, cond, self._s(meta),
                            self._name(subject) if subject is not None else None, where)

    def view_as(self, meta, c):
        card, declared, count, pattern, zone, face_down, how, prop, modes, cond = c
        across = (self._name(how), self._name(prop)) if how is not None else None
        return ast.ViewAs(self._name(card), int(count), pattern,
                          self._name(zone) if zone is not None else None,
                          modes or (), cond, self._s(meta), across, declared, face_down is not None)

    def view_modes(self, meta, c):
        return tuple(self._name(t) for t in c)

    def attach(self, meta, c):
        subject, tags, cond, *body = c
        return ast.Attach(self._name(subject), tags, cond, tuple(body), self._s(meta))

    def active(self, meta, c):
        tags, cond, *body = c
        return ast.Active(tags, cond, tuple(body), self._s(meta))

    def forbid(self, meta, c):
        kind, pattern, subject, cond = c  # the subject
        return ast.Forbid(self._name(kind), pattern, cond, self._s(meta),
                          self._name(subject) if subject is not None else None)

    def state_decl(self, meta, c):
        name, type_, until = c
        return ast.StateDecl(self._name(name), self._name(type_),
                             self._name(until) if until is not None else None, self._s(meta))

    def filter_skill(self, meta, c):
        pattern, target, cond = c
        return ast.FilterSkill(pattern, target, cond, self._s(meta))

    def equipped(self, meta, c):
        return ast.Equipped(self._name(c[0]), self._s(meta))

    def list_(self, meta, c):
        return ast.ListLit(tuple(i for i in c if i is not None), self._s(meta))

    def filter(self, meta, c):
        var, items, cond = c
        return ast.Filter(self._name(var), items, cond, self._s(meta))

    # ---- statements
    def call_stmt(self, meta, c):
        name, args = c
        call = self._call(meta, name, args)
        span = self._s(meta)
        if span.end_column > span.column:  # the call itself ends before the ';'
            call = attrs.evolve(call, span=attrs.evolve(span, end_column=span.end_column - 1))
        return ast.CallStmt(call, span)

    def let_stmt(self, meta, c):
        name, value = c
        return ast.Let(self._name(name), value, self._s(meta))

    def set_stmt(self, meta, c):
        path, op, value = c
        return ast.Set(path, str(op), value, self._s(meta))

    def path(self, meta, c):
        return tuple(self._name(t) for t in c)

    def if_stmt(self, meta, c):
        cond, *rest = c
        orelse = rest.pop() if rest and (rest[-1] is None or isinstance(rest[-1], tuple)) else ()
        return ast.If(cond, tuple(rest), orelse or (), self._s(meta))

    def else_part(self, meta, c):
        return tuple(c)

    def for_stmt(self, meta, c):
        var, items, *body = c
        return ast.For(self._name(var), items, tuple(body), self._s(meta))

    def repeat_stmt(self, meta, c):
        count, *body = c
        return ast.Repeat(count, tuple(body), self._s(meta))

    def loop_stmt(self, meta, c):
        return ast.Loop(tuple(c), self._s(meta))

    def break_stmt(self, meta, c):
        return ast.Break(self._s(meta))

    def stop_stmt(self, meta, c):
        return ast.Stop(self._s(meta))

    # ---- expressions
    def _call(self, meta, name, args):
        positional, keywords = [], []
        for a in args or ():
            if isinstance(a, tuple):
                keywords.append(a)
            else:
                positional.append(a)
        return ast.Call(self._name(name), tuple(positional), tuple(keywords), self._s(meta))

    def args(self, meta, c):
        return list(c)

    def kwarg(self, meta, c):
        name, value = c
        return (self._name(name), value)

    def call(self, meta, c):
        name, args = c
        return self._call(meta, name, args)

    def _chain(self, meta, c, op):
        return c[0] if len(c) == 1 else ast.Logic(op, tuple(c), self._s(meta))

    def or_(self, meta, c):
        return self._chain(meta, c, "or")

    def and_(self, meta, c):
        return self._chain(meta, c, "and")

    def not_(self, meta, c):
        return ast.Not(c[0], self._s(meta))

    def compare(self, meta, c):
        if len(c) == 1:
            return c[0]
        left, op, right = c
        return ast.Compare(str(op), left, right, self._s(meta))

    def is_(self, meta, c):
        return ast.Is(c[0], c[1], False, self._s(meta))

    def is_not(self, meta, c):
        return ast.Is(c[0], c[1], True, self._s(meta))

    def arith(self, meta, c):
        node = c[0]
        for i in range(1, len(c), 2):
            node = ast.Arith(str(c[i]), node, c[i + 1], self._s(meta))
        return node

    def neg(self, meta, c):
        return ast.Neg(c[0], self._s(meta))

    def cond_expr(self, meta, c):
        return ast.Cond(c[0], c[1], c[2], self._s(meta))

    def index(self, meta, c):
        return ast.Index(c[0], c[1], self._s(meta))

    def binder(self, meta, c):
        return ast.Binder(self._name(c[0]), c[1], self._s(meta))

    def int_(self, meta, c):
        return ast.Int(int(c[0]), self._s(c[0]))

    def string(self, meta, c):
        return ast.Str(_text(c[0]), self._s(c[0]))

    def suit(self, meta, c):
        return ast.SuitLit(SUITS[str(c[0])], self._s(c[0]))

    def var(self, meta, c):
        return ast.Var(str(c[0]), self._s(c[0]))

    def field(self, meta, c):
        obj, name = c
        return ast.Field(obj, str(name), self._s(name))

    # ---- patterns
    def pattern(self, meta, c):
        return ast.Pattern(tuple(c), self._s(meta))

    def pat_term(self, meta, c):
        return tuple(c)

    def pat_name(self, meta, c):
        name = c[0]
        if isinstance(name, ast.Name):  # standard.殺: a card with its package
            return ast.PatAtom("name", name.text, name.span)
        return ast.PatAtom("name", str(name), self._s(name))

    def pat_suit(self, meta, c):
        return ast.PatAtom("suit", SUITS[str(c[0])], self._s(c[0]))
