"""Run 165: what an iteration of integer work costs an SM, against the model's one ALU rate (``alu_ops``, 128 an SM a
cycle). One CTA an SM of 8 warps, a [128, 64] tile a CTA, each iteration's cycles by ``%clock64`` around the loop:
MODE 0 ``tl.rand`` (Triton's Philox, as AMD's FA forward draws its dropout: 16 mulhi, 14 mul, 32 xor an element in the
TTGIR), MODE 1 48 dependent fp32 FMAs an element, MODE 2 48 integer ops an element (mul, add, xor, shift).
    python alu_probe.py OUT.json
"""
import json
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def probe(Out, Clk, seed, n_iter, R: tl.constexpr, C: tl.constexpr, MODE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * R * C + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    acc = tl.zeros([R, C], tl.float32)
    u = offs.to(tl.uint32)
    c0 = tl.inline_asm_elementwise("mov.u64 $0, %clock64;", "=l", [], dtype=tl.int64, is_pure=False, pack=1)
    for i in range(n_iter):
        if MODE == 0:
            acc += tl.rand(seed, u + i * 7919)
        elif MODE == 1:
            x = acc
            for _ in tl.static_range(48):
                x = x * 0.999 + 0.25
            acc = x
        else:
            for _ in tl.static_range(12):
                u = (u * 1664525 + 1013904223) ^ (u >> 7)
    c1 = tl.inline_asm_elementwise("mov.u64 $0, %clock64;", "=l", [], dtype=tl.int64, is_pure=False, pack=1)
    tl.store(Out + offs, acc + u.to(tl.float32))
    tl.store(Clk + pid, c1 - c0)


def main() -> None:
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    out = {}
    for mode, name in ((0, "philox"), (1, "fp32_fma_48"), (2, "int_ops_48")):
        for warps in (4, 8):
            o = torch.empty((sms, 128, 64), device="cuda")
            clk = torch.zeros((sms,), device="cuda", dtype=torch.int64)
            for n in (8, 40):      # two lengths: their difference is the steady iteration (no loop entry or exit)
                probe[(sms,)](o, clk, 1234, n, R=128, C=64, MODE=mode, num_warps=warps, num_stages=1)
                torch.cuda.synchronize()
                out.setdefault(f"{name}/w{warps}", {})[n] = float(clk.float().median())
            d = out[f"{name}/w{warps}"]
            d["per_iter"] = (d[40] - d[8]) / 32
            print(f"{name:12s} {warps} warps: {d['per_iter']:.0f} cycles an iteration "
                  f"({128 * 64 / d['per_iter']:.1f} elements a cycle)", flush=True)
    json.dump(out, open(sys.argv[1], "w"), indent=1)


if __name__ == "__main__":
    main()
