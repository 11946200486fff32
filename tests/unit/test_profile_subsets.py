"""The Triton route's re-profile in runs of a few regions (#17): planning, halving, combining, and the record plans
each run compiles with (offline, sm_90)."""
from pathlib import Path

import pytest

from profiling.replay import replay
from profiling.subsets import (EVERY, LIMIT, MAX_SPLITS, combine, first_groups, halves, measure_all, run_entry,
                               split_names)
from profiling.trace import load_trace
from twill.errors import CompileError
from twill.validate import subset_fields

ROOT = Path(__file__).resolve().parents[2]
FA3_PLAIN = ["tma_load0_k", "dot0_qk", "reduce0_m_ij", "elementwise0_m_ij", "sfu0_p", "sfu1_alpha", "reduce1_l_ij",
             "elementwise1_acc", "convert0_p", "tma_load1_v", "dot1_acc", "elementwise2_l_i", "wait:wait_barrier:0",
             "wait:warp_group_dot_wait:0", "wait:wait_barrier:1"]


def _fake(cost: dict[str, float], base_it: float = 3800.0):
    """A run whose overhead is the sum of its regions' costs and whose iteration is stretched by it."""
    def measure(grp):
        ov = round(1 + sum(cost[n] for n in grp), 4)
        stats = {n: {"median_cycles": 400.0 if n.startswith("wait:") else 10.0} for n in grp}
        return run_entry(grp, {"regions": stats, "iteration": {"median_cycles": base_it * ov}}, 1.0, ov, None)
    return measure


def test_first_runs_are_sized_from_the_all_region_runs_cost():
    # run 214's FA forward: 15 regions (12 nodes, 3 waits) at x1.263: 1.75 % a region, two a run
    groups = first_groups(FA3_PLAIN, 1.263)
    assert [len(g) for g in groups] == [2] * 7 + [1]
    assert [n for g in groups for n in g] == FA3_PLAIN
    assert first_groups(FA3_PLAIN, 1.02) == [tuple(FA3_PLAIN)]      # already within: one run
    assert first_groups(["a", "b"], None) == [("a",), ("b",)]        # no cost known: one a run
    assert first_groups([], 1.3) == [] and halves(["a"]) == [("a",), ()]


def test_every_region_is_measured_once_and_every_kept_run_within_the_limit():
    cost = {n: 0.02 for n in FA3_PLAIN} | {"dot0_qk": 0.045, "sfu0_p": 0.06}     # sfu0_p alone over the limit
    kept, again = measure_all(FA3_PLAIN, 1.25, _fake(cost), say=lambda s: None)
    measured = [n for r in kept for n in r["regions"]]
    assert sorted(measured) == sorted(FA3_PLAIN)
    # a single region over the limit is kept (nothing to split), every run of two or more within it
    assert all(r["overhead"] <= LIMIT for r in kept if len(r["regions"]) > 1)
    assert [r["regions"] for r in kept if r["overhead"] > LIMIT] == [["sfu0_p"]]
    assert again and all(r["overhead"] > LIMIT and len(r["regions"]) > 1 for r in again)


def test_halving_stops_after_max_splits():
    names = [f"n{i}" for i in range(64)]
    kept, again = measure_all(names, 1.01, _fake({n: 0.2 for n in names}), say=lambda s: None)
    assert len(again) == MAX_SPLITS and sorted(n for r in kept for n in r["regions"]) == sorted(names)


def test_combined_iteration_is_the_median_of_the_runs_over_their_overheads():
    cost = {n: 0.02 for n in FA3_PLAIN}
    kept, again = measure_all(FA3_PLAIN, 1.263, _fake(cost), say=lambda s: None)
    c = combine(kept, again)
    assert c["iteration"]["median_cycles"] == pytest.approx(3800.0, abs=0.2)
    assert c["max_overhead"] == 1.04 and c["every_record_kept"]
    assert set(c["nodes"]) == set(FA3_PLAIN[:12]) and set(c["waits"]) == set(FA3_PLAIN[12:])
    assert all("stats" not in r for r in c["runs"]) and len(c["runs"]) == 8
    assert split_names(FA3_PLAIN[11:13]) == (("elementwise2_l_i",), ("wait:wait_barrier:0",))
    f = subset_fields(c, 3623.8, 1.263)
    assert f["measured_iteration_cycles"] == c["iteration"]["median_cycles"]
    assert f["iteration_error"] == pytest.approx(3800 / 3623.8 - 1, abs=1e-3)
    assert f["profile_overhead"] == 1.04 and f["all_regions_run"]["overhead"] == 1.263


def test_a_run_that_lost_records_says_so():
    lost = {"units_short": 2, "records_expected_per_warp": 960, "records_kept_per_warp": 128}
    e = run_entry(["a"], {"regions": {"a": {"median_cycles": 1}}, "iteration": None}, 1.0, 1.01, lost)
    assert not e["every_record_kept"] and e["iteration_cycles_uninstrumented"] is None
    assert not combine([e])["every_record_kept"] and combine([e])["iteration"] is None


def test_replay_subtracts_the_record_cost_it_is_given():
    ev = load_trace(ROOT / "tests/fixtures/proton_gemm_h200.chrome_trace.json")
    order = ["tma_load0_a", "tma_load1_b", "dot0_acc", "wait:wait_barrier:0", "wait:warp_group_dot_wait:0"]
    own = replay(ev, order, 1.98)
    given = replay(ev, order, 1.98, record_cycles=own["record_overhead_cycles"] - 10)
    assert given["record_overhead_cycles"] == own["record_overhead_cycles"] - 10
    assert given["regions"]["dot0_acc"]["median_cycles"] == own["regions"]["dot0_acc"]["median_cycles"] + 10
    # the iteration is start to start: no record cost in it to subtract
    assert given["iteration"]["median_cycles"] == own["iteration"]["median_cycles"]


def test_record_plans_of_a_subset_compile_offline():
    from profiling.insert import offline_instrumentation, record_plan
    from twill.graph.extract import graph_for_file
    from twill.ir.load import source_of
    from twill.ir.triton_hooks import compile_planned
    from twill.machine.model import load_machine

    h200 = load_machine("h200")
    g, kir = graph_for_file(str(ROOT / "kernels/gemm.py"), h200.target)
    one: list = []
    waits: list = []
    with offline_instrumentation(h200.smem_per_cta):
        k1 = compile_planned(source_of(kir.spec), h200.sm, kir.spec.options, record_plan(g, one, False, ("dot0_acc",)))
        k2 = compile_planned(source_of(kir.spec), h200.sm, kir.spec.options, record_plan(g, waits, True, ()))
        named: list = []
        k3 = compile_planned(source_of(kir.spec), h200.sm, kir.spec.options,
                             record_plan(g, named, ("wait:warp_group_dot_wait:0",), ()))
    assert [r.name for r in one] == ["dot0_acc"] and 'proton.record start "dot0_acc"' in k1.asm["ttgir"]
    assert "tma_load0_a" not in k1.asm["ttgir"] and "wait:" not in k1.asm["ttgir"]
    assert waits and all(r.name.startswith("wait:") for r in waits)
    assert 'proton.record start "wait:' in k2.asm["ttgir"] and '"dot0_acc"' not in k2.asm["ttgir"]
    assert [r.name for r in named] == ["wait:warp_group_dot_wait:0"] and "wait_barrier:0" not in k3.asm["ttgir"]
    with pytest.raises(CompileError, match="no region to insert"):
        record_plan(g, [], False, ())


def test_profile_subsets_runs_each_group_with_its_own_records(tmp_path, monkeypatch):
    """The GPU runner's wiring, the GPU run replaced: each group compiled with its nodes and, for the waits' run, the
    waits alone; the record cost the all-region run measured subtracted; subsets.json written."""
    import types

    import profiling.kernel as pk
    from profiling.insert import Region

    fixture = str(ROOT / "tests/fixtures/proton_gemm_h200.chrome_trace.json")
    asked = []

    def fake_run(p, work, opts, schedule, nodes=None, waits=True, every=1):
        asked.append((nodes, waits))
        assert every == EVERY
        regions = tuple(Region(n, (), n) for n in nodes + waits)
        return types.SimpleNamespace(trace_path=fixture, regions=regions, sm_clock_ghz=1.98, plain_ms=1.0,
                                     instrumented_ms=1.0 + 0.02 * len(regions), proton_dropped=None)

    monkeypatch.setattr(pk, "_run", fake_run)
    prepared = types.SimpleNamespace(iters=None, iters_timed=None, big=[], small=[])
    monkeypatch.setattr(pk, "prepare", lambda *a, **k: prepared)
    whole = {"nodes": {"tma_load0_a": {}, "tma_load1_b": {}, "dot0_acc": {}},
             "waits": {"wait:wait_barrier:0": {}, "wait:warp_group_dot_wait:0": {}},
             "overhead": {"ratio": 1.075}, "record_overhead_cycles": 20}
    out = pk.profile_subsets("kernels/gemm.py", None, str(tmp_path), whole, say=lambda s: None)
    # 1.5 % a region: three a run; the first at x1.06, halved; the waits together
    assert asked == [(("tma_load0_a", "tma_load1_b", "dot0_acc"), ()), (("tma_load0_a", "tma_load1_b"), ()),
                     (("dot0_acc",), ()), ((), ("wait:wait_barrier:0", "wait:warp_group_dot_wait:0"))]
    assert all(r["overhead"] <= LIMIT for r in out["runs"]) and len(out["split_runs"]) == 1
    assert set(out["nodes"]) == {"tma_load0_a", "tma_load1_b", "dot0_acc"}
    assert set(out["waits"]) == {"wait:wait_barrier:0", "wait:warp_group_dot_wait:0"}
    given = replay(load_trace(fixture), ["dot0_acc"], 1.98, record_cycles=20)     # the whole run's record cost
    assert out["nodes"]["dot0_acc"] == given["regions"]["dot0_acc"]
    assert all(r["recorded_every"] == EVERY for r in out["runs"])
    assert (tmp_path / "subsets.json").is_file()


def test_the_summary_lists_the_runs_and_each_region_once():
    from profiling.subsets import subsets_summary

    kept, again = measure_all(FA3_PLAIN, 1.263, _fake({n: 0.02 for n in FA3_PLAIN}), say=lambda s: None)
    text = subsets_summary(combine(kept, again))
    assert text.startswith("runs of a few regions: 8 kept (0 measured again in halves), the largest overhead x1.04")
    assert "iteration: 3800.0 cycles" in text
    for n in FA3_PLAIN:
        assert sum(line.split()[0] == n for line in text.splitlines()) == 1


def test_twill_profile_offers_subsets():
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "twill.cli", "profile", "--help"], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 0 and "--subsets" in r.stdout


def test_subsets_are_wanted_only_over_the_limit():
    from profiling.subsets import wants_subsets

    assert wants_subsets({"overhead": {"ratio": 1.279}}) and not wants_subsets({"overhead": {"ratio": 1.036}})
    assert not wants_subsets({"overhead": {"ratio": None}}) and not wants_subsets({})


def test_sampled_iterations_record_one_in_every_and_compile_offline():
    """#17: the loop unrolled by ``every``, the records in the last copy of its body, a remainder loop without them;
    the plain FA forward's exponent region (x1.07 recording every iteration, run 218) compiles so for sm_90."""
    from profiling.insert import offline_instrumentation, record_plan
    from twill.graph.extract import graph_for_file
    from twill.ir.load import source_of
    from twill.ir.triton_hooks import compile_planned
    from twill.machine.model import load_machine

    h200 = load_machine("h200")
    g, kir = graph_for_file(str(ROOT / "kernels/fa3.py"), h200.target)
    texts = {}
    for every in (1, 4):
        regions: list = []
        with offline_instrumentation(h200.smem_per_cta):
            k = compile_planned(source_of(kir.spec), h200.sm, kir.spec.options,
                                record_plan(g, regions, ("wait:warp_group_dot_wait:0",), ("sfu0_p",), every))
        texts[every] = k.asm["ttgir"]
        assert [r.name for r in regions] == ["sfu0_p", "wait:warp_group_dot_wait:0"]
    one, four = texts[1], texts[4]
    loops = lambda t: t.count("scf.for")        # noqa: E731
    assert loops(four) == loops(one) + 1 and "scf.if" not in four.split("scf.for", 1)[1]
    # four copies in the unrolled loop and one in the remainder: each op of the body five times where it was once
    dots = one.count("ttng.warp_group_dot %")
    assert four.count("ttng.warp_group_dot %") == dots + 4 * dots
    # the records in the last copy only: as many as recording every iteration
    assert four.count('proton.record start "sfu0_p"') == one.count('proton.record start "sfu0_p"') == 1
    assert "arith.ceildivsi" in four


def test_replay_of_sampled_iterations():
    from profiling.trace import Event

    # two warps, 12 iterations of 100 cycles, iterations 3, 7, 11 recorded (every 4)
    ev = [Event(n, 0, 0, w, 1000 + 100 * i + off, c) for w in (0, 4) for i in (3, 7, 11)
          for n, off, c in (("a", 0, 30), ("b", 40, 50))]
    rep = replay(ev, ["a", "b"], 1.98, expected_iters=12, every=4)
    assert rep["iteration"]["median_cycles"] == 100.0 and rep["iteration"]["count"] == 4
    assert rep["lost_records"]["records_expected_per_warp"] == 2 * 3 * 2
    assert rep["lost_records"]["records_kept_per_warp"] == 12
    short = replay(ev[:-2], ["a", "b"], 1.98, expected_iters=12, every=4)
    assert short["lost_records"]["units_short"] == 1


def test_a_sampled_run_traces_a_problem_with_two_recorded_iterations_a_cta():
    import types

    from profiling.kernel import traced_problem

    p = types.SimpleNamespace(small="small", big="big", iters=4, iters_timed=32)
    assert traced_problem(p, 1) == ("small", 4) and traced_problem(p, 2) == ("small", 4)
    assert traced_problem(p, 4) == ("big", 32)           # one recorded iteration a CTA at the traced problem
    assert traced_problem(types.SimpleNamespace(small="s", big=None, iters=1, iters_timed=None), 4) == ("s", 1)


def test_unrolling_renames_a_multi_result_value_it_yields():
    """run 218 (d): the GEMM's loop yields ``%acc_44#0`` (a wgmma wait's first result); the copy after must read the
    copy before's, not the name the remainder loop defines."""
    from profiling.unroll import unroll_recording

    text = "\n".join(["%r:2 = scf.for %i = %lb to %ub step %st iter_args(%a = %z, %c = %k) -> (f32, i32)  : i32 {",
                      '  proton.record start "n"',
                      "  %w:2 = some.op %a, %c : f32, i32",
                      '  proton.record end "n"',
                      "  scf.yield %w#0, %c : f32, i32 loc(#loc2)",
                      "} loc(#loc3)"])
    out = unroll_recording(text, 3).splitlines()
    copies = [x.strip() for x in out if "some.op" in x]
    assert copies == ["%w_twill0:2 = some.op %a, %c : f32, i32", "%w_twill1:2 = some.op %w_twill0#0, %c : f32, i32",
                      "%w_twill2:2 = some.op %w_twill1#0, %c : f32, i32", "%w:2 = some.op %a, %c : f32, i32"]
    assert "scf.yield %w_twill2#0, %c : f32, i32 loc(#loc2)" in [x.strip() for x in out]
    assert sum('proton.record start "n"' in x for x in out) == 1


def test_a_sampled_gemm_compiles_offline():
    """The GEMM's regions recording one iteration in 2, with the committed schedule, compile for sm_90 (run 218 (d):
    its first sampled run did not, on the name above)."""
    from codegen.compile import schedule_plan
    from profiling.insert import offline_instrumentation, record_plan
    from twill.graph.extract import graph_for_file
    from twill.ir.load import source_of
    from twill.ir.triton_hooks import compile_planned
    from twill.machine.model import load_machine

    h200 = load_machine("h200")
    g, kir = graph_for_file(str(ROOT / "kernels/gemm.py"), h200.target)
    plan = schedule_plan((ROOT / "bench/results/schedules/gemm-h200/annotated.ttgir").read_text(), h200.sm)
    with offline_instrumentation(h200.smem_per_cta, buffer_type="global", buffer_size=1 << 16):
        k = compile_planned(source_of(kir.spec), h200.sm, kir.spec.options,
                            plan + record_plan(g, [], False, ("tma_load0_a", "tma_load1_b", "dot0_acc"), 2))
    assert k.asm["ttgir"].count('proton.record start "dot0_acc"') == 1


def test_an_instrumented_run_whose_output_differs_from_the_plain_kernels_stops_in_one_line(tmp_path, monkeypatch):
    """Run 218 (c): the body written twice under an scf.if computed a wrong result; every run now compares."""
    import torch

    import profiling.run as pr
    from twill.errors import DeviceError, ProfileError
    from twill.ir.triton_hooks import PassPlan

    monkeypatch.setattr(pr, "require_gpu", lambda: torch)
    monkeypatch.setattr(pr, "device_info", lambda t: {"sm_clock_ghz": 1.98, "gpu": "none"})
    monkeypatch.setattr(pr, "_mode", lambda *a: None)
    monkeypatch.setattr(pr, "_bench", lambda *a: None)
    monkeypatch.setattr(pr, "record_plan", lambda *a: PassPlan())
    monkeypatch.setattr(pr, "compiled_kernel", lambda k: None)
    monkeypatch.setattr(pr, "_plain", lambda *a: torch.ones(4))
    g = type("G", (), {"name": "k"})()
    monkeypatch.setattr(pr, "_traced", lambda *a: (None, torch.tensor([1.0, 1.0, 1.0, 3.0]), []))
    with pytest.raises(ProfileError, match="computes another result than the plain one"):
        pr.profile_run(g, lambda: None, None, (), str(tmp_path), every=2)
    monkeypatch.setattr(pr, "_traced", lambda *a: (None, torch.ones(4), []))
    with pytest.raises(DeviceError, match="Proton wrote no trace"):      # same output: on to the trace
        pr.profile_run(g, lambda: None, None, (), str(tmp_path), every=2)
