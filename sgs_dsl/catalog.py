"""What `sgs heroes` and `sgs explain` show: heroes as rows, and one skill, card or hero
explained from its compiled definition and its source text."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import attrs

from .core.names import qualified
from .modes import make_mode

TAG_ZH = {"locked": "鎖定技", "lord": "主公技", "limited": "限定技", "wake": "覺醒技", "head": "主將技", "deputy": "副將技",
          "while_hidden": "暗置時亦生效", "show_in_play": "出牌階段可明置"}
KINGDOM_ZH = {"wei": "魏", "shu": "蜀", "wu": "吳", "qun": "群", "god": "神"}
GENDER_ZH = {"male": "男", "female": "女"}


# --- heroes --------------------------------------------------------------------------------------


def heroes_of(library: Any, ruleset: str | None) -> list[Any]:
    """The heroes of a ruleset's hero packages, or every hero of the library for None."""
    if ruleset is None:
        return list(library.heroes.values())
    rules = library.ruleset(ruleset)
    return make_mode(rules).hero_pool(library, rules.heroes)  # 國戰: its general cards


def hero_skills(library: Any, ruleset: str) -> dict[str, list[str]]:
    """Each hero of a ruleset (by key) and the keys of the skills it plays there (none where the mode
    plays no skills), for the statistics of a batch."""
    rules = library.ruleset(ruleset)
    mode = make_mode(rules)
    return {h.key: [s.key for s in h.skills if mode.plays_skill(s)] for h in mode.hero_pool(library, rules.heroes)}


def shown_skills(library: Any, keys: Any) -> dict[str, str]:
    """How a report names each skill of `keys` (core/names.py): by its printed name where no
    other skill of `keys` prints it, else by its key (`standard.離間`)."""
    skills = {k: library.skills.get(k) for k in keys}
    names = [s.name for s in skills.values() if s is not None]
    return {k: s.name if s is not None and names.count(s.name) == 1 else k for k, s in skills.items()}


def lord_names(library: Any, ruleset: str | None) -> set[str]:
    """The heroes the lord may always choose: of one ruleset, or of any."""
    rulesets = [library.ruleset(ruleset)] if ruleset is not None else library.rulesets.values()
    return {name for r in rulesets for name in getattr(r, "lords", ())}


def hero_row(hero: Any, lords: set[str]) -> dict[str, Any]:
    row = {
        "name": hero.name,
        "key": hero.key,  # the name, or package.name when two packages print it
        "id": hero.id,
        "kingdom": hero.kingdom,
        "gender": hero.gender,
        "hp": hero.hp if hasattr(hero, "hp") else hero.hp_half / 2,  # a general: yin-yang fish
        "package": getattr(hero, "package", ""),
        "lord_candidate": hero.key in lords,
        "skills": [{"name": s.name, "key": s.key, "id": s.id, "tags": list(s.tags)} for s in hero.skills],
    }
    if hasattr(hero, "hp_half"):
        row |= {"hp_half": hero.hp_half, "companions": sorted(hero.companions)}
    return row


def skill_label(name: str, tags: Any) -> str:
    return name + "".join(f"[{TAG_ZH.get(t, t)}]" for t in tags)


def hero_table_rows(rows: list[dict[str, Any]]) -> list[list[str]]:
    """One row per hero; 國戰 generals also name their companions (珠聯璧合)."""
    generals = any("companions" in r for r in rows)
    return [
        [
            r.get("key", r["name"]) + ("*" if r["lord_candidate"] else ""),
            r["id"],
            KINGDOM_ZH.get(r["kingdom"], r["kingdom"]),
            GENDER_ZH.get(r["gender"], r["gender"]),
            f"{r['hp']:g}",
            "、".join(skill_label(s["name"], s["tags"]) for s in r["skills"]) or "—",
        ] + (["、".join(r.get("companions", ())) or "—"] if generals else [])
        for r in rows
    ]


def hero_headers(rows: list[dict[str, Any]]) -> list[str]:
    return HERO_HEADERS + (["companions"] if any("companions" in r for r in rows) else [])


HERO_HEADERS = ["name", "id", "kingdom", "gender", "hp", "skills"]


# --- explain -------------------------------------------------------------------------------------


@attrs.frozen
class Found:
    what: str  # skill / card / hero
    item: Any


def _keys(library: Any) -> dict[str, list[Found]]:
    from .syntax.names import normalize

    table: dict[str, list[Found]] = {}

    def add(key: str, found: Found) -> None:
        entries = table.setdefault(normalize(key), [])
        if not any(f.item is found.item for f in entries):
            entries.append(found)

    for skill in library.skills.values():  # by its name, its id, and either with its package
        for spelling in (skill.name, skill.id, qualified(skill), f"{skill.package}.{skill.id}"):
            add(spelling, Found("skill", skill))
    for skill in library.skills.values():  # 空城 also finds 空城·國, its 國戰 wording
        if "·" in skill.name:
            add(skill.name.split("·")[0], Found("skill", skill))
    for card in library.cards.values():  # by its name, its id, and either with its package
        for spelling in (card.name, card.id, qualified(card), f"{card.package}.{card.id}"):
            add(spelling, Found("card", card))
    for hero in [*library.heroes.values(), *library.generals.values()]:  # 國戰 generals too
        add(hero.name, Found("hero", hero))
        add(hero.id, Found("hero", hero))
    return table


def lookup(library: Any, name: str) -> list[Found]:
    """Everything named `name` (either script, or the pinyin id): skills, cards, heroes."""
    from .syntax.names import normalize

    return list(_keys(library).get(normalize(name), ()))


def suggestion(library: Any, name: str) -> str:
    from .syntax.diagnostics import did_you_mean

    names = [s.name for s in library.skills.values()] + [c.name for c in library.cards.values()]
    names += [h.name for h in library.heroes.values()]
    ids = [s.id for s in library.skills.values()] + [c.id for c in library.cards.values()]
    ids += [h.id for h in library.heroes.values()]
    return did_you_mean(name, names) or did_you_mean(name, ids)


@functools.lru_cache(maxsize=32)
def _lines(path: str) -> tuple[str, ...]:
    try:
        return tuple(Path(path).read_text(encoding="utf-8").splitlines())
    except (OSError, UnicodeDecodeError):
        return ()


def source_line(span: Any) -> str:
    lines = _lines(str(span.file))
    return lines[span.line - 1].strip() if 0 < span.line <= len(lines) else ""


def where(span: Any) -> str:
    """file:line: a built-in file as the repository names it (`heroes/standard.sgs`, wherever
    the package is installed), another relative to the working folder when it is below it."""
    from .resources import repository_path

    path = Path(str(span.file))
    shipped = repository_path(path)
    if shipped is not None:
        return f"{shipped}:{span.line}"
    try:
        path = path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        pass
    return f"{path}:{span.line}"


def _members(span: Any) -> list[Any]:
    """The syntax-tree members of the definition at `span` (for the source line of each)."""
    from .compiler.library import parse_file

    try:
        module = parse_file(Path(str(span.file)))
    except Exception:  # the text changed since it was loaded: explain from the compiled form only
        return []
    for d in module.definitions:
        if d.span.line == span.line and d.span.column == span.column:
            return list(getattr(d, "members", ()))
    return []


def _member_lines(span: Any, kind: str) -> list[tuple[str, str]]:
    """(file:line, source line) of each member of a syntax-tree class named `kind`."""
    return [(where(m.span), source_line(m.span)) for m in _members(span) if type(m).__name__ == kind]


def skill_info(skill: Any, library: Any) -> dict[str, Any]:
    from .core.windows import WINDOW_BY_ID

    windows = []
    for window, triggers in skill.triggers.items():
        spec = WINDOW_BY_ID.get(window)
        for t in triggers:
            windows.append({
                "id": window,
                "name": spec.zh if spec is not None else "",
                "optional": bool(t.optional),
                "conditional": t.cond is not None,
                "source": where(t.span),
                "line": source_line(t.span),
            })
    modifier_lines = _member_lines(skill.span, "Modifier")
    modifiers = []
    for i, m in enumerate(skill.modifiers):
        source, line = modifier_lines[i] if i < len(modifier_lines) else ("", "")
        modifiers.append({"name": m.name, "op": m.op, "conditional": m.cond is not None, "source": source, "line": line})
    view_lines = _member_lines(skill.span, "ViewAs")
    view_as = []
    for i, v in enumerate(skill.view_as):
        source, line = view_lines[i] if i < len(view_lines) else ("", "")
        view_as.append({"card": v.kind_name, "declared": list(v.declared), "face_down": v.face_down,
                        "count": v.count, "zone": v.zone, "modes": list(v.modes), "source": source, "line": line})
    info: dict[str, Any] = {
        "kind": "skill",
        "name": skill.name,
        "id": skill.id,
        "package": skill.package,
        "qualified": qualified(skill),
        "text": skill.text,
        "source": where(skill.span),
        "tags": list(skill.tags),
        "windows": windows,
        "modifiers": modifiers,
        "view_as": view_as,
    }
    for kind, key in (("Active", "actives"), ("Forbid", "forbids"), ("FilterSkill", "filters"),
                      ("Equipped", "equipped"), ("Attach", "attached")):
        if getattr(skill, key, ()):
            info[key] = [{"source": s, "line": line} for s, line in _member_lines(skill.span, kind)]
    if getattr(skill, "from_card", ""):
        info["card"] = skill.from_card
    else:
        info["heroes"] = [h.name for h in library.heroes.values() if any(s is skill for s in h.skills)]
        info["generals"] = [g.name for g in library.generals.values() if any(s is skill for s in g.skills)]
    return info


def card_info(card: Any, library: Any) -> dict[str, Any]:
    info: dict[str, Any] = {
        "kind": "card",
        "name": card.name,
        "id": card.id,
        "package": card.package,
        "qualified": qualified(card),
        "type": card.type,
        "text": card.text,
        "source": where(card.span),
        "tags": [],
        "uses": [m.context + (f" ({m.target.kind})" if m.target is not None else "") for m in card.uses],
        "blocks": sorted(card.blocks),
    }
    if card.skill is not None:
        equip = skill_info(card.skill, library)
        for key in ("tags", "windows", "modifiers", "view_as", "actives", "forbids", "filters", "equipped",
                    "attached"):
            if equip.get(key):
                info[key] = equip[key]
    return info


def hero_info(hero: Any, library: Any) -> dict[str, Any]:
    return {
        "kind": "hero",
        **hero_row(hero, lord_names(library, None)),
        "source": where(hero.span),
        "tags": [],
    }


def explain(library: Any, found: Found) -> dict[str, Any]:
    return {"skill": skill_info, "card": card_info, "hero": hero_info}[found.what](found.item, library)


def render(info: dict[str, Any]) -> list[str]:
    """The text `sgs explain` prints for one skill, card or hero."""
    what = {"skill": "技能", "card": "卡牌", "hero": "武將"}[info["kind"]]
    out = [f"{what} {info['name']} ({info['id']})", f"source: {info['source']}"]
    if info["kind"] == "hero":
        out.append(f"kingdom: {KINGDOM_ZH.get(info['kingdom'], info['kingdom'])} ({info['kingdom']}), "
                   f"gender: {info['gender']}, hp: {info['hp']}, package: {info['package']}"
                   + (", lord candidate" if info["lord_candidate"] else ""))
        if "companions" in info:
            out.append("companions (珠聯璧合): " + ("、".join(info["companions"]) or "none"))
        out.append("skills: " + ("、".join(skill_label(s["name"], s["tags"]) for s in info["skills"]) or "none"))
        return out
    if info["kind"] == "card":
        out.append(f"type: {info['type']}")
    if info.get("package"):
        out.append(f"package: {info['package']} ({info['qualified']})")
    tags = info.get("tags") or []
    out.append("tags: " + (", ".join(f"{t} ({TAG_ZH.get(t, t)})" for t in tags) if tags else "none"))
    if info.get("heroes") is not None:
        out.append("heroes: " + ("、".join(info["heroes"]) or "none"))
    if info.get("generals"):
        out.append("generals (國戰): " + "、".join(info["generals"]))
    if info.get("card"):
        out.append(f"granted by: {info['card']}")
    out.append(f"text: {info['text']}" if info["text"] else "text: (none)")
    if info["kind"] == "card":
        out.append("uses: " + (", ".join(info["uses"]) or "none"))
        out.append("blocks: " + (", ".join(info["blocks"]) or "none"))
    windows = info.get("windows") or []
    out.append("windows:" if windows else "windows: none")
    for w in windows:
        flags = ", ".join(f for f, on in (("optional", w["optional"]), ("when ...", w["conditional"])) if on)
        out.append(f"  {w['id']} {w['name']}" + (f" ({flags})" if flags else "") + f"  at {w['source']}")
    for key, title in (("modifiers", "modifiers"), ("view_as", "view-as"), ("actives", "actives"),
                       ("forbids", "forbids"), ("filters", "filters"), ("equipped", "equipped"),
                       ("attached", "actions for others")):
        items = info.get(key) or []
        if key in ("modifiers", "view_as") or items:
            out.append(f"{title}:" if items else f"{title}: none")
        for m in items:
            if key == "modifiers":
                head = f"{m['name']} {m['op']}" + (" (when ...)" if m["conditional"] else "")
            elif key == "view_as":
                card = f"declared({'|'.join(m['declared'])})" if m["declared"] else m["card"]
                head = (f"{card} from {m['count']} in {m['zone']}" + (" face down" if m["face_down"] else "")
                        + f" for {'/'.join(m['modes'])}")
            else:
                head = ""
            tail = f"`{m['line']}` at {m['source']}" if m.get("line") else ""
            out.append("  " + "  ".join(p for p in (head, tail) if p))
    return out
