//! Tile IR bytecode: round trips, NVIDIA interop, the cuTile corpus, and bad inputs.
