entry @bias_gelu_tanh_Kt1_A2f16_1l0_2t1_p16_A1f16_1t1_p16_A2f16_1l0_2t1_p16_I64_I128(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<f16>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f16>>
  %assume_1 = assume div_by<16>, %arg8 : tile<ptr<f16>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_2 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32>
  %tview_8 = make_tensor_view %assume_0, shape = [%assume_7], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]>
  %assume_9 = assume bounded<0, ?>, %arg9 : tile<i32>
  %assume_10 = assume bounded<0, ?>, %arg10 : tile<i32>
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32>
  %tview_12 = make_tensor_view %assume_1, shape = [%assume_9, %assume_10], strides = [%assume_11, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_13, %blockId_y_14, %blockId_z_15 = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y_14] token = %0 : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x128xf16>, token
  %pview_16 = make_partition_view %tview_8 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf16, strides=[1]>>
  %tile_17, %result_token_18 = load_view_tko weak %pview_16[%blockId_y_14] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<128xf16>, token
  %1 = ftof %tile  : tile<64x128xf16> -> tile<64x128xf32>
  %reshape = reshape %tile_17 : tile<128xf16> -> tile<1x128xf16>
  %2 = ftof %reshape  : tile<1x128xf16> -> tile<1x128xf32>
  %bcast = broadcast %2 : tile<1x128xf32> -> tile<64x128xf32>
  %3 = addf %1, %bcast  : tile<64x128xf32>
  %cst_f32 = constant <f32: 0.797884583> : tile<f32>
  %cst_f32_19 = constant <f32: 4.471500e-02> : tile<f32>
  %reshape_20 = reshape %cst_f32_19 : tile<f32> -> tile<1x1xf32>
  %bcast_21 = broadcast %reshape_20 : tile<1x1xf32> -> tile<64x128xf32>
  %4 = mulf %bcast_21, %3  : tile<64x128xf32>
  %5 = mulf %4, %3  : tile<64x128xf32>
  %6 = fma %5, %3, %3  : tile<64x128xf32>
  %reshape_22 = reshape %cst_f32 : tile<f32> -> tile<1x1xf32>
  %bcast_23 = broadcast %reshape_22 : tile<1x1xf32> -> tile<64x128xf32>
  %7 = mulf %bcast_23, %6  : tile<64x128xf32>
  %cst_f32_24 = constant <f32: 5.000000e-01> : tile<f32>
  %reshape_25 = reshape %cst_f32_24 : tile<f32> -> tile<1x1xf32>
  %bcast_26 = broadcast %reshape_25 : tile<1x1xf32> -> tile<64x128xf32>
  %8 = mulf %bcast_26, %3  : tile<64x128xf32>
  %cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32>
  %9 = tanh %7  : tile<64x128xf32>
  %reshape_27 = reshape %cst_1_f32 : tile<f32> -> tile<1x1xf32>
  %bcast_28 = broadcast %reshape_27 : tile<1x1xf32> -> tile<64x128xf32>
  %10 = addf %bcast_28, %9  : tile<64x128xf32>
  %11 = mulf %8, %10  : tile<64x128xf32>
  %12 = ftof %11  : tile<64x128xf32> -> tile<64x128xf16>
  %pview_29 = make_partition_view %tview_12 : partition_view<tile=(64x128), tensor_view<?x?xf16, strides=[?,1]>>
  %13 = store_view_tko weak %12, %pview_29[%blockId_x, %blockId_y_14] token = %0 : tile<64x128xf16>, partition_view<tile=(64x128), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token
  return
}
