//! The Python wheel (issue 21): `maturin build` of crates/tilec (bin bindings) gives a wheel
//! that installs both `tilec` and `tileiras` into a fresh environment's `bin/`, where cuTile
//! Python looks for its compiler, and both answer there. A dev-profile wheel, so that the
//! test reuses the binaries `cargo test` built; releases are built with `--release`.
//!
//! Needs the Python of `TILEC_PYTHON` with maturin (`.ci/run` installs it); without one it
//! says SKIPPED and passes.

use std::path::{Path, PathBuf};
use std::process::Command;

fn skipped(why: &str) {
    eprintln!("*** SKIPPED: the Python wheel: {why} ***");
}

fn run(cmd: &mut Command) -> (bool, String) {
    match cmd.output() {
        Ok(o) => (
            o.status.success(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ),
        ),
        Err(e) => (false, e.to_string()),
    }
}

#[test]
fn wheel_installs_tilec_and_tileiras() {
    let Some(python) = std::env::var_os("TILEC_PYTHON").map(PathBuf::from) else {
        return skipped("TILEC_PYTHON is not set");
    };
    let (ok, _) = run(Command::new(&python).args(["-m", "maturin", "--version"]));
    if !ok {
        return skipped("maturin is not installed for TILEC_PYTHON (pip install maturin)");
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = std::env::temp_dir().join(format!("tilec-wheel-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let wheels = tmp.join("wheels");
    let (ok, log) = run(Command::new(&python)
        .args([
            "-m",
            "maturin",
            "build",
            "--profile",
            "dev",
            "--compatibility",
            "linux",
            "-m",
        ])
        .arg(root.join("Cargo.toml"))
        .arg("-o")
        .arg(&wheels));
    assert!(ok, "maturin build failed:\n{log}");
    let wheel = std::fs::read_dir(&wheels)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .expect("a wheel");
    let name = wheel.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("tilec-"), "{name}");
    let venv = tmp.join("venv");
    let (ok, log) = run(Command::new(&python).args(["-m", "venv"]).arg(&venv));
    assert!(ok, "venv: {log}");
    let (ok, log) = run(Command::new(venv.join("bin/python"))
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-index",
        ])
        .arg(&wheel));
    assert!(ok, "pip install {name}: {log}");
    let (ok, out) = run(Command::new(venv.join("bin/tilec")).arg("--version"));
    assert!(ok && out.starts_with("tilec "), "{out}");
    let (ok, out) = run(Command::new(venv.join("bin/tileiras")).arg("--version"));
    assert!(ok && out.starts_with("tileiras (tilec "), "{out}");
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!("wheel {name}: installs tilec and tileiras, both run");
}
