//! `--verify-diagnostics`: checking diagnostics against `// expected-error {{...}}`
//! comments in the source, with MLIR's semantics.
//!
//! This reproduces `SourceMgrDiagnosticVerifierHandler` of MLIR
//! (`mlir/lib/IR/Diagnostics.cpp`, since moved to LLVM's
//! `SourceMgrDiagnosticVerifier.cpp`), which `mlir-opt -verify-diagnostics` uses:
//!
//! * A directive is any text on a line (trailing whitespace removed) that matches
//!   `expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *{{(.*)}}$`;
//!   it need not be in a comment. The expected text runs from the first `{{` after the
//!   kind to the `}}` that ends the line.
//! * Without a designator the directive is about its own line; `@+N`/`@-N` about the
//!   line N lines further down/up; `@above` about the last earlier line of the chunk that
//!   is not a directive line (the chunk's first line if there is none); `@below` about the
//!   next later line that is not a directive line (the chunk's last line if there is none).
//!   Blank lines and ordinary comments count as non-directive lines. `@unknown` is about
//!   diagnostics without a location. Lines outside the chunk are never an error in
//!   themselves: such an expectation simply cannot be matched.
//! * Plain text matches as a substring of the message. With `-re` the text is literal
//!   except for `{{...}}` blocks, which are regular expressions; the result is searched
//!   for anywhere in the message.
//! * Each diagnostic, then each of its notes (a note without a location of its own is
//!   about the diagnostic's location), is checked in turn: the first expectation in
//!   source order with the same line, a matching text and the same severity is marked
//!   as matched and swallows the diagnostic. An expectation can swallow any number of
//!   diagnostics. Otherwise the diagnostic is reported, either as
//!   `'<kind>' diagnostic emitted when expecting a '<kind>'` (pointing at the last
//!   expectation on that line whose text matched but whose severity did not), or as
//!   `unexpected <kind>: <message>` at the diagnostic's own location.
//! * Finally each expectation that nothing matched is reported as
//!   `expected <kind> "<text>" was not produced`, in source order (`@unknown` ones last).

use crate::{Diagnostic, FileId, Location, Severity, SourceFile, Span};
use regex::Regex;
use std::ops::Range;
use std::sync::LazyLock;

/// The code of every diagnostic this module produces.
const EXPECT_CODE: &str = "E0002";

/// MLIR's directive pattern (a POSIX ERE there; it reads the same in `regex` syntax).
static DIRECTIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$",
    )
    .expect("directive pattern is valid")
});

/// What an [`Expectation`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A 1-based line of the whole file. It may lie outside the chunk or the file (even be
    /// zero or negative) when an `@+N`/`@-N` offset says so; then nothing can match it.
    Line(i64),
    /// `@unknown`: diagnostics without a location.
    Unknown,
}

/// One `expected-*` directive.
#[derive(Debug, Clone)]
pub struct Expectation {
    /// The expected severity (`expected-error` etc.).
    pub severity: Severity,
    /// Which line (or the unknown location) the expected diagnostic is about.
    pub target: Target,
    /// Absolute byte offset of the directive's `expected-` in the file.
    pub start: u32,
    /// The expected text as written, between the first `{{` and the last `}}`.
    pub text: String,
    /// The compiled pattern of an `expected-*-re` directive.
    regex: Option<Regex>,
}

impl Expectation {
    /// True for `expected-*-re` directives.
    pub fn is_regex(&self) -> bool {
        self.regex.is_some()
    }

    /// Whether a diagnostic message satisfies this expectation's text.
    pub fn matches(&self, message: &str) -> bool {
        match &self.regex {
            Some(re) => re.is_match(message),
            None => message.contains(self.text.as_str()),
        }
    }

    /// Where MLIR reports errors about the directive itself: from `expected-` on, as many
    /// bytes as the expected text has.
    fn directive_location(&self, file_id: FileId) -> Option<Location> {
        match self.target {
            Target::Unknown => None,
            Target::Line(_) => Some(directive_span(file_id, self.start, &self.text)),
        }
    }
}

fn directive_span(file_id: FileId, start: u32, text: &str) -> Location {
    Location::new(file_id, Span::new(start, start + text.len() as u32))
}

fn error(message: String, location: Option<Location>) -> Diagnostic {
    let mut d = Diagnostic::error(EXPECT_CODE, message);
    d.location = location;
    d
}

/// Parses the `expected-*` directives of the chunk `range` (byte offsets) of `file`.
///
/// Returns the expectations in source order, and errors for `-re` directives whose text
/// is not a valid pattern (MLIR drops those directives, and so does this function).
pub fn parse_expectations(
    file: &SourceFile,
    file_id: FileId,
    range: Range<usize>,
) -> (Vec<Expectation>, Vec<Diagnostic>) {
    let text = file.text();
    let end = range.end.min(text.len());
    let begin = range.start.min(end);
    let chunk = text.get(begin..end).unwrap_or("");
    let first_line = i64::from(file.line_col(begin as u32).0);
    // Chunk-relative 1-based line `n` is file line `first_line + n - 1`.
    let abs = |n: i64| first_line + n - 1;

    let mut expectations: Vec<Expectation> = Vec::new();
    let mut errors = Vec::new();
    let line_count = chunk.split('\n').count() as i64;
    // 0-based index of the last line that held no directive.
    let mut last_plain_line = 0i64;
    // Indices of `@below` expectations waiting for the next non-directive line.
    let mut pending_below: Vec<usize> = Vec::new();
    let mut offset = begin;

    for (idx, raw) in chunk.split('\n').enumerate() {
        let line_start = offset;
        offset += raw.len() + 1;
        let idx = idx as i64;
        let line = raw.trim_end_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
        let Some(caps) = DIRECTIVE.captures(line) else {
            for i in pending_below.drain(..) {
                expectations[i].target = Target::Line(abs(idx + 1));
            }
            last_plain_line = idx;
            continue;
        };
        let whole = caps.get(0).expect("group 0 always participates");
        let start = (line_start + whole.start()) as u32;
        let severity = match &caps[1] {
            "error" => Severity::Error,
            "warning" => Severity::Warning,
            "remark" => Severity::Remark,
            _ => Severity::Note,
        };
        let expected = caps[5].to_string();
        let regex = if caps.get(2).is_some() {
            match compile_pattern(&expected) {
                Ok(re) => Some(re),
                Err(msg) => {
                    errors.push(error(msg, Some(directive_span(file_id, start, &expected))));
                    continue;
                }
            }
        } else {
            None
        };
        let own_line = idx + 1;
        let target = match caps.get(4).map(|m| m.as_str()) {
            None => Target::Line(abs(own_line)),
            Some("unknown") => Target::Unknown,
            Some("above") => Target::Line(abs(last_plain_line + 1)),
            Some("below") => {
                pending_below.push(expectations.len());
                // Dangling `@below`: the chunk's last line.
                Target::Line(abs(line_count))
            }
            Some(offset) => {
                let n = parse_offset(&offset[1..]);
                if offset.starts_with('+') {
                    Target::Line(abs(own_line + n))
                } else {
                    Target::Line(abs(own_line - n))
                }
            }
        };
        expectations.push(Expectation {
            severity,
            target,
            start,
            text: expected,
            regex,
        });
    }
    (expectations, errors)
}

/// Parses the digits of `@+N`/`@-N` the way LLVM's `getAsInteger(0, ..)` does: a leading
/// `0` followed by more digits means octal. Unparsable or huge values count as 0.
fn parse_offset(digits: &str) -> i64 {
    let parsed = if digits.len() > 1 && digits.starts_with('0') {
        i64::from_str_radix(&digits[1..], 8)
    } else {
        digits.parse::<i64>()
    };
    parsed
        .ok()
        .filter(|&n| n <= i64::from(i32::MAX))
        .unwrap_or(0)
}

/// Builds the pattern of an `expected-*-re` text: literal text, escaped, with the
/// `{{...}}` blocks spliced in as groups. Errors carry MLIR's wording.
fn compile_pattern(text: &str) -> Result<Regex, String> {
    // POSIX `.` (as LLVM compiles it) also matches newlines.
    let mut pattern = String::from("(?s)");
    let mut rest = text;
    while !rest.is_empty() {
        let Some(open) = rest.find("{{") else {
            pattern.push_str(&regex::escape(rest));
            break;
        };
        pattern.push_str(&regex::escape(&rest[..open]));
        rest = &rest[open + 2..];
        let Some(close) = rest.find("}}") else {
            return Err("found start of regex with no end '}}'".to_string());
        };
        let block = &rest[..close];
        if let Err(e) = Regex::new(block) {
            return Err(format!("invalid regex: {}", regex_error_text(&e)));
        }
        pattern.push('(');
        pattern.push_str(block);
        pattern.push(')');
        rest = &rest[close + 2..];
    }
    Regex::new(&pattern).map_err(|e| format!("invalid regex: {}", regex_error_text(&e)))
}

/// The one-line reason of a `regex` error (its syntax errors span several lines and end
/// in `error: <reason>`).
fn regex_error_text(e: &regex::Error) -> String {
    let full = e.to_string();
    let last = full.lines().last().unwrap_or("").trim();
    last.strip_prefix("error: ").unwrap_or(last).to_string()
}

/// Checks the diagnostics produced for one chunk `range` of `file` against the
/// `expected-*` directives written in that chunk. Returns the mismatches as error
/// diagnostics (empty = everything matched), in the order and wording mlir-opt uses.
///
/// `range` is a byte range of the file (a part split off at `// -----`, or the whole
/// text); the diagnostics' spans are absolute offsets into the whole file. The order is:
/// malformed `-re` directives, then one report per unmatched diagnostic or note as they
/// come, then the expectations that nothing matched.
pub fn verify(
    file: &SourceFile,
    file_id: FileId,
    range: Range<usize>,
    diags: &[Diagnostic],
) -> Vec<Diagnostic> {
    let (expectations, mut out) = parse_expectations(file, file_id, range);
    let mut matched = vec![false; expectations.len()];
    let mut check = |severity: Severity, location: Option<Location>, message: &str| {
        check_one(
            file,
            file_id,
            &expectations,
            &mut matched,
            severity,
            location,
            message,
        )
    };
    for d in diags {
        out.extend(check(d.severity, d.location, &d.message));
        for note in &d.notes {
            out.extend(check(
                Severity::Note,
                note.location.or(d.location),
                &note.message,
            ));
        }
    }
    let unmatched = |want_unknown: bool| {
        expectations
            .iter()
            .zip(&matched)
            .filter(move |(e, m)| !**m && (e.target == Target::Unknown) == want_unknown)
            .map(|(e, _)| {
                error(
                    format!("expected {} \"{}\" was not produced", e.severity, e.text),
                    e.directive_location(file_id),
                )
            })
    };
    out.extend(unmatched(false));
    out.extend(unmatched(true));
    out
}

/// Checks one diagnostic (or note); returns the report if it was not expected.
fn check_one(
    file: &SourceFile,
    file_id: FileId,
    expectations: &[Expectation],
    matched: &mut [bool],
    severity: Severity,
    location: Option<Location>,
    message: &str,
) -> Option<Diagnostic> {
    let target = match location {
        Some(loc) if loc.file == file_id => {
            Some(Target::Line(i64::from(file.line_col(loc.span.start).0)))
        }
        // Another file: it has no directives in this chunk.
        Some(_) => None,
        None => Some(Target::Unknown),
    };
    let mut near_miss = None;
    for (i, e) in expectations.iter().enumerate() {
        if Some(e.target) != target || !e.matches(message) {
            continue;
        }
        if e.severity == severity {
            matched[i] = true;
            return None;
        }
        near_miss = Some(e);
    }
    Some(match near_miss {
        Some(e) => error(
            format!(
                "'{severity}' diagnostic emitted when expecting a '{}'",
                e.severity
            ),
            e.directive_location(file_id)
                .map(|l| Location::new(l.file, Span::at(l.span.start))),
        ),
        None => error(format!("unexpected {severity}: {message}"), location),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Note;

    const F: FileId = FileId(0);

    /// Byte offset of 1-based `line`, `col` in `text`.
    fn offset(text: &str, line: u32, col: u32) -> u32 {
        let mut start = 0usize;
        for _ in 1..line {
            start += text[start..].find('\n').expect("line exists") + 1;
        }
        start as u32 + col - 1
    }

    fn loc(text: &str, line: u32, col: u32) -> Location {
        let o = offset(text, line, col);
        Location::new(F, Span::new(o, o + 1))
    }

    fn diag(sev: Severity, text: &str, line: u32, msg: &str) -> Diagnostic {
        let mut d = Diagnostic::error("E0101", msg).at(loc(text, line, 1));
        d.severity = sev;
        d
    }

    fn err(text: &str, line: u32, msg: &str) -> Diagnostic {
        diag(Severity::Error, text, line, msg)
    }

    /// Each report as `line:col: message` (`?` for no location), after checking that it
    /// is an E0002 error.
    fn show(file: &SourceFile, out: &[Diagnostic]) -> Vec<String> {
        out.iter()
            .map(|d| {
                assert_eq!(d.severity, Severity::Error);
                assert_eq!(d.code, "E0002");
                assert!(d.notes.is_empty());
                match d.location {
                    Some(l) => {
                        let (line, col) = file.line_col(l.span.start);
                        format!("{line}:{col}: {}", d.message)
                    }
                    None => format!("?: {}", d.message),
                }
            })
            .collect()
    }

    fn run(text: &str, diags: &[Diagnostic]) -> Vec<String> {
        let file = SourceFile::new("t.mlir", text);
        let out = verify(&file, F, 0..text.len(), diags);
        show(&file, &out)
    }

    fn targets(text: &str) -> Vec<Target> {
        let file = SourceFile::new("t.mlir", text);
        let (exps, errs) = parse_expectations(&file, F, 0..text.len());
        assert!(errs.is_empty());
        exps.iter().map(|e| e.target).collect()
    }

    #[test]
    fn no_designator_means_own_line() {
        let t = "a\nfoo // expected-error {{bad op}}\n";
        assert_eq!(targets(t), [Target::Line(2)]);
        assert!(run(t, &[err(t, 2, "a bad op here")]).is_empty());
    }

    #[test]
    fn plus_and_minus_offsets() {
        let t = "// expected-error@+2 {{one}}\n\nx\ny // expected-warning @-3 {{two}}\n";
        assert_eq!(targets(t), [Target::Line(3), Target::Line(1)]);
        let ds = [err(t, 3, "one"), diag(Severity::Warning, t, 1, "two")];
        assert!(run(t, &ds).is_empty());
    }

    #[test]
    fn offsets_may_point_outside_the_file() {
        let t = "// expected-error @-5 {{up}}\n// expected-error @+9 {{down}}\n";
        assert_eq!(targets(t), [Target::Line(-4), Target::Line(11)]);
        assert_eq!(
            run(t, &[]),
            [
                "1:4: expected error \"up\" was not produced",
                "2:4: expected error \"down\" was not produced",
            ]
        );
    }

    #[test]
    fn below_skips_directive_lines() {
        let t = "// expected-error @below{{a}}\n// expected-note @below {{b}}\n\
                 x // expected-remark {{c}}\nop\n";
        assert_eq!(
            targets(t),
            [Target::Line(4), Target::Line(4), Target::Line(3)]
        );
        let ds = [
            err(t, 4, "a"),
            diag(Severity::Note, t, 4, "b"),
            diag(Severity::Remark, t, 3, "c"),
        ];
        assert!(run(t, &ds).is_empty());
    }

    #[test]
    fn below_counts_blank_and_comment_lines() {
        let t = "// expected-error @below {{a}}\n\nop\n// expected-error @below {{b}}\n// c\nop\n";
        assert_eq!(targets(t), [Target::Line(2), Target::Line(5)]);
    }

    #[test]
    fn dangling_below_targets_the_last_line() {
        let t = "op\n// expected-error @below {{a}}";
        assert_eq!(targets(t), [Target::Line(2)]);
        assert!(run(t, &[err(t, 2, "a")]).is_empty());
        // The empty text after a final newline is a (non-directive) line of its own.
        let t = "op\n// expected-error @below {{a}}\n";
        assert_eq!(targets(t), [Target::Line(3)]);
    }

    #[test]
    fn above_skips_directive_lines() {
        let t = "op\n// expected-error @above {{a}}\n// expected-error@above{{b}}\n";
        assert_eq!(targets(t), [Target::Line(1), Target::Line(1)]);
        // With no plain line before it, `@above` means the chunk's first line.
        let t = "// expected-error @above {{a}}\nop\n";
        assert_eq!(targets(t), [Target::Line(1)]);
    }

    #[test]
    fn directive_syntax_variants() {
        let t = "// expected-error@below{{a}}\n\
                 // expected-error @below {{b}}   \n\
                 // expected-error   {{c}}\n\
                 // expected-error-re@+1{{d}}\n\
                 // expected-error {{e}} trailing text\n\
                 // expected-fatal {{f}}\n\
                 // expected-error@ below {{g}}\n\
                 // expected-error @+x {{h}}\n\
                 // expected-error @below{{i}} {{j}}\n\
                 op\n";
        let file = SourceFile::new("t.mlir", t);
        let (exps, errs) = parse_expectations(&file, F, 0..t.len());
        assert!(errs.is_empty());
        let got: Vec<_> = exps
            .iter()
            .map(|e| (e.text.as_str(), e.target, e.is_regex()))
            .collect();
        assert_eq!(
            got,
            [
                // Lines 5 to 8 are not directives, so `@below` means line 5.
                ("a", Target::Line(5), false),
                ("b", Target::Line(5), false),
                ("c", Target::Line(3), false),
                ("d", Target::Line(5), true),
                ("i}} {{j", Target::Line(10), false),
            ]
        );
        assert_eq!(exps[0].start, 3);
    }

    #[test]
    fn text_is_a_substring() {
        let t = "op // expected-error {{must be f16}}\n";
        assert!(run(t, &[err(t, 1, "'x' op operand #0 must be f16, got i8")]).is_empty());
        assert_eq!(
            run(t, &[err(t, 1, "'x' op operand #0 must be f32")]),
            [
                "1:1: unexpected error: 'x' op operand #0 must be f32",
                "1:7: expected error \"must be f16\" was not produced",
            ]
        );
    }

    #[test]
    fn regex_blocks_inside_literal_text() {
        let t = "// expected-error-re @below{{custom op 'x' must be f16 or {{(or f4E2M1FN )?}}values, but got 'tensor<f32>'}}\nop\n";
        let file = SourceFile::new("t.mlir", t);
        let (exps, _) = parse_expectations(&file, F, 0..t.len());
        assert!(exps[0].matches("custom op 'x' must be f16 or values, but got 'tensor<f32>'"));
        assert!(exps[0].matches(
            "prefix custom op 'x' must be f16 or or f4E2M1FN values, but got 'tensor<f32>'!"
        ));
        assert!(!exps[0].matches("custom op 'x' must be f16 or f8 values, but got 'tensor<f32>'"));
        assert!(
            run(
                t,
                &[err(
                    t,
                    2,
                    "custom op 'x' must be f16 or values, but got 'tensor<f32>'"
                )]
            )
            .is_empty()
        );
    }

    #[test]
    fn regex_literal_parts_are_escaped() {
        let t = "op // expected-error-re {{a.c (x) {{[0-9]+}}$}}\n";
        let file = SourceFile::new("t.mlir", t);
        let (exps, _) = parse_expectations(&file, F, 0..t.len());
        assert!(exps[0].matches("a.c (x) 42$"));
        assert!(!exps[0].matches("abc (x) 42$"));
        assert!(!exps[0].matches("a.c (x) y$"));
        // Without `-re` the braces are literal text.
        let t = "op // expected-error {{a {{b}}}}\n";
        let file = SourceFile::new("t.mlir", t);
        let (exps, _) = parse_expectations(&file, F, 0..t.len());
        assert_eq!(exps[0].text, "a {{b}}");
        assert!(exps[0].matches("x a {{b}}"));
        assert!(!exps[0].matches("a b"));
    }

    #[test]
    fn malformed_regex_directives_are_reported_and_dropped() {
        let t = "op // expected-error-re {{a {{b}}\nop // expected-error-re {{a {{(b}}c}}\n";
        assert_eq!(
            run(t, &[]),
            [
                "1:7: found start of regex with no end '}}'",
                "2:7: invalid regex: unclosed group",
            ]
        );
        let file = SourceFile::new("t.mlir", t);
        let out = verify(&file, F, 0..t.len(), &[]);
        let start = offset(t, 1, 7);
        assert_eq!(
            out[0].location,
            Some(Location::new(F, Span::new(start, start + 5)))
        );
    }

    #[test]
    fn notes_are_checked_at_their_own_location() {
        let t = "a // expected-error {{use}}\nb // expected-note {{prior def}}\n";
        let d = err(t, 1, "bad use").with_note("prior def here", Some(loc(t, 2, 1)));
        assert!(run(t, &[d]).is_empty());
        // A note without a location is about the diagnostic's location.
        let t = "a // expected-error {{use}} expected-note {{see}}\n";
        let mut d = err(t, 1, "use");
        d.notes.push(Note {
            message: "see".into(),
            location: None,
        });
        // One directive per line: the first one takes the rest of the line.
        assert_eq!(
            run(t, &[d]),
            [
                "1:1: unexpected error: use",
                "1:1: unexpected note: see",
                "1:6: expected error \"use}} expected-note {{see\" was not produced",
            ]
        );
        let t = "a // expected-note {{see}}\n// expected-error @above {{use}}\n";
        let mut d = err(t, 1, "use");
        d.notes.push(Note {
            message: "see".into(),
            location: None,
        });
        assert!(run(t, &[d]).is_empty());
    }

    #[test]
    fn unexpected_diagnostics_and_notes() {
        let t = "op\nop\n";
        let d = err(t, 1, "boom").with_note("because", Some(loc(t, 2, 2)));
        let w = diag(Severity::Warning, t, 2, "hmm");
        let file = SourceFile::new("t.mlir", t);
        let out = verify(&file, F, 0..t.len(), &[d.clone(), w]);
        assert_eq!(
            show(&file, &out),
            [
                "1:1: unexpected error: boom",
                "2:2: unexpected note: because",
                "2:1: unexpected warning: hmm",
            ]
        );
        assert_eq!(out[0].location, d.location);
    }

    #[test]
    fn unexpected_without_location_and_at_unknown() {
        let t = "op\n";
        let d = Diagnostic::error("E0101", "lost");
        assert_eq!(
            run(t, std::slice::from_ref(&d)),
            ["?: unexpected error: lost"]
        );
        let t = "// expected-error @unknown {{lost}}\n// expected-error @unknown {{gone}}\n";
        assert_eq!(targets(t), [Target::Unknown, Target::Unknown]);
        assert_eq!(
            run(t, &[d]),
            ["?: expected error \"gone\" was not produced"]
        );
    }

    #[test]
    fn unknown_expectations_are_reported_last() {
        let t = "// expected-error @unknown {{a}}\nop // expected-error {{b}}\n";
        assert_eq!(
            run(t, &[]),
            [
                "2:7: expected error \"b\" was not produced",
                "?: expected error \"a\" was not produced",
            ]
        );
    }

    #[test]
    fn unmatched_expectation_points_at_the_directive() {
        let t = "// expected-error @below {{boom}}\nop\n";
        let file = SourceFile::new("t.mlir", t);
        let out = verify(&file, F, 0..t.len(), &[]);
        assert_eq!(
            show(&file, &out),
            ["1:4: expected error \"boom\" was not produced"]
        );
        assert_eq!(out[0].location, Some(Location::new(F, Span::new(3, 7))));
    }

    #[test]
    fn wrong_line() {
        let t = "// expected-error @below {{boom}}\nop\nop\n";
        assert_eq!(
            run(t, &[err(t, 3, "boom")]),
            [
                "3:1: unexpected error: boom",
                "1:4: expected error \"boom\" was not produced",
            ]
        );
    }

    #[test]
    fn wrong_severity_is_a_near_miss() {
        let t = "op // expected-error {{boom}}\n";
        let file = SourceFile::new("t.mlir", t);
        let out = verify(
            &file,
            F,
            0..t.len(),
            &[diag(Severity::Warning, t, 1, "boom")],
        );
        assert_eq!(
            show(&file, &out),
            [
                "1:7: 'warning' diagnostic emitted when expecting a 'error'",
                "1:7: expected error \"boom\" was not produced",
            ]
        );
        assert_eq!(out[0].location, Some(Location::new(F, Span::at(6))));
        // A later expectation of the right severity still takes it.
        let t = "op // expected-note {{boom}}\n// expected-warning @above {{boom}}\n";
        assert_eq!(
            run(t, &[diag(Severity::Warning, t, 1, "boom")]),
            ["1:7: expected note \"boom\" was not produced"]
        );
    }

    #[test]
    fn two_expectations_on_one_line() {
        let t = "// expected-error @below {{first}}\n// expected-error @below {{second}}\nop\n";
        let ds = [err(t, 3, "the second"), err(t, 3, "the first")];
        assert!(run(t, &ds).is_empty());
        assert_eq!(
            run(t, &ds[..1]),
            ["1:4: expected error \"first\" was not produced"]
        );
    }

    #[test]
    fn one_expectation_swallows_repeated_diagnostics() {
        // As in MLIR, matching does not use an expectation up.
        let t = "op // expected-error {{boom}}\n";
        assert!(run(t, &[err(t, 1, "boom"), err(t, 1, "boom")]).is_empty());
        let t = "op // expected-error {{boom}}\n// expected-error @above {{boom}}\n";
        assert_eq!(
            run(t, &[err(t, 1, "boom"), err(t, 1, "boom")]),
            ["2:4: expected error \"boom\" was not produced"]
        );
    }

    #[test]
    fn only_directives_in_the_range_count() {
        let t = "// expected-error @below {{one}}\nop\n// -----\n\
                 // expected-error @below {{two}}\nop\n// -----\n\
                 // expected-error @above {{three}}\n";
        let file = SourceFile::new("t.mlir", t);
        let start = t.find("// expected-error @below {{two}}").unwrap();
        let end = t.rfind("// -----").unwrap();
        let (exps, _) = parse_expectations(&file, F, start..end);
        assert_eq!(exps.len(), 1);
        assert_eq!(exps[0].text, "two");
        assert_eq!(exps[0].target, Target::Line(5));
        assert_eq!(exps[0].start as usize, start + 3);
        // A diagnostic on line 2 (another chunk) is unexpected here.
        let out = verify(&file, F, start..end, &[err(t, 5, "two"), err(t, 2, "one")]);
        assert_eq!(show(&file, &out), ["2:1: unexpected error: one"]);
        // `@above` at a chunk's start and dangling `@below` stay inside the chunk.
        let t = "op\n// -----\n// expected-error @above {{a}}\nop\n// expected-error @below {{b}}\n// -----\n";
        let file = SourceFile::new("t.mlir", t);
        let (start, end) = (t.find("// e").unwrap(), t.rfind("// -----").unwrap());
        let (exps, _) = parse_expectations(&file, F, start..end);
        let got: Vec<_> = exps.iter().map(|e| e.target).collect();
        assert_eq!(got, [Target::Line(3), Target::Line(6)]);
    }

    #[test]
    fn diagnostics_in_other_files_are_unexpected() {
        let t = "op // expected-error {{boom}}\n";
        let mut d = err(t, 1, "boom");
        d.location = Some(Location::new(FileId(1), Span::at(0)));
        let file = SourceFile::new("t.mlir", t);
        let out = verify(&file, F, 0..t.len(), std::slice::from_ref(&d));
        assert_eq!(out[0].message, "unexpected error: boom");
        assert_eq!(out[0].location, d.location);
        assert_eq!(out[1].message, "expected error \"boom\" was not produced");
    }

    #[test]
    fn octal_offsets_like_llvm() {
        let t = "// expected-error @+010 {{a}}\n";
        assert_eq!(targets(t), [Target::Line(9)]);
    }
}
