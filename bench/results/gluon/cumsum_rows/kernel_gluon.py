"""cumsum_rows, written by twill from its joint schedule: I=192 L=192 (optimal), 192 cycles per iteration predicted.

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

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def twill_add(a, b):
    return a + b

@gluon.jit
def consumer_0(x_ptr, y_ptr, N):
    row = gl.program_id(0)
    offs = gl.arange(0, 1024, layout=L0)
    x_1 = row * N
    x_2 = x_ptr + x_1
    v0 = y_ptr + x_1
    twill_n = (N - 0 + 1024 - 1) // 1024
    carry_14 = 0.0
    x_7 = x_2 + (0 + (0 - 0) * 1024)  # load0_x: stage 0, partition 0 (group 0)
    x_5 = (0 + (0 - 0) * 1024) + offs  # load0_x: stage 0, partition 0 (group 0)
    x_8 = x_7  # load0_x: stage 0, partition 0 (group 0)
    x_6 = x_5 < N  # load0_x: stage 0, partition 0 (group 0)
    x_9 = x_8 + offs  # load0_x: stage 0, partition 0 (group 0)
    x_10 = gl.load(x_9, mask=x_6, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
    carry_14_p1 = carry_14
    x_10_p1 = x_10
    x_6_p1 = x_6
    for twill_b in range(1, twill_n):
        x_4 = (0 + (twill_b - 0) * 1024)  # load0_x: stage 0, partition 0 (group 0)
        x_7 = x_2 + (0 + (twill_b - 0) * 1024)  # load0_x: stage 0, partition 0 (group 0)
        x_5 = x_4 + offs  # load0_x: stage 0, partition 0 (group 0)
        x_8 = x_7  # load0_x: stage 0, partition 0 (group 0)
        x_6 = x_5 < N  # load0_x: stage 0, partition 0 (group 0)
        x_9 = x_8 + offs  # load0_x: stage 0, partition 0 (group 0)
        x_10 = gl.load(x_9, mask=x_6, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        y = gl.associative_scan(x_10_p1, 0, twill_add)  # elementwise0_y: stage 1, partition 0 (group 0)
        y_11 = carry_14_p1  # elementwise0_y: stage 1, partition 0 (group 0)
        y_12 = y + y_11  # elementwise0_y: stage 1, partition 0 (group 0)
        carry_13 = gl.sum(x_10_p1, axis=0)  # reduce0_carry: stage 1, partition 0 (group 0)
        v1 = v0 + (0 + (twill_b - 1) * 1024)  # store0: stage 1, partition 0 (group 0)
        v2 = v1  # store0: stage 1, partition 0 (group 0)
        v3 = v2 + offs  # store0: stage 1, partition 0 (group 0)
        gl.store(v3, y_12, mask=x_6_p1)  # store0: stage 1, partition 0 (group 0)
        carry_14 = carry_14_p1 + carry_13  # elementwise1_carry: stage 1, partition 0 (group 0)
        carry_14_p1 = carry_14
        x_10_p1 = x_10
        x_6_p1 = x_6
    y = gl.associative_scan(x_10_p1, 0, twill_add)  # elementwise0_y: stage 1, partition 0 (group 0)
    y_11 = carry_14_p1  # elementwise0_y: stage 1, partition 0 (group 0)
    y_12 = y + y_11  # elementwise0_y: stage 1, partition 0 (group 0)
    carry_13 = gl.sum(x_10_p1, axis=0)  # reduce0_carry: stage 1, partition 0 (group 0)
    v1 = v0 + (0 + ((twill_n - 1 + 1) - 1) * 1024)  # store0: stage 1, partition 0 (group 0)
    v2 = v1  # store0: stage 1, partition 0 (group 0)
    v3 = v2 + offs  # store0: stage 1, partition 0 (group 0)
    gl.store(v3, y_12, mask=x_6_p1)  # store0: stage 1, partition 0 (group 0)
    carry_14 = carry_14_p1 + carry_13  # elementwise1_carry: stage 1, partition 0 (group 0)
    carry_14_p1 = carry_14
    x_10_p1 = x_10
    x_6_p1 = x_6

@gluon.jit
def twill_kernel(x_ptr, y_ptr, N):
    consumer_0(x_ptr, y_ptr, N, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'y_ptr', 'N', 'BLOCK']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'y_ptr', 'N']   # the Gluon kernel's parameters, in order
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
