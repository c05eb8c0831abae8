//! The `tilec` binary: runs [`tilec::process_main`] with the process's arguments. Under
//! another name (a link called `cuda-tile-opt`, `cuda-tile-translate` or `tileiras`) it
//! takes that tool's command line.

fn main() {
    tilec::process_main(std::env::args_os().collect());
}
