//! Snapshots (insta) of how tilec prints the shipped examples: the canonical custom form
//! and the generic form. A printer change shows up here as a reviewed diff; accept it with
//! `cargo insta review` (or `INSTA_UPDATE=always cargo test -p tilec-tests --test snapshots`).

use tilec_tests::{example_files, run_tilec};

fn print(args: &[&str]) -> String {
    let out = run_tilec(args, "");
    assert_eq!(out.status, 0, "{args:?}: {}", out.stderr);
    out.stdout
}

#[test]
fn examples_print_as_snapshotted() {
    let paths = example_files();
    assert!(paths.len() >= 9);
    for p in paths {
        let name = p
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("name")
            .to_string();
        let path = p.to_str().expect("utf-8 path");
        insta::assert_snapshot!(format!("{name}.custom"), print(&["opt", path]));
        insta::assert_snapshot!(
            format!("{name}.generic"),
            print(&["opt", "--generic", path])
        );
    }
}
