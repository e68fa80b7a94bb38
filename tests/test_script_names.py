"""Names in either script: a hero, skill or card named in Simplified resolves as its
Traditional name does, in `.sgs` text, in rulings and in `sgs explain`; and the
Traditional/Simplified table covers every name of the library and of the shared data files."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from checking import check_text
from click.testing import CliRunner

from sgs_dsl.cli import main
from sgs_dsl.compiler.library import load_library
from sgs_dsl.rulings.parser import parse_rulings
from sgs_dsl.rulings.runner import run_ruling
from sgs_dsl.syntax.names import _table, normalize

# copies of ../shared/data's card and hero tables (CI has only the repository); a test below
# checks they are all there
DATA = Path(__file__).parent / "data"
RULINGS = Path(__file__).parent / "rulings"


def _rows(pattern: str) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    for path in sorted(DATA.glob(pattern)):
        with path.open(encoding="utf-8") as f:
            rows.extend(csv.DictReader(f, delimiter="\t"))
    return rows


def _simplified(text: str) -> str:
    return text.translate(_table())


def test_the_data_files_are_there():
    assert len(_rows("cards_*.tsv")) > 200 and len(_rows("heroes_*.tsv")) > 80


@pytest.mark.parametrize("pattern", ["cards_*.tsv", "heroes_*.tsv"])
def test_every_name_of_the_data_files_is_one_name_in_either_script(pattern):
    differing = [(r["name_zh_hant"], r["name_zh"]) for r in _rows(pattern)
                 if normalize(r["name_zh_hant"]) != normalize(r["name_zh"])]
    assert differing == [], "add these characters to grammar/hant_hans.txt"


def test_every_name_of_the_library_is_its_data_name_in_simplified():
    library = load_library()
    data = {r["id"]: r["name_zh"] for r in _rows("cards_*.tsv") + _rows("heroes_*.tsv")}
    for r in _rows("heroes_*.tsv"):  # skills: ids and Simplified names, `name[tag]`
        for ident, name in zip(r["skills"].split(";"), r["skills_zh"].split(";"), strict=True):
            data[ident.split("[")[0]] = name.split("[")[0]
    things = [*library.cards.values(), *library.heroes.values(), *library.skills.values()]
    compared = {t.id: (t.name, data[t.id]) for t in things if t.id in data}
    assert len(compared) > 60
    assert [pair for pair in compared.values() if normalize(pair[0]) != normalize(pair[1])] == []


def test_a_hero_file_in_simplified_names_the_traditional_skills(tmp_path):
    text = 'hero 试将 shijiang_jian { kingdom 蜀; hp 3; skills 观星, standard.空城; }\n'
    assert check_text(tmp_path, text) == []  # a package's name is not translated
    found = check_text(tmp_path, 'hero 试将 shijiang_jian { kingdom 蜀; hp 3; skills 观星, 空域; }\n')
    assert [d.message for d in found] == ["unknown skill '空域'"]


@pytest.mark.parametrize("name", ["heroes_shu.ruling", "cards_equipment.ruling", "ruling_format.ruling"])
def test_a_ruling_written_in_simplified_plays_as_in_traditional(name):
    library = load_library()
    text = (RULINGS / name).read_text(encoding="utf-8")
    assert _simplified(text) != text
    traditional = [run_ruling(r, library) for r in parse_rulings(text, name, library)]
    simplified = [run_ruling(r, library) for r in parse_rulings(_simplified(text), name, library)]
    assert all(r.passed for r in traditional) and all(r.passed for r in simplified)
    # the same game, line for line; only the ruling's own title (the first line) is as written
    assert [r.trace[1:] for r in simplified] == [r.trace[1:] for r in traditional]


@pytest.mark.parametrize("traditional, simplified", [("諸葛亮", "诸葛亮"), ("觀星", "观星"), ("無懈可擊", "无懈可击"),
                                                     ("夏侯惇", "夏侯惇")])
def test_explain_resolves_a_name_in_either_script(traditional, simplified):
    runner = CliRunner()
    one, other = runner.invoke(main, ["explain", traditional]), runner.invoke(main, ["explain", simplified])
    assert one.exit_code == 0 and other.exit_code == 0, other.output
    assert one.output == other.output and traditional in one.output
