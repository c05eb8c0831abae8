//! `E06xx`: structured control flow (if, for, loop, break, continue, yield, return).

use crate::codes::CodeInfo;

catalog! {}
