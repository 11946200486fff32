"""A file from a kernel library: another library's decorator on the kernel, autotune configs built by a
function that asks the driver for the GPU, and a second kernel whose definition needs torch. The
kernel asked for loads without what cannot run offline; the other one blocks only itself."""
import triton
import triton.language as tl
from flag_gems_like.utils import libentry  # noqa: F401  (not installed: extraction drops it)

TWILL_SPEC = {"kernel": "scaled_copy",
              "signature": {"x_ptr": "*fp16", "y_ptr": "*fp16", "scale": "fp32", "N": "i32"},
              "constexprs": {"DTYPE": "fp16", "BLOCK": 256}, "num_warps": 4}


def is_cuda():
    return triton.runtime.driver.active.get_current_target().backend == "cuda"


def get_autotune_config():
    if is_cuda():
        return [triton.Config({"BLOCK": 256}, num_warps=4), triton.Config({"BLOCK": 512}, num_warps=8)]
    return [triton.Config({"BLOCK": 128}, num_warps=4)]


@libentry()
@triton.autotune(configs=get_autotune_config(), key=["N"])
@triton.jit
def scaled_copy(x_ptr, y_ptr, scale, N, DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for start in range(0, N, BLOCK):
        x = tl.load(x_ptr + start + offs, mask=start + offs < N, other=0.0)
        tl.store(y_ptr + start + offs, (x * scale).to(DTYPE), mask=start + offs < N)


@triton.jit
def needs_torch(x_ptr, N, BLOCK: tl.constexpr = torch.cuda.get_device_properties(0).warp_size):  # noqa: F821
    for start in range(0, N, BLOCK):
        tl.store(x_ptr + start + tl.arange(0, BLOCK), 0.0)
