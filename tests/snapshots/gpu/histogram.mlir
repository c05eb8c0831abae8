#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[1], [2], [512]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]], block = []}>
#linear2 = #ttg.linear<{register = [], lane = [[0], [0], [0], [0], [0]], warp = [[0], [0]], block = []}>
cuda_tile.module @examples {
  entry @histogram(%arg0: tile<ptr<i32>, #linear>, %arg1: tile<i32, #linear>, %arg2: tile<i32, #linear>, %arg3: tile<ptr<i32>, #linear>, %arg4: tile<i32, #linear>, %arg5: tile<i32, #linear>) {
    %cst_1_i32 = constant <i32: 1> : tile<1024xi32, #linear1>
    %cst_0_i32 = constant <i32: 0> : tile<1024xi32, #linear1>
    %cst_1024_i32 = constant <i32: 1024> : tile<i32, #linear>
    %0 = make_token : token
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32, #linear>
    %1 = muli %blockId_x, %cst_1024_i32 : tile<i32, #linear>
    %reshape = reshape %1 : tile<i32, #linear> -> tile<1xi32, #linear2>
    %bcast = broadcast %reshape : tile<1xi32, #linear2> -> tile<1024xi32, #linear1>
    %2 = iota : tile<1024xi32, #linear1>
    %3 = addi %bcast, %2 : tile<1024xi32, #linear1>
    %assume = assume bounded<0, ?>, %arg1 : tile<i32, #linear>
    %reshape_0 = reshape %assume : tile<i32, #linear> -> tile<1xi32, #linear2>
    %bcast_1 = broadcast %reshape_0 : tile<1xi32, #linear2> -> tile<1024xi32, #linear1>
    %4 = cmpi less_than %3, %bcast_1, signed : tile<1024xi32, #linear1> -> tile<1024xi1, #linear1>
    %reshape_2 = reshape %arg2 : tile<i32, #linear> -> tile<1xi32, #linear2>
    %bcast_3 = broadcast %reshape_2 : tile<1xi32, #linear2> -> tile<1024xi32, #linear1>
    %5 = muli %3, %bcast_3 : tile<1024xi32, #linear1>
    %reshape_4 = reshape %arg0 : tile<ptr<i32>, #linear> -> tile<1xptr<i32>, #linear2>
    %bcast_5 = broadcast %reshape_4 : tile<1xptr<i32>, #linear2> -> tile<1024xptr<i32>, #linear1>
    %6 = offset %bcast_5, %5 : tile<1024xptr<i32>, #linear1>, tile<1024xi32, #linear1> -> tile<1024xptr<i32>, #linear1>
    %result, %result_token = load_ptr_tko weak %6, %4 token=%0 : tile<1024xptr<i32>, #linear1>, tile<1024xi1, #linear1> -> tile<1024xi32, #linear1>, token
    %reshape_6 = reshape %arg4 : tile<i32, #linear> -> tile<1xi32, #linear2>
    %bcast_7 = broadcast %reshape_6 : tile<1xi32, #linear2> -> tile<1024xi32, #linear1>
    %7 = cmpi greater_than_or_equal %result, %cst_0_i32, signed : tile<1024xi32, #linear1> -> tile<1024xi1, #linear1>
    %8 = cmpi less_than %result, %bcast_7, signed : tile<1024xi32, #linear1> -> tile<1024xi1, #linear1>
    %9 = andi %7, %8 : tile<1024xi1, #linear1>
    %10 = andi %4, %9 : tile<1024xi1, #linear1>
    %11 = select %10, %result, %cst_0_i32 : tile<1024xi1, #linear1>, tile<1024xi32, #linear1>
    %reshape_8 = reshape %arg5 : tile<i32, #linear> -> tile<1xi32, #linear2>
    %bcast_9 = broadcast %reshape_8 : tile<1xi32, #linear2> -> tile<1024xi32, #linear1>
    %12 = muli %11, %bcast_9 : tile<1024xi32, #linear1>
    %reshape_10 = reshape %arg3 : tile<ptr<i32>, #linear> -> tile<1xptr<i32>, #linear2>
    %bcast_11 = broadcast %reshape_10 : tile<1xptr<i32>, #linear2> -> tile<1024xptr<i32>, #linear1>
    %13 = offset %bcast_11, %12 : tile<1024xptr<i32>, #linear1>, tile<1024xi32, #linear1> -> tile<1024xptr<i32>, #linear1>
    %result_12, %result_token_13 = atomic_rmw_tko relaxed device %13, add, %cst_1_i32, %10 token=%0 : tile<1024xptr<i32>, #linear1>, tile<1024xi32, #linear1>, tile<1024xi1, #linear1> -> tile<1024xi32, #linear1>, token
    return
  }
}
