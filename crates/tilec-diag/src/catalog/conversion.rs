//! `E04xx`: conversions (exti, trunci, ftof, itof, ftoi, bitcast, ptr casts).

use crate::codes::CodeInfo;

catalog! {}
