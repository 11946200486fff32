"""SGLang's expert-parallel MoE dispatch permutation, ``pre_reorder_triton_kernel``
(sgl-project/sglang python/sglang/srt/layers/moe/ep_moe/kernels.py, launched by ``EPMoE.forward`` after
``run_moe_ep_preproess`` sorted the flattened top-k ids and built ``src2dst``): each token's row is copied to the
rows of the (token, k) pairs routed to an expert of this rank, quantised to fp8 by that expert's per-tensor scale.

The constructs: one program per token; an outer ``for idx in range(topk)`` (topk a runtime i32) loading the k-th
expert id and, under ``if expert_id >= start_expert_id and expert_id <= end_expert_id:`` (an ``and`` of two scalar
compares, an ``scf.if`` in the loop), a constexpr-``None`` test ``if a1_scales_ptr is not None:`` choosing
``1.0 / tl.load(a1_scales_ptr + expert_id - start_expert_id)`` (a per-expert scalar gather), the destination row
loaded from ``src2dst`` (a scatter target: ``dst_ptr = gateup_input_ptr + dst_idx * hidden_size``), and the main
work, an inner ``for start_offset in tl.range(0, hidden_size, BLOCK_SIZE)`` loop (a runtime hidden size, masked
tail) loading the bf16 row chunk, scaling it in fp32 and storing it cast to the **output pointer's element type**
(``gateup_input_ptr.dtype.element_ty``, fp8e4nv) at the scattered row. The same source chunk is reloaded once per
local expert (up to topk times). DeepSeek-V3 shapes: hidden 7168, 256 experts, top-8, EP 8 (32 experts a rank,
this rank the fourth); BLOCK_SIZE 512, Triton's default warps and stages, as sglang launches it. Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TOPK, NUM_EXPERTS, EP_SIZE, RANK = 8, 256, 8, 3
LOCAL = NUM_EXPERTS // EP_SIZE
TWILL_SPEC: dict[str, Any] = {
    "kernel": "pre_reorder_triton_kernel",
    "signature": {"input_ptr": "*bf16", "gateup_input_ptr": "*fp8e4nv", "src2dst_ptr": "*i32",
                  "topk_ids_ptr": "*i32", "a1_scales_ptr": "*fp32", "start_expert_id": "i32",
                  "end_expert_id": "i32", "topk": "i32", "hidden_size": "i32"},
    "constexprs": {"BLOCK_SIZE": 512},
    "num_warps": 4, "num_stages": 3,
    # topk (8) is the row stride of src2dst / topk_ids: not 16-divisible
    "divisibility": ["input_ptr", "gateup_input_ptr", "src2dst_ptr", "topk_ids_ptr", "a1_scales_ptr",
                     "hidden_size"]}
PROBLEM: dict[str, int] = {"T": 4096, "H": 7168}
SMALL: dict[str, int] = {"T": 29, "H": 1100}


@triton.jit
def pre_reorder_triton_kernel(
    input_ptr,
    gateup_input_ptr,
    src2dst_ptr,
    topk_ids_ptr,
    a1_scales_ptr,
    start_expert_id,
    end_expert_id,
    topk,
    hidden_size,
    BLOCK_SIZE: tl.constexpr,
):
    OutDtype = gateup_input_ptr.dtype.element_ty

    src_idx = tl.program_id(0)
    src2dst_ptr = src2dst_ptr + src_idx * topk
    topk_ids_ptr = topk_ids_ptr + src_idx * topk

    src_ptr = input_ptr + src_idx * hidden_size
    for idx in range(topk):
        expert_id = tl.load(topk_ids_ptr + idx)
        if expert_id >= start_expert_id and expert_id <= end_expert_id:
            if a1_scales_ptr is not None:
                scale = 1.0 / tl.load(a1_scales_ptr + expert_id - start_expert_id)
            else:
                scale = 1.0

            dst_idx = tl.load(src2dst_ptr + idx)
            dst_ptr = gateup_input_ptr + dst_idx * hidden_size
            for start_offset in tl.range(0, hidden_size, BLOCK_SIZE):
                offset = start_offset + tl.arange(0, BLOCK_SIZE)
                mask = offset < hidden_size
                in_data = tl.load(src_ptr + offset, mask=mask).to(tl.float32)
                out_data = (in_data * scale).to(OutDtype)
                tl.store(dst_ptr + offset, out_data, mask=mask)


def make_inputs(T: int, H: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """hidden_states [T, H] bf16; topk_ids [T, 8] int32 (distinct experts a token, of 256); run_moe_ep_preproess's
    outputs in plain torch: the stable sort of the flattened ids, seg_indptr (searchsorted) and src2dst (int32, the
    inverse permutation); a1_scales [32] fp32, max|x| / 448 for every local expert (EPMoE's per-tensor fp8 scale)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((T, H), device=device, generator=g).bfloat16()
    ids = torch.stack([torch.randperm(NUM_EXPERTS, device=device, generator=g)[:TOPK] for _ in range(T)])
    ids = ids.to(torch.int32)
    reorder_topk_ids, reorder_ids = torch.sort(ids.view(-1), stable=True)
    seg_indptr = torch.searchsorted(reorder_topk_ids.to(torch.int64),
                                    torch.arange(NUM_EXPERTS + 1, device=device, dtype=torch.int64))
    src2dst = torch.empty(ids.numel(), device=device, dtype=torch.int32)
    src2dst[reorder_ids] = torch.arange(ids.numel(), device=device, dtype=torch.int32)
    a1_scales = (x.float().abs().max() / 448.0).repeat(LOCAL).contiguous()
    rows = (int(seg_indptr[RANK * LOCAL]), int(seg_indptr[RANK * LOCAL + LOCAL]))   # this rank's rows
    return {"x": x, "topk_ids": ids.contiguous(), "src2dst": src2dst, "seg_indptr": seg_indptr,
            "a1_scales": a1_scales, "rows": rows}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The rows of gateup_input [T * 8, H] fp8e4nv that belong to this rank's experts (seg_indptr[start] to
    seg_indptr[end + 1]; the other rows are never written), returned as fp32."""
    import torch
    x, ids = inputs["x"], inputs["topk_ids"]
    start_expert_id, end_expert_id = RANK * LOCAL, RANK * LOCAL + LOCAL - 1
    gateup_input = torch.empty((x.shape[0] * TOPK, x.shape[1]), device=x.device, dtype=torch.float8_e4m3fn)
    pre_reorder_triton_kernel[(x.shape[0],)](
        x, gateup_input, inputs["src2dst"], ids, inputs["a1_scales"], start_expert_id, end_expert_id, TOPK,
        x.shape[1], BLOCK_SIZE=512, num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    lo, hi = inputs["rows"]      # read on the host in make_inputs: a launch a CUDA graph captures cannot sync
    return gateup_input[lo:hi].float()


def reference(inputs: dict[str, Any]) -> Any:
    """Row src2dst[t, k] = fp8(x[t] * (1 / scale[e - start])) for each pair (t, k) whose expert e is local."""
    import torch
    x, ids, src2dst = inputs["x"], inputs["topk_ids"].long(), inputs["src2dst"].long()
    start_expert_id = RANK * LOCAL
    T, H = x.shape
    out = torch.zeros((T * TOPK, H), dtype=torch.float32, device=x.device)
    flat = ids.view(-1)
    local = (flat >= start_expert_id) & (flat < start_expert_id + LOCAL)
    tok = torch.arange(T * TOPK, device=x.device) // TOPK
    sel = torch.nonzero(local).flatten()
    scale = 1.0 / inputs["a1_scales"][flat[sel] - start_expert_id]
    out[src2dst[sel]] = (x[tok[sel]].float() * scale[:, None]).to(torch.float8_e4m3fn).float()
    lo = int(inputs["seg_indptr"][start_expert_id])
    hi = int(inputs["seg_indptr"][start_expert_id + LOCAL])
    return out[lo:hi]


def flops(T: int, H: int) -> float:
    """One multiply an element copied: about T * 8 / EP_SIZE rows of H (memory-bound)."""
    return 1.0 * T * TOPK / EP_SIZE * H
