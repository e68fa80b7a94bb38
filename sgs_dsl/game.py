"""Play one game: set up the table from a ruleset, run turns until the game ends, check invariants."""

from __future__ import annotations

import random
import traceback
from typing import Any

import attrs

from .agents.random_agent import RandomAgent
from .engine.invariants import check_invariants
from .engine.kernel import Game
from .engine.model import Card, GameOver, Player, RulesError
from .modes.identity import IdentityMode, deal_roles, lord_bonus

BLANK_HP = 4
DEFAULT_MAX_TURNS = 600


@attrs.define
class GameResult:
    winner: str
    turns: int
    log: list[str]
    windows_opened: int
    roles: tuple[str, ...]
    error: str | None = None
    violations: list[str] = attrs.field(factory=list)
    capped: bool = False
    reason: str = ""
    fired: dict[str, int] = attrs.field(factory=dict)


def build_deck(library: Any, ruleset: str) -> list[Card]:
    r = library.ruleset(ruleset)
    cards = []
    for deck in r.decks:
        for kind, suit, rank in library.decks[deck]:
            cards.append(Card(len(cards), kind, suit, rank))
    return cards


def setup(library: Any, ruleset: str, players: int, seed: int, agents: list[Any] | None = None,
          log: bool = False) -> Game:
    """A table ready to play: roles dealt, heroes seated, deck shuffled, 4 cards each."""
    if not 2 <= players <= 10:
        raise ValueError("identity mode seats 2 to 10 players")
    rng = random.Random(seed)
    roles = deal_roles(players, rng)
    seats = []
    for i, role in enumerate(roles):
        hp = BLANK_HP + (lord_bonus(players) if role == "lord" else 0)
        gender = rng.choice(("male", "female"))
        seats.append(Player(i, "無將" + ("(男)" if gender == "male" else "(女)"), gender, hp, hp, role))
    deck = build_deck(library, ruleset)
    rng.shuffle(deck)
    agents = agents or [RandomAgent(rng.randrange(2**32)) for _ in range(players)]
    game = Game(library, seats, deck, agents, IdentityMode(), rng.randrange(2**32), log)
    game.log(f"身份局 {players}人：主公是{seats[0].label()}（體力上限{seats[0].max_hp}）")
    for p in seats:
        game.draw(p, 4)
    return game


def run(game: Game, max_turns: int = DEFAULT_MAX_TURNS, check: bool = True) -> GameResult:
    """Turns from the lord in seat order until the game ends or the turn cap is reached."""
    total = len(game.all_cards)
    violations: list[str] = []
    error = None
    winner, reason, capped = "draw", "", False
    try:
        player = game.players[0]
        while True:
            if game.turns >= max_turns:
                capped, reason = True, f"達到{max_turns}回合上限，平局"
                break
            game.play_turn(player)
            if check:
                violations.extend(check_invariants(game, total))
                if violations:
                    break
            player = game.next_alive(player)
    except GameOver as over:
        winner, reason = over.winner, over.reason
    except RulesError as problem:
        error = f"rules error: {problem}"
    except Exception:  # an engine bug: reported, counted, never a crash of the batch
        error = traceback.format_exc()
    if check and error is None:
        violations.extend(check_invariants(game, total))
    game.log(reason or (error or "").splitlines()[-1:][0] if (reason or error) else "")
    return GameResult(winner, game.turns, game.lines, game.windows_opened,
                      tuple(p.role for p in game.players), error, violations, capped, reason, dict(game.fired))


def play_game(library: Any, ruleset: str, players: int, seed: int, *, log: bool = False,
              max_turns: int = DEFAULT_MAX_TURNS, agents: list[Any] | None = None) -> GameResult:
    game = setup(library, ruleset, players, seed, agents, log)
    return run(game, max_turns)
