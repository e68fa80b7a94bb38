"""A PettingZoo AEC environment over the decision protocol (docs/rl.md). One agent per seat
(`seat_1` ... `seat_N`); the agent to act is the seat the engine asks next, in the game's own
order, out-of-turn answers (a 閃, a 無懈可擊, a rescue) included. An action is the index of one
of the question's options (engine order; `action_mask` marks them). Rewards come at the end,
by the mode's outcome: +1 for each seat on the winning side, -1 for the others, 0 to all in a
draw; a game cut off at its turn cap is truncated."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from ..agents.registry import make_agent
from ..core.modes import MODE_SPECS
from ..stepping import SteppedGame
from .encoding import MAX_OPTIONS, Encoding, action_mask

OBS_HIGH = 1e6


class SgsEnv(AECEnv):  # type: ignore[misc]
    metadata = {"render_modes": ["ansi"], "name": "sgs_v0", "is_parallelizable": False}

    def __init__(self, ruleset: str = "standard", players: int = 5, seed: int | None = None, library: Any = None,
                 max_turns: int = 200, render_mode: str | None = None) -> None:
        super().__init__()
        if library is None:
            from ..compiler.library import load_library

            library = load_library()
        if ruleset not in library.rulesets:
            raise ValueError(f"unknown ruleset {ruleset!r}; the rulesets are {', '.join(sorted(library.rulesets))}")
        from ..modes import make_mode

        make_mode(library.rulesets[ruleset]).check_players(players)
        self.library, self.ruleset, self.players = library, ruleset, players
        self.max_turns, self.render_mode = max_turns, render_mode
        self.encoding = Encoding.of(library, ruleset)
        self.possible_agents = [f"seat_{i + 1}" for i in range(players)]
        self._seed = seed if seed is not None else 0
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(-OBS_HIGH, OBS_HIGH, (self.encoding.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (MAX_OPTIONS,), np.int8)})
        self._action_space = spaces.Discrete(MAX_OPTIONS)
        self._game: SteppedGame | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    # ------------------------------------------------------------ the AEC protocol
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed = seed
        self._close_game()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._game = SteppedGame(self.library, self.ruleset, self.players, self._seed, range(self.players),
                                 lambda player, seed: make_agent("random", seed), self.max_turns)
        self._seed += 1  # the next reset without a seed plays another game
        self._follow()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        game = self._game
        if game is None or game.game is None:
            return {"observation": np.zeros(self.encoding.size, np.float32),
                    "action_mask": np.zeros(MAX_OPTIONS, np.int8)}
        question = game.question if game.question is not None and game.question.seat == seat else None
        return {"observation": self.encoding.observe(game.view(seat), question), "action_mask": action_mask(question)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game
        assert game is not None and game.question is not None
        if action is None or not 0 <= int(action) < min(len(game.question.options), MAX_OPTIONS):
            raise ValueError(f"{action!r} is not an option of the question (see the action_mask)")
        self._cumulative_rewards[agent] = 0.0
        game.answer(int(action))
        self._follow()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._game is None or self._game.game is None:
            return None
        return "\n".join(self._game.game.lines[-20:])

    def close(self) -> None:
        self._close_game()

    # ------------------------------------------------------------ the game
    def _follow(self) -> None:
        """After an answer: the seat asked next acts, or the game is over and the rewards are given."""
        game = self._game
        assert game is not None
        self._clear_rewards()
        if game.question is not None:
            self.agent_selection = self.possible_agents[game.question.seat]
            return
        result = game.result
        if result is None or result.error or result.capped:  # cut off: no side won
            self.truncations = dict.fromkeys(self.agents, True)
            why = "capped" if result is not None and result.capped else (result.error if result else str(game.error))
            for agent in self.agents:
                self.infos[agent] = {"truncated": why}
        else:
            mode = MODE_SPECS[self.library.rulesets[self.ruleset].mode]
            for i, agent in enumerate(self.agents):
                side = result.roles[i] if i < len(result.roles) else ""
                won = mode.seat_won(side, result.winner)
                self.rewards[agent] = 0.0 if result.winner == "draw" else (1.0 if won else -1.0)
                self.infos[agent] = {"winner": result.winner, "side": side, "turns": result.turns}
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self.agents[0]
        self._deads_step_first()

    def _close_game(self) -> None:
        if self._game is not None:
            self._game.close()
            self._game = None
