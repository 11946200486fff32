"""Run 197 (session 72): why the rejection sampler's launched time (do_bench) is 47 us with the generated kernel and
13 us with Triton's, though both take 6 us from a CUDA graph: do_bench of the harness's launch with each kernel, with and
without bench/gluon_gpu.py's recording wrappers, and the CUDA kernels each launch puts on the stream (torch.profiler)."""
import json
import os
import sys
from pathlib import Path

import torch
import triton

ROOT = Path(__file__).resolve().parents[5]
sys.path.insert(0, str(ROOT))
from bench.gluon_gpu import _module, counting, recording  # noqa: E402

d = ROOT / "bench/results/gluon/vllm_rejection_sample"
meta = json.loads((d / "variant.json").read_text())
kmod = _module(ROOT / meta["kernel_file"], "k197")
gmod = _module(d / "kernel_gluon.py", "g197")
tri = getattr(kmod, meta["jit"])
inp = kmod.make_inputs(**kmod.PROBLEM, seed=13)


def bench(label):
    f = lambda: kmod.launch(inp)   # noqa: E731
    f()
    torch.cuda.synchronize()
    ms = triton.testing.do_bench(f, warmup=50, rep=200, return_mode="median")
    g = triton.testing.do_bench_cudagraph(f, rep=200, return_mode="median")
    print(f"{label}: do_bench {ms * 1e3:.1f} us, graph {g * 1e3:.1f} us", flush=True)


setattr(kmod, meta["jit"], tri)
bench("triton")
setattr(kmod, meta["jit"], gmod.kernel)
bench("gluon")
recording(gmod)
counting(gmod)
bench("gluon + recording wrappers")
for label, fn in (("triton", tri), ("gluon", gmod.kernel)):
    setattr(kmod, meta["jit"], fn)
    kmod.launch(inp)
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU,
                                            torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(10):
            kmod.launch(inp)
        torch.cuda.synchronize()
    print(f"--- {label}: 10 launches")
    print(prof.key_averages().table(sort_by="self_cuda_time_total", row_limit=12), flush=True)
