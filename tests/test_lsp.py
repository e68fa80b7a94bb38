"""The language server (`sgs lsp`) over stdio, driven by a real client (pygls's): one server
for the module, a designer's folder of two files, and the answers it gives."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest_asyncio = pytest.importorskip("pytest_asyncio")
from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

from sgs_dsl.compiler.library import check_paths  # noqa: E402
from sgs_dsl.core.windows import WINDOW_BY_ID  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")

SKILL = '''# a designer's file
skill 測試技 ceshiji "當你受到傷害後，你可以摸一張牌。" {
  on damaged optional when damage.target == you {
    let unused = 1;
    draw(you, 1);
  }
}

hero 測試者 ceshizhe { kingdom 魏; gender male; hp 4; skills 測試技, 奸雄; }
'''
OTHER = "hero 測試乙 ceshiyi { kingdom 蜀; gender female; hp 3; skills ceshiji; }\n"
FOLDER: Path | None = None
SERVER: dict[str, lsp.InitializeResult] = {}
WAIT = 120  # seconds for an answer: the first check loads the library


class Client(LanguageClient):
    """A client that keeps the diagnostics published for each file."""

    def __init__(self) -> None:
        super().__init__("sgs-lsp-test", "1")
        self.diagnostics: dict[str, list[lsp.Diagnostic]] = {}
        self.published: asyncio.Queue[str] = asyncio.Queue()

        @self.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: lsp.PublishDiagnosticsParams) -> None:
            self.diagnostics[params.uri] = list(params.diagnostics)
            self.published.put_nowait(params.uri)

    async def diagnostics_of(self, uri: str) -> list[lsp.Diagnostic]:
        while await asyncio.wait_for(self.published.get(), WAIT) != uri:
            pass
        return self.diagnostics[uri]


def _folder() -> Path:
    global FOLDER
    if FOLDER is None:
        import tempfile

        FOLDER = Path(tempfile.mkdtemp(prefix="sgs-lsp-"))
        (FOLDER / "my.sgs").write_text(SKILL, encoding="utf-8")
        (FOLDER / "other.sgs").write_text(OTHER, encoding="utf-8")
    return FOLDER


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client():
    folder = _folder()
    c = Client()
    await c.start_io(sys.executable, "-m", "sgs_dsl.cli", "lsp")
    SERVER["init"] = await c.initialize_async(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(), root_uri=from_fs_path(str(folder)),
        workspace_folders=[lsp.WorkspaceFolder(uri=from_fs_path(str(folder)), name="designs")]))
    c.initialized(lsp.InitializedParams())
    yield c
    await c.shutdown_async(None)
    c.exit(None)
    await c.stop()


def _uri(name: str) -> str:
    return from_fs_path(str(_folder() / name))


async def _open(client: Client, name: str, text: str, version: int = 1) -> list[lsp.Diagnostic]:
    uri = _uri(name)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id="sgs", version=version, text=text)))
    return await client.diagnostics_of(uri)


async def _change(client: Client, name: str, text: str, version: int) -> list[lsp.Diagnostic]:
    uri = _uri(name)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))
    return await client.diagnostics_of(uri)


def _at(text: str, needle: str, offset: int = 0) -> lsp.Position:
    """The position of `needle` (plus `offset` characters) in a text."""
    before = text[:text.index(needle) + offset]
    return lsp.Position(line=before.count("\n"), character=len(before.split("\n")[-1]))


async def test_diagnostics_are_the_checkers(client: Client, tmp_path: Path):
    """A file that loads gets its warnings; an edit that breaks it gets `sgs check`'s error, hint
    and place; fixing it clears them."""
    found = await _open(client, "my.sgs", SKILL)
    assert [(d.severity, d.message.split("\n")[0], d.range.start.line) for d in found] == [
        (lsp.DiagnosticSeverity.Warning, "the variable 'unused' is never read", 3)]
    assert found[0].range.start.character == 8 and found[0].range.end.character == 14
    bad = SKILL.replace("draw(you", "drw(you")
    found = await _change(client, "my.sgs", bad, 2)
    errors = [d for d in found if d.severity == lsp.DiagnosticSeverity.Error]
    path = tmp_path / "my.sgs"  # the same text checked by `sgs check`'s function
    path.write_text(bad, encoding="utf-8")
    (path.parent / "other.sgs").write_text(OTHER, encoding="utf-8")
    expected = [d for d in check_paths([path.parent]) if d.severity == "error"]
    assert [d.message for d in errors] == [f"{e.message}\nhint: {e.hint}" for e in expected]
    assert "unknown effect or function 'drw'" in errors[0].message and "did you mean 'draw'?" in errors[0].message
    assert (errors[0].range.start.line, errors[0].range.start.character, errors[0].range.end.character) == (4, 4, 7)
    assert list(await _change(client, "my.sgs", SKILL.replace("    let unused = 1;\n", ""), 3)) == []
    await _change(client, "my.sgs", SKILL, 4)


async def test_hover(client: Client):
    uri = _uri("my.sgs")
    window = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=_at(SKILL, "damaged", 2)))
    assert window is not None
    text = window.contents.value
    assert WINDOW_BY_ID["damaged"].zh in text and "`damage`: damage" in text and "amount: int" in text
    assert "caused_damage → **damaged** → damage_end" in text
    effect = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=_at(SKILL, "draw(", 1)))
    assert effect is not None and "draw(player: player, n: int) -> none" in effect.contents.value
    skill = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=_at(SKILL, "skills 測試技", 8)))
    assert skill is not None
    assert "當你受到傷害後，你可以摸一張牌。" in skill.contents.value and "damaged" in skill.contents.value
    field = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=_at(SKILL, "target ==", 1)))
    assert field is not None and "field `target` of damage: player" in field.contents.value


async def test_completion(client: Client):
    uri = _uri("my.sgs")

    async def labels(text: str, at: lsp.Position) -> dict[str, lsp.CompletionItem]:
        await _change(client, "my.sgs", text, 10 + at.line + at.character)
        result = await client.text_document_completion_async(lsp.CompletionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=at))
        assert isinstance(result, lsp.CompletionList)
        return {i.label: i for i in result.items}

    fields = await labels(SKILL.replace("damage.target", "damage.source."), _at(SKILL, "damage.target", 7))
    assert {"amount", "source", "nature", "card"} <= set(fields) and "hp" not in fields
    chained = await labels(SKILL.replace("damage.target", "damage.source."), _at(SKILL, "damage.target", 14))
    assert {"hp", "hand", "kingdom"} <= set(chained)
    windows = await labels(SKILL.replace("on damaged", "on da"), _at(SKILL, "on damaged", 5))
    assert {"damaged", "caused_damage", WINDOW_BY_ID["damaged"].zh} <= set(windows) and "draw" not in windows
    body = await labels(SKILL, _at(SKILL, "    draw"))
    assert body["draw"].kind == lsp.CompletionItemKind.Method and "n: int" in (body["draw"].detail or "")
    assert body["count"].kind == lsp.CompletionItemKind.Function
    assert {"hand", "equip", "locked", "jianxiong", "ceshiji", "測試技", "護駕", "护驾"} <= set(body)
    await _change(client, "my.sgs", SKILL, 40)


async def test_definition_and_references(client: Client):
    uri = _uri("my.sgs")
    found = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=_at(SKILL, "skills 測試技", 8)))
    assert isinstance(found, list) and len(found) == 1
    assert found[0].uri == uri and found[0].range.start == _at(SKILL, "測試技")
    builtin = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=_at(SKILL, "奸雄", 1)))
    assert isinstance(builtin, list) and any(loc.uri.endswith("heroes/standard.sgs") for loc in builtin)
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=_at(SKILL, "測試技"),
        context=lsp.ReferenceContext(include_declaration=True)))
    assert refs is not None
    places = sorted((Path(r.uri).name, r.range.start.line, r.range.start.character) for r in refs)
    used = _at(SKILL, "skills 測試技", 7)
    assert places == [("my.sgs", 1, 6), ("my.sgs", 1, 10), ("my.sgs", used.line, used.character),
                      ("other.sgs", 0, OTHER.index("ceshiji"))]


async def test_document_symbols(client: Client):
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        text_document=lsp.TextDocumentIdentifier(uri=_uri("my.sgs"))))
    assert symbols is not None
    assert [(s.name, s.kind, s.range.start.line) for s in symbols] == [  # type: ignore[union-attr]
        ("測試技", lsp.SymbolKind.Function, 1), ("測試者", lsp.SymbolKind.Struct, 8)]


async def test_formatting_is_sgs_fmt(client: Client):
    """Format Document gives `sgs fmt`'s layout as one edit; a formatted text needs none."""
    from sgs_dsl.editor.fmt import format_text

    messy = SKILL.replace("draw(you, 1);", "draw( you,1 ) ;")
    assert messy != SKILL
    await _change(client, "my.sgs", messy, 20)
    params = lsp.DocumentFormattingParams(text_document=lsp.TextDocumentIdentifier(uri=_uri("my.sgs")),
                                          options=lsp.FormattingOptions(tab_size=2, insert_spaces=True))
    edits = await client.text_document_formatting_async(params)
    assert edits is not None and len(edits) == 1 and edits[0].range.start == lsp.Position(line=0, character=0)
    assert edits[0].new_text == format_text(messy, "my.sgs") and "draw(you, 1);" in edits[0].new_text
    await _change(client, "my.sgs", edits[0].new_text, 21)
    again = await client.text_document_formatting_async(params)
    assert again is not None and list(again) == []  # none needed (None: it did not parse)
    await _change(client, "my.sgs", SKILL, 22)


async def test_rename_skill_id(client: Client):
    edit = await client.text_document_rename_async(lsp.RenameParams(
        text_document=lsp.TextDocumentIdentifier(uri=_uri("my.sgs")), position=_at(SKILL, "ceshiji", 2),
        new_name="cheshi"))
    assert edit is not None and edit.changes is not None
    by_file = {Path(uri).name: [(e.range.start.line, e.range.start.character, e.new_text) for e in edits]
               for uri, edits in edit.changes.items()}
    assert by_file == {"my.sgs": [(1, 10, "cheshi")], "other.sgs": [(0, OTHER.index("ceshiji"), "cheshi")]}
    with pytest.raises(Exception, match="outside the workspace"):  # a built-in skill, the library not open
        await client.text_document_rename_async(lsp.RenameParams(
            text_document=lsp.TextDocumentIdentifier(uri=_uri("my.sgs")), position=_at(SKILL, "奸雄", 1),
            new_name="jx"))
    with pytest.raises(Exception, match="is not a skill id"):
        await client.text_document_rename_async(lsp.RenameParams(
            text_document=lsp.TextDocumentIdentifier(uri=_uri("my.sgs")), position=_at(SKILL, "ceshiji", 2),
            new_name="2x"))


async def test_semantic_tokens(client: Client):
    result = await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(
        text_document=lsp.TextDocumentIdentifier(uri=_uri("my.sgs"))))
    assert result is not None
    provider = SERVER["init"].capabilities.semantic_tokens_provider
    assert isinstance(provider, lsp.SemanticTokensOptions)
    types = provider.legend.token_types
    decoded, line, start = [], 0, 0
    data = result.data
    lines = SKILL.split("\n")
    for i in range(0, len(data), 5):
        line += data[i]
        start = data[i + 1] + (start if data[i] == 0 else 0)
        decoded.append((lines[line][start:start + data[i + 2]], types[data[i + 3]]))
    assert decoded[0] == ("# a designer's file", "comment")
    assert ("skill", "keyword") in decoded and ("測試技", "function") in decoded
    assert ("damaged", "event") in decoded and ('"當你受到傷害後，你可以摸一張牌。"', "string") in decoded
    assert ("1", "number") in decoded and ("draw", "function") in decoded


async def test_ruling_diagnostics(client: Client):
    bad = 'ruling "a" {\n  ruleset standard;\n  seat 1 lord hero 無此人;\n}\n'
    found = await _open(client, "r.ruling", bad)
    assert found and found[0].severity == lsp.DiagnosticSeverity.Error and found[0].range.start.line == 2


async def test_a_file_parsed_by_definitions_is_the_file_parsed_whole():
    """What the server parses again on an edit (only the changed definitions) is the tree the
    whole file gives; a text that does not parse is left to the whole parse and its errors."""
    from sgs_dsl.editor.lsp import Chunks
    from sgs_dsl.syntax.parser import parse

    path = str(_folder() / "my.sgs")
    chunks = Chunks()
    text = SKILL + OTHER
    assert chunks.parse(text, path) == parse(text, path)
    edited = text.replace("draw(you, 1)", "draw(you, 2)")
    again = chunks.parse(edited, path)
    assert again == parse(edited, path) and again != parse(text, path)
    assert chunks.parse(text.replace("{ kingdom", "kingdom"), path) is None
