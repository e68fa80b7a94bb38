"""The on-disk parse cache holds data, never code, and survives whatever is found in its folder."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgs_dsl.cli import main
from sgs_dsl.syntax import astcodec, cache, parser
from sgs_dsl.syntax.parser import parse

TEXT = """skill 試驗 shiyan "測試用。" {
    on damaged {
        if damage.amount > 1 and damage.source != you { draw(you, 2); } else { draw(you, 1); }
    }
}
"""


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("SGS_CACHE_DIR", str(where))
    monkeypatch.delenv("SGS_NO_CACHE", raising=False)
    return where


def entry_path(text: str = TEXT, path: str = "x.sgs") -> Path:
    return cache.cache_dir() / (cache.entry_key(text, path) + ".json")


def forbid_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("parsed although a valid entry was cached")
    monkeypatch.setattr(parser, "parse", fail)


def test_a_second_parse_is_served_from_the_cache_and_equals_the_parse(folder, monkeypatch):
    first = cache.parse_cached(TEXT, "x.sgs")
    assert first == parse(TEXT, "x.sgs")
    assert entry_path().is_file()
    forbid_parsing(monkeypatch)
    assert cache.parse_cached(TEXT, "x.sgs") == first


def test_every_shipped_file_round_trips_through_the_codec():
    from sgs_dsl.resources import library_files

    # and the test heroes: `view_as ... with same suit` (a tuple in a union) once failed to decode
    for file in [*library_files(), *sorted((Path(__file__).parent / "data").glob("*.sgs"))]:
        text = file.read_text(encoding="utf-8")
        module = parse(text, str(file))
        encoded = json.loads(json.dumps(astcodec.encode(module)))
        assert astcodec.decode(encoded, str(file), module.lines) == module


# ---------------------------------------------------------------- nothing in the folder runs

class _Plant:
    """Unpickling this runs code: it creates the marker file."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_a_planted_pickle_runs_nothing_and_check_still_reports_the_truth(folder, tmp_path):
    bad = tmp_path / "bad.sgs"
    bad.write_text('skill 壞 huai "x" { on damagd { draw(you, 1); } }\n', encoding="utf-8")
    marker = tmp_path / "pwned"
    folder.mkdir(mode=0o700)
    evil = pickle.dumps(_Plant(marker))
    text = bad.read_text(encoding="utf-8")
    entry_path(text, str(bad)).write_bytes(evil)
    header = f"{cache.FORMAT} {cache.entry_key(text, str(bad))} {hashlib.sha256(evil).hexdigest()}\n"
    result = CliRunner().invoke(main, ["check", str(bad)])
    assert not marker.exists()
    assert result.exit_code == 1 and "damagd" in result.output  # parsed for real, not an `ok`
    entry_path(text, str(bad)).write_bytes(header.encode() + evil)  # a pickle behind a valid digest
    result = CliRunner().invoke(main, ["check", str(bad)])
    assert not marker.exists() and result.exit_code == 1


def test_an_entry_naming_something_that_is_not_a_node_is_a_miss(folder, monkeypatch):
    good = cache.parse_cached(TEXT, "x.sgs")
    raw = entry_path().read_bytes()
    header, _, payload = raw.partition(b"\n")
    forged = json.loads(payload)
    forged[0][0] = "os.system"
    body = json.dumps(forged).encode()
    fmt, key, _ = header.decode().split(" ")
    entry_path().write_bytes(f"{fmt} {key} {hashlib.sha256(body).hexdigest()}\n".encode() + body)
    assert cache.parse_cached(TEXT, "x.sgs") == good
    assert entry_path().read_bytes() == raw  # rewritten


@pytest.mark.parametrize("forge", [
    lambda node: node.__setitem__(1, ["Name", 5, [1, 1, 1]]),  # a number where a name's text belongs
    lambda node: node.append(None),  # one field too many
    lambda node: node[1].__setitem__(2, [1, 1]),  # a span of two numbers
    lambda node: node[1].__setitem__(2, [1, 10**30, 1]),  # a number larger than any literal
])
def test_an_entry_of_the_wrong_shape_is_a_miss(folder, forge):
    good = cache.parse_cached(TEXT, "x.sgs")
    header, _, payload = entry_path().read_bytes().partition(b"\n")
    forged = json.loads(payload)
    forge(forged[0])
    body = json.dumps(forged).encode()
    fmt, key, _ = header.decode().split(" ")
    entry_path().write_bytes(f"{fmt} {key} {hashlib.sha256(body).hexdigest()}\n".encode() + body)
    assert cache.parse_cached(TEXT, "x.sgs") == good


def test_an_entry_nested_past_the_bound_is_a_miss(folder):
    good = cache.parse_cached(TEXT, "x.sgs")
    deep: list = ["Int", 1, [1, 1, 1]]
    for _ in range(astcodec.MAX_DEPTH + 10):
        deep = ["Neg", deep, [1, 1, 1]]
    with pytest.raises(astcodec.CodecError):
        astcodec.decode([["HeroDef", ["Name", "a", [1, 1, 1]], ["Name", "a", [1, 1, 1]], "",
                          [["Prop", ["Name", "hp", [1, 1, 1]], [deep], [1, 1, 1]]], [1, 1, 1]]], "x", ())
    assert cache.parse_cached(TEXT, "x.sgs") == good


# ---------------------------------------------------------------- damaged entries

def test_a_flipped_byte_a_truncated_entry_and_garbage_are_misses_and_are_rewritten(folder):
    good = cache.parse_cached(TEXT, "x.sgs")
    raw = entry_path().read_bytes()
    flipped = bytearray(raw)
    flipped[len(raw) // 2] ^= 0x01
    for damaged in (bytes(flipped), raw[: len(raw) // 3], b"", b"\xff\xfe garbage", raw.split(b"\n")[0]):
        entry_path().write_bytes(damaged)
        assert cache.parse_cached(TEXT, "x.sgs") == good
        assert entry_path().read_bytes() == raw


def test_a_flipped_byte_never_makes_the_cli_fail(folder, tmp_path):
    sgs = tmp_path / "h.sgs"
    sgs.write_text(TEXT, encoding="utf-8")
    assert CliRunner().invoke(main, ["check", str(sgs)]).exit_code == 0
    entry = entry_path(TEXT, str(sgs))
    for offset in range(0, entry.stat().st_size, 97):
        raw = bytearray(entry.read_bytes())
        raw[offset] ^= 0x20
        entry.write_bytes(bytes(raw))
        result = CliRunner().invoke(main, ["check", str(sgs)])
        assert result.exit_code == 0, result.output


def test_an_entry_of_another_text_is_a_miss(folder):
    other = TEXT.replace("draw(you, 2)", "draw(you, 3)")
    cache.parse_cached(other, "x.sgs")
    entry_path().write_bytes(entry_path(other).read_bytes())  # a foreign entry under this key
    assert cache.parse_cached(TEXT, "x.sgs") == parse(TEXT, "x.sgs")


def test_the_key_changes_with_the_path_the_version_and_the_front_end(folder, monkeypatch):
    cache._front_end_fingerprint.cache_clear()
    key = cache.entry_key(TEXT, "x.sgs")
    assert cache.entry_key(TEXT, "y.sgs") != key
    import sgs_dsl

    monkeypatch.setattr(sgs_dsl, "__version__", "999.0")
    cache._front_end_fingerprint.cache_clear()
    try:
        assert cache.entry_key(TEXT, "x.sgs") != key
    finally:
        monkeypatch.undo()
        cache._front_end_fingerprint.cache_clear()
    assert cache.entry_key(TEXT, "x.sgs") == key


# ---------------------------------------------------------------- symlinks and the folder

def test_a_symlink_planted_at_the_entry_is_neither_read_nor_written_through(folder, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    folder.mkdir(mode=0o700)
    entry_path().symlink_to(victim)
    assert cache.parse_cached(TEXT, "x.sgs") == parse(TEXT, "x.sgs")
    assert victim.read_text(encoding="utf-8") == "precious"
    assert not entry_path().is_symlink() and entry_path().is_file()


def test_temporary_files_are_fresh_and_private_so_a_planted_symlink_is_never_followed(folder, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    folder.mkdir(mode=0o700)
    key = cache.entry_key(TEXT, "x.sgs")
    for name in (f"{key}.json.tmp", f"{key}.{os.getpid()}.tmp", f".tmp-{key}.json"):  # every guessable name
        (folder / name).symlink_to(victim)
    cache.parse_cached(TEXT, "x.sgs")
    assert victim.read_text(encoding="utf-8") == "precious"
    assert stat.S_IMODE(entry_path().stat().st_mode) == 0o600


def test_the_folder_is_made_private_and_a_loose_one_is_tightened(folder):
    cache.parse_cached(TEXT, "x.sgs")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    os.chmod(folder, 0o777)
    cache.parse_cached(TEXT, "x.sgs")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_a_symlinked_or_foreign_folder_is_not_used(folder, tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder.symlink_to(elsewhere)
    assert cache.parse_cached(TEXT, "x.sgs") == parse(TEXT, "x.sgs")
    assert list(elsewhere.iterdir()) == []
    folder.unlink()
    folder.mkdir(mode=0o700)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(folder).st_uid + 1)  # somebody else's folder
    cache.parse_cached(TEXT, "x.sgs")
    assert list(folder.iterdir()) == []


def test_no_cache_writes_nothing(folder, monkeypatch):
    monkeypatch.setenv("SGS_NO_CACHE", "1")
    cache.parse_cached(TEXT, "x.sgs")
    assert not folder.exists()


# ---------------------------------------------------------------- the size bound

def test_the_folder_stays_within_its_bounds_and_keeps_the_recently_used(folder, monkeypatch):
    monkeypatch.setattr(cache, "MAX_ENTRIES", 20)
    cache.parse_cached(TEXT, "keep.sgs")
    for i in range(60):
        cache.parse_cached(TEXT, f"f{i}.sgs")
        os.utime(entry_path(TEXT, "keep.sgs"))  # used again and again
        entries = list(folder.glob("*.json"))
        assert len(entries) <= 20
    assert entry_path(TEXT, "keep.sgs").exists()
    assert entry_path(TEXT, "f59.sgs").exists() and not entry_path(TEXT, "f0.sgs").exists()


def test_the_folder_stays_within_its_byte_bound(folder, monkeypatch):
    cache.parse_cached(TEXT, "x.sgs")
    size = entry_path().stat().st_size
    monkeypatch.setattr(cache, "MAX_BYTES", size * 10)
    for i in range(40):
        cache.parse_cached(TEXT, f"f{i}.sgs")
        assert sum(p.stat().st_size for p in folder.glob("*.json")) <= size * 10


def test_stale_temporary_files_are_removed(folder):
    folder.mkdir(mode=0o700)
    stale = folder / ".tmp-left-by-a-killed-process.json"
    stale.write_bytes(b"x")
    old = stale.stat().st_mtime - cache.STALE_TEMP_SECONDS - 10
    os.utime(stale, (old, old))
    cache.prune(folder, max_bytes=0, max_entries=0)
    assert not stale.exists()
