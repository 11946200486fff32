"""TransformerEngine's MoE ``unpermute`` (transformer_engine/pytorch/triton/permutation.py ``_unpermute_kernel``, as
``moe_unpermute`` launches it after the experts' GEMMs; rewritten here): one program per token merges the rows its
experts produced back into the token's row. A ``while`` over the hidden dimension in BLOCK_SIZE chunks
(``current_start += BLOCK_SIZE``: an ``scf.while`` whose condition is the runtime hidden size), and inside it a
``for expert_idx in range(num_experts)`` loop that loads the routing map's entry ``row_id_map[expert, token]``
(-1 where the token was not routed to the expert) and, under ``if src_row != -1:`` (an ``scf.if`` in the loop),
GATHERS the permuted row's chunk through it, scales it by the merging probability (``WITH_MERGING_PROBS``
constexpr, a scalar load) and adds it into an fp32 accumulator; the chunk cast back to the input's type
(``input_ptr.dtype.element_ty``) and stored after the expert loop. ``PERMUTE_PROBS`` False (its probs
pointers passed as None). bf16, strides as runtime arguments with the unit ones specialised."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_unpermute_kernel",
    "signature": {"input_ptr": "*bf16", "output_ptr": "*bf16", "row_id_map_ptr": "*i32", "merging_probs_ptr": "*fp32",
                  "permuted_probs_ptr": "constexpr", "unpermuted_probs_ptr": "constexpr",
                  "num_tokens": "i32", "num_experts": "i32", "hidden_size": "i32",
                  "stride_input_token": "i32", "stride_input_hidden": "constexpr",
                  "stride_output_token": "i32", "stride_output_hidden": "constexpr",
                  "stride_merging_probs_token": "i32", "stride_merging_probs_expert": "constexpr"},
    "constexprs": {"permuted_probs_ptr": None, "unpermuted_probs_ptr": None, "stride_input_hidden": 1,
                   "stride_output_hidden": 1, "stride_merging_probs_expert": 1, "WITH_MERGING_PROBS": True,
                   "PERMUTE_PROBS": False, "BLOCK_SIZE": 1024},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["input_ptr", "output_ptr", "row_id_map_ptr", "merging_probs_ptr", "num_tokens", "hidden_size",
                     "stride_input_token", "stride_output_token"]}
# a Mixtral-like layer: 4096 tokens, hidden 4096, 8 experts, top-2
PROBLEM: dict[str, int] = {"T": 4096, "H": 4096, "E": 8, "topk": 2}
SMALL: dict[str, int] = {"T": 37, "H": 2100, "E": 5, "topk": 2}   # H % BLOCK_SIZE: a masked last chunk


@triton.jit
def _unpermute_kernel(input_ptr, output_ptr, row_id_map_ptr, merging_probs_ptr, permuted_probs_ptr,
                      unpermuted_probs_ptr, num_tokens, num_experts, hidden_size, stride_input_token,
                      stride_input_hidden, stride_output_token, stride_output_hidden, stride_merging_probs_token,
                      stride_merging_probs_expert, WITH_MERGING_PROBS: tl.constexpr, PERMUTE_PROBS: tl.constexpr,
                      BLOCK_SIZE: tl.constexpr):
    data_type = input_ptr.dtype.element_ty
    compute_type = tl.float32
    pid = tl.program_id(0)
    current_start = 0
    while current_start < hidden_size:
        current_offset = current_start + tl.arange(0, BLOCK_SIZE)
        mask = current_offset < hidden_size
        accumulator = tl.zeros((BLOCK_SIZE,), dtype=compute_type)
        for expert_idx in range(num_experts):
            src_row = tl.load(row_id_map_ptr + expert_idx * num_tokens + pid)
            if src_row != -1:
                input_off = src_row * stride_input_token + current_offset * stride_input_hidden
                inp = tl.load(input_ptr + input_off, mask=mask)
                inp = inp.to(compute_type)
                if WITH_MERGING_PROBS:
                    merging_prob = tl.load(merging_probs_ptr + pid * stride_merging_probs_token
                                           + expert_idx * stride_merging_probs_expert).to(compute_type)
                    inp *= merging_prob
                accumulator += inp
            if PERMUTE_PROBS:
                if current_start == 0:
                    unpermuted_prob_off = pid * num_experts + expert_idx
                    if src_row != -1:
                        prob = tl.load(permuted_probs_ptr + src_row)
                        tl.store(unpermuted_probs_ptr + unpermuted_prob_off, prob)
                    else:
                        tl.store(unpermuted_probs_ptr + unpermuted_prob_off, 0.0)
        accumulator = accumulator.to(data_type)
        output_off = pid * stride_output_token + current_offset * stride_output_hidden
        tl.store(output_ptr + output_off, accumulator, mask=mask)
        current_start += BLOCK_SIZE


def make_inputs(T: int, H: int, E: int, topk: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Each token routed to topk distinct experts; the permuted rows grouped by expert (the order TE's permute
    writes them), row_id_map [E, T] the permuted row of (expert, token) or -1; merging probabilities [T, E]
    (softmaxed over the token's experts, zero elsewhere); the experts' outputs [T * topk, H] in bf16."""
    import torch
    g = torch.Generator(device="cpu").manual_seed(seed)
    logits = torch.randn((T, E), generator=g)
    top, expt = torch.topk(logits, topk, dim=1)
    routing = torch.zeros((T, E), dtype=torch.bool).scatter_(1, expt, True)
    probs = torch.zeros((T, E)).scatter_(1, expt, torch.softmax(top, dim=1))
    row_id_map = torch.full((E, T), -1, dtype=torch.int32)
    e_idx, t_idx = routing.t().nonzero(as_tuple=True)          # expert-major: the permuted order
    row_id_map[e_idx, t_idx] = torch.arange(e_idx.numel(), dtype=torch.int32)
    permuted = torch.randn((T * topk, H), generator=g).to(torch.bfloat16)
    return {"input": permuted.to(device), "row_id_map": row_id_map.to(device), "probs": probs.to(device)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The unpermuted [T, H] rows: sum over the token's experts of prob * the expert's row, in bf16."""
    import torch
    inp, row_id_map, probs = inputs["input"], inputs["row_id_map"], inputs["probs"]
    E, T = row_id_map.shape
    H = inp.shape[1]
    out = torch.empty((T, H), device=inp.device, dtype=inp.dtype)
    _unpermute_kernel[(T,)](inp, out, row_id_map, probs, None, None, T, E, H, inp.stride(0), inp.stride(1),
                            out.stride(0), out.stride(1), probs.stride(0), probs.stride(1),
                            WITH_MERGING_PROBS=True, PERMUTE_PROBS=False, BLOCK_SIZE=config.get("BLOCK_SIZE", 1024),
                            num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    inp, row_id_map, probs = inputs["input"].float(), inputs["row_id_map"].long(), inputs["probs"]
    E, T = row_id_map.shape
    out = torch.zeros((T, inp.shape[1]), device=inp.device)
    for e in range(E):
        routed = row_id_map[e] >= 0
        out[routed] += inp[row_id_map[e][routed]] * probs[routed, e, None]
    return out.to(torch.bfloat16)
