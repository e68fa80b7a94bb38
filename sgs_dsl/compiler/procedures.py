"""Procedures and definitions (docs/language.md "Procedures"): `procedure NAME(p: player) { ... }`
and `define NAME(p: player): int = EXPR;`, written at the top level of any .sgs file and called
from any card, skill or other procedure.

A procedure sees only its parameters (no `you`, no window payload), so what it does is what
its call says. All are declared before any text is compiled, so a call may come before the
definition and a procedure may call itself: each call counts against the nesting budget (its
levels, core/model.py), and recursion past it is a rules error located at the call that went
too deep."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attr

from ..core.defs import Ctx
from ..core.model import MAX_DEPTH, NESTING_RULE, STACK_FULL, Budget, RulesError
from ..syntax import ast
from ..syntax.diagnostics import Span, did_you_mean
from . import misreads, schema, soundness
from .scope import Scope, definitions
from .values import Fn, Typed, checked_int, const

if TYPE_CHECKING:
    from .compiler import Compiler

# parameter and result types as written -> the checker's type
TYPES = {"player": "player", "players": "players", "card": "card", "cards": "cards", "int": "int",
         "number": "int", "bool": "bool", "str": "str"}


def _not_compiled(ctx: Ctx) -> Any:
    raise AssertionError("a procedure ran before compile_all compiled it")


# attr.s(auto_attribs=True), not attrs.define: the form mypyc compiles (docs/performance.md)
@attr.s(auto_attribs=True, eq=False, order=False)
class Procedure:
    name: str
    params: tuple[tuple[str, str], ...]  # (name, type)
    returns: str  # "none" for a procedure
    span: Span
    run: Fn = _not_compiled  # compiled once every procedure is declared (compile_all)

    def signature(self) -> str:
        params = ", ".join(f"{n}: {t}" for n, t in self.params)
        return f"{self.name}({params})" + ("" if self.returns == "none" else f": {self.returns}")


Definition = ast.ProcedureDef | ast.DefineDef


def declare(comp: Compiler, defs: list[Definition]) -> None:
    """Every procedure's name and signature; the names are one namespace with the effects."""
    from .expressions import FUNCTIONS

    for d in defs:
        name = d.name.text
        if name in schema.BUILTINS or name in FUNCTIONS:
            comp.error(d.name.span, f"'{name}' is already an effect or function of the language",
                       "give the procedure a name of its own")
            continue
        if name in comp.procedures:
            comp.error(d.name.span, f"duplicate procedure '{name}'", f"first defined at {comp.procedures[name].span}")
            continue
        returns = _type(comp, d.returns) if isinstance(d, ast.DefineDef) else "none"
        comp.procedures[name] = Procedure(name, _params(comp, d.params), returns, d.name.span)


def _type(comp: Compiler, word: ast.Name) -> str:
    if word.text not in TYPES:
        comp.error(word.span, f"unknown type '{word.text}'", did_you_mean(word.text, TYPES) or "types: " + ", ".join(TYPES))
        return "any"
    return TYPES[word.text]


def _params(comp: Compiler, params: tuple[ast.Param, ...]) -> tuple[tuple[str, str], ...]:
    seen: set[str] = set()
    out = []
    for p in params:
        if p.name.text in seen:
            comp.error(p.name.span, f"parameter '{p.name.text}' is named twice", "give each parameter its own name")
        seen.add(p.name.text)
        misreads.variable_name(comp, p.name)
        out.append((p.name.text, _type(comp, p.type)))
    return tuple(out)


def compile_all(comp: Compiler, defs: list[Definition]) -> None:
    """The bodies, each in a scope of its parameters only."""

    for d in defs:
        proc = comp.procedures.get(d.name.text)
        if proc is None or proc.span != d.name.span:  # a duplicate, already reported
            continue
        scope = Scope(dict(proc.params))
        if isinstance(d, ast.ProcedureDef):
            comp.defined = definitions(d.body)
            misreads.unused_lets(comp, d.body)  # a misspelt name defines a new one
            proc.run = comp.block(d.body, scope)
            comp.defined = {}
            continue
        value, t = comp.expr(d.value, scope)
        if t not in (proc.returns, "any") and proc.returns != "any":
            comp.error(d.value.span, f"'{proc.name}' is declared to give {proc.returns}, but this is {t}",
                       "change the declared type after ':' or the expression"
                       + (" (a value that may be none cannot be declared as one that is never none)"
                          if schema.base_type(t) == proc.returns else ""))
        proc.run = value


def call(comp: Compiler, c: ast.Call, scope: Scope) -> Typed:

    proc = comp.procedures[c.name.text]
    if proc.returns == "none" and not scope.may_act():
        soundness.acts_in_a_read(comp, c, "a procedure")
    if c.kwargs:
        comp.error(c.kwargs[0][0].span, f"'{proc.name}' takes no options", proc.signature())
        return const(None), proc.returns
    if len(c.args) != len(proc.params):
        comp.error(c.span, schema.arity_message(proc.name, len(proc.params), len(proc.params), len(c.args)),
                   proc.signature())
        return const(None), proc.returns
    args = tuple(_argument(comp, a, name, t, proc, scope) for a, (name, t) in zip(c.args, proc.params, strict=True))
    names = tuple(name for name, _ in proc.params)
    return _caller(proc, names, args, c.span, comp.call_cost(c)), proc.returns


def _argument(comp: Compiler, a: Any, name: str, want: str, proc: Procedure, scope: Scope) -> Fn:

    fn, t = comp.expr(a, scope)
    if t == "any":
        return checked_int(fn, a.span) if want == "int" else fn
    if schema.base_type(t) != want and want != "any":
        comp.error(a.span, f"'{proc.name}' needs {name}: {want}, found {t}", proc.signature())
    elif soundness.is_optional(t):  # a parameter is never none
        comp.error(a.span, f"'{soundness.path_of(a) or 'this value'}' may be none, but '{proc.name}' needs "
                   f"{name}: {want}", soundness.guard_hint(a))
    return fn


def _caller(proc: Procedure, names: tuple[str, ...], args: tuple[Fn, ...], where: Span, levels: int) -> Fn:
    """A call of a procedure: it counts `levels` against the nesting budget while it runs."""
    def run(ctx: Ctx) -> Any:
        budget: Budget = ctx.game.budget
        local = Ctx(ctx.game, {n: f(ctx) for n, f in zip(names, args, strict=True)})
        if budget.depth + levels > MAX_DEPTH:
            raise RulesError(f"the call of '{proc.name}' is nested more than {MAX_DEPTH} levels deep: a procedure "
                             f"that calls itself needs a condition that ends it ({NESTING_RULE})", where)
        budget.depth += levels
        try:
            result = proc.run(local)  # a `stop` ends the procedure, not its caller
        except RecursionError:  # a last resort, as for effects
            raise RulesError(STACK_FULL, where) from None
        finally:
            budget.depth -= levels
        return None if proc.returns == "none" else result
    return run


def no_owner(comp: Compiler, c: ast.Call, key: str) -> None:
    """In a procedure nobody is `you`: an effect's default (the source of `damage`, the owner
    of `move`) must be given, never silently none."""
    comp.error(c.span, f"'{c.name.text}' needs `{key}:` here: a procedure sees only its parameters",
               f"pass the player as a parameter and write `{key}: p`")
