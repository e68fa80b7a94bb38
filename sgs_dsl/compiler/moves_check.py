"""Load-time checks of the forms: pile declarations (`pile 權;`, `pile 權, private;`
in a skill) and the name domains of `move`, `pile`, `history` and `damage_history` (places,
reasons, piles, kinds of history, periods), resolved when the text is compiled."""

from __future__ import annotations

from typing import Any

from ..core.vocab import DAMAGE_KINDS, HISTORY_CARDS, PERIODS, PILE, PLACES, REASONS
from ..syntax import ast
from ..syntax.diagnostics import did_you_mean
from ..syntax.names import normalize
from . import schema

VISIBILITY = {"public": True, "private": False}
FIXED_PLACES = tuple(p for p in PLACES if p != "pile")
WORD_ONLY = ("place", "pile", "reason", "history_kind", "damage_kind", "period", "general_slot",
             "area")  # never computed
AREAS = {"hand": "hand", "equip": "equip", "judge": "judge", "手牌": "hand", "裝備區": "equip", "判定區": "judge"}


def declare_piles(c: Any, skills: list[ast.SkillDef]) -> None:
    """Every `pile NAME[, public|private];` of every skill, before any text is compiled: a
    pile may be read by another skill than the one that declares it."""
    for d in skills:
        for m in d.members:
            if isinstance(m, ast.Prop) and m.name.text == "pile":
                _declare(c, m)


def _declare(c: Any, m: ast.Prop) -> None:
    usage = "`pile 權;` (everyone sees it) or `pile 權, private;` (only its owner does)"
    if not m.values or len(m.values) > 2 or not all(isinstance(v, ast.Name) for v in m.values):
        c.error(m.span, "a pile is declared with a name and, optionally, who sees it", usage)
        return
    name = m.values[0]
    public = True
    if len(m.values) == 2:
        word = m.values[1]
        if word.text not in VISIBILITY:
            c.error(word.span, f"unknown pile visibility '{word.text}'",
                    did_you_mean(word.text, VISIBILITY) or "public or private")
            return
        public = VISIBILITY[word.text]
    taken = set(schema.ZONES) | set(PLACES)
    if name.text in taken:
        c.error(name.span, f"'{name.text}' names a zone already; a pile needs a name of its own", usage)
        return
    key = normalize(name.text)
    known = c.piles.get(key)
    if known is not None and known[1] != public:
        c.error(m.span, f"pile '{name.text}' is declared both public and private",
                "declare it the same way in every skill that names it")
        return
    c.piles.setdefault(key, (known[0] if known else name.text, public))


def pile_table(c: Any) -> dict[str, bool]:
    """Pile name -> public, for the engine (which hides a private pile's cards from others)."""
    return dict(c.piles.values())


def pile_zones(c: Any) -> dict[str, str]:
    """Each declared pile by the name written (either script) -> its zone `pile:NAME`."""
    zones = {}
    for key, (name, _public) in c.piles.items():
        zones[key] = zones[name] = PILE + name
    return zones


def domains(c: Any) -> dict[str, dict[str, str]]:
    """The name domains of G2's builtins: a bare word argument is looked up here."""
    piles = pile_zones(c)
    return {
        "zone": {**{z: z for z in schema.ZONES}, **piles},
        "place": {**{p: p for p in FIXED_PLACES}, **piles},
        "pile": piles,
        "reason": {r: r for r in REASONS},
        "history_kind": {k: k for k in HISTORY_CARDS},
        "damage_kind": {k: k for k in DAMAGE_KINDS},
        "period": {p: p for p in PERIODS},
        "general_slot": {"head": "head", "deputy": "deputy", "主將": "head", "副將": "deputy"},
        "area": AREAS,
    }


def view_as_zone(c: Any, zone: str) -> str | None:
    """The zone a `view_as ... in ZONE` takes cards from: its own zones or a pile."""
    if zone in ("hand", "hand_equip", "equip"):
        return zone
    return pile_zones(c).get(zone) or pile_zones(c).get(normalize(zone))
