//! Synchronisation: named barriers (`bar`/`barrier`), `mbarrier` objects, warpgroup
//! collectives and `elect.sync`, from the PTX ISA ("Parallel Synchronization and
//! Communication Instructions").

use crate::race;
use crate::{Cta, GENERIC_SHARED, Inst, Opnd, Stats, WarpState};

/// The largest expected/pending arrival count and tx-count magnitude (PTX ISA, "Contents
/// of the mbarrier object": 2^20 - 1).
pub(crate) const MBAR_MAX: i64 = (1 << 20) - 1;

/// One of the CTA's sixteen named barriers while a generation is open.
#[derive(Clone, Default)]
pub(crate) struct NamedBar {
    /// The thread count of the arrivals so far (`None`: every thread of the CTA).
    pub count: Option<u32>,
    /// The warps that arrived (bit per warp).
    pub arrived: u64,
    /// The warps waiting (`bar.sync`), not those that only arrived (`bar.arrive`).
    pub waiters: Vec<usize>,
    pub clock: Vec<u32>,
    /// The first arrival's program counter and line, and whether it is `.aligned`.
    pub at: Option<(usize, usize, bool)>,
}

/// An mbarrier object (PTX ISA, "Contents of the mbarrier object"): the current phase
/// (all of it, its parity being the low bit), the expected and pending arrival counts and
/// the tx-count; for the race detector the clock released into the current phase and the
/// clock of the phase completed last; whether a wait has observed that completion.
pub(crate) struct MBar {
    pub phase: u64,
    pub expected: i64,
    pub pending: i64,
    pub tx: i64,
    pub clock: Vec<u32>,
    pub prev: Vec<u32>,
    pub observed: bool,
}

/// The opaque `state` an arrive returns: a marker bit, the mbarrier's address and the
/// phase before the arrive (its low 32 bits).
fn state_of(addr: usize, phase: u64) -> u64 {
    1 << 63 | ((addr as u64) & 0xFF_FFFF) << 32 | (phase & 0xFFFF_FFFF)
}

/// The warpgroup collectives: executed once per warpgroup when its four warps have all
/// reached the instruction. A `wgmma` arm goes here and in [`Cta::warpgroup_op`].
pub(crate) fn is_warpgroup_collective(op: &str) -> bool {
    matches!(op, "setmaxnreg" | "wgmma")
}

impl Cta<'_> {
    pub(crate) fn bump(&mut self, w: usize) {
        self.vc[w][w] += 1;
    }

    /// A warp's arrival at named barrier `id` (`count` threads, or the whole CTA), waiting
    /// for it to complete when `wait`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn bar_arrive(
        &mut self,
        w: usize,
        id: usize,
        count: Option<u32>,
        wait: bool,
        aligned: bool,
        pc: usize,
        line: usize,
    ) -> Result<(), String> {
        if id > 15 {
            return Err(format!("line {line}: barrier {id} (there are 16: 0..15)"));
        }
        if let Some(c) = count
            && (c == 0 || c % 32 != 0)
        {
            return Err(format!(
                "line {line}: barrier thread count {c} is not a non-zero multiple of the warp size"
            ));
        }
        if !wait && count.is_none() {
            return Err(format!(
                "line {line}: bar.arrive needs a thread count (PTX ISA)"
            ));
        }
        let b = &mut self.bars[id];
        match b.at {
            None => {
                b.count = count;
                b.at = Some((pc, line, aligned));
                b.clock = vec![0; self.vc[w].len()];
            }
            Some((at_pc, at_line, at_aligned)) => {
                if b.count != count {
                    return Err(format!(
                        "line {line}: barrier {id} with thread count {count:?} while the arrivals of line {at_line} used {:?}",
                        b.count
                    ));
                }
                if count.is_none() && (aligned || at_aligned) && at_pc != pc {
                    return Err(format!(
                        "line {line}: barrier in divergent code: warp {w} reaches barrier {id} while warps wait at it at line {at_line}"
                    ));
                }
            }
        }
        if b.arrived & 1 << w != 0 {
            return Err(format!(
                "line {line}: warp {w} arrives at barrier {id} again before it completes"
            ));
        }
        b.arrived |= 1 << w;
        race::join(&mut b.clock, &self.vc[w]);
        if wait {
            b.waiters.push(w);
            self.warps[w].state = WarpState::Bar(id);
        }
        self.bump(w);
        self.progress += 1;
        self.bar_try_complete(id);
        Ok(())
    }

    /// Completes barrier `id` if every participating warp arrived: its waiters acquire the
    /// arrivals' clocks and run on.
    pub(crate) fn bar_try_complete(&mut self, id: usize) {
        let b = &self.bars[id];
        if b.at.is_none() {
            return;
        }
        let expected = match b.count {
            Some(c) => c as usize / 32,
            None => self
                .warps
                .iter()
                .filter(|w| w.state != WarpState::Done)
                .count(),
        };
        if (b.arrived.count_ones() as usize) < expected {
            return;
        }
        let b = std::mem::take(&mut self.bars[id]);
        for w in b.waiters {
            race::join(&mut self.vc[w], &b.clock);
            self.bump(w);
            self.warps[w].state = WarpState::Ready;
        }
        self.progress += 1;
    }

    /// The shared-memory offset of an mbarrier operand (`.shared{::cta,::cluster}` or a
    /// generic address in the shared window), checked for alignment and range.
    pub(crate) fn mbar_addr(
        &self,
        o: &Opnd,
        p: &[&str],
        t: usize,
        line: usize,
    ) -> Result<usize, String> {
        let a = self.addr(o, t);
        let shared = p.iter().any(|q| q.starts_with("shared"));
        let off = if shared {
            a
        } else if a >= GENERIC_SHARED {
            a - GENERIC_SHARED
        } else {
            return Err(format!(
                "line {line}: mbarrier at generic address {a:#x}: outside shared memory"
            ));
        };
        if !off.is_multiple_of(8) || off as usize + 8 > self.smem.len() {
            return Err(format!(
                "line {line}: mbarrier at shared offset {off}: misaligned (8 bytes) or outside {} bytes",
                self.smem.len()
            ));
        }
        Ok(off as usize)
    }

    /// The live mbarrier at `addr`, which thread `t` may use (its init is ordered before).
    fn live_mbar(&self, addr: usize, t: usize, line: usize) -> Result<(), String> {
        if !self.mbars.contains_key(&addr) {
            return Err(format!(
                "line {line}: thread {t} uses an mbarrier at shared offset {addr} that is not initialised (or was invalidated)"
            ));
        }
        let who = race::thread(&self.vc, &self.fences, t, line);
        if !self.shadow.write_ordered(addr, &who) {
            let (u, l) = self.shadow.writer(addr).unwrap_or((0, 0));
            return Err(format!(
                "line {line}: thread {t} uses the mbarrier at shared offset {addr} with no barrier after its mbarrier.init (thread {u}, line {l})"
            ));
        }
        Ok(())
    }

    /// Decrements the tx-count of the mbarrier at `addr` by `bytes` for a bulk copy that
    /// completed, releasing `clock` into the phase.
    pub(crate) fn mbar_complete_tx(
        &mut self,
        addr: usize,
        bytes: i64,
        clock: &[u32],
        line: usize,
    ) -> Result<(), String> {
        let Some(m) = self.mbars.get_mut(&addr) else {
            return Err(format!(
                "line {line}: a bulk copy completes on the mbarrier at shared offset {addr}, which is not initialised (or was invalidated)"
            ));
        };
        m.tx -= bytes;
        if m.tx < -MBAR_MAX {
            return Err(format!(
                "line {line}: the tx-count of the mbarrier at shared offset {addr} underflows ({} < -(2^20 - 1)) when a bulk copy of {bytes} bytes completes",
                m.tx
            ));
        }
        race::join(&mut m.clock, clock);
        self.progress += 1;
        self.mbar_try_complete(addr);
        Ok(())
    }

    fn mbar_try_complete(&mut self, addr: usize) -> bool {
        let m = self.mbars.get_mut(&addr).expect("live mbarrier");
        if m.pending != 0 || m.tx != 0 {
            return false;
        }
        m.phase += 1;
        m.pending = m.expected;
        m.prev = std::mem::replace(&mut m.clock, vec![0; m.prev.len()]);
        m.observed = false;
        true
    }

    /// `mbarrier.*` by thread `t` (PTX ISA 9.7.13.15): init, arrive (`.expect_tx`,
    /// `.noComplete`), arrive_drop, expect_tx, test_wait/try_wait (`.parity`), inval.
    pub(crate) fn mbarrier(
        &mut self,
        inst: &Inst,
        p: &[&str],
        t: usize,
        stats: &mut Stats,
    ) -> Result<(), String> {
        let line = inst.line;
        let a = &inst.args;
        let w = t / 32;
        let form = || format!("line {line}: unsupported mbarrier form {}", inst.op);
        if p.last() != Some(&"b64") {
            return Err(form());
        }
        let mut release = true;
        let mut acquire = true;
        let mut i = 2;
        let op = p[1];
        let mut sub = "";
        if matches!(p.get(2), Some(&("expect_tx" | "noComplete" | "parity"))) {
            sub = p[2];
            i = 3;
        }
        for q in &p[i..p.len() - 1] {
            match *q {
                "release" => release = true,
                "acquire" => acquire = true,
                "relaxed" => {
                    release = false;
                    acquire = false;
                }
                "cta" | "cluster" | "shared" | "shared::cta" | "shared::cluster" => {}
                _ => return Err(form()),
            }
        }
        match (op, sub) {
            ("init", "") => {
                let addr = self.mbar_addr(&a[0], p, t, line)?;
                let count = self.get(&a[1], t) as u32 as i64;
                if !(1..=MBAR_MAX).contains(&count) {
                    return Err(format!(
                        "line {line}: mbarrier.init count {count} outside [1, 2^20 - 1]"
                    ));
                }
                if self.mbars.contains_key(&addr) {
                    return Err(format!(
                        "line {line}: mbarrier.init of the live mbarrier at shared offset {addr} (invalidate it first)"
                    ));
                }
                let who = race::thread(&self.vc, &self.fences, t, line);
                self.shadow.access(addr, 8, &who, true)?;
                let n = self.vc[w].len();
                self.mbars.insert(
                    addr,
                    MBar {
                        phase: 0,
                        expected: count,
                        pending: count,
                        tx: 0,
                        clock: vec![0; n],
                        prev: vec![0; n],
                        observed: false,
                    },
                );
                self.progress += 1;
            }
            ("inval", "") => {
                let addr = self.mbar_addr(&a[0], p, t, line)?;
                self.live_mbar(addr, t, line)?;
                self.mbars.remove(&addr);
                let who = race::thread(&self.vc, &self.fences, t, line);
                self.shadow.access(addr, 8, &who, true)?;
                self.progress += 1;
            }
            ("expect_tx", "") => {
                let addr = self.mbar_addr(&a[0], p, t, line)?;
                self.live_mbar(addr, t, line)?;
                let tx = self.get(&a[1], t) as u32 as i64;
                self.expect_tx(addr, tx, line)?;
                self.progress += 1;
            }
            ("arrive" | "arrive_drop", "" | "expect_tx" | "noComplete") => {
                let addr = self.mbar_addr(&a[1], p, t, line)?;
                self.live_mbar(addr, t, line)?;
                let count = if sub == "expect_tx" {
                    let tx = self.get(&a[2], t) as u32 as i64;
                    self.expect_tx(addr, tx, line)?;
                    1
                } else if let Some(c) = a.get(2) {
                    self.get(c, t) as u32 as i64
                } else if sub == "noComplete" {
                    return Err(form());
                } else {
                    1
                };
                let m = self.mbars.get_mut(&addr).expect("live");
                if !(1..=MBAR_MAX).contains(&count) {
                    return Err(format!(
                        "line {line}: mbarrier arrive count {count} outside [1, 2^20 - 1]"
                    ));
                }
                if count > m.pending {
                    return Err(format!(
                        "line {line}: thread {t} arrives with count {count} on the mbarrier at shared offset {addr}, whose pending arrival count is {}",
                        m.pending
                    ));
                }
                if m.phase > 0 && !m.observed {
                    return Err(format!(
                        "line {line}: thread {t} arrives on the mbarrier at shared offset {addr} in phase {} before any test_wait/try_wait observed the completion of phase {} (PTX ISA: required for each phase)",
                        m.phase,
                        m.phase - 1
                    ));
                }
                let state = state_of(addr, m.phase);
                m.pending -= count;
                if op == "arrive_drop" {
                    m.expected -= count;
                }
                if release {
                    race::join(&mut m.clock, &self.vc[w]);
                }
                self.bump(w);
                self.progress += 1;
                let completed = self.mbar_try_complete(addr);
                if completed && sub == "noComplete" {
                    return Err(format!(
                        "line {line}: mbarrier.arrive.noComplete completes the phase of the mbarrier at shared offset {addr}"
                    ));
                }
                if !matches!(&a[0], Opnd::Sym(s) if s == "_") {
                    self.set(&a[0], t, state);
                }
            }
            ("test_wait" | "try_wait", "" | "parity") => {
                stats.mbarrier_waits += 1;
                let addr = self.mbar_addr(&a[1], p, t, line)?;
                self.live_mbar(addr, t, line)?;
                let x = self.get(&a[2], t);
                let m = &self.mbars[&addr];
                let done = if sub == "parity" {
                    let x = x as u32;
                    if x > 1 {
                        return Err(format!("line {line}: {} phaseParity {x} (0 or 1)", inst.op));
                    }
                    u64::from(x) != m.phase & 1
                } else {
                    let ok = x >> 63 == 1 && (x >> 32 & 0xFF_FFFF) as usize == addr & 0xFF_FFFF;
                    if !ok {
                        return Err(format!(
                            "line {line}: {} of the mbarrier at shared offset {addr} with a state {x:#x} that no arrive on it returned",
                            inst.op
                        ));
                    }
                    let s = x as u32;
                    let cur = m.phase as u32;
                    if s == cur {
                        false
                    } else if s.wrapping_add(1) == cur {
                        true
                    } else {
                        return Err(format!(
                            "line {line}: {} with the state of phase {s} while the mbarrier at shared offset {addr} is in phase {cur} (only the current or the preceding phase may be tested)",
                            inst.op
                        ));
                    }
                };
                if done {
                    let real = m.phase > 0;
                    let prev = m.prev.clone();
                    if acquire {
                        race::join(&mut self.vc[w], &prev);
                    }
                    self.bump(w);
                    if real {
                        self.mbars.get_mut(&addr).expect("live").observed = true;
                    }
                    self.waits.0 += 1;
                } else {
                    self.waits.1 += 1;
                }
                self.set(&a[0], t, u64::from(done));
            }
            _ => return Err(form()),
        }
        Ok(())
    }

    fn expect_tx(&mut self, addr: usize, tx: i64, line: usize) -> Result<(), String> {
        let m = self.mbars.get_mut(&addr).expect("live");
        m.tx += tx;
        if m.tx > MBAR_MAX {
            return Err(format!(
                "line {line}: the tx-count of the mbarrier at shared offset {addr} overflows ({} > 2^20 - 1)",
                m.tx
            ));
        }
        Ok(())
    }

    /// `elect.sync d|p, membermask` for the lanes `active` of warp `w` (PTX ISA: the
    /// leader is one predicated active thread of `membermask`; this is the lowest lane).
    #[allow(clippy::needless_range_loop)] // lanes index several per-lane arrays
    pub(crate) fn elect(
        &mut self,
        inst: &Inst,
        w: usize,
        here: &[bool; 32],
        active: &[bool; 32],
        n: usize,
    ) -> Result<(), String> {
        let line = inst.line;
        let lo = w * 32;
        let (d, pr) = match &inst.args[0] {
            Opnd::Vec(v) if v.len() == 2 => (v[0].clone(), v[1].clone()),
            _ => return Err(format!("line {line}: elect.sync d|p, membermask")),
        };
        let first = (0..n).find(|l| here[*l]).expect("a lane is here");
        let mask = self.get(&inst.args[1], lo + first) as u32;
        for l in 0..n {
            let inmask = mask >> l & 1 == 1;
            if inmask && !here[l] {
                return Err(format!(
                    "line {line}: elect.sync: lane {l} of warp {w} is in the membermask but not converged"
                ));
            }
            if here[l] && !inmask {
                return Err(format!(
                    "line {line}: elect.sync: lane {l} of warp {w} executes it outside its membermask"
                ));
            }
        }
        let leader = (0..n).find(|l| active[*l] && mask >> l & 1 == 1);
        for l in 0..n {
            if !active[l] {
                continue;
            }
            let leader = leader.expect("an active lane");
            if !matches!(&d, Opnd::Sym(s) if s == "_") {
                self.set(&d, lo + l, leader as u64);
            }
            self.set(&pr, lo + l, u64::from(l == leader));
        }
        Ok(())
    }

    /// Warp `w` reaches the warpgroup collective at `pc`: it waits for the other three
    /// warps of its warpgroup, and the last to arrive executes it once for the group.
    pub(crate) fn group_arrive(
        &mut self,
        w: usize,
        pc: usize,
        stats: &mut Stats,
    ) -> Result<(), String> {
        let inst = &self.k.insts[pc];
        let line = inst.line;
        let g = w / 4;
        if self.warps.len() < 4 * g + 4 {
            return Err(format!(
                "line {line}: {} needs whole warpgroups (4 warps); the CTA has {} warps",
                inst.op,
                self.warps.len()
            ));
        }
        self.warps[w].state = WarpState::Group(pc);
        self.progress += 1;
        for v in 4 * g..4 * g + 4 {
            match self.warps[v].state {
                WarpState::Done => {
                    return Err(format!(
                        "line {line}: {}: warp {v} of warpgroup {g} has exited",
                        inst.op
                    ));
                }
                WarpState::Group(q) if q != pc => {
                    return Err(format!(
                        "line {line}: warpgroup collective in divergent code: warp {w} reaches {} while warp {v} waits at line {}",
                        inst.op, self.k.insts[q].line
                    ));
                }
                WarpState::Group(_) => {}
                _ => return Ok(()),
            }
        }
        let p: Vec<&str> = inst.op.split('.').collect();
        self.warpgroup_op(inst, &p, 128 * g, stats)?;
        for v in 4 * g..4 * g + 4 {
            self.warps[v].state = WarpState::Ready;
            for l in 0..32 {
                if self.warps[v].pcs[l] == Some(pc) {
                    self.warps[v].pcs[l] = Some(pc + 1);
                }
            }
        }
        Ok(())
    }

    /// A warpgroup collective, executed once for the warpgroup whose first thread is `t0`
    /// (all 128 threads converged on it). Plug further collectives in here: a
    /// `"wgmma" => self.wgmma(inst, p, t0)` arm, with `wgmma` added to
    /// [`is_warpgroup_collective`].
    fn warpgroup_op(
        &mut self,
        inst: &Inst,
        p: &[&str],
        t0: usize,
        stats: &mut Stats,
    ) -> Result<(), String> {
        let line = inst.line;
        match p[0] {
            "wgmma" => {
                if inst.pred.is_some() {
                    return Err(format!("line {line}: predicated {}", inst.op));
                }
                self.wgmma(inst, p, t0, stats)?;
                // What `wait_group` retired (reads of shared memory, recorded as the
                // warpgroup's first thread's) is complete for each of its warps: their
                // clocks meet, so that any of them may overwrite those bytes after it.
                if p.get(1) == Some(&"wait_group") {
                    let ws = t0 / 32..(t0 / 32 + 4).min(self.nwarps);
                    let mut met = vec![0u32; self.vc[t0 / 32].len()];
                    for w in ws.clone() {
                        crate::race::join(&mut met, &self.vc[w]);
                    }
                    for w in ws {
                        self.vc[w].copy_from_slice(&met);
                        self.bump(w);
                    }
                }
                Ok(())
            }
            "setmaxnreg" => {
                if !matches!(p, [_, "inc" | "dec", "sync", "aligned", "u32"]) {
                    return Err(format!("line {line}: unsupported form {}", inst.op));
                }
                let Some(Opnd::Imm(n)) = inst.args.first() else {
                    return Err(format!(
                        "line {line}: setmaxnreg takes an immediate register count"
                    ));
                };
                let n = *n as u32;
                if !(24..=256).contains(&n) || !n.is_multiple_of(8) {
                    return Err(format!(
                        "line {line}: setmaxnreg {n}: the count must be a multiple of 8 in 24..256"
                    ));
                }
                let g = t0 / 128;
                if let Some(&cur) = self.nreg.get(&g) {
                    if p[1] == "inc" && n < cur {
                        return Err(format!(
                            "line {line}: setmaxnreg.inc to {n} below the current {cur}"
                        ));
                    }
                    if p[1] == "dec" && n > cur {
                        return Err(format!(
                            "line {line}: setmaxnreg.dec to {n} above the current {cur}"
                        ));
                    }
                }
                self.nreg.insert(g, n);
                stats.maxnreg.insert(g, n);
                Ok(())
            }
            o => Err(format!("line {line}: warpgroup collective {o}")),
        }
    }
}
