"""Run 170: the op kinds run 168 did not time, for the integer-aware ALU cost table (``twill.graph.build.EXPANDS``):
64-bit integer add and multiply (pointer offsets of the kernels that cast to ``tl.int64``), a logical and, a compare and
select (``tl.where``), narrowing float conversions (fp32 -> fp16 / bf16 -> fp32), fp16 arithmetic, an integer ->
float conversion alone, exp2 (the MUFU rate), a float division and an absolute value. As run 168: one CTA an SM, a
[128, 64] tile a CTA, 32 dependent steps an element an iteration, cycles an iteration by ``%clock64`` (the difference of
40 and 8 iterations over 32), at 4 and 8 warps.
    python op_probe2.py OUT.json
"""
import json
import sys

import torch
import triton
import triton.language as tl

KINDS = ("add_i64", "mul_i64", "and_i32", "select_f32", "cvt_f16_f32", "cvt_bf16_f32", "fma_f16", "sitofp_i32",
         "exp2_f32", "div_f32", "abs_f32", "fma_f32")


@triton.jit
def probe(Out, Clk, n_iter, R: tl.constexpr, C: tl.constexpr, KIND: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * R * C + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    f = offs.to(tl.float32) * 1e-6
    h = f.to(tl.float16)
    u = offs.to(tl.uint32) + 12345
    v = offs.to(tl.uint32) * 3 + 7
    w = offs.to(tl.int64) * 3 + 7
    z = offs.to(tl.int64) + 12345
    c0 = tl.inline_asm_elementwise("mov.u64 $0, %clock64;", "=l", [], dtype=tl.int64, is_pure=False, pack=1)
    for i in range(n_iter):
        for _ in tl.static_range(32):
            if KIND == 0:
                z, w = w, z + w                       # Fibonacci: one 64-bit add a step
            elif KIND == 1:
                z, w = w, z * w                       # one 64-bit multiply a step
            elif KIND == 2:
                u, v = v, (u & v) + 1                 # an and and an add a step
            elif KIND == 3:
                f = tl.where(f > 0.5, f * 0.5, f + 0.25)   # a compare, a select, a mul and an add
            elif KIND == 4:
                f = (f * 0.999).to(tl.float16).to(tl.float32)   # a mul and two conversions
            elif KIND == 5:
                f = (f * 0.999).to(tl.bfloat16).to(tl.float32)
            elif KIND == 6:
                h = h * 0.999 + 0.25                  # fp16 FMA (packed, two an instruction)
            elif KIND == 7:
                u = u + 1
                f = f * 0.5 + u.to(tl.float32)        # an integer add, a conversion to float and an FMA
            elif KIND == 8:
                f = tl.exp2(f * -0.5)                 # a mul and a MUFU exp2
            elif KIND == 9:
                f = 1.0 / (f + 1.0)                   # an add and a full-precision division
            elif KIND == 10:
                f = tl.abs(f * -0.999)                # a mul and an abs
            else:
                f = f * 0.999 + 0.25
    c1 = tl.inline_asm_elementwise("mov.u64 $0, %clock64;", "=l", [], dtype=tl.int64, is_pure=False, pack=1)
    tl.store(Out + offs, f + h.to(tl.float32) + (u + v).to(tl.float32) + (z + w).to(tl.float32))
    tl.store(Clk + pid, c1 - c0)


def main() -> None:
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    out = {}
    for k, name in enumerate(KINDS):
        for warps in (4, 8):
            o = torch.empty((sms, 128, 64), device="cuda")
            clk = torch.zeros((sms,), device="cuda", dtype=torch.int64)
            d = {}
            for n in (8, 40):
                probe[(sms,)](o, clk, n, R=128, C=64, KIND=k, num_warps=warps, num_stages=1)
                torch.cuda.synchronize()
                d[n] = float(clk.float().median())
            d["per_iter"] = (d[40] - d[8]) / 32
            d["steps_a_cycle"] = 128 * 64 * 32 / d["per_iter"]
            out[f"{name}/w{warps}"] = d
            print(f"{name:12s} {warps} warps: {d['per_iter']:.0f} cycles an iteration, {d['steps_a_cycle']:.1f} steps an"
                  " SM a cycle", flush=True)
    json.dump(out, open(sys.argv[1], "w"), indent=1)


if __name__ == "__main__":
    main()
