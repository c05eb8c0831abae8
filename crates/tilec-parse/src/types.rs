//! Type parsing: tile IR types in their short (`tile<4xf32>`) and qualified
//! (`!cuda_tile.tile<4xf32>`) forms, builtin element types, function types, aliases, and
//! opaque types of other dialects. Types are verified as they are built, with the messages
//! of NVIDIA's type verifiers.

use crate::lexer::Tok;
use crate::parser::{Failed, PResult, Parser};
use tilec_diag::{Span, codes};
use tilec_ir::attrs::PaddingValue;
use tilec_ir::float::FloatKind;
use tilec_ir::ops::Elems;
use tilec_ir::types::{DYNAMIC, Type, TypeData};

/// The type keywords, for `did you mean` suggestions.
const TYPE_KEYWORDS: &[&str] = &[
    "i1",
    "i8",
    "i16",
    "i32",
    "i64",
    "f16",
    "bf16",
    "f32",
    "tf32",
    "f64",
    "f8E4M3FN",
    "f8E5M2",
    "token",
    "ptr",
    "tile",
    "tensor_view",
    "partition_view",
    "strided_view",
    "gather_scatter_view",
    "testing$bytecode_test_evolved",
];

/// The `cuda_tile` dialect's type mnemonics.
const DIALECT_TYPES: &[&str] = &[
    "token",
    "ptr",
    "tile",
    "tensor_view",
    "partition_view",
    "strided_view",
    "gather_scatter_view",
];

/// Which tile view a view body describes.
#[derive(Copy, Clone, PartialEq, Eq)]
enum ViewKind {
    Partition,
    Strided,
    GatherScatter,
}

fn join(v: &[i64]) -> String {
    v.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn join_dyn(v: &[i64]) -> String {
    let parts: Vec<String> = v
        .iter()
        .map(|d| {
            if *d == DYNAMIC {
                "?".to_string()
            } else {
                d.to_string()
            }
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

impl<'s> Parser<'s> {
    /// Parses a type (MLIR's `parseType`, extended with the short tile IR forms).
    pub(crate) fn parse_type(&mut self) -> PResult<Type> {
        self.nested(Self::parse_type_inner)
    }

    fn parse_type_inner(&mut self) -> PResult<Type> {
        match self.tok.kind {
            Tok::BangId => self.parse_bang_type(),
            Tok::BareId => self.parse_keyword_type(),
            Tok::LParen => self.parse_function_type(),
            _ => Err(self.err_op_here(codes::SYNTAX, "expected valid keyword")),
        }
    }

    /// Looks up a previously parsed type by its exact text, when the type at the current
    /// position is a bracketed tile IR type; on a hit the lexer skips past it.
    fn cached_type(&mut self, open: usize) -> Option<(Type, usize)> {
        let bytes = self.src.as_bytes();
        if bytes.get(open) != Some(&b'<') {
            return None;
        }
        let mut depth = 0usize;
        let limit = (open + 512).min(bytes.len());
        for (i, &b) in bytes[open..limit].iter().enumerate() {
            match b {
                b'<' => depth += 1,
                b'>' if bytes[open + i - 1] != b'-' => {
                    depth -= 1;
                    if depth == 0 {
                        let end = open + i + 1;
                        let key = &self.src[self.tok.start as usize..end];
                        return self.type_cache.get(key).map(|t| (*t, end));
                    }
                }
                b'\n' | b'"' => return None,
                _ => {}
            }
        }
        None
    }

    fn remember_type(&mut self, start: u32, t: Type) {
        let key = &self.src[start as usize..self.prev_end as usize];
        if key.len() <= 512 {
            self.type_cache.insert(key, t);
        }
    }

    fn parse_bang_type(&mut self) -> PResult<Type> {
        let text = self.text();
        let span = self.span();
        if let Some(mnemonic) = text.strip_prefix("!cuda_tile.") {
            if let Some((t, end)) = self.cached_type(self.tok.end as usize) {
                self.reset_to(end);
                self.prev_end = end as u32;
                return Ok(t);
            }
            let start = self.tok.start;
            self.bump();
            let t = self.parse_dialect_type(mnemonic, span)?;
            self.remember_type(start, t);
            return Ok(t);
        }
        if text == "!ttg.memdesc" {
            self.bump();
            return self.parse_memdesc();
        }
        let name = &text[1..];
        if !name.contains('.') {
            self.bump();
            return match self.type_aliases.get(name) {
                Some(t) => Ok(*t),
                None => Err(self.err(
                    codes::UNDEFINED_ALIAS,
                    span,
                    format!("undefined symbol alias id '{name}'"),
                )),
            };
        }
        // A type of another dialect: keep it verbatim.
        let start = self.tok.start as usize;
        self.bump();
        if self.at(Tok::Less) {
            self.skip_balanced_angles()?;
        }
        let t = self.m.ctx.types.intern(TypeData::Opaque(
            self.src[start..self.prev_end as usize].into(),
        ));
        Ok(t)
    }

    /// Skips a balanced `<...>` group (for opaque types and attributes).
    pub(crate) fn skip_balanced_angles(&mut self) -> PResult<()> {
        let mut depth = 0i32;
        loop {
            match self.tok.kind {
                Tok::Less => depth += 1,
                Tok::Greater => depth -= 1,
                Tok::Eof => return Err(self.err_wrong_token("expected '>'")),
                Tok::Error | Tok::UnterminatedString => return Err(Failed),
                _ => {}
            }
            self.bump();
            if depth == 0 {
                return Ok(());
            }
        }
    }

    fn parse_keyword_type(&mut self) -> PResult<Type> {
        let text = self.text();
        let span = self.span();
        match text {
            "tile"
            | "ptr"
            | "tensor_view"
            | "partition_view"
            | "strided_view"
            | "gather_scatter_view"
            | "testing$bytecode_test_evolved"
            | "token" => {
                if let Some((t, end)) = self.cached_type(self.tok.end as usize) {
                    self.reset_to(end);
                    self.prev_end = end as u32;
                    return Ok(t);
                }
                let start = self.tok.start;
                self.bump();
                let t = self.parse_dialect_type(text, span)?;
                self.remember_type(start, t);
                Ok(t)
            }
            _ => {
                if let Some(t) = builtin_scalar(text) {
                    self.bump();
                    return Ok(match t {
                        Builtin::Int(w) => self.m.ctx.types.int(w),
                        Builtin::Float(k) => Type::float(k),
                    });
                }
                if matches!(
                    text,
                    "index" | "none" | "tensor" | "vector" | "memref" | "complex" | "tuple"
                ) || text.starts_with("f8E")
                    || text.starts_with("f4E")
                    || text.starts_with("f6E")
                {
                    let start = self.tok.start as usize;
                    self.bump();
                    if self.at(Tok::Less) {
                        self.skip_balanced_angles()?;
                    }
                    let t = self.m.ctx.types.intern(TypeData::Opaque(
                        self.src[start..self.prev_end as usize].into(),
                    ));
                    return Ok(t);
                }
                let near = tilec_diag::closest(text, TYPE_KEYWORDS.iter().copied());
                Err(self.err_suggest(
                    codes::INVALID_TYPE,
                    span,
                    format!("unknown type: {text}"),
                    near,
                ))
            }
        }
    }

    fn parse_function_type(&mut self) -> PResult<Type> {
        self.expect(Tok::LParen, "expected '('")?;
        let mut inputs = Vec::new();
        if !self.eat(Tok::RParen) {
            loop {
                inputs.push(self.parse_type()?);
                if self.eat(Tok::RParen) {
                    break;
                }
                self.expect(Tok::Comma, "expected ')'")?;
            }
        }
        self.expect(Tok::Arrow, "expected '->' in function type")?;
        let results = self.parse_function_results()?;
        Ok(self.m.ctx.types.function(&inputs, &results))
    }

    /// Parses `type` or `(type, ...)` after a `->`.
    pub(crate) fn parse_function_results(&mut self) -> PResult<Vec<Type>> {
        let mut results = Vec::new();
        if self.at(Tok::LParen) {
            // `(...)` may itself be a function type; MLIR treats `-> (a, b)` as a list.
            self.bump();
            if !self.eat(Tok::RParen) {
                loop {
                    results.push(self.parse_type()?);
                    if self.eat(Tok::RParen) {
                        break;
                    }
                    self.expect(Tok::Comma, "expected ')'")?;
                }
            }
        } else {
            results.push(self.parse_type()?);
        }
        Ok(results)
    }

    /// Parses the body of a tile IR type after its mnemonic.
    pub(crate) fn parse_dialect_type(&mut self, mnemonic: &str, span: Span) -> PResult<Type> {
        match mnemonic {
            "token" => Ok(Type::TOKEN),
            "ptr" => {
                self.expect(Tok::Less, "expected '<'")?;
                let at = Span::at(self.tok.start);
                let elem = self.parse_type()?;
                self.expect(Tok::Greater, "expected '>'")?;
                if !self.number_in_release(elem) {
                    return Err(self.err(
                        codes::INVALID_TYPE,
                        at,
                        format!(
                            "failed to verify 'pointeeType': {}",
                            Elems::describe_number_type(self.opts.minor())
                        ),
                    ));
                }
                Ok(self.m.ctx.types.ptr(elem))
            }
            "tile" => {
                let at = Span::at(self.tok.start);
                self.expect(Tok::Less, "expected '<'")?;
                let shape = self.parse_dimension_list(false, true)?;
                let elem = self.parse_type()?;
                // The GPU-level IR's distributed layout: `tile<64x64xf32, #linear>`.
                let encoding = if self.eat(Tok::Comma) {
                    Some(self.parse_linear_encoding()?)
                } else {
                    None
                };
                self.expect(Tok::Greater, "expected '>'")?;
                let ed = self.m.ctx.types.get(elem);
                // Only the element types of the release parsed for (13.1 had no 4-bit or
                // e8m0 types).
                let release = Elems::of_release(self.opts.minor());
                if !Elems::of(ed).is_some_and(|e| release.contains(e)) {
                    return Err(self.err(
                        codes::INVALID_TYPE,
                        at,
                        format!(
                            "failed to verify 'elementType': {}",
                            Elems::describe_tile_element_type(self.opts.minor())
                        ),
                    ));
                }
                if let Some(msg) = tilec_ir::types::tile_element_error(&shape, ed) {
                    return Err(self.err(codes::INVALID_TYPE, at, msg));
                }
                self.check_tile_shape(&shape, at)?;
                let t = self.m.ctx.types.tile(&shape, elem);
                Ok(match encoding {
                    Some(e) => self.m.ctx.types.with_encoding(t, Some(e)),
                    None => t,
                })
            }
            "tensor_view" => self.parse_tensor_view_body(),
            "partition_view" => self.parse_view_body(ViewKind::Partition),
            "strided_view" => self.parse_view_body(ViewKind::Strided),
            "gather_scatter_view" => self.parse_view_body(ViewKind::GatherScatter),
            "testing$bytecode_test_evolved" => self.parse_test_evolved(),
            other => {
                let near = tilec_diag::closest(other, DIALECT_TYPES.iter().copied());
                Err(self.err_suggest(
                    codes::INVALID_TYPE,
                    span,
                    format!("unknown type: {other}"),
                    near,
                ))
            }
        }
    }

    fn check_tile_shape(&mut self, shape: &[i64], at: Span) -> PResult<()> {
        match tilec_ir::types::tile_shape_error(shape) {
            Some(msg) => Err(self.err(codes::INVALID_TYPE, at, msg)),
            None => Ok(()),
        }
    }

    /// MLIR's `parseDimensionList`: `4x8x` (with a trailing `x`) or `4x8` (without).
    pub(crate) fn parse_dimension_list(
        &mut self,
        allow_dynamic: bool,
        trailing_x: bool,
    ) -> PResult<Vec<i64>> {
        let mut dims = Vec::new();
        if trailing_x {
            while matches!(self.tok.kind, Tok::Integer | Tok::Question) {
                dims.push(self.parse_dim(allow_dynamic)?);
                self.parse_x_in_dims()?;
            }
        } else if matches!(self.tok.kind, Tok::Integer | Tok::Question) {
            dims.push(self.parse_dim(allow_dynamic)?);
            while self.tok.kind == Tok::BareId && self.text().starts_with('x') {
                self.parse_x_in_dims()?;
                dims.push(self.parse_dim(allow_dynamic)?);
            }
        }
        Ok(dims)
    }

    fn parse_dim(&mut self, allow_dynamic: bool) -> PResult<i64> {
        if self.at(Tok::Question) {
            if !allow_dynamic {
                return Err(self.err_here(codes::INVALID_TYPE, "expected static shape"));
            }
            self.bump();
            return Ok(DYNAMIC);
        }
        if self.tok.kind != Tok::Integer {
            return Err(self.err_wrong_token("expected dimension"));
        }
        let text = self.text();
        if text.len() > 1 && text.as_bytes()[1] == b'x' {
            // `0x...` is not a hex literal inside a dimension list: it is `0` then `x`.
            let pos = self.tok.start as usize + 1;
            self.prev_end = pos as u32;
            self.reset_to(pos);
            return Ok(0);
        }
        match text.parse::<i64>() {
            Ok(v) => {
                self.bump();
                Ok(v)
            }
            Err(_) => Err(self.err_here(codes::INVALID_TYPE, "invalid dimension")),
        }
    }

    fn parse_x_in_dims(&mut self) -> PResult<()> {
        if self.tok.kind != Tok::BareId || !self.text().starts_with('x') {
            return Err(self.err_wrong_token("expected 'x' in dimension list"));
        }
        if self.text().len() > 1 {
            let pos = self.tok.start as usize + 1;
            self.prev_end = pos as u32;
            self.reset_to(pos);
        } else {
            self.bump();
        }
        Ok(())
    }

    fn parse_tensor_view_body(&mut self) -> PResult<Type> {
        let at = Span::at(self.tok.start);
        self.expect(Tok::Less, "expected '<'")?;
        let shape = self.parse_dimension_list(true, true)?;
        let elem = self.parse_type()?;
        let mut strides = Vec::new();
        if shape.is_empty() {
            if self.eat(Tok::Comma) {
                if self.at_keyword("strides") {
                    self.bump();
                    return Err(self.err_here(
                        codes::INVALID_TYPE,
                        "strides must not be provided for 0-d tiles",
                    ));
                }
                return Err(self.err_here(
                    codes::INVALID_TYPE,
                    "unexpected token after element type in 0-d tensor_view",
                ));
            }
        } else {
            if !self.eat(Tok::Comma) {
                return Err(self.err_here(codes::INVALID_TYPE, "expected 'strides'"));
            }
            self.expect_keyword("strides")?;
            self.expect(Tok::Equal, "expected '='")?;
            self.expect(Tok::LSquare, "expected '['")?;
            if !self.eat(Tok::RSquare) {
                loop {
                    let here = Span::at(self.tok.start);
                    if self.eat(Tok::Question) {
                        strides.push(DYNAMIC);
                    } else if matches!(self.tok.kind, Tok::Integer | Tok::Minus) {
                        let v = self.parse_i64()?;
                        if v <= 0 {
                            return Err(self.err(
                                codes::INVALID_TYPE,
                                here,
                                format!("expected strictly positive integer, got {v}"),
                            ));
                        }
                        strides.push(v);
                    } else {
                        return Err(self.err(
                            codes::INVALID_TYPE,
                            here,
                            "expected either 64-bit integer or question mark",
                        ));
                    }
                    if self.eat(Tok::RSquare) {
                        break;
                    }
                    self.expect(Tok::Comma, "expected ']'")?;
                }
            }
        }
        self.expect(Tok::Greater, "expected '>'")?;
        if !self.number_in_release(elem) {
            return Err(self.err(
                codes::INVALID_TYPE,
                at,
                format!(
                    "failed to verify 'elementType': {}",
                    Elems::describe_number_type(self.opts.minor())
                ),
            ));
        }
        if shape.len() != strides.len() {
            return Err(self.err(
                codes::INVALID_TYPE,
                at,
                format!(
                    "expected shape and stride to be of same rank but got shape of rank {} and stride of rank {}",
                    shape.len(),
                    strides.len()
                ),
            ));
        }
        if shape.iter().any(|&d| d <= 0 && d != DYNAMIC) {
            return Err(self.err(
                codes::INVALID_TYPE,
                at,
                format!(
                    "dimensions must have strictly positive constant sizes but got {}",
                    join_dyn(&shape)
                ),
            ));
        }
        Ok(self.m.ctx.types.intern(TypeData::TensorView {
            elem,
            shape: shape.into(),
            strides: strides.into(),
        }))
    }

    /// The body of a tile view type: `partition_view<tile=(...), [padding_value = P,]
    /// tensor_view<...>[, dim_map=[...]]>`, 13.3's `strided_view<tile=(...),
    /// traversal_strides=[...], ...>` (the same with traversal strides after the tile) and
    /// `gather_scatter_view<tile=(...), [padding_value = P,] tensor_view<...>, sparse_dim=N>`.
    /// Checks what NVIDIA's type verifiers check, with their wording.
    fn parse_view_body(&mut self, kind: ViewKind) -> PResult<Type> {
        let at = Span::at(self.tok.start);
        self.expect(Tok::Less, "expected '<'")?;
        self.expect_keyword("tile")?;
        self.expect(Tok::Equal, "expected '='")?;
        let dims_at = Span::at(self.tok.start);
        self.expect(Tok::LParen, "expected '('")?;
        let tile = self.parse_dimension_list(false, false)?;
        self.expect(Tok::RParen, "expected ')'")?;
        self.expect(Tok::Comma, "expected ','")?;
        let tile_dims_ok = |p: &mut Self, tile: &[i64]| -> PResult<()> {
            for (i, &v) in tile.iter().enumerate() {
                if v <= 0 || v > i32::MAX as i64 {
                    return Err(p.err(
                        codes::INVALID_TYPE,
                        dims_at,
                        format!(
                            "tile dimension {i} exceeds i32 limitations (got {v}, expected strictly positive and less than or equal to 2147483647)"
                        ),
                    ));
                }
            }
            Ok(())
        };
        let mut traversal_strides = Vec::new();
        if kind == ViewKind::Strided {
            // NVIDIA checks the tile dimensions as soon as it has read them here.
            tile_dims_ok(self, &tile)?;
            self.expect_keyword("traversal_strides")?;
            self.expect(Tok::Equal, "expected '='")?;
            self.expect(Tok::LSquare, "expected '['")?;
            if !self.eat(Tok::RSquare) {
                loop {
                    let span = self.span();
                    let v = self.parse_i64()?;
                    if v < i32::MIN as i64 || v > i32::MAX as i64 {
                        return Err(self.err(codes::INVALID_TYPE, span, "integer value too large"));
                    }
                    traversal_strides.push(v);
                    if self.eat(Tok::RSquare) {
                        break;
                    }
                    self.expect(Tok::Comma, "expected ']'")?;
                }
            }
            self.expect(Tok::Comma, "expected ','")?;
        }
        let mut padding = None;
        if self.eat_keyword("padding_value") {
            self.expect(Tok::Equal, "expected '='")?;
            let (kw, kspan) = self.keyword()?;
            match PaddingValue::from_name(kw) {
                Some(p) => padding = Some(p),
                None => {
                    return Err(self.err(
                        codes::INVALID_TYPE,
                        kspan,
                        format!(
                            "invalid padding_value attribute specification. Got \"{kw}\" but expect one of: zero, neg_zero, nan, pos_inf, neg_inf"
                        ),
                    ));
                }
            }
            self.expect(Tok::Comma, "expected ','")?;
        }
        let tv_at = Span::at(self.tok.start);
        let tensor_view = self.parse_type()?;
        let (tv_shape, tv_elem) = match self.m.ctx.types.get(tensor_view) {
            TypeData::TensorView { shape, elem, .. } => (shape.to_vec(), *elem),
            _ => {
                let t = self.m.ctx.types.to_string(tensor_view, true);
                // 13.3 reads any type here and reports after it; 13.1 and 13.2 asked
                // for a tensor_view.
                let (span, msg) = if self.opts.minor() >= 3 || kind != ViewKind::Partition {
                    (
                        Span::at(self.prev_end),
                        format!("expected 'tensor_view' type, but got '{t}'"),
                    )
                } else {
                    (tv_at, format!("expected tensor_view, got '{t}'"))
                };
                return Err(self.err(codes::INVALID_TYPE, span, msg));
            }
        };
        let mut dim_map = Vec::new();
        let mut sparse_dim = 0u32;
        if kind == ViewKind::GatherScatter {
            self.expect(Tok::Comma, "expected ','")?;
            self.expect_keyword("sparse_dim")?;
            self.expect(Tok::Equal, "expected '='")?;
            let span = self.span();
            let v = self.parse_i64()?;
            sparse_dim = match u32::try_from(v) {
                Ok(v) => v,
                Err(_) => {
                    return Err(self.err(codes::INVALID_TYPE, span, "integer value too large"));
                }
            };
        } else if self.eat(Tok::Comma) {
            self.expect_keyword("dim_map")?;
            self.expect(Tok::Equal, "expected '='")?;
            self.expect(Tok::LSquare, "expected '['")?;
            if !self.eat(Tok::RSquare) {
                loop {
                    let v = self.parse_i64()?;
                    dim_map.push(v as i32);
                    if self.eat(Tok::RSquare) {
                        break;
                    }
                    self.expect(Tok::Comma, "expected ']'")?;
                }
            }
        } else {
            dim_map = (0..tile.len() as i32).collect();
        }
        self.expect(Tok::Greater, "expected '>'")?;
        if kind != ViewKind::Strided {
            tile_dims_ok(self, &tile)?;
        }
        let e = |p: &mut Self, msg: String| p.err(codes::INVALID_TYPE, at, msg);
        if tile.is_empty() {
            return Err(e(self, "0-dimension tile shape is not supported".into()));
        }
        if tile.len() != tv_shape.len() {
            return Err(e(
                self,
                format!(
                    "expected tensor_view rank and tile rank to match, got tensor_view of rank {} and tiles of rank {}",
                    tv_shape.len(),
                    tile.len()
                ),
            ));
        }
        if kind != ViewKind::GatherScatter && dim_map.len() != tile.len() {
            return Err(e(
                self,
                format!(
                    "expected dim_map to map exactly all {} dimensions of the tile, got {} mappings",
                    tile.len(),
                    dim_map.len()
                ),
            ));
        }
        if tile.iter().any(|d| (*d as u64).count_ones() != 1) {
            return Err(e(
                self,
                format!(
                    "tile shape dimensions must have power of two length but got [{}]",
                    join(&tile)
                ),
            ));
        }
        if kind == ViewKind::GatherScatter && sparse_dim as usize >= tv_shape.len() {
            return Err(e(
                self,
                format!(
                    "gather dimension is outside of tensor view dimensions, expected strictly less than {}, got {sparse_dim}",
                    tv_shape.len()
                ),
            ));
        }
        let mut used: Vec<Option<usize>> = vec![None; tile.len()];
        for (tile_dim, &tv_dim) in dim_map.iter().enumerate() {
            if tv_dim < 0 {
                return Err(e(
                    self,
                    format!("target dimension must not be negative, got {tv_dim}"),
                ));
            }
            if tv_dim as usize >= tv_shape.len() {
                return Err(e(
                    self,
                    format!(
                        "target dimension is outside of tensor view dimensions, expected strictly less than {}, got {tv_dim}",
                        tile.len()
                    ),
                ));
            }
            if let Some(prev) = used[tv_dim as usize] {
                return Err(e(
                    self,
                    format!(
                        "target dimension {tv_dim} mapped at least twice (for tile dimensions {prev} and {tile_dim})"
                    ),
                ));
            }
            used[tv_dim as usize] = Some(tile_dim);
        }
        self.check_tile_shape(&tile, at)?;
        if let Some(p) = padding
            && p != PaddingValue::Zero
            && !matches!(self.m.ctx.types.get(tv_elem), TypeData::Float(_))
        {
            let t = self.m.ctx.types.to_string(tv_elem, true);
            return Err(e(
                self,
                format!(
                    "padding_value {} can only be used with floating point element types, got '{t}'",
                    p.name()
                ),
            ));
        }
        if kind == ViewKind::Strided {
            if traversal_strides.len() != tile.len() {
                return Err(e(
                    self,
                    format!(
                        "expected {} traversal strides, got {}",
                        tile.len(),
                        traversal_strides.len()
                    ),
                ));
            }
            if traversal_strides.iter().any(|s| *s <= 0) {
                return Err(e(
                    self,
                    format!(
                        "traversal strides must be strictly positive but got [{}]",
                        join(&traversal_strides)
                    ),
                ));
            }
        }
        let data = match kind {
            ViewKind::Partition => TypeData::PartitionView {
                tile: tile.into(),
                padding,
                tensor_view,
                dim_map: dim_map.into(),
            },
            ViewKind::Strided => TypeData::StridedView {
                tile: tile.into(),
                traversal_strides: traversal_strides.into(),
                padding,
                tensor_view,
                dim_map: dim_map.into(),
            },
            ViewKind::GatherScatter => TypeData::GatherScatterView {
                tile: tile.into(),
                padding,
                tensor_view,
                sparse_dim,
            },
        };
        Ok(self.m.ctx.types.intern(data))
    }

    /// Parses a possibly negative 64-bit integer (MLIR's `parseInteger`).
    pub(crate) fn parse_i64(&mut self) -> PResult<i64> {
        let neg = self.eat(Tok::Minus);
        if self.tok.kind == Tok::BareId && matches!(self.text(), "true" | "false") && !neg {
            let v = (self.text() == "true") as i64;
            self.bump();
            return Ok(v);
        }
        if self.tok.kind != Tok::Integer {
            return Err(self.err_op_here(codes::SYNTAX, "expected integer value"));
        }
        let v = parse_uint(self.text());
        let span = self.span();
        self.bump();
        match v {
            Some(v) if neg && v <= 1u64 << 63 => Ok((v as i64).wrapping_neg()),
            Some(v) if !neg && v <= i64::MAX as u64 => Ok(v as i64),
            _ => Err(self.err(codes::INVALID_ATTRIBUTE, span, "integer value too large")),
        }
    }
}

/// Parses a decimal or `0x` hexadecimal unsigned integer literal.
pub(crate) fn parse_uint(text: &str) -> Option<u64> {
    match text.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => text.parse::<u64>().ok(),
    }
}

enum Builtin {
    Int(u32),
    Float(FloatKind),
}

fn builtin_scalar(text: &str) -> Option<Builtin> {
    if let Some(k) = FloatKind::from_name(text) {
        return Some(Builtin::Float(k));
    }
    let w = text.strip_prefix('i')?;
    if w.is_empty() || w.starts_with('0') || !w.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let w: u32 = w.parse().ok()?;
    (w > 0 && w <= 1 << 24).then_some(Builtin::Int(w))
}

/// The element types a tile may hold besides pointers.
/// NVIDIA's `NumberType`: the integer types of arithmetic and every float type.
pub(crate) fn is_number_type(d: &TypeData) -> bool {
    Elems::of(d).is_some_and(|e| Elems::NUMBERS.contains(e))
}

impl Parser<'_> {
    /// `<base[, new][, #cuda_tile.padding_value<p>][, optional]>` of the testing type
    /// `testing$bytecode_test_evolved`: the first type after `base` is `new`, the second
    /// `optional`.
    fn parse_test_evolved(&mut self) -> PResult<Type> {
        self.expect(Tok::Less, "expected '<'")?;
        let at = Span::at(self.tok.start);
        let base = self.parse_type()?;
        if !self.number_in_release(base) {
            return Err(self.err(
                codes::INVALID_TYPE,
                at,
                format!(
                    "failed to verify 'baseType': {}",
                    Elems::describe_number_type(self.opts.minor())
                ),
            ));
        }
        let (mut new, mut attr, mut optional) = (None, None, None);
        while self.eat(Tok::Comma) {
            if self.at(Tok::HashId) {
                let (a, span) = self.parse_attribute(None)?;
                match self.m.ctx.attrs.get(a) {
                    tilec_ir::attrs::AttrData::Enum(tilec_ir::attrs::EnumKind::PaddingValue, v) => {
                        attr = tilec_ir::attrs::PaddingValue::from_index(*v);
                    }
                    _ => {
                        return Err(self.err(
                            codes::INVALID_TYPE,
                            span,
                            "expected a padding value attribute",
                        ));
                    }
                }
            } else if new.is_none() && attr.is_none() {
                new = Some(self.parse_type()?);
            } else if optional.is_none() {
                optional = Some(self.parse_type()?);
            } else {
                return Err(self.err_op_here(codes::SYNTAX, "expected '>'"));
            }
        }
        self.expect(Tok::Greater, "expected '>'")?;
        // `new` defaults to i32, which is then not written.
        let new = new.filter(|t| *t != Type::I32);
        Ok(self.m.ctx.types.intern(TypeData::TestEvolved {
            base,
            new,
            attr,
            optional,
        }))
    }

    /// True if `t` is a number type of the release parsed for.
    fn number_in_release(&self, t: tilec_ir::Type) -> bool {
        let release = Elems::of_release(self.opts.minor());
        Elems::of(self.m.ctx.types.get(t))
            .is_some_and(|e| Elems::NUMBERS.contains(e) && release.contains(e))
    }

    /// The text of a GPU-level encoding attribute (`#linear` naming an alias, or the
    /// attribute itself, `#ttg.linear<{...}>`), as the printer writes it.
    fn parse_gpu_attr_text(&mut self, what: &str) -> PResult<(String, Span)> {
        let span = self.span();
        let (a, _) = self.parse_attribute(None)?;
        match self.m.ctx.attrs.get(a) {
            tilec_ir::AttrData::Opaque(s) => Ok((s.to_string(), span)),
            _ => Err(self.err(codes::INVALID_TYPE, span, format!("expected {what}"))),
        }
    }

    /// `#ttg.linear<{register = [...], lane = [...], warp = [...], block = []}>` (or an
    /// alias of it): the layout of a tile of the GPU-level IR.
    fn parse_linear_encoding(&mut self) -> PResult<Type> {
        let (text, span) = self.parse_gpu_attr_text("a '#ttg.linear' layout")?;
        match gpu_text::linear(&text) {
            Some((register, lane, warp)) => Ok(self.m.ctx.types.intern(TypeData::LinearEncoding {
                register,
                lane,
                warp,
            })),
            None => Err(self.err(
                codes::INVALID_TYPE,
                span,
                "expected a '#ttg.linear<{register = [...], lane = [...], warp = [...], block = []}>' layout",
            )),
        }
    }

    /// `!ttg.memdesc<shape x elem, #shared, #smem[, mutable]>` after its mnemonic: a
    /// shared-memory buffer of the GPU-level IR.
    fn parse_memdesc(&mut self) -> PResult<Type> {
        self.expect(Tok::Less, "expected '<'")?;
        let at = Span::at(self.tok.start);
        let shape = self.parse_dimension_list(false, true)?;
        let elem = self.parse_type()?;
        self.expect(Tok::Comma, "expected ','")?;
        let (shared, sspan) = self.parse_gpu_attr_text("a '#ttg.swizzled_shared' encoding")?;
        let Some((swizzle, order)) = gpu_text::swizzled_shared(&shared) else {
            return Err(self.err(
                codes::INVALID_TYPE,
                sspan,
                "expected '#ttg.swizzled_shared<{vec = V, perPhase = P, maxPhase = M, order = [...]}>' (V, P and M positive integers)",
            ));
        };
        self.expect(Tok::Comma, "expected ','")?;
        let (space, pspan) = self.parse_gpu_attr_text("'#ttg.shared_memory'")?;
        if space.split_whitespace().collect::<String>() != "#ttg.shared_memory" {
            return Err(self.err(codes::INVALID_TYPE, pspan, "expected '#ttg.shared_memory'"));
        }
        let mutable = if self.eat(Tok::Comma) {
            self.expect_keyword("mutable")?;
            true
        } else {
            false
        };
        self.expect(Tok::Greater, "expected '>'")?;
        if order.len() != shape.len() || {
            let mut o: Vec<u8> = order.to_vec();
            o.sort_unstable();
            o.iter().enumerate().any(|(i, d)| *d as usize != i)
        } {
            return Err(self.err(
                codes::INVALID_TYPE,
                at,
                "the 'order' of a shared encoding must be a permutation of the buffer's dimensions",
            ));
        }
        Ok(self.m.ctx.types.intern(TypeData::MemDesc {
            shape: shape.into(),
            elem,
            mutable,
            order,
            swizzle,
        }))
    }
}

/// Readers of the GPU-level encodings' text (whitespace-insensitive).
mod gpu_text {
    /// The text without whitespace.
    fn squeeze(s: &str) -> String {
        s.chars().filter(|c| !c.is_whitespace()).collect()
    }

    /// `[[a, b], [c, d], []]` at the start of `s`: the lists and the rest of `s`.
    fn bases(s: &str) -> Option<(Bases, &str)> {
        let mut rest = s.strip_prefix('[')?;
        let mut out = Vec::new();
        if let Some(r) = rest.strip_prefix(']') {
            return Some((out.into(), r));
        }
        loop {
            let r = rest.strip_prefix('[')?;
            let end = r.find(']')?;
            let nums: Vec<i64> = if r[..end].is_empty() {
                Vec::new()
            } else {
                r[..end]
                    .split(',')
                    .map(|n| n.parse().ok())
                    .collect::<Option<_>>()?
            };
            out.push(nums.into_boxed_slice());
            rest = &r[end + 1..];
            if let Some(r) = rest.strip_prefix(',') {
                rest = r;
            } else {
                return Some((out.into(), rest.strip_prefix(']')?));
            }
        }
    }

    pub(super) type Bases = Box<[Box<[i64]>]>;

    /// `#ttg.linear<{register = ..., lane = ..., warp = ..., block = []}>`.
    pub(super) fn linear(text: &str) -> Option<(Bases, Bases, Bases)> {
        let s = squeeze(text);
        let body = s.strip_prefix("#ttg.linear<{")?.strip_suffix("}>")?;
        let (register, rest) = bases(body.strip_prefix("register=")?)?;
        let (lane, rest) = bases(rest.strip_prefix(",lane=")?)?;
        let (warp, rest) = bases(rest.strip_prefix(",warp=")?)?;
        let (block, rest) = bases(rest.strip_prefix(",block=")?)?;
        (block.is_empty() && rest.is_empty()).then_some((register, lane, warp))
    }

    /// `#ttg.swizzled_shared<{vec = V, perPhase = P, maxPhase = M, order = [...]}>`: the
    /// swizzle (positive parameters; the GPU-level verifier checks the rest) and the order.
    pub(super) fn swizzled_shared(text: &str) -> Option<(tilec_ir::Swizzle, Box<[u8]>)> {
        let s = squeeze(text);
        let body = s
            .strip_prefix("#ttg.swizzled_shared<{vec=")?
            .strip_suffix("]}>")?;
        let (vec, rest) = body.split_once(",perPhase=")?;
        let (per_phase, rest) = rest.split_once(",maxPhase=")?;
        let (max_phase, order) = rest.split_once(",order=[")?;
        let positive = |x: &str| x.parse::<u32>().ok().filter(|v| *v > 0);
        let swizzle = tilec_ir::Swizzle {
            vec: positive(vec)?,
            per_phase: positive(per_phase)?,
            max_phase: positive(max_phase)?,
        };
        if order.is_empty() {
            return Some((swizzle, Box::new([])));
        }
        let order = order
            .split(',')
            .map(|d| d.parse().ok())
            .collect::<Option<_>>()?;
        Some((swizzle, order))
    }
}
