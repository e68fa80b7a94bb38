"""The 3v3 team mode of seed 003 (mode team3v3, ruleset campus_3v3): seats and teams, the order
of team actions over whole games, victory by a leader's death, the rulings' `play N turns` and
3v3 roles, and the CLI's player count for a mode that seats only 6."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from sgs_dsl.cli import main
from sgs_dsl.compiler.library import load_library
from sgs_dsl.core.modes import MODE_SPECS
from sgs_dsl.game import run, setup
from sgs_dsl.rulings.parser import parse_rulings
from sgs_dsl.syntax.diagnostics import SgsError

TURN = re.compile(r"—— 第\d+回合：(\d)號位")
DEATH = re.compile(r"^(\d)號位\S*陣亡")
ACTION = re.compile(r"^(甲|乙)隊行動：\d號位\S*選擇(主將行動|副將行動)$")


@pytest.fixture(scope="module")
def library():
    return load_library()


def played(library, seed: int):
    game = setup(library, "campus_3v3", 6, seed, log=True)
    return game, run(game)


def test_teams_sit_together_leaders_at_one_and_four(library):
    game, result = played(library, 1)
    assert [p.role for p in game.players] == ["leader", "follower", "follower"] * 2
    assert result.roles == ("team_a",) * 3 + ("team_b",) * 3
    assert all(p.max_hp == library.heroes[p.name].hp for p in game.players)  # no lord bonus


def actions(lines: list[str]) -> list[tuple[str, str, list[int], set[int]]]:
    """Each team action of a game's log: (team, choice, the seats whose turns it played, the
    seats dead as it was chosen); the first action's choice is "" (nobody chooses it)."""
    found: list[tuple[str, str, list[int], set[int]]] = []
    dead: set[int] = set()
    for line in lines:
        if (m := ACTION.match(line)):
            found.append((m.group(1), m.group(2), [], set(dead)))
        elif (t := TURN.match(line)):
            if not found:
                found.append(("甲" if t.group(1) == "1" else "乙", "", [], set()))
            found[-1][2].append(int(t.group(1)))
        elif (d := DEATH.match(line)):
            dead.add(int(d.group(1)))
    return found


@pytest.mark.parametrize("seed", range(6))
def test_team_actions_alternate_leader_alone_or_every_living_follower(library, seed):
    game, result = played(library, seed)
    assert result.error is None and not result.violations
    found = actions(game.lines)
    assert found[0][1] == "" and found[0][2][0] in (1, 4)  # the first action is a leader's, unasked
    for before, after in zip(found, found[1:], strict=False):
        assert before[0] != after[0]  # the teams alternate
    died = {int(d.group(1)) for line in game.lines if (d := DEATH.match(line))}
    for i, (team, choice, seats, dead) in enumerate(found[1:], 1):
        leader = 1 if team == "甲" else 4
        if choice == "主將行動":
            assert seats == [leader]
            continue
        living = [s for s in (leader + 1, leader + 2) if s not in dead]
        assert seats and len(set(seats)) == len(seats) and set(seats) <= set(living)  # in the order the leader chose
        # a follower left out died in the action, or the game ended in it
        left = [s for s in living if s not in seats]
        assert not left or i == len(found) - 1 or set(left) <= died


def test_a_dead_leader_loses_and_only_then(library):
    for seed in range(6):
        game, result = played(library, seed)
        leaders = {"team_a": game.players[0], "team_b": game.players[3]}
        loser = "team_b" if result.winner == "team_a" else "team_a"
        assert result.winner in ("team_a", "team_b")
        assert leaders[result.winner].alive and not leaders[loser].alive


def test_each_seat_of_the_winning_team_shares_the_win():
    spec = MODE_SPECS["team3v3"]
    assert spec.players == (6, 6) and spec.outcomes == ("team_a", "team_b", "draw")
    assert spec.seat_won("team_a", "team_a") and not spec.seat_won("team_b", "team_a")


RULING = 'ruling "t" {{\n  source "s";\n  ruleset {ruleset};\n{seats}\n  {run}\n}}\n'
TEAM_SEATS = "\n".join(f"  seat {i} {'leader' if i % 3 == 1 else 'follower'};" for i in range(1, 7))


def test_a_3v3_ruling_names_leaders_and_followers_in_their_seats():
    (ruling,) = parse_rulings(RULING.format(ruleset="campus_3v3", seats=TEAM_SEATS, run="play 5 turns;"), "t.ruling")
    assert [s.role for s in ruling.seats] == ["leader", "follower", "follower"] * 2
    assert ruling.runs[0].turns == 5


def test_a_3v3_seat_out_of_its_team_place_is_a_located_error():
    seats = TEAM_SEATS.replace("seat 2 follower", "seat 2 leader")
    with pytest.raises(SgsError) as error:
        parse_rulings(RULING.format(ruleset="campus_3v3", seats=seats, run="play 1 turns;"), "t.ruling")
    (d,) = error.value.diagnostics
    assert d.render().startswith("t.ruling:5:3: error: seat 2 is a follower in 3v3, not 'leader'")
    assert "seat 1 leader, 2 and 3 followers" in d.hint


def test_an_identity_ruling_refuses_3v3_roles():
    seats = "  seat 1 lord;\n  seat 2 follower;"
    with pytest.raises(SgsError) as error:
        parse_rulings(RULING.format(ruleset="basic", seats=seats, run="turn 1;"), "t.ruling")
    (d,) = error.value.diagnostics
    assert "'follower' is a role of the 3v3 mode" in d.message and "campus_3v3" in d.hint


def test_play_zero_turns_is_a_located_error():
    with pytest.raises(SgsError) as error:
        parse_rulings(RULING.format(ruleset="campus_3v3", seats=TEAM_SEATS, run="play 0 turns;"), "t.ruling")
    (d,) = error.value.diagnostics
    assert d.render().startswith("t.ruling:10:8: error: cannot play 0 turns")


def test_cli_seats_six_for_3v3_when_players_is_left_out():
    result = CliRunner().invoke(main, ["simulate", "--ruleset", "campus_3v3", "--games", "3", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "6 players" in result.output and "team_a" in result.output and "errors: 0" in result.output


def test_cli_refuses_five_players_for_3v3():
    result = CliRunner().invoke(main, ["run", "--ruleset", "campus_3v3", "--players", "5", "--seed", "1"])
    assert result.exit_code == 2 and "6 to 6 players, not 5" in result.output
