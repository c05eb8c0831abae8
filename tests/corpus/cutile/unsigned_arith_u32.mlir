entry @unsigned_arith_u32_Kt1_A1u32_1t1_p16_A1u32_1t1_p16_A1u32_1t1_p16_A1i32_1t1_p16_A1u8_1t1_p16_I256(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<ptr<i32>>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<ptr<i8>>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<i32>>
  %assume_1 = assume div_by<16>, %arg6 : tile<ptr<i32>>
  %assume_2 = assume div_by<16>, %arg9 : tile<ptr<i32>>
  %assume_3 = assume div_by<16>, %arg12 : tile<ptr<i8>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_4 = constant <i32: 1> : tile<i32>
  %cst_1_i32_5 = constant <i32: 1> : tile<i32>
  %cst_1_i32_6 = constant <i32: 1> : tile<i32>
  %cst_1_i32_7 = constant <i32: 1> : tile<i32>
  %cst_1_i32_8 = constant <i32: 1> : tile<256xi32>
  %cst_3_i32 = constant <i32: 3> : tile<256xi32>
  %cst_2_i32 = constant <i32: 2> : tile<256xi32>
  %cst_7_i32 = constant <i32: 7> : tile<256xi32>
  %cst_255_i32 = constant <i32: 255> : tile<256xi32>
  %cst_255_i32_9 = constant <i32: 255> : tile<256xi32>
  %cst_3_i8 = constant <i8: 3> : tile<256xi8>
  %cst_5_i8 = constant <i8: 5> : tile<256xi8>
  %assume_10 = assume bounded<0, ?>, %arg1 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_10], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %assume_11 = assume bounded<0, ?>, %arg4 : tile<i32>
  %tview_12 = make_tensor_view %assume_0, shape = [%assume_11], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %assume_13 = assume bounded<0, ?>, %arg7 : tile<i32>
  %tview_14 = make_tensor_view %assume_1, shape = [%assume_13], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %assume_15 = assume bounded<0, ?>, %arg10 : tile<i32>
  %tview_16 = make_tensor_view %assume_2, shape = [%assume_15], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %assume_17 = assume bounded<0, ?>, %arg13 : tile<i32>
  %tview_18 = make_tensor_view %assume_3, shape = [%assume_17], strides = [1] : tile<i32> -> tensor_view<?xi8, strides=[1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(256), tensor_view<?xi32, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(256), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<256xi32>, token
  %pview_19 = make_partition_view %tview_12 : partition_view<tile=(256), tensor_view<?xi32, strides=[1]>>
  %tile_20, %result_token_21 = load_view_tko weak %pview_19[%blockId_x] token = %0 : partition_view<tile=(256), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<256xi32>, token
  %1 = muli %tile, %tile_20 : tile<256xi32>
  %2 = addi %1, %tile : tile<256xi32>
  %3 = ori %tile_20, %cst_1_i32_8 : tile<256xi32>
  %4 = divi %2, %3 unsigned rounding<positive_inf> : tile<256xi32>
  %5 = shri %tile, %cst_3_i32 unsigned : tile<256xi32>
  %6 = addi %4, %5 : tile<256xi32>
  %7 = shli %tile_20, %cst_2_i32 : tile<256xi32>
  %8 = addi %6, %7 : tile<256xi32>
  %9 = remi %tile, %cst_7_i32 unsigned : tile<256xi32>
  %cst_0_i32 = constant <i32: 0> : tile<256xi32>
  %10 = cmpi less_than %9, %cst_0_i32, unsigned : tile<256xi32> -> tile<256xi1>
  %11 = cmpi less_than %cst_7_i32, %cst_0_i32, unsigned : tile<256xi32> -> tile<256xi1>
  %12 = xori %10, %11 : tile<256xi1>
  %13 = cmpi not_equal %9, %cst_0_i32, unsigned : tile<256xi32> -> tile<256xi1>
  %14 = andi %12, %13 : tile<256xi1>
  %15 = addi %9, %cst_7_i32 : tile<256xi32>
  %16 = select %14, %15, %9 : tile<256xi1>, tile<256xi32>
  %17 = subi %8, %16 : tile<256xi32>
  %pview_22 = make_partition_view %tview_14 : partition_view<tile=(256), tensor_view<?xi32, strides=[1]>>
  %18 = store_view_tko weak %17, %pview_22[%blockId_x] token = %0 : tile<256xi32>, partition_view<tile=(256), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
  %19 = cmpi greater_than %tile, %tile_20, unsigned : tile<256xi32> -> tile<256xi1>
  %20 = exti %19 unsigned : tile<256xi1> -> tile<256xi32>
  %pview_23 = make_partition_view %tview_16 : partition_view<tile=(256), tensor_view<?xi32, strides=[1]>>
  %21 = store_view_tko weak %20, %pview_23[%blockId_x] token = %0 : tile<256xi32>, partition_view<tile=(256), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
  %22 = andi %tile, %cst_255_i32 : tile<256xi32>
  %23 = trunci %22 : tile<256xi32> -> tile<256xi8>
  %24 = andi %tile_20, %cst_255_i32_9 : tile<256xi32>
  %25 = trunci %24 : tile<256xi32> -> tile<256xi8>
  %26 = muli %23, %cst_3_i8 : tile<256xi8>
  %27 = divi %25, %cst_5_i8 unsigned rounding<positive_inf> : tile<256xi8>
  %28 = addi %26, %27 : tile<256xi8>
  %pview_24 = make_partition_view %tview_18 : partition_view<tile=(256), tensor_view<?xi8, strides=[1]>>
  %29 = store_view_tko weak %28, %pview_24[%blockId_x] token = %0 : tile<256xi8>, partition_view<tile=(256), tensor_view<?xi8, strides=[1]>>, tile<i32> -> token
  return
}
