entry @argmax_argmin_cols_Kt1_A2f32_1l0_2t1_p16_A2i32_1l0_2t1_p16_A2i32_1l0_2t1_p16_I16_I64(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<i32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<i32>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<i32>>
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<i32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_2 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_9 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_7, %assume_8], strides = [%assume_9, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]>
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32>
  %assume_12 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_13 = assume bounded<0, ?>, %arg13 : tile<i32>
  %tview_14 = make_tensor_view %assume_1, shape = [%assume_11, %assume_12], strides = [%assume_13, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]>
  %cst_16_i32 = constant <i32: 16> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_15, %blockId_y_16, %blockId_z_17 = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(16x64), tensor_view<?x?xf32, strides=[?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y_16] token = %0 : partition_view<tile=(16x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<16x64xf32>, token
  %1 = iota : tile<16xi32>
  %reshape = reshape %1 : tile<16xi32> -> tile<16x1xi32>
  %bcast = broadcast %reshape : tile<16x1xi32> -> tile<16x64xi32>
  %reduce:2 = reduce %tile, %bcast dim=0 identities=[0xFF800000 : f32, 0 : i32] : tile<16x64xf32>, tile<16x64xi32> -> tile<64xf32>, tile<64xi32> 
  (%reduce_lhs0: tile<f32>, %reduce_rhs0: tile<f32>, %reduce_lhs1: tile<i32>, %reduce_rhs1: tile<i32>) {
    %9 = cmpf greater_than ordered %reduce_lhs0, %reduce_rhs0 : tile<f32> -> tile<i1>
    %10 = cmpf equal ordered %reduce_lhs0, %reduce_rhs0 : tile<f32> -> tile<i1>
    %11 = cmpf not_equal unordered %reduce_lhs0, %reduce_lhs0 : tile<f32> -> tile<i1>
    %12 = cmpf not_equal unordered %reduce_rhs0, %reduce_rhs0 : tile<f32> -> tile<i1>
    %13 = cmpf equal ordered %reduce_lhs0, %reduce_lhs0 : tile<f32> -> tile<i1>
    %14 = andi %13, %12 : tile<i1>
    %15 = ori %9, %14 : tile<i1>
    %16 = andi %11, %12 : tile<i1>
    %17 = ori %10, %16 : tile<i1>
    %18 = cmpi less_than %reduce_lhs1, %reduce_rhs1, signed : tile<i32> -> tile<i1>
    %19 = andi %17, %18 : tile<i1>
    %20 = ori %15, %19 : tile<i1>
    %21 = select %20, %reduce_lhs0, %reduce_rhs0 : tile<i1>, tile<f32>
    %22 = select %20, %reduce_lhs1, %reduce_rhs1 : tile<i1>, tile<i32>
    yield %21, %22 : tile<f32>, tile<i32>
  }
  %2 = muli %blockId_x, %cst_16_i32 : tile<i32>
  %reshape_18 = reshape %2 : tile<i32> -> tile<1xi32>
  %bcast_19 = broadcast %reshape_18 : tile<1xi32> -> tile<64xi32>
  %3 = addi %reduce#1, %bcast_19 : tile<64xi32>
  %reshape_20 = reshape %3 : tile<64xi32> -> tile<1x64xi32>
  %pview_21 = make_partition_view %tview_10 : partition_view<tile=(1x64), tensor_view<?x?xi32, strides=[?,1]>>
  %4 = store_view_tko weak %reshape_20, %pview_21[%blockId_x, %blockId_y_16] token = %0 : tile<1x64xi32>, partition_view<tile=(1x64), tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> token
  %5 = iota : tile<16xi32>
  %reshape_22 = reshape %5 : tile<16xi32> -> tile<16x1xi32>
  %bcast_23 = broadcast %reshape_22 : tile<16x1xi32> -> tile<16x64xi32>
  %reduce_24:2 = reduce %tile, %bcast_23 dim=0 identities=[0x7F800000 : f32, 0 : i32] : tile<16x64xf32>, tile<16x64xi32> -> tile<64xf32>, tile<64xi32> 
  (%reduce_lhs0: tile<f32>, %reduce_rhs0: tile<f32>, %reduce_lhs1: tile<i32>, %reduce_rhs1: tile<i32>) {
    %9 = cmpf less_than ordered %reduce_lhs0, %reduce_rhs0 : tile<f32> -> tile<i1>
    %10 = cmpf equal ordered %reduce_lhs0, %reduce_rhs0 : tile<f32> -> tile<i1>
    %11 = cmpf not_equal unordered %reduce_lhs0, %reduce_lhs0 : tile<f32> -> tile<i1>
    %12 = cmpf not_equal unordered %reduce_rhs0, %reduce_rhs0 : tile<f32> -> tile<i1>
    %13 = cmpf equal ordered %reduce_lhs0, %reduce_lhs0 : tile<f32> -> tile<i1>
    %14 = andi %13, %12 : tile<i1>
    %15 = ori %9, %14 : tile<i1>
    %16 = andi %11, %12 : tile<i1>
    %17 = ori %10, %16 : tile<i1>
    %18 = cmpi less_than %reduce_lhs1, %reduce_rhs1, signed : tile<i32> -> tile<i1>
    %19 = andi %17, %18 : tile<i1>
    %20 = ori %15, %19 : tile<i1>
    %21 = select %20, %reduce_lhs0, %reduce_rhs0 : tile<i1>, tile<f32>
    %22 = select %20, %reduce_lhs1, %reduce_rhs1 : tile<i1>, tile<i32>
    yield %21, %22 : tile<f32>, tile<i32>
  }
  %6 = muli %blockId_x, %cst_16_i32 : tile<i32>
  %reshape_25 = reshape %6 : tile<i32> -> tile<1xi32>
  %bcast_26 = broadcast %reshape_25 : tile<1xi32> -> tile<64xi32>
  %7 = addi %reduce_24#1, %bcast_26 : tile<64xi32>
  %reshape_27 = reshape %7 : tile<64xi32> -> tile<1x64xi32>
  %pview_28 = make_partition_view %tview_14 : partition_view<tile=(1x64), tensor_view<?x?xi32, strides=[?,1]>>
  %8 = store_view_tko weak %reshape_27, %pview_28[%blockId_x, %blockId_y_16] token = %0 : tile<1x64xi32>, partition_view<tile=(1x64), tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> token
  return
}
