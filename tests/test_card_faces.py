"""A pattern reads only a card's face, which a physical card and a used one both have: the
engine matches a card no filter touches by the card itself (engine.using.view_as_sample), and
checks legality with one view of each card as printed (Game.probe)."""

from __future__ import annotations

from sgs_dsl.compiler import schema
from sgs_dsl.compiler.library import load_library
from sgs_dsl.core.model import UsedCard
from sgs_dsl.game import build_deck, setup


def test_every_pattern_word_reads_a_card_as_its_printed_view() -> None:
    library = load_library()
    deck = build_deck(library, "junzheng")  # every type, suit and nature
    for card in deck:
        view = UsedCard.of(card)
        for word, test in schema.PATTERN_WORDS.items():
            assert test(card) == test(view), (word, card.label())
        assert card.kind.is_a(card.kind.key) and view.kind is card.kind


def test_a_real_card_has_one_probe_a_game_and_a_use_its_own_view() -> None:
    library = load_library()
    game = setup(library, "basic", 5, 3)
    p = game.players[0]
    card = p.hand[0]
    probe = game.hp.probe(p, card.kind, (card,))
    assert game.hp.probe(p, card.kind, (card,)) is probe  # kept for the game
    assert game.using.make_card(card.kind, (card,)) is not probe  # a use makes its own
    assert probe.subcards == (card,) and probe.kind is card.kind and probe.suit == card.suit
