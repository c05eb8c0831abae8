//! Runs the `// RUN:` lines of MLIR-style test files with `cuda-tile-opt` replaced by the
//! matching `tilec` command (in process) and `FileCheck` by [`crate::filecheck`].

use crate::filecheck;

/// One command of a RUN pipeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `tilec` with these arguments (`%s` already substituted).
    Tilec(Vec<String>),
    /// FileCheck with these options.
    FileCheck {
        /// Check prefixes.
        prefixes: Vec<String>,
        /// `--strict-whitespace`.
        strict_whitespace: bool,
        /// `--match-full-lines`.
        match_full_lines: bool,
    },
}

/// The RUN commands of a file (continuation lines ending in `\` joined), with their line
/// numbers.
pub fn run_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let Some(pos) = line.find("RUN:") else {
            continue;
        };
        let cmd = line[pos + 4..].trim();
        let (cmd, cont) = match cmd.strip_suffix('\\') {
            Some(c) => (c.trim(), true),
            None => (cmd, false),
        };
        let entry = pending.get_or_insert((i + 1, String::new()));
        if !entry.1.is_empty() {
            entry.1.push(' ');
        }
        entry.1.push_str(cmd);
        if !cont {
            out.extend(pending.take());
        }
    }
    out.extend(pending);
    out
}

/// Translates a RUN command into steps, or explains why it is not supported yet.
pub fn translate(cmd: &str, path: &str) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    for part in cmd.split('|') {
        let words: Vec<&str> = part.split_whitespace().collect();
        let Some((&tool, args)) = words.split_first() else {
            return Err("empty command".into());
        };
        match tool {
            "cuda-tile-opt" => {
                // tilec takes cuda-tile-opt's command line as it is (one-dash options
                // included) in its cuda-tile-opt personality.
                let mut t = vec!["opt".to_string(), "--compat=cuda-tile-opt".to_string()];
                // NVIDIA's wording of the release the file was written against (as
                // tests/lit/lit.cfg.py infers it from the folder).
                if let Some(i) = path.find("cuda-tile-13.") {
                    let minor = &path[i + "cuda-tile-13.".len()..][..1];
                    t.push(format!("--cuda-tile-release=13.{minor}"));
                }
                let mut has_input = false;
                for a in args {
                    if *a == "%s" {
                        t.push(path.to_string());
                        has_input = true;
                    } else {
                        t.push(a.to_string());
                    }
                }
                if !has_input {
                    t.push("-".into());
                }
                steps.push(Step::Tilec(t));
            }
            "FileCheck" => {
                let mut prefixes = vec!["CHECK".to_string()];
                let (mut strict, mut full) = (false, false);
                for a in args {
                    if let Some(p) = a
                        .strip_prefix("--check-prefix=")
                        .or_else(|| a.strip_prefix("-check-prefix="))
                    {
                        prefixes = vec![p.to_string()];
                    } else if let Some(p) = a
                        .strip_prefix("--check-prefixes=")
                        .or_else(|| a.strip_prefix("-check-prefixes="))
                    {
                        prefixes = p.split(',').map(str::to_string).collect();
                    } else if a.trim_start_matches('-') == "strict-whitespace" {
                        strict = true;
                    } else if a.trim_start_matches('-') == "match-full-lines" {
                        full = true;
                    } else if *a != "%s" {
                        return Err(format!("FileCheck option `{a}` is not supported"));
                    }
                }
                steps.push(Step::FileCheck {
                    prefixes,
                    strict_whitespace: strict,
                    match_full_lines: full,
                });
            }
            other => return Err(format!("tool `{other}` is not supported")),
        }
    }
    Ok(steps)
}

/// Executes the steps of one RUN line against the file at `path` with contents `text`.
pub fn execute(steps: &[Step], text: &str) -> Result<(), String> {
    let mut stdin = String::new();
    for (i, s) in steps.iter().enumerate() {
        match s {
            Step::Tilec(args) => {
                let argv: Vec<&str> = args.iter().map(String::as_str).collect();
                let out = crate::run_tilec(&argv, &stdin);
                if out.status != 0 {
                    return Err(format!(
                        "step {} (`tilec {}`) exited with {}:\n{}",
                        i + 1,
                        args.join(" "),
                        out.status,
                        out.stderr
                    ));
                }
                stdin = out.stdout;
            }
            Step::FileCheck {
                prefixes,
                strict_whitespace,
                match_full_lines,
            } => {
                let opts = filecheck::Options {
                    prefixes: prefixes.clone(),
                    strict_whitespace: *strict_whitespace,
                    match_full_lines: *match_full_lines,
                };
                filecheck::check(text, &stdin, &opts)
                    .map_err(|e| format!("FileCheck failed:\n{e}"))?;
            }
        }
    }
    Ok(())
}
