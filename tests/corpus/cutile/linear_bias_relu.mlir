entry @linear_bias_relu_Kt1_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_A1f16_1t1_p16_A2f16_1l0_2t1_p16_I64_I64_I64(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f16>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<ptr<f16>>, %arg14: tile<i32>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f16>>
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f16>>
  %assume_2 = assume div_by<16>, %arg13 : tile<ptr<f16>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %cst_1_i32_4 = constant <i32: 1> : tile<i32>
  %cst_1_i32_5 = constant <i32: 1> : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_7 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_6, %assume_7], strides = [%assume_8, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %assume_9 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_10 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_11 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_12 = make_tensor_view %assume_0, shape = [%assume_9, %assume_10], strides = [%assume_11, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %assume_13 = assume bounded<0, ?>, %arg11 : tile<i32>
  %tview_14 = make_tensor_view %assume_1, shape = [%assume_13], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]>
  %assume_15 = assume bounded<0, ?>, %arg14 : tile<i32>
  %assume_16 = assume bounded<0, ?>, %arg15 : tile<i32>
  %assume_17 = assume bounded<0, ?>, %arg16 : tile<i32>
  %tview_18 = make_tensor_view %assume_2, shape = [%assume_15, %assume_16], strides = [%assume_17, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_19, %blockId_y_20, %blockId_z_21 = get_tile_block_id : tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<64x64xf32>
  %pview = make_partition_view %tview : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>>
  %1:2 = get_index_space_shape %pview : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32_22 = constant <i32: 1> : tile<i32>
  %pview_23 = make_partition_view %tview : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
  %pview_24 = make_partition_view %tview_12 : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
  %for = for %loopIdx in (%cst_0_i32 to %1#1, step %cst_1_i32_22) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<64x64xf32>) {
    %tile_30, %result_token_31 = load_view_tko weak %pview_23[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x64xf16>, token
    %tile_32, %result_token_33 = load_view_tko weak %pview_24[%blockId_y_20, %loopIdx] token = %0 : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x64xf16>, token
    %7 = permute %tile_32 [1, 0] : tile<64x64xf16> -> tile<64x64xf16>
    %8 = mmaf %tile_30, %7, %iterArg0 : tile<64x64xf16>, tile<64x64xf16>, tile<64x64xf32>
    continue %8 : tile<64x64xf32>
  }
  %pview_25 = make_partition_view %tview_14 : partition_view<tile=(64), padding_value = zero, tensor_view<?xf16, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview_25[%blockId_y_20] token = %0 : partition_view<tile=(64), padding_value = zero, tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<64xf16>, token
  %reshape = reshape %tile : tile<64xf16> -> tile<1x64xf16>
  %2 = ftof %reshape  : tile<1x64xf16> -> tile<1x64xf32>
  %bcast = broadcast %2 : tile<1x64xf32> -> tile<64x64xf32>
  %3 = addf %for, %bcast  : tile<64x64xf32>
  %cst_0_f32_26 = constant <f32: 0.000000e+00> : tile<f32>
  %reshape_27 = reshape %cst_0_f32_26 : tile<f32> -> tile<1x1xf32>
  %bcast_28 = broadcast %reshape_27 : tile<1x1xf32> -> tile<64x64xf32>
  %4 = maxf %3, %bcast_28 : tile<64x64xf32>
  %5 = ftof %4  : tile<64x64xf32> -> tile<64x64xf16>
  %pview_29 = make_partition_view %tview_18 : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>>
  %6 = store_view_tko weak %5, %pview_29[%blockId_x, %blockId_y_20] token = %0 : tile<64x64xf16>, partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token
  return
}
