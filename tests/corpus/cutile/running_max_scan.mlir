entry @running_max_scan_Kt1_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_I8_I128(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_1 = constant <i32: 1> : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_3 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_2, %assume_3], strides = [%assume_4, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %assume_5 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_7 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_8 = make_tensor_view %assume_0, shape = [%assume_5, %assume_6], strides = [%assume_7, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_9, %blockId_y_10, %blockId_z_11 = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(8x128), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y_10] token = %0 : partition_view<tile=(8x128), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<8x128xf32>, token
  %1 = scan %tile dim=1 reverse=false identities=[0xFF800000 : f32] : tile<8x128xf32> -> tile<8x128xf32> 
  (%arg10: tile<f32>, %arg11: tile<f32>) {
    %3 = maxf %arg10, %arg11 : tile<f32>
    yield %3 : tile<f32>
  }
  %pview_12 = make_partition_view %tview_8 : partition_view<tile=(8x128), tensor_view<?x?xf32, strides=[?,1]>>
  %2 = store_view_tko weak %1, %pview_12[%blockId_x, %blockId_y_10] token = %0 : tile<8x128xf32>, partition_view<tile=(8x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}
