"""SGLang's DeepEP combine-side gather, ``_fwd_kernel_ep_gather`` (python/sglang/srt/layers/moe/ep_moe/kernels.py,
taken from LightLLM's deepep_scatter_gather.py, with its launcher ``ep_gather``): after the grouped expert GEMM, each
token's output is the routing-weighted sum of its top-k experts' rows. A grid of (hidden // BLOCK_D,
min(num_tokens, 1024)) programs: axis 0 picks the BLOCK_D = 1024 columns, axis 1 strides over the tokens
(``for cur_token in range(start_cur_token, total_token_num, grid_num)`` with ``grid_num = tl.num_programs(1)``), and
inside it a loop over the ``topk_num`` (a constexpr, 8) experts of the token: the expert id loaded (int64, as DeepEP
hands ``recv_topk_ids`` back), an ``if expert_id >= 0:`` (an expert of another rank is -1) around three loads: the
row the scatter put the token's copy in (``input_index``), its weight, and the [BLOCK_D] bf16 slice of that row (an
unmasked gather through the loaded row index), ``accumulator += tmp.to(tl.float32) * acc_weight``; the fp32 sum cast
to the output's dtype and stored after the expert loop. bf16 rows of DeepSeek-V3's hidden size 7168, top-8 routing
with about a third of the experts off this rank; 2 warps, as ``ep_gather`` launches it (Triton's default stages)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TOPK, BLOCK_D = 8, 1024
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_kernel_ep_gather",
    "signature": {"total_token_num": "i32", "input_tensor": "*bf16", "input_tensor_stride0": "i32",
                  "input_tensor_stride1": "constexpr", "recv_topk_ids": "*i64", "recv_topk_ids_stride0": "i32",
                  "recv_topk_ids_stride1": "constexpr", "recv_topk_weight": "*fp32",
                  "recv_topk_weight_stride0": "i32", "recv_topk_weight_stride1": "constexpr", "input_index": "*i32",
                  "input_index_stride0": "i32", "input_index_stride1": "constexpr", "output_tensor": "*bf16",
                  "output_tensor_stride0": "i32", "output_tensor_stride1": "constexpr"},
    "constexprs": {"input_tensor_stride1": 1, "recv_topk_ids_stride1": 1, "recv_topk_weight_stride1": 1,
                   "input_index_stride1": 1, "output_tensor_stride1": 1, "topk_num": TOPK, "BLOCK_D": BLOCK_D},
    "num_warps": 2, "num_stages": 3,
    # the top-k tables' row strides are topk_num (8): not 16-divisible
    "divisibility": ["input_tensor", "recv_topk_ids", "recv_topk_weight", "input_index", "output_tensor",
                     "input_tensor_stride0", "output_tensor_stride0"]}
PROBLEM: dict[str, int] = {"T": 4096, "H": 7168}
SMALL: dict[str, int] = {"T": 37, "H": 2048}


@triton.jit
def _fwd_kernel_ep_gather(
    total_token_num,
    input_tensor,
    input_tensor_stride0,
    input_tensor_stride1,
    recv_topk_ids,
    recv_topk_ids_stride0,
    recv_topk_ids_stride1,
    recv_topk_weight,
    recv_topk_weight_stride0,
    recv_topk_weight_stride1,
    input_index,
    input_index_stride0,
    input_index_stride1,
    output_tensor,
    output_tensor_stride0,
    output_tensor_stride1,
    topk_num: tl.constexpr,
    BLOCK_D: tl.constexpr,
):
    # twill corpus rendition: out[t] = sum over the token's experts on this rank of weight * expert_out[row]
    cur_block = tl.program_id(0)
    start_cur_token = tl.program_id(1)
    grid_num = tl.num_programs(1)

    for cur_token in range(start_cur_token, total_token_num, grid_num):
        off_d = tl.arange(0, BLOCK_D)
        accumulator = tl.zeros([BLOCK_D], dtype=tl.float32)
        for topk_index in range(0, topk_num):
            expert_id = tl.load(recv_topk_ids + cur_token * recv_topk_ids_stride0 + topk_index)
            if expert_id >= 0:
                source_token_index = tl.load(input_index + cur_token * input_index_stride0 + topk_index)
                acc_weight = tl.load(recv_topk_weight + cur_token * recv_topk_weight_stride0 + topk_index)
                tmp = tl.load(input_tensor + source_token_index * input_tensor_stride0 + cur_block * BLOCK_D + off_d)
                accumulator += tmp.to(tl.float32) * acc_weight
        tl.store(output_tensor + cur_token * output_tensor_stride0 + cur_block * BLOCK_D + off_d,
                 accumulator.to(output_tensor.dtype.element_ty))


def ep_gather(input_tensor, recv_topk_ids, recv_topk_weight, input_index, output_tensor):
    BLOCK_D = 1024
    num_warps = 2
    num_tokens = output_tensor.shape[0]
    hidden_size = input_tensor.shape[1]
    assert hidden_size % BLOCK_D == 0
    grid = (triton.cdiv(hidden_size, BLOCK_D), min(num_tokens, 1024))
    _fwd_kernel_ep_gather[grid](
        num_tokens,
        input_tensor,
        input_tensor.stride(0),
        input_tensor.stride(1),
        recv_topk_ids,
        recv_topk_ids.stride(0),
        recv_topk_ids.stride(1),
        recv_topk_weight,
        recv_topk_weight.stride(0),
        recv_topk_weight.stride(1),
        input_index,
        input_index.stride(0),
        input_index.stride(1),
        output_tensor,
        output_tensor.stride(0),
        output_tensor.stride(1),
        topk_num=recv_topk_ids.shape[1],
        num_warps=num_warps,
        BLOCK_D=BLOCK_D,
    )
    return


def make_inputs(T: int, H: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """T tokens with top-8 routing over 64 experts, this rank holding experts 0..39 (the others' ids -1, DeepEP's
    convention); each (token, expert on this rank) pair's row of the experts' output [rows, H] bf16 (rows ordered
    by expert, as ep_scatter lays them out, plus padding), its index in ``input_index``."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    experts, local = 64, 40
    ids = torch.stack([torch.randperm(experts, device=device, generator=g)[:TOPK] for _ in range(T)])
    ids = torch.where(ids < local, ids, torch.full_like(ids, -1))
    ids[0] = -1                                           # a token with no expert here: its output is zero
    weights = torch.softmax(torch.randn((T, TOPK), device=device, generator=g), -1)
    valid = (ids >= 0).flatten()
    order = torch.argsort(torch.where(valid, ids.flatten(), experts), stable=True)
    rows = torch.zeros(T * TOPK, dtype=torch.int64, device=device)
    rows[order] = torch.arange(T * TOPK, device=device)
    n_rows = int(valid.sum()) + 128
    return {"input_tensor": torch.randn((n_rows, H), device=device, generator=g).bfloat16(),
            "recv_topk_ids": ids.to(torch.int64), "recv_topk_weight": weights.float().contiguous(),
            "input_index": torch.where(valid, rows, 0).view(T, TOPK).to(torch.int32)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The combined tokens [T, H] bf16."""
    import torch
    x = inputs["input_tensor"]
    out = torch.empty((inputs["recv_topk_ids"].shape[0], x.shape[1]), dtype=x.dtype, device=x.device)
    ep_gather(x, inputs["recv_topk_ids"], inputs["recv_topk_weight"], inputs["input_index"], out)
    return out


def reference(inputs: dict[str, Any]) -> Any:
    x = inputs["input_tensor"].double()
    ids, w, idx = inputs["recv_topk_ids"], inputs["recv_topk_weight"].double(), inputs["input_index"].long()
    w = w * (ids >= 0)
    return (x[idx] * w[..., None]).sum(1).bfloat16()
