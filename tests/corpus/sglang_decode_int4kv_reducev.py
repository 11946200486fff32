"""SGLang's int4-KV decode attention, its second (softmax and reduce-V) stage for MHA, ``_fwd_kernel_stage2``
(sgl-project/sglang python/sglang/srt/layers/attention/triton_ops/decode_attention_int4kv.py, commit 6bb10350,
launched by ``_decode_softmax_reducev_fwd`` from ``decode_attention_fwd_int4kv`` when kv_group_num == 1; the
kernel is adapted from LightLLM's token_attention_softmax_and_reducev.py): BLOCK_N 64, **one warp**, num_stages 3.

The constructs: one program per (sequence, head); the sequence's length, start in the packed logits and
req_to_tokens row **loaded from memory**, a runtime-bound loop ``for start_n in range(0, cur_batch_seq_len,
BLOCK_N)`` with ``tl.multiple_of`` on the induction variable; per iteration the KV-cache slots loaded and then
used as the address of **two gathers** (the packed V rows and their per-group scales); an **online softmax over a
1-D [64] logit vector** with scalar carries (``e_max``, ``e_sum``: ``tl.max(qk, 0)``, ``tl.sum(p, 0)``); the packed
V tile (**int8 holding two int4**, an unmasked-row gather masked only by ``offs_d < Lv``) split with bit operations
(``(v & 0xF).to(tl.int8) - 8``, ``((v & 0xF0) >> 4)``), **``tl.interleave``** of the halves into a [64, 128] int8
tile, a **3-D reshape** [64, 4, 32] times the [64, 4, 1] fp16 group scales and back to [64, 128] (dequantised in
fp16, the scale buffer's dtype, ``V_Scales_Buffer.dtype.element_ty``), and the weighted sum **by broadcast and
``tl.sum(p[:, None] * v, 0)``** (no dot) into a [128] fp32 carry; the [128] result stored once after the loop.
Llama-2-7B's MHA (32 heads of 128, int4 KV in groups of 32), a 32-request decode batch. Port note: the packed
cache is passed as **uint8**: with SGLang's int8 buffer (``Out 是 int8 类型``) Triton 3.6 rejects ``v & 0xF0``
("Scalar 240 is out of range for type int8"); the kernel text is unchanged."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

H, HD, GROUP, BLOCK_N = 32, 128, 32, 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_kernel_stage2",
    "signature": {"logits": "*fp32", "V_Buffer": "*u8", "V_Scales_Buffer": "*fp16", "Out": "*fp16",
                  "Req_to_tokens": "*i32", "B_req_idx": "*i32", "B_Start_Loc": "*i32", "B_Seqlen": "*i32",
                  "stride_logic_h": "i32", "stride_buf_vbs": "i32", "stride_buf_vh": "i32",
                  "stride_scales_buf_vbs": "i32", "stride_scales_buf_vh": "i32", "stride_obs": "i32",
                  "stride_oh": "i32", "stride_req_to_token_b": "i32"},
    "constexprs": {"quant_group_size": GROUP, "kv_group_num": 1, "BLOCK_DMODEL": HD // 2, "BLOCK_N": BLOCK_N,
                   "Lv": HD // 2},
    "num_warps": 1, "num_stages": 3,
    # stride_scales_buf_vh is 4 and stride_logic_h the batch's token count: not 16-divisible
    "divisibility": ["stride_buf_vbs", "stride_buf_vh", "stride_scales_buf_vbs", "stride_obs", "stride_oh",
                     "stride_req_to_token_b"]}
PROBLEM: dict[str, int] = {"B": 32, "S": 2048}
SMALL: dict[str, int] = {"B": 3, "S": 150}
MAX_LEN = 4096


@triton.jit
def _fwd_kernel_stage2(
    logits,
    V_Buffer,
    V_Scales_Buffer,  # New argument for V scales
    quant_group_size: tl.constexpr,  # quant_group_size
    Out,
    Req_to_tokens,
    B_req_idx,
    B_Start_Loc,
    B_Seqlen,
    stride_logic_h,
    stride_buf_vbs,
    stride_buf_vh,
    stride_scales_buf_vbs,  # New stride for V scales bs
    stride_scales_buf_vh,  # New stride for V scales head
    stride_obs,
    stride_oh,
    stride_req_to_token_b,
    kv_group_num: tl.constexpr,
    BLOCK_DMODEL: tl.constexpr,
    BLOCK_N: tl.constexpr,
    Lv: tl.constexpr,
):
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    scales_dtype = V_Scales_Buffer.dtype.element_ty

    cur_kv_head = cur_head // kv_group_num

    cur_batch_seq_len = tl.load(B_Seqlen + cur_batch)
    cur_batch_start_loc = tl.load(B_Start_Loc + cur_batch)
    cur_batch_req_idx = tl.load(B_req_idx + cur_batch)

    offs_n = tl.arange(0, BLOCK_N)
    offs_d_q = tl.arange(0, BLOCK_DMODEL * 2)
    offs_d_s = tl.arange(0, BLOCK_DMODEL * 2 // quant_group_size)
    offs_d = tl.arange(0, BLOCK_DMODEL)

    offs_buf_v = cur_kv_head * stride_buf_vh + offs_d[None, :]
    v_ptrs = V_Buffer + offs_buf_v

    e_max = float("-inf")
    e_sum = 0.0
    acc = tl.zeros([BLOCK_DMODEL * 2], dtype=tl.float32)

    for start_n in range(0, cur_batch_seq_len, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        v_index = tl.load(
            Req_to_tokens
            + cur_batch_req_idx * stride_req_to_token_b
            + (start_n + offs_n),
            mask=(start_n + offs_n) < cur_batch_seq_len,
            other=0,
        )

        qk = tl.load(
            logits
            + cur_head * stride_logic_h
            + (cur_batch_start_loc + start_n + offs_n),
            mask=start_n + offs_n < cur_batch_seq_len,
            other=float("-inf"),
        )

        n_e_max = tl.maximum(tl.max(qk, 0), e_max)
        old_scale = tl.exp(e_max - n_e_max)
        p = tl.exp(qk - n_e_max)
        e_sum = e_sum * old_scale + tl.sum(p, 0)
        v_int8_tmp = tl.load(
            v_ptrs + v_index[:, None] * stride_buf_vbs, mask=(offs_d[None, :] < Lv)
        )

        # split int8 into two int4 values
        v_int8_low = (v_int8_tmp & 0xF).to(tl.int8) - 8
        v_int8_high = ((v_int8_tmp & 0xF0) >> 4).to(tl.int8) - 8
        v_int8 = tl.interleave(v_int8_low, v_int8_high)

        # Load V scales and dequantize
        offs_scales_v = (
            v_index[:, None] * stride_scales_buf_vbs
            + cur_kv_head * stride_scales_buf_vh
            + offs_d_s[None, :]
        )
        mask_n = start_n + offs_n < cur_batch_seq_len
        v_scales = tl.load(
            V_Scales_Buffer + offs_scales_v, mask=mask_n[:, None], other=1.0
        )
        v_tmp = v_int8.to(scales_dtype).reshape(
            v_int8.shape[0], v_int8.shape[1] // quant_group_size, quant_group_size
        ) * v_scales.reshape(
            v_scales.shape[0], v_scales.shape[1], 1
        )  # Dequantize V
        v = v_tmp.reshape(v_tmp.shape[0], v_tmp.shape[1] * v_tmp.shape[2])

        p = p.to(v.dtype)
        acc = acc * old_scale + tl.sum(p[:, None] * v, 0)
        e_max = n_e_max

    acc = acc / e_sum
    off_o = cur_batch * stride_obs + cur_head * stride_oh + offs_d_q
    out_ptrs = Out + off_o
    tl.store(out_ptrs, acc, mask=(offs_d_q < Lv * 2))


def make_inputs(B: int, S: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Stage 1's logits [32, total] fp32; an int4 V cache packed as SGLang's destindex_copy_quantize_int4kv packs
    it (two values + 8 a byte, the even one low), uint8 [T, 32, 64], fp16 scales [T, 32, 4]; a shuffled token table
    and B requests of lengths up to S (one of length 1)."""
    import torch
    g = torch.Generator(device="cpu").manual_seed(seed)
    lens = torch.randint(max(1, S // 2), S + 1, (B,), generator=g)
    lens[0] = 1
    total = int(lens.sum())
    T = total + 5
    q4 = torch.randint(-7, 8, (T, H, HD), generator=g)
    packed = ((q4[..., 0::2] + 8) | ((q4[..., 1::2] + 8) << 4)).to(torch.uint8)
    scales = (torch.rand(T, H, HD // GROUP, generator=g) * 0.2 + 0.01).half()
    logits = torch.randn(H, total, generator=g) * 3
    perm = torch.randperm(T, generator=g).to(torch.int32)
    req = torch.zeros(B + 1, MAX_LEN, dtype=torch.int32)
    b_req_idx = torch.randperm(B + 1, generator=g)[:B].to(torch.int32)
    start = 0
    for i in range(B):
        n = int(lens[i])
        req[int(b_req_idx[i]), :n] = perm[start:start + n]
        start += n
    b_start = torch.cumsum(lens, 0) - lens
    dev = lambda t: t.to(device)
    return {"logits": dev(logits), "v": dev(packed), "v_scales": dev(scales), "req": dev(req),
            "b_req_idx": dev(b_req_idx), "b_start_loc": dev(b_start.to(torch.int32)),
            "b_seq_len": dev(lens.to(torch.int32))}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o [B, 32, 128] fp16, as ``_decode_softmax_reducev_fwd``."""
    import torch
    logits, v_buffer, v_scales_buffer = inputs["logits"], inputs["v"], inputs["v_scales"]
    req_to_tokens, b_req_idx = inputs["req"], inputs["b_req_idx"]
    b_start_loc, b_seq_len = inputs["b_start_loc"], inputs["b_seq_len"]
    batch, head = b_seq_len.shape[0], logits.shape[0]
    o = torch.empty(batch, head, HD, dtype=torch.float16, device=logits.device)
    grid = (batch, head, 1)
    kv_group_num = logits.shape[0] // v_buffer.shape[1]
    num_warps = 1
    Lv = v_buffer.shape[-1]
    BLOCK_DMODEL = triton.next_power_of_2(Lv)
    _fwd_kernel_stage2[grid](
        logits, v_buffer, v_scales_buffer, GROUP, o, req_to_tokens, b_req_idx, b_start_loc, b_seq_len,
        logits.stride(0), v_buffer.stride(0), v_buffer.stride(1), v_scales_buffer.stride(0),
        v_scales_buffer.stride(1), o.stride(0), o.stride(1), req_to_tokens.stride(0),
        kv_group_num=kv_group_num, BLOCK_DMODEL=BLOCK_DMODEL, BLOCK_N=BLOCK_N, num_warps=num_warps, num_stages=3,
        Lv=Lv)
    return o


def reference(inputs: dict[str, Any]) -> Any:
    """softmax(logits of the request) @ V, V the fp16 of (int4 - 8 ... unpacked) * its group's scale."""
    import torch
    packed = inputs["v"].view(torch.uint8).int()
    lo, hi = (packed & 0xF) - 8, ((packed >> 4) & 0xF) - 8
    q4 = torch.stack([lo, hi], -1).reshape(*packed.shape[:2], HD)
    sc = inputs["v_scales"].float().repeat_interleave(GROUP, -1)
    v = (q4.half().float() * sc).half().float()
    lens = inputs["b_seq_len"].tolist()
    starts = inputs["b_start_loc"].tolist()
    out = torch.empty(len(lens), H, HD, device=v.device)
    for b, (n, s0) in enumerate(zip(lens, starts)):
        toks = inputs["req"][int(inputs["b_req_idx"][b]), :n].long()
        p = torch.softmax(inputs["logits"][:, s0:s0 + n], -1)
        out[b] = torch.einsum("hn,nhd->hd", p, v[toks])
    return out.half()


def flops(B: int, S: int) -> float:
    """A multiply-add per (token, head, dim) and the softmax: ~ 2 * B * S * 32 * 128."""
    return 2.0 * B * S * H * HD
