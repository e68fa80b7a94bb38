"""`sgs serve`: the table in the browser (docs/web.md). A Starlette app: the page and its
scripts are static files shipped in the package; a game is played over a WebSocket (one game
per connection, each in its own thread); a replay is listed, then read step by step over HTTP.

What the app may read is the library it was started with and the ruling files named on the
command line: everything else a page sends is text (a session, a record, a ruling) or a name
among those, never a path."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..agents.registry import AGENT_NAMES, AgentSpec
from ..sessions import Session, SessionError, loads
from .catalog import catalog
from .play import PlayGame
from .replay import Replay, play_session
from .rulingplay import RulingFiles, RulingRefused, ruling_replay
from .skeleton import skeleton_at

STATIC = Path(__file__).parent / "static"
MAX_REPLAYS = 32  # replays kept; the oldest is dropped first
MAX_TEXT = 2_000_000  # characters of an uploaded session, record or ruling
MAX_TURNS = 600


class Refused(ValueError):
    """A request the app refuses: why, for the page to show."""


@attrs.define
class App:
    """What one server holds: the library, its default ruleset, the ruling files it may read,
    and the replays opened (by an id nobody can guess)."""

    library: Any
    ruleset: str
    rulings: RulingFiles
    replays: OrderedDict[str, Replay] = attrs.field(factory=OrderedDict)

    # ------------------------------------------------------------ tables
    def table(self, data: dict[str, Any], person: bool) -> Session:
        """The game a page asks for, checked: ruleset, players, seat, seed, agents."""
        from ..modes import make_mode

        name = data.get("ruleset") or self.ruleset
        rules = self.library.rulesets.get(name) if isinstance(name, str) else None
        if rules is None:
            raise Refused(f"unknown ruleset {name!r}; the rulesets are {', '.join(sorted(self.library.rulesets))}")
        players = _int(data, "players", default=None)
        if players is None:
            raise Refused("players: give the number of seats")
        try:
            make_mode(rules).check_players(players)
        except ValueError as error:
            raise Refused(str(error)) from None
        seat = _int(data, "seat", default=1) - 1 if person else -1
        if person and not 0 <= seat < players:
            raise Refused(f"seat {seat + 1} is not a seat of this table: choose 1 to {players}")
        seed = _int(data, "seed", default=None)
        if seed is None:
            seed = secrets.randbelow(2**31)
        turns = _int(data, "max_turns", default=MAX_TURNS)
        if turns < 1:
            raise Refused("max_turns: give 1 turn or more")
        return Session(name, players, seed, seat, _agents(data.get("agents"), players), max_turns=min(turns, MAX_TURNS))

    # ------------------------------------------------------------ replays
    def open_replay(self, data: dict[str, Any]) -> tuple[str, Replay, str]:
        source = data.get("source")
        title = ""
        if source == "seed":
            session = self.table(data, person=False)
            title = f"{session.ruleset}, {session.players} players, seed {session.seed}"
        elif source in ("session", "record"):
            session = _session(_text(data), source)
            self._check(session, source)
            title = f"{session.ruleset}, {session.players} players, seed {session.seed}"
        elif source in ("ruling", "ruling-file"):
            text, path = ((_text(data), "<uploaded>") if source == "ruling" else self.rulings.read(data.get("file")))
            replay, title = ruling_replay(self.library, text, path, data.get("title"))
            return self._keep(replay), replay, title
        else:
            raise Refused("source: give seed, session, record, ruling or ruling-file")
        library = self.library
        try:
            replay = Replay(lambda watch: play_session(library, session, watch), session.players).record()
        except (SessionError, ValueError) as error:  # an answer that fits no question; a table setup refuses
            raise Refused(f"the {source}: {error}") from None
        if source == "record":
            _same_game(replay, json.loads(_text(data).strip().splitlines()[0]))
        return self._keep(replay), replay, title

    def _check(self, session: Session, source: str) -> None:
        """A table a session or record names: one this library seats."""
        from ..modes import make_mode

        rules = self.library.rulesets.get(session.ruleset)
        if rules is None:
            raise Refused(f"the {source} is of ruleset {session.ruleset!r}, which this library does not have")
        try:
            make_mode(rules).check_players(session.players)
        except ValueError as error:
            raise Refused(f"the {source}: {error}") from None

    def _keep(self, replay: Replay) -> str:
        key = secrets.token_urlsafe(12)
        self.replays[key] = replay
        while len(self.replays) > MAX_REPLAYS:
            self.replays.popitem(last=False)
        return key

    def replay(self, key: str) -> Replay:
        found = self.replays.get(key)
        if found is None:
            raise Refused("no such replay (it may have been closed): open it again")
        return found


def _int(data: dict[str, Any], key: str, default: Any) -> Any:
    value = data.get(key, default)
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        raise Refused(f"{key}: {value!r} is not a whole number")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Refused(f"{key}: {value!r} is not a whole number") from None


def _agents(value: Any, players: int) -> AgentSpec:
    """`"heuristic"`, or {"all": NAME, "seats": {"2": NAME}}."""
    if value is None or value == "":
        return AgentSpec("heuristic")
    data = {"all": value} if isinstance(value, str) else value
    if not isinstance(data, dict):
        raise Refused("agents: give an agent's name")
    given = data.get("seats") or {}
    if not isinstance(given, dict):
        raise Refused('agents: give the seats\' agents as {"seats": {"2": NAME}}')
    for name in [data.get("all", "heuristic"), *given.values()]:
        if name not in AGENT_NAMES:
            raise Refused(f"unknown agent {name!r}; the agents are {', '.join(AGENT_NAMES)}")
    seats = tuple(sorted((_int({"seat": k}, "seat", None) - 1, str(v)) for k, v in given.items()))
    if any(not 0 <= s < players for s, _ in seats):
        raise Refused(f"agents: seats are numbered 1 to {players}")
    return AgentSpec(str(data.get("all", "heuristic")), (), seats)


def _text(data: dict[str, Any]) -> str:
    text = data.get("text")
    if not isinstance(text, str) or not text.strip():
        raise Refused("text: give the file's text")
    if len(text) > MAX_TEXT:
        raise Refused(f"the text is longer than {MAX_TEXT} characters")
    return text


def _session(text: str, source: str) -> Session:
    """A session file's text, or one line of a `--records` file (its first game when several)."""
    try:
        if source == "session":
            return loads(text)
        line = json.loads(text.strip().splitlines()[0])
        seats = line["seats"]
        agents = AgentSpec("random", (), tuple((int(s["seat"]) - 1, str(s["agent"])) for s in seats if s.get("agent")))
        turns = int(line["turns"]) if line.get("capped") else MAX_TURNS  # a capped game stops where it did
        return Session(str(line["ruleset"]), int(line["players"]), int(line["seed"]), -1, agents, max_turns=turns)
    except SessionError as error:
        raise Refused(f"the session file: {error}") from None
    except (ValueError, KeyError, TypeError, IndexError) as error:
        raise Refused(f"not a line of a --records file: {error}") from None


def _same_game(replay: Replay, record: dict[str, Any]) -> None:
    """A --records line names its game by ruleset, seed and agents, not by the --hero,
    --feature or --max-turns it was played with: the game played again must end as the line
    says, or it is another game and is refused."""
    result = replay.result
    played = (None, None) if result is None else (result.winner, result.turns)
    if played != (record.get("winner"), record.get("turns")):
        raise Refused(f"this library plays seed {record.get('seed')} to another end ({played[0]} after {played[1]} "
                      f"turns, not {record.get('winner')} after {record.get('turns')}): the batch was played with "
                      "other heroes placed (--hero, --feature), another --max-turns or other .sgs files")


def _viewer(request: Request, replay: Replay) -> int | None:
    view = request.query_params.get("view", "full")
    if view == "full":
        return None
    seat = _int({"view": view}, "view", None)
    if seat is None or not 1 <= seat <= replay.players:
        raise Refused(f"view: full, or a seat from 1 to {replay.players}")
    return int(seat) - 1


def _refusing(handler: Any) -> Any:
    async def handle(request: Request) -> Response:
        try:
            response: Response = await handler(request)
            return response
        except (Refused, RulingRefused) as why:
            return JSONResponse({"error": str(why)}, status_code=400)

    return handle


def make_app(library: Any, ruleset: str, ruling_paths: Sequence[Path] = ()) -> Starlette:
    """The web app over `library`, `ruleset` the one a new game starts from."""
    app_state = App(library, ruleset, RulingFiles.of(ruling_paths, library))
    texts = catalog(library)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def setup(request: Request) -> Response:
        from ..core.modes import MODE_SPECS

        rulesets = [{"name": name, "mode": rules.mode, "players": list(MODE_SPECS[rules.mode].players),
                     "heroes": bool(rules.heroes)} for name, rules in sorted(library.rulesets.items())]
        return JSONResponse({"ruleset": ruleset, "rulesets": rulesets, "agents": list(AGENT_NAMES),
                             "rulings": app_state.rulings.listing()})

    async def texts_handler(request: Request) -> Response:
        return JSONResponse(texts)

    async def open_replay(request: Request) -> Response:
        try:
            data = await request.json()
        except (ValueError, UnicodeDecodeError):
            raise Refused("the request is not JSON") from None
        if not isinstance(data, dict):
            raise Refused("the request is not a JSON object")
        key, replay, title = await asyncio.to_thread(app_state.open_replay, data)
        return JSONResponse({"id": key, "title": title, "players": replay.players,
                             "steps": [s.brief() for s in replay.steps], "turn_starts": replay.turn_starts})

    async def step(request: Request) -> Response:
        replay = app_state.replay(request.path_params["key"])
        at = max(0, min(request.path_params["step"], len(replay.steps) - 1))
        viewer = _viewer(request, replay)
        moment = await asyncio.to_thread(replay.at, at, viewer)
        return JSONResponse({**moment, "step": at, "detail": replay.steps[at].shown_to(viewer)})

    async def ruling_text(request: Request) -> Response:
        replay = app_state.replay(request.path_params["key"])
        if not replay.replays_answers:
            raise Refused("this replay is a ruling already")
        at = max(0, min(request.path_params["step"], len(replay.steps) - 1))
        try:
            text = await asyncio.to_thread(skeleton_at, replay, at)
        except ValueError as why:  # a game in which no turn began
            raise Refused(str(why)) from None
        return PlainTextResponse(text)

    async def play(socket: WebSocket) -> None:
        await socket.accept()
        try:
            start = await _received(socket)
            if not isinstance(start, dict):
                raise Refused("send the table first: {ruleset, players, seat, seed, agents}")
            session = app_state.table(start, person=True)
        except Refused as bad_start:
            await socket.send_json({"type": "refused", "why": str(bad_start)})
            await socket.close()
            return
        except WebSocketDisconnect:
            return
        loop = asyncio.get_running_loop()
        outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        def send(message: dict[str, Any]) -> None:  # from the game's thread
            loop.call_soon_threadsafe(outbox.put_nowait, message)

        game = PlayGame(library, session, send).start()
        await socket.send_json({"type": "started", "seat": session.seat, "players": session.players,
                                "ruleset": session.ruleset})
        pump = asyncio.create_task(_pump(socket, game, outbox))
        try:
            while True:
                message = await _received(socket)
                if not isinstance(message, dict) or message.get("type") != "answer":
                    await socket.send_json({"type": "refused", "why": "send {type: answer, question, index}"})
                    continue
                why = game.answer(message.get("question"), message.get("index"))
                if why:
                    await socket.send_json({"type": "refused", "why": why})
        except (WebSocketDisconnect, ValueError, RuntimeError):
            pass
        finally:
            game.leave()
            pump.cancel()

    routes = [Route("/", index), Route("/api/setup", setup), Route("/api/texts", texts_handler),
              Route("/api/replays", _refusing(open_replay), methods=["POST"]),
              Route("/api/replays/{key}/{step:int}", _refusing(step)),
              Route("/api/replays/{key}/{step:int}/ruling", _refusing(ruling_text)),
              WebSocketRoute("/ws/play", play),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    app = Starlette(routes=routes)
    app.state.sgs = app_state
    return app


async def _received(socket: WebSocket) -> Any:
    """The next message's JSON; None for one that is not JSON text (refused, and the game goes
    on: a page's bad message never ends its game)."""
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if not isinstance(text, str):  # a binary frame
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


async def _pump(socket: WebSocket, game: PlayGame, outbox: asyncio.Queue[dict[str, Any]]) -> None:
    """The game's messages to the page, as they come, until the game is over or left."""
    while True:
        message = await outbox.get()
        if message["type"] == "left":
            return
        if message["type"] == "over":
            message["full_log"] = game.log  # the game is over: its seed and whole log are the player's now
        await socket.send_json(message)
        if message["type"] in ("over", "error"):
            return
