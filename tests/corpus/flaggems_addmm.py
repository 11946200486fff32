"""FlagGems' `addmm_kernel` (src/flag_gems/ops/addmm.py, late 2025): out = alpha * (A @ B) + beta * bias with a 2-D
grid (pid_m, pid_n from FlagGems' `tle.program_id`, a @triton.jit helper returning the program id as int64), a
`range(0, tl.cdiv(K, BLOCK_SIZE_K))` loop whose loads are masked on M, N and the K tail, `tl.dot(a, b,
allow_tf32=False)` accumulated with `+=`, the bias read through its own 2-D strides after the loop (addmm passes
`bias.broadcast_to(out.shape)`: a 1-D bias gives stride_im == 0), the result cast to the bias dtype. Decorators as
FlagGems stacks them: `@libentry()`, `@libtuner(configs=runtime.get_tuned_config("addmm"), key=["M","N","K"],
strategy=[...], warmup=5, rep=10)` and `@triton.jit(do_not_specialize=["alpha", "beta"])`; flag_gems is not
installed here, so `libentry`, `libtuner`, `runtime.get_tuned_config` and the `tle` module are small local
stand-ins (identity, triton.autotune, the nvidia tune_configs.yaml "addmm" list, a module holding `program_id`).
bf16, an nn.Linear-like call: alpha = 1 (an int: do_not_specialize keeps it an i32 argument, not the constexpr 1
Triton would otherwise make it), beta = 0.5. The first tuned config: 128 x 256 x 64, 8 warps, 3 stages. The `tle`
module is FlagGems' own import (flag_gems is not installed where the tests run): twill imports a library's helpers
where it is installed, and otherwise refuses in one line naming the import."""
from __future__ import annotations

import types
from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "addmm_kernel",
    "signature": {"a_ptr": "*bf16", "b_ptr": "*bf16", "i_ptr": "*bf16", "c_ptr": "*bf16", "alpha": "i32",
                  "beta": "fp32", "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
                  "stride_im": "i32", "stride_in": "constexpr", "stride_cm": "i32", "stride_cn": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_in": 1, "stride_cn": 1,
                   "BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["N", "K", "stride_am", "stride_bk", "stride_im", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 203, "N": 272, "K": 144}
ALPHA, BETA = 1, 0.5


# ---- stand-ins for what flag_gems imports (flag_gems.utils.libentry / libtuner, flag_gems.runtime,
# ---- flag_gems.utils.triton_lang_extension) --------------------------------------------------------------------
def libentry():
    """flag_gems.utils.libentry: a launch-time cache in front of the kernel; identity here."""
    def decorator(fn):
        return fn
    return decorator


def libtuner(configs, key, strategy=None, warmup=25, rep=100, **kwargs):
    """flag_gems.utils.libtuner: an Autotuner subclass (key bucketing by `strategy`); triton.autotune here."""
    return triton.autotune(configs=configs, key=key)


class runtime:  # noqa: N801  (flag_gems.runtime)
    @staticmethod
    def get_tuned_config(op_name):
        # src/flag_gems/runtime/backend/_nvidia/tune_configs.yaml, "addmm"
        table = {"addmm": [({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64}, 3, 8),
                           ({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 32}, 4, 4),
                           ({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32}, 4, 4),
                           ({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32}, 4, 4),
                           ({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32}, 4, 4)]}
        return [triton.Config(meta, num_stages=s, num_warps=w) for meta, s, w in table[op_name]]


from flag_gems.utils import triton_lang_extension as tle  # the real import (flag_gems not installed)
# ----------------------------------------------------------------------------------------------------------------


@libentry()
@libtuner(
    configs=runtime.get_tuned_config("addmm"),
    key=["M", "N", "K"],
    strategy=["align32", "align32", "align32"],
    warmup=5,
    rep=10,
)
@triton.jit(do_not_specialize=["alpha", "beta"])
def addmm_kernel(
    a_ptr,
    b_ptr,
    i_ptr,
    c_ptr,
    alpha,
    beta,
    M,
    N,
    K,
    stride_am,
    stride_ak,
    stride_bk,
    stride_bn,
    stride_im,
    stride_in,
    stride_cm,
    stride_cn,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
):
    pid_m = tle.program_id(0)
    pid_n = tle.program_id(1)

    offs_am = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_bn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(
            a_ptrs,
            mask=(offs_am[:, None] < M) & (offs_k[None, :] < K - k * BLOCK_SIZE_K),
            other=0.0,
        )
        b = tl.load(
            b_ptrs,
            mask=(offs_k[:, None] < K - k * BLOCK_SIZE_K) & (offs_bn[None, :] < N),
            other=0.0,
        )
        accumulator += tl.dot(a, b, allow_tf32=False)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    i_ptrs = i_ptr + stride_im * offs_cm[:, None] + stride_in * offs_cn[None, :]
    bias = tl.load(i_ptrs, mask=c_mask, other=0.0)

    accumulator = accumulator * alpha + bias * beta
    c = accumulator.to(bias.dtype)
    tl.store(c_ptrs, c, mask=c_mask)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    mat1 = torch.randn((M, K), device=device, generator=g).to(torch.bfloat16)
    mat2 = (torch.randn((K, N), device=device, generator=g) / K ** 0.5).to(torch.bfloat16)
    bias = torch.randn((N,), device=device, generator=g).to(torch.bfloat16)
    return {"bias": bias, "mat1": mat1, "mat2": mat2}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """flag_gems addmm(bias, mat1, mat2, beta=0.5, alpha=1): bf16 [M, N] (the libtuner picks the config)."""
    import torch
    bias, mat1, mat2 = inputs["bias"], inputs["mat1"], inputs["mat2"]
    beta, alpha = BETA, ALPHA
    assert mat1.shape[1] == mat2.shape[0], "Incompatible dimensions"
    M, K = mat1.shape
    _, N = mat2.shape
    mat1 = mat1.contiguous()
    out = torch.empty((M, N), device=mat1.device, dtype=mat1.dtype)
    bias = bias.broadcast_to(out.shape)

    grid = lambda META: (
        triton.cdiv(M, META["BLOCK_SIZE_M"]),
        triton.cdiv(N, META["BLOCK_SIZE_N"]),
    )
    addmm_kernel[grid](
        mat1,
        mat2,
        bias,
        out,
        alpha,
        beta,
        M,
        N,
        K,
        mat1.stride(0),
        mat1.stride(1),
        mat2.stride(0),
        mat2.stride(1),
        bias.stride(0),
        bias.stride(1),
        out.stride(0),
        out.stride(1),
    )
    return out


def reference(inputs: dict[str, Any]) -> Any:
    return ALPHA * (inputs["mat1"].double() @ inputs["mat2"].double()) + BETA * inputs["bias"].double()[None, :]


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
