//! `cargo xtask bench-interp [--elems N] [--runs R]`: the interpreter's elementwise speed on
//! one core. For each element type, a `testing$func` applies a chain of elementwise ops to
//! tiles of N elements (default 65,536); the figure is element-ops per second: elements
//! times elementwise ops, divided by the best of R runs (default 5) of `tilec_interp::call`
//! (inputs made and the module parsed outside the timing). Each op is also timed alone.

use std::time::{Duration, Instant};
use tilec_interp::value::Tile;
use tilec_ir::{Module, Op, Opcode, Type};

/// The chains: element type, its ops (each `%r = OP %x, %y` or the op's own form).
fn chains() -> Vec<(&'static str, Vec<&'static str>)> {
    let float = vec![
        "addf %a, %b",
        "subf %0, %b",
        "mulf %1, %a",
        "divf %2, %b",
        "fma %3, %a, %b",
        "maxf %4, %a",
        "minf %5, %b",
        "negf %6",
        "absf %7",
        "addf %8, %a rounding<zero>",
    ];
    let int = vec![
        "addi %a, %b",
        "subi %0, %b",
        "muli %1, %a",
        "andi %2, %b",
        "ori %3, %a",
        "xori %4, %b",
        "maxi %5, %a signed",
        "mini %6, %b unsigned",
        "negi %7",
        "addi %8, %a overflow<none>",
    ];
    vec![
        ("f32", float.clone()),
        ("f16", float.clone()),
        ("bf16", float.clone()),
        ("f64", float),
        ("i32", int.clone()),
        ("i64", int.clone()),
        ("i8", int),
    ]
}

fn module(elem: &str, n: usize, ops: &[&str]) -> String {
    let ty = format!("tile<{n}x{elem}>");
    let mut s =
        format!("cuda_tile.module @bench {{\n  testing$func @f(%a: {ty}, %b: {ty}) -> {ty} {{\n");
    for (i, op) in ops.iter().enumerate() {
        s.push_str(&format!("    %{i} = {op} : {ty}\n"));
    }
    s.push_str(&format!("    return %{} : {ty}\n  }}\n}}\n", ops.len() - 1));
    s
}

fn func(m: &Module) -> Option<Op> {
    let mut f = None;
    m.walk(|op| {
        if m.opcode(op) == Opcode::TestingFunc {
            f = Some(op);
        }
    });
    f
}

/// Inputs without special cases: finite, non-zero, in a small range, so that every op
/// takes its common path (as a kernel's data mostly does).
fn input(m: &Module, elem: Type, n: usize, seed: u64) -> Tile {
    let mut s = seed;
    let kind = tilec_ir::attrs::float_kind(&m.ctx.types, elem);
    let bits = (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let u = (s >> 40) as f64 / (1u64 << 24) as f64;
            match kind {
                Some(k) => tilec_ir::float::round_from_f64(k, 0.5 + u),
                None => (s >> 33) & 0x3f,
            }
        })
        .collect();
    Tile {
        elem,
        shape: std::rc::Rc::from(&[n as i64][..]),
        bits,
    }
}

/// Best time of `runs` calls of the module's function; `None` (reported) on an error.
fn time_module(text: &str, n: usize, runs: usize) -> Option<Duration> {
    let m = match tilec_parse::parse(text, tilec_diag::FileId(0), &Default::default()) {
        Ok(m) => m,
        Err(d) => {
            eprintln!("bench module does not parse: {}", d[0].message);
            return None;
        }
    };
    let v = tilec_verify::verify(&m, &Default::default());
    if let Some(d) = v.first() {
        eprintln!("bench module does not verify: {}", d.message);
        return None;
    }
    let f = func(&m)?;
    let params = m.block_args(m.entry_block(m.region(f, 0))?).to_vec();
    let elem = m.ctx.types.element_type(m.value_type(params[0]));
    let (a, b) = (input(&m, elem, n, 1), input(&m, elem, n, 2));
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let mut mem = tilec_interp::Memory::default();
        let args = vec![a.clone(), b.clone()];
        let t = Instant::now();
        let r = tilec_interp::call(&m, f, args, &mut mem);
        best = best.min(t.elapsed());
        if let Err(e) = r {
            eprintln!("bench run failed: {}", e.message);
            return None;
        }
    }
    Some(best)
}

pub fn bench_interp(n: usize, runs: usize) -> i32 {
    println!("interpreter elementwise speed, one core: tiles of {n} elements, best of {runs} runs");
    let mut worst = f64::INFINITY;
    for (elem, ops) in chains() {
        let Some(t) = time_module(&module(elem, n, &ops), n, runs) else {
            return 1;
        };
        let rate = (n * ops.len()) as f64 / t.as_secs_f64() / 1e6;
        worst = worst.min(rate);
        let mut per_op = Vec::new();
        for (i, op) in ops.iter().enumerate() {
            // Each op alone, on the inputs (its operands renamed to %a and %b).
            let alone = op
                .replace(&format!("%{}", i.saturating_sub(1)), "%a")
                .replace("%a, %a", "%a, %b");
            let Some(t1) = time_module(&module(elem, n, &[&alone]), n, runs) else {
                return 1;
            };
            let name = alone.split_whitespace().next().unwrap_or("?");
            per_op.push(format!("{name} {:.0}", n as f64 / t1.as_secs_f64() / 1e6));
        }
        println!(
            "  {elem:>4}: {} ops x {n} elements in {:.2} ms = {rate:.1} M element-ops/s  (alone, M/s: {})",
            ops.len(),
            t.as_secs_f64() * 1e3,
            per_op.join(", ")
        );
    }
    println!("slowest element type: {worst:.1} M element-ops/s (bar: 50)");
    grid(runs)
}

/// A whole kernel over a grid: examples/matmul.tile (f16 inputs, f32 accumulation) on
/// 512 x 512 x 512, in the deterministic mode and in parallel on every core.
fn grid(runs: usize) -> i32 {
    let path = crate::root().join("examples/matmul.tile");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("cannot read {}", path.display());
        return 1;
    };
    let Some(m) = crate::parse_or_report(&text) else {
        return 1;
    };
    let mut entry = None;
    m.walk(|op| {
        if m.opcode(op) == Opcode::Entry {
            entry = Some(op);
        }
    });
    let Some(entry) = entry else {
        return 1;
    };
    let n = 512usize;
    let one = tilec_ir::float::round_from_f64(tilec_ir::float::FloatKind::F16, 0.5) as u16;
    let halves: Vec<u8> = (0..n * n).flat_map(|_| one.to_le_bytes()).collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut times = Vec::new();
    for parallel in [false, true] {
        let mut best = Duration::MAX;
        for _ in 0..runs.min(3) {
            let mut mem = tilec_interp::Memory::default();
            let (a, b) = (mem.add(halves.clone()), mem.add(halves.clone()));
            let c = mem.add(vec![0; n * n * 4]);
            let mut args = Vec::new();
            for i in [a, b, c] {
                args.push(tilec_interp::Arg::Buffer(i));
                for v in [n, n, n, 1] {
                    args.push(tilec_interp::Arg::Scalar(v as u64));
                }
            }
            let opts = tilec_interp::Options {
                parallel,
                ..Default::default()
            };
            let g = (n / 64) as u32;
            let t = Instant::now();
            if let Err(e) = tilec_interp::run_with(&m, entry, [g, g, 1], &args, &mut mem, &opts) {
                eprintln!("matmul run failed: {}", e.message);
                return 1;
            }
            best = best.min(t.elapsed());
            // Every element is 512 products of 0.5 * 0.5.
            if mem.bytes(c)[..4] != 128f32.to_le_bytes() {
                eprintln!("matmul computed a wrong result");
                return 1;
            }
        }
        let flops = 2.0 * (n * n * n) as f64;
        println!(
            "  matmul {n}x{n}x{n} (64 tile blocks), {}: {:.0} ms = {:.1} M multiply-adds/s",
            if parallel {
                format!("parallel on {threads} cores")
            } else {
                "deterministic, one core".to_string()
            },
            best.as_secs_f64() * 1e3,
            flops / 2.0 / best.as_secs_f64() / 1e6
        );
        times.push(best.as_secs_f64());
    }
    println!(
        "  parallel speed-up: {:.2}x on {threads} cores",
        times[0] / times[1]
    );
    0
}
