"""Ruling files -> Ruling data, checked against the library: every card named exists in the
ruleset's deck with that suit and rank, used once; seats, roles and phases are known."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lark import Token, Tree

from ..compiler.library import RANKS, load_library
from ..engine.model import PHASE_ZH, PHASES, RANK_FACE, SUIT_ZH
from ..syntax.diagnostics import Diagnostic, SgsError, Span, did_you_mean
from ..syntax.names import normalize
from ..syntax.parser import SUITS, parse_tree, source_lines
from ..syntax.source import clean_text, decode_source, read_bytes
from .model import CardRef, Check, Ruling, Run, SeatSpec, Step

ROLES = {"lord": "lord", "loyalist": "loyalist", "rebel": "rebel", "renegade": "renegade",
         "主公": "lord", "忠臣": "loyalist", "反賊": "rebel", "反贼": "rebel", "內奸": "renegade", "内奸": "renegade"}
PHASE_WORDS = {**{p: p for p in PHASES}, **{zh: p for p, zh in PHASE_ZH.items()}}
WINNERS = ("lord", "rebel", "renegade", "draw", "none")


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

    def card(self, node: Tree) -> CardRef | None:
        name_tok, face_tok = node.children
        span = self.span(node)
        kind = self.library.cards.get(str(name_tok))
        if kind is None:
            by_key = {normalize(k.name): k for k in self.library.cards.values()}
            by_key.update({k.id: k for k in self.library.cards.values()})
            kind = by_key.get(normalize(str(name_tok)))
        if kind is None:
            self.error(self.span(name_tok), f"unknown card '{name_tok}'",
                       did_you_mean(str(name_tok), [k.name for k in self.library.cards.values()]))
            return None
        face = str(face_tok)
        rank = RANKS.get(face[1:])
        if rank is None:
            self.error(self.span(face_tok), f"bad rank '{face[1:]}' in the card face '{face}'", "ranks are A, 2-10, J, Q, K")
            return None
        return CardRef(kind.name, SUITS[face[0]], rank, span)

    def cards(self, node: Tree) -> tuple[CardRef, ...]:
        return tuple(c for c in (self.card(n) for n in node.children if n is not None) if c is not None)

    def seat_no(self, token: Token, count: int) -> int:
        n = int(token)
        if not 1 <= n <= count:
            self.error(self.span(token), f"no seat {n} at this table", f"seats are numbered 1 to {count}")
        return n

    # ------------------------------------------------------------ one ruling
    def ruling(self, node: Tree) -> Ruling:
        title = str(node.children[0])[1:-1]
        entries = [c for c in node.children[1:] if isinstance(c, Tree)]
        fields: dict[str, Any] = {"source": "", "ruleset": "", "deck": (), "discard": ()}
        seats, runs, steps, checks = [], [], [], []
        seat_nodes = [e for e in entries if e.data == "seat"]
        count = len(seat_nodes)
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
            elif e.data in ("run_turn", "run_phase"):
                runs.append(self.run(e, count))
            elif e.data == "script":
                steps.extend(self.step(s, count) for s in e.children)
            elif e.data == "expect":
                checks.extend(self.check(c, count) for c in e.children)
        span = self.span(node)
        if not fields["source"]:
            self.error(span, f"ruling '{title}' cites no source", 'add `source "seed 000 §6";` (seed file and section, or rule-set paragraph)')
        if not 2 <= count <= 10:
            self.error(span, f"ruling '{title}' seats {count} players", "a table has 2 to 10 seats: `seat 1 lord; seat 2 rebel;`")
        lords = [x for x in seats if x.role == "lord"]
        if count and len(lords) != 1:
            self.error(span, f"ruling '{title}' has {len(lords)} lords", "identity mode has exactly one lord")
        if not runs:
            self.error(span, f"ruling '{title}' plays nothing", "add `turn 1;` or `phase 1 play;`")
        ruleset = fields["ruleset"] or self.library.default_ruleset
        self.check_cards(seats, fields["deck"], fields["discard"], ruleset)
        return Ruling(title, fields["source"], ruleset, tuple(seats), fields["deck"], fields["discard"],
                      tuple(runs), tuple(steps), tuple(checks), self.path, span.line, span)

    def seat(self, node: Tree, expected: int) -> SeatSpec:
        number_tok, role_tok, *attrs = node.children
        if int(number_tok) != expected:
            self.error(self.span(number_tok), f"seat {number_tok} out of order", f"seats are listed in order: this is seat {expected}")
        role = ROLES.get(str(role_tok))
        if role is None:
            self.error(self.span(role_tok), f"unknown role '{role_tok}'",
                       did_you_mean(str(role_tok), ROLES) or "roles: lord, loyalist, rebel, renegade (or 主公 忠臣 反賊 內奸)")
            role = "rebel"
        hp = max_hp = None
        gender, hero = "male", None
        zones: dict[str, tuple[CardRef, ...]] = {"hand": (), "equip": (), "judge": ()}
        for a in attrs:
            if a.data == "hp":
                hp = int(a.children[0])
                max_hp = int(a.children[1]) if a.children[1] is not None else None
            elif a.data in ("male", "female"):
                gender = a.data
            elif a.data == "hero":
                hero = str(a.children[0])
                if hero not in self.library.heroes:
                    self.error(self.span(a.children[0]), f"unknown hero '{hero}'",
                               did_you_mean(hero, self.library.heroes) or "no heroes in the library yet")
            else:
                zones[a.data] = self.cards(a.children[0])
        if hp is not None and max_hp is not None and hp > max_hp:
            self.error(self.span(node), f"seat {expected} has hp {hp} above its max hp {max_hp}")
        slots: dict[str, CardRef] = {}
        for c in zones["equip"]:
            kind = self.library.cards[c.name]
            if not kind.is_equip:
                self.error(c.span, f"{c.name} is not an equipment card")
            elif kind.type in slots:
                self.error(c.span, f"two cards in the {kind.type} slot", f"the other is {slots[kind.type].text()}")
            slots[kind.type] = c
        for c in zones["judge"]:
            if self.library.cards[c.name].type != "delayed":
                self.error(c.span, f"{c.name} is not a delayed trick", "only delayed tricks lie in a judge area")
        return SeatSpec(expected, role, hp, max_hp, gender, hero, zones["hand"], zones["equip"], zones["judge"],
                        self.span(node))

    def check_cards(self, seats, deck_top, discard, ruleset: str) -> None:
        """Each named card is a card of the deck, and no physical card is named twice."""
        if ruleset not in self.library.rulesets:
            return
        available: dict[tuple[str, str, int], int] = {}
        for spec in self.library.deck_cards(ruleset):
            key = (spec.name, spec.suit, spec.rank)
            available[key] = available.get(key, 0) + 1
        named = [c for s in seats for c in (*s.hand, *s.equip, *s.judge)] + list(deck_top) + list(discard)
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

    def run(self, node: Tree, count: int) -> Run:
        seat = self.seat_no(node.children[0], count)
        phase_tok = node.children[1]
        phase = None
        if phase_tok is not None:
            phase = PHASE_WORDS.get(str(phase_tok))
            if phase is None:
                self.error(self.span(phase_tok), f"unknown phase '{phase_tok}'",
                           did_you_mean(str(phase_tok), PHASE_WORDS) or "phases: " + ", ".join(PHASES))
        return Run(seat, phase, node.data == "run_turn", self.span(node))

    def step(self, node: Tree, count: int) -> Step:
        seat = self.seat_no(node.children[0], count)
        span = self.span(node)
        if node.data == "answer":
            return Step(seat, "answer", str(node.children[1])[1:-1], None, (), span)
        if node.data == "ends":
            return Step(seat, "ends", "", None, (), span)
        card = self.card(node.children[1])
        on = ()
        if node.children[2] is not None:
            on = tuple(self.seat_no(t, count) for t in node.children[2].children)
        return Step(seat, node.data, card.text() if card else "", card, on, span)

    def check(self, node: Tree, count: int) -> Check:
        span = self.span(node)
        kind = node.data.removesuffix("_check")
        c = node.children
        if kind == "hp":
            return Check("hp", self.seat_no(c[0], count), int(c[1]), span)
        if kind == "zone":
            return Check(str(c[1]), self.seat_no(c[0], count), self.cards(c[2]), span)
        if kind == "life":
            return Check("life", self.seat_no(c[0], count), str(c[1]), span)
        if kind in ("discard", "deck"):
            return Check(kind, None, self.cards(c[0]), span)
        winner = str(c[0])
        if winner not in WINNERS:
            self.error(self.span(c[0]), f"unknown winner '{winner}'", did_you_mean(winner, WINNERS) or "winners: " + ", ".join(WINNERS))
        return Check("winner", None, winner, span)
