"""A reduction's cost from its layout (runs 161-162): the elements a thread combines, the lanes it shuffles across,
the warps it exchanges between (``twill.ir.layouts``, ``twill.machine.cost``)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from twill.graph.model import Op
from twill.ir.layouts import AxisSpread, aliases, axis_spread
from twill.machine.cost import op_cost
from twill.machine.model import load_machine

ROOT = Path(__file__).resolve().parents[2]
BLOCKED = "#ttg.blocked<{{sizePerThread = {}, threadsPerWarp = {}, warpsPerCTA = {}, order = [1, 0]}}>"


def blocked(spt, tpw, wpc):
    return BLOCKED.format(list(spt), list(tpw), list(wpc))


# the layouts Triton 3.6 chose for run 162's probe (bench/reduce_exchange.py), and what each reduction reads there
@pytest.mark.parametrize("shape, layout, axis, want", [
    ("16x16", blocked((1, 4), (8, 4), (1, 1)), 0, AxisSpread(2, 8, 1, 4, 1)),     # 2 rows a thread, 3 rounds
    ("16x16", blocked((1, 2), (4, 8), (4, 1)), 0, AxisSpread(1, 4, 4, 2, 4)),     # across 4 warps
    ("16x16", blocked((1, 1), (2, 16), (8, 1)), 0, AxisSpread(1, 2, 8, 1, 8)),
    ("64x128", blocked((1, 4), (1, 32), (4, 1)), 1, AxisSpread(4, 32, 1, 16, 4)),  # 16 rows a thread, 5 rounds each
    ("64x128", blocked((1, 4), (1, 32), (8, 1)), 0, AxisSpread(8, 1, 8, 4, 8)),   # no lanes along the axis
    ("1x4096", blocked((1, 4), (1, 32), (1, 8)), 1, AxisSpread(16, 32, 8, 1, 8)),
    ("8x32", blocked((1, 4), (4, 8), (4, 1)), 0, AxisSpread(1, 4, 2, 4, 4)),     # 16 rows of layout, 8 of tile: 2 warps
])
def test_blocked_spread(shape, layout, axis, want):
    assert axis_spread(f"tensor<{shape}xf32, #b>", axis, {"#b": layout}) == want


def test_slices_accumulators_and_unread_layouts():
    table = aliases("#blocked = " + blocked((1, 2), (4, 8), (4, 1)) + "\n"
                    "#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
                    "instrShape = [16, 128, 16]}>\n#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128}>\n")
    assert set(table) == {"#blocked", "#mma"}
    # the FA forward's row max: a warp group's 64 x 128 accumulator, 2 rows and 32 columns a thread, 4 lanes a row
    assert axis_spread("tensor<64x128xf32, #mma>", 1, table) == AxisSpread(32, 4, 1, 2, 4, "mma")
    # a row kept as a slice of the blocked tile: its dimension 1, 2 elements a thread over 8 lanes
    row = "tensor<16xf32, #ttg.slice<{dim = 0, parent = #blocked}>>"
    assert axis_spread(row, 0, table) == AxisSpread(2, 8, 1, 1, 4)
    assert axis_spread("tensor<16x16xf32, #ttg.linear<{register = [[0, 1]]}>>", 0, table) is None
    assert axis_spread("tensor<16x16xf32, #blocked>", 2, table) is None


def layout_cost(arch):
    """The machine with the layout cost switched on (the shipped files keep it off: run 163)."""
    m = load_machine(arch)
    return dataclasses.replace(m, rate_table=m.rate_table + (("reduce_layout_cost", 1.0),))


def reduce_op(**spread):
    attrs = {"input_elements": 256, "elements": 16, "axis": 0, **({"reduce_layout": "blocked"} if spread else {}),
             **spread}
    return Op("reduce0_x", "reduce", "alu", attrs=tuple(sorted(attrs.items())))


@pytest.mark.parametrize("arch", ["h100", "h200", "b200"])
def test_a_reduction_across_warps_pays_the_exchange(arch):
    m = layout_cost(arch)
    within = reduce_op(reduce_thread=1, reduce_lanes=4, reduce_warps=1, reduce_outputs=2, reduce_results=16,
                       reduce_cta_warps=1)
    across = reduce_op(reduce_thread=1, reduce_lanes=4, reduce_warps=4, reduce_outputs=2, reduce_results=16,
                       reduce_cta_warps=4)
    (c_in, rrt_in), (c_x, rrt_x) = op_cost(within, m), op_cost(across, m)
    assert c_x - c_in >= m.rate("reduce_exchange")
    assert c_in >= 2 * m.rate("reduce_round")            # two shuffle rounds' latency
    assert rrt_in == rrt_x                                  # the ALU work is the same; the exchange is latency
    # a layout the graph did not read, and an MMA accumulator's (not measured by the probe), keep the estimate
    c_old, _ = op_cost(reduce_op(), m)
    assert c_old == 2 + m.rate("reduce_overhead")
    mma = dataclasses.replace(across, attrs=tuple(sorted({**dict(across.attrs), "reduce_layout": "mma"}.items())))
    assert op_cost(mma, m)[0] == c_old


def test_many_results_a_thread_are_bound_by_the_shuffle_unit():
    m = layout_cost("h200")
    few = reduce_op(reduce_thread=4, reduce_lanes=32, reduce_warps=1, reduce_outputs=1, reduce_results=4,
                    reduce_cta_warps=4)
    many = reduce_op(reduce_thread=4, reduce_lanes=32, reduce_warps=1, reduce_outputs=8, reduce_results=32,
                     reduce_cta_warps=4)
    # run 162, R x 128 along the row at 4 warps: 1 row a thread 162 cycles, 8 rows 597
    assert op_cost(few, m)[0] == pytest.approx(162, rel=0.2)
    assert op_cost(many, m)[0] == pytest.approx(597, rel=0.2)


def test_the_graph_reads_the_spread_and_the_warps_change_the_cost():
    pytest.importorskip("triton")
    from twill.graph.extract import graph_for_file

    m = layout_cost("h200")
    costs = {}
    for warps in (1, 4):
        g, _ = graph_for_file(str(ROOT / "tests/corpus/fla_solve_tril.py"), m.target, num_warps=warps)
        red = next(o for o in g.ops if o.kind == "reduce")
        attrs = dict(red.attrs)
        assert attrs["reduce_warps"] == (1 if warps == 1 else 4) and attrs["reduce_cta_warps"] == warps
        costs[warps] = op_cost(red, m)[0]
    # FLA's solve_tril sums a 16 x 16 tile over its rows: across 4 warps through shared memory (run 109: the
    # kernel 2.7x slower at 4 warps than at 1)
    assert costs[4] > 2 * costs[1]
    # the shipped machine file leaves it off: both cost the layout-free estimate
    assert op_cost(red, load_machine("h200"))[0] == 2 + m.rate("reduce_overhead")


def test_a_reduction_of_two_operands_reads_the_first_ones_layout():
    """An argmax reduces values and indices together: ``(tensor<1024xf32, #b>, tensor<1024xi32, #b>) -> (f32, i32)``
    (before, the parenthesised pair was read as one type and the spread was lost)."""
    pytest.importorskip("triton")
    from twill.graph.extract import graph_for_file

    g, _ = graph_for_file(str(ROOT / "tests/corpus/argmax_rows.py"), load_machine("h200").target)
    red = dict(next(o for o in g.ops if o.kind == "reduce" and dict(o.attrs)["input_elements"] > 1).attrs)
    assert red["reduce_warps"] == red["reduce_cta_warps"] > 1 and red["reduce_lanes"] == 32


def test_a_graph_that_records_a_reductions_spread_is_the_same_loop_to_a_profile():
    """A profile's graph.json from before the spread was recorded still matches the graph rebuilt now (calibrate
    and validate take the rebuilt one); an attribute both record with other values is still a difference."""
    from twill.commands.calibrate import loop_differences
    from twill.graph.model import LoopGraph

    old = reduce_op()
    new = reduce_op(reduce_thread=1, reduce_lanes=4, reduce_warps=4, reduce_outputs=2, reduce_results=16)
    changed = dataclasses.replace(old, attrs=tuple(sorted({**dict(old.attrs), "input_elements": 512}.items())))
    graph = lambda op: LoopGraph(name="k", ops=(op,), deps=())    # noqa: E731
    assert loop_differences(graph(new), graph(old)) == []
    assert loop_differences(graph(changed), graph(old)) == ["node reduce0_x"]
