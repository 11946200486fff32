"""Trident's attention backward, ``Attention.backward`` (kakaobrain/trident trident/kernel/attention.py, class
``Attention``, launched by ``trident/operation/attention.py``'s ``Attention.__backward`` on a grid of one program per
(batch, head) with ``y_block_size`` 64, ``x_block_size = next_power_of_2(head_dim)`` and ``num_warps=2``, after
``Softmax.backward_delta`` wrote ``delta = rowsum(output * grad_output)``).

The constructs: **a loop nested in another**: the outer ``for n_block in range(0, num_y_blocks)`` (a runtime count,
``tl.cdiv(y_size, y_block_size)``) builds six block pointers at the top of each iteration (their offsets from the
outer index: ``n_offset = n_block * y_block_size`` under the constexpr ``if is_causal:``, else 0), loads one K and
one V tile through plain pointer arithmetic (``key_ptr + ptr_offsets`` with ``ptr_offsets`` built from an **outer
loop-carried vector** ``n_strides`` that is bumped at the end of each outer iteration), zeroes two fp16
accumulators, runs the inner ``for m_offset in range(n_offset, y_size, y_block_size)`` (a **triangular** start,
from the outer index) and **stores dK and dV after the inner loop**. The inner loop: the causal ``tl.where`` score
init (constexpr ``is_causal`` True, ``mask_ptr`` constexpr ``None`` so the ``elif``/``else`` and the grad-mask
branches are dead), four ``tl.dot`` with ``out_dtype`` fp16 (trident's ``language.dot`` helper, inlined: fp16
accumulation, ``allow_tf32=use_accelerator``), ``tl.trans`` of Q, K, V, alpha and dS, a runtime scalar
``if dropout_p > eps:`` (a loop-invariant runtime branch with a load of O inside; dropout_p 0.0 here), and a
**read-modify-write of dQ in global memory** (``grad_query = tl.load(grad_query_block_ptr)``, ``+= dot``,
``tl.store`` to the same block): each outer iteration adds into the same dQ rows, so the store of one outer
iteration must land before the next outer iteration's load. Six ``tl.advance`` per inner iteration. fp16,
4 x 16 heads, sequence 1024, head dim 64. Here with **``is_causal`` False** (constexpr): ``n_offset`` is 0 in every
outer iteration, so the inner loop always starts at 0 (a trip count the same for every outer iteration) and each
outer iteration's dQ read-modify-write covers all rows; the dQ block pointer's row offset, an i64 carried through the
inner loop, starts at the literal 0 (its Gluon kernel did not compile before session 88: an int32 start in the
pipelined branch, an int64 in the branch for short trip counts). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

LOG2E = 1.4426950408889634
EPS = 2.220446049250313e-16
CAUSAL = False     # trident_attention_bwd.py: the same file with CAUSAL = True
TWILL_SPEC: dict[str, Any] = {
    "kernel": "attention_backward",
    "signature": {"grad_query_ptr": "*fp16", "grad_key_ptr": "*fp16", "grad_value_ptr": "*fp16",
                  "grad_mask_ptr": "*fp16", "grad_output_ptr": "*fp16", "query_ptr": "*fp16", "key_ptr": "*fp16",
                  "value_ptr": "*fp16", "y_size": "i32", "x_size": "i32", "head_stride": "i32", "y_stride": "i32",
                  "x_stride": "i32", "mask_ptr": "*fp16", "mask_head_stride": "i32", "mask_y_stride": "i32",
                  "mask_x_stride": "i32", "output_ptr": "*fp16", "log2sum_ptr": "*fp16", "delta_ptr": "*fp16",
                  "dropout_p": "fp32", "softmax_scale": "fp32"},
    # x_stride is 1 (Triton's launcher specialises it); mask / grad_mask None (no attention mask, causal)
    "constexprs": {"x_stride": 1, "mask_ptr": None, "grad_mask_ptr": None, "mask_head_stride": 0,
                   "mask_y_stride": 0, "mask_x_stride": 0, "is_causal": CAUSAL, "use_accelerator": True,
                   "dtype": tl.float16, "y_block_size": 64, "x_block_size": 64},
    "num_warps": 2, "num_stages": 3,
    "divisibility": ["grad_query_ptr", "grad_key_ptr", "grad_value_ptr", "grad_output_ptr", "query_ptr", "key_ptr",
                     "value_ptr", "y_size", "x_size", "head_stride", "y_stride", "output_ptr", "log2sum_ptr",
                     "delta_ptr"]}
PROBLEM: dict[str, int] = {"B": 4, "H": 16, "S": 1024, "D": 64}
SMALL: dict[str, int] = {"B": 1, "H": 2, "S": 128, "D": 64}


@triton.jit
def attention_backward(
    grad_query_ptr: tl.tensor,
    grad_key_ptr: tl.tensor,
    grad_value_ptr: tl.tensor,
    grad_mask_ptr: tl.tensor,
    grad_output_ptr: tl.tensor,
    query_ptr: tl.tensor,
    key_ptr: tl.tensor,
    value_ptr: tl.tensor,
    y_size: tl.int32,
    x_size: tl.int32,
    head_stride: tl.int32,
    y_stride: tl.int32,
    x_stride: tl.int32,
    mask_ptr: tl.tensor,
    mask_head_stride: tl.int32,
    mask_y_stride: tl.int32,
    mask_x_stride: tl.int32,
    output_ptr: tl.tensor,
    log2sum_ptr: tl.tensor,
    delta_ptr: tl.tensor,
    dropout_p: tl.float32,
    is_causal: tl.constexpr,
    softmax_scale: tl.float32,
    use_accelerator: tl.constexpr,
    dtype: tl.constexpr,
    y_block_size: tl.constexpr,
    x_block_size: tl.constexpr,
):
    pid = tl.program_id(0)
    num_y_blocks = tl.cdiv(y_size, y_block_size)

    grad_key_ptr += pid * head_stride
    grad_value_ptr += pid * head_stride
    key_ptr += pid * head_stride
    value_ptr += pid * head_stride

    score_scale = softmax_scale * 1.4426950408889634   # language.log2e
    n_strides = tl.arange(0, y_block_size) * y_stride
    x_strides = tl.arange(0, x_block_size) * x_stride

    for n_block in range(0, num_y_blocks):
        if is_causal:
            n_offset = n_block * y_block_size
        else:
            n_offset = 0

        grad_query_block_ptr = tl.make_block_ptr(
            grad_query_ptr + pid * head_stride,
            shape=(y_size, x_size),
            strides=(y_stride, x_stride),
            offsets=(n_offset, 0),
            block_shape=(y_block_size, x_block_size),
            order=(1, 0),
        )
        grad_output_block_ptr = tl.make_block_ptr(
            grad_output_ptr + pid * head_stride,
            shape=(y_size, x_size),
            strides=(y_stride, x_stride),
            offsets=(n_offset, 0),
            block_shape=(y_block_size, x_block_size),
            order=(1, 0),
        )
        query_block_ptr = tl.make_block_ptr(
            query_ptr + pid * head_stride,
            shape=(y_size, x_size),
            strides=(y_stride, x_stride),
            offsets=(n_offset, 0),
            block_shape=(y_block_size, x_block_size),
            order=(1, 0),
        )
        output_block_ptr = tl.make_block_ptr(
            output_ptr + pid * head_stride,
            shape=(y_size, x_size),
            strides=(y_stride, x_stride),
            offsets=(n_offset, 0),
            block_shape=(y_block_size, x_block_size),
            order=(1, 0),
        )
        log2sum_block_ptr = tl.make_block_ptr(
            log2sum_ptr + pid * y_size,
            shape=(y_size,),
            strides=(1,),
            offsets=(n_offset,),
            block_shape=(y_block_size,),
            order=(0,),
        )
        delta_block_ptr = tl.make_block_ptr(
            delta_ptr + pid * y_size,
            shape=(y_size,),
            strides=(1,),
            offsets=(n_offset,),
            block_shape=(y_block_size,),
            order=(0,),
        )

        if mask_ptr is not None:
            grad_mask_block_ptr = tl.make_block_ptr(
                grad_mask_ptr + pid * mask_head_stride,
                shape=(y_size, y_size),
                strides=(mask_y_stride, mask_x_stride),
                offsets=(0, n_block * y_block_size),
                block_shape=(y_block_size, y_block_size),
                order=(1, 0),
            )
            mask_block_ptr = tl.make_block_ptr(
                mask_ptr + pid * mask_head_stride,
                shape=(y_size, y_size),
                strides=(mask_y_stride, mask_x_stride),
                offsets=(0, n_block * y_block_size),
                block_shape=(y_block_size, y_block_size),
                order=(1, 0),
            )

        grad_value = tl.zeros((y_block_size, x_block_size), dtype)
        grad_key = tl.zeros((y_block_size, x_block_size), dtype)
        ptr_offsets = n_strides[:, None] + x_strides[None, :]
        key = tl.load(key_ptr + ptr_offsets)
        value = tl.load(value_ptr + ptr_offsets)
        n_offsets = n_offset + tl.arange(0, y_block_size)

        for m_offset in range(n_offset, y_size, y_block_size):
            query = tl.load(query_block_ptr)
            m_offsets = tl.arange(0, y_block_size) + m_offset

            if is_causal:
                condition = m_offsets[:, None] >= n_offsets[None, :]
                score = tl.where(condition, 0.0, float("-inf"))
            elif mask_ptr is not None:
                mask = tl.load(mask_block_ptr)
                mask *= 1.4426950408889634
                score = mask
            else:
                score = tl.zeros((y_block_size, y_block_size), dtype)

            # language.dot(a, b, use_accelerator, dtype) inlined (dtype is fp16: out_dtype=dtype)
            score += tl.dot(query, tl.trans(key), allow_tf32=use_accelerator, out_dtype=dtype) * score_scale
            log2sum = tl.load(log2sum_block_ptr)
            alpha = tl.math.exp2(score - log2sum[:, None]).to(dtype)
            grad_output = tl.load(grad_output_block_ptr)

            if dropout_p > 2.220446049250313e-16:   # language.eps
                output = tl.load(output_block_ptr)
                dropout_scale = 1.0 - dropout_p + 2.220446049250313e-16
                grad_dropout = tl.where(output > 0.0, dropout_scale, 0.0).to(dtype)
                grad_output *= grad_dropout

            grad_value += tl.dot(tl.trans(alpha), grad_output, allow_tf32=use_accelerator, out_dtype=dtype)
            delta = tl.load(delta_block_ptr)
            grad_alpha = tl.zeros((y_block_size, y_block_size), dtype) - delta[:, None]
            grad_alpha += tl.dot(grad_output, tl.trans(value), allow_tf32=use_accelerator, out_dtype=dtype)
            grad_softmax = (alpha * grad_alpha * softmax_scale).to(dtype)
            grad_key += tl.dot(tl.trans(grad_softmax), query, allow_tf32=use_accelerator, out_dtype=dtype)
            grad_query = tl.load(grad_query_block_ptr)
            grad_query += tl.dot(grad_softmax, key, allow_tf32=use_accelerator, out_dtype=dtype)
            tl.store(grad_query_block_ptr, grad_query)

            grad_query_block_ptr = tl.advance(grad_query_block_ptr, (y_block_size, 0))
            grad_output_block_ptr = tl.advance(grad_output_block_ptr, (y_block_size, 0))
            query_block_ptr = tl.advance(query_block_ptr, (y_block_size, 0))
            output_block_ptr = tl.advance(output_block_ptr, (y_block_size, 0))
            delta_block_ptr = tl.advance(delta_block_ptr, (y_block_size,))
            log2sum_block_ptr = tl.advance(log2sum_block_ptr, (y_block_size,))

            if mask_ptr is not None:
                tl.store(grad_mask_block_ptr, (grad_softmax / softmax_scale).to(dtype))
                mask_block_ptr = tl.advance(mask_block_ptr, (y_block_size, 0))
                grad_mask_block_ptr = tl.advance(grad_mask_block_ptr, (y_block_size, 0))

        tl.store(grad_key_ptr + ptr_offsets, grad_key)
        tl.store(grad_value_ptr + ptr_offsets, grad_value)
        n_strides += y_block_size * y_stride


def _forward(q: Any, k: Any, v: Any, scale: float) -> tuple[Any, Any]:
    """(Causal) softmax(QK^T * scale) V and trident's log2-domain row log-sum (max + log2(sum) of the scores times
    scale * log2(e)), both in the input dtype as trident's forward stores them."""
    import torch
    S = q.shape[-2]
    s = (q.float() @ k.float().transpose(-1, -2)) * (scale * LOG2E)
    causal = torch.ones((S, S), dtype=torch.bool, device=q.device).tril()
    if CAUSAL:
        s = s.masked_fill(~causal, float("-inf"))
    log2sum = torch.logsumexp(s / LOG2E, dim=-1) * LOG2E
    p = torch.exp2(s - log2sum[..., None])
    out = p @ v.float()
    return out.to(q.dtype), log2sum.to(q.dtype)


def make_inputs(B: int, H: int, S: int, D: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v, grad_output [B, H, S, D] fp16 (randn * 0.5); the forward's output and log2sum [B, H, S] (fp16, as
    trident stores them) and Softmax.backward_delta's delta = rowsum(output * grad_output) (fp16)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q, k, v, do = (
        (torch.randn((B, H, S, D), device=device, generator=g) * 0.5).half() for _ in range(4))
    scale = 1.0 / D ** 0.5
    out, log2sum = _forward(q, k, v, scale)
    delta = (out.float() * do.float()).sum(-1).half()
    return {"q": q, "k": k, "v": v, "do": do, "out": out, "log2sum": log2sum, "delta": delta, "scale": scale}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dQ, dK, dV) [B, H, S, D] fp16; dQ zero-initialised as trident does (the kernel accumulates into it)."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    B, H, S, D = q.shape
    grad_query = torch.zeros_like(q)
    grad_key = torch.empty_like(k)
    grad_value = torch.empty_like(v)
    attention_backward[(B * H,)](
        grad_query, grad_key, grad_value, None, inputs["do"], q, k, v, S, D,
        q.stride(1), q.stride(2), q.stride(3), None, 0, 0, 0,
        inputs["out"], inputs["log2sum"], inputs["delta"], 0.0, CAUSAL, inputs["scale"], True, tl.float16,
        64, triton.next_power_of_2(D),
        num_warps=config.get("num_warps", 2), num_stages=config.get("num_stages", 3))
    return grad_query, grad_key, grad_value


def reference(inputs: dict[str, Any]) -> Any:
    """The (causal) attention gradients from the same (fp16) log2sum and delta, in fp32:
    P = exp2(S * scale * log2e - log2sum), dV = P^T dO, dS = P * (dO V^T - delta) * scale, dK = dS^T Q, dQ = dS K."""
    import torch
    q, k, v, do = (inputs[n].float() for n in ("q", "k", "v", "do"))
    S = q.shape[-2]
    scale = inputs["scale"]
    s = (q @ k.transpose(-1, -2)) * (scale * LOG2E)
    causal = torch.ones((S, S), dtype=torch.bool, device=q.device).tril()
    if CAUSAL:
        s = s.masked_fill(~causal, float("-inf"))
    p = torch.exp2(s - inputs["log2sum"].float()[..., None])
    dv = p.transpose(-1, -2) @ do
    dp = do @ v.transpose(-1, -2)
    ds = p * (dp - inputs["delta"].float()[..., None]) * scale
    dk = ds.transpose(-1, -2) @ q
    dq = ds @ k
    return dq.half(), dk.half(), dv.half()


def flops(B: int, H: int, S: int, D: int) -> float:
    """Four S x S x D products per head, half of them under the causal mask: 4 * 2 * B * H * S * S * D / 2."""
    return 4.0 * B * H * S * S * D
