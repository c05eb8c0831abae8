//! Mutation testing (a few hundred mutants; `cargo xtask fuzz` runs 100,000+): inputs made
//! by deleting, duplicating, swapping and replacing tokens, truncating and inserting random
//! bytes never crash or hang tilec; every rejected mutant gets a located diagnostic and exit
//! status 1; every accepted mutant prints to text that parses again and prints the same.

use tilec_tests::mutate::{KINDS, Outcome, Rng, check_mutant, mutate, token_ranges};

fn seeds() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let root = tilec_tests::repo_root();
    let mut dirs = vec![root.join("examples")];
    if let Some(shared) = tilec_tests::shared_dir() {
        dirs.push(shared.join("conformance/cuda-tile-13.1"));
        dirs.push(shared.join("conformance/cutile-samples"));
    } else {
        tilec_tests::skipped(
            "mutation seeds from ../shared",
            "conformance files not found; using examples only",
        );
    }
    for d in dirs {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut files: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        files.sort();
        for p in files {
            if matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("mlir" | "tile")
            ) && let Ok(text) = std::fs::read_to_string(&p)
            {
                // Keep mutants small so that each run is fast: use the first chunk only.
                let chunk = text.split("\n// -----").next().unwrap_or("").to_string();
                out.push((p.display().to_string(), chunk));
            }
        }
    }
    out
}

#[test]
fn mutants_never_crash_and_always_explain_themselves() {
    let seeds = seeds();
    assert!(!seeds.is_empty(), "no seed inputs found");
    let per_seed = (400 / seeds.len()).max(20);
    let mut rng = Rng::new(0x711ec);
    let (mut accepted, mut rejected) = (0, 0);
    let mut failures = Vec::new();
    for (name, text) in &seeds {
        let tokens = token_ranges(text);
        for i in 0..per_seed {
            let kind = KINDS[i % KINDS.len()];
            let m = mutate(text, &tokens, kind, &mut rng);
            match check_mutant(&m) {
                Ok(Outcome::Accepted) => accepted += 1,
                Ok(Outcome::Rejected) => rejected += 1,
                Err(e) => failures.push(format!(
                    "{name} mutant {i} ({kind:?}): {e}\n--- mutant ---\n{}",
                    String::from_utf8_lossy(&m)
                )),
            }
        }
    }
    eprintln!(
        "mutation: {accepted} accepted, {rejected} rejected, {} failures",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        rejected > 0,
        "no mutant was rejected: the mutator is not doing its job"
    );
}
