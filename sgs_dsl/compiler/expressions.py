"""The richer expressions (docs/language.md "Expressions"): `%`, `if ... then ... else ...`,
indexing, and the functions over numbers and lists (min, max, abs, sum, any, all, first,
fewest, most, nearest). Checked and compiled here; `compiler.Compiler` calls in.

Every value is computed from the game with no effect on it, so these functions never enter
the call-depth budget; the ones that walk a list pay a step per item, like a filter."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias

import attrs

from ..core.defs import Ctx, TriggerDef
from ..core.model import Budget, RulesError
from ..syntax import ast
from ..syntax.diagnostics import Diagnostic, Span
from . import misreads, procedures, schema, soundness
from .values import Fn, IntFn, Typed, bounded, const

if TYPE_CHECKING:
    from .compiler import Compiler
    from .scope import Scope

Pairs: TypeAlias = Callable[[Ctx], list[tuple[Any, Any]]]  # the items of `p in LIST`, each with its key
Compile: TypeAlias = Callable[["Compiler", ast.Call, "Scope"], Typed]  # a function of the language, checked and compiled

# list types and the type of their items
ELEMENT = {"players": "player", "cards": "card", "strs": "str", "ints": "int", "bools": "bool"}
LIST_OF = {item: list_type for list_type, item in ELEMENT.items()}

FUNCTIONS = {
    "min": "min(a, b, ...): the smallest number; min(p in LIST, KEY): the smallest KEY",
    "max": "max(a, b, ...): the largest number; max(p in LIST, KEY): the largest KEY",
    "abs": "abs(n): n without its sign",
    "sum": "sum(p in LIST, KEY): KEY added up over the list; sum(NUMBERS): a list of numbers added up",
    "any": "any(p in LIST, COND): COND holds for at least one item; any(BOOLS)",
    "all": "all(p in LIST, COND): COND holds for every item (true for none); all(BOOLS)",
    "first": "first(LIST): the first item, none for an empty list",
    "random_one": "random_one(LIST): one item picked at random (the game's seeded generator), none for an empty list",
    "fewest": "fewest(p in LIST, KEY): the items with the smallest KEY (all tied, in list order)",
    "most": "most(p in LIST, KEY): the items with the largest KEY (all tied, in list order)",
    "nearest": "nearest(p, PLAYERS): the players at the shortest distance from p (all tied, in list order)",
}
_AGGREGATE_HINT = "sum, any, all, min, max, fewest and most take `p in LIST` first: sum(p in players(), p.hand)"


def _bad(comp: Compiler, span: Span, message: str, hint: str = "", returns: str = "any") -> Typed:
    comp.error(span, message, hint)
    return const(None), returns


# ---------------------------------------------------------------- operators

def divide(comp: Compiler, e: ast.Arith, left: IntFn, right: IntFn) -> Typed:
    """`a / b` rounds down and `a % b` takes the sign of b, so a == (a / b) * b + a % b;
    a divisor of 0 is a load error when written, a located rules error when computed."""
    what = "division by zero" if e.op == "/" else "'%' by zero: a remainder needs a divisor other than 0"
    hint = "test the divisor first: `if n != 0 then a / n else 0`"
    if isinstance(e.right, ast.Int) and e.right.value == 0:
        comp.error(e.right.span, what, hint)
    op: Callable[[int, int], int] = operator.floordiv if e.op == "/" else operator.mod
    where = e.span

    def run(ctx: Ctx) -> int:
        divisor = right(ctx)
        if not divisor:
            raise RulesError(what, where)
        return op(left(ctx), divisor)  # no larger in size than the number divided
    return run, "int"


def expr(comp: Compiler, e: Any, scope: Scope) -> Typed:
    if isinstance(e, ast.Cond):
        return _cond(comp, e, scope)
    if isinstance(e, ast.Index):
        return _index(comp, e, scope)
    return _bad(comp, e.span, "`p in LIST` only fits as the first argument of an aggregate", _AGGREGATE_HINT)


def common_type(a: str, b: str) -> str | None:
    """The type of a value that is one of two types, or None when they cannot mix."""
    if a == b or b == "any":
        return a
    if a == "any":
        return b
    if "none" in (a, b):
        other = b if a == "none" else a
        return other if other.endswith("?") else other + "?"
    if schema.base_type(a) == schema.base_type(b):
        return schema.base_type(a) + "?"
    return None


def _cond(comp: Compiler, e: ast.Cond, scope: Scope) -> Typed:
    test = comp.expr_bool(e.cond, scope)
    then, a = comp.expr(e.then, scope)
    orelse, b = comp.expr(e.orelse, scope)
    t = common_type(a, b)
    if t is None:
        return _bad(comp, e.span, f"the two values of `if ... then ... else ...` differ in type: {a} and {b}",
                    "both values must be of one type (either may be none)")
    return (lambda ctx: then(ctx) if test(ctx) else orelse(ctx)), t


def _index(comp: Compiler, e: ast.Index, scope: Scope) -> Typed:
    items, t = comp.expr(e.obj, scope)
    item = ELEMENT.get(schema.base_type(t), "any" if t == "any" else None)
    if item is None:
        return _bad(comp, e.obj.span, f"only a list can be indexed, not {t}", "e.g. others(you)[1], [a, b][2]")
    at = comp.expr_int(e.index, scope)
    if isinstance(e.index, ast.Int) and e.index.value < 1:
        comp.error(e.index.span, f"list positions count from 1, so [{e.index.value}] is never an item",
                   "the first item is list[1]")

    def pick(ctx: Ctx) -> Any:
        values, i = items(ctx) or (), at(ctx)
        return values[i - 1] if 1 <= i <= len(values) else None  # past either end: none
    return pick, item if item == "any" else item + "?"


# ---------------------------------------------------------------- functions

def call(comp: Compiler, c: ast.Call, scope: Scope) -> Typed:
    """A call that is not a builtin effect: a function of this module or a procedure."""
    name = c.name.text
    if name in FUNCTIONS:
        if c.kwargs:
            return _bad(comp, c.kwargs[0][0].span, f"'{name}' takes no options", FUNCTIONS[name])
        return _IMPLEMENTED[name](comp, c, scope)
    if name in comp.procedures:
        return procedures.call(comp, c, scope)
    known = [*schema.BUILTINS, *FUNCTIONS, *comp.procedures]
    return _bad(comp, c.name.span, f"unknown effect or function '{name}'",
                soundness.unknown_call_hint(name, known))  # a near spelling, or those of its area


def _arity(comp: Compiler, c: ast.Call, low: int, high: int | None) -> bool:
    """Whether the call has from low to high arguments (high None: any number from low)."""
    n = len(c.args)
    if low <= n and (high is None or n <= high):
        return True
    comp.error(c.span, schema.arity_message(c.name.text, low, high, n), FUNCTIONS[c.name.text])
    return False


def _binder(comp: Compiler, b: ast.Binder, scope: Scope) -> tuple[Fn, str, Scope]:
    """`p in LIST`: the list and its item type, and the scope of the key with `p` in it."""
    items, t = comp.expr(b.items, scope)
    item = ELEMENT.get(schema.base_type(t), "any")
    if schema.base_type(t) not in ELEMENT and t != "any":
        comp.error(b.items.span, f"`{b.var.text} in ...` needs a list, not {t}", "e.g. p in players()")
    new_name(comp, b.var, scope)
    inner = scope.child()
    inner.vars[b.var.text] = item
    return items, item, inner


def _over(items: Fn, var: str, key: Fn, where: Span) -> Pairs:
    """The items of a list, each with its key (a step per item, like a filter)."""
    def each(ctx: Ctx) -> list[tuple[Any, Any]]:
        todo = items(ctx) or ()
        budget: Budget = ctx.game.budget
        budget.spend(len(todo), where)
        saved = ctx.vars.get(var)
        out = []
        for item in todo:
            ctx.vars[var] = item
            out.append((item, key(ctx)))
        ctx.vars[var] = saved
        return out
    return each


def _keyed(comp: Compiler, c: ast.Call, scope: Scope, key_type: str) -> tuple[Pairs, str] | None:
    """The (item, key) pairs of `F(p in LIST, KEY)` and the list's type; None if not that form."""
    if not c.args or not isinstance(c.args[0], ast.Binder):
        return None
    if not _arity(comp, c, 2, 2):
        return const([]), "any"
    b = c.args[0]
    items, item, inner = _binder(comp, b, scope)
    key = comp.expr_int(c.args[1], inner) if key_type == "int" else comp.expr_bool(c.args[1], inner)
    return _over(items, b.var.text, key, c.span), LIST_OF.get(item, "any")


def _keys(pairs: Pairs) -> Fn:
    return lambda ctx: [v for _, v in pairs(ctx)]


def _values(comp: Compiler, c: ast.Call, scope: Scope, want: str) -> Fn:
    """The one argument of `F(LIST)`: a list of numbers or of booleans."""
    fn, t = comp.expr(c.args[0], scope)
    if t not in (LIST_OF[want], "any"):
        comp.error(c.args[0].span, f"'{c.name.text}' needs a list of {'numbers' if want == 'int' else 'conditions'}"
                   f" or `p in LIST` first, not {t}", _AGGREGATE_HINT)
    return lambda ctx: fn(ctx) or ()


def _extreme(pick: Callable[..., int]) -> Compile:
    def compile_(comp: Compiler, c: ast.Call, scope: Scope) -> Typed:
        where, name = c.span, c.name.text
        keyed = _keyed(comp, c, scope, "int")
        if keyed is None and len(c.args) != 1:
            if not _arity(comp, c, 2, None):  # an argument list is flat: any length
                return const(0), "int"
            parts = tuple(comp.expr_int(a, scope) for a in c.args)
            return (lambda ctx: pick(p(ctx) for p in parts)), "int"
        values = _keys(keyed[0]) if keyed is not None else _values(comp, c, scope, "int")

        def of_list(ctx: Ctx) -> int:
            found = values(ctx)
            if not found:
                raise RulesError(f"'{name}' of an empty list has no value", where)
            return pick(found)
        return of_list, "int"
    return compile_


def _abs(comp: Compiler, c: ast.Call, scope: Scope) -> Typed:
    if not _arity(comp, c, 1, 1):
        return const(0), "int"
    inner = comp.expr_int(c.args[0], scope)
    return (lambda ctx: abs(inner(ctx))), "int"


def _sum(comp: Compiler, c: ast.Call, scope: Scope) -> Typed:
    keyed = _keyed(comp, c, scope, "int")
    if keyed is not None:
        pairs = keyed[0]
        return (lambda ctx: sum(v for _, v in pairs(ctx))), "int"
    if not _arity(comp, c, 1, 1):
        return const(0), "int"
    values = _values(comp, c, scope, "int")
    return (lambda ctx: sum(values(ctx))), "int"


def _logic(test: Callable[..., bool]) -> Compile:
    def compile_(comp: Compiler, c: ast.Call, scope: Scope) -> Typed:
        keyed = _keyed(comp, c, scope, "bool")
        if keyed is not None:
            pairs = keyed[0]
            return (lambda ctx: test(v for _, v in pairs(ctx))), "bool"
        if not _arity(comp, c, 1, 1):
            return const(False), "bool"
        values = _values(comp, c, scope, "bool")
        return (lambda ctx: test(values(ctx))), "bool"
    return compile_


def _one_item(pick: Callable[[Ctx, list[Any]], Any]) -> Compile:
    """first / random_one: one item of a list (none for an empty list), typed as its items."""
    def compile_(comp: Compiler, c: ast.Call, scope: Scope) -> Typed:
        name = c.name.text
        if not _arity(comp, c, 1, 1):
            return const(None), "any"
        items, t = comp.expr(c.args[0], scope)
        item = ELEMENT.get(schema.base_type(t))
        if item is None:
            if t != "any":
                comp.error(c.args[0].span, f"'{name}' needs a list, not {t}", FUNCTIONS[name])
                return const(None), "any"
            where = c.span  # a list whose items no text typed (`let seen = [];`): checked in play

            def one_of_any(ctx: Ctx) -> Any:
                found = items(ctx)
                if found is not None and not isinstance(found, (list, tuple)):
                    raise RulesError(f"'{name}' needs a list, and this value is not one", where)
                return pick(ctx, list(found)) if found else None
            return one_of_any, "any"

        def one(ctx: Ctx) -> Any:
            found = items(ctx)
            return pick(ctx, found) if found else None
        return one, item + "?"
    return compile_


def _random(ctx: Ctx, found: list[Any]) -> Any:
    """By the game's seeded generator: the same seed picks the same."""
    return ctx.game.rng.choice(found)


def _ties(best: Callable[..., int]) -> Compile:
    """fewest / most: every item whose key is the best, in the list's order (手牌數最少的角色
    may be several players)."""
    def compile_(comp: Compiler, c: ast.Call, scope: Scope) -> Typed:
        keyed = _keyed(comp, c, scope, "int")
        if keyed is None:
            return _bad(comp, c.span, f"'{c.name.text}' selects from `p in LIST` by a key",
                        FUNCTIONS[c.name.text] + ", e.g. fewest(p in players(), p.hand)", "players")
        pairs, t = keyed
        return (lambda ctx: _tied(pairs(ctx), best)), t
    return compile_


def _tied(pairs: list[tuple[Any, Any]], best: Callable[..., int]) -> list[Any]:
    if not pairs:
        return []
    top = best(v for _, v in pairs)
    return [item for item, v in pairs if v == top]


def _nearest(comp: Compiler, c: ast.Call, scope: Scope) -> Typed:
    if not _arity(comp, c, 2, 2):
        return const([]), "players"
    origin = comp.argument(c.args[0], "player", scope)
    players, t = comp.expr(c.args[1], scope)
    if t not in ("players", "any"):
        comp.error(c.args[1].span, f"'nearest' chooses among players, not {t}", FUNCTIONS["nearest"])
    where = c.span

    def nearest(ctx: Ctx) -> list[Any]:
        p = origin(ctx)
        todo = [q for q in players(ctx) or () if q is not p]
        budget: Budget = ctx.game.budget
        budget.spend(len(todo), where)
        return _tied([(q, ctx.game.seats.distance(p, q)) for q in todo], min)
    return nearest, "players"


_IMPLEMENTED: dict[str, Compile] = {
    "min": _extreme(min), "max": _extreme(max), "abs": _abs, "sum": _sum, "any": _logic(any), "all": _logic(all),
    "first": _one_item(lambda ctx, found: found[0]), "fewest": _ties(min), "most": _ties(max), "nearest": _nearest, "random_one": _one_item(_random),
}
PURE_FUNCTIONS = frozenset(_IMPLEMENTED) - {"random_one"}  # functions of their arguments alone


# ---------------------------------------------------------------- names

def new_name(comp: Compiler, name: ast.Name, scope: Scope) -> None:
    """A `let`, `for` or `p in` name must be new where it is defined: an inner `let x` never
    silently reuses an outer `x` (an error, not shadowing: one name, one meaning per body),
    nor hides a word of the language."""
    misreads.variable_name(comp, name)
    if scope.lookup(name.text) is not None:
        comp.error(name.span, f"'{name.text}' is already a variable here",
                   "a `let` or `for` cannot redefine a variable, even in an inner block: give this one another "
                   f"name, or change the first with `set {name.text} = ...;`")


# ---------------------------------------------------------------- several windows, one body

def each_window(comp: Compiler, m: ast.Trigger, skill: str) -> list[TriggerDef]:
    """`on A, B when ... { ... }`: one trigger per window, the condition and body checked
    against each window's variables. An error every window gives is reported once; one that
    only some give names them (a variable only one window has)."""
    windows = (m.window, *m.also)
    if len(windows) == 1:
        t = comp.trigger(m, skill)
        return [t] if t is not None else []
    compiled, found = [], []
    seen: dict[str, Span] = {}
    for w in windows:
        if w.text in seen:
            comp.error(w.span, f"window '{w.text}' is named twice in this trigger", f"first named at {seen[w.text]}")
            continue
        seen[w.text] = w.span
        start = len(comp.diagnostics)
        t = comp.trigger(attrs.evolve(m, window=w, also=()), skill)
        found.append((w.text, comp.diagnostics[start:]))
        del comp.diagnostics[start:]
        if t is not None:
            compiled.append(t)
    _report(comp, found)
    return compiled


def _report(comp: Compiler, found: list[tuple[str, list[Diagnostic]]]) -> None:
    where: dict[tuple[Span, str], list[str]] = {}
    first: dict[tuple[Span, str], Diagnostic] = {}
    for window, diagnostics in found:
        for d in diagnostics:
            key = (d.span, d.message)
            first.setdefault(key, d)
            where.setdefault(key, []).append(window)
    for key, d in first.items():
        windows = where[key]
        if len(windows) < len(found):
            d = attrs.evolve(d, message=f"{d.message} (in the `{'`, `'.join(windows)}` window of this trigger)")
        comp.diagnostics.append(d)


def set_var(comp: Compiler, s: ast.Set, t: str, scope: Scope) -> Callable[[Ctx], None]:
    """`set x = VALUE;` / `set x += n;`: a variable of a `let` takes a new value of its type
    (the one way to change a variable: a second `let x` is an error)."""
    name = s.path[0]
    if not scope.is_let(name.text):
        comp.error(name.span, f"'{name.text}' is not a `let` variable: it cannot be set",
                   "only a variable defined by `let` can be changed; `set` also changes fields: `set damage.amount += 1;`")
        return lambda ctx: None
    if s.op != "=":
        step = comp.expr_int(s.value, scope)
        if t not in ("int", "any"):
            comp.error(s.span, f"'{s.op}' adds to a number, but '{name.text}' is {t}")

        sign, var, where = (1 if s.op == "+=" else -1), name.text, s.span
        return lambda ctx: ctx.vars.__setitem__(var, bounded(ctx.vars[var] + sign * step(ctx), where))
    value, vt = comp.expr(s.value, scope)
    if common_type(t, vt) != t and t != "any":
        comp.error(s.value.span, f"'{name.text}' is {t}, not {vt}",
                   "a variable keeps the type of its `let`; define another variable for a value of another type")
    var = name.text
    return lambda ctx: ctx.vars.__setitem__(var, value(ctx))


def joined(c: Compiler, e: Any, left: Fn, left_type: str, scope: Scope) -> Typed:
    """`A + B` of two lists of one type: A's items, then B's (a new list; neither changes)."""
    right, right_type = c.expr(e.right, scope)
    if right_type != left_type and right_type != "any":
        c.error(e.right.span, f"cannot join {left_type} and {right_type}", f"`+` joins two lists of {left_type}")
    return (lambda ctx: [*left(ctx), *right(ctx)]), left_type

