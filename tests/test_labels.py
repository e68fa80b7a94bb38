"""Questions a judge can predict and traces a judge can read: every question names what
asks it and offers options that say what they do (never a bare 是／否), the label grammar
of docs/rulings.md holds for every example it shows, `confirm` labels are checked at load
time, and the trace lines read as they should."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from table import finish, make_table

from sgs_dsl.compiler.library import check_paths, load_library
from sgs_dsl.core.model import PHASE_ZH
from sgs_dsl.core.windows import WINDOWS
from sgs_dsl.game import setup
from sgs_dsl.rulings.parser import load_rulings, parse_rulings
from sgs_dsl.rulings.runner import run_ruling

ROOT = Path(__file__).resolve().parents[1]
RULING_FILES = sorted((ROOT / "tests" / "rulings").glob("*.ruling")) + [ROOT / "examples" / "rulings" / "basics.ruling"]
DOC = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
LABELS = DOC[DOC.index("\n## Labels\n"):DOC.index("\n## ", DOC.index("\n## Labels\n") + 1)]
QUESTION = re.compile(r"〔(?:詢問|唯一選項)〕(\d+號位[^：]*)：(.*?)(?:［(.*)］→ | → )(.*)$")
CARD = re.compile(r"【[^】]+】(?:[♠♥♣♦](?:10|[2-9AJQK])(?:\(視為.+\))?|\(.*\))")  # a filtered card
DYING = re.compile(r"\d+號位.+瀕死")  # a rescue is asked in the name of the dying seat
FACE = re.compile(r"[♠♥♣♦](?:10|[2-9AJQK])")
RULE_ASKERS = {"出牌階段", "棄牌階段", "選將", "明置", "珠聯璧合", "陰陽魚", "行動權"}  # the rules that ask (國戰: three; 3v3: 行動權)


@pytest.fixture(scope="module")
def library(pytestconfig):
    """The library the rulings of tests/rulings load: with the files pytest's configuration adds."""
    return load_library([pytestconfig.rootpath / p for p in pytestconfig.getini("sgs_rulings_library")])


@pytest.fixture(scope="module")
def traces(library) -> dict[str, tuple[str, ...]]:
    """The trace of every ruling of the repository, by file and title."""
    out = {}
    for path in RULING_FILES:
        for ruling in load_rulings(path, library):
            result = run_ruling(ruling, library)
            assert result.passed, (ruling.title, result.failures)
            out[f"{path.name}::{ruling.title}"] = result.trace
    return out


def questions(traces) -> list[tuple[str, str, str, list[str]]]:
    """(ruling, asker, question, options) of every question in the traces."""
    found = []
    for name, trace in traces.items():
        for line in trace:
            m = QUESTION.search(line)
            if m:
                asker, _, question = m.group(2).partition("：")
                options = m.group(3).split("／") if m.group(3) else [m.group(4)]
                found.append((name, asker, question, options))
    return found


def known_askers(library) -> set[str]:
    skills = {s.name for s in library.skills.values()}
    skills |= {k.skill.name for k in library.cards.values() if k.skill is not None}
    windows = {w.zh for w in WINDOWS} | {p + w.zh for w in WINDOWS if w.zh.startswith("階段") for p in PHASE_ZH.values()}
    return skills | windows | RULE_ASKERS


# ---------------------------------------------------------------- every question of every ruling


def test_no_question_offers_a_bare_yes_or_no(traces):
    found = questions(traces)
    assert len(found) > 1000
    bare = [(name, q, opts) for name, _, q, opts in found if {"是", "否"} & set(opts)]
    assert bare == []


def test_every_question_names_its_asker(traces, library):
    askers = known_askers(library)
    unnamed = [(name, asker, q) for name, asker, q, _ in questions(traces)
               if not q or not (asker in askers or CARD.fullmatch(asker) or DYING.fullmatch(asker))]
    assert unnamed == []


def test_an_optional_skill_is_asked_in_its_own_name_with_options_that_name_the_action(traces, library):
    skills = {s.name for s in library.skills.values()} | {k.skill.name for k in library.cards.values() if k.skill}
    optional = [(asker, opts) for _, asker, q, opts in questions(traces) if q in ("是否發動？", "是否再次發動？")]
    assert len(optional) > 50
    assert all(asker in skills and opts == ["發動", "不發動"] for asker, opts in optional), optional


def test_a_choice_between_effects_names_both(traces):
    choices = {(asker, tuple(opts)) for _, asker, q, opts in questions(traces) if q == "選擇一項"}
    assert ("剛烈", ("棄置兩張手牌", "受到1點傷害")) in choices
    assert ("雌雄雙股劍", ("棄置一張手牌", "令對方摸一張牌")) in choices


def test_a_seen_card_is_named_by_its_face_wherever_it_lies(traces):
    picks = [opts for _, _, q, opts in questions(traces) if re.fullmatch(r"選擇\d+號位.*的一張牌", q)]
    assert picks
    for opts in picks:
        assert all(CARD.fullmatch(o) or re.fullmatch(r"手牌\d+", o) for o in opts), opts


# ---------------------------------------------------------------- the label grammar of docs/rulings.md


def two_skills_in_one_window(library) -> list[str]:
    """A seat with 遺計 and 反饋 is damaged: it orders the two skills of 受到傷害後."""
    game = make_table(library, seats=[dict(role="lord", hand=["殺 ♠7"]), dict(role="rebel")],
                      answers={1: ["【遺計】", "不發動", "不發動"]})
    game.tracing = True
    game.players[1].skills = (library.skills["yiji"], library.skills["fankui"])
    game.skills.changed_skills()
    game.hp.damage(game.players[1], 1, source=game.players[0])
    finish(game)
    return game.lines


def hero_selection(library) -> list[str]:
    class Recorder:
        def __init__(self):
            self.seen: list[str] = []

        def choose(self, request, view) -> int:
            self.seen.append(f"{request.prompt}［{'／'.join(request.labels())}］")
            return 0

    agents = [Recorder(), Recorder()]
    setup(library, "standard", 2, 1, agents=agents)
    return agents[0].seen + agents[1].seen


def test_every_example_of_the_labels_section_is_what_the_engine_prints(traces, library):
    corpus = "\n".join(line for trace in traces.values() for line in trace)
    corpus += "\n".join(two_skills_in_one_window(library) + hero_selection(library))
    # every example written without a placeholder (SEAT, CARD, V ...; a face's J, Q, K, A is no placeholder)
    examples = {e for e in re.findall(r"`([^`\n]+)`", LABELS) if not re.search(r"[A-Za-z]", FACE.sub("", e))}
    assert len(examples) > 40
    missing = sorted(e for e in examples if e not in corpus)
    assert missing == [], missing


def test_the_example_ruling_of_the_labels_section_holds(library):
    (block,) = re.findall(r"^```\n(ruling .*?)^```$", LABELS, flags=re.S | re.M)
    (ruling,) = parse_rulings(block, "labels.ruling", library)
    result = run_ruling(ruling, library)
    assert result.passed, result.failures
    shown = re.findall(r"^```\n(    〔.*?)^```$", LABELS, flags=re.S | re.M)[0].splitlines()
    assert all(line.strip() in map(str.strip, result.trace) for line in shown), (shown, result.trace)


# ---------------------------------------------------------------- confirm: labels checked at load time

SKILL = """skill 試問 shiwen "測試。" {{
  on damaged optional when damage.target == you {{
    if {call} {{ draw(you, 1); }}
  }}
}}
"""


def check(tmp_path, call: str) -> list[str]:
    path = tmp_path / "confirm.sgs"
    path.write_text(SKILL.format(call=call), encoding="utf-8")
    return [f"{d.span.line}:{d.span.column}: {d.message} | {d.hint}" for d in check_paths([path])]


def test_a_yes_no_question_gives_its_labels_itself(tmp_path):
    assert check(tmp_path, 'confirm(you, "是否摸一張牌？")') == []
    assert check(tmp_path, 'confirm(you, "選擇一項", yes: "摸牌", no: "不摸")') == []


def test_a_question_of_another_form_needs_both_labels(tmp_path):
    (error,) = check(tmp_path, 'confirm(you, "摸一張牌？", yes: "摸牌")')
    assert error.startswith("3:8: 'confirm' needs a `no:` label: its question is not of the form '是否…？'")
    assert 'yes: "棄置兩張手牌", no: "受到1點傷害"' in error


def test_a_bare_yes_or_no_label_is_an_error(tmp_path):
    (error,) = check(tmp_path, 'confirm(you, "選擇一項", yes: "是", no: "不摸")')
    assert error.startswith("3:34: the `yes:` label '是' does not say what the answer does")


def test_labels_are_text_written_in_the_file_and_differ(tmp_path):
    (error,) = check(tmp_path, 'confirm(you, "選擇一項", yes: damage.nature, no: "不摸")')
    assert error.startswith("3:41: the `yes:` label of 'confirm' must be written as text")
    (error,) = check(tmp_path, 'confirm(you, "選擇一項", yes: "摸", no: "摸")')
    assert error.startswith("3:8: both answers of 'confirm' are labelled '摸'")


# ---------------------------------------------------------------- readable traces


def ruling_trace(traces, title: str) -> tuple[str, ...]:
    (trace,) = [t for name, t in traces.items() if name.endswith("::" + title)]
    return trace


def test_the_targets_of_a_use_are_listed_in_the_order_they_resolve(traces):
    trace = ruling_trace(traces, "鐵索連環：目標按結算順序列出，由當前角色起依座次結算")
    assert any(line.endswith("→ 3號位無將(男)") for line in trace)  # chosen first
    used = trace.index("1號位無將(男)使用【鐵索連環】♠J，目標：2號位無將(男)、3號位無將(男)")
    assert trace.index("2號位無將(男)進入連環狀態") < trace.index("3號位無將(男)進入連環狀態")
    assert used < trace.index("2號位無將(男)進入連環狀態")


def test_a_card_rule_is_logged_once_on_the_use_it_acts_on(traces):
    trace = ruling_trace(traces, "酒後的殺造成2點傷害")
    assert trace.count("【酒】對1號位無將(男)生效") == 1
    assert "1號位無將(男)對2號位無將(男)造成2點傷害（體力2/4）" in trace


def test_a_window_of_a_phase_names_the_phase_once(traces):
    lines = [line.strip() for trace in traces.values() for line in trace if "〔時機〕" in line]
    assert "〔時機〕摸牌階段摸牌時" in lines and "〔時機〕摸牌階段開始時" in lines
    assert not [line for line in lines if re.search(r"(準備|判定|摸牌|出牌|棄牌|結束){2}", line)]


def test_a_prevented_damage_is_logged_where_it_is_prevented(traces):
    trace = ruling_trace(traces, "寒冰劍：發動後目標不受傷害，被棄置兩張牌")
    prevented = trace.index("1號位無將(男)對2號位無將(男)的1點傷害被防止")
    assert trace[prevented - 1] == "1號位無將(男)發動【寒冰劍】"
    assert prevented < trace.index("【桃】♥3被棄置（2號位無將(男)手牌）")


UNDO = """
skill 化解 huajie "鎖定技，【無懈可擊】對你無效；你受到的傷害-1。" {
  on effect_start when use.card is 無懈可擊 and use.user != you { invalidate(use); }
  on taking_damage when damage.target == you { set damage.amount -= 1; }
}
hero 試將 shijiang { kingdom 群; gender male; hp 4; skills 化解; }
"""


@pytest.fixture(scope="module")
def undo_library(tmp_path_factory):
    path = tmp_path_factory.mktemp("undo") / "undo.sgs"
    path.write_text(UNDO, encoding="utf-8")
    return load_library([path])


def test_a_card_without_a_target_that_takes_no_effect_names_the_card_it_answers(undo_library):
    (ruling,) = parse_rulings("""ruling "無懈可擊無效" {
      source "test"; ruleset standard;
      seat 1 lord hero 試將 hand [過河拆橋 ♠3];
      seat 2 rebel hand [無懈可擊 ♠J, 閃 ♦2];
      phase 1 play;
      script { 1 uses 過河拆橋 ♠3 on 2; 2 answers "使用【無懈可擊】♠J"; 1 answers "手牌1"; 1 ends; }
      expect { seat 2 hand []; }
    }""", "t.ruling", undo_library)
    result = run_ruling(ruling, undo_library)
    assert result.passed, result.failures
    assert "【無懈可擊】♠J對【過河拆橋】♠3無效" in result.trace


def test_a_damage_reduced_to_nothing_is_logged_as_prevented_there(undo_library):
    (ruling,) = parse_rulings("""ruling "減至0" {
      source "test"; ruleset standard;
      seat 1 lord hand [殺 ♠7];
      seat 2 rebel hero 試將;
      phase 1 play;
      script { 1 uses 殺 ♠7 on 2; 1 ends; }
      expect { seat 2 hp 4; }
    }""", "t.ruling", undo_library)
    result = run_ruling(ruling, undo_library)
    assert result.passed, result.failures
    at = result.trace.index("1號位無將(男)對2號位試將的傷害減至0點，被防止")
    assert [line.strip() for line in result.trace[at - 2:at]] == ["〔時機〕受到傷害時", "2號位試將發動【化解】"]
