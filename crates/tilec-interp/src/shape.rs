//! Structural ops: broadcast, reshape, permute, cat, extract, iota, select, offset, reduce,
//! scan and the matrix products.
//!
//! Orders the spec leaves to the implementation (it asks only for determinism):
//!
//! * `reduce` folds each row in ascending index order, starting from the identity:
//!   `acc = body(current = x[i], previous = acc)`;
//! * `scan` does the same in ascending order (descending with `reverse`), and element `i`
//!   of the result is the accumulator after `x[i]`;
//! * `mmaf` computes `acc + sum_k a[i,k] * b[k,j]` in ascending `k`, each step a fused
//!   multiply-add in the accumulator's type (operands converted to it exactly), so one
//!   rounding per `k`; `mmai` accumulates in i32 with wrap-around.

use crate::exec::{Ctx, Flow, Order, R, int_width, mask};
use crate::value::{Tile, Val, coords_of, row_major_strides};
use tilec_ir::attrs::{AttrData, EnumKind, Signedness};
use tilec_ir::util::sign_extend;
use tilec_ir::{Op, Opcode, Type, Value};

impl Ctx<'_, '_> {
    pub(crate) fn shape_op(&mut self, op: Op) -> R<()> {
        use Opcode as O;
        let m = self.m;
        let r = m.result(op, 0);
        let (rshape, relem) = (self.shape_of(r), self.elem_of(r));
        let rn = rshape.iter().product::<i64>() as usize;
        let mut rc = vec![0i64; rshape.len()];
        let bits: Vec<u64> = match m.opcode(op) {
            O::Reshape => self.tile(m.operand(op, 0))?.bits.clone(),
            O::Broadcast => {
                let s = self.tile(m.operand(op, 0))?;
                let sst = row_major_strides(&s.shape);
                (0..rn)
                    .map(|i| {
                        coords_of(&rshape, i, &mut rc);
                        let mut at = 0;
                        for d in 0..rshape.len() {
                            if s.shape[d] != 1 {
                                at += rc[d] as usize * sst[d];
                            }
                        }
                        s.bits[at]
                    })
                    .collect()
            }
            O::Permute => {
                let s = self.tile(m.operand(op, 0))?;
                let perm: Vec<usize> = match self.attr(op, "permutation") {
                    Some(AttrData::DenseI32Array(p)) => p.iter().map(|x| *x as usize).collect(),
                    _ => (0..rshape.len()).collect(),
                };
                let sst = row_major_strides(&s.shape);
                (0..rn)
                    .map(|i| {
                        coords_of(&rshape, i, &mut rc);
                        // Result dimension d is source dimension perm[d].
                        let at: usize = (0..rshape.len())
                            .map(|d| rc[d] as usize * sst[perm[d]])
                            .sum();
                        s.bits[at]
                    })
                    .collect()
            }
            O::Cat => {
                let (a, b) = (self.tile(m.operand(op, 0))?, self.tile(m.operand(op, 1))?);
                let dim = self.int_attr(op, "dim") as usize;
                let (ast, bst) = (row_major_strides(&a.shape), row_major_strides(&b.shape));
                (0..rn)
                    .map(|i| {
                        coords_of(&rshape, i, &mut rc);
                        let (t, st, shift) = if rc[dim] < a.shape[dim] {
                            (a, &ast, 0)
                        } else {
                            (b, &bst, a.shape[dim])
                        };
                        let at: usize = (0..rshape.len())
                            .map(|d| (rc[d] - if d == dim { shift } else { 0 }) as usize * st[d])
                            .sum();
                        t.bits[at]
                    })
                    .collect()
            }
            O::Extract => {
                let s = self.tile(m.operand(op, 0))?;
                let idx: Vec<i64> = m
                    .operands(op)
                    .skip(1)
                    .map(|v| self.int(v))
                    .collect::<R<_>>()?;
                for (d, i) in idx.iter().enumerate() {
                    let blocks = s.shape[d] / rshape[d];
                    if !(0..blocks).contains(i) {
                        return Err(format!(
                            "'extract' index {i} along dimension {d} is out of bounds (the source has {blocks} blocks there)"
                        ));
                    }
                }
                let sst = row_major_strides(&s.shape);
                (0..rn)
                    .map(|i| {
                        coords_of(&rshape, i, &mut rc);
                        let at: usize = (0..rshape.len())
                            .map(|d| (idx[d] * rshape[d] + rc[d]) as usize * sst[d])
                            .sum();
                        s.bits[at]
                    })
                    .collect()
            }
            O::Iota => {
                let w = int_width(relem);
                (0..rn as u64).map(|i| i & mask(w)).collect()
            }
            O::Select => {
                let c = self.tile(m.operand(op, 0))?;
                let (a, b) = (self.tile(m.operand(op, 1))?, self.tile(m.operand(op, 2))?);
                (0..rn)
                    .map(|i| {
                        if c.bits[i] & 1 == 1 {
                            a.bits[i]
                        } else {
                            b.bits[i]
                        }
                    })
                    .collect()
            }
            O::Offset => {
                let p = self.tile(m.operand(op, 0))?;
                let o = self.tile(m.operand(op, 1))?;
                let pointee = match m.ctx.types.get(p.elem) {
                    tilec_ir::TypeData::Ptr(e) => *e,
                    _ => p.elem,
                };
                let size = crate::mem::elem_bytes(&m.ctx.types, pointee) as i64;
                let w = int_width(o.elem);
                (0..rn)
                    .map(|i| {
                        p.bits[i].wrapping_add(sign_extend(o.bits[i], w).wrapping_mul(size) as u64)
                    })
                    .collect()
            }
            O::Reduce | O::Scan => return self.reduce_or_scan(op),
            O::MmaF | O::MmaFScaled | O::MmaI => self.mma(op)?,
            _ => return Err(format!("the interpreter cannot run '{}'", m.def(op).name)),
        };
        self.set_tile(
            r,
            Tile {
                elem: relem,
                shape: rshape,
                bits,
            },
        );
        Ok(())
    }

    /// The identities of a `reduce`/`scan`, as element bit patterns.
    fn identities(&self, op: Op) -> R<Vec<u64>> {
        let m = self.m;
        let Some(AttrData::Array(items)) = self.attr(op, "identities") else {
            return Err("'identities' missing".into());
        };
        items
            .iter()
            .map(|a| match m.ctx.attrs.get(*a) {
                AttrData::Float { bits, .. } => Ok(*bits),
                AttrData::Int { value, ty } => {
                    let w = ty.map_or(64, |t| int_width(m.ctx.types.element_type(t)));
                    Ok(*value as u64 & mask(w))
                }
                AttrData::Dense(d) => Ok(d.values.first().copied().unwrap_or(0)),
                other => Err(format!("unexpected identity {other:?}")),
            })
            .collect()
    }

    /// Applies the body of `op` to (current, previous) element pairs of each operand.
    fn combine(
        &mut self,
        op: Op,
        cur: &[u64],
        prev: &[u64],
        elems: &[tilec_ir::Type],
    ) -> R<Vec<u64>> {
        let mut args = Vec::with_capacity(2 * cur.len());
        for k in 0..cur.len() {
            args.push(Val::Tile(Tile::scalar(elems[k], cur[k])));
            args.push(Val::Tile(Tile::scalar(elems[k], prev[k])));
        }
        match self.run_region(op, 0, args)? {
            Flow::Yield(v) => v
                .into_iter()
                .map(|x| match x {
                    Val::Tile(t) => Ok(t.bits[0]),
                    _ => Err("a reduction body must yield tiles".to_string()),
                })
                .collect(),
            _ => Err("a reduction body must end with 'yield'".into()),
        }
    }

    fn reduce_or_scan(&mut self, op: Op) -> R<()> {
        let m = self.m;
        let scan = m.opcode(op) == Opcode::Scan;
        let inputs: Vec<Tile> = m
            .operands(op)
            .map(|v| self.tile(v).cloned())
            .collect::<R<_>>()?;
        let ids = self.identities(op)?;
        let elems: Vec<_> = inputs.iter().map(|t| t.elem).collect();
        let shape = inputs[0].shape.clone();
        let dim = self.int_attr(op, "dim") as usize;
        let reverse = matches!(self.attr(op, "reverse"), Some(AttrData::Bool(true)));
        let st = row_major_strides(&shape);
        let len = shape[dim] as usize;
        // Rows: every element with coordinate 0 along `dim`.
        let n: usize = shape.iter().product::<i64>() as usize;
        let mut outs: Vec<Vec<u64>> =
            vec![vec![0; if scan { n } else { n / len.max(1) }]; inputs.len()];
        // Another order than the sequential one (Options::variant) only for float terms,
        // so that integers (indices, control flow) stay the interpreter's own.
        let all_float = inputs
            .iter()
            .all(|t| tilec_ir::attrs::float_kind(&m.ctx.types, t.elem).is_some());
        let order = if all_float {
            self.variant.order
        } else {
            Order::Sequential
        };
        let mut c = vec![0i64; shape.len()];
        let mut row = 0;
        let mut at_of = Vec::with_capacity(len);
        for start in 0..n {
            coords_of(&shape, start, &mut c);
            if c[dim] != 0 {
                continue;
            }
            at_of.clear();
            at_of.extend((0..len).map(|j| {
                let j = if reverse { len - 1 - j } else { j };
                start + j * st[dim]
            }));
            let term = |at: usize| -> Vec<u64> { inputs.iter().map(|t| t.bits[at]).collect() };
            match (order, scan) {
                (Order::Tree, false) => {
                    let terms: Vec<Vec<u64>> = at_of.iter().map(|&a| term(a)).collect();
                    let acc = match self.tree(op, &terms, &elems)? {
                        Some(t) => self.combine(op, &t, &ids, &elems)?,
                        None => ids.clone(),
                    };
                    for (k, o) in outs.iter_mut().enumerate() {
                        o[row] = acc[k];
                    }
                }
                (Order::Tree, true) => {
                    // Log steps: after step s, element i holds the terms i - 2^(s+1) + 1
                    // to i.
                    let mut v: Vec<Vec<u64>> = at_of.iter().map(|&a| term(a)).collect();
                    if let Some(first) = v.first_mut() {
                        *first = self.combine(op, first, &ids, &elems)?;
                    }
                    let mut d = 1;
                    while d < len {
                        for i in (d..len).rev() {
                            v[i] = self.combine(op, &v[i], &v[i - d], &elems)?;
                        }
                        d *= 2;
                    }
                    for (i, &at) in at_of.iter().enumerate() {
                        for (k, o) in outs.iter_mut().enumerate() {
                            o[at] = v[i][k];
                        }
                    }
                }
                (Order::Sequential | Order::Reversed, _) => {
                    let backwards = order == Order::Reversed && !scan;
                    let mut acc = ids.clone();
                    for j in 0..len {
                        let at = at_of[if backwards { len - 1 - j } else { j }];
                        acc = self.combine(op, &term(at), &acc, &elems)?;
                        if scan {
                            for (k, o) in outs.iter_mut().enumerate() {
                                o[at] = acc[k];
                            }
                        }
                    }
                    if !scan {
                        for (k, o) in outs.iter_mut().enumerate() {
                            o[row] = acc[k];
                        }
                    }
                }
            }
            row += 1;
        }
        let results: Vec<Value> = m.results(op).collect();
        for (k, r) in results.into_iter().enumerate() {
            let s = self.shape_of(r);
            self.set_tile(
                r,
                Tile {
                    elem: elems[k],
                    shape: s,
                    bits: std::mem::take(&mut outs[k]),
                },
            );
        }
        Ok(())
    }

    /// The terms combined as a balanced tree (the left half's result the accumulator, the
    /// right half's the new term); `None` for no terms.
    fn tree(&mut self, op: Op, terms: &[Vec<u64>], elems: &[Type]) -> R<Option<Vec<u64>>> {
        match terms.len() {
            0 => Ok(None),
            1 => Ok(Some(terms[0].clone())),
            n => {
                let (l, r) = terms.split_at(n / 2);
                let (Some(l), Some(r)) = (self.tree(op, l, elems)?, self.tree(op, r, elems)?)
                else {
                    return Ok(None);
                };
                self.combine(op, &r, &l, elems).map(Some)
            }
        }
    }

    fn mma(&mut self, op: Op) -> R<Vec<u64>> {
        let m = self.m;
        let (a, b, c) = (
            self.tile(m.operand(op, 0))?,
            self.tile(m.operand(op, 1))?,
            self.tile(m.operand(op, 2))?,
        );
        let rank = c.shape.len();
        let (mm, nn) = (c.shape[rank - 2] as usize, c.shape[rank - 1] as usize);
        let kk = a.shape[rank - 1] as usize;
        let batch = if rank == 3 { c.shape[0] as usize } else { 1 };
        let mut out = c.bits.clone();
        if m.opcode(op) == Opcode::MmaI {
            let sa = self.enum_attr(op, "signedness_lhs", EnumKind::Signedness)
                != Some(Signedness::Unsigned as u8);
            let sb = self.enum_attr(op, "signedness_rhs", EnumKind::Signedness)
                != Some(Signedness::Unsigned as u8);
            let v = |x: u64, s: bool| if s { sign_extend(x, 8) } else { x as i64 };
            for bt in 0..batch {
                for i in 0..mm {
                    for j in 0..nn {
                        let o = bt * mm * nn + i * nn + j;
                        let mut acc = out[o] as u32;
                        for k in 0..kk {
                            let x = v(a.bits[bt * mm * kk + i * kk + k], sa);
                            let y = v(b.bits[bt * kk * nn + k * nn + j], sb);
                            acc = acc.wrapping_add((x * y) as u32);
                        }
                        out[o] = acc as u64;
                    }
                }
            }
            return Ok(out);
        }
        if m.opcode(op) == Opcode::MmaFScaled {
            return self.mma_scaled(op, [a, b, c], [batch, mm, nn, kk]);
        }
        let kc = crate::elementwise::kind_of(m, c.elem)?;
        let ka = crate::elementwise::kind_of(m, a.elem)?;
        let kb = crate::elementwise::kind_of(m, b.elem)?;
        let near = tilec_ir::float::Round::NearestEven;
        let ac: Vec<u64> = a
            .bits
            .iter()
            .map(|x| crate::fp::convert(ka, kc, *x, near, false))
            .collect();
        let bc: Vec<u64> = b
            .bits
            .iter()
            .map(|x| crate::fp::convert(kb, kc, *x, near, false))
            .collect();
        let order = self.variant.order;
        let mut products = Vec::with_capacity(kk);
        for bt in 0..batch {
            for i in 0..mm {
                for j in 0..nn {
                    let o = bt * mm * nn + i * nn + j;
                    let x = |k: usize| ac[bt * mm * kk + i * kk + k];
                    let y = |k: usize| bc[bt * kk * nn + k * nn + j];
                    out[o] = match order {
                        Order::Sequential => (0..kk).fold(out[o], |acc, k| {
                            crate::fp::fma(kc, x(k), y(k), acc, near, false)
                        }),
                        Order::Reversed => (0..kk).rev().fold(out[o], |acc, k| {
                            crate::fp::fma(kc, x(k), y(k), acc, near, false)
                        }),
                        Order::Tree => {
                            products.clear();
                            products.extend(
                                (0..kk).map(|k| crate::fp::mul(kc, x(k), y(k), near, false)),
                            );
                            let add = |p: u64, q: u64| crate::fp::add(kc, p, q, near, false);
                            add(out[o], pairwise(&products, &add))
                        }
                    };
                }
            }
        }
        Ok(out)
    }
}

impl Ctx<'_, '_> {
    /// `mmaf_scaled`: `acc + sum_k (lhs[i,k] * lhs_scale[i,k/V]) * (rhs[k,j] *
    /// rhs_scale[k/V,j])`. Every scaled product is exact in binary64 (the inputs have at
    /// most 4 significant bits and the scales are powers of two or `f8E4M3FN`), the sum runs
    /// in binary64 in increasing k and is rounded once to the `f32` result.
    fn mma_scaled(&self, op: Op, [a, b, c]: [&Tile; 3], dims: [usize; 4]) -> R<Vec<u64>> {
        use tilec_ir::float::{FloatKind, Round};
        let [batch, mm, nn, kk] = dims;
        let m = self.m;
        let (sa, sb) = (self.tile(m.operand(op, 3))?, self.tile(m.operand(op, 4))?);
        let rank = c.shape.len();
        let blocks = sa.shape[rank - 1] as usize;
        let v = kk / blocks.max(1);
        let near = Round::NearestEven;
        let wide = |t: &Tile| -> R<Vec<f64>> {
            let k = crate::elementwise::kind_of(m, t.elem)?;
            Ok(t.bits
                .iter()
                .map(|x| f64::from_bits(crate::fp::convert(k, FloatKind::F64, *x, near, false)))
                .collect())
        };
        let (a, b, sa, sb) = (wide(a)?, wide(b)?, wide(sa)?, wide(sb)?);
        let acc = wide(c)?;
        let mut out = vec![0; acc.len()];
        for bt in 0..batch {
            for i in 0..mm {
                for j in 0..nn {
                    let o = bt * mm * nn + i * nn + j;
                    let mut sum = acc[o];
                    for k in 0..kk {
                        let x = a[bt * mm * kk + i * kk + k]
                            * sa[bt * mm * blocks + i * blocks + k / v];
                        let y =
                            b[bt * kk * nn + k * nn + j] * sb[bt * blocks * nn + (k / v) * nn + j];
                        sum += x * y;
                    }
                    out[o] = crate::fp::convert(
                        FloatKind::F64,
                        FloatKind::F32,
                        sum.to_bits(),
                        near,
                        false,
                    );
                }
            }
        }
        Ok(out)
    }
}

impl Ctx<'_, '_> {
    /// `pack` and `unpack`: the tile's elements as a little-endian bit stream (element 0 in
    /// the lowest bits of byte 0), read back as bytes or as elements of another type.
    pub(crate) fn pack(&mut self, op: Op) -> R<()> {
        let m = self.m;
        let src = self.tile(m.operand(op, 0))?.clone();
        let r = m.result(op, 0);
        let (rshape, relem) = (self.shape_of(r), self.elem_of(r));
        let rn = rshape.iter().product::<i64>() as usize;
        let (sw, rw) = (
            m.ctx.types.storage_bits(src.elem),
            m.ctx.types.storage_bits(relem),
        );
        let enc = |e: tilec_ir::Type, b: u64| crate::mem::encode(&m.ctx.types, e, b);
        let dec = |e: tilec_ir::Type, b: u64| match tilec_ir::attrs::float_kind(&m.ctx.types, e) {
            Some(k) => crate::mem::from_memory(k, b),
            None => b,
        };
        let total = src.bits.len() as u64 * u64::from(sw);
        if total != rn as u64 * u64::from(rw) {
            return Err(format!(
                "internal error: '{}' of {total} bits into {} bits",
                m.def(op).name,
                rn as u64 * u64::from(rw)
            ));
        }
        // Gather the bit stream one element at a time, then cut it into results.
        let mut stream = vec![0u64; (total as usize).div_ceil(64)];
        for (i, &b) in src.bits.iter().enumerate() {
            let v = enc(src.elem, b) & mask(sw);
            put_bits(&mut stream, i as u64 * u64::from(sw), sw, v);
        }
        let bits = (0..rn)
            .map(|i| dec(relem, get_bits(&stream, i as u64 * u64::from(rw), rw)))
            .collect();
        self.set_tile(
            r,
            Tile {
                elem: relem,
                shape: rshape,
                bits,
            },
        );
        Ok(())
    }
}

/// Writes the `w` low bits of `v` at bit `at` of `stream`.
fn put_bits(stream: &mut [u64], at: u64, w: u32, v: u64) {
    let (word, off) = ((at / 64) as usize, (at % 64) as u32);
    stream[word] |= v << off;
    if off + w > 64 {
        stream[word + 1] |= v >> (64 - off);
    }
}

/// Reads `w` bits at bit `at` of `stream`.
fn get_bits(stream: &[u64], at: u64, w: u32) -> u64 {
    let (word, off) = ((at / 64) as usize, (at % 64) as u32);
    let mut v = stream[word] >> off;
    if off + w > 64 {
        v |= stream[word + 1] << (64 - off);
    }
    v & mask(w)
}

/// `terms` summed as a balanced tree with `add` (0 for none: +0.0's bits).
fn pairwise(terms: &[u64], add: &dyn Fn(u64, u64) -> u64) -> u64 {
    match terms.len() {
        0 => 0,
        1 => terms[0],
        n => {
            let (l, r) = terms.split_at(n / 2);
            add(pairwise(l, add), pairwise(r, add))
        }
    }
}
