"""LightLLM's sampling penalties, ``_fwd_kernel_apply_penalty`` (ModelTC/lightllm
lightllm/common/basemodel/triton_kernel/apply_penalty.py, commit e68986a5, launched by ``apply_penalty`` with
BLOCK_P = 1024 and 8 warps before sampling): one program per request of the decode batch edits its row of logits
in place.

The constructs: the request's slot and its presence / frequency / repetition penalties **loaded through the
loaded slot** (``req_to_*_penalty + cur_req_idx``); **two loops in sequence**: first ``for block_start_index in
range(cur_batch_start_index, cur_batch_end_index, BLOCK_P)``, a runtime range whose both bounds are loaded (the
request's segment of the packed list of tokens it has generated), each iteration loading 1024 token ids and
counts and then **gathering the logits at those ids** (an address from a load), a ``tl.where`` on the sign,
and a **scatter store back to the same gathered addresses** (a read-modify-write of the row through indices);
then, after scalar loads (a bool mask, ``tl.exp2(tl.log2(x) * y) - 1``), ``for eos_index in
range(EOS_ID_NUM)`` with a **constexpr trip count** (2) whose body is all scalars: a loaded EOS id, a scalar load
of that logit, a ``tl.where`` on the loaded bool, and a scalar store to the address it loaded (the second loop
reads what the first may have written). Llama-3's vocabulary (128256) and EOS ids (128001, 128009); 64 requests
each with up to 2000 distinct generated tokens. Port note: LightLLM's ``ReqSamplingParamsManager`` tensors are
passed directly."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_kernel_apply_penalty",
    "signature": {"Logits": "*fp32", "stride_logit_b": "i32", "stride_logit_s": "constexpr", "b_req_idx": "*i32",
                  "req_to_presence_penalty": "*fp32", "req_to_frequency_penalty": "*fp32",
                  "req_to_repetition_penalty": "*fp32", "req_to_exponential_decay_length_penalty": "*fp32",
                  "b_length_penalty_param": "*i32", "p_token_ids": "*i32", "p_token_counts": "*i32",
                  "p_cumsum_seq_len": "*i32", "eos_ids": "*i32", "b_mask_eos_reqs": "*i1", "vocab_size": "i32"},
    "constexprs": {"stride_logit_s": 1, "BLOCK_P": 1024, "EOS_ID_NUM": 2},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["stride_logit_b", "vocab_size"]}   # 128256 = 16 * 8016
PROBLEM: dict[str, int] = {"B": 64, "V": 128256, "P": 2000}
SMALL: dict[str, int] = {"B": 5, "V": 128256, "P": 2500}
EOS = (128001, 128009)


@triton.jit
def _fwd_kernel_apply_penalty(
    Logits,
    stride_logit_b,
    stride_logit_s,
    b_req_idx,
    req_to_presence_penalty,
    req_to_frequency_penalty,
    req_to_repetition_penalty,
    req_to_exponential_decay_length_penalty,
    b_length_penalty_param,
    p_token_ids,
    p_token_counts,
    p_cumsum_seq_len,
    eos_ids,
    b_mask_eos_reqs,
    vocab_size,
    BLOCK_P: tl.constexpr,
    EOS_ID_NUM: tl.constexpr,
):
    cur_batch = tl.program_id(0)
    cur_req_idx = tl.load(b_req_idx + cur_batch)
    cur_freqency = tl.load(req_to_frequency_penalty + cur_req_idx)
    cur_presence = tl.load(req_to_presence_penalty + cur_req_idx)
    cur_repetition = tl.load(req_to_repetition_penalty + cur_req_idx)

    cur_batch_start_index = tl.load(p_cumsum_seq_len + cur_batch)
    cur_batch_end_index = tl.load(p_cumsum_seq_len + cur_batch + 1)
    for block_start_index in range(cur_batch_start_index, cur_batch_end_index, BLOCK_P):
        cur_batch_id_offset = block_start_index + tl.arange(0, BLOCK_P)
        token_ids = tl.load(p_token_ids + cur_batch_id_offset, mask=cur_batch_id_offset < cur_batch_end_index, other=0)
        token_ids_count = tl.load(
            p_token_counts + cur_batch_id_offset, mask=cur_batch_id_offset < cur_batch_end_index, other=0
        )

        row_start_ptr = Logits + cur_batch * stride_logit_b
        cur_offset = row_start_ptr + token_ids
        cur_logits = tl.load(
            cur_offset, mask=(cur_batch_id_offset < cur_batch_end_index) & (token_ids < vocab_size), other=0.0
        )
        rep_logits = tl.where(cur_logits > 0, cur_logits / cur_repetition, cur_logits * cur_repetition)
        freq_logits = rep_logits - token_ids_count * cur_freqency
        pre_logits = freq_logits - cur_presence
        output_ptr = Logits + cur_batch * stride_logit_b + token_ids
        tl.store(output_ptr, pre_logits, mask=(cur_batch_id_offset < cur_batch_end_index) & (token_ids < vocab_size))

    mask_eos = tl.load(b_mask_eos_reqs + cur_batch)
    exponential_decay_length_penalty = tl.load(req_to_exponential_decay_length_penalty + cur_req_idx)
    length_penalty = tl.load(b_length_penalty_param + cur_batch)
    penalty_scale = tl.exp2(tl.log2(exponential_decay_length_penalty) * length_penalty) - 1

    for eos_index in range(EOS_ID_NUM):
        eos_id = tl.load(eos_ids + eos_index)
        cur_eos_logit_ptr = Logits + cur_batch * stride_logit_b + eos_id
        cur_eos_logit = tl.load(cur_eos_logit_ptr)
        cur_eos_logit = cur_eos_logit + tl.abs(cur_eos_logit) * penalty_scale
        cur_eos_logit = tl.where(mask_eos, -10000000.0, cur_eos_logit)
        tl.store(cur_eos_logit_ptr, cur_eos_logit)
    return


def make_inputs(B: int, V: int, P: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Logits [B, V] fp32; per request a set of distinct generated token ids (up to P of them, one request with
    none, some including an EOS id) with counts; penalties per request slot; a bool EOS mask."""
    import torch
    g = torch.Generator(device="cpu").manual_seed(seed)
    logits = torch.randn(B, V, generator=g) * 4
    ids, counts, lens = [], [], []
    for b in range(B):
        n = 0 if b == 1 else int(torch.randint(1, P + 1, (1,), generator=g))
        t = torch.randperm(V, generator=g)[:n]
        if b % 2 == 0 and n > 2:
            t[1] = EOS[0]
            t = torch.unique(t)[torch.randperm(len(torch.unique(t)), generator=g)]
        ids.append(t)
        counts.append(torch.randint(1, 6, (len(t),), generator=g))
        lens.append(len(t))
    cum = torch.tensor([0] + lens).cumsum(0).to(torch.int32)
    slots = B + 3
    dev = lambda t: t.to(device)
    return {"logits": dev(logits), "b_req_idx": dev(torch.randperm(slots, generator=g)[:B].to(torch.int32)),
            "presence": dev(torch.rand(slots, generator=g) * 0.5),
            "frequency": dev(torch.rand(slots, generator=g) * 0.3),
            "repetition": dev(torch.rand(slots, generator=g) * 0.5 + 1.0),
            "decay": dev(torch.rand(slots, generator=g) * 0.2 + 1.0),
            "length_param": dev(torch.randint(0, 40, (B,), generator=g).to(torch.int32)),
            "ids": dev(torch.cat(ids).to(torch.int32)), "counts": dev(torch.cat(counts).to(torch.int32)),
            "cum": dev(cum), "eos": dev(torch.tensor(EOS, dtype=torch.int32)),
            "mask_eos": dev(torch.rand(B, generator=g) < 0.3)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The penalised logits [B, V] fp32 (edited in place on a copy), as ``apply_penalty``."""
    Logits = inputs["logits"].clone()
    BLOCK_P = 1024
    num_warps = 8
    _fwd_kernel_apply_penalty[(Logits.shape[0],)](
        Logits=Logits, stride_logit_b=Logits.stride(0), stride_logit_s=Logits.stride(1),
        b_req_idx=inputs["b_req_idx"], req_to_presence_penalty=inputs["presence"],
        req_to_frequency_penalty=inputs["frequency"], req_to_repetition_penalty=inputs["repetition"],
        req_to_exponential_decay_length_penalty=inputs["decay"], b_length_penalty_param=inputs["length_param"],
        p_token_ids=inputs["ids"], p_token_counts=inputs["counts"], p_cumsum_seq_len=inputs["cum"],
        eos_ids=inputs["eos"], b_mask_eos_reqs=inputs["mask_eos"], vocab_size=Logits.shape[1],
        num_warps=num_warps, BLOCK_P=BLOCK_P, EOS_ID_NUM=inputs["eos"].shape[0])
    return Logits


def reference(inputs: dict[str, Any]) -> Any:
    """Repetition (divide positives, multiply negatives), frequency (count * f) and presence penalties at each
    generated id; then each EOS logit += |logit| * (decay ** length - 1), or -1e7 where the request masks EOS."""
    import torch
    out = inputs["logits"].clone()
    cum = inputs["cum"].tolist()
    for b in range(out.shape[0]):
        s = int(inputs["b_req_idx"][b])
        ids = inputs["ids"][cum[b]:cum[b + 1]].long()
        cnt = inputs["counts"][cum[b]:cum[b + 1]].float()
        l = out[b, ids]
        rep = torch.where(l > 0, l / inputs["repetition"][s], l * inputs["repetition"][s])
        out[b, ids] = rep - cnt * inputs["frequency"][s] - inputs["presence"][s]
        scale = torch.exp2(torch.log2(inputs["decay"][s]) * inputs["length_param"][b].float()) - 1
        for e in EOS:
            v = out[b, e]
            out[b, e] = -10000000.0 if bool(inputs["mask_eos"][b]) else v + v.abs() * scale
    return out


def flops(B: int, V: int, P: int) -> float:
    """About 6 operations per generated token: 6 * B * P (memory- and latency-bound)."""
    return 6.0 * B * P
