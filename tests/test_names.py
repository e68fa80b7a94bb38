"""Names in either script and by pinyin id: cards, suits, kingdoms and windows."""

from __future__ import annotations

from sgs_dsl.compiler.library import check_paths

GOOD = """
skill 測試 ceshi "x" {
  on 受到伤害后 when damage.target == you and damage.card is 黑桃 杀|红桃 sha|方塊 {
    draw(you, 1);
  }
}
hero 測試者 ceshizhe { kingdom 吴; gender female; hp 3; skills ceshi; }
hero 測試者二 ceshizhe2 { kingdom qun; gender male; hp 4; skills 測試; }
"""


def test_names_in_both_scripts_and_ids_check_clean(tmp_path):
    path = tmp_path / "names.sgs"
    path.write_text(GOOD, encoding="utf-8")
    assert [d.render() for d in check_paths([path])] == []


def test_unknown_kingdom_is_located_with_hint(tmp_path):
    path = tmp_path / "bad.sgs"
    path.write_text('hero 甲 jia { kingdom 魏國; gender male; hp 4; }\n', encoding="utf-8")
    (diagnostic,) = check_paths([path])
    assert (diagnostic.span.line, diagnostic.span.column) == (1, 22)
    assert "unknown kingdom '魏國'" in diagnostic.message
    assert "魏" in diagnostic.hint
