"""Kernels in the style of real ones (tests/corpus): every loop found, every dependence kept, no silent
wrong schedule. One test per class of the issue's findings; each asserts the dependences themselves."""
from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("triton")

from codegen.annotation import apply_annotation, read_annotation  # noqa: E402
from twill.cli import main  # noqa: E402
from twill.errors import TwillError, UnsupportedError  # noqa: E402
from twill.graph.extract import graph_for_file  # noqa: E402
from twill.graph.model import LoopGraph  # noqa: E402
from twill.ir import ttgir  # noqa: E402
from twill.machine.model import load_machine  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
H100 = load_machine("h100")


def corpus(name: str) -> str:
    return str(CORPUS / f"{name}.py")


def graph(name: str, loop=None, arch: str = "h100") -> LoopGraph:
    g, _ = graph_for_file(corpus(name), load_machine(arch).target, loop=loop)
    return g


def lines(name: str, snippet: str) -> list[int]:
    """The lines of ``tests/corpus/<name>.py`` holding ``snippet``."""
    return [i for i, ln in enumerate(Path(corpus(name)).read_text().splitlines(), 1) if snippet in ln]


def line(name: str, snippet: str) -> int:
    return lines(name, snippet)[0]


def edges(g: LoopGraph, src, dst, distance: int | None = None) -> list:
    """Edges from a node matching ``src`` to one matching ``dst`` (predicates on Op)."""
    return [d for d in g.deps if src(g.op(d.src)) and dst(g.op(d.dst)) and (distance is None or d.distance == distance)]


def has(*names: str):
    return lambda o: all(n in o.ops for n in names)


def kind(k: str, shape: tuple | None = None):
    return lambda o: o.kind == k and (shape is None or o.shape == shape)


def optimize(tmp_path: Path, path: str, *flags: str) -> tuple[int, Path]:
    out = tmp_path / "out"
    rc = main(["optimize", path, "--arch", "h100", "--swp-only", "--time-limit", "30", "-o", str(out), "--quiet",
               *flags])
    return rc, out


def loop_stages(text: str) -> list[dict[str, tuple[int, int]]]:
    """For each loop of ``text``: {op line (results and loc left out): (stage, cluster)} of its body."""
    lines = text.splitlines()
    out = []
    for span in ttgir.loops(lines):
        body = {}
        for b in ttgir.region_ops(lines, span):
            a = lines[b.attr_line]
            st, cl = re.search(r"loop\.stage = (\d+)", a), re.search(r"loop\.cluster = (\d+)", a)
            if st and cl:
                body[lines[b.first].strip()] = (int(st.group(1)), int(cl.group(1)))
        out.append(body)
    return out


# -- 1. rank-0 values are data ----------------------------------------------------------------------
def test_online_softmax_keeps_the_running_max_and_sum():
    """exp2(x - m_new) reads the max of the block and the running max: both edges, and the running
    max and sum are recurrences (they were bookkeeping, and exp2 was scheduled before the max)."""
    g = graph("online_softmax", loop=0)
    m_new = has("arith.maxnumf")
    row_max = lambda o: o.kind == "reduce" and o.attr("fn") == "max"   # noqa: E731
    row_sum = lambda o: o.kind == "reduce" and o.attr("fn") == "sum"   # noqa: E731
    assert edges(g, row_max, m_new, 0)
    assert edges(g, m_new, kind("sfu", (1024,)), 0)                    # p = exp2(x - m_new)
    assert edges(g, m_new, m_new, 1)                                   # m = m_new, next iteration
    assert edges(g, m_new, kind("sfu", ()), 1) and edges(g, m_new, kind("sfu", ()), 0)   # exp2(m - m_new)
    running_l = has("arith.mulf", "arith.addf")
    assert edges(g, running_l, running_l, 1) and edges(g, row_sum, running_l, 0)
    assert {r for d in g.deps if d.distance == 1 for r in (d.src, d.dst)} >= {g.ops[i].id for i, o in enumerate(g.ops)
                                                                              if m_new(o) or running_l(o)}


def test_rms_norm_backward_scalar_load_and_row_sum_feed_the_row():
    g = graph("rms_norm_bwd")
    rstd = kind("load", ())
    assert len([o for o in g.ops if rstd(o)]) == 1
    dx_lines = (line("rms_norm_bwd", "dx = rstd * m"), line("rms_norm_bwd", "dx += rstd"))
    dx = lambda o: o.line in dx_lines and o.kind == "elementwise"      # noqa: E731
    assert edges(g, rstd, dx, 0) and edges(g, kind("reduce", ()), dx, 0)
    dw = lambda o: o.line == line("rms_norm_bwd", "dw += dy")          # noqa: E731
    assert edges(g, dw, dw, 1) and (edges(g, rstd, dw, 0) or edges(g, dx, dw, 0))
    stored = lambda o: o.line == line("rms_norm_bwd", "tl.store(dX") and o.kind == "convert"   # noqa: E731
    assert edges(g, stored, kind("store"), 0)


def test_cross_entropy_log_sum_exp_loop_by_source_line():
    lse_loop = lines("cross_entropy", "for i in range(0, n_cols, BLOCK):")[1]   # the second of three
    g = graph("cross_entropy", loop=f":{lse_loop}")
    assert g.get("loop_index") == 1 and g.get("loop_line") == lse_loop
    m_new = has("arith.maxnumf")
    assert edges(g, kind("reduce", ()), m_new, 0) and edges(g, m_new, m_new, 1)
    assert edges(g, m_new, kind("sfu", (2048,)), 0)


# -- 2. stores: their stage, and memory dependences ---------------------------------------------------
def test_a_store_is_placed_with_the_value_it_stores(tmp_path):
    """Loop 1 of the softmax stores exp2(x - m) / l: the store must not sit in an earlier stage than the
    division (it had no result, so it went to stage 0)."""
    rc, out = optimize(tmp_path, corpus("online_softmax"), "--loop", "1")
    assert rc == 0
    body = next(b for b in loop_stages((out / "annotated.ttgir").read_text()) if b)
    store = next(v for k, v in body.items() if k.startswith("tt.store"))
    div = next(v for k, v in body.items() if "arith.divf" in k)
    assert store >= div, (store, div)
    assert json.loads((out / "schedule.json").read_text())["annotation"]["compiled"] is True


def test_scratch_buffer_read_after_write_and_write_after_read():
    g = graph("scratch_buffer")
    store, barrier = kind("store"), kind("barrier")
    read_back = lambda o: o.kind == "load" and o.line == line("scratch_buffer", "r = tl.load")   # noqa: E731
    (raw,) = edges(g, store, read_back, 0)
    (war,) = edges(g, read_back, store, 1)
    assert raw.memory and war.memory and "scratch_ptr" in raw.value
    assert edges(g, store, barrier, 0) and edges(g, barrier, read_back, 0)
    assert not next(o for o in g.ops if read_back(o)).streaming            # it waits for the store: no run-ahead
    # the barrier after the read orders the next iteration's store after it (every thread has read the buffer)
    after_read = lambda o: o.kind == "barrier" and o.line == line("scratch_buffer", "tl.debug_barrier()") + 3  # noqa: E731
    assert edges(g, read_back, after_read, 0) and edges(g, after_read, store, 1)
    assert not edges(g, kind("load"), after_read, 1) or all(   # x, which nothing writes, is not held behind it
        g.op(d.src).line != line("scratch_buffer", "x = tl.load") for d in edges(g, after_read, kind("load"), 1))


def test_scratch_buffer_schedule_reads_after_the_write_and_compiles(tmp_path):
    rc, out = optimize(tmp_path, corpus("scratch_buffer"))
    assert rc == 0
    body = next(b for b in loop_stages((out / "annotated.ttgir").read_text()) if b)
    store = next(v for k, v in body.items() if k.startswith("tt.store"))
    bar = next(v for k, v in body.items() if k.startswith("gpu.barrier"))
    load = next(v for k, v in body.items() if "tt.load %r" in k)
    assert store < bar < load                                               # (stage, cluster), same iteration
    assert json.loads((out / "schedule.json").read_text())["annotation"]["compiled"] is True


def test_in_place_gradient_store_is_proved_apart_across_iterations():
    """Loop 2 of the cross-entropy overwrites the logits it reads: the read goes before the write in one
    iteration, and consecutive iterations touch disjoint blocks, so the load still runs ahead."""
    g = graph("cross_entropy", loop=2)
    (war,) = edges(g, kind("load"), kind("store"), 0)
    assert war.memory and "X_ptr" in war.value
    assert not edges(g, kind("store"), kind("load"), 1)
    assert next(o for o in g.ops if o.kind == "load").streaming


def test_grid_stride_in_place_stores_are_proved_apart_and_a_count_read_back_is_not():
    """Unsloth's SwiGLU backward overwrites the rows it reads in a grid-stride loop (step tl.num_programs(0), at
    least 1): consecutive iterations touch disjoint blocks, so no store waits for the next iteration's load. vLLM's
    moe_align stage 4 stores a count back where its index (loaded) points: the next iteration's load reads it."""
    g = graph("unsloth_swiglu_bwd")
    assert edges(g, kind("load"), kind("store"), 0) and not edges(g, kind("store"), kind("load"), 1)
    g = graph("moe_align_block_size")
    (raw,) = edges(g, kind("store"), kind("load"), 1)
    assert raw.memory and "tokens_cnts_ptr" in raw.value



def test_pointers_rewound_after_an_earlier_loop_keep_their_buffer():
    """verl's entropy backward: its first K loop advances the hidden / weight pointers, then rewinds them
    (``ptrs -= hidden_size * stride``) for the scheduled second loop, whose fp32 atomics go to other buffers. The
    pointers resolve through the first loop's results to their arguments: no memory edge between the bf16 loads
    and the atomics (taken for the same unknown buffer, they had made RecMII 502 against ResMII 144)."""
    g = graph("verl_entropy_bwd_fused_mn")
    assert [o.kind for o in g.ops].count("store") == 2 and [o.kind for o in g.ops].count("load") == 2
    assert not [d for d in g.deps if d.memory], [(d.src, d.dst, d.value) for d in g.deps if d.memory]


def test_a_boundary_checked_load_advanced_by_a_loaded_index_keeps_its_mask_in_its_node():
    """XunhaoLai's NSA top-k attention: K is read through ``tl.advance(k_ptrs, (0, c))`` with ``c`` loaded each
    trip and ``boundary_check=(1, 0)``; the check's compares and ``&`` of the advanced offsets (loaded data) had made
    nodes of their own feeding the load's mask from the load's own node: a cycle of distance 0, refused. They fold
    into the load's node; the graph's only cycles are carried."""
    g = graph("xunhao_nsa_topk_sparse_fwd")
    k = next(o for o in g.ops if o.kind == "load" and o.id.endswith("_k"))
    assert not [d for d in g.deps if d.distance == 0 and d.dst == k.id and g.op(d.src).kind == "elementwise"]
    assert {o.kind for o in g.ops} >= {"load", "dot"} and sum(o.kind == "dot" for o in g.ops) == 2

# -- 3. several loops in one kernel ---------------------------------------------------------------------
def test_sibling_loops_the_schedule_lands_on_its_own_loop(tmp_path):
    """The GEMM loop's schedule went onto the copy loop before it (same SSA names), and compiled."""
    rc, out = optimize(tmp_path, corpus("sibling_loops"))
    assert rc == 0
    copy, gemm = loop_stages((out / "annotated.ttgir").read_text())
    assert not copy and any("ttng.warp_group_dot" in k for k in gemm)
    rc, out = optimize(tmp_path, corpus("sibling_loops"), "--loop", "0", "-o", str(tmp_path / "copy"))
    copy, gemm = loop_stages((tmp_path / "copy" / "annotated.ttgir").read_text())
    assert rc == 0 and copy and not gemm


def test_a_helper_inlined_twice_the_annotation_replays_on_its_own_loop(tmp_path):
    """Both loops have the same ops: re-applied onto the live module (as codegen.compile and the stored-
    schedule hook do), the annotation of loop 1 must land on loop 1, not on the first loop that matches."""
    rc, out = optimize(tmp_path, corpus("twice_inlined"), "--loop", "1")
    assert rc == 0
    annotated = (out / "annotated.ttgir").read_text()
    first, second = loop_stages(annotated)
    assert not first and second
    pre = (out / "pre_pipeline.ttgir").read_text()
    first, second = loop_stages(apply_annotation(pre, read_annotation(annotated)))
    assert not first and second


# -- 5. the stages-only annotation is compiled, and says so -----------------------------------------------
def test_the_stages_only_annotation_is_compiled_offline_and_says_so(tmp_path, capsys):
    rc = main(["optimize", str(ROOT / "kernels" / "gemm.py"), "--arch", "h100", "--swp-only", "-o", str(tmp_path / "g")])
    assert rc == 0 and "annotated TTGIR: compiled offline (triton" in capsys.readouterr().out
    assert json.loads((tmp_path / "g" / "schedule.json").read_text())["annotation"] == {"compiled": True}
    (tmp_path / "g.ttgir").write_text((tmp_path / "g" / "pre_pipeline.ttgir").read_text())
    rc = main(["optimize", str(tmp_path / "g.ttgir"), "--arch", "h100", "--swp-only", "-o", str(tmp_path / "t")])
    assert rc == 0 and "annotated TTGIR: not compiled (the input is a .ttgir" in capsys.readouterr().out


def test_a_kernel_the_joint_problem_refuses_keeps_its_modulo_schedule(tmp_path, capsys):
    rc = main(["optimize", corpus("cross_entropy"), "--arch", "h100", "--num-warps", "32", "--time-limit", "30",
               "-o", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert rc == 0 and "joint search: not run" in err and "more warps than a CTA may specialise" in err
    s = json.loads((tmp_path / "o" / "schedule.json").read_text())
    assert "more warps" in s["joint"]["refused"] and s["status"] == "optimal"


# -- loops that were not seen -----------------------------------------------------------------------------
def test_fa_backward_style_helper_loops_are_the_kernels_loops():
    g = graph("attn_bwd_helpers", loop=1)
    assert g.name == "attn_bwd" and g.get("loops") == 2
    assert [o.kind for o in g.ops].count("dot") == 4
    dv, dk = (lambda o: o.id.startswith("dot1")), (lambda o: o.id.startswith("dot3"))   # noqa: E731
    assert edges(g, dv, dv, 1) and edges(g, dk, dk, 1)


def test_of_sibling_loops_alike_in_work_the_one_without_the_mask_is_scheduled():
    # FlexAttention's helper loop called for the mask's partial blocks, then for its full ones (the bulk);
    # the backward's masked steps, then its unmasked ones: the same dots on the same bytes, the mask the
    # difference; text order had picked the first, the boundary blocks
    g = graph("inductor_flex_attention", arch="h200")
    full = line("inductor_flex_attention", "IS_FULL_BLOCKS=True")
    assert g.get("loop_index") == 1 and f"in a helper called at line {full}" in g.get("loop_choice")
    assert "the fewest ops" in g.get("loop_choice")
    masked = graph("inductor_flex_attention", loop=0, arch="h200")
    assert sum(len(o.ops) for o in g.ops) < sum(len(o.ops) for o in masked.ops)
    assert graph("attn_bwd_helpers").get("loop_index") == 1
    assert graph("tut06_attn_fwd").get("loop_index") == 0      # its first loop is the unmasked one already


def test_a_load_under_an_if_counts_once_and_its_branches_count_as_the_loop_s_ops():
    # vLLM's ROCm FlashAttention: the masked call of its inner loop reads K and V through `load_fn`, a runtime `if`
    # whose branches load the same tile (one with a boundary check): one tile an iteration, not two; and its
    # branches, moved out of the loop's top level, are still ops of the loop. The full blocks' loop is the bulk
    from twill.graph.loops import loop_infos
    from twill.ir.frontend import read_kernel
    kir = read_kernel(corpus("vllm_rocm_flash_attn_fwd"), H100.target)
    full, masked = loop_infos(ttgir.parse(kir.text))
    assert (full.loads, full.bytes) == (masked.loads, masked.bytes) == (2, 2 * 128 * 64 * 2)
    assert masked.ops < full.ops < masked.all_ops
    g = graph("vllm_rocm_flash_attn_fwd")
    assert g.get("loop_index") == 0 and "the fewest ops" in g.get("loop_choice")


def test_a_loop_inside_a_counted_loop_weighs_its_trip_count():
    # FlashInfer's top-k renorm: four passes over the vocabulary, one of them inside a 32-step bisection `for`: the
    # same load an iteration in each (the last pass stores too), so the one the bisection runs 32 times a program is
    # the bulk (by an iteration's bytes the last pass had been picked, run once)
    from twill.graph.loops import loop_infos
    from twill.ir.frontend import read_kernel
    kir = read_kernel(corpus("flashinfer_topk_renorm"), H100.target)
    infos = loop_infos(ttgir.parse(kir.text))
    assert [i.runs for i in infos] == [1, 1, 32, 1, 1] and [i.innermost for i in infos] == [True, False, True, True, True]
    assert [(i.loads, i.bytes) for i in infos if i.innermost] == [(1, 16384)] * 3 + [(1, 32768)]
    g = graph("flashinfer_topk_renorm")
    inner = lines("flashinfer_topk_renorm", "for start in range(0, vocab_size, BLOCK_SIZE):")[1]
    assert g.get("loop_index") == 2 and g.get("loop_choice").startswith(f"loop 2 of 5 (line {inner}, depth 1")
    assert "run 32 times a program by the loops around it" in g.get("loop_choice")


def test_persistent_gemm_flattened_loop_in_its_scf_if_guard(tmp_path):
    g = graph("persistent_gemm")
    assert g.get("loop_index") == 1 and g.get("loops") == 2
    dot, epilogue = kind("dot"), lambda o: o.kind == "store" and o.ops[0] == "scf.if"  # noqa: E731
    loads = [o for o in g.ops if o.kind == "load"]
    assert len(loads) == 2 and all(o.streaming for o in loads) and all(edges(g, has(*o.ops), dot, 0) for o in loads)
    # stores C; the next tile's dot starts over by its use_acc flag (the zeroing, as Triton's accumulator-init pass
    # writes it), not from a zeroed accumulator the epilogue yields: no edge back from the epilogue to the dot
    assert edges(g, dot, epilogue, 0) and edges(g, dot, dot, 1) and not edges(g, epilogue, dot, 1)
    assert next(o for o in g.ops if epilogue(o)).shape == (128, 128)
    rc, out = optimize(tmp_path, corpus("persistent_gemm"))
    assert rc == 0 and json.loads((out / "schedule.json").read_text())["annotation"]["compiled"] is True


def test_grouped_gemm_loop_inside_a_while():
    g = graph("grouped_gemm")
    assert g.get("loop_line") == line("grouped_gemm", "for kk in range") and g.get("loop_index") == 1
    assert edges(g, kind("dot"), kind("dot"), 1) and len(edges(g, kind("load"), kind("dot"), 0)) == 2
    with pytest.raises(UnsupportedError, match="loop is not innermost"):
        graph("grouped_gemm", loop=0)


def test_a_loop_in_a_helper_that_stays_a_call_and_helpers_are_not_kernels(capsys):
    g = graph("helper_loop")
    assert g.name == "outer" and [o.kind for o in g.ops] == ["load", "elementwise"]
    assert edges(g, kind("elementwise"), kind("elementwise"), 1)
    assert main(["graph", corpus("helper_loop"), "--arch", "h100", "--loops"]) == 0
    assert "(helper _row_sum)" in capsys.readouterr().out


def test_a_warp_specialize_loop_on_hopper_is_extracted_whole(tmp_path):
    g = graph("gemm_warp_specialize")
    assert [o.kind for o in g.ops] == ["load", "load", "dot"] and g.get("triton_warp_specialize") is True
    rc, out = optimize(tmp_path, corpus("gemm_warp_specialize"))
    assert rc == 0 and json.loads((out / "schedule.json").read_text())["annotation"]["compiled"] is True


def test_every_loop_is_listed_and_picked_by_index_or_line(capsys):
    assert main(["graph", corpus("cross_entropy"), "--arch", "h100", "--loops"]) == 0
    out = capsys.readouterr().out
    a, b, c = lines("cross_entropy", "for i in range(0, n_cols, BLOCK):")
    assert [ln.split()[:3] for ln in out.splitlines()[2:5]] == [["0", str(a), "0"], ["1", str(b), "0"], ["*", "2", str(c)]]
    assert f"scheduled: loop 2 of 3 (line {c}" in out and "most tensor-core and memory work" in out
    flat = line("persistent_gemm", "for tile_id in tl.range")
    assert main(["graph", corpus("persistent_gemm"), "--arch", "h100", "--loop", f":{flat}"]) == 2
    err = capsys.readouterr().err
    assert "several loops at that source line" in err and "0, 1" in err and len(err.strip().splitlines()) == 1



def test_a_helper_loop_is_listed_and_picked_by_its_for_line_or_its_call(capsys):
    """Tutorial 06's backward inlines each of its two helpers twice: the listing gives each loop's call line and its
    `for`'s line in the helper; ``--loop :FOR`` names both loops (pick one by index or call line), ``--loop :CALL`` one."""
    fors = lines("tut06_attn_bwd", "for blk_idx in range(num_steps):")
    starts = lines("tut06_attn_bwd", "dk, dv = _attn_bwd_dkdv(") + lines("tut06_attn_bwd", "dq = _attn_bwd_dq(")
    assert main(["graph", corpus("tut06_attn_bwd"), "--arch", "h100", "--loops"]) == 0
    rows = [ln.replace("*", " ").split() for ln in capsys.readouterr().out.splitlines()[2:6]]
    calls = [int(r[1]) for r in rows]           # Triton's line of each call: within the call's statement
    assert all(0 <= c - s < 10 for c, s in zip(calls, sorted(starts))), (calls, starts)
    assert [" ".join(r[7:]) for r in rows] == [f"(a helper's for, line {f}, inlined here)" for f in (fors[0],) * 2 +
                                               (fors[1],) * 2]
    assert main(["graph", corpus("tut06_attn_bwd"), "--arch", "h100", "--loop", f":{fors[0]}"]) == 2
    err = capsys.readouterr().err.strip()
    assert "several loops at that source line" in err and f"(:{calls[0]}, :{calls[1]})" in err, err
    assert len(err.splitlines()) == 1
    assert main(["graph", corpus("tut06_attn_bwd"), "--arch", "h100", "--loop", f":{calls[1]}"]) == 0
    assert f"line {fors[0]} (in a helper called at line {calls[1]})" in capsys.readouterr().out
    # a helper inlined once (FA2's backward): its for line picks its loop
    one = line("fa2_triton_bwd", "for start_m in range(")
    assert main(["graph", corpus("fa2_triton_bwd"), "--arch", "h100", "--loop", f":{one}"]) == 0
    assert "chosen by --loop" in capsys.readouterr().out


def test_an_index_feeding_a_load_address_and_a_mask_folds_into_the_load():
    """FA2's Triton backward: the row index ``offs_m_curr`` is read by the causal mask and by the LSE and D loads'
    addresses. Folded into its first reader, the mask's node (the exp), the LSE load waited for the node that reads
    what it loads: "cycle with iteration distance 0" (session 43's sweep). Now it joins the load."""
    g = graph("fa2_triton_bwd")
    lse = next(o for o in g.ops if o.kind == "load" and "lse" in o.id)
    exp = next(o for o in g.ops if o.kind == "sfu")
    assert edges(g, lambda o: o.id == lse.id, lambda o: o.id == exp.id, 0)
    assert not edges(g, lambda o: o.id == exp.id, lambda o: o.kind == "load", 0)


def test_an_index_read_by_two_chains_that_meet_again_moves_into_the_earlier_chain():
    """flash-attention's AMD forward with ALiBi: the column index ``start_n + offs_n`` is read by the causal mask
    (folded into the masked scores' node) and by the bias ``-slope * |m - n|``, which that node then adds: folded into
    the mask's node, the bias waited for the node it feeds, "cycle with iteration distance 0" (session 55's sweep I).
    The index now moves into the bias's node, which the scores' node waits for."""
    g = graph("amd_fa_dropout_alibi")
    bias = next(o for o in g.ops if "math.absi" in o.ops)   # |m - n| and its cast to fp32
    scores = next(o for o in g.ops if o.kind == "elementwise" and "arith.select" in o.ops and "qk" in o.id)
    assert edges(g, lambda o: o.id == bias.id, lambda o: o.id == scores.id, 0)
    assert not edges(g, lambda o: o.id == scores.id, lambda o: o.id == bias.id, 0)


@pytest.mark.parametrize("name", ["dropout_rows", "amd_fa_dropout_alibi"])
def test_philox_rounds_fold_as_index_math_into_the_tile_they_make(name):
    """tl.rand's rounds are integer index math (``tt.mulhiui`` beside arith's muli / xori): folded as arith's are, into
    the node that turns them into a float, not a node a round (flash-attention's dropout in its loop: 17 of 35 nodes,
    and no joint schedule found in the search's budget; session 55's sweep I)."""
    g = graph(name)
    rounds = [o for o in g.ops if "tt.mulhiui" in o.ops]
    assert len(rounds) == 1, [o.id for o in rounds]
    assert len(g.ops) <= (7 if name == "dropout_rows" else 18), [o.id for o in g.ops]


# -- specialisation --------------------------------------------------------------------------------------
def test_library_decorators_are_skipped_with_a_note_and_driver_configs_built_for_the_target(capsys):
    # the autotune configs ask the driver which GPU this is (tutorial 03's is_cuda()): offline, a stand-in driver
    # answers with the target's, so the CUDA configs are built (2, not the other branch's 1)
    assert main(["graph", corpus("decorated"), "--arch", "h100"]) == 0
    err = capsys.readouterr().err
    assert "scaled_copy loaded without @libentry:" in err and "@triton.autotune" not in err.split("\n")[0]
    assert "scaled_copy is autotuned over 2 configs" in err
    assert main(["graph", corpus("decorated"), "--arch", "h100", "--kernel", "needs_torch"]) == 2
    err = capsys.readouterr().err.strip()
    assert "decorated.py:" in err and "'torch'" in err and len(err.splitlines()) == 1


def test_dtype_constexprs_from_the_spec_and_from_a_flag(tmp_path):
    rc, out = optimize(tmp_path, corpus("decorated"))
    assert rc == 0 and json.loads((out / "graph.json").read_text())["meta"]["constexprs"]["DTYPE"] == "fp16"
    rc, out = optimize(tmp_path, corpus("decorated"), "--const", "DTYPE=tl.bfloat16", "-o", str(tmp_path / "bf"))
    assert rc == 0 and json.loads((tmp_path / "bf" / "graph.json").read_text())["meta"]["constexprs"]["DTYPE"] == "bf16"
    # A dtype object in TWILL_SPEC (it crashed when the outputs were written)
    p = tmp_path / "dt.py"
    p.write_text(Path(corpus("decorated")).read_text().replace('"DTYPE": "fp16"', '"DTYPE": tl.float16'))
    rc, out = optimize(tmp_path, str(p), "-o", str(tmp_path / "obj"))
    assert rc == 0 and json.loads((tmp_path / "obj" / "schedule.json").read_text())["status"] == "optimal"
    assert json.loads((tmp_path / "obj" / "graph.json").read_text())["meta"]["constexprs"]["DTYPE"] == "fp16"


def test_flags_naming_no_parameter_are_an_error(capsys):
    assert main(["graph", corpus("online_softmax"), "--arch", "h100", "--arg", "x_prt=*fp32"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--arg names no parameter" in err and "x_prt" in err and "x_ptr, y_ptr, N, BLOCK" in err


def test_a_torch_compile_kernel_keeps_inductors_triton_helpers_and_its_sixteen_warps(tmp_path, capsys):
    """Inductor's generated kernels call ``triton_helpers.maximum`` / ``max2`` and ``tl_math.exp`` from
    ``torch._inductor.runtime`` (a NameError before: only triton and the standard library were kept) and run 16 warps
    (the joint problem refused them: four compute groups and the loads' group are more warps than a CTA has)."""
    src = Path(corpus("inductor_softmax")).read_text().replace(
        "@triton.jit\ndef", "@triton_heuristics.reduction(size_hints=[4096, 32768])\n@triton.jit\ndef").replace(
        "from torch._inductor.runtime import triton_helpers", "from torch._inductor.runtime import triton_helpers, "
        "triton_heuristics\ntriton_helpers.set_driver_to_gpu()")
    (tmp_path / "k.py").write_text(src)
    out = tmp_path / "out"
    rc = main(["optimize", str(tmp_path / "k.py"), "--arch", "h100", "--time-limit", "30", "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 0 and "loaded without @triton_heuristics.reduction" in err, err
    s = json.loads((out / "schedule.json").read_text())
    assert s["status"] == "optimal" and "refused" not in s.get("joint", {}), s.get("joint")
    assert (out / "kernel_gluon.py").is_file()


def test_an_if_that_loads_inside_the_loop_is_one_node_waiting_for_its_loads():
    """vLLM / SGLang split-KV decode stage 2: ``if split_kv_end > split_kv_start:`` around a split's loads. The if is
    one elementwise node carrying the merged state to the next split, costed with the L2 latency of its loads."""
    from twill.machine.cost import op_cost
    g = graph("split_kv_reduce")
    (node,) = [o for o in g.ops if "scf.if" in o.ops]
    assert node.kind == "elementwise" and not node.variable_latency
    assert dict(node.attrs)["guarded_load_bytes"] == 128 * 4 + 4           # tv's 128 floats, tlogic's one
    assert edges(g, has("scf.if"), has("scf.if"), distance=1)             # e_max, e_sum, acc: the next split's
    cycles, rrt = op_cost(node, H100)
    assert cycles > H100.rate("global_latency") and {r.unit for r in rrt} == {"lsu", "alu"}


def test_an_if_that_runs_dots_inside_the_loop_is_one_node_costed_with_its_dots_and_loads():
    """Block-sparse attention that skips key blocks by a flag: the K and V loads, both dots and the online softmax
    inside ``if tl.load(mask) != 0:`` are one node (written as it runs), costed with its loads' latency, both dots'
    tensor-core time and its arithmetic; the rows are not split (the if is written whole)."""
    from twill.machine.cost import op_cost
    g = graph("block_mask_attention")
    (node,) = [o for o in g.ops if "scf.if" in o.ops]
    a = dict(node.attrs)
    assert a["guarded_dot_flops"] == 2 * (2 * 128 * 64 * 64) and a["a_dtype"] == "f16"
    assert a["guarded_load_bytes"] == 2 * 64 * 64 * 2                      # K and V
    cycles, rrt = op_cost(node, H100)
    tc = [r for r in rrt if r.unit == "tc"]
    assert len(tc) == 1 and tc[0].length == math.ceil(a["guarded_dot_flops"] / H100.rate("tc_flops_f16"))
    assert cycles > H100.rate("global_latency") + tc[0].length
    assert edges(g, has("scf.if"), has("scf.if"), distance=1)             # m, l, acc: the next block's


# -- still refused: one line naming the construct, the kernel and the line ------------------------------------
@pytest.mark.parametrize("src, expect", [
    ("d = tl.make_tensor_descriptor(x_ptr, shape=[N, BLOCK], strides=[BLOCK, 1], block_shape=[16, BLOCK])\n"
     "    for i in range(0, N, 16):\n        if tl.load(x_ptr + i) > 0:\n            s += tl.sum(d.load([i, 0]), 0)",
     r"scf.if holding tt.descriptor_load inside the loop body is not supported .*k\.py:\d+"),
    ("for i in range(0, N, BLOCK):\n        s += _help(x_ptr + i)",
     r"tt.call inside the loop body is not supported \(a helper that stays a call"),
])
def test_still_refused_in_one_line(tmp_path, capsys, src, expect):
    p = tmp_path / "k.py"
    p.write_text(
        "import triton\nimport triton.language as tl\n\n"
        'TWILL_SPEC = {"signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "N": "i32"}, "constexprs": {"BLOCK": 128}}\n\n\n'
        "@triton.jit(noinline=True)\ndef _help(p):\n    return tl.load(p) * 2.0\n\n\n"
        "@triton.jit\ndef k(x_ptr, y_ptr, N, BLOCK: tl.constexpr):\n"
        "    offs = tl.arange(0, BLOCK)\n    s = tl.zeros([BLOCK], dtype=tl.float32)\n"
        f"    {src}\n    tl.store(y_ptr + offs, s)\n")
    assert main(["graph", str(p), "--arch", "h100"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and re.search(expect, err) and err.startswith("twill graph: error: k (")


# -- capture -----------------------------------------------------------------------------------------------
CAPTURED_KERNEL = '''import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 128}, num_warps=4, num_stages=2),
                          triton.Config({"BLOCK": 256}, num_warps=8, num_stages=3)], key=["N"])
@triton.jit
def row_sum(x_ptr, y_ptr, N, DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        acc += tl.load(x_ptr + start + offs, mask=start + offs < N, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, acc.to(DTYPE))
'''

# What a launch does on a GPU machine, minus the GPU: Triton's own JITFunction._call_hook builds the
# compile hook's arguments as _do_compile does (signature, constants by path, options, attributes);
# the load and launch hooks get what the CUDA driver and launcher pass them.
LAUNCHES = '''import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import LazyDict, make_backend
import kern

jf = kern.row_sum.fn
backend = make_backend(GPUTarget("cuda", 90, 32))
rt = triton.knobs.runtime
for i, cfg in enumerate(kern.row_sum.configs):
    opts = backend.parse_options({"num_warps": cfg.num_warps, "num_stages": cfg.num_stages})
    sig = {"x_ptr": "*fp16", "y_ptr": "*fp16", "N": "i32", "DTYPE": "constexpr", "BLOCK": "constexpr"}
    consts = {(3,): tl.float16, (4,): cfg.kwargs["BLOCK"]}
    attrs = {(0,): [["tt.divisibility", 16]], (1,): [["tt.divisibility", 16]], (2,): [["tt.divisibility", 16]]}
    key = "key%d" % i
    jf.device_caches = {0: ({key: type("K", (), {"hash": "h%d" % i})()}, {}, None, backend, None)}
    jf._call_hook(rt.jit_post_compile_hook, key, sig, 0, consts, opts, [attrs], False)
    rt.kernel_load_end_hook(None, 1000 + i, "row_sum", {}, "h%d" % i)
    for _ in range(3 + 10 * i):
        rt.launch_enter_hook(LazyDict({"name": "row_sum", "function": 1000 + i, "stream": 0}))
kern.row_sum.cache[(4096, "torch.float16")] = kern.row_sum.configs[1]
'''


def test_capture_a_launch_then_extract_with_no_flags(tmp_path, capsys):
    (tmp_path / "kern.py").write_text(CAPTURED_KERNEL)
    (tmp_path / "launch.py").write_text(LAUNCHES)
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    r = subprocess.run([sys.executable, "-m", "twill", "capture", "-o", str(tmp_path / "spec.json"), "--",
                        sys.executable, "launch.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    spec = json.loads((tmp_path / "spec.json").read_text())
    assert spec["schema"] == "twill.spec/1"
    a, b = spec["kernels"]
    assert (a["constexprs"], a["num_warps"], a["launches"], a["chosen"]) == ({"DTYPE": "fp16", "BLOCK": 128}, 4, 3, False)
    assert (b["constexprs"], b["num_warps"], b["launches"], b["chosen"]) == ({"DTYPE": "fp16", "BLOCK": 256}, 8, 13, True)
    assert b["signature"]["x_ptr"] == "*fp16" and b["divisibility"] == ["x_ptr", "y_ptr", "N"]
    # On a machine without a GPU, the spec file is all that is needed.
    assert main(["graph", str(tmp_path / "kern.py"), "--arch", "h100", "--spec", str(tmp_path / "spec.json")]) == 0
    out, err = capsys.readouterr()
    assert "the autotuner's choice of 2 captured config(s)" in err and "num_warps=8" in out


def test_capture_in_code_chains_an_existing_hook(tmp_path):
    import triton

    import twill
    seen = []
    rt = triton.knobs.runtime
    old = rt.jit_post_compile_hook
    rt.jit_post_compile_hook = lambda **kw: seen.append(kw["fn"].name)
    try:
        with twill.capture(tmp_path / "s.json") as cap:
            assert rt.jit_post_compile_hook == cap.on_compile
        assert rt.jit_post_compile_hook is not cap.on_compile
    finally:
        rt.jit_post_compile_hook = old
    assert json.loads((tmp_path / "s.json").read_text())["kernels"] == []


def test_errors_are_twill_errors():
    with pytest.raises(TwillError):
        graph("online_softmax", loop=":99")


def test_an_inductor_kernel_read_without_torch_says_to_install_it():
    """Without torch, Inductor's ``triton_helpers`` import cannot be kept: the one line says what to install."""
    from twill.ir.triton_hooks import compile_error

    class Source:
        name = "triton_red_fused__softmax_0"
    msg = str(compile_error(NameError("name 'triton_helpers' is not defined"), Source()))
    assert "\n" not in msg and "triton_helpers" in msg and "install torch" in msg


def test_a_constexpr_loop_around_a_loop_is_rewritten_as_static_range_only_over_constexprs():
    from twill.ir.frontend import STATIC_RANGE, _static_range
    assert _static_range("    for kh in range(KH):  # the filter's rows", {"KH", "KW"}) == \
        f"    for kh in {STATIC_RANGE}(KH):  # the filter's rows"
    assert _static_range("        for i in range(1, KH * KW, 2):", {"KH", "KW"}) == \
        f"        for i in {STATIC_RANGE}(1, KH * KW, 2):"
    assert _static_range("    for kh in range(n_rows):", {"KH"}) is None          # a runtime bound: left alone
    assert _static_range("    for kh in tl.range(KH):", {"KH"}) is None           # not a plain range


def test_a_histogram_is_costed_as_triton_lowers_it():
    """tl.histogram of 512 values into 128 bins (a MoE router's expert counts): each value three instructions a bit of
    the bin index (test, compare, ballot), then for each of the 4 bins its lane owns the two bits below the lane's
    five combined, a popcount and an add: 37 instructions a value, on the integer pipe (2 slots an instruction), spread
    over the 128 bins of the node (session 93's sweep: x-attention's histogram into 2048 bins had cost 2 slots an
    element, about 1/1000 of its work)."""
    g = graph("moe_expert_histogram")
    node = next(o for o in g.ops if "tt.histogram" in o.ops)
    per_value = 3 * 7 + (128 // 32) * ((7 - 5) + 2)
    assert per_value == 37 and node.attr("elements") == 128
    assert node.attr("nops") >= 2 * per_value * 512 // 128, dict(node.attrs)
