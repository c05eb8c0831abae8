//! docs/diagnostics.md is the catalog, and every verifier rule of the catalog is exercised.
//!
//! `TILEC_BLESS=1 cargo test -p tilec-tests --test diagnostics_doc` rewrites the document.

use tilec_tests::repo_root;

#[test]
fn diagnostics_md_matches_the_catalog() {
    let path = repo_root().join("docs/diagnostics.md");
    let want = tilec_diag::codes::catalog_markdown();
    if std::env::var_os("TILEC_BLESS").is_some() {
        std::fs::write(&path, &want).expect("write docs/diagnostics.md");
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/diagnostics.md is out of date: run `TILEC_BLESS=1 cargo test -p tilec-tests --test diagnostics_doc`"
    );
}

#[test]
fn every_code_is_documented_and_explained() {
    for c in tilec_diag::codes::all() {
        assert!(!c.title.is_empty(), "{} has no title", c.code);
        assert!(!c.explanation.is_empty(), "{} has no explanation", c.code);
        if !c.spec.is_empty() || !c.upstream.is_empty() {
            assert!(!c.example.is_empty(), "{} has no corrected example", c.code);
        }
    }
}

/// The fixed text of a template before its first placeholder.
fn stem(template: &str) -> &str {
    let end = template.find(['{', '\'']).unwrap_or(template.len());
    template[..end].trim_end()
}

#[test]
fn every_verifier_message_is_asserted_by_a_test() {
    let dir = repo_root().join("tests");
    let mut tests = String::new();
    for e in std::fs::read_dir(&dir).expect("tests dir").flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "rs") {
            tests.push_str(&std::fs::read_to_string(&p).unwrap_or_default());
        }
    }
    let mut missing = Vec::new();
    for c in tilec_diag::codes::all() {
        for (wording, t) in [
            ("spec", c.template(false)),
            ("cuda-tile-opt", c.template(true)),
        ] {
            let s = stem(t);
            if t.is_empty() || s.len() < 4 {
                continue;
            }
            if !tests.contains(s) {
                missing.push(format!("{} ({wording}): {t}", c.code));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "catalog messages no test asserts:\n{}",
        missing.join("\n")
    );
}
