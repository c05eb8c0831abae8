//! # tilec-ir: the tile IR
//!
//! This crate defines the in-memory form of NVIDIA CUDA Tile IR (the `cuda_tile` dialect)
//! that every part of tilec works on: types, attributes, the op table, the SSA IR itself,
//! a printer and a builder.
//!
//! ## Structure
//!
//! A [`Module`] is one compilation unit (one file, or one `// -----` chunk of a split
//! file). It owns a [`Context`] (interned [`types`] and [`attrs`]) and arenas of ops, values,
//! blocks and regions. Its top-level block holds the top-level ops: normally
//! `cuda_tile.module` ops, whose single region holds items (`global`, `entry`, and the
//! `testing$func` functions of NVIDIA's tests); files produced by NVIDIA's disassembler put
//! `entry` ops directly at the top level, and that is accepted too.
//!
//! Items contain regions; a region is a list of blocks (tile IR uses exactly one block per
//! region, the verifier checks); a block has arguments and a list of ops; an op has operands,
//! results, attributes and regions.
//!
//! ## SSA rules
//!
//! Every [`Value`] is defined exactly once, by an op result or a block argument, and has a
//! [`Type`]. A value defined in a region is visible in that region after its definition and
//! in regions nested inside it, unless a region belongs to an op that is isolated from above
//! (`entry`, `module`, functions), which sees nothing from outside. Terminators (`yield`,
//! `continue`, `break`, `return`) end blocks and pass values to the enclosing op. Memory
//! operations are ordered only by the tokens that connect them (`*_tko` ops take an
//! optional token and produce one); no pass may reorder, duplicate or drop a token-ordered
//! operation.
//!
//! ## Who checks what
//!
//! The parser guarantees a structurally sound module: names resolve, types are consistent
//! between uses and definitions, every op is in the op table (or explicitly unregistered),
//! and operand, result and region counts fit the op's syntax. Everything else — type
//! constraints, dominance, terminators, domain rules — is the verifier's job.
//!
//! ## The op table
//!
//! [`ops`] holds one declarative entry per operation: names and aliases, operand, result,
//! attribute and region slots, traits, memory effects, family, and the textual syntax as an
//! assembly format. The parser, printer, verifier, canonicalizer and lowering all read it.
//!
//! ## Spans
//!
//! Source spans live in side tables of the module (per op, per value, per attribute), never
//! in the op data; see [`Module::op_span`].

#![warn(missing_docs)]

pub mod attrs;
pub mod builder;
pub mod float;
pub mod module;
pub mod ops;
pub mod print;
pub mod segments;
pub mod trivia;
pub mod types;
pub mod util;

pub use attrs::{Attr, AttrData, AttrStore, EnumKind};
pub use builder::Builder;
pub use module::{Block, Context, InsertPoint, Module, Op, OpSpec, Region, Use, Value, ValueDef};
pub use ops::{OpDef, Opcode};
pub use print::{PrintOptions, print_module, print_module_to, print_op};
pub use types::{Swizzle, Type, TypeData, TypeStore};
