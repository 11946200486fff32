"""A Llama model's first op as torch.compile (Inductor, dynamic token count) renders ``LlamaRMSNorm(embed_tokens(ids))``
(fp16, vocab 32000, hidden 4096): one reduction kernel in Inductor's current ``r0_`` naming, one token a program
(XBLOCK = 1, R0_BLOCK = 2048, 16 warps as Inductor's reduction heuristics pick for 4096). The token id (i64) is
loaded once before the loops; each of the two loops over the hidden dimension rebuilds the gather index in the loop
body as Inductor's indirect indexing does (``tl.full([XBLOCK, R0_BLOCK], 32000, tl.int32)`` added to wrap a negative
id, ``tl.where``) and checks it with ``tl.device_assert(((0 <= tmp4) & (tmp4 < 32000)) | ~(xmask), "index out of
bounds: ...")`` **inside the loop** (a ``tt.assert`` in the scheduled loop's body), then gathers the embedding row's
block at ``r0_1 + 4096*tmp4`` (an address from a loaded scalar, the same row in every iteration). The first loop sums
squares into a [1, 2048] fp32 accumulator kept by ``tl.where(r0_mask & xmask, ...)``; after it the mean, ``+ 1e-05``,
``libdevice.rsqrt``, a ``tl.debug_barrier()`` and the in-place store of the inverse RMS (``in_out_ptr0``: saved for
the backward); the second loop gathers the row again (``evict_first``), scales it, rounds to fp16 as Llama's
``hidden_states.to(input_dtype)`` does, multiplies by the norm weight and stores. Hidden size and vocab are baked in
(``r0_numel = 4096`` reassigned in the body as Inductor does), xnumel is a runtime argument. Inductor decorates it
with ``@triton_heuristics.reduction``; here it is the plain JIT function. Triton emits ``tl.device_assert`` only when
a kernel is compiled with ``debug`` on: at the default twill compiles with, the asserts leave no op in the TTGIR, and
the loop twill schedules is the gather and its arithmetic alone. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers  # noqa: F401
from torch._inductor.runtime.triton_helpers import libdevice

VOCAB = 32000
HIDDEN = 4096
EPS = 1e-05
TWILL_SPEC: dict[str, Any] = {
    "kernel": "triton_red_fused__to_copy_embedding_mean_mul_pow_rsqrt_0",
    "signature": {"in_out_ptr0": "*fp32", "in_ptr0": "*i64", "in_ptr1": "*fp16", "in_ptr2": "*fp16",
                  "out_ptr0": "*fp16", "xnumel": "i32", "r0_numel": "i32"},
    "constexprs": {"XBLOCK": 1, "R0_BLOCK": 2048},
    "num_warps": 16, "num_stages": 1,
    "divisibility": ["in_out_ptr0", "in_ptr0", "in_ptr1", "in_ptr2", "out_ptr0", "r0_numel"]}
PROBLEM: dict[str, int] = {"tokens": 8192}     # 4 x 2048 tokens
SMALL: dict[str, int] = {"tokens": 7}


@triton.jit
def triton_red_fused__to_copy_embedding_mean_mul_pow_rsqrt_0(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel,
                                                               r0_numel, XBLOCK: tl.constexpr,
                                                               R0_BLOCK: tl.constexpr):
    r0_numel = 4096
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    _tmp11 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp1 = tl.full([XBLOCK, R0_BLOCK], 32000, tl.int32)
        tmp2 = tmp0 + tmp1
        tmp3 = tmp0 < 0
        tmp4 = tl.where(tmp3, tmp2, tmp0)
        tl.device_assert(((0 <= tmp4) & (tmp4 < 32000)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 32000")
        tmp6 = tl.load(in_ptr1 + (r0_1 + 4096*tmp4), r0_mask & xmask, eviction_policy='evict_last',
                       other=0.0).to(tl.float32)
        tmp7 = tmp6.to(tl.float32)
        tmp8 = tmp7 * tmp7
        tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
        tmp12 = _tmp11 + tmp9
        _tmp11 = tl.where(r0_mask & xmask, tmp12, _tmp11)
    tmp11 = tl.sum(_tmp11, 1)[:, None]
    tmp13 = 4096.0
    tmp14 = (tmp11 / tmp13)
    tmp15 = 1e-05
    tmp16 = tmp14 + tmp15
    tmp17 = libdevice.rsqrt(tmp16)
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x0), tmp17, xmask)
    for r0_offset in range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp18 = tl.load(in_ptr2 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp19 = tl.full([XBLOCK, R0_BLOCK], 32000, tl.int32)
        tmp20 = tmp0 + tmp19
        tmp21 = tmp0 < 0
        tmp22 = tl.where(tmp21, tmp20, tmp0)
        tl.device_assert(((0 <= tmp22) & (tmp22 < 32000)) | ~(xmask), "index out of bounds: 0 <= tmp22 < 32000")
        tmp24 = tl.load(in_ptr1 + (r0_1 + 4096*tmp22), r0_mask & xmask, eviction_policy='evict_first',
                        other=0.0).to(tl.float32)
        tmp25 = tmp24.to(tl.float32)
        tmp26 = tmp25 * tmp17
        tmp27 = tmp26.to(tl.float16)
        tmp28 = tmp27.to(tl.float32)
        tmp29 = tmp18 * tmp28
        tl.store(out_ptr0 + (r0_1 + 4096*x0), tmp29, r0_mask & xmask)


def make_inputs(tokens: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """ids [tokens] i64 in [0, 32000), the embedding table [32000, 4096] fp16 and the norm weight [4096] fp16."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    ids = torch.randint(0, VOCAB, (tokens,), device=device, generator=g, dtype=torch.int64)
    table = (torch.randn((VOCAB, HIDDEN), device=device, generator=g) * 0.02).half()
    weight = (1.0 + 0.1 * torch.randn((HIDDEN,), device=device, generator=g)).half()
    return {"ids": ids, "table": table, "weight": weight}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(the normed hidden states [tokens, 4096] fp16, the inverse RMS [tokens, 1] fp32 Inductor keeps for the
    backward), as the compiled graph's call() allocates and launches them (grid: xnumel / XBLOCK programs)."""
    import torch
    ids, table, weight = inputs["ids"], inputs["table"], inputs["weight"]
    xnumel = ids.numel()
    buf0 = torch.empty((xnumel, 1), device=ids.device, dtype=torch.float32)
    buf1 = buf0
    buf2 = torch.empty((xnumel, HIDDEN), device=ids.device, dtype=torch.float16)
    XBLOCK = config.get("XBLOCK", 1)
    triton_red_fused__to_copy_embedding_mean_mul_pow_rsqrt_0[(triton.cdiv(xnumel, XBLOCK),)](
        buf1, ids, table, weight, buf2, xnumel, HIDDEN, XBLOCK=XBLOCK, R0_BLOCK=config.get("R0_BLOCK", 2048),
        num_warps=config.get("num_warps", 16), num_stages=config.get("num_stages", 1))
    return buf2, buf1


def reference(inputs: dict[str, Any]) -> Any:
    """Llama's RMSNorm of the gathered rows in float64 (the fp16 rounding before the weight kept, as the model does)."""
    import torch
    x = torch.nn.functional.embedding(inputs["ids"], inputs["table"]).double()
    inv = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS)
    y = (x * inv).half().double() * inputs["weight"].double()
    return y, inv
