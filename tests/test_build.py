"""The build in use, pure Python or compiled with mypyc (docs/performance.md, "The compiled
build"), and what the core's classes keep in both: the faces and definitions that cannot be
written, the card kind whose `uses` setter forgets what was worked out from them.

.ci/run sets SGS_EXPECT_COMPILED=1 where it installed the compiled build: there the core
modules must be C extensions; everywhere else, Python source."""

from __future__ import annotations

import os

import attr
import pytest
from click.testing import CliRunner

import sgs_dsl
from sgs_dsl.cli import main
from sgs_dsl.compiler.library import load_library
from sgs_dsl.core import model


@pytest.fixture(scope="module")
def library():
    return load_library()


def test_the_build_in_use_is_the_one_expected():
    expected = os.environ.get("SGS_EXPECT_COMPILED", "") == "1"
    assert sgs_dsl.compiled() is expected
    assert model.__file__.endswith(".py") is not expected


def test_sgs_version_names_the_build():
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"sgs, version {sgs_dsl.__version__} ({sgs_dsl.build()})\n"


def test_a_cards_face_cannot_be_written(library):
    kind = next(iter(library.cards.values()))
    card = model.Card(0, kind, "spade", 1)
    assert (card.color, card.text) == ("black", f"【{kind.name}】♠A")
    for field, value in (("suit", "heart"), ("rank", 13), ("kind", kind), ("color", "red")):
        with pytest.raises(attr.exceptions.FrozenInstanceError):
            setattr(card, field, value)


def test_a_definition_cannot_be_written(library):
    trigger = next(t for s in library.skills.values() for ts in s.triggers.values() for t in ts)
    with pytest.raises(attr.exceptions.FrozenError):
        trigger.optional = not trigger.optional
    assert attr.evolve(trigger, helper=True).helper  # a changed copy is made instead
    assert attr.evolve(trigger) == trigger and hash(attr.evolve(trigger)) == hash(trigger)


def test_a_card_kinds_type_is_read_only_and_new_uses_are_read_afresh(library):
    kind = next(k for k in library.cards.values() if k.mode("play") is not None)
    with pytest.raises(AttributeError):
        kind.type = "armor"
    before = kind.uses
    kind.uses = tuple(m for m in before if m.context != "play")
    try:
        assert kind.mode("play") is None
    finally:
        kind.uses = before
    assert kind.mode("play") is next(m for m in before if m.context == "play")
