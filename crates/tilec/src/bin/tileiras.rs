//! The `tileiras` binary of the Python wheel (`pip install` puts it next to `tilec` in the
//! environment's `bin/`, where cuTile Python looks for its compiler): tilec run as
//! `tileiras`, NVIDIA's bytecode-to-cubin driver (README: "Use tilec as cuTile Python's compiler").

fn main() {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // The personality follows the program name; a copy renamed by an installer still
    // answers as tileiras.
    match args.first_mut() {
        Some(a) => *a = "tileiras".into(),
        None => args.push("tileiras".into()),
    }
    tilec::process_main(args);
}
