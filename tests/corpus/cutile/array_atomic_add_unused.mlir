entry @array_atomic_add_unused_Kt1_A1i32_1t1_p16_A1i32_1t1_p16_I64_I512(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i32>>, %arg4: tile<i32>, %arg5: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<i32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_63_i32 = constant <i32: 63> : tile<512xi32>
  %cst_1_i64 = constant <i64: 1> : tile<512xi64>
  %assume_1 = assume bounded<0, ?>, %arg1 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_1], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(512), padding_value = zero, tensor_view<?xi32, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(512), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<512xi32>, token
  %1 = andi %tile, %cst_63_i32 : tile<512xi32>
  %2 = exti %1 signed : tile<512xi32> -> tile<512xi64>
  %3 = exti %assume_2 signed : tile<i32> -> tile<i64>
  %reshape = reshape %3 : tile<i64> -> tile<1xi64>
  %bcast = broadcast %reshape : tile<1xi64> -> tile<512xi64>
  %4 = cmpi less_than %2, %bcast, unsigned : tile<512xi64> -> tile<512xi1>
  %5 = muli %2, %cst_1_i64 : tile<512xi64>
  %reshape_3 = reshape %assume_0 : tile<ptr<i32>> -> tile<1xptr<i32>>
  %bcast_4 = broadcast %reshape_3 : tile<1xptr<i32>> -> tile<512xptr<i32>>
  %6 = offset %bcast_4, %5 : tile<512xptr<i32>>, tile<512xi64> -> tile<512xptr<i32>>
  %result, %result_token_5 = atomic_rmw_tko relaxed device %6, add, %tile, %4 token=%0 : tile<512xptr<i32>>, tile<512xi32>, tile<512xi1> -> tile<512xi32>, token
  return
}
