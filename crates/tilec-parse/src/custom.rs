//! Hand-written parsers for the ops whose syntax no format describes (see
//! [`tilec_ir::ops::CustomSyntax`]).

use crate::lexer::Tok;
use crate::ops::{OpState, RegionArg};
use crate::parser::{PResult, Parser};
use tilec_diag::{Span, codes};
use tilec_ir::attrs::{Attr, AttrData};
use tilec_ir::ops::infer::TypeList;
use tilec_ir::ops::{CustomSyntax, Opcode};
use tilec_ir::types::{DYNAMIC, Type, TypeData};

/// A list of static sizes and SSA values (`[4, %n]`): every element with its position
/// (`DYNAMIC` for values), and the values.
type MixedList<'s> = (Vec<(i64, Span)>, Vec<crate::parser::Unresolved<'s>>);

impl<'s> Parser<'s> {
    pub(crate) fn parse_custom_syntax(
        &mut self,
        st: &mut OpState<'s>,
        c: CustomSyntax,
    ) -> PResult<()> {
        match c {
            CustomSyntax::Function => self.parse_function(st),
            CustomSyntax::For => self.parse_for(st),
            CustomSyntax::Loop => self.parse_loop(st),
            CustomSyntax::MakeTensorView => self.parse_make_tensor_view(st),
            CustomSyntax::MakePartitionView => self.parse_make_partition_view(st),
            CustomSyntax::GetShape => self.parse_get_shape(st),
            CustomSyntax::Assume => self.parse_assume(st),
        }
    }

    fn set_attr(&mut self, st: &mut OpState<'s>, name: &str, a: Attr, span: Span) {
        if let Some(i) = st.def.attr_index(name) {
            st.attrs[i] = Some((a, span));
        }
    }

    fn parse_opt_attr_dict(&mut self, st: &mut OpState<'s>) -> PResult<()> {
        if !self.at(Tok::LBrace) {
            return Ok(());
        }
        let start = self.tok.start;
        let entries = self.parse_attr_dict_entries()?;
        let span = Span::new(start, self.prev_end);
        for (k, v) in entries {
            match st.def.attr_index(&k) {
                Some(i) => st.attrs[i] = Some((v, span)),
                None => st.extra_attrs.push((k, v)),
            }
        }
        Ok(())
    }

    fn parse_function(&mut self, st: &mut OpState<'s>) -> PResult<()> {
        let sym_start = self.tok.start;
        let name = self.parse_symbol_name()?;
        let sym = self.m.ctx.attrs.intern(AttrData::String(name.into()));
        self.set_attr(st, "sym_name", sym, Span::new(sym_start, self.prev_end));
        let before = self.diags.len();
        let args = match self.parse_region_arg_list() {
            Ok(a) => a,
            Err(f) => {
                // NVIDIA's 13.1 function signature parser followed a type that parsed but
                // failed to verify with a second error, "expected valid keyword", on that
                // line; 13.3 (and tilec) report the type's error alone.
                if self.opts.minor() < 3
                    && self.diags.len() > before
                    && let Some(d) = self.diags.last()
                    && d.code == codes::INVALID_TYPE
                {
                    let at = d.location.map_or(Span::at(self.tok.start), |l| l.span);
                    self.diags.push(
                        tilec_diag::Diagnostic::error(codes::SYNTAX, "expected valid keyword")
                            .at(self.loc(at)),
                    );
                }
                return Err(f);
            }
        };
        let mut results = Vec::new();
        if self.eat(Tok::Arrow) {
            results = self.parse_function_results()?;
        }
        let inputs: Vec<Type> = args.iter().map(|a| a.ty).collect();
        let fty = self.m.ctx.types.function(&inputs, &results);
        let fattr = self.m.ctx.attrs.intern(AttrData::Type(fty));
        self.set_attr(st, "function_type", fattr, st.name_span);
        if self.eat_keyword("optimization_hints") {
            self.expect(Tok::Equal, "expected '='")?;
            let hstart = self.tok.start;
            let h = self.parse_opt_hints()?;
            self.set_attr(
                st,
                "optimization_hints",
                h,
                Span::new(hstart, self.prev_end),
            );
        }
        if self.eat_keyword("attributes") {
            if !self.at(Tok::LBrace) {
                return Err(self.err_here(codes::SYNTAX, "expected '{' in attribute dictionary"));
            }
            self.parse_opt_attr_dict(st)?;
        }
        let r = self.parse_region(&args)?;
        self.ensure_terminator(r, Opcode::Return, st.name_span);
        st.regions[0] = Some(r);
        // NVIDIA's `entry` parser takes its discardable attributes after the body
        // (`entry @k() { ... } {cuda_tile.loop_split = 0}`) and prints them there.
        if st.def.opcode == Opcode::Entry {
            self.parse_opt_attr_dict(st)?;
        }
        Ok(())
    }

    /// `(%inner = %outer, ...)`: the region arguments (types filled in later) and operands.
    fn parse_assignment_list(
        &mut self,
    ) -> PResult<Vec<(crate::parser::Unresolved<'s>, crate::parser::Unresolved<'s>)>> {
        self.expect(Tok::LParen, "expected '('")?;
        let mut v = Vec::new();
        if self.eat(Tok::RParen) {
            return Ok(v);
        }
        loop {
            let inner = self.parse_ssa_use()?;
            self.expect(Tok::Equal, "expected '='")?;
            let outer = self.parse_ssa_use()?;
            v.push((inner, outer));
            if self.eat(Tok::RParen) {
                break;
            }
            self.expect(Tok::Comma, "expected ')'")?;
        }
        Ok(v)
    }

    fn parse_for(&mut self, st: &mut OpState<'s>) -> PResult<()> {
        if self.at_keyword("unsigned") {
            let span = self.span();
            self.bump();
            self.set_attr(st, "unsignedCmp", Attr::UNIT, span);
        }
        let iv = self.parse_ssa_use()?;
        self.expect_keyword("in")?;
        self.expect(Tok::LParen, "expected '('")?;
        let lb = self.parse_ssa_use()?;
        self.expect_keyword("to")?;
        let ub = self.parse_ssa_use()?;
        self.expect(Tok::Comma, "expected ','")?;
        self.expect_keyword("step")?;
        let step = self.parse_ssa_use()?;
        self.expect(Tok::RParen, "expected ')'")?;
        self.expect(Tok::Colon, "expected ':'")?;
        let iv_ty = self.parse_type()?;
        let mut region_args = vec![RegionArg {
            name: iv,
            ty: iv_ty,
            loc: None,
        }];
        let mut inits = Vec::new();
        let mut types = Vec::new();
        if self.eat_keyword("iter_values") {
            let pairs = self.parse_assignment_list()?;
            self.expect(Tok::Arrow, "expected '->'")?;
            self.expect(Tok::LParen, "expected '('")?;
            types = self.parse_type_list()?;
            self.expect(Tok::RParen, "expected ')'")?;
            if pairs.len() != types.len() {
                return Err(self.err_op(
                    codes::OPERAND_TYPE_COUNT,
                    st.name_span,
                    "mismatch in number of loop-carried values and defined values",
                ));
            }
            for ((inner, outer), t) in pairs.into_iter().zip(&types) {
                region_args.push(RegionArg {
                    name: inner,
                    ty: *t,
                    loc: None,
                });
                inits.push(outer);
            }
        }
        let r = self.parse_region(&region_args)?;
        self.ensure_terminator(r, Opcode::Continue, st.name_span);
        st.regions[0] = Some(r);
        self.parse_opt_attr_dict(st)?;
        st.operands = vec![vec![lb], vec![ub], vec![step], inits];
        st.operand_types = vec![
            Some(TypeList::one(iv_ty)),
            Some(TypeList::one(iv_ty)),
            Some(TypeList::one(iv_ty)),
            Some(TypeList::from_slice(&types)),
        ];
        st.result_types = vec![Some(types.into())];
        Ok(())
    }

    fn parse_loop(&mut self, st: &mut OpState<'s>) -> PResult<()> {
        let mut region_args = Vec::new();
        let mut inits = Vec::new();
        let mut iter_types = Vec::new();
        let mut results = Vec::new();
        if self.eat_keyword("iter_values") {
            let pairs = self.parse_assignment_list()?;
            self.expect(Tok::Colon, "expected ':'")?;
            iter_types = self.parse_type_list()?;
            if pairs.len() != iter_types.len() {
                return Err(self.err_op_here(
                    codes::OPERAND_TYPE_COUNT,
                    "found different number of iter_values and types",
                ));
            }
            if self.eat(Tok::Arrow) {
                results = self.parse_type_list()?;
            }
            for ((inner, outer), t) in pairs.into_iter().zip(&iter_types) {
                region_args.push(RegionArg {
                    name: inner,
                    ty: *t,
                    loc: None,
                });
                inits.push(outer);
            }
        } else if self.eat(Tok::Colon) {
            results = self.parse_type_list()?;
        }
        let r = self.parse_region(&region_args)?;
        self.ensure_terminator(r, Opcode::Continue, st.name_span);
        st.regions[0] = Some(r);
        self.parse_opt_attr_dict(st)?;
        st.operands = vec![inits];
        st.operand_types = vec![Some(iter_types.into())];
        st.result_types = vec![Some(results.into())];
        Ok(())
    }

    fn parse_make_tensor_view(&mut self, st: &mut OpState<'s>) -> PResult<()> {
        let base = self.parse_ssa_use()?;
        self.expect(Tok::Comma, "expected ','")?;
        self.expect_keyword("shape")?;
        self.expect(Tok::Equal, "expected '='")?;
        let shape_loc = Span::at(self.tok.start);
        let (shape, dyn_shape) = self.parse_mixed_list()?;
        self.expect(Tok::Comma, "expected ','")?;
        self.expect_keyword("strides")?;
        self.expect(Tok::Equal, "expected '='")?;
        let stride_loc = Span::at(self.tok.start);
        let (strides, dyn_strides) = self.parse_mixed_list()?;
        self.parse_opt_attr_dict(st)?;
        self.expect(Tok::Colon, "expected ':'")?;
        // NVIDIA writes the type of the dynamic sizes and strides before the view type
        // (`tile<i32> -> tensor_view<...>`); the spec's examples leave it out, meaning
        // `tile<i32>`.
        let first = self.parse_type()?;
        let (index_ty, tv) = if self.eat(Tok::Arrow) {
            (Some(first), self.parse_type()?)
        } else {
            (None, first)
        };
        let (tv_shape, tv_strides, elem) = match self.m.ctx.types.get(tv) {
            TypeData::TensorView {
                shape,
                strides,
                elem,
            } => (shape.to_vec(), strides.to_vec(), *elem),
            _ => {
                let t = self.m.ctx.types.to_string(tv, true);
                return Err(self.err_op(
                    codes::INVALID_TYPE,
                    Span::at(self.prev_end),
                    format!("expected 'tensor_view' type, but got '{t}'"),
                ));
            }
        };
        self.compare_mixed(&shape, &tv_shape, shape_loc, "shape")?;
        self.compare_mixed(&strides, &tv_strides, stride_loc, "stride")?;
        let ptr = self.m.ctx.types.ptr(elem);
        let base_ty = self.m.ctx.types.scalar(ptr);
        let it = index_ty.unwrap_or(Type::TILE_I32);
        let (ns, nd) = (dyn_shape.len(), dyn_strides.len());
        st.operands = vec![vec![base], dyn_shape, dyn_strides];
        st.operand_types = vec![
            Some(TypeList::one(base_ty)),
            Some(TypeList::repeat(it, ns)),
            Some(TypeList::repeat(it, nd)),
        ];
        st.result_types = vec![Some(TypeList::one(tv))];
        Ok(())
    }

    /// `[4, %x, 8]`: static entries and the dynamic operands, in order.
    fn parse_mixed_list(&mut self) -> PResult<MixedList<'s>> {
        self.expect(Tok::LSquare, "expected '['")?;
        let mut elems = Vec::new();
        let mut dynamic = Vec::new();
        if self.eat(Tok::RSquare) {
            return Ok((elems, dynamic));
        }
        loop {
            let span = Span::at(self.tok.start);
            if matches!(self.tok.kind, Tok::Integer | Tok::Minus) {
                elems.push((self.parse_i64()?, span));
            } else if self.at(Tok::PercentId) {
                dynamic.push(self.parse_ssa_use()?);
                elems.push((DYNAMIC, span));
            } else {
                return Err(self.err_op(
                    codes::SYNTAX,
                    span,
                    "expected either integer or SSA value",
                ));
            }
            if self.eat(Tok::RSquare) {
                break;
            }
            self.expect(Tok::Comma, "expected ']'")?;
        }
        Ok((elems, dynamic))
    }

    fn compare_mixed(
        &mut self,
        ops: &[(i64, Span)],
        ty: &[i64],
        decl: Span,
        what: &str,
    ) -> PResult<()> {
        if ops.len() != ty.len() {
            return Err(self.err_op(codes::INVALID_TYPE,
                decl,
                format!(
                    "expected {what} declaration to contain {} elements due to tensor_view type, but {} were provided",
                    ty.len(),
                    ops.len()
                ),
            ));
        }
        for (i, ((v, span), t)) in ops.iter().zip(ty).enumerate() {
            if v == t {
                continue;
            }
            let show = |x: i64| {
                if x == DYNAMIC {
                    "dynamic".to_string()
                } else {
                    x.to_string()
                }
            };
            return Err(self.err_op(codes::INVALID_TYPE,
                *span,
                format!("input {what} dimension {i} does not match tensor_view type (expected {}, got {})", show(*t), show(*v)),
            ));
        }
        Ok(())
    }

    fn parse_make_partition_view(&mut self, st: &mut OpState<'s>) -> PResult<()> {
        let tv = self.parse_ssa_use()?;
        self.parse_opt_attr_dict(st)?;
        self.expect(Tok::Colon, "expected ':'")?;
        let loc = Span::at(self.tok.start);
        let pv = self.parse_type()?;
        let tv_ty = match (self.m.ctx.types.get(pv), st.def.opcode) {
            (TypeData::PartitionView { tensor_view, .. }, Opcode::MakePartitionView)
            | (TypeData::StridedView { tensor_view, .. }, Opcode::MakeStridedView)
            | (TypeData::GatherScatterView { tensor_view, .. }, Opcode::MakeGatherScatterView) => {
                *tensor_view
            }
            (_, opcode) => {
                let t = self.m.ctx.types.to_string(pv, true);
                let kind = match opcode {
                    Opcode::MakeStridedView => "strided_view",
                    Opcode::MakeGatherScatterView => "gather_scatter_view",
                    _ => "partition_view",
                };
                return Err(self.err_op(
                    codes::INVALID_TYPE,
                    loc,
                    format!("expected '{kind}' type, but got '{t}'"),
                ));
            }
        };
        st.operands = vec![vec![tv]];
        st.operand_types = vec![Some(TypeList::one(tv_ty))];
        st.result_types = vec![Some(TypeList::one(pv))];
        Ok(())
    }

    fn parse_get_shape(&mut self, st: &mut OpState<'s>) -> PResult<()> {
        let src = self.parse_ssa_use()?;
        self.expect(Tok::Colon, "expected ':'")?;
        let loc = Span::at(self.tok.start);
        let src_ty = self.parse_type()?;
        self.expect(Tok::Arrow, "expected '->'")?;
        let rt = self.parse_type()?;
        let tensor_shape = st.def.opcode == Opcode::GetTensorShape;
        let rank = match (self.m.ctx.types.get(src_ty), tensor_shape) {
            (TypeData::TensorView { shape, .. }, true) => shape.len(),
            (
                TypeData::PartitionView { tile, .. }
                | TypeData::StridedView { tile, .. }
                | TypeData::GatherScatterView { tile, .. },
                false,
            ) => tile.len(),
            _ => {
                let t = self.m.ctx.types.to_string(src_ty, true);
                let msg = if tensor_shape {
                    format!("expected tensor_view, got '{t}'")
                } else {
                    format!("expected tile view, got '{t}'")
                };
                return Err(self.err_op(codes::INVALID_TYPE, loc, msg));
            }
        };
        st.operands = vec![vec![src]];
        st.operand_types = vec![Some(TypeList::one(src_ty))];
        st.result_types = vec![Some(TypeList::repeat(rt, rank))];
        Ok(())
    }

    fn parse_assume(&mut self, st: &mut OpState<'s>) -> PResult<()> {
        if self.at(Tok::PercentId) {
            // The spec's form: `assume %cond : tile<i1>`, no result.
            let v = self.parse_ssa_use()?;
            self.parse_opt_attr_dict(st)?;
            self.expect(Tok::Colon, "expected ':'")?;
            let t = self.parse_type()?;
            st.operands = vec![vec![v]];
            st.operand_types = vec![Some(TypeList::one(t))];
            st.result_types = vec![Some(TypeList::EMPTY)];
            return Ok(());
        }
        let start = self.tok.start;
        let pred = match self.tok.kind {
            Tok::BareId if matches!(self.text(), "div_by" | "same_elements" | "bounded") => {
                let (kw, span) = self.keyword()?;
                self.parse_cuda_tile_attr(kw, span)?
            }
            Tok::BareId
                if !matches!(
                    self.text(),
                    "true" | "false" | "dense" | "array" | "unit" | "loc"
                ) =>
            {
                let (kw, _) = self.keyword()?;
                return Err(self.err_op(codes::INVALID_ATTRIBUTE,
                    Span::at(start),
                    format!("unknown assume predicate attribute: {kw} (expected 'div_by', 'same_elements', or 'bounded')"),
                ));
            }
            _ => {
                let (a, _) = self.parse_attribute(None)?;
                if !matches!(
                    self.m.ctx.attrs.get(a),
                    AttrData::DivBy { .. } | AttrData::SameElements(_) | AttrData::Bounded { .. }
                ) {
                    return Err(self.err_op(
                        codes::INVALID_ATTRIBUTE,
                        Span::at(start),
                        "expected assume predicate attribute",
                    ));
                }
                a
            }
        };
        self.set_attr(st, "predicate", pred, Span::new(start, self.prev_end));
        self.expect(Tok::Comma, "expected ','")?;
        let v = self.parse_ssa_use()?;
        self.parse_opt_attr_dict(st)?;
        self.expect(Tok::Colon, "expected ':'")?;
        let t = self.parse_type()?;
        st.operands = vec![vec![v]];
        st.operand_types = vec![Some(TypeList::one(t))];
        st.result_types = vec![Some(TypeList::one(t))];
        Ok(())
    }
}
