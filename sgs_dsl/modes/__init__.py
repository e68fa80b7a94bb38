"""The modes of play, by the name a ruleset gives (`mode identity;`): see modes/base.py."""

from __future__ import annotations

from ..core.defs import Ruleset
from .base import Mode
from .campus import CampusMode
from .hegemony import HegemonyMode
from .identity import IdentityMode
from .team3v3 import Team3v3Mode

MODES: dict[str, type[Mode]] = {m.spec.name: m for m in (IdentityMode, HegemonyMode, CampusMode, Team3v3Mode)}


def make_mode(ruleset: Ruleset) -> Mode:
    """The mode a ruleset names, with its options."""
    return MODES[ruleset.mode](ruleset)
