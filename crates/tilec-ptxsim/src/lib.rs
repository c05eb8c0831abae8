//! A small PTX interpreter for the subset tilec emits, to check kernels end to end without
//! a GPU, and for the Hopper (sm_90a) machinery tilec's kernels are to use: warp
//! specialisation with named barriers, `mbarrier`, bulk and tensor (TMA) copies with tensor
//! maps, `setmaxnreg`, `elect.sync` and proxy fences.
//!
//! It runs one CTA at a time. Each warp has its own instruction stream; within a warp the
//! threads run in lockstep while they agree on the next instruction, and after a branch
//! some lanes take and others do not, each lane keeps its own program counter and the lanes
//! at the lowest one run next, so that they meet again where the paths join. A scheduler
//! picks which warp runs its next instruction: round robin by default, or a seeded random
//! interleaving ([`RunOptions::seed`]) that runs a warp for a random number of instructions
//! before switching and lands asynchronous copies at random points, so that missing
//! synchronisation shows. Warps block at barriers (`bar`/`barrier`, sixteen per CTA, with
//! thread counts) and warpgroup collectives; `mbarrier.try_wait` loops spin as ordinary
//! code, and a CTA whose every live warp is blocked, or has spun on a failed wait with no
//! other warp making progress ([`RunOptions::spin_limit`] times), is reported as a deadlock
//! naming each warp's line.
//!
//! Shared memory carries a happens-before race detector (module `race`): vector clocks per
//! warp and per warp's asynchronous proxy, with edges from barriers, mbarrier
//! arrive (release) to the successful wait of the phase it completed (acquire), and from a
//! bulk copy's completion to its mbarrier's waiters. `mma.sync` is executed per warp from
//! the PTX ISA's fragment formulas ("Matrix fragments for mma.m16n8k8 / m16n8k16 /
//! m16n8k32"), written out here again, independently of the compiler. Anything outside the
//! subset is an error, never ignored.

pub mod backend;
mod race;
mod sync;
mod tma;
mod wgmma;

pub use tma::{TensorMap, decode_tensor_map, encode_tensor_map, swizzle};

use std::collections::{BTreeMap, HashMap};

/// An operand of an instruction.
#[derive(Clone, Debug)]
enum Opnd {
    Reg(usize),
    Imm(u64),
    Tid,
    LaneId,
    Ctaid(usize),
    Nctaid(usize),
    /// `%clusterid`, `%nclusterid`, `%cluster_ctaid`, `%cluster_nctaid` (by dimension),
    /// `%cluster_ctarank`, `%cluster_nctarank`.
    Cluster(ClusterReg),
    /// `[reg+off]`, `[sym+off]` (a parameter or the shared buffer), `[reg]`.
    Mem(Base, i64),
    Vec(Vec<Opnd>),
    Sym(String),
    /// `[tensorMap, {c0, ...}]`: a tensor map's address and the coordinates.
    Tensor(Base, Vec<Opnd>),
}

/// The cluster's special registers.
#[derive(Copy, Clone, Debug)]
enum ClusterReg {
    Id(usize),
    NId(usize),
    CtaId(usize),
    NCtaId(usize),
    CtaRank,
    NCtaRank,
}

#[derive(Clone, Debug)]
enum Base {
    Reg(usize),
    Sym(String),
}

#[derive(Clone, Debug)]
struct Inst {
    pred: Option<(bool, usize)>,
    op: String,
    args: Vec<Opnd>,
    line: usize,
}

/// One kernel of a PTX module, parsed.
pub struct Kernel {
    pub name: String,
    params: Vec<(String, u32)>,
    threads: usize,
    smem_name: Option<String>,
    smem_bytes: usize,
    /// The dynamic shared memory the module asks for (`// tilec.dynamic_smem NAME BYTES`)
    /// when the kernel's `__smem` is `.extern .shared`: the size [`run`] launches with.
    dynamic_smem: Option<usize>,
    insts: Vec<Inst>,
    labels: HashMap<String, usize>,
    nregs: usize,
    /// The registers' names, by index.
    reg_names: Vec<String>,
    /// The module's initialised `.global` byte arrays.
    globals: Vec<(String, Vec<u8>)>,
    /// Whether the kernel uses tensor maps (then generic writes to global memory are
    /// tracked, for the proxy fence a tensor map written in the generic proxy needs).
    uses_tmap: bool,
    /// The CTAs of a cluster (`.reqnctapercluster`; one without it).
    cluster: [u64; 3],
    /// `.blocksareclusters`: the launch's grid counts clusters.
    blocks_are_clusters: bool,
}

impl Kernel {
    /// Threads per CTA (the `.reqntid`).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The dynamic shared memory (bytes) the PTX says the kernel needs at launch, if its
    /// shared memory is `.extern .shared` (docs/abi.md).
    pub fn dynamic_smem(&self) -> Option<usize> {
        self.dynamic_smem
    }
}

/// A `.func` of the module: its return parameter, its parameters and its body's lines.
struct Func {
    retval: Option<String>,
    params: Vec<String>,
    body: Vec<String>,
}

/// The `.func` definitions of a module and the module without them.
fn split_funcs(ptx: &str) -> (HashMap<String, Func>, Vec<String>) {
    let lines: Vec<&str> = ptx.lines().collect();
    let mut funcs = HashMap::new();
    let mut rest = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i].trim();
        let Some(head) = l
            .strip_prefix(".func ")
            .or_else(|| l.strip_prefix(".visible .func "))
        else {
            rest.push(lines[i].to_string());
            i += 1;
            continue;
        };
        // `.func (.param .b32 func_retval0) NAME(` or `.func NAME(`, then one parameter
        // per line up to `)`, then `{ body }`.
        let (retval, name) = match head.strip_prefix('(') {
            Some(r) => {
                let (ret, name) = r.split_once(')').expect("return parameter");
                let ret = ret.split_whitespace().last().map(str::to_string);
                (ret, name.trim())
            }
            None => (None, head),
        };
        let name = name.trim_end_matches('(').trim().to_string();
        let mut params = Vec::new();
        i += 1;
        while i < lines.len() && !lines[i].trim().starts_with(')') {
            let p = lines[i].trim().trim_end_matches(',');
            if let Some(n) = p.split_whitespace().last() {
                params.push(n.to_string());
            }
            i += 1;
        }
        i += 1;
        let mut body = Vec::new();
        let mut depth = 0i32;
        while i < lines.len() {
            let t = lines[i].trim();
            i += 1;
            if t == "{" {
                depth += 1;
                if depth == 1 {
                    continue;
                }
            }
            if t == "}" {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            body.push(t.to_string());
        }
        funcs.insert(
            name,
            Func {
                retval,
                params,
                body,
            },
        );
    }
    (funcs, rest)
}

/// Renames the registers (`%name`, not the special registers) of a line with `prefix`.
fn rename_regs(line: &str, prefix: &str) -> String {
    let mut out = String::with_capacity(line.len() + 16);
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let start = i + 1;
        let mut end = start;
        while let Some(&(j, d)) = chars.peek() {
            if d.is_ascii_alphanumeric() || d == '_' || d == '.' {
                end = j + d.len_utf8();
                chars.next();
            } else {
                break;
            }
        }
        let name = &line[start..end];
        let special = [
            "tid",
            "ctaid",
            "nctaid",
            "ntid",
            "laneid",
            "warpid",
            "clusterid",
            "nclusterid",
            "cluster_ctaid",
            "cluster_nctaid",
            "cluster_ctarank",
            "cluster_nctarank",
        ]
        .iter()
        .any(|s| name == *s || name.starts_with(&format!("{s}.")));
        if special {
            out.push('%');
            out.push_str(name);
        } else {
            out.push('%');
            out.push_str(prefix);
            out.push_str(name);
        }
    }
    out
}

/// The module with every `call` of a `.func` it defines inlined (the simulator runs
/// straight-line kernels): the call block's `.param` slots become registers, the callee's
/// registers and labels are renamed per call site, its `ld.param` of a parameter and
/// `st.param` of the return value become moves, and `ret` a branch past the body.
/// Calls of functions the module does not define (`vprintf`) are left alone.
fn inline_calls(ptx: &str) -> String {
    let (funcs, rest) = split_funcs(ptx);
    if funcs.is_empty() {
        return ptx.to_string();
    }
    let mut ids = 0usize;
    let mut out = Vec::with_capacity(rest.len());
    expand(&rest, &funcs, &mut ids, 0, 0, &mut out);
    out.join("\n")
}

/// The register standing for `.param` slot `name` of call block `block`.
fn slot(name: &str, block: usize) -> String {
    format!("%__slot{block}_{name}")
}

/// Expands the calls in `lines` into `out`: `ids` numbers call blocks and inlined bodies,
/// `depth` bounds nested calls, `braces` is the brace depth `lines` start at (the braces
/// of call blocks inside a body, depth 2 and more, are dropped).
fn expand(
    lines: &[String],
    funcs: &HashMap<String, Func>,
    ids: &mut usize,
    depth: usize,
    mut braces: usize,
    out: &mut Vec<String>,
) {
    // The call block being read: its number and its `.param` slots.
    let mut block: Option<(usize, Vec<String>)> = None;
    for line in lines {
        let t = line.trim();
        if t == "{" {
            braces += 1;
            if braces >= 2 {
                block = Some((*ids, Vec::new()));
                *ids += 1;
                continue;
            }
            out.push(line.clone());
            continue;
        }
        if t == "}" {
            braces = braces.saturating_sub(1);
            if braces >= 1 {
                block = None;
                continue;
            }
            out.push(line.clone());
            continue;
        }
        let code = t.split_once(' ').map_or(t, |(op, _)| op);
        if let (Some((_, slots)), Some(r)) = (block.as_mut(), t.strip_prefix(".param ")) {
            // `.param .b32 param0;` inside a call block.
            if let Some(n) = r.trim_end_matches(';').split_whitespace().last() {
                slots.push(n.to_string());
                continue;
            }
        }
        let Some((k, slots)) = block.as_ref() else {
            out.push(line.clone());
            continue;
        };
        let k = *k;
        let bare = |operand: &str| {
            operand
                .trim()
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_string()
        };
        let operands = t[code.len()..].trim().trim_end_matches(';');
        if code.starts_with("st.param.")
            && let Some((dst, src)) = operands.split_once(',')
            && slots.contains(&bare(dst))
        {
            let ty = &code["st.param".len()..];
            out.push(format!("mov{ty} {}, {};", slot(&bare(dst), k), src.trim()));
            continue;
        }
        if code.starts_with("ld.param.")
            && let Some((dst, src)) = operands.split_once(',')
            && slots.contains(&bare(src))
        {
            let ty = &code["ld.param".len()..];
            out.push(format!("mov{ty} {}, {};", dst.trim(), slot(&bare(src), k)));
            continue;
        }
        // `call.uni (retval0), NAME, (param0, param1);` or `call.uni NAME, (...);`
        let parts: Vec<&str> = operands.splitn(3, ", ").collect();
        let (ret, name, args) = match parts.as_slice() {
            [r, n, a] if r.starts_with('(') => (Some(r.trim_matches(['(', ')']).trim()), *n, *a),
            [n, a] => (None, *n, *a),
            _ => (None, "", ""),
        };
        let f = if code.starts_with("call") {
            funcs.get(name.trim())
        } else {
            None
        };
        let Some(f) = f else {
            out.push(line.clone());
            continue;
        };
        assert!(depth < 8, "calls nested too deeply");
        let args: Vec<&str> = args
            .trim_matches(['(', ')'])
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect();
        let body_id = *ids;
        *ids += 1;
        let prefix = format!("__c{body_id}_");
        let end = format!("__c{body_id}_end");
        let mut body = Vec::with_capacity(f.body.len() + 2);
        for b in &f.body {
            let b = b.trim();
            if b.starts_with(".reg") || b.is_empty() || b.starts_with("//") {
                continue;
            }
            if b == "{" || b == "}" || b.starts_with(".param ") {
                // A call block of the callee: expanded with the body below.
                body.push(b.to_string());
                continue;
            }
            if let Some(lab) = b.strip_suffix(':') {
                body.push(format!("{prefix}{lab}:"));
                continue;
            }
            let (g, rest) = match b.strip_prefix('@') {
                Some(r) => {
                    let (g, r) = r.split_once(' ').unwrap_or((r, ""));
                    (format!("@{} ", rename_regs(g, &prefix)), r.trim())
                }
                None => (String::new(), b),
            };
            let op = rest.split_once(' ').map_or(rest, |(op, _)| op);
            let ops = rest[op.len()..].trim().trim_end_matches(';');
            if op == "ret" || op == "ret;" {
                body.push(format!("{g}bra.uni {end};"));
                continue;
            }
            if op.starts_with("ld.param.")
                && let Some((dst, src)) = ops.split_once(',')
                && let Some(i) = f.params.iter().position(|p| bare(src) == *p)
            {
                let ty = &op["ld.param".len()..];
                let arg = args.get(i).copied().unwrap_or_default();
                body.push(format!(
                    "{g}mov{ty} {}, {};",
                    rename_regs(dst.trim(), &prefix),
                    slot(arg, k)
                ));
                continue;
            }
            if op.starts_with("st.param.")
                && let Some((dst, src)) = ops.split_once(',')
                && f.retval.as_deref() == Some(bare(dst).as_str())
            {
                let ty = &op["st.param".len()..];
                body.push(format!(
                    "{g}mov{ty} {}, {};",
                    slot(ret.unwrap_or_default(), k),
                    rename_regs(src.trim(), &prefix)
                ));
                continue;
            }
            if op.starts_with("bra") {
                body.push(format!("{g}{op} {prefix}{ops};"));
                continue;
            }
            body.push(format!("{g}{}", rename_regs(rest, &prefix)));
        }
        body.push(format!("{end}:"));
        // The body sits at brace depth 1 (its own call blocks are depth 2).
        expand(&body, funcs, ids, depth + 1, 1, out);
    }
}

/// The PTX as the simulator runs it: every call of a `.func` of the module inlined (the
/// line numbers of the simulator's messages are this text's).
pub fn flattened(ptx: &str) -> String {
    inline_calls(ptx)
}

/// Parses every `.entry` of a PTX module.
pub fn parse(ptx: &str) -> Vec<Kernel> {
    let ptx = inline_calls(ptx);
    let lines: Vec<&str> = ptx.lines().collect();
    let mut out = Vec::new();
    let mut globals = Vec::new();
    for l in &lines {
        if let Some(r) = l.trim().strip_prefix(".global .align ") {
            let (_, r) = r.split_once(" .b8 ").expect("global bytes");
            let (name, r) = r.split_once('[').expect("global size");
            let bytes = match r.split_once("= {") {
                Some((_, init)) => init
                    .trim_end_matches("};")
                    .split(',')
                    .map(|b| b.trim().parse::<u8>().expect("byte"))
                    .collect(),
                // `.global .align 4 .b8 name[4];`: zero-filled.
                None => {
                    let size = r.split(']').next().unwrap_or_default();
                    vec![0u8; size.trim().parse::<usize>().expect("global size")]
                }
            };
            globals.push((name.to_string(), bytes));
        }
    }
    // Module-level `.extern .shared` arrays (dynamic shared memory) and their sizes.
    let mut externs: HashMap<String, Option<usize>> = HashMap::new();
    for l in &lines {
        let l = l.trim();
        if let Some(r) = l.strip_prefix(".extern .shared .align ") {
            let (_, r) = r.split_once(" .b8 ").expect("extern shared bytes");
            let name = r.trim_end_matches("[];").to_string();
            externs.entry(name).or_insert(None);
        } else if let Some(r) = l.strip_prefix("// tilec.dynamic_smem ") {
            let (kernel, bytes) = r.split_once(' ').expect("dynamic_smem NAME BYTES");
            let bytes = bytes.trim().parse().expect("dynamic shared memory bytes");
            externs.insert(format!("__smem_{kernel}"), Some(bytes));
        }
    }
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i].trim();
        if let Some(rest) = l.strip_prefix(".visible .entry ") {
            let name = rest.trim_end_matches('(').to_string();
            let mut params = Vec::new();
            i += 1;
            while !lines[i].trim().starts_with(')') {
                let p = lines[i].trim().trim_end_matches(',');
                let mut it = p.split_whitespace();
                assert_eq!(it.next(), Some(".param"));
                let mut ty = it.next().expect("param type");
                if ty == ".align" {
                    it.next().expect("param alignment");
                    ty = it.next().expect("param type");
                }
                let pname = it.next().expect("param name").to_string();
                let one = match ty {
                    ".u64" | ".b64" | ".f64" => 8,
                    ".u32" | ".b32" | ".f32" | ".s32" => 4,
                    ".b16" | ".u16" => 2,
                    ".u8" | ".b8" => 1,
                    t => panic!("param type {t}"),
                };
                // `.param .align 64 .b8 NAME[128]`: an array parameter (a tensor map).
                let (pname, bytes) = match pname.split_once('[') {
                    Some((n, len)) => {
                        let len: u32 = len.trim_end_matches(']').parse().expect("param array");
                        (n.to_string(), one * len)
                    }
                    None => (pname, one),
                };
                params.push((pname, bytes));
                i += 1;
            }
            let mut k = Kernel {
                name,
                params,
                threads: 0,
                smem_name: None,
                smem_bytes: 0,
                dynamic_smem: None,
                insts: Vec::new(),
                labels: HashMap::new(),
                nregs: 0,
                reg_names: Vec::new(),
                globals: globals.clone(),
                uses_tmap: false,
                cluster: [1, 1, 1],
                blocks_are_clusters: false,
            };
            let mut regs: HashMap<String, usize> = HashMap::new();
            i += 1;
            while lines[i].trim() != "}" {
                let l = lines[i].trim();
                let line = i + 1;
                i += 1;
                if l.is_empty()
                    || l == "{"
                    || l.starts_with("//")
                    || l.starts_with(".reg")
                    || l.starts_with(".pragma")
                {
                    continue;
                }
                if let Some(r) = l.strip_prefix(".reqnctapercluster ") {
                    for (d, n) in r.split(',').enumerate().take(3) {
                        k.cluster[d] = n.trim().parse().unwrap();
                    }
                    continue;
                }
                if l == ".blocksareclusters" {
                    k.blocks_are_clusters = true;
                    continue;
                }
                // Register and occupancy bounds for ptxas: nothing the program computes
                // depends on them.
                if l.starts_with(".maxnreg ") || l.starts_with(".minnctapersm ") {
                    continue;
                }
                if let Some(r) = l.strip_prefix(".reqntid ") {
                    k.threads = r.split(',').next().unwrap().trim().parse().unwrap();
                    continue;
                }
                if let Some(r) = l.strip_prefix(".shared .align ") {
                    let (_, r) = r.split_once(" .b8 ").unwrap();
                    let (n, sz) = r.trim_end_matches("];").split_once('[').unwrap();
                    k.smem_name = Some(n.to_string());
                    k.smem_bytes = sz.parse().unwrap();
                    continue;
                }
                if let Some(lab) = l.strip_suffix(':') {
                    k.labels.insert(lab.to_string(), k.insts.len());
                    continue;
                }
                assert!(
                    !l.starts_with('.'),
                    "line {line}: unsupported directive {l}"
                );
                k.insts.push(parse_inst(l, line, &mut regs));
            }
            if k.smem_name.is_none() {
                let dynamic = format!("__smem_{}", k.name);
                if let Some(bytes) = externs.get(&dynamic) {
                    k.smem_name = Some(dynamic);
                    k.dynamic_smem = Some(bytes.unwrap_or(0));
                }
            }
            k.nregs = regs.len();
            k.uses_tmap = k.insts.iter().any(|i| {
                i.op.starts_with("tensormap.") || i.op.starts_with("cp.async.bulk.tensor")
            });
            k.reg_names = vec![String::new(); regs.len()];
            for (name, r) in regs {
                k.reg_names[r] = name;
            }
            out.push(k);
        }
        i += 1;
    }
    out
}

fn reg_index(name: &str, regs: &mut HashMap<String, usize>) -> usize {
    let n = regs.len();
    *regs.entry(name.to_string()).or_insert(n)
}

fn parse_opnd(s: &str, regs: &mut HashMap<String, usize>) -> Opnd {
    let s = s.trim();
    if let Some(inner) = s.strip_prefix('{') {
        let inner = inner.strip_suffix('}').expect("vector");
        return Opnd::Vec(inner.split(',').map(|x| parse_opnd(x, regs)).collect());
    }
    if let Some(inner) = s.strip_prefix('[') {
        let inner = inner.strip_suffix(']').expect("address");
        if let Some((base, coords)) = inner.split_once(',') {
            let base = base.trim();
            let base = if base.starts_with('%') {
                Base::Reg(reg_index(base, regs))
            } else {
                Base::Sym(base.to_string())
            };
            let Opnd::Vec(coords) = parse_opnd(coords, regs) else {
                panic!("tensor coordinates {coords}")
            };
            return Opnd::Tensor(base, coords);
        }
        let inner = inner.trim();
        let (base, off) = match inner.split_once('+') {
            Some((b, o)) => (b.trim(), o.trim().parse::<i64>().expect("offset")),
            None => (inner, 0),
        };
        let base = if base.starts_with('%') {
            Base::Reg(reg_index(base, regs))
        } else {
            Base::Sym(base.to_string())
        };
        return Opnd::Mem(base, off);
    }
    // `d|p` (elect.sync).
    if let Some((d, p)) = s.split_once('|') {
        return Opnd::Vec(vec![parse_opnd(d, regs), parse_opnd(p, regs)]);
    }
    for (name, f) in [
        ("%clusterid.", ClusterReg::Id as fn(usize) -> ClusterReg),
        ("%nclusterid.", ClusterReg::NId),
        ("%cluster_ctaid.", ClusterReg::CtaId),
        ("%cluster_nctaid.", ClusterReg::NCtaId),
    ] {
        if let Some(d) = s.strip_prefix(name).and_then(|d| "xyz".find(d)) {
            return Opnd::Cluster(f(d));
        }
    }
    match s {
        "%tid.x" => return Opnd::Tid,
        "%laneid" => return Opnd::LaneId,
        "%ctaid.x" => return Opnd::Ctaid(0),
        "%ctaid.y" => return Opnd::Ctaid(1),
        "%ctaid.z" => return Opnd::Ctaid(2),
        "%nctaid.x" => return Opnd::Nctaid(0),
        "%nctaid.y" => return Opnd::Nctaid(1),
        "%nctaid.z" => return Opnd::Nctaid(2),
        "%cluster_ctarank" => return Opnd::Cluster(ClusterReg::CtaRank),
        "%cluster_nctarank" => return Opnd::Cluster(ClusterReg::NCtaRank),
        // One SM: every CTA runs on SM 0 (the simulator runs them one after the other).
        "%smid" => return Opnd::Imm(0),
        "%nsmid" => return Opnd::Imm(1),
        _ => {}
    }
    if s.starts_with('%') {
        return Opnd::Reg(reg_index(s, regs));
    }
    if let Some(h) = s.strip_prefix("0F").or_else(|| s.strip_prefix("0f")) {
        return Opnd::Imm(u64::from_str_radix(h, 16).expect("f32 immediate"));
    }
    if let Some(h) = s.strip_prefix("0D").or_else(|| s.strip_prefix("0d")) {
        return Opnd::Imm(u64::from_str_radix(h, 16).expect("f64 immediate"));
    }
    if let Some(h) = s.strip_prefix("0x") {
        return Opnd::Imm(u64::from_str_radix(h, 16).expect("hex immediate"));
    }
    if let Ok(v) = s.parse::<i64>() {
        return Opnd::Imm(v as u64);
    }
    Opnd::Sym(s.to_string())
}

/// Splits operands at top-level commas.
fn split_args(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in s.char_indices() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        out.push(&s[start..]);
    }
    out
}

fn parse_inst(l: &str, line: usize, regs: &mut HashMap<String, usize>) -> Inst {
    let l = l.strip_suffix(';').unwrap_or(l);
    let (pred, rest) = match l.strip_prefix('@') {
        Some(r) => {
            let (p, rest) = r.split_once(' ').expect("predicated instruction");
            let (neg, p) = match p.strip_prefix('!') {
                Some(p) => (true, p),
                None => (false, p),
            };
            (Some((neg, reg_index(p, regs))), rest.trim())
        }
        None => (None, l),
    };
    let (op, args) = rest.split_once(' ').unwrap_or((rest, ""));
    Inst {
        pred,
        op: op.to_string(),
        args: split_args(args)
            .into_iter()
            .map(|a| parse_opnd(a, regs))
            .collect(),
        line,
    }
}

/// Device memory: one flat byte array; pointers are offsets into it.
#[derive(Default)]
pub struct Memory {
    pub bytes: Vec<u8>,
}

impl Memory {
    /// Allocates `data` (256-byte aligned) and returns its address.
    pub fn alloc(&mut self, data: &[u8]) -> u64 {
        let at = (self.bytes.len() + 256).next_multiple_of(256);
        self.bytes.resize(at, 0);
        self.bytes.extend_from_slice(data);
        self.bytes.resize(self.bytes.len() + 256, 0);
        at as u64
    }

    pub fn read(&self, addr: u64, n: usize) -> &[u8] {
        &self.bytes[addr as usize..addr as usize + n]
    }
}

fn width(ty: &str) -> u32 {
    match ty {
        "pred" => 1,
        "b8" | "u8" | "s8" => 8,
        "b16" | "u16" | "s16" | "f16" | "bf16" => 16,
        "b32" | "u32" | "s32" | "f32" | "tf32" => 32,
        "b64" | "u64" | "s64" | "f64" => 64,
        t => panic!("type {t}"),
    }
}

fn mask(v: u64, w: u32) -> u64 {
    if w >= 64 { v } else { v & ((1u64 << w) - 1) }
}

fn sext(v: u64, w: u32) -> i64 {
    if w >= 64 {
        v as i64
    } else {
        ((v << (64 - w)) as i64) >> (64 - w)
    }
}

/// Where `cvta.shared` puts shared memory in the generic address space.
const GENERIC_SHARED: u64 = 1 << 48;

/// f16 bits to f32 (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let s = (h >> 15) as u32;
    let e = ((h >> 10) & 0x1F) as i32;
    let m = (h & 0x3FF) as u32;
    let v = if e == 0 {
        m as f32 * 2f32.powi(-24)
    } else if e == 31 {
        if m == 0 { f32::INFINITY } else { f32::NAN }
    } else {
        (1.0 + m as f32 / 1024.0) * 2f32.powi(e - 15)
    };
    if s == 1 { -v } else { v }
}

/// f32 to f16 bits, rounding to nearest even (overflow to infinity, gradual underflow);
/// a NaN is the canonical NaN 0x7FFF.
pub fn f32_to_f16(x: f32) -> u16 {
    f64_to_f16(f64::from(x))
}

/// f64 to f16 bits with one rounding to nearest even (an f64 sum rounded once, as the
/// tensor cores' f16 results are); a NaN is the canonical NaN 0x7FFF.
pub fn f64_to_f16(x: f64) -> u16 {
    if x.is_nan() {
        return 0x7FFF;
    }
    tilec_ir::float::round_from_f64(tilec_ir::float::FloatKind::F16, x) as u16
}

/// bf16 bits to f32 (exact).
pub fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits((h as u32) << 16)
}

/// f32 to bf16 bits, rounding to nearest even (finite values).
pub fn f32_to_bf16(x: f32) -> u16 {
    let b = x.to_bits();
    let r = b + 0x7FFF + ((b >> 16) & 1);
    (r >> 16) as u16
}

/// The result of running a kernel.
#[derive(Debug, Default)]
pub struct Stats {
    /// Instructions executed: per CTA, those of the warp that executed the most (for code
    /// that is uniform across warps, the instructions of the kernel's path), summed over
    /// the CTAs.
    pub instructions: u64,
    /// Instructions executed by all warps (a warp's instruction counts once).
    pub warp_instructions: u64,
    /// `mma.sync` instructions, counted as [`Stats::instructions`].
    pub mma: u64,
    /// `wgmma.mma_async` issued, counted once per warpgroup, and their multiply-adds
    /// (64 N K each).
    pub wgmma: u64,
    pub wgmma_macs: u64,
    /// Bytes of global memory moved, by the width in bits of the instruction that moved
    /// them (`ld/st.global` and `cp.async`; generic accesses, atomics and reductions
    /// left out), summed over the threads that executed it.
    pub global: std::collections::BTreeMap<u32, u64>,
    /// `mbarrier.test_wait`/`try_wait` executed, per thread.
    pub mbarrier_waits: u64,
    /// Bytes bulk and tensor copies (the async proxy) moved from global to shared memory,
    /// out-of-bounds fill included, and from shared to global memory.
    pub tma_bytes_loaded: u64,
    pub tma_bytes_stored: u64,
    /// The most failed `mbarrier` waits in a row of any warp (the scheduler steps it spun).
    pub max_spin: u64,
    /// The register count per warpgroup (`setmaxnreg`) of the last CTA that set it.
    pub maxnreg: std::collections::BTreeMap<usize, u32>,
}

/// The form of an `ldmatrix`/`stmatrix` (`OP.sync.aligned.m8n8.xN{.trans}.shared{::cta}.b16`,
/// two operands): the number of matrices, whether transposed, and the register list at
/// operand `regs_at` (one per matrix).
fn matrix_form(
    inst: &Inst,
    p: &[&str],
    regs_at: usize,
) -> Result<(usize, bool, Vec<Opnd>), String> {
    let line = inst.line;
    let form = || format!("line {line}: unsupported {} form {}", p[0], inst.op);
    let (count, trans, rest) = match p {
        [_, "sync", "aligned", "m8n8", num, rest @ ..] => {
            let count = match *num {
                "x1" => 1,
                "x2" => 2,
                "x4" => 4,
                _ => return Err(form()),
            };
            match rest {
                ["trans", rest @ ..] => (count, true, rest),
                rest => (count, false, rest),
            }
        }
        _ => return Err(form()),
    };
    if !matches!(rest, ["shared" | "shared::cta", "b16"]) || inst.args.len() != 2 {
        return Err(form());
    }
    let regs: Vec<Opnd> = match &inst.args[regs_at] {
        Opnd::Vec(v) => v.clone(),
        r @ Opnd::Reg(_) => vec![r.clone()],
        _ => return Err(form()),
    };
    if !regs.iter().all(|r| matches!(r, Opnd::Reg(_))) {
        return Err(form());
    }
    if regs.len() != count {
        return Err(format!(
            "line {line}: {} .x{count} with {} registers",
            p[0],
            regs.len()
        ));
    }
    Ok((count, trans, regs))
}

/// The width in bits of a global memory instruction (`ld/st.global[.vN].TYPE`, or
/// `cp.async` of SIZE bytes), `None` for any other instruction.
fn global_access_bits(inst: &Inst, p: &[&str]) -> Option<u32> {
    match p[0] {
        "ld" | "st" if p.contains(&"global") => {
            let lanes = p
                .iter()
                .find_map(|q| q.strip_prefix('v').and_then(|c| c.parse::<u32>().ok()))
                .unwrap_or(1);
            Some(lanes * width(p.last()?))
        }
        "cp" if p.get(1) == Some(&"async") && matches!(p.get(2), Some(&"ca" | &"cg")) => {
            match inst.args.get(2) {
                Some(Opnd::Imm(size)) => Some(*size as u32 * 8),
                _ => None,
            }
        }
        _ => None,
    }
}

/// What a warp is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WarpState {
    Ready,
    /// Waiting at named barrier `id`.
    Bar(usize),
    /// Waiting at the warpgroup collective at this program counter.
    Group(usize),
    /// Waiting at `barrier.cluster.wait` for every live thread of the cluster.
    ClusterWait,
    /// Every lane exited.
    Done,
}

struct Warp {
    /// Per lane: the next instruction, or None once exited.
    pcs: [Option<usize>; 32],
    together: bool,
    state: WarpState,
    /// Failed waits since the last progress of the CTA it saw (deadlock detection), the
    /// progress count then, failed waits in a row (statistics), the line of the last one.
    spins: u64,
    spin_seen: u64,
    spins_in_row: u64,
    spin_line: usize,
    executed: u64,
    mma: u64,
    /// The line of its last instruction (for the deadlock report).
    exit_line: usize,
}

/// A kernel parameter's value: a scalar (or pointer), or the bytes of an array parameter
/// (`.param .align 64 .b8 NAME[128]`, a tensor map: [`encode_tensor_map`]).
#[derive(Clone, Debug)]
pub enum Param {
    Value(u64),
    Bytes(Vec<u8>),
}

/// How [`run_with_options`] runs a kernel.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// `None`: round robin, one instruction per warp, asynchronous copies landing one
    /// round after they are issued. `Some(seed)`: a random interleaving from the seed
    /// (xorshift): a random warp runs up to `max_quantum` instructions, and each step lands
    /// a random copy in flight with probability 1/8.
    pub seed: Option<u64>,
    pub max_quantum: u32,
    /// Failed waits of every live warp, with no progress in between, that make a deadlock.
    pub spin_limit: u64,
    /// The dynamic shared memory of the launch (default: what the PTX asks for).
    pub shared_bytes: Option<usize>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            seed: None,
            max_quantum: 32,
            spin_limit: 64,
            shared_bytes: None,
        }
    }
}

/// A small xorshift generator (the scheduler's randomness; no dependency).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The address bits of a `shared::cluster` address above a CTA's shared memory: the
/// simulator's `mapa` sets them to the CTA's rank plus one (0: the executing CTA).
const CLUSTER_RANK_SHIFT: u32 = 24;

struct Cta<'k> {
    k: &'k Kernel,
    regs: Vec<Vec<u64>>,
    smem: Vec<u8>,
    /// The CTA's rank in its cluster.
    rank: usize,
    /// Every CTA's shared memory as it stood at the cluster's last barrier, by rank: what
    /// `ld.shared::cluster` of another CTA reads (a program that reads a peer's buffer
    /// only between two cluster barriers that order it after the peer's writes and
    /// before its next ones reads the same on the hardware).
    peers: std::rc::Rc<std::cell::RefCell<Vec<Vec<u8>>>>,
    /// Per thread: arrived at the cluster barrier's current phase.
    cluster_arrived: Vec<bool>,
    shadow: race::Shadow,
    ctaid: [u64; 3],
    nctaid: [u64; 3],
    /// Scalar parameters' values (an array parameter's: its address in the parameter
    /// window); the array parameters' bytes at `GENERIC_PARAM + offset`.
    params: &'k [u64],
    param_blob: &'k [u8],
    globals: &'k HashMap<String, u64>,
    opts: &'k RunOptions,
    rng: Option<Rng>,
    nwarps: usize,
    warps: Vec<Warp>,
    /// Per warp: its vector clock (warps, then the warps' async proxies).
    vc: Vec<Vec<u32>>,
    /// Per warp: the last clock value given to a copy it issued.
    vc_async: Vec<u32>,
    bars: Vec<sync::NamedBar>,
    mbars: BTreeMap<usize, sync::MBar>,
    inflight: Vec<tma::Copy>,
    /// Landed bulk-group copies' release clocks, until a wait_group retires them.
    released: HashMap<usize, Vec<u32>>,
    groups: HashMap<usize, tma::Groups>,
    /// Per thread: `fence.proxy.async` executed.
    fences: Vec<u32>,
    /// Global 64-byte chunks of tensor maps written in the generic proxy and not fenced
    /// since, with the line.
    tmap_dirty: HashMap<u64, usize>,
    nreg: HashMap<usize, u32>,
    /// Changes of shared state (deadlock detection), scheduler steps.
    progress: u64,
    steps: u64,
    /// Successful and failed mbarrier waits of the current instruction.
    waits: (u32, u32),
    /// Warpgroup MMA state (crate::wgmma).
    wg: wgmma::State,
}

/// Where `cvta.param` (and a parameter's name as a value) puts array parameters.
const GENERIC_PARAM: u64 = 1 << 47;

/// Runs `k` over the grid `grid` with `params` (one value per kernel parameter).
pub fn run(k: &Kernel, grid: [u64; 3], params: &[u64], mem: &mut Memory) -> Result<Stats, String> {
    run_with_smem(k, grid, params, mem, k.dynamic_smem.unwrap_or(0))
}

/// [`run`] with `shared_bytes` of dynamic shared memory (the launch's `sharedMemBytes`):
/// a kernel whose `__smem` is `.extern .shared` gets that many bytes, and an access past
/// them is an error, as on the GPU; a kernel with static shared memory ignores it.
pub fn run_with_smem(
    k: &Kernel,
    grid: [u64; 3],
    params: &[u64],
    mem: &mut Memory,
    shared_bytes: usize,
) -> Result<Stats, String> {
    let params: Vec<Param> = params.iter().map(|p| Param::Value(*p)).collect();
    let opts = RunOptions {
        shared_bytes: Some(shared_bytes),
        ..RunOptions::default()
    };
    run_with_options(k, grid, &params, mem, &opts)
}

/// Runs `k` over `grid` with `params` as `opts` says (the scheduler, its seed, the
/// dynamic shared memory).
pub fn run_with_options(
    k: &Kernel,
    grid: [u64; 3],
    params: &[Param],
    mem: &mut Memory,
    opts: &RunOptions,
) -> Result<Stats, String> {
    let shared_bytes = opts.shared_bytes.unwrap_or(k.dynamic_smem.unwrap_or(0));
    let smem_bytes = if k.dynamic_smem.is_some() {
        shared_bytes
    } else {
        k.smem_bytes
    };
    assert_eq!(
        params.len(),
        k.params.len(),
        "parameter count of {}",
        k.name
    );
    // Array parameters go to the parameter window, 64-byte aligned.
    let mut blob = Vec::new();
    let mut values = Vec::with_capacity(params.len());
    for (p, (name, size)) in params.iter().zip(&k.params) {
        match p {
            Param::Value(v) if *size <= 8 => values.push(*v),
            Param::Bytes(b) if b.len() == *size as usize => {
                let at = blob.len().next_multiple_of(64);
                blob.resize(at, 0);
                blob.extend_from_slice(b);
                values.push(GENERIC_PARAM + at as u64);
            }
            _ => {
                return Err(format!("parameter {name} of {size} bytes given {p:?}"));
            }
        }
    }
    let mut stats = Stats::default();
    let globals: HashMap<String, u64> = k
        .globals
        .iter()
        .map(|(n, b)| (n.clone(), mem.alloc(b)))
        .collect();
    let nt = k.threads;
    let nwarps = nt.div_ceil(32);
    // With `.blocksareclusters` the grid counts clusters: each is `k.cluster` CTAs.
    let grid: [u64; 3] = if k.blocks_are_clusters {
        std::array::from_fn(|d| grid[d] * k.cluster[d])
    } else {
        if (0..3).any(|d| !grid[d].is_multiple_of(k.cluster[d])) {
            return Err(format!(
                "a grid of {grid:?} CTAs is not a whole number of clusters of {:?}",
                k.cluster
            ));
        }
        grid
    };
    let cdim = k.cluster;
    let per_cluster = cdim.iter().product::<u64>() as usize;
    for cz in 0..grid[2] / cdim[2] {
        for cy in 0..grid[1] / cdim[1] {
            for cx in 0..grid[0] / cdim[0] {
                // The cluster's CTAs run together: each until it exits or waits at a
                // cluster barrier, which releases them all once every live thread of the
                // cluster has arrived.
                let peers = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
                let make = |rank: usize| {
                    let r = rank as u64;
                    let local = [r % cdim[0], r / cdim[0] % cdim[1], r / (cdim[0] * cdim[1])];
                    let ctaid = [
                        cx * cdim[0] + local[0],
                        cy * cdim[1] + local[1],
                        cz * cdim[2] + local[2],
                    ];
                    let mut vc = vec![vec![0u32; 2 * nwarps]; nwarps];
                    for (w, c) in vc.iter_mut().enumerate() {
                        c[w] = 1;
                    }
                    let warps = (0..nwarps)
                        .map(|w| {
                            let mut pcs = [None; 32];
                            for p in pcs.iter_mut().take((nt - 32 * w).min(32)) {
                                *p = Some(0);
                            }
                            Warp {
                                pcs,
                                together: true,
                                state: WarpState::Ready,
                                spins: 0,
                                spin_seen: 0,
                                spins_in_row: 0,
                                spin_line: 0,
                                executed: 0,
                                mma: 0,
                                exit_line: 0,
                            }
                        })
                        .collect();
                    Cta {
                        k,
                        regs: vec![vec![0; nt]; k.nregs],
                        smem: vec![0; smem_bytes],
                        shadow: race::Shadow::new(smem_bytes, nt),
                        rank,
                        peers: peers.clone(),
                        cluster_arrived: vec![false; nt],
                        ctaid,
                        nctaid: grid,
                        params: &values,
                        param_blob: &blob,
                        globals: &globals,
                        opts,
                        rng: opts
                            .seed
                            .map(|s| Rng(s.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)),
                        nwarps,
                        warps,
                        vc,
                        vc_async: vec![0; nwarps],
                        bars: vec![sync::NamedBar::default(); 16],
                        mbars: BTreeMap::new(),
                        inflight: Vec::new(),
                        released: HashMap::new(),
                        groups: HashMap::new(),
                        fences: vec![0; nt],
                        tmap_dirty: HashMap::new(),
                        nreg: HashMap::new(),
                        progress: 0,
                        steps: 0,
                        waits: (0, 0),
                        wg: wgmma::State::new(k, smem_bytes),
                    }
                };
                let mut ctas: Vec<Cta> = (0..per_cluster).map(make).collect();
                let mut done = vec![false; per_cluster];
                // Seeded, the CTAs of each phase run in a random order.
                let mut order_rng = opts
                    .seed
                    .map(|s| Rng(s.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1));
                let mut order: Vec<usize> = (0..per_cluster).collect();
                loop {
                    if let Some(rng) = order_rng.as_mut() {
                        for i in (1..order.len()).rev() {
                            order.swap(i, rng.below(i + 1));
                        }
                    }
                    for &i in &order {
                        if !done[i] {
                            done[i] = ctas[i].run(mem, &mut stats)?;
                        }
                    }
                    if done.iter().all(|d| *d) {
                        break;
                    }
                    let arrived: usize = ctas
                        .iter()
                        .map(|c| c.cluster_arrived.iter().filter(|a| **a).count())
                        .sum();
                    let live: usize = ctas.iter().map(Cta::live_threads).sum();
                    if arrived != live {
                        return Err(format!(
                            "deadlock: {arrived} of the cluster's {live} live threads arrived at its barrier"
                        ));
                    }
                    *peers.borrow_mut() = ctas.iter().map(|c| c.smem.clone()).collect();
                    for c in &mut ctas {
                        c.release_cluster_barrier();
                    }
                }
                for cta in &ctas {
                    stats.instructions += cta.warps.iter().map(|w| w.executed).max().unwrap_or(0);
                    stats.mma += cta.warps.iter().map(|w| w.mma).max().unwrap_or(0);
                }
            }
        }
    }
    Ok(stats)
}

impl Cta<'_> {
    /// `shfl.sync.MODE.b32 d, a, b, c, membermask` for warp `w`: every active lane reads
    /// `a` of its source lane in the same warp (all lanes read before any writes). The
    /// source lane of `bfly` is lane ^ b, of `up` lane - b, of `down` lane + b, of `idx` b;
    /// a source past the clamp (c & 31; below 0 for `up`) or inactive gives the lane its
    /// own value.
    fn shfl(
        &mut self,
        inst: &Inst,
        p: &[&str],
        w: usize,
        n: usize,
        active: &[bool; 32],
    ) -> Result<(), String> {
        let line = inst.line;
        let a = &inst.args;
        if p.get(1) != Some(&"sync") || p.last() != Some(&"b32") || a.len() != 5 {
            return Err(format!("line {line}: unsupported shfl form {}", inst.op));
        }
        let mode = p[2];
        let lo = 32 * w;
        let src: Vec<u64> = (0..n).map(|l| self.get(&a[1], lo + l)).collect();
        for l in 0..n {
            if !active[l] {
                continue;
            }
            let t = lo + l;
            let lane = l as i64;
            let b = self.get(&a[2], t) as i64 & 31;
            let clamp = self.get(&a[3], t) as i64 & 31;
            let from = match mode {
                "bfly" => lane ^ b,
                "up" => lane - b,
                "down" => lane + b,
                "idx" => b,
                m => return Err(format!("line {line}: shfl mode {m}")),
            };
            let ok = if mode == "up" {
                from >= 0
            } else {
                from <= clamp
            };
            let v = if ok && (from as usize) < n && active[from as usize] {
                src[from as usize]
            } else {
                src[l]
            };
            self.set(&a[0], t, mask(v, 32));
        }
        Ok(())
    }

    /// `atom[.sem][.scope].global.OP.TYPE d, [addr], b[, c]` (and `red`, the same without
    /// `d`): one thread's atomic on global memory (threads run one after another, so each
    /// is atomic).
    fn atom(&mut self, inst: &Inst, p: &[&str], t: usize, mem: &mut Memory) -> Result<(), String> {
        let line = inst.line;
        let red = p[0] == "red";
        let a = &inst.args;
        // `red` has no destination: its operands come one earlier.
        let o = usize::from(!red);
        // Global, or generic addresses outside the shared window.
        if !p.contains(&"global")
            && (p.contains(&"shared") || self.addr(&a[o], t) >= GENERIC_SHARED)
        {
            return Err(format!("line {line}: atom outside global memory"));
        }
        let ty = *p.last().unwrap();
        let op = match p[p.len() - 2] {
            "noftz" => p[p.len() - 3],
            x => x,
        };
        let w = width(ty);
        let n = (w / 8) as usize;
        let addr = self.addr(&a[o], t);
        if !addr.is_multiple_of(n as u64) || addr as usize + n > mem.bytes.len() {
            return Err(format!(
                "line {line}: atom at {addr}: misaligned or out of memory"
            ));
        }
        let old = mem
            .read(addr, n)
            .iter()
            .rev()
            .fold(0u64, |x, b| x << 8 | *b as u64);
        let b = mask(self.get(&a[o + 1], t), w);
        let signed = ty.starts_with('s');
        let new = match (op, ty) {
            ("add", "f32") => {
                u64::from((f32::from_bits(old as u32) + f32::from_bits(b as u32)).to_bits())
            }
            ("add", "f64") => (f64::from_bits(old) + f64::from_bits(b)).to_bits(),
            // The f32 sum of two halves rounded once is the correctly rounded sum.
            ("add", "f16") => u64::from(f32_to_f16(f16_to_f32(old as u16) + f16_to_f32(b as u16))),
            ("add", "bf16") => {
                u64::from(f32_to_bf16(bf16_to_f32(old as u16) + bf16_to_f32(b as u16)))
            }
            ("add", _) => old.wrapping_add(b),
            ("and", _) => old & b,
            ("or", _) => old | b,
            ("xor", _) => old ^ b,
            ("exch", _) => b,
            ("min" | "max", _) => {
                let lt = if signed {
                    sext(old, w) < sext(b, w)
                } else {
                    old < b
                };
                if (op == "min") == lt { old } else { b }
            }
            ("cas", _) => {
                let c = mask(self.get(&a[o + 2], t), w);
                if old == b { c } else { old }
            }
            (o, ty) => return Err(format!("line {line}: atom.{o}.{ty}")),
        };
        let new = mask(new, w);
        self.progress += 1;
        for i in 0..n {
            mem.bytes[addr as usize + i] = (new >> (8 * i)) as u8;
        }
        if !red {
            self.set(&a[0], t, old);
        }
        Ok(())
    }

    fn get(&self, o: &Opnd, t: usize) -> u64 {
        match o {
            Opnd::Reg(r) => self.regs[*r][t],
            Opnd::Imm(v) => *v,
            Opnd::Tid => t as u64,
            Opnd::LaneId => (t % 32) as u64,
            Opnd::Ctaid(d) => self.ctaid[*d],
            Opnd::Nctaid(d) => self.nctaid[*d],
            Opnd::Cluster(c) => {
                let dims = self.k.cluster;
                match *c {
                    ClusterReg::Id(d) => self.ctaid[d] / dims[d],
                    ClusterReg::NId(d) => self.nctaid[d] / dims[d],
                    ClusterReg::CtaId(d) => self.ctaid[d] % dims[d],
                    ClusterReg::NCtaId(d) => dims[d],
                    ClusterReg::CtaRank => {
                        let at = |d: usize| self.ctaid[d] % dims[d];
                        at(0) + dims[0] * (at(1) + dims[1] * at(2))
                    }
                    ClusterReg::NCtaRank => dims.iter().product(),
                }
            }
            Opnd::Sym(s) if Some(s) == self.k.smem_name.as_ref() => 0,
            Opnd::Sym(s) if self.globals.contains_key(s) => self.globals[s],
            Opnd::Sym(s) if self.k.params.iter().any(|(n, _)| n == s) => {
                let i = self
                    .k
                    .params
                    .iter()
                    .position(|(n, _)| n == s)
                    .expect("param");
                self.params[i]
            }
            o => panic!("cannot read {o:?}"),
        }
    }

    fn set(&mut self, o: &Opnd, t: usize, v: u64) {
        match o {
            Opnd::Reg(r) => self.regs[*r][t] = v,
            Opnd::Sym(s) if s == "_" => {}
            o => panic!("cannot write {o:?}"),
        }
    }

    fn addr(&self, o: &Opnd, t: usize) -> u64 {
        match o {
            Opnd::Mem(Base::Reg(r), off) => self.regs[*r][t].wrapping_add(*off as u64),
            Opnd::Mem(Base::Sym(s), off) if Some(s) == self.k.smem_name.as_ref() => *off as u64,
            Opnd::Mem(Base::Sym(s), off) => {
                self.get(&Opnd::Sym(s.clone()), t).wrapping_add(*off as u64)
            }
            o => panic!("not an address: {o:?}"),
        }
    }

    fn param(&self, o: &Opnd) -> u64 {
        let Opnd::Mem(Base::Sym(s), 0) = o else {
            panic!("param address {o:?}")
        };
        let i = self
            .k
            .params
            .iter()
            .position(|(n, _)| n == s)
            .unwrap_or_else(|| panic!("no parameter {s}"));
        self.params[i]
    }

    /// Checks and records thread `t`'s access of `n` shared bytes at `a` (the race
    /// detector; an mbarrier object's bytes are not for loads and stores while it lives).
    fn smem_access(
        &mut self,
        a: u64,
        n: usize,
        t: usize,
        write: bool,
        line: usize,
    ) -> Result<(), String> {
        let a = a as usize;
        if a + n > self.smem.len() {
            return Err(format!(
                "line {line}: shared access {a}+{n} outside {} bytes",
                self.smem.len()
            ));
        }
        if let Some((m, _)) = self.mbars.range(a.saturating_sub(7)..a + n).next() {
            return Err(format!(
                "line {line}: thread {t} accesses shared bytes {a}+{n} of the live mbarrier at {m} (invalidate it first)"
            ));
        }
        if write && self.wg.on {
            for b in a..a + n {
                self.wgmma_smem_write(b, t, line)?;
            }
        }
        let who = race::thread(&self.vc, &self.fences, t, line);
        if write {
            self.progress += 1;
        }
        self.shadow.access(a, n, &who, write)
    }

    /// Whether thread `t` storing `bytes` at shared `a` stores what a concurrent store of
    /// another thread already put there (a warp writing its reduced value from every lane):
    /// that is no race on the hardware, and is not recorded.
    fn same_store(&self, a: usize, bytes: &[u8], t: usize) -> bool {
        let n = bytes.len();
        if a + n > self.smem.len() || self.smem[a..a + n] != bytes[..] {
            return false;
        }
        let w = t / 32;
        let who = race::Who {
            tid: t as u32,
            agent: w,
            warp_thread: true,
            vc: &self.vc[w],
            clk: self.vc[w][w],
            line: 0,
            fences: self.fences[t],
        };
        (a..a + n).all(|b| self.shadow.writer(b).is_some() && !self.shadow.write_ordered(b, &who))
    }

    /// Runs the CTA: the scheduler picks a runnable warp (round robin, or at random from
    /// the seed) and runs its next instruction; copies in flight land at scheduling points.
    /// Runs the CTA until every warp has exited (`true`) or every live warp waits at a
    /// cluster barrier (`false`).
    fn run(&mut self, mem: &mut Memory, stats: &mut Stats) -> Result<bool, String> {
        let nw = self.nwarps;
        let mut cur = nw - 1;
        let mut quantum = 0u32;
        loop {
            // Copies in flight land: a round after they were issued (round robin), or at
            // random.
            let random = self.rng.is_some();
            if !random {
                while let Some(i) = self.inflight.iter().position(|c| c.due <= self.steps) {
                    self.land(i, mem, stats)?;
                }
            } else if !self.inflight.is_empty() {
                let n = self.inflight.len();
                let rng = self.rng.as_mut().expect("random");
                if rng.below(8) == 0 {
                    let i = rng.below(n);
                    self.land(i, mem, stats)?;
                }
            }
            let ready = |c: &Self, w: usize| c.warps[w].state == WarpState::Ready;
            let pick = if !random {
                (1..=nw).map(|d| (cur + d) % nw).find(|w| ready(self, *w))
            } else if quantum > 0 && ready(self, cur) {
                quantum -= 1;
                Some(cur)
            } else {
                let ready: Vec<usize> = (0..nw).filter(|w| ready(self, *w)).collect();
                let max = self.opts.max_quantum.max(1) as usize;
                let rng = self.rng.as_mut().expect("random");
                (!ready.is_empty()).then(|| {
                    quantum = rng.below(max) as u32;
                    ready[rng.below(ready.len())]
                })
            };
            let Some(w) = pick else {
                if !self.inflight.is_empty() {
                    self.land(0, mem, stats)?;
                    continue;
                }
                if self.warps.iter().all(|w| w.state == WarpState::Done) {
                    return Ok(true);
                }
                if self
                    .warps
                    .iter()
                    .all(|w| matches!(w.state, WarpState::Done | WarpState::ClusterWait))
                {
                    return Ok(false);
                }
                return Err(self.deadlock());
            };
            cur = w;
            self.steps += 1;
            if self.steps > 200_000_000 {
                return Err("runaway kernel".into());
            }
            self.step(w, mem, stats)?;
            let warp = &self.warps[w];
            if warp.state == WarpState::Ready && warp.spins >= self.opts.spin_limit && self.stuck()
            {
                if self.inflight.is_empty() {
                    return Err(self.deadlock());
                }
                self.land(0, mem, stats)?;
            }
        }
    }

    /// The threads that have not exited.
    fn live_threads(&self) -> usize {
        self.warps
            .iter()
            .map(|w| w.pcs.iter().flatten().count())
            .sum()
    }

    /// Every warp waiting at the cluster barrier goes on, having acquired every warp's
    /// clock (the barrier orders all of them, as a CTA barrier does); a new phase starts.
    fn release_cluster_barrier(&mut self) {
        let mut clock = vec![0; self.vc.first().map_or(0, Vec::len)];
        for c in &self.vc {
            race::join(&mut clock, c);
        }
        for w in 0..self.warps.len() {
            if self.warps[w].state == WarpState::ClusterWait {
                race::join(&mut self.vc[w], &clock);
                self.bump(w);
                self.warps[w].state = WarpState::Ready;
            }
        }
        self.cluster_arrived.iter_mut().for_each(|a| *a = false);
        self.progress += 1;
    }

    /// Whether no live warp can make progress: each is blocked, or spun
    /// [`RunOptions::spin_limit`] failed waits with nothing changing since.
    fn stuck(&self) -> bool {
        self.warps.iter().all(|w| match w.state {
            WarpState::Ready => w.spins >= self.opts.spin_limit && w.spin_seen == self.progress,
            _ => true,
        })
    }

    /// The deadlock report: what each warp is doing.
    fn deadlock(&self) -> String {
        let mut parts = Vec::new();
        for (i, w) in self.warps.iter().enumerate() {
            let pc = w.pcs.iter().flatten().min().copied();
            let at = |pc: Option<usize>| {
                pc.and_then(|p| self.k.insts.get(p).map(|x| (p, x)))
                    .map_or("the end".to_string(), |(p, x)| {
                        format!("line {} (pc {p}: {})", x.line, x.op)
                    })
            };
            parts.push(match w.state {
                WarpState::Done => format!("warp {i} exited (line {})", w.exit_line),
                WarpState::Bar(id) => {
                    let b = &self.bars[id];
                    let line = b.at.map_or(0, |a| a.1);
                    let want = b
                        .count
                        .map_or("the whole CTA".to_string(), |c| format!("{c} threads"));
                    format!(
                        "warp {i} waits at barrier {id} (line {line}; {} of {want} arrived)",
                        32 * b.arrived.count_ones()
                    )
                }
                WarpState::ClusterWait => format!("warp {i} waits at the cluster barrier"),
                WarpState::Group(pc) => {
                    format!("warp {i} waits for its warpgroup at {}", at(Some(pc)))
                }
                WarpState::Ready => format!(
                    "warp {i} spins at {} ({} failed waits at line {})",
                    at(pc),
                    w.spins,
                    w.spin_line
                ),
            });
        }
        format!("deadlock: {}", parts.join("; "))
    }

    /// Warp `w` exited: a CTA-wide barrier others wait at can no longer be reached by it.
    fn warp_exited(&mut self, w: usize, line: usize) -> Result<(), String> {
        self.warps[w].state = WarpState::Done;
        self.warps[w].exit_line = line;
        self.progress += 1;
        for id in 0..16 {
            let b = &self.bars[id];
            if b.count.is_none()
                && let Some((_, at, _)) = b.at
            {
                return Err(format!(
                    "line {line}: barrier in divergent code: warp {w} exits while warps wait at barrier {id} (line {at})"
                ));
            }
        }
        let g = w / 4;
        for v in 4 * g..(4 * g + 4).min(self.nwarps) {
            if let WarpState::Group(pc) = self.warps[v].state {
                return Err(format!(
                    "line {line}: warp {w} exits while warp {v} of its warpgroup waits at line {}",
                    self.k.insts[pc].line
                ));
            }
        }
        Ok(())
    }

    /// Runs warp `w`'s next instruction.
    #[allow(clippy::needless_range_loop)] // lanes index several per-lane arrays
    fn step(&mut self, w: usize, mem: &mut Memory, stats: &mut Stats) -> Result<(), String> {
        let k = self.k;
        let lo = 32 * w;
        let n = (k.threads - lo).min(32);
        let pc = {
            let warp = &self.warps[w];
            let mut live = warp.pcs[..n].iter().flatten();
            if warp.together {
                live.next().copied()
            } else {
                live.min().copied()
            }
        };
        let Some(pc) = pc else {
            return self.warp_exited(w, 0);
        };
        if pc >= k.insts.len() {
            self.warps[w].pcs = [None; 32];
            let line = k.insts.last().map_or(0, |i| i.line);
            return self.warp_exited(w, line);
        }
        let inst = &k.insts[pc];
        self.warps[w].executed += 1;
        stats.warp_instructions += 1;
        let mut here = [false; 32];
        let mut active = [false; 32];
        for l in 0..n {
            here[l] = self.warps[w].pcs[l] == Some(pc);
            active[l] = here[l]
                && match inst.pred {
                    None => true,
                    Some((neg, p)) => (self.regs[p][lo + l] != 0) != neg,
                };
        }
        let converged = {
            let pcs = &self.warps[w].pcs;
            (0..n).all(|l| here[l] || pcs[l].is_none())
        };
        let parts: Vec<&str> = inst.op.split('.').collect();
        let line = inst.line;
        let mut next = [Some(pc + 1); 32];
        let mut hold = false;
        self.waits = (0, 0);
        let whole_warp = |what: &str| -> Result<(), String> {
            if inst.pred.is_some() {
                return Err(format!("line {line}: predicated {what}"));
            }
            if !converged {
                return Err(format!("line {line}: {what} in divergent code"));
            }
            if n < 32 {
                return Err(format!("line {line}: {what} needs a whole warp"));
            }
            Ok(())
        };
        // Registers of warpgroup MMA in flight are not to be touched.
        if self.wg.on {
            self.wgmma_watch(
                inst,
                w / 4,
                here.iter().any(|h| *h),
                active.iter().any(|a| *a),
            )?;
        }
        match parts[0] {
            "ret" | "exit" => {
                for l in 0..n {
                    if active[l] {
                        next[l] = None;
                    }
                }
            }
            "bra" => {
                let Opnd::Sym(lab) = &inst.args[0] else {
                    panic!("label")
                };
                for l in 0..n {
                    if active[l] {
                        next[l] = Some(k.labels[lab]);
                    }
                }
            }
            "barrier" if parts.get(1) == Some(&"cluster") => {
                // `barrier.cluster.arrive[.release|.relaxed][.aligned]` and
                // `barrier.cluster.wait[.acquire][.aligned]`: every live thread of every
                // CTA of the cluster arrives before any waiting thread goes on.
                if inst.pred.is_some() {
                    return Err(format!("line {line}: predicated barrier"));
                }
                if parts.contains(&"aligned") && !converged {
                    return Err(format!("line {line}: {} in divergent code", inst.op));
                }
                match parts.get(2) {
                    Some(&"arrive") => {
                        for l in 0..n {
                            if here[l] {
                                if self.cluster_arrived[lo + l] {
                                    return Err(format!(
                                        "line {line}: thread {} arrives at the cluster barrier twice in one phase",
                                        lo + l
                                    ));
                                }
                                self.cluster_arrived[lo + l] = true;
                            }
                        }
                        self.progress += 1;
                    }
                    Some(&"wait") => {
                        if let Some(l) = (0..n).find(|l| here[*l] && !self.cluster_arrived[lo + l])
                        {
                            return Err(format!(
                                "line {line}: thread {} waits at the cluster barrier without arriving",
                                lo + l
                            ));
                        }
                        self.warps[w].state = WarpState::ClusterWait;
                    }
                    _ => return Err(format!("line {line}: unsupported {}", inst.op)),
                }
            }
            "bar" | "barrier" => {
                if inst.pred.is_some() {
                    return Err(format!("line {line}: predicated barrier"));
                }
                let first = (0..n).find(|l| here[*l]).expect("a lane");
                let rest: Vec<&str> = parts[1..].iter().copied().filter(|q| *q != "cta").collect();
                if rest.first() == Some(&"warp") {
                    // `bar.warp.sync membermask`: the lanes of the mask converge.
                    let mask = self.get(&inst.args[0], lo + first) as u32;
                    let pcs = &self.warps[w].pcs;
                    if (0..n).any(|l| mask >> l & 1 == 1 && !here[l] && pcs[l].is_some()) {
                        return Err(format!("line {line}: bar.warp.sync in divergent code"));
                    }
                    self.bump(w);
                } else {
                    if !converged {
                        return Err(format!("line {line}: barrier in divergent code"));
                    }
                    let (wait, aligned) = match rest.as_slice() {
                        ["sync"] => (true, parts[0] == "bar"),
                        ["sync", "aligned"] => (true, true),
                        ["arrive"] => (false, parts[0] == "bar"),
                        ["arrive", "aligned"] => (false, true),
                        _ => return Err(format!("line {line}: unsupported barrier {}", inst.op)),
                    };
                    let id = self.get(&inst.args[0], lo + first) as usize;
                    let count = inst.args.get(1).map(|c| self.get(c, lo + first) as u32);
                    for l in 0..n {
                        if here[l]
                            && (self.get(&inst.args[0], lo + l) as usize != id
                                || inst.args.get(1).map(|c| self.get(c, lo + l) as u32) != count)
                        {
                            return Err(format!(
                                "line {line}: the lanes of warp {w} name different barriers or counts"
                            ));
                        }
                    }
                    self.bar_arrive(w, id, count, wait, aligned, pc, line)?;
                }
            }
            "shfl" => self.shfl(inst, &parts, w, n, &active)?,
            "ldmatrix" | "stmatrix" => {
                whole_warp(parts[0])?;
                if parts[0] == "ldmatrix" {
                    self.ldmatrix(inst, &parts, lo)?;
                } else {
                    self.stmatrix(inst, &parts, lo)?;
                }
            }
            "mma" => {
                whole_warp("mma")?;
                self.warps[w].mma += 1;
                self.mma(inst, lo);
            }
            "elect" => {
                if parts.get(1) != Some(&"sync") {
                    return Err(format!("line {line}: unsupported form {}", inst.op));
                }
                self.elect(inst, w, &here, &active, n)?;
            }
            op if sync::is_warpgroup_collective(op) => {
                whole_warp(op)?;
                hold = true;
                self.group_arrive(w, pc, stats)?;
            }
            "tensormap" if parts.get(1) == Some(&"cp_fenceproxy") => {
                if !converged {
                    return Err(format!("line {line}: {} in divergent code", inst.op));
                }
                for l in 0..n {
                    if active[l] {
                        self.cp_fenceproxy(inst, &parts, lo + l, mem)?;
                    }
                }
            }
            _ => {
                if let Some(bits) = global_access_bits(inst, &parts) {
                    let cnt = active.iter().filter(|a| **a).count() as u64;
                    *stats.global.entry(bits).or_insert(0) += cnt * u64::from(bits / 8);
                }
                for l in 0..n {
                    if active[l] {
                        self.exec(inst, &parts, lo + l, mem, stats)?;
                    }
                }
            }
        }
        let warp = &mut self.warps[w];
        if !hold {
            for l in 0..n {
                if here[l] {
                    warp.pcs[l] = next[l];
                }
            }
        }
        // Spinning: an instruction whose waits all failed.
        if self.waits.1 > 0 && self.waits.0 == 0 {
            warp.spins_in_row += 1;
            stats.max_spin = stats.max_spin.max(warp.spins_in_row);
            warp.spin_line = line;
            if warp.spin_seen == self.progress {
                warp.spins += 1;
            } else {
                warp.spins = 1;
                warp.spin_seen = self.progress;
            }
        } else if self.waits.0 > 0 {
            warp.spins_in_row = 0;
            warp.spins = 0;
        }
        let mut live = warp.pcs[..n].iter().flatten();
        match live.next() {
            Some(first) => warp.together = live.all(|p| p == first),
            None => {
                if warp.state == WarpState::Ready {
                    self.warp_exited(w, line)?;
                }
            }
        }
        Ok(())
    }

    fn exec(
        &mut self,
        inst: &Inst,
        p: &[&str],
        t: usize,
        mem: &mut Memory,
        stats: &mut Stats,
    ) -> Result<(), String> {
        let a = &inst.args;
        let ty = *p.last().unwrap();
        let line = inst.line;
        let v = |k: &Self, i: usize| k.get(&a[i], t);
        match p[0] {
            "mov" => {
                let w = width(ty);
                match (&a[0], &a[1]) {
                    (Opnd::Vec(d), s) => {
                        let x = self.get(s, t);
                        let h = w / d.len() as u32;
                        for (i, r) in d.iter().enumerate() {
                            self.set(r, t, mask(x >> (h * i as u32), h));
                        }
                    }
                    (d, Opnd::Vec(s)) => {
                        let h = w / s.len() as u32;
                        let x = s
                            .iter()
                            .enumerate()
                            .fold(0, |x, (i, r)| x | mask(self.get(r, t), h) << (h * i as u32));
                        self.set(d, t, x);
                    }
                    (d, s) => {
                        let x = mask(self.get(s, t), w);
                        self.set(d, t, x);
                    }
                }
            }
            "bfe" => {
                let (x, pos, len) = (v(self, 1), v(self, 2), v(self, 3));
                self.set(&a[0], t, mask(x >> pos, len as u32));
            }
            "shl" | "shr" | "and" | "or" | "xor" | "add" | "sub" | "mul" | "mad" | "div"
            | "rem" | "min" | "max" => {
                if ty.starts_with('f') {
                    return self.float_op(inst, p, t);
                }
                let w = width(ty);
                let signed = ty.starts_with('s');
                let (x, y) = (v(self, 1), v(self, 2));
                let r = match p[0] {
                    "shl" => {
                        if y >= w as u64 {
                            0
                        } else {
                            x << y
                        }
                    }
                    "shr" => {
                        if signed {
                            (sext(x, w) >> y.min(w as u64 - 1)) as u64
                        } else if y >= w as u64 {
                            0
                        } else {
                            mask(x, w) >> y
                        }
                    }
                    "and" => x & y,
                    "or" => x | y,
                    "xor" => x ^ y,
                    "add" => x.wrapping_add(y),
                    "sub" => x.wrapping_sub(y),
                    "mul" if p[1] == "wide" => {
                        let (w2, xs, ys) = (w, sext(x, w), sext(y, w));
                        let r = if signed {
                            (xs as i128 * ys as i128) as u64
                        } else {
                            mask(x, w2).wrapping_mul(mask(y, w2))
                        };
                        self.set(&a[0], t, r);
                        return Ok(());
                    }
                    // `.hi`: the upper `w` bits of the `2w`-bit product.
                    "mul" | "mad" if p[1] == "hi" => {
                        let prod = if signed {
                            (sext(x, w) as i128 * sext(y, w) as i128) as u128
                        } else {
                            mask(x, w) as u128 * mask(y, w) as u128
                        };
                        let hi = (prod >> w) as u64;
                        if p[0] == "mad" {
                            hi.wrapping_add(v(self, 3))
                        } else {
                            hi
                        }
                    }
                    // `.wide`: the full `2w`-bit product (of the sign- or zero-extended
                    // operands), and a `2w`-bit addend.
                    "mul" | "mad" if p[1] == "wide" => {
                        let (x, y) = if signed {
                            (sext(x, w) as u64, sext(y, w) as u64)
                        } else {
                            (mask(x, w), mask(y, w))
                        };
                        let prod = x.wrapping_mul(y);
                        let r = if p[0] == "mad" {
                            prod.wrapping_add(v(self, 3))
                        } else {
                            prod
                        };
                        self.set(&a[0], t, mask(r, 2 * w));
                        return Ok(());
                    }
                    "mul" => x.wrapping_mul(y),
                    "mad" => x.wrapping_mul(y).wrapping_add(v(self, 3)),
                    // The result is undefined (PTX ISA); the hardware's: a quotient of all
                    // ones, the dividend as the remainder. The interpreter reports the
                    // division by zero, so a sweep case doing it is skipped.
                    "div" if mask(y, w) == 0 => mask(u64::MAX, w),
                    "rem" if mask(y, w) == 0 => mask(x, w),
                    "div" => {
                        if signed {
                            sext(x, w).wrapping_div(sext(y, w)) as u64
                        } else {
                            mask(x, w) / mask(y, w)
                        }
                    }
                    "rem" => {
                        if signed {
                            sext(x, w).wrapping_rem(sext(y, w)) as u64
                        } else {
                            mask(x, w) % mask(y, w)
                        }
                    }
                    "min" | "max" => {
                        let lt = if signed {
                            sext(x, w) < sext(y, w)
                        } else {
                            mask(x, w) < mask(y, w)
                        };
                        if (p[0] == "min") == lt { x } else { y }
                    }
                    o => return Err(format!("line {line}: {o}")),
                };
                self.set(&a[0], t, mask(r, w));
            }
            "not" => {
                let w = width(ty);
                let r = mask(!v(self, 1), w);
                self.set(&a[0], t, r);
            }
            "setp" => {
                let w = width(ty);
                let (x, y) = (v(self, 1), v(self, 2));
                let r = if ty.starts_with('f') {
                    // `.ftz` (f32): subnormal operands compare as zero of their sign.
                    let ftz = ty == "f32" && p.contains(&"ftz");
                    let f = |b: u64| match ty {
                        "f16" => f16_to_f32(b as u16) as f64,
                        "bf16" => bf16_to_f32(b as u16) as f64,
                        "f64" => f64::from_bits(b),
                        _ => {
                            let x = f32::from_bits(b as u32);
                            if ftz && x.is_subnormal() {
                                (0.0f32).copysign(x) as f64
                            } else {
                                x as f64
                            }
                        }
                    };
                    let (x, y) = (f(x), f(y));
                    let unordered = x.is_nan() || y.is_nan();
                    match p[1] {
                        "eq" => x == y,
                        // Ordered: false when either is NaN (Rust's != is true then).
                        "ne" => !unordered && x != y,
                        "lt" => x < y,
                        "le" => x <= y,
                        "gt" => x > y,
                        "ge" => x >= y,
                        "equ" => unordered || x == y,
                        "neu" => unordered || x != y,
                        "ltu" => unordered || x < y,
                        "leu" => unordered || x <= y,
                        "gtu" => unordered || x > y,
                        "geu" => unordered || x >= y,
                        "num" => !unordered,
                        "nan" => unordered,
                        c => return Err(format!("line {line}: setp.{c}")),
                    }
                } else {
                    let signed = ty.starts_with('s');
                    let (xs, ys) = (sext(x, w), sext(y, w));
                    let (xu, yu) = (mask(x, w), mask(y, w));
                    let ord = if signed { xs.cmp(&ys) } else { xu.cmp(&yu) };
                    match p[1] {
                        "eq" => xu == yu,
                        "ne" => xu != yu,
                        "lt" | "lo" => ord.is_lt(),
                        "le" | "ls" => ord.is_le(),
                        "gt" | "hi" => ord.is_gt(),
                        "ge" | "hs" => ord.is_ge(),
                        c => return Err(format!("line {line}: setp.{c}")),
                    }
                };
                // `setp.CmpOp.BoolOp`: combined with the predicate operand.
                let r = match p.get(2).copied() {
                    Some(op @ ("and" | "or" | "xor")) => {
                        if a.len() < 4 {
                            return Err(format!("line {line}: setp.{op} without a predicate"));
                        }
                        let c = v(self, 3) != 0;
                        match op {
                            "and" => r && c,
                            "or" => r || c,
                            _ => r ^ c,
                        }
                    }
                    _ => r,
                };
                self.set(&a[0], t, r as u64);
            }
            "selp" => {
                let r = if v(self, 3) != 0 {
                    v(self, 1)
                } else {
                    v(self, 2)
                };
                self.set(&a[0], t, r);
            }
            "cvt" => self.cvt(inst, p, t)?,
            "prmt" => {
                let (x, y, sel) = (v(self, 1) as u32, v(self, 2) as u32, v(self, 3) as u32);
                let src = (y as u64) << 32 | x as u64;
                let r = (0..4).fold(0u32, |d, n| {
                    let s = sel >> (4 * n) & 0xF;
                    let byte = (src >> (8 * (s & 7)) & 0xFF) as u32;
                    let byte = if s & 8 != 0 {
                        if byte & 0x80 != 0 { 0xFF } else { 0 }
                    } else {
                        byte
                    };
                    d | byte << (8 * n)
                });
                self.set(&a[0], t, r as u64);
            }
            "fma" | "sqrt" | "rcp" => return self.float_op(inst, p, t),
            "ex2" | "lg2" | "sin" | "cos" | "tanh" | "rsqrt" => return self.approx_op(inst, p, t),
            "abs" | "neg" if ty.starts_with('f') => return self.float_op(inst, p, t),
            "neg" => {
                let w = width(ty);
                let r = mask(0u64.wrapping_sub(v(self, 1)), w);
                self.set(&a[0], t, r);
            }
            "abs" => {
                let w = width(ty);
                let x = sext(v(self, 1), w);
                self.set(&a[0], t, mask(x.unsigned_abs(), w));
            }
            // Bit counts and reversal (`clz`/`popc` give a .u32 result).
            "clz" | "popc" | "brev" => {
                let w = width(ty);
                let x = mask(v(self, 1), w);
                let r = match p[0] {
                    "clz" => u64::from(x.leading_zeros() - (64 - w)),
                    "popc" => u64::from(x.count_ones()),
                    _ => x.reverse_bits() >> (64 - w),
                };
                self.set(&a[0], t, r);
            }
            "cp" if p.get(1) == Some(&"async") && p.get(2) == Some(&"bulk") => {
                return self.bulk(inst, p, t, mem, stats);
            }
            "mbarrier" => return self.mbarrier(inst, p, t, stats),
            "tensormap" if p.get(1) == Some(&"replace") => {
                return self.tensormap_replace(inst, p, t, mem);
            }
            "fence" => match p.get(1).copied() {
                Some("proxy") => match p.get(2).copied() {
                    Some("async") => {
                        if !matches!(
                            p.get(3).copied(),
                            None | Some("shared::cta" | "shared::cluster" | "global")
                        ) {
                            return Err(format!("line {line}: unsupported {}", inst.op));
                        }
                        self.fences[t] += 1;
                    }
                    Some("tensormap::generic") => return self.tensormap_fence(inst, p, t),
                    _ => return Err(format!("line {line}: unsupported {}", inst.op)),
                },
                // The ordering these give is not modelled: they are no-ops (the race
                // detector's edges come from barriers and mbarriers).
                Some("mbarrier_init" | "acq_rel" | "sc") => {}
                _ => return Err(format!("line {line}: unsupported {}", inst.op)),
            },
            "membar" | "griddepcontrol" => {}
            "prefetch" if p.get(1) == Some(&"tensormap") => {}
            // Global addresses are generic ones.
            "cvta" if p.get(1) == Some(&"param") || p.get(1) == Some(&"global") => {
                let x = v(self, 1);
                self.set(&a[0], t, x);
            }
            // Asynchronous copies run at once: a wait then has nothing left to wait for.
            "cp" if p.get(1) == Some(&"async") => match p.get(2).copied() {
                Some("commit_group" | "wait_group" | "wait_all") => {}
                Some("ca" | "cg") => {
                    let dst = self.addr(&a[0], t);
                    let src = self.addr(&a[1], t);
                    let (size, n) = (v(self, 2) as usize, v(self, 3) as usize);
                    if !src.is_multiple_of(size as u64) || !dst.is_multiple_of(size as u64) {
                        return Err(format!(
                            "line {line}: cp.async of {size} bytes from {src} to {dst}: misaligned"
                        ));
                    }
                    if n > size {
                        return Err(format!("line {line}: cp.async source size {n} over {size}"));
                    }
                    if n > 0 && src as usize + n > mem.bytes.len() {
                        return Err(format!("line {line}: cp.async read at {src} out of memory"));
                    }
                    let mut bytes = vec![0u8; size];
                    if n > 0 {
                        bytes[..n].copy_from_slice(mem.read(src, n));
                    }
                    self.smem_access(dst, size, t, true, line)?;
                    self.smem[dst as usize..dst as usize + size].copy_from_slice(&bytes);
                }
                other => return Err(format!("line {line}: cp.async.{other:?}")),
            },
            "atom" | "red" => return self.atom(inst, p, t, mem),
            // A shared-memory address made generic: in the window at `GENERIC_SHARED`.
            "cvta" if p.get(1) == Some(&"shared") => {
                let x = v(self, 1);
                self.set(&a[0], t, x + GENERIC_SHARED);
            }
            "mapa" => {
                // `mapa.shared::cluster.u32 d, a, rank`: CTA `rank`'s address of `a`.
                if p.get(1) != Some(&"shared::cluster") {
                    return Err(format!("line {line}: unsupported {}", inst.op));
                }
                let at = v(self, 1) & ((1 << CLUSTER_RANK_SHIFT) - 1);
                let rank = v(self, 2);
                if rank >= self.k.cluster.iter().product::<u64>() {
                    return Err(format!(
                        "line {line}: mapa to rank {rank}, outside the cluster"
                    ));
                }
                self.set(&a[0], t, at | (rank + 1) << CLUSTER_RANK_SHIFT);
            }
            "ld" if p.get(1) == Some(&"shared::cluster") => {
                // A read of the shared memory of a CTA of the cluster: one element, or
                // `.v2`/`.v4` at consecutive addresses (aligned to their whole size).
                let w = width(ty);
                let n = (w / 8) as usize;
                let regs: Vec<Opnd> = match &a[0] {
                    Opnd::Vec(v) => v.clone(),
                    o => vec![o.clone()],
                };
                let count = p
                    .iter()
                    .find_map(|q| q.strip_prefix('v').and_then(|c| c.parse::<usize>().ok()))
                    .unwrap_or(1);
                if regs.len() != count {
                    return Err(format!(
                        "line {line}: {count} elements, {} registers",
                        regs.len()
                    ));
                }
                let addr = self.addr(&a[1], t);
                let at = (addr & ((1 << CLUSTER_RANK_SHIFT) - 1)) as usize;
                if !at.is_multiple_of(count * n) {
                    return Err(format!(
                        "line {line}: ld.shared::cluster.v{count} at {at}: misaligned"
                    ));
                }
                let rank = match addr >> CLUSTER_RANK_SHIFT {
                    0 => self.rank,
                    r => r as usize - 1,
                };
                let len = count * n;
                let bytes: Vec<u8> = if rank == self.rank {
                    self.smem_access(at as u64, len, t, false, line)?;
                    self.smem[at..at + len].to_vec()
                } else {
                    let peers = self.peers.borrow();
                    let Some(b) = peers.get(rank).and_then(|m| m.get(at..at + len)) else {
                        return Err(format!(
                            "line {line}: ld.shared::cluster of CTA {rank} at {at}: outside its shared memory (or before any cluster barrier)"
                        ));
                    };
                    b.to_vec()
                };
                for (r, chunk) in regs.iter().zip(bytes.chunks(n)) {
                    let raw = chunk.iter().rev().fold(0u64, |x, b| x << 8 | *b as u64);
                    // `.s8`/`.s16` sign-extend into the register, as `ld` does.
                    let val = if ty.starts_with('s') {
                        mask(sext(raw, w) as u64, 32.max(w))
                    } else {
                        mask(raw, w)
                    };
                    self.set(r, t, val);
                }
            }
            "ld" | "st" => {
                // Generic (no state space): shared memory in its window, else global.
                let generic_at = if p[0] == "ld" { 1 } else { 0 };
                let space = p
                    .iter()
                    .copied()
                    .find(|q| matches!(*q, "param" | "global" | "shared"))
                    .unwrap_or_else(|| {
                        if self.addr(&a[generic_at], t) >= GENERIC_SHARED {
                            "generic-shared"
                        } else {
                            "global"
                        }
                    });
                // `.v2`/`.v4`: that many elements of the type, at consecutive addresses.
                let count = p
                    .iter()
                    .find_map(|q| q.strip_prefix('v').and_then(|c| c.parse::<usize>().ok()))
                    .unwrap_or(1);
                let w = width(ty);
                let n = (w / 8) as usize;
                let (regs_at, addr_at) = if p[0] == "ld" { (0, 1) } else { (1, 0) };
                let regs: Vec<Opnd> = match &a[regs_at] {
                    Opnd::Vec(v) => v.clone(),
                    o => vec![o.clone()],
                };
                if regs.len() != count {
                    return Err(format!(
                        "line {line}: {count} elements, {} registers",
                        regs.len()
                    ));
                }
                let base = if space == "param" {
                    0
                } else {
                    self.addr(&a[addr_at], t)
                };
                let (space, base) = if space == "generic-shared" {
                    ("shared", base - GENERIC_SHARED)
                } else {
                    (space, base)
                };
                // Vector accesses must be aligned to their whole size, as on the hardware.
                if count > 1 && space != "param" && !base.is_multiple_of((count * n) as u64) {
                    return Err(format!(
                        "line {line}: {}.v{count} at {base}: misaligned",
                        p[0]
                    ));
                }
                for (i, r) in regs.iter().enumerate() {
                    let addr = base + (i * n) as u64;
                    if p[0] == "ld" {
                        let raw = if space == "param" {
                            self.param(&a[1])
                        } else {
                            let bytes: Vec<u8> = if space == "shared" {
                                self.smem_access(addr, n, t, false, line)?;
                                self.smem[addr as usize..addr as usize + n].to_vec()
                            } else {
                                if addr as usize + n > mem.bytes.len() {
                                    return Err(format!(
                                        "line {line}: global read at {addr} out of memory"
                                    ));
                                }
                                mem.read(addr, n).to_vec()
                            };
                            bytes.iter().rev().fold(0u64, |x, b| x << 8 | *b as u64)
                        };
                        let val = if ty.starts_with('s') {
                            mask(sext(raw, w) as u64, 32.max(w))
                        } else {
                            mask(raw, w)
                        };
                        self.set(r, t, val);
                    } else {
                        let val = self.get(r, t);
                        let bytes: Vec<u8> = (0..n).map(|i| (val >> (8 * i)) as u8).collect();
                        match space {
                            "shared" => {
                                // Threads storing the very bytes a concurrent store of
                                // another thread stored (a warp writing its reduced value
                                // from every lane) agree: that is no race on the hardware.
                                if !self.same_store(addr as usize, &bytes, t) {
                                    self.smem_access(addr, n, t, true, line)?;
                                }
                                self.smem[addr as usize..addr as usize + n].copy_from_slice(&bytes);
                            }
                            "global" => {
                                if addr as usize + n > mem.bytes.len() {
                                    return Err(format!(
                                        "line {line}: global write at {addr} out of memory"
                                    ));
                                }
                                self.progress += 1;
                                if self.k.uses_tmap {
                                    self.tmap_dirty.insert(addr & !63, line);
                                    self.tmap_dirty.insert((addr + n as u64 - 1) & !63, line);
                                }
                                mem.bytes[addr as usize..addr as usize + n].copy_from_slice(&bytes);
                            }
                            s => return Err(format!("line {line}: st.{s}")),
                        }
                    }
                }
            }
            o => {
                return Err(format!(
                    "line {line}: unsupported instruction {o} ({})",
                    inst.op
                ));
            }
        }
        Ok(())
    }

    /// Floating-point arithmetic (`add sub mul fma mad div sqrt rcp min max abs neg` on
    /// `.f16 .bf16 .f32 .f64`), exactly rounded in the instruction's mode (`.rn .rz .rm .rp`;
    /// `.approx`/`.full` division and square root are computed correctly rounded, within
    /// the hardware's bound), with `.ftz` (subnormal inputs and results flushed), `.sat`
    /// (clamped to [0, 1]) and `.NaN` (`min`/`max` propagate NaN). NaN results are the
    /// canonical NaN PTX defines (all ones but the sign), and for f64 what an H100 gives
    /// (the first NaN operand quieted, else 0xFFF8000000000000).
    fn float_op(&mut self, inst: &Inst, p: &[&str], t: usize) -> Result<(), String> {
        use tilec_interp::fp;
        use tilec_ir::float::{FloatKind, Round};
        let ty = *p.last().unwrap();
        let (k, bits) = match ty {
            "f16" => (FloatKind::F16, 16),
            "bf16" => (FloatKind::BF16, 16),
            "f32" => (FloatKind::F32, 32),
            "f64" => (FloatKind::F64, 64),
            _ => return Err(format!("line {}: {} on {ty}", inst.line, p[0])),
        };
        let mods = &p[1..p.len() - 1];
        let mut mode = Round::NearestEven;
        let (mut ftz, mut sat, mut nan) = (false, false, false);
        for m in mods {
            match *m {
                "rn" | "rz" | "rm" | "rp" => mode = round_of(m),
                "ftz" => ftz = true,
                "sat" => sat = true,
                "NaN" => nan = true,
                "approx" | "full" => {}
                other => {
                    return Err(format!(
                        "line {}: modifier .{other} of {}",
                        inst.line, inst.op
                    ));
                }
            }
        }
        let arg = |k: &Self, i: usize| mask(k.get(&inst.args[i], t), bits);
        let one = match k {
            FloatKind::F16 => 0x3C00,
            FloatKind::BF16 => 0x3F80,
            FloatKind::F32 => 0x3F80_0000,
            _ => 0x3FF0_0000_0000_0000,
        };
        let flush = |x: u64| if ftz { fp::flush_subnormal(k, x) } else { x };
        let r = match p[0] {
            "add" => fp::add(k, arg(self, 1), arg(self, 2), mode, ftz),
            "sub" => fp::sub(k, arg(self, 1), arg(self, 2), mode, ftz),
            "mul" => fp::mul(k, arg(self, 1), arg(self, 2), mode, ftz),
            "fma" | "mad" => fp::fma(k, arg(self, 1), arg(self, 2), arg(self, 3), mode, ftz),
            "div" => fp::div(k, arg(self, 1), arg(self, 2), mode, ftz),
            "rcp" => fp::div(k, one, arg(self, 1), mode, ftz),
            "sqrt" => fp::sqrt(k, arg(self, 1), mode, ftz),
            "max" => fp::max(k, flush(arg(self, 1)), flush(arg(self, 2)), nan),
            "min" => fp::min(k, flush(arg(self, 1)), flush(arg(self, 2)), nan),
            "abs" => flush(fp::abs(k, arg(self, 1))),
            "neg" => flush(fp::neg(k, arg(self, 1))),
            o => return Err(format!("line {}: {o}.{ty}", inst.line)),
        };
        let r = if sat && !tilec_ir::float::is_nan(k, r) {
            let v = tilec_ir::float::to_f64(k, r);
            if v <= 0.0 {
                0
            } else if v >= 1.0 {
                one
            } else {
                r
            }
        } else if sat {
            0
        } else {
            r
        };
        let r = if !tilec_ir::float::is_nan(k, r) {
            r
        } else if bits == 64 {
            // f64 as measured on an H100 (docs/performance.md): a NaN operand is handed on
            // quieted, an invalid operation gives 0xFFF8000000000000. Of two NaN operands
            // the hardware's choice follows ptxas' operand order; the simulator takes the
            // larger pattern, so that `a + b` and `b + a` agree (lanes of a butterfly
            // reduction then store the same bytes).
            let n = inst.args.len();
            (1..n)
                .map(|i| mask(self.get(&inst.args[i], t), 64))
                .filter(|x| tilec_ir::float::is_nan(k, *x))
                .map(|x| x | 0x0008_0000_0000_0000)
                .max()
                .unwrap_or(0xFFF8_0000_0000_0000)
        } else {
            // The other types' canonical NaN: all ones but the sign.
            mask(u64::MAX, bits - 1)
        };
        self.set(&inst.args[0], t, r);
        Ok(())
    }

    /// The hardware's approximations (`ex2 lg2 sin cos tanh rsqrt`, `.approx` with or
    /// without `.ftz`, on `.f32`; `rsqrt.approx.f64` too): the simulator gives the value
    /// correctly rounded, which lies within each instruction's documented bound of the
    /// hardware's, so a kernel checked against the interpreter with the op's tolerance
    /// passes on both. Special values as the PTX ISA tabulates them (`ex2(-inf)` = +0,
    /// `lg2(+0)` = -inf, `lg2` of a negative number NaN, `sin`/`cos` of an infinity NaN,
    /// `rsqrt(-0)` = -inf); a NaN result is the canonical NaN.
    fn approx_op(&mut self, inst: &Inst, p: &[&str], t: usize) -> Result<(), String> {
        let ty = *p.last().unwrap();
        let mods = &p[1..p.len() - 1];
        if !mods.contains(&"approx") || mods.iter().any(|m| !matches!(*m, "approx" | "ftz")) {
            return Err(format!("line {}: {}", inst.line, inst.op));
        }
        let ftz = mods.contains(&"ftz");
        let x = self.get(&inst.args[1], t);
        let r = match ty {
            "f32" => {
                let mut v = f32::from_bits(x as u32);
                if ftz && v.is_subnormal() {
                    v = 0.0f32.copysign(v);
                }
                let v = f64::from(v);
                let y = match p[0] {
                    "ex2" => v.exp2(),
                    "lg2" => v.log2(),
                    "sin" => v.sin(),
                    "cos" => v.cos(),
                    "tanh" => v.tanh(),
                    _ => 1.0 / v.sqrt(),
                };
                let mut y = y as f32;
                if ftz && y.is_subnormal() {
                    y = 0.0f32.copysign(y);
                }
                if y.is_nan() {
                    0x7FFF_FFFF
                } else {
                    u64::from(y.to_bits())
                }
            }
            "f64" if p[0] == "rsqrt" => {
                let y = 1.0 / f64::from_bits(x).sqrt();
                if y.is_nan() {
                    0xFFF8_0000_0000_0000
                } else {
                    y.to_bits()
                }
            }
            _ => return Err(format!("line {}: {}", inst.line, inst.op)),
        };
        self.set(&inst.args[0], t, r);
        Ok(())
    }

    fn cvt(&mut self, inst: &Inst, p: &[&str], t: usize) -> Result<(), String> {
        let n = p.len();
        let (to, from) = (p[n - 2], p[n - 1]);
        let x = self.get(&inst.args[1], t);
        let r = match (to, from) {
            ("tf32", "f32") if p[1] == "rna" => {
                // Round to nearest, ties away from zero, to 10 mantissa bits.
                let b = x as u32;
                let e = b >> 23 & 0xFF;
                if e == 0xFF {
                    b as u64
                } else {
                    (b.wrapping_add(0x1000) & !0x1FFF) as u64
                }
            }
            // f32 to f16/bf16 in the modifier's direction (bf16 takes rn and rz only).
            ("f16" | "bf16", "f32")
                if matches!(p[1], "rn" | "rz") || to == "f16" && matches!(p[1], "rm" | "rp") =>
            {
                let v = f32::from_bits(x as u32);
                if v.is_nan() {
                    0x7FFF
                } else {
                    let k = if to == "f16" {
                        tilec_ir::float::FloatKind::F16
                    } else {
                        tilec_ir::float::FloatKind::BF16
                    };
                    tilec_ir::float::round_from_f64_with(k, f64::from(v), round_of(p[1]))
                }
            }
            // Integer to f32/f64, correctly rounded in the modifier's direction.
            ("f32" | "f64", _)
                if matches!(p[1], "rn" | "rz" | "rm" | "rp")
                    && matches!(from.as_bytes()[0], b's' | b'u') =>
            {
                use tilec_ir::float::{FloatKind, round_exact};
                let wf = width(from);
                let (neg, mag) = if from.starts_with('s') {
                    let v = sext(x, wf);
                    (v < 0, u128::from(v.unsigned_abs()))
                } else {
                    (false, u128::from(mask(x, wf)))
                };
                let k = if to == "f64" {
                    FloatKind::F64
                } else {
                    FloatKind::F32
                };
                if mag == 0 {
                    0
                } else {
                    round_exact(k, neg, mag, 0, false, round_of(p[1]))
                }
            }
            // f32 to f64 is exact.
            ("f64", "f32") => {
                let v = f32::from_bits(x as u32);
                if v.is_nan() {
                    0x7FFF_FFFF_FFFF_FFFF
                } else {
                    f64::from(v).to_bits()
                }
            }
            ("f32", "f64") if matches!(p[1], "rn" | "rz" | "rm" | "rp") => {
                let v = f64::from_bits(x);
                if v.is_nan() {
                    0x7FFF_FFFF
                } else {
                    tilec_ir::float::round_from_f64_with(
                        tilec_ir::float::FloatKind::F32,
                        v,
                        round_of(p[1]),
                    )
                }
            }
            // Rounding to an integral value, in f32 (`FRND`: a NaN comes out canonical).
            ("f32", "f32") if matches!(p[1], "rzi" | "rni" | "rmi" | "rpi") => {
                let v = f32::from_bits(x as u32);
                if v.is_nan() {
                    self.set(&inst.args[0], t, 0x7FFF_FFFF);
                    return Ok(());
                }
                let r = match p[1] {
                    "rzi" => v.trunc(),
                    "rni" => v.round_ties_even(),
                    "rmi" => v.floor(),
                    _ => v.ceil(),
                };
                r.to_bits() as u64
            }
            // Float to integer: rounded as the modifier says, then clamped to the
            // destination's range; NaN gives 0 (PTX ISA, cvt: "saturates by default").
            ("s32" | "u32" | "s64" | "u64", "f32" | "f64")
                if matches!(p[1], "rzi" | "rni" | "rmi" | "rpi") =>
            {
                let v = if from == "f64" {
                    f64::from_bits(x)
                } else {
                    f32::from_bits(x as u32) as f64
                };
                let v = match p[1] {
                    "rzi" => v.trunc(),
                    "rni" => v.round_ties_even(),
                    "rmi" => v.floor(),
                    _ => v.ceil(),
                };
                // Rust's float-to-integer `as` clamps and sends NaN to 0, as cvt does.
                match to {
                    "s32" => v as i32 as u32 as u64,
                    "u32" => v as u32 as u64,
                    "s64" => v as i64 as u64,
                    _ => v as u64,
                }
            }
            // ptxas 13.5 writes `cvt.f32.f16` as an addition (`HADD2.F32 d, -RZ, a.H0_H0`),
            // whose NaN is the canonical one, and `cvt.f32.bf16` as a shift (`SHF.L.U32`),
            // which keeps a NaN's payload and sign.
            ("f32", "f16") => {
                let v = f16_to_f32(x as u16);
                if v.is_nan() {
                    0x7FFF_FFFF
                } else {
                    v.to_bits() as u64
                }
            }
            ("f32", "bf16") => bf16_to_f32(x as u16).to_bits() as u64,
            _ if !to.starts_with('f') && !from.starts_with('f') && !to.starts_with("bf") => {
                let (wt, wf) = (width(to), width(from));
                let v = if from.starts_with('s') {
                    sext(x, wf) as u64
                } else {
                    mask(x, wf)
                };
                let v = if to.starts_with('s') && wt < 32 {
                    sext(v, wt) as u64
                } else {
                    v
                };
                mask(v, wt.max(if wt < 32 { 32 } else { wt }))
            }
            // Rounding to an integral value in the same float type (`cvt.rni.f64.f64`).
            (a, b) if a == b && matches!(a, "f32" | "f64") && p[1].ends_with('i') => {
                let v = if a == "f32" {
                    f64::from(f32::from_bits(x as u32))
                } else {
                    f64::from_bits(x)
                };
                let r = match p[1] {
                    "rni" => v.round_ties_even(),
                    "rzi" => v.trunc(),
                    "rmi" => v.floor(),
                    "rpi" => v.ceil(),
                    m => return Err(format!("line {}: cvt.{m}", inst.line)),
                };
                if v.is_nan() {
                    if a == "f32" {
                        0x7FFF_FFFF
                    } else {
                        mask(u64::MAX, 63)
                    }
                } else if a == "f32" {
                    (r as f32).to_bits() as u64
                } else {
                    r.to_bits()
                }
            }
            // Integers to f16/bf16, correctly rounded in the modifier's direction.
            ("f16" | "bf16", _)
                if matches!(p[1], "rn" | "rz" | "rm" | "rp")
                    && matches!(from.as_bytes()[0], b's' | b'u') =>
            {
                use tilec_ir::float::FloatKind;
                let k = if to == "f16" {
                    FloatKind::F16
                } else {
                    FloatKind::BF16
                };
                tilec_interp::fp::from_int(x, width(from), from.starts_with('s'), k, round_of(p[1]))
            }
            _ => return Err(format!("line {}: unsupported {}", inst.line, inst.op)),
        };
        self.set(&inst.args[0], t, r);
        Ok(())
    }

    /// `ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared{::cta}.b16 r, [p]` for the
    /// warp whose first thread is `t0`, from the PTX ISA's definition: lane `8 j + i`
    /// supplies the address of row `i` of matrix `j` (16 bytes, 16-byte aligned; lanes past
    /// the matrices' rows supply nothing), and lane `t` receives in register `j` the 32-bit
    /// word of row `t / 4` holding elements `2 (t % 4)` and `2 (t % 4) + 1` (the first in
    /// the low half). `.trans` delivers the transposed 8x8 matrix instead: elements
    /// `(2 (t % 4), t / 4)` and `(2 (t % 4) + 1, t / 4)` of the rows in memory.
    fn ldmatrix(&mut self, inst: &Inst, p: &[&str], t0: usize) -> Result<(), String> {
        let line = inst.line;
        let (count, trans, regs) = matrix_form(inst, p, 0)?;
        let Opnd::Mem(..) = &inst.args[1] else {
            return Err(format!(
                "line {line}: unsupported ldmatrix form {}",
                inst.op
            ));
        };
        // mats[j][row][col]: the b16 elements of matrix j as rows in memory.
        let mut mats = vec![[[0u16; 8]; 8]; count];
        for (j, mat) in mats.iter_mut().enumerate() {
            for (i, row) in mat.iter_mut().enumerate() {
                let lane = t0 + 8 * j + i;
                let at = self.addr(&inst.args[1], lane);
                if !at.is_multiple_of(16) {
                    return Err(format!(
                        "line {line}: ldmatrix row address {at} (lane {}): misaligned",
                        8 * j + i
                    ));
                }
                self.smem_access(at, 16, lane, false, line)?;
                for (c, x) in row.iter_mut().enumerate() {
                    let b = at as usize + 2 * c;
                    *x = u16::from_le_bytes([self.smem[b], self.smem[b + 1]]);
                }
            }
        }
        for lane in 0..32 {
            let (g, c) = (lane / 4, 2 * (lane % 4));
            for (j, r) in regs.iter().enumerate() {
                let m = &mats[j];
                let (lo, hi) = if trans {
                    (m[c][g], m[c + 1][g])
                } else {
                    (m[g][c], m[g][c + 1])
                };
                self.set(r, t0 + lane, u64::from(lo) | u64::from(hi) << 16);
            }
        }
        Ok(())
    }

    /// `stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared{::cta}.b16 [addr], {r...}`
    /// (sm_90) for the warp whose first thread is `t0`, the mirror of `ldmatrix` (PTX
    /// ISA): thread `t`'s register `j` holds the elements (row `t/4`, columns `2(t%4)`
    /// and `2(t%4)+1`) of matrix `j` (with `.trans`, the transposed elements), and lane
    /// `8j + i` supplies the 16-byte aligned address of row `i` of matrix `j`.
    fn stmatrix(&mut self, inst: &Inst, p: &[&str], t0: usize) -> Result<(), String> {
        let line = inst.line;
        let (count, trans, regs) = matrix_form(inst, p, 1)?;
        let Opnd::Mem(..) = &inst.args[0] else {
            return Err(format!(
                "line {line}: unsupported stmatrix form {}",
                inst.op
            ));
        };
        // mats[j][row][col], gathered from the registers as ldmatrix hands them out.
        let mut mats = vec![[[0u16; 8]; 8]; count];
        for lane in 0..32 {
            let (g, c) = (lane / 4, 2 * (lane % 4));
            for (j, r) in regs.iter().enumerate() {
                let v = self.get(r, t0 + lane);
                let (lo, hi) = (v as u16, (v >> 16) as u16);
                let m = &mut mats[j];
                if trans {
                    m[c][g] = lo;
                    m[c + 1][g] = hi;
                } else {
                    m[g][c] = lo;
                    m[g][c + 1] = hi;
                }
            }
        }
        for (j, mat) in mats.iter().enumerate() {
            for (i, row) in mat.iter().enumerate() {
                let lane = t0 + 8 * j + i;
                let at = self.addr(&inst.args[0], lane);
                if !at.is_multiple_of(16) {
                    return Err(format!(
                        "line {line}: stmatrix row address {at} (lane {}): misaligned",
                        8 * j + i
                    ));
                }
                self.smem_access(at, 16, lane, true, line)?;
                for (c, x) in row.iter().enumerate() {
                    let b = at as usize + 2 * c;
                    self.smem[b..b + 2].copy_from_slice(&x.to_le_bytes());
                }
            }
        }
        Ok(())
    }

    /// One `mma.sync` for the warp whose first thread is `t0`.
    fn mma(&mut self, inst: &Inst, t0: usize) {
        let p: Vec<&str> = inst.op.split('.').collect();
        // mma.sync.aligned.SHAPE.row.col.DTYPE.ATYPE.BTYPE.CTYPE
        let (shape, dty, aty, bty, cty) = (p[3], p[6], p[7], p[8], p[9]);
        let k: usize = shape.split('k').nth(1).unwrap().parse().unwrap();
        let elems = |ty: &str| -> usize {
            match ty {
                "f16" | "bf16" => 2,
                "s8" | "u8" | "e4m3" | "e5m2" => 4,
                _ => 1,
            }
        };
        let vals = |cta: &Self, o: &Opnd, lane: usize, ty: &str| -> Vec<f64> {
            let Opnd::Vec(regs) = o else {
                panic!("mma operand")
            };
            let per = elems(ty);
            let mut out = Vec::new();
            for r in regs {
                let x = cta.get(r, t0 + lane);
                for i in 0..per {
                    let bits = 32 / per as u32;
                    let e = mask(x >> (bits * i as u32), bits);
                    out.push(match ty {
                        "f16" => f16_to_f32(e as u16) as f64,
                        "bf16" => bf16_to_f32(e as u16) as f64,
                        "tf32" => f32::from_bits(e as u32 & !0x1FFF) as f64,
                        "f32" => f32::from_bits(e as u32) as f64,
                        "s8" => sext(e, 8) as f64,
                        "u8" => e as f64,
                        "e4m3" | "e5m2" => wgmma::value(ty, e),
                        "s32" => sext(e, 32) as f64,
                        _ => panic!("mma type {ty}"),
                    });
                }
            }
            out
        };
        // `None`: an element no lane supplied (a fragment layout bug, reported).
        let mut ma = vec![vec![None; k]; 16];
        let mut mb = vec![vec![None; 8]; k];
        let mut mc = vec![vec![None; 8]; 16];
        for lane in 0..32 {
            let (g, tig) = (lane >> 2, lane % 4);
            for (i, x) in vals(self, &inst.args[1], lane, aty).into_iter().enumerate() {
                let (r, c) = match k {
                    16 => (
                        if i < 2 || (4..6).contains(&i) {
                            g
                        } else {
                            g + 8
                        },
                        tig * 2 + (i & 1) + if i >= 4 { 8 } else { 0 },
                    ),
                    8 => (
                        if i % 2 == 0 { g } else { g + 8 },
                        tig + if i >= 2 { 4 } else { 0 },
                    ),
                    _ => (
                        if i < 4 || (8..12).contains(&i) {
                            g
                        } else {
                            g + 8
                        },
                        tig * 4 + (i & 3) + if i >= 8 { 16 } else { 0 },
                    ),
                };
                ma[r][c] = Some(x);
            }
            for (i, x) in vals(self, &inst.args[2], lane, bty).into_iter().enumerate() {
                let r = match k {
                    16 => tig * 2 + (i & 1) + if i >= 2 { 8 } else { 0 },
                    8 => tig + 4 * i,
                    _ => tig * 4 + (i & 3) + if i >= 4 { 16 } else { 0 },
                };
                mb[r][g] = Some(x);
            }
            for (i, x) in vals(self, &inst.args[3], lane, cty).into_iter().enumerate() {
                mc[if i < 2 { g } else { g + 8 }][tig * 2 + (i & 1)] = Some(x);
            }
        }
        let mut d = vec![vec![0f64; 8]; 16];
        for r in 0..16 {
            for c in 0..8 {
                let given = |v: Option<f64>| v.expect("mma element not given");
                let s: f64 = (0..k)
                    .map(|x| given(ma[r][x]) * given(mb[x][c]))
                    .sum::<f64>()
                    + given(mc[r][c]);
                d[r][c] = s;
            }
        }
        let Opnd::Vec(dregs) = &inst.args[0] else {
            panic!("mma result")
        };
        let per = elems(dty);
        for lane in 0..32 {
            let (g, tig) = (lane >> 2, lane % 4);
            for (j, reg) in dregs.iter().enumerate() {
                let mut x = 0u64;
                for q in 0..per {
                    let i = j * per + q;
                    let val = d[if i < 2 { g } else { g + 8 }][tig * 2 + (i & 1)];
                    // A NaN comes out as the canonical NaN (all ones but the sign).
                    let bits = match dty {
                        "f32" if val.is_nan() => 0x7FFF_FFFF,
                        "f16" if val.is_nan() => 0x7FFF,
                        "f32" => (val as f32).to_bits() as u64,
                        "f16" => f64_to_f16(val) as u64,
                        "s32" => (val as i64 as i32) as u32 as u64,
                        _ => panic!("mma result type {dty}"),
                    };
                    x |= bits << (32 / per * q);
                }
                self.set(reg, t0 + lane, x);
            }
        }
    }
}

/// The rounding direction of a `cvt` modifier (`rn`, `rz`, `rm`, `rp`).
fn round_of(m: &str) -> tilec_ir::float::Round {
    use tilec_ir::float::Round;
    match m {
        "rz" => Round::TowardZero,
        "rm" => Round::TowardNegative,
        "rp" => Round::TowardPositive,
        _ => Round::NearestEven,
    }
}

#[cfg(test)]
mod hopper_tests;

#[cfg(test)]
mod scalar_tests {
    use super::*;

    /// Runs `body` in a one-warp kernel whose thread 0 stores the `.b64` register `%out`
    /// (set by `body`) to the single parameter; `funcs` go before the entry.
    fn eval(funcs: &str, body: &str) -> Result<u64, String> {
        let ptx = format!(
            "{funcs}\n.visible .entry k(\n.param .u64 out\n)\n{{\n.reqntid 32, 1, 1\n{body}\nld.param.u64 %o, [out];\nmov.u32 %t, %tid.x;\nsetp.eq.u32 %z, %t, 0;\n@%z st.global.b64 [%o], %out;\nret;\n}}\n"
        );
        let ks = parse(&ptx);
        let mut mem = Memory::default();
        let out = mem.alloc(&[0u8; 8]);
        run(&ks[0], [1, 1, 1], &[out], &mut mem)?;
        Ok(u64::from_le_bytes(mem.read(out, 8).try_into().unwrap()))
    }

    fn eval32(body: &str) -> u32 {
        eval("", &format!("{body}\ncvt.u64.u32 %out, %r;")).expect("runs") as u32
    }

    /// With `.blocksareclusters` the grid counts clusters of `.reqnctapercluster` CTAs
    /// (PTX ISA 9.0): 3 clusters of 2 are 6 CTAs, each of which writes its `%ctaid.x`,
    /// `%clusterid.x`, `%cluster_ctarank`, `%cluster_ctaid.x`, `%nclusterid.x`,
    /// `%nctaid.x`, `%cluster_nctarank` and `%cluster_nctaid.x`. Without the directive
    /// the grid counts CTAs and must be whole clusters.
    #[test]
    fn cluster_registers_follow_the_cluster_launch() {
        let regs = [
            "%ctaid.x",
            "%clusterid.x",
            "%cluster_ctarank",
            "%cluster_ctaid.x",
            "%nclusterid.x",
            "%nctaid.x",
            "%cluster_nctarank",
            "%cluster_nctaid.x",
        ];
        let kernel = |directives: &str| {
            let mut body = String::new();
            for (i, r) in regs.iter().enumerate() {
                body.push_str(&format!(
                    "mov.u32 %v, {r};\nst.global.b32 [%at+{}], %v;\n",
                    4 * i
                ));
            }
            format!(
                ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(\n.param .u64 out\n)\n.reqntid 32, 1, 1\n{directives}{{\nld.param.u64 %o, [out];\nmov.u32 %t, %tid.x;\nsetp.ne.u32 %z, %t, 0;\n@%z bra DONE;\nmov.u32 %c, %ctaid.x;\nmul.wide.u32 %off, %c, 32;\nadd.u64 %at, %o, %off;\n{body}DONE:\nret;\n}}\n"
            )
        };
        let run_grid = |ptx: &str, grid: u64, ctas: usize| -> Result<Vec<[u32; 8]>, String> {
            let ks = parse(ptx);
            let mut mem = Memory::default();
            let out = mem.alloc(&vec![0u8; 32 * ctas]);
            run(&ks[0], [grid, 1, 1], &[out], &mut mem)?;
            let bytes = mem.read(out, 32 * ctas);
            Ok(bytes
                .chunks(32)
                .map(|c| {
                    std::array::from_fn(|i| {
                        u32::from_le_bytes(c[4 * i..4 * i + 4].try_into().unwrap())
                    })
                })
                .collect())
        };
        let got = run_grid(
            &kernel(".reqnctapercluster 2, 1, 1\n.blocksareclusters\n"),
            3,
            6,
        )
        .unwrap();
        for (c, row) in got.iter().enumerate() {
            let c = c as u32;
            assert_eq!(*row, [c, c / 2, c % 2, c % 2, 3, 6, 2, 2], "CTA {c}");
        }
        let got = run_grid(&kernel(".reqnctapercluster 2, 1, 1\n"), 4, 4).unwrap();
        assert_eq!(got[3], [3, 1, 1, 1, 2, 4, 2, 2]);
        assert!(run_grid(&kernel(".reqnctapercluster 2, 1, 1\n"), 3, 3).is_err());
        // No cluster: each CTA is a cluster of one.
        let got = run_grid(&kernel(""), 2, 2).unwrap();
        assert_eq!(got[1], [1, 1, 0, 0, 2, 2, 1, 1]);
    }

    /// Distributed shared memory between the CTAs of a cluster: each CTA of a pair
    /// writes `10 * (rank + 1)` to its shared memory, the cluster barrier orders that
    /// before every read, each reads its peer's word through `mapa` and
    /// `ld.shared::cluster`, and a second barrier keeps the words until both have read.
    /// A CTA that never arrives leaves the other waiting: a deadlock, reported.
    #[test]
    fn cluster_barriers_order_distributed_shared_memory() {
        let kernel = |arrive: &str| {
            format!(
                ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(\n.param .u64 out\n)\n.reqntid 32, 1, 1\n.reqnctapercluster 2, 1, 1\n.blocksareclusters\n{{\n.shared .align 16 .b8 smem[16];\nld.param.u64 %o, [out];\nmov.u32 %r, %cluster_ctarank;\nadd.u32 %v, %r, 1;\nmul.lo.u32 %v, %v, 10;\nmov.u32 %s, smem;\nst.shared.b32 [%s], %v;\n{arrive}barrier.cluster.wait.acquire.aligned;\nxor.b32 %peer, %r, 1;\nmapa.shared::cluster.u32 %ps, %s, %peer;\nld.shared::cluster.b32 %got, [%ps];\nbarrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\nmov.u32 %t, %tid.x;\nsetp.ne.u32 %z, %t, 0;\n@%z bra DONE;\nmov.u32 %c, %ctaid.x;\nmul.wide.u32 %off, %c, 4;\nadd.u64 %at, %o, %off;\nst.global.b32 [%at], %got;\nDONE:\nret;\n}}\n"
            )
        };
        let ks = parse(&kernel("barrier.cluster.arrive.release.aligned;\n"));
        let mut mem = Memory::default();
        let out = mem.alloc(&[0u8; 16]);
        run(&ks[0], [2, 1, 1], &[out], &mut mem).unwrap();
        let got: Vec<u32> = mem
            .read(out, 16)
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(got, [20, 10, 20, 10]);
        // Only rank 0 arrives at the first barrier.
        let ks = parse(&kernel(
            "setp.ne.u32 %q, %r, 0;\n@%q bra SKIP;\nbarrier.cluster.arrive.release;\nSKIP:\n",
        ));
        let err = run(&ks[0], [1, 1, 1], &[out], &mut mem).unwrap_err();
        assert!(
            err.contains("waits at the cluster barrier without arriving"),
            "{err}"
        );
    }

    /// `ld.shared::cluster.v4` reads four consecutive words of the peer's shared memory
    /// (aligned to 16 bytes, as the PTX ISA requires of a vector access; `.v2` at 8),
    /// in the order of its registers; a misaligned one is refused.
    #[test]
    fn vector_reads_of_a_peers_shared_memory() {
        let kernel = |read: &str| {
            format!(
                ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(\n.param .u64 out\n)\n.reqntid 32, 1, 1\n.reqnctapercluster 2, 1, 1\n.blocksareclusters\n.maxnreg 255\n{{\n.shared .align 16 .b8 smem[32];\nld.param.u64 %o, [out];\nmov.u32 %r, %cluster_ctarank;\nmov.u32 %t, %tid.x;\nmul.lo.u32 %v, %r, 100;\nadd.u32 %v, %v, %t;\nmov.u32 %s, smem;\nsetp.ge.u32 %big, %t, 8;\nshl.b32 %a, %t, 2;\nadd.u32 %a, %a, %s;\n@!%big st.shared.b32 [%a], %v;\nbarrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\nxor.b32 %peer, %r, 1;\nmapa.shared::cluster.u32 %ps, %s, %peer;\n{read}\nbarrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\nsetp.ne.u32 %z, %t, 0;\n@%z bra DONE;\nmov.u32 %c, %ctaid.x;\nmul.wide.u32 %off, %c, 16;\nadd.u64 %at, %o, %off;\nst.global.v4.b32 [%at], {{%w0, %w1, %w2, %w3}};\nDONE:\nret;\n}}\n"
            )
        };
        let words = |mem: &Memory, out: u64| -> Vec<u32> {
            mem.read(out, 32)
                .chunks(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                .collect()
        };
        let ks = parse(&kernel(
            "ld.shared::cluster.v4.b32 {%w0, %w1, %w2, %w3}, [%ps+16];",
        ));
        let mut mem = Memory::default();
        let out = mem.alloc(&[0u8; 32]);
        run(&ks[0], [1, 1, 1], &[out], &mut mem).unwrap();
        // CTA 0 read CTA 1's words 4..8, CTA 1 CTA 0's.
        assert_eq!(words(&mem, out), [104, 105, 106, 107, 4, 5, 6, 7]);
        let ks = parse(&kernel(
            "ld.shared::cluster.v2.b32 {%w0, %w1}, [%ps+8];\nld.shared::cluster.v2.b32 {%w2, %w3}, [%ps];",
        ));
        run(&ks[0], [1, 1, 1], &[out], &mut mem).unwrap();
        assert_eq!(words(&mem, out), [102, 103, 100, 101, 2, 3, 0, 1]);
        let ks = parse(&kernel(
            "ld.shared::cluster.v4.b32 {%w0, %w1, %w2, %w3}, [%ps+8];",
        ));
        let err = run(&ks[0], [1, 1, 1], &[out], &mut mem).unwrap_err();
        assert!(err.contains("misaligned"), "{err}");
    }

    /// `ld.shared::cluster.s16` sign-extends into its 32-bit register, as `ld.shared`
    /// does, and `.u16` does not (random kernel seed 63089 over 2 CTAs: a signed `maxi`
    /// reduction's partials gathered through the cluster read -1 as 65535).
    #[test]
    fn signed_reads_of_a_peers_shared_memory_sign_extend() {
        let ptx = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(\n.param .u64 out\n)\n.reqntid 32, 1, 1\n.reqnctapercluster 2, 1, 1\n.blocksareclusters\n{\n.shared .align 16 .b8 smem[16];\nld.param.u64 %o, [out];\nmov.u32 %r, %cluster_ctarank;\nadd.u32 %v, %r, 1;\nmul.lo.s32 %v, %v, -5;\ncvt.u16.u32 %h, %v;\nmov.u32 %s, smem;\nst.shared.b16 [%s], %h;\nbarrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\nxor.b32 %peer, %r, 1;\nmapa.shared::cluster.u32 %ps, %s, %peer;\nld.shared::cluster.s16 %w0, [%ps];\nld.shared::cluster.u16 %w1, [%ps];\nbarrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\nmov.u32 %t, %tid.x;\nsetp.ne.u32 %z, %t, 0;\n@%z bra DONE;\nmov.u32 %c, %ctaid.x;\nmul.wide.u32 %off, %c, 8;\nadd.u64 %at, %o, %off;\nst.global.v2.b32 [%at], {%w0, %w1};\nDONE:\nret;\n}\n";
        let ks = parse(ptx);
        let mut mem = Memory::default();
        let out = mem.alloc(&[0u8; 16]);
        run(&ks[0], [1, 1, 1], &[out], &mut mem).unwrap();
        let words: Vec<u32> = mem
            .read(out, 16)
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        // CTA 0 read CTA 1's -10, CTA 1 CTA 0's -5.
        assert_eq!(words, [-10i32 as u32, 0xFFF6, -5i32 as u32, 0xFFFB]);
    }

    #[test]
    fn calls_of_functions_are_inlined() {
        // A function calling another, called twice, with a branch and a return inside.
        let funcs = ".func (.param .b32 func_retval0) twice(\n\t.param .b32 twice_param_0\n)\n{\n\t.reg .b32 %r<3>;\n\tld.param.b32 %r1, [twice_param_0];\n\tadd.s32 %r2, %r1, %r1;\n\tst.param.b32 [func_retval0], %r2;\n\tret;\n}\n.func (.param .b32 func_retval0) quad_plus(\n\t.param .b32 quad_plus_param_0,\n\t.param .b32 quad_plus_param_1\n)\n{\n\tld.param.b32 %r1, [quad_plus_param_0];\n\tld.param.b32 %r9, [quad_plus_param_1];\n\t{\n\t.param .b32 param0;\n\t.param .b32 retval0;\n\tst.param.b32 [param0], %r1;\n\tcall.uni (retval0), twice, (param0);\n\tld.param.b32 %r2, [retval0];\n\t}\n\tsetp.eq.s32 %p1, %r9, 0;\n\t@%p1 bra SKIP;\n\tadd.s32 %r2, %r2, %r2;\nSKIP:\n\tst.param.b32 [func_retval0], %r2;\n\tret;\n}\n";
        let call = |x: u32, y: u32, k: &str| {
            format!(
                "{{\n.param .b32 param0;\n.param .b32 param1;\n.param .b32 retval0;\nmov.b32 %a{k}, {x};\nst.param.b32 [param0], %a{k};\nst.param.b32 [param1], {y};\ncall.uni (retval0), quad_plus, (param0, param1);\nld.param.b32 %r{k}, [retval0];\n}}\n"
            )
        };
        let body = format!(
            "mov.b32 %r1, 1000;\n{}{}add.s32 %r9, %r7, %r8;\nadd.s32 %r9, %r9, %r1;\ncvt.u64.u32 %out, %r9;",
            call(3, 1, "7"),
            call(5, 0, "8")
        );
        // (3 * 2) * 2 + 5 * 2 + 1000: the caller's %r1 is not the callee's.
        assert_eq!(eval(funcs, &body), Ok(12 + 10 + 1000));
    }

    #[test]
    fn float_arithmetic_follows_the_rounding_modifiers() {
        let f = |body: &str| f32::from_bits(eval32(body));
        // 1/3 rounded down and up differ by one ulp.
        let down = f("div.rm.f32 %x, 0f3F800000, 0f40400000;\nmov.b32 %r, %x;");
        let up = f("div.rp.f32 %x, 0f3F800000, 0f40400000;\nmov.b32 %r, %x;");
        assert_eq!(up.to_bits(), down.to_bits() + 1);
        assert!(f64::from(down) < 1.0 / 3.0 && f64::from(up) > 1.0 / 3.0);
        assert_eq!(f("sqrt.rn.f32 %x, 0f40800000;\nmov.b32 %r, %x;"), 2.0);
        assert_eq!(f("rcp.rn.f32 %x, 0f40800000;\nmov.b32 %r, %x;"), 0.25);
        // .NaN propagates; without it the number wins. NaN results are canonical.
        assert_eq!(
            eval32("max.NaN.f32 %x, 0f7FC00001, 0f3F800000;\nmov.b32 %r, %x;"),
            0x7FFF_FFFF
        );
        assert_eq!(
            f("max.f32 %x, 0f7FC00001, 0f3F800000;\nmov.b32 %r, %x;"),
            1.0
        );
        assert_eq!(
            f("min.f32 %x, 0f80000000, 0f00000000;\nmov.b32 %r, %x;").to_bits(),
            0x8000_0000
        );
        assert_eq!(
            f("add.sat.f32 %x, 0f40000000, 0f00000000;\nmov.b32 %r, %x;"),
            1.0
        );
        assert_eq!(
            eval(
                "",
                "max.f64 %d, 0d4000000000000000, 0dC000000000000000;\nmov.b64 %out, %d;"
            ),
            Ok(2.0f64.to_bits())
        );
        // Ordered `ne` is false with a NaN, unordered `neu` true.
        assert_eq!(
            eval32("setp.ne.f32 %p, 0f7FC00000, 0f3F800000;\nselp.u32 %r, 1, 0, %p;"),
            0
        );
        assert_eq!(
            eval32("setp.neu.f32 %p, 0f7FC00000, 0f3F800000;\nselp.u32 %r, 1, 0, %p;"),
            1
        );
    }

    /// Every thread writes its result word to `out[tid]`.
    fn per_thread(globals: &str, body: &str) -> Result<Vec<u32>, String> {
        let ptx = format!(
            "{globals}\n.visible .entry k(\n.param .u64 out\n)\n{{\n.reqntid 64, 1, 1\nmov.u32 %t, %tid.x;\n{body}\nld.param.u64 %o, [out];\ncvt.u64.u32 %q, %t;\nmad.lo.u64 %o, %q, 4, %o;\nst.global.b32 [%o], %r;\nret;\n}}\n"
        );
        let ks = parse(&ptx);
        let mut mem = Memory::default();
        let out = mem.alloc(&[0u8; 256]);
        run(&ks[0], [1, 1, 1], &[out], &mut mem)?;
        Ok(mem
            .read(out, 256)
            .chunks(4)
            .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
            .collect())
    }

    #[test]
    fn divergent_branches_and_loops_reconverge() {
        // if/else on the thread's parity, then a loop of tid % 5 trips, then a barrier and
        // a shuffle that need every thread back together.
        let body = "and.b32 %odd, %t, 1;\nsetp.ne.u32 %p, %odd, 0;\n@!%p bra EVEN;\nmul.lo.u32 %r, %t, 3;\nbra.uni JOIN;\nEVEN:\nadd.u32 %r, %t, 1000;\nJOIN:\nrem.u32 %n, %t, 5;\nmov.u32 %i, 0;\nLOOP:\nsetp.ge.u32 %q, %i, %n;\n@%q bra DONE;\nadd.u32 %r, %r, 10;\nadd.u32 %i, %i, 1;\nbra.uni LOOP;\nDONE:\nbar.sync 0;\nshfl.sync.bfly.b32 %s, %r, 1, 31, -1;\nadd.u32 %r, %r, %s;";
        let got = per_thread("", body).expect("runs");
        let own = |t: u32| (if t % 2 == 1 { 3 * t } else { t + 1000 }) + 10 * (t % 5);
        for t in 0..64u32 {
            assert_eq!(got[t as usize], own(t) + own(t ^ 1), "thread {t}");
        }
        // A barrier reached by only some threads is refused.
        let bad = "setp.lt.u32 %p, %t, 32;\n@%p bra SKIP;\nbar.sync 0;\nSKIP:\nmov.u32 %r, 0;";
        assert!(
            per_thread("", bad)
                .unwrap_err()
                .contains("barrier in divergent code")
        );
    }

    #[test]
    fn zero_filled_globals() {
        let got = per_thread(
            ".global .align 4 .b8 g[8];",
            "mov.u64 %a, g;\nld.global.u32 %r, [%a+4];\nadd.u32 %r, %r, %t;",
        )
        .expect("runs");
        assert_eq!(got[5], 5);
    }

    #[test]
    fn conversions_bit_counts_and_abs() {
        // Round to integral in the same type: ties to even.
        assert_eq!(
            eval(
                "",
                "cvt.rni.f64.f64 %d, 0d4004000000000000;\nmov.b64 %out, %d;"
            ),
            Ok(2.0f64.to_bits())
        );
        assert_eq!(
            eval(
                "",
                "cvt.rmi.f64.f64 %d, 0dC004000000000000;\nmov.b64 %out, %d;"
            ),
            Ok((-3.0f64).to_bits())
        );
        // 2049 to f16 (11 significant bits): to even (2048), up (2050).
        assert_eq!(
            eval32("cvt.rn.f16.s32 %h, 2049;\ncvt.u32.u16 %r, %h;"),
            0x6800
        );
        assert_eq!(
            eval32("cvt.rp.f16.u32 %h, 2049;\ncvt.u32.u16 %r, %h;"),
            0x6801
        );
        assert_eq!(eval32("clz.b32 %r, 65536;"), 15);
        assert_eq!(eval32("popc.b32 %r, 255;"), 8);
        assert_eq!(eval32("brev.b32 %r, 1;"), 0x8000_0000);
        assert_eq!(eval32("abs.s32 %r, -7;"), 7);
        assert_eq!(eval("", "clz.b64 %c, 1;\ncvt.u64.u32 %out, %c;"), Ok(63));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Row stride, matrix stride and warp stride (bytes) of the test's row addresses.
    const RS: u64 = 48;
    const MS: u64 = 16;
    const WS: u64 = 512;

    /// A 64-thread kernel: shared memory holds b16 element `e` at byte `2 e` (value `e`);
    /// lane `l` of warp `w` supplies `off + w WS + (l % 8) RS + (l / 8) MS` (plus 2, a
    /// misaligned address that must be ignored, in lanes past the matrices' rows), runs
    /// `ldmatrix` of `count` matrices and writes register `j` of thread `t` to word
    /// `4 t + j` of `out`.
    fn kernel(count: usize, trans: bool, off: u64) -> String {
        let mut k = String::from(
            ".visible .entry k(\n.param .u64 out\n)\n{\n.reqntid 64, 1, 1\n.shared .align 16 .b8 smem[2048];\n",
        );
        k += "mov.u32 %t, %tid.x;\nmad.lo.u32 %a, %t, 32, smem;\n";
        for i in 0..16 {
            k += &format!(
                "mad.lo.u32 %v, %t, 16, {i};\nst.shared.b16 [%a+{}], %v;\n",
                2 * i
            );
        }
        k += "bar.sync 0;\nand.b32 %l, %t, 31;\nshr.u32 %w, %t, 5;\nand.b32 %i, %l, 7;\nshr.u32 %j, %l, 3;\n";
        k += &format!(
            "mad.lo.u32 %b, %i, {RS}, {off};\nmad.lo.u32 %b, %j, {MS}, %b;\nmad.lo.u32 %b, %w, {WS}, %b;\n"
        );
        k += &format!(
            "setp.ge.u32 %p, %l, {};\nselp.u32 %x, 2, 0, %p;\nadd.u32 %b, %b, %x;\n",
            8 * count
        );
        let regs: Vec<String> = (0..count).map(|j| format!("%d{j}")).collect();
        let t = if trans { ".trans" } else { "" };
        k += &format!(
            "ldmatrix.sync.aligned.m8n8.x{count}{t}.shared.b16 {{{}}}, [%b];\n",
            regs.join(", ")
        );
        k += "ld.param.u64 %o, [out];\ncvt.u64.u32 %q, %t;\nmad.lo.u64 %o, %q, 16, %o;\n";
        for j in 0..count {
            k += &format!("st.global.b32 [%o+{}], %d{j};\n", 4 * j);
        }
        k += "ret;\n}\n";
        k
    }

    fn run_ldmatrix(count: usize, trans: bool, off: u64) -> Result<Vec<u32>, String> {
        let ks = parse(&kernel(count, trans, off));
        let mut mem = Memory::default();
        let out = mem.alloc(&[0u8; 64 * 16]);
        run(&ks[0], [1, 1, 1], &[out], &mut mem)?;
        Ok(mem
            .read(out, 64 * 16)
            .chunks(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect())
    }

    /// The element (its value is its index) at row `r`, column `c` of matrix `j` as warp
    /// `w`'s lanes address it.
    fn elem(w: u64, j: u64, r: u64, c: u64, off: u64) -> u32 {
        ((off + w * WS + r * RS + j * MS) / 2 + c) as u32
    }

    fn check(count: usize, trans: bool) {
        let got = run_ldmatrix(count, trans, 0).expect("ldmatrix runs");
        for t in 0..64u64 {
            let (w, lane) = (t / 32, t % 32);
            let (g, c) = (lane / 4, 2 * (lane % 4));
            for j in 0..count as u64 {
                let (lo, hi) = if trans {
                    (elem(w, j, c, g, 0), elem(w, j, c + 1, g, 0))
                } else {
                    (elem(w, j, g, c, 0), elem(w, j, g, c + 1, 0))
                };
                assert_eq!(
                    got[(4 * t + j) as usize],
                    lo | hi << 16,
                    "x{count} trans={trans}: thread {t}, matrix {j}"
                );
            }
            // Registers past the count are untouched.
            for j in count as u64..4 {
                assert_eq!(got[(4 * t + j) as usize], 0);
            }
        }
    }

    #[test]
    fn ldmatrix_x1() {
        check(1, false);
    }

    #[test]
    fn ldmatrix_x2() {
        check(2, false);
    }

    #[test]
    fn ldmatrix_x4() {
        check(4, false);
    }

    #[test]
    fn ldmatrix_x1_trans() {
        check(1, true);
    }

    #[test]
    fn ldmatrix_x2_trans() {
        check(2, true);
    }

    #[test]
    fn ldmatrix_x4_trans() {
        check(4, true);
    }

    /// One warp: every thread's register `j` holds (`8t + 2j`, `8t + 2j + 1`) as two b16;
    /// `stmatrix` of `count` matrices (lane `l` addresses row `l % 8` of matrix `l / 8`,
    /// matrices 128 bytes apart), a barrier, `ldmatrix` of the same form back; thread `t`
    /// writes its loaded registers to `out[4t..]` and shared word `t` to `out[128 + t]`.
    fn stmatrix_round_trip(count: usize, trans: bool) -> Vec<u32> {
        let t = if trans { ".trans" } else { "" };
        let mut k = String::from(
            ".visible .entry k(\n.param .u64 out\n)\n{\n.reqntid 32, 1, 1\n.shared .align 16 .b8 smem[2048];\nmov.u32 %t, %tid.x;\n",
        );
        for j in 0..count {
            k += &format!(
                "mad.lo.u32 %x{j}, %t, 8, {};\nmul.lo.u32 %x{j}, %x{j}, 65537;\nadd.u32 %v{j}, %x{j}, 65536;\n",
                2 * j
            );
        }
        k += "and.b32 %i, %t, 7;\nshr.u32 %m, %t, 3;\nmov.u32 %b, smem;\nmad.lo.u32 %b, %i, 16, %b;\nmad.lo.u32 %b, %m, 128, %b;\n";
        let vs: Vec<String> = (0..count).map(|j| format!("%v{j}")).collect();
        let ws: Vec<String> = (0..count).map(|j| format!("%w{j}")).collect();
        k += &format!(
            "stmatrix.sync.aligned.m8n8.x{count}{t}.shared.b16 [%b], {{{}}};\nbar.sync 0;\n",
            vs.join(", ")
        );
        k += &format!(
            "ldmatrix.sync.aligned.m8n8.x{count}{t}.shared.b16 {{{}}}, [%b];\n",
            ws.join(", ")
        );
        k += "ld.param.u64 %o, [out];\ncvt.u64.u32 %q, %t;\nmad.lo.u64 %p, %q, 16, %o;\n";
        for j in 0..count {
            k += &format!("st.global.b32 [%p+{}], %w{j};\n", 4 * j);
        }
        k += "mad.lo.u32 %s, %t, 4, smem;\nld.shared.b32 %y, [%s];\nmad.lo.u64 %p, %q, 4, %o;\nst.global.b32 [%p+512], %y;\nret;\n}\n";
        let ks = parse(&k);
        let mut mem = Memory::default();
        let out = mem.alloc(&[0u8; 640]);
        run(&ks[0], [1, 1, 1], &[out], &mut mem).expect("stmatrix runs");
        mem.read(out, 640)
            .chunks(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect()
    }

    #[test]
    fn stmatrix_is_the_inverse_of_ldmatrix_and_places_rows() {
        for count in [1usize, 2, 4] {
            for trans in [false, true] {
                let got = stmatrix_round_trip(count, trans);
                for t in 0..32u32 {
                    for j in 0..count as u32 {
                        let lo = 8 * t + 2 * j;
                        assert_eq!(
                            got[(4 * t + j) as usize],
                            lo | (lo + 1) << 16,
                            "x{count} trans={trans}: thread {t}, register {j}"
                        );
                    }
                }
                // Matrix 0's first 128 bytes: row i, column c (b16 at 16 i + 2 c) holds
                // thread 4i + c/2's register 0 (low half at even c); transposed, thread
                // 4c + i/2's (low half at even i).
                for w in 0..32u32 {
                    let (i, c) = (w / 4, 2 * (w % 4));
                    let half = |row: u32, col: u32| -> u32 {
                        if trans {
                            8 * (4 * col + row / 2) + (row % 2)
                        } else {
                            8 * (4 * row + col / 2) + (col % 2)
                        }
                    };
                    assert_eq!(
                        got[128 + w as usize],
                        half(i, c) | half(i, c + 1) << 16,
                        "x{count} trans={trans}: shared word {w}"
                    );
                }
            }
        }
    }

    #[test]
    fn ldmatrix_rejects_misaligned_rows() {
        for off in [2, 4, 8] {
            let e = run_ldmatrix(4, false, off).expect_err("misaligned row address");
            assert!(e.contains("misaligned"), "{e}");
        }
        // 16-byte aligned but not 32: fine.
        assert!(run_ldmatrix(4, false, 16).is_ok());
    }

    #[test]
    fn ldmatrix_rejects_other_forms() {
        for form in [
            "ldmatrix.sync.aligned.m8n8.x3.shared.b16",
            "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8",
            "ldmatrix.sync.aligned.m8n8.x1.global.b16",
            "ldmatrix.aligned.m8n8.x1.shared.b16",
        ] {
            let k = kernel(1, false, 0).replace("ldmatrix.sync.aligned.m8n8.x1.shared.b16", form);
            let e = run(&parse(&k)[0], [1, 1, 1], &[0], &mut Memory::default()).expect_err(form);
            assert!(e.contains("ldmatrix"), "{e}");
        }
    }

    #[test]
    fn ldmatrix_sees_races() {
        // The same kernel without its barrier reads other threads' stores.
        let k = kernel(4, false, 0).replace("bar.sync 0;\n", "");
        let mut mem = Memory::default();
        let out = mem.alloc(&[0u8; 64 * 16]);
        let e = run(&parse(&k)[0], [1, 1, 1], &[out], &mut mem).expect_err("race");
        assert!(e.contains("no barrier"), "{e}");
    }
}
