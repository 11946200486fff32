"""Experiment: order sub-tile 1's QK after sub-tile 0's QK each iteration (FA3's ping-pong skew) by a
data token: dot1's zero accumulator becomes 0 * m_ij0 (sub-tile 0's row max, computed from dot0's
result in partition 0), broadcast. Text edit on the annotated / live module."""
import re
SLICE = "tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>"


def add_token(text: str) -> str:
    L = text.splitlines()
    iq = next(i for i, l in enumerate(L) if re.search(r"^\s*%qk1 = ttng\.warp_group_dot", l))
    ir = next(i for i, l in enumerate(L) if re.search(r'^\s*%m_ij0_37 = "tt\.reduce"', l))
    assert ir == iq + 1, (iq, ir)
    # end of the reduce region: the first line after ir at the same indent starting with '})'
    ind = len(L[ir]) - len(L[ir].lstrip())
    ie = next(i for i in range(ir + 1, len(L)) if L[i].startswith(" " * ind + "})"))
    dot = L[iq]
    m = re.search(r"loop\.stage = (\d+) : i32, loop\.cluster = (\d+) : i32", dot)
    attrs = f"loop.stage = {m.group(1)} : i32, loop.cluster = {m.group(2)} : i32, ttg.partition = array<i32: 1>"
    pad = " " * (len(dot) - len(dot.lstrip()))
    new = [f"{pad}%tw_t0 = arith.mulf %m_ij0_37, %tw_zero {{{attrs}}} : {SLICE}",
           f"{pad}%tw_t1 = tt.expand_dims %tw_t0 {{axis = 1 : i32, {attrs}}} : {SLICE} -> tensor<64x1xf32, #mma>",
           f"{pad}%tw_c = tt.broadcast %tw_t1 {{{attrs}}} : tensor<64x1xf32, #mma> -> tensor<64x128xf32, #mma>",
           dot.replace(", %cst_18 {", ", %tw_c {", 1)]
    assert new[-1] != dot
    out = L[:iq] + L[iq + 1:ie + 1] + new + L[ie + 1:]
    # the zero constant, before the loop
    ifor = max(i for i, l in enumerate(out[:iq]) if " = scf.for " in l)
    out.insert(ifor, f"    %tw_zero = arith.constant dense<0.000000e+00> : {SLICE}")
    return "\n".join(out) + "\n"
