"""Every install instruction the docs and the messages give can work: sgs-dsl is installed
from its source folder (or from git), never from a registry release that does not exist, and
every extra named is one pyproject.toml defines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tomllib

from sgs_dsl.extras import EXTRAS, install_hint

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
#: Packages of a registry a message may name on their own (a test tool's dependency).
REGISTRY_PACKAGES = {"syrupy", "build"}
COMMAND = re.compile(r"pip install ((?:-[-\w]+ )*)('[^']*'|\"[^\"]*\"|[\w.\-\[\],{}]+)")


def _texts() -> list[Path]:
    found = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "sgs_dsl").rglob("*.py")),
             ROOT / ".ci" / "run"]
    return [p for p in found if p.exists()]


def _extras() -> set[str]:
    return set(tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["optional-dependencies"])


def _problem(target: str, defined: set[str]) -> str:
    target = target.strip("'\"")
    if target.startswith("sgs-dsl"):
        if " @ git+" not in target and "@ git+" not in target:
            return "names a registry release of sgs-dsl, which does not exist"
    elif target not in REGISTRY_PACKAGES and not target.startswith("."):
        return "installs neither the source folder nor a known package"
    extras = re.search(r"\[([^\]]*)\]", target)
    named = set(extras.group(1).split(",")) if extras else set()
    if named and "{extra}" not in named and not named <= defined:
        return f"names extras {sorted(named - defined)} that pyproject.toml does not define"
    return ""


def test_every_install_instruction_can_work():
    defined = _extras()
    problems = []
    for path in _texts():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in COMMAND.finditer(line):
                why = _problem(match.group(2), defined)
                if why:
                    problems.append(f"{path.relative_to(ROOT)}:{n}: {match.group(0)!r} {why}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_the_hints_name_extras_that_exist(extra):
    assert extra in _extras()
    assert f"'.[{extra}]'" in install_hint(extra)


def test_the_checker_catches_a_registry_install():
    assert _problem("'sgs-dsl[ray]'", {"ray"})
    assert _problem("'.[nope]'", {"ray"})
    assert not _problem("'sgs-dsl[ray] @ git+https://example.org/sgs-dsl.git'", {"ray"})
