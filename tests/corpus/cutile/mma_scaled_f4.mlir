entry @mma_scaled_f4_Kt1_A2u8_1l0_2t1_p16_A2f8m0fnu_1l0_2t1_p16_A2u8_1l0_2t1_p16_A2f8m0fnu_1l0_2t1_p16_A2f32_1l0_2t1_p16_I64_I64_I64(%arg0: tile<ptr<i8>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f8E8M0FNU>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<i8>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<ptr<f8E8M0FNU>>, %arg16: tile<i32>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<ptr<f32>>, %arg21: tile<i32>, %arg22: tile<i32>, %arg23: tile<i32>, %arg24: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<i8>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f8E8M0FNU>>
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<i8>>
  %assume_2 = assume div_by<16>, %arg15 : tile<ptr<f8E8M0FNU>>
  %assume_3 = assume div_by<16>, %arg20 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_4 = constant <i32: 1> : tile<i32>
  %cst_1_i32_5 = constant <i32: 1> : tile<i32>
  %cst_1_i32_6 = constant <i32: 1> : tile<i32>
  %cst_1_i32_7 = constant <i32: 1> : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_9 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_10 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_8, %assume_9], strides = [%assume_10, 1] : tile<i32> -> tensor_view<?x?xi8, strides=[?,1]>
  %assume_11 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_12 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_13 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_14 = make_tensor_view %assume_0, shape = [%assume_11, %assume_12], strides = [%assume_13, 1] : tile<i32> -> tensor_view<?x?xf8E8M0FNU, strides=[?,1]>
  %assume_15 = assume bounded<0, ?>, %arg11 : tile<i32>
  %assume_16 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_17 = assume bounded<0, ?>, %arg13 : tile<i32>
  %tview_18 = make_tensor_view %assume_1, shape = [%assume_15, %assume_16], strides = [%assume_17, 1] : tile<i32> -> tensor_view<?x?xi8, strides=[?,1]>
  %assume_19 = assume bounded<0, ?>, %arg16 : tile<i32>
  %assume_20 = assume bounded<0, ?>, %arg17 : tile<i32>
  %assume_21 = assume bounded<0, ?>, %arg18 : tile<i32>
  %tview_22 = make_tensor_view %assume_2, shape = [%assume_19, %assume_20], strides = [%assume_21, 1] : tile<i32> -> tensor_view<?x?xf8E8M0FNU, strides=[?,1]>
  %assume_23 = assume bounded<0, ?>, %arg21 : tile<i32>
  %assume_24 = assume bounded<0, ?>, %arg22 : tile<i32>
  %assume_25 = assume bounded<0, ?>, %arg23 : tile<i32>
  %tview_26 = make_tensor_view %assume_3, shape = [%assume_23, %assume_24], strides = [%assume_25, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_27, %blockId_y_28, %blockId_z_29 = get_tile_block_id : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(64x32), tensor_view<?x?xi8, strides=[?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(64x32), tensor_view<?x?xi8, strides=[?,1]>>, tile<i32> -> tile<64x32xi8>, token
  %cst_0_i32_30 = constant <i32: 0> : tile<i32>
  %pview_31 = make_partition_view %tview_18 : partition_view<tile=(64x32), tensor_view<?x?xi8, strides=[?,1]>>
  %tile_32, %result_token_33 = load_view_tko weak %pview_31[%blockId_y_28, %cst_0_i32_30] token = %0 : partition_view<tile=(64x32), tensor_view<?x?xi8, strides=[?,1]>>, tile<i32> -> tile<64x32xi8>, token
  %reshape = reshape %tile : tile<64x32xi8> -> tile<2048xi8>
  %1 = unpack %reshape : tile<2048xi8> -> tile<4096xf4E2M1FN>
  %reshape_34 = reshape %1 : tile<4096xf4E2M1FN> -> tile<64x64xf4E2M1FN>
  %reshape_35 = reshape %tile_32 : tile<64x32xi8> -> tile<2048xi8>
  %2 = unpack %reshape_35 : tile<2048xi8> -> tile<4096xf4E2M1FN>
  %reshape_36 = reshape %2 : tile<4096xf4E2M1FN> -> tile<64x64xf4E2M1FN>
  %cst_0_i32_37 = constant <i32: 0> : tile<i32>
  %pview_38 = make_partition_view %tview_14 : partition_view<tile=(64x4), tensor_view<?x?xf8E8M0FNU, strides=[?,1]>>
  %tile_39, %result_token_40 = load_view_tko weak %pview_38[%blockId_x, %cst_0_i32_37] token = %0 : partition_view<tile=(64x4), tensor_view<?x?xf8E8M0FNU, strides=[?,1]>>, tile<i32> -> tile<64x4xf8E8M0FNU>, token
  %cst_0_i32_41 = constant <i32: 0> : tile<i32>
  %pview_42 = make_partition_view %tview_22 : partition_view<tile=(4x64), tensor_view<?x?xf8E8M0FNU, strides=[?,1]>>
  %tile_43, %result_token_44 = load_view_tko weak %pview_42[%cst_0_i32_41, %blockId_y_28] token = %0 : partition_view<tile=(4x64), tensor_view<?x?xf8E8M0FNU, strides=[?,1]>>, tile<i32> -> tile<4x64xf8E8M0FNU>, token
  %3 = permute %reshape_36 [1, 0] : tile<64x64xf4E2M1FN> -> tile<64x64xf4E2M1FN>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<64x64xf32>
  %4 = mmaf_scaled %reshape_34, %3, %cst_0_f32, %tile_39, %tile_43 : tile<64x64xf4E2M1FN>, tile<64x64xf4E2M1FN>, tile<64x64xf32>, tile<64x4xf8E8M0FNU>, tile<4x64xf8E8M0FNU>
  %pview_45 = make_partition_view %tview_26 : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>
  %5 = store_view_tko weak %4, %pview_45[%blockId_x, %blockId_y_28] token = %0 : tile<64x64xf32>, partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}
