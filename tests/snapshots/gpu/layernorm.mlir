#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[0, 1], [0, 2], [0, 512]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], warp = [[0, 128], [0, 256]], block = []}>
#linear2 = #ttg.linear<{register = [], lane = [[0], [0], [0], [0], [0]], warp = [[0], [0]], block = []}>
#linear3 = #ttg.linear<{register = [], lane = [[0, 0], [0, 0], [0, 0], [0, 0], [0, 0]], warp = [[0, 0], [0, 0]], block = []}>
#linear4 = #ttg.linear<{register = [[1], [2], [512]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]], block = []}>
cuda_tile.module @examples {
  entry @layernorm(%arg0: tile<ptr<f32>, #linear>, %arg1: tile<i32, #linear>, %arg2: tile<i32, #linear>, %arg3: tile<i32, #linear>, %arg4: tile<i32, #linear>, %arg5: tile<ptr<f32>, #linear>, %arg6: tile<i32, #linear>, %arg7: tile<i32, #linear>, %arg8: tile<i32, #linear>, %arg9: tile<i32, #linear>, %arg10: tile<ptr<f32>, #linear>, %arg11: tile<i32, #linear>, %arg12: tile<i32, #linear>, %arg13: tile<ptr<f32>, #linear>, %arg14: tile<i32, #linear>, %arg15: tile<i32, #linear>, %arg16: tile<f32, #linear>) {
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<1x1024xf32, #linear1>
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %assume = assume bounded<0, ?>, %arg1 : tile<i32, #linear>
    %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32, #linear>
    %assume_1 = assume bounded<0, ?>, %arg3 : tile<i32, #linear>
    %tview = make_tensor_view %arg0, shape = [%assume, %assume_0], strides = [%assume_1, 1] : tile<i32, #linear> -> tensor_view<?x?xf32, strides=[?,1]>
    %assume_2 = assume bounded<0, ?>, %arg6 : tile<i32, #linear>
    %assume_3 = assume bounded<0, ?>, %arg7 : tile<i32, #linear>
    %assume_4 = assume bounded<0, ?>, %arg8 : tile<i32, #linear>
    %tview_5 = make_tensor_view %arg5, shape = [%assume_2, %assume_3], strides = [%assume_4, 1] : tile<i32, #linear> -> tensor_view<?x?xf32, strides=[?,1]>
    %assume_6 = assume bounded<0, ?>, %arg11 : tile<i32, #linear>
    %tview_7 = make_tensor_view %arg10, shape = [%assume_6], strides = [1] : tile<i32, #linear> -> tensor_view<?xf32, strides=[1]>
    %assume_8 = assume bounded<0, ?>, %arg14 : tile<i32, #linear>
    %tview_9 = make_tensor_view %arg13, shape = [%assume_8], strides = [1] : tile<i32, #linear> -> tensor_view<?xf32, strides=[1]>
    %pview = make_partition_view %tview : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %pview_10 = make_partition_view %tview_5 : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>
    %pview_11 = make_partition_view %tview_7 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %pview_12 = make_partition_view %tview_9 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32, #linear>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1, 0>, split, width = 4 : i32}} : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32, #linear> -> tile<1x1024xf32, #linear1>, token
    %1 = itof %assume_0 signed  : tile<i32, #linear> -> tile<f32, #linear>
    %reshape = reshape %1 : tile<f32, #linear> -> tile<1xf32, #linear2>
    %reduce = reduce %tile {allocation.offset = 0 : i32, allocation.size = 32 : i32} dim=1 identities=[0.000000e+00 : f32] : tile<1x1024xf32, #linear1> -> tile<1xf32, #linear2> 
    (%reduce_lhs: tile<f32, #linear>, %reduce_rhs: tile<f32, #linear>) {
      %14 = addf %reduce_lhs, %reduce_rhs  : tile<f32, #linear>
      yield %14 : tile<f32, #linear>
    }
    %2 = divf %reduce, %reshape  : tile<1xf32, #linear2>
    %reshape_13 = reshape %2 : tile<1xf32, #linear2> -> tile<1x1xf32, #linear3>
    %bcast = broadcast %reshape_13 : tile<1x1xf32, #linear3> -> tile<1x1024xf32, #linear1>
    %3 = iota : tile<1024xi32, #linear4>
    %reshape_14 = reshape %3 : tile<1024xi32, #linear4> -> tile<1x1024xi32, #linear1>
    %reshape_15 = reshape %assume_0 : tile<i32, #linear> -> tile<1x1xi32, #linear3>
    %bcast_16 = broadcast %reshape_15 : tile<1x1xi32, #linear3> -> tile<1x1024xi32, #linear1>
    %4 = cmpi less_than %reshape_14, %bcast_16, signed : tile<1x1024xi32, #linear1> -> tile<1x1024xi1, #linear1>
    %5 = subf %tile, %bcast  : tile<1x1024xf32, #linear1>
    %6 = select %4, %5, %cst_0_f32 : tile<1x1024xi1, #linear1>, tile<1x1024xf32, #linear1>
    %7 = mulf %6, %6  : tile<1x1024xf32, #linear1>
    %reduce_17 = reduce %7 {allocation.offset = 0 : i32, allocation.size = 32 : i32} dim=1 identities=[0.000000e+00 : f32] : tile<1x1024xf32, #linear1> -> tile<1xf32, #linear2> 
    (%reduce_lhs: tile<f32, #linear>, %reduce_rhs: tile<f32, #linear>) {
      %14 = addf %reduce_lhs, %reduce_rhs  : tile<f32, #linear>
      yield %14 : tile<f32, #linear>
    }
    %8 = divf %reduce_17, %reshape  : tile<1xf32, #linear2>
    %reshape_18 = reshape %arg16 : tile<f32, #linear> -> tile<1xf32, #linear2>
    %9 = addf %8, %reshape_18  : tile<1xf32, #linear2>
    %10 = rsqrt %9 : tile<1xf32, #linear2>
    %reshape_19 = reshape %10 : tile<1xf32, #linear2> -> tile<1x1xf32, #linear3>
    %bcast_20 = broadcast %reshape_19 : tile<1x1xf32, #linear3> -> tile<1x1024xf32, #linear1>
    %11 = mulf %6, %bcast_20  : tile<1x1024xf32, #linear1>
    %tile_21, %result_token_22 = load_view_tko weak %pview_11[%cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32, #linear> -> tile<1024xf32, #linear4>, token
    %tile_23, %result_token_24 = load_view_tko weak %pview_12[%cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32, #linear> -> tile<1024xf32, #linear4>, token
    %reshape_25 = reshape %tile_21 : tile<1024xf32, #linear4> -> tile<1x1024xf32, #linear1>
    %reshape_26 = reshape %tile_23 : tile<1024xf32, #linear4> -> tile<1x1024xf32, #linear1>
    %12 = fma %11, %reshape_25, %reshape_26  : tile<1x1024xf32, #linear1>
    %13 = store_view_tko weak %12, %pview_10[%blockId_x, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1, 0>, split, width = 4 : i32}} : tile<1x1024xf32, #linear1>, partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32, #linear> -> token
    return
  }
}
