"""A trigger's guard: what its `when` condition asks first about the window, read as data so
that the kernel can pass over a trigger that cannot fire without building its context.

Most triggers begin with who the window is about (`phase.player == you`, `damage.target ==
you`, `move.player == you`) or which phase it is (`phase.name == "prepare"`); a window is
heard by every listener at the table, and for all but one of them that first test fails. The
guard is the leading conjuncts of that form, each a `Concern`: a path from a window variable
through plain fields, and the owner (`you`) or a text it must equal. It means exactly what the
compiled condition computes for those conjuncts (fields of none are none; players compare by
identity), and since `and` stops at the first false conjunct and these read nothing but the
window, a trigger whose guard fails is one whose condition is false."""

from __future__ import annotations

from typing import Any

from ..core.defs import Concern
from ..syntax import ast
from . import schema, state_check


def guard_of(compiler: Any, cond: Any, scope: Any) -> tuple[Concern, ...]:
    """The concerns the condition `cond` (already compiled in `scope`) begins with."""
    items = cond.items if isinstance(cond, ast.Logic) and cond.op == "and" else (cond,)
    concerns = []
    for item in items:
        concern = _concern(compiler, item, scope)
        if concern is None:
            break
        concerns.append(concern)
    return tuple(concerns)


def _concern(compiler: Any, e: Any, scope: Any) -> Concern | None:
    if not isinstance(e, ast.Compare) or e.op != "==":
        return None
    for side, other in ((e.left, e.right), (e.right, e.left)):
        path = _path(compiler, side, scope)
        if path is None:
            continue
        var, getters, t = path
        if isinstance(other, ast.Var) and other.name == "you" and schema.base_type(t) == "player":
            return Concern(var, getters, True)
        if isinstance(other, ast.Str) and (t == "str" or t in state_check.LITERALS):
            value = state_check.literal_value(other, t) if t != "str" else other.value
            if value is not None:
                return Concern(var, getters, False, value)
    return None


def _path(compiler: Any, e: Any, scope: Any) -> tuple[str, tuple, str] | None:
    """A window variable and plain fields read from it (`damage.source`, `phase.player`):
    the variable, the fields' getters and the type read; None for anything else."""
    if isinstance(e, ast.Var):
        if e.name in ("you", "none", "true", "false") or e.name in scope.lets:
            return None
        t = scope.lookup(e.name)
        return (e.name, (), t) if t is not None else None
    if not isinstance(e, ast.Field):
        return None
    inner = _path(compiler, e.obj, scope)
    if inner is None:
        return None
    var, getters, t = inner
    base = schema.base_type(t)
    if (base == "use" and e.name in compiler.use_vars) or (base == "damage" and e.name in compiler.damage_vars):
        return None  # a value kept on the use or damage, not a field
    fields = schema.FIELDS.get(base)
    if fields is None or e.name not in fields or e.name in schema.FILTERED_FIELDS.get(base, ()):
        return None  # unknown, or read through filters
    ftype, getter = fields[e.name]
    return var, (*getters, getter), ftype
