"""The CLI on hostile input: odd files in checked folders, symlinks, unwritable outputs, a
failing stdout, terminal control characters, too few heroes and games that end in an error.
Each case gets a clear message and exit status 1, 2 or 74 (never 70, never a hang)."""

from __future__ import annotations

import errno
import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from sgs_dsl import cli
from sgs_dsl.cli import main
from sgs_dsl.textsafe import printable

HERE = Path(__file__).resolve().parent
EXAMPLE_RULINGS = HERE.parent / "examples" / "rulings" / "basics.ruling"

CARD = """
card 測試牌 ceshi_pai basic "出牌階段，對你使用。你摸一張牌。" {
  use play: self;
  effect { draw(target, 1); }
}
"""
FEW_HEROES = """# two made-up heroes and a ruleset dealing them
hero 測甲 ceshi_jia { kingdom 魏; hp 4; }
hero 測乙 ceshi_yi { kingdom 蜀; hp 4; }

ruleset few "兩位武將" {
  mode identity;
  decks standard, ex;
  heroes few;
}
"""
SECRET = "THE-SECRET-CONTENT"
ESC_TITLE = "T\x1b[31mX\u202eY"


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def assert_fails(result, code: int) -> None:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert isinstance(result.exception, SystemExit) or result.exception is None


@pytest.fixture
def no_hang():
    """Fail a test that blocks (on opening a FIFO, say) instead of hanging the suite."""

    def timeout(*_args):
        raise TimeoutError("the command blocked")

    old = signal.signal(signal.SIGALRM, timeout)
    signal.setitimer(signal.ITIMER_REAL, 5)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, old)


def folder_with(tmp_path: Path, **files: str) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def deny(monkeypatch, suffix: str) -> None:
    """Opening a path ending in `suffix` is refused, as for a file of mode 000 (the tests
    run as root, who may open anything)."""
    real_open = os.open

    def fake_open(path, flags, *args, **kwargs):
        if str(path).endswith(suffix):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", fake_open)


# --- odd files in a checked folder --------------------------------------------------------------


def test_a_folder_named_sgs_is_searched_not_read(tmp_path):
    folder = folder_with(tmp_path, **{"ok.sgs": "# nothing\n"})
    (folder / "x.sgs").mkdir()
    (folder / "x.sgs" / "inner.sgs").write_text("card\n", encoding="utf-8")
    result = invoke("check", str(folder))
    assert_fails(result, 1)
    assert f"{folder / 'x.sgs' / 'inner.sgs'}:" in result.stderr
    assert "1 error in 2 files" in result.stderr


def test_a_fifo_in_a_checked_folder_is_skipped_with_a_warning(tmp_path, no_hang):
    folder = folder_with(tmp_path, **{"ok.sgs": "# nothing\n"})
    os.mkfifo(folder / "pipe.sgs")
    result = invoke("check", str(folder))
    assert result.exit_code == 0, result.output
    assert result.stdout == "ok: 1 file\n"
    assert f"{folder / 'pipe.sgs'}: warning: not read: a FIFO (named pipe), not a regular file" in result.stderr


def test_a_socket_in_a_folder_given_to_library_is_skipped(tmp_path, no_hang):
    folder = folder_with(tmp_path, **{"card.sgs": CARD})
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(folder / "sock.sgs"))
        result = invoke("explain", "-L", str(folder), "ceshi_pai")
    assert result.exit_code == 0, result.output
    assert "測試牌" in result.stdout
    assert "sock.sgs: warning: not read: a socket, not a regular file" in result.stderr


@pytest.mark.parametrize("command", [["check"], ["cards", "-L"], ["ruling"]])
def test_a_fifo_named_directly_is_an_error(tmp_path, no_hang, command):
    fifo = tmp_path / "pipe.sgs"
    os.mkfifo(fifo)
    result = invoke(*command, str(fifo))
    assert_fails(result, 1)
    assert f"{fifo}: error: cannot read {fifo}: it is a FIFO (named pipe), not a regular file" in result.stderr
    assert "hint: only regular files are read: reading a FIFO or a device could block forever" in result.stderr


@pytest.mark.parametrize("command", [["check"], ["rulesets", "-L"], ["ruling"]])
def test_a_device_named_directly_is_an_error(no_hang, command):
    result = invoke(*command, os.devnull)
    assert_fails(result, 1)
    assert f"cannot read {os.devnull}: it is a character device, not a regular file" in result.stderr


def test_an_unreadable_file_in_a_folder_is_an_error(tmp_path, monkeypatch):
    folder = folder_with(tmp_path, **{"ok.sgs": "# nothing\n", "secret.sgs": "# mode 000\n"})
    deny(monkeypatch, "secret.sgs")
    result = invoke("check", str(folder))
    assert_fails(result, 1)
    secret = folder / "secret.sgs"
    assert f"{secret}: error: cannot read {secret}: permission denied" in result.stderr
    assert "1 error in 2 files" in result.stderr


@pytest.mark.parametrize("command", [["check"], ["heroes", "-L"], ["ruling"]])
def test_an_unreadable_file_named_directly_is_an_error(tmp_path, monkeypatch, command):
    secret = tmp_path / "secret.sgs"
    secret.write_text("# mode 000\n", encoding="utf-8")
    deny(monkeypatch, "secret.sgs")
    result = invoke(*command, str(secret))
    assert_fails(result, 1)
    assert f"cannot read {secret}: permission denied" in result.stderr


def test_a_folder_that_cannot_be_listed_is_an_error(tmp_path, monkeypatch):
    folder = folder_with(tmp_path, **{"ok.sgs": "# nothing\n"})
    (folder / "locked").mkdir()
    real_scandir = os.scandir

    def fake_scandir(path="."):
        if str(path).endswith("locked"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", fake_scandir)
    result = invoke("check", str(folder))
    assert_fails(result, 1)
    assert f"cannot read the folder {folder / 'locked'}: permission denied" in result.stderr


@pytest.mark.parametrize("command", [["check"], ["cards", "-L"], ["ruling"]])
def test_a_path_below_a_file_is_a_usage_error(tmp_path, command):
    (tmp_path / "afile").write_text("", encoding="utf-8")
    result = invoke(*command, str(tmp_path / "afile" / "x.sgs"))
    assert_fails(result, 2)
    assert "does not exist" in result.stderr


def test_the_library_never_opens_a_fifo(tmp_path, no_hang):
    from sgs_dsl.compiler.library import check_paths

    folder = folder_with(tmp_path, **{"ok.sgs": "# nothing\n"})
    os.mkfifo(folder / "pipe.sgs")
    assert check_paths([folder]) == []
    [diagnostic] = check_paths([folder / "pipe.sgs"])
    assert "not a regular file" in diagnostic.message


# --- symlinks inside a checked folder -----------------------------------------------------------


def test_a_symlink_out_of_the_folder_is_skipped_and_its_content_never_shown(tmp_path):
    outside = tmp_path / "elsewhere" / "private.sgs"
    outside.parent.mkdir()
    outside.write_text(f"{SECRET} {{\n", encoding="utf-8")  # bad text: it would be quoted in an error
    folder = folder_with(tmp_path, **{"ok.sgs": "# nothing\n"})
    (folder / "link.sgs").symlink_to(outside)
    result = invoke("check", str(folder))
    assert result.exit_code == 0, result.output
    assert result.stdout == "ok: 1 file\n"
    assert f"{folder / 'link.sgs'}: warning: not read: a symlink that leads outside {folder}" in result.stderr
    assert SECRET not in result.output and "private" not in result.output


def test_a_symlinked_folder_out_of_the_folder_is_not_searched(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "bad.sgs").write_text(f"{SECRET} {{\n", encoding="utf-8")
    folder = folder_with(tmp_path, **{"ok.sgs": "# nothing\n"})
    (folder / "shared").symlink_to(outside, target_is_directory=True)
    result = invoke("check", str(folder))
    assert result.exit_code == 0, result.output
    assert f"{folder / 'shared'}: warning: not read: a symlink that leads outside {folder}" in result.stderr
    assert SECRET not in result.output


def test_a_symlink_inside_the_folder_is_read_once(tmp_path):
    folder = folder_with(tmp_path, **{"card.sgs": CARD})
    (folder / "again.sgs").symlink_to(folder / "card.sgs")
    (folder / "sub").mkdir()
    (folder / "sub" / "up.sgs").symlink_to(folder / "card.sgs")
    result = invoke("check", str(folder), str(folder / "card.sgs"))
    assert result.exit_code == 0, result.output  # no "duplicate card": one file, read once
    assert result.stdout == "ok: 1 file\n" and result.stderr == ""


def test_a_broken_symlink_is_skipped_with_a_warning(tmp_path):
    folder = folder_with(tmp_path, **{"ok.sgs": "# nothing\n"})
    (folder / "gone.sgs").symlink_to(folder / "nowhere.sgs")
    (folder / "loop.sgs").symlink_to(folder / "loop.sgs")
    result = invoke("check", str(folder))
    assert result.exit_code == 0, result.output
    assert f"{folder / 'gone.sgs'}: warning: not read: a broken symlink" in result.stderr
    assert f"{folder / 'loop.sgs'}: warning: not read: a broken symlink" in result.stderr


# --- output that cannot be written -------------------------------------------------------------


def _no_games(monkeypatch) -> None:
    import sgs_dsl.sim.batch

    def refuse(*_args, **_kwargs):
        raise AssertionError("the games ran before the output was checked")

    monkeypatch.setattr(sgs_dsl.sim.batch, "run_batch", refuse)


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("missing/out.json", "the folder '{tmp}/missing' does not exist"),
        ("afile/out.json", "'{tmp}/afile' is not a folder"),
        ("folder", "is a directory"),
        ("", "cannot write '.': it is a folder"),
    ],
)
def test_an_unwritable_json_path_fails_before_the_games(tmp_path, monkeypatch, where, message):
    (tmp_path / "afile").write_text("", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    _no_games(monkeypatch)
    result = invoke("simulate", "-q", "-g", "1", "--json", str(tmp_path / where) if where else "")
    assert_fails(result, 2)
    assert "'--json'" in result.stderr
    assert message.format(tmp=tmp_path) in result.stderr


def test_a_read_only_json_path_fails_before_the_games(tmp_path, monkeypatch):
    out = tmp_path / "out.json"
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: False if str(path) == str(tmp_path) else real_access(path, mode))
    _no_games(monkeypatch)
    result = invoke("simulate", "-q", "-g", "1", "--json", str(out))
    assert_fails(result, 2)
    assert f"cannot write '{out}': permission denied" in result.stderr


def test_a_read_only_json_file_is_not_replaced(tmp_path, monkeypatch):
    out = tmp_path / "out.json"
    out.write_text("kept", encoding="utf-8")
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: real_access(path, mode) and not (
        str(path) == str(out) and mode & os.W_OK))  # as for a file of mode 0444 (the tests run as root)
    _no_games(monkeypatch)
    result = invoke("simulate", "-q", "-g", "1", "--json", str(out))
    assert_fails(result, 2)
    assert f"cannot write '{out}': permission denied" in result.stderr
    assert out.read_text(encoding="utf-8") == "kept"


def _special(kind: str, where: Path) -> Path:
    """A file of this kind at `where` (a device is /dev/null itself): none is a regular file."""
    if kind == "device":
        return Path(os.devnull)
    if kind == "fifo":
        os.mkfifo(where)
    else:
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(where))
        sock.close()  # the socket file stays
    return where


KIND_NAMES = {"fifo": "a FIFO (named pipe)", "socket": "a socket", "device": "a character device"}


@pytest.mark.parametrize("kind", ["fifo", "socket", "device"])
def test_a_json_path_that_is_not_a_regular_file_is_refused_unopened(tmp_path, monkeypatch, no_hang, kind):
    path = _special(kind, tmp_path / "out.json")
    _no_games(monkeypatch)
    result = invoke("simulate", "-q", "-g", "1", "--json", str(path))
    assert_fails(result, 2)
    assert f"cannot write '{path}': it is {KIND_NAMES[kind]}, not a regular file" in result.stderr
    assert "(only regular files are written; '-' is standard output)" in result.stderr


@pytest.mark.parametrize("name", ["summary.json", "index.html", "roles.png", "compare.json", "compare.html"])
def test_a_report_file_in_out_that_is_a_fifo_or_a_folder_is_refused_first(tmp_path, monkeypatch, no_hang, name):
    out = tmp_path / "report"
    out.mkdir()
    os.mkfifo(out / name)
    _no_games(monkeypatch)
    for args in (["-q", "-g", "1"], ["--compare", str(out / name), str(out / name)]):
        result = invoke("balance", *args, "--out", str(out))
        assert_fails(result, 2)
        assert f"cannot write the report into '{out}': '{out / name}': it is a FIFO (named pipe)" in result.stderr
    (out / name).unlink()
    (out / name).mkdir()
    assert f"'{out / name}': it is a folder" in invoke("balance", "-q", "--out", str(out)).stderr


@pytest.mark.parametrize(("where", "message"), [
    ("/dev/null/x", "'/dev/null' is not a folder"),
    ("/dev/null", "it is a character device, not a folder"),
    ("{tmp}/fifo", "it is a FIFO (named pipe), not a folder"),
    ("{tmp}/afile/below", "'{tmp}/afile' is not a folder"),
])
def test_an_out_folder_that_cannot_be_made_fails_before_the_games(tmp_path, monkeypatch, no_hang, where, message):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "afile").write_text("", encoding="utf-8")
    _no_games(monkeypatch)
    out = where.format(tmp=tmp_path)
    result = invoke("balance", "-q", "-g", "1", "--out", out)
    assert_fails(result, 2)
    assert f"cannot write the report into '{out}': {message.format(tmp=tmp_path)}" in result.stderr


@pytest.mark.parametrize("option", ["--json", "--out"])
def test_a_name_too_long_is_said_to_be_that_not_standard_output(tmp_path, monkeypatch, option):
    long = tmp_path / ("a" * 300)
    _no_games(monkeypatch)
    for path in (long, long / "x.json"):
        result = invoke("simulate" if option == "--json" else "balance", "-q", option, str(path))
        assert_fails(result, 2)
        assert f"'{path}': the name is too long for the file system" in result.stderr
        assert "standard output" not in result.output


def test_a_file_error_while_options_are_checked_names_the_file_not_standard_output(tmp_path, monkeypatch):
    def unreadable_folder(path):
        raise PermissionError(errno.EACCES, "Permission denied", str(tmp_path / "locked"))

    monkeypatch.setattr(cli, "output_file_problem", unreadable_folder)
    _no_games(monkeypatch)
    result = invoke("simulate", "-q", "--json", str(tmp_path / "locked" / "out.json"))
    assert_fails(result, cli.EXIT_IO)
    assert result.stderr == f"error: {tmp_path / 'locked'}: permission denied\n"


def test_a_json_file_that_fails_on_write_names_it_and_is_left_as_it_was(tmp_path, monkeypatch):
    out = tmp_path / "out.json"
    out.write_text("the old report\n", encoding="utf-8")
    real_replace = os.replace

    def disk_full(src, dst, *args, **kwargs):
        if str(dst) == str(out):  # the whole text is written; the rename into place fails
            raise OSError(errno.ENOSPC, "No space left on device", str(src))
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", disk_full)
    result = invoke("simulate", "-q", "-g", "1", "--json", str(out))
    assert_fails(result, cli.EXIT_IO)
    assert f"error: cannot write {out}: no space left on device" in result.stderr
    assert "standard output" not in result.stderr
    assert out.read_text(encoding="utf-8") == "the old report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]  # no temporary file left


def test_the_json_file_is_written_through_a_symlink_and_the_link_kept(tmp_path):
    (tmp_path / "real.json").write_text("old", encoding="utf-8")
    (tmp_path / "link.json").symlink_to("real.json")
    result = invoke("simulate", "-q", "-g", "1", "--json", str(tmp_path / "link.json"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "link.json").is_symlink()
    assert json.loads((tmp_path / "real.json").read_text(encoding="utf-8"))["games"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]


def _sgs(*args: str, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout: float = 30,
         closed: tuple[int, ...] = ()) -> subprocess.CompletedProcess:
    """`sgs ARGS` in a new process, failing (not hanging) the test past `timeout`; `closed`
    are descriptors the process starts without (0 stdin, 1 stdout)."""
    def close() -> None:
        for fd in closed:
            os.close(fd)

    return subprocess.run([sys.executable, "-m", "sgs_dsl.cli", *args], stdin=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=timeout, check=False, preexec_fn=close)


def test_a_fifo_as_json_path_is_refused_by_the_command_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    done = _sgs("simulate", "-q", "-g", "1", "--json", str(tmp_path / "fifo"), timeout=30)
    assert done.returncode == 2
    assert "it is a FIFO (named pipe), not a regular file" in done.stderr


@pytest.mark.parametrize("args", [["simulate", "-q", "-g", "100000", "--json", "-"], ["cards"], ["--help"],
                                  ["play", "--seed", "1"]])
def test_a_closed_stdout_is_an_io_error_before_any_work(args):
    done = _sgs(*args, stdout=None, closed=(1,), timeout=30)  # 100,000 games would take far longer
    assert done.returncode == cli.EXIT_IO
    assert done.stderr == "error: cannot write to standard output: it is closed\n"


def test_a_stdout_open_only_for_reading_is_an_io_error():
    with open(os.devnull, "rb") as read_only:
        done = _sgs("simulate", "-q", "-g", "100000", "--json", "-", stdout=read_only)
    assert done.returncode == cli.EXIT_IO
    assert done.stderr == "error: cannot write to standard output: it is open for reading only\n"


@pytest.mark.parametrize("args", [["cards", "--json"], ["run", "--seed", "1"], ["--help"], ["check", "--help"]])
def test_a_failing_stdout_is_one_line_and_an_io_status(args):
    with open("/dev/full", "w") as full:
        done = _sgs(*args, stdout=full, stdin=None)
    assert done.returncode == cli.EXIT_IO
    assert done.stderr == "error: cannot write to standard output: no space left on device\n"


#: Each command that prints to stdout, with arguments that make it print. (`sgs serve` prints
#: only to stderr and `sgs lsp` talks its protocol over stdout: a reader gone ends them too.)
PRINTING = {"run": ["--seed", "1"], "simulate": ["-g", "2", "-p", "4"], "explain": ["奸雄"], "cards": [], "heroes": [],
            "rulesets": [], "modes": [], "windows": [], "ruling": ["tests/rulings/basic_cards.ruling"],
            "check": ["cards"], "text": ["--skill", "奸雄"], "fmt": ["--check", "cards"], "play": ["-p", "4"],
            "balance": ["-g", "2", "-p", "4", "--agents", "random", "--out", "{tmp}"]}


def test_every_printing_command_is_listed_for_the_closed_pipe():
    assert set(PRINTING) == set(cli.main.commands) - {"serve", "lsp"}


@pytest.mark.parametrize("command", sorted(PRINTING))
def test_a_closed_pipe_ends_every_command_quietly_with_status_1(command, tmp_path):
    read_end, write_end = os.pipe()
    os.close(read_end)
    args = [a.replace("{tmp}", str(tmp_path / "report")) for a in PRINTING[command]]
    with os.fdopen(write_end, "w") as pipe:
        done = _sgs(command, *args, stdout=pipe, timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stderr == ""


def test_other_os_errors_are_io_errors_not_internal_ones(monkeypatch):
    def broken_disk(*_args, **_kwargs):
        raise OSError(errno.EIO, "Input/output error", "cards/standard.sgs")

    monkeypatch.setattr(cli, "_load_library", broken_disk)
    result = invoke("cards")
    assert_fails(result, cli.EXIT_IO)
    assert result.stderr == "error: cards/standard.sgs: input/output error\n"


# --- terminal control characters -----------------------------------------------------------------


def test_printable_escapes_controls_and_bidi_but_not_text():
    assert printable("a\x1b[2Jb") == "a\\u001b[2Jb"
    assert printable("\u202eabc\u2066\u200f") == "\\u202eabc\\u2066\\u200f"
    assert printable("x\ty\nz\r\x9b\x7f") == "x\\ty\\nz\\r\\u009b\\u007f"
    assert printable("x\ty\nz\r", lines=True) == "x\ty\nz\\r"
    assert printable("line\u2028para\u2029") == "line\\u2028para\\u2029"
    assert printable("caf\udce9") == "caf\\udce9"  # an undecodable byte of a file name
    text = "奸雄：♠A 殺 ①"
    assert printable(text) == text
    assert printable(printable(ESC_TITLE)) == printable(ESC_TITLE)


def test_printed_json_stays_valid_and_equal():
    data = {"title": ESC_TITLE + "\x85\udcff"}
    text = cli._json(data)
    assert "\u202e" not in text and "\x85" not in text
    assert json.loads(text) == data


def test_titles_are_escaped_in_tables_and_json(tmp_path):
    evil = tmp_path / "evil.sgs"
    evil.write_text(f'ruleset evil "{ESC_TITLE}" {{\n  mode identity;\n  decks standard, ex;\n}}\n', encoding="utf-8")
    table = invoke("rulesets", "-L", str(evil))
    assert table.exit_code == 0, table.output
    assert "T\\u001b[31mX\\u202eY" in table.stdout
    assert "\x1b" not in table.output and "\u202e" not in table.output
    listed = invoke("rulesets", "-L", str(evil), "--json")
    assert "\x1b" not in listed.stdout and "\u202e" not in listed.stdout
    assert {"evil": ESC_TITLE} == {r["name"]: r["title"] for r in json.loads(listed.stdout) if r["name"] == "evil"}


def test_skill_text_is_escaped_in_explain(tmp_path):
    card = tmp_path / "card.sgs"
    card.write_text(CARD.replace("你摸一張牌。", "你摸\x1b]0;pwned\x07一張牌。"), encoding="utf-8")
    result = invoke("explain", "-L", str(card), "ceshi_pai")
    assert result.exit_code == 0, result.output
    assert "你摸\\u001b]0;pwned\\u0007一張牌。" in result.stdout
    assert "\x1b" not in result.output and "\x07" not in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["explain", "\x1b[2J"],
        ["cards", "--ruleset", "\x1b[2J"],
        ["ruling", str(EXAMPLE_RULINGS), "--name", "\x1b[2J"],
        ["simulate", "--json", "\x1b[2J/out.json"],
    ],
)
def test_arguments_quoted_in_errors_are_escaped(args):
    result = invoke(*args)
    assert_fails(result, 2)
    assert "'\\u001b[2J'" in result.stderr and "\x1b" not in result.output


def test_ruling_titles_and_sources_are_escaped(tmp_path):
    text = EXAMPLE_RULINGS.read_text(encoding="utf-8")
    first = text[text.index('ruling "'):text.index("\nruling ", text.index('ruling "') + 1)]
    first = first.replace('"殺被閃抵消"', f'"{ESC_TITLE}"').replace('source "seed', 'source "\u202eseed')
    path = tmp_path / "evil.ruling"
    path.write_text(first, encoding="utf-8")
    result = invoke("ruling", str(path))
    assert result.exit_code == 0, result.output
    assert "== T\\u001b[31mX\\u202eY ==" in result.stdout
    assert "source: \\u202eseed 000" in result.stdout
    assert "\x1b" not in result.output and "\u202e" not in result.output


def test_ruling_report_escapes_newlines_in_a_title():
    ruling = SimpleNamespace(title="a\nb", source="")
    report = cli.ruling_report(ruling, SimpleNamespace(trace=[], failures=[]))
    assert report[:2] == ["== a\\nb ==", "source: (none)"]


# --- tables that cannot be seated, games that end in an error -----------------------------------


def _few(tmp_path: Path, text: str = FEW_HEROES) -> Path:
    path = tmp_path / "few.sgs"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["run", "simulate"])
def test_too_few_heroes_is_an_error_at_the_ruleset(tmp_path, command):
    path = _few(tmp_path)
    result = invoke(command, "-q" if command == "simulate" else "--seed=1", "-L", str(path), "-r", "few", "-p", "3")
    assert_fails(result, 1)
    assert f"{path}:5:1: error: ruleset 'few' has 2 heroes for 3 players: every seat needs a hero of its own" in result.stderr
    assert '     5 | ruleset few "兩位武將" {' in result.stderr
    assert "hint: add a hero package to its `heroes`, or play with --players 2 or fewer" in result.stderr
    assert invoke(command, "-q" if command == "simulate" else "--seed=1", "-g" if command == "simulate" else "--max-turns",
                  "1", "-L", str(path), "-r", "few", "-p", "2").exit_code == 0


UNPAIRED = """# six 國戰 generals: 魏 and 蜀 make two pairs of one kingdom, 吳 and 群 none
general 測甲 ce_jia { kingdom 魏; gender male; hp_half 4; }
general 測乙 ce_yi { kingdom 魏; gender male; hp_half 4; }
general 測丙 ce_bing { kingdom 蜀; gender male; hp_half 4; }
general 測丁 ce_ding { kingdom 吳; gender male; hp_half 4; }
general 測戊 ce_wu { kingdom 群; gender male; hp_half 4; }
general 測己 ce_ji { kingdom 蜀; gender female; hp_half 4; }
ruleset unpaired "少量武將" { mode hegemony; decks hegemony; heroes few; }
"""


@pytest.mark.parametrize("command", ["run", "simulate"])
def test_generals_that_cannot_pair_every_seat_are_an_error_at_the_ruleset(tmp_path, command):
    # six generals are enough cards for three seats, but only two seats can hold two of one kingdom
    path = _few(tmp_path, UNPAIRED)
    result = invoke(command, "-q" if command == "simulate" else "--seed=1", "-L", str(path), "-r", "unpaired", "-p", "3")
    assert_fails(result, 1)
    assert (f"{path}:8:1: error: ruleset 'unpaired' has generals for 2 pairs of one kingdom, for 3 players: "
            "every seat needs two generals of one kingdom") in result.stderr
    assert "hint: add generals of a kingdom to its `heroes`, or play with --players 2 or fewer" in result.stderr


def test_one_hero_is_too_few_for_any_table(tmp_path):
    path = _few(tmp_path, FEW_HEROES.replace("hero 測乙 ceshi_yi { kingdom 蜀; hp 4; }\n", ""))
    result = invoke("run", "-L", str(path), "-r", "few", "-p", "2")
    assert_fails(result, 1)
    assert "ruleset 'few' has 1 hero for 2 players" in result.stderr
    assert "hint: add a hero package to its `heroes`\n" in result.stderr


def _flaky_games(monkeypatch, failing: set[int]) -> None:
    """The games of these indices end in an engine error."""
    import attrs

    import sgs_dsl.sim.batch

    real = sgs_dsl.sim.batch.play_one

    def flaky(library, ruleset, players, root_seed, index, *args, **kwargs):
        record = real(library, ruleset, players, root_seed, index, *args, **kwargs)
        return attrs.evolve(record, error="ZeroDivisionError: engine bug") if index in failing else record

    monkeypatch.setattr(sgs_dsl.sim.batch, "play_one", flaky)


def test_simulate_exits_1_and_says_how_many_games_failed(tmp_path, monkeypatch):
    _flaky_games(monkeypatch, {0, 2})
    out = tmp_path / "out.json"
    result = invoke("simulate", "-q", "-g", "3", "-s", "7", "--json", str(out))
    assert_fails(result, 1)
    assert "error: 2 of 3 games ended in an error" in result.stderr
    assert "errors: 2," in result.stdout
    assert json.loads(out.read_text(encoding="utf-8"))["errors"] == 2
    dash = invoke("simulate", "-q", "-g", "3", "-s", "7", "--json", "-")
    assert dash.exit_code == 1, dash.output
    assert json.loads(dash.stdout)["errors"] == 2 and "error: 2 of 3 games" in dash.stderr


def _ended_badly(monkeypatch, **fields):
    import sgs_dsl.game

    real = sgs_dsl.game.play_game

    def broken(*args, **kwargs):
        result = real(*args, **kwargs)
        for name, value in fields.items():
            setattr(result, name, value)
        return result

    monkeypatch.setattr(sgs_dsl.game, "play_game", broken)


@pytest.mark.parametrize(
    ("fields", "shown"),
    [
        ({"error": "rules error: a card left every zone"}, "rules error: a card left every zone"),
        ({"violations": ["card count changed"]}, "invariant violated: card count changed"),
    ],
)
def test_run_that_ends_in_an_error_prints_no_winner(monkeypatch, fields, shown):
    _ended_badly(monkeypatch, **fields)
    result = invoke("run", "--seed", "1")
    assert_fails(result, 1)
    assert not [line for line in result.output.splitlines() if line.startswith("winner:")]
    assert "error: the game stopped on an error, so it has no winner:" in result.stderr
    assert shown in result.stderr
    assert result.stdout.startswith("# ruleset ")  # the log up to the error is still printed


def test_simulate_game_timeout_cuts_games_off_and_reports_them(tmp_path):
    out = tmp_path / "report.json"
    result = invoke("simulate", "--games", "3", "--seed", "1", "--game-timeout", "1e-9", "--json", str(out), "-q")
    assert result.exit_code == 0, result.output
    assert "timed out: 3" in result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["timed_out"] == 3 and report["errors"] == 0
    generous = invoke("simulate", "--games", "3", "--seed", "1", "--game-timeout", "600", "-q")
    plain = invoke("simulate", "--games", "3", "--seed", "1", "-q")
    assert "timed out: 0" in generous.output
    strip = lambda text: [line for line in text.splitlines() if not line.startswith("time:")]  # noqa: E731
    assert strip(generous.output) == strip(plain.output)


def test_simulate_game_timeout_must_be_positive():
    result = invoke("simulate", "--games", "1", "--game-timeout", "0")
    assert result.exit_code == 2 and "--game-timeout" in result.output


# --- sgs balance --compare on files that are not reports -------------------------------------------

REPORT = {"ruleset": "standard", "players": 5, "games": 4, "seed": 0, "valid_games": 4,
          "wins_by_side": {"lord": {"wins": 3}, "rebel": {"wins": 1}}, "turns": {"mean": 38.5},
          "wins_by_hero": {"曹操": {"games": 2, "wins": 1}},
          "agents": {"spec": {"all": "random", "roles": {}, "seats": {}}, "wins": {"random": {"seats": 20, "wins": 8}}},
          "balance": {"roles": {"lord": {"games": 4, "wins": 3}}}}


def _changed(change) -> str:
    report = json.loads(json.dumps(REPORT))
    change(report)
    return json.dumps(report, ensure_ascii=False)


def _set(*keys_and_value):
    *keys, last, value = keys_and_value

    def change(report):
        for key in keys:
            report = report[key]
        report[last] = value
    return change


def _drop(*keys):
    def change(report):
        for key in keys[:-1]:
            report = report[key]
        del report[keys[-1]]
    return change


# (file text, what the error says is wrong); a file is bytes, a folder, or text
MALFORMED = {
    "empty": ("", "is not JSON: Expecting value at line 1, column 1"),
    "not-json": ("winner: lord", "is not JSON: Expecting value at line 1, column 1"),
    "truncated": (json.dumps(REPORT)[:-20], "is not JSON:"),
    "binary": (bytes(range(256)), "is not UTF-8 text (byte 0x80 at offset 128)"),
    "a-list": ("[1, 2]", "the report should be a JSON object, not a list"),
    "a-number": ("5", "the report should be a JSON object, not 5"),
    "deep-list": ("[" * 100_000 + "]" * 100_000, "its JSON is nested too deeply"),
    "deep-object": ('{"a":' * 100_000 + "1" + "}" * 100_000, "its JSON is nested too deeply"),
    "nan": (json.dumps({**REPORT, "turns": {"mean": float("nan")}}), "it holds NaN"),
    "infinity": (json.dumps({**REPORT, "turns": {"mean": float("inf")}}), "it holds Infinity"),
    "huge-float": (json.dumps(REPORT).replace("38.5", "1e999"), "the number 1e999, too large to be a float"),
    "huge-int": (json.dumps(REPORT).replace('"games": 4,', '"games": ' + "9" * 5000 + ","),
                 "a number of 5,000 digits"),
    "no-turns": (_changed(_drop("turns")), "it has no `turns`"),
    "no-ruleset": (_changed(_drop("ruleset")), "it has no `ruleset`"),
    "no-wins-by-side": (_changed(_drop("wins_by_side")), "it has no `wins_by_side`"),
    "wins-by-side-a-list": (_changed(_set("wins_by_side", [])), "`wins_by_side` should be a JSON object, not a list"),
    "side-a-number": (_changed(_set("wins_by_side", "lord", 3)), "`wins_by_side.lord` should be a JSON object, not 3"),
    "wins-a-string": (_changed(_set("wins_by_side", "lord", "wins", "three")),
                      '`wins_by_side.lord.wins` should be a whole number from 0 to 4 (its valid_games), not "three"'),
    "wins-negative": (_changed(_set("wins_by_side", "lord", "wins", -3)), "from 0 to 4 (its valid_games), not -3"),
    "wins-above-games": (_changed(_set("wins_by_side", "lord", "wins", 99)), "from 0 to 4 (its valid_games), not 99"),
    "wins-a-fraction": (_changed(_set("wins_by_side", "lord", "wins", 1.5)), "not 1.5"),
    "valid-a-string": (_changed(_set("valid_games", "x")), '`valid_games` should be a whole number from 0 to 4'),
    "valid-a-bool": (_changed(_set("valid_games", True)), "(its games), not true"),
    "valid-above-games": (_changed(_set("valid_games", 5)), "(its games), not 5"),
    "players-a-list": (_changed(_set("players", [5])), "`players` should be a whole number"),
    "turns-a-string": (_changed(_set("turns", "mean", "x")), '`turns.mean` should be a number'),
    "hero-games-null": (_changed(_set("wins_by_hero", "曹操", "games", None)),
                        "`wins_by_hero.曹操.games` should be a whole number"),
    "agent-no-seats": (_changed(_drop("agents", "wins", "random", "seats")), "it has no `agents.wins.random.seats`"),
    "agent-spec-wrong": (_changed(_set("agents", "spec", "all", 3)), "`agents.spec.all` should be a string, not 3"),
    "role-wins-above": (_changed(_set("balance", "roles", "lord", "wins", 7)),
                        "`balance.roles.lord.wins` should be a whole number from 0 to 4 (its games), not 7"),
    "balance-a-string": (_changed(_set("balance", "x")), '`balance` should be a JSON object, not "x"'),
    "folder": (None, "cannot read {path}: it is a folder, not a regular file"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_compare_of_a_malformed_report_is_one_error_naming_file_and_fault(tmp_path, no_hang, name):
    text, fault = MALFORMED[name]
    good, bad = tmp_path / "good.json", tmp_path / f"{name}.json"
    good.write_text(json.dumps(REPORT, ensure_ascii=False), encoding="utf-8")
    if text is None:
        bad.mkdir()
    elif isinstance(text, bytes):
        bad.write_bytes(text)
    else:
        bad.write_text(text, encoding="utf-8")
    for pair in ((good, bad), (bad, good)):
        result = invoke("balance", "--compare", *map(str, pair))
        assert_fails(result, 1)
        error, hint = result.stderr.splitlines()
        assert error.startswith(f"error: {bad}") or error.startswith(f"error: cannot read {bad}")
        assert fault.format(path=bad) in error
        assert len(error) < 300 and hint.startswith("hint: give two files written by `sgs balance`")
        assert result.stdout == ""


def test_a_compare_file_that_does_not_exist_is_a_usage_error():
    result = invoke("balance", "--compare", *[str(HERE / "missing.json")] * 2)
    assert_fails(result, 2)
    assert "does not exist" in result.stderr


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_compare_never_opens_a_fifo_or_a_device(tmp_path, kind):
    path = _special(kind, tmp_path / "run.json") if kind == "fifo" else Path("/dev/zero")
    done = _sgs("balance", "--compare", str(path), str(path), timeout=30)
    assert done.returncode == 1
    named = "a FIFO (named pipe)" if kind == "fifo" else "a character device"
    assert done.stderr.splitlines()[0] == f"error: cannot read {path}: it is {named}, not a regular file"


def test_compare_of_a_report_too_large_is_refused_unread(tmp_path, monkeypatch):
    import sgs_dsl.sim.compare

    monkeypatch.setattr(sgs_dsl.sim.compare, "MAX_REPORT_BYTES", 100)
    path = tmp_path / "big.json"
    path.write_text(json.dumps(REPORT), encoding="utf-8")
    result = invoke("balance", "--compare", str(path), str(path))
    assert_fails(result, 1)
    assert f"error: cannot read {path}: it is larger than 100 bytes" in result.stderr


def test_a_valid_minimal_report_compares(tmp_path):
    path = tmp_path / "run.json"
    path.write_text(json.dumps(REPORT, ensure_ascii=False), encoding="utf-8")
    result = invoke("balance", "--compare", str(path), str(path))
    assert result.exit_code == 0, result.output
    assert "  lord" in result.stdout and "mean turns: A 38.5, B 38.5, difference +0.0" in result.stdout


# --- input paths that cannot be looked at ---------------------------------------------------------


@pytest.mark.parametrize("command", [["check"], ["cards", "-L"], ["ruling"], ["balance", "--compare", "x.json"]])
def test_an_input_path_too_long_or_looping_says_so_not_does_not_exist(tmp_path, command):
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    for path, why in ((tmp_path / ("a" * 300), "the name is too long for the file system"),
                      (tmp_path / "loop1", "too many levels of symbolic links")):
        args = [*command, str(path)] if command[0] != "balance" else ["balance", "--compare", str(path), str(path)]
        result = invoke(*args)
        assert_fails(result, 2)
        assert f"cannot look at '{path}': {why}" in result.stderr
        assert "does not exist" not in result.stderr
