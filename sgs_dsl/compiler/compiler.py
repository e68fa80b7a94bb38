"""Checker and compiler in one walk: every name is resolved against the closed schema (errors
are collected with locations and hints), and the AST becomes Python closures."""

from __future__ import annotations

import functools
import operator
import re
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..core import names
from ..core.defs import (
    ActiveDef,
    AttachDef,
    CardKind,
    Ctx,
    EquippedDef,
    FilterDef,
    ForbidDef,
    ModifierDef,
    Skill,
    TargetRule,
    TriggerDef,
    UseMode,
    ViewAsDef,
    mark_helpers,
)
from ..core.model import CALL_LEVELS, MAX_DEPTH, STACK_FULL, Budget, RulesError
from ..core.windows import WINDOW_BY_ID, WINDOWS
from ..syntax import ast
from ..syntax.diagnostics import Diagnostic, Span, did_you_mean
from ..syntax.names import normalize
from . import (
    attach_check,
    choice_check,
    expressions,
    filter_check,
    guards,
    misreads,
    moves_check,
    procedures,
    records,
    schema,
    soundness,
    state_check,
    viewas_check,
)
from .runtime import COUNTS, IMPLS
from .scope import Scope, definitions
from .values import Block, CardTest, Fn, IntFn, Test, Typed, bounded, checked_cards, checked_int, const

BREAK = 1
STOP = 2
MAX_LOOP = 200
FORBID_SUBJECTS = ("you", "others", "all")  # whom a `forbid` binds
CARD_MODIFIERS = ("limit", "targets", "trick_distance", "hand_limit", "range")  # modifiers keyed by a card pattern
DISTANCE_MODIFIERS = ("distance_to", "distance_from")  # `player`: the other end of the distance
_YES_NO = re.compile(r"是否(.+)[？?]")  # a yes/no question: its answers are V and 不V
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv}
_COMPARE = {"==": operator.is_, "!=": operator.is_not, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}

WINDOW_NAMES: dict[str, str] = {}
for _w in WINDOWS:
    WINDOW_NAMES[_w.id] = _w.id
    WINDOW_NAMES[normalize(_w.zh)] = _w.id


#: A check stops at this many errors: past them the rest is noise, and each error's hint may
#: search every name known (a file of thousands of unknown names would cost their square).
MAX_ERRORS = 100


class TooManyErrors(Exception):
    """Raised by the error that reaches MAX_ERRORS: the build stops there."""


class Compiler:
    """Compiles definitions against a table of card kinds; collects diagnostics."""

    def __init__(self, cards: names.Definitions[CardKind], lines_of: Callable[[str], tuple[str, ...]]):
        self.cards = cards  # by key; `find_card` reads a name as the text that writes it means it
        # package -> the card packages whose decks the rulesets that play it deal (library.card_scopes)
        self.card_scopes: dict[str, frozenset[str]] = {}
        self.lines_of = lines_of
        self.diagnostics: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []  # text that loads but looks like a slip (misreads)
        self.use_vars: set[str] = set()
        # every `let`/`for` name of the body being compiled, with where it is defined,
        # to tell "used before its let" and "not visible here" from a plain unknown name
        self.defined: dict[str, list[tuple[str, Span]]] = {}
        self.like_tops: dict[CardKind, CardKind] = {}  # `like` links, for _like_top
        # declared piles (normalized name -> name, public), history queried
        self.piles: dict[str, tuple[str, bool]] = {}
        self.history_used = False  # text outside any skill (a card, a procedure) queries the history
        self.history_skills: set[str] = set()  # the skills whose text queries it
        self.compiling_skill: str | None = None
        self.general_calls: list[ast.Name] = []  # calls of effects on general cards (schema.Builtin.generals)
        # the skills whose text names a skill computed in play (any may be granted); "" for text outside any
        self.computed_skills: set[str] = set()
        self.skill_states: dict[str, dict[str, state_check.State]] = {}  # skill key -> its states (SKILL.STATE)
        self.compiling_package = ""
        self.granted: list[tuple[str, Any, str]] = []  # the skills and heroes text names, and the skill naming them
        # the states of the skill being compiled, names checked once the
        # library is complete, names set on a damage (`set damage.NAME = ...`)
        self.states: dict[str, state_check.State] = {}
        self.last_state: state_check.State | None = None
        self.name_refs: list[tuple[str, str, Span, list[Any], str]] = []  # ..., the naming skill ("" for none)
        self.damage_vars: set[str] = set()
        # the marks text sets (`mark(p, "NAME", n)`) and reads (`marks(p, "NAME")`), by name
        self.marks_set: set[str] = set()
        self.marks_read: list[tuple[str, Span]] = []
        self.procedures: dict[str, procedures.Procedure] = {}  # procedures and definitions, by name
        # the level of nesting each call is written at (id of the ast.Call -> level), which
        # the call counts against the nesting budget (core/model.py MAX_DEPTH)
        self.call_levels: dict[int, int] = {}

    def know_levels(self, modules: list[ast.Module]) -> None:
        """The level of nesting of every call of the modules' text, before any is compiled."""
        for m in modules:
            for d in m.definitions:
                self.call_levels.update(_call_levels(d))

    def call_cost(self, c: ast.Call) -> int:
        """What a call counts against the nesting budget while it runs: the engine's frames
        for a call, and the frames of the blocks and expressions it is written in."""
        return CALL_LEVELS + self.call_levels[id(c)]

    # ------------------------------------------------------------ diagnostics
    def error(self, span: Span, message: str, hint: str = "") -> None:
        lines = self.lines_of(span.file)
        source = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
        self.diagnostics.append(Diagnostic(span, message, hint, source))
        if len(self.diagnostics) >= MAX_ERRORS:
            raise TooManyErrors

    def warn(self, span: Span, message: str, hint: str = "") -> None:
        lines = self.lines_of(span.file)
        source = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
        self.warnings.append(Diagnostic(span, message, hint, source, "warning"))

    def cards_named(self, name: str, span: Span) -> list[CardKind]:
        """The cards a name written at `span` may mean: its package's own first, then those
        the rulesets that play its package deal; of editions of one card (each `like` it),
        the original. Past those, a name two cards print is ambiguous (core/names.py)."""
        package = _package_of(span.file)
        return self.cards.find(name, package, self.card_scopes.get(package, ()))

    def find_card(self, name: str, span: Span) -> CardKind | None:
        """The one card a name means where it is written, else None (nothing reported)."""
        matches = self.cards_named(name, span)
        return matches[0] if len(matches) == 1 else None

    def card_kind(self, name: str, span: Span, what: str = "card") -> CardKind | None:
        """The one card a name means where it is written; an unknown or ambiguous name is reported."""
        matches = self.cards_named(name, span)
        if len(matches) > 1:
            self.error(span, *names.ambiguity(name, matches))
        elif not matches:
            self.error(span, f"unknown {what} '{name}'", did_you_mean(name, self.card_names()))
        return matches[0] if len(matches) == 1 else None

    def link_likes(self, nodes: Sequence[tuple[ast.CardDef, CardKind]]) -> None:
        """Every card's `like`, before any text is compiled: a name two editions of a card
        print is read by which edition is the original (cards_named)."""
        for node, kind in nodes:
            for m in node.members:
                if isinstance(m, ast.Prop) and m.name.text == "like":
                    self.card_prop(m, kind)

    def _like_top(self, kind: CardKind) -> CardKind:
        """The card at the top of kind's chain of `like`s so far (a union-find with path
        halving, so that finding a cycle costs next to nothing however long the chain)."""
        tops = self.like_tops
        while kind in tops:
            above = tops[kind]
            if above in tops:
                tops[kind] = tops[above]
            kind = above
        return kind

    def card_names(self) -> list[str]:
        return self.cards.names()

    # ------------------------------------------------------------ cards
    def compile_card(self, node: ast.CardDef, kind: CardKind) -> None:
        if node.kind.text not in schema.CARD_TYPES:
            self.error(node.kind.span, f"unknown card type '{node.kind.text}'",
                       did_you_mean(node.kind.text, schema.CARD_TYPES) or "one of: " + ", ".join(schema.CARD_TYPES))
        misreads.twice(self, [m.name for m in node.members if isinstance(m, ast.Prop)], "the property")
        misreads.use_clauses(self, node.members)
        self.use_vars = {m.var.text for m in node.members if isinstance(m, ast.ChooseClause)}
        self.use_vars |= {m.path[1].text for m in _walk_sets(node.members) if len(m.path) == 2 and m.path[0].text == "use"}
        uses: list[UseMode] = []
        choose: list[tuple[str, TargetRule, str]] = []
        blocks: dict[str, Block] = {}
        skill_members: list[ast.Member] = []
        answering = any(isinstance(m, ast.UseClause) and m.context.text in ("respond", "counter") for m in node.members)
        # the values a card remembers (`state`) are its rule's and its blocks' alike
        states = state_check.declare(self, kind.key, node.members)
        self.states = states
        for m in node.members:
            if isinstance(m, ast.Prop) and m.name.text == "pile":
                skill_members.append(m)  # a pile on a hero card the card's text keeps cards on
            elif isinstance(m, ast.StateDecl):
                skill_members.append(m)
            elif isinstance(m, ast.Prop) and m.name.text == "differs":
                kind.differs = self.differs(m, kind.differs)
            elif isinstance(m, ast.Prop):
                if m.name.text != "like":  # read before any card's text (link_likes)
                    self.card_prop(m, kind)
            elif isinstance(m, ast.UseClause):
                mode = self.use_clause(m)
                if mode is not None:
                    uses.append(mode)
            elif isinstance(m, ast.ChooseClause):
                rule = self.target_spec(m.target, {"user": "player", "it": "player", "card": "card", "target": "player"})
                choose.append((m.var.text, rule, m.title))
            elif isinstance(m, ast.Block):
                if m.name.text not in schema.BLOCKS:
                    self.error(m.name.span, f"unknown block '{m.name.text}' in a card",
                               did_you_mean(m.name.text, schema.BLOCKS) or "blocks: " + ", ".join(schema.BLOCKS))
                    continue
                if m.name.text in blocks:
                    self.error(m.name.span, f"duplicate block '{m.name.text}'", "merge the two blocks into one")
                variables = dict(schema.CARD_BLOCK_VARS)
                if m.name.text in ("prepare", "finish"):
                    del variables["target"]
                elif answering:  # used in answer to a card, it resolves on no target of its own
                    variables["target"] = "player?"
                self.defined = definitions(m.body)
                misreads.unused_lets(self, m.body)  # a misspelt name defines a new one
                blocks[m.name.text] = self.block(m.body, Scope(variables))
                self.defined = {}
            else:
                skill_members.append(m)
        kind.uses = tuple(uses)
        kind.choose = tuple(choose)
        kind.blocks = blocks
        self.states = {}
        self._card_meaning(node, kind)
        if skill_members and not kind.is_equip:
            for m in skill_members:
                if not isinstance(m, (ast.Trigger, ast.StateDecl, ast.Prop)):
                    self.error(m.span, "only equipment cards may carry modifiers, view-as, active or forbid",
                               "a basic card or trick may carry triggers, states and piles: rules every player follows")
            skill_members = [m for m in skill_members if isinstance(m, (ast.Trigger, ast.StateDecl, ast.Prop))]
        if any(isinstance(m, ast.Trigger) for m in skill_members) or (kind.is_equip and skill_members):
            kind.skill = self.skill_body(kind.name, kind.id, kind.text, (), skill_members, node.span, states,
                                         key=kind.key, package=kind.package)
            kind.skill.from_card = kind.key
            if kind.is_equip:
                kind.skill.slot = kind.type  # works while the card is equipped
            else:
                kind.skill.rule = True  # a rule of the game while the card is in the deck (酒's +1)
        has_use = any(isinstance(m, ast.UseClause) or (isinstance(m, ast.Prop) and m.name.text == "like")
                      for m in node.members)  # a `like` refused is an error of its own
        if kind.type in ("basic", "trick", "delayed") and not has_use:
            self.error(node.name.span, f"card '{kind.name}' has no `use` clause", "say when it can be used: `use play: one other;`")
        self.use_vars = set()

    def _card_meaning(self, node: ast.CardDef, kind: CardKind) -> None:
        """What a card says that its type or its uses would leave without effect."""
        if kind.is_equip:  # equipment is put into play, not resolved: it acts through its skill
            for m in node.members:
                if isinstance(m, ast.Block):
                    self.error(m.name.span, f"equipment is not resolved: its `{m.name.text}` block would never run",
                               "equipment acts through what it carries: `on WINDOW { ... }`, `modify ...`")
        if kind.like is not None and not kind.uses:
            return  # its uses are the card's it is like
        props = {m.name.text: m for m in node.members if isinstance(m, ast.Prop)}
        if "limit" in props and not kind.is_equip and not any(u.context == "play" for u in kind.uses):
            self.error(props["limit"].span, "'limit' counts uses in the play phase, and this card has no `use play`",
                       "give it a `use play: ...` clause, or drop the limit")
        singles = ("one", "one_other")
        if "targets" in props and not any(u.target is not None and u.target.kind in singles for u in kind.uses):
            self.error(props["targets"].span, "'targets' adds to a use on one target, and this card has none",
                       "it fits a use of `one` or `one other` target (`use play: one other;`)")

    def card_prop(self, m: ast.Prop, kind: CardKind) -> None:
        name = m.name.text
        if name not in schema.CARD_PROPS:
            self.error(m.name.span, f"unknown card property '{name}'",
                       did_you_mean(name, schema.CARD_PROPS) or "properties: " + ", ".join(schema.CARD_PROPS))
            return
        if len(m.values) != 1:
            self.error(m.span, f"'{name}' takes exactly one value, got {len(m.values)}")
            return
        value = m.values[0]
        if schema.CARD_PROPS[name] == "card":
            base = self.card_kind(getattr(value, "text", str(value)), value.span)
            if base is not None and kind.like is None:  # a second `like` is an error (twice)
                if self._like_top(base) is kind:
                    self.error(value.span, "a card cannot be like itself" + (
                        "" if base is kind else f": '{base.name}' is already a kind of '{kind.name}'"),
                        "" if base is kind else "`like` names the card this one is a kind of: drop one of the two")
                else:
                    kind.like = base
                    self.like_tops[kind] = base
            return
        if schema.CARD_PROPS[name] == "int":
            if not isinstance(value, ast.Int):
                self.error(value.span, f"'{name}' needs a number")
                return
            setattr(kind, name, value.value)
            if name == "range" and kind.type != "weapon":
                self.error(m.span, "only a weapon has an attack range")
        else:
            nature = schema.NATURES.get(getattr(value, "text", ""))
            if nature is None:
                self.error(value.span, f"unknown nature '{getattr(value, 'text', value)}'", "natures: normal, fire, thunder")
                return
            kind.nature = nature

    def use_clause(self, m: ast.UseClause) -> UseMode | None:
        context = m.context.text
        if context not in schema.USE_CONTEXTS:
            self.error(m.context.span, f"unknown use context '{context}'",
                       did_you_mean(context, schema.USE_CONTEXTS) or "contexts: " + ", ".join(schema.USE_CONTEXTS))
            return None
        if context == "counter":
            if m.target is None or m.target.cond is not None:
                self.error(m.span, "`use counter` needs a card pattern: `use counter: trick;`")
                return None
            atoms = tuple(ast.PatAtom("name", w.text, w.span) for w in m.target.words)
            matcher = self.pattern(ast.Pattern((atoms,), m.target.span))
            return UseMode("counter", None, matcher)
        if context == "respond":
            if m.target is not None:
                self.error(m.target.span, "a `use respond` card has no targets of its own",
                           "it answers the card that asked for it")
            return UseMode("respond", TargetRule("one_other", None))
        if m.target is None:
            self.error(m.span, f"`use {context}` needs targets, e.g. `use {context}: one other;`")
            return None
        variables = {"user": "player", "it": "player", "card": "card"}
        return UseMode(context, self.target_spec(m.target, variables))

    def target_spec(self, spec: ast.TargetSpec, variables: dict[str, str]) -> TargetRule:
        words = tuple(w.text for w in spec.words)
        kind = schema.TARGET_WORDS.get(words)
        if kind is None:
            options = [" ".join(k) for k in schema.TARGET_WORDS]
            first, last = spec.words[0].span, spec.words[-1].span
            where = attrs.evolve(first, end_column=last.end_column) if first.line == last.line else first
            self.error(where, f"unknown target '{' '.join(words)}'",
                       did_you_mean(" ".join(words), options) or "targets: " + ", ".join(options))
            kind = "one"
        cond = self.expr_bool(spec.cond, Scope(variables)) if spec.cond is not None else None
        return TargetRule(kind, cond, spec.cond is None or _card_free(spec.cond))

    # ------------------------------------------------------------ skills (hero skills and equipment)
    def skill_body(self, name: str, ident: str, text: str, tags: tuple[str, ...], members: Sequence[ast.Member],
                   span: Span, states: dict[str, state_check.State] | None = None, key: str = "",
                   package: str = "") -> Skill:
        """A skill printed `name`, kept by `key` (core/names.py: its qualified name when another
        package prints the same name) by everything that counts or remembers for it."""
        key = key or name
        outer, self.compiling_skill = self.compiling_skill, key
        self.compiling_package = package
        try:
            skill = self._skill_body(key, ident, text, tags, members, span, states)
        finally:
            self.compiling_skill = outer
        skill.name, skill.package = name, package
        return skill

    def _skill_body(self, name: str, ident: str, text: str, tags: tuple[str, ...], members: Sequence[ast.Member],
                    span: Span, states: dict[str, state_check.State] | None = None) -> Skill:
        """`name` here is the skill's key."""
        triggers: dict[str, list[TriggerDef]] = {}
        modifiers: list[ModifierDef] = []
        view_as: list[ViewAsDef] = []
        actives: list[ActiveDef] = []
        forbids: list[ForbidDef] = []
        filters: list[FilterDef | None] = []
        equipped: list[EquippedDef | None] = []
        attached: list[AttachDef] = []  # actions for others
        differs = ""  # `differs "REASON";`
        misreads.twice(self, [m.name for m in members if isinstance(m, ast.Prop) and m.name.text == "differs"],
                       "the property")
        # states, tags, and the values set on a use or a damage are readable
        self.states = states if states is not None else state_check.declare(self, name, members)
        misreads.unused_states(self, members)
        misreads.empty_skill(self, name, members, span)
        state_check.check_tags(self, tags, members)
        outer_use, outer_damage = self.use_vars, self.damage_vars
        self.use_vars = outer_use | _set_names(members, "use")
        self.damage_vars = _set_names(members, "damage")
        for m in members:
            if isinstance(m, ast.StateDecl):
                continue
            if isinstance(m, ast.Trigger):  # one trigger per window of `on A, B { ... }`
                for t in expressions.each_window(self, m, name):
                    triggers.setdefault(t.window, []).append(t)
            elif isinstance(m, ast.Modifier):
                mod = self.modifier(m)
                if mod is not None:
                    modifiers.append(mod)
            elif isinstance(m, ast.ViewAs):
                va = self.view_as(m, name)
                if va is not None:
                    view_as.append(va)
            elif isinstance(m, ast.Active):
                if actives:  # both would be offered as 發動【skill】, one `once` between them
                    self.error(m.span, "a skill has one `active`: a second would be offered under the same name",
                               "choose inside the one body (`choose_option`), or make it a skill of its own")
                actives.append(self.active(m, name))
            elif isinstance(m, ast.Forbid):
                f = self.forbid(m)
                if f is not None:
                    forbids.append(f)
            elif isinstance(m, ast.Prop) and m.name.text == "pile":
                continue  # declared before any text is compiled (moves_check)
            elif isinstance(m, ast.Prop) and m.name.text == "differs":
                differs = self.differs(m, differs)
            elif isinstance(m, ast.FilterSkill):
                filters.append(filter_check.filter_def(self, m, name))
            elif isinstance(m, ast.Equipped):
                equipped.append(filter_check.equipped_def(self, m))
            elif isinstance(m, ast.Attach):  # an action for others
                attached.append(attach_check.attach_def(self, m, name))
            else:
                self.error(m.span, "a skill holds triggers (`on`), modifiers (`modify`), `view_as`, "
                           "`active` and `forbid` only")
        self.states, self.use_vars, self.damage_vars = {}, outer_use, outer_damage
        modifiers = [attrs.evolve(m, skill=name) for m in modifiers]
        forbids = [attrs.evolve(f, skill=name) for f in forbids]
        return Skill(name, ident, text, tags, mark_helpers(triggers, bool(view_as or actives or attached)),
                     tuple(modifiers),
                     tuple(viewas_check.labelled(view_as)), span, tuple(actives), tuple(forbids),
                     filters=tuple(f for f in filters if f), equipped=tuple(e for e in equipped if e),
                     attached=tuple(attached), key=name, differs=differs)

    def differs(self, m: ast.Prop, before: str) -> str:
        """`differs "REASON";`: the rules knowingly differ from the printed text, and why
        (`sgs text` reads it: its structured check lets the difference pass)."""
        value = m.values[0] if len(m.values) == 1 else None
        if before:
            return before  # a second one is an error of its own (misreads.twice)
        if not isinstance(value, ast.Str) or not value.value.strip('"').strip():
            self.error(m.span, "'differs' needs a reason: one non-empty string",
                       '`differs "the printed text counts the cards, the rules cap them at 5";`')
        else:
            return value.value.strip('"').strip()
        return before

    def active(self, m: ast.Active, skill: str) -> ActiveDef:
        once = False
        misreads.twice(self, m.tags, "the flag")
        for tag in m.tags:
            if tag.text == "once":
                once = True
            else:
                self.error(tag.span, f"unknown active flag '{tag.text}'",
                           did_you_mean(tag.text, ["once"]) or "the flag is `once` (once per play phase)")
        scope = Scope({"you": "player"})
        cond = self.expr_bool(m.cond, scope) if m.cond is not None else None
        self.defined = definitions(m.body)
        misreads.unused_lets(self, m.body)  # a misspelt name defines a new one
        body = self.block(m.body, soundness.narrowed(scope, soundness.not_none_paths(m.cond)))
        self.defined = {}
        return ActiveDef(skill, once, cond, body, m.span)

    def forbid(self, m: ast.Forbid) -> ForbidDef | None:
        # six kinds of prohibit, each binding a subject (the owner by default)
        kinds = ("target", "use", "play", "respond", "discard", "question", "reveal")
        if m.kind.text not in kinds:
            self.error(m.kind.span, f"unknown forbid '{m.kind.text}'",
                       did_you_mean(m.kind.text, kinds) or "forbid " + ", ".join(f"{k}(...)" for k in kinds))
            return None
        subject = m.subject.text if m.subject is not None else "you"  # "you" is a subject
        if m.subject is not None and subject not in FORBID_SUBJECTS:
            self.error(m.subject.span, f"unknown forbid subject '{subject}'",
                       did_you_mean(subject, FORBID_SUBJECTS) or "subjects: " + ", ".join(FORBID_SUBJECTS))
            return None
        names = {"you": "player", "player": "player", "user": "player", "card": "card"}
        if m.kind.text == "reveal":  # showing a face-down general (國戰): there is no card
            if not _any_pattern(m.pattern):
                self.error(m.pattern.span, "`forbid reveal` is about showing a general, not about cards",
                           "write `forbid reveal(any) ...`")
                return None
            del names["card"]
        cond = self.expr_bool(m.cond, Scope(names)) if m.cond is not None else None
        return ForbidDef(m.kind.text, self.pattern(m.pattern), cond, subject=subject)

    def trigger(self, m: ast.Trigger, skill: str) -> TriggerDef | None:
        window = WINDOW_NAMES.get(m.window.text) or WINDOW_NAMES.get(normalize(m.window.text))
        if window is None:
            known = [w.id for w in WINDOWS] + [w.zh for w in WINDOWS]
            self.error(m.window.span, f"unknown window '{m.window.text}'",
                       did_you_mean(m.window.text, known) or "see `sgs windows` for the list")
            return None
        optional = each_point = each_card = False
        flags = ["optional", "forced", "each_point", "each_card"]
        misreads.twice(self, m.tags, "the flag")
        for tag in m.tags:
            if tag.text == "optional":
                optional = True
            elif tag.text == "each_point":
                each_point = True
            elif tag.text == "each_card":  # once per card of a move
                each_card = True
            elif tag.text != "forced":
                self.error(tag.span, f"unknown trigger flag '{tag.text}'",
                           did_you_mean(tag.text, flags) or "flags: " + ", ".join(flags))
        if each_point and WINDOW_BY_ID[window].payload not in ("damage", "change"):
            self.error(m.window.span, "`each_point` repeats per point of damage or of an hp change: it needs a "
                       "damage window or hp_changed")
        misreads.whole_move_zone(self, m, window, each_card)
        if each_card and WINDOW_BY_ID[window].payload != "move":
            self.error(m.window.span, "`each_card` repeats per card of a move: it needs a move window (cards_lost)")
        variables = {"you": "player", **schema.PAYLOAD_VARS[WINDOW_BY_ID[window].payload]}
        scope = Scope({**variables, **soundness.WINDOW_VARS.get(window, {})})
        cond = self.expr_bool(m.cond, scope) if m.cond is not None else None
        self.defined = definitions(m.body)
        misreads.unused_lets(self, m.body)  # a misspelt name defines a new one
        body = self.block(m.body, soundness.narrowed(scope, soundness.not_none_paths(m.cond)))
        self.defined = {}
        guard = guards.guard_of(self, m.cond, scope) if m.cond is not None else ()
        bookkeeping = bool(m.body) and records.only_records(m.body)
        if bookkeeping and optional:
            flag = next(t for t in m.tags if t.text == "optional")
            self.error(flag.span, "this trigger only keeps a record: keeping one is not an invocation, so no "
                       "player is asked whether to", "drop `optional`: the record is kept whenever the condition "
                       "holds, and shows in no log line (only in a ruling's trace)")
        return TriggerDef(window, optional, cond, body, skill, m.span, each_point, each_card, guard=guard,
                          bookkeeping=bookkeeping and not optional, by=self.asked_by(m, optional, scope))

    def asked_by(self, m: ast.Trigger, optional: bool, scope: Scope) -> Fn | None:
        """`optional by PLAYER`: the player the window is about decides whether the skill acts
        (頌威: 該角色可以令你摸一張牌); checked in the scope the condition narrows."""
        if m.by is None:
            return None
        if not optional:
            self.error(m.by.span, "`by` names the player asked whether the skill acts: only an optional trigger asks",
                       "write `optional by PLAYER`, or drop `by`")
        fn, t = self.expr(m.by, soundness.narrowed(scope, soundness.not_none_paths(m.cond)))
        if schema.base_type(t) != "player":
            self.error(m.by.span, f"`by` needs a player, not {t}", "e.g. `optional by judge.player`")
        return fn

    def modifier(self, m: ast.Modifier) -> ModifierDef | None:
        name = m.name.text
        if name not in schema.MODIFIERS:
            self.error(m.name.span, f"unknown modifier '{name}'",
                       did_you_mean(name, schema.MODIFIERS) or "modifiers: " + ", ".join(schema.MODIFIERS))
            return None
        matches = self.pattern(m.pattern) if m.pattern is not None else None
        if name in ("limit", "targets", "range") and m.pattern is None:
            self.error(m.name.span, f"`{name}` modifies one kind of card: `modify {name}(CARD) ...` with a card name")
        if m.pattern is not None and name not in CARD_MODIFIERS:  # no card to match
            self.error(m.pattern.span, f"`{name}` is not about a card: it takes no card pattern",
                       "a pattern fits " + ", ".join(f"`{n}(...)`" for n in CARD_MODIFIERS))
        scope = Scope({"you": "player", "user": "player", "card": "card"} if name == "targets" else {"you": "player"})
        if name in DISTANCE_MODIFIERS and m.subject is None:
            scope.vars["player"] = "player"
        subject = self.modifier_subject(m, scope)  # `for others`, `player` the one bound
        unlimited = isinstance(m.value, ast.Var) and m.value.name == "unlimited"
        if name == "range" and not (unlimited and m.op == "="):
            self.error(m.value.span, "`range` lifts the attack-range limit of a card: its value is `= unlimited`",
                       "`modify range(CARD) = unlimited when ...;`")
        if unlimited:
            if name not in ("limit", "trick_distance", "hand_limit", "range") or m.op != "=" or (
                    name == "hand_limit" and m.pattern is None):
                self.error(m.value.span, "`unlimited` only fits `modify limit(...) = unlimited`, "
                           "`modify trick_distance = unlimited`, `modify range(...) = unlimited` "
                           "and `modify hand_limit(...) = unlimited`",
                           "`modify hand_limit(PATTERN) = unlimited;` keeps those cards out of the count"
                           if name == "hand_limit" else "")
            value = const(None)
        elif name == "hand_limit" and m.pattern is not None:  # the cards, not the number
            self.error(m.value.span, "a card pattern on `hand_limit` takes the matching cards out of the count",
                       "`modify hand_limit(PATTERN) = unlimited;`")
            return None
        else:
            value, t = self.expr(m.value, scope)
            want = "bool" if name in ("survive", "dying") else "int"  # survive and dying are true or false
            example = "`modify dying = false when ...`" if name == "dying" else "`modify survive = true when ...`"
            if t != want:
                self.error(m.value.span, f"a modifier's value must be a {'number' if want == 'int' else want}, "
                           f"not {t}", example if want == "bool" else "")
            if want == "bool" and (m.op != "=" or m.pattern is not None):
                self.error(m.span, f"`{name}` is set, for no card: {example}")
            if name == "dying" and not (isinstance(m.value, ast.Var) and m.value.name == "false"):
                self.error(m.value.span, "`dying` keeps its owner out of the dying state: its value is `false`",
                           "`modify dying = false when COND;` (the condition says while)")
        cond = self.expr_bool(m.cond, scope) if m.cond is not None else None
        where = self.modifier_where(m, scope)
        return ModifierDef(name, matches, m.op, value, cond, subject=subject, where=where)

    def modifier_where(self, m: ast.Modifier, scope: Scope) -> Test | None:
        """A condition on the target (`it`): `modify targets(CARD) += N where COND` (each of
        those N extra targets must meet it; the card's own targets keep the card's rule), and
        `modify range(CARD) = unlimited where COND` / `modify limit(CARD) = unlimited where COND`
        (no range limit, or not counted against the play phase's limit, on such a target)."""
        if m.where is None:
            return None
        extra = m.name.text == "targets" and m.op == "+="
        lifted = m.name.text in ("range", "limit") and m.op == "=" and isinstance(m.value, ast.Var) and (
            m.value.name == "unlimited")
        if not (extra or lifted) or m.subject is not None:
            self.error(m.where.span, "`where` is a condition on the target: it fits "
                       "`modify targets(CARD) += N where COND;`, `modify range(CARD) = unlimited where COND;` "
                       "and `modify limit(CARD) = unlimited where COND;` only (no `for`)",
                       "`modify targets(CARD) += 1 where distance(you, it) == 1;`")
            return None
        return self.expr_bool(m.where, Scope({**scope.vars, "it": "player"}))

    def modifier_subject(self, m: ast.Modifier, scope: Scope) -> str:
        """Whom a modifier binds; with a subject, `player` names the player bound."""
        if m.subject is None:
            return "you"
        if m.subject.text not in FORBID_SUBJECTS:
            self.error(m.subject.span, f"unknown modifier subject '{m.subject.text}'",
                       did_you_mean(m.subject.text, FORBID_SUBJECTS) or "subjects: " + ", ".join(FORBID_SUBJECTS))
        scope.vars["player"] = "player"
        return m.subject.text

    def view_as(self, m: ast.ViewAs, skill: str) -> ViewAsDef | None:
        return viewas_check.compile_view_as(self, m, skill)

    # ------------------------------------------------------------ patterns
    def pattern(self, p: ast.Pattern) -> CardTest:
        alternatives: list[tuple[CardTest, ...]] = []
        for term in p.alternatives:
            misreads.pattern_term(self, term)  # `無懈可擊 殺`, `red black`: never a match
            tests: list[CardTest] = []
            for atom in term:
                if atom.kind == "suit":
                    tests.append(_suit_is(atom.text))
                elif atom.text in schema.PATTERN_WORDS:
                    tests.append(schema.PATTERN_WORDS[atom.text])
                else:
                    matches = self.cards_named(atom.text, atom.span)
                    if len(matches) != 1:
                        self.error(atom.span, *names.ambiguity(atom.text, matches)) if matches else self.error(
                            atom.span, f"unknown card or pattern word '{atom.text}'",
                            did_you_mean(atom.text, self.card_names() + list(schema.PATTERN_WORDS))
                            or "patterns: a card name, a suit, " + ", ".join(schema.PATTERN_WORDS))
                        continue
                    tests.append(_kind_is(matches[0].key))
            alternatives.append(tuple(tests))
        return _matcher(tuple(alternatives))

    def pattern_kind(self, p: ast.Pattern) -> str | None:
        """The card a pattern asks for (its first card name), for questions like 'use a 閃?'."""
        for term in p.alternatives:
            for atom in term:
                if atom.kind == "name" and atom.text not in schema.PATTERN_WORDS:
                    kind = self.find_card(atom.text, atom.span)
                    if kind is not None:
                        return kind.key
        return None

    # ------------------------------------------------------------ statements
    def block(self, body: tuple[ast.Stmt, ...], scope: Scope) -> Block:
        soundness.unreachable(self, body)
        outer, scope.acting = scope.acting, True  # a caller may read in this scope after the block
        outer_body, scope.block_body = scope.block_body, body
        try:
            steps = tuple(self.stmt(s, scope) for s in body)
        finally:
            scope.acting, scope.block_body = outer, outer_body
        spans = tuple(s.span for s in body)
        n = len(steps)

        def run(ctx: Ctx) -> int | None:
            # the block's statements are paid for on entry: one decrement, not one per statement
            budget: Budget = ctx.game.budget
            budget.steps -= n
            if budget.steps < 0:
                budget.ran_out(spans[max(0, budget.steps + n)])  # the first statement past the budget
            for step in steps:
                signal = step(ctx)
                if signal:
                    return signal
            return None

        return run

    def stmt(self, s: ast.Stmt, scope: Scope) -> Block:
        if isinstance(s, ast.CallStmt):
            fn, _ = self.call(s.call, scope)

            def call_stmt(ctx: Ctx) -> None:
                fn(ctx)
            return call_stmt
        if isinstance(s, ast.Let):
            value, t = self.expr(s.value, scope)
            misreads.let_name(self, s.name)  # `let true = 0`, `let draw = 1`
            expressions.new_name(self, s.name, scope)
            scope.vars[s.name.text] = t
            scope.lets.add(s.name.text)
            name = s.name.text
            labels = choice_check.labels_chosen(s.value)
            if labels is not None and not any(len(x.path) == 1 and x.path[0].text == name
                                              for x in _sets_in(scope.block_body)):
                scope.options[name] = labels  # never `set`: it holds one of the labels

            def let(ctx: Ctx) -> None:
                ctx.vars[name] = value(ctx)
            return let
        if isinstance(s, ast.Set):
            return self.set_stmt(s, scope)
        if isinstance(s, ast.If):
            cond = self.expr_bool(s.cond, scope)
            yes, no = soundness.not_none_paths(s.cond), soundness.none_paths(s.cond)
            then = self.block(s.body, soundness.narrowed(scope, yes))
            orelse = self.block(s.orelse, soundness.narrowed(scope, no)) if s.orelse else None
            soundness.narrow_after(scope, s, yes, no)  # `if t == none { stop; }` guards what follows
            return lambda ctx: then(ctx) if cond(ctx) else (orelse(ctx) if orelse else None)
        if isinstance(s, ast.For):
            items, t = self.expr(s.items, scope)
            if t not in ("players", "cards", "strs", "any"):
                self.error(s.items.span, f"`for` needs players, cards or text, not {t}")
            if t == "any":  # a value kept on a use: its items are read as cards
                items = checked_cards(items, s.items.span)
            expressions.new_name(self, s.var, scope)
            inner = scope.child(loop=True)
            inner.vars[s.var.text] = expressions.ELEMENT.get(t, "card")
            body = self.block(s.body, inner)
            var = s.var.text

            where = s.span

            def for_each(ctx: Ctx) -> int | None:
                todo = list(items(ctx))
                budget: Budget = ctx.game.budget
                budget.spend(len(todo), where)  # a round costs a step, even an empty one
                for item in todo:
                    ctx.vars[var] = item
                    signal = body(ctx)
                    if signal == BREAK:
                        break
                    if signal == STOP:
                        return STOP
                return None
            return for_each
        if isinstance(s, ast.Repeat):
            count = self.expr_int(s.count, scope)
            body = self.block(s.body, scope.child(loop=True))

            where = s.span

            def repeat(ctx: Ctx) -> int | None:
                times = count(ctx)
                if times > MAX_LOOP:
                    raise RulesError(f"repeat {times} times is more than the limit of {MAX_LOOP}", where)
                budget: Budget = ctx.game.budget
                budget.spend(max(0, times), where)  # a round costs a step, even an empty one
                for _ in range(times):
                    signal = body(ctx)
                    if signal == BREAK:
                        break
                    if signal == STOP:
                        return STOP
                return None
            return repeat
        if isinstance(s, ast.Loop):
            body = self.block(s.body, scope.child(loop=True))
            where = s.span

            def loop(ctx: Ctx) -> int | None:
                for _ in range(MAX_LOOP):
                    signal = body(ctx)
                    if signal == BREAK:
                        return None
                    if signal == STOP:
                        return STOP
                raise RulesError(f"loop ran {MAX_LOOP} times without `break`", where)
            return loop
        if isinstance(s, ast.Break):
            if not scope.loop:
                self.error(s.span, "`break` outside a loop", "use `stop;` to end the whole block")
            return lambda ctx: BREAK
        if isinstance(s, ast.Stop):
            return lambda ctx: STOP
        raise AssertionError(f"unknown statement {s!r}")

    def set_stmt(self, s: ast.Set, scope: Scope) -> Callable[[Ctx], None]:
        head = s.path[0]
        t = scope.lookup(head.text)
        if t is None:
            self.unknown_var(head.text, head.span, scope)
            return lambda ctx: None
        if len(s.path) == 1:  # `set x = ...`: a `let` variable changes
            return expressions.set_var(self, s, t, scope)
        if len(s.path) != 2:
            self.error(s.span, "`set` changes one field of an event: `set damage.amount += 1;`")
            return lambda ctx: None
        field = s.path[1].text
        base = schema.base_type(t)
        own = base == "use" and field not in schema.MUTABLE["use"]  # damage_bonus is a field
        arith = s.op != "=" and not own
        value: Fn  # a number for `+=` and `-=`
        value, vtype = (self.expr_int(s.value, scope), "int") if arith else self.expr(s.value, scope)
        if own:
            if field in schema.USE_FIELDS:
                self.error(s.path[1].span, f"'use.{field}' cannot be changed",
                           f"the fields {', '.join(schema.USE_FIELDS)} of a use are fixed; `set use.NAME = ...` "
                           "keeps a value of your own on the use (e.g. `set use.pool = reveal(3);`)")
            name = field

            def set_use(ctx: Ctx) -> None:
                ctx.vars[head.text].vars[name] = value(ctx)
            return set_use
        if base == "damage" and s.op == "=" and state_check.own_field(field):
            var, name = head.text, field
            return lambda ctx: ctx.vars[var].vars.__setitem__(name, value(ctx))
        if field not in schema.MUTABLE.get(base, ()):
            allowed = sorted(schema.MUTABLE.get(base, ()))
            self.error(s.path[1].span, f"'{head.text}.{field}' cannot be changed",
                       f"changeable fields of {base}: {', '.join(allowed)}" if allowed else f"no field of {base} can be changed")
            return lambda ctx: None
        ftype = schema.FIELDS[base][field][0]  # the new value must fit the field
        named = state_check.literal(self, s.value, ftype) if s.op == "=" else None  # `= "火"`: a nature, read now
        if named is not None:
            value, vtype = named, ftype
        if schema.base_type(vtype) not in (schema.base_type(ftype), "any") and not (
                vtype == "none" and ftype.endswith("?")):
            self.error(s.value.span, f"'{head.text}.{field}' is {ftype}, not {vtype}")
            return lambda ctx: None
        op = s.op
        var = head.text
        where = s.span
        read = schema.FIELDS[base][field][1]  # `+=` reads the field as any expression would

        def set_field(ctx: Ctx) -> None:
            obj = ctx.vars[var]
            new = value(ctx)
            if op == "+=":
                new = bounded(read(obj) + new, where)
            elif op == "-=":
                new = bounded(read(obj) - new, where)
            setattr(obj, field, new)
        return set_field

    # ------------------------------------------------------------ expressions
    def expr_bool(self, e: ast.Expr, scope: Scope) -> Test:
        fn, t = self.expr(e, scope)
        soundness.check_condition(self, e, t)
        return fn

    def expr_int(self, e: ast.Expr, scope: Scope) -> IntFn:
        fn, t = self.expr(e, scope)
        if t not in ("int", "any"):
            self.error(e.span, f"expected a number, found {t}")
        return checked_int(fn, e.span) if t == "any" else fn

    def unknown_var(self, name: str, span: Span, scope: Scope) -> None:
        places = self.defined.get(name, [])
        later = [(how, at) for how, at in places if (at.line, at.column) > (span.line, span.column)]
        if later and all((at.line, at.column) > (span.line, span.column) for _, at in places):
            how, at = later[0]
            self.error(span, f"variable '{name}' is used before it is defined",
                       f"it is defined by `{how}` later, at line {at.line}, column {at.column}; "
                       "define it before using it")
            return
        if places:
            how, at = places[0]
            self.error(span, f"variable '{name}' is not visible here",
                       f"it is defined by `{how}` at line {at.line}, column {at.column} inside another block; "
                       "a name defined in an `if`, `for`, `repeat` or `loop` block is known only inside it")
            return
        hint = did_you_mean(name, scope.names())
        if not hint:
            if self.cards_named(name, span):
                hint = "a card name is not a value here; test a card with `is`, e.g. `card is " + name + "`"
            else:
                hint = "variables here: " + ", ".join(sorted(set(scope.names())))
        self.error(span, f"unknown variable '{name}'", hint)

    def expr(self, e: ast.Expr, scope: Scope) -> Typed:
        if isinstance(e, ast.Int):  # within ±MAX_INT: the parser (MAX_NUMBER) and the cache see to it
            return const(e.value), "int"
        if isinstance(e, ast.Str):
            return const(e.value), "str"
        if isinstance(e, ast.SuitLit):
            return const(e.suit), "str"
        if isinstance(e, ast.Var):
            if e.name in ("none", "true", "false"):
                return const({"none": None, "true": True, "false": False}[e.name]), (
                    "none" if e.name == "none" else "bool")
            t = scope.lookup(e.name)
            if t is None:
                self.unknown_var(e.name, e.span, scope)
                return const(None), "any"
            name = e.name
            return (lambda ctx: ctx.vars[name]), t
        if isinstance(e, ast.Field):
            return self.field(e, scope)
        if isinstance(e, ast.Call):
            return self.call(e, scope)
        if isinstance(e, ast.Arith):
            return self.arith(e, scope)
        if isinstance(e, ast.Compare):
            return self.compare(e, scope)
        if isinstance(e, ast.Logic):
            return soundness.logic(self, e, scope)
        if isinstance(e, ast.Not):
            test = self.expr_bool(e.expr, scope)
            return (lambda ctx: not test(ctx)), "bool"
        if isinstance(e, ast.Neg):
            number = self.expr_int(e.expr, scope)
            return (lambda ctx: -number(ctx)), "int"
        if isinstance(e, ast.Is):
            value, t = self.expr(e.expr, scope)
            if schema.base_type(t) not in ("card", "any"):
                self.error(e.expr.span, f"`is` tests a card against a pattern, but this is {t}")
            matches = self.pattern(e.pattern)
            if e.negate:  # a card is tested as its holder's filters make it count
                return (lambda ctx: not matches(ctx.game.filters.seen(value(ctx)))), "bool"
            return (lambda ctx: matches(ctx.game.filters.seen(value(ctx)))), "bool"
        if isinstance(e, ast.Filter):
            return self.filter(e, scope)
        if isinstance(e, ast.ListLit):
            return self.list_lit(e, scope)
        if isinstance(e, (ast.Cond, ast.Index, ast.Binder)):
            return expressions.expr(self, e, scope)
        raise AssertionError(f"unknown expression {e!r}")

    def arith(self, e: ast.Arith, scope: Scope) -> Typed:
        left: IntFn
        if e.op == "+":  # two lists of one type: joined (`recall(p, "借來的刀") + [lent]`)
            left_fn, lt = self.expr(e.left, scope)
            if lt in expressions.ELEMENT:
                return expressions.joined(self, e, left_fn, lt, scope)
            if lt == "any" and isinstance(e.right, ast.ListLit) and e.right.items:
                right_fn, rt = self.expr(e.right, scope)  # `set seen = seen + [card];` after `let seen = [];`
                if rt in expressions.ELEMENT:
                    return (lambda ctx: [*left_fn(ctx), *right_fn(ctx)]), rt
            left = checked_int(left_fn, e.left.span) if lt == "any" else left_fn
            if lt not in ("int", "any"):
                self.error(e.left.span, f"expected a number, found {lt}",
                           "`+` adds numbers or joins two lists of one type")
        else:
            left = self.expr_int(e.left, scope)
        right = self.expr_int(e.right, scope)
        where = e.span
        if e.op in ("/", "%"):
            return expressions.divide(self, e, left, right)
        op = _ARITH[e.op]
        return (lambda ctx: bounded(op(left(ctx), right(ctx)), where)), "int"

    def compare(self, e: ast.Compare, scope: Scope) -> Typed:
        left, lt = self.expr(e.left, scope)
        right, rt = self.expr(e.right, scope)
        # a literal compared with a phase name, kingdom or gender
        left = state_check.literal(self, e.left, rt) or left
        right = state_check.literal(self, e.right, lt) or right
        if e.op in ("==", "!="):
            soundness.check_equal(self, e, lt, rt)
            soundness.check_kingdom_pair(self, e)
            choice_check.check_label(self, e, scope)
            identity = any(schema.base_type(t) in ("player", "card", "use") or t == "none" for t in (lt, rt))
            op = _COMPARE[e.op] if identity else (operator.eq if e.op == "==" else operator.ne)
        else:
            op = _COMPARE[e.op]
            for side, t in ((e.left, lt), (e.right, rt)):
                if t not in ("int", "any"):
                    self.error(side.span, f"'{e.op}' compares numbers, not {t}")
        return (lambda ctx: op(left(ctx), right(ctx))), "bool"

    def list_lit(self, e: ast.ListLit, scope: Scope) -> Typed:
        """a list written out: of players, of cards or of text, one type throughout."""
        parts = [self.expr(i, scope) for i in e.items]
        types_ = {schema.base_type(t) for _, t in parts} - {"any"}
        if len(types_) > 1:
            self.error(e.span, "a list holds values of one type, found " + ", ".join(sorted(types_)))
        elif types_ and not types_ <= set(expressions.LIST_OF):
            self.error(e.span, f"a list holds players, cards, text, numbers or conditions, not {types_.pop()}")
        t = expressions.LIST_OF.get(next(iter(types_), ""), "any")
        fns = tuple(fn for fn, _ in parts)
        return (lambda ctx: [fn(ctx) for fn in fns]), t

    def filter(self, e: ast.Filter, scope: Scope) -> Typed:
        items, t = self.expr(e.items, scope)
        if t not in ("players", "cards", "strs", "any"):
            self.error(e.items.span, f"`[x in LIST where ...]` needs players, cards or text, not {t}")
        if t == "any":  # a value kept on a use: its items are read as cards
            items = checked_cards(items, e.items.span)
        misreads.variable_name(self, e.var)
        inner = scope.child()
        inner.vars[e.var.text] = expressions.ELEMENT.get(t, "card")
        test = self.expr_bool(e.cond, inner)
        var = e.var.text
        where = e.span

        def keep(ctx: Ctx) -> list[Any]:
            saved = ctx.vars.get(var)
            kept = []
            todo = items(ctx) or ()
            budget: Budget = ctx.game.budget
            budget.spend(len(todo), where)  # a test per item, like a `for` round
            for item in todo:
                ctx.vars[var] = item
                if test(ctx):
                    kept.append(item)
            ctx.vars[var] = saved
            return kept
        return keep, t

    def field(self, e: ast.Field, scope: Scope) -> Typed:
        obj, t = self.expr(e.obj, scope)
        base = schema.base_type(t)
        if base == "any":
            return (lambda ctx: None), "any"
        soundness.check_field_of(self, e, t)  # `damage.source.hp` needs damage.source guarded
        if base == "use" and e.name in self.use_vars:
            name = e.name
            return (lambda ctx: obj(ctx).vars.get(name)), "any"
        if base == "damage" and e.name in self.damage_vars and e.name not in schema.DAMAGE_FIELDS:
            name = e.name
            return (lambda ctx: obj(ctx).vars.get(name)), "any"
        fields = schema.FIELDS.get(base)
        if fields is None or e.name not in fields:
            known = list(fields) if fields else []
            if base == "use":
                known += sorted(self.use_vars)
            hint = did_you_mean(e.name, known) or (f"fields of {base}: {', '.join(known)}" if known else "")
            self.error(e.span, f"{base} has no field '{e.name}'", hint)
            return const(None), "any"
        ftype, getter = fields[e.name]
        ftype = soundness.strip_optional(ftype) if soundness.is_narrowed(scope, e) else ftype
        if e.name in schema.FILTERED_FIELDS.get(base, ()):  # read through filters
            def seen(ctx: Ctx) -> Any:
                value = obj(ctx)
                return None if value is None else getter(ctx.game.filters.seen(value))
            return seen, ftype

        def get(ctx: Ctx) -> Any:
            value = obj(ctx)
            return None if value is None else getter(value)
        return get, ftype

    def call(self, c: ast.Call, scope: Scope) -> Typed:
        name = c.name.text
        builtin = schema.BUILTINS.get(name)
        if builtin is None:  # min, max, ...; a procedure; or an unknown name
            return expressions.call(self, c, scope)
        if name not in schema.READS and not scope.may_act():
            soundness.acts_in_a_read(self, c, "an effect")
        if builtin.generals:
            self.general_calls.append(c.name)  # checked against the modes of the rulesets that play it
        if builtin.needs and scope.lookup(builtin.needs) is None:
            self.error(c.name.span, f"'{name}' only works where '{builtin.needs}' is known "
                       f"(a trigger on the `{builtin.needs}` window)")
            return const(None), "any"
        n = len(c.args)
        if n < builtin.required or n > len(builtin.params):
            sig = ", ".join(p.name for p in builtin.params)
            self.error(c.span, schema.arity_message(name, builtin.required, len(builtin.params), n), f"{name}({sig})")
            return const(None), builtin.returns
        args = [self.argument(a, p.type, scope) for a, p in zip(c.args, builtin.params, strict=False)]
        kwargs: dict[str, Fn] = {}
        for written, value in c.kwargs:
            if written.text not in builtin.keywords:
                self.error(written.span, f"'{name}' has no option '{written.text}'",
                           did_you_mean(written.text, builtin.keywords) or
                           (f"options: {', '.join(builtin.keywords)}" if builtin.keywords else f"'{name}' takes no options"))
                continue
            kwargs[written.text] = self.argument(value, builtin.keywords[written.text][0], scope, matcher=True)
        for key, (_ktype, default) in builtin.keywords.items():
            if key not in kwargs:
                if default == "default":
                    source = "user" if scope.lookup("user") else "you"
                    if scope.lookup(source) is None:
                        procedures.no_owner(self, c, key)
                    kwargs[key] = _variable(source)
                else:
                    kwargs[key] = const(default)
        rule = CALL_RULES.get(name)
        if rule is not None:
            rule(self, c, kwargs, scope)
        impl = IMPLS[name]
        names = tuple(p.name for p in builtin.params[:n]) + tuple(kwargs)
        counted = tuple((names.index(p), f"{name}({p})") for p in COUNTS.get(name, ()) if p in names)
        returns = state_check.returns(self, name, c, builtin.returns)  # recall's type
        returns = soundness.returns(name, c, returns, scope)  # a choice from a list with an item
        return _guarded(impl, tuple(args), tuple(kwargs.items()), counted, c.span, self.call_cost(c)), returns

    # ------------------------------------------------------------ what a few calls settle when compiled
    def _mark_rule(self, c: ast.Call, kwargs: dict[str, Fn], scope: Scope) -> None:
        key = c.args[1] if len(c.args) > 1 else None
        if isinstance(key, ast.Str):  # a name computed at run time is not checked
            if c.name.text == "mark":
                self.marks_set.add(key.value)
            else:
                self.marks_read.append((key.value, key.span))

    def _confirm_rule(self, c: ast.Call, kwargs: dict[str, Fn], scope: Scope) -> None:
        kwargs.update(self.confirm_labels(c))

    def _offers_rule(self, c: ast.Call, kwargs: dict[str, Fn], scope: Scope) -> None:
        choice_check.check_offers(self, c)

    def _history_rule(self, c: ast.Call, kwargs: dict[str, Fn], scope: Scope) -> None:
        # the engine records moves only in a game whose text asks about them
        if self.compiling_skill is not None:
            self.history_skills.add(self.compiling_skill)
        else:
            self.history_used = True

    def _damage_card_rule(self, c: ast.Call, kwargs: dict[str, Fn], scope: Scope) -> None:
        """A damage in a card's text is dealt by that card, unless `card:` says otherwise."""
        if any(k.text == "card" for k, _ in c.kwargs):
            return
        in_card = scope.lookup("user") is not None and scope.lookup("card") is not None
        kwargs["card"] = (lambda ctx: ctx.vars.get("card")) if in_card else const(None)

    def confirm_labels(self, c: ast.Call) -> dict[str, Fn]:
        """The two answers of `confirm`, fixed now: written as text, or read off a question
        `是否V？` (V and 不V). Each says what it does; a bare 是／否 would not."""
        given = {key.text: value for key, value in c.kwargs}
        question = c.args[1] if len(c.args) > 1 else None
        found = _YES_NO.fullmatch(question.value.strip()) if isinstance(question, ast.Str) else None
        derived = {"yes": found.group(1), "no": "不" + found.group(1)} if found else {}
        labels = {key: self.confirm_label(c, key, given.get(key), derived.get(key)) for key in ("yes", "no")}
        if labels["yes"] == labels["no"]:
            self.error(c.span, f"both answers of 'confirm' are labelled '{labels['yes']}'",
                       "give the two answers different labels")
        return {key: const(label) for key, label in labels.items()}

    def confirm_label(self, c: ast.Call, key: str, value: Any, derived: str | None) -> str:
        if value is None:
            if derived is None:
                self.error(c.span, f"'confirm' needs a `{key}:` label: its question is not of the form '是否…？'",
                           'name both answers, e.g. confirm(p, "選擇一項", yes: "棄置兩張手牌", no: "受到1點傷害")')
                return key
            return derived
        if not isinstance(value, ast.Str) or not value.value.strip():
            self.error(value.span, f"the `{key}:` label of 'confirm' must be written as text",
                       'it is the answer a ruling names, e.g. yes: "棄置兩張手牌"')
            return key
        label = value.value.strip()
        if label in ("是", "否"):
            self.error(value.span, f"the `{key}:` label '{label}' does not say what the answer does",
                       'name the action, e.g. yes: "發動", no: "不發動"')
        return label

    def name_domains(self) -> dict[str, dict[str, str]]:
        """The argument types a bare word is looked up in (a zone, a phase, a pile, ...), each
        word with the name it stands for."""
        domains = {"nature": schema.NATURES, "phase": schema.PHASE_NAMES, "mark_scope": {s: s for s in schema.MARK_SCOPES},
                   "zone": {z: z for z in schema.ZONES}, "slot": {s: s for s in schema.SLOTS}}
        domains.update(moves_check.domains(self))  # zones with piles, places, reasons
        return domains

    def argument(self, a: ast.Expr, ptype: str, scope: Scope, matcher: bool = False) -> Fn:
        """Arguments whose type is a name domain (pattern, nature, phase, zone, slot) are resolved now;
        a pattern only `matcher` (a keyword: `match: red`) may be a pattern word naming no card."""
        if ptype in state_check.ARG_TYPES:
            return state_check.argument(self, a, ptype, scope)
        if ptype in choice_check.ARG_TYPES:  # labels, offers, card names written out
            return choice_check.argument(self, a, ptype, scope)
        if ptype in ("pattern", "virtual_card"):
            if isinstance(a, ast.Field) and isinstance(a.obj, ast.Var) and scope.lookup(a.obj.name) is None:
                a = ast.Var(f"{a.obj.name}.{a.name}", a.span)  # standard.殺: a card with its package
            if not isinstance(a, ast.Var):
                self.error(a.span, "expected a card name here")
                return const((lambda c: False, None))
            pattern = ast.Pattern(((ast.PatAtom("name", a.name, a.span),),), a.span)
            kind = self.find_card(a.name, a.span)
            if ptype == "virtual_card" and kind is not None and (kind.is_equip or kind.type == "delayed"):
                self.error(a.span, f"'{kind.name}' cannot be used as a virtual card: an equipment or a "
                           "delayed trick is placed as a real card", "use a basic card or an instant trick here")
            if kind is None and a.name in schema.PATTERN_WORDS and not matcher:  # asks for a card by its name
                self.error(a.span, f"'{a.name}' is a pattern word, not a card name: a card name is expected here",
                           "name one card of the library here: a pattern word (red, trick) names none")
                return const((lambda c: False, None))
            return const((self.pattern(pattern), self.pattern_kind(pattern)))
        domains = self.name_domains()
        word_only = ptype in moves_check.WORD_ONLY  # a word, even where a variable has its name
        if ptype in domains and isinstance(a, ast.Var) and (word_only or scope.lookup(a.name) is None):
            table = domains[ptype]
            if a.name not in table:
                self.error(a.span, f"unknown {ptype} '{a.name}'",
                           did_you_mean(a.name, table) or f"{ptype}s: {', '.join(table)}")
                return const(None)
            return const(table[a.name])
        if word_only:
            self.error(a.span, f"expected a {ptype} name here", f"{ptype}s: {', '.join(domains[ptype])}")
            return const(None)
        if ptype in domains and isinstance(a, ast.Str):  # a quoted name is checked like a bare one
            table = domains[ptype]
            if a.value not in table:
                what = ptype.replace("_", " ")
                self.error(a.span, f"unknown {what} \"{a.value}\"",
                           did_you_mean(a.value, table) or f"{what}s: {', '.join(table)}")
                return const(None)
            return const(table[a.value])
        fn, t = self.expr(a, scope)
        if ptype in domains:  # a name computed at run time: checked when it is known
            if schema.base_type(t) in _NOT_NAMES:
                what = ptype.replace("_", " ")
                self.error(a.span, f"expected a {what} name here, found {t}", f"{what}s: {', '.join(domains[ptype])}")
                return const(None)
            return _in_domain(fn, domains[ptype], ptype.replace("_", " "), a.span)
        want = schema.base_type(ptype)
        got = schema.base_type(t)
        if want in ("player", "int", "card", "use", "damage", "bool", "strs") and got not in (want, "any", "none"):
            self.error(a.span, f"expected {want}, found {t}")
        if got == "none" and not ptype.endswith("?"):
            self.error(a.span, f"'none' is not allowed here; expected {want}")
        fn = soundness.check_arg(self, a, ptype, t, fn, scope)  # lists, cards, "X or none" where X is needed
        return checked_int(fn, a.span) if want == "int" and got == "any" else fn


# the types of values that are never a name (of a zone, a phase, a nature, ...)
_NOT_NAMES = frozenset(("player", "players", "card", "cards", "int", "bool", "use", "damage", "none"))


# The calls whose compiling settles something beyond their arguments' types, in one place:
# labels fixed at load time, offers checked against their options, the history switched on,
# a card's damage credited to that card.
CALL_RULES: dict[str, Callable[[Compiler, ast.Call, dict[str, Fn], Scope], None]] = {
    "confirm": Compiler._confirm_rule,
    "choose_option": Compiler._offers_rule,
    "history": Compiler._history_rule,
    "damage_history": Compiler._history_rule,
    "damage": Compiler._damage_card_rule,
    "mark": Compiler._mark_rule,
    "marks": Compiler._mark_rule,
}


def _in_domain(fn: Fn, table: dict[str, Any], what: str, where: Span) -> Fn:
    """A name of a closed set computed at run time: the engine's value for it, or a located
    rules error for a name outside the set (never a Python error deep in the engine)."""
    def named(ctx: Ctx) -> Any:
        value = fn(ctx)
        if value in table:
            return table[value]
        raise RulesError(f"unknown {what} {value!r}; {what}s: {', '.join(table)}", where)
    return named


def _guarded(impl: Callable[..., Any], arg_fns: tuple[Fn, ...], kw_items: tuple[tuple[str, Fn], ...],
             counted: tuple[tuple[int, str], ...], where: Span, levels: int) -> Fn:
    """A builtin's call within the game's budget. Text sets off more text only through calls,
    so a call counts `levels` of nesting (CALL_LEVELS and the level it is written at); a count
    it asks for (`counted`: the index of the value among the arguments, and its name) is
    capped and paid for in steps."""
    if not counted and not kw_items and len(arg_fns) <= 2:
        return _guarded_short(impl, arg_fns, where, levels)
    npos = len(arg_fns)
    keys = tuple(k for k, _ in kw_items)
    fns = arg_fns + tuple(f for _, f in kw_items)

    def run(ctx: Ctx) -> Any:
        budget: Budget = ctx.game.budget
        values = [f(ctx) for f in fns]
        for i, what in counted:
            budget.count(values[i], what, where)
        if budget.depth + levels > MAX_DEPTH:  # Budget.enter, inlined: calls are frequent
            budget.too_deep(where)
        budget.depth += levels
        try:
            if not keys:  # most calls name no argument: no slice, no dict of keywords
                return impl(ctx, *values)
            return impl(ctx, *values[:npos], **dict(zip(keys, values[npos:], strict=True)))
        except RecursionError:  # a last resort: the levels keep Python's stack far from full
            raise RulesError(STACK_FULL, where) from None
        except RulesError as problem:  # the engine refused: name the call that asked
            raise _located(problem, where) from None
        finally:
            budget.depth -= levels
    return run


def _guarded_short(impl: Callable[..., Any], arg_fns: tuple[Fn, ...], where: Span, levels: int) -> Fn:
    """`_guarded` for the most frequent calls, of up to two positional arguments (queries in
    conditions: `in_range(user, it)`), without building argument lists per call."""
    n = len(arg_fns)
    first = arg_fns[0] if n > 0 else _NOTHING
    second = arg_fns[1] if n > 1 else _NOTHING

    def run(ctx: Ctx) -> Any:
        budget: Budget = ctx.game.budget
        if budget.depth + levels > MAX_DEPTH:
            budget.too_deep(where)
        budget.depth += levels
        try:
            if n == 2:
                return impl(ctx, first(ctx), second(ctx))
            return impl(ctx, first(ctx)) if n == 1 else impl(ctx)
        except RecursionError:
            raise RulesError(STACK_FULL, where) from None
        except RulesError as problem:  # the engine refused: name the call that asked
            raise _located(problem, where) from None
        finally:
            budget.depth -= levels
    return run


_NOTHING = const(None)  # no argument: never called


def _located(problem: RulesError, where: Span) -> RulesError:
    """A rules error the engine raised without a place: at the call of the text that asked."""
    return problem if problem.span is not None else RulesError(str(problem), where)


def _variable(name: str) -> Fn:
    """A variable's value, none where it has none (an effect's default: `you` or `user`)."""
    return lambda ctx: ctx.vars.get(name)


def _suit_is(suit: str) -> CardTest:
    return lambda c: c.suit == suit


#: id of a definition -> (a weak reference to it, its calls' levels): an editor checks the same
#: unchanged definitions again at every keystroke (editor/lsp.py keeps their trees)
_LEVELS: dict[int, tuple[weakref.ref[Any], tuple[tuple[int, int], ...]]] = {}


def _call_levels(definition: Any) -> tuple[tuple[int, int], ...]:
    """(id of each call, its level of nesting) in one definition, remembered while it lives."""
    known = _LEVELS.get(id(definition))
    if known is not None and known[0]() is definition:
        return known[1]
    found = tuple((id(node), level) for node, level in ast.levels((definition,)) if isinstance(node, ast.Call))
    if len(_LEVELS) > 20000:  # the trees of definitions long gone
        _LEVELS.clear()
    _LEVELS[id(definition)] = (weakref.ref(definition), found)
    return found


@functools.lru_cache(maxsize=256)
def _package_of(file: str) -> str:
    """The package of a file (its stem), asked for every card name a text reads."""
    return Path(file).stem


def _kind_is(key: str) -> CardTest:
    return lambda c: c.kind.is_a(key)


def _matcher(alts: tuple[tuple[CardTest, ...], ...]) -> CardTest:
    """A pattern's test: any alternative whose atoms all hold. One atom, or one alternative
    (most patterns: `殺`, `red`), is tested without generators: patterns run for every card
    at every free time."""
    if len(alts) == 1 and len(alts[0]) == 1:
        only = alts[0][0]
        return lambda c: c is not None and bool(only(c))
    if len(alts) == 1:
        term = alts[0]
        return lambda c: c is not None and all(t(c) for t in term)
    return lambda c: c is not None and any(all(t(c) for t in term) for term in alts)


def _set_names(members: Sequence[ast.Member], head: str) -> set[str]:
    """the names `set HEAD.NAME = ...` gives a value in these members."""
    return {m.path[1].text for m in _walk_sets(members) if len(m.path) == 2 and m.path[0].text == head}


def _walk_sets(members: Sequence[ast.Member]) -> list[ast.Set]:
    """The `set` statements of the members' blocks and triggers, at any depth."""
    return [x for m in members if isinstance(m, (ast.Block, ast.Trigger)) for x in _sets_in(m.body)]


def _sets_in(stmts: Sequence[ast.Stmt]) -> list[ast.Set]:
    """The `set` statements among these statements, at any depth."""
    found: list[ast.Set] = []
    for s in stmts:
        if isinstance(s, ast.Set):
            found.append(s)
        for attr in ("body", "orelse"):
            inner = getattr(s, attr, None)
            if inner:
                found += _sets_in(inner)
    return found


# builtins that read the card of the context without naming it (in_range reads it only for a
# `modify range(PATTERN)`, which the engine checks at run time: Game.kinds_judged_alike)
_READS_CARD = frozenset(("damage", "recover"))


def _card_free(expr: Any) -> bool:
    """A target condition whose value cannot depend on which card of a kind is used: it names
    no `card`, calls no procedure (whose body might) nor a builtin reading the card unnamed,
    and counts no list items (which spend steps)."""
    if isinstance(expr, ast.Var):
        return expr.name != "card"
    if isinstance(expr, ast.Call) and (expr.name.text in _READS_CARD or expr.name.text not in schema.BUILTINS):
        return False
    if isinstance(expr, (ast.Filter, ast.Binder)):
        return False
    if isinstance(expr, tuple):
        return all(_card_free(item) for item in expr)
    if attrs.has(type(expr)) and not isinstance(expr, Span):
        return all(_card_free(getattr(expr, f.name)) for f in attrs.fields(type(expr)))
    return True


def _any_pattern(pattern: ast.Pattern) -> bool:
    """The pattern is the single word `any`."""
    return [[a.text for a in alt] for alt in pattern.alternatives] == [["any"]]
