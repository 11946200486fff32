"""argmax_rows, written by twill from its joint schedule: I=160 L=108 (optimal), 160 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 41 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def twill_combine_c2c773cd(a0, a1, a2, a3):
    t0 = a0 == a2
    t1 = a1 < a3
    t2 = t0 & t1
    t3 = a0 > a2
    t4 = t3 | t2
    t5 = gl.where(t4, a0, a2)
    t6 = gl.where(t4, a1, a3)
    return t5, t6

@gluon.jit
def consumer_0(x_ptr, out_ptr, V, stride):
    row = gl.program_id(0)
    cols = gl.arange(0, 1024, layout=L0)
    x_0 = row * stride
    x_1 = x_ptr + x_0
    twill_n = (V - 0 + 1024 - 1) // 1024
    best_15 = gl.full([1], float("-inf"), gl.float32, layout=L1)
    best_i_18 = gl.full([1], 0, gl.int32, layout=L1)
    x_8 = x_1 + (0 + (0 - 0) * 1024)  # load0_x: stage 0, partition 0 (group 0)
    x_6 = (0 + (0 - 0) * 1024) + cols  # load0_x: stage 0, partition 0 (group 0)
    x_9 = x_8  # load0_x: stage 0, partition 0 (group 0)
    x_7 = x_6 < V  # load0_x: stage 0, partition 0 (group 0)
    x_10 = x_9 + cols  # load0_x: stage 0, partition 0 (group 0)
    x_11 = gl.load(x_10, mask=x_7, other=float("-inf"))  # load0_x: stage 0, partition 0 (group 0)
    best_15_p1 = best_15
    best_i_18_p1 = best_i_18
    x_11_p1 = x_11
    for twill_b in range(1, twill_n):
        take = gl.max(best_15_p1, axis=0)  # reduce1_take: stage 1, partition 0 (group 0)
        x_5 = (0 + (twill_b - 0) * 1024)  # load0_x: stage 0, partition 0 (group 0)
        x_8 = x_1 + (0 + (twill_b - 0) * 1024)  # load0_x: stage 0, partition 0 (group 0)
        x_6 = x_5 + cols  # load0_x: stage 0, partition 0 (group 0)
        x_9 = x_8  # load0_x: stage 0, partition 0 (group 0)
        x_7 = x_6 < V  # load0_x: stage 0, partition 0 (group 0)
        x_10 = x_9 + cols  # load0_x: stage 0, partition 0 (group 0)
        x_11 = gl.load(x_10, mask=x_7, other=float("-inf"))  # load0_x: stage 0, partition 0 (group 0)
        v2_r0, v2_r1 = gl.reduce((x_11_p1, cols), 0, twill_combine_c2c773cd)  # reduce0: stage 1, partition 0 (group 0)
        take_12 = v2_r0 > take  # elementwise0_take: stage 1, partition 0 (group 0)
        best_i_16 = v2_r1 + (0 + (twill_b - 1) * 1024)  # elementwise2_best_i: stage 1, partition 0 (group 0)
        best_13 = v2_r0  # elementwise1_best: stage 1, partition 0 (group 0)
        best_14 = take_12  # elementwise1_best: stage 1, partition 0 (group 0)
        best_15 = gl.where(best_14, best_13, best_15_p1)  # elementwise1_best: stage 1, partition 0 (group 0)
        best_i_17 = best_i_16  # broadcast0_best_i: stage 1, partition 0 (group 0)
        best_i_18 = gl.where(best_14, best_i_17, best_i_18_p1)  # broadcast0_best_i: stage 1, partition 0 (group 0)
        best_15_p1 = best_15
        best_i_18_p1 = best_i_18
        x_11_p1 = x_11
    take = gl.max(best_15_p1, axis=0)  # reduce1_take: stage 1, partition 0 (group 0)
    v2_r0, v2_r1 = gl.reduce((x_11_p1, cols), 0, twill_combine_c2c773cd)  # reduce0: stage 1, partition 0 (group 0)
    take_12 = v2_r0 > take  # elementwise0_take: stage 1, partition 0 (group 0)
    best_i_16 = v2_r1 + (0 + ((twill_n - 1 + 1) - 1) * 1024)  # elementwise2_best_i: stage 1, partition 0 (group 0)
    best_13 = v2_r0  # elementwise1_best: stage 1, partition 0 (group 0)
    best_14 = take_12  # elementwise1_best: stage 1, partition 0 (group 0)
    best_15 = gl.where(best_14, best_13, best_15_p1)  # elementwise1_best: stage 1, partition 0 (group 0)
    best_i_17 = best_i_16  # broadcast0_best_i: stage 1, partition 0 (group 0)
    best_i_18 = gl.where(best_14, best_i_17, best_i_18_p1)  # broadcast0_best_i: stage 1, partition 0 (group 0)
    best_15_p1 = best_15
    best_i_18_p1 = best_i_18
    x_11_p1 = x_11
    v0 = out_ptr + row
    gl.store(gl.full([1], v0, gl.pointer_type(gl.int32), layout=L1), best_i_18_p1)

@gluon.jit
def twill_kernel(x_ptr, out_ptr, V, stride):
    consumer_0(x_ptr, out_ptr, V, stride, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'out_ptr', 'V', 'stride', 'BLOCK']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'out_ptr', 'V', 'stride']   # the Gluon kernel's parameters, in order
CONSTEXPRS = {'BLOCK': 1024}         # the specialisation this kernel was generated for
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
