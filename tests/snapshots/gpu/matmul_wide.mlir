#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64], [64, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []}>
#linear2 = #ttg.linear<{register = [[0, 1], [0, 2], [4, 0], [8, 0], [16, 0], [32, 0], [64, 0]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], warp = [[1, 0], [2, 0]], block = []}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
cuda_tile.module @examples {
  entry @matmul_wide(%arg0: tile<ptr<f16>, #linear>, %arg1: tile<i32, #linear>, %arg2: tile<i32, #linear>, %arg3: tile<i32, #linear>, %arg4: tile<i32, #linear>, %arg5: tile<ptr<f16>, #linear>, %arg6: tile<i32, #linear>, %arg7: tile<i32, #linear>, %arg8: tile<i32, #linear>, %arg9: tile<i32, #linear>, %arg10: tile<ptr<f32>, #linear>, %arg11: tile<i32, #linear>, %arg12: tile<i32, #linear>, %arg13: tile<i32, #linear>, %arg14: tile<i32, #linear>) {
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x128xf32, #linear1>
    %cst_1_i32 = constant <i32: 1> : tile<i32, #linear>
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %assume = assume div_by<16>, %arg0 : tile<ptr<f16>, #linear>
    %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f16>, #linear>
    %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f32>, #linear>
    %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32, #linear>
    %assume_3 = assume bounded<0, ?>, %arg2 : tile<i32, #linear>
    %assume_4 = assume bounded<0, ?>, %arg3 : tile<i32, #linear>
    %tview = make_tensor_view %assume, shape = [%assume_2, %assume_3], strides = [%assume_4, 1] : tile<i32, #linear> -> tensor_view<?x?xf16, strides=[?,1]>
    %assume_5 = assume bounded<0, ?>, %arg6 : tile<i32, #linear>
    %assume_6 = assume bounded<0, ?>, %arg7 : tile<i32, #linear>
    %assume_7 = assume bounded<0, ?>, %arg8 : tile<i32, #linear>
    %tview_8 = make_tensor_view %assume_0, shape = [%assume_5, %assume_6], strides = [%assume_7, 1] : tile<i32, #linear> -> tensor_view<?x?xf16, strides=[?,1]>
    %assume_9 = assume bounded<0, ?>, %arg11 : tile<i32, #linear>
    %assume_10 = assume bounded<0, ?>, %arg12 : tile<i32, #linear>
    %assume_11 = assume bounded<0, ?>, %arg13 : tile<i32, #linear>
    %tview_12 = make_tensor_view %assume_1, shape = [%assume_9, %assume_10], strides = [%assume_11, 1] : tile<i32, #linear> -> tensor_view<?x?xf32, strides=[?,1]>
    %pview = make_partition_view %tview : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %pview_13 = make_partition_view %tview_8 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %pview_14 = make_partition_view %tview_12 : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32, #linear>
    %1:2 = get_index_space_shape %pview : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32, #linear>
    %cst_0_i32_15 = constant <i32: 0> : tile<i32, #linear>
    %2 = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable>
    %cst_0_i32_16 = constant <i32: 0> : tile<i32, #linear>
    %true = constant <i1: true> : tile<i1, #linear>
    %cst_7_i32 = constant <i32: 7> : tile<i32, #linear>
    %3 = andi %assume_4, %cst_7_i32 : tile<i32, #linear>
    %4 = cmpi equal %3, %cst_0_i32_16, unsigned : tile<i32, #linear> -> tile<i1, #linear>
    %5 = xori %4, %true : tile<i1, #linear>
    %cst_3_i32 = constant <i32: 3> : tile<i32, #linear>
    %6 = andi %assume_4, %cst_3_i32 : tile<i32, #linear>
    %7 = cmpi equal %6, %cst_0_i32_16, unsigned : tile<i32, #linear> -> tile<i1, #linear>
    %8 = xori %7, %true : tile<i1, #linear>
    %9 = andi %7, %5 : tile<i1, #linear>
    %10 = andi %8, %5 : tile<i1, #linear>
    ttg.mask %4 : tile<i1, #linear> -> () {
      %24 = ttg.memdesc_index %2[%cst_0_i32_15] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      %25 = ttg.async_copy_global_to_local %pview[%blockId_x, %cst_0_i32], %24 {contiguity = 8 : i32, ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {width = 8 : i32}} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      ttg.mask.return
    }
    ttg.mask %9 : tile<i1, #linear> -> () {
      %24 = ttg.memdesc_index %2[%cst_0_i32_15] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      %25 = ttg.async_copy_global_to_local %pview[%blockId_x, %cst_0_i32], %24 {contiguity = 4 : i32, ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {width = 4 : i32}} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      ttg.mask.return
    }
    ttg.mask %10 : tile<i1, #linear> -> () {
      %24 = ttg.memdesc_index %2[%cst_0_i32_15] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      %25 = ttg.async_copy_global_to_local %pview[%blockId_x, %cst_0_i32], %24 {ttg.index_nonneg = array<i32: 0, 1>} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      ttg.mask.return
    }
    %11 = ttg.local_alloc {allocation.offset = 65536 : i32} : () -> !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable>
    %cst_0_i32_17 = constant <i32: 0> : tile<i32, #linear>
    %true_18 = constant <i1: true> : tile<i1, #linear>
    %cst_7_i32_19 = constant <i32: 7> : tile<i32, #linear>
    %12 = andi %assume_7, %cst_7_i32_19 : tile<i32, #linear>
    %13 = cmpi equal %12, %cst_0_i32_17, unsigned : tile<i32, #linear> -> tile<i1, #linear>
    %14 = xori %13, %true_18 : tile<i1, #linear>
    %cst_3_i32_20 = constant <i32: 3> : tile<i32, #linear>
    %15 = andi %assume_7, %cst_3_i32_20 : tile<i32, #linear>
    %16 = cmpi equal %15, %cst_0_i32_17, unsigned : tile<i32, #linear> -> tile<i1, #linear>
    %17 = xori %16, %true_18 : tile<i1, #linear>
    %18 = andi %16, %14 : tile<i1, #linear>
    %19 = andi %17, %14 : tile<i1, #linear>
    ttg.mask %13 : tile<i1, #linear> -> () {
      %24 = ttg.memdesc_index %11[%cst_0_i32_15] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      %25 = ttg.async_copy_global_to_local %pview_13[%cst_0_i32, %blockId_y], %24 {contiguity = 8 : i32, ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {width = 8 : i32}} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      ttg.mask.return
    }
    ttg.mask %18 : tile<i1, #linear> -> () {
      %24 = ttg.memdesc_index %11[%cst_0_i32_15] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      %25 = ttg.async_copy_global_to_local %pview_13[%cst_0_i32, %blockId_y], %24 {contiguity = 4 : i32, ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {width = 4 : i32}} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      ttg.mask.return
    }
    ttg.mask %19 : tile<i1, #linear> -> () {
      %24 = ttg.memdesc_index %11[%cst_0_i32_15] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      %25 = ttg.async_copy_global_to_local %pview_13[%cst_0_i32, %blockId_y], %24 {ttg.index_nonneg = array<i32: 0, 1>} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      ttg.mask.return
    }
    %20 = ttg.async_commit_group
    %for = for %loopIdx in (%cst_0_i32 to %1#1, step %cst_1_i32) : tile<i32, #linear> iter_values(%iterArg0 = %cst_0_f32) -> (tile<128x128xf32, #linear1>) {
      %24 = ttg.async_wait {num = 0 : i32}
      ttg.barrier local
      %25 = addi %loopIdx, %cst_1_i32 : tile<i32, #linear>
      %26 = subi %loopIdx, %cst_0_i32 : tile<i32, #linear>
      %27 = andi %26, %cst_1_i32 : tile<i32, #linear>
      %28 = xori %27, %cst_1_i32 : tile<i32, #linear>
      %29 = ttg.predicate_stage %loopIdx, %1#1, %cst_1_i32 maxStage 1 stage 0 : tile<i32, #linear> -> tile<i1, #linear>
      %30 = andi %29, %4 : tile<i1, #linear>
      ttg.mask %30 : tile<i1, #linear> -> () {
        %40 = ttg.memdesc_index %2[%28] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        %41 = ttg.async_copy_global_to_local %pview[%blockId_x, %25], %40 {contiguity = 8 : i32, ttg.index_nonneg = array<i32: 0>, ttg.vector = {width = 8 : i32}} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        ttg.mask.return
      }
      %31 = andi %29, %9 : tile<i1, #linear>
      ttg.mask %31 : tile<i1, #linear> -> () {
        %40 = ttg.memdesc_index %2[%28] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        %41 = ttg.async_copy_global_to_local %pview[%blockId_x, %25], %40 {contiguity = 4 : i32, ttg.index_nonneg = array<i32: 0>, ttg.vector = {width = 4 : i32}} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        ttg.mask.return
      }
      %32 = andi %29, %10 : tile<i1, #linear>
      ttg.mask %32 : tile<i1, #linear> -> () {
        %40 = ttg.memdesc_index %2[%28] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        %41 = ttg.async_copy_global_to_local %pview[%blockId_x, %25], %40 {ttg.index_nonneg = array<i32: 0>} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        ttg.mask.return
      }
      %33 = andi %29, %13 : tile<i1, #linear>
      ttg.mask %33 : tile<i1, #linear> -> () {
        %40 = ttg.memdesc_index %11[%28] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        %41 = ttg.async_copy_global_to_local %pview_13[%25, %blockId_y], %40 {contiguity = 8 : i32, ttg.index_nonneg = array<i32: 1>, ttg.vector = {width = 8 : i32}} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        ttg.mask.return
      }
      %34 = andi %29, %18 : tile<i1, #linear>
      ttg.mask %34 : tile<i1, #linear> -> () {
        %40 = ttg.memdesc_index %11[%28] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        %41 = ttg.async_copy_global_to_local %pview_13[%25, %blockId_y], %40 {contiguity = 4 : i32, ttg.index_nonneg = array<i32: 1>, ttg.vector = {width = 4 : i32}} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        ttg.mask.return
      }
      %35 = andi %29, %19 : tile<i1, #linear>
      ttg.mask %35 : tile<i1, #linear> -> () {
        %40 = ttg.memdesc_index %11[%28] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        %41 = ttg.async_copy_global_to_local %pview_13[%25, %blockId_y], %40 {ttg.index_nonneg = array<i32: 1>} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        ttg.mask.return
      }
      %36 = ttg.async_commit_group
      %37 = ttg.memdesc_index %2[%27] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      %38 = ttg.memdesc_index %11[%27] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      %39 = mmaf %37, %38, %iterArg0 {ttg.mma = "m16n8k16.f32.f16.f16.f32"} : !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>, !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>, tile<128x128xf32, #linear1>
      continue %39 : tile<128x128xf32, #linear1>
    }
    %21 = ttg.async_wait {num = 0 : i32}
    ttg.local_dealloc %11 : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable>
    ttg.local_dealloc %2 : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable>
    %22 = ttg.convert_layout %for {allocation.offset = 0 : i32, allocation.size = 16384 : i32} : tile<128x128xf32, #linear1> -> tile<128x128xf32, #linear2>
    %23 = store_view_tko weak %22, %pview_14[%blockId_x, %blockId_y] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: 0>, split, width = 4 : i32}} : tile<128x128xf32, #linear2>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32, #linear> -> token
    return
  }
}
