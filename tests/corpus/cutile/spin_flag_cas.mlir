entry @spin_flag_cas_Kt1_A1i32_1t1_p16_A1i32_1t1_p16_I128(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i32>>, %arg4: tile<i32>, %arg5: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<i32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i64 = constant <i64: 1> : tile<128xi64>
  %cst_0_i32 = constant <i32: 0> : tile<128xi32>
  %assume_1 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
  %tview = make_tensor_view %assume_0, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %cst_128_i32 = constant <i32: 128> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %1 = iota : tile<128xi32>
  %2 = muli %blockId_x, %cst_128_i32 : tile<i32>
  %reshape = reshape %2 : tile<i32> -> tile<1xi32>
  %bcast = broadcast %reshape : tile<1xi32> -> tile<128xi32>
  %3 = addi %1, %bcast : tile<128xi32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %4 = addi %blockId_x, %cst_1_i32_3 : tile<i32>
  %5 = exti %3 signed : tile<128xi32> -> tile<128xi64>
  %6 = exti %assume_1 signed : tile<i32> -> tile<i64>
  %reshape_4 = reshape %6 : tile<i64> -> tile<1xi64>
  %bcast_5 = broadcast %reshape_4 : tile<1xi64> -> tile<128xi64>
  %7 = cmpi less_than %5, %bcast_5, unsigned : tile<128xi64> -> tile<128xi1>
  %8 = muli %5, %cst_1_i64 : tile<128xi64>
  %reshape_6 = reshape %assume : tile<ptr<i32>> -> tile<1xptr<i32>>
  %bcast_7 = broadcast %reshape_6 : tile<1xptr<i32>> -> tile<128xptr<i32>>
  %9 = offset %bcast_7, %8 : tile<128xptr<i32>>, tile<128xi64> -> tile<128xptr<i32>>
  %reshape_8 = reshape %4 : tile<i32> -> tile<1xi32>
  %bcast_9 = broadcast %reshape_8 : tile<1xi32> -> tile<128xi32>
  %result, %result_token = atomic_cas_tko acq_rel device %9, %cst_0_i32, %bcast_9, %7 token=%0 : tile<128xptr<i32>>, tile<128xi32>, tile<128xi1> -> tile<128xi32>, token
  %pview = make_partition_view %tview : partition_view<tile=(128), tensor_view<?xi32, strides=[1]>>
  %10 = join_tokens %0, %result_token : token
  %11 = store_view_tko weak %result, %pview[%blockId_x] token = %10 : tile<128xi32>, partition_view<tile=(128), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
  return
}
