#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []}>
#linear2 = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [16, 0]], lane = [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>
#linear3 = #ttg.linear<{register = [[0, 1], [0, 2], [8, 0], [16, 0], [32, 0]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [1, 0]], warp = [[2, 0], [4, 0]], block = []}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [2, 1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
#shared3 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared4 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
cuda_tile.module @examples {
  entry @matmul(%arg0: tile<ptr<f16>, #linear>, %arg1: tile<i32, #linear>, %arg2: tile<i32, #linear>, %arg3: tile<i32, #linear>, %arg4: tile<i32, #linear>, %arg5: tile<ptr<f16>, #linear>, %arg6: tile<i32, #linear>, %arg7: tile<i32, #linear>, %arg8: tile<i32, #linear>, %arg9: tile<i32, #linear>, %arg10: tile<ptr<f32>, #linear>, %arg11: tile<i32, #linear>, %arg12: tile<i32, #linear>, %arg13: tile<i32, #linear>, %arg14: tile<i32, #linear>) {
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<64x64xf32, #linear1>
    %cst_1_i32 = constant <i32: 1> : tile<i32, #linear>
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %assume = assume bounded<0, ?>, %arg1 : tile<i32, #linear>
    %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32, #linear>
    %assume_1 = assume bounded<0, ?>, %arg3 : tile<i32, #linear>
    %tview = make_tensor_view %arg0, shape = [%assume, %assume_0], strides = [%assume_1, 1] : tile<i32, #linear> -> tensor_view<?x?xf16, strides=[?,1]>
    %assume_2 = assume bounded<0, ?>, %arg6 : tile<i32, #linear>
    %assume_3 = assume bounded<0, ?>, %arg7 : tile<i32, #linear>
    %assume_4 = assume bounded<0, ?>, %arg8 : tile<i32, #linear>
    %tview_5 = make_tensor_view %arg5, shape = [%assume_2, %assume_3], strides = [%assume_4, 1] : tile<i32, #linear> -> tensor_view<?x?xf16, strides=[?,1]>
    %assume_6 = assume bounded<0, ?>, %arg11 : tile<i32, #linear>
    %assume_7 = assume bounded<0, ?>, %arg12 : tile<i32, #linear>
    %assume_8 = assume bounded<0, ?>, %arg13 : tile<i32, #linear>
    %tview_9 = make_tensor_view %arg10, shape = [%assume_6, %assume_7], strides = [%assume_8, 1] : tile<i32, #linear> -> tensor_view<?x?xf32, strides=[?,1]>
    %pview = make_partition_view %tview : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %pview_10 = make_partition_view %tview_5 : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %pview_11 = make_partition_view %tview_9 : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32, #linear>
    %1:2 = get_index_space_shape %pview : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32, #linear>
    %cst_0_i32_12 = constant <i32: 0> : tile<i32, #linear>
    %cst_1_i32_13 = constant <i32: 1> : tile<i32, #linear>
    %cst_2_i32 = constant <i32: 2> : tile<i32, #linear>
    %cst_3_i32 = constant <i32: 3> : tile<i32, #linear>
    %2 = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<4x64x32xf16, #shared, #smem, mutable>
    %3 = ttg.predicate_stage %cst_0_i32, %1#1, %cst_1_i32 maxStage 3 stage 3 : tile<i32, #linear> -> tile<i1, #linear>
    ttg.mask %3 : tile<i1, #linear> -> () {
      %17 = ttg.memdesc_index %2[%cst_0_i32_12] : !ttg.memdesc<4x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
      %18 = ttg.async_copy_global_to_local %pview[%blockId_x, %cst_0_i32], %17 {ttg.index_nonneg = array<i32: 0, 1>} : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
      ttg.mask.return
    }
    %4 = ttg.async_commit_group
    %5 = addi %cst_0_i32, %cst_1_i32_13 : tile<i32, #linear>
    %6 = ttg.predicate_stage %cst_0_i32, %1#1, %cst_1_i32 maxStage 3 stage 2 : tile<i32, #linear> -> tile<i1, #linear>
    ttg.mask %6 : tile<i1, #linear> -> () {
      %17 = ttg.memdesc_index %2[%cst_1_i32_13] : !ttg.memdesc<4x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
      %18 = ttg.async_copy_global_to_local %pview[%blockId_x, %5], %17 {ttg.index_nonneg = array<i32: 0, 1>} : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
      ttg.mask.return
    }
    %7 = ttg.async_commit_group
    %8 = addi %cst_0_i32, %cst_2_i32 : tile<i32, #linear>
    %9 = ttg.predicate_stage %cst_0_i32, %1#1, %cst_1_i32 maxStage 3 stage 1 : tile<i32, #linear> -> tile<i1, #linear>
    ttg.mask %9 : tile<i1, #linear> -> () {
      %17 = ttg.memdesc_index %2[%cst_2_i32] : !ttg.memdesc<4x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
      %18 = ttg.async_copy_global_to_local %pview[%blockId_x, %8], %17 {ttg.index_nonneg = array<i32: 0, 1>} : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
      ttg.mask.return
    }
    %10 = ttg.async_commit_group
    %11 = ttg.local_alloc {allocation.offset = 16384 : i32} : () -> !ttg.memdesc<2x32x64xf16, #shared2, #smem, mutable>
    %tile, %result_token = load_view_tko weak %pview_10[%cst_0_i32, %blockId_y] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1, 0>, split, width = 8 : i32}} : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32, #linear> -> tile<32x64xf16, #linear2>, token
    %12 = ttg.memdesc_index %11[%cst_0_i32_12] : !ttg.memdesc<2x32x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared3, #smem, mutable>
    ttg.local_store %tile, %12 : tile<32x64xf16, #linear2> -> !ttg.memdesc<32x64xf16, #shared3, #smem, mutable>
    %for = for %loopIdx in (%cst_0_i32 to %1#1, step %cst_1_i32) : tile<i32, #linear> iter_values(%iterArg0 = %cst_0_f32) -> (tile<64x64xf32, #linear1>) {
      %17 = ttg.async_wait {num = 2 : i32}
      ttg.barrier local
      %18 = addi %loopIdx, %cst_1_i32 : tile<i32, #linear>
      %19 = subi %loopIdx, %cst_0_i32 : tile<i32, #linear>
      %20 = andi %19, %cst_1_i32 : tile<i32, #linear>
      %21 = xori %20, %cst_1_i32 : tile<i32, #linear>
      %22 = addi %19, %cst_3_i32 : tile<i32, #linear>
      %23 = addi %loopIdx, %cst_3_i32 : tile<i32, #linear>
      %24 = andi %19, %cst_3_i32 : tile<i32, #linear>
      %25 = andi %22, %cst_3_i32 : tile<i32, #linear>
      %26 = ttg.predicate_stage %loopIdx, %1#1, %cst_1_i32 maxStage 3 stage 2 : tile<i32, #linear> -> tile<i1, #linear>
      %27 = ttg.predicate_stage %loopIdx, %1#1, %cst_1_i32 maxStage 3 stage 0 : tile<i32, #linear> -> tile<i1, #linear>
      ttg.mask %27 : tile<i1, #linear> -> () {
        %34 = ttg.memdesc_index %2[%25] : !ttg.memdesc<4x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
        %35 = ttg.async_copy_global_to_local %pview[%blockId_x, %23], %34 {ttg.index_nonneg = array<i32: 0>} : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
        ttg.mask.return
      }
      %28 = ttg.async_commit_group
      %29 = ttg.mask %26 : tile<i1, #linear> -> (tile<32x64xf16, #linear2>) {
        %tile_14, %result_token_15 = cuda_tile.load_view_tko weak %pview_10[%18, %blockId_y] token = %0 attributes {ttg.index_nonneg = array<i32: 1>, ttg.vector = {checks = array<i32: -1, 0>, split, width = 8 : i32}} : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32, #linear> -> tile<32x64xf16, #linear2>, token
        ttg.mask.return %tile_14 : tile<32x64xf16, #linear2>
      }
      %30 = ttg.memdesc_index %2[%24] : !ttg.memdesc<4x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
      %31 = ttg.memdesc_index %11[%20] : !ttg.memdesc<2x32x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared3, #smem, mutable>
      %32 = mmaf %30, %31, %iterArg0 {ttg.mma = "m16n8k16.f32.f16.f16.f32"} : !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>, !ttg.memdesc<32x64xf16, #shared3, #smem, mutable>, tile<64x64xf32, #linear1>
      %33 = ttg.memdesc_index %11[%21] : !ttg.memdesc<2x32x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared3, #smem, mutable>
      ttg.local_store %29, %33 : tile<32x64xf16, #linear2> -> !ttg.memdesc<32x64xf16, #shared3, #smem, mutable>
      continue %32 : tile<64x64xf32, #linear1>
    }
    %13 = ttg.async_wait {num = 0 : i32}
    ttg.local_dealloc %11 : !ttg.memdesc<2x32x64xf16, #shared2, #smem, mutable>
    ttg.local_dealloc %2 : !ttg.memdesc<4x64x32xf16, #shared, #smem, mutable>
    %14 = ttg.local_alloc %for {allocation.offset = 0 : i32} : (tile<64x64xf32, #linear1>) -> !ttg.memdesc<64x64xf32, #shared4, #smem>
    ttg.barrier local
    %15 = ttg.local_load %14 : !ttg.memdesc<64x64xf32, #shared4, #smem> -> tile<64x64xf32, #linear3>
    ttg.local_dealloc %14 : !ttg.memdesc<64x64xf32, #shared4, #smem>
    %16 = store_view_tko weak %15, %pview_11[%blockId_x, %blockId_y] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1, 0>, split, width = 4 : i32}} : tile<64x64xf32, #linear3>, partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32, #linear> -> token
    return
  }
}
