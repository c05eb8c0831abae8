#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[0, 1], [0, 2], [16, 0], [32, 0]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>
#linear2 = #ttg.linear<{register = [[0, 1], [0, 2], [8, 0], [16, 0]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [1, 0]], warp = [[2, 0], [4, 0]], block = []}>
#linear3 = #ttg.linear<{register = [[0, 1], [0, 2], [8, 0], [16, 0], [32, 0]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [1, 0]], warp = [[2, 0], [4, 0]], block = []}>
#linear4 = #ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []}>
#linear5 = #ttg.linear<{register = [[0, 1], [0, 2], [16, 0]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>
#linear6 = #ttg.linear<{register = [[0, 1], [8, 0], [0, 16]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [0, 8]], block = []}>
#linear7 = #ttg.linear<{register = [[0, 1], [8, 0], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [0, 8]], block = []}>
#linear8 = #ttg.linear<{register = [[0, 0, 1], [0, 0, 2], [0, 16, 0], [1, 0, 0], [2, 0, 0]], lane = [[0, 0, 4], [0, 0, 8], [0, 0, 16], [0, 1, 0], [0, 2, 0]], warp = [[0, 4, 0], [0, 8, 0]], block = []}>
#linear9 = #ttg.linear<{register = [[0, 0, 1], [0, 0, 2], [2, 0, 0]], lane = [[0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0]], warp = [[0, 16, 0], [1, 0, 0]], block = []}>
#linear10 = #ttg.linear<{register = [[0, 0, 1], [0, 8, 0], [2, 0, 0]], lane = [[0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]], warp = [[0, 16, 0], [1, 0, 0]], block = []}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#smem = #ttg.shared_memory
cuda_tile.module @examples {
  entry @mma_f16_f32(%arg0: tile<ptr<f16>, #linear>, %arg1: tile<ptr<f16>, #linear>, %arg2: tile<ptr<f32>, #linear>, %arg3: tile<ptr<f32>, #linear>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %tview = make_tensor_view %arg0, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf16, strides=[32,1]>
    %pview = make_partition_view %tview : partition_view<tile=(64x32), tensor_view<64x32xf16, strides=[32,1]>>
    %tile, %result_token = load_view_tko weak %pview[%cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(64x32), tensor_view<64x32xf16, strides=[32,1]>>, tile<i32, #linear> -> tile<64x32xf16, #linear1>, token
    %tview_0 = make_tensor_view %arg1, shape = [32, 64], strides = [64, 1] : tensor_view<32x64xf16, strides=[64,1]>
    %pview_1 = make_partition_view %tview_0 : partition_view<tile=(32x64), tensor_view<32x64xf16, strides=[64,1]>>
    %tile_2, %result_token_3 = load_view_tko weak %pview_1[%cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(32x64), tensor_view<32x64xf16, strides=[64,1]>>, tile<i32, #linear> -> tile<32x64xf16, #linear2>, token
    %tview_4 = make_tensor_view %arg2, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
    %pview_5 = make_partition_view %tview_4 : partition_view<tile=(64x64), tensor_view<64x64xf32, strides=[64,1]>>
    %tile_6, %result_token_7 = load_view_tko weak %pview_5[%cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(64x64), tensor_view<64x64xf32, strides=[64,1]>>, tile<i32, #linear> -> tile<64x64xf32, #linear3>, token
    %1 = mmaf %tile, %tile_2, %tile_6 : tile<64x32xf16, #linear1>, tile<32x64xf16, #linear2>, tile<64x64xf32, #linear3>
    %tview_8 = make_tensor_view %arg3, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
    %pview_9 = make_partition_view %tview_8 : partition_view<tile=(64x64), tensor_view<64x64xf32, strides=[64,1]>>
    %2 = ttg.local_alloc %1 : (tile<64x64xf32, #linear4>) -> !ttg.memdesc<64x64xf32, #shared, #smem>
    ttg.barrier local
    %3 = ttg.local_load %2 : !ttg.memdesc<64x64xf32, #shared, #smem> -> tile<64x64xf32, #linear3>
    ttg.local_dealloc %2 : !ttg.memdesc<64x64xf32, #shared, #smem>
    %4 = store_view_tko weak %3, %pview_9[%cst_0_i32, %cst_0_i32] token = %0 : tile<64x64xf32, #linear3>, partition_view<tile=(64x64), tensor_view<64x64xf32, strides=[64,1]>>, tile<i32, #linear> -> token
    return
  }
  entry @mma_f16_f16(%arg0: tile<ptr<f16>, #linear>, %arg1: tile<ptr<f16>, #linear>, %arg2: tile<ptr<f16>, #linear>, %arg3: tile<ptr<f16>, #linear>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %tview = make_tensor_view %arg0, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf16, strides=[32,1]>
    %pview = make_partition_view %tview : partition_view<tile=(32x32), tensor_view<32x32xf16, strides=[32,1]>>
    %tile, %result_token = load_view_tko weak %pview[%cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(32x32), tensor_view<32x32xf16, strides=[32,1]>>, tile<i32, #linear> -> tile<32x32xf16, #linear5>, token
    %tview_0 = make_tensor_view %arg1, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf16, strides=[32,1]>
    %pview_1 = make_partition_view %tview_0 : partition_view<tile=(32x32), tensor_view<32x32xf16, strides=[32,1]>>
    %tile_2, %result_token_3 = load_view_tko weak %pview_1[%cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(32x32), tensor_view<32x32xf16, strides=[32,1]>>, tile<i32, #linear> -> tile<32x32xf16, #linear5>, token
    %tview_4 = make_tensor_view %arg2, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf16, strides=[32,1]>
    %pview_5 = make_partition_view %tview_4 : partition_view<tile=(32x32), tensor_view<32x32xf16, strides=[32,1]>>
    %tile_6, %result_token_7 = load_view_tko weak %pview_5[%cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(32x32), tensor_view<32x32xf16, strides=[32,1]>>, tile<i32, #linear> -> tile<32x32xf16, #linear5>, token
    %1 = mmaf %tile, %tile_2, %tile_6 : tile<32x32xf16, #linear5>, tile<32x32xf16, #linear5>, tile<32x32xf16, #linear5>
    %tview_8 = make_tensor_view %arg3, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf16, strides=[32,1]>
    %pview_9 = make_partition_view %tview_8 : partition_view<tile=(32x32), tensor_view<32x32xf16, strides=[32,1]>>
    %2 = ttg.local_alloc %1 : (tile<32x32xf16, #linear6>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    ttg.barrier local
    %3 = ttg.local_load %2 : !ttg.memdesc<32x32xf16, #shared, #smem> -> tile<32x32xf16, #linear5>
    ttg.local_dealloc %2 : !ttg.memdesc<32x32xf16, #shared, #smem>
    %4 = store_view_tko weak %3, %pview_9[%cst_0_i32, %cst_0_i32] token = %0 : tile<32x32xf16, #linear5>, partition_view<tile=(32x32), tensor_view<32x32xf16, strides=[32,1]>>, tile<i32, #linear> -> token
    return
  }
  entry @mma_bf16_f32(%arg0: tile<ptr<bf16>, #linear>, %arg1: tile<ptr<bf16>, #linear>, %arg2: tile<ptr<f32>, #linear>, %arg3: tile<ptr<f32>, #linear>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %tview = make_tensor_view %arg0, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xbf16, strides=[32,1]>
    %pview = make_partition_view %tview : partition_view<tile=(32x32), tensor_view<32x32xbf16, strides=[32,1]>>
    %tile, %result_token = load_view_tko weak %pview[%cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(32x32), tensor_view<32x32xbf16, strides=[32,1]>>, tile<i32, #linear> -> tile<32x32xbf16, #linear5>, token
    %tview_0 = make_tensor_view %arg1, shape = [32, 64], strides = [64, 1] : tensor_view<32x64xbf16, strides=[64,1]>
    %pview_1 = make_partition_view %tview_0 : partition_view<tile=(32x64), tensor_view<32x64xbf16, strides=[64,1]>>
    %tile_2, %result_token_3 = load_view_tko weak %pview_1[%cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(32x64), tensor_view<32x64xbf16, strides=[64,1]>>, tile<i32, #linear> -> tile<32x64xbf16, #linear2>, token
    %tview_4 = make_tensor_view %arg2, shape = [32, 64], strides = [64, 1] : tensor_view<32x64xf32, strides=[64,1]>
    %pview_5 = make_partition_view %tview_4 : partition_view<tile=(32x64), tensor_view<32x64xf32, strides=[64,1]>>
    %tile_6, %result_token_7 = load_view_tko weak %pview_5[%cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(32x64), tensor_view<32x64xf32, strides=[64,1]>>, tile<i32, #linear> -> tile<32x64xf32, #linear2>, token
    %1 = mmaf %tile, %tile_2, %tile_6 : tile<32x32xbf16, #linear5>, tile<32x64xbf16, #linear2>, tile<32x64xf32, #linear2>
    %tview_8 = make_tensor_view %arg3, shape = [32, 64], strides = [64, 1] : tensor_view<32x64xf32, strides=[64,1]>
    %pview_9 = make_partition_view %tview_8 : partition_view<tile=(32x64), tensor_view<32x64xf32, strides=[64,1]>>
    %2 = ttg.local_alloc %1 : (tile<32x64xf32, #linear7>) -> !ttg.memdesc<32x64xf32, #shared, #smem>
    ttg.barrier local
    %3 = ttg.local_load %2 : !ttg.memdesc<32x64xf32, #shared, #smem> -> tile<32x64xf32, #linear2>
    ttg.local_dealloc %2 : !ttg.memdesc<32x64xf32, #shared, #smem>
    %4 = store_view_tko weak %3, %pview_9[%cst_0_i32, %cst_0_i32] token = %0 : tile<32x64xf32, #linear2>, partition_view<tile=(32x64), tensor_view<32x64xf32, strides=[64,1]>>, tile<i32, #linear> -> token
    return
  }
  entry @mma_tf32_f32(%arg0: tile<ptr<f32>, #linear>, %arg1: tile<ptr<f32>, #linear>, %arg2: tile<ptr<f32>, #linear>, %arg3: tile<ptr<f32>, #linear>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %tview = make_tensor_view %arg0, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf32, strides=[32,1]>
    %pview = make_partition_view %tview : partition_view<tile=(32x32), tensor_view<32x32xf32, strides=[32,1]>>
    %tile, %result_token = load_view_tko weak %pview[%cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(32x32), tensor_view<32x32xf32, strides=[32,1]>>, tile<i32, #linear> -> tile<32x32xf32, #linear5>, token
    %tview_0 = make_tensor_view %arg1, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf32, strides=[32,1]>
    %pview_1 = make_partition_view %tview_0 : partition_view<tile=(32x32), tensor_view<32x32xf32, strides=[32,1]>>
    %tile_2, %result_token_3 = load_view_tko weak %pview_1[%cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(32x32), tensor_view<32x32xf32, strides=[32,1]>>, tile<i32, #linear> -> tile<32x32xf32, #linear5>, token
    %tview_4 = make_tensor_view %arg2, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf32, strides=[32,1]>
    %pview_5 = make_partition_view %tview_4 : partition_view<tile=(32x32), tensor_view<32x32xf32, strides=[32,1]>>
    %tile_6, %result_token_7 = load_view_tko weak %pview_5[%cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(32x32), tensor_view<32x32xf32, strides=[32,1]>>, tile<i32, #linear> -> tile<32x32xf32, #linear5>, token
    %1 = ftof %tile  : tile<32x32xf32, #linear5> -> tile<32x32xtf32, #linear5>
    %2 = ftof %tile_2  : tile<32x32xf32, #linear5> -> tile<32x32xtf32, #linear5>
    %3 = mmaf %1, %2, %tile_6 : tile<32x32xtf32, #linear5>, tile<32x32xtf32, #linear5>, tile<32x32xf32, #linear5>
    %tview_8 = make_tensor_view %arg3, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf32, strides=[32,1]>
    %pview_9 = make_partition_view %tview_8 : partition_view<tile=(32x32), tensor_view<32x32xf32, strides=[32,1]>>
    %4 = ttg.local_alloc %3 : (tile<32x32xf32, #linear6>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    ttg.barrier local
    %5 = ttg.local_load %4 : !ttg.memdesc<32x32xf32, #shared, #smem> -> tile<32x32xf32, #linear5>
    ttg.local_dealloc %4 : !ttg.memdesc<32x32xf32, #shared, #smem>
    %6 = store_view_tko weak %5, %pview_9[%cst_0_i32, %cst_0_i32] token = %0 : tile<32x32xf32, #linear5>, partition_view<tile=(32x32), tensor_view<32x32xf32, strides=[32,1]>>, tile<i32, #linear> -> token
    return
  }
  entry @mma_i8_i32(%arg0: tile<ptr<i8>, #linear>, %arg1: tile<ptr<i8>, #linear>, %arg2: tile<ptr<i32>, #linear>, %arg3: tile<ptr<i32>, #linear>, %arg4: tile<ptr<i32>, #linear>, %arg5: tile<ptr<i32>, #linear>, %arg6: tile<ptr<i32>, #linear>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %tview = make_tensor_view %arg0, shape = [32, 64], strides = [64, 1] : tensor_view<32x64xi8, strides=[64,1]>
    %pview = make_partition_view %tview : partition_view<tile=(32x64), tensor_view<32x64xi8, strides=[64,1]>>
    %tile, %result_token = load_view_tko weak %pview[%cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(32x64), tensor_view<32x64xi8, strides=[64,1]>>, tile<i32, #linear> -> tile<32x64xi8, #linear2>, token
    %tview_0 = make_tensor_view %arg1, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xi8, strides=[32,1]>
    %pview_1 = make_partition_view %tview_0 : partition_view<tile=(64x32), tensor_view<64x32xi8, strides=[32,1]>>
    %tile_2, %result_token_3 = load_view_tko weak %pview_1[%cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(64x32), tensor_view<64x32xi8, strides=[32,1]>>, tile<i32, #linear> -> tile<64x32xi8, #linear1>, token
    %tview_4 = make_tensor_view %arg2, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xi32, strides=[32,1]>
    %pview_5 = make_partition_view %tview_4 : partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>
    %tile_6, %result_token_7 = load_view_tko weak %pview_5[%cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>, tile<i32, #linear> -> tile<32x32xi32, #linear5>, token
    %1 = mmai %tile, %tile_2, %tile_6 signed signed : tile<32x64xi8, #linear2>, tile<64x32xi8, #linear1>, tile<32x32xi32, #linear5>
    %tview_8 = make_tensor_view %arg3, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xi32, strides=[32,1]>
    %pview_9 = make_partition_view %tview_8 : partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>
    %2 = ttg.local_alloc %1 : (tile<32x32xi32, #linear6>) -> !ttg.memdesc<32x32xi32, #shared, #smem>
    ttg.barrier local
    %3 = ttg.local_load %2 : !ttg.memdesc<32x32xi32, #shared, #smem> -> tile<32x32xi32, #linear5>
    ttg.local_dealloc %2 : !ttg.memdesc<32x32xi32, #shared, #smem>
    %4 = store_view_tko weak %3, %pview_9[%cst_0_i32, %cst_0_i32] token = %0 : tile<32x32xi32, #linear5>, partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>, tile<i32, #linear> -> token
    %5 = mmai %tile, %tile_2, %tile_6 signed unsigned : tile<32x64xi8, #linear2>, tile<64x32xi8, #linear1>, tile<32x32xi32, #linear5>
    %tview_10 = make_tensor_view %arg4, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xi32, strides=[32,1]>
    %pview_11 = make_partition_view %tview_10 : partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>
    %6 = ttg.local_alloc %5 : (tile<32x32xi32, #linear6>) -> !ttg.memdesc<32x32xi32, #shared, #smem>
    ttg.barrier local
    %7 = ttg.local_load %6 : !ttg.memdesc<32x32xi32, #shared, #smem> -> tile<32x32xi32, #linear5>
    ttg.local_dealloc %6 : !ttg.memdesc<32x32xi32, #shared, #smem>
    %8 = store_view_tko weak %7, %pview_11[%cst_0_i32, %cst_0_i32] token = %0 : tile<32x32xi32, #linear5>, partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>, tile<i32, #linear> -> token
    %9 = mmai %tile, %tile_2, %tile_6 unsigned signed : tile<32x64xi8, #linear2>, tile<64x32xi8, #linear1>, tile<32x32xi32, #linear5>
    %tview_12 = make_tensor_view %arg5, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xi32, strides=[32,1]>
    %pview_13 = make_partition_view %tview_12 : partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>
    %10 = ttg.local_alloc %9 : (tile<32x32xi32, #linear6>) -> !ttg.memdesc<32x32xi32, #shared, #smem>
    ttg.barrier local
    %11 = ttg.local_load %10 : !ttg.memdesc<32x32xi32, #shared, #smem> -> tile<32x32xi32, #linear5>
    ttg.local_dealloc %10 : !ttg.memdesc<32x32xi32, #shared, #smem>
    %12 = store_view_tko weak %11, %pview_13[%cst_0_i32, %cst_0_i32] token = %0 : tile<32x32xi32, #linear5>, partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>, tile<i32, #linear> -> token
    %13 = mmai %tile, %tile_2, %tile_6 unsigned unsigned : tile<32x64xi8, #linear2>, tile<64x32xi8, #linear1>, tile<32x32xi32, #linear5>
    %tview_14 = make_tensor_view %arg6, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xi32, strides=[32,1]>
    %pview_15 = make_partition_view %tview_14 : partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>
    %14 = ttg.local_alloc %13 : (tile<32x32xi32, #linear6>) -> !ttg.memdesc<32x32xi32, #shared, #smem>
    ttg.barrier local
    %15 = ttg.local_load %14 : !ttg.memdesc<32x32xi32, #shared, #smem> -> tile<32x32xi32, #linear5>
    ttg.local_dealloc %14 : !ttg.memdesc<32x32xi32, #shared, #smem>
    %16 = store_view_tko weak %15, %pview_15[%cst_0_i32, %cst_0_i32] token = %0 : tile<32x32xi32, #linear5>, partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>, tile<i32, #linear> -> token
    return
  }
  entry @mma_batched_f16_f32(%arg0: tile<ptr<f16>, #linear>, %arg1: tile<ptr<f16>, #linear>, %arg2: tile<ptr<f32>, #linear>, %arg3: tile<ptr<f32>, #linear>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %tview = make_tensor_view %arg0, shape = [4, 32, 32], strides = [1024, 32, 1] : tensor_view<4x32x32xf16, strides=[1024,32,1]>
    %pview = make_partition_view %tview : partition_view<tile=(4x32x32), tensor_view<4x32x32xf16, strides=[1024,32,1]>>
    %tile, %result_token = load_view_tko weak %pview[%cst_0_i32, %cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(4x32x32), tensor_view<4x32x32xf16, strides=[1024,32,1]>>, tile<i32, #linear> -> tile<4x32x32xf16, #linear8>, token
    %tview_0 = make_tensor_view %arg1, shape = [4, 32, 8], strides = [256, 8, 1] : tensor_view<4x32x8xf16, strides=[256,8,1]>
    %pview_1 = make_partition_view %tview_0 : partition_view<tile=(4x32x8), tensor_view<4x32x8xf16, strides=[256,8,1]>>
    %tile_2, %result_token_3 = load_view_tko weak %pview_1[%cst_0_i32, %cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(4x32x8), tensor_view<4x32x8xf16, strides=[256,8,1]>>, tile<i32, #linear> -> tile<4x32x8xf16, #linear9>, token
    %tview_4 = make_tensor_view %arg2, shape = [4, 32, 8], strides = [256, 8, 1] : tensor_view<4x32x8xf32, strides=[256,8,1]>
    %pview_5 = make_partition_view %tview_4 : partition_view<tile=(4x32x8), tensor_view<4x32x8xf32, strides=[256,8,1]>>
    %tile_6, %result_token_7 = load_view_tko weak %pview_5[%cst_0_i32, %cst_0_i32, %cst_0_i32] token = %0 : partition_view<tile=(4x32x8), tensor_view<4x32x8xf32, strides=[256,8,1]>>, tile<i32, #linear> -> tile<4x32x8xf32, #linear9>, token
    %1 = mmaf %tile, %tile_2, %tile_6 : tile<4x32x32xf16, #linear8>, tile<4x32x8xf16, #linear9>, tile<4x32x8xf32, #linear9>
    %tview_8 = make_tensor_view %arg3, shape = [4, 32, 8], strides = [256, 8, 1] : tensor_view<4x32x8xf32, strides=[256,8,1]>
    %pview_9 = make_partition_view %tview_8 : partition_view<tile=(4x32x8), tensor_view<4x32x8xf32, strides=[256,8,1]>>
    %2 = ttg.local_alloc %1 : (tile<4x32x8xf32, #linear10>) -> !ttg.memdesc<4x32x8xf32, #shared1, #smem>
    ttg.barrier local
    %3 = ttg.local_load %2 : !ttg.memdesc<4x32x8xf32, #shared1, #smem> -> tile<4x32x8xf32, #linear9>
    ttg.local_dealloc %2 : !ttg.memdesc<4x32x8xf32, #shared1, #smem>
    %4 = store_view_tko weak %3, %pview_9[%cst_0_i32, %cst_0_i32, %cst_0_i32] token = %0 : tile<4x32x8xf32, #linear9>, partition_view<tile=(4x32x8), tensor_view<4x32x8xf32, strides=[256,8,1]>>, tile<i32, #linear> -> token
    return
  }
}
