"""Bad flags on the command line: one line naming the flag and what it expected, exit 2, before any
compile or solve (argparse's own errors too, without the usage block)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("triton")

ROOT = Path(__file__).resolve().parents[2]
GEMM = str(ROOT / "kernels" / "gemm.py")


def _twill(tmp_path, *argv):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "twill", *argv], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)


@pytest.mark.parametrize("command", ["optimize", "graph"])
@pytest.mark.parametrize("flags, expect", [
    (["--arg", "a_desc=fp16*"], "a_desc=fp16*: not a Triton signature type"),
    (["--arg", "a_desc"], "expected NAME=VALUE"),
    (["--const", "BLOCK_K=abc"], "BLOCK_K=abc: not a constexpr value"),
    (["--const", "=64"], "expected NAME=VALUE with NAME a kernel parameter"),
    (["--num-warps", "four"], "argument --num-warps"),
    (["--no-such-flag"], "unrecognized arguments: --no-such-flag"),
    (["--arch", "a100"], "unknown arch"),
])
def test_a_bad_flag_is_one_line_and_exit_2(tmp_path, command, flags, expect):
    argv = [command, GEMM] + (["--arch", "h100"] if "--arch" not in flags else []) + flags
    r = _twill(tmp_path, *argv)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and expect in lines[0], r.stderr[-2000:]
    assert lines[0].startswith(f"twill {command}: error: ") and "usage:" not in r.stderr
    assert not (tmp_path / "twill-out").exists()


def test_good_flag_values_pass_the_check():
    import argparse

    from twill.commands.common import arg_pair, const_pair

    assert arg_pair("x=*fp16") == ("x", "*fp16") and arg_pair("d=tensordesc<fp16[128, 64]>")[1].startswith("tensordesc")
    assert arg_pair("n=i32") == ("n", "i32") and arg_pair("c=*kbf16") == ("c", "*kbf16")
    assert [const_pair(f"K={v}")[1] for v in ("64", "0.5", "True", "tl.float16", "'relu'", "None")] == \
        ["64", "0.5", "True", "tl.float16", "relu", "None"]
    with pytest.raises(argparse.ArgumentTypeError):
        arg_pair("x=float16*")


def test_tritons_fp_fusion_warning_is_not_printed_beside_a_refusal(tmp_path):
    # Triton 3.9 warns once a process that its FP-fusion default changes in 3.10; beside a refusal it made three
    # lines of stderr where twill promises one (session 71, tests/corpus/liger_neighborhood_attn_qk.py under 3.9)
    child = ("import warnings\nfrom twill.cli import main\n"
             "rc = main(['optimize', 'no_such_kernel.py', '--arch', 'h100'])\n"
             "warnings.warn('TRITON_DEFAULT_FP_FUSION is unset: defaulting to FP fusion ENABLED', UserWarning)\n"
             "raise SystemExit(rc)\n")
    r = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, cwd=tmp_path, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode != 0
    assert len(r.stderr.strip().splitlines()) == 1 and "FP_FUSION" not in r.stderr, r.stderr
