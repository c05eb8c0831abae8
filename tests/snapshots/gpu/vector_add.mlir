#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[1], [2], [512]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]], block = []}>
cuda_tile.module @examples {
  entry @vector_add(%arg0: tile<ptr<f32>, #linear>, %arg1: tile<i32, #linear>, %arg2: tile<i32, #linear>, %arg3: tile<ptr<f32>, #linear>, %arg4: tile<i32, #linear>, %arg5: tile<i32, #linear>, %arg6: tile<ptr<f32>, #linear>, %arg7: tile<i32, #linear>, %arg8: tile<i32, #linear>) {
    %0 = make_token : token
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>, #linear>
    %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f32>, #linear>
    %assume_1 = assume div_by<16>, %arg6 : tile<ptr<f32>, #linear>
    %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32, #linear>
    %tview = make_tensor_view %assume, shape = [%assume_2], strides = [1] : tile<i32, #linear> -> tensor_view<?xf32, strides=[1]>
    %assume_3 = assume bounded<0, ?>, %arg4 : tile<i32, #linear>
    %tview_4 = make_tensor_view %assume_0, shape = [%assume_3], strides = [1] : tile<i32, #linear> -> tensor_view<?xf32, strides=[1]>
    %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32, #linear>
    %tview_6 = make_tensor_view %assume_1, shape = [%assume_5], strides = [1] : tile<i32, #linear> -> tensor_view<?xf32, strides=[1]>
    %pview = make_partition_view %tview : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %pview_7 = make_partition_view %tview_4 : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %pview_8 = make_partition_view %tview_6 : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32, #linear>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 attributes {ttg.index_nonneg = array<i32: 0>, ttg.vector = {split, width = 4 : i32}} : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32, #linear> -> tile<1024xf32, #linear1>, token
    %tile_9, %result_token_10 = load_view_tko weak %pview_7[%blockId_x] token = %0 attributes {ttg.index_nonneg = array<i32: 0>, ttg.vector = {split, width = 4 : i32}} : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32, #linear> -> tile<1024xf32, #linear1>, token
    %1 = addf %tile, %tile_9  : tile<1024xf32, #linear1>
    %2 = store_view_tko weak %1, %pview_8[%blockId_x] token = %0 attributes {ttg.index_nonneg = array<i32: 0>, ttg.vector = {split, width = 4 : i32}} : tile<1024xf32, #linear1>, partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32, #linear> -> token
    return
  }
}
