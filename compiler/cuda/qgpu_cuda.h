/*
 * qgpu_cuda.h -- minimal, self-contained CUDA device header for clang.
 *
 * qgpu compiles kernels with clang's NVPTX backend when nvcc is absent:
 *
 *   clang-14 -x cuda --cuda-device-only -nocudainc -nocudalib \
 *            --cuda-gpu-arch=sm_70 -Xclang -target-feature -Xclang +ptx70 \
 *            -O3 -S -include compiler/cuda/qgpu_cuda.h kernel.cu -o kernel.ptx
 *
 * With -nocudainc clang does not pull in its CUDA wrapper headers (which need
 * a CUDA SDK, and which clang 14 cannot use with CUDA 13), so this file
 * supplies the small subset of the CUDA device API that integer kernels use.
 * Everything maps onto clang's NVPTX builtins or generic clang builtins that
 * the NVPTX backend lowers to single PTX instructions; nothing needs
 * libdevice (-nocudalib).
 *
 * Integer (int / unsigned) kernels only: no float/double math, no printf,
 * no textures, no cooperative groups, no 64-bit atomics or shuffles.
 *
 * It includes no other header. Under nvcc, or if clang's real CUDA wrapper
 * was already included, it is a no-op.
 */
#ifndef QGPU_CUDA_H
#define QGPU_CUDA_H

#if !defined(__NVCC__) && !defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__)

/* ---------------------------------------------------------------------------
 * Execution-space and memory-space qualifiers.
 * ------------------------------------------------------------------------ */
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
/* __restrict__ is a clang keyword already; nothing to define. */

#define __QGPU_DEV static __device__ __forceinline__

/* ---------------------------------------------------------------------------
 * Built-in variables: threadIdx, blockIdx, blockDim, gridDim, warpSize.
 *
 * Same technique as clang's __clang_cuda_builtin_vars.h: each field is a
 * __declspec(property) whose getter reads a PTX special register, so
 * `threadIdx.x` compiles to `mov.u32 %r, %tid.x`.
 * ------------------------------------------------------------------------ */
struct uint3 {
  unsigned int x, y, z;
};

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ __forceinline__ constexpr dim3(unsigned int vx = 1,
                                                     unsigned int vy = 1,
                                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ __forceinline__ constexpr dim3(uint3 v)
      : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ __forceinline__ constexpr operator uint3() const {
    return {x, y, z};
  }
};

#define __QGPU_SREG(FIELD, READ)                                               \
  __declspec(property(get = __get_##FIELD)) unsigned int FIELD;                \
  static __device__ __forceinline__ unsigned int __get_##FIELD(void) {        \
    return READ();                                                             \
  }

#define __QGPU_BUILTIN_VAR(TYPE, VAR, REG)                                     \
  struct TYPE {                                                                \
    __QGPU_SREG(x, __nvvm_read_ptx_sreg_##REG##_x)                             \
    __QGPU_SREG(y, __nvvm_read_ptx_sreg_##REG##_y)                             \
    __QGPU_SREG(z, __nvvm_read_ptx_sreg_##REG##_z)                             \
    __device__ __forceinline__ operator uint3() const { return {x, y, z}; }    \
    __device__ __forceinline__ operator dim3() const { return dim3(x, y, z); } \
  };                                                                           \
  extern const __device__ TYPE VAR;

__QGPU_BUILTIN_VAR(__qgpu_threadIdx_t, threadIdx, tid)
__QGPU_BUILTIN_VAR(__qgpu_blockIdx_t, blockIdx, ctaid)
__QGPU_BUILTIN_VAR(__qgpu_blockDim_t, blockDim, ntid)
__QGPU_BUILTIN_VAR(__qgpu_gridDim_t, gridDim, nctaid)

#undef __QGPU_BUILTIN_VAR
#undef __QGPU_SREG

/* A compile-time constant, as in clang's and nvcc's headers. */
__device__ const int warpSize = 32;

/* ---------------------------------------------------------------------------
 * Synchronisation and memory fences.
 * ------------------------------------------------------------------------ */
/* Barriers are inline asm with a "memory" clobber, not clang's builtins: clang
 * 14 lets loads of a kernel's own __shared__ arrays move across
 * __nvvm_bar_sync / llvm.nvvm.barrier0 (the arrays' addresses never escape, so
 * its alias analysis decides the intrinsic cannot touch them) and then reads
 * stale values written by other threads. The clobber forbids that.
 * The _count/_and/_or forms are bar.red.{popc,and,or}, as nvcc emits them. */
#define __syncthreads() asm volatile("bar.sync 0;" ::: "memory")
__QGPU_DEV int __syncthreads_count(int p) {
  int r;
  asm volatile("{ .reg .pred %%qp; setp.ne.u32 %%qp, %1, 0; bar.red.popc.u32 %0, 0, %%qp; }"
               : "=r"(r) : "r"(p) : "memory");
  return r;
}
__QGPU_DEV int __syncthreads_and(int p) {
  int r;
  asm volatile("{ .reg .pred %%qp, %%qr; setp.ne.u32 %%qp, %1, 0; bar.red.and.pred %%qr, 0, %%qp; "
               "selp.u32 %0, 1, 0, %%qr; }" : "=r"(r) : "r"(p) : "memory");
  return r;
}
__QGPU_DEV int __syncthreads_or(int p) {
  int r;
  asm volatile("{ .reg .pred %%qp, %%qr; setp.ne.u32 %%qp, %1, 0; bar.red.or.pred %%qr, 0, %%qp; "
               "selp.u32 %0, 1, 0, %%qr; }" : "=r"(r) : "r"(p) : "memory");
  return r;
}
__QGPU_DEV void __syncwarp(unsigned int mask = 0xffffffffu) {
  asm volatile("bar.warp.sync %0;" :: "r"(mask) : "memory");
}
__QGPU_DEV void __threadfence_block(void) { __nvvm_membar_cta(); }
__QGPU_DEV void __threadfence(void) { __nvvm_membar_gl(); }
__QGPU_DEV void __threadfence_system(void) { __nvvm_membar_sys(); }

/* ---------------------------------------------------------------------------
 * Atomics on int and unsigned, relaxed, like CUDA's. The builtins take
 * generic pointers; after inlining, LLVM's address-space inference turns them
 * into atom.global.* / atom.shared.* where it can prove the space (kernel
 * pointer params, __shared__ arrays), else they stay generic atom.*.
 * LLVM 14 does not infer spaces for the inc/dec builtins: atomicInc/Dec are
 * always generic atom.inc/atom.dec.
 * ------------------------------------------------------------------------ */
#define __QGPU_IP(p) ((volatile int *)(p))

__QGPU_DEV int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
__QGPU_DEV unsigned int atomicAdd(unsigned int *p, unsigned int v) {
  return (unsigned int)__nvvm_atom_add_gen_i(__QGPU_IP(p), (int)v);
}
/* nvcc lowers atomicSub to neg + atom.add; do the same (clang's own
 * atom_sub builtin emits a nested {.reg ...} block). */
__QGPU_DEV int atomicSub(int *p, int v) { return __nvvm_atom_add_gen_i(p, -v); }
__QGPU_DEV unsigned int atomicSub(unsigned int *p, unsigned int v) {
  return (unsigned int)__nvvm_atom_add_gen_i(__QGPU_IP(p), -(int)v);
}
__QGPU_DEV int atomicExch(int *p, int v) {
  return __nvvm_atom_xchg_gen_i(p, v);
}
__QGPU_DEV unsigned int atomicExch(unsigned int *p, unsigned int v) {
  return (unsigned int)__nvvm_atom_xchg_gen_i(__QGPU_IP(p), (int)v);
}
__QGPU_DEV int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
__QGPU_DEV unsigned int atomicMax(unsigned int *p, unsigned int v) {
  return __nvvm_atom_max_gen_ui(p, v);
}
__QGPU_DEV int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
__QGPU_DEV unsigned int atomicMin(unsigned int *p, unsigned int v) {
  return __nvvm_atom_min_gen_ui(p, v);
}
__QGPU_DEV int atomicAnd(int *p, int v) { return __nvvm_atom_and_gen_i(p, v); }
__QGPU_DEV unsigned int atomicAnd(unsigned int *p, unsigned int v) {
  return (unsigned int)__nvvm_atom_and_gen_i(__QGPU_IP(p), (int)v);
}
__QGPU_DEV int atomicOr(int *p, int v) { return __nvvm_atom_or_gen_i(p, v); }
__QGPU_DEV unsigned int atomicOr(unsigned int *p, unsigned int v) {
  return (unsigned int)__nvvm_atom_or_gen_i(__QGPU_IP(p), (int)v);
}
__QGPU_DEV int atomicXor(int *p, int v) { return __nvvm_atom_xor_gen_i(p, v); }
__QGPU_DEV unsigned int atomicXor(unsigned int *p, unsigned int v) {
  return (unsigned int)__nvvm_atom_xor_gen_i(__QGPU_IP(p), (int)v);
}
__QGPU_DEV int atomicCAS(int *p, int cmp, int v) {
  return __nvvm_atom_cas_gen_i(p, cmp, v);
}
__QGPU_DEV unsigned int atomicCAS(unsigned int *p, unsigned int cmp,
                                  unsigned int v) {
  return (unsigned int)__nvvm_atom_cas_gen_i(__QGPU_IP(p), (int)cmp, (int)v);
}
/* atomicInc/atomicDec: wrap-around counters, unsigned only (as in CUDA). */
__QGPU_DEV unsigned int atomicInc(unsigned int *p, unsigned int v) {
  return __nvvm_atom_inc_gen_ui(p, v);
}
__QGPU_DEV unsigned int atomicDec(unsigned int *p, unsigned int v) {
  return __nvvm_atom_dec_gen_ui(p, v);
}

#undef __QGPU_IP

/* ---------------------------------------------------------------------------
 * Warp shuffles. The c operand is built exactly as in CUDA's
 * sm_30_intrinsics.hpp:  up: (32-width)<<8,  idx/down/xor: ((32-width)<<8)|0x1f
 * ------------------------------------------------------------------------ */
#define __QGPU_SHFL(NAME, BUILTIN, LANE_T, CLAMP)                              \
  __QGPU_DEV int NAME(unsigned int mask, int var, LANE_T lane,                 \
                      int width = warpSize) {                                  \
    return BUILTIN(mask, var, (int)lane, ((warpSize - width) << 8) | (CLAMP)); \
  }                                                                            \
  __QGPU_DEV unsigned int NAME(unsigned int mask, unsigned int var,            \
                               LANE_T lane, int width = warpSize) {            \
    return (unsigned int)NAME(mask, (int)var, lane, width);                    \
  }

__QGPU_SHFL(__shfl_sync, __nvvm_shfl_sync_idx_i32, int, 0x1f)
__QGPU_SHFL(__shfl_up_sync, __nvvm_shfl_sync_up_i32, unsigned int, 0)
__QGPU_SHFL(__shfl_down_sync, __nvvm_shfl_sync_down_i32, unsigned int, 0x1f)
__QGPU_SHFL(__shfl_xor_sync, __nvvm_shfl_sync_bfly_i32, int, 0x1f)

#undef __QGPU_SHFL

/* ---------------------------------------------------------------------------
 * Warp votes.
 * ------------------------------------------------------------------------ */
__QGPU_DEV int __all_sync(unsigned int mask, int p) {
  return __nvvm_vote_all_sync(mask, p);
}
__QGPU_DEV int __any_sync(unsigned int mask, int p) {
  return __nvvm_vote_any_sync(mask, p);
}
__QGPU_DEV int __uni_sync(unsigned int mask, int p) {
  return __nvvm_vote_uni_sync(mask, p);
}
__QGPU_DEV unsigned int __ballot_sync(unsigned int mask, int p) {
  return __nvvm_vote_ballot_sync(mask, p);
}
__QGPU_DEV unsigned int __activemask(void) {
  unsigned int m;
  asm volatile("activemask.b32 %0;" : "=r"(m));
  return m;
}
/* %laneid, handy for warp-level code (not in CUDA's public API). */
__QGPU_DEV unsigned int __qgpu_laneid(void) {
  return (unsigned int)__nvvm_read_ptx_sreg_laneid();
}

/* ---------------------------------------------------------------------------
 * Integer intrinsics.
 * ------------------------------------------------------------------------ */
__QGPU_DEV int __popc(unsigned int x) { return __builtin_popcount(x); }
/* clz.b32 returns 32 for 0; the select keeps clang from treating 0 as UB. */
__QGPU_DEV int __clz(int x) {
  return x == 0 ? 32 : __builtin_clz((unsigned int)x);
}
__QGPU_DEV unsigned int __brev(unsigned int x) {
  return __builtin_bitreverse32(x);
}
/* 1-based index of the least significant set bit; 0 if x == 0. */
__QGPU_DEV int __ffs(int x) { return __builtin_ffs(x); }
__QGPU_DEV int __mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
__QGPU_DEV unsigned int __umulhi(unsigned int a, unsigned int b) {
  return __nvvm_mulhi_ui(a, b);
}
__QGPU_DEV int __mul24(int a, int b) { return __nvvm_mul24_i(a, b); }
__QGPU_DEV unsigned int __umul24(unsigned int a, unsigned int b) {
  return __nvvm_mul24_ui(a, b);
}
/* |a - b| + c */
/* Halving adds without overflow: floor((a+b)/2) and floor((a+b+1)/2). */
__QGPU_DEV int __hadd(int a, int b) { return (a >> 1) + (b >> 1) + (a & b & 1); }
__QGPU_DEV int __rhadd(int a, int b) { return (a >> 1) + (b >> 1) + ((a | b) & 1); }
__QGPU_DEV unsigned int __uhadd(unsigned int a, unsigned int b) {
  return (a >> 1) + (b >> 1) + (a & b & 1u);
}
__QGPU_DEV unsigned int __urhadd(unsigned int a, unsigned int b) {
  return (a >> 1) + (b >> 1) + ((a | b) & 1u);
}
__QGPU_DEV unsigned int __sad(int a, int b, unsigned int c) {
  return (unsigned int)__nvvm_sad_i(a, b, (int)c);
}
__QGPU_DEV unsigned int __usad(unsigned int a, unsigned int b,
                               unsigned int c) {
  return __nvvm_sad_ui(a, b, c);
}
__QGPU_DEV unsigned int __byte_perm(unsigned int a, unsigned int b,
                                    unsigned int s) {
  /* CUDA uses only bits 2:0 of each selector nibble (nvcc masks with 0x7777) */
  return (unsigned int)__nvvm_prmt((int)a, (int)b, (int)(s & 0x7777u)); /* prmt.b32 */
}
/* Funnel shifts: (hi:lo) shifted, 32 bits returned. _l/_r wrap the shift
 * amount mod 32, _lc/_rc clamp it to 32 (all -> shf.{l,r}.{wrap,clamp}.b32). */
__QGPU_DEV unsigned int __funnelshift_l(unsigned int lo, unsigned int hi,
                                        unsigned int s) {
  unsigned int r;
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
  return r;
}
__QGPU_DEV unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi,
                                         unsigned int s) {
  unsigned int r;
  asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
  return r;
}
__QGPU_DEV unsigned int __funnelshift_r(unsigned int lo, unsigned int hi,
                                        unsigned int s) {
  unsigned int r;
  asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
  return r;
}
__QGPU_DEV unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi,
                                         unsigned int s) {
  unsigned int r;
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
  return r;
}

/* Read-only cached loads (ld.global.nc). */
__QGPU_DEV int __ldg(const int *p) { return __nvvm_ldg_i(p); }
__QGPU_DEV unsigned int __ldg(const unsigned int *p) {
  return __nvvm_ldg_ui(p);
}

/* ---------------------------------------------------------------------------
 * min / max / abs. Mixed int/unsigned arguments compare as unsigned, like
 * CUDA's math_functions.hpp.
 * ------------------------------------------------------------------------ */
__QGPU_DEV int min(int a, int b) { return a < b ? a : b; }
__QGPU_DEV int max(int a, int b) { return a > b ? a : b; }
__QGPU_DEV unsigned int umin(unsigned int a, unsigned int b) {
  return a < b ? a : b;
}
__QGPU_DEV unsigned int umax(unsigned int a, unsigned int b) {
  return a > b ? a : b;
}
#define __QGPU_MINMAX(T1, T2)                                                  \
  __QGPU_DEV unsigned int min(T1 a, T2 b) {                                    \
    return umin((unsigned int)a, (unsigned int)b);                             \
  }                                                                            \
  __QGPU_DEV unsigned int max(T1 a, T2 b) {                                    \
    return umax((unsigned int)a, (unsigned int)b);                             \
  }
__QGPU_MINMAX(unsigned int, unsigned int)
__QGPU_MINMAX(int, unsigned int)
__QGPU_MINMAX(unsigned int, int)
#undef __QGPU_MINMAX
/* Negate in unsigned so abs(INT_MIN) == INT_MIN (abs.s32), not UB. */
__QGPU_DEV int abs(int a) {
  return (int)(a < 0 ? 0u - (unsigned int)a : (unsigned int)a);
}

#undef __QGPU_DEV

#endif /* !__NVCC__ && !__CLANG_CUDA_RUNTIME_WRAPPER_H__ */
#endif /* QGPU_CUDA_H */
