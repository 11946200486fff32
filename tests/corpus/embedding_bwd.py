"""An embedding backward in the style of public fused-embedding kernels: each program walks a range of tokens in
blocks, loads each block's ids and gradient rows, and adds the rows into the weight gradient with ``tl.atomic_add``
inside the loop (ids repeat, so programs add into the same rows). Masked for a ragged last block.
Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"ids_ptr": "*i32", "dy_ptr": "*fp16", "dw_ptr": "*fp32", "n_tokens": "i32"},
    "constexprs": {"D": 128, "BLOCK_T": 32, "TOKENS_PER_PROG": 1024}, "num_warps": 4, "num_stages": 2}
PROBLEM: dict[str, int] = {"T": 262144, "V": 32000}
SMALL: dict[str, int] = {"T": 2000, "V": 50}


@triton.jit
def embedding_bwd(ids_ptr, dy_ptr, dw_ptr, n_tokens, D: tl.constexpr, BLOCK_T: tl.constexpr,
                  TOKENS_PER_PROG: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, D)
    start = pid * TOKENS_PER_PROG
    for t in range(start, start + TOKENS_PER_PROG, BLOCK_T):
        rows = t + tl.arange(0, BLOCK_T)
        m = rows < n_tokens
        ids = tl.load(ids_ptr + rows, mask=m, other=0)
        g = tl.load(dy_ptr + rows[:, None] * D + cols[None, :], mask=m[:, None], other=0.0)
        tl.atomic_add(dw_ptr + ids[:, None] * D + cols[None, :], g.to(tl.float32), mask=m[:, None])


def make_inputs(T: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"ids": torch.randint(0, V, (T,), device=device, dtype=torch.int32, generator=g),
            "dy": torch.randn((T, 128), device=device, dtype=torch.float16, generator=g), "V": V}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """dW[v] = sum of dy[t] over the tokens t with ids[t] = v, fp32 [V, 128]."""
    import torch
    ids, dy, V = inputs["ids"], inputs["dy"], inputs["V"]
    T = ids.shape[0]
    dw = torch.zeros((V, 128), device=dy.device, dtype=torch.float32)
    embedding_bwd[(triton.cdiv(T, 1024),)](ids, dy, dw, T, D=128, BLOCK_T=32, TOKENS_PER_PROG=1024,
                                          num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return dw


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    ids, dy, V = inputs["ids"], inputs["dy"], inputs["V"]
    return torch.zeros((V, 128), device=dy.device, dtype=torch.float64).index_add_(0, ids.long(), dy.double())


def bytes_moved(T: int, V: int) -> float:
    return T * (4 + 128 * 2 + 128 * 4)
