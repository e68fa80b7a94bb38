"""What each seat knows of where the cards lie, and a copy of a game as one seat could believe
it to be (a determinization: docs/ai.md, "The forward model").

A card in a face-up place (the discard pile, an equipment or judge area, a public pile, the
processing area) is where everyone sees it. For a card in a face-down place (a hand, the deck,
a private pile) the game keeps, while it is asked to (`Game.knowledge` not None), the seats
that know it lies there, from the moves they saw:
- into a face-down place from a face-up one, in sight of all: everyone knows where it went;
- between face-down places: who held it and who takes it (a card given face down, a draw), and
  for a card off the deck whoever knew its place there (a deck top looked at, then drawn);
- the processing area keeps what was known when the card came (a deck top looked at stays
  known to the one who looked, and to them alone, when it goes back);
- a reshuffled deck is known to no one; 展示 makes a card known to everyone where it stays;
  觀看 to the one who looks.
`determinize` deals every card a seat cannot place among the places it cannot see, keeping how
many cards each place holds, and lets the mode do the same with what it hides (identity: the
roles not shown)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..core.model import Card
from ..core.vocab import PILE

if TYPE_CHECKING:
    from ..core.model import Player
    from .kernel import Game

FACE_DOWN = frozenset({"hand", "deck", "deck_top", "deck_bottom"})  # and the private piles (Moves.face_down)


def track(game: Game) -> None:
    """From now on the game keeps what each seat knows (the cards already in hands are known
    to their holders, the deck to no one)."""
    known: dict[int, frozenset[int]] = {}
    for p in game.players:
        for c in p.hand:
            known[c.uid] = frozenset({p.seat})
    game.knowledge = known


def all_seats(game: Game) -> frozenset[int]:
    return frozenset(range(len(game.players)))


def note_move(game: Game, cards: list[Card], sources: list[tuple[str, Player | None]], zone: str,
              owner: Player | None) -> None:
    """Cards moved from `sources` into `zone` of `owner`: who knows where they are now."""
    known = game.knowledge
    if known is None:
        return
    face_down = game.moves.face_down
    into_hidden = face_down(zone)
    everyone = all_seats(game)
    for i, card in enumerate(cards):
        src, holder = sources[i]
        if not into_hidden:
            known[card.uid] = everyone  # in sight of all
        elif src == "processing":
            known[card.uid] = known.get(card.uid, everyone) | _seats(owner)
        elif not face_down(src):
            known[card.uid] = everyone  # everyone saw it go there
        elif src in ("deck", "deck_top", "deck_bottom"):
            known[card.uid] = known.get(card.uid, frozenset()) | _seats(owner)
        else:  # from one face-down place to another: who held it and who takes it
            known[card.uid] = _seats(holder) | _seats(owner)


def _seats(player: Player | None) -> frozenset[int]:
    return frozenset() if player is None else frozenset({player.seat})


def note_seen(game: Game, cards: list[Card], seats: frozenset[int]) -> None:
    """The seats now know where these cards lie (shown, looked at)."""
    known = game.knowledge
    if known is not None:
        for card in cards:
            known[card.uid] = known.get(card.uid, frozenset()) | seats


def note_only(game: Game, cards: list[Card], seats: frozenset[int]) -> None:
    """Only these seats know where the cards lie (taken aside to look at; a reshuffled deck: none)."""
    known = game.knowledge
    if known is not None:
        for card in cards:
            known[card.uid] = seats


def knows(game: Game, seat: int, card: Card) -> bool:
    """Does `seat` know where `card` lies? Always for a card face up or in its own hand."""
    zone, holder = game.zones.zone_of(card)
    if not game.moves.face_down(zone) or (holder is not None and holder.seat == seat and zone == "hand"):
        return True
    known = game.knowledge
    return known is not None and seat in known.get(card.uid, frozenset())


def hidden_places(game: Game, seat: int) -> list[list[Card]]:
    """The face-down places whose cards `seat` may not all see: the others' hands, the deck,
    private piles (its own hand is its own)."""
    places: list[list[Card]] = [game.deck]
    for p in game.players:
        if p.seat != seat:
            places.append(p.hand)
        for name, pile in p.piles.items():
            if game.moves.face_down("pile:" + name) and p.seat != seat:
                places.append(pile)
    return places


def determinize(game: Game, seat: int, rng: random.Random, pinned: frozenset[int] = frozenset(),
                belief: tuple[float, ...] | None = None) -> None:
    """Make `game` (a copy) one world `seat` cannot tell from the real one: every card in a
    face-down place that it does not know (nor has its uid in `pinned`: cards it has seen since)
    is dealt again, at random, into the places such cards were in, each place keeping its
    count; what the mode hides is dealt again by the mode (weighed by `belief`, the seat's
    guess of each seat as ally or enemy, where the mode can); the game's own generator is
    reseeded (what is shuffled later is not known either)."""
    places = hidden_places(game, seat)
    known = game.knowledge or {}
    free: list[Card] = []
    slots: list[tuple[list[Card], int]] = []
    for place in places:
        for i, card in enumerate(place):
            if card.uid not in pinned and seat not in known.get(card.uid, ()):
                free.append(card)
                slots.append((place, i))
    for k in range(len(free) - 1, 0, -1):  # a shuffle (random.shuffle's loop is Python's: slower)
        j = int(rng.random() * (k + 1))
        free[k], free[j] = free[j], free[k]
    for (place, i), card in zip(slots, free, strict=True):
        place[i] = card
    game.mode.determinize(game, seat, rng, belief)
    game.rng = random.Random(rng.getrandbits(64))
    game.table_version += 1
    game.skills.changed_skills()  # what is cached of the seats (the roles may have moved)


def known_cards(game: Game, seat: int) -> frozenset[int]:
    """The uids of the cards whose place `seat` knows now (face up, its own, known face down):
    every card but those in a face-down place that it does not know (`knows`, read place by
    place rather than card by card, which finds each card's place)."""
    known = game.knowledge or {}
    places = [game.deck]
    for p in game.players:
        if p.seat != seat:
            places.append(p.hand)
        for name, pile in p.piles.items():
            if pile and game.moves.face_down(PILE + name):
                places.append(pile)
    unknown = {c.uid for place in places for c in place if seat not in known.get(c.uid, ())}
    return frozenset(c.uid for c in game.all_cards if c.uid not in unknown)
