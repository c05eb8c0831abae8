//! Helpers shared by the tilec binary's test files.

use std::process::Command;

/// The Python of `TILEC_PYTHON` (else `python3`) if it has NumPy; otherwise prints that
/// `what` is SKIPPED and returns `None`.
pub fn python_with_numpy(what: &str) -> Option<String> {
    let python = std::env::var("TILEC_PYTHON").unwrap_or_else(|_| "python3".into());
    let has_numpy = Command::new(&python)
        .args(["-c", "import numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_numpy {
        eprintln!(
            "\n*** SKIPPED: {what}: {python} with NumPy not found (set TILEC_PYTHON or `pip install numpy`) ***\n"
        );
        return None;
    }
    Some(python)
}
