#linear = #ttg.linear<{register = [], lane = [[], [], [], [], []], warp = [[], []], block = []}>
#linear1 = #ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64], [64, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []}>
#linear2 = #ttg.linear<{register = [[0, 1], [0, 2], [4, 0], [8, 0], [16, 0], [32, 0], [64, 0]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], warp = [[1, 0], [2, 0]], block = []}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
cuda_tile.module @examples {
  entry @matmul_wide(%arg0: tile<ptr<f16>, #linear>, %arg1: tile<i32, #linear>, %arg2: tile<i32, #linear>, %arg3: tile<i32, #linear>, %arg4: tile<i32, #linear>, %arg5: tile<ptr<f16>, #linear>, %arg6: tile<i32, #linear>, %arg7: tile<i32, #linear>, %arg8: tile<i32, #linear>, %arg9: tile<i32, #linear>, %arg10: tile<ptr<f32>, #linear>, %arg11: tile<i32, #linear>, %arg12: tile<i32, #linear>, %arg13: tile<i32, #linear>, %arg14: tile<i32, #linear>) {
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x128xf32, #linear1>
    %cst_1_i32 = constant <i32: 1> : tile<i32, #linear>
    %cst_0_i32 = constant <i32: 0> : tile<i32, #linear>
    %0 = make_token : token
    %assume = assume div_by<16>, %arg0 : tile<ptr<f16>, #linear>
    %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f16>, #linear>
    %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f32>, #linear>
    %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32, #linear>
    %assume_3 = assume bounded<0, ?>, %arg2 : tile<i32, #linear>
    %assume_4 = assume bounded<0, ?>, %arg3 : tile<i32, #linear>
    %tview = make_tensor_view %assume, shape = [%assume_2, %assume_3], strides = [%assume_4, 1] : tile<i32, #linear> -> tensor_view<?x?xf16, strides=[?,1]>
    %assume_5 = assume bounded<0, ?>, %arg6 : tile<i32, #linear>
    %assume_6 = assume bounded<0, ?>, %arg7 : tile<i32, #linear>
    %assume_7 = assume bounded<0, ?>, %arg8 : tile<i32, #linear>
    %tview_8 = make_tensor_view %assume_0, shape = [%assume_5, %assume_6], strides = [%assume_7, 1] : tile<i32, #linear> -> tensor_view<?x?xf16, strides=[?,1]>
    %assume_9 = assume bounded<0, ?>, %arg11 : tile<i32, #linear>
    %assume_10 = assume bounded<0, ?>, %arg12 : tile<i32, #linear>
    %assume_11 = assume bounded<0, ?>, %arg13 : tile<i32, #linear>
    %tview_12 = make_tensor_view %assume_1, shape = [%assume_9, %assume_10], strides = [%assume_11, 1] : tile<i32, #linear> -> tensor_view<?x?xf32, strides=[?,1]>
    %pview = make_partition_view %tview : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %pview_13 = make_partition_view %tview_8 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %pview_14 = make_partition_view %tview_12 : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32, #linear>
    %1:2 = get_index_space_shape %pview : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32, #linear>
    %cst_0_i32_15 = constant <i32: 0> : tile<i32, #linear>
    %2 = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable>
    %cst_0_i32_16 = constant <i32: 0> : tile<i32, #linear>
    %true = constant <i1: true> : tile<i1, #linear>
    %cst_7_i32 = constant <i32: 7> : tile<i32, #linear>
    %3 = andi %assume_4, %cst_7_i32 : tile<i32, #linear>
    %4 = cmpi equal %3, %cst_0_i32_16, unsigned : tile<i32, #linear> -> tile<i1, #linear>
    %5 = xori %4, %true : tile<i1, #linear>
    %cst_3_i32 = constant <i32: 3> : tile<i32, #linear>
    %6 = andi %assume_4, %cst_3_i32 : tile<i32, #linear>
    %7 = cmpi equal %6, %cst_0_i32_16, unsigned : tile<i32, #linear> -> tile<i1, #linear>
    %8 = xori %7, %true : tile<i1, #linear>
    %9 = andi %7, %5 : tile<i1, #linear>
    %10 = andi %8, %5 : tile<i1, #linear>
    %11 = ttg.predicate_stage %cst_0_i32, %1#1, %cst_1_i32 maxStage 1 stage 1 : tile<i32, #linear> -> tile<i1, #linear>
    %12 = andi %11, %4 : tile<i1, #linear>
    ttg.mask %12 : tile<i1, #linear> -> () {
      %32 = ttg.memdesc_index %2[%cst_0_i32_15] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      %33 = ttg.async_copy_global_to_local %pview[%blockId_x, %cst_0_i32], %32 {contiguity = 8 : i32, ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {width = 8 : i32}} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      ttg.mask.return
    }
    %13 = andi %11, %9 : tile<i1, #linear>
    ttg.mask %13 : tile<i1, #linear> -> () {
      %32 = ttg.memdesc_index %2[%cst_0_i32_15] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      %33 = ttg.async_copy_global_to_local %pview[%blockId_x, %cst_0_i32], %32 {contiguity = 4 : i32, ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {width = 4 : i32}} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      ttg.mask.return
    }
    %14 = andi %11, %10 : tile<i1, #linear>
    ttg.mask %14 : tile<i1, #linear> -> () {
      %32 = ttg.memdesc_index %2[%cst_0_i32_15] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      %33 = ttg.async_copy_global_to_local %pview[%blockId_x, %cst_0_i32], %32 {ttg.index_nonneg = array<i32: 0, 1>} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      ttg.mask.return
    }
    %15 = ttg.local_alloc {allocation.offset = 65536 : i32} : () -> !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable>
    %cst_0_i32_17 = constant <i32: 0> : tile<i32, #linear>
    %true_18 = constant <i1: true> : tile<i1, #linear>
    %cst_7_i32_19 = constant <i32: 7> : tile<i32, #linear>
    %16 = andi %assume_7, %cst_7_i32_19 : tile<i32, #linear>
    %17 = cmpi equal %16, %cst_0_i32_17, unsigned : tile<i32, #linear> -> tile<i1, #linear>
    %18 = xori %17, %true_18 : tile<i1, #linear>
    %cst_3_i32_20 = constant <i32: 3> : tile<i32, #linear>
    %19 = andi %assume_7, %cst_3_i32_20 : tile<i32, #linear>
    %20 = cmpi equal %19, %cst_0_i32_17, unsigned : tile<i32, #linear> -> tile<i1, #linear>
    %21 = xori %20, %true_18 : tile<i1, #linear>
    %22 = andi %20, %18 : tile<i1, #linear>
    %23 = andi %21, %18 : tile<i1, #linear>
    %24 = ttg.predicate_stage %cst_0_i32, %1#1, %cst_1_i32 maxStage 1 stage 1 : tile<i32, #linear> -> tile<i1, #linear>
    %25 = andi %24, %17 : tile<i1, #linear>
    ttg.mask %25 : tile<i1, #linear> -> () {
      %32 = ttg.memdesc_index %15[%cst_0_i32_15] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      %33 = ttg.async_copy_global_to_local %pview_13[%cst_0_i32, %blockId_y], %32 {contiguity = 8 : i32, ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {width = 8 : i32}} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      ttg.mask.return
    }
    %26 = andi %24, %22 : tile<i1, #linear>
    ttg.mask %26 : tile<i1, #linear> -> () {
      %32 = ttg.memdesc_index %15[%cst_0_i32_15] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      %33 = ttg.async_copy_global_to_local %pview_13[%cst_0_i32, %blockId_y], %32 {contiguity = 4 : i32, ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {width = 4 : i32}} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      ttg.mask.return
    }
    %27 = andi %24, %23 : tile<i1, #linear>
    ttg.mask %27 : tile<i1, #linear> -> () {
      %32 = ttg.memdesc_index %15[%cst_0_i32_15] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      %33 = ttg.async_copy_global_to_local %pview_13[%cst_0_i32, %blockId_y], %32 {ttg.index_nonneg = array<i32: 0, 1>} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      ttg.mask.return
    }
    %28 = ttg.async_commit_group
    %for = for %loopIdx in (%cst_0_i32 to %1#1, step %cst_1_i32) : tile<i32, #linear> iter_values(%iterArg0 = %cst_0_f32) -> (tile<128x128xf32, #linear1>) {
      %32 = ttg.async_wait {num = 0 : i32}
      ttg.barrier local
      %33 = addi %loopIdx, %cst_1_i32 : tile<i32, #linear>
      %34 = subi %loopIdx, %cst_0_i32 : tile<i32, #linear>
      %35 = andi %34, %cst_1_i32 : tile<i32, #linear>
      %36 = xori %35, %cst_1_i32 : tile<i32, #linear>
      %37 = ttg.predicate_stage %loopIdx, %1#1, %cst_1_i32 maxStage 1 stage 0 : tile<i32, #linear> -> tile<i1, #linear>
      %38 = andi %37, %4 : tile<i1, #linear>
      ttg.mask %38 : tile<i1, #linear> -> () {
        %48 = ttg.memdesc_index %2[%36] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        %49 = ttg.async_copy_global_to_local %pview[%blockId_x, %33], %48 {contiguity = 8 : i32, ttg.index_nonneg = array<i32: 0>, ttg.vector = {width = 8 : i32}} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        ttg.mask.return
      }
      %39 = andi %37, %9 : tile<i1, #linear>
      ttg.mask %39 : tile<i1, #linear> -> () {
        %48 = ttg.memdesc_index %2[%36] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        %49 = ttg.async_copy_global_to_local %pview[%blockId_x, %33], %48 {contiguity = 4 : i32, ttg.index_nonneg = array<i32: 0>, ttg.vector = {width = 4 : i32}} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        ttg.mask.return
      }
      %40 = andi %37, %10 : tile<i1, #linear>
      ttg.mask %40 : tile<i1, #linear> -> () {
        %48 = ttg.memdesc_index %2[%36] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        %49 = ttg.async_copy_global_to_local %pview[%blockId_x, %33], %48 {ttg.index_nonneg = array<i32: 0>} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        ttg.mask.return
      }
      %41 = andi %37, %17 : tile<i1, #linear>
      ttg.mask %41 : tile<i1, #linear> -> () {
        %48 = ttg.memdesc_index %15[%36] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        %49 = ttg.async_copy_global_to_local %pview_13[%33, %blockId_y], %48 {contiguity = 8 : i32, ttg.index_nonneg = array<i32: 1>, ttg.vector = {width = 8 : i32}} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        ttg.mask.return
      }
      %42 = andi %37, %22 : tile<i1, #linear>
      ttg.mask %42 : tile<i1, #linear> -> () {
        %48 = ttg.memdesc_index %15[%36] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        %49 = ttg.async_copy_global_to_local %pview_13[%33, %blockId_y], %48 {contiguity = 4 : i32, ttg.index_nonneg = array<i32: 1>, ttg.vector = {width = 4 : i32}} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        ttg.mask.return
      }
      %43 = andi %37, %23 : tile<i1, #linear>
      ttg.mask %43 : tile<i1, #linear> -> () {
        %48 = ttg.memdesc_index %15[%36] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        %49 = ttg.async_copy_global_to_local %pview_13[%33, %blockId_y], %48 {ttg.index_nonneg = array<i32: 1>} : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
        ttg.mask.return
      }
      %44 = ttg.async_commit_group
      %45 = ttg.memdesc_index %2[%35] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      %46 = ttg.memdesc_index %15[%35] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>
      %47 = mmaf %45, %46, %iterArg0 {ttg.mma = "m16n8k16.f32.f16.f16.f32"} : !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>, !ttg.memdesc<128x128xf16, #shared1, #smem, mutable>, tile<128x128xf32, #linear1>
      continue %47 : tile<128x128xf32, #linear1>
    }
    %29 = ttg.async_wait {num = 0 : i32}
    ttg.local_dealloc %15 : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable>
    ttg.local_dealloc %2 : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable>
    %30 = ttg.convert_layout %for {allocation.offset = 0 : i32, allocation.size = 16384 : i32} : tile<128x128xf32, #linear1> -> tile<128x128xf32, #linear2>
    %31 = store_view_tko weak %30, %pview_14[%blockId_x, %blockId_y] token = %0 attributes {ttg.index_nonneg = array<i32: 0, 1>, ttg.vector = {checks = array<i32: 0>, split, width = 4 : i32}} : tile<128x128xf32, #linear2>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32, #linear> -> token
    return
  }
}
