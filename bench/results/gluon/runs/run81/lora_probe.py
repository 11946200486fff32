"""Run 81 probe: where vLLM's LoRA expand file faults on the GPU (Triton's own launch), and twill's kernel at SMALL."""
import importlib.util, os, sys, traceback
import torch
sys.path.insert(0, ".")
def load(p, name):
    spec = importlib.util.spec_from_file_location(name, p); m = importlib.util.module_from_spec(spec)
    sys.modules[name] = m; spec.loader.exec_module(m); return m
mod = load("probe/r81/vllm_lora_expand.py", "lora_file")
orig = mod._lora_expand_kernel
for label, sizes in (("SMALL", mod.SMALL), ("MID", {"M": 1024, "N": 1024, "K": 64, "L": 4}), ("PROBLEM", mod.PROBLEM)):
    for who in ("triton", "twill"):
        try:
            if who == "twill":
                km = load("probe/r81/lora/kernel_gluon.py", "lora_gluon"); mod._lora_expand_kernel = km.kernel
            else:
                mod._lora_expand_kernel = orig
            inp = mod.make_inputs(**sizes, device="cuda", seed=11)
            out = mod.launch(inp); torch.cuda.synchronize()
            ref = mod.reference(inp)
            err = ((out.double() - ref).abs().max() / ref.abs().max()).item()
            print(label, who, "rel err", err, "nan", bool(torch.isnan(out).any()), flush=True)
        except Exception as e:
            print(label, who, "FAIL", type(e).__name__, str(e).splitlines()[0][:300], flush=True)
            if "Accelerator" in type(e).__name__ or "CUDA" in str(e):
                print("stopping: the context is lost after a fault", flush=True); sys.exit(0)
