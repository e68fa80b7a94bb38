"""Ruling files -> Ruling data, checked against the library: every card named exists in the
ruleset's deck with that suit and rank, used once; seats, roles, phases, skills and heroes
are known; the table is one that can happen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
from lark import Token, Tree

from ..compiler.library import RANKS, load_library
from ..compiler.schema import KINGDOMS
from ..core.model import PHASE_ZH, PHASES, RANK_FACE, SUIT_ZH
from ..core.modes import MODE_SPECS
from ..core.names import ambiguity
from ..game import ruleset_heroes
from ..modes.hegemony import KINGDOM_ZH
from ..syntax.diagnostics import Diagnostic, SgsError, Span, did_you_mean
from ..syntax.names import normalize
from ..syntax.parser import SUITS, parse_tree, source_lines
from ..syntax.source import clean_text, decode_source, read_bytes
from .model import CardRef, Check, DamageRef, Ruling, Run, SeatSpec, Step

ROLES = {"lord": "lord", "loyalist": "loyalist", "rebel": "rebel", "renegade": "renegade",
         "主公": "lord", "忠臣": "loyalist", "反賊": "rebel", "反贼": "rebel", "內奸": "renegade", "内奸": "renegade"}
TEAM_ROLES = {"leader": "leader", "follower": "follower", "主將": "leader", "副將": "follower", "主将": "leader",
              "副将": "follower"}  # the 3v3 mode's roles (seed 003)
ROLES.update(TEAM_ROLES)
PHASE_WORDS = {**{p: p for p in PHASES}, **{zh: p for p, zh in PHASE_ZH.items()}}
MAX_ORDER_TURNS = 60  # `play N turns`: a ruling is a short story, not a whole game
WINNERS = tuple(dict.fromkeys([o for m in MODE_SPECS.values() for o in m.outcomes] + ["none"]))
SHOWN = {"none": "none", "head": "head", "deputy": "deputy", "both": "both", "主將": "head", "副將": "deputy"}
KINGDOM_WORDS = {**{k: v for k, v in KINGDOMS.items() if v != "god"}, "careerist": "careerist", "野心家": "careerist",
                 "none": ""}
GENDER_WORDS = {"male": "male", "female": "female", "男": "male", "女": "female", "none": ""}
NATURES = ("normal", "fire", "thunder")
# The answers a script gives (each names the seat asked first), and the claims it makes.
ANSWER_STEPS = ("answer", "uses", "plays", "invokes", "declines", "picks", "chooses", "ends")


def load_rulings(path: Path | str, library: Any = None) -> list[Ruling]:
    """Every ruling of a file; SgsError listing every problem, located, when it is not right."""
    text = decode_source(read_bytes(path), str(path))
    return parse_rulings(text, str(path), library)


def parse_rulings(text: str, path: str, library: Any = None) -> list[Ruling]:
    text = clean_text(text)
    tree = parse_tree(text, path, "ruling.lark")
    reader = _Reader(path, source_lines(text), library or load_library())
    rulings = [reader.ruling(node) for node in tree.children]
    titles: dict[str, Span] = {}
    for r in rulings:
        if r.title in titles:
            reader.error(r.span, f"duplicate ruling title '{r.title}'", f"first used at {titles[r.title]}")
        titles[r.title] = r.span
    if reader.diagnostics:
        raise SgsError(reader.diagnostics)
    return rulings


class _Reader:
    def __init__(self, path: str, lines: tuple[str, ...], library: Any):
        self.path = path
        self.lines = lines
        self.library = library
        self.diagnostics: list[Diagnostic] = []
        self.within: tuple[str, ...] = ()  # the hero packages of the ruling being read
        self.dealt: frozenset[Any] = frozenset()  # the cards its ruleset deals (editions as played)

    # ------------------------------------------------------------ helpers
    def span(self, x: Tree | Token) -> Span:
        if isinstance(x, Token):
            return Span(self.path, x.line, x.column, x.end_column or 0)
        meta = x.meta
        if getattr(meta, "empty", False):
            return Span(self.path, 1, 1, 0)
        return Span(self.path, meta.line, meta.column, meta.end_column if meta.end_line == meta.line else 0)

    def error(self, span: Span, message: str, hint: str = "") -> None:
        source = self.lines[span.line - 1] if 0 < span.line <= len(self.lines) else ""
        self.diagnostics.append(Diagnostic(span, message, hint, source))

    def cards_named(self, text: str) -> list[Any]:
        """The cards a name may mean: of two editions (core/names.py), the one the ruling's
        ruleset deals (`variants` deals an older printing in place of the card)."""
        matches = self.library.cards.find(text)
        return [k for k in matches if k in self.dealt] or matches if len(matches) > 1 else matches

    def card_kind(self, token: Token) -> Any:
        matches = self.cards_named(str(token))
        if len(matches) > 1:
            self.error(self.span(token), *ambiguity(str(token), matches))
        elif not matches:
            self.error(self.span(token), f"unknown card '{token}'", did_you_mean(str(token), self.library.cards.names()))
        return matches[0] if len(matches) == 1 else None

    def face(self, name: str, face_tok: Token, span: Span) -> CardRef | None:
        face = str(face_tok)
        rank = RANKS.get(face[1:])
        if rank is None:
            self.error(self.span(face_tok), f"bad rank '{face[1:]}' in the card face '{face}'", "ranks are A, 2-10, J, Q, K")
            return None
        return CardRef(name, SUITS[face[0]], rank, span)

    def card(self, node: Tree) -> CardRef | None:
        name_tok, face_tok = node.children
        kind = self.card_kind(name_tok)
        return self.face(kind.name, face_tok, self.span(node)) if kind is not None else None

    def cards(self, node: Tree) -> tuple[CardRef, ...]:
        return tuple(c for c in (self.card(n) for n in node.children if n is not None) if c is not None)

    def delayed_tricks(self) -> str:
        """The delayed tricks of the library, for a hint: `as` names one of them."""
        names = sorted({c.name for c in self.library.cards.values() if c.type == "delayed"})
        return "the delayed tricks are " + "、".join(names) if names else "the library has no delayed trick"

    def judged(self, node: Tree) -> tuple[CardRef, ...]:
        """A judge area: its cards, each maybe lying there as another delayed trick (`as NAME`)."""
        out = []
        for entry in node.children:
            if entry is None:
                continue
            card_node, as_tok = entry.children
            ref = self.card(card_node)
            if ref is None:
                continue
            if as_tok is not None:
                kind = self.card_kind(as_tok)
                if kind is None:
                    continue
                if kind.type != "delayed":
                    self.error(self.span(as_tok), f"{kind.name} is not a delayed trick",
                               f"a card lies in a judge area as a delayed trick: {self.delayed_tricks()}")
                    continue
                ref = attrs.evolve(ref, counts_as=kind.key)
            out.append(ref)
        return tuple(out)

    def skill_name(self, token: Token) -> str:
        """The skill's key as the engine fires it: a hero skill (read among the packages of the
        ruling's ruleset first, core/names.py), or a card's own (equipment)."""
        text = str(token)
        matches = self.library.skills.find(text, within=self.within)
        if len(matches) == 1:
            return matches[0].key
        if matches:
            self.error(self.span(token), *ambiguity(text, matches))
            return text
        kind = next(iter(self.cards_named(text)), None)
        if kind is not None and kind.skill is not None:
            return kind.skill.key
        known = self.library.skills.names() + [k.name for k in self.library.cards.values() if k.skill is not None]
        self.error(self.span(token), f"unknown skill '{token}'",
                   did_you_mean(text, known) or "a hero's skill (sgs heroes) or an equipment card's")
        return text

    def seat_no(self, token: Token, count: int) -> int:
        n = int(token)
        if not 1 <= n <= count:
            self.error(self.span(token), f"no seat {n} at this table", f"seats are numbered 1 to {count}")
        return n

    def word(self, token: Token, table: dict[str, str] | tuple[str, ...], what: str) -> str | None:
        """A word of a closed list (phases, natures, winners), or None after a located error."""
        value = str(token)
        known = table if isinstance(table, dict) else {w: w for w in table}
        if value not in known:
            self.error(self.span(token), f"unknown {what} '{value}'",
                       did_you_mean(value, known) or f"{what}s: " + ", ".join(dict.fromkeys(known.values())))
            return None
        return known[value]

    def default_ruleset(self, span: Span) -> str:
        """The library's default ruleset, or "" (reported) when it defines none."""
        if not self.library.rulesets:
            self.error(span, "the library defines no ruleset to play this ruling by",
                       "load a file that defines one (`ruleset NAME { mode identity; decks ...; }`)")
            return ""
        return self.library.default_ruleset

    # ------------------------------------------------------------ one ruling
    def ruling(self, node: Tree) -> Ruling:
        title = str(node.children[0])[1:-1]
        entries = [c for c in node.children[1:] if isinstance(c, Tree)]
        fields: dict[str, Any] = {"source": "", "ruleset": "", "deck": (), "discard": (), "setup": False}
        seats, runs, steps, checks = [], [], [], []
        count = sum(e.data == "seat" for e in entries)
        named = next((str(e.children[0]) for e in entries if e.data == "ruleset"), "")
        rules = self.library.rulesets.get(named or self.library.default_ruleset if self.library.rulesets else "")
        self.within = rules.heroes if rules is not None else ()  # where a bare skill name is read first
        self.dealt = frozenset(k for k, _, _ in self.library.deck_list(rules.name)) if rules is not None else frozenset()
        for e in entries:
            if e.data == "source":
                fields["source"] = str(e.children[0])[1:-1]
            elif e.data == "ruleset":
                name = str(e.children[0])
                if name not in self.library.rulesets:
                    self.error(self.span(e.children[0]), f"unknown ruleset '{name}'",
                               did_you_mean(name, self.library.rulesets) or "rulesets: " + ", ".join(self.library.rulesets))
                fields["ruleset"] = name
            elif e.data == "seat":
                seats.append(self.seat(e, len(seats) + 1))
            elif e.data in ("deck", "discard"):
                fields[e.data] = self.cards(e.children[0])
            elif e.data in ("run_turn", "run_phase", "run_order"):
                runs.append(self.run(e, count))
            elif e.data == "setup":
                fields["setup"] = True
            elif e.data == "script":
                steps.extend(self.step(s, count) for s in e.children)
            elif e.data == "expect":
                checks.extend(self.check(c, count) for c in e.children)
        span = self.span(node)
        if not fields["source"]:
            self.error(span, f"ruling '{title}' cites no source", 'add `source "seed 000 §6";` (seed file and section, or rule-set paragraph)')
        ruleset = fields["ruleset"] or self.default_ruleset(span)
        self.check_table(title, span, seats, runs, fields["setup"], ruleset)
        self.check_cards(seats, fields["deck"], fields["discard"], ruleset)
        if fields["setup"]:
            self.check_setup(seats, ruleset)
        self.check_claims(steps, seats, fields["deck"], fields["discard"])
        self.check_damage_claims(checks)
        return Ruling(title, fields["source"], ruleset, tuple(seats), fields["deck"], fields["discard"],
                      tuple(runs), tuple(steps), tuple(checks), self.path, span.line, span, fields["setup"])

    def check_table(self, title: str, span: Span, seats: list[SeatSpec], runs: list[Run], setup: bool,
                    ruleset: str) -> None:
        count = len(seats)
        rules = self.library.rulesets.get(ruleset)
        mode = MODE_SPECS[rules.mode] if rules is not None else MODE_SPECS["identity"]
        low, high = mode.players
        if not low <= count <= high:
            self.error(span, f"ruling '{title}' seats {count} players",
                       f"a {mode.title} table has {low} to {high} seats")
        if mode.name == "hegemony":
            self.check_generals(seats, setup)
        elif mode.name == "team3v3":
            self.check_teams(seats)
        else:
            self.check_roles(title, span, seats)
        if not runs and not setup:
            self.error(span, f"ruling '{title}' plays nothing", "add `turn 1;`, `phase 1 play;` or `setup;`")

    def check_roles(self, title: str, span: Span, seats: list[SeatSpec]) -> None:
        for x in seats:
            if not x.role:
                self.error(x.span, f"seat {x.seat} has no role", "identity seats name one: `seat 1 lord;`")
            if x.generals is not None:
                self.error(x.span, "generals are for 國戰 rulings", "name the ruleset: `ruleset hegemony;`")
            self.no_careerist(x)
            if x.role in TEAM_ROLES.values():
                self.error(x.span, f"'{x.role}' is a role of the 3v3 mode", "name the ruleset: `ruleset campus_3v3;`")
        lords = [x for x in seats if x.role == "lord"]
        if seats and len(lords) != 1:
            self.error(span, f"ruling '{title}' has {len(lords)} lords", "identity mode has exactly one lord")

    def check_teams(self, seats: list[SeatSpec]) -> None:
        """3v3: the teams sit together, each a leader and then two followers (seats 1-3, 4-6)."""
        for x in seats:
            wanted = "leader" if x.seat % 3 == 1 else "follower"
            if x.role != wanted:
                self.error(x.span, f"seat {x.seat} is a {wanted} in 3v3, not '{x.role or 'no role'}'",
                           "the teams sit together: seat 1 leader, 2 and 3 followers; seat 4 leader, 5 and 6 "
                           "followers")
            if x.generals is not None:
                self.error(x.span, "generals are for 國戰 rulings", "name the ruleset: `ruleset hegemony;`")
            self.no_careerist(x)

    def no_careerist(self, x: SeatSpec) -> None:
        if x.careerist is not None:
            self.error(x.careerist, f"seat {x.seat} cannot be a careerist (野心家): careerists are of 國戰",
                       "name a 國戰 ruleset (`ruleset hegemony;`) and give the seat its generals")

    def check_generals(self, seats: list[SeatSpec], setup: bool) -> None:
        for x in seats:
            if setup and x.generals is not None and x.generals[2] != "none":
                self.error(x.span, f"seat {x.seat} shows a general, but `setup` deals them face down",
                           "leave `shown` out: a general shows as its owner's preparation phase starts")
            if x.role:
                self.error(x.span, f"a 國戰 seat has no role, not '{x.role}'",
                           "its generals decide its kingdom: `seat 1 generals HEAD DEPUTY;`")
            if x.generals is None and not setup:
                self.error(x.span, f"seat {x.seat} has no generals", "`seat 1 generals HEAD DEPUTY shown head;`")
        self.check_careerists(seats)

    def check_careerists(self, seats: list[SeatSpec]) -> None:
        """`careerist`: the seat showed a general of a kingdom that half the table had shown
        already (seed 001), so it shows one, and at least half the seats show that kingdom
        without being careerists themselves (those showed it first; the dead count too)."""
        def kingdom(x: SeatSpec) -> str:
            head = self.library.generals.get(x.generals[0]) if x.generals is not None else None
            return head.kingdom if head is not None else ""

        half = len(seats) // 2
        for x in seats:
            if x.careerist is None:
                continue
            if x.generals is None or x.generals[2] == "none":
                self.error(x.careerist, f"seat {x.seat} shows no general, so it is not a careerist yet",
                           "a player becomes a careerist as it shows a general: `generals HEAD DEPUTY shown head "
                           "careerist`")
                continue
            own = kingdom(x)
            if not own:
                continue  # its generals are reported already
            before = sum(1 for o in seats if o.careerist is None and o.generals is not None
                         and o.generals[2] != "none" and kingdom(o) == own)
            if before < half:
                zh = KINGDOM_ZH.get(own, own)
                self.error(x.careerist, f"seat {x.seat} cannot be a careerist: {before} other seat(s) show a {zh} "
                           f"general, and a careerist's kingdom had been shown by {half} of the {len(seats)} "
                           "players before it", f"show a {zh} general on {half - before} more seat(s) that are not "
                           "careerists, or leave `careerist` out")

    def seat(self, node: Tree, expected: int) -> SeatSpec:
        number_tok, role_tok, *attrs = node.children
        if int(number_tok) != expected:
            self.error(self.span(number_tok), f"seat {number_tok} out of order", f"seats are listed in order: this is seat {expected}")
        role = (self.word(role_tok, ROLES, "role") or "rebel") if role_tok is not None else ""
        generals = None
        hp = max_hp = None
        gender, hero = "male", None
        zones: dict[str, tuple[CardRef, ...]] = {"hand": (), "equip": (), "judge": ()}
        piles: list[tuple[str, tuple[CardRef, ...]]] = []
        states: list[str] = []
        marks: list[tuple[str, int]] = []
        hp_node = None
        careerist: Span | None = None
        spent: list[str] = []
        for a in attrs:
            if a.data == "hp":
                hp_node, hp = a, int(a.children[0])
                max_hp = int(a.children[1]) if a.children[1] is not None else None
            elif a.data in ("male", "female"):
                gender = a.data
            elif a.data == "hero":
                hero = self.hero(a.children[0])
            elif a.data == "generals":
                generals = self.generals(a)
            elif a.data == "pile":
                piles.append((self.pile_name(a.children[0]), self.cards(a.children[1])))
            elif a.data == "seat_state":
                states.append(str(a.children[0]))
            elif a.data == "seat_mark":
                marks.append((str(a.children[0]), int(a.children[1])))
            elif a.data == "careerist":
                careerist = self.span(a)
            elif a.data == "spent":
                spent.append(self.spent_skill(a.children[0], hero))
            elif a.data == "judge":
                zones["judge"] = self.judged(a)
            elif a.data != "dead":
                zones[a.data] = self.cards(a.children[0])
        dead = any(a.data == "dead" for a in attrs)
        if dead and (any(zones.values()) or piles or states or marks or spent or hp_node is not None):
            self.error(self.span(node), f"seat {expected} is dead but is given cards, hp, a state or a mark",
                       "a dead seat's cards went to the discard pile at its death: list them in `discard [...]`")
        if hp_node is not None:
            self.check_hp(expected, hp, max_hp, hero, self.span(hp_node))
        self.check_zones(zones)
        return SeatSpec(expected, role, hp, max_hp, gender, hero, zones["hand"], zones["equip"], zones["judge"],
                        self.span(node), any(a.data == "hand" for a in attrs) or dead, tuple(piles), generals,
                        tuple(states), tuple(marks), dead, careerist, tuple(spent))

    def generals(self, node: Tree) -> tuple[str, str, str] | None:
        """`generals HEAD DEPUTY [shown WHICH]`: two generals of one kingdom, in either script."""
        head_tok, deputy_tok, shown_tok = node.children
        found = [self.card_named(tok, self.library.generals, "general",
                                 "`sgs heroes --ruleset hegemony` lists the generals") for tok in (head_tok, deputy_tok)]
        shown = self.word(shown_tok, SHOWN, "face-up general") if shown_tok is not None else "none"
        head, deputy = found
        if head is None or deputy is None:
            return "", "", "none"  # reported above; the seat is not also "without generals"
        if head is deputy:
            self.error(self.span(deputy_tok), "the head and the deputy are two different generals")
        elif head.kingdom != deputy.kingdom:
            self.error(self.span(deputy_tok), f"{head.name} and {deputy.name} are not of one kingdom",
                       "a player's two generals share a kingdom (seed 001)")
        return head.key, deputy.key, shown or "none"

    def pile_name(self, token: Token) -> str:
        """A pile some skill of the library declares."""
        name = str(token)
        piles = getattr(self.library, "piles", {})
        found = next((p for p in piles if normalize(p) == normalize(name)), None)
        if found is None:
            self.error(self.span(token), f"unknown pile '{name}'",
                       did_you_mean(name, piles) or "no skill of the library declares a pile (`pile 權;`)")
            return name
        return found

    def spent_skill(self, token: Token, hero: str | None) -> str:
        """The key of a limited skill a seat already used (`spent NAME`); a located error for a
        skill that is not limited, or not its hero's (the hero is named before it)."""
        own = self.library.heroes[hero].skills if hero is not None and hero in self.library.heroes else ()
        skill = next((s for s in own if normalize(str(token)) in (normalize(s.name), normalize(s.key), s.id)), None)
        if skill is None:  # not its hero's: read as any skill name (its error, if it names none)
            skill = self.library.skills.get(self.skill_name(token))
        if skill is None:
            return str(token)
        if "limited" not in skill.tags:
            self.error(self.span(token), f"{skill.name} is not a limited skill (限定技)",
                       "`spent` marks a limited skill already used; a wake skill is woken by playing the turn "
                       "that wakes it")
        elif hero is not None and hero in self.library.heroes and \
                skill.key not in {s.key for s in self.library.heroes[hero].skills}:
            self.error(self.span(token), f"{self.library.heroes[hero].name} has no skill {skill.name}",
                       "name a limited skill of the seat's hero")
        return str(skill.key)

    def hero(self, token: Token) -> str | None:
        """A hero, or a 國戰 general (`N chooses 曹操;` answers either choice), by key."""
        if not self.library.heroes.find(str(token)) and self.library.generals.find(str(token)):
            general = self.card_named(token, self.library.generals, "general", "")
            return general.key if general is not None else str(token)
        hero = self.card_named(token, self.library.heroes, "hero", "`sgs heroes` lists the heroes of the library"
                               if self.library.heroes else "the library has no heroes")
        return hero.key if hero is not None else str(token)

    def card_named(self, token: Token, table: Any, what: str, hint: str) -> Any:
        """The hero or general a ruling names (read in its ruleset's packages first), or None
        after a located error."""
        text = str(token)
        matches = table.find(text, within=self.within)
        if len(matches) > 1:
            self.error(self.span(token), *ambiguity(text, matches))
        elif not matches:
            self.error(self.span(token), f"unknown {what} '{text}'", did_you_mean(text, table.names()) or hint)
        return matches[0] if len(matches) == 1 else None

    def check_hp(self, seat: int, hp: int, max_hp: int | None, hero: str | None, span: Span) -> None:
        """A table that can happen: 0 < hp <= max hp; the hero's max unless the ruling gives one."""
        if max_hp is not None and max_hp <= 0:
            self.error(span, f"seat {seat} has max hp {max_hp}", "a max hp is 1 or more")
        elif hp <= 0:
            self.error(span, f"seat {seat} has hp {hp}: a living seat outside a dying situation has 1 hp or more",
                       "to rule on dying, start above 0 and script the damage that brings the seat down")
        elif max_hp is not None and hp > max_hp:
            self.error(span, f"seat {seat} has hp {hp} above its max hp {max_hp}", "`hp H/MAX`: H is at most MAX")
        elif max_hp is None and hero in self.library.heroes and hp > self.library.heroes[hero].hp:
            most = self.library.heroes[hero].hp
            self.error(span, f"seat {seat} has hp {hp} above {hero}'s max hp {most}",
                       f"write `hp {hp}/{hp}` to give the seat a max hp of its own (a lord at 5 or more players has +1)")

    def check_zones(self, zones: dict[str, tuple[CardRef, ...]]) -> None:
        slots: dict[str, CardRef] = {}
        for c in zones["equip"]:
            kind = self.cards_named(c.name)[0]
            if not kind.is_equip:
                self.error(c.span, f"{c.name} is not an equipment card")
            elif kind.type in slots:
                self.error(c.span, f"two cards in the {kind.type} slot", f"the other is {slots[kind.type].text()}")
            slots[kind.type] = c
        for c in zones["judge"]:
            if not c.counts_as and self.cards_named(c.name)[0].type != "delayed":
                self.error(c.span, f"{c.name} is not a delayed trick",
                           f"only delayed tricks lie in a judge area: a card converted to one says which, "
                           f"`{c.text()} as TRICK` ({self.delayed_tricks()})")

    def check_cards(self, seats, deck_top, discard, ruleset: str) -> None:
        """Each named card is a card of the deck, and no physical card is named twice."""
        if ruleset not in self.library.rulesets:
            return
        available: dict[tuple[str, str, int], int] = {}
        for spec in self.library.deck_cards(ruleset):
            key = (spec.name, spec.suit, spec.rank)
            available[key] = available.get(key, 0) + 1
        named = [c for s in seats for c in (*s.hand, *s.equip, *s.judge)] + list(deck_top) + list(discard)
        named += [c for s in seats for _, cards in s.piles for c in cards]
        for c in named:
            key = (c.name, c.suit, c.rank)
            if available.get(key, 0) <= 0:
                have = [f"{s.name} {SUIT_ZH[s.suit]}{RANK_FACE.get(s.rank, str(s.rank))}"
                        for s in sorted(self.library.deck_cards(ruleset), key=lambda s: (s.suit, s.rank))
                        if s.name == c.name]
                what = "is named twice" if key in available else f"is not in the '{ruleset}' deck"
                self.error(c.span, f"{c.text()} {what}", "that deck has: " + ", ".join(have[:12]) if have else "")
            else:
                available[key] -= 1

    def check_setup(self, seats: list[SeatSpec], ruleset: str) -> None:
        """`setup` deals hp and heroes: a seat names no hp, and only heroes the mode can deal it."""
        if ruleset not in self.library.rulesets:
            return
        dealt = {h.key for h in ruleset_heroes(self.library, ruleset)}
        named: dict[str, int] = {}
        for s in seats:
            if s.hp is not None:
                self.error(s.span, f"seat {s.seat} names its hp, but `setup` deals it",
                           "leave `hp` out and check it: `seat 1 max hp 5;`")
            if s.generals is not None:  # 國戰: both generals are among those dealt to the seat
                for name in s.generals[:2]:
                    if name and name not in dealt:
                        self.error(s.span, f"`setup` cannot deal {name} to seat {s.seat}: the '{ruleset}' ruleset "
                                   "has no such general", "name generals of the ruleset (sgs heroes --ruleset NAME)")
                    elif name in named:
                        self.error(s.span, f"{name} is dealt to seat {named[name]} already", "each general is dealt once")
                    named.setdefault(name, s.seat)
            if s.hero is None:
                continue
            if s.hero not in dealt:
                self.error(s.span, f"`setup` cannot deal {s.hero} to seat {s.seat}: the '{ruleset}' ruleset has "
                           + ("no heroes" if not dealt else "no such hero"),
                           "name a hero of the ruleset (sgs heroes --ruleset NAME), or leave `hero` out")
            elif s.hero in named:
                self.error(s.span, f"{s.hero} is dealt to seat {named[s.hero]} already", "each hero is dealt once")
            elif s.role == "lord" and getattr(self.library.heroes.get(s.hero), "never_lord", False):
                self.error(s.span, f"{s.hero} may not be the lord (`lord never;`), so `setup` cannot deal it to seat {s.seat}",
                           "give the lord another hero, or this one to another seat")
            named.setdefault(s.hero, s.seat)

    def check_claims(self, steps: list[Step], seats: list[SeatSpec], deck_top, discard) -> None:
        """A `cannot use` names a card the table holds: otherwise it could never fail."""
        table = [c for s in seats for c in (*s.hand, *s.equip, *s.judge)] + list(deck_top) + list(discard)
        for step in steps:
            if step.kind != "cannot" or step.card is None:
                continue
            ref = step.card
            if not any((c.name, c.suit, c.rank) == (ref.name, ref.suit, ref.rank) for c in table):
                hand = next((s.hand for s in seats if s.seat == step.seat), ())
                held = ", ".join(c.text() for c in hand) or "nothing"
                self.error(ref.span, f"seat {step.seat} cannot use {ref.text()}: no seat holds that card, so the "
                           "claim could never fail", f"put it in seat {step.seat}'s hand (it holds {held}), or "
                           "on the deck top if it is drawn first")

    def check_damage_claims(self, checks: list[Check]) -> None:
        nothing = next((c for c in checks if c.kind == "no_damage"), None)
        some = next((c for c in checks if c.kind in ("damage", "damage_set")), None)
        if nothing is not None and some is not None:
            self.error(nothing.span, "`no damage` contradicts the damage listed in this ruling",
                       f"the first is at {some.span}: keep one or the other")

    def run(self, node: Tree, count: int) -> Run:
        if node.data == "run_order":
            return self.run_order(node)
        seat = self.seat_no(node.children[0], count)
        phase_tok = node.children[1]
        phase = self.word(phase_tok, PHASE_WORDS, "phase") if phase_tok is not None else None
        return Run(seat, phase, node.data == "run_turn", self.span(node))

    def run_order(self, node: Tree) -> Run:
        """`play N turns`: N whole turns, each player the mode's next (the first its first)."""
        turns = int(node.children[0])
        if not 1 <= turns <= MAX_ORDER_TURNS:
            self.error(self.span(node.children[0]), f"cannot play {turns} turns",
                       f"play 1 to {MAX_ORDER_TURNS} turns in the mode's order")
        return Run(0, None, True, self.span(node), max(turns, 1))

    # ------------------------------------------------------------ the script
    def step(self, node: Tree, count: int) -> Step:
        seat = self.seat_no(node.children[0], count)
        span = self.span(node)
        rest = node.children[1:]
        kind = node.data
        if kind in ("answer", "cannot_answer"):
            return Step(seat, kind, span, text=str(rest[0])[1:-1])
        if kind in ("ends", "not_asked"):
            return Step(seat, kind, span)
        if kind in ("invokes", "declines"):
            return Step(seat, kind, span, text=self.skill_name(rest[0]))
        if kind == "chooses":
            return Step(seat, kind, span, text=self.hero(rest[0]) or str(rest[0]))
        if kind == "picks":
            return Step(seat, kind, span, card=self.card(rest[1]), zone=str(rest[0]), owner=self.seat_no(rest[2], count))
        on = tuple(self.seat_no(t, count) for t in rest[1].children) if len(rest) > 1 and rest[1] is not None else ()
        what = rest[0]
        if what.data == "conversion":
            return self.conversion(seat, kind, span, what, on)
        return Step(seat, kind, span, card=self.card(what), on=on)

    def conversion(self, seat: int, kind: str, span: Span, node: Tree, on: tuple[int, ...]) -> Step:
        name_tok, via_tok, faces = node.children
        converted = self.card_kind(name_tok)
        subcards = []
        for f in faces.children if faces is not None else ():
            if f is None:
                continue
            name_tok2, face_tok = f.children
            sub_kind = self.card_kind(name_tok2) if name_tok2 is not None else None
            if name_tok2 is not None and sub_kind is None:
                continue
            ref = self.face(sub_kind.name if sub_kind else "", face_tok, self.span(f))
            if ref is not None:
                subcards.append(ref)
        return Step(seat, kind, span, via=self.skill_name(via_tok), converted=converted.name if converted else "",
                    subcards=tuple(subcards), on=on)

    # ------------------------------------------------------------ expectations
    def check(self, node: Tree, count: int) -> Check:
        span = self.span(node)
        kind = node.data.removesuffix("_check")
        c = node.children
        if kind in ("hp", "max_hp"):
            return Check(kind, self.seat_no(c[0], count), int(c[1]), span)
        if kind == "zone":
            return Check(str(c[1]), self.seat_no(c[0], count), self.cards(c[2]), span)
        if kind == "life":
            return Check("life", self.seat_no(c[0], count), str(c[1]), span)
        if kind in ("state", "not_state"):
            return Check("state", self.seat_no(c[0], count), str(c[1]), span, negated=kind == "not_state")
        if kind == "skills":
            keys = (self.skill_name(t) for t in c[1:] if t is not None)  # checked, then compared as printed
            names = tuple(getattr(self.library.skills.get(k), "name", k) for k in keys)
            return Check("skills", self.seat_no(c[0], count), names, span)
        if kind == "mark":
            return Check("mark", self.seat_no(c[0], count), (str(c[1]), int(c[2])), span)
        if kind == "pile":
            return Check("pile", self.seat_no(c[0], count), (self.pile_name(c[1]), self.cards(c[2])), span)
        if kind in ("discard", "deck"):
            return Check(kind, None, self.cards(c[0]), span)
        if kind in ("deck_size", "discard_size"):
            return Check(kind, None, int(c[0]), span)
        if kind == "damage":
            return Check("damage", None, self.damage(node, count), span)
        if kind == "damage_set":
            return Check("damage_set", None, tuple(self.damage(d, count) for d in c), span)
        if kind == "no_damage":
            return Check("no_damage", None, None, span)
        if kind in ("skipped", "not_skipped"):  # a phase, or a whole turn
            phase = self.word(c[1], {**PHASE_WORDS, "turn": "turn", "回合": "turn"}, "phase") or "play"
            return Check("skipped", self.seat_no(c[0], count), phase, span, negated=kind == "not_skipped")
        if kind in ("fired", "not_fired"):
            times = int(c[1]) if len(c) > 1 and c[1] is not None else None
            return Check("fired", None, (self.skill_name(c[0]), times), span, negated=kind == "not_fired")
        if kind == "turns":
            return Check("turns", self.seat_no(c[0], count), int(c[1]), span)
        if kind == "phases":
            return Check("phases", self.seat_no(c[0], count), (self.word(c[1], PHASE_WORDS, "phase") or "play",
                                                               int(c[2])), span)
        if kind == "fight":
            return Check("fight", self.seat_no(c[0], count), (self.seat_no(c[1], count), str(c[2])), span)
        if kind in ("winner_seat", "loser_seat"):
            return Check("won", self.seat_no(c[0], count), kind == "winner_seat", span)
        if kind == "gender":
            word = self.word(c[1], GENDER_WORDS, "gender")
            return Check("gender", self.seat_no(c[0], count), "" if word is None else word, span)
        if kind == "kingdom":
            word = self.word(c[1], KINGDOM_WORDS, "kingdom")
            return Check("kingdom", self.seat_no(c[0], count), "" if word is None else word, span)
        if kind == "shown":
            return Check("shown", self.seat_no(c[0], count), self.word(c[1], SHOWN, "face-up general") or "none", span)
        return Check("winner", None, self.word(c[0], WINNERS, "winner") or "none", span)

    def damage(self, node: Tree, count: int) -> DamageRef:
        source_tok, target_tok, *attrs = node.children
        source = None if source_tok.type == "NONE" else self.seat_no(source_tok, count)
        amount, nature, card = 1, "normal", None
        for a in attrs:
            if a.data == "amount":
                amount = int(a.children[0])
                if amount <= 0:
                    self.error(self.span(a), f"a damage of amount {amount}", "a damage dealt is 1 or more; prevented damage is not logged")
            elif a.data == "nature":
                nature = self.word(a.children[0], NATURES, "nature") or "normal"
            else:
                kind = self.card_kind(a.children[0])
                card = kind.name if kind is not None else None
        return DamageRef(source, self.seat_no(target_tok, count), amount, nature, card, self.span(node))
