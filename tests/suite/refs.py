"""Plain-Python references for the kernels in tests/suite/*.cu.

Written from the CUDA semantics (C int32 / uint32 rules, PTX definitions of
the intrinsics, shuffles and votes), not from qgpu: no project imports, only
the standard library.

``REFS[stem](args, grid, block)`` returns the final contents of EVERY pointer
parameter of the kernel (inputs included) as Python ints in the range of the
parameter's declared type (signed int32 for ``int``, 0..2**32-1 for
``unsigned``). ``args`` maps parameter names to lists (pointers) or ints
(scalars) exactly as the ``// qgpu:`` header gives them; values may be written
signed or unsigned there, so every reference normalises what it reads.

Emulation notes (all explicit, never Python's own semantics by accident):
* ``/`` and ``%`` truncate toward zero, the remainder takes the dividend's
  sign (``sdiv``/``srem``); no kernel divides by zero or INT_MIN by -1.
* ``>>`` of an int is arithmetic (Python's ``>>`` on a signed value is too);
  unsigned ``>>`` works on the u32 value. Shift amounts are always 0..31.
* Everything wraps modulo 2**32 where C would (unsigned, atomics), and
  results are stored through ``s32``/``u32`` as the C type does.
"""

from __future__ import annotations

# ruff: noqa: F403, F405
from ref_support import *  # C int32 helpers, shfl rules, make_registry
from ref_support import _scalar, _shfl_src  # noqa: F401  (underscore names: not in *)

REFS, ref = make_registry()


# ---------------------------------------------------------------------------
# basic / overflow / mul / mulhi
# ---------------------------------------------------------------------------

@ref(a="s", b="s", out="s")
def ref_idx_affine(a, grid, block):
    n = _scalar(a, "n")
    out = a["out"]
    for i in range(grid * block):
        if i < n:
            out[i] = s32(3 * a["a"][i] - a["b"][i] + i)
    return {"out": out}


@ref(a="u", b="u", s="s", d="s", p="u", q="u")
def ref_wrap_unsigned(a, grid, block):
    s, d, p, q = a["s"], a["d"], a["p"], a["q"]
    for t in range(block):
        x, y = a["a"][t], a["b"][t]
        s[t] = s32(x + y)
        d[t] = s32(y - x)
        p[t] = u32(x * y)
        q[t] = u32(x * x + 3 * y - t)
    return {"s": s, "d": d, "p": p, "q": q}


@ref(data="s", len="s", out="s")
def ref_fnv_hash(a, grid, block):
    out = a["out"]
    for t in range(block):
        h = 2166136261
        for i in range(a["len"][t]):
            h ^= u32(a["data"][(t * 3 + i) % 16])
            h = u32(h * 16777619)
        out[t] = s32(h)
    return {"out": out}


@ref(**{"in": "s", "out": "s"})
def ref_int_min_edges(a, grid, block):
    out = a["out"]
    m = INT_MIN
    for t in range(block):
        v = a["in"][t]
        o = [
            sdiv(v, 2),
            srem(v, 3),
            sar(v, 31),
            shr(v, 31),
            s32(-u32(v)),
            sdiv(v, -2),
            1 if v == m else (2 if v < 0 else 3),
            s32(u32(v) + u32(m) + u32(min(v, m + 1))),
        ]
        out[8 * t: 8 * t + 8] = o
    return {"out": out}


@ref(a="s", b="s", c="s", d="s", hi="s", uhi="u", m24="s", wide="s")
def ref_mulhi_family(a, grid, block):
    hi, uhi, m24, wide = a["hi"], a["uhi"], a["m24"], a["wide"]
    for t in range(block):
        x, y = a["a"][t], a["b"][t]
        hi[t] = mulhi(x, y)
        uhi[t] = umulhi(x, y)
        m24[t] = mul24(a["c"][t], a["d"][t])
        p = x * y  # exact 64-bit product of two int32
        wide[t] = s32(p >> 32) ^ s32(p)
    return {"hi": hi, "uhi": uhi, "m24": m24, "wide": wide}


@ref(a="s", b="s", out="s")
def ref_restrict_reverse(a, grid, block):
    n = u32(a["n"])
    out = a["out"]
    for i in range(grid * block):
        if i < n:
            j = n - 1 - i
            out[i] = s32(mul24(a["a"][i], a["b"][j]) + s32(i * j))
    return {"out": out}


@ref(a="s", b="s", sat="s", mflag="s")
def ref_overflow_detect(a, grid, block):
    sat, mflag = a["sat"], a["mflag"]
    for t in range(block):
        x, y = a["a"][t], a["b"][t]
        exact = x + y
        if exact > INT_MAX:
            sat[t] = INT_MAX
        elif exact < INT_MIN:
            sat[t] = INT_MIN
        else:
            sat[t] = exact
        mflag[t] = 0 if INT_MIN <= x * y <= INT_MAX else 1
    return {"sat": sat, "mflag": mflag}


@ref(a="s", b="s", out="s")
def ref_wide_products(a, grid, block):
    out = a["out"]
    for t in range(block):
        x, y = a["a"][t], a["b"][t]
        p = x * y
        up = u32(x) * u32(y)
        out[4 * t + 0] = s32(p >> 32)
        out[4 * t + 1] = s32(up >> 32)
        out[4 * t + 2] = s32(p >> 40)
        out[4 * t + 3] = 1 if p > 10**12 else (-1 if p < -10**12 else 0)
    return {"out": out}


# ---------------------------------------------------------------------------
# div / rem
# ---------------------------------------------------------------------------

@ref(**{"in": "s", "out": "s"})
def ref_div_neg_const(a, grid, block):
    out = a["out"]
    for t in range(block):
        x = a["in"][t]
        out[6 * t: 6 * t + 6] = [
            sdiv(x, -3), srem(x, -3), sdiv(x, -8), srem(x, 8), sdiv(x, 10),
            s32(srem(x, -7) + sdiv(x, 7)),
        ]
    return {"out": out}


@ref(**{"in": "u", "out": "u"})
def ref_div_unsigned_const(a, grid, block):
    out = a["out"]
    for t in range(block):
        x = a["in"][t]
        out[6 * t: 6 * t + 6] = [
            udiv(x, 7), urem(x, 7), udiv(x, 10), urem(x, 1000),
            u32(udiv(x, 3) + urem(x, 3)), udiv(x, 65537),
        ]
    return {"out": out}


@ref(a="s", b="s", q="s", r="s", uq="u", ur="u")
def ref_div_var_signs(a, grid, block):
    q, r, uq, ur = a["q"], a["r"], a["uq"], a["ur"]
    for t in range(block):
        x, y = a["a"][t], a["b"][t]
        q[t] = sdiv(x, y)
        r[t] = srem(x, y)
        uq[t] = udiv(x, y)
        ur[t] = urem(x, y)
    return {"q": q, "r": r, "uq": uq, "ur": ur}


@ref(base="u", expo="u", mod="u", sv="s", out="u", pm="s")
def ref_modpow(a, grid, block):
    out, pm = a["out"], a["pm"]
    for t in range(block):
        m = a["mod"][t]
        b = urem(a["base"][t], m)
        e = a["expo"][t]
        r = urem(1, m)
        while e:
            if e & 1:
                r = urem(u32(r * b), m)
            b = urem(u32(b * b), m)
            e >>= 1
        out[t] = r
        mi = s32(m)
        pm[t] = srem(s32(srem(a["sv"][t], mi) + mi), mi)
    return {"out": out, "pm": pm}


# ---------------------------------------------------------------------------
# bits
# ---------------------------------------------------------------------------

@ref(x="u", y="u", k="s", rl="u", rr="u", fl="u", fr="u", fc="u")
def ref_rotate_var(a, grid, block):
    rl, rr, fl, fr, fc = a["rl"], a["rr"], a["fl"], a["fr"], a["fc"]
    for t in range(block):
        x, y, s = a["x"][t], a["y"][t], u32(a["k"][t])
        rl[t] = rotl(x, s)
        rr[t] = rotr(x, s) ^ y
        fl[t] = funnel_l(x, y, s + 32 * t, clamp=False)
        fr[t] = funnel_r(x, y, s + 64, clamp=False)
        fc[t] = u32(funnel_l(x, y, s * 3, clamp=True) + funnel_r(y, x, s + 20, clamp=True))
    return {"rl": rl, "rr": rr, "fl": fl, "fr": fr, "fc": fc}


@ref(v="s", k="s", sar="s", shr="u", shl="s", rt="s")
def ref_shift_var(a, grid, block):
    o_sar, o_shr, o_shl, o_rt = a["sar"], a["shr"], a["shl"], a["rt"]
    for t in range(block):
        x, s = a["v"][t], a["k"][t]
        o_sar[t] = sar(x, s)
        o_shr[t] = shr(x, s)
        o_shl[t] = s32(shl(x, s))
        back = shl(sar(x, s), s)
        if s32(back) == x:
            o_rt[t] = sar(x, s)
        else:
            o_rt[t] = s32(shr(shl(x, 31 - s), 31 - s))
    return {"sar": o_sar, "shr": o_shr, "shl": o_shl, "rt": o_rt}


@ref(**{"in": "u", "m": "u", "out": "u"})
def ref_bit_tricks(a, grid, block):
    out = a["out"]
    for t in range(block):
        x, y = a["in"][t], a["m"][t]
        g = x ^ (x >> 1)
        # inverse Gray code: prefix xor of all higher bits
        b, v = 0, g
        while v:
            b ^= v
            v >>= 1
        out[6 * t: 6 * t + 6] = [
            x & u32(-x),
            x & u32(x - 1),
            g,
            b,
            1 if (x != 0 and x & (x - 1) == 0) else 0,
            u32(((x | y) ^ (x & y)) + (u32(~x) & y) - (x & u32(~y))),
        ]
    return {"out": out}


@ref(**{"in": "u", "out": "s"})
def ref_bitcount_intrin(a, grid, block):
    out = a["out"]
    for t in range(block):
        x = a["in"][t]
        o5 = s32(1 << (32 - clz(x - 1))) if 1 < x <= 0x80000000 else s32(x)
        out[7 * t: 7 * t + 7] = [
            popc(x), clz(x), ffs(x), s32(brev(x)),
            31 - clz(x) if x else -1,
            o5,
            popc(x ^ brev(x)) + ffs(brev(x)),
        ]
    return {"out": out}


@ref(x="u", y="u", sel="u", out="u")
def ref_byte_perm(a, grid, block):
    out = a["out"]
    for t in range(block):
        x, y = a["x"][t], a["y"][t]
        out[5 * t: 5 * t + 5] = [
            prmt(x, 0, 0x0123), prmt(x, y, 0x5410), prmt(x, y, 0x7632),
            prmt(x, y, 0x6240), prmt(x, y, a["sel"][t]),
        ]
    return {"out": out}


@ref(**{"in": "u", "out": "s"})
def ref_byte_fields(a, grid, block):
    out = a["out"]
    for t in range(block):
        w = a["in"][t]
        bs = [(w >> (8 * k)) & 0xFF for k in range(4)]
        rev = (bs[0] << 24) | (bs[1] << 16) | (bs[2] << 8) | bs[3]
        out[6 * t: 6 * t + 6] = [
            sum(bs),
            sum(sext(b, 8) for b in bs),
            s32(rev),
            sext(w & 0xFFFF, 16),
            sext(w >> 16, 16) + (w & 0xFFFF),
            (w >> 12) & 0xFF,
        ]
    return {"out": out}


@ref(**{"in": "u", "cnt": "s", "top": "s", "ok": "s"})
def ref_kernighan_loop(a, grid, block):
    cnt, top, ok = a["cnt"], a["top"], a["ok"]
    for t in range(block):
        x = a["in"][t]
        cnt[t] = popc(x)
        top[t] = x.bit_length() - 1
        ok[t] = 1
    return {"cnt": cnt, "top": top, "ok": ok}


@ref(seed="u", rounds="s", out="u")
def ref_hash_helpers(a, grid, block):
    def fmix32(h):
        h ^= h >> 16
        h = u32(h * 0x85EBCA6B)
        h ^= h >> 13
        h = u32(h * 0xC2B2AE35)
        h ^= h >> 16
        return h

    def xorshift32(x):
        x ^= u32(x << 13)
        x ^= x >> 17
        x ^= u32(x << 5)
        return x

    out = a["out"]
    for t in range(block):
        s = a["seed"][t]
        f = fmix32(s)
        x = s | 1
        for _ in range(a["rounds"][t]):
            x = xorshift32(x)
        comb = u32(f ^ u32(x + 0x9E3779B9 + u32(f << 6) + (f >> 2)))
        out[3 * t: 3 * t + 3] = [f, x, comb]
    return {"out": out}


# ---------------------------------------------------------------------------
# unsigned compare, min/max/abs, select
# ---------------------------------------------------------------------------

@ref(u="u", s="s", out="u")
def ref_unsigned_cmp_mix(a, grid, block):
    out = a["out"]
    for t in range(block):
        ua, b = a["u"][t], a["s"][t]
        ub = u32(b)
        conds = [
            ua < 5,
            s32(ua) < 5,
            ub > ua,
            b > s32(ua),
            ua >= 0x80000000,
            u32(ua - 1) > ua,
            ub < ua,  # int < unsigned: the int converts to unsigned
            ub <= 0x7FFFFFFF,
            u32(ua + ub) < ua,
        ]
        out[t] = sum(1 << i for i, c in enumerate(conds) if c)
    return {"out": out}


@ref(a="s", b="s", lo="s", hi="s", so="s", uo="u")
def ref_minmax_abs(a, grid, block):
    so, uo = a["so"], a["uo"]
    for t in range(block):
        x, y = a["a"][t], a["b"][t]
        ux, uy = u32(x), u32(y)
        so[3 * t + 0] = s32(sdiv(min(x, y), 2) - sdiv(max(x, y), 4))
        so[3 * t + 1] = s32(sdiv(abs(x), 3) + srem(abs(y), 1000))
        so[3 * t + 2] = min(max(x, a["lo"][t]), a["hi"][t])
        uo[3 * t + 0] = min(ux, uy)
        uo[3 * t + 1] = u32(max(ux, uy) - min(ux, 7))
        usad = abs(ux - uy) + 1
        sad = abs(sar(x, 8) - sar(y, 8)) + 3
        uo[3 * t + 2] = u32(usad + sad)
    return {"so": so, "uo": uo}


@ref(**{"in": "s", "k": "s", "out": "s"})
def ref_select_compound(a, grid, block):
    n = _scalar(a, "n")
    inp, out = a["in"], a["out"]
    for i in range(block):
        c = a["k"][i]
        r = 0
        if (i < n and inp[i] > 0) or c == 6:
            r = 100
        if not (c > 2) and i < n and inp[i] != 0:
            r += -1 if inp[i] < 0 else 1
        if c & 1:
            sel = 3 if c & 2 else 1
        else:
            sel = 4 if c > 4 else 0
        out[2 * i] = r
        out[2 * i + 1] = s32((inp[i] if i < n else 1000) * sel + (c if 3 <= c <= 5 else -c))
    return {"out": out}


@ref(m="s", amax="s", amin="s")
def ref_argmax_ties(a, grid, block):
    amax, amin = a["amax"], a["amin"]
    for row in range(grid * block):
        r = a["m"][4 * row: 4 * row + 4]
        bv = max(r)
        bi = r.index(bv)
        amax[row] = s32(bi * 1000 + (bv & 0xFF))
        amin[row] = r.index(min(r))
    return {"amax": amax, "amin": amin}


# ---------------------------------------------------------------------------
# divergence and loops
# ---------------------------------------------------------------------------

@ref(op="s", v="s", out="s")
def ref_switch_fall(a, grid, block):
    out = a["out"]
    for t in range(block):
        acc, o = a["v"][t], a["op"][t]
        if o in (0, 1):
            if o == 0:
                acc += 1
            acc *= 3
        elif o in (2, 3):
            if o == 2:
                acc -= 7
            acc ^= 0x55
        elif o in (4, 5, 6):
            if o in (4, 5):
                acc = s32(shl(acc, 2))
            acc += 1000
        elif o == 7:
            acc = -acc
        else:
            acc = 1000 * o + acc
        out[t] = s32(acc)
    return {"out": out}


@ref(sel="s", x="s", out="s")
def ref_switch_dense(a, grid, block):
    def pick(s, x):
        table = {
            0: lambda: x + 1, 1: lambda: x * 7, 2: lambda: x - 100, 3: lambda: x * x,
            4: lambda: sar(x, 1), 5: lambda: x ^ 0xFF, 6: lambda: ~x, 7: lambda: sdiv(x, 5),
            8: lambda: srem(x, 5), 9: lambda: -x * 3,
        }
        return table.get(s, lambda: 42)()

    out = a["out"]
    for t in range(block):
        out[t] = s32(pick(a["sel"][t], a["x"][t]))
    return {"out": out}


@ref(**{"in": "s", "out": "s"})
def ref_nested_diverge(a, grid, block):
    out = a["out"]
    for t in range(block):
        x = a["in"][t]
        if x > 0:
            if x & 1:
                r = x * 2 if x > 10 else x + 1000
            else:
                r = x - t if t < 8 else s32(shl(x, 3))
        elif x < 0:
            if x < -40:
                r = -x if t & 1 else sdiv(x, 3)
            else:
                r = x * x if (t & 3) == 1 else x - 1
        else:
            r = -999
        out[t] = s32(r + t)
    return {"out": out}


@ref(**{"in": "s", "out": "s", "trace": "s"})
def ref_early_exit(a, grid, block):
    out, trace = a["out"], a["trace"]
    for t in range(block):
        x = a["in"][t]
        if x == 0:
            continue
        trace[t] = 1
        if x < 0:
            trace[t] = 2
            if x < -10:
                continue
            out[t] = -x
            continue
        acc = 0
        done = False
        for i in range(x):
            acc += i * t
            if acc > 50:
                out[t] = acc
                trace[t] = 3
                done = True
                break
        if not done:
            out[t] = acc + 10000
    return {"out": out, "trace": trace}


@ref(u="u", nd="s", rev="u", ds="s")
def ref_digits_dowhile(a, grid, block):
    nd, rev, ds = a["nd"], a["rev"], a["ds"]
    for t in range(block):
        v = a["u"][t]
        digits = str(v)
        nd[t] = len(digits)
        r = 0
        for ch in reversed(digits):
            r = u32(r * 10 + int(ch))
        rev[t] = r
        ds[t] = sum(int(ch) for ch in digits)
    return {"nd": nd, "rev": rev, "ds": ds}


@ref(**{"in": "u", "root": "u", "iters": "s"})
def ref_isqrt_while(a, grid, block):
    root, iters = a["root"], a["iters"]
    for t in range(block):
        x = a["in"][t]
        lo, hi, it = 0, 65536, 0
        while hi - lo > 1:
            mid = (lo + hi) >> 1
            it += 1
            sq = mid * mid  # < 2**32 for mid <= 65535
            if sq == x:
                lo = mid
                break
            if sq < x:
                lo = mid
            else:
                hi = mid
        root[t] = lo
        iters[t] = it
    return {"root": root, "iters": iters}


@ref(data="s", out="s")
def ref_nested_continue(a, grid, block):
    n = _scalar(a, "n")
    data, out = a["data"], a["out"]
    for t in range(block):
        acc = 0
        for i in range(n):
            if i % 3 == t % 3:
                continue
            for j in range(i, n):
                if (i + j) & 1:
                    continue
                if j > i + t:
                    break
                acc += data[j] * (i + 1)
        out[t] = s32(acc)
    return {"out": out}


@ref(A="s", x="s", y="s", z="s")
def ref_tri_matvec(a, grid, block):
    n = _scalar(a, "n")
    A, x, y, z = a["A"], a["x"], a["y"], a["z"]
    for i in range(block):
        if i >= n:
            continue
        y[i] = s32(sum(A[i * n + j] * x[j] for j in range(i + 1)))
        w = 0
        for j in range(n - 1, i - 1, -1):
            w = s32(w * 3 + A[j * n + i])
        z[i] = w
    return {"y": y, "z": z}


# ---------------------------------------------------------------------------
# shared memory and barriers
# ---------------------------------------------------------------------------

@ref(**{"in": "s", "sum": "s", "mx": "s", "pre": "s"})
def ref_smem_tree16(a, grid, block):
    v = a["in"][:block]
    ssum, smax = list(v), list(v)
    s = block // 2
    while s > 0:
        for t in range(s):
            ssum[t] = s32(ssum[t] + ssum[t + s])
            smax[t] = max(smax[t], smax[t + s])
        s >>= 1
    pre = [s32(ssum[t & 1] - v[t]) for t in range(block)]
    return {"sum": [ssum[0]], "mx": [smax[0]], "pre": pre}


@ref(**{"in": "s", "part": "s", "total": "u"})
def ref_smem_reduce_2cta(a, grid, block):
    part, total = a["part"], a["total"][0]
    for c in range(grid):
        vals = a["in"][c * block:(c + 1) * block]
        ssum = u32(sum(vals))
        x = 0
        for v in vals:
            x ^= v
        part[3 * c: 3 * c + 3] = [s32(ssum), min(vals), x]
        total = u32(total + ssum)
    return {"part": part, "total": [total]}


@ref(**{"in": "s", "out": "s"})
def ref_smem_stencil13(a, grid, block):
    n = block
    inp = a["in"]
    buf = [0] * (n + 2)
    for t in range(n):
        buf[t + 1] = inp[t] * (-1 if t % 3 == 1 else 1)
    buf[0] = inp[n - 1]
    buf[n + 1] = inp[0]
    return {"out": [s32(buf[t] + 2 * buf[t + 1] + buf[t + 2]) for t in range(n)]}


@ref(**{"in": "s", "out": "s"})
def ref_smem_jacobi(a, grid, block):
    n = block
    s = list(a["in"][:n])
    for k in range(_scalar(a, "iters")):
        new = [sdiv(s[(t + n - 1) % n] + s[t] + s[(t + 1) % n], 3) for t in range(n)]
        s = [v + k for v in new]
    return {"out": s}


@ref(**{"in": "s", "out": "s"})
def ref_barrier_scan_exit(a, grid, block):
    n = _scalar(a, "n")
    out = a["out"]
    acc = 0
    for t in range(min(n, block)):
        acc = s32(acc + a["in"][t])
        out[t] = acc
    return {"out": out}


@ref(**{"in": "s", "out": "s"})
def ref_smem_transpose(a, grid, block):
    inp = a["in"]
    tile = [[inp[4 * r + c] * inp[4 * r + c] for c in range(4)] for r in range(4)]
    out = []
    for t in range(16):
        r, c = t // 4, t % 4
        out.append(s32(tile[c][r] - tile[r][c] + (1000 if r == c else 0)))
    return {"out": out}


@ref(**{"in": "s", "out": "s"})
def ref_sync_votes(a, grid, block):
    out = a["out"]
    for c in range(grid):
        vals = a["in"][c * block:(c + 1) * block]
        cnt = sum(1 for v in vals if v > 2)
        all_nz = all(v != 0 for v in vals)
        any_small = any(v < -10 for v in vals)
        for t, v in enumerate(vals):
            out[c * block + t] = s32(cnt * 100 + (10 if all_nz else 0) + (1 if any_small else 0) + v * 1000)
    return {"out": out}


@ref(**{"in": "s", "rev": "s", "nb": "s", "cnt": "s"})
def ref_partial9_shared(a, grid, block):
    n = block
    s = a["in"][:n]
    return {
        "rev": [s[n - 1 - t] for t in range(n)],
        "nb": [s32(s[(t + 2) % n] - s[(t + n - 3) % n]) for t in range(n)],
        "cnt": [sum(t + 1 for t in range(n))],
    }


@ref(**{"in": "s", "out": "s", "ids": "s", "total": "s", "best": "s"})
def ref_multi_cta_scan(a, grid, block):
    out, ids = a["out"], a["ids"]
    total, best = a["total"][0], a["best"][0]
    for c in range(grid):
        acc = 0
        for t in range(block):
            gi = c * block + t
            acc = s32(acc + a["in"][gi])
            out[gi] = acc
            ids[gi] = c * 100 + grid * 10 + block
        total = s32(total + acc)
        best = max(best, acc)
    return {"out": out, "ids": ids, "total": [total], "best": [best]}


# ---------------------------------------------------------------------------
# atomics
# ---------------------------------------------------------------------------

@ref(ctr="s", sumold="s", maxold="s", slot="s", hits="u")
def ref_atomic_tickets(a, grid, block):
    step = 3
    n = grid * block
    olds = [a["ctr"][0] + step * j for j in range(n)]  # in some order; all used symmetrically
    slot = a["slot"]
    hits = a["hits"]
    for old in olds:
        slot[sdiv(old, step)] = 1
        hits[srem(old, 2)] = u32(hits[srem(old, 2)] + 1)
    return {
        "ctr": [s32(a["ctr"][0] + step * n)],
        "sumold": [s32(a["sumold"][0] + sum(olds))],
        "maxold": [max([a["maxold"][0]] + olds)],
        "slot": slot,
        "hits": hits,
    }


@ref(**{"in": "s", "smm": "s", "umm": "u", "cmax": "s", "orx": "u"})
def ref_atomic_minmax_global(a, grid, block):
    smm, umm, cmax, orx = a["smm"], a["umm"], a["cmax"], a["orx"]
    for i in range(grid * block):
        v = a["in"][i]
        smm[0] = min(smm[0], v)
        smm[1] = max(smm[1], v)
        umm[0] = min(umm[0], u32(v))
        umm[1] = max(umm[1], u32(v))
        cmax[i // block] = max(cmax[i // block], v)
        orx[0] |= 1 << (i & 31)
        orx[1] ^= u32(v)
        orx[2] &= 0xFFFFFFFF if i == 0 else (u32(v) | 0x10000)
    return {"smm": smm, "umm": umm, "cmax": cmax, "orx": orx}


@ref(**{"in": "s", "out": "s"})
def ref_atomic_shared_ops(a, grid, block):
    out = a["out"]
    for c in range(grid):
        vals = a["in"][c * block:(c + 1) * block]
        s_or, s_and, s_xor, s_inc = 0, 0xFFFFFFFF, 0, 0
        for v in vals:
            s_or |= u32(v)
            s_and &= u32(v)
            s_xor ^= u32(u32(v) * 2654435761)
            s_inc = 0 if s_inc >= 100 else s_inc + 1
        out[7 * c: 7 * c + 7] = [
            s32(sum(vals)),
            max([-2147483647] + vals),
            min([2147483647] + vals),
            s32(s_or), s32(s_and), s32(s_xor), s32(s_inc),
        ]
    return {"out": out}


@ref(f="u", prod="u", cta="u")
def ref_atomic_cas_mul(a, grid, block):
    prod = a["prod"][0]
    cta = a["cta"]
    for c in range(grid):
        sp = 1
        for t in range(block):
            v = a["f"][c * block + t]
            prod = u32(prod * v)
            sp = u32(sp * u32(v + 1))
        cta[c] = sp
    return {"prod": [prod], "cta": cta}


@ref(a="s", sum="s", negs="u", iters="s")
def ref_grid_stride_atomic(a, grid, block):
    n = _scalar(a, "n")
    arr = a["a"]
    nthreads = grid * block
    iters = a["iters"]
    total = a["sum"][0]
    negs = a["negs"][0]
    for tid in range(nthreads):
        k = 0
        for i in range(tid, n, nthreads):
            v = arr[i]
            total = s32(total + v)
            negs = u32(negs + (1 if v < 0 else 0))
            arr[i] = s32(v * 2 - i)
            k += 1
        iters[tid] = k
    return {"a": arr, "sum": [total], "negs": [negs], "iters": iters}


@ref(x="u")
def ref_grid_stride_rot(a, grid, block):
    n = _scalar(a, "n")
    x = a["x"]
    for i in range(n):
        x[i] = rotl(x[i], i % 31 + 1) ^ i
    return {"x": x}


# ---------------------------------------------------------------------------
# shuffles and votes (groups of 4 threads = laneid // 4)
# ---------------------------------------------------------------------------

def _groups(n_threads: int):
    """Thread index ranges of the 4-thread groups of a CTA of n_threads."""
    return [list(range(b, min(b + 4, n_threads))) for b in range(0, n_threads, 4)]


@ref(**{"in": "s", "out": "s"})
def ref_shfl_xor_groups(a, grid, block):
    out = a["out"]
    for g in _groups(block):
        vals = [a["in"][t] for t in g]
        x = 0
        for v in vals:
            x ^= v
        for t in g:
            out[4 * t: 4 * t + 4] = [s32(sum(vals)), max(vals), min(vals), x]
    return {"out": out}


@ref(**{"in": "s", "out": "s", "tot": "s"})
def ref_shfl_scan_block(a, grid, block):
    out, tot = a["out"], a["tot"]
    acc = 0
    for t in range(block):
        acc = s32(acc + a["in"][t])
        out[t] = acc
    for gi, g in enumerate(_groups(block)):
        tot[gi] = s32(sum(a["in"][t] for t in g))
    return {"out": out, "tot": tot}


@ref(v="s", src="s", out="s")
def ref_shfl_idx_var(a, grid, block):
    out = a["out"]
    for g in _groups(block):
        x = {t: a["v"][t] for t in g}
        av = {t: shfl(x, "idx", t, a["src"][t], 4) for t in g}
        xb = {t: s32(x[t] * 2 + t) for t in g}
        bv = {t: shfl(xb, "idx", t, (t * 3 + 1) & 3, 4) for t in g}
        ab = {t: s32(av[t] + bv[t]) for t in g}
        cv = {t: shfl(ab, "idx", t, 3 - (t & 3), 4) for t in g}
        for t in g:
            out[3 * t: 3 * t + 3] = [av[t], bv[t], cv[t]]
    return {"out": out}


@ref(v="s", out="s")
def ref_shfl_updown_edges(a, grid, block):
    out = a["out"]
    for c in range(grid):
        x = {t: a["v"][c * block + t] for t in range(block)}  # laneid = threadIdx.x
        for t in range(block):
            i = c * block + t
            out[6 * i: 6 * i + 6] = [
                shfl(x, "up", t, 1, 4),
                shfl(x, "up", t, 3, 4),
                shfl(x, "down", t, 2, 4),
                shfl(x, "down", t, 0, 4),
                s32(shfl(x, "down", t, 5, 4) + shfl(x, "up", t, 5, 4)),
                s32(shfl(x, "down", t, 1, 2) * 1000 + shfl(x, "up", t, 1, 2)),
            ]
    return {"out": out}


@ref(**{"in": "s", "packed": "s", "cnt": "s", "bal": "u"})
def ref_ballot_compact(a, grid, block):
    packed, cnt, bal = a["packed"], a["cnt"], a["bal"]
    for c in range(grid):
        for g in _groups(block):
            gis = [c * block + t for t in g]
            ballot = sum(1 << (t % 32) for t, gi in zip(g, gis) if a["in"][gi] > 0)
            pos = 0
            for t, gi in zip(g, gis):
                bal[gi] = ballot
                if a["in"][gi] > 0:
                    packed[(gi & ~3) + pos] = a["in"][gi]
                    pos += 1
            cnt[gis[0] >> 2] = popc(ballot)
    return {"packed": packed, "cnt": cnt, "bal": bal}


@ref(**{"in": "s", "out": "s"})
def ref_vote_divergent(a, grid, block):
    out = a["out"]
    for g in _groups(block):
        vals = [a["in"][t] for t in g]
        any_neg = any(v < 0 for v in vals)
        all_pos = all(v > 0 for v in vals)
        all_nz = all(v != 0 for v in vals)
        odd_ballot = sum(1 << t for t in g if t & 1 and a["in"][t] != 0)
        for t in g:
            out[3 * t: 3 * t + 3] = [
                1 if any_neg else 0,
                (1 if all_pos else 0) + 2 * (1 if all_nz else 0),
                odd_ballot if t & 1 else -1,
            ]
    return {"out": out}


@ref(**{"in": "s", "out": "s"})
def ref_partial5_votes(a, grid, block):
    out = a["out"]
    for c in range(grid):
        for g in _groups(block):
            gis = [c * block + t for t in g]
            vals = [a["in"][gi] for gi in gis]
            ballot = sum(1 << t for t, v in zip(g, vals) if v > 0)
            any_neg = 1 if any(v < 0 for v in vals) else 0
            for t, gi, v in zip(g, gis, vals):
                s = s32(sum(vals)) if len(g) == 4 else v
                out[3 * gi: 3 * gi + 3] = [s32(ballot), any_neg * 10 + len(g), s]
    return {"out": out}


@ref(**{"in": "s", "total": "s", "best": "s", "groups": "s"})
def ref_warp_reduce_atomic(a, grid, block):
    groups = a["groups"]
    total, best = a["total"][0], a["best"][0]
    for c in range(grid):
        for g in _groups(block):
            gis = [c * block + t for t in g]
            s = s32(sum(a["in"][gi] for gi in gis))
            total = s32(total + s)
            best = max(best, s)
            groups[gis[0] // 4] = s
    return {"total": [total], "best": [best], "groups": groups}


# ---------------------------------------------------------------------------
# loops as a test-writer writes them (no unroll pragmas: nvcc unrolls by 4)
# ---------------------------------------------------------------------------

@ref(a="s", b="s", out="s", cnt="s")
def ref_grid_stride_dot(a, grid, block):
    n = _scalar(a, "n")
    nthreads = grid * block
    out = s32(a["out"][0] + sum(a["a"][i] * a["b"][i] for i in range(n)))
    cnt = a["cnt"]
    for tid in range(nthreads):
        cnt[tid] = len(range(tid, n, nthreads))
    return {"out": [out], "cnt": cnt}


@ref(x="s", y="s")
def ref_grid_stride_saxpy(a, grid, block):
    n, alpha, lim = _scalar(a, "n"), _scalar(a, "alpha"), _scalar(a, "lim")
    y = a["y"]
    for i in range(n):
        v = s32(alpha * a["x"][i] + y[i])
        y[i] = lim if v > lim else (-lim if v < -lim else v)
    return {"y": y}


@ref(start="s", len="s", v="s", sums="s", wsum="s", rmax="s")
def ref_row_sums(a, grid, block):
    sums, wsum, rmax = a["sums"], a["wsum"], a["rmax"]
    for t in range(block):
        row = a["v"][a["start"][t]: a["start"][t] + a["len"][t]]
        sums[t] = s32(sum(row))
        wsum[t] = s32(sum((j + 1) * x for j, x in enumerate(row)))
        rmax[t] = max([INT_MIN] + row)
    return {"sums": sums, "wsum": wsum, "rmax": rmax}


@ref(**{"in": "s", "out": "s"})
def ref_single_thread_sort(a, grid, block):
    n = _scalar(a, "n")
    out = a["out"]
    out[:n] = sorted(a["in"][:n])
    return {"out": out}


@ref(v="s", target="s", pairs="s", below="s")
def ref_count_matches(a, grid, block):
    n = _scalar(a, "n")
    v = a["v"]
    pairs, below = a["pairs"], a["below"]
    for t in range(block):
        tg = a["target"][t]
        lo, hi = t // 2, n - (t % 3)
        below[t] = sum(1 for i in range(lo, hi) if v[i] < tg)
        pairs[t] = sum(1 for i in range(lo, hi) for j in range(i + 1, hi) if v[i] + v[j] == tg)
    return {"pairs": pairs, "below": below}


@ref(A="s", B="s", C="s")
def ref_matmul_rt(a, grid, block):
    n = _scalar(a, "n")
    A, B, C = a["A"], a["B"], a["C"]
    for t in range(block):
        r, c = t // n, t % n
        if r < n:
            C[r * n + c] = s32(sum(A[r * n + k] * B[k * n + c] for k in range(n)))
    return {"C": C}


@ref(**{"in": "s", "out": "s", "tiles": "s"})
def ref_tiled_sum_loop(a, grid, block):
    n = _scalar(a, "n")
    vals = a["in"][:n]
    rounds = len(range(0, n, block))
    return {
        "out": [s32(sum(vals)), max([-2147483647] + vals)],
        "tiles": [rounds * 10 + t for t in range(block)],
    }


@ref(v="s", hist="u")
def ref_smem_hist_stride(a, grid, block):
    n = _scalar(a, "n")
    hist = a["hist"]
    for i in range(n):
        hist[a["v"][i] & 7] = u32(hist[a["v"][i] & 7] + 1)
    return {"hist": hist}
