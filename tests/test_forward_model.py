"""The forward model: a game copied between turns plays on exactly as the original would
(engine/forking.py), what each seat knows of the cards' places (engine/knowledge.py), and a
copy dealt again as one seat could believe it to be (a determinization)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import attrs
import pytest

from sgs_dsl.agents.lookahead import play_forward
from sgs_dsl.agents.registry import make_agent
from sgs_dsl.compiler.library import load_library
from sgs_dsl.core.model import GameOver
from sgs_dsl.engine.forking import ForkError, branch, keep_forward_model
from sgs_dsl.engine.knowledge import determinize, hidden_places, knows, track
from sgs_dsl.engine.moves import Moves
from sgs_dsl.engine.parts import DEFAULT_PARTS
from sgs_dsl.game import play_game, run, setup


@pytest.fixture(scope="module")
def library():
    return load_library()


MODES = [("standard", 5), ("junzheng", 8), ("hegemony", 6), ("campus", 5), ("campus_3v3", 6), ("classic", 6)]


def started(library, ruleset, players, seed, turns, log=True, knowledge=False):
    """A game after `turns` turns, and whose turn is next; None if it ended before."""
    game = setup(library, ruleset, players, seed, log=log)
    if knowledge:
        track(game)
    mode = game.mode
    game.start.start_game()
    player = mode.first_player(game)
    try:
        for _ in range(turns):
            game.extra_turns.take_turn(player)
            player = mode.next_player(game, player)
    except GameOver:
        return None
    return game, player


@pytest.mark.parametrize("ruleset,players", MODES)
def test_a_copy_plays_on_as_the_original(library, ruleset, players):
    """Copied between turns with its agents, the copy and the original play the same rest of
    the game, line for line; and playing the copy first changes nothing of the original's
    (it plays as an uncopied game of the same seed)."""
    compared = 0
    for seed in range(3):
        for turns in (0, 4, 11):
            found = started(library, ruleset, players, seed, turns)
            if found is None:
                continue
            game, player = found
            start = len(game.lines)
            copy = game.fork()
            from_copy = run(copy, resume=copy.players[player.seat])
            from_game = run(game, resume=player)
            assert from_copy.error is None and from_copy.violations == []
            assert from_copy.log[start:] == from_game.log[start:]
            assert (from_copy.winner, from_copy.turns) == (from_game.winner, from_game.turns)
            uncopied = run(setup(library, ruleset, players, seed, log=True))
            assert uncopied.log == from_game.log
            compared += 1
    assert compared >= 6


def test_a_copy_shares_nothing_it_changes(library):
    """The copy's players, hands, deck and mode state are its own objects; the library's
    cards and skills are shared."""
    game, _ = started(library, "standard", 5, 2, 3)
    copy = game.fork()
    for a, b in zip(game.players, copy.players, strict=True):
        assert a is not b and a.hand is not b.hand and a.hand == b.hand
        assert all(x is y for x, y in zip(a.skills, b.skills, strict=True))
    assert copy.deck is not game.deck and copy.deck == game.deck
    assert copy.mode is not game.mode and copy.zones.game is copy and copy.turn.bodies["play"].__self__ is copy.turn
    holder = next(p.seat for p in game.players if p.hand)
    copy.players[holder].hand.clear()
    assert game.players[holder].hand


def test_a_game_is_copied_only_between_turns(library):
    """Mid-turn the rules are in the middle of Python frames: no copy."""
    game, player = started(library, "standard", 5, 1, 2)
    refused = []

    class Copying:
        def choose(self, request, view):
            try:
                game.fork()
            except ForkError as error:
                refused.append(str(error))
            return 0

    game.agents = [Copying() for _ in game.players]
    with pytest.raises(GameOver):
        for _ in range(40):
            game.extra_turns.take_turn(player)
            player = game.mode.next_player(game, player)
    assert refused and "between turns" in refused[0]


def test_a_closure_in_the_state_is_refused(library):
    game, _ = started(library, "standard", 5, 1, 1)
    hidden = game.players[0]
    game.players[0].memory["later"] = lambda: hidden.hand.clear()
    with pytest.raises(ForkError, match="closure"):
        game.fork()


# ---------------------------------------------------------------- what a seat knows
def test_what_each_seat_knows_follows_the_moves(library):
    """A draw is known to the drawer alone; a discard to everyone; a card given face down to
    the giver and the taker; a shown card to everyone; a reshuffled deck to no one."""
    game, _ = started(library, "standard", 5, 3, 0, knowledge=True)
    a, b, c = game.players[:3]
    drawn = game.zones.draw(a, 2)
    assert all(knows(game, a.seat, x) and not knows(game, b.seat, x) for x in drawn)
    game.moves.move_cards([drawn[0]], "hand", b, "give")
    assert knows(game, a.seat, drawn[0]) and knows(game, b.seat, drawn[0]) and not knows(game, c.seat, drawn[0])
    game.zones.show_cards([drawn[1]])
    assert knows(game, c.seat, drawn[1])
    game.zones.to_discard([drawn[1]])
    game.moves.move_cards([drawn[1]], "hand", c, "gain")  # out of the discard pile, in sight of all
    assert knows(game, b.seat, drawn[1])
    top = game.deck[-1]
    assert not knows(game, a.seat, top)
    game.zones.to_discard(list(game.deck))
    game.zones.draw(a, 1)  # the deck is empty: the discard pile is shuffled into it
    assert not any(knows(game, b.seat, x) for x in game.deck)


def hidden_layout(game, seat):
    return [list(place) for place in hidden_places(game, seat)]


@pytest.mark.parametrize("ruleset,players", [("standard", 5), ("junzheng", 8), ("campus_3v3", 6)])
def test_a_determinized_copy_keeps_what_the_seat_knows(library, ruleset, players):
    """Every card the seat knows the place of is where it was; its own hand, the face-up places
    and each hidden place's count are unchanged; the other hidden cards are dealt again (over
    several copies they land elsewhere); the shown roles stay and the hidden ones are permuted."""
    moved = 0
    for seed in range(3):
        found = started(library, ruleset, players, seed, 7, log=False, knowledge=True)
        if found is None:
            continue
        game, _ = found
        for seat in range(players):
            known = {c.uid: game.zones.zone_of(c) for c in game.all_cards if knows(game, seat, c)}
            sides = [game.mode.visible_side(seat, p) for p in game.players]
            for k in range(3):
                copy = game.fork()
                determinize(copy, seat, random.Random(k))
                places = {c.uid: copy.zones.zone_of(c) for c in copy.all_cards}
                for uid, (zone, holder) in known.items():
                    assert places[uid][0] == zone and (places[uid][1] is None) == (holder is None), uid
                    assert holder is None or places[uid][1].seat == holder.seat
                assert [c.uid for c in copy.players[seat].hand] == [c.uid for c in game.players[seat].hand]
                assert [len(p) for p in hidden_places(copy, seat)] == [len(p) for p in hidden_places(game, seat)]
                assert copy.discard_pile == game.discard_pile
                assert Counter(p.role for p in copy.players) == Counter(p.role for p in game.players)
                assert [copy.mode.visible_side(seat, p) for p in copy.players] == sides
                moved += hidden_layout(copy, seat) != hidden_layout(game, seat)
                assert sorted(c.uid for c in copy.all_cards) == sorted(c.uid for c in game.all_cards)
    assert moved > 10


def test_determinized_copies_play_to_the_end(library):
    """A world dealt again is a legal table: it plays on with every invariant checked."""
    for seed in range(4):
        found = started(library, "junzheng", 6, seed, 5, log=False, knowledge=True)
        if found is None:
            continue
        game, player = found
        copy = game.fork()
        determinize(copy, player.seat, random.Random(seed))
        result = run(copy, resume=copy.players[player.seat])
        assert result.error is None and result.violations == []


def _view_values(view):
    """Everything a seat's view answers, as text."""
    out = [repr(view.hand), repr(view.discard_pile), repr(view.players()), "\n".join(view.log_lines()),
           repr(view.resolving()), repr(view.sides()), repr(view.damages()), repr(view.recoveries())]
    return "\n".join(out)


def test_a_probe_agent_reads_no_hidden_card(library):
    """An agent that reads everything its view offers, at every question of seeded games, never
    reads the face of a card its seat has never been able to see (every card of that face has
    stayed face down, out of its sight: another's hand, the deck)."""
    leaks, asked = [], 0
    ever: dict[int, set[str]] = {seat: set() for seat in range(5)}  # faces each seat has seen

    def look(game):
        for seat in ever:
            ever[seat].update(c.label() for c in game.all_cards if knows(game, seat, c))

    class Watched(Moves):
        def move_cards(self, cards, zone, owner=None, reason="put", sources=None):
            super().move_cards(cards, zone, owner, reason, sources)
            look(self.game)

    class Probe:
        def __init__(self, rng):
            self.rng = rng

        def choose(self, request, view):
            nonlocal asked
            asked += 1
            game = view._game  # the test reads the truth; the agent reads only its view
            look(game)
            text = _view_values(view)
            leaks.extend((view.seat, c.label()) for c in game.all_cards
                         if c.label() not in ever[view.seat] and c.label() in text)
            return self.rng.randrange(len(request.options))

    for seed in range(3):
        for seen in ever.values():
            seen.clear()
        game = setup(library, "standard", 5, seed, log=True, parts=attrs.evolve(DEFAULT_PARTS, moves=Watched))
        track(game)
        game.agents = [Probe(random.Random(seed * 10 + i)) for i in range(5)]
        run(game, max_turns=30)
    assert asked > 100 and leaks == []


# ---------------------------------------------------------------- branching mid-turn
class Stateless:
    """Answers by the question alone (no generator): a copy of it answers as it does."""

    def choose(self, request, view):
        return sum(map(ord, "".join(request.labels()))) % len(request.options)


class Brancher(Stateless):
    """At its first real question of turn 4, branches the game there (not dealt again) and
    plays the branch to the end of the turn; then answers as it would have."""

    def __init__(self, game, branched):
        self.game, self.branched = game, branched

    def choose(self, request, view):
        index = super().choose(request, view)
        game, branched = self.game, self.branched
        if game.turns == 4 and not branched and len(request.options) > 1:
            copy, player = branch(game, view.seat, random.Random(0), [Stateless() for _ in game.players],
                                  (index, request.options[index].label), deal_again=False)
            branched["start"] = len(copy.lines)
            branched["over"] = play_forward(copy, player, 1)
            branched["lines"] = copy.lines
            branched["replayed"] = copy.replay_at
        return index


def test_a_branch_replays_the_turn_to_the_question_and_goes_on_alike(library):
    """Branched at a question in the middle of a turn (from the copy kept as the turn started,
    replaying the answers given since) and not dealt again, the branch answers the question as
    the game does and plays the rest of the turn line for line as the game plays it."""
    checked = []
    for seed in range(4):
        game = setup(library, "standard", 5, seed, log=True)
        keep_forward_model(game)
        branched: dict = {}
        game.agents = [Brancher(game, branched) for _ in game.players]
        result = run(game, max_turns=12)
        if not branched:
            continue
        start, ours = branched["start"], branched["lines"][branched["start"]:]
        if branched["over"] is None:  # the turn ended: the game's lines up to the next turn
            turn_end = next((i for i in range(start, len(result.log)) if result.log[i].startswith("—— 第5回合")),
                            len(result.log))
            assert len(ours) == turn_end - start
        assert branched["replayed"] >= 1
        assert result.log[start:start + len(ours)] == ours
        checked.append(seed)
    assert len(checked) >= 3


def test_a_lookahead_game_is_seeded_and_looks_ahead(library):
    """Lookahead agents play whole games without error; they look ahead (rollouts played,
    few of them leaving the replayed path); the same seed gives the same game."""
    made = []

    def factory(player, seed):
        agent = make_agent("lookahead", seed)
        made.append(agent)
        return agent

    logs = []
    for _ in range(2):
        made.clear()
        result = play_game(library, "standard", 5, 7, log=True, agent_factory=factory, max_turns=40)
        assert result.error is None and result.violations == []
        logs.append(result.log)
    assert logs[0] == logs[1]
    looked = sum(a.looked for a in made)
    rollouts = sum(a.rollouts for a in made)
    assert looked > 0 and rollouts >= looked and sum(a.diverged for a in made) < rollouts / 2


def test_a_determinized_hegemony_copy_deals_the_hidden_generals_again(library):
    """國戰: the pairs of generals face down on others are dealt again among the seats that
    hold them (a seat's own, and every shown general, stay); the copy plays on."""
    moved = 0
    for seed in range(4):
        found = started(library, "hegemony", 8, seed, 2, log=False, knowledge=True)
        if found is None:
            continue
        game, player = found
        mode = game.mode
        for k in range(4):
            copy = game.fork()
            determinize(copy, player.seat, random.Random(k))
            pairs = {s: tuple(g.name for g in copy.mode.generals[s].cards) for s in copy.mode.generals}
            truth = {s: tuple(g.name for g in mode.generals[s].cards) for s in mode.generals}
            assert pairs[player.seat] == truth[player.seat]
            assert sorted(pairs.values()) == sorted(truth.values())
            for s, seat in mode.generals.items():
                if any(seat.shown):
                    assert pairs[s] == truth[s]
                assert copy.players[s].max_hp == game.players[s].max_hp
            moved += pairs != truth
        copy = game.fork()
        determinize(copy, player.seat, random.Random(9))
        result = run(copy, resume=copy.players[player.seat])
        assert result.error is None and result.violations == []
    assert moved > 4


def _required_params(cls) -> tuple[str, ...]:
    """The parameters a class's __init__ requires: read off its source when it writes one
    (a compiled function shows no signature), else off the __init__ attrs generated."""
    import ast
    import inspect
    import sys

    module = Path(sys.modules[cls.__module__].__file__)
    source = module.with_name(module.name.split(".")[0] + ".py")  # beside a compiled module, its source
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    args = item.args.args[1:]
                    return tuple(a.arg for a in args[: len(args) - len(item.args.defaults)])
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    return tuple(p.name for p in params if p.default is inspect.Parameter.empty)


def test_a_record_s_init_takes_its_required_fields_first():
    """The compiled build makes a copy of a record through its __init__, given the fields
    attrs says are required, in order (forking._required): every record class a game holds
    keeps its __init__ so."""
    import sgs_dsl.core.model as model
    from sgs_dsl.engine import history, pindian
    from sgs_dsl.engine.forking import _required
    from sgs_dsl.modes import hegemony

    records = [model.UsedCard, model.Player, model.Use, model.Damage, model.Judge, model.Asked, model.Dying,
               model.Recover, model.Move, model.Phase, model.Budget, history.MoveRecord, history.History,
               pindian.PointFight, hegemony.Generals]
    for cls in records:
        assert _required_params(cls) == _required(cls), cls.__name__


def test_a_process_holds_no_state_of_its_own(library):
    """A copy makes its processes anew (forking._Copier): after a few turns each process's
    fields are still the game, its fellow processes, or what a new one of them holds."""
    from sgs_dsl.engine.forking import _processes

    game, _ = started(library, "junzheng", 6, 3, 6)
    processes = _processes(game)
    kinds = (type(game), *{type(p) for p in processes})
    for process in processes:
        fresh = type(process)(game)
        fresh.connect()
        names = getattr(type(process), "__mypyc_attrs__", None) or vars(process)  # (compiled: no __dict__)
        for name in names:
            if name == "__dict__" or not hasattr(process, name):
                continue
            value, mine = getattr(process, name), getattr(fresh, name)
            if isinstance(value, kinds):
                continue
            if callable(value) or (isinstance(value, dict) and all(callable(v) for v in value.values())):
                assert type(mine) is type(value), (type(process).__name__, name)
            else:
                assert mine == value, (type(process).__name__, name)


def test_a_belief_weighs_the_roles_a_world_deals(library):
    """Identity: with the viewer's guess of who is an ally, the hidden roles are dealt
    mostly as guessed (the roles dealt stay the same, the shown ones stay where they are);
    without one, as often to any hidden seat."""
    game, _ = started(library, "standard", 8, 4, 0, log=False, knowledge=True)
    lord = next(p.seat for p in game.players if p.role == "lord")
    hidden = [p.seat for p in game.players if game.mode.visible_side(lord, p) is None]
    allies, enemies = hidden[:2], hidden[2:]
    belief = tuple(1.0 if s in allies else -1.0 if s in enemies else 0.0 for s in range(8))
    loyal = Counter()
    for k in range(200):
        copy = game.fork()
        copy.mode.determinize(copy, lord, random.Random(k), belief)
        assert Counter(p.role for p in copy.players) == Counter(p.role for p in game.players)
        assert copy.players[lord].role == "lord"
        loyal.update(s for s in hidden if copy.players[s].role == "loyalist")
    on_allies, on_enemies = sum(loyal[s] for s in allies), sum(loyal[s] for s in enemies)
    assert on_allies > 3 * on_enemies  # two loyalists among seven hidden seats: uniform would give 2:5


class KnowledgeChecker:
    """A random agent that, at every question, holds `known_cards` (read place by place) to
    `knows` asked of every card."""

    def __init__(self, game, seed):
        self.game, self.rng, self.checked = game, random.Random(seed), 0

    def choose(self, request, view):
        from sgs_dsl.engine.knowledge import known_cards

        game = self.game
        for seat in range(len(game.players)):
            assert known_cards(game, seat) == frozenset(c.uid for c in game.all_cards if knows(game, seat, c))
        self.checked += 1
        return self.rng.randrange(len(request.options))


@pytest.mark.parametrize("ruleset,players", [("standard", 5), ("hegemony", 6), ("junzheng", 8)])
def test_the_cards_a_seat_knows_are_read_place_by_place(library, ruleset, players):
    game = setup(library, ruleset, players, 11)
    track(game)
    game.agents = [KnowledgeChecker(game, seat) for seat in range(players)]
    run(game, max_turns=30)
    assert sum(a.checked for a in game.agents) > 50
