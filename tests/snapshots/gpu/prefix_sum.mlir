#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[1], [2], [512]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]], block = []}>
#linear2 = #ttg.linear<{register = [], lane = [[0], [0], [0], [0], [0]], warp = [[0], [0]], block = []}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
cuda_tile.module @examples {
  entry @prefix_sum(%arg0: tile<ptr<f32>, #linear>, %arg1: tile<i32, #linear>, %arg2: tile<i32, #linear>, %arg3: tile<ptr<f32>, #linear>, %arg4: tile<i32, #linear>, %arg5: tile<i32, #linear>) {
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32, #linear>
    %cst_1023_i32 = constant <i32: 1023> : tile<i32, #linear>
    %cst_1_i32 = constant <i32: 1> : tile<i32, #linear>
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %assume = assume bounded<0, ?>, %arg1 : tile<i32, #linear>
    %tview = make_tensor_view %arg0, shape = [%assume], strides = [1] : tile<i32, #linear> -> tensor_view<?xf32, strides=[1]>
    %assume_0 = assume bounded<0, ?>, %arg4 : tile<i32, #linear>
    %tview_1 = make_tensor_view %arg3, shape = [%assume_0], strides = [1] : tile<i32, #linear> -> tensor_view<?xf32, strides=[1]>
    %pview = make_partition_view %tview : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %pview_2 = make_partition_view %tview_1 : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %1 = get_index_space_shape %pview : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>> -> tile<i32, #linear>
    %for = for %loopIdx in (%cst_0_i32 to %1, step %cst_1_i32) : tile<i32, #linear> iter_values(%iterArg0 = %cst_0_f32) -> (tile<f32, #linear>) {
      %tile, %result_token = load_view_tko weak %pview[%loopIdx] token = %0 attributes {ttg.index_nonneg = array<i32: 0>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32, #linear> -> tile<1024xf32, #linear1>, token
      %2 = scan %tile {allocation.offset = 0 : i32, allocation.size = 4096 : i32} dim=0 reverse=false identities=[0.000000e+00 : f32] : tile<1024xf32, #linear1> -> tile<1024xf32, #linear1> 
      (%arg6: tile<f32, #linear>, %arg7: tile<f32, #linear>) {
        %8 = addf %arg6, %arg7  : tile<f32, #linear>
        yield %8 : tile<f32, #linear>
      }
      %reshape = reshape %iterArg0 : tile<f32, #linear> -> tile<1xf32, #linear2>
      %bcast = broadcast %reshape : tile<1xf32, #linear2> -> tile<1024xf32, #linear1>
      %3 = addf %2, %bcast  : tile<1024xf32, #linear1>
      %4 = store_view_tko weak %3, %pview_2[%loopIdx] token = %0 attributes {ttg.index_nonneg = array<i32: 0>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : tile<1024xf32, #linear1>, partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32, #linear> -> token
      %5 = ttg.local_alloc %3 {allocation.offset = 0 : i32} : (tile<1024xf32, #linear1>) -> !ttg.memdesc<1024xf32, #shared, #smem>
      ttg.barrier local
      %6 = ttg.memdesc_subslice %5 [1023] : !ttg.memdesc<1024xf32, #shared, #smem> -> !ttg.memdesc<1xf32, #shared, #smem>
      %7 = ttg.local_load %6 : !ttg.memdesc<1xf32, #shared, #smem> -> tile<1xf32, #linear2>
      ttg.local_dealloc %5 : !ttg.memdesc<1024xf32, #shared, #smem>
      %reshape_3 = reshape %7 : tile<1xf32, #linear2> -> tile<f32, #linear>
      continue %reshape_3 : tile<f32, #linear>
    }
    return
  }
}
