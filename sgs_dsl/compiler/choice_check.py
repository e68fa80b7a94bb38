"""The arguments of labelled choices, checked at load time: the labels of
`choose_option` (text written out, distinct, each saying what it does), the availability of
each option (`offer:`, one condition per label) and the card names `declare` offers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..syntax import ast
from ..syntax.diagnostics import did_you_mean

ARG_TYPES = ("labels", "offers", "card_names")
BARE = ("是", "否")  # answers that do not say what they do


def argument(c: Any, a: Any, ptype: str, scope: Any) -> Callable[[Any], Any]:
    if not isinstance(a, ast.ListLit) or not a.items:
        example = {"labels": '["回復1點體力", "摸兩張牌"]', "offers": "[you.hurt, true]",
                   "card_names": "[NAME, NAME] of cards"}[ptype]
        c.error(a.span, f"expected a list written out here, e.g. {example}",
                "the options are fixed in the text, so a ruling can name them")
        return lambda ctx: None
    if ptype == "labels":
        return _labels(c, a)
    if ptype == "card_names":
        return _card_names(c, a)
    conds = tuple(c.expr_bool(i, scope) for i in a.items)
    return lambda ctx: [bool(f(ctx)) for f in conds]


def _labels(c: Any, a: ast.ListLit) -> Callable[[Any], Any]:
    labels: list[str] = []
    for item in a.items:
        if not isinstance(item, ast.Str) or not item.value.strip():
            c.error(item.span, "an option of 'choose_option' must be written as text",
                    'it is the answer a ruling names, e.g. "摸兩張牌"')
            continue
        label = item.value.strip()
        if label in BARE:
            c.error(item.span, f"the option '{label}' does not say what it does", 'name the action, e.g. "摸兩張牌"')
        if label in labels:
            c.error(item.span, f"the option '{label}' is offered twice", "give each option its own label")
        labels.append(label)
    return lambda ctx: list(labels)


def _card_names(c: Any, a: ast.ListLit) -> Callable[[Any], Any]:
    names: list[str] = []
    for item in a.items:
        if isinstance(item, ast.Field) and isinstance(item.obj, ast.Var):  # standard.殺: with its package
            item = ast.Var(f"{item.obj.name}.{item.name}", item.span)
        if not isinstance(item, ast.Var):
            c.error(item.span, "expected a card name here", "write the names of cards of the library")
            continue
        kind = c.card_kind(item.name, item.span)
        if kind is None:
            continue  # reported
        if kind.name in names:
            c.error(item.span, f"the card name '{kind.name}' is offered twice", "name each card once")
        names.append(kind.name)  # a declaration is compared with printed names (`card.name`)
    return lambda ctx: list(names)


def check_offers(c: Any, call: ast.Call) -> None:
    """`offer:` gives one condition per option of `choose_option`."""
    offer = next((v for k, v in call.kwargs if k.text == "offer"), None)
    labels = call.args[1] if len(call.args) > 1 else None
    if isinstance(offer, ast.ListLit) and isinstance(labels, ast.ListLit) and len(offer.items) != len(labels.items):
        c.error(offer.span, f"'offer:' gives {len(offer.items)} conditions for {len(labels.items)} options",
                "one condition per option, in the same order; `true` for one always offered")


def labels_chosen(value: Any) -> tuple[str, ...] | None:
    """The labels a `let` of `choose_option(p, ["A", "B"])` can hold, when written out."""
    if not (isinstance(value, ast.Call) and value.name.text == "choose_option" and len(value.args) > 1):
        return None
    items = value.args[1].items if isinstance(value.args[1], ast.ListLit) else ()
    return tuple(i.value for i in items) if items and all(isinstance(i, ast.Str) for i in items) else None


def check_label(c: Any, e: ast.Compare, scope: Any) -> None:
    """`c == "TEXT"` where c holds one of a `choose_option`'s labels and TEXT is none of them:
    always false (a label misspelt, or changed on one side only)."""
    for var, text in ((e.left, e.right), (e.right, e.left)):
        if isinstance(var, ast.Var) and isinstance(text, ast.Str):
            labels = scope.options_of(var.name)
            if labels is not None and text.value not in labels:
                c.error(text.span, f"'{var.name}' is never '{text.value}': it holds one of the options "
                        + "、".join(labels), did_you_mean(text.value, labels) or "compare it with one of the labels offered")
