//! (stub until the argument module lands)
pub enum ArgSpec {
    Scalar { elem: tilec_ir::Type, bits: u64 },
    Buffer(crate::npy::Array),
}
pub fn parse(
    s: &str,
    _read_file: &mut dyn FnMut(&std::path::Path) -> std::io::Result<Vec<u8>>,
) -> Result<ArgSpec, String> {
    let (t, v) = s.split_once(':').ok_or("bad arg")?;
    let elem = match t {
        "i32" => tilec_ir::Type::I32,
        _ => return Err(format!("unknown type {t}")),
    };
    Ok(ArgSpec::Scalar {
        elem,
        bits: v.parse::<i64>().map_err(|e| e.to_string())? as u64 & 0xffff_ffff,
    })
}
