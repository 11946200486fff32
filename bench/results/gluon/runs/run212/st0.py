"""Run 212b (session 83, #14): the committed FA backward with consumer 0 issuing its sT dot before its dpT dot, as
consumer 1 does (the schedule's sub-tile 0 has dpT first): it then waits for sT alone (wait(1)) before the exponent,
and for dpT (wait(0)) just before dsT = pT * (dpT - Di), so the exponent overlaps dpT on the tensor core.

    python bench/results/gluon/runs/run212/st0.py SRC_KERNEL DST_KERNEL
"""
import sys

lines = open(sys.argv[1]).read().split("\n")
start = next(i for i, l in enumerate(lines) if l.startswith("def consumer_0"))
end = next(i for i, l in enumerate(lines) if l.startswith("def consumer_1"))
done = 0
i = start
while i < end:
    if "tok_dpT_62_t0 = warpgroup_mma(" in lines[i] and "mbarrier.wait(do_ready" in lines[i - 1]:
        j = next(k for k in range(i, end) if "tok_sT_49_t0 = warpgroup_mma(" in lines[k])
        if j - i == 2:      # the prologue's adjacent pair: swap the two (wait, issue) pairs
            lines[i - 1:j + 1] = lines[j - 1:j + 1] + lines[i - 1:i + 1]
        else:               # the steady loop and the epilogue: the sT pair moved first, the partial's store after both
            pair = lines[j - 1:j + 1]
            del lines[j - 1:j + 1]
            lines[i - 1:i - 1] = pair
        w = next(k for k in range(i, end) if "= warpgroup_mma_wait(0, deps=(" in lines[k] and "tok_sT_49_t0" in lines[k])
        ind = lines[w][:len(lines[w]) - len(lines[w].lstrip())]
        names = lines[w].strip().split(" = ")[0].split(", ")
        deps = lines[w].split("deps=(")[1].rstrip(",))").split(", ")
        keep = [(n, d) for n, d in zip(names, deps) if d != "tok_dpT_62_t0"]
        lines[w] = f"{ind}{', '.join(n for n, _ in keep)} = warpgroup_mma_wait(1, deps=({', '.join(d for _, d in keep)},))"
        u = next(k for k in range(w, end) if lines[k].strip().startswith("dsT_64_t0 = dpT_62_t0"))
        lines.insert(u, f"{ind}dpT_62_t0 = warpgroup_mma_wait(0, deps=(tok_dpT_62_t0,))")
        done += 1
        i = u + 1
        continue
    i += 1
open(sys.argv[2], "w").write("\n".join(lines))
print(f"{done} bodies reordered")
