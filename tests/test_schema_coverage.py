"""Nothing the checker accepts is inert: every entry of the schema is shown taking effect.

Evidence is measured, not declared: the library the rulings use is built with every builtin,
field getter, modifier, prohibit and trigger counted, every ruling of tests/rulings is run on
it in-process, and an entry counts as shown when the rulings ran it. The rest of the evidence
is the tests that load text of their own and assert its effect: an entry not run by a ruling
counts when such a test's text uses it (tags and options, which are not code that runs, count
only this way). A deliberately inert builtin registered only in a test is reported.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import attrs
import pytest

from sgs_dsl.compiler import runtime, schema
from sgs_dsl.compiler.library import RULESET_PROPS, build
from sgs_dsl.core.modes import MODE_SPECS
from sgs_dsl.core.windows import WINDOWS
from sgs_dsl.engine.parts import DEFAULT_PARTS
from sgs_dsl.engine.triggers import Triggers
from sgs_dsl.resources import library_files
from sgs_dsl.rulings.parser import load_rulings
from sgs_dsl.rulings.runner import run_ruling

ROOT = Path(__file__).resolve().parent.parent
RULINGS = sorted((ROOT / "tests" / "rulings").glob("*.ruling"))
SKILL_TAGS = ("locked", "lord", "limited", "wake")
FORBID_KINDS = ("target", "use", "play", "respond", "discard")
# Entries no ruling or test shows taking effect yet: none since tests/rulings/coverage.ruling.
# It may only shrink: an entry listed but shown, or one not shown nor listed, fails.
NOT_YET_SHOWN: frozenset[str] = frozenset()


def _counting(counts: Counter, key: str, fn):
    def counted(*args, **kwargs):
        counts[key] += 1
        return fn(*args, **kwargs)
    return counted


def _wrap_skill(counts: Counter, skill) -> None:
    skill.modifiers = tuple(attrs.evolve(m, value=_counting(counts, f"modifier {m.name}", m.value))
                            for m in skill.modifiers)
    skill.forbids = tuple(attrs.evolve(f, matches=_counting(counts, f"forbid {f.kind}", f.matches))
                          for f in skill.forbids)


def measure(monkeypatch: pytest.MonkeyPatch, ruling_library: list[Path]) -> Counter:
    """What the rulings ran: `builtin X`, `field T.F`, `window W`, `modifier M`, `forbid K`."""
    counts: Counter = Counter()
    for name, impl in list(runtime.IMPLS.items()):
        monkeypatch.setitem(runtime.IMPLS, name, _counting(counts, f"builtin {name}", impl))
    for base, fields in schema.FIELDS.items():
        for field, (ftype, getter) in list(fields.items()):
            monkeypatch.setitem(fields, field, (ftype, _counting(counts, f"field {base}.{field}", getter)))

    class Counted(Triggers):
        def _fire(self, p, skill, trig, ctx, times, asked=None):
            counts[f"window {trig.window}"] += 1
            return super()._fire(p, skill, trig, ctx, times, asked)

    parts = attrs.evolve(DEFAULT_PARTS, triggers=Counted)
    library = build(library_files() + ruling_library)  # not the cached one: this one counts
    skills = [*library.skills.values(), *(k.skill for k in library.cards.values() if k.skill is not None)]
    for skill in {id(s): s for s in skills}.values():  # hero skills, and equipment and card rules
        _wrap_skill(counts, skill)
    for path in RULINGS:
        for ruling in load_rulings(path, library):
            run_ruling(ruling, library, parts)
    return counts


MEASURED = ("builtin", "field", "window", "modifier", "forbid")  # counted while the rulings run


def text_evidence() -> tuple[str, str]:
    """(tests, all): the tests that load text of their own and assert what it did (this file
    and the fuzzer, which write names generically, are left out); and those with the shipped
    and test .sgs text. A measured entry written only in an .sgs file is not evidence (nothing
    asserts it acted); a tag or an option can only be shown by text."""
    mine = {Path(__file__).name, "test_fuzz.py"}
    tests = [p for p in sorted((ROOT / "tests").glob("test_*.py")) if p.name not in mine]
    sgs = library_files() + sorted((ROOT / "tests" / "data").glob("*.sgs"))
    asserted = "\n".join(p.read_text(encoding="utf-8") for p in tests)
    return asserted, asserted + "\n" + "\n".join(p.read_text(encoding="utf-8") for p in sgs)


def written(kind: str, name: str) -> re.Pattern[str]:
    """How a test's text uses an entry of a kind."""
    word = re.escape(name)
    if kind == "builtin":
        return re.compile(rf"\b{word}\(")
    if kind == "field":
        return re.compile(rf"\.{re.escape(name.split('.', 1)[1])}\b")
    if kind == "window":
        zh = next(w.zh for w in WINDOWS if w.id == name)
        return re.compile(rf"\bon ({word}|{re.escape(zh)})\b")
    if kind == "modifier":
        return re.compile(rf"\bmodify {word}\b")
    if kind == "forbid":
        return re.compile(rf"\bforbid (\w+ )?{word}\(")
    return re.compile(rf"(^|\s){word}(\s|;|$)", re.M)


def schema_entries() -> list[str]:
    """Every entry of the closed schema, as `kind name`."""
    entries = [f"builtin {b}" for b in schema.BUILTINS]
    entries += [f"field {base}.{f}" for base, fields in schema.FIELDS.items() for f in fields]
    entries += [f"window {w.id}" for w in WINDOWS]
    entries += [f"modifier {m}" for m in schema.MODIFIERS]
    entries += [f"forbid {k}" for k in FORBID_KINDS]
    entries += [f"tag {t}" for t in SKILL_TAGS]
    entries += [f"ruleset {p}" for p in RULESET_PROPS] + [f"card {p}" for p in schema.CARD_PROPS]
    entries += [f"ruleset {o.name}" for spec in MODE_SPECS.values() for o in spec.options]  # mode options
    return entries


def uncovered(counts: Counter, text: tuple[str, str]) -> list[str]:
    missing = []
    for entry in schema_entries():
        kind, name = entry.split(" ", 1)
        if not counts[entry] and not written(kind, name).search(text[0] if kind in MEASURED else text[1]):
            missing.append(entry)
    return missing


@pytest.fixture(scope="module")
def evidence(pytestconfig: pytest.Config) -> tuple[Counter, tuple[str, str]]:
    ruling_library = [ROOT / p for p in pytestconfig.getini("sgs_rulings_library")]  # as the plugin loads it
    with pytest.MonkeyPatch.context() as mp:
        return measure(mp, ruling_library), text_evidence()


def test_every_schema_entry_is_shown_taking_effect(evidence) -> None:
    counts, text = evidence
    missing = set(uncovered(counts, text))
    assert not missing - NOT_YET_SHOWN, "no ruling shows these taking effect: " + ", ".join(
        sorted(missing - NOT_YET_SHOWN))
    assert not NOT_YET_SHOWN - missing, "shown now, take them out of NOT_YET_SHOWN: " + ", ".join(
        sorted(NOT_YET_SHOWN - missing))


def test_an_inert_entry_is_reported(evidence, monkeypatch: pytest.MonkeyPatch) -> None:
    counts, text = evidence
    dummy = schema.Builtin("inert_dummy", (), {}, "none", "does nothing: registered only by this test")
    monkeypatch.setitem(schema.BUILTINS, "inert_dummy", dummy)
    monkeypatch.setitem(runtime.IMPLS, "inert_dummy", lambda ctx: None)
    assert set(uncovered(counts, text)) - NOT_YET_SHOWN == {"builtin inert_dummy"}


def test_measuring_counts_what_runs(evidence) -> None:
    counts, _ = evidence
    assert counts["builtin draw"] > 10 and counts["window damaged"] > 0 and counts["field player.hp"] > 0
