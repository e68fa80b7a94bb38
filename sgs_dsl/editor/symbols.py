"""An index of what .sgs text defines and where it is named again, read from the parsed
modules (the real parser's syntax trees, no second parser): skills, heroes, generals, cards,
procedures (and definitions), decks, rulesets, piles, marks and states, with their spans."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import attrs

from ..syntax import ast
from ..syntax.diagnostics import Span
from ..syntax.names import normalize

#: a name as the grammar spells it (grammar/sgs.lark NAME), for the word under a cursor
WORD = re.compile(r"[^\W\d]\w*(?:·\w+)*")
#: the calls whose second argument names a mark (`mark(you, "忍", 1)`, `marks(you, "忍")`)
MARK_CALLS = ("mark", "marks")


@attrs.frozen
class Symbol:
    kind: str  # skill / hero / general / card / procedure / deck / ruleset / pile / mark / state
    name: str  # as written
    id: str  # the pinyin id of a skill, card, hero; "" for the rest
    span: Span  # of the name
    start: int  # the lines of the definition (1-based, inclusive), for document symbols
    end: int
    owner: str = ""  # the skill a state or pile belongs to

    @property
    def keys(self) -> tuple[str, ...]:
        return (normalize(self.name),) + ((self.id.lower(),) if self.id else ())


@attrs.frozen
class Ref:
    """A place a name is written: a definition's name or id, or a use of it."""

    key: str  # normalize(text)
    text: str
    span: Span
    definition: int  # the index of the module's top-level definition it is in
    quoted: bool = False  # a mark's name, written as a string


@attrs.define
class ModuleIndex:
    path: str
    symbols: list[Symbol]
    refs: list[Ref]
    ranges: list[tuple[int, int]]  # each top-level definition's first and last line


_KINDS = {ast.SkillDef: "skill", ast.CardDef: "card", ast.DeckDef: "deck", ast.RulesetDef: "ruleset",
          ast.ProcedureDef: "procedure", ast.DefineDef: "procedure"}


def index_module(module: ast.Module) -> ModuleIndex:
    """Every symbol the module defines and every name written in it."""
    symbols: list[Symbol] = []
    refs: list[Ref] = []
    defs = module.definitions
    ranges = []
    for i, d in enumerate(defs):
        end = defs[i + 1].span.line - 1 if i + 1 < len(defs) else len(module.lines)
        ranges.append((d.span.line, max(d.span.line, end)))
    seen_marks: set[str] = set()
    for i, d in enumerate(defs):
        start, end = ranges[i]
        if isinstance(d, ast.HeroDef):
            kind = "general" if d.general else "hero"
        else:
            kind = _KINDS.get(type(d), "")
        ident = getattr(d, "id", None)
        if kind:
            symbols.append(Symbol(kind, d.name.text, ident.text if ident is not None else "", d.name.span, start, end))
        for node in ast.walk(d):
            if isinstance(node, ast.Prop) and node.name.text == "pile" and node.values \
                    and isinstance(node.values[0], ast.Name):
                name = node.values[0]
                symbols.append(Symbol("pile", name.text, "", name.span, node.span.line, node.span.line,
                                      owner=d.name.text))
            elif isinstance(node, ast.StateDecl):
                symbols.append(Symbol("state", node.name.text, "", node.name.span, node.span.line, node.span.line,
                                      owner=d.name.text))
            elif isinstance(node, ast.Call) and node.name.text in MARK_CALLS and len(node.args) >= 2 \
                    and isinstance(node.args[1], ast.Str):
                mark = node.args[1]
                inner = Span(mark.span.file, mark.span.line, mark.span.column + 1, max(mark.span.end_column - 1, 0))
                refs.append(Ref(normalize(mark.value), mark.value, inner, i, quoted=True))
                # a mark is defined where it is first set (`mark`), or else first read
                if node.name.text == "mark" and normalize(mark.value) not in seen_marks:
                    seen_marks.add(normalize(mark.value))
                    symbols.append(Symbol("mark", mark.value, "", inner, node.span.line, node.span.line,
                                          owner=d.name.text))
            text, span = _named(node)
            if text:
                refs.append(Ref(normalize(text), text, span, i))
    return ModuleIndex(module.path, symbols, refs, ranges)


def _named(node: object) -> tuple[str, Span]:
    if isinstance(node, ast.Name):
        return node.text, node.span
    if isinstance(node, ast.Var):
        return node.name, node.span
    if isinstance(node, ast.PatAtom) and node.kind == "name":
        return node.text, node.span
    if isinstance(node, ast.Field):  # `SKILL.STATE`: the field's own name
        return node.name, node.span
    return "", Span("", 0, 0)


@attrs.define
class Index:
    """The symbols and names of a set of modules (by path)."""

    modules: dict[str, ModuleIndex] = attrs.field(factory=dict)

    def symbols(self) -> Iterator[Symbol]:
        for m in self.modules.values():
            yield from m.symbols

    def find(self, word: str, path: str = "", line: int = 0) -> list[Symbol]:
        """The symbols a word names: skills, cards, heroes... by name or id; a state only in its
        own skill (the definition of `path` around `line`), when `path` is given."""
        key = normalize(word)
        found = [s for s in self.symbols() if key in s.keys and s.kind != "state"]
        if path in self.modules:
            owner = self.owner_at(path, line)
            found += [s for s in self.modules[path].symbols
                      if s.kind == "state" and key in s.keys and s.owner == owner]
        if any(s.kind == "mark" for s in found):  # one entry per mark, the first place it is set
            first = next(s for s in found if s.kind == "mark")
            found = [s for s in found if s.kind != "mark" or s is first]
        return found

    def owner_at(self, path: str, line: int) -> str:
        m = self.modules.get(path)
        if m is None:
            return ""
        for s in m.symbols:
            if s.kind in ("skill", "card", "procedure", "hero", "general", "deck", "ruleset") \
                    and s.start <= line <= s.end:
                return s.name
        return ""

    def references(self, symbols: Iterable[Symbol]) -> list[Ref]:
        """Every place one of the symbols is written, its definition included."""
        out: list[Ref] = []
        for sym in symbols:
            keys = set(sym.keys)
            for m in self.modules.values():
                if sym.kind == "state":  # a state is read only in its own skill
                    if m.path != sym.span.file:
                        continue
                    refs = [r for r in m.refs if r.key in keys and m.ranges[r.definition][0] <= sym.start
                            <= m.ranges[r.definition][1]]
                elif sym.kind == "mark":
                    refs = [r for r in m.refs if r.key in keys and r.quoted]
                else:
                    refs = [r for r in m.refs if r.key in keys and not r.quoted]
                out.extend(refs)
        unique: dict[tuple[str, int, int], Ref] = {}
        for r in out:
            unique.setdefault((r.span.file, r.span.line, r.span.column), r)
        return sorted(unique.values(), key=lambda r: (r.span.file, r.span.line, r.span.column))


def word_at(line: str, column: int) -> tuple[str, int, int]:
    """The name under a 0-based column of a line, with its 0-based start and end ('' if none)."""
    for m in WORD.finditer(line):
        if m.start() <= column <= m.end():
            return m.group(), m.start(), m.end()
    return "", column, column
