"""質疑 (a face-down card used as a declared name) and recasting as an option of a conversion,
at unit level: the checker's located errors for `declared(...)`, `face_down`, `for ... or
recast`, `forbid question` and the `questioned` window's fields; the offers a declared set
makes; a questioned card read through its holder's filters. The forms in play are the rulings
of tests/rulings/mech_question.ruling."""

from __future__ import annotations

from pathlib import Path

import pytest
from checking import assert_located, check
from table import make_table

from sgs_dsl.compiler.library import load_library
from sgs_dsl.syntax.names import normalize

HEROES = Path(__file__).parent / "data" / "mech_question.sgs"


@pytest.fixture(scope="module")
def library():
    return load_library([HEROES])


def table(library, skills: tuple[str, ...], hand: list[str], answers: dict | None = None):
    game = make_table(library, seats=[dict(role="lord", hand=hand), dict(role="rebel")], answers=answers or {})
    game.players[0].skills = tuple(library.skills[normalize(s)] for s in skills)
    game.skills.changed_skills()
    return game


# ---------------------------------------------------------------- the checker

@pytest.mark.parametrize(("body", "message", "hint"), [
    ("view_as declared(equip) from 1 any in hand face_down;", "cannot be one", "declared(basic|ordinary)"),
    ("view_as declared(trick) from 1 any;", "樂不思蜀", "declare from basic cards and ordinary tricks"),
    ("view_as 殺(basic) from 1 any;", "expected `declared(...)`", "view_as declared(basic|ordinary)"),
    ("view_as declared from 1 any;", "`declared` needs the set of names", "view_as declared(basic|ordinary)"),
    ("view_as declared(♠) from 1 any;", "no card of the library matches", "a set of card names or types"),
    ("view_as 殺 from 1 any for use or recats;", "unknown view_as mode 'recats'", "recast"),
    ("view_as 殺 from 1 any for use or recast;", "殺 cannot be recast", "`recast 1;`"),
    ("view_as 鐵索連環 from 1 ♣ for use or use;", "the mode 'use' is given twice", "name each mode once"),
    ("forbid questoin(any);", "unknown forbid 'questoin'", "question"),
    ("on questioned { set question.genuine = 1; }", "'question.genuine' is bool, not int", ""),
    ("on questioned { set question.declared = \"殺\"; }", "'question.declared' cannot be changed", "genuine"),
])
def test_checker_errors(tmp_path: Path, body: str, message: str, hint: str) -> None:
    assert_located(check(tmp_path, body), body, message, hint)


@pytest.mark.parametrize("body", [
    "view_as declared(basic|ordinary) from 1 any in hand face_down;",
    "view_as declared(殺|閃) from 1 red face_down for play;",
    "view_as 鐵索連環 from 1 ♣ in hand for use or recast;",
    "forbid question(殺) for others when user.hp > 1;",
    "on questioned when question.user == you and not question.genuine { draw(you, count(question.questioners)); }",
])
def test_forms_accepted(tmp_path: Path, body: str) -> None:
    assert check(tmp_path, body) == []


# ---------------------------------------------------------------- the offers

def test_declared_set_offers_each_usable_name_once(library) -> None:
    game = table(library, ("試惑",), ["桃 ♥3"])
    labels = [label for label, _, sub in game.using.castable(game.players[0], "play") if sub[0] == "view_as"]
    names = [label.split("【")[2].split("】")[0] for label in labels]
    assert "殺" in names and "南蠻入侵" in names and "無中生有" in names
    assert "閃" not in names and "無懈可擊" not in names  # not usable at free time
    assert "樂不思蜀" not in names and len(names) == len(set(names))
    assert all(label.endswith("（扣置）") for label in labels)


def test_declared_set_answers_with_the_asked_name_only(library) -> None:
    game = table(library, ("試惑",), ["桃 ♥3"])
    dodge = library.cards["閃"]
    answers = [label for label, kind, sub in game.using.castable(game.players[0], "respond", lambda c: c.kind is dodge)]
    assert answers == ["【試惑】視為【閃】（扣置）"]


def test_face_down_card_hides_its_face(library) -> None:
    game = table(library, ("試惑",), ["桃 ♥3"], answers={0: ["【桃】♥3"]})
    strike = library.cards["殺"]
    va = next(sub for label, kind, sub in game.using.castable(game.players[0], "play") if kind is strike)
    card = game.using.produce(game.players[0], strike, va)
    assert card.face_down and card.suit is None and card.color is None
    assert card.label() == "【殺】(扣置)" and card.subcards[0].kind.name == "桃"


def test_recast_offered_only_with_a_card_to_make_it(library) -> None:
    game = table(library, ("試環",), ["閃 ♦2", "殺 ♣5"])
    assert [o.label for o in game.turn.recast_options(game.players[0])] == ["【試環】當【鐵索連環】重鑄"]
    game = table(library, ("試環",), ["閃 ♦2"])
    assert game.turn.recast_options(game.players[0]) == []


def test_a_name_is_declared_from_the_cards_the_game_is_played_with(library) -> None:
    # the table's deck is the 108 cards of the standard and EX decks: no 火殺, 酒, 鐵索連環
    game = table(library, ("試惑",), ["桃 ♥3"])
    names = {label.split("【")[2].split("】")[0] for label, _, sub in game.using.castable(game.players[0], "play")
             if sub[0] == "view_as"}
    assert "殺" in names and not names & {"火殺", "雷殺", "酒", "鐵索連環", "火攻"}
