//! `cargo xtask fuzz --resource [--mutants N] [--seed S]`: mutants that push sizes toward
//! their extremes, run through the real `tilec` binary under the limits of
//! docs/limits.md's tests: a 2 GB address space (`ulimit -v`) and 20 s.
//!
//! Seeds are the cases of the GPU sweep's plan (every example entry, the cuTile corpus and,
//! when `../shared` is present, NVIDIA's conformance kernels), each with its entry, grid and
//! `--arg`s. A mutant changes one or more of: an integer in the kernel text (tile
//! dimensions, constants, loop bounds, `print` widths), a dimension of the grid, or the
//! shape of a generated argument, to a value from a list of extremes (0, 1, powers of two up
//! to 2^64, 10^30, negative values). Even mutants are compiled to PTX (`tilec FILE -o
//! /dev/null`), odd ones run in the interpreter (`tilec run ... --max-ops 100000`).
//!
//! A mutant passes when tilec ends with status 0, 1 (a diagnostic) or 2 with a usage error
//! (a bad `--arg` or `--grid`), within the limits. It fails on a signal (an abort, a stack
//! overflow, running out of the address space), a panic ("internal error"), a status 1
//! without a located diagnostic, or a run past 20 s, except that a run of a grid of more
//! than 2^20 tile blocks may take that long legitimately: it is stopped and counted apart.
//! Prints the outcomes, the largest peak RSS of any child (`wait4`'s `ru_maxrss`) and the
//! mutant that reached it; failing mutants are saved to `bench-out/fuzz-resource/`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tilec_tests::gpusweep::{self, SweepCase};
use tilec_tests::mutate::Rng;

/// The values a mutated number takes.
const EXTREMES: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "1024",
    "65536",
    "1048576",
    "16777216",
    "33554432",
    "2147483647",
    "2147483648",
    "4294967296",
    "4611686018427387904",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "1000000000000000000000000000000",
    "-1",
    "-2147483648",
];

/// Grid dimensions a mutant may take (`0` and `2^32` are usage errors).
const GRIDS: &[&str] = &[
    "1",
    "2",
    "65536",
    "1048576",
    "2147483647",
    "0",
    "4294967296",
];

/// What one mutant did.
enum Verdict {
    Ok { code: i32, rss_kb: i64 },
    HugeGridTimeout,
    Fail(String),
}

/// Per-thread counts.
#[derive(Default)]
struct Tally {
    by_code: [usize; 3],
    huge_grid_timeouts: usize,
    peak_rss_kb: i64,
    peak_mutant: String,
    failures: Vec<(String, String)>,
}

/// One mutant: the kernel text, the command-line arguments after the file, and a label.
struct Mutant {
    text: String,
    args: Vec<String>,
    label: String,
    huge_grid: bool,
}

fn mutate_number(text: &str, rng: &mut Rng) -> Option<String> {
    // Digit runs that stand alone or as a dimension (`1024x`, `x64`), not inside names.
    let bytes = text.as_bytes();
    let mut runs = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let before = if start == 0 { b' ' } else { bytes[start - 1] };
            // Skip digits that are part of an identifier (`%x2`, `f32`, `@k0`) or of a hex
            // literal, but keep dimensions (`4x8`, `x16`).
            let in_name = before.is_ascii_alphabetic() && before != b'x'
                || before == b'_'
                || before == b'%'
                || before == b'@'
                || before == b'#';
            let hex =
                i < bytes.len() && (bytes[i] == b'x' && bytes[start] == b'0' && i == start + 1);
            if !in_name && !hex {
                runs.push((start, i));
            }
        } else {
            i += 1;
        }
    }
    if runs.is_empty() {
        return None;
    }
    let (s, e) = runs[rng.below(runs.len())];
    let v = EXTREMES[rng.below(EXTREMES.len())];
    Some(format!("{}{v}{}", &text[..s], &text[e..]))
}

fn mutate_arg(arg: &str, rng: &mut Rng) -> String {
    // `random:f32:1000:1`, `zeros:f32:8x8`, `i32:5`, `@x.npy`: the shape (or the scalar).
    let parts: Vec<&str> = arg.split(':').collect();
    let v = EXTREMES[rng.below(EXTREMES.len())];
    match parts.as_slice() {
        [g, t, _shape, rest @ ..] => {
            let shape = if rng.below(2) == 0 {
                v.to_string()
            } else {
                format!("{v}x{}", EXTREMES[rng.below(EXTREMES.len())])
            };
            let mut out = format!("{g}:{t}:{shape}");
            for r in rest {
                out.push(':');
                out.push_str(r);
            }
            out
        }
        [t, _value] => format!("{t}:{v}"),
        _ => arg.to_string(),
    }
}

fn mutant(case: &SweepCase, i: usize, seed: u64) -> Mutant {
    let mut rng = Rng::new(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut text = case.text.clone();
    let mut grid: Vec<String> = case.grid.iter().map(u32::to_string).collect();
    let mut args = case.args.clone();
    let mut what = Vec::new();
    for _ in 0..1 + rng.below(3) {
        match rng.below(4) {
            0 | 1 => {
                if let Some(t) = mutate_number(&text, &mut rng) {
                    text = t;
                    what.push("number");
                }
            }
            2 => {
                let d = rng.below(3);
                grid[d] = GRIDS[rng.below(GRIDS.len())].to_string();
                what.push("grid");
            }
            _ => {
                if !args.is_empty() {
                    let k = rng.below(args.len());
                    args[k] = mutate_arg(&args[k], &mut rng);
                    what.push("arg");
                }
            }
        }
    }
    let blocks: f64 = grid
        .iter()
        .map(|g| g.parse::<f64>().unwrap_or(1.0))
        .product();
    let mut cli = Vec::new();
    if i.is_multiple_of(2) {
        cli.extend(["-o".to_string(), "/dev/null".to_string()]);
    } else {
        cli.push("run".into());
        cli.extend(["--entry".into(), case.entry.clone()]);
        cli.extend(["--grid".into(), grid.join(",")]);
        for a in &args {
            cli.push("--arg".into());
            cli.push(a.clone());
        }
        cli.extend(["--max-ops".into(), "100000".into(), "-j".into(), "1".into()]);
    }
    Mutant {
        text,
        args: cli,
        label: format!("{} #{i} ({})", case.label, what.join("+")),
        huge_grid: i % 2 == 1 && blocks > 4096.0,
    }
}

/// Runs tilec on one mutant (the kernel in `file`).
fn check(tilec: &Path, file: &Path, m: &Mutant) -> Verdict {
    let mut args: Vec<String> = Vec::new();
    if m.args.first().map(String::as_str) == Some("run") {
        args.push("run".into());
        args.push(file.display().to_string());
        args.extend(m.args[1..].iter().cloned());
    } else {
        args.push(file.display().to_string());
        args.extend(m.args.iter().cloned());
    }
    args.push("--diagnostic-format=mlir".into());
    let child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2097152; exec \"$0\" \"$@\"")
        .arg(tilec)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return Verdict::Fail(format!("cannot start tilec: {e}")),
    };
    let pid = child.id() as libc::pid_t;
    let stderr = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        if let Some(mut s) = stderr {
            use std::io::Read;
            let _ = s.read_to_end(&mut v);
        }
        v
    });
    let start = Instant::now();
    let (status, rss_kb) = loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value, and `pid` is our child's.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `status` and `usage` are valid for writes; WNOHANG does not block.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break (status, usage.ru_maxrss);
        }
        if r < 0 {
            return Verdict::Fail("wait4 failed".into());
        }
        // A big grid's run may take long legitimately (every block runs up to
        // --max-ops ops): it is stopped after 2 s and counted apart.
        let limit = if m.huge_grid { 2 } else { 20 };
        if start.elapsed() > Duration::from_secs(limit) {
            let _ = child.kill();
            // SAFETY: reaps the killed child.
            unsafe { libc::waitpid(pid, &mut status, 0) };
            let _ = reader.join();
            return if m.huge_grid {
                Verdict::HugeGridTimeout
            } else {
                Verdict::Fail("ran past 20 s".into())
            };
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let err = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
    if libc::WIFSIGNALED(status) {
        return Verdict::Fail(format!(
            "killed by signal {}: {}",
            libc::WTERMSIG(status),
            err.lines().last().unwrap_or("")
        ));
    }
    let code = libc::WEXITSTATUS(status);
    if err.contains("internal error") {
        return Verdict::Fail(format!(
            "internal error: {}",
            err.lines().next().unwrap_or("")
        ));
    }
    match code {
        0 => Verdict::Ok { code, rss_kb },
        1 if err.contains(": error: ") => Verdict::Ok { code, rss_kb },
        1 => Verdict::Fail(format!("exit 1 without a located error: {err}")),
        2 if err.starts_with("tilec: error: ")
            || err.contains("\ntilec: error: ")
            || err.contains("error: invalid value")
            || err.contains("Usage:") =>
        {
            Verdict::Ok { code, rss_kb }
        }
        c => Verdict::Fail(format!("exit {c}: {err}")),
    }
}

/// Runs the fuzzer; returns the exit status.
pub fn fuzz_resource(mutants: usize, seed: u64) -> i32 {
    let root = crate::root();
    eprintln!("building the tilec binary (cargo build --release -p tilec)");
    let built = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--release", "--quiet", "-p", "tilec"])
        .current_dir(&root)
        .status();
    let tilec = root.join("target/release/tilec");
    if !matches!(built, Ok(s) if s.success()) || !tilec.is_file() {
        eprintln!("cannot build {}", tilec.display());
        return 2;
    }
    let mut seeds = gpusweep::example_cases();
    seeds.extend(gpusweep::corpus_cases().0);
    seeds.extend(gpusweep::conformance_cases().0);
    let seeds = Arc::new(seeds);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = Arc::new(AtomicUsize::new(0));
    let tallies = Arc::new(Mutex::new(Vec::new()));
    let tmp = std::env::temp_dir().join(format!("tilec-fuzz-resource-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&tmp);
    let start = Instant::now();
    let mut handles = Vec::new();
    for t in 0..threads {
        let (seeds, next, tallies, tilec, tmp) = (
            seeds.clone(),
            next.clone(),
            tallies.clone(),
            tilec.clone(),
            tmp.clone(),
        );
        handles.push(std::thread::spawn(move || {
            let mut tally = Tally::default();
            let file = tmp.join(format!("m{t}.tile"));
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= mutants {
                    break;
                }
                if i % 5000 == 0 && i > 0 {
                    eprintln!("  {i} mutants, {:.0} s", start.elapsed().as_secs_f64());
                }
                let case = &seeds[i % seeds.len()];
                let m = mutant(case, i, seed);
                if std::fs::write(&file, &m.text).is_err() {
                    tally
                        .failures
                        .push((m.label, "cannot write the mutant".into()));
                    continue;
                }
                match check(&tilec, &file, &m) {
                    Verdict::Ok { code, rss_kb } => {
                        tally.by_code[code as usize] += 1;
                        if rss_kb > tally.peak_rss_kb {
                            tally.peak_rss_kb = rss_kb;
                            tally.peak_mutant = format!("{} (tilec {})", m.label, m.args.join(" "));
                        }
                    }
                    Verdict::HugeGridTimeout => tally.huge_grid_timeouts += 1,
                    Verdict::Fail(why) => {
                        let dir = crate::root().join("bench-out/fuzz-resource");
                        let _ = std::fs::create_dir_all(&dir);
                        let n = tally.failures.len();
                        let _ = std::fs::write(dir.join(format!("t{t}-{n}.tile")), &m.text);
                        let _ =
                            std::fs::write(dir.join(format!("t{t}-{n}.args")), m.args.join(" "));
                        tally
                            .failures
                            .push((format!("{} (tilec {})", m.label, m.args.join(" ")), why));
                    }
                }
            }
            tallies.lock().unwrap().push(tally);
        }));
    }
    for h in handles {
        let _ = h.join();
    }
    let _ = std::fs::remove_dir_all(&tmp);
    let tallies = tallies.lock().unwrap();
    let mut total = Tally::default();
    for t in tallies.iter() {
        for k in 0..3 {
            total.by_code[k] += t.by_code[k];
        }
        total.huge_grid_timeouts += t.huge_grid_timeouts;
        if t.peak_rss_kb > total.peak_rss_kb {
            total.peak_rss_kb = t.peak_rss_kb;
            total.peak_mutant = t.peak_mutant.clone();
        }
        total.failures.extend(t.failures.iter().cloned());
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "fuzz --resource: {mutants} mutants of {} seeds in {secs:.0} s ({:.0}/s), seed {seed}, {threads} threads",
        seeds.len(),
        mutants as f64 / secs
    );
    println!(
        "  exit 0: {}, exit 1 (located diagnostic): {}, exit 2 (usage error): {}, runs of over 4096 blocks stopped at 2 s: {}",
        total.by_code[0], total.by_code[1], total.by_code[2], total.huge_grid_timeouts
    );
    println!(
        "  peak RSS of one tilec process: {:.1} MB ({})",
        total.peak_rss_kb as f64 / 1024.0,
        total.peak_mutant
    );
    println!("  failures: {}", total.failures.len());
    for (label, why) in total.failures.iter().take(20) {
        println!("  FAIL {label}: {why}");
    }
    if total.failures.is_empty() { 0 } else { 1 }
}
