//! The lexer: MLIR's token set, generated with logos.
//!
//! The lexer can be restarted at any byte offset ([`Lexer::reset`]); the parser uses this for
//! dimension lists such as `4x8xf32`, which MLIR lexes as `4` followed by the identifier
//! `x8xf32` and splits while parsing.

use logos::Logos;

/// Token kinds.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\x0C]+")]
#[logos(skip(r"//[^\n\r]*", allow_greedy = true))]
pub enum Tok {
    /// `foo`, `cuda_tile.addf`, `testing$func`, `f32`.
    #[regex(r"[a-zA-Z_][a-zA-Z0-9_$.]*")]
    BareId,
    /// `@name` or `@"quoted name"`.
    #[regex(r"@[a-zA-Z_][a-zA-Z0-9_$.]*")]
    #[regex(r#"@"([^"\\\n]|\\[^\n])*""#)]
    AtId,
    /// `%name`, `%0`.
    #[regex(r"%[0-9]+")]
    #[regex(r"%[a-zA-Z$._-][a-zA-Z0-9$._-]*")]
    PercentId,
    /// `^bb0`.
    #[regex(r"\^[0-9]+")]
    #[regex(r"\^[a-zA-Z$._-][a-zA-Z0-9$._-]*")]
    CaretId,
    /// `#loc3`, `#cuda_tile.div_by`.
    #[regex(r"#[0-9]+")]
    #[regex(r"#[a-zA-Z$._-][a-zA-Z0-9$._-]*")]
    HashId,
    /// `!cuda_tile.tile`, `!alias`.
    #[regex(r"![0-9]+")]
    #[regex(r"![a-zA-Z$._-][a-zA-Z0-9$._-]*")]
    BangId,
    /// `42`, `0x7F800000`.
    #[regex(r"[0-9]+")]
    #[regex(r"0x[0-9a-fA-F]+")]
    Integer,
    /// `1.5`, `2.`, `1.0e-3`.
    #[regex(r"[0-9]+\.[0-9]*([eE][-+]?[0-9]+)?")]
    Float,
    /// A string literal.
    #[regex(r#""([^"\\\n]|\\[^\n])*""#)]
    String,
    /// `(`
    #[token("(")]
    LParen,
    /// `)`
    #[token(")")]
    RParen,
    /// `{`
    #[token("{")]
    LBrace,
    /// `}`
    #[token("}")]
    RBrace,
    /// `[`
    #[token("[")]
    LSquare,
    /// `]`
    #[token("]")]
    RSquare,
    /// `<`
    #[token("<")]
    Less,
    /// `>`
    #[token(">")]
    Greater,
    /// `=`
    #[token("=")]
    Equal,
    /// `:`
    #[token(":")]
    Colon,
    /// `,`
    #[token(",")]
    Comma,
    /// `->`
    #[token("->")]
    Arrow,
    /// `-`
    #[token("-")]
    Minus,
    /// `+`
    #[token("+")]
    Plus,
    /// `?`
    #[token("?")]
    Question,
    /// `*`
    #[token("*")]
    Star,
    /// `|`
    #[token("|")]
    Pipe,
    /// `...`
    #[token("...")]
    Ellipsis,
    /// A string literal that is not closed on its line.
    #[regex(r#""([^"\\\n]|\\[^\n])*"#, priority = 0)]
    UnterminatedString,
    /// End of input.
    Eof,
    /// A character that starts no token.
    Error,
}

/// A token: kind and byte range in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// The kind.
    pub kind: Tok,
    /// Start offset (absolute in the file).
    pub start: u32,
    /// End offset.
    pub end: u32,
}

/// A restartable lexer over `src[start..end]`, producing absolute offsets.
pub struct Lexer<'s> {
    src: &'s str,
    end: usize,
    base: usize,
    inner: logos::Lexer<'s, Tok>,
}

impl<'s> Lexer<'s> {
    /// A lexer over `src[start..end]`.
    pub fn new(src: &'s str, start: usize, end: usize) -> Lexer<'s> {
        Lexer {
            src,
            end,
            base: start,
            inner: Tok::lexer(&src[start..end]),
        }
    }

    /// Restarts lexing at absolute offset `pos`.
    pub fn reset(&mut self, pos: usize) {
        let pos = pos.min(self.end);
        self.base = pos;
        self.inner = Tok::lexer(&self.src[pos..self.end]);
    }

    /// The next token.
    pub fn next_token(&mut self) -> Token {
        match self.inner.next() {
            None => Token {
                kind: Tok::Eof,
                start: self.end as u32,
                end: self.end as u32,
            },
            Some(r) => {
                let span = self.inner.span();
                let kind = r.unwrap_or(Tok::Error);
                Token {
                    kind,
                    start: (self.base + span.start) as u32,
                    end: (self.base + span.end) as u32,
                }
            }
        }
    }

    /// The source text.
    pub fn source(&self) -> &'s str {
        self.src
    }

    /// The end offset of the lexed range.
    pub fn end(&self) -> usize {
        self.end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Tok> {
        let mut l = Lexer::new(s, 0, s.len());
        let mut out = Vec::new();
        loop {
            let t = l.next_token();
            if t.kind == Tok::Eof {
                break;
            }
            out.push(t.kind);
        }
        out
    }

    #[test]
    fn mlir_tokens() {
        use Tok::*;
        assert_eq!(
            kinds("%0 = cuda_tile.addf %a, %b : !cuda_tile.tile<4x8xf32> // comment"),
            vec![
                PercentId, Equal, BareId, PercentId, Comma, PercentId, Colon, BangId, Less,
                Integer, BareId, Greater
            ]
        );
        assert_eq!(
            kinds("0x7F800000 -1.5e3 2. @x @\"a b\" ^bb0 #loc1 -> ..."),
            vec![
                Integer, Minus, Float, Float, AtId, AtId, CaretId, HashId, Arrow, Ellipsis
            ]
        );
        assert_eq!(kinds("testing$func %x#1"), vec![BareId, PercentId, HashId]);
        assert_eq!(kinds("\"abc"), vec![UnterminatedString]);
        assert_eq!(kinds("`"), vec![Error]);
    }

    #[test]
    fn reset_restarts_at_offset() {
        let s = "4x8xf32";
        let mut l = Lexer::new(s, 0, s.len());
        assert_eq!(
            l.next_token(),
            Token {
                kind: Tok::Integer,
                start: 0,
                end: 1
            }
        );
        l.reset(2);
        assert_eq!(
            l.next_token(),
            Token {
                kind: Tok::Integer,
                start: 2,
                end: 3
            }
        );
        assert_eq!(
            l.next_token(),
            Token {
                kind: Tok::BareId,
                start: 3,
                end: 7
            }
        );
    }
}
