"""Run 107: the FA backward's dQ split along the head dimension across its two consumers (FlashAttention-3's split),
by hand on the committed kernel, with and without P^T kept in registers for dV.

Each consumer c computes dQ[:, 64c:64c+64] over both consumers' keys: its own dS^T times its K's column half, then
(behind ``dsT_ready``) the other consumer's dS^T times the other K's column half, chained on one accumulator; it reads
the other's staged dS^T, so ``dsT_free`` holds the writer's next store (and its dK store into its K buffer after the
loop) until that read retired. The partial each consumer hands the reducer is final for its columns: one [64, 128]
buffer, each consumer storing its column half, the reducer and producer adding rows without summing two partials.
``preg``: dV's A operand P^T converted to the wgmma's register operand layout, not stored in shared memory.
Run from the repository root: ``python bench/results/gluon/runs/run107/mk107.py`` (offline: ptxas census and the
protocol check of each variant)."""
import dataclasses
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[5]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / "bench"))
G = ROOT / "bench/results/gluon"
R = Path(__file__).resolve().parent


def split(src: str) -> str:
    src = src.replace("v_c1_t1_bar, v_c1_t1_free):", "v_c1_t1_bar, v_c1_t1_free, dsT_ready, dsT_free):")
    src = src.replace("v_c1_t1_bar, v_c1_t1_free)),", "v_c1_t1_bar, v_c1_t1_free, dsT_ready, dsT_free)),")
    alloc = ("    dsT_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())\n"
             "    for i in gl.static_range(2):\n        mbarrier.init(dsT_ready.index(i), count=1)\n"
             "    dsT_free = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())\n"
             "    for i in gl.static_range(2):\n        mbarrier.init(dsT_free.index(i), count=1)\n"
             "    gl.warp_specialize([")
    src = src.replace("    gl.warp_specialize([", alloc, 1)
    # one partial buffer for the CTA: consumer c stores its column half
    red = re.search(r"    twill_red_t0 = gl.allocate_shared_memory\(.*\)\n", src).group(0)
    src = src.replace(red, red.replace("twill_red_t0", "twill_red"), 1)
    src = re.sub(r"    twill_red_t1 = gl.allocate_shared_memory\(.*\)\n", "", src, count=1)
    src = src.replace("twill_red_t0, twill_red_t1,", "twill_red, twill_red_unused,")
    src = re.sub(r"(?m)^(        \(\w+, \(.*)twill_red, twill_red_unused,", r"\1twill_red, twill_red,", src)
    src = re.sub(r"twill_red_t0\.slice\((twill_r), 1, dim=0\)\.load\(L7\) \+ twill_red_t1\.slice\(twill_r, 1, dim=0\)\.load\(L7\)",
                 r"twill_red.slice(\1, 1, dim=0).load(L7)", src)
    parts = re.split(r"(?m)^(?=@gluon\.jit\n)", src)
    out = []
    for part in parts:
        m = re.search(r"def consumer_(\d)\(", part)
        out.append(_consumer(part, int(m.group(1))) if m else part)
    src = "".join(out)
    # the call passes twill_red twice (the partitions' parameter list keeps its length)
    return src


def _consumer(part: str, c: int) -> str:
    o = 1 - c
    lines = part.splitlines(keepends=True)
    res, i, cur_it = [], 0, None
    while i < len(lines):
        l = lines[i]
        ind = l[:len(l) - len(l.lstrip())]
        if f"dsT_66_st_t{c}.store(dsT_66_t{c})" in l:
            j = next(k for k in range(i, i + 14) if f"tok_dk_t{c} = warpgroup_mma" in lines[k])
            cur_it = re.search(r"q_44_buf\.index\((.*)\) % 2\)", lines[j]).group(1) + ")"
            res.append(f"{ind}mbarrier.wait(dsT_free.index({c}), (({cur_it}) & 1) ^ 1)  # the other consumer read my dS^T of the iteration before\n")
            res += [l, lines[i + 1]]
            assert "fence_async_shared" in lines[i + 1]
            res.append(f"{ind}mbarrier.arrive(dsT_ready.index({c}))  # my dS^T is in shared memory\n")
            i += 2
            continue
        if f"tok_dq_69_t{c} = warpgroup_mma(" in l:
            res.append(f"{ind}tok_dq_69_t{c} = warpgroup_mma(dsT_66_st_t{c}.permute((1, 0)), k_c{c}_t{c}_buf.slice({c * 64}, 64, dim=1), "
                       f"gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot4_dq: my keys, head dims {c * 64}..{c * 64 + 63}\n"
                       f"{ind}mbarrier.wait(dsT_ready.index({o}), ({cur_it}) & 1)\n"
                       f"{ind}tok_dq_69_t{c} = warpgroup_mma(dsT_66_st_t{o}.permute((1, 0)), k_c{o}_t{o}_buf.slice({c * 64}, 64, dim=1), "
                       f"tok_dq_69_t{c}, is_async=True)  # dot4_dq: the other consumer's keys\n")
            i += 1
            continue
        if re.match(rf"\s*(\w+, )*dq_69_t{c}(, \w+)* = warpgroup_mma_wait", l):
            res.append(l)
            res.append(f"{ind}mbarrier.arrive(dsT_free.index({o}))  # done reading the other consumer's dS^T\n")
            i += 1
            continue
        if f"twill_red_t{c}.store(" in l:
            l = l.replace(f"twill_red_t{c}.store(", f"twill_red.slice({c * 64}, 64, dim=1).store(")
        if f"k_c{c}_t{c}_buf.store(" in l:
            res.append(f"{ind}mbarrier.wait(dsT_free.index({c}), (twill_base + twill_n - 1) & 1)  # the other consumer's last dQ read of my K retired\n")
        res.append(l)
        i += 1
    return "".join(res)


def preg(src: str) -> str:
    """dV's A operand from registers: P^T converted to the wgmma's operand layout, no store and fence."""
    src = src.replace("L7 = gl.constexpr(", "L9 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout("
                      "version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))\nL7 = gl.constexpr(", 1)
    for t in (0, 1):
        src = re.sub(rf"(\s*)dv_56_st_t{t}\.store\(dv_56_t{t}\)[^\n]*\n\s*fence_async_shared\(\)[^\n]*\n",
                     rf"\1dv_57_t{t} = gl.convert_layout(dv_56_t{t}, L9)  # dot1_dv: P^T as the register A operand\n", src)
        src = src.replace(f"warpgroup_mma(dv_56_st_t{t}, ", f"warpgroup_mma(dv_57_t{t}, ")
    return src


def dsreg(src: str) -> str:
    """dK's A operand dS^T from registers (still stored for the dQ wgmmas, which read it transposed)."""
    if "L9 = gl.constexpr(" not in src:
        src = src.replace("L7 = gl.constexpr(", "L9 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout("
                          "version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))\nL7 = gl.constexpr(", 1)
    for t in (0, 1):
        src = src.replace(f"tok_dk_t{t} = warpgroup_mma(dsT_66_st_t{t}, ", f"tok_dk_t{t} = warpgroup_mma(gl.convert_layout(dsT_66_t{t}, L9), ")
    return src


def main() -> int:
    import gluon_variants as gv
    from codegen.gluon.generate import compile_offline, ptxas_report
    from codegen.gluon.protocol import check_kernel
    from codegen.gluon.sass import wgmma_loops
    from twill.machine.model import load_machine
    from twill.pipeline import extract

    d = G / "fa_bwd"
    meta = json.loads((d / "variant.json").read_text()); gs = json.loads((d / "gluon.json").read_text())
    machine = load_machine("h200")
    _, kir, _ = extract(str(gv.ROOT / meta["kernel_file"]), machine, gv._specialised(meta["command"]))
    k = gv._generate_again(kir, gs, meta, machine)
    base = (d / "kernel_gluon.py").read_text()
    assert k.source == base, "the committed kernel does not regenerate"
    variants = {"base": base, "split": split(base), "split_preg": preg(split(base)), "preg": preg(base),
                "split_dsreg": dsreg(split(base)), "split_preg_dsreg": dsreg(preg(split(base)))}
    for label, src in variants.items():
        kk = dataclasses.replace(k, source=src)
        try:
            c = compile_offline(kk, machine)
        except Exception as e:  # noqa: BLE001
            print(label, "does not compile:", str(e)[:600]); continue
        problems, why = check_kernel(src, kk.signature, 3)
        loops = wgmma_loops(c.asm["cubin"])
        print(label, ptxas_report(c, machine), "smem", c.metadata.shared, "protocol", problems[:3] or "clean", why)
        for lp in loops:
            print("   ", lp.census(), lp.shared_bytes(4))
        if label in ("split", "split_preg"):     # the others: ptxas serialises their wgmmas (not run)
            out = R / f"fa_bwd-{label.replace('_', '-')}"
            out.mkdir(exist_ok=True)
            (out / "kernel_gluon.py").write_text(src.replace('"""_attn_bwd, written by twill',
                                                             f'"""HAND-EDITED (run 107, {label}) from _attn_bwd, written by twill', 1))
            (out / "variant.json").write_text(json.dumps({"label": f"fa_bwd-{label}", "kernel_file": "kernels/fa_bwd.py", "jit": "_attn_bwd",
                                                          "command": f"hand-edited from bench/results/gluon/fa_bwd by runs/run107/mk107.py ({label})"}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
