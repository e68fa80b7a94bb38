"""`sgs lsp`: a language server over stdio for .sgs and .ruling files (pygls, lsprotocol).

Everything it says comes from the real front end and checker: a .sgs file is checked as
`sgs check` checks it, with the built-in library and the other .sgs files of its folder (and
the `library` paths of the settings), its unsaved text read from the editor
(`library.check_texts`); a .ruling file is read by the ruling parser. Parsed modules are kept
in memory by text, so a change re-parses only the file that changed."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..compiler import schema
from ..compiler.library import Library, check_texts, load_library
from ..resources import library_files
from ..syntax import ast
from ..syntax.cache import parse_cached
from ..syntax.diagnostics import Diagnostic, SgsError, Span
from ..syntax.source import clean_text, decode_source, read_bytes, source_lines
from . import knowledge, semantic
from .symbols import Index, Symbol, index_module, word_at

log = logging.getLogger(__name__)

SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
            "note": lsp.DiagnosticSeverity.Information}
COMPLETION_KIND = {"window": lsp.CompletionItemKind.Event, "function": lsp.CompletionItemKind.Function,
                   "effect": lsp.CompletionItemKind.Method, "field": lsp.CompletionItemKind.Field,
                   "card": lsp.CompletionItemKind.Class, "skill": lsp.CompletionItemKind.Interface,
                   "hero": lsp.CompletionItemKind.Struct, "zone": lsp.CompletionItemKind.EnumMember,
                   "phase": lsp.CompletionItemKind.EnumMember, "tag": lsp.CompletionItemKind.Constant,
                   "keyword": lsp.CompletionItemKind.Keyword}
SYMBOL_KIND = {"skill": lsp.SymbolKind.Function, "card": lsp.SymbolKind.Class, "hero": lsp.SymbolKind.Struct,
               "general": lsp.SymbolKind.Struct, "procedure": lsp.SymbolKind.Method, "deck": lsp.SymbolKind.Array,
               "ruleset": lsp.SymbolKind.Module, "pile": lsp.SymbolKind.Array, "mark": lsp.SymbolKind.Key,
               "state": lsp.SymbolKind.Variable}
ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MAX_WORKSPACE_FILES = 2000  # .sgs files indexed under the workspace folders for references and rename


class SgsServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("sgs-dsl", __version__)
        self.parsed: dict[str, tuple[str, ast.Module | SgsError]] = {}  # path -> its text and its tree
        self.index = Index()
        self._indexed: dict[str, ast.Module] = {}
        self.libraries: dict[str, Library] = {}  # folder -> the last library its files built
        self.extra: list[Path] = []  # the `library` setting: more .sgs files or folders
        self.workspace_scanned = False
        self.chunks = Chunks()

    # ------------------------------------------------------------------ reading text

    def parse(self, text: str, path: str) -> ast.Module:
        """`parse_cached`, remembered by text: an unchanged file is not read again, and a
        changed one is parsed again only in the definitions that changed (`chunks`)."""
        known = self.parsed.get(path)
        if known is None or known[0] != text:
            try:
                module = self.chunks.parse(text, path) if known is not None else None
                known = (text, module or parse_cached(text, path))
            except SgsError as error:
                known = (text, error)
            self.parsed[path] = known
        if isinstance(known[1], SgsError):
            raise known[1]
        return known[1]

    def module(self, path: str) -> ast.Module | None:
        """The last tree of a file that parsed (none if it never did)."""
        return self._indexed.get(path)

    def open_texts(self) -> dict[str, str]:
        out = {}
        for uri, doc in self.workspace.text_documents.items():
            path = _path(uri)
            if path:
                out[path] = doc.source
        return out

    def reindex(self) -> None:
        """Index the trees parsed since the last time (when an answer needs the index, not on
        every keystroke)."""
        for path, (_, module) in list(self.parsed.items()):
            if isinstance(module, ast.Module) and self._indexed.get(path) is not module:
                self._indexed[path] = module
                self.index.modules[path] = index_module(module)

    def read_file(self, path: str) -> None:
        """Parse a file from disk (or its open text) into the index."""
        text = self.open_texts().get(path)
        try:
            if text is None:
                text = decode_source(read_bytes(Path(path)), path)
            self.parse(text, path)
        except (SgsError, OSError):
            pass

    def scan_workspace(self) -> None:
        """Index every .sgs file under the workspace folders (once), for references and rename."""
        if self.workspace_scanned:
            return
        self.workspace_scanned = True
        roots = [_path(f.uri) for f in self.workspace.folders.values()]
        if self.workspace.root_path:
            roots.append(self.workspace.root_path)
        count = 0
        for root in dict.fromkeys(r for r in roots if r):
            for folder, dirs, files in os.walk(root):
                dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__")]
                for f in files:
                    if f.endswith(".sgs") and count < MAX_WORKSPACE_FILES:
                        count += 1
                        self.read_file(os.path.join(folder, f))
        for f in library_files():
            self.read_file(str(f))
        self.reindex()

    def editable(self) -> Callable[[str], bool]:
        """Whether a file may be edited by a rename: open, or under a workspace folder."""
        roots = [_path(f.uri) for f in self.workspace.folders.values()]
        if self.workspace.root_path:
            roots.append(os.path.abspath(self.workspace.root_path))
        opened = set(self.open_texts())

        def inside(path: str) -> bool:
            return path in opened or any(r and (path + os.sep).startswith(r.rstrip(os.sep) + os.sep) for r in roots)
        return inside

    # ------------------------------------------------------------------ checking

    def project(self, path: str) -> list[Path]:
        """The files a .sgs file is checked with: the other .sgs files of its folder, and the setting's."""
        folder = Path(path).parent
        siblings = [f for f in sorted(folder.glob("*.sgs")) if f.is_file() and str(f) != path]
        return siblings + [p for p in self.extra if p.exists()]

    def check(self, path: str) -> dict[str, list[Diagnostic]]:
        """The problems of a file, and of every other open file it was checked with, by path."""
        opened = self.open_texts()
        if path.endswith(".ruling"):
            return {path: self.check_ruling(path, opened.get(path, ""))}
        paths = self.project(path)
        members = {str(p) for p in paths} | {path}
        overrides = {Path(p): text for p, text in opened.items() if p in members}
        diagnostics, library = check_texts(paths, overrides, self.parse)
        if library is not None:
            self.libraries[str(Path(path).parent)] = library
        found: dict[str, list[Diagnostic]] = {p: [] for p in opened if p in members}
        for d in diagnostics:
            if d.span.file in found:
                found[d.span.file].append(d)
        return found

    def check_ruling(self, path: str, text: str) -> list[Diagnostic]:
        from ..rulings.parser import parse_rulings

        try:
            library = load_library(self.extra + _rulings_library(Path(path)))
        except SgsError as error:  # the library the rulings are read against is itself wrong
            return [Diagnostic(Span(path, 1, 1), "the library for this file's rulings does not load: "
                               + error.diagnostics[0].render().splitlines()[0],
                               "fix the .sgs file named there (the `library` setting, or "
                               "sgs_rulings_library in pyproject.toml)")]
        try:
            parse_rulings(text, path, library)
        except SgsError as error:
            return error.diagnostics
        return []

    def library_for(self, path: str) -> Library:
        """The last library a file's folder built, or the built-in one."""
        return self.libraries.get(str(Path(path).parent)) or load_library(self.extra)

    def publish(self, path: str) -> None:
        try:
            found = self.check(path)
        except Exception:  # a bug in the checker must not stop the server
            log.exception("checking %s", path)
            return
        for p, diagnostics in found.items():
            lines = self.open_texts().get(p, "").splitlines()
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                uri=from_fs_path(p) or p, diagnostics=[_diagnostic(d, lines) for d in diagnostics]))


class Chunks:
    """Parse a file definition by definition, each remembered by its text and first line, so
    that an edit re-parses only the definition it is in (and those below, if it added or
    removed lines). A definition starts at a line that starts with its keyword (`skill `...);
    the file parsed so is the same tree as parsed whole, since the grammar is a sequence of
    definitions. A text that does not cut cleanly gives None: it is parsed whole, and its
    syntax errors are those of the whole file."""

    START = re.compile(r"(card|skill|hero|general|deck|ruleset|procedure|define)\s")
    MAX = 20000  # definitions remembered

    def __init__(self) -> None:
        self.known: dict[tuple[str, int, str], tuple[ast.Definition, ...]] = {}

    def parse(self, text: str, path: str) -> ast.Module | None:
        from ..syntax.parser import parse

        text = clean_text(text)
        lines = source_lines(text)
        starts = [i for i, line in enumerate(lines) if self.START.match(line)]
        if not starts or len(self.known) > self.MAX:
            self.known.clear()
        definitions: list[ast.Definition] = []
        bounds = [0, *starts[1:], len(lines)] if starts else [0, len(lines)]
        for begin, end in zip(bounds, bounds[1:], strict=False):
            chunk = "\n".join(lines[begin:end])
            key = (path, begin, chunk)
            found = self.known.get(key)
            if found is None:
                try:  # padded with empty lines: its spans are those of the whole file
                    found = parse("\n" * begin + chunk + "\n", path).definitions
                except SgsError:
                    return None
                self.known[key] = found
            definitions.extend(found)
        return ast.Module(path=path, definitions=tuple(definitions), lines=lines)


def _rulings_library(ruling: Path) -> list[Path]:
    """The `.sgs` files a ruling file is read with: `sgs_rulings_library` of the nearest
    pyproject.toml above it (as pytest reads them)."""
    for folder in ruling.resolve().parents:
        config = folder / "pyproject.toml"
        if config.is_file():
            try:
                import tomllib
            except ImportError:  # Python 3.10: no reader of TOML in the standard library
                return []
            try:
                data = tomllib.loads(config.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return []
            listed = data.get("tool", {}).get("pytest", {}).get("ini_options", {}).get("sgs_rulings_library", [])
            return [folder / p for p in listed if (folder / p).exists()]
    return []


def _path(uri: str) -> str:
    path = to_fs_path(uri)
    return os.path.abspath(path) if path else ""


def _range(span: Span, lines: list[str]) -> lsp.Range:
    if span.line <= 0:
        return lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
    line, start = span.line - 1, max(span.column - 1, 0)
    end = span.end_column - 1 if span.end_column > span.column else 0
    if end <= start:  # no end known: the word there, or one character
        text = lines[line] if line < len(lines) else ""
        _, _, word_end = word_at(text, start)
        end = word_end if word_end > start else start + 1
    return lsp.Range(lsp.Position(line, start), lsp.Position(line, end))


def _diagnostic(d: Diagnostic, lines: list[str]) -> lsp.Diagnostic:
    return lsp.Diagnostic(range=_range(d.span, lines), message=d.message + (f"\nhint: {d.hint}" if d.hint else ""),
                          severity=SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Error), source="sgs")


def _location(span: Span) -> lsp.Location:
    return lsp.Location(uri=from_fs_path(span.file) or span.file, range=_range(span, []))


server = SgsServer()


@server.feature(lsp.INITIALIZE)
def initialize(ls: SgsServer, params: lsp.InitializeParams) -> None:
    _settings(ls, params.initialization_options)


@server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
def did_change_configuration(ls: SgsServer, params: lsp.DidChangeConfigurationParams) -> None:
    _settings(ls, params.settings)
    for uri in list(ls.workspace.text_documents):
        ls.publish(_path(uri))


def _settings(ls: SgsServer, options: Any) -> None:
    """`{"sgs": {"library": [paths]}}` or `{"library": [paths]}`: more .sgs files or folders."""
    if not isinstance(options, dict):
        return
    options = options.get("sgs", options)
    paths = options.get("library") if isinstance(options, dict) else None
    if isinstance(paths, list):
        ls.extra = [Path(os.path.abspath(os.path.expanduser(str(p)))) for p in paths]


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: SgsServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.publish(_path(params.text_document.uri))


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: SgsServer, params: lsp.DidChangeTextDocumentParams) -> None:
    ls.publish(_path(params.text_document.uri))


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: SgsServer, params: lsp.DidSaveTextDocumentParams) -> None:
    ls.publish(_path(params.text_document.uri))


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: SgsServer, params: lsp.DidCloseTextDocumentParams) -> None:
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


# ---------------------------------------------------------------------- hover


def _line(ls: SgsServer, uri: str, line: int) -> str:
    lines = ls.workspace.get_text_document(uri).lines
    return lines[line].rstrip("\r\n") if line < len(lines) else ""


def _chain(text: str, start: int) -> list[str]:
    """The names joined by dots that end at a word starting at `start`: `damage.source.hp`."""
    chain: list[str] = []
    i = start
    while i > 0 and text[i - 1] == ".":
        m = re.search(r"(\w+)$", text[:i - 1])
        if not m:
            break
        chain.insert(0, m.group(1))
        i = m.start()
    return chain


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: SgsServer, params: lsp.HoverParams) -> lsp.Hover | None:
    uri, pos = params.text_document.uri, params.position
    text = _line(ls, uri, pos.line)
    word, start, end = word_at(text, pos.character)
    if not word:
        return None
    path = _path(uri)
    chain = _chain(text, start)
    value = ""
    if chain:
        value = knowledge.field_hover(chain + [word])
    elif end < len(text) and text[end:].lstrip().startswith("(") and word in schema.BUILTINS:
        value = knowledge.builtin_hover(schema.BUILTINS[word])
    if not value and knowledge.window(word) is not None and re.search(r"\bon\s+(?:\w+\s*,\s*)*$", text[:start]):
        value = knowledge.window_hover(knowledge.window(word))  # type: ignore[arg-type]
    if not value:
        value = knowledge.explain_hover(ls.library_for(path), word)
    if not value:
        ls.reindex()
        value = _symbol_hover(ls.index.find(word, path, pos.line + 1))
    if not value and knowledge.window(word) is not None:
        value = knowledge.window_hover(knowledge.window(word))  # type: ignore[arg-type]
    if not value and word in schema.BUILTINS:
        value = knowledge.builtin_hover(schema.BUILTINS[word])
    if not value:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=value),
                     range=lsp.Range(lsp.Position(pos.line, start), lsp.Position(pos.line, end)))


def _symbol_hover(symbols: list[Symbol]) -> str:
    return "\n\n".join(f"{s.kind} `{s.name}`" + (f" ({s.id})" if s.id else "")
                       + (f" of {s.owner}" if s.owner else "") + f", at {Path(s.span.file).name}:{s.span.line}"
                       for s in symbols)


# ---------------------------------------------------------------------- completion


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
def completion(ls: SgsServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    uri, pos = params.text_document.uri, params.position
    before = _line(ls, uri, pos.line)[:pos.character]
    path = _path(uri)
    m = re.search(r"(\w*)$", before)
    start = m.start() if m else pos.character
    items: list[knowledge.Item]
    if start > 0 and before[start - 1] == ".":
        items = knowledge.field_items(_chain(before, start))
    elif re.search(r"\bon\s+(?:\w+\s*,\s*)*\w*$", before) and not path.endswith(".ruling"):
        items = knowledge.window_items()
    else:
        library = ls.library_for(path)
        if path.endswith(".ruling"):
            items = knowledge.ruling_items() + knowledge.name_items(library)
        else:
            items = (knowledge.builtin_items() + knowledge.word_items() + knowledge.window_items()
                     + knowledge.name_items(library))
    unique = {}
    for i in items:  # `draw` the effect before `draw` the phase
        unique.setdefault(i.label, i)
    return lsp.CompletionList(is_incomplete=False, items=[
        lsp.CompletionItem(label=i.label, kind=COMPLETION_KIND.get(i.kind), detail=i.detail,
                           documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=i.doc) if i.doc else None)
        for i in unique.values()])


# ---------------------------------------------------------------------- definitions and references


def _symbols_at(ls: SgsServer, uri: str, pos: lsp.Position) -> tuple[list[Symbol], str]:
    word, _, _ = word_at(_line(ls, uri, pos.line), pos.character)
    if not word:
        return [], ""
    ls.reindex()
    return ls.index.find(word, _path(uri), pos.line + 1), word


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: SgsServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
    """`sgs fmt` on the document as it is in the editor: one edit replacing the whole text; a
    text that does not parse is left as it is (its diagnostics say why)."""
    from ..syntax.diagnostics import SgsError
    from . import fmt

    document = ls.workspace.get_text_document(params.text_document.uri)
    try:
        formatted = fmt.format_text(document.source, _path(params.text_document.uri))
    except SgsError:
        return None
    if formatted == document.source:
        return []
    end = lsp.Position(line=len(document.lines), character=0)
    return [lsp.TextEdit(range=lsp.Range(start=lsp.Position(line=0, character=0), end=end), new_text=formatted)]


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: SgsServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
    symbols, _ = _symbols_at(ls, params.text_document.uri, params.position)
    return [_location(s.span) for s in symbols]


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
def references(ls: SgsServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
    ls.scan_workspace()
    symbols, _ = _symbols_at(ls, params.text_document.uri, params.position)
    refs = ls.index.references(symbols)
    if not params.context.include_declaration:
        names = {(s.span.file, s.span.line, s.span.column) for s in symbols}
        refs = [r for r in refs if (r.span.file, r.span.line, r.span.column) not in names]
    return [_location(r.span) for r in refs]


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbols(ls: SgsServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    path = _path(params.text_document.uri)
    ls.reindex()
    found = ls.index.modules.get(path)
    if found is None:
        return []
    lines = ls.workspace.get_text_document(params.text_document.uri).lines
    out: list[lsp.DocumentSymbol] = []
    for s in found.symbols:
        last = max(s.end - 1, 0)
        whole = lsp.Range(lsp.Position(s.start - 1, 0),
                          lsp.Position(last, len(lines[last].rstrip("\r\n")) if last < len(lines) else 0))
        item = lsp.DocumentSymbol(name=s.name, kind=SYMBOL_KIND[s.kind], range=whole,
                                  selection_range=_range(s.span, []), detail=s.id or s.kind, children=[])
        parent = next((p for p in reversed(out) if s.owner and p.name == s.owner), None)
        if parent is not None and parent.children is not None:
            parent.children.append(item)
        else:
            out.append(item)
    return out


def _skill_at(ls: SgsServer, uri: str, pos: lsp.Position) -> Symbol | None:
    symbols, _ = _symbols_at(ls, uri, pos)
    return next((s for s in symbols if s.kind == "skill"), None)


@server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
def prepare_rename(ls: SgsServer, params: lsp.PrepareRenameParams) -> lsp.PrepareRenamePlaceholder | None:
    skill = _skill_at(ls, params.text_document.uri, params.position)
    if skill is None:
        return None
    _, start, end = word_at(_line(ls, params.text_document.uri, params.position.line), params.position.character)
    return lsp.PrepareRenamePlaceholder(range=lsp.Range(lsp.Position(params.position.line, start),
                                                        lsp.Position(params.position.line, end)),
                                        placeholder=skill.id)


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
def rename(ls: SgsServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    """A skill's id (its pinyin name), where it is defined and wherever text writes it."""
    ls.scan_workspace()
    skill = _skill_at(ls, params.text_document.uri, params.position)
    if skill is None or not skill.id:
        return None
    if not ID.fullmatch(params.new_name):
        raise ValueError(f"'{params.new_name}' is not a skill id: letters, digits and _, not starting with a digit")
    editable = ls.editable()
    if not editable(skill.span.file):
        raise ValueError(f"the skill '{skill.name}' is defined outside the workspace ({skill.span.file}): "
                         "open its folder to rename it")
    old = skill.id.lower()
    changes: dict[str, list[lsp.TextEdit]] = {}
    for r in ls.index.references([skill]):
        if r.text.lower() == old and editable(r.span.file):
            changes.setdefault(from_fs_path(r.span.file) or r.span.file, []).append(
                lsp.TextEdit(range=_range(r.span, []), new_text=params.new_name))
    return lsp.WorkspaceEdit(changes=changes)


# ---------------------------------------------------------------------- semantic tokens


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
                lsp.SemanticTokensLegend(token_types=list(semantic.TOKEN_TYPES), token_modifiers=[]))
def semantic_tokens(ls: SgsServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens:
    uri = params.text_document.uri
    path = _path(uri)
    names = _names(ls, path)
    grammar = "ruling.lark" if path.endswith(".ruling") else "sgs.lark"
    return lsp.SemanticTokens(data=semantic.encode(ls.workspace.get_text_document(uri).source, grammar, names))


def _names(ls: SgsServer, path: str) -> dict[str, str]:
    """The token type of each defined name (normalized): cards, skills, heroes, procedures."""
    ls.reindex()
    out: dict[str, str] = {}
    for s in ls.index.symbols():
        kind = semantic.SYMBOL_TOKEN.get(s.kind)
        if kind:
            for key in s.keys:
                out.setdefault(key, kind)
    return out


def start() -> None:
    """Serve over stdin and stdout until the client says exit."""
    server.start_io()

