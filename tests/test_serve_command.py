"""`sgs serve` as a user starts it: the address it listens on (a free port for --port 0),
one line and exit status 1 for an address it cannot use, exit status 0 on Ctrl-C."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _serve(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "sgs_dsl.cli", "serve", *args], cwd=ROOT,
                            stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def test_port_0_serves_on_the_free_port_it_prints_and_ctrl_c_stops_it_cleanly():
    server = _serve("--port", "0")
    try:
        line = server.stderr.readline()
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", line).group(1))
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/setup", timeout=5) as answer:
                    assert "standard" in [r["name"] for r in json.load(answer)["rulesets"]]
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not answer")
    finally:
        server.send_signal(signal.SIGINT)
        status = server.wait(30)
    rest = server.stderr.read()
    assert status == 0 and "Traceback" not in rest and "Aborted" not in rest


def test_an_address_in_use_is_one_line_and_status_1():
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        server = _serve("--port", str(port))
        _, err = server.communicate(timeout=60)
    finally:
        taken.close()
    assert server.returncode == 1
    assert err.strip().splitlines() == [f"error: cannot serve on 127.0.0.1:{port}: Address already in use"]
