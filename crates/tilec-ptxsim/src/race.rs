//! The shared-memory race detector: happens-before by vector clocks.
//!
//! The agents that own a component of a vector clock are the warps (component `w` for warp
//! `w`) and, per warp, the asynchronous proxy its threads issue bulk copies into (component
//! `nwarps + w`). Every warp's own component starts at 1 and grows at each of its
//! synchronisation operations (a barrier arrival or completion, an mbarrier arrive or
//! successful wait, `bar.warp.sync`); a release joins the warp's clock into the
//! synchronisation object, an acquire joins the object's clock into the warp's. Each bulk
//! copy takes a fresh value of its issuing warp's async component: its writes carry it, its
//! completion releases the issuer's clock at issue plus that value into the mbarrier (or,
//! for a bulk-group copy, into the issuing warp when `cp.async.bulk.wait_group` retires it).
//!
//! Every shared byte remembers its last write (thread, clock of the writer's agent at the
//! time, line) and the reads since (the last one, or per agent the latest when reads of
//! different agents are concurrent). An access is ordered after an earlier one by thread
//! `u` of agent `a` at clock `c` when it is `u`'s own, or when the accessing agent knows
//! `a` up to `c`. Within a warp the clock is per warp, not per thread: a thread's access to
//! a byte another thread of its warp accessed is ordered only if the warp synchronised in
//! between (its own component grew past `c`); lanes of a warp are not ordered by running
//! in lockstep (independent thread scheduling), so `bar.warp.sync` or a barrier is needed.
//! Because the clock is per warp, one lane's acquire (a successful mbarrier wait) orders
//! the later accesses of every lane of its warp after the released writes: a warp whose
//! lane 0 alone waits and whose other lanes then read is not flagged (on the hardware the
//! lanes would need the wait themselves or a `bar.warp.sync` after it).

/// A `tid` that stands for several threads of one agent (the agent in the low bits).
const MULTI: u32 = 0x8000_0000;
/// No access.
pub(crate) const NONE: u32 = u32::MAX;

/// One access: the thread (a CTA thread, `nt + i` for bulk copy `i`, or `MULTI | agent`),
/// the clock of its agent when it accessed, and its line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Epoch {
    pub tid: u32,
    pub clk: u32,
    pub line: u32,
}

const EMPTY: Epoch = Epoch {
    tid: NONE,
    clk: 0,
    line: 0,
};

/// Who accesses: a thread with its agent and vector clock, or a bulk copy (which has no
/// program order with the other copies of its agent).
pub(crate) struct Who<'a> {
    pub tid: u32,
    pub agent: usize,
    pub warp_thread: bool,
    pub vc: &'a [u32],
    pub clk: u32,
    pub line: u32,
    /// The proxy fences (`fence.proxy.async`) the thread has executed so far.
    pub fences: u32,
}

/// Thread `t`'s [`Who`] from the warps' clocks and the threads' fence counts.
pub(crate) fn thread<'a>(vc: &'a [Vec<u32>], fences: &[u32], t: usize, line: usize) -> Who<'a> {
    let w = t / 32;
    Who {
        tid: t as u32,
        agent: w,
        warp_thread: true,
        vc: &vc[w],
        clk: vc[w][w],
        line: line as u32,
        fences: fences[t],
    }
}

/// A bulk copy's identity for the race detector's messages.
#[derive(Clone, Debug)]
pub(crate) struct CopyTag {
    pub agent: usize,
    pub issuer: usize,
    pub line: usize,
    pub what: &'static str,
}

pub(crate) struct Shadow {
    nt: u32,
    pub copies: Vec<CopyTag>,
    w: Vec<Epoch>,
    wfence: Vec<u32>,
    r: Vec<Epoch>,
    /// 0, or 1 + the index of the byte's read set in `sets`.
    rset: Vec<u32>,
    sets: Vec<Vec<Epoch>>,
    free: Vec<u32>,
}

impl Shadow {
    pub fn new(bytes: usize, nt: usize) -> Self {
        Shadow {
            nt: nt as u32,
            copies: Vec::new(),
            w: vec![EMPTY; bytes],
            wfence: vec![0; bytes],
            r: vec![EMPTY; bytes],
            rset: vec![0; bytes],
            sets: Vec::new(),
            free: Vec::new(),
        }
    }

    fn agent(&self, tid: u32) -> usize {
        if tid & MULTI != 0 && tid != NONE {
            (tid & !MULTI) as usize
        } else if tid < self.nt {
            (tid / 32) as usize
        } else {
            self.copies[(tid - self.nt) as usize].agent
        }
    }

    /// Whether access `e` happened before an access by `x`.
    fn hb(&self, e: Epoch, x: &Who) -> bool {
        if e.tid == NONE || e.tid == x.tid {
            return true;
        }
        let a = self.agent(e.tid);
        if a == x.agent && x.warp_thread {
            e.clk < x.vc[a]
        } else {
            e.clk <= x.vc[a]
        }
    }

    /// A name for the thread (or copy) of an access.
    pub fn name(&self, tid: u32) -> String {
        if tid == NONE {
            "nobody".into()
        } else if tid & MULTI != 0 {
            format!("threads of warp {}", tid & !MULTI)
        } else if tid < self.nt {
            format!("thread {tid}")
        } else {
            let c = &self.copies[(tid - self.nt) as usize];
            format!(
                "the {} issued by thread {} at line {}",
                c.what, c.issuer, c.line
            )
        }
    }

    /// The last write of byte `b`: (thread, line), `None` if never written.
    pub fn writer(&self, b: usize) -> Option<(u32, u32)> {
        let e = self.w[b];
        (e.tid != NONE).then_some((e.tid, e.line))
    }

    /// Whether the last write of byte `b` is ordered before an access by `x`.
    pub fn write_ordered(&self, b: usize, x: &Who) -> bool {
        self.hb(self.w[b], x)
    }

    /// Whether the last write of byte `b` is a generic-proxy write (by a thread) that its
    /// thread has not followed with `fence.proxy.async`; `fences` is per thread.
    pub fn unfenced_write(&self, b: usize, fences: &[u32]) -> Option<(u32, u32)> {
        let e = self.w[b];
        (e.tid < self.nt && fences[e.tid as usize] == self.wfence[b]).then_some((e.tid, e.line))
    }

    fn free_set(&mut self, b: usize) {
        let s = self.rset[b];
        if s != 0 {
            self.sets[s as usize - 1].clear();
            self.free.push(s - 1);
            self.rset[b] = 0;
        }
    }

    fn add_to_set(&mut self, b: usize, x: &Who) {
        let me = Epoch {
            tid: x.tid,
            clk: x.clk,
            line: x.line,
        };
        let s = self.rset[b] as usize - 1;
        let n = self.sets[s].len();
        for i in 0..n {
            let e = self.sets[s][i];
            if self.agent(e.tid) != x.agent {
                continue;
            }
            let entry = &mut self.sets[s][i];
            if e.tid == x.tid || (e.clk < x.clk && x.warp_thread) {
                *entry = me;
            } else {
                *entry = Epoch {
                    tid: if x.warp_thread {
                        MULTI | x.agent as u32
                    } else {
                        x.tid
                    },
                    clk: e.clk.max(x.clk),
                    line: x.line,
                };
            }
            return;
        }
        self.sets[s].push(me);
    }

    /// Checks and records an access of `n` bytes at `a` by `x`; the error names the byte,
    /// both threads and both lines.
    pub fn access(&mut self, a: usize, n: usize, x: &Who, write: bool) -> Result<(), String> {
        let line = x.line;
        for b in a..a + n {
            let w = self.w[b];
            if !self.hb(w, x) {
                return Err(format!(
                    "line {line}: {} {} shared byte {b} that {} wrote with no barrier between (the write: line {})",
                    self.name(x.tid),
                    if write { "overwrites" } else { "reads" },
                    self.name(w.tid),
                    w.line
                ));
            }
            let me = Epoch {
                tid: x.tid,
                clk: x.clk,
                line,
            };
            if write {
                let reads: Vec<Epoch> = if self.rset[b] != 0 {
                    self.sets[self.rset[b] as usize - 1].clone()
                } else {
                    vec![self.r[b]]
                };
                for r in reads {
                    if !self.hb(r, x) {
                        return Err(format!(
                            "line {line}: {} overwrites shared byte {b} read by {} with no barrier between (the read: line {})",
                            self.name(x.tid),
                            self.name(r.tid),
                            r.line
                        ));
                    }
                }
                self.free_set(b);
                self.r[b] = EMPTY;
                self.w[b] = me;
                self.wfence[b] = x.fences;
            } else if self.rset[b] != 0 {
                self.add_to_set(b, x);
            } else if self.hb(self.r[b], x) {
                self.r[b] = me;
            } else {
                let s = match self.free.pop() {
                    Some(s) => s,
                    None => {
                        self.sets.push(Vec::new());
                        self.sets.len() as u32 - 1
                    }
                };
                self.sets[s as usize].push(self.r[b]);
                self.rset[b] = s + 1;
                self.r[b] = EMPTY;
                self.add_to_set(b, x);
            }
        }
        Ok(())
    }
}

/// `into ⊔= from`.
pub(crate) fn join(into: &mut [u32], from: &[u32]) {
    for (a, b) in into.iter_mut().zip(from) {
        *a = (*a).max(*b);
    }
}
