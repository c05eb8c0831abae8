//! The GPU harness (crates/tilec-gpu) without a GPU: marshalling, tolerance and the
//! whole check path over the PTX simulator.
