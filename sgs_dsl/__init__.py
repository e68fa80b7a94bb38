"""sgs-dsl: a declarative rules language for Sanguosha (三國殺) and the engine that runs it."""

__version__ = "0.1.0"

# The modules every compiled build compiles (hatch_build.py's COMPILED_MODULES holds them all).
_ALWAYS_COMPILED = ("sgs_dsl.core.defs", "sgs_dsl.core.model", "sgs_dsl.core.modes", "sgs_dsl.core.vocab",
                    "sgs_dsl.core.windows", "sgs_dsl.compiler.compiler", "sgs_dsl.compiler.expressions",
                    "sgs_dsl.compiler.procedures", "sgs_dsl.compiler.runtime", "sgs_dsl.compiler.values",
                    "sgs_dsl.modes.base", "sgs_dsl.modes.campus", "sgs_dsl.modes.hegemony",
                    "sgs_dsl.modes.identity", "sgs_dsl.modes.team3v3", "sgs_dsl.game",
                    "sgs_dsl.agents.random_agent")


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

    return all(origin(name).endswith(tuple(EXTENSION_SUFFIXES)) for name in _ALWAYS_COMPILED)


def build() -> str:
    """Which build this is, as `sgs --version` names it."""
    return "compiled with mypyc" if compiled() else "pure Python"
