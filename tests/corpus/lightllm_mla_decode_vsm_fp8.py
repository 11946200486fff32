"""LightLLM's DeepSeek-V2/V3 MLA decode attention with an fp8 KV cache, its first stage
``_fwd_kernel_flash_decode_stage1_padding_fp8`` (ModelTC/lightllm
lightllm/models/deepseek2/triton_kernel/gqa_flash_decoding_stage1_fp8.py, commit 65e2747c, launched by
``flash_decode_stage1_fp8`` from ``gqa_token_decode_attention_flash_decoding_fp8``; the default config of
gqa_flash_decoding_config.py: BLOCK_N 16, BLOCK_Q_HEAD 16, 4 warps, NUM_STAGES 2, ``num_stages=1``).

The constructs: a "virtual SM" persistent grid of ``num_sm`` programs, **three nested loops**: a runtime
``for cur_batch in range(batch_size)`` whose body loads the request's length and row of the token table, a
data-dependent ``while sm_id < cur_block_num`` (the program's work items in this request; ``sm_id`` is an int64
carry that runs through the ``while``, ``sm_id += num_sm``, and is rebased after it, ``sm_id -= cur_block_num``,
a carry of the outer ``for`` too, as is ``out_batch_start_index``), and inside it the scheduled
``for start_n in tl.range(0, block_n_size, 1, num_stages=NUM_STAGES)`` over the block's BLOCK_N-token chunks;
the block size itself is **loaded from memory** (``block_size_ptr``, int64). Per chunk: the KV-cache slots loaded
from ``Req_to_tokens`` and then used as the address of **three gathers** (the fp8 e4m3 512-wide latent ``kv``
[512, 16] and 64-wide rope part [64, 16], both read transposed, and a per-token bf16 scale), the fp8 tiles
dequantised under ``if HAS_SCALE:`` (fp8 * bf16, cast to bf16), **two dots summed** for the scores
(q_nope [16, 512] x kv [512, 16] + q_rope [16, 64] x rope_kv [64, 16]), online softmax, and a third dot against
``tl.trans(kv)`` (the same latent tile reused as V). Constexpr branches on ``NEED_HEAD_MASK`` (off here: 16
heads a rank) pick masked or unmasked loads and stores. The KV buffer is LightLLM's fp8 layout
(deepseek2_fp8kv_mem_manager.py): one uint8 row of 576 fp8 values + 2 bytes of a bf16 scale a token, so the row
strides are 578 and 289 (not 16-divisible). DeepSeek-V3 at TP 8 (16 heads a rank), a 64-request decode batch.
Port notes: ``block_size_ptr`` and the mid-output slots are computed on the host (LightLLM computes them with
``_fwd_kernel_calcu_index_and_block_seq``), ``num_sm`` fixed (LightLLM asks ``calcu_kernel_best_vsm_count``)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_kernel_flash_decode_stage1_padding_fp8",
    "signature": {
        "Q_nope": "*bf16", "Q_rope": "*bf16", "KV_nope": "*fp8e4nv", "KV_rope": "*fp8e4nv", "KV_scale": "*bf16",
        "sm_scale": "fp32", "Req_to_tokens": "*i32", "B_req_idx": "*i32", "B_Seqlen": "*i32",
        "Mid_O": "*fp32", "Mid_O_LogExpSum": "*fp32",
        "stride_req_to_tokens_b": "i32", "stride_req_to_tokens_s": "constexpr",
        "stride_q_bs": "i32", "stride_q_h": "i32", "stride_q_d": "constexpr",
        "stride_q_rope_bs": "i32", "stride_q_rope_h": "i32", "stride_q_rope_d": "constexpr",
        "stride_kv_bs": "i32", "stride_kv_h": "i32", "stride_kv_d": "constexpr",
        "stride_kv_rope_bs": "i32", "stride_kv_rope_h": "i32", "stride_kv_rope_d": "constexpr",
        "stride_mid_oh": "i32", "stride_mid_os": "i32", "stride_mid_od": "constexpr",
        "stride_mid_o_eh": "i32", "stride_mid_o_es": "constexpr", "stride_kv_scaled_bs": "i32",
        "block_size_ptr": "*i64", "num_sm": "i32", "head_group_num": "constexpr", "head_num": "i32",
        "batch_size": "i32"},
    "constexprs": {"stride_req_to_tokens_s": 1, "stride_q_d": 1, "stride_q_rope_d": 1, "stride_kv_d": 1,
                   "stride_kv_rope_d": 1, "stride_mid_od": 1, "stride_mid_o_es": 1, "head_group_num": 1,
                   "HAS_SCALE": 1, "Q_HEAD_NUM": 16, "BLOCK_DMODEL": 512, "BLOCK_ROPE_DMODEL": 64, "BLOCK_N": 16,
                   "NUM_STAGES": 2, "NEED_HEAD_MASK": 0},
    "num_warps": 4, "num_stages": 1,
    # q strides 8192 / 1024 and 576 * 16 heads, table row 8192, mid_o strides: all 16-divisible; KV rows 578 / 289 not
    "divisibility": ["stride_req_to_tokens_b", "stride_q_bs", "stride_q_h", "stride_q_rope_bs", "stride_q_rope_h",
                     "stride_mid_oh", "stride_mid_os", "stride_mid_o_eh"]}
PROBLEM: dict[str, int] = {"B": 64, "S": 4096, "H": 16, "NUM_SM": 132}
SMALL: dict[str, int] = {"B": 3, "S": 150, "H": 16, "NUM_SM": 5}
D, DR, BLOCK_N, MAX_LEN = 512, 64, 16, 8192


@triton.jit
def _fwd_kernel_flash_decode_stage1_padding_fp8(
    Q_nope,
    Q_rope,
    KV_nope,
    KV_rope,
    KV_scale,
    sm_scale,
    Req_to_tokens,
    B_req_idx,
    B_Seqlen,
    Mid_O,  # [head, seq_block_num, head_dim]
    Mid_O_LogExpSum,  # [head, seq_block_num]
    stride_req_to_tokens_b,
    stride_req_to_tokens_s,
    stride_q_bs,
    stride_q_h,
    stride_q_d,
    stride_q_rope_bs,
    stride_q_rope_h,
    stride_q_rope_d,
    stride_kv_bs,
    stride_kv_h,
    stride_kv_d,
    stride_kv_rope_bs,
    stride_kv_rope_h,
    stride_kv_rope_d,
    stride_mid_oh,
    stride_mid_os,
    stride_mid_od,
    stride_mid_o_eh,
    stride_mid_o_es,
    stride_kv_scaled_bs,
    block_size_ptr,
    num_sm,
    head_group_num,
    head_num,
    batch_size,
    HAS_SCALE: tl.constexpr,
    Q_HEAD_NUM: tl.constexpr,
    BLOCK_DMODEL: tl.constexpr,
    BLOCK_ROPE_DMODEL: tl.constexpr,
    BLOCK_N: tl.constexpr,
    NUM_STAGES: tl.constexpr,
    NEED_HEAD_MASK: tl.constexpr,
):
    # cur_kv_head = 0
    sm_id = tl.program_id(0).to(tl.int64)
    out_batch_start_index = tl.cast(0, tl.int64)
    block_seq = tl.load(block_size_ptr, eviction_policy="evict_last")

    cur_q_head_offs = tl.arange(0, Q_HEAD_NUM)
    offs_d = tl.arange(0, BLOCK_DMODEL)
    offs_rope_d = tl.arange(0, BLOCK_ROPE_DMODEL)

    for cur_batch in range(batch_size):
        cur_batch_seq_len = tl.load(B_Seqlen + cur_batch, eviction_policy="evict_last")
        cur_block_num = tl.cdiv(cur_batch_seq_len, block_seq) * head_group_num
        cur_batch_req_idx = tl.load(B_req_idx + cur_batch, eviction_policy="evict_last")
        req_to_tokens_ptr = Req_to_tokens + stride_req_to_tokens_b * cur_batch_req_idx

        while sm_id < cur_block_num:
            loop_head_group_index = sm_id % head_group_num
            loop_seq_block_index = sm_id // head_group_num

            cur_q_head_range = loop_head_group_index * Q_HEAD_NUM + cur_q_head_offs
            if NEED_HEAD_MASK:
                head_mask = cur_q_head_range < head_num

            cur_batch_start_index = block_seq * loop_seq_block_index
            cur_batch_end_index = tl.minimum(cur_batch_seq_len, cur_batch_start_index + block_seq)

            off_q = cur_batch * stride_q_bs + cur_q_head_range[:, None] * stride_q_h + offs_d[None, :]
            off_rope_q = (
                cur_batch * stride_q_rope_bs + cur_q_head_range[:, None] * stride_q_rope_h + offs_rope_d[None, :]
            )
            if NEED_HEAD_MASK:
                q = tl.load(
                    Q_nope + off_q,
                    mask=head_mask[:, None],
                    other=0.0,
                )
                q_rope = tl.load(
                    Q_rope + off_rope_q,
                    mask=head_mask[:, None],
                    other=0.0,
                )
            else:
                q = tl.load(Q_nope + off_q)
                q_rope = tl.load(Q_rope + off_rope_q)

            block_n_size = tl.cdiv(cur_batch_end_index - cur_batch_start_index, BLOCK_N)

            offs_n = cur_batch_start_index + tl.arange(0, BLOCK_N)
            sum_exp = tl.zeros([Q_HEAD_NUM], dtype=tl.float32)
            max_logic = tl.zeros([Q_HEAD_NUM], dtype=tl.float32) - float("inf")
            acc = tl.zeros([Q_HEAD_NUM, BLOCK_DMODEL], dtype=tl.float32)
            for start_n in tl.range(0, block_n_size, 1, num_stages=NUM_STAGES):
                offs_n_new = start_n * BLOCK_N + offs_n
                seq_n_mask = offs_n_new < cur_batch_end_index
                kv_loc = tl.load(
                    req_to_tokens_ptr + offs_n_new,
                    mask=seq_n_mask,
                    other=0,
                )
                off_kv = kv_loc[None, :] * stride_kv_bs + offs_d[:, None]
                kv = tl.load(KV_nope + off_kv, mask=seq_n_mask[None, :], other=0.0)
                off_rope_kv = kv_loc[None, :] * stride_kv_rope_bs + offs_rope_d[:, None]
                rope_kv = tl.load(KV_rope + off_rope_kv, mask=seq_n_mask[None, :], other=0.0)
                if HAS_SCALE:
                    off_kv_scale = kv_loc[None, :] * stride_kv_scaled_bs
                    kv_scale = tl.load(KV_scale + off_kv_scale, mask=seq_n_mask[None, :], other=0.0)
                    kv = (kv * kv_scale).to(kv_scale.dtype)
                    rope_kv = (rope_kv * kv_scale).to(kv_scale.dtype)
                att_value = tl.dot(q, kv)
                att_value += tl.dot(q_rope, rope_kv)

                att_value *= sm_scale
                att_value = tl.where(seq_n_mask[None, :], att_value, float("-inf"))

                cur_max_logic = tl.max(att_value, axis=1)
                new_max_logic = tl.maximum(cur_max_logic, max_logic)

                exp_logic = tl.exp(att_value - new_max_logic[:, None])
                logic_scale = tl.exp(max_logic - new_max_logic)
                acc *= logic_scale[:, None]
                acc += tl.dot(exp_logic.to(kv.dtype), tl.trans(kv))

                sum_exp = sum_exp * logic_scale + tl.sum(exp_logic, axis=1)
                max_logic = new_max_logic

            off_mid_o = (
                cur_q_head_range[:, None] * stride_mid_oh
                + (out_batch_start_index + loop_seq_block_index) * stride_mid_os
                + offs_d[None, :]
            )
            off_mid_o_logexpsum = cur_q_head_range * stride_mid_o_eh + out_batch_start_index + loop_seq_block_index
            if NEED_HEAD_MASK:
                tl.store(
                    Mid_O + off_mid_o,
                    acc / sum_exp[:, None],
                    mask=head_mask[:, None],
                )
                tl.store(
                    Mid_O_LogExpSum + off_mid_o_logexpsum,
                    max_logic + tl.log(sum_exp),
                    mask=head_mask,
                )
            else:
                tl.store(
                    Mid_O + off_mid_o,
                    acc / sum_exp[:, None],
                )
                tl.store(
                    Mid_O_LogExpSum + off_mid_o_logexpsum,
                    max_logic + tl.log(sum_exp),
                )
            sm_id += num_sm

        out_batch_start_index += cur_block_num // head_group_num
        sm_id -= cur_block_num
    return


def _block_seq(seq_lens: list[int], num_sm: int) -> int:
    """LightLLM's ``_fwd_kernel_calcu_index_and_block_seq``: total / (num_sm * 4) + 1, rounded up to BLOCK_N."""
    b = int(sum(seq_lens) / (num_sm * 4)) + 1
    return triton.cdiv(b, BLOCK_N) * BLOCK_N


def make_inputs(B: int, S: int, H: int, NUM_SM: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q_nope [B, H, 512] / q_rope [B, H, 64] bf16; LightLLM's fp8 KV buffer [T, 1, 578] uint8 (576 e4m3 values and
    a bf16 scale a token) for a shuffled token table; B requests of lengths around S (one of length 1)."""
    import torch
    g = torch.Generator(device="cpu").manual_seed(seed)
    lens = torch.randint(max(1, S // 2), S + 1, (B,), generator=g)
    lens[0] = 1
    T = int(lens.sum()) + 7
    vals = torch.randn(T, 1, D + DR, generator=g).to(torch.float8_e4m3fn)
    scale = (torch.rand(T, 1, 1, generator=g) * 0.5 + 0.01).to(torch.bfloat16)
    buf = torch.empty(T, 1, D + DR + 2, dtype=torch.uint8)
    buf[:, :, :D + DR] = vals.view(torch.uint8)
    buf[:, :, D + DR:] = scale.view(torch.uint8)
    perm = torch.randperm(T, generator=g).to(torch.int32)
    req_to_tokens = torch.zeros(B + 2, MAX_LEN, dtype=torch.int32)
    b_req_idx = torch.randperm(B + 2, generator=g)[:B].to(torch.int32)
    start = 0
    for i in range(B):
        n = int(lens[i])
        req_to_tokens[int(b_req_idx[i]), :n] = perm[start:start + n]
        start += n
    q_nope = torch.randn(B, H, D, generator=g).to(torch.bfloat16)
    q_rope = torch.randn(B, H, DR, generator=g).to(torch.bfloat16)
    dev = lambda t: t.to(device)
    return {"q_nope": dev(q_nope), "q_rope": dev(q_rope), "kv_buffer": dev(buf), "req_to_tokens": dev(req_to_tokens),
            "b_req_idx": dev(b_req_idx), "b_seq_len": dev(lens.to(torch.int32)), "num_sm": NUM_SM,
            # the host's copy of the lengths and the block size it derives (lightllm reads B_Seqlen.tolist() on the
            # host before launching: here in make_inputs, so that a CUDA graph can capture the launch)
            "lens": [int(x) for x in lens.tolist()],
            "in_block_seq": dev(torch.tensor([_block_seq([int(x) for x in lens.tolist()], NUM_SM)], dtype=torch.int64))}


def _views(inputs: dict[str, Any]) -> tuple[Any, Any, Any]:
    import torch
    buf = inputs["kv_buffer"]
    kv = buf[:, :, :-2].view(torch.float8_e4m3fn)
    kv_scale = buf[:, :, -2:].view(torch.bfloat16)
    return kv[:, :, :D], kv[:, :, D:], kv_scale


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(mid_o [H, blocks, 512] fp32, mid_o_logexpsum [H, blocks] fp32) over the batch's written blocks."""
    import torch
    q_nope, q_rope = inputs["q_nope"], inputs["q_rope"]
    kv_nope, kv_rope, kv_scale = _views(inputs)
    Req_to_tokens, B_req_idx, B_Seqlen = inputs["req_to_tokens"], inputs["b_req_idx"], inputs["b_seq_len"]
    num_sm = inputs["num_sm"]
    lens = inputs["lens"]
    bs = _block_seq(lens, num_sm)
    n_blocks = sum(triton.cdiv(n, bs) for n in lens)
    batch_size, q_head_num = B_req_idx.shape[0], q_nope.shape[1]
    Q_HEAD_NUM = 16
    head_group_num = triton.cdiv(q_head_num, Q_HEAD_NUM)
    NEED_HEAD_MASK = (q_head_num % Q_HEAD_NUM) != 0
    in_block_seq = inputs["in_block_seq"]
    mid_out = torch.empty([q_head_num, num_sm * 4 + batch_size, D], dtype=torch.float32, device=q_nope.device)
    mid_out_logsumexp = torch.empty([q_head_num, num_sm * 4 + batch_size], dtype=torch.float32, device=q_nope.device)
    softmax_scale = 1.0 / (D + DR) ** 0.5
    _fwd_kernel_flash_decode_stage1_padding_fp8[(num_sm,)](
        q_nope, q_rope, kv_nope, kv_rope, kv_scale, softmax_scale, Req_to_tokens, B_req_idx, B_Seqlen,
        mid_out, mid_out_logsumexp,
        *Req_to_tokens.stride(), *q_nope.stride(), *q_rope.stride(), *kv_nope.stride(), *kv_rope.stride(),
        *mid_out.stride(), *mid_out_logsumexp.stride(), kv_scale.stride(0), in_block_seq,
        num_sm=num_sm, head_group_num=head_group_num, head_num=q_head_num, batch_size=batch_size,
        HAS_SCALE=1, Q_HEAD_NUM=Q_HEAD_NUM, BLOCK_DMODEL=D, BLOCK_ROPE_DMODEL=DR, BLOCK_N=BLOCK_N,
        NEED_HEAD_MASK=NEED_HEAD_MASK, NUM_STAGES=2, num_warps=4, num_stages=1)
    return mid_out[:, :n_blocks], mid_out_logsumexp[:, :n_blocks]


def reference(inputs: dict[str, Any]) -> Any:
    """Per request and block of block_seq tokens: softmax(sm_scale * (q_nope kv^T + q_rope rope^T)) kv and its
    log-sum-exp, kv the bf16 of fp8 * scale; blocks stored in request order."""
    import torch
    q_nope, q_rope = inputs["q_nope"].float(), inputs["q_rope"].float()
    kv_nope, kv_rope, kv_scale = _views(inputs)
    kvn = (kv_nope.to(torch.bfloat16) * kv_scale).to(torch.bfloat16).float()[:, 0]
    kvr = (kv_rope.to(torch.bfloat16) * kv_scale).to(torch.bfloat16).float()[:, 0]
    lens = [int(x) for x in inputs["b_seq_len"].tolist()]
    bs = _block_seq(lens, inputs["num_sm"])
    sm = 1.0 / (D + DR) ** 0.5
    outs, lses = [], []
    for b, n in enumerate(lens):
        toks = inputs["req_to_tokens"][int(inputs["b_req_idx"][b]), :n].long()
        for s0 in range(0, n, bs):
            t = toks[s0:s0 + bs]
            s = (q_nope[b] @ kvn[t].T + q_rope[b] @ kvr[t].T) * sm
            p = torch.softmax(s, -1)
            outs.append(p @ kvn[t])
            lses.append(torch.logsumexp(s, -1))
    return torch.stack(outs, 1), torch.stack(lses, 1)


def flops(B: int, S: int, H: int, NUM_SM: int) -> float:
    """Three dots a token a head: 2 * (512 + 64) for the scores and 2 * 512 for P V: ~ B * S * H * 2176."""
    return 2.0 * B * S * H * (D + DR + D)
