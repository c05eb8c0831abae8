//! Unit tests of the warp scheduler, the happens-before race detector, named barriers,
//! mbarriers, bulk and tensor copies, tensor maps and the warpgroup collectives, each from
//! small PTX kernels and hand-computed expectations from the PTX ISA.

use super::*;

/// A kernel `k(out, EXTRA)` of `threads` threads with `smem` bytes of shared memory at
/// 1024-byte alignment; `body` runs after `%t = %tid.x`, `%o = out`.
fn kernel(threads: usize, smem: usize, extra: &str, body: &str) -> Kernel {
    parse(&source(threads, smem, extra, body)).remove(0)
}

fn source(threads: usize, smem: usize, extra: &str, body: &str) -> String {
    format!(
        ".visible .entry k(\n.param .u64 out{extra}\n)\n{{\n.reqntid {threads}, 1, 1\n.shared .align 1024 .b8 smem[{smem}];\nmov.u32 %t, %tid.x;\nld.param.u64 %o, [out];\n{body}\nret;\n}}\n"
    )
}

fn run_opts(
    k: &Kernel,
    params: &[Param],
    mem: &mut Memory,
    seed: Option<u64>,
) -> Result<Stats, String> {
    let opts = RunOptions {
        seed,
        ..RunOptions::default()
    };
    run_with_options(k, [1, 1, 1], params, mem, &opts)
}

fn words(mem: &Memory, at: u64, n: usize) -> Vec<u32> {
    mem.read(at, 4 * n)
        .chunks(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect()
}

/// Stores `%v` to `out[%t]` (u32).
const STORE_OUT: &str =
    "cvt.u64.u32 %t64, %t;\nmad.lo.u64 %oa, %t64, 4, %o;\nst.global.u32 [%oa], %v;";

/// Warp 0 produces `smem[t] = 3 t` and arrives at named barrier 1 (64 threads); warp 1
/// waits there and reads warp 0's words. The same without the barrier is a race.
fn handoff(with_barrier: bool) -> Kernel {
    let sync = if with_barrier {
        "bar.arrive 1, 64;"
    } else {
        ""
    };
    let wait = if with_barrier { "bar.sync 1, 64;" } else { "" };
    kernel(
        64,
        256,
        "",
        &format!(
            "setp.ge.u32 %cons, %t, 32;\n@%cons bra CONSUME;\nmul.lo.u32 %v, %t, 3;\nshl.b32 %a, %t, 2;\nst.shared.u32 [%a], %v;\n{sync}\nmov.u32 %v, 0;\nbra.uni END;\nCONSUME:\n{wait}\nsub.u32 %s, %t, 32;\nshl.b32 %a, %s, 2;\nld.shared.u32 %v, [%a];\nEND:\n{STORE_OUT}"
        ),
    )
}

#[test]
fn named_barrier_hands_off_from_producer_to_consumer() {
    let k = handoff(true);
    for seed in [None, Some(1), Some(2), Some(3), Some(99)] {
        let mut mem = Memory::default();
        let out = mem.alloc(&[0; 256]);
        run_opts(&k, &[Param::Value(out)], &mut mem, seed).expect("runs");
        let got = words(&mem, out, 64);
        for t in 0..32u32 {
            assert_eq!(got[t as usize + 32], 3 * t, "seed {seed:?}");
        }
    }
}

#[test]
fn a_missing_barrier_is_a_race_under_every_schedule() {
    let k = handoff(false);
    let mut flagged = 0;
    for seed in (0..20).map(Some).chain([None]) {
        let mut mem = Memory::default();
        let out = mem.alloc(&[0; 256]);
        if let Err(e) = run_opts(&k, &[Param::Value(out)], &mut mem, seed) {
            // Both accesses: threads and lines.
            assert!(e.contains("no barrier between"), "{e}");
            assert!(e.contains("line 13") && e.contains("line 21"), "{e}");
            flagged += 1;
        }
    }
    // Happens-before flags the race whichever access comes first.
    assert_eq!(flagged, 21);
}

#[test]
fn named_barrier_counts_must_fill_or_it_is_a_deadlock() {
    // 96 threads expected, 64 in the CTA: both warps wait forever.
    let k = kernel(64, 16, "", "bar.sync 1, 96;\nmov.u32 %v, 1;");
    let e = run(&k, [1, 1, 1], &[0], &mut Memory::default()).expect_err("deadlock");
    assert!(e.starts_with("deadlock:"), "{e}");
    assert!(
        e.contains("warp 0 waits at barrier 1") && e.contains("warp 1 waits at barrier 1"),
        "{e}"
    );
    // Warps at two different CTA-wide barriers (bar.sync is .aligned).
    let k = kernel(
        64,
        16,
        "",
        "setp.lt.u32 %w0, %t, 32;\n@%w0 bra A;\nbar.sync 0;\nbra.uni END;\nA:\nbar.sync 0;\nEND:",
    );
    let e = run(&k, [1, 1, 1], &[0], &mut Memory::default()).expect_err("divergent");
    assert!(e.contains("barrier in divergent code"), "{e}");
    // A thread count not a multiple of 32.
    let k = kernel(64, 16, "", "bar.sync 1, 48;");
    let e = run(&k, [1, 1, 1], &[0], &mut Memory::default()).expect_err("count");
    assert!(e.contains("multiple of the warp size"), "{e}");
}

#[test]
fn a_wait_nobody_arrives_at_is_a_deadlock() {
    // Thread 0 initialises; warp 1 waits on the mbarrier, warp 0 exits without arriving.
    let body = "setp.eq.u32 %lead, %t, 0;\n@%lead mbarrier.init.shared::cta.b64 [smem], 1;\nbar.sync 0;\nsetp.lt.u32 %w0, %t, 32;\n@%w0 bra END;\nWAIT:\nmbarrier.try_wait.parity.shared::cta.b64 %d, [smem], 0;\n@!%d bra WAIT;\nEND:\nmov.u32 %v, 0;";
    let k = kernel(64, 64, "", body);
    for seed in [None, Some(5)] {
        let e =
            run_opts(&k, &[Param::Value(0)], &mut Memory::default(), seed).expect_err("deadlock");
        assert!(e.starts_with("deadlock:"), "{e}");
        assert!(e.contains("warp 0 exited"), "{e}");
        assert!(
            e.contains("warp 1 spins at line") && e.contains("failed waits at line 15"),
            "{e}"
        );
    }
}

/// A one-thread (of a warp) mbarrier walk through four phases: arrive states, parity and
/// state waits, expect_tx with bulk copies completing the tx-count.
#[test]
fn mbarrier_phases_parities_and_tx_counts() {
    // Flags written to out[0..]: one word per check.
    let body = "\
setp.ne.u32 %idle, %t, 0;
@%idle bra END;
mov.u32 %bar, smem;
mbarrier.init.shared::cta.b64 [%bar], 2;
mbarrier.arrive.shared::cta.b64 %s0, [%bar];
mbarrier.test_wait.shared::cta.b64 %p, [%bar], %s0;
selp.u32 %f0, 1, 0, %p;
mbarrier.test_wait.parity.shared::cta.b64 %p, [%bar], 0;
selp.u32 %f1, 1, 0, %p;
mbarrier.test_wait.parity.shared::cta.b64 %p, [%bar], 1;
selp.u32 %f2, 1, 0, %p;
mbarrier.arrive.expect_tx.shared::cta.b64 %s1, [%bar], 32;
mbarrier.test_wait.shared::cta.b64 %p, [%bar], %s0;
selp.u32 %f3, 1, 0, %p;
ld.param.u64 %src, [src];
cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%dst], [%src], 32, [%bar];
W0:
mbarrier.try_wait.parity.shared::cta.b64 %p, [%bar], 0;
@!%p bra W0;
mbarrier.test_wait.shared::cta.b64 %p, [%bar], %s0;
selp.u32 %f4, 1, 0, %p;
mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%bar], 16;
mbarrier.arrive.release.cta.shared::cta.b64 %s2, [%bar];
mbarrier.arrive.shared::cta.b64 _, [%bar];
mbarrier.test_wait.parity.shared::cta.b64 %p, [%bar], 1;
selp.u32 %f5, 1, 0, %p;
cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%dst+32], [%src+32], 16, [%bar];
W1:
mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p, [%bar], 1, 1000;
@!%p bra W1;
mbarrier.arrive.shared::cta.b64 %s3, [%bar], 2;
mbarrier.try_wait.parity.shared::cta.b64 %p, [%bar], 0;
selp.u32 %f6, 1, 0, %p;
mbarrier.test_wait.shared::cta.b64 %p, [%bar], %s3;
selp.u32 %f7, 1, 0, %p;
st.global.v4.u32 [%o], {%f0, %f1, %f2, %f3};
st.global.v4.u32 [%o+16], {%f4, %f5, %f6, %f7};
cvt.u64.u32 %sh0, %s0;
shr.u64 %hi, %s0, 63;
cvt.u32.u64 %f8, %hi;
cvt.u32.u64 %f9, %s3;
st.global.v2.u32 [%o+32], {%f8, %f9};
ld.shared.v4.u32 {%a0, %a1, %a2, %a3}, [%dst+32];
st.global.v4.u32 [%o+48], {%a0, %a1, %a2, %a3};
END:";
    let k = kernel(
        32,
        2048,
        ",\n.param .u64 src",
        &format!("mov.u32 %dst, 1024;\n{body}"),
    );
    let mut mem = Memory::default();
    let data: Vec<u8> = (0..48u8).collect();
    let src = mem.alloc(&data);
    let out = mem.alloc(&[0; 64]);
    let st = run(&k, [1, 1, 1], &[out, src], &mut mem).expect("runs");
    let got = words(&mem, out, 16);
    // Phase 0 incomplete after one of two arrivals; parity 1 (the phase "before" 0) tests
    // complete; the tx-count keeps phase 0 open after the second arrival; the copy
    // completes it; in phase 1 the two arrivals and the 16-byte copy complete it; the
    // arrival of count 2 completes phase 2 at once (parity 0 = phase 2 done, phase 3 open).
    assert_eq!(&got[..8], &[0, 0, 1, 0, 1, 0, 1, 1]);
    // The state marks itself and carries the phase (2 before the last arrive).
    assert_eq!(got[8], 1);
    assert_eq!(got[9], 2);
    assert_eq!(mem.read(out + 48, 16), &data[32..48]);
    assert_eq!(st.tma_bytes_loaded, 48);
    assert!(st.mbarrier_waits >= 8);
    assert!(st.max_spin >= 1);
}

fn mbar_error(body: &str, smem: usize) -> String {
    let k = kernel(
        32,
        smem,
        ",\n.param .u64 src",
        &format!("setp.ne.u32 %idle, %t, 0;\n@%idle bra END;\n{body}\nEND:"),
    );
    let mut mem = Memory::default();
    let src = mem.alloc(&vec![0; 1 << 20]);
    run(&k, [1, 1, 1], &[0, src], &mut mem).expect_err(body)
}

#[test]
fn mbarrier_misuse_is_reported() {
    let e = mbar_error("mbarrier.arrive.shared::cta.b64 %s, [smem];", 64);
    assert!(e.contains("not initialised"), "{e}");
    let e = mbar_error(
        "mbarrier.init.shared::cta.b64 [smem], 1;\nmbarrier.inval.shared::cta.b64 [smem];\nmbarrier.arrive.shared::cta.b64 %s, [smem];",
        64,
    );
    assert!(e.contains("not initialised (or was invalidated)"), "{e}");
    let e = mbar_error(
        "mbarrier.init.shared::cta.b64 [smem], 2;\nmbarrier.arrive.shared::cta.b64 %s, [smem], 3;",
        64,
    );
    assert!(e.contains("pending arrival count is 2"), "{e}");
    let e = mbar_error(
        "mbarrier.init.shared::cta.b64 [smem], 1;\nmbarrier.expect_tx.shared::cta.b64 [smem], 1048575;\nmbarrier.expect_tx.shared::cta.b64 [smem], 1;",
        64,
    );
    assert!(e.contains("overflows"), "{e}");
    let e = mbar_error(
        "mbarrier.init.shared::cta.b64 [smem], 1;\nld.param.u64 %src, [src];\ncp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [smem+1024], [%src], 1048576, [smem];\nW:\nmbarrier.try_wait.parity.shared::cta.b64 %p, [smem], 0;\n@!%p bra W;",
        (1 << 20) + 1024,
    );
    assert!(e.contains("underflows"), "{e}");
    let e = mbar_error("mbarrier.init.shared::cta.b64 [smem], 0;", 64);
    assert!(e.contains("outside [1, 2^20 - 1]"), "{e}");
    let e = mbar_error(
        "mbarrier.init.shared::cta.b64 [smem], 1;\nld.shared.u32 %x, [smem];",
        64,
    );
    assert!(e.contains("live mbarrier"), "{e}");
    let e = mbar_error(
        "mbarrier.init.shared::cta.b64 [smem], 1;\nmbarrier.test_wait.parity.shared::cta.b64 %p, [smem], 2;",
        64,
    );
    assert!(e.contains("phaseParity 2"), "{e}");
    // Phase 1 arrivals before anybody observed phase 0's completion.
    let e = mbar_error(
        "mbarrier.init.shared::cta.b64 [smem], 1;\nmbarrier.arrive.shared::cta.b64 %s, [smem];\nmbarrier.arrive.shared::cta.b64 %s, [smem];",
        64,
    );
    assert!(e.contains("before any test_wait/try_wait observed"), "{e}");
}

#[test]
fn mbarrier_use_must_be_ordered_after_its_init() {
    // Thread 32 (warp 1) arrives with no barrier after thread 0's init.
    let body = "setp.eq.u32 %lead, %t, 0;\n@%lead mbarrier.init.shared::cta.b64 [smem], 64;\nmbarrier.arrive.shared::cta.b64 %s, [smem];";
    let k = kernel(64, 64, "", body);
    let e = run(&k, [1, 1, 1], &[0], &mut Memory::default()).expect_err("unordered");
    assert!(
        e.contains("not initialised") || e.contains("no barrier after its mbarrier.init"),
        "{e}"
    );
    let k = kernel(
        64,
        64,
        "",
        &body.replace("mbarrier.arrive", "bar.sync 0;\nmbarrier.arrive"),
    );
    run(&k, [1, 1, 1], &[0], &mut Memory::default()).expect("ordered by the barrier");
}

#[test]
fn swizzle_modes_place_16_byte_chunks_as_the_isa_tables_say() {
    // 128B: line r (128 bytes) has chunk c at c ^ (r % 8); the pattern repeats every 1024.
    assert_eq!(swizzle(1024 + 128, 3), 1024 + 128 + 16);
    assert_eq!(
        swizzle(1024 + 3 * 128 + 16 + 2, 3),
        1024 + 3 * 128 + 2 * 16 + 2
    );
    assert_eq!(swizzle(1024 + 7 * 128 + 7 * 16, 3), 1024 + 7 * 128);
    assert_eq!(
        swizzle(2048 + 5 * 128 + 3 * 16 + 9, 3),
        2048 + 5 * 128 + 6 * 16 + 9
    );
    // 64B: chunk c at c ^ (r % 4), within each 64 bytes; repeats every 512.
    assert_eq!(swizzle(2 * 128 + 16, 2), 2 * 128 + 3 * 16);
    assert_eq!(swizzle(5 * 128 + 4 * 16, 2), 5 * 128 + 5 * 16);
    assert_eq!(swizzle(4 * 128 + 16, 2), 4 * 128 + 16);
    // 32B: chunk c at c ^ (r % 2); repeats every 256.
    assert_eq!(swizzle(128 + 6 * 16 + 1, 1), 128 + 7 * 16 + 1);
    assert_eq!(swizzle(256 + 6 * 16, 1), 256 + 6 * 16);
    // None.
    assert_eq!(swizzle(12345, 0), 12345);
}

/// A `w x h` u16 tensor with element (x, y) = 1000 y + x, rows `stride` bytes apart.
fn tensor(w: u64, h: u64, stride: u64) -> Vec<u8> {
    let mut b = vec![0xEEu8; (stride * h) as usize];
    for y in 0..h {
        for x in 0..w {
            let v = (1000 * y + x) as u16;
            let at = (y * stride + 2 * x) as usize;
            b[at..at + 2].copy_from_slice(&v.to_le_bytes());
        }
    }
    b
}

fn map2d(addr: u64, (w, h, stride): (u64, u64, u64), (bw, bh): (u32, u32), swz: u8) -> TensorMap {
    TensorMap {
        global_address: addr,
        global_dim: [w, h, 0, 0, 0],
        global_stride: [stride, 0, 0, 0],
        box_dim: [bw, bh, 0, 0, 0],
        element_stride: [1, 1, 0, 0, 0],
        rank: 2,
        elemtype: 1,
        swizzle: swz,
        ..TensorMap::default()
    }
}

/// One warp: thread 0 loads the box at (x, y) through the tensor map parameter into shared
/// 1024 and every thread waits; the warp copies `bytes` of shared memory from 1024 to out.
fn tma_load_kernel(bytes: u32) -> Kernel {
    let body = format!(
        "setp.eq.u32 %lead, %t, 0;
@%lead mbarrier.init.shared::cta.b64 [smem], 1;
bar.sync 0;
ld.param.u32 %x, [cx];
ld.param.u32 %y, [cy];
mov.u32 %dst, 1024;
@%lead mbarrier.arrive.expect_tx.shared::cta.b64 %st, [smem], {bytes};
@%lead cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%dst], [tmap, {{%x, %y}}], [smem];
WAIT:
mbarrier.try_wait.parity.shared::cta.b64 %done, [smem], 0;
@!%done bra WAIT;
mov.u32 %i, %t;
COPY:
setp.ge.u32 %q, %i, {words};
@%q bra DONE;
mad.lo.u32 %sa, %i, 4, 1024;
ld.shared.u32 %v, [%sa];
cvt.u64.u32 %i64, %i;
mad.lo.u64 %ga, %i64, 4, %o;
st.global.u32 [%ga], %v;
add.u32 %i, %i, 32;
bra.uni COPY;
DONE:",
        words = bytes / 4
    );
    kernel(
        32,
        4096,
        ",\n.param .u32 cx,\n.param .u32 cy,\n.param .align 64 .b8 tmap[128]",
        &body,
    )
}

#[test]
fn tma_2d_load_fills_ragged_edges_with_zero_in_every_swizzle_mode() {
    let (w, h, stride) = (100u64, 20u64, 208u64);
    for (swz, bw) in [(0u8, 32u32), (1, 16), (2, 32), (3, 64)] {
        let bh = 8u32;
        let bytes = 2 * bw * bh;
        let k = tma_load_kernel(bytes);
        for (x0, y0) in [(w as i32 - 12, 16i32), (-4, -3), (0, 0)] {
            let mut mem = Memory::default();
            let g = mem.alloc(&tensor(w, h, stride));
            let out = mem.alloc(&vec![0; bytes as usize]);
            let m = map2d(g, (w, h, stride), (bw, bh), swz);
            let params = [
                Param::Value(out),
                Param::Value(x0 as u32 as u64),
                Param::Value(y0 as u32 as u64),
                Param::Bytes(encode_tensor_map(&m).to_vec()),
            ];
            for seed in [None, Some(7)] {
                let st = run_opts(&k, &params, &mut mem, seed)
                    .unwrap_or_else(|e| panic!("swizzle {swz} at ({x0}, {y0}): {e}"));
                assert_eq!(st.tma_bytes_loaded, u64::from(bytes));
                let smem = mem.read(out, bytes as usize).to_vec();
                for r in 0..bh as i64 {
                    for c in 0..bw as i64 {
                        let (x, y) = (x0 as i64 + c, y0 as i64 + r);
                        let want = if (0..w as i64).contains(&x) && (0..h as i64).contains(&y) {
                            (1000 * y + x) as u16
                        } else {
                            0
                        };
                        // The unswizzled offset of (r, c), then the XOR of the 16-byte chunk
                        // (bits 4..6) with the 128-byte line (bits 7..9) of the address.
                        let lin = 1024 + 2 * (r as u64 * u64::from(bw) + c as u64);
                        let m = [0, 1, 3, 7][swz as usize];
                        let at = (lin ^ ((lin >> 7) & m) << 4) as usize - 1024;
                        let got = u16::from_le_bytes([smem[at], smem[at + 1]]);
                        assert_eq!(
                            got, want,
                            "swizzle {swz} box ({x0}, {y0}) element ({r}, {c})"
                        );
                    }
                }
                // Hand-computed: with 128B swizzle, element (1, 0) (unswizzled 1024 + 128)
                // sits in chunk 1 of line 1; element (3, 9) (1024 + 402: line 3, chunk 1,
                // byte 2) in chunk 2.
                if swz == 3 && (x0, y0) == (0, 0) {
                    assert_eq!(u16::from_le_bytes([smem[144], smem[145]]), 1000);
                    assert_eq!(u16::from_le_bytes([smem[418], smem[419]]), 3009);
                }
            }
        }
    }
}

#[test]
fn tensor_maps_are_checked_at_use() {
    let k = tma_load_kernel(512);
    let (w, h, stride) = (100u64, 20u64, 208u64);
    let bad = |f: &dyn Fn(&mut TensorMap), want: &str| {
        let mut mem = Memory::default();
        let g = mem.alloc(&tensor(w, h, stride));
        let mut m = map2d(g, (w, h, stride), (32, 8), 0);
        f(&mut m);
        let params = [
            Param::Value(0),
            Param::Value(0),
            Param::Value(0),
            Param::Bytes(encode_tensor_map(&m).to_vec()),
        ];
        let e = run_opts(&k, &params, &mut mem, None).expect_err(want);
        assert!(e.contains(want) && e.contains("line "), "{want}: {e}");
    };
    bad(&|m| *m = TensorMap::default(), "empty (all zero)");
    bad(&|m| m.global_stride[0] = 200, "multiple of 16");
    bad(&|m| m.global_stride[0] = 192, "less than the 200 bytes");
    bad(&|m| m.box_dim[1] = 300, "box dimension 1 is 300");
    bad(&|m| m.box_dim[0] = 4, "multiple of 16");
    bad(&|m| m.swizzle = 1, "more than the 32-byte swizzle span");
    bad(&|m| m.rank = 3, "rank 3 used by a .2d copy");
    bad(&|m| m.element_stride[1] = 0, "element stride 1 is 0");
    bad(&|m| m.global_address += 8, "not 16-byte aligned");
    bad(&|m| m.fill = 1, "non-floating-point");
}

/// One warp fills shared 1024.. with u16 `5000 + i` (element i of a 32 x 8 box), fences
/// (unless `fence` is false), and thread 0 stores the box at (x, y) through the map.
fn tma_store(x0: u32, y0: u32, fence: bool) -> Result<Vec<u8>, String> {
    let (w, h, stride) = (40u64, 10u64, 80u64);
    let fence = if fence {
        "fence.proxy.async.shared::cta;"
    } else {
        ""
    };
    let body = format!(
        "mov.u32 %i, %t;
FILL:
setp.ge.u32 %q, %i, 256;
@%q bra FILLED;
add.u32 %v, %i, 5000;
mad.lo.u32 %sa, %i, 2, 1024;
st.shared.u16 [%sa], %v;
add.u32 %i, %i, 32;
bra.uni FILL;
FILLED:
{fence}
bar.sync 0;
setp.eq.u32 %lead, %t, 0;
@!%lead bra END;
mov.u32 %src, 1024;
cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [tmap, {{{x0}, {y0}}}], [%src];
cp.async.bulk.commit_group;
cp.async.bulk.wait_group.read 0;
END:"
    );
    let k = kernel(32, 2048, ",\n.param .align 64 .b8 tmap[128]", &body);
    let mut mem = Memory::default();
    let g = mem.alloc(&vec![0xEE; (stride * h) as usize]);
    let m = map2d(g, (w, h, stride), (32, 8), 0);
    run_opts(
        &k,
        &[
            Param::Value(0),
            Param::Bytes(encode_tensor_map(&m).to_vec()),
        ],
        &mut mem,
        None,
    )?;
    Ok(mem.read(g, (stride * h) as usize).to_vec())
}

#[test]
fn tma_store_clips_at_the_tensor_edges() {
    let (w, h, stride) = (40u64, 10u64, 80u64);
    let (x0, y0) = (20u64, 5u64);
    let got = tma_store(x0 as u32, y0 as u32, true).expect("stores");
    for y in 0..h {
        for x in 0..stride / 2 {
            let at = (y * stride + 2 * x) as usize;
            let v = u16::from_le_bytes([got[at], got[at + 1]]);
            let inside = x < w && (x0..x0 + 32).contains(&x) && (y0..y0 + 8).contains(&y);
            let want = if inside {
                (5000 + (y - y0) * 32 + (x - x0)) as u16
            } else {
                0xEEEE
            };
            assert_eq!(v, want, "({x}, {y})");
        }
    }
    let e = tma_store(0, 0, false).expect_err("missing proxy fence");
    assert!(e.contains("no fence.proxy.async.shared::cta"), "{e}");
}

#[test]
fn bulk_copies_move_aligned_multiples_of_16_bytes() {
    let body = "setp.eq.u32 %lead, %t, 0;
@!%lead bra END;
mbarrier.init.shared::cta.b64 [smem], 1;
ld.param.u64 %src, [src];
mov.u32 %dst, 128;
mbarrier.arrive.expect_tx.shared::cta.b64 %st, [smem], 64;
cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%dst], [%src], 64, [smem];
W:
mbarrier.try_wait.parity.shared::cta.b64 %p, [smem], 0;
@!%p bra W;
cp.async.bulk.global.shared::cta.bulk_group [%o], [%dst], 64;
cp.async.bulk.commit_group;
cp.async.bulk.wait_group 0;
END:";
    let k = kernel(32, 256, ",\n.param .u64 src", body);
    let mut mem = Memory::default();
    let data: Vec<u8> = (100..164).collect();
    let src = mem.alloc(&data);
    let out = mem.alloc(&[0; 64]);
    let st = run(&k, [1, 1, 1], &[out, src], &mut mem).expect("copies");
    assert_eq!(mem.read(out, 64), &data[..]);
    assert_eq!((st.tma_bytes_loaded, st.tma_bytes_stored), (64, 64));
    // Sizes and addresses off 16 bytes.
    for (from, to) in [("64, [smem]", "40, [smem]"), ("[%src]", "[%src+8]")] {
        let k = kernel(32, 256, ",\n.param .u64 src", &body.replacen(from, to, 1));
        let e = run(&k, [1, 1, 1], &[out, src], &mut mem).expect_err(to);
        assert!(
            e.contains("multiple of 16") || e.contains("16-byte aligned"),
            "{e}"
        );
    }
}

/// A 3-stage ring: warp 0 (its lane 0) loads 16 x 16 u32 tiles of a 16 x 160 tensor by
/// TMA into stage `k % 3`, consumer warps 1 and 2 wait on the stage's full barrier, sum
/// their column of the tile, and arrive on its empty barrier (64 arrivals).
fn ring_source() -> String {
    let body = "\
setp.eq.u32 %lead, %t, 0;
@!%lead bra INIT_DONE;
mbarrier.init.shared::cta.b64 [smem], 1;
mbarrier.init.shared::cta.b64 [smem+8], 1;
mbarrier.init.shared::cta.b64 [smem+16], 1;
mbarrier.init.shared::cta.b64 [smem+24], 64;
mbarrier.init.shared::cta.b64 [smem+32], 64;
mbarrier.init.shared::cta.b64 [smem+40], 64;
fence.mbarrier_init.release.cluster;
INIT_DONE:
bar.sync 0;
setp.ge.u32 %consumer, %t, 32;
mov.u32 %k, 0;
@%consumer bra CONSUMER;
@!%lead bra END;
PRODUCE:
setp.ge.u32 %q, %k, 10;
@%q bra END;
rem.u32 %s, %k, 3;
div.u32 %r, %k, 3;
and.b32 %ph, %r, 1;
xor.b32 %ph, %ph, 1;
shl.b32 %full, %s, 3;
add.u32 %empty, %full, 24;
WAIT_EMPTY:
mbarrier.try_wait.parity.shared::cta.b64 %p, [%empty], %ph;
@!%p bra WAIT_EMPTY;
mbarrier.arrive.expect_tx.shared::cta.b64 _, [%full], 1024;
mad.lo.u32 %buf, %s, 1024, 1024;
mul.lo.u32 %y, %k, 16;
cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%buf], [tmap, {0, %y}], [%full];
add.u32 %k, %k, 1;
bra.uni PRODUCE;
CONSUMER:
mov.u32 %sum, 0;
sub.u32 %c, %t, 32;
and.b32 %col, %c, 15;
shr.u32 %half, %c, 4;
CONSUME:
setp.ge.u32 %q, %k, 10;
@%q bra STORE;
rem.u32 %s, %k, 3;
div.u32 %r, %k, 3;
and.b32 %ph, %r, 1;
shl.b32 %full, %s, 3;
add.u32 %empty, %full, 24;
WAIT_FULL:
mbarrier.try_wait.parity.shared::cta.b64 %p, [%full], %ph;
@!%p bra WAIT_FULL;
mad.lo.u32 %buf, %s, 1024, 1024;
mov.u32 %row, %half;
ROWS:
setp.ge.u32 %q, %row, 16;
@%q bra ROWS_DONE;
mad.lo.u32 %a, %row, 64, %buf;
mad.lo.u32 %a, %col, 4, %a;
ld.shared.u32 %x, [%a];
add.u32 %sum, %sum, %x;
add.u32 %row, %row, 4;
bra.uni ROWS;
ROWS_DONE:
mbarrier.arrive.shared::cta.b64 _, [%empty];
add.u32 %k, %k, 1;
bra.uni CONSUME;
STORE:
mov.u32 %v, %sum;
cvt.u64.u32 %t64, %t;
mad.lo.u64 %oa, %t64, 4, %o;
st.global.u32 [%oa], %v;
END:";
    source(96, 4096, ",\n.param .align 64 .b8 tmap[128]", body)
}

fn ring_kernel() -> Kernel {
    parse(&ring_source()).remove(0)
}

#[test]
fn a_three_stage_tma_ring_agrees_under_20_random_schedules() {
    let k = ring_kernel();
    let (w, h) = (16u64, 160u64);
    let mut data = Vec::new();
    for y in 0..h {
        for x in 0..w {
            data.extend_from_slice(&((y * 7 + x * 3) as u32).to_le_bytes());
        }
    }
    let run_seed = |seed: Option<u64>| {
        let mut mem = Memory::default();
        let g = mem.alloc(&data);
        let out = mem.alloc(&[0; 96 * 4]);
        let m = TensorMap {
            global_address: g,
            global_dim: [w, h, 0, 0, 0],
            global_stride: [4 * w, 0, 0, 0],
            box_dim: [16, 16, 0, 0, 0],
            element_stride: [1, 1, 0, 0, 0],
            rank: 2,
            elemtype: 2,
            ..TensorMap::default()
        };
        let st = run_opts(
            &k,
            &[
                Param::Value(out),
                Param::Bytes(encode_tensor_map(&m).to_vec()),
            ],
            &mut mem,
            seed,
        )
        .unwrap_or_else(|e| panic!("seed {seed:?}: {e}"));
        (words(&mem, out, 96), st)
    };
    let (want, st) = run_seed(None);
    // Consumer thread c sums column c % 16 over rows c / 16, c / 16 + 4, ... of every tile.
    for c in 0..64u64 {
        let (col, half) = (c % 16, c / 16);
        let s: u64 = (0..h)
            .filter(|y| (y % 16) % 4 == half)
            .map(|y| y * 7 + col * 3)
            .sum();
        assert_eq!(u64::from(want[32 + c as usize]), s, "consumer thread {c}");
    }
    assert_eq!(st.tma_bytes_loaded, 10 * 1024);
    for seed in 1..=20 {
        let (got, st) = run_seed(Some(seed));
        assert_eq!(got, want, "seed {seed}");
        assert_eq!(st.tma_bytes_loaded, 10 * 1024);
    }
}

#[test]
fn a_ring_consumer_that_does_not_wait_races_with_the_copy() {
    // Consumers read the stage without waiting on its full barrier.
    let wait = "WAIT_FULL:\nmbarrier.try_wait.parity.shared::cta.b64 %p, [%full], %ph;\n@!%p bra WAIT_FULL;\n";
    let ptx_racy = ring_source().replace(wait, "");
    let k = parse(&ptx_racy).remove(0);
    let (w, h) = (16u64, 160u64);
    let mut flagged = 0;
    for seed in (1..=5).map(Some).chain([None]) {
        let mut mem = Memory::default();
        let g = mem.alloc(&vec![1; (4 * w * h) as usize]);
        let out = mem.alloc(&[0; 96 * 4]);
        let m = TensorMap {
            global_address: g,
            global_dim: [w, h, 0, 0, 0],
            global_stride: [4 * w, 0, 0, 0],
            box_dim: [16, 16, 0, 0, 0],
            element_stride: [1, 1, 0, 0, 0],
            rank: 2,
            elemtype: 2,
            ..TensorMap::default()
        };
        let r = run_opts(
            &k,
            &[
                Param::Value(out),
                Param::Bytes(encode_tensor_map(&m).to_vec()),
            ],
            &mut mem,
            seed,
        );
        if let Err(e) = r {
            assert!(e.contains("no barrier between"), "{e}");
            flagged += 1;
        }
    }
    assert!(flagged > 0);
}

/// Builds a 2-D u32 tensor map on the device: warp 0 zeroes 128 shared bytes, thread 0
/// replaces each field, the warp copies it to global memory with
/// `tensormap.cp_fenceproxy` (or, when `fenced` is false, thread 0 writes the fields
/// straight into the global map with no proxy fence); then a TMA load through it.
fn device_map(fenced: bool) -> Result<Vec<u32>, String> {
    let (dst_space, target) = if fenced {
        ("shared::cta", "%tm")
    } else {
        ("global", "%gm")
    };
    let replace = |f: &str, ty: &str, rest: &str| {
        format!("tensormap.replace.tile.{f}.{dst_space}.b1024.{ty} [{target}], {rest};\n")
    };
    let mut fields = String::new();
    fields += &replace("global_address", "b64", "%src");
    fields += &replace("rank", "b32", "1");
    fields += &replace("box_dim", "b32", "0, 8");
    fields += &replace("box_dim", "b32", "1, 4");
    fields += &replace("global_dim", "b32", "0, 8");
    fields += &replace("global_dim", "b32", "1, 6");
    fields += &replace("global_stride", "b64", "0, 32");
    fields += &replace("element_stride", "b32", "0, 1");
    fields += &replace("element_stride", "b32", "1, 1");
    fields += &replace("elemtype", "b32", "2");
    fields += &replace("interleave_layout", "b32", "0");
    fields += &replace("swizzle_mode", "b32", "0");
    fields += &replace("fill_mode", "b32", "0");
    let copy = if fenced {
        "bar.warp.sync -1;\ntensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%gm], [%tm], 128;\nfence.proxy.tensormap::generic.acquire.gpu [%gm], 128;\n"
    } else {
        ""
    };
    let body = format!(
        "ld.param.u64 %src, [src];
ld.param.u64 %gm, [gmap];
mov.u32 %tm, 512;
shl.b32 %za, %t, 2;
add.u32 %za, %za, 512;
setp.lt.u32 %z, %t, 32;
@%z st.shared.u32 [%za], 0;
setp.eq.u32 %lead, %t, 0;
@%lead mbarrier.init.shared::cta.b64 [smem], 1;
bar.sync 0;
@!%lead bra FIELDS_DONE;
{fields}FIELDS_DONE:
{copy}bar.sync 0;
mov.u32 %dst, 1024;
@%lead mbarrier.arrive.expect_tx.shared::cta.b64 %st, [smem], 128;
@%lead cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%dst], [%gm, {{0, 3}}], [smem];
WAIT:
mbarrier.try_wait.parity.shared::cta.b64 %done, [smem], 0;
@!%done bra WAIT;
shl.b32 %sa, %t, 2;
add.u32 %sa, %sa, 1024;
ld.shared.u32 %v, [%sa];
{STORE_OUT}"
    );
    let k = kernel(32, 2048, ",\n.param .u64 src,\n.param .u64 gmap", &body);
    let mut mem = Memory::default();
    let data: Vec<u8> = (0..48u32).flat_map(|v| (v * 10).to_le_bytes()).collect();
    let src = mem.alloc(&data);
    let gmap = mem.alloc(&[0; 128]);
    let out = mem.alloc(&[0; 128]);
    run(&k, [1, 1, 1], &[out, src, gmap], &mut mem)?;
    Ok(words(&mem, out, 32))
}

#[test]
fn a_tensor_map_built_on_the_device_with_replace_and_cp_fenceproxy() {
    let got = device_map(true).expect("runs");
    // Rows 3..6 of an 8 x 6 u32 tensor (row 6 out of bounds: zero).
    for (i, v) in got.iter().enumerate() {
        let (r, c) = (3 + i / 8, i % 8);
        let want = if r < 6 { (r * 8 + c) as u32 * 10 } else { 0 };
        assert_eq!(*v, want, "element {i}");
    }
}

#[test]
fn a_tensor_map_written_without_a_proxy_fence_is_reported() {
    let e = device_map(false).expect_err("no proxy fence");
    assert!(e.contains("no proxy fence"), "{e}");
}

#[test]
fn setmaxnreg_is_a_warpgroup_collective() {
    let body = "setp.lt.u32 %wg0, %t, 128;\n@%wg0 bra PRODUCER;\nsetmaxnreg.inc.sync.aligned.u32 232;\nbra.uni END;\nPRODUCER:\nsetmaxnreg.dec.sync.aligned.u32 40;\nEND:";
    let k = kernel(256, 16, "", body);
    for seed in [None, Some(3)] {
        let st = run_opts(&k, &[Param::Value(0)], &mut Memory::default(), seed).expect("runs");
        assert_eq!(st.maxnreg.get(&0), Some(&40));
        assert_eq!(st.maxnreg.get(&1), Some(&232));
    }
    let k = kernel(128, 16, "", "setmaxnreg.inc.sync.aligned.u32 236;");
    let e = run(&k, [1, 1, 1], &[0], &mut Memory::default()).expect_err("not a multiple of 8");
    assert!(e.contains("multiple of 8 in 24..256"), "{e}");
    // Warp 0 at one setmaxnreg, warps 1..3 at another.
    let body = "setp.lt.u32 %w0, %t, 32;\n@%w0 bra A;\nsetmaxnreg.inc.sync.aligned.u32 232;\nbra.uni END;\nA:\nsetmaxnreg.inc.sync.aligned.u32 240;\nEND:";
    let k = kernel(128, 16, "", body);
    let e = run(&k, [1, 1, 1], &[0], &mut Memory::default()).expect_err("divergent");
    assert!(e.contains("warpgroup collective in divergent code"), "{e}");
    // A CTA of 64 threads has no whole warpgroup.
    let k = kernel(64, 16, "", "setmaxnreg.dec.sync.aligned.u32 40;");
    let e = run(&k, [1, 1, 1], &[0], &mut Memory::default()).expect_err("no warpgroup");
    assert!(e.contains("whole warpgroups"), "{e}");
}

#[test]
fn elect_sync_elects_the_lowest_active_lane() {
    let body = "and.b32 %lane, %t, 31;\nsetp.ge.u32 %on, %lane, 3;\nmov.u32 %d, 99;\nmov.u32 %e, 0;\n@%on elect.sync %d|%p, -1;\nselp.u32 %e, 1, 0, %p;\nmad.lo.u32 %v, %d, 10, %e;\n";
    let k = kernel(64, 16, "", &format!("{body}{STORE_OUT}"));
    let mut mem = Memory::default();
    let out = mem.alloc(&[0; 256]);
    run(&k, [1, 1, 1], &[out], &mut mem).expect("runs");
    let got = words(&mem, out, 64);
    for (t, v) in got.iter().enumerate() {
        let lane = t % 32;
        let want = if lane < 3 {
            990
        } else {
            30 + u32::from(lane == 3)
        };
        assert_eq!(*v, want, "thread {t}");
    }
}

#[test]
fn round_robin_keeps_the_lockstep_instruction_count() {
    // Two warps of uniform code: the count is the kernel's path, as in lockstep.
    let k = kernel(
        64,
        16,
        "",
        "add.u32 %v, %t, 1;\nbar.sync 0;\nadd.u32 %v, %v, 1;",
    );
    let st = run(&k, [1, 1, 1], &[0], &mut Memory::default()).expect("runs");
    assert_eq!(st.instructions, 6);
    assert_eq!(st.warp_instructions, 12);
}

/// The copy engine may not land in shared bytes that a warpgroup MMA still in flight
/// reads: a second tensor load into A's stage before `wgmma.wait_group` retires the
/// product is reported (the producer of a warp-specialized ring that hands a stage back
/// too early), and after the wait it is not.
#[test]
fn a_tensor_load_over_an_in_flight_wgmma_operand_is_reported() {
    let source = |wait: &str| {
        let body = format!(
            "\
setp.eq.u32 %lead, %t, 0;
@%lead mbarrier.init.shared::cta.b64 [smem], 1;
bar.sync 0;
@%lead mbarrier.arrive.expect_tx.shared::cta.b64 _, [smem], 2048;
@%lead cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [smem+1024], [tmap, {{0, 0}}], [smem];
WAIT:
mbarrier.try_wait.parity.shared::cta.b64 %p, [smem], 0;
@!%p bra WAIT;
mov.u64 %da, 0x0000001000080040;
mov.u64 %db, 0x00000010000800C0;
setp.ne.u32 %sd, %t, %t;
wgmma.fence.sync.aligned;
wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {{%d0, %d1, %d2, %d3}}, %da, %db, %sd, 1, 1, 0, 0;
wgmma.commit_group.sync.aligned;
{wait}
bar.sync 0;
@%lead mbarrier.arrive.expect_tx.shared::cta.b64 _, [smem], 2048;
@%lead cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [smem+1024], [tmap, {{0, 0}}], [smem];
WAIT2:
mbarrier.try_wait.parity.shared::cta.b64 %p, [smem], 1;
@!%p bra WAIT2;
wgmma.wait_group.sync.aligned 0;
"
        );
        kernel(128, 4096, ",\n.param .align 64 .b8 tmap[128]", &body)
    };
    let run = |k: &Kernel| {
        let mut mem = Memory::default();
        let g = mem.alloc(&[1; 64 * 32]);
        let out = mem.alloc(&[0; 16]);
        let m = map2d(g, (16, 64, 32), (16, 64), 0);
        run_opts(
            k,
            &[
                Param::Value(out),
                Param::Bytes(encode_tensor_map(&m).to_vec()),
            ],
            &mut mem,
            None,
        )
    };
    let e = run(&source("")).expect_err("the copy lands over the product's operand");
    assert!(
        e.contains("overwrites shared byte 1024")
            && e.contains("still in flight")
            && e.contains("tensor load"),
        "{e}"
    );
    run(&source("wgmma.wait_group.sync.aligned 0;")).expect("after the wait");
}
