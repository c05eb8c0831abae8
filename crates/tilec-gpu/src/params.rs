//! Kernel arguments as the driver takes them (docs/abi.md): one value per parameter, of
//! the parameter's size, little-endian; and the `.param` list of the compiled PTX, which
//! the values are checked against before any launch.

use tilec_interp::Arg;
use tilec_ir::{Type, TypeData, TypeStore};

/// A kernel parameter as the PTX declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxParam {
    /// `vector_add_param_0`.
    pub name: String,
    /// The PTX type without the dot: `u64`, `u32`, `b16`, `f32`...
    pub ty: String,
    /// Its size in bytes.
    pub bytes: usize,
}

/// The size in bytes of a PTX fundamental type (`u64` -> 8), or `None` for anything else.
#[must_use]
pub fn ptx_type_bytes(ty: &str) -> Option<usize> {
    let bits: usize = ty
        .strip_prefix(['u', 's', 'b', 'f'])
        .and_then(|n| n.parse().ok())?;
    matches!(bits, 8 | 16 | 32 | 64).then_some(bits / 8)
}

/// The parameters of `.entry NAME(...)` in `ptx`, in order, or `None` when the PTX has no
/// such entry (or a parameter that is not a plain `.param .TYPE NAME`).
#[must_use]
pub fn ptx_params(ptx: &str, entry: &str) -> Option<Vec<PtxParam>> {
    let mut lines = ptx.lines();
    lines.find(|l| {
        let l = l.trim();
        l.strip_prefix(".visible .entry ")
            .or_else(|| l.strip_prefix(".entry "))
            .and_then(|r| r.strip_suffix('('))
            .or_else(|| {
                l.strip_prefix(".visible .entry ")
                    .or_else(|| l.strip_prefix(".entry "))
                    .and_then(|r| r.strip_suffix("()"))
            })
            .is_some_and(|n| n.trim() == entry)
    })?;
    let mut out = Vec::new();
    for l in lines {
        let l = l.trim().trim_end_matches(',');
        if l.starts_with(')') || l.is_empty() {
            break;
        }
        let mut words = l.split_whitespace();
        let (Some(".param"), Some(ty), Some(name), None) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return None;
        };
        let ty = ty.strip_prefix('.')?.to_string();
        let bytes = ptx_type_bytes(&ty)?;
        out.push(PtxParam {
            name: name.to_string(),
            ty,
            bytes,
        });
    }
    Some(out)
}

/// The PTX parameter type docs/abi.md gives a kernel argument of type `ty` (a rank-0
/// tile): `u64` for pointers and i64, `u32` for i32, `b16` for i16, f16 and bf16, `u8`
/// for i8, i1 and the f8 types, `f32` for f32 and tf32, `f64` for f64.
#[must_use]
pub fn abi_type(types: &TypeStore, ty: Type) -> Option<&'static str> {
    let elem = types.element_type(ty);
    Some(match types.get(elem) {
        TypeData::Ptr(_) => "u64",
        _ => match elem {
            Type::I64 => "u64",
            Type::I32 => "u32",
            Type::I16 | Type::F16 | Type::BF16 => "b16",
            Type::I8 | Type::I1 | Type::F8E4M3FN | Type::F8E5M2 | Type::F8E8M0FNU => "u8",
            Type::F32 | Type::TF32 => "f32",
            Type::F64 => "f64",
            _ => return None,
        },
    })
}

/// Checks the entry's parameter types against the PTX's `.param` list: the same count,
/// and each of the type docs/abi.md gives it.
///
/// # Errors
///
/// A one-line description of the first difference.
pub fn check_params(types: &TypeStore, params: &[Type], ptx: &[PtxParam]) -> Result<(), String> {
    if params.len() != ptx.len() {
        return Err(format!(
            "the entry has {} parameters but the PTX kernel declares {}",
            params.len(),
            ptx.len()
        ));
    }
    for (i, (t, p)) in params.iter().zip(ptx).enumerate() {
        let want = abi_type(types, *t).ok_or_else(|| {
            format!(
                "parameter {} has type {}, which no kernel ABI rule covers",
                i + 1,
                types.to_string(*t, false)
            )
        })?;
        if p.ty != want {
            return Err(format!(
                "parameter {} ({}) is declared .{} in the PTX, but docs/abi.md passes {} as .{want}",
                i + 1,
                p.name,
                p.ty,
                types.to_string(*t, false)
            ));
        }
    }
    Ok(())
}

/// The value passed for one argument: a scalar's bits in the parameter's size (floats in
/// their memory encoding: tf32 as an f32), or the device address of its buffer
/// (`addresses[i]` for [`Arg::Buffer`]`(i)`).
#[must_use]
pub fn param_bytes(types: &TypeStore, ty: Type, arg: &Arg, addresses: &[u64]) -> Vec<u8> {
    let size = abi_type(types, ty).and_then(ptx_type_bytes).unwrap_or(8);
    let bits = match arg {
        Arg::Buffer(i) => addresses[*i],
        Arg::Scalar(bits) => {
            let elem = types.element_type(ty);
            tilec_interp::mem::encode(types, elem, *bits)
        }
    };
    bits.to_le_bytes()[..size].to_vec()
}
