"""The mode layer: a mode owns everything a way of playing decides, and the kernel decides none
of it. Who sits where and as what (roles, kingdoms, generals), how heroes are chosen and how
much hp they start with, who plays first and in what order, what each seat may see of the
others, what a death rewards or costs, when the game is won, and how its results read.

A mode is a subclass of `Mode` (one module per mode under sgs_dsl/modes/) with its data in
sgs_dsl/core/modes.py (name, player counts, options, outcomes). docs/modes.md walks through
the hooks with identity and 國戰 as examples."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..core.defs import Ruleset, Skill
from ..core.model import Player, RulesError
from ..core.modes import ModeSpec
from ..core.native import mypyc_attr
from ..engine.decisions import Option

if TYPE_CHECKING:
    from ..compiler.library import Library
    from ..engine.kernel import Game

BLANK_HP = 4  # a seat of a ruleset without heroes: a hero with 4 max hp and no skills

#: Heroes put on seats on purpose (`sgs simulate --hero 3=NAME`, `--feature NAME`): seat
#: (0-based) -> the key of a hero (國戰: a general) of the mode's pool. The mode seats each
#: there instead of dealing that seat a choice, and deals it to nobody else.
Placed = Mapping[int, str]


def placed_cards(pool: Sequence[Any], placed: Placed | None) -> dict[int, Any]:
    """The pool's card of each placed seat (seat -> card); {} for no placement. A ValueError
    for a name the pool does not hold, or one placed on two seats."""
    cards: dict[int, Any] = {}
    for seat, name in sorted((placed or {}).items()):
        card = next((h for h in pool if h.key == name), None)
        if card is None:
            raise ValueError(f"{name} is not among the heroes of the ruleset's packages")
        if any(c is card for c in cards.values()):
            raise ValueError(f"{name} is placed on two seats")
        cards[seat] = card
    return cards


def unplaced(pool: Sequence[Any], cards: dict[int, Any]) -> list[Any]:
    """The pool without the placed cards, in its order: what is dealt to the other seats."""
    return [h for h in pool if not any(h is c for c in cards.values())]


class Dealer(Protocol):
    """What deals the hero cards at random: the game's seeded random.Random, or a ruling's
    dealer that arranges the candidates instead (rulings/table.py)."""

    def shuffle(self, x: list[Any]) -> None: ...

    def choice(self, seq: Sequence[Any]) -> Any: ...


# Compiled with mypyc in the compiled build (docs/performance.md): tests and other modes
# subclass the modes in Python, and the class-level settings are ClassVars, read from the
# class a subclass may override them in.
@mypyc_attr(allow_interpreted_subclasses=True)
class Mode:
    lone_sides: ClassVar[tuple[str, ...]] = ()  # sides whose players have no ally, even of the same side
    """The hooks the game and the kernel call; the defaults are what most modes do."""

    spec: ClassVar[ModeSpec]
    starting_hand: ClassVar[int] = 4  # cards each seat draws before the first turn
    hides_skills: ClassVar[bool] = False  # some of a player's skills are on face-down cards (國戰): see `hidden`
    cards_per_seat: ClassVar[int] = 1  # hero cards a seat takes (國戰: two generals)
    locked_first: ClassVar[bool] = False  # in one window, a player's locked skills resolve before their others
    # the log of 翻面: turned over, back
    turned_words: ClassVar[tuple[str, str]] = ("將武將牌翻至背面朝上", "將武將牌翻至正面朝上")

    def __init__(self, ruleset: Ruleset | None = None):
        self.ruleset = ruleset  # the ruleset being played (None for a table built by hand)

    @property
    def name(self) -> str:
        return self.spec.name

    def option(self, name: str) -> Any:
        """A mode option as the ruleset sets it, else its default."""
        if self.ruleset is not None and name in self.ruleset.mode_options:
            return self.ruleset.mode_options[name]
        spec = self.spec.option(name)
        return spec.default if spec is not None else None

    # ------------------------------------------------------------ setup
    def check_players(self, n: int) -> None:
        low, high = self.spec.players
        if not low <= n <= high:
            raise ValueError(f"{self.spec.title} ({self.name}) seats {low} to {high} players, not {n}")

    def seats(self, n: int, rng: random.Random, with_heroes: bool) -> list[Player]:
        """The seats before heroes are chosen, in seat order (seat 0 first)."""
        raise NotImplementedError

    def choose_heroes(self, game: Game, pool: list[Any], rng: Dealer, placed: Placed | None = None) -> None:
        """Every seat gets its hero (or generals) from the pool (the cards `hero_pool` gives:
        heroes, or 國戰's generals); `rng` shuffles (a ruling's table passes a dealer that
        arranges the candidates instead). `placed` seats get the hero named for them (`Placed`),
        which nobody else is dealt; without it, the mode's own selection for every seat."""
        raise NotImplementedError

    def placement_problem(self, pool: list[Any], name: str) -> str:
        """Why the pool's hero `name` cannot be placed on a seat (`Placed`), or "" when it can."""
        return ""

    def opening(self, game: Game) -> str:
        """The first line of the game's log, once the seats have their heroes."""
        return f"{self.spec.title} {len(game.players)}人"

    def first_player(self, game: Game) -> Player:
        return game.players[0]

    def next_player(self, game: Game, player: Player) -> Player:
        return game.seats.next_alive(player)

    def hero_pool(self, library: Library, packages: tuple[str, ...]) -> list[Any]:
        """The cards heroes are chosen from: the heroes of the ruleset's packages (each mode
        says which cards: compiler.library's Hero, or General)."""
        return [h for h in library.heroes.values() if h.package in packages]

    def phase_starting(self, game: Game, player: Player, phase: str) -> None:
        """Before a phase's start window (國戰: reveal generals as the preparation phase starts)."""

    # ------------------------------------------------------------ during the game
    def has_skill(self, player: Player, skill: Skill) -> bool:
        """Whether a skill of the player's hero is in play for them (the kernel caches this)."""
        return self.plays_skill(skill)

    def plays_skill(self, skill: Skill) -> bool:
        """Whether a hero's skill can be in play for anyone at this table (a table of heroes
        without skills says no to all, a mode without a lord to lord skills): the skills a
        batch's statistics count."""
        return True

    def hidden(self, player: Player, skill: Skill) -> bool:
        """The skill is on a face-down card: it may be invoked (which shows the card first), but
        nothing of it acts by itself (with `hides_skills`)."""
        return False

    def copies(self, player: Player, skill: Skill) -> int:
        """How many of the player's face-up cards give the skill: its modifiers act that often
        (國戰: two 馬術 stack, seed 001 Q&A 11)."""
        return 1

    def play_options(self, game: Game, player: Player) -> list[Option]:
        """Actions the mode adds to the player's play phase (國戰: showing a general whose skill
        says it may be shown then); each option's value is ("mode", what `play_action` takes)."""
        return []

    def hand_limit_bonus(self, game: Game, player: Player) -> int:
        """What the mode adds to the player's hand limit in the discard phase now."""
        return 0

    def play_action(self, game: Game, player: Player, what: Any) -> None:  # what the mode's option carried
        raise RulesError(f"{self.spec.title} has no actions of its own in the play phase")

    def on_invoke(self, game: Game, player: Player, skill: Skill) -> None:
        """The player invokes a skill by choice, before it acts (國戰: its general is shown)."""

    def revealed(self, player: Player) -> bool:
        """A card of the player's is face up (國戰: a general); with one hero, always."""
        return True

    def general_name(self, player: Player, slot: int) -> str:
        """The name on the player's face-up card in this slot (0 the head, 1 the deputy), or ""."""
        return player.name if slot == 0 else ""

    def hidden_count(self, player: Player) -> int:
        """How many of the player's general cards are face down (none in a mode of heroes)."""
        return 0

    def look_general(self, game: Game, viewer: Player, player: Player) -> str:
        return ""  # nothing face down to look at

    def hide(self, game: Game, player: Player, slot: int) -> None:
        raise RulesError(f"{self.spec.title} has no general cards to turn face down")

    def remove(self, game: Game, player: Player, slot: int) -> None:
        raise RulesError(f"{self.spec.title} has no general cards to remove")

    def lose_all_skills(self, game: Game, player: Player) -> None:
        """The player loses every skill it has, for the rest of the game (失去所有技能)."""
        game.state.lose_all_skills(player)

    def lose_skills(self, game: Game, player: Player, slot: int) -> None:
        raise RulesError(f"{self.spec.title} has no general cards whose skills could be lost")

    def death_note(self, player: Player) -> str:
        """What the log adds when a player dies (the role or kingdom shown then)."""
        return ""

    def check_victory(self, game: Game) -> None:
        """Raise GameOver when the game is won; nothing otherwise."""

    def outcome(self, game: Game) -> str | None:
        """The winner the table shows now by the mode's victory table, read afresh from the
        seats (who is alive, on which side), written apart from `check_victory`: the invariants
        compare the two, so that a slip in either is seen. None while the game goes on."""
        raise NotImplementedError(f"mode {self.name} reads no outcome: a mode defines `outcome` "
                                  "beside `check_victory` (docs/modes.md)")

    def invariant_problems(self, game: Game) -> list[str]:
        """What is wrong with what the mode itself keeps (roles as dealt, kingdoms and the
        generals shown, team leaders), each as a message; [] when all is well. Checked with the
        kernel's invariants (engine/invariants.py)."""
        return []

    def text_sets_kingdom(self, game: Game, player: Player) -> None:
        """Text is about to change the player's kingdom (`set_kingdom`, `set_hero`): a mode that
        decides kingdoms itself (國戰) notes that this one is the text's."""

    def after_death(self, game: Game, dead: Player, killer: Player | None) -> None:
        """Rewards and penalties (獎懲), once the dead player's cards are gone."""

    def visible_generals(self, viewer: int, player: Player) -> tuple[str, ...]:
        """The general cards seat `viewer` may see of the player ("" for a face-down one)."""
        return ()

    def generals_shown(self, player: Player) -> tuple[bool, ...]:
        """Which of the player's general cards lie face up (public: everyone sees them turned)."""
        return ()

    def visible_side(self, viewer: int, player: Player) -> str | None:
        """What seat `viewer` knows of the player's side (role, kingdom); None: unknown."""
        return player.role or None

    def determinize(self, game: Game, viewer: int, rng: random.Random,
                    belief: tuple[float, ...] | None = None) -> None:
        """Deal again, at random, what the mode keeps hidden from seat `viewer` (a copy of the
        game made one world the seat cannot tell from the real one: engine/knowledge.py);
        `belief`, the viewer's guess of each seat as an ally (1) or an enemy (-1), may weigh
        the deal. Here every side is shown (`visible_side`): nothing is hidden."""

    def pivotal(self, player: Player) -> bool:
        """Does the player's death end the game for its whole side (identity's lord, 3v3's
        leader)? A player looking ahead weighs what such a player has more."""
        return False

    def allied(self, mine: str, theirs: str) -> bool:
        """Do two sides (as `side` names them) play for one another? The same side, unless it
        is one that stands alone (`lone_sides`)."""
        return mine == theirs and mine not in self.lone_sides

    def dealt_sides(self, game: Game) -> dict[str, int] | None:
        """How many players were dealt each side, when everyone may know it (identity deals a
        public table of roles by player count; the seats holding them may stay hidden); None
        when the count itself is hidden."""
        counts: dict[str, int] = {}
        for p in game.players:
            counts[p.role] = counts.get(p.role, 0) + 1
        return counts

    # ------------------------------------------------------------ results
    def side(self, game: Game, player: Player) -> str:
        """The player's side when the game ends, for statistics (a role, a kingdom)."""
        return player.role

    def sides(self, game: Game) -> tuple[str, ...]:
        return tuple(self.side(game, p) for p in game.players)

    def seat_won(self, game: Game, player: Player, winner: str) -> bool:
        """The seat is on the winning side of a game whose result is `winner` (a dead
        loyalist wins with the lord)."""
        return self.spec.seat_won(self.side(game, player), winner)

    def seat_heroes(self, game: Game, player: Player) -> tuple[str, ...]:
        """The hero cards the seat played, by key, for statistics (國戰: its two generals)."""
        return (player.hero_key or player.name,)
