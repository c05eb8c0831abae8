//! Attribute parsing: MLIR's attribute grammar (the subset tile IR uses), the `cuda_tile`
//! attributes, locations, and dense constants in NVIDIA's (`<f32: [1.0, 2.0]>`) and MLIR's
//! (`dense<[1.0, 2.0]>`) spellings.

use crate::lexer::Tok;
use crate::parser::{LocOwner, PResult, Parser};
use crate::types::parse_uint;
use tilec_diag::{Span, codes};
use tilec_ir::Module;
use tilec_ir::attrs::{Attr, AttrData, AttrPrinter, EnumKind, dense};
use tilec_ir::float::{self, FloatKind};
use tilec_ir::types::{Type, TypeData};

/// True if the attribute is a location.
pub(crate) fn is_location(m: &Module, a: Attr) -> bool {
    matches!(
        m.ctx.attrs.get(a),
        AttrData::LocUnknown
            | AttrData::LocFile { .. }
            | AttrData::LocName { .. }
            | AttrData::LocCallSite { .. }
            | AttrData::LocFused { .. }
            | AttrData::DiLoc { .. }
    )
}

/// The generic text of an attribute (for messages).
pub(crate) fn attr_text(m: &Module, a: Attr) -> String {
    let mut s = String::new();
    AttrPrinter {
        types: &m.ctx.types,
        attrs: &m.ctx.attrs,
        aliases: None,
    }
    .write(&mut s, a);
    s
}

/// One literal of a dense constant, before its element type is known.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lit {
    neg: bool,
    kind: Tok,
    span: Span,
}

/// A parsed dense literal: flat values and the inferred shape (empty for a scalar).
pub(crate) struct DenseLit {
    pub values: Vec<Lit>,
    pub shape: Vec<i64>,
}

impl<'s> Parser<'s> {
    /// Parses an attribute. With `ty`, an untyped integer or float literal gets that type.
    /// Returns the attribute and its span.
    pub(crate) fn parse_attribute(&mut self, ty: Option<Type>) -> PResult<(Attr, Span)> {
        let start = self.tok.start;
        let a = self.nested(|p| p.parse_attribute_inner(ty))?;
        Ok((a, Span::new(start, self.prev_end)))
    }

    fn parse_attribute_inner(&mut self, ty: Option<Type>) -> PResult<Attr> {
        match self.tok.kind {
            Tok::HashId => self.parse_hash_attr(),
            Tok::LSquare => {
                self.bump();
                let mut items = Vec::new();
                if !self.eat(Tok::RSquare) {
                    loop {
                        items.push(self.parse_attribute(None)?.0);
                        if self.eat(Tok::RSquare) {
                            break;
                        }
                        self.expect(Tok::Comma, "expected ']'")?;
                    }
                }
                Ok(self.m.ctx.attrs.intern(AttrData::Array(items.into())))
            }
            Tok::LBrace => {
                let entries = self.parse_attr_dict_entries()?;
                Ok(self.m.ctx.attrs.intern(AttrData::Dict(entries.into())))
            }
            Tok::AtId => {
                let name = unquote_symbol(self.text());
                self.bump();
                Ok(self.m.ctx.attrs.intern(AttrData::SymbolRef(name.into())))
            }
            Tok::String => {
                let s = self.parse_string_literal()?;
                if self.eat(Tok::Colon) {
                    self.parse_type()?;
                }
                Ok(self.m.ctx.attrs.intern(AttrData::String(s.into())))
            }
            Tok::Integer | Tok::Float | Tok::Minus => self.parse_number_attr(ty),
            Tok::BareId => match self.text() {
                "true" => {
                    self.bump();
                    Ok(Attr::TRUE)
                }
                "false" => {
                    self.bump();
                    Ok(Attr::FALSE)
                }
                "unit" => {
                    self.bump();
                    Ok(Attr::UNIT)
                }
                "dense" => {
                    self.bump();
                    self.parse_mlir_dense(None)
                }
                "array" => self.parse_dense_array(),
                "loc" => {
                    self.bump();
                    self.expect(Tok::LParen, "expected '(' in location")?;
                    let l = self.parse_location_body(None)?;
                    self.expect(Tok::RParen, "expected ')' in location")?;
                    Ok(l)
                }
                _ => {
                    let t = self.parse_type()?;
                    Ok(self.m.ctx.attrs.intern(AttrData::Type(t)))
                }
            },
            Tok::BangId | Tok::LParen => {
                let t = self.parse_type()?;
                Ok(self.m.ctx.attrs.intern(AttrData::Type(t)))
            }
            _ => Err(self.err_wrong_token("expected attribute value")),
        }
    }

    /// Parses a string literal and unescapes it.
    pub(crate) fn parse_string_literal(&mut self) -> PResult<String> {
        if self.tok.kind != Tok::String {
            return Err(self.err_wrong_token("expected string"));
        }
        let s = unescape(&self.text()[1..self.text().len() - 1]);
        self.bump();
        Ok(s)
    }

    /// Parses `{k = v, ...}`; keys are identifiers or strings, `k` alone means `unit`.
    /// Duplicate keys are an error; the result is sorted by key.
    pub(crate) fn parse_attr_dict_entries(&mut self) -> PResult<Vec<(Box<str>, Attr)>> {
        self.expect(Tok::LBrace, "expected '{'")?;
        let mut entries: Vec<(Box<str>, Attr)> = Vec::new();
        if !self.eat(Tok::RBrace) {
            loop {
                let (key, kspan): (String, Span) = match self.tok.kind {
                    Tok::BareId => {
                        let r = (self.text().to_string(), self.span());
                        self.bump();
                        r
                    }
                    Tok::String => {
                        let sp = self.span();
                        (self.parse_string_literal()?, sp)
                    }
                    _ => return Err(self.err_wrong_token("expected attribute name")),
                };
                let value = if self.eat(Tok::Equal) {
                    self.parse_attribute(None)?.0
                } else {
                    Attr::UNIT
                };
                if entries.iter().any(|(k, _)| **k == *key) {
                    return Err(self.err(
                        codes::INVALID_ATTRIBUTE,
                        kspan,
                        format!("attribute '{key}' occurs more than once in the attribute list"),
                    ));
                }
                entries.push((key.into(), value));
                if self.eat(Tok::RBrace) {
                    break;
                }
                self.expect(Tok::Comma, "expected '}'")?;
            }
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(entries)
    }

    fn parse_number_attr(&mut self, ty: Option<Type>) -> PResult<Attr> {
        let neg = self.eat(Tok::Minus);
        let tok = self.tok;
        let text = self.text();
        let span = self.span();
        if !matches!(tok.kind, Tok::Integer | Tok::Float) {
            return Err(self.err_wrong_token("expected attribute value"));
        }
        self.bump();
        let ty = if self.eat(Tok::Colon) {
            Some(self.parse_type()?)
        } else {
            ty
        };
        let ty = ty.unwrap_or(if tok.kind == Tok::Float {
            Type::F64
        } else {
            Type::I64
        });
        match self.m.ctx.types.get(ty).clone() {
            TypeData::Float(k) => {
                let bits = self.float_from_token(k, neg, tok.kind, text, span)?;
                Ok(self.m.ctx.attrs.intern(AttrData::Float { bits, ty }))
            }
            TypeData::Int(w) => {
                if tok.kind == Tok::Float {
                    return Err(self.err(codes::INVALID_ATTRIBUTE, span, "expected integer value"));
                }
                let Some(v) = parse_uint(text) else {
                    return Err(self.err(
                        codes::INVALID_ATTRIBUTE,
                        span,
                        "integer constant out of range for attribute",
                    ));
                };
                let value = if neg {
                    (v as i64).wrapping_neg()
                } else {
                    v as i64
                };
                let fits = match w {
                    64 => !neg || v <= 1u64 << 63,
                    w if w < 64 => {
                        let max_u = (1u64 << w) - 1;
                        if neg {
                            v <= 1u64 << (w - 1)
                        } else {
                            v <= max_u
                        }
                    }
                    _ => true,
                };
                if !fits {
                    return Err(self.err(
                        codes::INVALID_ATTRIBUTE,
                        span,
                        "integer constant out of range for attribute",
                    ));
                }
                Ok(self.m.ctx.attrs.intern(AttrData::Int {
                    value,
                    ty: Some(ty),
                }))
            }
            _ => {
                let v = parse_uint(text).unwrap_or(0) as i64;
                Ok(self.m.ctx.attrs.intern(AttrData::Int {
                    value: if neg { -v } else { v },
                    ty: Some(ty),
                }))
            }
        }
    }

    /// MLIR's `parseFloat(semantics)`: decimal literals go through f64 (as MLIR does);
    /// integer literals must be hexadecimal bit patterns.
    pub(crate) fn float_from_token(
        &mut self,
        k: FloatKind,
        neg: bool,
        kind: Tok,
        text: &str,
        span: Span,
    ) -> PResult<u64> {
        match kind {
            Tok::Float => {
                let v: f64 = text.parse().unwrap_or(0.0);
                if v.is_infinite() {
                    return Err(self.err(
                        codes::INVALID_ATTRIBUTE,
                        span,
                        "floating point value too large",
                    ));
                }
                Ok(float::round_from_f64(k, if neg { -v } else { v }))
            }
            Tok::Integer => {
                if !text.starts_with("0x") {
                    let d = tilec_diag::Diagnostic::error(
                        codes::INVALID_ATTRIBUTE,
                        "unexpected decimal integer literal for a floating point value",
                    )
                    .at(self.loc(span))
                    .with_note("add a trailing dot to make the literal a float", None);
                    self.diags.push(d);
                    return Err(crate::parser::Failed);
                }
                if neg {
                    return Err(self.err(
                        codes::INVALID_ATTRIBUTE,
                        span,
                        "hexadecimal float literal should not have a leading minus",
                    ));
                }
                let digits = text[2..].trim_start_matches('0');
                let value = if digits.len() > 32 {
                    None
                } else {
                    u128::from_str_radix(if digits.is_empty() { "0" } else { digits }, 16).ok()
                };
                match value {
                    Some(v) if 128 - v.leading_zeros() <= k.bit_width() => Ok(v as u64),
                    _ => Err(self.err(
                        codes::INVALID_ATTRIBUTE,
                        span,
                        "hexadecimal float constant out of range for type",
                    )),
                }
            }
            _ => Err(self.err(
                codes::INVALID_ATTRIBUTE,
                span,
                "expected floating point literal",
            )),
        }
    }

    fn parse_dense_array(&mut self) -> PResult<Attr> {
        self.bump();
        self.expect(Tok::Less, "expected '<' after 'array'")?;
        let ety_span = self.span();
        let (ety, _) = self.keyword()?;
        let bits = match ety {
            "i1" => 1,
            "i8" => 8,
            "i16" => 16,
            "i32" => 32,
            "i64" => 64,
            _ => {
                return Err(self.err(
                    codes::INVALID_ATTRIBUTE,
                    ety_span,
                    format!("expected integer element type (i1, i8, i16, i32 or i64) for a dense array, got '{ety}'"),
                ));
            }
        };
        let mut v = Vec::new();
        if self.eat(Tok::Colon) {
            loop {
                let at = self.span();
                let x = self.parse_i64()?;
                // Signed or unsigned readings of the width, as MLIR takes them.
                let fits = bits == 64 || (x >= -(1i64 << (bits - 1)) && x < (1i64 << bits));
                if !fits {
                    return Err(self.err(
                        codes::INVALID_ATTRIBUTE,
                        at,
                        format!("integer constant out of range for a dense array of {ety}"),
                    ));
                }
                v.push(x);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::Greater, "expected '>' to close an array attribute")?;
        Ok(match ety {
            "i32" => self.m.ctx.attrs.intern(AttrData::DenseI32Array(
                v.iter().map(|x| *x as i32).collect(),
            )),
            _ => self.m.ctx.attrs.intern(AttrData::DenseI64Array(v.into())),
        })
    }

    fn parse_hash_attr(&mut self) -> PResult<Attr> {
        let text = self.text();
        let span = self.span();
        let name = &text[1..];
        if let Some(mnemonic) = name.strip_prefix("cuda_tile.") {
            self.bump();
            return self.parse_cuda_tile_attr(mnemonic, span);
        }
        if !name.contains('.') {
            self.bump();
            return match self.attr_aliases.get(name) {
                Some(a) => Ok(*a),
                None => Err(self.err(
                    codes::UNDEFINED_ALIAS,
                    span,
                    format!("undefined symbol alias id '{name}'"),
                )),
            };
        }
        // Attribute of another dialect: keep it verbatim.
        let start = self.tok.start as usize;
        self.bump();
        if self.at(Tok::Less) {
            self.skip_balanced_angles()?;
        }
        let text = self.src[start..self.prev_end as usize].to_string();
        Ok(self.m.ctx.attrs.intern(AttrData::Opaque(text.into())))
    }

    /// Parses the body of `#cuda_tile.<mnemonic>` (or of the short predicate forms).
    pub(crate) fn parse_cuda_tile_attr(&mut self, mnemonic: &str, span: Span) -> PResult<Attr> {
        let enum_kind = match mnemonic {
            "rounding" => Some(EnumKind::RoundingMode),
            "signedness" => Some(EnumKind::Signedness),
            "overflow" => Some(EnumKind::Overflow),
            "comparison_predicate" => Some(EnumKind::ComparisonPredicate),
            "comparison_ordering" => Some(EnumKind::ComparisonOrdering),
            "padding_value" => Some(EnumKind::PaddingValue),
            "memory_ordering_semantics" => Some(EnumKind::MemoryOrdering),
            "memory_scope" => Some(EnumKind::MemoryScope),
            "atomic_rmw_mode" => Some(EnumKind::AtomicRmwMode),
            "barrier_scope" => Some(EnumKind::BarrierScope),
            "symbol_visibility" => Some(EnumKind::SymbolVisibility),
            "bytecode_test_priority" => Some(EnumKind::BytecodeTestPriority),
            _ => None,
        };
        if let Some(k) = enum_kind {
            return self.parse_angle_enum(k);
        }
        match mnemonic {
            "div_by" => self.parse_div_by(),
            "bytecode_test_value" => {
                self.expect(Tok::Less, "expected '<'")?;
                let v = self.parse_i64()?;
                self.expect(Tok::Greater, "expected '>'")?;
                Ok(self.m.ctx.attrs.intern(AttrData::BytecodeTestValue(v)))
            }
            "same_elements" => {
                self.expect(Tok::Less, "expected '<'")?;
                self.expect(Tok::LSquare, "expected '['")?;
                let mut v = Vec::new();
                if !self.eat(Tok::RSquare) {
                    loop {
                        v.push(self.parse_i64()?);
                        if self.eat(Tok::RSquare) {
                            break;
                        }
                        self.expect(Tok::Comma, "expected ']'")?;
                    }
                }
                self.expect(Tok::Greater, "expected '>'")?;
                Ok(self.m.ctx.attrs.intern(AttrData::SameElements(v.into())))
            }
            "bounded" => {
                self.expect(Tok::Less, "expected '<'")?;
                let lb = if self.eat(Tok::Question) {
                    None
                } else {
                    Some(self.parse_i64()?)
                };
                self.expect(Tok::Comma, "expected ','")?;
                let ub = if self.eat(Tok::Question) {
                    None
                } else {
                    Some(self.parse_i64()?)
                };
                self.expect(Tok::Greater, "expected '>'")?;
                Ok(self.m.ctx.attrs.intern(AttrData::Bounded { lb, ub }))
            }
            "optimization_hints" => self.parse_opt_hints(),
            "di_loc" => {
                self.expect(Tok::Less, "expected '<'")?;
                let loc = self.parse_attribute(None)?.0;
                self.expect_keyword("in")?;
                let scope = self.parse_attribute(None)?.0;
                self.expect(Tok::Greater, "expected '>'")?;
                Ok(self.m.ctx.attrs.intern(AttrData::DiLoc { loc, scope }))
            }
            "di_file" => {
                self.expect(Tok::Less, "expected '<'")?;
                let name = self.parse_string_literal()?;
                self.expect_keyword("in")?;
                let directory = self.parse_string_literal()?;
                self.expect(Tok::Greater, "expected '>'")?;
                Ok(self.m.ctx.attrs.intern(AttrData::DiFile {
                    name: name.into(),
                    directory: directory.into(),
                }))
            }
            "di_compile_unit" | "di_subprogram" | "di_lexical_block" => {
                self.expect(Tok::Less, "expected '<'")?;
                let mut fields: Vec<(Box<str>, Attr)> = Vec::new();
                if !self.eat(Tok::Greater) {
                    loop {
                        let (k, _) = self.keyword()?;
                        self.expect(Tok::Equal, "expected '='")?;
                        let v = if self.at(Tok::Integer) {
                            let v = self.parse_i64()?;
                            self.m
                                .ctx
                                .attrs
                                .intern(AttrData::Int { value: v, ty: None })
                        } else {
                            self.parse_attribute(None)?.0
                        };
                        fields.push((k.into(), v));
                        if self.eat(Tok::Greater) {
                            break;
                        }
                        self.expect(Tok::Comma, "expected '>'")?;
                    }
                }
                Ok(self.m.ctx.attrs.intern(AttrData::DiStruct {
                    mnemonic: mnemonic.into(),
                    fields: fields.into(),
                }))
            }
            _ => {
                const MNEMONICS: &[&str] = &[
                    "rounding",
                    "signedness",
                    "overflow",
                    "comparison_predicate",
                    "comparison_ordering",
                    "padding_value",
                    "memory_ordering_semantics",
                    "memory_scope",
                    "atomic_rmw_mode",
                    "barrier_scope",
                    "div_by",
                    "same_elements",
                    "bounded",
                    "optimization_hints",
                    "di_loc",
                    "di_file",
                    "di_compile_unit",
                    "di_subprogram",
                    "di_lexical_block",
                ];
                let near = tilec_diag::closest(mnemonic, MNEMONICS.iter().copied());
                Err(self.err_suggest(
                    codes::INVALID_ATTRIBUTE,
                    span,
                    format!("unknown attribute `{mnemonic}` in dialect `cuda_tile`"),
                    near,
                ))
            }
        }
    }

    /// `<case>` of an enum attribute.
    pub(crate) fn parse_angle_enum(&mut self, k: EnumKind) -> PResult<Attr> {
        self.expect(Tok::Less, "expected '<'")?;
        let at = Span::at(self.tok.start);
        let (kw, _) = self.keyword()?;
        let Some(v) = k.cases().iter().position(|c| *c == kw) else {
            let kw = kw.to_string();
            let failed = self.err(
                codes::INVALID_ATTRIBUTE,
                at,
                format!(
                    "expected {} to be one of: {}",
                    enum_name(k),
                    k.cases().join(", ")
                ),
            );
            self.suggest_last(&kw, k.cases());
            return Err(failed);
        };
        self.expect(Tok::Greater, "expected '>'")?;
        Ok(self.m.ctx.attrs.enum_case(k, v as u8))
    }

    pub(crate) fn parse_div_by(&mut self) -> PResult<Attr> {
        self.expect(Tok::Less, "expected '<'")?;
        if self.tok.kind != Tok::Integer {
            return Err(self.err_here(
                codes::INVALID_ATTRIBUTE,
                "failed to parse parameter 'divisor' which is expected to be an integer",
            ));
        }
        let span = self.span();
        let Some(divisor) = parse_uint(self.text()) else {
            return Err(self.err(codes::INVALID_ATTRIBUTE, span, "integer value too large"));
        };
        self.bump();
        let (mut every, mut along) = (None, None);
        if self.eat(Tok::Comma) {
            self.expect_keyword("every")?;
            every = Some(self.parse_i64()?);
            self.expect_keyword("along")?;
            along = Some(self.parse_i64()?);
        }
        self.expect(Tok::Greater, "expected '>'")?;
        Ok(self.m.ctx.attrs.intern(AttrData::DivBy {
            divisor,
            every,
            along,
        }))
    }

    /// `<arch = {key = value, ...}, ...>`.
    pub(crate) fn parse_opt_hints(&mut self) -> PResult<Attr> {
        self.expect(Tok::Less, "expected '<'")?;
        let mut entries: Vec<(Box<str>, Attr)> = Vec::new();
        if !self.eat(Tok::Greater) {
            loop {
                let key = match self.tok.kind {
                    Tok::BareId => {
                        let k = self.text().to_string();
                        self.bump();
                        k
                    }
                    Tok::String => self.parse_string_literal()?,
                    _ => {
                        return Err(
                            self.err_here(codes::SYNTAX, "expected valid keyword or string")
                        );
                    }
                };
                self.expect(Tok::Equal, "expected '='")?;
                let (value, vspan) = self.parse_attribute(None)?;
                if entries.iter().any(|(k, _)| **k == *key) {
                    return Err(self.err(
                        codes::INVALID_ATTRIBUTE,
                        vspan,
                        format!("duplicate optimization_hints key `{key}`"),
                    ));
                }
                if !matches!(self.m.ctx.attrs.get(value), AttrData::Dict(_)) {
                    let t = attr_text(&self.m, value);
                    return Err(self.err(
                        codes::INVALID_ATTRIBUTE,
                        vspan,
                        format!("expected dictionary attribute for optimization_hints entry `{key}` got value={t}"),
                    ));
                }
                entries.push((key.into(), value));
                if self.eat(Tok::Greater) {
                    break;
                }
                self.expect(Tok::Comma, "expected '>'")?;
            }
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let dict = self.m.ctx.attrs.intern(AttrData::Dict(entries.into()));
        Ok(self.m.ctx.attrs.intern(AttrData::OptHints(dict)))
    }

    // ------------------------------------------------------------------ locations

    /// Parses an optional trailing `loc(...)`; aliases defined later are resolved at the end.
    pub(crate) fn parse_trailing_loc(&mut self, owner: LocOwner) -> PResult<()> {
        if !self.at_keyword("loc") {
            return Ok(());
        }
        self.bump();
        self.expect(Tok::LParen, "expected '(' in location")?;
        if self.tok.kind == Tok::HashId && !self.text().contains('.') {
            let name = &self.text()[1..];
            let span = self.span();
            self.bump();
            match self.attr_aliases.get(name).copied() {
                Some(a) => {
                    if !is_location(&self.m, a) {
                        let t = attr_text(&self.m, a);
                        return Err(self.err(
                            codes::INVALID_ATTRIBUTE,
                            span,
                            format!("expected location, but found '{t}'"),
                        ));
                    }
                    self.set_loc(owner, a);
                }
                None => self.deferred_locs.push((owner, name, span)),
            }
        } else {
            let l = self.parse_location_body(Some(owner))?;
            self.set_loc(owner, l);
        }
        self.expect(Tok::RParen, "expected ')' in location")?;
        Ok(())
    }

    fn set_loc(&mut self, owner: LocOwner, a: Attr) {
        match owner {
            LocOwner::Op(op) => self.m.set_op_loc(op, Some(a)),
            LocOwner::Value(v) => self.m.set_value_loc(v, Some(a)),
        }
    }

    /// Parses what is inside `loc(...)`.
    pub(crate) fn parse_location_body(&mut self, owner: Option<LocOwner>) -> PResult<Attr> {
        self.nested(|p| p.parse_location_body_inner(owner))
    }

    fn parse_location_body_inner(&mut self, _owner: Option<LocOwner>) -> PResult<Attr> {
        match self.tok.kind {
            Tok::BareId if self.text() == "unknown" => {
                self.bump();
                Ok(Attr::UNKNOWN_LOC)
            }
            Tok::BareId if self.text() == "callsite" => {
                self.bump();
                self.expect(Tok::LParen, "expected '(' in callsite location")?;
                let callee = self.parse_location_body(None)?;
                self.expect_keyword("at")?;
                let caller = self.parse_location_body(None)?;
                self.expect(Tok::RParen, "expected ')' in callsite location")?;
                Ok(self
                    .m
                    .ctx
                    .attrs
                    .intern(AttrData::LocCallSite { callee, caller }))
            }
            Tok::BareId if self.text() == "fused" => {
                self.bump();
                let metadata = if self.eat(Tok::Less) {
                    let a = self.parse_attribute(None)?.0;
                    self.expect(Tok::Greater, "expected '>' after fused location metadata")?;
                    Some(a)
                } else {
                    None
                };
                self.expect(Tok::LSquare, "expected '[' in fused location")?;
                let mut locs = Vec::new();
                if !self.eat(Tok::RSquare) {
                    loop {
                        locs.push(self.parse_location_body(None)?);
                        if self.eat(Tok::RSquare) {
                            break;
                        }
                        self.expect(Tok::Comma, "expected ']'")?;
                    }
                }
                Ok(self.m.ctx.attrs.intern(AttrData::LocFused {
                    locs: locs.into(),
                    metadata,
                }))
            }
            Tok::String => {
                let s = self.parse_string_literal()?;
                if self.eat(Tok::Colon) {
                    let line = self.parse_i64()?;
                    self.expect(Tok::Colon, "expected ':' in FileLineColLoc")?;
                    let col = self.parse_i64()?;
                    return Ok(self.m.ctx.attrs.intern(AttrData::LocFile {
                        file: s.into(),
                        line: line.clamp(0, u32::MAX as i64) as u32,
                        col: col.clamp(0, u32::MAX as i64) as u32,
                    }));
                }
                let child = if self.eat(Tok::LParen) {
                    let c = self.parse_location_body(None)?;
                    self.expect(Tok::RParen, "expected ')' after child location of NameLoc")?;
                    Some(c)
                } else {
                    None
                };
                Ok(self.m.ctx.attrs.intern(AttrData::LocName {
                    name: s.into(),
                    child,
                }))
            }
            Tok::HashId => {
                let span = self.span();
                let a = self.parse_hash_attr()?;
                if !is_location(&self.m, a) {
                    let t = attr_text(&self.m, a);
                    return Err(self.err(
                        codes::INVALID_ATTRIBUTE,
                        span,
                        format!("expected location, but found '{t}'"),
                    ));
                }
                Ok(a)
            }
            _ => Err(self.err_wrong_token("expected location instance")),
        }
    }

    // ------------------------------------------------------------------ dense constants

    /// Parses a (possibly nested) literal list: `1.0`, `[1, 2]`, `[[1, 2], [3, 4]]`.
    pub(crate) fn parse_dense_literal(&mut self) -> PResult<DenseLit> {
        let mut values = Vec::new();
        let shape = self.parse_dense_nested(&mut values)?;
        Ok(DenseLit { values, shape })
    }

    fn parse_dense_nested(&mut self, out: &mut Vec<Lit>) -> PResult<Vec<i64>> {
        if !self.eat(Tok::LSquare) {
            out.push(self.parse_dense_scalar()?);
            return Ok(Vec::new());
        }
        let mut count = 0i64;
        let mut elem_shape: Option<Vec<i64>> = None;
        if !self.eat(Tok::RSquare) {
            loop {
                let s = self.nested(|p| p.parse_dense_nested(out))?;
                match &elem_shape {
                    None => elem_shape = Some(s),
                    Some(e) if *e != s => {
                        return Err(self.err_here(
                            codes::DENSE,
                            "tensor literal is invalid; ranks are not consistent between elements",
                        ));
                    }
                    _ => {}
                }
                count += 1;
                if self.eat(Tok::RSquare) {
                    break;
                }
                self.expect(Tok::Comma, "expected ']'")?;
            }
        }
        let mut shape = vec![count];
        shape.extend(elem_shape.unwrap_or_default());
        Ok(shape)
    }

    fn parse_dense_scalar(&mut self) -> PResult<Lit> {
        let neg = self.eat(Tok::Minus);
        let kind = self.tok.kind;
        let span = self.span();
        match kind {
            Tok::Integer | Tok::Float => {
                self.bump();
                Ok(Lit { neg, kind, span })
            }
            Tok::BareId if !neg && matches!(self.text(), "true" | "false" | "inf" | "nan") => {
                self.bump();
                Ok(Lit { neg, kind, span })
            }
            Tok::BareId if neg && matches!(self.text(), "inf" | "nan") => {
                self.bump();
                Ok(Lit { neg, kind, span })
            }
            _ => Err(self.err_wrong_token("expected integer or floating point literal")),
        }
    }

    /// Converts literal values to element bit patterns. `nvidia`: NVIDIA's rules (integer
    /// range union of signed and unsigned, `true`/`false` only for `i1`, floats need a `.`
    /// or a hex bit pattern); otherwise MLIR's `dense<...>` rules (integers are accepted
    /// for float types).
    pub(crate) fn convert_dense(
        &mut self,
        elem: Type,
        lit: &DenseLit,
        nvidia: bool,
    ) -> PResult<Vec<u64>> {
        let ed = self.m.ctx.types.get(elem).clone();
        let mut out = Vec::with_capacity(lit.values.len());
        for l in &lit.values {
            let text = &self.src[l.span.start as usize..l.span.end as usize];
            let bits = match &ed {
                TypeData::Int(w) => {
                    let w = *w;
                    let v: i128 = match (l.kind, text) {
                        (Tok::BareId, "true") => 1,
                        (Tok::BareId, "false") => 0,
                        (Tok::Integer, t) => match parse_uint(t) {
                            Some(v) => v as i128,
                            None => {
                                return Err(self.err(
                                    codes::DENSE,
                                    l.span,
                                    "integer constant out of range for type",
                                ));
                            }
                        },
                        _ => {
                            return Err(self.err_op(
                                codes::DENSE,
                                l.span,
                                "expected integer value",
                            ));
                        }
                    };
                    if l.kind == Tok::BareId && w != 1 && nvidia {
                        return Err(self.err_op(codes::DENSE, l.span, "expected integer value"));
                    }
                    let v = if l.neg { -v } else { v };
                    let (lo, hi): (i128, i128) = if w >= 64 {
                        (i64::MIN as i128, u64::MAX as i128)
                    } else {
                        (-(1i128 << (w - 1)), (1i128 << w) - 1)
                    };
                    if v < lo || v > hi {
                        return Err(self.err(
                            codes::DENSE,
                            l.span,
                            "integer constant out of range for type",
                        ));
                    }
                    if w >= 64 {
                        v as u64
                    } else {
                        (v as u64) & ((1u64 << w) - 1)
                    }
                }
                TypeData::Float(k) => {
                    let k = *k;
                    if l.neg && !k.is_signed() {
                        // LLVM aborts here; cuTile refuses too.
                        return Err(self.err(
                            codes::DENSE,
                            l.span,
                            format!(
                                "negative values cannot be represented in the unsigned float type '{}'",
                                k.name()
                            ),
                        ));
                    }
                    match (l.kind, text) {
                        (Tok::BareId, "inf") => float::round_from_f64(
                            k,
                            if l.neg {
                                f64::NEG_INFINITY
                            } else {
                                f64::INFINITY
                            },
                        ),
                        (Tok::BareId, "nan") => float::round_from_f64(k, f64::NAN),
                        (Tok::BareId, _) => {
                            return Err(self.err(
                                codes::DENSE,
                                l.span,
                                "expected floating point literal",
                            ));
                        }
                        (Tok::Integer, t) if !nvidia && !t.starts_with("0x") => {
                            let v: f64 = t.parse().unwrap_or(0.0);
                            float::round_from_f64(k, if l.neg { -v } else { v })
                        }
                        (kind, t) => self.float_from_token(k, l.neg, kind, t, l.span)?,
                    }
                }
                _ => return Err(self.err_op(codes::DENSE, l.span, "unsupported element type")),
            };
            out.push(bits);
        }
        Ok(out)
    }

    /// Checks the literal shape against the tile type and builds the attribute.
    pub(crate) fn build_dense(
        &mut self,
        ty: Type,
        lit: &DenseLit,
        bits: Vec<u64>,
        type_span: Span,
    ) -> PResult<Attr> {
        let shape = self.m.ctx.types.shape(ty).to_vec();
        let fmt = |s: &[i64]| {
            format!(
                "[{}]",
                s.iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            )
        };
        if shape.is_empty() {
            if !lit.shape.is_empty() {
                return Err(self.err(
                    codes::DENSE,
                    type_span,
                    format!(
                        "inferred shape of elements literal ({}) does not match type ([])",
                        fmt(&lit.shape)
                    ),
                ));
            }
        } else if !lit.shape.is_empty() && lit.shape != shape {
            return Err(self.err(
                codes::DENSE,
                type_span,
                format!(
                    "inferred shape of elements literal ({}) does not match type ({})",
                    fmt(&lit.shape),
                    fmt(&shape)
                ),
            ));
        }
        if bits.is_empty() {
            return Err(self.err_op(codes::DENSE, type_span, "dense attribute cannot be empty"));
        }
        Ok(self.m.ctx.attrs.intern(dense(ty, bits)))
    }

    /// `dense<literal> : type` (MLIR's spelling; `dense` already consumed). With `ty`, the
    /// `: type` suffix is optional and `ty` is used when it is missing.
    pub(crate) fn parse_mlir_dense(&mut self, ty: Option<Type>) -> PResult<Attr> {
        self.expect(Tok::Less, "expected '<' after 'dense'")?;
        let lit = self.parse_dense_literal()?;
        self.expect(Tok::Greater, "expected '>'")?;
        let type_span = Span::at(self.tok.start);
        let ty = if self.eat(Tok::Colon) {
            self.parse_type()?
        } else if let Some(t) = ty {
            t
        } else {
            return Err(self.err_wrong_token("expected ':'"));
        };
        if !self.m.ctx.types.is_tile(ty) {
            let t = self.m.ctx.types.to_string(ty, true);
            return Err(self.err(
                codes::DENSE,
                type_span,
                format!("elements literal type must be a tile type, got '{t}'"),
            ));
        }
        let elem = self.m.ctx.types.element_type(ty);
        let bits = self.convert_dense(elem, &lit, false)?;
        self.build_dense(ty, &lit, bits, type_span)
    }
}

fn enum_name(k: EnumKind) -> &'static str {
    match k {
        EnumKind::RoundingMode => "::mlir::cuda_tile::RoundingMode",
        EnumKind::Signedness => "::mlir::cuda_tile::Signedness",
        EnumKind::Overflow => "::mlir::cuda_tile::IntegerOverflow",
        EnumKind::ComparisonPredicate => "::mlir::cuda_tile::ComparisonPredicate",
        EnumKind::ComparisonOrdering => "::mlir::cuda_tile::ComparisonOrdering",
        EnumKind::MemoryOrdering => "::mlir::cuda_tile::MemoryOrderingSemantics",
        EnumKind::MemoryScope => "::mlir::cuda_tile::MemoryScope",
        EnumKind::AtomicRmwMode => "::mlir::cuda_tile::AtomicRMWMode",
        EnumKind::PaddingValue => "::mlir::cuda_tile::PaddingValue",
        EnumKind::BarrierScope => "::mlir::cuda_tile::BarrierScope",
        EnumKind::SymbolVisibility => "::mlir::cuda_tile::SymbolVisibility",
        EnumKind::AddrSpace => "::mlir::triton::gpu::AddrSpace",
        EnumKind::BytecodeTestPriority => "::mlir::cuda_tile::BytecodeTestPriority",
    }
}

/// The name of an `@name` or `@"name"` token.
pub(crate) fn unquote_symbol(text: &str) -> String {
    let t = &text[1..];
    if t.starts_with('"') && t.len() >= 2 {
        unescape(&t[1..t.len() - 1])
    } else {
        t.to_string()
    }
}

/// Unescapes the inside of a string literal (`\n`, `\t`, `\"`, `\\`, `\XX` hex).
pub(crate) fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            let c = b[i + 1];
            match c {
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'"' => out.push(b'"'),
                b'\\' => out.push(b'\\'),
                _ if i + 2 < b.len() && c.is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit() => {
                    let v = u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap_or(0);
                    out.push(v);
                    i += 3;
                    continue;
                }
                _ => out.push(c),
            }
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
