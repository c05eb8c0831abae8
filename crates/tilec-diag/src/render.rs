//! Renderers: turn [`Diagnostic`]s into text.
//!
//! * [`Format::Human`]: ariadne reports with source snippets and labels,
//! * [`Format::Mlir`]: `file:line:col: error: message` plus the source line and a caret,
//!   the way MLIR tools print diagnostics,
//! * [`Format::Json`]: one JSON object per diagnostic and line.

use crate::{Diagnostic, Location, SourceMap};
use std::fmt::Write as _;

/// Output format for diagnostics.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Rich, human-oriented reports.
    #[default]
    Human,
    /// MLIR-style one-liners with a source line and caret.
    Mlir,
    /// JSON lines.
    Json,
}

impl Format {
    /// Parses `human`, `mlir` or `json`.
    pub fn from_name(s: &str) -> Option<Format> {
        match s {
            "human" => Some(Format::Human),
            "mlir" => Some(Format::Mlir),
            "json" => Some(Format::Json),
            _ => None,
        }
    }
}

/// Options for rendering.
#[derive(Copy, Clone, Debug, Default)]
pub struct RenderOptions {
    /// The format.
    pub format: Format,
    /// Use ANSI colours (human format only).
    pub color: bool,
}

/// Renders one diagnostic to a string (ending in a newline).
pub fn render(sources: &SourceMap, diag: &Diagnostic, opts: RenderOptions) -> String {
    match opts.format {
        Format::Human => render_human(sources, diag, opts.color),
        Format::Mlir => render_mlir(sources, diag),
        Format::Json => {
            let mut s = render_json(sources, diag);
            s.push('\n');
            s
        }
    }
}

/// Renders all diagnostics, in order.
pub fn render_all<'a>(
    sources: &SourceMap,
    diags: impl IntoIterator<Item = &'a Diagnostic>,
    opts: RenderOptions,
) -> String {
    diags
        .into_iter()
        .map(|d| render(sources, d, opts))
        .collect()
}

fn position(sources: &SourceMap, loc: Location) -> (String, u32, u32) {
    let file = sources.get(loc.file);
    let (line, col) = file.line_col(loc.span.start);
    (file.name().to_string(), line, col)
}

/// MLIR style: `file:line:col: error: msg`, the source line, a caret line; then each note.
pub fn render_mlir(sources: &SourceMap, diag: &Diagnostic) -> String {
    let mut out = String::new();
    mlir_one(
        &mut out,
        sources,
        diag.location,
        diag.severity.as_str(),
        &diag.message,
    );
    for note in &diag.notes {
        mlir_one(
            &mut out,
            sources,
            note.location.or(diag.location),
            "note",
            &note.message,
        );
    }
    out
}

/// How a location in a binary file reads: `byte offset 28 (0x1c)`.
pub fn byte_offset(offset: u32) -> String {
    format!("byte offset {offset} ({offset:#x})")
}

fn mlir_one(out: &mut String, sources: &SourceMap, loc: Option<Location>, sev: &str, msg: &str) {
    match loc {
        Some(loc) if sources.get(loc.file).is_binary() => {
            let name = sources.get(loc.file).name();
            let _ = writeln!(out, "{name}: {}: {sev}: {msg}", byte_offset(loc.span.start));
        }
        Some(loc) => {
            let (name, line, col) = position(sources, loc);
            let _ = writeln!(out, "{name}:{line}:{col}: {sev}: {msg}");
            let text = sources.get(loc.file).line_text(line);
            // Control characters (a binary file, an escape sequence) would act on the
            // terminal: each shows as one '?', so the caret still lines up.
            let shown: String = text
                .chars()
                .map(|c| if c.is_control() && c != '\t' { '?' } else { c })
                .collect();
            let _ = writeln!(out, "{shown}");
            // The caret column counts bytes; tabs are kept so that the caret lines up.
            let pad: String = text
                .bytes()
                .take(col as usize - 1)
                .map(|b| if b == b'\t' { '\t' } else { ' ' })
                .collect();
            let _ = writeln!(out, "{pad}^");
        }
        None => {
            let _ = writeln!(out, "{sev}: {msg}");
        }
    }
}

/// JSON: one object with `severity`, `code`, `message`, `file`, `line`, `column`,
/// `end_line`, `end_column`, `labels` (each with `message`, `file`, `line`, `column`,
/// `end_line`, `end_column`) and `notes` (each with `message`, `file`, `line`, `column`),
/// then `help` when tilec has a suggestion (`did you mean 'addf'?`).
/// Lines and columns are 1-based; columns count bytes. Without a location, `file`, `line`
/// and `column` are `null`. In a binary input (bytecode), `line` and `column` are `null` and
/// `byte_offset` gives the location.
pub fn render_json(sources: &SourceMap, diag: &Diagnostic) -> String {
    let mut out = String::from("{");
    let _ = write!(out, "\"severity\":\"{}\",\"code\":", diag.severity.as_str());
    json_str(&mut out, diag.code);
    out.push_str(",\"message\":");
    json_str(&mut out, &diag.message);
    json_location(&mut out, sources, diag.location, true);
    out.push_str(",\"labels\":[");
    for (i, label) in diag.labels.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"message\":");
        json_str(&mut out, &label.message);
        json_location(&mut out, sources, Some(label.location), true);
        out.push('}');
    }
    out.push_str("],\"notes\":[");
    for (i, note) in diag.notes.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"message\":");
        json_str(&mut out, &note.message);
        json_location(&mut out, sources, note.location, false);
        out.push('}');
    }
    out.push(']');
    if let Some(h) = &diag.help {
        out.push_str(",\"help\":");
        json_str(&mut out, h);
    }
    out.push('}');
    out
}

fn json_location(out: &mut String, sources: &SourceMap, loc: Option<Location>, end: bool) {
    match loc {
        Some(loc) if sources.get(loc.file).is_binary() => {
            out.push_str(",\"file\":");
            json_str(out, sources.get(loc.file).name());
            let _ = write!(
                out,
                ",\"line\":null,\"column\":null,\"byte_offset\":{}",
                loc.span.start
            );
            if end {
                out.push_str(",\"end_line\":null,\"end_column\":null");
            }
        }
        Some(loc) => {
            let file = sources.get(loc.file);
            let (line, col) = file.line_col(loc.span.start);
            out.push_str(",\"file\":");
            json_str(out, file.name());
            let _ = write!(out, ",\"line\":{line},\"column\":{col}");
            if end {
                let (el, ec) = file.line_col(loc.span.end.max(loc.span.start));
                let _ = write!(out, ",\"end_line\":{el},\"end_column\":{ec}");
            }
        }
        None => {
            out.push_str(",\"file\":null,\"line\":null,\"column\":null");
            if end {
                out.push_str(",\"end_line\":null,\"end_column\":null");
            }
        }
    }
}

/// Appends `s` as a JSON string literal.
pub fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Human style with ariadne.
pub fn render_human(sources: &SourceMap, diag: &Diagnostic, color: bool) -> String {
    use ariadne::{Config, Label, Report, ReportKind, Source};

    let Some(loc) = diag.location else {
        let mut s = format!("{}[{}]: {}\n", diag.severity, diag.code, diag.message);
        for n in &diag.notes {
            let _ = writeln!(s, "  = note: {}", n.message);
        }
        if let Some(h) = &diag.help {
            let _ = writeln!(s, "  = help: {h}");
        }
        return s;
    };
    let file = sources.get(loc.file);
    if file.is_binary() {
        let mut s = format!(
            "{}[{}]: {}\n  --> {}: {}\n",
            diag.severity,
            diag.code,
            diag.message,
            file.name(),
            byte_offset(loc.span.start)
        );
        for n in &diag.notes {
            let _ = writeln!(s, "  = note: {}", n.message);
        }
        if let Some(h) = &diag.help {
            let _ = writeln!(s, "  = help: {h}");
        }
        return s;
    }
    let name = file.name().to_string();
    // ariadne works in character offsets; convert from bytes.
    let to_char = |byte: u32| -> usize {
        let b = (byte as usize).min(file.text().len());
        let b = (0..=b)
            .rev()
            .find(|&i| file.text().is_char_boundary(i))
            .unwrap_or(0);
        file.text()[..b].chars().count()
    };
    let range = |l: Location| {
        let s = to_char(l.span.start);
        let e = to_char(l.span.end).max(s + 1);
        (name.clone(), s..e)
    };
    let kind = match diag.severity {
        crate::Severity::Error => ReportKind::Error,
        crate::Severity::Warning => ReportKind::Warning,
        _ => ReportKind::Advice,
    };
    let mut report = Report::build(kind, range(loc))
        .with_config(Config::default().with_color(color))
        .with_code(diag.code)
        .with_message(&diag.message)
        .with_label(Label::new(range(loc)).with_message(&diag.message));
    for l in &diag.labels {
        if l.location.file == loc.file {
            report = report.with_label(Label::new(range(l.location)).with_message(&l.message));
        }
    }
    for n in &diag.notes {
        match n.location {
            Some(l) if l.file == loc.file => {
                report = report.with_label(Label::new(range(l)).with_message(&n.message));
            }
            _ => report = report.with_note(&n.message),
        }
    }
    if let Some(h) = &diag.help {
        report = report.with_help(h);
    }
    let mut buf = Vec::new();
    // Control characters other than line breaks and tabs would act on the terminal; each
    // shows as U+FFFD (one character, so ariadne's character offsets still hold).
    let shown: String = file
        .text()
        .chars()
        .map(|c| {
            if c.is_control() && !matches!(c, '\n' | '\r' | '\t') {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect();
    let cache = (name.clone(), Source::from(shown));
    if report.finish().write(cache, &mut buf).is_err() {
        return render_mlir(sources, diag);
    }
    String::from_utf8_lossy(&buf).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Diagnostic, Span, codes};

    fn sample() -> (SourceMap, Diagnostic) {
        let mut sm = SourceMap::new();
        let f = sm.add("k.tile", "%0 = constant \"x\" : tile<i8>\n");
        let d = Diagnostic::error(codes::SYNTAX, "expected '<'")
            .at(Location::new(f, Span::new(14, 17)))
            .with_note("see \"here\"", Some(Location::new(f, Span::new(0, 2))));
        (sm, d)
    }

    #[test]
    fn mlir_format() {
        let (sm, d) = sample();
        assert_eq!(
            render_mlir(&sm, &d),
            "k.tile:1:15: error: expected '<'\n%0 = constant \"x\" : tile<i8>\n              ^\n\
             k.tile:1:1: note: see \"here\"\n%0 = constant \"x\" : tile<i8>\n^\n"
        );
    }

    #[test]
    fn json_format() {
        let (sm, d) = sample();
        assert_eq!(
            render_json(&sm, &d),
            "{\"severity\":\"error\",\"code\":\"E0102\",\"message\":\"expected '<'\",\
             \"file\":\"k.tile\",\"line\":1,\"column\":15,\"end_line\":1,\"end_column\":18,\
             \"labels\":[],\"notes\":[{\"message\":\"see \\\"here\\\"\",\"file\":\"k.tile\",\"line\":1,\"column\":1}]}"
        );
    }

    #[test]
    fn human_format_mentions_code_and_message() {
        let (sm, d) = sample();
        let s = render_human(&sm, &d, false);
        assert!(s.contains("E0102"), "{s}");
        assert!(s.contains("expected '<'"), "{s}");
        assert!(s.contains("k.tile"), "{s}");
    }
}
