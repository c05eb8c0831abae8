entry @pack_unpack_bytes_Kt1_A1f32_1t1_p16_A1u8_1t1_p16_A1i32_1t1_p16_I128(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i8>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<i8>>
  %assume_1 = assume div_by<16>, %arg6 : tile<ptr<i32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_2 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_4], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_5 = assume bounded<0, ?>, %arg4 : tile<i32>
  %tview_6 = make_tensor_view %assume_0, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xi8, strides=[1]>
  %assume_7 = assume bounded<0, ?>, %arg7 : tile<i32>
  %tview_8 = make_tensor_view %assume_1, shape = [%assume_7], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %1 = pack %tile : tile<128xf32> -> tile<512xi8>
  %pview_9 = make_partition_view %tview_6 : partition_view<tile=(512), tensor_view<?xi8, strides=[1]>>
  %2 = store_view_tko weak %1, %pview_9[%blockId_x] token = %0 : tile<512xi8>, partition_view<tile=(512), tensor_view<?xi8, strides=[1]>>, tile<i32> -> token
  %reshape = reshape %1 : tile<512xi8> -> tile<128x4xi8>
  %3 = permute %reshape [1, 0] : tile<128x4xi8> -> tile<4x128xi8>
  %cst_3_i32 = constant <i32: 3> : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %4 = extract %3[%cst_3_i32, %cst_0_i32] : tile<4x128xi8> -> tile<1x128xi8>
  %cst_2_i32 = constant <i32: 2> : tile<i32>
  %cst_0_i32_10 = constant <i32: 0> : tile<i32>
  %5 = extract %3[%cst_2_i32, %cst_0_i32_10] : tile<4x128xi8> -> tile<1x128xi8>
  %6 = cat %4, %5 dim = 0 : tile<1x128xi8>, tile<1x128xi8> -> tile<2x128xi8>
  %cst_1_i32_11 = constant <i32: 1> : tile<i32>
  %cst_0_i32_12 = constant <i32: 0> : tile<i32>
  %7 = extract %3[%cst_1_i32_11, %cst_0_i32_12] : tile<4x128xi8> -> tile<1x128xi8>
  %cst_0_i32_13 = constant <i32: 0> : tile<i32>
  %cst_0_i32_14 = constant <i32: 0> : tile<i32>
  %8 = extract %3[%cst_0_i32_13, %cst_0_i32_14] : tile<4x128xi8> -> tile<1x128xi8>
  %9 = cat %7, %8 dim = 0 : tile<1x128xi8>, tile<1x128xi8> -> tile<2x128xi8>
  %10 = cat %6, %9 dim = 0 : tile<2x128xi8>, tile<2x128xi8> -> tile<4x128xi8>
  %11 = permute %10 [1, 0] : tile<4x128xi8> -> tile<128x4xi8>
  %reshape_15 = reshape %11 : tile<128x4xi8> -> tile<512xi8>
  %12 = unpack %reshape_15 : tile<512xi8> -> tile<128xi32>
  %pview_16 = make_partition_view %tview_8 : partition_view<tile=(128), tensor_view<?xi32, strides=[1]>>
  %13 = store_view_tko weak %12, %pview_16[%blockId_x] token = %0 : tile<128xi32>, partition_view<tile=(128), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
  return
}
