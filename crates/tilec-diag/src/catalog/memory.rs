//! `E05xx`: token-ordered memory and atomics.

use crate::codes::CodeInfo;

catalog! {}
