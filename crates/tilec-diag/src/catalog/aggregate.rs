//! `E08xx`: reduce and scan.

use crate::codes::CodeInfo;

catalog! {}
