"""The game-start window (遊戲開始時) and the hero cards not in play: the checker's located
errors for the new forms, and the engine's side that rulings cannot show (the rulings are in
tests/rulings/mech_start.ruling, the test heroes in tests/data/mech_start.sgs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgs_dsl.compiler.library import check_paths, load_library
from sgs_dsl.core.model import RulesError
from sgs_dsl.game import run, setup

MECH = Path(__file__).parent / "data" / "mech_start.sgs"
POOL = ("始將甲", "始將乙", "始將丙", "始將丁", "始將戊")


@pytest.fixture(scope="module")
def lib():
    return load_library([MECH])


def errors(tmp_path: Path, body: str) -> list[tuple[int, str, str]]:
    path = tmp_path / "bad.sgs"
    path.write_text(f'skill 例 li "測試。" {{\n  on game_start {{\n    {body}\n  }}\n}}\n', encoding="utf-8")
    return [(d.span.line, d.message, d.hint) for d in check_paths([path])]


def test_the_window_opens_once_after_setup_and_before_the_first_turn(lib):
    game = setup(lib, "mech_start", 2, seed=1)
    game.tracing = True
    assert all(len(p.hand) == 4 for p in game.players)  # hands dealt, the window not yet opened
    run(game, max_turns=1)
    lines = game.lines
    opened = [i for i, line in enumerate(lines) if "〔時機〕遊戲開始時" in line]
    first_turn = next(i for i, line in enumerate(lines) if "〔時機〕回合開始前" in line)
    assert len(opened) == 1 and opened[0] < first_turn


def test_the_unused_heroes_are_the_pool_less_the_seated_ones_in_library_order(lib):
    game = setup(lib, "mech_start", 2, seed=4)
    seated = {p.name for p in game.players}
    assert game.hero_pool == POOL
    assert game.start.unused_heroes() == [h for h in POOL if h not in seated]
    game.state.set_hero(game.players[1], lib.heroes[game.start.unused_heroes()[0]])  # the old card goes back
    assert game.players[1].name not in game.start.unused_heroes() and len(game.start.unused_heroes()) == 3


def test_a_table_of_blank_heroes_has_no_unused_heroes():
    game = setup(load_library(), "basic", 4, seed=2)
    assert game.start.unused_heroes() == []
    assert game.start.choose_hero(game.players[0], game.start.unused_heroes()) is None


def test_choose_hero_offers_only_heroes_of_the_library(lib):
    game = setup(lib, "mech_start", 2, seed=1)
    assert game.start.choose_hero(game.players[0], ["不存在", "也不存在"]) is None


def test_a_hero_name_written_as_text_is_checked_at_load_time(tmp_path):
    [(line, message, _)] = errors(tmp_path, 'set_hero(you, "無此將");')
    assert (line, message) == (3, "unknown hero '無此將'")


def test_a_hero_name_unknown_at_run_time_is_a_located_rules_error(tmp_path):
    path = tmp_path / "odd.sgs"
    path.write_text('skill 例 li "測試。" {\n  on game_start {\n    let n = "無此將"; set_hero(you, n);\n  }\n}\n'
                    'hero 例將 lijiang { kingdom 魏; gender male; hp 4; skills 例; }\n'
                    'hero 例將乙 lijiang_yi { kingdom 魏; gender male; hp 4; }\n'
                    'ruleset odd "測試" { mode identity; decks standard, ex; heroes odd; lords 例將; }\n',
                    encoding="utf-8")
    game = setup(load_library([path]), "odd", 2, seed=0)
    with pytest.raises(RulesError, match=r"odd\.sgs:3:34: no hero of the library is named '無此將'"):
        game.start.start_game()


def test_a_hero_argument_must_be_a_name_or_text(tmp_path):
    [(line, message, hint)] = errors(tmp_path, "set_hero(you, you.hp);")
    assert (line, message) == (3, "expected a hero name here, found int")
    assert "choose_hero(you, unused_heroes())" in hint


def test_choose_hero_needs_a_list_of_text(tmp_path):
    [(line, message, _)] = errors(tmp_path, "choose_hero(you, others(you));")
    assert (line, message) == (3, "expected strs, found players")


def test_the_game_start_window_has_no_event_variable(tmp_path):
    [(line, message, _)] = errors(tmp_path, "draw(phase.player, 1);")
    assert line == 3 and "phase" in message


def test_a_literal_hero_name_is_still_checked_against_the_library(tmp_path):
    [(line, message, _)] = errors(tmp_path, "set_hero(you, 始將丁);")
    assert (line, message) == (3, "unknown hero '始將丁'")
