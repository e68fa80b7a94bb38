"""Seed 004's rule variants as ruleset switches: `variants` (a card kind dealt under an older
printing's definition), the identity mode's `roles alternative`, and the ruleset `classic`."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgs_dsl.cli import main
from sgs_dsl.compiler.library import check_paths
from sgs_dsl.modes.identity import deal_roles

RULESET = 'ruleset mine "測試" {{\n  mode identity;\n  decks {decks};\n  {line}\n}}\n'


def _errors(tmp_path: Path, line: str, cards: str = "", decks: str = "standard") -> list:
    path = tmp_path / "r.sgs"
    path.write_text(cards + RULESET.format(decks=decks, line=line), encoding="utf-8")
    return check_paths([path])


@pytest.mark.parametrize(("players", "table", "counts"), [
    (6, "standard", (1, 1, 3, 1)), (6, "alternative", (1, 1, 2, 2)),
    (8, "standard", (1, 2, 4, 1)), (8, "alternative", (1, 2, 3, 2)),
    (10, "standard", (1, 3, 4, 2)), (10, "alternative", (1, 3, 4, 2)),  # seed 004's 10-player row: the same
    (5, "alternative", (1, 1, 2, 1)),  # the other counts keep the standard table
])
def test_role_tables_deal_their_counts(players: int, table: str, counts: tuple[int, ...]) -> None:
    roles = deal_roles(players, random.Random(7), table)
    assert roles[0] == "lord"
    assert tuple(Counter(roles)[r] for r in ("lord", "loyalist", "rebel", "renegade")) == counts


def test_classic_games_deal_two_renegades_at_six_players() -> None:
    from sgs_dsl.compiler.library import load_library
    from sgs_dsl.game import setup

    for seed in range(3):
        game = setup(load_library(), "classic", 6, seed)
        assert Counter(p.role for p in game.players) == {"lord": 1, "loyalist": 1, "rebel": 2, "renegade": 2}


def test_classic_deals_the_old_card_with_the_same_faces() -> None:
    runner = CliRunner()
    classic = runner.invoke(main, ["cards", "--ruleset", "classic", "--json"]).output
    standard = runner.invoke(main, ["cards", "--ruleset", "standard", "--json"]).output
    import json

    # the older printing keeps the printed name: the two editions differ by package (and id)
    old = [(c["suit"], c["rank"]) for c in json.loads(classic) if c["id"] == "lebu_sishu_jiu"]
    new = [(c["suit"], c["rank"]) for c in json.loads(standard) if c["id"] == "lebu_sishu"]
    assert old == new and len(old) == 3
    assert not any(c["id"] == "lebu_sishu" for c in json.loads(classic))
    assert {c["name"] for c in json.loads(classic) if c["id"] == "lebu_sishu_jiu"} == {"樂不思蜀"}
    assert len(json.loads(classic)) == 104  # seed 004: 遊戲牌104張


def test_sgs_rulesets_describes_classic() -> None:
    result = CliRunner().invoke(main, ["rulesets"])
    lines = result.output.splitlines()
    at = next(i for i, line in enumerate(lines) if " classic " in line)
    rest = lines[at + 1:]
    end = next((i for i, line in enumerate(rest) if re.match(r"^[* ]  \S", line)), len(rest))
    row = " ".join(x.strip() for x in [lines[at], *rest[:end]])  # the row with its wrapped cells and title
    assert re.search(r"roles .*alternative", row)  # the mode options cell, wrapped in its column
    assert "樂不思蜀不能對主公使用" in row.replace(" ", "") and "seed 004" in row


def test_an_unknown_variant_is_a_located_error(tmp_path: Path) -> None:
    found = _errors(tmp_path, "variants classic.樂不思屬;")
    assert found and found[0].span.line == 4 and "unknown card 'classic.樂不思屬'" in found[0].message


def test_a_variant_must_say_which_card_it_replaces(tmp_path: Path) -> None:
    found = _errors(tmp_path, "variants 閃電;")
    assert found and found[0].span.line == 4 and "not a variant of another card" in found[0].message
    assert "like CARD" in found[0].hint


def test_a_variant_of_another_type_is_refused(tmp_path: Path) -> None:
    card = 'card 怪樂 guai_le trick "測試" {\n  like 樂不思蜀;\n}\n'
    found = _errors(tmp_path, "variants 怪樂;", card)
    assert found and found[0].span.line == 7, [d.render() for d in found]
    assert "'怪樂' is a trick card but '樂不思蜀' is a delayed card" in found[0].message


def test_two_variants_of_one_card_are_refused(tmp_path: Path) -> None:
    card = 'card 樂二 le_er delayed "測試" {\n  like 樂不思蜀;\n}\n'
    found = _errors(tmp_path, "variants classic.樂不思蜀, 樂二;", card)
    assert found and "'樂不思蜀' is given two variants" in found[0].message
    assert (found[0].span.line, found[0].span.column) == (7, 26)  # at the second one
    assert "classic.樂不思蜀" in found[0].hint


def test_a_variant_of_a_card_the_decks_do_not_deal_is_refused(tmp_path: Path) -> None:
    found = _errors(tmp_path, "variants classic.樂不思蜀;", decks="ex")
    assert found and "deal no '樂不思蜀'" in found[0].message


def test_an_unknown_role_table_is_a_located_error(tmp_path: Path) -> None:
    found = _errors(tmp_path, "roles alternate;")
    assert found and found[0].span.line == 4 and "'roles' is one of standard, alternative" in found[0].message
    assert "alternative" in found[0].hint


def test_a_well_formed_variant_ruleset_loads(tmp_path: Path) -> None:
    assert _errors(tmp_path, "variants classic.樂不思蜀;") == []


def test_a_bare_name_outside_the_older_printing_s_package_reads_the_dealt_card(tmp_path: Path) -> None:
    """Two editions print 樂不思蜀: outside package classic a bare name means the one a deck
    deals (standard's), which is no variant of another card."""
    found = _errors(tmp_path, "variants 樂不思蜀;")
    assert found and "'樂不思蜀' is not a variant of another card" in found[0].message
