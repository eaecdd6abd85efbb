/* One-token steps of a Qwen3.5 decoder layer for the fast engine (engine/fast.py, engine/native.py).
 *
 * The same computation as FastModel's torch path for a one-token step (T = 1), operation by
 * operation and in the same order of rounding: every value the torch path holds in the model's
 * dtype is rounded to it here (R: bfloat16 round-to-nearest-even, or nothing in float32), every
 * product and sum runs in float32. It knows nothing of any particular checkpoint: the weights are
 * the compacted CSR matrices and vectors FastModel holds. Generic Qwen3.5, as modeling_qwen3_5.py
 * defines it:
 *
 *   deltanet_step:  h += out_proj(gated_norm(delta_rule(l2norm(silu(conv(in_proj(norm1(h))))))))
 *   mlp_step:       h += down(silu(gate(norm2(h))) * up(norm2(h)))
 *
 * The delta rule touches only the state rows its key (update) and query (read) address: a row
 * whose key entry is exactly 0 gets + 0 * x in the stock rule, and a zero query entry adds 0.
 * Built with -ffp-contract=off so that no product and sum are fused (torch rounds each).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct { /* compressed sparse columns: column j's entries are row[colptr[j] .. colptr[j+1]) */
    int32_t rows, cols;
    const int32_t *colptr, *row;
    const float *val;
} Csc;

typedef struct {
    int32_t bf16, hidden;
    float eps;
    const float *norm;  /* 1 + w, float32 (hidden) */
    Csc proj;           /* rows: q, k (2 nk dk), v (H dv), z (H dv), b (H), a (H) */
    int32_t K, C;       /* conv kernel; conv channels = 2 nk dk + H dv */
    const float *conv;  /* (K, C) */
    int32_t H, nk, dk, dv;
    const int64_t *key_of; /* (H): each kept value head's key head among the kept ones */
    float qdiv;         /* sqrt(the checkpoint's key head dim): q / qdiv */
    float dv_full;      /* the checkpoint's value head dim (the gated norm's mean) */
    float head_eps;     /* the gated norm's eps */
    const float *neg_rate, *dt_bias; /* (H) */
    int32_t no_decay;
    const float *norm_w; /* (dv) */
    Csc out;            /* (hidden, H dv) */
} DeltaNet;

typedef struct {
    int32_t bf16, hidden;
    float eps;
    const float *norm;  /* 1 + w (hidden) */
    Csc gate_up;        /* rows: gate of the kept neurons, then up */
    int32_t n;
    Csc down;           /* (hidden, n) */
} Mlp;

static inline float bf16_round(float x) {
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        u = 0x7fc00000u; /* NaN, as c10::BFloat16 */
    } else {
        u += 0x7fffu + ((u >> 16) & 1u);
        u &= 0xffff0000u;
    }
    memcpy(&x, &u, 4);
    return x;
}

static inline float bf16_load(uint16_t b) {
    uint32_t u = (uint32_t)b << 16;
    float x;
    memcpy(&x, &u, 4);
    return x;
}

static inline uint16_t bf16_bits(float x) { /* x already rounded */
    uint32_t u;
    memcpy(&u, &x, 4);
    return (uint16_t)(u >> 16);
}

#define R(x) (bf16 ? bf16_round(x) : (x))

/* x / (1 + exp(-x)); below -89 exp(-x) overflows to inf and the quotient is -0: said directly, as
   libm's overflow path (errno, a slow call) is most of the cost for the circuit's large gates */
static inline float silu(float x) { return x < -89.0f ? -0.0f : x / (1.0f + expf(-x)); }
/* silu(0) = 0 / (1 + 1) = 0 exactly: most channels of a sparse model are 0, and expf is the cost */
static inline float silu0(float x) { return x == 0.0f ? x : silu(x); }
static inline float sigmoid(float x) { return x < -89.0f ? 0.0f : 1.0f / (1.0f + expf(-x)); }
static inline float softplus(float x) { return x > 20.0f ? x : log1pf(expf(x)); }

/* y = R(W x), float32 sums. Columns are visited in ascending order, so every y[r] adds its terms
 * in the order of a CSR product over sorted columns (scipy's, the torch path's); a column whose x
 * is 0 is skipped: its terms are +-0, and a sum that starts at +0 never changes by adding +-0. */
static void sparse_matvec(const Csc *m, const float *x, float *y, int bf16) {
    memset(y, 0, (size_t)m->rows * sizeof(float));
    for (int32_t j = 0; j < m->cols; j++) {
        const float xj = x[j];
        if (xj == 0.0f) continue;
        for (int32_t p = m->colptr[j]; p < m->colptr[j + 1]; p++) y[m->row[p]] += m->val[p] * xj;
    }
    if (bf16)
        for (int32_t r = 0; r < m->rows; r++) y[r] = bf16_round(y[r]);
}

/* Qwen3.5's RMSNorm: R(x * rsqrt(mean(x^2) + eps) * (1 + w)). The squares are summed in 8
 * interleaved partial sums (vectorised), then those in order: another order of the same float32
 * additions, as torch's own vectorised sum has one of its own. */
static void rms_norm(const float *h, const float *scale, int32_t n, float eps, float *x, int bf16) {
    float part[8] = {0};
    int32_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int j = 0; j < 8; j++) part[j] += h[i + j] * h[i + j];
    float ss = 0.0f;
    for (int j = 0; j < 8; j++) ss += part[j];
    for (; i < n; i++) ss += h[i] * h[i];
    float r = 1.0f / sqrtf(ss / (float)n + eps);
    for (i = 0; i < n; i++) x[i] = R(h[i] * r * scale[i]);
}

/* h (B, hidden), dtype values held in float32, updated in place; state (B, H, dk, dv) float32;
 * conv (B, K - 1, C) in the model dtype (float32, or bfloat16 bits when bf16); scratch: at least
 * 2 hidden + proj.rows + 2 C + 2 H dv + 4 dv floats. */
void deltanet_step(const DeltaNet *m, float *h, int32_t B, float *state, void *conv, float *scratch) {
    const int bf16 = m->bf16;
    const int32_t n = m->hidden, C = m->C, K = m->K, H = m->H, dk = m->dk, dv = m->dv, nk = m->nk;
    float *x = scratch, *p = x + n, *mixed = p + m->proj.rows, *qk = mixed + C, *o = qk + C,
          *y = o + H * dv, *mem = y + n, *delta = mem + dv, *q = delta + dv, *k = q + dk;
    (void)nk;
    for (int32_t b = 0; b < B; b++) {
        float *hb = h + (size_t)b * n;
        float *S0 = state + (size_t)b * H * dk * dv;
        rms_norm(hb, m->norm, n, m->eps, x, bf16);
        sparse_matvec(&m->proj, x, p, bf16);
        /* causal depthwise conv over the last K - 1 inputs and this one, then silu */
        for (int32_t c = 0; c < C; c++) {
            float s = 0.0f;
            for (int32_t t = 0; t < K - 1; t++) {
                float w = bf16 ? bf16_load(((uint16_t *)conv)[((size_t)b * (K - 1) + t) * C + c])
                               : ((float *)conv)[((size_t)b * (K - 1) + t) * C + c];
                s += w * m->conv[(size_t)t * C + c];
            }
            s += p[c] * m->conv[(size_t)(K - 1) * C + c];
            mixed[c] = R(silu0(R(s)));
        }
        if (bf16) {
            uint16_t *w = (uint16_t *)conv + (size_t)b * (K - 1) * C;
            memmove(w, w + C, (size_t)(K - 2) * C * sizeof(uint16_t));
            for (int32_t c = 0; c < C; c++) w[(size_t)(K - 2) * C + c] = bf16_bits(p[c]);
        } else {
            float *w = (float *)conv + (size_t)b * (K - 1) * C;
            memmove(w, w + C, (size_t)(K - 2) * C * sizeof(float));
            memcpy(w + (size_t)(K - 2) * C, p, (size_t)C * sizeof(float));
        }
        /* q and k: l2-normalised per key head (float32) */
        const int32_t nqk = 2 * m->nk * dk;
        for (int32_t g = 0; g < 2 * m->nk; g++) {
            const float *v = mixed + (size_t)g * dk;
            float ss = 0.0f;
            for (int32_t i = 0; i < dk; i++) ss += v[i] * v[i];
            float r = 1.0f / sqrtf(ss + 1e-6f);
            for (int32_t i = 0; i < dk; i++) qk[(size_t)g * dk + i] = v[i] * r;
        }
        const float *z = p + C, *bb = z + H * dv, *aa = bb + H;
        for (int32_t hd = 0; hd < H; hd++) {
            float *S = S0 + (size_t)hd * dk * dv;
            const float *v = mixed + nqk + (size_t)hd * dv;
            const float *qh = qk + (size_t)m->key_of[hd] * dk, *kh = qk + (size_t)(m->nk + m->key_of[hd]) * dk;
            for (int32_t i = 0; i < dk; i++) {
                q[i] = qh[i] / m->qdiv;
                k[i] = kh[i];
            }
            const float beta = R(sigmoid(bb[hd]));
            if (!m->no_decay) {
                const float g = m->neg_rate[hd] * softplus(aa[hd] + m->dt_bias[hd]);
                if (g != 0.0f) { /* g = +-0: exp(g) = 1 exactly */
                    const float e = expf(g);
                    for (size_t i = 0; i < (size_t)dk * dv; i++) S[i] *= e;
                }
            }
            for (int32_t j = 0; j < dv; j++) mem[j] = 0.0f;
            for (int32_t i = 0; i < dk; i++) {
                if (k[i] == 0.0f) continue;
                const float *row = S + (size_t)i * dv;
                for (int32_t j = 0; j < dv; j++) mem[j] += k[i] * row[j];
            }
            for (int32_t j = 0; j < dv; j++) delta[j] = (v[j] - mem[j]) * beta;
            for (int32_t i = 0; i < dk; i++) {
                if (k[i] == 0.0f) continue;
                float *row = S + (size_t)i * dv;
                for (int32_t j = 0; j < dv; j++) row[j] += k[i] * delta[j];
            }
            float *oh = o + (size_t)hd * dv;
            for (int32_t j = 0; j < dv; j++) oh[j] = 0.0f;
            for (int32_t i = 0; i < dk; i++) {
                if (q[i] == 0.0f) continue;
                const float *row = S + (size_t)i * dv;
                for (int32_t j = 0; j < dv; j++) oh[j] += q[i] * row[j];
            }
            /* gated RMSNorm of the head (the mean over the checkpoint's dv) */
            float ss = 0.0f;
            for (int32_t j = 0; j < dv; j++) {
                oh[j] = R(oh[j]);
                ss += oh[j] * oh[j];
            }
            const float r = 1.0f / sqrtf(ss / m->dv_full + m->head_eps);
            const float *zh = z + (size_t)hd * dv;
            for (int32_t j = 0; j < dv; j++) oh[j] = R(R(m->norm_w[j] * R(oh[j] * r)) * silu(zh[j]));
        }
        sparse_matvec(&m->out, o, y, bf16);
        for (int32_t i = 0; i < n; i++) hb[i] = R(hb[i] + y[i]);
    }
}

/* h (B, hidden) updated in place; scratch: at least 2 hidden + 3 n floats */
void mlp_step(const Mlp *m, float *h, int32_t B, float *scratch) {
    const int bf16 = m->bf16;
    const int32_t n = m->hidden, N = m->n;
    float *x = scratch, *gu = x + n, *act = gu + 2 * N, *y = act + N;
    for (int32_t b = 0; b < B; b++) {
        float *hb = h + (size_t)b * n;
        rms_norm(hb, m->norm, n, m->eps, x, bf16);
        sparse_matvec(&m->gate_up, x, gu, bf16);
        /* an up value of 0 gives a product of +-0, which adds nothing to any down sum (that starts
           at +0): skip its silu */
        for (int32_t i = 0; i < N; i++) act[i] = gu[N + i] == 0.0f ? 0.0f : R(R(silu(gu[i])) * gu[N + i]);
        sparse_matvec(&m->down, act, y, bf16);
        for (int32_t i = 0; i < n; i++) hb[i] = R(hb[i] + y[i]);
    }
}
