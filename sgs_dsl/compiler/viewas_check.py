"""Load-time checks of a `view_as` rule across the chosen cards (`with same suit`,
`with different types`), and the labels that tell several conversions of one skill apart."""

from __future__ import annotations

from typing import Any

import attrs

from ..syntax import ast
from ..syntax.diagnostics import did_you_mean
from .defs import ViewAsDef

HOWS = ("same", "different")
# the plural reads better after `different`; both spellings name the same property
PROPS = {"suit": "suit", "suits": "suit", "color": "color", "colors": "color", "colour": "color",
         "colours": "color", "type": "type", "types": "type"}
USAGE = "`with same suit`, `with same color`, `with different types` (suit, color or type)"
ZH = {"suit": "花色", "color": "顏色", "type": "類別"}


def across(c: Any, m: ast.ViewAs) -> tuple[str, str] | None:
    """("same" | "different", "suit" | "color" | "type") from `with HOW PROP`, or None."""
    if m.across is None:
        return None
    how, prop = m.across
    ok = True
    if how.text not in HOWS:
        c.error(how.span, f"unknown rule '{how.text}' across the chosen cards", did_you_mean(how.text, HOWS) or USAGE)
        ok = False
    if prop.text not in PROPS:
        c.error(prop.span, f"cards are compared by suit, color or type, not '{prop.text}'",
                did_you_mean(prop.text, list(PROPS)) or USAGE)
        ok = False
    if ok and m.count < 2:
        c.error(m.across[0].span, f"a rule across the chosen cards needs at least 2 cards, not {m.count}",
                f"`view_as ... from 2 ... with {how.text} {prop.text}`")
    return (how.text, PROPS[prop.text]) if ok else None


def describe(va: ViewAsDef) -> str:
    """A short Chinese description of a conversion's cards: 2張同花色."""
    if va.across is None:
        return f"{va.count}張"
    how, prop = va.across
    return f"{va.count}張{'同' + ZH[prop] if how == 'same' else ZH[prop] + '不同'}"


def labelled(view_as: list[ViewAsDef]) -> list[ViewAsDef]:
    """Several conversions of one skill into the same card get labels that tell them apart."""
    out: list[ViewAsDef] = []
    for va in view_as:
        if sum(v.kind_name == va.kind_name for v in view_as) < 2:
            out.append(va)
            continue
        label = f"（{describe(va)}）"
        taken = {v.label for v in out}
        n = 2
        while label in taken:
            label, n = f"（{describe(va)}，其{n}）", n + 1
        out.append(attrs.evolve(va, label=label))
    return out
