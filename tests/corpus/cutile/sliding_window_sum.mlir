entry @sliding_window_sum_Kt1_A1f32_1t1_p16_A2f32_1l0_2t1_p16_I128_I32(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>, %arg7: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_1 = constant <i32: 1> : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_3 = assume bounded<0, ?>, %arg4 : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg5 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg6 : tile<i32>
  %tview_6 = make_tensor_view %assume_0, shape = [%assume_3, %assume_4], strides = [%assume_5, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %sview = make_strided_view %tview : strided_view<tile=(128), traversal_strides=[32], padding_value = zero, tensor_view<?xf32, strides=[1]>>
  %tile, %result_token = load_view_tko weak %sview[%blockId_x] token = %0 : strided_view<tile=(128), traversal_strides=[32], padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32>
  %reshape = reshape %cst_1_f32 : tile<f32> -> tile<1xf32>
  %bcast = broadcast %reshape : tile<1xf32> -> tile<128xf32>
  %1 = addf %tile, %bcast  : tile<128xf32>
  %reshape_7 = reshape %1 : tile<128xf32> -> tile<1x128xf32>
  %pview = make_partition_view %tview_6 : partition_view<tile=(1x128), tensor_view<?x?xf32, strides=[?,1]>>
  %2 = store_view_tko weak %reshape_7, %pview[%blockId_x, %cst_0_i32] token = %0 : tile<1x128xf32>, partition_view<tile=(1x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}
