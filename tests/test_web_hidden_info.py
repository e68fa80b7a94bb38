"""The web table sends a seat only what it may know. The sweep: seeded games of every built-in
ruleset played through web.play.PlayGame (the person's seat answered by a seeded random chooser,
the others by computer agents), every message to the person checked against the real game at the
moment it is sent (tests/seat_secrets.py says what a seat must not know; engine/knowledge.py which
cards it can place); then the replay's seat views of the same game at a sample of steps. Each kind
of leak, put into the table on purpose, is caught by the same checks (so they can fail)."""

from __future__ import annotations

import json
import queue
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from seat_secrets import CARD_LABEL, WatchedGame, watched_parts

from sgs_dsl.agents.registry import AgentSpec
from sgs_dsl.compiler.library import load_library
from sgs_dsl.engine.kernel import Game
from sgs_dsl.engine.knowledge import known_cards, track
from sgs_dsl.engine.parts import Parts
from sgs_dsl.engine.view import SeatView
from sgs_dsl.modes import make_mode
from sgs_dsl.sessions import Session
from sgs_dsl.web import tableview
from sgs_dsl.web.play import PlayGame
from sgs_dsl.web.replay import Replay, moment, play_session

LIBRARY = load_library()
RULESETS = sorted(LIBRARY.rulesets)
MAX_TURNS = 12  # enough for deaths, shown generals, reshuffles; short enough to sweep every ruleset
REPLAY_STEPS = 5  # steps of each replay read, for every seat
TABLES = ((1, 4), (2, 5), (3, 8))  # (seed, players wanted) of the games swept for each ruleset
TIMEOUT = 60
HIDDEN_SKILL_SEED = 3  # 國戰, 4 players: face-down generals decline their skills (lines the others read blank)  # seconds to wait for a message: a game thread that hangs fails the test


def table_size(ruleset: str, wanted: int) -> int:
    """The table the ruleset's mode seats nearest to `wanted` players (3v3: 6)."""
    mode = make_mode(LIBRARY.ruleset(ruleset))
    seated = []
    for n in range(2, 11):
        try:
            mode.check_players(n)
        except ValueError:
            continue
        seated.append(n)
    assert seated, f"no table for {ruleset}"
    return min(seated, key=lambda n: (abs(n - wanted), n))


def swept_parts(games: list[Game]) -> Parts:
    """The watched game of seat_secrets, keeping what each seat knows of the cards (knowledge.py)
    and the heroes offered to each seat; each game built is appended to `games`."""

    class SweptGame(WatchedGame):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            track(self)
            games.append(self)

        def ask(self, player: Any, kind: str, prompt: str, options: list[Any], *args: Any, **kwargs: Any) -> Any:
            if kind == "hero":  # the heroes dealt to a seat are that seat's secret
                self.watch.offered.setdefault(player.seat, set()).update(o.label for o in options)
            return super().ask(player, kind, prompt, options, *args, **kwargs)

    return attrs.evolve(watched_parts(), game=SweptGame)


# ------------------------------------------------------------------ the checks
def hidden_labels(game: Any, seat: int, text: str) -> list[str]:
    """The card labels in `text` that name no card whose place `seat` knows."""
    known = known_cards(game, seat)
    by_label = game.watch.by_label
    return [label for label in CARD_LABEL.findall(text)
            if label in by_label and not any(c.uid in known for c in by_label[label])]


def secret_names(game: Any, seat: int, text: str) -> list[str]:
    """Face-down generals, their own skills, heroes dealt to others and unplayed, and role words
    no seat known to `seat` explains, found in `text`."""
    watch = game.watch
    before = len(watch.leaks)
    watch.check_names(seat, text, "a message")  # (nothing once the game is over: all is shown)
    found = watch.leaks[before:]
    del watch.leaks[before:]
    return found


def side_leaks(game: Any, seat: int, table: dict[str, Any]) -> list[str]:
    """Another seat's side in the table that the mode does not show to `seat`."""
    watch = game.watch
    return [f"the side {p['side']!r} of seat {p['seat'] + 1}" for p in table["players"]
            if p["side"] is not None and not watch._knows_side(seat, game.players[p["seat"]])]


def table_leaks(game: Any, seat: int, table: dict[str, Any]) -> list[str]:
    text = json.dumps(table, ensure_ascii=False)
    return ([f"the card {label}" for label in hidden_labels(game, seat, text)]
            + side_leaks(game, seat, table) + secret_names(game, seat, text))


@attrs.define
class MessageCheck:
    """Every message sent to the person's seat, checked against the game as it is then."""

    seat: int
    games: list[Game]
    seed: int
    sent: list[str] = attrs.field(factory=list)  # the log lines sent so far
    problems: list[str] = attrs.field(factory=list)
    messages: int = 0

    def __call__(self, message: dict[str, Any]) -> None:
        if message["type"] in ("question", "over"):
            self.messages += 1
            game = self.games[-1]
            what = f"message {self.messages} ({message['type']}, turn {game.turns})"
            self.problems += [f"{what}: {p}" for p in self.check(game, message)]

    def check(self, game: Any, message: dict[str, Any]) -> list[str]:
        self.sent += message["log"]
        problems = table_leaks(game, self.seat, message["table"])
        if self.sent != SeatView(game, self.seat).log_lines():
            problems.append("the log lines sent are not the seat's readable log")
        if message["type"] == "over":
            if message["session"]["seed"] != self.seed:
                problems.append("the over message does not carry the session's seed")
            return problems
        if "session" in message or _has_key(message, "seed"):
            problems.append("the seed is sent before the game is over")
        shown = json.dumps({"log": message["log"], "question": message["question"]}, ensure_ascii=False)
        problems += [f"the card {label}" for label in hidden_labels(game, self.seat, shown)]
        return problems + secret_names(game, self.seat, shown)


def _has_key(data: Any, key: str) -> bool:
    if isinstance(data, dict):
        return key in data or any(_has_key(v, key) for v in data.values())
    if isinstance(data, list):
        return any(_has_key(v, key) for v in data)
    return False


# ------------------------------------------------------------------ playing
def session_of(ruleset: str, seed: int, players: int) -> Session:
    """The person at a seat the seed picks; a heuristic agent (which reads its view) next to
    them, random ones elsewhere."""
    seat = seed % players
    return Session(ruleset, players, seed, seat, AgentSpec("random", (), (((seat + 1) % players, "heuristic"),)),
                   max_turns=MAX_TURNS)


def play_checked(ruleset: str, seed: int, wanted: int = 4) -> tuple[PlayGame, MessageCheck, Game]:
    """A game played to its end through PlayGame, every message to the person checked as sent."""
    games: list[Game] = []
    session = session_of(ruleset, seed, table_size(ruleset, wanted))
    check = MessageCheck(session.seat, games, seed)
    inbox: queue.Queue[dict[str, Any]] = queue.Queue()

    def send(message: dict[str, Any]) -> None:  # the game's thread, the game paused
        check(message)
        inbox.put(message)

    game = PlayGame(LIBRARY, session, send, parts=swept_parts(games)).start()
    person = random.Random(seed)
    while True:
        message = inbox.get(timeout=TIMEOUT)
        if message["type"] != "question":
            break
        why = game.answer(message["question"]["id"], person.randrange(len(message["question"]["options"])))
        assert why == "", why
    game.thread.join(TIMEOUT)
    assert message["type"] == "over", message
    return game, check, games[-1]


def replay_of(session: Session) -> tuple[Replay, list[Game]]:
    games: list[Game] = []
    parts = swept_parts(games)
    return Replay(lambda watch: play_session(LIBRARY, session, watch, parts), session.players).record(), games


def replay_leaks(replay: Replay, seat: int, step: int) -> tuple[dict[str, Any], list[str]]:
    """The replay's moment at `step` as `seat` sees it, and what in it `seat` may not know."""

    def read(game: Any, viewer: int | None) -> tuple[dict[str, Any], list[str]]:
        assert viewer is not None
        seen = moment(game, viewer)
        problems = table_leaks(game, viewer, seen["table"])
        problems += secret_names(game, viewer, "\n".join(seen["log"]))
        if seen["log"] != SeatView(game, viewer).log_lines():
            problems.append("the log is not the seat's readable log")
        return seen, problems

    result: tuple[dict[str, Any], list[str]] = replay.at(step, seat, read)
    return result


# ------------------------------------------------------------------ the sweep
@pytest.mark.parametrize(("ruleset", "seed", "wanted"), [(r, seed, wanted) for r in RULESETS for seed, wanted in TABLES])
def test_a_seat_is_sent_only_what_it_may_know(ruleset: str, seed: int, wanted: int) -> None:
    game, check, played = play_checked(ruleset, seed, wanted)
    assert check.messages > 3, "the person was asked too little for the sweep to mean anything"
    assert check.problems == []
    assert played.watch.leaks == []  # the engine's own view of every seat (seat_secrets), line by line
    session = game.session
    replay, _ = replay_of(session)
    steps = sorted({int(i * (len(replay.steps) - 1) / (REPLAY_STEPS - 1)) for i in range(REPLAY_STEPS)})
    for step in steps:
        for seat in range(session.players):
            seen, problems = replay_leaks(replay, seat, step)
            assert problems == [], f"step {step}, seat {seat + 1}: {problems}"
            if seat == session.seat:  # the person's replayed view is what the table sent them
                assert seen["log"] == check.sent[:len(seen["log"])]
    for step in replay.steps:
        for viewer in range(session.players):
            shown = step.shown_to(viewer)
            if step.kind == "question" and step.seat != viewer:
                assert shown == {**step.brief(), "hidden": True}
            elif step.kind == "question":
                assert shown["options"] == list(step.options)


# ------------------------------------------------------------------ the checks can fail
def leaking(monkeypatch: pytest.MonkeyPatch, player: Callable[..., dict[str, Any]]) -> None:
    """Each player's entry of the table as `player(view, info, entry)` remakes it."""
    real = tableview._player

    def leaky(view: SeatView, p: Any, me: int, seated: bool) -> dict[str, Any]:
        return player(view, p, real(view, p, me, seated))

    monkeypatch.setattr(tableview, "_player", leaky)


def test_a_hand_put_into_the_table_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def hand(view: SeatView, p: Any, entry: dict[str, Any]) -> dict[str, Any]:
        return {**entry, "hand": list(SeatView(view._game, p.seat).hand)}

    leaking(monkeypatch, hand)
    _, check, _ = play_checked("standard", 1)
    assert any("the card 【" in p for p in check.problems), check.problems[:3]


def test_a_face_down_general_put_into_the_table_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def generals(view: SeatView, p: Any, entry: dict[str, Any]) -> dict[str, Any]:
        seat = view._game.mode.generals.get(p.seat)
        return {**entry, "generals": [g.name for g in seat.cards] if seat else entry["generals"]}

    leaking(monkeypatch, generals)
    _, check, _ = play_checked("hegemony", 1)
    assert any("the hidden general" in p for p in check.problems), check.problems[:3]


def test_a_role_put_into_the_table_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def role(view: SeatView, p: Any, entry: dict[str, Any]) -> dict[str, Any]:
        return {**entry, "side": view._game.players[p.seat].role}

    leaking(monkeypatch, role)
    _, check, _ = play_checked("standard", 1)
    assert any("the side" in p for p in check.problems), check.problems[:3]


def test_the_whole_log_sent_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every line as written, not as the seat may read it (a 國戰 log hides face-down generals)."""

    def every_line(self: PlayGame, view: SeatView) -> list[str]:
        lines = view._game.lines[self.agent.shown:]
        self.agent.shown += len(lines)
        return lines

    monkeypatch.setattr(PlayGame, "_new_lines", every_line)
    _, check, _ = play_checked("hegemony", HIDDEN_SKILL_SEED)
    assert any("not the seat's readable log" in p for p in check.problems), check.problems[:3]
    assert any("hidden general" in p or "skill" in p for p in check.problems), check.problems[:3]
