entry @layernorm_Kt1_A2f32_1l0_2t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_A2f32_1l0_2t1_p16_Sf32_I1024(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<f32>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<ptr<f32>>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<i32>, %arg16: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>>
  %assume_1 = assume div_by<16>, %arg8 : tile<ptr<f32>>
  %assume_2 = assume div_by<16>, %arg11 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %cst_1_i32_4 = constant <i32: 1> : tile<i32>
  %cst_1_i32_5 = constant <i32: 1> : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_7 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_6, %assume_7], strides = [%assume_8, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %assume_9 = assume bounded<0, ?>, %arg6 : tile<i32>
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_9], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_11 = assume bounded<0, ?>, %arg9 : tile<i32>
  %tview_12 = make_tensor_view %assume_1, shape = [%assume_11], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_13 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_14 = assume bounded<0, ?>, %arg13 : tile<i32>
  %assume_15 = assume bounded<0, ?>, %arg14 : tile<i32>
  %tview_16 = make_tensor_view %assume_2, shape = [%assume_13, %assume_14], strides = [%assume_15, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x1024xf32>, token
  %1 = iota : tile<1024xi32>
  %reshape = reshape %1 : tile<1024xi32> -> tile<1x1024xi32>
  %reshape_17 = reshape %assume_7 : tile<i32> -> tile<1x1xi32>
  %bcast = broadcast %reshape_17 : tile<1x1xi32> -> tile<1x1024xi32>
  %2 = cmpi less_than %reshape, %bcast, signed : tile<1x1024xi32> -> tile<1x1024xi1>
  %reduce = reduce %tile dim=1 identities=[0.000000e+00 : f32] : tile<1x1024xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %15 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %15 : tile<f32>
  }
  %reshape_18 = reshape %reduce : tile<1xf32> -> tile<1x1xf32>
  %3 = itof %assume_7 signed  : tile<i32> -> tile<f32>
  %reshape_19 = reshape %3 : tile<f32> -> tile<1x1xf32>
  %4 = divf %reshape_18, %reshape_19  : tile<1x1xf32>
  %bcast_20 = broadcast %4 : tile<1x1xf32> -> tile<1x1024xf32>
  %5 = subf %tile, %bcast_20  : tile<1x1024xf32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32>
  %reshape_21 = reshape %cst_0_f32 : tile<f32> -> tile<1x1xf32>
  %bcast_22 = broadcast %reshape_21 : tile<1x1xf32> -> tile<1x1024xf32>
  %6 = select %2, %5, %bcast_22 : tile<1x1024xi1>, tile<1x1024xf32>
  %7 = mulf %6, %6  : tile<1x1024xf32>
  %reduce_23 = reduce %7 dim=1 identities=[0.000000e+00 : f32] : tile<1x1024xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %15 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %15 : tile<f32>
  }
  %reshape_24 = reshape %reduce_23 : tile<1xf32> -> tile<1x1xf32>
  %8 = itof %assume_7 signed  : tile<i32> -> tile<f32>
  %reshape_25 = reshape %8 : tile<f32> -> tile<1x1xf32>
  %9 = divf %reshape_24, %reshape_25  : tile<1x1xf32>
  %reshape_26 = reshape %arg16 : tile<f32> -> tile<1x1xf32>
  %10 = addf %9, %reshape_26  : tile<1x1xf32>
  %11 = rsqrt %10 : tile<1x1xf32>
  %cst_0_i32_27 = constant <i32: 0> : tile<i32>
  %pview_28 = make_partition_view %tview_10 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>
  %tile_29, %result_token_30 = load_view_tko weak %pview_28[%cst_0_i32_27] token = %0 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token
  %cst_0_i32_31 = constant <i32: 0> : tile<i32>
  %pview_32 = make_partition_view %tview_12 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>
  %tile_33, %result_token_34 = load_view_tko weak %pview_32[%cst_0_i32_31] token = %0 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token
  %bcast_35 = broadcast %11 : tile<1x1xf32> -> tile<1x1024xf32>
  %12 = mulf %6, %bcast_35  : tile<1x1024xf32>
  %reshape_36 = reshape %tile_29 : tile<1024xf32> -> tile<1x1024xf32>
  %reshape_37 = reshape %tile_33 : tile<1024xf32> -> tile<1x1024xf32>
  %13 = fma %12, %reshape_36, %reshape_37  : tile<1x1024xf32>
  %cst_0_i32_38 = constant <i32: 0> : tile<i32>
  %pview_39 = make_partition_view %tview_16 : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>
  %14 = store_view_tko weak %13, %pview_39[%blockId_x, %cst_0_i32_38] token = %0 : tile<1x1024xf32>, partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}
entry @layernorm_Kt1_A2bf16_1l0_2t1_p16_A1bf16_1t1_p16_A1bf16_1t1_p16_A2bf16_1l0_2t1_p16_Sf32_I512(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<bf16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<bf16>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<ptr<bf16>>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<i32>, %arg16: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<bf16>>
  %assume_1 = assume div_by<16>, %arg8 : tile<ptr<bf16>>
  %assume_2 = assume div_by<16>, %arg11 : tile<ptr<bf16>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %cst_1_i32_4 = constant <i32: 1> : tile<i32>
  %cst_1_i32_5 = constant <i32: 1> : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_7 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_6, %assume_7], strides = [%assume_8, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %assume_9 = assume bounded<0, ?>, %arg6 : tile<i32>
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_9], strides = [1] : tile<i32> -> tensor_view<?xbf16, strides=[1]>
  %assume_11 = assume bounded<0, ?>, %arg9 : tile<i32>
  %tview_12 = make_tensor_view %assume_1, shape = [%assume_11], strides = [1] : tile<i32> -> tensor_view<?xbf16, strides=[1]>
  %assume_13 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_14 = assume bounded<0, ?>, %arg13 : tile<i32>
  %assume_15 = assume bounded<0, ?>, %arg14 : tile<i32>
  %tview_16 = make_tensor_view %assume_2, shape = [%assume_13, %assume_14], strides = [%assume_15, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1x512), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(1x512), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<1x512xbf16>, token
  %1 = ftof %tile  : tile<1x512xbf16> -> tile<1x512xf32>
  %2 = iota : tile<512xi32>
  %reshape = reshape %2 : tile<512xi32> -> tile<1x512xi32>
  %reshape_17 = reshape %assume_7 : tile<i32> -> tile<1x1xi32>
  %bcast = broadcast %reshape_17 : tile<1x1xi32> -> tile<1x512xi32>
  %3 = cmpi less_than %reshape, %bcast, signed : tile<1x512xi32> -> tile<1x512xi1>
  %reduce = reduce %1 dim=1 identities=[0.000000e+00 : f32] : tile<1x512xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %19 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %19 : tile<f32>
  }
  %reshape_18 = reshape %reduce : tile<1xf32> -> tile<1x1xf32>
  %4 = itof %assume_7 signed  : tile<i32> -> tile<f32>
  %reshape_19 = reshape %4 : tile<f32> -> tile<1x1xf32>
  %5 = divf %reshape_18, %reshape_19  : tile<1x1xf32>
  %bcast_20 = broadcast %5 : tile<1x1xf32> -> tile<1x512xf32>
  %6 = subf %1, %bcast_20  : tile<1x512xf32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32>
  %reshape_21 = reshape %cst_0_f32 : tile<f32> -> tile<1x1xf32>
  %bcast_22 = broadcast %reshape_21 : tile<1x1xf32> -> tile<1x512xf32>
  %7 = select %3, %6, %bcast_22 : tile<1x512xi1>, tile<1x512xf32>
  %8 = mulf %7, %7  : tile<1x512xf32>
  %reduce_23 = reduce %8 dim=1 identities=[0.000000e+00 : f32] : tile<1x512xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %19 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %19 : tile<f32>
  }
  %reshape_24 = reshape %reduce_23 : tile<1xf32> -> tile<1x1xf32>
  %9 = itof %assume_7 signed  : tile<i32> -> tile<f32>
  %reshape_25 = reshape %9 : tile<f32> -> tile<1x1xf32>
  %10 = divf %reshape_24, %reshape_25  : tile<1x1xf32>
  %reshape_26 = reshape %arg16 : tile<f32> -> tile<1x1xf32>
  %11 = addf %10, %reshape_26  : tile<1x1xf32>
  %12 = rsqrt %11 : tile<1x1xf32>
  %cst_0_i32_27 = constant <i32: 0> : tile<i32>
  %pview_28 = make_partition_view %tview_10 : partition_view<tile=(512), padding_value = zero, tensor_view<?xbf16, strides=[1]>>
  %tile_29, %result_token_30 = load_view_tko weak %pview_28[%cst_0_i32_27] token = %0 : partition_view<tile=(512), padding_value = zero, tensor_view<?xbf16, strides=[1]>>, tile<i32> -> tile<512xbf16>, token
  %13 = ftof %tile_29  : tile<512xbf16> -> tile<512xf32>
  %cst_0_i32_31 = constant <i32: 0> : tile<i32>
  %pview_32 = make_partition_view %tview_12 : partition_view<tile=(512), padding_value = zero, tensor_view<?xbf16, strides=[1]>>
  %tile_33, %result_token_34 = load_view_tko weak %pview_32[%cst_0_i32_31] token = %0 : partition_view<tile=(512), padding_value = zero, tensor_view<?xbf16, strides=[1]>>, tile<i32> -> tile<512xbf16>, token
  %14 = ftof %tile_33  : tile<512xbf16> -> tile<512xf32>
  %bcast_35 = broadcast %12 : tile<1x1xf32> -> tile<1x512xf32>
  %15 = mulf %7, %bcast_35  : tile<1x512xf32>
  %reshape_36 = reshape %13 : tile<512xf32> -> tile<1x512xf32>
  %reshape_37 = reshape %14 : tile<512xf32> -> tile<1x512xf32>
  %16 = fma %15, %reshape_36, %reshape_37  : tile<1x512xf32>
  %cst_0_i32_38 = constant <i32: 0> : tile<i32>
  %17 = ftof %16  : tile<1x512xf32> -> tile<1x512xbf16>
  %pview_39 = make_partition_view %tview_16 : partition_view<tile=(1x512), tensor_view<?x?xbf16, strides=[?,1]>>
  %18 = store_view_tko weak %17, %pview_39[%blockId_x, %cst_0_i32_38] token = %0 : tile<1x512xbf16>, partition_view<tile=(1x512), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> token
  return
}
