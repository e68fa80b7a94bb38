"""`sgs fmt`: one canonical layout for .sgs and .ruling text, comments kept.

The layout is a function of the tokens, the comments and where blank lines stand, never of
the other spaces and line breaks of the input (docs/editor.md, "Formatter"):

- two spaces of indent per block; `{` ends the line that opens a block, `}` stands on a line
  of its own at the block's indent, followed on that line by `else` when there is one;
- one definition, member, statement, deck line or ruling entry per line;
- one space between tokens, none before `;` `,` `)` `]` `:` and `.`, none after `(` `[` `.`
  and a unary minus, none around the `|` of a card pattern or the `/` of a ruling's hp, none
  before the `(` of a call and the `[` of an index;
- a block whose body is one simple statement (no block inside) is written on one line when
  that line fits in `ONE_LINE_WIDTH` columns (wide characters count two) and the block holds
  no comment: `effect { draw(target, 2); }`; an `if` with an `else` never is;
- blank lines between items are kept, at most one, none just inside `{` or before `}`;
- a comment on a line of its own stays on a line of its own, at the indent of what follows
  it; a comment after code stays after that code, two spaces after it, and the trailing
  comments of consecutive lines at the same indent start in one column.

The formatter changes nothing but spaces and line breaks: the formatted text has the same
tokens as the original (checked on every run), hence the same parse tree and meaning.
"""

from __future__ import annotations

import functools
import os
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import overload

import lark
from lark import Token, Tree

from ..resources import data_dir
from ..syntax.diagnostics import Diagnostic, SgsError, Span
from ..syntax.parser import parse, parse_tree
from ..syntax.source import clean_text, decode_source, read_bytes

#: The widest line (in display columns, wide characters two) a one-statement block is
#: joined into; wider ones keep the statement on a line of its own.
ONE_LINE_WIDTH = 80
INDENT = 2
#: A ruling's card list of more cards than this (a pile, not a hand) is written in rows.
LONG_CARD_LIST = 20
CARDS_PER_ROW = 10
#: Extra indent of a line that continues an item broken by a comment inside it.
CONTINUATION = 4

#: The grammar of each kind of file, by suffix.
GRAMMARS = {".sgs": "sgs.lark", ".ruling": "ruling.lark"}
#: The blocks that stand on one line when it fits: those of one simple statement or member.
_ONE_LINE_RULES = frozenset({"block", "trigger", "active", "attach", "procedure_def", "if_stmt", "for_stmt",
                             "repeat_stmt", "loop_stmt", "card_def"})
#: The definitions that always stand on one line, as rows of a table: heroes and generals.
_ROW_RULES = frozenset({"hero_def", "general_def"})


class FormatterBug(RuntimeError):
    """The formatted text would not mean what the original meant: nothing is written."""


@functools.lru_cache(maxsize=2)
def _parser(grammar_file: str) -> lark.Lark:
    """The grammar's parser keeping every token (keywords and punctuation too) in the tree."""
    grammar = (data_dir("grammar") / grammar_file).read_text(encoding="utf-8")
    return lark.Lark(grammar, parser="lalr", strict=True, keep_all_tokens=True)


@dataclass(frozen=True)
class _Comment:
    line: int
    column: int
    text: str
    after: tuple[int, int] | None  # where the last token before it on its line starts (a trailing comment)


@dataclass
class _Line:
    indent: int
    code: str
    comment: str | None = None


@overload
def _tokens(tree: Tree[Token]) -> Iterator[tuple[Token, str]]: ...
@overload
def _tokens(tree: Tree[Token], expand: Callable[[Tree[Token]], bool]) -> Iterator[tuple[Token, str] | Tree[Token]]: ...
def _tokens(tree: Tree[Token], expand: Callable[[Tree[Token]], bool] | None = None) -> Iterator[tuple[Token, str] | Tree[Token]]:
    """The tokens under a tree in source order, each with the rule it is a child of
    (iterative: expressions may nest deeper than Python's recursion limit); the subtrees
    for which `expand` is true are given whole instead of their tokens."""
    stack: list[tuple[Tree[Token], int]] = [(tree, 0)]
    while stack:
        node, i = stack.pop()
        if i >= len(node.children):
            continue
        stack.append((node, i + 1))
        child = node.children[i]
        if isinstance(child, Token):
            yield child, str(node.data)
        elif isinstance(child, Tree):
            if expand is not None and expand(child):
                yield child
            else:
                stack.append((child, 0))


def _is_long_card_list(tree: Tree[Token]) -> bool:
    return tree.data == "cards" and sum(isinstance(c, Tree) for c in tree.children) > LONG_CARD_LIST


def _comments(text: str, tokens: Sequence[Token]) -> list[_Comment]:
    """The comments of a text: whatever the lexer skipped that is not white space."""
    found = []
    for number, line in enumerate(text.split("\n"), 1):
        if "#" not in line:
            continue
        on_line = _line_tokens(number, tokens)
        last = on_line[-1] if on_line else None
        at = line.find("#", (last.end_column or 1) - 1 if last is not None else 0)
        if at >= 0:
            after = None if last is None else (last.line or 0, last.column or 0)
            found.append(_Comment(number, at + 1, line[at:].rstrip(), after))
    return found


def _line_tokens(number: int, tokens: Sequence[Token]) -> list[Token]:
    # tokens are sorted by line: a binary search for the first on that line
    lo, hi = 0, len(tokens)
    while lo < hi:
        mid = (lo + hi) // 2
        if (tokens[mid].line or 0) < number:
            lo = mid + 1
        else:
            hi = mid
    out = []
    while lo < len(tokens) and tokens[lo].line == number:
        out.append(tokens[lo])
        lo += 1
    return out


def display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _space(prev: tuple[Token, str], tok: tuple[Token, str]) -> str:
    """The space between two tokens on one line."""
    (p, p_rule), (t, t_rule) = prev, tok
    if t in (";", ",", ")", "]", ":") or t.type == "DOT" or p.type == "DOT" or p in ("(", "["):
        return ""
    if p == "{" and t == "}":
        return ""
    if t == "(" and t_rule != "atom":  # a call, and the pattern of limit(殺), target(殺|決鬥)
        return ""
    if t == "[" and t_rule == "index":
        return ""
    if "|" in (p, t) and "pattern" in (p_rule, t_rule):
        return ""
    if (t == "/" and t_rule == "hp") or (p == "/" and p_rule == "hp"):
        return ""
    if (p == "-" and p_rule == "neg") or p.type == "SIGN":
        return ""
    return " "


class _Printer:
    """Lays out one parse tree (every token kept) with its comments."""

    def __init__(self, comments: list[_Comment]):
        self.lines: list[_Line | None] = []  # None: a blank line
        self.comments = comments
        self.next_comment = 0
        self.indent = 0  # of the current line
        self.item_indent = 0  # of the item being written
        self.parts: list[str] = []
        self.comment: str | None = None
        self.prev: tuple[Token, str] | None = None
        self.at_boundary = True  # the next element starts an item (or a comment between items)
        self.fresh = True  # just inside `{` or at the top of the file: no blank line
        self.closing = False  # the next token is a block's `}`: no blank line
        self.last_line = 0  # the source line of the last element written
        self.last_token: Token | None = None

    # ---- lines
    def finish(self) -> None:
        """End the current line, taking the comment after its last token."""
        if self.parts:
            self._take_trailing()
        if self.parts or self.comment is not None:
            self.lines.append(_Line(self.indent, "".join(self.parts), self.comment))
        self.parts, self.comment, self.prev = [], None, None

    def _take_trailing(self) -> None:
        while self.next_comment < len(self.comments):
            c = self.comments[self.next_comment]
            last = self.last_token
            if last is None or c.after != (last.line, last.column):
                return
            self.next_comment += 1
            self._trailing(c)

    def _trailing(self, c: _Comment) -> None:
        if self.comment is not None:
            self.lines.append(_Line(self.indent, "".join(self.parts), self.comment))
            self.parts, self.comment, self.prev = [], None, None
        self.comment = c.text
        self.last_line = c.line

    def boundary(self, indent: int) -> None:
        """The next element starts a new item at `indent`."""
        self.finish()
        self.indent = self.item_indent = indent
        self.at_boundary = True

    def _blank_before(self, line: int) -> None:
        if self.at_boundary and not self.fresh and not self.closing and line - self.last_line >= 2:
            self.lines.append(None)

    # ---- comments
    def comments_before(self, line: int, column: int) -> None:
        while self.next_comment < len(self.comments):
            c = self.comments[self.next_comment]
            if (c.line, c.column) > (line, column):
                return
            self.next_comment += 1
            if c.after is not None and self.parts:
                self._trailing(c)
                continue
            if self.at_boundary:
                self.finish()
                self._blank_before(c.line)
                self.lines.append(_Line(self.indent, c.text))
                self.fresh = False
            else:  # inside an item: the item goes on, on continuation lines
                self.finish()
                self.indent = self.item_indent + CONTINUATION
                self.lines.append(_Line(self.indent, c.text))
            self.last_line = c.line

    # ---- tokens
    def token(self, tok: tuple[Token, str]) -> None:
        t = tok[0]
        self.comments_before(t.line or 0, t.column or 0)
        if self.at_boundary:
            self.finish()
            self._blank_before(t.line or 0)
            self.at_boundary = self.fresh = self.closing = False
        elif self.comment is not None:  # a comment ended the line inside an item
            self.finish()
            self.indent = self.item_indent + CONTINUATION
        if self.parts and self.prev is not None:
            self.parts.append(_space(self.prev, tok))
        self.parts.append(str(t))
        self.prev = tok
        self.last_token = t
        self.last_line = t.end_line or t.line or 0

    def item(self, tree: Tree[Token], indent: int, parent: str = "") -> None:
        self.boundary(indent)
        self.node(tree, indent, parent)

    def node(self, tree: Tree[Token], indent: int, parent: str = "") -> None:
        kids = [c for c in tree.children if c is not None]
        opening = next((i for i, c in enumerate(kids) if isinstance(c, Token) and c.type == "LBRACE"), None)
        if opening is None:
            for c in kids:
                if isinstance(c, Tree) and _has_block(c):
                    self.node(c, indent, str(tree.data))  # `else if ... {`
                else:
                    self.inline(c, str(tree.data))
            return
        closing = max(i for i, c in enumerate(kids) if isinstance(c, Token) and c.type == "RBRACE")
        body = kids[opening + 1:closing]
        if self._one_line(tree, kids, opening, closing, indent, parent):
            for c in kids:
                self.inline(c, str(tree.data))
            return
        for c in kids[:opening + 1]:
            self.inline(c, str(tree.data))
        self.fresh = True
        for c in body:
            if isinstance(c, Tree):
                self.item(c, indent + INDENT)
            else:
                self.boundary(indent + INDENT)
                self.token((c, str(tree.data)))
        end = kids[closing]
        assert isinstance(end, Token)
        self.boundary(indent + INDENT)
        self.comments_before(end.line or 0, end.column or 0)  # the body's last comments
        self.boundary(indent)
        self.closing = True
        self.token((end, str(tree.data)))
        for c in kids[closing + 1:]:
            if isinstance(c, Tree) and _has_block(c):
                self.node(c, indent, str(tree.data))
            else:
                self.inline(c, str(tree.data))

    def inline(self, child: Token | Tree[Token], rule: str) -> None:
        if isinstance(child, Token):
            self.token((child, rule))
            return
        for tok in _tokens(child, expand=_is_long_card_list):
            if isinstance(tok, Tree):
                self.card_rows(tok)
            else:
                self.token(tok)

    def card_rows(self, cards: Tree[Token]) -> None:
        """A long card list: `[` ends the line, then CARDS_PER_ROW cards a line, then `]`."""
        row = 0
        for tok in _tokens(cards):
            if tok[0] == "]":
                self.finish()
                self.indent = self.item_indent
            self.token(tok)
            if tok[0] == "[" or (tok[0] == "," and (row := row + 1) % CARDS_PER_ROW == 0):
                self.finish()
                self.indent = self.item_indent + INDENT

    def _one_line(self, tree: Tree[Token], kids: list[Token | Tree[Token]], opening: int, closing: int, indent: int,
                  parent: str) -> bool:
        rule = str(tree.data)
        body = kids[opening + 1:closing]
        if not body or rule in _ROW_RULES:  # unless a comment is inside
            pass
        elif rule not in _ONE_LINE_RULES or len(body) != 1 or not isinstance(body[0], Tree) or _has_block(body[0]):
            return False
        if rule == "if_stmt" and (closing + 1 < len(kids) or parent == "else_part"):
            return False
        first = next(_tokens(tree))[0]
        end = kids[closing]
        assert isinstance(end, Token)
        start, stop = (first.line or 0, first.column or 0), (end.line or 0, end.column or 0)
        if any(start < (c.line, c.column) < stop for c in self.comments[self.next_comment:]):
            return False
        if not body or rule in _ROW_RULES:
            return True
        return indent + display_width(_inline_text(list(_tokens(tree)))) <= ONE_LINE_WIDTH


def _has_block(tree: Tree[Token]) -> bool:
    return any(t.type == "LBRACE" for t in tree.scan_values(lambda v: isinstance(v, Token)))


def _inline_text(tokens: Sequence[tuple[Token, str]]) -> str:
    parts: list[str] = []
    for i, tok in enumerate(tokens):
        if i:
            parts.append(_space(tokens[i - 1], tok))
        parts.append(str(tok[0]))
    return "".join(parts)


def _render(lines: list[_Line | None]) -> str:
    """The text of the lines; the trailing comments of consecutive lines at one indent aligned."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line is None:
            out.append("")
            i += 1
            continue
        if line.comment is None or not line.code:
            out.append(" " * line.indent + (line.code or line.comment or ""))
            i += 1
            continue
        j = i
        run: list[_Line] = []
        while j < len(lines):
            other = lines[j]
            if other is None or other.comment is None or not other.code or other.indent != line.indent:
                break
            run.append(other)
            j += 1
        column = max(display_width(r.code) for r in run) + 2
        for r in run:
            out.append(" " * r.indent + r.code + " " * (column - display_width(r.code)) + (r.comment or ""))
        i = j
    return "\n".join(out) + "\n" if out else ""


def grammar_of(path: str | Path) -> str:
    """The grammar file of a path: .ruling files are rulings, anything else .sgs text."""
    return GRAMMARS.get(Path(path).suffix, "sgs.lark")


def format_text(text: str, path: str = "<text>", grammar_file: str | None = None) -> str:
    """The canonical layout of a .sgs or .ruling text; SgsError, located, when it does not parse."""
    grammar_file = grammar_file or grammar_of(path)
    text = clean_text(text)
    if grammar_file == "sgs.lark":
        parse(text, path)  # every check of the front end: syntax, numbers, nesting
    else:
        parse_tree(text, path, grammar_file)
    tree = _parser(grammar_file).parse(text)
    tokens = [t for t, _ in _tokens(tree)]
    printer = _Printer(_comments(text, tokens))
    for child in tree.children:
        if isinstance(child, Tree):
            printer.item(child, 0, "start")
    printer.boundary(0)
    printer.comments_before(len(text.split("\n")) + 1, 0)
    printer.finish()
    result = _render(printer.lines)
    _same_tokens(text, result, tokens, grammar_file, path)
    return result


def _same_tokens(text: str, result: str, tokens: list[Token], grammar_file: str, path: str) -> None:
    try:
        again = [t for t, _ in _tokens(_parser(grammar_file).parse(result))]
    except lark.exceptions.LarkError as error:
        raise FormatterBug(f"{path}: the formatted text does not parse: {error}") from None
    if [(t.type, str(t)) for t in again] != [(t.type, str(t)) for t in tokens]:
        raise FormatterBug(f"{path}: the formatted text has other tokens than the original")
    before = [c.text for c in _comments(text, tokens)]
    after = [c.text for c in _comments(result, again)]
    if before != after:
        raise FormatterBug(f"{path}: the formatted text has other comments than the original")


# ---------------------------------------------------------------- files and the command


def source_files(paths: Sequence[Path]) -> tuple[list[Path], list[Diagnostic]]:
    """The .sgs and .ruling files of some paths (a file as named, a folder searched
    recursively, in sorted order), each once, and the problems of paths that are neither."""
    found: list[Path] = []
    problems: list[Diagnostic] = []
    for p in paths:
        if str(p) == "-":
            problems.append(Diagnostic(Span("-", 0, 0), "'-' (standard input) must be the only path",
                                       "sgs fmt - < file.sgs prints the formatted text"))
        elif not p.exists():
            problems.append(Diagnostic(Span(str(p), 0, 0), f"{p}: no such file or folder"))
        elif p.is_dir():
            for top, dirs, names in os.walk(p):
                dirs.sort()
                found.extend(Path(top, n) for n in sorted(names) if Path(n).suffix in GRAMMARS)
        elif p.suffix in GRAMMARS:
            found.append(p)
        else:
            problems.append(Diagnostic(Span(str(p), 0, 0), f"{p} is not a .sgs or .ruling file",
                                       "sgs fmt formats .sgs and .ruling files, and the folders that hold them"))
    unique: dict[str, Path] = {}
    for f in found:
        unique.setdefault(os.path.realpath(f), f)
    return list(unique.values()), problems


def format_stdin(data: bytes, name: str | None) -> str:
    """`sgs fmt -`: the formatted text of standard input, read as the file `name` would be."""
    name = name or "<stdin>"
    return format_text(decode_source(data, name), name)


def format_file(path: Path) -> tuple[str, str]:
    """The text of a file as read (line endings as '\\n') and formatted; SgsError when it
    cannot be read or does not parse."""
    text = decode_source(read_bytes(path), str(path))
    return text, format_text(text, str(path))


def run(paths: Sequence[Path], check: bool, out: Callable[[str], None], err: Callable[[str], None]) -> int:
    """`sgs fmt [--check] PATHS`: the exit status (0 all formatted, 1 a file changed under
    --check or one that does not parse or cannot be read)."""
    files, problems = source_files(paths)
    for d in problems:
        err(d.render())
    changed = failed = 0
    for path in files:
        try:
            _, after = format_file(path)
            raw = path.read_bytes()
        except SgsError as error:
            err(error.render())
            failed += 1
            continue
        if raw == after.encode("utf-8"):
            continue
        changed += 1
        if check:
            out(f"would reformat {path}")
        else:
            path.write_bytes(after.encode("utf-8"))
            out(f"reformatted {path}")
    failed += len(problems)
    verb = "would change" if check else "changed"
    summary = f"{len(files)} file{'s' * (len(files) != 1)}, {changed} {verb}"
    if failed:
        err(f"{summary}, {failed} with errors")
        return 1
    if check and changed:
        err(f"{summary}: run `sgs fmt` on {'it' if changed == 1 else 'them'}")
        return 1
    out(f"ok: {summary}")
    return 0
