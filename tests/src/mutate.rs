//! Input mutation for robustness testing: token deletion, duplication, swapping and
//! replacement, truncation and random bytes, driven by a deterministic PRNG.
//!
//! [`check_mutant`] runs one mutant through `tilec fmt` (and `tilec check
//! --compat=cuda-tile-opt`) in process and checks the
//! robustness contract: no panic, exit status 0 or 1, every rejection carries a located
//! diagnostic, every accepted input prints to text that parses again and prints the
//! same, canonicalizes, compiles to PTX, and runs in the interpreter (`tilec run`).

use tilec_parse::lexer::{Lexer, Tok};

/// One step of SplitMix64: advances `state` and returns the next 64 random bits (the core
/// of this module's [`Rng`] and of the kernel generator's).
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A small deterministic PRNG (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// Seeds the generator.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        splitmix64(&mut self.0)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Byte ranges of the tokens of `src`.
pub fn token_ranges(src: &str) -> Vec<(usize, usize)> {
    let mut lex = Lexer::new(src, 0, src.len());
    let mut out = Vec::new();
    loop {
        let t = lex.next_token();
        if t.kind == Tok::Eof {
            break;
        }
        out.push((t.start as usize, t.end as usize));
        if out.len() > 1_000_000 {
            break;
        }
    }
    out
}

/// Tokens that often break parsers when inserted.
const INTERESTING: &[&str] = &[
    "<",
    ">",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "=",
    "->",
    "?",
    "%0",
    "%x#7",
    "@f",
    "^bb1",
    "#loc9",
    "!cuda_tile.tile",
    "tile",
    "ptr",
    "token",
    "tensor_view",
    "partition_view",
    "0",
    "-1",
    "0x",
    "0xFFFFFFFFFFFFFFFFFF",
    "99999999999999999999",
    "1.0e999",
    "-0.0",
    "\"",
    "\"s\"",
    "loc(",
    "dense",
    "array",
    "unit",
    "true",
    "x",
    "xf32",
    "i1",
    "i128",
    "f8E4M3FN",
    "cuda_tile.module",
    "entry",
    "yield",
    "return",
    "for",
    "loop",
    "if",
    "reduce",
    "constant",
    "\u{00e9}",
    "//",
    "\\",
    "\t",
    "\n",
];

/// The mutation kinds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Delete a token.
    Delete,
    /// Duplicate a token.
    Duplicate,
    /// Swap two tokens.
    Swap,
    /// Replace a token with another token of the file or an interesting token.
    Replace,
    /// Truncate the input.
    Truncate,
    /// Overwrite or insert random bytes.
    RandomBytes,
}

/// All kinds, in the order [`mutate`] cycles through them.
pub const KINDS: [Kind; 6] = [
    Kind::Delete,
    Kind::Duplicate,
    Kind::Swap,
    Kind::Replace,
    Kind::Truncate,
    Kind::RandomBytes,
];

/// Produces one mutant of `src` (as bytes, since random-byte mutants may not be UTF-8).
pub fn mutate(src: &str, tokens: &[(usize, usize)], kind: Kind, rng: &mut Rng) -> Vec<u8> {
    let b = src.as_bytes();
    let pick = |rng: &mut Rng| tokens[rng.below(tokens.len())];
    if tokens.is_empty() && !matches!(kind, Kind::Truncate | Kind::RandomBytes) {
        return b.to_vec();
    }
    let mut out = Vec::with_capacity(b.len() + 16);
    match kind {
        Kind::Delete => {
            let (s, e) = pick(rng);
            out.extend_from_slice(&b[..s]);
            out.extend_from_slice(&b[e..]);
        }
        Kind::Duplicate => {
            let (s, e) = pick(rng);
            out.extend_from_slice(&b[..e]);
            out.push(b' ');
            out.extend_from_slice(&b[s..]);
        }
        Kind::Swap => {
            let i = rng.below(tokens.len());
            let j = if rng.below(2) == 0 {
                (i + 1).min(tokens.len() - 1)
            } else {
                rng.below(tokens.len())
            };
            let (a, c) = if tokens[i].0 <= tokens[j].0 {
                (tokens[i], tokens[j])
            } else {
                (tokens[j], tokens[i])
            };
            if a == c || a.1 > c.0 {
                return b.to_vec();
            }
            out.extend_from_slice(&b[..a.0]);
            out.extend_from_slice(&b[c.0..c.1]);
            out.extend_from_slice(&b[a.1..c.0]);
            out.extend_from_slice(&b[a.0..a.1]);
            out.extend_from_slice(&b[c.1..]);
        }
        Kind::Replace => {
            let (s, e) = pick(rng);
            out.extend_from_slice(&b[..s]);
            if rng.below(2) == 0 {
                let (rs, re) = pick(rng);
                out.extend_from_slice(&b[rs..re]);
            } else {
                out.extend_from_slice(INTERESTING[rng.below(INTERESTING.len())].as_bytes());
            }
            out.extend_from_slice(&b[e..]);
        }
        Kind::Truncate => {
            let n = rng.below(b.len() + 1);
            out.extend_from_slice(&b[..n]);
        }
        Kind::RandomBytes => {
            out.extend_from_slice(b);
            let count = 1 + rng.below(4);
            for _ in 0..count {
                let pos = rng.below(out.len() + 1);
                let byte = match rng.below(3) {
                    0 => (rng.next_u64() & 0xff) as u8,
                    1 => b"<>{}()[]%@#!:,=\"x0-"[rng.below(19)],
                    _ => (0x20 + rng.below(0x5f)) as u8,
                };
                if rng.below(2) == 0 && pos < out.len() {
                    out[pos] = byte;
                } else {
                    out.insert(pos, byte);
                }
            }
        }
    }
    out
}

/// Runs `tilec fmt` on a mutant and checks the robustness contract. Returns `Err` with an
/// explanation when the contract is broken (a panic is reported as an error, not
/// propagated).
pub fn check_mutant(bytes: &[u8]) -> Result<Outcome, String> {
    let run = |args: &[&str], input: &[u8]| -> Result<crate::Output, String> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let input = input.to_vec();
        std::panic::catch_unwind(move || {
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            run_bytes(&argv, &input)
        })
        .map_err(|e| format!("panic: {}", tilec_gpu::panic_message(&*e)))
    };
    // NVIDIA's personality runs other verifier paths: it must hold the same contract.
    let nv = run(
        &[
            "check",
            "-",
            "--compat=cuda-tile-opt",
            "--diagnostic-format=json",
        ],
        bytes,
    )?;
    if nv.status > 1 {
        return Err(format!(
            "--compat=cuda-tile-opt: exit status {}: {}",
            nv.status, nv.stderr
        ));
    }
    if let Some(l) = nv.stdout.lines().find(|l| l.contains("\"line\":null")) {
        return Err(format!(
            "--compat=cuda-tile-opt: diagnostic without a location: {l}"
        ));
    }
    let out = run(&["fmt", "-", "--diagnostic-format=json"], bytes)?;
    match out.status {
        0 => {
            let again = run(&["fmt", "-"], out.stdout.as_bytes())?;
            if again.status != 0 {
                return Err(format!(
                    "printed output does not parse again:\n{}\n--- output was:\n{}",
                    again.stderr, out.stdout
                ));
            }
            if again.stdout != out.stdout {
                return Err(format!(
                    "printing is not stable:\n{}\n--- vs ---\n{}",
                    out.stdout, again.stdout
                ));
            }
            check_canonicalize(&run, bytes)?;
            // Every accepted program compiles to PTX (or is rejected with a located
            // diagnostic), without a panic.
            let ptx = run(&["-", "-o", "-", "--diagnostic-format=json"], bytes)?;
            match ptx.status {
                0 => {}
                1 if !ptx.stdout.trim().is_empty() && !ptx.stdout.contains("\"line\":null") => {}
                s => {
                    return Err(format!(
                        "compiling an accepted program to PTX: exit status {s}: {}{}",
                        ptx.stdout, ptx.stderr
                    ));
                }
            }
            check_run(&run, bytes)?;
            Ok(Outcome::Accepted)
        }
        1 => {
            let lines: Vec<&str> = out.stdout.lines().collect();
            if lines.is_empty() {
                return Err("rejected without a diagnostic".into());
            }
            for l in lines {
                if !l.contains("\"severity\":\"error\"") && !l.contains("\"severity\":\"note\"") {
                    continue;
                }
                if l.contains("\"line\":null") {
                    return Err(format!("diagnostic without a location: {l}"));
                }
            }
            Ok(Outcome::Rejected)
        }
        s => Err(format!("exit status {s}: {}", out.stderr)),
    }
}

/// `tilec run` of the first entries of an accepted program with generated arguments
/// (a small scalar for each integer, 1.5 for each float, 4096 random elements behind each
/// pointer), on a 2x1x1 grid with a small op limit: the run ends with exit status 0, or 1
/// and a located diagnostic (undefined behaviour is common with such arguments), never a
/// panic.
fn check_run(run: &Runner<'_>, bytes: &[u8]) -> Result<(), String> {
    use tilec_ir::{Opcode, TypeData};
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Ok(());
    };
    let Ok(m) = tilec_parse::parse(text, tilec_diag::FileId(0), &Default::default()) else {
        return Ok(());
    };
    let types = &m.ctx.types;
    let mut entries: Vec<(String, Vec<Option<String>>)> = Vec::new();
    m.walk(|op| {
        if m.opcode(op) != Opcode::Entry || entries.len() >= 2 {
            return;
        }
        let name = match m.attr_named(op, "sym_name").map(|a| m.ctx.attrs.get(a)) {
            Some(tilec_ir::attrs::AttrData::String(s)) => s.to_string(),
            _ => return,
        };
        let Some(block) = m.entry_block(m.region(op, 0)) else {
            return;
        };
        let args = m
            .block_args(block)
            .iter()
            .map(|v| {
                let ty = m.value_type(*v);
                if !matches!(types.get(ty), TypeData::Tile { .. }) {
                    return None;
                }
                let elem = types.element_type(ty);
                Some(match types.get(elem) {
                    TypeData::Ptr(p) => format!("random:{}:4096:7", types.to_string(*p, false)),
                    TypeData::Float(_) => format!("{}:1.5", types.to_string(elem, false)),
                    TypeData::Int(1) => "i1:1".to_string(),
                    _ => format!("{}:16", types.to_string(elem, false)),
                })
            })
            .collect();
        entries.push((name, args));
    });
    for (name, args) in entries {
        let Some(args) = args.into_iter().collect::<Option<Vec<String>>>() else {
            continue;
        };
        let mut argv = vec![
            "run",
            "-",
            "--entry",
            &name,
            "--grid",
            "2",
            "-j",
            "1",
            "--max-ops",
            "5000",
            "--diagnostic-format=json",
        ];
        for a in &args {
            argv.extend(["--arg", a]);
        }
        let out = run(&argv, bytes)?;
        match out.status {
            0 => {}
            1 if out.stdout.contains("\"severity\":\"error\"")
                && !out.stdout.contains("\"line\":null") => {}
            s => {
                return Err(format!(
                    "tilec run of an accepted program (entry @{name}, {args:?}): exit status {s}: {}{}",
                    out.stdout, out.stderr
                ));
            }
        }
    }
    Ok(())
}

/// Runs `tilec ARGS` on bytes, catching panics.
type Runner<'a> = dyn Fn(&[&str], &[u8]) -> Result<crate::Output, String> + 'a;

/// The canonicalizer's contract on an accepted input, in both personalities: no panic,
/// output that verifies after every pass (`--verify-each`), and idempotence (canonicalizing
/// the output again changes nothing).
fn check_canonicalize(run: &Runner<'_>, bytes: &[u8]) -> Result<(), String> {
    for compat in ["--compat=spec", "--compat=cuda-tile-opt"] {
        let args = [
            "opt",
            "-",
            compat,
            "-p",
            "canonicalize,cse,dce",
            "--verify-each",
        ];
        let once = run(&args, bytes)?;
        if once.status != 0 {
            return Err(format!(
                "opt {compat}: exit status {}: {}",
                once.status, once.stderr
            ));
        }
        let canon = ["opt", "-", compat, "-p", "canonicalize"];
        let a = run(&canon, once.stdout.as_bytes())?;
        let b = run(&canon, a.stdout.as_bytes())?;
        if a.status != 0 || b.status != 0 || a.stdout != b.stdout {
            return Err(format!(
                "opt {compat}: canonicalize is not idempotent:\n{}\n--- then ---\n{}{}",
                a.stdout, b.stdout, b.stderr
            ));
        }
    }
    Ok(())
}

/// What happened to a mutant.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Parsed and printed.
    Accepted,
    /// Rejected with located diagnostics.
    Rejected,
}

/// Runs `tilec ARGS` in process with raw bytes on standard input.
pub fn run_bytes(args: &[&str], stdin: &[u8]) -> crate::Output {
    let mut argv: Vec<std::ffi::OsString> = vec!["tilec".into()];
    argv.extend(args.iter().map(|a| std::ffi::OsString::from(*a)));
    let mut input = std::io::Cursor::new(stdin.to_vec());
    let mut out = Vec::new();
    let mut err = Vec::new();
    let status = {
        let mut io = tilec::Io {
            stdin: &mut input,
            stdout: &mut out,
            stderr: &mut err,
            stderr_is_tty: false,
        };
        tilec::run(argv, &mut io)
    };
    crate::Output {
        status,
        stdout: String::from_utf8_lossy(&out).into_owned(),
        stderr: String::from_utf8_lossy(&err).into_owned(),
    }
}
