//! Verifier diagnostics of the misc family: every catalog entry produced exactly, in both
//! personalities, and valid near-misses that verify clean.
