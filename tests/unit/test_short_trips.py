"""A pipelined loop too short to fill its prologue (``codegen.gluon.trips``, ``kernel.unchecked_trips``): where the
launch counts the loop's iterations from its arguments, each loop's count is checked there, the kernel's other loops
included (they had been checked only for a kernel of one loop: aiter's blocked RMSNorm, session 90, ran its three
loops' prologues on a row of one block); where it cannot (a length the kernel loads), the loop guards its own
pipeline in the kernel."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("triton")

from twill.machine.model import load_machine  # noqa: E402
from twill.pipeline import OptimizeOptions, optimize  # noqa: E402

HEAD = '''
import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"x_ptr": "*fp32", "len_ptr": "*i32", "out_ptr": "*fp32", "N": "i32"},
              "constexprs": {"BLOCK": 1024}, "num_warps": 4, "divisibility": ["x_ptr", "out_ptr"]}

'''

LOADED = HEAD + '''
@triton.jit
def loaded_length_sum(x_ptr, len_ptr, out_ptr, N, BLOCK: tl.constexpr):
    n = tl.load(len_ptr)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, n):
        acc += tl.load(x_ptr + i * BLOCK + offs)
    tl.store(out_ptr + offs, acc)
'''

TWO_PASSES = HEAD + '''
@triton.jit
def two_passes(x_ptr, len_ptr, out_ptr, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, N, BLOCK):
        acc += tl.load(x_ptr + i + offs)
    total = tl.sum(acc, axis=0)
    for i in range(0, N - BLOCK, BLOCK):
        x = tl.load(x_ptr + i + offs)
        tl.store(out_ptr + i + offs, x / total)
'''


def _kernel(tmp_path: Path, source: str):
    path = tmp_path / "k.py"
    path.write_text(source)
    r = optimize(str(path), load_machine("h100"), OptimizeOptions(time_limit=2.5, threads=2))
    assert r.gluon is not None and r.gluon.kernel is not None, r.gluon
    return r.gluon.kernel


def test_a_loop_over_a_loaded_length_guards_its_pipeline_in_the_kernel(tmp_path):
    k = _kernel(tmp_path, LOADED)
    assert max(p.stages for p in k.plan.partitions) == 2
    assert not k.plan.launch_checks                      # nothing the launch can count
    assert "if (twill_n >= 1) | (gl.program_id(0) < 0):" in k.source
    assert "must run at least" not in k.source


def test_each_loop_the_launch_counts_is_checked_there_not_only_a_kernel_of_one_loop(tmp_path):
    k = _kernel(tmp_path, TWO_PASSES)
    assert k.plan.siblings and k.plan.least_trips == 1
    checks = dict(k.plan.launch_checks)
    assert set(checks.values()) == {1} and len(checks) == 2, checks
    decide = k.source[k.source.index("def _decide"):]
    decide = decide[:decide.index("\ndef ")]
    assert decide.count("raise ValueError(f\"twill: this Gluon kernel's loop must run at least 1") == 2
    assert "(N + 1024 - 1) // 1024" in decide and "N - 1024" in decide
    assert "if (twill_n >= 1)" not in k.source       # counted at launch: no branch in the kernel


FIXED = HEAD.replace('"constexprs": {"BLOCK": 1024}', '"constexprs": {"BLOCK": 1024, "K": 4096}') + '''
@triton.jit
def fixed_length_sum(x_ptr, len_ptr, out_ptr, N, BLOCK: tl.constexpr, K: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, K, BLOCK):
        acc += tl.load(x_ptr + i + offs)
    tl.store(out_ptr + offs, acc)
'''


def test_a_count_the_specialisation_fixes_is_checked_when_written_not_at_every_launch(tmp_path):
    k = _kernel(tmp_path, FIXED)
    assert k.plan.launch_checks and all(least <= 4 for _, least in k.plan.launch_checks)   # K / BLOCK = 4 trips
    decide = k.source[k.source.index("def _decide"):]
    decide = decide[:decide.index("\ndef ")]
    assert "must run at least" not in decide and "trips = _ev(" not in decide, decide
