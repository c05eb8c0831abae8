//! Parse errors: each malformed input is rejected with exactly these diagnostics (line,
//! column and MLIR's wording), exit status 1, and no crash.

use tilec_tests::run_tilec;

/// `(input, expected "line:column: message" of every error, in order)`.
const CASES: &[(&str, &[&str])] = &[
    (
        "cuda_tile.module @m {\n  testing$func @f(%a: !cuda_tile.tile<1x?x4xf32>) {\n  }\n}\n",
        &["2:41: expected static shape"],
    ),
    (
        "cuda_tile.module @m {\n  testing$func @f(%a: !cuda_tile.tile<ptr<tile<2xf32>>>) {\n  }\n}\n",
        &[
            "2:43: failed to verify 'pointeeType': f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or i1 or i8 or i16 or i32 or i64",
        ],
    ),
    // 13.3's types: an odd number of four-bit floats, a negative unsigned float, an
    // element type no tile holds.
    (
        "cuda_tile.module @m {\n  testing$func @f(%a: !cuda_tile.tile<3x3xf4E2M1FN>) {\n  }\n}\n",
        &["2:38: F4E2M1FN tiles must have an even number of elements"],
    ),
    (
        "%0 = constant <f8E8M0FNU: [1.0, -2.0]> : tile<2xf8E8M0FNU>\n",
        &["1:34: negative values cannot be represented in the unsigned float type 'f8E8M0FNU'"],
    ),
    (
        "cuda_tile.module @m {\n  testing$func @f(%a: !cuda_tile.tile<4xi28>) {\n  }\n}\n",
        &[
            "2:38: failed to verify 'elementType': f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or i1 or i8 or i16 or i32 or i64 or Pointer type or i4",
        ],
    ),
    // Dense arrays: an element type that is not an integer, a value the width cannot hold.
    (
        "%0 = \"cuda_tile.iota\"() {x = array<unit: 1, 0>} : () -> !cuda_tile.tile<2xi32>\n",
        &[
            "1:36: expected integer element type (i1, i8, i16, i32 or i64) for a dense array, got 'unit'",
        ],
    ),
    (
        "%0 = \"cuda_tile.iota\"() {x = array<i32: 1, 4294967296>} : () -> !cuda_tile.tile<2xi32>\n",
        &["1:44: integer constant out of range for a dense array of i32"],
    ),
    (
        "%0 = cuda_tile.constant \"foo\" : !cuda_tile.tile<i8>\n",
        &["1:24: expected '<'"],
    ),
    (
        "%0 = constant <i8: true> : tile<i8>\n",
        &["1:20: custom op 'cuda_tile.constant' expected integer value"],
    ),
    (
        "%0 = constant <i8: 300> : tile<i8>\n",
        &["1:20: integer constant out of range for type"],
    ),
    (
        "%0 = constant <f32: 1> : tile<f32>\n",
        &["1:21: unexpected decimal integer literal for a floating point value"],
    ),
    (
        "%0 = constant <f32: -0x3F800000> : tile<f32>\n",
        &["1:22: hexadecimal float literal should not have a leading minus"],
    ),
    (
        "%0 = constant <f16: 0x1FFFF> : tile<f16>\n",
        &["1:21: hexadecimal float constant out of range for type"],
    ),
    (
        "%0 = constant <i32: [1, 2, 3]> : tile<4xi32>\n",
        &["1:34: inferred shape of elements literal ([3]) does not match type ([4])"],
    ),
    (
        "%0 = constant <i32: [[1, 2], [3]]> : tile<2x2xi32>\n",
        &["1:33: tensor literal is invalid; ranks are not consistent between elements"],
    ),
    (
        "%0 = constant <i32: 1> : tile<3xi32>\n",
        &["1:30: all dimensions must be powers of two, got 3"],
    ),
    (
        "%0 = constant <i32: 1> : tile<0xi32>\n",
        &["1:30: all dimensions must be positive constants, got 0"],
    ),
    (
        "%0 = constant <i32: 1> : tile<?xi32>\n",
        &["1:31: expected static shape"],
    ),
    (
        "%0 = constant <i32: 1> : tile<4096x4096x4xi32>\n",
        &["1:30: tile would exceed the maximum of 16777216 elements"],
    ),
    (
        "%0 = constant <i32: 1> : tile<4xf32>\n",
        &[
            "1:26: custom op 'cuda_tile.constant' mismatch between the element type: 'i32' and the tile element type 'f32'",
        ],
    ),
    (
        "%0 = frobnicate %x : tile<i32>\n",
        &["1:6: custom op 'frobnicate' is unknown (tried 'cuda_tile.frobnicate' as well)"],
    ),
    (
        "%0 = cuda_tile.frobnicate %x : tile<i32>\n",
        &["1:6: custom op 'cuda_tile.frobnicate' is unknown"],
    ),
    (
        "%0 = absf %x : tile<f32>\n",
        &["1:11: use of undeclared SSA value name"],
    ),
    (
        "%a = constant <f32: 1.0> : tile<f32>\n%a = constant <f32: 1.0> : tile<f32>\n",
        &["2:1: redefinition of SSA value '%a'"],
    ),
    (
        "%a = constant <f32: 1.0> : tile<f32>\n%b = absf %a : tile<f64>\n",
        &[
            "2:11: use of value '%a' expects different type than prior uses: '!cuda_tile.tile<f64>' vs '!cuda_tile.tile<f32>'",
        ],
    ),
    (
        "%b = absf %a : tile<f64>\n",
        &["1:11: use of undeclared SSA value name"],
    ),
    (
        "%a, %b = constant <f32: 1.0> : tile<f32>\n",
        &["1:1: operation defines 1 results but was provided 2 to bind"],
    ),
    (
        "%a = \"cuda_tile.addf\"(%x) : (tile<f32>, tile<f32>) -> tile<f32>\n",
        &["1:29: expected 1 operand type but had 2"],
    ),
    (
        "%a = \"foo.bar\"() : () -> ()\n",
        &[
            "1:6: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used",
        ],
    ),
    (
        "%a = addf %x, %y rounding<approxx> : tile<f32>\n",
        &[
            "1:36: custom op 'cuda_tile.addf' expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', got: 'approxx'",
        ],
    ),
    (
        "%a = mini %x, %y sined : tile<i32>\n",
        &[
            "1:18: custom op 'cuda_tile.mini' expected signedness to be one of: {'signed', 'unsigned'}",
        ],
    ),
    (
        "%a = cmpi eq %x, %y, signed : tile<i32> -> tile<i1>\n",
        &[
            "1:11: custom op 'cuda_tile.cmpi' expected 'comparison_predicate' to be one of: {'equal', 'not_equal', 'less_than', 'less_than_or_equal', 'greater_than', 'greater_than_or_equal'}",
        ],
    ),
    (
        "%a, %t = load_view_tko wek %v[%i] : partition_view<tile=(4), tensor_view<8xf32, strides=[1]>>, tile<i32> -> tile<4xf32>, token\n",
        &[
            "1:24: custom op 'cuda_tile.load_view_tko' invalid memory_ordering_semantics attribute specification. Got \"wek\" but expect one of: weak, relaxed, acquire, release, acq_rel",
        ],
    ),
    (
        "%a, %t = load_view_tko weak device %v[%i] : partition_view<tile=(4), tensor_view<8xf32, strides=[1]>>, tile<i32> -> tile<4xf32>, token\n",
        &[
            "1:29: custom op 'cuda_tile.load_view_tko' operation specifies weak memory ordering semantics, but then provides \"device\" scope, expected no memory scope.",
        ],
    ),
    (
        "%t = store_ptr_tko weak %p, %v : tile<ptr<f32>>, tile<f32> -> token\n",
        &[
            "1:25: use of undeclared SSA value name",
            "1:29: use of undeclared SSA value name",
        ],
    ),
    (
        "%x = constant <f32: 1.0> : tile<f32>\n%y = addf %x, %x : tile<f32\n",
        &["2:28: expected '>'"],
    ),
    (" %y = addf %x, %x : tile<f32\n", &["1:29: expected '>'"]),
    (
        "cuda_tile.module @m { entry @e() { %y = addf %x, %x : tile<f32> } }\n",
        &["1:46: use of undeclared SSA value name"],
    ),
    (
        "%c = constant <f32: 1.0> : tile<f32>\n%0 = addf %c, %c : 5\n",
        &["2:20: custom op 'cuda_tile.addf' expected valid keyword"],
    ),
    (
        "cuda_tile.module @m {\n  testing$func @f(%a: tile<8xf32>) {\n    %0 = reduce dim=0 identities=[0.0 : f32] : tile<8xf32> -> tile<f32>\n    (%x: tile<f32>, %y: tile<f32>) {\n      yield %x : tile<f32>\n    }\n  }\n}\n",
        &[
            "3:17: custom op 'cuda_tile.reduce' number of operands and types do not match: got 0 operands and 1 types",
        ],
    ),
    (
        // Symbols: unique per module, references resolve in the enclosing module.
        "cuda_tile.module @m {\n  global @g <f32: 1.0> : tile<1xf32>\n  global @g <f32: 2.0> : tile<1xf32>\n}\n",
        &["3:3: redefinition of symbol named 'g'"],
    ),
    (
        "cuda_tile.module @m {\n  entry @k() {\n    %p = get_global @nope : tile<ptr<f32>>\n    %q = get_global @k : tile<ptr<f32>>\n  }\n}\n",
        &[
            "3:21: 'cuda_tile.get_global' op 'nope' does not reference a valid global",
            "4:21: 'cuda_tile.get_global' op 'k' does not reference a valid global",
        ],
    ),
    (
        // A global of another module is not visible.
        "cuda_tile.module @a {\n  global @g <f32: 1.0> : tile<1xf32>\n}\ncuda_tile.module @b {\n  entry @k() {\n    %p = get_global @g : tile<ptr<f32>>\n  }\n}\n",
        &["6:21: 'cuda_tile.get_global' op 'g' does not reference a valid global"],
    ),
    (
        // A forward reference belongs to its region: a later definition in a sibling
        // region does not resolve it.
        "%c = constant <i1: true> : tile<i1>\n\
         if %c { %a = addf %t, %t : tile<f32> }\n\
         if %c { %t = constant <f32: 1.0> : tile<f32> }\n",
        &["2:19: use of undeclared SSA value name"],
    ),
    (
        "cuda_tile.module @m { entry @e() { return }\n",
        &["1:44: expected operation name in quotes"],
    ),
    (
        "#a = loc(\"x.py\":1:2)\n#a = loc(\"y.py\":1:2)\n",
        &["2:1: redefinition of attribute alias id 'a'"],
    ),
    (
        "%v = constant <i32: 1> : tile<i32> loc(#nope)\n",
        &["1:40: operation location alias was never defined"],
    ),
    (
        "#a = loc(\"x.py\":1:2)\n%v = constant <i32: 1> : tile<i32> loc(#a)\n%w = constant <i32: 2> : tile<i32> loc(#b)\n#b = 3 : i32\n",
        &["3:40: expected location, but found '3 : i32'"],
    ),
    (
        "%x = constant <i32: 1> : !cuda_tile.tile<i32\n",
        &["1:45: expected '>'"],
    ),
    (
        "\"unterminated\n",
        &["1:14: expected '\"' in string literal"],
    ),
    (
        "%x = constant <i32: 1> : tile<i32> $\n",
        &["1:36: unexpected character"],
    ),
    (
        "%x = permute %y [1, 0 : tile<2x2xf32> -> tile<2x2xf32>\n",
        &["1:22: expected ']'"],
    ),
    (
        "%x = constant <i32: 1> : tile<4xptr<tile<f32>>>\n",
        &[
            "1:37: failed to verify 'pointeeType': f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or i1 or i8 or i16 or i32 or i64",
        ],
    ),
    (
        "%x = make_tensor_view %p, shape = [4, 4], strides = [4] : tensor_view<4x4xf32, strides=[4,1]>\n",
        &[
            "1:53: custom op 'cuda_tile.make_tensor_view' expected stride declaration to contain 2 elements due to tensor_view type, but 1 were provided",
        ],
    ),
];

fn errors(input: &str) -> (i32, Vec<String>) {
    let out = run_tilec(&["check", "-", "--diagnostic-format=json"], input);
    let mut v = Vec::new();
    for line in out.stdout.lines() {
        if !line.contains("\"severity\":\"error\"") {
            continue;
        }
        let field = |name: &str| -> String {
            let key = format!("\"{name}\":");
            let start = line.find(&key).map(|i| i + key.len()).unwrap_or(0);
            let rest = &line[start..];
            if let Some(r) = rest.strip_prefix('"') {
                // A JSON string: take up to the closing quote that is not escaped.
                let mut out = String::new();
                let mut chars = r.chars();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            if let Some(n) = chars.next() {
                                out.push(match n {
                                    'n' => '\n',
                                    't' => '\t',
                                    other => other,
                                });
                            }
                        }
                        '"' => break,
                        c => out.push(c),
                    }
                }
                out
            } else {
                rest.split([',', '}']).next().unwrap_or("").to_string()
            }
        };
        v.push(format!(
            "{}:{}: {}",
            field("line"),
            field("column"),
            field("message")
        ));
    }
    (out.status, v)
}

#[test]
fn parse_errors_have_exact_messages_and_locations() {
    let mut failures = Vec::new();
    for (input, expected) in CASES {
        let (status, got) = errors(input);
        if status != 1 {
            failures.push(format!("{input:?}: exit status {status}, expected 1"));
            continue;
        }
        let expected: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
        if got != expected {
            failures.push(format!(
                "{input:?}:\n  expected {expected:?}\n  got      {got:?}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}

#[test]
fn mlir_format_shows_the_line_and_a_caret() {
    let out = run_tilec(
        &["check", "-", "--diagnostic-format=mlir"],
        "%0 = constant \"foo\" : tile<i8>\n",
    );
    assert_eq!(out.status, 1);
    assert_eq!(
        out.stderr,
        "<stdin>:1:14: error: expected '<'\n%0 = constant \"foo\" : tile<i8>\n             ^\n"
    );
}

#[test]
fn split_input_file_reports_every_chunk_with_whole_file_lines() {
    let input = "%a = absf %x : tile<f32>\n// -----\n%b = constant <i32: 1> : tile<i32>\n// -----\n%c = constant <i8: 300> : tile<i8>\n";
    let out = run_tilec(
        &[
            "check",
            "-",
            "--split-input-file",
            "--diagnostic-format=mlir",
        ],
        input,
    );
    assert_eq!(out.status, 1);
    let firsts: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("<stdin>:"))
        .collect();
    assert_eq!(
        firsts,
        vec![
            "<stdin>:1:11: error: use of undeclared SSA value name",
            "<stdin>:5:20: error: integer constant out of range for type",
        ]
    );
}

#[test]
fn json_diagnostics_have_the_required_fields() {
    let out = run_tilec(
        &["check", "-", "--diagnostic-format=json"],
        "%a = absf %x : tile<f32>\n",
    );
    assert_eq!(out.status, 1);
    assert_eq!(
        out.stdout,
        "{\"severity\":\"error\",\"code\":\"E0104\",\"message\":\"use of undeclared SSA value name\",\"file\":\"<stdin>\",\"line\":1,\"column\":11,\"end_line\":1,\"end_column\":13,\"labels\":[],\"notes\":[]}\n"
    );
}
