"""xLSTM's mLSTM chunkwise backward, recurrent part: ``mlstm_chunkwise__recurrent_bw_dC_kernel`` (NX-AI/mlstm_kernels
mlstm_kernels/triton/chunkwise/xl_chunk/bw_kernel_recurrent.py, launched by ``mlstm_chunkwise__recurrent_bw_dC`` in
mlstm_kernels/torch/chunkwise/triton_xl_chunk/bw_recurrent.py): the gradient of the C (memory) state carried
**backwards through the chunks**, dC_{k-1} = exp(g_k + m_{k-1} - m_k) dC_k + Qbar_k^T dH_k / n_k, written out every
``save_states_every_nth_chunk``-th chunk.

The constructs: every stride and size a constexpr, ``qk_scale`` a float constexpr, ``DTYPE`` / ``EPS`` constexprs
with defaults; ``USE_LAST_STATE`` constexpr branch loading the incoming gradient through a **block pointer with
``boundary_check=(1, 0)``** (dims listed in reverse); **a reverse loop ``for k in range(NC, 0, -1)``** (constexpr
bounds, step -1; offsets written with ``k - 1``) carrying a [64, 64] fp32 state; **a store inside the loop guarded by
``if k % save_states_every_nth_chunk == 0``** (2 here, so every other iteration stores, through a block pointer built
inside the branch at ``k // 2``: the stored value is the state *before* this iteration's update); per iteration a
**transposed Q block pointer** (``order=(0, 1)``), an unmasked gate vector load, ``tl.log(tl.sigmoid(...))``,
**``tl.cumsum``** and ``tl.sum`` of it, **two scalar loads** (m_{k-1}, m_k), a vector load, exp of row / column
broadcasts, a division by a loaded normaliser, casts to bf16, and ``tl.dot(Qbar [64, 128], dH [128, 64])``; after
the loop an unconditional block-pointer store of the first state.

Port notes: kernel verbatim; ``launch`` is ``mlstm_chunkwise__recurrent_bw_dC`` as ``mlstm_chunkwise_bw`` calls it
for a target chunk size of 256 (``select_heuristic_xl_chunk_kernel_params``: chunk_size_inter 128, chunk_size_intra
256, so ``save_states_every_nth_chunk`` 2; siz_b_DHQK = siz_b_DHHV = 64, 4 warps, 1 stage; eps 1e-6 as
``mlstm_chunkwise_fwbw`` passes it) with a last-state gradient given (USE_LAST_STATE). One deviation: the kernel
reads ``scaM_inter`` at every inter chunk (``+ (k - 1)``, ``+ k`` for k up to NC), while ``mlstm_chunkwise_bw``
passes the forward's states saved only every 2nd chunk (NC / 2 + 1 entries: past the end for k > NC / 2, a library
mismatch whenever chunk_size_intra > chunk_size_inter); the port passes the NC + 1 per-chunk m states the kernel
indexes. m states, vecM_combine and vecN_out are made consistent (as the forward would leave them) in
``make_inputs``."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

_B, _NH, _S, _DHQK, _DHHV, _L, _SAVE = 1, 8, 8192, 256, 512, 128, 2
_NC = _S // _L
TWILL_SPEC: dict[str, Any] = {
    "kernel": "mlstm_chunkwise__recurrent_bw_dC_kernel",
    "signature": {"matQ": "*bf16", "vecF": "*fp32", "scaM_inter": "*fp32", "vecM_combine": "*fp32",
                  "matDeltaH": "*bf16", "vecN_out": "*fp32", "matDeltaC_last": "*fp32", "matDeltaC_states": "*fp32"},
    "constexprs": {"qk_scale": _DHQK ** -0.5,
                   "str_matQ_B_NH": _S * _DHQK, "str_matQ_S": _DHQK, "str_matQ_DHQK": 1, "str_vecF_B_NH": _S,
                   "str_scaM_inter_B_NH": _NC + 1, "str_scaM_inter_NC": 1, "str_vecM_combine_B_NH": _S,
                   "str_vecM_combine_S": 1, "str_matDeltaH_B_NH": _S * _DHHV, "str_matDeltaH_S": _DHHV,
                   "str_matDeltaH_DHHV": 1, "str_vecN_out_B_NH": _S, "str_vecN_out_S": 1,
                   "str_matDeltaC_last_B_NH": _DHQK * _DHHV, "str_matDeltaC_last_DHQK": _DHHV,
                   "str_matDeltaC_last_DHHV": 1,
                   "str_matDeltaC_states_B_NH": (_NC // _SAVE + 1) * _DHQK * _DHHV,
                   "str_matDeltaC_states_NCDHQK": _DHHV, "str_matDeltaC_states_DHHV": 1,
                   "B": _B, "NH": _NH, "S": _S, "DHQK": _DHQK, "DHHV": _DHHV, "NC": _NC, "L": _L,
                   "siz_b_DHQK": 64, "siz_b_DHHV": 64, "save_states_every_nth_chunk": _SAVE,
                   "USE_LAST_STATE": True, "DTYPE": tl.bfloat16, "EPS": 1e-6},
    "num_warps": 4, "num_stages": 1,
    "divisibility": []}
PROBLEM: dict[str, int] = {"B": _B, "NH": _NH, "S": _S, "DHQK": _DHQK, "DHHV": _DHHV}
SMALL: dict[str, int] = dict(PROBLEM)   # every size is a constexpr of the kernel (NC = 64: stores at even k)


@triton.jit
def mlstm_chunkwise__recurrent_bw_dC_kernel(
    matQ,  # (B, NH, S, DHQK)
    vecF,  # (B, NH, NC * L) = (B, NH, S)
    scaM_inter,  # (B, NH, NC+1)
    vecM_combine,  # (B, NH, S)
    matDeltaH,  # (B, NH, S, DHHV)
    vecN_out,  # (B, NH, S)
    matDeltaC_last,  # (B, NH, DHQK, DHHV)
    matDeltaC_states,  # (B, NH, (NC+1) * DHQK, DHHV)
    qk_scale: tl.constexpr,
    str_matQ_B_NH: tl.constexpr,
    str_matQ_S: tl.constexpr,
    str_matQ_DHQK: tl.constexpr,
    str_vecF_B_NH: tl.constexpr,
    str_scaM_inter_B_NH: tl.constexpr,
    str_scaM_inter_NC: tl.constexpr,
    str_vecM_combine_B_NH: tl.constexpr,
    str_vecM_combine_S: tl.constexpr,
    str_matDeltaH_B_NH: tl.constexpr,
    str_matDeltaH_S: tl.constexpr,
    str_matDeltaH_DHHV: tl.constexpr,
    str_vecN_out_B_NH: tl.constexpr,
    str_vecN_out_S: tl.constexpr,
    str_matDeltaC_last_B_NH: tl.constexpr,
    str_matDeltaC_last_DHQK: tl.constexpr,
    str_matDeltaC_last_DHHV: tl.constexpr,
    str_matDeltaC_states_B_NH: tl.constexpr,
    str_matDeltaC_states_NCDHQK: tl.constexpr,
    str_matDeltaC_states_DHHV: tl.constexpr,
    B: tl.constexpr,
    NH: tl.constexpr,
    S: tl.constexpr,
    DHQK: tl.constexpr,
    DHHV: tl.constexpr,
    NC: tl.constexpr,
    L: tl.constexpr,
    siz_b_DHQK: tl.constexpr,
    siz_b_DHHV: tl.constexpr,
    save_states_every_nth_chunk: tl.constexpr,
    USE_LAST_STATE: tl.constexpr,
    DTYPE: tl.constexpr = tl.float32,
    EPS: tl.constexpr = 1e-6,
):
    idx_b_DHQK, idx_b_DHHV, idx_b_NH = (
        tl.program_id(0),
        tl.program_id(1),
        tl.program_id(2),
    )

    # create running deltaC error state in shared memory
    matDeltaC_k_val = tl.zeros((siz_b_DHQK, siz_b_DHHV), dtype=tl.float32)

    if USE_LAST_STATE:
        # each thread block loads a (siz_b_DHQK, siz_b_DHHV) tile of matDeltaC_last
        matDeltaC_last_ptr = tl.make_block_ptr(
            base=matDeltaC_last + idx_b_NH * str_matDeltaC_last_B_NH,
            shape=(DHQK, DHHV),
            strides=(str_matDeltaC_last_DHQK, str_matDeltaC_last_DHHV),
            offsets=(idx_b_DHQK * siz_b_DHQK, idx_b_DHHV * siz_b_DHHV),
            block_shape=(siz_b_DHQK, siz_b_DHHV),
            order=(1, 0),
        )
        # load last state
        matDeltaC_k_val = tl.load(matDeltaC_last_ptr, boundary_check=(1, 0)).to(
            tl.float32
        )

    # iterate over chunks from last to first
    for k in range(NC, 0, -1):
        # ? define pointers
        # load matQ in transposed form
        matQ_k_ptr = tl.make_block_ptr(
            base=matQ + idx_b_NH * str_matQ_B_NH,
            shape=(DHQK, S),
            strides=(str_matQ_DHQK, str_matQ_S),
            offsets=(idx_b_DHQK * siz_b_DHQK, (k - 1) * L),
            block_shape=(siz_b_DHQK, L),
            order=(0, 1),
        )
        matDeltaH_ptr = tl.make_block_ptr(
            base=matDeltaH + idx_b_NH * str_matDeltaH_B_NH,
            shape=(S, DHHV),
            strides=(str_matDeltaH_S, str_matDeltaH_DHHV),
            offsets=((k - 1) * L, idx_b_DHHV * siz_b_DHHV),
            block_shape=(L, siz_b_DHHV),
            order=(1, 0),
        )
        # ? end pointers
        if k % save_states_every_nth_chunk == 0:
            idx_k_save = k // save_states_every_nth_chunk
            # * store matDeltaC_k_val from previous iteration in HBM
            matDeltaCstates_k_ptr = tl.make_block_ptr(
                base=matDeltaC_states
                + idx_b_NH * str_matDeltaC_states_B_NH
                + idx_k_save * DHQK * DHHV,
                shape=(DHQK, DHHV),
                strides=(str_matDeltaC_states_NCDHQK, str_matDeltaC_states_DHHV),
                offsets=(idx_b_DHQK * siz_b_DHQK, idx_b_DHHV * siz_b_DHHV),
                block_shape=(siz_b_DHQK, siz_b_DHHV),
                order=(1, 0),
            )
            tl.store(
                matDeltaCstates_k_ptr,
                matDeltaC_k_val.to(tl.float32),
                boundary_check=(0, 1),
            )

        # * compute matDeltaC_km1_val
        # load scaG_k, vecB_k, scaM_inter_km1, scaM_inter_k, vecM_combine_k
        # load vecF
        vecF_val = tl.load(
            vecF + idx_b_NH * str_vecF_B_NH + (k - 1) * L + tl.arange(0, L),
        ).to(tl.float32)
        vecFlogsig_val = tl.log(tl.sigmoid(vecF_val))

        vecB_val = tl.cumsum(vecFlogsig_val, axis=0)  # (L,)
        # scaG_k_val is the sum of all forget gates in the current chunk
        scaG_k_val = tl.sum(vecFlogsig_val, axis=0)  # (1,)

        scaM_inter_km1_val = tl.load(
            scaM_inter + idx_b_NH * str_scaM_inter_B_NH + (k - 1)
        ).to(tl.float32)
        scaM_inter_k_val = tl.load(scaM_inter + idx_b_NH * str_scaM_inter_B_NH + k).to(
            tl.float32
        )
        vecM_combine_k_val = tl.load(
            vecM_combine
            + idx_b_NH * str_vecM_combine_B_NH
            + (k - 1) * L
            + tl.arange(0, L)
        ).to(tl.float32)

        # compute scaGbar_k, vecBbar_k
        scaGbar_k_val = tl.exp(scaG_k_val + scaM_inter_km1_val - scaM_inter_k_val)
        vecBbar_k_val = tl.exp(vecB_val + scaM_inter_km1_val - vecM_combine_k_val)

        # compute matQbar_k (DHQK, L) (Note: matQ_k is transposed)
        matQ_k_val = tl.load(matQ_k_ptr, boundary_check=(0, 1)).to(tl.float32)
        matQbar_k_val = (matQ_k_val * vecBbar_k_val[None, :] * qk_scale).to(DTYPE)

        # load vecN_out_k, matDeltaH_k
        vecN_out_k_val = tl.load(
            vecN_out + idx_b_NH * str_vecN_out_B_NH + (k - 1) * L + tl.arange(0, L)
        ).to(tl.float32)  # (L,)
        matDeltaH_k_val = tl.load(matDeltaH_ptr, boundary_check=(0, 1)).to(
            tl.float32
        )  # (L, DHHV)
        # compute matDeltaHinter_k
        matDeltaH_k_val = (matDeltaH_k_val / (vecN_out_k_val[:, None] + EPS)).to(DTYPE)

        # compute matDeltaC_km1
        matDeltaC_k_val = scaGbar_k_val * matDeltaC_k_val + tl.dot(
            matQbar_k_val, matDeltaH_k_val
        )

    # * store the first state from the last iteration
    matDeltaCstates_0_ptr = tl.make_block_ptr(
        base=matDeltaC_states + idx_b_NH * str_matDeltaC_states_B_NH + 0,
        shape=(DHQK, DHHV),
        strides=(str_matDeltaC_states_NCDHQK, str_matDeltaC_states_DHHV),
        offsets=(idx_b_DHQK * siz_b_DHQK, idx_b_DHHV * siz_b_DHHV),
        block_shape=(siz_b_DHQK, siz_b_DHHV),
        order=(1, 0),
    )
    tl.store(
        matDeltaCstates_0_ptr, matDeltaC_k_val.to(tl.float32), boundary_check=(0, 1)
    )


CHUNK, SAVE, EPS_ = _L, _SAVE, 1e-6


def make_inputs(B: int, NH: int, S: int, DHQK: int, DHHV: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, dH (B, NH, S, D) bf16; forget gate preactivations (B, NH, S) fp32; the forward's per-chunk m states
    (B, NH, NC+1), vecM_combine and vecN_out (B, NH, S) fp32 consistent with them; dC_last (B, NH, DHQK, DHHV) fp32."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    L, NC = CHUNK, S // CHUNK
    q = torch.randn((B, NH, S, DHQK), device=device, generator=g).bfloat16()
    dH = torch.randn((B, NH, S, DHHV), device=device, generator=g).bfloat16()
    vecI = torch.randn((B, NH, S), device=device, generator=g)
    vecF = torch.randn((B, NH, S), device=device, generator=g) + 3.0
    fl = torch.nn.functional.logsigmoid(vecF.double()).view(B, NH, NC, L)
    ii = vecI.double().view(B, NH, NC, L)
    m = torch.zeros((B, NH), device=device, dtype=torch.float64)
    ms, mcs = [m], []
    causal = torch.ones(L, L, dtype=torch.bool, device=device).tril()
    for k in range(NC):
        f = fl[:, :, k]
        a = torch.cat([f[..., 1:].flip(-1).cumsum(-1).flip(-1), torch.zeros_like(f[..., :1])], -1) + ii[:, :, k]
        b = f.cumsum(-1)
        Dt = (b[..., :, None] - b[..., None, :] + ii[:, :, k][..., None, :]).masked_fill(~causal, float("-inf"))
        m_intra = torch.clamp(Dt.max(-1).values, min=-10.0)
        mcs.append(torch.maximum(b + m[..., None], m_intra))
        m = torch.maximum(f.sum(-1) + m, a.max(-1).values)
        ms.append(m)
    scaM = torch.stack(ms, -1).float().contiguous()
    vecM_combine = torch.cat(mcs, -1).float().contiguous()
    vecN_out = (torch.rand((B, NH, S), device=device, generator=g) * 4 + 0.5)
    dC_last = torch.randn((B, NH, DHQK, DHHV), device=device, generator=g) * 0.1
    return {"matQ": q, "vecF": vecF, "scaM_inter": scaM, "vecM_combine": vecM_combine, "matDeltaH": dH,
            "vecN_out": vecN_out, "matDeltaC_last": dC_last}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """matDeltaC_states (B, NH, (NC/2 + 1) * DHQK, DHHV) fp32, as mlstm_chunkwise__recurrent_bw_dC returns it."""
    import torch
    matQ, vecF, scaM_inter = inputs["matQ"], inputs["vecF"], inputs["scaM_inter"]
    vecM_combine, matDeltaH, vecN_out = inputs["vecM_combine"], inputs["matDeltaH"], inputs["vecN_out"]
    matDeltaC_last = inputs["matDeltaC_last"]
    qk_scale, chunk_size, save_states_every_nth_chunk, eps = None, CHUNK, SAVE, EPS_
    B, NH, S, DHQK, DHHV = *matQ.shape, matDeltaH.shape[-1]
    _dtype, _device = matQ.dtype, matQ.device
    L = chunk_size
    NC = S // L
    if qk_scale is None:
        qk_scale = DHQK**-0.5
    USE_LAST_STATE = matDeltaC_last is not None
    num_chunks_saved = NC // save_states_every_nth_chunk
    matDeltaC_states = torch.empty(
        (B, NH, (num_chunks_saved + 1) * DHQK, DHHV),
        dtype=torch.float32,
        device=_device,
    )
    siz_b_DHQK = min(64, triton.next_power_of_2(DHQK))
    siz_b_DHHV = min(64, triton.next_power_of_2(DHHV))
    num_b_DHQK = triton.cdiv(DHQK, siz_b_DHQK)
    num_b_DHHV = triton.cdiv(DHHV, siz_b_DHHV)
    num_stages = 1
    num_warps = 4 if siz_b_DHQK == 64 else 2

    grid = (num_b_DHQK, num_b_DHHV, B * NH)
    mlstm_chunkwise__recurrent_bw_dC_kernel[grid](
        matQ=matQ,
        vecF=vecF,
        scaM_inter=scaM_inter,
        vecM_combine=vecM_combine,
        matDeltaH=matDeltaH,
        vecN_out=vecN_out,
        matDeltaC_last=matDeltaC_last,
        matDeltaC_states=matDeltaC_states,
        qk_scale=qk_scale,
        str_matQ_B_NH=matQ.stride(1),
        str_matQ_S=matQ.stride(2),
        str_matQ_DHQK=matQ.stride(3),
        str_vecF_B_NH=vecF.stride(1),
        str_scaM_inter_B_NH=scaM_inter.stride(1),
        str_scaM_inter_NC=scaM_inter.stride(2),
        str_vecM_combine_B_NH=vecM_combine.stride(1),
        str_vecM_combine_S=vecM_combine.stride(2),
        str_matDeltaH_B_NH=matDeltaH.stride(1),
        str_matDeltaH_S=matDeltaH.stride(2),
        str_matDeltaH_DHHV=matDeltaH.stride(3),
        str_vecN_out_B_NH=vecN_out.stride(1),
        str_vecN_out_S=vecN_out.stride(2),
        str_matDeltaC_last_B_NH=matDeltaC_last.stride(1) if USE_LAST_STATE else 0,
        str_matDeltaC_last_DHQK=matDeltaC_last.stride(2) if USE_LAST_STATE else 0,
        str_matDeltaC_last_DHHV=matDeltaC_last.stride(3) if USE_LAST_STATE else 0,
        str_matDeltaC_states_B_NH=matDeltaC_states.stride(1),
        str_matDeltaC_states_NCDHQK=matDeltaC_states.stride(2),
        str_matDeltaC_states_DHHV=matDeltaC_states.stride(3),
        B=B,
        NH=NH,
        S=S,
        DHQK=DHQK,
        DHHV=DHHV,
        NC=NC,
        L=L,
        siz_b_DHQK=siz_b_DHQK,
        siz_b_DHHV=siz_b_DHHV,
        save_states_every_nth_chunk=save_states_every_nth_chunk,
        USE_LAST_STATE=USE_LAST_STATE,
        DTYPE=tl.bfloat16,
        EPS=eps,
        num_stages=num_stages,
        num_warps=num_warps,
    )
    return matDeltaC_states


def reference(inputs: dict[str, Any]) -> Any:
    """The backward recurrence in fp64, from the last chunk to the first, the state before every 2nd chunk kept."""
    import torch
    q, dH = inputs["matQ"].double(), inputs["matDeltaH"].double()
    B, NH, S, DHQK = q.shape
    DHHV = dH.shape[-1]
    L, NC = CHUNK, S // CHUNK
    scale = DHQK ** -0.5
    m = inputs["scaM_inter"].double()
    mc, n = inputs["vecM_combine"].double(), inputs["vecN_out"].double()
    fl = torch.nn.functional.logsigmoid(inputs["vecF"].double())
    dC = inputs["matDeltaC_last"].double().clone()
    out = torch.empty((B, NH, NC // SAVE + 1, DHQK, DHHV), dtype=torch.float64, device=q.device)
    for k in range(NC, 0, -1):
        if k % SAVE == 0:
            out[:, :, k // SAVE] = dC
        s = slice((k - 1) * L, k * L)
        f = fl[:, :, s]
        b, g = f.cumsum(-1), f.sum(-1)
        gbar = torch.exp(g + m[:, :, k - 1] - m[:, :, k])
        bbar = torch.exp(b + m[:, :, k - 1, None] - mc[:, :, s])
        qbar = q[:, :, s] * bbar[..., None] * scale                    # (B, NH, L, DHQK)
        dHn = dH[:, :, s] / (n[:, :, s, None] + EPS_)
        dC = gbar[..., None, None] * dC + qbar.transpose(-1, -2) @ dHn
    out[:, :, 0] = dC
    return out.reshape(B, NH, (NC // SAVE + 1) * DHQK, DHHV)


def flops(B: int, NH: int, S: int, DHQK: int, DHHV: int) -> float:
    return 2.0 * B * NH * S * DHQK * DHHV
