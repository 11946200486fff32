"""Experiments (runs 10-11) on the committed ping-pong schedule: a data token ordering sub-tile 1's QK
after sub-tile 0's QK every iteration (tw_token.py), asynchronous PV GEMMs (tw_async.py), and both.
Writes $OUT/experiments.json. Runs 10 and 11 were made with the variants run separately."""
import importlib.util as u, json, os, sys
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
import torch, triton
sp2 = u.spec_from_file_location("twtok2", os.path.join(ROOT, "bench/exp/tw_token.py")); tk2 = u.module_from_spec(sp2); sp2.loader.exec_module(tk2)
sp = u.spec_from_file_location("twtok", os.path.join(ROOT, "bench/exp/tw_async.py")); tk = u.module_from_spec(sp); sp.loader.exec_module(tk)
from codegen.annotate import apply_annotation, read_annotation
from codegen.compile import warp_route, _clear_jit_caches
from twill.ir.pipeline import _installed, _fresh_cache, module_text
import kernels.fa3_subtiled as fs, kernels.fa3 as f3
D = os.path.join(ROOT, "bench/results/schedules/fa3_subtiled-h200-ws")
ws = open(os.path.join(D, "annotated.ttgir")).read(); ann = read_annotation(ws)
LAUNCH = dict(num_warps=4, num_stages=1, BLOCK_M=128, BLOCK_N=128)
skip, insert = warp_route(ws, 90)
res = {}
for name, edit in (("ws", lambda t: t), ("ws+token", tk2.add_token), ("ws+async", tk.add_async),
                   ("ws+async+token", lambda t: tk2.add_token(tk.add_async(t)))):
    for n in (4096, 16384):
        inp = fs.make_inputs(4, 32, n, 128, seed=2)
        ref = torch.nn.functional.scaled_dot_product_attention(inp["q"], inp["k"], inp["v"])
        _clear_jit_caches((fs._attn_fwd_subtiled,))
        try:
            with _fresh_cache(), _installed({"add_pipeline": lambda mod: edit(apply_annotation(module_text(mod), ann))}, skip, [], insert):
                x = torch.full((1 << 28,), float("nan"), device="cuda"); del x
                o = fs.launch(inp, **LAUNCH); torch.cuda.synchronize()
                err = ((o.float() - ref.float()).norm() / ref.float().norm()).item()
                ms = triton.testing.do_bench(lambda: fs.launch(inp, **LAUNCH))
            res[f"{name} N={n}"] = {"rel_err": err, "tflops": round(fs.flops(4, 32, n, 128) / ms * 1e-9, 1)}
        except Exception as e:
            res[f"{name} N={n}"] = {"error": f"{type(e).__name__}: {str(e)[:300]}"}
        print(name, n, res[f"{name} N={n}"], flush=True)
        _clear_jit_caches((fs._attn_fwd_subtiled,))
for n in (4096, 16384):
    inp = fs.make_inputs(4, 32, n, 128, seed=2)
    ms = triton.testing.do_bench(lambda: f3.launch(inp))
    res[f"fa3 default N={n}"] = round(fs.flops(4, 32, n, 128) / ms * 1e-9, 1); print("fa3 default", n, res[f"fa3 default N={n}"])
json.dump(res, open(os.path.join(os.environ.get("OUT", "/tmp"), "experiments.json"), "w"), indent=1)
