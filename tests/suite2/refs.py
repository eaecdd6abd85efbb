"""Plain-Python references for the kernels in tests/suite2/*.cu.

A third batch, written on the larger side of what the machine holds (many
pointer parameters, loops nvcc unrolls, several features combined). Same
conventions as tests/suite/refs.py: no project imports, only the standard
library; ``REFS[stem](args, grid, block)`` returns the final contents of EVERY
pointer parameter (inputs included) as Python ints in the range of the
parameter's declared type (signed int32 for ``int``, 0..2**32-1 for
``unsigned``).

Emulation notes: ``/`` and ``%`` truncate toward zero (``sdiv``/``srem``);
unsigned arithmetic wraps modulo 2**32 at every C operation (``u32``);
signed results are stored through ``s32``. Atomics in these kernels are all
order independent, shuffles stay inside groups of 4 and full-mask ballots are
reached by every thread of the CTA.
"""

from __future__ import annotations

import math
import zlib
# ruff: noqa: F403, F405
from ref_support import *  # C int32 helpers, shfl rules, make_registry
from ref_support import _scalar, _shfl_src  # noqa: F401  (underscore names: not in *)

REFS, ref = make_registry()


def _groups(block):
    """Thread ids of each 4-lane warp of one CTA (the last one may be partial)."""
    return [list(range(g, min(g + 4, block))) for g in range(0, block, 4)]


# ---------------------------------------------------------------------------
# shared memory, matrices, sorting, scans
# ---------------------------------------------------------------------------

@ref(A="s", B="s", C="s", tr="s", rmax="s")
def ref_matmul_smem4(a, grid, block):
    A, B, C, rmax = a["A"], a["B"], a["C"], a["rmax"]
    tr = a["tr"][0]
    for t in range(16):
        r, c = t >> 2, t & 3
        acc = s32(sum(A[r * 4 + k] * B[k * 4 + c] for k in range(4)))
        C[t] = acc
        if r == c:
            tr = s32(tr + acc)
        rmax[r] = max(rmax[r], acc)
    return {"C": C, "tr": [tr], "rmax": rmax}


@ref(**{"in": "s", "tr": "s", "rot": "s", "sym": "s"})
def ref_transpose_rot_smem(a, grid, block):
    m = a["in"]
    tr, rot, sym = a["tr"], a["rot"], a["sym"]
    for t in range(16):
        r, c = t // 4, t % 4
        tr[t] = m[c * 4 + r]
        rot[t] = m[(3 - c) * 4 + r]
        sym[t] = s32(m[r * 4 + c] + m[c * 4 + r] - (m[t] if r == c else 0))
    return {"tr": tr, "rot": rot, "sym": sym}


@ref(v="s", hist="u", gmax="s", ctamax="s")
def ref_hist_merge_2cta(a, grid, block):
    n = _scalar(a, "n")
    v, hist, ctamax = a["v"], a["hist"], a["ctamax"]
    gmax = a["gmax"][0]
    for c in range(grid):
        smax = INT_MIN
        for t in range(block):
            i = c * block + t
            while i < n:
                x = v[i]
                hist[(x >> 2) & 7] += 1
                smax = max(smax, x)
                i += block * grid
        ctamax[c] = smax
        gmax = max(gmax, smax)
    return {"hist": hist, "gmax": [gmax], "ctamax": ctamax}


@ref(**{"in": "s", "out": "s", "stats": "s"})
def ref_insertion_sort12(a, grid, block):
    n = _scalar(a, "n")
    s = sorted(a["in"][:n])
    d = 1 + sum(1 for i in range(1, n) if s[i] != s[i - 1])
    stats = [s[0], s[n - 1], sdiv(s[n // 2 - 1] + s[n // 2], 2), d, sum(1 for x in a["in"][:n] if x < 0)]
    return {"out": s + a["out"][n:], "stats": stats}


@ref(**{"in": "s", "out": "s", "uniq": "s"})
def ref_insertion_sort_global(a, grid, block):
    n = _scalar(a, "n")
    u = sorted(set(a["in"][:n]))
    return {"out": u + [0] * (n - len(u)) + a["out"][n:], "uniq": [len(u)]}


@ref(**{"in": "s", "inc": "s", "exc": "s", "tot": "s"})
def ref_scan_hs16(a, grid, block):
    inc, run = [], 0
    for x in a["in"][:block]:
        run = s32(run + x)
        inc.append(run)
    exc = [s32(inc[t] - a["in"][t]) for t in range(block)]
    return {"inc": inc, "exc": exc, "tot": [inc[-1]]}


@ref(arr="s", keys="s", lb="s", ub="s", cnt="s")
def ref_binsearch16(a, grid, block):
    n = _scalar(a, "n")
    arr = a["arr"][:n]
    lb, ub, cnt = a["lb"], a["ub"], a["cnt"]
    for t in range(block):
        k = a["keys"][t]
        lo = sum(1 for x in arr if x < k)
        hi = sum(1 for x in arr if x <= k)
        lb[t], ub[t], cnt[t] = lo, hi, hi - lo
    return {"lb": lb, "ub": ub, "cnt": cnt}


@ref(**{"in": "s", "asc": "s", "desc": "s"})
def ref_bitonic16(a, grid, block):
    s = list(a["in"][:16])
    k = 2
    while k <= 16:
        j = k >> 1
        while j > 0:
            new = list(s)
            for t in range(16):
                p = t ^ j
                if p > t:
                    x, y = s[t], s[p]
                    up = (t & k) == 0
                    if (x > y) == up:
                        new[t], new[p] = y, x
            s = new
            j >>= 1
        k <<= 1
    assert s == sorted(a["in"][:16])
    return {"asc": s, "desc": s[::-1]}


@ref(**{"in": "s", "out": "s", "ok": "s"})
def ref_oddeven_sort(a, grid, block):
    s = list(a["in"][:16])
    for ph in range(16):
        for t in range(8):
            i = 2 * t + (ph & 1)
            if i + 1 < 16 and s[i] > s[i + 1]:
                s[i], s[i + 1] = s[i + 1], s[i]
    ok = a["ok"][0]
    for t in range(8):
        bad = (s[2 * t] > s[2 * t + 1]) or (t < 7 and s[2 * t + 1] > s[2 * t + 2])
        ok += 0 if bad else 1
    return {"out": s, "ok": [ok]}


@ref(**{"in": "s", "out": "s"})
def ref_jacobi_iter(a, grid, block):
    n = block
    x = list(a["in"][:n])
    for _ in range(_scalar(a, "iters")):
        x = [sdiv(x[max(t - 1, 0)] + 2 * x[t] + x[min(t + 1, n - 1)], 4) for t in range(n)]
    return {"out": x}


@ref(**{"in": "s", "out": "s"})
def ref_stencil_iter_2cta(a, grid, block):
    inp = a["in"]
    n = grid * block
    out = a["out"]
    for c in range(grid):
        g0 = c * block
        s = [inp[max(g0 - 1, 0)]] + inp[g0:g0 + block] + [inp[min(g0 + block, n - 1)]]
        for _ in range(_scalar(a, "iters")):
            new = list(s)
            for t in range(block):
                l, m, r = s[t], s[t + 1], s[t + 2]
                new[t + 1] = s32(max(l, m, r) - min(l, m, r) + (m >> 1))
            s = new
        out[g0:g0 + block] = s[1:block + 1]
    return {"out": out}


@ref(A="u", out="u", tr="u")
def ref_matpow_smem(a, grid, block):
    A = a["A"]
    r = [1 if i == j else 0 for i in range(4) for j in range(4)]
    for _ in range(_scalar(a, "p")):
        r = [u32(sum(r[i * 4 + k] * A[k * 4 + j] for k in range(4))) for i in range(4) for j in range(4)]
    return {"out": r, "tr": [u32(a["tr"][0] + sum(r[i * 5] for i in range(4)))]}


@ref(M="s", x="s", y="s", total="s")
def ref_matvec_cta(a, grid, block):
    y = [s32(sum(a["M"][r * 8 + j] * a["x"][j] for j in range(8))) for r in range(4)]
    return {"y": y, "total": [s32(a["total"][0] + sum(y))]}


@ref(init="s", out="s", pop="s")
def ref_rule110(a, grid, block):
    rule, gens = _scalar(a, "rule"), _scalar(a, "gens")
    n = block
    x = [v & 1 for v in a["init"][:n]]
    pop = a["pop"]
    for g in range(gens):
        x = [(rule >> ((x[(t - 1) % n] << 2) | (x[t] << 1) | x[(t + 1) % n])) & 1 for t in range(n)]
        pop[g] = sum(x)
    return {"out": x, "pop": pop}


# ---------------------------------------------------------------------------
# atomics, multi-CTA, grid-stride, combinations
# ---------------------------------------------------------------------------

def _stride_items(c, t, block, grid, n):
    i = c * block + t
    while i < n:
        yield i
        i += block * grid


@ref(data="s", sum="s", negs="s", bmax="s", bsum="s")
def ref_combo_reduce(a, grid, block):
    n = _scalar(a, "n")
    d = a["data"]
    tot, negs, bmax = a["sum"][0], a["negs"][0], a["bmax"][0]
    bsum = a["bsum"]
    for c in range(grid):
        ps = nc = 0
        for t in range(block):
            for i in _stride_items(c, t, block, grid, n):
                if d[i] > 0:
                    ps += d[i]
                elif d[i] < 0:
                    nc += 1
        ps = s32(ps)
        tot = s32(tot + ps)
        negs += nc
        bmax = max(bmax, ps)
        bsum[c] = ps
    return {"sum": [tot], "negs": [negs], "bmax": [bmax], "bsum": bsum}


@ref(a="s", sum="s", mn="s", mx="s", cnt="s", loc="s")
def ref_grid_stride_multi(a, grid, block):
    n = _scalar(a, "n")
    arr, cnt, loc = a["a"], a["cnt"], a["loc"]
    tot, mn, mx = a["sum"][0], a["mn"][0], a["mx"][0]
    for c in range(grid):
        for t in range(block):
            tid = c * block + t
            cc = ss = 0
            for i in _stride_items(c, t, block, grid, n):
                v = s32(arr[i] * 3 - i)
                arr[i] = v
                tot = s32(tot + v)
                mn, mx = min(mn, v), max(mx, v)
                ss = s32(ss + v)
                cc += 1
            cnt[tid], loc[tid] = cc, ss
    return {"a": arr, "sum": [tot], "mn": [mn], "mx": [mx], "cnt": cnt, "loc": loc}


@ref(v="s", sum="s", mx="s", negthr="s", grp="s")
def ref_warp_smem_combo(a, grid, block):
    n = _scalar(a, "n")
    v = a["v"]
    tot, mx = a["sum"][0], a["mx"][0]
    negthr, grp = a["negthr"], a["grp"]
    for c in range(grid):
        gsums, gmaxs, neg = [], [], 0
        for g in _groups(block):
            gs, gm = 0, INT_MIN
            for t in g:
                items = [v[i] for i in _stride_items(c, t, block, grid, n)]
                gs += sum(items)
                gm = max([gm] + items)
                neg += 1 if any(x < 0 for x in items) else 0
            gsums.append(s32(gs))
            gmaxs.append(gm)
        grp[c * 2: c * 2 + 2] = gsums
        tot = s32(tot + gsums[0] + gsums[1])
        mx = max(mx, max(gmaxs))
        negthr[c] = neg
    return {"sum": [tot], "mx": [mx], "negthr": negthr, "grp": grp}


@ref(v="u", hist="u", ndig="s")
def ref_digit_hist(a, grid, block):
    hist, ndig = a["hist"], a["ndig"]
    for i, x in enumerate(a["v"][:grid * block]):
        ds = str(x)
        ndig[i] = len(ds)
        for ch in ds:
            hist[int(ch)] += 1
    return {"hist": hist, "ndig": ndig}


@ref(seed="u", cnt="s", total="s", smax="u")
def ref_lcg_count(a, grid, block):
    draws = _scalar(a, "draws")
    cnt = a["cnt"]
    total, smax = a["total"][0], a["smax"][0]
    for t in range(block):
        s = u32(a["seed"][t] * 2654435761)
        thr = 16 * (t + 1)
        c = 0
        for _ in range(draws):
            s = u32(s * 1664525 + 1013904223)
            if (s >> 24) < thr:
                c += 1
        cnt[t] = c
        total += c
        smax = max(smax, s)
    return {"cnt": cnt, "total": [s32(total)], "smax": [smax]}


@ref(start="s", steps="s", peak="s", mx="s", total="s")
def ref_collatz_max(a, grid, block):
    steps, peak = a["steps"], a["peak"]
    mx, total = a["mx"][0], a["total"][0]
    for t in range(block):
        x = a["start"][t]
        s, p = 0, x
        while x != 1:
            x = 3 * x + 1 if x & 1 else x >> 1
            assert INT_MIN <= x <= INT_MAX
            p = max(p, x)
            s += 1
        steps[t], peak[t] = s, p
        mx = max(mx, s)
        total += s
    return {"steps": steps, "peak": peak, "mx": [mx], "total": [total]}


# ---------------------------------------------------------------------------
# warp shuffles and votes
# ---------------------------------------------------------------------------

@ref(**{"in": "s", "scan": "s", "red": "s", "bc": "s", "diff": "s", "total": "s"})
def ref_shfl_group_ops(a, grid, block):
    v = a["in"]
    scan, red, bc, diff = a["scan"], a["red"], a["bc"], a["diff"]
    total = a["total"][0]
    for g in _groups(block):
        vals = {t: v[t] for t in g}
        s = s32(sum(vals.values()))
        run = 0
        for t in g:
            run = s32(run + v[t])
            scan[t] = run
            bc[t] = shfl(vals, "idx", t, 2, 4)
            diff[t] = s32(shfl(vals, "down", t, 1, 4) - v[t])
        red[2 * (g[0] >> 2)] = s
        red[2 * (g[0] >> 2) + 1] = max(vals.values())
        total = s32(total + s)
    return {"scan": scan, "red": red, "bc": bc, "diff": diff, "total": [total]}


@ref(**{"in": "s", "masks": "u", "pc": "s", "anyall": "s"})
def ref_ballot_loop(a, grid, block):
    v = a["in"][:block]
    masks = [sum(1 << t for t in range(block) if (v[t] >> bit) & 1) for bit in range(4)]
    acc = sum(popc(masks[bit]) * (bit + 1) for bit in range(4))
    anyall = a["anyall"]
    for g in _groups(block):
        an = 1 if any(v[t] > 12 for t in g) else 0
        al = 1 if all(v[t] & 1 for t in g) else 0
        for t in g:
            anyall[t] = an * 2 + al
    return {"masks": masks, "pc": [acc] * block, "anyall": anyall}


@ref(**{"in": "s", "res": "s"})
def ref_partial9_tree(a, grid, block):
    v = a["in"][:block]
    return {"res": [s32(sum(v)), max(v), sum(1 for x in v if x > 0), min(v)]}


@ref(**{"in": "s", "packed": "s", "info": "u"})
def ref_partial13_compact(a, grid, block):
    v = a["in"][:block]
    packed = a["packed"]
    b = 0
    r = 0
    for t in range(block):
        if v[t] > 0:
            b |= 1 << t
            packed[r] = s32(v[t] * 10 + t)
            r += 1
    return {"packed": packed, "info": [r, b]}


@ref(text="s", pat="s", hit="s", info="s")
def ref_pattern_count(a, grid, block):
    text, pat = a["text"], a["pat"]
    hit = [1 if text[t:t + 3] == pat[:3] else 0 for t in range(block)]
    b = sum(1 << t for t in range(block) if hit[t])
    info = [popc(b), ffs(b) - 1 if b else -1, 31 - clz(b) if b else -1]
    return {"hit": hit, "info": info}


# ---------------------------------------------------------------------------
# loops, divergence, switch
# ---------------------------------------------------------------------------

@ref(a="s", b="s", g="s", l="s", steps="s", bg="s")
def ref_gcd_lcm(a, grid, block):
    g, l, steps, bg = a["g"], a["l"], a["steps"], a["bg"]
    for t in range(block):
        x, y = a["a"][t], a["b"][t]
        s = 0
        while y != 0:
            x, y = y, srem(x, y)
            s += 1
        g[t] = x
        l[t] = s32(sdiv(a["a"][t], x) * a["b"][t]) if x else 0
        steps[t] = s
        u, v = u32(a["a"][t]), u32(a["b"][t])
        bg[t] = s32(math.gcd(u, v))
    return {"g": g, "l": l, "steps": steps, "bg": bg}


@ref(x="u", r="u", rem="u", sq="s")
def ref_isqrt_bisect(a, grid, block):
    r, rem, sq = a["r"], a["rem"], a["sq"]
    for t in range(block):
        v = a["x"][t]
        lo = math.isqrt(v)
        r[t], rem[t], sq[t] = lo, v - lo * lo, 1 if lo * lo == v else 0
    return {"r": r, "rem": rem, "sq": sq}


@ref(v="u", base="s", nd="s", dsum="s", packed="u", dmax="s")
def ref_base_convert(a, grid, block):
    nd, dsum, packed, dmax = a["nd"], a["dsum"], a["packed"], a["dmax"]
    for t in range(block):
        x, b = a["v"][t], u32(a["base"][t])
        ds = []
        while True:
            ds.append(x % b)
            x //= b
            if x == 0:
                break
        nd[t] = len(ds)
        dsum[t] = sum(ds)
        packed[t] = sum(d << (4 * i) for i, d in enumerate(ds[:8]))
        dmax[t] = max(ds)
    return {"nd": nd, "dsum": dsum, "packed": packed, "dmax": dmax}


@ref(data="s", runs="s", longest="s", lval="s", singles="s")
def ref_run_length(a, grid, block):
    runs, longest, lval, singles = a["runs"], a["longest"], a["lval"], a["singles"]
    for t in range(block):
        w = a["data"][4 * t: 4 * t + 8]
        groups = []
        for x in w:
            if groups and groups[-1][0] == x:
                groups[-1][1] += 1
            else:
                groups.append([x, 1])
        best = bv = 0
        for x, ln in groups:
            if ln > 1 and ln > best:
                best, bv = ln, x
        runs[t] = len(groups)
        longest[t], lval[t] = best, bv
        singles[t] = sum(1 for _, ln in groups if ln == 1)
    return {"runs": runs, "longest": longest, "lval": lval, "singles": singles}


@ref(m="s", cnt="s", kept="s", last="s")
def ref_break_continue_nested(a, grid, block):
    cnt, kept, last = a["cnt"], a["kept"], a["last"]
    for t in range(block):
        row = a["m"][6 * t: 6 * t + 6]
        c = k = 0
        lv = -1
        for v in row:
            if v < 0:
                continue
            if v == 0:
                break
            k += 1
            lv = v
            for d in range(1, 13):
                if d > v:
                    break
                if v % d:
                    continue
                c += 1
                if c > 20:
                    break
        cnt[t], kept[t], last[t] = c, k, lv
    return {"cnt": cnt, "kept": kept, "last": last}


@ref(x="s", lpf="s", nf="s", prime="s")
def ref_trial_div(a, grid, block):
    lpf, nf, prime = a["lpf"], a["nf"], a["prime"]
    for t in range(block):
        v = a["x"][t]
        n, big, d = 0, 1, 2
        while d <= v // d:
            while v % d == 0:
                v //= d
                n += 1
                big = d
            d += 1 if d == 2 else 2
        if v > 1:
            n += 1
            big = v
        lpf[t], nf[t], prime[t] = big, n, 1 if n == 1 else 0
    return {"lpf": lpf, "nf": nf, "prime": prime}


@ref(op="s", x="s", y="s", out="s")
def ref_multi_switch(a, grid, block):
    out = a["out"]
    for t in range(block):
        x, y, o = a["x"][t], a["y"][t], a["op"][t]
        if o == 0:
            r = x + y
        elif o == 1:
            r = x * y
        elif o == 2:
            r = x - y
        elif o == 3:
            r = sdiv(x, y if y else 1)
        elif o == 4:
            r = srem(x, y if y else 1)
        elif o == 5:
            r = x & y
        elif o == 6:
            r = x | s32(shl(y, 4))
        elif o == 7:
            r = sar(x, y & 31)
        else:
            r = -x
        r = s32(r)
        low = r & 7
        tag = 0
        if low == 0:
            tag = 11
        elif low == 1:
            tag = 10
        elif low in (3, 5):
            tag = 300
        elif low == 6:
            tag = -4
        else:
            tag = 2
        mode = t % 3
        if mode == 0:
            r = min(max(r, -1000), 1000)
        elif mode == 1:
            r = s32(-r) if r < 0 else r
        else:
            r = 65535 if u32(r) > 65535 else r
        out[t] = s32(r * 1000 + tag)
    return {"out": out}


@ref(prog="s", imm="s", x="s", out="s", nsteps="s")
def ref_tiny_vm(a, grid, block):
    prog, imm = a["prog"], a["imm"]
    out, nsteps = a["out"], a["nsteps"]
    for t in range(block):
        acc = a["x"][t]
        pc = steps = loops = 0
        while pc < 12 and steps < 40:
            op, k = prog[pc], imm[pc]
            steps += 1
            pc += 1
            if op == 0:
                acc = s32(acc + k)
            elif op == 1:
                acc = s32(acc * k)
            elif op == 2:
                acc = s32(acc ^ k)
            elif op == 3:
                acc = s32(shl(acc, k))
            elif op == 4:
                acc = sar(acc, k)
            elif op == 5:
                if acc < 0:
                    pc += 1
            elif op == 6:
                acc = srem(acc, 1000)
            elif op == 7:
                if loops < k and acc & 1:
                    loops += 1
                    pc = 0
            elif op == 8:
                acc = s32(-acc)
            else:
                pc = 100
        out[t], nsteps[t] = acc, steps
    return {"out": out, "nsteps": nsteps}


@ref(m="s", code="s", acc="s")
def ref_early_return_deep(a, grid, block):
    code, accs = a["code"], a["acc"]
    for t in range(block):
        r = a["m"][5 * t: 5 * t + 5]
        s = 0
        code[t] = -1
        done = False
        for i in range(5):
            v = r[i]
            if v < 0:
                code[t], accs[t], done = 10 + i, s, True
                break
            q = v % 4
            if q == 0:
                s += v
                if s > 60:
                    code[t], accs[t], done = 20 + i, s, True
                    break
            elif q == 3:
                s -= 1
            else:
                s += 2 * v
            if v > 90:
                for j in range(i):
                    if r[j] == 1:
                        code[t], accs[t], done = 30 + j, s, True
                        break
                if done:
                    break
        if done:
            continue
        accs[t] = s
        if s != 0:
            code[t] = 0
    return {"code": code, "acc": accs}


@ref(base="s", ex="s", res="s", ovf="s")
def ref_pow_overflow(a, grid, block):
    res, ovf = a["res"], a["ovf"]

    def mul_ovf(x, y):
        lo = s32(x * y)
        return lo, mulhi(x, y) != (lo >> 31)

    for t in range(block):
        b, e = a["base"][t], a["ex"][t]
        r, bit, bad = 1, 0, -1
        while e > 0:
            if e & 1:
                r, o = mul_ovf(r, b)
                if o:
                    bad = bit
                    break
            e >>= 1
            if e > 0:
                b, o = mul_ovf(b, b)
                if o:
                    bad = 100 + bit
                    break
            bit += 1
        res[t], ovf[t] = r, bad
    return {"res": res, "ovf": ovf}


@ref(a="s", b="s", c="s", med="s", ad="u", mix="s")
def ref_clamp_select(a, grid, block):
    med, ad, mix = a["med"], a["ad"], a["mix"]
    for t in range(block):
        x, y, z = a["a"][t], a["b"][t], a["c"][t]
        med[t] = max(min(x, y), min(max(x, y), z))
        ad[t] = u32(x - y) if x > y else u32(y - x)
        sg = (x > 0) - (x < 0)
        cl = min(max(s32(z * 10), -25), 25)
        um = min(u32(x), u32(y))
        r = sg * 1000 + cl + (1 if um > 1000 else um)
        r = s32(r)
        if t & 1:
            r = r if x == y else s32(-r)
        else:
            r = s32(r * 2) if abs(z) > 3 else r
        mix[t] = r
    return {"med": med, "ad": ad, "mix": mix}


@ref(a="s", b="s", c="s", d="s", o1="s", o2="u")
def ref_six_ptr(a, grid, block):
    o1, o2 = a["o1"], a["o2"]
    for t in range(block):
        x, y, z, w = a["a"][t], a["b"][t], a["c"][t], a["d"][t]
        m = s32(s32(s32(x * y) + z) - w)
        hi, lo = max(x, y, z, w), min(x, y, z, w)
        am = m if m > 0 else s32(-m)
        o1[t] = s32(sdiv(am, w + 1) + srem(s32(hi - lo), 97))
        u, uw = u32(z), u32(w)
        r = u32(u - uw) if u > uw else u32(uw - u)
        r ^= (1 if x < y else 0) << 31
        o2[t] = u32(r + (1 if z == w else 0) + (u32(y) >> (w & 15)))
    return {"o1": o1, "o2": o2}


# ---------------------------------------------------------------------------
# bits, hashes, PRNGs, wide products
# ---------------------------------------------------------------------------

@ref(**{"in": "u", "out": "u"})
def ref_swar_bits(a, grid, block):
    out = a["out"]
    for t in range(block):
        x = a["in"][t]
        top = (1 << (31 - clz(x))) if x else 0
        out[6 * t: 6 * t + 6] = [popc(x), popc(x) & 1, brev(x), clz(x), top, 7]
    return {"out": out}


@ref(**{"in": "u", "rev": "u", "tz": "s", "nib": "u"})
def ref_brev_loop32(a, grid, block):
    rev, tz, nib = a["rev"], a["tz"], a["nib"]
    for t in range(block):
        x = a["in"][t]
        rev[t] = brev(x)
        tz[t] = ffs(x) - 1 if x else 32
        nib[t] = sum(((x >> (4 * i)) & 0xF) << (28 - 4 * i) for i in range(8))
    return {"rev": rev, "tz": tz, "nib": nib}


def _crc32(bs: bytes) -> int:
    c = 0xFFFFFFFF
    for byte in bs:
        c ^= byte
        for _ in range(8):
            c = (c >> 1) ^ (0xEDB88320 if c & 1 else 0)
    c ^= 0xFFFFFFFF
    assert c == zlib.crc32(bs)
    return c


@ref(data="u", crc="u")
def ref_crc32_bitwise(a, grid, block):
    d = a["data"]
    return {"crc": [_crc32(d[t].to_bytes(4, "little") + d[t + 8].to_bytes(4, "little")) for t in range(block)]}


@ref(data="u", len="s", crc="u")
def ref_crc32_varlen(a, grid, block):
    stream = b"".join(w.to_bytes(4, "little") for w in a["data"])
    return {"crc": [_crc32(stream[: a["len"][t]]) for t in range(block)]}


def _xs32(x):
    x ^= u32(x << 13)
    x ^= x >> 17
    x ^= u32(x << 5)
    return x


@ref(seed="u", rounds="s", out="u", mix="u", draw="u")
def ref_xorshift_rounds(a, grid, block):
    out, mix, draw = a["out"], a["mix"], a["draw"]
    for t in range(block):
        x = a["seed"][t]
        for _ in range(a["rounds"][t]):
            x = _xs32(x)
        out[t] = x
        w = u32(0x9E3779B9 * (t + 1))
        y = x | 1
        for _ in range(4):
            y = u32(_xs32(y) + w)
        mix[t] = y
        draw[t] = y % (t * 7 + 3)
    return {"out": out, "mix": mix, "draw": draw}


@ref(lo="u", hi="u", rounds="s", olo="u", ohi="u")
def ref_xorshift64(a, grid, block):
    M64 = (1 << 64) - 1
    olo, ohi = a["olo"], a["ohi"]
    for t in range(block):
        x = (a["hi"][t] << 32) | a["lo"][t]
        for _ in range(a["rounds"][t]):
            x ^= (x << 13) & M64
            x ^= x >> 7
            x ^= (x << 17) & M64
        olo[t], ohi[t] = x & MASK32, x >> 32
    return {"olo": olo, "ohi": ohi}


@ref(a="s", b="s", out="s")
def ref_mul64_parts(a, grid, block):
    out = a["out"]
    for t in range(block):
        x, y = a["a"][t], a["b"][t]
        p = x * y
        out[5 * t: 5 * t + 5] = [
            s32(p >> 16),
            s32((u32(x) * u32(y) >> 32) ^ umulhi(x, y)),
            mulhi(x, y),
            s32((p + 32768) >> 16),
            -1 if p < 0 else (2 if p > 0xFFFFFFFF else p & 1),
        ]
    return {"out": out}


@ref(x="u", y="u", sat="u", bmax="u", swp="u", ilv="u", ssum="s")
def ref_byte_simd(a, grid, block):
    sat, bmax, swp, ilv, ssum = a["sat"], a["bmax"], a["swp"], a["ilv"], a["ssum"]
    for t in range(block):
        x, y = a["x"][t], a["y"][t]
        xb = [(x >> (8 * k)) & 0xFF for k in range(4)]
        yb = [(y >> (8 * k)) & 0xFF for k in range(4)]
        sat[t] = sum(min(p + q, 255) << (8 * k) for k, (p, q) in enumerate(zip(xb, yb)))
        hi = 0x80808080
        d = u32(u32((x | hi) - (y & u32(~hi))) ^ ((x ^ u32(~y)) & hi))
        m = u32(((d & hi) >> 7) * 0xFF)
        bmax[t] = (x & m) | (y & u32(~m))
        swp[t] = int.from_bytes(x.to_bytes(4, "little"), "big")
        ilv[t] = prmt(x, y, 0x7351) ^ prmt(x, y, 0x6240)
        ssum[t] = sum(sext(p, 8) - sext(q, 8) for p, q in zip(xb, yb))
    return {"sat": sat, "bmax": bmax, "swp": swp, "ilv": ilv, "ssum": ssum}


@ref(n="u", m="u", fib="u", chk="u")
def ref_fib_fastdbl(a, grid, block):
    fib, chk = a["fib"], a["chk"]
    for t in range(block):
        N, M = a["n"][t], a["m"][t]
        x, y = 0, 1 % M
        if N:
            for i in range(31 - clz(N), -1, -1):
                c = u32(x * (u32(u32(2 * y + M) - x) % M)) % M
                d = u32(u32(x * x) + u32(y * y)) % M
                if (N >> i) & 1:
                    x, y = d, u32(c + d) % M
                else:
                    x, y = c, d
        fib[t] = x
        p, q = 0, 1 % M
        for _ in range(min(N, 60)):
            p, q = q, u32(p + q) % M
        chk[t] = p
    return {"fib": fib, "chk": chk}


@ref(x="u", pos="s", len="s", ext="u", ins="u", rot="u", sh="s")
def ref_bitfield_var(a, grid, block):
    ext, ins, rot, sh = a["ext"], a["ins"], a["rot"], a["sh"]
    for t in range(block):
        v, p, l = a["x"][t], a["pos"][t], a["len"][t]
        mask = MASK32 if l >= 32 else (1 << l) - 1
        ext[t] = (v >> p) & mask
        f = u32(t * 0x9E3779B9) & mask
        ins[t] = (v & u32(~shl(mask, p))) | shl(f, p)
        k = (p + l) & 31
        rot[t] = rotl(v, k) if k else v
        sh[t] = s32(sar(v, p) + s32(v >> p) - sar(v, 31 - p))
    return {"ext": ext, "ins": ins, "rot": rot, "sh": sh}


# ---------------------------------------------------------------------------
# second wave: larger kernels aimed at the ROM / register limits
# ---------------------------------------------------------------------------

@ref(v0="u", v1="u", key="u", e0="u", e1="u", ok="s")
def ref_tea_rounds(a, grid, block):
    k0, k1, k2, k3 = a["key"][:4]
    e0, e1 = a["e0"], a["e1"]
    delta = 0x9E3779B9
    for t in range(block):
        y, z, s = a["v0"][t], a["v1"][t], 0
        for _ in range(32):
            s = u32(s + delta)
            y = u32(y + (u32(u32(z << 4) + k0) ^ u32(z + s) ^ u32((z >> 5) + k1)))
            z = u32(z + (u32(u32(y << 4) + k2) ^ u32(y + s) ^ u32((y >> 5) + k3)))
        e0[t], e1[t] = y, z
    return {"e0": e0, "e1": e1, "ok": [1]}


@ref(A="s", B="s", C="s", rs="s", mark="s")
def ref_single_thread_matmul(a, grid, block):
    A, B = a["A"], a["B"]
    C = [s32(sum(A[i * 4 + k] * B[k * 4 + j] for k in range(4))) for i in range(4) for j in range(4)]
    rs = [s32(sum(C[i * 4: i * 4 + 4])) for i in range(4)]
    return {"C": C, "rs": rs, "mark": [t + 1 for t in range(block)]}


@ref(a="s", b="s", corr="s", conv="s")
def ref_pragma_unroll_corr(a, grid, block):
    x, y = a["a"], a["b"]
    corr = [s32(sum(x[k] * y[(k + t) & 15] for k in range(16))) for t in range(block)]
    conv = [s32(sum(x[k] * y[(t - k) & 15] for k in range(16))) for t in range(block)]
    return {"corr": corr, "conv": conv}


@ref(m="s", st="s")
def ref_row_stats10(a, grid, block):
    n = _scalar(a, "n")
    st = a["st"]
    for t in range(block):
        r = a["m"][n * t: n * t + n]
        mn, mx, amin, amax, chk = r[0], r[0], 0, 0, 0
        for i, v in enumerate(r):
            if v < mn:
                mn, amin = v, i
            if v > mx:
                mx, amax = v, i
            chk = u32(rotl(chk, 3) ^ u32(v))
        st[10 * t: 10 * t + 10] = [
            s32(sum(r)), s32(sum(v * v for v in r)), mn, mx, amin, amax,
            sum(1 for v in r if v > 0), sum(1 for v in r if v < 0), sum(1 for v in r if v == 0), s32(chk),
        ]
    return {"st": st}


def _sorted_rows8(vals, rows):
    out = []
    for t in range(rows):
        out += sorted(vals[8 * t: 8 * t + 8])
    return out


@ref(**{"in": "s", "out": "s"})
def ref_local_sort8(a, grid, block):
    return {"out": _sorted_rows8(a["in"], block)}


@ref(**{"in": "s", "out": "s", "med": "s"})
def ref_bubble_regs8(a, grid, block):
    out = _sorted_rows8(a["in"], block)
    return {"out": out, "med": [s32(out[8 * t + 3] + out[8 * t + 4]) for t in range(block)]}


@ref(**{"in": "s", "out": "s"})
def ref_sortnet8(a, grid, block):
    return {"out": _sorted_rows8(a["in"], block)}


@ref(s="s", nums="s", words="s", chars="s", big="s")
def ref_lexer_states(a, grid, block):
    ln = _scalar(a, "len")
    nums, words, chars, big = a["nums"], a["words"], a["chars"], a["big"]
    for t in range(block):
        p = a["s"][t * ln: t * ln + ln]
        state = nn = nw = nc = cur = 0
        mx = -1
        for i in range(ln + 1):
            ch = p[i] if i < ln else 32
            if 48 <= ch <= 57:
                cls = 1
            elif 97 <= (ch | 32) <= 122:
                cls = 2
            elif ch == 0:
                cls = 3
            else:
                cls = 0
            if state == 0:
                if cls == 1:
                    state, cur, nc = 1, ch - 48, nc + 1
                elif cls == 2:
                    state, nc = 2, nc + 1
                elif cls == 3:
                    state = 3
            elif state == 1:
                if cls == 1:
                    cur = s32(cur * 10 + ch - 48)
                    nc += 1
                elif cls == 2:
                    state, nc = 2, nc + 1
                else:
                    nn += 1
                    mx = max(mx, cur)
                    state = 3 if cls == 3 else 0
                if state == 2:
                    nn += 1
                    mx = max(mx, cur)
            elif state == 2:
                if cls in (1, 2):
                    nc += 1
                else:
                    nw += 1
                    state = 3 if cls == 3 else 0
            if state == 3:
                break
        nums[t], words[t], chars[t], big[t] = nn, nw, nc, mx
    return {"nums": nums, "words": words, "chars": chars, "big": big}


@ref(m="s", x="s", hi="s", lo="u", big="s", sh="s")
def ref_i64_accum(a, grid, block):
    hi, lo, big, sh = a["hi"], a["lo"], a["big"], a["sh"]
    for t in range(block):
        acc = sum(a["m"][4 * t + k] * a["x"][k] for k in range(4))
        assert -(1 << 63) <= acc < (1 << 63)
        hi[t], lo[t] = s32(acc >> 32), u32(acc)
        big[t] = 2 if acc > 4000000000000000000 else (-1 if acc < -1000000000000 else 0)
        sh[t] = s32(acc >> 20)
    return {"hi": hi, "lo": lo, "big": big, "sh": sh}


@ref(a="s", b="s", q="s", r="s", uq="u")
def ref_i64_div_const(a, grid, block):
    q, r, uq = a["q"], a["r"], a["uq"]
    for t in range(block):
        x, y = a["a"][t], a["b"][t]
        p = x * y
        qq = abs(p) // 1000 * (1 if p >= 0 else -1)
        q[t], r[t] = s32(qq), s32(p - qq * 1000)
        uq[t] = u32(u32(x) * u32(y) // 10)
    return {"q": q, "r": r, "uq": uq}


@ref(v="s", offs="s", bal="u", gsum="s", total="s", mx="s")
def ref_mega_combo(a, grid, block):
    n = _scalar(a, "n")
    v = a["v"]
    h = [0] * 8
    mine = [0] * block
    for t in range(block):
        i = t
        while i < n:
            h[v[i] & 7] += 1
            mine[t] = s32(mine[t] + v[i])
            i += block
    offs = [sum(h[:k]) for k in range(8)]
    bal = sum(1 << t for t in range(min(8, block)) if h[t] > 2)
    gsum = [s32(sum(mine[g * 4: g * 4 + 4])) for g in range(4)]
    return {"offs": offs, "bal": [bal], "gsum": gsum, "total": [s32(a["total"][0] + sum(gsum))],
            "mx": [max([a["mx"][0]] + mine)]}


@ref(prog="s", imm="s", x="s", out="s", aux="s")
def ref_vm14(a, grid, block):
    prog, imm = a["prog"], a["imm"]
    out, aux = a["out"], a["aux"]
    for t in range(block):
        acc, b = a["x"][t], t
        pc = steps = 0
        while 0 <= pc < 12 and steps < 48:
            op, k = prog[pc], imm[pc]
            steps += 1
            pc += 1
            if op == 0:
                acc = s32(acc + k)
            elif op == 1:
                acc = s32(acc - k * b)
            elif op == 2:
                acc = s32(acc * k)
            elif op == 3:
                acc = sdiv(acc, k if k else 1)
            elif op == 4:
                acc = srem(acc, k if k else 1)
            elif op == 5:
                acc = s32(rotl(acc, k))
            elif op == 6:
                acc = max(acc, b)
            elif op == 7:
                acc = min(acc, b)
            elif op == 8:
                acc = s32(abs(acc))
            elif op == 9:
                acc, b = b, acc
            elif op == 10:
                b = s32(b + (acc & 15))
            elif op == 11:
                if acc > 0:
                    pc += k
            elif op == 12:
                if acc & 1 and steps < 30:
                    pc = k
            elif op == 13:
                b = popc(acc) + clz(b)
            else:
                pc = -1
        out[t], aux[t] = acc, s32(b * 100 + steps)
    return {"out": out, "aux": aux}


@ref(ops="s", x="s", out="s", cnt="s")
def ref_switch3_loop(a, grid, block):
    out, cnt = a["out"], a["cnt"]
    for t in range(block):
        acc = a["x"][t]
        c = [0, 0, 0]
        for i in range(6):
            op = a["ops"][6 * t + i]
            if op == 0:
                acc += 3
            elif op == 1:
                acc *= -2
            elif op == 2:
                acc ^= 0x5A
            elif op == 3:
                acc -= i * 7
            elif op == 4:
                acc >>= 1
            elif op == 5:
                acc = srem(s32(acc * acc), 1009)
            else:
                acc = ~acc
            acc = s32(acc)
            if acc < 0:
                acc += 1000
            elif acc == 0:
                acc = i
            elif acc > 5000:
                acc -= 5000
            q = acc & 3
            c[0 if q == 0 else (1 if q in (1, 2) else 2)] += 1
        out[t] = acc
        cnt[3 * t: 3 * t + 3] = c
    return {"out": out, "cnt": cnt}


@ref(data="u", nw="s", out="u")
def ref_murmur3(a, grid, block):
    out = a["out"]
    for t in range(block):
        h = 0x9747B28C ^ t
        n = a["nw"][t]
        for i in range(n):
            k = u32(a["data"][i] * 0xCC9E2D51)
            k = rotl(k, 15)
            k = u32(k * 0x1B873593)
            h ^= k
            h = rotl(h, 13)
            h = u32(h * 5 + 0xE6546B64)
        h ^= u32(n * 4)
        h ^= h >> 16
        h = u32(h * 0x85EBCA6B)
        h ^= h >> 13
        h = u32(h * 0xC2B2AE35)
        h ^= h >> 16
        out[t] = h
    return {"out": out}


@ref(**{"in": "s", "out": "s", "total": "s"})
def ref_reduce_4cta_smem16(a, grid, block):
    n = _scalar(a, "n")
    out = [s32(sum(a["in"][i] for t in range(block) for i in _stride_items(c, t, block, grid, n)))
           for c in range(grid)]
    return {"out": out, "total": [s32(a["total"][0] + sum(out))]}


@ref(**{"in": "s", "out": "s"})
def ref_scan48_smem(a, grid, block):
    out, run = [], 0
    for x in a["in"][:3 * block]:
        run = s32(run + x)
        out.append(run)
    return {"out": out}


@ref(n="s", cop="s", gs="s")
def ref_coprime_pairs(a, grid, block):
    cop, gs = a["cop"], a["gs"]
    for t in range(block):
        m = a["n"][t]
        pairs = [(i, j) for i in range(1, m + 1) for j in range(i + 1, m + 1)]
        cop[t] = sum(1 for i, j in pairs if math.gcd(i, j) == 1)
        gs[t] = sum(math.gcd(i, j) for i, j in pairs)
    return {"cop": cop, "gs": gs}


@ref(m="s", det="s", tr="s")
def ref_det3(a, grid, block):
    det, tr = a["det"], a["tr"]
    for t in range(block):
        a00, a01, a02, a10, a11, a12, a20, a21, a22 = a["m"][9 * t: 9 * t + 9]
        c00 = a11 * a22 - a12 * a21
        c01 = a12 * a20 - a10 * a22
        c02 = a10 * a21 - a11 * a20
        det[t] = s32(a00 * c00 + a01 * c01 + a02 * c02)
        tr[t] = s32((a00 + a11 + a22) * 1000 + c00)
    return {"det": det, "tr": tr}


def _det(mat):
    n = len(mat)
    if n == 1:
        return mat[0][0]
    return sum((-1) ** j * mat[0][j] * _det([row[:j] + row[j + 1:] for row in mat[1:]]) for j in range(n))


@ref(m="s", det="s")
def ref_det4(a, grid, block):
    det = a["det"]
    for t in range(block):
        e = a["m"][16 * t: 16 * t + 16]
        det[t] = s32(_det([e[4 * r: 4 * r + 4] for r in range(4)]))
    return {"det": det}


@ref(a="s", b="s", c="s", d="s", e="s", o1="s", o2="s", o3="u")
def ref_eight_ptr(a, grid, block):
    o1, o2, o3 = a["o1"], a["o2"], a["o3"]
    for t in range(block):
        x, y, z, w, v = (a[k][t] for k in "abcde")
        o1[t] = s32(x * z + y * v - (w >> 3) + max(x, -y) * min(z, v))
        o2[t] = s32(srem(w, z + 1) + (x ^ v) * (y & 0xFF) - abs(y - z))
        o3[t] = u32((u32(w) >> (v & 31)) ^ shl(u32(x + y + z), z & 7) ^ u32(v * 0x01010101))
    return {"o1": o1, "o2": o2, "o3": o3}
