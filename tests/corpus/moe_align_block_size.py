"""vLLM's Triton `moe_align_block_size` (model_executor/layers/fused_moe, the `moe_align_block_size_triton`
path, also in SGLang): four kernels launched back to back; the one specified here is
`moe_align_block_size_stage4`, which (1) loops `for i in range(start_idx, end_idx, block_size)` over loaded
(data-dependent) cumsum bounds storing the expert id of each padded block, then (2) loops
`for i in range(start_idx, tl.minimum(start_idx + tokens_per_thread, numel))` over this program's slice of the
flattened topk ids doing scalar loads, a gather of the per-(program, expert) running count, a scalar scatter of
the token index into `sorted_token_ids` and a read-modify-write store of the count (a loop-carried dependence
through memory: the same `tokens_cnts` address can be loaded right after it was stored). Integer (i32) tensors
only, all scalar (no tl.arange), `numel` / `tokens_per_thread` constexpr as vLLM declares them. Stages 1-3
(per-program histograms, column prefix sums, padded cumsum) run as the library runs them."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

NUM_EXPERTS = 64
BLOCK_SIZE = 64
NUMEL = 1998
TOKENS_PER_THREAD = (NUMEL + NUM_EXPERTS - 1) // NUM_EXPERTS
TWILL_SPEC: dict[str, Any] = {
    "kernel": "moe_align_block_size_stage4",
    "signature": {"topk_ids_ptr": "*i32", "sorted_token_ids_ptr": "*i32", "expert_ids_ptr": "*i32",
                  "tokens_cnts_ptr": "*i32", "cumsum_ptr": "*i32"},
    "constexprs": {"num_experts": NUM_EXPERTS, "block_size": BLOCK_SIZE, "numel": NUMEL,
                   "tokens_per_thread": TOKENS_PER_THREAD},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["topk_ids_ptr", "sorted_token_ids_ptr", "expert_ids_ptr", "tokens_cnts_ptr", "cumsum_ptr"]}
# numel is a constexpr of the kernel, so SMALL keeps numel = num_tokens * topk (1998) with another shape
PROBLEM: dict[str, int] = {"num_tokens": 333, "topk": 6}
SMALL: dict[str, int] = {"num_tokens": 999, "topk": 2}


@triton.jit
def moe_align_block_size_stage1(
    topk_ids_ptr,
    tokens_cnts_ptr,
    num_experts: tl.constexpr,
    numel: tl.constexpr,
    tokens_per_thread: tl.constexpr,
):
    pid = tl.program_id(0)

    start_idx = pid * tokens_per_thread

    off_c = (pid + 1) * num_experts

    for i in range(tokens_per_thread):
        if start_idx + i < numel:
            idx = tl.load(topk_ids_ptr + start_idx + i)
            token_cnt = tl.load(tokens_cnts_ptr + off_c + idx)
            tl.store(tokens_cnts_ptr + off_c + idx, token_cnt + 1)


@triton.jit
def moe_align_block_size_stage2(
    tokens_cnts_ptr,
    num_experts: tl.constexpr,
):
    pid = tl.program_id(0)

    last_cnt = 0
    for i in range(1, num_experts + 1):
        token_cnt = tl.load(tokens_cnts_ptr + i * num_experts + pid)
        last_cnt = last_cnt + token_cnt
        tl.store(tokens_cnts_ptr + i * num_experts + pid, last_cnt)


@triton.jit
def moe_align_block_size_stage3(
    total_tokens_post_pad_ptr,
    tokens_cnts_ptr,
    cumsum_ptr,
    num_experts: tl.constexpr,
    block_size: tl.constexpr,
):
    last_cumsum = 0
    off_cnt = num_experts * num_experts
    for i in range(1, num_experts + 1):
        token_cnt = tl.load(tokens_cnts_ptr + off_cnt + i - 1)
        last_cumsum = last_cumsum + tl.cdiv(token_cnt, block_size) * block_size
        tl.store(cumsum_ptr + i, last_cumsum)
    tl.store(total_tokens_post_pad_ptr, last_cumsum)


@triton.jit
def moe_align_block_size_stage4(
    topk_ids_ptr,
    sorted_token_ids_ptr,
    expert_ids_ptr,
    tokens_cnts_ptr,
    cumsum_ptr,
    num_experts: tl.constexpr,
    block_size: tl.constexpr,
    numel: tl.constexpr,
    tokens_per_thread: tl.constexpr,
):
    pid = tl.program_id(0)
    start_idx = tl.load(cumsum_ptr + pid)
    end_idx = tl.load(cumsum_ptr + pid + 1)

    for i in range(start_idx, end_idx, block_size):
        tl.store(expert_ids_ptr + i // block_size, pid)

    start_idx = pid * tokens_per_thread
    off_t = pid * num_experts

    for i in range(start_idx, tl.minimum(start_idx + tokens_per_thread, numel)):
        expert_id = tl.load(topk_ids_ptr + i)
        token_cnt = tl.load(tokens_cnts_ptr + off_t + expert_id)
        rank_post_pad = token_cnt + tl.load(cumsum_ptr + expert_id)
        tl.store(sorted_token_ids_ptr + rank_post_pad, i)
        tl.store(tokens_cnts_ptr + off_t + expert_id, token_cnt + 1)


def make_inputs(num_tokens: int, topk: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    # skewed routing: half the choices go to the first 8 experts, some experts get none
    hot = torch.randint(0, 8, (num_tokens, topk), device=device, generator=g)
    cold = torch.randint(0, NUM_EXPERTS - 5, (num_tokens, topk), device=device, generator=g)
    pick = torch.rand((num_tokens, topk), device=device, generator=g) < 0.5
    topk_ids = torch.where(pick, hot, cold).to(torch.int32)
    return {"topk_ids": topk_ids}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(sorted_ids, expert_ids, num_tokens_post_pad) as moe_align_block_size_triton computes them."""
    import torch
    topk_ids = inputs["topk_ids"]
    numel = topk_ids.numel()
    num_experts, block_size = NUM_EXPERTS, BLOCK_SIZE
    max_num_tokens_padded = numel + num_experts * (block_size - 1)
    sorted_ids = torch.empty((max_num_tokens_padded, ), dtype=torch.int32, device=topk_ids.device)
    sorted_ids.fill_(numel)
    max_num_m_blocks = triton.cdiv(max_num_tokens_padded, block_size)
    expert_ids = torch.zeros((max_num_m_blocks, ), dtype=torch.int32, device=topk_ids.device)
    num_tokens_post_pad = torch.empty((1, ), dtype=torch.int32, device=topk_ids.device)

    grid = (num_experts, )
    tokens_cnts = torch.zeros((num_experts + 1, num_experts), dtype=torch.int32, device=topk_ids.device)
    cumsum = torch.zeros((num_experts + 1, ), dtype=torch.int32, device=topk_ids.device)
    tokens_per_thread = triton.cdiv(numel, num_experts)

    moe_align_block_size_stage1[grid](topk_ids, tokens_cnts, num_experts, numel, tokens_per_thread)
    moe_align_block_size_stage2[grid](tokens_cnts, num_experts)
    moe_align_block_size_stage3[(1, )](num_tokens_post_pad, tokens_cnts, cumsum, num_experts, block_size)
    moe_align_block_size_stage4[grid](topk_ids, sorted_ids, expert_ids, tokens_cnts, cumsum, num_experts, block_size,
                                      numel, tokens_per_thread, num_warps=config.get("num_warps", 4),
                                      num_stages=config.get("num_stages", 3))
    return sorted_ids, expert_ids, num_tokens_post_pad


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    ids = inputs["topk_ids"].flatten().long()
    dev = ids.device
    numel = ids.numel()
    E, Bs = NUM_EXPERTS, BLOCK_SIZE
    max_pad = numel + E * (Bs - 1)
    counts = torch.bincount(ids, minlength=E)
    padded = (counts + Bs - 1) // Bs * Bs
    cumsum = torch.zeros(E + 1, dtype=torch.long, device=dev)
    cumsum[1:] = torch.cumsum(padded, 0)
    sorted_ids = torch.full((max_pad, ), numel, dtype=torch.long, device=dev)
    expert_ids = torch.zeros(((max_pad + Bs - 1) // Bs, ), dtype=torch.long, device=dev)
    for e in range(E):
        toks = torch.nonzero(ids == e).flatten()        # ascending token index, as stage 4's order gives
        lo = int(cumsum[e])
        sorted_ids[lo:lo + toks.numel()] = toks
        expert_ids[lo // Bs:int(cumsum[e + 1]) // Bs] = e
    total = torch.tensor([int(cumsum[E])], dtype=torch.long, device=dev)
    return sorted_ids, expert_ids, total
