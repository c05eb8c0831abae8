//! Hopper warpgroup MMA (`wgmma.mma_async`, sm_90a): the plan of an `mmaf` that runs on
//! it, as [`crate::mma`] plans `mma.sync`.
//!
//! A warpgroup is four consecutive warps (128 threads) that issue `wgmma.mma_async`
//! together; one instruction computes a `64 x N` block of the accumulator from A
//! (`64 x 16`) and B (`16 x N`), both read by the tensor cores from shared memory through
//! 64-bit matrix descriptors, with the accumulator in the warpgroup's registers.
//!
//! **What runs on it** ([`wgmma_plan`]): f16 x f16 and bf16 x bf16 products with f32
//! accumulators, rank 2, on `sm_90a`, over a multiple of four warps, with M at least 16
//! rows per warp (64 per warpgroup), N at least 8 and K rows of 32, 64 or 128 bytes (one
//! swizzle atom per row, below) or of a multiple of 128 bytes (column-blocked, below).
//! Everything else keeps `mma.sync`.
//!
//! **Accumulator layout** (PTX ISA, "Matrix fragments for wgmma .m64nNk16", register
//! fragment D): in warpgroup g, warp w (of 4) and lane l hold rows `16w + l/4 + 8*((i/2)%2)`
//! and columns `8*(i/4) + 2*(l%4) + i%2` of the instruction's block in their registers
//! `d_i`. As a linear layout over the `M x N` tile: register bits N0, M3, N3, N4, ...
//! (up to the instruction's N), lane bits N1, N2, M0, M1, M2, warp bits M4, M5 and then
//! the warpgroups over M6, M7, ...; the remaining bits are registers in ascending order
//! (more instructions along N, then more 64-row blocks along M), so each instruction's
//! registers are consecutive slots.
//!
//! **A from registers**: when A is computed rather than loaded (attention's `P` in `P V`)
//! and the product is not pipelined, f16/bf16 A stays in registers in the A fragment
//! layout ([`WgmmaPlan::a_layout`]), which for `K = N` is the accumulator layout of the
//! product that computed it: no shared memory at all.
//!
//! **Operands**: A (`M x K`) and B (staged `N x K`) in shared memory with K fastest
//! (K-major, the default `imm-trans-a = imm-trans-b = 0`), in the swizzled buffers
//! gpu-assign-layouts stages tensor-core operands in ([`crate::gpu::mma_swizzle`]): a row
//! of `R` = 32, 64 or 128 bytes under that swizzle is exactly the 32B, 64B or 128B
//! swizzle mode of the descriptor (16-byte chunks XORed with the row's phase within each
//! `8 x R` atom), so the descriptor of the block at row `r` and k step `s` has its start
//! address at `base + r * R + 32 s`, the stride byte offset between 8-row groups `8 R`
//! and the swizzle mode of `R`; the buffer must be aligned to `8 R` bytes
//! (gpu-allocate-shared aligns swizzled buffers to 1024).
//!
//! **B MN-major** (`imm-trans-b = 1`, f16 and bf16 only): when B's `N` row is one
//! swizzle atom wide (32, 64 or 128 bytes: [`WgmmaPlan::b_mn_major_allowed`]), B is
//! staged as it is loaded, `K x N` with N fastest, under the swizzle of its rows, with no
//! transposition in registers; cp.async copies it like A. Its descriptor: start
//! `base + 16 s R_B` for k step `s` (16 rows of `R_B = N` bytes), the 8-row groups along
//! K `8 R_B` apart, the swizzle mode of `R_B`. The stride between swizzle atoms along N
//! is never used (N is one atom); the descriptor carries `8 R_B` in both of its offset
//! fields, so the K stride is right whichever the hardware reads for it.
//!
//! **A over several atoms along K** (K rows of 256 bytes and more: K = 128 f16, 64 tf32,
//! 256 bytes): A is staged column-blocked like a wide B, `[K bytes / 128] x M x 128
//! bytes`, each block one 128-byte swizzled matrix of M rows ([`WgmmaPlan::a_atoms`]);
//! k step `s` reads block `32 s / 128` at byte `32 s % 128` of its rows (K-major
//! descriptors leave the leading byte offset unused). B staged K-major (`N x K`) is
//! column-blocked the same way, `[K bytes / 128] x N x 128 bytes`, and read through the
//! transposed view of its `N x K` view.
//!
//! **B MN-major, column-blocked**: an N row over 128 bytes (N = 128 or 256 f16) cannot be
//! one swizzle atom, so B is staged as `[N / 64] x K x 64` (each block one 128-byte
//! swizzled matrix of K rows), which the product reads through the view
//! `memdesc_reshape(memdesc_trans(buf, [1, 0, 2]))` as `K x N`. Its descriptor (PTX ISA,
//! "Strides"; CUTLASS's canonical MN-major layouts say the same): the leading byte offset
//! is the stride between atoms along N (`K * 128`), the stride byte offset the one
//! between 8-row groups along K (1024), the 128B swizzle mode; instruction `j` along N
//! starts `j * n_inst / 64` atoms in, k step `s` `16 s` rows down.

use crate::layout::Layout;
use crate::mma::log2;
use crate::target::Arch;
use tilec_ir::Type;

/// One `wgmma.mma_async` instruction and how many of it an `mmaf`/`mmai` issues.
#[derive(Clone, Debug, PartialEq)]
pub struct WgmmaPlan {
    /// The operand element types (`F16`, `BF16`, `TF32`, `F8E4M3FN`, `F8E5M2`, `I8`) and
    /// whether an `I8` operand is signed (`s8`) or not (`u8`).
    pub elem_a: Type,
    pub elem_b: Type,
    pub signed: (bool, bool),
    /// The accumulator type: `F32`, or `I32` for byte integers.
    pub acc: Type,
    /// The instruction's N (8 to 256).
    pub n_inst: u32,
    /// The product's M, N, K.
    pub m: u32,
    pub n: u32,
    pub k: u32,
    /// log2 of the warps (a multiple of 4).
    pub warp_bits: u32,
    /// The layout of the accumulator and the result (`[1 x] M x N`).
    pub c: Layout,
}

/// The bytes of A's and B's rows one instruction reads (its K times the element size,
/// for every operand type: k16 of f16, k8 of tf32, k32 of bytes).
pub const K_STEP_BYTES: u32 = 32;

/// The unit attribute on a warpgroup `mmaf`/`mmai` that stays in flight after it is
/// issued: its accumulator registers are those of its C operand (a value the loop
/// carries), and it waits for the previous group (`wgmma.wait_group 1`) rather than its
/// own; a `ttng.warp_group_dot_wait` after the loop awaits the last one (gpu-pipeline).
pub const ASYNC_ATTR: &str = "ttg.mma_async";

/// The attribute of `ttng.warp_group_dot_wait`: how many groups may stay in flight.
pub const PENDINGS_ATTR: &str = "pendings";

/// The unit attribute of a warpgroup MMA whose shared-memory operands only the copy
/// engine writes (each thread waited for their stage's mbarrier) or, under the copy
/// engine's run-time alternative, whose writers fenced them for the async proxy and
/// synchronised in the IR before it: the writer adds no proxy fence and no CTA barrier
/// of its own.
pub const ASYNC_OPERANDS_ATTR: &str = "ttg.async_operands";

impl WgmmaPlan {
    /// The name recorded in `ttg.mma`: `wgmma.m64nNkK.D.A.B`, as PTX spells the
    /// instruction after `wgmma.mma_async.sync.aligned.`.
    pub fn name(&self) -> String {
        format!(
            "wgmma.m64n{}k{}.{}.{}.{}",
            self.n_inst,
            self.k_step(),
            if self.acc == Type::I32 { "s32" } else { "f32" },
            type_name(self.elem_a, self.signed.0),
            type_name(self.elem_b, self.signed.1)
        )
    }

    /// The instruction's K.
    pub fn k_step(&self) -> u32 {
        K_STEP_BYTES / crate::sizes::elem_bytes(self.elem_a)
    }

    /// The operands after the descriptors and `scale-d`: `imm-scale-a, imm-scale-b` (1:
    /// not negated) for floats, and `imm-trans-a, imm-trans-b` (0: K-major) for f16 and
    /// bf16 (no `imm-trans-a` when A is in registers); none for integers.
    /// `imm-trans-b` is 1 for B staged MN-major.
    pub fn immediates(&self, a_in_registers: bool, b_mn_major: bool) -> &'static str {
        match (self.elem_a, a_in_registers, b_mn_major) {
            (Type::F16 | Type::BF16, false, false) => ", 1, 1, 0, 0",
            (Type::F16 | Type::BF16, false, true) => ", 1, 1, 0, 1",
            (Type::F16 | Type::BF16, true, false) => ", 1, 1, 0",
            (Type::F16 | Type::BF16, true, true) => ", 1, 1, 1",
            (Type::I8, ..) => "",
            _ => ", 1, 1",
        }
    }

    /// Warpgroups (four warps each).
    pub fn warpgroups(&self) -> u32 {
        1 << (self.warp_bits - 2)
    }

    /// The 64-row blocks each warpgroup computes.
    pub fn m_blocks(&self) -> u32 {
        self.m / (64 * self.warpgroups())
    }

    /// The instructions along N.
    pub fn n_blocks(&self) -> u32 {
        self.n / self.n_inst
    }

    /// The k steps (instructions along K).
    pub fn k_steps(&self) -> u32 {
        self.k / self.k_step()
    }

    /// Accumulator registers per thread of one instruction.
    pub fn regs_per_inst(&self) -> u32 {
        self.n_inst / 2
    }

    /// Whether A may come from registers (PTX allows it for every type; tilec uses it for
    /// f16 and bf16, whose A fragment is a 16-bit accumulator fragment of the same
    /// shape: see [`WgmmaPlan::a_layout`]).
    pub fn a_in_registers_allowed(&self) -> bool {
        matches!(self.elem_a, Type::F16 | Type::BF16)
    }

    /// The layout of A (`M x K`) held in registers as the instructions read it (PTX ISA,
    /// "Register Fragments", the A figure of m64nNk16: per warp 16 rows as `mma.m16n8k16`'s
    /// A; `a0..a7` at rows `g`, `g + 8` and columns `2q`, `2q + 1`, `2q + 8`, `2q + 9`, `g`
    /// the lane / 4 and `q` the lane % 4): register bits K0, M3, K3, then the k steps'
    /// K4, K5, ..., lane bits K1, K2, M0, M1, M2, warp bits M4, M5 and the warpgroups;
    /// the remaining M bits (more 64-row blocks) are registers after them. Each k step's
    /// eight elements of a 64-row block are consecutive slots, `a0..a7` in order: the
    /// accumulator layout of a product with N = K (what attention's `P V` gets from its
    /// `Q K^T`).
    pub fn a_layout(&self) -> Layout {
        let k = self.k.trailing_zeros();
        fragment_layout(self.m.trailing_zeros(), k, k, self.warp_bits)
    }

    /// Bytes of one row of A or of staged B (K elements).
    pub fn row_bytes(&self) -> u32 {
        self.k * crate::sizes::elem_bytes(self.elem_a)
    }

    /// The 128-byte swizzle atoms along K of a row of A staged in shared memory (1 for
    /// rows of 128 bytes or less; more: column-blocked, see the module docs).
    pub fn a_atoms(&self) -> u32 {
        self.row_bytes().div_ceil(128)
    }

    /// Bytes between consecutive rows of A in shared memory (of one block when
    /// column-blocked).
    pub fn row_stride(&self) -> u32 {
        self.row_bytes().min(128)
    }

    /// Whether B may be staged MN-major (`K x N`, N fastest, read with `imm-trans-b = 1`):
    /// 16-bit types, and either one instruction along N over an N row of 32, 64 or 128
    /// bytes (one swizzle atom), or N rows of a multiple of 128 bytes, staged
    /// column-blocked ([`WgmmaPlan::b_mn_atoms`] 128-byte atoms side by side).
    pub fn b_mn_major_allowed(&self) -> bool {
        let row = self.b_mn_row_bytes();
        matches!(self.elem_b, Type::F16 | Type::BF16)
            && ((self.n_blocks() == 1 && matches!(row, 32 | 64 | 128))
                || (row > 128 && row.is_multiple_of(128)))
    }

    /// The 128-byte swizzle atoms side by side along N of B staged MN-major (1 for an N
    /// row of one atom): a wider row is staged column-blocked, `[atoms x K x 64]` (see the
    /// module docs).
    pub fn b_mn_atoms(&self) -> u32 {
        self.b_mn_row_bytes().div_ceil(128)
    }

    /// Bytes of one row of B staged MN-major (N elements).
    pub fn b_mn_row_bytes(&self) -> u32 {
        self.n * crate::sizes::elem_bytes(self.elem_b)
    }

    /// The descriptor's swizzle mode for the rows (bits 62-63: 1 = 128B, 2 = 64B,
    /// 3 = 32B).
    pub fn swizzle_mode(&self) -> u64 {
        swizzle_mode(self.row_stride())
    }
}

/// A descriptor's swizzle mode for rows of `row_bytes` (bits 62-63: 1 = 128B, 2 = 64B,
/// 3 = 32B).
pub fn swizzle_mode(row_bytes: u32) -> u64 {
    match row_bytes {
        128 => 1,
        64 => 2,
        _ => 3,
    }
}

fn type_name(t: Type, signed: bool) -> &'static str {
    match t {
        Type::BF16 => "bf16",
        Type::TF32 => "tf32",
        Type::F8E4M3FN => "e4m3",
        Type::F8E5M2 => "e5m2",
        Type::I8 if signed => "s8",
        Type::I8 => "u8",
        _ => "f16",
    }
}

/// The operand type and signedness PTX's name `t` stands for.
fn type_of(t: &str) -> Option<(Type, bool)> {
    Some(match t {
        "f16" => (Type::F16, true),
        "bf16" => (Type::BF16, true),
        "tf32" => (Type::TF32, true),
        "e4m3" => (Type::F8E4M3FN, true),
        "e5m2" => (Type::F8E5M2, true),
        "s8" => (Type::I8, true),
        "u8" => (Type::I8, false),
        _ => return None,
    })
}

/// Whether warpgroup MMA multiplies A and B of these types into accumulators of `acc`:
/// f16 or bf16 (both the same), tf32, any two of e4m3/e5m2 into f32; bytes into s32.
fn supported(a: Type, b: Type, acc: Type) -> bool {
    let fp8 = |t| matches!(t, Type::F8E4M3FN | Type::F8E5M2);
    match acc {
        Type::F32 => {
            (a == b && matches!(a, Type::F16 | Type::BF16 | Type::TF32)) || (fp8(a) && fp8(b))
        }
        Type::I32 => a == Type::I8 && b == Type::I8,
        _ => false,
    }
}

/// The warpgroup MMA instruction recorded on product `op` (`ttg.mma`), if it records one.
pub fn recorded(m: &tilec_ir::Module, op: tilec_ir::Op) -> Option<&str> {
    m.attr_named(op, crate::mma::MMA_ATTR)
        .and_then(|a| m.ctx.attrs.get_str(a))
        .filter(|n| n.starts_with("wgmma."))
}

/// The decision: the wgmma plan of `A x B + C` (shapes `[1 x] M x K`, `[1 x] K x N`,
/// `signed`: of byte operands) over `2^warp_bits` warps on `arch`, when it runs on
/// warpgroup MMA (see the module docs).
#[allow(clippy::too_many_arguments)]
pub fn wgmma_plan(
    a_shape: &[i64],
    b_shape: &[i64],
    elem_a: Type,
    elem_b: Type,
    elem_c: Type,
    signed: (bool, bool),
    warp_bits: u32,
    arch: Arch,
) -> Option<WgmmaPlan> {
    if arch != Arch::Sm90a || !supported(elem_a, elem_b, elem_c) {
        return None;
    }
    let n_inst = b_shape.last().map_or(0, |n| (*n).min(256));
    let types = (elem_a, elem_b, signed, elem_c);
    plan(types, n_inst as u32, a_shape, b_shape, warp_bits)
}

/// The plan of the instruction recorded as `name` ([`WgmmaPlan::name`]) for these
/// shapes, if it names one and they fit it: how the writer derives what
/// gpu-assign-layouts decided.
pub fn wgmma_plan_for(
    name: &str,
    a_shape: &[i64],
    b_shape: &[i64],
    warp_bits: u32,
) -> Option<WgmmaPlan> {
    let rest = name.strip_prefix("wgmma.m64n")?;
    let (n, rest) = rest.split_once('k')?;
    let mut parts = rest.split('.');
    let _k = parts.next()?;
    let acc = match parts.next()? {
        "f32" => Type::F32,
        "s32" => Type::I32,
        _ => return None,
    };
    let (a, sa) = type_of(parts.next()?)?;
    let (b, sb) = type_of(parts.next()?)?;
    if parts.next().is_some() || !supported(a, b, acc) {
        return None;
    }
    let p = plan(
        (a, b, (sa, sb), acc),
        n.parse().ok()?,
        a_shape,
        b_shape,
        warp_bits,
    )?;
    (p.name() == name).then_some(p)
}

fn plan(
    (elem_a, elem_b, signed, acc): (Type, Type, (bool, bool), Type),
    n_inst: u32,
    a_shape: &[i64],
    b_shape: &[i64],
    warp_bits: u32,
) -> Option<WgmmaPlan> {
    // `[1 x] M x K` and `[1 x] K x N` (a batch of one is the product itself).
    let strip = |s: &[i64]| -> Option<[i64; 2]> {
        match s {
            [1, a, b] | [a, b] => Some([*a, *b]),
            _ => None,
        }
    };
    let batched = a_shape.len() == 3;
    let (a_shape, b_shape) = (strip(a_shape)?, strip(b_shape)?);
    if a_shape[1] != b_shape[0] {
        return None;
    }
    // A batch of one stages its operands in 3-D buffers, which are not column-blocked:
    // rows of A along K and of B along N must fit one 128-byte swizzle atom (a 1 x 16 x
    // 128 f16 B was planned and then refused by the writer; structured random kernel
    // 30478).
    let bytes = |n: i64, t: Type| n as u64 * u64::from(crate::sizes::elem_bytes(t));
    if batched && (bytes(a_shape[1], elem_a) > 128 || bytes(b_shape[1], elem_b) > 128) {
        return None;
    }
    let (m, n) = (log2(a_shape[0])?, log2(b_shape[1])?);
    log2(a_shape[1])?;
    let ni = log2(n_inst as i64)?;
    // Four warps per warpgroup, 16 rows per warp; K rows of 32, 64 or 128 bytes, or of
    // several 128-byte atoms; N of 8
    // to 256 per instruction.
    let row = (a_shape[1] as u64) * u64::from(crate::sizes::elem_bytes(elem_a));
    if warp_bits < 2
        || m < 4 + warp_bits
        || !(matches!(row, 32 | 64 | 128) || (row > 128 && row.is_multiple_of(128)))
        || !(3..=8).contains(&ni)
        || ni > n
    {
        return None;
    }
    Some(WgmmaPlan {
        elem_a,
        elem_b,
        signed,
        acc,
        n_inst,
        m: 1 << m,
        n: 1 << n,
        k: a_shape[1] as u32,
        warp_bits,
        c: fragment_layout(m, n, ni, warp_bits),
    })
}

/// The register fragment of an `M x C` tile (`2^m` rows, `2^c` columns, C the lowest
/// element bits) that warpgroup MMA reads or writes, `2^ci` columns per instruction: the
/// D fragment (C = N, `ci` the instruction's N) and, for 16-bit A, the A fragment (C = K,
/// every K bit in the instructions' order). Register bits C0, M3, then C3 .. C(ci-1);
/// lane bits C1, C2, M0, M1, M2; warp bits M4, M5 and then the warpgroups; the remaining
/// bits (more columns, then more 64-row blocks) are registers in ascending order.
fn fragment_layout(m: u32, c: u32, ci: u32, warp_bits: u32) -> Layout {
    let cb = |b: u32| b as u8;
    let mb = |b: u32| (c + b) as u8;
    let mut reg: Vec<u8> = vec![cb(0), mb(3)];
    reg.extend((3..ci).map(cb));
    let lane = [
        Some(cb(1)),
        Some(cb(2)),
        Some(mb(0)),
        Some(mb(1)),
        Some(mb(2)),
    ];
    let warp: Vec<Option<u8>> = (0..warp_bits).map(|w| Some(mb(4 + w))).collect();
    Layout::with_free_registers(m + c, reg, lane, warp)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The accumulator layout puts register `i` of thread `t` of the first instruction at
    /// the row and column of the ISA's D fragment.
    /// The sm_90a plan of an f16 x f16 -> f32 product of these shapes over `warps` warps.
    fn f16_plan(a: &[i64], b: &[i64], warps: u32) -> WgmmaPlan {
        let (f16, f32) = (Type::F16, Type::F32);
        wgmma_plan(
            a,
            b,
            f16,
            f16,
            f32,
            (true, true),
            warps.trailing_zeros(),
            Arch::Sm90a,
        )
        .expect("a plan")
    }

    /// The element bits thread `lane` of warp `w` holds in `l` (its lane and warp bits).
    fn thread_elem(l: &Layout, w: u32, lane: u32) -> u64 {
        let mut thread = 0u64;
        for (j, b) in l.lane.iter().enumerate() {
            if let Some(b) = b
                && lane >> j & 1 == 1
            {
                thread ^= 1 << b;
            }
        }
        for (j, b) in l.warp.iter().enumerate() {
            if let Some(b) = b
                && w >> j & 1 == 1
            {
                thread ^= 1 << b;
            }
        }
        thread
    }

    #[test]
    fn a_register_layout_is_the_isa_fragment() {
        // m64nNk16 A in registers: a0..a7 of k step s, 64-row block b at rows
        // 64 b' + 16 w + g (+8) and columns 16 s + 2 q (+1, +8); g = lane / 4, q = lane % 4.
        for (m, k, warps) in [(64, 64, 4u32), (128, 32, 4), (128, 64, 8)] {
            let p = f16_plan(&[m, k], &[k, 64], warps);
            let l = &p.a_layout();
            let kbits = k.trailing_zeros();
            for t in 0..32 * warps {
                let (w, lane) = (t / 32, t % 32);
                let thread = thread_elem(l, w, lane);
                for blk in 0..p.m_blocks() {
                    for st in 0..p.k_steps() {
                        for i in 0..8u32 {
                            let slot = (8 * (st + p.k_steps() * blk) + i) as usize;
                            let e = thread ^ l.slot_elem(slot);
                            let (row, col) = (e >> kbits, e & ((1 << kbits) - 1));
                            let g = w / 4;
                            let want_row = 64 * u64::from(blk * p.warpgroups() + g)
                                + 16 * u64::from(w % 4)
                                + u64::from(lane / 4)
                                + 8 * u64::from((i / 2) % 2);
                            let want_col = 16 * u64::from(st)
                                + 8 * u64::from(i / 4)
                                + 2 * u64::from(lane % 4)
                                + u64::from(i % 2);
                            assert_eq!(
                                (row, col),
                                (want_row, want_col),
                                "{m}x{k}, thread {t}, block {blk}, step {st}, a{i}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn accumulator_layout_is_the_isa_fragment() {
        for (m, n, warps) in [(64, 64, 4u32), (128, 128, 8), (128, 256, 4), (64, 8, 4)] {
            let p = f16_plan(&[m, 32], &[32, n], warps);
            let l = &p.c;
            let nbits = n.trailing_zeros();
            for t in 0..32 * warps {
                let (w, lane) = (t / 32, t % 32);
                let thread = thread_elem(l, w, lane);
                for i in 0..p.regs_per_inst() {
                    let e = thread ^ l.slot_elem(i as usize);
                    let (row, col) = (e >> nbits, e & ((1 << nbits) - 1));
                    let g = w / 4;
                    let want_row = 64 * g as u64
                        + 16 * (w % 4) as u64
                        + (lane / 4) as u64
                        + 8 * ((i / 2) % 2) as u64;
                    let want_col = 8 * (i / 4) as u64 + 2 * (lane % 4) as u64 + (i % 2) as u64;
                    assert_eq!(
                        (row, col),
                        (want_row, want_col),
                        "{m}x{n}, thread {t}, d{i}"
                    );
                }
            }
        }
    }

    /// B MN-major: one swizzle atom per N row, or column-blocked rows of 128-byte atoms.
    #[test]
    fn b_mn_major_widths() {
        let b = |n: i64| {
            let p = f16_plan(&[64, 32], &[32, n], 4);
            (p.b_mn_major_allowed(), p.b_mn_atoms(), p.n_inst)
        };
        assert_eq!(b(16), (true, 1, 16));
        assert_eq!(b(64), (true, 1, 64));
        assert_eq!(b(128), (true, 2, 128));
        assert_eq!(b(256), (true, 4, 256));
        assert_eq!(b(512), (true, 8, 256));
        let tf32 = wgmma_plan(
            &[64, 16],
            &[16, 128],
            Type::TF32,
            Type::TF32,
            Type::F32,
            (true, true),
            2,
            Arch::Sm90a,
        )
        .expect("a plan");
        assert!(!tf32.b_mn_major_allowed(), "tf32 is K-major only");
    }

    #[test]
    fn the_types_and_shapes_it_takes() {
        let p = |ea, ec, arch, k: i64, warps: u32| {
            wgmma_plan(&[64, k], &[k, 64], ea, ea, ec, (true, false), warps, arch).map(|p| p.name())
        };
        let f32 = Type::F32;
        assert_eq!(
            p(Type::F16, f32, Arch::Sm90a, 32, 2).as_deref(),
            Some("wgmma.m64n64k16.f32.f16.f16")
        );
        assert_eq!(
            p(Type::BF16, f32, Arch::Sm90a, 64, 2).as_deref(),
            Some("wgmma.m64n64k16.f32.bf16.bf16")
        );
        assert_eq!(
            p(Type::TF32, f32, Arch::Sm90a, 32, 2).as_deref(),
            Some("wgmma.m64n64k8.f32.tf32.tf32")
        );
        assert_eq!(
            p(Type::F8E4M3FN, f32, Arch::Sm90a, 64, 2).as_deref(),
            Some("wgmma.m64n64k32.f32.e4m3.e4m3")
        );
        assert_eq!(
            p(Type::I8, Type::I32, Arch::Sm90a, 128, 2).as_deref(),
            Some("wgmma.m64n64k32.s32.s8.u8")
        );
        assert_eq!(p(Type::F16, f32, Arch::Sm90, 32, 2), None);
        assert_eq!(p(Type::F16, Type::F16, Arch::Sm90a, 32, 2), None);
        assert_eq!(
            p(Type::F16, f32, Arch::Sm90a, 128, 2).as_deref(),
            Some("wgmma.m64n64k16.f32.f16.f16"),
            "256-byte rows, column-blocked"
        );
        let wide = wgmma_plan(
            &[64, 256],
            &[256, 64],
            Type::F8E4M3FN,
            Type::F8E4M3FN,
            f32,
            (true, true),
            2,
            Arch::Sm90a,
        )
        .expect("a plan");
        assert_eq!(
            (wide.a_atoms(), wide.row_stride(), wide.k_steps()),
            (2, 128, 8)
        );
        assert_eq!(p(Type::F16, f32, Arch::Sm90a, 8, 2), None, "16-byte rows");
        assert_eq!(p(Type::TF32, f32, Arch::Sm90a, 4, 2), None, "16-byte rows");
        assert_eq!(p(Type::F16, f32, Arch::Sm90a, 32, 1), None, "two warps");
        assert_eq!(
            p(Type::F16, f32, Arch::Sm90a, 32, 3),
            None,
            "M < 128 for 8 warps"
        );
        let name = "wgmma.m64n64k16.f32.f16.f16";
        let plan = wgmma_plan_for(name, &[64, 32], &[32, 64], 2);
        assert_eq!(plan.map(|p| (p.k_steps(), p.swizzle_mode())), Some((2, 2)));
        let batch1 = wgmma_plan_for(name, &[1, 64, 64], &[1, 64, 64], 2);
        assert_eq!(
            batch1.map(|p| (p.k_steps(), p.swizzle_mode())),
            Some((4, 1))
        );
        // A batch of one whose rows need more than one swizzle atom (B's N row of 256
        // bytes, A's K row of 256) stays on mma.sync; the same product unbatched does not.
        let wide = |a: &[i64], b: &[i64]| {
            wgmma_plan(
                a,
                b,
                Type::F16,
                Type::F16,
                f32,
                (true, true),
                2,
                Arch::Sm90a,
            )
            .is_some()
        };
        assert!(!wide(&[1, 64, 16], &[1, 16, 128]));
        assert!(!wide(&[1, 64, 128], &[1, 128, 64]));
        assert!(wide(&[64, 16], &[16, 128]));
        assert!(wide(&[64, 128], &[128, 64]));
        assert!(wide(&[1, 64, 64], &[1, 64, 64]));
        assert_eq!(wgmma_plan_for(name, &[64, 32], &[32, 32], 2), None);
        assert_eq!(
            wgmma_plan_for("wgmma.m64n64k8.f32.f16.f16", &[64, 32], &[32, 64], 2),
            None
        );
        assert_eq!(
            wgmma_plan_for("wgmma.m64n64k16.f16.f16.f16", &[64, 32], &[32, 64], 2),
            None
        );
    }
}
