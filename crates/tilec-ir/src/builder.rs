//! A builder for constructing tile IR from Rust (for frontends that embed tilec).
//!
//! ```
//! use tilec_ir::{Builder, Module, Opcode, Type, print_module, PrintOptions};
//!
//! let mut m = Module::new();
//! let mut b = Builder::new(&mut m);
//! let (_, body) = b.module("kernels");
//! b.set_end_of(body);
//! let f32_tile = b.tile_type(&[], Type::F32);
//! let (_, entry, _args) = b.entry("add_one", &[f32_tile]);
//! b.set_end_of(entry);
//! let one = b.constant_float(f32_tile, 1.0);
//! let two = b.binary(Opcode::AddF, one, one);
//! let _ = two;
//! b.ret(&[]);
//! let text = print_module(&m, &PrintOptions::default());
//! assert!(text.contains("%cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32>"));
//! assert!(text.contains("addf %cst_1_f32, %cst_1_f32  : tile<f32>"));
//! ```
//!
//! The builder creates ops through the op table: attributes are given by name and checked
//! against the op's attribute slots, operand slots are laid out as the op table says (and the
//! `operandSegmentSizes` of ops with several optional slots is filled in), and attributes
//! that the textual syntax would default (such as the rounding mode of `addf`) are set.
//! It does not verify; run the verifier on the finished module.

use crate::attrs::{
    Attr, AttrData, ComparisonOrdering, ComparisonPredicate, EnumKind, MemoryOrdering,
    RoundingMode, Signedness, dense,
};
use crate::float::{self, FloatKind};
use crate::module::{Block, InsertPoint, Module, Op, OpSpec, Value};
use crate::ops::{self, AttrKind, Opcode, Presence};
use crate::types::{Type, TypeData};

/// Builds ops at an insertion point of a module.
pub struct Builder<'m> {
    /// The module being built.
    pub module: &'m mut Module,
    at: InsertPoint,
}

/// A problem with a builder call (an attribute name the op does not have, or a value of the
/// wrong kind).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError(pub String);

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BuildError {}

impl<'m> Builder<'m> {
    /// A builder inserting at the end of the module's top-level block.
    pub fn new(module: &'m mut Module) -> Builder<'m> {
        let at = InsertPoint::End(module.body());
        Builder { module, at }
    }

    /// The current insertion point.
    pub fn insertion_point(&self) -> InsertPoint {
        self.at
    }

    /// Sets the insertion point.
    pub fn set_insertion_point(&mut self, at: InsertPoint) {
        self.at = at;
    }

    /// Inserts at the end of `block` from now on.
    pub fn set_end_of(&mut self, block: Block) {
        self.at = InsertPoint::End(block);
    }

    // ------------------------------------------------------------------ types

    /// `tile<shape x elem>` (`shape` empty for a rank-0 tile).
    pub fn tile_type(&mut self, shape: &[i64], elem: Type) -> Type {
        self.module.ctx.types.tile(shape, elem)
    }

    /// `ptr<elem>`.
    pub fn ptr_type(&mut self, elem: Type) -> Type {
        self.module.ctx.types.ptr(elem)
    }

    /// `tensor_view<shape x elem, strides=[...]>`; use [`crate::types::DYNAMIC`] for `?`.
    pub fn tensor_view_type(&mut self, elem: Type, shape: &[i64], strides: &[i64]) -> Type {
        self.module.ctx.types.intern(TypeData::TensorView {
            elem,
            shape: shape.into(),
            strides: strides.into(),
        })
    }

    /// `partition_view<tile=(...), tensor_view>` with the identity dimension map.
    pub fn partition_view_type(&mut self, tile: &[i64], tensor_view: Type) -> Type {
        self.module.ctx.types.intern(TypeData::PartitionView {
            tile: tile.into(),
            padding: None,
            tensor_view,
            dim_map: (0..tile.len() as i32).collect(),
        })
    }

    // ------------------------------------------------------------------ attributes

    /// An enum attribute.
    pub fn enum_attr(&mut self, kind: EnumKind, case: u8) -> Attr {
        self.module.ctx.attrs.enum_case(kind, case)
    }

    /// A string attribute.
    pub fn string_attr(&mut self, s: &str) -> Attr {
        self.module.ctx.attrs.string(s)
    }

    /// An integer attribute of the given integer type.
    pub fn int_attr(&mut self, v: i64, ty: Type) -> Attr {
        self.module.ctx.attrs.int(v, ty)
    }

    // ------------------------------------------------------------------ generic creation

    /// Creates an op from operand slots (one list per slot of the op table entry), result
    /// types and named attributes. Attributes the op requires and whose textual form has a
    /// default are filled in.
    pub fn create(
        &mut self,
        opcode: Opcode,
        slots: &[&[Value]],
        results: &[Type],
        attrs: &[(&str, Attr)],
        regions: usize,
    ) -> Result<Op, BuildError> {
        let def = ops::def(opcode);
        let mut slot_attrs: Vec<Option<Attr>> = vec![None; def.attrs.len()];
        let mut extra = Vec::new();
        for (name, a) in attrs {
            match def.attr_index(name) {
                Some(i) => slot_attrs[i] = Some(*a),
                None => extra.push((*name, *a)),
            }
        }
        for (i, a) in def.attrs.iter().enumerate() {
            if slot_attrs[i].is_some() {
                continue;
            }
            match (a.kind, a.presence) {
                (AttrKind::Enum(EnumKind::RoundingMode), Presence::Required) => {
                    let mode = if opcode == Opcode::FToI {
                        RoundingMode::NearestIntToZero
                    } else {
                        RoundingMode::NearestEven
                    };
                    slot_attrs[i] = Some(self.enum_attr(EnumKind::RoundingMode, mode as u8));
                }
                (AttrKind::OperandSegments, _) if def.needs_segments() => {
                    let sizes: Vec<i32> = slots.iter().map(|s| s.len() as i32).collect();
                    slot_attrs[i] = Some(
                        self.module
                            .ctx
                            .attrs
                            .intern(AttrData::DenseI32Array(sizes.into())),
                    );
                }
                _ => {}
            }
        }
        if slots.len() != def.operands.len() {
            return Err(BuildError(format!(
                "'{}' has {} operand slots, {} given",
                def.name,
                def.operands.len(),
                slots.len()
            )));
        }
        let operands: Vec<Value> = slots.iter().flat_map(|s| s.iter().copied()).collect();
        let op = self.module.create_op(
            &OpSpec {
                opcode,
                operands: &operands,
                results,
                attrs: &slot_attrs,
                regions,
            },
            self.at,
        );
        for (name, a) in extra {
            self.module.push_extra_attr(op, name, a);
        }
        Ok(op)
    }

    fn simple(
        &mut self,
        opcode: Opcode,
        operands: &[Value],
        result: Type,
        attrs: &[(&str, Attr)],
    ) -> Value {
        let def = ops::def(opcode);
        // Single-value slots: split `operands` one per slot.
        let slots: Vec<&[Value]> = (0..def.operands.len())
            .map(|i| &operands[i..i + 1])
            .collect();
        let op = self
            .create(opcode, &slots, &[result], attrs, 0)
            .unwrap_or_else(|e| unreachable!("builder helper misuse: {e}"));
        self.module.result(op, 0)
    }

    // ------------------------------------------------------------------ structure

    /// Creates `cuda_tile.module @name` with an empty body block.
    pub fn module(&mut self, name: &str) -> (Op, Block) {
        let sym = self.string_attr(name);
        let op = self.module.create_op(
            &OpSpec {
                opcode: Opcode::Module,
                operands: &[],
                results: &[],
                attrs: &[Some(sym)],
                regions: 1,
            },
            self.at,
        );
        let r = self.module.region(op, 0);
        let b = self.module.append_block(r);
        (op, b)
    }

    /// Creates `entry @name(args)` with its body block and arguments.
    pub fn entry(&mut self, name: &str, args: &[Type]) -> (Op, Block, Vec<Value>) {
        self.function(Opcode::Entry, name, args, &[])
    }

    /// Creates a function-like op (`entry` or `testing$func`).
    pub fn function(
        &mut self,
        opcode: Opcode,
        name: &str,
        args: &[Type],
        results: &[Type],
    ) -> (Op, Block, Vec<Value>) {
        let sym = self.string_attr(name);
        let fty = self.module.ctx.types.function(args, results);
        let fattr = self.module.ctx.attrs.intern(AttrData::Type(fty));
        let op = self.module.create_op(
            &OpSpec {
                opcode,
                operands: &[],
                results: &[],
                attrs: &[Some(sym), Some(fattr)],
                regions: 1,
            },
            self.at,
        );
        let r = self.module.region(op, 0);
        let b = self.module.append_block(r);
        let vals = args
            .iter()
            .map(|t| self.module.append_block_arg(b, *t))
            .collect();
        (op, b, vals)
    }

    /// Creates `global @name` initialized with a dense constant of the 1-d tile type `ty`.
    pub fn global(&mut self, name: &str, ty: Type, bits: Vec<u64>) -> Op {
        let sym = self.string_attr(name);
        let value = self.module.ctx.attrs.intern(dense(ty, bits));
        self.module.create_op(
            &OpSpec {
                opcode: Opcode::Global,
                operands: &[],
                results: &[],
                attrs: &[Some(sym), Some(value)],
                regions: 0,
            },
            self.at,
        )
    }

    // ------------------------------------------------------------------ constants

    /// A dense constant of tile type `ty` from raw element bit patterns (one per element,
    /// or one for a splat).
    pub fn constant_bits(&mut self, ty: Type, bits: Vec<u64>) -> Value {
        let value = self.module.ctx.attrs.intern(dense(ty, bits));
        let op = self.module.create_op(
            &OpSpec {
                opcode: Opcode::Constant,
                operands: &[],
                results: &[ty],
                attrs: &[Some(value)],
                regions: 0,
            },
            self.at,
        );
        self.module.result(op, 0)
    }

    /// A splat integer constant of tile type `ty`.
    pub fn constant_int(&mut self, ty: Type, v: i64) -> Value {
        let elem = self.module.ctx.types.element_type(ty);
        let bits = match self.module.ctx.types.get(elem) {
            TypeData::Int(w) if *w < 64 => (v as u64) & ((1u64 << w) - 1),
            _ => v as u64,
        };
        self.constant_bits(ty, vec![bits])
    }

    /// A splat float constant of tile type `ty`, rounded to the element type.
    pub fn constant_float(&mut self, ty: Type, v: f64) -> Value {
        let elem = self.module.ctx.types.element_type(ty);
        let kind = match self.module.ctx.types.get(elem) {
            TypeData::Float(k) => *k,
            _ => FloatKind::F64,
        };
        self.constant_bits(ty, vec![float::round_from_f64(kind, v)])
    }

    // ------------------------------------------------------------------ arithmetic

    /// A unary op whose result has the operand's type (`negf`, `exp`, `absi`, ...).
    pub fn unary(&mut self, opcode: Opcode, v: Value) -> Value {
        let t = self.module.value_type(v);
        self.simple(opcode, &[v], t, &[])
    }

    /// A binary op whose result has the operands' type (`addf`, `muli`, `andi`, ...). The
    /// rounding mode of float ops defaults to `nearest_even`.
    pub fn binary(&mut self, opcode: Opcode, lhs: Value, rhs: Value) -> Value {
        let t = self.module.value_type(lhs);
        self.simple(opcode, &[lhs, rhs], t, &[])
    }

    /// A binary integer op that takes a signedness (`divi`, `remi`, `maxi`, `mini`, `shri`).
    pub fn binary_signed(
        &mut self,
        opcode: Opcode,
        lhs: Value,
        rhs: Value,
        s: Signedness,
    ) -> Value {
        let t = self.module.value_type(lhs);
        let a = self.enum_attr(EnumKind::Signedness, s as u8);
        self.simple(opcode, &[lhs, rhs], t, &[("signedness", a)])
    }

    /// `cmpi`.
    pub fn cmpi(
        &mut self,
        pred: ComparisonPredicate,
        lhs: Value,
        rhs: Value,
        s: Signedness,
    ) -> Value {
        let t = self.module.value_type(lhs);
        let rt = self.module.ctx.types.with_element(t, Type::I1);
        let p = self.enum_attr(EnumKind::ComparisonPredicate, pred as u8);
        let sa = self.enum_attr(EnumKind::Signedness, s as u8);
        self.simple(
            Opcode::CmpI,
            &[lhs, rhs],
            rt,
            &[("comparison_predicate", p), ("signedness", sa)],
        )
    }

    /// `cmpf`.
    pub fn cmpf(
        &mut self,
        pred: ComparisonPredicate,
        ord: ComparisonOrdering,
        lhs: Value,
        rhs: Value,
    ) -> Value {
        let t = self.module.value_type(lhs);
        let rt = self.module.ctx.types.with_element(t, Type::I1);
        let p = self.enum_attr(EnumKind::ComparisonPredicate, pred as u8);
        let o = self.enum_attr(EnumKind::ComparisonOrdering, ord as u8);
        self.simple(
            Opcode::CmpF,
            &[lhs, rhs],
            rt,
            &[("comparison_predicate", p), ("comparison_ordering", o)],
        )
    }

    /// `select`.
    pub fn select(&mut self, cond: Value, a: Value, b: Value) -> Value {
        let t = self.module.value_type(a);
        self.simple(Opcode::Select, &[cond, a, b], t, &[])
    }

    /// A shape or conversion op from `v` to `result` (`reshape`, `broadcast`, `bitcast`,
    /// `ptr_to_int`, ...).
    pub fn cast(&mut self, opcode: Opcode, v: Value, result: Type) -> Value {
        self.simple(opcode, &[v], result, &[])
    }

    // ------------------------------------------------------------------ tile blocks, tokens, memory

    /// `get_tile_block_id`: the x, y, z coordinates.
    pub fn tile_block_id(&mut self) -> [Value; 3] {
        let t = self.tile_type(&[], Type::I32);
        let op = self.module.create_op(
            &OpSpec {
                opcode: Opcode::GetTileBlockId,
                operands: &[],
                results: &[t, t, t],
                attrs: &[],
                regions: 0,
            },
            self.at,
        );
        [
            self.module.result(op, 0),
            self.module.result(op, 1),
            self.module.result(op, 2),
        ]
    }

    /// `make_token`.
    pub fn make_token(&mut self) -> Value {
        self.simple(Opcode::MakeToken, &[], Type::TOKEN, &[])
    }

    /// `offset %ptrs, %offsets`.
    pub fn offset(&mut self, ptrs: Value, offsets: Value) -> Value {
        let t = self.module.value_type(ptrs);
        self.simple(Opcode::Offset, &[ptrs, offsets], t, &[])
    }

    /// `load_ptr_tko weak` with an optional mask, padding and token; returns the tile and
    /// the result token.
    pub fn load_ptr(
        &mut self,
        ptrs: Value,
        result: Type,
        mask: Option<Value>,
        padding: Option<Value>,
        token: Option<Value>,
    ) -> (Value, Value) {
        let weak = self.enum_attr(EnumKind::MemoryOrdering, MemoryOrdering::Weak as u8);
        let op = self
            .create(
                Opcode::LoadPtrTko,
                &[
                    &[ptrs],
                    mask.as_slice(),
                    padding.as_slice(),
                    token.as_slice(),
                ],
                &[result, Type::TOKEN],
                &[("memory_ordering_semantics", weak)],
                0,
            )
            .unwrap_or_else(|e| unreachable!("{e}"));
        (self.module.result(op, 0), self.module.result(op, 1))
    }

    /// `store_ptr_tko weak` with an optional mask and token; returns the result token.
    pub fn store_ptr(
        &mut self,
        ptrs: Value,
        value: Value,
        mask: Option<Value>,
        token: Option<Value>,
    ) -> Value {
        let weak = self.enum_attr(EnumKind::MemoryOrdering, MemoryOrdering::Weak as u8);
        let op = self
            .create(
                Opcode::StorePtrTko,
                &[&[ptrs], &[value], mask.as_slice(), token.as_slice()],
                &[Type::TOKEN],
                &[("memory_ordering_semantics", weak)],
                0,
            )
            .unwrap_or_else(|e| unreachable!("{e}"));
        self.module.result(op, 0)
    }

    // ------------------------------------------------------------------ control flow

    /// `return` with values.
    pub fn ret(&mut self, values: &[Value]) -> Op {
        self.create(Opcode::Return, &[values], &[], &[], 0)
            .unwrap_or_else(|e| unreachable!("{e}"))
    }

    /// `yield` with values.
    pub fn yield_(&mut self, values: &[Value]) -> Op {
        self.create(Opcode::Yield, &[values], &[], &[], 0)
            .unwrap_or_else(|e| unreachable!("{e}"))
    }

    /// `continue` with values.
    pub fn continue_(&mut self, values: &[Value]) -> Op {
        self.create(Opcode::Continue, &[values], &[], &[], 0)
            .unwrap_or_else(|e| unreachable!("{e}"))
    }

    /// `break` with values.
    pub fn break_(&mut self, values: &[Value]) -> Op {
        self.create(Opcode::Break, &[values], &[], &[], 0)
            .unwrap_or_else(|e| unreachable!("{e}"))
    }

    /// `if %cond -> (results)` with a then block and, if `with_else`, an else block.
    pub fn if_(
        &mut self,
        cond: Value,
        results: &[Type],
        with_else: bool,
    ) -> (Op, Block, Option<Block>) {
        let op = self
            .create(Opcode::If, &[&[cond]], results, &[], 2)
            .unwrap_or_else(|e| unreachable!("{e}"));
        let then_b = self.module.append_block(self.module.region(op, 0));
        let else_b = with_else.then(|| self.module.append_block(self.module.region(op, 1)));
        (op, then_b, else_b)
    }

    /// `for %iv in (lb to ub, step s) iter_values(...)`: returns the op, the body block, the
    /// induction variable and the loop-carried block arguments.
    pub fn for_(
        &mut self,
        lb: Value,
        ub: Value,
        step: Value,
        inits: &[Value],
    ) -> (Op, Block, Value, Vec<Value>) {
        let types: Vec<Type> = inits.iter().map(|v| self.module.value_type(*v)).collect();
        let op = self
            .create(Opcode::For, &[&[lb], &[ub], &[step], inits], &types, &[], 1)
            .unwrap_or_else(|e| unreachable!("{e}"));
        let body = self.module.append_block(self.module.region(op, 0));
        let iv_ty = self.module.value_type(lb);
        let iv = self.module.append_block_arg(body, iv_ty);
        let args = types
            .iter()
            .map(|t| self.module.append_block_arg(body, *t))
            .collect();
        (op, body, iv, args)
    }
}

// Silence unused-import lint for rounding-mode re-exports used only in docs of callers.
const _: fn() -> RoundingMode = || RoundingMode::NearestEven;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PrintOptions, print_module};

    #[test]
    fn builds_a_small_kernel() {
        let mut m = Module::new();
        let mut b = Builder::new(&mut m);
        let (_, body) = b.module("kernels");
        b.set_end_of(body);
        let f32p = b.ptr_type(Type::F32);
        let ptr = b.tile_type(&[], f32p);
        let i32t = b.tile_type(&[], Type::I32);
        let (_, eb, args) = b.entry("k", &[ptr, i32t]);
        b.set_end_of(eb);
        let c = b.constant_int(i32t, 4);
        let s = b.binary(Opcode::AddI, c, args[1]);
        let cond = b.cmpi(ComparisonPredicate::LessThan, s, c, Signedness::Signed);
        let (_, tb, _) = b.if_(cond, &[], false);
        b.set_end_of(tb);
        b.yield_(&[]);
        b.set_end_of(eb);
        b.ret(&[]);
        let text = print_module(&m, &PrintOptions::default());
        assert_eq!(
            text,
            "cuda_tile.module @kernels {\n  entry @k(%arg0: tile<ptr<f32>>, %arg1: tile<i32>) {\n    %cst_4_i32 = constant <i32: 4> : tile<i32>\n    %0 = addi %cst_4_i32, %arg1 : tile<i32>\n    %1 = cmpi less_than %0, %cst_4_i32, signed : tile<i32> -> tile<i1>\n    if %1 {\n    }\n    return\n  }\n}\n"
        );
    }
}
