//! Operations, regions and blocks: the result list, custom and generic op forms, type
//! inference for what the text leaves implicit, operand resolution and op creation.

use crate::lexer::Tok;
use crate::parser::{Failed, LocOwner, PResult, Parser, Unresolved};
use tilec_diag::{Span, codes};
use tilec_ir::attrs::{Attr, AttrData};
use tilec_ir::module::{Block, InsertPoint, OpSpec, Region};
use tilec_ir::ops::infer::TypeList;
use tilec_ir::ops::{self, AttrKind, OpDef, Opcode, Traits};
use tilec_ir::types::{Type, TypeData};
use tilec_ir::util::FxHashMap;
use tilec_ir::{Op, Value};

/// What a custom op parser has collected before the op is created.
pub(crate) struct OpState<'s> {
    pub def: &'static OpDef,
    pub spelling: u8,
    pub name_span: Span,
    /// Unresolved operands per operand slot.
    pub operands: Vec<Vec<Unresolved<'s>>>,
    /// Where each operand slot's list started (for count errors).
    pub operand_locs: Vec<Span>,
    /// Types per operand slot, when the text gives them.
    pub operand_types: Vec<Option<TypeList>>,
    /// Types per result slot, when the text gives them.
    pub result_types: Vec<Option<TypeList>>,
    /// Attribute per slot, with its span.
    pub attrs: Vec<Option<(Attr, Span)>>,
    /// Discardable attributes.
    pub extra_attrs: Vec<(Box<str>, Attr)>,
    /// Regions per region slot.
    pub regions: Vec<Option<Region>>,
    /// Set by custom parsers that resolve their operands themselves.
    pub resolved: Option<Vec<Value>>,
}

impl OpState<'_> {
    fn new(def: &'static OpDef, spelling: u8, name_span: Span) -> Self {
        let mut st = OpState {
            def,
            spelling,
            name_span,
            operands: Vec::new(),
            operand_locs: Vec::new(),
            operand_types: Vec::new(),
            result_types: Vec::new(),
            attrs: Vec::new(),
            extra_attrs: Vec::new(),
            regions: Vec::new(),
            resolved: None,
        };
        st.reset(def, spelling, name_span);
        st
    }

    /// Makes a used state fresh for another op, keeping its allocations.
    fn reset(&mut self, def: &'static OpDef, spelling: u8, name_span: Span) {
        let n = def.operands.len();
        self.def = def;
        self.spelling = spelling;
        self.name_span = name_span;
        self.operands.truncate(n);
        for o in &mut self.operands {
            o.clear();
        }
        self.operands.resize_with(n, Vec::new);
        self.operand_locs.clear();
        self.operand_locs.resize(n, name_span);
        self.operand_types.clear();
        self.operand_types.resize(n, None);
        self.result_types.clear();
        self.result_types.resize(def.results.len(), None);
        self.attrs.clear();
        self.attrs.resize(def.attrs.len(), None);
        self.extra_attrs.clear();
        self.regions.clear();
        self.regions.resize(def.regions.len(), None);
        self.resolved = None;
    }
}

/// A named region argument with its type (`%arg: type`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RegionArg<'s> {
    pub name: Unresolved<'s>,
    pub ty: Type,
    pub loc: Option<LocSpec<'s>>,
}

/// A `loc(...)` written on a block argument.
#[derive(Clone, Copy, Debug)]
pub(crate) enum LocSpec<'s> {
    Attr(Attr),
    Alias(&'s str, Span),
}

impl<'s> Parser<'s> {
    /// Parses one operation (with its result list) and appends it to `block`.
    pub(crate) fn parse_operation(&mut self, block: Block) -> PResult<()> {
        let start = Span::at(self.tok.start);
        let mut results: Vec<(&'s str, u32, Span)> = Vec::new();
        let mut expected = 0u32;
        if self.at(Tok::PercentId) {
            loop {
                if !self.at(Tok::PercentId) {
                    return Err(self.err_wrong_token("expected valid ssa identifier"));
                }
                let name = &self.text()[1..];
                let span = self.span();
                self.bump();
                let mut count = 1;
                if self.eat(Tok::Colon) {
                    if !self.at(Tok::Integer) {
                        return Err(self.err_wrong_token("expected integer number of results"));
                    }
                    match crate::types::parse_uint(self.text()) {
                        Some(n) if n >= 1 && n <= u32::MAX as u64 => count = n as u32,
                        _ => {
                            return Err(self.err_here(
                                codes::SYNTAX,
                                "expected named operation to have at least 1 result",
                            ));
                        }
                    }
                    self.bump();
                }
                expected += count;
                results.push((name, count, span));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Equal, "expected '=' after SSA name")?;
        }
        let op = match self.tok.kind {
            Tok::BareId => self.parse_custom_op(block)?,
            Tok::String => self.parse_generic_op(block)?,
            _ => return Err(self.err_wrong_token("expected operation name in quotes")),
        };
        if !results.is_empty() {
            let n = self.m.num_results(op) as u32;
            if n == 0 {
                return Err(self.err(
                    codes::RESULT_COUNT,
                    start,
                    "cannot name an operation with no results",
                ));
            }
            if n != expected {
                return Err(self.err(
                    codes::RESULT_COUNT,
                    start,
                    format!("operation defines {n} results but was provided {expected} to bind"),
                ));
            }
            let mut idx = 0;
            for (name, count, span) in results {
                for sub in 0..count {
                    let v = self.m.result(op, idx);
                    self.define(name, sub, span, v)?;
                    idx += 1;
                }
            }
        }
        Ok(())
    }

    /// The op named `name`, if it exists in the release being parsed for (an op that a
    /// later release introduced is unknown to an earlier one's tools).
    fn lookup_in_release(&self, name: &str) -> Option<(tilec_ir::Opcode, u8)> {
        let found = ops::lookup(name);
        // The common case (the newest release) needs no check.
        match self.opts.release_minor {
            None => found,
            Some(minor) => found.filter(|(o, _)| in_release(ops::def(*o).since, minor)),
        }
    }

    fn parse_custom_op(&mut self, block: Block) -> PResult<Op> {
        let text = self.text();
        let span = self.span();
        let Some((opcode, spelling)) = self.lookup_in_release(text) else {
            let msg = if text.contains('.') {
                format!("custom op '{text}' is unknown")
            } else {
                format!("custom op '{text}' is unknown (tried 'cuda_tile.{text}' as well)")
            };
            let bare = text.strip_prefix("cuda_tile.").unwrap_or(text);
            let names = tilec_ir::ops::all()
                .iter()
                .filter(|d| d.opcode != tilec_ir::Opcode::Unregistered)
                .flat_map(|d| std::iter::once(d.name).chain(d.aliases.iter().copied()));
            let near = tilec_diag::closest(bare, names);
            return Err(self.err_suggest(codes::UNKNOWN_OP, span, msg, near));
        };
        self.bump();
        let def = ops::def(opcode);
        // Op states are recycled: parsing an op then allocates next to nothing.
        let mut st = match self.op_states.pop() {
            Some(mut st) => {
                st.reset(def, spelling, span);
                st
            }
            None => Box::new(OpState::new(def, spelling, span)),
        };
        let outer = self.op_ctx.replace(def);
        let parsed = self.parse_op_syntax(&mut st, def, span);
        self.op_ctx = outer;
        parsed?;
        let op = self.finish_op(&mut st, block);
        self.op_states.push(st);
        let op = op?;
        self.parse_trailing_loc(LocOwner::Op(op))?;
        Ok(op)
    }

    fn parse_op_syntax(
        &mut self,
        st: &mut OpState<'s>,
        def: &'static OpDef,
        span: Span,
    ) -> PResult<()> {
        match def.custom() {
            Some(c) => self.parse_custom_syntax(st, c),
            None => match def.format() {
                Some(f) => self.parse_format(st, &f.elems),
                None => Err(self.err(
                    codes::UNSUPPORTED_SYNTAX,
                    span,
                    format!("op '{}' has no custom syntax", def.name),
                )),
            },
        }
    }

    /// Reports a custom-op error with MLIR's `custom op 'name'` prefix.
    pub(crate) fn custom_op_err(&mut self, st: &OpState<'_>, span: Span, msg: &str) -> Failed {
        let full = st.def.full_name();
        self.err(
            codes::OPERAND_TYPE_COUNT,
            span,
            format!("custom op '{full}' {msg}"),
        )
    }

    /// Infers missing types, resolves operands and creates the op.
    pub(crate) fn finish_op(&mut self, st: &mut OpState<'s>, block: Block) -> PResult<Op> {
        let def = st.def;
        if st
            .operand_types
            .iter()
            .chain(&st.result_types)
            .any(Option::is_none)
        {
            self.infer_types(st)?;
        }
        let mut operands = std::mem::take(&mut self.scratch_values);
        operands.clear();
        match st.resolved.take() {
            Some(v) => operands.extend(v),
            None => {
                for i in 0..def.operands.len() {
                    let types = st.operand_types[i].as_deref().unwrap_or_default();
                    let n = st.operands[i].len();
                    if types.len() != n {
                        let msg = format!(
                            "number of operands and types do not match: got {} operands and {} types",
                            n,
                            types.len()
                        );
                        self.scratch_values = operands;
                        return Err(self.custom_op_err(st, st.operand_locs[i], &msg));
                    }
                    for (&u, &t) in st.operands[i].iter().zip(types) {
                        match self.resolve(u, t) {
                            Ok(v) => operands.push(v),
                            Err(e) => {
                                self.scratch_values = operands;
                                return Err(e);
                            }
                        }
                    }
                }
            }
        }
        let mut result_types = std::mem::take(&mut self.scratch_types);
        result_types.clear();
        for t in st.result_types.iter().flatten() {
            result_types.extend_from_slice(t);
        }
        let mut attrs = std::mem::take(&mut self.scratch_attrs);
        attrs.clear();
        attrs.extend(st.attrs.iter().map(|a| a.map(|x| x.0)));
        if def.needs_segments()
            && let Some(i) = def
                .attrs
                .iter()
                .position(|a| a.kind == AttrKind::OperandSegments)
            && attrs[i].is_none()
        {
            let sizes: Vec<i32> = st
                .operand_types
                .iter()
                .map(|t| t.as_ref().map_or(0, |v| v.len() as i32))
                .collect();
            attrs[i] = Some(
                self.m
                    .ctx
                    .attrs
                    .intern(AttrData::DenseI32Array(sizes.into())),
            );
        }
        let op = self.m.create_op(
            &OpSpec {
                opcode: def.opcode,
                operands: &operands,
                results: &result_types,
                attrs: &attrs,
                regions: 0,
            },
            InsertPoint::End(block),
        );
        self.scratch_values = operands;
        self.scratch_types = result_types;
        self.scratch_attrs = attrs;
        self.m.set_spelling(op, st.spelling);
        self.m.set_op_span(op, Some(st.name_span));
        for (i, a) in st.attrs.iter().enumerate() {
            if let Some((_, s)) = a {
                self.m.set_attr_span(op, i, *s);
            }
        }
        for (k, v) in std::mem::take(&mut st.extra_attrs) {
            self.m.push_extra_attr(op, &k, v);
        }
        // Every region slot gets a region; an optional one the text leaves out is empty.
        for r in std::mem::take(&mut st.regions) {
            let r = r.unwrap_or_else(|| self.m.create_region());
            self.m.attach_region(op, r);
        }
        Ok(op)
    }

    /// Fills in the types the text leaves implicit (see [`ops::infer`]) and reports the
    /// ones that stay unknown.
    fn infer_types(&mut self, st: &mut OpState<'s>) -> PResult<()> {
        let def = st.def;
        let counts: Vec<usize> = st.operands.iter().map(|v| v.len()).collect();
        let mut t = ops::infer::SlotTypes {
            operands: std::mem::take(&mut st.operand_types),
            results: std::mem::take(&mut st.result_types),
        };
        let types = &mut self.m.ctx.types;
        ops::infer::infer_types(def, &counts, &mut t, &mut |lhs| {
            Some(types.with_element(lhs, Type::I1))
        });
        st.operand_types = t.operands;
        st.result_types = t.results;
        if def.family == tilec_ir::ops::Family::Gpu {
            self.infer_gpu_types(st);
        }
        if st.result_types.iter().any(|r| r.is_none()) {
            return Err(self.err(
                codes::SYNTAX,
                st.name_span,
                format!("failed to infer returned types of '{}'", def.full_name()),
            ));
        }
        if let Some(i) = st.operand_types.iter().position(|o| o.is_none()) {
            return Err(self.err(
                codes::SYNTAX,
                st.name_span,
                format!(
                    "cannot infer the type of operand '{}' of '{}'",
                    def.operands[i].name,
                    def.full_name()
                ),
            ));
        }
        Ok(())
    }

    /// What the GPU-level IR's printed forms leave out: an operand's type is the type its
    /// value was defined with (the index of `ttg.memdesc_index`, the tokens of
    /// `ttg.async_commit_group`), and the result of an async copy, commit or wait is an
    /// async token.
    fn infer_gpu_types(&mut self, st: &mut OpState<'s>) {
        for i in 0..st.operand_types.len() {
            if st.operand_types[i].is_some() {
                continue;
            }
            let types: Option<Vec<Type>> = st.operands[i]
                .iter()
                .map(|u| {
                    self.entry(u.name, u.number)
                        .map(|e| self.m.value_type(e.value))
                })
                .collect();
            if let Some(ts) = types {
                st.operand_types[i] = Some(ops::infer::TypeList::from_slice(&ts));
            }
        }
        if matches!(
            st.def.opcode,
            Opcode::AsyncCopyGlobalToLocal | Opcode::AsyncCommitGroup | Opcode::AsyncWait
        ) {
            let token = self
                .m
                .ctx
                .types
                .intern(TypeData::Opaque("!ttg.async.token".into()));
            for r in st.result_types.iter_mut().filter(|r| r.is_none()) {
                *r = Some(ops::infer::TypeList::one(token));
            }
        }
    }

    // ------------------------------------------------------------------ generic form

    fn parse_generic_op(&mut self, block: Block) -> PResult<Op> {
        let span = self.span();
        let name = self.parse_string_literal()?;
        if name.is_empty() {
            return Err(self.err(codes::SYNTAX, span, "empty operation name is invalid"));
        }
        let registered = name
            .strip_prefix("cuda_tile.")
            .and_then(|n| self.lookup_in_release(n));
        if registered.is_none() {
            if let Some(bare) = name.strip_prefix("cuda_tile.") {
                let names = tilec_ir::ops::all()
                    .iter()
                    .filter(|d| d.opcode != tilec_ir::Opcode::Unregistered)
                    .map(|d| d.name);
                let near = tilec_diag::closest(bare, names).map(|n| format!("cuda_tile.{n}"));
                return Err(self.err_suggest(
                    codes::UNKNOWN_OP,
                    span,
                    format!("unregistered operation '{name}' found in dialect ('cuda_tile') that does not allow unknown operations"),
                    near.as_deref(),
                ));
            }
            if !self.opts.allow_unregistered {
                return Err(self.err(
                    codes::UNKNOWN_OP,
                    span,
                    "operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used",
                ));
            }
        }
        self.expect(Tok::LParen, "expected '(' to start operand list")?;
        let mut uses = Vec::new();
        if self.at(Tok::PercentId) {
            loop {
                uses.push(self.parse_ssa_use()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RParen, "expected ')' to end operand list")?;
        if self.at(Tok::LSquare) {
            return Err(self.err_here(
                codes::UNSUPPORTED_SYNTAX,
                "successors are not supported in tile IR",
            ));
        }
        let mut attrs: Vec<(Box<str>, Attr, Span)> = Vec::new();
        if self.eat(Tok::Less) {
            let pstart = self.tok.start;
            let entries = self.parse_attr_dict_entries()?;
            let pspan = Span::new(pstart, self.prev_end);
            attrs.extend(entries.into_iter().map(|(k, v)| (k, v, pspan)));
            self.expect(Tok::Greater, "expected '>' to close properties")?;
        }
        let mut regions = Vec::new();
        if self.eat(Tok::LParen) {
            loop {
                regions.push(self.parse_region(&[])?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen, "expected ')' to end region list")?;
        }
        if self.at(Tok::LBrace) {
            let dstart = self.tok.start;
            let entries = self.parse_attr_dict_entries()?;
            let dspan = Span::new(dstart, self.prev_end);
            attrs.extend(entries.into_iter().map(|(k, v)| (k, v, dspan)));
        }
        self.expect(Tok::Colon, "expected ':' followed by operation type")?;
        let tspan = Span::at(self.tok.start);
        let fty = self.parse_type()?;
        let (inputs, results) = match self.m.ctx.types.get(fty) {
            TypeData::Function { inputs, results } => (inputs.to_vec(), results.to_vec()),
            _ => return Err(self.err(codes::INVALID_TYPE, tspan, "expected function type")),
        };
        if inputs.len() != uses.len() {
            let plural = if uses.len() == 1 { "" } else { "s" };
            return Err(self.err(
                codes::OPERAND_TYPE_COUNT,
                tspan,
                format!(
                    "expected {} operand type{plural} but had {}",
                    uses.len(),
                    inputs.len()
                ),
            ));
        }
        let mut operands = Vec::new();
        for (u, t) in uses.into_iter().zip(inputs) {
            operands.push(self.resolve(u, t)?);
        }
        let (opcode, spelling) = registered.unwrap_or((Opcode::Unregistered, 0));
        let def = ops::def(opcode);
        let mut slots: Vec<Option<Attr>> = vec![None; def.attrs.len()];
        let mut slot_spans = Vec::new();
        let mut extra = Vec::new();
        for (k, v, s) in attrs {
            match registered.and(def.attr_index(&k)) {
                Some(i) => {
                    let v = self.coerce_attr(def.attrs[i].kind, v);
                    slots[i] = Some(v);
                    slot_spans.push((i, s));
                }
                None => extra.push((k, v)),
            }
        }
        let op = self.m.create_op(
            &OpSpec {
                opcode,
                operands: &operands,
                results: &results,
                attrs: &slots,
                regions: 0,
            },
            InsertPoint::End(block),
        );
        self.m.set_spelling(op, spelling);
        self.m.set_written_generic(op, true);
        self.m.set_op_span(op, Some(span));
        if registered.is_none() {
            self.m.set_unregistered_name(op, &name);
        }
        for (i, s) in slot_spans {
            self.m.set_attr_span(op, i, s);
        }
        for (k, v) in extra {
            self.m.push_extra_attr(op, &k, v);
        }
        for r in regions {
            self.m.attach_region(op, r);
        }
        self.parse_trailing_loc(LocOwner::Op(op))?;
        Ok(op)
    }

    /// Converts generic-form attribute values to the representation of the slot kind
    /// (e.g. `1 : i32` for an integer-backed enum).
    fn coerce_attr(&mut self, kind: AttrKind, v: Attr) -> Attr {
        match (kind, self.m.ctx.attrs.get(v).clone()) {
            (AttrKind::Enum(k), AttrData::Int { value, .. })
                if (value as usize) < k.cases().len() =>
            {
                self.m.ctx.attrs.enum_case(k, value as u8)
            }
            (AttrKind::SymbolName, AttrData::SymbolRef(s)) => {
                self.m.ctx.attrs.intern(AttrData::String(s))
            }
            _ => v,
        }
    }

    // ------------------------------------------------------------------ regions

    /// Parses `{ ... }` with the given entry arguments.
    pub(crate) fn parse_region(&mut self, args: &[RegionArg<'s>]) -> PResult<Region> {
        let outer = self.op_ctx.take();
        let r = self.nested(|p| p.parse_region_inner(args));
        self.op_ctx = outer;
        r
    }

    fn parse_region_inner(&mut self, args: &[RegionArg<'s>]) -> PResult<Region> {
        let open = self.tok.start;
        self.expect(Tok::LBrace, "expected '{' to begin a region")?;
        self.open_braces.push(open);
        let region = self.m.create_region();
        self.push_scope();
        if !args.is_empty() || !self.at(Tok::RBrace) {
            let block = self.m.append_block(region);
            let mut names: FxHashMap<&'s str, Block> = FxHashMap::default();
            if !args.is_empty() {
                if self.at(Tok::CaretId) {
                    return Err(self.err_here(
                        codes::REGION,
                        "invalid block name in region with named arguments",
                    ));
                }
                for a in args {
                    if let Some(prev) = self.name_in_use(a.name.name, a.name.number) {
                        return Err(self.err_note(
                            codes::REGION,
                            a.name.span,
                            format!("region entry argument '%{}' is already in use", a.name.name),
                            "previously referenced here",
                            prev,
                        ));
                    }
                    let v = self.m.append_block_arg(block, a.ty);
                    self.apply_loc(LocOwner::Value(v), a.loc);
                    self.define(a.name.name, a.name.number, a.name.span, v)?;
                }
            } else if self.at(Tok::CaretId) {
                self.parse_block_label(block, &mut names)?;
            }
            self.parse_block_body(block)?;
            while !self.at(Tok::RBrace) {
                if !self.at(Tok::CaretId) {
                    return Err(self.err_wrong_token("expected block name"));
                }
                let b = self.m.append_block(region);
                self.parse_block_label(b, &mut names)?;
                self.parse_block_body(b)?;
            }
        }
        self.pop_scope();
        if self.opts.keep_trivia && self.at(Tok::RBrace) {
            self.region_ends.push((self.tok.start, region));
        }
        self.expect(Tok::RBrace, "expected '}' to end a region")?;
        self.open_braces.pop();
        Ok(region)
    }

    fn parse_block_label(
        &mut self,
        block: Block,
        names: &mut FxHashMap<&'s str, Block>,
    ) -> PResult<()> {
        let name = self.text();
        let span = self.span();
        self.bump();
        if names.insert(name, block).is_some() {
            return Err(self.err(
                codes::REGION,
                span,
                format!("redefinition of block '{name}'"),
            ));
        }
        if self.eat(Tok::LParen) && !self.eat(Tok::RParen) {
            loop {
                let u = self.parse_ssa_use()?;
                self.expect(Tok::Colon, "expected ':' and type for SSA operand")?;
                let t = self.parse_type()?;
                let v = self.m.append_block_arg(block, t);
                self.parse_trailing_loc(LocOwner::Value(v))?;
                self.define(u.name, u.number, u.span, v)?;
                if self.eat(Tok::RParen) {
                    break;
                }
                self.expect(Tok::Comma, "expected ')'")?;
            }
        }
        self.expect(Tok::Colon, "expected ':' after block name")?;
        Ok(())
    }

    fn parse_block_body(&mut self, block: Block) -> PResult<()> {
        while !matches!(self.tok.kind, Tok::CaretId | Tok::RBrace) {
            if matches!(self.tok.kind, Tok::Error | Tok::UnterminatedString) {
                return Err(Failed);
            }
            self.parse_operation(block)?;
        }
        Ok(())
    }

    pub(crate) fn apply_loc(&mut self, owner: LocOwner, loc: Option<LocSpec<'s>>) {
        match (loc, owner) {
            (Some(LocSpec::Attr(a)), LocOwner::Op(op)) => self.m.set_op_loc(op, Some(a)),
            (Some(LocSpec::Attr(a)), LocOwner::Value(v)) => self.m.set_value_loc(v, Some(a)),
            (Some(LocSpec::Alias(n, s)), _) => self.deferred_locs.push((owner, n, s)),
            (None, _) => {}
        }
    }

    /// Parses an optional `loc(...)` whose owner does not exist yet.
    pub(crate) fn parse_optional_loc_spec(&mut self) -> PResult<Option<LocSpec<'s>>> {
        if !self.at_keyword("loc") {
            return Ok(None);
        }
        self.bump();
        self.expect(Tok::LParen, "expected '(' in location")?;
        let spec = if self.tok.kind == Tok::HashId && !self.text().contains('.') {
            let name = &self.text()[1..];
            let span = self.span();
            self.bump();
            match self.attr_aliases.get(name) {
                Some(a) => LocSpec::Attr(*a),
                None => LocSpec::Alias(name, span),
            }
        } else {
            LocSpec::Attr(self.parse_location_body(None)?)
        };
        self.expect(Tok::RParen, "expected ')' in location")?;
        Ok(Some(spec))
    }

    /// Adds the implicit terminator of a region if its block does not end in a terminator.
    pub(crate) fn ensure_terminator(&mut self, region: Region, term: Opcode, span: Span) {
        let block = match self.m.region_blocks(region).last() {
            Some(b) => *b,
            None => self.m.append_block(region),
        };
        if let Some(last) = self.m.last_op(block)
            && self.m.unregistered_name(last).is_none()
            && self.m.def(last).has(Traits::TERMINATOR)
        {
            return;
        }
        let op = self.m.create_op(
            &OpSpec {
                opcode: term,
                operands: &[],
                results: &[],
                attrs: &[],
                regions: 0,
            },
            InsertPoint::End(block),
        );
        self.m.set_op_span(op, Some(span));
        if self.opts.keep_trivia {
            self.implicit_ops.push(op);
        }
    }
}

/// True if an op introduced in `since` (`"13.3"`) exists in release 13.`minor`; ops that
/// are not NVIDIA release ops (the spec's, the GPU level's, the testing ones) always do.
fn in_release(since: &str, minor: u8) -> bool {
    match since.strip_prefix("13.").and_then(|m| m.parse::<u8>().ok()) {
        Some(m) => m <= minor,
        None => true,
    }
}
