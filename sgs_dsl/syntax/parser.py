"""Text -> AST: the lark LALR parser and a transformer into frozen nodes with spans."""

from __future__ import annotations

import difflib
import functools
import re

import attrs
import lark
from lark import Token, Transformer, v_args

from ..resources import data_dir
from . import ast
from .diagnostics import Diagnostic, SgsError, Span, did_you_mean

SUITS = {"♠": "spade", "♥": "heart", "♣": "club", "♦": "diamond"}

# How terminals are named in "expected ..." messages.
_TERMINAL_WORDS = {
    "NAME": "a name", "INT": "a number", "STRING": "a quoted text", "FACE": "a card face like ♠7",
    "SUIT": "a suit (♠ ♥ ♣ ♦)", "SEMICOLON": "';'", "LBRACE": "'{'", "RBRACE": "'}'",
    "LPAR": "'('", "RPAR": "')'", "COLON": "':'", "COMMA": "','", "DOT": "'.'", "ASSIGNOP": "'=', '+=' or '-='",
    "COMPOP": "a comparison", "ADDOP": "'+' or '-'", "MULOP": "'*' or '/'", "SIGN": "'+' or '-'",
    "VBAR": "'|'", "EQUAL": "'='", "MINUS": "'-'", "$END": "the end of the file",
}


@functools.lru_cache(maxsize=4)
def parser(grammar_file: str = "sgs.lark") -> lark.Lark:
    grammar = (data_dir("grammar") / grammar_file).read_text(encoding="utf-8")
    return lark.Lark(grammar, parser="lalr", strict=True, propagate_positions=True, maybe_placeholders=True)


def source_lines(text: str) -> tuple[str, ...]:
    """Lines as the lexer counts them: only '\\n' ends a line (not '\\f', '\\v' or U+2028)."""
    lines = tuple(line.removesuffix("\r") for line in text.split("\n"))
    return lines[:-1] if text.endswith("\n") else lines


def parse_tree(text: str, path: str, grammar_file: str = "sgs.lark") -> lark.Tree:
    """The parse tree of a text in one of the grammars; SgsError on bad syntax."""
    try:
        return parser(grammar_file).parse(text)
    except lark.exceptions.UnexpectedInput as error:
        raise SgsError([_syntax_diagnostic(error, path, source_lines(text))]) from None


def parse(text: str, path: str = "<text>") -> ast.Module:
    """Parse one .sgs file; raise SgsError with a located, readable message on bad syntax."""
    tree = parse_tree(text, path)
    definitions = _ToAst(path).transform(tree)
    return ast.Module(path=path, definitions=tuple(definitions), lines=source_lines(text))


def _syntax_diagnostic(error: lark.exceptions.UnexpectedInput, path: str, lines: tuple[str, ...]) -> Diagnostic:
    line = getattr(error, "line", 1) or 1
    column = getattr(error, "column", 1) or 1
    if line < 0:  # unexpected end of input
        line = max(1, len(lines))
        column = len(lines[-1]) + 1 if lines else 1
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    expected = sorted(getattr(error, "expected", None) or getattr(error, "allowed", None) or ())
    words = _expected_words(expected)
    hint = ""
    if isinstance(error, lark.exceptions.UnexpectedToken):
        token = error.token
        at_end = token.type == "$END"
        found = "end of the file" if at_end else f"'{token}'"
        message = f"unexpected {found}"
        width = 1 if at_end else len(str(token))
        keywords = [e.strip('"').lower() for e in expected if e.isupper() and e not in _TERMINAL_WORDS]
        if token.type == "NAME" and keywords:
            hint = did_you_mean(str(token), keywords)
        before = _previous_word(lines, line, column)
        top = re.match(r"(card|skill|hero|deck|ruleset)\s", source)
        opened = _unclosed_brace(lines[: line - 1]) if top and not at_end else None
        if opened is not None:
            # `card B ...` read as a property of card A: A's '}' is missing
            message = (f"a new `{top.group(1)}` starts here, but the '{{' at line {opened[0]}, "
                       f"column {opened[1]} is not closed yet")
            line, column, width, words = line, 1, len(top.group(1)), ""
            hint = "add the missing '}' before this line"
        elif at_end and "RBRACE" in expected:
            message = "the file ends inside a block: missing '}'"
            opened = _unclosed_brace(lines)
            if opened is not None:
                message = f"this '{{' is never closed: the file ends before its '}}' (line {line})"
                line, column, width = opened[0], opened[1], 1
                source = lines[line - 1]
                hint = "add the missing '}' (check the blocks inside this one too)"
            words = ""
        elif "SEMICOLON" in expected and not at_end and (
                (before is not None and before[0] < line) or _semicolon_line_above(lines, line, column)):
            # the ';' is missing at the end of an earlier line: point there, not at the next line
            if before[0] == line:  # `use play: self` + `effect {` read as one target spec "self effect"
                prefix = source[: column - 1]
                before = _previous_word(lines, line, len(prefix) - len(prefix.lstrip()) + 1) or before
                found = f"'{prefix.strip()}'"
            prev_line, prev_end, _ = before
            message = f"missing ';' at the end of the line (line {line} goes on with {found})"
            words = ""
            line, column, width = prev_line, prev_end + 1, 1
            source = lines[line - 1]
            hint = "statements and properties end with ';'"
        elif token.type == "RBRACE" and _unmatched_close(lines, line, column):
            hint = "this '}' closes nothing: there is one '}' more than '{' above it"
        elif token.type == "SUIT" and "FACE" in expected:
            message = f"a card face needs a rank right after the suit, found '{token}' alone"
            words = ""
            hint = "write the suit and the rank with no space between: ♠7, ♥A, ♦10, ♣K"
        elif not hint and before is not None and before[2]:
            # `lett x = 1;`, `iff cond {`: the word before the unexpected token is a misspelt keyword
            near = difflib.get_close_matches(before[2], _keywords(), n=1, cutoff=0.75)
            if near and before[2] not in _keywords():
                hint = f"'{before[2]}' is not a keyword; did you mean '{near[0]}'?"
                if before[0] == line:
                    message = f"unexpected {found} after '{before[2]}'"
                    start = before[1] - len(before[2]) + 1
                    width = column + width - start
                    column = start
    elif isinstance(error, lark.exceptions.UnexpectedCharacters):
        char = source[column - 1] if 0 < column <= len(source) else ""
        message = f"unexpected character {char!r}" if char else "unexpected character"
        width = 1
        if char == '"':
            message = "a quoted text is not closed on this line"
            hint = "a quoted text starts and ends with '\"' on the same line"
            words = ""
        elif char and char in "♠♥♣♦" and "FACE" in expected:
            message = f"bad card face starting with {char!r}"
            hint = "a card face is a suit and a rank: ♠7, ♥A, ♦10, ♣K"
            words = ""
    else:
        message = "unexpected end of the file"
        width = 1
    if words:
        message += f"; expected {words}"
    if not hint and "SEMICOLON" in expected:
        hint = "statements and properties end with ';'"
    return Diagnostic(Span(path, line, column, column + width), message, hint, source)


_CODE = re.compile(r'("[^"\n]*")|#.*')


def _strip_comment(text: str) -> str:
    return _CODE.sub(lambda m: m.group(1) or "", text).rstrip()


def _previous_word(lines: tuple[str, ...], line: int, column: int) -> tuple[int, int, str] | None:
    """(line, column of its last character, the word or '') of the text just before a position."""
    for number in range(min(line, len(lines)), 0, -1):
        text = lines[number - 1][: column - 1] if number == line else lines[number - 1]
        code = _strip_comment(text)
        if code:
            word = re.search(r"[^\W\d]\w*$", code)
            return number, len(code), word.group(0) if word else ""
    return None


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
        code = _CODE.sub(lambda m: " " * len(m.group(0)) if m.group(1) else "", text)
        for col, ch in enumerate(code, 1):
            if ch == "{":
                stack.append((number, col))
            elif ch == "}" and stack:
                stack.pop()
    return stack[-1] if stack else None


def _unmatched_close(lines: tuple[str, ...], line: int, column: int) -> bool:
    """The '}' at (line, column) has no '{' to close."""
    depth = 0
    for number, text in enumerate(lines[:line], 1):
        code = _CODE.sub(lambda m: " " * len(m.group(0)) if m.group(1) else "", text)
        if number == line:
            code = code[:column - 1]
        depth += code.count("{") - code.count("}")
    return depth <= 0


@functools.lru_cache(maxsize=1)
def _keywords() -> tuple[str, ...]:
    return tuple(t.pattern.value for t in parser().terminals
                 if t.pattern.type == "str" and t.pattern.value.isidentifier())


def _expected_words(expected: list[str]) -> str:
    words = []
    for name in expected:
        if name in _TERMINAL_WORDS:
            words.append(_TERMINAL_WORDS[name])
        elif name.isupper():
            words.append(f"'{name.lower()}'")
        else:
            words.append(name)
    words = sorted(dict.fromkeys(words))
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
class _ToAst(Transformer):
    """Builds ast nodes; every node keeps the span of its text."""

    def __init__(self, path: str):
        super().__init__()
        self.file = path

    def _s(self, x) -> Span:
        return _span(self.file, x)

    def _name(self, token: Token) -> ast.Name:
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

    def signed(self, meta, c):
        sign, number = c
        value = int(number) * (-1 if str(sign) == "-" else 1)
        return ast.Int(value, self._s(meta))

    def _value(self, v):
        if isinstance(v, ast.Int):
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
        window, tags, cond, *body = c
        return ast.Trigger(self._name(window), tags, cond, tuple(body), self._s(meta))

    def modifier(self, meta, c):
        name, pattern, op, value, cond = c
        return ast.Modifier(self._name(name), pattern, str(op), value, cond, self._s(meta))

    def view_as(self, meta, c):
        card, count, pattern, zone, mode, cond = c
        return ast.ViewAs(self._name(card), int(count), pattern,
                          self._name(zone) if zone is not None else None,
                          self._name(mode) if mode is not None else None, cond, self._s(meta))

    def active(self, meta, c):
        tags, cond, *body = c
        return ast.Active(tags, cond, tuple(body), self._s(meta))

    def forbid(self, meta, c):
        kind, pattern, cond = c
        return ast.Forbid(self._name(kind), pattern, cond, self._s(meta))

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
        return ast.PatAtom("name", str(c[0]), self._s(c[0]))

    def pat_suit(self, meta, c):
        return ast.PatAtom("suit", SUITS[str(c[0])], self._s(c[0]))
