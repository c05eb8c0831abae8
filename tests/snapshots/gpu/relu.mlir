#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[1], [2], [512]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]], block = []}>
cuda_tile.module @examples {
  entry @relu(%arg0: tile<ptr<f32>, #linear>, %arg1: tile<i32, #linear>, %arg2: tile<i32, #linear>, %arg3: tile<ptr<f32>, #linear>, %arg4: tile<i32, #linear>, %arg5: tile<i32, #linear>) {
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<1024xf32, #linear1>
    %0 = make_token : token
    %assume = assume bounded<0, ?>, %arg1 : tile<i32, #linear>
    %tview = make_tensor_view %arg0, shape = [%assume], strides = [1] : tile<i32, #linear> -> tensor_view<?xf32, strides=[1]>
    %assume_0 = assume bounded<0, ?>, %arg4 : tile<i32, #linear>
    %tview_1 = make_tensor_view %arg3, shape = [%assume_0], strides = [1] : tile<i32, #linear> -> tensor_view<?xf32, strides=[1]>
    %pview = make_partition_view %tview : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %pview_2 = make_partition_view %tview_1 : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32, #linear>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 attributes {ttg.index_nonneg = array<i32: 0>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32, #linear> -> tile<1024xf32, #linear1>, token
    %1 = maxf %tile, %cst_0_f32 : tile<1024xf32, #linear1>
    %2 = store_view_tko weak %1, %pview_2[%blockId_x] token = %0 attributes {ttg.index_nonneg = array<i32: 0>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : tile<1024xf32, #linear1>, partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32, #linear> -> token
    return
  }
}
