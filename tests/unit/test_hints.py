"""Source hints: the tl.range / launch options closest to a schedule, and what they cannot say."""
import dataclasses
import json
from pathlib import Path

import pytest

from codegen.hints import hints
from twill.graph.io import graph_from_dict
from twill.machine.model import load_machine
from twill.schedule.model import Schedule

H200 = load_machine("h200")

SCHED = Path(__file__).resolve().parents[2] / "bench/results/schedules"


def _load(name):
    d = json.loads((SCHED / f"{name}-h200/schedule.json").read_text())
    return graph_from_dict(d["graph"]), Schedule.from_dict(d)


def test_gemm_hint_is_num_stages_from_the_load_distance():
    g, s = _load("gemm")
    h = hints(g, s, H200)
    assert dict(h.range_kwargs) == {"num_stages": 3} and dict(h.launch) == {"num_warps": 8, "num_stages": 3}
    assert h.tune == (2, 4) and not h.lost                  # one compute op: nothing lost
    assert "tl.range(lo, hi, step, num_stages=3)" in h.text(61)


def test_fa3_hint_says_the_cluster_order_is_lost_and_a_warp_map_asks_for_warp_specialize():
    g, s = _load("fa3")
    h = hints(g, s, H200)
    assert dict(h.range_kwargs) == {"num_stages": 2} and h.tune == (2, 3)
    assert any("loop.cluster" in x for x in h.lost)
    warps = tuple((o.id, 1 if o.variable_latency else 0) for o in g.ops)
    hw = hints(g, dataclasses.replace(s, warp=warps), H200)
    assert dict(hw.range_kwargs)["warp_specialize"] is True and any("warp assignment" in x for x in hw.lost)
    assert hw.to_dict()["tl.range"] == {"num_stages": 2, "warp_specialize": True}


def _warped(g, s, **ws):
    warps = tuple((o.id, 1 if o.variable_latency else 0) for o in g.ops)
    s = dataclasses.replace(s, warp=warps)
    return s.with_extra(warp_specialization=ws) if ws else s


def test_no_warp_specialize_when_the_warp_assignment_was_not_written():
    """FA3 on sm_90 with one compute group: Triton 3.6 miscompiles it, twill writes the stages only,
    so the hint must not ask Triton's own scheduler for warp specialization either."""
    g, s = _load("fa3")
    h = hints(g, _warped(g, s, warp_specialized=False, reason="one compute partition ..."), H200)
    assert "warp_specialize" not in dict(h.range_kwargs) and "warp_specialize=True" not in h.text()
    assert any("not written" in x for x in h.lost)


def test_one_num_stages_per_output_when_warp_specialization_compiled_at_a_depth():
    g, s = _load("fa3")
    h = hints(g, _warped(g, s, warp_specialized=True, num_stages=1), H200)
    assert dict(h.range_kwargs) == {"num_stages": 1, "warp_specialize": True}
    assert dict(h.launch)["num_stages"] == 1
    assert "num_stages=2" not in h.text() and "num_stages=3" not in h.text() and "tune:" not in h.text()


def test_the_sm90_note_is_not_given_on_blackwell():
    g, s = _load("fa3")
    text = hints(g, _warped(g, s, warp_specialized=True), load_machine("b200")).text()
    assert "warp_specialize=True" in text and "sm_90" not in text
    assert "sm_90" in hints(g, _warped(g, s, warp_specialized=True), H200).text()


def test_tune_range_is_bounded_by_the_trip_count_and_stays_near_the_depth():
    g, s = _load("gemm")
    small = g.with_ops(dataclasses.replace(o, smem=1024) if o.variable_latency else o for o in g.ops)
    h = hints(small, s, H200)            # 2 KB of loads: shared memory alone would allow 100 stages
    n = dict(h.range_kwargs)["num_stages"]
    assert h.tune[1] <= n + 1 and "2..100" not in h.text()
    short = small.with_meta(trip_count=2)
    h = hints(short, s, H200)
    assert dict(h.range_kwargs)["num_stages"] <= 2 and (h.tune is None or h.tune[1] <= 2)


def test_a_hint_never_cuts_a_quoted_message_in_half():
    g, s = _load("fa3")
    spread = dataclasses.replace(s, start=tuple((k, v + (s.ii if k.startswith("dot0") else 0)) for k, v in s.start),
                                 length=s.length + s.ii)
    text = hints(g, spread, H200, triton_version="3.6.0").text()
    for line in text.splitlines():
        body = line.replace("n't", "nt").replace("loop's", "loop").replace("twill's", "twill").replace("Triton's", "T")
        assert body.count("'") % 2 == 0, line


def test_the_trip_count_is_read_when_the_loop_bounds_are_constants():
    from types import SimpleNamespace

    from twill.pipeline import trip_count

    g, _ = _load("gemm")
    g = g.with_meta(loop_index=0)
    ir = ("%c0_i32 = arith.constant 0 : i32\n%c64_i32 = arith.constant 64 : i32\n%c200_i32 = arith.constant 200 : i32\n"
          "%r = scf.for %k = %c0_i32 to {} step %c64_i32 iter_args(%a = %c0_i32) -> (i32)  : i32 {{\n"
          "  scf.yield %a : i32\n}}\n")
    assert trip_count(SimpleNamespace(text=ir.format("%c200_i32")), g) == 4
    assert trip_count(SimpleNamespace(text=ir.format("%K")), g) is None      # bound by the launch


def test_a_deep_schedule_of_a_small_load_is_hinted_at_most_eight_stages(tmp_path):
    """A scalar load read, doubled and stored back (its 600-cycle latency over a 2-cycle iteration): the schedule runs
    hundreds of stages deep, the hint no deeper than MAX_HINT_STAGES (it had said num_stages=305). And a keyword
    step of Python's range, which Triton 3.6 drops (it compiles step 1), gets a note naming the line."""
    import subprocess
    import sys
    from codegen.hints import MAX_HINT_STAGES

    (tmp_path / "k.py").write_text('import triton\nimport triton.language as tl\n'
                                   'TWILL_SPEC = {"signature": {"x": "*fp32", "n": "i32"}}\n\n\n@triton.jit\n'
                                   'def k(x, n):\n    for i in range(0, n, step=2):\n'
                                   '        tl.store(x + i, tl.load(x + i) * 2)\n')
    r = subprocess.run([sys.executable, "-m", "twill", "optimize", "k.py", "--arch", "h100", "-o", "out",
                        "--emit", "triton"], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       env=dict(__import__("os").environ, PYTHONPATH=str(Path(__file__).resolve().parents[2])))
    assert r.returncode == 0, r.stderr
    said = r.stdout + r.stderr
    assert f"tl.range(lo, hi, step, num_stages={MAX_HINT_STAGES})" in said, said
    assert "k.py:8: `range(..., step=...)`: Triton 3.6 ignores a keyword step" in said, said


def test_a_loop_of_no_load_is_told_one_stage_and_the_launch_keeps_the_kernels():
    """FastVideo's top-k mask (session 91's sweep): a 32-step bisection over scalars, no memory op in the loop; its
    hint had asked Triton for num_stages=2 there, as if it had loads to run ahead. The launch's num_stages (every loop
    of the kernel) is the kernel's as before."""
    pytest.importorskip("triton")
    from twill.pipeline import OptimizeOptions, optimize
    path = Path(__file__).resolve().parents[2] / "tests/corpus/fastvideo_fused_topk_mask.py"
    r = optimize(str(path), H200, OptimizeOptions(time_limit=2.5, threads=2))
    h = r.schedule.get("hints")
    assert h["tl.range"] == {"num_stages": 1} and h["tune_num_stages"] is None
    assert h["launch"]["num_stages"] >= 1


def test_the_hint_names_a_helpers_loop_by_its_own_line_and_the_call():
    # the tutorial's causal attention: the K loop inside _attn_fwd_inner; the hint had named the call's line alone
    pytest.importorskip("triton")
    from twill.ir.frontend import read_kernel
    from twill.pipeline import graph_of
    m = load_machine("h100")
    path = Path(__file__).resolve().parents[1] / "corpus" / "causal_attention.py"
    g = graph_of(read_kernel(str(path), m.target), m.target, None, where=str(path))
    where = g.get("loop_where")
    assert where is not None and where.startswith("causal_attention.py:") and "(in a helper called at line " in where
    own = int(where.split(":", 1)[1].split()[0])
    assert "for start_n in" in path.read_text().splitlines()[own - 1]
    h = hints(g, Schedule(ii=1, length=1, start=tuple((o.id, 0) for o in g.ops), status="optimal", lower_bound=1), m)
    assert h.text(where).startswith(f"source hints (the loop at {where}): ")
