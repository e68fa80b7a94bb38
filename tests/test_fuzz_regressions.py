"""Crashes the fuzzer (tests/test_fuzz.py) found, each pinned where it was fixed."""

from __future__ import annotations

from pathlib import Path

from checking import assert_located, check

from sgs_dsl.compiler.library import check_paths, load_library
from sgs_dsl.game import play_game


def test_a_pattern_word_where_a_card_is_asked_for_is_a_load_error(tmp_path: Path) -> None:
    # `ask_use(you, red)` checked, then crashed the game with KeyError: None (the engine asks
    # for one card by its name); count_this_turn(you, red) silently counted nothing
    for call in ("ask_use(you, red)", "ask_play(you, trick)", "count_this_turn(you, black) > 0",
                 "can_use(you, any)"):
        body = f"  on damaged when damage.target == you {{ if {call} {{ draw(you, 1); }} }}"
        assert_located(check(tmp_path, body), body, "is a pattern word, not a card name", "name one card of the library")


def test_a_pattern_word_still_filters_a_choice(tmp_path: Path) -> None:
    # a keyword pattern (`match:`) only filters cards: a pattern word is right there
    path = tmp_path / "ok.sgs"
    path.write_text('skill 例 li "測試" {\n  active { throw(choose_cards(you, match: red)); }\n}\n',
                    encoding="utf-8")
    assert check_paths([path]) == []


def test_a_rules_error_while_the_opening_hands_are_drawn_ends_the_game(tmp_path: Path) -> None:
    # `on drawn { draw(you, 1); }` fires on the opening draw, before the first turn: its runaway
    # rules error escaped play_game (an internal error of `sgs run`) instead of ending the game
    path = tmp_path / "drawn_runaway.sgs"
    path.write_text('skill 摸連 molian "測試" {\n  on drawn { draw(you, 1); }\n}\n'
                    "hero 摸甲 mo_jia { kingdom 魏; gender male; hp 4; skills 摸連; }\n"
                    "hero 摸乙 mo_yi { kingdom 魏; gender male; hp 4; skills 摸連; }\n"
                    'ruleset molian "測試" {\n  mode identity;\n  decks standard, ex;\n'
                    "  heroes standard, drawn_runaway;\n  lords 摸甲, 摸乙;\n}\n", encoding="utf-8")
    library = load_library([path])
    result = play_game(library, "molian", 4, 0, max_turns=2)
    assert result.error is not None and result.error.startswith("rules error: ")
    assert "drawn_runaway.sgs:2:" in result.error and "runaway text" in result.error


def test_a_rule_the_engine_refuses_names_the_call(tmp_path: Path) -> None:
    # `extra_phase(you, draw)` out of your own turn: the engine's rules error had no location
    path = tmp_path / "extra_refused.sgs"
    path.write_text('skill 額階 ejie "測試" {\n  on damaged when damage.target == you {\n'
                    "    extra_phase(you, draw);\n  }\n}\n"
                    "hero 額甲 e_jia { kingdom 魏; gender male; hp 4; skills 額階; }\n"
                    "hero 額乙 e_yi { kingdom 魏; gender male; hp 4; skills 額階; }\n"
                    'ruleset ejie "測試" {\n  mode identity;\n  decks standard, ex;\n'
                    "  heroes extra_refused;\n  lords 額甲;\n}\n", encoding="utf-8")
    library = load_library([path])
    errors = [play_game(library, "ejie", 2, seed, max_turns=20).error for seed in range(10)]
    refused = [e for e in errors if e and "is not the player whose turn it is" in e]
    assert refused, errors
    assert all(e.startswith(f"rules error: {path}:3:5: extra_phase: ") for e in refused), refused


def test_passing_on_a_card_in_no_judge_area_is_a_located_rules_error(tmp_path: Path) -> None:
    # `on using { pass_on(card); }` on a card in the processing area crashed with AttributeError
    path = tmp_path / "pass_refused.sgs"
    path.write_text('skill 傳遞 chuandi "測試" {\n  on using when user == you {\n'
                    "    pass_on(card);\n  }\n}\n"
                    "hero 傳甲 chuan_jia { kingdom 魏; gender male; hp 4; skills 傳遞; }\n"
                    "hero 傳乙 chuan_yi { kingdom 魏; gender male; hp 4; skills 傳遞; }\n"
                    'ruleset chuandi "測試" {\n  mode identity;\n  decks standard, ex;\n'
                    "  heroes pass_refused;\n  lords 傳甲;\n}\n", encoding="utf-8")
    library = load_library([path])
    errors = [play_game(library, "chuandi", 2, seed, max_turns=10).error for seed in range(5)]
    assert errors and all(e and e.startswith(f"rules error: {path}:3:5: pass_on: ") for e in errors), errors
