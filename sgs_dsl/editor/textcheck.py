"""Do a skill's rules say what its printed text says? `sgs text --report`.

Two measures for every built-in skill and card. A similarity: the generated text
(editor.cardtext) against the quoted one, both normalised (one script, no punctuation, no
edition marks), by difflib's ratio; a rough figure, for a designer's eye. And a structured
check, the one that can fail: the same facts read from the compiled rules and from the quoted
text (the trigger moment, optionality, limits and tags, numbers, targets), compared; each
disagreement is a finding naming both sides. A skill or card that knowingly differs says so
with `differs "REASON";` (docs/language.md): its findings are kept but pass; a mark on one
whose check agrees is a finding of its own (a stale mark)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable

import attrs

from ..core.defs import CardKind, Skill
from ..syntax import ast
from ..syntax.names import normalize
from ..tables import display_width, pad
from . import cardtext

# ---------------------------------------------------------------- the quoted text

NUMERALS = {"一": 1, "壹": 1, "兩": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_NUM = r"([一壹兩二三四五六七八九十\d]|X)"

# the windows a phrase of a printed text names: a phrase read, the windows that fit it
MOMENTS: tuple[tuple[str, frozenset[str]], ...] = tuple((p, frozenset(w.split())) for p, w in (
    (r"受到[^，。；]{0,10}傷害(?:一次)?後|每受到\S點傷害", "damaged hp_changed damage_end"),
    (r"受到(?:\S點)?(?:火焰|雷電)?傷害時", "taking_damage damaged"),
    (r"造成[^，。；]{0,4}傷害(?:一次)?後|造成\S點傷害，", "caused_damage damage_end"),
    (r"造成(?:\S點)?傷害時", "causing_damage caused_damage"),
    (r"準備階段|回合開始階段", "phase_start turn_start phase_before"),
    (r"(?<!回合)結束階段|回合結束階段", "phase_start phase_end turn_end"),
    (r"回合開始時", "turn_start phase_start"),
    (r"回合開始前", "turn_before phase_before"),
    (r"回合結束時|回合結束後", "turn_end phase_start phase_end"),
    (r"(?:判定|摸牌|出牌|棄牌)階段開始時", "phase_start phase_before"),
    (r"摸牌階段開始時", "draw_phase"),
    (r"(?:判定|摸牌|出牌|棄牌)階段結束時", "phase_end"),
    (r"摸牌階段[，,]|摸牌階段摸牌時|摸牌時", "draw_phase phase_start"),
    (r"跳過\S{0,6}階段", "phase_before phase_start draw_phase"),
    (r"使用[^，。；]{0,12}時|打出[^，。；]{0,8}時|每打出", "using played specifying after_specify asked"),
    (r"成為\S*?目標(?:時|後)", "targeted after_targeted specifying"),
    (r"指定\S*?目標(?:時|後)", "specifying after_specify targeted using"),
    (r"判定牌生效前", "judge_before"),
    (r"判定牌生效後|判定牌生效時", "judge_after judge_before"),
    (r"需要使用或打出|需要打出|需要使用", "asked"),
    (r"抵消(?:後|時)", "cancelled"),
    (r"進入瀕死|處於瀕死", "dying hp_changed"),
    (r"死亡時|死亡後", "death after_death"),
    (r"回復(?:\S點)?體力(?:時|後)", "recovering recovered"),
    (r"失去\S點體力後|失去體力後", "lost_hp hp_changed"),
    (r"失去\S*?(?:牌|手牌)(?:後|時)", "cards_lost"),
    (r"置入棄牌堆", "into_discard_pile cards_lost"),
    (r"拼點牌亮出", "point_shown"),
    (r"遊戲開始時", "game_start"),
    (r"結算完畢|結算後|結算結束", "use_end effect_end"),
    (r"質疑", "questioned"),
))
TAG_WORDS = {"鎖定技": "locked", "限定技": "limited", "覺醒技": "wake", "主公技": "lord"}
EFFECTS = {"draw": (r"摸" + _NUM + r"張", "摸N張牌"), "damage": (_NUM + r"點(?:火焰|雷電)?傷害", "N點傷害"),
           "recover": (r"回[復覆]" + _NUM + r"點體力", "回復N點體力"), "lose_hp": (r"失去" + _NUM + r"點體力", "失去N點體力")}


def plain(text: str) -> str:
    """A printed text without its edition marks (〔2013〕) and notes in brackets."""
    return re.sub(r"〔[^〕]*〕", "", text)


def _count(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    return NUMERALS.get(word)


@attrs.frozen
class Facts:
    """What one side says; None: that side does not say (the fact is not compared)."""

    windows: frozenset[str] | None = None
    optional: bool | None = None
    once: bool | None = None  # 出牌階段限一次
    tags: frozenset[str] | None = None
    numbers: tuple[tuple[str, frozenset[int]], ...] = ()
    targets: str | None = None  # a card's use: self / one / one_other / all / all_others


def text_facts(text: str, card: bool = False) -> Facts:
    t = plain(text)
    windows = frozenset(w for phrase, ws in MOMENTS if re.search(phrase, t) for w in ws)
    # 可以 anywhere but in 不可以; an action of the play phase is chosen however old a printing words it
    optional = (bool(re.search(r"(?<!不)可", t)) or t.startswith("出牌階段")) and not t.startswith("鎖定技")
    once = bool(re.search(r"限(?:用)?一次", t))
    lead = re.match(r"(?:(?:鎖定|限定|覺醒|主公)技[，,])*", t)
    tags = frozenset(tag for word, tag in TAG_WORDS.items() if lead and word in lead.group(0))
    numbers = []
    for key, (pattern, _) in EFFECTS.items():
        found = {_count(m) for m in re.findall(pattern, t)}
        found.discard(None)
        numbers.append((key, frozenset(n for n in found if n is not None)))
    targets = None
    if not card:  # whom a skill chooses: 一名其他角色, or 一名角色 (anyone, you too)
        # one point-fights another, and one's attack range holds others only: both mean 其他角色
        chosen = re.sub(r"與一名[^，。：]*?角色拼點|攻擊範圍內的一名角色|另一名角色", "一名其他角色", t)
        other = bool(re.search(r"[一二兩1-9]名其他角色", chosen))
        anyone = bool(re.search(r"[一二兩1-9]名角色", chosen))
        targets = "others" if other and not anyone else "anyone" if anyone and not other else None
    if card:
        m = re.search(r"對([^，。]*?)使用", t)
        if m:
            whom = m.group(1)
            targets = ("all_others" if "所有其他角色" in whom else "all" if "所有角色" in whom or "你和" in whom
                       else "one_other" if "其他角色" in whom or re.search("與你.*不同", whom) else "self" if whom.endswith("你") else
                       "one" if "角色" in whom else None)
    return Facts(windows or None, optional, once, tags, tuple(numbers), targets)


# ---------------------------------------------------------------- the rules

def _literal_numbers(nodes: Iterable[object]) -> tuple[tuple[str, frozenset[int]], ...]:
    found: dict[str, set[int]] = {key: set() for key in EFFECTS}
    for call in cardtext.calls(list(nodes)):
        if call.name.text in found and len(call.args) > 1 and isinstance(call.args[1], ast.Int):
            found[call.name.text].add(call.args[1].value)
    for node in nodes:
        for n in cardtext.walk(node):
            if isinstance(n, ast.Set) and [p.text for p in n.path] == ["phase", "count"] and isinstance(n.value, ast.Int):
                if n.op == "=":
                    found["draw"].add(n.value.value)
                elif n.op == "+=":
                    found["draw"].add(2 + n.value.value)  # 摸N張: the two of the draw phase and the more
                    found["draw"].add(n.value.value)
    return tuple((k, frozenset(v)) for k, v in found.items())


def skill_facts(skill: Skill) -> Facts:
    d = cardtext.definition(skill)
    members = d.members if d is not None else ()
    triggers = [t for ts in skill.triggers.values() for t in ts if not t.bookkeeping]
    chosen = any(t.optional for t in triggers) or bool(skill.actives or skill.view_as or skill.attached)
    forced = "locked" in skill.tags or "wake" in skill.tags
    optional: bool | None = chosen and not forced
    if not triggers and not chosen and not forced:
        optional = None  # a modifier, a prohibit or a filter: printed texts often leave 鎖定技 out
    once: bool | None = any(a.once for a in skill.actives) or any(a.once for a in skill.attached)
    if not skill.actives and not skill.attached:
        once = None
    return Facts(frozenset(skill.triggers) or None, optional, once,
                 frozenset(t for t in skill.tags if t in TAG_WORDS.values()), _literal_numbers(members),
                 _chosen_from(members))


def _chosen_from(members: Iterable[object]) -> str | None:
    """Whom the skill's choose_player(s) pick from: others (others(...)), anyone (players()),
    None when it chooses no one or from both, or from a list of its own."""
    sources = set()
    for call in cardtext.calls(list(members)):
        if call.name.text in ("choose_player", "choose_players") and len(call.args) > 1:
            pool = call.args[1]
            if isinstance(pool, ast.Filter):
                pool = pool.items
            if isinstance(pool, ast.Call) and pool.name.text in ("others", "players"):
                sources.add("others" if pool.name.text == "others" else "anyone")
            else:
                return None
    return sources.pop() if len(sources) == 1 else None


def card_facts(card: CardKind) -> Facts:
    d = cardtext.definition(card)
    members = d.members if d is not None else ()
    targets = None
    for m in members:
        if isinstance(m, ast.UseClause) and m.context.text == "play" and m.target is not None:
            targets = "_".join(w.text for w in m.target.words)
            break
    skill = card.skill
    if skill is None:
        return Facts(numbers=_literal_numbers(members), targets=targets)
    facts = skill_facts(skill)
    if not card.is_equip:  # a rule of the game the card brings (酒's +1): its text tells how the card is used
        return Facts(numbers=_literal_numbers(members), targets=targets)
    return attrs.evolve(facts, numbers=_literal_numbers(members), targets=targets, tags=None)


# ---------------------------------------------------------------- comparing

@attrs.frozen
class Finding:
    fact: str  # moment / optionality / limit / tags / numbers / targets / mark
    text: str  # what the printed text says
    rules: str  # what the rules say

    def render(self) -> str:
        return f"{self.fact}: text {self.text}; rules {self.rules}"


def _yes(flag: bool, yes: str, no: str) -> str:
    return yes if flag else no


def compare(text: Facts, rules: Facts) -> list[Finding]:
    out: list[Finding] = []
    if text.windows and rules.windows and not text.windows & rules.windows:
        out.append(Finding("moment", " / ".join(sorted(text.windows)), " / ".join(sorted(rules.windows))))
    if rules.optional is not None and text.optional is not None and text.optional != rules.optional:
        out.append(Finding("optionality", _yes(text.optional, "可以 (optional)", "forced"),
                           _yes(rules.optional, "optional", "forced (locked or no `optional`)")))
    if rules.once is not None and text.once is not None and text.once != rules.once:
        out.append(Finding("limit", _yes(text.once, "限一次", "no limit"), _yes(rules.once, "active once", "active, no once")))
    if text.tags is not None and rules.tags is not None:
        # a tag the text prints must be the rules'; the rules' limited, wake and lord must be printed
        printed = text.tags - rules.tags
        unprinted = (rules.tags - text.tags) - {"locked"}
        if printed or unprinted:
            out.append(Finding("tags", ", ".join(sorted(text.tags)) or "none", ", ".join(sorted(rules.tags)) or "none"))
    said = dict(text.numbers)
    for key, numbers in rules.numbers:
        printed_numbers = said.get(key, frozenset())
        if numbers and printed_numbers and not numbers & printed_numbers:
            word = EFFECTS[key][1]
            out.append(Finding("numbers", f"{word}: {sorted(printed_numbers)}", f"{word}: {sorted(numbers)}"))
    if text.targets is not None and rules.targets is not None and text.targets != rules.targets:
        out.append(Finding("targets", text.targets, rules.targets))
    return out


FACTS = ("moment", "optionality", "limit", "tags", "numbers", "targets")


def compared(text: Facts, rules: Facts) -> tuple[str, ...]:
    """The facts both sides say something about: the ones `compare` can find a difference in."""
    said = dict(text.numbers)
    both = {
        "moment": bool(text.windows and rules.windows),
        "optionality": text.optional is not None and rules.optional is not None,
        "limit": text.once is not None and rules.once is not None,
        "tags": text.tags is not None and rules.tags is not None,
        "numbers": any(n and said.get(k) for k, n in rules.numbers),
        "targets": text.targets is not None and rules.targets is not None,
    }
    return tuple(f for f in FACTS if both[f])


def similarity(generated: str, quoted: str) -> float:
    """difflib's ratio of the two texts, normalised: one script, no punctuation or marks."""
    def norm(s: str) -> str:
        return re.sub(r"[\W_]", "", normalize(plain(s)))

    a, b = norm(generated), norm(quoted)
    return round(difflib.SequenceMatcher(None, a, b, autojunk=False).ratio(), 3) if a or b else 1.0


@attrs.frozen
class Entry:
    """One skill's or card's line of the report."""

    kind: str  # skill / card
    name: str
    key: str
    where: str
    quoted: str
    generated: str
    score: float
    findings: tuple[Finding, ...]
    differs: str  # the file's reason, if it marks the difference
    compared: tuple[str, ...] = ()  # the facts both sides said something about

    @property
    def verdict(self) -> str:
        if self.differs:
            return "marked" if self.findings else "stale mark"
        return "differs" if self.findings else "agrees"

    @property
    def failed(self) -> bool:
        return self.verdict in ("differs", "stale mark")

    def as_json(self) -> dict[str, object]:
        return {"kind": self.kind, "name": self.name, "key": self.key, "where": self.where, "quoted": self.quoted,
                "generated": self.generated, "similarity": self.score, "verdict": self.verdict,
                "findings": [attrs.asdict(f) for f in self.findings], "differs": self.differs,
                "compared": list(self.compared)}


def basic_cards(library: object) -> Callable[[str], bool]:
    """Whether a name the library reads names a basic card (one played out as well as used)."""
    cards = library.cards  # type: ignore[attr-defined]

    def basic(name: str) -> bool:
        found = cards.find(name)
        return bool(found) and found[0].type == "basic"
    return basic


def check_skill(skill: Skill, basic: Callable[[str], bool] | None = None) -> Entry:
    generated = cardtext.skill_text(skill, basic)
    text, rules = text_facts(skill.text), skill_facts(skill)
    findings = compare(text, rules) if skill.text else []
    return Entry("skill", skill.name, skill.key, str(skill.span), skill.text, generated,
                 similarity(generated, skill.text), tuple(findings), skill.differs,
                 compared(text, rules) if skill.text else ())


def check_card(card: CardKind) -> Entry:
    generated = cardtext.card_text(card)
    text, rules = text_facts(card.text, card=True), card_facts(card)
    findings = compare(text, rules) if card.text else []
    return Entry("card", card.name, card.key, str(card.span), card.text, generated,
                 similarity(generated, card.text), tuple(findings), card.differs,
                 compared(text, rules) if card.text else ())


def report(library: object) -> list[Entry]:
    """Every skill and card of a library (the skills cards carry are read with their card)."""
    skills = [s for s in library.skills.values() if not s.from_card]  # type: ignore[attr-defined]
    cards = list(library.cards.values())  # type: ignore[attr-defined]
    basic = basic_cards(library)
    return [check_skill(s, basic) for s in skills] + [check_card(c) for c in cards]


BUCKETS = ((0.0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 1.01))


def histogram(entries: list[Entry]) -> list[tuple[str, int, int]]:
    """(range, skills, cards) for each fifth of the similarity scale."""
    rows = []
    for low, high in BUCKETS:
        label = f"{low:.1f}–{min(high, 1.0):.1f}"
        rows.append((label, sum(1 for e in entries if e.kind == "skill" and low <= e.score < high),
                     sum(1 for e in entries if e.kind == "card" and low <= e.score < high)))
    return rows


# ---------------------------------------------------------------- what `sgs text` prints

def lookup(library: object, kind: str, name: str) -> list[Entry]:
    """The entries of the skills (kind "skill") or cards ("card") NAME names, in either script,
    by id too; LookupError with a did-you-mean when it names none."""
    from ..syntax.diagnostics import did_you_mean

    table = library.skills if kind == "skill" else library.cards  # type: ignore[attr-defined]
    found = table.find(name)
    if not found:
        hint = did_you_mean(name, table.names())
        raise LookupError(f"no {kind} named '{name}'" + (f"; {hint}" if hint else ""))
    basic = basic_cards(library)
    return [check_skill(d, basic) if kind == "skill" else check_card(d) for d in found]


def render(entry: Entry, draft_only: bool = False) -> list[str]:
    """An entry as text: the draft, and unless `draft_only` the quoted text, score and findings."""
    if draft_only:
        return [entry.generated]
    out = [f"{entry.kind} {entry.name} ({entry.where})",
           f"  generated:  {entry.generated}",
           f"  quoted:     {entry.quoted}",
           f"  similarity: {entry.score:.2f}",
           f"  check:      {entry.verdict}"]
    out.extend(f"    - {f.render()}" for f in entry.findings)
    if entry.differs:
        out.append(f"    differs: {entry.differs}")
    return out


def render_report(entries: list[Entry]) -> list[str]:
    """The report: a line per skill and card (score, verdict, name, quoted text), the findings
    under it, then the histogram and the totals."""
    out = []
    width = max((display_width(e.name) for e in entries), default=0)
    for e in entries:
        out.append(f"{e.score:.2f}  {e.verdict:<10}  {e.kind:<5}  {pad(e.name, width)}  {e.quoted}")
        out.extend(f"        - {f.render()}" for f in e.findings)
        if e.differs:
            out.append(f"        differs: {e.differs}")
    out.append("")
    out.append("similarity   skills  cards")
    out.extend(f"{label:<11}  {skills:>6}  {cards:>5}" for label, skills, cards in histogram(entries))
    for kind in ("skill", "card"):
        mine = [e for e in entries if e.kind == kind]
        counts = ", ".join(f"{fact} {sum(fact in e.compared for e in mine)}" for fact in FACTS)
        out.append(f"compared, of {len(mine)} {kind}s: {counts}")
    failed = [e for e in entries if e.failed]
    marked = sum(1 for e in entries if e.verdict == "marked")
    out.append(f"{len(entries)} skills and cards: {len(entries) - len(failed) - marked} agree, {marked} marked "
               f"(differs), {len(failed)} disagree")
    return out
