#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[0, 1], [0, 2], [16, 0], [32, 0]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>
#linear2 = #ttg.linear<{register = [[1, 0], [2, 0], [0, 16], [0, 32]], lane = [[4, 0], [8, 0], [16, 0], [0, 1], [0, 2]], warp = [[0, 4], [0, 8]], block = []}>
#linear3 = #ttg.linear<{register = [[0, 1], [0, 2], [8, 0], [16, 0]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [1, 0]], warp = [[2, 0], [4, 0]], block = []}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
cuda_tile.module @examples {
  entry @transpose(%arg0: tile<ptr<f32>, #linear>, %arg1: tile<i32, #linear>, %arg2: tile<i32, #linear>, %arg3: tile<i32, #linear>, %arg4: tile<i32, #linear>, %arg5: tile<ptr<f32>, #linear>, %arg6: tile<i32, #linear>, %arg7: tile<i32, #linear>, %arg8: tile<i32, #linear>, %arg9: tile<i32, #linear>) {
    %0 = make_token : token
    %assume = assume bounded<0, ?>, %arg1 : tile<i32, #linear>
    %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32, #linear>
    %assume_1 = assume bounded<0, ?>, %arg3 : tile<i32, #linear>
    %tview = make_tensor_view %arg0, shape = [%assume, %assume_0], strides = [%assume_1, 1] : tile<i32, #linear> -> tensor_view<?x?xf32, strides=[?,1]>
    %assume_2 = assume bounded<0, ?>, %arg6 : tile<i32, #linear>
    %assume_3 = assume bounded<0, ?>, %arg7 : tile<i32, #linear>
    %assume_4 = assume bounded<0, ?>, %arg8 : tile<i32, #linear>
    %tview_5 = make_tensor_view %arg5, shape = [%assume_2, %assume_3], strides = [%assume_4, 1] : tile<i32, #linear> -> tensor_view<?x?xf32, strides=[?,1]>
    %pview = make_partition_view %tview : partition_view<tile=(64x32), tensor_view<?x?xf32, strides=[?,1]>>
    %pview_6 = make_partition_view %tview_5 : partition_view<tile=(32x64), tensor_view<?x?xf32, strides=[?,1]>>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32, #linear>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1, 0>, split, width = 4 : i32}} : partition_view<tile=(64x32), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32, #linear> -> tile<64x32xf32, #linear1>, token
    %1 = permute %tile [1, 0] : tile<64x32xf32, #linear1> -> tile<32x64xf32, #linear2>
    %2 = ttg.local_alloc %1 {allocation.offset = 0 : i32} : (tile<32x64xf32, #linear2>) -> !ttg.memdesc<32x64xf32, #shared, #smem>
    ttg.barrier local
    %3 = ttg.local_load %2 : !ttg.memdesc<32x64xf32, #shared, #smem> -> tile<32x64xf32, #linear3>
    ttg.local_dealloc %2 : !ttg.memdesc<32x64xf32, #shared, #smem>
    %4 = store_view_tko weak %3, %pview_6[%blockId_y, %blockId_x] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1, 0>, split, width = 4 : i32}} : tile<32x64xf32, #linear3>, partition_view<tile=(32x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32, #linear> -> token
    return
  }
}
