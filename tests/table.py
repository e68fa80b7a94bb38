"""A test helper: build an exact table from the real deck, without shuffling.

    game = make_table(seats=[dict(role="lord", hand=["殺 ♠7", "閃 ♦2"], equips=["諸葛連弩 ♣A"]),
                             dict(role="rebel", hp=3, judge=["樂不思蜀 ♠6"])],
                      deck_top=["桃 ♥3", "閃 ♥2"], answers={0: ["【殺】♠7", "2號位", "結束出牌"]})

Cards are named "名 花色點數" ("殺 ♠7", "閃 ♦J", "決鬥 ♠A") and taken out of the real 108-card
deck (`build_deck(library, "basic")`), so the card count and the invariants hold. `deck_top`
lists the next cards to be drawn, first = top (the top of `game.deck` is the end of the list).
Each seat gets a strict scripted agent: answers are matched by option label; `decline=True`
(the default) lets a seat answer "不使用" / "不打出" by itself when its script is used up, and
nothing else. `finish(game)` asserts the scripts were used up and the invariants hold."""

from __future__ import annotations

from typing import Any

from sgs_dsl.agents.scripted import ScriptedAgent
from sgs_dsl.compiler.library import load_library
from sgs_dsl.core.model import RANK_FACE, SUIT_ZH, Card, Player
from sgs_dsl.engine.decisions import Request
from sgs_dsl.engine.invariants import check_invariants
from sgs_dsl.engine.kernel import Game
from sgs_dsl.engine.parts import DEFAULT_PARTS, Parts
from sgs_dsl.game import build_deck
from sgs_dsl.modes.identity import IdentityMode

TOTAL = 108
SUIT_OF = {v: k for k, v in SUIT_ZH.items()}
RANK_OF = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}
DECLINES = ("不使用", "不打出")


def library() -> Any:
    return load_library()


class TableAgent(ScriptedAgent):
    """A ScriptedAgent that may fall back on several declining answers (still strict otherwise)."""

    def __init__(self, answers: list[str], defaults: tuple[str, ...], journal: list):
        super().__init__(answers)
        self.defaults = defaults
        self.journal = journal  # shared by the table: (seat, kind, answer) in the order asked

    def choose(self, request: Request, game: Any) -> int:
        index = self._choose(request, game)
        self.journal.append((request.seat, request.kind, request.options[index].label))
        return index

    def _choose(self, request: Request, game: Any) -> int:
        if not self.answers:
            labels = request.labels()
            for default in self.defaults:
                if default in labels:
                    self.asked.append(request)
                    return labels.index(default)
        return super().choose(request, game)


def parse(spec: str) -> tuple[str, str, int]:
    name, face = spec.split()
    return name, SUIT_OF[face[0]], RANK_OF[face[1:]]


def spec(card: Card) -> str:
    """The "名 花色點數" form of a card, the inverse of parse."""
    return f"{card.name} {SUIT_ZH[card.suit]}{RANK_FACE.get(card.rank, str(card.rank))}"


def specs(cards) -> list[str]:
    return [spec(c) for c in cards]


def equips(player: Player) -> dict[str, str]:
    return {slot: spec(c) for slot, c in player.equips.items()}


def _take(deck: list[Card], text: str) -> Card:
    name, suit, rank = parse(text)
    for c in deck:
        if c.name == name and c.suit == suit and c.rank == rank:
            deck.remove(c)
            return c
    raise ValueError(f"no (more) card {text} in the deck")


def find(game: Game, text: str) -> Card:
    """The first card of the table matching "名 花色點數", wherever it is."""
    name, suit, rank = parse(text)
    for c in game.all_cards:
        if c.name == name and c.suit == suit and c.rank == rank:
            return c
    raise ValueError(f"no card {text}")


def make_table(lib: Any = None, seats: list[dict] = (), deck_top: list[str] = (),
               answers: dict[int, list[str]] | None = None, current: int = 0, discard: list[str] = (),
               decline: bool | dict[int, bool] = True, log: bool = True, seed: int = 0,
               parts: Parts = DEFAULT_PARTS) -> Game:
    lib = lib or library()
    deck = build_deck(lib, "basic")
    assert len(deck) == TOTAL
    players = []
    for i, s in enumerate(seats):
        max_hp = s.get("max_hp", 4)
        gender = s.get("gender", "male")
        name = s.get("name", "無將" + ("(男)" if gender == "male" else "(女)"))
        players.append(Player(i, name, gender, s.get("hp", max_hp), max_hp, s.get("role", "rebel")))
    answers = answers or {}
    agents = []
    journal: list[tuple[int, str, str]] = []
    for i in range(len(seats)):
        declines = decline.get(i, True) if isinstance(decline, dict) else decline
        agents.append(TableAgent(list(answers.get(i, [])), DECLINES if declines else (), journal))
    game = Game(lib, players, deck, agents, IdentityMode(), seed, log, parts)
    for p, s in zip(players, seats, strict=True):
        p.hand.extend(_take(game.deck, c) for c in s.get("hand", ()))
        for text in s.get("equips", ()):
            c = _take(game.deck, text)
            assert c.kind.type not in p.equips, f"two {c.kind.type} cards for seat {p.seat + 1}"
            p.equips[c.kind.type] = c
        p.judge.extend(_take(game.deck, c) for c in s.get("judge", ()))  # first = placed first
    game.discard_pile.extend(_take(game.deck, c) for c in discard)
    top = [_take(game.deck, c) for c in deck_top]
    game.deck.extend(reversed(top))
    game.current = players[current]
    game.skills.changed_skills()
    return game


def unused(game: Game) -> dict[int, list[str]]:
    return {i: a.unused() for i, a in enumerate(game.agents) if a.unused()}


def finish(game: Game) -> None:
    """Every scripted answer was used, and the table is sound (108 cards, one zone each)."""
    left = unused(game)
    assert left == {}, f"scripted answers never asked for: {left}"
    assert check_invariants(game, TOTAL) == []


def journal(game: Game) -> list[tuple[int, str, str]]:
    """Every question of the table answered, in order: (seat, kind, answer label); its agents
    share the list."""
    return game.agents[0].journal


def asked(game: Game, seat: int, kind: str | None = None) -> list[Request]:
    return [r for r in game.agents[seat].asked if kind is None or r.kind == kind]
