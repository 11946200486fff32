"""Perfect loop nests carrying a value through both loops (RoIAlign's sampling grid, a convolution's filter rows and
channel blocks) flattened into one loop for the Gluon back end (``twill.ir.flatten``), and the nests that are not
flattened: code after the inner loop, an inner bound the outer loop computes, a load before an inner loop that
stores."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("triton")

from twill.ir.flatten import flatten_nests  # noqa: E402
from twill.ir.frontend import read_kernel  # noqa: E402
from twill.ir.function import read_function  # noqa: E402
from twill.machine.model import load_machine  # noqa: E402

HEAD = '''
import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"x_ptr": "*fp32", "out_ptr": "*fp32", "R": "i32", "S": "i32", "C": "i32"},
              "constexprs": {"BLOCK": 64}, "num_warps": 4}

'''

CONV = HEAD + '''
@triton.jit
def conv_like(x_ptr, out_ptr, R, S, C, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for r in range(R):
        for s in range(1, S):
            base = (r * S + s) * C
            for c in range(0, C, BLOCK):
                acc += tl.load(x_ptr + base + c + offs, mask=c + offs < C, other=0.0)
    tl.store(out_ptr + tl.program_id(0) * BLOCK + offs, acc)
'''

AFTER = HEAD + '''
@triton.jit
def after_inner(x_ptr, out_ptr, R, S, C, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for r in range(R):
        part = tl.zeros([BLOCK], dtype=tl.float32)
        for c in range(0, C, BLOCK):
            part += tl.load(x_ptr + r * C + c + offs, mask=c + offs < C, other=0.0)
        acc += part * part
    tl.store(out_ptr + offs, acc)
'''

TRIANGLE = HEAD + '''
@triton.jit
def triangle(x_ptr, out_ptr, R, S, C, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for r in range(R):
        for c in range(0, r * BLOCK, BLOCK):
            acc += tl.load(x_ptr + r * C + c + offs)
    tl.store(out_ptr + offs, acc)
'''

LOAD_THEN_STORE = HEAD + '''
@triton.jit
def load_then_store(x_ptr, out_ptr, R, S, C, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for r in range(R):
        w = tl.load(x_ptr + r)
        for c in range(0, C, BLOCK):
            acc += w * tl.load(x_ptr + c + offs)
            tl.store(out_ptr + c + offs, acc)
    tl.store(out_ptr + offs, acc)
'''


def _ttgir(tmp_path: Path, source: str) -> str:
    path = tmp_path / "k.py"
    path.write_text(source)
    return read_kernel(str(path), load_machine("h200").target, None, {}, {}, None).text


def test_a_three_deep_nest_carrying_its_accumulator_is_one_loop_over_the_product_of_its_trips(tmp_path):
    flat = flatten_nests(_ttgir(tmp_path, CONV))
    assert flat is not None and len(flat.said) == 2          # (s, c) first, then (r, the flattened pair)
    fn = read_function(flat.text)
    loops = fn.module.loops()
    assert len(loops) == 1
    text = flat.text
    # each loop's trip count max(0, ceil((ub - lb) / step)), their product the flat loop's bound
    assert len(re.findall(r"= arith\.maxsi ", text)) == 4 and "arith.muli %twill_flat1_no, %twill_flat1_ni" in text
    assert re.search(r"%r = arith\.divsi %twill_flat1_t, %twill_flat1_ni", text)          # lb 0, step 1
    assert re.search(r"%s = arith\.addi %c1_i32\S*, %twill_flat0_qo_s", text)               # lb 1
    assert re.search(r"%c = arith\.addi %c0_i32\S*, %twill_flat0_qi_s", text)               # step BLOCK
    body = [o.name for o in loops[0].body.ops]
    assert body.count("tt.load") == 1 and body[-1] == "scf.yield"
    # the result the store reads is the flat loop's
    assert loops[0].results == tuple(fn.module.loops()[0].results) and loops[0].body.inits[0].startswith("%cst")


@pytest.mark.parametrize("source", [AFTER, TRIANGLE, LOAD_THEN_STORE], ids=["after", "triangle", "load-store"])
def test_a_nest_that_is_not_perfect_stays_as_written(tmp_path, source):
    assert flatten_nests(_ttgir(tmp_path, source)) is None


@pytest.mark.parametrize("label", ["torchvision_roi_align_nhwc", "nested_filter_conv2d"])
def test_a_committed_flattened_kernel_is_its_schedules_kernel(label):
    # torchvision's RoIAlign and a conv's runtime-bounded filter loops (tests/corpus): the route flattened their nests
    # (the conv's at 4 warps, ``choose_warps``); each committed kernel is what its schedule generates from the
    # flattened TTGIR again (bench/gluon_variants.regenerated_kernel)
    import importlib.util
    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("gluon_variants", root / "bench/gluon_variants.py")
    gv = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gv)
    d = root / "bench/results/gluon" / label
    k = gv.regenerated_kernel(d)
    assert k.source == (d / "kernel_gluon.py").read_text()
    import json
    said = json.loads((d / "gluon.json").read_text())["gluon"]["kernel"]["decisions"]
    assert said[0].startswith("nest: the loops at TTGIR lines") and "// twill_flat0_ni_" in k.source


def test_the_simulations_run_a_flattened_loop_the_trips_they_ask_for():
    # the protocol check and the replay set every integer argument so that the loop runs the trips they simulate; a
    # flattened nest's count is the product of two such counts (RoIAlign: 1176 x 1176 trips, an hour of tracing), so
    # a count above TRIP_CAP times the asked one is simulated as asked
    from codegen.gluon.protocol import TRIP_CAP, Recorder
    rec = Recorder()
    rec.trips, rec.flat = 24, True
    assert rec.trip_count(24 * TRIP_CAP) == 24 * TRIP_CAP and rec.trip_count(1176 * 1176) == 24
    rec.flat = False                      # any other kernel's loop runs the count its source computes
    assert rec.trip_count(1176 * 1176) == 1176 * 1176


def test_a_nest_carrying_a_tile_is_written_flattened_where_it_flattens(tmp_path):
    # session 78's tile loop keeps a nest carrying a tile (torchtitan's dW through an if); a perfect nest still goes
    # flattened, first (the conv's nest kept had its filter loops run around every simulated trip: 15 min, 6.7 GB)
    from twill.gluon_route import nest_carries_tiles
    from twill.graph.extract import graph_of
    from twill.pipeline import OptimizeOptions, optimize
    path = tmp_path / "conv.py"
    path.write_text(CONV)
    machine = load_machine("h100")
    kir = read_kernel(str(path), machine.target, None, {}, {}, None)
    assert nest_carries_tiles(kir, graph_of(kir, machine.target, None, where=str(path)))
    g = optimize(str(path), machine, OptimizeOptions(time_limit=2.5, total_time=5, threads=2)).gluon
    assert g is not None and g.kernel is not None, g.reason
    assert g.kernel.decisions[0].startswith("nest: the loops at TTGIR lines"), g.kernel.decisions
    assert "twill_flat1_ni_" in g.kernel.source


def test_a_simulation_stops_past_its_iteration_cap():
    # a nest kept around the scheduled loop runs its outer loops' bounds as set (each a multiple of the tile): past
    # ITERATION_CAP iterations the protocol is "not simulated", in one line, not run for minutes
    from codegen.gluon.protocol import ITERATION_CAP, Recorder, Unsimulated
    rec = Recorder()
    assert sum(1 for _ in rec.range(ITERATION_CAP // 2)) == ITERATION_CAP // 2
    with pytest.raises(Unsimulated, match=f"more than {ITERATION_CAP} iterations"):
        for _ in rec.range(0, ITERATION_CAP, 1):
            pass
