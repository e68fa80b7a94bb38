"""The library: every card, skill, hero, deck and ruleset of a set of .sgs files, checked and
compiled. Parsing is cached on disk (`syntax.cache`), so a second start does not re-parse."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..core import names
from ..core.defs import CardKind, CardSpec, Ruleset, Skill
from ..core.model import Card
from ..core.modes import MODE_SPECS, ModeOption
from ..core.names import Definitions
from ..gcpause import no_gc
from ..resources import library_files
from ..syntax import ast
from ..syntax.cache import parse_cached
from ..syntax.diagnostics import Diagnostic, SgsError, Span, did_you_mean
from ..syntax.names import normalize
from ..syntax.source import decode_source, read_bytes
from . import misreads, moves_check, procedures, schema, state_check
from .compiler import MAX_ERRORS, Compiler, TooManyErrors

# what every ruleset may say, whatever its mode (core/modes.py declares each mode's own options)
RULESET_PROPS = ("mode", "decks", "heroes", "max_turns", "variants")

SUIT_SIGNS = {"spade": "♠", "heart": "♥", "club": "♣", "diamond": "♦"}
HERO_PROPS = ("kingdom", "gender", "hp", "skills", "lord")
GENERAL_PROPS = ("kingdom", "gender", "hp_half", "skills", "companions")
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(i): i for i in range(1, 14)}}


def parse_file(path: Path) -> ast.Module:
    """Parse a file, reusing the cached AST of identical text when there is one."""
    text = decode_source(read_bytes(path), str(path))
    return parse_cached(text, str(path))


@attrs.define
class Hero:
    name: str
    id: str
    kingdom: str
    gender: str
    hp: int
    skills: tuple[Skill, ...]
    span: Span
    package: str = ""  # the stem of the file that defines it: heroes/standard.sgs -> standard
    never_lord: bool = False  # `lord never;`: never dealt to the lord to choose (不可做主公)
    key: str = ""  # what the engine keeps it by: its name, or package.name when shared (core/names.py)


@attrs.define(eq=False)
class General:
    """A 國戰 general card (武將牌): two of one kingdom make a player (seed 001)."""

    name: str
    id: str
    kingdom: str
    gender: str
    hp_half: int  # half yin-yang fish: a player's max hp is the two generals' halves, halved and floored
    skills: tuple[Skill, ...]
    span: Span
    package: str = ""
    companions: frozenset[str] = frozenset()  # 珠聯璧合: the keys of the generals it pairs with (symmetric)
    key: str = ""  # its name, or package.name when shared (core/names.py)


@attrs.frozen
class Deck:
    """A deck's name in its package, to read the names rulesets give (core/names.py)."""

    name: str
    id: str
    package: str
    key: str


@attrs.define
class Library:
    cards: Definitions[CardKind]  # by key; `cards.find` reads any spelling
    decks: dict[str, list[tuple[CardKind, str, int]]]  # by key: its name, or package.name when shared
    rulesets: dict[str, Ruleset]
    skills: Definitions[Skill]  # by key; `skills.find` reads any spelling
    heroes: Definitions[Hero]  # by key; `heroes.find` reads any spelling
    files: tuple[str, ...]
    piles: dict[str, bool] = attrs.field(factory=dict)  # pile name -> public
    history_used: bool = False  # text outside any skill queries the history of moves (or may grant such a skill)
    warnings: tuple[Diagnostic, ...] = ()  # what loads but looks like a slip (an unused `let`)
    generals: Definitions[General] = attrs.field(factory=lambda: Definitions([]))  # 國戰 general cards, by key
    history_skills: frozenset[str] = frozenset()  # the skills whose text queries the history
    history_grants: frozenset[str] = frozenset()  # the skills that may grant one of those
    # ruleset -> (its deck list, the cards made of it): dealt_cards()
    _dealt: dict[str, tuple[list, tuple[Card, ...]]] = attrs.field(factory=dict, init=False, repr=False, eq=False)

    def queries_history(self, ruleset: Ruleset | None) -> bool:
        """Moves need recording in a game of this ruleset: its heroes' (or generals') skills,
        or text outside any skill, ask about them; with no ruleset, whenever any text does."""
        if self.history_used:
            return True
        if ruleset is None:
            return bool(self.history_skills)
        pool = [h for table in (self.heroes, self.generals) for h in table.values() if h.package in ruleset.heroes]
        return any(s.key in self.history_skills or s.key in self.history_grants for h in pool for s in h.skills)

    @property
    def default_ruleset(self) -> str:
        for r in self.rulesets.values():
            if r.default:
                return r.name
        if not self.rulesets:  # a library of cards and heroes only: nothing says how to play them
            raise KeyError("the library defines no ruleset; a game needs one (`ruleset NAME { ... }`)")
        return next(iter(self.rulesets))

    def ruleset(self, name: str) -> Ruleset:
        if name not in self.rulesets:
            hint = did_you_mean(name, self.rulesets) or "known: " + ", ".join(self.rulesets)
            raise KeyError(f"unknown ruleset '{name}'; {hint}")
        return self.rulesets[name]

    def deck_list(self, ruleset: str) -> list[tuple[CardKind, str, int]]:
        """The ruleset's cards as dealt, deck after deck: a kind it plays under a variant
        (`variants`) is dealt as the variant, with the same suit and rank."""
        r = self.ruleset(ruleset)
        variants = r.options.get("variants", {})
        return [(variants.get(kind.key, kind), suit, rank) for deck in r.decks for kind, suit, rank in self.decks[deck]]

    def dealt_cards(self, ruleset: str) -> list[Card]:
        """The ruleset's physical cards, numbered in deck order. A card is frozen and equal only
        to itself, so the games of one library share them: they are made again only when the
        deck list is no longer the one they were made from (a ruleset changed in place)."""
        cards = self.deck_list(ruleset)
        known = self._dealt.get(ruleset)
        if known is None or known[0] != cards:
            known = self._dealt[ruleset] = (cards, tuple(Card(i, kind, suit, rank)
                                                         for i, (kind, suit, rank) in enumerate(cards)))
        return list(known[1])

    def deck_cards(self, ruleset: str) -> list[CardSpec]:
        return [CardSpec(kind.name, kind.id, suit, rank, kind.type) for kind, suit, rank in self.deck_list(ruleset)]


def _collect(paths: Sequence[Path]) -> list[Path]:
    files: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():  # regular files only: reading a FIFO named x.sgs would block
            files.extend(f for f in sorted(p.rglob("*.sgs")) if f.is_file())
        elif p.is_file():
            files.append(p)
        elif p.exists():
            raise SgsError([Diagnostic(Span(str(p), 0, 0), f"not a regular file: {p}", "name a .sgs file or a folder")])
        else:
            raise SgsError([Diagnostic(Span(str(p), 0, 0), f"no such file or folder: {p}")])
    return files


def build(files: Sequence[Path], parse: Callable[[Path], ast.Module] = parse_file) -> Library:
    """Parse, check and compile files into a Library; raise SgsError listing every problem.
    `parse` reads one file (an editor reads its unsaved text instead: `check_texts`)."""
    with no_gc():  # the trees and closures built stay alive: nothing for the collector to find
        return _build(files, parse)


def _build(files: Sequence[Path], parse: Callable[[Path], ast.Module] = parse_file) -> Library:
    modules: list[ast.Module] = []
    diagnostics: list[Diagnostic] = []
    for f in files:
        try:
            modules.append(parse(f))
        except SgsError as error:
            diagnostics.extend(error.diagnostics)
    lines = {m.path: m.lines for m in modules}
    compiler = Compiler(Definitions([]), lambda path: lines.get(path, ()))
    compiler.know_levels(modules)
    stopped = False
    try:
        built_in = {f.resolve() for f in library_files()}
        base = frozenset(Path(f).stem for f in files if Path(f).resolve() in built_in)
        library = _Builder(compiler, modules, base).build()
    except TooManyErrors:
        stopped = True
    diagnostics.extend(compiler.diagnostics)
    if diagnostics:
        order = {str(f): i for i, f in enumerate(files)}
        diagnostics.sort(key=lambda d: (order.get(d.span.file, len(order)), d.span.file, d.span.line, d.span.column))
        if stopped:  # said last, at the error the check stopped at
            diagnostics.append(Diagnostic(compiler.diagnostics[-1].span,
                                          f"too many errors: the check stopped here, at its {MAX_ERRORS}th",
                                          "fix these and check again", severity="note"))
        raise SgsError(diagnostics)
    library.files = tuple(str(f) for f in files)
    library.warnings = tuple(sorted(compiler.warnings, key=lambda d: (d.span.file, d.span.line, d.span.column)))
    return library


class _Builder:
    def __init__(self, compiler: Compiler, modules: list[ast.Module], base: frozenset[str] = frozenset()):
        self.c = compiler
        self.modules = modules
        self.base = base  # the packages of the built-in library (core/names.py)
        self.seen: dict[tuple[str, str], Span] = {}
        self.deck_defs: tuple[list[tuple[ast.DeckDef, Deck]], Definitions[Deck]] = ([], Definitions([]))

    def defs(self, kind: type):
        for m in self.modules:
            for d in m.definitions:
                if isinstance(d, kind):
                    yield d

    def unique(self, what: str, name: ast.Name, key: str | None = None, package: str = "") -> bool:
        """The first definition of its kind so named (in its package, when one is given)."""
        k = (what, key or normalize(name.text))
        if k in self.seen:
            within = f" in the package '{package}'" if package else ""
            self.c.error(name.span, f"duplicate {what} '{name.text}'{within}", f"first defined at {self.seen[k]}"
                         + ("; another package (another file name) may print the same name" if package else ""))
            return False
        self.seen[k] = name.span
        return True

    def packaged(self, what: str, definitions: Iterable[Any]) -> list[tuple[Any, str]]:
        """The definitions, each with its package, that are the first of their name (and id)
        in their package: two packages may print one name (core/names.py)."""
        found = []
        for d in definitions:
            package = _package(d.span)
            ident = getattr(d, "id", None)
            if self.unique(what, d.name, f"{package}:{normalize(d.name.text)}", package) and (
                    ident is None or self.unique(f"{what} id", ident, f"{package}:{ident.text.lower()}", package)):
                found.append((d, package))
        return found

    def build(self) -> Library:
        self.deck_defs = self.deck_names()
        nodes = self.cards()
        cards = Definitions([kind for _, kind in nodes], self.base)
        self.c.cards = cards
        self.c.card_scopes = self.card_scopes()
        self.c.link_likes(nodes)
        moves_check.declare_piles(self.c, list(self.defs(ast.SkillDef)) + list(self.defs(ast.CardDef)))
        procs = list(self.defs((ast.ProcedureDef, ast.DefineDef)))  # callable from every text below
        procedures.declare(self.c, procs)
        procedures.compile_all(self.c, procs)
        for d, kind in nodes:
            self.c.compile_card(d, kind)
        inherited: set[int] = set()
        for _, kind in nodes:
            _inherit_chain(kind, inherited)
        skills = self.skills()
        heroes = self.heroes(skills)
        generals = self.generals(skills)
        state_check.check_names(self.c, skills, heroes)  # skills and heroes named by text
        state_check.check_marks(self.c)  # marks read by a name some text sets
        decks = self.decks()
        rulesets = self.rulesets(decks, self.deck_defs[1], heroes, {g.package for g in generals.values()})
        _general_effects(self.c, rulesets, decks)
        # the skills that may grant one that queries the history: by name, or by a name computed in play
        grants = {by for ptype, found, by in self.c.granted if ptype == "skill" and found.key in self.c.history_skills}
        if self.c.history_skills:
            grants |= self.c.computed_skills
        # text outside any hero skill (a card's, a procedure) that may bring one: every game records
        history_used = self.c.history_used or any(by not in skills for by in grants)
        return Library(cards, decks, rulesets, skills, heroes, (), moves_check.pile_table(self.c), history_used,
                       generals=generals, history_skills=frozenset(self.c.history_skills),
                       history_grants=frozenset(by for by in grants if by in skills))

    def cards(self) -> list[tuple[ast.CardDef, CardKind]]:
        """The cards, each its package's: two packages may print one name (an older printing)."""
        found = self.packaged("card", self.defs(ast.CardDef))
        shared = names.shared(d.name.text for d, _ in found)
        return [(d, CardKind(d.name.text, d.id.text, d.kind.text, d.text, d.span, package=package,
                             key=names.key(package, d.name.text, shared))) for d, package in found]

    def card_scopes(self) -> dict[str, frozenset[str]]:
        """For each package a ruleset plays (its own, its hero packages, its decks'), the card
        packages of the decks those rulesets deal: a bare card name is read there after the
        text's own package, so a designer's deck that deals another 殺 leaves the heroes of the
        rulesets that do not deal it reading the 殺 they always did."""
        deck_names = self.deck_defs[1]
        scopes: dict[str, set[str]] = {}
        for r in self.defs(ast.RulesetDef):
            heroes = _written(r, "heroes")
            played = {_package(r.span), *heroes}
            # each deck read as `rulesets` reads it (an ambiguous one, reported there, deals all it may mean)
            dealt = {deck.package for text in _written(r, "decks")
                     for deck in deck_names.find(text, _package(r.span), heroes)}
            for package in played | dealt:
                scopes.setdefault(package, set()).update(dealt)
        return {package: frozenset(dealt) for package, dealt in scopes.items()}

    def skills(self) -> Definitions[Skill]:
        """The skills, each its package's: two packages may print one name (core/names.py)."""
        found = self.packaged("skill", self.defs(ast.SkillDef))
        shared = names.shared(d.name.text for d, _ in found)
        for d, package in found:  # a skill may name another's state (SKILL.STATE), declared later too
            key = names.key(package, d.name.text, shared)
            self.c.skill_states[key] = state_check.declared(key, d.members)
        skills = []
        for d, package in found:
            tags = tuple(t.text for t in d.tags)
            misreads.skill_id(self.c, d)  # `skill 激將 lord {`: the tag read as the id
            misreads.twice(self.c, d.tags, "the tag")
            for t in d.tags:
                if t.text not in misreads.SKILL_TAGS:
                    self.c.error(t.span, f"unknown skill tag '{t.text}'",
                                 did_you_mean(t.text, misreads.SKILL_TAGS) or "tags: " + ", ".join(misreads.SKILL_TAGS))
            skills.append(self.c.skill_body(d.name.text, d.id.text, d.text, tags, d.members, d.span,
                                            key=names.key(package, d.name.text, shared), package=package))
        return Definitions(skills, self.base)

    def heroes(self, skills: Definitions[Skill]) -> Definitions[Hero]:
        """The heroes, each its package's: two packages may print one name (core/names.py)."""
        found = self.packaged("hero", (d for d in self.defs(ast.HeroDef) if not d.general))
        shared = names.shared(d.name.text for d, _ in found)
        heroes = []
        for d, package in found:
            props = self.props(d, HERO_PROPS)
            hp_value = self.count_prop(props, "hp", 4, "e.g. `hp 4;`")
            heroes.append(Hero(d.name.text, d.id.text, self.kingdom(props), self.gender(props), hp_value,
                               self.skill_list(props, skills, package), d.span, package, self.never_lord(props),
                               names.key(package, d.name.text, shared)))
        return Definitions(heroes, self.base)

    def generals(self, skills: Definitions[Skill]) -> Definitions[General]:
        """The 國戰 general cards (武將牌): hp in yin-yang halves, companions (珠聯璧合) by name."""
        found = self.packaged("general", (d for d in self.defs(ast.HeroDef) if d.general))
        shared = names.shared(d.name.text for d, _ in found)
        cards: list[General] = []
        companions: dict[str, list[ast.Name]] = {}
        for d, package in found:
            props = self.props(d, GENERAL_PROPS)
            halves = self.count_prop(props, "hp_half", 4, "half yin-yang fish: `hp_half 3;` is 1.5 fish")
            key = names.key(package, d.name.text, shared)
            cards.append(General(d.name.text, d.id.text, self.kingdom(props), self.gender(props), halves,
                                 self.skill_list(props, skills, package), d.span, package, key=key))
            companions[key] = [v for v in props["companions"].values] if "companions" in props else []
        generals = Definitions(cards, self.base)
        for key, refs in companions.items():
            general = generals[key]
            for v in refs:
                text = str(getattr(v, "text", ""))
                matches = generals.find(text, general.package)
                if len(matches) > 1:
                    self.c.error(v.span, *names.ambiguity(text, matches))
                elif not matches:
                    self.c.error(v.span, f"unknown general '{_show(v)}'",
                                 did_you_mean(text, generals.names()) or "companions are generals of the library")
                elif matches[0].kingdom != general.kingdom:
                    self.c.error(v.span, f"{general.name} and {matches[0].name} are not of one kingdom",
                                 "companions (珠聯璧合) share a kingdom (seed 001)")
                else:  # the relation is symmetric: naming it on one card is enough
                    general.companions |= {matches[0].key}
                    matches[0].companions |= {key}
        return generals

    def props(self, d: ast.HeroDef, allowed: tuple[str, ...]) -> dict[str, ast.Prop]:
        what = "general" if d.general else "hero"
        props: dict[str, ast.Prop] = {}
        for p in d.props:
            if p.name.text not in allowed:
                self.c.error(p.name.span, f"unknown {what} property '{p.name.text}'",
                             did_you_mean(p.name.text, allowed) or "properties: " + ", ".join(allowed))
            elif p.name.text in props:
                self.c.error(p.name.span, f"'{p.name.text}' is given twice",
                             f"first given at {props[p.name.text].name.span}")
            else:
                props[p.name.text] = p
                if p.name.text not in ("skills", "companions") and len(p.values) != 1:
                    self.c.error(p.values[1].span, f"'{p.name.text}' takes one value, got {len(p.values)}")
        return props

    def count_prop(self, props: dict[str, ast.Prop], name: str, default: int, hint: str) -> int:
        if name not in props:
            return default
        value = props[name].values[0]
        if isinstance(value, ast.Int) and value.value >= 1:
            return value.value
        self.c.error(value.span, f"'{name}' needs a number of at least 1", hint)
        return default

    def never_lord(self, props: dict[str, ast.Prop]) -> bool:
        """`lord never;`: the hero may not be the lord (the only value the property takes)."""
        if "lord" not in props:
            return False
        value = props["lord"].values[0]
        if getattr(value, "text", "") != "never":
            self.c.error(value.span, f"unknown value '{_show(value)}' of `lord`",
                         "write `lord never;` for a hero that may not be the lord (不可做主公)")
        return True

    def gender(self, props: dict[str, ast.Prop]) -> str:
        if "gender" not in props:
            return "male"
        value = props["gender"].values[0]
        gender = getattr(value, "text", "")
        if gender not in ("male", "female"):
            self.c.error(value.span, f"unknown gender '{_show(value)}'",
                         did_you_mean(gender, ("male", "female")) or "male or female")
        return gender

    def kingdom(self, props: dict[str, ast.Prop]) -> str:
        if "kingdom" not in props:
            return ""
        value = props["kingdom"].values[0]
        kingdom = getattr(value, "text", "")
        if not isinstance(value, ast.Name):
            self.c.error(value.span, "a kingdom is a name, e.g. `kingdom 魏;`")
        elif kingdom not in schema.KINGDOMS and kingdom.lower() not in schema.KINGDOMS:
            self.c.error(value.span, f"unknown kingdom '{kingdom}'",
                         did_you_mean(kingdom, schema.KINGDOMS) or "kingdoms: 魏 蜀 吳 群 神 (or wei shu wu qun god)")
        else:
            return schema.KINGDOMS.get(kingdom) or schema.KINGDOMS[kingdom.lower()]
        return kingdom

    def skill_list(self, props: dict[str, ast.Prop], skills: Definitions[Skill], package: str) -> tuple[Skill, ...]:
        """A hero's skills, each read in the hero's package first (core/names.py)."""
        found: list[Skill] = []
        for v in props["skills"].values if "skills" in props else ():
            s = self.named_skill(skills, v, package)
            if s is not None and s in found:  # it would be had twice: each trigger firing twice
                self.c.error(v.span, f"the skill '{s.name}' is listed twice", "list each skill once")
            elif s is not None:
                found.append(s)
        return tuple(found)

    def named_skill(self, skills: Definitions[Skill], v, package: str) -> Skill | None:
        """The skill a hero's `skills` names: unknown and ambiguous names are reported."""
        text = str(getattr(v, "text", ""))
        matches = skills.find(text, package)
        if len(matches) == 1:
            return matches[0]
        if matches:
            self.c.error(v.span, *names.ambiguity(text, matches))
        else:
            self.c.error(v.span, f"unknown skill '{_show(v)}'", did_you_mean(text, skills.names())
                         or f"define it first: `skill {_show(v)} some_id {{ ... }}`")
        return None

    def deck_names(self) -> tuple[list[tuple[ast.DeckDef, Deck]], Definitions[Deck]]:
        """The decks' names, each its package's, before any card is read: a ruleset's decks
        say which cards its packages read a bare name among (card_scopes)."""
        found = self.packaged("deck", self.defs(ast.DeckDef))
        shared = names.shared(d.name.text for d, _ in found)
        keyed = [(d, Deck(d.name.text, d.name.text, package, names.key(package, d.name.text, shared)))
                 for d, package in found]
        return keyed, Definitions([deck for _, deck in keyed], self.base)

    def decks(self) -> dict[str, list[tuple[CardKind, str, int]]]:
        """The decks' cards, by the deck's key."""
        decks = {}
        for d, deck in self.deck_defs[0]:
            cards = []
            for line in d.lines:
                kind = self.c.card_kind(line.card.text, line.card.span)
                for face in line.faces:
                    rank = RANKS.get(face.rank)
                    if rank is None:
                        written = SUIT_SIGNS[face.suit] + face.rank
                        hint = "ranks are A, 2-10, J, Q, K"
                        if face.rank.upper() in RANKS:
                            hint = f"write the rank in capitals: {SUIT_SIGNS[face.suit]}{face.rank.upper()}"
                        self.c.error(face.span, f"bad rank '{face.rank}' in the card face '{written}'", hint)
                        continue
                    if kind is not None:
                        cards.append((kind, face.suit, rank))
            decks[deck.key] = cards
        return decks

    def rulesets(self, decks, deck_names: Definitions[Deck], heroes,
                 general_packages: set[str] = frozenset()) -> dict[str, Ruleset]:
        rulesets = {}
        for d in self.defs(ast.RulesetDef):
            if not self.unique("ruleset", d.name):
                continue
            props = {p.name.text: p for p in d.props}
            misreads.twice(self.c, [p.name for p in d.props], "the property")  # two `decks` lines
            misreads.twice(self.c, d.tags, "the tag")
            lords_prop = variants_prop = None
            mode = next((str(getattr(p.values[0], "text", "")) for p in d.props if p.name.text == "mode"), "identity")
            spec = MODE_SPECS.get(mode)
            mode_options: dict[str, object] = {}
            dealt: list[str] = []  # the keys of its decks
            hero_packages: list[str] = []
            lords: list[str] = []
            packages = sorted({h.package for h in heroes.values()} | set(general_packages))
            options = {}
            for p in d.props:
                key = p.name.text
                values = [getattr(v, "text", getattr(v, "value", None)) for v in p.values]
                if key == "mode":
                    if spec is None:
                        self.c.error(p.values[0].span, f"unknown mode '{mode}'",
                                     did_you_mean(mode, MODE_SPECS) or "modes: " + ", ".join(MODE_SPECS))
                elif key == "decks":
                    for v in p.values:
                        text = str(getattr(v, "text", ""))
                        # read in the ruleset's package, then in those it plays heroes from
                        matches = deck_names.find(text, _package(d.span), _written(d, "heroes"))
                        if len(matches) > 1:
                            self.c.error(v.span, *names.ambiguity(text, matches))
                        elif not matches:
                            self.c.error(v.span, f"unknown deck '{_show(v)}'",
                                         did_you_mean(text, deck_names.names()) or "decks: " + ", ".join(decks))
                        elif matches[0].key in dealt:  # its cards would be dealt twice over
                            self.c.error(v.span, f"the deck '{text}' is named twice", "name each deck once")
                        else:
                            dealt.append(matches[0].key)
                elif key == "heroes":
                    for v in p.values:
                        name = getattr(v, "text", None)
                        if name not in packages:
                            self.c.error(v.span, f"unknown hero package '{_show(v)}'",
                                         did_you_mean(str(name), packages)
                                         or ("packages: " + ", ".join(packages) if packages else "no hero files loaded")
                                         + " (a package is the name of a hero file: heroes/standard.sgs is 'standard')")
                        elif name in hero_packages:  # its heroes would be in the pool twice, for two seats
                            self.c.error(v.span, f"the hero package '{name}' is named twice", "name each package once")
                        else:
                            hero_packages.append(name)
                elif key == "lords" and spec is not None and spec.option("lords") is not None:
                    lords_prop = p
                elif key == "variants":
                    variants_prop = p
                elif key in ("max_turns",):
                    if len(p.values) != 1 or not isinstance(p.values[0], ast.Int) or p.values[0].value < 1:
                        self.c.error(p.values[0].span, f"'{key}' needs one number of at least 1")
                    options[key] = values[0]
                elif spec is not None and spec.option(key) is not None:
                    value = self.mode_option(spec.option(key), p)
                    if value is not None:
                        mode_options[key] = value
                else:
                    known = [*RULESET_PROPS, *(o.name for o in spec.options)] if spec else list(RULESET_PROPS)
                    self.c.error(p.name.span, f"unknown ruleset property '{key}'" + (f" for mode {mode}" if spec else ""),
                                 did_you_mean(key, known) or "properties: " + ", ".join(known))
            if "decks" not in props:
                self.c.error(d.name.span, f"ruleset '{d.name.text}' names no decks", "add `decks standard, ex;`")
            if variants_prop is not None:
                options["variants"] = self.variants(variants_prop, [c for n in dealt for c, _, _ in decks[n]])
            if lords_prop is not None:
                lords = self.lords(lords_prop, heroes, hero_packages, "heroes" in props)
            tags = tuple(t.text for t in d.tags)
            for t in d.tags:
                if t.text != "default":
                    self.c.error(t.span, f"unknown ruleset tag '{t.text}'", "the only tag is `default`")
            if lords:
                mode_options["lords"] = tuple(lords)
            rulesets[d.name.text] = Ruleset(d.name.text, d.title, mode, tuple(dealt), tuple(hero_packages),
                                            "default" in tags, options, d.span, tuple(lords), mode_options)
        return rulesets

    def mode_option(self, option: ModeOption, prop: ast.Prop) -> object | None:
        """A mode option's value, checked against its declared type (None: reported)."""
        values = prop.values
        if option.type == "int":
            v = values[0] if len(values) == 1 else None
            if not isinstance(v, ast.Int) or not option.low <= v.value <= option.high:
                self.c.error(prop.values[0].span, f"'{option.name}' needs one number from {option.low} to {option.high}",
                             option.doc)
                return None
            return v.value
        text = str(getattr(values[0], "text", getattr(values[0], "value", ""))) if len(values) == 1 else ""
        if text not in option.words:
            self.c.error(prop.values[0].span, f"'{option.name}' is one of {', '.join(option.words)}",
                         did_you_mean(text, option.words) or option.doc)
            return None
        return text

    def variants(self, prop: ast.Prop, dealt: list[CardKind]) -> dict[str, CardKind]:
        """`variants 樂不思蜀;` (in the package of the older printing, or `classic.樂不思蜀`): each
        card named replaces the card it is `like` (an older printing of it, seed 004): the decks'
        cards of that kind are dealt as it. By the key of the card replaced."""
        chosen: dict[str, CardKind] = {}
        for v in prop.values:
            kind = self.c.card_kind(str(getattr(v, "text", _show(v))), v.span)
            if kind is None:  # reported
                continue
            base = kind.like
            if base is None:
                self.c.error(v.span, f"card '{kind.name}' is not a variant of another card",
                             f"a variant says which card it replaces: `like CARD;` in card '{kind.name}'")
            elif base.type != kind.type:
                self.c.error(v.span, f"'{kind.name}' is a {kind.type} card but '{base.name}' is a {base.type} card",
                             f"a variant is the same type of card as the one it replaces: `{base.type}`")
            elif base.key in chosen:
                self.c.error(v.span, f"'{base.name}' is given two variants",
                             f"'{names.qualified(chosen[base.key])}' replaces it already")
            elif base not in dealt:
                self.c.error(v.span, f"the ruleset's decks deal no '{base.name}' for '{kind.name}' to replace",
                             "add a deck that has it to `decks`, or leave the variant out")
            else:
                chosen[base.key] = kind
        return chosen

    def lords(self, prop: ast.Prop, heroes: Definitions[Hero], packages: list[str], has_heroes: bool) -> list[str]:
        """The `lords` of a ruleset: heroes (by name or id, read in its own hero packages
        first) of its own hero packages, kept by key."""
        if not has_heroes:
            self.c.error(prop.name.span, "'lords' needs hero packages", "add `heroes standard;` before it")
            return []
        offered = sorted(h.name for h in heroes.values() if h.package in packages)
        lords: list[str] = []
        for v in prop.values:
            text = str(getattr(v, "text", ""))
            matches = heroes.find(text, within=packages)
            hero = matches[0] if len(matches) == 1 else None
            if len(matches) > 1:
                self.c.error(v.span, *names.ambiguity(text, matches))
            elif hero is None:
                self.c.error(v.span, f"unknown lord hero '{_show(v)}'",
                             did_you_mean(text, offered + sorted(h.id for h in heroes.values() if h.package in packages))
                             or ("heroes: " + ", ".join(offered) if offered else "no heroes in the ruleset's packages"))
            elif hero.package not in packages:
                self.c.error(v.span, f"lord hero '{hero.name}' is not in the ruleset's hero packages",
                             f"it is in package '{hero.package}'; add it to `heroes`")
            elif hero.key in lords:
                self.c.error(v.span, f"lord hero '{hero.name}' is named twice")
            else:
                lords.append(hero.key)
        return lords


def _general_effects(c: Compiler, rulesets: dict[str, Ruleset],
                     decks: dict[str, list[tuple[CardKind, str, int]]]) -> None:
    """An effect on general cards (`hide_general`, ...) in a file that only rulesets of modes
    without them play (their hero packages or decks hold its text) would stop every game it
    fires in: an error now. A file no ruleset plays is not judged."""
    def files_of(r: Ruleset) -> set[str]:
        return {Path(k.span.file).stem for deck in r.decks for k, _, _ in decks.get(deck, ())} | set(r.heroes)

    played = {name: files_of(r) for name, r in rulesets.items()}
    for call in c.general_calls:
        package = Path(call.span.file).stem
        players = [r for name, r in rulesets.items() if package in played[name]]
        if players and not any(MODE_SPECS[r.mode].generals for r in players if r.mode in MODE_SPECS):
            modes = "、".join(sorted({f"{r.name} ({r.mode})" for r in players}))
            c.error(call.span, f"'{call.text}' acts on general cards, which no ruleset that plays this file deals: "
                    f"{modes}", "general cards are 國戰's (`mode hegemony;`): play the file in such a ruleset, "
                    "or drop the effect")


def _inherit_chain(kind: CardKind, inherited: set[int]) -> None:
    """Inherit along a chain of `like`s from its top down, each card once (no recursion: a
    chain may be as long as a file has cards)."""
    chain: list[tuple[CardKind, CardKind]] = []
    k = kind
    while k.like is not None and id(k) not in inherited:
        chain.append((k, k.like))
        k = k.like
    for k, base in reversed(chain):
        _inherit(k, base)
        inherited.add(id(k))


def _inherit(kind: CardKind, base: CardKind) -> None:
    """A card `like` another takes what it does not say itself: when and on whom it is used,
    its limit and distance, and its blocks (火殺 is 殺 with the fire nature); the base has
    inherited from its own base first (`_inherit_chain`)."""
    own_uses = bool(kind.uses)
    kind.uses = kind.uses or base.uses
    kind.choose = kind.choose or (() if own_uses else base.choose)  # `choose` goes with the `use` it serves
    kind.limit = kind.limit if kind.limit is not None else base.limit
    kind.distance = kind.distance if kind.distance is not None else base.distance
    kind.blocks = {**base.blocks, **kind.blocks}


@functools.lru_cache(maxsize=8)
def _load(extra: tuple[str, ...]) -> Library:
    return build(library_files() + [Path(p) for p in extra])


def load_library(extra_paths: Sequence[Path] = ()) -> Library:
    """The built-in library plus any extra files (cached in memory for the process)."""
    return _load(tuple(str(f.resolve()) for f in _collect(extra_paths)))


load_library.cache_clear = _load.cache_clear  # type: ignore[attr-defined]


def _replaced_by(builtin: Path, files: Sequence[Path]) -> bool:
    """A checked file stands in for the built-in one it is a copy or an edit of: the same
    file, or the same name in a folder of the same kind (cards/standard.sgs in a checkout
    replaces the installed sgs_dsl/_data/cards/standard.sgs)."""
    for f in files:
        f = Path(f)
        if f.resolve() == builtin.resolve():
            return True
        if (f.parent.name, f.name) == (builtin.parent.name, builtin.name):
            return True
    return False


def check_paths(paths: Sequence[Path], warnings: bool = False) -> list[Diagnostic]:
    """Check files together with the built-in library they build on; [] when all is well
    (with `warnings`, the warnings of files that load)."""
    try:
        files = _collect(paths)
    except SgsError as error:
        return error.diagnostics
    base = [f for f in library_files() if not _replaced_by(f, files)]
    try:
        library = build(base + files)
    except SgsError as error:
        return error.diagnostics
    return list(library.warnings) if warnings else []


def check_texts(paths: Sequence[Path], overrides: Mapping[Path, str],
                parse: Callable[[str, str], ast.Module] = parse_cached) -> tuple[list[Diagnostic], Library | None]:
    """`check_paths` with warnings, for an editor: the files of `paths` and of `overrides`
    (each read from the text given for it, saved or not) with the built-in library they build
    on. The problems (errors, or the warnings of files that load) and the library built, if it
    was. `parse(text, path)` may be a memo of `parse_cached`."""
    try:
        files = _collect(paths)
    except SgsError as error:
        return error.diagnostics, None
    files += [Path(p) for p in overrides if Path(p) not in files]
    base = [f for f in library_files() if not _replaced_by(f, files)]

    def read(path: Path) -> ast.Module:
        text = overrides.get(path)
        return parse(decode_source(read_bytes(path), str(path)) if text is None else text, str(path))

    try:
        library = build(base + files, read)
    except SgsError as error:
        return error.diagnostics, None
    return list(library.warnings), library


def _written(ruleset: ast.RulesetDef, prop: str) -> list[str]:
    """The names a ruleset's property lists, as written (`decks standard, ex;`)."""
    return [str(getattr(v, "text", "")) for p in ruleset.props if p.name.text == prop for v in p.values]


def _package(span: Span) -> str:
    """The package a definition belongs to: the stem of its file (heroes/hegemony.sgs -> hegemony)."""
    return Path(span.file).stem


def _show(value) -> str:
    """How a property value was written, for messages."""
    if isinstance(value, ast.Str):
        return f'"{value.value}"'
    return str(getattr(value, "text", getattr(value, "value", value)))
