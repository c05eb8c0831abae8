//! The tensor-core plan against the PTX ISA ("Matrix fragments for mma.m16n8k8 /
//! mma.m16n8k16 / mma.m16n8k32"): the fragment formulas are written out here, independently
//! of the plan's layouts, and (1) compared with the layouts lane by lane and register by
//! register, (2) used by a CPU model of `mma.sync` that replays the plan's issue sequence on
//! random matrices distributed by the plan's layouts.

use super::*;
use crate::layout::Layout;

const KINDS: [MmaKind; 7] = [
    MmaKind::F16F32,
    MmaKind::F16F16,
    MmaKind::Bf16F32,
    MmaKind::Tf32F32,
    MmaKind::I8I32,
    MmaKind::E4m3F32,
    MmaKind::E5m2F32,
];

fn elems(kind: MmaKind) -> (Type, Type, Type) {
    match kind {
        MmaKind::F16F32 => (Type::F16, Type::F16, Type::F32),
        MmaKind::F16F16 => (Type::F16, Type::F16, Type::F16),
        MmaKind::Bf16F32 => (Type::BF16, Type::BF16, Type::F32),
        MmaKind::Tf32F32 => (Type::TF32, Type::TF32, Type::F32),
        MmaKind::I8I32 => (Type::I8, Type::I8, Type::I32),
        MmaKind::E4m3F32 => (Type::F8E4M3FN, Type::F8E4M3FN, Type::F32),
        MmaKind::E5m2F32 => (Type::F8E5M2, Type::F8E5M2, Type::F32),
    }
}

/// The ISA's (row, col) of element `i` of lane `lane`'s A fragment (16 x k).
fn isa_a(kind: MmaKind, lane: u64, i: u64) -> (u64, u64) {
    let (g, t) = (lane >> 2, lane % 4);
    match kind.k() {
        16 => {
            let row = if i < 2 || (4..6).contains(&i) {
                g
            } else {
                g + 8
            };
            let col = if i < 4 {
                t * 2 + (i & 1)
            } else {
                t * 2 + (i & 1) + 8
            };
            (row, col)
        }
        8 => {
            let row = if i == 0 || i == 2 { g } else { g + 8 };
            let col = if i < 2 { t } else { t + 4 };
            (row, col)
        }
        _ => {
            let row = if i < 4 || (8..12).contains(&i) {
                g
            } else {
                g + 8
            };
            let col = if i < 8 {
                t * 4 + (i & 3)
            } else {
                t * 4 + (i & 3) + 16
            };
            (row, col)
        }
    }
}

/// The ISA's (row, col) of element `i` of lane `lane`'s B fragment (k x 8).
fn isa_b(kind: MmaKind, lane: u64, i: u64) -> (u64, u64) {
    let (g, t) = (lane >> 2, lane % 4);
    let row = match kind.k() {
        16 => {
            if i < 2 {
                t * 2 + (i & 1)
            } else {
                t * 2 + (i & 1) + 8
            }
        }
        8 => {
            if i == 0 {
                t
            } else {
                t + 4
            }
        }
        _ => {
            if i < 4 {
                t * 4 + (i & 3)
            } else {
                t * 4 + (i & 3) + 16
            }
        }
    };
    (row, g)
}

/// The ISA's (row, col) of element `i` of lane `lane`'s accumulator fragment (16 x 8).
fn isa_c(lane: u64, i: u64) -> (u64, u64) {
    let (g, t) = (lane >> 2, lane % 4);
    let row = if i < 2 { g } else { g + 8 };
    (row, t * 2 + (i & 1))
}

/// Fragment sizes (elements per lane) of A, B and C, from the ISA's tables.
fn isa_sizes(kind: MmaKind) -> (u64, u64, u64) {
    match kind.k() {
        16 => (8, 4, 4),
        8 => (4, 2, 4),
        _ => (16, 8, 4),
    }
}

/// The element index held by (warp, lane, slot).
fn elem_of(l: &Layout, warp: u64, lane: u64, slot: usize) -> u64 {
    let mut e = l.slot_elem(slot);
    for (i, b) in l.lane.iter().enumerate() {
        if let Some(b) = b
            && lane >> i & 1 == 1
        {
            e |= 1 << b;
        }
    }
    for (i, b) in l.warp.iter().enumerate() {
        if let Some(b) = b
            && warp >> i & 1 == 1
        {
            e |= 1 << b;
        }
    }
    e
}

/// Every element bit has exactly one source.
fn assert_valid(l: &Layout) {
    let mut seen = vec![0; l.nbits as usize];
    for b in l
        .reg
        .iter()
        .copied()
        .chain(l.lane.iter().flatten().copied())
        .chain(l.warp.iter().flatten().copied())
    {
        seen[b as usize] += 1;
    }
    assert!(seen.iter().all(|n| *n == 1), "bad layout {l}: {seen:?}");
}

fn plan(kind: MmaKind, batch: i64, m: i64, n: i64, k: i64, warp_bits: u32) -> MmaPlan {
    let (ea, eb, ec) = elems(kind);
    let (sa, sb) = if batch == 0 {
        (vec![m, k], vec![k, n])
    } else {
        (vec![batch, m, k], vec![batch, k, n])
    };
    // sm_89: every kind (float8 from there on).
    mma_plan(&sa, &sb, ea, eb, ec, warp_bits, Arch::Sm89)
        .unwrap_or_else(|| panic!("no plan for {kind:?} {sa:?} {sb:?}"))
}

#[test]
fn single_instruction_layouts_are_the_isa_fragments() {
    for kind in KINDS {
        let ki = kind.k() as u64;
        let p = plan(kind, 0, 16, 8, ki as i64, 0);
        let (na, nb, nc) = isa_sizes(kind);
        assert_eq!(p.a.slots() as u64, na, "{kind:?} A");
        assert_eq!(p.b.slots() as u64, nb, "{kind:?} B");
        assert_eq!(p.c.slots() as u64, nc, "{kind:?} C");
        for lane in 0..32 {
            for i in 0..na {
                let (r, c) = isa_a(kind, lane, i);
                assert_eq!(
                    elem_of(&p.a, 0, lane, i as usize),
                    r * ki + c,
                    "{kind:?} a{i}"
                );
            }
            for i in 0..nb {
                let (r, c) = isa_b(kind, lane, i);
                assert_eq!(
                    elem_of(&p.b, 0, lane, i as usize),
                    r * 8 + c,
                    "{kind:?} b{i}"
                );
            }
            for i in 0..nc {
                let (r, c) = isa_c(lane, i);
                assert_eq!(
                    elem_of(&p.c, 0, lane, i as usize),
                    r * 8 + c,
                    "{kind:?} c{i}"
                );
            }
        }
        // One instruction, reading every packed register in order.
        assert_eq!(p.issues.len(), 1);
        let per = kind.ab_per_reg() as u64;
        let seq = |n: u64| (0..n as usize).collect::<Vec<_>>();
        assert_eq!(p.issues[0].a, seq(na / per));
        assert_eq!(p.issues[0].b, seq(nb / per));
        assert_eq!(p.issues[0].c, seq(nc / kind.c_per_reg() as u64));
    }
}

#[test]
fn the_fragment_brief_example() {
    // A 16x16 f16: col bit0 <- reg bit0, col bits 1-2 <- lane bits 0-1, row bits 0-2 <-
    // lane bits 2-4, row bit 3 <- reg bit 1, col bit 3 <- reg bit 2 (row bits are element
    // bits 4-7).
    let p = plan(MmaKind::F16F32, 0, 16, 8, 16, 0);
    assert_eq!(p.a.reg, vec![0, 7, 3]);
    assert_eq!(p.a.lane, [Some(1), Some(2), Some(4), Some(5), Some(6)]);
}

#[test]
fn whole_tile_layouts_keep_the_fragment_in_every_tile() {
    // In a multi-tile plan, each (warp, outer slot) still holds an ISA fragment of one
    // 16 x k (A), k x 8 (B) and 16 x 8 (C) instruction tile.
    for kind in KINDS {
        let ki = kind.k() as u64;
        let (m, n, k) = (64u64, 32u64, 2 * ki);
        let p = plan(kind, 0, m as i64, n as i64, k as i64, 2);
        for l in [&p.a, &p.b, &p.c] {
            assert_valid(l);
        }
        let (na, nb, nc) = isa_sizes(kind);
        let check = |l: &Layout, nfrag: u64, cols: u64, isa: &dyn Fn(u64, u64) -> (u64, u64)| {
            for warp in 0..4 {
                for outer in (0..l.slots()).step_by(nfrag as usize) {
                    let base = elem_of(l, warp, 0, outer);
                    let (r0, c0) = (base / cols, base % cols);
                    for lane in 0..32 {
                        for i in 0..nfrag {
                            let (r, c) = isa(lane, i);
                            let e = elem_of(l, warp, lane, outer + i as usize);
                            assert_eq!(e, (r0 + r) * cols + c0 + c, "{kind:?}");
                        }
                    }
                }
            }
        };
        check(&p.a, na, k, &|lane, i| isa_a(kind, lane, i));
        check(&p.b, nb, n, &|lane, i| isa_b(kind, lane, i));
        check(&p.c, nc, n, &|lane, i| isa_c(lane, i));
    }
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn small(&mut self) -> i64 {
        (self.next() >> 40) as i64 % 15 - 7
    }
}

/// Distributes a row-major tile over (warp, lane, slot) by `l`.
fn distribute(l: &Layout, warps: u64, data: &[i64]) -> Vec<Vec<Vec<i64>>> {
    (0..warps)
        .map(|w| {
            (0..32)
                .map(|lane| {
                    (0..l.slots())
                        .map(|s| data[elem_of(l, w, lane, s) as usize])
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// Element `i` of a fragment whose packed registers are `regs` (`per` elements each, the
/// lowest slot first).
fn frag_slot(regs: &[usize], per: usize, i: usize) -> usize {
    regs[i / per] * per + i % per
}

/// Runs the plan on a CPU model of `mma.sync`: each issue gathers every lane's fragment
/// registers, places them in the instruction's 16 x k, k x 8 and 16 x 8 matrices by the
/// ISA formulas, multiplies, and scatters D back into the accumulator registers.
fn simulate(kind: MmaKind, batch: u64, m: u64, n: u64, k: u64, warp_bits: u32, seed: u64) {
    let p = plan(kind, batch as i64, m as i64, n as i64, k as i64, warp_bits);
    for l in [&p.a, &p.b, &p.c] {
        assert_valid(l);
    }
    let nb = batch.max(1);
    let warps = 1u64 << warp_bits;
    let mut rng = Rng(seed | 1);
    let a: Vec<i64> = (0..nb * m * k).map(|_| rng.small()).collect();
    let b: Vec<i64> = (0..nb * k * n).map(|_| rng.small()).collect();
    let c: Vec<i64> = (0..nb * m * n).map(|_| rng.small()).collect();
    let ra = distribute(&p.a, warps, &a);
    let rb = distribute(&p.b, warps, &b);
    let mut rc = distribute(&p.c, warps, &c);
    let ki = kind.k() as u64;
    let (na, nbf, nc) = isa_sizes(kind);
    let (pab, pc) = (kind.ab_per_reg(), kind.c_per_reg());
    for issue in &p.issues {
        assert_eq!(issue.a.len() * pab, na as usize);
        assert_eq!(issue.b.len() * pab, nbf as usize);
        assert_eq!(issue.c.len() * pc, nc as usize);
        for w in 0..warps as usize {
            let mut ma = vec![None; (16 * ki) as usize];
            let mut mb = vec![None; (ki * 8) as usize];
            let mut mc = vec![None; 16 * 8];
            for lane in 0..32u64 {
                let l = lane as usize;
                for i in 0..na {
                    let (r, col) = isa_a(kind, lane, i);
                    let v = ra[w][l][frag_slot(&issue.a, pab, i as usize)];
                    let cell = &mut ma[(r * ki + col) as usize];
                    assert!(cell.is_none(), "A element given twice");
                    *cell = Some(v);
                }
                for i in 0..nbf {
                    let (r, col) = isa_b(kind, lane, i);
                    let v = rb[w][l][frag_slot(&issue.b, pab, i as usize)];
                    let cell = &mut mb[(r * 8 + col) as usize];
                    assert!(cell.is_none(), "B element given twice");
                    *cell = Some(v);
                }
                for i in 0..nc {
                    let (r, col) = isa_c(lane, i);
                    let v = rc[w][l][frag_slot(&issue.c, pc, i as usize)];
                    let cell = &mut mc[(r * 8 + col) as usize];
                    assert!(cell.is_none(), "C element given twice");
                    *cell = Some(v);
                }
            }
            let get = |v: &[Option<i64>], i: usize| v[i].expect("every element given");
            let mut d = vec![0i64; 16 * 8];
            for r in 0..16usize {
                for col in 0..8usize {
                    let mut s = get(&mc, r * 8 + col);
                    for x in 0..ki as usize {
                        s += get(&ma, r * ki as usize + x) * get(&mb, x * 8 + col);
                    }
                    d[r * 8 + col] = s;
                }
            }
            for lane in 0..32u64 {
                for i in 0..nc {
                    let (r, col) = isa_c(lane, i);
                    rc[w][lane as usize][frag_slot(&issue.c, pc, i as usize)] =
                        d[(r * 8 + col) as usize];
                }
            }
        }
    }
    // Every thread's every accumulator slot must hold the plain product's element.
    for w in 0..warps {
        for lane in 0..32 {
            for (s, got) in rc[w as usize][lane as usize].iter().enumerate() {
                let e = elem_of(&p.c, w, lane, s);
                let (bt, i, j) = (e / (m * n), e / n % m, e % n);
                let mut want = c[e as usize];
                for x in 0..k {
                    want +=
                        a[(bt * m * k + i * k + x) as usize] * b[(bt * k * n + x * n + j) as usize];
                }
                assert_eq!(
                    *got, want,
                    "{kind:?} batch {batch} {m}x{n}x{k} warps {warps}: warp {w} lane {lane} slot {s} (element {e})"
                );
            }
        }
    }
}

#[test]
fn simulated_mma_sync_matches_the_matrix_product() {
    let mut seed = 9;
    for kind in KINDS {
        let ki = kind.k() as u64;
        // (batch, M, N, K, warp bits); batch 0 means rank 2.
        for (batch, m, n, k, wb) in [
            (0, 32, 16, 32.max(ki), 2),
            (0, 16, 8, ki, 0),
            (0, 16, 8, ki, 2),
            (0, 64, 64, 2 * ki, 2),
            (0, 32, 64, 4 * ki, 3),
            (0, 128, 16, ki, 2),
            (0, 16, 32, 2 * ki, 4),
            (1, 64, 32, 2 * ki, 2),
            (2, 32, 16, ki, 2),
            (4, 16, 8, 2 * ki, 2),
            (8, 16, 16, ki, 1),
        ] {
            seed += 1;
            simulate(kind, batch, m, n, k, wb, seed);
        }
    }
}

#[test]
fn plans_need_whole_instruction_tiles_and_supported_types() {
    let p = |sa: &[i64], sb: &[i64], e: (Type, Type, Type)| {
        mma_plan(sa, sb, e.0, e.1, e.2, 2, Arch::Sm80).is_some()
    };
    let f16 = (Type::F16, Type::F16, Type::F32);
    assert!(p(&[16, 16], &[16, 8], f16));
    assert!(!p(&[8, 16], &[16, 8], f16)); // M < 16
    assert!(!p(&[16, 16], &[16, 4], f16)); // N < 8
    assert!(!p(&[16, 8], &[8, 8], f16)); // K < 16
    assert!(p(&[16, 8], &[8, 8], (Type::TF32, Type::TF32, Type::F32)));
    assert!(!p(&[16, 16], &[16, 8], (Type::I8, Type::I8, Type::I32))); // K < 32
    assert!(p(&[16, 32], &[32, 8], (Type::I8, Type::I8, Type::I32)));
    assert!(!p(&[16, 16], &[16, 8], (Type::F32, Type::F32, Type::F32)));
    assert!(!p(&[16, 16], &[16, 8], (Type::F64, Type::F64, Type::F64)));
    assert!(!p(
        &[16, 16],
        &[16, 8],
        (Type::BF16, Type::BF16, Type::BF16)
    ));
    // float8: sm_89 and later, K of 32, both operands of one format.
    let e4m3 = (Type::F8E4M3FN, Type::F8E4M3FN, Type::F32);
    assert!(!p(&[16, 32], &[32, 8], e4m3));
    let on = |arch, e: (Type, Type, Type)| {
        mma_plan(&[16, 32], &[32, 8], e.0, e.1, e.2, 2, arch).is_some()
    };
    assert!(on(Arch::Sm89, e4m3) && on(Arch::Sm90a, e4m3) && on(Arch::Sm120, e4m3));
    assert!(on(Arch::Sm89, (Type::F8E5M2, Type::F8E5M2, Type::F32)));
    assert!(!on(Arch::Sm89, (Type::F8E4M3FN, Type::F8E5M2, Type::F32)));
    assert!(!on(Arch::Sm89, (Type::F8E4M3FN, Type::F8E4M3FN, Type::F16)));
    assert!(p(&[2, 16, 16], &[2, 16, 8], f16));
    assert!(!p(&[2, 16, 16], &[4, 16, 8], f16));
}

#[test]
fn instruction_names() {
    assert_eq!(
        MmaKind::I8I32.opcode(true, false),
        "mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32"
    );
    assert_eq!(
        MmaKind::Tf32F32.opcode(true, true),
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"
    );
}

/// `prmt.b32` in its default mode, as the ISA defines it.
fn prmt(a: u32, b: u32, sel: u32) -> u32 {
    let src = (b as u64) << 32 | a as u64;
    (0..4).fold(0, |d, n| {
        let s = sel >> (4 * n) & 0xF;
        let byte = (src >> (8 * (s & 7)) & 0xFF) as u32;
        let byte = if s & 8 != 0 {
            if byte & 0x80 != 0 { 0xFF } else { 0 }
        } else {
            byte
        };
        d | byte << (8 * n)
    })
}

#[test]
fn i8_packing_puts_the_low_bytes_in_order() {
    // i8 values are held sign-extended in .b32 registers.
    for q in [[-1i32, 2, -128, 127], [0, -56, 100, -3], [5, 6, 7, 8]] {
        let r: Vec<u32> = q.iter().map(|v| *v as u32).collect();
        let lo = prmt(r[0], r[1], PRMT_LOW_BYTES);
        let hi = prmt(r[2], r[3], PRMT_LOW_BYTES);
        let packed = prmt(lo, hi, PRMT_LOW_HALVES);
        let want = q
            .iter()
            .enumerate()
            .fold(0u32, |w, (i, v)| w | (*v as u8 as u32) << (8 * i));
        assert_eq!(packed, want);
    }
}

#[test]
fn staged_operands_load_one_packed_register_per_word() {
    // The emitter loads packed register j of a staged operand with one 32-bit load at
    // the staged index of slot j * per: the register's `per` elements must be that many
    // consecutive elements of the staged index, lowest slot first, and B's staged index
    // must be B transposed (n * K + k within a batch).
    for kind in KINDS {
        let ki = kind.k() as i64;
        for (batch, m, n, k, wb) in [
            (0, 64, 32, 2 * ki, 2),
            (2, 32, 16, ki, 2),
            (0, 16, 8, ki, 3),
        ] {
            let p = plan(kind, batch, m, n, k, wb);
            let per = kind.ab_per_reg();
            let (a, b) = (p.a_staged(), p.b_staged());
            assert_eq!(a, p.a);
            for l in [&a, &b] {
                assert_valid(l);
                for s in 0..l.slots() {
                    assert_eq!(l.slot_elem(s), l.slot_elem(s - s % per) + (s % per) as u64);
                }
            }
            let (n, k) = (n as u64, k as u64);
            for w in 0..1u64 << wb {
                for lane in 0..32 {
                    for s in 0..b.slots() {
                        let e = elem_of(&p.b, w, lane, s);
                        let (bt, row, col) = (e / (k * n), e / n % k, e % n);
                        assert_eq!(elem_of(&b, w, lane, s), bt * k * n + col * k + row);
                    }
                }
            }
        }
    }
}
