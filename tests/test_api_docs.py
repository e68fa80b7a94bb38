"""docs/api.md's examples run as written: each Python block in a fresh namespace, the agent
module it shows saved as a file and played through the command line (`--agents module:Class`)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"
BLOCK = re.compile(r"```(python|sh)\n(.*?)```", re.S)


def _blocks(kind: str) -> list[str]:
    return [code for lang, code in BLOCK.findall(DOC.read_text(encoding="utf-8")) if lang == kind]


def _agent_module() -> str:
    return next(code for code in _blocks("python") if code.startswith("# my_agent.py"))


@pytest.mark.parametrize("code", [c for c in _blocks("python") if not c.startswith("# my_agent.py")])
def test_a_python_example_runs(code, capsys):
    exec(compile(code, str(DOC), "exec"), {"__name__": "__doc_example__"})
    assert capsys.readouterr().out.strip()  # every example shows something


def _sgs(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).resolve().parent.parent),
                                                                      os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "sgs_dsl.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env=env)


def test_the_agent_module_plays_through_the_command_line(tmp_path):
    (tmp_path / "my_agent.py").write_text(_agent_module(), encoding="utf-8")
    commands = [line.split("#")[0].split()[1:] for code in _blocks("sh") for line in code.splitlines()
                if "my_agent:" in line and not line.lstrip().startswith("sgs play")]
    assert len(commands) == 3
    for args in commands:
        done = _sgs(args, tmp_path)
        assert done.returncode == 0, done.stderr[-1000:]
    simulated = _sgs(["simulate", "-p", "5", "-g", "4", "--agents", "my_agent:Cautious", "--json", "-"], tmp_path)
    assert '"my_agent:Cautious"' in simulated.stdout or "my_agent:Cautious" in simulated.stdout


@pytest.mark.parametrize(("name", "why"), [
    ("no_such_module:X", "cannot import module 'no_such_module'"),
    ("my_agent:Missing", "has no 'Missing'"),
    ("my_agent:NOT_AN_AGENT", "is not an agent class"),
    ("my_agent", "unknown agent 'my_agent'"),
])
def test_an_agent_that_does_not_load_is_a_usage_error(tmp_path, name, why):
    (tmp_path / "my_agent.py").write_text(_agent_module() + "\nNOT_AN_AGENT = 3\n", encoding="utf-8")
    done = _sgs(["run", "--seed", "1", "--agents", name], tmp_path)
    assert done.returncode == 2 and why in done.stderr and "Traceback" not in done.stderr


def test_an_agent_that_answers_no_option_ends_its_game_with_a_rules_error(tmp_path):
    (tmp_path / "bad_agent.py").write_text("class Bad:\n    def __init__(self, seed):\n        pass\n\n"
                                           "    def choose(self, request, view):\n        return 'x'\n",
                                           encoding="utf-8")
    done = _sgs(["run", "--seed", "1", "--agent", "1=bad_agent:Bad"], tmp_path)
    assert done.returncode == 1 and "agent of seat 1 answered 'x'" in done.stderr
