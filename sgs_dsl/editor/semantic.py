"""Semantic tokens: the text cut by the grammar's own terminals (COMMENT, STRING, FACE, INT,
NAME of grammar/sgs.lark or ruling.lark), each name told apart by what it is: a keyword of the
grammar, a defined card, skill, hero or procedure, an effect or function, a window."""

from __future__ import annotations

import functools
import re

from ..compiler import schema
from ..core.windows import WINDOWS
from ..syntax.names import normalize
from . import knowledge

TOKEN_TYPES = ("keyword", "class", "function", "method", "string", "number", "comment", "event", "variable",
               "type", "enumMember")
#: the token type of a defined name, by the kind of its symbol (symbols.Symbol.kind)
SYMBOL_TOKEN = {"card": "class", "skill": "function", "hero": "type", "general": "type", "procedure": "method"}
_ORDER = ("COMMENT", "STRING", "FACE", "NAME", "INT")


@functools.lru_cache(maxsize=2)
def _scanner(grammar: str) -> re.Pattern[str]:
    from ..syntax.parser import parser

    patterns = {t.name: t.pattern.to_regexp() for t in parser(grammar).terminals}
    return re.compile("|".join(f"(?P<{name}>{patterns[name]})" for name in _ORDER if name in patterns))


@functools.lru_cache(maxsize=1)
def _words() -> dict[str, str]:
    out = {w.id: "event" for w in WINDOWS} | {normalize(w.zh): "event" for w in WINDOWS}
    out |= {name: "function" for name in schema.BUILTINS}
    return out


def tokens(text: str, grammar: str, names: dict[str, str]) -> list[tuple[int, int, int, str]]:
    """(line, start, length, type) of each token worth colouring, in order (0-based)."""
    keywords = set(knowledge.keywords(grammar))
    words = _words()
    out = []
    for number, line in enumerate(text.splitlines()):
        for m in _scanner(grammar).finditer(line):
            kind = m.lastgroup
            if kind == "COMMENT":
                token = "comment"
            elif kind == "STRING":
                token = "string"
            elif kind in ("INT", "FACE"):
                token = "number"
            else:
                word = m.group()
                if word in keywords:
                    token = "keyword"
                else:
                    token = names.get(normalize(word)) or words.get(word) or words.get(normalize(word)) or ""
            if token:
                out.append((number, m.start(), m.end() - m.start(), token))
    return out


def encode(text: str, grammar: str, names: dict[str, str]) -> list[int]:
    """The tokens in the LSP's relative encoding (5 integers each)."""
    data: list[int] = []
    last_line = last_start = 0
    for line, start, length, token in tokens(text, grammar, names):
        delta_start = start - last_start if line == last_line else start
        data += [line - last_line, delta_start, length, TOKEN_TYPES.index(token), 0]
        last_line, last_start = line, start
    return data
