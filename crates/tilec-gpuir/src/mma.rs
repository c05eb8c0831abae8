//! `mmaf` / `mmai` on tensor cores: `mma.sync.aligned.m16n8k{8,16,32}.row.col` (sm_80+).
//!
//! [`mma_plan`] is a pure decision: given the operand shapes and element types, the number
//! of warps and the target, it says whether the product runs on tensor cores and, if so,
//! which instruction, the layouts the three operands must have, and the sequence of
//! instructions each warp issues (which packed registers each one reads and writes). The
//! emitter ([`Kernel::emit_mma_sync`]) follows the plan literally, and the unit tests
//! (`mma/tests.rs`) check the layouts against the PTX ISA's fragment formulas and replay the
//! issue sequence on a CPU model of `mma.sync`.
//!
//! **Layouts.** The fragment maps of these instructions are linear single-bit layouts over
//! the row-major element index of the instruction tile (16 x k for A, k x 8 for B, 16 x 8
//! for the accumulator). The layout of a whole operand tile takes the instruction tile's
//! register and lane bits, then gives the warp bits to the product's M bits above the
//! instruction's 16 rows, then (when M runs out) to N bits above its 8 columns, then to the
//! batch bits of a rank-3 product; warp bits left over replicate (those warps compute the
//! same elements). An operand that lacks the axis a warp bit tiles (A has no N, B no M) is
//! replicated over that warp bit. Every other element bit is a register bit, after the
//! fragment's own register bits, in ascending order. So the batch of a rank-3 product is
//! handled by warps first and registers after: no loop, one straight-line instruction
//! sequence.
//!
//! **Issue order.** For each k step (ascending), for each accumulator instruction tile held
//! in registers (in slot order): one `mma.sync`. Every accumulator element therefore sees
//! its k steps in ascending order.
//!
//! **Operands** (docs/ptx-backend.md, "Tensor cores"): convert-to-gpu stages A and B that
//! sit in other threads in swizzled shared memory (`ttg.local_alloc`, B transposed
//! through a `ttg.memdesc_trans` view) and the fragment registers are loaded with
//! `ldmatrix` (`ld.shared.b32` where [`ldmatrix_lanes`] finds no 8x8 matrices) before
//! their first use; A and B already in place are packed in registers; the accumulator
//! arrives in its fragment layout.

use crate::layout::Layout;
use crate::target::Arch;
use tilec_ir::Type;

/// The tensor-core instructions tilec issues.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MmaKind {
    /// `m16n8k16`, f16 x f16 + f32 -> f32.
    F16F32,
    /// `m16n8k16`, f16 x f16 + f16 -> f16.
    F16F16,
    /// `m16n8k16`, bf16 x bf16 + f32 -> f32.
    Bf16F32,
    /// `m16n8k8`, tf32 x tf32 + f32 -> f32.
    Tf32F32,
    /// `m16n8k32`, {s8,u8} x {s8,u8} + s32 -> s32 (wrapping, not `.satfinite`).
    I8I32,
    /// `m16n8k32`, e4m3 x e4m3 + f32 -> f32 (sm_89 and later).
    E4m3F32,
    /// `m16n8k32`, e5m2 x e5m2 + f32 -> f32 (sm_89 and later).
    E5m2F32,
}

/// An axis of the product: `A` is `batch x M x K`, `B` is `batch x K x N`, the
/// accumulator `batch x M x N`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    Batch,
    M,
    N,
    K,
}

/// The fragment of one operand of one instruction: the (axis, bit) each fragment register
/// index bit and each lane bit selects inside the instruction tile.
#[derive(Copy, Clone, Debug)]
pub struct Frag {
    pub reg: &'static [(Axis, u8)],
    pub lane: [(Axis, u8); 5],
}

use Axis::{K, M, N};

/// Accumulator fragment, the same for every kind: c_i at row groupID + 8 (i >> 1), column
/// 2 threadID_in_group + (i & 1).
const C_FRAG: Frag = Frag {
    reg: &[(N, 0), (M, 3)],
    lane: [(N, 1), (N, 2), (M, 0), (M, 1), (M, 2)],
};

/// The attribute convert-to-gpu records on an `mmaf`/`mmai` that runs on tensor cores:
/// the instruction, as [`MmaKind::name`] spells it (`"m16n8k16.f32.f16.f16.f32"`). The
/// writer issues that instruction along [`mma_plan_for`]; a product without it runs in
/// the shared-memory fallback loop.
pub const MMA_ATTR: &str = "ttg.mma";

impl MmaKind {
    pub const ALL: [MmaKind; 7] = [
        MmaKind::F16F32,
        MmaKind::F16F16,
        MmaKind::Bf16F32,
        MmaKind::Tf32F32,
        MmaKind::I8I32,
        MmaKind::E4m3F32,
        MmaKind::E5m2F32,
    ];

    /// The instruction's shape and types as PTX writes them after `mma.sync.aligned.`
    /// (`.row.col` left out): shape, D, A, B, C.
    pub fn name(self) -> &'static str {
        match self {
            MmaKind::F16F32 => "m16n8k16.f32.f16.f16.f32",
            MmaKind::F16F16 => "m16n8k16.f16.f16.f16.f16",
            MmaKind::Bf16F32 => "m16n8k16.f32.bf16.bf16.f32",
            MmaKind::Tf32F32 => "m16n8k8.f32.tf32.tf32.f32",
            MmaKind::I8I32 => "m16n8k32.s32.s8.s8.s32",
            MmaKind::E4m3F32 => "m16n8k32.f32.e4m3.e4m3.f32",
            MmaKind::E5m2F32 => "m16n8k32.f32.e5m2.e5m2.f32",
        }
    }

    /// The kind [`MmaKind::name`] spells `name`.
    pub fn from_name(name: &str) -> Option<MmaKind> {
        MmaKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The kind recorded on `op` ([`MMA_ATTR`]): `None` without the attribute, an error
    /// naming it when it is not one of [`MmaKind::ALL`].
    pub fn recorded(m: &tilec_ir::Module, op: tilec_ir::Op) -> Option<Result<MmaKind, String>> {
        let a = m.attr_named(op, MMA_ATTR)?;
        Some(match m.ctx.attrs.get(a) {
            tilec_ir::attrs::AttrData::String(s) => MmaKind::from_name(s).ok_or_else(|| {
                format!(
                    "'{MMA_ATTR}' names no tensor-core instruction tilec issues: \"{s}\" (one of {})",
                    MmaKind::ALL.map(|k| format!("\"{}\"", k.name())).join(", ")
                )
            }),
            _ => Err(format!("'{MMA_ATTR}' must be a string")),
        })
    }

    /// The oldest target that has the instruction: sm_80, sm_89 for the float8 kinds.
    pub fn min_sm(self) -> u32 {
        match self {
            MmaKind::F16F32
            | MmaKind::F16F16
            | MmaKind::Bf16F32
            | MmaKind::Tf32F32
            | MmaKind::I8I32 => 80,
            MmaKind::E4m3F32 | MmaKind::E5m2F32 => 89,
        }
    }

    /// The PTX ISA version the instruction needs where that is newer than what its
    /// oldest target needs: 8.4 for the float8 kinds.
    pub fn min_ptx_version(self) -> Option<(u32, u32)> {
        match self {
            MmaKind::F16F32
            | MmaKind::F16F16
            | MmaKind::Bf16F32
            | MmaKind::Tf32F32
            | MmaKind::I8I32 => None,
            MmaKind::E4m3F32 | MmaKind::E5m2F32 => Some((8, 4)),
        }
    }

    /// The instruction's k.
    pub fn k(self) -> u32 {
        match self {
            MmaKind::F16F32 | MmaKind::F16F16 | MmaKind::Bf16F32 => 16,
            MmaKind::Tf32F32 => 8,
            MmaKind::I8I32 | MmaKind::E4m3F32 | MmaKind::E5m2F32 => 32,
        }
    }

    /// Operand elements per 32-bit register of A and B.
    pub fn ab_per_reg(self) -> usize {
        match self {
            MmaKind::F16F32 | MmaKind::F16F16 | MmaKind::Bf16F32 => 2,
            MmaKind::Tf32F32 => 1,
            MmaKind::I8I32 | MmaKind::E4m3F32 | MmaKind::E5m2F32 => 4,
        }
    }

    /// Accumulator elements per register.
    pub fn c_per_reg(self) -> usize {
        match self {
            MmaKind::F16F16 => 2,
            _ => 1,
        }
    }

    /// The fragment of A (16 x k).
    pub fn a_frag(self) -> Frag {
        match self {
            // a_i: row groupID + 8 ((i >> 1) & 1), col 2 tig + (i & 1) + 8 (i >> 2).
            MmaKind::F16F32 | MmaKind::F16F16 | MmaKind::Bf16F32 => Frag {
                reg: &[(K, 0), (M, 3), (K, 3)],
                lane: [(K, 1), (K, 2), (M, 0), (M, 1), (M, 2)],
            },
            // a_i: row groupID + 8 (i & 1), col tig + 4 (i >> 1).
            MmaKind::Tf32F32 => Frag {
                reg: &[(M, 3), (K, 2)],
                lane: [(K, 0), (K, 1), (M, 0), (M, 1), (M, 2)],
            },
            // a_i: row groupID + 8 ((i >> 2) & 1), col 4 tig + (i & 3) + 16 (i >> 3).
            MmaKind::I8I32 | MmaKind::E4m3F32 | MmaKind::E5m2F32 => Frag {
                reg: &[(K, 0), (K, 1), (M, 3), (K, 4)],
                lane: [(K, 2), (K, 3), (M, 0), (M, 1), (M, 2)],
            },
        }
    }

    /// The fragment of B (k x 8).
    pub fn b_frag(self) -> Frag {
        match self {
            // b_i: row 2 tig + (i & 1) + 8 (i >> 1), col groupID.
            MmaKind::F16F32 | MmaKind::F16F16 | MmaKind::Bf16F32 => Frag {
                reg: &[(K, 0), (K, 3)],
                lane: [(K, 1), (K, 2), (N, 0), (N, 1), (N, 2)],
            },
            // b_i: row tig + 4 i, col groupID.
            MmaKind::Tf32F32 => Frag {
                reg: &[(K, 2)],
                lane: [(K, 0), (K, 1), (N, 0), (N, 1), (N, 2)],
            },
            // b_i: row 4 tig + (i & 3) + 16 (i >> 2), col groupID.
            MmaKind::I8I32 | MmaKind::E4m3F32 | MmaKind::E5m2F32 => Frag {
                reg: &[(K, 0), (K, 1), (K, 4)],
                lane: [(K, 2), (K, 3), (N, 0), (N, 1), (N, 2)],
            },
        }
    }

    /// The fragment of the accumulator (16 x 8).
    pub fn c_frag(self) -> Frag {
        C_FRAG
    }

    /// The instruction, with the operand signedness of `I8I32` (`true`: `.s8`).
    pub fn opcode(self, signed_a: bool, signed_b: bool) -> String {
        let s = |signed: bool| if signed { "s8" } else { "u8" };
        match self {
            MmaKind::F16F32 => "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32".into(),
            MmaKind::F16F16 => "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16".into(),
            MmaKind::Bf16F32 => "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32".into(),
            MmaKind::Tf32F32 => "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32".into(),
            MmaKind::I8I32 => format!(
                "mma.sync.aligned.m16n8k32.row.col.s32.{}.{}.s32",
                s(signed_a),
                s(signed_b)
            ),
            MmaKind::E4m3F32 => "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32".into(),
            MmaKind::E5m2F32 => "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32".into(),
        }
    }
}

/// One `mma.sync` of a warp: the packed registers it reads of A and B and reads and
/// writes of the accumulator, in fragment order. Packed register `j` of an operand holds
/// its slots `j * per .. (j + 1) * per` (lowest slot in the lowest bits), where `per` is
/// [`MmaKind::ab_per_reg`] or [`MmaKind::c_per_reg`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MmaIssue {
    pub a: Vec<usize>,
    pub b: Vec<usize>,
    pub c: Vec<usize>,
}

/// How one mma runs on tensor cores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MmaPlan {
    pub kind: MmaKind,
    /// Layout of A (`[batch x] M x K`).
    pub a: Layout,
    /// Layout of B (`[batch x] K x N`).
    pub b: Layout,
    /// Layout of the accumulator and the result (`[batch x] M x N`).
    pub c: Layout,
    /// The instructions every warp issues, in order.
    pub issues: Vec<MmaIssue>,
    w: Widths,
}

impl MmaPlan {
    /// The layout of A over the index of A as it is staged in shared memory: A's own
    /// (row-major `M x K`), so that the elements of one packed register are consecutive.
    pub fn a_staged(&self) -> Layout {
        self.a.clone()
    }

    /// Whether B may be staged MN-major (`K x N` as it is, N fastest) and read with
    /// `ldmatrix.trans`: 16-bit operands, and N at least one 16-byte row (8 elements).
    pub fn b_mn_major_allowed(&self) -> bool {
        matches!(
            self.kind,
            MmaKind::F16F32 | MmaKind::F16F16 | MmaKind::Bf16F32
        ) && self.w.n >= 3
    }

    /// The layout of B over the index of B as it is staged in shared memory: transposed
    /// (`N x K`, K fastest), so that the elements of one packed register, which run along
    /// K, are consecutive.
    pub fn b_staged(&self) -> Layout {
        self.b.remap(self.b.nbits, &self.b_stage_map(), &[])
    }

    /// Element bit of B -> bit of its staged (transposed) index.
    pub fn b_stage_map(&self) -> Vec<Option<u8>> {
        let w = &self.w;
        (0..self.b.nbits)
            .map(|e| {
                Some(if e < w.n {
                    w.k + e // N bit: above K
                } else if e < w.n + w.k {
                    e - w.n // K bit: lowest
                } else {
                    e // batch bit
                } as u8)
            })
            .collect()
    }
}

/// The tensor-core instruction for these element types, if there is one.
pub fn mma_kind(elem_a: Type, elem_b: Type, elem_c: Type) -> Option<MmaKind> {
    Some(match (elem_a, elem_b, elem_c) {
        (Type::F16, Type::F16, Type::F32) => MmaKind::F16F32,
        (Type::F16, Type::F16, Type::F16) => MmaKind::F16F16,
        (Type::BF16, Type::BF16, Type::F32) => MmaKind::Bf16F32,
        (Type::TF32, Type::TF32, Type::F32) => MmaKind::Tf32F32,
        (Type::I8, Type::I8, Type::I32) => MmaKind::I8I32,
        (Type::F8E4M3FN, Type::F8E4M3FN, Type::F32) => MmaKind::E4m3F32,
        (Type::F8E5M2, Type::F8E5M2, Type::F32) => MmaKind::E5m2F32,
        _ => return None,
    })
}

/// log2 of a power of two (`None` for anything else).
pub(crate) fn log2(x: i64) -> Option<u32> {
    (x > 0 && (x as u64).is_power_of_two()).then(|| x.trailing_zeros())
}

/// The bit widths of the product's axes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Widths {
    batch: u32,
    m: u32,
    n: u32,
    k: u32,
}

impl Widths {
    fn of(&self, axis: Axis) -> u32 {
        match axis {
            Axis::Batch => self.batch,
            Axis::M => self.m,
            Axis::N => self.n,
            Axis::K => self.k,
        }
    }
}

/// The element-bit position of (axis, bit) in an operand whose dimensions are `dims`
/// (outermost first), if the operand has that axis.
fn position(dims: &[Axis; 3], w: &Widths, axis: Axis, bit: u8) -> Option<u8> {
    let d = dims.iter().position(|a| *a == axis)?;
    let low: u32 = dims[d + 1..].iter().map(|a| w.of(*a)).sum();
    Some((low + bit as u32) as u8)
}

const A_DIMS: [Axis; 3] = [Axis::Batch, M, K];
const B_DIMS: [Axis; 3] = [Axis::Batch, K, N];
const C_DIMS: [Axis; 3] = [Axis::Batch, M, N];

/// The layout of a whole operand tile with dimensions `dims`: the fragment's register and
/// lane bits, `warps` (the product axis bit each warp bit tiles), then the remaining bits
/// as registers in ascending order.
fn operand_layout(
    dims: &[Axis; 3],
    w: &Widths,
    frag: &Frag,
    warps: &[Option<(Axis, u8)>],
) -> Layout {
    let pos = |(axis, bit): (Axis, u8)| position(dims, w, axis, bit);
    let nbits: u32 = dims.iter().map(|a| w.of(*a)).sum();
    let reg: Vec<u8> = frag
        .reg
        .iter()
        .map(|ab| pos(*ab).expect("fragment axis"))
        .collect();
    let lane = frag.lane.map(pos);
    let warp: Vec<Option<u8>> = warps.iter().map(|ab| ab.and_then(pos)).collect();
    Layout::with_free_registers(nbits, reg, lane, warp)
}

/// The tensor-core plan for `A x B + C` (shapes `[batch x] M x K` and `[batch x] K x N`),
/// or `None` when the element types have no tensor-core instruction, the shapes are not
/// multiples of the instruction's (M of 16, N of 8, K of its k), or the target predates
/// sm_80. A pure function: it emits nothing.
pub fn mma_plan(
    a_shape: &[i64],
    b_shape: &[i64],
    elem_a: Type,
    elem_b: Type,
    elem_c: Type,
    warp_bits: u32,
    arch: Arch,
) -> Option<MmaPlan> {
    let kind = mma_kind(elem_a, elem_b, elem_c)?;
    if arch.sm() < kind.min_sm() {
        return None;
    }
    mma_plan_for(kind, a_shape, b_shape, warp_bits)
}

/// The plan of instruction `kind` for operands of these shapes over `2^warp_bits` warps
/// (`None` when the shapes do not tile by the instruction): layouts and issue order follow
/// from the instruction, so the writer derives them from the kind convert-to-gpu recorded
/// ([`MMA_ATTR`]) without deciding anything.
pub fn mma_plan_for(
    kind: MmaKind,
    a_shape: &[i64],
    b_shape: &[i64],
    warp_bits: u32,
) -> Option<MmaPlan> {
    let rank = a_shape.len();
    if !(2..=3).contains(&rank)
        || b_shape.len() != rank
        || a_shape[..rank - 2] != b_shape[..rank - 2]
        || a_shape[rank - 1] != b_shape[rank - 2]
    {
        return None;
    }
    let batch: i64 = a_shape[..rank - 2].iter().product();
    let w = Widths {
        batch: log2(batch)?,
        m: log2(a_shape[rank - 2])?,
        k: log2(a_shape[rank - 1])?,
        n: log2(b_shape[rank - 1])?,
    };
    let ki = kind.k().trailing_zeros();
    if w.m < 4 || w.n < 3 || w.k < ki {
        return None;
    }
    // Warp bits: M above the instruction's 16 rows, then N above its 8 columns, then
    // batch; the rest replicate.
    let mut free = (4..w.m as u8)
        .map(|b| (M, b))
        .chain((3..w.n as u8).map(|b| (N, b)))
        .chain((0..w.batch as u8).map(|b| (Axis::Batch, b)));
    let warps: Vec<Option<(Axis, u8)>> = (0..warp_bits).map(|_| free.next()).collect();
    let a = operand_layout(&A_DIMS, &w, &kind.a_frag(), &warps);
    let b = operand_layout(&B_DIMS, &w, &kind.b_frag(), &warps);
    let c = operand_layout(&C_DIMS, &w, &kind.c_frag(), &warps);
    let issues = issue_order(kind, &w, &a, &b, &c);
    Some(MmaPlan {
        kind,
        a,
        b,
        c,
        issues,
        w,
    })
}

/// The packed-register indices of the fragment at element `base` of an operand with
/// layout `l` whose first `nfrag` slots are the fragment's.
fn frag_regs(l: &Layout, base: u64, nfrag: usize, per: usize) -> Vec<usize> {
    (0..nfrag)
        .step_by(per)
        .map(|i| {
            let slot = l
                .elem_slot(base | l.slot_elem(i))
                .expect("an instruction tile's outer bits are register bits");
            debug_assert_eq!(slot % per, 0);
            slot / per
        })
        .collect()
}

fn issue_order(kind: MmaKind, w: &Widths, a: &Layout, b: &Layout, c: &Layout) -> Vec<MmaIssue> {
    let (na, nb, nc) = (
        1usize << kind.a_frag().reg.len(),
        1usize << kind.b_frag().reg.len(),
        1usize << kind.c_frag().reg.len(),
    );
    let at = |dims: &[Axis; 3], axis: Axis, v: u64| -> u64 {
        position(dims, w, axis, 0).map_or(0, |p| v << p)
    };
    let field = |e: u64, dims: &[Axis; 3], axis: Axis| -> u64 {
        let p = position(dims, w, axis, 0).unwrap_or(0);
        (e >> p) & ((1u64 << w.of(axis)) - 1)
    };
    let mut issues = Vec::new();
    for ks in 0..1u64 << (w.k - kind.k().trailing_zeros()) {
        let k0 = ks * kind.k() as u64;
        for t in (0..c.slots()).step_by(nc) {
            let e = c.slot_elem(t);
            let (bt, m0, n0) = (
                field(e, &C_DIMS, Axis::Batch),
                field(e, &C_DIMS, M),
                field(e, &C_DIMS, N),
            );
            let a_base = at(&A_DIMS, Axis::Batch, bt) | at(&A_DIMS, M, m0) | at(&A_DIMS, K, k0);
            let b_base = at(&B_DIMS, Axis::Batch, bt) | at(&B_DIMS, K, k0) | at(&B_DIMS, N, n0);
            issues.push(MmaIssue {
                a: frag_regs(a, a_base, na, kind.ab_per_reg()),
                b: frag_regs(b, b_base, nb, kind.ab_per_reg()),
                c: frag_regs(c, e, nc, kind.c_per_reg()),
            });
        }
    }
    issues
}

/// `prmt.b32` selector: byte 0 of `a` to byte 0, byte 0 of `b` (source byte 4) to byte 1.
pub const PRMT_LOW_BYTES: u32 = 0x0040;
/// `prmt.b32` selector: bytes 0-1 of `a` to bytes 0-1, bytes 0-1 of `b` to bytes 2-3.
pub const PRMT_LOW_HALVES: u32 = 0x5410;

#[cfg(test)]
mod tests;

/// The layout whose lane bits say which row of which 8x8 matrix each lane supplies to an
/// `ldmatrix` that loads `group` consecutive packed registers of the staged layout `l`
/// (`per` elements of `size` bytes per register, buffer stored under `pairs`), or `None`
/// when `ldmatrix` cannot load them. It can when the packed register is the 4-byte word
/// `t % 4` of a 16-byte row in every thread `t`: the `per` elements of a register are the
/// lowest index bits (`l`'s first register bits), lane bits 0-1 are the next two, so
/// that one row is `16 / size` consecutive elements that the swizzle keeps together (no
/// swizzled bit below the row's), and lane bits 2-4 (the thread's row `t / 4`) and the
/// `log2(group)` register bits after the `per` ones (the matrix) are bits above the row.
/// Then lane `8 q + i` supplies the row of element `rows(i) | matrix(q)`: lane bits 0-2
/// are `l`'s lane bits 2-4, lane bits 3-4 its matrix bits, and the warp bits are `l`'s.
/// The compiler's own staging always qualifies (rows of 32 bytes or more, 16-byte swizzle
/// vectors); hand-written GPU-level IR with other layouts or swizzles falls back to
/// `ld.shared.b32`.
pub fn ldmatrix_lanes(
    l: &Layout,
    per: usize,
    size: u64,
    pairs: &[(u8, u8)],
    group: usize,
) -> Option<Layout> {
    if size == 0 || size > 16 || !matches!(group, 1 | 2 | 4) {
        return None;
    }
    let pb = per.trailing_zeros() as u8;
    let row = (16 / size).trailing_zeros() as u8;
    let gb = group.trailing_zeros() as usize;
    if pb + 2 != row || l.reg.len() < pb as usize + gb {
        return None;
    }
    let low_ok = (0..pb).all(|b| l.reg[b as usize] == b)
        && l.lane[0] == Some(pb)
        && l.lane[1] == Some(pb + 1);
    let rows: Vec<u8> = l.lane[2..].iter().copied().collect::<Option<_>>()?;
    let mats = &l.reg[pb as usize..pb as usize + gb];
    if !low_ok || rows.iter().chain(mats).any(|b| *b < row) || pairs.iter().any(|(d, _)| *d < row) {
        return None;
    }
    Some(matrix_lanes(l, &rows, mats))
}

/// The lanes layout of an `ldmatrix`/`stmatrix`: lane bits 0-2 the matrix's rows
/// (`rows`), lane bits 3-4 the matrices (`mats`), the warps `l`'s.
fn matrix_lanes(l: &Layout, rows: &[u8], mats: &[u8]) -> Layout {
    let mut lane = [None; 5];
    for (i, b) in rows.iter().chain(mats).enumerate() {
        lane[i] = Some(*b);
    }
    Layout {
        nbits: l.nbits,
        reg: Vec::new(),
        lane,
        warp: l.warp.clone(),
    }
}

/// [`ldmatrix_lanes`] for `ldmatrix.trans` (16-bit elements): thread `t` receives
/// elements `2 (t % 4)` and `2 (t % 4) + 1` of column `t / 4` of each 8x8 matrix, so a
/// packed register's two elements lie in consecutive rows. It applies when the 8 columns
/// are one 16-byte row of the buffer (`l`'s lane bits 2-4 are the index's bits 0-2,
/// which the swizzle keeps together) and the row bits, the register's pair bit and lane
/// bits 0-1, and the matrix bits, the `log2(group)` register bits after it, are above
/// it. Lane `8 q + i` then supplies row `i` (pair bit, lane bits 0-1 of `l`) of matrix
/// `q`. This is how B staged MN-major (`K x N`, N fastest) gives its fragments, whose
/// pairs run along K.
pub fn ldmatrix_trans_lanes(
    l: &Layout,
    per: usize,
    size: u64,
    pairs: &[(u8, u8)],
    group: usize,
) -> Option<Layout> {
    if size != 2 || per != 2 || !matches!(group, 1 | 2 | 4) {
        return None;
    }
    let gb = group.trailing_zeros() as usize;
    if l.reg.len() < 1 + gb || l.lane[2..] != [Some(0), Some(1), Some(2)] {
        return None;
    }
    let rows = [Some(l.reg[0]), l.lane[0], l.lane[1]];
    let rows: Vec<u8> = rows.into_iter().collect::<Option<_>>()?;
    let mats = &l.reg[1..1 + gb];
    if rows.iter().chain(mats).any(|b| *b < 3) || pairs.iter().any(|(d, _)| *d < 3) {
        return None;
    }
    Some(matrix_lanes(l, &rows, mats))
}

/// Whether the writer stores a tile in layout `l` of 16-bit `elem`s into a buffer under
/// `pairs` with `stmatrix` (sm_90 and later: 8x8 matrices, the mirror of
/// [`ldmatrix_lanes`]), and so whether a swizzle helps its writes: no replicated lanes or
/// warps, at most 32 warps, and four, two or one matrices at a time that fit.
pub fn stmatrix_writes(
    arch: Arch,
    elem: Type,
    l: &Layout,
    pairs: &[(u8, u8)],
) -> Option<(usize, Layout)> {
    if arch.sm() < 90
        || !matches!(elem, Type::F16 | Type::BF16 | Type::I16)
        || l.has_replication()
        || l.warp.len() > 5
    {
        return None;
    }
    let words = l.slots() / 2;
    [4usize, 2, 1].into_iter().find_map(|g| {
        words
            .is_multiple_of(g)
            .then(|| ldmatrix_lanes(l, 2, 2, pairs, g))
            .flatten()
            .map(|lanes| (g, lanes))
    })
}
