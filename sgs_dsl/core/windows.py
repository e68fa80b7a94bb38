"""The window table: every timing window of the official rule set, as data.

A window is a moment in a process where triggers may act. Payload names the event
variable a trigger there can read (and the fields it may change); `polled` says who gets
asked, always in seat order from the current player.
"""

from __future__ import annotations

import attr

# Classes here are `attr.s(auto_attribs=True)`, not slotted `attrs.define`/`attrs.frozen`: the form
# mypyc compiles (docs/performance.md, "The compiled build"); frozen ones refuse writes by on_setattr.


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
class WindowSpec:
    id: str
    zh: str
    process: str
    payload: str  # the event variable in scope: use, damage, judge, dying, death, asked, turn, phase, recover
    polled: str
    mutable: tuple[str, ...] = ()
    cancellable: bool = False
    note: str = ""


def _whose(owner: str, cond: str, per_target: bool = False) -> str:
    """Who is polled where the rule names whose event it is: still everyone, the condition says whose."""
    each = ", once per target" if per_target else ""
    return f"all, from the current player{each} (the {owner}'s skills: `when {cond}`)"


W = WindowSpec
WINDOWS: tuple[WindowSpec, ...] = (
    # the game
    W("game_start", "遊戲開始時", "game", "game", "all, from the first seat",
      note="once, after setup (heroes chosen, starting hands dealt), before the first turn"),
    # the turn
    W("turn_before", "回合開始前", "turn", "turn", _whose("current player", "turn.player == you"),
      note="a turned-over hero turns back and skips"),
    W("turn_start", "回合開始時", "turn", "turn", "all, from the current player"),
    # before a phase (opened only when some living player's skill listens to it)
    W("phase_before", "階段開始前", "turn", "phase", "all, from the current player; opened only when a living "
      "player's skill listens to it", note="a phase skipped here never starts: its start window does not open"),
    W("phase_start", "階段開始時", "turn", "phase", "all, from the current player", note="phase.name: 準備 判定 摸牌 出牌 棄牌 結束"),
    W("draw_phase", "摸牌階段摸牌時", "turn", "phase", _whose("drawing player", "phase.player == you"), ("count",), True,
      note="change how many cards are drawn, or replace the draw"),
    W("phase_end", "階段結束時", "turn", "phase", "all, from the current player"),
    W("turn_end", "回合結束時", "turn", "turn", "all, from the current player"),
    # using a card
    W("using", "使用時", "use", "use", "all, from the current player", note="the card is used; it is in the processing area"),
    W("specifying", "指定目標時", "use", "use", _whose("user", "user == you", per_target=True)),
    W("targeted", "成為目標時", "use", "use", _whose("target", "target == you", per_target=True), ("targets",),
      note="targets may be changed; a delayed trick is already in the target's judge area"),
    W("after_specify", "指定目標後", "use", "use", _whose("user", "user == you", per_target=True), note="targets are fixed"),
    W("after_targeted", "成為目標後", "use", "use", _whose("target", "target == you", per_target=True)),
    W("effect_start", "使用結算開始時", "use", "use", "all, per target", (), True,
      note="validity: an invalid card has no effect on this target"),
    W("before_effect", "生效前", "use", "use", "all, per target", (), True,
      note="responses; 'use counter' cards are polled here in seat order"),
    W("cancelled", "被抵消後", "use", "use", "all, per target", note="after the card was cancelled for this target"),
    W("on_effect", "生效時", "use", "use", "all, per target"),
    W("effect_end", "結算結束", "use", "use", "all, per target"),
    W("use_end", "使用結算結束後", "use", "use", "all, from the current player"),
    # playing out, being asked
    W("asked", "需要使用或打出時", "respond", "asked", _whose("asked player", "asked.player == you"), (), False,
      note="before choosing a card to use or play: a skill may provide it"),
    W("played", "打出時", "respond", "play", "all, from the current player",
      note="a card played out (打出): `card`, `user`, and `responded`, the card it answers (none if none)"),
    W("questioned", "質疑翻開後", "question", "question", "all, from the current player", ("genuine",),
      note="a face-down card was questioned and turned up; question.genuine false: it is void (作廢)"),
    # damage
    W("causing_damage", "造成傷害時", "damage", "damage", _whose("source", "damage.source == you"), ("amount",), True),
    W("taking_damage", "受到傷害時", "damage", "damage", _whose("victim", "damage.target == you"), ("amount",), True),
    W("caused_damage", "造成傷害後", "damage", "damage", _whose("source", "damage.source == you")),
    W("damaged", "受到傷害後", "damage", "damage", _whose("victim", "damage.target == you")),
    W("damage_end", "傷害結算結束", "damage", "damage", "all, from the current player"),
    # recovery and hp loss
    W("recovering", "回復體力時", "recover", "recover", _whose("recovering player", "recover.player == you"),
      ("amount",), True),
    W("recovered", "回復體力後", "recover", "recover", _whose("recovering player", "recover.player == you")),
    W("lost_hp", "失去體力後", "lose_hp", "lose", _whose("losing player", "lose.player == you")),
    W("hp_changed", "體力值改變後", "hp", "change", _whose("player", "change.player == you") + "; opened only when a "
      "living player's skill listens to it", note="right after hp went down (damage, loss) or up (recovery, or cut "
      "by a lower max hp), before dying is checked and before the after-windows of the damage, loss or recovery: "
      "change.delta < 0 for a loss, change.damage the damage that did it"),
    W("max_hp_changed", "體力上限改變後", "hp", "change", _whose("player", "change.player == you") + "; opened only "
      "when a living player's skill listens to it", note="change.delta: how max hp changed; hp cut to it opens "
      "hp_changed first"),
    # judgement
    W("judge_before", "判定牌生效前", "judge", "judge", "all, from the current player", ("card",),
      note="retrial: replace the judge card"),
    W("judge_after", "判定牌生效後", "judge", "judge", _whose("judged player", "judge.player == you"),
      note="after the text that asked for the judgement acted on its result"),
    # dying and death
    W("dying", "進入瀕死狀態時", "dying", "dying", "all, from the current player"),
    W("death", "死亡時", "death", "death", "all, from the current player, the dead player too (in its seat's turn)"),
    W("after_death", "死亡後", "death", "death", "all, from the current player"),
    # cards
    W("drawn", "摸牌後", "draw", "move", "all, from the current player; opened only when a living player's skill listens to it",
      note="after the cards are in hand: move.player drew move.cards from the deck"),
    W("cards_lost", "失去牌後", "move", "move", _whose("loser", "move.player == you"),
      note="once per move for each player that lost cards, from the hand, the equipment area or both (one "
      "loss event): move.cards, move.hand and move.equip; move.reason says why (discard: they lie in the "
      "discard pile)"),
    W("into_discard_pile", "置入棄牌堆後", "move", "discarded", "all, from the current player; opened only when a "
      "living player's skill listens to it", note="once per place the cards of one move came from (the processing "
      "area and the deck first, then each player's hand, equipment, judge area and piles in seat order): "
      "discarded.cards, discarded.origin, discarded.owner, discarded.reason (a judgement card: judge)"),
    # point fights
    W("point_shown", "拼點牌亮出後", "point_fight", "fight", "all, from the current player",
      ("source_rank", "target_rank"), note="before the result: change a card (replace_fight_card) or its rank"),
)

WINDOW_BY_ID: dict[str, WindowSpec] = {w.id: w for w in WINDOWS}


def markdown() -> str:
    """The window table as the markdown of docs/windows.md."""
    rows = [
        "# Windows",
        "",
        "Generated from `sgs_dsl/core/windows.py` by `sgs windows --markdown`; do not edit by hand.",
        "A trigger names a window by id or by its Chinese name (either script): `on damaged`, `on 受到傷害後`.",
        "Every window polls every living player's triggers; a trigger's `when` says whose event it hears.",
        "",
        "| id | 名稱 | process | payload | polled | may change | cancellable | note |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for w in WINDOWS:
        rows.append(
            f"| `{w.id}` | {w.zh} | {w.process} | `{w.payload}` | {w.polled} | "
            f"{', '.join(w.mutable) or '—'} | {'yes' if w.cancellable else 'no'} | {w.note} |"
        )
    return "\n".join(rows) + "\n"
