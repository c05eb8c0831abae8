entry @gather_scatter_Kt1_A1f32_1t1_p16_A1i32_1t1_p16_A1f32_1t1_p16_I256(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<f32>>, %arg7: tile<i32>, %arg8: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<i32>>
  %assume_1 = assume div_by<16>, %arg6 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i64 = constant <i64: 1> : tile<256xi64>
  %cst_0_i32 = constant <i32: 0> : tile<256xi32>
  %cst_1_i64_2 = constant <i64: 1> : tile<256xi64>
  %assume_3 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg4 : tile<i32>
  %tview = make_tensor_view %assume_0, shape = [%assume_4], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(256), padding_value = zero, tensor_view<?xi32, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<256xi32>, token
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32>
  %1 = exti %tile signed : tile<256xi32> -> tile<256xi64>
  %2 = exti %assume_3 signed : tile<i32> -> tile<i64>
  %reshape = reshape %2 : tile<i64> -> tile<1xi64>
  %bcast = broadcast %reshape : tile<1xi64> -> tile<256xi64>
  %3 = cmpi less_than %1, %bcast, unsigned : tile<256xi64> -> tile<256xi1>
  %4 = muli %1, %cst_1_i64 : tile<256xi64>
  %reshape_6 = reshape %assume : tile<ptr<f32>> -> tile<1xptr<f32>>
  %bcast_7 = broadcast %reshape_6 : tile<1xptr<f32>> -> tile<256xptr<f32>>
  %5 = offset %bcast_7, %4 : tile<256xptr<f32>>, tile<256xi64> -> tile<256xptr<f32>>
  %reshape_8 = reshape %cst_0_f32 : tile<f32> -> tile<1xf32>
  %bcast_9 = broadcast %reshape_8 : tile<1xf32> -> tile<256xf32>
  %result, %result_token_10 = load_ptr_tko weak %5, %3, %bcast_9 token=%0 : tile<256xptr<f32>>, tile<256xi1>, tile<256xf32> -> tile<256xf32>, token
  %cst_2_f32 = constant <f32: 2.000000e+00> : tile<f32>
  %reshape_11 = reshape %cst_2_f32 : tile<f32> -> tile<1xf32>
  %bcast_12 = broadcast %reshape_11 : tile<1xf32> -> tile<256xf32>
  %6 = mulf %result, %bcast_12  : tile<256xf32>
  %7 = cmpi greater_than_or_equal %tile, %cst_0_i32, signed : tile<256xi32> -> tile<256xi1>
  %8 = exti %tile signed : tile<256xi32> -> tile<256xi64>
  %9 = exti %assume_5 signed : tile<i32> -> tile<i64>
  %reshape_13 = reshape %9 : tile<i64> -> tile<1xi64>
  %bcast_14 = broadcast %reshape_13 : tile<1xi64> -> tile<256xi64>
  %10 = cmpi less_than %8, %bcast_14, unsigned : tile<256xi64> -> tile<256xi1>
  %11 = muli %8, %cst_1_i64_2 : tile<256xi64>
  %reshape_15 = reshape %assume_1 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %bcast_16 = broadcast %reshape_15 : tile<1xptr<f32>> -> tile<256xptr<f32>>
  %12 = offset %bcast_16, %11 : tile<256xptr<f32>>, tile<256xi64> -> tile<256xptr<f32>>
  %13 = andi %10, %7 : tile<256xi1>
  %14 = store_ptr_tko weak %12, %6, %13 token=%0 : tile<256xptr<f32>>, tile<256xf32>, tile<256xi1> -> token
  return
}
