#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[0, 1], [0, 2], [0, 512]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], warp = [[0, 128], [0, 256]], block = []}>
#linear2 = #ttg.linear<{register = [], lane = [[0], [0], [0], [0], [0]], warp = [[0], [0]], block = []}>
#linear3 = #ttg.linear<{register = [], lane = [[0, 0], [0, 0], [0, 0], [0, 0], [0, 0]], warp = [[0, 0], [0, 0]], block = []}>
cuda_tile.module @examples {
  entry @row_softmax(%arg0: tile<ptr<f32>, #linear>, %arg1: tile<i32, #linear>, %arg2: tile<i32, #linear>, %arg3: tile<i32, #linear>, %arg4: tile<i32, #linear>, %arg5: tile<ptr<f32>, #linear>, %arg6: tile<i32, #linear>, %arg7: tile<i32, #linear>, %arg8: tile<i32, #linear>, %arg9: tile<i32, #linear>) {
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
    %pview = make_partition_view %tview : partition_view<tile=(1x1024), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>>
    %pview_6 = make_partition_view %tview_5 : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32, #linear>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1, 0>, split, width = 4 : i32}} : partition_view<tile=(1x1024), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32, #linear> -> tile<1x1024xf32, #linear1>, token
    %reduce = reduce %tile {allocation.offset = 0 : i32, allocation.size = 32 : i32} dim=1 identities=[0xFF800000 : f32] : tile<1x1024xf32, #linear1> -> tile<1xf32, #linear2> 
    (%reduce_lhs: tile<f32, #linear>, %reduce_rhs: tile<f32, #linear>) {
      %5 = maxf %reduce_lhs, %reduce_rhs : tile<f32, #linear>
      yield %5 : tile<f32, #linear>
    }
    %reshape = reshape %reduce : tile<1xf32, #linear2> -> tile<1x1xf32, #linear3>
    %bcast = broadcast %reshape : tile<1x1xf32, #linear3> -> tile<1x1024xf32, #linear1>
    %1 = subf %tile, %bcast  : tile<1x1024xf32, #linear1>
    %2 = exp %1  : tile<1x1024xf32, #linear1>
    %reduce_7 = reduce %2 {allocation.offset = 0 : i32, allocation.size = 32 : i32} dim=1 identities=[0.000000e+00 : f32] : tile<1x1024xf32, #linear1> -> tile<1xf32, #linear2> 
    (%reduce_lhs: tile<f32, #linear>, %reduce_rhs: tile<f32, #linear>) {
      %5 = addf %reduce_lhs, %reduce_rhs  : tile<f32, #linear>
      yield %5 : tile<f32, #linear>
    }
    %reshape_8 = reshape %reduce_7 : tile<1xf32, #linear2> -> tile<1x1xf32, #linear3>
    %bcast_9 = broadcast %reshape_8 : tile<1x1xf32, #linear3> -> tile<1x1024xf32, #linear1>
    %3 = divf %2, %bcast_9  : tile<1x1024xf32, #linear1>
    %4 = store_view_tko weak %3, %pview_6[%blockId_x, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1, 0>, split, width = 4 : i32}} : tile<1x1024xf32, #linear1>, partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32, #linear> -> token
    return
  }
}
