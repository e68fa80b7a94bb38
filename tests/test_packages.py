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


def test_two_editions_of_a_card_keep_their_printed_name() -> None:
    """Seed 004's older 樂不思蜀 is package classic's: the same printed name as standard's."""
    library = load_library()
    both = [k for k in library.cards.values() if k.name == "樂不思蜀"]
    assert sorted(k.key for k in both) == ["classic.樂不思蜀", "standard.樂不思蜀"]
    assert library.cards.find("樂不思蜀") == [library.cards["standard.樂不思蜀"]]  # the original
    assert library.cards["樂不思蜀"] is library.cards["standard.樂不思蜀"]
    old, new = library.cards["classic.樂不思蜀"], library.cards["standard.樂不思蜀"]
    assert old.like is new and old.name == new.name == "樂不思蜀"
    assert old.is_a("standard.樂不思蜀") and not new.is_a("classic.樂不思蜀")
    assert library.cards["lebu_sishu_jiu"] is old  # an id only one package uses names one card
    # every deck reads the bare name as the card decks deal, never the older printing
    assert all(k is not old for deck in library.decks.values() for k, _, _ in deck)


# a package with its own edition of 殺, a deck that deals it and a ruleset that plays it
EDITION = ('card 殺 sha basic "測試：重製的殺" {\n  like standard.殺;\n}\n'
           'deck remake "重製牌堆" {\n  殺 ♠A ♠2;\n  閃 ♦2 ♦3;\n  桃 ♥3;\n}\n'
           'ruleset remake_rules "重製" { mode identity; decks remake; heroes standard; }\n')


def test_a_package_s_deck_and_card_are_read_in_it_first(tmp_path: Path) -> None:
    path = tmp_path / "remake.sgs"
    path.write_text(EDITION, encoding="utf-8")
    assert check_paths([path]) == []
    library = build([*library_files(), path])
    assert library.ruleset("remake_rules").decks == ("remake",)
    dealt = {(k.key, k.name) for k, _, _ in library.deck_list("remake_rules")}
    assert dealt == {("remake.殺", "殺"), ("閃", "閃"), ("桃", "桃")}
    # the built-in heroes still mean the built-in 殺: 武聖 makes standard's
    wusheng = next(va for va in library.skills["武聖"].view_as)
    assert wusheng.kind_name == "standard.殺"
    # the printed name in play: a card of the edition shows as 【殺】
    edition = [c for c in library.dealt_cards("remake_rules") if c.kind.package == "remake"]
    assert [c.label() for c in edition] == ["【殺】♠A", "【殺】♠2"]
    # text outside both packages means the original: the edition says it is one (`like`)
    mine = tmp_path / "mine.sgs"
    mine.write_text('skill 試殺 shisha "測試" {\n  view_as 殺 from 1 red in hand;\n}\n', encoding="utf-8")
    assert check_paths([path, mine]) == []
    assert build([*library_files(), path, mine]).skills["試殺"].view_as[0].kind_name == "standard.殺"


def test_a_name_two_unrelated_cards_print_is_ambiguous_where_neither_is_its_own(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.sgs").write_text(
            f'card 試牌 shipai_{name} trick "測試" {{\n  use play: self;\n  effect {{ draw(user, 1); }}\n}}\n'
            f'deck deck_{name} "測試" {{\n  試牌 ♠A;\n}}\n', encoding="utf-8")
    mine = tmp_path / "mine.sgs"
    mine.write_text('skill 試殺 shisha "測試" {\n  view_as 試牌 from 1 red in hand;\n}\n', encoding="utf-8")
    files = [tmp_path / "a.sgs", tmp_path / "b.sgs", mine]
    found = check_paths(files)
    assert len(found) == 1, [d.render() for d in found]
    assert "'試牌' names 2 definitions: a.試牌, b.試牌" in found[0].message
    assert (found[0].span.file, found[0].span.line, found[0].span.column) == (str(mine), 2, 11)
    assert "a.試牌" in found[0].hint
    mine.write_text(mine.read_text(encoding="utf-8").replace("view_as 試牌", "view_as b.試牌")
                    + 'skill 試用 shiyong "測試" {\n  on using when use.card is a.試牌 {\n'
                    + '    use_virtual(you, b.試牌);\n    let named = declare(you, [a.試牌, 殺]);\n  }\n}\n'
                    + 'deck mine "測試" {\n  a.試牌 ♠3;\n}\n', encoding="utf-8")
    assert check_paths(files) == []
    library = build([*library_files(), *files])
    assert library.skills["試殺"].view_as[0].kind_name == "b.試牌"
    assert [k.key for k, _, _ in library.decks["mine"]] == ["a.試牌"]


def test_a_ruleset_reads_a_deck_name_in_its_package_then_its_hero_packages(tmp_path: Path) -> None:
    """Packages a and b both define a deck `mix`: a's ruleset deals a's, a ruleset playing b's
    heroes deals b's, and one of a third package playing neither's heroes must say which."""
    for name in ("a", "b"):
        (tmp_path / f"{name}.sgs").write_text(
            f'deck mix "{name}" {{\n  閃 ♦2;\n}}\n'
            f'hero 試將{name} shijiang_{name} {{ kingdom 群; gender male; hp 4; skills 閉月; }}\n', encoding="utf-8")
    with (tmp_path / "a.sgs").open("a", encoding="utf-8") as a:
        a.write('ruleset a_rules { mode identity; decks mix, standard; heroes standard; }\n')
    (tmp_path / "d.sgs").write_text('ruleset b_rules { mode identity; decks mix, standard; heroes b; }\n', encoding="utf-8")
    other = tmp_path / "c.sgs"
    rules = 'ruleset c_rules {{ mode identity; decks {deck}, standard; heroes standard; }}\n'
    other.write_text(rules.format(deck="mix"), encoding="utf-8")
    files = [tmp_path / "a.sgs", tmp_path / "b.sgs", tmp_path / "d.sgs", other]
    found = check_paths(files)
    assert len(found) == 1, [d.render() for d in found]
    assert "'mix' names 2 definitions: a.mix, b.mix" in found[0].message
    assert (found[0].span.file, found[0].span.line) == (str(other), 1) and "a.mix" in found[0].hint
    other.write_text(rules.format(deck="b.mix"), encoding="utf-8")
    assert check_paths(files) == []
    library = build([*library_files(), *files])
    assert library.ruleset("a_rules").decks[0] == "a.mix"  # its own package's
    assert library.ruleset("b_rules").decks[0] == "b.mix"  # the package it plays heroes from
    assert library.ruleset("c_rules").decks[0] == "b.mix"
