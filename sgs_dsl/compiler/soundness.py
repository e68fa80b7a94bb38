"""What the checker knows about values that may be none, and which types can meet.

A type string ending in `?` ("player?", "card?") is "that, or none". These helpers are the
one place that spelling is interpreted, so every check agrees on it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ..syntax import ast
from . import values

# values compared by identity or by value: two of these can be equal only if their bases agree
_COMPARABLE_GROUPS = (
    # a text literal is read as the name (compiler.state_check.LITERALS)
    frozenset({"str", "phase_name", "kingdom", "gender", "nature", "suit", "color", "card_type", "move_zone", "reason", "origin",
               "card_name", "role", "asked_mode"}),
)


def is_optional(t: str) -> bool:
    """`player?`: a player, or none."""
    return t.endswith("?")


def strip_optional(t: str) -> str:
    """The type without its `or none`."""
    return t.rstrip("?")


def _group(base: str) -> frozenset[str]:
    for group in _COMPARABLE_GROUPS:
        if base in group:
            return group
    return frozenset({base})


def compatible(want: str, got: str) -> bool:
    """Whether a value of type `got` may be given where `want` is expected (ignoring none)."""
    w, g = strip_optional(want), strip_optional(got)
    return "any" in (w, g) or g == "none" or w == g or g in _group(w)


def can_equal(left: str, right: str) -> bool:
    """Whether `==` between these two types can ever be true."""
    lb, rb = strip_optional(left), strip_optional(right)
    if "any" in (lb, rb) or lb == rb:
        return True
    if "none" in (lb, rb):  # a guard against none is harmless, even where it cannot be
        return True
    return rb in _group(lb)


# calls that give the same value each time within a block, so a guard on one holds for the next
_STABLE_CALLS = ("recall", "recall_game", "current", "current_phase")


def path_of(e) -> str | None:
    """`t`, `damage.source` or `recall(you, "x")` as a key narrowing can record; None for
    anything else (a choice made twice may differ)."""
    if isinstance(e, ast.Var):
        return e.name
    if isinstance(e, ast.Field):
        head = path_of(e.obj)
        return None if head is None else f"{head}.{e.name}"
    if isinstance(e, ast.Call) and e.name.text in _STABLE_CALLS:
        return "#" + shape(e)
    return None


def not_none_paths(cond) -> list[str]:
    """The values a condition proves are not none when it is true: `X != none`, and each
    side of an `and`; and the lists it proves are not empty (`count(L) > 0`)."""
    nonempty = _nonempty(cond)
    if nonempty is not None:
        return [nonempty]
    if isinstance(cond, ast.Compare) and cond.op == "!=":
        for value, other in ((cond.left, cond.right), (cond.right, cond.left)):
            if isinstance(other, ast.Var) and other.name == "none":
                path = path_of(value)
                return [path] if path else []
        return []
    if isinstance(cond, ast.Logic) and cond.op == "and":
        return [p for item in cond.items for p in not_none_paths(item)]
    if isinstance(cond, ast.Not):
        return none_paths(cond.expr)
    return []


def shape(e) -> str:
    """An expression's text without its places, so two copies of one list compare equal."""
    if isinstance(e, tuple):
        return "(" + ",".join(shape(x) for x in e) + ")"
    if not attrs.has(type(e)):
        return repr(e)
    inner = ",".join(shape(getattr(e, f.name)) for f in attrs.fields(type(e)) if f.name != "span")
    return f"{type(e).__name__}({inner})"


def _nonempty(cond, ops=((">", 0), (">=", 1), ("!=", 0))) -> str | None:
    """`count(L) > 0` (or `>= 1`, `!= 0`), `p.hand > 0`: the key recording that L (p's hand)
    has an item."""
    if not (isinstance(cond, ast.Compare) and isinstance(cond.right, ast.Int)
            and (cond.op, cond.right.value) in ops):
        return None
    counted = cond.left
    if isinstance(counted, ast.Call) and counted.name.text == "count" and len(counted.args) == 1:
        return "#" + shape(counted.args[0])
    if isinstance(counted, ast.Field) and counted.name in _ZONE_COUNTS.values():
        return "#" + shape(counted)
    return None


def none_paths(cond) -> list[str]:
    """The values a condition proves are not none when it is FALSE: `X == none`, and each side
    of an `or` (for `if X == none { stop; }` and `else` blocks); `p.hand == 0` likewise."""
    empty = _nonempty(cond, (("==", 0), ("<", 1), ("<=", 0)))
    if empty is not None:
        return [empty]
    if isinstance(cond, ast.Compare) and cond.op == "==":
        for value, other in ((cond.left, cond.right), (cond.right, cond.left)):
            if isinstance(other, ast.Var) and other.name == "none":
                path = path_of(value)
                return [path] if path else []
        return []
    if isinstance(cond, ast.Logic) and cond.op == "or":
        return [p for item in cond.items for p in none_paths(item)]
    if isinstance(cond, ast.Not):
        return not_none_paths(cond.expr)
    return []


# ---------------------------------------------------------------- narrowing in a scope

# the windows opened once per target: their `target` is always a player
WINDOW_VARS = {w: {"target": "player"} for w in ("specifying", "targeted", "after_specify", "after_targeted")}


NOT_NONE = "!"  # a scope entry for a field path proven not none (`damage.source`)
# a zone of `pick` and the player's field counting its cards
_ZONE_COUNTS = {"hand": "hand", "equip": "equips", "hand_equip": "cards"}


def narrowed(scope, paths: list[str]):
    """A child of `scope` in which these values are known not to be none."""
    inner = scope.child()
    narrow_in(inner, paths)
    return inner


def narrow_in(scope, paths: list[str]) -> None:
    """Record in `scope` itself that these values are not none (after `if X == none { stop; }`)."""
    for path in paths:
        scope.vars["?" + path] = NOT_NONE  # proven here: checked again when used (check_arg)
        if "." in path or path.startswith("#"):
            scope.vars[path] = NOT_NONE
        else:
            t = scope.lookup(path)
            if t is not None:
                scope.vars[path] = strip_optional(t)


def is_narrowed(scope, e) -> bool:
    """Whether the field read `e` has been proven not none in `scope`."""
    path = path_of(e)
    return path is not None and scope.lookup(path) == NOT_NONE


def exits(body) -> bool:
    """Whether a block always leaves (so what follows it never sees the case it handled): its
    last statement does, since nothing may follow a statement that leaves (`unreachable`)."""
    return bool(body) and always_leaves(body[-1])


def always_leaves(s) -> bool:
    """The statement leaves its block every time: `stop;`, `break;`, or an `if` whose branches
    both always leave."""
    if isinstance(s, (ast.Stop, ast.Break)):
        return True
    return isinstance(s, ast.If) and exits(s.body) and exits(s.orelse)


def unreachable(c, body) -> None:
    """A statement after one that always leaves the block would never run."""
    for before, after in zip(body, body[1:], strict=False):
        if always_leaves(before):
            what = "`stop;`" if isinstance(before, ast.Stop) else "`break;`" if isinstance(before, ast.Break) \
                else "the `if` before it (both of its branches leave)"
            c.error(after.span, f"this statement is never run: {what} leaves the block first",
                    "remove it, or move the leaving statement into an `if`")
            return


def guard_hint(e) -> str:
    """How to guard a value that may be none, written with the value's own text."""
    path = path_of(e) or "X"
    return f"guard it: `if {path} != none {{ ... }}`, or give a default: `{path} or DEFAULT`"


def narrow_after(scope, s: ast.If, yes: list[str], no: list[str]) -> None:
    """After an `if` whose one branch always leaves, the other branch's knowledge holds."""
    if exits(s.body):
        narrow_in(scope, no)
    elif exits(s.orelse):
        narrow_in(scope, yes)


# ---------------------------------------------------------------- conditions, `or`, `==`

def acts_in_a_read(c, call, what: str) -> None:
    """An effect called where text only reads: a condition, a target rule, a modifier's value or a
    definition is worked out whenever the engine needs it (listing the options of a question,
    polling a window, more than once), so what it did would happen at no moment of the rules."""
    name = call.name.text
    c.error(call.name.span, f"'{name}' is {what}: it acts on the game, and this text only reads it "
            "(a condition, a target rule, a modifier's value or a definition is worked out whenever "
            "the engine needs to know, perhaps many times)",
            f"act in a block instead: `{{ if {name}(...) {{ ... }} }}`; a definition that acts is a procedure")


def check_condition(c, e, t: str) -> None:
    """A condition is true or false: `when you` or `if 5` says nothing the reader can trust."""
    if t not in ("bool", "any"):
        c.error(e.span, f"a condition must be true or false, found {t}",
                _condition_hint(e, t))


def _condition_hint(e, t: str) -> str:
    path = path_of(e) or "X"
    if is_optional(t):
        return f"to ask whether there is one, write `{path} != none`"
    if t == "card":
        return f"test the card against a pattern: `{path} is red`"
    if t == "int":
        return f"compare the number: `{path} > 0`"
    if t in ("players", "cards", "strs"):
        return f"to ask whether there are any, write `count({path}) > 0`"
    return "write a comparison, e.g. `you.hp > 1`, or a test such as `card is red`"


def check_equal(c, e, lt: str, rt: str) -> None:
    """`==`/`!=` between types that can never be equal is always false (or always true)."""
    if can_equal(lt, rt):
        return
    c.error(e.span, f"'{e.op}' between {lt} and {rt}, which can never be equal",
            "compare values of one kind: a player with a player, a number with a number")


def check_kingdom_pair(c, e) -> None:
    """`a.kingdom == b.kingdom` holds for two players of no kingdom (國戰: no general face up,
    kingdom "") and for two careerists (野心家, each a kingdom of their own): the text means
    `same_kingdom(a, b)`, which is false for both (seed 001 勢力)."""
    if all(isinstance(side, ast.Field) and side.name == "kingdom" for side in (e.left, e.right)):
        c.error(e.span, f"'{e.op}' between two players' kingdoms also holds for two players of no kingdom "
                        "and for two careerists",
                "write `same_kingdom(a, b)` (or `not same_kingdom(a, b)`): both known, equal, and not careerists")


def logic(c, e, scope) -> tuple[Callable[[Any], Any], str]:
    """`and`/`or`: each item sees what the items before it proved (`t != none and t.hp > 1`);
    `X or DEFAULT`, X maybe none, is X when there is one and DEFAULT otherwise."""
    first, t = c.expr(e.items[0], scope)
    if e.op == "or" and is_optional(t) and strip_optional(t) != "bool":
        return _default(c, e, first, t, scope)
    check_condition(c, e.items[0], t)
    parts = [first]
    # one scope for the items after the first, told each item's proof once it is compiled:
    # linear in the items, where a fresh scope per item with all the proofs so far is quadratic
    proves = not_none_paths if e.op == "and" else none_paths
    inner = scope.child()
    for before, item in zip(e.items, e.items[1:], strict=False):
        narrow_in(inner, proves(before))
        parts.append(c.expr_bool(item, inner))
    return values.logic(e.op, tuple(parts)), "bool"


def _default(c, e, first, t: str, scope) -> tuple[Callable[[Any], Any], str]:
    fns = [first]
    for item in e.items[1:]:
        fn, it = c.expr(item, scope)
        if not compatible(t, it):
            c.error(item.span, f"the default after `or` must be a {strip_optional(t)}, found {it}",
                    f"`X or DEFAULT` gives X, or DEFAULT when X is none: both are {strip_optional(t)}")
            it = "any"  # said once, not again where the value is used
        fns.append(fn)
        t = it if it != "none" else t
    return values.first_present(tuple(fns)), t


def check_field_of(c, e, t: str) -> None:
    """Reading a field of a value that may be none is a crash waiting for the case with none."""
    if is_optional(t):
        c.error(e.span, f"'{path_of(e.obj) or 'this value'}' may be none: its field '{e.name}' cannot be read "
                "unguarded", guard_hint(e.obj))


# ---------------------------------------------------------------- arguments

LISTS = ("players", "cards", "strs")
_NEEDS_ONE = ("player", "card", "use", "damage")  # a parameter that cannot take none


def check_arg(c, a, ptype: str, t: str, fn: Callable[[Any], Any], scope) -> Callable[[Any], Any]:
    """What an effect is given: a list where it counts, cards where it moves cards, and never
    a value that may be none where it needs one. A value proven not none by what the block
    knows (a guard, a list with an item) keeps a run-time check: the proof assumes nothing
    changed in between."""
    if ptype in _NEEDS_ONE and not is_optional(t) and _proven(a, scope):
        fn = values.not_none(fn, ptype, a.span)
    _check_arg(c, a, ptype, t)
    return fn


def _proven(a, scope) -> bool:
    if isinstance(a, ast.Call):
        return a.name.text in ("choose_player", "pick") or path_of(a) is not None
    path = path_of(a)
    return path is not None and scope.lookup("?" + path) == NOT_NONE


def _check_arg(c, a, ptype: str, t: str) -> None:
    got = strip_optional(t)
    if ptype == "list" and got not in (*LISTS, "any"):
        c.error(a.span, f"expected a list of players, cards or text, found {t}",
                "count a list, e.g. `count(others(you))`; a player's hand size is `p.hand`")
    elif ptype == "card_or_cards" and got not in ("card", "cards", "any", "none"):
        c.error(a.span, f"expected a card or a list of cards, found {t}",
                "give a card (`pick(you, p, hand)`) or cards (`cards_of(p, hand)`)")
    elif ptype in _NEEDS_ONE and is_optional(t):
        c.error(a.span, f"'{path_of(a) or 'this value'}' may be none, but a {ptype} is needed here",
                guard_hint(a))


# ---------------------------------------------------------------- did you mean, among effects only

def unknown_call_hint(name: str, known) -> str:
    """A hint for an unknown effect or function: a near spelling of another one (a slip of the
    pen), else the ones of the same area (sharing a word: `gain_hp` lists the hp ones), never a
    far name that would silently change the rule."""
    limit = max(1, len(name) // 5)
    near = sorted((_distance(name, k), k) for k in known if abs(len(k) - len(name)) <= limit)
    if near and near[0][0] <= limit:
        return f"did you mean '{near[0][1]}'?"
    words = {w for w in name.split("_") if len(w) >= 2}
    related = sorted(k for k in known if words & set(k.split("_")))
    if related:
        return (f"there is no effect or function '{name}'; those about {', '.join(sorted(words))}: "
                + ", ".join(related))
    return f"there is no effect or function '{name}'; see docs/language.md for the list"


def _distance(a: str, b: str) -> int:
    """Edits from a to b: insertions, deletions, changes and swaps of two neighbours."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, prev2[j - 2] + 1)
            row.append(cost)
        prev2, prev = prev, row
    return prev[-1]


# lists never empty while the game goes on: every living player, and the others of one
_NEVER_EMPTY = ("players", "others")


def returns(name: str, c, t: str, scope) -> str:
    """What a call gives, as far as the block knows: a guarded `recall(...)` is not none; a
    choice from a list known to have an item chooses one (`choose_player(you, L)` where L is
    `others(you)`, or guarded by `count(L) > 0`); a card picked from a zone known to hold one
    (`pick(you, p, hand)` guarded by `p.hand > 0`) is a card."""
    if not is_optional(t):
        return t
    if path_of(c) is not None and scope.lookup(path_of(c)) == NOT_NONE:
        return strip_optional(t)
    if name == "choose_player" and len(c.args) >= 2:
        among = c.args[1]
        if (isinstance(among, ast.Call) and among.name.text in _NEVER_EMPTY) or _known(scope, among):
            return strip_optional(t)
    if name == "pick" and len(c.args) == 3 and isinstance(c.args[2], ast.Var):
        counted = _ZONE_COUNTS.get(c.args[2].name)
        if counted is not None and _known(scope, ast.Field(c.args[1], counted, c.span)):
            return strip_optional(t)
    return t


def _known(scope, e) -> bool:
    return scope.lookup("#" + shape(e)) == NOT_NONE


def is_variable(key: str) -> bool:
    """A scope key that names a variable, not a fact narrowing recorded."""
    return not key.startswith(("#", "?")) and "." not in key
