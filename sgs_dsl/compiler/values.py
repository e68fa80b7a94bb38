"""What text compiles to, and run-time guards of compiled values: a constant, a number checked
where the checker could not type it, a number kept within the limit. Located rules errors,
never Python errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

from ..core.defs import Ctx
from ..core.model import MAX_INT, Card, RulesError, UsedCard
from ..syntax.diagnostics import Span

# The closures text compiles to, each run with the context of its variables (core.defs.Ctx).
Fn: TypeAlias = Callable[[Ctx], Any]  # an expression: its value (of the type the checker gave it)
# a condition, read for its truth: the checker lets a value of no known type be one (a value
# kept on a use, `when use.chosen`), and Python's truth reads it as the pure build always has
Test: TypeAlias = Callable[[Ctx], Any]
IntFn: TypeAlias = Callable[[Ctx], int]  # a number
Block: TypeAlias = Callable[[Ctx], int | None]  # statements: BREAK or STOP (compiler.py), or None
Typed: TypeAlias = tuple[Fn, str]  # an expression and the checker's type of its value
CardTest: TypeAlias = Callable[[Any], bool]  # a card pattern: does the card (real or as used) match


def const(value: Any) -> Fn:
    return lambda ctx: value


def logic(op: str, fns: tuple[Test, ...]) -> Callable[[Ctx], bool]:
    """Short-circuit `and` / `or` (soundness.logic checks them); two parts (the usual case)
    without a generator per call."""
    if len(fns) == 2:
        a, b = fns
        if op == "and":
            return lambda ctx: bool(a(ctx)) and bool(b(ctx))
        return lambda ctx: bool(a(ctx)) or bool(b(ctx))
    if op == "and":
        return lambda ctx: all(p(ctx) for p in fns)
    return lambda ctx: any(p(ctx) for p in fns)


def first_present(fns: tuple[Fn, ...]) -> Fn:
    """`X or DEFAULT`: the first of the values that is not none, else none."""
    def either(ctx: Ctx) -> Any:
        for fn in fns:
            value = fn(ctx)
            if value is not None:
                return value
        return None
    return either


def not_none(fn: Fn, what: str, where: Span) -> Fn:
    """A value the checker proved not none, checked again when it is computed (the proof
    assumes nothing changed in between)."""
    def needed(ctx: Ctx) -> Any:
        value = fn(ctx)
        if value is None:
            raise RulesError(f"expected a {what} here, but it is none", where)
        return value
    return needed


def checked_int(fn: Fn, where: Span) -> IntFn:
    """A value the checker cannot type (`use.NAME`) where a number is needed: checked when it
    is computed (a list times 10^9 would fill the memory)."""
    def checked(ctx: Ctx) -> int:
        value = fn(ctx)
        if type(value) is not int:
            raise RulesError(f"expected a number, found {kind_of(value)}", where)
        return value
    return checked


def bounded(n: int, where: Span) -> int:
    """A computed number within ±MAX_INT (squaring in a loop would otherwise fill memory)."""
    if -MAX_INT <= n <= MAX_INT:
        return n
    raise RulesError(f"a number ran past the limit of ±{MAX_INT}: {n}", where)


def kind_of(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return {None: "none", True: "true", False: "false"}[value]
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "text"
    return "a card" if hasattr(value, "kind") else "a " + type(value).__name__.lower()


def checked_cards(fn: Fn, where: Span) -> Callable[[Ctx], list[Any]]:
    """A value the checker cannot type (`use.NAME`) iterated as cards (`for c in use.pool`,
    `[c in use.pool where ...]`): checked to be a list of cards when it is computed."""
    def checked(ctx: Ctx) -> list[Any]:
        value = fn(ctx)
        if value is None:
            return []
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, (Card, UsedCard)) for v in value):
            raise RulesError(f"expected a list of cards here, found {kind_of(value)}", where)
        return list(value)
    return checked
