"""SGLang's Double Sparsity decode, its sparse stage (``_sparse_fwd_kernel_flash_decode_stage2``,
srt/layers/attention/triton_ops/double_sparsity_attention.py, rewritten here): after the label-channel stage picks
each (head, sequence)'s heavy tokens with torch.topk, one program per (sequence, query head, BLOCK_SEQ block of the
heavy list) attends over them. Each key row is found through TWO loads: the top-k position (int64, from
``Topk_token_indices`` [H, B, k] with runtime strides) and then its KV-pool slot through ``Req_to_tokens``
(int32, [B, S]); the [BLOCK_N, D] K and V rows are gathered with that slot (``k_loc[:, None] * stride_kbs``), GQA
through a runtime ``gqa_group_size``. No dot: ``tl.sum(q[None, :] * k, 1)`` scores (fp16 product, fp32 sum), the
tail masked with ``tl.where(..., -inf)``, a scalar online softmax (``max_logic`` / ``sum_exp`` carried as fp32
scalars, ``acc`` a [D] fp32 vector, ``tl.sum(exp_logic[:, None] * v, 0)``). The loop runs ``range(start, end,
BLOCK_N)`` from a program-dependent start to ``tl.minimum(Heavy_token_num, start + BLOCK_SEQ)``; the
``block_n_size`` SGLang computes (``tl.where(..., 0, ...) // BLOCK_N``) is left unused as in the source; the
partial output and its log-sum-exp are stored inside a second loop ``for _ in range(0, need_store, 1)`` with
``need_store = 1`` (SGLang's trick for a conditional store). BLOCK_SEQ 256, BLOCK_N 16, one warp, 2 stages as
SGLang launches it. fp16 as SGLang's fp16 path (the interpreter mishandles bf16)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLOCK_SEQ = 256
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_sparse_fwd_kernel_flash_decode_stage2",
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "sm_scale": "fp32", "Req_to_tokens": "*i32",
                  "Topk_token_indices": "*i64", "Mid_O": "*fp32", "Mid_O_LogExpSum": "*fp32",
                  "Heavy_token_num": "i32", "stride_req_to_tokens_b": "i32", "stride_topk_token_indices_h": "i32",
                  "stride_topk_token_indices_b": "i32", "stride_qbs": "i32", "stride_qh": "i32",
                  "stride_kbs": "i32", "stride_kh": "i32", "stride_vbs": "i32", "stride_vh": "i32",
                  "stride_mid_ob": "i32", "stride_mid_oh": "i32", "stride_mid_os": "i32",
                  "stride_mid_o_eb": "i32", "stride_mid_o_eh": "i32", "gqa_group_size": "i32"},
    "constexprs": {"BLOCK_SEQ": BLOCK_SEQ, "BLOCK_DMODEL": 128, "BLOCK_N": 16},
    "num_warps": 1, "num_stages": 2,
    "divisibility": ["Q", "K", "V", "Req_to_tokens", "Topk_token_indices", "Mid_O", "Mid_O_LogExpSum",
                     "stride_req_to_tokens_b", "stride_qbs", "stride_qh", "stride_kbs", "stride_kh",
                     "stride_vbs", "stride_vh", "stride_mid_ob", "stride_mid_oh", "stride_mid_os"]}
PROBLEM: dict[str, int] = {"B": 64, "H": 32, "H_KV": 8, "S": 4096, "heavy": 1024, "D": 128}
SMALL: dict[str, int] = {"B": 3, "H": 8, "H_KV": 2, "S": 400, "heavy": 300, "D": 128}   # 300 = 256 + 44: ragged


@triton.jit
def _sparse_fwd_kernel_flash_decode_stage2(Q, K, V, sm_scale, Req_to_tokens, Topk_token_indices, Mid_O,
                                           Mid_O_LogExpSum, Heavy_token_num, stride_req_to_tokens_b,
                                           stride_topk_token_indices_h, stride_topk_token_indices_b,
                                           stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh,
                                           stride_mid_ob, stride_mid_oh, stride_mid_os, stride_mid_o_eb,
                                           stride_mid_o_eh, gqa_group_size, BLOCK_SEQ: tl.constexpr,
                                           BLOCK_DMODEL: tl.constexpr, BLOCK_N: tl.constexpr):
    # twill corpus rendition: one (sequence, head, heavy-list block), keys found through two index loads
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    seq_start_block = tl.program_id(2)
    cur_kv_head = cur_head // gqa_group_size
    offs_d = tl.arange(0, BLOCK_DMODEL)
    block_start = seq_start_block * BLOCK_SEQ
    block_end = tl.minimum(Heavy_token_num, block_start + BLOCK_SEQ)
    block_n_size = tl.where(block_end - block_start <= 0, 0, block_end - block_start + BLOCK_N - 1) // BLOCK_N
    offs_n = tl.arange(0, BLOCK_N)
    q = tl.load(Q + cur_batch * stride_qbs + cur_head * stride_qh + offs_d)
    sum_exp = 0.0
    max_logic = -float("inf")
    acc = tl.zeros([BLOCK_DMODEL], dtype=tl.float32)
    topk_row = Topk_token_indices + stride_topk_token_indices_h * cur_head + stride_topk_token_indices_b * cur_batch
    for start_n in range(block_start, block_end, BLOCK_N):
        offs_n_new = start_n + offs_n
        in_block = offs_n_new < block_end
        position = tl.load(topk_row + offs_n_new, mask=in_block, other=0)           # the heavy token's position
        k_loc = tl.load(Req_to_tokens + stride_req_to_tokens_b * cur_batch + position, mask=in_block, other=0)
        off_k = k_loc[:, None] * stride_kbs + cur_kv_head * stride_kh + offs_d[None, :]
        k = tl.load(K + off_k, mask=in_block[:, None], other=0.0)
        att_value = tl.sum(q[None, :] * k, 1)
        att_value *= sm_scale
        att_value = tl.where(in_block, att_value, float("-inf"))
        off_v = k_loc[:, None] * stride_vbs + cur_kv_head * stride_vh + offs_d[None, :]
        v = tl.load(V + off_v, mask=in_block[:, None], other=0.0)
        new_max_logic = tl.maximum(tl.max(att_value, axis=0), max_logic)
        exp_logic = tl.exp(att_value - new_max_logic)
        logic_scale = tl.exp(max_logic - new_max_logic)
        acc *= logic_scale
        acc += tl.sum(exp_logic[:, None] * v, axis=0)
        sum_exp = sum_exp * logic_scale + tl.sum(exp_logic, axis=0)
        max_logic = new_max_logic
    need_store = 1                                # SGLang's store loop; block_n_size is unused, as there
    for _ in range(0, need_store, 1):
        off_mid_o = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + seq_start_block * stride_mid_os + offs_d
        off_lse = cur_batch * stride_mid_o_eb + cur_head * stride_mid_o_eh + seq_start_block
        tl.store(Mid_O + off_mid_o, acc / sum_exp)
        tl.store(Mid_O_LogExpSum + off_lse, max_logic + tl.log(sum_exp))


def make_inputs(B: int, H: int, H_KV: int, S: int, heavy: int, D: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """q [B, H, D], a KV pool [slots, H_KV, D], Req_to_tokens [B, S] mapping positions to shuffled slots, and
    [H, B, heavy] int64 heavy positions (distinct, inside each sequence: as torch.topk leaves them, unsorted)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    seqlens = torch.randint(heavy, S + 1, (B,), device=device, generator=g)
    slots = B * S + 7
    req_to_tokens = torch.randperm(slots, device=device, generator=g)[: B * S].view(B, S).to(torch.int32)
    keys = torch.rand((H, B, S), device=device, generator=g)
    keys = torch.where(torch.arange(S, device=device)[None, None, :] < seqlens[None, :, None], keys, 2.0)
    topk = keys.argsort(dim=-1)[..., :heavy].contiguous()                         # int64 positions
    q = torch.randn((B, H, D), device=device, generator=g).half()
    k = torch.randn((slots, H_KV, D), device=device, generator=g).half()
    v = torch.randn((slots, H_KV, D), device=device, generator=g).half()
    return {"q": q, "k": k, "v": v, "req_to_tokens": req_to_tokens, "topk": topk, "heavy": heavy,
            "sm_scale": 1.0 / D ** 0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(Mid_O [B, H, blocks, D], Mid_O_LogExpSum [B, H, blocks]) as sparse_flash_decode_stage2 writes them."""
    import torch
    q, k, v, req, topk, heavy = (inputs[n] for n in ("q", "k", "v", "req_to_tokens", "topk", "heavy"))
    batch, head_num, d = q.shape
    blocks = triton.cdiv(heavy, BLOCK_SEQ)
    mid_o = torch.empty((batch, head_num, blocks, d), dtype=torch.float32, device=q.device)
    mid_lse = torch.empty((batch, head_num, blocks), dtype=torch.float32, device=q.device)
    _sparse_fwd_kernel_flash_decode_stage2[(batch, head_num, blocks)](
        q, k, v, inputs["sm_scale"], req, topk, mid_o, mid_lse, heavy, req.stride(0), topk.stride(0),
        topk.stride(1), q.stride(0), q.stride(1), k.stride(0), k.stride(1), v.stride(0), v.stride(1),
        mid_o.stride(0), mid_o.stride(1), mid_o.stride(2), mid_lse.stride(0), mid_lse.stride(1),
        head_num // k.shape[1], BLOCK_SEQ=BLOCK_SEQ, BLOCK_DMODEL=d, BLOCK_N=config.get("BLOCK_N", 16),
        num_warps=config.get("num_warps", 1), num_stages=config.get("num_stages", 2))
    return mid_o, mid_lse


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v, req, topk, heavy = (inputs[n] for n in ("q", "k", "v", "req_to_tokens", "topk", "heavy"))
    batch, head_num, d = q.shape
    group = head_num // k.shape[1]
    slot = torch.gather(req.long()[None].expand(head_num, -1, -1), 2, topk)            # [H, B, heavy]
    kv_head = (torch.arange(head_num, device=q.device) // group)[:, None, None].expand_as(slot)
    ks, vs = k.float()[slot, kv_head], v.float()[slot, kv_head]                        # [H, B, heavy, D]
    s = (ks * q.float().transpose(0, 1)[:, :, None, :]).sum(-1) * inputs["sm_scale"]
    blocks = triton.cdiv(heavy, BLOCK_SEQ)
    pad = blocks * BLOCK_SEQ - heavy
    s = torch.nn.functional.pad(s, (0, pad), value=float("-inf")).view(head_num, batch, blocks, BLOCK_SEQ)
    vs = torch.nn.functional.pad(vs, (0, 0, 0, pad)).view(head_num, batch, blocks, BLOCK_SEQ, d)
    lse = torch.logsumexp(s, -1)
    o = (torch.softmax(s, -1)[..., None] * vs).sum(-2)
    return o.permute(1, 0, 2, 3).contiguous(), lse.permute(1, 0, 2).contiguous()
