"""The build in use, pure Python or compiled with mypyc (docs/performance.md, "The compiled
build"), and what holds in both: the faces and definitions that cannot be written, the card
kind whose `uses` setter forgets what was worked out from them, a process's subclass whose
overrides the engine calls, an engine that needs no mypy_extensions; and the build hook: the
one list of compiled modules, and a plain install that asks for no compiler.

.ci/run sets SGS_EXPECT_COMPILED=1 where it installed the compiled build: there the core
modules must be C extensions; everywhere else, Python source."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import types
from pathlib import Path

import attr
import pytest
from click.testing import CliRunner

import sgs_dsl
from sgs_dsl.cli import main
from sgs_dsl.compiler.library import load_library
from sgs_dsl.core import model
from sgs_dsl.engine import kernel
from sgs_dsl.engine.parts import Parts
from sgs_dsl.engine.zones import Zones
from sgs_dsl.game import play_game

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: mypy's own dependency
    import tomli as tomllib


@pytest.fixture(scope="module")
def library():
    return load_library()


def test_the_build_in_use_is_the_one_expected():
    expected = os.environ.get("SGS_EXPECT_COMPILED", "") == "1"
    assert sgs_dsl.compiled() is expected
    assert model.__file__.endswith(".py") is not expected
    assert kernel.__file__.endswith(".py") is not expected  # the engine too


def test_sgs_version_names_the_build():
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"sgs, version {sgs_dsl.__version__} ({sgs_dsl.build()})\n"


def test_a_cards_face_cannot_be_written(library):
    kind = next(iter(library.cards.values()))
    card = model.Card(0, kind, "spade", 1)
    assert (card.color, card.text) == ("black", f"【{kind.name}】♠A")
    for field, value in (("suit", "heart"), ("rank", 13), ("kind", kind), ("color", "red")):
        with pytest.raises(attr.exceptions.FrozenInstanceError):
            setattr(card, field, value)


def test_a_definition_cannot_be_written(library):
    trigger = next(t for s in library.skills.values() for ts in s.triggers.values() for t in ts)
    with pytest.raises(attr.exceptions.FrozenError):
        trigger.optional = not trigger.optional
    assert attr.evolve(trigger, helper=True).helper  # a changed copy is made instead
    assert attr.evolve(trigger) == trigger and hash(attr.evolve(trigger)) == hash(trigger)


def test_a_card_kinds_type_is_read_only_and_new_uses_are_read_afresh(library):
    kind = next(k for k in library.cards.values() if k.mode("play") is not None)
    with pytest.raises(AttributeError):
        kind.type = "armor"
    before = kind.uses
    kind.uses = tuple(m for m in before if m.context != "play")
    try:
        assert kind.mode("play") is None
    finally:
        kind.uses = before
    assert kind.mode("play") is next(m for m in before if m.context == "play")


def test_the_engine_calls_a_subclass_override(library):
    """A process's subclass written in Python (engine/parts.py) is called where the engine calls
    the process, compiled or not: a watching override sees every draw, and changes no game."""
    drawn = []

    class CountedDraws(Zones):
        def draw_top(self) -> model.Card:
            card = super().draw_top()
            drawn.append(card)
            return card

    plain = play_game(library, "standard", 5, 3, log=True)
    watched = play_game(library, "standard", 5, 3, log=True, parts=Parts(zones=CountedDraws))
    assert watched.log == plain.log and watched.error is None
    assert len(drawn) > 5 * 4  # the opening hands, then the game's draws and judgements


def test_the_engine_needs_no_mypy_extensions(library, tmp_path):
    """The plain install has no mypy_extensions (it comes with mypy): the engine imports and
    plays the same game without it (core/native.py)."""
    code = ("import sys; sys.modules['mypy_extensions'] = None\n"
            "from sgs_dsl.compiler.library import load_library\n"
            "from sgs_dsl.game import play_game\n"
            "import sgs_dsl; print(sgs_dsl.build())\n"
            "print(len(play_game(load_library(), 'standard', 5, 3, log=True).log))")
    # run from elsewhere: `-c` puts the working directory first on the path, and a checkout's
    # sgs_dsl there is not the build under test
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == [sgs_dsl.build(), str(len(play_game(library, "standard", 5, 3, log=True).log))]


def test_each_compiled_module_imports_first(tmp_path):
    """Each module of the build loads first in a fresh interpreter: compiled, a module whose
    classes need another's type before anything imported it crashes the interpreter, which a
    test process that happened to import things in another order would never see."""
    code = ("import importlib, sys\n"
            "for name in sys.argv[1:]:\n"
            "    importlib.import_module(name)\n")
    for name in sgs_dsl.COMPILED_MODULES:
        done = subprocess.run([sys.executable, "-c", code, name], capture_output=True, text=True, timeout=120,
                              cwd=tmp_path)
        assert done.returncode == 0, (name, done.stderr[-2000:])


# ------------------------------------------------------------ the build hook
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def hook_module(monkeypatch):
    """hatch_build.py as the build backend loads it, with hatchling's hook base class stood in
    for (hatchling lives in the build's own environment, not in the test requirements)."""
    base = types.ModuleType("hatchling.builders.hooks.plugin.interface")
    base.BuildHookInterface = type("BuildHookInterface", (), {})
    for name in ("hatchling", "hatchling.builders", "hatchling.builders.hooks", "hatchling.builders.hooks.plugin"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, base.__name__, base)
    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_build_compiles_the_list_that_compiled_checks_and_mypy_types(hook_module):
    paths = hook_module.compiled_modules(ROOT)
    assert paths == [name.replace(".", "/") + ".py" for name in sgs_dsl.COMPILED_MODULES]
    checked = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]["files"]
    for path in paths:
        assert (ROOT / path).is_file(), path
        assert not path.endswith("__init__.py"), path  # a compiled package finds none of its modules
        assert any(path == entry or path.startswith(entry.rstrip("/") + "/") for entry in checked), path
    # the two modules kept Python: the pure build's stand-in for mypy_extensions, and the
    # parts that travel to Ray's workers
    assert "sgs_dsl/core/native.py" not in paths and "sgs_dsl/engine/parts.py" not in paths


def test_without_sgs_compile_the_hook_asks_for_and_does_nothing(hook_module, monkeypatch):
    """The README's plain install: no build requirements, and the wheel stays pure Python
    (no C compiler is run, no extension is added)."""
    monkeypatch.delenv("SGS_COMPILE", raising=False)
    hook = hook_module.CompiledBuildHook()
    hook.target_name, hook.root = "wheel", str(ROOT)
    assert hook.dependencies() == []
    build_data = {"force_include": {}}
    hook.initialize("standard", build_data)
    assert build_data == {"force_include": {}}
    monkeypatch.setenv("SGS_COMPILE", "0")
    assert hook.dependencies() == []
    monkeypatch.setenv("SGS_COMPILE", "1")
    assert any(req.startswith("mypy") for req in hook.dependencies())
