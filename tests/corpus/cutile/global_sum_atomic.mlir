entry @global_sum_atomic_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1i32_1t1_p16_I1024(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f32>>
  %assume_1 = assume div_by<16>, %arg6 : tile<ptr<i32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i64 = constant <i64: 1> : tile<i64>
  %cst_1_i64_2 = constant <i64: 1> : tile<i64>
  %assume_3 = assume bounded<0, ?>, %arg1 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_3], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_4 = assume bounded<0, ?>, %arg4 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token
  %1 = join_tokens %0, %result_token : token
  %reduce = reduce %tile dim=0 identities=[0.000000e+00 : f32] : tile<1024xf32> -> tile<f32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %12 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %12 : tile<f32>
  }
  %cst_0_i64 = constant <i64: 0> : tile<i64>
  %2 = exti %assume_4 signed : tile<i32> -> tile<i64>
  %3 = cmpi less_than %cst_0_i64, %2, unsigned : tile<i64> -> tile<i1>
  %4 = muli %cst_0_i64, %cst_1_i64 : tile<i64>
  %5 = offset %assume_0, %4 : tile<ptr<f32>>, tile<i64> -> tile<ptr<f32>>
  %result, %result_token_6 = atomic_rmw_tko relaxed device %5, addf, %reduce, %3 token=%0 : tile<ptr<f32>>, tile<f32>, tile<i1> -> tile<f32>, token
  %reduce_7 = reduce %tile dim=0 identities=[0xFF800000 : f32] : tile<1024xf32> -> tile<f32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %12 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
    yield %12 : tile<f32>
  }
  %6 = ftoi %reduce_7 signed  : tile<f32> -> tile<i32>
  %cst_0_i64_8 = constant <i64: 0> : tile<i64>
  %7 = exti %assume_5 signed : tile<i32> -> tile<i64>
  %8 = cmpi less_than %cst_0_i64_8, %7, unsigned : tile<i64> -> tile<i1>
  %9 = muli %cst_0_i64_8, %cst_1_i64_2 : tile<i64>
  %10 = offset %assume_1, %9 : tile<ptr<i32>>, tile<i64> -> tile<ptr<i32>>
  %11 = join_tokens %0, %1, %result_token_6 : token
  %result_9, %result_token_10 = atomic_rmw_tko acq_rel device %10, max, %6, %8 token=%11 : tile<ptr<i32>>, tile<i32>, tile<i1> -> tile<i32>, token
  return
}
