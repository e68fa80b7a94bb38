"""The engine kernel: `Game`, one table. It knows no card by name: what a card does comes
from its compiled text (`CardKind`), and what a mode adds (roles, rewards, victory) comes
from the mode object.

`Game` holds the table's state (seats, cards, logs, the use stack, the budget) and its
channel to the agents and the log (`ask`, `confirm`, `log`); everything the rules do is a
process it holds, one class per module, each naming the processes it works with:
seats (distance, range), skills (skills in play, modifiers), triggers (windows and firing),
zones and moves (where cards are, moving them), hp (damage, dying, death, judgement),
using (using and answering cards), turn and extra_turns (the turn, its phases, what text
asks of them), choices, labelled, questioning, fights (point fights), filters, prohibits,
attached, state (a player's state as text changes it), damage_rules and start (the game's
start). docs/architecture.md maps them."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.defs import CardKind, FilterDef, Skill, TriggerDef, ViewAsDef
from ..core.model import (
    MAX_DEPTH,
    Card,
    Damage,
    Judge,
    Player,
    RulesError,
    Use,
    UsedCard,
)
from ..core.native import mypyc_attr
from ..syntax.diagnostics import Span
from .bound_modifiers import Bound
from .decisions import Agent, Option, Request, first_legal
from .history import History
from .parts import DEFAULT_PARTS, Parts
from .pindian import PointFight
from .prohibits import Entry
from .turn import ACTIVE_KEY, END_PLAY, MAX_ACTIONS_PER_PHASE
from .using import EQUIP_USE, use_mode
from .view import SeatView
from .zones import FROM_DECK, where, zone_zh

if TYPE_CHECKING:
    from .interfaces import ModeHooks, Rules
    from .state import Undo

__all__ = ["ACTIVE_KEY", "END_PLAY", "EQUIP_USE", "FROM_DECK", "MAX_ACTIONS_PER_PHASE", "MAX_DEPTH",
           "Game", "use_mode", "where", "zone_zh"]


@mypyc_attr(allow_interpreted_subclasses=True)
class Game:
    """One table: state, the seeded RNG, the agents, and the processes."""

    def __init__(self, library: Rules, players: list[Player], deck: list[Card], agents: list[Agent],
                 mode: ModeHooks, seed: int, log: bool = True, parts: Parts = DEFAULT_PARTS):
        self.library = library
        self.players = players
        # the table's order (交換位置 changes it): the players as seated, and each seat's place;
        # a seat number names its player for the whole game
        self.table: list[Player] = list(players)
        self.place_of: list[int] = list(range(len(players)))
        self.deck = deck  # top of the deck is the end of the list
        self.discard_pile: list[Card] = []
        self.processing: list[Card] = []
        self.agents = agents
        self.mode = mode
        ruleset = getattr(mode, "ruleset", None)  # the cards it plays under another definition (`variants`)
        self._variants: dict[str, CardKind] = ruleset.options.get("variants", {}) if ruleset is not None else {}
        self.rng = random.Random(seed)
        self.logging = log
        self.tracing = False  # rulings: also windows, moves, questions and answers
        self.lines: list[str] = []
        self.hidden_lines: dict[int, tuple[frozenset[int], str]] = {}  # line -> who may read it, what others read
        self.current: Player = players[0]
        self.turns = 0
        self.windows_opened = 0
        self.cards_used = 0  # cards used (使用), not played out (打出): the benchmarks' unit of work
        # bumped when what a mode keeps of the seats may have changed (the skills in play: a
        # general shown, hidden or removed; a kingdom or hero text changed): the free-time
        # invariants ask the mode about its own state only then (invariants.py)
        self.seats_version = 0
        self.use_stack: list[Use] = []
        self.parts = parts  # what it is built from (engine/parts.py)
        self.budget = parts.budget()  # what the text may still spend: steps, nesting, time
        self.all_cards: list[Card] = list(deck)
        self._listeners: dict[str, list[tuple[Player, Skill, TriggerDef]]] | None = None
        self.counter_kinds: tuple[CardKind, ...] = tuple(k for k in library.cards.values() if k.mode("counter"))
        self.fired: dict[str, int] = {}
        self.damage_log: list[Damage] = []  # every damage dealt, in order (rulings check it)
        self.recover_log: list[tuple[Player | None, Player, int]] = []  # every recovery: source, who, hp gained
        self.skipped_log: list[tuple[Player, str]] = []  # every phase skipped: whose, which
        self.held_out: set[int] = set()  # seats alive at hp 0 or below, kept out of dying (`modify dying`)
        # turns, phases and point fights
        self.granted_turns: list[Player] = []  # extra turns granted, not yet played: first granted first
        self.extra_phases: list[tuple[Player, str]] = []  # to run after the current phase
        self.turn_log: list[Player] = []  # whose turn each turn played was (rulings check it)
        self.phase_log: list[tuple[Player, str]] = []  # every phase run: whose, which
        self.fight_log: list[PointFight] = []  # every point fight, in order
        self.judged_player: Player | None = None  # whose delayed trick is being judged
        self.block_endings: list[list[Callable[[], None]]] = []  # per running block: what ends with it
        self.crediting: set[str] | None = None  # skills that shaped the choice being made
        self.judge_as: dict[int, CardKind] = {}  # judge-area cards used as another trick
        self._rules: tuple[Skill, ...] | None = None
        self._skills: dict[int, list[Skill]] = {}  # seat -> skills, until changed_skills()
        self._modifier_seats: dict[str, frozenset[int]] | None = None
        self._deck_kinds: frozenset[CardKind] | None = None
        self._alike: dict[int, bool] = {}  # seat -> kinds_judged_alike, until changed_skills()
        self._weapon_ranges: dict[int, tuple[list[Skill], int]] = {}  # seat -> (its skills, treated_weapon_range)
        self._converts: dict[int, bool] = {}  # seat -> a skill of p's has a conversion (_may_counter)
        self._usable: dict[str, frozenset[CardKind]] = {}  # context -> the deck's kinds with a use in it
        self._probes: dict[int, UsedCard] = {}  # uid -> the card as printed, for legality checks (probe)
        self._va_kinds: dict[tuple[int, str], tuple[ViewAsDef, list[CardKind]]] = {}  # (id of a conversion, context) -> it, its kinds
        self._bound: Bound = {}  # modifiers with a subject, by name and bound seat (with the index)
        self.set_aside: frozenset[int] = frozenset()  # equipped cards being converted right now
        self.asker = ""  # the skill or card whose text is running: it asks the text's questions
        self.departed: Player | None = None  # the dead player whose 死亡時 is open
        # moves are recorded when text of this game may ask about them
        self.history = History(on=library.queries_history(getattr(mode, "ruleset", None)) or any(
            s.key in library.history_skills or s.key in library.history_grants
            for p in players for s in p.skills))  # a ruling seats any hero
        self.table_version = 0  # bumped by every change the invariants compare (a card moved, hp, skills)
        self.returned_to_deck = 0  # cards put into the deck since the invariants last looked
        self.on_free_time: Callable[[], None] | None = None  # the invariant check, when a game runs with one
        self.last_regular_seat: int | None = None  # the seat of the last regular (not extra) turn: rounds
        self.phase_now: str | None = None  # the phase being played (current_phase()), None between phases
        self.granted_by: Span | None = None  # the text that granted the last extra turn or phase
        self.hero_pool: tuple[str, ...] = ()  # the ruleset's heroes, when setup dealt them
        # the answers given since the turn started (their options' labels), when kept, and the
        # answers to give again before any agent is asked (a copy played forward: forward.py)
        self.recording: list[tuple[int, str]] | None = None  # (the option's index, its label)
        self.replay: list[tuple[int, str]] | None = None
        self.replay_at = 0
        self.diverged = False  # a replayed answer was not offered: the copy went its own way
        self.turn_start: Any = None  # forking.Replica: the game as a turn started, when kept
        self.turn_marks: list[tuple[int, int]] = []  # each turn's player and first answer (forking.py)
        self.forward_model = False  # keep the turn starts, the answers and what each seat knows (forking.py)
        # card uid -> the seats that know where it lies face down, when kept (knowledge.py)
        self.knowledge: dict[int, frozenset[int]] | None = None
        self.judging: tuple[Judge, ...] = ()  # judgements whose card is being read: it is their player's
        self._filter_table: dict[int, list[FilterDef]] | None = None
        self._forbid_table: dict[str, list[Entry]] | None = None
        self._forbid_binding: dict[tuple[str, int], list[Entry]] | None = None  # (kind, seat) -> what binds that seat
        self._attach_live: bool | None = None  # does a living player's skill attach an action? (None: not worked out)
        self._expiring: dict[str, list[Undo]] | None = None  # scope -> what to undo at its end (state.py)
        self._memory: dict[str, Any] | None = None  # the game's own remembered values
        # the processes, each in its own module; each names the others it works with (connect)
        self.seats = parts.seats(self)
        self.skills = parts.skills(self)
        self.triggers = parts.triggers(self)
        self.zones = parts.zones(self)
        self.moves = parts.moves(self)
        self.hp = parts.hp(self)
        self.damage_rules = parts.damage_rules(self)
        self.using = parts.using(self)
        self.choices = parts.choices(self)
        self.labelled = parts.labelled(self)
        self.questioning = parts.questioning(self)
        self.filters = parts.filters(self)
        self.prohibits = parts.prohibits(self)
        self.attached = parts.attached(self)
        self.state = parts.state(self)
        self.fights = parts.fights(self)
        self.turn = parts.turn(self)
        self.extra_turns = parts.extra_turns(self)
        self.start = parts.start(self)
        for process in (self.seats, self.skills, self.triggers, self.zones, self.moves, self.hp, self.damage_rules,
                        self.using, self.choices, self.labelled, self.questioning, self.filters, self.prohibits,
                        self.attached, self.state, self.fights, self.turn, self.extra_turns, self.start):
            process.connect()

    # ------------------------------------------------------------ log and questions
    def log(self, text: str) -> None:
        if self.logging:
            self.add_line(text)

    def add_line(self, text: str) -> None:
        """The one way a line joins the log, whatever writes it (the log methods, a ruling's
        runner): a game that follows its log line by line overrides it."""
        self.lines.append(text)

    def log_hidden(self, text: str, public: str, seats: frozenset[int]) -> None:
        """A line that names what only `seats` may see: the others read `public` (SeatView.log_lines;
        "" when the others see nothing happen)."""
        if self.logging:
            self.hidden_lines[len(self.lines)] = (seats, public)
            self.add_line(text)

    def shown_name(self, asker: str) -> str:
        """How the log and a question name a skill kept by its qualified key (core/names.py):
        by its printed name (anything else as it is)."""
        if "." not in asker:
            return asker
        skill = self.library.skills.get(asker)
        return skill.name if skill is not None else asker

    def log_skill(self, player: Player, skill: Skill | str, text: str) -> None:
        """A line that names a skill of the player's: while no face-up general of theirs gives
        it (國戰), only the player reads it; the others see nothing happen."""
        if not self.logging:
            return
        if self.mode.hides_skills:
            found = self.library.skills.get(skill) if isinstance(skill, str) else skill
            if found is not None and self.mode.hidden(player, found):
                self.log_hidden(text, "", frozenset({player.seat}))
                return
        self.add_line(text)

    def trace(self, text: str) -> None:
        """A line of a ruling's trace (windows, moves, questions and answers): the whole
        table's, so no seat reads it (SeatView.log_lines gives "")."""
        self.hidden_lines[len(self.lines)] = (frozenset(), "")
        self.add_line(text)

    def ask(self, player: Player, kind: str, prompt: str, options: list[Option], asker: str | None = None,
            for_seat: int | None = None, legal: Callable[[Option], bool] | None = None) -> Option:
        """One question (`put`); while the game replays recorded answers (a copy played forward
        from the start of a turn: sgs_dsl/forward.py) the next one answers it, and while it
        records, the answer is kept."""
        if self.replay is not None:
            replayed = self._replayed(options, legal)
            if replayed is not None:
                return replayed
        chosen = self.put(player, kind, prompt, options, asker, for_seat, legal)
        if self.recording is not None:
            self.recording.append((next(i for i, o in enumerate(options) if o is chosen), chosen.label))
        return chosen

    def _replayed(self, options: list[Option], legal: Callable[[Option], bool] | None) -> Option | None:
        """The recorded answer's option (by its label) if this question offers it and it is legal;
        else the replay stops here (`diverged`: a world dealt again need not offer it)."""
        replay = self.replay
        assert replay is not None
        if self.replay_at < len(replay):
            index, label = replay[self.replay_at]
            at = index if index < len(options) and options[index].label == label else next(
                (i for i, o in enumerate(options) if o.label == label), -1)
            if at >= 0 and (legal is None or legal(options[at])):
                self.replay_at += 1
                if self.recording is not None:
                    self.recording.append((at, label))
                return options[at]
            self.diverged = True
        self.replay = None
        return None

    def put(self, player: Player, kind: str, prompt: str, options: list[Option], asker: str | None = None,
            for_seat: int | None = None, legal: Callable[[Option], bool] | None = None) -> Option:
        """Put one question to a player's agent; the answer is one of the options. The prompt
        is shown as `ASKER：QUESTION`: `asker` names the rule asking (a phase, a card being
        used); when left out, the skill or card whose text is running asks. `for_seat`: the
        player the answer is for, when it is not the one asked. With `legal`, `options` are
        candidates and the legal options those it accepts, in order: an agent that answers
        uniformly (decisions.UniformAgent) is answered for by drawing candidates until one is
        legal, without the cost of checking them all (a traced game lists them all)."""
        if legal is not None:
            below = getattr(self.agents[player.seat], "below", None)
            if below is not None and not self.tracing:
                return first_legal(options, legal, below)
            options = [o for o in options if legal(o)]
        asker = self.asker if asker is None else asker
        if asker:
            prompt = f"{self.shown_name(asker)}：{prompt}"
        if len(options) == 1 and kind != "invoke":
            forced = getattr(self.agents[player.seat], "forced", None)
            if forced is not None:  # an agent may want to see the choices made for it
                forced(Request(player.seat, kind, prompt, tuple(options), asker, for_seat))
            if self.tracing:
                self.trace(f"  〔唯一選項〕{player.label()}：{prompt} → {options[0].label}")
            return options[0]
        request = Request(player.seat, kind, prompt, tuple(options), asker, for_seat)
        index: Any = self.agents[player.seat].choose(request, SeatView(self, player.seat))
        if type(index) is not int or not 0 <= index < len(options):  # an agent of the user's may answer anything
            raise RulesError(f"agent of seat {player.seat + 1} answered {index!r} to a {len(options)}-option question: "
                             f"an agent answers the index of an option, 0 to {len(options) - 1}")
        if self.tracing:
            labels = "／".join(o.label for o in options)
            self.trace(f"  〔詢問〕{player.label()}：{prompt}［{labels}］→ {options[index].label}")
        return options[index]

    def confirm(self, player: Player, prompt: str, yes: str, no: str, asker: str | None = None) -> bool:
        """A question with two answers, each labelled by what it does (never a bare 是／否)."""
        return bool(self.ask(player, "invoke", prompt, [Option(yes, True), Option(no, False)], asker).value)




    def fork(self, agents: list[Agent] | None = None) -> Game:
        """A copy of this game between turns that plays on exactly as it would given the same
        answers (engine/forking.py): its own agents copied, or `agents`."""
        from .forking import fork_game  # (imported when used: it imports every process, which import this)

        return fork_game(self, agents)

    def kind_named(self, name: str) -> CardKind:
        """The card a text names (a conversion, a virtual use), as this game plays it: the
        ruleset's variant of it when it has one (`variants`), else the library's card."""
        return self._variants.get(name) or self.library.cards[name]
































