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
/// environment unless `GLIBC_TUNABLES` is already set. The caller adds the arguments.
pub fn command(path: &Path) -> Command {
    let mut cmd = Command::new(path);
    if std::env::var_os("GLIBC_TUNABLES").is_none() {
        cmd.env("GLIBC_TUNABLES", OsString::from(MALLOC_TUNABLES));
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tunables go to ptxas unless the user chose their own (then ptxas gets theirs,
    /// inherited, and tilec adds nothing).
    #[test]
    fn tunables_only_when_unset() {
        let cmd = command(Path::new("/nonexistent/ptxas"));
        let ours = cmd
            .get_envs()
            .find(|(k, _)| *k == "GLIBC_TUNABLES")
            .and_then(|(_, v)| v.map(|v| v.to_os_string()));
        match std::env::var_os("GLIBC_TUNABLES") {
            None => assert_eq!(ours, Some(OsString::from(MALLOC_TUNABLES))),
            Some(_) => assert_eq!(ours, None),
        }
    }
}
