"""Experiment: asynchronous PV GEMMs inside the ping-pong partitions without Triton's pipeliner (which
never returns on that loop in 3.6): ``isAsync = true`` on each PV warp_group_dot, a
``warp_group_dot_wait {pendings = 0}`` on the carried accumulator right before the next iteration's
rescale (so PV(i) runs under QK(i+1) and softmax(i+1)), and one after the loop. Text edit."""
import re

ACC = "tensor<64x128xf32, #mma>"


def add_async(text: str) -> str:
    L = text.splitlines()
    ifor = next(i for i, l in enumerate(L) if " = scf.for " in l and "iter_args(" in l and "%offsetkv_y" in l)
    loop_name = re.match(r"\s*(%[\w$.\-]+):\d+ = scf\.for", L[ifor]).group(1)
    out = []
    waited = {}
    for i, l in enumerate(L):
        m = re.match(r"(\s*)(%acc[01]_\d+) = ttng\.warp_group_dot (%p[01]_\d+), ", l)
        if m and "isAsync" not in l:
            l = l.replace("{inputPrecision = 0 : i32,", "{inputPrecision = 0 : i32, isAsync = true,", 1)
        m2 = re.match(r"(\s*)(%acc[01]_\d+) = arith\.mulf (%arg3[01]), ", l)
        if m2 and i > ifor:
            pad, _, arg = m2.groups()
            part = re.search(r"ttg\.partition = array<i32: \d+>", l).group(0)
            st = re.search(r"loop\.stage = \d+ : i32, loop\.cluster = \d+ : i32", l).group(0)
            w = f"%tw_wait_{arg[1:]}"
            out.append(f"{pad}{w} = ttng.warp_group_dot_wait {arg} {{pendings = 0 : i32, {st}, {part}}} : {ACC}")
            l = l.replace(f"arith.mulf {arg},", f"arith.mulf {w},", 1)
        for k in (4, 5):   # after the loop: the accumulators' last GEMMs
            ref = f"{loop_name}#{k}"
            if ref in l and i > ifor and "arith.divf" in l:
                if ref not in waited:
                    pad = re.match(r"\s*", l).group(0)
                    waited[ref] = f"%tw_final_{k}"
                    out.append(f"{pad}{waited[ref]} = ttng.warp_group_dot_wait {ref} {{pendings = 0 : i32}} : {ACC}")
                l = l.replace(ref, waited[ref])
        out.append(l)
    return "\n".join(out) + "\n"
