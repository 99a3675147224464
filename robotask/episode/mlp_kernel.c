/* One AdamW step of the MLP's input block, LayerNorm(d) -> Linear(d, h), in a single pass over memory.
 *
 * Compiled on first use by robotask/episode/mlp_kernel.py; the arithmetic is explained in mlp_input.py.
 * Inputs: the weights W (h x d, row-major), G = delta^T x_hat (h x d), s = sum of the rows of delta (h),
 * the LayerNorm's gamma and beta (d), and the AdamW moments of W, gamma and beta. In place: W, gamma, beta
 * and their moments. Out: F = W' (.) gamma' (h x d) and acc (h x LANES), whose lanes sum to W' beta'.
 * Gradients (at the old parameters): dW = G (.) gamma + s beta^T, dgamma = sum_k W_k (.) G_k,
 * dbeta = W^T s. AdamW per parameter p with gradient g:
 *   p <- p (1 - lr wd);  m <- m + (1 - b1)(g - m);  v <- b2 v + (1 - b2) g^2;
 *   p <- p - (lr / (1 - b1^t)) m / (sqrt(v) / sqrt(1 - b2^t) + eps).
 * Columns are taken in blocks: the first sweep of a block sums dgamma and dbeta, the second (from cache)
 * updates W. Every lane does the same IEEE operations in a fixed order (no reassociation, no contraction
 * into fused multiply-adds), so the vector width the CPU offers does not change a bit of the result.
 */
#include <math.h>
#include <stdint.h>

#define BLOCK 256
#define LANES 16

typedef struct {
    float decay, beta1, beta2, step_size, bc2_sqrt, eps;
} adamw_t;

static inline float adamw(float p, float g, float *m, float *v, const adamw_t *a) {
    float mm = *m + (1.0f - a->beta1) * (g - *m);
    float vv = *v * a->beta2 + (1.0f - a->beta2) * (g * g);
    *m = mm;
    *v = vv;
    return p * a->decay - a->step_size * mm / (sqrtf(vv) / a->bc2_sqrt + a->eps);
}

#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__)  /* ifunc: GNU/Linux only */
#define VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define VECTOR_CLONES /* other CPUs: the compiler's default vector unit */
#endif

VECTOR_CLONES
void input_block_step(int64_t h, int64_t d, float *restrict W, const float *restrict G, float *restrict M,
                      float *restrict V, float *restrict F, float *restrict gamma, float *restrict beta,
                      float *restrict m_gamma, float *restrict v_gamma, float *restrict m_beta,
                      float *restrict v_beta, const float *restrict s, float *restrict acc,
                      float decay, float beta1, float beta2, float step_size, float bc2_sqrt, float eps) {
    const adamw_t a = {decay, beta1, beta2, step_size, bc2_sqrt, eps};
    float dgamma[BLOCK], dbeta[BLOCK], gamma0[BLOCK], beta0[BLOCK], wb[BLOCK];
    for (int64_t i = 0; i < h * LANES; i++) acc[i] = 0.0f;
    for (int64_t j0 = 0; j0 < d; j0 += BLOCK) {
        const int64_t n = d - j0 < BLOCK ? d - j0 : BLOCK;
        for (int64_t j = 0; j < n; j++) dgamma[j] = dbeta[j] = 0.0f;
        for (int64_t k = 0; k < h; k++) {
            const float *w = W + k * d + j0, *g = G + k * d + j0, sk = s[k];
            for (int64_t j = 0; j < n; j++) {
                dgamma[j] += w[j] * g[j];
                dbeta[j] += w[j] * sk;
            }
        }
        for (int64_t j = 0; j < n; j++) {
            const int64_t c = j0 + j;
            gamma0[j] = gamma[c];
            beta0[j] = beta[c];
            gamma[c] = adamw(gamma0[j], dgamma[j], m_gamma + c, v_gamma + c, &a);
            beta[c] = adamw(beta0[j], dbeta[j], m_beta + c, v_beta + c, &a);
        }
        for (int64_t k = 0; k < h; k++) {
            const int64_t row = k * d + j0;
            const float *g = G + row, sk = s[k];
            float *w = W + row, *m = M + row, *v = V + row, *f = F + row, *lane = acc + k * LANES;
            for (int64_t j = 0; j < n; j++) {
                const float p = adamw(w[j], g[j] * gamma0[j] + sk * beta0[j], m + j, v + j, &a);
                w[j] = p;
                f[j] = p * gamma[j0 + j];
                wb[j] = p * beta[j0 + j];
            }
            int64_t j = 0;
            for (; j + LANES <= n; j += LANES)
                for (int l = 0; l < LANES; l++) lane[l] += wb[j + l];
            for (int l = 0; j + l < n; l++) lane[l] += wb[j + l];
        }
    }
}
