"""Text the grammar accepts but that cannot mean what it says: a skill whose id is a tag word,
a property, clause or tag given twice, a card pattern that can never match, a `let` of a
reserved word. Each is a located error with the fix in its hint."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import attrs

from ..core.vocab import SCOPES
from ..syntax import ast
from . import schema
from .state_check import GENDERS

# head/deputy: 主將技/副將技; while_hidden: acts on a face-down general; show_in_play: its general
# may be shown in the play phase (國戰)
SKILL_TAGS = ("locked", "lord", "limited", "wake", "head", "deputy", "while_hidden", "show_in_play")
RESERVED = ("true", "false", "none", "you", "unlimited")  # values, not names a `let` may take

# pattern words that say which type a card is, and the card types each allows
_TYPE_WORDS = {"basic": {"basic"}, "trick": {"trick", "delayed"}, "delayed": {"delayed"}, "ordinary": {"trick"},
               "equip": {"weapon", "armor", "offense_horse", "defense_horse"}, "weapon": {"weapon"},
               "armor": {"armor"}, "horse": {"offense_horse", "defense_horse"}}
_COLOURS = {"red": {"heart", "diamond"}, "black": {"spade", "club"}}
_NATURES = ("fire", "thunder", "normal")


def skill_id(c: Any, d: ast.SkillDef) -> None:
    """`skill 激將 lord {`: the grammar reads `lord` as the id and the tag is lost."""
    if d.id.text in SKILL_TAGS:
        c.error(d.id.span, f"the skill '{d.name.text}' has no id: '{d.id.text}' is a skill tag",
                f"write the id before the tags: `skill {d.name.text} some_id {d.id.text} {{`")


def twice(c: Any, names, what: str) -> None:
    """A tag, property or clause written twice: the second one would be lost or added silently."""
    seen: dict[str, Any] = {}
    for name in names:
        first = seen.get(name.text)
        if first is not None:
            c.error(name.span, f"{what} '{name.text}' is given twice",
                    f"first given at line {first.line}, column {first.column}; write it once")
        else:
            seen[name.text] = name.span


def use_clauses(c: Any, members) -> None:
    """Two `use` clauses of one context: the engine would keep one of them."""
    twice(c, [m.context for m in members if isinstance(m, ast.UseClause)], "the use clause")


def let_name(c: Any, name: ast.Name) -> None:
    """`let true = 0`, `let you = ...`, `let draw = 1`: a value or an effect's name, not a variable."""
    if name.text in RESERVED or name.text in schema.BUILTINS:
        what = "an effect or function" if name.text in schema.BUILTINS else "a reserved word"
        c.error(name.span, f"'{name.text}' is {what}: it cannot be a variable's name",
                f"give the variable another name, e.g. `let my_{name.text} = ...`")


def variable_name(c: Any, name: ast.Name) -> None:
    """`let hand = ...`, `for judge in ...`: a variable named as a word an argument reads (a
    zone, a phase, a nature, a pile, a gender, ...) would be read where the word was meant
    (`cards_of(p, hand)`), or the word where the variable was: either way not what was written."""
    kinds = list(dict.fromkeys(what for what, table in _words(c) if name.text in table))
    if kinds:
        named = ", ".join(("an " if k[0] in "aeiou" else "a ") + k for k in kinds)
        c.error(name.span, f"'{name.text}' is a word of the language ({named}): it cannot be a variable's name", f"give the variable another name, e.g. `{name.text}_1` or a word for what it holds")


def _words(c: Any) -> list[tuple[str, Any]]:
    found = [(what.replace("_", " "), table) for what, table in c.name_domains().items()]
    return [*found, ("gender", GENDERS), ("kingdom", schema.KINGDOMS), ("scope", SCOPES)]


def pattern_term(c: Any, term: tuple[ast.PatAtom, ...]) -> None:
    """Atoms of one pattern term must all hold of one card: two card names that are not one
    another, two colours, a suit of the other colour, two types that exclude each other."""
    problem = _contradiction(c, term)
    if problem:
        first, last = term[0].span, term[-1].span
        c.error(first, f"this pattern can never match: {problem}",
                "a term's words must all hold of one card; `|` separates alternatives: `red | basic`"
                if last.line == first.line else "")


def _contradiction(c: Any, term) -> str:
    # each card once: the pairs below are of distinct cards, so a term of any length costs
    # at most (cards in the library)^2
    kinds = list({k.name: k for k in (_kind(c, a) for a in term) if k is not None}.values())
    for i, a in enumerate(kinds):
        for b in kinds[i + 1:]:
            if not (a.is_a(b.name) or b.is_a(a.name)):
                return f"a card cannot be both {a.name} and {b.name}"
    words = [a.text for a in term if a.kind == "name" and a.text in schema.PATTERN_WORDS]
    suits = {a.text for a in term if a.kind == "suit"} | {schema.SUIT_WORDS[w] for w in words if w in schema.SUIT_WORDS}
    if len(suits) > 1:
        return "a card has one suit, not " + " and ".join(sorted(suits))
    colours = [w for w in words if w in _COLOURS]
    if len(set(colours)) > 1:
        return "a card cannot be both red and black"
    for colour in colours:
        if suits and not suits <= _COLOURS[colour]:
            return f"a {suits.pop()} card is not {colour}"
    types = [_TYPE_WORDS[w] for w in words if w in _TYPE_WORDS] + [{k.type} for k in kinds]
    if types and not set.intersection(*types):
        return "no card type is all of " + ", ".join(w for w in words if w in _TYPE_WORDS) + (
            " and " + ", ".join(k.name for k in kinds) if kinds else "")
    if len({w for w in words if w in _NATURES}) > 1:
        return "a card has one nature"
    return ""


def _kind(c: Any, atom: ast.PatAtom):
    if atom.kind != "name" or atom.text in schema.PATTERN_WORDS:
        return None
    return c.find_card(atom.text, atom.span)


def unused_lets(c: Any, body) -> None:
    """A `let` whose variable is never read: often a misspelt name that silently defined a new
    variable (a warning: the text still loads)."""
    nodes = _nodes(body)
    read = {node.name for node in nodes if isinstance(node, ast.Var)}
    read |= {node.path[0].text for node in nodes if isinstance(node, ast.Set)}
    for node in nodes:
        if isinstance(node, ast.Let) and node.name.text not in read:
            c.warn(node.name.span, f"the variable '{node.name.text}' is never read",
                   "use it, or drop the `let` (is a later use of it misspelt?)")


def unused_states(c: Any, members: Sequence[Any]) -> None:
    """A `state` the skill never names (no `remember` or `recall` of it): a declaration that does
    nothing, or a misspelt name at its uses (a warning: the text still loads)."""
    named = {node.value for m in members if not isinstance(m, ast.StateDecl)
             for node in _nodes(m) if isinstance(node, ast.Str)}
    for m in members:
        if isinstance(m, ast.StateDecl) and m.name.text not in named:
            c.warn(m.name.span, f"the state '{m.name.text}' is never remembered or recalled",
                   f'use it (`remember(you, "{m.name.text}", VALUE)`, `recall(you, "{m.name.text}")`), or drop it')


def empty_skill(c: Any, name: str, members: Sequence[Any], span: Any) -> None:
    """A skill that says nothing, or a trigger or action whose body is empty: loaded, it would do
    nothing (a warning: an unfinished skill still loads while it is written)."""
    if not members:
        c.warn(span, f"the skill '{name}' is empty: it does nothing",
               "write what it does: a trigger (`on WINDOW { ... }`), an action (`active { ... }`), a modifier, ...")
    for m in members:
        if isinstance(m, (ast.Trigger, ast.Active)) and not m.body:
            what = "trigger" if isinstance(m, ast.Trigger) else "action"
            c.warn(m.span, f"this {what} of '{name}' has an empty body: it does nothing",
                   "write its effects between the braces, or drop it")


def whole_move_zone(c: Any, m: Any, window: str, each_card: bool) -> None:
    """`move.zone` in a cards-lost trigger heard once for the whole loss: one loss may take
    cards from the hand and the equipment area at once, so it would read the first card's."""
    if window != "cards_lost" or each_card:
        return
    for node in _nodes((m.cond, m.body)):
        if isinstance(node, ast.Field) and node.name == "zone" and isinstance(node.obj, ast.Var) and (
                node.obj.name == "move"):
            c.error(node.span, "one loss may take cards from the hand and the equipment area at once: "
                    "`move.zone` is the zone of one card",
                    "ask which cards went: `count(move.hand) > 0`, `count(move.equip) > 0`; or hear the "
                    "move card by card with `each_card`, where `move.zone` is that card's")
            return


def _nodes(node) -> list:
    """Every AST node under `node` (a tuple of statements, a statement, an expression), in
    source order: a loop over a stack, not a generator per level of the tree."""
    found = []
    stack = [node]
    pop, push, fields_of = stack.pop, stack.extend, _node_fields
    while stack:
        item = pop()
        kind = type(item)
        if kind is tuple:
            push(item[::-1])
        elif kind is not str and kind is not int and item is not None:
            fields = fields_of(kind)
            if fields is not None:
                found.append(item)
                push([getattr(item, name) for name in fields[::-1]])
    return found


@functools.cache
def _node_fields(cls: type) -> tuple[str, ...] | None:
    """The fields of an AST node class but its span; None for a class that is no node."""
    return tuple(f.name for f in attrs.fields(cls) if f.name != "span") if attrs.has(cls) else None
