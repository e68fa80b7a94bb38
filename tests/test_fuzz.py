"""Fuzzing as a test (docs/reliability.md, "Fuzzing").

(a) The library's own .sgs and .ruling files, mutated (a token deleted, duplicated or swapped
with the next, a typo in a name, the text cut short, bad bytes put in): every result is
accepted or rejected with located errors, never a traceback; an accepted .sgs file is played
for one short seeded game, an accepted .ruling file's rulings are run.
(b) Random well-typed skills over the schema (a window, a guard, effects from BUILTINS with
arguments of each parameter's type from the variables of that window, under up to 50 levels
of `if`, with values kept on the use or damage under names that may look private, and a
procedure that calls itself under up to 50 levels of text) are loaded into a ruleset beside
the standard heroes and played: every game ends normally or with a located rules error,
never an internal error.
(c) Random skills that name a variable (`let`, `for`, `[x in ...]`, `any(x in ...)`, a
procedure's parameter) as a word of the language an argument reads bare (a zone, a phase, a
nature, a pile, ...): each is rejected with a located error at the name.

The budget is SGS_FUZZ_EXAMPLES examples in all (default 250, under a minute); the runs are
derandomized, so CI sees the same examples every time.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgs_dsl.agents.registry import AgentSpec, SeatAgents
from sgs_dsl.compiler import schema
from sgs_dsl.compiler.library import build, load_library
from sgs_dsl.compiler.moves_check import FIXED_PLACES
from sgs_dsl.compiler.state_check import GENDERS
from sgs_dsl.core.vocab import DAMAGE_KINDS, HISTORY_CARDS, PERIODS, REASONS, SCOPES
from sgs_dsl.core.windows import WINDOWS
from sgs_dsl.game import play_game
from sgs_dsl.resources import library_files
from sgs_dsl.rulings.parser import load_rulings
from sgs_dsl.rulings.runner import run_ruling
from sgs_dsl.syntax.diagnostics import Diagnostic, SgsError

ROOT = Path(__file__).resolve().parent.parent
TOTAL = int(os.environ.get("SGS_FUZZ_EXAMPLES", "250"))
SHARES = {"sgs": 0.35, "ruling": 0.2, "bytes": 0.15, "skill": 0.25, "shadow": 0.05}
MAX_TURNS = 6  # a short game: enough turns for every phase and some deaths
PLAYERS = 4
RULINGS_RUN = 3  # rulings of a mutated file that are played

SGS_FILES = library_files()
RULING_FILES = sorted((ROOT / "tests" / "rulings").glob("*.ruling"))
LOCATED = re.compile(r"\.(sgs|ruling):\d+:\d+")


def fuzz_settings(kind: str) -> settings:
    return settings(max_examples=max(1, int(TOTAL * SHARES[kind])), deadline=None, derandomize=True,
                    database=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Mutated texts go to a parse cache of their own, not the user's."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SGS_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


# ------------------------------------------------------------------ mutations

TOKEN = re.compile(r'"[^"\n]*"|[\w\u3400-\u9fff]+|\S')
BAD_BYTES = (b"\xff", b"\xc3\x28", b"\xe6\x9d", b"\x00", b"\x01", b"\x1b[0m", b"\x7f", b"\r", b"\t",
             "\u202e".encode(), "\u2028".encode(), b"\xef\xbb\xbf")


def tokens(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in TOKEN.finditer(text)]


def typo(word: str, at: int, char: str, how: int) -> str:
    """A word with one character dropped, doubled, replaced or swapped with the next."""
    i = at % len(word)
    if how == 0:
        return word[:i] + word[i + 1:]
    if how == 1:
        return word[:i + 1] + word[i:]
    if how == 2:
        return word[:i] + char + word[i + 1:]
    return word[:i] + word[i + 1:i + 2] + word[i] + word[i + 2:]


@st.composite
def mutated_text(draw: st.DrawFn, text: str) -> bytes:
    spans = tokens(text)
    kind = draw(st.sampled_from(("delete", "duplicate", "swap", "typo", "truncate", "bytes")))
    i = draw(st.integers(0, len(spans) - 2))
    (s, e), (s2, e2) = spans[i], spans[i + 1]
    if kind == "delete":
        out = text[:s] + text[e:]
    elif kind == "duplicate":
        out = text[:e] + " " + text[s:e] + text[e:]
    elif kind == "swap":
        out = text[:s] + text[s2:e2] + text[e:s2] + text[s:e] + text[e2:]
    elif kind == "typo":
        char = draw(st.sampled_from("a_z0殺閃桃魏\"{;"))
        out = text[:s] + typo(text[s:e], draw(st.integers(0, 50)), char, draw(st.integers(0, 3))) + text[e:]
    elif kind == "truncate":
        out = text[:draw(st.integers(0, len(text)))]
    else:
        data = text.encode("utf-8")
        at = draw(st.integers(0, len(data)))
        return data[:at] + draw(st.sampled_from(BAD_BYTES)) + data[at:]
    return out.encode("utf-8")


def assert_located(diagnostics: list[Diagnostic]) -> None:
    """Rejected text: every error names file:line:col and shows what is wrong (as does the
    note of a check stopped at its 100th error)."""
    assert diagnostics
    for d in diagnostics:
        rendered = d.render()
        assert d.span.line >= 1 and d.span.column >= 1, rendered
        assert d.severity == "error" or (d is diagnostics[-1] and d.severity == "note"), rendered
        assert f"{d.span.file}:{d.span.line}:{d.span.column}: {d.severity}: " in rendered, rendered
        assert d.message and "Traceback" not in rendered, rendered


def assert_game_ends_cleanly(library: object, ruleset: str, seed: int, agents: str = "random") -> None:
    """A game of `agents` on the text ends in a result or a located rules error, the table sound."""
    result = play_game(library, ruleset, PLAYERS, seed, max_turns=MAX_TURNS,
                       agent_factory=SeatAgents(AgentSpec(agents)))
    assert result.error is None or (result.error.startswith("rules error: ")
                                    and LOCATED.search(result.error)), result.error
    assert not result.violations, result.violations


def playable(library: object, ruleset: str) -> bool:
    """The table can be set (the CLI refuses the others before any game, exit 1 or 2)."""
    from sgs_dsl.cli import check_table

    try:
        check_table(library, ruleset, PLAYERS)
    except (SgsError, click.BadParameter):
        return False
    return True


def check_mutated_sgs(work: Path, original: Path, data: bytes, seed: int) -> None:
    folder = work / original.parent.name  # the same folder and name: it stands in for the original
    folder.mkdir(exist_ok=True)
    path = folder / original.name
    path.write_bytes(data)
    base = [f for f in SGS_FILES if f != original]
    try:
        library = build(base + [path])
    except SgsError as error:
        assert_located(error.diagnostics)
        return
    if not library.rulesets:  # nothing to play (and Library.default_ruleset fails: reported)
        return
    ruleset = library.default_ruleset
    if playable(library, ruleset):
        assert_game_ends_cleanly(library, ruleset, seed)


@given(st.data())
@fuzz_settings("sgs")
def test_mutated_library_files_are_accepted_or_rejected_with_locations(work: Path, data: st.DataObject) -> None:
    original = data.draw(st.sampled_from(SGS_FILES))
    text = original.read_text(encoding="utf-8")
    mutated = data.draw(mutated_text(text).filter(lambda b: b != text.encode("utf-8")))
    check_mutated_sgs(work, original, mutated, data.draw(st.integers(0, 2**31)))


@given(st.data())
@fuzz_settings("bytes")
def test_library_files_with_bad_bytes_are_rejected_with_locations(work: Path, data: st.DataObject) -> None:
    original = data.draw(st.sampled_from(SGS_FILES))
    raw = original.read_bytes()
    at = data.draw(st.integers(0, len(raw)))
    junk = data.draw(st.binary(min_size=1, max_size=4))
    check_mutated_sgs(work, original, raw[:at] + junk + raw[at:], 0)


@pytest.fixture(scope="module")
def rulings_library(pytestconfig: pytest.Config) -> object:
    return load_library([ROOT / p for p in pytestconfig.getini("sgs_rulings_library")])


@given(st.data())
@fuzz_settings("ruling")
def test_mutated_rulings_are_accepted_or_rejected_with_locations(work: Path, rulings_library: object,
                                                                 data: st.DataObject) -> None:
    original = data.draw(st.sampled_from(RULING_FILES))
    text = original.read_text(encoding="utf-8")
    path = work / original.name
    path.write_bytes(data.draw(mutated_text(text)))
    try:
        rulings = load_rulings(path, rulings_library)
    except SgsError as error:
        assert_located(error.diagnostics)
        return
    for ruling in rulings[:RULINGS_RUN]:
        result = run_ruling(ruling, rulings_library)
        assert not any("Traceback" in f for f in result.failures), result.failures


# ------------------------------------------------------------------ generated skills

PLAYER_VARS_OF = {
    payload: [name for name, t in variables.items() if t == "player"]
    for payload, variables in schema.PAYLOAD_VARS.items()
}
# arguments of a type that is not a variable: written out, always well-typed
LITERALS: dict[str, tuple[str, ...]] = {
    "int": ("0", "1", "2", "you.hp", "you.hand"),
    "bool": ("true", "false", "you.hurt"),
    "str": ('"是否發動？"',),  # a question confirm can label by itself, and a mark's key
    "players": ("others(you)", "players()"),
    "cards": ("cards_of(you, hand)", "cards_of(you, equip)"),
    "any": ("cards_of(you, hand)", "cards_of(you, hand_equip)"),
    "list": ("others(you)", "cards_of(you, hand)"),  # what count counts
    "card_or_cards": ("cards_of(you, hand)", "cards_of(you, hand_equip)"),  # what gain, give, throw move
    "zone": schema.ZONES,
    "phase": ("draw", "play", "discard", "出牌", "判定"),
    "pattern": ("殺", "閃", "桃", "決鬥", "無懈可擊"),  # a positional pattern names the card it asks for
    "virtual_card": ("殺", "決鬥", "無中生有", "南蠻入侵"),
    "gender": ("male", "女"),
    "kingdom": ("魏", "shu", "群"),
    "skill": ("奸雄", "英姿", "生技"),
    "hero": ("曹操", "貂蟬"),
    "strs": ("unused_heroes()",),
    "card_names": ("[殺, 閃]", "[桃]"),
    "labels": ('["甲", "乙"]',),
    "history_kind": ("used", "discarded", "gained", "lost"),
    "damage_kind": ("dealt", "taken"),
    "period": ("phase", "turn", "round"),
    "general_slot": ("head", "deputy"),
    "area": ("hand", "equip", "judge", "裝備區"),
}
# parameter types whose values are variables of the window
VARIABLE_TYPES = ("player", "player?", "card", "card?", "use", "use?", "damage", "judge", "fight")
# what cannot be generated from a window's variables alone, and why
NOT_GENERATED = {
    "provide": "needs an asked window and a pattern it answers",
    "remember": "needs a declared state", "recall": "needs a declared state",
    "remember_game": "needs a declared state", "recall_game": "needs a declared state",
    "pile": "needs a declared pile",
    **{b.name: "acts on general cards: a file only identity rulesets play is refused it at load time"
       for b in schema.BUILTINS.values() if b.generals},
}


def fields_of(scope: dict[str, str]) -> dict[str, str]:
    """`v.f` for the card, player and event fields of the variables that are never none."""
    return {f"{v}.{f}": ft for v, t in scope.items() if not t.endswith("?")
            for f, (ft, _) in schema.FIELDS.get(t, {}).items() if schema.base_type(ft) in VARIABLE_TYPES}


def arguments(builtin: schema.Builtin, scope: dict[str, str]) -> list[list[str]] | None:
    """For each required parameter, the expressions of its type in `scope` (None: there are none)."""
    scope = {**scope, **fields_of(scope)}
    options = []
    for param in builtin.params[:builtin.required]:
        if param.type in VARIABLE_TYPES:
            wanted = {schema.base_type(param.type)} | ({param.type} if param.type.endswith("?") else set())
            found = [v for v, t in scope.items() if t in wanted]
            if param.type == "player":
                found.append("current()")
        else:
            found = list(LITERALS.get(param.type, ()))
        if not found:
            return None
        options.append(found)
    return options


def statement(name: str, args: list[str]) -> str:
    """A call as a statement: a value it returns is used, so nothing is left unread."""
    call = f"{name}({', '.join(args)})"
    returns = schema.base_type(schema.BUILTINS[name].returns)
    if returns == "none":
        return call + ";"
    if returns == "bool":
        return f"if {call} {{ draw(you, 1); }}"
    if returns == "int":
        return f"if {call} > 1 {{ draw(you, 1); }}"
    if returns in ("cards", "players", "strs"):
        return f"if count({call}) > 0 {{ draw(you, 1); }}"
    return f"if {call} != none {{ draw(you, 1); }}"


# names a text may keep its own values under on a use or a damage, some of them names the
# engine or Python uses for itself: a text's values must never reach those
PRIVATE_LOOKING = ("_revealed", "_ruled", "_uncounterable", "__class__", "__dict__", "vars", "_x")
KEPT_VALUES = ("1", "true", "[you]", "none", '"甲"')
MAX_GENERATED_NESTING = 50  # `if`s around the body (the front end allows 64 levels in all)


def nested(body: list[str], levels: int, test: str) -> str:
    """`body` inside `levels` nested `if`s that hold (`test` formatted with the level)."""
    text = "\n    ".join(body)
    for i in range(levels):
        text = f"if {test.format(i)} {{ {text} }}"
    return text


@st.composite
def generated_skill(draw: st.DrawFn) -> str:
    window = draw(st.sampled_from(WINDOWS))
    scope = {"you": "player", **schema.PAYLOAD_VARS[window.payload]}
    players = [v for v, t in scope.items() if t == "player"]
    guards = ["you.hp > 1", "you.hurt", "you.hand < 3"] + [f"{p} == you" for p in players if p != "you"]
    guard = draw(st.one_of(st.none(), st.sampled_from(guards)))
    usable = [b for b in schema.BUILTINS.values()
              if b.name not in NOT_GENERATED and (not b.needs or b.needs in scope)
              and arguments(b, scope) is not None]
    body = []
    for builtin in draw(st.lists(st.sampled_from(usable), min_size=1, max_size=3)):
        args = [draw(st.sampled_from(choices)) for choices in arguments(builtin, scope)]
        body.append(statement(builtin.name, args))
    for var in ("use", "damage"):  # a value of its own, under a name that may look private
        if scope.get(var) == var and draw(st.booleans()):
            body.append(f"set {var}.{draw(st.sampled_from(PRIVATE_LOOKING))} = {draw(st.sampled_from(KEPT_VALUES))};")
    procedure = ""
    if draw(st.booleans()):  # a procedure that calls itself under levels of text, until the budget stops it
        inner = nested(["生遞(n + 1);"], draw(st.integers(0, MAX_GENERATED_NESTING)), "n > -{0} - 1")
        procedure = f"procedure 生遞(n: int) {{ {inner} }}\n"
        body.append("生遞(0);")
    optional = " optional" if draw(st.booleans()) else ""
    when = f" when {guard}" if guard else ""
    levels = draw(st.integers(0, MAX_GENERATED_NESTING))
    return (procedure + f'skill 生技 shengji "生成的技能" {{\n  on {window.id}{optional}{when} {{\n    '
            + nested(body, levels, "you.max_hp > {0} - 100") + "\n  }\n}\n")


# the mark the generated text may read (LITERALS["str"]): a mark no text sets is an error
MARKER = ('skill 生記 shengji_mark "生成的技能所讀的標記" {\n'
          '  on phase_start when phase.player == you and phase.name == "prepare" { mark(you, "是否發動？", 2); }\n}\n')


def generated_file(skill_text: str) -> str:
    heroes = "".join(f"hero {name} {ident} {{ kingdom 魏; gender male; hp 4; skills 生技, 生記; }}\n"
                     for name, ident in (("生甲", "sheng_jia"), ("生乙", "sheng_yi")))
    return (skill_text + MARKER + heroes + 'ruleset fuzz "生成的技能" {\n  mode identity;\n  decks standard, ex;\n'
            "  heroes standard, fuzz_generated;\n  lords 生甲, 生乙;\n}\n")


@given(generated_skill(), st.integers(0, 2**31))
@fuzz_settings("skill")
def test_generated_skills_load_and_play_cleanly(work: Path, skill_text: str, seed: int) -> None:
    path = work / "fuzz_generated.sgs"
    path.write_text(generated_file(skill_text), encoding="utf-8")
    try:
        library = build(SGS_FILES + [path])
    except SgsError as error:
        pytest.fail("a generated skill is well-typed, yet rejected:\n" + skill_text
                    + "\n".join(d.render() for d in error.diagnostics))
    for game, agents in enumerate(("random", "heuristic")):  # the heuristic agent reads the text too
        assert_game_ends_cleanly(library, "fuzz", seed + game, agents)


def test_every_builtin_is_generated_or_excluded_with_a_reason() -> None:
    """A new effect is fuzzed from the day it is added, or said here why not."""
    reachable = set()
    for window in WINDOWS:
        scope = {"you": "player", **schema.PAYLOAD_VARS[window.payload]}
        reachable |= {b.name for b in schema.BUILTINS.values()
                      if (not b.needs or b.needs in scope) and arguments(b, scope) is not None}
    assert set(schema.BUILTINS) - set(NOT_GENERATED) <= reachable
    assert set(NOT_GENERATED) <= set(schema.BUILTINS)


# ------------------------------------------------------------------ shadowing

# the words an argument reads bare, and the piles the file declares
WORDS = sorted({*schema.ZONES, *schema.SLOTS, *schema.NATURES, *schema.PHASE_NAMES, *schema.MARK_SCOPES,
                *FIXED_PLACES, *REASONS, *HISTORY_CARDS, *DAMAGE_KINDS, *PERIODS, *SCOPES, *GENDERS,
                *schema.KINGDOMS, "head", "deputy", "影庫"})
BINDINGS = (  # each binds {w} and uses it as a variable
    "let {w} = you; draw({w}, 1);",
    "for {w} in others(you) {{ draw({w}, 1); }}",
    "draw(you, count([{w} in others(you) where {w}.hp > 1]));",
    "if any({w} in players(), {w}.hurt) {{ draw(you, 1); }}",
    "影遞(you);",  # the procedure below, its parameter named {w}
)


@given(st.sampled_from(WORDS), st.sampled_from(BINDINGS))
@fuzz_settings("shadow")
def test_a_variable_named_as_a_word_is_a_located_error(work: Path, word: str, binding: str) -> None:
    procedure = f"procedure 影遞({word}: player) {{ draw({word}, 1); }}\n" if binding.startswith("影遞") else ""
    text = (procedure + 'skill 影技 yingji "生成的技能" {\n  pile 影庫;\n'
            f"  active once {{ if count(pile(you, 影庫)) == 0 {{ move(cards_of(you, hand), to: 影庫, of: you); }} {binding.format(w=word)} }}\n}}\n")
    path = work / "fuzz_shadow.sgs"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SgsError) as raised:
        build(SGS_FILES + [path])
    assert_located(raised.value.diagnostics)
    assert any("cannot be a variable's name" in d.message and d.span.file == str(path)
               for d in raised.value.diagnostics), text
