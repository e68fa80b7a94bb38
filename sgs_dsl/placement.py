"""Heroes put on seats on purpose: `--hero SEAT=NAME` (that seat gets that hero in every game)
and `--feature NAME` (the hero is in every game of a batch, on a seat that turns game by game).

A :class:`HeroPlacement` is parsed and checked once against the table (the ruleset's hero
pool, the seat count); game ``i`` of a batch then asks it which hero sits where
(:meth:`HeroPlacement.for_game`), a function of the game index alone, so that every backend
plays the same games. The mode seats them (`Mode.choose_heroes`, its `placed` argument). It is
small and picklable: it travels to worker processes and Ray actors."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from .core.names import ambiguity, split
from .syntax.diagnostics import did_you_mean
from .syntax.names import normalize


class PlacementError(ValueError):
    """A bad --hero or --feature: what is wrong, the option at fault, and a hint."""

    def __init__(self, message: str, hint: str, option: str = "--hero") -> None:
        super().__init__(message)
        self.hint = hint
        self.option = option


@attrs.frozen
class HeroPlacement:
    """The heroes placed at a table: `fixed` seats (0-based) each with its hero in every game,
    and a `featured` hero, in every game on a seat the fixed ones leave free, in turn."""

    fixed: tuple[tuple[int, str], ...] = ()
    featured: str | None = None

    def featured_seat(self, index: int, players: int) -> int | None:
        """The seat (0-based) of the featured hero in game `index`: the free seats in turn, so
        that game i sits it at seat i mod players when no seat is fixed; None without one."""
        if self.featured is None:
            return None
        taken = dict(self.fixed)
        free = [s for s in range(players) if s not in taken]
        return free[index % len(free)]

    def for_game(self, index: int, players: int) -> dict[int, str]:
        """Seat (0-based) -> hero of game `index` (the mode's `Placed`); {} for no placement."""
        seats = dict(self.fixed)
        seat = self.featured_seat(index, players)
        if seat is not None and self.featured is not None:
            seats[seat] = self.featured
        return seats

    def as_json(self) -> dict[str, Any]:
        return {"heroes": {str(s + 1): name for s, name in self.fixed}, "featured": self.featured}


#: Why the mode cannot place a hero of its pool on a seat ("" when it can): `Mode.placement_problem`.
Problem = Callable[[str], str]


def _no_problem(name: str) -> str:
    return ""


def parse_placement(items: Sequence[str], featured: str | None, pool: Sequence[Any], players: int,
                    ruleset: str, library_heroes: Sequence[Any] = (), problem: Problem = _no_problem) -> HeroPlacement:
    """The placement of ``--hero SEAT=NAME ...`` and ``--feature NAME`` at a table of `players`
    seats dealing the heroes of `pool` (the mode's `hero_pool`: heroes, or 國戰's generals). A
    name is found in either script, or by its pinyin id. `library_heroes`, every hero of the
    library, tells a hero of another package from a name that is nowhere; `problem`, the mode's
    objection to placing a hero (國戰: a general alone of its kingdom). Raises
    :class:`PlacementError`."""
    if not items and featured is None:
        return HeroPlacement()
    if not pool:
        option = "--hero" if items else "--feature"
        raise PlacementError(f"ruleset '{ruleset}' deals no heroes, so {option} has no hero to place",
                             "choose a ruleset with heroes (`sgs rulesets`; `sgs heroes --ruleset NAME` lists them)",
                             option)
    fixed: dict[int, str] = {}
    for item in items:
        seat, name = _seat_and_hero(item, pool, players, ruleset, library_heroes)
        _check(problem, name, "--hero")
        if seat in fixed:
            raise PlacementError(f"--hero gives seat {seat + 1} twice ({fixed[seat]} and {name})",
                                 "give each seat one hero")
        if name in fixed.values():
            first = next(s for s, n in fixed.items() if n == name)
            raise PlacementError(f"--hero places {name} on seats {first + 1} and {seat + 1}",
                                 "a hero sits at one seat only: place it once")
        fixed[seat] = name
    hero = _featured(featured, fixed, pool, players, ruleset, library_heroes)
    if hero is not None:
        _check(problem, hero, "--feature")
    return HeroPlacement(tuple(sorted(fixed.items())), hero)


def _check(problem: Problem, name: str, option: str) -> None:
    why = problem(name)
    if why:
        raise PlacementError(f"{option} {name}: {why}", "place another hero, or add heroes to the ruleset", option)


def _featured(name: str | None, fixed: dict[int, str], pool: Sequence[Any], players: int, ruleset: str,
              library_heroes: Sequence[Any]) -> str | None:
    if name is None:
        return None
    hero = find_hero(name, pool, ruleset, library_heroes, "--feature")
    if hero in fixed.values():
        seat = next(s for s, n in fixed.items() if n == hero)
        raise PlacementError(f"--feature {hero} is also placed by --hero {seat + 1}={hero}",
                             "drop one: --hero keeps it on one seat, --feature moves it seat by seat", "--feature")
    if len(fixed) >= players:
        raise PlacementError(f"--feature {hero} has no seat: --hero fills all {players} seats",
                             "leave at least one seat to the featured hero", "--feature")
    return hero


def _seat_and_hero(item: str, pool: Sequence[Any], players: int, ruleset: str,
                   library_heroes: Sequence[Any]) -> tuple[int, str]:
    """(seat, 0-based; hero name) of one `--hero SEAT=NAME`."""
    key, sep, name = item.partition("=")
    key, name = key.strip(), name.strip()
    if not sep or not key or not name:
        raise PlacementError(f"--hero {item!r} is not SEAT=NAME",
                             "write a seat number (1-based) and a hero's name, e.g. --hero 3=NAME (`sgs heroes` lists them)")
    if not key.isdigit() or not 1 <= int(key) <= players:
        raise PlacementError(f"no seat '{key}' in --hero {item}: the table has {players} seats",
                             f"seats are numbered 1 to {players}")
    return int(key) - 1, find_hero(name, pool, ruleset, library_heroes, "--hero")


def find_hero(name: str, pool: Sequence[Any], ruleset: str, library_heroes: Sequence[Any] = (),
              option: str = "--hero") -> str:
    """The key of the pool's hero called `name` (either script, or its pinyin id; with its
    package, `standard.貂蟬`, where two packages print the name: core/names.py)."""
    package, bare = split(name)
    key = normalize(bare)

    def called(h: Any) -> bool:
        return (normalize(h.name) == key or h.id == bare.lower()) and (not package or h.package == package)

    found = [h for h in pool if called(h)]
    if len(found) > 1:
        message, hint = ambiguity(name, found)
        raise PlacementError(f"{message} ({option})", hint, option)
    if found:
        return str(found[0].key)
    elsewhere = [h for h in library_heroes if called(h)]
    if elsewhere:
        other = elsewhere[0]
        packages = ", ".join(sorted({str(h.package) for h in pool}))
        same = f"; did you mean its own {other.name}?" if any(h.name == other.name for h in pool) else ""
        raise PlacementError(f"'{name}' is {other.name} of the package '{other.package}', which ruleset "
                             f"'{ruleset}' does not deal ({option})",
                             f"the ruleset deals the heroes of: {packages}{same}", option)
    near = did_you_mean(name, [h.name for h in pool]) or did_you_mean(name, [h.id for h in pool])
    raise PlacementError(f"no hero named '{name}' in ruleset '{ruleset}' ({option})",
                         (f"{near} " if near else "") + f"`sgs heroes --ruleset {ruleset}` lists its heroes", option)
