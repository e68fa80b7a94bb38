"""The editor packages: the TextMate grammars are what the generator writes today, and the VS Code
extension folder declares the two languages with files that exist."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from sgs_dsl.compiler import schema
from sgs_dsl.core.windows import WINDOWS
from sgs_dsl.editor import textmate

ROOT = Path(__file__).resolve().parent.parent
VSCODE = ROOT / "editors" / "vscode"


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_committed_grammars_are_the_generated_ones() -> None:
    for name, text in textmate.rendered().items():
        committed = (VSCODE / "syntaxes" / name).read_text(encoding="utf-8")
        assert committed == text, f"editors/vscode/syntaxes/{name} is stale: run python -m sgs_dsl.editor.textmate --write"


def test_check_and_write_on_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert textmate.main(["--check", str(tmp_path)]) == 1
    assert textmate.main(["--write", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(textmate.FILES.values())
    assert textmate.main(["--check", str(tmp_path)]) == 0
    assert textmate.main(["--write", str(tmp_path / "none")]) == 1
    assert "no such folder" in capsys.readouterr().err


def _scopes(grammar: dict[str, Any]) -> dict[str, re.Pattern[str]]:
    """Each named pattern's regular expression (Python's re reads these as Oniguruma does)."""
    return {p["name"]: re.compile(p["match"]) for p in grammar["patterns"] if "name" in p and "match" in p}


def test_the_sgs_grammar_knows_the_vocabularies() -> None:
    scopes = _scopes(textmate.sgs_grammar())
    windows = scopes["support.constant.window.sgs"]
    for w in WINDOWS:
        assert windows.fullmatch(w.id) and windows.fullmatch(w.zh), w.id
    effect = scopes["support.function.effect.sgs"]
    assert effect.match("draw(you, 1)") and not effect.match("draw_x(you)") and not effect.match("draw")
    function = scopes["support.function.builtin.sgs"]
    assert all(function.match(f"{b.name}(") for b in schema.BUILTINS.values() if b.returns != "none")
    assert scopes["keyword.control.sgs"].search("if x { }") and not scopes["keyword.control.sgs"].search("iffy")
    assert scopes["support.constant.phase.sgs"].fullmatch("出牌")
    assert scopes["storage.modifier.tag.sgs"].fullmatch("locked")
    assert scopes["constant.other.card-face.sgs"].fullmatch("♠10")
    definition = next(p for p in textmate.sgs_grammar()["patterns"] if "captures" in p)
    m = re.match(definition["match"], "skill 無懈可擊·國 wuxie locked {")
    assert m is not None and m.group(2) == "無懈可擊·國"


def test_the_ruling_grammar_knows_its_words() -> None:
    scopes = _scopes(textmate.ruling_grammar())
    assert scopes["keyword.other.sgs-ruling"].fullmatch("invokes")
    assert scopes["support.constant.sgs-ruling"].fullmatch("反賊") and scopes["support.constant.sgs-ruling"].fullmatch("won")
    assert scopes["constant.numeric.sgs-ruling"].fullmatch("-1")


def test_package_json_declares_both_languages_with_files_that_exist() -> None:
    package = load(VSCODE / "package.json")
    assert (VSCODE / package["main"]).is_file()
    languages = {lang["id"]: lang for lang in package["contributes"]["languages"]}
    assert set(languages) == {"sgs", "sgs-ruling"}
    assert languages["sgs"]["extensions"] == [".sgs"] and languages["sgs-ruling"]["extensions"] == [".ruling"]
    for lang in languages.values():
        config = load(VSCODE / lang["configuration"])
        assert config["comments"]["lineComment"] == "#"
        assert ["{", "}"] in config["brackets"] and {"open": "{", "close": "}"} in config["autoClosingPairs"]
    grammars = package["contributes"]["grammars"]
    assert {g["language"] for g in grammars} == set(languages)
    for g in grammars:
        assert load(VSCODE / g["path"])["scopeName"] == g["scopeName"]
    assert {f"onLanguage:{lang}" for lang in languages} <= set(package["activationEvents"])


def test_the_extension_starts_the_language_server_and_formats_with_sgs_fmt() -> None:
    package = load(VSCODE / "package.json")
    properties = package["contributes"]["configuration"]["properties"]
    assert properties["sgs.server.args"]["default"] == ["lsp"] and properties["sgs.command"]["default"] == "sgs"
    assert "vscode-languageclient" in package["dependencies"]
    script = (VSCODE / package["main"]).read_text(encoding="utf-8")
    assert 'require("vscode-languageclient/node")' in script
    assert '["fmt", "-", "--stdin-filename", name]' in script
