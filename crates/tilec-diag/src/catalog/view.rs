//! `E07xx`: views and shapes.

use crate::codes::CodeInfo;

catalog! {}
