//! The shipped examples: each parses, checks, and formats to a fixed point (custom form,
//! generic form and locations), and each says what it computes and how to launch it.

use tilec_tests::{example_files, repo_root, round_trip, run_tilec};

fn examples() -> Vec<std::path::PathBuf> {
    let v = example_files();
    assert!(!v.is_empty(), "no examples found");
    v
}

#[test]
fn the_kernels_the_issue_names_are_there() {
    let names: Vec<String> = examples()
        .iter()
        .filter_map(|p| p.file_stem()?.to_str().map(str::to_string))
        .collect();
    for want in [
        "vector_add",
        "saxpy",
        "row_softmax",
        "layernorm",
        "sum_reduction",
        "prefix_sum",
        "matmul",
        "transpose",
        "histogram",
    ] {
        assert!(
            names.iter().any(|n| n == want),
            "examples/{want}.tile is missing"
        );
    }
}

#[test]
fn examples_check_and_round_trip() {
    let mut failures = Vec::new();
    for p in examples() {
        let path = p.to_str().expect("utf-8 path");
        let out = run_tilec(&["check", path], "");
        if out.status != 0 {
            failures.push(format!(
                "{path}: check exited {}:\n{}",
                out.status, out.stderr
            ));
            continue;
        }
        if let Err(e) = round_trip(&p) {
            failures.push(format!("{path}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn examples_document_what_they_compute_and_how_to_launch() {
    for p in examples() {
        let text = std::fs::read_to_string(&p).expect("readable");
        let header: String = text
            .lines()
            .take_while(|l| l.starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(header.len() > 80, "{}: no header comment", p.display());
        assert!(
            header.to_lowercase().contains("launch"),
            "{}: the header does not say how to launch the kernel",
            p.display()
        );
    }
}

#[test]
fn examples_use_the_ops_their_names_promise() {
    // Each kernel is built around a particular feature; make sure it stays that way.
    for (file, needles) in [
        (
            "vector_add",
            &[
                "make_tensor_view",
                "make_partition_view",
                "load_view_tko",
                "store_view_tko",
            ][..],
        ),
        (
            "saxpy",
            &["offset", "load_ptr_tko", "store_ptr_tko", "cmpi"][..],
        ),
        ("row_softmax", &["reduce", "exp"][..]),
        ("layernorm", &["reduce", "rsqrt"][..]),
        ("sum_reduction", &["reduce"][..]),
        ("prefix_sum", &["scan"][..]),
        ("matmul", &["mmaf", "for "][..]),
        ("mma_types", &["mmaf", "mmai", "ftof", "unsigned"][..]),
        ("transpose", &["permute"][..]),
        ("histogram", &["atomic_rmw_tko"][..]),
    ] {
        let text =
            std::fs::read_to_string(repo_root().join("examples").join(format!("{file}.tile")))
                .expect("readable");
        for n in needles {
            assert!(text.contains(n), "examples/{file}.tile does not use `{n}`");
        }
    }
}
