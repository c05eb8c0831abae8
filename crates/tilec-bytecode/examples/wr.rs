use tilec_ir::{Module, Opcode};
fn entries(m: &Module) -> Vec<String> {
    let mut out = Vec::new();
    m.walk(|op| {
        if matches!(m.opcode(op), Opcode::Entry | Opcode::Global) {
            out.push(tilec_ir::print_op(m, op, &Default::default()));
        }
    });
    out
}
fn main() {
    let ver = tilec_bytecode::Version::parse(&std::env::var("V").unwrap_or("13.3".into())).unwrap();
    let disasm = "/work/venv/lib/python3.11/site-packages/nvidia/cu13/bin/tileirdisasm";
    let (mut ok, mut bad) = (0, 0);
    for p in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&p).unwrap();
        for (ci, c) in tilec_parse::split_input(&text).into_iter().enumerate() {
            let p = format!("{p}#{ci}");
            let t = match tilec_parse::parse_range(
                &text,
                c.start,
                c.end,
                tilec_diag::FileId(0),
                &Default::default(),
            ) {
                Ok(t) => t,
                Err(_) => {
                    println!("{p}: PARSE");
                    continue;
                }
            };
            if tilec_verify::verify(&t, &Default::default())
                .iter()
                .any(|d| d.is_error())
            {
                println!("{p}: INVALID");
                continue;
            }
            let b = match tilec_bytecode::write(&t, ver) {
                Ok(b) => b,
                Err(d) => {
                    println!("{p}: WRITE {}", d[0].message);
                    bad += 1;
                    continue;
                }
            };
            let m = match tilec_bytecode::read(&b, tilec_diag::FileId(0)) {
                Ok(m) => m,
                Err(d) => {
                    println!(
                        "{p}: READBACK {:?} {}",
                        d.location.map(|l| l.span.start),
                        d.message
                    );
                    bad += 1;
                    continue;
                }
            };
            let tmp = "/tmp/wr.tileirbc";
            std::fs::write(tmp, &b).unwrap();
            let out = std::process::Command::new(disasm)
                .arg(tmp)
                .output()
                .unwrap();
            if !out.status.success() {
                println!(
                    "{p}: DISASM {}",
                    String::from_utf8_lossy(&out.stderr)
                        .lines()
                        .next()
                        .unwrap_or("")
                );
                bad += 1;
                continue;
            }
            let dt = String::from_utf8_lossy(&out.stdout).to_string();
            let d = match tilec_parse::parse(&dt, tilec_diag::FileId(0), &Default::default()) {
                Ok(d) => d,
                Err(e) => {
                    println!("{p}: REPARSE {}", e[0].message);
                    bad += 1;
                    continue;
                }
            };
            let (a, e, x) = (entries(&m), entries(&t), entries(&d));
            if a != e || x != e {
                bad += 1;
                println!("{p}: DIFF readback={} disasm={}", a == e, x == e);
                for (xx, y) in x.iter().zip(&e) {
                    if xx != y {
                        for (l1, l2) in xx.lines().zip(y.lines()) {
                            if l1 != l2 {
                                println!("  dis: {l1}\n  txt: {l2}");
                                break;
                            }
                        }
                    }
                }
            } else {
                ok += 1;
            }
        }
    }
    println!("ok {ok} bad {bad}");
}
