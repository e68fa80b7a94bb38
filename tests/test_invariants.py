"""Mutation tests of the invariant checker: the engine is broken on purpose in small ways
(a part of the game swapped for a broken one, engine/parts.py) and each breakage must be caught, by the check that names it, in a small batch
of seeded games; the unbroken engine gives no violation on the same games. Rulings run the same
checks: a ruling whose resolution breaks an invariant fails."""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest

from sgs_dsl.compiler.library import load_library
from sgs_dsl.core.model import GameOver
from sgs_dsl.engine.hp import Hp
from sgs_dsl.engine.invariants import DEFAULT_LEVEL, InvariantBroken, InvariantLevel, Invariants
from sgs_dsl.engine.kernel import Game
from sgs_dsl.engine.parts import Parts
from sgs_dsl.engine.zones import Zones
from sgs_dsl.game import play_game, setup
from sgs_dsl.modes.hegemony import HegemonyMode
from sgs_dsl.modes.identity import IdentityMode
from sgs_dsl.modes.team3v3 import Team3v3Mode
from sgs_dsl.rulings.parser import parse_rulings
from sgs_dsl.rulings.runner import run_ruling
from sgs_dsl.syntax.diagnostics import SgsError

RULESET, PLAYERS, SEEDS = "standard", 5, range(10)
HEGEMONY, HEGEMONY_PLAYERS = "hegemony", 8


@pytest.fixture(scope="module")
def library():
    return load_library()


def batch_violations(library, parts: Parts, ruleset: str = RULESET, players: int = PLAYERS) -> list[str]:
    """Every violation of the seeded batch (each game stops at its first)."""
    return [v for seed in SEEDS for v in play_game(library, ruleset, players, seed, parts=parts).violations]


# ---------------------------------------------------------------- the breakages
# Each breakage is a part of the game (engine/parts.py) swapped for one with a bug in it.
class LoseADiscardedCard(Zones):
    def to_discard(self, cards, reason="put"):
        cards = list(cards)
        if len(cards) > 1:
            self.take_out(cards.pop())  # out of its zone, into none
        super().to_discard(cards, reason)


class RecoverPastMaxHp(Hp):
    def recover(self, player, amount, source=None, card=None):
        before = player.hp
        super().recover(player, amount, source, card)
        if player.hp > before:
            player.hp += 1  # one point more than recovered, unclamped


class DeadKeepTheirCards(Hp):
    def _discard_everything(self, player):
        pass


class DuplicateADraw(Zones):
    def draw(self, player, n):
        cards = super().draw(player, n)
        if cards:
            player.hand.append(cards[0])  # the same card twice in the hand
        return cards


class SurviveAtZeroHp(Hp):
    def die(self, player, killer):
        if player.hp != 0:  # the rescue round forgets a player left at exactly 0
            super().die(player, killer)


class LeaveJudgeCardsInProcessing(Hp):
    # the turn's end sweeps the processing area: only the checks inside the turn see this
    def finish_judgement(self, j):
        self.triggers.open_window("judge_after", {"judge": j})


class ThrowCardsIntoTheDeck(Zones):
    def throw(self, card):
        if card is not None:
            self.take_out(card)
            self.game.deck.insert(0, card)  # to the bottom of the deck, not the discard pile


class PlayOnAfterTheEnd(Hp):
    def die(self, player, killer):
        try:
            super().die(player, killer)
        except GameOver:
            pass  # the victory the mode declared is lost


class LordBonusBelowOne(IdentityMode):
    def lord_bonus(self, players):
        return -5


class RevealUncounted(HegemonyMode):
    def _decide_kingdom(self, game, player, kingdom):
        player.kingdom = kingdom  # the careerist threshold never hears of this reveal


class RevealLeavesTheKingdomUnset(HegemonyMode):
    def _decide_kingdom(self, game, player, kingdom):
        self.shown_by_kingdom[kingdom] = self.shown_by_kingdom.get(kingdom, 0) + 1  # counted, never set


class VictoryCheckForgetsTheLordsDeath(IdentityMode):
    def check_victory(self, game):
        if not any(p.alive and p.role in ("rebel", "renegade") for p in game.players):
            raise GameOver("lord", "反賊和內奸全部陣亡：主公和忠臣獲勝")


class VictoryCheckDeclaresTheWrongSide(IdentityMode):
    def check_victory(self, game):
        try:
            super().check_victory(game)
        except GameOver as over:
            raise GameOver("rebel", over.reason) from None  # whoever won, the rebels are declared


class LeadersDealtToTheWrongSeats(Team3v3Mode):
    def seats(self, n, rng, with_heroes):
        players = super().seats(n, rng, with_heroes)
        players[0].role, players[1].role = players[1].role, players[0].role  # team A led from its second seat
        return players


class VictoryCheckNamesTheLosingTeam(Team3v3Mode):
    def check_victory(self, game):
        try:
            super().check_victory(game)
        except GameOver as over:
            raise GameOver("team_a" if over.winner == "team_b" else "team_b", over.reason) from None


def lose_a_discarded_card() -> Parts:
    return Parts(zones=LoseADiscardedCard)


def recover_past_max_hp() -> Parts:
    return Parts(hp=RecoverPastMaxHp)


def dead_keep_their_cards() -> Parts:
    return Parts(hp=DeadKeepTheirCards)


def duplicate_a_draw() -> Parts:
    return Parts(zones=DuplicateADraw)


def survive_at_zero_hp() -> Parts:
    return Parts(hp=SurviveAtZeroHp)


def leave_judge_cards_in_processing() -> Parts:
    return Parts(hp=LeaveJudgeCardsInProcessing)


def throw_cards_into_the_deck() -> Parts:
    return Parts(zones=ThrowCardsIntoTheDeck)


def play_on_after_the_end() -> Parts:
    return Parts(hp=PlayOnAfterTheEnd)


def lord_bonus_below_one() -> Parts:
    return Parts(mode=LordBonusBelowOne)


def reveal_uncounted() -> Parts:
    return Parts(mode=RevealUncounted)


def reveal_leaves_the_kingdom_unset() -> Parts:
    return Parts(mode=RevealLeavesTheKingdomUnset)


def victory_check_forgets_the_lords_death() -> Parts:
    return Parts(mode=VictoryCheckForgetsTheLordsDeath)


def victory_check_declares_the_wrong_side() -> Parts:
    return Parts(mode=VictoryCheckDeclaresTheWrongSide)


def leaders_dealt_to_the_wrong_seats() -> Parts:
    return Parts(mode=LeadersDealtToTheWrongSeats)


def victory_check_names_the_losing_team() -> Parts:
    return Parts(mode=VictoryCheckNamesTheLosingTeam)


BREAKAGES: list[tuple[Callable[[], Parts], str]] = [
    (lose_a_discarded_card, "cards on the table, expected 108"),
    (recover_past_max_hp, "above its max hp"),
    (dead_keep_their_cards, "is dead but holds cards"),
    (duplicate_a_draw, "is in two places"),
    (survive_at_zero_hp, "is alive at hp 0 outside a rescue round"),
    (leave_judge_cards_in_processing, "left in the processing area at a free time"),
    (throw_cards_into_the_deck, "without a reshuffle"),
    (play_on_after_the_end, "the game goes on though the mode says it is over"),
    (lord_bonus_below_one, "below 1"),
    (victory_check_forgets_the_lords_death, "the game goes on though the table shows rebel has won"),
    (victory_check_declares_the_wrong_side, "the winner (反賊和內奸全部陣亡：主公和忠臣獲勝), but the table shows lord"),
]
# breakages of what other modes keep of the seats, each caught in a batch of its mode's games
MODE_BREAKAGES: list[tuple[Callable[[], Parts], str, str, int]] = [
    (reveal_uncounted, "counted towards the careerist threshold of", HEGEMONY, HEGEMONY_PLAYERS),
    (reveal_leaves_the_kingdom_unset, "has a general face up but no kingdom", HEGEMONY, HEGEMONY_PLAYERS),
    (leaders_dealt_to_the_wrong_seats, "holds the follower of its team", "campus_3v3", 6),
    (victory_check_names_the_losing_team, "but the table shows team_", "campus_3v3", 6),
]


@pytest.mark.parametrize("ruleset, players", [(RULESET, PLAYERS), (HEGEMONY, HEGEMONY_PLAYERS), ("campus", 8),
                                              ("campus_two_renegades", 8), ("campus_3v3", 6)])
def test_the_unbroken_engine_breaks_no_invariant(library, ruleset, players):
    for seed in SEEDS:
        result = play_game(library, ruleset, players, seed)
        assert result.error is None and result.violations == [], (seed, result.violations)


@pytest.mark.parametrize("breakage,message", BREAKAGES, ids=[b.__name__ for b, _ in BREAKAGES])
def test_each_breakage_is_caught_by_its_check(library, breakage, message):
    violations = batch_violations(library, breakage())
    assert any(message in v for v in violations), violations


@pytest.mark.parametrize("breakage,message,ruleset,players", MODE_BREAKAGES,
                         ids=[b.__name__ for b, *_ in MODE_BREAKAGES])
def test_each_breakage_of_a_modes_own_state_is_caught(library, breakage, message, ruleset, players):
    violations = batch_violations(library, breakage(), ruleset, players)
    assert any(message in v for v in violations), violations


def test_a_processing_leftover_is_caught_inside_the_turn(library):
    """The judge card left behind is seen at a free time of its turn (only the hook checks here:
    no check between turns), before the sweep at the turn's end would hide it."""
    for seed in SEEDS:
        game = setup(library, RULESET, PLAYERS, seed, parts=leave_judge_cards_in_processing())
        game.on_free_time = Invariants.start(game).at_free_time
        try:
            while True:
                game.turn.play_turn(game.current)
                game.current = game.seats.next_alive(game.current)
        except InvariantBroken as broken:
            assert "left in the processing area at a free time" in str(broken)
            return
        except GameOver:
            continue
    pytest.fail("no game of the batch left a judge card behind")


def test_a_reshuffle_may_refill_the_deck(library):
    game = setup(library, RULESET, PLAYERS, 1)
    invariants = Invariants.start(game)
    game.zones.to_discard(list(game.deck))
    invariants.at_free_time()
    game.zones.draw(game.players[0], 1)  # the discard pile becomes the deck
    invariants.at_free_time()
    assert invariants.problems(free_time=True) == []
    assert len(game.deck) == 108 - 5 * 4 - 1


def test_the_deck_may_not_grow_between_free_times(library):
    game = setup(library, RULESET, PLAYERS, 1)
    invariants = Invariants.start(game)
    card = game.players[1].hand[0]
    game.zones.take_out(card)
    game.deck.append(card)
    with pytest.raises(InvariantBroken, match="the deck grew from 88 to 89 cards without a reshuffle"):
        invariants.at_free_time()


# ---------------------------------------------------------------- rulings
PEACH = """
ruling "桃回復一點體力" {{
  source "seed 000 基本牌：桃";
  ruleset basic;
  seat 1 lord hp {hp}/4 hand [桃 ♥3];
  seat 2 {role};
  phase 1 play;
  script {{ 1 uses 桃 ♥3; 1 ends; }}
  expect {{ seat 1 hp {after}; }}
}}
"""


def peach_ruling(hp: int = 3, role: str = "rebel", after: int = 4):
    (ruling,) = parse_rulings(PEACH.format(hp=hp, role=role, after=after), "t.ruling")
    return ruling


def test_a_ruling_whose_resolution_breaks_an_invariant_fails(library):
    assert run_ruling(peach_ruling(), library).passed
    result = run_ruling(peach_ruling(after=5), library, recover_past_max_hp())
    assert result.failures == ("invariant violated: 1號位無將(男) has hp 5 above its max hp 4",)


def test_a_ruling_table_that_starts_with_a_winner_may_be_played(library):
    """Lord and loyalist alone: the mode would end such a game, but the ruling set it up on purpose."""
    result = run_ruling(peach_ruling(role="loyalist"), library)
    assert result.passed, result.failures


def test_a_ruling_table_at_hp_0_is_refused_when_it_loads():
    """A living seat at hp 0 outside a dying situation cannot happen: a load error."""
    with pytest.raises(SgsError, match="seat 1 has hp 0"):
        peach_ruling(hp=0, after=1)


def test_a_card_written_onto_fails_where_it_is_written(library):
    """A physical card keeps its face for the whole game: `Card` is frozen, so an engine bug
    that writes a "counts as ♥" effect onto the card itself stops the game at the write, and
    the batch counts it as an error that names the write."""

    class WritesOntoTheCard(Hp):
        def judge(self, player):
            j = super().judge(player)
            j.card.suit = "heart"
            return j
    errors = [r.error for r in (play_game(library, RULESET, PLAYERS, seed, parts=Parts(hp=WritesOntoTheCard))
                                for seed in SEEDS) if r.error]
    assert errors and all("FrozenInstanceError" in e and "j.card.suit" in e for e in errors)


# ---------------------------------------------------------------- the table's version
def table_state(game: Game) -> tuple:
    """Everything the free-time test reads, as values."""
    def ids(cards):
        return tuple(c.uid for c in cards)
    players = tuple((p.hp, p.max_hp, p.alive, p.dying, ids(p.hand), tuple((s, c.uid) for s, c in p.equips.items()),
                     ids(p.judge), tuple((n, ids(pile)) for n, pile in p.piles.items())) for p in game.players)
    return id(game.deck), ids(game.deck), ids(game.discard_pile), ids(game.processing), players


@pytest.mark.parametrize("ruleset, players", [("standard", 5), ("junzheng", 6), ("hegemony", 6),
                                              ("campus", 5), ("classic", 6)])
def test_a_free_time_skipped_for_an_unchanged_version_has_an_unchanged_table(library, ruleset, players):
    """The free-time test passes over a free time whose `Game.table_version` is the last look's:
    in seeded games of each mode, the table is then exactly as it was at that look."""
    last: dict[int, tuple[int, tuple]] = {}
    skipped = []

    class Compared(Invariants):
        def at_free_time(self):
            game = self.game
            state = table_state(game)
            seen = last.get(id(game))
            if seen is not None and seen[0] == game.table_version:
                assert seen[1] == state, ruleset
                skipped.append(1)
            last[id(game)] = (game.table_version, state)
            return super().at_free_time()

    for seed in range(6):
        result = play_game(library, ruleset, players, seed, parts=Parts(invariants=Compared))
        assert result.error is None and result.violations == [], (result.error, result.violations)
    assert len(skipped) > 50  # free times with nothing new are common (between quiet phases)


def test_a_card_moved_outside_a_move_is_still_seen_at_the_next_free_time(library):
    """A change by hand that takes a card out (as an engine bug might) bumps the version too."""
    game = setup(library, RULESET, PLAYERS, 1)
    invariants = Invariants.start(game)
    invariants.at_free_time()
    game.zones.take_out(game.players[1].hand[0])  # out of its zone, into none
    with pytest.raises(InvariantBroken, match="cards on the table, expected 108"):
        invariants.at_free_time()


def test_a_kingdom_text_changes_in_hegemony_is_the_texts(library):
    """`set_kingdom` on a face-down seat, and on a shown one: the kingdom is the text's, apart
    from the careerist count, and no invariant of the mode's is broken, before or after the
    seat's generals are shown; a seat whose kingdom the mode decided is still checked."""
    game = setup(library, HEGEMONY, HEGEMONY_PLAYERS, 3)
    mode, (hidden, shown, other) = game.mode, game.players[:3]
    mode.show(game, shown, 0)
    game.state.set_kingdom(hidden, "qun" if mode.generals[0].cards[0].kingdom != "qun" else "wei")
    game.state.set_kingdom(shown, "god")
    assert mode.invariant_problems(game) == []
    mode.show(game, hidden, 0)
    assert mode.invariant_problems(game) == []
    mode.show(game, other, 0)
    other.kingdom = "god" if other.kingdom != "god" else "wei"  # not by text: the mode's check sees it
    assert any("but its generals are" in p for p in mode.invariant_problems(game))


# ---------------------------------------------------------------- how often: the levels
#: Games of its mode within which the default level must catch each breakage.
CATCH_WITHIN = 300
EVERY_BREAKAGE = [(b, m, RULESET, PLAYERS) for b, m in BREAKAGES] + MODE_BREAKAGES


def first_catch(library, parts: Parts, ruleset: str, players: int, message: str, level: str,
                seeds=range(CATCH_WITHIN)) -> int | None:
    """The first seed whose game, built of `parts` and checked at `level`, names the breakage (`message`)."""
    for seed in seeds:
        if any(message in v for v in play_game(library, ruleset, players, seed, invariants=level, parts=parts).violations):
            return seed
    return None


@pytest.mark.parametrize("breakage,message,ruleset,players", EVERY_BREAKAGE, ids=[b.__name__ for b, *_ in EVERY_BREAKAGE])
def test_each_breakage_is_caught_at_the_default_level(library, breakage, message, ruleset, players):
    """`sgs simulate`'s default level names every breakage within CATCH_WITHIN games (it stops
    at the first game that does)."""
    assert first_catch(library, breakage(), ruleset, players, message, DEFAULT_LEVEL) is not None


def test_the_turn_level_cannot_see_a_processing_leftover(library):
    """Why the default is not the cheaper `turn` level: a turn ends by sweeping the processing
    area into the discard pile, so judge cards left there are gone by the check between turns,
    in any number of games. In the batch's games that every free time catches, `turn` sees
    nothing, and each of its checks finds the processing area empty."""
    broken = leave_judge_cards_in_processing()
    message = "left in the processing area at a free time"
    caught = [seed for seed in SEEDS
              if first_catch(library, broken, RULESET, PLAYERS, message, "every-free-time", [seed]) is not None]
    assert caught
    leftovers = []

    class Counted(Invariants):
        def check(self, free_time):
            leftovers.append(len(self.game.processing))
            return super().check(free_time)
    for seed in caught:
        played = play_game(library, RULESET, PLAYERS, seed, invariants="turn", parts=attrs.evolve(broken, invariants=Counted))
        assert played.violations == []
    assert len(leftovers) > 10 * len(caught) and set(leftovers) == {0}


def test_off_checks_nothing(library):
    """`off` builds no checker: a breakage every other level names at once goes unseen."""
    broken = duplicate_a_draw()
    assert first_catch(library, broken, RULESET, PLAYERS, "is in two places", "turn", [0]) == 0
    assert play_game(library, RULESET, PLAYERS, 0, invariants="off", parts=broken).violations == []


@pytest.mark.parametrize("ruleset, players", [(RULESET, PLAYERS), ("junzheng", 6), (HEGEMONY, 6), ("campus_3v3", 6)])
def test_a_game_is_the_same_at_every_level(library, ruleset, players):
    """The checks only read the table: the unbroken engine plays the same games, log for log,
    at every level, and breaks nothing at any."""
    for seed in SEEDS[:2]:
        results = [play_game(library, ruleset, players, seed, log=True, invariants=level) for level in InvariantLevel]
        assert all(r.error is None and r.violations == [] for r in results), [(r.error, r.violations) for r in results]
        assert len({(tuple(r.log), r.winner, r.turns) for r in results}) == 1


def test_an_unknown_level_is_refused(library):
    with pytest.raises(ValueError, match="'sometimes' is not a valid InvariantLevel"):
        play_game(library, RULESET, PLAYERS, 0, invariants="sometimes")
