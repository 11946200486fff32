"""AITER's persistent grouped GEMM (MoE expert GEMM) with work stealing, ``gmm_kernel`` with its helpers
``_work_stealing_gmm``, ``_total_gmm_tiles``, ``_resolve_gmm_tile``, ``_process_gmm_tile``, ``_gmm``,
``_remap_xcd_tile_grid`` (ROCm/aiter aiter/ops/triton/_triton_kernels/gmm.py, commit e4048607) and ``remap_xcd`` /
``pid_grid`` (aiter/ops/triton/utils/_triton/pid_preprocessing.py), launched by ``gmm(lhs, rhs, group_sizes, bias,
work_stealing=True)`` in aiter/ops/triton/gmm.py. Geometry gpt-oss-120b's gate/up projection (128 experts, hidden
2880, 2 x 2880 outputs, expert biases) at 4096 tokens x top-4.

The constructs: a **constexpr branch between two whole schedulers** (``if WORK_STEALING``: ``_work_stealing_gmm``;
else ``_gmm``: both traced, one taken); before the tile loop a [BLOCK_SIZE_G = 128] vector of group sizes reduced
to the total tile count (``tl.cdiv`` of a tensor, ``tl.cumsum(..., dtype=INT_TYPE)`` with **INT_TYPE the constexpr
``group_sizes_ptr.type.element_ty``**, ``tl.max``) and ``tl.device_assert``s; an **outer ``while tile <
total_tiles`` loop whose next tile comes from ``tl.atomic_add(tile_counter_ptr, 1, sem="relaxed")``** (dynamic
work stealing: the trip count is decided by other programs); per tile **the group is resolved by reloading and
re-scanning the group-size vector** (two cumsums, a boolean ``tl.sum`` as the group index, three masked ``tl.max``
gathers, ``tl.device_assert``s), the tile coordinates through **AMD's XCD remap** (``remap_xcd``: a runtime
``if xcd < tall_xcds`` choosing between two index formulas, and a ``if tall_xcds == 0`` reassigning a cast
constexpr) then ``pid_grid``; **int64 row offsets wrapped with ``% m``** (the group's row count: a runtime modulo
of a tensor by a scalar) and ``% N``; the **inner K loop** ``for k in range(tl.cdiv(K, BLOCK_SIZE_K))`` with a
constexpr ``if K_DIVISIBLE_BY_BLOCK_SIZE_K`` choosing unmasked loads, ``acc = tl.dot(lhs, rhs, acc=acc)`` and the
**B pointer advanced by ``BLOCK_SIZE_K * N`` or ``BLOCK_SIZE_K`` under a constexpr ``if TRANS_RHS``**; after it the
expert's bias row (``USE_BIAS``) added in fp32 and a masked store into the group's rows.

Port notes: the kernel and helpers verbatim, without ``gmm_kernel``'s ``@triton.heuristics`` (BLOCK_SIZE_G =
next_power_of_2(G) = 128 and K_DIVISIBLE_BY_BLOCK_SIZE_K = True go in TWILL_SPEC). AITER's configs are tuned for
MI300 (256 x 256 x 64 tiles, 304 CUs, 1 stage); on H100 the port uses 128 x 128 x 64 tiles, 8 warps, 3 stages and
GRID_DIM = 132 (one program per SM), as the H100 config the file lacks. ``work_stealing=True`` (not the library's
default) as that is the path with the atomic scheduler; the tile counter is the launcher's int32 scalar filled with
GRID_DIM. ``remap_xcd`` only permutes tile order (8 XCDs are AMD's; harmless on NVIDIA). Group sizes random with
skew (some experts empty) summing to M. G and the block sizes are constexpr-bound (BLOCK_SIZE_G): SMALL keeps
G = 128 with a small M, K, N."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

G_, BM, BN, BK, GRID = 128, 128, 128, 64, 132
TWILL_SPEC: dict[str, Any] = {
    "kernel": "gmm_kernel",
    "signature": {"lhs_ptr": "*bf16", "rhs_ptr": "*bf16", "group_sizes_ptr": "*i32", "out_ptr": "*bf16",
                  "bias_ptr": "*bf16", "tile_counter_ptr": "*i32", "M": "i32", "K": "i32", "N": "i32", "G": "i32"},
    "constexprs": {"TRANS_RHS": False, "BLOCK_SIZE_G": G_, "BLOCK_SIZE_M": BM, "BLOCK_SIZE_K": BK,
                   "BLOCK_SIZE_N": BN, "K_DIVISIBLE_BY_BLOCK_SIZE_K": True, "GROUP_SIZE": 1, "GRID_DIM": GRID,
                   "USE_BIAS": True, "WORK_STEALING": True},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["M", "K", "N", "G"]}
PROBLEM: dict[str, int] = {"M": 16384, "K": 2880, "N": 5760, "G": G_}
SMALL: dict[str, int] = {"M": 700, "K": 128, "N": 256, "G": G_}


@triton.jit
def remap_xcd(pid, GRID_MN, NUM_XCDS: tl.constexpr = 8):
    ## pid remapping on xcds
    # Number of pids per XCD in the new arrangement
    pids_per_xcd = (GRID_MN + NUM_XCDS - 1) // NUM_XCDS
    # When GRID_MN cannot divide NUM_XCDS, some xcds will have
    # pids_per_xcd pids, the other will have pids_per_xcd - 1 pids.
    # We calculate the number of xcds that have pids_per_xcd pids as
    # tall_xcds
    tall_xcds = GRID_MN % NUM_XCDS
    if tall_xcds == 0:
        tall_xcds = tl.cast(NUM_XCDS, tall_xcds.type)
    # Compute current XCD and local pid within the XCD
    xcd = pid % NUM_XCDS
    local_pid = pid // NUM_XCDS
    # Calculate new pid based on the new grouping
    # Note that we need to consider the following two cases:
    # 1. the current pid is on a tall xcd
    # 2. the current pid is on a short xcd
    if xcd < tall_xcds:
        pid = xcd * pids_per_xcd + local_pid
    else:
        pid = (
            tall_xcds * pids_per_xcd
            + (xcd - tall_xcds) * (pids_per_xcd - 1)
            + local_pid
        )

    return pid


@triton.jit
def pid_grid(pid: int, num_pid_m: int, num_pid_n: int, GROUP_SIZE_M: tl.constexpr = 1):
    """
    Maps 1D pid to 2D grid coords (pid_m, pid_n).

    Args:
        - pid: 1D pid
        - num_pid_m: grid m size
        - num_pid_n: grid n size
        - GROUP_SIZE_M: tl.constexpr: default is 1
    """
    if GROUP_SIZE_M == 1:
        pid_m = pid // num_pid_n
        pid_n = pid % num_pid_n
    else:
        num_pid_in_group = GROUP_SIZE_M * num_pid_n
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * GROUP_SIZE_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
        tl.assume(group_size_m >= 0)
        pid_m = first_pid_m + (pid % group_size_m)
        pid_n = (pid % num_pid_in_group) // group_size_m

    return pid_m, pid_n


# XCD remapping followed by 1D PID to 2D grid mapping.
@triton.jit
def _remap_xcd_tile_grid(
    tile_in_mm,
    num_row_tiles,
    num_col_tiles,
    GROUP_SIZE: tl.constexpr = 1,
    NUM_XCDS: tl.constexpr = 8,
):
    return pid_grid(
        remap_xcd(tile_in_mm, num_row_tiles * num_col_tiles, NUM_XCDS=NUM_XCDS),
        num_row_tiles,
        num_col_tiles,
        GROUP_SIZE_M=GROUP_SIZE,
    )


# GMM kernel.
# ------------------------------------------------------------------------------


@triton.jit
def _total_gmm_tiles(
    group_sizes_ptr,
    G: int,
    num_n_tiles: int,
    BLOCK_SIZE_G: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    INT_TYPE: tl.constexpr,
):
    g_range = tl.arange(0, BLOCK_SIZE_G)
    g_mask = g_range < G
    group_sizes = tl.load(group_sizes_ptr + g_range, mask=g_mask, other=0)
    num_m_tiles = tl.cdiv(group_sizes, BLOCK_SIZE_M)
    num_tiles = num_m_tiles * num_n_tiles
    cumsum_tile = tl.where(g_mask, tl.cumsum(num_tiles, dtype=INT_TYPE), 0)
    total_tiles = tl.max(cumsum_tile)
    return total_tiles


@triton.jit
def _resolve_gmm_tile(
    group_sizes_ptr,
    tile,
    G: int,
    num_n_tiles: int,
    BLOCK_SIZE_G: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    INT_TYPE: tl.constexpr,
):
    g_range = tl.arange(0, BLOCK_SIZE_G)
    g_mask = g_range < G
    group_sizes = tl.load(group_sizes_ptr + g_range, mask=g_mask, other=0)
    num_m_tiles = tl.cdiv(group_sizes, BLOCK_SIZE_M)
    num_tiles = num_m_tiles * num_n_tiles
    cumsum_tile = tl.where(g_mask, tl.cumsum(num_tiles, dtype=INT_TYPE), 0)
    cumsum_m = tl.where(g_mask, tl.cumsum(group_sizes, dtype=INT_TYPE), 0)
    g = tl.sum((cumsum_tile <= tile) & g_mask, dtype=INT_TYPE)
    tl.device_assert(g < G, "g >= G")
    prev_mask = g_range < g
    prev_cumsum_m = tl.max(tl.where(prev_mask, cumsum_m, 0))
    prev_cumsum_tile = tl.max(tl.where(prev_mask, cumsum_tile, 0))
    g_cumsum_m = tl.max(tl.where(g_range == g, cumsum_m, 0))
    m = g_cumsum_m - prev_cumsum_m
    num_m_tiles_out = tl.cdiv(m, BLOCK_SIZE_M)
    tile_in_mm = tile - prev_cumsum_tile
    tl.device_assert(tile_in_mm >= 0, "tile_in_mm < 0")
    #      g, m, num_m_tiles,     last_m,        tile_in_mm
    return g, m, num_m_tiles_out, prev_cumsum_m, tile_in_mm


@triton.jit
def _process_gmm_tile(
    # Tensor pointers:
    lhs_ptr,
    rhs_ptr,
    out_ptr,
    bias_ptr,
    # Tensor shapes:
    K: int,
    N: int,
    # Tile arguments:
    g: int,  # group number
    m: int,  # number of lhs / out rows
    num_m_tiles: int,  # number of tiles in row dimension
    num_n_tiles: int,  # number of tiles in column dimension
    tile_in_mm: int,  # tile coordinates in current MM problem
    last_m: int,  # last row of lhs / out
    # Meta-parameters:
    TRANS_RHS: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    K_DIVISIBLE_BY_BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE: tl.constexpr,
    USE_BIAS: tl.constexpr,
):
    tile_m, tile_n = _remap_xcd_tile_grid(
        tile_in_mm, num_m_tiles, num_n_tiles, GROUP_SIZE=GROUP_SIZE
    )

    offs_lhs_m = (tile_m.to(tl.int64) * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % m
    offs_rhs_n = (tile_n.to(tl.int64) * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K).to(tl.int64)

    lhs_ptrs = lhs_ptr + (last_m + offs_lhs_m[:, None]) * K + offs_k[None, :]

    if TRANS_RHS:
        rhs_ptrs = (
            rhs_ptr + g.to(tl.int64) * K * N + offs_k[:, None] + offs_rhs_n[None, :] * K
        )
    else:
        rhs_ptrs = (
            rhs_ptr + g.to(tl.int64) * K * N + offs_k[:, None] * N + offs_rhs_n[None, :]
        )

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)

    for k in range(tl.cdiv(K, BLOCK_SIZE_K)):
        if K_DIVISIBLE_BY_BLOCK_SIZE_K:
            lhs = tl.load(lhs_ptrs)
            rhs = tl.load(rhs_ptrs)
        else:
            k_mask_limit = K - k * BLOCK_SIZE_K
            lhs = tl.load(lhs_ptrs, mask=offs_k[None, :] < k_mask_limit, other=0)
            rhs = tl.load(rhs_ptrs, mask=offs_k[:, None] < k_mask_limit, other=0)

        acc = tl.dot(lhs, rhs, acc=acc)

        lhs_ptrs += BLOCK_SIZE_K

        if TRANS_RHS:
            rhs_ptrs += BLOCK_SIZE_K
        else:
            rhs_ptrs += BLOCK_SIZE_K * N

    # Add bias if enabled.
    if USE_BIAS:
        offs_bias_n = tile_n.to(tl.int64) * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        bias_ptrs = bias_ptr + g.to(tl.int64) * N + offs_bias_n
        bias = tl.load(bias_ptrs, mask=offs_bias_n < N, other=0.0)
        # Convert bias to float32 to match accumulator precision.
        bias = bias.to(tl.float32)
        # Broadcast bias across M dimension and add in float32.
        acc += bias[None, :]

    # Convert to output dtype after all computations.
    acc = acc.to(out_ptr.type.element_ty)

    offs_out_m = tile_m.to(tl.int64) * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_out_n = tile_n.to(tl.int64) * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)

    out_ptrs = out_ptr + (last_m + offs_out_m[:, None]) * N + offs_out_n[None, :]

    tl.store(
        out_ptrs,
        acc,
        mask=(offs_out_m[:, None] < m) & (offs_out_n[None, :] < N),
    )


@triton.jit
def _gmm(
    # Tensor pointers:
    lhs_ptr,
    rhs_ptr,
    group_sizes_ptr,
    out_ptr,
    bias_ptr,
    # Tensor shapes:
    M: int,
    K: int,
    N: int,
    G: int,
    num_n_tiles: int,
    # Meta-parameters:
    TRANS_RHS: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    K_DIVISIBLE_BY_BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE: tl.constexpr,
    GRID_DIM: tl.constexpr,
    USE_BIAS: tl.constexpr,
    INT_TYPE: tl.constexpr,
):
    zero = tl.cast(0, INT_TYPE)

    # Current tile. Each program computes multiple tiles of each group.
    tile = tl.program_id(0).to(INT_TYPE)

    # Tile limit of last MM problem (inclusive).
    last_mm_tile = zero

    # Last input row of lhs and output row of out. Each group reads some rows of
    # lhs and writes some rows to out.
    last_m = zero

    # Loop through all (m, K, N) MM problems:
    #   (m, K) x (K, N) = (m, N)
    #   sum(m) = M
    for g in range(G):
        # Get m dimension of current MM problem.
        m = tl.load(group_sizes_ptr + g)
        # m can be zero if group is empty.
        tl.device_assert(m >= 0, "m < 0")

        num_m_tiles = tl.cdiv(m, BLOCK_SIZE_M)
        num_tiles = num_m_tiles * num_n_tiles

        # Loop through tiles of current MM problem.
        while tile >= last_mm_tile and tile < last_mm_tile + num_tiles:
            # Figure out tile coordinates in current MM problem.
            tile_in_mm = tile - last_mm_tile
            tl.device_assert(tile_in_mm >= 0, "tile_in_mm < 0")

            _process_gmm_tile(
                # Tensor pointers:
                lhs_ptr,
                rhs_ptr,
                out_ptr,
                bias_ptr,
                # Tensor shapes:
                K,
                N,
                # Tile arguments:
                g,
                m,
                num_m_tiles,
                num_n_tiles,
                tile_in_mm,
                last_m,
                # Meta-parameters:
                TRANS_RHS=TRANS_RHS,
                BLOCK_SIZE_M=BLOCK_SIZE_M,
                BLOCK_SIZE_K=BLOCK_SIZE_K,
                BLOCK_SIZE_N=BLOCK_SIZE_N,
                K_DIVISIBLE_BY_BLOCK_SIZE_K=K_DIVISIBLE_BY_BLOCK_SIZE_K,
                GROUP_SIZE=GROUP_SIZE,
                USE_BIAS=USE_BIAS,
            )

            # Go to the next tile by advancing number of programs.
            tile += GRID_DIM
            tl.device_assert(tile > 0, "tile <= 0 (at update)")

        # Get ready to go to the next MM problem.

        last_mm_tile += num_tiles
        # last_mm_tile can be zero if group 0 is skipped
        tl.device_assert(last_mm_tile >= 0, "last_mm_tile < 0 (at update)")

        last_m += m
        # last_m can be zero if group 0 is skipped
        tl.device_assert(last_m >= 0, "last_m < 0 (at update)")
        tl.device_assert(last_m <= M, "last_m > M (at update)")


@triton.jit
def _work_stealing_gmm(
    # Tensor pointers:
    lhs_ptr,
    rhs_ptr,
    group_sizes_ptr,
    out_ptr,
    bias_ptr,
    tile_counter_ptr,
    # Tensor shapes:
    K: int,
    N: int,
    G: int,
    num_n_tiles: int,
    # Meta-parameters:
    TRANS_RHS: tl.constexpr,
    BLOCK_SIZE_G: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    K_DIVISIBLE_BY_BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE: tl.constexpr,
    USE_BIAS: tl.constexpr,
    INT_TYPE: tl.constexpr,
):
    total_tiles = _total_gmm_tiles(
        group_sizes_ptr,
        G,
        num_n_tiles,
        BLOCK_SIZE_G=BLOCK_SIZE_G,
        BLOCK_SIZE_M=BLOCK_SIZE_M,
        INT_TYPE=INT_TYPE,
    )
    tl.device_assert(total_tiles > 0, "total_tiles <= 0")

    tile = tl.program_id(0).to(INT_TYPE)

    while tile < total_tiles:
        g, m, num_m_tiles, last_m, tile_in_mm = _resolve_gmm_tile(
            group_sizes_ptr,
            tile,
            G,
            num_n_tiles,
            BLOCK_SIZE_G=BLOCK_SIZE_G,
            BLOCK_SIZE_M=BLOCK_SIZE_M,
            INT_TYPE=INT_TYPE,
        )
        _process_gmm_tile(
            # Tensor pointers:
            lhs_ptr,
            rhs_ptr,
            out_ptr,
            bias_ptr,
            # Tensor shapes:
            K,
            N,
            # Tile arguments:
            g,
            m,
            num_m_tiles,
            num_n_tiles,
            tile_in_mm,
            last_m,
            # Meta-parameters:
            TRANS_RHS=TRANS_RHS,
            BLOCK_SIZE_M=BLOCK_SIZE_M,
            BLOCK_SIZE_K=BLOCK_SIZE_K,
            BLOCK_SIZE_N=BLOCK_SIZE_N,
            K_DIVISIBLE_BY_BLOCK_SIZE_K=K_DIVISIBLE_BY_BLOCK_SIZE_K,
            GROUP_SIZE=GROUP_SIZE,
            USE_BIAS=USE_BIAS,
        )
        tile = tl.atomic_add(tile_counter_ptr, 1, sem="relaxed").to(INT_TYPE)


@triton.jit
def gmm_kernel(
    # Tensor pointers:
    lhs_ptr,
    rhs_ptr,
    group_sizes_ptr,
    out_ptr,
    bias_ptr,
    tile_counter_ptr,
    # Tensor shapes:
    M: int,
    K: int,
    N: int,
    G: int,
    # Meta-parameters:
    TRANS_RHS: tl.constexpr,
    BLOCK_SIZE_G: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    K_DIVISIBLE_BY_BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE: tl.constexpr,
    GRID_DIM: tl.constexpr,
    USE_BIAS: tl.constexpr,
    WORK_STEALING: tl.constexpr,
):
    tl.assume(M > 0)
    tl.assume(K > 0)
    tl.assume(N > 0)
    tl.assume(G > 0)

    INT_TYPE: tl.constexpr = group_sizes_ptr.type.element_ty

    num_n_tiles = tl.cdiv(N, BLOCK_SIZE_N).to(INT_TYPE)
    tl.device_assert(num_n_tiles > 0, "num_n_tiles <= 0")

    if WORK_STEALING:
        _work_stealing_gmm(
            # Tensor pointers:
            lhs_ptr,
            rhs_ptr,
            group_sizes_ptr,
            out_ptr,
            bias_ptr,
            tile_counter_ptr,
            # Tensor shapes:
            K,
            N,
            G,
            num_n_tiles,
            # Meta-parameters:
            TRANS_RHS=TRANS_RHS,
            BLOCK_SIZE_G=BLOCK_SIZE_G,
            BLOCK_SIZE_M=BLOCK_SIZE_M,
            BLOCK_SIZE_K=BLOCK_SIZE_K,
            BLOCK_SIZE_N=BLOCK_SIZE_N,
            K_DIVISIBLE_BY_BLOCK_SIZE_K=K_DIVISIBLE_BY_BLOCK_SIZE_K,
            GROUP_SIZE=GROUP_SIZE,
            USE_BIAS=USE_BIAS,
            INT_TYPE=INT_TYPE,
        )
    else:
        _gmm(
            # Tensor pointers:
            lhs_ptr,
            rhs_ptr,
            group_sizes_ptr,
            out_ptr,
            bias_ptr,
            # Tensor shapes:
            M,
            K,
            N,
            G,
            num_n_tiles,
            # Meta-parameters:
            TRANS_RHS=TRANS_RHS,
            BLOCK_SIZE_M=BLOCK_SIZE_M,
            BLOCK_SIZE_K=BLOCK_SIZE_K,
            BLOCK_SIZE_N=BLOCK_SIZE_N,
            K_DIVISIBLE_BY_BLOCK_SIZE_K=K_DIVISIBLE_BY_BLOCK_SIZE_K,
            GROUP_SIZE=GROUP_SIZE,
            GRID_DIM=GRID_DIM,
            USE_BIAS=USE_BIAS,
            INT_TYPE=INT_TYPE,
        )


def make_inputs(M: int, K: int, N: int, G: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """lhs [M, K], rhs [G, K, N] (non-transposed), bias [G, N] bf16; group_sizes int32 summing to M (skewed, a few
    experts empty)."""
    import torch
    gen = torch.Generator().manual_seed(seed)
    w = torch.rand(G, generator=gen) ** 3
    w[torch.randperm(G, generator=gen)[: G // 16]] = 0.0
    sizes = torch.floor(w / w.sum() * M).long()
    sizes[int(torch.argmax(w))] += M - int(sizes.sum())
    lhs = torch.randn(M, K, generator=gen) / 4
    rhs = torch.randn(G, K, N, generator=gen) / K ** 0.5
    bias = torch.randn(G, N, generator=gen) / 4
    return {"lhs": lhs.to(device=device, dtype=torch.bfloat16), "rhs": rhs.to(device=device, dtype=torch.bfloat16),
            "bias": bias.to(device=device, dtype=torch.bfloat16),
            "group_sizes": sizes.to(device=device, dtype=torch.int32)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """``gmm(lhs, rhs, group_sizes, bias, work_stealing=True)``; returns out [M, N] bf16."""
    import torch
    lhs, rhs, group_sizes, bias = inputs["lhs"], inputs["rhs"], inputs["group_sizes"], inputs["bias"]
    M, K = lhs.shape
    G, _, N = rhs.shape
    cfg = {"BLOCK_SIZE_M": BM, "BLOCK_SIZE_K": BK, "BLOCK_SIZE_N": BN, "GROUP_SIZE": 1, "GRID_DIM": GRID,
           "num_warps": 8, "num_stages": 3}
    cfg.update({k: v for k, v in config.items() if k in cfg})
    out = torch.empty(M, N, dtype=torch.bfloat16, device=lhs.device)
    tile_counter = torch.full((1,), cfg["GRID_DIM"], dtype=torch.int32, device=lhs.device)
    gmm_kernel[(cfg["GRID_DIM"],)](
        lhs, rhs, group_sizes, out, bias, tile_counter,
        M, K, N, G,
        TRANS_RHS=False, BLOCK_SIZE_G=triton.next_power_of_2(G),
        K_DIVISIBLE_BY_BLOCK_SIZE_K=K % cfg["BLOCK_SIZE_K"] == 0,
        USE_BIAS=True, WORK_STEALING=True, **cfg)
    return out


def reference(inputs: dict[str, Any]) -> Any:
    """Per group: out[rows] = lhs[rows] @ rhs[g] + bias[g], float64."""
    import torch
    lhs, rhs, bias = inputs["lhs"].double(), inputs["rhs"].double(), inputs["bias"].double()
    out = torch.zeros(lhs.shape[0], rhs.shape[2], dtype=torch.float64, device=lhs.device)
    r = 0
    for g, s in enumerate(inputs["group_sizes"].tolist()):
        out[r:r + s] = lhs[r:r + s] @ rhs[g] + bias[g]
        r += s
    return out


def flops(M: int, K: int, N: int, G: int) -> float:
    return 2.0 * M * K * N
