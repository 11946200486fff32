"""Run 168: what one ALU op of each kind costs an SM, for an integer-aware cost table (run 165: Philox 2.1x the model's
one ALU rate at 8 warps). One CTA an SM, a [128, 64] tile a CTA, an iteration of 32 dependent ops an element of one
kind, cycles an iteration by ``%clock64`` (steady: the difference of 40 and 8 iterations over 32), at 4 and 8 warps.
    python op_probe.py OUT.json
"""
import json
import sys

import torch
import triton
import triton.language as tl

KINDS = ("fma_f32", "mul_f32", "add_i32", "mul_i32", "mulhi_u32", "xor_i32", "shift_i32", "cvt_i32_f32", "max_f32")


@triton.jit
def probe(Out, Clk, n_iter, R: tl.constexpr, C: tl.constexpr, KIND: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * R * C + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    f = offs.to(tl.float32) * 1e-6
    u = offs.to(tl.uint32) + 12345
    v = offs.to(tl.uint32) * 3 + 7
    c0 = tl.inline_asm_elementwise("mov.u64 $0, %clock64;", "=l", [], dtype=tl.int64, is_pure=False, pack=1)
    for i in range(n_iter):
        for _ in tl.static_range(32):
            if KIND == 0:
                f = f * 0.999 + 0.25
            elif KIND == 1:
                f = f * 0.999
            elif KIND == 2:
                u, v = v, u + v          # Fibonacci: one add a step, not folded
            elif KIND == 3:
                u, v = v, u * v
            elif KIND == 4:
                u = tl.umulhi(u, 0xD2511F53) + i
            elif KIND == 5:
                u, v = v, u ^ (v + 1)     # the xor and an add a step (a plain xor pair folds)
            elif KIND == 6:
                u = u >> 1 | u
            elif KIND == 7:
                f = (f.to(tl.int32) + 1).to(tl.float32)
            else:
                f = tl.maximum(f, f * 0.5)
    c1 = tl.inline_asm_elementwise("mov.u64 $0, %clock64;", "=l", [], dtype=tl.int64, is_pure=False, pack=1)
    tl.store(Out + offs, f + (u + v).to(tl.float32))
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
            d["ops_a_cycle"] = 128 * 64 * 32 / d["per_iter"]
            out[f"{name}/w{warps}"] = d
            print(f"{name:12s} {warps} warps: {d['per_iter']:.0f} cycles an iteration, {d['ops_a_cycle']:.1f} ops an SM "
                  "a cycle", flush=True)
    json.dump(out, open(sys.argv[1], "w"), indent=1)


if __name__ == "__main__":
    main()
