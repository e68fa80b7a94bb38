"""The generated part of docs/language.md: tables made from the closed schema, so the
reference lists exactly what the checker accepts.

    python -m sgs_dsl.compiler.reference            # print the tables
    python -m sgs_dsl.compiler.reference --write    # refresh them inside docs/language.md
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..core.windows import WINDOWS
from . import schema

BEGIN = "<!-- BEGIN GENERATED: python -m sgs_dsl.compiler.reference --write -->"
END = "<!-- END GENERATED -->"

# What each pattern word matches (the checker's PATTERN_WORDS are functions).
PATTERN_DOCS = {
    "any": "any card",
    "red": "a red card (♥ ♦)",
    "black": "a black card (♠ ♣)",
    "basic": "a basic card",
    "trick": "a trick, delayed or not",
    "delayed": "a delayed trick",
    "ordinary": "an ordinary trick (普通錦囊): a trick that is not delayed",
    "equip": "an equipment card",
    "weapon": "a weapon",
    "armor": "an armour",
    "horse": "a horse (+1 or -1)",
    "fire": "a card of fire nature",
    "thunder": "a card of thunder nature",
    "normal": "a card without nature",
}

# What a value type is, for the fields table.
TYPE_DOCS = {
    "player": "a player (角色)",
    "card": "a card: a real card, or a virtual / converted one while it is being used",
    "use": "one use of a card (使用): the card, who used it, its targets, and values set on it",
    "damage": "one damage event (傷害)",
    "judge": "one judgement (判定)",
    "asked": "a request to use or play a card (需要使用或打出)",
    "dying": "a player in the dying state (瀕死), or a death (`death`)",
    "phase": "a phase of a turn, or the turn itself (`turn`)",
    "recover": "a recovery (回復體力), or a loss of hp (`lose`)",
    "move": "a card leaving a player's hand or equipment (失去牌)",
}
TYPE_DOCS["change"] = "a change of a player's hp or max hp (體力值改變, 體力上限改變): who, by how much, by which damage"
TYPE_DOCS["discarded"] = "cards entering the discard pile together from one place (置入棄牌堆): where from, whose, why"
TYPE_DOCS["fight"] = "a point fight (拼點): both players, their cards and ranks, the result"
TYPE_DOCS["question"] = "a face-down card questioned (質疑): its user, the card declared and turned up, the outcome"

TYPE_WORDS = {
    "player": "player", "player?": "player or none", "int": "number", "bool": "true/false", "str": "text",
    "card": "card", "card?": "card or none", "cards": "list of cards", "players": "list of players",
    "use": "use", "use?": "use or none", "damage": "damage", "damage?": "damage or none", "judge": "judge",
    "pattern": "card name", "nature": "nature", "phase": "phase name", "zone": "zone", "slot": "slot",
    "any": "anything", "none": "nothing", "asked": "asked", "dying": "dying", "recover": "recover",
}
TYPE_WORDS.update({"fight": "fight", "fight?": "fight or none"})
TYPE_WORDS.update({"question": "question", "change": "hp change", "discarded": "cards discarded", "origin": "origin"})

# player state and skills as state
TYPE_WORDS.update({"phase_name": "phase name", "phase_name?": "phase name or none", "kingdom": "kingdom",
                   "gender": "gender", "state": "state name (text)", "state_value": "value of the state's type",
                   "skill": "skill name", "hero": "hero name", "scope": "phase, turn or round"})

# the name domains of `move`, `pile`, `history` (see "Moving cards, piles, history")
TYPE_WORDS.update({"general_slot": "head or deputy"})
TYPE_WORDS.update({"suit": "suit", "color": "colour", "card_type": "card type", "move_zone": "hand or equip",
                   "card_name": "card name (text)", "role": "role", "asked_mode": "use or play"})
TYPE_WORDS.update({"place": "place", "reason": "reason", "pile": "pile name", "history_kind": "history kind",
                   "damage_kind": "dealt or taken", "period": "phase, turn or round"})
TYPE_WORDS.update({"list": "list", "card_or_cards": "card or list of cards"})  # count; gain, give, throw


def _t(t: str) -> str:
    return TYPE_WORDS.get(t, t)


def _value_type(t: str) -> str:
    """A variable's type: the value types keep their names (a `phase` variable is a phase event)."""
    base = schema.base_type(t)
    if base in schema.FIELDS:
        return base + (" or none" if t.endswith("?") else "")
    return _t(t)


def _default(value: object) -> str:
    if value == "default":
        return "the user / you"
    if value is None or value == "":
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _signature(b: schema.Builtin) -> str:
    params = []
    for i, p in enumerate(b.params):
        text = f"{p.name}: {_t(p.type)}"
        params.append(f"[{text}]" if i >= b.required else text)
    for key, (ktype, default) in b.keywords.items():
        params.append(f"{key}: {_t(ktype)} = {_default(default)}")
    return f"`{b.name}({', '.join(params)})`"


def builtins_table() -> list[str]:
    rows = ["| effect / function | returns | what it does |", "|---|---|---|"]
    for b in sorted(schema.BUILTINS.values(), key=lambda b: b.name):
        doc = b.doc.replace("|", "\\|")
        if b.needs:
            doc += f" (only where `{b.needs}` is known)"
        rows.append(f"| {_signature(b)} | {_t(b.returns)} | {doc} |")
    return rows


def fields_table() -> list[str]:
    rows = ["| type | field | value | `set` may change it |", "|---|---|---|---|"]
    for type_name, fields in schema.FIELDS.items():
        for name, (ftype, _) in fields.items():
            mutable = "yes" if name in schema.MUTABLE.get(type_name, ()) else ""
            rows.append(f"| `{type_name}` | `{name}` | {_t(ftype)} | {mutable} |")
    return rows


def types_table() -> list[str]:
    rows = ["| type | what it is |", "|---|---|"]
    for name in schema.FIELDS:
        rows.append(f"| `{name}` | {TYPE_DOCS[name]} |")
    return rows


def trigger_variables_table() -> list[str]:
    rows = ["| payload | variables in a trigger (besides `you`) | windows |", "|---|---|---|"]
    for payload, variables in schema.PAYLOAD_VARS.items():
        windows = [w.id for w in WINDOWS if w.payload == payload]
        names = ", ".join(f"`{k}` ({_value_type(v)})" for k, v in variables.items()) or "—"
        rows.append(f"| `{payload}` | {names} | {', '.join(f'`{w}`' for w in windows) or '—'} |")
    return rows


def names_tables() -> list[str]:
    def table(title: str, head: str, items: list[tuple[str, str]]) -> list[str]:
        return [f"**{title}**", "", f"| {head} | meaning |", "|---|---|",
                *[f"| `{k}` | {v} |" for k, v in items], ""]

    out: list[str] = []
    out += table("Card types", "type", [(t, _CARD_TYPE_DOCS[t]) for t in schema.CARD_TYPES])
    out += table("Card properties", "property", [(k, _CARD_PROP_DOCS[k] + f" ({_t(v)})")
                                                 for k, v in schema.CARD_PROPS.items()])
    out += table("Use contexts (`use CONTEXT[: TARGETS];`)", "context", list(schema.USE_CONTEXTS.items()))
    out += table("Target words", "words", [(" ".join(k), _TARGET_DOCS[v]) for k, v in schema.TARGET_WORDS.items()])
    out += table("Blocks of a card", "block", list(schema.BLOCKS.items()))
    out += table("Modifiers (`modify NAME[(PATTERN)] = | += | -= VALUE [when COND];`)", "modifier",
                 list(schema.MODIFIERS.items()))
    out += table("Pattern words", "word", [(k, PATTERN_DOCS.get(k) or f"a {schema.SUIT_WORDS[k]} card")
                                           for k in schema.PATTERN_WORDS])
    out += table("Natures (`nature:` option, `nature` property)", "name",
                 [(k, f"= {v}") for k, v in schema.NATURES.items()])
    out += table("Phases (`skip(p, PHASE)`)", "name", [(k, f"= {v}") for k, v in schema.PHASE_NAMES.items()])
    out += table("Zones (`pick(p, q, ZONE)`, `discard(from: ZONE)`)", "zone",
                 [(z, _ZONE_DOCS[z]) for z in schema.ZONES])
    out += table("Equipment slots (`discard(keep: SLOT)`)", "slot", [(s, f"the {s.replace('_', ' ')} slot")
                                                                      for s in schema.SLOTS])
    return out


_CARD_TYPE_DOCS = {
    "basic": "basic card (基本牌)",
    "trick": "instant trick (錦囊牌)",
    "delayed": "delayed trick (延時錦囊): goes to the target's judge area, resolves in its judge phase",
    "weapon": "weapon (武器): has `range`, may carry triggers, modifiers, view_as",
    "armor": "armour (防具): may carry triggers, modifiers, view_as; stops working while ignored",
    "offense_horse": "-1 horse (進攻馬)",
    "defense_horse": "+1 horse (防禦馬)",
}
_CARD_PROP_DOCS = {
    "range": "a weapon's attack range",
    "limit": "how many times it may be used per play phase",
    "distance": "the greatest distance to a target (e.g. 1)",
    "nature": "the card's nature: normal, fire or thunder",
    "like": "this card is a kind of another: it is that card for limits and answers, and takes its uses and blocks unless it says its own",
    "targets": "how many targets a `one` / `one other` use may choose (default 1)",
    "recast": "it may be recast (重鑄) in the play phase: into the discard pile, then draw this many",
}
_TARGET_DOCS = {
    "self": "the user", "one": "one player, the user included", "one_other": "one other player",
    "all": "every living player, from the user in seat order", "all_others": "every other living player",
    "dying": "the dying player",
}
_ZONE_DOCS = {
    "hand": "hand cards", "equip": "equipment", "judge": "judge area", "hand_equip": "hand and equipment",
    "area": "hand, equipment and judge area (區域)", "horses": "the horses", "weapon": "the weapon",
    "armor": "the armour",
}


def markdown() -> str:
    parts = [
        BEGIN,
        "",
        "### Effects and functions",
        "",
        "Arguments in `[brackets]` may be left out; `name: value` options come after the arguments.",
        "",
        *builtins_table(),
        "",
        "### Value types",
        "",
        *types_table(),
        "",
        "Besides these: numbers, true/false, text, `none`, lists of players and lists of cards. A type",
        "written \"X or none\" may be `none` (test it with `== none` / `!= none`).",
        "",
        "### Fields",
        "",
        *fields_table(),
        "",
        "### Variables of a trigger, by window payload",
        "",
        *trigger_variables_table(),
        "",
        "### Names the checker knows",
        "",
        *names_tables(),
        END,
    ]
    return "\n".join(parts) + "\n"


def refresh(path: Path) -> bool:
    """Rewrite the generated part of a document; True if it changed."""
    text = path.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END) + 1
    new = text[:start] + markdown() + text[end:]
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


def generated_part(text: str) -> str:
    start, end = text.index(BEGIN), text.index(END) + len(END) + 1
    return text[start:end]


if __name__ == "__main__":  # pragma: no cover
    if "--write" in sys.argv:
        doc = Path(__file__).resolve().parents[2] / "docs" / "language.md"
        print("updated" if refresh(doc) else "up to date", doc)
    else:
        sys.stdout.write(markdown())
