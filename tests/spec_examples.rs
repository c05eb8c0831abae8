//! The spec's own examples (code blocks of tile-ir-operations.md and tile-ir-views.md in
//! `../shared/spec`) parse. Snippets are wrapped in a module (and an entry, unless they
//! define their own); a snippet that uses values it does not define may only fail with
//! "use of undeclared SSA value name"; those that parse format to a fixed point. Two examples are wrong in the spec itself; they must
//! be rejected with exactly the diagnostics listed here.

use tilec_tests::{run_tilec, shared_dir, skipped};

/// Spec examples that are not valid tile IR, with the first diagnostic tilec gives.
const SPEC_ERRATA: &[(&str, &str)] = &[
    // get_num_tile_blocks returns three rank-0 tiles; the example writes `tile<3xi32>`,
    // and 3 is not a power of two.
    (
        "get_num_tile_blocks : tile<3xi32>",
        "all dimensions must be powers of two, got 3",
    ),
    // A partition view without its tile shape (`tile=(...)`).
    (
        ": partition_view<tensor_view<?x8192x64xf32",
        "custom op 'cuda_tile.make_partition_view' expected 'tile'",
    ),
];

/// The code blocks of a markdown file that hold IR (not the one-line syntax summaries
/// such as `cuda_tile.addf %lhs %rhs`), with the line of their first line.
fn ir_blocks(md: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut lines = md.lines().enumerate();
    while let Some((_, l)) = lines.next() {
        if !l.trim_start().starts_with("```") {
            continue;
        }
        let mut body = Vec::new();
        let mut first = 0;
        for (i, l) in lines.by_ref() {
            if l.trim_start().starts_with("```") {
                break;
            }
            if body.is_empty() {
                first = i + 1;
            }
            body.push(l);
        }
        let code: Vec<&str> = body
            .iter()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty() && !l.starts_with("//"))
            .collect();
        let summary = |l: &&str| {
            l.starts_with("cuda_tile.")
                && l.split_whitespace()
                    .skip(1)
                    .all(|w| w.starts_with('%') && !w.contains(['<', ':', ',']))
        };
        let looks_like_ir = code.iter().any(|l| {
            l.starts_with('%')
                || [
                    "entry ", "global ", "print ", "return", "yield", "store_", "make_",
                ]
                .iter()
                .any(|k| l.starts_with(k))
        });
        if looks_like_ir && !code.iter().all(summary) {
            out.push((first, body.join("\n")));
        }
    }
    out
}

fn wrap(body: &str) -> String {
    let defines_items = body
        .lines()
        .any(|l| l.trim_start().starts_with("entry ") || l.trim_start().starts_with("global "));
    if body.contains("cuda_tile.module") {
        body.to_string()
    } else if defines_items {
        format!("cuda_tile.module @m {{\n{body}\n}}\n")
    } else {
        format!("cuda_tile.module @m {{\nentry @e() {{\n{body}\n}}\n}}\n")
    }
}

#[test]
fn spec_examples_parse() {
    let Some(shared) = shared_dir() else {
        skipped(
            "spec examples",
            "../shared/spec not found (set TILEC_SHARED_DIR)",
        );
        return;
    };
    let mut failures = Vec::new();
    let (mut clean, mut undeclared, mut errata) = (0, 0, 0);
    for name in ["tile-ir-operations.md", "tile-ir-views.md"] {
        let md = std::fs::read_to_string(shared.join("spec").join(name)).expect("spec file");
        for (line, body) in ir_blocks(&md) {
            let out = run_tilec(&["check", "--diagnostic-format=mlir", "-"], &wrap(&body));
            let errors: Vec<&str> = out
                .stderr
                .lines()
                .filter_map(|l| l.split_once(" error: ").map(|x| x.1))
                .collect();
            let expected_error = SPEC_ERRATA
                .iter()
                .find(|(needle, _)| body.contains(needle))
                .map(|e| e.1);
            match (out.status, expected_error) {
                (0, None) => {
                    clean += 1;
                    // And it formats to a fixed point.
                    let once = run_tilec(&["fmt", "-"], &wrap(&body)).stdout;
                    let twice = run_tilec(&["fmt", "-"], &once).stdout;
                    if once != twice || once.is_empty() {
                        failures.push(format!(
                            "{name}:{line}: not a fixed point:\n{once}\n{twice}"
                        ));
                    }
                }
                (1, None)
                    if errors
                        .iter()
                        .all(|e| *e == "use of undeclared SSA value name") =>
                {
                    undeclared += 1
                }
                (1, Some(want)) if errors.first() == Some(&want) => errata += 1,
                _ => failures.push(format!(
                    "{name}:{line}: exit {} (expected {}):\n{}\n--- snippet ---\n{body}",
                    out.status,
                    expected_error.unwrap_or("success"),
                    out.stderr
                )),
            }
        }
    }
    println!(
        "spec examples: {clean} parse, {undeclared} parse but use values they do not define, \
         {errata} known errata, {} failures",
        failures.len()
    );
    assert!(clean + undeclared >= 30, "too few spec examples found");
    assert!(
        errata >= SPEC_ERRATA.len(),
        "errata no longer match the spec"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_op_table_covers_every_op_of_the_spec() {
    let Some(shared) = shared_dir() else {
        skipped(
            "spec op coverage",
            "../shared/spec not found (set TILEC_SHARED_DIR)",
        );
        return;
    };
    let mut spec_ops = Vec::new();
    for name in ["tile-ir-operations.md", "tile-ir-views.md"] {
        let md = std::fs::read_to_string(shared.join("spec").join(name)).expect("spec file");
        for line in md.lines().filter(|l| l.starts_with('#')) {
            // Headings such as `### 8.3.4. cuda_tile.entry`.
            if let Some(op) = line
                .split_whitespace()
                .find(|w| w.starts_with("cuda_tile."))
            {
                spec_ops.push(op.to_string());
            }
        }
    }
    spec_ops.sort();
    spec_ops.dedup();
    assert!(
        spec_ops.len() >= 100,
        "found only {} ops in the spec",
        spec_ops.len()
    );
    let missing: Vec<&String> = spec_ops
        .iter()
        .filter(|op| tilec_ir::ops::lookup(op).is_none())
        .collect();
    assert!(
        missing.is_empty(),
        "ops of the spec missing from the op table: {missing:?}"
    );
    // The spec's names are primary; NVIDIA's are aliases.
    for (spec, nvidia) in [
        ("negsi", "negi"),
        ("mulhi", "mulhii"),
        ("powf", "pow"),
        ("print", "print_tko"),
    ] {
        let (a, spelling_a) = tilec_ir::ops::lookup(spec).expect("spec name");
        let (b, spelling_b) = tilec_ir::ops::lookup(nvidia).expect("NVIDIA name");
        assert_eq!(a, b, "{spec} and {nvidia} are one op");
        assert_eq!(
            (spelling_a, spelling_b),
            (0, 1),
            "{spec} is primary, {nvidia} an alias"
        );
    }
    // And the ops NVIDIA's 13.1 tools use that the spec leaves out.
    for op in ["mmaf", "mmai", "cmpi", "atan2", "tan", "testing$func"] {
        assert!(tilec_ir::ops::lookup(op).is_some(), "{op} is missing");
    }
}
