"""The AST as plain data (nested JSON lists) and back, for the on-disk parse cache.

Loading cannot run code: the encoded form is JSON, and it is rebuilt only into the node
classes of `ast`, each field checked against its declared type. Anything else (an unknown
node, a field of the wrong type or count, a string where a number belongs, an integer or a
nesting deeper than the parser itself can produce) is a `CodecError`, and the cache treats
the entry as a miss.

A node is encoded as ``[tag, field, field, ...]`` in the declared field order; a tuple is a
list; a span is ``[line, column, end_column]`` (its file is the module's path, given back on
decoding); ``None`` is ``null``.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable
from typing import Any

import attrs

from . import ast
from .diagnostics import Span

#: Deeper than any AST the parser accepts (the front end's nesting limit is far below);
#: shallow enough that rebuilding stays well inside Python's recursion limit.
MAX_DEPTH = 300
#: Larger than any line or column the parser can give (a span).
MAX_INT = 10**18
#: A number of the tree (a literal, a `view_as` count): what the parser accepts, no more.
MAX_NUMBER = 10**9  # parser.MAX_NUMBER, not imported: a warm start does not import the parser

class CodecError(ValueError):
    """An encoded AST that is not one the parser could have produced."""


# ---------------------------------------------------------------- encoding

def encode(module: ast.Module) -> list[Any]:
    """The definitions of a module as JSON-ready lists (its path and lines are not stored)."""
    return [_encode(d) for d in module.definitions]


def _encode(value: Any) -> Any:
    if isinstance(value, Span):
        return [value.line, value.column, value.end_column]
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if attrs.has(type(value)):
        return [type(value).__name__, *(_encode(getattr(value, f.name)) for f in attrs.fields(type(value)))]
    return value  # str, int, bool, None


# ---------------------------------------------------------------- decoding

Decoder = Callable[[Any, str, int], Any]


def decode(data: Any, path: str, lines: tuple[str, ...]) -> ast.Module:
    """Rebuild a module from `encode`'s output; CodecError if it is not a valid AST."""
    if not isinstance(data, list):
        raise CodecError("a module is a list of definitions")
    definitions = _decoder(ast.Definition)
    return ast.Module(path=path, definitions=tuple(definitions(d, path, 1) for d in data), lines=lines)


@functools.cache
def _decoder(hint: Any) -> Decoder:
    """A function that checks and rebuilds a value of the type `hint`."""
    if hint is Span:
        return _span
    if hint is type(None):
        return _none
    if hint in (int, str, bool):
        return _scalar(hint)
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        return _union(typing.get_args(hint))
    if origin is tuple:
        return _tuple(typing.get_args(hint))
    if isinstance(hint, type) and attrs.has(hint):
        return _union((hint,))
    raise TypeError(f"the AST codec cannot handle the type {hint!r}")  # a new kind of field in ast.py


def _span(value: Any, path: str, depth: int) -> Span:
    if type(value) is list and len(value) == 3:  # one per node: written out, not a generator; bool is no int
        line, column, end = value
        if (type(line) is int and type(column) is int and type(end) is int
                and 0 <= line <= MAX_INT and 0 <= column <= MAX_INT and 0 <= end <= MAX_INT):
            return Span(path, line, column, end)
    raise CodecError(f"bad span {value!r}")


def _none(value: Any, path: str, depth: int) -> None:
    if value is not None:
        raise CodecError(f"expected null, found {value!r}")


def _scalar(kind: type) -> Decoder:
    def check(value: Any, path: str, depth: int) -> Any:
        if type(value) is not kind:
            raise CodecError(f"expected {kind.__name__}, found {type(value).__name__}")
        if kind is int and abs(value) > MAX_NUMBER:
            raise CodecError("integer too large")
        return value
    return check


def _tuple(args: tuple[Any, ...]) -> Decoder:
    if len(args) == 2 and args[1] is Ellipsis:
        item = _decoder(args[0])

        def homogeneous(value: Any, path: str, depth: int) -> tuple[Any, ...]:
            if not isinstance(value, list):
                raise CodecError("expected a list")
            depth += 1
            return tuple([item(v, path, depth) for v in value])
        return homogeneous
    items = [_decoder(a) for a in args]

    def fixed(value: Any, path: str, depth: int) -> tuple[Any, ...]:
        if not (isinstance(value, list) and len(value) == len(items)):
            raise CodecError(f"expected a list of {len(items)}")
        return tuple(d(v, path, depth + 1) for d, v in zip(items, value, strict=True))
    return fixed


def _union(options: tuple[Any, ...]) -> Decoder:
    nullable = type(None) in options
    classes = {cls.__name__: cls for cls in options if isinstance(cls, type) and attrs.has(cls)}
    # a union may hold a generic type too (`tuple[Name, Name] | None`): tried when no node fits
    others = [_decoder(o) for o in options if o is not type(None) and not (isinstance(o, type) and attrs.has(o))]

    def node(value: Any, path: str, depth: int) -> Any:
        if value is None and nullable:
            return None
        if depth > MAX_DEPTH:
            raise CodecError("nested too deeply")
        if not (isinstance(value, list) and value and isinstance(value[0], str) and value[0] in classes):
            for other in others:
                try:
                    return other(value, path, depth)
                except CodecError:
                    continue
            raise CodecError(f"expected one of {sorted(classes) or ['a ' + str(o) for o in others]}")
        cls = classes[value[0]]
        fields = _fields(cls)
        if len(value) != len(fields) + 1:
            raise CodecError(f"{cls.__name__} has {len(fields)} fields, found {len(value) - 1}")
        depth += 1
        return cls(*[d(v, path, depth) for d, v in zip(fields, value[1:], strict=True)])
    return node


@functools.cache
def _fields(cls: type) -> tuple[Decoder, ...]:
    hints = typing.get_type_hints(cls, vars(ast))
    return tuple(_decoder(hints[f.name]) for f in attrs.fields(cls))
