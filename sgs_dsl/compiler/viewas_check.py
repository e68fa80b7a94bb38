"""A `view_as` conversion compiled and checked at load time: its card (or the set of names the
user declares), its source zone, its modes (use, play, recast), a rule across the chosen cards
(`with same suit`, `with different types`), and the labels that tell several conversions of
one skill apart."""

from __future__ import annotations

from typing import Any

import attrs

from ..core.defs import CardKind, ViewAsDef
from ..syntax import ast
from ..syntax.diagnostics import did_you_mean
from . import moves_check

HOWS = ("same", "different")
# the plural reads better after `different`; both spellings name the same property
PROPS = {"suit": "suit", "suits": "suit", "color": "color", "colors": "color", "colour": "color",
         "colours": "color", "type": "type", "types": "type"}
USAGE = "`with same suit`, `with same color`, `with different types` (suit, color or type)"
ZH = {"suit": "花色", "color": "顏色", "type": "類別"}
MODES = ("use", "play", "recast")
ZONES = ("hand", "hand_equip", "equip", "judge")
DECLARED = "declared"  # `view_as declared(PATTERN) ...`: the user names the card
# A virtual card is a basic card or an ordinary trick (seed 000: equipment and delayed tricks
# lie where they are put, as real cards), so a declared set holds only those.
VIRTUAL_TYPES = ("basic", "trick")


def compile_view_as(c: Any, m: ast.ViewAs, skill: str) -> ViewAsDef | None:
    from .scope import Scope

    kinds = _kinds(c, m)
    if not kinds:
        return None
    zone = m.zone.text if m.zone is not None else "hand"
    zone = moves_check.view_as_zone(c, zone) or zone  # a pile is a source too
    if zone not in ZONES and not zone.startswith("pile:"):
        c.error(m.zone.span, f"unknown zone '{zone}' for view_as",
                did_you_mean(zone, [n for n, _ in c.piles.values()] + ["judge"]) or
                "zones: hand, equip, hand_equip, judge, or a pile a skill declares (`pile 權;`)")
    modes = _modes(c, m, kinds)
    if m.count < 1:
        c.error(m.span, "view_as needs at least one card")
    # a declared conversion's condition also sees `name`, the card name it would be declared as
    scope = Scope({"you": "player", "name": "str"} if m.declared is not None else {"you": "player"})
    cond = c.expr_bool(m.cond, scope) if m.cond is not None else None
    declared = tuple(k.key for k in kinds) if m.declared is not None else ()
    return ViewAsDef(kinds[0].key, m.count, c.pattern(m.pattern), zone, modes, skill, cond,
                     across(c, m), declared=declared, face_down=m.face_down)


def _kinds(c: Any, m: ast.ViewAs) -> list[CardKind]:
    """The card a conversion makes, or the cards of the set its user declares a name from."""
    if m.declared is None:
        if m.card.text == DECLARED:
            c.error(m.card.span, "`declared` needs the set of names the user may declare",
                    "e.g. `view_as declared(basic|ordinary) from 1 any in hand;`")
            return []
        kind = c.card_kind(m.card.text, m.card.span)
        return [kind] if kind is not None else []
    if m.card.text != DECLARED:
        c.error(m.card.span, f"expected `declared(...)` before the set of names, not '{m.card.text}'",
                "a conversion makes one card (`view_as CARD from ...`) or one the user declares from a set "
                "(`view_as declared(basic|ordinary) from ...`)")
        return []
    matches = c.pattern(m.declared)
    kinds = [k for k in c.cards.values() if matches(_Probe(k))]
    wrong = [k.name for k in kinds if k.type not in VIRTUAL_TYPES]
    if wrong:
        c.error(m.declared.span, f"a declared card is used as a virtual card, and {'、'.join(wrong[:4])} "
                "cannot be one (equipment and delayed tricks are real cards where they lie)",
                "declare from basic cards and ordinary tricks: `declared(basic|ordinary)`")
        return []
    if not kinds:
        c.error(m.declared.span, "no card of the library matches this set of names",
                "a set of card names or types, e.g. `declared(basic|ordinary)` or `declared(NAME|NAME)`")
    return kinds


@attrs.frozen
class _Probe:
    """What a pattern reads of a card kind when no real card is meant (a declared name)."""

    kind: CardKind
    suit: None = None
    color: None = None

    @property
    def nature(self) -> str:
        return self.kind.nature


def _modes(c: Any, m: ast.ViewAs, kinds: list[CardKind]) -> tuple[str, ...]:
    if not m.modes:
        return ("use", "play")
    modes: list[str] = []
    for mode in m.modes:
        if mode.text not in MODES:
            c.error(mode.span, f"unknown view_as mode '{mode.text}'",
                    did_you_mean(mode.text, MODES) or "`for use`, `for play`, `for use or recast`")
        elif mode.text in modes:
            c.error(mode.span, f"the mode '{mode.text}' is given twice", "name each mode once")
        elif mode.text == "recast" and not all(k.recast for k in kinds):
            names = "、".join(k.name for k in kinds if not k.recast)
            c.error(mode.span, f"{names} cannot be recast (重鑄): its card text has no `recast`",
                    "only a card whose text allows recasting (`recast 1;`) can be recast as it")
        else:
            modes.append(mode.text)
    return tuple(modes)


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
