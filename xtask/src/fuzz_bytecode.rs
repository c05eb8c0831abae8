//! `cargo xtask fuzz-bytecode [--mutants N] [--seed S]`: byte-level mutation of Tile IR
//! bytecode. N mutants (default 100,000) of the seeds (the cuTile corpus' `.tileirbc`, the
//! cuTile samples of `../shared`, and every example written as bytecode 13.1, 13.2 and
//! 13.3) run through `tilec fmt -` in process (`tilec_tests::mutate::check_bytecode_mutant`):
//! none may panic, exit with a status other than 0 or 1, reject without located errors, print
//! text that does not parse again, or take more than 2 s (a watchdog ends the run if one
//! runs for 20 s). Prints the rejections by the kind of their first message (top 10), the
//! slowest mutant, the wall time and throughput; failing mutants are saved to
//! `bench-out/fuzz-bytecode/`. Exit status 1 on any failure.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tilec_tests::mutate::{
    BYTE_KINDS, Outcome, Rng, bytecode_seeds, check_bytecode_mutant_detail, message_kind,
    mutate_bytes,
};

/// Per thread: everything it counted.
#[derive(Default)]
struct Tally {
    accepted: usize,
    rejected: usize,
    kinds: HashMap<String, usize>,
    slowest: (Duration, String),
    /// (description, mutant)
    failures: Vec<(String, Vec<u8>)>,
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs the fuzzer; returns the exit status.
pub fn fuzz_bytecode(mutants: usize, seed: u64) -> i32 {
    let seeds = bytecode_seeds();
    if seeds.is_empty() {
        eprintln!("no bytecode seeds found");
        return 1;
    }
    let seeds = Arc::new(seeds);
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2);
    let next = Arc::new(AtomicUsize::new(0));
    let heartbeats: Arc<Vec<AtomicU64>> =
        Arc::new((0..threads).map(|_| AtomicU64::new(0)).collect());
    let current: Arc<Vec<Mutex<Vec<u8>>>> =
        Arc::new((0..threads).map(|_| Mutex::new(Vec::new())).collect());
    let done = Arc::new(AtomicBool::new(false));
    let out_dir = crate::root().join("bench-out/fuzz-bytecode");
    let start = Instant::now();
    let mut handles = Vec::new();
    for t in 0..threads {
        let (seeds, next, heartbeats, current) = (
            seeds.clone(),
            next.clone(),
            heartbeats.clone(),
            current.clone(),
        );
        handles.push(std::thread::spawn(move || {
            let mut tally = Tally::default();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= mutants {
                    break;
                }
                let n = seeds.len();
                let (name, bytes) = &seeds[i % n];
                let mut rng = Rng::new(seed ^ (i as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
                let other = &seeds[rng.below(n)].1;
                let kind = BYTE_KINDS[(i / n) % BYTE_KINDS.len()];
                let mut m = mutate_bytes(bytes, other, kind, &mut rng);
                // Every fourth round stacks up to three more mutations of random kinds.
                if (i / (n * BYTE_KINDS.len())) % 4 == 3 {
                    for _ in 0..1 + rng.below(3) {
                        let k = BYTE_KINDS[rng.below(BYTE_KINDS.len())];
                        m = mutate_bytes(&m, other, k, &mut rng);
                    }
                }
                if let Ok(mut c) = current[t].lock() {
                    c.clone_from(&m);
                }
                heartbeats[t].store(start.elapsed().as_millis() as u64 + 1, Ordering::Relaxed);
                let what = format!("{name} #{i} {kind:?}");
                match check_bytecode_mutant_detail(&m) {
                    Ok(o) => {
                        if o.outcome == Outcome::Accepted {
                            tally.accepted += 1;
                        } else {
                            tally.rejected += 1;
                            let k = message_kind(o.message.as_deref().unwrap_or(""));
                            *tally.kinds.entry(k).or_default() += 1;
                        }
                        if o.elapsed > tally.slowest.0 {
                            tally.slowest = (o.elapsed, what);
                        }
                    }
                    Err(e) => tally.failures.push((format!("{what}: {e}"), m)),
                }
            }
            heartbeats[t].store(0, Ordering::Relaxed);
            tally
        }));
    }
    // Watchdog: a mutant that runs for more than 20 s is a hang; save it and stop.
    let watchdog = {
        let (heartbeats, current, done, out_dir) = (
            heartbeats.clone(),
            current.clone(),
            done.clone(),
            out_dir.clone(),
        );
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(500));
                let now = start.elapsed().as_millis() as u64;
                for (t, hb) in heartbeats.iter().enumerate() {
                    let since = hb.load(Ordering::Relaxed);
                    if since != 0 && now.saturating_sub(since) > 20_000 {
                        let m = current[t].lock().map(|m| m.clone()).unwrap_or_default();
                        let _ = std::fs::create_dir_all(&out_dir);
                        let p = out_dir.join("hang.tileirbc");
                        let _ = std::fs::write(&p, &m);
                        eprintln!(
                            "HANG: a mutant has been running for more than 20 s (saved as {}):\n{}",
                            p.display(),
                            hex(&m)
                        );
                        std::process::exit(1);
                    }
                }
            }
        })
    };
    let mut last = Instant::now();
    while next.load(Ordering::Relaxed) < mutants {
        std::thread::sleep(Duration::from_millis(200));
        if last.elapsed() > Duration::from_secs(10) {
            last = Instant::now();
            eprintln!(
                "  {} / {mutants} mutants",
                next.load(Ordering::Relaxed).min(mutants)
            );
        }
    }
    let mut total = Tally::default();
    for h in handles {
        let Ok(t) = h.join() else {
            total
                .failures
                .push(("a fuzzing thread panicked".into(), Vec::new()));
            continue;
        };
        total.accepted += t.accepted;
        total.rejected += t.rejected;
        for (k, n) in t.kinds {
            *total.kinds.entry(k).or_default() += n;
        }
        if t.slowest.0 > total.slowest.0 {
            total.slowest = t.slowest;
        }
        total.failures.extend(t.failures);
    }
    done.store(true, Ordering::Relaxed);
    let _ = watchdog.join();
    let secs = start.elapsed().as_secs_f64();

    println!("# cargo xtask fuzz-bytecode --mutants {mutants} --seed {seed}");
    println!();
    println!(
        "seeds:    {} (cuTile corpus and samples, every example as bytecode 13.1, 13.2, 13.3)",
        seeds.len()
    );
    println!("mutants:  {mutants} on {threads} threads");
    println!("accepted: {}", total.accepted);
    println!(
        "rejected: {} (every error located by byte offset)",
        total.rejected
    );
    let mut kinds: Vec<(String, usize)> = total.kinds.into_iter().collect();
    kinds.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (k, n) in kinds.iter().take(10) {
        println!("  {n:>7}  {k}");
    }
    if kinds.len() > 10 {
        let rest: usize = kinds[10..].iter().map(|(_, n)| n).sum();
        println!("  {rest:>7}  ({} other kinds)", kinds.len() - 10);
    }
    println!("failures: {}", total.failures.len());
    println!(
        "slowest:  {:.1} ms ({}; the limit is 2 s)",
        total.slowest.0.as_secs_f64() * 1e3,
        total.slowest.1
    );
    println!(
        "time:     {secs:.1} s ({:.0} mutants/s)",
        mutants as f64 / secs
    );
    if total.failures.is_empty() {
        return 0;
    }
    let _ = std::fs::create_dir_all(&out_dir);
    for (i, (msg, bytes)) in total.failures.iter().enumerate().take(50) {
        let p = out_dir.join(format!("failure-{i}.tileirbc"));
        let _ = std::fs::write(&p, bytes);
        if i < 5 {
            println!(
                "FAILURE {msg}\n  saved as {}\n  {}",
                p.display(),
                hex(bytes)
            );
        }
    }
    1
}
