entry @grouped_persistent_matmul_Kt1_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_I64_I64_I64_I2(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f16>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f16>>
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f16>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_2 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_9 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_7, %assume_8], strides = [%assume_9, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32>
  %assume_12 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_13 = assume bounded<0, ?>, %arg13 : tile<i32>
  %tview_14 = make_tensor_view %assume_1, shape = [%assume_11, %assume_12], strides = [%assume_13, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %cst_2_i32 = constant <i32: 2> : tile<i32>
  %pview = make_partition_view %tview_14 : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>>
  %1:2 = get_index_space_shape %pview : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
  %pview_15 = make_partition_view %tview_14 : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>>
  %2:2 = get_index_space_shape %pview_15 : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %3 = muli %1#0, %2#1 : tile<i32>
  %gridSize_x, %gridSize_y, %gridSize_z = get_num_tile_blocks : tile<i32>
  %4 = muli %cst_2_i32, %2#1 : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_0_i32_16 = constant <i32: 0> : tile<i32>
  %5 = cmpi less_than %4, %cst_0_i32_16, signed : tile<i32> -> tile<i1>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<64x64xf32>
  %pview_17 = make_partition_view %tview : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>>
  %6:2 = get_index_space_shape %pview_17 : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
  %cst_0_i32_18 = constant <i32: 0> : tile<i32>
  %cst_1_i32_19 = constant <i32: 1> : tile<i32>
  %pview_20 = make_partition_view %tview : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
  %pview_21 = make_partition_view %tview_10 : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
  %pview_22 = make_partition_view %tview_14 : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>>
  %for = for %loopIdx in (%blockId_x to %3, step %gridSize_x) : tile<i32> iter_values(%iterArg0 = %0) -> (token) {
    %7 = divi %loopIdx, %4 signed rounding<negative_inf> : tile<i32>
    %8 = muli %7, %cst_2_i32 : tile<i32>
    %9 = subi %1#0, %8 : tile<i32>
    %10 = mini %9, %cst_2_i32 signed : tile<i32>
    %11 = remi %loopIdx, %10 signed : tile<i32>
    %12 = cmpi less_than %11, %cst_0_i32, signed : tile<i32> -> tile<i1>
    %13 = cmpi less_than %10, %cst_0_i32, signed : tile<i32> -> tile<i1>
    %14 = xori %12, %13 : tile<i1>
    %15 = cmpi not_equal %11, %cst_0_i32, signed : tile<i32> -> tile<i1>
    %16 = andi %14, %15 : tile<i1>
    %17 = addi %11, %10 : tile<i32>
    %18 = select %16, %17, %11 : tile<i1>, tile<i32>
    %19 = addi %8, %18 : tile<i32>
    %20 = remi %loopIdx, %4 signed : tile<i32>
    %21 = cmpi less_than %20, %cst_0_i32_16, signed : tile<i32> -> tile<i1>
    %22 = xori %21, %5 : tile<i1>
    %23 = cmpi not_equal %20, %cst_0_i32_16, signed : tile<i32> -> tile<i1>
    %24 = andi %22, %23 : tile<i1>
    %25 = addi %20, %4 : tile<i32>
    %26 = select %24, %25, %20 : tile<i1>, tile<i32>
    %27 = divi %26, %10 signed rounding<negative_inf> : tile<i32>
    %for_23 = for %loopIdx_24 in (%cst_0_i32_18 to %6#1, step %cst_1_i32_19) : tile<i32> iter_values(%iterArg0_25 = %cst_0_f32) -> (tile<64x64xf32>) {
      %tile, %result_token = load_view_tko weak %pview_20[%19, %loopIdx_24] token = %0 : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x64xf16>, token
      %tile_26, %result_token_27 = load_view_tko weak %pview_21[%loopIdx_24, %27] token = %0 : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x64xf16>, token
      %30 = mmaf %tile, %tile_26, %iterArg0_25 : tile<64x64xf16>, tile<64x64xf16>, tile<64x64xf32>
      continue %30 : tile<64x64xf32>
    }
    %28 = ftof %for_23  : tile<64x64xf32> -> tile<64x64xf16>
    %29 = store_view_tko weak %28, %pview_22[%19, %27] token = %iterArg0 : tile<64x64xf16>, partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token
    continue %29 : token
  }
  return
}
