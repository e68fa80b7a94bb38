"""Play one game: set up the table from a ruleset, run turns until the game ends, check invariants."""

from __future__ import annotations

import random
import traceback
from typing import Any

import attrs

from .agents.random_agent import RandomAgent
from .core.model import Card, GameOver, Player, RulesError
from .engine.decisions import Option
from .engine.invariants import InvariantBroken, Invariants
from .engine.kernel import Game
from .modes.identity import IdentityMode, deal_roles, lord_bonus

BLANK_HP = 4
DEFAULT_MAX_TURNS = 600
HERO_CHOICES = 3  # heroes dealt to each seat but the lord (seed 000 §2)
HERO_CHOICES_AT_TEN = 2  # at 10 players
LORD_EXTRA_CHOICES = 2  # random heroes the lord gets besides the ruleset's lords


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
    heroes: tuple[str, ...] = ()  # the hero of each seat; empty when the ruleset has no heroes
    timed_out: bool = False  # cut off at its time limit (play_game's game_timeout); error says so


def build_deck(library: Any, ruleset: str) -> list[Card]:
    r = library.ruleset(ruleset)
    cards = []
    for deck in r.decks:
        for kind, suit, rank in library.decks[deck]:
            cards.append(Card(len(cards), kind, suit, rank))
    return cards


def ruleset_heroes(library: Any, ruleset: str) -> list[Any]:
    """The heroes of a ruleset's hero packages, in library order."""
    packages = library.ruleset(ruleset).heroes
    return [h for h in library.heroes.values() if h.package in packages]


def setup(library: Any, ruleset: str, players: int, seed: int, agents: list[Any] | None = None,
          log: bool = False) -> Game:
    """A table ready to play: roles dealt, heroes chosen (or blank heroes seated), deck
    shuffled, 4 cards each."""
    if not 2 <= players <= 10:
        raise ValueError("identity mode seats 2 to 10 players")
    rules = library.ruleset(ruleset)
    rng = random.Random(seed)
    roles = deal_roles(players, rng)
    seats = []
    for i, role in enumerate(roles):
        if rules.heroes:  # a seat without a hero until the heroes are chosen
            seats.append(Player(i, "", "", 0, 0, role))
            continue
        hp = BLANK_HP + (lord_bonus(players) if role == "lord" else 0)
        gender = rng.choice(("male", "female"))
        seats.append(Player(i, "無將" + ("(男)" if gender == "male" else "(女)"), gender, hp, hp, role))
    deck = build_deck(library, ruleset)
    rng.shuffle(deck)
    agents = agents or [RandomAgent(rng.randrange(2**32)) for _ in range(players)]
    game = Game(library, seats, deck, agents, IdentityMode(), rng.randrange(2**32), log)
    if rules.heroes:
        game.hero_pool = tuple(h.name for h in ruleset_heroes(library, ruleset))
        choose_heroes(game, rules.lords, ruleset_heroes(library, ruleset), rng)
    game.log(f"身份局 {players}人：主公是{seats[0].label()}（體力上限{seats[0].max_hp}）")
    for p in seats:
        game.draw(p, 4)
    return game


def choose_heroes(game: Game, lords: tuple[str, ...], pool: list[Any], rng: random.Random) -> None:
    """Hero selection (seed 000 §2): the lord chooses from the ruleset's lords and 2 random
    others, and shows the choice; the remaining heroes are shuffled and every other seat is
    dealt 3 (2 at 10 players) and chooses one; those choices are revealed together. No hero
    is dealt twice. Max hp is the hero's, the lord's +1 from 5 players up (§3)."""
    players = game.players
    lord = next(p for p in players if p.role == "lord")
    others = [p for p in players if p is not lord]
    lord_heroes = [h for name in lords for h in pool if h.name == name]
    rest = [h for h in pool if h.name not in lords]
    rng.shuffle(rest)
    options = lord_heroes + rest[:LORD_EXTRA_CHOICES]
    if not options:
        raise ValueError("the ruleset's hero packages have no heroes")
    chosen = game.ask(lord, "hero", "選擇武將（主公）", [Option(h.name, h) for h in options], "選將").value
    _seat_hero(game, lord, chosen, lord_bonus(len(players)))
    game.log(f"{lord.seat + 1}號位主公選擇了{chosen.name}（候選：{'、'.join(h.name for h in options)}）")
    rest = [h for h in pool if h is not chosen]
    rng.shuffle(rest)
    per_seat = HERO_CHOICES_AT_TEN if len(players) == 10 else HERO_CHOICES
    if others and len(rest) < per_seat * len(others):  # a small hero package: deal what there is
        per_seat = len(rest) // len(others)
        if per_seat == 0:
            raise ValueError(f"{len(pool)} heroes are too few for {len(players)} players")
    dealt = {p.seat: rest[i * per_seat:(i + 1) * per_seat] for i, p in enumerate(others)}
    # every seat chooses before any choice is shown: the seats keep no hero until all have chosen
    picks = [(p, game.ask(p, "hero", "選擇武將", [Option(h.name, h) for h in dealt[p.seat]], "選將").value) for p in others]
    for p, hero in picks:
        _seat_hero(game, p, hero, 0)
        game.log(f"{p.seat + 1}號位選擇了{hero.name}（候選：{'、'.join(h.name for h in dealt[p.seat])}）")
    game.changed_skills()


def _seat_hero(game: Game, p: Player, hero: Any, bonus: int) -> None:
    p.name, p.gender, p.kingdom = hero.name, hero.gender, hero.kingdom
    p.max_hp = p.hp = hero.hp + bonus
    p.skills = tuple(hero.skills)


def hero_names(game: Game) -> tuple[str, ...]:
    """The hero of each seat, or () for a table of blank heroes."""
    heroes = game.library.heroes
    names = tuple(p.name for p in game.players)
    return names if all(n in heroes for n in names) else ()


def run(game: Game, max_turns: int = DEFAULT_MAX_TURNS, check: bool = True) -> GameResult:
    """Turns from the lord in seat order until the game ends or the turn cap is reached; with
    `check`, the invariants at every free time and after every turn (the first violation ends
    the game and is reported)."""
    invariants = Invariants.start(game) if check else None
    if invariants is not None:
        game.on_free_time = invariants.at_free_time
    violations: list[str] = []
    error = None
    winner, reason, capped = "draw", "", False
    try:
        game.start_game()  # 遊戲開始時: setup is done, no turn has begun
        player = game.players[0]
        while True:
            if game.turns >= max_turns:
                capped, reason = True, f"達到{max_turns}回合上限，平局"
                break
            game.take_turn(player)  # with the extra turns granted in it
            if invariants is not None:
                invariants.check(free_time=True)  # between turns: a free time, fully checked
            player = game.next_alive(player)
    except InvariantBroken as broken:
        violations = broken.problems
    except GameOver as over:
        winner, reason = over.winner, over.reason
    except RulesError as problem:
        error = f"rules error: {problem}"
    except Exception:  # an engine bug: reported, counted, never a crash of the batch
        error = traceback.format_exc()
    if invariants is not None:
        game.on_free_time = None  # the game is over (and the game and its checker no longer hold each other)
        if error is None and not violations:
            violations = invariants.problems(free_time=False)  # the game ended: not a free time
    game.log(reason or (error or "").splitlines()[-1:][0] if (reason or error) else "")
    return GameResult(winner, game.turns, game.lines, game.windows_opened,
                      tuple(p.role for p in game.players), error, violations, capped, reason, dict(game.fired),
                      hero_names(game), game.budget.timed_out)


def play_game(library: Any, ruleset: str, players: int, seed: int, *, log: bool = False,
              max_turns: int = DEFAULT_MAX_TURNS, agents: list[Any] | None = None,
              game_timeout: float | None = None) -> GameResult:
    try:
        game = setup(library, ruleset, players, seed, agents, log)
    except RulesError as problem:  # text that fires on the opening hands (`on drawn`) ends the game
        return GameResult("draw", 0, [], 0, (), f"rules error: {problem}")
    except GameOver as over:  # ... or draws the deck dry before the first turn
        return GameResult(over.winner, 0, [], 0, (), reason=over.reason)
    # a ruleset's own `max_turns` caps its games (a shorter cap of the caller still wins)
    max_turns = min(max_turns, library.ruleset(ruleset).options.get("max_turns", max_turns))
    if game_timeout is not None:  # seconds of wall-clock time, checked at each action
        game.budget.limit_time(game_timeout)
    return run(game, max_turns)
