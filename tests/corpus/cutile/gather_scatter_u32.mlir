entry @gather_scatter_u32_Kt1_A1u32_1t1_p16_A1u32_1t1_p16_A1u32_1t1_p16_I256(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<i32>>
  %assume_1 = assume div_by<16>, %arg6 : tile<ptr<i32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_3_i32 = constant <i32: 3> : tile<256xi32>
  %cst_1_i64 = constant <i64: 1> : tile<256xi64>
  %cst_0_i32 = constant <i32: 0> : tile<256xi32>
  %cst_1_i64_2 = constant <i64: 1> : tile<256xi64>
  %assume_3 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg4 : tile<i32>
  %tview = make_tensor_view %assume_0, shape = [%assume_4], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32>
  %cst_256_i32 = constant <i32: 256> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(256), padding_value = zero, tensor_view<?xi32, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<256xi32>, token
  %1 = muli %tile, %cst_3_i32 : tile<256xi32>
  %reshape = reshape %assume_3 : tile<i32> -> tile<1xi32>
  %bcast = broadcast %reshape : tile<1xi32> -> tile<256xi32>
  %2 = remi %1, %bcast unsigned : tile<256xi32>
  %cst_0_i32_6 = constant <i32: 0> : tile<256xi32>
  %3 = cmpi less_than %2, %cst_0_i32_6, unsigned : tile<256xi32> -> tile<256xi1>
  %4 = cmpi less_than %bcast, %cst_0_i32_6, unsigned : tile<256xi32> -> tile<256xi1>
  %5 = xori %3, %4 : tile<256xi1>
  %6 = cmpi not_equal %2, %cst_0_i32_6, unsigned : tile<256xi32> -> tile<256xi1>
  %7 = andi %5, %6 : tile<256xi1>
  %8 = addi %2, %bcast : tile<256xi32>
  %9 = select %7, %8, %2 : tile<256xi1>, tile<256xi32>
  %10 = exti %9 unsigned : tile<256xi32> -> tile<256xi64>
  %11 = exti %assume_3 signed : tile<i32> -> tile<i64>
  %reshape_7 = reshape %11 : tile<i64> -> tile<1xi64>
  %bcast_8 = broadcast %reshape_7 : tile<1xi64> -> tile<256xi64>
  %12 = cmpi less_than %10, %bcast_8, unsigned : tile<256xi64> -> tile<256xi1>
  %13 = muli %10, %cst_1_i64 : tile<256xi64>
  %reshape_9 = reshape %assume : tile<ptr<i32>> -> tile<1xptr<i32>>
  %bcast_10 = broadcast %reshape_9 : tile<1xptr<i32>> -> tile<256xptr<i32>>
  %14 = offset %bcast_10, %13 : tile<256xptr<i32>>, tile<256xi64> -> tile<256xptr<i32>>
  %result, %result_token_11 = load_ptr_tko weak %14, %12, %cst_0_i32 token=%0 : tile<256xptr<i32>>, tile<256xi1>, tile<256xi32> -> tile<256xi32>, token
  %15 = iota : tile<256xi32>
  %16 = muli %blockId_x, %cst_256_i32 : tile<i32>
  %reshape_12 = reshape %16 : tile<i32> -> tile<1xi32>
  %bcast_13 = broadcast %reshape_12 : tile<1xi32> -> tile<256xi32>
  %17 = addi %15, %bcast_13 : tile<256xi32>
  %18 = addi %result, %17 : tile<256xi32>
  %reshape_14 = reshape %assume_3 : tile<i32> -> tile<1xi32>
  %bcast_15 = broadcast %reshape_14 : tile<1xi32> -> tile<256xi32>
  %19 = cmpi less_than %tile, %bcast_15, unsigned : tile<256xi32> -> tile<256xi1>
  %20 = exti %tile unsigned : tile<256xi32> -> tile<256xi64>
  %21 = exti %assume_5 signed : tile<i32> -> tile<i64>
  %reshape_16 = reshape %21 : tile<i64> -> tile<1xi64>
  %bcast_17 = broadcast %reshape_16 : tile<1xi64> -> tile<256xi64>
  %22 = cmpi less_than %20, %bcast_17, unsigned : tile<256xi64> -> tile<256xi1>
  %23 = muli %20, %cst_1_i64_2 : tile<256xi64>
  %reshape_18 = reshape %assume_1 : tile<ptr<i32>> -> tile<1xptr<i32>>
  %bcast_19 = broadcast %reshape_18 : tile<1xptr<i32>> -> tile<256xptr<i32>>
  %24 = offset %bcast_19, %23 : tile<256xptr<i32>>, tile<256xi64> -> tile<256xptr<i32>>
  %25 = andi %22, %19 : tile<256xi1>
  %26 = store_ptr_tko weak %24, %18, %25 token=%0 : tile<256xptr<i32>>, tile<256xi32>, tile<256xi1> -> token
  return
}
