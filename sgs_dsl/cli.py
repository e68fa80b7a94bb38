"""The ``sgs`` command line: check, run, simulate, and look at cards, rulesets and windows.

Start-up is kept fast: only click is imported here; the parser, the compiler and the
engine are imported inside the commands that need them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

#: Exit status for an unexpected exception (EX_SOFTWARE in sysexits.h).
EXIT_INTERNAL = 70

WINNER_TEXT = {
    "lord": "the lord and the loyalists win",
    "rebel": "the rebels win",
    "renegade": "the renegade wins",
    "draw": "nobody wins",
}


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


class SgsGroup(click.Group):
    """A group that turns every failure into a message and an exit status, never a traceback.

    - ``SgsError`` (bad .sgs text, anything the loader rejects): its diagnostics, exit 1;
    - click's usage errors: click's message, exit 2;
    - anything else: one line ``internal error: ...`` and a hint to report it, exit 70
      (``SGS_DEBUG=1`` prints the traceback too).
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Abort, click.exceptions.Exit):
            raise
        except (KeyboardInterrupt, SystemExit, BrokenPipeError):
            raise
        except Exception as exc:
            if _is_sgs_error(exc):
                click.echo(_render_sgs_error(exc), err=True)
                ctx.exit(1)
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            click.echo(f"internal error: {type(exc).__name__}" + (f": {first}" if first else ""), err=True)
            if os.environ.get("SGS_DEBUG"):
                import traceback

                click.echo(traceback.format_exc(), err=True)
            else:
                click.echo(
                    "This is a bug in sgs-dsl, not in your input. Please report it with the command you ran "
                    "(run again with SGS_DEBUG=1 to see the traceback).",
                    err=True,
                )
            ctx.exit(EXIT_INTERNAL)


# --- shared helpers --------------------------------------------------------------------------


def _load_library(extra: Sequence[Path] = ()) -> Any:
    """The built-in library plus the --library files (folders are searched for *.sgs)."""
    from sgs_dsl.compiler.library import load_library

    return load_library(tuple(_sgs_files(extra)))


def resolve_ruleset(library: Any, name: str | None) -> str:
    """``name`` if the library has it, the default ruleset for None, else a usage error."""
    if name is None:
        return library.default_ruleset
    rulesets = library.rulesets
    if name in rulesets:
        return name
    from sgs_dsl.syntax.diagnostics import did_you_mean

    known = sorted(rulesets)
    hint = did_you_mean(name, known)
    msg = f"unknown ruleset '{name}'" + (f"; {hint}" if hint else "") + f" Known rulesets: {', '.join(known)}."
    raise click.BadParameter(msg, param_hint="'--ruleset'")


def _player_range(ruleset: Any) -> tuple[int, int] | None:
    """The player counts a ruleset supports, when it says so."""
    lo = getattr(ruleset, "min_players", None)
    hi = getattr(ruleset, "max_players", None)
    if isinstance(lo, int) and isinstance(hi, int):
        return (lo, hi)
    players = getattr(ruleset, "players", None)
    if isinstance(players, (tuple, list, range)) and players and all(isinstance(p, int) for p in players):
        return (min(players), max(players))
    return None


def check_players(library: Any, ruleset: str, players: int) -> None:
    rng = _player_range(library.rulesets[ruleset])
    if rng is not None and not rng[0] <= players <= rng[1]:
        raise click.BadParameter(
            f"ruleset '{ruleset}' is for {rng[0]} to {rng[1]} players, not {players}", param_hint="'--players'"
        )


def card_row(card: Any) -> dict[str, Any]:
    return {"name": card.name, "id": card.id, "suit": card.suit, "rank": int(card.rank), "type": card.type}


def _display_width(text: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _display_width(text))


def format_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain text table, aligned for CJK (double width) characters."""
    widths = [_display_width(h) for h in headers]
    for row in rows:
        widths = [max(w, _display_width(c)) for w, c in zip(widths, row, strict=True)]
    lines = ["  ".join(_pad(c, w) for c, w in zip(headers, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines.extend("  ".join(_pad(c, w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows)
    return "\n".join(lines)


def _sgs_files(paths: Sequence[Path]) -> list[Path]:
    files: list[Path] = []
    for p in paths:
        files.extend(sorted(p.rglob("*.sgs")) if p.is_dir() else [p])
    return files


# --- options shared by several commands -----------------------------------------------------

ruleset_option = click.option(
    "--ruleset", "-r", default=None, metavar="NAME", help="Ruleset to play (default: the library's default)."
)
players_option = click.option(
    "--players", "-p", type=click.IntRange(2, 10), default=5, show_default=True, help="Number of players (2-10)."
)
max_turns_option = click.option(
    "--max-turns",
    type=click.IntRange(min=1),
    default=600,
    show_default=True,
    help="Turn cap; a game that reaches it is a capped draw.",
)
library_option = click.option(
    "--library",
    "-L",
    "extra",
    multiple=True,
    type=click.Path(exists=True, path_type=Path),
    help="Extra .sgs file or folder to load with the built-in library (repeatable).",
)


# --- commands ---------------------------------------------------------------------------------


@click.group(cls=SgsGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sgs-dsl", prog_name="sgs")
def main() -> None:
    """sgs-dsl: the Sanguosha rules language and engine.

    \b
    Examples:
      sgs check my_heroes.sgs          check .sgs text, errors with file:line:col
      sgs run --seed 3                 play one game and print its log
      sgs simulate -p 8 -g 1000 -j 4   win rates by role over many games
      sgs cards --json                 the deck of a ruleset as JSON
      sgs ruling my.ruling             run rulings and print their traces
    """


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
def check(paths: tuple[Path, ...]) -> None:
    """Check .sgs files or folders (searched recursively for *.sgs)."""
    from sgs_dsl.compiler.library import check_paths

    files = _sgs_files(paths)
    try:
        diagnostics = list(check_paths(list(paths)))
    except Exception as exc:
        if not _is_sgs_error(exc):
            raise
        diagnostics = list(exc.diagnostics)
        if not diagnostics:
            raise
    errors = [d for d in diagnostics if getattr(d, "severity", "error") == "error"]
    for d in diagnostics:
        click.echo(d.render(), err=True)
        click.echo("", err=True)
    if errors:
        click.echo(
            f"{len(errors)} error{'s' if len(errors) != 1 else ''} in {len(files)} file{'s' if len(files) != 1 else ''}",
            err=True,
        )
        sys.exit(1)
    click.echo(f"ok: {len(files)} file{'s' if len(files) != 1 else ''}")


@main.command()
@ruleset_option
@players_option
@click.option("--seed", "-s", type=int, default=None, help="Game seed (default: a random one, printed).")
@max_turns_option
@library_option
def run(ruleset: str | None, players: int, seed: int | None, max_turns: int, extra: tuple[Path, ...]) -> None:
    """Play one game with random agents and print its log."""
    library = _load_library(extra)
    name = resolve_ruleset(library, ruleset)
    check_players(library, name, players)
    if seed is None:
        import secrets

        seed = secrets.randbelow(2**31)
    from sgs_dsl.game import play_game

    result = play_game(library, name, players, seed, log=True, max_turns=max_turns)
    click.echo(f"# ruleset {name}, {players} players, seed {seed}")
    for line in result.log:
        click.echo(line)
    failed = False
    if result.error:
        click.echo(f"error: the game stopped on an internal error:\n{result.error}", err=True)
        failed = True
    for violation in result.violations or ():
        click.echo(f"invariant violated: {violation}", err=True)
        failed = True
    text = WINNER_TEXT.get(result.winner, f"{result.winner} wins")
    if result.capped:
        text += f" (turn cap of {max_turns} reached)"
    click.echo(f"winner: {result.winner} ({text}) after {result.turns} turns")
    if failed:
        sys.exit(1)


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
    help="Write the report as JSON to FILE ('-' for stdout).",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Worker processes (0 = one per CPU). The result does not depend on it.",
)
@max_turns_option
@library_option
@click.option("--quiet", "-q", is_flag=True, help="No progress bar (there is none when stderr is not a terminal).")
@click.option(
    "--skill-stats", is_flag=True, help="Also count how often each hero skill of the ruleset fired (and which never did)."
)
def simulate(
    ruleset: str | None,
    players: int,
    games: int,
    seed: int,
    json_path: Path | None,
    jobs: int,
    max_turns: int,
    extra: tuple[Path, ...],
    quiet: bool,
    skill_stats: bool,
) -> None:
    """Play many games with random agents; print win rates by role and game statistics."""
    from sgs_dsl.sim.batch import run_batch
    from sgs_dsl.sim.stats import format_summary, summarize

    library = _load_library(extra)
    name = resolve_ruleset(library, ruleset)
    check_players(library, name, players)

    if quiet or not sys.stderr.isatty():  # a bar only where someone watches it
        batch = run_batch(
            name, players, games, seed, jobs=jobs, max_turns=max_turns, extra_paths=_sgs_files(extra), library=library
        )
    else:
        with click.progressbar(
            length=games, label=f"{name}, {players} players", file=sys.stderr, show_pos=True, show_eta=True
        ) as bar:
            batch = run_batch(
                name,
                players,
                games,
                seed,
                jobs=jobs,
                max_turns=max_turns,
                extra_paths=_sgs_files(extra),
                library=library,
                on_result=lambda _rec: bar.update(1),
            )
    import json

    report = summarize(
        batch.records, ruleset=name, players=players, seed=seed, max_turns=max_turns, elapsed_s=batch.elapsed_s
    )
    if skill_stats:
        from sgs_dsl.catalog import heroes_of
        from sgs_dsl.sim.stats import format_skill_stats
        from sgs_dsl.sim.stats import skill_stats as count_skills

        names = list(dict.fromkeys(s.name for h in heroes_of(library, name) for s in h.skills))
        report["skill_stats"] = count_skills(batch.records, names)
    text = json.dumps(report, ensure_ascii=False, indent=2) + "\n"
    summary = format_summary(report)
    if skill_stats:
        summary += "\n" + format_skill_stats(report["skill_stats"])
    if json_path is not None and str(json_path) == "-":
        click.echo(summary, err=True)
        click.echo(text, nl=False)
    else:
        click.echo(summary)
        if json_path is not None:
            json_path.write_text(text, encoding="utf-8")


@main.command()
@ruleset_option
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of {name, id, suit, rank, type}.")
@library_option
def cards(ruleset: str | None, as_json: bool, extra: tuple[Path, ...]) -> None:
    """List the cards of a ruleset's deck."""
    import json

    library = _load_library(extra)
    name = resolve_ruleset(library, ruleset)
    deck = [card_row(c) for c in library.deck_cards(name)]
    if as_json:
        click.echo(json.dumps(deck, ensure_ascii=False, indent=2))
        return
    from sgs_dsl.engine.model import RANK_FACE, SUIT_ZH

    rows = [
        [str(i), c["name"], c["id"], SUIT_ZH.get(c["suit"], c["suit"]) + RANK_FACE.get(c["rank"], str(c["rank"])), c["type"]]
        for i, c in enumerate(deck, 1)
    ]
    click.echo(format_table(["#", "name", "id", "card", "type"], rows))
    click.echo(f"{len(deck)} cards in ruleset {name}")


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@library_option
def rulesets(as_json: bool, extra: tuple[Path, ...]) -> None:
    """List the built-in rulesets (the default is marked with *)."""
    import json

    library = _load_library(extra)
    items = [library.rulesets[k] for k in sorted(library.rulesets)]
    if as_json:
        data = [
            {
                "name": r.name,
                "mode": r.mode,
                "title": r.title,
                "decks": list(r.decks),
                "default": r.name == library.default_ruleset,
            }
            for r in items
        ]
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    rows = [
        ["*" if r.name == library.default_ruleset else "", r.name, r.mode, ", ".join(r.decks), r.title] for r in items
    ]
    click.echo(format_table(["", "name", "mode", "decks", "title"], rows))


@main.command()
@click.option("--ruleset", "-r", default=None, metavar="NAME", help="Only the heroes of this ruleset (default: all).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of heroes with their skills.")
@library_option
def heroes(ruleset: str | None, as_json: bool, extra: tuple[Path, ...]) -> None:
    """List heroes: kingdom, gender, hp and skills (* marks a lord candidate)."""
    import json

    from sgs_dsl.catalog import HERO_HEADERS, hero_row, hero_table_rows, heroes_of, lord_names

    library = _load_library(extra)
    name = resolve_ruleset(library, ruleset) if ruleset is not None else None
    lords = lord_names(library, name)
    rows = [hero_row(h, lords) for h in heroes_of(library, name)]
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    click.echo(format_table(HERO_HEADERS, hero_table_rows(rows)))
    where = f"ruleset {name}" if name is not None else "the library"
    click.echo(f"{len(rows)} heroes in {where}" + (" (* lord candidate)" if lords else ""))


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
    import json

    from sgs_dsl.catalog import explain as explain_one
    from sgs_dsl.catalog import lookup, render, suggestion

    library = _load_library(extra)
    found = lookup(library, name)
    if not found:
        hint = suggestion(library, name)
        click.echo(f"error: no skill, card or hero named '{name}'" + (f"; {hint}" if hint else ""), err=True)
        sys.exit(2)
    infos = [explain_one(library, f) for f in found]
    if as_json:
        click.echo(json.dumps(infos if len(infos) > 1 else infos[0], ensure_ascii=False, indent=2))
        return
    for i, info in enumerate(infos):
        if i:
            click.echo("")
        for line in render(info):
            click.echo(line)


# --- rulings -------------------------------------------------------------------------------------


def ruling_report(ruling: Any, result: Any) -> list[str]:
    """What `sgs ruling` prints for one ruling: title, source, trace and result."""
    out = [f"== {ruling.title} ==", f"source: {ruling.source}" if ruling.source else "source: (none)", ""]
    out.extend(f"  {line}" for line in result.trace)
    if result.trace:
        out.append("")
    if result.failures:
        out.append(f"FAIL: {len(result.failures)} failure{'s' if len(result.failures) != 1 else ''}")
        out.extend("  - " + str(f).replace("\n", "\n    ") for f in result.failures)
    else:
        out.append("PASS")
    return out


@main.command(short_help="Run the rulings of a file; print their traces, PASS or FAIL.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--name", "-n", "title", default=None, metavar="TITLE", help="Run only the ruling with this title.")
@library_option
def ruling(file: Path, title: str | None, extra: tuple[Path, ...]) -> None:
    """Run the rulings of a .ruling FILE; print each one's trace and whether it holds.

    \b
    Exit status: 0 when every ruling holds, 1 when one fails or the file does not
    load, 2 for an unknown --name. The trace is not compared with a snapshot here:
    pytest does that (pytest FILE, pytest --snapshot-update).
    """
    from sgs_dsl.rulings.parser import load_rulings
    from sgs_dsl.rulings.runner import run_ruling

    library = _load_library(extra) if extra else None
    rulings = load_rulings(file, library)
    if title is not None:
        chosen = [r for r in rulings if r.title == title]
        if not chosen:
            from sgs_dsl.syntax.diagnostics import did_you_mean

            titles = [r.title for r in rulings]
            hint = did_you_mean(title, titles)
            msg = f"no ruling titled '{title}' in {file}" + (f"; {hint}" if hint else "")
            msg += f" Rulings in the file: {', '.join(titles)}." if titles else " The file has no rulings."
            raise click.BadParameter(msg, param_hint="'--name'")
        rulings = chosen
    failed = 0
    for i, r in enumerate(rulings):
        result = run_ruling(r, library)
        if i:
            click.echo("")
        for line in ruling_report(r, result):
            click.echo(line)
        failed += bool(result.failures)
    if len(rulings) != 1 or title is None:
        click.echo("")
        passed = len(rulings) - failed
        click.echo(f"{passed} passed, {failed} failed" if rulings else f"no rulings in {file}")
    if failed:
        sys.exit(1)


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
    return format_table(WINDOW_HEADERS, [_window_cells(w) for w in windows])


@main.command()
@click.option("--markdown", is_flag=True, help="Print the markdown committed as docs/windows.md.")
def windows(markdown: bool) -> None:
    """Print the table of timing windows."""
    from sgs_dsl.engine import windows as table

    if markdown:
        # The engine owns the table and its markdown rendering (docs/windows.md).
        click.echo(table.markdown(), nl=False)
    else:
        click.echo(windows_text(table.WINDOWS))


if __name__ == "__main__":  # pragma: no cover
    main()
