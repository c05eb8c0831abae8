//! Numeric constants of the math library.
//!
//! Generated with exact rational arithmetic (Python `fractions`, Machin's formula for π with
//! 1600 fraction bits, `decimal` logarithms at 120 digits): each `[u64; n]` is the bit patterns
//! of an unevaluated sum of `n` doubles, hi first, each rounded to nearest from the remaining
//! exact value. `TWO_OVER_PI_BITS` is 64 zero bits followed by the first 1216 fraction bits of
//! 2/π, as big-endian 64-bit words (the Payne-Hanek table).

pub(crate) const LN2: [u64; 2] = [0x3fe62e42fefa39ef, 0x3c7abc9e3b39803f];
pub(crate) const LOG2_E: [u64; 2] = [0x3ff71547652b82fe, 0x3c7777d0ffda0d24];
pub(crate) const LOG10_E: [u64; 2] = [0x3fdbcb7b1526e50e, 0x3c695355baaafad3];
pub(crate) const LOG10_2: [u64; 2] = [0x3fd34413509f79ff, 0xbc49dc1da994fd21];
/// 1/12 and 1/80, the first two coefficients of `ln(1+f) = u + u^3/12 + u^5/80 + ...`.
pub(crate) const ONE_12: [u64; 2] = [0x3fb5555555555555, 0x3c55555555555555];
pub(crate) const ONE_80: [u64; 2] = [0x3f8999999999999a, 0xbc2999999999999a];
pub(crate) const PI: [u64; 2] = [0x400921fb54442d18, 0x3ca1a62633145c07];
pub(crate) const PI_2: [u64; 3] = [0x3ff921fb54442d18, 0x3c91a62633145c07, 0xb91f1976b7ed8fbc];
pub(crate) const PI_4: [u64; 2] = [0x3fe921fb54442d18, 0x3c81a62633145c07];
pub(crate) const TWO_OVER_PI: [u64; 2] = [0x3fe45f306dc9c883, 0xbc86b01ec5417056];
pub(crate) const TWO_OVER_PI_BITS: [u64; 20] = [
    0x0000000000000000,
    0xa2f9836e4e441529,
    0xfc2757d1f534ddc0,
    0xdb6295993c439041,
    0xfe5163abdebbc561,
    0xb7246e3a424dd2e0,
    0x06492eea09d1921c,
    0xfe1deb1cb129a73e,
    0xe88235f52ebb4484,
    0xe99c7026b45f7e41,
    0x3991d639835339f4,
    0x9c845f8bbdf9283b,
    0x1ff897ffde05980f,
    0xef2f118b5a0a6d1f,
    0x6d367ecf27cb09b7,
    0x4f463f669e5fea2d,
    0x7527bac7ebe5f17b,
    0x3d0739f78a5292ea,
    0x6bfb5fb11f8d5d08,
    0x56033046fc7b6bab,
];
