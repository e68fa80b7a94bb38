"""The pytest plugin that runs ruling files (registered through the ``pytest11`` entry point).

Installing sgs-dsl is enough: ``pytest`` then collects

- every ``*.ruling`` file inside a folder named ``rulings`` (``tests/rulings/`` here), and
- every ``*.ruling`` file named on the command line, wherever it is,

with one test item per ruling, named by its title
(``tests/rulings/cards.ruling::<title>``). An item fails when the runner reports
failures (an unanswered question, an unused or illegal scripted answer, an expectation
not met) or when the trace differs from its snapshot. A file that does not parse gives
one failing item, ``<file>::load_error``, showing the diagnostics.

Snapshots are syrupy's: ``pytest --snapshot-update`` writes them, one amber file per
ruling file in ``__snapshots__`` beside it (see :mod:`sgs_dsl.rulings.snapshot`), and
syrupy reports (and, when updating, deletes) the snapshots of rulings that no longer
exist, as it does for ordinary tests.

The ini option ``sgs_rulings_library`` lists extra ``.sgs`` files or folders (your
own heroes and cards) to load with the built-in library for every ruling.

Nothing heavy is imported when pytest loads this plugin: the ruling parser, the
runner and syrupy are imported when a ruling file is collected or run.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ..extras import install_hint

#: The name of the one item of a ruling file that does not load.
LOAD_ERROR_ITEM = "load_error"

_LIBRARY_KEY = pytest.StashKey[Any]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "sgs_rulings_library",
        type="paths",
        default=[],
        help="extra .sgs files or folders loaded with the built-in library for ruling files",
    )


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix != ".ruling":
        return None
    if parent.session.isinitpath(file_path) or _in_rulings_folder(file_path, parent.config.rootpath):
        return RulingFile.from_parent(parent, path=file_path)
    return None


def _in_rulings_folder(path: Path, root: Path) -> bool:
    try:
        folders = path.parent.relative_to(root).parts
    except ValueError:
        folders = path.parent.parts
    return "rulings" in folders


# --- syrupy bookkeeping -----------------------------------------------------------------------
#
# syrupy tracks only pytest.Function items; it is told about ruling items here so that
# its unused-snapshot report (and the clean-up of --snapshot-update) knows which
# rulings were collected, selected and run.


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    collected = _syrupy_dict(config, "_collected_items")
    if collected is not None:
        for item in items:
            if isinstance(item, RulingItem):
                collected[item.nodeid] = item


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    selected = _syrupy_dict(session.config, "_selected_items")
    if selected is None:
        return
    try:
        from syrupy.session import ItemStatus
    except ImportError:  # pragma: no cover - a syrupy without it
        return
    for item in session.items:
        if isinstance(item, RulingItem):
            selected[item.nodeid] = ItemStatus.NOT_RUN


def _syrupy_dict(config: pytest.Config, name: str) -> dict[str, Any] | None:
    value = getattr(getattr(config, "_syrupy", None), name, None)
    return value if isinstance(value, dict) else None


# --- collection ---------------------------------------------------------------------------------


class RulingFailure(Exception):
    """A ruling that does not hold, or a ruling file that does not load: shown without traceback."""


class _Target:
    """What syrupy reads as a test's function: a module name and a name."""

    def __init__(self, module: str, name: str):
        self.__module__ = module
        self.__name__ = name


class RulingFile(pytest.File):
    """A ``.ruling`` file: one item per ruling, or one failing item when it does not load."""

    def collect(self) -> Iterable[pytest.Item]:
        from sgs_dsl.rulings.parser import load_rulings
        from sgs_dsl.syntax.diagnostics import SgsError

        try:  # a bad file, or bad .sgs text in sgs_rulings_library
            rulings = load_rulings(_shown_path(self.path), _library(self.config))
        except SgsError as error:
            yield RulingLoadError.from_parent(self, name=LOAD_ERROR_ITEM, error=error)
            return
        for ruling in rulings:
            yield RulingItem.from_parent(self, name=ruling.title, ruling=ruling)


class _RulingNode(pytest.Item):
    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.obj = _Target(self.path.stem, self.name)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, RulingFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def _where(self, line: int = 0) -> str:
        path = _relative(self.path, self.config.rootpath)
        return f"{path}:{line}" if line > 0 else path


class RulingItem(_RulingNode):
    """One ruling: run it, check its failures, compare its trace with the snapshot."""

    def __init__(self, *, ruling: Any, **kwargs: Any):
        super().__init__(**kwargs)
        self.ruling = ruling

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, max(0, int(getattr(self.ruling, "line", 1)) - 1), f"ruling {self.name}"

    def runtest(self) -> None:
        from sgs_dsl.rulings.runner import run_ruling

        try:
            result = run_ruling(self.ruling, library=_library(self.config))
        except BaseException:
            # No trace to compare: the stored one stays (not reported unused, not deleted).
            _keep_snapshots(self, [self.name])
            raise
        failures = [str(f) for f in result.failures]
        if failures:
            # The trace of a ruling that does not hold is not compared nor written: the
            # stored one stays until the ruling holds again.
            _keep_snapshots(self, [self.name])
            raise RulingFailure(self._message(failures, None, result.trace))
        diff = _compare_with_snapshot(self, result.trace)
        if diff is not None:
            raise RulingFailure(self._message([], diff, result.trace))

    def _message(self, failures: list[str], diff: list[str] | None, trace: Iterable[str]) -> str:
        ruling = self.ruling
        if failures:
            count = f"{len(failures)} failure{'s' if len(failures) != 1 else ''}"
            first = _indent_tail(failures[0], "  ")
            out = [f"{count}: {first}" if len(failures) == 1 else f"{count}, the first: {first}"]
        else:
            out = [diff[0] if diff else "the trace differs from its snapshot"]
        out.append(f"ruling: {ruling.title} ({self._where(int(getattr(ruling, 'line', 0)))})")
        source = getattr(ruling, "source", "")
        if source:
            out.append(f"source: {source}")
        if len(failures) > 1:
            out.append("")
            out.extend(f"  - {_indent_tail(f, '    ')}" for f in failures)
        if diff:
            out.append("")
            out.extend(diff[1:])
        if failures:
            out.append("")
            out.append("trace (not compared with the snapshot while the ruling fails):")
            out.extend(f"  {line}" for line in trace)
        return "\n".join(out)


class RulingLoadError(_RulingNode):
    """The one item of a ruling file that does not load: fails with its diagnostics."""

    def __init__(self, *, error: Exception, **kwargs: Any):
        super().__init__(**kwargs)
        self.error = error

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"ruling file {self.path.name}"

    def runtest(self) -> None:
        # The rulings of this file were not run: their snapshots stay as they are.
        _keep_snapshots(self, None)
        render = getattr(self.error, "render", None)
        text = render() if callable(render) else str(self.error)
        raise RulingFailure(f"{self._where()}: the ruling file does not load\n\n{text}")


def _indent_tail(text: str, indent: str) -> str:
    return text.replace("\n", "\n" + indent)


def _shown_path(path: Path) -> Path:
    """The path as diagnostics show it: relative to the current folder when inside it."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _library(config: pytest.Config) -> Any:
    """None (the runner's default library), or the built-in one plus ``sgs_rulings_library``."""
    if _LIBRARY_KEY not in config.stash:
        paths = [Path(p) for p in config.getini("sgs_rulings_library")]
        if paths:
            from sgs_dsl.compiler.library import load_library

            config.stash[_LIBRARY_KEY] = load_library(paths)
        else:
            config.stash[_LIBRARY_KEY] = None
    return config.stash[_LIBRARY_KEY]


# --- snapshots --------------------------------------------------------------------------------


def _syrupy_session(item: pytest.Item) -> Any:
    session = getattr(item.config, "_syrupy", None)
    if session is None:
        raise RulingFailure(
            "ruling traces are compared with syrupy snapshots, and the syrupy pytest plugin is not active: "
            f"install it ({install_hint('test')}) and do not disable it (-p no:syrupy)"
        )
    return session


def _location(item: pytest.Item, name: str | None = None) -> Any:
    from syrupy.location import PyTestLocation

    location = PyTestLocation(item)
    if name is not None and name != location.testname:
        # Another ruling of the same file (its own item is not at hand).
        object.__setattr__(location, "nodename", name)
        object.__setattr__(location, "testname", name)
    return location


def _compare_with_snapshot(item: pytest.Item, trace: Iterable[str]) -> list[str] | None:
    """None when the trace matches its snapshot (or was written by --snapshot-update),
    else the lines that say why: a missing snapshot, or a diff of the trace."""
    try:
        from syrupy.assertion import SnapshotAssertion
    except ImportError:
        raise RulingFailure("ruling traces are compared with syrupy snapshots: pip install syrupy") from None
    from sgs_dsl.rulings.snapshot import extension_class

    option = item.config.option
    assertion = SnapshotAssertion(
        session=_syrupy_session(item),
        extension_class=extension_class(),
        test_location=_location(item),
        update_snapshots=bool(getattr(option, "update_snapshots", False)),
        update_new_snapshots_only=bool(getattr(option, "update_new_snapshots_only", False)),
    )
    if assertion == list(trace):
        return None
    result = assertion.executions[assertion.num_executions - 1]
    where = _relative(Path(result.snapshot_location), item.config.rootpath)
    with _colors(item.config):
        from syrupy.terminal import received_style, reset, snapshot_style

        diff = assertion.get_assert_diff(diff_mode=getattr(option, "diff_mode", "detailed"))
        legend = reset(f"{snapshot_style('[- snapshot]')} {received_style('[+ this run]')}")
    if result.exception is not None:
        return [f"the snapshot in {where} could not be compared:", *diff]
    if result.recalled_data is None:
        head = [f"no snapshot of this trace in {where}; run pytest --snapshot-update to write it"]
        return head + ["", "trace:", *(f"  {line}" for line in str(result.asserted_data).split("\n"))]
    body = [line for line in diff if line.strip()] if diff else []
    return [
        f"the trace differs from its snapshot ({where})",
        f"  {legend}",
        *(f"  {line}" for line in body),
        "run pytest --snapshot-update to accept the new trace",
    ]


@contextlib.contextmanager
def _colors(config: pytest.Config) -> Iterator[None]:
    if getattr(config.option, "no_colors", True):
        from syrupy.terminal import disable_color

        with disable_color():
            yield
    else:
        yield


def _keep_snapshots(item: _RulingNode, names: Iterable[str] | None) -> None:
    """Count the stored snapshots ``names`` of the item's file (all when None) as used, but
    not checked: syrupy then neither reports them unused nor deletes them on
    ``--snapshot-update``. Best effort: an unexpected syrupy leaves them to syrupy."""
    session = getattr(item.config, "_syrupy", None)
    if session is None:
        return
    try:
        from syrupy.assertion import AssertionResult, SnapshotAssertion

        from sgs_dsl.rulings.snapshot import extension_class

        extension = extension_class()()
        where = extension.get_location(test_location=_location(item), index=0)
        stored = extension.read_snapshot_collection(snapshot_location=where)
        wanted = None if names is None else set(names)
        for snapshot in stored:
            if wanted is not None and snapshot.name not in wanted:
                continue
            location = _location(item, snapshot.name)
            assertion = SnapshotAssertion(
                session=session, extension_class=extension_class(), test_location=location, update_snapshots=False
            )
            assertion._execution_results[0] = AssertionResult(
                snapshot_location=where,
                snapshot_name=snapshot.name,
                asserted_data=None,
                recalled_data=snapshot.data,
                created=False,
                updated=False,
                success=False,
                exception=None,
                test_location=location,
            )
            assertion._executions = 1
    except Exception:  # pragma: no cover - depends on syrupy's internals
        return
