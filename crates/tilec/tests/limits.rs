//! Hostile inputs under a resource limit (issue 19): each runs the real binary with a
//! 2 GB address-space limit (`ulimit -v`) and a 20 s timeout, and must end with a located
//! diagnostic or success, never an abort, a hang or a panic.

#![cfg(unix)]

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// What a limited run gave: exit status (None: killed by a signal), stdout, stderr.
struct Limited {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs tilec with `args` and `stdin` under `kb` KiB of address space and `secs` seconds.
fn limited(args: &[&str], stdin: &str, kb: u64, secs: u64) -> Limited {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kb}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_tilec"))
        .args(args)
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes());
    // Read both pipes while waiting, so that a big output cannot block the child.
    fn drain<R: Read + Send + 'static>(r: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut v);
            }
            v
        })
    }
    let out_t = drain(child.stdout.take());
    let err_t = drain(child.stderr.take());
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("tilec {args:?} ran past {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = std::process::Output {
        status,
        stdout: out_t.join().expect("stdout"),
        stderr: err_t.join().expect("stderr"),
    };
    Limited {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

const GB2: u64 = 2 * 1024 * 1024;

const EMPTY: &str = "cuda_tile.module @m {\n  entry @e() {\n    return\n  }\n}\n";

/// A large legal grid runs in memory that does not grow with it: the blocks were once all
/// materialized (a 65536^3 grid asked for 36 PB and aborted; 10^8 blocks took 12.8 GB).
/// 4 Mi blocks under 600 MB of address space (about 150 bytes a block before).
#[test]
fn a_large_grid_runs_in_bounded_memory() {
    let r = limited(&["run", "-", "--grid", "2048,2048"], EMPTY, 600 * 1024, 60);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("@e on grid 2048x2048x1 (4194304 tile blocks)"),
        "{}",
        r.stderr
    );
}

/// `-j` beyond the blocks and cores does not spawn that many threads.
#[test]
fn jobs_are_capped() {
    let r = limited(
        &["run", "-", "--grid", "2", "-j", "1000000000"],
        EMPTY,
        GB2,
        20,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

/// A `print` field width or precision is bounded (4096) with a located diagnostic; a
/// width of 2^32 allocated 4 GB per element and aborted, 2^64 and above were ignored.
#[test]
fn print_widths_are_bounded() {
    for (spec, what) in [
        ("%4294967296d", "field width 4294967296"),
        ("%18446744073709551616d", "field width 18446744073709551616"),
        ("%.99999999f", "precision 99999999"),
    ] {
        let k = format!(
            "cuda_tile.module @m {{\n  entry @e() {{\n    %x = constant <f32: 1.0> : tile<f32>\n    print \"{spec}\\n\", %x : tile<f32>\n    return\n  }}\n}}\n"
        );
        let r = limited(&["run", "-", "--diagnostic-format=mlir"], &k, GB2, 20);
        assert_eq!(r.code, Some(1), "{spec}: {}", r.stderr);
        assert!(
            r.stderr.starts_with(&format!(
                "<stdin>:4:5: error: the {what} in the format string is larger than the 4096 characters 'print' takes"
            )),
            "{spec}: {}",
            r.stderr
        );
    }
    // The limit itself is fine.
    let k = "cuda_tile.module @m {\n  entry @e() {\n    %x = constant <i32: 7> : tile<i32>\n    print \"%4096d\\n\", %x : tile<i32>\n    return\n  }\n}\n";
    let r = limited(&["run", "-"], k, GB2, 20);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout.len(), 4097);
}

/// A zero dimension makes a generated buffer empty wherever it stands: the element count
/// was checked for overflow before the zero was seen, so one order was refused and the
/// other accepted.
#[test]
fn zero_dimensions_in_any_order() {
    let k = "cuda_tile.module @m {\n  entry @e(%p: tile<ptr<f32>>) {\n    return\n  }\n}\n";
    for shape in [
        "0x4294967296x4294967296",
        "4294967296x4294967296x0",
        "4294967296x0",
    ] {
        let arg = format!("zeros:f32:{shape}");
        let r = limited(&["run", "-", "--arg", &arg], k, GB2, 20);
        assert_eq!(r.code, Some(0), "{shape}: {}", r.stderr);
    }
}

/// The interpreter frees a value after its last use: 40 chained `addf` on 2^22-element
/// tiles keep a few tiles alive (about 100 MB), where every intermediate result used to
/// stay (1.3 GB here; on 2^24 elements it grew by 131 MB an op and aborted at 3.9 GB).
#[test]
fn dead_values_are_freed() {
    let mut k = String::from(
        "cuda_tile.module @m {\n  entry @e(%p: tile<ptr<f32>>) {\n    %x0 = constant <f32: 1.0> : tile<4194304xf32>\n",
    );
    for i in 1..=40 {
        k.push_str(&format!(
            "    %x{i} = addf %x{}, %x0 : tile<4194304xf32>\n",
            i - 1
        ));
    }
    k.push_str("    return\n  }\n}\n");
    let r = limited(&["run", "-", "--arg", "zeros:f32:1"], &k, 700 * 1024, 120);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

/// An `mmaf` whose tiles exceed the registers of a tile block is refused at the op, early
/// (a 4096x4096 product took 5 GB and 300 s to lower; 2048x2048 wrote 210 MB of PTX), by
/// the compiler and by `opt -p convert-to-gpu`; 256x256 still compiles.
#[test]
fn giant_mma_tiles_are_refused() {
    let kernel = |n: usize| {
        format!(
            "cuda_tile.module @m {{\n  entry @e(%p: tile<ptr<f32>>) {{\n    %a = constant <f16: 1.0> : tile<{n}x{n}xf16>\n    %c = constant <f32: 0.0> : tile<{n}x{n}xf32>\n    %d = mmaf %a, %a, %c : tile<{n}x{n}xf16>, tile<{n}x{n}xf16>, tile<{n}x{n}xf32>\n    %z = constant <i32: 0> : tile<i32>\n    %e = extract %d[%z, %z] : tile<{n}x{n}xf32> -> tile<1x1xf32>\n    %s = reshape %e : tile<1x1xf32> -> tile<f32>\n    %t = make_token : token\n    %u = store_ptr_tko weak %p, %s token=%t : tile<ptr<f32>>, tile<f32> -> token\n    return\n  }}\n}}\n"
        )
    };
    for n in [4096, 2048, 512] {
        for args in [
            vec!["-", "-o", "-", "--diagnostic-format=mlir"],
            vec![
                "opt",
                "-",
                "-p",
                "convert-to-gpu",
                "--diagnostic-format=mlir",
            ],
        ] {
            let r = limited(&args, &kernel(n), GB2, 20);
            assert_eq!(r.code, Some(1), "{n} {args:?}: {}", r.stderr);
            assert!(
                r.stderr.starts_with(&format!(
                    "<stdin>:5:10: error: the left operand of this mmaf is tile<{n}x{n}xf16>"
                )) && r
                    .stderr
                    .contains("more than the 256 KiB of registers a tile block holds"),
                "{n} {args:?}: {}",
                r.stderr
            );
            assert!(r.stdout.is_empty(), "{n} {args:?}");
        }
    }
    let r = limited(&["-", "-o", "-"], &kernel(256), GB2, 60);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

/// Symbol handling is linear: 10,000 `--split-input-file` chunks that reuse one entry
/// name (each renamed `k_N` in the PTX) ran past 20 s, as did one module with 100,000
/// entries.
#[test]
fn many_symbols_take_linear_time() {
    let chunk = "cuda_tile.module @m {\n  entry @k() {\n    return\n  }\n}\n";
    let same = vec![chunk; 10_000].join("// -----\n");
    let r = limited(&["-", "--split-input-file", "-o", "-"], &same, GB2, 20);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stdout.contains(".entry k_9999("),
        "the last chunk's entry is k_9999"
    );
    let mut many = String::from("cuda_tile.module @m {\n");
    for i in 0..100_000 {
        many.push_str(&format!("  entry @k{i}() {{\n    return\n  }}\n"));
    }
    many.push_str("}\n");
    let r = limited(&["-", "-o", "-"], &many, GB2, 20);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout.matches(".entry ").count(), 100_000);
}

/// A global of 2^24 elements compiles in bounded memory (the fuzzer's `fuzz --resource`
/// found it aborting: each byte of the initializer became its own string); an all-zero one
/// gets no initializer at all (PTX zero-fills globals).
#[test]
fn a_giant_global_compiles() {
    for value in ["0", "7"] {
        let k = format!(
            "cuda_tile.module @m {{\n  global @g alignment = 4 <i32: {value}> : tile<16777216xi32>\n  entry @e(%p: tile<ptr<i32>>) {{\n    %g = get_global @g : tile<ptr<i32>>\n    %t = make_token : token\n    %v, %t2 = load_ptr_tko weak %g token=%t : tile<ptr<i32>> -> tile<i32>, token\n    %s = store_ptr_tko weak %p, %v token=%t2 : tile<ptr<i32>>, tile<i32> -> token\n    return\n  }}\n}}\n"
        );
        let r = limited(&["-", "-o", "-"], &k, GB2, 60);
        assert_eq!(r.code, Some(0), "{value}: {}", r.stderr);
        if value == "0" {
            assert!(
                r.stdout.contains(".global .align 4 .b8 g[67108864];"),
                "zero global"
            );
        } else {
            assert!(
                r.stdout
                    .contains(".global .align 4 .b8 g[67108864] = {7, 0, 0, 0, 7,")
            );
        }
    }
}
