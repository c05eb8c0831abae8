//! Links the `tilec` executable as a position-dependent (non-PIE) binary on Linux.
//!
//! A PIE binary has its ~16 000 pointers in static data (the op table, vtables, string
//! tables) relocated by the dynamic loader at every start, which dirties about 100 pages:
//! on the development machine that was a third of a small compilation's page faults and
//! about 0.15 ms of every run. tilec is started once per kernel by build systems and tests,
//! so start-up is part of its speed (docs/performance.md). The libraries and tests are
//! unaffected.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    // A static executable (`cargo xtask dist`, `+crt-static`) is static-pie already; adding
    // `-no-pie` to it produces an executable that crashes at start.
    let crt_static = std::env::var("CARGO_CFG_TARGET_FEATURE")
        .unwrap_or_default()
        .split(',')
        .any(|f| f == "crt-static");
    if os == "linux" && env == "gnu" && !crt_static {
        println!("cargo:rustc-link-arg-bin=tilec=-no-pie");
    }
}
