"""The yardstick: a small hand-written engine for the `basic` ruleset, written for speed.

It is a reference for speed ratios only (benchmarks/bench_games.py plays it beside sgs-dsl);
sgs_dsl never imports it. The rules are those of `basic`: identity mode (roles by player
count, the lord first with +1 max hp from 5 players, rewards and penalties, victory by role),
the Standard + EX deck (108 cards), blank heroes of 4 max hp and a random gender, no skills.
Every card has its real effect, resolved in the order the texts of cards/standard.sgs and
cards/ex.sgs give: 殺 (limit 1, attack range, 閃 responses), 桃 (play and dying saves), all the
tricks with 無懈可擊 polled in seat order (and countered in turn), 樂不思蜀 and 閃電 judged in
the judge phase (last placed first), the weapons, armour and horses with their effects
(八卦陣's judgement, 仁王盾, 青釭劍, 雌雄雙股劍, 貫石斧, 青龍偃月刀, 丈八蛇矛, 方天畫戟,
麒麟弓, 寒冰劍, 諸葛連弩, horse distances). The deck has no 酒 and no 兵糧寸斷.

Decisions are uniform random among the legal options, as sgs-dsl's random agent makes them:
the play phase offers one option per usable hand card, one for 丈八蛇矛's conversion and one
to end; a response offers one per fitting card and one to decline; an optional weapon or
armour effect is a yes/no question; a card taken or thrown from another's area is picked
uniformly among its cards. The games are not sgs-dsl's games (one generator here, one per
seat there), but the same rules.

No card is simplified. What differs from sgs-dsl and changes no rule: the three defensive and
the three offensive horses are one kind each here (same effect, same slot); there are no
timing windows, no log, no invariant checks and no budgets; cards are ints and zones lists.
"""

from __future__ import annotations

import random

import attrs

# each line: a kind, then its cards as suit and rank (the decks of cards/standard.sgs and cards/ex.sgs)
DECK_TEXT = """
sha S7 S8 S8 S9 S9 S10 S10 C2 C3 C4 C5 C6 C7 C8 C8 C9 C9 C10 C10 CJ CJ H10 H10 HJ D6 D7 D8 D9 D10 DK
shan H2 H2 HK D2 D2 D3 D4 D5 D6 D7 D8 D9 D10 DJ DJ
tao H3 H4 H6 H7 H8 H9 HQ DQ
zhuge CA DA
cixiong S2
qinggang S6
qinglong S5
zhangba SQ
guanshi D5
fangtian DQ
qilin H5
bagua S2 C2
dhorse S5 C5 HK
ohorse H5 SK DK
wugu H3 H4
taoyuan HA
nanman S7 SK C7
wanjian HA
juedou SA CA DA
wuzhong H7 H8 H9 HJ
shunshou S3 S4 SJ D3 D4
guohe S3 S4 SQ C3 C4 HQ
jiedao CQ CK
wuxie SJ CQ CK DQ
lebu S6 C6 H6
shandian SA HQ
hanbing S2
renwang C2
"""
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}
WEAPON_RANGE = {"zhuge": 1, "qinggang": 2, "cixiong": 2, "hanbing": 2, "guanshi": 3, "qinglong": 3,
                "zhangba": 3, "fangtian": 4, "qilin": 5}
ARMOURS = ("bagua", "renwang")
# players -> (lord, loyalist, rebel, renegade), seed 000
ROLES = {2: (1, 0, 0, 1), 3: (1, 0, 1, 1), 4: (1, 1, 1, 1), 5: (1, 1, 2, 1), 6: (1, 1, 3, 1),
         7: (1, 2, 3, 1), 8: (1, 2, 4, 1), 9: (1, 3, 4, 1), 10: (1, 3, 4, 2)}
MAX_TURNS = 600
MAX_ACTIONS = 300  # per play phase, as sgs-dsl


def _deck() -> tuple[list[str], list[str], list[int]]:
    kinds, suits, ranks = [], [], []
    for line in DECK_TEXT.strip().splitlines():
        kind, *cards = line.split()
        for c in cards:
            kinds.append(kind)
            suits.append(c[0])
            ranks.append(RANKS.get(c[1:]) or int(c[1:]))
    return kinds, suits, ranks


KIND, SUIT, RANK = _deck()
N_CARDS = len(KIND)
BLACK = [s in "SC" for s in SUIT]


class GameOver(Exception):
    def __init__(self, winner: str):
        self.winner = winner


class TurnEnded(Exception):
    """The current player died: the rest of the turn is not played."""


@attrs.define(eq=False, slots=True)
class Player:
    seat: int
    role: str
    hp: int
    male: bool
    max_hp: int = 0
    hand: list[int] = attrs.Factory(list)
    judge: list[int] = attrs.Factory(list)
    weapon: int = -1
    armour: int = -1
    dhorse: int = -1
    ohorse: int = -1
    alive: bool = True
    sha_used: int = 0
    skip_play: bool = False

    def equips(self) -> list[int]:
        return [c for c in (self.weapon, self.armour, self.dhorse, self.ohorse) if c >= 0]

    def weapon_kind(self) -> str:
        return KIND[self.weapon] if self.weapon >= 0 else ""


@attrs.define(eq=False, slots=True)
class Result:
    winner: str
    turns: int
    uses: int
    players: list[Player]
    deck: list[int]
    discard: list[int]


class Game:
    """One game; `play()` runs it to its end and returns the Result."""

    def __init__(self, n: int, seed: int, max_turns: int = MAX_TURNS):
        self.rng = random.Random(seed)
        self.rnd = self.rng.random
        self.max_turns = max_turns
        lord, loyal, rebel, renegade = ROLES[n]
        rest = ["loyalist"] * loyal + ["rebel"] * rebel + ["renegade"] * renegade
        self.rng.shuffle(rest)
        self.players = []
        for seat, role in enumerate(["lord"] * lord + rest):
            hp = 4 + (1 if role == "lord" and n >= 5 else 0)
            self.players.append(Player(seat, role, hp, self.rnd() < 0.5, hp))
        self.deck = list(range(N_CARDS))
        self.rng.shuffle(self.deck)
        self.discard: list[int] = []
        self.processing: list[int] = []
        self.alive = list(self.players)
        self.pos = {p.seat: i for i, p in enumerate(self.alive)}
        self.current = self.players[0]
        self.turns = 0
        self.uses = 0

    # ------------------------------------------------------------ helpers
    def pick(self, n: int) -> int:
        return int(self.rnd() * n)

    def yes(self) -> bool:
        return self.rnd() < 0.5

    def draw_top(self) -> int:
        if not self.deck:
            if not self.discard:
                raise GameOver("draw")
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    def draw(self, p: Player, n: int) -> None:
        if p.alive:
            for _ in range(n):
                p.hand.append(self.draw_top())

    def seat_order(self, start: Player | None = None) -> list[Player]:
        """The living from `start` (living; the current player by default)."""
        i = self.pos[(start or self.current).seat]
        return self.alive[i:] + self.alive[:i]

    def distance(self, a: Player, b: Player) -> int:
        n = len(self.alive)
        d = abs(self.pos[a.seat] - self.pos[b.seat])
        d = min(d, n - d) + (b.dhorse >= 0) - (a.ohorse >= 0)
        return d if d > 1 else 1

    def in_range(self, a: Player, b: Player) -> bool:
        return self.distance(a, b) <= WEAPON_RANGE.get(a.weapon_kind(), 1)

    def others(self, p: Player) -> list[Player]:
        return [q for q in self.alive if q is not p]

    def remove(self, p: Player, c: int) -> None:
        """Take a card out of p's area (hand, equipment or judge area)."""
        if c == p.weapon:
            p.weapon = -1
        elif c == p.armour:
            p.armour = -1
        elif c == p.dhorse:
            p.dhorse = -1
        elif c == p.ohorse:
            p.ohorse = -1
        elif c in p.judge:
            p.judge.remove(c)
        else:
            p.hand.remove(c)

    def area(self, p: Player) -> list[int]:
        return p.hand + p.equips() + p.judge

    def discard_random(self, p: Player, n: int, pool: list[int]) -> None:
        for _ in range(min(n, len(pool))):
            c = pool.pop(self.pick(len(pool)))
            self.remove(p, c)
            self.discard.append(c)

    def finish_use(self, cards: list[int]) -> None:
        for c in cards:
            if c in self.processing:
                self.processing.remove(c)
                self.discard.append(c)

    # ------------------------------------------------------------ the game
    def play(self) -> Result:
        winner = "draw"
        try:
            self.deal()
            i = 0
            while self.turns < self.max_turns:
                p = self.players[i]
                if p.alive:
                    self.turn(p)
                i = (i + 1) % len(self.players)
        except GameOver as over:
            winner = over.winner
        self.discard += self.processing
        self.processing = []
        return Result(winner, self.turns, self.uses, self.players, self.deck, self.discard)

    def deal(self) -> None:
        for p in self.players:
            self.draw(p, 4)

    def turn(self, p: Player) -> None:
        self.current = p
        self.turns += 1
        p.skip_play = False
        try:
            for c in list(reversed(p.judge)):
                if c in p.judge and p.alive:
                    self.judge_delayed(p, c)
            self.draw(p, 2)
            if not p.skip_play:
                self.play_phase(p)
            excess = len(p.hand) - max(0, p.hp)
            if excess > 0:
                self.discard_random(p, excess, list(p.hand))
        except TurnEnded:
            pass
        finally:
            self.discard += self.processing
            self.processing = []

    def judge(self) -> int:
        c = self.draw_top()
        self.processing.append(c)
        return c

    def judge_delayed(self, p: Player, c: int) -> None:
        p.judge.remove(c)
        self.processing.append(c)
        kind = KIND[c]
        if self.countered():
            if kind == "shandian":
                self.pass_on(p, c)
            else:
                self.finish_use([c])
            return
        j = self.judge()
        if kind == "lebu":
            if SUIT[j] != "H":
                p.skip_play = True
            self.finish_use([j, c])
            return
        self.finish_use([j])
        if SUIT[j] == "S" and 2 <= RANK[j] <= 9:
            self.finish_use([c])
            self.damage(p, 3, None, None)
        else:
            self.pass_on(p, c)

    def pass_on(self, holder: Player, c: int) -> None:
        self.processing.remove(c)
        for q in self.seat_order(holder)[1:]:
            if not any(KIND[x] == "shandian" for x in q.judge):
                q.judge.append(c)
                return
        holder.judge.append(c) if holder.alive else self.discard.append(c)

    # ------------------------------------------------------------ the play phase
    def play_phase(self, p: Player) -> None:
        p.sha_used = 0
        for _ in range(MAX_ACTIONS):  # the current player's death ends the turn (TurnEnded)
            options = [c for c in p.hand if self.usable(p, KIND[c])]
            conversion = p.weapon_kind() == "zhangba" and len(p.hand) >= 2 and self.usable(p, "sha")
            n = len(options) + conversion + 1
            k = self.pick(n)
            if k == n - 1:
                return
            if k == len(options):
                cards = [p.hand[i] for i in sorted(self.rng.sample(range(len(p.hand)), 2), reverse=True)]
                self.play_sha(p, cards)
            else:
                self.play_card(p, options[k])
        raise RuntimeError("too many actions in one play phase")

    def usable(self, p: Player, kind: str) -> bool:
        if kind == "sha":
            if p.sha_used >= 1 and p.weapon_kind() != "zhuge":
                return False
            return any(self.in_range(p, q) for q in self.alive if q is not p)
        if kind in ("shan", "wuxie"):
            return False
        if kind == "tao":
            return p.hp < p.max_hp
        if kind == "guohe":
            return any(self.area(q) for q in self.others(p))
        if kind == "shunshou":
            return any(self.distance(p, q) <= 1 and self.area(q) for q in self.others(p))
        if kind == "jiedao":
            return any(self.jiedao_ok(q) for q in self.others(p))
        if kind == "lebu":
            return any(not self.has_delayed(q, "lebu") for q in self.others(p))
        if kind == "shandian":
            return not self.has_delayed(p, "shandian")
        return True  # equipment and the other tricks

    @staticmethod
    def has_delayed(p: Player, kind: str) -> bool:
        return any(KIND[c] == kind for c in p.judge)

    def jiedao_ok(self, a: Player) -> bool:
        return a.weapon >= 0 and any(self.in_range(a, b) for b in self.others(a))

    def play_card(self, p: Player, c: int) -> None:
        kind = KIND[c]
        if kind == "sha":
            self.play_sha(p, [c])
            return
        if kind in WEAPON_RANGE or kind in ARMOURS or kind in ("dhorse", "ohorse"):
            self.equip(p, c)
            return
        if kind in ("lebu", "shandian"):
            target = p if kind == "shandian" else self.choose([q for q in self.others(p) if not self.has_delayed(q, "lebu")])
            self.uses += 1
            p.hand.remove(c)
            target.judge.append(c)
            return
        if kind == "tao":
            self.uses += 1
            p.hand.remove(c)
            self.processing.append(c)
            self.recover(p)
            self.finish_use([c])
            return
        self.play_trick(p, c, kind)

    def choose(self, candidates: list[Player]) -> Player:
        return candidates[self.pick(len(candidates))]

    def equip(self, p: Player, c: int) -> None:
        self.uses += 1
        p.hand.remove(c)
        kind = KIND[c]
        slot = "weapon" if kind in WEAPON_RANGE else "armour" if kind in ARMOURS else kind
        old = getattr(p, slot)
        if old >= 0:
            self.discard.append(old)
        setattr(p, slot, c)

    # ------------------------------------------------------------ 殺
    def play_sha(self, p: Player, cards: list[int]) -> None:
        """殺 in the play phase: one card, or two hand cards by 丈八蛇矛."""
        last_hand = len(p.hand) == len(cards)
        for c in cards:
            p.hand.remove(c)
        candidates = [q for q in self.alive if q is not p and self.in_range(p, q)]
        targets = [self.choose(candidates)]
        if last_hand and p.weapon_kind() == "fangtian":
            for _ in range(2):
                rest = [q for q in candidates if q not in targets]
                if not rest:
                    break
                k = self.pick(len(rest) + 1)
                if k == len(rest):
                    break
                targets.append(rest[k])
        p.sha_used += 1
        self.use_sha(p, cards, targets)

    def use_sha(self, p: Player, cards: list[int], targets: list[Player]) -> None:
        self.uses += 1
        self.processing += cards
        black = all(BLACK[c] for c in cards)
        weapon = p.weapon_kind()
        ignored = set()
        for t in targets:  # after specifying the targets
            if weapon == "qinggang":
                ignored.add(t.seat)
            elif weapon == "cixiong" and t.male != p.male and self.yes():
                if t.hand and self.yes():
                    self.discard_random(t, 1, list(t.hand))
                else:
                    self.draw(p, 1)
        for t in self.resolve_order(targets):
            if t.alive and p.alive:
                self.sha_effect(p, t, black, t.seat in ignored)
        self.finish_use(cards)

    def sha_effect(self, p: Player, t: Player, black: bool, no_armour: bool) -> None:
        armour = "" if no_armour or t.armour < 0 else KIND[t.armour]
        if armour == "renwang" and black:
            return
        if self.ask_card(t, "shan", use=True, bagua=armour == "bagua"):
            weapon = p.weapon_kind()
            if weapon == "guanshi" and len(p.hand) + len(p.equips()) >= 3 and self.yes():
                self.discard_random(p, 2, p.hand + [c for c in p.equips() if c != p.weapon])
            else:
                if weapon == "qinglong" and t.alive and p.alive and self.yes():
                    self.ask_sha_on(p, t)
                return
        self.damage(t, 1, p, "sha")

    def ask_sha_on(self, p: Player, t: Player) -> bool:
        """p is asked to use a 殺 on t (青龍偃月刀, 借刀殺人): any 殺 or 丈八蛇矛's two cards."""
        shas = [c for c in p.hand if KIND[c] == "sha"]
        conversion = p.weapon_kind() == "zhangba" and len(p.hand) >= 2
        n = len(shas) + conversion
        if n == 0:
            return False
        k = self.pick(n + 1)
        if k == n:
            return False
        if k < len(shas):
            cards = [shas[k]]
        else:
            cards = [p.hand[i] for i in sorted(self.rng.sample(range(len(p.hand)), 2), reverse=True)]
        for c in cards:
            p.hand.remove(c)
        self.use_sha(p, cards, [t])
        return True

    def ask_card(self, p: Player, kind: str, use: bool, bagua: bool = False) -> bool:
        """p is asked to use (or play out) a card of `kind`: 八卦陣 first, then a hand card."""
        if bagua and self.yes():
            j = self.judge()
            self.finish_use([j])
            if not BLACK[j]:
                self.uses += use
                return True
        fitting = [c for c in p.hand if KIND[c] == kind]
        conversion = kind == "sha" and p.weapon_kind() == "zhangba" and len(p.hand) >= 2
        n = len(fitting) + conversion
        if n == 0:
            return False
        k = self.pick(n + 1)
        if k == n:
            return False
        if k < len(fitting):
            cards = [fitting[k]]
        else:
            cards = [p.hand[i] for i in sorted(self.rng.sample(range(len(p.hand)), 2), reverse=True)]
        for c in cards:
            p.hand.remove(c)
        self.uses += use
        self.discard += cards
        return True

    def resolve_order(self, targets: list[Player]) -> list[Player]:
        n, start = len(self.players), self.current.seat
        return sorted(targets, key=lambda q: (q.seat - start) % n)

    # ------------------------------------------------------------ tricks
    def play_trick(self, p: Player, c: int, kind: str) -> None:
        extra = None
        if kind in ("nanman", "wanjian"):
            targets = self.others(p)
        elif kind in ("taoyuan", "wugu"):
            targets = list(self.alive)
        elif kind == "wuzhong":
            targets = [p]
        elif kind == "juedou":
            targets = [self.choose(self.others(p))]
        elif kind == "guohe":
            targets = [self.choose([q for q in self.others(p) if self.area(q)])]
        elif kind == "shunshou":
            targets = [self.choose([q for q in self.others(p) if self.distance(p, q) <= 1 and self.area(q)])]
        else:  # 借刀殺人: A, then B in A's attack range
            a = self.choose([q for q in self.others(p) if self.jiedao_ok(q)])
            targets, extra = [a], self.choose([b for b in self.alive if b is not a and self.in_range(a, b)])
        self.uses += 1
        p.hand.remove(c)
        self.processing.append(c)
        pool: list[int] = []
        if kind == "wugu":
            for _ in targets:  # one by one, so that a dry deck loses no card
                pool.append(self.draw_top())
                self.processing.append(pool[-1])
        for t in self.resolve_order(targets):
            if t.alive and not self.countered():
                self.trick_effect(p, t, kind, extra, pool)
        self.finish_use([c] + pool)

    def trick_effect(self, p: Player, t: Player, kind: str, extra: Player | None, pool: list[int]) -> None:
        if kind == "nanman":
            if not self.ask_card(t, "sha", use=False):
                self.damage(t, 1, p, kind)
        elif kind == "wanjian":
            bagua = t.armour >= 0 and KIND[t.armour] == "bagua"
            if not self.ask_card(t, "shan", use=False, bagua=bagua):
                self.damage(t, 1, p, kind)
        elif kind == "taoyuan":
            self.recover(t)
        elif kind == "wugu":
            left = [x for x in pool if x in self.processing]
            if left:
                x = left[self.pick(len(left))]
                self.processing.remove(x)
                t.hand.append(x)
        elif kind == "wuzhong":
            self.draw(t, 2)
        elif kind == "juedou":
            self.duel(p, t)
        elif kind in ("guohe", "shunshou"):
            cards = self.area(t)
            if cards:
                x = cards[self.pick(len(cards))]
                self.remove(t, x)
                (p.hand if kind == "shunshou" else self.discard).append(x)
        elif kind == "jiedao":
            if extra is None or not extra.alive or not self.ask_sha_on(t, extra):
                if t.weapon >= 0:
                    p.hand.append(t.weapon)
                    t.weapon = -1

    def duel(self, p: Player, t: Player) -> None:
        turn, other = t, p
        while True:
            if not self.ask_card(turn, "sha", use=False):
                self.damage(turn, 1, other, "juedou")
                return
            turn, other = other, turn

    def countered(self) -> bool:
        """無懈可擊 polled in seat order until a whole round passes with no counter; a 無懈可擊
        may itself be countered. True when the effect (a trick's, or a 無懈可擊's) is cancelled."""
        while True:
            used = self.counter_round()
            if used is None:
                return False
            self.processing.append(used)
            cancels = not self.countered()
            self.finish_use([used])
            if cancels:
                return True

    def counter_round(self) -> int | None:
        """One round of asking; the 無懈可擊 used, or None."""
        for q in self.seat_order():
            cards = [c for c in q.hand if KIND[c] == "wuxie"]
            if not cards:
                continue
            k = self.pick(len(cards) + 1)
            if k < len(cards):
                c = cards[k]
                q.hand.remove(c)
                self.uses += 1
                return c
        return None

    # ------------------------------------------------------------ hp, dying and death
    def recover(self, p: Player) -> None:
        if p.hp < p.max_hp:
            p.hp += 1

    def damage(self, t: Player, n: int, source: Player | None, card: str | None) -> None:
        if card == "sha" and source is not None:
            weapon = source.weapon_kind()
            if weapon == "hanbing" and (t.hand or t.equips()) and self.yes():
                for _ in range(2):
                    cards = t.hand + t.equips()
                    if cards:
                        x = cards[self.pick(len(cards))]
                        self.remove(t, x)
                        self.discard.append(x)
                return
            if weapon == "qilin" and (t.dhorse >= 0 or t.ohorse >= 0) and self.yes():
                horses = [x for x in (t.dhorse, t.ohorse) if x >= 0]
                x = horses[self.pick(len(horses))]
                self.remove(t, x)
                self.discard.append(x)
        t.hp -= n
        if t.hp <= 0:
            self.dying(t, source)

    def dying(self, p: Player, killer: Player | None) -> None:
        for saver in self.seat_order():
            while p.hp <= 0 and saver.alive:
                peaches = [c for c in saver.hand if KIND[c] == "tao"]
                if not peaches:
                    break
                k = self.pick(len(peaches) + 1)
                if k == len(peaches):
                    break
                saver.hand.remove(peaches[k])
                self.discard.append(peaches[k])
                self.uses += 1
                p.hp += 1
            if p.hp > 0:
                return
        self.die(p, killer)

    def die(self, p: Player, killer: Player | None) -> None:
        p.alive = False
        self.alive.remove(p)
        self.pos = {q.seat: i for i, q in enumerate(self.alive)}
        self.discard += self.area(p)
        p.hand, p.judge = [], []
        p.weapon = p.armour = p.dhorse = p.ohorse = -1
        self.check_victory()
        if killer is not None and killer.alive:
            if p.role == "rebel":
                self.draw(killer, 3)
            elif p.role == "loyalist" and killer.role == "lord":
                self.discard += killer.hand + killer.equips()
                killer.hand = []
                killer.weapon = killer.armour = killer.dhorse = killer.ohorse = -1
        if p is self.current:
            raise TurnEnded()

    def check_victory(self) -> None:
        lord = self.players[0]
        if not lord.alive:
            if len(self.alive) == 1 and self.alive[0].role == "renegade":
                raise GameOver("renegade")
            raise GameOver("rebel")
        if not any(q.role in ("rebel", "renegade") for q in self.alive):
            raise GameOver("lord")


def play_game(players: int, seed: int, max_turns: int = MAX_TURNS) -> Result:
    return Game(players, seed, max_turns).play()
