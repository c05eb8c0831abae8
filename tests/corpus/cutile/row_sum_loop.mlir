entry @row_sum_loop_Kt1_A2f32_1l0_2t1_p16_A1f32_1t1_p16_I512(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>) optimization_hints=<default = {}> {
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
  %tview_6 = make_tensor_view %assume_0, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %cst_512_i32 = constant <i32: 512> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<1x512xf32>
  %1 = divi %assume_3, %cst_512_i32 signed rounding<positive_inf> : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32_7 = constant <i32: 1> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1x512), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
  %for = for %loopIdx in (%cst_0_i32 to %1, step %cst_1_i32_7) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<1x512xf32>) {
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x512), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x512xf32>, token
    %3 = addf %iterArg0, %tile  : tile<1x512xf32>
    continue %3 : tile<1x512xf32>
  }
  %reduce = reduce %for dim=1 identities=[0.000000e+00 : f32] : tile<1x512xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %3 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %3 : tile<f32>
  }
  %pview_8 = make_partition_view %tview_6 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>
  %2 = store_view_tko weak %reduce, %pview_8[%blockId_x] token = %0 : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  return
}
entry @row_sum_loop_Kt1_A2f16_3l0_p16_A1f32_1t1_p16_I256(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %assume_1 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_3 = assume bounded<0, ?>, %arg3 : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg4 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_1, %assume_2], strides = [%assume_3, %assume_4] : tile<i32> -> tensor_view<?x?xf16, strides=[?,?]>
  %assume_5 = assume bounded<0, ?>, %arg6 : tile<i32>
  %tview_6 = make_tensor_view %assume_0, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %cst_256_i32 = constant <i32: 256> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<1x256xf32>
  %1 = divi %assume_2, %cst_256_i32 signed rounding<positive_inf> : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32_7 = constant <i32: 1> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,?]>>
  %for = for %loopIdx in (%cst_0_i32 to %1, step %cst_1_i32_7) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<1x256xf32>) {
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,?]>>, tile<i32> -> tile<1x256xf16>, token
    %3 = ftof %tile  : tile<1x256xf16> -> tile<1x256xf32>
    %4 = addf %iterArg0, %3  : tile<1x256xf32>
    continue %4 : tile<1x256xf32>
  }
  %reduce = reduce %for dim=1 identities=[0.000000e+00 : f32] : tile<1x256xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %3 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %3 : tile<f32>
  }
  %pview_8 = make_partition_view %tview_6 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>
  %2 = store_view_tko weak %reduce, %pview_8[%blockId_x] token = %0 : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  return
}
