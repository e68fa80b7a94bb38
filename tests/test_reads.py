"""Text that only reads (a condition, a target rule, a modifier's value, a definition) may call
only the builtins that read (`schema.READS`): such text is worked out whenever the engine needs to
know (listing a question's options, polling a window, several times over), so an effect there
would happen at no moment of the rules. Each effect there is a located error; the same call in a
block is accepted; and every reading builtin, called in seeded games, leaves the game as it was."""

from __future__ import annotations

import pytest
from checking import assert_located, check, check_text
from test_invariants import table_state

from sgs_dsl.compiler import runtime, schema
from sgs_dsl.compiler.library import load_library
from sgs_dsl.game import play_game

ACTS = "acts on the game, and this text only reads it"
HINT = "act in a block instead"


@pytest.mark.parametrize("body, name", [
    ("  on damaged when ask_use(you, 閃) { draw(you, 1); }", "ask_use"),
    ("  on phase_start when phase.player == you and confirm(you, \"是否摸牌？\") { draw(you, 1); }",
     "confirm"),
    ("  modify hand_limit += count(choose_players(you, others(you), min: 0, max: 2));", "choose_players"),
    ("  modify attack_range += 1 when discard(you, 1, optional: true);", "discard"),
    ("  forbid target(殺) when judge(you).card is red;", "judge"),
    ("  view_as 殺 from 1 red in hand when move(cards_of(you, hand), to: discard);", "move"),
    ("  active once when ask_play(you, 殺) { draw(you, 1); }", "ask_play"),
])
def test_an_effect_where_text_only_reads_is_a_located_error(tmp_path, body, name):
    found = check(tmp_path, body)
    assert_located(found, body, f"'{name}' is an effect: it {ACTS}", HINT)


def test_a_card_target_rule_may_not_act(tmp_path):
    text = 'card 試殺 shisha basic "測試" {\n  use play: one other where ask_use(it, 閃);\n  effect { damage(target, 1); }\n}\n'
    (first, *_) = check_text(tmp_path, text)
    assert "'ask_use' is an effect" in first.message and (first.span.line, first.span.column) == (2, 29)


def test_a_definition_may_not_act_and_a_procedure_may_not_be_called_to_read(tmp_path):
    define = 'define 問閃(p: player): bool = ask_use(p, 閃);\n'
    (first, *_) = check_text(tmp_path, define)
    assert "'ask_use' is an effect" in first.message and "a definition that acts is a procedure" in first.hint
    procedure = ('procedure 摸一(p: player) { draw(p, 1); }\n'
                 'skill 例 li "測試" {\n  modify hand_limit += 1 when 摸一(you) == none;\n}\n')
    (first, *_) = check_text(tmp_path, procedure)
    assert "'摸一' is a procedure: it acts on the game" in first.message and first.span.line == 3


@pytest.mark.parametrize("body", [
    "  on damaged when damage.target == you { if ask_use(you, 閃) { draw(you, 1); } }",
    "  active once { let t = choose_player(you, others(you)); if t != none and confirm(t, \"是否摸牌？\") { draw(t, 1); } }",
    "  on phase_start when phase.player == you { repeat count(choose_players(you, others(you), min: 0, max: 1)) { draw(you, 1); } }",
    "  modify attack_range += count_in_range(you) when in_range(you, current()) and marks(you, \"酒\") > 0;",
])
def test_the_same_effects_in_a_block_and_reads_in_a_condition_are_accepted(tmp_path, body):
    assert check(tmp_path, body) == []


@pytest.mark.parametrize("name", sorted(set(schema.BUILTINS) - schema.READS))
def test_every_builtin_that_is_not_a_read_is_refused_in_a_condition(tmp_path, name):
    body = f"  on damaged when {name}() {{ draw(you, 1); }}"
    found = check(tmp_path, body)
    assert found and f"'{name}' is an effect" in found[0].message, [d.message for d in found]


@pytest.mark.parametrize("ruleset, players", [("standard", 5), ("junzheng", 6), ("hegemony", 6), ("campus", 5)])
def test_every_reading_builtin_leaves_the_game_as_it_was(monkeypatch, ruleset, players):
    """Each call of a reading builtin in seeded games: the table, every player's marks and kept
    values, and the log are the same after it as before it."""
    called: set[str] = set()

    def state(game):
        kept = tuple((tuple(sorted(p.marks.items())), repr(sorted(p.memory.items(), key=repr))) for p in game.players)
        return table_state(game), kept, len(game.lines), game.windows_opened

    def watched(name, impl):
        def read(ctx, *args, **kwargs):
            before = state(ctx.game)
            value = impl(ctx, *args, **kwargs)
            assert state(ctx.game) == before, name
            called.add(name)
            return value
        return read

    for name in schema.READS:
        monkeypatch.setitem(runtime.IMPLS, name, watched(name, runtime.IMPLS[name]))
    load_library.cache_clear()  # compiled again with the watched builtins
    try:
        library = load_library()
        for seed in range(8):
            result = play_game(library, ruleset, players, seed, log=True)
            assert result.error is None, result.error
    finally:
        load_library.cache_clear()
    assert len(called) >= 5, sorted(called)  # the library's texts do read through them

