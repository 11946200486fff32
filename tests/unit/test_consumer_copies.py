"""A consumer's own cp.async copies of the register tiles a synchronous dot reads (``plan.AsyncTile``): the shared
layout they are read through is the one Triton gives the same operand, and the protocol check follows the copies."""
import json
import re
from pathlib import Path

import pytest

from codegen.gluon.layouts import SwizzledShared, aliases, parse_layout
from codegen.gluon.plan import mma_v2_swizzle
from codegen.gluon.protocol import check_kernel
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
