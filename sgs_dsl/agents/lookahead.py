"""A player that looks ahead: it values an option by what it does in the game, played forward
on copies of the game the seat cannot tell from the real one (docs/ai.md, "The lookahead agent").

At a question worth it it takes a few candidates: at an optional skill whose text's profile
cannot settle its worth, both answers; in a play phase that offers a skill's action, the
heuristic agent's pick and each action; at a close call (a play or target question where the
heuristic scores another option within `margin` of its pick), those options. For each of a
few worlds (engine/knowledge.py: the cards and roles it cannot see dealt again) it branches
the game at the start of this turn, replays what was answered since, answers the candidate,
plays the turn out with heuristic players on every seat, and scores the table by its side
(`evaluate`). Each candidate meets the same worlds (common random numbers), so the comparison
is of the options, not of the luck. Every other question is the heuristic agent's. It knows no
card, hero or skill by name; its budgets are counts (`Settings`), so the same seed plays the
same game; a time budget can be added (`ms`), at the cost of that."""

from __future__ import annotations

import random
import time
from typing import Any

import attrs

from ..core.model import Card, GameOver, RulesError
from ..engine.decisions import Request
from ..engine.describe import describe
from ..engine.forking import play_turns, replayed_all
from .heuristic import HeuristicAgent

WIN = 100.0  # the score of a world the seat's side won (minus: lost)


@attrs.frozen
class Settings:
    """What the agent looks ahead at and how far: budgets in counts, so that the same seed
    plays the same game (docs/ai.md, "The lookahead agent", has the figures behind them)."""

    worlds: int = 1  # worlds dealt per question, every candidate played in each, and one more for
    hidden_per_world: int = 5  # every so many seats whose side the seat cannot see (8 players: 2 worlds)
    candidates: int = 3  # options compared per question, at most
    turns: int = 1  # turns played forward: the rest of this one
    per_turn: int = 6  # questions looked ahead at in one turn, at most
    margin: float | None = 1.5  # a play or target question whose runner-up the heuristic scores within
    # this of its pick is a close call (None: none is)
    pivotal: float = 3.0  # the weight of what a player has whose death ends its side's game (Mode.pivotal)
    ms: float | None = None  # a time budget per question, at the cost of determinism


class LookaheadAgent:
    looks_ahead = True  # setup keeps the forward model for it (engine/forking.py)

    def __init__(self, seed: int, settings: Settings = Settings()) -> None:
        self.heuristic = HeuristicAgent(seed)
        self.rng = random.Random(seed ^ 0x10CA7E)
        self.settings = settings
        self._looks: dict[int, int] = {}  # questions looked ahead at this turn (by turn number)
        self.looked = 0  # questions looked ahead at, rollouts played, and those that went their own way
        self.rollouts = 0
        self.diverged = 0

    def choose(self, request: Request, view: Any) -> int:
        pick = self.heuristic.choose(request, view)
        if len(request.options) < 2 or not view.looks_forward:
            return pick
        candidates = self._candidates(request, view, pick)
        if len(candidates) < 2:
            return pick
        return self._best(request, view, candidates, pick)

    def _candidates(self, request: Request, view: Any, pick: int) -> list[int]:
        """The options worth playing forward, at most `candidates` of them and `per_turn`
        questions a turn: at an optional skill's question whose worth the text's profile cannot
        settle (it costs its owner, or the heuristic would decline it), both answers; in the
        play phase, the heuristic's pick and each action of a skill; else none."""
        if self._looks.get(view.turn, 0) >= self.settings.per_turn:
            return []
        if request.kind == "invoke":
            costly = self.heuristic.asking_profile(request, view).user < 0
            declined = describe(request.options[pick].value).action != "yes"
            found = list(range(len(request.options))) if costly or declined else []
        elif request.kind == "play":
            if describe(request.options[pick].value).equip:  # into an empty slot: played whatever comes next
                return []
            skills = [i for i, o in enumerate(request.options)
                      if isinstance(o.value, tuple) and o.value[0] in ("active", "attach") and i != pick]
            found = [pick, *skills] if skills else self._close_calls(request, pick)
        elif request.kind == "target":
            found = self._close_calls(request, pick)
        else:
            found = []
        found = _unlike(request, found)
        if len(found) > 1:
            self._looks = {view.turn: self._looks.get(view.turn, 0) + 1}
        return found[: self.settings.candidates]

    def _close_calls(self, request: Request, pick: int) -> list[int]:
        """The pick and the options the heuristic scored within `margin` of it, best first
        (not a piece of equipment that would replace one: a wash the heuristic declines)."""
        scores, margin = self.heuristic.last_scores, self.settings.margin
        if margin is None or not scores:
            return []
        near = sorted((i for i, s in enumerate(scores) if i != pick and scores[pick] - s <= margin
                       and not describe(request.options[i].value).equip), key=lambda i: -scores[i])
        return [pick, *near] if near else []

    def _best(self, request: Request, view: Any, candidates: list[int], pick: int) -> int:
        self.looked += 1
        ms = self.settings.ms
        deadline = None if ms is None else time.perf_counter() + ms / 1000
        pinned = view.known_cards()
        belief = self.heuristic.relation(view)  # who seems an ally: the worlds deal roles by it
        totals = {i: [0.0, 0] for i in candidates}
        hidden = sum(1 for side in view.sides() if side is None)
        for _ in range(self.settings.worlds + hidden // self.settings.hidden_per_world):
            world = self.rng.getrandbits(64)
            for i in candidates:
                value = self._rollout(request, view, i, world, pinned, belief)
                if value is not None:
                    totals[i][0] += value
                    totals[i][1] += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        means = {i: s / n for i, (s, n) in totals.items() if n}
        if len(means) < 2:
            return pick
        best = max(means.values())
        return pick if means.get(pick) == best else min(i for i, m in means.items() if m == best)

    def _rollout(self, request: Request, view: Any, index: int, world: int, pinned: frozenset[int],
                 belief: tuple[float, ...]) -> float | None:
        """The candidate played forward in one world: its score, or None when the copy did not
        reach this question (a world dealt again need not offer what was answered before)."""
        ties = random.Random(world)  # one generator breaks every rollout player's ties: seeded once
        agents = [HeuristicAgent(0, ties) for _ in range(len(view.sides()))]
        copy, player = view.branch((index, request.options[index].label), random.Random(world ^ 1), agents, pinned,
                                   belief)
        self.rollouts += 1
        over = play_forward(copy, player, self.settings.turns)
        if not replayed_all(copy):
            self.diverged += 1
            return None
        return evaluate(copy, view.seat, over, self.settings.pivotal)


def _unlike(request: Request, found: list[int]) -> list[int]:
    """The candidates less those alike an earlier one (the same card kind, colours and
    facts: two red 殺 of a hand differ only in what no rule reads here)."""
    seen: set[Any] = set()
    out = []
    for i in found:
        value = request.options[i].value
        cards = value[1] if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], (list, tuple)) else ()
        key = (describe(value), tuple(c.color for c in cards if isinstance(c, Card)))
        if key not in seen:
            seen.add(key)
            out.append(i)
    return out


def play_forward(game: Any, player: Any, turns: int) -> GameOver | None:
    """`turns` turns from the start of `player`'s (a branch replays its answers first); the
    game's end if it ended."""
    try:
        play_turns(game, player, turns)
    except GameOver as over:
        return over
    except RulesError:  # a text's runaway in a world dealt again: scored as it stands
        return None
    return None


def won(mode: Any, winner: str, side: str) -> bool:
    """Did `side` win when the game names `winner` (the lord's camp wins as "lord")?"""
    return winner == side or mode.allied(side, winner)


def worth(p: Any) -> float:
    """What a player has, in rough hp-and-cards units: alive, its hp, its cards."""
    if not p.alive:
        return 0.0
    return 3.0 + 1.5 * p.hp + 0.8 * len(p.hand) + 0.8 * len(p.equips) - 0.6 * len(p.judge)


def evaluate(game: Any, seat: int, over: GameOver | None, pivotal: float = 1.0) -> float:
    """The table as good for `seat`'s side: the game's end, else its camp's worth minus the
    others', a pivotal player's (Mode.pivotal) weighed `pivotal` times."""
    mode = game.mode
    me = game.players[seat]
    mine = mode.side(game, me)
    if over is not None:
        return WIN if won(mode, over.winner, mine) else -WIN
    return sum((1.0 if p is me or mode.allied(mine, mode.side(game, p)) else -1.0) * worth(p)
               * (pivotal if mode.pivotal(p) else 1.0) for p in game.players)
