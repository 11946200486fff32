"""A loop whose trip count is data (a jagged sequence's or a CSR row's range loaded from an offsets table) in the
barrier protocol's simulation and the replay: it runs the simulated trip counts, as a loop over an argument does, so the
pipelined body is checked and timed, not only the branch a program with no iteration takes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from codegen.gluon.protocol import ANY, Recorder, check_kernel

ROOT = Path(__file__).resolve().parents[2]

CSR_ROWS = '''
import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"rowptr": "*i64", "cols": "*i32", "vals": "*fp32", "x": "*fp32", "y": "*fp32"},
              "constexprs": {"D": 128}, "num_warps": 4, "num_stages": 3}


@triton.jit
def csr_rows(rowptr, cols, vals, x, y, D: tl.constexpr):
    row = tl.program_id(0)
    start = tl.load(rowptr + row)
    end = tl.load(rowptr + row + 1)
    acc = tl.zeros([D], dtype=tl.float32)
    for j in range(start, end):
        col = tl.load(cols + j)
        acc += tl.load(vals + j) * tl.load(x + col * D + tl.arange(0, D))
    tl.store(y + row * D + tl.arange(0, D), acc)
'''


def test_a_loop_bounded_by_data_runs_the_simulated_trip_count():
    rec = Recorder()
    rec.trips = 3
    assert list(rec.range(0, ANY, 32)) == [0, 32, 64]       # a producer's loop to a loaded bound, from 0
    assert list(rec.range(ANY)) == [0, 1, 2]
    assert list(rec.range(1, 4)) == [1, 2, 3]               # bounds that are integers: as written
    assert rec.trip_count(ANY) == 3 and rec.trip_count(5) == 5
    assert list(rec.range(ANY, ANY, 1)) == [ANY] * 3       # a start that is data too: the counter is data
    rec.trips = None                                        # outside a simulation of trip counts: data stops it
    with pytest.raises(Exception, match="tensor value"):
        list(rec.range(0, ANY, 1))


def test_the_consumers_copies_in_a_loop_of_loaded_trips_are_followed():
    # FBGEMM's array x jagged bmm (tests/corpus/fbgemm_array_jagged_bmm.py): `range(0, tl.cdiv(batch_K, 32))`, batch_K
    # a difference of loaded offsets; its 32 x 32 tiles copied by the consumer with cp.async for mma.sync. The
    # simulation had stopped at `if twill_n >= 1` ("a condition on a tensor value") and checked none of its copies
    d = ROOT / "bench/results/gluon/fbgemm_array_jagged_bmm"
    source = (d / "kernel_gluon.py").read_text()
    signature = json.loads((d / "gluon.json").read_text())["gluon"]["kernel"]["signature"]
    assert check_kernel(source, signature, 2, 0) == ([], "")
    problems, _ = check_kernel(source.replace("gl.thread_barrier()", "pass"), signature, 2, 0)
    assert problems and "before its copy landed" in problems[0], problems


@pytest.mark.slow
def test_a_csr_row_loop_is_simulated_and_replayed(tmp_path):
    pytest.importorskip("triton")
    from twill.machine.model import load_machine
    from twill.pipeline import OptimizeOptions, optimize
    path = tmp_path / "csr_rows.py"
    path.write_text(CSR_ROWS)
    g = optimize(str(path), load_machine("h100"), OptimizeOptions(time_limit=2.5, total_time=7.5, threads=2)).gluon
    assert g is not None and g.kernel is not None, g and g.reason
    said = [d for d in g.kernel.decisions if d.startswith("barrier protocol:")]
    assert said and said[0].startswith("barrier protocol: simulated for 0, 1, 2"), said
    assert g.chosen.replayed and g.chosen.replayed > 0     # the replay ran the pipelined loop (none before: no trip)
