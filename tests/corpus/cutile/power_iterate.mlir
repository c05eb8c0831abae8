entry @power_iterate_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_Si32_I256(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_1 = constant <i32: 1> : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_3 = assume bounded<0, ?>, %arg4 : tile<i32>
  %tview_4 = make_tensor_view %assume_0, shape = [%assume_3], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32_5 = constant <i32: 1> : tile<i32>
  %cst_f32 = constant <f32: 5.000000e-01> : tile<f32>
  %reshape = reshape %cst_f32 : tile<f32> -> tile<1xf32>
  %bcast = broadcast %reshape : tile<1xf32> -> tile<256xf32>
  %cst_f32_6 = constant <f32: 2.500000e-01> : tile<f32>
  %reshape_7 = reshape %cst_f32_6 : tile<f32> -> tile<1xf32>
  %bcast_8 = broadcast %reshape_7 : tile<1xf32> -> tile<256xf32>
  %for = for %loopIdx in (%cst_0_i32 to %arg6, step %cst_1_i32_5) : tile<i32> iter_values(%iterArg0 = %tile) -> (tile<256xf32>) {
    %9 = mulf %iterArg0, %iterArg0  : tile<256xf32>
    %10 = fma %9, %bcast, %bcast_8  : tile<256xf32>
    continue %10 : tile<256xf32>
  }
  %cst_2_i32 = constant <i32: 2> : tile<i32>
  %1 = remi %blockId_x, %cst_2_i32 signed : tile<i32>
  %cst_0_i32_9 = constant <i32: 0> : tile<i32>
  %2 = cmpi less_than %1, %cst_0_i32_9, signed : tile<i32> -> tile<i1>
  %false = constant <i1: false> : tile<i1>
  %3 = xori %2, %false : tile<i1>
  %4 = cmpi not_equal %1, %cst_0_i32_9, signed : tile<i32> -> tile<i1>
  %5 = andi %3, %4 : tile<i1>
  %6 = addi %1, %cst_2_i32 : tile<i32>
  %7 = select %5, %6, %1 : tile<i1>, tile<i32>
  %cst_0_i32_10 = constant <i32: 0> : tile<i32>
  %8 = cmpi equal %7, %cst_0_i32_10, signed : tile<i32> -> tile<i1>
  if %8 {
    %pview_11 = make_partition_view %tview_4 : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>
    %9 = store_view_tko weak %for, %pview_11[%blockId_x] token = %0 : tile<256xf32>, partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  } else {
    %9 = negf %for : tile<256xf32>
    %pview_11 = make_partition_view %tview_4 : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>
    %10 = store_view_tko weak %9, %pview_11[%blockId_x] token = %0 : tile<256xf32>, partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  }
  return
}
