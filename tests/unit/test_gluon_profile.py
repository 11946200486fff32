"""Proton regions in the Gluon kernels twill generated: found per partition, inserted, compiled for sm_90
without a GPU (the records in the TTGIR, the sampled warps and buffer as Proton lowers them), planned
into disjoint low-overhead runs, and read back from a trace."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from codegen.gluon.generate import load_module
from profiling.gluon import (instrument, partition_warps_from_llir, plan_runs, records_per_warp, scopes_of,
                             shared_records_per_warp, warp_starts)
from profiling.gluon_profile import Variant
from profiling.gluon_trace import combine, compare, summarize
from profiling.trace import Event

ROOT = Path(__file__).resolve().parents[2]
GLUON = ROOT / "bench/results/gluon"


def _variant(name: str):
    d = GLUON / name
    g = json.loads((d / "gluon.json").read_text())
    src = (d / "kernel_gluon.py").read_text()
    return src, g, scopes_of(src, g["warp"])


def test_regions_of_the_warp_specialized_fa_forward():
    _, g, ks = _variant("fa3_subtiled")
    assert [(p.function, p.num_warps, p.first_warp) for p in ks.partitions] == \
        [("consumer_0", 4, 0), ("consumer_1", 4, 4), ("producer_2", 1, 10)]
    assert ks.total_warps == 12
    names = set(ks.names())
    assert {"p0:dot0_qk0", "p0:sfu0_p0", "p1:dot3_acc1", "p0:wait:k_ready",
            "p0:wait:dot2_acc0+dot0_qk0", "p2:tma_load0_k", "p2:tma_load1_v", "p2:wait:k_empty"} <= names
    assert "p0:wait:twill_turn0" in set(_variant("fa3-tc-order")[2].names())   # a turn barrier's wait
    # every graph node of a consumer's loop has a region in the partition the schedule put it in
    for node, part in g["warp"].items():
        assert f"p{part}:{node}" in names, node
    assert ks.by_name["p0:dot0_qk0"].kind == "node" and ks.by_name["p0:wait:k_ready"].node is None


def test_regions_of_a_kernel_with_two_loops_are_the_scheduled_loops_in_its_guard():
    # causal attention: the blocks before the diagonal (the scheduled loop, inside `if twill_n >= 1`, since the
    # first query block has none) and the diagonal's loop (commented with its own graph's nodes): the regions
    # are the scheduled loop's, every node of its graph timed in the partition the schedule put it in
    src, g, ks = _variant("fa_causal")
    names = set(ks.names())
    for node, part in g["warp"].items():
        assert f"p{part}:{node}" in names, node
    assert "p0:elementwise0_qk_s0" not in names            # the diagonal loop's mask: not the scheduled loop's
    guard = src.splitlines()[ks.partitions[0].loop_line - 1]
    assert guard.strip().startswith("for twill_b in range(1, twill_n)") and ks.partitions[0].indent == 12


def test_regions_of_the_gemm_name_the_producers_loads_by_ring():
    _, _, ks = _variant("gemm")
    assert ks.names(1) == ("p1:wait:a_23_empty", "p1:tma_load0_a", "p1:wait:b_empty", "p1:tma_load1_b")
    assert ks.by_name["p1:tma_load0_a"].spans[0][1] - ks.by_name["p1:tma_load0_a"].spans[0][0] == 1   # expect + copy
    assert [p.first_warp for p in ks.partitions] == [0, 10]
    assert ks.sampling(["p0:dot0_acc", "p1:tma_load1_b"]) == "0,10" and ks.sampling(["p1:tma_load1_b"]) == "10"


def test_the_reduction_is_a_region_of_the_reducer_and_of_the_producer_that_shares_it():
    # FA backward: the reducer's atomic loop and the producer's share of it (its wait included) are timed as the
    # atomic add's graph node in each partition, beside the reducer's wait for the consumers' partials
    _, _, ks = _variant("fa_bwd")
    assert ks.names(3) == ("p3:wait:twill_red_ready0", "p3:store0")
    assert "p2:store0" in ks.names(2) and ks.by_name["p3:store0"].kind == "node"
    assert [p.function for p in ks.partitions][2:] == ["producer_2", "reducer_3"]


def test_warp_layout_as_triton_allocates_it():
    assert warp_starts(4, [4, 1]) == ([4, 10], 12)
    assert warp_starts(8, [1]) == ([10], 12)
    assert warp_starts(4, [4]) == ([4], 8)
    assert warp_starts(4, [1, 1]) == ([6, 7], 8)


def test_instrument_inserts_only_the_chosen_regions():
    src, _, ks = _variant("fa3_subtiled")
    pick = ["p0:sfu0_p0", "p2:wait:k_empty"]
    text = instrument(src, ks, pick)
    ast.parse(text)
    enters = re.findall(r'twill_pl\.enter_scope\("([^"]+)"\)', text)
    exits = re.findall(r'twill_pl\.exit_scope\("([^"]+)"\)', text)
    assert sorted(enters) == sorted(exits) == sorted(pick + ["p0:empty", "p2:empty"])
    assert [ln for ln in text.splitlines() if "twill_pl" not in ln] == src.splitlines()   # nothing else changed
    lines = text.splitlines()
    i = [ln.strip() for ln in lines].index('twill_pl.enter_scope("p0:sfu0_p0")')
    assert lines[i].startswith(" " * ks.by_name["p0:sfu0_p0"].indent + "twill_pl")    # inside the loop body
    assert "# sfu0_p0:" in lines[i + 1] and "# sfu0_p0:" in lines[i + 5] and "exit_scope" in lines[i + 6]
    with pytest.raises(Exception, match="no such region"):
        instrument(src, ks, ["p9:nothing"])


def test_plan_runs_cover_every_region_once_within_the_buffer():
    _, _, ks = _variant("fa3_subtiled")
    cap = lambda n: shared_records_per_warp(232448, 164480, n)       # noqa: E731
    runs = plan_runs(ks, None, 4, 32, cap)
    flat = [n for r in runs for n in r]
    assert sorted(flat) == sorted(ks.names()) and len(flat) == len(set(flat))
    assert all(len(r) <= 4 and records_per_warp(ks, r, 32) <= cap(len(ks.sampled(r))) for r in runs)
    order = ks.names()
    assert all(abs(order.index(a) - order.index(b)) > 1 for r in runs for a in r for b in r if a != b)
    tight = plan_runs(ks, None, 40, 32, lambda n: 300)               # the buffer, not per_run, splits them
    assert len(tight) > 1 and all(records_per_warp(ks, r, 32) <= 300 for r in tight)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["fa3_subtiled", "gemm", "fa_causal"])
def test_instrumented_kernel_compiles_for_sm90(variant):
    """The CI check that needs no GPU: every region of the committed kernel, inserted, compiled for sm_90
    with Proton's lowering on; each region's start and end records are in the TTGIR, Proton sized its
    shared buffer as ``shared_records_per_warp`` says, and the worker warps are where ``warp_starts`` said."""
    from profiling.gluon import compile_instrumented

    src, g, ks = _variant(variant)
    plain = compile_instrumented(src, g["gluon"]["kernel"])
    assert plain.metadata.profile_scratch_size == 0
    names = ks.names()
    k = compile_instrumented(instrument(src, ks), g["gluon"]["kernel"], sampling=ks.sampling(names))
    ttgir = k.asm["ttgir"]
    for n in names:
        assert f'proton.record start "{n}"' in ttgir and f'proton.record end "{n}"' in ttgir, n
    assert k.metadata.profile_scratch_size > 0 and len(k.asm["cubin"]) > 0
    got = partition_warps_from_llir(k.asm["llir"], ks.num_warps)
    assert {p: w for p, w in got.items() if p < len(ks.partitions)} == \
        {p.index: p.first_warp for p in ks.partitions if p.index}
    records = shared_records_per_warp(232448, plain.metadata.shared, len(ks.partitions))
    masks = {int(m) for m in re.findall(r"and i32 %\w+, (\d+)", k.asm["llir"])}
    assert 2 * records - 1 in masks                      # the circular index wraps at the segment's words
    extra = k.metadata.shared - plain.metadata.shared
    assert len(ks.partitions) * records * 8 <= extra < len(ks.partitions) * records * 8 + 16


@pytest.mark.slow
def test_the_global_record_buffer_leaves_the_fa_forwards_wgmma_loops_without_spills():
    """Why the profile records to a global buffer: with Proton's shared buffer, ptxas spills in a consumer's wgmma
    loop of the FA forward (its consumers hold ~234 of 240 registers) even when only the producer records, which the
    plain kernel does not; with the global buffer it spills there no more than the plain kernel."""
    from codegen.gluon.sass import wgmma_loops
    from profiling.gluon import buffer_for, compile_instrumented

    src, g, ks = _variant("fa3")
    names = [n for n in ks.names() if n.startswith("p2:tma_load")][:1]
    assert names

    def loop_spills(k) -> int:
        return sum(lp.spills for lp in wgmma_loops(k.asm["cubin"]))

    def instrumented(shared: bool):
        btype, bsize = buffer_for(ks, names, 128, lambda n: 4096, shared)
        assert btype == ("shared" if shared else "global")
        return compile_instrumented(instrument(src, ks, names), g["gluon"]["kernel"], sampling=ks.sampling(names),
                                    buffer_type=btype, buffer_size=bsize)
    assert loop_spills(compile_instrumented(src, g["gluon"]["kernel"])) == 0
    assert loop_spills(instrumented(shared=False)) == 0
    assert loop_spills(instrumented(shared=True)) > 0


def _events(name: str, cta: int, warp: int, starts: list[int], dur: int) -> list[Event]:
    return [Event(name, 0, cta, warp, s, dur) for s in starts]


def test_summary_cycles_per_iteration_and_the_combination():
    _, _, ks = _variant("gemm")
    a, b = ("p0:dot0_acc", "p1:tma_load0_a"), ("p0:wait:b_ready", "p1:wait:b_empty")
    it = [1000 * i for i in range(8)]
    run_a = (_events("p0:dot0_acc", 0, 0, it, 50) + _events("p1:tma_load0_a", 0, 10, it, 30)
             + _events("p0:empty", 0, 0, [0], 10) + _events("p1:empty", 0, 10, [0], 12))
    run_b = (_events("p0:wait:b_ready", 0, 0, it, 400) + _events("p1:wait:b_empty", 0, 10, it[:7], 200)
             + _events("p0:empty", 0, 0, [0], 10))
    sa, sb = summarize(run_a, ks, a), summarize(run_b, ks, b)
    assert sa["regions"]["p0:dot0_acc"]["cycles_per_iteration"] == 50
    assert sa["regions"]["p0:dot0_acc"]["net_cycles_per_iteration"] == 40
    assert sa["partitions"]["0"]["period_cycles"] == 1000 and sa["partitions"]["0"]["complete"]
    comb = combine([sa, sb])
    assert comb["partitions"]["0"]["timed_cycles_per_iteration"] == 450
    assert comb["regions"]["p1:wait:b_empty"]["run"] == 1
    single = summarize(run_a + run_b, ks, a + b)
    assert not single["partitions"]["1"]["complete"]       # 8 loads, 7 waits: a record lost
    cmp = compare(comb, single)
    assert cmp["partitions"]["0"]["timed_rel"] == 0.0
    with pytest.raises(ValueError, match="two runs"):
        combine([sa, sa])


def test_the_steady_period_skips_the_gaps_between_tiles_that_the_amortized_one_spreads():
    # a persistent program: three tiles of 8 iterations each 1000 cycles apart, 5000 cycles between tiles (the
    # epilogue and the next tile's first loads): steady 1000, as the replay counts it; amortized 1173.9
    _, _, ks = _variant("gemm")
    starts = [t * 12000 + 1000 * i for t in range(3) for i in range(8)]
    run = _events("p0:dot0_acc", 0, 0, starts, 50) + _events("p0:empty", 0, 0, [0], 10)
    part = summarize(run, ks, ("p0:dot0_acc",))["partitions"]["0"]
    assert part["steady_period_cycles"] == 1000
    assert part["period_cycles"] == pytest.approx((starts[-1] - starts[0]) / 23, abs=0.1)
    comb = combine([summarize(run, ks, ("p0:dot0_acc",))])["partitions"]["0"]
    assert (comb["period_cycles"], comb["amortized_period_cycles"]) == (1000, part["period_cycles"])


def _tile_branches(text: str) -> list[ast.If]:
    return [n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.If) and "% 4 == 0" in ast.unparse(n.test)]


def _body_text(lines: list[str], stmts: list[ast.stmt]) -> list[str]:
    """The lines of ``stmts`` less Proton's records, one indentation level out, the recorded copy's names restored."""
    got = lines[stmts[0].lineno - 1:stmts[-1].end_lineno]
    return [ln[4:].replace("_twr", "") for ln in got if "twill_pl." not in ln]


def test_tile_sampling_writes_a_recorded_partitions_tile_twice_and_leaves_the_plain_copy_the_kernels():
    src, _, ks = _variant("fa3")
    pick = ["p0:reduce0_m_ij_s0", "p2:wait:k_empty"]
    text = instrument(src, ks, pick, every=4)
    lines, orig = text.splitlines(), src.splitlines()
    branches = _tile_branches(text)
    assert len(branches) == 2                                     # partitions 0 and 2; partition 1 is untouched
    for br, p in zip(branches, (0, 2)):
        part = ks.partition(p)
        body = orig[part.body[0] - 1:part.body[1]]
        assert _body_text(lines, br.body) == body and _body_text(lines, br.orelse) == body
        then = "\n".join(lines[br.body[0].lineno - 1:br.body[-1].end_lineno])
        other = "\n".join(lines[br.orelse[0].lineno - 1:br.orelse[-1].end_lineno])
        assert f'enter_scope("p{p}:loop")' in then and f'enter_scope("p{p}:plain_loop")' in other
        assert "empty" in then and re.findall(r'enter_scope\("([^"]+)"\)', other) == [f"p{p}:plain_loop"]
        # only what the tile loop carries is assigned by both copies (Triton yields every such name from the if)
        def assigned(stmts):
            return {n.id for st in stmts for n in ast.walk(st)
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        assert assigned(br.body) & assigned(br.orelse) <= {"twill_base"}
    def consumer_1(t: str) -> str:
        fns = [f for f in ast.parse(t).body if isinstance(f, ast.FunctionDef)]
        return ast.unparse(next(f for f in fns if f.name == "consumer_1"))
    assert consumer_1(text) == consumer_1(src)
    assert instrument(src, ks, pick, every=1) == instrument(src, ks, pick)


def test_a_tile_sampled_run_reads_its_recorded_loops_against_its_plain_tiles_loops():
    from twill.machine.calibrate import run_period

    _, _, ks = _variant("gemm")
    it = [100 + 1100 * i for i in range(8)]                     # a recorded tile: 8 trips, 1100 cycles apart
    run = (_events("p0:dot0_acc", 0, 0, it, 50) + _events("p0:empty", 0, 0, [0], 10)
           + _events("p0:loop", 0, 0, [50], 8850)
           + _events("p0:plain_loop", 1, 0, [40], 8000) + _events("p0:plain_loop", 2, 0, [40], 8100))
    part = summarize(run, ks, ("p0:dot0_acc",))["partitions"]["0"]
    assert (part["recorded_loops"], part["plain_loops"], part["loop_trips"]) == (1, 2, 8)
    assert part["loop_cost"] == pytest.approx(8850 / 8050, abs=1e-4)
    assert part["plain_period_cycles"] == pytest.approx(8050 / 8, abs=0.1)
    assert part["complete"] and part["units"] == 1               # the plain tiles' programs time no region
    assert run_period(part, 1.1) == pytest.approx(1000.0)         # the kernel's overhead corrects the period (run 34)
    plain_run = summarize(run[:9], ks, ("p0:dot0_acc",))["partitions"]["0"]
    assert "loop_cost" not in plain_run and run_period(plain_run, 1.1) == pytest.approx(1000.0)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["gemm", "fa3"])
def test_a_tile_sampled_kernel_compiles_for_sm90_and_its_plain_tiles_keep_the_plain_loop(variant, capfd):
    """The plain copy of a tile's work compiles to the plain kernel's wgmma loop (same wgmmas, waits, barriers and
    spills; instructions within 1 %: ptxas allocates the larger function's registers a little differently), and
    Proton pairs both copies' loop records (no diagnostic)."""
    from codegen.gluon.sass import wgmma_loops
    from profiling.gluon import buffer_for, compile_instrumented

    src, g, ks = _variant(variant)
    names = plan_runs(ks, None, 4, 32, lambda n: 1 << 30)[0]
    plain = [lp.census() for lp in wgmma_loops(compile_instrumented(src, g["gluon"]["kernel"]).asm["cubin"])]
    btype, bsize = buffer_for(ks, names, 32, lambda n: 1, False, every=4)
    k = compile_instrumented(instrument(src, ks, names, every=4), g["gluon"]["kernel"], sampling=ks.sampling(names),
                             buffer_type=btype, buffer_size=bsize)
    assert "error" not in capfd.readouterr().err
    ttgir = k.asm["ttgir"]
    for p in ks.sampled(names):
        assert f'proton.record start "p{p}:loop"' in ttgir and f'proton.record start "p{p}:plain_loop"' in ttgir
    loops = [lp.census() for lp in wgmma_loops(k.asm["cubin"])]
    if not plain:
        pytest.skip("no nvdisasm here to read the SASS")
    consumers = sum(1 for p in ks.sampled(names) if ks.partition(p).function.startswith("consumer"))
    assert len(loops) == len(plain) + consumers
    same = ("wgmma", "wgmma_waits", "partition_barriers", "spills", "mbarrier_waits", "mbarrier_arrives")
    for c in plain:
        assert any(all(c[x] == d[x] for x in same)
                   and abs(d["instructions"] - c["instructions"]) <= 0.01 * c["instructions"] for d in loops), c


@pytest.mark.parametrize("every, made", [(1, [1]), (4, [4, 8, 16])])
def test_a_one_region_run_over_the_target_records_fewer_tiles_only_where_tiles_are_sampled(monkeypatch, every, made):
    import time

    import profiling.gluon_profile as gp

    seen = []

    def run(v, names, label, reference, keep, shared, k):
        seen.append(k)
        return {"label": label, "regions": list(names), "sampling": "0", "buffer": ["global", 0], "every": k,
                "instrumented_ms": 1.2, "plain_adjacent_ms": 1.0, "proton_dropped": None, "seconds": 0.0,
                "summary": {"partitions": {}}}
    monkeypatch.setattr(gp, "traced_run", run)
    monkeypatch.setattr(gp, "plan", lambda *a: [("p0:dot0_acc",)])
    v = type("V", (), {"ks": None, "iterations": 8, "capacity": None, "meta": {"label": "x"}})()
    opts = gp.GluonProfileOptions(every=every, max_every=16)
    runs = gp.subset_runs(v, opts, 1.0, None, None, time.time() + 60, say=lambda m: None)
    assert seen == made and [r.get("superseded", False) for r in runs] == [True] * (len(made) - 1) + [False]


def _stub_run(seen, overheads, parts):
    """A traced run's record as ``traced_run`` returns it, its overhead read from ``overheads`` by call order."""
    def run(v, names, label, reference, keep, shared, k):
        seen.append((tuple(names), k))
        return {"label": label, "regions": list(names), "sampling": "0", "buffer": ["global", 0], "every": k,
                "instrumented_ms": overheads[len(seen) - 1], "plain_adjacent_ms": 1.0, "proton_dropped": None,
                "seconds": 0.0, "summary": {"partitions": {p: {"period_cycles": 1.0, "timed_cycles_per_iteration": 1.0,
                                                        "complete": True} for p in parts(names)}}}
    return run


def test_a_run_within_its_partitions_one_region_floor_is_neither_split_nor_remade(monkeypatch):
    """Run 102: consumer 1's regions cost 1.13-1.14x alone at every tile rate; splitting a run of two of them, or
    recording fewer tiles, cannot go below that, so a run within FLOOR_SLACK of it stands."""
    import time

    import profiling.gluon_profile as gp

    seen = []
    # run0 (a, b) 1.20: split; run1 (a) 1.14: its floor, sampling halved; run2 (a) at 1 in 8 1.14: no lower, stands;
    # run3 (b) 1.145: within the floor, stands; run4 (c, d) 1.15: within the floor, not split
    monkeypatch.setattr(gp, "traced_run", _stub_run(seen, [1.20, 1.14, 1.14, 1.145, 1.15], lambda n: ["1"]))
    monkeypatch.setattr(gp, "plan", lambda *a: [("a", "b"), ("c", "d")])
    v = type("V", (), {"ks": None, "iterations": 8, "capacity": None, "meta": {"label": "x"}})()
    runs = gp.subset_runs(v, gp.GluonProfileOptions(every=4), 1.0, None, None, time.time() + 60, say=lambda m: None)
    assert seen == [(("a", "b"), 4), (("a",), 4), (("a",), 8), (("b",), 4), (("c", "d"), 4)]
    assert [r.get("superseded", False) for r in runs] == [True, True, False, False, False]


def test_a_partition_whose_floor_is_low_still_has_its_runs_split(monkeypatch):
    import time

    import profiling.gluon_profile as gp

    seen = []
    # run1 (a) sets partition 0's floor at 1.01; run3 (c, d) 1.10 is over it: split
    monkeypatch.setattr(gp, "traced_run", _stub_run(seen, [1.10, 1.01, 1.02, 1.10, 1.02, 1.03], lambda n: ["0"]))
    monkeypatch.setattr(gp, "plan", lambda *a: [("a", "b"), ("c", "d")])
    v = type("V", (), {"ks": None, "iterations": 8, "capacity": None, "meta": {"label": "x"}})()
    gp.subset_runs(v, gp.GluonProfileOptions(), 1.0, None, None, time.time() + 60, say=lambda m: None)
    assert [n for n, _ in seen] == [("a", "b"), ("a",), ("b",), ("c", "d"), ("c",), ("d",)]


def test_a_profile_one_command_cannot_finish_continues_from_its_journal(monkeypatch, tmp_path):
    """Each run is kept as it ends; out of time, the runs left stay in the journal and the next command makes only
    them; another key (another kernel source) starts over."""
    import profiling.gluon_profile as gp

    clock = [0.0]
    monkeypatch.setattr(gp.time, "time", lambda: clock[0])
    seen = []
    stub = _stub_run(seen, [1.0] * 20, lambda n: ["0"])

    def run(*a):
        clock[0] += 10.0
        return stub(*a)
    monkeypatch.setattr(gp, "traced_run", run)
    monkeypatch.setattr(gp, "plan", lambda *a: [("a",), ("b",), ("c",), ("d",), ("e",)])
    v = type("V", (), {"ks": None, "iterations": 8, "capacity": None, "meta": {"label": "x"}})()
    opts = gp.GluonProfileOptions(budget=10.0)
    path, key, said = tmp_path / "profile-journal.json", {"source_sha256": "1"}, []

    first = gp.subset_runs(v, opts, 1.0, None, None, 10.0, said.append, gp.Journal(path, key, said.append))
    assert [n for n, _ in seen] == [("a",), ("b",), ("c",)]         # the clock passes 2 x budget after the third
    assert [r.get("error") for r in first][3:] == ["not run: out of time"] * 2 and "kept" in said[-1]
    clock[0] = 0.0
    second = gp.subset_runs(v, opts, 1.0, None, None, 10.0, said.append, gp.Journal(path, key, said.append))
    assert [n for n, _ in seen] == [("a",), ("b",), ("c",), ("d",), ("e",)]
    assert any(m.startswith("continuing the profile kept in") and "3 runs made before" in m for m in said)
    assert [r["regions"] for r in second] == [["a"], ["b"], ["c"], ["d"], ["e"]]
    assert [r["label"] for r in second] == [f"run{i}" for i in range(5)] and not any("error" in r for r in second)

    seen.clear()
    clock[0] = 0.0
    gp.subset_runs(v, opts, 1.0, None, None, 0.0, said.append, gp.Journal(path, {"source_sha256": "2"}, said.append))
    assert seen[0] == (("a",), 1) and "starting over" in " ".join(said)


def test_a_profiled_module_of_two_kernels_runs_its_warp_specialized_one(tmp_path):
    # a kernel timed at launch against its one partition (DeepSeek's fp8 GEMM chose the one partition, run 129): the
    # profile's regions are in the warp-specialized kernel's partitions, so that one runs
    mod = load_module((GLUON / "deepseek_fp8_gemm" / "kernel_gluon.py").read_text(), str(tmp_path), "two_kernels")
    assert mod.launch is not mod.launch_long and hasattr(mod, "_TIMED")
    v = Variant.__new__(Variant)
    v.kmod, v.jit = type("KernelFile", (), {})(), "kernel_jit"
    v.use(mod)
    assert mod.launch is mod.launch_long and v.kmod.kernel_jit is mod.kernel


def test_a_loop_run_times_each_partitions_main_loop_whole_and_nothing_inside_it():
    from twill.errors import InputError

    src, _, ks = _variant("fa3")
    names = ks.loop_names()
    assert names == ("p0:loop", "p1:loop", "p2:loop") and ks.sampled(names) == (0, 1, 2)
    assert ks.sampling(names) == ",".join(str(p.first_warp) for p in ks.partitions)
    assert records_per_warp(ks, names, 32, calibrate=False) == 2        # one pair a tile, whatever the trips
    text = instrument(src, ks, names, calibrate=False)
    lines = text.splitlines()
    for p in ks.partitions:
        enter = lines.index(" " * p.indent + f'twill_pl.enter_scope("p{p.index}:loop")')
        exit_ = lines.index(" " * p.indent + f'twill_pl.exit_scope("p{p.index}:loop")')
        loop = lines[enter + 1]
        assert loop.startswith(" " * p.indent + "for ")                  # the record right before the loop
        body = lines[enter + 2:exit_]                                     # the loop's body: no record inside
        assert body and not any("twill_pl." in ln for ln in body)
        assert all(ln.startswith(" " * (p.indent + 1)) or not ln.strip() for ln in body)
    assert sum("twill_pl." in ln for ln in lines) == 2 * len(ks.partitions)
    with pytest.raises(InputError, match="loop run"):
        instrument(src, ks, ["p0:loop", "p0:dot0_qk_s0"])
    with pytest.raises(InputError, match="loop run"):
        instrument(src, ks, names, every=4)


def test_loop_periods_take_each_ctas_trips_from_the_runs_that_timed_an_anchor():
    from profiling.gluon_trace import loop_periods

    _, _, ks = _variant("gemm")
    loops = ks.loop_names()
    # the loop run: partition 0's loops, two tiles on CTA 0 (30 + 34 trips), one on CTA 1 (32 trips)
    ev = (_events("p0:loop", 0, 0, [0, 40000], 3300) + _events("p0:loop", 0, 0, [80000], 3740)
          + _events("p0:loop", 1, 0, [0], 3520) + _events("p1:loop", 0, 10, [0], 6400))
    lr = summarize(ev, ks, loops)
    assert lr["partitions"]["0"]["loop_cycles_by_cta"] == {"0": 10340.0, "1": 3520.0}
    assert lr["partitions"]["0"]["loops_by_cta"] == {"0": 3, "1": 1}
    anchor = ks.names(0)[0]
    counted = summarize(_events(anchor, 0, 0, list(range(0, 9400, 100)), 10)
                        + _events(anchor, 1, 0, list(range(0, 3200, 100)), 10), ks, [anchor])
    assert counted["partitions"]["0"]["trips_by_cta"] == {"0": 94, "1": 32}
    got = loop_periods(lr, [counted])
    assert got["0"]["cycles_per_iteration"] == pytest.approx((10340 / 94 + 3520 / 32) / 2, abs=0.1)
    assert got["0"]["ctas"] == 2 and got["1"]["cycles_per_iteration"] is None     # no run counted the producer's
    # a CTA two runs count differently is left out, and said
    other = summarize(_events(anchor, 1, 0, list(range(0, 3100, 100)), 10), ks, [anchor])
    got = loop_periods(lr, [counted, other])
    assert got["0"]["ctas"] == 1 and got["0"]["ctas_inconsistent"] == 1


@pytest.mark.parametrize("variant", ["fa3", "fa_bwd"])
def test_the_default_partitions_loop_run_leaves_every_wgmma_loop_as_the_plain_kernel_has_it(variant):
    """Why the loop run of partition 0 is the low-overhead measurement: records at a loop's ends are not inside it,
    and in the default partition alone Proton passes nothing to the workers, so ptxas compiles every wgmma loop as in
    the plain kernel (one region inside a consumer's loop adds ~25 instructions to it, and its clock reads fence the
    row sum away from the exp2 it overlapped). Recording the workers' loops too costs their loops registers."""
    from codegen.gluon.sass import wgmma_loops
    from profiling.gluon import buffer_for, compile_instrumented
    from profiling.gluon_profile import loop_runs

    src, g, ks = _variant(variant)
    runs = loop_runs(ks)
    assert runs == [("p0:loop",), ks.loop_names()]

    def census(names):
        btype, bsize = buffer_for(ks, names, 32, lambda n: 4096, shared=False)
        k = compile_instrumented(instrument(src, ks, names), g["gluon"]["kernel"], sampling=ks.sampling(names),
                                 buffer_type=btype, buffer_size=bsize)
        assert all(f'proton.record start "{n}"' in k.asm["ttgir"] for n in names)
        return [lp.census() for lp in wgmma_loops(k.asm["cubin"])]
    plain = [lp.census() for lp in wgmma_loops(compile_instrumented(src, g["gluon"]["kernel"]).asm["cubin"])]
    if not plain:
        pytest.skip("nvdisasm not installed")
    assert census(runs[0]) == plain
    every = census(runs[1])
    assert sum(c.get("spills", 0) for c in every) > sum(c.get("spills", 0) for c in plain)


def test_loops_only_makes_one_anchor_run_a_partition_and_never_splits_it(monkeypatch):
    import time

    import profiling.gluon_profile as gp

    _, _, ks = _variant("fa3")
    want = gp.anchors(ks)
    assert [ks.by_name[n].partition for n in want] == [0, 1, 2]
    assert all(ks.by_name[n].instances == 1 for n in want)
    seen: list = []
    monkeypatch.setattr(gp, "traced_run", _stub_run(seen, [1.3], lambda names: ["0", "1", "2"]))
    v = type("V", (), {"ks": ks, "iterations": 32, "capacity": None, "meta": {"label": "x"}})()
    runs = gp.subset_runs(v, gp.GluonProfileOptions(loops_only=True), 1.0, None, None, time.time() + 60,
                          say=lambda m: None)
    assert seen == [(want, 1)] and len(runs) == 1 and not runs[0].get("superseded")


def test_an_empty_proton_trace_says_what_the_run_asked_and_what_proton_printed(tmp_path):
    from profiling.gluon_profile import EmptyTrace, _read_trace

    trace = tmp_path / "run0.chrome_trace"
    trace.write_text("")
    with pytest.raises(EmptyTrace) as e:
        _read_trace(trace, ["", "[PROTON] buffer allocation failed"], ("global", 1 << 20), 4096)
    msg = str(e.value)
    assert "0 bytes written" in msg and "global buffer of 1048576 bytes" in msg and "4096 records per warp" in msg
    assert msg.endswith("Proton printed: [PROTON] buffer allocation failed)")


def test_a_loop_run_that_records_nothing_at_the_small_problem_asks_for_the_timed_one(monkeypatch):
    """online_softmax (run 184): SMALL's one partial block takes the kernel's unpipelined loop, which holds no record;
    the loop run hands the empty trace up while the traced problem is not the timed one, and fails once it is."""
    import profiling.gluon_profile as gp

    def empty(*a, **k):
        raise gp.EmptyTrace("unreadable Proton trace", where="loops0.chrome_trace")

    class V:
        meta, plain = {"label": "online_softmax"}, None
        traced, timed = {"R": 8, "N": 1000}, {"R": 4096, "N": 8192}

        def use(self, mod):
            pass

    monkeypatch.setattr(gp, "traced_run", empty)
    v, said = V(), []
    with pytest.raises(gp.EmptyTrace):
        gp._loop_run(v, ("p0:elementwise0_y",), None, None, said.append)
    v.traced = dict(v.timed)
    assert gp._loop_run(v, ("p0:elementwise0_y",), None, None, said.append) is None
    assert said and "no record at" in said[0]
