"""Sparse-VideoGen 2's dynamic (k-means-cluster) block-sparse attention forward, ``_dynamic_block_sparse_fwd_kernel``
(svg-project/Sparse-VideoGen svg/kmeans_utils.py, commit 5ce7b012, launched by ``dynamic_block_sparse_fwd_triton``
in the same file): tokens permuted so each query / key k-means cluster is contiguous, clusters of **variable size**
given by prefix sums ``qc_cum_size`` / ``kc_cum_size``, and a boolean cluster-pair map saying which key clusters a
query cluster attends to. At HunyuanVideo-like sizes (24 heads, head dim 128, bf16) over 32K video tokens with SVG's
default 50 query / 200 key centroids (the CLI's ``--qc 50 --kc 200``) and ~25% of the cluster pairs active.

The constructs: one program per (batch, head, query cluster); an **early ``return``** for an empty query cluster;
**a three-deep loop nest**: (1) ``for q_chunk_start in range(0, q_block_size, BLOCK_M)`` over the cluster's rows
(runtime trip count from two loaded prefix sums; the softmax state m_i / l_i / acc_o re-initialised per chunk and Q
loaded per chunk), (2) **``for k_block_idx in range(KC_NUM)`` with a constexpr trip count of 200**, a scalar bool
``is_active`` loaded per trip and **the body under ``if is_active:``, inside it a second guard ``if k_block_size >
0:``** from two more scalar loads, and (3) **the innermost ``for k_chunk_start in range(0, k_block_size,
BLOCK_N)``** over the key cluster's rows (a runtime trip count, usually 1-3) doing the flash-attention step: K and
V loaded with row masks from the chunk and a (constant-true) ``offs_d < D`` mask, ``tl.dot(q_chunk, k_chunk.T)``
(a ``.T`` transpose), two ``tl.where`` -inf masks, a natural-exp online softmax that zeroes masked probabilities,
``acc_o = acc_o * exp_m_diff[:, None] + tl.dot(p, v)`` (the PV dot not accumulated in place). The softmax state
is carried **through all three loops and both ``if`` s**. After loop 2 a guarded normalisation (``l_i == 0`` -> 0)
and a masked store, still inside loop 1.

Port notes: the kernel verbatim (its docstring and comments too); the launch as ``dynamic_block_sparse_fwd_triton``
(S > 1024: BLOCK_M = 128, BLOCK_N = 64; Triton's default 4 warps / 3 stages; SMALL's S <= 1024 takes its 64 / 64).
Cluster sizes drawn from a Dirichlet-like split of S (a few clusters empty, as k-means gives); every query cluster
keeps at least its largest key cluster so no row is left with no key (the kernel writes zeros there, and so does
the reference). QC_NUM / KC_NUM are constexprs in the source, so SMALL keeps 50 / 200 clusters. The unit strides
along the head dim are passed as the launcher passes them (the kernel never reads them)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

QC, KC, HEAD_D = 50, 200, 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_dynamic_block_sparse_fwd_kernel",
    "signature": {"Q": "*bf16", "K": "*bf16", "V": "*bf16", "Out": "*bf16", "dynamic_map": "*i1",
                  "qc_cum_size": "*i32", "kc_cum_size": "*i32",
                  "stride_qb": "i32", "stride_qh": "i32", "stride_qs": "i32", "stride_qd": "constexpr",
                  "stride_kb": "i32", "stride_kh": "i32", "stride_ks": "i32", "stride_kd": "constexpr",
                  "stride_vb": "i32", "stride_vh": "i32", "stride_vs": "i32", "stride_vd": "constexpr",
                  "stride_ob": "i32", "stride_oh": "i32", "stride_os": "i32", "stride_od": "constexpr",
                  "stride_dmap_b": "i32", "stride_dmap_h": "i32", "stride_dmap_qc": "i32",
                  "stride_dmap_kc": "constexpr",
                  "stride_qcs_b": "i32", "stride_qcs_h": "i32", "stride_qcs_qc": "constexpr",
                  "stride_kcs_b": "i32", "stride_kcs_h": "i32", "stride_kcs_kc": "constexpr",
                  "B": "i32", "H": "i32", "S": "i32", "D": "i32", "scale": "fp32"},
    "constexprs": {"stride_qd": 1, "stride_kd": 1, "stride_vd": 1, "stride_od": 1, "stride_dmap_kc": 1,
                   "stride_qcs_qc": 1, "stride_kcs_kc": 1,
                   "QC_NUM": QC, "KC_NUM": KC, "BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_D": HEAD_D},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["stride_qb", "stride_qh", "stride_qs", "stride_kb", "stride_kh", "stride_ks", "stride_vb",
                     "stride_vh", "stride_vs", "stride_ob", "stride_oh", "stride_os", "stride_dmap_qc", "D"]}
PROBLEM: dict[str, Any] = {"B": 1, "H": 24, "S": 32760, "density": 0.25}
SMALL: dict[str, Any] = {"B": 1, "H": 1, "S": 600, "density": 0.25}


@triton.jit
def _dynamic_block_sparse_fwd_kernel(
    Q,
    K,
    V,
    Out,
    dynamic_map,
    qc_cum_size,
    kc_cum_size,
    stride_qb,
    stride_qh,
    stride_qs,
    stride_qd,
    stride_kb,
    stride_kh,
    stride_ks,
    stride_kd,
    stride_vb,
    stride_vh,
    stride_vs,
    stride_vd,
    stride_ob,
    stride_oh,
    stride_os,
    stride_od,
    stride_dmap_b,
    stride_dmap_h,
    stride_dmap_qc,
    stride_dmap_kc,
    stride_qcs_b,
    stride_qcs_h,
    stride_qcs_qc,
    stride_kcs_b,
    stride_kcs_h,
    stride_kcs_kc,
    B,
    H,
    S,
    D,
    scale,
    QC_NUM: tl.constexpr,
    KC_NUM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_D: tl.constexpr,
):
    """
    Triton kernel for dynamic block sparse attention.
    Each program computes attention for one query block within a batch/head.
    Processes query block in chunks of BLOCK_M.
    Iterates through key blocks, checking dynamic_map.
    Processes key/value blocks in chunks of BLOCK_N.
    Uses online softmax.
    """
    # --- Grid Calculation ---
    # Each program instance handles one query block for a specific batch and head
    pid = tl.program_id(axis=0)
    B * H * QC_NUM

    # Calculate batch, head, and query block index
    pid_q_block_global = pid  # 0 to B*H*QC_NUM - 1
    # pid_bh = pid // QC_NUM # Deprecated: Causes issues if QC_NUM is not constant across BH
    # pid_q_block_idx = pid % QC_NUM

    # Need to map pid (0.. B*H*QC_NUM-1) back to (b, h, q_block_idx)
    # q_block_idx changes fastest, then h, then b
    q_block_idx = pid_q_block_global % QC_NUM
    pid_h_temp = pid_q_block_global // QC_NUM
    h = pid_h_temp % H
    b = pid_h_temp // H

    # --- Load Q block info (start/end offsets) ---
    qcs_offset = b * stride_qcs_b + h * stride_qcs_h
    q_start_offset = tl.load(qc_cum_size + qcs_offset + q_block_idx * stride_qcs_qc)
    q_end_offset = tl.load(qc_cum_size + qcs_offset + (q_block_idx + 1) * stride_qcs_qc)
    q_block_size = q_end_offset - q_start_offset

    # Early exit if the query block is empty
    if q_block_size == 0:
        return

    # --- Pointers setup ---
    q_ptr_base = Q + b * stride_qb + h * stride_qh + q_start_offset * stride_qs
    k_ptr_base = K + b * stride_kb + h * stride_kh
    v_ptr_base = V + b * stride_vb + h * stride_vh
    out_ptr_base = Out + b * stride_ob + h * stride_oh + q_start_offset * stride_os
    dmap_ptr = dynamic_map + b * stride_dmap_b + h * stride_dmap_h + q_block_idx * stride_dmap_qc
    kcs_ptr = kc_cum_size + b * stride_kcs_b + h * stride_kcs_h

    # --- Iterate over the query block rows in chunks of BLOCK_M ---
    offs_qm = tl.arange(0, BLOCK_M)  # Query block row offsets [0, 1, ..., BLOCK_M-1]
    offs_d = tl.arange(0, BLOCK_D)  # Dimension offsets [0, 1, ..., BLOCK_D-1]

    for q_chunk_start in range(0, q_block_size, BLOCK_M):
        q_chunk_rows = offs_qm + q_chunk_start
        q_rows_mask = q_chunk_rows < q_block_size  # Mask for valid rows in this Q chunk [BLOCK_M]

        # --- Initialize accumulators for this Q chunk ---
        m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")  # Max score
        l_i = tl.zeros([BLOCK_M], dtype=tl.float32)  # Sum of exp(scores - max)
        acc_o = tl.zeros([BLOCK_M, BLOCK_D], dtype=tl.float32)  # Accumulated output

        # --- Load Q chunk ---
        q_ptr = q_ptr_base + q_chunk_rows[:, None] * stride_qs + offs_d[None, :]
        # Mask ensures we don't read out of bounds for the query block or dimension D
        mask_q = q_rows_mask[:, None] & (offs_d[None, :] < D)
        q_chunk = tl.load(q_ptr, mask=mask_q, other=0.0)  # Shape: [BLOCK_M, BLOCK_D]

        # --- Inner loop over K blocks (columns in the block sparse map) ---
        for k_block_idx in range(KC_NUM):
            # --- Check dynamic_map: Is this block active? ---
            is_active = tl.load(dmap_ptr + k_block_idx * stride_dmap_kc)
            if is_active:  # Process block only if it's active
                # --- Load K block info (start/end offsets) ---
                k_start_offset = tl.load(kcs_ptr + k_block_idx * stride_kcs_kc)
                k_end_offset = tl.load(kcs_ptr + (k_block_idx + 1) * stride_kcs_kc)
                k_block_size = k_end_offset - k_start_offset

                # Skip if the key block is empty (inside the active block check)
                if k_block_size > 0:

                    k_block_ptr_base = k_ptr_base + k_start_offset * stride_ks
                    v_block_ptr_base = v_ptr_base + k_start_offset * stride_vs

                    # --- Loop over K block chunks (size BLOCK_N) ---
                    offs_kn = tl.arange(0, BLOCK_N)  # Key block row offsets [0, ..., BLOCK_N-1]
                    for k_chunk_start in range(0, k_block_size, BLOCK_N):
                        k_chunk_rows = offs_kn + k_chunk_start
                        k_rows_mask = k_chunk_rows < k_block_size  # Mask for valid rows in this K/V chunk [BLOCK_N]

                        # --- Load K, V chunks ---
                        k_ptr = k_block_ptr_base + k_chunk_rows[:, None] * stride_ks + offs_d[None, :]
                        v_ptr = v_block_ptr_base + k_chunk_rows[:, None] * stride_vs + offs_d[None, :]

                        # Mask ensures we don't read out of bounds for the key block or dimension D
                        mask_kv = k_rows_mask[:, None] & (offs_d[None, :] < D)
                        k_chunk = tl.load(k_ptr, mask=mask_kv, other=0.0)  # Shape: [BLOCK_N, BLOCK_D]
                        v_chunk = tl.load(v_ptr, mask=mask_kv, other=0.0)  # Shape: [BLOCK_N, BLOCK_D]

                        # --- Compute Scores (Attention) ---
                        # QK^T: [BLOCK_M, BLOCK_D] @ [BLOCK_D, BLOCK_N] -> [BLOCK_M, BLOCK_N]
                        s_ij_chunk = tl.dot(q_chunk, k_chunk.T) * scale

                        # IMPORTANT: Mask out scores corresponding to padding in K before max/softmax
                        # Set scores for invalid K elements to -inf
                        s_ij_chunk = tl.where(k_rows_mask[None, :], s_ij_chunk, -float("inf"))
                        # Mask out scores for invalid Q elements as well (although q_chunk elements are 0, avoid potential issues)
                        s_ij_chunk = tl.where(q_rows_mask[:, None], s_ij_chunk, -float("inf"))

                        # --- Online Softmax Update ---
                        # Current max for this Q-K chunk interaction
                        m_ij_chunk = tl.max(s_ij_chunk, axis=1)  # Shape: [BLOCK_M]

                        # Update overall max (across K chunks seen so far for this Q chunk)
                        m_new = tl.maximum(m_i, m_ij_chunk)  # Shape: [BLOCK_M]

                        # Calculate scaled probabilities P_ij = exp(S_ij - m_new)
                        p_ij_chunk = tl.exp(s_ij_chunk - m_new[:, None])  # Shape: [BLOCK_M, BLOCK_N]
                        # Zero out probabilities for masked K elements before summing
                        p_ij_chunk = tl.where(k_rows_mask[None, :], p_ij_chunk, 0.0)

                        # Calculate scaling factor for previous accumulator state
                        exp_m_diff = tl.exp(m_i - m_new)  # Shape: [BLOCK_M]

                        # Update sum accumulator (denominator L)
                        l_i_chunk = tl.sum(p_ij_chunk, axis=1)  # Sum probabilities for this chunk, shape [BLOCK_M]
                        l_i = (l_i * exp_m_diff) + l_i_chunk  # Shape: [BLOCK_M]

                        # Update output accumulator O
                        # P_ij @ V_j: [BLOCK_M, BLOCK_N] @ [BLOCK_N, BLOCK_D] -> [BLOCK_M, BLOCK_D]
                        # Ensure p_ij_chunk is the correct dtype for dot product
                        p_ij_chunk_casted = p_ij_chunk.to(V.dtype.element_ty)
                        o_chunk = tl.dot(p_ij_chunk_casted, v_chunk)  # Shape: [BLOCK_M, BLOCK_D]

                        acc_o = (acc_o * exp_m_diff[:, None]) + o_chunk  # Shape: [BLOCK_M, BLOCK_D]

                        # Update max for the next K chunk/block
                        m_i = m_new
            # End of 'if is_active:' block
        # --- End of loop over K blocks ---

        # --- Finalize output for this Q chunk ---
        # Normalize the accumulated output: O = acc_o / l_i
        # Add epsilon to l_i to avoid division by zero
        l_i_safe = tl.where(l_i == 0, 1.0, l_i)  # Avoid 0/0 -> NaN
        o_final_chunk = acc_o / (l_i_safe[:, None])
        o_final_chunk = tl.where(l_i[:, None] == 0, 0.0, o_final_chunk)  # Ensure output is 0 if l_i was 0

        # --- Write output chunk to global memory ---
        out_ptr = out_ptr_base + q_chunk_rows[:, None] * stride_os + offs_d[None, :]
        # Mask ensures we don't write out of bounds for the query block or dimension D
        mask_out = q_rows_mask[:, None] & (offs_d[None, :] < D)
        tl.store(out_ptr, o_final_chunk.to(Out.dtype.element_ty), mask=mask_out)

        # --- (Optional: Write L and M stats if needed) ---
        # Example:
        # l_ptr = L + b * stride_lb + h * stride_lh + (q_start_offset + q_chunk_rows) * stride_ls
        # tl.store(l_ptr, l_i, mask=q_rows_mask)
        # m_ptr = M + ...
        # tl.store(m_ptr, m_i, mask=q_rows_mask)

    # --- End of loop over Q chunks ---


def _split(S: int, n: int, g: Any, device: Any) -> Any:
    """n cluster sizes summing to S, uneven, about 5% of them empty."""
    import torch
    w = -torch.log(torch.rand(n, generator=g, device=device))
    w = torch.where(torch.rand(n, generator=g, device=device) < 0.05, torch.zeros_like(w), w)
    w[0] = w[0] + 1e-3
    sizes = torch.floor(w / w.sum() * S).long()
    sizes[torch.argmax(sizes)] += S - int(sizes.sum())
    return sizes


def make_inputs(B: int, H: int, S: int, density: float, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q / k / v [B, H, S, 128] bf16 (already cluster-permuted), dynamic_map [B, H, 50, 200] bool, qc_size
    [B, H, 50] / kc_size [B, H, 200] int64 cluster sizes (each head's summing to S)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn((B, H, S, HEAD_D), device=device, generator=g).to(torch.bfloat16)
    k = torch.randn((B, H, S, HEAD_D), device=device, generator=g).to(torch.bfloat16)
    v = torch.randn((B, H, S, HEAD_D), device=device, generator=g).to(torch.bfloat16)
    qc = torch.stack([_split(S, QC, g, device) for _ in range(B * H)]).view(B, H, QC)
    kc = torch.stack([_split(S, KC, g, device) for _ in range(B * H)]).view(B, H, KC)
    dmap = torch.rand((B, H, QC, KC), generator=g, device=device) < density
    biggest = torch.nn.functional.one_hot(kc.argmax(-1), KC).bool()[:, :, None, :]
    dmap = (dmap | biggest).contiguous()
    return {"q": q, "k": k, "v": v, "dynamic_map": dmap, "qc_size": qc, "kc_size": kc}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """out [B, H, S, 128] bf16, as ``dynamic_block_sparse_fwd_triton`` launches the kernel."""
    import torch
    q, k, v, dynamic_map = inputs["q"], inputs["k"], inputs["v"], inputs["dynamic_map"]
    qc_size, kc_size = inputs["qc_size"], inputs["kc_size"]
    B, H, S, D = q.shape
    qc_num = qc_size.shape[-1]
    kc_num = kc_size.shape[-1]
    scale = D**-0.5
    qc_cum_size = torch.cumsum(torch.cat([torch.zeros_like(qc_size[..., :1]), qc_size], dim=-1), dim=-1).int()
    kc_cum_size = torch.cumsum(torch.cat([torch.zeros_like(kc_size[..., :1]), kc_size], dim=-1), dim=-1).int()
    out = torch.empty_like(q)
    BLOCK_D = D
    if S <= 512:
        BLOCK_M = 64
        BLOCK_N = 64
    elif S <= 1024:
        BLOCK_M = 64
        BLOCK_N = 64
    else:
        BLOCK_M = 128
        BLOCK_N = 64
    BLOCK_M = min(BLOCK_M, S)
    BLOCK_N = min(BLOCK_N, S)
    grid = (B * H * qc_num,)
    _dynamic_block_sparse_fwd_kernel[grid](
        q, k, v, out, dynamic_map, qc_cum_size, kc_cum_size,
        *q.stride(), *k.stride(), *v.stride(), *out.stride(), *dynamic_map.stride(),
        *qc_cum_size.stride(), *kc_cum_size.stride(),
        B, H, S, D, scale,
        QC_NUM=qc_num, KC_NUM=kc_num, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3),
    )
    return out


def reference(inputs: dict[str, Any]) -> Any:
    """Per head: the cluster-pair map expanded to tokens by the cluster sizes, softmax(q k^T / sqrt(d)) over the
    kept keys times v (fp64); rows that keep no key are 0."""
    import torch
    q, k, v, dmap = inputs["q"].double(), inputs["k"].double(), inputs["v"].double(), inputs["dynamic_map"]
    qc, kc = inputs["qc_size"], inputs["kc_size"]
    B, H, S, D = q.shape
    out = torch.zeros_like(q)
    for b in range(B):
        for h in range(H):
            m = dmap[b, h].repeat_interleave(qc[b, h], dim=0).repeat_interleave(kc[b, h], dim=1)   # S S
            s = (q[b, h] @ k[b, h].T) * D ** -0.5
            s = s.masked_fill(~m, float("-inf"))
            p = torch.softmax(s, -1).nan_to_num(0.0)
            out[b, h] = p @ v[b, h]
    return out


def flops(B: int, H: int, S: int, density: float) -> float:
    return 4.0 * B * H * S * S * density * HEAD_D
