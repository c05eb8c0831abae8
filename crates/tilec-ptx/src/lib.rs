//! tilec's PTX backend. See docs/ptx-backend.md for the design.

mod axis;
mod emit;
pub mod layout;
pub mod math;
pub mod sink;
pub mod target;

pub use emit::{compile, compile_all};
pub use target::{Arch, Options};
