"""Run a kernel file's launch once at its PROBLEM (what `twill capture` records the specialisation of)."""
import importlib.util
import sys

import torch

spec = importlib.util.spec_from_file_location("kernel_file", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
mod.launch(mod.make_inputs(**mod.PROBLEM, seed=13))
torch.cuda.synchronize()
