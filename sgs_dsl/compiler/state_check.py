"""The checker's part of player state: `state` declarations and the arguments
that name a state, a skill, a hero, a gender, a kingdom or a scope, all resolved at load time;
and literals compared with a phase name, a kingdom or a gender, read in either script."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..core.defs import Ctx
from ..core.model import RulesError
from ..core.modes import ROLE_NAMES
from ..core.names import Definitions, ambiguity
from ..core.vocab import ORIGINS, REASONS, SCOPES
from ..syntax import ast
from ..syntax.diagnostics import did_you_mean
from ..syntax.names import normalize
from . import schema, soundness

# the types a state may hold, and the value `recall` gives before anything was remembered
STATE_TYPES: dict[str, Any] = {"int": 0, "str": "", "bool": False, "card": None, "cards": (),
                               "player": None, "players": (), "strs": ()}
GENDERS = {"male": "male", "female": "female", "男": "male", "女": "female"}
# literals compared with a value of these types are read as the names they stand for
LITERALS: dict[str, dict[str, str]] = {
    "phase_name": schema.PHASE_NAMES, "kingdom": schema.KINGDOMS, "gender": GENDERS, "nature": schema.NATURES,
    "suit": schema.SUIT_NAMES, "color": schema.COLOR_NAMES, "card_type": schema.CARD_TYPE_NAMES,
    "move_zone": schema.MOVE_ZONES, "role": ROLE_NAMES, "asked_mode": schema.ASKED_MODES,
    "reason": {**{r: r for r in REASONS}, **{zh: r for r, zh in REASONS.items()}},
    "origin": {**{o: o for o in ORIGINS}, **{zh: o for o, zh in ORIGINS.items()}},
}
ARG_TYPES = ("state", "state_value", "skill", "hero", "gender", "kingdom", "scope")
NAMED = {"skill": "skills", "hero": "heroes"}  # argument types naming a definition of the library


@attrs.frozen
class State:
    key: str  # SKILL.NAME: states of two skills never collide
    type: str
    scope: str

    @property
    def default(self) -> Any:
        empty = STATE_TYPES[self.type]
        return list(empty) if isinstance(empty, tuple) else empty


def declare(c: Any, skill: str, members: Sequence[Any]) -> dict[str, State]:
    """The states a skill declares (`state NAME: TYPE until SCOPE;`), checked."""
    states: dict[str, State] = {}
    for m in members:
        if not isinstance(m, ast.StateDecl):
            continue
        name, kind = m.name.text, m.type.text
        if name in states:
            c.error(m.name.span, f"state '{name}' is declared twice", "declare each state once")
        if kind not in STATE_TYPES:
            c.error(m.type.span, f"unknown state type '{kind}'",
                    did_you_mean(kind, STATE_TYPES) or "types: " + ", ".join(STATE_TYPES))
            kind = "int"
        scope = m.until.text if m.until is not None else "game"
        if scope not in SCOPES:
            c.error(m.until.span, f"unknown scope '{scope}'",
                    did_you_mean(scope, SCOPES) or "scopes: " + ", ".join(SCOPES))
            scope = "game"
        states[name] = State(f"{skill}.{name}", kind, scope)
    return states


def declared(skill: str, members: Sequence[Any]) -> dict[str, State]:
    """The well-formed states a skill declares, unchecked: what another skill may name."""
    return {m.name.text: State(f"{skill}.{m.name.text}", m.type.text,
                               m.until.text if m.until is not None else "game")
            for m in members if isinstance(m, ast.StateDecl) and m.type.text in STATE_TYPES
            and (m.until is None or m.until.text in SCOPES)}


def _of_another_skill(c: Any, a: Any) -> State | None:
    """`SKILL.STATE`: a state another skill declares (新生 adds to 化身's cards), read and
    written as that skill's own; SKILL is read in the package of the text first."""
    skill, dot, name = a.value.rpartition(".")
    if not dot:
        return None
    keys = [k for k in c.skill_states if k == skill or k.rpartition(".")[2] == skill]
    if len(keys) > 1:
        keys = [k for k in keys if k == skill or k == f"{c.compiling_package}.{skill}"] or keys
    if len(keys) != 1:
        if keys:
            c.error(a.span, f"'{skill}' names {len(keys)} skills: {', '.join(sorted(keys))}",
                    f'write the one you mean with its package: "{sorted(keys)[0]}.{name}"')
        return None
    return c.skill_states[keys[0]].get(name)


def check_tags(c: Any, tags: tuple[str, ...], members: Sequence[Any]) -> None:
    """A wake skill (覺醒技) or a locked skill (鎖定技) acts by itself: its triggers cannot be
    optional, it has no play-phase action, and (locked) no conversion the player chooses."""
    kind = "wake skill (覺醒技)" if "wake" in tags else "locked skill (鎖定技)" if "locked" in tags else None
    if kind is None:
        return
    for m in members:
        if isinstance(m, ast.Trigger):
            for tag in m.tags:
                if tag.text == "optional":
                    c.error(tag.span, f"a {kind} fires by itself when its condition holds", "leave out `optional`")
        elif isinstance(m, ast.Active):
            c.error(m.span, f"a {kind} fires by itself: it has no play-phase action",
                    "write it as a trigger: `on WINDOW when CONDITION { ... }`")
        elif isinstance(m, ast.ViewAs) and kind.startswith("locked"):
            c.error(m.span, "a locked skill (鎖定技) is not chosen: its cards cannot be converted at the player's will",
                    "cards that always count as others are a `filter`; or leave out `locked`")


def argument(c: Any, a: Any, ptype: str, scope: Any) -> Callable[[Ctx], Any]:
    """An argument naming something the checker knows now (see ARG_TYPES)."""
    if ptype == "state":
        return _state(c, a)
    if ptype == "state_value":
        return _value(c, a, scope)
    if ptype in NAMED and isinstance(a, ast.Str):  # a name written as text: checked as one written bare
        return _named(c, ast.Var(a.value, a.span), ptype)
    if (ptype in NAMED and isinstance(a, ast.Field) and isinstance(a.obj, ast.Var)
            and scope.lookup(a.obj.name) is None):  # standard.離間: a name with its package
        return _named(c, ast.Var(f"{a.obj.name}.{a.name}", a.span), ptype)
    if ptype in NAMED and not (isinstance(a, ast.Var) and scope.lookup(a.name) is None):
        return _computed_name(c, a, scope, ptype)  # a name known only at run time (choose_hero, hero_skills)
    if ptype in NAMED:
        return _named(c, a, ptype)
    if ptype in ("gender", "kingdom") and not isinstance(a, ast.Str) and not (
            isinstance(a, ast.Var) and scope.lookup(a.name) is None):
        fn, t = c.expr(a, scope)  # computed: hero_gender(h), q.kingdom
        if t != ptype:
            c.error(a.span, f"expected a {ptype} here, found {t}",
                    f"write one out ({', '.join(dict.fromkeys(GENDERS if ptype == 'gender' else schema.KINGDOMS))}) "
                    f"or give one computed, such as hero_{ptype}(h)")
        return fn
    text = a.value if isinstance(a, ast.Str) else (a.name if isinstance(a, ast.Var) else None)
    table = {"gender": GENDERS, "kingdom": schema.KINGDOMS, "scope": {s: s for s in SCOPES if s != "game"}}[ptype]
    if text is None or (isinstance(a, ast.Var) and scope.lookup(a.name) is not None):
        c.error(a.span, f"expected a {ptype} written out here", f"{ptype}s: {', '.join(table)}")
        return lambda ctx: None
    value = table.get(text) or table.get(text.lower())
    if value is None:
        c.error(a.span, f"unknown {ptype} '{text}'", did_you_mean(text, table) or f"{ptype}s: {', '.join(table)}")
    return lambda ctx: value


def _state(c: Any, a: Any) -> Callable[[Ctx], Any]:
    states: dict[str, State] = c.states
    if not isinstance(a, ast.Str):
        c.error(a.span, "a state is named by text: the name its `state` line declares",
                'e.g. `state 目標: player until turn;` and `recall(you, "目標")`')
        c.last_state = None
        return lambda ctx: State("", "int", "game")
    state = states.get(a.value) or _of_another_skill(c, a)
    skill, dot, _ = a.value.rpartition(".")
    theirs = next((v for k, v in c.skill_states.items() if dot and (k == skill or k.rpartition(".")[2] == skill)), None)
    if state is None and theirs is not None:  # SKILL.STATE of a skill that declares others
        hint = did_you_mean(a.value.rpartition(".")[2], theirs) or (
            f"{skill} declares: {', '.join(theirs)}" if theirs else f"{skill} declares no state")
        c.error(a.span, f"unknown state '{a.value}'", hint)
        state = State("", "int", "game")
    if state is None:
        hint = did_you_mean(a.value, states) or (
            f"states of this skill: {', '.join(states)}" if states else
            f"declare it in the skill: `state {a.value}: int until turn;`")
        c.error(a.span, f"unknown state '{a.value}'", hint)
        state = State("", "int", "game")
    c.last_state = state
    return lambda ctx: state


def _named(c: Any, a: Any, ptype: str) -> Callable[[Ctx], Any]:
    """A skill or a hero by name: resolved when the whole library is compiled (`check_names`),
    since it may be defined later in the library, and read in the package of the text first."""
    if not isinstance(a, ast.Var):
        c.error(a.span, f"expected a {ptype} name here", f"write the {ptype}'s name, e.g. its name on the card")
        return lambda ctx: None
    resolved: list[Any] = [None]
    c.name_refs.append((ptype, a.name, a.span, resolved, c.compiling_skill or ""))
    return lambda ctx: resolved[0]


def _computed_name(c: Any, a: Any, scope: Any, ptype: str) -> Callable[[Ctx], Any]:
    """A hero or skill named by text computed when the text runs: looked up then. A skill so
    named may be any of the library's (so a grant of one may bring the history on)."""
    fn, t = c.expr(a, scope)
    if schema.base_type(t) not in ("str", "any"):
        example = "choose_hero(you, unused_heroes())" if ptype == "hero" else "choose_skill(you, hero_skills(h))"
        c.error(a.span, f"expected a {ptype} name here, found {t}", f"write the {ptype}'s name, or text such as {example}")
    if ptype == "skill":
        c.computed_skills.add(c.compiling_skill or "")
    table_name = NAMED[ptype]

    def named(ctx: Ctx) -> Any:
        name = fn(ctx)
        found = find(getattr(ctx.game.library, table_name), name) if isinstance(name, str) else None
        if found is None:
            raise RulesError(f"no {ptype} of the library is named {name!r}", a.span)
        return found
    return named


def find(table: Definitions[Any], name: str) -> Any:
    """The one definition `name` (a key, or any spelling that names one) means, or None."""
    return table.get(name)


def check_names(c: Any, skills: Definitions[Any], heroes: Definitions[Any]) -> None:
    """The skill and hero names text gave, resolved now that the library is complete: each in
    the package of the text that names it first (core/names.py)."""
    tables = {"skills": skills, "heroes": heroes}
    for ptype, name, span, resolved, _ in c.name_refs:
        table = tables[NAMED[ptype]]
        matches = table.find(name, Path(span.file).stem)
        if len(matches) > 1:
            c.error(span, *ambiguity(name, matches))
        elif not matches:
            c.error(span, f"unknown {ptype} '{name}'",
                    did_you_mean(name, table.names()) or f"no {ptype} of the library is named so")
        else:
            resolved[0] = matches[0]
    c.granted = [(ptype, resolved[0], by) for ptype, _, _, resolved, by in c.name_refs if resolved[0] is not None]
    c.name_refs.clear()


def check_marks(c: Any) -> None:
    """Every mark text reads by name is one some text of the library sets: a name no `mark`
    sets (a misspelling, most often) would read 0 forever."""
    for name, span in c.marks_read:
        if name not in c.marks_set:
            c.error(span, f"no text of the library sets the mark '{name}': marks(...) would always be 0",
                    did_you_mean(name, sorted(c.marks_set)) or f'set it with `mark(PLAYER, "{name}", N)`')


def returns(c: Any, name: str, call: Any, default: str) -> str:
    """The type a call gives: `recall` gives the type of its state."""
    if name in ("recall", "recall_game") and call.args:
        key = call.args[-1]
        state = c.states.get(key.value) if isinstance(key, ast.Str) else None
        if state is not None:
            return state.type + ("?" if state.type in ("card", "player") else "")
    return default


def _value(c: Any, a: Any, scope: Any) -> Callable[[Ctx], Any]:
    """What `remember` keeps: of the type its state (the argument before) holds."""
    fn, t = c.expr(a, scope)
    state = c.last_state
    if state is not None and state.key and not soundness.compatible(state.type, t):
        name = state.key.split(".", 1)[1]
        c.error(a.span, f"state '{name}' holds {state.type}, not {t}", f"its `state` line says `{name}: {state.type}`")
    return fn


def own_field(name: str) -> bool:
    """`set damage.NAME = ...` keeps a value of the text's own: a name that is no field of a
    damage and no near miss of one that may change (`amout` is a typo, not a value)."""
    return name not in schema.DAMAGE_FIELDS and not difflib.get_close_matches(
        name, sorted(schema.MUTABLE["damage"]), cutoff=0.8)


def literal_value(side: Any, other_type: str) -> Any:
    """The name a text literal stands for beside a value of `other_type` (a phase, a kingdom,
    a gender), or None when it names none."""
    table = LITERALS.get(schema.base_type(other_type), {})
    return table.get(side.value) or table.get(normalize(side.value)) or table.get(side.value.lower())


def _card_name(c: Any, side: Any) -> Callable[[Ctx], Any]:
    """A text compared with a card's name: a card of the library, by its name or id in either
    script, read as the name it is known by (`card.name == "sha"` is `== "殺"`)."""
    matches = c.cards_named(side.value, side.span)  # editions of a card print one name
    if not matches:
        c.error(side.span, f"'{side.value}' is not a card of the library: the comparison would always be false",
                did_you_mean(side.value, c.card_names()) or "compare with a card's name as its `card` line writes it")
        return lambda ctx: None
    name = matches[0].name
    return lambda ctx: name


def literal(c: Any, side: Any, other_type: str) -> Callable[[Ctx], Any] | None:
    """A text literal compared with a phase name, kingdom or gender: read as the name it stands
    for (`phase.name == "出牌"` is `== "play"`), and checked now."""
    if schema.base_type(other_type) == "card_name" and isinstance(side, ast.Str):
        return _card_name(c, side)
    table = LITERALS.get(schema.base_type(other_type))
    if table is None or not isinstance(side, ast.Str):
        return None
    value = literal_value(side, other_type)
    if value is None:
        word = other_type.rstrip("?").replace("_", " ")
        c.error(side.span, f"'{side.value}' is not {'an' if word[0] in 'aeiou' else 'a'} {word}",
                did_you_mean(side.value, table) or "names: " + ", ".join(table))
    return lambda ctx: value
