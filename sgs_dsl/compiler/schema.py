"""The closed schema of the language: value types and their fields, the effects and functions
a block may call, the block and clause names of a card. The checker accepts nothing else."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ..core.model import Card, Player, UsedCard
from ..resources import data_dir

# ---------------------------------------------------------------- fields of value types

def _equip(slot: str) -> Callable[[Player], Any]:
    return lambda p: p.equips.get(slot)


PLAYER_FIELDS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "hp": ("int", lambda p: p.hp),
    "max_hp": ("int", lambda p: p.max_hp),
    "hurt": ("bool", lambda p: p.hp < p.max_hp),
    "hand": ("int", lambda p: len(p.hand)),
    "cards": ("int", lambda p: len(p.hand) + len(p.equips)),
    "area": ("int", lambda p: len(p.hand) + len(p.equips) + len(p.judge)),
    "equips": ("int", lambda p: len(p.equips)),
    "weapon": ("card?", _equip("weapon")),
    "armor": ("card?", _equip("armor")),
    "horses": ("int", lambda p: sum(1 for s in p.equips if s.endswith("horse"))),
    "gender": ("gender", lambda p: p.gender),
    "kingdom": ("kingdom", lambda p: p.kingdom),
    "role": ("role", lambda p: p.role),
    "alive": ("bool", lambda p: p.alive),
    "chained": ("bool", lambda p: p.chained),
    "dying": ("bool", lambda p: p.dying),
    "seat": ("int", lambda p: p.seat + 1),
    # player state
    "turned": ("bool", lambda p: p.turned),
}


def _card_type(c: Card | UsedCard) -> str:
    return c.kind.type


CARD_FIELDS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "name": ("card_name", lambda c: c.kind.name),
    "suit": ("suit", lambda c: c.suit),
    "color": ("color", lambda c: c.color),
    "red": ("bool", lambda c: c.color == "red"),
    "black": ("bool", lambda c: c.color == "black"),
    "rank": ("int", lambda c: c.rank),
    "nature": ("nature", lambda c: c.nature),
    "type": ("card_type", _card_type),
    "virtual": ("bool", lambda c: getattr(c, "is_virtual", False)),
}

USE_FIELDS = {
    "card": ("card", lambda u: u.card),
    "user": ("player", lambda u: u.user),
    "targets": ("players", lambda u: list(u.targets)),
    "damage_bonus": ("int", lambda u: u.damage_bonus),
    "current_target": ("player?", lambda u: u.current),  # whom it is resolving on now
}

DAMAGE_FIELDS = {
    "source": ("player?", lambda d: d.source),
    "target": ("player", lambda d: d.target),
    "amount": ("int", lambda d: d.amount),
    "nature": ("nature", lambda d: d.nature),
    "card": ("card?", lambda d: d.card),
    "chained": ("bool", lambda d: d.chained),
    "use": ("use?", lambda d: d.use),
}

JUDGE_FIELDS = {
    "card": ("card", lambda j: j.card),
    "suit": ("suit", lambda j: j.card.suit),
    "rank": ("int", lambda j: j.card.rank),
    "color": ("color", lambda j: j.card.color),
    "player": ("player", lambda j: j.player),
}

FIELDS: dict[str, dict[str, tuple[str, Callable[[Any], Any]]]] = {
    "player": PLAYER_FIELDS,
    "card": CARD_FIELDS,
    "use": USE_FIELDS,
    "damage": DAMAGE_FIELDS,
    "judge": JUDGE_FIELDS,
    "asked": {"player": ("player", lambda a: a.player), "card": ("card", lambda a: a.card),
              "mode": ("asked_mode", lambda a: a.mode)},
    "dying": {"player": ("player", lambda d: d.player), "damage": ("damage?", lambda d: d.damage)},
    "phase": {"name": ("phase_name", lambda p: p.name), "player": ("player", lambda p: p.player),
              "count": ("int", lambda p: p.count)},
    "recover": {"player": ("player", lambda r: r.player), "amount": ("int", lambda r: r.amount),
                "source": ("player?", lambda r: r.source), "card": ("card?", lambda r: r.card)},
    "move": {"player": ("player", lambda m: m.player), "zone": ("move_zone", lambda m: m.zone),
             "card": ("card", lambda m: m.card),
             "cards": ("cards", lambda m: list(m.cards) or [m.card]),  # all lost at once
             "hand": ("cards", lambda m: m.lost_from("hand")), "equip": ("cards", lambda m: m.lost_from("equip")),
             "reason": ("reason", lambda m: m.reason)},  # why: use, play, discard, give, gain, put, recast, judge
}
# hp or max hp changed: the payload of hp_changed and max_hp_changed
FIELDS["change"] = {
    "player": ("player", lambda c: c.player), "delta": ("int", lambda c: c.delta),
    "amount": ("int", lambda c: abs(c.delta)), "damage": ("damage?", lambda c: c.damage),
}
# cards entering the discard pile from one place: the payload of into_discard_pile
FIELDS["discarded"] = {
    "cards": ("cards", lambda d: list(d.cards)), "card": ("card", lambda d: d.cards[0]),
    "origin": ("origin", lambda d: d.origin), "owner": ("player?", lambda d: d.owner),
    "reason": ("reason", lambda d: d.reason),
}
# a point fight (拼點), returned by point_fight and the payload of point_shown
FIELDS["fight"] = {
    "source": ("player", lambda f: f.source), "target": ("player", lambda f: f.target),
    "source_card": ("card", lambda f: f.source_card), "target_card": ("card", lambda f: f.target_card),
    "source_rank": ("int", lambda f: f.source_rank), "target_rank": ("int", lambda f: f.target_rank),
    "won": ("bool", lambda f: f.won), "tie": ("bool", lambda f: f.tie),
    "winner": ("player?", lambda f: f.winner), "loser": ("player?", lambda f: f.loser),
}

# a face-down card questioned (質疑) and turned up: the payload of `questioned`
FIELDS["question"] = {
    "user": ("player", lambda q: q.user), "card": ("card", lambda q: q.card),
    "real": ("card", lambda q: q.real), "declared": ("card_name", lambda q: q.declared),
    "genuine": ("bool", lambda q: q.genuine), "questioners": ("players", lambda q: list(q.questioners)),
}

# fields read through the holder's filters (a card counting as another suit or card)
FILTERED_FIELDS = {"card": frozenset(("name", "suit", "color", "red", "black", "type")),
                   "judge": frozenset(("suit", "color"))}

# fields a `set` statement may change, by type (the window table says where it matters)
MUTABLE: dict[str, set[str]] = {"damage": {"amount", "nature"}, "phase": {"count"}, "recover": {"amount"}}
# a damage's source may change; a fight's ranks may change in point_shown
MUTABLE["damage"].add("source")
MUTABLE["fight"] = {"source_rank", "target_rank"}
MUTABLE["use"] = {"damage_bonus"}  # a bonus the card carries into its damage
MUTABLE["question"] = {"genuine"}  # a skill may count a questioned card true (or false)


def base_type(t: str) -> str:
    return t.rstrip("?")


# ---------------------------------------------------------------- variables in scope

CARD_BLOCK_VARS = {"user": "player", "target": "player", "card": "card", "use": "use", "responded": "use?"}
USE_WINDOW_VARS = {"use": "use", "card": "card", "user": "player", "target": "player?", "responded": "use?"}
PAYLOAD_VARS: dict[str, dict[str, str]] = {
    "use": USE_WINDOW_VARS,
    "damage": {"damage": "damage"},
    "judge": {"judge": "judge"},
    "asked": {"asked": "asked", "use": "use?", "target": "player"},
    "dying": {"dying": "dying"},
    "death": {"death": "dying", "killer": "player?"},
    "phase": {"phase": "phase"},
    "turn": {"turn": "phase"},
    "recover": {"recover": "recover"},
    "lose": {"lose": "recover"},
    "move": {"move": "move"},
    "change": {"change": "change"},
    "discarded": {"discarded": "discarded"},
    "fight": {"fight": "fight"},
    "game": {},  # the game starting: nothing but `you`
    "question": {"question": "question"},
    "play": {"card": "card", "user": "player", "responded": "use?"},  # a card played out (打出)
}

BLOCKS = {
    "respond": "生效前: ask for the response that can cancel it",
    "effect": "生效後: the effect on one target",
    "prepare": "after targets are fixed, before the first target resolves",
    "finish": "after every target resolved",
    "nullified": "a delayed trick that was cancelled",
}

USE_CONTEXTS = {"play": "at free time in your play phase", "dying": "when a player is dying",
                "respond": "only when asked to use it", "counter": "polled before a matching card takes effect"}

TARGET_WORDS = {
    ("self",): "self", ("one",): "one", ("one", "other"): "one_other", ("all",): "all",
    ("all", "others"): "all_others", ("dying",): "dying",
}

CARD_TYPES = ("basic", "trick", "delayed", "weapon", "armor", "offense_horse", "defense_horse")
CARD_PROPS = {"range": "int", "limit": "int", "distance": "int", "nature": "nature", "like": "card",
              "targets": "int", "recast": "int"}
MODIFIERS = {
    "limit": "uses of a card per play phase (value or `unlimited`)",
    "targets": "extra targets of a card (`where COND`: what each extra target must meet, `it`)",
    "distance_to": "your distance to others (`player`: the other one; `= N` sets it)",
    "distance_from": "others' distance to you (`player`: the other one; `= N` sets it)",
    "range": "the attack-range limit of a card (`= unlimited` lifts it)",
    "attack_range": "your attack range",
    "hand_limit": "your hand limit",
    "trick_distance": "the distance limit of your tricks",
    # a rule that replaces dying
    "survive": "while its value is true you stay alive at hp 0 or below (`modify survive = true when ...`)",
    "dying": "while its value is false you do not enter the dying state at hp 0 or below: no rescue round; "
             "when it stops holding, you enter it (`modify dying = false when ...`)",
}
MARK_SCOPES = ("phase", "turn", "game")  # how long a mark lasts
ZONES = ("hand", "equip", "judge", "hand_equip", "area", "horses", "weapon", "armor")
SLOTS = ("weapon", "armor", "offense_horse", "defense_horse")
NATURES = {"normal": "normal", "fire": "fire", "thunder": "thunder", "火": "fire", "雷": "thunder"}
PHASE_NAMES = {"prepare": "prepare", "judge": "judge", "draw": "draw", "play": "play", "discard": "discard",
               "finish": "finish", "準備": "prepare", "判定": "judge", "摸牌": "draw", "出牌": "play",
               "棄牌": "discard", "結束": "finish"}
# A pattern reads only a card's face (suit, colour, kind and its type, nature), which a physical
# card and a used one both have: the engine matches a card no filter touches by the card itself.
PATTERN_WORDS = {
    "any": lambda c: True,
    "red": lambda c: c.color == "red",
    "black": lambda c: c.color == "black",
    "basic": lambda c: c.kind.type == "basic",
    "trick": lambda c: c.kind.type in ("trick", "delayed"),
    "delayed": lambda c: c.kind.type == "delayed",
    "ordinary": lambda c: c.kind.type == "trick",  # 普通錦囊: a trick that is not delayed
    "equip": lambda c: c.kind.is_equip,
    "weapon": lambda c: c.kind.type == "weapon",
    "armor": lambda c: c.kind.type == "armor",
    "horse": lambda c: c.kind.type.endswith("horse"),
    "fire": lambda c: c.nature == "fire",
    "thunder": lambda c: c.nature == "thunder",
    "normal": lambda c: c.nature == "normal",
}
# Suits by name: English words here, Chinese names (either script) in grammar/suit_names.txt.
SUIT_WORDS = {"spade": "spade", "heart": "heart", "club": "club", "diamond": "diamond"}
for _line in (data_dir("grammar") / "suit_names.txt").read_text(encoding="utf-8").splitlines():
    if _line and not _line.startswith("#"):
        _name, _suit = _line.split()
        SUIT_WORDS[_name] = _suit
for _word, _suit in SUIT_WORDS.items():
    PATTERN_WORDS[_word] = (lambda s: lambda c: c.suit == s)(_suit)
# the names a text compares a card's suit, colour and type, and a move's zone and reason with
# (compiler.state_check.LITERALS: in either script where the game has two, checked at load time)
SUIT_NAMES = {**SUIT_WORDS, "♠": "spade", "♥": "heart", "♣": "club", "♦": "diamond"}
COLOR_NAMES = {"red": "red", "black": "black", "紅": "red", "红": "red", "黑": "black",
               "紅色": "red", "红色": "red", "黑色": "black"}
CARD_TYPE_NAMES = {t: t for t in CARD_TYPES}
ASKED_MODES = {"use": "use", "play": "play", "使用": "use", "打出": "play"}  # asked.mode: 使用 or 打出
MOVE_ZONES = {"hand": "hand", "equip": "equip", "手牌": "hand", "裝備區": "equip", "装备区": "equip"}
KINGDOMS = {"wei": "wei", "shu": "shu", "wu": "wu", "qun": "qun", "god": "god",
            "魏": "wei", "蜀": "shu", "吳": "wu", "吴": "wu", "群": "qun", "神": "god"}


# ---------------------------------------------------------------- effects and functions

@attrs.frozen
class Param:
    name: str
    type: str  # player / int / bool / card? / cards / use / damage / pattern / nature / phase / zone / slot / any


@attrs.frozen
class Builtin:
    name: str
    params: tuple[Param, ...]
    keywords: dict[str, tuple[str, Any]]  # name -> (type, default)
    returns: str
    doc: str
    needs: str = ""  # a variable that must be in scope (e.g. asked for provide)
    generals: bool = False  # acts on general cards: only a mode that deals them (ModeSpec.generals) has it
    min_args: int = -1

    @property
    def required(self) -> int:
        return len(self.params) if self.min_args < 0 else self.min_args


def arity_message(name: str, low: int, high: int | None, got: int) -> str:
    """What a call given `got` arguments is told, for every effect, function and procedure
    alike: the one count it takes, or the bound it missed (high None: no upper bound)."""
    if low == high:
        want = _arguments(low)
    elif got < low:
        want = f"at least {_arguments(low)}"
    else:
        want = f"at most {_arguments(high or 0)}"
    return f"'{name}' takes {want}, got {got}"


def _arguments(n: int) -> str:
    return "no arguments" if n == 0 else "1 argument" if n == 1 else f"{n} arguments"


P = Param
BUILTINS: dict[str, Builtin] = {b.name: b for b in (
    Builtin("draw", (P("player", "player"), P("n", "int")), {}, "none", "the player draws n cards"),
    Builtin("damage", (P("player", "player"), P("n", "int")),
            {"nature": ("nature", "normal"), "by": ("player?", "default"), "card": ("card?", None)}, "none",
            "deal n damage (source: the card's user or the skill's owner, or `by:`; `by: none` for no source); "
            "credited to `card:` (`card: none`: to no card), by default in a card's text to that card, else to none"),
    Builtin("recover", (P("player", "player"), P("n", "int")), {}, "none", "the player recovers n hp"),
    Builtin("lose_hp", (P("player", "player"), P("n", "int")), {}, "none", "the player loses n hp"),
    Builtin("discard", (P("player", "player"), P("n", "int")),
            {"from": ("zone", "hand"), "optional": ("bool", False), "keep": ("slot", ""), "among": ("cards?", None)},
            "bool", "the player discards n of their own cards (`among:` only of these); false if they cannot (or "
            "decline, when optional)"),
    Builtin("throw", (P("card", "card_or_cards"),), {}, "none", "put a card (or a list of cards) into the discard pile"),
    Builtin("gain", (P("player", "player"), P("card", "card_or_cards")), {}, "none",
            "the player takes a card (or a list of cards) into hand"),
    Builtin("pick", (P("chooser", "player"), P("from", "any"), P("zone", "zone")), {}, "card?",
            "pick(p, q, zone): p picks one of q's cards (others' hand cards face down); "
            "pick(p, cards): p picks one of a list of revealed cards", min_args=2),
    Builtin("reveal", (P("n", "int"),), {}, "cards", "reveal n cards from the deck top into the processing area; those the text leaves there go to the discard pile when its block (or the use it runs in) ends"),
    Builtin("judge", (P("player", "player"),), {}, "judge", "the player performs a judgement: retrials act (judge_before) and the fixed result is returned; the judge_after window and the discard follow when the calling block ends, so the text acts on the result first"),
    Builtin("replace_judge", (P("judge", "judge"), P("card", "card?")), {}, "none",
            "retrial (改判): the card becomes the judge card, the old judge card goes to the discard pile"),
    Builtin("skip", (P("player", "player"), P("phase", "phase")), {}, "none", "the player skips a phase this turn"),
    Builtin("ask_use", (P("player", "player"), P("card", "pattern")),
            {"on": ("player?", None)}, "bool",
            "ask the player to use a matching card (in answer to the card resolving, or `on:` a target; "
            "a use asked for by text never counts against the play-phase limit)"),
    Builtin("ask_play", (P("player", "player"), P("card", "pattern")), {"count": ("int", 1)}, "bool",
            "ask the player to play out (打出) a matching card (`count:` that many, one after another)"),
    Builtin("cancel", (P("use", "use?"),), {"for": ("players", None)}, "none",
            "cancel (抵消) a card for the target it is resolving on; `for:` also, outright, for each of "
            "these players among its targets still to resolve"),
    Builtin("hit", (P("use", "use"),), {}, "none", "undo a cancellation: the card takes effect after all"),
    Builtin("invalidate", (P("use", "use"),), {}, "none", "the card has no effect on the current target"),
    Builtin("ignore_armor", (P("use", "use"), P("player", "player")), {}, "none",
            "the player's armour does not work while this card resolves"),
    Builtin("prevent", (P("damage", "damage"),), {}, "none", "prevent the damage"),
    Builtin("pass_on", (P("card", "card"),), {}, "none",
            "move a delayed trick to the next player whose judge area can take it"),
    Builtin("provide", (P("card", "pattern"),), {"by": ("player?", None)}, "bool",
            "in an `asked` window: count as having used or played the card asked for; `by:` another "
            "player plays out (打出) a real matching card for it (true when they did)", needs="asked"),
    Builtin("in_range", (P("a", "player"), P("b", "player")), {"without": ("card_or_cards", None)}, "bool",
            "b is within a's attack range; `without:` as it would be with those equipped cards gone (a cost "
            "that discards the weapon or horse giving the range)"),
    Builtin("opposite_gender", (P("a", "player"), P("b", "player")), {}, "bool",
            "a and b are of opposite genders (異性); a player with no gender (國戰: no general face up) is of none"),
    Builtin("distance", (P("a", "player"), P("b", "player")), {"without": ("card_or_cards", None)}, "int",
            "the distance from a to b; `without:` as it would be with those equipped cards gone"),
    Builtin("count", (P("items", "list"),), {}, "int", "how many items"),
    Builtin("attack_range", (P("player", "player"),), {"without": ("card_or_cards", None)}, "int",
            "the player's attack range: its weapon's range (1 without one) with its modifiers; `without:` as it "
            "would be with those equipped cards gone"),
    Builtin("count_in_range", (P("player", "player"),), {}, "int", "how many players are in the player's attack range"),
    Builtin("uses_last_hand", (P("player", "player"), P("card", "card")), {}, "bool",
            "the card is made of all of the player's remaining hand cards"),
    Builtin("others", (P("player", "player"),), {}, "players", "the other living players, in seat order"),
    Builtin("players", (), {}, "players", "the living players, in seat order from the current player"),
    Builtin("chain", (P("player", "player"),), {}, "none",
            "toggle the player's chained state (連環): chained players pass on fire and thunder damage"),
    Builtin("cards_of", (P("player", "player"), P("zone", "zone")), {}, "cards",
            "the player's cards in a zone, as a list (others' hand cards are still picked face down by `pick`)"),
    Builtin("current", (), {}, "player", "the player whose turn it is"),
    Builtin("confirm", (P("player", "player"), P("question", "str")), {"yes": ("str", ""), "no": ("str", "")},
            "bool", "ask the player a question with two answers, each labelled by what it does: true for `yes:`, "
            "false for `no:`; a question `是否V？` may leave a label out (V, 不V); see [Questions](#questions)"),
    Builtin("choose_player", (P("chooser", "player"), P("players", "players")), {"prompt": ("str", "")}, "player?",
            "the chooser picks one of the players (none when there are none); `prompt:` the question"),
    Builtin("choose_players", (P("chooser", "player"), P("players", "players")),
            {"max": ("int", 1), "min": ("int", 1), "prompt": ("str", "")}, "players",
            "the chooser picks between min and max of the players, one at a time, in order"),
    Builtin("choose_cards", (P("chooser", "player"),),
            {"max": ("int", 1), "min": ("int", 1), "from": ("zone", "hand"),
             "match": ("pattern", None), "among": ("cards?", None)}, "cards",  # match, among
            "the chooser picks between min and max of their own cards in a zone, or `among:` a list of "
            "cards; `match:` only cards of a pattern word or card name (`match: red`)"),
    # labelled choices among effects, declaring a card name
    Builtin("choose_option", (P("chooser", "player"), P("options", "labels")),
            {"offer": ("offers", None), "prompt": ("str", "")}, "str?",
            "the chooser picks one option, each labelled by what it does (`[\"回復1點體力\", \"摸兩張牌\"]`); "
            "`offer:` one condition per option: an option whose condition fails is not offered. The label "
            "chosen is returned (none when nothing is offered)"),
    Builtin("declare", (P("chooser", "player"), P("names", "card_names")), {"prompt": ("str", "")}, "str",
            "宣告: the chooser names one of the card names (written out: `[NAME, NAME]`); the name is returned and logged"),
    Builtin("choose_suit", (P("chooser", "player"),), {}, "str", "the chooser names a suit"),
    Builtin("give", (P("giver", "player"), P("receiver", "player"), P("cards", "card_or_cards")), {}, "none",
            "the giver hands cards (one or a list) to the receiver"),
    Builtin("show", (P("card", "card?"),), {}, "none", "show a card to everyone"),
    Builtin("look", (P("player", "player"), P("n", "int")), {}, "cards",
            "the player takes the top n cards of the deck aside to look at (into the processing area); those the text leaves there go back on the deck top, in their order, when its block ends"),
    Builtin("arrange", (P("player", "player"), P("n", "int")), {}, "none",
            "the player looks at the top n cards and puts each on the top or the bottom, in any order"),
    Builtin("in_processing", (P("card", "card?"),), {}, "bool",
            "the card (all of it, for a card made of several) is in the processing area"),
    Builtin("in_discard_pile", (P("card", "card?"),), {}, "bool",
            "the card (all of it, for a card made of several) is in the discard pile"),
    Builtin("need", (P("use", "use"), P("player", "player")), {}, "int",
            "how many cancels (dodge-like answers) the use needs for this player: 1 unless required"),
    Builtin("require", (P("use", "use"), P("player", "player"), P("n", "int")), {}, "none",
            "the use needs n cancels (or n cards played out) from the player"),
    Builtin("no_response", (P("use", "use"), P("player", "player")), {}, "none",
            "the player may not respond to the use (cannot use or play a card against it)"),
    Builtin("cancel_target", (P("use", "use"), P("player", "player")), {}, "none",
            "取消: the player is no longer a target of the card; with no target left it goes to the "
            "discard pile (seed 001), its use still made"),
    Builtin("redirect", (P("use", "use"), P("from", "player"), P("to", "player")), {}, "none",
            "the use's target `from` is replaced by `to`"),
    Builtin("can_target", (P("user", "player"), P("player", "player"), P("card", "pattern")), {}, "bool",
            "the player may be made a target of such a card by the user (alive, and no `forbid target` stops it)"),
    Builtin("can_use", (P("player", "player"), P("card", "pattern")), {}, "bool",
            "the player could use the card now in their play phase (limit and legal targets)"),
    Builtin("choose_targets", (P("player", "player"), P("card", "pattern")), {}, "players",
            "the player picks legal targets for the card, as for a use in the play phase"),
    # a use made with a card another player provides; where a use may be moved
    Builtin("use_provided", (P("player", "player"), P("card", "pattern"), P("by", "player")),
            {"on": ("players", None), "limit": ("bool", False)}, "bool",
            "`by` plays out (打出) a real matching card, which the player uses on the players "
            "(`limit: true` counts against the play-phase limit); true when it was used"),
    Builtin("can_redirect", (P("use", "use"), P("player", "player")), {}, "bool",
            "the use may be moved onto the player: alive, not already its target, a player its card may target"),
    Builtin("use_virtual", (P("player", "player"), P("card", "virtual_card")),
            {"on": ("players", None), "counter": ("bool", True), "limit": ("bool", False)}, "bool",
            "the player is treated as using the card (no real card) on the players; `counter: false` "
            "cannot be countered; `limit: true` counts against the play-phase limit"),
    Builtin("mark", (P("player", "player"), P("key", "str"), P("n", "int")), {"until": ("mark_scope", "game")}, "none",
            "set a named counter on the player, cleared at the end of the phase, the turn, or never"),
    Builtin("marks", (P("player", "player"), P("key", "str")), {}, "int", "a named counter of the player (0 if unset)"),
    Builtin("count_this_turn", (P("player", "player"), P("card", "pattern")), {}, "int",
            "how many matching cards the player used or played out this turn"),
    # player state and skills as state
    Builtin("gain_max_hp", (P("player", "player"), P("n", "int")), {}, "none", "the player gains n max hp"),
    Builtin("lose_max_hp", (P("player", "player"), P("n", "int")), {}, "none",
            "the player loses n max hp; hp is cut down to the new max, and max hp 0 is death"),
    Builtin("turn_over", (P("player", "player"),), {}, "none",
            "turn the player's hero card over (翻面): face down, or face up again; a face-down player "
            "turns face up at 回合開始前 and skips that turn"),
    Builtin("remember", (P("player", "player"), P("state", "state"), P("value", "state_value")), {}, "none",
            "keep a value on the player in one of the skill's states (`state NAME: TYPE until SCOPE;`)"),
    Builtin("recall", (P("player", "player"), P("state", "state")), {}, "any",
            "the value the player keeps in a state of the skill (0, \"\", false, none or [] if none)"),
    Builtin("remember_game", (P("state", "state"), P("value", "state_value")), {}, "none",
            "keep a value on the game (not on a player) in one of the skill's states"),
    Builtin("recall_game", (P("state", "state"),), {}, "any", "the value the game keeps in a state of the skill"),
    Builtin("current_phase", (), {}, "phase_name?",
            "the phase being played (compare it with a phase name in either script), none between phases"),
    Builtin("grant_skill", (P("player", "player"), P("skill", "skill")), {}, "none",
            "the player gains a skill (logged; it fires and is counted under its own name)"),
    Builtin("remove_skill", (P("player", "player"), P("skill", "skill")), {}, "none", "the player loses a skill"),
    Builtin("lose_all_skills", (P("player", "player"),), {}, "none",
            "the player loses every skill it has, for the rest of the game, in any mode (國戰: both generals' "
            "skills, the generals staying); a skill gained later is its own"),
    Builtin("disable_skills", (P("player", "player"),), {"until": ("scope", "turn")}, "none",
            "the player's hero skills lose effect (技能失效) until the end of the phase, turn or round"),
    Builtin("spent", (P("player", "player"), P("skill", "skill")), {}, "bool",
            "the player's limited (限定技) or wake (覺醒技) skill has fired: it never fires again"),
    Builtin("times_used", (P("player", "player"), P("skill", "skill")), {}, "int",
            "how often the player has used the skill (its `active` actions and `view_as` conversions) "
            "in the player's play phase now, 0 outside it: `when times_used(you, SKILL) < 4` is 限四次"),
    Builtin("set_gender", (P("player", "player"), P("gender", "gender")), {}, "none",
            "the player's gender becomes male or female (男 / 女)"),
    Builtin("set_kingdom", (P("player", "player"), P("kingdom", "kingdom")), {}, "none",
            "the player's kingdom changes (魏 蜀 吳 群 神)"),
    Builtin("set_hero", (P("player", "player"), P("hero", "hero")), {}, "none",
            "the player's hero card becomes another hero: name, gender, kingdom and skills (hp stays)"),
    # the hero cards not in play
    Builtin("unused_heroes", (), {}, "strs",
            "the names of the ruleset's heroes that no seat holds (the pool left after hero selection), "
            "in library order; empty at a table that dealt no heroes"),
    Builtin("choose_hero", (P("chooser", "player"), P("names", "strs")), {"prompt": ("str", "")}, "str?",
            "the chooser picks one of the hero names (none when there are none); `set_hero` takes it"),
    # hero cards and skills as data, by name (a name written out, or text computed in play)
    Builtin("hero_kingdom", (P("hero", "hero"),), {}, "kingdom", "the kingdom printed on the hero card"),
    Builtin("hero_gender", (P("hero", "hero"),), {}, "gender", "the gender printed on the hero card"),
    Builtin("hero_hp", (P("hero", "hero"),), {}, "int", "the hp printed on the hero card"),
    Builtin("hero_skills", (P("hero", "hero"),), {}, "strs", "the names of the hero card's skills, in order"),
    Builtin("skill_tags", (P("skill", "skill"),), {}, "strs",
            "the skill's tags as its text writes them: locked, lord, limited, wake, ..."),
    Builtin("choose_skill", (P("chooser", "player"), P("names", "strs")), {"prompt": ("str", "")}, "str?",
            "the chooser picks one of the skill names (none when there are none); `grant_skill` takes it"),
    # damage and hp, turns and phases, point fights
    Builtin("transfer", (P("damage", "damage"), P("to", "player")), {}, "none",
            "轉移: the damage is dealt to `to` instead (same source, card, amount and nature); the new "
            "target's taking_damage opens, the source's causing_damage does not open again"),
    Builtin("to_hp_loss", (P("damage", "damage"),), {}, "none",
            "傷害視為失去體力: the damage is not dealt; its target loses that much hp instead"),
    Builtin("extra_turn", (P("player", "player"),), {}, "none",
            "the player takes an extra turn after the current one (several: in the order granted)"),
    Builtin("extra_phase", (P("player", "player"), P("phase", "phase")), {}, "none",
            "the player, whose turn it is, runs an extra phase of that kind after the current phase"),
    Builtin("skip_turn", (P("player", "player"),), {}, "none", "the player's next turn is skipped whole"),
    Builtin("end_play", (P("player", "player"),), {}, "none",
            "the player's play phase ends at its next free time (its end window still opens)"),
    Builtin("can_point_fight", (P("a", "player"), P("b", "player")), {}, "bool",
            "a may point-fight b: two different living players, each with a hand card"),
    Builtin("point_fight", (P("a", "player"), P("b", "player")), {}, "fight?",
            "拼點: a, then b, chooses a hand card face down; both are shown (point_shown), the result is "
            "returned; the cards go to the discard pile when the calling block ends, unless taken"),
    Builtin("fight_card", (P("fight", "fight"), P("player", "player")), {}, "card?",
            "the card the player showed in the fight (none for a player not in it)"),
    Builtin("replace_fight_card", (P("fight", "fight"), P("player", "player"), P("card", "card?")), {}, "none",
            "in point_shown: the card becomes the player's fight card, with its rank; the old one is discarded"),
    # moving cards, piles, history
    Builtin("move", (P("cards", "any"),),
            {"to": ("place", "discard"), "of": ("player?", "default"), "reason": ("reason", "put"),
             "replace": ("bool", False)}, "bool",
            "move a card or a list of cards, as one move, `to:` hand, equip, judge, a pile, deck_top, "
            "deck_bottom or discard (the default) `of:` a player (default: you); `reason:` use, play, "
            "discard, give, gain, put (the default) or recast. An equipment slot that is taken refuses "
            "the move unless `replace: true` (the old card goes to the discard pile); a judge area refuses "
            "a second delayed trick of a name and one its owner may not be targeted by. False, and "
            "nothing moves, when refused"),
    Builtin("swap_hands", (P("a", "player"), P("b", "player")), {}, "none",
            "the two players exchange their hands, as one simultaneous move"),
    Builtin("swap_areas", (P("a", "player"), P("b", "player"), P("area", "area")), {}, "none",
            "the two players exchange their hand, equipment area or judge area (hand, equip, judge), as "
            "one simultaneous move: one loss event per player (for a hand or equipment)"),
    Builtin("pile", (P("player", "player"), P("name", "pile")), {}, "cards",
            "the cards of a pile on the player's hero card (a pile a skill declares: `pile 權;`)"),
    Builtin("history", (P("player", "player"), P("kind", "history_kind"), P("period", "period")), {}, "cards",
            "the cards the player used, played, discarded, gained or lost this phase, turn or round, "
            "in the order they moved: history(you, discarded, phase)"),
    Builtin("damage_history", (P("player", "player"), P("kind", "damage_kind"), P("period", "period")), {},
            "int", "how much damage the player dealt or took this phase, turn or round: "
            "damage_history(you, taken, turn)"),
    # kingdoms, in every mode (a face-down 國戰 player's kingdom is unknown: "")
    Builtin("kingdom_known", (P("player", "player"),), {}, "bool", "the player's kingdom is known"),
    Builtin("same_kingdom", (P("a", "player"), P("b", "player")), {}, "bool",
            "a and b are of one kingdom: both known, equal, and neither a careerist (野心家)"),
    Builtin("kingdom_players", (P("player", "player"),), {}, "players",
            "the living players of the player's kingdom, the player included, in seat order from the "
            "current player: empty when the kingdom is unknown, the player alone for a careerist"),
    Builtin("kingdom_size", (P("kingdom", "kingdom"),), {}, "int",
            "how many living players are known to be of this kingdom (careerists are of none)"),
    Builtin("revealed", (P("player", "player"),), {}, "bool",
            "a general of the player is face up (國戰); in a mode of one face-up hero, always true"),
    Builtin("head", (P("player", "player"),), {}, "str",
            "the name of the player's head general (主將) if it is face up, else \"\" (the hero's name outside 國戰)"),
    Builtin("deputy", (P("player", "player"),), {}, "str",
            "the name of the player's deputy general (副將) if it is face up, else \"\" (\"\" outside 國戰)"),
    Builtin("hidden_generals", (P("player", "player"),), {}, "int",
            "how many of the player's generals are face down (國戰; 0 in a mode of heroes)"),
    Builtin("look_general", (P("viewer", "player"), P("player", "player")), {}, "str",
            "the viewer looks at one face-down general of the player (the viewer picks when there are two): "
            "its name, \"\" when none is face down"),
    Builtin("hide_general", (P("player", "player"), P("which", "general_slot")), {}, "none",
            "暗置: the player's head or deputy general turns face down again (國戰); the kingdom stays decided",
            generals=True),
    Builtin("remove_general", (P("player", "player"), P("which", "general_slot")), {}, "none",
            "移除: the player's head or deputy general leaves the game, with its skills (國戰)",
            generals=True),
    Builtin("swap_seats", (P("a", "player"), P("b", "player")), {}, "none",
            "交換位置: a and b change places at the table (distances and seat order follow); each keeps "
            "its seat number, hero, cards and state"),
    Builtin("lose_general_skills", (P("player", "player"), P("which", "general_slot")), {}, "none",
            "the skills of the player's head or deputy general are lost for the rest of the game (國戰 斷腸); "
            "the general stays, with its kingdom and gender", generals=True),
    Builtin("look_at", (P("player", "player"), P("cards", "cards")), {}, "none",
            "the player looks at the cards (觀看: another's hand cards, for one): only they see them; "
            "the log names the cards to them and the cards' holders, a count to the others"),
)}

# The builtins that only read the game: the only ones a condition, a target rule, a modifier's
# value or a definition may call (compiler.Compiler.call). Every other builtin acts (asks a
# player, moves a card, changes hp or state), and may only be called in a block's statements.
READS = frozenset({
    "in_range", "opposite_gender", "distance", "count", "attack_range", "count_in_range", "uses_last_hand",
    "others", "players", "cards_of", "current", "in_processing", "in_discard_pile", "need", "can_target",
    "can_use", "can_redirect", "marks", "count_this_turn", "recall", "recall_game", "current_phase", "spent",
    "times_used", "unused_heroes", "hero_kingdom", "hero_gender", "hero_hp", "hero_skills", "skill_tags", "can_point_fight", "fight_card", "pile", "history", "damage_history",
    "kingdom_known", "same_kingdom", "kingdom_players", "kingdom_size", "revealed", "head", "deputy",
    "hidden_generals",
})
assert READS <= set(BUILTINS), sorted(READS - set(BUILTINS))
