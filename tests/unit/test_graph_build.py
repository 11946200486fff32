"""Loop graphs of small kernels written for the test: edges, distances, blocking, streaming, loop choice."""
from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("triton")

from kernels_for_tests import kernel_file, pre_ttgir  # noqa: E402
from twill.errors import InputError, UnsupportedError  # noqa: E402
from twill.graph.analysis import carried, recurrences  # noqa: E402
from twill.graph.build import build_graph  # noqa: E402
from twill.graph.render import dot, listing  # noqa: E402
from twill.graph.extract import graph_for_file  # noqa: E402
from twill.graph.model import Op  # noqa: E402
from twill.ir.ttgir import parse  # noqa: E402
from twill.machine.cost import op_cost  # noqa: E402
from twill.machine.model import load_machine  # noqa: E402


def graph(name: str, arch: str = "h100", loop: int | None = None):
    return build_graph(parse(pre_ttgir(kernel_file(name), arch)), load_machine(arch).target, loop=loop,
                       kernel=name.lower())


@pytest.mark.parametrize("arch", ["h100", "b200"])
def test_loop_carried_accumulator_is_a_distance_1_edge(arch):
    g = graph("ACC_LOOP", arch)
    dots = [o for o in g.ops if o.kind == "dot"]
    assert len(dots) == 1 and dict(dots[0].attrs)["m"] == 64 and dict(dots[0].attrs)["k"] == 32
    d = dots[0].id
    assert any(r.distance == 1 and d in r.ops for r in recurrences(g))
    loads = [o for o in g.ops if o.kind == "load"]
    assert len(loads) == 2 and all(o.variable_latency and o.streaming for o in loads)
    # Each load feeds the dot in the same iteration, and the dot waits for it.
    for o in loads:
        (e,) = [e for e in g.deps if e.src == o.id]
        assert e.dst == d and e.distance == 0 and e.blocking
    # The pointer increments fold into the loads (traceable) and make no edge.
    assert all("tt.addptr" in o.ops for o in loads)
    if arch == "h100":
        assert [(e.src, e.dst, e.distance, e.blocking) for e in carried(g)] == [(d, d, 1, False)]
    else:   # tcgen05: the accumulator lives in tensor memory, carried by the MMA's token
        assert dots[0].ops[0] == "ttng.tc_gen5_mma" and dots[0].tmem == 64 * 64 * 4
        assert any(e.src == d and e.distance == 1 for e in g.deps)


def test_loop_without_a_dot():
    g = graph("NO_DOT")
    kinds = [o.kind for o in g.ops]
    assert "dot" not in kinds and kinds.count("load") == 1 and kinds.count("sfu") == 1
    sfu = next(o for o in g.ops if o.kind == "sfu")
    assert dict(sfu.attrs)["fn"] == "exp2" and sfu.unit == "sfu" and sfu.line == 14
    run = next(o for o in g.ops if o.kind == "elementwise")
    assert [(e.src, e.dst) for e in carried(g)] == [(run.id, run.id)]
    load = next(o for o in g.ops if o.kind == "load")
    assert load.streaming and any(e.src == load.id and e.dst == sfu.id and e.blocking for e in g.deps)


def test_integer_ops_cost_their_pipes_slots():
    """Runs 165, 168 and 170: a 32-bit mul takes 2 FMA-pipe slots, mulhi 4, a 64-bit mul 8 and add 2 (and 2 on the
    integer pipe), a widening 1; xor and shift 2 each on the integer pipe, beside the FMA pipe's work. The hash's one
    node: FMA pipe mulhi + mul + extui + i64 mul + i64 add = 17, integer pipe 2 xors + shift + i64 add = 8."""
    (node,) = [o for o in graph("INT_HASH").ops if o.kind != "load"]
    assert "tt.mulhiui" in node.ops
    assert dict(node.attrs)["nops"] == 4 + 2 + 1 + 8 + 2
    cycles, _ = op_cost(node, load_machine("h100"))
    assert cycles == math.ceil(128 * 17 / 128)


def test_a_pointer_store_is_sized_by_the_pointee():
    """tt.store of 1024 fp16 values through a tensor of pointers writes 2048 bytes (the pointee's
    element size), not 1024 times a pointer's or a default 4 bytes; the cost model charges that."""
    g = graph("STORE_F16")
    (store,) = [o for o in g.ops if o.kind == "store"]
    assert store.dtype == "f16" and store.shape == (1024,)
    assert dict(store.attrs)["bytes"] == 2048 and dict(store.attrs)["elements"] == 1024
    m = load_machine("h100")
    assert op_cost(store, m)[0] == op_cost(replace(store, attrs=(("bytes", 2048),)), m)[0]
    assert op_cost(store, m)[0] < op_cost(replace(store, attrs=(("bytes", 4096),)), m)[0]


def test_nested_loops_pick_the_innermost():
    g = graph("NESTED")
    assert dict(g.meta)["loop_line"] == 16 and dict(g.meta)["loop_index"] == 1
    assert [o.kind for o in g.ops].count("dot") == 1
    with pytest.raises(UnsupportedError, match="loop is not innermost"):
        graph("NESTED", loop=0)
    with pytest.raises(InputError, match="--loop 0..1"):
        graph("NESTED", loop=5)


def test_scf_if_in_the_body_names_op_and_line():
    with pytest.raises(UnsupportedError) as e:
        graph("WITH_IF")
    assert "scf.if" in str(e.value) and "with_if.py:13" in str(e.value)


def test_ttgir_file_gives_the_same_graph(tmp_path):
    p = tmp_path / "acc.ttgir"
    p.write_text(pre_ttgir(kernel_file("ACC_LOOP"), "h100"))
    g_file, _ = graph_for_file(str(p), load_machine("h100").target)
    g_py = graph("ACC_LOOP")
    assert g_file.ops == g_py.ops and g_file.deps == g_py.deps


def test_ids_footprints_and_renderings_are_deterministic():
    g1, g2 = graph("ACC_LOOP"), graph("ACC_LOOP")
    assert listing(g1) == listing(g2) and dot(g1) == dot(g2)
    assert [o.id for o in g1.ops] == ["load0_a", "load1_b", "dot0_acc"]
    assert g1.op("load0_a").smem == 64 * 32 * 2 and g1.op("dot0_acc").regs == 64 * 64 * 4
    assert "style=dashed" in dot(g1) and "recurrences: 1" in listing(g1)
    meta = dict(g1.meta)
    assert meta["arch"] == "h100" and meta["num_warps"] == 4 and meta["triton_version"]


def test_a_value_the_loop_only_carries_out_is_a_node():
    """An argmax's running index (``best_i = tl.where(take, i + off, best_i)``: an i32 select, taken for address
    arithmetic) is read by nothing in the loop but by the store after it: it is a node of the graph, not bookkeeping
    (dropped, the code after the loop had no partition holding it). A pointer advanced past its last load stays
    bookkeeping."""
    root = Path(__file__).resolve().parents[2]
    g, _ = graph_for_file(str(root / "tests/corpus/argmax_rows.py"), load_machine("h100").target)
    selects = [line for o in g.ops for line in o.ir if "arith.select" in line]
    assert len(selects) == 2 and any("best_i" in line.split("=", 1)[0] for line in selects), selects
    assert "arith.select" not in dict(g.meta)["bookkeeping"]
    g, _ = graph_for_file(str(root / "tests/corpus/tail_loop_gemm.py"), load_machine("h100").target)
    assert not [o for o in g.ops if any("tt.addptr" in line for line in o.ir) and o.kind != "load"], g.ops


def test_a_view_read_only_by_the_next_iteration_joins_its_source():
    """A tile's view that the loop carries (``h = tl.reshape(y, ...)``, ``t = tl.trans(y)``), read by nothing in this
    iteration: folded into the next iteration's reader, its source would come after that reader in one iteration
    (a cycle of distance 0, the kernel refused); it joins the node computing its source."""
    g = graph("CARRIED_VIEW")
    views = {o.id: o for o in g.ops if any(v in line for line in o.ir for v in ("tt.reshape", "tt.trans"))}
    assert views and all(o.kind != "broadcast" for o in views.values()), g.ops
    reshaped = next(o for o in g.ops if any("tt.reshape" in line and "1024x" in line.split("->")[-1]
                                            for line in o.ir))
    assert any(line.split(" = ")[-1].startswith("arith.divf") for line in reshaped.ir), reshaped.ir
    assert {(d.dst, d.distance) for d in g.deps if d.src == reshaped.id} <= {(o.id, 1) for o in g.ops}


def test_an_if_that_loads_and_stores_is_one_store_node_waiting_for_its_loads():
    """A runtime if inside the loop that loads, accumulates and stores: one node (a store), its loads its own, its
    cost the L2 latency of their bytes before the store's."""
    g = graph("WITH_IF_LOADS")
    (node,) = [o for o in g.ops if "scf.if" in o.ops]
    assert node.kind == "store" and dict(node.attrs)["guarded_load_bytes"] == 128 * 4   # the condition reads before
    cycles, rrt = op_cost(node, load_machine("h100"))
    plain, _ = op_cost(replace(node, attrs=tuple((k, v) for k, v in node.attrs if k != "guarded_load_bytes")),
                       load_machine("h100"))
    assert cycles > plain + load_machine("h100").rate("global_latency") - 1 and [r.unit for r in rrt] == ["lsu"]


def test_an_if_that_stores_at_an_atomics_slot_costs_every_store_and_the_atomics_round_trip():
    """An if whose atomic's old value addresses the stores after it (lmdeploy's EP scatter): one store node, its bytes
    every store's and its reads' (the row, the scale, the atomic's slot: the node waits for them); it had been
    costed as its first store alone, 4 bytes, 1 cycle, and a schedule of it called optimal at 2 cycles."""
    g = graph("WITH_IF_ATOMIC_ROWS")
    (node,) = [o for o in g.ops if "scf.if" in o.ops]
    a = dict(node.attrs)
    assert node.kind == "store" and a["bytes"] == 512 * 2 + 4 + 4 + 4    # the row, the scale, the index, the atomic
    assert a["guarded_load_bytes"] == 512 * 2 + 4 + 4                     # the row's and the scale's loads, the slot
    cycles, _ = op_cost(node, load_machine("h100"))
    assert cycles > load_machine("h100").rate("global_latency")


def test_a_scan_costs_its_combines_and_a_reductions_exchange():
    """``tl.cumsum`` (cumsum_rows): its node counts the combiner twice an element and the lane / warp exchange a
    reduction has (session 88's sweep: FlagGems' normed cumsum's scan cost 16 cycles, its plain sum 48)."""
    root = Path(__file__).resolve().parents[2]
    m = load_machine("h100")
    g, _ = graph_for_file(str(root / "tests/corpus/cumsum_rows.py"), m.target)
    (node,) = [o for o in g.ops if "tt.scan" in o.ops]
    a = dict(node.attrs)
    assert a["scan"] == 1 and a["nops"] >= 2
    cycles, _ = op_cost(node, m)
    assert cycles >= m.rate("reduce_overhead") + a["elements"] * 2 / m.rate("alu_ops")


def test_a_conversion_of_a_broadcast_row_costs_the_row_not_the_tile():
    """SGLang's block-scaled fp8 MoE converts a [128] row of scales, broadcast to the [64, 128] accumulator, to the
    wgmma layout every iteration. The Gluon back end converts the row and broadcasts after (run 71: x0.54 -> x0.76
    of Triton's best), so the model charges the round trip through shared memory for the row's 512 bytes, not the
    tile's 32 KB; a conversion of anything else keeps the tile's."""
    m = load_machine("h200")
    ir = ("%e = tt.expand_dims %r {axis = 0 : i32} : tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked4}>> "
          "-> tensor<1x128xf32, #blocked4>",
          "%b = tt.broadcast %e : tensor<1x128xf32, #blocked4> -> tensor<64x128xf32, #blocked4>",
          "%c = ttg.convert_layout %b : tensor<64x128xf32, #blocked4> -> tensor<64x128xf32, #mma>")
    attrs = (("bytes", 32768), ("elements", 8192), ("nops", 0))
    row = Op("convert1", "convert", "alu", ops=("ttg.convert_layout", "tt.expand_dims", "tt.broadcast"), ir=ir,
             attrs=attrs)
    tile = replace(row, ir=(ir[0], "%b = arith.mulf %x, %y : tensor<64x128xf32, #blocked4>", ir[2]))
    smem = m.rate("smem_bytes")
    assert op_cost(tile, m)[0] - op_cost(row, m)[0] == math.ceil(2 * 32768 / smem) - math.ceil(2 * 512 / smem) > 0


def test_a_bool_pointer_loaded_through_its_bitcast_is_its_own_buffer():
    """A ``*i1`` argument's load goes through ``tt.bitcast`` to ``*i8``: the same buffer, not an unknown one ordered
    against every store of the loop (SpargeAttn's block map had a recurrence of a load's latency an iteration)."""
    g = graph("BOOL_MAP_LUT")
    assert not [d for d in g.deps if d.memory], [d for d in g.deps if d.memory]


def test_a_load_whose_address_another_loads_node_computes_from_a_tile_waits_for_that_tiles_node():
    """The imaginary half's columns (``cols + D // 2``, folded into the real half's load with the mask) come from the
    column tile a compute node makes: the imaginary load waits for that node as the real one does (it had been
    scheduled before it: "reads a value before the op computing it")."""
    g = graph("ROPE_HALVES")
    loads = [o.id for o in g.ops if o.kind == "load"]
    assert len(loads) == 2
    for load in loads:
        srcs = {d.src for d in g.deps if d.dst == load and d.distance == 0}
        assert any(s.startswith(("convert", "elementwise")) for s in srcs), (load, g.deps)
