#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []}>
#linear2 = #ttg.linear<{register = [[0, 1], [0, 2], [16, 0], [32, 0]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>
#linear3 = #ttg.linear<{register = [[0, 1], [0, 2], [8, 0], [16, 0]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [1, 0]], warp = [[2, 0], [4, 0]], block = []}>
#linear4 = #ttg.linear<{register = [[1, 0], [2, 0], [0, 8], [0, 16]], lane = [[4, 0], [8, 0], [16, 0], [32, 0], [0, 1]], warp = [[0, 2], [0, 4]], block = []}>
#linear5 = #ttg.linear<{register = [[0, 1], [0, 2], [8, 0], [16, 0], [32, 0]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [1, 0]], warp = [[2, 0], [4, 0]], block = []}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
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
    %2 = subi %cst_0_i32, %cst_0_i32 : tile<i32, #linear>
    %3 = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32, #linear> -> tile<64x32xf16, #linear2>, token
    %4 = ttg.memdesc_index %3[%2] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
    ttg.local_store %tile, %4 : tile<64x32xf16, #linear2> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
    %5 = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
    %tile_12, %result_token_13 = load_view_tko weak %pview_10[%cst_0_i32, %blockId_y] token = %0 : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32, #linear> -> tile<32x64xf16, #linear3>, token
    %6 = permute %tile_12 [1, 0] : tile<32x64xf16, #linear3> -> tile<64x32xf16, #linear4>
    %7 = ttg.memdesc_index %5[%2] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
    ttg.local_store %6, %7 : tile<64x32xf16, #linear4> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
    %for = for %loopIdx in (%cst_0_i32 to %1#1, step %cst_1_i32) : tile<i32, #linear> iter_values(%iterArg0 = %cst_0_f32) -> (tile<64x64xf32, #linear1>) {
      ttg.barrier local
      %11 = addi %loopIdx, %cst_1_i32 : tile<i32, #linear>
      %12 = subi %loopIdx, %cst_0_i32 : tile<i32, #linear>
      %13 = andi %12, %cst_1_i32 : tile<i32, #linear>
      %14 = xori %13, %cst_1_i32 : tile<i32, #linear>
      %15 = ttg.predicate_stage %loopIdx, %1#1, %cst_1_i32 maxStage 1 stage 0 : tile<i32, #linear> -> tile<i1, #linear>
      %16 = ttg.mask %15 : tile<i1, #linear> -> (tile<64x32xf16, #linear2>) {
        %tile_14, %result_token_15 = cuda_tile.load_view_tko weak %pview[%blockId_x, %11] token = %0 : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32, #linear> -> tile<64x32xf16, #linear2>, token
        ttg.mask.return %tile_14 : tile<64x32xf16, #linear2>
      }
      %17 = ttg.mask %15 : tile<i1, #linear> -> (tile<32x64xf16, #linear3>) {
        %tile_14, %result_token_15 = cuda_tile.load_view_tko weak %pview_10[%11, %blockId_y] token = %0 : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32, #linear> -> tile<32x64xf16, #linear3>, token
        ttg.mask.return %tile_14 : tile<32x64xf16, #linear3>
      }
      %18 = ttg.memdesc_index %3[%13] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
      %19 = ttg.memdesc_index %5[%13] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
      %20 = ttg.memdesc_trans %19 {order = array<i32: 1, 0>} : !ttg.memdesc<64x32xf16, #shared1, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared2, #smem, mutable>
      %21 = mmaf %18, %20, %iterArg0 : !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>, !ttg.memdesc<32x64xf16, #shared2, #smem, mutable>, tile<64x64xf32, #linear1>
      %22 = permute %17 [1, 0] : tile<32x64xf16, #linear3> -> tile<64x32xf16, #linear4>
      %23 = ttg.memdesc_index %5[%14] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
      ttg.local_store %22, %23 : tile<64x32xf16, #linear4> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
      %24 = ttg.memdesc_index %3[%14] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
      ttg.local_store %16, %24 : tile<64x32xf16, #linear2> -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
      continue %21 : tile<64x64xf32, #linear1>
    }
    ttg.local_dealloc %5 : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
    ttg.local_dealloc %3 : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
    %8 = ttg.local_alloc %for : (tile<64x64xf32, #linear1>) -> !ttg.memdesc<64x64xf32, #shared1, #smem>
    ttg.barrier local
    %9 = ttg.local_load %8 : !ttg.memdesc<64x64xf32, #shared1, #smem> -> tile<64x64xf32, #linear5>
    ttg.local_dealloc %8 : !ttg.memdesc<64x64xf32, #shared1, #smem>
    %10 = store_view_tko weak %9, %pview_11[%blockId_x, %blockId_y] token = %0 : tile<64x64xf32, #linear5>, partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32, #linear> -> token
    return
  }
}
