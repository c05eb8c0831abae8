//! Streaming loops: elementwise pipelines from memory to memory as a PTX loop.
//!
//! A tile of 64×128 elements over 128 threads gives each thread 64 register slots. Written
//! out slot by slot, a load → elementwise math → store pipeline over it is thousands of
//! PTX instructions, most of them copies of one another, and ptxas spends most of a
//! kernel's assembly time on them (docs/ptx-backend.md, "Streaming loops"). When every
//! value of such a pipeline lives only inside it, nothing needs all slots at once: the
//! writer emits the pipeline once, for the few slots of one vector, inside a loop over
//! the layout's remaining register bits.
//!
//! A *stream* is a run of consecutive ops of one block in which
//!
//! * the *members* are view and pointer loads and stores, `iota`, `offset` and pure
//!   elementwise ops whose tiles are all in one layout `L` (the tiles they read that no
//!   member defines are *outside* values);
//! * the other ops are pure, have no regions and read no member's value: they are written
//!   before the loop;
//! * no member's tile is used outside the run (its token results may be), and at least
//!   one member stores;
//! * `L` has at least [`MIN_TRIPS`] groups of slots.
//!
//! Inside the loop the members see the *sub-layout* of `L`: its first `g` register bits
//! (the vector bits, `reg[k] == k`), while the loop counter supplies the other register
//! bits through the thread base ([`Kernel::thread_base`]), so every address, bound and
//! `iota` is computed by the ordinary lowering of each op. An outside value can be read
//! in the loop only if it is the same in every iteration: its register for slot `s` is
//! the register for slot `s mod 2^g` (constants, broadcasts along the loop's bits). If one
//! is not, the stream is written slot by slot as usual.

use super::{Kernel, Tv};
use crate::layout::Layout;
use crate::sink::{RegClass, Sink};
use std::rc::Rc;
use tilec_ir::attrs::MemoryOrdering;
use tilec_ir::ops::Traits;
use tilec_ir::util::{FxHashMap, FxHashSet};
use tilec_ir::{Op, Opcode, TypeData, Value};

/// The fewest loop iterations worth a loop: below this the slots are written out.
pub(crate) const MIN_TRIPS: usize = 4;

/// The loop being written, for [`Kernel::layout_of`] and [`Kernel::thread_base`].
pub(crate) struct StreamCtx {
    /// The members' layout.
    pub full: Rc<Layout>,
    /// Its first register bits, which the members see instead.
    pub sub: Rc<Layout>,
    /// A `.b32` register holding the loop counter's bits deposited at the element bits of
    /// `full`'s other register bits.
    pub bits: String,
}

/// A stream found by [`Kernel::plan_stream`].
struct Stream {
    /// Index one past its last op.
    end: usize,
    members: FxHashSet<Op>,
    layout: Rc<Layout>,
}

impl Kernel<'_> {
    /// Emits `ops` (a block's ops, in order), as streaming loops where possible.
    pub(crate) fn emit_ops(&mut self, ops: &[Op]) {
        let mut i = 0;
        // Runs that failed are not planned again from a later start inside them, which
        // keeps planning linear in the block's length.
        let mut next_try = 0;
        while i < ops.len() {
            if !self.opts.unroll && i >= next_try {
                match self.plan_stream(ops, i) {
                    Ok(s) => {
                        self.emit_stream(&ops[i..s.end], &s.members, s.layout);
                        i = s.end;
                        continue;
                    }
                    Err(after) => next_try = after,
                }
            }
            self.line_info(ops[i]);
            self.emit_op(ops[i]);
            i += 1;
        }
    }

    /// The layout of a member op's tiles, if `op` can be a member.
    fn member_layout(&mut self, op: Op) -> Option<Rc<Layout>> {
        use Opcode as O;
        let m = self.m;
        let tile = match m.opcode(op) {
            O::LoadViewTko | O::LoadPtrTko | O::Iota | O::Offset => m.result(op, 0),
            O::StoreViewTko => tilec_ir::segments::operand_group(m, op, "tile")[0],
            O::StorePtrTko => tilec_ir::segments::operand_group(m, op, "value")[0],
            _ => {
                let def = m.def(op);
                let ew = def.traits.contains(Traits::PURE.or(Traits::ELEMENTWISE));
                if !ew || m.num_results(op) != 1 || !m.regions(op).is_empty() {
                    return None;
                }
                m.result(op, 0)
            }
        };
        if !m.ctx.types.is_tile(m.value_type(tile)) {
            return None;
        }
        Some(self.layout_of(tile))
    }

    /// The stream starting at `ops[i]`, or the index from which to try again.
    fn plan_stream(&mut self, ops: &[Op], i: usize) -> Result<Stream, usize> {
        let m = self.m;
        let Some(layout) = self.member_layout(ops[i]) else {
            return Err(i + 1);
        };
        let g = sub_bits(&layout);
        if layout.reg.len() - g < MIN_TRIPS.trailing_zeros() as usize {
            return Err(i + 1);
        }
        let mut members = FxHashSet::default();
        // Values defined by members (tiles and tokens).
        let mut defined: FxHashSet<Value> = FxHashSet::default();
        let mut end = i;
        let mut stores = false;
        for (j, &op) in ops.iter().enumerate().skip(i) {
            let reads_member = m.operands(op).any(|v| defined.contains(&v));
            // A member ordered after another member's memory access would run before
            // that access's later iterations: such an op ends the stream.
            let ordered_after_member = m.operands(op).any(|v| {
                defined.contains(&v) && m.ctx.types.get(m.value_type(v)) == &TypeData::Token
            });
            if !ordered_after_member
                && self.member_layout(op).is_some_and(|l| l == layout)
                && self.operands_fit(op, &layout)
            {
                members.insert(op);
                defined.extend(m.results(op));
                stores |= matches!(m.opcode(op), Opcode::StoreViewTko | Opcode::StorePtrTko);
            } else if !reads_member && self.hoistable(op) {
                // Written before the loop.
            } else {
                break;
            }
            end = j + 1;
        }
        // Trailing non-members need not move before the loop.
        while end > i && !members.contains(&ops[end - 1]) {
            end -= 1;
        }
        let retry = end.max(i + 1);
        if !stores {
            return Err(retry);
        }
        // No member's tile may be used after the run.
        let escapes = members.iter().any(|&op| {
            m.results(op).any(|r| {
                m.ctx.types.is_tile(m.value_type(r)) && m.users(r).any(|u| !members.contains(&u))
            })
        });
        if escapes {
            return Err(retry);
        }
        Ok(Stream {
            end,
            members,
            layout,
        })
    }

    /// True if `op` may be written before the loop of a stream it sits in (when it reads
    /// no member's value): a pure op without regions, or a weak load (token-ordered ops
    /// are not ordered by program order, spec §8.6).
    fn hoistable(&self, op: Op) -> bool {
        let m = self.m;
        match m.opcode(op) {
            Opcode::LoadViewTko | Opcode::LoadPtrTko => {
                let (ordering, _) = self.ordering_scope(op);
                ordering.is_none_or(|o| o == MemoryOrdering::Weak)
            }
            // Layout conversions of values the loop only reads; members use no shared
            // memory, so the barriers need not stay among them.
            Opcode::ConvertLayout
            | Opcode::LocalAlloc
            | Opcode::LocalLoad
            | Opcode::LocalDealloc
            | Opcode::GpuBarrier => true,
            _ => m.def(op).traits.contains(Traits::PURE) && m.regions(op).is_empty(),
        }
    }

    /// True if every tile operand of `op` with more than one slot is in `layout` (the
    /// GPU-level IR puts elementwise operands there; this guards the rest).
    fn operands_fit(&mut self, op: Op, layout: &Layout) -> bool {
        let m = self.m;
        m.operands(op).all(|v| {
            if !m.ctx.types.is_tile(m.value_type(v))
                || m.ctx.types.shape(m.value_type(v)).is_empty()
            {
                return true;
            }
            *self.layout_of(v) == *layout
        })
    }

    /// Writes one stream: its other ops, then its members in a loop (or slot by slot when
    /// an outside value changes along the loop's bits).
    fn emit_stream(&mut self, ops: &[Op], members: &FxHashSet<Op>, full: Rc<Layout>) {
        for &op in ops.iter().filter(|op| !members.contains(op)) {
            self.line_info(op);
            self.emit_op(op);
        }
        let g = sub_bits(&full);
        let width = 1usize << g;
        // Outside values the members read in `full`, each the same in every iteration.
        let mut outside: FxHashMap<Value, Tv> = FxHashMap::default();
        for &op in ops.iter().filter(|op| members.contains(op)) {
            for v in self.m.operands(op) {
                if let Some(t) = self.tiles.get(&v)
                    && *t.layout == *full
                    && !outside.contains_key(&v)
                {
                    outside.insert(v, t.clone());
                }
            }
        }
        let invariant = outside
            .values()
            .all(|t| (0..t.regs.len()).all(|s| t.regs[s] == t.regs[s % width]));
        if !invariant {
            for &op in ops.iter().filter(|op| members.contains(op)) {
                self.line_info(op);
                self.emit_op(op);
            }
            return;
        }
        let sub = Rc::new(Layout {
            nbits: full.nbits,
            reg: full.reg[..g].to_vec(),
            lane: full.lane,
            warp: full.warp.clone(),
        });
        for (v, t) in &outside {
            let regs = t.regs[..width].to_vec();
            self.set_tile(
                *v,
                Tv {
                    layout: sub.clone(),
                    regs,
                    elem: t.elem,
                },
            );
        }
        let trips = 1usize << (full.reg.len() - g);
        let k = self.reg(RegClass::B32);
        self.ins(format!("mov.u32 {k}, 0;"));
        let top = self.label();
        self.line(format!("{top}:"));
        let moves: Vec<(u32, u32)> = full.reg[g..]
            .iter()
            .enumerate()
            .map(|(i, b)| (i as u32, *b as u32))
            .collect();
        let bits = self.move_bits(&k, &moves);
        self.stream = Some(StreamCtx {
            full: full.clone(),
            sub,
            bits,
        });
        for &op in ops.iter().filter(|op| members.contains(op)) {
            self.line_info(op);
            self.emit_op(op);
        }
        self.stream = None;
        let p = self.reg(RegClass::Pred);
        self.ins(format!("add.u32 {k}, {k}, 1;"));
        self.ins(format!("setp.lt.u32 {p}, {k}, {trips};"));
        // Keep the loop a loop: unrolled, it would be the code this avoids.
        self.ins(".pragma \"nounroll\";");
        self.ins(format!("@{p} bra.uni {top};"));
        for (v, t) in outside {
            self.set_tile(v, t);
        }
    }
}

/// The register bits of `l` a loop iteration covers: its leading vector bits
/// (`reg[k] == k`, at most four: sixteen byte elements, one 128-bit access).
fn sub_bits(l: &Layout) -> usize {
    let mut g = 0;
    while g < l.reg.len() && g < 4 && l.reg[g] as usize == g {
        g += 1;
    }
    g
}
