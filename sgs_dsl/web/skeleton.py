"""A moment of a replayed game as a ruling skeleton (docs/rulings.md): the table as it stood
when the moment's turn began, every card where it lay (the whole draw pile in order, so the
ruling draws the same cards), and the answers given since then up to the moment, for a judge
to copy and finish with expectations. Built from the whole game (a judge's tool, not a seat's
view); what a ruling cannot write (skills already spent, remembered values) is named in
comments."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import attrs

from ..core.model import RANK_FACE, SUIT_ZH, Card, Player
from ..engine.kernel import Game
from ..syntax.names import normalize
from .replay import Replay, Step, Watch

NAME = re.compile(r"[^\W\d]\w*(?:·\w+)*(?:\.[^\W\d]\w*(?:·\w+)*)?")  # grammar/ruling.lark's NAME
CARDS_A_LINE = 10
FEW_CARDS = 20  # a deck this short may run out within the turn
SHOWN = {(False, False): "none", (True, False): "head", (False, True): "deputy", (True, True): "both"}


@attrs.frozen
class TurnTable:
    """What the skeleton reads of the game as a turn begins."""

    ruleset: str
    seat: int  # 1-based: whose turn
    entries: tuple[str, ...]  # the ruling's table entries (seats, deck, discard)
    notes: tuple[str, ...]  # state the ruling cannot write


def skeleton_at(replay: Replay, step: int) -> str:
    """The ruling text of `step` (clamped): the table at the start of its turn, the answers
    given since then, before the step itself."""
    if not replay.turn_starts:
        raise ValueError("no turn began in this game: there is no turn to make a ruling of")
    step = max(0, min(step, len(replay.steps) - 1))
    start = max([s for s in replay.turn_starts if s <= step], default=replay.turn_starts[0])
    table, about = _table_at(replay, start)
    source = f"{about or table.ruleset}, step {step}"
    lines = [f'ruling "{source}" {{', f'  source "{source}";', f"  ruleset {table.ruleset};"]
    lines += [f"  # {note}" for note in table.notes]
    lines += [f"  {entry}" for entry in table.entries]
    lines.append(f"  turn {table.seat};")
    lines += _script(replay.steps, start, step)
    lines += ["  expect {", "    # write what must hold once the turn is played", "  }", "}"]
    return "\n".join(lines) + "\n"


def _table_at(replay: Replay, start: int) -> tuple[TurnTable, str]:
    """The table at step `start` (a turn's first line), and what the game is (its watch's `about`)."""
    watch = Watch(replay=replay.answers if replay.replays_answers else None, until=start)
    watch.at_stop = lambda game: turn_table(game, watch.extra)
    replay.play(watch)
    if watch.stopped is None:
        raise RuntimeError(f"the game no longer reaches step {start}: it is not the game recorded")
    return watch.stopped, watch.about


def turn_table(game: Game, extra: bool = False) -> TurnTable:
    """The table as the current turn begins, as ruling entries (`extra`: an extra turn)."""
    notes = ["an extra turn, which the ruling plays as a regular one"] if extra else []
    generals = getattr(game.mode, "generals", None)  # 國戰: each seat's two generals
    entries = [_seat(game, p, generals, notes) for p in game.players]
    entries += _cards_entry("deck", list(reversed(game.deck)))  # the top of the deck last in the list
    entries += _cards_entry("discard", game.discard_pile)
    notes += _left_out(game) + _table_notes(game)
    ruleset = game.mode.ruleset.name if game.mode.ruleset is not None else ""
    return TurnTable(ruleset, game.current.seat + 1, tuple(entries), tuple(notes))


def _table_notes(game: Game) -> list[str]:
    """What the table keeps apart from its seats that a ruling cannot write."""
    notes = []
    if game.table != game.players:  # 交換位置: a ruling seats the players in seat order
        order = ", ".join(str(p.seat + 1) for p in game.table)
        notes.append(f"the seats sit in the order {order}, which a ruling cannot write: it seats them in seat order")
    notes += [f"seat {seat + 1} holds {count} yin-yang fish token(s), which a ruling cannot write"
              for seat, count in getattr(game.mode, "fish", {}).items() if count]
    return notes


# ------------------------------------------------------------ seats
def _seat(game: Game, p: Player, generals: dict[int, Any] | None, notes: list[str]) -> str:
    n = p.seat + 1
    words = [f"seat {n}"]
    if generals is not None and p.seat in generals:
        words += _generals(generals[p.seat], p, n, notes)
    else:
        words += [p.role] if p.role else []
        words += _hero(game, p, n, notes)
    if not p.alive:
        return " ".join([*words, "dead"]) + ";"
    words.append(f"hp {max(p.hp, 1)}/{p.max_hp}")
    if p.hp <= 0:  # kept out of dying by a skill's text
        notes.append(f"seat {n} is alive at {p.hp} hp, which a ruling cannot set up: written as 1")
    words += _zones(game, p, n, notes)
    words += [state for state, on in (("chained", p.chained), ("turned", p.turned)) if on]
    words += _marks(p, n, notes)
    words += [f"spent {key}" for key in sorted(p.spent) if _limited(game, key)]
    notes += _unwritable(game, p, n)
    return " ".join(words) + ";"


def _limited(game: Game, key: str) -> bool:
    """A limited skill (限定技): a ruling writes it used (`spent`); a wake skill it cannot."""
    skill = game.library.skills.get(key)
    return skill is not None and "limited" in skill.tags


def _hero(game: Game, p: Player, n: int, notes: list[str]) -> list[str]:
    hero = game.library.heroes.get(p.hero_key) if p.hero_key else None
    if hero is None:
        return [p.gender] if p.gender in ("male", "female") else []
    if {s.key for s in p.skills} != {s.key for s in hero.skills}:
        notes.append(f"seat {n} has skills {_keys(p.skills)}, its hero's are {_keys(hero.skills)}: "
                     "a ruling seats the hero's")
    if p.kingdom and p.kingdom != hero.kingdom:
        notes.append(f"seat {n}'s kingdom is {p.kingdom}, its hero's {hero.kingdom}: a ruling seats the hero's")
    if p.gender != hero.gender:
        notes.append(f"seat {n}'s gender is {p.gender}, its hero's {hero.gender}: a ruling seats the hero's")
    return [f"hero {hero.key}"]


def _generals(seat: Any, p: Player, n: int, notes: list[str]) -> list[str]:
    """國戰: the head and deputy, which are face up, and a careerist (the kingdom it showed into)."""
    head, deputy = seat.cards
    words = ["generals", head.key, deputy.key, "shown", SHOWN[tuple(seat.shown)]]
    if p.kingdom == "careerist" and any(seat.shown):
        words.append("careerist")
    elif any(seat.shown) and p.kingdom != (head if seat.shown[0] else deputy).kingdom:  # a kingdom text set
        notes.append(f"seat {n}'s kingdom is {p.kingdom or 'none'}, not its shown general's, which a ruling cannot write")
    if any(seat.removed) or any(seat.silenced):
        notes.append(f"seat {n} has a general removed or silenced, which a ruling cannot write")
    if seat.paired and not all(seat.shown):
        notes.append(f"seat {n}'s generals were both face up once (rewarded), which a ruling cannot write")
    return words


def _zones(game: Game, p: Player, n: int, notes: list[str]) -> list[str]:
    words = [f"{zone} [{_cards(cards)}]" for zone, cards in (("hand", p.hand), ("equip", list(p.equips.values())))
             if cards]
    if p.judge:  # a card placed as another trick lies there `as` it
        words.append("judge [" + ", ".join(card_text(c) + (f" as {game.judge_as[c.uid].key}"
                                                          if c.uid in game.judge_as else "") for c in p.judge) + "]")
    words += [f"pile {name} [{_cards(cards)}]" for name, cards in p.piles.items() if cards]
    return words


def _marks(p: Player, n: int, notes: list[str]) -> list[str]:
    words = []
    for name, value in p.marks.items():
        if not value:
            continue
        if value < 0 or not NAME.fullmatch(name):
            notes.append(f"seat {n} has mark {name} {value}, which a ruling cannot write")
        else:
            words.append(f"mark {name} {value}")
    return words


def _unwritable(game: Game, p: Player, n: int) -> list[str]:
    """What a seat keeps that no ruling entry sets: the judge is told, the ruling plays without it."""
    notes = []
    woken = [key for key in p.spent if not _limited(game, key)]
    if woken:
        notes.append(f"seat {n} has already woken {_keys(woken)} (wake skills), "
                     "which a ruling cannot write: they are not woken here")
    if p.memory:
        notes.append(f"seat {n}'s skills remember {', '.join(sorted(map(str, p.memory)))}, "
                     "which a ruling cannot write")
    if p.turn_skips:
        notes.append(f"seat {n} is to skip {p.turn_skips} turn(s), which a ruling cannot write")
    if p.skills_off:
        notes.append(f"seat {n}'s hero skills are out of effect, which a ruling cannot write")
    return notes


def _keys(skills: Iterable[Any]) -> str:
    return "[" + ", ".join(sorted(getattr(s, "key", str(s)) for s in skills)) + "]"


# ------------------------------------------------------------ cards
def card_text(card: Card) -> str:
    """A card as a ruling names it: its (qualified where two editions print it) name and face."""
    return f"{card.kind.key} {SUIT_ZH[card.suit]}{RANK_FACE.get(card.rank, str(card.rank))}"


def _cards(cards: Iterable[Card]) -> str:
    return ", ".join(card_text(c) for c in cards)


def _cards_entry(keyword: str, cards: list[Card]) -> list[str]:
    """`deck [...]` or `discard [...]`, a few cards a line; nothing for none."""
    if not cards:
        return []
    rows = [_cards(cards[i:i + CARDS_A_LINE]) for i in range(0, len(cards), CARDS_A_LINE)]
    if len(rows) == 1:
        return [f"{keyword} [{rows[0]}];"]
    return [f"{keyword} [", *[f"  {row}," for row in rows[:-1]], f"  {rows[-1]}", "];"]


def _left_out(game: Game) -> list[str]:
    """Cards in no zone a ruling writes (out of the game, or resolving): the ruling puts them
    under the deck; and a deck the turn may exhaust (a ruling reshuffles by its own seed)."""
    placed = {id(c) for c in game.deck} | {id(c) for c in game.discard_pile}
    for p in game.players:
        placed |= {id(c) for c in [*p.hand, *p.equips.values(), *p.judge, *(c for cs in p.piles.values() for c in cs)]}
    out = [c for c in game.all_cards if id(c) not in placed]
    notes = [f"out of every zone (a ruling puts them under the deck): {_cards(out)}"] if out else []
    if len(game.deck) <= FEW_CARDS:
        notes.append(f"the deck holds {len(game.deck)} cards: should the turn draw more, the ruling reshuffles the "
                     "discard pile in its own order, which a ruling cannot fix to the game's")
    return notes


# ------------------------------------------------------------ script
def _script(steps: list[Step], start: int, step: int) -> list[str]:
    """The answers of the turn before `step`; the question at `step` itself, left for the judge."""
    lines = ["  script {"]
    lines += [f"    {_answer(s)}" for s in _answered(steps[start:step])]
    here = steps[step]
    if here.kind == "question" and here.seat is not None:
        lines.append(f"    # step {step}: seat {here.seat + 1} is asked {here.prompt} [{'／'.join(here.options)}]")
        lines.append(f"    # the game answered: {_answer(here)}")
    lines.append("  }")
    return lines


def _answered(steps: list[Step]) -> list[Step]:
    """The questions the script answers, in order: those the engine asks, and a question it
    settles alone when the script's next answer, to the same seat, names the same option (a
    ruling takes such an answer as said there, so it must be written twice)."""
    out: list[Step] = []
    for s in reversed(steps):
        if _scripted(s) or (s.kind == "question" and not s.between_turns and out and out[-1].seat == s.seat
                            and normalize(out[-1].answer) == normalize(s.answer)):
            out.append(s)
    return out[::-1]


def _scripted(step: Step) -> bool:
    """A question the ruling's script answers: the engine settles one with a single option."""
    return (step.kind == "question" and step.seat is not None and not step.between_turns
            and (len(step.options) > 1 or step.asked == "invoke"))


def _answer(step: Step) -> str:
    assert step.seat is not None
    if '"' in step.answer:  # a ruling's string holds no quote
        return f"# seat {step.seat + 1} answered {step.answer}, which a ruling's script cannot quote"
    return f'{step.seat + 1} answers "{step.answer}";'
