//! The parser core: tokens, error reporting, SSA name scopes, aliases and the top level.

use crate::lexer::{Lexer, Tok, Token};
use tilec_diag::{Diagnostic, FileId, Location, Span, codes};
use tilec_ir::attrs::Attr;
use tilec_ir::types::Type;
use tilec_ir::util::FxHashMap;
use tilec_ir::{Module, Op, Value};

/// Parser options.
#[derive(Clone, Debug, Default)]
pub struct ParseOptions {
    /// Accept generic ops of other dialects (`"foo.bar"() : () -> ()`), as
    /// `-allow-unregistered-dialect` does for MLIR tools.
    pub allow_unregistered: bool,
    /// Keep the names values were written with and the `//` comments, in
    /// [`Module::trivia`] (for `tilec fmt`).
    pub keep_trivia: bool,
    /// Word type constraints as NVIDIA's release `13.N` does (its lists lack the element
    /// types added later); `None`: the newest release, 13.3.
    pub release_minor: Option<u8>,
}

impl ParseOptions {
    /// The release whose wording type constraints use.
    pub fn minor(&self) -> u8 {
        self.release_minor.unwrap_or(tilec_ir::ops::LATEST_MINOR)
    }
}

/// The result of a failed parse step; the diagnostic has already been recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failed;

/// Parse result.
pub type PResult<T> = Result<T, Failed>;

/// An SSA name that has not been resolved to a value yet.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Unresolved<'s> {
    /// The name without `%`.
    pub name: &'s str,
    /// The result number (`%x#1` is 1).
    pub number: u32,
    /// Where it was written.
    pub span: Span,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) value: Value,
    span: Span,
}

/// Who a deferred `loc(#alias)` belongs to.
#[derive(Clone, Copy, Debug)]
pub(crate) enum LocOwner {
    Op(Op),
    Value(Value),
}

/// The recursive-descent parser. One parser parses one chunk into one module.
pub struct Parser<'s> {
    pub(crate) src: &'s str,
    lex: Lexer<'s>,
    pub(crate) tok: Token,
    /// End of the last consumed token.
    pub(crate) prev_end: u32,
    pub(crate) file: FileId,
    pub(crate) m: Module,
    pub(crate) opts: ParseOptions,
    pub(crate) diags: Vec<Diagnostic>,
    lex_error: bool,
    /// Visible SSA names (`%name#number`), defined or forward-referenced; see
    /// [`Parser::entry`].
    values: FxHashMap<(&'s str, u32), Entry>,
    /// The same for plain decimal names (`%12`), indexed by their number: most values in
    /// printed IR are numbered, and an index is much cheaper than a hash.
    numbered: Vec<Option<Entry>>,
    /// The names each open region defined or forward-referenced, innermost last.
    scopes: Vec<Vec<(&'s str, u32)>>,
    forward: FxHashMap<Value, Span>,
    pub(crate) attr_aliases: FxHashMap<&'s str, Attr>,
    pub(crate) type_aliases: FxHashMap<&'s str, Type>,
    pub(crate) deferred_locs: Vec<(LocOwner, &'s str, Span)>,
    pub(crate) type_cache: FxHashMap<&'s str, Type>,
    /// The custom op being parsed: errors reported through the op parser get MLIR's
    /// `custom op 'cuda_tile.X' ` prefix.
    pub(crate) op_ctx: Option<&'static tilec_ir::OpDef>,
    /// How deeply regions, attributes, types and locations are nested at the current
    /// position (see [`Parser::nested`]).
    depth: u32,
    /// Where each region's `{` that is still open starts (innermost last): an input that
    /// ends inside a region gets a label at the brace that is not closed.
    pub(crate) open_braces: Vec<u32>,
    /// The parsed range of the source.
    range: (usize, usize),
    /// Where each region's `}` is (with `keep_trivia`).
    pub(crate) region_ends: Vec<(u32, tilec_ir::Region)>,
    /// Terminators the text left out (with `keep_trivia`): no comment is about them.
    pub(crate) implicit_ops: Vec<Op>,
    /// Recycled op states (one per nesting level is in use at a time). Boxed on purpose:
    /// taking a state out of the pool and putting it back then moves a pointer, not the
    /// whole state, which measurably speeds up parsing.
    #[allow(clippy::vec_box)]
    pub(crate) op_states: Vec<Box<crate::ops::OpState<'s>>>,
    /// Scratch buffers for creating ops.
    pub(crate) scratch_values: Vec<Value>,
    pub(crate) scratch_types: Vec<Type>,
    pub(crate) scratch_attrs: Vec<Option<Attr>>,
}

/// The deepest nesting of regions, attributes, types and locations the parser accepts. The
/// parser is recursive; the limit keeps its stack use bounded (well inside the 2 MiB of a
/// spawned thread), so that absurd input gets a diagnostic rather than a stack overflow.
pub const MAX_NESTING: u32 = 200;

impl<'s> Parser<'s> {
    /// A parser over `src[start..end]`.
    pub fn new(
        src: &'s str,
        start: usize,
        end: usize,
        file: FileId,
        opts: ParseOptions,
    ) -> Parser<'s> {
        let mut lex = Lexer::new(src, start, end);
        let tok = lex.next_token();
        let mut m = Module::new();
        m.set_file(Some(file));
        m.reserve((end - start) / 64);
        let mut p = Parser {
            src,
            lex,
            tok,
            prev_end: start as u32,
            file,
            m,
            opts,
            diags: Vec::new(),
            lex_error: false,
            values: FxHashMap::default(),
            numbered: Vec::new(),
            scopes: vec![Vec::new()],
            forward: FxHashMap::default(),
            attr_aliases: FxHashMap::default(),
            type_aliases: FxHashMap::default(),
            deferred_locs: Vec::new(),
            type_cache: FxHashMap::default(),
            op_ctx: None,
            depth: 0,
            open_braces: Vec::new(),
            range: (start, end),
            region_ends: Vec::new(),
            implicit_ops: Vec::new(),
            op_states: Vec::new(),
            scratch_values: Vec::new(),
            scratch_types: Vec::new(),
            scratch_attrs: Vec::new(),
        };
        p.check_lex_error();
        p
    }

    // ------------------------------------------------------------------ tokens

    fn check_lex_error(&mut self) {
        match self.tok.kind {
            Tok::Error => {
                let span = Span::new(self.tok.start, self.tok.end);
                self.push_diag(codes::LEX, span, "unexpected character".to_string());
                self.lex_error = true;
            }
            Tok::UnterminatedString => {
                let span = Span::at(self.tok.end);
                self.push_diag(
                    codes::LEX,
                    span,
                    "expected '\"' in string literal".to_string(),
                );
                self.lex_error = true;
            }
            _ => {}
        }
    }

    /// Advances to the next token.
    pub(crate) fn bump(&mut self) {
        self.prev_end = self.tok.end;
        self.tok = self.lex.next_token();
        self.check_lex_error();
    }

    /// Restarts lexing at an absolute offset.
    pub(crate) fn reset_to(&mut self, pos: usize) {
        self.lex.reset(pos);
        self.tok = self.lex.next_token();
        self.check_lex_error();
    }

    /// Text of the current token.
    pub(crate) fn text(&self) -> &'s str {
        &self.src[self.tok.start as usize..self.tok.end as usize]
    }

    /// Span of the current token.
    pub(crate) fn span(&self) -> Span {
        Span::new(self.tok.start, self.tok.end)
    }

    /// Is the current token of this kind?
    pub(crate) fn at(&self, k: Tok) -> bool {
        self.tok.kind == k
    }

    /// Consumes a token of this kind if present.
    pub(crate) fn eat(&mut self, k: Tok) -> bool {
        if self.tok.kind == k {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes a token of this kind or reports `msg` (MLIR's `parseToken`).
    pub(crate) fn expect(&mut self, k: Tok, msg: &str) -> PResult<Token> {
        if self.tok.kind == k {
            let t = self.tok;
            self.bump();
            Ok(t)
        } else {
            Err(self.err_wrong_token(msg))
        }
    }

    /// Is the current token the keyword `kw`?
    pub(crate) fn at_keyword(&self, kw: &str) -> bool {
        self.tok.kind == Tok::BareId && self.text() == kw
    }

    /// Consumes the keyword if present.
    pub(crate) fn eat_keyword(&mut self, kw: &str) -> bool {
        if self.at_keyword(kw) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes the keyword or reports `expected 'kw'`.
    pub(crate) fn expect_keyword(&mut self, kw: &str) -> PResult<()> {
        if self.eat_keyword(kw) {
            Ok(())
        } else {
            let s = Span::at(self.tok.start);
            Err(self.err_op(codes::SYNTAX, s, format!("expected '{kw}'")))
        }
    }

    /// Parses any keyword (MLIR's `parseKeyword`), reporting `expected valid keyword`.
    pub(crate) fn keyword(&mut self) -> PResult<(&'s str, Span)> {
        if self.tok.kind == Tok::BareId {
            let r = (self.text(), self.span());
            self.bump();
            Ok(r)
        } else {
            let s = Span::at(self.tok.start);
            Err(self.err_op(codes::SYNTAX, s, "expected valid keyword"))
        }
    }

    // ------------------------------------------------------------------ diagnostics

    pub(crate) fn loc(&self, span: Span) -> Location {
        Location::new(self.file, span)
    }

    fn push_diag(&mut self, code: &'static str, span: Span, msg: String) {
        self.diags
            .push(Diagnostic::error(code, msg).at(Location::new(self.file, span)));
    }

    /// [`Self::err`] with a suggestion (`did you mean 'X'?`) when `closest` found one.
    pub(crate) fn err_suggest(
        &mut self,
        code: &'static str,
        span: Span,
        msg: impl Into<String>,
        suggestion: Option<&str>,
    ) -> Failed {
        let failed = self.err(code, span, msg);
        if let Some(s) = suggestion
            && let Some(last) = self.diags.last_mut()
            && last.location.map(|l| l.span) == Some(span)
        {
            last.help = Some(format!("did you mean '{s}'?").into());
        }
        failed
    }

    /// Adds `did you mean` to the last error when `word` is close to one of `candidates`
    /// (for messages that already list every valid keyword).
    pub(crate) fn suggest_last(&mut self, word: &str, candidates: &[&str]) {
        if let Some(near) = tilec_diag::closest(word, candidates.iter().copied())
            && let Some(last) = self.diags.last_mut()
        {
            last.help = Some(format!("did you mean '{near}'?").into());
        }
    }

    /// Records an error at `span`, unless the lexer already reported one for this token.
    pub(crate) fn err(&mut self, code: &'static str, span: Span, msg: impl Into<String>) -> Failed {
        if !(self.lex_error && matches!(self.tok.kind, Tok::Error | Tok::UnterminatedString)) {
            self.push_diag(code, span, msg.into());
        }
        Failed
    }

    /// Records an error reported through a custom op parser: inside a custom op, MLIR
    /// prefixes such messages with `custom op 'cuda_tile.X' `.
    pub(crate) fn err_op(
        &mut self,
        code: &'static str,
        span: Span,
        msg: impl Into<String>,
    ) -> Failed {
        let msg = msg.into();
        match self.op_ctx {
            Some(d) => self.err(
                code,
                span,
                format!("custom op 'cuda_tile.{}' {msg}", d.name),
            ),
            None => self.err(code, span, msg),
        }
    }

    /// [`Parser::err_op`] at the current token.
    pub(crate) fn err_op_here(&mut self, code: &'static str, msg: impl Into<String>) -> Failed {
        let s = Span::at(self.tok.start);
        self.err_op(code, s, msg)
    }

    /// Records an error at the current token.
    pub(crate) fn err_here(&mut self, code: &'static str, msg: impl Into<String>) -> Failed {
        let s = Span::at(self.tok.start);
        self.err(code, s, msg)
    }

    /// Records an error with a note.
    pub(crate) fn err_note(
        &mut self,
        code: &'static str,
        span: Span,
        msg: impl Into<String>,
        note: impl Into<String>,
        note_span: Span,
    ) -> Failed {
        let d = Diagnostic::error(code, msg)
            .at(self.loc(span))
            .with_note(note, Some(self.loc(note_span)));
        self.diags.push(d);
        Failed
    }

    /// MLIR's `emitWrongTokenError`: the error goes at the end of the previous meaningful
    /// text when the current token starts a line, so that "expected ':'" points at the line
    /// that lacks the colon.
    pub(crate) fn err_wrong_token(&mut self, msg: &str) -> Failed {
        let at_eof = self.tok.kind == Tok::Eof;
        let before = self.diags.len();
        let failed = self.err_wrong_token_at(msg);
        if at_eof
            && self.diags.len() > before
            && let Some(&open) = self.open_braces.last()
            && let Some(last) = self.diags.last_mut()
        {
            // The input ended inside a region: point at the brace that is not closed.
            last.labels.push(tilec_diag::Label {
                location: Location::new(self.file, Span::new(open, open + 1)),
                message: "this '{' is never closed".into(),
            });
            last.help = Some("the file ends inside a region: add the missing '}'".into());
        }
        failed
    }

    fn err_wrong_token_at(&mut self, msg: &str) -> Failed {
        let bytes = self.src.as_bytes();
        let mut pos = self.tok.start as usize;
        if self.tok.kind == Tok::Eof && pos > 0 {
            pos -= 1;
        }
        let original = pos;
        let mut end = pos;
        loop {
            while end > 0 && matches!(bytes[end - 1], b' ' | b'\t') {
                end -= 1;
            }
            if end == 0 {
                return self.err(codes::SYNTAX, Span::at(original as u32), msg);
            }
            if !matches!(bytes[end - 1], b'\n' | b'\r') {
                return self.err(codes::SYNTAX, Span::at(end as u32), msg);
            }
            end -= 1;
            // If the previous line has a `//` comment, back up before it.
            let line_start = self.src[..end].rfind(['\n', '\r']).map_or(0, |i| i + 1);
            if let Some(c) = self.src[line_start..end].find("//") {
                end = line_start + c;
            }
        }
    }

    /// Runs `f` one nesting level deeper, or fails if that is deeper than [`MAX_NESTING`].
    pub(crate) fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_NESTING {
            return Err(self.err_here(
                codes::SYNTAX,
                format!("nesting is too deep (the limit is {MAX_NESTING} levels)"),
            ));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    // ------------------------------------------------------------------ SSA names

    /// Pushes a name scope (entering a region).
    pub(crate) fn push_scope(&mut self) {
        self.scopes.push(Vec::new());
    }

    /// Pops a name scope: names defined in it are forgotten.
    pub(crate) fn pop_scope(&mut self) {
        if let Some(names) = self.scopes.pop() {
            for n in names {
                self.set_entry(n.0, n.1, None);
            }
        }
    }

    /// Splits `%x#1` style uses: the current token is a `PercentId`; a following `#N` token
    /// (no space) is the result number.
    pub(crate) fn parse_ssa_use(&mut self) -> PResult<Unresolved<'s>> {
        if self.tok.kind != Tok::PercentId {
            return Err(self.err_wrong_token("expected SSA operand"));
        }
        let name = &self.text()[1..];
        let start = self.tok.start;
        let mut span = self.span();
        self.bump();
        let mut number = 0;
        if self.tok.kind == Tok::HashId && self.tok.start == span.end {
            let t = &self.text()[1..];
            match t.parse::<u32>() {
                Ok(n) => number = n,
                Err(_) => {
                    return Err(self.err_here(codes::SYNTAX, "invalid SSA value result number"));
                }
            }
            span = Span::new(start, self.tok.end);
            self.bump();
        }
        Ok(Unresolved { name, number, span })
    }

    /// The plain decimal number a name is, if it is one (`12`, not `012` or `1x`).
    fn numeric_name(name: &str) -> Option<usize> {
        let b = name.as_bytes();
        if b.is_empty() || b.len() > 6 || (b[0] == b'0' && b.len() > 1) {
            return None;
        }
        let mut n = 0usize;
        for &c in b {
            if !c.is_ascii_digit() {
                return None;
            }
            n = n * 10 + (c - b'0') as usize;
        }
        Some(n)
    }

    /// The visible entry of `%name#number`.
    pub(crate) fn entry(&self, name: &str, number: u32) -> Option<Entry> {
        match (number, Self::numeric_name(name)) {
            (0, Some(n)) => self.numbered.get(n).copied().flatten(),
            _ => self.values.get(&(name, number)).copied(),
        }
    }

    /// Sets (or, with `None`, forgets) the visible entry of `%name#number`.
    fn set_entry(&mut self, name: &'s str, number: u32, e: Option<Entry>) {
        match (number, Self::numeric_name(name)) {
            (0, Some(n)) => {
                if n >= self.numbered.len() {
                    if e.is_none() {
                        return;
                    }
                    self.numbered.resize(n + 1, None);
                }
                self.numbered[n] = e;
            }
            _ => match e {
                Some(e) => {
                    self.values.insert((name, number), e);
                }
                None => {
                    self.values.remove(&(name, number));
                }
            },
        }
    }

    /// Resolves a use to a value of type `ty`, creating a forward reference if the name is
    /// not defined yet.
    pub(crate) fn resolve(&mut self, u: Unresolved<'s>, ty: Type) -> PResult<Value> {
        if let Some(e) = self.entry(u.name, u.number) {
            let vt = self.m.value_type(e.value);
            if vt == ty {
                return Ok(e.value);
            }
            // The GPU-level IR writes layouts only where a type is written: a type that a
            // custom syntax infers has none, and stands for the value's laid-out type.
            if self.m.ctx.types.encoding(vt).is_some()
                && self.m.ctx.types.with_encoding(vt, None) == ty
            {
                return Ok(e.value);
            }
            let msg = format!(
                "use of value '%{}' expects different type than prior uses: '{}' vs '{}'",
                u.name,
                self.m.ctx.types.to_string(ty, true),
                self.m.ctx.types.to_string(vt, true)
            );
            return Err(self.err_note(
                codes::VALUE_TYPE_MISMATCH,
                u.span,
                msg,
                "prior use here",
                e.span,
            ));
        }
        if u.number > 0
            && let Some(first) = self.entry(u.name, 0)
            && !self.forward.contains_key(&first.value)
        {
            return Err(self.err(
                codes::UNDECLARED_VALUE,
                u.span,
                "reference to invalid result number",
            ));
        }
        let ph = self.m.create_placeholder(ty);
        self.set_entry(
            u.name,
            u.number,
            Some(Entry {
                value: ph,
                span: u.span,
            }),
        );
        self.forward.insert(ph, u.span);
        // As in MLIR, a forward reference belongs to the region it appears in: if that
        // region ends before the name is defined, the name is forgotten and the use is
        // reported as undeclared (a definition in a sibling or enclosing region later on
        // cannot dominate it).
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((u.name, u.number));
        }
        Ok(ph)
    }

    /// True if the name (any result number) is defined or forward-referenced.
    pub(crate) fn name_in_use(&self, name: &str, number: u32) -> Option<Span> {
        self.entry(name, number).map(|e| e.span)
    }

    /// Defines `%name#number` as `value`.
    pub(crate) fn define(
        &mut self,
        name: &'s str,
        number: u32,
        span: Span,
        value: Value,
    ) -> PResult<()> {
        if self.opts.keep_trivia && number == 0 {
            self.m.trivia.names.insert(value, name.into());
        }
        if let Some(existing) = self.entry(name, number) {
            if !self.forward.contains_key(&existing.value) {
                return Err(self.err_note(
                    codes::REDEFINED_VALUE,
                    span,
                    format!("redefinition of SSA value '%{name}'"),
                    "previously defined here",
                    existing.span,
                ));
            }
            let (et, vt) = (self.m.value_type(existing.value), self.m.value_type(value));
            if et != vt {
                let msg = format!(
                    "definition of SSA value '%{name}#{number}' has type '{}'",
                    self.m.ctx.types.to_string(vt, true)
                );
                let note = format!(
                    "previously used here with type '{}'",
                    self.m.ctx.types.to_string(et, true)
                );
                return Err(self.err_note(
                    codes::VALUE_TYPE_MISMATCH,
                    span,
                    msg,
                    note,
                    existing.span,
                ));
            }
            self.m.replace_all_uses(existing.value, value);
            self.forward.remove(&existing.value);
        }
        self.set_entry(name, number, Some(Entry { value, span }));
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name, number));
        }
        self.m.set_value_span(value, Some(span));
        Ok(())
    }

    // ------------------------------------------------------------------ top level

    /// Parses the whole range into a module.
    pub fn parse_module(mut self) -> Result<Module, Vec<Diagnostic>> {
        let ok = self.parse_top_level().is_ok() && self.finish().is_ok();
        if ok && self.diags.is_empty() {
            if self.opts.keep_trivia {
                self.attach_comments();
            }
            Ok(self.m)
        } else {
            if self.diags.is_empty() {
                // A failure always records a diagnostic; keep a fallback so that callers
                // never see an error without one.
                let s = self.span();
                self.push_diag(codes::SYNTAX, s, "failed to parse".to_string());
            }
            Err(self.diags)
        }
    }

    /// Attaches each `//` comment of the parsed range to what it is about (see
    /// [`tilec_ir::trivia::Trivia`]): a comment after code on its line to the op written
    /// last before it; a comment on a line of its own to the next op, or to the `}` that
    /// ends the region it is in, or to the end of the text.
    fn attach_comments(&mut self) {
        enum Anchor {
            Op(Op),
            End(tilec_ir::Region),
        }
        let m = &self.m;
        let mut anchors: Vec<(u32, Anchor)> = Vec::new();
        let implicit: tilec_ir::util::FxHashSet<Op> = self.implicit_ops.iter().copied().collect();
        m.walk(|op| {
            if let Some(s) = m.op_span(op)
                && !implicit.contains(&op)
            {
                anchors.push((s.start, Anchor::Op(op)));
            }
        });
        for (at, r) in &self.region_ends {
            anchors.push((*at, Anchor::End(*r)));
        }
        anchors.sort_by_key(|a| a.0);
        let src = self.src.as_bytes();
        let comments = tilec_ir::trivia::comment_ranges(self.src, self.range.0, self.range.1);
        let mut trivia = std::mem::take(&mut self.m.trivia);
        for (s, e) in comments {
            let text: Box<str> = self.src[s..e].trim_end().into();
            let line_start = self.src[..s].rfind(['\n', '\r']).map_or(0, |i| i + 1);
            let after_code = src[line_start..s].iter().any(|c| !c.is_ascii_whitespace());
            // The first anchor after the comment.
            let next = anchors.partition_point(|a| (a.0 as usize) < e);
            if after_code {
                // The op written last before the comment.
                let before = anchors[..next].iter().rev().find_map(|a| match a.1 {
                    Anchor::Op(op) => Some(op),
                    Anchor::End(_) => None,
                });
                if let Some(op) = before {
                    match trivia.trailing.get_mut(&op) {
                        Some(t) => *t = format!("{t} {text}").into(),
                        None => {
                            trivia.trailing.insert(op, text);
                        }
                    }
                    continue;
                }
            }
            match anchors.get(next).map(|a| &a.1) {
                Some(Anchor::Op(op)) => trivia.leading.entry(*op).or_default().push(text),
                Some(Anchor::End(r)) => trivia.region_end.entry(*r).or_default().push(text),
                None => trivia.file_end.push(text),
            }
        }
        self.m.trivia = trivia;
    }

    fn parse_top_level(&mut self) -> PResult<()> {
        let body = self.m.body();
        loop {
            match self.tok.kind {
                Tok::Eof => return Ok(()),
                Tok::HashId => self.parse_attr_alias_def()?,
                Tok::BangId => self.parse_type_alias_def()?,
                Tok::Error | Tok::UnterminatedString => return Err(Failed),
                Tok::BareId if self.at_builtin_module() => self.parse_builtin_module(body)?,
                _ => self.parse_operation(body)?,
            }
        }
    }

    /// At MLIR's builtin `module { ... }` (or `module attributes {...} { ... }`): a
    /// `module` without a symbol name, which NVIDIA's tests wrap around
    /// `cuda_tile.module`s. (`module @name` is `cuda_tile.module` with its prefix left
    /// out.)
    fn at_builtin_module(&self) -> bool {
        if self.text() != "module" {
            return false;
        }
        let rest = self.src[self.tok.end as usize..].trim_start();
        rest.starts_with('{') || rest.starts_with("attributes")
    }

    /// Parses a builtin `module`: its ops join the top level (tilec has no builtin
    /// dialect; the wrapper is printed back only when it has attributes, see
    /// [`tilec_ir::Module::wrapper_attrs`]).
    fn parse_builtin_module(&mut self, body: tilec_ir::Block) -> PResult<()> {
        self.bump();
        if self.eat_keyword("attributes") {
            let attrs = self.parse_attr_dict_entries()?;
            // Kept to be printed back (the first wrapper with attributes).
            if self.m.wrapper_attrs.is_empty() {
                self.m.wrapper_attrs = attrs;
            }
        }
        self.expect(Tok::LBrace, "expected '{'")?;
        loop {
            match self.tok.kind {
                Tok::RBrace => {
                    self.bump();
                    return Ok(());
                }
                Tok::Eof => return Err(self.err_wrong_token("expected '}'")),
                Tok::Error | Tok::UnterminatedString => return Err(Failed),
                Tok::BareId if self.at_builtin_module() => self.parse_builtin_module(body)?,
                _ => self.parse_operation(body)?,
            }
        }
    }

    fn parse_attr_alias_def(&mut self) -> PResult<()> {
        let name = &self.text()[1..];
        let span = self.span();
        if name.contains('.') {
            return Err(self.err(codes::SYNTAX, span, "expected operation name in quotes"));
        }
        self.bump();
        if self.attr_aliases.contains_key(name) {
            return Err(self.err(
                codes::SYNTAX,
                span,
                format!("redefinition of attribute alias id '{name}'"),
            ));
        }
        self.expect(Tok::Equal, "expected '=' in attribute alias definition")?;
        let a = self.parse_attribute(None)?;
        self.attr_aliases.insert(name, a.0);
        Ok(())
    }

    fn parse_type_alias_def(&mut self) -> PResult<()> {
        let name = &self.text()[1..];
        let span = self.span();
        if name.contains('.') {
            return Err(self.err(codes::SYNTAX, span, "expected operation name in quotes"));
        }
        self.bump();
        if self.type_aliases.contains_key(name) {
            return Err(self.err(
                codes::SYNTAX,
                span,
                format!("redefinition of type alias id '{name}'"),
            ));
        }
        self.expect(Tok::Equal, "expected '=' in type alias definition")?;
        let t = self.parse_type()?;
        self.type_aliases.insert(name, t);
        Ok(())
    }

    fn finish(&mut self) -> PResult<()> {
        if !self.forward.is_empty() {
            let mut spans: Vec<Span> = self.forward.values().copied().collect();
            spans.sort_by_key(|s| s.start);
            for s in spans {
                self.push_diag(
                    codes::UNDECLARED_VALUE,
                    s,
                    "use of undeclared SSA value name".to_string(),
                );
            }
            return Err(Failed);
        }
        for (owner, name, span) in std::mem::take(&mut self.deferred_locs) {
            let Some(&a) = self.attr_aliases.get(name) else {
                return Err(self.err(
                    codes::UNDEFINED_ALIAS,
                    span,
                    "operation location alias was never defined",
                ));
            };
            if !crate::attr::is_location(&self.m, a) {
                let text = crate::attr::attr_text(&self.m, a);
                return Err(self.err(
                    codes::INVALID_ATTRIBUTE,
                    span,
                    format!("expected location, but found '{text}'"),
                ));
            }
            match owner {
                LocOwner::Op(op) => self.m.set_op_loc(op, Some(a)),
                LocOwner::Value(v) => self.m.set_value_loc(v, Some(a)),
            }
        }
        Ok(())
    }
}
