"""TextMate grammars for .sgs and .ruling text, generated from the lark grammars' terminals and
the closed vocabularies the checker knows (windows, effects and functions, zones, phases, tags).

    python -m sgs_dsl.editor.textmate --write [FOLDER]   # default: editors/vscode/syntaxes

writes `sgs.tmLanguage.json` and `sgs-ruling.tmLanguage.json`; `--check` exits 1 when the files
there differ from what would be written (tests/test_editor_packages.py does the same).
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import lark

from ..compiler import schema
from ..compiler.attach_check import ATTACH_FLAGS
from ..compiler.library import GENERAL_PROPS, HERO_PROPS, RULESET_PROPS
from ..compiler.misreads import SKILL_TAGS
from ..core.model import PHASES
from ..core.windows import WINDOWS
from ..resources import data_dir
from ..rulings.parser import GENDER_WORDS, KINGDOM_WORDS, NATURES, ROLES, SHOWN, WINNERS

#: The flags of a trigger (`on damaged optional ...`), as compiler.Compiler.trigger reads them.
TRIGGER_FLAGS = ("optional", "forced", "each_point", "each_card")
#: Keywords of the grammars by their part (the rest are `keyword.other`).
CONTROL = frozenset({"if", "else", "then", "for", "in", "repeat", "loop", "break", "stop", "when", "where", "until"})
WORD_OPERATORS = frozenset({"and", "or", "not", "is"})
#: The variables the language binds (the skill's owner, a card's user and target, `it` of a filter).
VARIABLES = ("you", "it", "player", "others", "none", "true", "false", "unlimited",
             *schema.CARD_BLOCK_VARS, *(v for payload in schema.PAYLOAD_VARS.values() for v in payload))
FILES = {"sgs": "sgs.tmLanguage.json", "ruling": "sgs-ruling.tmLanguage.json"}
DEFAULT_FOLDER = Path("editors") / "vscode" / "syntaxes"


@functools.lru_cache(maxsize=2)
def _terminals(grammar_file: str) -> tuple[Any, ...]:
    grammar = (data_dir("grammar") / grammar_file).read_text(encoding="utf-8")
    return tuple(lark.Lark(grammar, parser="lalr").terminals)


def _pattern(grammar_file: str, name: str) -> str:
    """A terminal's regular expression, as TextMate's Oniguruma reads it."""
    for t in _terminals(grammar_file):
        if t.name == name:
            return str(t.pattern.to_regexp()).replace("\n", "\\n")
    raise KeyError(name)


def _keywords(grammar_file: str) -> list[str]:
    """The words the grammar spells out ("card", "on", "uses", ...)."""
    return sorted({str(t.pattern.value) for t in _terminals(grammar_file)
                   if t.pattern.type == "str" and re.fullmatch(r"[a-z_]+", str(t.pattern.value))})


def _definition_keywords(grammar_file: str) -> list[str]:
    """The first word of each definition rule (`card_def: "card" ...`)."""
    text = (data_dir("grammar") / grammar_file).read_text(encoding="utf-8")
    return sorted(set(re.findall(r'^(?:\w+_def|ruling):\s*"(\w+)"', text, re.MULTILINE)))


def _words(words: Iterable[str]) -> str:
    """One alternation of whole words, longest first (wide-character names too)."""
    unique = sorted({w for w in words if w}, key=lambda w: (-len(w), w))
    return r"(?<![\w·])(?:" + "|".join(re.escape(w) for w in unique) + r")(?![\w·])"


def _match(name: str, regex: str) -> dict[str, str]:
    return {"name": name, "match": regex}


def _common(ext: str) -> list[dict[str, Any]]:
    return [
        _match(f"comment.line.number-sign.{ext}", "#.*$"),
        {"name": f"string.quoted.double.{ext}", "begin": '"', "end": '"|$',
         "patterns": [_match(f"constant.other.card-name.{ext}", "【[^】\"]*】")]},
    ]


def sgs_grammar() -> dict[str, Any]:
    g = "sgs.lark"
    keywords = _keywords(g)
    definitions = _definition_keywords(g)
    builtins = schema.BUILTINS.values()
    effects = [b.name for b in builtins if b.returns == "none"]
    functions = [b.name for b in builtins if b.returns != "none"]
    name = _pattern(g, "NAME")
    patterns: list[dict[str, Any]] = [
        *_common("sgs"),
        {"match": rf"({_words(definitions)})\s+({name})",
         "captures": {"1": {"name": "keyword.other.definition.sgs"}, "2": {"name": "entity.name.type.sgs"}}},
        _match("keyword.control.sgs", _words(k for k in keywords if k in CONTROL)),
        _match("keyword.operator.word.sgs", _words(k for k in keywords if k in WORD_OPERATORS)),
        _match("keyword.other.sgs", _words(k for k in keywords if k not in CONTROL | WORD_OPERATORS)),
        _match("support.function.effect.sgs", _words(effects) + r"(?=\s*\()"),
        _match("support.function.builtin.sgs", _words(functions) + r"(?=\s*\()"),
        _match("support.constant.window.sgs", _words([w.id for w in WINDOWS] + [w.zh for w in WINDOWS])),
        _match("storage.modifier.tag.sgs", _words([*SKILL_TAGS, *ATTACH_FLAGS, *TRIGGER_FLAGS])),
        _match("support.constant.zone.sgs", _words([*schema.ZONES, *schema.SLOTS, *schema.MARK_SCOPES])),
        _match("support.constant.phase.sgs", _words(schema.PHASE_NAMES)),
        _match("support.type.card.sgs", _words([*schema.CARD_TYPES, *schema.PATTERN_WORDS, *schema.NATURES,
                                                *schema.COLOR_NAMES, *schema.KINGDOMS])),
        _match("variable.other.property.sgs", _words([*schema.CARD_PROPS, *schema.MODIFIERS, *schema.BLOCKS,
                                                      *schema.USE_CONTEXTS, *HERO_PROPS, *GENERAL_PROPS,
                                                      *RULESET_PROPS])),
        _match("variable.language.sgs", _words(VARIABLES)),
        _match("constant.other.card-face.sgs", _pattern(g, "FACE")),
        _match("constant.other.suit.sgs", _pattern(g, "SUIT")),
        _match("constant.numeric.sgs", r"(?<![\w·])" + _pattern(g, "INT")),
        _match("keyword.operator.sgs", r"==|!=|<=|>=|\+=|-=|[-+*/%<>=|]"),
        _match("punctuation.separator.sgs", "[;,:.]"),
    ]
    return _document("sgs", "source.sgs", ["sgs"], patterns)


def ruling_grammar() -> dict[str, Any]:
    g = "ruling.lark"
    keywords = _keywords(g)
    values = [*ROLES, *PHASES, *NATURES, *WINNERS, *SHOWN, *KINGDOM_WORDS, *GENDER_WORDS,
              *(str(t.pattern.value) for t in _terminals(g) if t.name in ("CAREERIST_ZH",))]
    for t in _terminals(g):  # the closed words of the grammar itself: won lost tied, hand equip judge
        if t.name in ("FIGHT", "ZONE"):
            values.extend(re.findall(r"\w+", str(t.pattern.value)))
    patterns: list[dict[str, Any]] = [
        *_common("sgs-ruling"),
        {"match": r'(?<![\w·])(ruling)\s+("[^"\n]*")',
         "captures": {"1": {"name": "keyword.other.definition.sgs-ruling"},
                      "2": {"name": "entity.name.section.sgs-ruling"}}},
        _match("keyword.control.sgs-ruling", _words(["script", "expect", "setup"])),
        _match("support.constant.sgs-ruling", _words(values)),
        _match("keyword.other.sgs-ruling", _words(keywords)),
        _match("constant.other.card-face.sgs-ruling", _pattern(g, "FACE")),
        _match("constant.numeric.sgs-ruling", r"(?<![\w·])" + _pattern(g, "SIGNED")),
        _match("keyword.operator.sgs-ruling", r"->|/"),
        _match("punctuation.separator.sgs-ruling", "[;,]"),
    ]
    return _document("sgs ruling", "source.sgs-ruling", ["ruling"], patterns)


def _document(name: str, scope: str, types: list[str], patterns: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "comment": "Generated by `python -m sgs_dsl.editor.textmate --write` from grammar/*.lark and the "
                   "checker's vocabularies: do not edit by hand.",
        "name": name,
        "scopeName": scope,
        "fileTypes": types,
        "patterns": patterns,
    }


def rendered() -> dict[str, str]:
    """The text of each grammar file, by file name."""
    grammars = {"sgs": sgs_grammar(), "ruling": ruling_grammar()}
    return {FILES[k]: json.dumps(v, ensure_ascii=False, indent=2) + "\n" for k, v in grammars.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sgs_dsl.editor.textmate", description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="write the grammar files into FOLDER")
    action.add_argument("--check", action="store_true", help="exit 1 when the files in FOLDER are not up to date")
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER,
                        help=f"where the grammar files are (default: {DEFAULT_FOLDER})")
    args = parser.parse_args(argv)
    folder: Path = args.folder
    if not folder.is_dir():
        print(f"error: {folder}: no such folder (run this from the repository's root, or name the folder)",
              file=sys.stderr)
        return 1
    stale = []
    for file_name, text in rendered().items():
        path = folder / file_name
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current == text:
            continue
        stale.append(path)
        if args.write:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if args.check and stale:
        for path in stale:
            print(f"{path}: not up to date: run python -m sgs_dsl.editor.textmate --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
