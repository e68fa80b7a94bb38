"""`sgs simulate --backend ray`: the same report as the local backend, on a local two-worker
Ray cluster; a clear usage error when Ray is not installed. Also the chunking both share."""

from __future__ import annotations

import importlib.util
import json
import logging
import socket
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from sgs_dsl.cli import main
from sgs_dsl.sim.batch import CHUNKS_PER_WORKER, MIN_CHUNK, chunk_ranges, run_batch
from sgs_dsl.sim.ray_backend import CONNECT_TIMEOUT_S
from sgs_dsl.sim.stats import TIMING_KEYS, strip_timing

HAS_RAY = importlib.util.find_spec("ray") is not None
needs_ray = pytest.mark.skipif(
    not HAS_RAY, reason="ray is not importable: pip install '.[ray]' to test the Ray backend"
)

# A ruleset only the driver's --library file knows: the workers can play it only if the
# library's text is sent to them.
EXTRA = """\
ruleset ceshi_ray "標準版與EX牌堆，無武將（只在 --library 檔中）" {
  mode identity;
  decks standard, ex;
}
"""


@pytest.fixture(scope="module")
def cluster():
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
    yield ray
    ray.shutdown()


def _report(tmp_path, name: str, *args: str) -> dict:
    out = tmp_path / name
    result = CliRunner().invoke(main, ["simulate", "--quiet", "--json", str(out), *args])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return json.loads(out.read_text(encoding="utf-8"))


@needs_ray
def test_ray_report_is_the_local_report(tmp_path, cluster):
    args = ["--players", "5", "--games", "40", "--seed", "11"]
    local = _report(tmp_path, "local.json", *args, "--backend", "local")
    on_ray = _report(tmp_path, "ray.json", *args, "--backend", "ray")
    assert set(TIMING_KEYS) <= set(on_ray)
    assert on_ray["games"] == 40 and on_ray["errors"] == 0
    assert strip_timing(on_ray) == strip_timing(local)


@needs_ray
def test_ray_actors_play_the_agent_specs_of_the_driver(tmp_path, cluster):
    args = ["--players", "5", "--games", "8", "--seed", "4", "--agent", "lord=heuristic", "--agent", "3=heuristic"]
    local = _report(tmp_path, "local.json", *args)
    on_ray = _report(tmp_path, "ray.json", *args, "--backend", "ray", "--jobs", "2")
    assert on_ray["agents"]["by_role"]["lord"] == {"heuristic": 8}
    assert strip_timing(on_ray) == strip_timing(local)


@needs_ray
def test_ray_actors_seat_the_placed_and_featured_heroes_of_the_driver(tmp_path, cluster):
    args = ["--players", "5", "--games", "10", "--seed", "6", "--hero", "2=曹操", "--feature", "貂蟬"]
    local = _report(tmp_path, "local.json", *args)
    on_ray = _report(tmp_path, "ray.json", *args, "--backend", "ray", "--jobs", "2")
    assert on_ray["featured"]["games"] == 10 and on_ray["wins_by_hero"]["曹操"]["games"] == 10
    assert strip_timing(on_ray) == strip_timing(local)


@needs_ray
def test_ray_workers_get_the_library_files_of_the_driver(tmp_path, cluster):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "extra.sgs").write_text(EXTRA, encoding="utf-8")
    args = ["--library", str(tmp_path / "lib"), "--ruleset", "ceshi_ray", "--games", "12", "--seed", "3"]
    local = _report(tmp_path, "local.json", *args)
    on_ray = _report(tmp_path, "ray.json", *args, "--backend", "ray", "--jobs", "2")
    assert on_ray["ruleset"] == "ceshi_ray" and on_ray["errors"] == 0
    assert strip_timing(on_ray) == strip_timing(local)


@needs_ray
def test_ray_results_stream_back_in_game_order(cluster):
    seen: list[int] = []
    batch = run_batch("basic", 5, 30, 2, jobs=2, backend="ray", on_result=lambda rec: seen.append(rec.index))
    assert len(chunk_ranges(30, 2)) > 2  # more chunks than actors, so they can come back out of order
    assert seen == list(range(30))
    assert [r.index for r in batch.records] == seen
    assert batch.workers == 2 and batch.busy_s > 0


@needs_ray
def test_ray_never_asks_for_more_actors_than_cpus(cluster):
    batch = run_batch("basic", 5, 10, 6, jobs=5, backend="ray")  # 5 one-CPU actors could not all start
    assert batch.workers == 2
    assert [r.index for r in batch.records] == list(range(10))


def test_without_ray_the_backend_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    result = CliRunner().invoke(main, ["simulate", "--backend", "ray", "--games", "2"])
    assert result.exit_code == 2
    assert "pip install '.[ray]'" in result.output
    assert "Traceback" not in result.output


def test_address_is_only_for_the_ray_backend():
    result = CliRunner().invoke(main, ["simulate", "--games", "2", "--address", "127.0.0.1:6379"])
    assert result.exit_code == 2
    assert "--backend ray" in result.output


@pytest.mark.parametrize("games, workers", [(1, 2), (7, 2), (2000, 2), (2000, 1), (100, 8)])
def test_chunks_cover_every_game_once_in_order(games, workers):
    chunks = chunk_ranges(games, workers)
    assert [i for start, stop in chunks for i in range(start, stop)] == list(range(games))
    assert all(stop - start >= MIN_CHUNK for start, stop in chunks[:-1])
    assert len(chunks) <= max(1, workers * CHUNKS_PER_WORKER)


def test_local_jobs_count_the_time_spent_playing():
    batch = run_batch("basic", 5, 12, 4, jobs=2)
    assert [r.index for r in batch.records] == list(range(12))
    assert batch.workers == 2
    assert 0 < batch.busy_s <= 2 * batch.elapsed_s
    assert 0 <= batch.overhead < 1


# --- a cluster address that cannot be reached: checked before Ray is imported ---------------------


def _sgs(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """`sgs ARGS` in a new process with Ray made unimportable, failing (not hanging) the test
    past `timeout`."""
    blocker = "import sys; sys.modules['ray'] = None; from sgs_dsl.cli import main; main()"
    return subprocess.run([sys.executable, "-c", blocker, *args], capture_output=True, text=True,
                          timeout=timeout, check=False)


def _closed_port() -> int:
    """A local TCP port where nothing listens (bound and closed again at once)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("address", ["127.0.0.1:1", "ray://127.0.0.1:{port}", "[::1]:{port}", "localhost:{port}"])
def test_an_address_where_nothing_listens_fails_fast_with_status_69(address):
    address = address.format(port=_closed_port())
    start = time.monotonic()
    done = _sgs("simulate", "--backend", "ray", "--address", address, "-g", "2")
    assert time.monotonic() - start < CONNECT_TIMEOUT_S + 20
    assert done.returncode == 69, done.stderr
    assert done.stderr.startswith(f"error: cannot reach the Ray cluster at {address}: ")
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


def test_an_address_that_does_not_answer_in_time_is_reported(monkeypatch):
    def silent(address, timeout):
        assert timeout == CONNECT_TIMEOUT_S
        raise TimeoutError("timed out")

    monkeypatch.setattr(socket, "create_connection", silent)
    result = CliRunner().invoke(main, ["simulate", "--backend", "ray", "--address", "10.0.0.5:6379", "-g", "2"])
    assert result.exit_code == 69
    assert result.stderr == (f"error: cannot reach the Ray cluster at 10.0.0.5:6379: no answer within "
                             f"{CONNECT_TIMEOUT_S:g} seconds\n")


@pytest.mark.parametrize("address", ["6379", "head:", ":6379", "head:port", "head:0", "head:99999", "head:6379\n",
                                     "a" * 300 + ":6379", "head:" + "9" * 5000])
def test_an_address_that_is_not_host_port_is_a_usage_error(address):
    result = CliRunner().invoke(main, ["simulate", "--backend", "ray", "--address", address, "-g", "2"])
    assert result.exit_code == 2, result.output
    assert "is not a cluster address: give HOST:PORT" in result.stderr and len(result.stderr) < 600


def test_an_unknown_host_or_a_bad_host_name_is_reported(monkeypatch):
    for host, said in (("no-such-host.invalid", "unknown host 'no-such-host.invalid'"),
                       ("x" * 100, f"'{'x' * 40}...' is not a host name")):
        result = CliRunner().invoke(main, ["simulate", "--backend", "ray", "--address", f"{host}:6379", "-g", "2"])
        assert result.exit_code == 69, result.output
        assert said in result.stderr and "Traceback" not in result.output


def test_an_address_that_answers_goes_on_to_ray(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        address = f"127.0.0.1:{server.getsockname()[1]}"
        result = CliRunner().invoke(main, ["simulate", "--backend", "ray", "--address", address, "-g", "2"])
    assert result.exit_code == 2  # the probe passed; then Ray is missing
    assert "pip install '.[ray]'" in result.output
