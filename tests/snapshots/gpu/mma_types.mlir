#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [32, 0]], lane = [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
#linear2 = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [16, 0]], lane = [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>
#linear3 = #ttg.linear<{register = [[0, 1], [0, 2], [8, 0], [16, 0], [32, 0]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [1, 0]], warp = [[2, 0], [4, 0]], block = []}>
#linear4 = #ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []}>
#linear5 = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4]], lane = [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
#linear6 = #ttg.linear<{register = [[0, 1], [8, 0], [0, 16]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [0, 8]], block = []}>
#linear7 = #ttg.linear<{register = [[0, 1], [0, 2], [8, 0], [16, 0]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [1, 0]], warp = [[2, 0], [4, 0]], block = []}>
#linear8 = #ttg.linear<{register = [[0, 1], [8, 0], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [0, 8]], block = []}>
#linear9 = #ttg.linear<{register = [[0, 1], [0, 2], [16, 0]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>
#linear10 = #ttg.linear<{register = [[1, 0], [2, 0], [0, 16]], lane = [[4, 0], [8, 0], [16, 0], [0, 1], [0, 2]], warp = [[0, 4], [0, 8]], block = []}>
#linear11 = #ttg.linear<{register = [[1, 0], [2, 0], [4, 0], [0, 32]], lane = [[8, 0], [16, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 8], [0, 16]], block = []}>
#linear12 = #ttg.linear<{register = [[0, 0, 1], [0, 0, 2], [0, 0, 4], [1, 0, 0], [2, 0, 0]], lane = [[0, 0, 8], [0, 0, 16], [0, 1, 0], [0, 2, 0], [0, 4, 0]], warp = [[0, 8, 0], [0, 16, 0]], block = []}>
#linear13 = #ttg.linear<{register = [[0, 0, 1], [0, 0, 2], [2, 0, 0]], lane = [[0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0]], warp = [[0, 16, 0], [1, 0, 0]], block = []}>
#linear14 = #ttg.linear<{register = [[0, 0, 1], [0, 8, 0], [2, 0, 0]], lane = [[0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]], warp = [[0, 16, 0], [1, 0, 0]], block = []}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared3 = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared4 = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#shared5 = #ttg.swizzled_shared<{vec = 16, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#shared6 = #ttg.swizzled_shared<{vec = 16, perPhase = 2, maxPhase = 4, order = [0, 1]}>
#shared7 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#shared8 = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [2, 1, 0]}>
#smem = #ttg.shared_memory
cuda_tile.module @examples {
  entry @mma_f16_f32(%arg0: tile<ptr<f16>, #linear>, %arg1: tile<ptr<f16>, #linear>, %arg2: tile<ptr<f32>, #linear>, %arg3: tile<ptr<f32>, #linear>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %tview = make_tensor_view %arg0, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf16, strides=[32,1]>
    %pview = make_partition_view %tview : partition_view<tile=(64x32), tensor_view<64x32xf16, strides=[32,1]>>
    %tile, %result_token = load_view_tko weak %pview[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 8 : i32}} : partition_view<tile=(64x32), tensor_view<64x32xf16, strides=[32,1]>>, tile<i32, #linear> -> tile<64x32xf16, #linear1>, token
    %tview_0 = make_tensor_view %arg1, shape = [32, 64], strides = [64, 1] : tensor_view<32x64xf16, strides=[64,1]>
    %pview_1 = make_partition_view %tview_0 : partition_view<tile=(32x64), tensor_view<32x64xf16, strides=[64,1]>>
    %tile_2, %result_token_3 = load_view_tko weak %pview_1[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 8 : i32}} : partition_view<tile=(32x64), tensor_view<32x64xf16, strides=[64,1]>>, tile<i32, #linear> -> tile<32x64xf16, #linear2>, token
    %tview_4 = make_tensor_view %arg2, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
    %pview_5 = make_partition_view %tview_4 : partition_view<tile=(64x64), tensor_view<64x64xf32, strides=[64,1]>>
    %tile_6, %result_token_7 = load_view_tko weak %pview_5[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : partition_view<tile=(64x64), tensor_view<64x64xf32, strides=[64,1]>>, tile<i32, #linear> -> tile<64x64xf32, #linear3>, token
    %1 = ttg.local_alloc %tile_6 {allocation.offset = 0 : i32} : (tile<64x64xf32, #linear3>) -> !ttg.memdesc<64x64xf32, #shared, #smem>
    ttg.barrier local
    %2 = ttg.local_load %1 : !ttg.memdesc<64x64xf32, #shared, #smem> -> tile<64x64xf32, #linear4>
    ttg.local_dealloc %1 : !ttg.memdesc<64x64xf32, #shared, #smem>
    %3 = ttg.local_alloc %tile {allocation.offset = 0 : i32} : (tile<64x32xf16, #linear1>) -> !ttg.memdesc<64x32xf16, #shared1, #smem>
    %4 = ttg.local_alloc %tile_2 {allocation.offset = 4096 : i32} : (tile<32x64xf16, #linear2>) -> !ttg.memdesc<32x64xf16, #shared2, #smem>
    ttg.barrier local
    %5 = mmaf %3, %4, %2 {ttg.mma = "m16n8k16.f32.f16.f16.f32"} : !ttg.memdesc<64x32xf16, #shared1, #smem>, !ttg.memdesc<32x64xf16, #shared2, #smem>, tile<64x64xf32, #linear4>
    ttg.local_dealloc %4 : !ttg.memdesc<32x64xf16, #shared2, #smem>
    ttg.local_dealloc %3 : !ttg.memdesc<64x32xf16, #shared1, #smem>
    %tview_8 = make_tensor_view %arg3, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
    %pview_9 = make_partition_view %tview_8 : partition_view<tile=(64x64), tensor_view<64x64xf32, strides=[64,1]>>
    %6 = ttg.local_alloc %5 {allocation.offset = 0 : i32} : (tile<64x64xf32, #linear4>) -> !ttg.memdesc<64x64xf32, #shared, #smem>
    ttg.barrier local
    %7 = ttg.local_load %6 : !ttg.memdesc<64x64xf32, #shared, #smem> -> tile<64x64xf32, #linear3>
    ttg.local_dealloc %6 : !ttg.memdesc<64x64xf32, #shared, #smem>
    %8 = store_view_tko weak %7, %pview_9[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : tile<64x64xf32, #linear3>, partition_view<tile=(64x64), tensor_view<64x64xf32, strides=[64,1]>>, tile<i32, #linear> -> token
    return
  }
  entry @mma_f16_f16(%arg0: tile<ptr<f16>, #linear>, %arg1: tile<ptr<f16>, #linear>, %arg2: tile<ptr<f16>, #linear>, %arg3: tile<ptr<f16>, #linear>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %tview = make_tensor_view %arg0, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf16, strides=[32,1]>
    %pview = make_partition_view %tview : partition_view<tile=(32x32), tensor_view<32x32xf16, strides=[32,1]>>
    %tile, %result_token = load_view_tko weak %pview[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 8 : i32}} : partition_view<tile=(32x32), tensor_view<32x32xf16, strides=[32,1]>>, tile<i32, #linear> -> tile<32x32xf16, #linear5>, token
    %tview_0 = make_tensor_view %arg1, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf16, strides=[32,1]>
    %pview_1 = make_partition_view %tview_0 : partition_view<tile=(32x32), tensor_view<32x32xf16, strides=[32,1]>>
    %tile_2, %result_token_3 = load_view_tko weak %pview_1[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 8 : i32}} : partition_view<tile=(32x32), tensor_view<32x32xf16, strides=[32,1]>>, tile<i32, #linear> -> tile<32x32xf16, #linear5>, token
    %tview_4 = make_tensor_view %arg2, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf16, strides=[32,1]>
    %pview_5 = make_partition_view %tview_4 : partition_view<tile=(32x32), tensor_view<32x32xf16, strides=[32,1]>>
    %tile_6, %result_token_7 = load_view_tko weak %pview_5[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 8 : i32}} : partition_view<tile=(32x32), tensor_view<32x32xf16, strides=[32,1]>>, tile<i32, #linear> -> tile<32x32xf16, #linear5>, token
    %1 = ttg.local_alloc %tile_6 {allocation.offset = 0 : i32} : (tile<32x32xf16, #linear5>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    ttg.barrier local
    %2 = ttg.local_load %1 : !ttg.memdesc<32x32xf16, #shared, #smem> -> tile<32x32xf16, #linear6>
    ttg.local_dealloc %1 : !ttg.memdesc<32x32xf16, #shared, #smem>
    %3 = ttg.local_alloc %tile {allocation.offset = 0 : i32} : (tile<32x32xf16, #linear5>) -> !ttg.memdesc<32x32xf16, #shared1, #smem>
    %4 = ttg.local_alloc %tile_2 {allocation.offset = 2048 : i32} : (tile<32x32xf16, #linear5>) -> !ttg.memdesc<32x32xf16, #shared1, #smem>
    ttg.barrier local
    %5 = mmaf %3, %4, %2 {ttg.mma = "m16n8k16.f16.f16.f16.f16"} : !ttg.memdesc<32x32xf16, #shared1, #smem>, !ttg.memdesc<32x32xf16, #shared1, #smem>, tile<32x32xf16, #linear6>
    ttg.local_dealloc %4 : !ttg.memdesc<32x32xf16, #shared1, #smem>
    ttg.local_dealloc %3 : !ttg.memdesc<32x32xf16, #shared1, #smem>
    %tview_8 = make_tensor_view %arg3, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf16, strides=[32,1]>
    %pview_9 = make_partition_view %tview_8 : partition_view<tile=(32x32), tensor_view<32x32xf16, strides=[32,1]>>
    %6 = ttg.local_alloc %5 {allocation.offset = 0 : i32} : (tile<32x32xf16, #linear6>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    ttg.barrier local
    %7 = ttg.local_load %6 : !ttg.memdesc<32x32xf16, #shared, #smem> -> tile<32x32xf16, #linear5>
    ttg.local_dealloc %6 : !ttg.memdesc<32x32xf16, #shared, #smem>
    %8 = store_view_tko weak %7, %pview_9[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 8 : i32}} : tile<32x32xf16, #linear5>, partition_view<tile=(32x32), tensor_view<32x32xf16, strides=[32,1]>>, tile<i32, #linear> -> token
    return
  }
  entry @mma_bf16_f32(%arg0: tile<ptr<bf16>, #linear>, %arg1: tile<ptr<bf16>, #linear>, %arg2: tile<ptr<f32>, #linear>, %arg3: tile<ptr<f32>, #linear>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %tview = make_tensor_view %arg0, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xbf16, strides=[32,1]>
    %pview = make_partition_view %tview : partition_view<tile=(32x32), tensor_view<32x32xbf16, strides=[32,1]>>
    %tile, %result_token = load_view_tko weak %pview[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 8 : i32}} : partition_view<tile=(32x32), tensor_view<32x32xbf16, strides=[32,1]>>, tile<i32, #linear> -> tile<32x32xbf16, #linear5>, token
    %tview_0 = make_tensor_view %arg1, shape = [32, 64], strides = [64, 1] : tensor_view<32x64xbf16, strides=[64,1]>
    %pview_1 = make_partition_view %tview_0 : partition_view<tile=(32x64), tensor_view<32x64xbf16, strides=[64,1]>>
    %tile_2, %result_token_3 = load_view_tko weak %pview_1[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : partition_view<tile=(32x64), tensor_view<32x64xbf16, strides=[64,1]>>, tile<i32, #linear> -> tile<32x64xbf16, #linear7>, token
    %tview_4 = make_tensor_view %arg2, shape = [32, 64], strides = [64, 1] : tensor_view<32x64xf32, strides=[64,1]>
    %pview_5 = make_partition_view %tview_4 : partition_view<tile=(32x64), tensor_view<32x64xf32, strides=[64,1]>>
    %tile_6, %result_token_7 = load_view_tko weak %pview_5[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : partition_view<tile=(32x64), tensor_view<32x64xf32, strides=[64,1]>>, tile<i32, #linear> -> tile<32x64xf32, #linear7>, token
    %1 = ttg.local_alloc %tile_6 {allocation.offset = 0 : i32} : (tile<32x64xf32, #linear7>) -> !ttg.memdesc<32x64xf32, #shared, #smem>
    ttg.barrier local
    %2 = ttg.local_load %1 : !ttg.memdesc<32x64xf32, #shared, #smem> -> tile<32x64xf32, #linear8>
    ttg.local_dealloc %1 : !ttg.memdesc<32x64xf32, #shared, #smem>
    %3 = ttg.local_alloc %tile {allocation.offset = 0 : i32} : (tile<32x32xbf16, #linear5>) -> !ttg.memdesc<32x32xbf16, #shared1, #smem>
    %4 = ttg.local_alloc %tile_2 {allocation.offset = 2048 : i32} : (tile<32x64xbf16, #linear7>) -> !ttg.memdesc<32x64xbf16, #shared2, #smem>
    ttg.barrier local
    %5 = mmaf %3, %4, %2 {ttg.mma = "m16n8k16.f32.bf16.bf16.f32"} : !ttg.memdesc<32x32xbf16, #shared1, #smem>, !ttg.memdesc<32x64xbf16, #shared2, #smem>, tile<32x64xf32, #linear8>
    ttg.local_dealloc %4 : !ttg.memdesc<32x64xbf16, #shared2, #smem>
    ttg.local_dealloc %3 : !ttg.memdesc<32x32xbf16, #shared1, #smem>
    %tview_8 = make_tensor_view %arg3, shape = [32, 64], strides = [64, 1] : tensor_view<32x64xf32, strides=[64,1]>
    %pview_9 = make_partition_view %tview_8 : partition_view<tile=(32x64), tensor_view<32x64xf32, strides=[64,1]>>
    %6 = ttg.local_alloc %5 {allocation.offset = 0 : i32} : (tile<32x64xf32, #linear8>) -> !ttg.memdesc<32x64xf32, #shared, #smem>
    ttg.barrier local
    %7 = ttg.local_load %6 : !ttg.memdesc<32x64xf32, #shared, #smem> -> tile<32x64xf32, #linear7>
    ttg.local_dealloc %6 : !ttg.memdesc<32x64xf32, #shared, #smem>
    %8 = store_view_tko weak %7, %pview_9[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : tile<32x64xf32, #linear7>, partition_view<tile=(32x64), tensor_view<32x64xf32, strides=[64,1]>>, tile<i32, #linear> -> token
    return
  }
  entry @mma_tf32_f32(%arg0: tile<ptr<f32>, #linear>, %arg1: tile<ptr<f32>, #linear>, %arg2: tile<ptr<f32>, #linear>, %arg3: tile<ptr<f32>, #linear>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %tview = make_tensor_view %arg0, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf32, strides=[32,1]>
    %pview = make_partition_view %tview : partition_view<tile=(32x32), tensor_view<32x32xf32, strides=[32,1]>>
    %tile, %result_token = load_view_tko weak %pview[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : partition_view<tile=(32x32), tensor_view<32x32xf32, strides=[32,1]>>, tile<i32, #linear> -> tile<32x32xf32, #linear9>, token
    %tview_0 = make_tensor_view %arg1, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf32, strides=[32,1]>
    %pview_1 = make_partition_view %tview_0 : partition_view<tile=(32x32), tensor_view<32x32xf32, strides=[32,1]>>
    %tile_2, %result_token_3 = load_view_tko weak %pview_1[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : partition_view<tile=(32x32), tensor_view<32x32xf32, strides=[32,1]>>, tile<i32, #linear> -> tile<32x32xf32, #linear9>, token
    %tview_4 = make_tensor_view %arg2, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf32, strides=[32,1]>
    %pview_5 = make_partition_view %tview_4 : partition_view<tile=(32x32), tensor_view<32x32xf32, strides=[32,1]>>
    %tile_6, %result_token_7 = load_view_tko weak %pview_5[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : partition_view<tile=(32x32), tensor_view<32x32xf32, strides=[32,1]>>, tile<i32, #linear> -> tile<32x32xf32, #linear9>, token
    %1 = ftof %tile  : tile<32x32xf32, #linear9> -> tile<32x32xtf32, #linear9>
    %2 = ftof %tile_2  : tile<32x32xf32, #linear9> -> tile<32x32xtf32, #linear9>
    %3 = ttg.local_alloc %tile_6 {allocation.offset = 0 : i32} : (tile<32x32xf32, #linear9>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    ttg.barrier local
    %4 = ttg.local_load %3 : !ttg.memdesc<32x32xf32, #shared, #smem> -> tile<32x32xf32, #linear6>
    ttg.local_dealloc %3 : !ttg.memdesc<32x32xf32, #shared, #smem>
    %5 = ttg.local_alloc %1 {allocation.offset = 0 : i32} : (tile<32x32xtf32, #linear9>) -> !ttg.memdesc<32x32xtf32, #shared3, #smem>
    %6 = permute %2 [1, 0] : tile<32x32xtf32, #linear9> -> tile<32x32xtf32, #linear10>
    %7 = ttg.local_alloc %6 {allocation.offset = 4096 : i32} : (tile<32x32xtf32, #linear10>) -> !ttg.memdesc<32x32xtf32, #shared3, #smem>
    %8 = ttg.memdesc_trans %7 {order = array<i32: 1, 0>} : !ttg.memdesc<32x32xtf32, #shared3, #smem> -> !ttg.memdesc<32x32xtf32, #shared4, #smem>
    ttg.barrier local
    %9 = mmaf %5, %8, %4 {ttg.mma = "m16n8k8.f32.tf32.tf32.f32"} : !ttg.memdesc<32x32xtf32, #shared3, #smem>, !ttg.memdesc<32x32xtf32, #shared4, #smem>, tile<32x32xf32, #linear6>
    ttg.local_dealloc %7 : !ttg.memdesc<32x32xtf32, #shared3, #smem>
    ttg.local_dealloc %5 : !ttg.memdesc<32x32xtf32, #shared3, #smem>
    %tview_8 = make_tensor_view %arg3, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf32, strides=[32,1]>
    %pview_9 = make_partition_view %tview_8 : partition_view<tile=(32x32), tensor_view<32x32xf32, strides=[32,1]>>
    %10 = ttg.local_alloc %9 {allocation.offset = 0 : i32} : (tile<32x32xf32, #linear6>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    ttg.barrier local
    %11 = ttg.local_load %10 : !ttg.memdesc<32x32xf32, #shared, #smem> -> tile<32x32xf32, #linear9>
    ttg.local_dealloc %10 : !ttg.memdesc<32x32xf32, #shared, #smem>
    %12 = store_view_tko weak %11, %pview_9[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : tile<32x32xf32, #linear9>, partition_view<tile=(32x32), tensor_view<32x32xf32, strides=[32,1]>>, tile<i32, #linear> -> token
    return
  }
  entry @mma_i8_i32(%arg0: tile<ptr<i8>, #linear>, %arg1: tile<ptr<i8>, #linear>, %arg2: tile<ptr<i32>, #linear>, %arg3: tile<ptr<i32>, #linear>, %arg4: tile<ptr<i32>, #linear>, %arg5: tile<ptr<i32>, #linear>, %arg6: tile<ptr<i32>, #linear>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %tview = make_tensor_view %arg0, shape = [32, 64], strides = [64, 1] : tensor_view<32x64xi8, strides=[64,1]>
    %pview = make_partition_view %tview : partition_view<tile=(32x64), tensor_view<32x64xi8, strides=[64,1]>>
    %tile, %result_token = load_view_tko weak %pview[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 8 : i32}} : partition_view<tile=(32x64), tensor_view<32x64xi8, strides=[64,1]>>, tile<i32, #linear> -> tile<32x64xi8, #linear2>, token
    %tview_0 = make_tensor_view %arg1, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xi8, strides=[32,1]>
    %pview_1 = make_partition_view %tview_0 : partition_view<tile=(64x32), tensor_view<64x32xi8, strides=[32,1]>>
    %tile_2, %result_token_3 = load_view_tko weak %pview_1[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 8 : i32}} : partition_view<tile=(64x32), tensor_view<64x32xi8, strides=[32,1]>>, tile<i32, #linear> -> tile<64x32xi8, #linear1>, token
    %tview_4 = make_tensor_view %arg2, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xi32, strides=[32,1]>
    %pview_5 = make_partition_view %tview_4 : partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>
    %tile_6, %result_token_7 = load_view_tko weak %pview_5[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>, tile<i32, #linear> -> tile<32x32xi32, #linear9>, token
    %1 = ttg.local_alloc %tile_6 {allocation.offset = 0 : i32} : (tile<32x32xi32, #linear9>) -> !ttg.memdesc<32x32xi32, #shared, #smem>
    ttg.barrier local
    %2 = ttg.local_load %1 : !ttg.memdesc<32x32xi32, #shared, #smem> -> tile<32x32xi32, #linear6>
    ttg.local_dealloc %1 : !ttg.memdesc<32x32xi32, #shared, #smem>
    %3 = ttg.local_alloc %tile {allocation.offset = 0 : i32} : (tile<32x64xi8, #linear2>) -> !ttg.memdesc<32x64xi8, #shared5, #smem>
    %4 = permute %tile_2 [1, 0] : tile<64x32xi8, #linear1> -> tile<32x64xi8, #linear11>
    %5 = ttg.local_alloc %4 {allocation.offset = 2048 : i32} : (tile<32x64xi8, #linear11>) -> !ttg.memdesc<32x64xi8, #shared5, #smem>
    %6 = ttg.memdesc_trans %5 {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xi8, #shared5, #smem> -> !ttg.memdesc<64x32xi8, #shared6, #smem>
    ttg.barrier local
    %7 = mmai %3, %6, %2 signed signed {ttg.mma = "m16n8k32.s32.s8.s8.s32"} : !ttg.memdesc<32x64xi8, #shared5, #smem>, !ttg.memdesc<64x32xi8, #shared6, #smem>, tile<32x32xi32, #linear6>
    ttg.local_dealloc %5 : !ttg.memdesc<32x64xi8, #shared5, #smem>
    ttg.local_dealloc %3 : !ttg.memdesc<32x64xi8, #shared5, #smem>
    %tview_8 = make_tensor_view %arg3, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xi32, strides=[32,1]>
    %pview_9 = make_partition_view %tview_8 : partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>
    %8 = ttg.local_alloc %7 {allocation.offset = 0 : i32} : (tile<32x32xi32, #linear6>) -> !ttg.memdesc<32x32xi32, #shared, #smem>
    ttg.barrier local
    %9 = ttg.local_load %8 : !ttg.memdesc<32x32xi32, #shared, #smem> -> tile<32x32xi32, #linear9>
    ttg.local_dealloc %8 : !ttg.memdesc<32x32xi32, #shared, #smem>
    %10 = store_view_tko weak %9, %pview_9[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : tile<32x32xi32, #linear9>, partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>, tile<i32, #linear> -> token
    %11 = ttg.local_alloc %tile_6 {allocation.offset = 0 : i32} : (tile<32x32xi32, #linear9>) -> !ttg.memdesc<32x32xi32, #shared, #smem>
    ttg.barrier local
    %12 = ttg.local_load %11 : !ttg.memdesc<32x32xi32, #shared, #smem> -> tile<32x32xi32, #linear6>
    ttg.local_dealloc %11 : !ttg.memdesc<32x32xi32, #shared, #smem>
    %13 = ttg.local_alloc %tile {allocation.offset = 0 : i32} : (tile<32x64xi8, #linear2>) -> !ttg.memdesc<32x64xi8, #shared5, #smem>
    %14 = permute %tile_2 [1, 0] : tile<64x32xi8, #linear1> -> tile<32x64xi8, #linear11>
    %15 = ttg.local_alloc %14 {allocation.offset = 2048 : i32} : (tile<32x64xi8, #linear11>) -> !ttg.memdesc<32x64xi8, #shared5, #smem>
    %16 = ttg.memdesc_trans %15 {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xi8, #shared5, #smem> -> !ttg.memdesc<64x32xi8, #shared6, #smem>
    ttg.barrier local
    %17 = mmai %13, %16, %12 signed unsigned {ttg.mma = "m16n8k32.s32.s8.s8.s32"} : !ttg.memdesc<32x64xi8, #shared5, #smem>, !ttg.memdesc<64x32xi8, #shared6, #smem>, tile<32x32xi32, #linear6>
    ttg.local_dealloc %15 : !ttg.memdesc<32x64xi8, #shared5, #smem>
    ttg.local_dealloc %13 : !ttg.memdesc<32x64xi8, #shared5, #smem>
    %tview_10 = make_tensor_view %arg4, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xi32, strides=[32,1]>
    %pview_11 = make_partition_view %tview_10 : partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>
    %18 = ttg.local_alloc %17 {allocation.offset = 0 : i32} : (tile<32x32xi32, #linear6>) -> !ttg.memdesc<32x32xi32, #shared, #smem>
    ttg.barrier local
    %19 = ttg.local_load %18 : !ttg.memdesc<32x32xi32, #shared, #smem> -> tile<32x32xi32, #linear9>
    ttg.local_dealloc %18 : !ttg.memdesc<32x32xi32, #shared, #smem>
    %20 = store_view_tko weak %19, %pview_11[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : tile<32x32xi32, #linear9>, partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>, tile<i32, #linear> -> token
    %21 = ttg.local_alloc %tile_6 {allocation.offset = 0 : i32} : (tile<32x32xi32, #linear9>) -> !ttg.memdesc<32x32xi32, #shared, #smem>
    ttg.barrier local
    %22 = ttg.local_load %21 : !ttg.memdesc<32x32xi32, #shared, #smem> -> tile<32x32xi32, #linear6>
    ttg.local_dealloc %21 : !ttg.memdesc<32x32xi32, #shared, #smem>
    %23 = ttg.local_alloc %tile {allocation.offset = 0 : i32} : (tile<32x64xi8, #linear2>) -> !ttg.memdesc<32x64xi8, #shared5, #smem>
    %24 = permute %tile_2 [1, 0] : tile<64x32xi8, #linear1> -> tile<32x64xi8, #linear11>
    %25 = ttg.local_alloc %24 {allocation.offset = 2048 : i32} : (tile<32x64xi8, #linear11>) -> !ttg.memdesc<32x64xi8, #shared5, #smem>
    %26 = ttg.memdesc_trans %25 {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xi8, #shared5, #smem> -> !ttg.memdesc<64x32xi8, #shared6, #smem>
    ttg.barrier local
    %27 = mmai %23, %26, %22 unsigned signed {ttg.mma = "m16n8k32.s32.s8.s8.s32"} : !ttg.memdesc<32x64xi8, #shared5, #smem>, !ttg.memdesc<64x32xi8, #shared6, #smem>, tile<32x32xi32, #linear6>
    ttg.local_dealloc %25 : !ttg.memdesc<32x64xi8, #shared5, #smem>
    ttg.local_dealloc %23 : !ttg.memdesc<32x64xi8, #shared5, #smem>
    %tview_12 = make_tensor_view %arg5, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xi32, strides=[32,1]>
    %pview_13 = make_partition_view %tview_12 : partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>
    %28 = ttg.local_alloc %27 {allocation.offset = 0 : i32} : (tile<32x32xi32, #linear6>) -> !ttg.memdesc<32x32xi32, #shared, #smem>
    ttg.barrier local
    %29 = ttg.local_load %28 : !ttg.memdesc<32x32xi32, #shared, #smem> -> tile<32x32xi32, #linear9>
    ttg.local_dealloc %28 : !ttg.memdesc<32x32xi32, #shared, #smem>
    %30 = store_view_tko weak %29, %pview_13[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : tile<32x32xi32, #linear9>, partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>, tile<i32, #linear> -> token
    %31 = ttg.local_alloc %tile_6 {allocation.offset = 0 : i32} : (tile<32x32xi32, #linear9>) -> !ttg.memdesc<32x32xi32, #shared, #smem>
    ttg.barrier local
    %32 = ttg.local_load %31 : !ttg.memdesc<32x32xi32, #shared, #smem> -> tile<32x32xi32, #linear6>
    ttg.local_dealloc %31 : !ttg.memdesc<32x32xi32, #shared, #smem>
    %33 = ttg.local_alloc %tile {allocation.offset = 0 : i32} : (tile<32x64xi8, #linear2>) -> !ttg.memdesc<32x64xi8, #shared5, #smem>
    %34 = permute %tile_2 [1, 0] : tile<64x32xi8, #linear1> -> tile<32x64xi8, #linear11>
    %35 = ttg.local_alloc %34 {allocation.offset = 2048 : i32} : (tile<32x64xi8, #linear11>) -> !ttg.memdesc<32x64xi8, #shared5, #smem>
    %36 = ttg.memdesc_trans %35 {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xi8, #shared5, #smem> -> !ttg.memdesc<64x32xi8, #shared6, #smem>
    ttg.barrier local
    %37 = mmai %33, %36, %32 unsigned unsigned {ttg.mma = "m16n8k32.s32.s8.s8.s32"} : !ttg.memdesc<32x64xi8, #shared5, #smem>, !ttg.memdesc<64x32xi8, #shared6, #smem>, tile<32x32xi32, #linear6>
    ttg.local_dealloc %35 : !ttg.memdesc<32x64xi8, #shared5, #smem>
    ttg.local_dealloc %33 : !ttg.memdesc<32x64xi8, #shared5, #smem>
    %tview_14 = make_tensor_view %arg6, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xi32, strides=[32,1]>
    %pview_15 = make_partition_view %tview_14 : partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>
    %38 = ttg.local_alloc %37 {allocation.offset = 0 : i32} : (tile<32x32xi32, #linear6>) -> !ttg.memdesc<32x32xi32, #shared, #smem>
    ttg.barrier local
    %39 = ttg.local_load %38 : !ttg.memdesc<32x32xi32, #shared, #smem> -> tile<32x32xi32, #linear9>
    ttg.local_dealloc %38 : !ttg.memdesc<32x32xi32, #shared, #smem>
    %40 = store_view_tko weak %39, %pview_15[%cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : tile<32x32xi32, #linear9>, partition_view<tile=(32x32), tensor_view<32x32xi32, strides=[32,1]>>, tile<i32, #linear> -> token
    return
  }
  entry @mma_batched_f16_f32(%arg0: tile<ptr<f16>, #linear>, %arg1: tile<ptr<f16>, #linear>, %arg2: tile<ptr<f32>, #linear>, %arg3: tile<ptr<f32>, #linear>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %tview = make_tensor_view %arg0, shape = [4, 32, 32], strides = [1024, 32, 1] : tensor_view<4x32x32xf16, strides=[1024,32,1]>
    %pview = make_partition_view %tview : partition_view<tile=(4x32x32), tensor_view<4x32x32xf16, strides=[1024,32,1]>>
    %tile, %result_token = load_view_tko weak %pview[%cst_0_i32, %cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1, 2>, ttg.vector = {checks = array<i32: -1>, split, width = 8 : i32}} : partition_view<tile=(4x32x32), tensor_view<4x32x32xf16, strides=[1024,32,1]>>, tile<i32, #linear> -> tile<4x32x32xf16, #linear12>, token
    %tview_0 = make_tensor_view %arg1, shape = [4, 32, 8], strides = [256, 8, 1] : tensor_view<4x32x8xf16, strides=[256,8,1]>
    %pview_1 = make_partition_view %tview_0 : partition_view<tile=(4x32x8), tensor_view<4x32x8xf16, strides=[256,8,1]>>
    %tile_2, %result_token_3 = load_view_tko weak %pview_1[%cst_0_i32, %cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1, 2>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : partition_view<tile=(4x32x8), tensor_view<4x32x8xf16, strides=[256,8,1]>>, tile<i32, #linear> -> tile<4x32x8xf16, #linear13>, token
    %tview_4 = make_tensor_view %arg2, shape = [4, 32, 8], strides = [256, 8, 1] : tensor_view<4x32x8xf32, strides=[256,8,1]>
    %pview_5 = make_partition_view %tview_4 : partition_view<tile=(4x32x8), tensor_view<4x32x8xf32, strides=[256,8,1]>>
    %tile_6, %result_token_7 = load_view_tko weak %pview_5[%cst_0_i32, %cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1, 2>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : partition_view<tile=(4x32x8), tensor_view<4x32x8xf32, strides=[256,8,1]>>, tile<i32, #linear> -> tile<4x32x8xf32, #linear13>, token
    %1 = ttg.local_alloc %tile_6 {allocation.offset = 0 : i32} : (tile<4x32x8xf32, #linear13>) -> !ttg.memdesc<4x32x8xf32, #shared7, #smem>
    ttg.barrier local
    %2 = ttg.local_load %1 : !ttg.memdesc<4x32x8xf32, #shared7, #smem> -> tile<4x32x8xf32, #linear14>
    ttg.local_dealloc %1 : !ttg.memdesc<4x32x8xf32, #shared7, #smem>
    %3 = ttg.local_alloc %tile {allocation.offset = 0 : i32} : (tile<4x32x32xf16, #linear12>) -> !ttg.memdesc<4x32x32xf16, #shared8, #smem>
    %4 = ttg.local_alloc %tile_2 {allocation.offset = 8192 : i32} : (tile<4x32x8xf16, #linear13>) -> !ttg.memdesc<4x32x8xf16, #shared7, #smem>
    ttg.barrier local
    %5 = mmaf %3, %4, %2 {ttg.mma = "m16n8k16.f32.f16.f16.f32"} : !ttg.memdesc<4x32x32xf16, #shared8, #smem>, !ttg.memdesc<4x32x8xf16, #shared7, #smem>, tile<4x32x8xf32, #linear14>
    ttg.local_dealloc %4 : !ttg.memdesc<4x32x8xf16, #shared7, #smem>
    ttg.local_dealloc %3 : !ttg.memdesc<4x32x32xf16, #shared8, #smem>
    %tview_8 = make_tensor_view %arg3, shape = [4, 32, 8], strides = [256, 8, 1] : tensor_view<4x32x8xf32, strides=[256,8,1]>
    %pview_9 = make_partition_view %tview_8 : partition_view<tile=(4x32x8), tensor_view<4x32x8xf32, strides=[256,8,1]>>
    %6 = ttg.local_alloc %5 {allocation.offset = 0 : i32} : (tile<4x32x8xf32, #linear14>) -> !ttg.memdesc<4x32x8xf32, #shared7, #smem>
    ttg.barrier local
    %7 = ttg.local_load %6 : !ttg.memdesc<4x32x8xf32, #shared7, #smem> -> tile<4x32x8xf32, #linear13>
    ttg.local_dealloc %6 : !ttg.memdesc<4x32x8xf32, #shared7, #smem>
    %8 = store_view_tko weak %7, %pview_9[%cst_0_i32, %cst_0_i32, %cst_0_i32] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1, 2>, ttg.vector = {checks = array<i32: -1>, split, width = 4 : i32}} : tile<4x32x8xf32, #linear13>, partition_view<tile=(4x32x8), tensor_view<4x32x8xf32, strides=[256,8,1]>>, tile<i32, #linear> -> token
    return
  }
}
