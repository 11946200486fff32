"""codegen.warps / codegen.partitions: a joint schedule's warp assignment as Triton partitions, compiled offline by the
installed Triton (sm_90 through add_warp_specialize in place of add_hopper_warpspec, sm_100 as is),
and the fall back to the stages-only annotation when Triton rejects the partitions.

Hand-built schedules (``_hand``) are not solver output: their start times put every compute op in
one stage in graph order and their warp maps are chosen to exercise what Triton 3.6 accepts and
rejects, so the independent checker does not apply to them. The committed joint schedule
(bench/results/schedules/fa3_subtiled-h200-ws, ``twill optimize --warp-groups 1``) goes through it.
"""
from __future__ import annotations

import functools
import json
import re
import time
import types
from pathlib import Path

import pytest

pytest.importorskip("triton")

from codegen.annotate import annotate_ttgir  # noqa: E402
from codegen.annotation import apply_annotation, read_annotation  # noqa: E402
from codegen.compile import compile_annotated, warp_route  # noqa: E402
from codegen.partitions import PARTITION, Partitions, partitions, privatize, warp_specialized  # noqa: E402
from codegen.warps import annotate, check_compiles  # noqa: E402
from twill.graph.extract import graph_for_file  # noqa: E402
from twill.graph.io import graph_from_dict  # noqa: E402
from twill.graph.model import LoopGraph  # noqa: E402
from twill.ir.load import load_kernel  # noqa: E402
from twill.ir.triton_hooks import first_error  # noqa: E402
from twill.ir.ttgir import add_attrs, loops, nested_ops, region_ops  # noqa: E402
from twill.machine.model import load_machine  # noqa: E402
from twill.schedule.model import Schedule  # noqa: E402

H100, H200, B200 = load_machine("h100"), load_machine("h200"), load_machine("b200")
MACHINES = {"h100": H100, "h200": H200, "b200": B200}

ROOT = Path(__file__).resolve().parents[2]
SCHED = ROOT / "bench/results/schedules"
FA = str(ROOT / "kernels/fa3_subtiled.py")
GEMM = str(ROOT / "kernels/gemm.py")


@functools.lru_cache(maxsize=None)
def _extract(path: str, arch: str, num_warps: int | None = None) -> tuple[LoopGraph, str]:
    g, kir = graph_for_file(path, MACHINES[arch].target, num_warps=num_warps)
    return g, kir.text


def _hand(g: LoopGraph, group: dict[str, int], compute: int, vl: int | None, issue: int | None = None) -> Schedule:
    """Loads at 0, compute ops one unit apart in graph order (one stage), the given warp map."""
    start = {o.id: 0 if o.variable_latency else 10 + i for i, o in enumerate(g.ops)}
    return Schedule(ii=10_000, length=10_000, start=tuple(start.items()), status="feasible", lower_bound=1,
                    warp=tuple((o.id, group[o.id]) for o in g.ops)).with_extra(
        warp_groups={"compute": compute, "warps_per_group": 4, "variable_latency": vl, "issue": issue})


def _loop_ops(text: str) -> list[str]:
    """Every op line of the scheduled loop's body (nested ops included), the yield left out."""
    lines = text.splitlines()
    span = next(o for o in loops(lines) if "tt.scheduled_max_stage" in lines[o.attr_line])
    out = []
    for b in region_ops(lines, span):
        if b.name == "scf.yield":
            continue
        out.append(lines[b.attr_line])
        out += [lines[n.attr_line] for n in nested_ops(lines, b)]
    return out


def _ws_regions(ttgir: str) -> tuple[int, list[int]]:
    """(ttg.warp_specialize ops, warps of each partition region) of a compiled TTGIR."""
    return ttgir.count("ttg.warp_specialize("), [int(w) for w in re.findall(r"partition\d+\(.*?num_warps\((\d+)\)",
                                                                                 ttgir, re.S)]


# -- the text edits ------------------------------------------------------------------------------

def test_add_attrs_on_closing_lines_of_region_ops():
    # a generic-form op (tt.reduce): the attribute dictionary goes between `})` and the type
    red = "      }) : (tensor<64x128xf32, #mma>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>> loc(#l)"
    assert add_attrs(red, "a = 1 : i32").startswith("      }) {a = 1 : i32} : (tensor<64x128xf32")
    assert add_attrs("      }) {b = 2 : i32} : (f32) -> f32 loc(#l)", "a = 1 : i32") == \
        "      }) {b = 2 : i32, a = 1 : i32} : (f32) -> f32 loc(#l)"
    # the scf.for's closing line, with and without a dictionary
    assert add_attrs("    } {tt.scheduled_max_stage = 2 : i32} loc(#l)", "a = 1 : i32") == \
        "    } {tt.scheduled_max_stage = 2 : i32, a = 1 : i32} loc(#l)"
    assert add_attrs("    } loc(#l)", "a = 1 : i32") == "    } {a = 1 : i32} loc(#l)"


def test_first_error_names_the_failing_pass_warning():
    generic = "k.py:56:0: error: Failures have been detected while processing an MLIR pass pipeline"
    lines = ["k.py:79:12: warning: non-root partition #2 has direct SSA consumer", "        k = desc_k.load(...)",
             "k.py:81:25: note: use at distance 0 in partition #0 here", generic]
    assert first_error(lines) == "non-root partition #2 has direct SSA consumer (use at distance 0 in partition #0 here)"
    assert first_error(["x: error: 'ttng.warp_group_dot' op pipeliner doesn't know how to predicate this op", generic]) \
        == "'ttng.warp_group_dot' op pipeliner doesn't know how to predicate this op"
    assert first_error([generic]) == generic.split("error: ")[1]


def test_partition_numbering_compute_groups_first_then_loads_then_issue():
    g, _ = _extract(FA, "b200")
    group = {o.id: 2 if o.variable_latency else 3 if o.kind == "dot" else 1 for o in g.ops}
    p = partitions(g, _hand(g, group, compute=2, vl=2, issue=3), {o.id: 0 if o.variable_latency else 2 for o in g.ops})
    assert isinstance(p, Partitions) and p.roles == ("compute group 1 (default)", "loads (group 2)", "MMA issue (group 3)")
    assert p.stages == (2, 0, 2) and p.node_map["dot0_qk0"] == 2 and p.node_map["tma_load1_v"] == 1
    one = {o.id: 0 for o in g.ops}
    assert partitions(g, _hand(g, one, compute=1, vl=None), {}) is None


# -- (a) sm_90: the joint schedule of the sub-tiled FlashAttention (FA3's ping-pong) -------------

WS = SCHED / "fa3_subtiled-h200-ws"


def test_sm90_ping_pong_joint_schedule_compiles_warp_specialized():
    """The committed joint schedule (``twill optimize kernels/fa3_subtiled.py --arch h200 --num-warps 4
    --warp-groups 2 --no-realisability``): sub-tile i on compute group i, loads on a third group. As
    written Triton 3.6 rejects it (both sub-tiles read each K and V tile); with each tile loaded once
    per sub-tile it compiles, on sm_90 with hopper_warpspec and the wgmma pipeliner skipped, with the
    buffers between partitions one deep (deeper ones exceed shared memory)."""
    from twill.schedule.verify import verify

    sched = json.loads((WS / "schedule.json").read_text())
    g, s = graph_from_dict(sched["graph"]), Schedule.from_dict(sched)
    assert s.status == "optimal" and not verify(g, load_machine("h200"), s)
    warp = s.warp_map
    for i in (0, 1):   # every op of sub-tile i on one compute group: no value crosses between them
        sub = [o.id for o in g.ops if not o.variable_latency and o.id.endswith(str(i))]
        assert len({warp[v] for v in sub}) == 1, {v: warp[v] for v in sub}
    assert warp["dot0_qk0"] != warp["dot1_qk1"]
    spec = load_kernel(FA, "h100", num_warps=4)
    r = annotate((WS / "pre_pipeline.ttgir").read_text(), g, s, H100, spec)
    assert r.warp_specialized and r.checked and r.num_stages == 1, r.reason
    assert r.private == ("tma_load0_k", "tma_load1_v") and "NVWSInsertAref" in r.text.split("#blocked")[0]
    committed = (WS / "annotated.ttgir").read_text()
    assert r.text == committed, "the committed annotated.ttgir is this output"
    assert sched["warp_specialization"]["num_stages"] == 1 and sched["warp_specialization"]["private"] == list(r.private)
    body = _loop_ops(r.text)
    assert body and all(PARTITION in line for line in body), [ln for ln in body if PARTITION not in ln][:3]
    loads = [ln for ln in body if "tt.descriptor_load" in ln]
    assert len(loads) == 4 and all("ttg.partition = array<i32: 2>" in ln for ln in loads)
    assert sum("twill.private = 1" in ln for ln in loads) == 2
    dots = {re.search(r'twill.node = "(\w+)"', ln).group(1): re.search(r"ttg.partition = array<i32: (\d+)>", ln).group(1)
            for ln in body if "= ttng.warp_group_dot" in ln}
    assert dots == {"dot0_qk0": "0", "dot2_acc0": "0", "dot1_qk1": "1", "dot3_acc1": "1"}
    skip, insert = warp_route(r.text, 90)
    assert skip == ("add_hopper_warpspec", "add_pipeline")
    assert [i.binding for i in insert] == ["passes.ttgpuir.add_warp_specialize"]
    k = compile_annotated(spec, H100, r.text, dict(spec.options, num_stages=1))
    n_ws, warps = _ws_regions(k.asm["ttgir"])
    assert len(k.asm["cubin"]) > 0 and n_ws == 1 and warps == [4, 4] and k.metadata.shared <= 232448


def test_privatized_annotation_replays_on_the_live_module():
    """read_annotation leaves the per-partition clones out; apply_annotation redoes them on the module
    Triton hands over (here the pre-pipeline TTGIR, which has no twill.node tags), so the loop Triton
    compiles is the annotated one, clones included."""
    text = (WS / "annotated.ttgir").read_text()
    ann = read_annotation(text)
    pre = (WS / "pre_pipeline.ttgir").read_text()
    pre_lines = pre.splitlines()
    top = [b for b in region_ops(pre_lines, loops(pre_lines)[0]) if b.name != "scf.yield"]
    assert ann["private"] and [op[0] for op in ann["ops"]] == [b.name for b in top]
    live = apply_annotation(pre, ann)
    untagged = [re.sub(r', twill\.node = "[^"]+"', "", ln).split(" loc(")[0] for ln in _loop_ops(text)]
    assert [ln.split(" loc(")[0] for ln in _loop_ops(live)] == untagged


def test_privatize_is_idempotent():
    """Applied to its own output, privatize finds no tile left with two reading partitions."""
    lines = (WS / "annotated.ttgir").read_text().splitlines()
    span = next(o.span for o in loops(lines) if "tt.scheduled_max_stage" in lines[o.attr_line])
    out, done = privatize(lines, span)
    assert done == [] and out == lines


# -- (b) sm_100: loads, MMAs and softmax on their own partitions --------------------------------

@pytest.mark.parametrize("path, groups", [
    (GEMM, 2),   # loads on one partition, the MMA on the default one
    (FA, 3),     # FA4's split: softmax (default), loads, MMAs on the one-warp issue group
])
def test_sm100_loads_and_mma_partitions_compile(path, groups):
    g, pre = _extract(path, "b200")
    group = {o.id: 1 if o.variable_latency else 2 if (o.kind == "dot" and groups == 3) else 0 for o in g.ops}
    s = _hand(g, group, compute=1, vl=1, issue=2 if groups == 3 else None)
    spec = load_kernel(path, "b200")
    r = annotate(pre, g, s, B200, spec)
    assert r.warp_specialized and r.partitions.count == groups, r.reason
    assert warp_route(r.text, 100) == ((), ())     # sm_100's make_ttgir runs add_warp_specialize itself
    mma = [ln for ln in _loop_ops(r.text) if "ttng.tc_gen5_mma" in ln]
    want = 2 if groups == 3 else 0     # the issue group's partition, else the default one
    assert mma and all(f"ttg.partition = array<i32: {want}>" in ln for ln in mma)
    k = compile_annotated(spec, B200, r.text)
    n_ws, warps = _ws_regions(k.asm["ttgir"])
    assert n_ws == 1 and len(warps) == groups - 1 and len(k.asm["cubin"]) > 0


# -- (c) a partitioning Triton rejects -----------------------------------------------------------

def _ping_pong_by_hand() -> tuple[LoopGraph, str, Schedule]:
    g, pre = _extract(FA, "h100", 4)   # 4-warp groups, as Triton sizes sm_90 partitions (num_warps each)
    group = {o.id: 2 if o.variable_latency else (0 if o.id.endswith("0") else 1) for o in g.ops}
    return g, pre, _hand(g, group, compute=2, vl=2)


def test_without_privatization_merging_the_readers_leaves_a_lone_consumer_on_sm90(monkeypatch):
    """FA3's ping-pong (sub-tile i on compute group i, loads on a third) as written: both sub-tiles
    read the K and V tiles and Triton 3.6 rejects it. With the per-partition loads turned off, merging
    the groups reading a common tile leaves loads feeding one compute partition, which on sm_90 is
    not written (Triton 3.6 miscompiles it pipelined, runs it at 0.25x unpipelined): stages only,
    and the header says each step."""
    import codegen.warps

    g, pre, s = _ping_pong_by_hand()
    monkeypatch.setattr(codegen.warps, "privatize", lambda lines, span: (lines, []))
    r = annotate(pre, g, s, H100, load_kernel(FA, "h100", num_warps=4))
    assert not r.warp_specialized and r.checked, r.reason
    assert "the tile of tma_load0_k is read by partitions 0 and 1" in r.reason
    assert "the tile of tma_load1_v is read by partitions 0 and 1" in r.reason
    assert "merging the groups that read them leaves one compute partition beside the loads' on sm_90" in r.reason
    head = [ln for ln in r.text.splitlines() if ln.startswith("// twill")]
    assert any("warp specialization given up: Triton rejected the partitions" in ln and "NVWSInsertAref" in ln
               for ln in head)
    assert PARTITION not in r.text


def test_a_lone_consumer_partition_is_not_written_on_sm90_but_is_on_sm100():
    """Loads on their own group, every compute op on one: on sm_90 the stages alone (Triton 3.6 computed
    it wrong pipelined and at 0.25x unpipelined on the H200), without compiling anything; on sm_100 the
    two partitions."""
    g, pre = _extract(GEMM, "h100", 4)
    group = {o.id: 1 if o.variable_latency else 0 for o in g.ops}
    r = annotate(pre, g, _hand(g, group, compute=1, vl=1), H100, load_kernel(GEMM, "h100", num_warps=4))
    assert not r.warp_specialized and not r.checked and "one compute partition" in r.reason
    assert PARTITION not in r.text and "warp specialization not written" in r.text.split("#")[0]
    g, pre = _extract(GEMM, "b200")
    group = {o.id: 1 if o.variable_latency else 0 for o in g.ops}
    r = annotate(pre, g, _hand(g, group, compute=1, vl=1), B200)
    assert r.warp_specialized and r.partitions.count == 2


def test_groups_narrower_than_num_warps_are_not_written_on_sm90():
    """FA3's ping-pong solved at the kernel's 8 warps (two 4-warp groups): Triton 3.6 would give each
    partition 8 warps on sm_90, so the stages alone are written and the line says how to solve it."""
    g, pre = _extract(FA, "h100")
    group = {o.id: 2 if o.variable_latency else (0 if o.id.endswith("0") else 1) for o in g.ops}
    r = annotate(pre, g, _hand(g, group, compute=2, vl=2), H100, load_kernel(FA, "h100"))
    assert not r.warp_specialized and not r.checked and "solve with --num-warps 4" in r.reason, r.reason
    assert PARTITION not in r.text


def test_rejected_everywhere_falls_back_to_stages_only_with_the_reason(monkeypatch):
    import codegen.warps

    g, pre, s = _ping_pong_by_hand()
    monkeypatch.setattr(codegen.warps, "check_compiles", lambda *a, **k: "error: no (a stand-in rejection)")
    r = annotate(pre, g, s, H100, types.SimpleNamespace(options={"num_stages": 1}))
    assert not r.warp_specialized and r.checked and r.partitions is not None
    assert r.reason.startswith("Triton rejected the partitions: error: no (a stand-in rejection)")
    assert "with the tiles privatized: error: no" in r.reason
    head = [ln for ln in r.text.splitlines() if ln.startswith("// twill")]
    assert any(ln.startswith("// twill: warp specialization given up: Triton rejected") for ln in head)
    assert PARTITION not in r.text and not warp_specialized(r.text)
    assert read_annotation(r.text) == read_annotation(annotate_ttgir(pre, g, s, H100))
    assert r.line().startswith("warp specialization: none, stages only (Triton rejected")


def test_a_compile_that_never_returns_is_given_up_after_the_timeout(monkeypatch):
    import codegen.warps

    monkeypatch.setattr(codegen.warps, "compile_annotated", lambda *a, **k: time.sleep(30))
    t0 = time.perf_counter()
    err = check_compiles(None, H100, "", timeout=0.5)
    assert err is not None and "did not finish compiling within" in err and time.perf_counter() - t0 < 10


# -- (d) a modulo-only schedule ------------------------------------------------------------------

def test_modulo_only_schedule_is_annotated_as_before():
    d = SCHED / "gemm-h200"
    sched = json.loads((d / "schedule.json").read_text())
    g, s = graph_from_dict(sched["graph"]), Schedule.from_dict(sched)
    assert not s.warp
    pre = (d / "pre_pipeline.ttgir").read_text()
    r = annotate(pre, g, s, H200, load_kernel(GEMM, "h200"))
    assert not r.warp_specialized and not r.checked and "no warp assignment" in r.reason
    assert r.text == annotate_ttgir(pre, g, s, H200) == (d / "annotated.ttgir").read_text()
    assert warp_route(r.text, 90) == ((), ()) and read_annotation(r.text)["partitions"] is None
