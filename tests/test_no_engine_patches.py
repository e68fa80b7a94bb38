"""No test or benchmark patches the engine. A compiled engine (the mypyc build, docs/performance.md)
binds its calls at build time: a patched method or module constant is never seen by it, so a
test that patches one would pass or fail for nothing. A test that needs the game to behave
otherwise builds it of other parts (engine/parts.py: a subclass of a process, the budget, the
checker, the mode) and hands them to setup, play_game, run_batch or run_ruling.

What counts as a patch: `setattr` (builtin or monkeypatch's), `delattr`, `mock.patch` or an
assignment to an attribute, that names a module, class or function of the engine and core
packages, or (on any object: an instance of a process) an attribute that is a function there."""

from __future__ import annotations

import ast
from pathlib import Path

import sgs_dsl.core
import sgs_dsl.engine

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (sgs_dsl.core, sgs_dsl.engine)
PREFIXES = tuple(p.__name__ for p in PACKAGES)
PATCHING_CALLS = {"setattr", "delattr", "patch"}


def engine_functions() -> set[str]:
    """The names of the functions and methods defined in the engine and core modules, less the
    names that are data somewhere there too (`alive` is a method of the seats and a field of a
    player): those are told apart by what they are bound to, which a file's text cannot say.
    A Protocol's methods are not the engine's: they say what the layers above give it (a mode's
    hooks, engine/interfaces.py), and those are Python wherever the engine is compiled."""
    functions: set[str] = set()
    data: set[str] = set()
    for package in PACKAGES:
        for path in Path(package.__path__[0]).glob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            declared = {id(f) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) and _is_protocol(c)
                        for f in c.body}
            for node in ast.walk(tree):
                if id(node) in declared:
                    continue
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("__"):
                    (data if any(_is_property(d) for d in node.decorator_list) else functions).add(node.name)
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    data.add(node.target.id)
                elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    data |= {t.attr for t in targets if isinstance(t, ast.Attribute)}
                    data |= {t.id for t in targets if isinstance(t, ast.Name)}
    return functions - data


def _is_protocol(cls: ast.ClassDef) -> bool:
    return any((isinstance(b, ast.Name) and b.id == "Protocol") or (isinstance(b, ast.Attribute) and b.attr == "Protocol")
               for b in cls.bases)


def _is_property(decorator: ast.expr) -> bool:
    """@property or @x.setter: a name read and written as data."""
    return (isinstance(decorator, ast.Name) and decorator.id in ("property", "cached_property")) or \
        (isinstance(decorator, ast.Attribute) and decorator.attr == "setter")


def engine_bound(tree: ast.Module) -> set[str]:
    """The names a file binds to an engine module or to something defined in one."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if f"{node.module}.{alias.name}".startswith(PREFIXES):
                    bound.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PREFIXES):
                    bound.add(alias.asname or alias.name.split(".")[0])
    return bound


def root(node: ast.AST) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def patches(path: Path, functions: set[str], base: Path = ROOT) -> list[str]:
    """Each place in `path` that patches the engine: file:line: the code (the file named from `base`)."""
    text = path.read_text(encoding="utf-8")
    if "sgs_dsl" not in text:  # the yardstick: an engine of its own
        return []
    tree = ast.parse(text)
    bound = engine_bound(tree)
    found = []

    def hit(node: ast.stmt | ast.expr) -> None:
        found.append(f"{path.relative_to(base)}:{node.lineno}: {ast.get_source_segment(text, node)}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name not in PATCHING_CALLS or not node.args:
                continue
            target = node.args[0]
            named = node.args[1].value if len(node.args) > 1 and isinstance(node.args[1], ast.Constant) else None
            if isinstance(target, ast.Constant) and str(target.value).startswith(PREFIXES):
                hit(node)
            elif root(target) in bound or named in functions:
                hit(node)
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) and (root(t) in bound or t.attr in functions) for t in targets):
                hit(node)
    return found


def sources() -> list[Path]:
    return sorted([*(ROOT / "tests").rglob("*.py"), *(ROOT / "benchmarks").glob("*.py")])


def test_no_test_or_benchmark_patches_the_engine():
    functions = engine_functions()
    found = [line for path in sources() if path.name != Path(__file__).name for line in patches(path, functions)]
    assert found == [], "patches of the engine (build the game of other parts instead):\n" + "\n".join(found)


def test_the_check_finds_each_kind_of_patch(tmp_path):
    """Each way of patching, written into a file, is found (so the sweep above can fail)."""
    copy = tmp_path / "test_patching.py"
    copy.write_text("from sgs_dsl.engine.kernel import Game\n"
            "from sgs_dsl.engine import extra_turns\n"
            "from unittest import mock\n"
            "def test(monkeypatch, game):\n"
            "    monkeypatch.setattr(Game, 'log', print)\n"
            "    monkeypatch.setattr(extra_turns, 'MAX_EXTRA_TURNS', 3)\n"
            "    monkeypatch.setattr('sgs_dsl.core.model.MAX_STEPS', 3)\n"
            "    monkeypatch.setattr(game.zones, 'draw', print)\n"
            "    Game.log = print\n"
            "    game.zones.draw = print\n"
            "    mock.patch('sgs_dsl.engine.zones.Zones.draw')\n"
            "    setattr(Game, 'trace', print)\n", encoding="utf-8")
    found = sorted(int(line.split(":")[1]) for line in patches(copy, engine_functions(), tmp_path))
    assert found == list(range(5, 13)), found


def test_a_subclass_handed_in_as_a_part_is_not_a_patch(tmp_path):
    copy = tmp_path / "test_parts.py"
    copy.write_text("from sgs_dsl.engine.zones import Zones\n"
                    "from sgs_dsl.engine.parts import Parts\n"
                    "class Counted(Zones):\n"
                    "    drawn = []\n"
                    "    def draw(self, player, n):\n"
                    "        self.drawn.append(n)\n"
                    "        return super().draw(player, n)\n"
                    "def test(game):\n"
                    "    Counted.drawn = []\n"
                    "    game.current = game.players[1]\n"
                    "    parts = Parts(zones=Counted)\n", encoding="utf-8")
    assert patches(copy, engine_functions(), tmp_path) == []

