"""codegen: a modulo schedule applied to pre-pipeline TTGIR, compiled offline by the installed Triton."""
import json
import re
from pathlib import Path

import pytest

from codegen.annotate import annotate_ttgir
from codegen.annotation import read_annotation
from codegen.compile import compile_annotated
from codegen.placement import check_realisable, placement
from twill.errors import CompileError
from twill.graph.io import graph_from_dict
from twill.ir.load import load_kernel
from twill.ir.ttgir import add_attrs
from twill.machine.model import load_machine
from twill.schedule.model import Schedule

H200 = load_machine("h200")

ROOT = Path(__file__).resolve().parents[2]
SCHED = ROOT / "bench/results/schedules"


def _load(name, unconstrained=False):
    """Graph, schedule and pre-pipeline TTGIR of a committed schedule; ``unconstrained``: the machine
    optimum the search recorded beside the realisable one (FA: FA3's cross-stage pipeline)."""
    d = json.loads((SCHED / f"{name}-h200/schedule.json").read_text())
    s = Schedule.from_dict(d)
    if unconstrained:
        free = d["realisability"]["unconstrained"]
        s = Schedule(ii=free["ii"], length=free["length"], start=tuple(free["start"].items()), status=free["status"],
                     lower_bound=free["ii"], time_unit=s.time_unit).with_extra(normalization=d["normalization"])
    return graph_from_dict(d["graph"]), s, (SCHED / f"{name}-h200/pre_pipeline.ttgir").read_text()


def test_add_attrs_keeps_existing_dicts():
    line = '  %a = ttg.memdesc_trans %b {order = array<i32: 1, 0>} : !x -> !y loc(#l)'
    assert add_attrs(line, "k = 1 : i32") == '  %a = ttg.memdesc_trans %b {order = array<i32: 1, 0>, k = 1 : i32} : !x -> !y loc(#l)'
    assert add_attrs("  %c = arith.muli %a, %b : i32 loc(#l)", "k = 1 : i32") == "  %c = arith.muli %a, %b {k = 1 : i32} : i32 loc(#l)"


def test_gemm_schedule_compiles_with_its_stages():
    g, s, pre = _load("gemm")
    ann = annotate_ttgir(pre, g, s, H200)
    p = placement(g, s, H200)
    assert not p.projected and p.stage_map["dot0_acc"] == p.max_stage and p.stage_map["tma_load0_a"] == 0
    k = compile_annotated(load_kernel(str(ROOT / "kernels/gemm.py"), "h200"), H200, ann)
    assert len(k.asm["cubin"]) > 0
    # loads p.load_distance ahead: that many TMA copies of A are issued before the loop (prologue)
    before_loop = k.asm["ttgir"].split("scf.for")[0]
    assert before_loop.count("async_tma_copy_global_to_local %a_desc") == p.max_stage


def test_fa3_realisable_schedule_needs_no_projection():
    g, s, pre = _load("fa3")
    assert not check_realisable(g, s, "3.6.0") and not placement(g, s, H200, "3.6.0").projected


def test_fa3_modulo_schedule_is_projected_and_compiles():
    g, s, pre = _load("fa3", unconstrained=True)
    assert check_realisable(g, s, "3.6.0"), "the optimal FA schedule splits the dots over stages"
    assert not check_realisable(g, s, "3.9.0")
    p = placement(g, s, H200, "3.6.0")
    assert p.projected and len({p.stage_map[o.id] for o in g.ops if not o.variable_latency}) == 1
    ann = annotate_ttgir(pre, g, s, H200, "3.6.0")
    assert read_annotation(ann)["max_stage"] == p.max_stage
    k = compile_annotated(load_kernel(str(ROOT / "kernels/fa3.py"), "h200"), H200, ann)
    assert len(k.asm["cubin"]) > 0


def test_fa3_style_split_fails_with_a_precise_error():
    g, s, pre = _load("fa3", unconstrained=True)
    ann = annotate_ttgir(pre, g, s, H200, "3.9.0")        # no projection: dots in two stages
    stages = [int(m) for m in re.findall(r"warp_group_dot .*?loop\.stage = (\d+)", ann)]
    assert len(set(stages)) == 2, stages
    with pytest.raises(CompileError, match="last stage"):
        compile_annotated(load_kernel(str(ROOT / "kernels/fa3.py"), "h200"), H200, ann)


def test_explicit_streaming_depth_that_overflows_shared_memory_is_one_clear_error():
    """The exposed depth (paper 5.3) is a tuner's pick; a depth whose load buffers cannot fit is refused
    before Triton fails on it (FA forward, 2 x 32 KB loads: depth 3 needs 256 KB)."""
    d = Path("bench/results/schedules/fa3-h200")
    sched = json.loads((d / "schedule.json").read_text())
    g, s, pre = graph_from_dict(sched["graph"]), Schedule.from_dict(sched), (d / "pre_pipeline.ttgir").read_text()
    assert "load_distance=2" in annotate_ttgir(pre, g, s, H200, distance=2).splitlines()[0]
    with pytest.raises(CompileError, match="depth 3: 256 KB"):
        annotate_ttgir(pre, g, s, H200, distance=3)
