"""A ruling's trace, step by step: the ruling is played again to any line of its trace (it is
fixed by its table and script). The ruling files the app may read are the ones named when it
started (`sgs serve --rulings`); a page names one by its place in that list, never by a path."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from ..engine.parts import DEFAULT_PARTS
from .replay import Replay, Watch, _Stop, watched_game


class RulingRefused(ValueError):
    """A ruling that cannot be opened: why."""


@attrs.frozen
class RulingFiles:
    """The ruling files the app may read: name shown -> path."""

    files: dict[str, Path]
    library: Any = None

    @classmethod
    def of(cls, paths: Sequence[Path], library: Any) -> RulingFiles:
        found: dict[str, Path] = {}
        for path in paths:
            for file in sorted(path.rglob("*.ruling")) if path.is_dir() else [path]:
                name = str(file.relative_to(path.parent)) if path.is_dir() else file.name
                found[name] = file.resolve()
        return cls(found, library)

    def listing(self) -> list[dict[str, Any]]:
        """Each file's name and its rulings' titles (a file that does not load lists none)."""
        from ..rulings.parser import parse_rulings
        from ..syntax.diagnostics import SgsError

        out = []
        for name, path in self.files.items():
            try:
                titles = [r.title for r in parse_rulings(path.read_text(encoding="utf-8"), str(path), self.library)]
            except (SgsError, OSError, UnicodeDecodeError):
                titles = []
            out.append({"file": name, "titles": titles})
        return out

    def read(self, name: Any) -> tuple[str, str]:
        path = self.files.get(name) if isinstance(name, str) else None
        if path is None:
            raise RulingRefused(f"no ruling file {name!r} is served: start `sgs serve --rulings PATH` to serve one")
        return path.read_text(encoding="utf-8"), str(path)


def ruling_replay(library: Any, text: str, path: str, title: Any) -> tuple[Replay, str]:
    """The replay of the ruling titled `title` in `text` (the first when None)."""
    from ..rulings.parser import parse_rulings
    from ..rulings.runner import run_ruling
    from ..syntax.diagnostics import SgsError

    try:
        rulings = parse_rulings(text, path, library)
    except SgsError as error:
        raise RulingRefused(error.render()) from None
    chosen = next((r for r in rulings if title in (None, "", r.title)), None)
    if chosen is None:
        raise RulingRefused(f"no ruling titled {title!r}; the file has: {'、'.join(r.title for r in rulings)}")

    def play(watch: Watch) -> Any:
        try:
            return run_ruling(chosen, library, attrs.evolve(DEFAULT_PARTS, game=watched_game(watch)))
        except _Stop:
            return None

    seats = len(chosen.seats)
    return Replay(play, seats, replays_answers=False).record(), chosen.title
