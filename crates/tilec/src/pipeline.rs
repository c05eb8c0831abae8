//! The compilation pipeline: the one place where the stages are chained.
//!
//! ```text
//! bytes ──read──► Module ──verify──► verified ──canonicalize──► canonical
//!        (bytecode by its magic bytes, else text)
//!   ──convert-to-gpu──► GPU-level IR ──write──► PTX
//! ```
//!
//! [`compile`] runs them all on an input file's bytes; [`front`] reads and verifies;
//! [`back`] takes verified modules the rest of the way. The command line (`tilec FILE -o
//! OUT.ptx`, `tilec run --device`, the `tileiras` personality), the benchmarks (`cargo
//! xtask bench-ptx`, `gpu-bench`) and the GPU sweep all call these, so what they compile
//! and time is the same thing. Each stage is timed ([`Timings`]).

use std::time::{Duration, Instant};
use tilec_diag::{Diagnostic, FileId};
use tilec_ir::Module;

/// The stages, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Reading bytecode or parsing text.
    Read,
    /// The verifier.
    Verify,
    /// The canonicalizer (skipped at `-O0` and for GPU-level IR input).
    Canonicalize,
    /// convert-to-gpu: layouts, shared-memory conversions, tensor-core plans, pipelines
    /// (and the backend's refusals of what it cannot lower).
    Gpu,
    /// The PTX writer.
    Ptx,
}

impl Stage {
    /// Every stage, in order.
    pub const ALL: [Stage; 5] = [
        Stage::Read,
        Stage::Verify,
        Stage::Canonicalize,
        Stage::Gpu,
        Stage::Ptx,
    ];

    /// The stage's name as the benchmarks print it.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Read => "read",
            Stage::Verify => "verify",
            Stage::Canonicalize => "canonicalize",
            Stage::Gpu => "GPU-level IR",
            Stage::Ptx => "PTX",
        }
    }
}

/// What the pipeline does.
#[derive(Clone, Debug)]
pub struct Options {
    /// How text is parsed.
    pub parse: tilec_parse::ParseOptions,
    /// How bytecode is read.
    pub read: tilec_bytecode::ReadOptions,
    /// The verifier's options.
    pub verify: tilec_verify::VerifyOptions,
    /// Run the canonicalizer (`-O0` does not).
    pub canonicalize: bool,
    /// The canonicalizer's options.
    pub passes: tilec_opt::PassOptions,
    /// The backend's options (target, warps, stages, math, line info, file name).
    pub ptx: tilec_ptx::Options,
}

impl Default for Options {
    /// `tilec FILE -o OUT.ptx` with no flags: the spec personality, the canonicalizer on,
    /// sm_90, 4 warps.
    fn default() -> Options {
        Options {
            parse: tilec_parse::ParseOptions::default(),
            read: tilec_bytecode::ReadOptions::default(),
            verify: tilec_verify::VerifyOptions::default(),
            canonicalize: true,
            passes: tilec_opt::PassOptions::default(),
            ptx: tilec_ptx::Options::default(),
        }
    }
}

/// Time spent in each stage.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timings(pub [Duration; 5]);

impl Timings {
    /// The time of one stage.
    pub fn of(&self, s: Stage) -> Duration {
        self.0[s as usize]
    }

    /// The sum over the stages.
    pub fn total(&self) -> Duration {
        self.0.iter().sum()
    }

    fn add(&mut self, s: Stage, since: Instant) -> Instant {
        let now = Instant::now();
        self.0[s as usize] += now - since;
        now
    }
}

/// A compilation's result.
#[derive(Debug)]
pub struct Compiled {
    /// The PTX module.
    pub ptx: String,
    /// The modules as compiled: verified and (unless turned off) canonical tile IR, or the
    /// GPU-level IR given as input.
    pub modules: Vec<Module>,
    /// Shared-memory traffic of the tensor-core operands ([`tilec_ptx::SmemStats`]).
    pub smem: tilec_ptx::SmemStats,
    /// Diagnostics that did not stop it (warnings, remarks).
    pub warnings: Vec<Diagnostic>,
    /// The backend's remarks (how many stages each K loop was pipelined over, and why a
    /// loop got fewer or none; the width of every global access through a view, and why
    /// one moves element by element), kept apart: `tilec --remarks` prints them.
    pub remarks: Vec<Diagnostic>,
    /// Time per stage.
    pub timings: Timings,
}

/// Why a compilation stopped: the stage and its diagnostics (errors first among them).
#[derive(Debug)]
pub struct Failure {
    /// The stage that failed.
    pub stage: Stage,
    /// Every diagnostic of the run so far.
    pub diagnostics: Vec<Diagnostic>,
    /// The modules as far as they got (for rendering locations, e.g. debug info).
    pub modules: Vec<Module>,
}

impl Failure {
    /// The first error's message.
    pub fn message(&self) -> String {
        self.diagnostics
            .iter()
            .find(|d| d.is_error())
            .map(|d| d.message.clone())
            .unwrap_or_default()
    }
}

fn has_error(d: &[Diagnostic]) -> bool {
    d.iter().any(Diagnostic::is_error)
}

/// Reads an input (bytecode by its magic bytes, else UTF-8 text; `file` names it in
/// locations) and verifies it.
///
/// # Errors
///
/// A [`Failure`] at [`Stage::Read`] or [`Stage::Verify`].
pub fn front(
    input: &[u8],
    file: FileId,
    opts: &Options,
    timings: &mut Timings,
) -> Result<(Module, Vec<Diagnostic>), Failure> {
    let t = Instant::now();
    let read = if tilec_bytecode::is_bytecode(input) {
        tilec_bytecode::read_with(input, file, opts.read).map_err(|d| vec![d])
    } else {
        match std::str::from_utf8(input) {
            Ok(text) => tilec_parse::parse(text, file, &opts.parse),
            Err(e) => {
                let bad = e.valid_up_to() as u32;
                Err(vec![
                    Diagnostic::error(tilec_diag::codes::INPUT, "input is not valid UTF-8").at(
                        tilec_diag::Location::new(file, tilec_diag::Span::new(bad, bad + 1)),
                    ),
                ])
            }
        }
    };
    let t = timings.add(Stage::Read, t);
    let m = read.map_err(|diagnostics| Failure {
        stage: Stage::Read,
        diagnostics,
        modules: Vec::new(),
    })?;
    if tilec_ptx::is_gpu_level(&m) {
        // GPU-level IR is checked by the backend's own verifier (in `back`).
        return Ok((m, Vec::new()));
    }
    let diags = tilec_verify::verify(&m, &opts.verify);
    timings.add(Stage::Verify, t);
    if has_error(&diags) {
        return Err(Failure {
            stage: Stage::Verify,
            diagnostics: diags,
            modules: vec![m],
        });
    }
    Ok((m, diags))
}

/// Compiles verified modules (the chunks of one input; `source` is its text, for line
/// information) to one PTX module: canonicalize (when on, and not for GPU-level IR, which
/// is compiled with the warp count its layouts were made for), convert to the GPU-level
/// IR, write PTX.
///
/// # Errors
///
/// A [`Failure`] at [`Stage::Canonicalize`], [`Stage::Gpu`] or [`Stage::Ptx`].
pub fn back(
    mut modules: Vec<Module>,
    source: Option<&str>,
    opts: &Options,
    timings: &mut Timings,
) -> Result<Compiled, Failure> {
    let mut warnings = Vec::new();
    let mut remarks = Vec::new();
    let gpu_input = modules.iter().any(tilec_ptx::is_gpu_level);
    let mut t = Instant::now();
    if opts.canonicalize && !gpu_input {
        let mut stats = tilec_opt::Stats::default();
        for m in &mut modules {
            warnings.extend(tilec_opt::run_pipeline(
                m,
                &[tilec_opt::Pass::Canonicalize],
                &opts.passes,
                &mut stats,
            ));
        }
        t = timings.add(Stage::Canonicalize, t);
        if has_error(&warnings) {
            return Err(Failure {
                stage: Stage::Canonicalize,
                diagnostics: warnings,
                modules,
            });
        }
    }
    let (gpu, popts) = if gpu_input {
        let popts = tilec_ptx::Options {
            num_warps: modules.first().map_or(4, tilec_ptx::gpu_num_warps),
            ..opts.ptx.clone()
        };
        (modules.clone(), popts)
    } else {
        let refused: Vec<Diagnostic> = modules.iter().flat_map(tilec_ptx::check_limits).collect();
        if !refused.is_empty() {
            warnings.extend(refused);
            return Err(Failure {
                stage: Stage::Gpu,
                diagnostics: warnings,
                modules,
            });
        }
        let gpu = modules
            .iter()
            .map(|m| {
                let mut g = m.clone();
                remarks.extend(tilec_ptx::convert_to_gpu_remarks(&mut g, &opts.ptx));
                g
            })
            .collect();
        (gpu, opts.ptx.clone())
    };
    t = timings.add(Stage::Gpu, t);
    let written = tilec_ptx::compile_gpu_report(&gpu, &popts, source);
    timings.add(Stage::Ptx, t);
    match written {
        Ok(w) => Ok(Compiled {
            ptx: w.ptx,
            modules,
            smem: w.smem,
            warnings,
            remarks,
            timings: *timings,
        }),
        Err(d) => {
            warnings.extend(d);
            Err(Failure {
                stage: Stage::Ptx,
                diagnostics: warnings,
                modules,
            })
        }
    }
}

/// An input file's bytes to PTX: [`front`] then [`back`] (the text, when the input is
/// text, gives the PTX its line information).
///
/// # Errors
///
/// The [`Failure`] of the first stage that fails.
pub fn compile(input: &[u8], file: FileId, opts: &Options) -> Result<Compiled, Failure> {
    let mut timings = Timings::default();
    let (m, mut warnings) = front(input, file, opts, &mut timings)?;
    let source = if tilec_bytecode::is_bytecode(input) {
        None
    } else {
        std::str::from_utf8(input).ok()
    };
    let mut out = back(vec![m], source, opts, &mut timings).map_err(|mut f| {
        warnings.append(&mut f.diagnostics);
        f.diagnostics = std::mem::take(&mut warnings);
        f
    })?;
    warnings.append(&mut out.warnings);
    out.warnings = warnings;
    Ok(out)
}
