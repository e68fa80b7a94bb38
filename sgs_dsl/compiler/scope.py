"""Variables visible in a block of text, with their types, and the names a body defines: what
the checker consults while it walks a body (compiler.py and its check modules)."""

from __future__ import annotations

from ..syntax import ast
from ..syntax.diagnostics import Span
from . import soundness


class Scope:
    """Variables visible in a block, with their types."""

    def __init__(self, variables: dict[str, str], parent: Scope | None = None, loop: bool = False):
        self.vars = dict(variables)
        self.parent = parent
        self.loop = loop or (parent.loop if parent else False)
        self.lets: set[str] = set()  # the names a `let` defined here: `set NAME = ...` may change them
        # inside a block's statements (Compiler.block): text may act there. Everywhere else (a
        # condition, a target rule, a modifier's value, a definition) it only reads the table
        self.acting = False
        # `let c = choose_option(p, ["A", "B"])`: the labels c can be (None once `set` changes it)
        self.options: dict[str, tuple[str, ...] | None] = {}
        self.block_body: tuple = ()  # the statements of the block being compiled in this scope

    def options_of(self, name: str) -> tuple[str, ...] | None:
        if name in self.options:
            return self.options[name]
        return self.parent.options_of(name) if self.parent else None

    def may_act(self) -> bool:
        return self.acting or (self.parent is not None and self.parent.may_act())

    def is_let(self, name: str) -> bool:
        return name in self.lets or (self.parent is not None and self.parent.is_let(name))

    def lookup(self, name: str) -> str | None:
        if name in self.vars:
            return self.vars[name]
        return self.parent.lookup(name) if self.parent else None

    def names(self) -> list[str]:  # what narrowing records (`damage.source`: not none) is no variable
        return [n for n in self.vars if soundness.is_variable(n)] + (self.parent.names() if self.parent else [])

    def child(self, loop: bool = False) -> Scope:
        return Scope({}, self, loop)


def definitions(body) -> dict[str, list[tuple[str, Span]]]:
    """Every name a body defines with `let` or `for`, at any depth, in source order."""
    found: dict[str, list[tuple[str, Span]]] = {}

    def walk(stmts) -> None:
        for s in stmts:
            if isinstance(s, ast.Let):
                found.setdefault(s.name.text, []).append(("let", s.name.span))
            elif isinstance(s, ast.For):
                found.setdefault(s.var.text, []).append(("for", s.var.span))
            for attr in ("body", "orelse"):
                inner = getattr(s, attr, None)
                if inner:
                    walk(inner)

    walk(body)
    return found
