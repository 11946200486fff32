"""codegen: a modulo schedule applied to pre-pipeline TTGIR, compiled offline by the installed Triton."""
import json
import re
from pathlib import Path

import pytest

from codegen.annotate import annotate_ttgir, check_realisable, placement, read_annotation
from codegen.compile import compile_annotated
from codegen.text import add_attrs
from twill.errors import CompileError
from twill.graph.io import graph_from_dict
from twill.ir.load import load_kernel
from twill.schedule.model import Schedule

ROOT = Path(__file__).resolve().parents[2]
SCHED = ROOT / "bench/results/schedules"


def _load(name):
    d = json.loads((SCHED / f"{name}-h200/schedule.json").read_text())
    return graph_from_dict(d["graph"]), Schedule.from_dict(d), (SCHED / f"{name}-h200/pre_pipeline.ttgir").read_text()


def test_add_attrs_keeps_existing_dicts():
    line = '  %a = ttg.memdesc_trans %b {order = array<i32: 1, 0>} : !x -> !y loc(#l)'
    assert add_attrs(line, "k = 1 : i32") == '  %a = ttg.memdesc_trans %b {order = array<i32: 1, 0>, k = 1 : i32} : !x -> !y loc(#l)'
    assert add_attrs("  %c = arith.muli %a, %b : i32 loc(#l)", "k = 1 : i32") == "  %c = arith.muli %a, %b {k = 1 : i32} : i32 loc(#l)"


def test_gemm_schedule_compiles_with_its_stages():
    g, s, pre = _load("gemm")
    ann = annotate_ttgir(pre, g, s)
    p = placement(g, s)
    assert not p.projected and p.stage_map["dot0_acc"] == p.max_stage and p.stage_map["tma_load0_a"] == 0
    k = compile_annotated(load_kernel(str(ROOT / "kernels/gemm.py"), "h200"), "h200", ann)
    assert len(k.asm["cubin"]) > 0
    # loads p.load_distance ahead: that many TMA copies of A are issued before the loop (prologue)
    before_loop = k.asm["ttgir"].split("scf.for")[0]
    assert before_loop.count("async_tma_copy_global_to_local %a_desc") == p.max_stage


def test_fa3_modulo_schedule_is_projected_and_compiles():
    g, s, pre = _load("fa3")
    assert check_realisable(g, s, "3.6.0"), "the optimal FA schedule splits the dots over stages"
    assert not check_realisable(g, s, "3.9.0")
    p = placement(g, s, "3.6.0")
    assert p.projected and len({p.stage_map[o.id] for o in g.ops if not o.variable_latency}) == 1
    ann = annotate_ttgir(pre, g, s, "3.6.0")
    assert read_annotation(ann)["max_stage"] == p.max_stage
    k = compile_annotated(load_kernel(str(ROOT / "kernels/fa3.py"), "h200"), "h200", ann)
    assert len(k.asm["cubin"]) > 0


def test_fa3_style_split_fails_with_a_precise_error():
    g, s, pre = _load("fa3")
    ann = annotate_ttgir(pre, g, s, "3.9.0")        # no projection: dots in two stages
    stages = [int(m) for m in re.findall(r"warp_group_dot .*?loop\.stage = (\d+)", ann)]
    assert len(set(stages)) == 2, stages
    with pytest.raises(CompileError, match="last stage"):
        compile_annotated(load_kernel(str(ROOT / "kernels/fa3.py"), "h200"), "h200", ann)
