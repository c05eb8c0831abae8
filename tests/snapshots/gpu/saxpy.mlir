#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[1], [2], [512]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]], block = []}>
#linear2 = #ttg.linear<{register = [], lane = [[0], [0], [0], [0], [0]], warp = [[0], [0]], block = []}>
cuda_tile.module @examples {
  entry @saxpy(%arg0: tile<f32, #linear>, %arg1: tile<ptr<f32>, #linear>, %arg2: tile<i32, #linear>, %arg3: tile<i32, #linear>, %arg4: tile<ptr<f32>, #linear>, %arg5: tile<i32, #linear>, %arg6: tile<i32, #linear>) {
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<1024xf32, #linear1>
    %cst_1024_i32 = constant <i32: 1024> : tile<i32, #linear>
    %0 = make_token : token
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32, #linear>
    %1 = muli %blockId_x, %cst_1024_i32 : tile<i32, #linear>
    %reshape = reshape %1 : tile<i32, #linear> -> tile<1xi32, #linear2>
    %bcast = broadcast %reshape : tile<1xi32, #linear2> -> tile<1024xi32, #linear1>
    %2 = iota : tile<1024xi32, #linear1>
    %3 = addi %bcast, %2 : tile<1024xi32, #linear1>
    %assume = assume bounded<0, ?>, %arg2 : tile<i32, #linear>
    %reshape_0 = reshape %assume : tile<i32, #linear> -> tile<1xi32, #linear2>
    %bcast_1 = broadcast %reshape_0 : tile<1xi32, #linear2> -> tile<1024xi32, #linear1>
    %4 = cmpi less_than %3, %bcast_1, signed : tile<1024xi32, #linear1> -> tile<1024xi1, #linear1>
    %5 = exti %3 signed : tile<1024xi32, #linear1> -> tile<1024xi64, #linear1>
    %6 = exti %arg3 signed : tile<i32, #linear> -> tile<i64, #linear>
    %reshape_2 = reshape %6 : tile<i64, #linear> -> tile<1xi64, #linear2>
    %bcast_3 = broadcast %reshape_2 : tile<1xi64, #linear2> -> tile<1024xi64, #linear1>
    %7 = muli %5, %bcast_3 : tile<1024xi64, #linear1>
    %reshape_4 = reshape %arg1 : tile<ptr<f32>, #linear> -> tile<1xptr<f32>, #linear2>
    %bcast_5 = broadcast %reshape_4 : tile<1xptr<f32>, #linear2> -> tile<1024xptr<f32>, #linear1>
    %8 = offset %bcast_5, %7 : tile<1024xptr<f32>, #linear1>, tile<1024xi64, #linear1> -> tile<1024xptr<f32>, #linear1>
    %9 = exti %arg6 signed : tile<i32, #linear> -> tile<i64, #linear>
    %reshape_6 = reshape %9 : tile<i64, #linear> -> tile<1xi64, #linear2>
    %bcast_7 = broadcast %reshape_6 : tile<1xi64, #linear2> -> tile<1024xi64, #linear1>
    %10 = muli %5, %bcast_7 : tile<1024xi64, #linear1>
    %reshape_8 = reshape %arg4 : tile<ptr<f32>, #linear> -> tile<1xptr<f32>, #linear2>
    %bcast_9 = broadcast %reshape_8 : tile<1xptr<f32>, #linear2> -> tile<1024xptr<f32>, #linear1>
    %11 = offset %bcast_9, %10 : tile<1024xptr<f32>, #linear1>, tile<1024xi64, #linear1> -> tile<1024xptr<f32>, #linear1>
    %result, %result_token = load_ptr_tko weak %8, %4, %cst_0_f32 token=%0 : tile<1024xptr<f32>, #linear1>, tile<1024xi1, #linear1>, tile<1024xf32, #linear1> -> tile<1024xf32, #linear1>, token
    %result_10, %result_token_11 = load_ptr_tko weak %11, %4, %cst_0_f32 token=%0 : tile<1024xptr<f32>, #linear1>, tile<1024xi1, #linear1>, tile<1024xf32, #linear1> -> tile<1024xf32, #linear1>, token
    %reshape_12 = reshape %arg0 : tile<f32, #linear> -> tile<1xf32, #linear2>
    %bcast_13 = broadcast %reshape_12 : tile<1xf32, #linear2> -> tile<1024xf32, #linear1>
    %12 = fma %bcast_13, %result, %result_10  : tile<1024xf32, #linear1>
    %13 = store_ptr_tko weak %11, %12, %4 token=%result_token_11 : tile<1024xptr<f32>, #linear1>, tile<1024xf32, #linear1>, tile<1024xi1, #linear1> -> token
    return
  }
}
