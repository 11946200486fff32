"""bitsandbytes' fused int8 matmul + row-wise dequantize (bitsandbytes/triton/int8_matmul_rowwise_dequantize.py:
``_int8_matmul_rowwise_dequantize`` launched by ``int8_matmul_rowwise_dequantize``, used by SwitchBack linear).

The constructs, as the file writes them: the whole kernel module inside ``if not is_triton_available(): <stub>
else: <imports, kernel, wrapper>``; a kernel "based on triton.ops.matmul": ``@triton.autotune`` over 18 literal
compute-bound configs plus the ``*get_configs_io_bound()`` list (a nested-loop function building SPLIT_K 1 / 2 / 4 /
8 / 16 configs, the split ones with ``pre_hook=init_to_zero("C")``), ``prune_configs_by`` with
``early_config_prune`` / ``estimate_matmul_time`` / ``top_k`` (triton.ops.matmul_perf_model's, which Triton 3 no
longer ships: bitsandbytes vendors them, here local helpers), over ``@triton.heuristics`` computing
``EVEN_K = K % (BLOCK_K * SPLIT_K) == 0``; a ``has_bias: tl.constexpr`` in the middle of the runtime arguments and
an unused ``ACC_TYPE`` dtype constexpr; the GROUP_M swizzle of the 1-D program id; ``rm % M`` / ``rn % N`` wrapped
offsets under ``tl.max_contiguous(tl.multiple_of(...))``; the split-K index ``pid_z = tl.program_id(1)`` offsetting
``rk``; the per-column ``state_w`` and per-row ``state_x`` factors loaded before the loop; a K loop
``for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K))`` with an EVEN_K branch (unmasked loads) and a masked one
(``k_remaining``), ``acc += tl.dot(a, b)`` on int8 with an int32 accumulator, pointers bumped by
``BLOCK_K * SPLIT_K * stride``; after the loop ``acc = w_factor * (x_factor * (acc * divfactor))``, cast to C's
element type, the (unmasked) bias add, and ``tl.store`` when ``SPLIT_K == 1`` else ``tl.atomic_add`` (every split
adds the bias, as the original does: ``early_config_prune`` drops the SPLIT_K > 1 configs for int8 A, so that path
never runs; the interpreter check confirms split-K matches without bias).

Specialisation: SwitchBack's call ``int8_matmul_rowwise_dequantize(X_int8, W_int8.t(), state_X, state_W, bias)``:
A int8 [M, K] row-major, B = W_int8.t() int8 [K, N] with unit K stride (the wrapper keeps the transposed view),
fp16 states and bias, fp16 C; TWILL_SPEC takes the first autotune config (128 x 256 x 32, SPLIT_K 1, 8 warps, 3
stages), GROUP_M 8, EVEN_K. Nothing here is imported by twill."""
from __future__ import annotations

import heapq
import importlib.util
from typing import Any

import torch
import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_int8_matmul_rowwise_dequantize",
    "signature": {"A": "*i8", "B": "*i8", "C": "*fp16", "bias": "*fp16", "state_x_ptr": "*fp16",
                  "state_w_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32", "divfactor": "fp32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "constexpr", "stride_bn": "i32",
                  "stride_cm": "i32", "stride_cn": "constexpr"},
    "constexprs": {"has_bias": 1, "stride_ak": 1, "stride_bk": 1, "stride_cn": 1, "BLOCK_M": 128, "BLOCK_N": 256,
                   "BLOCK_K": 32, "GROUP_M": 8, "SPLIT_K": 1, "EVEN_K": True, "ACC_TYPE": tl.float32},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["M", "N", "K", "stride_am", "stride_bn", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 8192, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 96, "N": 512, "K": 256}   # EVEN_K, as the generated kernel is specialised


def is_triton_available():
    return importlib.util.find_spec("triton") is not None


# bitsandbytes vendors triton.ops.matmul_perf_model (removed from Triton 3): the two functions the autotuner uses.
def get_tensorcore_tflops(device, num_ctas, num_warps, dtype):
    """return compute throughput in TOPS"""
    from triton.testing import get_max_tensorcore_tflops, nvsmi
    total_warps = num_ctas * min(num_warps, 4)
    num_subcores = triton.runtime.driver.active.utils.get_device_properties(device)["multiprocessor_count"] * 4
    cur_sm_clock = nvsmi(["clocks.current.sm"])[0]
    tflops = min(num_subcores, total_warps) / num_subcores * get_max_tensorcore_tflops(dtype, cur_sm_clock, device)
    return tflops


def get_tflops(device, num_ctas, num_warps, dtype):
    capability = torch.cuda.get_device_capability(device)
    if capability[0] < 8 and dtype == torch.float32:
        raise NotImplementedError("simt tflops")
    return get_tensorcore_tflops(device, num_ctas, num_warps, dtype)


def estimate_matmul_time(
    # backend, device,
    num_warps,
    num_stages,  #
    A,
    B,
    C,  #
    M,
    N,
    K,  #
    BLOCK_M,
    BLOCK_N,
    BLOCK_K,
    SPLIT_K,  #
    debug=False,
    **kwargs,  #
):
    """return estimated running time in ms
    = max(compute, loading) + store"""
    from triton.testing import get_dram_gbps
    device = torch.cuda.current_device()
    dtype = A.dtype
    dtsize = A.element_size()

    num_cta_m = triton.cdiv(M, BLOCK_M)
    num_cta_n = triton.cdiv(N, BLOCK_N)
    num_cta_k = SPLIT_K
    num_ctas = num_cta_m * num_cta_n * num_cta_k

    # If the input is smaller than the block size
    M, N = max(M, BLOCK_M), max(N, BLOCK_N)

    # time to compute
    total_ops = 2 * M * N * K / (1024 * 1024 * 1024)  # GOPS
    tput = get_tflops(device, num_ctas, num_warps, dtype)
    compute_ms = total_ops / tput

    # time to load data
    num_sm = triton.runtime.driver.active.utils.get_device_properties(device)["multiprocessor_count"]
    active_cta_ratio = min(1, num_ctas / num_sm)  # noqa: F841
    active_cta_ratio_bw1 = min(1, num_ctas / 32)  # 32 active ctas are enough to saturate
    active_cta_ratio_bw2 = max(min(1, (num_ctas - 32) / (108 - 32)), 0)  # 32-108, remaining 5%
    dram_bw = get_dram_gbps(device) * (active_cta_ratio_bw1 * 0.95 + active_cta_ratio_bw2 * 0.05)  # in GB/s
    l2_bw = dram_bw * 4  # rough estimation (should be 4.7 for A100?)
    # assume 80% of (following) loads are in L2 cache
    load_a_dram = M * K * dtsize * (1 + 0.2 * (num_cta_n - 1))
    load_a_l2 = M * K * dtsize * 0.8 * (num_cta_n - 1)
    load_b_dram = N * K * dtsize * (1 + 0.2 * (num_cta_m - 1))
    load_b_l2 = N * K * dtsize * 0.8 * (num_cta_m - 1)
    # total
    total_dram = (load_a_dram + load_b_dram) / (1024 * 1024)  # MB
    total_l2 = (load_a_l2 + load_b_l2) / (1024 * 1024)
    # loading time in ms
    load_ms = total_dram / dram_bw + total_l2 / l2_bw

    # estimate storing time
    store_bw = dram_bw * 0.6  # :o
    store_c_dram = M * N * C.element_size() * SPLIT_K / (1024 * 1024)  # MB
    if SPLIT_K == 1:
        store_ms = store_c_dram / store_bw
    else:
        reduce_bw = store_bw
        store_ms = store_c_dram / reduce_bw
        # c.zero_()
        zero_ms = M * N * 2 / (1024 * 1024) / store_bw
        store_ms += zero_ms

    total_time_ms = max(compute_ms, load_ms) + store_ms
    if debug:
        print(
            f"Total time: {total_time_ms}ms, compute time: {compute_ms}ms, "
            f"loading time: {load_ms}ms, store time: {store_ms}ms, "
            f"Activate CTAs: {active_cta_ratio*100}%"
        )
    return total_time_ms


def early_config_prune(configs, named_args, **kwargs):
    device = torch.cuda.current_device()
    capability = torch.cuda.get_device_capability()
    # BLOCK_M, BLOCK_N, BLOCK_K, SPLIT_K, num_warps, num_stages
    dtsize = named_args["A"].element_size()
    dtype = named_args["A"].dtype

    # 1. make sure we have enough smem
    pruned_configs = []
    for config in configs:
        kw = config.kwargs
        BLOCK_M, BLOCK_N, BLOCK_K, num_stages = kw["BLOCK_M"], kw["BLOCK_N"], kw["BLOCK_K"], config.num_stages

        max_shared_memory = triton.runtime.driver.active.utils.get_device_properties(device)["max_shared_mem"]
        required_shared_memory = (BLOCK_M + BLOCK_N) * BLOCK_K * num_stages * dtsize
        if required_shared_memory <= max_shared_memory:
            pruned_configs.append(config)
    configs = pruned_configs

    # Some dtypes do not allow atomic_add
    if dtype not in [torch.float16, torch.float32]:
        configs = [config for config in configs if config.kwargs["SPLIT_K"] == 1]

    # group configs by (BLOCK_M,_N,_K, SPLIT_K, num_warps)
    configs_map = {}
    for config in configs:
        kw = config.kwargs
        BLOCK_M, BLOCK_N, BLOCK_K, SPLIT_K, num_warps, num_stages = (
            kw["BLOCK_M"],
            kw["BLOCK_N"],
            kw["BLOCK_K"],
            kw["SPLIT_K"],
            config.num_warps,
            config.num_stages,
        )

        key = (BLOCK_M, BLOCK_N, BLOCK_K, SPLIT_K, num_warps)
        if key in configs_map:
            configs_map[key].append((config, num_stages))
        else:
            configs_map[key] = [(config, num_stages)]

    pruned_configs = []
    for k, v in configs_map.items():
        BLOCK_M, BLOCK_N, BLOCK_K, SPLIT_K, num_warps = k
        if capability[0] >= 8:
            # compute cycles (only works for ampere GPUs)
            mmas = BLOCK_M * BLOCK_N * BLOCK_K / (16 * 8 * 16)
            mma_cycles = mmas / min(4, num_warps) * 8

            ldgsts_latency = 300  # Does this matter?
            optimal_num_stages = ldgsts_latency / mma_cycles

            # nearest stages, prefer large #stages
            nearest = heapq.nsmallest(
                2,
                v,
                key=lambda x: (
                    10 + abs(x[1] - optimal_num_stages)
                    if (x[1] - optimal_num_stages) < 0
                    else x[1] - optimal_num_stages
                ),
            )

            for n in nearest:
                pruned_configs.append(n[0])
        else:  # Volta & Turing only supports num_stages <= 2
            random_config = v[0][0]
            random_config.num_stages = 2
            pruned_configs.append(random_config)
    return pruned_configs


if not is_triton_available():

    def int8_matmul_rowwise_dequantize(a, b, state_x, state_w, bias):
        return None

else:
    import triton
    import triton.language as tl

    # This is a matmul kernel based on triton.ops.matmul
    # It is modified to support rowwise quantized input and columnwise quantized weight
    # It's purpose is fused matmul then dequantize
    # It does support bias.

    def init_to_zero(name):
        return lambda nargs: nargs[name].zero_()

    def get_configs_io_bound():
        configs = []
        for num_stages in [2, 3, 4, 5, 6]:
            for block_m in [16, 32]:
                for block_k in [32, 64]:
                    for block_n in [32, 64, 128, 256]:
                        num_warps = 2 if block_n <= 64 else 4
                        configs.append(
                            triton.Config(
                                {"BLOCK_M": block_m, "BLOCK_N": block_n, "BLOCK_K": block_k, "SPLIT_K": 1},
                                num_stages=num_stages,
                                num_warps=num_warps,
                            ),
                        )
                        # split_k
                        for split_k in [2, 4, 8, 16]:
                            configs.append(
                                triton.Config(
                                    {"BLOCK_M": block_m, "BLOCK_N": block_n, "BLOCK_K": block_k, "SPLIT_K": split_k},
                                    num_stages=num_stages,
                                    num_warps=num_warps,
                                    pre_hook=init_to_zero("C"),
                                ),
                            )
        return configs

    @triton.autotune(
        configs=[
            # basic configs for compute-bound matmuls
            triton.Config({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 32, "SPLIT_K": 1}, num_stages=3, num_warps=8),
            triton.Config({"BLOCK_M": 256, "BLOCK_N": 128, "BLOCK_K": 32, "SPLIT_K": 1}, num_stages=3, num_warps=8),
            triton.Config({"BLOCK_M": 256, "BLOCK_N": 64, "BLOCK_K": 32, "SPLIT_K": 1}, num_stages=4, num_warps=4),
            triton.Config({"BLOCK_M": 64, "BLOCK_N": 256, "BLOCK_K": 32, "SPLIT_K": 1}, num_stages=4, num_warps=4),
            triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "SPLIT_K": 1}, num_stages=4, num_warps=4),
            triton.Config({"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32, "SPLIT_K": 1}, num_stages=4, num_warps=4),
            triton.Config({"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 32, "SPLIT_K": 1}, num_stages=4, num_warps=4),
            triton.Config({"BLOCK_M": 128, "BLOCK_N": 32, "BLOCK_K": 32, "SPLIT_K": 1}, num_stages=4, num_warps=4),
            triton.Config({"BLOCK_M": 64, "BLOCK_N": 32, "BLOCK_K": 32, "SPLIT_K": 1}, num_stages=5, num_warps=2),
            # good for int8
            triton.Config({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 128, "SPLIT_K": 1}, num_stages=3, num_warps=8),
            triton.Config({"BLOCK_M": 256, "BLOCK_N": 128, "BLOCK_K": 128, "SPLIT_K": 1}, num_stages=3, num_warps=8),
            triton.Config({"BLOCK_M": 256, "BLOCK_N": 64, "BLOCK_K": 128, "SPLIT_K": 1}, num_stages=4, num_warps=4),
            triton.Config({"BLOCK_M": 64, "BLOCK_N": 256, "BLOCK_K": 128, "SPLIT_K": 1}, num_stages=4, num_warps=4),
            triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128, "SPLIT_K": 1}, num_stages=4, num_warps=4),
            triton.Config({"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 64, "SPLIT_K": 1}, num_stages=4, num_warps=4),
            triton.Config({"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64, "SPLIT_K": 1}, num_stages=4, num_warps=4),
            triton.Config({"BLOCK_M": 128, "BLOCK_N": 32, "BLOCK_K": 64, "SPLIT_K": 1}, num_stages=4, num_warps=4),
            triton.Config({"BLOCK_M": 64, "BLOCK_N": 32, "BLOCK_K": 64, "SPLIT_K": 1}, num_stages=5, num_warps=2),
            *get_configs_io_bound(),
        ],
        key=["M", "N", "K"],
        prune_configs_by={"early_config_prune": early_config_prune, "perf_model": estimate_matmul_time, "top_k": 10},
    )
    @triton.heuristics(
        {
            "EVEN_K": lambda args: args["K"] % (args["BLOCK_K"] * args["SPLIT_K"]) == 0,
        },
    )
    @triton.jit
    def _int8_matmul_rowwise_dequantize(
        A,
        B,
        C,
        bias,
        state_x_ptr,
        state_w_ptr,
        M,
        N,
        K,
        divfactor,
        has_bias: tl.constexpr,
        stride_am,
        stride_ak,
        stride_bk,
        stride_bn,
        stride_cm,
        stride_cn,
        BLOCK_M: tl.constexpr,
        BLOCK_N: tl.constexpr,
        BLOCK_K: tl.constexpr,
        GROUP_M: tl.constexpr,
        SPLIT_K: tl.constexpr,
        EVEN_K: tl.constexpr,
        ACC_TYPE: tl.constexpr,
    ):
        # matrix multiplication
        pid = tl.program_id(0)
        pid_z = tl.program_id(1)
        grid_m = tl.cdiv(M, BLOCK_M)
        grid_n = tl.cdiv(N, BLOCK_N)
        # re-order program ID for better L2 performance
        width = GROUP_M * grid_n
        group_id = pid // width
        group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
        pid_m = group_id * GROUP_M + (pid % group_size)
        pid_n = (pid % width) // (group_size)
        # do matrix multiplication
        rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        ram = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
        rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
        rk = pid_z * BLOCK_K + tl.arange(0, BLOCK_K)
        # pointers
        A = A + (ram[:, None] * stride_am + rk[None, :] * stride_ak)
        B = B + (rk[:, None] * stride_bk + rbn[None, :] * stride_bn)

        # rematerialize rm and rn to save registers
        rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)

        w_factor = tl.load(state_w_ptr + rbn)[None, :]
        x_factor = tl.load(state_x_ptr + ram)[:, None]

        # acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
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

        acc = w_factor * (x_factor * (acc * divfactor))
        acc = acc.to(C.dtype.element_ty)

        if has_bias:
            bias = tl.load(bias + rn).to(C.dtype.element_ty)
            acc = acc + bias[None, :]

        C = C + (rm[:, None] * stride_cm + rn[None, :] * stride_cn)
        mask = (rm < M)[:, None] & (rn < N)[None, :]
        # handles write-back with reduction-splitting
        if SPLIT_K == 1:
            tl.store(C, acc, mask=mask)
        else:
            tl.atomic_add(C, acc, mask=mask)

    def int8_matmul_rowwise_dequantize(a, b, state_x, state_w, bias):
        divfactor = 1.0 / (127.0 * 127.0)

        has_bias = 0 if bias is None else 1

        device = a.device
        # handle non-contiguous inputs if necessary
        if a.stride(0) > 1 and a.stride(1) > 1:
            a = a.contiguous()
        if b.stride(0) > 1 and b.stride(1) > 1:
            b = b.contiguous()
        # checks constraints
        assert a.shape[1] == b.shape[0], "incompatible dimensions"
        M, K = a.shape
        _, N = b.shape
        # allocates output
        c = torch.empty((M, N), device=device, dtype=torch.float16)
        # accumulator types
        ACC_TYPE = tl.float32  # if a.dtype in [torch.float16, torch.bfloat16, torch.float32] else tl.int32
        # launch int8_matmul_rowwise_dequantize kernel
        grid = lambda META: (triton.cdiv(M, META["BLOCK_M"]) * triton.cdiv(N, META["BLOCK_N"]), META["SPLIT_K"])
        _int8_matmul_rowwise_dequantize[grid](
            a,
            b,
            c,
            bias,
            state_x,
            state_w,
            M,
            N,
            K,
            divfactor,
            has_bias,
            a.stride(0),
            a.stride(1),
            b.stride(0),
            b.stride(1),
            c.stride(0),
            c.stride(1),
            GROUP_M=8,
            ACC_TYPE=ACC_TYPE,
        )
        return c


def _quantize_rowwise(x):
    """bitsandbytes' ``quantize_rowwise`` in torch: int8 = round(127 * x / absmax(row)), state = absmax (fp16)."""
    absmax = x.float().abs().amax(dim=1, keepdim=True)
    q = torch.round(127.0 * x.float() / absmax).to(torch.int8)
    return q, absmax.squeeze(1).half()


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """X fp16 [M, K] and W fp16 [N, K] quantized row-wise as SwitchBack does (X_int8, state_X; W_int8, state_W),
    bias fp16 [N]."""
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((M, K), device=device, generator=g).half()
    w = (torch.randn((N, K), device=device, generator=g) / K ** 0.5).half()
    x_int8, state_x = _quantize_rowwise(x)
    w_int8, state_w = _quantize_rowwise(w)
    bias = (0.1 * torch.randn((N,), device=device, generator=g)).half()
    return {"x_int8": x_int8, "state_x": state_x, "w_int8": w_int8, "state_w": state_w, "bias": bias}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """fp16 [M, N]: ``int8_matmul_rowwise_dequantize(X_int8, W_int8.t(), state_X, state_W, bias)`` (the autotuner
    picks the config)."""
    return int8_matmul_rowwise_dequantize(inputs["x_int8"], inputs["w_int8"].t(), inputs["state_x"],
                                          inputs["state_w"], inputs["bias"])


def reference(inputs: dict[str, Any]) -> Any:
    acc = inputs["x_int8"].double() @ inputs["w_int8"].double().t()
    return (acc * inputs["state_x"].double()[:, None] * inputs["state_w"].double()[None, :] / (127.0 * 127.0)
            + inputs["bias"].double()[None, :])


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
