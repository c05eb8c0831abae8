//! The GPU-level IR's verifier rules and the `#ttg.linear` encoding, each with a module that
//! breaks exactly one rule.

use tilec_diag::FileId;
use tilec_ir::{Module, Op, Opcode, Swizzle, TypeData};
use tilec_ptx::layout::Layout;
use tilec_ptx::{Options, convert_to_gpu, verify_gpu};

/// A kernel whose GPU-level IR has a shared-memory round trip (the permuted tile is stored
/// in the blocked layout) and a free conversion (a constant used in two layouts).
const KERNEL: &str = r#"
cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>) {
    %c = constant <f32: 1.0> : tile<32x64xf32>
    %i = iota : tile<64x32xi32>
    %f = itof %i signed : tile<64x32xi32> -> tile<64x32xf32>
    %t = permute %f [1, 0] : tile<64x32xf32> -> tile<32x64xf32>
    %s = addf %t, %c : tile<32x64xf32>
    %base = reshape %p : tile<ptr<f32>> -> tile<1x1xptr<f32>>
    %ptrs = broadcast %base : tile<1x1xptr<f32>> -> tile<32x64xptr<f32>>
    %tok = store_ptr_tko weak %ptrs, %s : tile<32x64xptr<f32>>, tile<32x64xf32> -> token
    %tok2 = store_ptr_tko weak %ptrs, %c : tile<32x64xptr<f32>>, tile<32x64xf32> -> token
    return
  }
}
"#;

/// `src` in the GPU-level IR (default options).
fn converted(src: &str) -> (Module, Options) {
    let mut m = tilec_parse::parse(src, FileId(0), &Default::default()).expect("parses");
    let opts = Options::default();
    convert_to_gpu(&mut m, &opts);
    (m, opts)
}

fn gpu() -> (Module, Options) {
    converted(KERNEL)
}

fn find(m: &Module, opcode: Opcode) -> Op {
    let mut found = None;
    m.walk(|op| {
        if m.opcode(op) == opcode && found.is_none() {
            found = Some(op);
        }
    });
    found.unwrap_or_else(|| panic!("no {opcode:?}"))
}

fn messages(m: &Module, opts: &Options) -> Vec<String> {
    match verify_gpu(m, opts) {
        Ok(()) => Vec::new(),
        Err(e) => e.into_iter().map(|e| e.message).collect(),
    }
}

#[test]
fn converted_kernel_verifies_and_has_both_kinds_of_conversion() {
    let (m, opts) = gpu();
    assert_eq!(messages(&m, &opts), Vec::<String>::new());
    for opcode in [
        Opcode::ConvertLayout,
        Opcode::LocalAlloc,
        Opcode::GpuBarrier,
        Opcode::LocalLoad,
        Opcode::LocalDealloc,
    ] {
        find(&m, opcode);
    }
}

#[test]
fn tile_without_encoding() {
    let (mut m, opts) = gpu();
    let v = m.result(find(&m, Opcode::Iota), 0);
    let t = m.value_type(v);
    let bare = m.ctx.types.with_encoding(t, None);
    m.set_value_type(v, bare);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"tile value of type 'tile<64x32xi32>' has no layout encoding".to_string()),
        "{msgs:?}"
    );
}

/// An entry's layouts are made for one warp count (its first layout says which, whatever
/// the options say): a value whose layout is made for another is refused.
#[test]
fn encoding_for_another_warp_count() {
    let (mut m, opts) = gpu();
    let two_warps = Options {
        num_warps: 2,
        ..Options::default()
    };
    assert_eq!(messages(&m, &two_warps), Vec::<String>::new());
    let v = m.result(find(&m, Opcode::Iota), 0);
    let t = m.value_type(v);
    let shape = m.ctx.types.shape(t).to_vec();
    let enc = m
        .ctx
        .types
        .intern(Layout::blocked(11, 1).to_encoding(&shape));
    let other = m.ctx.types.with_encoding(t, Some(enc));
    m.set_value_type(v, other);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.iter()
            .any(|s| s.ends_with(": 1 warp bases for 4 warps")),
        "{msgs:?}"
    );
}

#[test]
fn convert_layout_changes_shape() {
    let (mut m, opts) = gpu();
    let c = find(&m, Opcode::ConvertLayout);
    let r = m.result(c, 0);
    let enc = m.ctx.types.encoding(m.value_type(r));
    let other = m.ctx.types.tile(&[64, 32], tilec_ir::Type::F32);
    let other = m.ctx.types.with_encoding(other, enc);
    m.set_value_type(r, other);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'ttg.convert_layout' op requires the same shape and element type for its source and result".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn local_alloc_buffer_of_another_shape() {
    let (mut m, opts) = gpu();
    let a = find(&m, Opcode::LocalAlloc);
    let md = m.ctx.types.intern(TypeData::MemDesc {
        shape: vec![64, 32].into(),
        elem: tilec_ir::Type::F32,
        mutable: false,
        order: tilec_ir::TypeStore::row_major_order(2),
        swizzle: tilec_ir::Swizzle::NONE,
    });
    let r = m.result(a, 0);
    m.set_value_type(r, md);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'ttg.local_alloc' op requires the buffer's shape and element type to match its initial value".to_string()),
        "{msgs:?}"
    );
    assert!(
        msgs.contains(&"'ttg.local_load' op requires the result's shape and element type to match the buffer's".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn local_alloc_without_value_must_be_mutable() {
    let (mut m, opts) = gpu();
    let a = find(&m, Opcode::LocalAlloc);
    m.remove_operand(a, 0);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(
            &"'ttg.local_alloc' op without an initial value must return a mutable buffer"
                .to_string()
        ),
        "{msgs:?}"
    );
}

#[test]
fn buffer_used_after_dealloc() {
    let (mut m, opts) = gpu();
    let d = find(&m, Opcode::LocalDealloc);
    let l = find(&m, Opcode::LocalLoad);
    m.move_op(l, tilec_ir::InsertPoint::After(d));
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"buffer used after its 'ttg.local_dealloc'".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn barrier_without_address_space() {
    let (mut m, opts) = gpu();
    let b = find(&m, Opcode::GpuBarrier);
    m.set_attr(b, 0, None);
    let msgs = messages(&m, &opts);
    assert_eq!(
        msgs,
        vec!["'ttg.barrier' op requires an address space".to_string()]
    );
}

#[test]
fn elementwise_operands_in_another_layout() {
    let (mut m, opts) = gpu();
    let add = find(&m, Opcode::AddF);
    // Give the result the blocked layout of the tile converted for the store: the operands
    // keep the permuted layout.
    let blocked = m.value_type(m.result(find(&m, Opcode::LocalLoad), 0));
    let r = m.result(add, 0);
    m.set_value_type(r, blocked);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(
            &"'cuda_tile.addf' op requires its tile operands in the layout of its result"
                .to_string()
        ),
        "{msgs:?}"
    );
}

#[test]
fn encodings_round_trip_and_reject_bad_bases() {
    let shape = [32, 64];
    let l = Layout::blocked(11, 2);
    let enc = l.to_encoding(&shape);
    assert_eq!(Layout::from_encoding(&enc, &shape, 2), Ok(l.clone()));
    let TypeData::LinearEncoding {
        register,
        lane,
        warp,
    } = enc
    else {
        unreachable!()
    };
    // Two bases selecting the same element bit.
    let mut dup = register.to_vec();
    dup[1] = dup[0].clone();
    let bad = TypeData::LinearEncoding {
        register: dup.into(),
        lane: lane.clone(),
        warp: warp.clone(),
    };
    assert_eq!(
        Layout::from_encoding(&bad, &shape, 2),
        Err("element bit 0 is selected twice".to_string())
    );
    // A basis that selects two bits at once.
    let mut two = register.to_vec();
    two[0] = vec![1, 1].into();
    let bad = TypeData::LinearEncoding {
        register: two.into(),
        lane: lane.clone(),
        warp: warp.clone(),
    };
    assert_eq!(
        Layout::from_encoding(&bad, &shape, 2),
        Err("a basis selects more than one element bit".to_string())
    );
    // Missing a register bit: not every element is held.
    let bad = TypeData::LinearEncoding {
        register: register[1..].to_vec().into(),
        lane,
        warp,
    };
    assert_eq!(
        Layout::from_encoding(&bad, &shape, 2),
        Err("the layout does not cover every element of the tile".to_string())
    );
}

/// A product on tensor cores with A and B loaded in the blocked layout, B stored `N x K`
/// (loaded through `dim_map`, K contiguous): both are staged (`ttg.local_alloc`, B
/// through `permute` and `ttg.memdesc_trans`).
const MMA_KERNEL: &str = r#"
cuda_tile.module @m {
  entry @k(%pa: tile<ptr<f16>>, %pb: tile<ptr<f16>>) {
    %token = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %av = make_tensor_view %pa, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf16, strides=[32,1]>
    %bv = make_tensor_view %pb, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf16, strides=[32,1]>
    %at = make_partition_view %av : partition_view<tile=(64x32), tensor_view<64x32xf16, strides=[32,1]>>
    %bt = make_partition_view %bv : partition_view<tile=(32x64), tensor_view<64x32xf16, strides=[32,1]>, dim_map=[1, 0]>
    %a, %t1 = load_view_tko weak %at[%c0, %c0] token = %token : partition_view<tile=(64x32), tensor_view<64x32xf16, strides=[32,1]>>, tile<i32> -> tile<64x32xf16>, token
    %b, %t2 = load_view_tko weak %bt[%c0, %c0] token = %token : partition_view<tile=(32x64), tensor_view<64x32xf16, strides=[32,1]>, dim_map=[1, 0]>, tile<i32> -> tile<32x64xf16>, token
    %c = constant <f32: 0.0> : tile<64x64xf32>
    %d = mmaf %a, %b, %c : tile<64x32xf16>, tile<32x64xf16>, tile<64x64xf32>
    return
  }
}
"#;

fn mma_gpu() -> (Module, Options) {
    converted(MMA_KERNEL)
}

/// The product with B stored `K x N` (N contiguous): B is staged as it is, `K x N`, no
/// `permute` and no `ttg.memdesc_trans` (its fragments are read with `ldmatrix.trans`).
#[test]
fn b_stored_k_by_n_is_staged_as_it_is() {
    let src = MMA_KERNEL
        .replace(
            "%bv = make_tensor_view %pb, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf16, strides=[32,1]>",
            "%bv = make_tensor_view %pb, shape = [32, 64], strides = [64, 1] : tensor_view<32x64xf16, strides=[64,1]>",
        )
        .replace(
            "partition_view<tile=(32x64), tensor_view<64x32xf16, strides=[32,1]>, dim_map=[1, 0]>",
            "partition_view<tile=(32x64), tensor_view<32x64xf16, strides=[64,1]>>",
        );
    let (m, opts) = converted(&src);
    assert_eq!(messages(&m, &opts), Vec::<String>::new());
    let mma = find(&m, Opcode::MmaF);
    let b = m.operand(mma, 1);
    let alloc = m.defining_op(b).expect("staged");
    assert_eq!(m.opcode(alloc), Opcode::LocalAlloc);
    assert_eq!(m.ctx.types.shape(m.value_type(b)), &[32, 64]);
    // Rows of 128 bytes: the 128-byte swizzle.
    assert_eq!(swizzle_of(&m, b), SW(8, 1, 8));
    let mut transposes = 0;
    m.walk(|op| {
        transposes += usize::from(matches!(
            m.opcode(op),
            Opcode::MemDescTrans | Opcode::Permute
        ));
    });
    assert_eq!(transposes, 0);
}

#[test]
fn staged_mma_verifies() {
    let (m, opts) = mma_gpu();
    assert_eq!(messages(&m, &opts), Vec::<String>::new());
    let mma = find(&m, Opcode::MmaF);
    let is_buf = |v| matches!(m.ctx.types.get(m.value_type(v)), TypeData::MemDesc { .. });
    assert!(is_buf(m.operand(mma, 0)) && is_buf(m.operand(mma, 1)));
    let trans = find(&m, Opcode::MemDescTrans);
    assert_eq!(m.operand(mma, 1), m.result(trans, 0));
}

#[test]
fn memdesc_trans_with_a_wrong_result() {
    let (mut m, opts) = mma_gpu();
    let t = find(&m, Opcode::MemDescTrans);
    // The result typed as the unpermuted source.
    let src_ty = m.value_type(m.operand(t, 0));
    let r = m.result(t, 0);
    m.set_value_type(r, src_ty);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'ttg.memdesc_trans' op result must be the source buffer with its dimensions permuted by 'order'".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn mma_with_inconsistent_shapes() {
    let (mut m, opts) = mma_gpu();
    let mma = find(&m, Opcode::MmaF);
    // B replaced by the untransposed N x K buffer.
    let t = find(&m, Opcode::MemDescTrans);
    let nk = m.operand(t, 0);
    m.set_operand(mma, 1, nk);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'cuda_tile.mmaf' op requires operands of shapes [b x] M x K, [b x] K x N and [b x] M x N".to_string()),
        "{msgs:?}"
    );
}

/// The same product inside a K loop (B stored `N x K`): pipelined over two shared-memory
/// stages (`ttg.memdesc_index`, `ttg.local_store`).
const PIPELINED_KERNEL: &str = r#"
cuda_tile.module @m {
  entry @k(%pa: tile<ptr<f16>>, %pb: tile<ptr<f16>>, %n: tile<i32>) {
    %token = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %av = make_tensor_view %pa, shape = [64, 256], strides = [256, 1] : tensor_view<64x256xf16, strides=[256,1]>
    %bv = make_tensor_view %pb, shape = [64, 256], strides = [256, 1] : tensor_view<64x256xf16, strides=[256,1]>
    %at = make_partition_view %av : partition_view<tile=(64x32), tensor_view<64x256xf16, strides=[256,1]>>
    %bt = make_partition_view %bv : partition_view<tile=(32x64), tensor_view<64x256xf16, strides=[256,1]>, dim_map=[1, 0]>
    %c = constant <f32: 0.0> : tile<64x64xf32>
    %acc = for %k in (%c0 to %n, step %c1) : tile<i32> iter_values(%x = %c) -> (tile<64x64xf32>) {
      %a, %t1 = load_view_tko weak %at[%c0, %k] token = %token : partition_view<tile=(64x32), tensor_view<64x256xf16, strides=[256,1]>>, tile<i32> -> tile<64x32xf16>, token
      %b, %t2 = load_view_tko weak %bt[%k, %c0] token = %token : partition_view<tile=(32x64), tensor_view<64x256xf16, strides=[256,1]>, dim_map=[1, 0]>, tile<i32> -> tile<32x64xf16>, token
      %d = mmaf %a, %b, %x : tile<64x32xf16>, tile<32x64xf16>, tile<64x64xf32>
      continue %d : tile<64x64xf32>
    }
    return
  }
}
"#;

fn pipelined_gpu() -> (Module, Options) {
    converted(PIPELINED_KERNEL)
}

#[test]
fn pipelined_loop_verifies() {
    let (m, opts) = pipelined_gpu();
    assert_eq!(messages(&m, &opts), Vec::<String>::new());
    for opcode in [
        Opcode::MemDescIndex,
        Opcode::LocalStore,
        Opcode::MemDescTrans,
    ] {
        find(&m, opcode);
    }
}

#[test]
fn local_store_into_an_immutable_buffer() {
    let (mut m, opts) = pipelined_gpu();
    let st = find(&m, Opcode::LocalStore);
    let dst = m.operand(st, 1);
    let TypeData::MemDesc {
        shape,
        elem,
        order,
        swizzle,
        ..
    } = m.ctx.types.get(m.value_type(dst)).clone()
    else {
        panic!("not a buffer");
    };
    let frozen = m.ctx.types.intern(TypeData::MemDesc {
        shape,
        elem,
        mutable: false,
        order,
        swizzle,
    });
    m.set_value_type(dst, frozen);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'ttg.local_store' op requires a mutable buffer".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn memdesc_index_with_a_tile_index() {
    let (mut m, opts) = pipelined_gpu();
    let ix = find(&m, Opcode::MemDescIndex);
    // A 64x64 accumulator tile as the index.
    let acc = m.operand(find(&m, Opcode::MmaF), 2);
    m.set_operand(ix, 1, acc);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'ttg.memdesc_index' op requires a rank-0 index".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn pipelined_prefetch_is_masked_by_the_stage_predicate() {
    let (m, _) = pipelined_gpu();
    let mask = find(&m, Opcode::Mask);
    let ps = find(&m, Opcode::PredicateStage);
    assert_eq!(m.operand(mask, 0), m.result(ps, 0));
}

#[test]
fn mask_returning_another_type() {
    let (mut m, opts) = pipelined_gpu();
    // B's mask (A's async copies return nothing).
    let mut mask = None;
    m.walk(|op| {
        if m.opcode(op) == Opcode::Mask && m.num_results(op) == 1 {
            mask = Some(op);
        }
    });
    let mask = mask.expect("a mask with a result");
    let i1 = m.value_type(m.operand(mask, 0));
    let r = m.result(mask, 0);
    m.set_value_type(r, i1);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(
            &"'ttg.mask' op body must end with a 'ttg.mask.return' of the op's result types"
                .to_string()
        ),
        "{msgs:?}"
    );
}

#[test]
fn predicate_stage_of_a_tile() {
    let (mut m, opts) = pipelined_gpu();
    let ps = find(&m, Opcode::PredicateStage);
    let acc = m.operand(find(&m, Opcode::MmaF), 2);
    m.set_operand(ps, 0, acc);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'ttg.predicate_stage' op takes rank-0 integer iv, ub and step and returns a rank-0 i1".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn pipelined_a_is_copied_asynchronously() {
    let (m, opts) = pipelined_gpu();
    assert_eq!(messages(&m, &opts), Vec::<String>::new());
    for opcode in [
        Opcode::AsyncCopyGlobalToLocal,
        Opcode::AsyncCommitGroup,
        Opcode::AsyncWait,
    ] {
        find(&m, opcode);
    }
}

#[test]
fn async_copy_into_a_buffer_of_another_shape() {
    let (mut m, opts) = pipelined_gpu();
    let c = find(&m, Opcode::AsyncCopyGlobalToLocal);
    let n = m.num_operands(c);
    // The two-stage buffer itself instead of one stage.
    let stage = m.operand(c, n - 1);
    let ix = m.defining_op(stage).expect("memdesc_index");
    let whole = m.operand(ix, 0);
    m.set_operand(c, n - 1, whole);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'ttg.async_copy_global_to_local' op requires a buffer of the view's tile shape and one index per dimension".to_string()),
        "{msgs:?}"
    );
}

/// Extracts from a 64x32 tile at run-time indices and at constant ones.
const EXTRACT_KERNEL: &str = r#"
cuda_tile.module @m {
  entry @k(%p: tile<ptr<i32>>, %i: tile<i32>, %j: tile<i32>) {
    %c1 = constant <i32: 1> : tile<i32>
    %x = iota : tile<2048xi32>
    %y = reshape %x : tile<2048xi32> -> tile<64x32xi32>
    %dyn = extract %y[%i, %j] : tile<64x32xi32> -> tile<8x8xi32>
    %cst = extract %y[%c1, %c1] : tile<64x32xi32> -> tile<8x8xi32>
    %s = addi %dyn, %cst : tile<8x8xi32>
    %base = reshape %p : tile<ptr<i32>> -> tile<1x1xptr<i32>>
    %ptrs = broadcast %base : tile<1x1xptr<i32>> -> tile<8x8xptr<i32>>
    %tok = store_ptr_tko weak %ptrs, %s : tile<8x8xptr<i32>>, tile<8x8xi32> -> token
    return
  }
}
"#;

fn extract_gpu() -> (Module, Options) {
    converted(EXTRACT_KERNEL)
}

/// The operand type of `op`'s operand `i` and its result type, as `TypeData`.
fn memdesc(m: &Module, v: tilec_ir::Value) -> TypeData {
    m.ctx.types.get(m.value_type(v)).clone()
}

#[test]
fn extracts_become_shared_memory_views() {
    let (m, opts) = extract_gpu();
    assert_eq!(messages(&m, &opts), Vec::<String>::new());
    let mut extracts = 0;
    m.walk(|op| extracts += usize::from(m.opcode(op) == Opcode::Extract));
    assert_eq!(extracts, 0);
    // Run-time indices: [64, 32] -> [8, 8, 4, 8] -> [8, 4, 8, 8] -> [4, 8, 8] -> [8, 8].
    let reshape = find(&m, Opcode::MemDescReshape);
    assert_eq!(
        m.ctx.types.shape(m.value_type(m.result(reshape, 0))),
        &[8, 8, 4, 8]
    );
    let trans = find(&m, Opcode::MemDescTrans);
    let TypeData::MemDesc { shape, order, .. } = memdesc(&m, m.result(trans, 0)) else {
        panic!("memdesc_trans result");
    };
    assert_eq!(
        (&*shape, &*order),
        (&[8i64, 4, 8, 8][..], &[3u8, 1, 2, 0][..])
    );
    // Constant indices [1, 1]: the 8x8 block at [8, 8].
    let sub = find(&m, Opcode::MemDescSubslice);
    let offsets = m
        .attr_named(sub, "offsets")
        .map(|a| m.ctx.attrs.get(a).clone());
    assert_eq!(
        offsets,
        Some(tilec_ir::attrs::AttrData::DenseI32Array(vec![8, 8].into()))
    );
}

#[test]
fn memdesc_subslice_at_an_unaligned_offset() {
    let (mut m, opts) = extract_gpu();
    let sub = find(&m, Opcode::MemDescSubslice);
    let bad = m
        .ctx
        .attrs
        .intern(tilec_ir::attrs::AttrData::DenseI32Array(vec![8, 4].into()));
    m.set_attr(sub, 0, Some(bad));
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'ttg.memdesc_subslice' op requires one offset per dimension, a multiple of the result's size there and inside the source".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn memdesc_subslice_with_another_element_type() {
    let (mut m, opts) = extract_gpu();
    let sub = find(&m, Opcode::MemDescSubslice);
    let r = m.result(sub, 0);
    let TypeData::MemDesc {
        shape,
        mutable,
        order,
        ..
    } = memdesc(&m, r)
    else {
        panic!("memdesc");
    };
    let f = m.ctx.types.intern(TypeData::MemDesc {
        shape,
        elem: tilec_ir::Type::F32,
        mutable,
        order,
        swizzle: tilec_ir::Swizzle::NONE,
    });
    m.set_value_type(r, f);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'ttg.memdesc_subslice' op result must be a block of its source: same rank, element type, mutability and order".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn memdesc_reshape_of_a_transposed_buffer() {
    let (mut m, opts) = extract_gpu();
    // Reshape the transposed view instead of the row-major buffer.
    let reshape = find(&m, Opcode::MemDescReshape);
    let trans = find(&m, Opcode::MemDescTrans);
    let t = m.result(trans, 0);
    m.move_op(reshape, tilec_ir::InsertPoint::After(trans));
    m.set_operand(reshape, 0, t);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(
            &"'ttg.memdesc_reshape' op requires a row-major source and result".to_string()
        ),
        "{msgs:?}"
    );
}

#[test]
fn memdesc_reshape_changing_the_element_count() {
    let (mut m, opts) = extract_gpu();
    let reshape = find(&m, Opcode::MemDescReshape);
    let r = m.result(reshape, 0);
    let TypeData::MemDesc { elem, mutable, .. } = memdesc(&m, r) else {
        panic!("memdesc");
    };
    let small = m.ctx.types.intern(TypeData::MemDesc {
        shape: vec![8, 8, 4, 4].into(),
        elem,
        mutable,
        order: tilec_ir::TypeStore::row_major_order(4),
        swizzle: tilec_ir::Swizzle::NONE,
    });
    m.set_value_type(r, small);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'ttg.memdesc_reshape' op requires the same mutability and element type and number of elements in its source and result".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn memdesc_reinterpret_rules() {
    let (mut m, opts) = extract_gpu();
    // Reinterpreting the subslice (not contiguous) and the whole buffer with the wrong size.
    let sub = find(&m, Opcode::MemDescSubslice);
    let reshape = find(&m, Opcode::MemDescReshape);
    let view = m.result(sub, 0);
    let whole = m.operand(reshape, 0);
    let md = |m: &mut Module, shape: &[i64], elem| {
        m.ctx.types.intern(TypeData::MemDesc {
            shape: shape.into(),
            elem,
            mutable: false,
            order: tilec_ir::TypeStore::row_major_order(shape.len()),
            swizzle: tilec_ir::Swizzle::NONE,
        })
    };
    let f16 = md(&mut m, &[128], tilec_ir::Type::F16);
    let f32 = md(&mut m, &[1024], tilec_ir::Type::F32);
    for (src, ty) in [(view, f16), (whole, f32)] {
        m.create_op(
            &tilec_ir::OpSpec {
                opcode: Opcode::MemDescReinterpret,
                operands: &[src],
                results: &[ty],
                attrs: &[],
                regions: 0,
            },
            tilec_ir::InsertPoint::After(sub),
        );
    }
    let msgs = messages(&m, &opts);
    for want in [
        "'ttg.memdesc_reinterpret' op requires a contiguous source (not a 'ttg.memdesc_subslice' view)",
        "'ttg.memdesc_reinterpret' op requires the same mutability and bytes in its source and result",
    ] {
        assert!(msgs.contains(&want.to_string()), "{want}: {msgs:?}");
    }
}

#[test]
fn memdesc_index_keeping_the_wrong_order() {
    let (mut m, opts) = extract_gpu();
    // The first index of the transposed view, typed row-major.
    let ix = find(&m, Opcode::MemDescIndex);
    let r = m.result(ix, 0);
    let TypeData::MemDesc {
        shape,
        elem,
        mutable,
        ..
    } = memdesc(&m, r)
    else {
        panic!("memdesc");
    };
    let row_major = m.ctx.types.intern(TypeData::MemDesc {
        order: tilec_ir::TypeStore::row_major_order(shape.len()),
        swizzle: tilec_ir::Swizzle::NONE,
        shape,
        elem,
        mutable,
    });
    m.set_value_type(r, row_major);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(
            &"'ttg.memdesc_index' op result must be one element along dimension 0 of its source"
                .to_string()
        ),
        "{msgs:?}"
    );
}

#[test]
fn warp_id_of_a_tile() {
    let (mut m, opts) = extract_gpu();
    let iota = find(&m, Opcode::Iota);
    let ty = m.value_type(m.result(iota, 0));
    m.create_op(
        &tilec_ir::OpSpec {
            opcode: Opcode::WarpId,
            operands: &[],
            results: &[ty],
            attrs: &[None],
            regions: 0,
        },
        tilec_ir::InsertPoint::After(iota),
    );
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'ttg.warp_id' op returns a rank-0 i32".to_string()),
        "{msgs:?}"
    );
}

// ---- swizzled buffers ------------------------------------------------------------------

/// Retypes buffer `v` with `swizzle`.
fn set_swizzle(m: &mut Module, v: tilec_ir::Value, swizzle: Swizzle) {
    let TypeData::MemDesc {
        shape,
        elem,
        mutable,
        order,
        ..
    } = memdesc(m, v)
    else {
        panic!("memdesc");
    };
    let t = m.ctx.types.intern(TypeData::MemDesc {
        shape,
        elem,
        mutable,
        order,
        swizzle,
    });
    m.set_value_type(v, t);
}

fn swizzle_of(m: &Module, v: tilec_ir::Value) -> Swizzle {
    match memdesc(m, v) {
        TypeData::MemDesc { swizzle, .. } => swizzle,
        _ => panic!("memdesc"),
    }
}

const SW: fn(u32, u32, u32) -> Swizzle = |vec, per_phase, max_phase| Swizzle {
    vec,
    per_phase,
    max_phase,
};

#[test]
fn mma_operand_buffers_are_swizzled() {
    // A (64x32 f16) and B^T (64x32 f16): rows of 64 bytes, 16-byte vectors, two rows per
    // phase, four phases.
    let (m, _) = mma_gpu();
    let mma = find(&m, Opcode::MmaF);
    assert_eq!(swizzle_of(&m, m.operand(mma, 0)), SW(8, 2, 4));
    assert_eq!(swizzle_of(&m, m.operand(mma, 1)), SW(8, 2, 4));
    let trans = find(&m, Opcode::MemDescTrans);
    assert_eq!(swizzle_of(&m, m.operand(trans, 0)), SW(8, 2, 4));
    // The pipelined loop's stage buffers (2 x 64 x 32 f16) and their stages.
    let (m, opts) = pipelined_gpu();
    assert_eq!(messages(&m, &opts), Vec::<String>::new());
    let ix = find(&m, Opcode::MemDescIndex);
    assert_eq!(swizzle_of(&m, m.operand(ix, 0)), SW(8, 2, 4));
    assert_eq!(swizzle_of(&m, m.result(ix, 0)), SW(8, 2, 4));
    // Conversions stay unswizzled.
    let (m, _) = gpu();
    let alloc = find(&m, Opcode::LocalAlloc);
    assert_eq!(swizzle_of(&m, m.result(alloc, 0)), Swizzle::NONE);
}

#[test]
fn mma_swizzle_by_row_width() {
    use tilec_ir::Type;
    use tilec_ptx::gpu::mma_swizzle;
    assert_eq!(mma_swizzle(&[64, 16], Type::F16), SW(8, 4, 2));
    assert_eq!(mma_swizzle(&[64, 32], Type::F16), SW(8, 2, 4));
    assert_eq!(mma_swizzle(&[64, 64], Type::F16), SW(8, 1, 8));
    assert_eq!(mma_swizzle(&[64, 256], Type::BF16), SW(8, 1, 8));
    assert_eq!(mma_swizzle(&[64, 8], Type::TF32), SW(4, 4, 2));
    assert_eq!(mma_swizzle(&[64, 32], Type::I8), SW(16, 4, 2));
    assert_eq!(mma_swizzle(&[2, 64, 128], Type::I8), SW(16, 1, 8));
    // Rows of 16 bytes or less: 8 rows are one 128-byte line already.
    assert_eq!(mma_swizzle(&[64, 8], Type::F16), Swizzle::NONE);
    assert_eq!(mma_swizzle(&[64], Type::F16), Swizzle::NONE);
}

#[test]
fn swizzle_parameters_must_be_powers_of_two() {
    let (mut m, opts) = mma_gpu();
    let a = m.operand(find(&m, Opcode::MmaF), 0);
    set_swizzle(&mut m, a, SW(8, 3, 4));
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'ttg.local_alloc' op result: swizzle parameters vec = 8, perPhase = 3, maxPhase = 4 must be powers of two".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn swizzle_wider_than_the_row() {
    let (mut m, opts) = mma_gpu();
    let a = m.operand(find(&m, Opcode::MmaF), 0);
    // 8 x 8 = 64 elements of XOR range in rows of 32.
    set_swizzle(&mut m, a, SW(8, 1, 8));
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'ttg.local_alloc' op result: swizzle vec x maxPhase = 64 exceeds the 32 elements of the fastest dimension".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn swizzle_of_a_rank_one_buffer() {
    let (mut m, opts) = mma_gpu();
    let a = m.operand(find(&m, Opcode::MmaF), 0);
    let t = m.ctx.types.intern(TypeData::MemDesc {
        shape: vec![2048].into(),
        elem: tilec_ir::Type::F16,
        mutable: false,
        order: vec![0].into(),
        swizzle: SW(8, 1, 2),
    });
    m.set_value_type(a, t);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'ttg.local_alloc' op result: a swizzled buffer needs a row and a column dimension (rank 2 or more)".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn memdesc_trans_changing_the_swizzle() {
    let (mut m, opts) = mma_gpu();
    let r = m.result(find(&m, Opcode::MemDescTrans), 0);
    set_swizzle(&mut m, r, Swizzle::NONE);
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'ttg.memdesc_trans' op result must keep its source's swizzle".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn memdesc_index_changing_the_swizzle() {
    let (mut m, opts) = pipelined_gpu();
    let r = m.result(find(&m, Opcode::MemDescIndex), 0);
    set_swizzle(&mut m, r, SW(8, 1, 4));
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(&"'ttg.memdesc_index' op result must keep its source's swizzle".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn memdesc_index_of_a_swizzled_row() {
    // A row of A's swizzled 64x32 buffer: the writer swizzles within whole matrices.
    let (mut m, opts) = mma_gpu();
    let mma = find(&m, Opcode::MmaF);
    let a = m.operand(mma, 0);
    let zero = m.operand(find(&m, Opcode::LoadViewTko), 1);
    let row = m.ctx.types.intern(TypeData::MemDesc {
        shape: vec![32].into(),
        elem: tilec_ir::Type::F16,
        mutable: false,
        order: vec![0].into(),
        swizzle: SW(8, 2, 4),
    });
    m.create_op(
        &tilec_ir::OpSpec {
            opcode: Opcode::MemDescIndex,
            operands: &[a, zero],
            results: &[row],
            attrs: &[],
            regions: 0,
        },
        tilec_ir::InsertPoint::Before(mma),
    );
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(
            &"'ttg.memdesc_index' op cannot index the row or column dimension of a swizzled buffer"
                .to_string()
        ),
        "{msgs:?}"
    );
}

#[test]
fn memdesc_subslice_of_a_swizzled_buffer() {
    let (mut m, opts) = extract_gpu();
    let sub = find(&m, Opcode::MemDescSubslice);
    let src = m.operand(sub, 0);
    set_swizzle(&mut m, src, SW(4, 1, 8));
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(
            &"'ttg.memdesc_subslice' op cannot take a block of a swizzled buffer".to_string()
        ),
        "{msgs:?}"
    );
}

#[test]
fn memdesc_reshape_of_a_swizzled_buffer() {
    let (mut m, opts) = extract_gpu();
    let reshape = find(&m, Opcode::MemDescReshape);
    let src = m.operand(reshape, 0);
    set_swizzle(&mut m, src, SW(4, 1, 8));
    let msgs = messages(&m, &opts);
    assert!(
        msgs.contains(
            &"'ttg.memdesc_reshape' op requires an unswizzled source and result".to_string()
        ),
        "{msgs:?}"
    );
}

/// sm_90a: a warpgroup MMA's K loop whose A goes by the copy engine (static strides of 512
/// bytes; the base checked at run time): a tensor map in a global slot, an mbarrier ring;
/// and the accumulator stored by the copy engine from its layout conversion's buffer.
const TMA_KERNEL: &str = r#"
cuda_tile.module @m {
  entry @k(%pa: tile<ptr<f16>>, %pb: tile<ptr<f16>>, %pc: tile<ptr<f32>>, %n: tile<i32>) {
    %token = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %av = make_tensor_view %pa, shape = [64, 256], strides = [256, 1] : tensor_view<64x256xf16, strides=[256,1]>
    %bv = make_tensor_view %pb, shape = [256, 64], strides = [64, 1] : tensor_view<256x64xf16, strides=[64,1]>
    %cv = make_tensor_view %pc, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
    %ct = make_partition_view %cv : partition_view<tile=(64x64), tensor_view<64x64xf32, strides=[64,1]>>
    %at = make_partition_view %av : partition_view<tile=(64x32), tensor_view<64x256xf16, strides=[256,1]>>
    %bt = make_partition_view %bv : partition_view<tile=(32x64), tensor_view<256x64xf16, strides=[64,1]>>
    %c = constant <f32: 0.0> : tile<64x64xf32>
    %acc = for %k in (%c0 to %n, step %c1) : tile<i32> iter_values(%x = %c) -> (tile<64x64xf32>) {
      %a, %t1 = load_view_tko weak %at[%c0, %k] token = %token : partition_view<tile=(64x32), tensor_view<64x256xf16, strides=[256,1]>>, tile<i32> -> tile<64x32xf16>, token
      %b, %t2 = load_view_tko weak %bt[%k, %c0] token = %token : partition_view<tile=(32x64), tensor_view<256x64xf16, strides=[64,1]>>, tile<i32> -> tile<32x64xf16>, token
      %d = mmaf %a, %b, %x : tile<64x32xf16>, tile<32x64xf16>, tile<64x64xf32>
      continue %d : tile<64x64xf32>
    }
    %t3 = store_view_tko weak %acc, %ct[%c0, %c0] token = %token : tile<64x64xf32>, partition_view<tile=(64x64), tensor_view<64x64xf32, strides=[64,1]>>, tile<i32> -> token
    return
  }
}
"#;

fn tma_gpu() -> (Module, Options) {
    let mut m = tilec_parse::parse(TMA_KERNEL, FileId(0), &Default::default()).expect("parses");
    let opts = Options {
        arch: tilec_ptx::Arch::Sm90a,
        ..Options::default()
    };
    convert_to_gpu(&mut m, &opts);
    (m, opts)
}

fn has(msgs: &[String], want: &str) -> bool {
    msgs.iter().any(|m| m == want)
}

#[test]
fn tma_pipeline_verifies_and_has_every_new_op() {
    let (m, opts) = tma_gpu();
    assert_eq!(messages(&m, &opts), Vec::<String>::new());
    for opcode in [
        Opcode::GlobalScratchAlloc,
        Opcode::TensormapCreate,
        Opcode::InitBarrier,
        Opcode::BarrierExpect,
        Opcode::AsyncTmaCopyGlobalToLocal,
        Opcode::ArriveBarrier,
        Opcode::WaitBarrier,
        Opcode::InvalBarrier,
        Opcode::FenceAsyncShared,
        Opcode::AsyncTmaCopyLocalToGlobal,
        Opcode::AsyncTmaStoreWait,
    ] {
        find(&m, opcode);
    }
}

#[test]
fn tma_store_rules() {
    // From a (swizzled) stage of the ring instead of the conversion's buffer.
    let (mut m, opts) = tma_gpu();
    let stage = {
        let c = find(&m, Opcode::AsyncTmaCopyGlobalToLocal);
        m.operand(c, m.num_operands(c) - 2)
    };
    let st = find(&m, Opcode::AsyncTmaCopyLocalToGlobal);
    let n = m.num_operands(st);
    m.set_operand(st, n - 1, stage);
    assert!(has(
        &messages(&m, &opts),
        "'ttng.async_tma_copy_local_to_global' op requires an unswizzled buffer of the view's tile shape and one index per dimension"
    ));
    // A wait for more groups than a thread may have in flight.
    let (mut m, opts) = tma_gpu();
    let w = find(&m, Opcode::AsyncTmaStoreWait);
    m.remove_extra_attr(w, "pendings");
    let nine = m.ctx.attrs.int(9, tilec_ir::Type::I32);
    m.push_extra_attr(w, "pendings", nine);
    assert!(has(
        &messages(&m, &opts),
        "'ttng.async_tma_store_wait' op requires 'pendings', an integer from 0 to 7"
    ));
}

#[test]
fn tma_copy_rules() {
    // Into the whole ring instead of one stage.
    let (mut m, opts) = tma_gpu();
    let c = find(&m, Opcode::AsyncTmaCopyGlobalToLocal);
    let n = m.num_operands(c);
    let ix = m.defining_op(m.operand(c, n - 2)).expect("memdesc_index");
    let whole = m.operand(ix, 0);
    m.set_operand(c, n - 2, whole);
    assert!(has(
        &messages(&m, &opts),
        "'ttng.async_tma_copy_global_to_local' op requires a buffer of the view's tile shape and one index per dimension"
    ));
    // Completing on a stage buffer instead of a barrier.
    let (mut m, opts) = tma_gpu();
    let c = find(&m, Opcode::AsyncTmaCopyGlobalToLocal);
    let n = m.num_operands(c);
    let dst = m.operand(c, n - 2);
    m.set_operand(c, n - 1, dst);
    assert!(has(
        &messages(&m, &opts),
        "'ttng.async_tma_copy_global_to_local' op completes on a mutable !ttg.memdesc<1xi64> barrier"
    ));
    // Through a map no `ttng.tensormap_create` wrote: the create takes the other view.
    let (mut m, opts) = tma_gpu();
    let t = find(&m, Opcode::TensormapCreate);
    let other = {
        let mut v = None;
        m.walk(|op| {
            if m.opcode(op) == Opcode::MakePartitionView
                && Some(m.result(op, 0)) != Some(m.operand(t, 1))
            {
                v = Some(m.result(op, 0));
            }
        });
        v.expect("B's view")
    };
    m.set_operand(t, 1, other);
    assert!(has(
        &messages(&m, &opts),
        "'ttng.async_tma_copy_global_to_local' op requires a map that a 'ttng.tensormap_create' of its view writes"
    ));
}

#[test]
fn tma_map_and_slot_rules() {
    // A slot of fewer than 128 bytes.
    let (mut m, opts) = tma_gpu();
    let g = find(&m, Opcode::GlobalScratchAlloc);
    let small = m.ctx.attrs.int(64, tilec_ir::Type::I32);
    m.set_attr(g, 0, Some(small));
    assert!(has(
        &messages(&m, &opts),
        "'ttng.tensormap_create' op writes its 128-byte map into a 'ttg.global_scratch_alloc' of at least 128 bytes"
    ));
    // A swizzle mode the copy engine does not have.
    let (mut m, opts) = tma_gpu();
    let t = find(&m, Opcode::TensormapCreate);
    let bad = m.ctx.attrs.int(7, tilec_ir::Type::I32);
    m.set_attr(t, 0, Some(bad));
    assert!(has(
        &messages(&m, &opts),
        "'ttng.tensormap_create' op requires 'swizzle_mode' from 0 (none) to 3 (128 bytes)"
    ));
    // The slot's pointer used as something else than a map: only warp 0 holds it.
    let (mut m, opts) = tma_gpu();
    let g = find(&m, Opcode::GlobalScratchAlloc);
    let p = m.result(g, 0);
    let t = find(&m, Opcode::TensormapCreate);
    m.set_operand(t, 1, p);
    let msgs = messages(&m, &opts);
    assert!(
        has(&msgs, "'ttng.tensormap_create' op maps a partition view"),
        "{msgs:?}"
    );
    assert!(
        has(
            &msgs,
            "'ttg.global_scratch_alloc' op returns a rank-0 pointer used only as the map of 'ttng.tensormap_create' and the copy engine's copies"
        ),
        "{msgs:?}"
    );
}

#[test]
fn mbarrier_rules() {
    // A wait on a stage buffer, not a barrier.
    let (mut m, opts) = tma_gpu();
    let c = find(&m, Opcode::AsyncTmaCopyGlobalToLocal);
    let n = m.num_operands(c);
    let stage = m.operand(c, n - 2);
    let w = find(&m, Opcode::WaitBarrier);
    m.set_operand(w, 0, stage);
    assert!(has(
        &messages(&m, &opts),
        "'ttng.wait_barrier' op requires a mutable !ttg.memdesc<1xi64> barrier"
    ));
    // A phase that is not an i32 scalar, and an expectation of no bytes.
    let (mut m, opts) = tma_gpu();
    let w = find(&m, Opcode::WaitBarrier);
    let e = find(&m, Opcode::BarrierExpect);
    let pred = m.operand(e, 1);
    m.set_operand(w, 1, pred);
    let zero = m.ctx.attrs.int(0, tilec_ir::Type::I32);
    m.set_attr(e, 0, Some(zero));
    let msgs = messages(&m, &opts);
    assert!(
        has(&msgs, "'ttng.wait_barrier' op requires a rank-0 i32 phase"),
        "{msgs:?}"
    );
    assert!(
        has(
            &msgs,
            "'ttng.barrier_expect' op requires a positive 'size' and a rank-0 i1 predicate"
        ),
        "{msgs:?}"
    );
    // A barrier initialised with no arrivals.
    let (mut m, opts) = tma_gpu();
    let i = find(&m, Opcode::InitBarrier);
    let zero = m.ctx.attrs.int(0, tilec_ir::Type::I32);
    m.set_attr(i, 0, Some(zero));
    assert!(has(
        &messages(&m, &opts),
        "'ttng.init_barrier' op requires a positive 'count'"
    ));
}

/// sm_90a, B tiles of 32 x 128 f16 (rows of two 128-byte swizzle atoms): B's stages are
/// column-blocked buffers (`4 x 2 x 32 x 64`) that the product reads through
/// `ttg.memdesc_reshape` of `ttg.memdesc_trans` as `32 x 128`, which the verifier admits
/// because the reshape keeps the XOR pattern on the same bits of the index; a result
/// swizzled otherwise is refused.
#[test]
fn column_blocked_b_is_a_swizzled_reshape() {
    let wide = TMA_KERNEL
        .replace("tile=(32x64)", "tile=(32x128)")
        .replace("tile<32x64xf16>", "tile<32x128xf16>")
        .replace(
            "shape = [256, 64], strides = [64, 1]",
            "shape = [256, 128], strides = [128, 1]",
        )
        .replace(
            "tensor_view<256x64xf16, strides=[64,1]>",
            "tensor_view<256x128xf16, strides=[128,1]>",
        )
        .replace(
            "tensor_view<64x64xf32, strides=[64,1]>",
            "tensor_view<64x128xf32, strides=[128,1]>",
        )
        .replace("64x64xf32", "64x128xf32")
        .replace("tile=(64x64)", "tile=(64x128)")
        .replace(
            "shape = [64, 64], strides = [64, 1]",
            "shape = [64, 128], strides = [128, 1]",
        );
    let mut m = tilec_parse::parse(&wide, FileId(0), &Default::default()).expect("parses");
    let opts = Options {
        arch: tilec_ptx::Arch::Sm90a,
        ..Options::default()
    };
    convert_to_gpu(&mut m, &opts);
    assert_eq!(messages(&m, &opts), Vec::<String>::new());
    let reshape = find(&m, Opcode::MemDescReshape);
    let trans = m.defining_op(m.operand(reshape, 0)).expect("a view");
    assert_eq!(m.opcode(trans), Opcode::MemDescTrans);
    let TypeData::MemDesc { shape, swizzle, .. } = memdesc(&m, m.operand(trans, 0)) else {
        panic!("memdesc");
    };
    assert_eq!((&*shape, swizzle), (&[2i64, 32, 64][..], SW(8, 1, 8)));
    let res = m.result(reshape, 0);
    set_swizzle(&mut m, res, SW(8, 2, 4));
    let msgs = messages(&m, &opts);
    assert!(
        has(
            &msgs,
            "'ttg.memdesc_reshape' op requires a row-major source and result"
        ),
        "{msgs:?}"
    );
}

fn ws_gpu() -> (Module, Options) {
    let mut m = tilec_parse::parse(TMA_KERNEL, FileId(0), &Default::default()).expect("parses");
    let opts = Options {
        arch: tilec_ptx::Arch::Sm90a,
        warp_specialize: true,
        ..Options::default()
    };
    convert_to_gpu(&mut m, &opts);
    (m, opts)
}

/// `ttg.warp_specialize` (docs/hopper.md, "Warp specialization"): the split K loop
/// verifies (its partition claims its own tensor-map slots), and each rule refuses a
/// module that breaks it.
#[test]
fn warp_specialize_rules() {
    let (m, opts) = ws_gpu();
    assert_eq!(messages(&m, &opts), Vec::<String>::new());
    let ws = find(&m, Opcode::WarpSpecialize);
    find(&m, Opcode::WarpYield);
    find(&m, Opcode::WarpReturn);
    let partition = m.entry_block(m.region(ws, 1));
    let mut claims = 0;
    m.walk(|o| {
        claims +=
            usize::from(m.opcode(o) == Opcode::GlobalScratchAlloc && m.op_block(o) == partition);
    });
    assert_eq!(
        claims, 2,
        "the partition claims its maps' slots (A's and B's)"
    );
    let i32s = |m: &mut Module, v: Vec<i32>| {
        m.ctx
            .attrs
            .intern(tilec_ir::attrs::AttrData::DenseI32Array(v.into()))
    };
    let name = "'ttg.warp_specialize' op";
    // A partition of 3 warps.
    let (mut m, opts) = ws_gpu();
    let ws = find(&m, Opcode::WarpSpecialize);
    let three = i32s(&mut m, vec![3]);
    m.set_attr(ws, 0, Some(three));
    let want = format!("{name} requires 'partitionNumWarps', one count of 1, 2, 4 or 8 warps");
    assert!(has(&messages(&m, &opts), &want));
    // Registers moved to and from a single producer warp (setmaxnreg is per warpgroup).
    let (mut m, opts) = ws_gpu();
    let ws = find(&m, Opcode::WarpSpecialize);
    let regs = i32s(&mut m, vec![232, 40]);
    m.set_attr(ws, 1, Some(regs));
    let want = format!(
        "{name} moves registers ('actualRegisters', setmaxnreg) only between whole warpgroups"
    );
    assert!(
        has(&messages(&m, &opts), &want),
        "{:?}",
        messages(&m, &opts)
    );
    // A write before it, which the partition's warps would run too.
    let (mut m, opts) = ws_gpu();
    let ws = find(&m, Opcode::WarpSpecialize);
    let fence = find(&m, Opcode::FenceAsyncShared);
    m.move_op(fence, tilec_ir::InsertPoint::Before(ws));
    let msgs = messages(&m, &opts);
    assert!(
        msgs.iter().any(|s| s.starts_with(&format!(
            "{name} follows 'ttng.fence_async_shared', which the partition's warps would run too"
        ))),
        "{msgs:?}"
    );
    // A CTA barrier in the partition.
    let (mut m, opts) = ws_gpu();
    let ret = find(&m, Opcode::WarpReturn);
    let local = m.ctx.attrs.enum_case(tilec_ir::EnumKind::AddrSpace, 1);
    m.create_op(
        &tilec_ir::OpSpec {
            opcode: Opcode::GpuBarrier,
            operands: &[],
            results: &[],
            attrs: &[Some(local)],
            regions: 0,
        },
        tilec_ir::InsertPoint::Before(ret),
    );
    let want = format!(
        "{name} partition must hold scalar code and no CTA barrier ('ttg.barrier' is neither): its warps have no layouts"
    );
    assert!(has(&messages(&m, &opts), &want));
    // A default region that yields nothing.
    let (mut m, opts) = ws_gpu();
    let y = find(&m, Opcode::WarpYield);
    m.erase_op(y);
    let want =
        format!("{name} default region must end with a 'ttg.warp_yield' of the op's result types");
    assert!(has(&messages(&m, &opts), &want));
}
