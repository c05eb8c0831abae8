entry @flash_attention_Kt1_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_Sf32_I64_I64_I64(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f16>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<ptr<f16>>, %arg16: tile<i32>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f16>>
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f16>>
  %assume_2 = assume div_by<16>, %arg15 : tile<ptr<f16>>
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
  %assume_14 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_15 = assume bounded<0, ?>, %arg13 : tile<i32>
  %tview_16 = make_tensor_view %assume_1, shape = [%assume_13, %assume_14], strides = [%assume_15, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %assume_17 = assume bounded<0, ?>, %arg16 : tile<i32>
  %assume_18 = assume bounded<0, ?>, %arg17 : tile<i32>
  %assume_19 = assume bounded<0, ?>, %arg18 : tile<i32>
  %tview_20 = make_tensor_view %assume_2, shape = [%assume_17, %assume_18], strides = [%assume_19, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %cst_64_i32 = constant <i32: 64> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x64xf16>, token
  %cst_f32 = constant <f32: 0xFF800000> : tile<64x1xf32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<64x1xf32>
  %cst_0_f32_21 = constant <f32: 0.000000e+00> : tile<64x64xf32>
  %pview_22 = make_partition_view %tview_12 : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>>
  %1:2 = get_index_space_shape %pview_22 : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
  %cst_0_i32_23 = constant <i32: 0> : tile<i32>
  %cst_1_i32_24 = constant <i32: 1> : tile<i32>
  %cst_0_i32_25 = constant <i32: 0> : tile<i32>
  %pview_26 = make_partition_view %tview_12 : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
  %cst_0_f32_27 = constant <f32: 0.000000e+00> : tile<64x64xf32>
  %reshape = reshape %arg20 : tile<f32> -> tile<1x1xf32>
  %bcast = broadcast %reshape : tile<1x1xf32> -> tile<64x64xf32>
  %2 = iota : tile<64xi32>
  %reshape_28 = reshape %2 : tile<64xi32> -> tile<1x64xi32>
  %reshape_29 = reshape %assume_9 : tile<i32> -> tile<1x1xi32>
  %bcast_30 = broadcast %reshape_29 : tile<1x1xi32> -> tile<1x64xi32>
  %cst_f32_31 = constant <f32: 0xFF800000> : tile<f32>
  %reshape_32 = reshape %cst_f32_31 : tile<f32> -> tile<1x1xf32>
  %bcast_33 = broadcast %reshape_32 : tile<1x1xf32> -> tile<64x64xf32>
  %cst_0_i32_34 = constant <i32: 0> : tile<i32>
  %pview_35 = make_partition_view %tview_16 : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
  %for:3 = for %loopIdx in (%cst_0_i32_23 to %1#0, step %cst_1_i32_24) : tile<i32> iter_values(%iterArg0 = %cst_0_f32_21, %iterArg1 = %cst_0_f32, %iterArg2 = %cst_f32) -> (tile<64x64xf32>, tile<64x1xf32>, tile<64x1xf32>) {
    %tile_39, %result_token_40 = load_view_tko weak %pview_26[%loopIdx, %cst_0_i32_25] token = %0 : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x64xf16>, token
    %6 = permute %tile_39 [1, 0] : tile<64x64xf16> -> tile<64x64xf16>
    %7 = mmaf %tile, %6, %cst_0_f32_27 : tile<64x64xf16>, tile<64x64xf16>, tile<64x64xf32>
    %8 = mulf %7, %bcast  : tile<64x64xf32>
    %9 = muli %loopIdx, %cst_64_i32 : tile<i32>
    %reshape_41 = reshape %9 : tile<i32> -> tile<1x1xi32>
    %bcast_42 = broadcast %reshape_41 : tile<1x1xi32> -> tile<1x64xi32>
    %10 = addi %reshape_28, %bcast_42 : tile<1x64xi32>
    %11 = cmpi less_than %10, %bcast_30, signed : tile<1x64xi32> -> tile<1x64xi1>
    %bcast_43 = broadcast %11 : tile<1x64xi1> -> tile<64x64xi1>
    %12 = select %bcast_43, %8, %bcast_33 : tile<64x64xi1>, tile<64x64xf32>
    %reduce = reduce %12 dim=1 identities=[0xFF800000 : f32] : tile<64x64xf32> -> tile<64xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %22 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
      yield %22 : tile<f32>
    }
    %reshape_44 = reshape %reduce : tile<64xf32> -> tile<64x1xf32>
    %13 = maxf %iterArg2, %reshape_44 : tile<64x1xf32>
    %bcast_45 = broadcast %13 : tile<64x1xf32> -> tile<64x64xf32>
    %14 = subf %12, %bcast_45  : tile<64x64xf32>
    %15 = exp %14  : tile<64x64xf32>
    %16 = subf %iterArg2, %13  : tile<64x1xf32>
    %17 = exp %16  : tile<64x1xf32>
    %reduce_46 = reduce %15 dim=1 identities=[0.000000e+00 : f32] : tile<64x64xf32> -> tile<64xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %22 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
      yield %22 : tile<f32>
    }
    %reshape_47 = reshape %reduce_46 : tile<64xf32> -> tile<64x1xf32>
    %18 = fma %iterArg1, %17, %reshape_47  : tile<64x1xf32>
    %tile_48, %result_token_49 = load_view_tko weak %pview_35[%loopIdx, %cst_0_i32_34] token = %0 : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x64xf16>, token
    %19 = ftof %15  : tile<64x64xf32> -> tile<64x64xf16>
    %bcast_50 = broadcast %17 : tile<64x1xf32> -> tile<64x64xf32>
    %20 = mulf %iterArg0, %bcast_50  : tile<64x64xf32>
    %21 = mmaf %19, %tile_48, %20 : tile<64x64xf16>, tile<64x64xf16>, tile<64x64xf32>
    continue %21, %18, %13 : tile<64x64xf32>, tile<64x1xf32>, tile<64x1xf32>
  }
  %cst_0_i32_36 = constant <i32: 0> : tile<i32>
  %bcast_37 = broadcast %for#1 : tile<64x1xf32> -> tile<64x64xf32>
  %3 = divf %for#0, %bcast_37  : tile<64x64xf32>
  %4 = ftof %3  : tile<64x64xf32> -> tile<64x64xf16>
  %pview_38 = make_partition_view %tview_20 : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>>
  %5 = store_view_tko weak %4, %pview_38[%blockId_x, %cst_0_i32_36] token = %0 : tile<64x64xf16>, partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token
  return
}
