"""Fidelity of the mechanisms at unit level: the checker's errors for the new forms (`each_card`, `provide(by:)`,
`use_provided`, `can_redirect`, `use.damage_bonus`), and the engine's rules for a redirect, the
last hand card, per-card firing and the damage bonus, called directly. The fixes in play are the
rulings of tests/rulings/fidelity.ruling."""

from __future__ import annotations

from pathlib import Path

import pytest
from checking import check_text as check
from checking import skill

from sgs_dsl.compiler.library import check_paths, load_library
from sgs_dsl.compiler.runtime import uses_last_hand
from sgs_dsl.core.defs import Ctx
from sgs_dsl.core.model import Move, Use, UsedCard
from sgs_dsl.engine.hp import Hp
from sgs_dsl.engine.kernel import Game
from sgs_dsl.engine.parts import DEFAULT_PARTS, Parts
from sgs_dsl.engine.triggers import Triggers
from sgs_dsl.engine.zones import Zones
from sgs_dsl.rulings.parser import parse_rulings
from sgs_dsl.rulings.runner import build_table

DATA = Path(__file__).parent / "data"
HEROES = [DATA / "mech_fidelity.sgs", DATA / "mech_damage_turns.sgs"]


@pytest.fixture(scope="module")
def library():
    return load_library(HEROES)


@pytest.mark.parametrize("body, message, hint", [
    ("  on damaged each_card { draw(you, 1); }", "`each_card` repeats per card of a move", "cards_lost"),
    ("  on cards_lost each_crad { draw(you, 1); }", "unknown trigger flag 'each_crad'", "each_card"),
    ("  on asked { provide(閃, by: 1); }", "expected player", ""),
    ("  active { use_provided(you, 殺, on: others(you)); }", "'use_provided' takes 3 arguments", ""),
    ("  on targeted { if can_redirect(you, you) { draw(you, 1); } }", "expected use, found player", ""),
    ("  on using { set use.damage_bonus = true; }", "'use.damage_bonus' is int, not bool", ""),
    ("  on using { set use.card = 1; }", "'use.card' cannot be changed", "damage_bonus"),
])
def test_new_forms_are_checked_with_located_errors(tmp_path, body, message, hint):
    found = check(tmp_path, skill(body))
    assert found, f"no error for {body!r}"
    first = found[0]
    assert first.span.line == 2 and message in first.message, first.render()
    assert hint in first.hint or hint in first.message
    assert "bad.sgs:2:" in first.render()


def test_the_test_heroes_check_clean():
    assert check_paths(HEROES) == []


RULING = """
ruling "桌" {
  source "the cards lost in one move";
  seat 1 lord hand [殺 ♠7] equip [赤兔 ♥5];
  seat 2 rebel hero 孫尚香 equip [青釭劍 ♠6, 八卦陣 ♠2];
  seat 3 loyalist;
  deck [閃 ♦2, 閃 ♦3, 閃 ♦4, 閃 ♦5];
  phase 1 play;
}
"""


def table(library, parts=DEFAULT_PARTS):
    ruling = parse_rulings(RULING, "t.ruling", library)[0]
    game, _script = build_table(ruling, library, parts)
    return game


def test_the_last_hand_card_is_all_the_hand_and_only_hand_cards(library):
    game = table(library)
    p = game.players[0]
    slash, horse = p.hand[0], p.equips["offense_horse"]
    kind = slash.kind
    assert uses_last_hand(Ctx(game, {}), p, UsedCard.of(slash))
    assert not uses_last_hand(Ctx(game, {}), p, UsedCard.virtual(kind, (slash, horse)))
    p.hand.clear()
    assert not uses_last_hand(Ctx(game, {}), p, UsedCard.virtual(kind, (horse,)))  # empty hand, equipment
    assert not uses_last_hand(Ctx(game, {}), p, UsedCard.virtual(kind))  # made of no card


def test_a_use_is_never_redirected_onto_a_target_it_has(library):
    game = table(library)
    a, b, c = game.players
    use = Use(UsedCard.of(a.hand[0]), a, [b, c], "play")
    assert not game.choices.can_redirect(use, c) and not game.choices.can_redirect(use, a)
    game.choices.redirect(use, b, c)
    assert use.targets == [b, c]
    single = Use(UsedCard.of(a.hand[0]), a, [b], "play")
    assert game.choices.can_redirect(single, c)
    game.choices.redirect(single, b, c)
    assert single.targets == [c]


class NoDraws(Zones):
    drawn: list = []

    def draw(self, player, n):
        self.drawn.append((player, n))
        return []


class SeenBlocks(Hp):
    cards: list = []

    def run_block(self, block, ctx, asker):
        self.cards.append(ctx.vars["move"].card)
        return super().run_block(block, ctx, asker)


class Willing(Game):
    def confirm(self, *args, **kwargs):
        return True


def test_each_card_fires_once_per_card_and_sees_that_card(library):
    seen = NoDraws.drawn = []
    ctx_cards = SeenBlocks.cards = []
    game = table(library, Parts(game=Willing, zones=NoDraws, hp=SeenBlocks))
    owner = game.players[1]
    (entry,) = [e for e in game.triggers.listeners()["cards_lost"] if e[1].name == "梟姬"]
    assert entry[2].each_card
    lost = list(owner.equips.values())
    game.triggers._fire_own([entry], {"move": Move(owner, "equip", lost[0], lost)}, "cards_lost")
    assert seen == [(owner, 2), (owner, 2)]
    assert ctx_cards == lost


class DamageWindows(Triggers):
    """Windows that only record the damage they would carry (no skill hears them)."""

    amounts: list = []

    def open_window(self, name, variables, extra=None):
        if "damage" in variables:
            self.amounts.append((name, variables["damage"].amount))


def test_a_damage_carries_its_uses_bonus_from_the_start_and_not_by_transmission(library):
    amounts = DamageWindows.amounts = []
    game = table(library, Parts(triggers=DamageWindows))
    a, b, c = game.players
    card = UsedCard.of(a.hand[0])
    use = Use(card, a, [b], "play", damage_bonus=1)
    game.use_stack.append(use)
    game.hp.damage(b, 1, source=a, card=card)
    game.hp.damage(c, 1, source=a, card=card, chained=True)
    game.hp.damage(c, 1, source=a, card=UsedCard.of(a.equips["offense_horse"]))  # not the use's card
    assert amounts[0] == ("causing_damage", 2)
    assert (b.hp, c.hp) == (3 - 2, 4 - 1 - 1)  # 孫尚香 takes 2; seat 3 takes 1 twice
