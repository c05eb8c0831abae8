//! `print`: C-style formatting of tile elements.
//!
//! The format string's conversions (`%d`, `%i`, `%u`, `%x`, `%f`, `%e`, `%g`, with flags,
//! width, precision and length modifiers, `%%`) take the print's arguments in order. A
//! rank-0 argument prints as its value; a tile prints every element, `[a, b, ...]` row by
//! row (nested brackets for higher ranks), each with the conversion. Floats print their
//! value as an f64; integers use their signed value for `%d`/`%i` and their unsigned value
//! otherwise.

use crate::exec::int_width;
use crate::value::Tile;
use tilec_ir::Module;
use tilec_ir::float::to_f64;
use tilec_ir::util::sign_extend;

/// The largest field width or precision `print` takes. C's printf takes an `int`; a width
/// of millions of characters per element is a mistake, and printing it would take memory
/// out of all proportion to the program (`%4294967296d` asked for 4 GB per element).
pub const MAX_FIELD: usize = 4096;

/// A parsed conversion: flags, width, precision and the conversion letter.
struct Spec {
    flags: String,
    width: Option<usize>,
    prec: Option<usize>,
    conv: char,
}

/// Formats `fmt` with `args`; an error names a width or precision above [`MAX_FIELD`].
pub fn format(m: &Module, fmt: &str, args: &[Tile]) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = fmt.chars().peekable();
    let mut next = 0;
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push('%');
            continue;
        }
        let mut flags = String::new();
        while let Some(f) = chars.peek().copied().filter(|f| "-+ #0".contains(*f)) {
            flags.push(f);
            chars.next();
        }
        let num = |chars: &mut std::iter::Peekable<std::str::Chars>, what: &str| {
            let mut s = String::new();
            while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
                s.push(d);
                chars.next();
            }
            if s.is_empty() {
                return Ok(None);
            }
            match s.parse::<usize>() {
                Ok(v) if v <= MAX_FIELD => Ok(Some(v)),
                _ => Err(format!(
                    "the {what} {s} in the format string is larger than the {MAX_FIELD} characters 'print' takes"
                )),
            }
        };
        let width = num(&mut chars, "field width")?;
        let prec = if chars.peek() == Some(&'.') {
            chars.next();
            Some(num(&mut chars, "precision")?.unwrap_or(0))
        } else {
            None
        };
        while chars.peek().is_some_and(|l| "hlLqjzt".contains(*l)) {
            chars.next();
        }
        let conv = chars.next().unwrap_or('%');
        let spec = Spec {
            flags,
            width,
            prec,
            conv,
        };
        match args.get(next) {
            Some(t) => out.push_str(&format_tile(m, t, &spec)),
            None => out.push_str("(missing)"),
        }
        next += 1;
    }
    Ok(out)
}

fn format_tile(m: &Module, t: &Tile, spec: &Spec) -> String {
    if t.shape.is_empty() {
        return format_elem(m, t.elem, t.bits[0], spec);
    }
    let mut out = String::new();
    nested(m, t, spec, 0, 0, &mut out);
    out
}

fn nested(m: &Module, t: &Tile, spec: &Spec, dim: usize, base: usize, out: &mut String) {
    let n = t.shape[dim] as usize;
    let inner: usize = t.shape[dim + 1..].iter().product::<i64>() as usize;
    out.push('[');
    for i in 0..n {
        if i > 0 {
            out.push_str(", ");
        }
        if dim + 1 == t.shape.len() {
            out.push_str(&format_elem(m, t.elem, t.bits[base + i], spec));
        } else {
            nested(m, t, spec, dim + 1, base + i * inner, out);
        }
    }
    out.push(']');
}

fn format_elem(m: &Module, elem: tilec_ir::Type, bits: u64, spec: &Spec) -> String {
    let kind = tilec_ir::attrs::float_kind(&m.ctx.types, elem);
    let body = match (spec.conv, kind) {
        ('f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A', _) | (_, Some(_)) => {
            let v = match kind {
                Some(k) => to_f64(k, bits),
                None => sign_extend(bits, int_width(elem)) as f64,
            };
            float_text(v, spec)
        }
        ('d' | 'i', None) => {
            let v = sign_extend(bits, int_width(elem));
            let s = v.unsigned_abs().to_string();
            sign(v < 0, &s, spec)
        }
        ('x', None) => format!("{bits:x}"),
        ('X', None) => format!("{bits:X}"),
        ('o', None) => format!("{bits:o}"),
        ('c', None) => char::from_u32(bits as u32).unwrap_or('?').to_string(),
        (_, None) => bits.to_string(),
    };
    pad(&body, spec)
}

fn sign(neg: bool, digits: &str, spec: &Spec) -> String {
    if neg {
        format!("-{digits}")
    } else if spec.flags.contains('+') {
        format!("+{digits}")
    } else if spec.flags.contains(' ') {
        format!(" {digits}")
    } else {
        digits.to_string()
    }
}

fn float_text(v: f64, spec: &Spec) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return sign(v < 0.0, "inf", spec);
    }
    let p = spec.prec.unwrap_or(6);
    let a = v.abs();
    let digits = match spec.conv {
        'e' | 'E' => c_exp(a, p, spec.conv == 'E'),
        'g' | 'G' => {
            let p = p.max(1);
            // C's X: the exponent of the value rounded to p significant digits (the %e
            // form with p - 1 decimals), so that 999999.5 is 1e+06.
            let e = format!("{a:.*e}", p - 1);
            let exp: i32 = e.split_once('e').map_or(0, |(_, x)| x.parse().unwrap_or(0));
            if exp < -4 || exp >= p as i32 {
                trim_zeros(c_exp(a, p - 1, spec.conv == 'G'), spec)
            } else {
                trim_zeros(
                    format!("{:.*}", (p as i32 - 1 - exp).max(0) as usize, a),
                    spec,
                )
            }
        }
        _ => format!("{a:.p$}"),
    };
    sign(
        v.is_sign_negative() && v != 0.0 || (v == 0.0 && v.is_sign_negative()),
        &digits,
        spec,
    )
}

/// `%e`: d.ddddde±XX.
fn c_exp(a: f64, p: usize, upper: bool) -> String {
    let s = format!("{a:.p$e}");
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    let e_char = if upper { 'E' } else { 'e' };
    format!(
        "{mant}{e_char}{}{:02}",
        if e < 0 { '-' } else { '+' },
        e.abs()
    )
}

/// `%g` drops trailing zeros (and a trailing point) unless `#` is given.
fn trim_zeros(s: String, spec: &Spec) -> String {
    if spec.flags.contains('#') {
        return s;
    }
    let (mant, exp) = match s.find(['e', 'E']) {
        Some(i) => (s[..i].to_string(), s[i..].to_string()),
        None => (s.clone(), String::new()),
    };
    let mant = if mant.contains('.') {
        mant.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        mant
    };
    format!("{mant}{exp}")
}

fn pad(body: &str, spec: &Spec) -> String {
    let Some(w) = spec.width else {
        return body.to_string();
    };
    let len = body.chars().count();
    if len >= w {
        return body.to_string();
    }
    let fill = w - len;
    if spec.flags.contains('-') {
        format!("{body}{}", " ".repeat(fill))
    } else if spec.flags.contains('0') && spec.conv != 's' {
        let (s, rest) = match body.chars().next() {
            Some(c @ ('-' | '+' | ' ')) => (c.to_string(), &body[1..]),
            _ => (String::new(), body),
        };
        format!("{s}{}{rest}", "0".repeat(fill))
    } else {
        format!("{}{body}", " ".repeat(fill))
    }
}
