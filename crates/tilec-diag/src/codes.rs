//! The catalog of diagnostic codes.
//!
//! Every diagnostic tilec emits carries one of these codes. Codes are stable: a code keeps
//! its meaning forever, and tests and CI scripts may match on them. The message text of each
//! individual diagnostic is part of the contract too (it follows NVIDIA's tools where they
//! have a wording), but several messages can share one code.
//!
//! Ranges: `E00xx` driver and input handling, `E01xx` lexing and parsing, `E02xx` generic
//! and structural verification, `E03xx` float and integer arithmetic, `E04xx` conversions,
//! `E05xx` memory and atomics, `E06xx` control flow, `E07xx` views and shapes, `E08xx`
//! reduce and scan, `E09xx` PTX lowering, `E10xx` mma, `E11xx`
//! assume, `E12xx` globals, functions, constants and printing. The verifier rules
//! (`E02xx` and up) are defined, with both wordings, in [`crate::catalog`].

/// One entry of the catalog.
///
/// Parse-level codes cover a class of messages (`spec` and `upstream` are empty); verifier
/// codes are one rule each and carry the message templates of both personalities: the
/// spec's wording (tilec's default) and NVIDIA's (`--compat=cuda-tile-opt`). Templates name
/// their parameters in braces (`{expected}`); see [`fill`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeInfo {
    /// The code, e.g. `E0104`.
    pub code: &'static str,
    /// A one-line title.
    pub title: &'static str,
    /// What the diagnostic means and how to fix it.
    pub explanation: &'static str,
    /// The message in the spec's wording (empty for parse-level classes).
    pub spec: &'static str,
    /// The message in NVIDIA's wording (empty: same as `spec`), as of its 13.3 release.
    pub upstream: &'static str,
    /// NVIDIA's wording before 13.3, where it changed (empty: the same as `upstream`).
    pub upstream_13_1: &'static str,
    /// Whether NVIDIA's tool puts `'cuda_tile.OP' op ` before the upstream message (false
    /// where it reports the problem as a parse error or an attribute error).
    pub upstream_prefix: bool,
    /// A corrected example: IR that follows the rule.
    pub example: &'static str,
}

impl CodeInfo {
    /// A class of parse-level messages.
    pub const fn class(
        code: &'static str,
        title: &'static str,
        explanation: &'static str,
    ) -> CodeInfo {
        CodeInfo {
            code,
            title,
            explanation,
            spec: "",
            upstream: "",
            upstream_13_1: "",
            upstream_prefix: true,
            example: "",
        }
    }

    /// A verifier rule whose message is `spec` in both personalities until
    /// [`upstream`](Self::upstream) says otherwise.
    pub const fn rule(code: &'static str, title: &'static str, spec: &'static str) -> CodeInfo {
        CodeInfo {
            code,
            title,
            explanation: "",
            spec,
            upstream: "",
            upstream_13_1: "",
            upstream_prefix: true,
            example: "",
        }
    }

    /// NVIDIA's wording of the message.
    pub const fn upstream(mut self, upstream: &'static str) -> CodeInfo {
        self.upstream = upstream;
        self
    }

    /// NVIDIA's wording in its releases before 13.3, where 13.3 changed it.
    pub const fn upstream_13_1(mut self, upstream: &'static str) -> CodeInfo {
        self.upstream_13_1 = upstream;
        self
    }

    /// NVIDIA's tool reports this without the `'cuda_tile.OP' op ` prefix.
    pub const fn bare(mut self) -> CodeInfo {
        self.upstream_prefix = false;
        self
    }

    /// The explanation.
    pub const fn explain(mut self, explanation: &'static str) -> CodeInfo {
        self.explanation = explanation;
        self
    }

    /// A corrected example.
    pub const fn example(mut self, example: &'static str) -> CodeInfo {
        self.example = example;
        self
    }

    /// The template of NVIDIA's release `13.minor` (`upstream` true) or the spec's.
    pub fn template_in(&self, upstream: bool, minor: u8) -> &'static str {
        if upstream && minor < 3 && !self.upstream_13_1.is_empty() {
            return self.upstream_13_1;
        }
        self.template(upstream)
    }

    /// The template for a personality (`upstream` true: NVIDIA's wording).
    pub fn template(&self, upstream: bool) -> &'static str {
        if (upstream && !self.upstream.is_empty()) || self.spec.is_empty() {
            self.upstream
        } else {
            self.spec
        }
    }
}

/// Fills a template: each `{name}` is replaced by the value of the argument of that name.
/// Braces that do not name an argument (`{lhs, rhs}` in NVIDIA's messages) stay as written.
pub fn fill(template: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let arg = after.find('}').and_then(|close| {
            let name = &after[..close];
            args.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (close, *v))
        });
        match arg {
            Some((close, v)) => {
                let _ = write!(out, "{v}");
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

macro_rules! codes {
    ($($(#[$doc:meta])* $name:ident = $code:literal, $title:literal, $expl:literal;)*) => {
        $($(#[$doc])* pub const $name: &str = $code;)*
        /// The parse-level and driver codes, in ascending order.
        pub static CLASSES: &[CodeInfo] = &[
            $(CodeInfo::class($code, $title, $expl),)*
        ];
    };
}

codes! {
    /// The input could not be read or is not valid UTF-8.
    INPUT = "E0001", "unreadable input",
        "The input file could not be read, or it is not UTF-8 text.";
    /// `--verify-diagnostics` found a mismatch.
    EXPECTED_DIAGNOSTICS = "E0002", "diagnostics differ from the expected ones",
        "With `--verify-diagnostics`, the diagnostics produced for the input are compared with its `// expected-error {{...}}` (and `-warning`, `-note`, `-remark`) comments, as mlir-opt does. A diagnostic that no comment expects is reported as `unexpected error: ...`; a comment that no diagnostic matches is reported as `expected error \"...\" was not produced`.";
    /// Invalid character or malformed token.
    LEX = "E0101", "invalid token",
        "The lexer found a character or token that is not part of the tile IR text syntax, such as an unterminated string literal or a stray character.";
    /// A token other than the one the grammar requires.
    SYNTAX = "E0102", "unexpected token",
        "The parser expected a particular token or construct (the message says which) and found something else. Fix the syntax at the reported location.";
    /// Unknown operation name.
    UNKNOWN_OP = "E0103", "unknown operation",
        "The operation name is not a cuda_tile operation. Operation names may be written with or without the `cuda_tile.` prefix; check the spelling against the op table (`tilec ops`).";
    /// Use of an SSA value that is never defined.
    UNDECLARED_VALUE = "E0104", "use of undeclared SSA value",
        "An operand names an SSA value that is not defined in any enclosing scope. Values defined inside a region are not visible after the region ends, and an operation's operands cannot use values defined in its own regions.";
    /// An SSA name defined twice in the same scope.
    REDEFINED_VALUE = "E0105", "redefinition of SSA value",
        "The same SSA name is defined twice where both definitions are visible. Sibling regions may reuse names; nested regions may not redefine a name of an enclosing region.";
    /// An SSA value used with a type that differs from its definition.
    VALUE_TYPE_MISMATCH = "E0106", "SSA value used with a different type",
        "The type written (or implied) for an operand differs from the type the value was defined with. The note points at the definition or prior use.";
    /// Wrong number of result names.
    RESULT_COUNT = "E0107", "wrong number of result names",
        "The number of SSA names on the left of `=` (counting `%x:N` packs) differs from the number of results the operation defines.";
    /// A malformed or invalid type.
    INVALID_TYPE = "E0108", "invalid type",
        "A type is malformed or violates a type constraint (for example a dynamic `?` dimension in a tile, a non-positive dimension, or an unsupported element type).";
    /// A malformed or invalid attribute or literal.
    INVALID_ATTRIBUTE = "E0109", "invalid attribute",
        "An attribute or literal is malformed or out of range for its type (for example an enum keyword that is not one of the allowed values, or an integer that does not fit).";
    /// Number of operands and types differ.
    OPERAND_TYPE_COUNT = "E0110", "operand and type counts differ",
        "The operation lists a different number of operands than types.";
    /// Invalid region or block structure.
    REGION = "E0111", "invalid region or block",
        "A region or block is malformed: an undefined or duplicate block label, block arguments in the wrong place, or an entry argument name that is already in use.";
    /// Reference to an undefined alias.
    UNDEFINED_ALIAS = "E0112", "undefined alias",
        "A `#name` or `!name` alias (for example a `#loc3` location alias) is used but never defined in the file.";
    /// A symbol defined twice, or a reference to a symbol that does not exist.
    SYMBOL = "E0113", "unknown or duplicate symbol",
        "Two items of one module (`global`, `entry`, functions) have the same `@name`, or an op refers to a symbol that the enclosing module does not define (for example `get_global @g` without a `global @g`).";
    /// A malformed dense constant.
    DENSE = "E0114", "invalid constant literal",
        "A dense constant (`<f32: [...]>` or `dense<...>`) is malformed: its element type or shape does not match the tile type, its nesting is inconsistent, or it is empty.";
    /// A construct the parser does not support.
    UNSUPPORTED_SYNTAX = "E0190", "unsupported syntax",
        "The construct is valid MLIR syntax but has no meaning in tile IR (for example block successors).";
    /// A kernel the PTX backend cannot compile.
    PTX_LOWERING = "E0901", "cannot lower to PTX",
        "The PTX backend rejected a construct that verifies but cannot run as a kernel: an `entry` argument that is not a rank-0 tile, an operation that is not part of tile IR (`unrealized_conversion_cast`, an unregistered op), or an atomic on an 8- or 16-bit integer. It is also the error for an input with nothing to compile, no `entry` and no function (an empty file, an empty module). The message names the construct; docs/ptx-backend.md describes what the backend supports.";
    /// The PTX backend's GPU-level IR failed its own verifier.
    GPU_INVALID_IR = "E0902", "invalid GPU-level IR",
        "The PTX backend converts tile IR to a GPU-level IR (`tilec opt -p convert-to-gpu` prints it) and verifies it before writing PTX. This error means the conversion broke one of the GPU-level rules (layouts on every tile, matching shapes across `ttg.convert_layout` and shared-memory buffers, elementwise operands in one layout). It is a bug in tilec: please report it with the input.";
    /// A remark on the software pipeline of a K loop.
    PIPELINE = "E0903", "K loop pipeline",
        "A remark, not an error (`tilec FILE -o OUT.ptx --remarks` prints it): how many shared-memory stages the K loop of a tensor-core product was pipelined over, and why it got fewer than asked (`--num-stages`, default 4) or no pipeline at all: the stages do not fit the shared memory the kernel may use, the product's A and B are not view loads in the loop body indexed by its induction variable, the loop's step is not a constant from 1 to 2^24, or `--num-stages 1`. docs/ptx-backend.md (\"Pipelining\") describes the pattern.";
    /// A remark on how a global load or store moves its tile.
    VECTOR_ACCESS = "E0904", "global access width",
        "A remark, not an error (`tilec FILE -o OUT.ptx --remarks` prints it): how many bytes each instruction of a global load or store through a view moves (up to 16: `ld.global.v4`), whether the alignment that allows it is proven by the IR (static strides, `assume div_by` on the base pointer, the sizes and strides) or checked when the kernel runs (a base pointer or row stride known only then, with an element-by-element fallback), and when the access stays one element per instruction, why: the view's innermost dimension is not contiguous in memory (a stride other than 1), a gather, or the layout gives a thread one element at a time. Under a transposing `dim_map` the vectors run along the tile dimension that lies on the view's innermost dimension, and such a tile is loaded in that order. docs/ptx-backend.md (\"Memory\") describes the rules.";
    /// A remark on a kernel's thread-block cluster.
    CLUSTER = "E0905", "thread-block cluster",
        "A remark, not an error (`tilec FILE -o OUT.ptx --remarks` prints it): a kernel asked for a cluster of CTAs (`num_cta_in_cga` in its `optimization_hints` for the target, or `--num-ctas`) spreads its tile block over them when every write's tile can be split along one dimension and the split flows through the kernel; otherwise it runs on one CTA and the remark says why: nothing to split, a concatenation along the split dimension, a value needed both whole and split, an atomic whose results every CTA would need, a print. The same code says when an occupancy hint is not applied (a warp-specialized kernel sets its registers itself). docs/hopper.md (\"Clusters\") describes the rules.";
    /// A remark on an `optimization_hints` entry the backend applies, or cannot.
    HINTS = "E0906", "optimization hint",
        "A remark, not an error (`tilec FILE -o OUT.ptx --remarks` prints it): what the backend did with a kernel's `optimization_hints` for the target: `num_worker_warps_per_cta` sets the warps per CTA when `--num-warps` does not (1, 2, 4, 8 or 16; another value is not applied, and the remark says so); `allow_tma = false` keeps a load or store off the copy engine (the remark on its pipeline or store says so). `num_cta_in_cga` and `occupancy` have their remarks under E0905; `latency` is accepted and not used. docs/ptx-backend.md (\"Optimization hints\") describes each.";
    /// The canonicalizer hit its iteration cap.
    OPT_NOT_CONVERGED = "E1301", "canonicalization did not converge",
        "The greedy canonicalization driver was still rewriting after its iteration cap (`--max-iterations`, default 10). The output is valid but may not be fully canonical. This points at a pair of rules that undo each other; please report it with the input.";
    /// A pass produced IR that does not verify (`--verify-each`).
    OPT_INVALID_IR = "E1302", "pass produced invalid IR",
        "With `--verify-each`, the verifier runs after every pass; this error names the pass after which the IR stopped verifying, followed by the verifier's diagnostics. It is a bug in tilec: please report it with the input.";
    /// A pass whose options do not fit the input (a symbol to rename that does not exist,
    /// a scope that does not enclose it).
    OPT_PASS_PRECONDITION = "E1310", "a pass's options do not fit the input",
        "A pass that takes options naming parts of the input (cuda-tile-opt's `--test-debuginfo-update-symbol-name`: the symbol to rename and the scope whose uses are updated) found that they do not fit: the symbol does not exist, or the scope does not enclose it. The pass changes nothing.";
    /// `tilec run`: the kernel did something undefined (an access outside every buffer,
    /// a division by zero, a violated `assume` or overflow flag) or an `assert` failed.
    RUN_UB = "E1401", "undefined behaviour at run time",
        "`tilec run` executes a kernel with the spec's semantics and stops at the first operation whose behaviour the spec leaves undefined: a load or store outside every buffer (or misaligned for its element), an integer division by zero or signed overflow, a shift by the width or more, an `assume` predicate the value violates, an `extract` index past the source, or an `addi`/`subi`/`muli`/`shli`/`trunci` that wraps although its overflow flag promises it does not. A failed `assert` stops the run the same way. The message names the operation, the tile block and the values involved.";
    /// `tilec run`: bad arguments or a kernel the interpreter cannot run.
    RUN_SETUP = "E1402", "cannot run the kernel",
        "`tilec run` could not start the kernel: no entry of that name, a wrong number of `--arg`s, an argument of the wrong kind for its parameter (a buffer for a scalar, a scalar of another type), or an input that is not a tile IR kernel (GPU-level or unregistered operations).";
    /// `tilec run --device`: the GPU's results differ from the interpreter's.
    RUN_MISMATCH = "E1403", "GPU results differ from the interpreter",
        "`tilec run --device` ran the kernel on the GPU and in the reference interpreter on the same inputs, and a buffer differs beyond what the comparison allows: bit for bit where every operation is exact or correctly rounded, within a bound where float accumulation order or approximate math may change results (docs/gpu-harness.md), and no byte written outside the buffers. The report on stdout names the argument, the first differing elements and both values. The interpreter follows the spec, so this is a bug in tilec's PTX backend or in its interpreter: please report it with the input and the arguments.";
    /// `tilec run --device`: the GPU could not run the kernel.
    RUN_DEVICE = "E1404", "the GPU could not run the kernel",
        "`tilec run --device` compiled the kernel but the CUDA driver refused or failed it: the driver's JIT rejected the PTX (its log follows), the launch failed, or the kernel faulted (an illegal address). The interpreter ran the same inputs without undefined behaviour, so this is a bug in tilec's PTX backend: please report it with the input and the arguments.";
    /// A bytecode file is malformed or uses what tilec does not support.
    BYTECODE_READ = "E1501", "malformed Tile IR bytecode",
        "A `.tileirbc` input (recognised by its magic bytes `\\x7fTileIR\\0`) could not be read: it is truncated, has the wrong magic number or an unsupported version (tilec reads 13.1 to 13.3), a section or table runs past the end of the data, an index (string, type, constant, value, debug info) is out of range, or it uses an op or type tilec does not implement. The location is the byte offset where the problem was found; docs/bytecode.md describes the format.";
    /// A module that cannot be written as bytecode.
    BYTECODE_WRITE = "E1502", "cannot encode as Tile IR bytecode",
        "`--emit=bytecode` could not encode the module: it uses an op or type that NVIDIA's bytecode has no encoding for (the spec-only ops such as `log10`, `popcnt` or `atomic_load_tko`, and `assume` without a predicate), an op that the requested `--bytecode-version` does not have (for example `atan2` before 13.2), or the input holds more than one module.";
}

/// Every code (driver, parser and verifier), in ascending order.
pub fn all() -> &'static [&'static CodeInfo] {
    static ALL: std::sync::OnceLock<Vec<&'static CodeInfo>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut v: Vec<&'static CodeInfo> = CLASSES.iter().collect();
        v.extend(crate::catalog::entries());
        v.sort_by_key(|c| c.code);
        v
    })
}

/// Looks up a code.
pub fn lookup(code: &str) -> Option<&'static CodeInfo> {
    all().iter().copied().find(|c| c.code == code)
}

/// The text `tilec explain CODE` prints: title, meaning, both wordings (for verifier
/// rules) and the corrected example.
pub fn explain(info: &CodeInfo) -> String {
    use std::fmt::Write as _;
    let mut s = format!("{}: {}\n\n{}\n", info.code, info.title, info.explanation);
    if !info.spec.is_empty() || !info.upstream.is_empty() {
        let _ = write!(
            s,
            "\nMessage (tilec's default, the spec's wording):\n    {}\n",
            info.template(false)
        );
        let _ = write!(
            s,
            "Message (--compat=cuda-tile-opt, NVIDIA's wording):\n    {}\n",
            info.template(true)
        );
        if !info.upstream_prefix {
            s.push_str("    (cuda-tile-opt reports it without the 'cuda_tile.OP' op prefix)\n");
        }
        s.push_str("\nIn op diagnostics the message follows the prefix `'cuda_tile.OP' op `; `{name}` marks a value filled in from the failing op.\n");
    }
    if !info.example.is_empty() {
        s.push_str("\nA corrected example:\n\n");
        for line in info.example.lines() {
            let _ = writeln!(s, "    {line}");
        }
    }
    s
}

/// docs/diagnostics.md: the whole catalog as Markdown (a test keeps the file in sync).
pub fn catalog_markdown() -> String {
    use std::fmt::Write as _;
    let mut s = String::from(
        "# tilec diagnostics\n\n\
         <!-- Generated from the catalog (crates/tilec-diag/src/codes.rs and catalog/*.rs) by \
         `TILEC_BLESS=1 cargo test -p tilec-tests --test diagnostics_doc`; do not edit. -->\n\n\
         Every diagnostic tilec reports carries a stable code. Codes never change meaning, and \
         the wording of verifier messages is a contract: frontends' tests may match it byte for \
         byte. Verifier messages come in two personalities: the spec's wording (the default) and \
         NVIDIA's `cuda-tile-opt` wording (`--compat=cuda-tile-opt`, or when the binary is run as \
         `cuda-tile-opt`). Op diagnostics start with `'cuda_tile.OP' op `; in the templates \
         below, `{name}` stands for a value filled in from the failing op. \
         `tilec explain CODE` prints an entry with a corrected example.\n\n\
         Ranges: `E00xx` driver and input, `E01xx` lexing and parsing, `E02xx` generic and \
         structural verification, `E03xx` arithmetic, `E04xx` conversions, `E05xx` memory and \
         atomics, `E06xx` control flow, `E07xx` views and shapes, `E08xx` reduce and scan, \
         `E09xx` PTX lowering, `E10xx` mma, `E11xx` assume, `E12xx` globals, functions, \
         constants and printing.\n\n| code | title |\n|---|---|\n",
    );
    for c in all() {
        let _ = writeln!(
            s,
            "| [{0}](#{1}) | {2} |",
            c.code,
            c.code.to_lowercase(),
            c.title
        );
    }
    for c in all() {
        let _ = write!(
            s,
            "\n## {}\n\n**{}**\n\n{}\n",
            c.code, c.title, c.explanation
        );
        if !c.spec.is_empty() || !c.upstream.is_empty() {
            let _ = write!(s, "\n- spec wording (default): `{}`\n", c.template(false));
            let bare = if c.upstream_prefix {
                ""
            } else {
                " (without the op prefix)"
            };
            let _ = writeln!(s, "- cuda-tile-opt wording: `{}`{bare}", c.template(true));
            if !c.upstream_13_1.is_empty() {
                let _ = writeln!(s, "- cuda-tile-opt 13.1 wording: `{}`", c.upstream_13_1);
            }
        }
        if !c.example.is_empty() {
            let _ = write!(s, "\nCorrected example:\n\n```mlir\n{}\n```\n", c.example);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_sorted() {
        for w in all().windows(2) {
            assert!(w[0].code < w[1].code, "{} !< {}", w[0].code, w[1].code);
        }
        assert_eq!(
            lookup("E0104").unwrap().title,
            "use of undeclared SSA value"
        );
        assert!(lookup("E9999").is_none());
    }
}
