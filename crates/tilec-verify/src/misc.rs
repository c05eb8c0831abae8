//! Globals, functions and entries, constants, printing and the other Misc ops.
//!
//! `entry` declares no results and takes only rank-0 tiles (besides non-tile arguments);
//! a `global` holds a rank-1 tile; a `constant`'s literal has the result's type; a
//! `print` has one operand per format expression of its format string. `get_global`'s
//! symbol checks are in [`crate::symbols`]; that `global` and `entry` sit directly in a
//! module is the op table's parent check.

use crate::{VResult, Verifier};
use tilec_diag::catalog::misc as cat;
use tilec_ir::attrs::AttrData;
use tilec_ir::module::Op;
use tilec_ir::ops::Opcode;
use tilec_ir::types::TypeData;

/// Checks one op of this family.
pub(crate) fn verify(v: &mut Verifier<'_>, op: Op) -> VResult {
    match v.m.opcode(op) {
        Opcode::Entry => entry(v, op),
        Opcode::Global => global(v, op),
        Opcode::Constant => constant(v, op),
        Opcode::Print => print(v, op),
        _ => Ok(()),
    }
}

/// `entry`: no results, rank-0 tile arguments.
fn entry(v: &mut Verifier<'_>, op: Op) -> VResult {
    let Some(AttrData::Type(ft)) = v.attr(op, "function_type") else {
        return Ok(());
    };
    let TypeData::Function { inputs, results } = v.data(*ft) else {
        return Ok(());
    };
    if !results.is_empty() {
        return Err(v.error(op, &cat::ENTRY_RESULTS, &[]));
    }
    let Some(i) = inputs.iter().position(|&t| v.is_tile(t) && v.rank(t) != 0) else {
        return Ok(());
    };
    let failed = v.error(op, &cat::ENTRY_ARG_RANK, &[]);
    let m = v.m;
    let arg = m
        .regions(op)
        .first()
        .and_then(|&r| m.entry_block(r))
        .and_then(|b| m.block_args(b).get(i).copied());
    if let Some(arg) = arg {
        let ty = v.ty(inputs[i]);
        v.label(v.value_span(arg), format!("argument #{i} has type '{ty}'"));
    }
    Err(failed)
}

/// `global`: a rank-1 value and a power-of-two alignment.
fn global(v: &mut Verifier<'_>, op: Op) -> VResult {
    if let Some(AttrData::Dense(d)) = v.attr(op, "value")
        && v.rank(d.ty) != 1
    {
        return Err(v.error(op, &cat::GLOBAL_RANK, &[]));
    }
    if let Some(a) = v.int_attr(op, "alignment")
        && (a < 0 || (a > 0 && a & (a - 1) != 0))
    {
        let span = v.attr_span(op, "alignment");
        let failed = v.error(op, &cat::GLOBAL_ALIGNMENT, &[("alignment", &a)]);
        v.label(span, "not a power of two");
        return Err(failed);
    }
    Ok(())
}

/// `constant`: the literal has the result's type.
fn constant(v: &mut Verifier<'_>, op: Op) -> VResult {
    let Some(AttrData::Dense(d)) = v.attr(op, "value") else {
        return Ok(());
    };
    let Some(&r) = v.results_of(op, "result").first() else {
        return Ok(());
    };
    let result = v.vty(r);
    if d.ty == result {
        return Ok(());
    }
    let (value, result) = (v.ty(d.ty), v.ty(result));
    Err(v.error(
        op,
        &cat::CONSTANT_TYPE,
        &[("value", &value), ("result", &result)],
    ))
}

/// `print`: one operand per format expression.
fn print(v: &mut Verifier<'_>, op: Op) -> VResult {
    let Some(AttrData::String(format)) = v.attr(op, "str") else {
        return Ok(());
    };
    let Some(expected) = count_format_expressions(format.as_bytes()) else {
        return Err(v.error(op, &cat::PRINT_UNTERMINATED, &[]));
    };
    let found = v.operands_of(op, "args").len();
    if expected != found {
        return Err(v.error(
            op,
            &cat::PRINT_OPERANDS,
            &[("expected", &expected), ("found", &found)],
        ));
    }
    Ok(())
}

/// The number of operands a printf-style format string consumes, or `None` if a `%` starts
/// no complete expression. An expression runs from `%` to the first conversion character
/// after it; `%%` is a literal percent sign. Scanning resumes one byte after each `%`
/// (two after `%%`), as NVIDIA's verifier does.
fn count_format_expressions(s: &[u8]) -> Option<usize> {
    const CONVERSIONS: &[u8] = b"diuoxXeEfFgGaAcspn%";
    let mut count = 0;
    let mut pos = 0;
    while pos < s.len() {
        if s[pos] == b'%' {
            let end = s[pos + 1..].iter().position(|c| CONVERSIONS.contains(c))?;
            if end == 0 && s[pos + 1] == b'%' {
                pos += 1;
            } else {
                count += 1;
            }
        }
        pos += 1;
    }
    Some(count)
}

#[cfg(test)]
mod tests {
    use super::count_format_expressions as count;

    #[test]
    fn format_expressions() {
        assert_eq!(count(b""), Some(0));
        assert_eq!(count(b"hello"), Some(0));
        assert_eq!(count(b"%d"), Some(1));
        assert_eq!(count(b"%f, %+08.3f\n"), Some(2));
        assert_eq!(count(b"100%%"), Some(0));
        assert_eq!(count(b"%d%%%d"), Some(2));
        assert_eq!(count(b"%"), None);
        assert_eq!(count(b"x %5.2"), None);
        // A `%` inside an unfinished expression ends it (NVIDIA's scan).
        assert_eq!(count(b"% %d"), Some(2));
    }
}
