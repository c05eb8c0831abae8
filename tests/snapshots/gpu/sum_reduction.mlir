#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[1], [2], [512]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]], block = []}>
cuda_tile.module @examples {
  entry @sum_reduction(%arg0: tile<ptr<f32>, #linear>, %arg1: tile<i32, #linear>, %arg2: tile<i32, #linear>, %arg3: tile<ptr<f32>, #linear>, %arg4: tile<i32, #linear>, %arg5: tile<i32, #linear>) {
    %0 = make_token : token
    %assume = assume bounded<0, ?>, %arg1 : tile<i32, #linear>
    %tview = make_tensor_view %arg0, shape = [%assume], strides = [1] : tile<i32, #linear> -> tensor_view<?xf32, strides=[1]>
    %pview = make_partition_view %tview : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32, #linear>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 attributes {ttg.index_nonneg = array<i32: 0>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32, #linear> -> tile<1024xf32, #linear1>, token
    %reduce = reduce %tile {allocation.offset = 0 : i32, allocation.size = 32 : i32} dim=0 identities=[0.000000e+00 : f32] : tile<1024xf32, #linear1> -> tile<f32, #linear> 
    (%reduce_lhs: tile<f32, #linear>, %reduce_rhs: tile<f32, #linear>) {
      %4 = addf %reduce_lhs, %reduce_rhs  : tile<f32, #linear>
      yield %4 : tile<f32, #linear>
    }
    %1 = muli %blockId_x, %arg5 : tile<i32, #linear>
    %2 = offset %arg3, %1 : tile<ptr<f32>, #linear>, tile<i32, #linear> -> tile<ptr<f32>, #linear>
    %3 = store_ptr_tko weak %2, %reduce token=%0 : tile<ptr<f32>, #linear>, tile<f32, #linear> -> token
    return
  }
}
