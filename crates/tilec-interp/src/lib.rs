//! tilec's reference interpreter (`tilec run`): executes a verified module on the CPU with
//! the semantics the spec gives each op. See docs/interpreter.md for the design.
//!
//! * [`fp`]: correctly rounded floating-point arithmetic and conversions in every float
//!   element type, with rounding modes and flush-to-zero;
//! * [`npy`]: NumPy `.npy` files, the format of buffer arguments and results;
//! * [`args`]: the `--arg` syntax of `tilec run`.

pub mod args;
pub mod fp;
pub mod npy;
