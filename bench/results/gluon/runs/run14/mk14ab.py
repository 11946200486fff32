"""Run 14 a/b: the hand-edited ablation variants, made from the committed kernels (run from the repository root).
fa_bwd-acc-atomic: dQ's atomic add from the wgmma accumulator's layout; fa_bwd-no-dq: the dQ GEMM and its atomics
removed (dQ wrong, timing only); gemm-ring4: 4-deep A/B rings, C stored in two [128, 128] halves."""
import json
import re
from pathlib import Path

G = Path("bench/results/gluon")
R = G / "runs/run14"


def write(label: str, src: str, kfile: str, jit: str, command: str) -> None:
    d = R / label
    d.mkdir(parents=True, exist_ok=True)
    (d / "kernel_gluon.py").write_text(src)
    (d / "variant.json").write_text(json.dumps({"label": label, "kernel_file": kfile, "jit": jit, "command": command},
                                               indent=1) + "\n")


bwd = (G / "fa_bwd/kernel_gluon.py").read_text()
acc = bwd
for t in ("t0", "t1"):
    assert acc.count(f"gl.convert_layout(v11_{t}, L6)") == 3
    acc = acc.replace(f"gl.convert_layout(v11_{t}, L6)", f"v11_{t}")
l5 = "gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])"
acc = re.sub(r"L2 = gl.constexpr\(.*\)\n", f"L2 = gl.constexpr(gl.SliceLayout(1, {l5}))\n", acc, count=1)
acc = re.sub(r"L3 = gl.constexpr\(.*\)\n", f"L3 = gl.constexpr(gl.SliceLayout(0, {l5}))\n", acc, count=1)
write("fa_bwd-acc-atomic", acc, "kernels/fa_bwd.py", "_attn_bwd",
      "hand-edited from bench/results/gluon/fa_bwd: dQ's atomic add from the wgmma accumulator's layout, no "
      "convert_layout (run 14 ablation)")

keep = [ln for ln in bwd.splitlines(keepends=True)
        if not any(s in ln for s in ("dq_69", "v11_t", "v12_t", "atomic_add"))]
write("fa_bwd-no-dq", "".join(keep), "kernels/fa_bwd.py", "_attn_bwd",
      "hand-edited from bench/results/gluon/fa_bwd: the dQ GEMM and its atomic add removed (dQ wrong; a timing "
      "ablation: what dQ costs, run 14)")

s = (G / "gemm/kernel_gluon.py").read_text()
s = s.replace("% 3)", "% 4)").replace("// 3)", "// 4)").replace("[3, 128, 64]", "[4, 128, 64]")
s = s.replace("[3, 256, 64]", "[4, 256, 64]").replace("[3, 1], mbarrier", "[4, 1], mbarrier")
s = s.replace("gl.static_range(3)", "gl.static_range(4)")
s = s.replace("gl.allocate_shared_memory(gl.float16, [128, 256], c_desc.layout)",
              "gl.allocate_shared_memory(gl.float16, [128, 128], c_desc.layout)")
old = """        tma.store_wait(0)
        out2_c0_buf.store(v3)
        fence_async_shared()
        tma.async_copy_shared_to_global(c_desc, [offs_m, offs_n], out2_c0_buf)
"""
new = """        v3a, v3b = v3.reshape([128, 2, 128]).permute((0, 2, 1)).split()
        tma.store_wait(0)
        out2_c0_buf.store(v3a)
        fence_async_shared()
        tma.async_copy_shared_to_global(c_desc, [offs_m, offs_n], out2_c0_buf)
        tma.store_wait(0)
        out2_c0_buf.store(v3b)
        fence_async_shared()
        tma.async_copy_shared_to_global(c_desc, [offs_m, offs_n + 128], out2_c0_buf)
"""
assert old in s
s = s.replace(old, new).replace("'c_desc': [128, 256]}", "'c_desc': [128, 128]}")
write("gemm-ring4", s, "kernels/gemm.py", "_gemm",
      "hand-edited from bench/results/gluon/gemm: A/B rings 4 deep (3 before), C stored in two [128, 128] halves "
      "through one 32 KB buffer (run 14)")
