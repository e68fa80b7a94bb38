"""The syntax tree of .sgs text: frozen data with source spans, no behaviour."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import attrs

from .diagnostics import Span


@attrs.frozen  # slotted, by default; written out so that mypy reads the fields
class Name:
    text: str
    span: Span


# ---------------------------------------------------------------- expressions

@attrs.frozen
class Int:
    value: int
    span: Span


@attrs.frozen
class Str:
    value: str
    span: Span


@attrs.frozen
class SuitLit:
    suit: str  # spade / heart / club / diamond
    span: Span


@attrs.frozen
class Var:
    name: str
    span: Span


@attrs.frozen
class Field:
    obj: Expr
    name: str
    span: Span


@attrs.frozen
class Call:
    name: Name
    args: tuple[Expr, ...]
    kwargs: tuple[tuple[Name, Expr], ...]
    span: Span


@attrs.frozen
class Arith:
    op: str
    left: Expr
    right: Expr
    span: Span


@attrs.frozen
class Compare:
    op: str
    left: Expr
    right: Expr
    span: Span


@attrs.frozen
class Logic:
    op: str  # "and" / "or"
    items: tuple[Expr, ...]
    span: Span


@attrs.frozen
class Not:
    expr: Expr
    span: Span


@attrs.frozen
class Neg:
    expr: Expr
    span: Span


@attrs.frozen
class PatAtom:
    kind: str  # "name" or "suit"
    text: str
    span: Span


@attrs.frozen
class Pattern:
    """Alternatives of conjunctions: `red 殺|♦` is ((red, 殺), (♦,))."""

    alternatives: tuple[tuple[PatAtom, ...], ...]
    span: Span


@attrs.frozen
class Is:
    expr: Expr
    pattern: Pattern
    negate: bool
    span: Span


@attrs.frozen
class Filter:
    """`[p in others(you) where p.hand > 0]`: the items of a list that pass a test."""

    var: Name
    items: Expr
    cond: Expr
    span: Span


@attrs.frozen
class ListLit:
    """`["摸兩張牌", "回復1點體力"]`, `[殺, 閃]`: a list written out."""

    items: tuple[Expr, ...]
    span: Span


@attrs.frozen
class Cond:
    """`if COND then A else B`: a value chosen by a condition."""

    cond: Expr
    then: Expr
    orelse: Expr
    span: Span


@attrs.frozen
class Index:
    """`list[i]`: the i-th item, counted from 1 (none past either end)."""

    obj: Expr
    index: Expr
    span: Span


@attrs.frozen
class Binder:
    """`p in players()` as the first argument of an aggregate: `sum(p in players(), p.hand)`."""

    var: Name
    items: Expr
    span: Span


Expr = (Int | Str | SuitLit | Var | Field | Call | Arith | Compare | Logic | Not | Neg | Is | Filter | ListLit
        | Cond | Index | Binder)


# ---------------------------------------------------------------- statements

@attrs.frozen
class CallStmt:
    call: Call
    span: Span


@attrs.frozen
class Let:
    name: Name
    value: Expr
    span: Span


@attrs.frozen
class Set:
    path: tuple[Name, ...]
    op: str
    value: Expr
    span: Span


@attrs.frozen
class If:
    cond: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]
    span: Span


@attrs.frozen
class For:
    var: Name
    items: Expr
    body: tuple[Stmt, ...]
    span: Span


@attrs.frozen
class Repeat:
    count: Expr
    body: tuple[Stmt, ...]
    span: Span


@attrs.frozen
class Loop:
    body: tuple[Stmt, ...]
    span: Span


@attrs.frozen
class Break:
    span: Span


@attrs.frozen
class Stop:
    span: Span


Stmt = CallStmt | Let | Set | If | For | Repeat | Loop | Break | Stop


# ---------------------------------------------------------------- members of a card or skill

@attrs.frozen
class Prop:
    name: Name
    values: tuple[Name | Int | Str, ...]
    span: Span


@attrs.frozen
class TargetSpec:
    words: tuple[Name, ...]
    cond: Expr | None
    span: Span


@attrs.frozen
class UseClause:
    context: Name
    target: TargetSpec | None
    span: Span


@attrs.frozen
class ChooseClause:
    var: Name
    title: str  # how the chosen player is called in questions and the log
    target: TargetSpec
    span: Span


@attrs.frozen
class Block:
    name: Name
    body: tuple[Stmt, ...]
    span: Span


@attrs.frozen
class Trigger:
    window: Name
    tags: tuple[Name, ...]
    cond: Expr | None
    body: tuple[Stmt, ...]
    span: Span
    also: tuple[Name, ...] = ()  # more windows sharing the body: `on damaged, caused_damage { ... }`
    by: Expr | None = None  # `optional by PLAYER`: who is asked and invokes it


@attrs.frozen
class Modifier:
    name: Name
    pattern: Pattern | None
    op: str
    value: Expr
    cond: Expr | None
    span: Span
    subject: Name | None = None  # who is bound: you (default), others, all
    where: Expr | None = None  # `targets ... where COND`: what each extra target must satisfy


@attrs.frozen
class ViewAs:
    card: Name
    count: int
    pattern: Pattern
    zone: Name | None
    modes: tuple[Name, ...]  # `for use or recast`; () for the default (use and play)
    cond: Expr | None
    span: Span
    across: tuple[Name, Name] | None = None  # `with same suit`: a rule across the chosen cards
    declared: Pattern | None = None  # `declared(basic|ordinary)`: the user declares a name of the set
    face_down: bool = False  # made of face-down cards that others may question (質疑)


@attrs.frozen
class Attach:
    """An action a skill gives others in their play phase: `attach others once when COND { ... }`."""

    subject: Name
    tags: tuple[Name, ...]
    cond: Expr | None
    body: tuple[Stmt, ...]
    span: Span


@attrs.frozen
class Active:
    """A play-phase action a skill offers: `active once when COND { ... }`."""

    tags: tuple[Name, ...]
    cond: Expr | None
    body: tuple[Stmt, ...]
    span: Span


@attrs.frozen
class Forbid:
    """`forbid target(殺|決鬥) when COND;`: what the owner cannot do or be made to suffer."""

    kind: Name
    pattern: Pattern
    cond: Expr | None
    span: Span
    subject: Name | None = None  # who is bound: you (default), others, all


@attrs.frozen
class StateDecl:
    """`state NAME: TYPE until SCOPE;`: a value the skill remembers."""

    name: Name
    type: Name
    until: Name | None
    span: Span


@attrs.frozen
class FilterSkill:
    """`filter PATTERN as SUIT|CARD when COND;`: the owner's cards count as another."""

    pattern: Pattern
    target: PatAtom
    cond: Expr | None
    span: Span


@attrs.frozen
class Equipped:
    """`equipped CARD;`: the owner has that equipment's skill while its slot is empty."""

    card: Name
    span: Span


Member = (Prop | UseClause | ChooseClause | Block | Trigger | Modifier | ViewAs | Active | Forbid | StateDecl
          | FilterSkill | Equipped | Attach)


# ---------------------------------------------------------------- top-level definitions

@attrs.frozen
class CardDef:
    name: Name
    id: Name
    kind: Name
    text: str
    members: tuple[Member, ...]
    span: Span


@attrs.frozen
class SkillDef:
    name: Name
    id: Name
    tags: tuple[Name, ...]
    text: str
    members: tuple[Member, ...]
    span: Span


@attrs.frozen
class HeroDef:
    name: Name
    id: Name
    text: str
    props: tuple[Prop, ...]
    span: Span
    general: bool = False  # a 國戰 general card (`general`), not an identity hero


@attrs.frozen
class Face:
    suit: str
    rank: str
    span: Span


@attrs.frozen
class DeckLine:
    card: Name
    faces: tuple[Face, ...]
    span: Span


@attrs.frozen
class DeckDef:
    name: Name
    title: str
    lines: tuple[DeckLine, ...]
    span: Span


@attrs.frozen
class RulesetDef:
    name: Name
    tags: tuple[Name, ...]
    title: str
    props: tuple[Prop, ...]
    span: Span


@attrs.frozen
class Param:
    """`p: player`: a parameter of a procedure or a definition."""

    name: Name
    type: Name
    span: Span


@attrs.frozen
class ProcedureDef:
    """`procedure NAME(p: player, n: int) { ... }`: statements callable from any card or skill."""

    name: Name
    params: tuple[Param, ...]
    body: tuple[Stmt, ...]
    span: Span


@attrs.frozen
class DefineDef:
    """`define NAME(p: player): int = EXPR;`: a named expression."""

    name: Name
    params: tuple[Param, ...]
    returns: Name
    value: Expr
    span: Span


Definition = CardDef | SkillDef | HeroDef | DeckDef | RulesetDef | ProcedureDef | DefineDef


@attrs.frozen
class Module:
    """One parsed .sgs file."""

    path: str
    definitions: tuple[Definition, ...]
    lines: tuple[str, ...]


# ---------------------------------------------------------------- nesting

def children(node: object) -> list[object]:
    """The nodes directly inside a node (inside its tuples too), in source order."""
    out: list[object] = []
    nodes = _node_classes()
    for name in _node_fields(type(node)):
        value = getattr(node, name)
        for item in value if type(value) is tuple else (value,):
            if type(item) is tuple:  # a keyword argument: (name, value)
                out.extend(x for x in item if type(x) in nodes)
            elif type(item) in nodes:
                out.append(item)
    return out


def walk(node: object) -> Iterator[object]:
    """Every node inside a node, the node first, in source order (an explicit stack)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(children(n)))


def levels(definitions: tuple[object, ...]) -> Iterator[tuple[object, int]]:
    """Every node of the definitions that holds others, with its level of nesting: a
    definition is level 1, and what a node holds one level below it (names and numbers, which
    hold nothing, are no level of their own and are passed over). Walked with an explicit
    stack, in source order."""
    stack: list[tuple[object, int]] = [(d, 1) for d in reversed(definitions)]
    while stack:
        node, depth = stack.pop()
        yield node, depth
        inside = [child for child in children(node) if _node_fields(type(child))]
        if inside:
            inside.reverse()
            stack.extend((child, depth + 1) for child in inside)


_SCALARS = frozenset({"str", "int", "bool", "str | None", "int | None", "bool | None"})


@functools.cache
def _node_fields(cls: type) -> tuple[str, ...]:
    """The fields of a node class that may hold nodes: all but its span and its plain values."""
    return tuple(f.name for f in attrs.fields(cls) if f.name != "span" and f.type not in _SCALARS)


@functools.cache
def _node_classes() -> frozenset[type]:
    return frozenset(v for v in globals().values() if isinstance(v, type) and attrs.has(v))
