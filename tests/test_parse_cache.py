"""The on-disk parse cache holds data, never code, accepts only entries it signed itself, and
touches nothing but its own folder, whatever is found around it."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import pickle
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import sgs_dsl
from sgs_dsl.cli import main
from sgs_dsl.compiler.library import build
from sgs_dsl.resources import library_files
from sgs_dsl.syntax import astcodec, cache, parser
from sgs_dsl.syntax.parser import parse
from sgs_dsl.syntax.source import decode_source, read_bytes

TEXT = """skill 試驗 shiyan "測試用。" {
    on damaged {
        if damage.amount > 1 and damage.source != you { draw(you, 2); } else { draw(you, 1); }
    }
}
"""
HOURS_AGO = time.time() - 2 * 3600  # older than any temporary file the cache would keep


@pytest.fixture
def base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The configured location (SGS_CACHE_DIR); the cache keeps its own folder inside."""
    where = tmp_path / "cache"
    monkeypatch.setenv("SGS_CACHE_DIR", str(where))
    monkeypatch.delenv("SGS_NO_CACHE", raising=False)
    return where


@pytest.fixture
def folder(base: Path) -> Path:
    """The cache's own folder (not made yet)."""
    return cache.store_dir()


def entry_path(text: str = TEXT, path: str = "x.sgs") -> Path:
    return cache.store_dir() / (cache.entry_key(text, path) + ".json")


def secret() -> bytes:
    return (cache.store_dir() / "key").read_bytes()


def signed(key: str, payload: bytes, with_secret: bytes) -> bytes:
    """An entry in the cache's format, signed with `with_secret`: what only a holder of the
    folder's key can make."""
    head = f"{cache.FORMAT} {key}".encode()
    mac = hmac.new(with_secret, head + b"\n" + payload, hashlib.sha256).hexdigest()
    return head + f" {mac}\n".encode() + payload


def forbid_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("parsed although a valid entry was cached")
    monkeypatch.setattr(parser, "parse", fail)


def count_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths parsed from now on (each one a cache miss)."""
    calls: list[str] = []
    real = parser.parse

    def counting(text: str, path: str):
        calls.append(path)
        return real(text, path)
    monkeypatch.setattr(parser, "parse", counting)
    return calls


def test_a_second_parse_is_served_from_the_cache_and_equals_the_parse(folder, monkeypatch):
    first = cache.parse_cached(TEXT, "x.sgs")
    assert first == parse(TEXT, "x.sgs")
    assert entry_path().is_file()
    forbid_parsing(monkeypatch)
    assert cache.parse_cached(TEXT, "x.sgs") == first


def test_every_shipped_file_round_trips_through_the_codec():
    # and the test heroes: `view_as ... with same suit` (a tuple in a union) once failed to decode
    for file in [*library_files(), *sorted((Path(__file__).parent / "data").glob("*.sgs"))]:
        text = file.read_text(encoding="utf-8")
        module = parse(text, str(file))
        encoded = json.loads(json.dumps(astcodec.encode(module)))
        assert astcodec.decode(encoded, str(file), module.lines) == module


# ---------------------------------------------------------------- forged entries

def range_prop(payload: list, card: str) -> list:
    """The `range` property's number node of a card definition in an encoded module."""
    for definition in payload:
        if definition[0] == "CardDef" and definition[1][1] == card:
            for prop in definition[5]:
                if prop[0] == "Prop" and prop[1][1] == "range":
                    return prop[2][0]
    raise AssertionError(f"no range for {card}")


@pytest.fixture(scope="module")
def warm_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A location whose cache holds the whole built-in library."""
    where = tmp_path_factory.mktemp("warm")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SGS_CACHE_DIR", str(where))
        mp.delenv("SGS_NO_CACHE", raising=False)
        build(library_files())
    return where


def test_a_warm_start_loads_the_library_without_parsing(warm_base):
    probe = ("import sys\nfrom sgs_dsl.compiler.library import load_library\n"
             "print(len(load_library().cards), 'lark' in sys.modules)")
    # the package these tests import (installed, or the checkout): its files are the entries' paths
    package_root = Path(sgs_dsl.__file__).resolve().parent.parent
    env = {**os.environ, "SGS_CACHE_DIR": str(warm_base), "PYTHONPATH": str(package_root)}
    env.pop("SGS_NO_CACHE", None)
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True,
                         cwd=warm_base)
    cards, lark = out.stdout.split()
    assert int(cards) > 40 and lark == "False"


@pytest.mark.parametrize("forger", ["digest only", "another key", "the genuine header", "the folder's key"])
def test_a_forged_well_formed_entry_for_a_built_in_card_is_a_miss(warm_base, monkeypatch, forger):
    """寒冰劍 with range 9 in a well-formed entry under the built-in file's own key: the
    library still has range 2, and the entry is rewritten. Only an entry signed with the
    folder's own key (which only this user can read) is believed."""
    monkeypatch.setenv("SGS_CACHE_DIR", str(warm_base))
    monkeypatch.delenv("SGS_NO_CACHE", raising=False)
    (ex,) = [f for f in library_files() if (f.parent.name, f.name) == ("cards", "ex.sgs")]
    key = cache.entry_key(decode_source(read_bytes(ex), str(ex)), str(ex))
    entry = cache.store_dir() / (key + ".json")
    genuine = entry.read_bytes()
    header, _, payload = genuine.partition(b"\n")
    tree = json.loads(payload)
    assert range_prop(tree, "寒冰劍")[1] == 2
    range_prop(tree, "寒冰劍")[1] = 9
    body = json.dumps(tree, ensure_ascii=False).encode()
    forge = {
        "digest only": lambda: f"{cache.FORMAT} {key} {hashlib.sha256(body).hexdigest()}\n".encode() + body,
        "another key": lambda: signed(key, body, os.urandom(32)),
        "the genuine header": lambda: header + b"\n" + body,
        "the folder's key": lambda: signed(key, body, secret()),
    }[forger]
    entry.write_bytes(forge())
    try:
        card = build(library_files()).cards["寒冰劍"]
        if forger == "the folder's key":  # the forgery is well-formed: only the key tells it apart
            assert card.range == 9
        else:
            assert card.range == 2
            assert entry.read_bytes() == genuine  # parsed again and rewritten
    finally:
        entry.write_bytes(genuine)


def test_another_text_s_entry_is_a_miss_even_under_this_text_s_key(folder):
    other = TEXT.replace("draw(you, 2)", "draw(you, 3)")
    cache.parse_cached(other, "x.sgs")
    foreign = entry_path(other).read_bytes()
    entry_path().write_bytes(foreign)  # as it is: its header names the other key
    assert cache.parse_cached(TEXT, "x.sgs") == parse(TEXT, "x.sgs")
    head, _, payload = foreign.partition(b"\n")
    fmt, _, mac = head.split(b" ")
    entry_path().write_bytes(b" ".join([fmt, cache.entry_key(TEXT, "x.sgs").encode(), mac]) + b"\n" + payload)
    assert cache.parse_cached(TEXT, "x.sgs") == parse(TEXT, "x.sgs")  # the MAC covers the key


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
    cache.parse_cached(TEXT, "x.sgs")  # the folder and its key
    evil = pickle.dumps(_Plant(marker))
    text = bad.read_text(encoding="utf-8")
    key = cache.entry_key(text, str(bad))
    for planted in (evil, signed(key, evil, os.urandom(32)), signed(key, evil, secret())):
        entry_path(text, str(bad)).write_bytes(planted)
        result = CliRunner().invoke(main, ["check", str(bad)])
        assert not marker.exists()
        assert result.exit_code == 1 and "damagd" in result.output  # parsed for real, not an `ok`


def forge_signed(forge) -> None:
    """Rewrite this text's entry with a changed tree, signed with the folder's own key: what
    the user could do, and the rebuild still checks."""
    key = cache.entry_key(TEXT, "x.sgs")
    payload = json.loads(entry_path().read_bytes().partition(b"\n")[2])
    forge(payload)
    entry_path().write_bytes(signed(key, json.dumps(payload).encode(), secret()))


def test_a_signed_entry_naming_something_that_is_not_a_node_is_a_miss(folder):
    good = cache.parse_cached(TEXT, "x.sgs")
    raw = entry_path().read_bytes()
    forge_signed(lambda tree: tree[0].__setitem__(0, "os.system"))
    assert cache.parse_cached(TEXT, "x.sgs") == good
    assert entry_path().read_bytes() == raw  # rewritten


@pytest.mark.parametrize("forge", [
    lambda node: node.__setitem__(1, ["Name", 5, [1, 1, 1]]),  # a number where a name's text belongs
    lambda node: node.append(None),  # one field too many
    lambda node: node[1].__setitem__(2, [1, 1]),  # a span of two numbers
    lambda node: node[1].__setitem__(2, [1, 10**30, 1]),  # a number larger than any literal
])
def test_a_signed_entry_of_the_wrong_shape_is_a_miss(folder, forge):
    good = cache.parse_cached(TEXT, "x.sgs")
    forge_signed(lambda tree: forge(tree[0]))
    assert cache.parse_cached(TEXT, "x.sgs") == good


def test_an_entry_nested_past_the_bound_is_a_miss(folder):
    good = cache.parse_cached(TEXT, "x.sgs")
    deep: list = ["Int", 1, [1, 1, 1]]
    for _ in range(astcodec.MAX_DEPTH + 10):
        deep = ["Neg", deep, [1, 1, 1]]
    tree = [["HeroDef", ["Name", "a", [1, 1, 1]], ["Name", "a", [1, 1, 1]], "",
             [["Prop", ["Name", "hp", [1, 1, 1]], [deep], [1, 1, 1]]], [1, 1, 1]]]
    with pytest.raises(astcodec.CodecError):
        astcodec.decode(tree, "x", ())
    forge_signed(lambda payload: payload.__setitem__(slice(None), tree))
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


def test_an_entry_too_large_to_read_back_is_not_written(folder, monkeypatch):
    cache.parse_cached(TEXT, "x.sgs")
    raw = entry_path().read_bytes()
    entry_path().unlink()
    payload = raw.partition(b"\n")[2]
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", len(payload) + 1)  # the payload fits, the header does not
    cache.parse_cached(TEXT, "x.sgs")
    assert not entry_path().exists()


# ---------------------------------------------------------------- the key

def test_the_key_is_made_with_the_folder_and_is_private(folder):
    cache.parse_cached(TEXT, "x.sgs")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    key = folder / "key"
    assert stat.S_IMODE(key.lstat().st_mode) == 0o600 and len(key.read_bytes()) == 32
    assert sorted(p.name for p in folder.iterdir()) == sorted(["key", entry_path().name])


def damage_by_removing(key: Path, outside: Path) -> None:
    key.unlink()


def damage_by_truncating(key: Path, outside: Path) -> None:
    key.write_bytes(key.read_bytes()[:5])


def damage_by_opening(key: Path, outside: Path) -> None:
    os.chmod(key, 0o644)


def damage_by_symlinking(key: Path, outside: Path) -> None:
    outside.write_bytes(key.read_bytes())  # the right key, private, but not a file of the folder
    os.chmod(outside, 0o600)
    key.unlink()
    key.symlink_to(outside)


@pytest.mark.parametrize("damage", [damage_by_removing, damage_by_truncating, damage_by_opening,
                                    damage_by_symlinking])
def test_a_lost_or_damaged_key_is_made_again_and_every_older_entry_is_a_miss(folder, tmp_path, monkeypatch, damage):
    cache.parse_cached(TEXT, "x.sgs")
    old = secret()
    outside = tmp_path / "outside-key"
    damage(folder / "key", outside)
    kept = outside.read_bytes() if outside.exists() else None
    parses = count_parses(monkeypatch)
    assert cache.parse_cached(TEXT, "x.sgs") == parse(TEXT, "x.sgs")
    assert parses == ["x.sgs"]  # signed with the old key: a miss
    key = folder / "key"
    assert not key.is_symlink() and stat.S_IMODE(key.stat().st_mode) == 0o600
    assert secret() != old and len(secret()) == 32
    assert (outside.read_bytes() if outside.exists() else None) == kept  # never written through
    cache.parse_cached(TEXT, "x.sgs")
    assert parses == ["x.sgs"]  # the rewritten entry is a hit


def owned_by_someone_else(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on the file at `path` reports another owner (tests cannot chown)."""
    inode, real_fstat = path.stat().st_ino, os.fstat

    def fstat(fd: int) -> os.stat_result:
        info = real_fstat(fd)
        if info.st_ino != inode:
            return info
        fields = list(info)
        fields[4] += 1  # st_uid
        return os.stat_result(fields)
    monkeypatch.setattr(os, "fstat", fstat)


@pytest.mark.parametrize("planted", ["key", "entry"])
def test_a_key_or_entry_of_another_owner_is_not_read(folder, monkeypatch, planted):
    """What another user planted while the folder was open to them: even a key and entry
    that agree are not believed."""
    cache.parse_cached(TEXT, "x.sgs")
    old = secret()
    owned_by_someone_else(folder / "key" if planted == "key" else entry_path(), monkeypatch)
    parses = count_parses(monkeypatch)
    cache.parse_cached(TEXT, "x.sgs")
    assert parses == ["x.sgs"]
    assert (secret() != old) == (planted == "key")  # a key not yours is replaced


def test_a_folder_whose_key_cannot_be_replaced_is_not_used(folder, monkeypatch):
    folder.mkdir(parents=True, mode=0o700)
    (folder / "key").mkdir()
    assert cache.parse_cached(TEXT, "x.sgs") == parse(TEXT, "x.sgs")
    assert sorted(p.name for p in folder.iterdir()) == ["key"]


def test_a_key_made_by_another_process_meanwhile_is_kept(folder, monkeypatch):
    """Two processes making the key at once agree on one: the second never replaces it."""
    cache.parse_cached(TEXT, "x.sgs")
    first = secret()
    read_key = cache._read_key
    seen: list[bool] = []

    def too_late(fd: int):  # the first look finds no key; the other process then makes it
        if not seen:
            seen.append(True)
            return False, None
        return read_key(fd)
    monkeypatch.setattr(cache, "_read_key", too_late)
    forbid_parsing(monkeypatch)
    cache.parse_cached(TEXT, "x.sgs")  # a hit: signed with the key that is kept
    assert seen and secret() == first
    assert [p.name for p in folder.iterdir() if p.name.startswith(".tmp-")] == []


# ---------------------------------------------------------------- symlinks and the folder

def test_a_symlink_planted_at_the_entry_is_neither_read_nor_written_through(folder, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    cache.parse_cached(TEXT, "y.sgs")  # the folder and its key
    entry_path().symlink_to(victim)
    assert cache.parse_cached(TEXT, "x.sgs") == parse(TEXT, "x.sgs")
    assert victim.read_text(encoding="utf-8") == "precious"
    assert not entry_path().is_symlink() and entry_path().is_file()


def test_temporary_files_are_fresh_and_private_so_a_planted_symlink_is_never_followed(folder, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    cache.parse_cached(TEXT, "y.sgs")
    key = cache.entry_key(TEXT, "x.sgs")
    for name in (f"{key}.json.tmp", f"{key}.{os.getpid()}.tmp", f".tmp-{key}.json", f".tmp-{key[:32]}"):
        (folder / name).symlink_to(victim)
    cache.parse_cached(TEXT, "x.sgs")
    assert victim.read_text(encoding="utf-8") == "precious"
    assert stat.S_IMODE(entry_path().stat().st_mode) == 0o600


@pytest.mark.parametrize("mode", [0o770, 0o707, 0o750, 0o777])
def test_a_folder_open_to_others_is_not_used_and_its_mode_is_left_alone(folder, monkeypatch, mode):
    """Even the folder the cache made itself: whoever opened it, files may have been planted
    in it since, and its mode is not the cache's to change back."""
    cache.parse_cached(TEXT, "x.sgs")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    os.chmod(folder, mode)
    parses = count_parses(monkeypatch)
    assert cache.parse_cached(TEXT, "x.sgs") == parse(TEXT, "x.sgs")
    cache.parse_cached(TEXT, "y.sgs")
    assert parses == ["x.sgs", "y.sgs"]  # not read
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before  # not written
    assert stat.S_IMODE(folder.stat().st_mode) == mode


def test_a_symlinked_or_foreign_folder_is_not_used(base, tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    base.mkdir()
    cache.store_dir().symlink_to(elsewhere)
    assert cache.parse_cached(TEXT, "x.sgs") == parse(TEXT, "x.sgs")
    assert list(elsewhere.iterdir()) == []
    real_uid = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: real_uid + 1)  # a folder of this name, somebody else's
    cache.store_dir().mkdir(mode=0o700)
    cache.parse_cached(TEXT, "x.sgs")
    assert list(cache.store_dir().iterdir()) == []


def test_users_sharing_a_location_each_have_their_own_folder(base, monkeypatch):
    cache.parse_cached(TEXT, "x.sgs")
    mine = cache.store_dir()
    real_uid = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: real_uid + 1)
    assert cache.store_dir() != mine and cache.store_dir().parent == mine.parent


def test_no_cache_writes_nothing(base, monkeypatch):
    monkeypatch.setenv("SGS_NO_CACHE", "1")
    cache.parse_cached(TEXT, "x.sgs")
    assert not base.exists()


# ---------------------------------------------------------------- a location shared with other files

def snapshot(root: Path, skip: Path) -> dict[str, tuple]:
    """Everything under a folder, symlinks not followed: kind, mode, owner, size, times, and
    the bytes (or the link's target)."""
    seen: dict[str, tuple] = {}
    for top, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = Path(top) / name
            if path == skip:
                continue
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                what: object = os.readlink(path)
            elif stat.S_ISREG(info.st_mode):
                what = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                what = None
            seen[str(path.relative_to(root))] = (info.st_mode, info.st_uid, info.st_size, info.st_mtime_ns, what)
        dirs[:] = [d for d in dirs if Path(top) / d != skip]
    return seen


def fill_with_other_files(where: Path, outside: Path) -> int:
    """A folder of files that are not the cache's, many named like its own; how many."""
    hexes = (hashlib.sha256(str(i).encode()).hexdigest() for i in range(10**6))
    made = 0

    def put(path: Path, data: bytes) -> None:
        nonlocal made
        path.write_bytes(data)
        made += 1
    for i in range(900):  # named like entries, some with an entry's header for their name
        name = next(hexes)
        head = f"sgs-ast/{i % 3 + 1} {name} {next(hexes)}\n" if i % 2 else ""
        put(where / f"{name}.json", f'{head}{{"user": {i}}}'.encode())
    for i in range(500):
        put(where / f"notes-{i}.json", json.dumps({"note": i}).encode())
    for i in range(300):  # named like temporary files, old or new style
        put(where / (f".tmp-{next(hexes)[:32]}" if i % 2 else f".tmp-user{i}.json"), b"draft")
    for i in range(100):
        sub = where / f"project-{i}"
        sub.mkdir()
        put(sub / "data.json", b"{}")
        put(sub / f"{next(hexes)}.json", b"[]")
        put(sub / "readme.txt", b"hello")
    put(where / "key", os.urandom(32))
    put(where / f"{cache.FOLDER_PREFIX}{os.getuid() + 1}", b"someone else's name")
    for i in range(100):  # symlinks: to files here, to a file outside, dangling, to a folder
        target = [where / "notes-1.json", outside, where / "missing.json", where / "project-1"][i % 4]
        name = f"{next(hexes)}.json" if i % 2 else f".tmp-{next(hexes)[:32]}"
        (where / name).symlink_to(target)
        made += 1
    for top, dirs, files in os.walk(where):
        for name in [*dirs, *files]:
            os.utime(Path(top) / name, (HOURS_AGO, HOURS_AGO), follow_symlinks=False)
    return made


def test_a_location_shared_with_other_files_keeps_every_one_of_them_and_its_mode(base, tmp_path, monkeypatch):
    """SGS_CACHE_DIR=/tmp, or a project folder: the cache makes its own folder there and
    touches nothing else, however many writes and prunes, and never changes the mode."""
    base.mkdir()
    os.chmod(base, 0o1777)
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"not the cache's")
    assert fill_with_other_files(base, outside) >= 2100
    before = snapshot(base, cache.store_dir())
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    monkeypatch.setattr(cache, "MAX_BYTES", 4000)
    for i in range(30):
        cache.parse_cached(TEXT, f"f{i}.sgs")
    cache.prune(max_bytes=0, max_entries=0)
    assert snapshot(base, cache.store_dir()) == before
    assert stat.S_IMODE(base.stat().st_mode) == 0o1777
    assert outside.read_bytes() == b"not the cache's"
    assert stat.S_IMODE(cache.store_dir().stat().st_mode) == 0o700
    assert sorted(p.name for p in cache.store_dir().iterdir()) == ["key"]  # its own entries pruned


def test_pruning_its_own_folder_deletes_only_its_own_files(folder, tmp_path):
    """Files put in the cache's folder by hand are not the cache's: only regular files of
    its name patterns, and entries only with an entry's header for their name, are deleted."""
    for i in range(5):
        cache.parse_cached(TEXT, f"f{i}.sgs")
    ours = {p.name for p in folder.glob("*.json")}
    hexes = [hashlib.sha256(str(i).encode()).hexdigest() for i in range(8)]
    outside = tmp_path / "outside.json"
    outside.write_bytes(signed(hexes[3], b"[]", secret()))  # an entry for the name linked to it
    os.chmod(outside, 0o600)
    (folder / "notes.json").write_bytes(b"{}")
    (folder / f"{hexes[0]}.json").write_bytes(b"no header")
    (folder / f"{hexes[1]}.json").write_bytes(signed(hexes[2], b"[]", secret()))  # another name's header
    (folder / f"{hexes[3]}.json").symlink_to(outside)
    (folder / f"{hexes[4]}.json").mkdir()
    (folder / f".tmp-{hexes[5][:32]}").symlink_to(outside)
    (folder / f".tmp-{hexes[6][:32]}").mkdir()
    (folder / ".tmp-draft").write_bytes(b"draft")
    (folder / f"{hexes[7]}.json.bak").write_bytes(b"backup")
    stale = folder / f".tmp-{'f' * 32}"  # the cache's own pattern: left by a killed process
    stale.write_bytes(b"x")
    for path in folder.iterdir():
        if path.name != "key":
            if not path.is_symlink():
                os.chmod(path, 0o700 if path.is_dir() else 0o600)  # private, like the cache's own
            os.utime(path, (HOURS_AGO, HOURS_AGO), follow_symlinks=False)
    before = snapshot(folder, folder / "key")
    cache.prune(max_bytes=0, max_entries=0)
    expected = {name: v for name, v in before.items() if name not in ours | {stale.name}}
    assert snapshot(folder, folder / "key") == expected
    assert outside.read_bytes() == signed(hexes[3], b"[]", secret())


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


def test_a_hit_makes_an_entry_recently_used(folder, monkeypatch):
    cache.parse_cached(TEXT, "x.sgs")
    os.utime(entry_path(), (HOURS_AGO, HOURS_AGO))
    cache.parse_cached(TEXT, "x.sgs")
    assert entry_path().stat().st_mtime > HOURS_AGO + 3600


def test_the_folder_stays_within_its_byte_bound(folder, monkeypatch):
    cache.parse_cached(TEXT, "x.sgs")
    size = entry_path().stat().st_size
    monkeypatch.setattr(cache, "MAX_BYTES", size * 10)
    for i in range(40):
        cache.parse_cached(TEXT, f"f{i}.sgs")
        assert sum(p.stat().st_size for p in folder.glob("*.json")) <= size * 10


def test_stale_temporary_files_are_removed_and_fresh_ones_kept(folder):
    cache.parse_cached(TEXT, "x.sgs")
    stale, fresh = folder / f".tmp-{'a' * 32}", folder / f".tmp-{'b' * 32}"
    for path in (stale, fresh):
        path.write_bytes(b"x")
        os.chmod(path, 0o600)
    os.utime(stale, (HOURS_AGO, HOURS_AGO))
    cache.prune()
    assert not stale.exists() and fresh.exists()
