"""The page of `sgs serve` in a real browser (Debian's Chromium driven by Playwright): a game
played by clicking to its end and replayed by `sgs run --answers` to the same log, a forged
answer refused, a ruling and a seeded game stepped through, a moment's link reopened.

With SGS_WRITE_SCREENSHOTS=1 the tests also write docs/img/web-*.png (docs/web.md)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else shutil.which("chromium")


def _missing(why: str) -> NoReturn:
    """Skip the module, or fail it where the browser is required (CI sets SGS_REQUIRE_BROWSER=1)."""
    if os.environ.get("SGS_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{why} (SGS_REQUIRE_BROWSER=1)", pytrace=False)
    pytest.skip(why, allow_module_level=True)


if CHROMIUM is None:
    _missing("no Chromium installed (/usr/bin/chromium): the browser tests need Debian's chromium")
try:
    import uvicorn
    from playwright import sync_api
except ImportError as error:
    _missing(f"the browser tests need playwright and the web extra: {error.name} is missing")

SHOTS = os.environ.get("SGS_WRITE_SCREENSHOTS") == "1"
RULING = ROOT / "tests" / "rulings" / "basic_cards.ruling"
WAIT = 15_000  # ms: the longest any one step of the page may take


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    from sgs_dsl.compiler.library import load_library
    from sgs_dsl.web.server import make_app

    app = make_app(load_library(), "standard", [RULING])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, base_url: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-TW")
    page = context.new_page()
    page.set_default_timeout(WAIT)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base_url)
    page.wait_for_function("window.sgsReady === true")
    yield page
    context.close()
    assert not errors, f"the page's scripts failed: {errors}"


def shot(page: Any, name: str) -> None:
    if SHOTS:
        (ROOT / "docs" / "img").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ROOT / "docs" / "img" / f"web-{name}.png"))


def start(page: Any, ruleset: str, players: int, seed: int, agents: str = "random") -> None:
    page.select_option("#play-ruleset", ruleset)
    page.fill("#play-players", str(players))
    page.fill("#play-seat", "1")
    page.select_option("#play-agents", agents)
    page.fill("#play-seed", str(seed))
    page.click("#play-start")


def next_question(page: Any) -> bool:
    """Wait for the next question (True) or the game's end (False)."""
    page.wait_for_function("window.sgsLastOver || (window.sgsState.question && document.querySelector('#confirm'))")
    return not page.evaluate("!!window.sgsLastOver")


def answer_first(page: Any) -> None:
    page.click("#question .option >> nth=0")
    page.click("#confirm")


# ---------------------------------------------------------------- play
def test_a_game_clicked_to_its_end_replays_to_the_same_log_in_sgs_run(page: Any, tmp_path: Path) -> None:
    start(page, "basic", 2, seed=11)
    answered = 0
    while next_question(page):
        if page.locator("#cancel").count():
            page.click("#cancel")  # decline whatever can be declined: the game must still end
        else:
            answer_first(page)
        answered += 1
        assert answered < 2000, "the game does not end"
    over = page.evaluate("window.sgsLastOver")
    roles = page.evaluate("window.sgsState.texts.roles")
    assert over["winner"] and page.text_content("#winner") == roles.get(over["winner"], over["winner"])
    assert len(over["session"]["answers"]) == answered > 0
    href = page.get_attribute("#save-game", "href")
    prefix = "data:application/json;charset=utf-8,"
    assert href.startswith(prefix)
    saved = json.loads(urllib.parse.unquote(href[len(prefix):]))
    assert saved == over["session"] and saved["seed"] == 11
    file = tmp_path / "game.json"
    file.write_text(json.dumps(saved, ensure_ascii=False), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "sgs_dsl.cli", "run", "--answers", str(file)], capture_output=True,
                         text=True, env=env, cwd=ROOT, timeout=60)
    assert run.returncode == 0, run.stderr
    printed = run.stdout.splitlines()
    assert printed[0] == "# ruleset basic, 2 players, seed 11"
    assert printed[1:-1] == over["full_log"]
    assert printed[-1].startswith(f"winner: {over['winner']} ")
    page.click("#replay-this")  # the game just played, step by step
    page.wait_for_function("window.sgsReplay && window.sgsReplay.moment")
    assert page.evaluate("window.sgsReplay.steps.length") >= len(over["full_log"])


def test_a_forged_answer_is_refused_and_the_game_goes_on(page: Any) -> None:
    start(page, "standard", 4, seed=7)
    assert next_question(page)
    asked = page.evaluate("window.sgsState.question")
    page.evaluate("([id, index]) => window.sgsSocket.send(JSON.stringify({type: 'answer', question: id, index}))",
                  [asked["id"], len(asked["options"]) + 5])
    page.wait_for_function("document.querySelector('#play-refused').textContent.includes('refused')")
    assert "is not an option" in page.text_content("#play-refused")
    page.evaluate("(id) => window.sgsSocket.send(JSON.stringify({type: 'answer', question: id + 1, index: 0}))",
                  asked["id"])
    page.wait_for_function("window.sgsLastRefused && window.sgsLastRefused.includes('not the one asked')")
    answer_first(page)  # the question is still open: a real answer is taken
    assert next_question(page)
    assert page.evaluate("window.sgsState.question.id") == asked["id"] + 1
    playable = page.locator("#play-hand .card.playable")
    assert playable.count() > 0  # the opening's play phase: a card in hand is an option
    page.click("#play-hand .card.playable >> nth=0")  # clicked in the hand, it selects that option
    assert page.text_content("#question .option.chosen").strip() == playable.first.text_content().strip()
    assert page.is_enabled("#confirm")


def test_ten_seats_fit_the_table_without_overlapping(page: Any) -> None:
    start(page, "standard", 10, seed=3, agents="heuristic")
    for _ in range(3):  # past the heroes' choice, into the game
        assert next_question(page)
        answer_first(page)
    assert next_question(page)
    boxes = [page.locator(f"#play-board .seat[data-seat='{n}']").bounding_box() for n in range(1, 11)]
    board = page.locator("#play-board").bounding_box()
    for i, a in enumerate(boxes):
        assert board["x"] <= a["x"] and a["x"] + a["width"] <= board["x"] + board["width"] + 1
        for b in boxes[i + 1:]:
            apart = (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                     or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])
            assert apart, f"seats overlap: {a} {b}"
    assert page.locator("#play-board .seat.current").count() == 1
    assert page.locator("#play-board .seat.me[data-seat='1']").count() == 1
    page.hover("#play-board .seat[data-seat='2'] .hero")
    hero = page.text_content("#play-board .seat[data-seat='2'] .hero")
    assert page.is_visible("#tip") and page.text_content("#tip").startswith(hero) and "體力" in page.text_content("#tip")
    page.hover("#play-hand .card >> nth=0")
    card = page.text_content("#play-hand .card >> nth=0")
    assert page.is_visible("#tip") and card[card.index("【"):card.index("】") + 1] in page.text_content("#tip")
    shot(page, "play")


# ---------------------------------------------------------------- replay
def at_step(page: Any, step: int) -> None:
    page.wait_for_function("(n) => window.sgsReplay && window.sgsReplay.moment && window.sgsReplay.moment.step === n", arg=step)


def test_a_served_ruling_steps_forward_and_back_and_by_a_seats_view(page: Any) -> None:
    page.click("#tab-replay")
    page.select_option("#replay-ruling", json.dumps(["basic_cards.ruling", "殺被閃抵消"], ensure_ascii=False,
                                                    separators=(",", ":")))
    page.click("#replay-ruling-open")
    at_step(page, 0)
    steps = page.evaluate("window.sgsReplay.steps.length")
    assert page.text_content("#replay-title") == "殺被閃抵消"
    for n in range(1, steps):
        page.click("#rp-forward")
        at_step(page, n)
    page.click("#rp-forward")  # at the end: it stays there
    at_step(page, steps - 1)
    whole = page.locator("#replay-log .line").count()
    assert "被抵消" in page.text_content("#replay-log")
    page.click("#rp-back")
    at_step(page, steps - 2)
    assert page.locator("#replay-log .line").count() < whole
    kinds = [s["kind"] for s in page.evaluate("window.sgsReplay.steps")]
    asked = max(i for i, kind in enumerate(kinds) if kind == "question" and i < steps - 2)
    page.click("#rp-q-back")
    at_step(page, asked)
    assert page.locator("#rp-detail .option.answered").count() == 1
    shot(page, "ruling")
    page.select_option("#rp-view", "2")
    page.wait_for_function("window.sgsReplay.moment.table.seat === 1")
    assert page.locator("#replay-board .seat.me[data-seat='2']").count() == 1
    assert "view=2" in page.url and "ruling=basic_cards.ruling" in page.url
    page.click("#rp-skeleton")  # a ruling is a ruling already: the server says so
    page.wait_for_function("document.querySelector('#rp-skeleton-text').value.startsWith('error')")
    page.select_option("#replay-file-kind", "ruling")  # the same file uploaded, another of its rulings
    page.set_input_files("#replay-file", str(RULING))
    page.fill("#replay-file-title", "殺每出牌階段限一次")
    page.click("#replay-file-open")
    page.wait_for_function("document.querySelector('#replay-title').textContent === '殺每出牌階段限一次'")
    at_step(page, 0)
    assert "ruling=" not in page.url  # an uploaded file has no link: it is not on the server


def test_a_seeded_replay_jumps_by_turn_and_question_and_its_link_reopens_the_moment(page: Any, browser: Any) -> None:
    page.click("#tab-replay")
    page.select_option("#replay-ruleset", "standard")
    page.fill("#replay-players", "4")
    page.fill("#replay-seed", "5")
    page.click("#replay-seed-open")
    at_step(page, 0)
    replay = page.evaluate("({steps: window.sgsReplay.steps, turns: window.sgsReplay.turn_starts})")
    page.click("#rp-turn-forward")
    at_step(page, replay["turns"][0])
    page.click("#rp-turn-forward")
    at_step(page, replay["turns"][1])
    page.click("#rp-turn-back")
    at_step(page, replay["turns"][0])
    after = next(i for i, s in enumerate(replay["steps"]) if s["kind"] == "question" and i > replay["turns"][0])
    page.click("#rp-q-forward")
    at_step(page, after)
    assert page.text_content("#rp-answer").strip()
    assert page.locator("#rp-detail .option.answered").count() == 1
    page.click("#rp-forward")
    at_step(page, after + 1)
    page.click("#rp-q-back")
    at_step(page, after)
    page.click("#rp-skeleton")  # the moment as a ruling's text, to download
    page.wait_for_function("document.querySelector('#rp-skeleton-text').value !== ''")
    skeleton = page.input_value("#rp-skeleton-text")
    assert skeleton.startswith("ruling ") and "turn 1;" in skeleton, skeleton[:300]
    href = page.get_attribute("#rp-skeleton-download", "href")
    assert urllib.parse.unquote(href.split(",", 1)[1]) == skeleton
    shot(page, "replay")
    page.select_option("#rp-view", "3")
    page.wait_for_function("window.sgsReplay.moment.table.seat === 2")
    moment = page.evaluate("window.sgsReplay.moment")
    assert f"step={after}" in page.url and "seed=5" in page.url
    other = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    other.set_default_timeout(WAIT)
    try:
        other.goto(page.url)
        at_step(other, after)
        assert other.evaluate("window.sgsReplay.moment") == moment
        assert other.input_value("#rp-view") == "3"
    finally:
        other.context.close()
