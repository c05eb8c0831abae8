//! The PTX writer: one pass over each entry, one virtual register per element slot.
//!
//! [`compile`] walks the module's entries; [`Kernel`] holds the state of one entry: the
//! registers of every tile value (with its [`Layout`]), the records of views, the token
//! facts that decide where barriers go, and the output lines. The op families live in the
//! submodules: `arith` (elementwise and conversions), `mem` (pointers, views, atomics,
//! shared memory), `shape` (broadcast, reshape, permute, cat, extract, reduce, scan, the
//! mma fallback), `mma` (mma on tensor cores) and `control` (if, for, loop, print, assert).

mod arith;
mod control;
mod mem;
mod memdesc;
pub(crate) mod mma;
mod narrow;
mod pack;
mod shape;
mod stream;
mod tma;
mod vector;
mod wgmma;

use crate::layout::{Layout, shape_bits};
use crate::sink::{RegClass, Sink};
use crate::target::Options;
use std::fmt::Write as _;
use std::rc::Rc;
use tilec_diag::{Diagnostic, codes};
use tilec_ir::attrs::AttrData;
use tilec_ir::util::FxHashMap;
use tilec_ir::{Module, Op, Opcode, Type, TypeData, Value};

pub(crate) use tilec_gpuir::sizes::{MAX_STATIC_SMEM, elem_bytes};

/// The registers of one tile value: one per slot of its layout.
#[derive(Clone, Debug)]
pub(crate) struct Tv {
    pub layout: Rc<Layout>,
    pub regs: Vec<String>,
    pub elem: Type,
}

/// A dimension or stride of a view: known at compile time or held in a `.b64` register.
#[derive(Clone, Debug)]
pub(crate) enum Dim {
    Static(i64),
    Dyn(String),
}

/// What tilec knows about a tensor or partition view value.
#[derive(Clone, Debug)]
pub(crate) struct View {
    pub base: String,
    pub elem: Type,
    pub shape: Vec<Dim>,
    pub strides: Vec<Dim>,
    /// Partition views: the tile shape, padding and dim map.
    pub tile: Option<Vec<i64>>,
    /// The element distance between consecutive tile indices per tile dimension: the
    /// tile for partition views, the traversal strides for strided views.
    pub step: Option<Vec<i64>>,
    /// Gather/scatter views: the sparse dimension, whose index is a tile of row indices.
    pub sparse: Option<usize>,
    pub padding: Option<tilec_ir::attrs::PaddingValue>,
    pub dim_map: Vec<usize>,
}

/// A loop being emitted: where `continue` and `break` go.
#[derive(Clone, Debug)]
pub(crate) struct LoopCtx {
    pub latch: String,
    pub exit: String,
    pub iter: Vec<Tv>,
    pub results: Vec<Option<Tv>>,
}

/// One kernel being written.
pub(crate) struct Kernel<'a> {
    pub m: &'a Module,
    pub opts: &'a Options,
    pub lines: Vec<String>,
    pub counts: [u32; 6],
    pub labels: u32,
    pub tiles: FxHashMap<Value, Tv>,
    /// Shared-memory buffers (`!ttg.memdesc` values): the register holding their address.
    pub bufs: FxHashMap<Value, String>,
    /// Views of buffers that are not a row-major block at their address: bit `k` of a
    /// view element's index is bit `map[k]` of its index in the allocation (see `memdesc`).
    pub buf_maps: FxHashMap<Value, Rc<[u8]>>,
    /// Layouts decoded from the encodings of tile types.
    pub layouts: FxHashMap<Type, Rc<Layout>>,
    /// Shared memory held by live `ttg.local_alloc` buffers (bytes from the start of the
    /// kernel's region), and each buffer's offset and size; op-internal scratch starts
    /// above them.
    pub smem_top: u32,
    pub buf_extent: FxHashMap<Value, (u32, u32)>,
    /// The end of the shared bytes that may have been accessed since the last barrier.
    pub smem_dirty: u32,
    pub views: FxHashMap<Value, View>,
    /// Tokens whose chain contains a write issued by this tile block.
    pub dirty: FxHashMap<Value, bool>,
    pub loops: Vec<LoopCtx>,
    /// `if` ops being emitted, with their result registers once known.
    pub ifs: Vec<(Op, Vec<Option<Tv>>)>,
    /// The offset in `__smem` of each `alloca`'s buffer (at the bottom, below every
    /// other use of shared memory, alive for the whole kernel).
    pub allocas: FxHashMap<Op, u32>,
    /// Whether pointer and view accesses use generic addresses (`ld`, not `ld.global`):
    /// when the kernel has an `alloca`, whose memory is shared memory.
    pub generic: bool,
    /// The alignment of `__smem` (16, or an `alloca`'s larger one).
    pub smem_align: u64,
    pub tid: String,
    pub module_data: &'a mut ModuleData,
    pub diags: Vec<Diagnostic>,
    pub last_loc: Option<(u32, u32, u32)>,
    /// The streaming loop being written, if any.
    pub stream: Option<stream::StreamCtx>,
    /// The op being written.
    pub cur_op: Option<Op>,
    /// The kernel's PTX name.
    pub name: String,
    /// Each `ttg.global_scratch_alloc`'s claim registers: the address of its mask word
    /// and the claimed bit (zero until claimed; see `tma`).
    pub claims: Vec<(Op, String, String)>,
    /// Slots per SM of the kernel's global scratch tables (`tma::scratch_slots`).
    pub scratch_slots: u64,
    /// The CTA's threads (`.reqntid`): the layouts' warps and a warp-specialized
    /// partition's (`prepare_scratch_claims` counts them).
    pub threads: u32,
    /// The threads a CTA barrier waits for once a `ttg.warp_specialize` has sent its
    /// partition's warps their own way (`None`: every thread of the CTA).
    pub bar_threads: Option<u32>,
    /// The CTAs of the cluster the kernel's tile block is spread over
    /// (`tilec_gpuir::cluster::NUM_CTAS_ATTR`; 1: none).
    pub ctas: u32,
}

/// The comment that gives a kernel's dynamic shared-memory size (docs/abi.md):
/// `// tilec.dynamic_smem NAME BYTES`, before its `.extern .shared` declaration.
pub const DYNAMIC_SMEM_MARK: &str = "tilec.dynamic_smem";

/// The threads per CTA kernel `name` of a PTX module tilec wrote requires (its
/// `.reqntid`, docs/abi.md: the warps convert-to-gpu chose for it, 32 each), if the module
/// has that kernel.
pub fn kernel_threads(ptx: &str, name: &str) -> Option<u32> {
    let head = format!(".visible .entry {name}(");
    let mut lines = ptx.lines().skip_while(|l| *l != head);
    lines.next()?;
    lines
        .take_while(|l| !l.starts_with('{'))
        .find_map(|l| l.strip_prefix(".reqntid "))
        .and_then(|r| r.split(',').next()?.trim().parse().ok())
}

/// The dynamic shared memory each kernel of a PTX module tilec wrote needs at launch
/// (`sharedMemBytes`), from its `// tilec.dynamic_smem NAME BYTES` lines: (name, bytes)
/// for the kernels over 48 KiB; the others need none.
pub fn dynamic_smem(ptx: &str) -> Vec<(String, u32)> {
    ptx.lines()
        .filter_map(|l| {
            let mut w = l.strip_prefix("// ")?.split_whitespace();
            if w.next()? != DYNAMIC_SMEM_MARK {
                return None;
            }
            let name = w.next()?.to_string();
            let bytes = w.next()?.parse().ok()?;
            Some((name, bytes))
        })
        .collect()
}

/// The `.version` of a module for `arch` whose instructions need at least `min`: the
/// target's own version, or `min` where that is newer.
fn ptx_version(arch: tilec_gpuir::target::Arch, min: Option<(u32, u32)>) -> String {
    let own = arch.ptx_version();
    let parse = |v: &str| -> (u32, u32) {
        let (a, b) = v.split_once('.').unwrap_or((v, "0"));
        (a.parse().unwrap_or(0), b.parse().unwrap_or(0))
    };
    match min {
        Some(m) if m > parse(own) => format!("{}.{}", m.0, m.1),
        _ => own.to_string(),
    }
}

/// Data shared by the kernels of a module: constant tables, strings, `vprintf` use.
#[derive(Default)]
pub(crate) struct ModuleData {
    pub decls: Vec<String>,
    pub next_const: u32,
    pub uses_vprintf: bool,
    /// The PTX ISA version an instruction emitted needs when it is newer than the
    /// target's own ([`tilec_gpuir::target::Arch::ptx_version`]): (major, minor).
    pub min_version: Option<(u32, u32)>,
    /// Math subroutines already declared (by PTX name).
    pub funcs: Vec<String>,
    /// PTX names of the current module's globals, by symbol.
    pub globals: FxHashMap<String, String>,
    /// Every PTX name used so far (entries and globals of all chunks).
    pub used: tilec_ir::util::FxHashSet<String>,
    /// The next suffix to try for each base name: numbering goes on where it stopped, so
    /// 10,000 chunks with one entry name take linear time (they took minutes).
    pub next_suffix: FxHashMap<String, u32>,
    pub source: Option<tilec_diag::SourceFile>,
    /// Files named by `loc("file":line:col)` locations (with `-g`): `.file 2` on, in
    /// order of first use (`.file 1` is the input).
    pub files: Vec<String>,
    /// Shared-memory traffic of tensor-core operands (crate::banks).
    pub smem_stats: crate::banks::SmemStats,
}

impl ModuleData {
    /// The `.file` number of `name`: 1 for the input file, else its own entry.
    fn file_index(&mut self, name: &str, input: &str) -> u32 {
        if name == input {
            return 1;
        }
        let i = match self.files.iter().position(|f| f == name) {
            Some(i) => i,
            None => {
                self.files.push(name.to_string());
                self.files.len() - 1
            }
        };
        i as u32 + 2
    }
}

impl Sink for Kernel<'_> {
    fn reg(&mut self, class: RegClass) -> String {
        let n = &mut self.counts[class as usize];
        *n += 1;
        format!("{}{}", class.prefix(), *n)
    }

    fn label(&mut self) -> String {
        self.labels += 1;
        format!("$L__BB{}", self.labels)
    }

    fn line(&mut self, text: String) {
        self.ins(text);
    }
}

/// The register class holding one element of `elem`.
pub(crate) fn class_of(elem: Type) -> RegClass {
    match elem {
        Type::I1 => RegClass::Pred,
        Type::I4 | Type::I8 | Type::I16 | Type::I32 => RegClass::B32,
        Type::I64 => RegClass::B64,
        Type::F16
        | Type::BF16
        | Type::F8E4M3FN
        | Type::F8E5M2
        | Type::F8E8M0FNU
        | Type::F4E2M1FN => RegClass::B16,
        Type::F32 | Type::TF32 => RegClass::F32,
        Type::F64 => RegClass::F64,
        _ => RegClass::B64, // pointers
    }
}

/// The PTX type suffix for moving one element to or from memory.
pub(crate) fn mem_type(elem: Type) -> &'static str {
    match elem {
        Type::I1 | Type::F8E4M3FN | Type::F8E5M2 | Type::F8E8M0FNU | Type::F4E2M1FN => ".u8",
        Type::I4 | Type::I8 => ".s8",
        Type::I16 => ".s16",
        Type::I32 => ".u32",
        Type::F16 | Type::BF16 => ".b16",
        Type::F32 | Type::TF32 => ".f32",
        Type::F64 => ".f64",
        _ => ".u64",
    }
}

/// Compiles every entry of `m` to one PTX module.
pub fn compile(
    m: &Module,
    opts: &Options,
    source: Option<&str>,
) -> Result<String, Vec<Diagnostic>> {
    compile_all(&[m], opts, source)
}

/// Compiles the entries of several modules (the chunks of one `--split-input-file` input)
/// into one PTX module. An entry whose name an earlier chunk already used gets a `_N`
/// suffix (and a comment saying so).
pub fn compile_all(
    modules: &[&Module],
    opts: &Options,
    source: Option<&str>,
) -> Result<String, Vec<Diagnostic>> {
    let too_big: Vec<Diagnostic> = modules.iter().flat_map(|m| check_limits(m)).collect();
    if !too_big.is_empty() {
        return Err(too_big);
    }
    // The writer works on the GPU-level IR: layouts on every tile type and every data
    // movement between threads explicit (see crate::gpu).
    let gpu: Vec<Module> = modules
        .iter()
        .map(|m| {
            let mut g = (*m).clone();
            crate::gpu::convert_to_gpu(&mut g, opts);
            g
        })
        .collect();
    compile_gpu(&gpu, opts, source)
}

/// The bytes of registers one tile block can hold: 65,536 32-bit registers, the register
/// file of an SM on sm_80 to sm_100 (and the most one tile block may use).
pub const REGISTER_FILE_BYTES: u64 = 65_536 * 4;

/// Rejects, before any conversion, the operations whose tiles no GPU can hold: an
/// `mmaf`/`mmai` keeps its accumulator (and reads its operands) in registers, so a
/// product whose tiles exceed the register file of a tile block cannot run, and lowering
/// it anyway took gigabytes and minutes (a 4096x4096 product: 5 GB and 300 s; 2048x2048:
/// 210 MB of PTX). Elementwise chains on big tiles are lowered through loops and are not
/// limited here.
pub fn check_limits(m: &Module) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let file = m.file().unwrap_or(tilec_diag::FileId(0));
    // The 13.3 ops and views that have no lowering yet, and memory of the 4-bit types
    // (which the interpreter refuses too): refused by name rather than emitted as
    // something else.
    m.walk(|op| {
        let types = m
            .operands(op)
            .chain(m.results(op))
            .chain(
                m.regions(op)
                    .iter()
                    .flat_map(|&r| m.region_blocks(r).iter())
                    .flat_map(|&b| m.block_args(b).iter().copied()),
            )
            .map(|v| m.value_type(v));
        let types: Vec<Type> = types.collect();
        let unsupported = types.iter().find_map(|&t| four_bit_memory(m, t)).or_else(|| {
            // A kernel argument is a scalar in memory (the parameter space).
            if m.opcode(op) != Opcode::Entry {
                return None;
            }
            let body = m.entry_block(m.region(op, 0))?;
            m.block_args(body).iter().find_map(|&a| {
                four_bit(m.ctx.types.element_type(m.value_type(a)))
            })
        });
        let what = match (unsupported, m.opcode(op)) {
            (Some(name), _) => Some(format!(
                "tilec's PTX backend does not lower memory of the 4-bit element type '{name}' (two elements to a byte; 'tilec run' refuses it too): keep such tiles in registers and move them as bytes with 'pack'/'unpack'"
            )),
            (
                None,
                Opcode::TestingBytecodeNewAttribute
                | Opcode::TestingBytecodeEvolution,
            ) => Some(unlowered(&format!("'{}'", m.def(op).name))),
            _ => None,
        };
        if let Some(what) = what {
            let span = m.op_span(op).unwrap_or_default();
            out.push(
                Diagnostic::error(codes::PTX_LOWERING, what)
                .at(tilec_diag::Location::new(file, span)),
            );
        }
    });
    if !out.is_empty() {
        return out;
    }
    m.walk(|op| {
        if !matches!(m.opcode(op), Opcode::MmaF | Opcode::MmaI) {
            return;
        }
        for (what, v) in m
            .operands(op)
            .zip(["left operand", "right operand", "accumulator"])
            .map(|(v, w)| (w, v))
        {
            let ty = m.value_type(v);
            let n: u64 = m.ctx.types.shape(ty).iter().map(|&d| d.max(0) as u64).product();
            let elem = m.ctx.types.element_type(ty);
            // Narrow elements are packed, but never fewer than a byte each.
            let bytes = n.saturating_mul(elem_bytes(elem).max(1) as u64);
            if bytes > REGISTER_FILE_BYTES {
                let span = m.op_span(op).unwrap_or_default();
                out.push(
                    Diagnostic::error(
                        codes::PTX_LOWERING,
                        format!(
                            "the {what} of this {} is {} ({} KiB), more than the {} KiB of registers a tile block holds (65536 32-bit registers): multiply smaller tiles (loop over M, N and K)",
                            m.def(op).name,
                            m.ctx.types.to_string(ty, false),
                            bytes / 1024,
                            REGISTER_FILE_BYTES / 1024
                        ),
                    )
                    .at(tilec_diag::Location::new(file, span)),
                );
                return;
            }
        }
    });
    out
}

/// The message for a 13.3 feature the backend does not lower yet.
fn unlowered(what: &str) -> String {
    format!(
        "tilec's PTX backend does not lower {what} yet ('tilec run' interprets it and the bytecode writer encodes it)"
    )
}

/// The 4-bit element type of the memory `t` points to or views (a pointer, a tile of
/// pointers, a tensor or other view), if it is one: the backend holds `i4` and
/// `f4E2M1FN` in registers but has no layout for two of them in a byte of global memory.
fn four_bit_memory(m: &Module, t: Type) -> Option<&'static str> {
    let types = &m.ctx.types;
    match types.get(t) {
        TypeData::Tile { elem, .. } => match types.get(*elem) {
            TypeData::Ptr(p) => four_bit(*p),
            _ => None,
        },
        TypeData::TensorView { elem, .. } => four_bit(*elem),
        TypeData::PartitionView { tensor_view, .. }
        | TypeData::StridedView { tensor_view, .. }
        | TypeData::GatherScatterView { tensor_view, .. } => four_bit_memory(m, *tensor_view),
        TypeData::Ptr(p) => four_bit(*p),
        _ => None,
    }
}

/// The name of `elem` if it is one of the 4-bit element types.
fn four_bit(elem: Type) -> Option<&'static str> {
    match elem {
        Type::I4 => Some("i4"),
        Type::F4E2M1FN => Some("f4E2M1FN"),
        _ => None,
    }
}

/// Compiles modules already in the GPU-level IR (the output of
/// [`crate::gpu::convert_to_gpu`], possibly rewritten further) into one PTX module, after
/// checking them with [`crate::gpu::verify_gpu`]: a violation is an internal error.
pub fn compile_gpu(
    gpu: &[Module],
    opts: &Options,
    source: Option<&str>,
) -> Result<String, Vec<Diagnostic>> {
    compile_gpu_stats(gpu, opts, source).map(|(ptx, _)| ptx)
}

/// [`compile`], with the shared-memory traffic of the tensor-core operands
/// ([`crate::banks::SmemStats`]).
pub fn compile_stats(
    m: &Module,
    opts: &Options,
    source: Option<&str>,
) -> Result<(String, crate::banks::SmemStats), Vec<Diagnostic>> {
    let too_big = check_limits(m);
    if !too_big.is_empty() {
        return Err(too_big);
    }
    let mut g = m.clone();
    crate::gpu::convert_to_gpu(&mut g, opts);
    compile_gpu_stats(&[g], opts, source)
}

/// [`compile_gpu`], with the shared-memory traffic of the tensor-core operands
/// ([`crate::banks::SmemStats`]).
pub fn compile_gpu_stats(
    gpu: &[Module],
    opts: &Options,
    source: Option<&str>,
) -> Result<(String, crate::banks::SmemStats), Vec<Diagnostic>> {
    compile_gpu_report(gpu, opts, source).map(|w| (w.ptx, w.smem))
}

/// What the writer produced: the PTX and the shared-memory traffic of the tensor-core
/// operands.
#[derive(Debug, Default)]
pub struct Written {
    /// The PTX module.
    pub ptx: String,
    /// Shared-memory traffic of the tensor-core operands ([`crate::banks::SmemStats`]).
    pub smem: crate::banks::SmemStats,
}

/// [`compile_gpu`], with everything the writer reports ([`Written`]).
pub fn compile_gpu_report(
    gpu: &[Module],
    opts: &Options,
    source: Option<&str>,
) -> Result<Written, Vec<Diagnostic>> {
    let mut data = ModuleData {
        source: source.map(|s| tilec_diag::SourceFile::new(opts.file_name.clone(), s)),
        ..ModuleData::default()
    };
    let mut diags = Vec::new();
    let mut bodies = String::new();
    let mut skipped = Vec::new();
    for m in gpu {
        if let Err(errors) = crate::gpu::verify_gpu(m, opts) {
            for e in errors {
                let span = e.op.and_then(|op| m.op_span(op)).unwrap_or_default();
                let file = m.file().unwrap_or(tilec_diag::FileId(0));
                diags.push(
                    Diagnostic::error(
                        codes::GPU_INVALID_IR,
                        format!(
                            "internal error: convert-to-gpu produced invalid GPU-level IR: {}",
                            e.message
                        ),
                    )
                    .at(tilec_diag::Location::new(file, span)),
                );
            }
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    for m in gpu {
        data.globals.clear();
        let mut entries = Vec::new();
        let mut globals = Vec::new();
        m.walk(|op| match m.opcode(op) {
            Opcode::Entry => entries.push(op),
            Opcode::Global => globals.push(op),
            Opcode::TestingFunc => skipped.push(symbol(m, op)),
            _ => {}
        });
        for g in &globals {
            emit_global(m, *g, &mut data);
        }
        for e in &entries {
            let base = ptx_ident(&symbol(m, *e));
            let name = data.fresh_name(&base);
            if name != base {
                let _ = writeln!(bodies, "// @{base} of a later chunk, renamed {name}");
            }
            match emit_entry(m, *e, &name, opts, &mut data) {
                Ok(text) => bodies.push_str(&text),
                Err(mut d) => diags.append(&mut d),
            }
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "//\n// Generated by tilec {}\n//\n",
        env!("CARGO_PKG_VERSION")
    );
    let _ = writeln!(out, ".version {}", ptx_version(opts.arch, data.min_version));
    let _ = writeln!(out, ".target {}", opts.arch.name());
    let _ = writeln!(out, ".address_size 64\n");
    if opts.line_info {
        let _ = writeln!(out, ".file 1 \"{}\"", opts.file_name.replace('"', "\\\""));
        for (i, f) in data.files.iter().enumerate() {
            let _ = writeln!(out, ".file {} \"{}\"", i + 2, f.replace('"', "\\\""));
        }
    }
    if data.uses_vprintf {
        out.push_str(".extern .func (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0,\n\t.param .b64 vprintf_param_1\n)\n;\n");
    }
    for s in &skipped {
        let _ = writeln!(
            out,
            "// testing$func @{s} is not a kernel and is not emitted"
        );
    }
    for d in &data.decls {
        out.push_str(d);
        out.push('\n');
    }
    if !data.decls.is_empty() || !skipped.is_empty() || data.uses_vprintf {
        out.push('\n');
    }
    out.push_str(&bodies);
    Ok(Written {
        ptx: out,
        smem: data.smem_stats,
    })
}

fn symbol(m: &Module, op: Op) -> String {
    m.sym_name(op).unwrap_or("kernel").to_string()
}

/// A symbol as a PTX identifier (letters, digits, `_`, `$`).
pub fn ptx_ident(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '$' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

impl ModuleData {
    /// `base`, or `base_N` when an earlier chunk already used it.
    fn fresh_name(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        if self.used.contains(&name) {
            let n = self.next_suffix.entry(base.to_string()).or_insert(0);
            loop {
                *n += 1;
                name = format!("{base}_{n}");
                if !self.used.contains(&name) {
                    break;
                }
            }
        }
        self.used.insert(name.clone());
        name
    }
}

fn emit_global(m: &Module, op: Op, data: &mut ModuleData) {
    let sym = symbol(m, op);
    let name = data.fresh_name(&ptx_ident(&sym));
    data.globals.insert(sym, name.clone());
    let align = m
        .attr_named(op, "alignment")
        .and_then(|a| m.ctx.attrs.get_int(a))
        .filter(|a| *a > 0)
        .unwrap_or(8);
    let Some(AttrData::Dense(d)) = m.attr_named(op, "value").map(|a| m.ctx.attrs.get(a)) else {
        return;
    };
    let elem = m.ctx.types.element_type(d.ty);
    let n: i64 = m.ctx.types.shape(d.ty).iter().product();
    let bytes = dense_bytes(elem, &d.values, d.splat, n as usize);
    // PTX zero-fills a global without an initializer: an all-zero one needs none.
    if bytes.iter().all(|b| *b == 0) {
        data.decls.push(format!(
            ".global .align {align} .b8 {name}[{}];",
            bytes.len()
        ));
        return;
    }
    data.decls.push(format!(
        ".global .align {align} .b8 {name}[{}] = {{{}}};",
        bytes.len(),
        join_bytes(&bytes)
    ));
}

/// The register/memory word of an element whose attribute (and bytecode) encoding is `bits`: the same
/// bits, except tf32, whose 19-bit pattern (sign, 8 exponent, 10 mantissa bits) is the
/// top 19 bits of the f32 word that holds it.
pub(crate) fn machine_bits(elem: Type, bits: u64) -> u64 {
    match elem {
        Type::TF32 => (bits & 0x7_FFFF) << 13,
        // Held sign-extended, like every narrow integer.
        Type::I4 => tilec_ir::util::sign_extend(bits, 4) as u64,
        _ => bits,
    }
}

pub(crate) fn dense_bytes(elem: Type, values: &[u64], splat: bool, n: usize) -> Vec<u8> {
    let size = elem_bytes(elem) as usize;
    let mut bytes = Vec::with_capacity(n * size);
    for i in 0..n {
        let v = machine_bits(elem, if splat { values[0] } else { values[i] });
        bytes.extend_from_slice(&v.to_le_bytes()[..size]);
    }
    bytes
}

/// `b0, b1, ...`: an initializer list, written straight into one string (a global of 2^24
/// elements has 64 MiB of bytes; a string per byte took gigabytes).
pub(crate) fn join_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 4);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{b}");
    }
    out
}

fn param_type(m: &Module, ty: Type) -> Option<(Type, &'static str)> {
    let TypeData::Tile { shape, elem, .. } = m.ctx.types.get(ty) else {
        return None;
    };
    if !shape.is_empty() {
        return None;
    }
    let p = match *elem {
        Type::I1 | Type::I8 => ".u8",
        Type::I16 | Type::F16 | Type::BF16 => ".b16",
        Type::I32 => ".u32",
        Type::F32 | Type::TF32 => ".f32",
        Type::F64 => ".f64",
        Type::F8E4M3FN | Type::F8E5M2 | Type::F8E8M0FNU => ".u8",
        _ => ".u64",
    };
    Some((*elem, p))
}

fn emit_entry(
    m: &Module,
    op: Op,
    name: &str,
    opts: &Options,
    data: &mut ModuleData,
) -> Result<String, Vec<Diagnostic>> {
    let block = m.entry_block(m.region(op, 0)).expect("entry has a body");
    // The warps this entry's layouts were made for (convert-to-gpu may choose them per
    // kernel): its `.reqntid`.
    let opts = &match crate::gpu::entry_warp_bits(m, op) {
        Some(bits) => opts.with_warps(1 << bits),
        None => opts.clone(),
    };
    let mut k = Kernel {
        m,
        opts,
        lines: Vec::new(),
        counts: [0; 6],
        labels: 0,
        tiles: FxHashMap::default(),
        bufs: FxHashMap::default(),
        buf_maps: FxHashMap::default(),
        layouts: FxHashMap::default(),
        smem_top: 0,
        buf_extent: FxHashMap::default(),
        smem_dirty: 0,
        views: FxHashMap::default(),
        dirty: FxHashMap::default(),
        loops: Vec::new(),
        ifs: Vec::new(),
        allocas: FxHashMap::default(),
        generic: false,
        smem_align: 16,
        tid: String::new(),
        module_data: data,
        diags: Vec::new(),
        last_loc: None,
        stream: None,
        cur_op: None,
        name: name.to_string(),
        claims: Vec::new(),
        scratch_slots: 32,
        threads: opts.threads(),
        bar_threads: None,
        ctas: tilec_gpuir::cluster::entry_ctas(m, op),
    };
    if k.ctas > 1 && opts.arch.sm() < 90 {
        let n = k.ctas;
        k.error_at_op(
            op,
            &format!(
                "thread-block clusters need sm_90 or newer (this kernel's tile block is spread over {n} CTAs)"
            ),
        );
    }
    if let Some(n) = tilec_gpuir::cluster::entry_max_registers(m, op)
        && !(24..=255).contains(&n)
    {
        k.error_at_op(
            op,
            &format!("a kernel's register budget (ttg.max_registers) is 24 to 255 registers per thread, not {n}"),
        );
    }
    if k.ctas > 1 {
        // `.blocksareclusters` is PTX ISA 9.0.
        let need = k.module_data.min_version.map_or((9, 0), |w| w.max((9, 0)));
        k.module_data.min_version = Some(need);
    }
    let mut params = Vec::new();
    k.tid = k.reg(RegClass::B32);
    let tid = k.tid.clone();
    k.ins(format!("mov.u32 {tid}, %tid.x;"));
    k.prepare_scratch_claims(op);
    k.place_allocas(op);
    for (i, arg) in m.block_args(block).iter().enumerate() {
        let pname = format!("{name}_param_{i}");
        let ty = m.value_type(*arg);
        let Some((elem, pty)) = param_type(m, ty) else {
            k.error_at_value(*arg, "kernel arguments must be rank-0 tiles");
            continue;
        };
        params.push(format!("\t.param {pty} {pname}"));
        let class = class_of(elem);
        let r = k.reg(class);
        match elem {
            Type::I1 => {
                let t = k.reg(RegClass::B16);
                k.ins(format!("ld.param.u8 {t}, [{pname}];"));
                k.ins(format!("setp.ne.b16 {r}, {t}, 0;"));
            }
            Type::I8 => k.ins(format!("ld.param.s8 {r}, [{pname}];")),
            Type::I16 => k.ins(format!("ld.param.s16 {r}, [{pname}];")),
            Type::F8E4M3FN | Type::F8E5M2 | Type::F8E8M0FNU => {
                k.ins(format!("ld.param.u8 {r}, [{pname}];"))
            }
            _ => k.ins(format!("ld.param{pty} {r}, [{pname}];")),
        }
        k.set_scalar(*arg, elem, r);
    }
    k.emit_block(block);
    // The kernel's shared memory: the highest end of what gpu-allocate-shared placed.
    let (smem_bytes, smem_op) = tilec_gpuir::smem::peak(m, op).map_or((0, None), |(end, o)| {
        (u32::try_from(end).unwrap_or(u32::MAX), Some(o))
    });
    let limit = opts.smem_limit();
    if smem_bytes > limit {
        // ptxas or the launch would reject the kernel: say which op needs the memory.
        let at = smem_op.unwrap_or(op);
        let msg = if opts.dynamic_smem {
            format!(
                "this operation needs {} bytes of shared memory, more than the {limit} bytes ({} KiB) a CTA may use on {}; use smaller tiles or fewer --num-stages",
                smem_bytes,
                limit / 1024,
                opts.arch.name()
            )
        } else {
            format!(
                "this operation needs {} bytes of shared memory, more than the {limit} bytes ({} KiB) a kernel may declare statically on {}; use smaller tiles",
                smem_bytes,
                limit / 1024,
                opts.arch.name()
            )
        };
        k.error_at_op(at, &msg);
    }
    if !k.diags.is_empty() {
        return Err(k.diags);
    }
    let mut out = String::new();
    // Over 48 KiB: dynamic shared memory, whose size the launch must pass
    // (docs/abi.md, "Shared memory"): the comment line tells the launcher how much.
    // Without it (`static_opt_in`), static however large: the launch opts in.
    let dynamic = opts.dynamic_smem && smem_bytes > MAX_STATIC_SMEM;
    if dynamic {
        let _ = writeln!(out, "// {DYNAMIC_SMEM_MARK} {name} {}", smem_bytes);
        let _ = writeln!(
            out,
            ".extern .shared .align {} .b8 __smem_{name}[];\n",
            k.smem_align
        );
    }
    let _ = writeln!(out, "// .globl\t{name}");
    let _ = writeln!(out, ".visible .entry {name}(");
    out.push_str(&params.join(",\n"));
    if !params.is_empty() {
        out.push('\n');
    }
    let _ = writeln!(out, ")");
    let _ = writeln!(out, ".reqntid {}, 1, 1", k.threads);
    if k.ctas > 1 {
        // The launch's grid counts clusters of `ctas` CTAs (docs/abi.md, "Clusters").
        let _ = writeln!(out, ".reqnctapercluster {}, 1, 1", k.ctas);
        let _ = writeln!(out, ".blocksareclusters");
    }
    if let Some(n) = tilec_gpuir::cluster::entry_min_ctas(m, op) {
        // The occupancy hint: ptxas caps the registers so that n CTAs fit an SM.
        let _ = writeln!(out, ".minnctapersm {n}");
    }
    if let Some(n) = tilec_gpuir::cluster::entry_max_registers(m, op) {
        let _ = writeln!(out, ".maxnreg {n}");
    }
    out.push_str("{\n");
    for c in RegClass::ALL {
        let n = k.counts[c as usize];
        if n > 0 {
            let _ = writeln!(out, "\t.reg {} \t{}<{}>;", c.decl(), c.prefix(), n + 1);
        }
    }
    if smem_bytes > 0 && !dynamic {
        let _ = writeln!(
            out,
            "\t.shared .align {} .b8 __smem_{name}[{}];",
            k.smem_align, smem_bytes
        );
    }
    out.push('\n');
    for l in &k.lines {
        if l.ends_with(':') {
            let _ = writeln!(out, "{l}");
        } else {
            let _ = writeln!(out, "\t{}", l.replace("__smem", &format!("__smem_{name}")));
        }
    }
    out.push_str("}\n\n");
    Ok(out)
}

impl<'a> Kernel<'a> {
    pub fn ins(&mut self, s: impl Into<String>) {
        let s = s.into();
        // A label is a merge point: what ran before it is not known here.
        if s.ends_with(':') {
            self.smem_dirty = u32::MAX;
        }
        self.lines.push(s);
    }

    pub fn error_at_op(&mut self, op: Op, msg: &str) {
        self.error_at(self.m.op_span(op), msg);
    }

    fn error_at_value(&mut self, v: Value, msg: &str) {
        self.error_at(self.m.value_span(v), msg);
    }

    fn error_at(&mut self, span: Option<tilec_diag::Span>, msg: &str) {
        let span = span.unwrap_or(tilec_diag::Span::new(0, 0));
        let file = self.m.file().unwrap_or(tilec_diag::FileId(0));
        self.diags.push(
            Diagnostic::error(codes::PTX_LOWERING, msg).at(tilec_diag::Location::new(file, span)),
        );
    }

    /// The case of enum attribute `name` of `op`, if present and of that kind.
    pub fn enum_attr(&self, op: Op, name: &str, kind: tilec_ir::EnumKind) -> Option<u8> {
        self.m
            .attr_named(op, name)
            .and_then(|a| self.m.ctx.attrs.get_enum(a, kind))
    }

    /// The integer attribute `name` of `op` (0 when absent).
    pub fn int_attr(&self, op: Op, name: &str) -> i64 {
        crate::gpu::int_attr(self.m, op, name)
    }

    /// The shape of a tile-typed value.
    pub fn shape(&self, v: Value) -> Vec<i64> {
        self.m.ctx.types.shape(self.m.value_type(v)).to_vec()
    }

    /// The element type of a tile-typed value.
    pub fn elem(&self, v: Value) -> Type {
        self.m.ctx.types.element_type(self.m.value_type(v))
    }

    pub fn warp_bits(&self) -> u32 {
        self.opts.warp_bits()
    }

    /// The default layout for a tile shape.
    pub fn default_layout(&self, shape: &[i64]) -> Rc<Layout> {
        Rc::new(Layout::blocked(shape_bits(shape), self.warp_bits()))
    }

    pub fn set_scalar(&mut self, v: Value, elem: Type, reg: String) {
        let layout = Rc::new(Layout::replicated(0, self.warp_bits()));
        self.tiles.insert(
            v,
            Tv {
                layout,
                regs: vec![reg],
                elem,
            },
        );
    }

    pub fn set_tile(&mut self, v: Value, tv: Tv) {
        self.tiles.insert(v, tv);
    }

    /// The layout of a tile value: the encoding of its type in the GPU-level IR (the
    /// blocked layout for a type without one, which the GPU-level verifier rules out).
    pub fn layout_of(&mut self, v: Value) -> Rc<Layout> {
        let l = self.type_layout(v);
        match &self.stream {
            // Inside a streaming loop, tiles in the loop's layout have its slots of one
            // iteration.
            Some(s) if *l == *s.full => s.sub.clone(),
            _ => l,
        }
    }

    /// The layout the type of `v` encodes.
    fn type_layout(&mut self, v: Value) -> Rc<Layout> {
        let ty = self.m.value_type(v);
        if let Some(l) = self.layouts.get(&ty) {
            return l.clone();
        }
        let shape = self.shape(v);
        let types = &self.m.ctx.types;
        let l = types
            .encoding(ty)
            .and_then(|e| Layout::from_encoding(types.get(e), &shape, self.warp_bits()).ok())
            .map(Rc::new)
            .unwrap_or_else(|| self.default_layout(&shape));
        self.layouts.insert(ty, l.clone());
        l
    }

    /// The registers of `v` (materialising constants in their layout).
    pub fn tile(&mut self, v: Value) -> Tv {
        if let Some(t) = self.tiles.get(&v) {
            return t.clone();
        }
        let l = self.layout_of(v);
        self.tile_in(v, &l)
    }

    /// The registers of `v` in layout `l`. In the GPU-level IR every operand already is in
    /// the layout its op needs: conversions are `ttg` ops of their own.
    pub fn tile_in(&mut self, v: Value, l: &Rc<Layout>) -> Tv {
        if let Some(t) = self.tiles.get(&v).cloned() {
            debug_assert!(
                *t.layout == **l,
                "operand in layout {} where {} is needed",
                t.layout,
                l
            );
            if *t.layout == **l {
                return t;
            }
            return self.convert(&t, &self.shape(v), l);
        }
        if let Some(op) = self.m.defining_op(v)
            && self.m.opcode(op) == Opcode::Constant
        {
            return self.constant_in(op, v, l);
        }
        // A value with no registers (only reachable for unsupported producers, which have
        // already been reported): give it zeros so emission can go on.
        let elem = self.elem(v);
        let regs = (0..l.slots()).map(|_| self.zero(elem)).collect();
        Tv {
            layout: l.clone(),
            regs,
            elem,
        }
    }

    /// The single register of a rank-0 value.
    pub fn scalar(&mut self, v: Value) -> String {
        let t = self.tile(v);
        t.regs[0].clone()
    }

    /// A register holding zero of the element type.
    pub fn zero(&mut self, elem: Type) -> String {
        self.imm(elem, 0)
    }

    /// A register holding the element bit pattern `bits`.
    pub fn imm(&mut self, elem: Type, bits: u64) -> String {
        let c = class_of(elem);
        let r = self.reg(c);
        let text = match c {
            RegClass::Pred => {
                if bits & 1 == 1 {
                    format!("setp.eq.u32 {r}, 0, 0;")
                } else {
                    format!("setp.ne.u32 {r}, 0, 0;")
                }
            }
            RegClass::B16 => format!("mov.b16 {r}, {};", bits & 0xFFFF),
            RegClass::B32 => format!("mov.b32 {r}, {};", sext(elem, bits) as i32),
            RegClass::B64 => format!("mov.b64 {r}, {};", bits as i64),
            RegClass::F32 => format!("mov.b32 {r}, 0F{:08X};", bits as u32),
            RegClass::F64 => format!("mov.b64 {r}, 0D{:016X};", bits),
        };
        self.ins(text);
        r
    }

    fn constant_in(&mut self, op: Op, v: Value, l: &Rc<Layout>) -> Tv {
        let elem = self.elem(v);
        let Some(AttrData::Dense(d)) = self.m.attr(op, 0).map(|a| self.m.ctx.attrs.get(a)) else {
            let regs = (0..l.slots()).map(|_| self.zero(elem)).collect();
            return Tv {
                layout: l.clone(),
                regs,
                elem,
            };
        };
        let values = d.values.clone();
        let first = values[0];
        if d.splat || values.iter().all(|x| *x == first) {
            let r = self.imm(elem, machine_bits(elem, first));
            return Tv {
                layout: l.clone(),
                regs: vec![r; l.slots()],
                elem,
            };
        }
        // A dense constant: a table in global memory, read at each slot's element.
        let n = values.len();
        let bytes = dense_bytes(elem, &values, false, n);
        let id = self.module_data.next_const;
        self.module_data.next_const += 1;
        let name = format!("__tilec_cst{id}");
        self.module_data.decls.push(format!(
            ".global .align 8 .b8 {name}[{}] = {{{}}};",
            bytes.len(),
            join_bytes(&bytes)
        ));
        let base = self.reg(RegClass::B64);
        self.ins(format!("mov.u64 {base}, {name};"));
        let tb = self.thread_base(l);
        let size = elem_bytes(elem);
        let off = self.reg(RegClass::B64);
        self.ins(format!("mul.wide.u32 {off}, {tb}, {size};"));
        self.ins(format!("add.s64 {base}, {base}, {off};"));
        let mut regs = Vec::with_capacity(l.slots());
        for s in 0..l.slots() {
            let e = l.slot_elem(s) * size as u64;
            let r = self.load_elem("ld.global", elem, &format!("[{base}+{e}]"));
            regs.push(r);
        }
        Tv {
            layout: l.clone(),
            regs,
            elem,
        }
    }

    /// Loads one element with `ld` (e.g. `ld.global`, `ld.shared`) from `addr`
    /// (`[reg+off]`) into a fresh register.
    pub fn load_elem(&mut self, ld: &str, elem: Type, addr: &str) -> String {
        let r = self.reg(class_of(elem));
        self.load_into(ld, elem, addr, &r, None);
        r
    }

    /// Loads one element into `dst`, predicated by `pred` when given.
    pub fn load_into(&mut self, ld: &str, elem: Type, addr: &str, dst: &str, pred: Option<&str>) {
        let guard = pred.map(|p| format!("@{p} ")).unwrap_or_default();
        if elem == Type::I1 {
            let t = self.reg(RegClass::B16);
            self.ins(format!("mov.b16 {t}, 0;"));
            self.ins(format!("{guard}{ld}.u8 {t}, {addr};"));
            // A masked-off i1 load keeps the padding already in dst.
            match pred {
                Some(p) => {
                    let q = self.reg(RegClass::Pred);
                    self.ins(format!("setp.ne.b16 {q}, {t}, 0;"));
                    self.ins(format!("@{p} mov.pred {dst}, {q};"));
                }
                None => self.ins(format!("setp.ne.b16 {dst}, {t}, 0;")),
            }
            return;
        }
        let ty = mem_type(elem);
        self.ins(format!("{guard}{ld}{ty} {dst}, {addr};"));
    }

    /// Stores one element from `src` to `addr`, predicated by `pred` when given.
    pub fn store_elem(&mut self, st: &str, elem: Type, addr: &str, src: &str, pred: Option<&str>) {
        let guard = pred.map(|p| format!("@{p} ")).unwrap_or_default();
        match elem {
            Type::I1 => {
                let t = self.reg(RegClass::B16);
                self.ins(format!("selp.u16 {t}, 1, 0, {src};"));
                self.ins(format!("{guard}{st}.u8 {addr}, {t};"));
            }
            Type::I4
            | Type::I8
            | Type::F8E4M3FN
            | Type::F8E5M2
            | Type::F8E8M0FNU
            | Type::F4E2M1FN => self.ins(format!("{guard}{st}.u8 {addr}, {src};")),
            Type::I16 => self.ins(format!("{guard}{st}.u16 {addr}, {src};")),
            _ => self.ins(format!("{guard}{st}{} {addr}, {src};", mem_type(elem))),
        }
    }

    /// A `.b32` register holding the thread part of the element index of layout `l`.
    pub fn thread_base(&mut self, l: &Layout) -> String {
        let tid = self.tid.clone();
        let moves: Vec<(u32, u32)> = l
            .lane
            .iter()
            .chain(l.warp.iter())
            .enumerate()
            .filter_map(|(i, b)| b.map(|b| (i as u32, b as u32)))
            .collect();
        let acc = self.move_bits(&tid, &moves);
        // In a streaming loop, the loop counter supplies the rest of the register bits.
        if let Some(s) = &self.stream
            && *l == *s.sub
        {
            let bits = s.bits.clone();
            self.ins(format!("or.b32 {acc}, {acc}, {bits};"));
        }
        acc
    }

    /// A `.b32` register with bit `src` of `x` at bit `dst`, for each `(src, dst)` of
    /// `moves` (the other bits zero). Runs of consecutive sources going to consecutive
    /// destinations move with one `bfe` (and `shl`).
    pub fn move_bits(&mut self, x: &str, moves: &[(u32, u32)]) -> String {
        let acc = self.reg(RegClass::B32);
        if moves.is_empty() {
            self.ins(format!("mov.u32 {acc}, 0;"));
        }
        let mut i = 0;
        while i < moves.len() {
            let (s0, d0) = moves[i];
            let mut w = 1;
            while i + w < moves.len()
                && moves[i + w].0 == s0 + w as u32
                && moves[i + w].1 == d0 + w as u32
            {
                w += 1;
            }
            // The first run lands in the result itself; later ones are or-ed into it.
            let t = if i == 0 {
                acc.clone()
            } else {
                self.reg(RegClass::B32)
            };
            self.ins(format!("bfe.u32 {t}, {x}, {s0}, {w};"));
            if d0 > 0 {
                self.ins(format!("shl.b32 {t}, {t}, {d0};"));
            }
            if i > 0 {
                self.ins(format!("or.b32 {acc}, {acc}, {t};"));
            }
            i += w;
        }
        acc
    }

    /// A predicate that is true in exactly one thread of each group of threads holding the
    /// same elements of layout `l` (the thread whose replicated lane and warp bits are 0).
    pub fn owner(&mut self, l: &Layout) -> Option<String> {
        let mask: u32 = l
            .lane
            .iter()
            .chain(l.warp.iter())
            .enumerate()
            .filter(|(_, b)| b.is_none())
            .fold(0, |m, (i, _)| m | 1 << i);
        if mask == 0 {
            return None;
        }
        let tid = self.tid.clone();
        let t = self.reg(RegClass::B32);
        let p = self.reg(RegClass::Pred);
        self.ins(format!("and.b32 {t}, {tid}, {mask};"));
        self.ins(format!("setp.eq.u32 {p}, {t}, 0;"));
        Some(p)
    }

    /// The address of the shared memory gpu-allocate-shared placed for the op being
    /// written (its buffer, or its scratch: `allocation.offset`, `allocation.size`), of
    /// which it uses `bytes`: a `.b32` register. Using more than was recorded is an
    /// internal error (the writer and the plan in `tilec_gpuir::smem` disagree).
    pub fn smem(&mut self, bytes: u32) -> String {
        let m = self.m;
        let (base, size) = match self.cur_op {
            Some(op) => match (
                tilec_gpuir::smem::offset(m, op),
                tilec_gpuir::smem::size(m, op),
            ) {
                (Some(at), Some(size)) => {
                    if u64::from(bytes) > size {
                        self.error_at_op(
                            op,
                            &format!(
                                "internal error: the lowering uses {bytes} bytes of shared memory where {size} were planned"
                            ),
                        );
                    }
                    (at as u32, size as u32)
                }
                _ => {
                    self.error_at_op(
                        op,
                        "shared-memory scratch without 'allocation.offset' and 'allocation.size' (run gpu-allocate-shared)",
                    );
                    (self.smem_top, bytes)
                }
            },
            None => (self.smem_top, bytes),
        };
        let end = base + size.next_multiple_of(16);
        self.smem_dirty = self.smem_dirty.max(end);
        let r = self.reg(RegClass::B32);
        self.ins(format!("mov.u32 {r}, __smem;"));
        if base > 0 {
            self.ins(format!("add.s32 {r}, {r}, {base};"));
        }
        r
    }

    /// Places every `alloca` of entry `entry` at the bottom of `__smem` (each zero-filled
    /// here, then a barrier): an `alloca` that runs again reuses its buffer, as in the
    /// interpreter. More than the static shared-memory limit is an error at the `alloca`
    /// that crosses it.
    fn place_allocas(&mut self, entry: Op) {
        let m = self.m;
        let mut ops = Vec::new();
        m.walk_op(entry, &mut |o| {
            if m.opcode(o) == Opcode::Alloca {
                ops.push(o);
            }
        });
        if ops.is_empty() {
            return;
        }
        self.generic = true;
        // At the offsets gpu-allocate-shared recorded (`allocation.offset`).
        let mut top: u64 = 0;
        for o in ops {
            let (bytes, align) = tilec_gpuir::smem::alloca_bytes(m, o);
            let Some(at) = tilec_gpuir::smem::offset(m, o) else {
                self.error_at_op(
                    o,
                    "alloca without 'allocation.offset' (run gpu-allocate-shared)",
                );
                return;
            };
            top = top.max(at.saturating_add(bytes).next_multiple_of(16));
            if top > MAX_STATIC_SMEM as u64 || align > MAX_STATIC_SMEM as u64 {
                let msg = format!(
                    "the allocas of this kernel need {top} bytes of shared memory (aligned to {align}), more than the {MAX_STATIC_SMEM} bytes (48 KiB) a kernel may declare statically"
                );
                self.error_at_op(o, &msg);
                return;
            }
            self.smem_align = self.smem_align.max(align);
            self.allocas.insert(o, at as u32);
        }
        let top = top as u32;
        self.smem_top = top;
        // Zero-fill: 16 bytes per thread and step.
        let base = self.reg(RegClass::B32);
        self.ins(format!("mov.u32 {base}, __smem;"));
        let t16 = self.reg(RegClass::B32);
        let tid = self.tid.clone();
        self.ins(format!("shl.b32 {t16}, {tid}, 4;"));
        let zero = self.reg(RegClass::B32);
        self.ins(format!("mov.b32 {zero}, 0;"));
        let step = 16 * self.opts.threads();
        let mut off = 0;
        while off < top {
            let o = self.reg(RegClass::B32);
            self.ins(format!("add.s32 {o}, {t16}, {off};"));
            let p = self.reg(RegClass::Pred);
            self.ins(format!("setp.lt.u32 {p}, {o}, {top};"));
            let a = self.reg(RegClass::B32);
            self.ins(format!("add.s32 {a}, {base}, {o};"));
            self.ins(format!(
                "@{p} st.shared.v4.u32 [{a}], {{{zero}, {zero}, {zero}, {zero}}};"
            ));
            off += step;
        }
        self.bar();
    }

    /// `alloca`: the generic address of its buffer in shared memory.
    fn emit_alloca(&mut self, op: Op) {
        let r = self.m.result(op, 0);
        let elem = self.elem(r);
        let Some(at) = self.allocas.get(&op).copied() else {
            return self.error_at_op(op, "alloca without a buffer");
        };
        let a = self.reg(RegClass::B32);
        self.ins(format!("mov.u32 {a}, __smem;"));
        if at > 0 {
            self.ins(format!("add.s32 {a}, {a}, {at};"));
        }
        let g = self.reg(RegClass::B64);
        self.ins(format!("cvt.u64.u32 {g}, {a};"));
        self.ins(format!("cvta.shared.u64 {g}, {g};"));
        self.set_scalar(r, elem, g);
    }

    /// The state space of pointer and view accesses: `.global`, or generic (empty) when
    /// the kernel has an `alloca` (whose buffers are in shared memory).
    pub fn gspace(&self) -> &'static str {
        if self.generic { "" } else { ".global" }
    }

    /// `bar.sync 0` (over the threads of `bar_threads` once a warp-specialized region
    /// has begun), unless the previous instruction is already that barrier.
    pub fn bar(&mut self) {
        let bar = self.bar_sync();
        if self.lines.last().is_none_or(|l| *l != bar) {
            self.ins(bar);
        }
        self.smem_dirty = 0;
    }

    /// The CTA barrier instruction: every thread, or (`bar_threads`) only the default
    /// region's of a `ttg.warp_specialize`.
    pub fn bar_sync(&self) -> String {
        match self.bar_threads {
            Some(n) => format!("bar.sync 0, {n};"),
            None => "bar.sync 0;".to_string(),
        }
    }

    /// Emits every op of a block.
    pub fn emit_block(&mut self, block: tilec_ir::Block) {
        let ops: Vec<Op> = self.m.block_ops(block).collect();
        self.emit_ops(&ops);
    }

    fn line_info(&mut self, op: Op) {
        if !self.opts.line_info {
            return;
        }
        let pos = self.op_position(op);
        if let Some((file, line, col)) = pos
            && self.last_loc != Some((file, line, col))
        {
            self.last_loc = Some((file, line, col));
            self.ins(format!(".loc {file} {line} {col}"));
        }
    }

    /// The `.file` number, line and column of `op`: its location (a `loc("f":l:c)`, or
    /// the one inside a `di_loc`, whose file is joined to its `di_file`'s directory when
    /// that names the same file), else its place in the input.
    fn op_position(&mut self, op: Op) -> Option<(u32, u32, u32)> {
        if let Some(loc) = self.m.op_loc(op)
            && let Some((file, line, col)) = loc_position(self.m, loc)
        {
            let input = self.opts.file_name.clone();
            let index = self.module_data.file_index(&file, &input);
            return Some((index, line, col));
        }
        let span = self.m.op_span(op)?;
        let src = self.module_data.source.as_ref()?;
        let (line, col) = src.line_col(span.start);
        Some((1, line, col))
    }

    fn emit_op(&mut self, op: Op) {
        // Ops of a body (reduce, scan, if, loops) are written inside their parent's
        // lowering, which is the op being written again once they are done.
        let parent = self.cur_op.replace(op);
        self.lower_op(op);
        self.cur_op = parent;
    }

    fn lower_op(&mut self, op: Op) {
        use Opcode as O;
        let m = self.m;
        match m.opcode(op) {
            O::MakeToken => {
                self.dirty.insert(m.result(op, 0), false);
            }
            O::JoinTokens => {
                let d = m
                    .operands(op)
                    .any(|t| self.dirty.get(&t).copied().unwrap_or(false));
                self.dirty.insert(m.result(op, 0), d);
            }
            O::Assume | O::PtrToPtr => {
                if let Some(v) = self.views.get(&m.operand(op, 0)).cloned() {
                    // `assume` on a view: the same view (its facts are in the recorded decisions).
                    if m.num_results(op) > 0 {
                        self.views.insert(m.result(op, 0), v);
                    }
                    return;
                }
                let t = self.tile(m.operand(op, 0));
                let elem = self.elem(m.result(op, 0));
                self.set_tile(m.result(op, 0), Tv { elem, ..t });
            }
            O::Constant => {} // materialised at each use, in the layout the use needs
            O::GetTileBlockId | O::GetNumTileBlocks => {
                // A tile block on a cluster of CTAs (`.blocksareclusters`): the grid
                // counts clusters.
                let sreg = match (m.opcode(op) == O::GetTileBlockId, self.ctas > 1) {
                    (true, false) => "%ctaid",
                    (false, false) => "%nctaid",
                    (true, true) => "%clusterid",
                    (false, true) => "%nclusterid",
                };
                for (i, d) in ["x", "y", "z"].iter().enumerate() {
                    let r = self.reg(RegClass::B32);
                    self.ins(format!("mov.u32 {r}, {sreg}.{d};"));
                    self.set_scalar(m.result(op, i), Type::I32, r);
                }
            }
            O::Return => {
                self.release_scratch();
                self.ins("ret;");
            }
            O::Yield => self.emit_yield(op),
            O::Continue => self.emit_continue(op),
            O::Break => self.emit_break(op),
            O::If => self.emit_if(op),
            O::For => self.emit_for(op),
            O::Loop => self.emit_loop(op),
            O::Assert => self.emit_assert(op),
            O::Print => self.emit_print(op),
            O::Barrier => {
                match self.enum_attr(op, "scope", tilec_ir::EnumKind::BarrierScope) {
                    Some(0) => self.ins("bar.warp.sync -1;"),
                    _ => self.bar(),
                }
                if m.num_results(op) > 0 {
                    self.dirty.insert(m.result(op, 0), false);
                }
            }
            O::MakeTensorView
            | O::MakePartitionView
            | O::MakeStridedView
            | O::MakeGatherScatterView => self.emit_make_view(op),
            O::AtomicRedViewTko => self.emit_atomic_red_view(op),
            O::GetTensorShape | O::GetIndexSpaceShape => self.emit_view_shape(op),
            O::LoadViewTko | O::StoreViewTko => self.emit_view_access(op),
            O::LoadPtrTko | O::StorePtrTko => self.emit_ptr_access(op),
            O::AtomicRmwTko | O::AtomicCasTko | O::AtomicLoadTko | O::AtomicStoreTko => {
                self.emit_atomic(op)
            }
            O::GetGlobal => {
                let name = match m.attr_named(op, "name").map(|a| m.ctx.attrs.get(a)) {
                    Some(AttrData::SymbolRef(s)) | Some(AttrData::String(s)) => self
                        .module_data
                        .globals
                        .get(&**s)
                        .cloned()
                        .unwrap_or_else(|| ptx_ident(s)),
                    _ => "global".into(),
                };
                let r = self.reg(RegClass::B64);
                self.ins(format!("mov.u64 {r}, {name};"));
                self.ins(format!("cvta.global.u64 {r}, {r};"));
                let elem = self.elem(m.result(op, 0));
                self.set_scalar(m.result(op, 0), elem, r);
            }
            O::Broadcast => self.emit_broadcast(op),
            O::Reshape => {
                let t = self.tile(m.operand(op, 0));
                self.set_tile(m.result(op, 0), t);
            }
            O::Permute => self.emit_permute(op),
            O::Pack | O::Unpack => self.emit_pack(op),
            O::Cat => self.emit_cat(op),
            O::Extract => self.emit_extract(op),
            O::Iota => self.emit_iota(op),
            O::Reduce => self.emit_reduce(op),
            O::Scan => self.emit_scan(op),
            O::MmaF | O::MmaI => self.emit_mma(op),
            O::Offset => self.emit_offset(op),
            O::Module | O::Entry | O::Global | O::TestingFunc => {}
            O::ConvertLayout => {
                let (src, res) = (m.operand(op, 0), m.result(op, 0));
                let to = self.layout_of(res);
                let t = match self.tiles.get(&src).cloned() {
                    Some(t) => self.convert(&t, &self.shape(src), &to),
                    None => self.tile_in(src, &to), // a constant, materialised again
                };
                self.set_tile(res, t);
            }
            O::LocalAlloc => self.emit_local_alloc(op),
            O::GpuBarrier => self.bar(),
            O::LocalDealloc => self.emit_local_dealloc(op),
            O::AsyncCopyGlobalToLocal => self.emit_async_copy(op),
            O::AsyncCommitGroup => self.ins("cp.async.commit_group;"),
            O::GlobalScratchAlloc => {
                let name = self.name.clone();
                self.emit_global_scratch_alloc(op, &name);
            }
            O::TensormapCreate => self.emit_tensormap_create(op),
            O::InitBarrier => self.emit_mbarrier(op, tma::Mbarrier::Init),
            O::InvalBarrier => self.emit_mbarrier(op, tma::Mbarrier::Inval),
            O::BarrierExpect => self.emit_mbarrier(op, tma::Mbarrier::Expect),
            O::ArriveBarrier => self.emit_mbarrier(op, tma::Mbarrier::Arrive),
            O::WaitBarrier => self.emit_mbarrier(op, tma::Mbarrier::Wait),
            O::AsyncTmaCopyGlobalToLocal => self.emit_tma_copy(op),
            O::AsyncTmaCopyLocalToGlobal => self.emit_tma_store(op),
            O::FenceAsyncShared => self.ins("fence.proxy.async.shared::cta;"),
            O::AsyncTmaStoreWait => {
                let pendings = m
                    .attr_named(op, tilec_gpuir::wgmma::PENDINGS_ATTR)
                    .and_then(|a| m.ctx.attrs.get_int(a))
                    .unwrap_or(0);
                let lead = self.thread0();
                self.ins(format!("@{lead} cp.async.bulk.wait_group {pendings};"));
            }
            O::AsyncWait => {
                let num = m
                    .attr_named(op, "num")
                    .and_then(|a| m.ctx.attrs.get_int(a))
                    .unwrap_or(0);
                self.ins(format!("cp.async.wait_group {num};"));
            }
            O::WarpGroupDotWait => {
                // The awaited products wrote the input's registers: the result is them.
                let pendings = m
                    .attr_named(op, tilec_gpuir::wgmma::PENDINGS_ATTR)
                    .and_then(|a| m.ctx.attrs.get_int(a))
                    .unwrap_or(0);
                self.ins(format!("wgmma.wait_group.sync.aligned {pendings};"));
                let t = self.tile(m.operand(op, 0));
                self.set_tile(m.result(op, 0), t);
            }
            O::PredicateStage => {
                // iv + (maxStage - stage) * step < ub, compared signed.
                let (iv, ub, step) = (
                    self.scalar(m.operand(op, 0)),
                    self.scalar(m.operand(op, 1)),
                    self.scalar(m.operand(op, 2)),
                );
                let ahead = self.int_attr(op, "maxStage") - self.int_attr(op, "stage");
                let t = self.reg(RegClass::B32);
                self.ins(format!("mad.lo.s32 {t}, {step}, {ahead}, {iv};"));
                let p = self.reg(RegClass::Pred);
                self.ins(format!("setp.lt.s32 {p}, {t}, {ub};"));
                self.set_scalar(m.result(op, 0), Type::I1, p);
            }
            O::Mask => self.emit_mask(op),
            O::MaskReturn => {} // read by `emit_mask`
            O::WarpSpecialize => self.emit_warp_specialize(op),
            // Read by `emit_warp_specialize`.
            O::WarpYield | O::WarpReturn => {}

            O::MemDescIndex => self.emit_memdesc_index(op),
            O::MemDescSubslice => self.emit_memdesc_subslice(op),
            O::MemDescReshape => self.emit_memdesc_reshape(op, false),
            O::MemDescReinterpret => self.emit_memdesc_reshape(op, true),
            O::WarpId => self.emit_warp_id(op),
            O::ClusterCtaId => self.emit_cluster_cta_id(op),
            O::ClusterGather => self.emit_cluster_gather(op),
            O::ClusterBarrier => {
                if self.opts.arch.sm() < 90 {
                    self.error_at_op(op, "thread-block clusters need sm_90 or newer");
                }
                self.cluster_barrier();
            }
            O::LocalStore => {
                let (src, dst) = (m.operand(op, 0), m.operand(op, 1));
                let Some(b) = self.bufs.get(&dst).cloned() else {
                    return self
                        .error_at_op(op, "shared-memory buffer written before its allocation");
                };
                let mut t = self.tile(src);
                t.layout = self.through_view(dst, &t.layout);
                let pairs = self.buf_swizzle(dst);
                self.write_smem_swizzled(&t, &b, 0, &pairs);
            }
            O::MemDescTrans => self.emit_memdesc_trans(op),
            O::LocalLoad => self.emit_local_load(op),
            O::UnrealizedConversionCast | O::Unregistered => self.error_at_op(
                op,
                "this operation has no PTX lowering (it is not a tile IR operation)",
            ),
            // Refused by name in `check_limits` before emission; kept apart so that a
            // lowering has its own arm to replace.
            O::Alloca => self.emit_alloca(op),
            O::MmaFScaled => self.emit_mma_scaled(op),
            O::TestingBytecodeNewAttribute | O::TestingBytecodeEvolution => {
                self.error_at_op(op, "this operation has no PTX lowering yet")
            }
            // The elementwise ops (tilec_ir::elementwise_opcodes) and nothing else: a new op
            // must be placed above.
            tilec_ir::elementwise_opcodes!() | O::Select => self.emit_elementwise(op),
        }
    }
}

/// The file, line and column of a `loc(...)` attribute, if it names one.
fn loc_position(m: &Module, loc: tilec_ir::Attr) -> Option<(String, u32, u32)> {
    match m.ctx.attrs.get(loc) {
        AttrData::LocFile { file, line, col } => Some((file.to_string(), *line, *col)),
        AttrData::LocName { child: Some(c), .. } => loc_position(m, *c),
        AttrData::LocCallSite { callee, .. } => loc_position(m, *callee),
        AttrData::LocFused { locs, .. } => locs.iter().find_map(|l| loc_position(m, *l)),
        AttrData::DiLoc { loc, scope } => {
            let (file, line, col) = loc_position(m, *loc)?;
            Some((with_directory(m, *scope, file), line, col))
        }
        _ => None,
    }
}

/// `file` under the directory of the `di_file` of debug-info scope `scope` (a subprogram
/// or lexical block, through its `file` field) when that `di_file` names `file` and has
/// a directory; `file` itself otherwise.
fn with_directory(m: &Module, scope: tilec_ir::Attr, file: String) -> String {
    let AttrData::DiStruct { fields, .. } = m.ctx.attrs.get(scope) else {
        return file;
    };
    let Some((_, f)) = fields.iter().find(|(k, _)| &**k == "file") else {
        return file;
    };
    match m.ctx.attrs.get(*f) {
        AttrData::DiFile { name, directory }
            if **name == *file && !directory.is_empty() && !file.starts_with('/') =>
        {
            format!("{}/{file}", directory.trim_end_matches('/'))
        }
        _ => file,
    }
}

/// The value of a `bits`-encoded integer of type `elem`, sign-extended to 64 bits.
pub(crate) fn sext(elem: Type, bits: u64) -> i64 {
    tilec_ir::util::sign_extend(bits, arith::int_width(elem))
}
