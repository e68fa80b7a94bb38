"""Agents by name, and which agent plays which seat of a game.

An :class:`AgentSpec` says it by default (``--agents NAME``), by role and by seat
(``--agent KEY=NAME``); it is resolved when the game is set up, once the roles are dealt
(:class:`SeatAgents`), so that one spec serves every game of a batch whatever seat each
role lands on. It is small and picklable: it travels to worker processes and Ray actors.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import attrs

from ..core.model import ROLE_ZH
from ..engine.decisions import Agent
from .random_agent import RandomAgent

AGENT_NAMES = ("random", "heuristic", "lookahead")
#: The agent a balance report plays every seat with unless told: the one that plays every skill
#: by what it does in the game (docs/ai.md, "Which agent to read balance from").
BALANCE_AGENT = "lookahead"


def make_agent(name: str, seed: int) -> Agent:
    """A new agent of kind ``name``, seeded: a built-in agent, or ``module:Class``, a class of
    an importable module made as ``Class(seed)`` (docs/api.md, "Agents")."""
    if ":" in name:
        return _plugged(name, seed)
    if name == "random":
        return RandomAgent(seed)
    if name == "heuristic":
        from .heuristic import HeuristicAgent  # imported only when a seat asks for it

        return HeuristicAgent(seed)
    if name == "lookahead":
        from .lookahead import LookaheadAgent

        return LookaheadAgent(seed)
    raise ValueError(f"unknown agent {name!r}; the agents are {', '.join(AGENT_NAMES)}")


class AgentLoadError(ValueError):
    """A ``module:Class`` agent that cannot be loaded or does not follow the protocol: why."""


def agent_class(name: str) -> Any:
    """The class ``module:Class`` names (the current folder is searched too, as ``python -m``
    searches it). AgentLoadError says why it cannot be had."""
    import importlib
    import os
    import sys

    module_name, _, attribute = name.partition(":")
    if not module_name or not attribute:
        raise AgentLoadError(f"'{name}' is not module:Class")
    try:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as missing:
            if missing.name != module_name.split(".")[0] or os.getcwd() in sys.path:
                raise
            sys.path.append(os.getcwd())  # a module beside the user, as `python -m` would find it
            module = importlib.import_module(module_name)
    except ImportError as error:
        raise AgentLoadError(f"cannot import module '{module_name}': {error}") from None
    except Exception as error:  # the module itself fails as it is imported
        raise AgentLoadError(f"module '{module_name}' fails as it is imported: {type(error).__name__}: {error}") from None
    found: Any = module
    for part in attribute.split("."):
        found = getattr(found, part, None)
        if found is None:
            raise AgentLoadError(f"module '{module_name}' has no '{attribute}'")
    if not callable(found) or not callable(getattr(found, "choose", None)):
        raise AgentLoadError(f"'{name}' is not an agent class: it needs a method choose(request, view) -> int")
    return found


def _plugged(name: str, seed: int) -> Agent:
    try:
        agent = agent_class(name)(seed)
    except AgentLoadError:
        raise
    except Exception as error:
        raise AgentLoadError(f"'{name}'({seed}) fails: {type(error).__name__}: {error}") from None
    return agent  # type: ignore[no-any-return]


class SpecError(ValueError):
    """A bad agent spec: what is wrong, and a hint saying what would be right."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


@attrs.frozen
class AgentSpec:
    """Which agent plays each seat: a seat's own entry first, then its role's, then ``default``."""

    default: str = "random"
    roles: tuple[tuple[str, str], ...] = ()  # (role as the mode deals it, agent name)
    seats: tuple[tuple[int, str], ...] = ()  # (seat, 0-based; agent name)

    def name_for(self, seat: int, role: str) -> str:
        return dict(self.seats).get(seat) or dict(self.roles).get(role) or self.default

    def as_json(self) -> dict[str, Any]:
        return {"all": self.default, "roles": dict(self.roles), "seats": {str(s + 1): n for s, n in self.seats}}


@attrs.define
class SeatAgents:
    """The agent factory of one game's setup: makes each seat's agent from its dealt role
    and its seed, and remembers the names, seat by seat, for the game's record."""

    spec: AgentSpec
    names: list[str] = attrs.field(factory=list)

    def __call__(self, player: Any, seed: int) -> Agent:
        name = self.spec.name_for(player.seat, player.role)
        self.names.append(name)
        return make_agent(name, seed)


def roles_dealt(mode: Any, players: int, with_heroes: bool) -> list[str]:
    """The roles the mode deals at this player count (in seat order of one dealing), '' for none."""
    return [p.role for p in mode.seats(players, random.Random(0), with_heroes)]


def _agent_name(name: str, where: str) -> str:
    if name in AGENT_NAMES:
        return name
    if ":" in name:
        try:
            agent_class(name)
        except AgentLoadError as bad:
            raise SpecError(f"{bad} (in {where})", "give module:Class of an importable module whose class is made "
                            "as Class(seed) and answers choose(request, view) -> int (docs/api.md)") from None
        return name
    raise SpecError(f"unknown agent '{name}' in {where}",
                    f"the agents are: {', '.join(AGENT_NAMES)}, or module:Class for your own (docs/api.md)")


def _role_word(key: str, roles: Sequence[str]) -> str | None:
    """The role a key names (its English word or Chinese name), or None."""
    chinese = {zh: en for en, zh in ROLE_ZH.items()}
    word = chinese.get(key, key.lower())
    return word if word in roles else None


def _key(key: str, item: str, roles: Sequence[str], players: int) -> int | str:
    """A seat (0-based) or a role word, from the KEY of ``--agent KEY=NAME``."""
    if key.isdigit():
        seat = int(key)
        if 1 <= seat <= players:
            return seat - 1
        raise SpecError(f"no seat {seat} in --agent {item}: the table has {players} seats",
                        f"seats are numbered 1 to {players}")
    role = _role_word(key, roles)
    if role is not None:
        return role
    known = sorted({r for r in roles if r})
    hint = (f"the roles at {players} players are: {', '.join(known)}; or give a seat number, 1 to {players}"
            if known else f"this mode deals no roles: give a seat number, 1 to {players}")
    raise SpecError(f"unknown role or seat '{key}' in --agent {item}", hint)


def parse_spec(default: str | None, items: Sequence[str], roles: Sequence[str]) -> AgentSpec:
    """The spec of ``--agents DEFAULT`` and ``--agent KEY=NAME ...``; ``roles`` are the roles
    dealt at the table's player count (one per seat). Raises :class:`SpecError`."""
    by_role: dict[str, str] = {}
    by_seat: dict[int, str] = {}
    for item in items:
        key, sep, name = item.partition("=")
        if not sep or not key.strip() or not name.strip():
            raise SpecError(f"--agent {item!r} is not KEY=NAME",
                            "write ROLE=NAME or SEAT=NAME, e.g. --agent lord=heuristic --agent 2=random")
        where = _key(key.strip(), item, roles, len(roles))
        table: dict[Any, str] = by_seat if isinstance(where, int) else by_role
        if where in table:
            raise SpecError(f"--agent gives {key.strip()} twice", "give each role or seat one agent")
        table[where] = _agent_name(name.strip(), f"--agent {item}")
    return AgentSpec(_agent_name(default, "--agents") if default is not None else "random",
                     tuple(sorted(by_role.items())), tuple(sorted(by_seat.items())))
