//! The `tilec` binary: runs [`tilec::run`] with the process's streams. A panic is an internal
//! error: it is reported with exit status 2 instead of the default abort message.

use std::io::IsTerminal;

fn main() {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("tilec: internal error: {info}");
        eprintln!("tilec: this is a bug in tilec; please report it with the input that caused it");
    }));
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let status = std::panic::catch_unwind(|| {
        let stdin = std::io::stdin();
        let stdout = std::io::stdout();
        let stderr = std::io::stderr();
        let is_tty = stderr.is_terminal();
        let mut stdin = stdin.lock();
        let mut stdout = std::io::BufWriter::new(stdout.lock());
        let mut stderr = stderr.lock();
        let mut io = tilec::Io {
            stdin: &mut stdin,
            stdout: &mut stdout,
            stderr: &mut stderr,
            stderr_is_tty: is_tty,
        };
        let status = tilec::run(args, &mut io);
        use std::io::Write;
        let _ = stdout.flush();
        status
    })
    .unwrap_or(tilec::EXIT_USAGE);
    std::process::exit(status);
}
