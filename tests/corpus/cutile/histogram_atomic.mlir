entry @histogram_atomic_Kt1_A1i32_1t1_p16_A1i32_1t1_p16_I64_I1024(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i32>>, %arg4: tile<i32>, %arg5: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<i32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_64_i32 = constant <i32: 64> : tile<1024xi32>
  %cst_-1_i32 = constant <i32: -1> : tile<1024xi32>
  %cst_1_i64 = constant <i64: 1> : tile<1024xi64>
  %cst_1_i32_1 = constant <i32: 1> : tile<1024xi32>
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %assume_3 = assume bounded<0, ?>, %arg4 : tile<i32>
  %cst_1024_i32 = constant <i32: 1024> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1024), padding_value = zero, tensor_view<?xi32, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<1024xi32>, token
  %1 = join_tokens %0, %result_token : token
  %2 = iota : tile<1024xi32>
  %3 = muli %blockId_x, %cst_1024_i32 : tile<i32>
  %reshape = reshape %3 : tile<i32> -> tile<1xi32>
  %bcast = broadcast %reshape : tile<1xi32> -> tile<1024xi32>
  %4 = addi %2, %bcast : tile<1024xi32>
  %reshape_4 = reshape %assume_2 : tile<i32> -> tile<1xi32>
  %bcast_5 = broadcast %reshape_4 : tile<1xi32> -> tile<1024xi32>
  %5 = cmpi less_than %4, %bcast_5, signed : tile<1024xi32> -> tile<1024xi1>
  %6 = remi %tile, %cst_64_i32 signed : tile<1024xi32>
  %cst_0_i32 = constant <i32: 0> : tile<1024xi32>
  %7 = cmpi less_than %6, %cst_0_i32, signed : tile<1024xi32> -> tile<1024xi1>
  %8 = cmpi less_than %cst_64_i32, %cst_0_i32, signed : tile<1024xi32> -> tile<1024xi1>
  %9 = xori %7, %8 : tile<1024xi1>
  %10 = cmpi not_equal %6, %cst_0_i32, signed : tile<1024xi32> -> tile<1024xi1>
  %11 = andi %9, %10 : tile<1024xi1>
  %12 = addi %6, %cst_64_i32 : tile<1024xi32>
  %13 = select %11, %12, %6 : tile<1024xi1>, tile<1024xi32>
  %14 = select %5, %13, %cst_-1_i32 : tile<1024xi1>, tile<1024xi32>
  %15 = exti %14 signed : tile<1024xi32> -> tile<1024xi64>
  %16 = exti %assume_3 signed : tile<i32> -> tile<i64>
  %reshape_6 = reshape %16 : tile<i64> -> tile<1xi64>
  %bcast_7 = broadcast %reshape_6 : tile<1xi64> -> tile<1024xi64>
  %17 = cmpi less_than %15, %bcast_7, unsigned : tile<1024xi64> -> tile<1024xi1>
  %18 = muli %15, %cst_1_i64 : tile<1024xi64>
  %reshape_8 = reshape %assume_0 : tile<ptr<i32>> -> tile<1xptr<i32>>
  %bcast_9 = broadcast %reshape_8 : tile<1xptr<i32>> -> tile<1024xptr<i32>>
  %19 = offset %bcast_9, %18 : tile<1024xptr<i32>>, tile<1024xi64> -> tile<1024xptr<i32>>
  %20 = join_tokens %0, %1 : token
  %result, %result_token_10 = atomic_rmw_tko acq_rel device %19, add, %cst_1_i32_1, %17 token=%20 : tile<1024xptr<i32>>, tile<1024xi32>, tile<1024xi1> -> tile<1024xi32>, token
  return
}
