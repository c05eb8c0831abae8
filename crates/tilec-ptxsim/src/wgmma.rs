//! Hopper warpgroup MMA (`wgmma`, sm_90a), from the PTX ISA (9.7.15, "Asynchronous
//! Warpgroup Level Matrix Multiply-Accumulate Instructions"), independently of the
//! compiler.
//!
//! * `wgmma.mma_async.sync.aligned.m64nNkK[.satfinite].DTYPE.ATYPE.BTYPE` for every dense
//!   form: `.f16`/`.bf16` inputs with K = 16 (`.f32` accumulators, and `.f16` ones for
//!   `.f16`), `.tf32` with K = 8 (`.f32`), `.e4m3`/`.e5m2` in any mix with K = 32 (`.f32` or
//!   `.f16`), `.s8`/`.u8` in any mix with K = 32 (`.s32`, `.satfinite` optional); N from 8
//!   to 256 in steps of 8 (the integer forms: 8, 16, 24, then steps of 16). A comes from a
//!   shared-memory matrix descriptor or from four registers, B from a descriptor.
//!   `.sp` (sparse) and the `.b1` forms are rejected as unsupported.
//! * `wgmma.fence`, `wgmma.commit_group`, `wgmma.wait_group N`.
//!
//! Numerics: the products are exact (in f64: the inputs have at most 11 significant
//! bits), summed in f64 in K order, then the accumulator is added (when `scale-d` is
//! true) and the sum rounded once to the accumulator type, to nearest even: the same
//! choice as the simulator's `mma.sync`. The ISA leaves the internal precision and order
//! of the tensor cores' accumulation unspecified; with inputs whose sums are exact in
//! f32 (the tests', and tilec's integer-valued test data) every order gives this result.
//! Integer forms are exact: the s32 accumulator wraps around, or with `.satfinite`
//! clamps to the s32 range. (The ISA notes that the hardware accumulates `.e4m3`/`.e5m2`
//! products into `.f32` "at higher than half precision but lower than single precision":
//! there the simulator can be more precise than an H100 when sums need more than the
//! hardware's bits.)
//!
//! Asynchrony: an `mma_async` is computed when it is issued (its accumulator written at
//! once), and the registers and shared bytes it uses are then "in flight" until a
//! `wgmma.wait_group` retires its group. Every observable difference with the hardware is
//! an error instead: another instruction accessing (reading or writing) an in-flight
//! accumulator or A register, a write to a shared byte an in-flight `mma_async` reads, a
//! register access between the last `wgmma.fence` and an `mma_async` using the register
//! as accumulator or A (except the accumulator chaining of `mma_async`s of one shape, which
//! the ISA orders by itself), an `mma_async` before any `wgmma.fence`, shared bytes written
//! with no barrier before the `mma_async` reads them, or written through the generic proxy
//! (`st.shared`, `cp.async`, ...) with no `fence.proxy.async` by the writing thread after
//! the write (the ISA: `mma_async` reads shared memory through the async proxy, while
//! `st.shared` and `cp.async` write through the generic one).
//!
//! The CTA's scheduler calls three hooks (lib.rs, sync.rs): [`Cta::wgmma_watch`] before
//! every instruction of a warp, [`Cta::wgmma_smem_write`] for every shared byte written,
//! and [`Cta::wgmma`] once per warpgroup for a `wgmma` instruction (a warpgroup
//! collective: the scheduler holds each warp until all four reach it). The reads of an
//! `mma_async` go through the race detector as the first thread's; `wait_group` joins the
//! warpgroup's clocks, and `fence.proxy.async` is the race detector's per-thread fence.

use crate::{Cta, Inst, Kernel, Opnd, Stats, bf16_to_f32, f16_to_f32, sext};
use std::collections::{HashMap, VecDeque};
use tilec_interp::fp;
use tilec_ir::float::{FloatKind, Round};

/// The swizzling mode of a matrix descriptor (bits 62-63: 0 none, 1 128B, 2 64B, 3 32B).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Swizzle {
    None,
    B32,
    B64,
    B128,
}

impl Swizzle {
    /// The bytes of one row of the swizzle atom: the distance of consecutive rows (8 of
    /// them make a core-matrix group) in the layout; 16 without swizzling (the 8x16-byte
    /// core matrix).
    pub(crate) fn row_bytes(self) -> u64 {
        match self {
            Swizzle::None => 16,
            Swizzle::B32 => 32,
            Swizzle::B64 => 64,
            Swizzle::B128 => 128,
        }
    }

    /// The swizzled shared-memory address of byte `addr`: the 16-byte chunk index (address
    /// bits 4..) XORed with the row phase (address bits 7..), 3 bits for 128B, 2 for 64B,
    /// 1 for 32B (the repeating patterns of 1024, 512 and 256 bytes the ISA's "Matrix
    /// Descriptor Format" aligns the pattern to when the base offset is 0).
    pub(crate) fn apply(self, addr: u64) -> u64 {
        let bits = match self {
            Swizzle::None => return addr,
            Swizzle::B32 => 1,
            Swizzle::B64 => 2,
            Swizzle::B128 => 3,
        };
        addr ^ (((addr >> 7) & ((1 << bits) - 1)) << 4)
    }
}

/// A decoded shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor Format"): the
/// 14-bit fields hold `(x & 0x3FFFF) >> 4` of the byte values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Desc {
    /// Bits 0-13: the matrix start address (bytes).
    pub start: u64,
    /// Bits 16-29: the leading dimension byte offset.
    pub lbo: u64,
    /// Bits 32-45: the stride dimension byte offset.
    pub sbo: u64,
    /// Bits 49-51: the matrix base offset.
    pub base_offset: u64,
    /// Bits 62-63.
    pub swizzle: Swizzle,
}

/// The bits the descriptor format leaves unused (14-15, 30-31, 46-48, 52-61).
const RESERVED: u64 = 0b11 << 14 | 0b11 << 30 | 0b111 << 46 | 0x3FF << 52;

/// Decodes a 64-bit matrix descriptor. Set reserved bits and a nonzero base offset are
/// errors (the ISA does not define how the base offset enters the swizzle; every
/// descriptor tilec, CUTLASS and Triton build has 0 there).
pub(crate) fn decode(d: u64) -> Result<Desc, String> {
    if d & RESERVED != 0 {
        return Err(format!(
            "matrix descriptor {d:#018x} sets reserved bits {:#x}",
            d & RESERVED
        ));
    }
    let field = |at: u32| (d >> at & 0x3FFF) << 4;
    let desc = Desc {
        start: field(0),
        lbo: field(16),
        sbo: field(32),
        base_offset: d >> 49 & 7,
        swizzle: match d >> 62 {
            0 => Swizzle::None,
            1 => Swizzle::B128,
            2 => Swizzle::B64,
            _ => Swizzle::B32,
        },
    };
    if desc.base_offset != 0 {
        return Err(format!(
            "matrix descriptor {d:#018x}: base offset {} (unsupported: only 0)",
            desc.base_offset
        ));
    }
    Ok(desc)
}

/// The shared-memory byte address of element (`mn`, `k`) of an operand of `eb`-byte
/// elements (A: `mn` is the row m; B: `mn` is the column n), from its descriptor
/// (PTX ISA, "Shared Memory Matrix Layout" and "Strides"; CUTLASS's canonical GMMA
/// layouts, `make_gmma_desc`, say the same in units of 16 bytes):
///
/// * K-major (`imm-trans` 0): 8 consecutive rows (M or N) lie `row_bytes` apart (16 bytes
///   without swizzling: the 8x16-byte core matrix; else the swizzle width), the groups of
///   8 rows SBO apart; along K the bytes are contiguous within a 16-byte chunk, and the
///   next 16 bytes of K lie LBO further without swizzling, 16 bytes further with it (LBO
///   is unused: a swizzled row holds the instruction's 32 bytes of K).
/// * MN-major (`imm-trans` 1, 16-bit types): a row of the layout holds `row_bytes` of
///   consecutive M/N elements at one k; 8 consecutive k lie `row_bytes` apart. Without
///   swizzling the next 8 M/N elements lie SBO further and the next 8 k LBO further; with
///   swizzling the next `row_bytes` of M/N lie LBO further (the next swizzle atom) and the
///   next 8 k SBO further.
///
/// The swizzle is then applied to the address.
pub(crate) fn element_addr(d: &Desc, mn_major: bool, mn: u64, k: u64, eb: u64) -> u64 {
    let rb = d.swizzle.row_bytes();
    let plain = d.swizzle == Swizzle::None;
    let off = if mn_major {
        let per_row = rb / eb;
        let (mn_step, k_step) = if plain {
            (d.sbo, d.lbo)
        } else {
            (d.lbo, d.sbo)
        };
        (mn % per_row) * eb + (mn / per_row) * mn_step + (k % 8) * rb + (k / 8) * k_step
    } else {
        let kb = k * eb;
        let chunk_step = if plain { d.lbo } else { 16 };
        (mn % 8) * rb + (mn / 8) * d.sbo + kb % 16 + (kb / 16) * chunk_step
    };
    d.swizzle.apply(d.start + off)
}

/// The (row, k) of element `i` (in register order, each register's low bits first) that
/// lane `lane` of warp `w` of the warpgroup holds in an A fragment from registers, for
/// `eb`-byte elements (PTX ISA, "Register Fragments": the m64nNk16 / k8 / k32 figures;
/// each warp holds 16 rows as `mma.m16n8kK` does).
pub(crate) fn a_fragment(eb: u64, w: u64, lane: u64, i: u64) -> (u64, u64) {
    let (g, q) = (lane / 4, lane % 4);
    match eb {
        // .f16/.bf16 (k16): a0,a1 (g, 2q..), a2,a3 (g+8, 2q..), a4,a5 (g, 2q+8..), a6,a7 (g+8, 2q+8..).
        2 => (16 * w + g + 8 * (i / 2 % 2), 2 * q + i % 2 + 8 * (i / 4)),
        // .tf32 (k8): a0 (g, q), a1 (g+8, q), a2 (g, q+4), a3 (g+8, q+4).
        4 => (16 * w + g + 8 * (i % 2), q + 4 * (i / 2)),
        // 8-bit (k32): a0..a3 (g, 4q..), a4..a7 (g+8, 4q..), a8..a11 (g, 4q+16..), a12..a15 (g+8, 4q+16..).
        _ => (16 * w + g + 8 * (i / 4 % 2), 4 * q + i % 4 + 16 * (i / 8)),
    }
}

/// The (row, column) of accumulator element `i` (of N/2) that lane `lane` of warp `w`
/// holds (PTX ISA, "Register Fragments", the D figure of m64nNk*): the 64xN matrix as
/// N/8 column blocks of 8, each laid out as `mma.m16n8`'s C per warp: row `16 w + lane/4`
/// (+8 for `i % 4` in 2..4), column `8 (i/4) + 2 (lane%4) + i%2`.
pub(crate) fn d_fragment(w: u64, lane: u64, i: u64) -> (u64, u64) {
    let (g, q) = (lane / 4, lane % 4);
    (16 * w + g + 8 * (i / 2 % 2), 8 * (i / 4) + 2 * q + i % 2)
}

/// An instruction's form: `m64nNkK`, the types, `.satfinite`.
struct Form<'a> {
    n: u64,
    k: u64,
    dty: &'a str,
    aty: &'a str,
    bty: &'a str,
    sat: bool,
}

impl Form<'_> {
    /// Bytes of an A/B element.
    fn eb(&self) -> u64 {
        match self.aty {
            "f16" | "bf16" => 2,
            "tf32" => 4,
            _ => 1,
        }
    }

    /// Accumulator registers per thread.
    fn d_regs(&self) -> usize {
        let per = if self.dty == "f16" { 4 } else { 2 };
        (self.n / per) as usize
    }

    fn int(&self) -> bool {
        self.dty == "s32"
    }
}

fn form<'a>(inst: &Inst, p: &[&'a str]) -> Result<Form<'a>, String> {
    let line = inst.line;
    let bad = || format!("line {line}: unsupported wgmma form {}", inst.op);
    let ["wgmma", "mma_async", "sync", "aligned", rest @ ..] = p else {
        return Err(bad());
    };
    // `.satfinite` after the shape (the ISA's syntax) or last (as CUTLASS writes it).
    let sat = rest.contains(&"satfinite");
    let rest: Vec<&str> = rest.iter().copied().filter(|q| *q != "satfinite").collect();
    let [shape, dty, aty, bty] = rest[..] else {
        return Err(bad());
    };
    let k = match (dty, aty, bty) {
        ("f16" | "f32", "f16", "f16") | ("f32", "bf16", "bf16") => 16,
        ("f32", "tf32", "tf32") => 8,
        ("f16" | "f32", "e4m3" | "e5m2", "e4m3" | "e5m2") | ("s32", "s8" | "u8", "s8" | "u8") => 32,
        _ => return Err(bad()),
    };
    if sat && dty != "s32" {
        return Err(bad());
    }
    let n = shape
        .strip_prefix("m64n")
        .and_then(|r| r.strip_suffix(&format!("k{k}")))
        .and_then(|n| n.parse::<u64>().ok())
        .ok_or_else(bad)?;
    let steps = n % 8 == 0 && (8..=256).contains(&n);
    // Integer forms: N = 8, 16, 24, then multiples of 16 (ISA; CUTLASS's list agrees).
    if !steps || (dty == "s32" && n > 24 && n % 16 != 0) {
        return Err(bad());
    }
    Ok(Form {
        n,
        k,
        dty,
        aty,
        bty,
        sat,
    })
}

/// How an `mma_async` used a register: as accumulator (of a shape) or as A.
#[derive(Clone, Debug)]
struct Use {
    line: usize,
    /// `Some(shape)` for the accumulator, `None` for an A fragment register.
    acc: Option<String>,
}

/// An issued `mma_async`, in flight until a `wait_group` retires its group.
struct Op {
    regs: Vec<(usize, Use)>,
    bytes: Vec<usize>,
}

/// One warpgroup's wgmma state.
#[derive(Default)]
struct Warpgroup {
    /// Whether it executed a `wgmma.fence`.
    fenced: bool,
    /// Registers other instructions accessed since the last `wgmma.fence`, with the line.
    touched: HashMap<usize, usize>,
    /// Registers `mma_async`s used since the last `wgmma.fence`.
    used: HashMap<usize, Use>,
    /// Issued, not committed.
    open: Vec<Op>,
    /// Committed groups, oldest first.
    groups: VecDeque<Vec<Op>>,
    /// The registers of the in-flight operations (open and committed).
    inflight: HashMap<usize, Use>,
}

impl Warpgroup {
    fn rebuild_inflight(&mut self) {
        self.inflight.clear();
        for op in self.open.iter().chain(self.groups.iter().flatten()) {
            for (r, u) in &op.regs {
                self.inflight.insert(*r, u.clone());
            }
        }
    }
}

/// The CTA's wgmma bookkeeping.
pub(crate) struct State {
    /// Whether the kernel has any `wgmma` instruction (all the bookkeeping is off if not).
    pub(crate) on: bool,
    wgs: Vec<Warpgroup>,
    /// Per shared byte: the in-flight `mma_async`s reading it, and the line of the last.
    pub(crate) busy: Vec<(u32, u32)>,
}

impl State {
    pub(crate) fn new(k: &Kernel, smem_bytes: usize) -> State {
        let on = k.insts.iter().any(|i| i.op.starts_with("wgmma."));
        let bytes = if on { smem_bytes } else { 0 };
        State {
            on,
            wgs: (0..k.threads.div_ceil(128))
                .map(|_| Warpgroup::default())
                .collect(),
            busy: vec![(0, 0); bytes],
        }
    }
}

fn reg_name(k: &Kernel, r: usize) -> &str {
    k.reg_names.get(r).map_or("?", String::as_str)
}

/// The registers an operand names (a vector's, an address's base).
fn regs_of(o: &Opnd, out: &mut Vec<usize>) {
    match o {
        Opnd::Reg(r) | Opnd::Mem(crate::Base::Reg(r), _) => out.push(*r),
        Opnd::Vec(v) => v.iter().for_each(|x| regs_of(x, out)),
        _ => {}
    }
}

/// Reads an `eb`-byte little-endian element.
fn load(smem: &[u8], at: usize, eb: usize) -> u64 {
    smem[at..at + eb]
        .iter()
        .rev()
        .fold(0, |x, b| x << 8 | u64::from(*b))
}

/// The value of an A/B element of type `ty` (of `mma.sync` too).
pub(crate) fn value(ty: &str, bits: u64) -> f64 {
    let f8 = |k: FloatKind| {
        f64::from_bits(fp::convert(
            k,
            FloatKind::F64,
            bits,
            Round::NearestEven,
            false,
        ))
    };
    match ty {
        "f16" => f64::from(f16_to_f32(bits as u16)),
        "bf16" => f64::from(bf16_to_f32(bits as u16)),
        // The tensor cores read the 19 high bits of a .tf32 operand.
        "tf32" => f64::from(f32::from_bits(bits as u32 & !0x1FFF)),
        "e4m3" => f8(FloatKind::F8E4M3FN),
        "e5m2" => f8(FloatKind::F8E5M2),
        "s8" => sext(bits, 8) as f64,
        _ => (bits & 0xFF) as f64,
    }
}

impl Cta<'_> {
    /// One `wgmma` instruction for the warpgroup whose first thread is `t0`.
    pub(crate) fn wgmma(
        &mut self,
        inst: &Inst,
        p: &[&str],
        t0: usize,
        stats: &mut Stats,
    ) -> Result<(), String> {
        let line = inst.line;
        let g = t0 / 128;
        let plain = |n_args: usize| {
            p.len() == 4 && p[2..] == ["sync", "aligned"] && inst.args.len() == n_args
        };
        match p.get(1).copied() {
            Some("fence") if plain(0) => {
                let wg = &mut self.wg.wgs[g];
                wg.fenced = true;
                wg.touched.clear();
                wg.used.clear();
            }
            Some("commit_group") if plain(0) => {
                let wg = &mut self.wg.wgs[g];
                let ops = std::mem::take(&mut wg.open);
                wg.groups.push_back(ops);
            }
            Some("wait_group") if plain(1) => {
                let Opnd::Imm(n) = inst.args[0] else {
                    return Err(format!("line {line}: wgmma.wait_group needs an immediate"));
                };
                let wg = &mut self.wg.wgs[g];
                let mut done = Vec::new();
                while wg.groups.len() as u64 > n {
                    done.extend(wg.groups.pop_front().unwrap());
                }
                wg.rebuild_inflight();
                for b in done.into_iter().flat_map(|op| op.bytes) {
                    self.wg.busy[b].0 -= 1;
                }
            }
            Some("mma_async") => return self.mma_async(inst, p, t0, stats),
            _ => return Err(format!("line {line}: unsupported wgmma form {}", inst.op)),
        }
        Ok(())
    }

    /// The value of operand `o`, which must be the same in the warpgroup's 128 threads.
    fn uniform(&self, o: &Opnd, t0: usize, what: &str, line: usize) -> Result<u64, String> {
        let v = self.get(o, t0);
        if let Some(t) = (t0..t0 + 128).find(|t| self.get(o, *t) != v) {
            return Err(format!(
                "line {line}: wgmma.mma_async {what} differs across the warpgroup (thread {t0}: {v:#x}, thread {t}: {:#x})",
                self.get(o, t)
            ));
        }
        Ok(v)
    }

    fn mma_async(
        &mut self,
        inst: &Inst,
        p: &[&str],
        t0: usize,
        stats: &mut Stats,
    ) -> Result<(), String> {
        let line = inst.line;
        let f = form(inst, p)?;
        let bad = || format!("line {line}: unsupported wgmma form {}", inst.op);
        let a = &inst.args;
        let a_regs = matches!(a.get(1), Some(Opnd::Vec(_)));
        let sixteen = f.eb() == 2;
        // d, a, b-desc, scale-d, then imm-scale-a, imm-scale-b (not for integers), then
        // imm-trans-a (A from shared memory only), imm-trans-b (16-bit types only).
        let n_args = match (f.int(), sixteen, a_regs) {
            (true, ..) => 4,
            (false, false, _) => 6,
            (false, true, true) => 7,
            (false, true, false) => 8,
        };
        if a.len() != n_args {
            return Err(format!(
                "line {line}: {} takes {n_args} operands here, not {}",
                inst.op,
                a.len()
            ));
        }
        let imm = |i: usize, ok: &[i64], what: &str| -> Result<i64, String> {
            match a.get(i) {
                None => Ok(ok[0]),
                Some(Opnd::Imm(v)) if ok.contains(&(*v as i64)) => Ok(*v as i64),
                Some(o) => Err(format!(
                    "line {line}: wgmma.mma_async {what} must be an immediate in {ok:?}, not {o:?}"
                )),
            }
        };
        let (scale_a, scale_b) = if f.int() {
            (1, 1)
        } else {
            (
                imm(4, &[1, -1], "imm-scale-a")?,
                imm(5, &[1, -1], "imm-scale-b")?,
            )
        };
        let (trans_a, trans_b) = match (sixteen, a_regs) {
            (true, false) => (
                imm(6, &[0, 1], "imm-trans-a")?,
                imm(7, &[0, 1], "imm-trans-b")?,
            ),
            (true, true) => (0, imm(6, &[0, 1], "imm-trans-b")?),
            _ => (0, 0),
        };
        let regs = |o: &Opnd, n: usize, what: &str| -> Result<Vec<usize>, String> {
            let v: Vec<usize> = match o {
                Opnd::Vec(v) => v
                    .iter()
                    .map(|x| match x {
                        Opnd::Reg(r) => Ok(*r),
                        _ => Err(bad()),
                    })
                    .collect::<Result<_, _>>()?,
                _ => return Err(bad()),
            };
            if v.len() != n {
                return Err(format!(
                    "line {line}: {} needs {n} {what} registers, not {}",
                    inst.op,
                    v.len()
                ));
            }
            Ok(v)
        };
        let d_regs = regs(&a[0], f.d_regs(), "accumulator")?;
        let a_list = if a_regs {
            regs(&a[1], 4, "A")?
        } else {
            Vec::new()
        };
        let scale_d = match &a[3] {
            Opnd::Imm(v @ (0 | 1)) => *v,
            o @ Opnd::Reg(_) => u64::from(self.uniform(o, t0, "scale-d", line)? != 0),
            o => return Err(format!("line {line}: wgmma.mma_async scale-d {o:?}")),
        };
        let shape = p[4].to_string();

        // Ordering of register accesses (wgmma.fence, in-flight operations).
        let wg = &self.wg.wgs[t0 / 128];
        if !wg.fenced {
            return Err(format!(
                "line {line}: wgmma.mma_async with no wgmma.fence before it in warpgroup {}",
                t0 / 128
            ));
        }
        let name = |r: usize| reg_name(self.k, r);
        for (r, acc) in d_regs
            .iter()
            .map(|r| (*r, true))
            .chain(a_list.iter().map(|r| (*r, false)))
        {
            let role = if acc { "accumulator" } else { "A" };
            if let Some(at) = wg.touched.get(&r) {
                return Err(format!(
                    "line {line}: wgmma.mma_async {role} register {} was accessed at line {at} with no wgmma.fence between",
                    name(r)
                ));
            }
            let clash = |u: &Use| match (&u.acc, acc) {
                (Some(s), true) => *s != shape,
                (None, false) => false,
                _ => true,
            };
            if let Some(u) = wg.inflight.get(&r).filter(|u| clash(u)) {
                return Err(format!(
                    "line {line}: wgmma.mma_async {role} register {} is in use by the wgmma.mma_async at line {} ({}), still in flight",
                    name(r),
                    u.line,
                    u.acc
                        .as_ref()
                        .map_or("A".to_string(), |s| format!("accumulator of {s}"))
                ));
            }
            if let Some(u) = wg.used.get(&r).filter(|u| clash(u)) {
                return Err(format!(
                    "line {line}: wgmma.mma_async {role} register {} was used by the wgmma.mma_async at line {} ({}) with no wgmma.fence between",
                    name(r),
                    u.line,
                    u.acc
                        .as_ref()
                        .map_or("A".to_string(), |s| format!("accumulator of {s}"))
                ));
            }
        }

        // The operands.
        let (k, n, eb) = (f.k, f.n, f.eb());
        let mut ma = vec![0f64; (64 * k) as usize];
        let mut mb = vec![0f64; (n * k) as usize];
        let mut bytes: Vec<usize> = Vec::new();
        let smem_len = self.smem.len();
        let read = |desc: &Desc,
                    mn_major: bool,
                    mn: u64,
                    kk: u64,
                    bytes: &mut Vec<usize>|
         -> Result<u64, String> {
            let at = element_addr(desc, mn_major, mn, kk, eb) as usize;
            if at + eb as usize > smem_len {
                return Err(format!(
                    "line {line}: wgmma.mma_async reads shared bytes {at}..{} outside {smem_len} bytes",
                    at + eb as usize
                ));
            }
            bytes.extend(at..at + eb as usize);
            Ok(load(&self.smem, at, eb as usize))
        };
        let b_desc = decode(self.uniform(&a[2], t0, "B descriptor", line)?)
            .map_err(|e| format!("line {line}: B {e}"))?;
        for c in 0..n {
            for kk in 0..k {
                let bits = read(&b_desc, trans_b == 1, c, kk, &mut bytes)?;
                mb[(c * k + kk) as usize] = value(f.bty, bits) * scale_b as f64;
            }
        }
        if a_regs {
            let per = 4 / eb;
            for t in t0..t0 + 128 {
                let (w, lane) = (((t - t0) / 32) as u64, (t % 32) as u64);
                for (j, r) in a_list.iter().enumerate() {
                    let x = self.regs[*r][t];
                    for q in 0..per {
                        let i = j as u64 * per + q;
                        let bits = x >> (8 * eb * q) & ((1u64 << (8 * eb)) - 1);
                        let (row, kk) = a_fragment(eb, w, lane, i);
                        ma[(row * k + kk) as usize] = value(f.aty, bits) * scale_a as f64;
                    }
                }
            }
        } else {
            let a_desc = decode(self.uniform(&a[1], t0, "A descriptor", line)?)
                .map_err(|e| format!("line {line}: A {e}"))?;
            for row in 0..64 {
                for kk in 0..k {
                    let bits = read(&a_desc, trans_a == 1, row, kk, &mut bytes)?;
                    ma[(row * k + kk) as usize] = value(f.aty, bits) * scale_a as f64;
                }
            }
        }
        bytes.sort_unstable();
        bytes.dedup();
        // Shared memory the async proxy reads: its writes ordered before the warpgroup's
        // first thread (the race detector's happens-before: a barrier), and made visible
        // to the async proxy by a fence.proxy.async of the writing thread.
        for &b in &bytes {
            self.smem_access(b as u64, 1, t0, false, line)?;
            if let Some((w, at)) = self.shadow.unfenced_write(b, &self.fences) {
                return Err(format!(
                    "line {line}: wgmma.mma_async (warpgroup {}) reads shared byte {b} that thread {w} wrote at line {at} with no fence.proxy.async after the write (wgmma reads through the async proxy)",
                    t0 / 128
                ));
            }
        }

        // D = A B (+ D), per element; then the registers.
        let dty = f.dty;
        let d_per = if dty == "f16" { 2 } else { 1 };
        for t in t0..t0 + 128 {
            let (w, lane) = (((t - t0) / 32) as u64, (t % 32) as u64);
            let mut words: Vec<u64> = d_regs.iter().map(|r| self.regs[*r][t]).collect();
            for i in 0..n / 2 {
                let (row, col) = d_fragment(w, lane, i);
                let (j, half) = ((i / d_per) as usize, (i % d_per) as u32);
                let old = if d_per == 2 {
                    words[j] >> (16 * half) & 0xFFFF
                } else {
                    words[j] & 0xFFFF_FFFF
                };
                let ar = &ma[(row * k) as usize..((row + 1) * k) as usize];
                let bc = &mb[(col * k) as usize..((col + 1) * k) as usize];
                let new = if f.int() {
                    let s: i64 = ar.iter().zip(bc).map(|(x, y)| *x as i64 * *y as i64).sum();
                    let s = s + if scale_d == 1 { sext(old, 32) } else { 0 };
                    if f.sat {
                        s.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u32 as u64
                    } else {
                        s as u32 as u64
                    }
                } else {
                    let mut s: f64 = ar.iter().zip(bc).map(|(x, y)| x * y).sum();
                    if scale_d == 1 {
                        s += if dty == "f16" {
                            f64::from(f16_to_f32(old as u16))
                        } else {
                            f64::from(f32::from_bits(old as u32))
                        };
                    }
                    let kind = if dty == "f16" {
                        FloatKind::F16
                    } else {
                        FloatKind::F32
                    };
                    fp::convert(FloatKind::F64, kind, s.to_bits(), Round::NearestEven, false)
                };
                if d_per == 2 {
                    words[j] = words[j] & !(0xFFFF << (16 * half)) | new << (16 * half);
                } else {
                    words[j] = new;
                }
            }
            for (r, x) in d_regs.iter().zip(words) {
                self.regs[*r][t] = x;
            }
        }

        // In flight until a wait_group retires it.
        let mut regs: Vec<(usize, Use)> = d_regs
            .iter()
            .map(|r| {
                let u = Use {
                    line,
                    acc: Some(shape.clone()),
                };
                (*r, u)
            })
            .collect();
        regs.extend(a_list.iter().map(|r| (*r, Use { line, acc: None })));
        for &b in &bytes {
            self.wg.busy[b] = (self.wg.busy[b].0 + 1, line as u32);
        }
        let wg = &mut self.wg.wgs[t0 / 128];
        for (r, u) in &regs {
            wg.inflight.insert(*r, u.clone());
            wg.used.insert(*r, u.clone());
        }
        wg.open.push(Op { regs, bytes });
        stats.wgmma += 1;
        stats.wgmma_macs += 64 * n * k;
        Ok(())
    }

    /// Called for every instruction that is not a `wgmma` (threads `here` reached it,
    /// `active` execute it): its registers must not be in flight in a warpgroup it runs
    /// in, and they count as accessed for the next `wgmma.fence` check.
    pub(crate) fn wgmma_watch(
        &mut self,
        inst: &Inst,
        g: usize,
        guard: bool,
        ops: bool,
    ) -> Result<(), String> {
        if !self.wg.on || inst.op.starts_with("wgmma.") {
            return Ok(());
        }
        let mut mine = Vec::new();
        if ops {
            for a in &inst.args {
                regs_of(a, &mut mine);
            }
        }
        if let (true, Some((_, r))) = (guard, inst.pred) {
            mine.push(r);
        }
        let wg = &mut self.wg.wgs[g];
        for r in mine {
            if let Some(u) = wg.inflight.get(&r) {
                return Err(format!(
                    "line {}: {} accesses {} (warpgroup {g}), the {} of the wgmma.mma_async at line {}, still in flight (no wgmma.wait_group retired it)",
                    inst.line,
                    inst.op,
                    reg_name(self.k, r),
                    if u.acc.is_some() {
                        "accumulator"
                    } else {
                        "A fragment"
                    },
                    u.line
                ));
            }
            wg.touched.insert(r, inst.line);
        }
        Ok(())
    }

    /// Called for every shared byte `b` a thread `t` writes: no in-flight `mma_async` may
    /// read it, nor one of another warpgroup retired in this barrier epoch; the write
    /// needs a `fence.proxy.async` before an `mma_async` reads it.
    pub(crate) fn wgmma_smem_write(
        &mut self,
        b: usize,
        t: usize,
        line: usize,
    ) -> Result<(), String> {
        let (n, at) = self.wg.busy[b];
        if n > 0 {
            return Err(format!(
                "line {line}: thread {t} overwrites shared byte {b} that the wgmma.mma_async at line {at} reads, still in flight (no wgmma.wait_group retired it)"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Memory, f32_to_bf16, f32_to_f16, parse, run};

    /// How a test lays an operand out in shared memory (and the descriptor it passes).
    #[derive(Clone, Copy, Debug)]
    struct Lay {
        swz: Swizzle,
        mn_major: bool,
        start: u64,
        lbo: u64,
        sbo: u64,
    }

    const fn lay(swz: Swizzle, mn_major: bool, start: u64, lbo: u64, sbo: u64) -> Lay {
        Lay {
            swz,
            mn_major,
            start,
            lbo,
            sbo,
        }
    }

    /// The descriptor, built as CUTLASS's `GmmaDescriptor` bitfield does (start, LBO and
    /// SBO in 16-byte units at bits 0, 16 and 32; `layout_type` at bit 62 with
    /// SWIZZLE_NONE 0, 128B 1, 64B 2, 32B 3) and as the ISA's
    /// `matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4` says.
    fn encode(l: &Lay) -> u64 {
        let mode = match l.swz {
            Swizzle::None => 0,
            Swizzle::B128 => 1,
            Swizzle::B64 => 2,
            Swizzle::B32 => 3,
        };
        let enc = |x: u64| (x & 0x3FFFF) >> 4;
        enc(l.start) | enc(l.lbo) << 16 | enc(l.sbo) << 32 | mode << 62
    }

    /// Where the test stores element (`mn`, `k`) of `eb` bytes, written from the ISA's
    /// layout figures rather than from address bits: an atom is 8 rows of `w` bytes (16
    /// without swizzling), and within an atom's row `i` the 16-byte chunk `j` of the data
    /// is stored at chunk `j ^ phase(i)`, the phase being `i` (128B), `i / 2` (64B), `i /
    /// 4` (32B). K-major rows are M/N indices; MN-major rows are k indices. Atoms start at
    /// multiples of their size here (the descriptors' base offset is 0).
    fn place(l: &Lay, mn: u64, k: u64, eb: u64) -> u64 {
        let w = match l.swz {
            Swizzle::None => 16,
            Swizzle::B32 => 32,
            Swizzle::B64 => 64,
            Swizzle::B128 => 128,
        };
        let phase = |i: u64| match l.swz {
            Swizzle::None => 0,
            Swizzle::B32 => i / 4,
            Swizzle::B64 => i / 2,
            Swizzle::B128 => i,
        };
        if !l.mn_major {
            let kb = k * eb;
            if l.swz == Swizzle::None {
                // Core matrices (8 rows x 16 bytes): LBO apart along K, SBO along M/N.
                return l.start + (mn / 8) * l.sbo + (kb / 16) * l.lbo + (mn % 8) * 16 + kb % 16;
            }
            let (atom, i) = (l.start + (mn / 8) * l.sbo, mn % 8);
            atom + i * w + ((kb / 16) ^ phase(i)) * 16 + kb % 16
        } else {
            if l.swz == Swizzle::None {
                // Core matrices (8 k-rows x 16 bytes of M/N): SBO apart along M/N, LBO along K.
                return l.start + (mn / 8) * l.sbo + (k / 8) * l.lbo + (k % 8) * 16 + (mn % 8) * eb;
            }
            let per = w / eb;
            let (atom, i) = (l.start + (mn / per) * l.lbo + (k / 8) * l.sbo, k % 8);
            let byte = (mn % per) * eb;
            atom + i * w + ((byte / 16) ^ phase(i)) * 16 + byte % 16
        }
    }

    /// The thread (of the warpgroup) and value index holding D element (`row`, `col`):
    /// the ISA's D fragment figure read from the matrix side.
    fn d_owner(row: u64, col: u64) -> (u64, u64) {
        let lane = 4 * (row % 8) + (col % 8) / 2;
        (
            32 * (row / 16) + lane,
            4 * (col / 8) + 2 * (row % 16 / 8) + col % 2,
        )
    }

    /// The thread and element index holding A element (`row`, `k`) of an A fragment in
    /// registers of `eb`-byte elements (the ISA's A figures, from the matrix side).
    fn a_owner(eb: u64, row: u64, k: u64) -> (u64, u64) {
        let (base, half) = (32 * (row / 16) + 4 * (row % 8), row % 16 / 8);
        match eb {
            2 => (base + k % 8 / 2, 4 * (k / 8) + 2 * half + k % 2),
            4 => (base + k % 4, 2 * (k / 4) + half),
            _ => (base + k % 16 / 4, 8 * (k / 16) + 4 * half + k % 4),
        }
    }

    /// The bits of the (small, exactly representable) value `x` as type `ty`.
    fn bits(ty: &str, x: i64) -> u64 {
        let conv = |k| {
            fp::convert(
                FloatKind::F64,
                k,
                (x as f64).to_bits(),
                Round::NearestEven,
                false,
            )
        };
        match ty {
            "f16" => u64::from(f32_to_f16(x as f32)),
            "bf16" => u64::from(f32_to_bf16(x as f32)),
            // Junk in the 13 low bits, which .tf32 ignores.
            "tf32" => u64::from((x as f32).to_bits() | 0x1357),
            "f32" => u64::from((x as f32).to_bits()),
            "e4m3" => conv(FloatKind::F8E4M3FN),
            "e5m2" => conv(FloatKind::F8E5M2),
            _ => x as u64 & 0xFFFF_FFFF,
        }
    }

    fn elem_bytes(ty: &str) -> u64 {
        match ty {
            "f16" | "bf16" => 2,
            "tf32" => 4,
            _ => 1,
        }
    }

    /// A one-instruction-per-K-step test: `steps` `mma_async`s along K (A is 64 x K
    /// steps, B is K steps x N), the first with `scale_d`, the rest accumulating.
    struct Spec {
        n: u64,
        dty: &'static str,
        aty: &'static str,
        bty: &'static str,
        sat: bool,
        /// None: A from registers.
        a: Option<Lay>,
        b: Lay,
        steps: u64,
        scale_d: u64,
        scale_a: i64,
        scale_b: i64,
        av: fn(u64, u64) -> i64,
        bv: fn(u64, u64) -> i64,
        dv: fn(u64, u64) -> i64,
        /// Warpgroups (threads / 128).
        wgs: usize,
    }

    fn spec(n: u64, dty: &'static str, aty: &'static str, a: Option<Lay>, b: Lay) -> Spec {
        Spec {
            n,
            dty,
            aty,
            bty: aty,
            sat: false,
            a,
            b,
            steps: 1,
            scale_d: 1,
            scale_a: 1,
            scale_b: 1,
            // Not linear in the indices, so that no two misplaced elements agree by chance.
            av: |r, k| ((r * 7 + k * 13 + r * k) % 11) as i64 - 5,
            bv: |k, c| ((k * 2 + c * 3 + k * c) % 5) as i64 - 2,
            dv: |r, c| ((r + 2 * c) % 9) as i64 - 4,
            wgs: 1,
        }
    }

    impl Spec {
        fn k(&self) -> u64 {
            32 / elem_bytes(self.aty)
        }

        fn nd(&self) -> u64 {
            if self.dty == "f16" {
                self.n / 4
            } else {
                self.n / 2
            }
        }

        fn op(&self) -> String {
            let sat = if self.sat { ".satfinite" } else { "" };
            format!(
                "wgmma.mma_async.sync.aligned.m64n{}k{}{sat}.{}.{}.{}",
                self.n,
                self.k(),
                self.dty,
                self.aty,
                self.bty
            )
        }

        /// The layout of K step `s`: the start moved to element (0, s K) (before
        /// swizzling, as CUTLASS's descriptor iterator and Triton's smemLoad advance it).
        fn step(&self, l: &Lay, s: u64, eb: u64) -> Lay {
            let k = self.k();
            let start = match (l.mn_major, l.swz) {
                (false, Swizzle::None) => l.start + s * k * eb / 16 * l.lbo,
                (false, _) => l.start + s * k * eb,
                (true, Swizzle::None) => l.start + s * k / 8 * l.lbo,
                (true, _) => l.start + s * k / 8 * l.sbo,
            };
            Lay { start, ..*l }
        }

        /// The kernel: copies `smem` bytes from `src` to shared memory, loads each
        /// thread's A registers and accumulator from `regs`, runs the steps and stores the
        /// accumulator to `out`.
        fn kernel(&self, smem: usize, body: Option<&str>) -> String {
            let nd = self.nd();
            let nin = 4 + nd;
            let threads = 128 * self.wgs;
            let mut k = format!(
                ".visible .entry k(\n.param .u64 src,\n.param .u64 regs,\n.param .u64 out\n)\n{{\n.reqntid {threads}, 1, 1\n.shared .align 1024 .b8 smem[{smem}];\n"
            );
            k += "mov.u32 %t, %tid.x;\ncvt.u64.u32 %tt, %t;\nld.param.u64 %src, [src];\nld.param.u64 %regs, [regs];\nld.param.u64 %out, [out];\n";
            k += &format!(
                "mad.lo.u64 %g, %tt, 4, %src;\nmad.lo.u32 %s, %t, 4, smem;\nmad.lo.u64 %r, %tt, {}, %regs;\nmad.lo.u64 %o, %tt, {}, %out;\n",
                4 * nin,
                4 * nd
            );
            for c in (0..smem).step_by(4 * threads) {
                k += &format!("ld.global.b32 %v, [%g+{c}];\nst.shared.b32 [%s+{c}], %v;\n");
            }
            for j in 0..4 {
                k += &format!("ld.global.b32 %a{j}, [%r+{}];\n", 4 * j);
            }
            for j in 0..nd {
                k += &format!("ld.global.b32 %d{j}, [%r+{}];\n", 4 * (4 + j));
            }
            k += "fence.proxy.async.shared::cta;\nbar.sync 0;\nwgmma.fence.sync.aligned;\n";
            match body {
                Some(b) => k += b,
                None => k += &self.body(),
            }
            for j in 0..nd {
                k += &format!("st.global.b32 [%o+{}], %d{j};\n", 4 * j);
            }
            k += "ret;\n}\n";
            k
        }

        fn dregs(&self) -> String {
            let d: Vec<String> = (0..self.nd()).map(|j| format!("%d{j}")).collect();
            format!("{{{}}}", d.join(", "))
        }

        /// The operands after scale-d.
        fn tail(&self) -> String {
            let mut t = String::new();
            if self.dty != "s32" {
                t += &format!(", {}, {}", self.scale_a, self.scale_b);
            }
            if elem_bytes(self.aty) == 2 {
                if let Some(a) = &self.a {
                    t += &format!(", {}", u8::from(a.mn_major));
                }
                t += &format!(", {}", u8::from(self.b.mn_major));
            }
            t
        }

        fn body(&self) -> String {
            let mut k = String::new();
            let (ea, eb) = (elem_bytes(self.aty), elem_bytes(self.bty));
            for s in 0..self.steps {
                k += &format!("mov.b64 %db, {:#x};\n", encode(&self.step(&self.b, s, eb)));
                let a = match &self.a {
                    Some(l) => {
                        k += &format!("mov.b64 %da, {:#x};\n", encode(&self.step(l, s, ea)));
                        "%da".to_string()
                    }
                    None => "{%a0, %a1, %a2, %a3}".to_string(),
                };
                let sd = if s == 0 { self.scale_d } else { 1 };
                k += &format!("mov.u32 %sd, {sd};\nsetp.ne.u32 %p, %sd, 0;\n");
                k += &format!(
                    "{} {}, {a}, %db, %p{};\n",
                    self.op(),
                    self.dregs(),
                    self.tail()
                );
            }
            k += "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n";
            k
        }

        /// The shared-memory image (unused bytes 0x55) and its size.
        fn smem(&self) -> Vec<u8> {
            let kk = self.k() * self.steps;
            let mut img: Vec<Option<u8>> = Vec::new();
            let mut put = |at: u64, v: u64, eb: u64| {
                for i in 0..eb {
                    let at = (at + i) as usize;
                    if img.len() <= at {
                        img.resize(at + 1, None);
                    }
                    assert!(img[at].is_none(), "test layout overlaps at byte {at}");
                    img[at] = Some((v >> (8 * i)) as u8);
                }
            };
            let (ea, eb) = (elem_bytes(self.aty), elem_bytes(self.bty));
            if let Some(l) = &self.a {
                for r in 0..64 {
                    for k in 0..kk {
                        put(place(l, r, k, ea), bits(self.aty, (self.av)(r, k)), ea);
                    }
                }
            }
            for c in 0..self.n {
                for k in 0..kk {
                    put(
                        place(&self.b, c, k, eb),
                        bits(self.bty, (self.bv)(k, c)),
                        eb,
                    );
                }
            }
            let size = img.len().next_multiple_of(512 * self.wgs).max(1024);
            let mut out: Vec<u8> = img.into_iter().map(|b| b.unwrap_or(0x55)).collect();
            out.resize(size, 0x55);
            out
        }

        /// Per thread: the four A registers (when A is in registers) and the accumulator.
        fn regs(&self) -> Vec<u32> {
            let (nd, nin) = (self.nd() as usize, 4 + self.nd() as usize);
            let mut regs = vec![0u32; 128 * nin];
            if self.a.is_none() {
                let ea = elem_bytes(self.aty);
                for r in 0..64 {
                    for k in 0..self.k() {
                        let (t, i) = a_owner(ea, r, k);
                        let per = 4 / ea;
                        let (j, q) = ((i / per) as usize, i % per);
                        let v = bits(self.aty, (self.av)(r, k)) & ((1 << (8 * ea)) - 1);
                        regs[t as usize * nin + j] |= (v << (8 * ea * q)) as u32;
                    }
                }
            }
            let per = if self.dty == "f16" { 2 } else { 1 };
            for r in 0..64 {
                for c in 0..self.n {
                    let (t, i) = d_owner(r, c);
                    let v = bits(self.dty, (self.dv)(r, c)) as u32;
                    let (j, h) = ((i / per) as usize, (i % per) as u32);
                    let v = if per == 2 { v << (16 * h) } else { v };
                    regs[t as usize * nin + 4 + j] |= v;
                }
            }
            let _ = nd;
            regs.repeat(self.wgs)
        }

        /// The accumulator words every thread should end with (plain loops).
        fn expected(&self) -> Vec<u32> {
            let nd = self.nd() as usize;
            let kk = self.k() * self.steps;
            let mut out = vec![0u32; 128 * nd];
            let per = if self.dty == "f16" { 2 } else { 1 };
            for r in 0..64 {
                for c in 0..self.n {
                    let mut s: i64 = 0;
                    for k in 0..kk {
                        s += (self.av)(r, k) * self.scale_a * (self.bv)(k, c) * self.scale_b;
                    }
                    if self.scale_d == 1 {
                        s += (self.dv)(r, c);
                    }
                    let v = match self.dty {
                        "s32" if self.sat => s.clamp(i32::MIN.into(), i32::MAX.into()) as u32,
                        "s32" => s as u32,
                        "f16" => u32::from(f32_to_f16(s as f32)),
                        _ => (s as f32).to_bits(),
                    };
                    let (t, i) = d_owner(r, c);
                    let (j, h) = ((i / per) as usize, (i % per) as u32);
                    out[t as usize * nd + j] |= if per == 2 { v << (16 * h) } else { v };
                }
            }
            out.repeat(self.wgs)
        }

        fn run_body(&self, body: Option<&str>) -> Result<(Vec<u32>, Stats), String> {
            let img = self.smem();
            let ks = parse(&self.kernel(img.len(), body));
            let mut mem = Memory::default();
            let src = mem.alloc(&img);
            let regs: Vec<u8> = self.regs().iter().flat_map(|w| w.to_le_bytes()).collect();
            let regs = mem.alloc(&regs);
            let nout = 128 * self.wgs * self.nd() as usize;
            let out = mem.alloc(&vec![0u8; 4 * nout]);
            let stats = run(&ks[0], [1, 1, 1], &[src, regs, out], &mut mem)?;
            let words = mem
                .read(out, 4 * nout)
                .chunks(4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                .collect();
            Ok((words, stats))
        }

        fn run(&self) -> Result<(Vec<u32>, Stats), String> {
            self.run_body(None)
        }

        /// Runs and compares every accumulator register of every thread.
        fn check(&self) -> Stats {
            let (got, stats) = self.run().unwrap_or_else(|e| panic!("{}: {e}", self.op()));
            let want = self.expected();
            let nd = self.nd() as usize;
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(
                    g,
                    w,
                    "{}: thread {}, %d{}: got {g:#x}, want {w:#x}",
                    self.op(),
                    i / nd,
                    i % nd
                );
            }
            assert_eq!(stats.wgmma, self.steps * self.wgs as u64);
            assert_eq!(
                stats.wgmma_macs,
                self.steps * self.wgs as u64 * 64 * self.n * self.k()
            );
            stats
        }
    }

    /// Unswizzled K-major: core matrices contiguous along K (LBO 128), the 8-row groups
    /// after all of K (SBO = 128 x the number of 16-byte chunks of K).
    fn interleave(start: u64, k_chunks: u64) -> Lay {
        lay(Swizzle::None, false, start, 128, 128 * k_chunks)
    }

    #[test]
    fn descriptor_decoding() {
        // CUTLASS's make_gmma_desc<Major::K> for a 128B-swizzled tile at shared address
        // 0x400: start_address_ 0x40, leading_byte_offset_ 1 ("unused, assumed 1"),
        // stride_byte_offset_ 64 (1024 bytes: 8 rows of 128 bytes), layout_type_ 1 (B128).
        let d = decode(0x4000_0040_0001_0040).unwrap();
        assert_eq!(
            d,
            Desc {
                start: 0x400,
                lbo: 16,
                sbo: 1024,
                base_offset: 0,
                swizzle: Swizzle::B128
            }
        );
        // Triton's createDescriptor: swizzlingMode 3 for 32 bytes, SBO = swizzling >> 1
        // (16 = 256 bytes), LBO = (swizzling x stride) >> 4 (stride 64: 128 = 2048 bytes);
        // smemLoad adds the base as (addr << 46) >> 50 = (addr & 0x3FFFF) >> 4.
        let triton = 3u64 << 62 | 16 << 32 | 128 << 16 | (0x1_2340 & 0x3FFFF) >> 4;
        let d = decode(triton).unwrap();
        assert_eq!(
            (d.start, d.lbo, d.sbo, d.swizzle),
            (0x1_2340, 2048, 256, Swizzle::B32)
        );
        // 64B is mode 2; none is mode 0; the fields are 14 bits of 16-byte units.
        let d = decode(2 << 62 | 0x3FFF << 32 | 0x3FFF << 16 | 0x3FFF).unwrap();
        assert_eq!((d.start, d.lbo, d.sbo), (0x3FFF0, 0x3FFF0, 0x3FFF0));
        assert_eq!(d.swizzle, Swizzle::B64);
        assert_eq!(decode(8).unwrap().swizzle, Swizzle::None);
        // The test's encoder is the decoder's inverse.
        let l = lay(Swizzle::B64, true, 0x2A0, 0x1000, 0x200);
        let d = decode(encode(&l)).unwrap();
        assert_eq!(
            (d.start, d.lbo, d.sbo, d.swizzle),
            (0x2A0, 0x1000, 0x200, Swizzle::B64)
        );
        // Reserved bits and base offsets are refused.
        for bad in [1u64 << 14, 1 << 31, 1 << 46, 1 << 48, 1 << 52, 1 << 61] {
            assert!(decode(bad).unwrap_err().contains("reserved"), "{bad:#x}");
        }
        assert!(
            decode(1 << 62 | 3 << 49)
                .unwrap_err()
                .contains("base offset")
        );
        // The swizzles on addresses: chunk (bits 4-6) ^= row phase (bits 7-9).
        assert_eq!(Swizzle::B128.apply(7 * 128 + 16), 7 * 128 + 6 * 16);
        assert_eq!(Swizzle::B64.apply(3 * 128 + 16), 3 * 128 + 32);
        assert_eq!(Swizzle::B64.apply(4 * 128 + 48), 4 * 128 + 48);
        assert_eq!(Swizzle::B32.apply(128 + 16), 128);
        assert_eq!(Swizzle::B32.apply(2 * 128 + 16), 2 * 128 + 16);
        assert_eq!(Swizzle::None.apply(1000), 1000);
    }

    /// The simulator's address function agrees with the test's figure-based placement
    /// for every mode, major-ness and element size it allows.
    #[test]
    fn layouts_match_the_isa_figures() {
        for swz in [Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128] {
            for (mn_major, eb) in [(false, 1), (false, 2), (false, 4), (true, 2)] {
                let l = if mn_major {
                    lay(swz, true, 2048, 4096, 1024)
                } else {
                    lay(swz, false, 2048, 128, 1024)
                };
                let d = decode(encode(&l)).unwrap();
                for mn in 0..64 {
                    for k in 0..32 / eb {
                        assert_eq!(
                            element_addr(&d, mn_major, mn, k, eb),
                            place(&l, mn, k, eb),
                            "{swz:?} mn_major={mn_major} eb={eb} ({mn}, {k})"
                        );
                    }
                }
            }
        }
    }

    /// m64n8k16 f16 (f32 accumulator), A from registers, B unswizzled K-major: A picks row
    /// `m % 16` of B's transpose and the accumulator starts at 1000 m, so every element
    /// of D names its row and column: D[m][n] = 1000 m + 8 (m % 16) + n.
    #[test]
    fn fragments_m64n8k16_a_in_registers() {
        let mut s = spec(8, "f32", "f16", None, interleave(0, 2));
        s.av = |r, k| i64::from(k == r % 16);
        s.bv = |k, c| (8 * k + c) as i64;
        s.dv = |r, _| 1000 * r as i64;
        s.check();
        // And with mixed values, f16 accumulators, two warpgroups.
        let mut s = spec(8, "f16", "f16", None, interleave(0, 2));
        s.wgs = 2;
        s.check();
        spec(16, "f32", "f16", None, interleave(512, 2)).check();
    }

    #[test]
    fn swizzle_modes_k_major() {
        // A and B from descriptors, K-major, one test per swizzle mode; B after A.
        for (swz, w) in [(Swizzle::B32, 32), (Swizzle::B64, 64), (Swizzle::B128, 128)] {
            let a = lay(swz, false, 0, 16, 8 * w);
            let b = lay(swz, false, 64 * w, 16, 8 * w);
            spec(32, "f32", "f16", Some(a), b).check();
            spec(16, "f32", "bf16", Some(a), b).check();
            spec(64, "f16", "f16", None, b).check();
        }
        // Unswizzled, with the core matrices of K 1024 bytes apart (LBO) and the 8-row
        // groups 128 bytes apart (SBO).
        let a = lay(Swizzle::None, false, 0, 1024, 128);
        let b = lay(Swizzle::None, false, 2048, 1024, 128);
        spec(64, "f32", "f16", Some(a), b).check();
    }

    /// Four steps along K inside 128B-swizzled rows of 64 f16: the descriptors' start
    /// moves by 32 bytes (unswizzled) each time, as CUTLASS and DeepGEMM advance them.
    #[test]
    fn k_steps_inside_a_swizzle_atom() {
        let a = lay(Swizzle::B128, false, 0, 16, 1024);
        let b = lay(Swizzle::B128, false, 8192, 16, 1024);
        let mut s = spec(32, "f32", "f16", Some(a), b);
        s.steps = 4;
        s.check();
        // 64B rows of e4m3 (two steps of 32 bytes).
        let a = lay(Swizzle::B64, false, 0, 16, 512);
        let b = lay(Swizzle::B64, false, 4096, 16, 512);
        let mut s = spec(24, "f32", "e4m3", Some(a), b);
        s.steps = 2;
        s.check();
    }

    /// imm-trans: MN-major A (128B: one atom of 64 rows per 8 k) and B (64B: 32 columns
    /// per atom, so the next columns lie LBO further), and unswizzled MN-major.
    #[test]
    fn mn_major_operands() {
        let a = lay(Swizzle::B128, true, 0, 8192, 1024);
        let b = lay(Swizzle::B64, true, 4096, 2048, 512);
        let mut s = spec(64, "f32", "f16", Some(a), b);
        s.steps = 2;
        s.check();
        // Mixed: K-major A, MN-major B (32B), bf16.
        let a = lay(Swizzle::B32, false, 0, 16, 256);
        let b = lay(Swizzle::B32, true, 4096, 512, 256);
        spec(48, "f32", "bf16", Some(a), b).check();
        // Unswizzled MN-major: core matrices of 8 k x 8 elements; SBO along M/N, LBO along K.
        let a = lay(Swizzle::None, true, 0, 128, 256);
        let b = lay(Swizzle::None, true, 4096, 128, 256);
        spec(16, "f16", "f16", Some(a), b).check();
        // A from registers with an MN-major B.
        spec(
            32,
            "f32",
            "f16",
            None,
            lay(Swizzle::B128, true, 0, 8192, 1024),
        )
        .check();
    }

    #[test]
    fn m64n256k16_bf16() {
        let a = lay(Swizzle::B128, false, 0, 16, 1024);
        let b = lay(Swizzle::B128, false, 8192, 16, 1024);
        let mut s = spec(256, "f32", "bf16", Some(a), b);
        s.steps = 2;
        s.check();
    }

    #[test]
    fn tf32_k8() {
        // The operands carry junk in their 13 low bits, which .tf32 ignores.
        let a = lay(Swizzle::B32, false, 0, 16, 256);
        let b = lay(Swizzle::B32, false, 2048, 16, 256);
        spec(40, "f32", "tf32", Some(a), b).check();
        spec(8, "f32", "tf32", None, interleave(0, 2)).check();
        let a = lay(Swizzle::B128, false, 0, 16, 1024);
        let b = lay(Swizzle::B128, false, 8192, 16, 1024);
        let mut s = spec(24, "f32", "tf32", Some(a), b);
        s.steps = 4;
        s.check();
    }

    #[test]
    fn fp8_k32() {
        let a = lay(Swizzle::B64, false, 0, 16, 512);
        let b = lay(Swizzle::B64, false, 4096, 16, 512);
        let mut s = spec(32, "f32", "e4m3", Some(a), b);
        s.av = |r, k| ((r * 5 + k * 3) % 13) as i64 - 6;
        s.check();
        s.bty = "e5m2";
        s.dty = "f16";
        s.check();
        let mut s = spec(56, "f32", "e5m2", None, interleave(0, 2));
        s.bty = "e4m3";
        s.check();
    }

    #[test]
    fn int8_k32_wraps_or_saturates() {
        let a = lay(Swizzle::B128, false, 0, 16, 1024);
        let b = lay(Swizzle::B128, false, 8192, 16, 1024);
        let mut s = spec(32, "s32", "s8", Some(a), b);
        s.av = |r, k| ((r * 37 + k * 11) % 256) as i64 - 128;
        s.bv = |k, c| ((k * 13 + c * 29) % 256) as i64 - 128;
        s.check();
        // Accumulators near the ends of the s32 range: wrapped, then clamped.
        s.dv = |r, c| {
            if (r + c) % 2 == 0 {
                i64::from(i32::MAX) - (r * 64 + c) as i64
            } else {
                i64::from(i32::MIN) + (r * 64 + c) as i64
            }
        };
        let wrapped = s.run().unwrap().0;
        s.check();
        s.sat = true;
        let clamped = s.check();
        let _ = clamped;
        let sat = s.run().unwrap().0;
        assert!(sat.contains(&(i32::MAX as u32)) && sat.contains(&(i32::MIN as u32)));
        assert!(wrapped != sat);
        // Unsigned and mixed; N = 24 (the integer forms allow 8, 16, 24, 32, 48, ...).
        let mut s = spec(24, "s32", "u8", Some(a), b);
        s.av = |r, k| ((r * 37 + k * 11) % 256) as i64;
        s.bty = "s8";
        s.bv = |k, c| ((k * 13 + c * 29) % 256) as i64 - 128;
        s.check();
        let mut s = spec(48, "s32", "s8", None, interleave(0, 2));
        s.bty = "u8";
        s.bv = |k, c| ((k * 13 + c * 29) % 256) as i64;
        s.check();
    }

    #[test]
    fn n_not_a_power_of_two() {
        for n in [24, 40, 72, 120, 200, 248] {
            let a = lay(Swizzle::B128, false, 0, 16, 1024);
            let b = lay(Swizzle::B128, false, 8192, 16, 1024);
            spec(n, "f32", "f16", Some(a), b).check();
        }
    }

    #[test]
    fn scale_d_and_negated_operands() {
        let a = lay(Swizzle::B64, false, 0, 16, 512);
        let b = lay(Swizzle::B64, false, 4096, 16, 512);
        for (scale_d, scale_a, scale_b) in [(0, 1, 1), (1, -1, 1), (0, -1, -1), (1, 1, -1)] {
            let mut s = spec(16, "f32", "f16", Some(a), b);
            (s.scale_d, s.scale_a, s.scale_b) = (scale_d, scale_a, scale_b);
            s.check();
            let mut s = spec(16, "f16", "e4m3", None, b);
            (s.scale_d, s.scale_a, s.scale_b) = (scale_d, scale_a, scale_b);
            s.check();
        }
        let mut s = spec(16, "s32", "s8", Some(a), b);
        s.scale_d = 0;
        s.check();
        // scale-d as an immediate.
        let mut s = spec(8, "f32", "f16", None, interleave(0, 2));
        let body = s.body().replace("%db, %p", "%db, 0");
        s.scale_d = 0;
        let (got, _) = s.run_body(Some(&body)).unwrap();
        assert_eq!(got, s.expected());
    }

    /// The mainloop pattern: a group per K step, a fence before each (the previous group
    /// still in flight, chaining the same accumulator), `wait_group 1` then `0`.
    #[test]
    fn pipelined_groups() {
        let a = lay(Swizzle::B128, false, 0, 16, 1024);
        let b = lay(Swizzle::B128, false, 8192, 16, 1024);
        let mut s = spec(64, "f32", "bf16", Some(a), b);
        s.steps = 4;
        let body = s.body();
        let mut piped = String::new();
        let mut first = true;
        for l in body.lines() {
            if l.starts_with("wgmma.mma_async") {
                if !first {
                    piped += "wgmma.fence.sync.aligned;\n";
                }
                first = false;
                piped += l;
                piped += "\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 2;\n";
            } else if !l.starts_with("wgmma.") {
                piped += l;
                piped += "\n";
            }
        }
        let done = "wgmma.wait_group.sync.aligned 1;\nwgmma.wait_group.sync.aligned 0;\n";
        let (got, stats) = s.run_body(Some(&format!("{piped}{done}"))).unwrap();
        assert_eq!(got, s.expected());
        assert_eq!(stats.wgmma, 4);
        // Between the two waits the last group is still in flight.
        let early = format!(
            "{piped}wgmma.wait_group.sync.aligned 1;\nmov.b32 %x, %d5;\nwgmma.wait_group.sync.aligned 0;\n"
        );
        let e = s.run_body(Some(&early)).unwrap_err();
        assert!(e.contains("%d5") && e.contains("still in flight"), "{e}");
    }

    fn error_of(s: &Spec, body: &str) -> String {
        s.run_body(Some(body)).expect_err("an error").to_string()
    }

    #[test]
    fn async_errors() {
        let s = spec(8, "f32", "f16", None, interleave(0, 2));
        let good = s.body();
        let op = s.op();
        // No wgmma.fence: the kernel's `wgmma.fence` removed.
        let img = s.smem();
        let k = s
            .kernel(img.len(), None)
            .replace("wgmma.fence.sync.aligned;\n", "");
        let mut mem = Memory::default();
        let src = mem.alloc(&img);
        let regs = mem.alloc(&[0u8; 128 * 4 * 8]);
        let out = mem.alloc(&[0u8; 128 * 4 * 4]);
        let e = run(&parse(&k)[0], [1, 1, 1], &[src, regs, out], &mut mem).unwrap_err();
        assert!(e.contains("no wgmma.fence before it"), "{e}");
        // An accumulator written after the fence.
        let e = error_of(&s, &format!("mov.f32 %d1, 0f3F800000;\n{good}"));
        assert!(
            e.contains("%d1 was accessed at line") && e.contains("no wgmma.fence"),
            "{e}"
        );
        // An A register read after the fence.
        let e = error_of(&s, &format!("mov.b32 %x, %a2;\n{good}"));
        assert!(e.contains("A register %a2"), "{e}");
        // The accumulator read before wait_group retires the group: after the commit, and
        // with no commit at all (wait_group waits only for committed groups).
        let early = good.replace(
            "wgmma.wait_group.sync.aligned 0;\n",
            "add.f32 %x, %d3, %d3;\nwgmma.wait_group.sync.aligned 0;\n",
        );
        let e = error_of(&s, &early);
        assert!(e.contains("%d3") && e.contains("still in flight"), "{e}");
        let uncommitted = good.replace("wgmma.commit_group.sync.aligned;\n", "");
        let e = error_of(&s, &uncommitted);
        assert!(e.contains("still in flight"), "{e}");
        // wait_group 1 leaves the newest group in flight.
        let one = good.replace("aligned 0;", "aligned 1;");
        let e = error_of(&s, &one);
        assert!(e.contains("still in flight"), "{e}");
        // The A fragment is in flight too.
        let e = error_of(
            &s,
            &good.replace("wgmma.commit_group", "mov.b32 %a0, 0;\nwgmma.commit_group"),
        );
        assert!(e.contains("%a0") && e.contains("A fragment"), "{e}");
        // Chaining the accumulator through mma_asyncs of one shape needs no fence; a
        // different shape on the same registers does.
        let chain = good.replace(
            "wgmma.commit_group",
            &format!(
                "{op} {}, {{%a0, %a1, %a2, %a3}}, %db, 1, 1, 1, 0;\nwgmma.commit_group",
                s.dregs()
            ),
        );
        assert!(s.run_body(Some(&chain)).is_ok());
        let other = good.replace(
            "wgmma.commit_group",
            "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, %db, 1, 1, 1;\nwgmma.commit_group",
        );
        let e = error_of(&s, &other);
        assert!(e.contains("accumulator of m64n8k16"), "{e}");
        // Registers may be read again after the wait.
        let after = format!("{good}add.f32 %x, %d3, %d3;\n");
        assert!(s.run_body(Some(&after)).is_ok());
    }

    #[test]
    fn shared_memory_ordering_errors() {
        let a = lay(Swizzle::B32, false, 0, 16, 256);
        let b = lay(Swizzle::B32, false, 2048, 16, 256);
        let s = spec(8, "f32", "f16", Some(a), b);
        let good = s.body();
        // Overwriting B while the mma_async is in flight (after a barrier, too).
        let w = good.replace(
            "wgmma.commit_group.sync.aligned;\n",
            "wgmma.commit_group.sync.aligned;\nbar.sync 0;\nst.shared.b32 [%s+2048], %t;\n",
        );
        let e = error_of(&s, &w);
        assert!(
            e.contains("still in flight") && e.contains("overwrites shared byte"),
            "{e}"
        );
        // After the wait, the warpgroup may overwrite it.
        let w = format!("{good}st.shared.b32 [%s+2048], %t;\n");
        assert!(s.run_body(Some(&w)).is_ok());
        // Written with no fence.proxy.async, or with no barrier before the read.
        let img = s.smem();
        let k = s.kernel(img.len(), None);
        let go = |k: &str| {
            let mut mem = Memory::default();
            let src = mem.alloc(&img);
            let regs = mem.alloc(&vec![0u8; 128 * 4 * 8]);
            let out = mem.alloc(&[0u8; 128 * 4 * 4]);
            run(&parse(k)[0], [1, 1, 1], &[src, regs, out], &mut mem)
        };
        assert!(go(&k).is_ok());
        let e = go(&k.replace("fence.proxy.async.shared::cta;\n", "")).unwrap_err();
        assert!(e.contains("no fence.proxy.async"), "{e}");
        let e = go(&k.replace("bar.sync 0;\n", "")).unwrap_err();
        assert!(e.contains("no barrier"), "{e}");
        // A fence before the writes does not cover them.
        let late = k.replace("fence.proxy.async.shared::cta;\n", "").replacen(
            "mov.u32 %t, %tid.x;\n",
            "mov.u32 %t, %tid.x;\nfence.proxy.async;\n",
            1,
        );
        assert!(go(&late).unwrap_err().contains("no fence.proxy.async"));
        // Another warpgroup overwriting the bytes after the wait needs a barrier.
        let mut s2 = spec(8, "f32", "f16", Some(a), b);
        s2.wgs = 2;
        let racy = format!(
            "{}setp.ge.u32 %q, %t, 128;\n@%q st.shared.b32 [%s+1536], %t;\n",
            s2.body()
        );
        let e = s2.run_body(Some(&racy)).unwrap_err();
        assert!(
            e.contains("overwrites shared byte") && e.contains("no barrier between"),
            "{e}"
        );
        let fine = format!(
            "{}bar.sync 0;\nsetp.ge.u32 %q, %t, 128;\n@%q st.shared.b32 [%s+1536], %t;\n",
            s2.body()
        );
        assert!(s2.run_body(Some(&fine)).is_ok());
    }

    #[test]
    fn warpgroup_and_form_errors() {
        let s = spec(8, "f32", "f16", None, interleave(0, 2));
        let good = s.body();
        // A partial warpgroup: a 64-thread kernel, and one warp branching around.
        let img = s.smem();
        let k = s
            .kernel(img.len(), None)
            .replace(".reqntid 128", ".reqntid 64");
        let mut mem = Memory::default();
        let src = mem.alloc(&img);
        let regs = mem.alloc(&[0u8; 128 * 4 * 8]);
        let out = mem.alloc(&[0u8; 128 * 4 * 4]);
        let e = run(&parse(&k)[0], [1, 1, 1], &[src, regs, out], &mut mem).unwrap_err();
        assert!(e.contains("needs whole warpgroups (4 warps)"), "{e}");
        let skip = format!("setp.ge.u32 %q, %t, 96;\n@%q bra SKIP;\n{good}SKIP:\n");
        let e = error_of(&s, &skip);
        // (The scheduler holds the three warps at the collective; the fourth leaves.)
        assert!(
            e.contains("warp 3 exits while warp 0 of its warpgroup waits"),
            "{e}"
        );
        // Forms the ISA does not have, or the simulator does not take.
        for (from, to) in [
            ("m64n8k16", "m64n12k16"),
            ("m64n8k16", "m64n264k16"),
            ("m64n8k16", "m64n8k32"),
            (".f32.f16.f16", ".f16.bf16.bf16"),
            (".f32.f16.f16", ".f32.f16.bf16"),
            ("mma_async.sync", "mma_async.sp.sync"),
            (".f32.f16.f16", ".satfinite.f32.f16.f16"),
        ] {
            let e = error_of(&s, &good.replace(from, to));
            assert!(e.contains("unsupported wgmma form"), "{to}: {e}");
        }
        // The integer forms skip N = 40.
        let mut i = spec(48, "s32", "s8", None, interleave(0, 2));
        let e = error_of(&i, &i.body().replace("m64n48k32", "m64n40k32"));
        assert!(e.contains("unsupported wgmma form"), "{e}");
        i.n = 40;
        assert!(i.run().unwrap_err().contains("unsupported wgmma form"));
        // Operand counts and immediates.
        let e = error_of(&s, &good.replace(", 1, 1, 0;", ", 1, 1;"));
        assert!(e.contains("takes 7 operands"), "{e}");
        let e = error_of(&s, &good.replace(", 1, 1, 0;", ", 2, 1, 0;"));
        assert!(e.contains("imm-scale-a"), "{e}");
        let e = error_of(&s, &good.replace(", 1, 1, 0;", ", 1, 1, 2;"));
        assert!(e.contains("imm-trans-b"), "{e}");
        let e = error_of(&s, &good.replace("{%d0, %d1, %d2, %d3}", "{%d0, %d1, %d2}"));
        assert!(e.contains("needs 4 accumulator registers"), "{e}");
        // A descriptor that differs across the warpgroup, one with a base offset.
        let e = error_of(
            &s,
            &good.replace(
                "mov.b64 %db, 0x",
                "cvt.u64.u32 %db, %t;\nxor.b64 %db, %db, 0x",
            ),
        );
        assert!(e.contains("B descriptor differs"), "{e}");
        let or = |x: &str| {
            good.replace(
                "mov.u32 %sd",
                &format!("or.b64 %db, %db, {x};\nmov.u32 %sd"),
            )
        };
        let e = error_of(&s, &or("0x2000000000000"));
        assert!(e.contains("base offset 1"), "{e}");
        let e = error_of(&s, &or("0x20000000000000"));
        assert!(e.contains("reserved bits"), "{e}");
        // Reading past shared memory.
        let e = error_of(&s, &or("0x3FF0"));
        assert!(e.contains("outside"), "{e}");
        // Predicated, and other wgmma instructions' forms.
        let e = error_of(&s, &good.replace("wgmma.mma_async", "@%p wgmma.mma_async"));
        assert!(e.contains("predicated"), "{e}");
        let e = error_of(
            &s,
            &good.replace("wait_group.sync.aligned 0", "wait_group.sync.aligned %t"),
        );
        assert!(e.contains("immediate"), "{e}");
        let e = error_of(
            &s,
            &good.replace("commit_group.sync.aligned", "commit_group.aligned"),
        );
        assert!(e.contains("unsupported wgmma form"), "{e}");
    }
}
