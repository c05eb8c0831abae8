entry @int_bitops_Kt1_A1i32_1t1_p16_A1i32_1t1_p16_Si32_I512(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<i32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_1 = constant <i32: 1> : tile<i32>
  %cst_255_i32 = constant <i32: 255> : tile<512xi32>
  %cst_2_i32 = constant <i32: 2> : tile<512xi32>
  %cst_3_i32 = constant <i32: 3> : tile<512xi32>
  %cst_7_i32 = constant <i32: 7> : tile<512xi32>
  %cst_15_i32 = constant <i32: 15> : tile<512xi32>
  %cst_0_i32 = constant <i32: 0> : tile<512xi32>
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %assume_3 = assume bounded<0, ?>, %arg4 : tile<i32>
  %tview_4 = make_tensor_view %assume_0, shape = [%assume_3], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(512), tensor_view<?xi32, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(512), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<512xi32>, token
  %1 = andi %tile, %cst_255_i32 : tile<512xi32>
  %2 = shli %1, %cst_2_i32 : tile<512xi32>
  %3 = shri %tile, %cst_3_i32 signed : tile<512xi32>
  %4 = xori %2, %3 : tile<512xi32>
  %5 = remi %tile, %cst_7_i32 signed : tile<512xi32>
  %cst_0_i32_5 = constant <i32: 0> : tile<512xi32>
  %6 = cmpi less_than %5, %cst_0_i32_5, signed : tile<512xi32> -> tile<512xi1>
  %7 = cmpi less_than %cst_7_i32, %cst_0_i32_5, signed : tile<512xi32> -> tile<512xi1>
  %8 = xori %6, %7 : tile<512xi1>
  %9 = cmpi not_equal %5, %cst_0_i32_5, signed : tile<512xi32> -> tile<512xi1>
  %10 = andi %8, %9 : tile<512xi1>
  %11 = addi %5, %cst_7_i32 : tile<512xi32>
  %12 = select %10, %11, %5 : tile<512xi1>, tile<512xi32>
  %reshape = reshape %arg6 : tile<i32> -> tile<1xi32>
  %bcast = broadcast %reshape : tile<1xi32> -> tile<512xi32>
  %13 = subi %12, %bcast : tile<512xi32>
  %reshape_6 = reshape %arg6 : tile<i32> -> tile<1xi32>
  %bcast_7 = broadcast %reshape_6 : tile<1xi32> -> tile<512xi32>
  %14 = cmpi greater_than %tile, %bcast_7, signed : tile<512xi32> -> tile<512xi1>
  %15 = select %14, %4, %13 : tile<512xi1>, tile<512xi32>
  %16 = andi %tile, %cst_15_i32 : tile<512xi32>
  %17 = cmpi equal %16, %cst_0_i32, signed : tile<512xi32> -> tile<512xi1>
  %cst_0_i32_8 = constant <i32: 0> : tile<512xi32>
  %18 = select %17, %cst_0_i32_8, %15 : tile<512xi1>, tile<512xi32>
  %pview_9 = make_partition_view %tview_4 : partition_view<tile=(512), tensor_view<?xi32, strides=[1]>>
  %19 = store_view_tko weak %18, %pview_9[%blockId_x] token = %0 : tile<512xi32>, partition_view<tile=(512), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
  return
}
