"""Definitions that belong to their package (core/names.py): two packages may print one skill
name; a bare name is read in the package that writes it first; an ambiguous one is a located
error listing the qualified spellings, which are accepted in .sgs, rulings and the CLI."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from sgs_dsl.cli import main
from sgs_dsl.compiler.library import build, check_paths, load_library
from sgs_dsl.resources import library_files

MINE = '''skill 試間 shijian "測試" {
  active once { draw(you, 1); }
}
'''


def _check(tmp_path: Path, name: str, text: str) -> list:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return check_paths([path])


def test_two_packages_print_one_name_and_each_keeps_its_wording() -> None:
    library = load_library()
    both = library.skills.find("離間")
    assert sorted(s.package for s in both) == ["hegemony", "standard"]
    assert {s.key for s in both} == {"standard.離間", "hegemony.離間"}
    assert library.skills["standard.離間"] is not library.skills["hegemony.離間"]
    assert "不能被【無懈可擊】響應" in library.skills["standard.lijian"].text  # by id with its package
    assert "不能被" not in library.skills["hegemony.離間"].text
    # each edition's hero or general holds its own package's wording
    assert library.heroes["貂蟬"].skills[0] is library.skills["standard.離間"]
    assert library.generals["貂蟬"].skills[0] is library.skills["hegemony.離間"]
    # a name only one package prints keeps its bare key
    assert library.skills["閉月"].key == "閉月"


def test_a_name_two_packages_print_is_ambiguous_elsewhere(tmp_path: Path) -> None:
    found = _check(tmp_path, "mine.sgs", 'hero 試將 shijiang { kingdom 群; gender female; hp 3; skills 離間; }\n')
    assert len(found) == 1, [d.render() for d in found]
    d = found[0]
    assert "'離間' names 2 definitions: hegemony.離間, standard.離間" in d.message
    assert "hegemony.離間" in d.hint and (d.span.line, d.span.column) == (1, 59)
    assert "^" in d.render()


def test_a_qualified_name_picks_one_in_a_hero_and_in_text(tmp_path: Path) -> None:
    text = ('hero 試將 shijiang { kingdom 群; gender female; hp 3; skills standard.離間, 試授; }\n'
            'skill 試授 shishou "測試" {\n'
            '  active once { grant_skill(you, hegemony.離間); grant_skill(you, "standard.biyue"); }\n'
            '}\n')
    path = tmp_path / "mine.sgs"
    path.write_text(text, encoding="utf-8")
    assert check_paths([path]) == []
    library = build([*library_files(), path])
    assert library.heroes["試將"].skills[0] is library.skills["standard.離間"]
    found = _check(tmp_path, "other.sgs", 'skill 試予 shiyu "測試" {\n  active once { grant_skill(you, 離間); }\n}\n')
    assert len(found) == 1 and "names 2 definitions" in found[0].message and found[0].span.line == 2


def test_a_bare_name_is_read_in_its_own_package_first(tmp_path: Path) -> None:
    """A package that defines its own 離間 means it by the bare name: no ambiguity there."""
    text = MINE.replace("試間 shijian", "離間 lijian") + 'hero 試將 shijiang { kingdom 群; gender female; hp 3; skills 離間; }\n'
    path = tmp_path / "remake.sgs"
    path.write_text(text, encoding="utf-8")
    assert check_paths([path]) == []
    library = build([*library_files(), path])
    assert library.heroes["試將"].skills[0] is library.skills["remake.離間"]
    assert len(library.skills.find("離間")) == 3


def test_one_name_twice_in_one_package_is_still_a_duplicate(tmp_path: Path) -> None:
    found = _check(tmp_path, "mine.sgs", MINE + MINE.replace("shijian", "shijian2"))
    assert "duplicate skill '試間' in the package 'mine'" in found[0].message
    assert "another package" in found[0].hint


def test_explain_and_rulings_take_qualified_names(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["explain", "hegemony.離間"])
    assert out.exit_code == 0 and out.output.count("技能 離間") == 1 and "package: hegemony" in out.output
    both = CliRunner().invoke(main, ["explain", "離間"])
    assert both.output.count("技能 離間") == 2
    ruling = tmp_path / "amb.ruling"
    ruling.write_text('ruling "歧義" {\n  source "test";\n  ruleset remake_rules;\n'
                      '  seat 1 lord hero 曹操;\n  seat 2 rebel hero 劉備;\n  turn 1;\n'
                      '  expect { not fired 離間; }\n}\n', encoding="utf-8")
    remake = tmp_path / "remake.sgs"
    remake.write_text(MINE.replace("試間 shijian", "離間 lijian")
                      + 'hero 試將 shijiang { kingdom 群; gender female; hp 3; skills 離間; }\n'
                      + 'ruleset remake_rules { mode identity; decks standard, ex; heroes standard, remake; }\n',
                      encoding="utf-8")
    result = CliRunner().invoke(main, ["ruling", "-L", str(remake), str(ruling)])
    assert result.exit_code != 0
    assert "'離間' names 2 definitions: remake.離間, standard.離間" in result.output
    assert "amb.ruling:7:" in result.output


REMAKE = ('skill 離間 lijian "測試：重製的離間" {\n  active once { draw(you, 2); }\n}\n'
          'hero 貂蟬 diaochan { kingdom 群; gender female; hp 4; skills 離間, 閉月; }\n'
          'ruleset remake_rules { mode identity; decks standard, ex; heroes standard, remake; }\n')


def test_a_hero_remade_in_another_package_keeps_its_printed_name(tmp_path: Path) -> None:
    path = tmp_path / "remake.sgs"
    path.write_text(REMAKE, encoding="utf-8")
    assert check_paths([path]) == []
    library = build([*library_files(), path])
    remade, printed = library.heroes["remake.貂蟬"], library.heroes["standard.貂蟬"]
    assert (remade.key, printed.key) == ("remake.貂蟬", "standard.貂蟬") and remade.name == printed.name == "貂蟬"
    assert remade.skills[0] is library.skills["remake.離間"]  # its own package's 離間 first
    assert remade.skills[1] is library.skills["閉月"]
    duplicate = _check(tmp_path, "twice.sgs", REMAKE.replace("ruleset remake_rules", "ruleset other_rules")
                       + 'hero 貂蟬 diaochan2 { kingdom 群; gender female; hp 3; skills 閉月; }\n')
    assert any("duplicate hero '貂蟬' in the package 'twice'" in d.message for d in duplicate)


def test_placing_a_hero_two_packages_print_needs_its_package(tmp_path: Path) -> None:
    path = tmp_path / "remake.sgs"
    path.write_text(REMAKE, encoding="utf-8")
    run = ["simulate", "-L", str(path), "-r", "remake_rules", "-p", "5", "-g", "2", "--seed", "3"]
    ambiguous = CliRunner().invoke(main, [*run, "--hero", "1=貂蟬"])
    assert ambiguous.exit_code == 2, ambiguous.output
    assert "names 2 definitions: remake.貂蟬, standard.貂蟬" in ambiguous.output and "Traceback" not in ambiguous.output
    placed = CliRunner().invoke(main, [*run, "--hero", "1=remake.貂蟬", "--skill-stats"])
    assert placed.exit_code == 0, placed.output
    assert "remake.離間" in placed.output and "standard.離間" in placed.output  # the pool holds both: by key


def test_a_ruling_seats_a_remade_hero_by_its_qualified_name(tmp_path: Path) -> None:
    remake = tmp_path / "remake.sgs"
    remake.write_text(REMAKE, encoding="utf-8")
    ruling = tmp_path / "remake.ruling"
    ruling.write_text('ruling "重製的離間" {\n  source "test";\n  ruleset remake_rules;\n'
                      '  seat 1 lord hero remake.貂蟬;\n  seat 2 rebel;\n  deck [閃 ♦2, 閃 ♦3];\n'
                      '  phase 1 play;\n  script { 1 invokes remake.離間; 1 ends; }\n'
                      '  expect { seat 1 hand [閃 ♦2, 閃 ♦3]; fired remake.離間 1; }\n}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["ruling", "-L", str(remake), str(ruling)])
    assert result.exit_code == 0, result.output
    assert "1號位貂蟬發動【離間】" in result.output  # the log shows the printed names
    bare = ruling.read_text(encoding="utf-8").replace("hero remake.貂蟬", "hero 貂蟬")
    ruling.write_text(bare, encoding="utf-8")
    result = CliRunner().invoke(main, ["ruling", "-L", str(remake), str(ruling)])
    assert result.exit_code != 0 and "'貂蟬' names 2 definitions: remake.貂蟬, standard.貂蟬" in result.output
