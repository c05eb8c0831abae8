//! Verifier diagnostics of the view family: every catalog entry produced exactly, in both
//! personalities, and valid near-misses that verify clean.
