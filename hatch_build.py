"""The opt-in compiled build: `SGS_COMPILE=1 pip install .` compiles sgs_dsl.COMPILED_MODULES
with mypyc into C extensions inside the wheel (docs/performance.md, "The compiled build").
Without SGS_COMPILE=1 this hook does nothing and asks for nothing: the wheel is pure Python
and the install needs no C compiler. An editable install is never compiled."""

from __future__ import annotations

import ast
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def compiled_modules(root: Path) -> list[str]:
    """The modules compiled, as paths from the repository root: sgs_dsl.COMPILED_MODULES, read
    from sgs_dsl/__init__.py without importing the package (the build may not have its
    dependencies), so that the list the build compiles and the one `sgs_dsl.compiled()` checks
    are one list."""
    tree = ast.parse((root / "sgs_dsl" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "COMPILED_MODULES" for t in node.targets):
            return [name.replace(".", "/") + ".py" for name in ast.literal_eval(node.value)]
    raise RuntimeError("sgs_dsl/__init__.py names no COMPILED_MODULES")


# The shared library holding the compiled code: sgs_dsl_compiled__mypyc.<platform>.so, beside the
# package, not in it: mypyc sets a module's __file__ (and a compiled package's __path__) to the
# library's folder followed by the module's dotted path, which holds only from above the package
GROUP = "sgs_dsl_compiled"
# What the build itself needs (only when compiling): mypyc, setuptools to drive the C
# compiler, and what the compiled modules import, for mypyc's type check.
BUILD_REQUIRES = ["mypy>=2.4,<3", "setuptools>=68", "attrs>=23.1"]


def compiling() -> bool:
    return os.environ.get("SGS_COMPILE", "") not in ("", "0")


class CompiledBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        return BUILD_REQUIRES if compiling() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if not compiling() or self.target_name != "wheel" or version == "editable":
            return
        self._out = out = Path(tempfile.mkdtemp(prefix="sgs-mypyc-"))
        for built in _compile(Path(self.root), out):
            build_data["force_include"][str(built)] = built.relative_to(out / "lib").as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True  # cpXY-cpXY-platform: the extensions are for this Python

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        out = getattr(self, "_out", None)
        if out is not None:  # the C sources and objects: the wheel holds what it needs
            shutil.rmtree(out, ignore_errors=True)


def _compile(root: Path, out: Path) -> list[Path]:
    """Translate the compiled modules to C and build them; the extension files, under out/lib."""
    from mypyc.build import mypycify
    from setuptools import Distribution
    from setuptools.command.build_ext import build_ext

    here = os.getcwd()
    os.chdir(root)  # mypy names the modules by their paths from the root (and reads [tool.mypy])
    try:
        started = time.perf_counter()
        modules = compiled_modules(root)
        # one C file a module (multi_file): gcc takes about half the time it takes over one
        # C file holding the whole group
        extensions = mypycify(modules, opt_level="3", group_name=GROUP, target_dir=str(out / "c"),
                              multi_file=True)
        translated = time.perf_counter()
        command = build_ext(Distribution({"name": "sgs-dsl", "ext_modules": extensions}))
        command.build_lib = str(out / "lib")
        command.build_temp = str(out / "temp")
        command.ensure_finalized()
        command.run()
        print(f"sgs-dsl: compiled {len(modules)} modules: mypyc {translated - started:.1f} s, "
              f"C compiler {time.perf_counter() - translated:.1f} s", file=sys.stderr)
    finally:
        os.chdir(here)
    return sorted(p for p in (out / "lib").rglob("*") if p.is_file())
