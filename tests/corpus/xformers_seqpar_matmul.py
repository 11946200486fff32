"""xFormers' ``_xformers_seqpar_matmul_kernel`` (xformers/ops/_triton/sequence_parallel_fused_kernels.py, the
all-gather + matmul of its sequence-parallel fused linear layers, rewritten here): C_i = A @ B_i for three weights at
once (``grid_n = grid_n1 + grid_n2 + grid_n3``), A [M, K] gathered from world_size ranks' shards. ``determine_tile``
reorders the program ids so the local shard's tiles come first, then each peer's in arrival order
(``direction``: BACKWARDS_WITH_ME_FIRST), GROUP_M-swizzles the rest, and picks B, C, N and the A / C shard by
``tl.where`` on POINTERS (a scalar select of kernel arguments, twice nested). ``wait_for_recv`` then spin-waits,
before any load of a peer's rows, on that peer's counter with ``while tl.atomic_cas(wait_counter, 0, 0) !=
seq_num`` (a CAS as an atomic load; the spin count reset every NUM_SPINS_BETWEEN_TIMEOUT_CHECKS), guarded by
``if (_wait and do_wait) and other_rank != my_rank`` (``and`` on runtime i1 scalars). ``do_matmul`` is the K loop:
rows and columns wrapped ``% M`` / ``% N`` and hinted with ``tl.max_contiguous(tl.multiple_of(...))``, EVEN_K's
unmasked loads, ``acc += tl.dot(a, b)``, pointers advanced by ``+=``; C stored masked (SPLIT_K 1). ``trigger_send``
counts the finished tiles of each peer with ``tl.atomic_add(counters + other_rank + tl.arange(0, 1), 1,
sem="acq_rel")`` and the last one publishes the sequence number with a masked ``tl.atomic_xchg(..., sem="release")``.
Three helper ``@triton.jit`` functions called from the kernel; module constants as ``tl.constexpr``. The timeout
(``tl.extra.cuda.globaltimer`` and a ``tl.device_assert`` under ``debug=True``) is left out: Triton's interpreter
has no globaltimer. One GPU stands in for the ranks: every peer's counter is already at seq_num, the local shard
is a separate tensor and the gathered buffer's own slot holds NaN (read it and C is NaN). fp16 in, fp32 acc.
Triton 3.6's interpreter cannot pass the Python bools (do_wait, do_write, _wait: an i32 array typed i1): checked in
it with its argument conversion taught bools."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BACKWARDS_WITH_ME_FIRST = tl.constexpr(0)
FORWARDS_WITH_ME_LAST = tl.constexpr(1)
NUM_SPINS_BETWEEN_TIMEOUT_CHECKS = tl.constexpr(1000)
_RUNTIME = ("do_wait", "do_write", "direction", "stripe", "seq_num", "num_stripes", "_wait", "my_rank",
            "world_size")
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_xformers_seqpar_matmul_kernel",
    "signature": {"A_my_shard": "*fp16", "A": "*fp16", "B1": "*fp16", "B2": "*fp16", "B3": "*fp16",
                  "C1": "*fp16", "C2": "*fp16", "C3": "*fp16", "C1_my_shard": "*fp16", "C2_my_shard": "*fp16",
                  "C3_my_shard": "*fp16", "wait_counters": "*i32", "blocks_done_counters": "*i32",
                  "write_counters": "*i32", "M": "i32", "N1": "i32", "N2": "i32", "N3": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
                  "stride_cm": "i32", "stride_cn": "constexpr",
                  "do_wait": "i1", "do_write": "i1", "direction": "i32", "stripe": "i32", "seq_num": "i32",
                  "num_stripes": "i32", "_wait": "i1", "my_rank": "i32", "world_size": "i32"},
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32,
                   "GROUP_M": 8, "SPLIT_K": 1, "EVEN_K": True, "ACC_TYPE": "tl.float32"},
    "num_warps": 4, "num_stages": 4,
    "divisibility": ["A_my_shard", "A", "B1", "B2", "B3", "C1", "C2", "C3", "C1_my_shard", "C2_my_shard",
                     "C3_my_shard", "M", "K", "stride_am", "stride_bk", "stride_cm"]}
PROBLEM: dict[str, Any] = {"world_size": 8, "m_per_rank": 1024, "k": 4096, "ns": (1024, 1024, 2048), "my_rank": 3}
SMALL: dict[str, Any] = {"world_size": 3, "m_per_rank": 80, "k": 96, "ns": (64, 96, 48), "my_rank": 1}


@triton.jit
def determine_tile(A, B1, B2, B3, C1, C2, C3, A_my_shard, C1_my_shard, C2_my_shard, C3_my_shard, M, N1, N2, N3,
                   my_rank, world_size, direction, stride_am, stride_cm, BLOCK_M, BLOCK_N, GROUP_M):
    M_per_rank = M // world_size
    pid = tl.program_id(0)
    grid_m_per_rank = tl.cdiv(M_per_rank, BLOCK_M)
    grid_n1 = tl.cdiv(N1, BLOCK_N)
    grid_n2 = tl.cdiv(N2, BLOCK_N)
    grid_n3 = tl.cdiv(N3, BLOCK_N)
    grid_n = grid_n1 + grid_n2 + grid_n3
    blocks_per_rank = grid_m_per_rank * grid_n          # the local shard's tiles first, then each peer's
    if direction == BACKWARDS_WITH_ME_FIRST:
        other_rank = (my_rank - (pid // blocks_per_rank) + world_size) % world_size
    else:
        other_rank = (my_rank + (pid // blocks_per_rank + 1)) % world_size
    pid = pid % blocks_per_rank
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m_per_rank - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // group_size
    in_1 = pid_n < grid_n1
    in_2 = pid_n < grid_n1 + grid_n2
    B = tl.where(in_1, B1, tl.where(in_2, B2, B3))
    C = tl.where(in_1, C1, tl.where(in_2, C2, C3))
    C_my_shard = tl.where(in_1, C1_my_shard, tl.where(in_2, C2_my_shard, C3_my_shard))
    N = tl.where(in_1, N1, tl.where(in_2, N2, N3))
    pid_n = tl.where(in_1, pid_n, tl.where(in_2, pid_n - grid_n1, pid_n - grid_n1 - grid_n2))
    A = tl.where(other_rank == my_rank, A_my_shard, A + other_rank * M_per_rank * stride_am)
    C = tl.where(other_rank == my_rank, C_my_shard, C + other_rank * M_per_rank * stride_cm)
    return A, B, C, M_per_rank, N, pid_m, pid_n, other_rank, blocks_per_rank


@triton.jit
def wait_for_recv(seq_num, wait_counters, other_rank, my_rank, stripe, num_stripes, _wait, do_wait):
    if (_wait and do_wait) and other_rank != my_rank:
        wait_counter = wait_counters + other_rank * num_stripes + stripe
        num_spins = 0
        while tl.atomic_cas(wait_counter, 0, 0) != seq_num:    # no atomic load in Triton: a CAS reads it
            num_spins += 1
            if num_spins == NUM_SPINS_BETWEEN_TIMEOUT_CHECKS:
                num_spins = 0


@triton.jit
def do_matmul(A, B, C, pid_m, pid_n, pid_z, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
              stride_cn, BLOCK_M, BLOCK_N, BLOCK_K, ACC_TYPE, SPLIT_K, EVEN_K):
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ram = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    rk = pid_z * BLOCK_K + tl.arange(0, BLOCK_K)
    A = A + (ram[:, None] * stride_am + rk[None, :] * stride_ak)
    B = B + (rk[:, None] * stride_bk + rbn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        if EVEN_K:
            a = tl.load(A)
            b = tl.load(B)
        else:
            k_remaining = K - k * (BLOCK_K * SPLIT_K)
            a = tl.load(A, mask=rk[None, :] < k_remaining, other=0.0)
            b = tl.load(B, mask=rk[:, None] < k_remaining, other=0.0)
        acc += tl.dot(a, b)
        A += BLOCK_K * SPLIT_K * stride_ak
        B += BLOCK_K * SPLIT_K * stride_bk
    acc = acc.to(C.dtype.element_ty)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)            # recomputed after the loop (fewer live registers)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    C = C + (rm[:, None] * stride_cm + rn[None, :] * stride_cn)
    mask = (rm < M)[:, None] & (rn < N)[None, :]
    if SPLIT_K == 1:
        tl.store(C, acc, mask=mask)
    else:
        tl.atomic_add(C, acc, mask=mask)


@triton.jit
def trigger_send(seq_num, blocks_done_counters, write_counters, other_rank, my_rank, num_stripes, stripe,
                 num_blocks_3d, _wait, do_write):
    if (_wait and do_write) and other_rank != my_rank:
        num_blocks_done = tl.atomic_add(blocks_done_counters + other_rank + tl.arange(0, 1), 1, sem="acq_rel") + 1
        tl.atomic_xchg(write_counters + other_rank * num_stripes + stripe + tl.arange(0, 1), seq_num,
                       mask=num_blocks_done == num_blocks_3d, sem="release")


@triton.jit(do_not_specialize=["wait_counters", "blocks_done_counters", "write_counters", "do_wait", "do_write",
                               "direction", "stripe", "seq_num", "num_stripes", "_wait", "my_rank", "world_size"])
def _xformers_seqpar_matmul_kernel(
        A_my_shard, A, B1, B2, B3, C1, C2, C3, C1_my_shard, C2_my_shard, C3_my_shard,
        wait_counters, blocks_done_counters, write_counters, M, N1, N2, N3, K,
        stride_am, stride_ak: tl.constexpr, stride_bk, stride_bn: tl.constexpr, stride_cm, stride_cn: tl.constexpr,
        do_wait, do_write, direction, stripe, seq_num, num_stripes, _wait, my_rank, world_size,
        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
        SPLIT_K: tl.constexpr, EVEN_K: tl.constexpr, ACC_TYPE: tl.constexpr):
    # twill corpus rendition: the tile's peer waited for, the K loop, the peer's tile count published
    A, B, C, M, N, pid_m, pid_n, other_rank, num_blocks_2d = determine_tile(
        A, B1, B2, B3, C1, C2, C3, A_my_shard, C1_my_shard, C2_my_shard, C3_my_shard, M, N1, N2, N3,
        my_rank, world_size, direction, stride_am, stride_cm, BLOCK_M, BLOCK_N, GROUP_M)
    pid_z = tl.program_id(1)
    wait_for_recv(seq_num, wait_counters, other_rank, my_rank, stripe, num_stripes, _wait, do_wait)
    do_matmul(A, B, C, pid_m, pid_n, pid_z, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
              stride_cn, BLOCK_M, BLOCK_N, BLOCK_K, ACC_TYPE, SPLIT_K, EVEN_K)
    trigger_send(seq_num, blocks_done_counters, write_counters, other_rank, my_rank, num_stripes, stripe,
                 num_blocks_2d * SPLIT_K, _wait, do_write)


def make_inputs(world_size: int, m_per_rank: int, k: int, ns: tuple[int, int, int], my_rank: int,
                device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """The gathered A [world_size * m_per_rank, K] (this rank's slot NaN: its rows come from a_my_shard), the three
    weights as column slices of one [K, sum(ns)] (xFormers asserts equal strides), the peers' wait counters already
    at seq_num for stripe 1 of 2."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    m = world_size * m_per_rank
    a = torch.randn((m, k), device=device, generator=g).half()
    a_my_shard = a[my_rank * m_per_rank:(my_rank + 1) * m_per_rank].clone()
    a[my_rank * m_per_rank:(my_rank + 1) * m_per_rank] = float("nan")
    w = (torch.randn((k, sum(ns)), device=device, generator=g) / k ** 0.5).half()
    seq_num, num_stripes, stripe = 5, 2, 1
    wait = torch.zeros((world_size, num_stripes), device=device, dtype=torch.int32)
    wait[:, stripe] = seq_num
    return {"a": a, "a_my_shard": a_my_shard, "w": w, "ns": tuple(ns), "my_rank": my_rank,
            "world_size": world_size, "wait_counters": wait, "seq_num": seq_num, "stripe": stripe}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(C [M, sum(ns)] holding C1 | C2 | C3, the write counters as float) after xFormers' _launch_triton_matmul."""
    import torch
    a, w, ns, rank, world = inputs["a"], inputs["w"], inputs["ns"], inputs["my_rank"], inputs["world_size"]
    m, k = a.shape
    c = torch.empty((m, w.shape[1]), device=a.device, dtype=a.dtype)
    cols = [sum(ns[:i]) for i in range(3)]
    bs = [w[:, o:o + n] for o, n in zip(cols, ns)]
    cs = [c[:, o:o + n] for o, n in zip(cols, ns)]
    cs_mine = [x.tensor_split(world)[rank] for x in cs]
    wait = inputs["wait_counters"]
    done = torch.zeros((world,), device=a.device, dtype=torch.int32)
    written = torch.zeros_like(wait)
    BLOCK_M, BLOCK_N, BLOCK_K = config.get("BLOCK_M", 128), config.get("BLOCK_N", 128), config.get("BLOCK_K", 32)
    tiles = triton.cdiv(m // world, BLOCK_M) * sum(triton.cdiv(n, BLOCK_N) for n in ns)
    _xformers_seqpar_matmul_kernel[(world * tiles, 1)](
        inputs["a_my_shard"], a, *bs, *cs, *cs_mine, wait, done, written, m, *ns, k,
        a.stride(0), a.stride(1), w.stride(0), w.stride(1), c.stride(0), c.stride(1),
        True, True, 0, inputs["stripe"], inputs["seq_num"], wait.shape[1], True, rank, world,
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=8, SPLIT_K=1, EVEN_K=k % BLOCK_K == 0,
        ACC_TYPE=tl.float32, num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 4))
    return c, written.float()


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    a, rank, world = inputs["a"].double().clone(), inputs["my_rank"], inputs["world_size"]
    mp = a.shape[0] // world
    a[rank * mp:(rank + 1) * mp] = inputs["a_my_shard"].double()
    written = torch.zeros(inputs["wait_counters"].shape, device=a.device)
    written[:, inputs["stripe"]] = inputs["seq_num"]
    written[rank] = 0.0
    return (a @ inputs["w"].double()).to(inputs["a"].dtype), written
