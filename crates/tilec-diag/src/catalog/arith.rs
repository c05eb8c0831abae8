//! `E03xx`: float and integer arithmetic.

use crate::codes::CodeInfo;

catalog! {}
