"""Apex's ``multi_tensor_adam`` (csrc/multi_tensor_adam.cu through ``multi_tensor_apply``: ``amp_C.multi_tensor_adam``,
what ``FusedAdam`` and PyTorch's ``_foreach`` fused AdamW path launch) written in Triton: a whole list of parameters
updated by one launch, each program one **chunk of one tensor**, the tensor's four buffers found through an **int64
address table**.

The constructs: ``tensor_id = tl.load(block_to_tensor + pid)``, ``chunk = tl.load(block_to_chunk + pid)`` (the
host's chunk map, as ``multi_tensor_apply`` builds it); the tensor's length loaded (``n = tl.load(sizes +
tensor_id)``) and its grad / param / exp_avg / exp_avg_sq addresses loaded from a [T, 4] int64 table and **cast to
typed pointers** (``tl.load(addrs + tensor_id * 4 + 0).to(tl.pointer_type(tl.bfloat16))``, fp32 for the other three);
then a loop over the chunk in BLOCK_SIZE slices whose **trip count is a loaded value** (``chunk_n =
tl.minimum(CHUNK_SIZE, n - chunk_start)``, so the last chunk of a tensor and a tensor smaller than a chunk run fewer
trips), every slice masked by ``offs < chunk_n``; the AdamW update in fp32 (``ADAM_W_MODE``: decoupled weight decay
``update += decay * p``; the bias corrections ``1 - beta ** step`` passed as scalars), the param and both moments
stored in place. bf16 grads, fp32 master params and moments, Apex's 65536-element chunks, 1024-element slices, 4
warps. Nothing here is imported by twill."""
from __future__ import annotations

import types
from typing import Any

import triton
import triton.language as tl

CHUNK_SIZE, BLOCK_SIZE = 65536, 1024
TWILL_SPEC: dict[str, Any] = {
    "kernel": "multi_tensor_adam_kernel",
    "signature": {"addrs": "*i64", "sizes": "*i32", "block_to_tensor": "*i32", "block_to_chunk": "*i32",
                  "lr": "fp32", "beta1": "fp32", "beta2": "fp32", "eps": "fp32", "weight_decay": "fp32",
                  "bias_correction1": "fp32", "bias_correction2": "fp32"},
    "constexprs": {"CHUNK_SIZE": CHUNK_SIZE, "BLOCK_SIZE": BLOCK_SIZE, "ADAM_W_MODE": True},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["addrs", "sizes", "block_to_tensor", "block_to_chunk"]}
# the weights of two LLaMA-style layers at hidden 2048 (four attention projections, three MLP matrices, two norms):
# 103M parameters in 18 tensors
PROBLEM: dict[str, int] = {"LAYERS": 2, "H": 2048, "I": 5632}
SMALL: dict[str, int] = {"LAYERS": 2, "H": 48, "I": 1400}


@triton.jit
def multi_tensor_adam_kernel(addrs, sizes, block_to_tensor, block_to_chunk, lr, beta1, beta2, eps, weight_decay,
                             bias_correction1, bias_correction2, CHUNK_SIZE: tl.constexpr, BLOCK_SIZE: tl.constexpr,
                             ADAM_W_MODE: tl.constexpr):
    pid = tl.program_id(0)
    tensor_id = tl.load(block_to_tensor + pid)
    chunk = tl.load(block_to_chunk + pid)
    n = tl.load(sizes + tensor_id)
    g_ptr = tl.load(addrs + tensor_id * 4 + 0).to(tl.pointer_type(tl.bfloat16))
    p_ptr = tl.load(addrs + tensor_id * 4 + 1).to(tl.pointer_type(tl.float32))
    m_ptr = tl.load(addrs + tensor_id * 4 + 2).to(tl.pointer_type(tl.float32))
    v_ptr = tl.load(addrs + tensor_id * 4 + 3).to(tl.pointer_type(tl.float32))

    chunk_start = chunk.to(tl.int64) * CHUNK_SIZE
    chunk_n = tl.minimum(CHUNK_SIZE, n - chunk_start)
    g_ptr += chunk_start
    p_ptr += chunk_start
    m_ptr += chunk_start
    v_ptr += chunk_start
    for i in range(0, chunk_n, BLOCK_SIZE):
        offs = i + tl.arange(0, BLOCK_SIZE)
        mask = offs < chunk_n
        g = tl.load(g_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        p = tl.load(p_ptr + offs, mask=mask, other=0.0)
        m = tl.load(m_ptr + offs, mask=mask, other=0.0)
        v = tl.load(v_ptr + offs, mask=mask, other=0.0)
        if not ADAM_W_MODE:
            g = g + weight_decay * p
        m = beta1 * m + (1.0 - beta1) * g
        v = beta2 * v + (1.0 - beta2) * g * g
        m_hat = m / bias_correction1
        v_hat = v / bias_correction2
        update = m_hat / (tl.sqrt(v_hat) + eps)
        if ADAM_W_MODE:
            update = update + weight_decay * p
        p = p - lr * update
        tl.store(p_ptr + offs, p, mask=mask)
        tl.store(m_ptr + offs, m, mask=mask)
        tl.store(v_ptr + offs, v, mask=mask)


_HYPER = {"lr": 1e-3, "beta1": 0.9, "beta2": 0.95, "eps": 1e-8, "weight_decay": 0.1, "step": 7}


def make_inputs(LAYERS: int, H: int, I: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:  # noqa: E741
    """Per layer: q, k, v, o [H, H]; gate, up [I, H]; down [H, I]; two norms [H]. bf16 grads, fp32 params, exp_avg
    (randn / 100) and exp_avg_sq (positive, as after a few steps)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    shapes = []
    for _ in range(LAYERS):
        shapes += [(H, H)] * 4 + [(I, H), (I, H), (H, I), (H,), (H,)]
    grads, params, m, v = [], [], [], []
    for s in shapes:
        grads.append((torch.randn(s, device=device, generator=g) * 1e-2).bfloat16())
        params.append(torch.randn(s, device=device, generator=g) * 0.02)
        m.append(torch.randn(s, device=device, generator=g) * 1e-3)
        v.append(torch.rand(s, device=device, generator=g) * 1e-4)
    # the buffers the kernel updates in place and its tables, made once with the inputs as Apex's multi_tensor_apply
    # is handed fixed tensor lists (a table built inside ``launch`` would copy from the host during a graph's capture)
    work = {k: [t.clone() for t in ts] for k, ts in (("p", params), ("m", m), ("v", v))}
    addrs = torch.tensor([[gg.data_ptr(), pp.data_ptr(), mm.data_ptr(), vv.data_ptr()]
                          for gg, pp, mm, vv in zip(grads, work["p"], work["m"], work["v"])], device=device,
                         dtype=torch.int64)
    b2t, b2c = [], []
    for t, gg in enumerate(grads):
        nchunks = triton.cdiv(gg.numel(), CHUNK_SIZE)
        b2t += [t] * nchunks
        b2c += list(range(nchunks))
    tables = {"addrs": addrs, "sizes": torch.tensor([t.numel() for t in grads], device=device, dtype=torch.int32),
              "b2t": torch.tensor(b2t, device=device, dtype=torch.int32),
              "b2c": torch.tensor(b2c, device=device, dtype=torch.int32)}
    # held outside the dict's tensors (a namespace, which a harness copying the inputs' tensors leaves as it is): the
    # table names these buffers, so they are the ones every launch updates
    return {"grads": grads, "params": params, "exp_avg": m, "exp_avg_sq": v,
            "workspace": types.SimpleNamespace(work=work, tables=tables)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """One FusedAdam step on copies of the params and moments (the kernel updates in place); the updated params,
    exp_avg and exp_avg_sq, each list flattened and concatenated."""
    import torch
    work, tb = inputs["workspace"].work, inputs["workspace"].tables
    p, m, v = work["p"], work["m"], work["v"]
    for dst, src in ((p, inputs["params"]), (m, inputs["exp_avg"]), (v, inputs["exp_avg_sq"])):
        torch._foreach_copy_(dst, src)
    addrs, sizes, b2t_t, b2c_t = tb["addrs"], tb["sizes"], tb["b2t"], tb["b2c"]
    h = _HYPER
    multi_tensor_adam_kernel[(b2t_t.numel(),)](addrs, sizes, b2t_t, b2c_t, h["lr"], h["beta1"], h["beta2"], h["eps"],
                                          h["weight_decay"], 1.0 - h["beta1"] ** h["step"],
                                          1.0 - h["beta2"] ** h["step"], CHUNK_SIZE=CHUNK_SIZE,
                                          BLOCK_SIZE=BLOCK_SIZE, ADAM_W_MODE=True,
                                          num_warps=config.get("num_warps", 4),
                                          num_stages=config.get("num_stages", 2))
    return tuple(torch.cat([t.flatten() for t in ts]) for ts in (p, m, v))


def reference(inputs: dict[str, Any]) -> Any:
    """The AdamW step in double (PyTorch's ``_single_tensor_adamw`` arithmetic with Apex's eps placement)."""
    import torch
    h = _HYPER
    bc1, bc2 = 1.0 - h["beta1"] ** h["step"], 1.0 - h["beta2"] ** h["step"]
    ps, ms, vs = [], [], []
    for gg, pp, mm, vv in zip(inputs["grads"], inputs["params"], inputs["exp_avg"], inputs["exp_avg_sq"]):
        gd, pd, md, vd = gg.double(), pp.double(), mm.double(), vv.double()
        md = h["beta1"] * md + (1 - h["beta1"]) * gd
        vd = h["beta2"] * vd + (1 - h["beta2"]) * gd * gd
        upd = (md / bc1) / ((vd / bc2).sqrt() + h["eps"]) + h["weight_decay"] * pd
        ps.append((pd - h["lr"] * upd).flatten())
        ms.append(md.flatten())
        vs.append(vd.flatten())
    return torch.cat(ps), torch.cat(ms), torch.cat(vs)


def flops(LAYERS: int, H: int, I: int) -> float:  # noqa: E741
    return 16.0 * LAYERS * (4 * H * H + 3 * H * I + 2 * H)
