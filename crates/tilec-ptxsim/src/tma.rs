//! Bulk copies (`cp.async.bulk`), tensor copies (`cp.async.bulk.tensor`, TMA) and tensor
//! maps (`tensormap.replace`, `tensormap.cp_fenceproxy`), from the PTX ISA ("Data Movement
//! and Conversion Instructions: cp.async.bulk / cp.async.bulk.tensor / tensormap.replace",
//! "Tensors", "Tensor-map") and the CUDA driver's `cuTensorMapEncodeTiled` requirements.
//!
//! # The tensor-map encoding
//!
//! The hardware's layout of the 128-byte tensor map is not documented, so the simulator
//! keeps its fields in its own layout (little-endian), which `tensormap.replace` writes,
//! [`encode_tensor_map`] produces for maps passed as kernel parameters, and
//! `cp.async.bulk.tensor` decodes:
//!
//! | bytes    | field |
//! |----------|-------|
//! | 0..8     | global address |
//! | 8..48    | global dimensions 0..4, u64 each (elements; dimension 0 innermost) |
//! | 48..80   | global strides 0..3, u64 each: the byte stride of dimensions 1..4 |
//! | 80..100  | box dimensions 0..4, u32 each |
//! | 100..120 | element (traversal) strides 0..4, u32 each |
//! | 120      | rank - 1 (as `tensormap.replace.tile.rank` takes it) |
//! | 121      | element type, `tensormap.replace.tile.elemtype`'s numbering (0 `.u8` .. 12 `.tf32.ftz`) |
//! | 122      | interleave layout (0 none, 1 16B, 2 32B) |
//! | 123      | swizzle mode (0 none, 1 32B, 2 64B, 3 128B, 4 96B) |
//! | 124      | swizzle atomicity (0 16B, ...) |
//! | 125      | fill mode (0 zero, 1 OOB-NaN) |
//! | 126..128 | zero |
//!
//! An all-zero map is empty and its use an error; every field is checked when a copy uses
//! the map (so a field a device-built map never set, zero, is reported there).

use crate::race::{self, CopyTag, Who};
use crate::{Base, Cta, GENERIC_PARAM, GENERIC_SHARED, Inst, Memory, Opnd, Stats};

/// A tiled tensor map's fields (see the module documentation for the encoding).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TensorMap {
    pub global_address: u64,
    /// Elements per dimension, innermost first (`rank` of them are used).
    pub global_dim: [u64; 5],
    /// Byte strides of dimensions 1.. (`rank - 1` of them are used).
    pub global_stride: [u64; 4],
    pub box_dim: [u32; 5],
    pub element_stride: [u32; 5],
    pub rank: u32,
    /// `tensormap.replace.tile.elemtype`'s numbering: 0 u8, 1 u16, 2 u32, 3 s32, 4 u64,
    /// 5 s64, 6 f16, 7 f32, 8 f32.ftz, 9 f64, 10 bf16, 11 tf32, 12 tf32.ftz.
    pub elemtype: u8,
    pub interleave: u8,
    /// 0 none, 1 32B, 2 64B, 3 128B.
    pub swizzle: u8,
    pub swizzle_atomicity: u8,
    /// 0 zero fill, 1 OOB-NaN fill.
    pub fill: u8,
}

/// The 128 bytes of `m` in the simulator's tensor-map encoding (for a `.param .align 64
/// .b8 NAME[128]` kernel parameter, or a map in global memory written by the host).
pub fn encode_tensor_map(m: &TensorMap) -> [u8; 128] {
    let mut b = [0u8; 128];
    b[0..8].copy_from_slice(&m.global_address.to_le_bytes());
    for d in 0..5 {
        b[8 + 8 * d..16 + 8 * d].copy_from_slice(&m.global_dim[d].to_le_bytes());
        b[80 + 4 * d..84 + 4 * d].copy_from_slice(&m.box_dim[d].to_le_bytes());
        b[100 + 4 * d..104 + 4 * d].copy_from_slice(&m.element_stride[d].to_le_bytes());
    }
    for d in 0..4 {
        b[48 + 8 * d..56 + 8 * d].copy_from_slice(&m.global_stride[d].to_le_bytes());
    }
    b[120] = m.rank.saturating_sub(1) as u8;
    b[121] = m.elemtype;
    b[122] = m.interleave;
    b[123] = m.swizzle;
    b[124] = m.swizzle_atomicity;
    b[125] = m.fill;
    b
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

/// Decodes the simulator's tensor-map encoding (no checks).
pub fn decode_tensor_map(b: &[u8]) -> TensorMap {
    let mut m = TensorMap {
        global_address: u64_at(b, 0),
        rank: u32::from(b[120]) + 1,
        elemtype: b[121],
        interleave: b[122],
        swizzle: b[123],
        swizzle_atomicity: b[124],
        fill: b[125],
        ..TensorMap::default()
    };
    for d in 0..5 {
        m.global_dim[d] = u64_at(b, 8 + 8 * d);
        m.box_dim[d] = u32_at(b, 80 + 4 * d);
        m.element_stride[d] = u32_at(b, 100 + 4 * d);
    }
    for d in 0..4 {
        m.global_stride[d] = u64_at(b, 48 + 8 * d);
    }
    m
}

/// The bytes of an element of `tensormap.replace`'s type `t`, `None` for the sub-byte
/// types (13..15) and invalid values.
fn elem_bytes(t: u8) -> Option<u64> {
    Some(match t {
        0 => 1,
        1 | 6 | 10 => 2,
        2 | 3 | 7 | 8 | 11 | 12 => 4,
        4 | 5 | 9 => 8,
        _ => return None,
    })
}

/// The shared-memory address a swizzled tensor copy puts the byte of unswizzled address
/// `addr` at (PTX ISA, "Tensor-map swizzling modes", 16-byte atomicity): the 16-byte chunk
/// index within each 128-byte line (address bits 4..6) is XORed with the line index
/// (bits 7..9) modulo 2 (32B), 4 (64B) or 8 (128B), so the pattern repeats every 256, 512
/// or 1024 bytes of shared memory. `swizzle`: 0 none, 1 32B, 2 64B, 3 128B.
pub fn swizzle(addr: u64, swizzle: u8) -> u64 {
    let mask = match swizzle {
        1 => 1,
        2 => 3,
        3 => 7,
        _ => 0,
    };
    addr ^ ((addr >> 7) & mask) << 4
}

impl TensorMap {
    /// The element size in bytes, checking the map against the ISA's and the driver's
    /// constraints; `dims` is the copy's `.Nd`.
    fn check(&self, dims: usize) -> Result<u64, String> {
        let r = self.rank as usize;
        if !(1..=5).contains(&r) {
            return Err(format!("rank {r} outside 1..5"));
        }
        if r != dims {
            return Err(format!("rank {r} used by a .{dims}d copy"));
        }
        let e = elem_bytes(self.elemtype).ok_or_else(|| {
            format!(
                "element type {} (sub-byte and invalid types are not simulated)",
                self.elemtype
            )
        })?;
        if self.interleave != 0 {
            return Err(format!(
                "interleave layout {} (only no interleave is simulated)",
                self.interleave
            ));
        }
        if self.swizzle > 3 {
            return Err(format!(
                "swizzle mode {} (96B swizzle is sm_103a only)",
                self.swizzle
            ));
        }
        if self.swizzle_atomicity != 0 {
            return Err(format!(
                "swizzle atomicity {} (only 16B is supported on sm_90a)",
                self.swizzle_atomicity
            ));
        }
        if self.fill > 1 {
            return Err(format!("fill mode {}", self.fill));
        }
        if self.fill == 1 && !(6..=12).contains(&self.elemtype) {
            return Err("OOB-NaN fill with a non-floating-point element type".into());
        }
        if !self.global_address.is_multiple_of(16) {
            return Err(format!(
                "global address {:#x} is not 16-byte aligned",
                self.global_address
            ));
        }
        for d in 0..r {
            let dim = self.global_dim[d];
            if dim == 0 || dim > 1 << 32 {
                return Err(format!("global dimension {d} is {dim} (must be 1..2^32)"));
            }
            let b = self.box_dim[d];
            if b == 0 || b > 256 {
                return Err(format!("box dimension {d} is {b} (must be 1..256)"));
            }
            let s = self.element_stride[d];
            if s == 0 || s > 8 {
                return Err(format!("element stride {d} is {s} (must be 1..8)"));
            }
        }
        if self.element_stride[0] != 1 {
            return Err(format!(
                "element stride 0 is {} (must be 1 without interleave)",
                self.element_stride[0]
            ));
        }
        for d in 0..r - 1 {
            let s = self.global_stride[d];
            if !s.is_multiple_of(16) || s >= 1 << 40 {
                return Err(format!(
                    "global stride {d} is {s} bytes (must be a multiple of 16 below 2^40)"
                ));
            }
            let below = if d == 0 {
                self.global_dim[0] * e
            } else {
                self.global_stride[d - 1] * self.global_dim[d]
            };
            if s < below {
                return Err(format!(
                    "global stride {d} is {s} bytes, less than the {below} bytes of the dimensions inside it"
                ));
            }
        }
        let inner = u64::from(self.box_dim[0]) * e;
        if !inner.is_multiple_of(16) {
            return Err(format!(
                "the inner box dimension is {inner} bytes (must be a multiple of 16)"
            ));
        }
        let span = [0, 32, 64, 128][self.swizzle as usize];
        if span > 0 && inner > span {
            return Err(format!(
                "the inner box dimension is {inner} bytes, more than the {span}-byte swizzle span"
            ));
        }
        Ok(e)
    }

    /// The box's elements per dimension (`ceil(box / element stride)`).
    fn counts(&self) -> [u64; 5] {
        let mut n = [1u64; 5];
        for (d, c) in n.iter_mut().enumerate().take(self.rank as usize) {
            *c = u64::from(self.box_dim[d]).div_ceil(u64::from(self.element_stride[d]));
        }
        n
    }

    /// The fill element for out-of-bounds elements of a load.
    fn fill_bytes(&self, e: u64) -> Vec<u8> {
        if self.fill == 0 {
            return vec![0; e as usize];
        }
        // OOB-NaN: the canonical NaN of the element type (the exact pattern the hardware
        // writes is not documented).
        let v: u64 = match self.elemtype {
            6 | 10 => 0x7FFF,
            9 => 0x7FFF_FFFF_FFFF_FFFF,
            _ => 0x7FFF_FFFF,
        };
        v.to_le_bytes()[..e as usize].to_vec()
    }
}

/// Where an element of a bulk copy goes or comes from.
#[derive(Clone, Debug)]
pub(crate) struct Piece {
    pub smem: usize,
    /// The global address, `None` for an out-of-bounds element of a load (filled).
    pub global: Option<u64>,
    pub len: usize,
}

/// A bulk copy in flight.
pub(crate) struct Copy {
    /// Its index in the race detector's copy table (thread `nt + id`).
    pub id: usize,
    pub load: bool,
    pub pieces: Vec<Piece>,
    pub fill: Vec<u8>,
    /// The bytes its completion counts (complete-tx).
    pub bytes: u64,
    pub mbar: Option<usize>,
    /// The issuer's clock at issue; the copy's own value of its agent's component.
    pub vc: Vec<u32>,
    pub clk: u32,
    pub agent: usize,
    pub line: usize,
    /// The scheduler step from which the round-robin scheduler lands it.
    pub due: u64,
}

/// A thread's bulk async-groups: copies not yet committed, and committed groups oldest
/// first.
#[derive(Default)]
pub(crate) struct Groups {
    pub open: Vec<usize>,
    pub committed: std::collections::VecDeque<Vec<usize>>,
}

impl Cta<'_> {
    /// A shared-memory operand of a non-generic `.shared::cta/::cluster` copy operand.
    fn shared_operand(&self, o: &Opnd, t: usize, line: usize) -> Result<usize, String> {
        let a = self.addr(o, t);
        if a >= GENERIC_SHARED {
            return Err(format!(
                "line {line}: a generic address {a:#x} where a .shared address is required"
            ));
        }
        Ok(a as usize)
    }

    /// Records a copy issued by thread `t` and queues it.
    #[allow(clippy::too_many_arguments)]
    fn issue(
        &mut self,
        t: usize,
        line: usize,
        load: bool,
        tensor: bool,
        pieces: Vec<Piece>,
        fill: Vec<u8>,
        bytes: u64,
        mbar: Option<usize>,
    ) -> usize {
        let w = t / 32;
        let agent = self.nwarps + w;
        self.vc_async[w] += 1;
        let clk = self.vc_async[w];
        let id = self.shadow.copies.len();
        self.shadow.copies.push(CopyTag {
            agent,
            issuer: t,
            line,
            what: match (tensor, load) {
                (true, true) => "tensor load (cp.async.bulk.tensor)",
                (true, false) => "tensor store (cp.async.bulk.tensor)",
                (false, true) => "bulk load (cp.async.bulk)",
                (false, false) => "bulk store (cp.async.bulk)",
            },
        });
        let vc = self.vc[w].clone();
        self.bump(w);
        self.progress += 1;
        self.inflight.push(Copy {
            id,
            load,
            pieces,
            fill,
            bytes,
            mbar,
            vc,
            clk,
            agent,
            line,
            due: self.steps + self.nwarps as u64,
        });
        id
    }

    /// Checks that the async proxy may read the shared bytes `[a, a + n)` for a copy
    /// issued by thread `t`: every generic-proxy write of them was followed by a
    /// `fence.proxy.async` of its thread.
    fn check_proxy_fence(&self, a: usize, n: usize, line: usize, what: &str) -> Result<(), String> {
        for b in a..a + n {
            if let Some((u, l)) = self.shadow.unfenced_write(b, &self.fences) {
                return Err(format!(
                    "line {line}: {what} reads shared byte {b}, which thread {u} wrote at line {l} in the generic proxy with no fence.proxy.async.shared::cta after it"
                ));
            }
        }
        Ok(())
    }

    /// `cp.async.bulk*` by thread `t`.
    pub(crate) fn bulk(
        &mut self,
        inst: &Inst,
        p: &[&str],
        t: usize,
        mem: &mut Memory,
        stats: &mut Stats,
    ) -> Result<(), String> {
        let line = inst.line;
        let a = &inst.args;
        let form = || format!("line {line}: unsupported form {}", inst.op);
        match p.get(3).copied() {
            Some("commit_group") => {
                let g = self.groups.entry(t).or_default();
                let open = std::mem::take(&mut g.open);
                g.committed.push_back(open);
                return Ok(());
            }
            Some("wait_group") => {
                let Some(Opnd::Imm(n)) = a.first() else {
                    return Err(form());
                };
                let n = *n as usize;
                let mut retire = Vec::new();
                if let Some(g) = self.groups.get_mut(&t) {
                    while g.committed.len() > n {
                        retire.extend(g.committed.pop_front().expect("a group"));
                    }
                }
                for id in retire {
                    if let Some(i) = self.inflight.iter().position(|c| c.id == id) {
                        self.land(i, mem, stats)?;
                    }
                    let rel = self.released.remove(&id).expect("landed copy");
                    race::join(&mut self.vc[t / 32], &rel);
                }
                self.bump(t / 32);
                return Ok(());
            }
            Some("prefetch") => return Ok(()),
            Some("tensor") => return self.tensor_copy(inst, p, t, mem),
            _ => {}
        }
        if p.contains(&"multicast::cluster") {
            return Err(format!(
                "line {line}: multicast bulk copies are not simulated (one CTA per cluster)"
            ));
        }
        let dst_shared = p.get(3).is_some_and(|q| q.starts_with("shared"));
        let src_global = p.get(4) == Some(&"global");
        let size = self.get(&a[2], t);
        if size == 0 || !size.is_multiple_of(16) {
            return Err(format!(
                "line {line}: cp.async.bulk of {size} bytes (must be a non-zero multiple of 16)"
            ));
        }
        if dst_shared && src_global && p.contains(&"mbarrier::complete_tx::bytes") {
            let dst = self.shared_operand(&a[0], t, line)?;
            let src = self.addr(&a[1], t);
            let mbar = self.mbar_addr(&a[3], &["shared"], t, line)?;
            if !dst.is_multiple_of(16) || !src.is_multiple_of(16) {
                return Err(format!(
                    "line {line}: cp.async.bulk from {src:#x} to shared {dst}: addresses must be 16-byte aligned"
                ));
            }
            if dst + size as usize > self.smem.len() || src + size > mem.bytes.len() as u64 {
                return Err(format!(
                    "line {line}: cp.async.bulk of {size} bytes from {src:#x} to shared {dst}: outside memory"
                ));
            }
            if !self.mbars.contains_key(&mbar) {
                return Err(format!(
                    "line {line}: cp.async.bulk completes on shared offset {mbar}, which holds no mbarrier"
                ));
            }
            let pieces = vec![Piece {
                smem: dst,
                global: Some(src),
                len: size as usize,
            }];
            self.issue(t, line, true, false, pieces, Vec::new(), size, Some(mbar));
            return Ok(());
        }
        if p.get(3) == Some(&"global")
            && p.get(4) == Some(&"shared::cta")
            && p.get(5) == Some(&"bulk_group")
        {
            let dst = self.addr(&a[0], t);
            let src = self.shared_operand(&a[1], t, line)?;
            if !dst.is_multiple_of(16) || !src.is_multiple_of(16) {
                return Err(format!(
                    "line {line}: cp.async.bulk from shared {src} to {dst:#x}: addresses must be 16-byte aligned"
                ));
            }
            if src + size as usize > self.smem.len() || dst + size > mem.bytes.len() as u64 {
                return Err(format!(
                    "line {line}: cp.async.bulk of {size} bytes from shared {src} to {dst:#x}: outside memory"
                ));
            }
            self.check_proxy_fence(src, size as usize, line, "cp.async.bulk")?;
            let pieces = vec![Piece {
                smem: src,
                global: Some(dst),
                len: size as usize,
            }];
            let id = self.issue(t, line, false, false, pieces, Vec::new(), size, None);
            self.groups.entry(t).or_default().open.push(id);
            return Ok(());
        }
        Err(form())
    }

    /// The 128 bytes of the tensor map at generic address `at` (a kernel parameter or
    /// global memory), checked for alignment and for a proxy fence after generic writes.
    fn tensor_map_bytes(&self, at: u64, mem: &Memory, line: usize) -> Result<Vec<u8>, String> {
        if (GENERIC_PARAM..GENERIC_SHARED).contains(&at) {
            let off = (at - GENERIC_PARAM) as usize;
            if off + 128 > self.param_blob.len() {
                return Err(format!(
                    "line {line}: tensor map at parameter offset {off}: not a 128-byte parameter"
                ));
            }
            return Ok(self.param_blob[off..off + 128].to_vec());
        }
        if at >= GENERIC_SHARED {
            return Err(format!(
                "line {line}: tensor map in shared memory: cp.async.bulk.tensor takes a map in .param, .const or .global space"
            ));
        }
        if !at.is_multiple_of(64) || at as usize + 128 > mem.bytes.len() {
            return Err(format!(
                "line {line}: tensor map at {at:#x}: not 64-byte aligned or outside memory"
            ));
        }
        for c in [at, at + 64] {
            if let Some(l) = self.tmap_dirty.get(&c) {
                return Err(format!(
                    "line {line}: the tensor map at {at:#x} was written in the generic proxy at line {l} with no proxy fence (tensormap.cp_fenceproxy or fence.proxy.tensormap::generic) before this use by the tensormap proxy"
                ));
            }
        }
        Ok(mem.read(at, 128).to_vec())
    }

    /// `cp.async.bulk.tensor.Nd.{shared::cluster.global|global.shared::cta}.tile...`.
    fn tensor_copy(
        &mut self,
        inst: &Inst,
        p: &[&str],
        t: usize,
        mem: &mut Memory,
    ) -> Result<(), String> {
        let line = inst.line;
        let a = &inst.args;
        let form = || format!("line {line}: unsupported form {}", inst.op);
        let dims: usize = p
            .get(4)
            .and_then(|d| d.strip_suffix('d'))
            .and_then(|d| d.parse().ok())
            .ok_or_else(form)?;
        let (dst, src) = (p.get(5).copied(), p.get(6).copied());
        let load = matches!(dst, Some("shared::cluster" | "shared::cta")) && src == Some("global");
        let store = dst == Some("global") && src == Some("shared::cta");
        if !load && !store {
            return Err(form());
        }
        for q in &p[7..] {
            match *q {
                "tile" | "L2::cache_hint" | "cta_group::1" => {}
                "mbarrier::complete_tx::bytes" if load => {}
                "bulk_group" if store => {}
                "multicast::cluster" => {
                    return Err(format!(
                        "line {line}: multicast tensor copies are not simulated (one CTA per cluster)"
                    ));
                }
                _ => return Err(form()),
            }
        }
        if !p.contains(&if load {
            "mbarrier::complete_tx::bytes"
        } else {
            "bulk_group"
        }) {
            return Err(form());
        }
        let (tm, smem_at) = if load { (&a[1], &a[0]) } else { (&a[0], &a[1]) };
        let Opnd::Tensor(base, coords) = tm else {
            return Err(form());
        };
        if coords.len() != dims {
            return Err(format!(
                "line {line}: .{dims}d tensor copy with {} coordinates",
                coords.len()
            ));
        }
        let map_at = match base {
            Base::Reg(r) => self.regs[*r][t],
            Base::Sym(s) => self.get(&Opnd::Sym(s.clone()), t),
        };
        let bytes = self.tensor_map_bytes(map_at, mem, line)?;
        if bytes.iter().all(|b| *b == 0) {
            return Err(format!(
                "line {line}: the tensor map at {map_at:#x} is empty (all zero)"
            ));
        }
        let m = decode_tensor_map(&bytes);
        let e = m
            .check(dims)
            .map_err(|s| format!("line {line}: tensor map at {map_at:#x}: {s}"))?;
        let c: Vec<i64> = coords
            .iter()
            .map(|o| self.get(o, t) as u32 as i32 as i64)
            .collect();
        let smem_base = self.shared_operand(smem_at, t, line)?;
        if !smem_base.is_multiple_of(128) {
            return Err(format!(
                "line {line}: tensor copy at shared {smem_base}: the shared address must be 128-byte aligned"
            ));
        }
        if store && c.iter().any(|x| *x < 0) {
            return Err(format!(
                "line {line}: tensor store with negative coordinates {c:?} (PTX ISA: must be non-negative)"
            ));
        }
        let n = m.counts();
        let total: u64 = n.iter().product::<u64>() * e;
        if smem_base + total as usize > self.smem.len() {
            return Err(format!(
                "line {line}: tensor copy of {total} bytes at shared {smem_base}: outside {} bytes",
                self.smem.len()
            ));
        }
        let mut pieces = Vec::with_capacity((total / e) as usize);
        let mut idx = [0u64; 5];
        for lin in 0..total / e {
            let mut rest = lin;
            for d in 0..5 {
                idx[d] = rest % n[d];
                rest /= n[d];
            }
            let mut inside = true;
            let mut g = m.global_address as i64;
            for d in 0..dims {
                let x = c[d] + (idx[d] * u64::from(m.element_stride[d])) as i64;
                if x < 0 || x >= m.global_dim[d] as i64 {
                    inside = false;
                }
                g += x * if d == 0 {
                    e as i64
                } else {
                    m.global_stride[d - 1] as i64
                };
            }
            let s = swizzle(smem_base as u64 + lin * e, m.swizzle) as usize;
            if inside {
                if g < 0 || g as u64 + e > mem.bytes.len() as u64 {
                    return Err(format!(
                        "line {line}: tensor copy element at {g:#x}: outside memory"
                    ));
                }
                pieces.push(Piece {
                    smem: s,
                    global: Some(g as u64),
                    len: e as usize,
                });
            } else if load {
                pieces.push(Piece {
                    smem: s,
                    global: None,
                    len: e as usize,
                });
            }
        }
        if load {
            let mbar = self.mbar_addr(&a[2], &["shared"], t, line)?;
            if !self.mbars.contains_key(&mbar) {
                return Err(format!(
                    "line {line}: tensor copy completes on shared offset {mbar}, which holds no mbarrier"
                ));
            }
            let fill = m.fill_bytes(e);
            self.issue(t, line, true, true, pieces, fill, total, Some(mbar));
        } else {
            for pc in &pieces {
                self.check_proxy_fence(pc.smem, pc.len, line, "cp.async.bulk.tensor")?;
            }
            let id = self.issue(t, line, false, true, pieces, Vec::new(), total, None);
            self.groups.entry(t).or_default().open.push(id);
        }
        Ok(())
    }

    /// Completes copy `inflight[i]`: moves its bytes (race-checked as the async proxy's
    /// accesses) and signals its mbarrier.
    pub(crate) fn land(
        &mut self,
        i: usize,
        mem: &mut Memory,
        stats: &mut Stats,
    ) -> Result<(), String> {
        let c = self.inflight.remove(i);
        let who = Who {
            tid: (self.k.threads + c.id) as u32,
            agent: c.agent,
            warp_thread: false,
            vc: &c.vc,
            clk: c.clk,
            line: c.line as u32,
            fences: 0,
        };
        let mut moved = 0u64;
        for pc in &c.pieces {
            if let Some((m, _)) = self
                .mbars
                .range(pc.smem.saturating_sub(7)..pc.smem + pc.len)
                .next()
            {
                return Err(format!(
                    "line {}: the {} writes over the live mbarrier at shared offset {m}",
                    c.line,
                    self.shadow.name(who.tid)
                ));
            }
            if c.load {
                let bytes = match pc.global {
                    Some(g) => mem.read(g, pc.len).to_vec(),
                    None => c.fill.clone(),
                };
                self.shadow.access(pc.smem, pc.len, &who, true)?;
                // Nor may the copy engine overwrite what a warpgroup MMA still reads.
                for b in pc.smem..pc.smem + pc.len {
                    let (n, at) = self.wg.busy.get(b).copied().unwrap_or((0, 0));
                    if n > 0 {
                        return Err(format!(
                            "line {}: {} overwrites shared byte {b} that the wgmma.mma_async at line {at} reads, still in flight (no wgmma.wait_group retired it)",
                            c.line,
                            self.shadow.name(who.tid)
                        ));
                    }
                }
                self.smem[pc.smem..pc.smem + pc.len].copy_from_slice(&bytes);
            } else {
                self.shadow.access(pc.smem, pc.len, &who, false)?;
                let g = pc.global.expect("store address") as usize;
                mem.bytes[g..g + pc.len].copy_from_slice(&self.smem[pc.smem..pc.smem + pc.len]);
            }
            moved += pc.len as u64;
        }
        if c.load {
            stats.tma_bytes_loaded += moved;
        } else {
            stats.tma_bytes_stored += moved;
        }
        let mut rel = c.vc.clone();
        rel[c.agent] = rel[c.agent].max(c.clk);
        self.progress += 1;
        match c.mbar {
            Some(m) => self.mbar_complete_tx(m, c.bytes as i64, &rel, c.line)?,
            None => {
                self.released.insert(c.id, rel);
            }
        }
        Ok(())
    }

    /// `tensormap.replace.tile.FIELD{.space}.b1024.TYPE [addr], {ord,} value` by thread `t`.
    pub(crate) fn tensormap_replace(
        &mut self,
        inst: &Inst,
        p: &[&str],
        t: usize,
        mem: &mut Memory,
    ) -> Result<(), String> {
        let line = inst.line;
        let a = &inst.args;
        let form = || format!("line {line}: unsupported form {}", inst.op);
        let (field, rest) = match p {
            [_, "replace", "tile", f, rest @ ..] => (*f, rest),
            _ => return Err(form()),
        };
        let (space, ty) = match rest {
            [s, "b1024", ty] => (Some(*s), *ty),
            ["b1024", ty] => (None, *ty),
            _ => return Err(form()),
        };
        let wide = matches!(field, "global_address" | "global_stride");
        if ty != if wide { "b64" } else { "b32" } {
            return Err(format!(
                "line {line}: tensormap.replace.{field} takes .{}",
                if wide { "b64" } else { "b32" }
            ));
        }
        let ordinal = matches!(
            field,
            "box_dim" | "global_dim" | "global_stride" | "element_stride"
        );
        let (ord, val_at) = if ordinal {
            let Some(Opnd::Imm(o)) = a.get(1) else {
                return Err(format!(
                    "line {line}: tensormap.replace.{field} needs an immediate ordinal"
                ));
            };
            (*o as usize, 2)
        } else {
            (0, 1)
        };
        let v = self.get(&a[val_at], t);
        let imm = matches!(a[val_at], Opnd::Imm(_));
        let limit = if field == "global_stride" { 4 } else { 5 };
        if ordinal && ord >= limit {
            return Err(format!(
                "line {line}: tensormap.replace.{field} ordinal {ord} (0..{})",
                limit - 1
            ));
        }
        let (at, bytes): (usize, Vec<u8>) = match field {
            "global_address" => (0, v.to_le_bytes().to_vec()),
            "rank" => {
                if v > 4 {
                    return Err(format!(
                        "line {line}: tensormap.replace.rank {v} (rank - 1, so 0..4)"
                    ));
                }
                (120, vec![v as u8])
            }
            "global_dim" => (8 + 8 * ord, (v as u32 as u64).to_le_bytes().to_vec()),
            "global_stride" => (48 + 8 * ord, v.to_le_bytes().to_vec()),
            "box_dim" => (80 + 4 * ord, (v as u32).to_le_bytes().to_vec()),
            "element_stride" => (100 + 4 * ord, (v as u32).to_le_bytes().to_vec()),
            "elemtype" | "interleave_layout" | "swizzle_mode" | "swizzle_atomicity"
            | "fill_mode" => {
                if !imm {
                    return Err(format!(
                        "line {line}: tensormap.replace.{field} takes an immediate value"
                    ));
                }
                let (at, max) = match field {
                    "elemtype" => (121, 15),
                    "interleave_layout" => (122, 2),
                    "swizzle_mode" => (123, 4),
                    "swizzle_atomicity" => (124, 3),
                    _ => (125, 1),
                };
                if v > max {
                    return Err(format!(
                        "line {line}: tensormap.replace.{field} {v}: not a valid value (0..{max})"
                    ));
                }
                (at, vec![v as u8])
            }
            _ => return Err(form()),
        };
        let addr = self.addr(&a[0], t);
        let shared = match space {
            Some("shared::cta") => true,
            Some("global") => false,
            None => addr >= GENERIC_SHARED,
            Some(_) => return Err(form()),
        };
        if shared {
            let off = if space.is_none() {
                addr - GENERIC_SHARED
            } else {
                addr
            } as usize;
            if !off.is_multiple_of(64) || off + 128 > self.smem.len() {
                return Err(format!(
                    "line {line}: tensor map at shared {off}: not 64-byte aligned or outside {} bytes",
                    self.smem.len()
                ));
            }
            // A weak write of the whole 1024-bit object (PTX ISA).
            let who = race::thread(&self.vc, &self.fences, t, line);
            self.shadow.access(off, 128, &who, true)?;
            self.smem[off + at..off + at + bytes.len()].copy_from_slice(&bytes);
        } else {
            if !addr.is_multiple_of(64) || addr as usize + 128 > mem.bytes.len() {
                return Err(format!(
                    "line {line}: tensor map at {addr:#x}: not 64-byte aligned or outside memory"
                ));
            }
            let at = addr as usize + at;
            mem.bytes[at..at + bytes.len()].copy_from_slice(&bytes);
            self.tmap_dirty.insert(addr, line);
            self.tmap_dirty.insert(addr + 64, line);
        }
        self.progress += 1;
        Ok(())
    }

    /// `tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.SCOPE.sync.aligned
    /// [dst], [src], 128` by thread `t`: the copy, then the release of the fence.
    pub(crate) fn cp_fenceproxy(
        &mut self,
        inst: &Inst,
        p: &[&str],
        t: usize,
        mem: &mut Memory,
    ) -> Result<(), String> {
        let line = inst.line;
        let a = &inst.args;
        if !matches!(
            p,
            [
                _,
                "cp_fenceproxy",
                "global",
                "shared::cta",
                "tensormap::generic",
                "release",
                "cta" | "cluster" | "gpu" | "sys",
                "sync",
                "aligned"
            ]
        ) || a.len() != 3
        {
            return Err(format!("line {line}: unsupported form {}", inst.op));
        }
        if !matches!(a[2], Opnd::Imm(128)) {
            return Err(format!(
                "line {line}: tensormap.cp_fenceproxy size must be 128"
            ));
        }
        let dst = self.addr(&a[0], t);
        let src = self.shared_operand(&a[1], t, line)?;
        if !dst.is_multiple_of(64) || dst as usize + 128 > mem.bytes.len() {
            return Err(format!(
                "line {line}: tensor map at {dst:#x}: not 64-byte aligned or outside memory"
            ));
        }
        if src + 128 > self.smem.len() {
            return Err(format!("line {line}: shared {src}+128 outside memory"));
        }
        let who = race::thread(&self.vc, &self.fences, t, line);
        self.shadow.access(src, 128, &who, false)?;
        let d = dst as usize;
        mem.bytes[d..d + 128].copy_from_slice(&self.smem[src..src + 128]);
        self.tmap_dirty.remove(&dst);
        self.tmap_dirty.remove(&(dst + 64));
        self.progress += 1;
        Ok(())
    }

    /// `fence.proxy.tensormap::generic.{release,acquire}.SCOPE {[addr], 128}`: an acquire
    /// with an address makes that map's generic writes visible to the tensormap proxy; a
    /// release makes every map's.
    pub(crate) fn tensormap_fence(
        &mut self,
        inst: &Inst,
        p: &[&str],
        t: usize,
    ) -> Result<(), String> {
        let line = inst.line;
        match (p.get(3).copied(), inst.args.len()) {
            (Some("acquire"), 2) => {
                if !matches!(inst.args[1], Opnd::Imm(128)) {
                    return Err(format!("line {line}: {} size must be 128", inst.op));
                }
                let at = self.addr(&inst.args[0], t);
                self.tmap_dirty.remove(&at);
                self.tmap_dirty.remove(&(at + 64));
            }
            (Some("release"), 0) => self.tmap_dirty.clear(),
            _ => return Err(format!("line {line}: unsupported form {}", inst.op)),
        }
        Ok(())
    }
}
