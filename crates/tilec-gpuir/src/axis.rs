//! Axis information: what is provable about the integer and pointer tiles of a kernel,
//! per dimension, so that memory accesses can be vectorised.
//!
//! For each integer or pointer tile value and each dimension `d` (a rank-0 tile counts as
//! one dimension of size 1), [`AxisInfo`] records three powers of two:
//!
//! * `contig[d]`: the values form runs of `contig[d]` consecutive values along `d` (each
//!   next element is the previous one plus 1; for pointers, plus one pointee element). Runs
//!   start at positions that are multiples of `contig[d]`; all other coordinates are fixed.
//! * `div[d]`: every element at a position along `d` that is a multiple of `contig[d]`
//!   (the first element of each run) is divisible by `div[d]` (pointers: the address in
//!   bytes).
//! * `cons[d]`: the values are equal over runs of `cons[d]` positions along `d` (aligned
//!   the same way).
//!
//! Integers are taken modulo 2^width: runs of consecutive values may wrap, which is why a
//! widening (`exti`, or `offset` with narrow offsets) keeps only runs that cannot cross a
//! wrap-around point. Divisibility by powers of two survives wrap-around and truncation.
//!
//! It also records whether every element is non-negative (tile block ids, `iota`,
//! `assume bounded<0, ...>`, zero extension, and additions and products of non-negative
//! values that promise no signed wrap-around): view accesses skip the negative-index check
//! for such indices.
//!
//! For tensor and partition views, [`ViewInfo`] records the divisibility of the base
//! address (bytes), of every dimension's size and of every stride (elements).
//!
//! The facts come from constants, `iota`, `assume` (`div_by` with or without
//! `every N along D`, `same_elements`; `div_by` on a tensor view bounds its base address)
//! and flow through `addi`, `subi`, `muli`, `shli`, `offset`, `broadcast`, `reshape`,
//! `permute`, `extract`, `exti`/`trunci`, comparisons, bitwise ops, `select` and the
//! induction variable of `for`. Anything else is unknown: divisibility 1 (for pointers, the
//! pointee size, which every valid address has), runs of 1. The analysis is one forward
//! walk over the kernel body, nested regions included.

use crate::sizes::elem_bytes;
use tilec_ir::attrs::{AttrData, ComparisonPredicate};
use tilec_ir::segments::operand_group;
use tilec_ir::types::DYNAMIC;
use tilec_ir::util::FxHashMap;
use tilec_ir::{Block, EnumKind, Module, Op, Opcode, Type, TypeData, Value};

/// The largest divisibility tracked (the value 0 is divisible by everything).
pub const MAX_DIV: u64 = 1 << 62;

/// The largest power of two dividing `v` (capped at [`MAX_DIV`]; 0 gives the cap).
pub fn lowbit(v: i64) -> u64 {
    if v == 0 {
        MAX_DIV
    } else {
        (1u64 << v.trailing_zeros()).min(MAX_DIV)
    }
}

fn mul_div(a: u64, b: u64) -> u64 {
    a.saturating_mul(b).min(MAX_DIV)
}

/// What is known about one integer or pointer tile. See the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AxisInfo {
    pub div: Vec<u64>,
    pub contig: Vec<u64>,
    pub cons: Vec<u64>,
    /// The value of every element, when they are all equal and known.
    pub value: Option<i64>,
    /// The step between consecutive elements of a run: 1 for integers, the pointee size
    /// for pointers.
    pub unit: u64,
    /// Every element is non-negative (as a signed integer).
    pub nonneg: bool,
}

impl AxisInfo {
    /// Nothing known, for a tile of `shape` whose elements are all divisible by `base`.
    fn unknown(rank: usize, base: u64) -> AxisInfo {
        AxisInfo {
            div: vec![base; rank],
            contig: vec![1; rank],
            cons: vec![1; rank],
            value: None,
            unit: 1,
            nonneg: false,
        }
    }

    /// Every element equal to `v`.
    fn splat(shape: &[i64], v: i64) -> AxisInfo {
        AxisInfo {
            div: vec![lowbit(v); shape.len()],
            contig: vec![1; shape.len()],
            cons: shape.iter().map(|s| *s as u64).collect(),
            value: Some(v),
            unit: 1,
            nonneg: v >= 0,
        }
    }

    /// Divisibility of the elements at positions along `d` that are multiples of `g`.
    pub fn first_div(&self, d: usize, g: u64) -> u64 {
        if g >= self.contig[d] {
            self.div[d]
        } else {
            self.div[d].min(g.saturating_mul(self.unit))
        }
    }

    /// Divisibility of every element.
    pub fn elem_div(&self) -> u64 {
        (0..self.div.len())
            .map(|d| self.first_div(d, 1))
            .max()
            .unwrap_or(1)
    }

    fn rank(&self) -> usize {
        self.div.len()
    }
}

/// What is known about a tensor view (and the partition views over it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewInfo {
    /// Divisibility of the base address, in bytes.
    pub base_div: u64,
    /// Divisibility of each dimension's size.
    pub shape_div: Vec<u64>,
    /// Divisibility of each stride, in elements.
    pub stride_div: Vec<u64>,
}

/// The result of the analysis for one kernel.
#[derive(Default)]
pub struct Axis {
    tiles: FxHashMap<Value, AxisInfo>,
    views: FxHashMap<Value, ViewInfo>,
}

/// The shape of a tile value, rank-0 tiles as `[1]`.
fn shape_of(m: &Module, v: Value) -> Vec<i64> {
    let s = m.ctx.types.shape(m.value_type(v));
    if s.is_empty() { vec![1] } else { s.to_vec() }
}

fn elem_of(m: &Module, v: Value) -> Type {
    m.ctx.types.element_type(m.value_type(v))
}

/// Bytes of the pointee when `elem` is a pointer type.
fn pointee_bytes(m: &Module, elem: Type) -> Option<u64> {
    match m.ctx.types.get(elem) {
        TypeData::Ptr(e) => Some(elem_bytes(*e) as u64),
        _ => None,
    }
}

fn int_width(m: &Module, elem: Type) -> u32 {
    match m.ctx.types.get(elem) {
        TypeData::Int(w) => *w,
        _ => 64,
    }
}

fn wrap(v: i64, width: u32) -> i64 {
    tilec_ir::util::sign_extend(v as u64, width)
}

impl Axis {
    /// Runs the analysis over the body of an entry.
    pub fn run(m: &Module, body: Block) -> Axis {
        let mut a = Axis::default();
        a.block(m, body);
        a
    }

    fn block(&mut self, m: &Module, b: Block) {
        for op in m.block_ops(b) {
            self.op(m, op);
            if m.opcode(op) == Opcode::For {
                self.for_iv(m, op);
            }
            for &r in m.regions(op) {
                for &blk in m.region_blocks(r) {
                    self.block(m, blk);
                }
            }
        }
    }

    /// What is known about `v` (nothing, when the analysis did not reach it).
    pub fn info(&self, m: &Module, v: Value) -> AxisInfo {
        if let Some(i) = self.tiles.get(&v) {
            return i.clone();
        }
        let rank = shape_of(m, v).len();
        let base = pointee_bytes(m, elem_of(m, v)).unwrap_or(1);
        AxisInfo {
            unit: base,
            ..AxisInfo::unknown(rank, base)
        }
    }

    /// What is known about a tensor or partition view.
    pub fn view(&self, v: Value) -> Option<&ViewInfo> {
        self.views.get(&v)
    }

    fn set(&mut self, m: &Module, v: Value, mut info: AxisInfo) {
        // Every valid pointer is aligned to its pointee; runs step by one pointee.
        info.unit = 1;
        if let Some(size) = pointee_bytes(m, elem_of(m, v)) {
            for d in info.div.iter_mut() {
                *d = (*d).max(size);
            }
            info.unit = size;
        }
        if let Some(v) = info.value {
            info.nonneg |= v >= 0;
        }
        // Runs never exceed the dimension.
        let shape = shape_of(m, v);
        if shape.len() == info.rank() {
            for (d, s) in shape.iter().enumerate() {
                let s = (*s).max(1) as u64;
                info.contig[d] = info.contig[d].min(s);
                info.cons[d] = info.cons[d].min(s);
            }
        }
        self.tiles.insert(v, info);
    }

    fn for_iv(&mut self, m: &Module, op: Op) {
        let Some(block) = m.entry_block(m.region(op, 0)) else {
            return;
        };
        let Some(&iv) = m.block_args(block).first() else {
            return;
        };
        let lb = self.info(m, m.operand(op, 0));
        let step = self.info(m, m.operand(op, 2));
        let mut info = AxisInfo::unknown(1, lb.elem_div().min(step.elem_div()));
        // The induction variable takes values in [lb, ub).
        info.nonneg = lb.nonneg;
        if step.value == Some(0) {
            info.value = lb.value;
        }
        self.set(m, iv, info);
    }

    fn op(&mut self, m: &Module, op: Op) {
        use Opcode as O;
        let opcode = m.opcode(op);
        match opcode {
            O::MakeTensorView => return self.make_tensor_view(m, op),
            O::MakePartitionView | O::MakeStridedView | O::MakeGatherScatterView => {
                if let Some(v) = self.views.get(&m.operand(op, 0)).cloned() {
                    self.views.insert(m.result(op, 0), v);
                }
                return;
            }
            O::Assume if m.ctx.types.is_view(m.value_type(m.operand(op, 0))) => {
                if m.num_results(op) == 0 {
                    return;
                }
                if let Some(mut v) = self.views.get(&m.operand(op, 0)).cloned() {
                    if let Some(AttrData::DivBy { divisor, .. }) = self.predicate(m, op) {
                        v.base_div = v.base_div.max((*divisor).min(MAX_DIV));
                    }
                    self.views.insert(m.result(op, 0), v);
                }
                return;
            }
            _ => {}
        }
        if m.num_results(op) != 1 {
            match opcode {
                O::GetTensorShape => self.tensor_shape(m, op),
                O::GetTileBlockId | O::GetNumTileBlocks => {
                    for res in m.results(op) {
                        let mut info = AxisInfo::unknown(1, 1);
                        info.nonneg = true;
                        self.set(m, res, info);
                    }
                }
                _ => {}
            }
            return;
        }
        let res = m.result(op, 0);
        if !m.ctx.types.is_tile(m.value_type(res)) {
            return;
        }
        let shape = shape_of(m, res);
        let elem = elem_of(m, res);
        let info = match opcode {
            O::Constant => self.constant(m, op, &shape, elem),
            O::Iota => Some(AxisInfo {
                div: vec![MAX_DIV],
                contig: vec![shape[0] as u64],
                cons: vec![1],
                value: (shape[0] == 1).then_some(0),
                unit: 1,
                nonneg: true,
            }),
            O::Assume => self.assume(m, op),
            O::AddI | O::SubI => {
                let x = self.info(m, m.operand(op, 0));
                let y = self.info(m, m.operand(op, 1));
                let w = int_width(m, elem);
                let mut r = add(&x, &y, 1, opcode == O::SubI, |a, b| {
                    let r = if opcode == O::SubI {
                        a.wrapping_sub(b)
                    } else {
                        a.wrapping_add(b)
                    };
                    wrap(r, w)
                });
                r.nonneg = opcode == O::AddI && x.nonneg && y.nonneg && no_signed_wrap(m, op);
                Some(r)
            }
            O::Offset => {
                let p = self.info(m, m.operand(op, 0));
                let off_v = m.operand(op, 1);
                let mut o = self.info(m, off_v);
                let ow = int_width(m, elem_of(m, off_v));
                if ow < 64 {
                    o = widen(&o, ow);
                }
                let size = pointee_bytes(m, elem).unwrap_or(1);
                Some(add(&p, &o, size, false, |a, b| {
                    a.wrapping_add(b.wrapping_mul(size as i64))
                }))
            }
            O::MulI => {
                let x = self.info(m, m.operand(op, 0));
                let y = self.info(m, m.operand(op, 1));
                let mut r = mul(&x, &y, int_width(m, elem));
                r.nonneg |= x.nonneg && y.nonneg && no_signed_wrap(m, op);
                Some(r)
            }
            O::ShLI => {
                let x = self.info(m, m.operand(op, 0));
                let y = self.info(m, m.operand(op, 1));
                let w = int_width(m, elem);
                match y.value {
                    Some(k) if (0..w as i64).contains(&k) && y.rank() == x.rank() => {
                        let mut f = AxisInfo::splat(&shape, 1i64 << k);
                        f.cons = y.cons.clone();
                        Some(mul(&x, &f, w))
                    }
                    _ => None,
                }
            }
            O::ExtI | O::TruncI => {
                let src = m.operand(op, 0);
                let x = self.info(m, src);
                let sw = int_width(m, elem_of(m, src));
                let dw = int_width(m, elem);
                let mut r = widen(&x, sw.min(dw));
                let signed = m
                    .attr_named(op, "signedness")
                    .and_then(|a| m.ctx.attrs.get_enum(a, EnumKind::Signedness))
                    != Some(0);
                r.value = x.value.map(|v| {
                    if opcode == O::TruncI {
                        wrap(v, dw)
                    } else if signed {
                        v
                    } else if sw < 64 {
                        v & ((1i64 << sw) - 1)
                    } else {
                        v
                    }
                });
                r.nonneg = opcode == O::ExtI && (x.nonneg || !signed);
                if opcode == O::TruncI && dw < 64 {
                    let cap = 1u64 << dw.min(62);
                    for d in r.div.iter_mut() {
                        if *d >= cap {
                            *d = MAX_DIV;
                        }
                    }
                }
                Some(r)
            }
            O::CmpI => {
                let x = self.info(m, m.operand(op, 0));
                let y = self.info(m, m.operand(op, 1));
                let pred = m
                    .attr_named(op, "comparison_predicate")
                    .and_then(|a| m.ctx.attrs.get_enum(a, EnumKind::ComparisonPredicate))
                    .and_then(ComparisonPredicate::from_index);
                Some(cmp(&x, &y, pred))
            }
            O::AndI | O::OrI | O::XOrI | O::MaxI | O::MinI => {
                let x = self.info(m, m.operand(op, 0));
                let y = self.info(m, m.operand(op, 1));
                if x.rank() != y.rank() {
                    return;
                }
                let mut r = AxisInfo::unknown(x.rank(), 1);
                let div = if opcode == O::AndI {
                    x.elem_div().max(y.elem_div())
                } else {
                    x.elem_div().min(y.elem_div())
                };
                for d in 0..x.rank() {
                    r.cons[d] = x.cons[d].min(y.cons[d]);
                    r.div[d] = div;
                }
                r.nonneg = if opcode == O::AndI {
                    x.nonneg || y.nonneg
                } else {
                    x.nonneg && y.nonneg
                };
                Some(r)
            }
            O::NegSI => {
                let x = self.info(m, m.operand(op, 0));
                let mut r = AxisInfo::unknown(x.rank(), x.elem_div());
                r.cons = x.cons.clone();
                r.value = x.value.map(|v| wrap(v.wrapping_neg(), int_width(m, elem)));
                Some(r)
            }
            O::Select => {
                let c = self.info(m, m.operand(op, 0));
                let a = self.info(m, m.operand(op, 1));
                let b = self.info(m, m.operand(op, 2));
                if a.rank() != b.rank() || c.rank() != a.rank() {
                    return;
                }
                let mut r = AxisInfo::unknown(a.rank(), a.elem_div().min(b.elem_div()));
                for d in 0..a.rank() {
                    r.cons[d] = c.cons[d].min(a.cons[d]).min(b.cons[d]);
                }
                if a.value.is_some() && a.value == b.value {
                    r.value = a.value;
                }
                r.nonneg = a.nonneg && b.nonneg;
                Some(r)
            }
            O::PtrToPtr | O::PtrToInt | O::IntToPtr | O::Bitcast => {
                let src = m.operand(op, 0);
                let x = self.info(m, src);
                let same_size = pointee_bytes(m, elem_of(m, src)) == pointee_bytes(m, elem)
                    && opcode == O::PtrToPtr;
                let mut r = x.clone();
                if !same_size {
                    r.contig = vec![1; x.rank()];
                    let div = x.elem_div();
                    r.div = vec![div; x.rank()];
                }
                if opcode == O::Bitcast && !matches!(m.ctx.types.get(elem), TypeData::Int(_)) {
                    r.value = None;
                }
                Some(r)
            }
            O::Broadcast => {
                let src = m.operand(op, 0);
                let x = self.info(m, src);
                let ss = shape_of(m, src);
                if ss.len() != shape.len() {
                    return;
                }
                let mut r = x.clone();
                for d in 0..shape.len() {
                    if ss[d] == 1 && shape[d] != 1 {
                        r.cons[d] = shape[d] as u64;
                        r.contig[d] = 1;
                    }
                }
                Some(r)
            }
            O::Reshape => {
                let src = m.operand(op, 0);
                Some(reshape(&self.info(m, src), &shape_of(m, src), &shape))
            }
            // The same values in another layout (GPU-level IR): converted in registers, or
            // through a buffer that only holds the tile it was allocated with.
            O::ConvertLayout => Some(self.info(m, m.operand(op, 0))),
            O::LocalLoad => {
                let buf = m.operand(op, 0);
                let only_read = m
                    .users(buf)
                    .all(|user| matches!(m.opcode(user), O::LocalLoad | O::LocalDealloc));
                m.defining_op(buf)
                    .filter(|a| {
                        m.opcode(*a) == O::LocalAlloc && m.num_operands(*a) == 1 && only_read
                    })
                    .map(|a| self.info(m, m.operand(a, 0)))
            }
            O::Permute => {
                let x = self.info(m, m.operand(op, 0));
                let perm: Vec<usize> =
                    match m.attr_named(op, "permutation").map(|a| m.ctx.attrs.get(a)) {
                        Some(AttrData::DenseI32Array(p)) => p.iter().map(|d| *d as usize).collect(),
                        _ => return,
                    };
                if perm.len() != x.rank() || perm.iter().any(|d| *d >= x.rank()) {
                    return;
                }
                Some(AxisInfo {
                    div: perm.iter().map(|d| x.div[*d]).collect(),
                    contig: perm.iter().map(|d| x.contig[*d]).collect(),
                    cons: perm.iter().map(|d| x.cons[*d]).collect(),
                    value: x.value,
                    unit: x.unit,
                    nonneg: x.nonneg,
                })
            }
            O::Extract => {
                let x = self.info(m, m.operand(op, 0));
                if x.rank() != shape.len() {
                    return;
                }
                let mut r = x.clone();
                for (d, s) in shape.iter().enumerate() {
                    let s = *s as u64;
                    r.contig[d] = x.contig[d].min(s);
                    r.cons[d] = x.cons[d].min(s);
                    r.div[d] = x.first_div(d, r.contig[d]);
                }
                Some(r)
            }
            _ => None,
        };
        if let Some(info) = info
            && info.rank() == shape.len()
        {
            self.set(m, res, info);
        }
    }

    fn predicate<'m>(&self, m: &'m Module, op: Op) -> Option<&'m AttrData> {
        m.attr_named(op, "predicate").map(|a| m.ctx.attrs.get(a))
    }

    fn assume(&self, m: &Module, op: Op) -> Option<AxisInfo> {
        let src = m.operand(op, 0);
        let mut r = self.info(m, src);
        let shape = shape_of(m, src);
        match self.predicate(m, op)? {
            AttrData::DivBy {
                divisor,
                every,
                along,
            } => {
                let dv = (*divisor).clamp(1, MAX_DIV);
                match (every, along) {
                    (Some(e), Some(a)) if *e > 1 => {
                        let (e, a) = (*e as u64, *a as usize);
                        if a >= r.rank() || !e.is_power_of_two() || e > shape[a] as u64 {
                            return Some(r);
                        }
                        if e > r.contig[a] {
                            r.contig[a] = e;
                            r.div[a] = dv;
                        } else {
                            r.div[a] = r.div[a].max(dv);
                        }
                    }
                    _ => {
                        // Every element is divisible: so is the first of every run.
                        for d in r.div.iter_mut() {
                            *d = (*d).max(dv);
                        }
                    }
                }
            }
            AttrData::Bounded { lb: Some(lb), .. } if *lb >= 0 => r.nonneg = true,
            AttrData::SameElements(groups) if groups.len() == shape.len() => {
                for (d, g) in groups.iter().enumerate() {
                    let g = *g as u64;
                    if g.is_power_of_two() {
                        r.cons[d] = r.cons[d].max(g);
                    }
                }
            }
            _ => {}
        }
        Some(r)
    }

    fn constant(&self, m: &Module, op: Op, shape: &[i64], elem: Type) -> Option<AxisInfo> {
        let AttrData::Dense(d) = m.attr(op, 0).map(|a| m.ctx.attrs.get(a))? else {
            return None;
        };
        if !matches!(m.ctx.types.get(elem), TypeData::Int(_)) {
            return None;
        }
        let w = int_width(m, elem);
        let values: Vec<i64> = d.values.iter().map(|v| wrap(*v as i64, w)).collect();
        let first = *values.first()?;
        if d.splat || values.iter().all(|v| *v == first) {
            return Some(AxisInfo::splat(shape, first));
        }
        let n: usize = shape.iter().product::<i64>() as usize;
        if values.len() != n {
            return None;
        }
        let mut r = dense_info(shape, &values);
        r.nonneg = values.iter().all(|v| *v >= 0);
        Some(r)
    }

    fn make_tensor_view(&mut self, m: &Module, op: Op) {
        let result = m.result(op, 0);
        let TypeData::TensorView { shape, strides, .. } = m.ctx.types.get(m.value_type(result))
        else {
            return;
        };
        let base = self.info(m, m.operand(op, 0)).elem_div();
        let mut dyn_shape = operand_group(m, op, "dynamicShape").into_iter();
        let mut dyn_strides = operand_group(m, op, "dynamicStrides").into_iter();
        let div = |s: i64, it: &mut std::vec::IntoIter<Value>| {
            if s == DYNAMIC {
                it.next().map_or(1, |v| self.info(m, v).elem_div())
            } else {
                lowbit(s)
            }
        };
        let shape_div = shape.iter().map(|s| div(*s, &mut dyn_shape)).collect();
        let stride_div = strides.iter().map(|s| div(*s, &mut dyn_strides)).collect();
        self.views.insert(
            result,
            ViewInfo {
                base_div: base,
                shape_div,
                stride_div,
            },
        );
    }

    fn tensor_shape(&mut self, m: &Module, op: Op) {
        let Some(v) = self.views.get(&m.operand(op, 0)).cloned() else {
            return;
        };
        for (i, res) in m.results(op).enumerate() {
            if let Some(d) = v.shape_div.get(i) {
                self.set(m, res, AxisInfo::unknown(1, *d));
            }
        }
    }
}

/// True if the op promises no signed wrap-around (`overflow<no_signed_wrap>` or
/// `overflow<no_wrap>`).
fn no_signed_wrap(m: &Module, op: Op) -> bool {
    use tilec_ir::attrs::Overflow;
    matches!(
        m.attr_named(op, "overflow")
            .and_then(|a| m.ctx.attrs.get_enum(a, EnumKind::Overflow))
            .and_then(Overflow::from_index),
        Some(Overflow::NoSignedWrap | Overflow::NoWrap)
    )
}

/// `x + y * scale` (`x - y` when `sub`): runs of `x` with `y` constant over them, or the
/// reverse (not for `sub`); `value` folds known values.
fn add(
    x: &AxisInfo,
    y: &AxisInfo,
    scale: u64,
    sub: bool,
    value: impl Fn(i64, i64) -> i64,
) -> AxisInfo {
    if x.rank() != y.rank() {
        return AxisInfo::unknown(x.rank(), 1);
    }
    let mut r = AxisInfo::unknown(x.rank(), 1);
    for d in 0..x.rank() {
        let from_x = x.contig[d].min(y.cons[d]);
        let from_y = if sub { 1 } else { y.contig[d].min(x.cons[d]) };
        let c = from_x.max(from_y);
        r.contig[d] = c;
        r.cons[d] = x.cons[d].min(y.cons[d]);
        r.div[d] = x.first_div(d, c).min(mul_div(y.first_div(d, c), scale));
    }
    if let (Some(a), Some(b)) = (x.value, y.value) {
        r.value = Some(value(a, b));
    }
    r
}

fn mul(x: &AxisInfo, y: &AxisInfo, width: u32) -> AxisInfo {
    if x.rank() != y.rank() {
        return AxisInfo::unknown(x.rank(), 1);
    }
    match (x.value, y.value) {
        (_, Some(1)) => return x.clone(),
        (Some(1), _) => return y.clone(),
        _ => {}
    }
    let mut r = AxisInfo::unknown(x.rank(), mul_div(x.elem_div(), y.elem_div()));
    for d in 0..x.rank() {
        r.cons[d] = x.cons[d].min(y.cons[d]);
    }
    if let (Some(a), Some(b)) = (x.value, y.value) {
        r.value = Some(wrap(a.wrapping_mul(b), width));
    } else if x.value == Some(0) || y.value == Some(0) {
        r.value = Some(0);
    }
    if r.value == Some(0) {
        r.div = vec![MAX_DIV; x.rank()];
    }
    r
}

/// The facts that survive reading `width`-bit values as wider integers: runs stay
/// consecutive only where they cannot cross a multiple of 2^(width-1).
fn widen(x: &AxisInfo, width: u32) -> AxisInfo {
    let mut r = x.clone();
    let cap = 1u64 << (width.saturating_sub(1)).min(62);
    for d in 0..x.rank() {
        let c = x.contig[d].min(x.div[d]).min(cap).max(1);
        r.div[d] = x.first_div(d, c);
        r.contig[d] = c;
    }
    r
}

/// Constancy of `x PRED y`.
fn cmp(x: &AxisInfo, y: &AxisInfo, pred: Option<ComparisonPredicate>) -> AxisInfo {
    use ComparisonPredicate as P;
    if x.rank() != y.rank() {
        return AxisInfo::unknown(x.rank(), 1);
    }
    let mut r = AxisInfo::unknown(x.rank(), 1);
    // A run of `a` (consecutive values from a multiple of g) against a constant `b` that
    // is a multiple of g: `a < b` and `a >= b` are constant over the run.
    let run_vs_const = |a: &AxisInfo, b: &AxisInfo, d: usize| {
        let mut g = a.contig[d].min(b.cons[d]);
        while g > 1 && (a.first_div(d, g) < g * a.unit || b.first_div(d, g) < g * b.unit) {
            g /= 2;
        }
        g
    };
    for d in 0..x.rank() {
        let mut c = x.cons[d].min(y.cons[d]);
        match pred {
            Some(P::LessThan | P::GreaterThanOrEqual) => c = c.max(run_vs_const(x, y, d)),
            Some(P::LessThanOrEqual | P::GreaterThan) => c = c.max(run_vs_const(y, x, d)),
            _ => {}
        }
        r.cons[d] = c;
    }
    r
}

fn reshape(x: &AxisInfo, from: &[i64], to: &[i64]) -> AxisInfo {
    let mut r = AxisInfo::unknown(to.len(), x.elem_div());
    r.nonneg = x.nonneg;
    if x.rank() != from.len() {
        return r;
    }
    // Constant everywhere stays constant everywhere.
    if (0..from.len()).all(|d| x.cons[d] >= from[d] as u64) {
        let mut c = AxisInfo::splat(to, x.value.unwrap_or(0));
        c.value = x.value;
        c.nonneg = x.nonneg;
        c.div = vec![x.elem_div(); to.len()];
        return c;
    }
    // Only size-1 dimensions added or removed: the others keep their facts.
    let big = |s: &[i64]| -> Vec<usize> { (0..s.len()).filter(|d| s[*d] != 1).collect() };
    let (bf, bt) = (big(from), big(to));
    if bf.iter().map(|d| from[*d]).eq(bt.iter().map(|d| to[*d])) {
        for (f, t) in bf.iter().zip(&bt) {
            r.div[*t] = x.div[*f];
            r.contig[*t] = x.contig[*f];
            r.cons[*t] = x.cons[*f];
        }
        return r;
    }
    // Equal trailing dimensions keep their facts (the rest of the index is regrouped).
    let (mut i, mut j) = (from.len(), to.len());
    while i > 0 && j > 0 && from[i - 1] == to[j - 1] {
        i -= 1;
        j -= 1;
        r.div[j] = x.div[i];
        r.contig[j] = x.contig[i];
        r.cons[j] = x.cons[i];
    }
    // A last dimension split into rows of `to_last` (which divides `from_last`): a row is
    // a stretch of the old last dimension starting at a multiple of `to_last`.
    let (fl, tl) = (from.len() - 1, to.len() - 1);
    if i == from.len() && j == to.len() && to[tl] < from[fl] && from[fl] % to[tl] == 0 {
        let t = to[tl] as u64;
        r.contig[tl] = x.contig[fl].min(t);
        r.cons[tl] = x.cons[fl].min(t);
        r.div[tl] = x.first_div(fl, r.contig[tl]);
    }
    r
}

/// Exact facts of a dense constant.
fn dense_info(shape: &[i64], values: &[i64]) -> AxisInfo {
    let rank = shape.len();
    let mut r = AxisInfo::unknown(rank, 1);
    // Row-major strides.
    let mut strides = vec![1usize; rank];
    for d in (0..rank.saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1] as usize;
    }
    let pos = |i: usize, d: usize| (i / strides[d]) % shape[d] as usize;
    let holds = |d: usize, g: usize, f: &dyn Fn(i64, i64, usize) -> bool| {
        (0..values.len()).all(|i| {
            let p = pos(i, d);
            let k = p % g;
            k == 0 || f(values[i - k * strides[d]], values[i], k)
        })
    };
    for (d, n) in shape.iter().enumerate() {
        let n = *n as usize;
        let largest = |f: &dyn Fn(i64, i64, usize) -> bool| {
            let mut g = if n.is_power_of_two() { n } else { 1 };
            while g > 1 && !holds(d, g, f) {
                g /= 2;
            }
            g as u64
        };
        r.cons[d] = largest(&|a, b, _| a == b);
        r.contig[d] = largest(&|a, b, k| a.checked_add(k as i64) == Some(b));
        let c = r.contig[d] as usize;
        r.div[d] = (0..values.len())
            .filter(|i| pos(*i, d) % c == 0)
            .map(|i| lowbit(values[i]))
            .min()
            .unwrap_or(1);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use tilec_diag::FileId;

    /// Parses `body` as the body of `entry @k(ARGS)` and analyses it.
    fn analyse(args: &str, body: &str) -> (Module, Axis) {
        let src =
            format!("cuda_tile.module @m {{\n entry @k({args}) {{\n{body}\n return\n }}\n}}\n");
        let m = tilec_parse::parse(&src, FileId(0), &tilec_parse::ParseOptions::default())
            .unwrap_or_else(|e| panic!("parse: {e:?}\n{src}"));
        let block = m.op_block(entry_ops(&m)[0]).unwrap();
        let a = Axis::run(&m, block);
        (m, a)
    }

    /// The ops of the entry body.
    fn entry_ops(m: &Module) -> Vec<Op> {
        let mut entry = None;
        m.walk(|op| {
            if m.opcode(op) == Opcode::Entry {
                entry = Some(op);
            }
        });
        let body = m.entry_block(m.region(entry.unwrap(), 0)).unwrap();
        m.block_ops(body).collect()
    }

    /// The facts of the first result of the n-th op of the entry body.
    fn nth(m: &Module, a: &Axis, n: usize) -> AxisInfo {
        a.info(m, m.result(entry_ops(m)[n], 0))
    }

    #[test]
    fn iota_plus_aligned_start() {
        let (m, a) = analyse(
            "%p: tile<ptr<f32>>",
            r#"
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c = constant <i32: 256> : tile<i32>
    %s = muli %bx, %c : tile<i32>
    %s1 = reshape %s : tile<i32> -> tile<1xi32>
    %sv = broadcast %s1 : tile<1xi32> -> tile<256xi32>
    %i = iota : tile<256xi32>
    %x = addi %sv, %i : tile<256xi32>
    %p16 = assume div_by<16>, %p : tile<ptr<f32>>
    %p1 = reshape %p16 : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pv = broadcast %p1 : tile<1xptr<f32>> -> tile<256xptr<f32>>
    %q = offset %pv, %x : tile<256xptr<f32>>, tile<256xi32> -> tile<256xptr<f32>>"#,
        );
        let s = nth(&m, &a, 2);
        assert_eq!((s.div[0], s.value), (256, None));
        let sv = nth(&m, &a, 4);
        assert_eq!((sv.div[0], sv.cons[0], sv.contig[0]), (256, 256, 1));
        let i = nth(&m, &a, 5);
        assert_eq!((i.div[0], i.contig[0], i.cons[0]), (MAX_DIV, 256, 1));
        let x = nth(&m, &a, 6);
        assert_eq!((x.div[0], x.contig[0], x.cons[0]), (256, 256, 1));
        let q = nth(&m, &a, 10);
        // i32 offsets are sign-extended: runs stay whole (256 divides the run starts).
        assert_eq!((q.div[0], q.contig[0]), (16, 256));
        // Pointer runs step by 4 bytes: every 4th pointer is 16-byte aligned, every 2nd
        // 8-byte aligned.
        assert_eq!(
            (q.first_div(0, 4), q.first_div(0, 2), q.first_div(0, 1)),
            (16, 8, 4)
        );
    }

    #[test]
    fn unaligned_and_strided_pointers() {
        let (m, a) = analyse(
            "%p: tile<ptr<f32>>, %st: tile<i64>",
            r#"
    %p1 = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pv = broadcast %p1 : tile<1xptr<f32>> -> tile<64xptr<f32>>
    %i = iota : tile<64xi64>
    %q = offset %pv, %i : tile<64xptr<f32>>, tile<64xi64> -> tile<64xptr<f32>>
    %s1 = reshape %st : tile<i64> -> tile<1xi64>
    %sv = broadcast %s1 : tile<1xi64> -> tile<64xi64>
    %o = muli %i, %sv : tile<64xi64>
    %r = offset %pv, %o : tile<64xptr<f32>>, tile<64xi64> -> tile<64xptr<f32>>
    %c3 = constant <i64: 3> : tile<64xi64>
    %o3 = addi %i, %c3 : tile<64xi64>
    %t = offset %pv, %o3 : tile<64xptr<f32>>, tile<64xi64> -> tile<64xptr<f32>>"#,
        );
        // Contiguous, but only the pointee alignment is known.
        let q = nth(&m, &a, 3);
        assert_eq!((q.div[0], q.contig[0]), (4, 64));
        // A dynamic stride: no runs.
        let r = nth(&m, &a, 7);
        assert_eq!((r.div[0], r.contig[0]), (4, 1));
        // iota + 3: runs of 64, starting at 3.
        let o3 = nth(&m, &a, 9);
        assert_eq!((o3.div[0], o3.contig[0]), (1, 64));
    }

    #[test]
    fn masks_and_constancy() {
        let (m, a) = analyse(
            "%n: tile<i32>",
            r#"
    %i = iota : tile<128xi32>
    %n4 = assume div_by<4>, %n : tile<i32>
    %n1 = reshape %n4 : tile<i32> -> tile<1xi32>
    %nv = broadcast %n1 : tile<1xi32> -> tile<128xi32>
    %lt = cmpi less_than %i, %nv, signed : tile<128xi32> -> tile<128xi1>
    %le = cmpi less_than_or_equal %i, %nv, signed : tile<128xi32> -> tile<128xi1>
    %m1 = reshape %n : tile<i32> -> tile<1xi32>
    %mv = broadcast %m1 : tile<1xi32> -> tile<128xi32>
    %lt2 = cmpi less_than %i, %mv, signed : tile<128xi32> -> tile<128xi1>
    %ge = cmpi greater_than %nv, %i, signed : tile<128xi32> -> tile<128xi1>"#,
        );
        assert_eq!(nth(&m, &a, 4).cons[0], 4);
        assert_eq!(nth(&m, &a, 5).cons[0], 1);
        assert_eq!(nth(&m, &a, 8).cons[0], 1);
        assert_eq!(nth(&m, &a, 9).cons[0], 4);
    }

    #[test]
    fn two_dimensional_and_every_along() {
        let (m, a) = analyse(
            "%x: tile<4x8xi32>, %p: tile<4x8xptr<f16>>",
            r#"
    %g = assume div_by<8, every 4 along 1>, %x : tile<4x8xi32>
    %c = constant <i32: [[0, 1, 2, 3, 8, 9, 10, 11], [16, 17, 18, 19, 24, 25, 26, 27], [0, 1, 2, 3, 8, 9, 10, 11], [16, 17, 18, 19, 24, 25, 26, 27]]> : tile<4x8xi32>
    %s = assume same_elements<[2, 1]>, %x : tile<4x8xi32>
    %t = permute %c [1, 0] : tile<4x8xi32> -> tile<8x4xi32>
    %z = constant <i32: 1> : tile<i32>
    %e = extract %c[%z, %z] : tile<4x8xi32> -> tile<2x2xi32>
    %q = assume div_by<32, every 4 along 1>, %p : tile<4x8xptr<f16>>"#,
        );
        let g = nth(&m, &a, 0);
        assert_eq!((g.div, g.contig), (vec![1, 8], vec![1, 4]));
        let c = nth(&m, &a, 1);
        assert_eq!(
            (c.div, c.contig, c.cons),
            (vec![1, 8], vec![1, 4], vec![1, 1])
        );
        let s = nth(&m, &a, 2);
        assert_eq!(s.cons, vec![2, 1]);
        let t = nth(&m, &a, 3);
        assert_eq!((t.div, t.contig), (vec![8, 1], vec![4, 1]));
        let e = nth(&m, &a, 5);
        assert_eq!((e.div, e.contig), (vec![1, 2], vec![1, 2]));
        let q = nth(&m, &a, 6);
        assert_eq!((q.div, q.contig), (vec![2, 32], vec![1, 4]));
    }

    #[test]
    fn views_take_base_shape_and_stride_facts() {
        let (m, a) = analyse(
            "%p: tile<ptr<f32>>, %n: tile<i32>, %s: tile<i32>",
            r#"
    %p16 = assume div_by<16>, %p : tile<ptr<f32>>
    %n8 = assume div_by<8>, %n : tile<i32>
    %v = make_tensor_view %p16, shape = [%n8, 96], strides = [%s, 1] : tile<i32> -> tensor_view<?x96xf32, strides=[?,1]>
    %w = make_tensor_view %p, shape = [%n, 96], strides = [128, 1] : tile<i32> -> tensor_view<?x96xf32, strides=[128,1]>"#,
        );
        let mut views = Vec::new();
        m.walk(|op| {
            if m.opcode(op) == Opcode::MakeTensorView {
                views.push(a.view(m.result(op, 0)).cloned().unwrap());
            }
        });
        assert_eq!(
            views[0],
            ViewInfo {
                base_div: 16,
                shape_div: vec![8, 32],
                stride_div: vec![1, 1]
            }
        );
        assert_eq!(
            views[1],
            ViewInfo {
                base_div: 4,
                shape_div: vec![1, 32],
                stride_div: vec![128, 1]
            }
        );
    }

    #[test]
    fn signs_and_split_reshapes() {
        let (m, a) = analyse(
            "%n: tile<i32>, %j: tile<i32>",
            r#"
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %nn = assume bounded<0, ?>, %n : tile<i32>
    %c = constant <i32: 64> : tile<i32>
    %s = muli %bx, %c overflow<no_signed_wrap> : tile<i32>
    %w = muli %bx, %c : tile<i32>
    %e = exti %j unsigned : tile<i32> -> tile<i64>
    %i = iota : tile<32xi32>
    %r = reshape %i : tile<32xi32> -> tile<4x8xi32>"#,
        );
        assert!(nth(&m, &a, 0).nonneg);
        assert!(nth(&m, &a, 1).nonneg);
        assert!(nth(&m, &a, 3).nonneg);
        assert!(!nth(&m, &a, 4).nonneg);
        assert!(nth(&m, &a, 5).nonneg);
        let r = nth(&m, &a, 7);
        assert_eq!(
            (r.div, r.contig, r.cons),
            (vec![1, 8], vec![1, 8], vec![1, 1])
        );
    }

    #[test]
    fn loop_induction_variable() {
        let (m, a) = analyse(
            "",
            r#"
    %lb = constant <i32: 0> : tile<i32>
    %ub = constant <i32: 1024> : tile<i32>
    %st = constant <i32: 64> : tile<i32>
    for %iv in (%lb to %ub, step %st) : tile<i32> {
      %x = addi %iv, %st : tile<i32>
    }"#,
        );
        let mut found = None;
        m.walk(|op| {
            if m.opcode(op) == Opcode::AddI {
                found = Some(a.info(&m, m.result(op, 0)));
            }
        });
        assert_eq!(found.unwrap().div, vec![64]);
    }
}
