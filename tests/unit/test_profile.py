"""profiling: record insertion compiles offline; the H200 Proton trace fixtures parse and replay."""
import json
from pathlib import Path

import pytest

from profiling.profile import load_profile_for, make_profile, to_perfetto
from profiling.replay import clock_wraps, replay
from profiling.trace import Event, load_trace
from twill.errors import ProfileError
from twill.graph.io import graph_from_dict

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests/fixtures"
GEMM_ORDER = ["tma_load0_a", "tma_load1_b", "dot0_acc", "wait:wait_barrier:0", "wait:warp_group_dot_wait:0"]


def _gemm_graph():
    d = json.loads((ROOT / "bench/results/schedules/gemm-h200/graph.json").read_text())
    return graph_from_dict(d)


def test_fixture_parses_into_cycles_per_warp():
    ev = load_trace(FIX / "proton_gemm_h200.chrome_trace.json")
    assert {e.cta for e in ev} == {0, 1} and {e.warp for e in ev} == {0, 4}
    assert {e.name for e in ev} == set(GEMM_ORDER)
    assert all(e.cycles >= 0 for e in ev) and not clock_wraps(ev)


def test_replay_gemm_iteration_matches_k_loop():
    ev = load_trace(FIX / "proton_gemm_h200.chrome_trace.json")
    r = replay(ev, GEMM_ORDER, 1.98, expected_iters=64)
    it = r["iteration"]
    # 128x256x64 fp16 per iteration at 4096 flop/cycle/SM is 1024 cycles; measured within 10%
    assert 900 < it["median_cycles"] < 1150, it
    assert r["lost_records"]["units_short"] == 0
    # overhead subtracted: the empty A-load region is near zero after subtraction
    assert r["regions"]["tma_load0_a"]["median_cycles"] < 30 < r["record_overhead_cycles"] + 10


def test_replay_fa3_reports_lost_records():
    ev = load_trace(FIX / "proton_fa3_h200.chrome_trace.json")
    order = ["tma_load0_k", "dot0_qk", "sfu0_p", "dot1_acc"]
    r = replay(ev, order, 1.98, expected_iters=32)
    assert r["lost_records"]["units_short"] > 0     # the shared buffer wrapped: 128 of 960 kept per warp
    assert r["regions"]["wait:warp_group_dot_wait:0"]["count"] > 0   # waits timed apart from issues


def test_clock_wrap_is_detected():
    ev = [Event("a", 0, 0, 0, 100, 5), Event("a", 0, 0, 0, 50, 5)]
    assert clock_wraps(ev)


def test_profile_refuses_other_kernel_or_arch(tmp_path):
    g = _gemm_graph()
    ev = load_trace(FIX / "proton_gemm_h200.chrome_trace.json")
    prof = make_profile(g, replay(ev, GEMM_ORDER, 1.98), arch="h200", gpu="NVIDIA H200", triton_version="3.6.0",
                        kernel_source_sha256="", problem={}, launch={}, overhead={})
    p = tmp_path / "p.json"
    p.write_text(json.dumps(prof))
    assert set(load_profile_for(str(p), g, "h200")) == {"tma_load0_a", "tma_load1_b", "dot0_acc"}
    with pytest.raises(ProfileError, match="another arch"):
        load_profile_for(str(p), g, "b200")
    prof["kernel"] = "_attn_fwd"
    p.write_text(json.dumps(prof))
    with pytest.raises(ProfileError, match="another kernel"):
        load_profile_for(str(p), g, "h200")
    assert to_perfetto(ev, 1.98, 1)["traceEvents"][0]["args"]["cycles"] >= 0


def test_records_inserted_and_compiled_offline():
    from profiling.insert import offline_instrumentation, record_plan
    from twill.graph.extract import graph_for_file
    from twill.ir.load import source_of
    from twill.ir.triton_hooks import compile_planned
    from twill.machine.model import load_machine

    h200 = load_machine("h200")
    g, kir = graph_for_file(str(ROOT / "kernels/gemm.py"), h200.target)
    regions: list = []
    with offline_instrumentation(h200.smem_per_cta):
        k = compile_planned(source_of(kir.spec), h200.sm, kir.spec.options, record_plan(g, regions))
    assert {r.name for r in regions} >= {"tma_load0_a", "tma_load1_b", "dot0_acc"}
    assert k.metadata.profile_scratch_size > 0 and len(k.asm["cubin"]) > 0
    assert 'proton.record start "dot0_acc"' in k.asm["ttgir"]
