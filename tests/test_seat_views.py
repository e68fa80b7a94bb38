"""A seat is shown only what it may know. The sweep: seeded games of every built-in ruleset,
every seat played through the terminal agent and watched at every log line and every question
(tests/seat_secrets.py says what each seat must not know). Then each kind of leak the sweep
found, undone, is found again by the sweep (so it can fail), and each fix has its own test."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from seat_secrets import (
    TracedWatchedGame,
    WatchedChoices,
    WatchedGame,
    WatchedZones,
    mixed_watching_agent,
    watched_parts,
    watching_agent,
)
from table import find, make_table

from sgs_dsl.cli import main
from sgs_dsl.compiler.library import load_library
from sgs_dsl.core.model import UsedCard
from sgs_dsl.engine.decisions import Option
from sgs_dsl.engine.kernel import Game
from sgs_dsl.engine.turn import Turn
from sgs_dsl.engine.view import SeatView
from sgs_dsl.game import run, setup
from sgs_dsl.modes import make_mode
from sgs_dsl.modes.hegemony import HegemonyMode
from sgs_dsl.modes.identity import IdentityMode

LIBRARY = load_library()
RULESETS = sorted(LIBRARY.rulesets)
SEEDS = range(4)  # every seat random
MIXED_SEEDS = range(2)  # heuristic agents (which read their view) at every other seat
HIDDEN_SKILL_SEED = 10  # 國戰, 5 players: a face-down 魯肅 declines 好施 (and others decline theirs)


def table_size(ruleset: str) -> int:
    """Five players, or the nearest count the ruleset's mode seats (3v3: 6; two renegades: 8)."""
    mode = make_mode(LIBRARY.ruleset(ruleset))
    for n in (5, 6, 8):
        try:
            mode.check_players(n)
        except ValueError:
            continue
        return n
    raise AssertionError(f"no table for {ruleset}")


TABLES = [(r, table_size(r)) for r in RULESETS] + [("standard", 8), ("hegemony", 8), ("campus", 8)]


def sweep(ruleset: str, players: int, seeds: range | list[int], traced: bool = False, mixed: bool = False,
          undone: dict[str, Any] | None = None) -> list[str]:
    """The leaks found in seeded games, one line each (none: every seat saw only its own);
    `undone`: parts of the watched game swapped for ones with a fix undone."""
    agents = mixed_watching_agent if mixed else watching_agent
    parts = watched_parts(traced, undone=undone)
    leaks = []
    for seed in seeds:
        game = setup(LIBRARY, ruleset, players, seed, log=True, agent_factory=agents, parts=parts)
        result = run(game)
        game.watch.finished()
        assert result.error is None and not result.violations, (seed, result.error, result.violations)
        leaks += [f"seed {seed}: {leak}" for leak in game.watch.leaks]
    return leaks


# ------------------------------------------------------------ the sweep
@pytest.mark.parametrize(("ruleset", "players"), TABLES)
def test_no_seat_is_shown_what_it_may_not_know(ruleset, players):
    assert sweep(ruleset, players, SEEDS) == []
    assert sweep(ruleset, players, MIXED_SEEDS, mixed=True) == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_seat_reads_the_trace_of_a_traced_game(ruleset):
    assert sweep(ruleset, table_size(ruleset), [0], traced=True) == []


def test_the_sweep_covers_every_built_in_ruleset():
    assert {r for r, _ in TABLES} == set(RULESETS) and len(RULESETS) >= 8


# ------------------------------------------------------------ the sweep finds each leak undone
class LeakyPicks(WatchedZones):
    def pick_card(self, chooser: Any, owner: Any, zone: str) -> Any:
        """pick_card naming another's hand cards (a leak of cards in option labels)."""
        cards = self.zone_cards(owner, zone)
        if not cards:
            return None
        return self.game.ask(chooser, "pick_card", f"選擇{owner.label()}的一張牌",
                             [Option(c.label(), c) for c in cards]).value


class LeakyGifts(WatchedChoices):
    def give(self, giver: Any, receiver: Any, cards: list) -> None:
        """give naming the cards given from hand to hand (仁德) to everyone."""
        self.game.log(f"{giver.label()}將{'、'.join(c.label() for c in cards)}交給{receiver.label()}")
        self.zones.to_hand(receiver, cards, "give")


class LeakySkillLines(WatchedGame):
    def log_skill(self, player: Any, skill: Any, text: str) -> None:
        self.log(text)


class LeakyHiddenLines(WatchedGame):
    def log_hidden(self, text: str, public: str, seats: frozenset[int]) -> None:
        self.log(text)


class LeakyTrace(TracedWatchedGame):
    def trace(self, text: str) -> None:
        self.add_line(text)


class LeakyJudgeFaces(Turn):
    def face(self, card: Any) -> str:
        return card.label()


class LeakyRoles(IdentityMode):
    def visible_side(self, viewer: Any, p: Any) -> Any:
        return p.role


class LeakyGenerals(HegemonyMode):
    def visible_generals(self, viewer: Any, p: Any) -> tuple[str, ...]:
        return tuple(g.name for g in self.generals[p.seat].cards) if p.seat in self.generals else ()


UNDONE = {
    # a line naming a skill of a face-down general, for everyone: the 好施 of a face-down 魯肅
    "skill lines": ("hegemony", HIDDEN_SKILL_SEED, dict(game=LeakySkillLines), "the skill 【好施】 of a face-down general"),
    # lines for some seats read by all: the general looked at (知己知彼), the heroes offered, cards
    "hidden lines": ("hegemony", 3, dict(game=LeakyHiddenLines), "the hidden general or hero 顏良文丑"),
    "hero offers": ("standard", 0, dict(game=LeakyHiddenLines), "the hidden general or hero"),
    "cards given": ("standard", 2, dict(choices=LeakyGifts), "the card"),
    "cards picked": ("standard", 1, dict(zones=LeakyPicks), "the card"),
    "judge faces": ("standard", 0, dict(turn=LeakyJudgeFaces), "not shown as the 【樂不思蜀】 it counts as"),
    "roles": ("standard", 0, dict(mode=LeakyRoles), "the side of seat"),
    "generals": ("hegemony", 0, dict(mode=LeakyGenerals), "the hidden general or hero"),
}


@pytest.mark.parametrize("undone", sorted(UNDONE))
def test_the_sweep_finds_a_leak_once_its_fix_is_undone(undone):
    ruleset, seed, parts, found = UNDONE[undone]
    leaks = sweep(ruleset, 5, [seed], undone=parts)
    assert any(found in leak for leak in leaks), leaks


def test_the_sweep_finds_the_trace_read_by_the_seats_without_its_fix():
    leaks = sweep("hegemony", 5, [0], traced=True, undone=dict(game=LeakyTrace))
    assert any("〔" in leak for leak in leaks), leaks


# ------------------------------------------------------------ one test per fix
def readers(game: Game, index: int) -> list[str]:
    """What each seat reads of log line `index`."""
    return [SeatView(game, seat).log_lines(index)[0] for seat in range(len(game.players))]


def test_a_face_down_general_declining_its_skill_is_seen_by_its_owner_only():
    game = setup(LIBRARY, "hegemony", 5, HIDDEN_SKILL_SEED, log=True)
    run(game)
    declined = [i for i, line in enumerate(game.lines) if "暗將不發動【好施】" in line or "暗將·暗將不發動【好施】" in line]
    assert declined, "the seed no longer has 好施 declined face down"
    for index in declined:
        seat = int(game.lines[index].split("號位")[0]) - 1
        assert [text == game.lines[index] for text in readers(game, index)] == [s == seat for s in range(5)]
        assert all(text == "" for s, text in enumerate(readers(game, index)) if s != seat)


def test_a_skill_line_is_public_once_the_general_giving_the_skill_is_face_up():
    game = setup(LIBRARY, "hegemony", 5, 1, log=True)
    mode, p = game.mode, game.players[2]
    skill = mode.generals[p.seat].cards[1].skills[0]
    game.log_skill(p, skill, f"{p.label()}不發動【{skill.name}】")
    assert readers(game, len(game.lines) - 1) == ["", "", game.lines[-1], "", ""]
    mode.show(game, p, 1)
    game.log_skill(p, skill, f"{p.label()}不發動【{skill.name}】")
    assert set(readers(game, len(game.lines) - 1)) == {game.lines[-1]}


def test_a_general_looked_at_is_named_to_its_viewer_and_its_owner_only():
    game = setup(LIBRARY, "hegemony", 5, 1, log=True)
    viewer, owner = game.players[0], game.players[3]
    name = game.mode.look_general(game, viewer, owner)
    lines = readers(game, len(game.lines) - 1)
    assert name and [name in line for line in lines] == [True, False, False, True, False]
    assert lines[1] == f"{viewer.label()}觀看{owner.label()}的主將" or lines[1] == f"{viewer.label()}觀看{owner.label()}的副將"


def test_a_face_down_general_losing_its_skills_is_named_to_its_owner_only():
    game = setup(LIBRARY, "hegemony", 5, 1, log=True)
    p = game.players[4]
    name = game.mode.generals[p.seat].cards[0].name
    game.mode.lose_skills(game, p, 0)
    assert [name in line for line in readers(game, len(game.lines) - 1)] == [False, False, False, False, True]
    assert readers(game, len(game.lines) - 1)[0] == f"{p.label()}失去主將的所有技能"


def test_no_seat_reads_a_trace_line():
    game = setup(LIBRARY, "standard", 5, 2, log=True)
    game.tracing = True
    run(game, max_turns=3)
    traced = [i for i, line in enumerate(game.lines) if line.startswith("  〔")]
    assert len(traced) > 100
    assert all(set(readers(game, i)) == {""} for i in traced)


def test_a_card_converted_into_a_delayed_trick_shows_as_that_trick():
    game = make_table(seats=[dict(hand=["閃 ♦2"], role="lord"), dict(judge=["閃電 ♠A"])],
                      answers={0: ["【樂不思蜀】(【閃】♦2)"]})
    card, target = find(game, "閃 ♦2"), game.players[1]
    game.using.use_card(game.players[0], UsedCard.virtual(LIBRARY.cards["樂不思蜀"], (card,)), [target], "play")
    converted = "【樂不思蜀】(【閃】♦2)"
    for seat in (0, 1):  # the table, for everyone
        assert SeatView(game, seat).players()[1].judge == ("【閃電】♠A", converted)
    picked = game.zones.pick_card(game.players[0], target, "judge")  # the question names it so too
    assert picked is card and converted in game.agents[0].asked[-1].labels()
    game.zones.throw(picked)
    assert game.lines[-1] == f"{converted}被棄置（{target.label()}判定區）"
    assert SeatView(game, 0).players()[1].judge == ("【閃電】♠A",)


PRIVATE_PILE = """
skill 密藏 micang "出牌階段，你可以將一張手牌扣置於武將牌上，稱為「密」。" {
  pile 密, private;
  active when you.hand > 0 {
    move(choose_cards(you), to: 密, of: you);
  }
}
"""


def test_cards_into_or_out_of_a_private_pile_are_named_to_those_who_see_them_only(tmp_path: Path):
    path = tmp_path / "private_pile.sgs"
    path.write_text(PRIVATE_PILE, encoding="utf-8")
    lib = load_library([path])
    game = make_table(lib, seats=[dict(hand=["殺 ♠7", "閃 ♦2"]), dict(), dict()])
    owner, taker = game.players[0], game.players[1]
    kill, dodge = find(game, "殺 ♠7"), find(game, "閃 ♦2")
    assert game.moves.move_by_text([kill], "pile:密", owner, "put", owner)  # a hand into a private pile
    put = readers(game, len(game.lines) - 1)
    assert "【殺】♠7" in put[0] and "【殺】♠7" not in put[1] + put[2] and put[2].startswith("1張牌")
    game.zones.gain(taker, kill)  # out of the private pile into another's hand: the two of them read it
    assert ["【殺】♠7" in line for line in readers(game, len(game.lines) - 1)] == [True, True, False]
    refused = not game.moves.move_by_text([dodge], "equip", owner, "put", owner)  # a hand card refused
    lines = readers(game, len(game.lines) - 1)
    assert refused and "【閃】♦2" in lines[0] and lines[1] == f"1張牌不能移至{owner.label()}的裝備區"


def test_a_card_shown_is_named_to_everyone_and_a_card_looked_at_to_its_viewer():
    game = make_table(seats=[dict(hand=["殺 ♠7"]), dict(hand=["閃 ♦2"]), dict()])
    game.zones.show_cards([find(game, "殺 ♠7")])
    assert set(readers(game, len(game.lines) - 1)) == {"展示【殺】♠7"}
    game.zones.look_at(game.players[0], [find(game, "閃 ♦2")])
    assert ["【閃】♦2" in line for line in readers(game, len(game.lines) - 1)] == [True, True, False]


def test_sgs_play_prints_no_skill_another_face_down_general_declines(tmp_path):
    """`sgs play`, 國戰, seed 1: another seat declines a skill while face down (the whole log,
    played again by `sgs run --answers`, says so); the person at seat 1 sees nothing of it."""
    saved = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["play", "-r", "hegemony", "--seat", "1", "--seed", "1", "--agents", "random",
                                       "--save", str(saved)], input="1\n" * 3000)
    assert result.exit_code == 0 and "winner" in result.output, result.output[-500:]
    assert "暗將·暗將" in result.output
    declined = re.compile(r"^[2-5]號位暗將·暗將不發動【", re.M)
    assert not declined.findall(result.output)
    whole = CliRunner().invoke(main, ["run", "--answers", str(saved)])
    assert whole.exit_code == 0 and declined.findall(whole.output), whole.output[-500:]
