entry @copy_with_hints_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_I512(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>) optimization_hints=<default = {}> {
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
  %pview = make_partition_view %tview : partition_view<tile=(512), tensor_view<?xf32, strides=[1]>>
  %tile, %result_token = load_view_tko acquire device %pview[%blockId_x] token = %0 optimization_hints = <default = {allow_tma = false, latency = 8}> : partition_view<tile=(512), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<512xf32>, token
  %1 = join_tokens %0, %result_token : token
  %cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32>
  %reshape = reshape %cst_1_f32 : tile<f32> -> tile<1xf32>
  %bcast = broadcast %reshape : tile<1xf32> -> tile<512xf32>
  %2 = addf %tile, %bcast  : tile<512xf32>
  %pview_5 = make_partition_view %tview_4 : partition_view<tile=(512), tensor_view<?xf32, strides=[1]>>
  %3 = join_tokens %0, %1, %result_token : token
  %4 = store_view_tko release device %2, %pview_5[%blockId_x] token = %3 optimization_hints = <default = {latency = 2}> : tile<512xf32>, partition_view<tile=(512), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  return
}
