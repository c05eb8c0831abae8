//! The assembly-format language of the op table.
//!
//! Each op written with [`Syntax::Format`](super::Syntax::Format) describes its custom textual
//! form with a format string in the notation of MLIR's declarative assembly formats, which
//! is what NVIDIA's op definitions use, so the two can be compared line by line:
//!
//! | element | meaning |
//! |---|---|
//! | `` `,` `` `` `dim` `` | a literal keyword or punctuation |
//! | `` ` ` `` / ` `` ` | force a space / suppress the next space |
//! | `$name` | an operand slot (one, optional or a comma list), an attribute or a region |
//! | `type($x)` | the type(s) of an operand or result slot, written short (`tile<f32>`) |
//! | `splat-type($x)` | one type written for all values of a variadic operand slot |
//! | `qualified(type($x))` | the type(s) written in full (`!cuda_tile.tile<f32>`) |
//! | `attr-dict`, `attr-dict-with-keyword` | extra attributes in `{...}` |
//! | `custom<Name>($a, ...)` | a hand-written piece (rounding modes, enums, dense constants ...) |
//! | `( ... )?` | an optional group, present when its anchor (the element marked `^`) is |
//! | ``oilist(`kw` $flag \| ...)`` | unit-attribute keywords in any order |
//!
//! The parser and the printer interpret the compiled [`Format`]; the printer reproduces the
//! spacing rules of MLIR's generated printers exactly (including their double spaces when a
//! custom directive prints nothing).

use super::{OpDef, SlotRef};

/// A compiled format.
#[derive(Debug, Clone)]
pub struct Format {
    /// The elements, in order.
    pub elems: Vec<Elem>,
}

/// One element of a compiled format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Elem {
    /// A literal keyword or punctuation.
    Lit(&'static str),
    /// A forced space.
    Space,
    /// Suppresses the next automatic space.
    NoSpace,
    /// Operand slot (index into `OpDef::operands`).
    Operand(usize),
    /// Attribute slot.
    Attr(usize),
    /// Region slot, printed as a plain region.
    Region(usize),
    /// Extra attributes.
    AttrDict {
        /// Written with a leading `attributes` keyword.
        with_keyword: bool,
    },
    /// The type(s) of a slot.
    Type(TypeRef),
    /// The type(s) of a slot, written in full (`!cuda_tile.tile<f32>`): a plain
    /// `type($x)` of NVIDIA's formats, where most of theirs are `custom<CudaTileType>`.
    QualifiedType(TypeRef),
    /// One type shared by all values of an operand slot.
    SplatType(usize),
    /// A hand-written piece.
    Custom(Custom),
    /// An optional group.
    Optional {
        /// The elements of the group.
        elems: Vec<Elem>,
        /// What decides whether the group is present.
        anchor: Anchor,
    },
    /// Unit attributes introduced by keywords, in any order: `(keyword, attr slot)`.
    OIList(Vec<(&'static str, usize)>),
}

/// A slot whose types a `type(...)` directive writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeRef {
    /// Operand slot.
    Operand(usize),
    /// Result slot.
    Result(usize),
}

/// What decides whether an optional group is present.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// The attribute is present (and, for defaulted attributes, not the default).
    Attr(usize),
    /// The operand slot has at least one value.
    Operand(usize),
    /// The result slot has at least one value.
    Result(usize),
    /// The region is non-empty.
    Region(usize),
}

/// Hand-written format pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Custom {
    /// `rounding<m>` limited to the IEEE modes; absent means `nearest_even`.
    Rounding(usize),
    /// `rounding<m>` for `divf` (also `approx`, `full`).
    DivFRounding(usize),
    /// `rounding<m>` for `sqrt` (also `approx`).
    SqrtRounding(usize),
    /// `rounding<approx>` for `exp` and `tanh`; absent means `full`.
    ApproxRounding(usize),
    /// `rounding<m>` for float-to-int conversions; absent means `nearest_int_to_zero`.
    IntRounding(usize),
    /// `signed` / `unsigned`.
    Signedness(usize),
    /// A comparison predicate keyword.
    Predicate(usize),
    /// `ordered` / `unordered`.
    Ordering(usize),
    /// A global's `public` / `private`: nothing for the default (`public`), and
    /// `private ` with the trailing space NVIDIA's printer writes.
    Visibility(usize),
    /// A dense constant `<elem: values> : type`, or `dense<values> : type`; with `result`,
    /// the type is the result's type.
    Dense {
        /// The attribute slot.
        value: usize,
        /// The result slot whose type the constant has.
        result: Option<usize>,
    },
    /// Memory ordering keyword followed by an optional scope keyword.
    Memory {
        /// Ordering attribute slot.
        ordering: usize,
        /// Scope attribute slot.
        scope: usize,
    },
    /// A region preceded by its argument list on a new line: `(%a: t, ...) { ... }`.
    ArgRegion(usize),
    /// A region whose implicit terminator is elided when it has no operands.
    IfRegion(usize),
}

impl Format {
    /// True if some element of the format writes attribute slot `i` itself; the others
    /// that are set are written in the `attr-dict`, as MLIR's generated printers do.
    pub fn references_attr(&self, i: usize) -> bool {
        fn custom_uses(c: &Custom, i: usize) -> bool {
            match *c {
                Custom::Rounding(a)
                | Custom::DivFRounding(a)
                | Custom::SqrtRounding(a)
                | Custom::ApproxRounding(a)
                | Custom::IntRounding(a)
                | Custom::Signedness(a)
                | Custom::Predicate(a)
                | Custom::Ordering(a)
                | Custom::Visibility(a) => a == i,
                Custom::Dense { value, .. } => value == i,
                Custom::Memory { ordering, scope } => ordering == i || scope == i,
                Custom::ArgRegion(_) | Custom::IfRegion(_) => false,
            }
        }
        fn uses(elems: &[Elem], i: usize) -> bool {
            elems.iter().any(|e| match e {
                Elem::Attr(a) => *a == i,
                Elem::Custom(c) => custom_uses(c, i),
                Elem::Optional { elems, anchor } => *anchor == Anchor::Attr(i) || uses(elems, i),
                Elem::OIList(clauses) => clauses.iter().any(|(_, a)| *a == i),
                Elem::Lit(_)
                | Elem::Space
                | Elem::NoSpace
                | Elem::Operand(_)
                | Elem::Region(_)
                | Elem::AttrDict { .. }
                | Elem::Type(_)
                | Elem::QualifiedType(_)
                | Elem::SplatType(_) => false,
            })
        }
        uses(&self.elems, i)
    }
}

/// A format string that does not compile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct FormatError(pub String);

/// Compiles a format string for an op.
pub fn compile(def: &OpDef, src: &'static str) -> Result<Format, FormatError> {
    let mut c = Compiler { def, src, pos: 0 };
    let elems = c.elements(None)?;
    c.skip_ws();
    if c.pos != src.len() {
        return Err(c.err("trailing input"));
    }
    Ok(Format { elems })
}

struct Compiler<'d> {
    def: &'d OpDef,
    src: &'static str,
    pos: usize,
}

impl Compiler<'_> {
    fn err(&self, msg: &str) -> FormatError {
        FormatError(format!("{} at byte {} of `{}`", msg, self.pos, self.src))
    }

    fn skip_ws(&mut self) {
        while self.src[self.pos..].starts_with(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.src[self.pos..].starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Parses elements until `)` (when inside a group) or the end.
    fn elements(
        &mut self,
        mut anchor: Option<&mut Option<Anchor>>,
    ) -> Result<Vec<Elem>, FormatError> {
        let mut out = Vec::new();
        loop {
            self.skip_ws();
            let rest = &self.src[self.pos..];
            if rest.is_empty() || rest.starts_with(')') || rest.starts_with('|') {
                return Ok(out);
            }
            let (elem, is_anchor) = self.element()?;
            if is_anchor {
                let a = match (&elem, &anchor) {
                    (_, None) => return Err(self.err("anchor outside an optional group")),
                    (Elem::Attr(i), _) => Anchor::Attr(*i),
                    (Elem::Operand(i), _) => Anchor::Operand(*i),
                    (Elem::Type(TypeRef::Operand(i)), _)
                    | (Elem::QualifiedType(TypeRef::Operand(i)), _)
                    | (Elem::SplatType(i), _) => Anchor::Operand(*i),
                    (Elem::Type(TypeRef::Result(i)), _)
                    | (Elem::QualifiedType(TypeRef::Result(i)), _) => Anchor::Result(*i),
                    (Elem::Custom(Custom::IfRegion(i) | Custom::ArgRegion(i)), _)
                    | (Elem::Region(i), _) => Anchor::Region(*i),
                    _ => return Err(self.err("unsupported anchor")),
                };
                if let Some(slot) = anchor.as_deref_mut() {
                    *slot = Some(a);
                }
            }
            out.push(elem);
        }
    }

    fn name_ref(&mut self) -> Result<SlotRef, FormatError> {
        self.skip_ws();
        if !self.eat("$") {
            return Err(self.err("expected `$name`"));
        }
        let start = self.pos;
        while self.src[self.pos..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            self.pos += 1;
        }
        let name = &self.src[start..self.pos];
        self.def
            .slot(name)
            .ok_or_else(|| self.err(&format!("unknown slot `{name}`")))
    }

    fn element(&mut self) -> Result<(Elem, bool), FormatError> {
        self.skip_ws();
        let rest = &self.src[self.pos..];
        let elem = if let Some(r) = rest.strip_prefix('`') {
            let end = r
                .find('`')
                .ok_or_else(|| self.err("unterminated literal"))?;
            let lit: &'static str = &self.src[self.pos + 1..self.pos + 1 + end];
            self.pos += end + 2;
            match lit {
                "" => Elem::NoSpace,
                " " => Elem::Space,
                l => Elem::Lit(l),
            }
        } else if rest.starts_with('$') {
            match self.name_ref()? {
                SlotRef::Operand(i) => Elem::Operand(i),
                SlotRef::Attr(i) => Elem::Attr(i),
                SlotRef::Region(i) => Elem::Region(i),
                SlotRef::Result(_) => return Err(self.err("results can only appear in type()")),
            }
        } else if rest.starts_with("attr-dict-with-keyword") {
            self.pos += "attr-dict-with-keyword".len();
            Elem::AttrDict { with_keyword: true }
        } else if rest.starts_with("attr-dict") {
            self.pos += "attr-dict".len();
            Elem::AttrDict {
                with_keyword: false,
            }
        } else if rest.starts_with("type(") {
            self.pos += "type(".len();
            let r = self.name_ref()?;
            if !self.eat(")") {
                return Err(self.err("expected `)`"));
            }
            match r {
                SlotRef::Operand(i) => Elem::Type(TypeRef::Operand(i)),
                SlotRef::Result(i) => Elem::Type(TypeRef::Result(i)),
                _ => return Err(self.err("type() of a non-value")),
            }
        } else if rest.starts_with("qualified(type(") {
            self.pos += "qualified(type(".len();
            let r = self.name_ref()?;
            if !self.eat("))") {
                return Err(self.err("expected `))`"));
            }
            match r {
                SlotRef::Operand(i) => Elem::QualifiedType(TypeRef::Operand(i)),
                SlotRef::Result(i) => Elem::QualifiedType(TypeRef::Result(i)),
                _ => return Err(self.err("qualified(type()) of a non-value")),
            }
        } else if rest.starts_with("splat-type(") {
            self.pos += "splat-type(".len();
            let r = self.name_ref()?;
            if !self.eat(")") {
                return Err(self.err("expected `)`"));
            }
            match r {
                SlotRef::Operand(i) => Elem::SplatType(i),
                _ => return Err(self.err("splat-type() of a non-operand")),
            }
        } else if rest.starts_with("custom<") {
            self.pos += "custom<".len();
            let end = self.src[self.pos..]
                .find('>')
                .ok_or_else(|| self.err("expected `>`"))?;
            let name = &self.src[self.pos..self.pos + end];
            self.pos += end + 1;
            if !self.eat("(") {
                return Err(self.err("expected `(`"));
            }
            let mut args = Vec::new();
            loop {
                args.push(self.name_ref()?);
                if self.eat(")") {
                    break;
                }
                if !self.eat(",") {
                    return Err(self.err("expected `,` or `)`"));
                }
            }
            Elem::Custom(self.custom(name, &args)?)
        } else if rest.starts_with("oilist(") {
            self.pos += "oilist(".len();
            let mut clauses = Vec::new();
            loop {
                let (kw, _) = self.element()?;
                let Elem::Lit(kw) = kw else {
                    return Err(self.err("oilist clause needs a keyword"));
                };
                let SlotRef::Attr(a) = self.name_ref()? else {
                    return Err(self.err("oilist clause needs a unit attribute"));
                };
                clauses.push((kw, a));
                if self.eat(")") {
                    break;
                }
                if !self.eat("|") {
                    return Err(self.err("expected `|` or `)`"));
                }
            }
            Elem::OIList(clauses)
        } else if rest.starts_with('(') {
            self.pos += 1;
            let mut anchor = None;
            let elems = self.elements(Some(&mut anchor))?;
            if !self.eat(")") || !self.eat("?") {
                return Err(self.err("expected `)?`"));
            }
            let anchor = anchor.ok_or_else(|| self.err("optional group without anchor"))?;
            if elems.is_empty() {
                return Err(self.err("empty optional group"));
            }
            Elem::Optional { elems, anchor }
        } else {
            return Err(self.err("unexpected format element"));
        };
        let is_anchor = self.src[self.pos..].starts_with('^');
        if is_anchor {
            self.pos += 1;
        }
        Ok((elem, is_anchor))
    }

    fn custom(&self, name: &str, args: &[SlotRef]) -> Result<Custom, FormatError> {
        let attr = |i: usize| match args.get(i) {
            Some(SlotRef::Attr(a)) => Ok(*a),
            _ => Err(self.err(&format!("custom<{name}> expects an attribute argument"))),
        };
        let region = |i: usize| match args.get(i) {
            Some(SlotRef::Region(r)) => Ok(*r),
            _ => Err(self.err(&format!("custom<{name}> expects a region argument"))),
        };
        Ok(match name {
            "Rounding" => Custom::Rounding(attr(0)?),
            "DivFRounding" => Custom::DivFRounding(attr(0)?),
            "SqrtRounding" => Custom::SqrtRounding(attr(0)?),
            "ApproxRounding" => Custom::ApproxRounding(attr(0)?),
            "IntRounding" => Custom::IntRounding(attr(0)?),
            "Signedness" => Custom::Signedness(attr(0)?),
            "SymbolVisibility" => Custom::Visibility(attr(0)?),
            "Predicate" => Custom::Predicate(attr(0)?),
            "Ordering" => Custom::Ordering(attr(0)?),
            "Dense" => Custom::Dense {
                value: attr(0)?,
                result: match args.get(1) {
                    Some(SlotRef::Result(r)) => Some(*r),
                    None => None,
                    _ => return Err(self.err("custom<Dense> expects a result")),
                },
            },
            "Memory" => Custom::Memory {
                ordering: attr(0)?,
                scope: attr(1)?,
            },
            "ArgRegion" => Custom::ArgRegion(region(0)?),
            "IfRegion" => Custom::IfRegion(region(0)?),
            _ => return Err(self.err(&format!("unknown custom directive `{name}`"))),
        })
    }
}
