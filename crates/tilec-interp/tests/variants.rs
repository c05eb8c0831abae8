//! `Options::variant`: other executions the spec allows (float reductions, scans and
//! `mmaf` in another order, approximate math moved by a relative amount), each result
//! worked out by hand from the order it names.

mod common;

use common::{func, module};
use tilec_interp::{Arg, Memory, Options, Order, Variant, run_with};

/// Terms that cancel: 1e8 absorbs 1 in f32 (its ulp is 8), so the order decides whether
/// the ones survive. The f16 products of `mmaf` are ±65504² = ±4290774016 (ulp 512 in f32)
/// and 1.
const KERNEL: &str = "cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>) {
    %x = constant <f32: [1.0e8, 1.0, -1.0e8, 1.0]> : tile<4xf32>
    %s = reduce %x dim=0 identities=[0.000000e+00 : f32] : tile<4xf32> -> tile<f32>
    (%c0: tile<f32>, %a0: tile<f32>) {
      %t = addf %c0, %a0 : tile<f32>
      yield %t : tile<f32>
    }
    %q = scan %x dim=0 reverse=false identities=[0.000000e+00 : f32] : tile<4xf32> -> tile<4xf32>
    (%c1: tile<f32>, %a1: tile<f32>) {
      %t = addf %c1, %a1 : tile<f32>
      yield %t : tile<f32>
    }
    %one = constant <f32: 1.0> : tile<1xf32>
    %e = exp %one : tile<1xf32>
    %fl = floor %e : tile<1xf32>
    %a = constant <f16: [[65504.0, 1.0, -65504.0, 1.0]]> : tile<1x4xf16>
    %b = constant <f16: [[65504.0], [1.0], [65504.0], [1.0]]> : tile<4x1xf16>
    %c = constant <f32: 0.0> : tile<1x1xf32>
    %d = mmaf %a, %b, %c : tile<1x4xf16>, tile<4x1xf16>, tile<1x1xf32>
    %sr = reshape %s : tile<f32> -> tile<1xf32>
    %dr = reshape %d : tile<1x1xf32> -> tile<1xf32>
    %pr = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pb = broadcast %pr : tile<1xptr<f32>> -> tile<4xptr<f32>>
    %i = iota : tile<4xi32>
    %k1 = constant <i32: 1> : tile<4xi32>
    %i1 = addi %i, %k1 : tile<4xi32>
    %pq = offset %pb, %i1 : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
    %t0 = store_ptr_tko weak %pr, %sr : tile<1xptr<f32>>, tile<1xf32> -> token
    %t1 = store_ptr_tko weak %pq, %q : tile<4xptr<f32>>, tile<4xf32> -> token
    %k5 = constant <i32: 5> : tile<1xi32>
    %p5 = offset %pr, %k5 : tile<1xptr<f32>>, tile<1xi32> -> tile<1xptr<f32>>
    %t2 = store_ptr_tko weak %p5, %e : tile<1xptr<f32>>, tile<1xf32> -> token
    %k6 = constant <i32: 6> : tile<1xi32>
    %p6 = offset %pr, %k6 : tile<1xptr<f32>>, tile<1xi32> -> tile<1xptr<f32>>
    %t3 = store_ptr_tko weak %p6, %fl : tile<1xptr<f32>>, tile<1xf32> -> token
    %k7 = constant <i32: 7> : tile<1xi32>
    %p7 = offset %pr, %k7 : tile<1xptr<f32>>, tile<1xi32> -> tile<1xptr<f32>>
    %t4 = store_ptr_tko weak %p7, %dr : tile<1xptr<f32>>, tile<1xf32> -> token
    return
  }
}";

/// [reduce, scan x4, exp(1), floor(exp(1)), mmaf] as the variant runs them.
fn run(variant: Variant) -> Vec<f32> {
    let m = module(KERNEL);
    let mut mem = Memory::default();
    let out = mem.add(vec![0; 32]);
    let opts = Options {
        variant,
        ..Options::default()
    };
    run_with(
        &m,
        func(&m, "k"),
        [1, 1, 1],
        &[Arg::Buffer(out)],
        &mut mem,
        &opts,
    )
    .expect("runs");
    mem.bytes(out)
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

const E: f32 = std::f32::consts::E;

#[test]
fn sequential_is_the_interpreters_own_order() {
    // ((((0 + 1e8) + 1) - 1e8) + 1): the first 1 is absorbed.
    let r = run(Variant::default());
    assert_eq!(r, vec![1.0, 1e8, 1e8, 0.0, 1.0, E, 2.0, 1.0]);
}

#[test]
fn reversed_reduces_and_multiplies_from_the_far_end() {
    // ((((0 + 1) - 1e8) + 1) + 1e8) = 0; the scan keeps its order; mmaf from k = 3 down:
    // 1, then 1 - P = -P, -P + 1 = -P, -P + P = 0.
    let r = run(Variant {
        order: Order::Reversed,
        perturb: 0.0,
    });
    assert_eq!(r, vec![0.0, 1e8, 1e8, 0.0, 1.0, E, 2.0, 0.0]);
}

#[test]
fn tree_pairs_terms_and_scans_in_log_steps() {
    // (1e8 + 1) + (-1e8 + 1) = 1e8 - 1e8 = 0. Scan, step 1: [1e8, 1e8, -1e8, -1e8]; step 2
    // adds elements 0 and 1 to 2 and 3: [1e8, 1e8, 0, 0]. mmaf: (P + 1) + (-P + 1) = 0.
    let r = run(Variant {
        order: Order::Tree,
        perturb: 0.0,
    });
    assert_eq!(r, vec![0.0, 1e8, 1e8, 0.0, 0.0, E, 2.0, 0.0]);
}

#[test]
fn perturbation_moves_approximations_only() {
    // exp(1) times 1 +- 2^-10; floor stays exact (of its moved input); sums are exact ops.
    for p in [1.0 / 1024.0, -1.0 / 1024.0] {
        let r = run(Variant {
            order: Order::Sequential,
            perturb: p,
        });
        let e = std::f64::consts::E * (1.0 + p);
        assert_eq!(r[5], e as f32, "{p}");
        assert_ne!(r[5], E);
        assert_eq!(r[..5], [1.0, 1e8, 1e8, 0.0, 1.0]);
        assert_eq!(r[6..], [2.0, 1.0]);
    }
}
