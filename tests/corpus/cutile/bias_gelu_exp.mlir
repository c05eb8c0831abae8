entry @bias_gelu_exp_Kt1_A2f32_1l0_2t1_p16_A1f32_1t1_p16_A2f32_1l0_2t1_p16_I512(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<f32>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>>
  %assume_1 = assume div_by<16>, %arg8 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_2 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32>
  %tview_8 = make_tensor_view %assume_0, shape = [%assume_7], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_9 = assume bounded<0, ?>, %arg9 : tile<i32>
  %assume_10 = assume bounded<0, ?>, %arg10 : tile<i32>
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32>
  %tview_12 = make_tensor_view %assume_1, shape = [%assume_9, %assume_10], strides = [%assume_11, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_13, %blockId_y_14, %blockId_z_15 = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1x512), tensor_view<?x?xf32, strides=[?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y_14] token = %0 : partition_view<tile=(1x512), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x512xf32>, token
  %pview_16 = make_partition_view %tview_8 : partition_view<tile=(512), tensor_view<?xf32, strides=[1]>>
  %tile_17, %result_token_18 = load_view_tko weak %pview_16[%blockId_y_14] token = %0 : partition_view<tile=(512), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<512xf32>, token
  %reshape = reshape %tile_17 : tile<512xf32> -> tile<1x512xf32>
  %1 = addf %tile, %reshape  : tile<1x512xf32>
  %cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32>
  %cst_f32 = constant <f32: -1.702000e+00> : tile<f32>
  %reshape_19 = reshape %cst_f32 : tile<f32> -> tile<1x1xf32>
  %bcast = broadcast %reshape_19 : tile<1x1xf32> -> tile<1x512xf32>
  %2 = mulf %bcast, %1  : tile<1x512xf32>
  %3 = exp %2  : tile<1x512xf32>
  %reshape_20 = reshape %cst_1_f32 : tile<f32> -> tile<1x1xf32>
  %bcast_21 = broadcast %reshape_20 : tile<1x1xf32> -> tile<1x512xf32>
  %4 = addf %bcast_21, %3  : tile<1x512xf32>
  %5 = divf %1, %4  : tile<1x512xf32>
  %pview_22 = make_partition_view %tview_12 : partition_view<tile=(1x512), tensor_view<?x?xf32, strides=[?,1]>>
  %6 = store_view_tko weak %5, %pview_22[%blockId_x, %blockId_y_14] token = %0 : tile<1x512xf32>, partition_view<tile=(1x512), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}
