//! `E10xx`: mmaf and mmai.

use crate::codes::CodeInfo;

catalog! {}
