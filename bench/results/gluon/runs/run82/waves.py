"""GEMM wave quantisation: twill's persistent Gluon GEMM, Triton's kernel and cuBLAS at tile counts that fill
the 132 SMs' last round to different degrees (4096^3: 512 tiles of 128x256 = 3.88 rounds)."""
import importlib.util, json, statistics, sys
from pathlib import Path
import torch, triton
ROOT = Path(__file__).resolve().parents[2]
def load(p, name):
    spec = importlib.util.spec_from_file_location(name, p); m = importlib.util.module_from_spec(spec)
    sys.modules[name] = m; spec.loader.exec_module(m); return m
km = load(ROOT / "bench/results/gluon/gemm/kernel_gluon.py", "kg_gemm")
ours = load(ROOT / "kernels/gemm.py", "gemm_ours"); ours._gemm = km.kernel
trit = load(ROOT / "kernels/gemm.py", "gemm_triton")
sizes = [(4096, 4096, 4096), (4224, 4096, 4096), (3968, 4096, 4096), (4096, 4096, 8192), (8192, 8192, 8192)]
res = {}
for (M, N, K) in sizes:
    inp = ours.make_inputs(M, N, K, seed=1)
    a, b = inp["a"], inp["b"]
    ref = a @ b.T
    c = ours.launch(inp)
    err = ((c.float() - ref.float()).norm() / ref.float().norm()).item()
    fns = {"twill": lambda: ours.launch(inp), "triton": lambda: trit.launch(inp), "cublas": lambda: torch.matmul(a, b.T)}
    t = {k: [] for k in fns}
    for r in range(5):
        for k, f in fns.items():
            t[k].append(triton.testing.do_bench_cudagraph(f, rep=100, return_mode="median"))
    fl = 2.0 * M * N * K
    tiles = triton.cdiv(M, 128) * triton.cdiv(N, 256)
    row = {k: round(fl / statistics.median(v) / 1e9, 1) for k, v in t.items()}
    row.update(tiles=tiles, rounds=round(tiles / 132, 3), err=err,
               ratio=round(statistics.median([x / y for x, y in zip(t["cublas"], t["twill"])]), 4))
    res[f"{M}x{N}x{K}"] = row
    print(f"{M}x{N}x{K}", row, flush=True)
json.dump(res, open(Path(__import__('os').environ.get('OUT', '.')) / "waves.json", "w"), indent=1)
