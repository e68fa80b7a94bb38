"""`sgs serve`'s app through Starlette's test client: games played to the end over the WebSocket,
forged answers and bad tables refused (the game goes on), two games at once kept apart, a closed
page stopping its game; replays from each source; nothing outside the library and the served
ruling files readable; and `sgs run --answers` playing a saved game to the same log."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sgs_dsl.cli import main
from sgs_dsl.compiler.library import load_library
from sgs_dsl.web.server import make_app

with warnings.catch_warnings():  # starlette asks for httpx2 (not installed): httpx still works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession

LIBRARY = load_library()
RULINGS = Path(__file__).parent / "rulings"
RULING_FILE = RULINGS / "basic_cards.ruling"
SERVER_PY = (Path(__file__).parents[1] / "sgs_dsl" / "web" / "server.py").read_text(encoding="utf-8")
MAX_TURNS = 8  # short games: every message and answer still goes over the socket
JOIN = 30  # seconds a game thread has to end
SESSION = {"format": "sgs-session", "version": 1, "ruleset": "standard", "players": 4, "seed": 1, "seat": 1,
           "agents": {"all": "random"}, "answers": []}  # a saved game, no answer given yet


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(make_app(LIBRARY, "standard", [RULING_FILE])) as c:
        yield c


def start(ruleset: str = "standard", players: int = 4, seed: int = 5, **more: Any) -> dict[str, Any]:
    return {"ruleset": ruleset, "players": players, "seed": seed, "seat": 2, "agents": "random",
            "max_turns": MAX_TURNS, **more}


def answer(socket: WebSocketTestSession, question: dict[str, Any], index: Any) -> None:
    socket.send_json({"type": "answer", "question": question["id"], "index": index})


def play_out(socket: WebSocketTestSession, seed: int, first: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The game on `socket` to its end, each question answered by a chooser seeded by `seed`: the
    messages received (from `first`, when one was received already)."""
    chooser = random.Random(seed)
    got = [first] if first else []
    while True:
        message = got[-1] if got else None
        if message is not None and message["type"] != "question":
            assert message["type"] == "over", message
            return got
        if message is not None:
            answer(socket, message["question"], chooser.randrange(len(message["question"]["options"])))
        got.append(socket.receive_json())


def opened(socket: WebSocketTestSession, table: dict[str, Any]) -> dict[str, Any]:
    """Start a game; its first question."""
    socket.send_json(table)
    started = socket.receive_json()
    assert started["type"] == "started" and "seed" not in started, started
    assert started["seat"] == table["seat"] - 1 and started["players"] == table["players"]
    first = socket.receive_json()
    assert first["type"] == "question", first
    return first


# ------------------------------------------------------------------ playing
@pytest.mark.parametrize("ruleset", ["standard", "hegemony", "campus"])
def test_a_game_is_played_to_its_end_over_the_socket(client: TestClient, ruleset: str) -> None:
    players = 5 if ruleset == "campus" else 4
    with client.websocket_connect("/ws/play") as socket:
        messages = play_out(socket, 1, opened(socket, start(ruleset, players)))
    over = messages[-1]
    session = over["session"]
    assert session["seed"] == 5 and session["ruleset"] == ruleset and session["seat"] == 2
    assert len(session["answers"]) == len(messages) - 1  # every question answered once, in order
    assert over["full_log"][-len(over["log"]):] == over["log"] or not over["log"]
    assert all(m["question"]["id"] == i for i, m in enumerate(messages[:-1], 1))
    assert not any("session" in m or "full_log" in m for m in messages[:-1])  # the seed: only at the end


def forged(question: dict[str, Any]) -> list[Any]:
    n, number = len(question["options"]), question["id"]
    return [{"type": "answer", "question": number, "index": n},  # one past the last option
            {"type": "answer", "question": number, "index": -1},  # the page-closed sentinel, never an answer
            {"type": "answer", "question": number + 1, "index": 0},
            {"type": "answer", "question": str(number), "index": 0},
            {"type": "answer", "question": True, "index": 0},  # True == 1: a bool is no question number
            {"type": "answer", "question": float(number), "index": 0},
            {"type": "answer", "question": number, "index": True},
            {"type": "answer", "question": number, "index": "0"},
            {"type": "answer", "question": number, "index": 0.0},
            {"type": "answer", "question": number},
            {"type": "hello"}, [number, 0], "answer", 0, None]


def test_forged_answers_are_refused_and_the_game_goes_on(client: TestClient) -> None:
    with client.websocket_connect("/ws/play") as socket:
        first = opened(socket, start(seed=9))
        for message in forged(first["question"]):
            socket.send_json(message)
            refused = socket.receive_json()
            assert refused["type"] == "refused" and refused["why"], (message, refused)
        for text in ("{not json", ""):
            socket.send_text(text)
            assert socket.receive_json()["type"] == "refused", text
        socket.send_bytes(b'{"type": "answer"}')
        assert socket.receive_json()["type"] == "refused"
        messages = play_out(socket, 2, first)
        late = messages[-1]["session"]
        socket.send_json({"type": "answer", "question": len(late["answers"]), "index": 0})  # nothing is asked now
        assert socket.receive_json() == {"type": "refused", "why": "no question is awaiting an answer"}
    with client.websocket_connect("/ws/play") as socket:  # the same game, never forged: the same answers, log
        again = play_out(socket, 2, opened(socket, start(seed=9)))
    assert again[-1]["session"] == late and again[-1]["full_log"] == messages[-1]["full_log"]


def test_an_answer_when_nothing_is_asked_is_refused() -> None:
    from sgs_dsl.sessions import Session
    from sgs_dsl.web.play import PlayGame

    game = PlayGame(LIBRARY, Session("standard", 4, 3, 0, max_turns=MAX_TURNS))
    assert game.answer(1, 0) == "no question is awaiting an answer"
    game.start()
    first = game.messages.get(timeout=JOIN)
    assert game.answer(first["question"]["id"], 0) == ""
    assert game.answer(first["question"]["id"], 0) != ""  # the same question twice: taken once
    game.leave()
    game.thread.join(JOIN)
    assert not game.thread.is_alive()


def test_a_game_nobody_is_asked_in_stops_when_left() -> None:
    """The person's seat may never be asked again (dead): leaving still ends the game thread."""
    from sgs_dsl.agents.registry import AgentSpec
    from sgs_dsl.sessions import Session
    from sgs_dsl.web.play import PlayGame

    game = PlayGame(LIBRARY, Session("standard", 8, 4, -1, AgentSpec("heuristic"), max_turns=600)).start()
    game.leave()
    game.thread.join(JOIN)
    assert not game.thread.is_alive() and game.messages.get_nowait() == {"type": "left"}


@pytest.mark.parametrize(("table", "why"), [
    ({"ruleset": "nope"}, "unknown ruleset"),
    ({"ruleset": 3}, "unknown ruleset"),
    ({"players": 1}, "players"),
    ({"players": 99}, "players"),
    ({"players": "four"}, "players"),
    ({"players": None}, "players"),
    ({"seat": 0}, "seat"),
    ({"seat": 5}, "seat"),
    ({"seat": True}, "seat"),
    ({"seed": "x"}, "seed"),
    ({"agents": "alien"}, "unknown agent"),
    ({"agents": {"all": "random", "seats": {"2": "alien"}}}, "unknown agent"),
    ({"agents": {"seats": {"9": "random"}}}, "seats"),
    ({"agents": {"seats": 5}}, "agents"),
    ({"agents": ["random"]}, "agents"),
    ({"max_turns": 0}, "max_turns"),
    ({"max_turns": "many"}, "max_turns"),
])
def test_a_bad_table_is_refused_with_a_reason(client: TestClient, table: dict[str, Any], why: str) -> None:
    with client.websocket_connect("/ws/play") as socket:
        socket.send_json({**start(), **table})
        refused = socket.receive_json()
    assert refused["type"] == "refused" and why in refused["why"], refused


@pytest.mark.parametrize("first", ["{not json", "[1, 2]", '"standard"'])
def test_a_start_that_is_not_a_table_is_refused(client: TestClient, first: str) -> None:
    with client.websocket_connect("/ws/play") as socket:
        socket.send_text(first)
        refused = socket.receive_json()
    assert refused["type"] == "refused" and refused["why"], refused


def test_two_games_at_once_are_kept_apart(client: TestClient) -> None:
    """Played in turns, each game is the game it is alone: the same questions, log and answers."""
    alone = {}
    for seed in (11, 12):
        with client.websocket_connect("/ws/play") as socket:
            alone[seed] = play_out(socket, seed, opened(socket, start(seed=seed)))
    with client.websocket_connect("/ws/play") as a, client.websocket_connect("/ws/play") as b:
        sockets = {11: a, 12: b}
        got = {seed: [opened(s, start(seed=seed))] for seed, s in sockets.items()}
        choosers = {seed: random.Random(seed) for seed in sockets}
        while any(g[-1]["type"] == "question" for g in got.values()):
            for seed, socket in sockets.items():
                last = got[seed][-1]
                if last["type"] == "question":
                    answer(socket, last["question"], choosers[seed].randrange(len(last["question"]["options"])))
                    got[seed].append(socket.receive_json())
    for seed in sockets:
        assert got[seed] == alone[seed]


def game_threads(seed: int) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == f"sgs-game-{seed}"]


def test_a_closed_page_stops_its_game(client: TestClient) -> None:
    seed = 424242
    with client.websocket_connect("/ws/play") as socket:
        opened(socket, start(seed=seed, max_turns=600))
        assert game_threads(seed)
    for thread in game_threads(seed):
        thread.join(JOIN)
    assert not game_threads(seed)


# ------------------------------------------------------------------ sgs run --answers
@pytest.mark.parametrize(("ruleset", "players"), [("standard", 4), ("hegemony", 4)])
def test_run_answers_plays_the_saved_game_to_the_same_log(client: TestClient, tmp_path: Path, ruleset: str,
                                                          players: int) -> None:
    with client.websocket_connect("/ws/play") as socket:
        over = play_out(socket, 3, opened(socket, start(ruleset, players, seed=21)))[-1]
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(over["session"], ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(main, ["run", "--answers", str(saved)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"# ruleset {ruleset}, {players} players, seed 21"
    assert lines[1:1 + len(over["full_log"])] == over["full_log"]
    assert lines[-1].startswith(f"winner: {over['winner']} ")


def test_run_answers_refuses_a_file_that_is_not_a_session(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    saved.write_text('{"format": "something else"}', encoding="utf-8")
    result = CliRunner().invoke(main, ["run", "--answers", str(saved)])
    assert result.exit_code == 2 and "not a session file" in result.output, result.output


def misfit_session(client: TestClient, which: int) -> dict[str, Any]:
    """A saved game whose answer `which` is edited: it fits no question."""
    with client.websocket_connect("/ws/play") as socket:
        session: dict[str, Any] = play_out(socket, 4, opened(socket, start(seed=22)))[-1]["session"]
    assert len(session["answers"]) > 3
    index, label = session["answers"][which]
    session["answers"][which] = [index, label + "?"]
    return session


@pytest.mark.parametrize("which", [0, -1])  # while heroes are chosen; in a turn (inside the game's loop)
def test_run_answers_stops_on_an_answer_that_does_not_fit(client: TestClient, tmp_path: Path, which: int) -> None:
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(misfit_session(client, which), ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(main, ["run", "--answers", str(saved)])
    assert result.exit_code == 1 and "do not fit" in result.output, result.output
    assert "Traceback" not in result.output and "Error" not in result.output, result.output


@pytest.mark.parametrize("which", [0, -1])
def test_a_session_whose_answer_does_not_fit_is_refused(client: TestClient, which: int) -> None:
    text = json.dumps(misfit_session(client, which), ensure_ascii=False)
    response = client.post("/api/replays", json={"source": "session", "text": text})
    assert response.status_code == 400 and "does not fit" in response.json()["error"], response.text


def test_run_answers_with_a_seed_is_a_usage_error(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(SESSION), encoding="utf-8")
    result = CliRunner().invoke(main, ["run", "--answers", str(saved), "--seed", "3"])
    assert result.exit_code == 2 and "--answers" in result.output, result.output


# ------------------------------------------------------------------ replays
def open_replay(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/replays", json=body)
    assert response.status_code == 200, response.text
    opened = response.json()
    assert opened["steps"], opened
    return opened


def read_steps(client: TestClient, opened: dict[str, Any]) -> None:
    """The first and last steps, in the full view and each seat's."""
    last = len(opened["steps"]) - 1
    for step in (0, last):
        for view in ["full", *range(1, opened["players"] + 1)]:
            response = client.get(f"/api/replays/{opened['id']}/{step}", params={"view": view})
            assert response.status_code == 200, response.text
            moment = response.json()
            assert moment["step"] == step and moment["table"]["players"]
            assert moment["table"]["seat"] == (None if view == "full" else view - 1)
    beyond = client.get(f"/api/replays/{opened['id']}/{last + 100}").json()
    assert beyond["step"] == last  # a step past the end is the last one


def test_a_seeded_game_replays(client: TestClient) -> None:
    read_steps(client, open_replay(client, {"source": "seed", "ruleset": "standard", "players": 4, "seed": 3,
                                            "agents": "random", "max_turns": MAX_TURNS}))


def test_a_session_replays_as_played(client: TestClient) -> None:
    with client.websocket_connect("/ws/play") as socket:
        over = play_out(socket, 6, opened(socket, start(seed=23)))[-1]
    opened_ = open_replay(client, {"source": "session", "text": json.dumps(over["session"], ensure_ascii=False)})
    read_steps(client, opened_)
    last = client.get(f"/api/replays/{opened_['id']}/{len(opened_['steps']) - 1}").json()
    assert last["log"] == over["full_log"]


def test_a_records_line_replays_its_game(client: TestClient, tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    result = CliRunner().invoke(main, ["simulate", "-r", "standard", "-p", "4", "-g", "1", "-s", "7", "-q",
                                       "--max-turns", str(MAX_TURNS), "--records", str(records)])
    assert result.exit_code == 0, result.output
    text = records.read_text(encoding="utf-8")
    opened_ = open_replay(client, {"source": "record", "text": text})
    read_steps(client, opened_)
    line = json.loads(text.splitlines()[0])
    replayed = client.app.state.sgs.replays[opened_["id"]].result  # type: ignore[attr-defined]
    assert (replayed.winner, replayed.turns) == (line["winner"], line["turns"])


def test_a_ruling_replays_uploaded_and_served(client: TestClient) -> None:
    text = RULING_FILE.read_text(encoding="utf-8")
    read_steps(client, open_replay(client, {"source": "ruling", "text": text}))
    titled = open_replay(client, {"source": "ruling-file", "file": RULING_FILE.name, "title": "殺每出牌階段限一次"})
    assert titled["title"] == "殺每出牌階段限一次"
    read_steps(client, titled)
    setup = client.get("/api/setup").json()
    assert setup["rulings"][0]["file"] == RULING_FILE.name and "殺每出牌階段限一次" in setup["rulings"][0]["titles"]


@pytest.mark.parametrize("view", ["0", "5", "-1", "x", "1.5", ""])
def test_a_view_that_is_no_seat_is_refused(client: TestClient, view: str) -> None:
    opened_ = open_replay(client, {"source": "seed", "ruleset": "standard", "players": 4, "seed": 3,
                                   "max_turns": 2})
    response = client.get(f"/api/replays/{opened_['id']}/0", params={"view": view})
    assert response.status_code == 400 and "view" in response.json()["error"], response.text


def test_an_unknown_replay_is_refused(client: TestClient) -> None:
    for path in ("/api/replays/nope/0", "/api/replays/nope/0/ruling"):
        response = client.get(path)
        assert response.status_code == 400 and "no such replay" in response.json()["error"]


@pytest.mark.parametrize(("body", "why"), [
    ({"source": "nope"}, "source"),
    ({"source": "seed", "ruleset": "nope", "players": 4}, "unknown ruleset"),
    ({"source": "session", "text": "{}"}, "session"),
    ({"source": "session", "text": 5}, "text"),
    ({"source": "record", "text": "not json"}, "--records"),
    ({"source": "record", "text": '{"ruleset": "nope", "players": 4, "seed": 1, "seats": []}'}, "nope"),
    ({"source": "record", "text": '{"ruleset": "standard", "players": 99, "seed": 1, "seats": []}'}, "99"),
    ({"source": "record", "text": '{"ruleset": "standard", "players": 4, "seed": 1, "seats": '
                                  '[{"seat": 2, "agent": "alien"}]}'}, "unknown agent"),
    ({"source": "session", "text": json.dumps({**SESSION, "agents": {"all": "alien"}})}, "unknown agent"),
    ({"source": "session", "text": json.dumps({**SESSION, "heroes": {"1": "nobody"}})}, "nobody"),
    ({"source": "session", "text": json.dumps({**SESSION, "ruleset": "basic", "heroes": {"1": "nobody"}})}, "hero"),
    ({"source": "session", "text": json.dumps({**SESSION, "players": 1})}, "players"),
    ({"source": "ruling", "text": "ruling {"}, ""),
    ({"source": "ruling", "text": RULING_FILE.read_text(encoding="utf-8"), "title": "no such"}, "no ruling titled"),
])
def test_a_replay_that_cannot_open_is_refused(client: TestClient, body: dict[str, Any], why: str) -> None:
    response = client.post("/api/replays", json=body)
    assert response.status_code == 400 and why in response.json()["error"], response.text


@pytest.mark.parametrize("body", [b"{not json", b"[1, 2]", b"\xff\xfe", b""])
def test_a_request_that_is_not_a_json_object_is_refused(client: TestClient, body: bytes) -> None:
    response = client.post("/api/replays", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400 and "JSON" in response.json()["error"], response.text


# ------------------------------------------------------------------ what the app may read
@pytest.mark.parametrize("name", [
    "../../etc/passwd", "/etc/passwd", str(RULING_FILE), str(RULING_FILE.resolve()), "rulings/basic_cards.ruling",
    "./basic_cards.ruling", "%2e%2e/%2e%2e/etc/passwd", "", None, 3, ["basic_cards.ruling"]])
def test_a_ruling_file_is_named_never_given_by_path(client: TestClient, name: Any) -> None:
    response = client.post("/api/replays", json={"source": "ruling-file", "file": name})
    assert response.status_code == 400 and "no ruling file" in response.json()["error"], response.text


@pytest.mark.parametrize("path", [
    "/static/../server.py", "/static/%2e%2e/server.py", "/static/%2E%2E/server.py", "/static/..%2fserver.py",
    "/static/%2e%2e%2fserver.py", "/static/..%5cserver.py", "/static/....//server.py", "/static//etc/passwd",
    "/static/%2fetc%2fpasswd", "/static/../../../../etc/passwd", "/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/static/..", "/static/%00"])
def test_no_file_outside_the_static_folder_is_served(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert "make_app" not in response.text and "root:" not in response.text
    if response.status_code == 200:  # the client made it "/" (the page), never a file outside static/
        assert response.text == client.get("/").text, path
    else:
        assert response.status_code in (400, 404, 405), (path, response.status_code)


def test_the_page_and_its_texts_are_served(client: TestClient) -> None:
    assert client.get("/").status_code == 200
    texts = client.get("/api/texts").json()
    assert texts["cards"] and texts["skills"] and texts["heroes"]
    assert "make_app" in SERVER_PY  # the marker the traversal test looks for is server.py's own


def raw_get(app: Any, path: str) -> tuple[int, bytes]:
    """GET `path` as sent, through the app itself (a client may tidy a path's dot segments)."""
    sent: list[dict[str, Any]] = []
    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": [], "root_path": "", "http_version": "1.1", "scheme": "http", "server": ("test", 80),
             "client": ("test", 1)}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])


@pytest.mark.parametrize("path", ["/static/../server.py", "/static/../../web/server.py", "/static/../../../cli.py",
                                  "/static/./../server.py", "/static/../../../../../../etc/passwd"])
def test_no_file_outside_the_static_folder_is_served_to_a_raw_path(client: TestClient, path: str) -> None:
    status, body = raw_get(client.app, path)
    assert status == 404 and b"make_app" not in body and b"root:" not in body, (path, status)


def test_a_seats_view_of_a_replay_hides_the_others_questions(client: TestClient) -> None:
    opened_ = open_replay(client, {"source": "seed", "ruleset": "standard", "players": 4, "seed": 3,
                                   "max_turns": 3})
    asked = [(i, s["seat"]) for i, s in enumerate(opened_["steps"]) if s["kind"] == "question"]
    assert {seat for _, seat in asked} == {0, 1, 2, 3}
    for step, seat in asked[:12]:
        for view in (seat + 1, (seat + 1) % 4 + 1, "full"):
            detail = client.get(f"/api/replays/{opened_['id']}/{step}", params={"view": view}).json()["detail"]
            mine = view in ("full", seat + 1)
            assert ("options" in detail) == mine and detail.get("hidden", False) != mine, (view, seat, detail)
