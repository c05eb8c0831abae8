entry @advanced_index_rows_Kt1_A2f32_1l0_2t1_p16_A1i32_1t1_p16_A2f32_1l0_2t1_p16_I16_I64(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<i32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<f32>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<i32>>
  %assume_1 = assume div_by<16>, %arg8 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_2 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32>
  %tview_8 = make_tensor_view %assume_0, shape = [%assume_7], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %assume_9 = assume bounded<0, ?>, %arg9 : tile<i32>
  %assume_10 = assume bounded<0, ?>, %arg10 : tile<i32>
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32>
  %tview_12 = make_tensor_view %assume_1, shape = [%assume_9, %assume_10], strides = [%assume_11, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %cst_64_i32 = constant <i32: 64> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_13, %blockId_y_14, %blockId_z_15 = get_tile_block_id : tile<i32>
  %1 = muli %blockId_y_14, %cst_64_i32 : tile<i32>
  %pview = make_partition_view %tview_8 : partition_view<tile=(16), tensor_view<?xi32, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(16), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
  %gsview = make_gather_scatter_view %tview : gather_scatter_view<tile=(16x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>, sparse_dim=0>
  %tile_16, %result_token_17 = load_view_tko weak %gsview[%tile, %1] token = %0 : gather_scatter_view<tile=(16x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>, sparse_dim=0>, tile<16xi32>, tile<i32> -> tile<16x64xf32>, token
  %2 = iota : tile<64xi32>
  %reshape = reshape %1 : tile<i32> -> tile<1xi32>
  %bcast = broadcast %reshape : tile<1xi32> -> tile<64xi32>
  %3 = addi %2, %bcast : tile<64xi32>
  %4 = itof %3 signed  : tile<64xi32> -> tile<64xf32>
  %cst_2_f32 = constant <f32: 2.000000e+00> : tile<f32>
  %reshape_18 = reshape %cst_2_f32 : tile<f32> -> tile<1x1xf32>
  %bcast_19 = broadcast %reshape_18 : tile<1x1xf32> -> tile<16x64xf32>
  %reshape_20 = reshape %4 : tile<64xf32> -> tile<1x64xf32>
  %bcast_21 = broadcast %reshape_20 : tile<1x64xf32> -> tile<16x64xf32>
  %5 = fma %tile_16, %bcast_19, %bcast_21  : tile<16x64xf32>
  %gsview_22 = make_gather_scatter_view %tview_12 : gather_scatter_view<tile=(16x64), tensor_view<?x?xf32, strides=[?,1]>, sparse_dim=0>
  %6 = store_view_tko weak %5, %gsview_22[%tile, %1] token = %0 : tile<16x64xf32>, gather_scatter_view<tile=(16x64), tensor_view<?x?xf32, strides=[?,1]>, sparse_dim=0>, tile<16xi32>, tile<i32> -> token
  return
}
