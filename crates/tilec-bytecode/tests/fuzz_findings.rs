//! Inputs `cargo xtask fuzz-bytecode` found to be read into modules whose printed text did
//! not parse again: types the text parser rejects must be rejected by the reader too, with
//! an error at a byte offset.

use tilec_bytecode::{Version, read, write};
use tilec_diag::FileId;

const KERNEL: &str = "cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>) {
    %tv = make_tensor_view %p, shape = [8, 64], strides = [64, 1] : tensor_view<8x64xf32, strides=[64,1]>
    %pv = make_partition_view %tv : partition_view<tile=(4x16), tensor_view<8x64xf32, strides=[64,1]>, dim_map=[1, 0]>
    return
  }
}
";

/// The bytecode of [`KERNEL`] with the first occurrence of `from` replaced by `to`.
fn patched(version: Version, from: &[u8], to: &[u8]) -> Vec<u8> {
    let m = tilec_parse::parse(KERNEL, FileId(0), &Default::default()).expect("parses");
    let mut b = write(&m, version).expect("writes");
    read(&b, FileId(0)).expect("the unpatched bytecode reads");
    let at = b
        .windows(from.len())
        .position(|w| w == from)
        .unwrap_or_else(|| panic!("{from:02x?} not found in the {version} bytecode"));
    b[at..at + from.len()].copy_from_slice(to);
    b
}

fn rejected(b: &[u8], what: &str) {
    match read(b, FileId(0)) {
        Ok(m) => panic!(
            "{what}: accepted:\n{}",
            tilec_ir::print_module(&m, &Default::default())
        ),
        Err(d) => assert!(d.location.is_some(), "{what}: no location: {}", d.message),
    }
}

#[test]
fn invalid_partition_dim_map_is_rejected() {
    for v in Version::SUPPORTED {
        // dim_map [1, 0] (a count, then 4-byte entries) becomes [1, 5].
        let b = patched(
            v,
            &[2, 1, 0, 0, 0, 0, 0, 0, 0],
            &[2, 1, 0, 0, 0, 5, 0, 0, 0],
        );
        rejected(&b, &format!("{v}: dim_map [1, 5]"));
        // ... and [1, 1].
        let b = patched(
            v,
            &[2, 1, 0, 0, 0, 0, 0, 0, 0],
            &[2, 1, 0, 0, 0, 1, 0, 0, 0],
        );
        rejected(&b, &format!("{v}: dim_map [1, 1]"));
    }
}

#[test]
fn non_positive_sizes_are_rejected() {
    for v in Version::SUPPORTED {
        // The tensor view's shape [8, 64] (a count, then 8-byte entries) becomes [8, 0].
        let mut from = vec![2, 8, 0, 0, 0, 0, 0, 0, 0, 64];
        from.extend([0; 7]);
        let mut to = vec![2, 8, 0, 0, 0, 0, 0, 0, 0, 0];
        to.extend([0; 7]);
        rejected(&patched(v, &from, &to), &format!("{v}: tensor view 8x0"));
        // The partition tile (4x16) becomes (4x3).
        let b = patched(
            v,
            &[2, 4, 0, 0, 0, 16, 0, 0, 0],
            &[2, 4, 0, 0, 0, 3, 0, 0, 0],
        );
        rejected(&b, &format!("{v}: partition tile 4x3"));
    }
}

#[test]
fn optimization_hints_entries_are_dictionaries() {
    // prefix_sum.tileirbc with one byte changed: an optimization_hints entry whose value is
    // another optimization_hints attribute, which text cannot express.
    let b = include_bytes!("data/opt-hints-not-a-dict.tileirbc");
    match read(b, FileId(0)) {
        Ok(_) => panic!("accepted"),
        Err(d) => {
            assert!(d.location.is_some(), "no location: {}", d.message);
            assert!(d.message.contains("not a dictionary"), "{}", d.message);
        }
    }
}
