"""Run 213 (session 83, #14): the committed FA backward with its dQ partials added by TMA (``cp.reduce.async.bulk.tensor``
add, FlashAttention-3's dQ accumulation), not by one-warp partitions' atomics. Each consumer stores its [64, 64] fp32
partial (the CTA's, for its 64 columns: the column split) into a buffer of its own and issues one TMA reduce-add of it
into DQ; before overwriting the buffer it waits for the TMA to have read it (``tma.store_wait(0)``). The reducer
partition, the producer's share of the adds and the ``twill_red_ready``/``twill_red_free`` handshake go. Gluon 3.6 has
no TMA reduce in its language; the builder has ``create_async_tma_reduce``, reached through a builtin defined here.

    python bench/results/gluon/runs/run213/tmared.py SRC_KERNEL DST_KERNEL
"""
import re
import sys

s = open(sys.argv[1]).read()
BUILTIN = '''
from triton.language.core import builtin as _twill_builtin
from triton._C.libtriton import ir as _twill_ir


@_twill_builtin
def tma_reduce_add(tensor_desc, coord, src, _semantic=None):
    """TMA reduce-add of shared buffer ``src`` into the tensor of ``tensor_desc`` at ``coord`` (one bulk group)."""
    coord = _semantic._convert_to_ir_values(coord, require_i64=False)
    _semantic.builder.create_async_tma_reduce(_twill_ir.DESCRIPTOR_REDUCE_KIND.ADD, tensor_desc.handle, coord, src.handle)

'''
anchor = "\nL0 = gl.constexpr("
assert anchor in s
s = s.replace(anchor, BUILTIN + anchor, 1)
# the DQ descriptor beside DQ in every signature and call, and in the launcher's runtime arguments
s = s.replace("DQ, LSE, Delta", "DQ, desc_dq, LSE, Delta")
s = s.replace("'DQ', 'LSE', 'Delta', 'sm_scale', 'N_CTX', 'twill_g0'", "'DQ', 'desc_dq', 'LSE', 'Delta', 'sm_scale', 'N_CTX', 'twill_g0'")
s = s.replace("    runtime = [_descriptor(bound[n], n)",
              "    bound['desc_dq'] = _desc('desc_dq', bound['DQ'], [bound['DQ'].numel() // 128, 128], [128, 1], [64, 64])\n"
              "    runtime = [_descriptor(bound[n], n)", 1)
s = s.replace("DESCRIPTOR_LAYOUTS = {", "DESCRIPTOR_LAYOUTS = {'desc_dq': 'NVMMASharedLayout(swizzle_byte_width=0, "
              "element_bitwidth=32, rank=2)', ", 1)
# one [64, 64] fp32 buffer per consumer, in the layout the descriptor has
s = re.sub(r"twill_red = gl\.allocate_shared_memory\(gl\.float32, \[64, 128\], .*\)\n",
           "twill_red = gl.allocate_shared_memory(gl.float32, [2, 64, 64], desc_dq.layout)\n", s)
# the consumers' hand-off: wait for the TMA to have read the buffer, store, fence, reduce-add
pat = re.compile(r"( +)mbarrier\.wait\(twill_red_free\.index\(0\), \(\(twill_base \+ (.*?)\) & 1\) \^ 1\)\n"
                 r" +twill_red\.slice\((0|64), 64, dim=1\)\.store\((\w+)\)(.*)\n"
                 r" +mbarrier\.arrive\(twill_red_ready\.index\(0\)\)\n")


def handoff(m):
    ind, it, col, val, comment = m.groups()
    buf = f"twill_red.index({int(col) // 64})"
    return (f"{ind}tma.store_wait(0)\n{ind}{buf}.store({val}){comment}\n{ind}fence_async_shared()\n"
            f"{ind}tma_reduce_add(desc_dq, [offset_y + ({it}) * 64, {col}], {buf})\n")


s, n = pat.subn(handoff, s)
assert n == 6, n
# the producer's share of the adds: the block in its loop and the tail loop after it
s, n = re.subn(r"\n +if dv_43 >= 0 \+ 2 \* 64:\n(?: {16}.*\n)+", "\n", s)
assert n == 1, n
s, n = re.subn(r" +twill_n = \(N_CTX - 0 \+ 64 - 1\) // 64\n +for twill_j in range\(gl\.maximum\(twill_n - 2, 0\), twill_n\):\n"
               r"(?: {12}.*\n)+", "", s)
assert n == 1, n
# the reducer partition goes
s, n = re.subn(r"\n +\(reducer_3, \(.*\)\),", "", s)
assert n == 1, n
s = s.replace("], [4, 1, 1], [240, 24, 24])", "], [4, 1], [240, 24])")
# each consumer's last reduce-add read before it returns
for fn in ("consumer_0", "consumer_1"):
    start = s.index(f"def {fn}(")
    end = s.index("@gluon.jit", start)
    body = s[start:end].rstrip("\n") + "\n    tma.store_wait(0)\n\n"
    s = s[:start] + body + s[end:]
assert "atomic_add(" not in s.split("def reducer_3")[0].split("def producer_2")[1]
open(sys.argv[2], "w").write(s)
print("written", sys.argv[2])
