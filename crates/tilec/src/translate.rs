//! The `cuda-tile-translate` personality: tilec run under that name (a symbolic link)
//! takes NVIDIA's translate command line, so lit suites written for it run unchanged.
//!
//! | option | what it does |
//! |---|---|
//! | `-mlir-to-cudatilebc` | text to Tile IR bytecode (`-bytecode-version=V`, default the lowest version that can encode the module) |
//! | `-cudatilebc-to-mlir` | bytecode (or text) to text, in the canonical form (`--mlir-print-debuginfo` keeps locations) |
//! | `-test-cudatile-roundtrip` | text to bytecode and back to text, in memory |
//! | `--list-versions` | the versions tilec writes, one per line |
//! | `-no-implicit-module`, `-split-input-file`, `-verify-diagnostics`, `-allow-unregistered-dialect`, `-mlir-print-op-generic`, `-o FILE` | as in MLIR tools |
//!
//! Options take one or two dashes and `=VALUE` or a separate value, as LLVM's command-line
//! library allows. Diagnostics use NVIDIA's wording, in MLIR's `file:line:col: error:`
//! form.

use super::{
    ColorArg, CommonArgs, CompatArg, DiagFormatArg, Driver, EXIT_DIAGNOSTICS, EXIT_OK, EXIT_USAGE,
    Io,
};
use std::ffi::OsString;
use std::path::PathBuf;
use tilec_ir::PrintOptions;

/// What to translate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    MlirToBytecode,
    BytecodeToMlir,
    RoundTrip,
    ListVersions,
}

/// A parsed `cuda-tile-translate` command line.
struct Args {
    mode: Option<Mode>,
    version: Option<String>,
    input: PathBuf,
    output: Option<PathBuf>,
    common: CommonArgs,
    debuginfo: bool,
    generic: bool,
}

const USAGE: &str = "OVERVIEW: CUDA Tile IR translation (tilec)\n\nUSAGE: cuda-tile-translate [options] <input file>\n\nOPTIONS:\n  -mlir-to-cudatilebc        Translate MLIR to Tile IR bytecode\n  -cudatilebc-to-mlir        Translate Tile IR bytecode to MLIR\n  -test-cudatile-roundtrip   Translate MLIR to bytecode and back\n  -bytecode-version=<ver>    Bytecode version to write (13.1, 13.2, 13.3; testing: 250.0, 250.1)\n  --list-versions            List the supported bytecode versions\n  -no-implicit-module        Do not wrap the input in a module\n  -split-input-file          Split the input at '// -----' lines\n  -verify-diagnostics        Check diagnostics against expected-* comments\n  -allow-unregistered-dialect  Accept operations of unregistered dialects\n  -mlir-print-debuginfo      Print locations\n  -mlir-print-op-generic     Print operations in the generic form\n  -o <filename>              Output file (default: stdout)\n";

fn parse_args(args: &[OsString]) -> Result<Args, String> {
    let mut a = Args {
        mode: None,
        version: None,
        input: PathBuf::from("-"),
        output: None,
        common: CommonArgs {
            split_input_file: false,
            diagnostic_format: DiagFormatArg::Mlir,
            allow_unregistered_dialect: false,
            color: ColorArg::Never,
            compat: CompatArg::CudaTileOpt,
            verify_diagnostics: false,
            no_implicit_module: true,
            warnings: Vec::new(),
            cuda_tile_release: None,
        },
        debuginfo: false,
        generic: false,
    };
    let mut input = None;
    let mut i = 1;
    while i < args.len() {
        let arg = args[i].to_string_lossy().into_owned();
        i += 1;
        if arg == "-" || !arg.starts_with('-') {
            if input.replace(PathBuf::from(&arg)).is_some() {
                return Err("Too many positional arguments specified!\nCan specify at most 1 positional arguments: See: cuda-tile-translate --help".to_string());
            }
            continue;
        }
        let body = arg.trim_start_matches('-');
        let (name, value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        let take_value = |i: &mut usize| -> Result<String, String> {
            if let Some(v) = &value {
                return Ok(v.clone());
            }
            let v = args
                .get(*i)
                .map(|v| v.to_string_lossy().into_owned())
                .ok_or_else(|| format!("for the -{name} option: requires a value!"))?;
            *i += 1;
            Ok(v)
        };
        match name {
            "mlir-to-cudatilebc" => a.mode = Some(Mode::MlirToBytecode),
            "cudatilebc-to-mlir" => a.mode = Some(Mode::BytecodeToMlir),
            "test-cudatile-roundtrip" => a.mode = Some(Mode::RoundTrip),
            "list-versions" => a.mode = Some(Mode::ListVersions),
            "bytecode-version" => a.version = Some(take_value(&mut i)?),
            "o" => a.output = Some(PathBuf::from(take_value(&mut i)?)),
            "no-implicit-module" => {}
            "split-input-file" => a.common.split_input_file = true,
            "verify-diagnostics" => a.common.verify_diagnostics = true,
            "allow-unregistered-dialect" => a.common.allow_unregistered_dialect = true,
            "mlir-print-debuginfo" => a.debuginfo = true,
            "mlir-print-op-generic" => a.generic = true,
            _ => {
                return Err(format!(
                    "Unknown command line argument '{arg}'.  Try: 'cuda-tile-translate --help'"
                ));
            }
        }
    }
    if let Some(p) = input {
        a.input = p;
    }
    Ok(a)
}

/// Runs a `cuda-tile-translate` command line (`args[0]` is the program name).
pub(crate) fn run(args: Vec<OsString>, io: &mut Io<'_>) -> i32 {
    if args
        .iter()
        .skip(1)
        .any(|a| matches!(a.to_str(), Some("-h" | "-help" | "--help")))
    {
        let _ = io.stdout.write_all(USAGE.as_bytes());
        return EXIT_OK;
    }
    if args.iter().skip(1).any(|a| a.to_str() == Some("--version")) {
        let _ = writeln!(
            io.stdout,
            "cuda-tile-translate (tilec {})",
            env!("CARGO_PKG_VERSION")
        );
        return EXIT_OK;
    }
    let a = match parse_args(&args) {
        Ok(a) => a,
        Err(e) => {
            let _ = writeln!(io.stderr, "cuda-tile-translate: {e}");
            return EXIT_DIAGNOSTICS;
        }
    };
    let mut d = Driver::new(io);
    d.translate(a)
}

/// The versions tilec writes, as `[13.1 - 13.3]`.
fn version_range() -> String {
    let s = tilec_bytecode::Version::SUPPORTED;
    format!("[{} - {}]", s[0], s[s.len() - 1])
}

impl Driver<'_, '_> {
    fn translate(&mut self, a: Args) -> i32 {
        self.configure(&a.common);
        let Some(mode) = a.mode else {
            let _ = writeln!(
                self.io.stderr,
                "cuda-tile-translate: no translation given (-mlir-to-cudatilebc, -cudatilebc-to-mlir or -test-cudatile-roundtrip)"
            );
            return EXIT_DIAGNOSTICS;
        };
        if mode == Mode::ListVersions {
            // The releases, then the testing versions (NVIDIA's tools list those when
            // built with their tests, as tilec always is).
            for v in tilec_bytecode::Version::SUPPORTED
                .into_iter()
                .chain(tilec_bytecode::Version::TESTING)
            {
                let _ = writeln!(self.io.stdout, "{v}");
            }
            return EXIT_OK;
        }
        let version = match &a.version {
            None => None,
            Some(v) => match tilec_bytecode::Version::parse_with_testing(v) {
                Some(v) => Some(v),
                None => {
                    let _ = writeln!(
                        self.io.stderr,
                        "cuda-tile-translate: for the --bytecode-version option: Invalid argument '{v}': the supported versions are {}",
                        version_range()
                    );
                    return EXIT_DIAGNOSTICS;
                }
            },
        };
        if let Err(code) = self.not_over_input(&a.input, a.output.as_deref()) {
            return code;
        }
        let input = match self.load(&a.input) {
            Ok(i) => i,
            Err(code) => return code,
        };
        if mode == Mode::BytecodeToMlir && input.bytecode.is_none() {
            // NVIDIA's reader takes bytecode only; its first check is the magic number.
            let d = tilec_diag::Diagnostic::error(
                tilec_diag::codes::BYTECODE_READ,
                "invalid magic number",
            )
            .at(tilec_diag::Location::new(
                input.file,
                tilec_diag::Span::at(0),
            ));
            self.emit(&d);
            return EXIT_DIAGNOSTICS;
        }
        if a.common.verify_diagnostics && mode == Mode::MlirToBytecode {
            // The writer's diagnostics are checked against the expectations too.
            let write_check = |m: &tilec_ir::Module| {
                let v = version.unwrap_or_else(|| tilec_bytecode::lowest_version(m));
                tilec_bytecode::write(m, v).err().unwrap_or_default()
            };
            self.parse_then(&input, &a.common, &write_check);
            return self.status();
        }
        let modules = self.parse(&input, &a.common);
        if self.errors > 0 {
            return EXIT_DIAGNOSTICS;
        }
        if a.common.verify_diagnostics {
            return EXIT_OK;
        }
        let print = PrintOptions {
            generic: a.generic,
            locations: a.debuginfo,
            ..PrintOptions::default()
        };
        match mode {
            Mode::BytecodeToMlir => {
                let text: String = modules
                    .iter()
                    .flatten()
                    .map(|m| tilec_ir::print_module(m, &print))
                    .collect::<Vec<_>>()
                    .join("// -----\n");
                self.write_output(a.output.as_deref(), text.as_bytes())
            }
            Mode::MlirToBytecode | Mode::RoundTrip => {
                let mut out: Vec<u8> = Vec::new();
                for m in modules.iter().flatten() {
                    let Some(bytes) = self.bytecode_of(m, version) else {
                        continue;
                    };
                    if mode == Mode::MlirToBytecode {
                        out.extend_from_slice(&bytes);
                        continue;
                    }
                    match tilec_bytecode::read(&bytes, input.file) {
                        Ok(back) => {
                            out.extend_from_slice(tilec_ir::print_module(&back, &print).as_bytes())
                        }
                        Err(d) => {
                            self.emit(&d);
                        }
                    }
                }
                if self.errors > 0 {
                    return EXIT_DIAGNOSTICS;
                }
                if a.common.verify_diagnostics {
                    return EXIT_OK;
                }
                self.write_output(a.output.as_deref(), &out)
            }
            Mode::ListVersions => EXIT_OK,
        }
    }

    fn write_output(&mut self, output: Option<&std::path::Path>, bytes: &[u8]) -> i32 {
        let result = match output {
            Some(p) if p.as_os_str() != "-" => super::output::write_file(p, bytes),
            _ => self.io.stdout.write_all(bytes),
        };
        match result {
            Ok(()) => EXIT_OK,
            Err(e) => {
                let what = output.map_or("-".into(), |p| p.display().to_string());
                let _ = writeln!(
                    self.io.stderr,
                    "cuda-tile-translate: cannot write '{what}': {e}"
                );
                EXIT_USAGE
            }
        }
    }
}
