"""sgs-dsl: a declarative rules language for Sanguosha (三國殺) and the engine that runs it."""

__version__ = "0.2.0"

# The modules the compiled build compiles (hatch_build.py reads this list). Each must pass
# `mypy --strict` (add it to `files` in pyproject.toml's [tool.mypy]); the classes in them become
# native classes (docs/performance.md lists what that rules out). Two modules stay Python:
# core/native.py (it is how the pure build does without mypy_extensions) and engine/parts.py (a
# frozen `Parts` travels to Ray's workers, and a frozen native object does not pickle; it is
# read once a game). Not a package's __init__.py: mypyc gives a compiled package a wrong
# __path__, where importlib finds none of its modules. All are built into one shared library,
# so calls between them are native calls.
COMPILED_MODULES = (
    # the core the compiler and the engine share
    "sgs_dsl.core.defs", "sgs_dsl.core.model", "sgs_dsl.core.modes", "sgs_dsl.core.vocab",
    "sgs_dsl.core.windows",
    # the engine: the game's processes, the decision protocol, the invariants, the forward model
    "sgs_dsl.engine.attached", "sgs_dsl.engine.bound_modifiers", "sgs_dsl.engine.choices",
    "sgs_dsl.engine.damage_rules", "sgs_dsl.engine.decisions", "sgs_dsl.engine.describe",
    "sgs_dsl.engine.extra_turns", "sgs_dsl.engine.filters", "sgs_dsl.engine.forking", "sgs_dsl.engine.game_start",
    "sgs_dsl.engine.history", "sgs_dsl.engine.hp", "sgs_dsl.engine.interfaces",
    "sgs_dsl.engine.invariants", "sgs_dsl.engine.kernel", "sgs_dsl.engine.knowledge", "sgs_dsl.engine.labelled",
    "sgs_dsl.engine.moves", "sgs_dsl.engine.pindian", "sgs_dsl.engine.prohibits",
    "sgs_dsl.engine.questioning", "sgs_dsl.engine.seats", "sgs_dsl.engine.skills",
    "sgs_dsl.engine.state", "sgs_dsl.engine.triggers", "sgs_dsl.engine.turn", "sgs_dsl.engine.using",
    "sgs_dsl.engine.view", "sgs_dsl.engine.viewas", "sgs_dsl.engine.zones",
    # the compiled text: its closures, the effects they call, the values they check
    "sgs_dsl.compiler.compiler", "sgs_dsl.compiler.expressions", "sgs_dsl.compiler.procedures",
    "sgs_dsl.compiler.runtime", "sgs_dsl.compiler.values",
    # the modes, the game's loop, its agents but the lookahead one (whose time is its rollouts')
    "sgs_dsl.modes.base", "sgs_dsl.modes.campus", "sgs_dsl.modes.hegemony", "sgs_dsl.modes.identity",
    "sgs_dsl.modes.team3v3", "sgs_dsl.game", "sgs_dsl.agents.random_agent", "sgs_dsl.agents.heuristic",
    "sgs_dsl.agents.sides",
)


def compiled() -> bool:
    """Is this the compiled build (`SGS_COMPILE=1 pip install .`): are the modules it compiles C
    extensions built by mypyc rather than Python source? Read from where they load, without
    importing them or their packages (`sgs --version` loads neither the engine nor the compiler)."""
    import os
    from importlib.machinery import EXTENSION_SUFFIXES, PathFinder

    def origin(name: str) -> str:
        *packages, module = name.split(".")[1:]  # below sgs_dsl
        spec = PathFinder.find_spec(module, [os.path.join(where, *packages) for where in __path__])
        return (spec.origin or "") if spec is not None else ""

    return all(origin(name).endswith(tuple(EXTENSION_SUFFIXES)) for name in COMPILED_MODULES)


def build() -> str:
    """Which build this is, as `sgs --version` names it."""
    return "compiled with mypyc" if compiled() else "pure Python"
