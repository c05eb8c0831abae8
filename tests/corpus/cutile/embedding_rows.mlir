entry @embedding_rows_Kt1_A2f16_1l0_2t1_p16_A1i32_1t1_p16_A2f16_1l0_2t1_p16_I128_I16(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<i32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<f16>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<i32>>
  %assume_1 = assume div_by<16>, %arg8 : tile<ptr<f16>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_2 = constant <i32: 1> : tile<i32>
  %cst_1_i64 = constant <i64: 1> : tile<16x128xi64>
  %assume_3 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg3 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg6 : tile<i32>
  %tview = make_tensor_view %assume_0, shape = [%assume_6], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %assume_7 = assume bounded<0, ?>, %arg9 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg10 : tile<i32>
  %assume_9 = assume bounded<0, ?>, %arg11 : tile<i32>
  %tview_10 = make_tensor_view %assume_1, shape = [%assume_7, %assume_8], strides = [%assume_9, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(16), tensor_view<?xi32, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(16), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
  %1 = iota : tile<128xi32>
  %reshape = reshape %tile : tile<16xi32> -> tile<16x1xi32>
  %reshape_11 = reshape %1 : tile<128xi32> -> tile<1x128xi32>
  %2 = exti %reshape signed : tile<16x1xi32> -> tile<16x1xi64>
  %bcast = broadcast %2 : tile<16x1xi64> -> tile<16x128xi64>
  %3 = exti %assume_3 signed : tile<i32> -> tile<i64>
  %reshape_12 = reshape %3 : tile<i64> -> tile<1x1xi64>
  %bcast_13 = broadcast %reshape_12 : tile<1x1xi64> -> tile<16x128xi64>
  %4 = cmpi less_than %bcast, %bcast_13, unsigned : tile<16x128xi64> -> tile<16x128xi1>
  %5 = exti %assume_5 signed : tile<i32> -> tile<i64>
  %reshape_14 = reshape %5 : tile<i64> -> tile<1x1xi64>
  %bcast_15 = broadcast %reshape_14 : tile<1x1xi64> -> tile<16x128xi64>
  %6 = muli %bcast, %bcast_15 : tile<16x128xi64>
  %7 = exti %reshape_11 signed : tile<1x128xi32> -> tile<1x128xi64>
  %bcast_16 = broadcast %7 : tile<1x128xi64> -> tile<16x128xi64>
  %8 = exti %assume_4 signed : tile<i32> -> tile<i64>
  %reshape_17 = reshape %8 : tile<i64> -> tile<1x1xi64>
  %bcast_18 = broadcast %reshape_17 : tile<1x1xi64> -> tile<16x128xi64>
  %9 = cmpi less_than %bcast_16, %bcast_18, unsigned : tile<16x128xi64> -> tile<16x128xi1>
  %10 = andi %4, %9 : tile<16x128xi1>
  %11 = muli %bcast_16, %cst_1_i64 : tile<16x128xi64>
  %12 = addi %6, %11 : tile<16x128xi64>
  %reshape_19 = reshape %assume : tile<ptr<f16>> -> tile<1x1xptr<f16>>
  %bcast_20 = broadcast %reshape_19 : tile<1x1xptr<f16>> -> tile<16x128xptr<f16>>
  %13 = offset %bcast_20, %12 : tile<16x128xptr<f16>>, tile<16x128xi64> -> tile<16x128xptr<f16>>
  %cst_0_f16 = constant <f16: 0.000000e+00> : tile<f16>
  %reshape_21 = reshape %cst_0_f16 : tile<f16> -> tile<1x1xf16>
  %bcast_22 = broadcast %reshape_21 : tile<1x1xf16> -> tile<16x128xf16>
  %result, %result_token_23 = load_ptr_tko weak %13, %10, %bcast_22 token=%0 : tile<16x128xptr<f16>>, tile<16x128xi1>, tile<16x128xf16> -> tile<16x128xf16>, token
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview_24 = make_partition_view %tview_10 : partition_view<tile=(16x128), tensor_view<?x?xf16, strides=[?,1]>>
  %14 = store_view_tko weak %result, %pview_24[%blockId_x, %cst_0_i32] token = %0 : tile<16x128xf16>, partition_view<tile=(16x128), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token
  return
}
