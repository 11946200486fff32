"""Run 18's hand variant of the FA backward (session 17): the reducer partition adds the consumers' dQ partials with TMA.

From the committed generated kernel (``bench/results/gluon/fa_bwd``, run 17b's): each consumer stores its [64, 128] fp32
partial into a 128-byte-swizzled buffer (the layout a TMA copy reads; the accumulator's 8-byte stores hit it at the
fewest wavefronts, as the padded buffer), fences the async proxy and arrives on ``twill_red_ready``; the one-warp
reducer issues one bulk tensor reduce-add (``cp.reduce.async.bulk.tensor``, L2 does the add) per partial, waits until
the buffers have been read (``tma.store_wait(0)``) and frees them. No row loads, no FADD, no REDG in the reducer.

    python bench/results/gluon/runs/run18/mk18.py OUT_DIR
"""
import shutil
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "fa_bwd"

HEADER_OLD = "L7 = gl.constexpr("
HEADER_NEW = '''from triton.language.core import builtin as _builtin
from triton._C.libtriton import ir as _ir


@_builtin
def _tma_reduce_add(tensor_desc, coord, src, _semantic=None):
    """``cp.reduce.async.bulk.tensor`` add of shared ``src`` into ``tensor_desc`` at ``coord`` (Gluon 3.6 has no wrapper)."""
    coord = _semantic._convert_to_ir_values(coord, require_i64=False)
    _semantic.builder.create_async_tma_reduce(_ir.DESCRIPTOR_REDUCE_KIND.ADD, tensor_desc.handle, coord, src.handle)


RED = gl.constexpr(gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2))
L7 = gl.constexpr('''

PADDED = "gl.PaddedSharedLayout.with_identity_for([[128, 4]], [64, 128], [1, 0])"

LOOP_OLD = """            for twill_r in gl.static_range(64):
                gl.atomic_add(v8 + twill_r * 128 + twill_cols, twill_red_t0.slice(twill_r, 1, dim=0).load(L7) + twill_red_t1.slice(twill_r, 1, dim=0).load(L7), sem='relaxed', scope='gpu')
"""
LOOP_NEW = """            _tma_reduce_add(twill_dq, [dv_43, 0], twill_red_t0)
            _tma_reduce_add(twill_dq, [dv_43, 0], twill_red_t1)
            tma.store_wait(0)
"""
COLS_OLD = "        twill_cols = gl.expand_dims(gl.arange(0, 128, layout=gl.SliceLayout(0, L7)), 0)\n"
COLS_NEW = ("        twill_dq = tma.make_tensor_descriptor(dq_base_34, [N_CTX, 128], [128, 1], [64, 128], RED)\n")

LAUNCH_OLD = "    runtime = [_descriptor(bound[n], n)"
LAUNCH_NEW = """    _allocator()
    runtime = [_descriptor(bound[n], n)"""
ALLOC = '''

def _allocator():
    """Device-side tensor descriptors live in global scratch memory: give Triton an allocator if it has none."""
    import torch
    import triton
    from triton.runtime import _allocation
    if isinstance(_allocation._allocator.get(), _allocation.NullAllocator):
        triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
'''


def make(out: Path) -> None:
    shutil.copytree(SRC, out, dirs_exist_ok=True)
    path = out / "kernel_gluon.py"
    src = path.read_text()
    for old, new, count in ((HEADER_OLD, HEADER_NEW, 1), (PADDED, "RED", 2), (LOOP_OLD, LOOP_NEW, 1),
                            (COLS_OLD, COLS_NEW, 1), (LAUNCH_OLD, LAUNCH_NEW, 1)):
        assert src.count(old) == count, (old, src.count(old))
        src = src.replace(old, new)
    # each consumer's partial: generic-proxy stores, read by the TMA engine: fence before the arrive
    lines = src.split("\n")
    for i, line in enumerate(lines):
        if line.strip().startswith("twill_red_t") and ".store(" in line:
            indent = line[:len(line) - len(line.lstrip())]
            lines[i] = line + "\n" + indent + "fence_async_shared()"
    src = "\n".join(lines) + ALLOC
    path.write_text(src)


if __name__ == "__main__":
    make(Path(sys.argv[1]))
