"""The second stage of split-KV decode attention, as vLLM's and SGLang's ``_fwd_kernel_stage2`` write it: each split of
a request's keys left a partial output and its log-sum-exp (one fp32 row of ``Lv + 1``); the loop over the splits
merges them, and a split that holds no key (a request shorter than the splits) is skipped by
``if split_kv_end > split_kv_start:`` around its loads: a runtime ``if`` holding pointer loads inside the scheduled
loop. fp32 in, fp16 out. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

SPLITS, LV = 16, 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_kernel_stage2",
    "signature": {"Mid_O": "*fp32", "o": "*fp16", "B_Seqlen": "*i32", "stride_mid_ob": "i32",
                  "stride_mid_oh": "i32", "stride_mid_os": "i32", "stride_obs": "i32", "stride_oh": "i32"},
    "constexprs": {"NUM_KV_SPLITS": SPLITS, "BLOCK_DV": LV, "Lv": LV}, "num_warps": 4, "num_stages": 2,
    "divisibility": ["stride_obs", "stride_oh"]}
PROBLEM: dict[str, int] = {"B": 64, "H": 32}
SMALL: dict[str, int] = {"B": 5, "H": 3}


@triton.jit
def _fwd_kernel_stage2(Mid_O, o, B_Seqlen, stride_mid_ob, stride_mid_oh, stride_mid_os, stride_obs, stride_oh,
                       NUM_KV_SPLITS: tl.constexpr, BLOCK_DV: tl.constexpr, Lv: tl.constexpr):
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    cur_batch_seq_len = tl.load(B_Seqlen + cur_batch)
    offs_d = tl.arange(0, BLOCK_DV)
    mask_d = offs_d < Lv
    e_sum = 0.0
    e_max = -float("inf")
    acc = tl.zeros([BLOCK_DV], dtype=tl.float32)
    offs_v = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + offs_d
    offs_logic = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + Lv
    for split_kv_id in range(0, NUM_KV_SPLITS):
        kv_len_per_split = tl.cdiv(cur_batch_seq_len, NUM_KV_SPLITS)
        split_kv_start = kv_len_per_split * split_kv_id
        split_kv_end = tl.minimum(split_kv_start + kv_len_per_split, cur_batch_seq_len)
        if split_kv_end > split_kv_start:
            tv = tl.load(Mid_O + offs_v + split_kv_id * stride_mid_os, mask=mask_d, other=0.0)
            tlogic = tl.load(Mid_O + offs_logic + split_kv_id * stride_mid_os)
            n_e_max = tl.maximum(tlogic, e_max)
            old_scale = tl.exp(e_max - n_e_max)
            acc *= old_scale
            exp_logic = tl.exp(tlogic - n_e_max)
            acc += exp_logic * tv
            e_sum = e_sum * old_scale + exp_logic
            e_max = n_e_max
    tl.store(o + cur_batch * stride_obs + cur_head * stride_oh + offs_d, acc / e_sum, mask=mask_d)


def make_inputs(B: int, H: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Partial outputs and log-sum-exps of every split; sequence lengths from 1 (one split holds a key) up, so that
    short requests leave splits empty (their rows hold garbage the kernel must skip)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    mid = torch.randn((B, H, SPLITS, LV + 1), device=device, generator=g)
    seqlen = torch.randint(1, 4 * SPLITS, (B,), device=device, generator=g, dtype=torch.int32)
    seqlen[0] = 1
    return {"mid": mid, "seqlen": seqlen}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o, fp16 [B, H, Lv]: one program per (request, head)."""
    import torch
    mid, seqlen = inputs["mid"], inputs["seqlen"]
    B, H = mid.shape[:2]
    o = torch.empty((B, H, LV), device=mid.device, dtype=torch.float16)
    _fwd_kernel_stage2[(B, H)](mid, o, seqlen, mid.stride(0), mid.stride(1), mid.stride(2), o.stride(0), o.stride(1),
                               NUM_KV_SPLITS=SPLITS, BLOCK_DV=LV, Lv=LV, num_warps=config.get("num_warps", 4),
                               num_stages=config.get("num_stages", 2))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    mid, seqlen = inputs["mid"].double(), inputs["seqlen"].long()
    per = (seqlen + SPLITS - 1) // SPLITS
    start = per[:, None] * torch.arange(SPLITS, device=mid.device)[None, :]
    end = torch.minimum(start + per[:, None], seqlen[:, None])
    lse = mid[..., LV].masked_fill(~(end > start)[:, None, :], float("-inf"))
    w = torch.softmax(lse, dim=-1)
    return (w[..., None] * mid[..., :LV]).sum(dim=2)
