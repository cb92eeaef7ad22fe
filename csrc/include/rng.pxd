# xoshiro256** seeded by splitmix64: the kernels' random numbers (inline
# header, cimported at compile time only).  Deterministic per 64-bit seed.
from libc.stdint cimport uint64_t


cdef struct Rng:
    uint64_t s[4]


cdef inline uint64_t _splitmix(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9e3779b97f4a7c15
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xbf58476d1ce4e5b9
    z = (z ^ (z >> 27)) * <uint64_t>0x94d049bb133111eb
    return z ^ (z >> 31)


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    cdef uint64_t x = seed
    r.s[0] = _splitmix(&x)
    r.s[1] = _splitmix(&x)
    r.s[2] = _splitmix(&x)
    r.s[3] = _splitmix(&x)


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    cdef uint64_t result = _rotl(r.s[1] * 5, 7) * 9
    cdef uint64_t t = r.s[1] << 17
    r.s[2] ^= r.s[0]
    r.s[3] ^= r.s[1]
    r.s[1] ^= r.s[2]
    r.s[0] ^= r.s[3]
    r.s[2] ^= t
    r.s[3] = _rotl(r.s[3], 45)
    return result


cdef inline double rng_double(Rng* r) noexcept nogil:
    """Uniform in [0, 1)."""
    return (rng_next(r) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int rng_below(Rng* r, int n) noexcept nogil:
    """Uniform in 0..n-1 (n >= 1; the bias for n < 2**16 is below 1e-14)."""
    return <int>((rng_next(r) >> 33) % <uint64_t>n)
