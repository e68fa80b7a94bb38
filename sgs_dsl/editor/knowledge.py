"""What the editor says about a word: hover text and completions, read from the language's own
tables (the window table, the schema of fields and builtins, the grammar's keywords) and from
the compiled library (`sgs explain`'s information). No LSP types here: `lsp.py` wraps them."""

from __future__ import annotations

import functools
import re
from typing import Any

import attrs

from ..compiler import schema
from ..compiler.misreads import SKILL_TAGS
from ..core.windows import WINDOW_BY_ID, WINDOWS, WindowSpec
from ..resources import data_dir
from ..syntax.names import normalize

#: the variables every text has, besides a window's payload
_ALWAYS = {"you": "player"}


@functools.lru_cache(maxsize=1)
def _windows_by_key() -> dict[str, WindowSpec]:
    table = {w.id: w for w in WINDOWS}
    table.update({normalize(w.zh): w for w in WINDOWS})
    return table


def window(word: str) -> WindowSpec | None:
    return WINDOW_BY_ID.get(word) or _windows_by_key().get(normalize(word))


def window_hover(w: WindowSpec) -> str:
    """A window's payload (each variable's fields and types) and its place in the timing order."""
    order = list(WINDOWS)
    i = order.index(w)
    same = [x for x in order if x.process == w.process]
    j = same.index(w)
    out = [f"**window `{w.id}`** {w.zh}", "",
           f"process `{w.process}`: window {j + 1} of {len(same)} "
           f"({' → '.join(('**' + x.id + '**') if x is w else x.id for x in same)}); "
           f"{i + 1} of {len(order)} in the table"]
    variables = schema.PAYLOAD_VARS.get(w.payload, {})
    if variables:
        out += ["", "payload:"]
        for var, vtype in variables.items():
            fields = schema.FIELDS.get(schema.base_type(vtype), {})
            shown = ", ".join(f"{f}: {t}" for f, (t, _) in fields.items())
            out.append(f"- `{var}`: {vtype}" + (f" ({shown})" if shown else ""))
    out += ["", f"polled: {w.polled}"]
    if w.mutable:
        out.append(f"may change: {', '.join(w.mutable)}")
    if w.cancellable:
        out.append("cancellable")
    if w.note:
        out.append(f"note: {w.note}")
    return "\n".join(out)


def signature(b: schema.Builtin) -> str:
    params = [f"{p.name}: {p.type}" for p in b.params]
    keywords = [f"{k}: {t} = {d!r}" for k, (t, d) in b.keywords.items()]
    inside = ", ".join(params + ([f"*, {', '.join(keywords)}"] if keywords else []))
    return f"{b.name}({inside}) -> {b.returns}"


def builtin_hover(b: schema.Builtin) -> str:
    kind = "function" if b.name in schema.READS else "effect"
    return f"```\n{signature(b)}\n```\n{kind}: {b.doc}"


def explain_hover(library: Any, word: str) -> str:
    """`sgs explain WORD`'s text for the skills, cards and heroes so named, or ''."""
    from .. import catalog

    found = catalog.lookup(library, word)
    return "\n\n---\n\n".join("```\n" + "\n".join(catalog.render(catalog.explain(library, f))) + "\n```"
                              for f in found)


def field_type(chain: list[str]) -> str:
    """The type of `a.b.c` from its variable's (any payload's) type through the field tables; ''."""
    if not chain:
        return ""
    variables = dict(_ALWAYS)
    for table in (schema.CARD_BLOCK_VARS, *schema.PAYLOAD_VARS.values()):
        for var, vtype in table.items():
            variables.setdefault(var, vtype)
    current = variables.get(chain[0], "")
    for name in chain[1:]:
        fields = schema.FIELDS.get(schema.base_type(current), {})
        if name not in fields:
            return ""
        current = fields[name][0]
    return current


def field_hover(chain: list[str]) -> str:
    owner = field_type(chain[:-1])
    t = field_type(chain)
    if not t:
        return ""
    mutable = chain[-1] in schema.MUTABLE.get(schema.base_type(owner), set())
    return f"field `{chain[-1]}` of {schema.base_type(owner)}: {t}" + (" (a `set` may change it)" if mutable else "")


@attrs.frozen
class Item:
    label: str
    kind: str  # window / function / effect / field / card / skill / hero / zone / phase / tag / keyword
    detail: str = ""
    doc: str = ""


def field_items(chain: list[str]) -> list[Item]:
    """The fields after `a.b.`: of its type when known, else of a player and a card."""
    t = schema.base_type(field_type(chain))
    tables = [t] if t in schema.FIELDS else ["player", "card"]
    return [Item(name, "field", f"{table}.{name}: {ftype}") for table in tables
            for name, (ftype, _) in schema.FIELDS[table].items()]


def window_items() -> list[Item]:
    out = []
    for w in WINDOWS:
        out.append(Item(w.id, "window", f"{w.zh} ({w.process})", window_hover(w)))
        out.append(Item(w.zh, "window", f"{w.id} ({w.process})", window_hover(w)))
    return out


def builtin_items() -> list[Item]:
    return [Item(b.name, "function" if b.name in schema.READS else "effect", signature(b), b.doc)
            for b in schema.BUILTINS.values()]


def word_items() -> list[Item]:
    """Zones, phases, tags and the keywords of the grammar."""
    out = [Item(z, "zone", "zone") for z in schema.ZONES]
    out += [Item(p, "phase", f"phase {schema.PHASE_NAMES[p]}") for p in schema.PHASE_NAMES]
    out += [Item(t, "tag", "skill tag") for t in SKILL_TAGS]
    out += [Item(k, "keyword", "keyword") for k in keywords("sgs.lark")]
    return out


def name_items(library: Any) -> list[Item]:
    """Card, skill and hero names, each in both scripts when they differ, and their ids."""
    out: list[Item] = []
    seen: set[tuple[str, str]] = set()
    tables = (("card", library.cards.values()), ("skill", library.skills.values()),
              ("hero", [*library.heroes.values(), *library.generals.values()]))
    for kind, items in tables:
        for item in items:
            text = getattr(item, "text", "") or ""
            for label in (item.name, normalize(item.name), item.id):
                if (kind, label) not in seen:
                    seen.add((kind, label))
                    out.append(Item(label, kind, f"{kind} {item.name} ({item.id})", text))
    return out


def ruling_items() -> list[Item]:
    return [Item(k, "keyword", "ruling step or check") for k in keywords("ruling.lark")]


@functools.lru_cache(maxsize=2)
def keywords(grammar: str) -> tuple[str, ...]:
    """The words a grammar spells out (`"skill"`, `"on"`, `"invokes"`), in order of appearance."""
    text = (data_dir("grammar") / grammar).read_text(encoding="utf-8")
    words = re.findall(r'"([a-z_]+)"', "\n".join(line.split("//")[0] for line in text.splitlines()))
    return tuple(dict.fromkeys(words))
