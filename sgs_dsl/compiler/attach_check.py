"""Load-time checks of actions a skill gives other players in their own play
phase (`attach others once when player.kingdom == 群 { ... }`), compiled into an AttachDef.
In the condition and the body `you` is the skill's owner and `player` the one who acts."""

from __future__ import annotations

from typing import Any

from ..core.defs import AttachDef
from ..syntax import ast
from ..syntax.diagnostics import did_you_mean
from . import misreads, soundness

ATTACH_SUBJECTS = ("others",)  # who is given the action
ATTACH_FLAGS = ("once",)


def attach_def(c: Any, m: ast.Attach, skill: str) -> AttachDef:
    from .scope import Scope, definitions

    if m.subject.text not in ATTACH_SUBJECTS:
        c.error(m.subject.span, f"unknown attach subject '{m.subject.text}'",
                did_you_mean(m.subject.text, ATTACH_SUBJECTS)
                or "`attach others { ... }` gives the other players an action")
    once = False
    for tag in m.tags:
        if tag.text in ATTACH_FLAGS:
            once = True
        else:
            c.error(tag.span, f"unknown attach flag '{tag.text}'",
                    did_you_mean(tag.text, ATTACH_FLAGS) or "the flag is `once` (once per the actor's play phase)")
    scope = Scope({"you": "player", "player": "player"})
    cond = c.expr_bool(m.cond, scope) if m.cond is not None else None
    c.defined = definitions(m.body)
    misreads.unused_lets(c, m.body)  # a misspelt name defines a new one
    body = c.block(m.body, soundness.narrowed(scope, soundness.not_none_paths(m.cond)))
    c.defined = {}
    return AttachDef(skill, once, cond, body)
