//! Run-time values: tiles (element bit patterns in row-major order), tokens and views.

use std::rc::Rc;
use tilec_ir::Type;
use tilec_ir::attrs::PaddingValue;

/// A tile: its element type, shape and elements in row-major order, each as the bit
/// pattern of its type in the low bits of a `u64` (integers zero-extended from their width,
/// `i1` as 0 or 1, floats as their encoding, pointers as byte addresses).
#[derive(Clone, Debug, PartialEq)]
pub struct Tile {
    pub elem: Type,
    pub shape: Rc<[i64]>,
    pub bits: Vec<u64>,
}

impl Tile {
    /// A rank-0 tile.
    pub fn scalar(elem: Type, bits: u64) -> Tile {
        Tile {
            elem,
            shape: Rc::from(&[][..]),
            bits: vec![bits],
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.bits.len()
    }

    /// Whether the tile has no elements (never, for a valid tile type).
    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }
}

/// A tensor view: a base address, the element type, and shape and strides (in elements)
/// with every dynamic entry resolved.
#[derive(Clone, Debug)]
pub struct TensorView {
    pub base: u64,
    pub elem: Type,
    pub shape: Vec<i64>,
    pub strides: Vec<i64>,
}

/// A tile view: a tensor view cut into tiles of `tile` (tile dimension `d` runs along
/// tensor dimension `dim_map[d]`). A partition view's tiles lie `tile` elements apart, a
/// strided view's (13.3) `traversal` elements apart; a gather/scatter view (13.3) picks the
/// rows of dimension `sparse_dim` one by one, and its other indices are element offsets
/// (a traversal of 1).
#[derive(Clone, Debug)]
pub struct PartitionView {
    pub tensor: Rc<TensorView>,
    pub tile: Vec<i64>,
    pub padding: Option<PaddingValue>,
    pub dim_map: Vec<usize>,
    /// Distance between the origins of neighbouring tiles, per tile dimension.
    pub traversal: Vec<i64>,
    /// The gathered/scattered tile dimension of a gather/scatter view.
    pub sparse_dim: Option<usize>,
}

impl PartitionView {
    /// The shape of the index space: per tile dimension, the number of tile origins that
    /// lie inside the tensor (partial tiles at the edges included); for a gather/scatter
    /// view, whose indices are element offsets, the tensor's shape.
    pub fn index_space(&self) -> Vec<i64> {
        (0..self.tile.len())
            .map(|d| {
                let n = self.tensor.shape[self.dim_map[d]].max(0);
                if self.sparse_dim == Some(d) {
                    n
                } else {
                    let s = self.traversal[d].max(1);
                    (n + s - 1) / s
                }
            })
            .collect()
    }
}

/// Any value an op can produce.
#[derive(Clone, Debug)]
pub enum Val {
    Tile(Tile),
    Token,
    TensorView(Rc<TensorView>),
    PartitionView(Rc<PartitionView>),
}

/// Row-major strides (in elements) of `shape`.
pub fn row_major_strides(shape: &[i64]) -> Vec<usize> {
    let mut strides = vec![1usize; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1] as usize;
    }
    strides
}

/// The coordinates of element `i` of a row-major tile of `shape`, into `out`.
pub fn coords_of(shape: &[i64], mut i: usize, out: &mut [i64]) {
    for d in (0..shape.len()).rev() {
        let n = shape[d] as usize;
        out[d] = (i % n) as i64;
        i /= n;
    }
}
