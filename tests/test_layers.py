"""The flow stays one way: text -> AST -> checker/compiler -> library -> game (kernel + mode)
-> agents -> log -> CLI / simulator / rulings, with the data both the compiler and the engine
use in one bottom layer (sgs_dsl/core). Imports are read from the source, not executed."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sgs_dsl.core import vocab
from sgs_dsl.engine import history

PACKAGE = Path(__file__).resolve().parents[1] / "sgs_dsl"

# modules at the package's root that import nothing of it (where data files are, safe text,
# the collector paused while a big tree is built)
LEAVES = {"gcpause", "resources", "textsafe"}
# which layers a layer may import (besides itself); syntax is the front end every layer reads spans from
ALLOWED = {
    "syntax": set(),
    "core": {"syntax"},
    "compiler": {"syntax", "core"},
    "engine": {"syntax", "core"},
}


def imported_layers(path: Path) -> set[str]:
    """The sgs_dsl subpackages a module imports (relative or absolute), at any depth of its code."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 2 and node.module:
                found.add(node.module.split(".")[0])
            elif node.level == 0 and node.module and node.module.startswith("sgs_dsl."):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[1] for a in node.names if a.name.startswith("sgs_dsl.")}
    return found


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_a_layer_imports_only_the_layers_below_it(layer: str) -> None:
    for path in sorted((PACKAGE / layer).glob("*.py")):
        wrong = imported_layers(path) - ALLOWED[layer] - {layer} - LEAVES
        assert not wrong, f"{path.relative_to(PACKAGE)} imports {sorted(wrong)}"


def test_the_history_queries_are_the_vocabulary_the_checker_knows() -> None:
    assert tuple(history.CARD_KINDS) == vocab.HISTORY_CARDS
