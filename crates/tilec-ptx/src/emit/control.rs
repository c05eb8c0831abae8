//! Structured control flow (if, for, loop and their terminators), print and assert.
//! Conditions are rank-0 values every thread holds, so every branch is uniform.

use super::{Kernel, LoopCtx, Tv, class_of};
use crate::layout::shape_bits;
use crate::sink::{RegClass, Sink};
use tilec_ir::attrs::AttrData;
use tilec_ir::segments::operand_group;
use tilec_ir::{Op, Opcode, Type, Value};

impl Kernel<'_> {
    /// Fresh registers with the layout of `t` (for loop-carried and `if` result values).
    fn fresh_like(&mut self, t: &Tv) -> Tv {
        let regs = (0..t.regs.len())
            .map(|_| self.reg(class_of(t.elem)))
            .collect();
        Tv {
            layout: t.layout.clone(),
            regs,
            elem: t.elem,
        }
    }

    /// Fresh registers for a loop's carried values, initialised from `inits` and bound to
    /// the body's block arguments `args`.
    fn enter_loop(&mut self, inits: &[Value], args: &[Value]) -> Vec<Tv> {
        let iter: Vec<Tv> = inits
            .iter()
            .map(|v| {
                let t = self.tile(*v);
                self.fresh_like(&t)
            })
            .collect();
        self.parallel_copy(&iter, inits);
        for (a, t) in args.iter().zip(&iter) {
            self.set_tile(*a, t.clone());
        }
        iter
    }

    /// The result registers of slot `i`: those already chosen by an earlier yield or
    /// break, or fresh ones in the layout of `v`.
    fn result_regs(&mut self, slot: &mut Option<Tv>, v: Value) -> Tv {
        if let Some(t) = slot {
            return t.clone();
        }
        let t = self.tile(v);
        let fresh = self.fresh_like(&t);
        *slot = Some(fresh.clone());
        fresh
    }

    /// Moves the values into the destination registers as a parallel copy (sources are
    /// read before any destination is written).
    fn parallel_copy(&mut self, dsts: &[Tv], vals: &[Value]) {
        // A value already in its destination registers (a loop-carried accumulator a
        // warpgroup MMA updated in place) is not copied: no instruction touches them.
        let mut staged = Vec::new();
        for (d, v) in dsts.iter().zip(vals) {
            let t = self.tile_in(*v, &d.layout);
            if t.regs == d.regs {
                staged.push(None);
                continue;
            }
            let tmp = self.fresh_like(d);
            for (a, b) in tmp.regs.iter().zip(&t.regs) {
                self.copy_reg(d.elem, a, b);
            }
            staged.push(Some(tmp));
        }
        for (d, t) in dsts.iter().zip(&staged) {
            let Some(t) = t else { continue };
            for (a, b) in d.regs.iter().zip(&t.regs) {
                self.copy_reg(d.elem, a, b);
            }
        }
    }

    pub(crate) fn emit_if(&mut self, op: Op) {
        let m = self.m;
        let cond = self.scalar(m.operand(op, 0));
        let else_l = self.label();
        let end_l = self.label();
        self.ins(format!("@!{cond} bra.uni {else_l};"));
        self.ifs.push((op, vec![None; m.num_results(op)]));
        if let Some(b) = m.entry_block(m.region(op, 0)) {
            self.emit_block(b);
        }
        self.ins(format!("bra.uni {end_l};"));
        self.ins(format!("{else_l}:"));
        if let Some(r) = m.regions(op).get(1)
            && let Some(b) = m.entry_block(*r)
        {
            self.emit_block(b);
        }
        self.ins(format!("{end_l}:"));
        let (_, results) = self.ifs.pop().expect("if context");
        for (i, r) in results.into_iter().enumerate() {
            if let Some(t) = r {
                self.set_tile(m.result(op, i), t);
            }
        }
    }

    /// `ttg.mask %p { ... ttg.mask.return %v }`: the body runs only when `%p` holds (a
    /// uniform branch around it); the results are the returned values' registers, left
    /// undefined when the body is skipped.
    pub(crate) fn emit_mask(&mut self, op: Op) {
        let m = self.m;
        let p = self.scalar(m.operand(op, 0));
        let skip = self.label();
        self.ins(format!("@!{p} bra.uni {skip};"));
        let mut returned = Vec::new();
        if let Some(b) = m.entry_block(m.region(op, 0)) {
            for o in m.block_ops(b).collect::<Vec<_>>() {
                if m.opcode(o) == Opcode::MaskReturn {
                    returned = m.operands(o).collect();
                } else {
                    self.line_info(o);
                    self.emit_op(o);
                }
            }
        }
        self.ins(format!("{skip}:"));
        for (i, v) in returned.into_iter().enumerate() {
            let t = self.tile(v);
            self.set_tile(m.result(op, i), t);
        }
    }

    /// `ttg.warp_specialize` (docs/hopper.md, "Warp specialization"): the warps past the
    /// default region's (`32 * num_warps` threads and up) branch to the partition, which
    /// they run with their own thread numbering (its first thread leads its single-thread
    /// instructions; after `setmaxnreg`, only its first warp) and end the kernel at its
    /// `ttg.warp_return`; the default region's
    /// warps run theirs, its results the values it yields, and from there on every CTA
    /// barrier counts only their threads. With `actualRegisters`, each side first moves
    /// to its register count (`setmaxnreg`).
    pub(crate) fn emit_warp_specialize(&mut self, op: Op) {
        let m = self.m;
        let base = self.opts.threads();
        let regs = tilec_gpuir::ws::actual_registers(m, op);
        let (part, join) = (self.label(), self.label());
        let p = self.reg(RegClass::Pred);
        let tid = self.tid.clone();
        self.ins(format!("setp.ge.u32 {p}, {tid}, {base};"));
        self.ins(format!("@{p} bra.uni {part};"));
        // From here on the partition's warps take no part in the CTA's barriers.
        self.bar_threads = Some(base);
        if let Some((default, _)) = regs {
            self.ins(format!("setmaxnreg.inc.sync.aligned.u32 {default};"));
        }
        let mut yielded = Vec::new();
        if let Some(b) = m.entry_block(m.region(op, 0)) {
            for o in m.block_ops(b).collect::<Vec<_>>() {
                if m.opcode(o) == Opcode::WarpYield {
                    yielded = m.operands(o).collect();
                } else {
                    self.line_info(o);
                    self.emit_op(o);
                }
            }
        }
        let tiles: Vec<_> = yielded.iter().map(|v| self.tile(*v)).collect();
        self.ins(format!("bra.uni {join};"));
        self.ins(format!("{part}:"));
        let own = self.reg(RegClass::B32);
        self.ins(format!("sub.u32 {own}, {tid}, {base};"));
        if let Some((_, partition)) = regs {
            self.ins(format!("setmaxnreg.dec.sync.aligned.u32 {partition};"));
            // The partition is scalar code (gpu-verify), which its first warp runs: the
            // others only gave their registers back, and end here rather than spin on
            // the same waits beside the MMA warps.
            let rest = self.reg(RegClass::Pred);
            self.ins(format!("setp.ge.u32 {rest}, {own}, 32;"));
            self.ins(format!("@{rest} exit;"));
        }
        self.tid = own;
        if let Some(b) = m.entry_block(m.region(op, 1)) {
            for o in m.block_ops(b).collect::<Vec<_>>() {
                if m.opcode(o) == Opcode::WarpReturn {
                    // The slots of the tensor maps the partition claimed go back first.
                    self.release_scratch();
                    self.ins("exit;");
                } else {
                    self.line_info(o);
                    self.emit_op(o);
                }
            }
        }
        self.tid = tid;
        self.ins(format!("{join}:"));
        for (i, t) in tiles.into_iter().enumerate() {
            self.set_tile(m.result(op, i), t);
        }
    }

    pub(crate) fn emit_yield(&mut self, op: Op) {
        let m = self.m;
        let Some(parent) = m.op_block(op).and_then(|b| m.block_parent_op(b)) else {
            return;
        };
        if m.opcode(parent) != Opcode::If {
            return; // reduce/scan bodies are handled by their op
        }
        let vals: Vec<Value> = m.operands(op).collect();
        let Some(pos) = self.ifs.iter().rposition(|(o, _)| *o == parent) else {
            return;
        };
        let mut slots = std::mem::take(&mut self.ifs[pos].1);
        let dsts: Vec<Tv> = vals
            .iter()
            .zip(slots.iter_mut())
            .map(|(v, slot)| self.result_regs(slot, *v))
            .collect();
        self.ifs[pos].1 = slots;
        self.parallel_copy(&dsts, &vals);
    }

    pub(crate) fn emit_for(&mut self, op: Op) {
        let m = self.m;
        let lb = self.scalar(m.operand(op, 0));
        let ub = self.scalar(m.operand(op, 1));
        let step = self.scalar(m.operand(op, 2));
        let inits = operand_group(m, op, "initValues");
        let ity = self.elem(m.operand(op, 0));
        let unsigned = m.attr_named(op, "unsignedCmp").is_some();
        let block = m.entry_block(m.region(op, 0)).expect("for body");
        let args = m.block_args(block).to_vec();
        let iv = self.reg(class_of(ity));
        self.copy_reg(ity, &iv, &lb);
        self.set_scalar(args[0], ity, iv.clone());
        let iter = self.enter_loop(&inits, &args[1..]);
        let head = self.label();
        let latch = self.label();
        let exit = self.label();
        let bits = if class_of(ity) == RegClass::B64 {
            64
        } else {
            32
        };
        let cmp = if unsigned {
            format!("u{bits}")
        } else {
            format!("s{bits}")
        };
        self.ins(format!("{head}:"));
        let p = self.reg(RegClass::Pred);
        self.ins(format!("setp.ge.{cmp} {p}, {iv}, {ub};"));
        self.ins(format!("@{p} bra.uni {exit};"));
        self.loops.push(LoopCtx {
            latch: latch.clone(),
            exit: exit.clone(),
            iter: iter.clone(),
            results: Vec::new(),
        });
        self.emit_block(block);
        self.loops.pop();
        self.ins(format!("{latch}:"));
        self.ins(format!("add.s{bits} {iv}, {iv}, {step};"));
        if ity != Type::I32 && ity != Type::I64 {
            self.norm(super::arith::int_width(ity), &iv);
        }
        self.ins(format!("bra.uni {head};"));
        self.ins(format!("{exit}:"));
        for (i, t) in iter.into_iter().enumerate() {
            self.set_tile(m.result(op, i), t);
        }
    }

    pub(crate) fn emit_loop(&mut self, op: Op) {
        let m = self.m;
        let inits: Vec<Value> = m.operands(op).collect();
        let block = m.entry_block(m.region(op, 0)).expect("loop body");
        let args = m.block_args(block).to_vec();
        let iter = self.enter_loop(&inits, &args);
        let head = self.label();
        let exit = self.label();
        self.ins(format!("{head}:"));
        self.loops.push(LoopCtx {
            latch: head.clone(),
            exit: exit.clone(),
            iter,
            results: vec![None; m.num_results(op)],
        });
        self.emit_block(block);
        self.ins(format!("bra.uni {head};"));
        self.ins(format!("{exit}:"));
        let ctx = self.loops.pop().expect("loop context");
        for (i, t) in ctx.results.into_iter().enumerate() {
            if let Some(t) = t {
                self.set_tile(m.result(op, i), t);
            }
        }
    }

    pub(crate) fn emit_continue(&mut self, op: Op) {
        let vals: Vec<Value> = self.m.operands(op).collect();
        let Some(ctx) = self.loops.last().cloned() else {
            return;
        };
        self.parallel_copy(&ctx.iter, &vals);
        self.ins(format!("bra.uni {};", ctx.latch));
    }

    pub(crate) fn emit_break(&mut self, op: Op) {
        let vals: Vec<Value> = self.m.operands(op).collect();
        let Some(pos) = self.loops.len().checked_sub(1) else {
            return;
        };
        let mut slots = std::mem::take(&mut self.loops[pos].results);
        let dsts: Vec<Tv> = vals
            .iter()
            .zip(slots.iter_mut())
            .map(|(v, slot)| self.result_regs(slot, *v))
            .collect();
        self.loops[pos].results = slots;
        self.parallel_copy(&dsts, &vals);
        let exit = self.loops[pos].exit.clone();
        self.ins(format!("bra.uni {exit};"));
    }

    /// A NUL-terminated string in global memory; returns a `.b64` generic address.
    fn string_const(&mut self, s: &str) -> String {
        let id = self.module_data.next_const;
        self.module_data.next_const += 1;
        let name = format!("__tilec_str{id}");
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        self.module_data.decls.push(format!(
            ".global .align 1 .b8 {name}[{}] = {{{}}};",
            bytes.len(),
            super::join_bytes(&bytes)
        ));
        let r = self.reg(RegClass::B64);
        self.ins(format!("mov.u64 {r}, {name};"));
        self.ins(format!("cvta.global.u64 {r}, {r};"));
        r
    }

    /// Calls `vprintf(fmt, args)`; `args` are (register, element type) pairs stored into a
    /// local buffer as C's default argument promotions want (ints as 32/64-bit, floats as
    /// double).
    fn vprintf(&mut self, fmt: &str, args: &[(String, Type)], guard: Option<&str>) {
        self.module_data.uses_vprintf = true;
        let f = self.string_const(fmt);
        let id = self.labels;
        let size = (args.len().max(1) * 8) as u32;
        let buf = format!("__tilec_va{id}_{}", self.lines.len());
        self.ins(format!("{{ .local .align 8 .b8 {buf}[{size}];"));
        let skip = self.label();
        if let Some(g) = guard {
            self.ins(format!("@!{g} bra.uni {skip};"));
        }
        let base = self.reg(RegClass::B64);
        self.ins(format!("mov.u64 {base}, {buf};"));
        self.ins(format!("cvta.local.u64 {base}, {base};"));
        for (i, (r, t)) in args.iter().enumerate() {
            let off = i * 8;
            match *t {
                Type::F16
                | Type::BF16
                | Type::F32
                | Type::TF32
                | Type::F8E4M3FN
                | Type::F8E5M2
                | Type::F8E8M0FNU
                | Type::F4E2M1FN => {
                    let d = self.float_to_float(*t, Type::F64, None, r);
                    self.ins(format!("st.local.f64 [{buf}+{off}], {d};"));
                }
                Type::F64 => self.ins(format!("st.local.f64 [{buf}+{off}], {r};")),
                Type::I64 => self.ins(format!("st.local.u64 [{buf}+{off}], {r};")),
                Type::I1 => {
                    let w = self.reg(RegClass::B32);
                    self.ins(format!("selp.u32 {w}, 1, 0, {r};"));
                    self.ins(format!("st.local.u32 [{buf}+{off}], {w};"));
                }
                Type::I4 | Type::I8 | Type::I16 | Type::I32 => {
                    self.ins(format!("st.local.u32 [{buf}+{off}], {r};"))
                }
                _ => self.ins(format!("st.local.u64 [{buf}+{off}], {r};")),
            }
        }
        self.ins("{ .param .b64 param0; .param .b64 param1; .param .b32 retval0;");
        self.ins(format!("st.param.b64 [param0], {f};"));
        self.ins(format!("st.param.b64 [param1], {base};"));
        self.ins("call.uni (retval0), vprintf, (param0, param1);");
        self.ins("}");
        self.ins(format!("{skip}:"));
        self.ins("}");
    }

    /// `print`: each element is printed once, by the thread owning it; rank-0 values are
    /// printed by thread 0.
    pub(crate) fn emit_print(&mut self, op: Op) {
        let m = self.m;
        let fmt = match m.attr_named(op, "str").map(|a| m.ctx.attrs.get(a)) {
            Some(AttrData::String(s)) => s.to_string(),
            _ => String::new(),
        };
        // Tile IR's %f and %d map to C's: doubles and 32/64-bit integers.
        let args = operand_group(m, op, "args");
        let token = operand_group(m, op, "token").first().copied();
        // The largest argument drives the printing: one line per element it holds, in its
        // layout, which convert-to-gpu gave every argument of its size. Smaller arguments
        // (rank-0 ones: every thread holds them) repeat on every line.
        let driver = tilec_gpuir::sizes::print_driver(m, &args);
        let layout = match driver {
            Some(v) => self.layout_of(v),
            None => self.default_layout(&[]),
        };
        let tvs: Vec<Tv> = args
            .iter()
            .map(|v| {
                if shape_bits(&self.shape(*v)) == layout.nbits {
                    self.tile_in(*v, &layout)
                } else {
                    self.tile(*v)
                }
            })
            .collect();
        let c_fmt = c_format(&fmt, &tvs.iter().map(|t| t.elem).collect::<Vec<_>>());
        let owner = if layout.is_replicated() {
            let tid = self.tid.clone();
            let p = self.reg(RegClass::Pred);
            self.ins(format!("setp.eq.u32 {p}, {tid}, 0;"));
            Some(p)
        } else {
            self.owner(&layout)
        };
        for s in 0..layout.slots() {
            let a: Vec<(String, Type)> = tvs
                .iter()
                .map(|t| (t.regs[s % t.regs.len()].clone(), t.elem))
                .collect();
            self.vprintf(&c_fmt, &a, owner.as_deref());
        }
        if m.num_results(op) > 0 {
            let d = token
                .and_then(|t| self.dirty.get(&t).copied())
                .unwrap_or(false);
            self.dirty.insert(m.result(op, 0), d);
        }
    }

    /// `assert`: when any element of the condition is false, print the message and trap.
    pub(crate) fn emit_assert(&mut self, op: Op) {
        let m = self.m;
        let msg = match m.attr_named(op, "message").map(|a| m.ctx.attrs.get(a)) {
            Some(AttrData::String(s)) => s.to_string(),
            _ => String::new(),
        };
        let cond = self.tile(m.operand(op, 0));
        let ok = self.label();
        let all = self.reg(RegClass::Pred);
        self.ins(format!("setp.eq.u32 {all}, 0, 0;"));
        for r in &cond.regs {
            self.ins(format!("and.pred {all}, {all}, {r};"));
        }
        self.ins(format!("@{all} bra {ok};"));
        self.vprintf(&format!("{}\n", msg.replace('%', "%%")), &[], None);
        self.ins("trap;");
        self.ins(format!("{ok}:"));
    }
}

/// Rewrites tile IR's format specifiers for C's vprintf: `%d` becomes `%lld` for 64-bit
/// arguments and `%f` stays `%f` (arguments are passed as doubles).
fn c_format(fmt: &str, elems: &[Type]) -> String {
    let mut out = String::new();
    let mut arg = 0;
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('%') => out.push_str("%%"),
            Some('d') => {
                let wide = matches!(elems.get(arg), Some(t) if *t == Type::I64 || !matches!(*t, Type::I1 | Type::I4 | Type::I8 | Type::I16 | Type::I32 | Type::F16 | Type::BF16 | Type::F32 | Type::F64 | Type::TF32 | Type::F8E4M3FN | Type::F8E5M2 | Type::F8E8M0FNU | Type::F4E2M1FN));
                out.push_str(if wide { "%lld" } else { "%d" });
                arg += 1;
            }
            Some(o) => {
                out.push('%');
                out.push(o);
                arg += 1;
            }
            None => out.push('%'),
        }
    }
    out
}
