"""Where the shipped text lives: inside the wheel (sgs_dsl/_data) or, in a checkout, the repo root."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_KINDS = ("grammar", "cards", "heroes", "rulesets")


def data_dir(kind: str) -> Path:
    """The folder holding one kind of shipped text: grammar, cards, heroes or rulesets."""
    if kind not in _KINDS:
        raise ValueError(f"unknown data kind {kind!r}")
    installed = _PACKAGE / "_data" / kind
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / kind


def library_files() -> list[Path]:
    """Every .sgs file of the built-in library, in a stable order."""
    files: list[Path] = []
    for kind in ("cards", "heroes", "rulesets"):
        folder = data_dir(kind)
        if folder.is_dir():
            files.extend(sorted(folder.rglob("*.sgs")))
    return files


def repository_path(path: Path) -> Path | None:
    """The repository file a shipped file is (`heroes/standard.sgs`), wherever it is installed;
    None for a file that is not shipped text (a designer's own)."""
    resolved = path.resolve()
    for kind in _KINDS:
        try:
            return Path(kind) / resolved.relative_to(data_dir(kind).resolve())
        except ValueError:
            continue
    return None
