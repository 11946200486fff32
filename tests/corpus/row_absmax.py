"""Per-row absolute maximum, as fp8 quantisation kernels compute a scale: a rank-0 running value updated with a
whole-block ``tl.max`` (no axis: Triton flattens the block with a ``tt.reshape`` first), one program per row."""
from typing import Any

import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"x_ptr": "*fp16", "out_ptr": "*fp32", "N": "i32"},
              "constexprs": {"BLOCK": 2048}, "num_warps": 4, "num_stages": 3,
              "divisibility": ["N"]}                    # as a launch at PROBLEM specialises it
PROBLEM: dict[str, int] = {"R": 4096, "N": 16384}
SMALL: dict[str, int] = {"R": 8, "N": 3000}                  # a partial last block: the masks


@triton.jit
def row_absmax(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = tl.zeros([], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        x = tl.load(x_ptr + row * N + start + offs, mask=start + offs < N, other=0.0).to(tl.float32)
        m = tl.maximum(m, tl.max(tl.abs(x)))
    tl.store(out_ptr + row, m)


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((R, N), device=device, dtype=torch.float32, generator=g).half()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """max |x| of each row of a contiguous [R, N] fp16 x, fp32."""
    import torch
    x = inputs["x"]
    out = torch.empty((x.shape[0],), device=x.device, dtype=torch.float32)
    row_absmax[(x.shape[0],)](x, out, x.shape[1], BLOCK=2048, num_warps=config.get("num_warps", 4),
                              num_stages=config.get("num_stages", 3))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["x"].float().abs().amax(-1)
