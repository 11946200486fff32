"""Descriptors a kernel makes itself (``tl.make_tensor_descriptor``): made by the generated launcher where they are
made at the top of the kernel from its arguments; made in the kernel where only the program knows their base or sizes;
refused in one line inside a loop (``codegen.gluon.descriptors``)."""
from __future__ import annotations

from pathlib import Path

import pytest

from codegen.gluon.descriptors import launch_descriptors
from twill.errors import UnsupportedError
from twill.ir.function import read_function

ROOT = Path(__file__).resolve().parents[2]
TTGIR = (ROOT / "bench/results/gluon/device_descriptor_gemm/pre_pipeline.ttgir").read_text()


def test_a_descriptor_made_at_the_top_of_the_kernel_becomes_an_argument_the_launcher_makes():
    text, made = launch_descriptors(TTGIR, "k")
    assert made == {"a_desc_0": ("a_ptr", ["M", "K"], ["K", "1"]), "b_desc": ("b_ptr", ["N", "K"], ["K", "1"]),
                    "c_desc_1": ("c_ptr", ["M", "N"], ["N", "1"])}
    assert "tt.make_tensor_descriptor" not in "\n".join(ln for ln in text.splitlines() if "//" not in ln)
    assert len(text.splitlines()) == len(TTGIR.splitlines())          # line numbers hold (the graph's ops)
    fn = read_function(text)
    args = {a.name: a.type for a in fn.args}
    assert args["%a_desc_0"] == "!tt.tensordesc<tensor<128x64xf16, #shared>>"
    assert args["%c_desc_1"] == "!tt.tensordesc<tensor<128x128xf16, #shared>>"


@pytest.mark.parametrize("change, made", [
    (lambda t: t.replace("[%a_desc, %c1_i64] : <f16>, <tensor<128x64xf16, #shared>> loc(#loc34)",
                         "[%pid_m_x, %c1_i64] : <f16>, <tensor<128x64xf16, #shared>> loc(#loc34)").replace(
        "    %a_desc = arith.extsi %K", "    %pid_m_x = tt.get_program_id z : i64\n    %a_desc = arith.extsi %K"),
     "%a_desc_0 = tt.make_tensor_descriptor %a_ptr"),
    (lambda t: t.replace("%a_desc_0 = tt.make_tensor_descriptor %a_ptr,",
                         "%a_off = tt.addptr %a_ptr, %c1_i64 : !tt.ptr<f16>, i64\n"
                         "    %a_desc_0 = tt.make_tensor_descriptor %a_off,"),
     "%a_desc_0 = tt.make_tensor_descriptor %a_off"),
])
def test_a_descriptor_the_launcher_cannot_make_is_made_in_the_kernel(change, made):
    """Made from a stride only the program knows (a program id), or from a base the kernel offsets (Intel's batched
    GEMM, session 90: refused before): left in the kernel, which makes it as Triton's does (``ops.make_descriptor``);
    the others are still the launcher's."""
    text, launched = launch_descriptors(change(TTGIR), "k")
    assert made in text and "a_desc_0" not in launched
    assert set(launched) == {"b_desc", "c_desc_1"}
    assert "%a_desc_0" not in {a.name for a in read_function(text).args}


def test_a_descriptor_made_inside_the_loop_is_refused_in_one_line():
    lines = TTGIR.splitlines()
    made = next(i for i, ln in enumerate(lines) if "%a_desc_0 = tt.make_tensor_descriptor" in ln)
    line = lines.pop(made)
    at = next(i for i, ln in enumerate(lines) if "scf.for" in ln)
    lines.insert(at + 1, line)
    with pytest.raises(UnsupportedError) as e:
        launch_descriptors("\n".join(lines) + "\n", "k")
    assert "made inside a loop or a branch" in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_a_batched_gemms_descriptors_are_made_by_the_partitions_that_read_them():
    """Intel's batched GEMM (tests/corpus, session 90's sweep): ``a_ptr + bid * stride_az`` as each descriptor's
    base. The producer makes A's and B's before its loop, each consumer its sub-tile's C before its store, with the
    block the row split gives; the kernel is not persistent (each CTA makes them once, as Triton's kernel does) and
    compiles offline; the launcher makes none."""
    from twill.machine.model import load_machine
    from twill.pipeline import OptimizeOptions, optimize

    r = optimize(str(ROOT / "tests/corpus/intel_gemm_preop_exp_desc.py"), load_machine("h100"),
                 OptimizeOptions(time_limit=2.5, threads=2, row_split=2))
    k = r.gluon.kernel
    assert k is not None, r.gluon.reason
    src = k.source
    producer = src[src.index("def producer_"):src.index("@gluon.jit", src.index("def producer_"))]
    assert producer.count("tma.make_tensor_descriptor(") == 2 and "[64, 64]" in producer   # A's block: its sub-tile
    for c in (0, 1):
        body = src[src.index(f"def consumer_{c}("):src.index("@gluon.jit", src.index(f"def consumer_{c}("))]
        assert body.count("tma.make_tensor_descriptor(") == 1 and f"c_desc_6_t{c}" in body
        assert f"tma.async_copy_shared_to_global(c_desc_6_t{c}," in body
    assert "PERSISTENT = False" in src and "LAUNCH_DESCRIPTORS" not in src
    assert not any(n.endswith("_desc_4") or n.endswith("_desc_5") for n in k.signature)
    assert any("made in the kernel" in d for d in k.decisions)


PTR_ARRAY = '''
import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"a_ptrs": "*i64", "b_ptrs": "*i64", "c_ptrs": "*i64", "M": "i32", "N": "i32", "K": "i32"},
              "constexprs": {"BM": 128, "BN": 128, "BK": 64}, "num_warps": 8, "num_stages": 3,
              "divisibility": ["a_ptrs", "b_ptrs", "c_ptrs", "M", "N", "K"]}


@triton.jit
def ptr_array_gemm(a_ptrs, b_ptrs, c_ptrs, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    g = tl.program_id(1)
    pid = tl.program_id(0)
    a_ptr = tl.load(a_ptrs + g).to(tl.pointer_type(tl.float16))
    b_ptr = tl.load(b_ptrs + g).to(tl.pointer_type(tl.float16))
    c_ptr = tl.load(c_ptrs + g).to(tl.pointer_type(tl.float16))
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pm = pid // tl.cdiv(N, BN)
    pn = pid % tl.cdiv(N, BN)
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([pm * BM, k])
        b = b_desc.load([pn * BN, k])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([pm * BM, pn * BN], acc.to(tl.float16))
'''


def test_a_pointer_array_gemms_descriptors_are_made_from_the_loaded_pointers(tmp_path):
    """A grouped GEMM of one program per (tile, group) whose operands' pointers are loaded from arrays (the
    pointer-array style of grouped GEMMs): each descriptor's base is a loaded value, made by the partition that reads
    it from its own load of the pointer; it compiles offline."""
    from twill.machine.model import load_machine
    from twill.pipeline import OptimizeOptions, optimize

    (tmp_path / "k.py").write_text(PTR_ARRAY)
    r = optimize(str(tmp_path / "k.py"), load_machine("h100"), OptimizeOptions(time_limit=2.5, threads=2))
    k = r.gluon.kernel
    assert k is not None, r.gluon.reason
    producer = k.source[k.source.index("def producer_"):k.source.index("@gluon.jit", k.source.index("def producer_"))]
    assert producer.count("tma.make_tensor_descriptor(") == 2 and producer.count("gl.load(") == 2
    consumer = k.source[k.source.index("def consumer_0"):k.source.index("@gluon.jit", k.source.index("def consumer_0"))]
    assert consumer.count("tma.make_tensor_descriptor(") == 1 and "[M, N]" in consumer
