"""A consumer's own cp.async copies of the register tiles a synchronous dot reads (``plan.AsyncTile``): the shared
layout they are read through is the one Triton gives the same operand, and the protocol check follows the copies."""
import json
import re
from pathlib import Path

import pytest

from codegen.gluon.layouts import SwizzledShared, aliases, parse_layout
from codegen.gluon.plan import mma_v2_swizzle
from codegen.gluon.protocol import check_kernel
from codegen.gluon.short import short_device
from twill.ir.load import load_kernel, source_of
from twill.ir.triton_hooks import compile_planned

ROOT = Path(__file__).resolve().parents[2]
LOCAL_LOAD = re.compile(r"ttg\.local_load %\S+(?: token %\S+)? : !ttg\.memdesc<([\dx]+)x(\w+), (#\w+), #smem, mutable> "
                        r"-> tensor<[\dx]+x\w+, #ttg\.dot_op<\{opIdx = (\d), parent = (#\w+), kWidth = (\d+)\}>>")
BITS = {"f16": 16, "bf16": 16, "f32": 32, "i8": 8, "f8E4M3FN": 8}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["grouped_decode_attention", "fused_moe_decode", "awq_gemm"])
def test_mma_v2_operand_layout_is_the_one_triton_pipelines_it_through(name):
    # Triton's own compile of the kernel (its pipeliner copies these tiles with cp.async and reads them with ldmatrix):
    # every mma.sync operand it reads from a copied buffer, the buffer's layout as mma_v2_swizzle gives it
    spec = load_kernel(str(ROOT / "tests" / "corpus" / f"{name}.py"), "h100", sm=90)
    ttgir = compile_planned(source_of(spec), 90, dict(spec.options, num_stages=2)).asm["ttgir"]
    table = aliases(ttgir)
    reads = [r for r in LOCAL_LOAD.findall(ttgir) if "versionMajor = 2" in table[r[4]]]
    assert reads, ttgir[:2000]          # every one of these kernels reads mma.sync operands so
    for shape, dtype, shared, index, parent, k_width in reads:
        theirs = parse_layout(shared, table)
        assert isinstance(theirs, SwizzledShared), table[shared]
        dims = tuple(int(d) for d in shape.split("x"))
        ours = mma_v2_swizzle(int(index), dims, theirs.order, int(k_width), BITS[dtype])
        assert ours == theirs, (name, shape, dtype, index, table[shared])


def _awq() -> tuple[str, dict]:
    d = ROOT / "bench/results/gluon/awq_gemm"
    return (d / "kernel_gluon.py").read_text(), json.loads((d / "gluon.json").read_text())["gluon"]["kernel"]["signature"]


def test_the_protocol_check_follows_a_consumers_own_copies():
    source, signature = _awq()
    assert "async_copy.wait_group(0)" in source and "a_as.index(" in source
    assert check_kernel(source, signature, 2, 1) == ([], "")
    # read before the copies are visible to every thread: no barrier after the wait, or no wait
    for broken in (source.replace("gl.thread_barrier()", "pass"), source.replace("async_copy.wait_group(0)", "pass"),
                   source.replace("async_copy.wait_group(0)", "async_copy.wait_group(1)")):
        problems, _ = check_kernel(broken, signature, 2, 1)
        assert problems and "reads a_as.index(0) before its copy landed" in problems[0], problems
    # a ring of one buffer: the next copy lands in the slot the warps may still be reading
    one = re.sub(r"a_as\.index\(\(([^)]*)\) % 2\)", "a_as.index(0)", source)
    problems, _ = check_kernel(one, signature, 2, 1)
    assert problems and "copies into a_as.index(0) with no barrier since it read" in problems[0], problems


def _tut06_bwd() -> tuple[str, dict]:
    d = ROOT / "bench/results/gluon/tut06_attn_bwd"
    return (d / "kernel_gluon.py").read_text(), json.loads((d / "gluon.json").read_text())["gluon"]["kernel"]["signature"]


def test_a_one_partition_kernel_copies_its_wgmma_tiles_ahead_into_the_buffers_the_wgmma_reads():
    """Tutorial 06's backward (run 89: x0.80 -> x0.99 of Triton's best): qT and dO, read only by wgmmas, are copied with
    cp.async three iterations ahead into 5-slot rings in the layout the wgmma reads (no register copy, no store); each
    slot is read after wait_group and a barrier (no proxy fence: Triton's own pipelining has none after cp.async, and
    it cost the int8 GEMM x0.55, run 91; a copy through registers is fenced after its store), and copied again only
    after the wgmmas reading it have retired (a 4-slot ring and a store left unfenced are refused by the protocol
    check)."""
    source, signature = _tut06_bwd()
    body = source[source.index("def consumer_0"):source.index("\ndef twill_kernel")]
    alloc = re.search(r"qT_167_ring = gl\.allocate_shared_memory\(gl\.float16, \[5, 64, 32\], gl\.NVMMASharedLayout\(", body)
    assert alloc, "the ring is allocated in the partition, before its loop"
    assert re.search(r"async_copy\.async_copy_global_to_shared\(qT_167_ring\.index\(\(twill_base \+ twill_b - 0\) % 5\)", body)
    read = re.search(r"async_copy\.wait_group\(2\)\n\s+gl\.thread_barrier\(\)\n\s+"
                     r"qT_167 = qT_167_ring\.index\(\(twill_base \+ twill_b - 3\) % 5\)", body)
    assert read and "warpgroup_mma(k_36, qT_167," in body           # the slot is the wgmma's operand
    assert "qT_167_st" not in source and "gl.load(qT_ptrs_189_p1)" not in body.split("if TWILL_COPY")[0]
    assert "wgmma tiles copied by their consumer with cp.async" in source[:3000]
    assert check_kernel(source, signature, 4, 0) == ([], "")
    shallow = source
    for shape in ("[5, 64, 32]", "[5, 32, 64]", "[5, 64, 16]", "[5, 16, 64]"):
        shallow = shallow.replace(shape, shape.replace("5", "4", 1))
    problems, _ = check_kernel(shallow.replace("% 5)", "% 4)"), signature, 4, 0)
    assert problems and "while a wgmma that reads it may still run" in problems[0], problems
    unfenced = re.sub(r"(_ring\.index\(.*\.store\(gl\.load\(.*\n)\s+fence_async_shared\(\).*\n", r"\1", source)
    assert unfenced != source
    problems, _ = check_kernel(unfenced, signature, 4, 0)
    assert problems and "(copies through registers)" in problems[0] and "fence_async_shared before" in problems[0], problems


def test_prefetch_follows_the_loops_trip_count_and_the_launchs_stages():
    """How far ahead: at most num_stages - 1 (the author's pipelining depth) and, for a loop of constant bounds, its
    trip count - 1 (FLA's chunk_o: two iterations, one ahead, 3-slot rings); `--prefetch 0` keeps the tiles loaded a
    stage ahead in registers. Mamba's short loops (run 90: deeper was slower for their 4- and 8-iteration loops), by
    the default route's one-partition kernel for short loops: chunk state stored through registers (ptxas keeps
    that clean); bmm's one partition holds no more CTAs an SM than its producer, so the route keeps none (run 159:
    x0.99-1.03 of the producer's speed at 2-8 iterations)."""
    head = (ROOT / "bench/results/gluon/fla_chunk_o/kernel_gluon.py").read_text()[:4000]
    assert re.search(r"b_q_\d+_ring: 3 x 8192 B, issued 1 iteration\(s\) ahead", head), head
    bmm = ROOT / "bench/results/gluon/mamba_bmm_chunk"
    assert "short_loops" not in json.loads((bmm / "gluon.json").read_text())["gluon"]["kernel"]
    assert short_device((bmm / "kernel_gluon.py").read_text()) is None
    for name, ahead in (("mamba_chunk_state", 0),):
        d = ROOT / "bench/results/gluon" / name
        short = json.loads((d / "gluon.json").read_text())["gluon"]["kernel"]["short_loops"]
        assert short["record"]["own_tiles"] and short["prefetch"] == short["record"]["prefetch"] == ahead
        device = short_device((d / "kernel_gluon.py").read_text())
        assert device is not None and "warp_specialize" not in device
        assert ("_ring" in device) == (ahead > 0)
        assert not ahead or re.search(r"_ring\.index\(\(twill_b - 0\) % 3\)", device)      # 3 slots: 1 ahead
