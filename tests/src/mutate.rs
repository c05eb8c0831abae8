//! Input mutation for robustness testing: token deletion, duplication, swapping and
//! replacement, truncation and random bytes, driven by a deterministic PRNG.
//!
//! [`check_mutant`] runs one mutant through `tilec fmt` (and `tilec check
//! --compat=cuda-tile-opt`) in process and checks the
//! robustness contract: no panic, exit status 0 or 1, every rejection carries a located
//! diagnostic, every accepted input prints to text that parses again and prints the
//! same, canonicalizes, compiles to PTX, and runs in the interpreter (`tilec run`).
//!
//! For Tile IR bytecode, [`mutate_bytes`] mutates bytes (bit flips, boundary values,
//! deleted, inserted and duplicated ranges, truncation, huge varints, chunks spliced from
//! another seed, random bytes behind a valid header) and [`check_bytecode_mutant`] runs
//! `tilec fmt -` on the mutant: no panic, no hang, exit status 0 or 1, every error located
//! (by byte offset), and the text printed for an accepted mutant parses again.

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
    // 13.3's Transforms passes keep a valid module valid.
    let transforms = [
        "opt",
        "-",
        "-p",
        "fuse-fma,loop-split,synthesize-debug-info-scopes",
        "--verify-each",
    ];
    let t = run(&transforms, bytes)?;
    if t.status != 0 {
        return Err(format!(
            "opt -p fuse-fma,loop-split,synthesize-debug-info-scopes: exit status {}: {}",
            t.status, t.stderr
        ));
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

/// The byte-level mutation kinds for binary inputs (Tile IR bytecode).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ByteKind {
    /// Flip one bit.
    FlipBit,
    /// Set a byte to a random or boundary value (0x00, 0x7f, 0x80, 0xff).
    SetByte,
    /// Delete a byte range.
    DeleteRange,
    /// Insert random bytes.
    InsertRange,
    /// Duplicate a byte range in place.
    DuplicateRange,
    /// Truncate the input.
    Truncate,
    /// Overwrite a varint-looking byte run with a varint that is too large.
    HugeVarint,
    /// Splice a chunk of another seed in.
    Splice,
    /// Keep the header (magic and version) and follow it with random bytes.
    RandomBody,
}

/// All byte kinds, in the order the callers cycle through them (the random body last: it
/// is the least interesting, and callers may skip it most of the time).
pub const BYTE_KINDS: [ByteKind; 9] = [
    ByteKind::FlipBit,
    ByteKind::SetByte,
    ByteKind::DeleteRange,
    ByteKind::InsertRange,
    ByteKind::DuplicateRange,
    ByteKind::Truncate,
    ByteKind::HugeVarint,
    ByteKind::Splice,
    ByteKind::RandomBody,
];

/// A range length: mostly short, sometimes long.
fn range_len(rng: &mut Rng, max: usize) -> usize {
    let cap = if rng.below(4) == 0 { 256 } else { 8 };
    (1 + rng.below(cap)).min(max.max(1))
}

/// Produces one byte-level mutant of `seed`; `other` is another seed, for splicing.
pub fn mutate_bytes(seed: &[u8], other: &[u8], kind: ByteKind, rng: &mut Rng) -> Vec<u8> {
    let mut out = seed.to_vec();
    let n = out.len();
    match kind {
        ByteKind::FlipBit if n > 0 => {
            let i = rng.below(n);
            out[i] ^= 1 << rng.below(8);
        }
        ByteKind::SetByte if n > 0 => {
            let i = rng.below(n);
            out[i] = match rng.below(5) {
                0 => 0x00,
                1 => 0x7f,
                2 => 0x80,
                3 => 0xff,
                _ => (rng.next_u64() & 0xff) as u8,
            };
        }
        ByteKind::DeleteRange if n > 0 => {
            let s = rng.below(n);
            let len = range_len(rng, n - s);
            out.drain(s..s + len);
        }
        ByteKind::InsertRange => {
            let s = rng.below(n + 1);
            let len = range_len(rng, 256);
            let bytes: Vec<u8> = (0..len).map(|_| (rng.next_u64() & 0xff) as u8).collect();
            out.splice(s..s, bytes);
        }
        ByteKind::DuplicateRange if n > 0 => {
            let s = rng.below(n);
            let len = range_len(rng, n - s);
            let chunk = out[s..s + len].to_vec();
            let at = if rng.below(2) == 0 {
                s + len
            } else {
                rng.below(n + 1)
            };
            out.splice(at..at, chunk);
        }
        ByteKind::Truncate => out.truncate(rng.below(n + 1)),
        ByteKind::HugeVarint if n > 0 => {
            // A run of continuation bytes and its last byte, or a single byte.
            let s = rng.below(n);
            let mut e = s;
            while e < n && out[e] & 0x80 != 0 {
                e += 1;
            }
            let e = (e + 1).min(n);
            let huge: &[u8] = match rng.below(3) {
                0 => &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
                1 => &[0xff, 0xff, 0xff, 0xff, 0x0f],
                _ => &[
                    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
                ],
            };
            out.splice(s..e, huge.iter().copied());
        }
        ByteKind::Splice if !other.is_empty() => {
            let s = rng.below(other.len());
            let len = range_len(rng, other.len() - s);
            let chunk = &other[s..s + len];
            let at = rng.below(n + 1);
            if rng.below(2) == 0 {
                let end = (at + len).min(n);
                out.splice(at..end, chunk.iter().copied());
            } else {
                out.splice(at..at, chunk.iter().copied());
            }
        }
        ByteKind::RandomBody => {
            // Magic (8 bytes) and version (3 varints, usually one byte each).
            let keep = if rng.below(2) == 0 { 8 } else { 11 };
            out.truncate(keep.min(n));
            let len = rng.below(512);
            out.extend((0..len).map(|_| (rng.next_u64() & 0xff) as u8));
        }
        _ => {}
    }
    out
}

/// What happened to a bytecode mutant, with the first error message of a rejection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BytecodeOutcome {
    /// Accepted or rejected.
    pub outcome: Outcome,
    /// The first error message of a rejection.
    pub message: Option<String>,
    /// How long `tilec fmt` took.
    pub elapsed: std::time::Duration,
}

/// The longest a bytecode mutant may take (anything slower counts as a hang).
pub const BYTECODE_TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Runs `tilec fmt -` on a bytecode mutant in process and checks the robustness contract:
/// no panic, exit status 0 or 1, every error of a rejection located (a byte offset or a
/// line), the text printed for an accepted mutant parses again, and no more than
/// [`BYTECODE_TIME_LIMIT`].
pub fn check_bytecode_mutant(bytes: &[u8]) -> Result<Outcome, String> {
    check_bytecode_mutant_detail(bytes).map(|o| o.outcome)
}

/// [`check_bytecode_mutant`], also returning the first error message and the time taken.
pub fn check_bytecode_mutant_detail(bytes: &[u8]) -> Result<BytecodeOutcome, String> {
    let input = bytes.to_vec();
    let start = std::time::Instant::now();
    let out = std::panic::catch_unwind(move || {
        run_bytes(&["fmt", "-", "--diagnostic-format=json"], &input)
    })
    .map_err(|e| format!("panic: {}", tilec_gpu::panic_message(&*e)))?;
    let elapsed = start.elapsed();
    if elapsed > BYTECODE_TIME_LIMIT {
        return Err(format!(
            "took {:.2} s (the limit is {} s)",
            elapsed.as_secs_f64(),
            BYTECODE_TIME_LIMIT.as_secs()
        ));
    }
    match out.status {
        0 => {
            if let Err(d) = tilec_parse::parse(
                &out.stdout,
                tilec_diag::FileId(0),
                &tilec_parse::ParseOptions::default(),
            ) {
                return Err(format!(
                    "printed output does not parse again: {:?}\n--- output was:\n{}",
                    d.first().map(|d| &d.message),
                    out.stdout
                ));
            }
            Ok(BytecodeOutcome {
                outcome: Outcome::Accepted,
                message: None,
                elapsed,
            })
        }
        1 => {
            let mut first = None;
            for l in out.stdout.lines() {
                if !l.contains("\"severity\":\"error\"") {
                    continue;
                }
                // The message is escaped, so the first `,"file":` is the diagnostic's own
                // location; a located one has a line or a byte offset.
                let loc = l.split_once(",\"file\":").map_or("", |(_, r)| r);
                let located = !loc.starts_with("null")
                    && (!loc.contains("\"line\":null,") || loc.contains("\"byte_offset\":"));
                if !located {
                    return Err(format!("diagnostic without a location: {l}"));
                }
                if first.is_none() {
                    first = Some(json_message(l));
                }
            }
            let Some(message) = first else {
                return Err(format!(
                    "rejected without an error diagnostic: {}{}",
                    out.stdout, out.stderr
                ));
            };
            Ok(BytecodeOutcome {
                outcome: Outcome::Rejected,
                message: Some(message),
                elapsed,
            })
        }
        s => Err(format!("exit status {s}: {}{}", out.stdout, out.stderr)),
    }
}

/// The `message` field of a JSON diagnostic line (escapes kept as written).
fn json_message(line: &str) -> String {
    let Some((_, rest)) = line.split_once("\"message\":\"") else {
        return String::new();
    };
    let mut out = String::new();
    let mut escaped = false;
    for c in rest.chars() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == '"' {
            break;
        }
        out.push(c);
    }
    out
}

/// The kind of a diagnostic message: digit runs become `N` and quoted names `'…'`, so that
/// messages differing only in numbers or names count together.
pub fn message_kind(message: &str) -> String {
    let mut out = String::new();
    let mut in_quote = false;
    let mut last_digit = false;
    for c in message.chars() {
        if in_quote {
            if c == '\'' {
                in_quote = false;
                out.push_str("…'");
            }
            continue;
        }
        if c == '\'' {
            in_quote = true;
            out.push('\'');
            last_digit = false;
        } else if c.is_ascii_digit() {
            if !last_digit {
                out.push('N');
            }
            last_digit = true;
        } else {
            last_digit = false;
            out.push(c);
        }
    }
    out
}

/// The seeds of bytecode mutation: the cuTile corpus (`tests/corpus/cutile/*.tileirbc`), the
/// cuTile samples of `../shared` when present, and every example written as bytecode in each
/// supported version.
pub fn bytecode_seeds() -> Vec<(String, Vec<u8>)> {
    let root = crate::repo_root();
    let mut out = Vec::new();
    let mut dirs = vec![root.join("tests/corpus/cutile")];
    if let Some(shared) = crate::shared_dir() {
        dirs.push(shared.join("conformance/cutile-samples"));
        // NVIDIA's binary inputs: 13.1 files and deliberately broken ones.
        let t = shared.join("conformance/cuda-tile-13.3/test/Bytecode");
        dirs.push(t.join("invalid"));
        dirs.push(t.join("versioning/Inputs/13.1"));
    }
    for d in dirs {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut files: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        files.sort();
        for p in files {
            if p.extension().is_some_and(|e| e == "tileirbc" || e == "bc")
                && let Ok(b) = std::fs::read(&p)
            {
                out.push((p.display().to_string(), b));
            }
        }
    }
    let mut files: Vec<_> = ["examples", "tests/op_samples"]
        .iter()
        .filter_map(|d| std::fs::read_dir(root.join(d)).ok())
        .flat_map(|rd| rd.flatten().map(|e| e.path()))
        .collect();
    files.sort();
    for p in files {
        if p.extension().is_none_or(|e| e != "tile") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        let Ok(m) = tilec_parse::parse(&text, tilec_diag::FileId(0), &Default::default()) else {
            continue;
        };
        for v in tilec_bytecode::Version::SUPPORTED
            .into_iter()
            .chain(tilec_bytecode::Version::TESTING)
        {
            if let Ok(b) = tilec_bytecode::write(&m, v) {
                out.push((format!("{} (bytecode {v})", p.display()), b));
            }
        }
    }
    out
}
