//! tilec's reference interpreter (`tilec run`): executes a verified module on the CPU with
//! the semantics the spec gives each op. See docs/interpreter.md for the design.
//!
//! * [`exec`]: the grid, regions and control flow, and op dispatch ([`run`]);
//! * `elementwise`, `shape`, `memory`, `print`: the ops' semantics;
//! * [`fp`]: correctly rounded floating-point arithmetic and conversions in every float
//!   element type, with rounding modes and flush-to-zero;
//! * [`mem`]: global memory, with every access checked;
//! * [`npy`]: NumPy `.npy` files, the format of buffer arguments and results;
//! * [`args`]: the `--arg` syntax of `tilec run`.

pub mod args;
mod elementwise;
pub mod exec;
pub mod fp;
pub mod mem;
mod memory;
pub mod npy;
mod print;
mod shape;
pub mod value;

pub use exec::{
    Arg, Called, Options, Order, Outcome, RunError, Variant, call, call_limited, run, run_with,
    run_with_progress,
};
pub use mem::Memory;
