//! Parsing ops from their op-table format (see [`tilec_ir::ops::format`]).

use crate::lexer::Tok;
use crate::ops::{OpState, RegionArg};
use crate::parser::{PResult, Parser};
use tilec_diag::{Span, codes};
use tilec_ir::attrs::{Attr, AttrData, EnumKind, RoundingMode};
use tilec_ir::ops::format::{Custom, Elem, TypeRef};
use tilec_ir::ops::infer::TypeList;
use tilec_ir::ops::{Arity, AttrKind, Opcode};
use tilec_ir::types::Type;

/// Token kind of a punctuation literal.
fn punct(lit: &str) -> Option<Tok> {
    Some(match lit {
        "," => Tok::Comma,
        "=" => Tok::Equal,
        ":" => Tok::Colon,
        "->" => Tok::Arrow,
        "[" => Tok::LSquare,
        "]" => Tok::RSquare,
        "(" => Tok::LParen,
        ")" => Tok::RParen,
        "<" => Tok::Less,
        ">" => Tok::Greater,
        "{" => Tok::LBrace,
        "}" => Tok::RBrace,
        "?" => Tok::Question,
        _ => return None,
    })
}

impl<'s> Parser<'s> {
    pub(crate) fn parse_format(&mut self, st: &mut OpState<'s>, elems: &[Elem]) -> PResult<()> {
        for e in elems {
            self.parse_elem(st, e)?;
        }
        Ok(())
    }

    fn expect_literal(&mut self, lit: &str) -> PResult<()> {
        match punct(lit) {
            Some(k) => {
                if self.at(k) {
                    self.bump();
                    Ok(())
                } else {
                    Err(self.err_wrong_token(&format!("expected '{lit}'")))
                }
            }
            None => self.expect_keyword(lit),
        }
    }

    fn at_literal(&self, lit: &str) -> bool {
        match punct(lit) {
            Some(k) => self.at(k),
            None => self.at_keyword(lit),
        }
    }

    /// Does the optional group starting with `e` begin here?
    fn group_present(&self, st: &OpState<'s>, e: &Elem) -> bool {
        match e {
            Elem::Lit(l) => self.at_literal(l),
            Elem::Operand(_) => self.at(Tok::PercentId),
            Elem::Attr(i) => match st.def.attrs[*i].kind {
                AttrKind::Enum(k) if k.mnemonic().is_none() => {
                    self.at(Tok::BareId) && k.cases().contains(&self.text())
                }
                AttrKind::Enum(_) | AttrKind::OptHints => self.at(Tok::Less),
                AttrKind::Unit => false,
                _ => false,
            },
            Elem::Region(_) | Elem::Custom(Custom::IfRegion(_) | Custom::ArgRegion(_)) => {
                self.at(Tok::LBrace)
            }
            _ => false,
        }
    }

    fn parse_elem(&mut self, st: &mut OpState<'s>, e: &Elem) -> PResult<()> {
        match e {
            Elem::Lit(l) => self.expect_literal(l),
            Elem::Space | Elem::NoSpace => Ok(()),
            Elem::Operand(i) => {
                let slot = st.def.operands[*i];
                st.operand_locs[*i] = Span::at(self.tok.start);
                match slot.arity {
                    Arity::One | Arity::Optional => {
                        let u = self.parse_ssa_use()?;
                        st.operands[*i].push(u);
                    }
                    Arity::Variadic => {
                        if self.at(Tok::PercentId) {
                            loop {
                                let u = self.parse_ssa_use()?;
                                st.operands[*i].push(u);
                                if !self.eat(Tok::Comma) {
                                    break;
                                }
                            }
                        }
                    }
                }
                Ok(())
            }
            Elem::Attr(i) => self.parse_attr_slot(st, *i),
            Elem::Region(i) => {
                let r = self.parse_region(&[])?;
                st.regions[*i] = Some(r);
                Ok(())
            }
            Elem::AttrDict { with_keyword } => {
                if *with_keyword && !self.eat_keyword("attributes") {
                    return Ok(());
                }
                if !self.at(Tok::LBrace) {
                    if *with_keyword {
                        return Err(self.err_wrong_token("expected '{'"));
                    }
                    return Ok(());
                }
                let start = self.tok.start;
                let entries = self.parse_attr_dict_entries()?;
                let span = Span::new(start, self.prev_end);
                for (k, v) in entries {
                    match st.def.attr_index(&k) {
                        Some(i) => {
                            if st.attrs[i].is_some() {
                                return Err(self.err_op(codes::INVALID_ATTRIBUTE,
                                    st.name_span,
                                    format!("attribute '{k}' occurs more than once in the attribute list"),
                                ));
                            }
                            st.attrs[i] = Some((v, span));
                        }
                        None => st.extra_attrs.push((k, v)),
                    }
                }
                Ok(())
            }
            Elem::Type(t) | Elem::QualifiedType(t) => {
                let (arity, n) = match t {
                    TypeRef::Operand(i) => (st.def.operands[*i].arity, st.operands[*i].len()),
                    TypeRef::Result(i) => (st.def.results[*i].arity, 0),
                };
                let types = match (arity, t) {
                    (Arity::One, _) => TypeList::one(self.parse_type()?),
                    // An optional operand carries at most one type: a list
                    // here would swallow the types of the operands after it.
                    (Arity::Optional, TypeRef::Operand(_)) if n == 0 => TypeList::EMPTY,
                    (Arity::Optional, _) => TypeList::one(self.parse_type()?),
                    // A variadic slot with no value, written `()`.
                    _ if self.at(Tok::RParen) => TypeList::EMPTY,
                    _ => self.parse_type_list()?.into(),
                };
                match t {
                    TypeRef::Operand(i) => st.operand_types[*i] = Some(types),
                    TypeRef::Result(i) => st.result_types[*i] = Some(types),
                }
                Ok(())
            }
            Elem::SplatType(i) => {
                // One type for all values, or (NVIDIA's view index types) one per value.
                let t = self.parse_type()?;
                let n = st.operands[*i].len();
                if self.at(Tok::Comma) {
                    let mut types = vec![t];
                    while self.eat(Tok::Comma) {
                        types.push(self.parse_type()?);
                    }
                    st.operand_types[*i] = Some(types.into());
                } else {
                    st.operand_types[*i] = Some(TypeList::repeat(t, n));
                }
                Ok(())
            }
            Elem::Custom(c) => self.parse_custom_directive(st, *c),
            Elem::Optional { elems, .. } => {
                if let Some(first) = elems.first()
                    && self.group_present(st, first)
                {
                    for e in elems {
                        self.parse_elem(st, e)?;
                    }
                }
                Ok(())
            }
            Elem::OIList(clauses) => loop {
                let Some((kw, slot)) = clauses.iter().find(|(kw, _)| self.at_keyword(kw)) else {
                    return Ok(());
                };
                let span = self.span();
                self.bump();
                if st.attrs[*slot].is_some() {
                    return Err(self.err_op(codes::SYNTAX,
                            span,
                            format!("`{kw}` clause can appear at most once in the expansion of the oilist directive"),
                        ));
                }
                st.attrs[*slot] = Some((Attr::UNIT, span));
            },
        }
    }

    /// Parses one or more comma-separated types.
    pub(crate) fn parse_type_list(&mut self) -> PResult<Vec<Type>> {
        let mut v = vec![self.parse_type()?];
        while self.eat(Tok::Comma) {
            v.push(self.parse_type()?);
        }
        Ok(v)
    }

    fn parse_attr_slot(&mut self, st: &mut OpState<'s>, i: usize) -> PResult<()> {
        let def = st.def.attrs[i];
        let start = self.tok.start;
        let a = match def.kind {
            AttrKind::Unit => Attr::UNIT,
            AttrKind::Enum(k) if k.mnemonic().is_some() => self.parse_angle_enum(k)?,
            AttrKind::Enum(k) => self.parse_bare_enum(k, def.name)?,
            AttrKind::I64 | AttrKind::I32 => {
                let v = self.parse_i64()?;
                let ty = if def.kind == AttrKind::I64 {
                    Type::I64
                } else {
                    Type::I32
                };
                self.m.ctx.attrs.int(v, ty)
            }
            AttrKind::Bool => {
                if self.eat_keyword("true") {
                    Attr::TRUE
                } else if self.eat_keyword("false") {
                    Attr::FALSE
                } else {
                    return Err(
                        self.err_op_here(codes::INVALID_ATTRIBUTE, "expected 'true' or 'false'")
                    );
                }
            }
            AttrKind::String if self.at(Tok::String) => {
                let s = self.parse_string_literal()?;
                self.m.ctx.attrs.intern(AttrData::String(s.into()))
            }
            AttrKind::String => {
                let (a, span) = self.parse_attribute(None)?;
                if !matches!(self.m.ctx.attrs.get(a), AttrData::String(_)) {
                    return Err(self.err_op(
                        codes::INVALID_ATTRIBUTE,
                        span,
                        "invalid kind of attribute specified",
                    ));
                }
                a
            }
            AttrKind::SymbolName => {
                let name = self.parse_symbol_name()?;
                self.m.ctx.attrs.intern(AttrData::String(name.into()))
            }
            AttrKind::SymbolRef => {
                if !self.at(Tok::AtId) {
                    return Err(self.err_wrong_token("expected attribute value"));
                }
                self.parse_attribute(None)?.0
            }
            AttrKind::DenseI32Array => {
                self.expect(Tok::LSquare, "expected '['")?;
                let mut v = Vec::new();
                if !self.eat(Tok::RSquare) {
                    loop {
                        let x = self.parse_i64()?;
                        v.push(x as i32);
                        if self.eat(Tok::RSquare) {
                            break;
                        }
                        self.expect(Tok::Comma, "expected ']'")?;
                    }
                }
                self.m.ctx.attrs.intern(AttrData::DenseI32Array(v.into()))
            }
            AttrKind::Array => {
                let (a, span) = self.parse_attribute(None)?;
                if !matches!(self.m.ctx.attrs.get(a), AttrData::Array(_)) {
                    return Err(self.err_op(
                        codes::INVALID_ATTRIBUTE,
                        span,
                        "invalid kind of attribute specified",
                    ));
                }
                a
            }
            AttrKind::OptHints => self.parse_opt_hints()?,
            // A dialect attribute in an op's format is written without its prefix, as
            // MLIR prints it there: `test_attr = <5>`.
            AttrKind::BytecodeTestValue if self.at(Tok::Less) => {
                self.bump();
                let v = self.parse_i64()?;
                self.expect(Tok::Greater, "expected '>'")?;
                self.m.ctx.attrs.intern(AttrData::BytecodeTestValue(v))
            }
            _ => self.parse_attribute(None)?.0,
        };
        st.attrs[i] = Some((a, Span::new(start, self.prev_end)));
        Ok(())
    }

    /// `@name` defining a symbol.
    pub(crate) fn parse_symbol_name(&mut self) -> PResult<String> {
        if !self.at(Tok::AtId) {
            return Err(self.err_op_here(
                codes::SYNTAX,
                "expected valid '@'-identifier for symbol name",
            ));
        }
        let n = crate::attr::unquote_symbol(self.text());
        self.bump();
        Ok(n)
    }

    /// An enum case written as a bare keyword (or a string).
    pub(crate) fn parse_bare_enum(&mut self, k: EnumKind, attr_name: &str) -> PResult<Attr> {
        let span = Span::at(self.tok.start);
        let word = match self.tok.kind {
            Tok::BareId => {
                let w = self.text().to_string();
                self.bump();
                Some(w)
            }
            Tok::String => Some(self.parse_string_literal()?),
            _ => None,
        };
        let idx = word.as_deref().and_then(|w| {
            let w = if k == EnumKind::AtomicRmwMode && w == "exchange" {
                "xchg"
            } else {
                w
            };
            k.cases().iter().position(|c| *c == w)
        });
        match idx {
            Some(v) => Ok(self.m.ctx.attrs.enum_case(k, v as u8)),
            None => {
                let failed = self.err_op(codes::INVALID_ATTRIBUTE,
                    span,
                    format!(
                        "expected string or keyword containing one of the following enum values for attribute '{attr_name}' [{}]",
                        k.cases().join(", ")
                    ),
                );
                if let Some(w) = &word {
                    self.suggest_last(w, k.cases());
                }
                Err(failed)
            }
        }
    }

    fn parse_rounding(
        &mut self,
        allowed: &[RoundingMode],
        default: RoundingMode,
        with_got: bool,
        validate: bool,
    ) -> PResult<Attr> {
        let list = || {
            allowed
                .iter()
                .map(|m| format!("'{}'", m.name()))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !self.eat_keyword("rounding") {
            return Ok(self
                .m
                .ctx
                .attrs
                .enum_case(EnumKind::RoundingMode, default as u8));
        }
        self.expect(Tok::Less, "expected '<'")?;
        let (word, _) = self.keyword()?;
        self.expect(Tok::Greater, "expected '>'")?;
        let at = Span::at(self.tok.start);
        let mode = RoundingMode::from_name(word);
        let ok = match mode {
            Some(m) => !validate || allowed.contains(&m),
            None => false,
        };
        if !ok {
            let msg = if with_got {
                format!(
                    "expected rounding mode to be one of: {}, got: '{word}'",
                    list()
                )
            } else {
                format!("expected rounding mode to be one of: {}", list())
            };
            let word = word.to_string();
            let failed = self.err_op(codes::INVALID_ATTRIBUTE, at, msg);
            let names: Vec<&str> = allowed.iter().map(|m| m.name()).collect();
            self.suggest_last(&word, &names);
            return Err(failed);
        }
        Ok(self
            .m
            .ctx
            .attrs
            .enum_case(EnumKind::RoundingMode, mode.map_or(0, |m| m as u8)))
    }

    fn parse_enum_keyword(&mut self, k: EnumKind, msg: &str) -> PResult<Attr> {
        let span = Span::at(self.tok.start);
        if self.at(Tok::BareId)
            && let Some(v) = k.cases().iter().position(|c| *c == self.text())
        {
            self.bump();
            return Ok(self.m.ctx.attrs.enum_case(k, v as u8));
        }
        Err(self.err_op(codes::INVALID_ATTRIBUTE, span, msg))
    }

    fn parse_custom_directive(&mut self, st: &mut OpState<'s>, c: Custom) -> PResult<()> {
        use RoundingMode as R;
        let start = self.tok.start;
        let set = |p: &mut Self, st: &mut OpState<'s>, i: usize, a: Attr| {
            st.attrs[i] = Some((a, Span::new(start, p.prev_end)));
        };
        match c {
            Custom::Rounding(i) => {
                // Known modes are accepted here; which ones an op allows is the
                // verifier's business (so that the spec's diagnostics can be reported).
                let a = self.parse_rounding(
                    &[R::NearestEven, R::Zero, R::NegativeInf, R::PositiveInf],
                    R::NearestEven,
                    true,
                    false,
                )?;
                set(self, st, i, a);
            }
            Custom::DivFRounding(i) => {
                let a = self.parse_rounding(
                    &[
                        R::NearestEven,
                        R::Zero,
                        R::NegativeInf,
                        R::PositiveInf,
                        R::Approx,
                        R::Full,
                    ],
                    R::NearestEven,
                    false,
                    false,
                )?;
                set(self, st, i, a);
            }
            Custom::SqrtRounding(i) => {
                let a = self.parse_rounding(
                    &[
                        R::NearestEven,
                        R::Zero,
                        R::NegativeInf,
                        R::PositiveInf,
                        R::Approx,
                    ],
                    R::NearestEven,
                    false,
                    false,
                )?;
                set(self, st, i, a);
            }
            Custom::ApproxRounding(i) => {
                // Any known mode parses; the verifier reports the ones exp/tanh refuse.
                let a = self.parse_rounding(
                    &[
                        R::NearestEven,
                        R::Zero,
                        R::NegativeInf,
                        R::PositiveInf,
                        R::Approx,
                        R::Full,
                    ],
                    R::Full,
                    false,
                    false,
                )?;
                set(self, st, i, a);
            }
            Custom::IntRounding(i) => {
                let a =
                    self.parse_rounding(&[R::NearestIntToZero], R::NearestIntToZero, true, false)?;
                set(self, st, i, a);
            }
            Custom::Signedness(i) => {
                let a = self.parse_enum_keyword(
                    EnumKind::Signedness,
                    "expected signedness to be one of: {'signed', 'unsigned'}",
                )?;
                set(self, st, i, a);
            }
            Custom::Predicate(i) => {
                let a = self.parse_enum_keyword(
                    EnumKind::ComparisonPredicate,
                    "expected 'comparison_predicate' to be one of: {'equal', 'not_equal', 'less_than', 'less_than_or_equal', 'greater_than', 'greater_than_or_equal'}",
                )?;
                set(self, st, i, a);
            }
            Custom::Ordering(i) => {
                let a = self.parse_enum_keyword(
                    EnumKind::ComparisonOrdering,
                    "expected 'comparison_ordering' to be one of: {'ordered', 'unordered'}",
                )?;
                set(self, st, i, a);
            }
            Custom::Visibility(i) => {
                if self.at(Tok::BareId) {
                    let word = self.text();
                    if let Some(v) = EnumKind::SymbolVisibility
                        .cases()
                        .iter()
                        .position(|c| *c == word)
                    {
                        self.bump();
                        let a = self
                            .m
                            .ctx
                            .attrs
                            .intern(AttrData::Enum(EnumKind::SymbolVisibility, v as u8));
                        set(self, st, i, a);
                    }
                }
            }
            Custom::Dense { value, result } => {
                let (a, ty) = self.parse_dense_constant()?;
                set(self, st, value, a);
                if let Some(r) = result {
                    st.result_types[r] = Some(TypeList::one(ty));
                }
            }
            Custom::Memory { ordering, scope } => {
                let span = Span::at(self.tok.start);
                let word = if self.at(Tok::BareId) {
                    let w = self.text();
                    self.bump();
                    w
                } else {
                    ""
                };
                let Some(o) = EnumKind::MemoryOrdering
                    .cases()
                    .iter()
                    .position(|c| *c == word)
                else {
                    let failed = self.err_op(codes::INVALID_ATTRIBUTE,
                        span,
                        format!(
                            "invalid memory_ordering_semantics attribute specification. Got \"{word}\" but expect one of: weak, relaxed, acquire, release, acq_rel"
                        ),
                    );
                    let word = word.to_string();
                    self.suggest_last(&word, EnumKind::MemoryOrdering.cases());
                    return Err(failed);
                };
                let oa = self
                    .m
                    .ctx
                    .attrs
                    .enum_case(EnumKind::MemoryOrdering, o as u8);
                st.attrs[ordering] = Some((oa, span));
                if self.at(Tok::BareId) {
                    let sspan = self.span();
                    let w = self.text();
                    self.bump();
                    if o == 0 {
                        return Err(self.err_op(codes::INVALID_ATTRIBUTE,
                            sspan,
                            format!(
                                "operation specifies weak memory ordering semantics, but then provides \"{w}\" scope, expected no memory scope."
                            ),
                        ));
                    }
                    let Some(s) = EnumKind::MemoryScope.cases().iter().position(|c| *c == w) else {
                        let failed = self.err_op(codes::INVALID_ATTRIBUTE,
                            sspan,
                            format!(
                                "invalid memory_scope attribute specification. Got \"{w}\" but expect one of: tl_blk, device, sys"
                            ),
                        );
                        let w = w.to_string();
                        self.suggest_last(&w, EnumKind::MemoryScope.cases());
                        return Err(failed);
                    };
                    let sa = self.m.ctx.attrs.enum_case(EnumKind::MemoryScope, s as u8);
                    st.attrs[scope] = Some((sa, sspan));
                }
            }
            Custom::ArgRegion(i) => {
                let args = self.parse_region_arg_list()?;
                let r = self.parse_region(&args)?;
                st.regions[i] = Some(r);
            }
            Custom::IfRegion(i) => {
                let r = self.parse_region(&[])?;
                self.ensure_terminator(r, Opcode::Yield, st.name_span);
                st.regions[i] = Some(r);
            }
        }
        Ok(())
    }

    /// `(%a: type, %b: type {attrs} loc(...))` argument lists of functions and of the
    /// regions of `reduce` and `scan`.
    pub(crate) fn parse_region_arg_list(&mut self) -> PResult<Vec<RegionArg<'s>>> {
        self.expect(Tok::LParen, "expected '('")?;
        let mut args = Vec::new();
        if self.eat(Tok::RParen) {
            return Ok(args);
        }
        loop {
            if !self.at(Tok::PercentId) {
                return Err(self.err_op_here(codes::SYNTAX, "expected SSA identifier"));
            }
            let name = self.parse_ssa_use()?;
            self.expect(Tok::Colon, "expected ':'")?;
            let ty = self.parse_type()?;
            if self.at(Tok::LBrace) {
                // Argument attributes are accepted and dropped (tile IR defines none).
                self.parse_attr_dict_entries()?;
            }
            let loc = self.parse_optional_loc_spec()?;
            args.push(RegionArg { name, ty, loc });
            if self.eat(Tok::RParen) {
                break;
            }
            self.expect(Tok::Comma, "expected ')' in argument list")?;
        }
        Ok(args)
    }

    /// A dense constant: `<elem: literal> : type` (NVIDIA) or `dense<literal> : type` (MLIR,
    /// the spec's examples). Returns the attribute and the tile type.
    pub(crate) fn parse_dense_constant(&mut self) -> PResult<(Attr, Type)> {
        if self.eat_keyword("dense") {
            let a = self.parse_mlir_dense(None)?;
            let ty = match self.m.ctx.attrs.get(a) {
                AttrData::Dense(d) => d.ty,
                _ => Type::I32,
            };
            return Ok((a, ty));
        }
        self.expect(Tok::Less, "expected '<'")?;
        let et_span = Span::at(self.tok.start);
        let elem = self.parse_type()?;
        let valid = crate::types::is_number_type(self.m.ctx.types.get(elem));
        if !valid {
            let t = self.m.ctx.types.to_string(elem, true);
            return Err(self.err_op(
                codes::DENSE,
                et_span,
                format!(
                    "expect element type to be one of {} values, but got '{t}'",
                    tilec_ir::ops::Elems::NUMBERS.describe_in(self.opts.minor())
                ),
            ));
        }
        self.expect(Tok::Colon, "expected ':'")?;
        let lit = self.parse_dense_literal()?;
        let bits = self.convert_dense(elem, &lit, true)?;
        self.expect(Tok::Greater, "expected '>'")?;
        self.expect(Tok::Colon, "expected ':'")?;
        let type_span = Span::at(self.tok.start);
        let ty = self.parse_type()?;
        if !self.m.ctx.types.is_tile(ty) {
            let t = self.m.ctx.types.to_string(ty, true);
            return Err(self.err_op(
                codes::DENSE,
                type_span,
                format!(
                    "result #0 must be tile of {} values, but got '{t}'",
                    tilec_ir::ops::Elems::NUMBERS.describe_in(self.opts.minor())
                ),
            ));
        }
        let tile_elem = self.m.ctx.types.element_type(ty);
        if tile_elem != elem {
            let (a, b) = (
                self.m.ctx.types.to_string(elem, true),
                self.m.ctx.types.to_string(tile_elem, true),
            );
            return Err(self.err_op(
                codes::DENSE,
                type_span,
                format!("mismatch between the element type: '{a}' and the tile element type '{b}'"),
            ));
        }
        let a = self.build_dense(ty, &lit, bits, type_span)?;
        Ok((a, ty))
    }
}
