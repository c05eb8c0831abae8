//! Spans, source files and diagnostics for tilec.
//!
//! Every stage of tilec reports problems as [`Diagnostic`] values: a severity, a stable
//! code, a message, an optional primary [`Location`] and any number of notes (which may
//! carry locations of their own, like MLIR's `note: prior use here`). Diagnostics are
//! plain data; turning them into text is the job of the renderers in [`render`], which
//! support three formats:
//!
//! * `human`: rich reports with source snippets (ariadne),
//! * `mlir`: `file:line:col: error: message` followed by the source line and a caret, as
//!   MLIR tools print them, so that tools and tests written against NVIDIA's
//!   `cuda-tile-opt` keep working,
//! * `json`: one JSON object per line, for CI systems.
//!
//! Spans are byte ranges into a [`SourceFile`]; the [`SourceMap`] owns the files and turns
//! offsets into 1-based line and column numbers.

#![warn(missing_docs)]

pub mod catalog;
pub mod codes;
pub mod expect;
pub mod render;

use std::fmt;

/// Identifies a source file inside a [`SourceMap`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A half-open byte range `start..end` inside one source file.
///
/// Spans never carry their file; the file is implied by context (an IR module records the
/// file it was parsed from) or named explicitly by a [`Location`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
}

impl Span {
    /// Creates a span from byte offsets.
    pub const fn new(start: u32, end: u32) -> Span {
        Span { start, end }
    }

    /// A zero-length span at `offset`.
    pub const fn at(offset: u32) -> Span {
        Span {
            start: offset,
            end: offset,
        }
    }

    /// Length in bytes.
    pub const fn len(&self) -> u32 {
        self.end.saturating_sub(self.start)
    }

    /// True for zero-length spans.
    pub const fn is_empty(&self) -> bool {
        self.end <= self.start
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// A span in a specific file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    /// The file.
    pub file: FileId,
    /// The byte range.
    pub span: Span,
}

impl Location {
    /// Creates a location.
    pub const fn new(file: FileId, span: Span) -> Location {
        Location { file, span }
    }
}

/// One source file: its name as the user gave it, its text and a line index.
#[derive(Debug, Clone)]
pub struct SourceFile {
    name: String,
    text: String,
    /// A binary input (Tile IR bytecode): `text` is empty and spans are byte offsets.
    binary: bool,
    /// Offsets of line starts, computed when first needed (most runs report nothing).
    line_starts: std::sync::OnceLock<Vec<u32>>,
}

impl SourceFile {
    /// Creates a source file.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile {
            name: name.into(),
            text: text.into(),
            binary: false,
            line_starts: std::sync::OnceLock::new(),
        }
    }

    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            // A line ends at `\n`, `\r\n` or a lone `\r` (old Mac files), as in MLIR.
            let bytes = self.text.as_bytes();
            let mut v = vec![0u32];
            v.extend(
                bytes
                    .iter()
                    .enumerate()
                    .filter(|&(i, &b)| {
                        b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
                    })
                    .map(|(i, _)| i as u32 + 1),
            );
            v
        })
    }

    /// True for binary inputs, whose locations are byte offsets (rendered as
    /// `file: byte offset N`), not lines and columns.
    pub fn is_binary(&self) -> bool {
        self.binary
    }

    /// The file name as given (e.g. a path, or `<stdin>`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The full text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// 1-based line and column (in bytes) of a byte offset. Offsets past the end map to the
    /// end of the file.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let offset = offset.min(self.text.len() as u32);
        let line = match self.line_starts().binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        (line as u32 + 1, offset - self.line_starts()[line] + 1)
    }

    /// The text of a 1-based line, without its line terminator.
    pub fn line_text(&self, line: u32) -> &str {
        let idx = (line.max(1) - 1) as usize;
        let Some(&start) = self.line_starts().get(idx) else {
            return "";
        };
        let end = self
            .line_starts()
            .get(idx + 1)
            .map(|&e| e as usize)
            .unwrap_or(self.text.len());
        self.text[start as usize..end].trim_end_matches(['\n', '\r'])
    }

    /// Number of lines.
    pub fn line_count(&self) -> u32 {
        self.line_starts().len() as u32
    }
}

/// Owns the source files that diagnostics refer to.
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile::new(name, text));
        FileId(self.files.len() as u32 - 1)
    }

    /// Adds a binary file (Tile IR bytecode): diagnostics in it are located by byte offset.
    pub fn add_binary(&mut self, name: impl Into<String>) -> FileId {
        let mut f = SourceFile::new(name, String::new());
        f.binary = true;
        self.files.push(f);
        FileId(self.files.len() as u32 - 1)
    }

    /// The file with the given id.
    ///
    /// # Panics
    /// If the id does not come from this map.
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// All files.
    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }
}

/// How serious a diagnostic is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Extra information attached to another diagnostic, or standing alone.
    Note,
    /// A remark (informational output of a pass).
    Remark,
    /// Something suspicious that does not stop compilation.
    Warning,
    /// The input is rejected.
    Error,
}

impl Severity {
    /// The lower-case word MLIR prints (`error`, `warning`, `note`, `remark`).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Remark => "remark",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A note attached to a diagnostic, optionally pointing somewhere else in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The note's text, e.g. `prior use here`.
    pub message: String,
    /// Where the note points, if anywhere.
    pub location: Option<Location>,
}

/// A secondary label: another span of the source that the diagnostic is about (an operand,
/// a type or an attribute), with a short message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// Where the label points.
    pub location: Location,
    /// The label's text.
    pub message: String,
}

/// A diagnostic: severity, stable code, message, location, labels and notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Severity.
    pub severity: Severity,
    /// Stable code from the catalog in [`codes`], e.g. `E0102`.
    pub code: &'static str,
    /// The message, without severity prefix. Its wording is part of tilec's contract.
    pub message: String,
    /// Where the problem is. Every diagnostic about user input has one.
    pub location: Option<Location>,
    /// Secondary labels (the human renderer draws them; JSON lists them).
    pub labels: Vec<Label>,
    /// Attached notes.
    pub notes: Vec<Note>,
    /// A suggestion for the user (`did you mean 'addf'?`): shown by the human and JSON
    /// renderers, left out of the MLIR format and of `--verify-diagnostics`, so that
    /// NVIDIA's tests and their expected notes see exactly what cuda-tile-opt prints.
    pub help: Option<Box<str>>,
}

impl Diagnostic {
    /// An error with a code and message.
    pub fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            location: None,
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    /// Sets the suggestion ([`Diagnostic::help`]).
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into().into_boxed_str());
        self
    }

    /// A remark with a code and message.
    pub fn remark(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Remark,
            ..Diagnostic::error(code, message)
        }
    }

    /// A standalone note with a code and message.
    pub fn note(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Note,
            ..Diagnostic::error(code, message)
        }
    }

    /// Adds a secondary label.
    pub fn with_label(mut self, location: Location, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            location,
            message: message.into(),
        });
        self
    }

    /// A warning with a code and message.
    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }

    /// Sets the primary location.
    pub fn at(mut self, location: Location) -> Diagnostic {
        self.location = Some(location);
        self
    }

    /// Adds a note. As in MLIR, a note given no location of its own points
    /// where the diagnostic points (set the primary location first).
    pub fn with_note(mut self, message: impl Into<String>, location: Option<Location>) -> Self {
        self.notes.push(Note {
            message: message.into(),
            location: location.or(self.location),
        });
        self
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]: {}", self.severity, self.code, self.message)
    }
}

/// A collection of diagnostics produced by one run of a stage.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// An empty collection.
    pub fn new() -> Diagnostics {
        Diagnostics::default()
    }

    /// Appends a diagnostic.
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }

    /// Appends all diagnostics of another collection.
    pub fn extend(&mut self, other: impl IntoIterator<Item = Diagnostic>) {
        self.items.extend(other);
    }

    /// True if any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(Diagnostic::is_error)
    }

    /// Number of diagnostics.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True if empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Iterates over the diagnostics.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.items.iter()
    }

    /// Consumes the collection.
    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.items
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_is_one_based_and_byte_based() {
        let f = SourceFile::new("a", "ab\ncd\n\nxyz");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(1), (1, 2));
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(6), (3, 1));
        assert_eq!(f.line_col(7), (4, 1));
        assert_eq!(f.line_col(100), (4, 4));
        assert_eq!(f.line_text(2), "cd");
        assert_eq!(f.line_text(3), "");
        assert_eq!(f.line_text(4), "xyz");
        assert_eq!(f.line_count(), 4);
    }

    #[test]
    fn crlf_lines_drop_the_carriage_return() {
        let f = SourceFile::new("a", "ab\r\ncd");
        assert_eq!(f.line_text(1), "ab");
        assert_eq!(f.line_col(4), (2, 1));
    }
}

/// The candidate closest to `word` by edit distance, if close enough to be what was meant
/// (at most a third of the word's length, and at least one edit): the suggestion of a
/// `did you mean` help.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .map(|c| (strsim::damerau_levenshtein(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod closest_tests {
    use super::closest;

    #[test]
    fn suggestions() {
        let ops = [
            "addf",
            "addi",
            "subf",
            "mulf",
            "load_view_tko",
            "make_token",
        ];
        assert_eq!(closest("addff", ops), Some("addf"));
        assert_eq!(closest("mullf", ops), Some("mulf"));
        assert_eq!(closest("load_veiw_tko", ops), Some("load_view_tko"));
        assert_eq!(closest("frobnicate", ops), None);
        assert_eq!(closest("addf", ops), Some("addi"));
        assert_eq!(closest("x", ["y"]), Some("y"));
    }
}
