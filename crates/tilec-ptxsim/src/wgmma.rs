//! Hopper warpgroup MMA (`wgmma.*`, sm_90a), from the PTX ISA ("Asynchronous Warpgroup
//! Level Matrix Multiply-Accumulate Operation"), run as warpgroup collectives: all four
//! warps of a warpgroup reach the instruction, then it executes once for the group.
//!
//! * `wgmma.mma_async.sync.aligned.m64nNkK.D.A.B d, a-desc, b-desc, scale-d{, imm...}`
//!   with A and B both read from shared memory through 64-bit matrix descriptors ("Matrix
//!   Descriptor Format"): bits 0-13 the start address >> 4, 16-29 the leading dimension
//!   byte offset >> 4, 32-45 the stride dimension byte offset >> 4, 49-51 the base offset
//!   (must be 0 here), 62-63 the swizzle mode (0 none, 1 128B, 2 64B, 3 32B). Both
//!   operands K-major (`imm-trans` 0): element (row r, byte `kb` of K) of a swizzled
//!   layout is at `start + (r / 8) SBO + (r % 8) W + kb` with `W` the swizzle width, the
//!   address then swizzled (16-byte chunk bits 4.. XOR the 128-byte row bits 7..: the same
//!   function as the tensor copies', [`crate::tma::swizzle`]); without swizzle, at
//!   `start + (r / 8) SBO + (kb / 16) LBO + (r % 8) 16 + kb % 16` (8 x 16-byte core
//!   matrices). A is `64 x K`, B is `N x K` (row n holds column n of B).
//! * The accumulator `d` (N/2 registers per thread, f32 or s32): register `i` of thread
//!   `t` of the warpgroup (warp `w = t / 32`, lane `l`) is row `16 w + l / 4 + 8 ((i / 2) %
//!   2)`, column `8 (i / 4) + 2 (l % 4) + i % 2` ("Matrix fragments for wgmma"). `scale-d`
//!   false: D = A B; true: D = A B + D.
//! * Numbers: products exact, summed in f64 with the accumulator, one rounding to f32 per
//!   instruction (as the `mma` of this simulator); integers wrap (`.satfinite`: saturate).
//! * The result is written when the instruction executes; `wgmma.fence`,
//!   `wgmma.commit_group` and `wgmma.wait_group` are warpgroup collectives that check
//!   nothing more. (So a read of the accumulator before the wait is not caught.)

use crate::{Cta, Inst, Opnd, Stats, bf16_to_f32, f16_to_f32, mask, sext};

/// Decodes an operand element's bits.
type Decode = fn(u64) -> f64;

/// The operands' element types wgmma takes: (bytes, decoder to f64).
fn element(ty: &str) -> Option<(u64, Decode)> {
    use tilec_ir::float::{FloatKind, to_f64};
    Some(match ty {
        "f16" => (2, |b| f16_to_f32(b as u16) as f64),
        "bf16" => (2, |b| bf16_to_f32(b as u16) as f64),
        "tf32" => (4, |b| f32::from_bits(b as u32 & !0x1FFF) as f64),
        "e4m3" => (1, |b| to_f64(FloatKind::F8E4M3FN, b)),
        "e5m2" => (1, |b| to_f64(FloatKind::F8E5M2, b)),
        "s8" => (1, |b| sext(b, 8) as f64),
        "u8" => (1, |b| b as f64),
        _ => return None,
    })
}

/// A decoded matrix descriptor.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Desc {
    pub start: u64,
    pub lbo: u64,
    pub sbo: u64,
    pub base_offset: u64,
    pub mode: u64,
}

pub(crate) fn decode(d: u64) -> Desc {
    Desc {
        start: (d & 0x3FFF) << 4,
        lbo: ((d >> 16) & 0x3FFF) << 4,
        sbo: ((d >> 32) & 0x3FFF) << 4,
        base_offset: (d >> 49) & 7,
        mode: d >> 62,
    }
}

impl Desc {
    /// The shared-memory address of byte `kb` of row `r` (K-major).
    fn addr(&self, r: u64, kb: u64) -> u64 {
        match self.mode {
            0 => self.start + (r / 8) * self.sbo + (kb / 16) * self.lbo + (r % 8) * 16 + kb % 16,
            m => {
                let width = 256 >> m; // 1: 128, 2: 64, 3: 32
                let a = self.start + (r / 8) * self.sbo + (r % 8) * width + kb;
                crate::tma::swizzle(a, (4 - m) as u8)
            }
        }
    }
}

impl Cta<'_> {
    /// A `wgmma.*` instruction for the warpgroup whose first thread is `t0`.
    pub(crate) fn wgmma(
        &mut self,
        inst: &Inst,
        p: &[&str],
        t0: usize,
        stats: &mut Stats,
    ) -> Result<(), String> {
        let line = inst.line;
        let unsupported = || format!("line {line}: unsupported form {}", inst.op);
        match p {
            ["wgmma", "fence", "sync", "aligned"]
            | ["wgmma", "commit_group", "sync", "aligned"]
            | ["wgmma", "wait_group", "sync", "aligned"] => return Ok(()),
            ["wgmma", "mma_async", "sync", "aligned", ..] => {}
            _ => return Err(unsupported()),
        }
        let rest: Vec<&str> = p[4..]
            .iter()
            .copied()
            .filter(|x| *x != "satfinite")
            .collect();
        let satfinite = p.contains(&"satfinite");
        let [shape, dty, aty, bty] = rest[..] else {
            return Err(unsupported());
        };
        let dims = shape.strip_prefix("m64n").and_then(|s| s.split_once('k'));
        let Some((n, k)) =
            dims.and_then(|(n, k)| Some((n.parse::<u64>().ok()?, k.parse::<u64>().ok()?)))
        else {
            return Err(unsupported());
        };
        let (Some((asz, adec)), Some((bsz, bdec))) = (element(aty), element(bty)) else {
            return Err(unsupported());
        };
        if asz * k != 32 || bsz * k != 32 || !matches!(dty, "f32" | "s32") || n % 8 != 0 || n > 256
        {
            return Err(unsupported());
        }
        let [Opnd::Vec(d), ad, bd, scale, imms @ ..] = &inst.args[..] else {
            return Err(unsupported());
        };
        if d.len() as u64 != n / 2 {
            return Err(format!(
                "line {line}: {} accumulator registers for n{n} (want {})",
                d.len(),
                n / 2
            ));
        }
        // imm-trans-a/b (f16/bf16 only) must be 0: K-major.
        if imms.len() == 4 && imms[2..].iter().any(|x| !matches!(x, Opnd::Imm(0))) {
            return Err(format!(
                "line {line}: transposed (MN-major) operands are not simulated"
            ));
        }
        let negate = |i: usize| matches!(imms.get(i), Some(Opnd::Imm(v)) if *v as i64 == -1 || *v == u64::MAX);
        // Every thread of the warpgroup holds the same descriptors and scale.
        let (da, db, sd) = (self.get(ad, t0), self.get(bd, t0), self.get(scale, t0));
        for t in t0..t0 + 128 {
            if (self.get(ad, t), self.get(bd, t), self.get(scale, t)) != (da, db, sd) {
                return Err(format!(
                    "line {line}: the descriptors or scale-d differ across the warpgroup (thread {})",
                    t - t0
                ));
            }
        }
        let (a, b) = (decode(da), decode(db));
        for (what, x) in [("A", &a), ("B", &b)] {
            if x.base_offset != 0 {
                return Err(format!(
                    "line {line}: {what} descriptor base offset {} (0 simulated)",
                    x.base_offset
                ));
            }
        }
        // A: 64 x K, B: N x K, both K-major.
        let mut read =
            |desc: &Desc, rows: u64, size: u64, dec: fn(u64) -> f64| -> Result<Vec<f64>, String> {
                let mut out = Vec::with_capacity((rows * k) as usize);
                for r in 0..rows {
                    for kk in 0..k {
                        let at = desc.addr(r, kk * size);
                        if !at.is_multiple_of(size) {
                            return Err(format!("line {line}: misaligned operand element at {at}"));
                        }
                        self.smem_access(at, size as usize, t0, false, line)?;
                        let mut bits = 0u64;
                        for j in 0..size as usize {
                            bits |= (self.smem[at as usize + j] as u64) << (8 * j);
                        }
                        out.push(dec(bits));
                    }
                }
                Ok(out)
            };
        let ma = read(&a, 64, asz, adec)?;
        let mb = read(&b, n, bsz, bdec)?;
        let (sa, sb) = (
            if negate(0) { -1.0 } else { 1.0 },
            if negate(1) { -1.0 } else { 1.0 },
        );
        stats.mma += 1;
        for t in 0..128u64 {
            let (w, l) = (t / 32, t % 32);
            for (i, reg) in d.iter().enumerate() {
                let i = i as u64;
                let row = 16 * w + l / 4 + 8 * ((i / 2) % 2);
                let col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
                let old = self.get(reg, t0 + t as usize);
                let acc = match (sd != 0, dty) {
                    (false, _) => 0.0,
                    (true, "f32") => f32::from_bits(old as u32) as f64,
                    (true, _) => sext(old, 32) as f64,
                };
                let dot: f64 = (0..k as usize)
                    .map(|x| sa * ma[(row * k) as usize + x] * sb * mb[(col * k) as usize + x])
                    .sum();
                let v = acc + dot;
                let bits = if dty == "f32" {
                    (v as f32).to_bits() as u64
                } else if satfinite {
                    (v.clamp(i32::MIN as f64, i32::MAX as f64) as i64 as i32) as u32 as u64
                } else {
                    mask(v as i64 as u64, 32)
                };
                self.set(reg, t0 + t as usize, bits);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Descriptors as CUTLASS's `GmmaDescriptor` packs them: start address >> 4 in bits
    /// 0-13, LBO >> 4 in 16-29, SBO >> 4 in 32-45, base offset in 49-51, layout type in
    /// 62-63.
    #[test]
    fn descriptor_fields() {
        let d = (0x1230 >> 4) | (1 << 16) | ((1024u64 >> 4) << 32) | (1u64 << 62);
        assert_eq!(
            decode(d),
            Desc {
                start: 0x1230,
                lbo: 16,
                sbo: 1024,
                base_offset: 0,
                mode: 1
            }
        );
        let d = (0x3FFFu64) | (3u64 << 62) | (5u64 << 49);
        assert_eq!(decode(d).start, 0x3FFF0);
        assert_eq!((decode(d).mode, decode(d).base_offset), (3, 5));
    }

    /// 128B swizzle: row r's 16-byte chunk c is stored at chunk c ^ (r % 8); 64B: rows of
    /// 64 bytes, chunk c ^ ((r / 2) % 4); 32B: chunk c ^ ((r / 4) % 2).
    #[test]
    fn swizzled_addresses() {
        for (mode, width) in [(1u64, 128u64), (2, 64), (3, 32)] {
            let d = Desc {
                start: 0,
                lbo: 16,
                sbo: 8 * width,
                base_offset: 0,
                mode,
            };
            for r in 0..16u64 {
                for c in 0..width / 16 {
                    let got = d.addr(r, 16 * c);
                    let phase = match mode {
                        1 => r % 8,
                        2 => (r / 2) % 4,
                        _ => (r / 4) % 2,
                    };
                    assert_eq!(
                        got,
                        r * width + 16 * (c ^ phase),
                        "mode {mode} row {r} chunk {c}"
                    );
                }
            }
        }
    }
}
