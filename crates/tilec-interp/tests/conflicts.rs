//! `Options::conflicting_stores`: two elements of one store that write different values
//! to one address leave memory undetermined, which the differential checks must not
//! compare against; equal values, or the option off, run as before.

mod common;

use common::{func, module};
use tilec_interp::{Arg, Memory, Options, run_with};

const SCATTER: &str = "cuda_tile.module @m {
  entry @k(%p: tile<ptr<i32>>, %same: tile<i1>) {
    %iota = iota : tile<8xi32>
    %two = constant <i32: 2> : tile<8xi32>
    %slot = divi %iota, %two signed : tile<8xi32>
    %r = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>
    %b = broadcast %r : tile<1xptr<i32>> -> tile<8xptr<i32>>
    %ptrs = offset %b, %slot : tile<8xptr<i32>>, tile<8xi32> -> tile<8xptr<i32>>
    %seven = constant <i32: 7> : tile<8xi32>
    %rs = reshape %same : tile<i1> -> tile<1xi1>
    %bs = broadcast %rs : tile<1xi1> -> tile<8xi1>
    %v = select %bs, %seven, %iota : tile<8xi1>, tile<8xi32>
    %t = store_ptr_tko weak %ptrs, %v : tile<8xptr<i32>>, tile<8xi32> -> token
    return
  }
}";

fn run(same: bool, check: bool) -> Result<Vec<i32>, String> {
    let m = module(SCATTER);
    let mut mem = Memory::default();
    let out = mem.add(vec![0; 16]);
    let opts = Options {
        conflicting_stores: check,
        ..Options::default()
    };
    let args = [Arg::Buffer(out), Arg::Scalar(u64::from(same))];
    run_with(&m, func(&m, "k"), [1, 1, 1], &args, &mut mem, &opts).map_err(|e| e.message)?;
    Ok(mem
        .bytes(out)
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect())
}

#[test]
fn conflicting_elements_of_one_store_are_reported_when_asked() {
    // Elements 2k and 2k+1 write slot k: the later one wins without the check.
    assert_eq!(run(false, false).unwrap(), vec![1, 3, 5, 7]);
    // The buffer's base address, as the interpreter places it.
    let base = {
        let mut mem = Memory::default();
        let b = mem.add(vec![0; 16]);
        mem.buffers[b].base
    };
    assert_eq!(
        run(false, true).unwrap_err(),
        format!(
            "elements 0 and 1 write different values to address {base:#x}: which one memory keeps is not determined"
        )
    );
    // The same value twice is determined.
    assert_eq!(run(true, true).unwrap(), vec![7, 7, 7, 7]);
}
