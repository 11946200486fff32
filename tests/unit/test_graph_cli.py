"""``twill graph`` on the command line: outputs, atomic writes, and bad input as one line with a non-zero exit."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("triton")

from kernels_for_tests import COMPILE_ERROR_LINE, kernel_file  # noqa: E402
from twill.cli import main  # noqa: E402


def run_cli(capfd, *argv: str) -> tuple[int, str, str]:
    rc = main(["graph", *argv])
    out, err = capfd.readouterr()
    return rc, out, err


@pytest.mark.parametrize("name, argv, expect", [
    ("NO_KERNEL", ["--arch", "h100"], "no kernel in file"),
    ("NO_LOOP", ["--arch", "h100"], "no kernel with a loop"),
    ("WITH_IF", ["--arch", "h100"], "scf.if"),
    ("ACC_LOOP", ["--arch", "a100"], "unknown arch"),
    ("COMPILE_ERROR", ["--arch", "h100"], f"compile_error.py:{COMPILE_ERROR_LINE}"),
    ("NEEDS_TORCH", ["--arch", "h100"], "'torch'"),
    ("WILD", ["--arch", "h100"], "--arg NAME=TYPE"),
])
def test_bad_input_is_one_line_and_nonzero_exit(capfd, name, argv, expect):
    rc, out, err = run_cli(capfd, kernel_file(name), *argv)
    assert rc != 0 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and expect in lines[0], err


def test_json_dot_and_atomic_output(capfd, tmp_path):
    path = kernel_file("ACC_LOOP")
    rc, out, _ = run_cli(capfd, path, "--arch", "h100", "--json")
    data = json.loads(out)
    assert rc == 0 and data["schema"] == "twill.graph/1"
    node = data["nodes"][2]
    assert {"id", "kind", "unit", "ops", "line", "shape", "dtype", "variable_latency", "streaming"} <= set(node)
    assert {"src", "dst", "delay", "distance", "blocking"} <= set(data["edges"][0])
    target = tmp_path / "g.dot"
    rc, out, _ = run_cli(capfd, path, "--arch", "h100", "--dot", "-o", str(target))
    assert rc == 0 and out == "" and target.read_text().startswith('digraph "acc_loop"')
    assert [p.name for p in tmp_path.iterdir()] == ["g.dot"]        # no temporary left behind
    # A failing run leaves an existing output untouched.
    rc, _, _ = run_cli(capfd, kernel_file("NO_LOOP"), "--arch", "h100", "-o", str(target))
    assert rc != 0 and target.read_text().startswith('digraph "acc_loop"')


def test_entry_point_error_is_one_line():
    r = subprocess.run([sys.executable, "-m", "twill", "graph", kernel_file("NO_KERNEL"), "--arch", "h100"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
