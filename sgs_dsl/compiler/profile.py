"""Effect profiles: what a card or a skill does to whom, read off its text by the effect
vocabulary (damage lowers hp, draw adds cards, ...), never by its name. Agents use them to
tell a harmful card from a helpful one and to value optional skills.

A profile scores three parties: the card's `target`, its `user` (a skill's owner, `you`),
and `other` (anyone else the text names: a chosen player, a damage source). Positive is
good for that party. Computed once per library, from the parsed text of its files.

A skill's profile also keeps the kingdoms its text names (a kingdom compared with a literal:
`p.kingdom == "wei"`): whom a lord skill calls on or favours, which players choosing their
heroes weigh (seed 003, 選擇武將)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from ..syntax import ast
from .schema import KINGDOMS

# per unit of the effect (its count argument when it is a number), for the party it names first
HARM_OR_HELP: dict[str, float] = {
    "damage": -2.0, "lose_hp": -2.0, "recover": 2.0, "draw": 1.0, "discard": -1.0,
    "skip": -2.0, "turn_over": -1.5, "chain": -0.5, "lose_max_hp": -2.0, "gain_max_hp": 2.0,
}
_EFFECTS = frozenset((*HARM_OR_HELP, "gain", "throw", "give"))  # the calls that change someone's state
TARGET, USER, OTHER = "target", "user", "other"
_SELF_NAMES = ("user", "you")


@attrs.frozen(slots=True)
class Profile:
    target: float = 0.0
    user: float = 0.0
    other: float = 0.0

    def __add__(self, o: Profile) -> Profile:
        return Profile(self.target + o.target, self.user + o.user, self.other + o.other)

    @property
    def empty(self) -> bool:
        return self.target == self.user == self.other == 0.0


NOTHING = Profile()


@attrs.frozen(slots=True)
class Profiles:
    cards: dict[str, Profile]  # by card key, and by printed name (core/names.py)
    skills: dict[str, Profile]  # by skill key (core/names.py)
    kingdoms: dict[str, frozenset[str]] = attrs.Factory(dict)  # skill key -> the kingdoms its text names

    def card(self, name: str) -> Profile:
        return self.cards.get(name, NOTHING)

    def skill(self, name: str) -> Profile:
        return self.skills.get(name, NOTHING)


_CACHE: dict[int, tuple[Any, Profiles]] = {}  # id(library) -> (library, its profiles): kept alive with them


def profiles(library: Any) -> Profiles:
    """The profiles of every card and skill of a library (parsed and walked once)."""
    hit = _CACHE.get(id(library))
    if hit is not None and hit[0] is library:
        return hit[1]
    result = _build(library)
    _CACHE[id(library)] = (library, result)
    return result


def _build(library: Any) -> Profiles:
    from .library import parse_file  # the library module imports the compiler: import when needed

    cards: dict[str, Profile] = {}
    skills: dict[str, Profile] = {}
    kingdoms: dict[str, frozenset[str]] = {}
    keys = {(s.package, s.name): s.key for s in library.skills.values()}  # two packages may print one name
    card_keys = {(k.package, k.name): k.key for k in library.cards.values()}
    for path in library.files:
        for d in parse_file(Path(path)).definitions:
            if isinstance(d, ast.CardDef):
                cards[card_keys.get((Path(path).stem, d.name.text), d.name.text)] = _walk_members(d.members)
            elif isinstance(d, ast.SkillDef):
                key = keys.get((Path(path).stem, d.name.text), d.name.text)
                skills[key] = _walk_members(d.members)
                kingdoms[key] = _kingdoms_named(d)
    kinds = list(library.cards.values())
    for kind in kinds:  # 火殺 is a 殺: it does what its base does
        if kind.like is not None and cards.get(kind.key, NOTHING).empty:
            cards[kind.key] = cards.get(kind.like.key, NOTHING)
    # a label names a card by its printed name: of two editions, the one the other is like
    for kind in sorted(kinds, key=lambda k: k.like is not None):
        cards.setdefault(kind.name, cards.get(kind.key, NOTHING))
    return Profiles(cards, skills, kingdoms)


def _kingdoms_named(definition: Any) -> frozenset[str]:
    """The kingdoms a definition's text compares a player's kingdom with."""
    found: set[str] = set()
    stack: list[object] = [definition]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Compare) and node.op in ("==", "!="):
            for side, other in ((node.left, node.right), (node.right, node.left)):
                if isinstance(side, ast.Field) and side.name == "kingdom" and isinstance(other, ast.Str):
                    found.add(KINGDOMS.get(other.value, other.value))
        stack.extend(ast.children(node))
    return frozenset(found)


def _walk_members(members: tuple[Any, ...]) -> Profile:
    total = NOTHING
    for m in members:
        body = _body_of(m)
        if body:
            total = total + _walk(body, {})
    return total


def _body_of(member: Any) -> tuple[Any, ...]:
    if isinstance(member, ast.Block):
        return member.body if member.name.text != "respond" else ()  # how a target may answer: not an effect
    if isinstance(member, (ast.Trigger, ast.Active, ast.Attach)):
        return member.body
    return ()


def _walk(body: tuple[Any, ...], alias: dict[str, str]) -> Profile:
    total = NOTHING
    for stmt in _statements(body):
        if isinstance(stmt, ast.Let):
            alias[stmt.name.text] = _party(stmt.value, alias)
        elif isinstance(stmt, ast.CallStmt):
            total = total + _effect(stmt.call, alias)
    return total


def _statements(body: tuple[Any, ...]) -> Iterator[Any]:
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.If):
            yield from _statements(stmt.body)
            yield from _statements(stmt.orelse)
        elif isinstance(stmt, (ast.For, ast.Repeat, ast.Loop)):
            yield from _statements(stmt.body)
        if isinstance(stmt, (ast.Let, ast.CallStmt)):
            yield from _nested_calls(stmt.value if isinstance(stmt, ast.Let) else stmt.call)


def _nested_calls(expr: Any) -> Iterator[Any]:
    """Effects written inside expressions (`if not move(...)`, `let x = gain(...)`) count too."""
    if isinstance(expr, ast.Call):
        for arg in expr.args:
            if isinstance(arg, ast.Call) and arg.name.text in _EFFECTS:
                yield ast.CallStmt(arg, arg.span)
            yield from _nested_calls(arg)


def _party(expr: Any, alias: dict[str, str]) -> str:
    """Who an expression names: the card's target, its user (the skill's owner), or another."""
    if isinstance(expr, ast.Var):
        if expr.name == TARGET:
            return TARGET
        if expr.name in _SELF_NAMES:
            return USER
        return alias.get(expr.name, OTHER)
    if isinstance(expr, ast.Field) and isinstance(expr.obj, ast.Var) and expr.obj.name in (TARGET, *_SELF_NAMES):
        return _party(expr.obj, alias)  # target.weapon: the target's
    if isinstance(expr, ast.Call) and expr.name.text in ("pick", "cards_of") and expr.args:
        return _party(expr.args[1] if expr.name.text == "pick" and len(expr.args) > 1 else expr.args[0], alias)
    return OTHER


def _count(call: Any) -> float:
    if len(call.args) > 1 and isinstance(call.args[1], ast.Int):
        return float(call.args[1].value)
    return 1.0


def _score(party: str, value: float) -> Profile:
    return Profile(**{party: value})


def _effect(call: Any, alias: dict[str, str]) -> Profile:
    name, args = call.name.text, call.args
    if not args:
        return NOTHING
    if name in HARM_OR_HELP:
        return _score(_party(args[0], alias), HARM_OR_HELP[name] * _count(call))
    if name == "gain" and len(args) > 1:  # the gainer +1, whoever loses the cards -1
        return _score(_party(args[0], alias), 1.0) + _score(_party(args[1], alias), -1.0)
    if name == "throw":
        return _score(_party(args[0], alias), -1.0)
    if name == "give" and len(args) > 1:
        return _score(_party(args[0], alias), -1.0) + _score(_party(args[1], alias), 1.0)
    return NOTHING
