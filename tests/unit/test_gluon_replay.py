"""The timed replay of generated kernels (codegen/gluon/replay.py): the committed kernels replayed with the
model's costs and with chosen ones."""
import dataclasses
import json
from pathlib import Path

import pytest

from codegen.gluon.protocol import ProtocolError, integer_arguments
from codegen.gluon.replay import Costs, atomic_calls, model_costs, record, replay
from twill.machine.model import load_machine

RESULTS = Path(__file__).resolve().parents[2] / "bench/results/gluon"


def _kernel(label):
    g = json.loads((RESULTS / label / "gluon.json").read_text())
    return (RESULTS / label / "kernel_gluon.py").read_text(), g["gluon"]["kernel"]["signature"], g


def test_gemm_replayed_with_the_models_costs_runs_at_the_schedules_ii():
    # one consumer, one producer: the tensor core bounds the loop, as the schedule says (I x unit = 1024)
    src, sig, g = _kernel("gemm")
    r = replay(src, sig, model_costs(g["graph"], g["time_unit_cycles"], 191))
    assert r.period(0) == pytest.approx(g["ii"] * g["time_unit_cycles"], rel=0.01)
    assert r.blocked[0]["wgmma"] > 0 and r.period(1) == pytest.approx(r.period(0), rel=0.01)


def test_a_slow_op_of_one_consumer_sets_the_period_of_every_partition():
    # the turn barriers and the rings tie the partitions together: consumer 0's exp2 at 5000 cycles and
    # nothing else costing anything, every partition's loop starts once per 5000 cycles
    src, sig, g = _kernel("fa3")
    nodes = {n["id"]: 0.0 for n in g["graph"]["nodes"]}
    r = replay(src, sig, Costs({**nodes, "sfu0_p_s0": 5000.0}, {}, {}, {}))
    assert [round(x) for x in r.periods().values()] == [5000, 5000, 5000]
    # the cost is per iteration, whichever partition pays it and however many lines the node spans
    r1 = replay(src, sig, Costs({**nodes, "sfu0_p_s1": 5000.0}, {}, {}, {}))
    assert [round(x) for x in r1.periods().values()] == [5000, 5000, 5000]


def test_the_tensor_core_is_shared_first_come_first_served():
    # fa3's four dots per iteration (two per consumer) on one tensor core: 4 x 700 cycles per iteration
    src, sig, g = _kernel("fa3")
    dots = [n["id"] for n in g["graph"]["nodes"] if n["kind"] == "dot"]
    r = replay(src, sig, Costs({}, {d: 700.0 for d in dots}, {}, {}))
    assert r.iteration() == pytest.approx(4 * 700, rel=0.01)


def test_a_missing_release_is_a_deadlock_in_the_replay():
    src, sig, _ = _kernel("gemm")
    line = next(l for l in src.splitlines() if "mbarrier.arrive(" in l and "empty" in l)
    with pytest.raises(ProtocolError, match="deadlock"):
        replay(src.replace(line, line.split("mbarrier")[0] + "pass"), sig, Costs({}, {}, {}, {}))


def test_a_grid_stride_loops_runtime_step_gives_the_simulation_its_trips():
    # range(pid * BLOCK, n, tl.num_programs(0) * BLOCK) (the fused AdamW step, session 55's sweep K): the trip count
    # divides by a runtime product, v2 = v1 * 1024; n set to 4 x 1024, not 4, runs the loop 4 trips, and the replay
    # times a steady trip (it ran one before: "not replayed")
    src, sig, g = _kernel("fused_adamw_gridstride")
    assert integer_arguments(sig, src)(4)["n"] == 4 * 1024
    assert replay(src, sig, model_costs(g["graph"], g["time_unit_cycles"], 0)).iteration() > 0


def test_every_partition_records_its_loop_and_its_wgmma_waits():
    src, sig, _ = _kernel("fa3")
    from codegen.gluon.protocol import integer_arguments
    traces, _, names, _ = record(src, integer_arguments(sig, src)(4))
    assert names == ["consumer_0", "consumer_1", "producer_2"]
    kinds = [{e[0] for e in t} for t in traces]
    assert {"mma", "mma_wait", "wait", "arrive"} <= kinds[0] and {"copy", "wait"} <= kinds[2]
    assert "mma" not in kinds[2]


def test_a_loop_whose_trips_follow_the_tile_replays_at_its_steady_period():
    # causal attention's blocks before the diagonal run m trips in query block m: with three tiles (0, 1, 2
    # trips) the replay's period was the gaps between tiles (4391 cycles); run over `iterations` tiles instead,
    # it is the loop's own, the FA forward's (the same loop body, the same partitions and costs)
    src, sig, g = _kernel("fa_causal")
    fsrc, fsig, fg = _kernel("fa3")
    causal = replay(src, sig, model_costs(g["graph"], g["time_unit_cycles"], 191))
    plain = replay(fsrc, fsig, model_costs(fg["graph"], fg["time_unit_cycles"], 191))
    assert len(causal.starts[0]) >= 24
    assert causal.iteration() == pytest.approx(plain.iteration(), rel=0.02)


def test_the_replay_times_the_scheduled_loop_of_a_kernel_with_two():
    # online softmax: a statistics loop, then the scheduled output loop; both tag their ops (load0_x in both). The
    # replay timed the first, whose nodes the costs do not hold, and said 0 cycles per iteration; it times the loop
    # whose tags are the graph's: one partition, no barrier, so its period is the sum of the loop's node costs and
    # the wait for its own load beyond them (session 91: the load streams, its latency kept aside in the graph, which
    # the replay had priced at nothing: the period was the node costs alone)
    src, sig, g = _kernel("online_softmax")
    unit = g["time_unit_cycles"]
    costs = model_costs(g["graph"], unit, 0)
    r = replay(src, sig, costs)
    expected = sum(float(n["cycles"] or 0) for n in g["graph"]["nodes"]) * unit
    latency = costs.ready["load0_x"]
    assert expected > 0 and latency > expected and costs.transfer["load0_x"] > 0
    assert expected < r.iteration() <= latency + expected and r.steady_blocked(0).get("load", 0) > 0
    assert len(r.starts[0]) >= 20


def test_a_kernel_whose_early_return_program_0_takes_is_replayed_past_it():
    # FLA's sub-chunk scores return `if i_i <= i_j` (tests/corpus/fla_gla_intra_sub_inter.py), true for program 0: the
    # replay started no partition and its max over none raised (the route's internal error at replay.py:304); it
    # takes no early return, and times the loop
    src, sig, g = _kernel("fla_gla_intra_sub_inter")
    from codegen.gluon.protocol import integer_arguments
    traces, _, names, _ = record(src, integer_arguments(sig, src)(4))
    assert names == ["consumer_0"] and any(e[0] == "line" for e in traces[0])
    r = replay(src, sig, model_costs(g["graph"], g["time_unit_cycles"], 0))
    assert len(r.starts[0]) == 2 and r.iteration() > 0       # K = 128 in blocks of 64: two trips


def test_a_grid_stride_loop_gets_a_bound_of_whole_strides_and_its_replay_runs_steady_trips():
    # session 55's sweep L: tl.range(pid * 64, T, tl.num_programs(0) * 64) divides its trip count by a name
    # (twill_n = ... // v1 with v1 = nprog * 64); T set to n alone gave one trip, fewer than the two stages, and
    # the replay of the histogram's loop timed no steady trip
    src, sig, g = _kernel("moe_expert_histogram")
    assert "v1 = nprog * 64" in src and "// v1" in src
    assert integer_arguments(sig, src)(4)["T"] == 256
    assert integer_arguments({"T": "i32"}, "    twill_n = gl.maximum((T - v0 + v1 - 1) // v1, 0)\n")(4)["T"] == 4
    r = replay(src, sig, model_costs(g["graph"], g["time_unit_cycles"], 191))
    assert r.period(0) > 0


def _port_bytes(label):
    """Per partition, the shared-memory bytes the replay's trace holds per trip of its scheduled loop: wgmma
    operands, stores, copies landing."""
    src, sig, g = _kernel(label)
    traces, _, names, _ = record(src, integer_arguments(sig, src)(24))
    out = {}
    for n, ev in zip(names, traces):
        tot = {"mma": 0, "smem": 0, "copy": 0}
        for e in ev:
            if e[0] in ("mma", "smem"):
                tot[e[0]] += e[1]
            elif e[0] == "copy" and e[2:3] == ("tma",):
                tot["copy"] += e[3]
        out[n] = tot
    return out


def test_the_ports_bytes_are_what_the_fa_backwards_sass_moves():
    # what the replay reads from the source is the SASS census of each consumer's loop (run 141's validation: 144 KB
    # of wgmma operands and 33 KB of stores a consumer an iteration), times the 72 trips of three persistent tiles
    from codegen.gluon.sass import wgmma_loops
    from profiling.gluon import compile_instrumented, scopes_of

    src, sig, g = _kernel("fa_bwd")
    got = _port_bytes("fa_bwd")
    trips = 3 * 24
    loops = wgmma_loops(compile_instrumented(src, g["gluon"]["kernel"]).asm["cubin"])
    if not loops:
        pytest.skip("nvdisasm not installed")
    consumers = [p for p in scopes_of(src, g["warp"]).partitions if p.function.startswith("consumer")]
    for lp, part in zip(loops, consumers):
        sass = lp.shared_bytes(part.num_warps)
        assert got[part.function]["mma"] == trips * sass["wgmma_operands"]
        assert got[part.function]["smem"] == pytest.approx(trips * sass["stores"], rel=0.02)   # + the tiles' own
    # the producer's copies: q and dO each iteration, and each tile's K and V once
    assert got["producer_2"]["copy"] == trips * 2 * 64 * 128 * 2 + 3 * 4 * 64 * 128 * 2


def test_the_shared_memory_port_binds_the_fa_backward_and_leaves_the_gemm_and_fa_forward():
    # the GEMM's and the FA forward's wgmmas leave the port room for their copies: their replays are unchanged; the
    # FA backward's small dots read 128 B a clock at the tensor core's rate, and its stores and copies wait for the
    # port: 3534 cycles an iteration against 3199 without it. Run 141 measured 4703.8 (loop run): the rest is what no
    # model prices (its atomics, spills and partition barriers: test_stalls); the replay's 4736 before session 70 was
    # a wait on a load only dead code read, which the compiler drops (its SASS loop has two LDGs, not four)
    rate = load_machine("h200").rate("smem_bytes")
    for label, bound in (("gemm", None), ("fa3", None), ("fa_bwd", (3300, 3800))):
        src, sig, g = _kernel(label)
        from codegen.gluon.calibration import Profiled
        p = Profiled(label, src, g, {})
        plain = replay(src, sig, model_costs(p.model_graph, p.unit, 191)).iteration()
        ported = replay(src, sig, model_costs(p.model_graph, p.unit, 191, rate)).iteration()
        if bound is None:       # within 0.5 %: the copies' landing moves the consumers' turns on the ALU by a few cycles
            assert ported == pytest.approx(plain, rel=0.005)
        else:
            assert bound[0] < ported < bound[1] and ported > 1.08 * plain


def test_writes_take_what_the_wgmmas_reads_leave_of_the_port():
    from codegen.gluon.replay import _Sim

    sim = _Sim([[]], [], ["p"], "", Costs({}, {}, {}, {}, smem_rate=128.0))
    sim.reads = [(100.0, 200.0, 128.0), (300.0, 400.0, 64.0)]
    assert sim.write(0.0, 128 * 50) == pytest.approx(50.0)              # before the first read: the full rate
    assert sim.write(60.0, 128 * 60) == pytest.approx(220.0)            # 40 cycles, none until 200, then 20 more
    assert sim.write(320.0, 64 * 10) == pytest.approx(330.0)            # half the port while the second read runs
    assert sim.write(0.0, 128 * 10) == pytest.approx(350.0)             # in order, after the writes before it: half


TAGGED = "\n".join(["x", "# a: stage 0, partition 0", "# b: stage 0, partition 0", "# d: stage 0, partition 0"])


def _ran(traces, costs):
    from codegen.gluon.replay import _Sim

    sim = _Sim(traces, [], [f"p{i}" for i in range(len(traces))], TAGGED, costs)
    sim.run()
    return sim


def test_partitions_computing_at_once_share_the_alu_and_mufu():
    # node a: 100 cycles at the ALU's whole rate; two partitions computing it at once take 200 each (processor
    # sharing); where one first spends 50 cycles on work of no shared unit (b), the other has done 50 alone, its other
    # 50 at half the rate (done at 150), and the later one's last 50 alone again (done at 200)
    both = Costs({"a": 100.0, "b": 50.0}, {}, {}, {}, units={"a": "alu"})
    assert _ran([[("line", 2)], [("line", 2)]], both).now == [pytest.approx(200.0), pytest.approx(200.0)]
    assert _ran([[("line", 2)], [("line", 3), ("line", 2)]], both).now == [pytest.approx(150.0), pytest.approx(200.0)]
    alone = Costs({"a": 100.0}, {}, {}, {})      # no unit named: each partition's own time
    assert _ran([[("line", 2)], [("line", 2)]], alone).now == [pytest.approx(100.0), pytest.approx(100.0)]


def test_the_tensor_core_serves_wgmmas_in_the_order_of_their_issue_time():
    # p0 issues a 100-cycle wgmma at 0, waits for it (to 100) and issues another; p1 issues one at 50: the tensor
    # core runs p1's at 100-200 and p0's second at 200-300 (a replay that ran p0 on past its wait before p1 caught
    # up gave p0's second wgmma the tensor core first)
    dot = [("line", 4), ("mma", 0), ("mma_wait", 0)]
    sim = _ran([dot + dot, [("line", 2)] + dot], Costs({"a": 50.0}, {"d": 100.0}, {}, {}))
    assert sim.now == [pytest.approx(300.0), pytest.approx(200.0)]


def test_a_pointer_load_blocks_its_first_reader_not_its_issue():
    # node a a pointer load of 600 cycles the partition issues itself (line 2, then its ``gl.load``: ("ld", n)), node b
    # 100 cycles of work reading it: issued alone then read, the reader waits out the 600; issued a loop trip ahead of
    # its reader, two loads are in flight and each trip waits (600 - 100) / 2 cycles, not 600 (the token_quant_fp8
    # loop: 400 cycles a trip with the load's 680, where charging the latency to the load's line gave 800)
    costs = Costs({"a": 600.0, "b": 100.0}, {}, {}, {}, ready={"a": 600.0}, issued={"a": 0.0})
    alone = [("line", 2), ("ld", 1), ("use", 1), ("line", 3)]
    assert _ran([alone], costs).now == [pytest.approx(700.0)]
    ahead = [("line", 2), ("ld", 1)]
    for k in range(1, 9):          # trip k: load k + 1, then read load k
        ahead += [("line", 2), ("ld", k + 1), ("use", k), ("line", 3)]
    sim = _ran([ahead], costs)
    assert sim.now == [pytest.approx(8 * 400.0 - 300.0)] and sim.blocked[0]["load"] == pytest.approx(8 * 400 - 1100)
    copied = Costs({"a": 600.0, "b": 100.0}, {}, {}, {}, ready={"a": 600.0}, issued={"a": 0.0})   # no ``gl.load``:
    assert _ran([[("line", 2), ("line", 3)]], copied).now == [pytest.approx(700.0)]            # a producer's copy


def test_the_replay_records_a_pointer_loads_first_reader_under_its_moved_name():
    from codegen.gluon.replay import record

    src = (RESULTS / "token_quant_fp8/kernel_gluon.py").read_text()
    traces, _, _, text = record(src, {"N": 8 * 1024, "twill_trips": 8})
    lines = text.splitlines()
    ev = traces[0]
    loads = [i for i, e in enumerate(ev) if e[0] == "ld"]
    assert len(loads) == 16                          # two loops of 8 trips over the row
    for i, e in enumerate(ev):
        if e[0] == "use":                            # the line after it reads the value under the pipeline's name
            assert "x_23_p1" in lines[ev[i + 1][1] - 1] or "x_21_p1" in lines[ev[i + 1][1] - 1] \
                or "_w" in lines[ev[i + 1][1] - 1], lines[ev[i + 1][1] - 1]
    assert sum(e[0] == "use" for e in ev) == 16


def test_a_pointer_load_a_line_stores_to_shared_memory_is_read_on_that_line():
    from codegen.gluon.replay import _Events

    log = _Events(type("M", (), {}))
    log.lines = ["x_1 = gl.load(p, mask=(o < n), other=0.0)  # load0_x: stage 0, partition 0 (group 0)",
                 "buf.index(k % 2).store(gl.load(p, mask=m))  # load0_x: stage 0, partition 1 (group 1)"]
    log.line = 1
    first = log.load()
    log.line = 2
    second = log.load()
    assert log.events == [("ld", 1), ("ld", 2), ("use", 2)] and not first.used and second.used


def test_a_load_read_only_by_dead_code_waits_for_nothing():
    from codegen.gluon.replay import dead_lines

    # the generator's unrolled copy: m = gl.load(p) read by a convert_layout that nothing reads (the fa_bwd of run 16);
    # the compiler drops both, so the replay must not wait on m there; its live twin m_t0 is read a trip later
    lines = ["m = gl.load(p_p1)",
             "m_t0 = gl.load(p)",
             "m_cv = gl.convert_layout(m, L6)",
             "e = gl.expand_dims(m_cv, 0)",
             "f = gl.expand_dims(m_t0_p1, 0) * s",
             "out.store(f)",
             "tok = warpgroup_mma(a, b, acc, is_async=True)",
             "m_t0_p1 = m_t0",
             "x = y  # out of nothing live, but a name another partition's loop reads: g(x)",
             "g(x)"]
    assert dead_lines(lines) == {1, 3, 4}


def test_a_reducers_atomic_rows_cost_its_partition_what_costs_atomic_says():
    # the FA backward's reducer adds rows 0-31 of dQ's partial each iteration (32 atomic calls), the producer rows 32-63
    # two iterations behind its loads (22 of the replay's 24 trips): the graph holds neither line (its store nodes are
    # the consumers'), so each call costs ``Costs.atomic`` to the partition issuing it
    src, sig, g = _kernel("fa_bwd")
    nodes = frozenset(n["id"] for n in g["graph"]["nodes"])
    assert atomic_calls(src, sig, nodes) == {(2, "store0"): pytest.approx(32 * 22 / 24), (3, "store0"): 32.0}
    base = model_costs(g["graph"], g["time_unit_cycles"], 191)
    assert base.atomic == 0.0
    free, priced = replay(src, sig, base), replay(src, sig, dataclasses.replace(base, atomic=50.0))
    # the reducer waits 32 x 50 cycles less an iteration, less what the period grew by
    waits = [sum(r.steady_blocked(3).values()) for r in (free, priced)]
    assert waits[0] - waits[1] == pytest.approx(32 * 50 - (priced.iteration() - free.iteration()), rel=0.01)
    assert 0 < priced.iteration() - free.iteration() < 200


def test_an_atomic_on_a_line_its_node_prices_costs_nothing_more():
    # a kernel whose atomics are its graph's own store (the consumer adds its tile): the node's cycles are their cost
    src, sig, g = _kernel("fbgemm_fp8_row_splitk")
    assert "gl.atomic_add" in src and atomic_calls(src, sig, frozenset(n["id"] for n in g["graph"]["nodes"])) == {}
    base = model_costs(g["graph"], g["time_unit_cycles"], 191)
    assert replay(src, sig, dataclasses.replace(base, atomic=1000.0)).iteration() == replay(src, sig, base).iteration()


def test_an_integer_argument_stepping_a_loop_is_never_zero_in_the_simulation():
    """unsloth's MoE dW kernel keeps its own tile loop ``range(tidx, tiles, NUM_SMS)``: at 0 iterations every integer
    argument was 0, and the simulation stopped ("range() arg 3 must not be zero"; no kernel written)."""
    src = "    for tile_idx in range(tidx, 128, NUM_SMS):\n        twill_n = (K - 0 + 64 - 1) // 64\n"
    ints = integer_arguments({"NUM_SMS": "i32", "K": "i32"}, src)
    assert ints(0)["K"] == 0 and ints(0)["NUM_SMS"] > 128 and ints(3)["NUM_SMS"] == ints(3)["K"] == 3 * 64
