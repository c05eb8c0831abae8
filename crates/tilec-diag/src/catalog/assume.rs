//! `E11xx`: assume predicates.

use crate::codes::CodeInfo;

catalog! {}
