"""How to install an optional part of sgs-dsl. sgs-dsl is installed from its source (a clone,
or an unpacked sdist), not from a package registry, so every hint names a way that works:
pip in the source folder, or pip from the git repository."""

from __future__ import annotations

#: The optional dependencies (pyproject.toml's extras) and what each is for.
EXTRAS = {"test": "the test suite", "ray": "sgs simulate --backend ray", "report": "sgs balance's figures",
          "lsp": "sgs lsp", "web": "sgs serve",
          "rl": "sgs_dsl.rl, the PettingZoo environment"}


def install_hint(extra: str) -> str:
    """The command that installs `extra`, as a hint names it."""
    return f"pip install '.[{extra}]' in the sgs-dsl source folder (or pip install 'sgs-dsl[{extra}] @ git+URL')"
