"""Output in either script. The library and the engine write Traditional Chinese (繁體); a user
may ask for Simplified (简体) with `--script hans` or SGS_SCRIPT=hans, and what the commands
print (logs, traces, explain, reports, the terminal table) is converted as it is written.
Input is read in either script already (syntax/names.py); rulings, snapshots and .sgs text
keep the script they are written in.

The conversion is OpenCC's Traditional-to-Simplified (phrases, then characters), from the
opencc-python-reimplemented package."""

from __future__ import annotations

import functools
from typing import Any, TextIO

SCRIPTS = ("hant", "hans")  # Traditional (the library's own), Simplified
DEFAULT = "hant"


@functools.lru_cache(maxsize=1)
def _converter() -> Any:
    from opencc import OpenCC  # type: ignore[import-untyped]

    return OpenCC("t2s")


def to_script(text: str, script: str) -> str:
    """`text` (Traditional) in `script`."""
    if script == "hant" or not text:
        return text
    if script != "hans":
        raise ValueError(f"unknown script {script!r}: {' or '.join(SCRIPTS)}")
    return str(_converter().convert(text))


def data_in_script(data: Any, script: str) -> Any:
    """JSON-like data (dicts, lists, strings) with every string, keys too, in `script`: a
    report's figures and page drawn for people (the data files keep the library's script)."""
    if script == "hant":
        return data
    if isinstance(data, str):
        return to_script(data, script)
    if isinstance(data, dict):
        return {data_in_script(k, script): data_in_script(v, script) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)(data_in_script(x, script) for x in data)
    return data


class ScriptStream:
    """A text stream that writes what it is given in `script` (the terminal of `sgs play`)."""

    def __init__(self, stream: TextIO, script: str) -> None:
        self.stream = stream
        self.script = script

    def write(self, text: str) -> int:
        return self.stream.write(to_script(text, self.script))

    def flush(self) -> None:
        self.stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)
