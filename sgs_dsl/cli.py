"""The ``sgs`` command line: check, run, simulate, and look at cards, rulesets and windows.

Start-up is kept fast: only click is imported here; the parser, the compiler and the
engine are imported inside the commands that need them.

Everything the commands print goes through ``_out`` / ``_err``, which escape terminal
control characters and bidi overrides (``textsafe.printable``): names, titles and strings
come from files and arguments the user may not have written.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from sgs_dsl import build
from sgs_dsl.extras import install_hint
from sgs_dsl.files import (
    file_kind,
    output_file_problem,
    output_folder_problem,
    path_error,
    reason,
    write_atomic,
)
from sgs_dsl.scripts import DEFAULT as DEFAULT_SCRIPT
from sgs_dsl.scripts import SCRIPTS, ScriptStream, data_in_script, to_script
from sgs_dsl.tables import format_table
from sgs_dsl.textsafe import printable

#: Exit status for an unexpected exception (EX_SOFTWARE in sysexits.h).
EXIT_INTERNAL = 70
#: Players when `--players` is left out (and the ruleset's mode seats that many).
DEFAULT_PLAYERS = 5
#: Exit status when output cannot be written: stdout, the --json file (EX_IOERR).
EXIT_IO = 74
#: Exit status when the Ray cluster named cannot be reached or used (EX_UNAVAILABLE).
EXIT_UNAVAILABLE = 69

WINNER_TEXT = {
    "lord": "the lord and the loyalists win",
    "rebel": "the rebels win",
    "renegade": "the renegade wins",
    "draw": "nobody wins",
}


# --- output -----------------------------------------------------------------------------------


class OutputError(click.ClickException):
    """Output that could not be written (stdout, a report file): one line, exit status 74."""

    exit_code = EXIT_IO

    def show(self, file: Any = None) -> None:
        _err(f"error: {self.format_message()}")


def _silence_stdout() -> None:
    """Point a failed stdout at /dev/null, so the interpreter's last flush at exit does not
    fail again (and print 'Exception ignored ...')."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # no real file behind it (a test runner's buffer)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _stdout_failed(error: OSError) -> OutputError:
    _silence_stdout()
    return OutputError(f"cannot write to standard output: {reason(error)}")


def _stdout_problem() -> str:
    """Why nothing can be written to stdout, '' when it looks writable: it is closed (the
    command started with no file descriptor 1, ``>&-``) or open for reading only."""
    if sys.stdout is None:  # Python found no descriptor 1 at start-up
        return "it is closed"
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # no real file behind it (a test runner's buffer)
        return ""
    try:
        import fcntl

        mode = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE
    except ImportError:  # not a POSIX system: left to the first write
        return ""
    except OSError:
        return "it is closed"
    return "it is open for reading only" if mode == os.O_RDONLY else ""


def _check_stdout() -> None:
    """Every command writes to stdout: one that cannot is an I/O error (74) before any work,
    not a run that ends with exit status 0 having written nothing."""
    problem = _stdout_problem()
    if problem:
        raise OutputError(f"cannot write to standard output: {problem}")


#: The script stdout is written in (`--script`, SGS_SCRIPT; sgs_dsl/scripts.py): set per command.
_script = {"now": "hant"}
#: Commands whose output is source text or about it, never converted: it must read as the file does.
_SOURCE_COMMANDS = frozenset({"fmt", "check", "lsp", "serve"})


def _out(text: str = "", *, nl: bool = True) -> None:
    """Print to stdout, escaped, in the script asked for. A closed pipe (``| head``) is left to
    click: exit 1, quietly."""
    try:
        click.echo(printable(to_script(text, _script["now"]), lines=True), nl=nl)
    except BrokenPipeError:
        raise
    except OSError as error:
        raise _stdout_failed(error) from None


def _err(text: str) -> None:
    """Print to stderr, escaped; when stderr itself fails there is nowhere left to say so."""
    try:
        click.echo(printable(text, lines=True), err=True)
    except OSError:
        pass


def _json(data: Any) -> str:
    """Indented JSON; characters a terminal would act on are \\u escapes (still valid JSON)."""
    import json

    return printable(json.dumps(data, ensure_ascii=False, indent=2), lines=True)


def _write_report(path: Path, text: str) -> None:
    """Write an output file whole or not at all (files.write_atomic); OutputError (74) naming
    the file when that fails."""
    try:
        write_atomic(path, text.encode("utf-8"))
    except OSError as error:
        raise OutputError(f"cannot write {printable(str(path))}: {path_error(error)}") from None


def _writable_output(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """A --json FILE that cannot be written is a usage error before any game is played: a
    FIFO, socket or device there is refused without being opened (so it cannot block)."""
    if value is None or str(value) == "-":
        return value
    problem = output_file_problem(value)
    if problem.endswith("not a regular file"):
        problem += " (only regular files are written; '-' is standard output)"
    if problem:
        raise click.BadParameter(f"cannot write '{value}': {problem}", ctx, param)
    return value


# --- error handling -----------------------------------------------------------------------


def _is_sgs_error(exc: BaseException) -> bool:
    try:
        from sgs_dsl.syntax.diagnostics import SgsError
    except Exception:  # the front end itself is broken: report as internal error
        return False
    return isinstance(exc, SgsError)


def _render_sgs_error(exc: Any) -> str:
    try:
        return exc.render()
    except Exception:
        return f"error: {exc}"


class _HelpOutput:
    """``make_context`` prints --help and --version: a stdout failing there is an I/O error.
    An OSError that names a file came from a parameter's check of that file, not stdout."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)  # type: ignore[misc]
        except BrokenPipeError:
            raise
        except OSError as error:
            if error.filename is not None:
                raise OutputError(f"{printable(str(error.filename))}: {path_error(error)}") from None
            raise _stdout_failed(error) from None


class SgsCommand(_HelpOutput, click.Command):
    """A command of ``sgs``."""


class SgsGroup(_HelpOutput, click.Group):
    """A group that turns every failure into a message and an exit status, never a traceback.

    - ``SgsError`` (bad .sgs text, a file that cannot be read): its diagnostics, exit 1;
    - click's usage errors: click's message, escaped, exit 2;
    - output that cannot be written (stdout, the --json file): one line, exit 74; other
      failures of the file system or a device: one line with the file, exit 74;
    - anything else: one line ``internal error: ...`` and a hint to report it, exit 70
      (``SGS_DEBUG=1`` prints the traceback too).
    """

    command_class = SgsCommand

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        _check_stdout()
        return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.exceptions.ClickException as exc:  # its message may quote an argument
            exc.message = printable(exc.message, lines=True)
            raise
        except (click.exceptions.Abort, click.exceptions.Exit):
            raise
        except (KeyboardInterrupt, SystemExit, BrokenPipeError):
            raise
        except OSError as exc:  # the file system or a device failed, not sgs-dsl
            where = f"{exc.filename}: " if exc.filename else ""
            _err(f"error: {where}{reason(exc)}")
            ctx.exit(EXIT_IO)
        except Exception as exc:
            if _is_sgs_error(exc):
                _err(_render_sgs_error(exc))
                ctx.exit(1)
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            _err(f"internal error: {type(exc).__name__}" + (f": {first}" if first else ""))
            if os.environ.get("SGS_DEBUG"):
                import traceback

                _err(traceback.format_exc())
            else:
                _err(
                    "This is a bug in sgs-dsl, not in your input. Please report it with the command you ran "
                    "(run again with SGS_DEBUG=1 to see the traceback)."
                )
            ctx.exit(EXIT_INTERNAL)


# --- the files commands read (docs/reliability.md, "Files and folders the CLI reads") ---------


class InputPath(click.Path):
    """click's Path of a file to read, `exists=True`: a path that cannot be looked at for
    another reason than its absence (a name too long, a symlink loop) is a usage error that
    says so, not `does not exist`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(exists=True, path_type=Path, **kwargs)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            os.stat(value)
        except (FileNotFoundError, NotADirectoryError):
            pass  # click says it does not exist
        except (OSError, ValueError) as error:  # ValueError: a NUL byte in the path
            why = path_error(error) if isinstance(error, OSError) else "it holds a NUL byte"
            self.fail(f"cannot look at '{value}': {why}", param, ctx)
        return super().convert(value, param, ctx)


def _problem(path: Path, message: str, hint: str = "") -> Any:
    from sgs_dsl.syntax.diagnostics import Diagnostic, Span

    return Diagnostic(Span(str(path), 0, 0), message, hint)


def _kind_or_problem(path: Path, problems: list[Any]) -> str | None:
    """`file_kind` (a FIFO or a device is found with stat, never opened), or None with a
    problem recorded when the file cannot be looked at."""
    try:
        return file_kind(path)
    except OSError as error:
        problems.append(_problem(path, f"cannot read {path}: {reason(error)}"))
        return None


def _named_file(path: Path, problems: list[Any]) -> Path | None:
    """A file named on the command line: read when it is a readable regular file, else a problem."""
    kind = _kind_or_problem(path, problems)
    if kind is None:
        return None
    if kind:
        problems.append(_problem(path, f"cannot read {path}: it is {kind}, not a regular file",
                                 "only regular files are read: reading a FIFO or a device could block forever"))
        return None
    return path


def _link_outside(path: Path, root: Path, folder: Path) -> str:
    """Why a symlink found in a folder is not followed: it is broken or leads outside the
    folder. '' for an entry that is not a symlink, or a link that stays inside."""
    if not path.is_symlink():
        return ""
    try:
        real = Path(os.path.realpath(path, strict=True))
    except OSError:
        return "a broken symlink"
    return "" if real.is_relative_to(root) else f"a symlink that leads outside {folder}"


def _skipped(path: Path, why: str) -> None:
    _err(f"{path}: warning: not read: {why}")


def _found_file(path: Path, root: Path, folder: Path, problems: list[Any]) -> Path | None:
    """A *.sgs entry found in a folder: read when it is a readable regular file inside the
    folder; skipped with a warning when it is another kind of file or a link out of it."""
    outside = _link_outside(path, root, folder)
    if outside:
        _skipped(path, outside)
        return None
    kind = _kind_or_problem(path, problems)
    if kind is None:
        return None
    if kind:
        _skipped(path, f"{kind}, not a regular file")
        return None
    return path


def _folder_files(folder: Path, problems: list[Any]) -> list[Path]:
    """The *.sgs files below a folder, sorted. A subfolder named x.sgs is searched like any
    other; a symlinked subfolder is not (what it links to inside the folder is found there)."""
    root = Path(os.path.realpath(folder))
    found: list[Path] = []

    def unlisted(error: OSError) -> None:
        problems.append(_problem(Path(error.filename), f"cannot read the folder {error.filename}: {reason(error)}"))

    for top, dirs, names in os.walk(folder, onerror=unlisted):
        dirs.sort()
        for name in dirs:
            outside = _link_outside(Path(top, name), root, folder)
            if outside:
                _skipped(Path(top, name), outside)
        for name in sorted(names):
            if name.endswith(".sgs"):
                path = _found_file(Path(top, name), root, folder, problems)
                if path is not None:
                    found.append(path)
    return sorted(found)


def _collect_files(paths: Sequence[Path]) -> tuple[list[Path], list[Any]]:
    """The .sgs files of some paths (a file as named, a folder searched recursively), each
    once even when named twice or linked, and the diagnostics of what cannot be read."""
    problems: list[Any] = []
    found: list[Path] = []
    for p in paths:
        if p.is_dir():
            found.extend(_folder_files(p, problems))
        else:
            path = _named_file(p, problems)
            if path is not None:
                found.append(path)
    unique: dict[str, Path] = {}
    for f in found:
        unique.setdefault(os.path.realpath(f), f)
    return list(unique.values()), problems


def _sgs_files(paths: Sequence[Path]) -> list[Path]:
    """The .sgs files of some paths; SgsError (exit 1) when one cannot be read."""
    files, problems = _collect_files(paths)
    if problems:
        from sgs_dsl.syntax.diagnostics import SgsError

        raise SgsError(problems)
    return files


# --- shared helpers --------------------------------------------------------------------------


def _library_of(files: Sequence[Path]) -> Any:
    from sgs_dsl.compiler.library import load_library

    return load_library(tuple(files))


def _load_library(extra: Sequence[Path] = ()) -> Any:
    """The built-in library plus the --library files (folders are searched for *.sgs)."""
    return _library_of(_sgs_files(extra))


def resolve_ruleset(library: Any, name: str | None) -> str:
    """``name`` if the library has it, the default ruleset for None, else a usage error."""
    if name is None:
        try:
            return library.default_ruleset
        except KeyError as none:
            raise click.UsageError(none.args[0]) from None
    rulesets = library.rulesets
    if name in rulesets:
        return name
    from sgs_dsl.syntax.diagnostics import did_you_mean

    known = sorted(rulesets)
    hint = did_you_mean(name, known)
    msg = f"unknown ruleset '{name}'" + (f"; {hint}" if hint else "") + f" Known rulesets: {', '.join(known)}."
    raise click.BadParameter(msg, param_hint="'--ruleset'")


def _player_range(ruleset: Any) -> tuple[int, int]:
    """The player counts a ruleset's mode seats."""
    from sgs_dsl.core.modes import MODE_SPECS

    return MODE_SPECS[ruleset.mode].players


def seat_count(library: Any, ruleset: str, players: int | None) -> int:
    """`--players`, or when it is left out the count the mode seats nearest 5 (a campus table
    with two renegades seats only 8)."""
    if players is not None:
        return players
    from sgs_dsl.modes import make_mode

    low, high = _player_range(library.rulesets[ruleset])
    mode = make_mode(library.rulesets[ruleset])
    for n in sorted(range(low, high + 1), key=lambda n: (abs(n - DEFAULT_PLAYERS), n)):
        try:
            mode.check_players(n)
        except ValueError:
            continue
        return n
    return min(max(DEFAULT_PLAYERS, low), high)  # no count passes: check_players says why


def check_players(library: Any, ruleset: str, players: int) -> None:
    from sgs_dsl.modes import make_mode

    rng = _player_range(library.rulesets[ruleset])
    if not rng[0] <= players <= rng[1]:
        raise click.BadParameter(
            f"ruleset '{ruleset}' is for {rng[0]} to {rng[1]} players, not {players}", param_hint="'--players'"
        )
    try:  # a mode may seat only some counts in its range (the campus games: 5 or 8)
        make_mode(library.rulesets[ruleset]).check_players(players)
    except ValueError as e:
        raise click.BadParameter(f"ruleset '{ruleset}': {e}", param_hint="'--players'") from None


def _source_line(span: Any) -> str:
    try:
        lines = Path(span.file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return ""
    return lines[span.line - 1] if 0 < span.line <= len(lines) else ""


def check_heroes(library: Any, ruleset: str, players: int) -> None:
    """Every seat needs a hero of its own: a ruleset whose hero packages have fewer heroes
    than the table has seats is an error at the ruleset's definition (exit 1)."""
    from sgs_dsl.game import ruleset_heroes
    from sgs_dsl.modes import make_mode
    from sgs_dsl.syntax.diagnostics import Diagnostic, SgsError

    rules = library.rulesets[ruleset]
    pool = ruleset_heroes(library, ruleset)
    count = len(pool)
    each = make_mode(rules).cards_per_seat
    if rules.heroes and count >= players * each and each == 2:  # 國戰: each seat holds two of one kingdom
        kingdoms: dict[str, int] = {}
        for general in pool:
            kingdoms[general.kingdom] = kingdoms.get(general.kingdom, 0) + 1
        pairs = sum(n // 2 for n in kingdoms.values())
        if pairs < players:
            fewer = f", or play with --players {pairs} or fewer" if pairs >= 2 else ""
            raise SgsError([Diagnostic(
                rules.span,
                f"ruleset '{ruleset}' has generals for {pairs} pair{'s' if pairs != 1 else ''} of one kingdom, for "
                f"{players} players: every seat needs two generals of one kingdom",
                f"add generals of a kingdom to its `heroes`{fewer}", _source_line(rules.span))])
    if not rules.heroes or count >= players * each:
        return
    heroes = f"{count} hero{'es' if count != 1 else ''}"
    fewer = f", or play with --players {count // each} or fewer" if count // each >= 2 else ""
    raise SgsError([Diagnostic(
        rules.span,
        f"ruleset '{ruleset}' has {heroes} for {players} players: every seat needs "
        + ("a hero of its own" if each == 1 else f"{each} of its own"),
        f"add a hero package to its `heroes`{fewer}",
        _source_line(rules.span),
    )])


def check_table(library: Any, ruleset: str, players: int) -> None:
    """The ruleset can seat ``players``: the count it allows (exit 2) and its heroes (exit 1)."""
    check_players(library, ruleset, players)
    check_heroes(library, ruleset, players)


def card_row(card: Any) -> dict[str, Any]:
    return {"name": card.name, "id": card.id, "suit": card.suit, "rank": int(card.rank), "type": card.type}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


# --- options shared by several commands -----------------------------------------------------

ruleset_option = click.option(
    "--ruleset", "-r", default=None, metavar="NAME", help="Ruleset to play (default: the library's default)."
)
players_option = click.option(
    "--players", "-p", type=click.IntRange(min=2), default=None,
    help="Number of players (as many as the ruleset's mode seats: identity 2-10; see `sgs modes`)  "
    "[default: 5, or the nearest count the mode seats: 3v3 6]."
)
max_turns_option = click.option(
    "--max-turns",
    type=click.IntRange(min=1),
    default=600,
    show_default=True,
    help="Turn cap; a game that reaches it is a capped draw. A ruleset's own max_turns, if smaller, wins.",
)
library_option = click.option(
    "--library",
    "-L",
    "extra",
    multiple=True,
    type=InputPath(),
    help="Extra .sgs file or folder to load with the built-in library (repeatable).",
)

#: The invariant levels (`sgs_dsl.engine.invariants.InvariantLevel`, kept out of start-up) and
#: the default one; a test holds them to the engine's.
INVARIANT_LEVELS = ("every-free-time", "turn", "off")
DEFAULT_INVARIANTS = "every-free-time"
invariants_option = click.option(
    "--invariants", type=click.Choice(INVARIANT_LEVELS), default=DEFAULT_INVARIANTS, show_default=True,
    help="How often each game's invariants are checked: at every free time (a bug is named where it happened), "
    "after each turn and at the end only (cheaper; misses what a turn undoes, such as cards left in the "
    "processing area), or off. A game that breaks one counts as an error. See docs/reliability.md.",
)



AGENT_CHOICES = ("random", "heuristic", "lookahead")  # agents.registry.AGENT_NAMES (a test holds them equal)


def _agents_option(default: str) -> Any:
    return click.option("--agents", "agents_all", default=None, metavar="NAME",
                        help="The agent of every seat: random, heuristic or lookahead, or module:Class for "
                        f"your own (docs/api.md)  [default: {default}].")


agents_option = _agents_option("random")
balance_agents_option = _agents_option("lookahead")  # agents.registry.BALANCE_AGENT (a test holds them equal)
agent_option = click.option(
    "--agent", "agent_items", multiple=True, metavar="KEY=NAME",
    help="The agent of a role (lord, loyalist, rebel, renegade; 主公 ...) or of a seat (1-based), "
    "over --agents (repeatable): --agent lord=heuristic --agent 3=random.",
)
hero_option = click.option(
    "--hero", "hero_items", multiple=True, metavar="SEAT=NAME",
    help="Put a hero on a seat (1-based) in every game, its name in either script or its id (repeatable): "
    "--hero 3=NAME. On the lord's seat it is the lord's hero; in 國戰 it is one of the seat's two "
    "generals. Nobody else is dealt it.",
)
feature_option = click.option(
    "--feature", "featured", default=None, metavar="NAME",
    help="Put this hero in every game, on a seat that turns game by game (game i: seat i mod players, "
    "over the seats --hero leaves free), the other heroes drawn as usual. The report counts its games "
    "by seat and its wins by side.",
)


def hero_placement(library: Any, ruleset: str, players: int, items: Sequence[str],
                   featured: str | None = None) -> Any:
    """The HeroPlacement of --hero/--feature for this table; a usage error (exit 2) with a hint."""
    from sgs_dsl.modes import make_mode
    from sgs_dsl.placement import PlacementError, parse_placement

    rules = library.ruleset(ruleset)
    mode = make_mode(rules)
    pool = mode.hero_pool(library, rules.heroes) if rules.heroes else []
    everyone = [*library.heroes.values(), *library.generals.values()]
    try:
        return parse_placement(items, featured, pool, players, ruleset, everyone,
                               lambda name: mode.placement_problem(pool, name))
    except PlacementError as bad:
        raise click.BadParameter(f"{bad}; {bad.hint}", param_hint=f"'{bad.option}'") from None



def _records_output(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """--records FILE: a file that can be written, checked before any game is played."""
    if value is not None and str(value) == "-":
        raise click.BadParameter("give a file to write the games into ('-' is not taken: standard output "
                                 "holds the summary)", ctx, param)
    return _writable_output(ctx, param, value)


records_option = click.option(
    "--records", "records_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
    callback=_records_output, metavar="FILE",
    help="Also write every game as one line of JSON to FILE (seed, seats with hero, role, agent and skills "
    "fired, winner, turns, error and capped flags), in game order. `sgs balance --compare` reads it back "
    "and pairs two runs' games by seed.",
)


def _write_records(path: Path | None, library: Any, name: str, players: int, seed: int, batch: Any) -> None:
    """The per-game export of a batch (sim/records.py), if --records asked for one."""
    if path is None:
        return
    from sgs_dsl.catalog import hero_skills
    from sgs_dsl.sim.records import records_text

    skills = hero_skills(library, name)
    _write_report(path, records_text(batch.records, ruleset=name, mode=library.ruleset(name).mode, players=players,
                                     root_seed=seed, hero_skills=skills))


def _batch_table(extra: tuple[Path, ...], ruleset: str | None, players: int | None, agents_all: str | None,
                 agent_items: Sequence[str]) -> tuple[list[Path], Any, str, int, Any]:
    """What a batch command plays: the extra files, the library, the ruleset's name, the
    player count and the agent spec, each checked (usage errors exit 2)."""
    files = _sgs_files(extra)
    library = _library_of(files)
    name = resolve_ruleset(library, ruleset)
    players = seat_count(library, name, players)
    check_table(library, name, players)
    return files, library, name, players, agent_spec(library, name, players, agents_all, agent_items)


def agent_spec(library: Any, ruleset: str, players: int, default: str | None, items: Sequence[str]) -> Any:
    """The AgentSpec of --agents/--agent for this table; a usage error (exit 2) with a hint."""
    from sgs_dsl.agents.registry import SpecError, parse_spec, roles_dealt
    from sgs_dsl.modes import make_mode

    rules = library.ruleset(ruleset)
    try:
        return parse_spec(default, items, roles_dealt(make_mode(rules), players, bool(rules.heroes)))
    except SpecError as bad:
        raise click.UsageError(f"{bad}; {bad.hint}") from None


# --- commands ---------------------------------------------------------------------------------


@click.group(cls=SgsGroup, context_settings={"help_option_names": ["-h", "--help"]})
# the build too: pure Python, or compiled with mypyc (SGS_COMPILE=1, docs/performance.md)
@click.version_option(package_name="sgs-dsl", prog_name="sgs", message=f"%(prog)s, version %(version)s ({build()})")
@click.option("--script", type=click.Choice(SCRIPTS), default=DEFAULT_SCRIPT, envvar="SGS_SCRIPT", show_default=True,
              show_envvar=True, help="The script of what commands print: hant Traditional (繁體, the library's), "
              "hans Simplified (简体). Input is read in either; rulings and .sgs text keep their own.")
@click.pass_context
def main(ctx: click.Context, script: str) -> None:
    """sgs-dsl: the Sanguosha rules language and engine.

    \b
    Examples:
      sgs check my_heroes.sgs          check .sgs text, errors with file:line:col
      sgs run --seed 3                 play one game and print its log
      sgs simulate -p 8 -g 1000 -j 4   win rates by role over many games
      sgs cards --json                 the deck of a ruleset as JSON
      sgs ruling my.ruling             run rulings and print their traces

    \b
    Exit status: 0 all is well; 1 bad .sgs or .ruling input, a file that
    cannot be read, a --compare file that is not a report, a game that ended
    in an error, a ruling that fails, or the input of `sgs play` ending before
    its game; 2 a usage error; 69 a Ray cluster that cannot be reached or used;
    74 output that cannot be written; 130 `sgs play` stopped by Ctrl-C; 70 a
    bug in sgs-dsl.
    """
    _script["now"] = DEFAULT_SCRIPT if ctx.invoked_subcommand in _SOURCE_COMMANDS else script


@main.command()
@click.argument("paths", nargs=-1, required=True, type=InputPath())
def check(paths: tuple[Path, ...]) -> None:
    """Check .sgs files or folders (searched recursively for *.sgs)."""
    from sgs_dsl.compiler.library import check_paths

    files, unreadable = _collect_files(paths)
    diagnostics = unreadable + list(check_paths(files, warnings=True))
    errors = [d for d in diagnostics if getattr(d, "severity", "error") == "error"]
    for d in diagnostics:
        _err(d.render())
        _err("")
    if errors:
        _err(f"{_plural(len(errors), 'error')} in {_plural(len(files) + len(unreadable), 'file')}")
        sys.exit(1)
    _out(f"ok: {_plural(len(files), 'file')}")


def _session_file(ctx: click.Context, param: click.Parameter, value: Path | None) -> Any:
    """--answers FILE: a session file (sgs_dsl/sessions.py), read and checked."""
    if value is None:
        return None
    from sgs_dsl.sessions import SessionError, loads

    try:
        return loads(value.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise click.BadParameter(f"cannot read {value}: {getattr(error, 'strerror', None) or error}", ctx, param) from None
    except SessionError as error:
        raise click.BadParameter(f"{value}: {error}", ctx, param) from None


@main.command()
@ruleset_option
@players_option
@click.option("--seed", "-s", type=int, default=None, help="Game seed (default: a random one, printed).")
@max_turns_option
@library_option
@invariants_option
@hero_option
@agents_option
@agent_option
@click.option("--answers", "session", type=InputPath(dir_okay=False), default=None, callback=_session_file,
              metavar="FILE", help="Play again a game saved by `sgs play --save` or `sgs serve` (its ruleset, "
              "players, seed and agents), the person's seat answered as they answered it.")
def run(ruleset: str | None, players: int | None, seed: int | None, max_turns: int, extra: tuple[Path, ...],
        invariants: str, hero_items: tuple[str, ...], agents_all: str | None, agent_items: tuple[str, ...],
        session: Any) -> None:
    """Play one game (random agents unless told) and print its log.

    \b
    Exit status: 0 when the game ends with a winner (or a draw), or when the
    answers of --answers end before it does (a game left); 1 when it stops on an
    error: the error is printed and there is no winner.
    """
    library = _load_library(extra)
    if session is not None:
        _run_session(library, session, ruleset, players, seed, hero_items, agents_all, agent_items)
        return
    name = resolve_ruleset(library, ruleset)
    players = seat_count(library, name, players)
    check_table(library, name, players)
    placed = hero_placement(library, name, players, hero_items).for_game(0, players)
    spec = agent_spec(library, name, players, agents_all, agent_items)
    if seed is None:
        import secrets

        seed = secrets.randbelow(2**31)
    from sgs_dsl.agents.registry import SeatAgents
    from sgs_dsl.game import play_game, turn_cap

    result = play_game(library, name, players, seed, log=True, max_turns=max_turns, invariants=invariants,
                       placed=placed, agent_factory=SeatAgents(spec))
    _out(f"# ruleset {name}, {players} players, seed {seed}")
    for line in result.log:
        _out(line)
    _game_end(result, turn_cap(library, name, max_turns), sides=False)


def _run_session(library: Any, session: Any, *given: Any) -> None:
    """`sgs run --answers FILE`: the saved game, which fixes its own table."""
    if any(given):
        raise click.UsageError("--answers plays the game the file saved: leave out --ruleset, --players, --seed, "
                               "--hero, --agents and --agent")
    if session.ruleset not in library.rulesets:
        raise click.BadParameter(f"the game is of ruleset '{session.ruleset}', which the library does not have "
                                 "(load its files with --library)", param_hint="'--answers'")
    check_table(library, session.ruleset, session.players)
    from sgs_dsl.game import turn_cap
    from sgs_dsl.sessions import SessionError, play_again

    try:
        log, result = play_again(library, session)
    except SessionError as error:
        _err(f"error: the saved answers do not fit this game: {error}")
        sys.exit(1)
    _out(f"# ruleset {session.ruleset}, {session.players} players, seed {session.seed}")
    for line in log:
        _out(line)
    if result is None:
        _err(f"the saved answers end here ({len(session.answers)} given): the game was left before it ended")
        return
    _game_end(result, turn_cap(library, session.ruleset, session.max_turns), sides=False)


@main.command()
@ruleset_option
@players_option
@click.option("--seat", "-k", type=click.IntRange(min=1), default=1, show_default=True,
              help="Your seat (1-based); the other seats are played by the computer.")
@click.option("--seed", "-s", type=int, default=None, help="Game seed (default: a random one, printed).")
@_agents_option("heuristic")
@agent_option
@click.option("--ai", "ai", default=None, hidden=True, type=click.Choice(AGENT_CHOICES),
              help="The agent of the other seats (an older spelling of --agents).")
@max_turns_option
@library_option
@hero_option
@click.option("--save", "save_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              callback=_writable_output, metavar="FILE",
              help="Write the game to FILE when it ends or you leave (a session file: `sgs run --answers FILE` "
              "and `sgs serve` play it again).")
def play(ruleset: str | None, players: int | None, seat: int, seed: int | None, agents_all: str | None,
         agent_items: tuple[str, ...], ai: str | None, max_turns: int, extra: tuple[Path, ...],
         hero_items: tuple[str, ...], save_path: Path | None) -> None:
    """Take a seat at the terminal against the computer: answer each question by its number.

    \b
    Exit status: 0 when the game ends or you leave it with q; 1 when it stops
    on an error, or the input ends (Ctrl-D) or fails before the game does;
    130 on Ctrl-C.
    """
    stdin = _answers_in()
    library = _load_library(extra)
    name = resolve_ruleset(library, ruleset)
    players = seat_count(library, name, players)
    check_table(library, name, players)
    if seat > players:
        raise click.BadParameter(f"{seat} is not a seat of this table: choose 1 to {players}", param_hint="'--seat'")
    if ai is not None and agents_all is not None:
        raise click.UsageError("give --agents (--ai is its older spelling), not both")
    spec = agent_spec(library, name, players, agents_all or ai or "heuristic", agent_items)
    placed = hero_placement(library, name, players, hero_items).for_game(0, players)
    if seed is None:
        import secrets

        seed = secrets.randbelow(2**31)
    from sgs_dsl.agents.terminal import LeftGame, TerminalAgent
    from sgs_dsl.game import play_game, turn_cap
    from sgs_dsl.sessions import Recorded, Session, agent_factory

    session = Session(name, players, seed, seat - 1, spec, max_turns=max_turns, placed=tuple(sorted(placed.items())))
    person = Recorded(TerminalAgent(stdin, ScriptStream(sys.stdout, _script["now"])))
    _out(f"# ruleset {name}, {players} players, seed {seed}; you are seat {seat}")
    try:
        result = play_game(library, name, players, seed, log=True, max_turns=max_turns,
                           agent_factory=agent_factory(session, person), placed=placed)
    except LeftGame as left:
        _save_session(save_path, session, person)
        _err(f"{left}: the game stops here")
        sys.exit(left.status)
    except KeyboardInterrupt:
        _save_session(save_path, session, person)
        _err("\ninterrupted: the game stops here")
        sys.exit(130)
    _save_session(save_path, session, person)
    person.agent.show_log()
    _game_end(result, turn_cap(library, name, max_turns))


def _save_session(path: Path | None, session: Any, person: Any) -> None:
    """`sgs play --save FILE`: the game as far as it was played (sgs_dsl/sessions.py)."""
    if path is not None:
        import attrs

        _write_report(path, attrs.evolve(session, answers=tuple(person.answers)).dumps())


def _answers_in() -> Any:
    """stdin, where the person's answers come from: bytes that are not UTF-8 read as U+FFFD
    (an answer that is not a number, asked again). A closed stdin is exit status 1 at once,
    before the computer plays a single move."""
    if sys.stdin is None:
        _err("error: cannot read answers: standard input is closed")
        sys.exit(1)
    try:
        sys.stdin.reconfigure(errors="replace")  # type: ignore[union-attr]
    except (AttributeError, OSError, ValueError):  # not a text file of its own (a test runner's stream)
        pass
    return sys.stdin


def _game_end(result: Any, max_turns: int, sides: bool = True) -> None:
    """A played game's end (`sgs run`, `sgs play`): its error (exit 1), or its winner; with
    `sides`, each seat's side first (a person at the table learns the hidden ones).
    `max_turns` is the cap the game was played to (`game.turn_cap`)."""
    failures = ([result.error] if result.error else []) + [f"invariant violated: {v}" for v in result.violations or ()]
    if failures:
        _err("error: the game stopped on an error, so it has no winner:")
        for failure in failures:
            _err(failure)
        sys.exit(1)
    if sides:
        from sgs_dsl.agents.terminal import side_zh

        _out("sides: " + "、".join(f"{i}號位{side_zh(r)}" for i, r in enumerate(result.roles, 1)))
    text = WINNER_TEXT.get(result.winner, f"{result.winner} wins")
    if result.capped:
        text += f" (turn cap of {max_turns} reached)"
    _out(f"winner: {result.winner} ({text}) after {result.turns} turns")


def _backend_jobs(backend: str, address: str | None, jobs: int | None) -> int:
    """The --jobs that --backend means. Before any game: an --address that is not HOST:PORT
    or Ray missing is a usage error (2); an address where nothing answers within a few
    seconds is exit status 69 (checked before Ray is imported, so it never waits on Ray)."""
    if backend != "ray":
        if address is not None:
            raise click.UsageError("--address names a Ray cluster: use it with --backend ray")
        return 1 if jobs is None else jobs
    from sgs_dsl.sim.ray_backend import BadAddress, RayBackendError, RayMissing, import_ray, probe

    try:
        if address is not None:
            probe(address)
        import_ray()
    except BadAddress as bad:
        raise click.BadParameter(str(bad), param_hint="'--address'") from None
    except RayMissing as missing:
        raise click.UsageError(str(missing)) from None
    except RayBackendError as error:
        _unavailable(error)
    return 0 if jobs is None else jobs


def _unavailable(error: Exception) -> None:
    """The Ray cluster cannot be reached, started or used: one line, exit status 69."""
    _err(f"error: {error}")
    sys.exit(EXIT_UNAVAILABLE)


def _play_batch(name: str, players: int, games: int, seed: int, quiet: bool, **options: Any) -> Any:
    """run_batch, with a progress bar on stderr when someone watches it (a terminal)."""
    from sgs_dsl.sim.batch import run_batch
    from sgs_dsl.sim.ray_backend import RayBackendError

    try:
        if quiet or not sys.stderr.isatty():
            return run_batch(name, players, games, seed, **options)
        label = printable(f"{name}, {players} players")
        with click.progressbar(length=games, label=label, file=sys.stderr, show_pos=True, show_eta=True) as bar:
            return run_batch(name, players, games, seed, on_result=lambda _rec: bar.update(1), **options)
    except RayBackendError as error:  # the cluster could not be started, reached or used
        _unavailable(error)


@main.command()
@ruleset_option
@players_option
@click.option("--games", "-g", type=click.IntRange(min=1), default=100, show_default=True, help="Number of games.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Root seed; game i uses derive_seed(seed, i).")
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False, path_type=Path, allow_dash=True),
    default=None,
    callback=_writable_output,
    help="Write the report as JSON to FILE ('-' for stdout).",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=0),
    default=None,
    show_default="1; with --backend ray, one per CPU of the cluster",
    help="Worker processes (0 = one per CPU). The result does not depend on it.",
)
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Where the games run: processes on this machine, or a Ray cluster (needs the ray extra: pip install '.[ray]').",
)
@click.option(
    "--address",
    default=None,
    metavar="ADDR",
    help="The Ray cluster to use, as HOST:PORT or auto (default: start a local one); an address where nothing "
    "answers within 5 seconds is exit status 69. Only with --backend ray.",
)
@max_turns_option
@library_option
@click.option("--quiet", "-q", is_flag=True, help="No progress bar (there is none when stderr is not a terminal).")
@click.option(
    "--skill-stats", is_flag=True, help="Also count how often each hero skill of the ruleset fired (and which never did)."
)
@click.option(
    "--game-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="Cut off each game still running after this long; such games are counted as timed out, not played out.",
)
@agents_option
@agent_option
@invariants_option
@records_option
@hero_option
@feature_option
def simulate(
    ruleset: str | None,
    players: int | None,
    games: int,
    seed: int,
    json_path: Path | None,
    jobs: int | None,
    backend: str,
    address: str | None,
    max_turns: int,
    extra: tuple[Path, ...],
    quiet: bool,
    skill_stats: bool,
    game_timeout: float | None,
    agents_all: str | None,
    agent_items: tuple[str, ...],
    invariants: str,
    records_path: Path | None,
    hero_items: tuple[str, ...],
    featured: str | None,
) -> None:
    """Play many games (random agents, or --agents/--agent); print win rates by role and game statistics.

    \b
    Exit status: 0 when every game ended cleanly, 1 when any ended in an error
    (or an invariant violation): the report counts them under "errors"; 69
    when the Ray cluster of --backend ray cannot be reached or used.
    """
    from sgs_dsl.sim.stats import format_summary, summarize

    jobs = _backend_jobs(backend, address, jobs)
    files, library, name, players, agents = _batch_table(extra, ruleset, players, agents_all, agent_items)
    placement = hero_placement(library, name, players, hero_items, featured)
    batch = _play_batch(name, players, games, seed, quiet, jobs=jobs, max_turns=max_turns, extra_paths=files,
                        library=library, game_timeout=game_timeout, backend=backend, address=address,
                        agents=agents, invariants=invariants, placement=placement)
    from sgs_dsl.game import turn_cap

    report = summarize(batch.records, ruleset=name, players=players, seed=seed,
                       max_turns=turn_cap(library, name, max_turns), elapsed_s=batch.elapsed_s,
                       mode=library.ruleset(name).mode, agent_spec=agents.as_json(), invariants=invariants,
                       placement=placement.as_json())
    if skill_stats:
        from sgs_dsl.catalog import hero_skills, shown_skills
        from sgs_dsl.sim.stats import format_skill_stats, shown_rows
        from sgs_dsl.sim.stats import skill_stats as count_skills

        held = hero_skills(library, name)
        names = list(dict.fromkeys(s for skills in held.values() for s in skills))
        report["skill_stats"] = shown_rows(count_skills(batch.records, names, held), shown_skills(library, names))
    text = _json(report) + "\n"
    summary = format_summary(report)
    if skill_stats:
        summary += "\n" + format_skill_stats(report["skill_stats"])
    _write_records(records_path, library, name, players, seed, batch)
    if json_path is not None and str(json_path) == "-":
        _err(summary)
        _out(text, nl=False)
    else:
        _out(summary)
        if json_path is not None:
            _write_report(json_path, text)
    if report["errors"]:
        _err(f"error: {report['errors']} of {_plural(games, 'game')} ended in an error (see the error lines above)")
        sys.exit(1)


def _report_folder(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """--out DIR: a folder, or a path where one can be made, checked before any game is played,
    with the files a report or a comparison writes there (none may be a FIFO or a folder)."""
    if value is None:
        return value
    from sgs_dsl.sim.report import FIGURES

    problem = output_folder_problem(value, ("summary.json", "index.html", *FIGURES, "compare.json", "compare.html"))
    if problem:
        raise click.BadParameter(f"cannot write the report into '{value}': {problem}", ctx, param)
    return value


def _need_matplotlib() -> None:
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise click.UsageError("sgs balance draws its figures with matplotlib, which is not installed; "
                               f"install it with: {install_hint('report')}")


def _compare_runs(paths: tuple[Path, Path], out: Path | None) -> None:
    from sgs_dsl.sim.compare import NotAReport, compare, format_comparison, load_run, render_comparison

    try:
        a, b = (load_run(p) for p in paths)
    except NotAReport as bad:  # bad input, not bad usage: exit status 1, as for a bad .sgs file
        _err(f"error: {printable(str(bad))}")
        _err("hint: give two files written by `sgs balance` (summary.json), `sgs simulate --json` or `--records`")
        sys.exit(1)
    result = compare(a, b)
    _out(format_comparison(result))
    if out is not None:
        _make_folder(out)
        _write_report(out / "compare.json", _json(result) + "\n")
        _write_report(out / "compare.html", render_comparison(data_in_script(result, _script["now"])))
        _out(f"comparison: {printable(str(out / 'compare.html'))}")


def _make_folder(out: Path) -> None:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot make {printable(str(out))}: {path_error(error)}") from None


def _balance_summary(library: Any, name: str, players: int, seed: int, max_turns: int, batch: Any,
                     agents: Any, invariants: str, placement: Any, strata: str = "role") -> dict[str, Any]:
    """The simulate report of the batch, with its `balance` section over the clean games."""
    from sgs_dsl.catalog import hero_skills, heroes_of, shown_skills
    from sgs_dsl.game import turn_cap
    from sgs_dsl.sim.balance import balance as balance_numbers
    from sgs_dsl.sim.stats import summarize

    mode = library.ruleset(name).mode
    summary = summarize(batch.records, ruleset=name, players=players, seed=seed,
                        max_turns=turn_cap(library, name, max_turns),
                        elapsed_s=batch.elapsed_s, mode=mode, agent_spec=agents.as_json(), invariants=invariants,
                        placement=placement.as_json())
    clean = [r for r in batch.records if not r.failed and not r.timed_out]
    skills = hero_skills(library, name)
    summary["balance"] = numbers = balance_numbers(clean, skills, mode, strata)
    named = shown_skills(library, numbers["skills"])  # a skill's printed name unless two share it
    numbers["skills"] = {named[k]: row for k, row in numbers["skills"].items()}
    # the ASCII ids of the names in the tables: the figures' labels when no CJK font is installed
    known = {named.get(k, k): d.id for k, d in library.skills.items()} | {h.key: h.id for h in heroes_of(library, name)}
    shown = {*numbers["heroes"]["heroes"], *numbers["skills"]}
    numbers["ids"] = {n: known[n] for n in sorted(shown) if n in known}
    return summary


@main.command()
@ruleset_option
@players_option
@click.option("--games", "-g", type=click.IntRange(min=1), default=200, show_default=True, help="Number of games.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Root seed; game i uses derive_seed(seed, i).")
@balance_agents_option
@agent_option
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=1, show_default=True,
              help="Worker processes (0 = one per CPU). The result does not depend on it.")
@click.option("--out", "-o", type=click.Path(file_okay=False, path_type=Path), default=None, callback=_report_folder,
              metavar="DIR", help="The folder to write summary.json, index.html and the PNG figures into.")
@click.option("--compare", nargs=2, type=InputPath(), default=None,
              metavar="A.json B.json", help="Compare two runs (summary.json or `sgs simulate --json`) instead.")
@max_turns_option
@library_option
@click.option("--quiet", "-q", is_flag=True, help="No progress bar (there is none when stderr is not a terminal).")
@invariants_option
@records_option
@click.option("--strata", type=click.Choice(["role", "role+seat"]), default="role", show_default=True,
              help="What a hero's headline win rate is adjusted for: each seat is compared with the other "
              "heroes' seats of the same role, or of the same role and seat number.")
@hero_option
@feature_option
def balance(ruleset: str | None, players: int | None, games: int, seed: int, agents_all: str | None,
            agent_items: tuple[str, ...], jobs: int, out: Path | None, compare: tuple[Path, Path] | None,
            max_turns: int, extra: tuple[Path, ...], quiet: bool, invariants: str, records_path: Path | None,
            strata: str, hero_items: tuple[str, ...], featured: str | None) -> None:
    """A balance report: win rates by role, by hero (adjusted for role) and by skill, and game length.

    Each family of tests is corrected by Benjamini-Hochberg; rows with fewer than 30
    trials are shown but never flagged (docs/scaling.md, "Statistics a designer can act on").

    \b
    Examples:
      sgs balance -r standard -p 8 -g 2000 --jobs 0 --out report/
      sgs balance --compare before/summary.json after/summary.json --out diff/
      sgs balance --compare before.jsonl after.jsonl   # two --records files: paired by seed
    """
    if compare is not None:
        if records_path is not None:
            raise click.UsageError("--records writes the games a report plays; --compare plays none")
        _compare_runs(compare, out)
        return
    if out is None:
        raise click.UsageError("--out DIR is needed: the folder the report is written into",
                               click.get_current_context())
    _need_matplotlib()
    from sgs_dsl.agents.registry import BALANCE_AGENT

    files, library, name, players, agents = _batch_table(extra, ruleset, players, agents_all or BALANCE_AGENT,
                                                         agent_items)
    placement = hero_placement(library, name, players, hero_items, featured)
    batch = _play_batch(name, players, games, seed, quiet, jobs=jobs, max_turns=max_turns, extra_paths=files,
                        library=library, agents=agents, invariants=invariants, placement=placement)
    summary = _balance_summary(library, name, players, seed, max_turns, batch, agents, invariants, placement,
                               strata)
    _write_records(records_path, library, name, players, seed, batch)
    from sgs_dsl.sim.report import write_report
    from sgs_dsl.sim.stats import format_summary

    _make_folder(out)
    try:
        write_report(summary, out, _script["now"])
    except OSError as error:
        where = error.filename or out
        raise OutputError(f"cannot write {printable(str(where))}: {path_error(error)}") from None
    _out(format_summary(summary))
    _out(f"report: {printable(str(out / 'index.html'))}")
    if summary["errors"]:
        _err(f"error: {summary['errors']} of {_plural(games, 'game')} ended in an error (see the error lines above)")
        sys.exit(1)


@main.command()
@ruleset_option
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of {name, id, suit, rank, type}.")
@library_option
def cards(ruleset: str | None, as_json: bool, extra: tuple[Path, ...]) -> None:
    """List the cards of a ruleset's deck."""
    library = _load_library(extra)
    name = resolve_ruleset(library, ruleset)
    deck = [card_row(c) for c in library.deck_cards(name)]
    if as_json:
        _out(_json(deck))
        return
    from sgs_dsl.core.model import RANK_FACE, SUIT_ZH

    rows = [
        [str(i), c["name"], c["id"], SUIT_ZH.get(c["suit"], c["suit"]) + RANK_FACE.get(c["rank"], str(c["rank"])), c["type"]]
        for i, c in enumerate(deck, 1)
    ]
    _out(format_table(["#", "name", "id", "card", "type"], rows))
    _out(f"{len(deck)} cards in ruleset {name}")


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@library_option
def rulesets(as_json: bool, extra: tuple[Path, ...]) -> None:
    """List the built-in rulesets (the default is marked with *)."""
    library = _load_library(extra)
    items = [library.rulesets[k] for k in sorted(library.rulesets)]
    if as_json:
        data = [
            {
                "name": r.name,
                "mode": r.mode,
                "mode_options": {k: list(v) if isinstance(v, tuple) else v for k, v in _mode_options(r).items()},
                "title": r.title,
                "decks": list(r.decks),
                "default": r.name == library.default_ruleset,
            }
            for r in items
        ]
        _out(_json(data))
        return
    rows = [
        ["*" if r.name == library.default_ruleset else "", r.name, r.mode, _show_options(_mode_options(r)),
         ", ".join(r.decks), r.title] for r in items
    ]
    _out(format_table(["", "name", "mode", "mode options", "decks", "title"], rows, details=("title",)))


def _mode_options(ruleset: Any) -> dict[str, Any]:
    """Every option of the ruleset's mode: as the ruleset sets it, else its default."""
    from sgs_dsl.core.modes import MODE_SPECS

    return {o.name: ruleset.mode_options.get(o.name, o.default) for o in MODE_SPECS[ruleset.mode].options}


def _show_options(options: dict[str, Any]) -> str:
    shown = ("、".join(v) if isinstance(v, tuple) else str(v) for v in options.values())
    return "; ".join(f"{k} {v}" for k, v in zip(options, shown, strict=True) if v) or "—"


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def modes(as_json: bool) -> None:
    """List the modes of play, the players each seats and the options a ruleset may set."""
    from sgs_dsl.core.modes import MODE_SPECS

    specs = [MODE_SPECS[k] for k in sorted(MODE_SPECS)]
    if as_json:
        _out(_json([{"name": m.name, "title": m.title, "players": list(m.players), "doc": m.doc,
                     "outcomes": list(m.outcomes),
                     "options": [{"name": o.name, "type": o.type, "default": list(o.default)
                                  if isinstance(o.default, tuple) else o.default, "doc": o.doc,
                                  **({"words": list(o.words)} if o.words else {})} for o in m.options]}
                    for m in specs]))
        return
    for m in specs:
        _out(_hanging(f"{m.name} {m.title}: {m.players[0]}-{m.players[1]} players; {m.doc}", ""))
        for o in m.options:
            kind = "|".join(o.words) if o.words else o.type
            _out(_hanging(f"{o.name} ({kind}, default {o.default or 'none'}): {o.doc}", "  "))


def _hanging(text: str, indent: str) -> str:
    """A paragraph wrapped to the table width, its later lines indented two more columns."""
    from sgs_dsl.tables import WIDTH, wrap

    first, *rest = wrap(text, WIDTH - len(indent))
    more = wrap(" ".join(rest), WIDTH - len(indent) - 2) if rest else []
    return "\n".join([indent + first, *(indent + "  " + line for line in more)])


@main.command()
@click.option("--ruleset", "-r", default=None, metavar="NAME", help="Only the heroes of this ruleset (default: all).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of heroes with their skills.")
@library_option
def heroes(ruleset: str | None, as_json: bool, extra: tuple[Path, ...]) -> None:
    """List heroes: kingdom, gender, hp and skills (* marks a lord candidate)."""
    from sgs_dsl.catalog import hero_headers, hero_row, hero_table_rows, heroes_of, lord_names

    library = _load_library(extra)
    name = resolve_ruleset(library, ruleset) if ruleset is not None else None
    lords = lord_names(library, name)
    rows = [hero_row(h, lords) for h in heroes_of(library, name)]
    if as_json:
        _out(_json(rows))
        return
    _out(format_table(hero_headers(rows), hero_table_rows(rows)))
    where = f"ruleset {name}" if name is not None else "the library"
    _out(f"{len(rows)} heroes in {where}" + (" (* lord candidate)" if lords else ""))


@main.command()
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@library_option
def explain(name: str, as_json: bool, extra: tuple[Path, ...]) -> None:
    """Explain a skill, card or hero by NAME (either script, or its pinyin id): its text,
    where it is defined, its tags, the windows it listens on, its modifiers and view-as.

    \b
    Exit status: 0 when NAME is found, 2 when it is not.
    """
    from sgs_dsl.catalog import explain as explain_one
    from sgs_dsl.catalog import lookup, render, suggestion

    library = _load_library(extra)
    found = lookup(library, name)
    if not found:
        hint = suggestion(library, name)
        _err(f"error: no skill, card or hero named '{printable(name)}'" + (f"; {hint}" if hint else ""))
        sys.exit(2)
    infos = [explain_one(library, f) for f in found]
    if as_json:
        _out(_json(infos if len(infos) > 1 else infos[0]))
        return
    for i, info in enumerate(infos):
        if i:
            _out("")
        for line in render(info):
            _out(line)


# --- rulings -------------------------------------------------------------------------------------


WINDOW_LINE = "〔時機〕"


def brief_trace(trace: list[str]) -> list[str]:
    """The trace without the windows where nothing happened: a window line followed at once by
    another window line, or ending the trace."""
    kept = []
    for i, line in enumerate(trace):
        following = trace[i + 1] if i + 1 < len(trace) else ""
        if WINDOW_LINE in line and (not following or WINDOW_LINE in following):
            continue
        kept.append(line)
    return kept


def ruling_report(ruling: Any, result: Any, brief: bool = False) -> list[str]:
    """What `sgs ruling` prints for one ruling: title, source, trace and result."""
    source = printable(ruling.source) if ruling.source else "(none)"
    out = [f"== {printable(ruling.title)} ==", f"source: {source}", ""]
    out.extend(f"  {line}" for line in (brief_trace(result.trace) if brief else result.trace))
    if result.trace:
        out.append("")
    if result.failures:
        out.append(f"FAIL: {_plural(len(result.failures), 'failure')}")
        out.extend("  - " + str(f).replace("\n", "\n    ") for f in result.failures)
    else:
        out.append("PASS")
    return out


@main.command(short_help="Run the rulings of a file; print their traces, PASS or FAIL.")
@click.argument("file", type=InputPath(dir_okay=False))
@click.option("--name", "-n", "title", default=None, metavar="TITLE",
              help="Run only the ruling with this title, or every ruling whose title starts with it.")
@click.option("--brief", is_flag=True, help="Leave out of the traces the windows where nothing happened.")
@library_option
def ruling(file: Path, title: str | None, brief: bool, extra: tuple[Path, ...]) -> None:
    """Run the rulings of a .ruling FILE; print each one's trace and whether it holds.

    \b
    --name TITLE runs the ruling with that title; when no title is exactly TITLE, it
    runs every ruling whose title starts with it, listing them first when there are
    several.

    \b
    Exit status: 0 when every ruling holds, 1 when one fails or the file does not
    load, 2 for a --name no title starts with. The trace is not compared with a
    snapshot here: pytest does that (pytest FILE, pytest --snapshot-update).
    """
    from sgs_dsl.rulings.parser import load_rulings
    from sgs_dsl.rulings.runner import run_ruling

    _sgs_files([file])  # a FIFO or a device is refused before anything opens it
    library = _load_library(extra) if extra else None
    rulings = load_rulings(file, library)
    if title is not None:
        rulings = _rulings_named(rulings, title, file)
    failed = 0
    for i, r in enumerate(rulings):
        result = run_ruling(r, library)
        if i:
            _out("")
        for line in ruling_report(r, result, brief):
            _out(line)
        failed += bool(result.failures)
    if len(rulings) != 1 or title is None:
        _out("")
        passed = len(rulings) - failed
        _out(f"{passed} passed, {failed} failed" if rulings else f"no rulings in {file}")
    if failed:
        sys.exit(1)


def _rulings_named(rulings: list[Any], title: str, file: Path) -> list[Any]:
    """The ruling titled `title`, else those whose title starts with it (several are listed,
    one per line, before they run); a usage error when there is none."""
    chosen = [r for r in rulings if r.title == title] or [r for r in rulings if r.title.startswith(title)]
    if not chosen:
        from sgs_dsl.syntax.diagnostics import did_you_mean

        titles = [r.title for r in rulings]
        hint = did_you_mean(title, titles)
        msg = f"no ruling titled '{title}' (or whose title starts with it) in {file}" + (f"; {hint}" if hint else "")
        msg += f". Rulings in the file: {', '.join(titles)}." if titles else ". The file has no rulings."
        raise click.BadParameter(msg, param_hint="'--name'")
    if len(chosen) > 1:
        _out(f"--name {printable(title)} matches {len(chosen)} rulings:")
        for r in chosen:
            _out(printable(r.title))
        _out("")
    return chosen


# --- windows ------------------------------------------------------------------------------------


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def _window_cells(w: Any) -> list[str]:
    return [
        str(w.id),
        str(w.zh),
        str(w.process),
        str(w.payload or ""),
        str(w.polled or ""),
        ", ".join(w.mutable) if w.mutable else "",
        _yes_no(bool(w.cancellable)),
        str(getattr(w, "note", "") or ""),
    ]


WINDOW_HEADERS = ["id", "name", "process", "payload", "polled", "may change", "cancellable", "note"]


def windows_text(windows: Sequence[Any]) -> str:
    return format_table(WINDOW_HEADERS, [_window_cells(w) for w in windows], details=("polled", "note"))


@main.command()
@click.option("--markdown", is_flag=True, help="Print the markdown committed as docs/windows.md.")
def windows(markdown: bool) -> None:
    """Print the table of timing windows."""
    from sgs_dsl.core import windows as table

    if markdown:
        # The engine owns the table and its markdown rendering (docs/windows.md).
        _out(table.markdown(), nl=False)
    else:
        _out(windows_text(table.WINDOWS))


@main.command()
@click.option("--stdio", is_flag=True, help="Talk over stdin and stdout (the default, and the only way).")
def lsp(stdio: bool) -> None:
    """Run the language server for .sgs and .ruling files over stdio (docs/editor.md)."""
    try:
        from sgs_dsl.editor.lsp import start
    except ImportError as error:  # pygls is an optional dependency
        _err(f"error: the language server needs pygls: {error}")
        _err(f"  hint: {install_hint('lsp')}")
        sys.exit(1)
    start()


# --- skill text read back from the rules (sgs_dsl/editor/textcheck.py) -----------------------


@main.command(name="text")
@click.option("--skill", "skill_name", default=None, metavar="NAME", help="Print the text generated from a skill's rules.")
@click.option("--card", "card_name", default=None, metavar="NAME", help="Print a card's generated text, quoted text and check.")
@click.option("--report", is_flag=True, help="Every skill and card: similarity, structured check and what differs.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@library_option
def text(skill_name: str | None, card_name: str | None, report: bool, as_json: bool, extra: tuple[Path, ...]) -> None:
    """The rules read back as a card's text: a draft for a new skill (--skill NAME -L my.sgs),
    a card's (--card NAME), or the report over every skill and card (--report): each one's
    similarity to its quoted text and the structured check (moment, optionality, limits, tags,
    numbers, targets). See docs/editor.md, "Skill text".

    \b
    Exit status: 0 when all agree (or the file marks why not, `differs`), 1 when the report
    finds an unmarked disagreement, 2 a usage error or a name not found.
    """
    from sgs_dsl.editor import textcheck

    if sum(x is not None and x is not False for x in (skill_name, card_name, report or None)) != 1:
        raise click.UsageError("give one of --skill NAME, --card NAME or --report")
    library = _load_library(extra)
    if report:
        entries = textcheck.report(library)
        _out(_json([e.as_json() for e in entries]) if as_json else "\n".join(textcheck.render_report(entries)))
        sys.exit(1 if any(e.failed for e in entries) else 0)
    try:
        entries = textcheck.lookup(library, "skill" if skill_name else "card", skill_name or card_name or "")
    except LookupError as missing:
        _err(f"error: {missing.args[0]}")
        sys.exit(2)
    if as_json:
        _out(_json([e.as_json() for e in entries] if len(entries) > 1 else entries[0].as_json()))
        return
    for e in entries:
        if skill_name is not None and len(entries) > 1:  # one name, several packages: say whose
            _out(f"# {e.key} ({e.where})")
        _out("\n".join(textcheck.render(e, draft_only=skill_name is not None)))


@main.command("fmt")
@click.option("--check", is_flag=True, help="Change nothing: list the files that are not formatted, exit 1 if any.")
@click.option("--stdin-filename", default=None, metavar="NAME",
              help="With PATH '-': the name of the text read from standard input (.ruling for a ruling).")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path, allow_dash=True))
def fmt_command(check: bool, stdin_filename: str | None, paths: tuple[Path, ...]) -> None:
    """Format .sgs and .ruling files in place (folders: every *.sgs and *.ruling below);
    '-' formats standard input to standard output. The layout is in docs/editor.md."""
    from sgs_dsl.editor import fmt as formatter

    if paths == (Path("-"),):
        _out(formatter.format_stdin(sys.stdin.buffer.read(), stdin_filename), nl=False)
        return
    sys.exit(formatter.run(paths, check, out=_out, err=_err))


# --- the table in the browser (sgs_dsl/web) ------------------------------------------------


@main.command(short_help="Play and replay games in the browser (a local web app).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (another than 127.0.0.1 lets other machines play).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="The port (0: any free one).")
@ruleset_option
@library_option
@click.option("--rulings", "ruling_paths", multiple=True, type=InputPath(), metavar="PATH",
              help="A .ruling file, or a folder of them, whose traces the page may replay (repeatable).")
def serve(host: str, port: int, ruleset: str | None, extra: tuple[Path, ...], ruling_paths: tuple[Path, ...]) -> None:
    """Serve the table (docs/web.md): play against the agents, replay a seeded game, a saved
    game, a --records line or a ruling's trace step by step, and turn a moment into a ruling.
    Needs the web extra: pip install '.[web]' in the sgs-dsl source folder.

    \b
    Exit status: 0 when stopped with Ctrl-C; 1 when the address cannot be used.
    """
    try:
        import uvicorn

        from sgs_dsl.web.server import make_app
    except ImportError as missing:
        _err(f"error: sgs serve needs the web extra ({missing.name} is not installed): {install_hint('web')}")
        sys.exit(1)
    library = _load_library(extra)
    name = resolve_ruleset(library, ruleset)
    app = make_app(library, name, ruling_paths)
    listening = _listening(host, port)
    port = listening.getsockname()[1]  # the one taken, for --port 0
    shown = f"[{host}]" if ":" in host else host
    _err(f"sgs serve: the table is at http://{shown}:{port}/ (Ctrl-C stops it)")
    try:
        uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[listening])
    except KeyboardInterrupt:  # uvicorn stops on Ctrl-C, then raises it again: a stop asked for
        pass


def _listening(host: str, port: int) -> Any:
    """A socket bound to the address, before the server starts: an address in use, or a host
    that is not this machine's, is one line and exit status 1."""
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        listening = socket.socket(family, kind, proto)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
    except OSError as error:
        _err(f"error: cannot serve on {host}:{port}: {error.strerror or error}")
        sys.exit(1)
    return listening


if __name__ == "__main__":  # pragma: no cover
    main()
