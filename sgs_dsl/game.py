"""Play one game of any mode: set up the table as the ruleset's mode says, run turns until the
game ends, check invariants. Everything a mode decides is asked of the mode (sgs_dsl/modes)."""

from __future__ import annotations

import random
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attr

from .agents.random_agent import RandomAgent
from .core.model import Card, GameOver, Player, RulesError
from .engine.decisions import Agent
from .engine.forking import keep_forward_model, mark_turn_start
from .engine.invariants import DEFAULT_LEVEL, InvariantBroken, InvariantLevel, Invariants
from .engine.kernel import Game
from .engine.parts import DEFAULT_PARTS, Parts
from .modes import make_mode
from .modes.base import Mode, Placed

if TYPE_CHECKING:
    from .compiler.library import Library

DEFAULT_MAX_TURNS = 600

#: What a seat played as: its hero's name, or (國戰) the names of its generals.
SeatHeroes = str | tuple[str, ...]


# attr.s(auto_attribs=True), not a slotted attrs.define: the form mypyc compiles (docs/performance.md)
@attr.s(auto_attribs=True)
class GameResult:
    winner: str
    turns: int
    log: list[str]
    windows_opened: int
    roles: tuple[str, ...]  # each seat's side at the end, as the mode says (identity: its role)
    error: str | None = None
    violations: list[str] = attr.ib(factory=list)
    capped: bool = False
    reason: str = ""
    fired: dict[str, int] = attr.ib(factory=dict)
    heroes: tuple[SeatHeroes, ...] = ()  # the hero of each seat; empty when the ruleset has no heroes
    timed_out: bool = False  # cut off at its time limit (play_game's game_timeout); error says so
    cards_used: int = 0  # cards used (使用) in the game


#: Makes a seat's agent from its player (role dealt, no hero yet) and the seat's seed.
AgentFactory = Callable[[Player, int], Agent]


def _random_agent(player: Player, seed: int) -> RandomAgent:
    return RandomAgent(seed)


def build_deck(library: Library, ruleset: str) -> list[Card]:
    """The ruleset's cards, numbered, each as the ruleset deals it (a `variants` card for its kind)."""
    return library.dealt_cards(ruleset)


def ruleset_heroes(library: Library, ruleset: str) -> list[Any]:  # the mode's hero cards (modes/base.py)
    """The heroes of a ruleset's hero packages, in library order."""
    rules = library.ruleset(ruleset)
    return make_mode(rules).hero_pool(library, rules.heroes)


def setup(library: Library, ruleset: str, players: int, seed: int, agents: list[Agent] | None = None,
          log: bool = False, agent_factory: AgentFactory | None = None, parts: Parts = DEFAULT_PARTS,
          placed: Placed | None = None) -> Game:
    """A table ready to play, by the ruleset's mode: the seats (roles, kingdoms), the deck
    shuffled, heroes chosen (or blank heroes seated), the opening hands. Without `agents`,
    `agent_factory` (random agents by default) makes each seat's agent once its role is dealt.
    `parts`: what the game is built from (engine/parts.py), the engine's own by default.
    `placed`: heroes put on seats on purpose (seat, 0-based -> hero name; modes/base.py `Placed`),
    seated by the mode's `choose_heroes`; a ValueError for a ruleset without heroes."""
    rules = library.ruleset(ruleset)
    if placed and not rules.heroes:
        raise ValueError(f"ruleset {ruleset} deals no heroes: no hero can be placed on a seat")
    mode = (parts.mode or make_mode)(rules)
    mode.check_players(players)
    rng = random.Random(seed)
    seats = mode.seats(players, rng, with_heroes=bool(rules.heroes))
    deck = build_deck(library, ruleset)
    rng.shuffle(deck)
    make = agent_factory or _random_agent  # the same seed draws whichever agents play
    agents = agents or [make(p, rng.randrange(2**32)) for p in seats]
    game = (parts.game or Game)(library, seats, deck, agents, mode, rng.randrange(2**32), log, parts)
    if rules.heroes:
        pool = mode.hero_pool(library, rules.heroes)
        game.hero_pool = tuple(h.key for h in pool)
        mode.choose_heroes(game, pool, rng, placed)
    game.log(mode.opening(game))
    for p in seats:
        game.zones.draw(p, mode.starting_hand)
    if any(getattr(a, "looks_ahead", False) for a in agents):  # it plays forward on copies of the game
        keep_forward_model(game)
    return game


def hero_names(game: Game) -> tuple[SeatHeroes, ...]:
    """The hero of each seat (國戰: a tuple of its generals), or () for a table of blank heroes."""
    library, mode = game.library, _mode(game)
    known = library.heroes.keys() | getattr(library, "generals", {}).keys()  # 國戰's generals
    cards = [mode.seat_heroes(game, p) for p in game.players]
    if not all(names and set(names) <= known for names in cards):
        return ()
    return tuple(names[0] if len(names) == 1 else names for names in cards)


def _mode(game: Game) -> Mode:
    """The game's mode as the loop knows it: the engine holds it as what it asks of a mode
    (engine/interfaces.py `ModeHooks`); the loop also asks it whose turn comes next."""
    mode = game.mode
    assert isinstance(mode, Mode), f"a game's mode is a Mode, not {type(mode).__name__}"
    return mode


def run(game: Game, max_turns: int = DEFAULT_MAX_TURNS, invariants: str = DEFAULT_LEVEL,
        resume: Player | None = None) -> GameResult:
    """Turns from the mode's first player, in the mode's order, until the game ends or the turn cap is reached,
    checked at the `invariants` level (`InvariantLevel`): at every free time, after every turn
    and at the end; after every turn and at the end; or not at all. The first violation ends
    the game and is reported. With `resume`, the game has started and played turns (a copy,
    `Game.fork`): it goes on with `resume`'s turn."""
    checker = _checker(game, InvariantLevel(invariants))
    mode = _mode(game)
    violations: list[str] = []
    error = None
    winner, reason, capped = "draw", "", False
    ended: GameOver | None = None
    try:
        if resume is None:
            game.start.start_game()  # 遊戲開始時: setup is done, no turn has begun
        player = mode.first_player(game) if resume is None else resume
        while True:
            if game.turns >= max_turns:
                capped, reason = True, f"達到{max_turns}回合上限，平局"
                break
            if game.forward_model:  # a player looks ahead: the copy its branches start from
                mark_turn_start(game, player.seat)
            game.extra_turns.take_turn(player)  # with the extra turns granted in it
            if checker is not None:
                checker.check(free_time=True)  # between turns: a free time, fully checked
            player = mode.next_player(game, player)
    except InvariantBroken as broken:
        violations = broken.problems
    except GameOver as over:
        ended, winner, reason = over, over.winner, over.reason
    except RulesError as problem:
        error = f"rules error: {problem}"
    except Exception:  # an engine bug: reported, counted, never a crash of the batch
        error = traceback.format_exc()
    if checker is not None:
        game.on_free_time = None  # the game is over (and the game and its checker no longer hold each other)
        if error is None and not violations:
            violations = checker.problems(free_time=False, ended=ended)  # the game ended: not a free time
    game.log(reason or (error or "").splitlines()[-1:][0] if (reason or error) else "")
    return GameResult(winner, game.turns, game.lines, game.windows_opened,
                      mode.sides(game), error, violations, capped, reason, dict(game.fired),
                      hero_names(game), game.budget.timed_out, game.cards_used)


def _checker(game: Game, level: InvariantLevel) -> Invariants | None:
    """The invariants of `game` at `level`, hooked to its free times at the finest level."""
    if level is InvariantLevel.OFF:
        return None
    checker = game.parts.invariants.start(game)
    if level is InvariantLevel.EVERY_FREE_TIME:
        game.on_free_time = checker.at_free_time
    return checker


def turn_cap(library: Library, ruleset: str, max_turns: int = DEFAULT_MAX_TURNS) -> int:
    """The turn cap a game of `ruleset` is played to, and the one to report: the ruleset's own
    `max_turns` when it is smaller than the caller's (`--max-turns`), else the caller's."""
    own: int = library.ruleset(ruleset).options.get("max_turns", max_turns)
    return min(max_turns, own)


def play_game(library: Library, ruleset: str, players: int, seed: int, *, log: bool = False,
              max_turns: int = DEFAULT_MAX_TURNS, agents: list[Agent] | None = None,
              game_timeout: float | None = None, agent_factory: AgentFactory | None = None,
              invariants: str = DEFAULT_LEVEL, parts: Parts = DEFAULT_PARTS,
              placed: Placed | None = None) -> GameResult:
    try:
        game = setup(library, ruleset, players, seed, agents, log, agent_factory, parts, placed)
    except RulesError as problem:  # text that fires on the opening hands (`on drawn`) ends the game
        return GameResult("draw", 0, [], 0, (), f"rules error: {problem}")
    except GameOver as over:  # ... or draws the deck dry before the first turn
        return GameResult(over.winner, 0, [], 0, (), reason=over.reason)
    max_turns = turn_cap(library, ruleset, max_turns)
    if game_timeout is not None:  # seconds of wall-clock time, checked at each action
        game.budget.limit_time(game_timeout)
    return run(game, max_turns, invariants)
