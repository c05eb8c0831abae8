//! What a source text says beyond the IR: the names its author gave values and its `//`
//! comments. The text parser records them when asked (`ParseOptions::keep_trivia`), and
//! the printer writes them back when asked (`PrintOptions::as_written`): that is `tilec
//! fmt`, a formatter for hand-written kernels. Passes ignore trivia; a value they create has
//! no name and gets a generated one, and a comment of an op they delete is dropped.

use crate::module::{Op, Region, Value};
use crate::util::FxHashMap;

/// Names and comments of a parsed text (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct Trivia {
    /// The name a value was written with, without `%` (`x_ptr`); only the first result of
    /// a group (`%q:2`) has one.
    pub names: FxHashMap<Value, Box<str>>,
    /// Comments on the lines before an op, each with its `//`, in order.
    pub leading: FxHashMap<Op, Vec<Box<str>>>,
    /// A comment after an op on the op's line.
    pub trailing: FxHashMap<Op, Box<str>>,
    /// Comments before the `}` that closes a region (after its last op).
    pub region_end: FxHashMap<Region, Vec<Box<str>>>,
    /// Comments after the last op of the text.
    pub file_end: Vec<Box<str>>,
}

impl Trivia {
    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
            && self.leading.is_empty()
            && self.trailing.is_empty()
            && self.region_end.is_empty()
            && self.file_end.is_empty()
    }
}

/// The `//` comments of `src[start..end]` as byte ranges (from `//` to the end of its line,
/// not including the line break), skipping `//` inside string literals.
pub fn comment_ranges(src: &str, start: usize, end: usize) -> Vec<(usize, usize)> {
    let b = src.as_bytes();
    let end = end.min(b.len());
    let mut out = Vec::new();
    let mut i = start;
    while i < end {
        match b[i] {
            b'"' => {
                // A string literal: up to the closing quote (escapes skip a byte), or the
                // end of the line for an unterminated one.
                i += 1;
                while i < end && b[i] != b'"' && b[i] != b'\n' && b[i] != b'\r' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            b'/' if i + 1 < end && b[i + 1] == b'/' => {
                let s = i;
                while i < end && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
                out.push((s, i));
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::comment_ranges;

    #[test]
    fn comments_outside_strings() {
        let s = "a // one\nprint \"x // not\\\" // still\" // two\r// three";
        let got: Vec<&str> = comment_ranges(s, 0, s.len())
            .into_iter()
            .map(|(a, b)| &s[a..b])
            .collect();
        assert_eq!(got, ["// one", "// two", "// three"]);
    }
}
