"""A skill's or card's text generated from its rules, in the official register: a draft for
designers (`sgs text --skill`), and one side of the similarity `sgs text --report` prints.

Templates over the skill taxonomy (docs/skill-taxonomy.md): the tags, each trigger's window
(by its Chinese name, core/windows.py), optionality (你可以), 出牌階段限一次, view-as,
modifiers, prohibits and filters; the bodies are read from the syntax tree and the common
effects rendered (摸N張牌, 造成N點傷害 ...). What has no template reads 〔…〕: a draft, never a
failure."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from ..compiler.library import parse_file
from ..core.defs import CardKind, Skill
from ..core.model import SUIT_ZH
from ..core.windows import WINDOW_BY_ID
from ..syntax import ast
from ..syntax.diagnostics import SgsError

UNKNOWN = "〔…〕"
DIGITS = "零一兩三四五六七八九十"
TAG_WORDS = {"locked": "鎖定技", "limited": "限定技", "wake": "覺醒技", "lord": "主公技"}
PHASES = {"prepare": "準備階段", "judge": "判定階段", "draw": "摸牌階段", "play": "出牌階段",
          "discard": "棄牌階段", "finish": "結束階段"}
SUITS = {**SUIT_ZH, **{sign: sign for sign in SUIT_ZH.values()}}  # printed as the signs: ♥牌
WORDS = {"red": "紅色", "black": "黑色", "any": "", "basic": "基本", "trick": "錦囊", "equip": "裝備",
         "weapon": "武器", "armor": "防具", "ordinary": "普通錦囊", "delayed": "延時錦囊", "horse": "坐騎"}
ZONES = {"hand": "手牌", "hand_equip": "牌", "equip": "裝備區裡的牌", "area": "區域裡的牌", "judge": "判定區裡的牌"}
PEOPLE = {"you": "你", "target": "目標角色", "user": "使用者", "player": "其"}
FIELDS = {"source": "傷害來源", "target": "受到傷害的角色", "player": "該角色", "card": "此牌"}


def number(n: int) -> str:
    """一 to 十 in words, as printed texts count cards (摸兩張牌); larger numbers in digits."""
    return DIGITS[n] if 0 < n <= 10 else str(n)


# ---------------------------------------------------------------- the syntax tree of a definition

@functools.lru_cache(maxsize=64)
def _module(path: str, stamp: tuple[int, int]) -> ast.Module:
    return parse_file(Path(path))


def definition(thing: Skill | CardKind) -> ast.SkillDef | ast.CardDef | None:
    """The syntax tree of a skill or card, found by its span in the file that defines it (as
    the file is now: kept while its time and size stay)."""
    span = thing.span
    try:
        stat = Path(span.file).stat()
        module = _module(span.file, (stat.st_mtime_ns, stat.st_size))
    except (OSError, SgsError):  # a file gone or broken since the load: no tree, the draft reads 〔…〕
        return None
    for d in module.definitions:
        if isinstance(d, (ast.SkillDef, ast.CardDef)) and d.span.line == span.line and d.span.column == span.column:
            return d
    return None


walk = ast.walk  # every node inside a node, the node first, in source order


def calls(nodes: Sequence[object]) -> Iterator[ast.Call]:
    for node in nodes:
        for n in walk(node):
            if isinstance(n, ast.Call):
                yield n


# ---------------------------------------------------------------- expressions and effects

def who(e: ast.Expr | None) -> str:
    if isinstance(e, ast.Var):
        return PEOPLE.get(e.name, "其")
    if isinstance(e, ast.Field):
        return FIELDS.get(e.name, "其")
    if isinstance(e, ast.Call) and e.name.text == "choose_player":
        return "一名" + ("其他" if _from_others(e) else "") + "角色"
    return "其"


def _from_others(call: ast.Call) -> bool:
    return any(isinstance(n, ast.Call) and n.name.text == "others" for a in call.args[1:2] for n in walk(a))


def amount(e: ast.Expr | None, unit: str) -> str:
    """A count as printed: cards in words (兩張), points in digits (1點)."""
    if e is None:
        e = ast.Int(1, ast.Span("", 0, 0))
    if isinstance(e, ast.Int):
        return (str(e.value) if unit.startswith("點") else number(e.value)) + unit
    return "X" + unit


def pattern(p: ast.Pattern | None, noun: bool = False) -> str:
    """A card pattern as printed: 【殺】或【決鬥】, 黑色 (with `noun`, a pattern of colours, suits
    and types only is a noun: 黑色牌, 錦囊牌)."""
    if p is None:
        return ""
    alts = []
    for atoms in p.alternatives:
        named = any(a.kind == "name" and a.text not in WORDS for a in atoms)
        parts = []
        for a in atoms:
            if a.kind == "suit":
                parts.append(SUITS.get(a.text, a.text))
            elif a.text in WORDS:
                parts.append(WORDS[a.text])
            else:
                parts.append(f"【{a.text}】")
        alts.append("".join(parts) + ("" if named or not noun else "牌"))
    return "或".join(alts)


def _kw(call: ast.Call, name: str) -> ast.Expr | None:
    return next((v for k, v in call.kwargs if k.text == name), None)


def _arg(call: ast.Call, i: int) -> ast.Expr | None:
    return call.args[i] if len(call.args) > i else None


def effect(call: ast.Call) -> str:
    """One call of a body as printed words; a call without a template reads 〔…〕."""
    name, a0, a1 = call.name.text, _arg(call, 0), _arg(call, 1)
    if name == "draw":
        return f"{who(a0)}摸{amount(a1, '張牌')}"
    if name == "damage":
        nature = _kw(call, "nature")
        kind = {"fire": "火焰", "thunder": "雷電"}.get(nature.name if isinstance(nature, ast.Var) else "", "")
        return f"對{who(a0)}造成{amount(a1, '點')}{kind}傷害"
    if name == "recover":
        return f"{who(a0)}回復{amount(a1, '點')}體力"
    if name == "lose_hp":
        return f"{who(a0)}失去{amount(a1, '點')}體力"
    if name == "discard":
        return f"{who(a0)}棄置{amount(a1, '張')}{ZONES.get(_zone(call), '牌')}"
    if name == "throw":
        return "棄置" + _cards(a0)
    if name == "gain":
        return f"{who(a0)}獲得{_cards(a1)}"
    if name == "give":
        return f"{who(a0)}將{_cards(_arg(call, 2))}交給{who(a1)}"
    if name == "judge":
        return f"{who(a0)}進行判定"
    if name in ("choose_player", "choose_players"):
        many = "一至兩名" if name == "choose_players" else "一名"
        return f"選擇{many}{'其他' if _from_others(call) else ''}角色"
    if name == "turn_over":
        return f"{who(a0)}將武將牌翻面"
    if name == "look":
        return f"觀看牌堆頂的{amount(a1, '張牌')}"
    if name == "cancel":
        return "抵消之"
    if name in ("ask_use", "ask_play"):
        return f"{who(a0)}需{'使用' if name == 'ask_use' else '打出'}一張{pattern_of(a1)}"
    if name == "provide":
        return f"{who(_kw(call, 'by'))}可以打出一張{pattern_of(a0)}"
    return UNKNOWN


def pattern_of(e: ast.Expr | None) -> str:
    return f"【{e.name}】" if isinstance(e, ast.Var) else "牌"


def _zone(call: ast.Call) -> str:
    z = _kw(call, "from")
    return z.name if isinstance(z, ast.Var) else ""


def _cards(e: ast.Expr | None) -> str:
    if isinstance(e, ast.Call) and e.name.text == "pick":
        zone = _arg(e, 2)
        where = ZONES.get(zone.name, "牌") if isinstance(zone, ast.Var) else "牌"
        return f"{who(_arg(e, 1))}的一張{where}"
    if isinstance(e, ast.Field) and e.name == "card":
        return "此牌"
    return "這些牌"


def body(stmts: Sequence[ast.Stmt]) -> list[str]:
    """The effects of a body, in order; consecutive placeholders fold into one."""
    out: list[str] = []
    for s in stmts:
        for part in _stmt(s):
            if part and not (part == UNKNOWN and out and out[-1] == UNKNOWN):
                out.append(part)
    return out


def _stmt(s: ast.Stmt) -> list[str]:
    if isinstance(s, ast.CallStmt):
        return [effect(s.call)]
    if isinstance(s, ast.Let):
        return [effect(s.value)] if isinstance(s.value, ast.Call) and effect(s.value) != UNKNOWN else []
    if isinstance(s, ast.Set):
        path = ".".join(n.text for n in s.path)
        value = str(s.value.value) if isinstance(s.value, ast.Int) else "X"
        if path == "phase.count" and s.op == "=" and isinstance(s.value, ast.Int) and s.value.value == 0:
            return ["放棄摸牌"]
        if path == "phase.count":
            value = amount(s.value, "") if isinstance(s.value, ast.Int) else "X"
            return ["少摸" + value + "張牌" if s.op == "-=" else "多摸" + value + "張牌" if s.op == "+=" else "摸" + value + "張牌"]
        if path == "damage.amount":
            return [f"此傷害{'+' if s.op == '+=' else '-' if s.op == '-=' else '改為'}{value}"]
        return [UNKNOWN]
    if isinstance(s, ast.If):
        inner = body(s.body)
        other = body(s.orelse)
        text = "若" + condition(s.cond) + "，" + "，".join(inner or [UNKNOWN])
        return [text + ("；否則，" + "，".join(other) if other else "")]
    if isinstance(s, (ast.For, ast.Repeat, ast.Loop)):
        return body(s.body)
    return []


# ---------------------------------------------------------------- the parts of a skill

def _phase_in(cond: ast.Expr | None) -> str:
    for n in walk(cond) if cond is not None else ():
        if isinstance(n, ast.Str) and n.value in PHASES:
            return n.value
    return ""


def _yours(cond: ast.Expr | None) -> bool:
    return any(isinstance(n, ast.Compare) and n.op == "==" and isinstance(n.right, ast.Var) and n.right.name == "you"
               for n in (walk(cond) if cond is not None else ()))


def moment(window: str, cond: ast.Expr | None, each_point: bool = False) -> str:
    """When a trigger acts, as printed: 準備階段, 當你受到傷害後, 摸牌階段 ..."""
    phase = _phase_in(cond)
    if window == "phase_start" and phase:
        return PHASES[phase] if phase in ("prepare", "finish") else PHASES[phase] + "開始時"
    if window == "phase_end" and phase:
        return PHASES[phase] + "結束時"
    if window == "phase_before" and phase:
        return PHASES[phase] + "開始前"
    if window == "draw_phase":
        return "摸牌階段"
    whose = "你" if _yours(cond) else "一名角色"
    card = _card_in(cond)
    if window in CARD_MOMENTS:
        return "當" + whose + CARD_MOMENTS[window].format(card or "牌")
    if window == "damaged" and each_point:
        return f"當{whose}受到1點傷害後"
    spec = WINDOW_BY_ID.get(window)
    zh = spec.zh if spec is not None else window
    return "當" + whose + zh


# the windows of a card's use or answer, with the card the condition names (`use.card is 殺`)
CARD_MOMENTS = {"using": "使用{}時", "specifying": "使用{}指定目標時", "after_specify": "使用{}指定一名角色為目標後",
                "targeted": "成為{}的目標時", "after_targeted": "成為{}的目標後",
                "asked": "需要使用或打出一張{}時", "played": "打出{}時"}


def _card_in(cond: ast.Expr | None) -> str:
    """The card a condition asks for: `use.card is 殺|決鬥` -> 【殺】或【決鬥】."""
    for n in walk(cond) if cond is not None else ():
        if isinstance(n, ast.Is) and not n.negate and isinstance(n.expr, ast.Field) and n.expr.name == "card":
            return pattern(n.pattern, noun=True)
    return ""


def condition(e: ast.Expr) -> str:
    """A condition of a body as printed, for the common forms; else 〔…〕."""
    if isinstance(e, ast.Is):
        subject = "結果" if isinstance(e.expr, ast.Field) and isinstance(e.expr.obj, ast.Var) else "此牌"
        return subject + ("不為" if e.negate else "為") + (pattern(e.pattern, noun=True) or "牌")
    if isinstance(e, ast.Field) and e.name == "hurt":
        return who(e.obj) + "已受傷"
    if isinstance(e, ast.Not) and isinstance(e.expr, ast.Field) and e.expr.name == "hurt":
        return who(e.expr.obj) + "未受傷"
    if isinstance(e, ast.Compare) and isinstance(e.left, ast.Field) and e.left.name == "hand" \
            and isinstance(e.right, ast.Int) and e.right.value == 0 and e.op == "==":
        return who(e.left.obj) + "沒有手牌"
    if isinstance(e, ast.Logic) and e.op == "and":
        parts = [condition(x) for x in e.items]
        return "且".join(p for p in parts if p != UNKNOWN) or UNKNOWN
    return UNKNOWN


def trigger_text(t: ast.Trigger, locked: bool) -> str:
    optional = any(tag.text == "optional" for tag in t.tags)
    windows = [t.window.text, *(w.text for w in t.also)]
    each_point = any(tag.text == "each_point" for tag in t.tags)
    when = "或".join(dict.fromkeys(moment(_window_id(w), t.cond, each_point) for w in windows))
    return when + "，" + chosen(body(t.body), optional and not locked)


def chosen(effects: list[str], optional: bool) -> str:
    """The effects of a part, after 你可以 when its owner chooses it (你可以獲得, not 你可以你獲得)."""
    if optional and effects and effects[0].startswith("你"):
        effects = [effects[0][1:], *effects[1:]]
    return ("你可以" if optional else "") + "，".join(effects or [UNKNOWN])


def _window_id(name: str) -> str:
    if name in WINDOW_BY_ID:
        return name
    from ..syntax.names import normalize

    return next((w.id for w in WINDOW_BY_ID.values() if normalize(w.zh) == normalize(name)), name)


def modifier_text(m: ast.Modifier) -> str:
    name, op = m.name.text, m.op
    value = str(m.value.value) if isinstance(m.value, ast.Int) else (
        "無限制" if isinstance(m.value, ast.Var) and m.value.name == "unlimited" else "X")
    sign = {"+=": "+", "-=": "-", "=": "為"}[op]
    card = pattern(m.pattern, noun=True) or "牌"
    texts = {
        "distance_from": f"其他角色計算與你的距離{sign}{value}",
        "distance_to": f"你計算與其他角色的距離{sign}{value}",
        "attack_range": f"你的攻擊範圍{sign}{value}",
        "hand_limit": f"你的手牌上限{sign}{value}",
        "limit": f"你使用{card}無次數限制" if value == "無限制" else f"你使用{card}的次數上限{sign}{value}",
        "targets": f"你使用{card}可以額外指定{value}個目標",
        "range": f"你使用{card}無距離限制" if value == "無限制" else f"你使用{card}的距離{sign}{value}",
        "trick_distance": "你使用錦囊牌無距離限制" if value == "無限制" else f"你使用錦囊牌的距離{sign}{value}",
    }
    return texts.get(name, UNKNOWN)


def forbid_text(f: ast.Forbid) -> str:
    card = pattern(f.pattern, noun=True)
    return {
        "target": f"你不能成為{card}的目標",
        "use": f"你不能使用{card}",
        "play": f"你不能打出{card}",
        "respond": f"你不能使用或打出{card}響應",
        "discard": f"你不能棄置{card}",
    }.get(f.kind.text, UNKNOWN)


def view_as_text(v: ast.ViewAs, basic: Callable[[str], bool] | None = None) -> str:
    zone = ZONES.get(v.zone.text, "牌") if v.zone is not None else "手牌"
    what = pattern(v.pattern)
    kind = "牌" if zone == "牌" else zone
    modes = [m.text for m in v.modes]
    how = "使用" if modes == ["use"] else "打出" if modes == ["play"] else "使用或打出"
    if not modes and basic is not None and not basic(v.card.text):
        how = "使用"  # a trick or an equipment is used, never played out
    return f"你可以將{number(v.count)}張{what}{kind}當【{v.card.text}】{how}"


def members_text(members: Sequence[ast.Member], tags: Sequence[str],
                 basic: Callable[[str], bool] | None = None) -> list[str]:
    locked = "locked" in tags or "wake" in tags
    out: list[str] = []
    for m in members:
        if isinstance(m, ast.Trigger):
            out.append(trigger_text(m, locked))
        elif isinstance(m, ast.Active):
            once = any(t.text == "once" for t in m.tags)
            out.append("出牌階段" + ("限一次" if once else "") + "，" + chosen(body(m.body), True))
        elif isinstance(m, ast.Attach):
            once = any(t.text == "once" for t in m.tags)
            out.append("其他角色的出牌階段" + ("限一次" if once else "") + "，其可以" + "，".join(body(m.body) or [UNKNOWN]))
        elif isinstance(m, ast.ViewAs):
            out.append(view_as_text(m, basic))
        elif isinstance(m, ast.Modifier):
            out.append(modifier_text(m))
        elif isinstance(m, ast.Forbid):
            out.append(forbid_text(m))
        elif isinstance(m, ast.FilterSkill):
            target = SUITS[m.target.text] + "牌" if m.target.text in SUITS else f"【{m.target.text}】"
            out.append(f"你的{pattern(m.pattern)}牌均視為{target}")
        elif isinstance(m, ast.Equipped):
            out.append(f"若你的裝備區裡沒有防具牌，你視為裝備著【{m.card.text}】")
    return out


def skill_text(skill: Skill, basic: Callable[[str], bool] | None = None) -> str:
    """The generated text of a skill: its tags, then each part, in the order it is written.
    `basic` says whether a card name is a basic card's (played out as well as used)."""
    d = definition(skill)
    members = d.members if d is not None else ()
    head = "".join(TAG_WORDS[t] + "，" for t in ("lord", "locked", "limited", "wake") if t in skill.tags)
    parts = members_text(members, skill.tags, basic)
    return head + "。".join(parts or [UNKNOWN]) + "。"


USE_TARGETS = {"self": "你", "one": "一名角色", "one_other": "一名其他角色", "all": "所有角色",
               "all_others": "所有其他角色", "dying": "處於瀕死狀態的角色"}
CONTEXTS = {"play": "出牌階段", "dying": "一名角色處於瀕死狀態時", "respond": "響應時", "counter": "一張錦囊牌生效前"}


def card_text(card: CardKind) -> str:
    """The generated text of a card: when and on whom it is used, what it does, its skill."""
    d = definition(card)
    parts: list[str] = []
    if d is not None:
        for m in d.members:
            if isinstance(m, ast.UseClause):
                target = m.target.words[0].text if m.target is not None else ""
                if len(m.target.words if m.target else ()) > 1:
                    target += "_" + m.target.words[1].text  # type: ignore[union-attr]
                whom = USE_TARGETS.get(target, "")
                if m.target is not None and any(isinstance(c, ast.Call) and c.name.text == "in_range"
                                                for c in walk(m.target)):
                    whom = "你攻擊範圍內的" + whom
                context = CONTEXTS.get(m.context.text, UNKNOWN)
                if m.context.text == "play" and card.limit == 1:
                    context += "限一次"
                parts.append(context + ("，對" + whom + "使用" if whom else "，使用"))
        for m in d.members:
            if isinstance(m, ast.Block) and m.name.text in ("effect", "respond"):
                parts.append("，".join(body(m.body) or [UNKNOWN]))
        tags = ("locked",) if card.skill is not None and not any(
            isinstance(m, (ast.Trigger, ast.ViewAs, ast.Active)) and (
                not isinstance(m, ast.Trigger) or any(t.text == "optional" for t in m.tags)) for m in d.members) else ()
        skill_parts = members_text([m for m in d.members if not isinstance(m, (ast.UseClause, ast.Block))], tags)
        if skill_parts and tags:
            skill_parts[0] = "鎖定技，" + skill_parts[0]
        parts.extend(skill_parts)
    return "。".join(parts or [UNKNOWN]) + "。"
