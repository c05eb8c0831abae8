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
    let (mut ok, mut bad) = (0, 0);
    for p in std::env::args().skip(1) {
        let b = std::fs::read(&p).unwrap();
        let m = match tilec_bytecode::read(&b, tilec_diag::FileId(0)) {
            Ok(m) => m,
            Err(d) => {
                println!(
                    "{p}: READ {:?} {}",
                    d.location.map(|l| l.span.start),
                    d.message
                );
                bad += 1;
                continue;
            }
        };
        let text = std::fs::read_to_string(p.replace(".tileirbc", ".mlir")).unwrap();
        let t = tilec_parse::parse(&text, tilec_diag::FileId(0), &Default::default()).unwrap();
        let (a, e) = (entries(&m), entries(&t));
        if a != e {
            bad += 1;
            println!("{p}: DIFF");
            for (x, y) in a.iter().zip(&e) {
                if x != y {
                    for (l1, l2) in x.lines().zip(y.lines()) {
                        if l1 != l2 {
                            println!("  bc : {l1}\n  txt: {l2}");
                            break;
                        }
                    }
                }
            }
        } else {
            ok += 1;
        }
    }
    println!("ok {ok} bad {bad}");
}
