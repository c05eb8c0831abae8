//! The tile IR verifier.
//!
//! [`verify`] checks a parsed [`Module`] and returns every problem it finds as
//! [`Diagnostic`]s. The pipeline is the one `verifiers.md` describes:
//!
//! 1. **generic checks** read from the op table ([`generic`]): operand, result and region
//!    counts, required attributes and attribute constraints, slot type constraints,
//!    same-type groups and the ODS-style predicates of [`tilec_ir::ops::Check`], block and
//!    terminator structure;
//! 2. the **domain verifier** of the op's family (float arithmetic, conversion, token
//!    memory, control flow, view and shape, aggregate, mma, assumption), each in its own
//!    module;
//! 3. **symbol** checks for ops that refer to symbols ([`symbols`]).
//!
//! The first failure within an op stops that op's checks; verification goes on with the
//! other ops (nested ones included), so one run reports every broken op. Dominance and
//! region isolation are checked for every operand, independently of the op's own checks.
//!
//! Messages come from the catalog in [`tilec_diag::catalog`], in one of two
//! [`Personality`]s: the spec's wording (default) or NVIDIA's `cuda-tile-opt` wording.

#![warn(missing_docs)]

mod aggregate;
mod arith;
mod assume;
mod control;
mod conversion;
mod generic;
mod hints;
mod memory;
mod misc;
mod mma;
mod structure;
mod symbols;
mod util;
mod view;

use std::fmt::Display;
use tilec_diag::codes::{self, CodeInfo};
use tilec_diag::{Diagnostic, FileId, Location, Note, Span};
use tilec_ir::module::{Module, Op, Value};
use tilec_ir::ops::Family;
use tilec_ir::types::Type;

/// Whose wording the diagnostics use.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Personality {
    /// The spec's wording (`verifiers.md`), tilec's default.
    #[default]
    Spec,
    /// NVIDIA's `cuda-tile-opt` wording (`--compat=cuda-tile-opt`).
    CudaTileOpt,
}

/// How problems in `optimization_hints` are reported.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum HintChecks {
    /// The personality's own: errors for the spec; nothing for cuda-tile-opt, whose 13.3
    /// release checks hints only when asked (`-Wunsupported-hints`).
    #[default]
    Default,
    /// Not checked.
    Ignore,
    /// Each problem is a warning (`-Wunsupported-hints`).
    Warn,
    /// Each problem is a warning, then the op fails (`-Wunsupported-hints -Werr-hints`).
    WarnError,
    /// Each problem is an error.
    Error,
}

/// Verifier options.
#[derive(Copy, Clone, Debug, Default)]
pub struct VerifyOptions {
    /// Whose wording to use.
    pub personality: Personality,
    /// How hint problems are reported.
    pub hints: HintChecks,
    /// Word type constraints as NVIDIA's release `13.N` does; `None`: 13.3.
    pub release_minor: Option<u8>,
}

/// Verifies a module; returns the diagnostics (errors and any remarks attached to them) in
/// the order they were found. An empty result means the module is valid.
pub fn verify(m: &Module, opts: &VerifyOptions) -> Vec<Diagnostic> {
    let mut v = Verifier::new(m, opts);
    structure::number_ops(&mut v);
    symbols::build(&mut v);
    for op in m.block_ops(m.body()) {
        v.verify_op(op);
    }
    v.diags
}

/// Marks a failed check; the diagnostic has already been recorded.
#[derive(Debug)]
pub(crate) struct Failed;

/// The result of a check.
pub(crate) type VResult = Result<(), Failed>;

/// Named arguments of a message template.
pub(crate) type Args<'a> = &'a [(&'a str, &'a dyn Display)];

/// The verifier's state while it walks a module.
pub(crate) struct Verifier<'m> {
    /// The module.
    pub m: &'m Module,
    /// True for NVIDIA's wording.
    pub upstream: bool,
    file: FileId,
    diags: Vec<Diagnostic>,
    /// Pre-order position of each op and the last position inside it (see [`structure`]).
    pub(crate) order: cranelift_entity::SecondaryMap<Op, u32>,
    pub(crate) order_end: cranelift_entity::SecondaryMap<Op, u32>,
    /// Symbol tables, built on first use.
    pub(crate) symbols: Option<symbols::Tables<'m>>,
    /// How hint problems are reported (never `Default`).
    pub(crate) hints: HintChecks,
    /// The release whose wording type constraints use.
    pub(crate) minor: u8,
}

impl<'m> Verifier<'m> {
    fn new(m: &'m Module, opts: &VerifyOptions) -> Verifier<'m> {
        Verifier {
            m,
            upstream: opts.personality == Personality::CudaTileOpt,
            hints: match (opts.hints, opts.personality) {
                (HintChecks::Default, Personality::Spec) => HintChecks::Error,
                (HintChecks::Default, Personality::CudaTileOpt) => HintChecks::Ignore,
                (h, _) => h,
            },
            minor: opts.release_minor.unwrap_or(tilec_ir::ops::LATEST_MINOR),
            file: m.file().unwrap_or(FileId(0)),
            diags: Vec::new(),
            order: Default::default(),
            order_end: Default::default(),
            symbols: None,
        }
    }

    /// Verifies one op and everything nested in it.
    fn verify_op(&mut self, op: Op) {
        let registered = self.m.unregistered_name(op).is_none();
        if registered {
            let _ = self.verify_own(op);
        }
        structure::check_operands(self, op);
        for &r in self.m.regions(op) {
            for &b in self.m.region_blocks(r) {
                for inner in self.m.block_ops(b) {
                    self.verify_op(inner);
                }
            }
        }
    }

    /// The checks of one op: generic, then its family's, then symbol references.
    fn verify_own(&mut self, op: Op) -> VResult {
        generic::verify(self, op)?;
        hints::verify(self, op)?;
        match self.m.def(op).family {
            Family::FloatArith => arith::verify_float(self, op)?,
            Family::Integer => arith::verify_integer(self, op)?,
            Family::Conversion => conversion::verify(self, op)?,
            Family::TokenMemory => memory::verify(self, op)?,
            Family::Atomics => memory::verify_atomic(self, op)?,
            Family::ControlFlow => control::verify(self, op)?,
            Family::ViewAndShape => view::verify(self, op)?,
            Family::Aggregate => aggregate::verify(self, op)?,
            Family::Mma => mma::verify(self, op)?,
            Family::Assumption => assume::verify(self, op)?,
            Family::Misc => misc::verify(self, op)?,
            // GPU-level ops never come from the parser; tilec-ptx verifies them.
            Family::Gpu => {}
        }
        symbols::verify_op(self, op)
    }

    // ---- reporting -------------------------------------------------------------------

    /// The location of a span of this module's file.
    pub fn loc(&self, span: Option<Span>) -> Location {
        Location::new(self.file, span.unwrap_or_default())
    }

    /// The message of a catalog entry in the current personality, with the op prefix.
    pub fn message(&self, op: Op, e: &CodeInfo, args: Args<'_>) -> String {
        let body = codes::fill(e.template_in(self.upstream, self.minor), args);
        if self.upstream && !e.upstream_prefix {
            body
        } else {
            format!("'{}' op {body}", self.op_name(op))
        }
    }

    /// Reports an error of a catalog entry at the op; returns [`Failed`].
    pub fn error(&mut self, op: Op, e: &'static CodeInfo, args: Args<'_>) -> Failed {
        let span = self.m.op_span(op);
        self.error_at(op, span, e, args)
    }

    /// Reports an error of a catalog entry at a span (an attribute or operand of the op);
    /// `None` falls back to the op.
    pub fn error_at(
        &mut self,
        op: Op,
        span: Option<Span>,
        e: &'static CodeInfo,
        args: Args<'_>,
    ) -> Failed {
        let msg = self.message(op, e, args);
        let loc = self.loc(span.or(self.m.op_span(op)));
        let mut d = Diagnostic::error(e.code, msg).at(loc);
        if let Some(os) = self.m.op_span(op)
            && span.is_some_and(|s| s != os)
        {
            d.labels.push(tilec_diag::Label {
                location: self.loc(Some(os)),
                message: format!("in this '{}' op", self.op_name(op)),
            });
        }
        self.diags.push(d);
        Failed
    }

    /// Records a finished diagnostic.
    pub fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Attaches a secondary label to the last diagnostic (drawn by the human renderer,
    /// listed in JSON).
    pub fn label(&mut self, span: Option<Span>, message: impl Into<String>) {
        let Some(span) = span else {
            return;
        };
        let location = self.loc(Some(span));
        if let Some(d) = self.diags.last_mut() {
            d.labels.push(tilec_diag::Label {
                location,
                message: message.into(),
            });
        }
    }

    /// Attaches a note to the last diagnostic.
    pub fn note(&mut self, message: impl Into<String>, span: Option<Span>) {
        let loc = span.map(|s| self.loc(Some(s)));
        if let Some(d) = self.diags.last_mut() {
            let location = loc.or(d.location);
            d.notes.push(Note {
                message: message.into(),
                location,
            });
        }
    }

    /// Reports a remark at an op (MLIR's `emitRemark`), e.g. pointing at the op that made
    /// its parent fail.
    #[allow(dead_code)]
    pub fn remark(&mut self, at: Op, message: impl Into<String>) {
        let code = self.diags.last().map_or("E0200", |d| d.code);
        let d = Diagnostic::remark(code, message).at(self.loc(self.m.op_span(at)));
        self.diags.push(d);
    }

    // ---- names and types ----------------------------------------------------------------

    /// `cuda_tile.NAME` as the input spelled it.
    pub fn op_name(&self, op: Op) -> String {
        match self.m.unregistered_name(op) {
            Some(n) => n.to_string(),
            None => {
                let def = self.m.def(op);
                format!("cuda_tile.{}", def.spelling(self.m.spelling(op)))
            }
        }
    }

    /// A type as MLIR prints it in diagnostics (`!cuda_tile.tile<4xf32>`).
    pub fn ty(&self, t: Type) -> String {
        self.m.ctx.types.to_string(t, true)
    }

    /// An element type as MLIR prints it (`f32`, `ptr<f16>`).
    #[allow(dead_code)]
    pub fn elem(&self, t: Type) -> String {
        self.m
            .ctx
            .types
            .to_string(self.m.ctx.types.element_type(t), false)
    }

    /// The type of a value.
    pub fn vty(&self, v: Value) -> Type {
        self.m.value_type(v)
    }
}
