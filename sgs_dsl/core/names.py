"""Definitions that belong to their package.

A skill is defined in a package (the stem of its file: heroes/hegemony.sgs is `hegemony`) and
known there by its printed name and its id. Two packages may print the same name with different
wordings (the identity 離間 and the 國戰 one), so a definition's identity is its package and name:
`hegemony.離間`. Its key, the string the engine and the reports keep it by, is the printed name
while no other definition of the library shares it, and the qualified name when one does. A
bare name is read in the package that writes it first, then among the packages a ruleset
deals; a name that still means two definitions is ambiguous, and the caller reports it with
the qualified spellings (`ambiguity`)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from typing import Any, Generic, Protocol, TypeVar

from ..syntax.names import normalize


class Named(Protocol):
    name: str
    id: str
    package: str
    key: str


T = TypeVar("T", bound=Named)


def qualified(definition: Named) -> str:
    """`package.name`, the spelling that names one definition whatever the library holds."""
    return f"{definition.package}.{definition.name}" if definition.package else definition.name


def split(text: str) -> tuple[str, str]:
    """`hegemony.離間` -> ("hegemony", "離間"); a bare name -> ("", name)."""
    package, dot, name = text.partition(".")
    return (package, name) if dot and package and name else ("", text)


def key(package: str, name: str, shared: Collection[str]) -> str:
    """A definition's key: its name, qualified when `shared` (the names printed by more than
    one definition of the library, normalised) holds it."""
    return f"{package}.{name}" if package and normalize(name) in shared else name


def shared(names: Iterable[str]) -> set[str]:
    """The names (normalised) that more than one definition prints."""
    seen: set[str] = set()
    twice: set[str] = set()
    for name in names:
        (twice if normalize(name) in seen else seen).add(normalize(name))
    return twice


class Definitions(Mapping[str, T], Generic[T]):
    """The definitions of one kind (skills, heroes), by key, and found by any spelling."""

    def __init__(self, definitions: Collection[T], base: Collection[str] = ()):
        self._by_key: dict[str, T] = {d.key: d for d in definitions}
        # the packages of the built-in library: their text was written before any other package
        # existed, so a name they write never means another package's definition
        self.base = frozenset(base)
        self._spelled: dict[str, list[T]] = {}  # a bare name or id, normalised -> its definitions
        for d in definitions:
            for spelling in {normalize(d.name), d.id.lower()}:
                self._spelled.setdefault(spelling, []).append(d)

    def __getitem__(self, text: str) -> T:
        """The definition of a key, or of any spelling that names one (a unique name or id)."""
        found: T | None = self.get(text)
        if found is None:
            raise KeyError(text)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_key)

    def __len__(self) -> int:
        return len(self._by_key)

    def get(self, text: str, default: Any = None) -> Any:
        """The one definition `text` names (a key, or any spelling that names one), else default."""
        if not isinstance(text, str):  # `None in table`: nothing is named so
            return default
        found = self._by_key.get(text)
        if found is not None:
            return found
        matches = self.find(text)
        return matches[0] if len(matches) == 1 else default

    def find(self, text: str, package: str = "", within: Collection[str] = ()) -> list[T]:
        """The definitions `text` may mean: a qualified spelling (`hegemony.離間`, or by id
        `hegemony.lijian`) names one; a bare name or id every definition so spelled, narrowed
        to `package` if it defines one, else (for text of the built-in library) to its packages,
        then to the packages `within` if they hold any; of a card and its editions (each `like`
        it), the card."""
        wanted, bare = split(text)
        matches = self._spelled.get(normalize(bare)) or self._spelled.get(bare.lower()) or []
        if wanted:
            return [d for d in matches if d.package == wanted]
        if len(matches) > 1 and package:
            matches = [d for d in matches if d.package == package] or matches
        if len(matches) > 1 and package in self.base:
            matches = [d for d in matches if d.package in self.base] or matches
        if len(matches) > 1 and within:
            matches = [d for d in matches if d.package in within] or matches
        if len(matches) > 1 and all(hasattr(d, "is_a") for d in matches):  # cards: editions of one
            original = [d for d in matches if all(m.is_a(d.key) for m in matches)]  # type: ignore[attr-defined]
            matches = original if len(original) == 1 else matches
        return list(matches)

    def names(self) -> list[str]:
        """Every printed name and id, for did-you-mean hints."""
        return sorted({d.name for d in self._by_key.values()} | {d.id for d in self._by_key.values()})


def ambiguity(text: str, matches: Collection[Named]) -> tuple[str, str]:
    """The message and hint for a name that means two definitions."""
    spelled = ", ".join(sorted(qualified(d) for d in matches))
    return (f"'{text}' names {len(matches)} definitions: {spelled}",
            f"write the one you mean with its package: {spelled.split(', ')[0]}")
