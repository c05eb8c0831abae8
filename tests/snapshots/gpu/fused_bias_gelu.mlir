#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[0, 1], [0, 2], [4, 0], [8, 0]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], warp = [[1, 0], [2, 0]], block = []}>
#linear2 = #ttg.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[32], [64]], block = []}>
#linear3 = #ttg.linear<{register = [], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[0, 32], [0, 64]], block = []}>
#linear4 = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], warp = [[0, 0], [0, 0]], block = []}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
cuda_tile.module @examples {
  entry @fused_bias_gelu(%arg0: tile<ptr<f32>, #linear>, %arg1: tile<i32, #linear>, %arg2: tile<i32, #linear>, %arg3: tile<i32, #linear>, %arg4: tile<i32, #linear>, %arg5: tile<ptr<f32>, #linear>, %arg6: tile<i32, #linear>, %arg7: tile<i32, #linear>, %arg8: tile<i32, #linear>, %arg9: tile<i32, #linear>, %arg10: tile<ptr<f32>, #linear>, %arg11: tile<i32, #linear>, %arg12: tile<i32, #linear>) {
    %cst_f32 = constant <f32: 5.000000e-01> : tile<16x128xf32, #linear1>
    %cst_1_f32 = constant <f32: 1.000000e+00> : tile<16x128xf32, #linear1>
    %cst_f32_0 = constant <f32: 0.797884583> : tile<16x128xf32, #linear1>
    %cst_f32_1 = constant <f32: 4.471500e-02> : tile<16x128xf32, #linear1>
    %0 = make_token : token
    %assume = assume bounded<0, ?>, %arg1 : tile<i32, #linear>
    %assume_2 = assume bounded<0, ?>, %arg2 : tile<i32, #linear>
    %assume_3 = assume bounded<0, ?>, %arg3 : tile<i32, #linear>
    %tview = make_tensor_view %arg0, shape = [%assume, %assume_2], strides = [%assume_3, 1] : tile<i32, #linear> -> tensor_view<?x?xf32, strides=[?,1]>
    %assume_4 = assume bounded<0, ?>, %arg6 : tile<i32, #linear>
    %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32, #linear>
    %assume_6 = assume bounded<0, ?>, %arg8 : tile<i32, #linear>
    %tview_7 = make_tensor_view %arg5, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32, #linear> -> tensor_view<?x?xf32, strides=[?,1]>
    %assume_8 = assume bounded<0, ?>, %arg11 : tile<i32, #linear>
    %tview_9 = make_tensor_view %arg10, shape = [%assume_8], strides = [1] : tile<i32, #linear> -> tensor_view<?xf32, strides=[1]>
    %pview = make_partition_view %tview : partition_view<tile=(16x128), tensor_view<?x?xf32, strides=[?,1]>>
    %pview_10 = make_partition_view %tview_7 : partition_view<tile=(16x128), tensor_view<?x?xf32, strides=[?,1]>>
    %pview_11 = make_partition_view %tview_9 : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32, #linear>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y] token = %0 : partition_view<tile=(16x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32, #linear> -> tile<16x128xf32, #linear1>, token
    %tile_12, %result_token_13 = load_view_tko weak %pview_11[%blockId_y] token = %0 : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32, #linear> -> tile<128xf32, #linear2>, token
    %reshape = reshape %tile_12 : tile<128xf32, #linear2> -> tile<1x128xf32, #linear3>
    %1 = ttg.local_alloc %reshape : (tile<1x128xf32, #linear3>) -> !ttg.memdesc<1x128xf32, #shared, #smem>
    ttg.barrier local
    %2 = ttg.local_load %1 : !ttg.memdesc<1x128xf32, #shared, #smem> -> tile<1x128xf32, #linear4>
    ttg.local_dealloc %1 : !ttg.memdesc<1x128xf32, #shared, #smem>
    %bcast = broadcast %2 : tile<1x128xf32, #linear4> -> tile<16x128xf32, #linear1>
    %3 = addf %tile, %bcast  : tile<16x128xf32, #linear1>
    %4 = mulf %3, %3  : tile<16x128xf32, #linear1>
    %5 = mulf %4, %3  : tile<16x128xf32, #linear1>
    %6 = fma %cst_f32_1, %5, %3  : tile<16x128xf32, #linear1>
    %7 = mulf %cst_f32_0, %6  : tile<16x128xf32, #linear1>
    %8 = tanh %7 : tile<16x128xf32, #linear1>
    %9 = addf %cst_1_f32, %8  : tile<16x128xf32, #linear1>
    %10 = mulf %cst_f32, %3  : tile<16x128xf32, #linear1>
    %11 = mulf %10, %9  : tile<16x128xf32, #linear1>
    %12 = store_view_tko weak %11, %pview_10[%blockId_x, %blockId_y] token = %0 : tile<16x128xf32, #linear1>, partition_view<tile=(16x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32, #linear> -> token
    return
  }
}
