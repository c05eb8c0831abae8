//! Math library: PTX instruction sequences for the tile IR math ops (placeholder; being
//! written).
