"""Small kernel files written for the tests (sources, written to a temporary directory by the tests)."""
from __future__ import annotations

import functools
import tempfile
from pathlib import Path

_DIR = Path(tempfile.mkdtemp(prefix="twill-test-kernels-"))


def kernel_file(name: str) -> str:
    """Write the kernel source ``name`` (e.g. "ACC_LOOP") to a file once per session; its path."""
    path = _DIR / f"{name.lower()}.py"
    if not path.exists():
        path.write_text(globals()[name])
    return str(path)


@functools.lru_cache(maxsize=None)
def pre_ttgir(path: str, arch: str) -> str:
    """The pre-pipeline TTGIR of a kernel file, compiled once per test session."""
    from twill.ir.frontend import read_kernel
    from twill.machine.model import load_machine

    return read_kernel(path, load_machine(arch).target).text

HEADER = "import triton\nimport triton.language as tl\n"

# A GEMM-like loop: the accumulator is carried through iter_args (a distance-1 edge dot -> dot).
ACC_LOOP = HEADER + '''
TWILL_SPEC = {"signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "K": "i32",
                            "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
              "constexprs": {"BM": 64, "BN": 64, "BK": 32}, "num_warps": 4}


@triton.jit
def acc_loop(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * BN + rn[None, :]
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * BN
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)
'''

# A loop with no dot: a running sum of loaded tiles, then exp2.
NO_DOT = HEADER + '''
TWILL_SPEC = {"signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "N": "i32", "BLOCK": "constexpr"},
              "constexprs": {"BLOCK": 128}, "num_warps": 4}


@triton.jit
def no_dot(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, N, BLOCK):
        x = tl.load(x_ptr + i + offs)
        s = s + tl.math.exp2(x)
    tl.store(y_ptr + offs, s)
'''

# Integer hashing in the loop (a Philox-like round on loaded keys): 32-bit mul, mulhi, shift, xor and 64-bit mul and
# add, each costed in FP32-FMA slots on its pipe (twill.graph.build.FMA_SLOTS, INT_PIPE_SLOTS, INT64_SLOTS).
INT_HASH = HEADER + '''
TWILL_SPEC = {"signature": {"x_ptr": "*u32", "y_ptr": "*i64", "N": "i32", "BLOCK": "constexpr"},
              "constexprs": {"BLOCK": 128}, "num_warps": 4}


@triton.jit
def int_hash(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    s = tl.zeros([BLOCK], dtype=tl.int64)
    for i in range(0, N, BLOCK):
        x = tl.load(x_ptr + i + offs)
        h = tl.umulhi(x, 0xD2511F53) ^ (x * 40503)
        h = h ^ (h >> 15)
        s = s + h.to(tl.int64) * 3
    tl.store(y_ptr + offs, s)
'''

# A pointer-based store of fp16 values computed in fp32: tt.store prints only the pointer tensor's type.
STORE_F16 = HEADER + '''
TWILL_SPEC = {"signature": {"x_ptr": "*fp32", "y_ptr": "*fp16", "N": "i32", "BLOCK": "constexpr"},
              "constexprs": {"BLOCK": 1024}, "num_warps": 4}


@triton.jit
def store_f16(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for i in range(0, N, BLOCK):
        x = tl.load(x_ptr + i + offs)
        tl.store(y_ptr + i + offs, x.to(tl.float16))
'''

# Nested loops: the dot is in the inner loop, which is the one to pick.
NESTED = HEADER + '''
TWILL_SPEC = {"signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "K": "i32",
                            "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
              "constexprs": {"BM": 64, "BN": 64, "BK": 32}, "num_warps": 4}


@triton.jit
def nested(a_ptr, b_ptr, c_ptr, M, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    for m in range(0, M, BM):
        acc = tl.zeros([BM, BN], dtype=tl.float32)
        for k in range(0, K, BK):
            a = tl.load(a_ptr + (m + rm)[:, None] * K + (k + rk)[None, :])
            b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + (m + rm)[:, None] * BN + rn[None, :], acc)
'''

# A loop whose body branches on a runtime value around a TMA load: scf.if survives into the pre-pipeline TTGIR, and a
# conditional TMA load is refused (an if that loads through pointers and stores is one node: WITH_IF_LOADS; one that
# runs dots, tests/corpus/block_mask_attention.py).
WITH_IF = HEADER + '''
TWILL_SPEC = {"signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "N": "i32", "BLOCK": "constexpr"},
              "constexprs": {"BLOCK": 128}, "num_warps": 4}


@triton.jit
def with_if(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, N, 16):
        if tl.load(x_ptr + i) > 0:
            d = tl.make_tensor_descriptor(x_ptr, shape=[N, BLOCK], strides=[BLOCK, 1], block_shape=[16, BLOCK])
            s += tl.sum(d.load([i, 0]), 0)
    tl.store(y_ptr + offs, s)
'''

WITH_IF_LOADS = WITH_IF.replace("""            d = tl.make_tensor_descriptor(x_ptr, shape=[N, BLOCK], strides=[BLOCK, 1], block_shape=[16, BLOCK])
            s += tl.sum(d.load([i, 0]), 0)""", """            s += tl.load(x_ptr + i + offs)
            tl.store(y_ptr + i + offs, s)""").replace("range(0, N, 16)", "range(0, N, BLOCK)")

# lmdeploy's EP scatter's shape: under an if, an atomic counter's old value is the row a 512-wide fp16 row, its
# scale and its index are stored at.
WITH_IF_ATOMIC_ROWS = HEADER + '''
TWILL_SPEC = {"signature": {"x_ptr": "*fp16", "s_ptr": "*fp32", "e_ptr": "*i32", "cnt_ptr": "*i32", "y_ptr": "*fp16",
                            "ys_ptr": "*fp32", "idx_ptr": "*i32", "N": "i32", "BLOCK": "constexpr"},
              "constexprs": {"BLOCK": 512}}


@triton.jit
def scatter_rows(x_ptr, s_ptr, e_ptr, cnt_ptr, y_ptr, ys_ptr, idx_ptr, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for t in range(tl.program_id(0), N, tl.num_programs(0)):
        e = tl.load(e_ptr + t)
        if e >= 0:
            slot = tl.atomic_add(cnt_ptr + e, 1)
            tl.store(y_ptr + slot * BLOCK + offs, tl.load(x_ptr + t * BLOCK + offs))
            tl.store(ys_ptr + slot, tl.load(s_ptr + t))
            tl.store(idx_ptr + t, slot)
'''

# SpargeAttn's block map to LUT: a bool (*i1) map loaded through Triton's ``!tt.ptr<i1> -> !tt.ptr<i8>`` bitcast,
# a store at a carried count into another argument
BOOL_MAP_LUT = HEADER + '''
TWILL_SPEC = {"signature": {"map_ptr": "*i1", "lut_ptr": "*i32", "n": "i32"}, "constexprs": {}}


@triton.jit
def bool_map_lut(map_ptr, lut_ptr, n):
    valid = 0
    for i in range(n):
        if tl.load(map_ptr + i):
            tl.store(lut_ptr + valid, i)
            valid += 1
'''

# xFormers' padded RoPE: the imaginary half's columns computed from the column tile the frequencies also read
ROPE_HALVES = HEADER + '''
TWILL_SPEC = {"signature": {"x_ptr": "*bf16", "y_ptr": "*bf16", "D": "i32", "BLOCK": "constexpr"},
              "constexprs": {"BLOCK": 32}}


@triton.jit
def rope_halves(x_ptr, y_ptr, D, BLOCK: tl.constexpr):
    c = tl.arange(0, BLOCK // 2)
    for offset in range(0, D // 2, BLOCK // 2):
        cols = offset + c
        freqs = tl.exp2(cols.to(tl.float32) * -0.25)
        cols_im = cols + D // 2
        mask = cols_im < D
        re = tl.load(x_ptr + cols, mask=mask).to(tl.float32)
        im = tl.load(x_ptr + cols_im, mask=mask).to(tl.float32)
        tl.store(y_ptr + cols, (re * tl.cos(freqs) - im * tl.sin(freqs)).to(tl.bfloat16), mask=mask)
        tl.store(y_ptr + cols_im, (im * tl.cos(freqs) + re * tl.sin(freqs)).to(tl.bfloat16), mask=mask)
'''

NO_LOOP = HEADER + '''
TWILL_SPEC = {"signature": {"x_ptr": "*fp32", "BLOCK": "constexpr"}, "constexprs": {"BLOCK": 128}}


@triton.jit
def no_loop(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)
'''

NO_KERNEL = "import math\n\n\ndef helper(x):\n    return math.sqrt(x)\n"

# A Triton compile error on a known line (the call of the undefined tl function).
COMPILE_ERROR = HEADER + '''
TWILL_SPEC = {"signature": {"x_ptr": "*fp32", "N": "i32", "BLOCK": "constexpr"}, "constexprs": {"BLOCK": 128}}


@triton.jit
def broken(x_ptr, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for i in range(0, N, BLOCK):
        x = tl.load(x_ptr + i + offs)
        tl.store(x_ptr + i + offs, tl.no_such_function(x))
'''
COMPILE_ERROR_LINE = 12

# The same error inside a @triton.jit helper the loop calls (generative-recommenders' HSTU calls its loop body so):
# Triton's error for the call has only a caret as its text's last line; the helper's error names the cause.
COMPILE_ERROR_IN_HELPER = HEADER + '''
TWILL_SPEC = {"signature": {"x_ptr": "*fp32", "N": "i32", "BLOCK": "constexpr"}, "constexprs": {"BLOCK": 128}}


@triton.jit
def step(x):
    return x.dtype.element_ty


@triton.jit
def broken_helper(x_ptr, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for i in range(0, N, BLOCK):
        x = tl.load(x_ptr + i + offs)
        tl.store(x_ptr + i + offs, x + step(x))
'''
COMPILE_ERROR_IN_HELPER_LINE = 9

# A file from the wild: GPU and torch work at import time, a benchmark at the bottom; no TWILL_SPEC.
WILD = HEADER + '''import torch
import numpy as np

DEVICE = triton.runtime.driver.active.get_active_torch_device()
x = torch.randn(1024, device=DEVICE)
BLOCK_DEFAULT = 64
CONFIGS = [triton.Config({"BLOCK": b}, num_warps=w) for b in [BLOCK_DEFAULT, 128] for w in [4]]


def helper_not_jit(n):
    return torch.empty(n, device=DEVICE)


@triton.autotune(configs=CONFIGS, key=["N"])
@triton.jit
def wild(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, N, BLOCK):
        s += tl.load(x_ptr + i + offs)
    tl.store(y_ptr + offs, s)


wild[(1,)](x, x, 1024)
print(np.zeros(3))
'''

# A kernel whose decorator needs torch: extraction cannot define it.
NEEDS_TORCH = HEADER + '''import torch


@triton.autotune(configs=[triton.Config({"BLOCK": torch.cuda.device_count()})], key=[])
@triton.jit
def needs(x_ptr, N, BLOCK: tl.constexpr):
    for i in range(0, N, BLOCK):
        tl.store(x_ptr + i, 1.0)
'''

# A tile carried through a view: the body's last ops reshape the state (and a transposed copy Triton makes of
# it is carried out), read only by the next iteration: each view joins the node computing its source.
CARRIED_VIEW = HEADER + '''
TWILL_SPEC = {"signature": {"x_ptr": "*fp16", "out_ptr": "*fp32", "n": "i32", "B": "constexpr"},
              "constexprs": {"B": 32}, "num_warps": 4}


@triton.jit
def carried_view(x_ptr, out_ptr, n, B: tl.constexpr):
    cols = tl.arange(0, B * B)
    h = tl.zeros([B * B], tl.float32)
    t = tl.zeros([B, B], tl.float32)
    for i in range(n):
        x = tl.load(x_ptr + i * B * B + cols).to(tl.float32)
        y = tl.reshape(h, [B, B]) * 0.5 + tl.reshape(x, [B, B])
        y = y / (1.0 + tl.max(tl.abs(y), axis=1)[:, None])
        h = tl.reshape(y, [B * B])
        t = tl.trans(y)
    tl.store(out_ptr + cols, h)
    tl.store(out_ptr + B * B + cols, tl.reshape(t, [B * B]))
'''
