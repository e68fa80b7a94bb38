"""Crashes the fuzzer (tests/test_fuzz.py) found, each pinned where it was fixed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from checking import assert_located, check

from sgs_dsl.compiler.library import check_paths, load_library
from sgs_dsl.engine.extra_turns import ExtraTurns
from sgs_dsl.engine.parts import Parts
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


def _one_skill_ruleset(tmp_path: Path, name: str, body: str) -> object:
    path = tmp_path / f"{name}.sgs"
    path.write_text(f'skill 測技 {name}_skill "測試" {{\n{body}\n}}\n'
                    f"hero 測甲 {name}_jia {{ kingdom 魏; gender male; hp 4; skills 測技; }}\n"
                    f"hero 測乙 {name}_yi {{ kingdom 魏; gender male; hp 4; skills 測技; }}\n"
                    f'ruleset {name} "測試" {{\n  mode identity;\n  decks standard, ex;\n'
                    f"  heroes standard, {name};\n  lords 測甲, 測乙;\n}}\n", encoding="utf-8")
    return load_library([path])


def test_cards_revealed_or_looked_at_and_left_go_back(tmp_path: Path) -> None:
    # reveal(1) / look(you, 2) outside a use left their cards in the processing area (an
    # invariant broken at the next free time); now a revealed card left goes to the discard
    # pile and cards only looked at go back on the deck top when the block ends
    for body in ("  on phase_start when phase.player == you { reveal(1); }",
                 "  on phase_start when phase.player == you { look(you, 2); }"):
        library = _one_skill_ruleset(tmp_path, "setout", body)
        results = [play_game(library, "setout", 4, seed, max_turns=12) for seed in range(4)]
        assert all(r.error is None and not r.violations for r in results), [(r.error, r.violations) for r in results]


def test_cards_looked_at_return_to_the_deck_top_in_order() -> None:
    from table import make_table

    from sgs_dsl.core.defs import Ctx

    game = make_table(load_library(), seats=[dict(role="lord"), dict()], deck_top=["桃 ♥3", "閃 ♦2"])
    game.hp.run_block(lambda ctx: game.choices.look(game.players[0], 2), Ctx(game, {}), "測試")
    assert [c.label() for c in game.deck[-2:]] == ["【閃】♦2", "【桃】♥3"]  # the top is the end
    assert not game.processing


def test_running_out_of_cards_loses_none(tmp_path: Path) -> None:
    # drawing more than the deck and the discard pile hold ended the game as a draw with the
    # cards already taken off the deck lost ("106 cards on the table, expected 108")
    library = _one_skill_ruleset(tmp_path, "drawall", "  on phase_start when phase.player == you { draw(you, 60); }")
    results = [play_game(library, "drawall", 2, seed, max_turns=20) for seed in range(3)]
    assert any(r.winner == "draw" and "牌堆與棄牌堆皆無牌" in r.reason for r in results), [r.reason for r in results]
    assert all(not r.violations and r.error is None for r in results)


def test_a_card_used_in_answer_has_no_target_of_its_own(tmp_path: Path) -> None:
    # a `use respond` card resolves on no target: its text reading `target` crashed
    # (AttributeError on None); the checker now says `target` may be none there
    path = tmp_path / "answer.sgs"
    path.write_text('card 測答 ce_da basic "測試" {\n  use respond;\n  effect { damage(target, 1); }\n}\n',
                    encoding="utf-8")
    found = check_paths([path])
    assert found and found[0].span.line == 3 and "may be none" in found[0].message, [d.render() for d in found]


def test_a_library_without_a_ruleset_is_reported_not_a_crash(tmp_path: Path) -> None:
    from sgs_dsl.rulings.parser import load_rulings

    cards = tmp_path / "cards.sgs"
    cards.write_text('card 測牌 ce_pai basic "測試" {\n  use play: self;\n}\n', encoding="utf-8")
    ruling = tmp_path / "x.ruling"
    ruling.write_text('ruling "x" {\n  source "t";\n  seat 1 lord;\n  seat 2 rebel;\n  phase 1 play;\n'
                      "  script { 1 ends; }\n  expect { seat 2 hp 4; }\n}\n", encoding="utf-8")
    library = load_library([cards])
    library.rulesets.clear()
    try:
        load_rulings(ruling, library)
    except Exception as problem:  # a located SgsError, never a KeyError or StopIteration
        assert "defines no ruleset" in str(problem) and "x.ruling:1:" in str(problem), problem
    else:
        raise AssertionError("a ruling with no ruleset to play by loaded")


def test_the_played_window_has_no_use(tmp_path: Path) -> None:
    # `on played { damage(use.user, 0); }` checked (the window claimed a use) and crashed on
    # the None it was given; a card played out is no use: `card`, `user`, `responded`
    body = "  on played { damage(use.user, 1); }"
    found = check(tmp_path, body)
    assert found and "use" in found[0].message and found[0].span.line == 2, [d.render() for d in found]
    assert check(tmp_path, "  on played when user == you and responded != none { draw(you, 1); }") == []


def test_targets_for_a_card_never_used_on_targets_are_none(tmp_path: Path) -> None:
    # choose_targets(you, 閃) crashed (a 閃 has no `use play` to choose targets by)
    library = _one_skill_ruleset(tmp_path, "notargets",
                                 "  on game_start { if count(choose_targets(you, 閃)) > 0 { draw(you, 1); } }")
    results = [play_game(library, "notargets", 4, seed, max_turns=2) for seed in range(3)]
    assert all(r.error is None and not r.violations for r in results), [r.error for r in results]


def test_a_value_kept_on_a_use_iterated_as_cards_is_checked(tmp_path: Path) -> None:
    # `set use.pool = count(use.targets);` then `[c in use.pool where ...]`: a TypeError
    # (len of an int) deep in the game; now a located rules error at the list
    path = tmp_path / "pool.sgs"
    path.write_text('card 測穀 ce_gu trick "測試" {\n  use play: all;\n  prepare { set use.pool = count(use.targets); }\n'
                    "  effect { gain(target, pick(target, [c in use.pool where in_processing(c)])); }\n}\n"
                    'deck cegu "測試" {\n  測穀 ♥3 ♥4 ♥5 ♥6 ♥7 ♥8 ♥9 ♥10;\n  殺 ♠7 ♠8 ♠9 ♠10 ♣2 ♣3 ♣4 ♣5 ♣6 ♣7 ♣8 ♣9;\n}\n'
                    'ruleset cegu "測試" {\n  mode identity;\n  decks cegu, standard;\n}\n', encoding="utf-8")
    library = load_library([path])
    errors = {play_game(library, "cegu", 4, seed, max_turns=12).error for seed in range(6)}
    assert any(e and e.startswith(f"rules error: {path}:4:") and "expected a list of cards" in e for e in errors), errors
    assert all(e is None or e.startswith("rules error: ") for e in errors), errors


def test_drawing_the_deck_dry_before_the_first_turn_is_a_draw(tmp_path: Path) -> None:
    # the opening hands set off `on drawn` draws until deck and discard pile are empty: the
    # game over escaped play_game as an exception
    library = _one_skill_ruleset(tmp_path, "drydeal",
                                 "  on drawn when move.player == you and you.hand < 200 { draw(you, 50); }")
    result = play_game(library, "drydeal", 4, 0, max_turns=4)
    assert result.winner == "draw" and "牌堆與棄牌堆皆無牌" in result.reason and result.error is None, result


class FewExtraTurns(ExtraTurns):
    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.most_in_a_row = 3  # a short runaway: the game may not end first


def test_runaway_extra_phases_and_turns_name_the_text_that_granted_them(tmp_path: Path) -> None:
    # `on phase_before { extra_phase(you, play); }` ran away with an unlocated rules error
    parts = Parts(extra_turns=FewExtraTurns)
    for i, (body, what) in enumerate((
            ("  on phase_before when phase.player == you { extra_phase(you, play); }", "extra phases"),
            ("  on turn_start when turn.player == you { extra_turn(you); }", "extra turns"))):
        name = f"runaway_grant{i}"  # a file of its own: libraries are cached by their paths
        library = _one_skill_ruleset(tmp_path, name, body)
        errors = {play_game(library, name, 2, seed, max_turns=300, parts=parts).error for seed in range(12)}
        located = [e for e in errors if e and what in e]
        assert located and all(e.startswith("rules error: ") and f"{name}.sgs:2:" in e for e in located), errors


def test_a_death_set_off_in_a_death_window_leaves_no_card_with_the_dead(tmp_path: Path) -> None:
    # 隨勢-like: the current player loses all hp when another dies; their death ended the turn
    # before the first dead player's cards were discarded ("dead but holds cards")
    import pytest
    from table import make_table

    from sgs_dsl.compiler.library import build
    from sgs_dsl.core.model import GameOver, TurnEnded
    from sgs_dsl.resources import library_files

    extra = tmp_path / "grief.sgs"
    extra.write_text('skill 哀技 ai_ji locked "測試" {\n  on death when death.player != you {\n'
                     "    lose_hp(you, you.hp);\n  }\n}\n", encoding="utf-8")
    lib = build([*library_files(), extra])
    game = make_table(lib, seats=[dict(role="lord", hp=2), dict(role="rebel", hp=1, hand=["閃 ♦2"]),
                                  dict(role="renegade")])
    lord, rebel, _ = game.players
    lord.skills = (lib.skills["ai_ji"],)
    game.skills.changed_skills()
    game.current = lord
    with pytest.raises((GameOver, TurnEnded)):  # the lord's death ends the game, or else the turn
        game.hp.damage(rebel, 1, source=lord)
    assert not rebel.alive and not lord.alive and rebel.hand == [] and lord.hand == []


def _plays_cleanly(tmp_path: Path, name: str, skill: str, hp: int = 4) -> None:
    """Two heroes with `skill` (the lords' choices) play 12 seeded 4-player games: no error, no
    invariant broken."""
    path = tmp_path / f"{name}.sgs"
    path.write_text(skill + f"hero 生甲 sheng_jia {{ kingdom 魏; gender male; hp {hp}; skills 生技; }}\n"
                    f"hero 生乙 sheng_yi {{ kingdom 魏; gender male; hp {hp}; skills 生技; }}\n"
                    f'ruleset {name} "測試" {{\n  mode identity;\n  decks standard, ex;\n'
                    f"  heroes standard, {name};\n  lords 生甲, 生乙;\n}}\n", encoding="utf-8")
    library = load_library([path])
    for seed in range(12):
        result = play_game(library, name, 4, seed, max_turns=40)
        assert result.error is None and not result.violations, (seed, result.error, result.violations)


def test_cards_revealed_in_a_delayed_tricks_use_windows_go_back(tmp_path: Path) -> None:
    # `on using { if count(reveal(1)) > 0 { ... } }` on a delayed trick's use (which opens the
    # use windows, opened since): the revealed card stayed in the processing area
    _plays_cleanly(tmp_path, "reveal_on_using", 'skill 生技 shengji "測試" {\n  on using {\n'
                   "    if count(reveal(1)) > 0 { draw(you, 1); }\n  }\n}\n")


def test_text_that_kills_its_player_then_moves_cards_to_it_sends_them_to_the_discard_pile(tmp_path: Path) -> None:
    # `on asked { damage(you, 1); ...; swap_hands(you, target); }`: the player died of its own
    # damage, then the swap handed it cards (a dead player holding cards). Every move to a dead
    # player's area now goes to the discard pile, and two hands swap only between the living
    _plays_cleanly(tmp_path, "dead_swap", 'skill 生技 shengji "測試" {\n  on damaged when damage.target == you {\n'
                   "    damage(you, 1);\n    swap_hands(you, damage.source or you);\n"
                   "    gain(you, first(cards_of(damage.source or you, hand)));\n  }\n}\n", hp=2)


def _keeps_on_the_use(tmp_path: Path, names: tuple[str, ...]) -> list[str]:
    """The logs of seeded games in which every seat's skill keeps values under `names` on
    every card it uses (a list, a number, true)."""
    sets = " ".join(f"set use.{n} = {v};" for n, v in zip(names, ("[you]", "1", "true"), strict=True))
    path = tmp_path / f"keeps_{len(list(tmp_path.iterdir()))}.sgs"
    heroes = "".join(f"hero 記{i} ji_{i} {{ kingdom 群; gender male; hp 4; skills 記用; }}\n" for i in range(6))
    path.write_text(f'skill 記用 jiyong "測試" {{\n  on using when use.user == you {{ {sets} }}\n}}\n{heroes}'
                    'ruleset jiyong "測試" { mode identity; decks standard, ex; heroes keeps_0, keeps_1; lords 記0; }\n'
                    .replace("keeps_0, keeps_1", path.stem), encoding="utf-8")
    assert check_paths([path]) == []
    library = load_library([path])
    results = [play_game(library, "jiyong", 5, seed, log=True, max_turns=40) for seed in range(4)]
    assert all(r.error is None for r in results), [r.error for r in results]
    return ["\n".join(r.log) for r in results]


def test_a_use_keeps_no_engine_record_a_text_can_reach(tmp_path: Path) -> None:
    # `set use._revealed = ...` crashed every game, `set use._ruled` any use of a card rule, and
    # `set use._uncounterable = true` made a card uncounterable: the engine kept its own
    # records among the text's values. Now a use's values are the text's alone, whatever
    # their names: the games are those of a text that keeps the same values under other names.
    private = _keeps_on_the_use(tmp_path, ("_revealed", "_ruled", "_uncounterable"))
    plain = _keeps_on_the_use(tmp_path, ("revealed_", "ruled_", "uncounterable_"))
    assert private == plain
    assert any("無懈可擊" in log for log in plain)  # a counter was in play
