"""Top-p (nucleus) logits masking by bisection, as sampling libraries write it in Triton to avoid a sort (vLLM /
SGLang / FlashInfer-style threshold search, rewritten here): one program per row; a first loop over vocab chunks takes
the row's max and its softmax denominator online; then a ``while`` bisects the probability threshold: ``while it <
NUM_ITERS and hi - lo > EPS`` carrying fp32 scalars (lo, hi, it) and running, per bisection step, an inner
``for`` over the vocab chunks that sums the probability mass at or above the midpoint; a last loop masks every logit
whose probability is below the threshold to -inf and stores the row. Three loops at the top of the function (two
siblings and a while around the third), the while's condition on fp32 values the inner loop computed."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "topp_bisect_mask_kernel",
    "signature": {"logits_ptr": "*fp32", "out_ptr": "*fp32", "top_p_ptr": "*fp32", "stride": "i32", "V": "i32"},
    "constexprs": {"BLOCK": 4096, "NUM_ITERS": 32, "EPS": 1e-7},
    "num_warps": 8, "num_stages": 2,
    "divisibility": ["logits_ptr", "out_ptr", "stride", "V"]}
PROBLEM: dict[str, int] = {"rows": 256, "vocab": 151936}
SMALL: dict[str, int] = {"rows": 3, "vocab": 1000}


@triton.jit
def topp_bisect_mask_kernel(logits_ptr, out_ptr, top_p_ptr, stride, V, BLOCK: tl.constexpr, NUM_ITERS: tl.constexpr,
                            EPS: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    logits_ptr += row * stride
    out_ptr += row * stride
    top_p = tl.load(top_p_ptr + row)
    cols = tl.arange(0, BLOCK)
    # online max and denominator over the vocab
    m = -float("inf")
    d = 0.0
    for start in range(0, V, BLOCK):
        x = tl.load(logits_ptr + start + cols, mask=start + cols < V, other=-float("inf"))
        m_new = tl.maximum(m, tl.max(x, 0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), 0)
        m = m_new
    # bisect the probability threshold t: the smallest mass at or above t that still reaches top_p
    lo = 0.0
    hi = 1.0
    it = 0
    while it < NUM_ITERS and hi - lo > EPS:
        mid = (lo + hi) * 0.5
        mass = 0.0
        for start in range(0, V, BLOCK):
            x = tl.load(logits_ptr + start + cols, mask=start + cols < V, other=-float("inf"))
            p = tl.exp(x - m) / d
            mass += tl.sum(tl.where(p >= mid, p, 0.0), 0)
        if mass >= top_p:
            lo = mid
        else:
            hi = mid
        it += 1
    for start in range(0, V, BLOCK):
        in_row = start + cols < V
        x = tl.load(logits_ptr + start + cols, mask=in_row, other=-float("inf"))
        p = tl.exp(x - m) / d
        tl.store(out_ptr + start + cols, tl.where(p >= lo, x, -float("inf")), mask=in_row)


def make_inputs(rows: int, vocab: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn((rows, vocab), device=device, generator=g) * 3.0
    top_p = torch.linspace(0.5, 0.95, rows, device=device)
    return {"logits": logits, "top_p": top_p}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The logits with every token outside the row's nucleus set to -inf, [rows, vocab] fp32."""
    import torch
    logits, top_p = inputs["logits"], inputs["top_p"]
    out = torch.empty_like(logits)
    rows, V = logits.shape
    topp_bisect_mask_kernel[(rows,)](logits, out, top_p, logits.stride(0), V, BLOCK=config.get("BLOCK", 4096),
                                     NUM_ITERS=32, EPS=1e-7, num_warps=config.get("num_warps", 8),
                                     num_stages=config.get("num_stages", 2))
    return out.masked_fill(torch.isinf(out), 0.0), torch.isinf(out).float()


def reference(inputs: dict[str, Any]) -> Any:
    """The nucleus by sorting: the most probable tokens whose mass before them is below top_p (ties aside, what the
    bisection keeps)."""
    import torch
    logits, top_p = inputs["logits"].double(), inputs["top_p"].double()
    p = torch.softmax(logits, dim=-1)
    sp, idx = torch.sort(p, dim=-1, descending=True)
    before = torch.cumsum(sp, dim=-1) - sp
    keep_sorted = before < top_p[:, None]
    keep = torch.zeros_like(keep_sorted).scatter(1, idx, keep_sorted)
    out = torch.where(keep, logits, torch.zeros_like(logits))
    return out, (~keep).double()
