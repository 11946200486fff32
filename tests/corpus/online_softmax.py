"""Row softmax in two passes, as the online-softmax tutorials write it: pass 1 keeps a running max and
sum of the row as rank-0 values (whole-block ``tl.max`` / ``tl.sum``), pass 2 normalises and stores."""
from typing import Any

import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "N": "i32"},
              "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 3,
              "divisibility": ["N"]}                    # as a launch at PROBLEM specialises it
PROBLEM: dict[str, int] = {"R": 4096, "N": 8192}
SMALL: dict[str, int] = {"R": 8, "N": 1000}                  # one partial block: the masks
MORE_CHECKS = [{"R": 264, "N": 3000}]                        # more rows than SMs, a partial last block


@triton.jit
def online_softmax(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = tl.full([], float("-inf"), tl.float32)
    l = tl.full([], 0.0, tl.float32)
    for start in range(0, N, BLOCK):
        x = tl.load(x_ptr + row * N + start + offs, mask=start + offs < N, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, 0))
        p = tl.exp2(x - m_new)
        l = l * tl.exp2(m - m_new) + tl.sum(p, 0)
        m = m_new
    for start in range(0, N, BLOCK):
        x = tl.load(x_ptr + row * N + start + offs, mask=start + offs < N, other=float("-inf"))
        y = tl.exp2(x - m) / l
        tl.store(y_ptr + row * N + start + offs, y, mask=start + offs < N)


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((R, N), device=device, dtype=torch.float32, generator=g) * 4}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """y = exp2(x - rowmax) / rowsum, one program per row of a contiguous [R, N] fp32 x."""
    import torch
    x = inputs["x"]
    y = torch.empty_like(x)
    online_softmax[(x.shape[0],)](x, y, x.shape[1], BLOCK=1024, num_warps=config.get("num_warps", 4),
                                  num_stages=config.get("num_stages", 3))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    import math

    import torch
    return torch.softmax(inputs["x"].double() * math.log(2.0), dim=-1)
