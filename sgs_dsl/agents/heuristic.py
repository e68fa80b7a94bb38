"""A heuristic agent: plays for its side, seeing only what its seat may see.

It knows its side and guesses the hidden ones (agents.sides: from the damage record and the
cards it saw aimed at players while it answered), reads what each card and skill
does from its text (compiler.profile: by the effect vocabulary, never by name) and what each
option means (engine.describe). Each question is answered by scoring the options and taking
the best, ties broken by its own seeded random generator: harmful cards go to enemies,
helpful ones to allies, peaches only to allies, counters against what hurts its side, the
cards that answer threats are kept at the discard phase, optional skills are invoked when
their outcome is good for it."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..compiler.profile import NOTHING, Profile, Profiles, profiles
from ..core.model import Card
from ..engine.decisions import Request
from ..engine.describe import OptionFacts, card_named, describe, kind_facts
from .sides import Act, relations

Scores = list[float]
ALLY = 0.3  # a relation above this is someone to protect
KNOWN_ALLY = 0.9
MAX_ACTIONS = 60  # play actions in one turn: past this it ends the phase (a repeatable action cannot loop)
MAX_SAME_ACTION = 3  # uses of one repeatable skill action in a turn
MAX_SAME_INVOKE = 8  # yes to one asker's optional question in a turn: a text that may repeat (a loop
# the player continues, two skills feeding each other) ends at the player's choice, as a person stops
INVOKE_KEY = "invoke:"  # the turn's count of yes answers to an asker, kept with the play actions


class HeuristicAgent:
    def __init__(self, seed: int, rng: random.Random | None = None):
        self.rng = random.Random(seed) if rng is None else rng  # (players played forward share one: lookahead.py)
        self._rel_key: tuple[Any, ...] = ()
        self._rel: tuple[float, ...] = ()
        self._acts: dict[str, int] = {}  # this turn's play actions by label, and "" for all
        self._acts_turn = -1
        self._targets: dict[Any, tuple[int, ...]] = {}  # legal targets within one play question
        self._seen: dict[tuple[Any, ...], Act] = {}  # public acts seen while answering, once each
        self.last_scores: Scores = []  # the scores of the options of the last question scored

    # ------------------------------------------------------------ answering
    def choose(self, request: Request, view: Any) -> int:
        score = _SCORERS.get(request.kind)
        if request.kind in ("respond", "counter"):  # a card in use is shown to all: who aims it at whom
            self._observe(view)
        if score is None:
            self.last_scores = []
            return self.rng.randrange(len(request.options))
        scores = self.last_scores = score(self, request, view)
        best = max(scores)
        ties = [i for i, s in enumerate(scores) if s == best]
        pick = ties[0] if len(ties) == 1 else self.rng.choice(ties)
        if request.kind == "play":
            self._count_action(request.options[pick].label, request.options[pick].value is None)
        return pick

    def relation(self, view: Any) -> tuple[float, ...]:
        """This seat's relations, recomputed only when the public record changed."""
        key = (view.turn, view.sides(), view.damage_count, view.recover_count, len(self._seen))
        if key != self._rel_key:
            self._rel_key, self._rel = key, relations(view, tuple(self._seen.values()))
        return self._rel

    def _observe(self, view: Any) -> None:
        """Remember the acts in the cards being resolved: a harmful card aimed at a player
        is hostility even when it is answered (no damage lands), and a counter to it is help."""
        frames = view.resolving()
        for i, (name, user, on) in enumerate(frames):
            act = act_of(frames, i, view)
            if act is not None:
                self._seen.setdefault((view.turn, i, name, user, on), act)

    def _count_action(self, label: str, ended: bool) -> None:
        if not ended:
            self._acts[label] = self._acts.get(label, 0) + 1
            self._acts[""] = self._acts.get("", 0) + 1

    def _new_turn(self, view: Any) -> None:
        if view.turn != self._acts_turn:
            self._acts_turn, self._acts = view.turn, {}

    # ------------------------------------------------------------ the play phase
    def score_play(self, request: Request, view: Any) -> Scores:
        self._new_turn(view)
        if self._acts.get("", 0) >= MAX_ACTIONS:
            return [1.0 if o.value is None else 0.0 for o in request.options]
        rel = self.relation(view)
        self._targets = {}
        return [self._play_option(o.label, o.value, view, rel) for o in request.options]

    def _play_option(self, label: str, value: Any, view: Any, rel: tuple[float, ...]) -> float:
        facts = describe(value)
        if facts.action == "pass":
            return 0.0
        if facts.action == "card":
            return self._card_value(facts, value, view, rel)
        if facts.action in ("active", "attach"):
            if self._acts.get(label, 0) >= MAX_SAME_ACTION:
                return -1.0
            return _skill_value(_profiles(view).skill(facts.skill), view, rel) - 0.25  # a skill action costs something
        if facts.action in ("recast", "mode"):
            return 0.05  # cycles a card, or shows a general (its skills then count)
        return -0.1

    def _card_value(self, facts: OptionFacts, value: Any, view: Any, rel: tuple[float, ...]) -> float:
        if facts.equip:  # into an empty slot; replacing one is a wash
            return -0.5 if facts.card_type in view.equip_slots(view.seat) else 2.0
        p = _profiles(view).card(facts.card)
        if p.empty:
            return -0.01  # what it does is not written in effects the agent reads: keep it
        targets = self._play_targets(value, view)
        if facts.target_rule in ("all", "all_others"):
            if p.target < 0 and any(rel[t] >= KNOWN_ALLY and t != view.seat for t in targets):
                return -1.0  # never a harmful card on a known ally
            return sum(p.target * rel[t] for t in targets) + p.user + _cost(facts)
        worth = [_on(p, t, view, rel) for t in targets if p.target >= 0 or rel[t] < 0]  # harm only a likely enemy
        if not worth:
            return -1.0
        return max(worth) + p.user + _cost(facts)

    def _play_targets(self, value: Any, view: Any) -> tuple[int, ...]:
        """The legal targets, asked once per kind and faces in one question (three alike
        cards have the same targets)."""
        kind, subcards = value
        real = bool(subcards) and isinstance(subcards[0], Card)  # else a conversion: asked as it is
        key = (id(kind), tuple((c.suit, c.rank) for c in subcards) if real else id(subcards))
        if key not in self._targets:
            self._targets[key] = view.play_targets(value)
        return self._targets[key]

    # ------------------------------------------------------------ targets and picks
    def score_target(self, request: Request, view: Any) -> Scores:
        rel = self.relation(view)
        p = self.asking_profile(request, view)
        sign = p.target + p.other
        scores = []
        for o in request.options:
            facts = describe(o.value)
            if facts.seat is None:
                scores.append(0.0)  # done choosing
            elif sign == 0:
                scores.append(-rel[facts.seat] * 0.1)  # an unknown effect: rather on an enemy
            else:
                scores.append(_on(Profile(target=sign), facts.seat, view, rel))
        return scores

    def asking_profile(self, request: Request, view: Any) -> Profile:
        asker = request.asker or view.asker
        table = _profiles(view)
        if asker in table.skills:
            return table.skill(asker)
        name = card_named(asker)
        return table.card(name) if name is not None else NOTHING

    def score_pick(self, request: Request, view: Any) -> Scores:
        rel = self.relation(view)
        scores = []
        for o in request.options:
            facts = describe(o.value)
            if facts.action != "pick":
                scores.append(0.0)
                continue
            zone, owner = view.zone_of(o.value)
            keep = _keep(facts)
            if owner is None:
                scores.append(keep)  # from a pool: the best card
            elif owner == view.seat:
                scores.append(-keep)  # one's own: the least useful
            elif rel[owner] > ALLY:
                scores.append(3.0 if zone == "judge" else -keep)  # an ally's delayed trick goes
            else:
                scores.append({"equip": 2.0, "hand": 1.5}.get(zone, -1.0))  # an enemy's equipment first
        return scores

    def score_discard(self, request: Request, view: Any) -> Scores:
        return [-_keep(describe(o.value)) for o in request.options]

    # ------------------------------------------------------------ answers
    def score_hero(self, request: Request, view: Any) -> Scores:
        """Seed 003, 選擇武將: the others choose knowing the lord's hero and its lord skills.
        The lord's side, and a renegade (who needs the lord alive till last), take a hero of a
        kingdom the lord's lord skills name: the players those skills call on or favour."""
        if view.role not in ("loyalist", "renegade"):
            return [0.0] * len(request.options)
        wanted = _lord_kingdoms(view)
        return [float(getattr(o.value, "kingdom", None) in wanted) for o in request.options]

    def score_respond(self, request: Request, view: Any) -> Scores:
        if request.for_seat is not None and self.relation(view)[request.for_seat] <= ALLY:
            return [1.0 if o.value is None else 0.0 for o in request.options]  # not for an enemy
        return [0.0 if o.value is None else 1.0 for o in request.options]

    def score_save(self, request: Request, view: Any) -> Scores:
        dying = view.dying
        save = dying is not None and self.relation(view)[dying] > ALLY
        return [float(not save) if o.value is None else float(save) for o in request.options]

    def score_counter(self, request: Request, view: Any) -> Scores:
        want = self._wanted(view.resolving(), view)
        counter = want < 0
        return [float(not counter) if o.value is None else float(counter) for o in request.options]

    def _wanted(self, frames: tuple[tuple[str, int, int | None], ...], view: Any) -> float:
        """How much this seat wants the innermost card to take effect (> 0: let it)."""
        if not frames:
            return 0.0
        name, user, on = frames[0]
        kind = view.library.cards.get(name)
        if kind is not None and kind.mode("counter") is not None:
            return -self._wanted(frames[1:], view)  # a counter undoes what it answers
        rel = self.relation(view)
        p = _profiles(view).card(name)
        return (p.target * rel[on] if on is not None else 0.0) + p.user * rel[user]

    def score_invoke(self, request: Request, view: Any) -> Scores:
        p = self.asking_profile(request, view)
        value = p.user - 0.5 * (p.other + p.target)
        hp, _ = view.hp(view.seat)
        yes = value >= 0 and not (p.user <= -2 and hp <= 2)
        self._new_turn(view)
        key = INVOKE_KEY + (request.asker or view.asker)
        if yes:
            self._acts[key] = self._acts.get(key, 0) + 1
            yes = self._acts[key] <= MAX_SAME_INVOKE
        return [float(yes) if describe(o.value).action == "yes" else float(not yes) for o in request.options]


def act_of(frames: tuple[tuple[str, int, int | None], ...], i: int, view: Any) -> Act | None:
    """The act of frame i's user: the harm its card does to whom it acts on; a counter does
    the opposite of what the card it answers does to that card's target."""
    name, user, on = frames[i]
    kind = view.library.cards.get(name)
    sign = 1.0
    if kind is not None and kind.mode("counter") is not None:
        if i + 1 >= len(frames):
            return None
        name, _, on = frames[i + 1]
        sign = -1.0
    card = view.library.cards.get(name)
    if card is None or kind_facts(card, "card").target_rule in ("all", "all_others"):
        return None  # a card on everyone chooses no one
    effect = _profiles(view).card(name).target
    if on is None or on == user or effect == 0:
        return None
    return user, on, sign * (1.0 if effect < 0 else -1.0)


def _lord_kingdoms(view: Any) -> frozenset[str]:
    """The kingdoms the shown lord's lord skills name (none before the lord has a hero)."""
    table = _profiles(view)
    for p in view.players():
        hero = view.library.heroes.get(p.hero_key) if p.role == "lord" and p.seat != view.seat else None
        if hero is not None:
            return frozenset(k for s in hero.skills if "lord" in s.tags for k in table.kingdoms.get(s.key, ()))
    return frozenset()


def _profiles(view: Any) -> Profiles:
    return profiles(view.library)


def _on(p: Profile, seat: int, view: Any, rel: tuple[float, ...]) -> float:
    """The worth to this seat of the card's target effect landing on `seat`: harm weighs more
    on a weak enemy, help more on a weak ally."""
    hp: int
    max_hp: int
    hp, max_hp = view.hp(seat)
    urgency = 1.0 + (max_hp - hp) / max(1, max_hp) + (0.5 if hp <= 1 else 0.0)
    return p.target * rel[seat] * urgency


def _cost(facts: OptionFacts) -> float:
    """Spending a card that answers threats needs a better reason than spending another."""
    return -0.5 if facts.answers else 0.0


def _skill_value(p: Profile, view: Any, rel: tuple[float, ...]) -> float:
    """A skill action's worth: its effect on its owner, and on the other player it acts on,
    valued at the best candidate for this seat (the agent picks that one): harm at the surest
    enemy, help at the surest ally; nothing when no one is known either way."""
    others = [rel[s] for s in range(len(rel)) if s != view.seat and view.alive(s)]
    return p.user + max((p.other * r for r in others), default=0.0)


def _keep(facts: OptionFacts) -> float:
    """How much a card in hand is worth keeping: answers to threats most, then cards with a
    target, then the rest, equipment (a spare one) least."""
    if facts.answers:
        return 3.0
    if facts.equip:
        return 0.5
    return 1.5 if facts.target_rule else 1.0


_SCORERS: dict[str, Callable[[HeuristicAgent, Request, Any], Scores]] = {
    "play": HeuristicAgent.score_play,
    "target": HeuristicAgent.score_target,
    "pick_card": HeuristicAgent.score_pick,
    "discard": HeuristicAgent.score_discard,
    "respond": HeuristicAgent.score_respond,
    "save": HeuristicAgent.score_save,
    "counter": HeuristicAgent.score_counter,
    "invoke": HeuristicAgent.score_invoke,
    "hero": HeuristicAgent.score_hero,
}
