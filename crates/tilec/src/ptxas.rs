//! Running NVIDIA's ptxas, the one external step of `tilec` run as `tileiras` (PTX to
//! cubin), and of the benchmarks that time it the same way.

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

/// glibc malloc settings for ptxas: grow the heap 64 MiB at a time on transparent huge
/// pages. ptxas spends most of a small kernel's compile in page faults (about 4,000 for
/// saxpy, most of them its heap); with these it faults a fraction of that and runs 10–25%
/// faster (docs/performance.md has the figures). Unknown tunables are ignored by older
/// glibc, and a `GLIBC_TUNABLES` the user set is left as it is.
pub const MALLOC_TUNABLES: &str = "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864";

/// `ptxas` as tilec runs it: the program at `path` with [`MALLOC_TUNABLES`] in its
/// environment unless `GLIBC_TUNABLES` is already set, and `--split-compile N`
/// ([`split_compile`]) unless there is one CPU. The caller adds the other arguments.
pub fn command(path: &Path) -> Command {
    let mut cmd = plain_command(path);
    if let Some(n) = split_compile() {
        cmd.arg("--split-compile").arg(n.to_string());
    }
    cmd
}

/// [`command`] without `--split-compile`, for a ptxas that does not know the option.
pub fn plain_command(path: &Path) -> Command {
    let mut cmd = Command::new(path);
    if std::env::var_os("GLIBC_TUNABLES").is_none() {
        cmd.env("GLIBC_TUNABLES", OsString::from(MALLOC_TUNABLES));
    }
    cmd
}

/// The threads ptxas may optimize a module's kernels on (`--split-compile`): the CPUs
/// this process may use, at most 16; `None` with one. A module of several kernels (a
/// cuTile kernel's signatures) compiles in parallel: layernorm's two in 43 ms instead of
/// 62, matmul_f16_f32acc's in 176 instead of 280 (ptxas 13.5, 2 CPUs); the SASS is the
/// same (tests/code_stats.rs checks it), and a module of one kernel takes as long.
pub fn split_compile() -> Option<usize> {
    std::thread::available_parallelism()
        .ok()
        .map(|n| n.get().min(16))
        .filter(|n| *n > 1)
}

/// Whether ptxas's `stderr` says it does not know `--split-compile` (one older than the
/// option): the caller runs it again without.
pub fn refused_split_compile(stderr: &str) -> bool {
    stderr.contains("split-compile")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tunables go to ptxas unless the user chose their own (then ptxas gets theirs,
    /// inherited, and tilec adds nothing).
    #[test]
    fn tunables_only_when_unset() {
        let cmd = plain_command(Path::new("/nonexistent/ptxas"));
        let ours = cmd
            .get_envs()
            .find(|(k, _)| *k == "GLIBC_TUNABLES")
            .and_then(|(_, v)| v.map(|v| v.to_os_string()));
        match std::env::var_os("GLIBC_TUNABLES") {
            None => assert_eq!(ours, Some(OsString::from(MALLOC_TUNABLES))),
            Some(_) => assert_eq!(ours, None),
        }
    }

    /// `--split-compile` goes to ptxas with the CPUs there are, never more than 16 and
    /// never 1; the plain command has none.
    #[test]
    fn split_compile_by_the_cpus() {
        let args = |c: &Command| -> Vec<String> {
            c.get_args()
                .map(|a| a.to_string_lossy().into_owned())
                .collect()
        };
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let want: Vec<String> = if cpus > 1 {
            vec!["--split-compile".into(), cpus.min(16).to_string()]
        } else {
            Vec::new()
        };
        assert_eq!(args(&command(Path::new("ptxas"))), want);
        assert!(args(&plain_command(Path::new("ptxas"))).is_empty());
        assert!(refused_split_compile(
            "ptxas fatal   : Unknown option '-split-compile'"
        ));
        assert!(!refused_split_compile(
            "ptxas fatal   : Unresolved extern function"
        ));
    }
}
