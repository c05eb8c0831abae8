#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[0, 1], [0, 2], [4, 0], [8, 0]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], warp = [[1, 0], [2, 0]], block = []}>
#linear2 = #ttg.linear<{register = [[1], [2]], lane = [[4], [8], [16], [32], [64]], warp = [[0], [0]], block = []}>
#linear3 = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], warp = [[0, 0], [0, 0]], block = []}>
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
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1, 0>, split, width = 4 : i32}} : partition_view<tile=(16x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32, #linear> -> tile<16x128xf32, #linear1>, token
    %tile_12, %result_token_13 = load_view_tko weak %pview_11[%blockId_y] token = %0 attributes {ttg.index_nonneg = array<i32: 0>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32, #linear> -> tile<128xf32, #linear2>, token
    %reshape = reshape %tile_12 : tile<128xf32, #linear2> -> tile<1x128xf32, #linear3>
    %bcast = broadcast %reshape : tile<1x128xf32, #linear3> -> tile<16x128xf32, #linear1>
    %1 = addf %tile, %bcast  : tile<16x128xf32, #linear1>
    %2 = mulf %1, %1  : tile<16x128xf32, #linear1>
    %3 = mulf %2, %1  : tile<16x128xf32, #linear1>
    %4 = fma %cst_f32_1, %3, %1  : tile<16x128xf32, #linear1>
    %5 = mulf %cst_f32_0, %4  : tile<16x128xf32, #linear1>
    %6 = tanh %5  : tile<16x128xf32, #linear1>
    %7 = addf %cst_1_f32, %6  : tile<16x128xf32, #linear1>
    %8 = mulf %cst_f32, %1  : tile<16x128xf32, #linear1>
    %9 = mulf %8, %7  : tile<16x128xf32, #linear1>
    %10 = store_view_tko weak %9, %pview_10[%blockId_x, %blockId_y] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1, 0>, split, width = 4 : i32}} : tile<16x128xf32, #linear1>, partition_view<tile=(16x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32, #linear> -> token
    return
  }
}
