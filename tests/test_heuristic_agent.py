"""The heuristic agent: it never helps a known enemy nor harms a known ally on purpose,
plays whole games of every built-in ruleset, and beats random players clearly."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from sgs_dsl.agents.heuristic import HeuristicAgent, act_of
from sgs_dsl.agents.registry import AgentSpec, SeatAgents
from sgs_dsl.agents.sides import relations
from sgs_dsl.compiler.library import load_library
from sgs_dsl.compiler.profile import profiles
from sgs_dsl.core.model import Player
from sgs_dsl.engine.decisions import Option, Request
from sgs_dsl.engine.describe import card_named, describe
from sgs_dsl.game import play_game
from sgs_dsl.modes import make_mode

# the tricks (and 殺) that hurt their target, and the ones that hurt every other player
HARMFUL = {"殺", "火殺", "雷殺", "決鬥", "過河拆橋", "順手牽羊", "樂不思蜀", "兵糧寸斷", "火攻", "借刀殺人"}
HARMFUL_ALL = {"南蠻入侵", "萬箭齊發"}
HELPFUL_SELF = {"無中生有"}  # used on oneself, always good
HELPFUL = {"無中生有", "桃園結義"}
TARGETS = ("選擇目標", "選擇額外的目標")
LONE = ("renegade", "careerist")


@pytest.fixture(scope="module")
def library() -> Any:
    return load_library()


def camp(side: str) -> str:
    return "lord" if side == "loyalist" else side


def known_ally(view: Any, seat: int) -> bool:
    sides = view.sides()
    mine, theirs = sides[view.seat], sides[seat]
    return seat == view.seat or (theirs is not None and mine not in LONE and camp(theirs) == camp(mine))


def known_enemy(view: Any, seat: int) -> bool:
    """A player on a shown side against this seat's; never the lord to a renegade, who needs the
    lord alive till last (and saves it while the rebels are ahead)."""
    sides = view.sides()
    if sides[view.seat] == "renegade" and sides[seat] == "lord":
        return False
    return sides[seat] is not None and not known_ally(view, seat)


class Checked:
    """A heuristic agent whose every answer is checked against the public facts of its seat."""

    def __init__(self, seed: int, seen: Counter):
        self.agent = HeuristicAgent(seed)
        self.seen = seen

    def choose(self, request: Request, view: Any) -> int:
        index = self.agent.choose(request, view)
        chosen = request.options[index].value
        if request.kind == "save" and view.dying is not None and known_enemy(view, view.dying):
            self.seen["enemy dying"] += 1
            assert chosen is None, f"saved a known enemy: {request.prompt}"
        if request.kind == "target" and isinstance(chosen, Player):
            card = card_named(request.prompt.split("：", 1)[0])
            if card in HARMFUL and request.prompt.endswith(TARGETS):  # the card's targets (not 借刀殺人's victim)
                self.seen["harmful target"] += 1
                assert not known_ally(view, chosen.seat), f"{card} on a known ally: {request.prompt}"
        if request.kind == "counter":
            self.check_counter(view, chosen is not None)
        if request.kind == "discard" and describe(chosen).answers:
            self.seen["answer discarded"] += 1
            assert all(describe(o.value).answers for o in request.options), "discarded an answer, kept another card"
        if request.kind == "play" and chosen is None:
            helpful = [o.label for o in request.options if describe(o.value).card in HELPFUL_SELF]
            assert not helpful, f"ended the play phase holding {helpful}"
        if request.kind == "play" and describe(chosen).card in HARMFUL_ALL:
            self.seen["harmful to all"] += 1
            allies = [s for s in range(len(view.sides())) if s != view.seat and view.alive(s) and known_ally(view, s)]
            assert not allies, f"{describe(chosen).card} with known allies alive: {allies}"
        return index

    def check_counter(self, view: Any, countered: bool) -> None:
        """A harmful trick of a known enemy on a known ally is countered; a helpful one on a
        known ally never is."""
        card, user, on = view.resolving()[0]
        if on is None or not known_ally(view, on):
            return
        if card in HARMFUL and known_enemy(view, user):
            self.seen["countered for an ally"] += 1
            assert countered, f"let {card} hit a known ally"
        if card in HELPFUL:
            self.seen["helpful to an ally"] += 1
            assert not countered, f"countered {card} on a known ally"


@pytest.mark.parametrize(("ruleset", "players"), [("standard", 5), ("campus_3v3", 6), ("hegemony", 6)])
def test_never_saves_a_known_enemy_nor_harms_a_known_ally(library: Any, ruleset: str, players: int) -> None:
    seen: Counter = Counter()
    for seed in range(12):
        result = play_game(library, ruleset, players, seed, agents=[Checked(seed * 16 + i, seen) for i in range(players)])
        assert result.error is None and not result.violations
    assert seen["harmful target"] > 0  # the checks were put to the test
    if ruleset == "campus_3v3":  # every side is known there
        assert seen["countered for an ally"] > 0 and seen["helpful to an ally"] > 0


def test_a_dying_enemy_is_left_to_die(library: Any) -> None:
    seen: Counter = Counter()
    for seed in range(12):
        play_game(library, "campus_3v3", 6, seed, agents=[Checked(seed * 16 + i, seen) for i in range(6)])
    assert seen["enemy dying"] > 0


def test_plays_every_builtin_ruleset(library: Any) -> None:
    for name, rules in library.rulesets.items():
        players = next(n for n in (5, 6, 8, *range(2, 13)) if seats(rules, n))
        for seed in range(2):
            result = play_game(library, name, players, seed, agents=[HeuristicAgent(seed + i) for i in range(players)])
            assert result.error is None and not result.violations, (name, result.error, result.violations)
            assert result.turns > 0, name


def test_a_question_answered_yes_again_and_again_ends_at_the_agents_choice(library: Any) -> None:
    # 洛神 with 鬼才 on one player: each black judgement is replaced by the same black hand card,
    # gained back, judged again: the loop goes on while the player says yes (it ran into the
    # engine's loop budget, a rules error, before the agent capped its yes answers per turn)
    result = play_game(library, "hegemony", 6, 3529442788651899167, log=True,
                       agent_factory=SeatAgents(AgentSpec("heuristic")))
    assert result.error is None and not result.violations
    assert sum("發動【洛神】" in line for line in result.log) >= 1


def seats(rules: Any, players: int) -> bool:
    try:
        make_mode(rules).check_players(players)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize(("roles", "winners"), [(("lord", "loyalist"), ("lord",)),
                                                (("rebel", "renegade"), ("rebel", "renegade"))])
def test_a_heuristic_side_beats_a_random_side(library: Any, roles: tuple[str, ...], winners: tuple[str, ...]) -> None:
    games = 60
    spec = AgentSpec("random", tuple((role, "heuristic") for role in roles))  # the side heuristic, the rest random
    won = sum(play_game(library, "standard", 5, seed, agent_factory=SeatAgents(spec)).winner in winners
              for seed in range(games))
    assert won >= 0.65 * games  # random agents win about a third of games as the lord's side


def test_same_seed_same_game(library: Any) -> None:
    logs = [play_game(library, "standard", 5, 7, log=True, agents=[HeuristicAgent(i) for i in range(5)]).log
            for _ in range(2)]
    assert logs[0] == logs[1] and logs[0]


def test_profiles_read_effects_from_text(library: Any) -> None:
    table = profiles(library)
    assert table.card("殺").target < 0 and table.card("過河拆橋").target < 0
    assert table.card("桃").target > 0 and table.card("無中生有").target > 0
    assert table.card("火殺") == table.card("殺")  # a 火殺 is a 殺
    assert table.skill("突襲").user > 0 > table.skill("突襲").other  # gains the others' cards
    assert profiles(library) is table  # once per library


def test_profiles_read_the_kingdoms_a_skill_names(library: Any) -> None:
    table = profiles(library)
    assert table.kingdoms["護駕"] == {"wei"} and table.kingdoms["激將"] == {"shu"}
    assert table.kingdoms["救援"] == {"wu"} and table.kingdoms["大米"] == {"wu"}  # the source's, the dying's
    assert table.kingdoms["突襲"] == frozenset()


class HeroChoices:
    """A heuristic agent that notes, at each hero question, its role, the kingdoms the shown
    lord's lord skills name, the kingdoms it was offered, and the one it chose."""

    def __init__(self, seed: int, noted: list[tuple[str, frozenset[str], set[str], str]]):
        self.agent = HeuristicAgent(seed)
        self.noted = noted

    def choose(self, request: Request, view: Any) -> int:
        index = self.agent.choose(request, view)
        if request.kind == "hero" and view.role != "lord":
            lord = next(p for p in view.players() if p.role == "lord")
            skills = view.library.heroes[lord.name].skills
            named = frozenset(k for s in skills if "lord" in s.tags for k in profiles(view.library).kingdoms[s.name])
            self.noted.append((view.role, named, {o.value.kingdom for o in request.options},
                               request.options[index].value.kingdom))
        return index


@pytest.mark.parametrize("ruleset", ["standard", "campus"])
def test_the_lords_side_chooses_a_hero_its_lord_skills_call_on(library: Any, ruleset: str) -> None:
    # seed 003, 選擇武將: the others choose by their role and the lord's lord skills
    noted: list[tuple[str, frozenset[str], set[str], str]] = []
    for seed in range(40):
        play_game(library, ruleset, 5, seed, max_turns=1, agents=[HeroChoices(seed * 8 + i, noted) for i in range(5)])
    offered = [(role, named, chosen) for role, named, kingdoms, chosen in noted if named & kingdoms]
    helpers = [chosen in named for role, named, chosen in offered if role in ("loyalist", "renegade")]
    rebels = [chosen in named for role, named, chosen in offered if role == "rebel"]
    assert helpers and all(helpers)
    assert rebels and not all(rebels)  # a rebel chooses by other things


def test_describe_options() -> None:
    lord = Player(2, "x", "male", 4, 4, "lord")
    assert describe(None).passes and describe(False).passes and not describe(True).passes
    assert describe(lord).seat == 2 and describe(lord).action == "player"
    assert describe(Option("a", "b").value).action == "other"
    assert card_named("【借刀殺人】(【樂不思蜀】♣6)") == "借刀殺人"  # a card made of another
    assert card_named("【閃】♠7(視為【殺】)") == "殺"  # a card that counts as another
    assert card_named("出牌階段") is None


TWO_LOYALISTS = ("lord", "loyalist", "loyalist", "rebel", "renegade")  # one loyalist still hidden to the other


class TableView:
    """The public facts relations() reads, set by hand: seat 0 is the lord."""

    def __init__(self, seat: int, sides: tuple[str | None, ...], dead: tuple[int, ...] = (),
                 dealt: tuple[str, ...] = ("lord", "loyalist", "rebel", "rebel", "renegade")):
        self.seat, self._sides, self._dead, self._dealt = seat, sides, dead, dealt
        self._recoveries: tuple[tuple[int, int, int], ...] = ()  # (source, who, hp): SeatView.recoveries

    def sides(self) -> tuple[str | None, ...]:
        return self._sides

    def damages(self) -> tuple:
        return ()

    def recoveries(self) -> tuple:
        return self._recoveries

    def resolving(self) -> tuple:
        return ()  # no card being resolved to learn from

    def alive(self, seat: int) -> bool:
        return seat not in self._dead

    def role_counts(self) -> dict[str, int]:
        return dict(Counter(self._dealt))


def test_aiming_harm_at_the_lord_reads_as_rebel_and_countering_it_as_loyal() -> None:
    loyalist = TableView(1, ("lord", "loyalist", None, None, None), dealt=TWO_LOYALISTS)
    rel = relations(loyalist, ((2, 0, 1.0), (3, 0, -1.0)))  # seat 2 aimed harm at the lord, seat 3 averted some
    assert rel[2] < 0 < rel[3] and rel[4] == 0.0


def test_saving_the_lord_reads_as_loyal() -> None:
    loyalist = TableView(1, ("lord", "loyalist", None, None, None), dealt=TWO_LOYALISTS)
    loyalist._recoveries = ((3, 0, 1), (4, 4, 1))  # seat 3 gave the lord back 1 hp; seat 4 healed itself
    rel = relations(loyalist)
    assert rel[3] > 0 and rel[4] == 0.0 and rel[2] == 0.0


def test_roles_counted_out_are_known() -> None:
    # 5 players: lord, loyalist, 2 rebels, renegade. The loyalist (seat 1) is dead, its role shown:
    # to the lord every player still hidden is a rebel or the renegade
    lord = TableView(0, ("lord", "loyalist", None, None, None), dead=(1,))
    assert relations(lord)[2:] == (-1.0, -1.0, -1.0)
    # while the loyalist lives and hides, the hidden players are guesses (no record: 0)
    assert relations(TableView(0, ("lord", None, None, None, None)))[1:] == (0.0, 0.0, 0.0, 0.0)
    # a rebel whose fellow rebel died knows the other hidden players are its enemies
    rebel = TableView(2, ("lord", None, "rebel", "rebel", None), dead=(3,))
    assert relations(rebel)[1] == relations(rebel)[4] == -1.0


def test_an_answer_for_another_is_given_only_for_an_ally() -> None:
    view = TableView(1, ("lord", "loyalist", "rebel", None, None))
    view.turn = view.damage_count = view.recover_count = 0  # what the relation cache keys on
    options = (Option("打出【閃】♦2", "card"), Option("不打出", None))
    for seat, gives in ((0, True), (2, False)):  # for the lord, a known ally; for a known rebel
        request = Request(1, "respond", "是否為…打出【閃】？", options, for_seat=seat)
        assert (HeuristicAgent(seat).choose(request, view) == 0) is gives


def test_a_counter_to_harm_is_help(library: Any) -> None:
    view = TableView(1, ("lord", "loyalist", None, None, None), dealt=TWO_LOYALISTS)
    view.library = library
    frames = (("無懈可擊", 3, None), ("過河拆橋", 2, 0))  # seat 3 counters seat 2's trick on the lord
    assert act_of(frames, 1, view) == (2, 0, 1.0) and act_of(frames, 0, view) == (3, 0, -1.0)
    assert act_of((("南蠻入侵", 2, 0),), 0, view) is None  # a card on everyone names no one


def test_the_renegade_fights_the_camp_ahead() -> None:
    acts = ((2, 0, 1.0), (3, 2, 1.0))  # seat 2 hit the lord (leans rebel), seat 3 hit seat 2 (leans loyal)
    even = relations(TableView(4, ("lord", None, None, None, "renegade")), acts)
    assert even[0] > 0.3 and even[2] == -1.0 and even[3] == 0.0  # rebels not behind: saves the lord
    dealt = ("lord", "loyalist", "loyalist", "rebel", "rebel", "renegade")
    ahead = relations(TableView(5, ("lord", None, None, None, "rebel", "renegade"), dead=(4,), dealt=dealt),
                      ((3, 0, 1.0), (1, 3, 1.0)))  # the lord's camp 3 against 1 rebel
    assert ahead[1] == -1.0 and ahead[3] == 0.0 and ahead[0] < 0.3
