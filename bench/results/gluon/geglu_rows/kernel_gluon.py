"""geglu_rows, written by twill from its joint schedule: I=463 L=463 (optimal), 265 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 48 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.extra import libdevice

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, stride, n_cols):
    row = gl.program_id(0)
    row_4 = row.to(gl.int64)
    a_ptr_5 = row_4 * stride
    a_ptr_6 = a_ptr + a_ptr_5
    b_ptr_7 = b_ptr + a_ptr_5
    c_ptr_8 = c_ptr + a_ptr_5
    offs = gl.arange(0, 1024, layout=L0)
    twill_n = (n_cols - 0 + 1024 - 1) // 1024
    offs_10 = (0 + (0 - 0) * 1024) + offs  # load0_a: stage 0, partition 0 (group 0)
    mask_11 = offs_10 < n_cols  # load0_a: stage 0, partition 0 (group 0)
    a_12 = a_ptr_6 + offs_10  # load0_a: stage 0, partition 0 (group 0)
    a_13 = gl.load(a_12, mask=mask_11, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
    b_15 = b_ptr_7 + offs_10  # load1_b: stage 0, partition 0 (group 0)
    b_16 = gl.load(b_15, mask=mask_11, other=0.0)  # load1_b: stage 0, partition 0 (group 0)
    a_13_p1 = a_13
    b_16_p1 = b_16
    mask_11_p1 = mask_11
    offs_10_p1 = offs_10
    for twill_b in range(1, twill_n):
        offs_9 = (0 + (twill_b - 0) * 1024)  # load0_a: stage 0, partition 0 (group 0)
        offs_10 = offs_9 + offs  # load0_a: stage 0, partition 0 (group 0)
        mask_11 = offs_10 < n_cols  # load0_a: stage 0, partition 0 (group 0)
        a_12 = a_ptr_6 + offs_10  # load0_a: stage 0, partition 0 (group 0)
        a_13 = gl.load(a_12, mask=mask_11, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        a_14 = a_13_p1.to(gl.float32)  # convert0_a: stage 1, partition 0 (group 0)
        inner = a_14 * 0.044715  # elementwise0_inner: stage 1, partition 0 (group 0)
        inner_17 = inner * a_14  # elementwise0_inner: stage 1, partition 0 (group 0)
        inner_18 = inner_17 * a_14  # elementwise0_inner: stage 1, partition 0 (group 0)
        inner_19 = a_14 + inner_18  # elementwise0_inner: stage 1, partition 0 (group 0)
        inner_20 = inner_19 * 0.797884583  # elementwise0_inner: stage 1, partition 0 (group 0)
        gelu = a_14 * 0.5  # elementwise0_inner: stage 1, partition 0 (group 0)
        gelu_21 = libdevice.tanh(inner_20)  # elementwise0_inner: stage 1, partition 0 (group 0)
        gelu_22 = gelu_21 + 1.0  # elementwise0_inner: stage 1, partition 0 (group 0)
        gelu_23 = gelu * gelu_22  # elementwise0_inner: stage 1, partition 0 (group 0)
        v2 = gelu_23.to(gl.float16)  # convert1: stage 1, partition 0 (group 0)
        b_15 = b_ptr_7 + offs_10  # load1_b: stage 0, partition 0 (group 0)
        b_16 = gl.load(b_15, mask=mask_11, other=0.0)  # load1_b: stage 0, partition 0 (group 0)
        v3 = v2 * b_16_p1  # elementwise1: stage 1, partition 0 (group 0)
        v1 = c_ptr_8 + offs_10_p1  # store0: stage 1, partition 0 (group 0)
        gl.store(v1, v3, mask=mask_11_p1)  # store0: stage 1, partition 0 (group 0)
        a_13_p1 = a_13
        b_16_p1 = b_16
        mask_11_p1 = mask_11
        offs_10_p1 = offs_10
    a_14 = a_13_p1.to(gl.float32)  # convert0_a: stage 1, partition 0 (group 0)
    inner = a_14 * 0.044715  # elementwise0_inner: stage 1, partition 0 (group 0)
    inner_17 = inner * a_14  # elementwise0_inner: stage 1, partition 0 (group 0)
    inner_18 = inner_17 * a_14  # elementwise0_inner: stage 1, partition 0 (group 0)
    inner_19 = a_14 + inner_18  # elementwise0_inner: stage 1, partition 0 (group 0)
    inner_20 = inner_19 * 0.797884583  # elementwise0_inner: stage 1, partition 0 (group 0)
    gelu = a_14 * 0.5  # elementwise0_inner: stage 1, partition 0 (group 0)
    gelu_21 = libdevice.tanh(inner_20)  # elementwise0_inner: stage 1, partition 0 (group 0)
    gelu_22 = gelu_21 + 1.0  # elementwise0_inner: stage 1, partition 0 (group 0)
    gelu_23 = gelu * gelu_22  # elementwise0_inner: stage 1, partition 0 (group 0)
    v2 = gelu_23.to(gl.float16)  # convert1: stage 1, partition 0 (group 0)
    v3 = v2 * b_16_p1  # elementwise1: stage 1, partition 0 (group 0)
    v1 = c_ptr_8 + offs_10_p1  # store0: stage 1, partition 0 (group 0)
    gl.store(v1, v3, mask=mask_11_p1)  # store0: stage 1, partition 0 (group 0)
    a_13_p1 = a_13
    b_16_p1 = b_16
    mask_11_p1 = mask_11
    offs_10_p1 = offs_10

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, stride, n_cols):
    consumer_0(a_ptr, b_ptr, c_ptr, stride, n_cols, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'stride', 'n_cols', 'BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'stride', 'n_cols']   # the Gluon kernel's parameters, in order
CONSTEXPRS = {'BLOCK_SIZE': 1024}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion")


_LAYOUTS = {}                  # argument -> its layout object, made on first use


def _descriptor(value, name):
    """A Gluon tensor descriptor for argument ``name``: same tensor, the block this kernel loads."""
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

    layout = _LAYOUTS.get(name)
    if layout is None:
        from triton.experimental.gluon import language as gl
        layout = _LAYOUTS[name] = eval("gl." + DESCRIPTOR_LAYOUTS[name])
    base = getattr(value, "base", value)
    shape = list(getattr(value, "shape", base.shape))
    strides = list(getattr(value, "strides", None) or base.stride())
    return TensorDescriptor(base, shape, strides, DESCRIPTOR_BLOCKS[name], layout)


def launch(grid, *args, **kwargs):
    """Run the generated kernel with the Triton kernel's arguments (positional and keyword)."""
    bound = dict(zip(ARGUMENTS, args))
    bound.update({k: v for k, v in kwargs.items() if k not in LAUNCH_OPTIONS})
    for k, v in CONSTEXPRS.items():
        if k in bound and bound[k] != v:
            raise ValueError(f"twill: this Gluon kernel was generated for {k}={v!r}, launched with {bound[k]!r}")
    g = grid(dict(bound, **CONSTEXPRS)) if callable(grid) else grid
    g = tuple(int(x) for x in g)
    if PERSISTENT:
        g = g + (1,) * (3 - len(g))
        bound.update(twill_g0=g[0], twill_g1=g[1], twill_g2=g[2])
        g = (max(1, min(g[0] * g[1] * g[2], _sm_count())),)
    missing = [n for n in RUNTIME if n not in bound]
    if missing:
        raise ValueError(f"twill: missing kernel arguments {missing}")
    runtime = [_descriptor(bound[n], n) if n in DESCRIPTOR_BLOCKS else bound[n] for n in RUNTIME]
    return twill_kernel[g](*runtime, num_warps=NUM_WARPS, maxnreg=MAXNREG)


_SMS = []


def _sm_count():
    """The multiprocessors of the current device (a persistent kernel launches one program on each)."""
    if not _SMS:
        import torch
        _SMS.append(torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count)
    return _SMS[0]


class _Kernel:
    """``kernel[grid](*args)``, as the Triton kernel is called."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: launch(grid, *args, **kwargs)


kernel = _Kernel()
