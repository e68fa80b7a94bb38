"""Bookkeeping: a trigger whose body only records or reads state (`remember`, the reads of
schema.READS, its own variables, a value of its own kept on a use or a damage) changes nothing a player can see, so firing it is not an
invocation: the log does not say 發動 and the statistics do not count it; a ruling's trace
shows what was recorded (engine/state.py)."""

from __future__ import annotations

from typing import Any

from ..syntax import ast
from . import schema
from .expressions import PURE_FUNCTIONS

RECORDS = frozenset({"remember", "remember_game"})  # the effects that only keep a value for later


def only_records(body: tuple[Any, ...]) -> bool:
    """Whether a body's every call reads or records, and its every `set` is of its own variable
    or of a value of its own on the use or damage (`set use.seen = true`, not `use.damage_bonus`)."""
    stack: list[object] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call):
            name = node.name.text
            if name not in RECORDS and name not in schema.READS and name not in PURE_FUNCTIONS:
                return False
        elif isinstance(node, ast.Set) and len(node.path) > 1 and not _own_value(node.path):
            return False  # a field the rules read (damage.amount): an effect
        stack.extend(ast.children(node))
    return True


def _own_value(path: tuple[ast.Name, ...]) -> bool:
    owner = path[0].text
    return len(path) == 2 and owner in ("use", "damage") and path[1].text not in schema.FIELDS[owner]
