"""vLLM's GPU bad-words filter, ``_bad_words_kernel`` (vllm-project/vllm vllm/v1/worker/gpu/sample/bad_words.py, the
model runner V2 sampler, launched by ``apply_bad_words`` on a grid of (tokens, the batch's largest bad-word count)):
a token whose recent history ends with a bad word's prefix gets the bad word's last token's logit set to -inf.

The constructs: one program per (token, bad word); the token's request slot gathered through
``expanded_idx_mapping``, its bad-word count loaded and an **early ``return``** past it (``bw_idx >=
num_bad_words``); the token's draft position, the request's prompt and total lengths, the bad word's ``[start,
end)`` range all **loaded from memory**; a second **early ``return``** when the bad word's prefix is longer than
the history (``prefix_len > effective_len``); then an **entirely scalar loop** ``for i in range(prefix_len)``
(a trip count loaded from memory, 0 for a one-token bad word) carrying an int32 ``match`` flag ANDed with one
comparison a trip, whose body is an **``if`` / ``else`` on a loop-dependent scalar** (``actual_pos >= output_len``)
choosing **which of two arrays to load from** (the speculative tokens of this step, ``input_ids``, or the
request's stored output history, ``all_token_ids``): an ``scf.if`` yielding a loaded value; after the loop a
**conditional scalar store** (``if match:``) of -inf at a **data-dependent column** (``last_token``). Logits fp32
[tokens, vocab] written in place; Llama 3's 128,256-token vocabulary, 64 requests with 3 speculative tokens each
(256 rows), up to 32 bad words a request of 1 to 6 tokens, about half of them matching. No constexprs; Triton's
default 4 warps and 3 stages. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

MAX_BAD_WORDS_TOTAL_TOKENS = 1024
MAX_NUM_BAD_WORDS = 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_bad_words_kernel",
    "signature": {"logits_ptr": "*fp32", "logits_stride": "i32", "expanded_idx_mapping_ptr": "*i32",
                  "bad_word_token_ids_ptr": "*i32", "bad_word_token_ids_stride": "i32",
                  "bad_word_offsets_ptr": "*i32", "bad_word_offsets_stride": "i32", "num_bad_words_ptr": "*i32",
                  "all_token_ids_ptr": "*i32", "all_token_ids_stride": "i32", "prompt_len_ptr": "*i32",
                  "total_len_ptr": "*i32", "input_ids_ptr": "*i32", "expanded_local_pos_ptr": "*i32"},
    "constexprs": {},
    "num_warps": 4, "num_stages": 3,
    # bad_word_offsets_stride is 129 (MAX_NUM_BAD_WORDS + 1): not 16-divisible
    "divisibility": ["logits_ptr", "logits_stride", "expanded_idx_mapping_ptr", "bad_word_token_ids_ptr",
                     "bad_word_token_ids_stride", "bad_word_offsets_ptr", "num_bad_words_ptr",
                     "all_token_ids_ptr", "all_token_ids_stride", "prompt_len_ptr", "total_len_ptr",
                     "input_ids_ptr", "expanded_local_pos_ptr"]}
PROBLEM: dict[str, int] = {"B": 64, "SPEC": 3, "V": 128256, "R": 256, "MAXLEN": 4096, "NBW": 32}
SMALL: dict[str, int] = {"B": 5, "SPEC": 2, "V": 1000, "R": 8, "MAXLEN": 64, "NBW": 7}


@triton.jit
def _bad_words_kernel(
    logits_ptr,
    logits_stride,
    expanded_idx_mapping_ptr,
    bad_word_token_ids_ptr,
    bad_word_token_ids_stride,
    bad_word_offsets_ptr,
    bad_word_offsets_stride,
    num_bad_words_ptr,
    all_token_ids_ptr,
    all_token_ids_stride,
    prompt_len_ptr,
    total_len_ptr,
    input_ids_ptr,
    expanded_local_pos_ptr,
):
    token_idx = tl.program_id(0)
    bw_idx = tl.program_id(1)

    req_state_idx = tl.load(expanded_idx_mapping_ptr + token_idx)
    num_bad_words = tl.load(num_bad_words_ptr + req_state_idx)

    if bw_idx >= num_bad_words:
        return

    pos = tl.load(expanded_local_pos_ptr + token_idx)
    cur_req_first_pos = token_idx - pos

    prompt_len = tl.load(prompt_len_ptr + req_state_idx)
    total_len = tl.load(total_len_ptr + req_state_idx)
    output_len = total_len - prompt_len
    effective_len = output_len + pos

    bd_offsets_base = bad_word_offsets_ptr + req_state_idx * bad_word_offsets_stride
    bd_tokens_base = bad_word_token_ids_ptr + req_state_idx * bad_word_token_ids_stride
    output_base = all_token_ids_ptr + req_state_idx * all_token_ids_stride + prompt_len

    start = tl.load(bd_offsets_base + bw_idx)
    end = tl.load(bd_offsets_base + bw_idx + 1)
    bad_word_len = end - start
    prefix_len = bad_word_len - 1

    if prefix_len > effective_len:
        return

    last_token = tl.load(bd_tokens_base + end - 1)
    match = 1
    for i in range(prefix_len):
        expected = tl.load(bd_tokens_base + start + i)
        actual_pos = effective_len - prefix_len + i

        from_spec_input = actual_pos >= output_len
        if from_spec_input:
            spec_offset = actual_pos - output_len
            actual = tl.load(input_ids_ptr + cur_req_first_pos + spec_offset)
        else:
            actual = tl.load(output_base + actual_pos)

        match = match & (expected == actual)

    if match:
        tl.store(logits_ptr + token_idx * logits_stride + last_token, -float("inf"))


def _history(inp: dict[str, Any], t: int) -> list[int]:
    """The sequence a token's bad words are matched against: the request's output tokens, then the step's
    speculative input tokens before this one (effective_len of them in all)."""
    req = int(inp["expanded_idx_mapping"][t])
    pos = int(inp["expanded_local_pos"][t])
    pl, tl_ = int(inp["prompt_len"][req]), int(inp["total_len"][req])
    out = inp["all_token_ids"][req, pl:tl_].tolist()
    first = t - pos
    return out + inp["input_ids"][first:first + pos].tolist()


def make_inputs(B: int, SPEC: int, V: int, R: int, MAXLEN: int, NBW: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """B requests in random slots of R, each with 1 + SPEC rows (expanded_idx_mapping, expanded_local_pos int32);
    prompt lengths and output lengths (0 for one request) in all_token_ids [R, MAXLEN] int32 over a small alphabet
    (so that prefixes recur); input_ids [rows] int32 the step's tokens; per request up to NBW bad words (one request
    none) of 1 to 6 tokens, about half copied from the end of a row's history (a match), the rest random; the
    flattened tokens [R, 1024] and offsets [R, 129] int32; logits [rows, V] fp32."""
    import torch
    g = torch.Generator(device="cpu").manual_seed(seed)
    rows = B * (1 + SPEC)
    slots = torch.randperm(R, generator=g)[:B]
    mapping = slots.repeat_interleave(1 + SPEC).to(torch.int32)
    local_pos = torch.arange(1 + SPEC).repeat(B).to(torch.int32)
    prompt_len = torch.zeros(R, dtype=torch.int32)
    total_len = torch.zeros(R, dtype=torch.int32)
    all_tok = torch.randint(0, 6, (R, MAXLEN), generator=g, dtype=torch.int32)
    for b, s in enumerate(slots.tolist()):
        pl = int(torch.randint(1, MAXLEN // 4, (1,), generator=g))
        ol = 0 if b == 1 else int(torch.randint(1, MAXLEN // 2, (1,), generator=g))
        prompt_len[s], total_len[s] = pl, pl + ol
    input_ids = torch.randint(0, 6, (rows,), generator=g, dtype=torch.int32)
    inp = {"expanded_idx_mapping": mapping, "expanded_local_pos": local_pos, "prompt_len": prompt_len,
           "total_len": total_len, "all_token_ids": all_tok, "input_ids": input_ids}
    bw_tok = torch.zeros((R, MAX_BAD_WORDS_TOTAL_TOKENS), dtype=torch.int32)
    bw_off = torch.zeros((R, MAX_NUM_BAD_WORDS + 1), dtype=torch.int32)
    num_bw = torch.zeros(R, dtype=torch.int32)
    for b, s in enumerate(slots.tolist()):
        n = 0 if b == 2 else int(torch.randint(1, NBW + 1, (1,), generator=g))
        flat: list[int] = []
        offs = [0]
        for _ in range(n):
            ln = int(torch.randint(1, 7, (1,), generator=g))
            t = b * (1 + SPEC) + int(torch.randint(0, 1 + SPEC, (1,), generator=g))
            hist = _history(inp, t)
            last = int(torch.randint(0, V, (1,), generator=g))
            if float(torch.rand(1, generator=g)) < 0.5 and len(hist) >= ln - 1:
                word = (hist[len(hist) - (ln - 1):] if ln > 1 else []) + [last]
            else:
                word = torch.randint(0, 6, (ln - 1,), generator=g).tolist() + [last]
            flat.extend(word)
            offs.append(len(flat))
        num_bw[s] = n
        bw_tok[s, :len(flat)] = torch.tensor(flat, dtype=torch.int32)
        bw_off[s, :len(offs)] = torch.tensor(offs, dtype=torch.int32)
    logits = torch.randn((rows, V), generator=g)
    out = {**inp, "bad_word_token_ids": bw_tok, "bad_word_offsets": bw_off, "num_bad_words": num_bw,
           "logits": logits, "max_num_bad_words": int(num_bw.max())}
    return {k: (v.to(device) if hasattr(v, "to") else v) for k, v in out.items()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The filtered logits [rows, V] fp32 (the kernel works in place: on a copy of the input)."""
    logits = inputs["logits"].clone()
    bt, bo, at = inputs["bad_word_token_ids"], inputs["bad_word_offsets"], inputs["all_token_ids"]
    _bad_words_kernel[(logits.shape[0], inputs["max_num_bad_words"])](
        logits, logits.stride(0), inputs["expanded_idx_mapping"], bt, bt.stride(0), bo, bo.stride(0),
        inputs["num_bad_words"], at, at.stride(0), inputs["prompt_len"], inputs["total_len"], inputs["input_ids"],
        inputs["expanded_local_pos"],
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return logits


def reference(inputs: dict[str, Any]) -> Any:
    """vLLM's ``_apply_bad_words_single_batch`` per row: a bad word whose prefix ends the row's history bans its
    last token."""
    cpu = {k: (v.cpu() if hasattr(v, "cpu") else v) for k, v in inputs.items()}
    logits = inputs["logits"].clone()
    for t in range(logits.shape[0]):
        req = int(cpu["expanded_idx_mapping"][t])
        hist = _history(cpu, t)
        offs = cpu["bad_word_offsets"][req].tolist()
        toks = cpu["bad_word_token_ids"][req].tolist()
        for w in range(int(cpu["num_bad_words"][req])):
            word = toks[offs[w]:offs[w + 1]]
            p = len(word) - 1
            if p > len(hist):
                continue
            if p == 0 or hist[len(hist) - p:] == word[:p]:
                logits[t, word[-1]] = -float("inf")
    return logits


def flops(B: int, SPEC: int, V: int, R: int, MAXLEN: int, NBW: int) -> float:
    """About one comparison per bad-word token a row (memory- and latency-bound)."""
    return float(B * (1 + SPEC) * NBW * 3)
