"""The expectations of a ruling, checked on the game after its runs: each returns its
failure ("" when it holds), with the actual state and the expectation's location."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ..core.model import Card, Damage
from ..engine.kernel import Game
from .model import Check, DamageRef, damage_text
from .script import label_of

# What `seat N STATE;` can name, as the engine keeps it (and the grammar's STATE lists).
STATES: dict[str, Callable[[Any], bool]] = {"chained": lambda p: p.chained,
                                            "turned": lambda p: p.turned}  # 翻面


def check_all(game: Game, checks: tuple[Check, ...], winner: str) -> list[str]:
    """Every expectation's failure, in the order written; the damage log is one check."""
    failures = [_check(game, c, winner) for c in checks if c.kind not in ("damage", "damage_set", "no_damage")]
    damage = [c for c in checks if c.kind in ("damage", "damage_set", "no_damage")]
    if damage:
        failures.extend(check_damage_log(game.damage_log, damage))
    return [f for f in failures if f]


def _where(check: Check) -> str:
    return f"(expectation at {check.span})"


def _names(cards: list[Card]) -> list[str]:
    return [c.label() for c in cards]


def _check(game: Game, check: Check, winner: str) -> str:
    player = game.players[check.seat - 1] if check.seat else None
    kind = check.kind
    if kind in ("hand", "equip", "judge", "discard"):
        return _zone(game, check, player)
    if kind == "pile":  # a pile's cards, in the order they were put there
        name, refs = check.value
        have, want = _names(player.piles.get(name, [])), [label_of(r) for r in refs]
        return "" if have == want else (f"seat {check.seat} pile {name} is [{', '.join(have)}], "
                                        f"expected [{', '.join(want)}] {_where(check)}")
    if kind == "deck":
        want = [label_of(r) for r in check.value]
        top = _names(list(reversed(game.deck))[:len(want)])
        return f"the deck top is [{', '.join(top)}], expected [{', '.join(want)}] {_where(check)}" if top != want else ""
    actual, expected, what = _observed(game, check, player, winner)
    if actual == expected:
        return ""
    return f"{what} is {_shown(actual)}, expected {_shown(expected)} {_where(check)}"


def _observed(game: Game, check: Check, player: Any, winner: str) -> tuple[Any, Any, str]:
    """(actual, expected, what is compared) for the checks that compare one value."""
    kind, seat, value = check.kind, check.seat, check.value
    if kind == "hp":
        return player.hp, value, f"seat {seat} hp"
    if kind == "max_hp":
        return player.max_hp, value, f"seat {seat} max hp"
    if kind == "life":
        return ("alive" if player.alive else "dead"), value, f"seat {seat}"
    if kind == "state":
        state = STATES[value](player)
        return _state_word(value, state), _state_word(value, not check.negated), f"seat {seat}"
    if kind == "skills":
        have = [s.name for s in player.skills if game.mode.has_skill(player, s)]
        return sorted(have), sorted(value), f"seat {seat} skills"
    if kind == "won":
        won = bool(winner) and winner != "none" and game.mode.seat_won(game, player, winner)
        sides = {True: "on the winning side", False: "not on the winning side"}
        return sides[won], sides[bool(value)], f"seat {seat} (winner {winner or 'none'})"
    if kind == "gender":
        return player.gender or "none", value or "none", f"seat {seat} gender"
    if kind == "kingdom":
        return player.kingdom or "none", value or "none", f"seat {seat} kingdom"
    if kind == "shown":
        shown = getattr(game.mode, "generals", {}).get(player.seat)
        face_up = tuple(shown.shown) if shown is not None else (False, False)
        word = {(False, False): "none", (True, False): "head", (False, True): "deputy", (True, True): "both"}[face_up]
        return word, value, f"seat {seat} shown"
    if kind == "mark":
        name, count = value
        return player.marks.get(name, 0), count, f"seat {seat} mark {name}"
    if kind == "deck_size":
        return len(game.deck), value, "the deck size"
    if kind == "discard_size":
        return len(game.discard_pile), value, "the discard pile size"
    if kind == "skipped":
        skipped = any(p is player and phase == value for p, phase in game.skipped_log)
        return _skip_word(value, skipped), _skip_word(value, not check.negated), f"seat {seat}"
    if kind == "fired":
        return _fired(game, check)
    if kind in ("turns", "phases", "fight"):
        return _turns_observed(game, check, player)
    return winner, value, "the winner"


# turns played, phases run, point fights
def _turns_observed(game: Game, check: Check, player: Any) -> tuple[Any, Any, str]:
    if check.kind == "turns":
        return sum(p is player for p in game.turn_log), check.value, f"seat {check.seat} turns played"
    if check.kind == "phases":
        phase, times = check.value
        run = sum(p is player and ph == phase for p, ph in game.phase_log)
        return run, times, f"seat {check.seat} {phase} phases run"
    other, want = check.value
    fights = [f for f in game.fight_log if f.source is player and f.target.seat + 1 == other]
    what = f"the last fight of seat {check.seat} with seat {other}"
    if not fights:
        return "never fought", want, what
    last = fights[-1]
    return ("tied" if last.tie else "won" if last.won else "lost"), want, what


def _state_word(state: str, holds: bool) -> str:
    return state if holds else f"not {state}"


def _skip_word(phase: str, skipped: bool) -> str:
    return f"{'' if skipped else 'not '}skipped in its {phase} phase"


def _fired(game: Game, check: Check) -> tuple[Any, Any, str]:
    skill, times = check.value
    fired = game.fired.get(skill, 0)
    what = f"{skill} fired"
    if check.negated:
        return f"{fired} time(s)" if fired else "never", "never", what
    if times is None:
        return ("at least once" if fired else "never"), "at least once", what
    return f"{fired} time(s)", f"{times} time(s)", what


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def _zone(game: Game, check: Check, player: Any) -> str:
    actual = {"hand": lambda: player.hand, "equip": lambda: list(player.equips.values()),
              "judge": lambda: player.judge, "discard": lambda: game.discard_pile}[check.kind]()
    want = [label_of(r) for r in check.value]
    ordered = check.kind == "judge"
    same = _names(actual) == want if ordered else Counter(_names(actual)) == Counter(want)
    if same:
        return ""
    whose = f"seat {check.seat} {check.kind}" if player else "the discard pile"
    return f"{whose} is [{', '.join(_names(actual))}], expected [{', '.join(want)}] {_where(check)}"


# ---------------------------------------------------------------- the damage log

def logged(d: Damage) -> str:
    card = d.card.kind.name if d.card is not None else None
    return damage_text(d.source.seat + 1 if d.source else None, d.target.seat + 1, d.amount, d.nature, card)


def _same(d: Damage, ref: DamageRef) -> bool:
    card_ok = (d.card is None) if ref.card is None else (
        d.card is not None and ref.card in (d.card.kind.name, d.card.kind.rule_name))
    source = d.source.seat + 1 if d.source is not None else None
    return (source, d.target.seat + 1, d.amount, d.nature) == (ref.source, ref.target, ref.amount, ref.nature) and card_ok


def check_damage_log(log: list[Damage], checks: list[Check]) -> list[str]:
    """The damage lines of a ruling state the whole log: `damage` lines in order, a
    `damages in any order` group as a set at its place, `no damage` an empty log."""
    shown = "[" + "; ".join(logged(d) for d in log) + "]" if log else "empty"
    if checks[0].kind == "no_damage":
        return [f"the damage log is {shown}, expected no damage {_where(checks[0])}"] if log else []
    failures: list[str] = []
    at = 0
    for check in checks:
        group = list(check.value) if check.kind == "damage_set" else [check.value]
        dealt = log[at:at + len(group)]
        for ref in _unmatched(dealt, group, ordered=check.kind == "damage"):
            failures.append(f"{_entries(at, group, dealt, ref)}, expected {ref.text()} (expectation at {ref.span})")
        at += len(group)
    for i, d in enumerate(log[at:], at + 1):
        failures.append(f"damage {i} of the log, {logged(d)}, is not stated (the log: {shown}; "
                        f"expectations end at {checks[-1].span})")
    return failures


def _entries(at: int, group: list[DamageRef], dealt: list[Damage], ref: DamageRef) -> str:
    """What the log holds where `ref` was expected."""
    if len(group) == 1:
        return f"damage {at + 1} of the log is {logged(dealt[0]) if dealt else 'missing'}"
    held = "; ".join(logged(d) for d in dealt) or "nothing"
    return f"damages {at + 1} to {at + len(group)} of the log are [{held}], none of them"


def _unmatched(dealt: list[Damage], group: list[DamageRef], ordered: bool) -> list[DamageRef]:
    if ordered:
        return [ref for i, ref in enumerate(group) if i >= len(dealt) or not _same(dealt[i], ref)]
    rest = list(dealt)
    missing = []
    for ref in group:
        match = next((d for d in rest if _same(d, ref)), None)
        if match is None:
            missing.append(ref)
        else:
            rest.remove(match)
    return missing
