"""Stream-K last round, hand-written on twill's generated GEMM: correctness at sizes with and without the split,
speed against the generated kernel and cuBLAS (CUDA graphs, five interleaved rounds)."""
import importlib.util, json, os, statistics, sys
from pathlib import Path
import torch, triton
HERE = Path(__file__).resolve().parent; ROOT = HERE.parents[1]
def load(p, name):
    spec = importlib.util.spec_from_file_location(name, p); m = importlib.util.module_from_spec(spec)
    sys.modules[name] = m; spec.loader.exec_module(m); return m
k_orig = load(HERE / "orig.py", "k_orig"); k_sk = load(HERE / "kernel_gluon.py", "k_sk")
g_orig = load(ROOT / "kernels/gemm.py", "g_orig"); g_orig._gemm = k_orig.kernel
g_sk = load(ROOT / "kernels/gemm.py", "g_sk"); g_sk._gemm = k_sk.kernel
out = {"check": {}, "speed": {}}
for (M, N, K) in [(4096, 4096, 4096), (3968, 4096, 4096), (4224, 4096, 4096), (4000, 4000, 4000), (4096, 4096, 4160),
                  (4096, 4096, 256), (1000, 3000, 1000), (8192, 8192, 8192)]:
    inp = g_sk.make_inputs(M, N, K, seed=3)
    ref = (inp["a"].float() @ inp["b"].float().T)
    errs = []
    for rep in range(3):
        c = g_sk.launch(inp)
        torch.cuda.synchronize()
        errs.append(((c.float() - ref).norm() / ref.norm()).item())
    c0 = g_orig.launch(inp)
    e0 = ((c0.float() - ref).norm() / ref.norm()).item()
    out["check"][f"{M}x{N}x{K}"] = {"sk": errs, "orig": e0, "flags_after": int(k_sk._workspace(min(132, triton.cdiv(M,128)*triton.cdiv(N,256)))[1].sum().item())}
    print("check", M, N, K, out["check"][f"{M}x{N}x{K}"], flush=True)
for (M, N, K) in [(4096, 4096, 4096), (3968, 4096, 4096), (4096, 4096, 8192), (8192, 8192, 8192)]:
    inp = g_sk.make_inputs(M, N, K, seed=1)
    a, b = inp["a"], inp["b"]
    fns = {"sk": lambda: g_sk.launch(inp), "orig": lambda: g_orig.launch(inp), "cublas": lambda: torch.matmul(a, b.T)}
    t = {k: [] for k in fns}
    for r in range(5):
        for k, f in fns.items():
            t[k].append(triton.testing.do_bench_cudagraph(f, rep=100, return_mode="median"))
    fl = 2.0 * M * N * K
    row = {k: round(fl / statistics.median(v) / 1e9, 1) for k, v in t.items()}
    row["sk/cublas"] = round(statistics.median([y / x for x, y in zip(t["sk"], t["cublas"])]), 4)
    row["sk/orig"] = round(statistics.median([y / x for x, y in zip(t["sk"], t["orig"])]), 4)
    c = g_sk.launch(inp); ref = a.float() @ b.float().T
    row["err_after"] = ((c.float() - ref).norm() / ref.norm()).item()
    out["speed"][f"{M}x{N}x{K}"] = row
    print("speed", M, N, K, row, flush=True)
json.dump(out, open(Path(os.environ.get("OUT", ".")) / "sk.json", "w"), indent=1)
