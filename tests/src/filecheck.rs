//! An LLVM-FileCheck-compatible matcher.
//!
//! Used by the test suite to run MLIR-style lit tests (`// RUN: tool %s | FileCheck %s`) against
//! the output of our tools. The check file is scanned for directives (`CHECK:`, `CHECK-NEXT:`,
//! `CHECK-SAME:`, `CHECK-NOT:`, `CHECK-LABEL:`, `CHECK-DAG:`, `CHECK-EMPTY:`, `CHECK-COUNT-n:`,
//! for every configured prefix), whose patterns are then matched against the input following
//! FileCheck's documented semantics.
//!
//! Supported pattern syntax: literal text, `{{regex}}` blocks, string variable definitions
//! `[[NAME:regex]]`, string variable uses `[[NAME]]`, the `[[@LINE]]`/`[[@LINE+N]]`/`[[@LINE-N]]`
//! pseudo variables and the `{LITERAL}` directive modifier. Numeric substitution blocks
//! (`[[#...]]`) are not supported and reported as a failure.

use std::collections::HashMap;
use std::fmt;

use regex::Regex;

/// Options for one FileCheck run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Check prefixes; default ["CHECK"].
    pub prefixes: Vec<String>,
    /// --strict-whitespace. When false (default), runs of spaces/tabs in the input and in the
    /// literal parts of patterns are canonicalized, so a run of >=1 blanks in a pattern matches a
    /// run of >=1 blanks in the input.
    pub strict_whitespace: bool,
    /// --match-full-lines
    pub match_full_lines: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            prefixes: vec!["CHECK".to_string()],
            strict_whitespace: false,
            match_full_lines: false,
        }
    }
}

/// A failed check with a FileCheck-style human-readable explanation.
#[derive(Debug, Clone)]
pub struct CheckFailure {
    /// 1-based line of the check file the failure is about (0 when it concerns the whole file).
    pub check_line: usize,
    /// FileCheck-style explanation.
    pub message: String,
}

impl fmt::Display for CheckFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CheckFailure {}

/// Runs FileCheck: `check_text` is the check file (e.g. the .mlir test), `input` the output to
/// verify. Ok(number of directives checked) or the first failure. A check file without any
/// directive for the prefixes is an error ("no check strings found with prefix 'CHECK:'").
pub fn check(check_text: &str, input: &str, opts: &Options) -> Result<usize, CheckFailure> {
    validate_prefixes(&opts.prefixes)?;
    let directives = parse_check_file(check_text, opts)?;
    if directives.is_empty() {
        let list = opts
            .prefixes
            .iter()
            .map(|p| format!("'{p}:'"))
            .collect::<Vec<_>>()
            .join(", ");
        let plural = if opts.prefixes.len() == 1 {
            "prefix"
        } else {
            "prefixes"
        };
        return Err(CheckFailure {
            check_line: 0,
            message: format!("error: no check strings found with {plural} {list}"),
        });
    }
    let strings = group_check_strings(&directives);
    let mut matcher = Matcher::new(input, opts, &directives);
    matcher.run(&strings)?;
    Ok(directives.len())
}

// ---------------------------------------------------------------------------------------------
// Check file parsing
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Plain,
    Next,
    Same,
    Not,
    Dag,
    Label,
    Empty,
    Count(usize),
}

impl Kind {
    fn suffix(self) -> String {
        match self {
            Kind::Plain => String::new(),
            Kind::Next => "-NEXT".into(),
            Kind::Same => "-SAME".into(),
            Kind::Not => "-NOT".into(),
            Kind::Dag => "-DAG".into(),
            Kind::Label => "-LABEL".into(),
            Kind::Empty => "-EMPTY".into(),
            Kind::Count(n) => format!("-COUNT-{n}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    /// Literal text (already whitespace-canonicalized unless strict).
    Lit(String),
    /// A `{{...}}` regex.
    Re(String),
    /// `[[NAME:regex]]`.
    Def { name: String, re: String },
    /// `[[NAME]]`.
    Use(String),
    /// `[[@LINE]]`, `[[@LINE+N]]`, `[[@LINE-N]]`: offset from the directive's line.
    Line(i64),
}

#[derive(Clone, Debug)]
struct Directive {
    kind: Kind,
    /// The directive as written, e.g. `CHECK-NEXT`.
    name: String,
    /// 1-based line in the check file.
    line: usize,
    /// The check file line, trimmed, for messages.
    text: String,
    pieces: Vec<Piece>,
}

fn fail(check_line: usize, message: String) -> CheckFailure {
    CheckFailure {
        check_line,
        message,
    }
}

fn validate_prefixes(prefixes: &[String]) -> Result<(), CheckFailure> {
    let bad = || {
        fail(
            0,
            "error: supplied check prefix is invalid! Prefixes must be unique and start with a \
             letter and contain only alphanumeric characters, hyphens and underscores"
                .to_string(),
        )
    };
    if prefixes.is_empty() {
        return Err(bad());
    }
    for (i, p) in prefixes.iter().enumerate() {
        let mut chars = p.chars();
        let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
        let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !first_ok || !rest_ok || prefixes[..i].contains(p) {
            return Err(bad());
        }
    }
    Ok(())
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// A directive found in a check line.
struct FoundDirective<'l> {
    prefix: String,
    kind: Kind,
    literal: bool,
    rest: &'l str,
}

/// Parses what follows a prefix: `[-KIND][{LITERAL}]:`.
fn parse_suffix(s: &str) -> Result<Option<(Kind, bool, &str)>, String> {
    let named = [
        ("-NEXT", Kind::Next),
        ("-SAME", Kind::Same),
        ("-NOT", Kind::Not),
        ("-DAG", Kind::Dag),
        ("-LABEL", Kind::Label),
        ("-EMPTY", Kind::Empty),
    ];
    let mut kind = Kind::Plain;
    let mut after = s;
    let mut bad_count = false;
    if let Some(r) = s.strip_prefix("-COUNT-") {
        let digits = r.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Ok(None);
        }
        match r[..digits].parse::<usize>() {
            Ok(n) if n > 0 => kind = Kind::Count(n),
            _ => bad_count = true,
        }
        after = &r[digits..];
    } else if let Some((r, k)) = named
        .iter()
        .find_map(|(suf, k)| s.strip_prefix(suf).map(|r| (r, *k)))
    {
        kind = k;
        after = r;
    }
    let (literal, after) = match after.strip_prefix("{LITERAL}") {
        Some(r) => (true, r),
        None => (false, after),
    };
    match after.strip_prefix(':') {
        Some(_) if bad_count => Err("invalid count in -COUNT specification".to_string()),
        Some(rest) => Ok(Some((kind, literal, rest))),
        None => Ok(None),
    }
}

/// Finds the first directive in `line` (prefixes sorted longest first).
fn find_directive<'l>(
    line: &'l str,
    prefixes: &[&str],
) -> Result<Option<FoundDirective<'l>>, String> {
    let bytes = line.as_bytes();
    for (i, _) in line.char_indices() {
        if i > 0 && is_word_byte(bytes[i - 1]) {
            continue;
        }
        for p in prefixes {
            if !line[i..].starts_with(p) {
                continue;
            }
            if let Some((kind, literal, rest)) = parse_suffix(&line[i + p.len()..])? {
                return Ok(Some(FoundDirective {
                    prefix: (*p).to_string(),
                    kind,
                    literal,
                    rest,
                }));
            }
        }
    }
    Ok(None)
}

/// Collapses every run of spaces/tabs into a single space.
fn canonicalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_blank = false;
    for c in s.chars() {
        if c == ' ' || c == '\t' {
            if !in_blank {
                out.push(' ');
            }
            in_blank = true;
        } else {
            out.push(c);
            in_blank = false;
        }
    }
    out
}

/// Finds the end of the regex of a `[[NAME:regex]]` block: the first `]]` that is not inside a
/// bracket expression of the regex. `s` starts right after the colon.
fn find_regex_var_end(s: &str) -> Result<Option<usize>, String> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut depth = 0usize;
    while i < b.len() {
        if depth == 0 && b[i..].starts_with(b"]]") {
            return Ok(Some(i));
        }
        match b[i] {
            b'\\' => {
                i += 2;
                continue;
            }
            b'[' => depth += 1,
            b']' => {
                if depth == 0 {
                    return Err("missing closing \"]\" for regex variable".to_string());
                }
                depth -= 1;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(None)
}

/// Length of a variable name (optionally `$`-prefixed) at the start of `s`, or 0.
fn var_name_len(s: &str) -> usize {
    let b = s.as_bytes();
    let start = usize::from(b.first() == Some(&b'$'));
    match b.get(start) {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {}
        _ => return 0,
    }
    start
        + b[start..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count()
}

/// Parses a substitution block; `s` starts right after `[[`. Returns the number of bytes consumed
/// (including the closing `]]`) and the piece, or None if this `[[` is literal text.
fn parse_subst(s: &str) -> Result<Option<(usize, Piece)>, String> {
    if s.starts_with('#') {
        return Err(
            "numeric substitution blocks ('[[#...]]') are not supported by this FileCheck"
                .to_string(),
        );
    }
    if let Some(r) = s.strip_prefix("@LINE") {
        let Some(end) = r.find("]]") else {
            return Err("invalid substitution block, no ]] found".to_string());
        };
        let expr: String = r[..end].chars().filter(|c| !c.is_whitespace()).collect();
        let off = if expr.is_empty() {
            0
        } else if let Some(n) = expr.strip_prefix('+') {
            n.parse::<i64>()
                .map_err(|_| format!("invalid @LINE expression '@LINE{expr}'"))?
        } else if let Some(n) = expr.strip_prefix('-') {
            -n.parse::<i64>()
                .map_err(|_| format!("invalid @LINE expression '@LINE{expr}'"))?
        } else {
            return Err(format!("invalid @LINE expression '@LINE{expr}'"));
        };
        return Ok(Some(("@LINE".len() + end + 2, Piece::Line(off))));
    }
    let n = var_name_len(s);
    if n == 0 {
        return Ok(None);
    }
    let name = s[..n].to_string();
    let after = &s[n..];
    if after.starts_with("]]") {
        return Ok(Some((n + 2, Piece::Use(name))));
    }
    if let Some(re_src) = after.strip_prefix(':') {
        let Some(end) = find_regex_var_end(re_src)? else {
            return Err("invalid substitution block, no ]] found".to_string());
        };
        let re = re_src[..end].to_string();
        return Ok(Some((n + 1 + end + 2, Piece::Def { name, re })));
    }
    Ok(None)
}

/// Whether `[[` at the start of `s` opens a substitution block.
fn opens_subst(s: &str) -> bool {
    let Some(r) = s.strip_prefix("[[") else {
        return false;
    };
    if r.starts_with('#') || r.starts_with("@LINE") {
        return true;
    }
    let n = var_name_len(r);
    n > 0 && (r[n..].starts_with(':') || r[n..].starts_with("]]"))
}

fn parse_pattern(s: &str, strict: bool) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut lit = String::new();
    let flush = |lit: &mut String, pieces: &mut Vec<Piece>| {
        if !lit.is_empty() {
            let text = if strict {
                std::mem::take(lit)
            } else {
                let c = canonicalize(lit);
                lit.clear();
                c
            };
            pieces.push(Piece::Lit(text));
        }
    };
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        if let Some(r) = rest.strip_prefix("{{") {
            let Some(end) = r.find("}}") else {
                return Err("found start of regex string with no end '}}'".to_string());
            };
            flush(&mut lit, &mut pieces);
            pieces.push(Piece::Re(r[..end].to_string()));
            i += 2 + end + 2;
            continue;
        }
        if opens_subst(rest)
            && let Some((consumed, piece)) = parse_subst(&rest[2..])?
        {
            flush(&mut lit, &mut pieces);
            pieces.push(piece);
            i += 2 + consumed;
            continue;
        }
        let c = rest.chars().next().expect("non-empty");
        lit.push(c);
        i += c.len_utf8();
    }
    flush(&mut lit, &mut pieces);
    Ok(pieces)
}

fn parse_check_file(check_text: &str, opts: &Options) -> Result<Vec<Directive>, CheckFailure> {
    let mut prefixes: Vec<&str> = opts.prefixes.iter().map(String::as_str).collect();
    prefixes.sort_by_key(|p| std::cmp::Reverse(p.len()));
    let keep_blanks = opts.strict_whitespace && opts.match_full_lines;
    let mut out: Vec<Directive> = Vec::new();
    let mut seen_positive = false;
    for (idx, raw_line) in check_text.lines().enumerate() {
        let line_no = idx + 1;
        let text = raw_line.trim().to_string();
        let err = |what: String| fail(line_no, format!("check:{line_no}: error: {what}\n{text}"));
        let Some(found) = find_directive(raw_line, &prefixes).map_err(err)? else {
            continue;
        };
        let name = format!("{}{}", found.prefix, found.kind.suffix());
        let mut pat = found.rest;
        if !keep_blanks {
            pat = pat.trim_matches(|c| c == ' ' || c == '\t');
        }
        if found.kind == Kind::Empty {
            if !pat.is_empty() {
                return Err(err(format!(
                    "found non-empty check string for empty check with prefix '{name}:'"
                )));
            }
        } else if pat.is_empty() {
            return Err(err(format!(
                "found empty check string with prefix '{name}:'"
            )));
        }
        if matches!(found.kind, Kind::Next | Kind::Same | Kind::Empty) && !seen_positive {
            return Err(err(format!(
                "found '{name}' without previous '{}: line",
                found.prefix
            )));
        }
        if !matches!(found.kind, Kind::Not | Kind::Dag) {
            seen_positive = true;
        }
        let pieces = if found.literal {
            let lit = if opts.strict_whitespace {
                pat.to_string()
            } else {
                canonicalize(pat)
            };
            if lit.is_empty() {
                Vec::new()
            } else {
                vec![Piece::Lit(lit)]
            }
        } else {
            parse_pattern(pat, opts.strict_whitespace).map_err(err)?
        };
        out.push(Directive {
            kind: found.kind,
            name,
            line: line_no,
            text,
            pieces,
        });
    }
    Ok(out)
}

/// A positive check (or the implicit end-of-input check when `pos` is None) together with the
/// DAG/NOT directives that precede it.
#[derive(Debug)]
struct CheckString {
    pos: Option<usize>,
    dag_nots: Vec<usize>,
}

fn group_check_strings(dirs: &[Directive]) -> Vec<CheckString> {
    let mut out = Vec::new();
    let mut pending = Vec::new();
    for (i, d) in dirs.iter().enumerate() {
        if matches!(d.kind, Kind::Not | Kind::Dag) {
            pending.push(i);
        } else {
            out.push(CheckString {
                pos: Some(i),
                dag_nots: std::mem::take(&mut pending),
            });
        }
    }
    if !pending.is_empty() {
        out.push(CheckString {
            pos: None,
            dag_nots: pending,
        });
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Matching
// ---------------------------------------------------------------------------------------------

/// A compiled pattern.
struct Compiled {
    re: Regex,
    /// (variable, capture group) for every definition.
    defs: Vec<(String, String)>,
    /// (definition group, use group) pairs that must capture equal text (same-line uses).
    same: Vec<(String, String)>,
}

/// A successful search.
struct Found {
    start: usize,
    end: usize,
    defs: Vec<(String, String)>,
}

struct Matcher<'a> {
    opts: &'a Options,
    dirs: &'a [Directive],
    /// The (canonicalized) input.
    text: String,
    /// Byte offsets of line starts in `text`.
    line_starts: Vec<usize>,
    /// The original input lines, for messages.
    orig_lines: Vec<&'a str>,
    vars: HashMap<String, String>,
    cache: HashMap<String, Regex>,
}

impl<'a> Matcher<'a> {
    fn new(input: &'a str, opts: &'a Options, dirs: &'a [Directive]) -> Self {
        let text = if opts.strict_whitespace {
            input.to_string()
        } else {
            canonicalize(input)
        };
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Self {
            opts,
            dirs,
            text,
            line_starts,
            orig_lines: input.split('\n').collect(),
            vars: HashMap::new(),
            cache: HashMap::new(),
        }
    }

    /// 1-based line number of a byte offset of `text`.
    fn line_of(&self, off: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= off)
    }

    fn line_start(&self, off: usize) -> usize {
        self.line_starts[self.line_of(off) - 1]
    }

    fn run(&mut self, strings: &[CheckString]) -> Result<(), CheckFailure> {
        let dirs = self.dirs;
        let len = self.text.len();
        let e = strings.len();
        let mut i = 0;
        let mut buf_start = 0;
        loop {
            let mut j = i;
            let mut region = (buf_start, len);
            while j < e {
                let is_label = strings[j]
                    .pos
                    .is_some_and(|di| dirs[di].kind == Kind::Label);
                j += 1;
                if is_label {
                    let (_, label_end) =
                        self.check_string(&strings[j - 1], buf_start, len, true)?;
                    region = (buf_start, label_end);
                    buf_start = label_end;
                    break;
                }
            }
            let mut last = region.0;
            for cs in &strings[i..j] {
                last = self.check_string(cs, last, region.1, false)?.1;
            }
            if j == e {
                return Ok(());
            }
            i = j;
        }
    }

    /// Matches one check string (its DAG/NOTs, then the positive pattern) in `[last, end)`.
    /// Returns the positive match range.
    fn check_string(
        &mut self,
        cs: &CheckString,
        last: usize,
        end: usize,
        label_scan: bool,
    ) -> Result<(usize, usize), CheckFailure> {
        let dirs = self.dirs;
        let mut nots = Vec::new();
        let start = if label_scan {
            last
        } else {
            self.check_dag(&cs.dag_nots, last, end, &mut nots)?
        };
        let Some(di) = cs.pos else {
            self.check_nots(&nots, start, end)?;
            return Ok((end, end));
        };
        let d = &dirs[di];
        let (ms, me) = match d.kind {
            Kind::Empty => self
                .find_empty(start, end)
                .ok_or_else(|| self.not_found(d, start, ""))?,
            Kind::Count(n) => {
                let mut first = None;
                let mut pos = start;
                for k in 1..=n {
                    let Some(f) = self.search(d, pos, end)? else {
                        return Err(self.not_found(d, pos, &format!(" ({k} out of {n})")));
                    };
                    first.get_or_insert(f.start);
                    pos = f.end;
                    self.commit(f.defs);
                }
                (first.unwrap_or(start), pos)
            }
            _ => {
                let Some(f) = self.search(d, start, end)? else {
                    return Err(self.not_found(d, start, ""));
                };
                let r = (f.start, f.end);
                self.commit(f.defs);
                r
            }
        };
        if !label_scan {
            let newlines = self.text[start..ms].bytes().filter(|b| *b == b'\n').count();
            let line_err = match d.kind {
                Kind::Next | Kind::Empty if newlines == 0 => {
                    Some(("is on the same line as previous match", "'next'"))
                }
                Kind::Next | Kind::Empty if newlines > 1 => {
                    Some(("is not on the line after the previous match", "'next'"))
                }
                Kind::Same if newlines > 0 => {
                    Some(("is not on the same line as the previous match", "'same'"))
                }
                _ => None,
            };
            if let Some((what, which)) = line_err {
                let msg = self.format_failure(
                    d,
                    what,
                    &[
                        (ms, &format!("{which} match was here")),
                        (start, "previous match ended here"),
                    ],
                );
                return Err(fail(d.line, msg));
            }
            self.check_nots(&nots, start, ms)?;
        }
        Ok((ms, me))
    }

    /// Matches the DAG groups of `list` (NOTs separate groups) starting at `last`; returns the
    /// end of the last group. NOTs after the last group are left in `nots`.
    fn check_dag(
        &mut self,
        list: &[usize],
        last: usize,
        end: usize,
        nots: &mut Vec<usize>,
    ) -> Result<usize, CheckFailure> {
        let dirs = self.dirs;
        let mut start_pos = last;
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for (k, &di) in list.iter().enumerate() {
            let d = &dirs[di];
            if d.kind == Kind::Not {
                nots.push(di);
                continue;
            }
            let mut pos = start_pos;
            loop {
                let Some(f) = self.search(d, pos, end)? else {
                    return Err(self.not_found(d, start_pos, ""));
                };
                if let Some(r) = ranges.iter().find(|r| f.start < r.1 && r.0 < f.end) {
                    pos = r.1;
                    continue;
                }
                ranges.push((f.start, f.end));
                self.commit(f.defs);
                break;
            }
            let group_ends = list
                .get(k + 1)
                .is_none_or(|&next| dirs[next].kind == Kind::Not);
            if group_ends {
                if !nots.is_empty() {
                    let first = ranges.iter().map(|r| r.0).min().unwrap_or(start_pos);
                    self.check_nots(nots, start_pos, first)?;
                    nots.clear();
                }
                start_pos = ranges.iter().map(|r| r.1).max().unwrap_or(start_pos);
                ranges.clear();
            }
        }
        Ok(start_pos)
    }

    /// Fails if any of the NOT patterns matches in `[from, to)`.
    fn check_nots(&mut self, nots: &[usize], from: usize, to: usize) -> Result<(), CheckFailure> {
        let dirs = self.dirs;
        for &di in nots {
            let d = &dirs[di];
            if let Some(f) = self.search(d, from, to)? {
                let msg = self.format_failure(
                    d,
                    "excluded string found in input",
                    &[(f.start, "found here")],
                );
                return Err(fail(d.line, msg));
            }
        }
        Ok(())
    }

    /// Finds an empty line after the line containing `from`: returns the (empty) match at its
    /// start.
    fn find_empty(&self, from: usize, to: usize) -> Option<(usize, usize)> {
        let b = self.text.as_bytes();
        (from..to)
            .find(|&p| b[p] == b'\n' && (p + 1 == to || b[p + 1] == b'\n'))
            .map(|p| (p + 1, p + 1))
    }

    fn commit(&mut self, defs: Vec<(String, String)>) {
        for (name, value) in defs {
            self.vars.insert(name, value);
        }
    }

    fn compile(&mut self, d: &Directive) -> Result<Compiled, CheckFailure> {
        let mut src = String::new();
        let mut local: HashMap<&str, (String, &str)> = HashMap::new();
        let mut defs = Vec::new();
        let mut same = Vec::new();
        let mut undefined = Vec::new();
        for (k, piece) in d.pieces.iter().enumerate() {
            match piece {
                Piece::Lit(s) => src.push_str(&regex::escape(s)),
                Piece::Re(r) => {
                    src.push_str("(?:");
                    src.push_str(r);
                    src.push(')');
                }
                Piece::Def { name, re } => {
                    let g = format!("fcdef{k}");
                    src.push_str(&format!("(?P<{g}>{re})"));
                    local.insert(name, (g.clone(), re));
                    defs.push((name.clone(), g));
                }
                Piece::Use(name) => {
                    if let Some((g, re)) = local.get(name.as_str()) {
                        let u = format!("fcuse{k}");
                        src.push_str(&format!("(?P<{u}>{re})"));
                        same.push((g.clone(), u));
                    } else if let Some(v) = self.vars.get(name) {
                        src.push_str(&regex::escape(v));
                    } else {
                        undefined.push(format!("\"{name}\""));
                    }
                }
                Piece::Line(off) => {
                    src.push_str(&regex::escape(&(d.line as i64 + off).to_string()));
                }
            }
        }
        if !undefined.is_empty() {
            let msg = format!(
                "check:{}: error: {}: uses undefined variable(s): {}\n{}",
                d.line,
                d.name,
                undefined.join(" "),
                d.text
            );
            return Err(fail(d.line, msg));
        }
        if self.opts.match_full_lines && d.kind != Kind::Not {
            src = if self.opts.strict_whitespace {
                format!("^(?:{src})$")
            } else {
                format!("^ *(?:{src}) *$")
            };
        }
        let full = format!("(?m){src}");
        let re = match self.cache.get(&full) {
            Some(re) => re.clone(),
            None => {
                let re = Regex::new(&full).map_err(|e| {
                    fail(
                        d.line,
                        format!(
                            "check:{}: error: {}: invalid regex: {e}\n{}",
                            d.line, d.name, d.text
                        ),
                    )
                })?;
                self.cache.insert(full, re.clone());
                re
            }
        };
        Ok(Compiled { re, defs, same })
    }

    /// Finds the first match of `d` that lies in `[from, to)`, line by line.
    fn search(
        &mut self,
        d: &Directive,
        from: usize,
        to: usize,
    ) -> Result<Option<Found>, CheckFailure> {
        let c = self.compile(d)?;
        let full_lines = self.opts.match_full_lines && !matches!(d.kind, Kind::Not | Kind::Same);
        let text = &self.text;
        let mut pos = from;
        loop {
            let line_end = text[pos..to].find('\n').map_or(to, |i| pos + i);
            let slice_start = if full_lines {
                self.line_start(pos)
            } else {
                pos
            };
            let hay = &text[slice_start..line_end];
            let mut at = pos - slice_start;
            while at <= hay.len() {
                let Some(caps) = c.re.captures_at(hay, at) else {
                    break;
                };
                let m = caps.get(0).expect("group 0");
                let same_ok = c.same.iter().all(|(g, u)| {
                    caps.name(g).map(|x| x.as_str()) == caps.name(u).map(|x| x.as_str())
                });
                if same_ok && slice_start + m.start() >= pos {
                    let defs = c
                        .defs
                        .iter()
                        .map(|(name, g)| {
                            let v = caps.name(g).map_or("", |x| x.as_str());
                            (name.clone(), v.to_string())
                        })
                        .collect();
                    return Ok(Some(Found {
                        start: slice_start + m.start(),
                        end: slice_start + m.end(),
                        defs,
                    }));
                }
                at = m.start() + hay[m.start()..].chars().next().map_or(1, char::len_utf8);
            }
            if line_end >= to {
                return Ok(None);
            }
            pos = line_end + 1;
        }
    }

    fn not_found(&self, d: &Directive, from: usize, extra: &str) -> CheckFailure {
        let what = format!("expected string not found in input{extra}");
        let msg = self.format_failure(d, &what, &[(from, "scanning from here")]);
        fail(d.line, msg)
    }

    fn format_failure(&self, d: &Directive, what: &str, notes: &[(usize, &str)]) -> String {
        let mut msg = format!("check:{}: error: {}: {what}\n{}\n", d.line, d.name, d.text);
        let mut seen = Vec::new();
        for p in &d.pieces {
            if let Piece::Use(name) = p
                && !seen.contains(&name)
            {
                seen.push(name);
                if let Some(v) = self.vars.get(name) {
                    msg.push_str(&format!(
                        "check:{}: note: with \"{name}\" equal to \"{}\"\n",
                        d.line,
                        v.escape_debug()
                    ));
                }
            }
        }
        for (off, note) in notes {
            let ln = self.line_of(*off);
            let line = self.orig_lines.get(ln - 1).copied().unwrap_or("");
            let line = line.strip_suffix('\r').unwrap_or(line);
            msg.push_str(&format!("<stdin>:{ln}: note: {note}\n{line}\n"));
        }
        msg
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(checks: &str, input: &str) -> Result<usize, CheckFailure> {
        check(checks, input, &Options::default())
    }

    fn ok(checks: &str, input: &str) -> usize {
        match run(checks, input) {
            Ok(n) => n,
            Err(e) => panic!("unexpected failure:\n{e}"),
        }
    }

    fn err(checks: &str, input: &str) -> CheckFailure {
        match run(checks, input) {
            Ok(n) => panic!("unexpected success ({n} directives)"),
            Err(e) => e,
        }
    }

    fn opts_strict() -> Options {
        Options {
            strict_whitespace: true,
            ..Options::default()
        }
    }

    #[test]
    fn plain_check_matches_in_order() {
        assert_eq!(ok("// CHECK: foo\n// CHECK: bar\n", "xx foo\nyy bar\n"), 2);
        let e = err("// CHECK: bar\n// CHECK: foo\n", "foo\nbar\n");
        assert_eq!(e.check_line, 2);
        assert!(e.message.contains("expected string not found"), "{e}");
        assert!(e.message.contains("check:2: error: CHECK: "), "{e}");
        assert!(e.message.contains("scanning from here"), "{e}");
        assert_eq!(e.to_string(), e.message);
    }

    #[test]
    fn plain_check_same_line_twice() {
        ok("CHECK: a\nCHECK: b\n", "a b\n");
        err("CHECK: b\nCHECK: a\n", "a b\n");
    }

    #[test]
    fn next_directive() {
        ok(
            "CHECK: one\nCHECK-NEXT: two\nCHECK-NEXT: three\n",
            "one\ntwo\nthree\n",
        );
        let e = err("CHECK: one\nCHECK-NEXT: three\n", "one\ntwo\nthree\n");
        assert_eq!(e.check_line, 2);
        assert!(
            e.message
                .contains("is not on the line after the previous match"),
            "{e}"
        );
        assert!(
            e.message.contains("<stdin>:3: note: 'next' match was here"),
            "{e}"
        );
        assert!(
            e.message
                .contains("<stdin>:1: note: previous match ended here"),
            "{e}"
        );
        let e = err("CHECK: one\nCHECK-NEXT: two\n", "one two\ntwo\n");
        assert!(
            e.message.contains("is on the same line as previous match"),
            "{e}"
        );
        let e = err("CHECK: one\nCHECK-NEXT: four\n", "one\ntwo\n");
        assert!(e.message.contains("expected string not found"), "{e}");
    }

    #[test]
    fn next_without_previous_check_is_error() {
        let e = err("CHECK-NEXT: foo\n", "foo\n");
        assert!(e.message.contains("without previous 'CHECK: line"), "{e}");
        let e = err("CHECK-SAME: foo\n", "foo\n");
        assert!(e.message.contains("without previous"), "{e}");
    }

    #[test]
    fn same_directive() {
        ok("CHECK: a\nCHECK-SAME: b\nCHECK-SAME: c\n", "a b c\n");
        let e = err("CHECK: a\nCHECK-SAME: b\n", "a\nb\n");
        assert_eq!(e.check_line, 2);
        assert!(
            e.message
                .contains("is not on the same line as the previous match"),
            "{e}"
        );
        // SAME must come after the previous match on the line.
        err("CHECK: b\nCHECK-SAME: a\n", "a b\n");
    }

    #[test]
    fn empty_directive() {
        ok("CHECK: a\nCHECK-EMPTY:\nCHECK-NEXT: b\n", "a\n\nb\n");
        ok(
            "CHECK: a\nCHECK-EMPTY:\nCHECK-EMPTY:\nCHECK: b\n",
            "a\n\n\nb\n",
        );
        let e = err("CHECK: a\nCHECK-EMPTY:\n", "a\nb\n\n");
        assert!(
            e.message
                .contains("CHECK-EMPTY: is not on the line after the previous match"),
            "{e}"
        );
        let e = err("CHECK: a\nCHECK-EMPTY:\n", "a\nb\nc");
        assert!(e.message.contains("expected string not found"), "{e}");
        let e = err("CHECK: a\nCHECK-EMPTY: x\n", "a\n\n");
        assert!(e.message.contains("non-empty check string"), "{e}");
    }

    #[test]
    fn not_directive() {
        ok("CHECK: a\nCHECK-NOT: x\nCHECK: b\n", "a\ny\nb\nx\n");
        let e = err("CHECK: a\nCHECK-NOT: x\nCHECK: b\n", "a\nx\nb\n");
        assert_eq!(e.check_line, 2);
        assert!(
            e.message
                .contains("CHECK-NOT: excluded string found in input"),
            "{e}"
        );
        assert!(e.message.contains("<stdin>:2: note: found here"), "{e}");
        // A NOT before anything covers the start of the input.
        err("CHECK-NOT: x\nCHECK: b\n", "x\nb\n");
        ok("CHECK-NOT: x\nCHECK: b\n", "b\nx\n");
        // Trailing NOTs cover up to the end of the input.
        err("CHECK: b\nCHECK-NOT: x\n", "b\nx\n");
        ok("CHECK: b\nCHECK-NOT: x\n", "x\nb\n");
        // Only-NOT check file.
        assert_eq!(ok("CHECK-NOT: error\n", "all good\n"), 1);
        err("CHECK-NOT: error\n", "an error\n");
    }

    #[test]
    fn not_is_checked_after_positive_match_on_same_line() {
        ok("CHECK: a\nCHECK-NOT: c\nCHECK-SAME: b\n", "a b c\n");
        err("CHECK: a\nCHECK-NOT: c\nCHECK-SAME: b\n", "a c b\n");
    }

    #[test]
    fn dag_directive_any_order() {
        let checks = "CHECK: start\nCHECK-DAG: x\nCHECK-DAG: y\nCHECK-DAG: z\nCHECK: end\n";
        ok(checks, "start\nz\nx\ny\nend\n");
        ok(checks, "start\ny\nz\nx\nend\n");
        let e = err(checks, "start\ny\nz\nend\n");
        assert_eq!(e.check_line, 2);
        assert!(
            e.message.contains("CHECK-DAG: expected string not found"),
            "{e}"
        );
        // A DAG match after the next positive pattern makes that pattern fail.
        let e = err(checks, "start\ny\nz\nend\nx\n");
        assert_eq!(e.check_line, 5);
        // The positive check after the group searches from the group's max end.
        err(checks, "start\nx\nend\ny\nz\n");
    }

    #[test]
    fn dag_matches_do_not_overlap() {
        ok("CHECK-DAG: foo\nCHECK-DAG: foo\n", "foo\nfoo\n");
        err("CHECK-DAG: foo\nCHECK-DAG: foo\n", "foo\n");
        ok("CHECK-DAG: a\nCHECK-DAG: a b\n", "a\na b\n");
    }

    #[test]
    fn dag_groups_separated_by_not() {
        let checks = "CHECK-DAG: alpha\nCHECK-DAG: beta\nCHECK-NOT: bad\nCHECK-DAG: gamma\nCHECK-DAG: delta\n";
        ok(checks, "beta\nalpha\ndelta\ngamma\n");
        ok(checks, "bad\nbeta\nalpha\ndelta\ngamma\nbad\n");
        let e = err(checks, "beta\nalpha\nbad\ndelta\ngamma\n");
        assert_eq!(e.check_line, 3);
        assert!(e.message.contains("CHECK-NOT: excluded string"), "{e}");
        // The second group must come after the first.
        let e = err(checks, "gamma\nbeta\nalpha\ndelta\n");
        assert_eq!(e.check_line, 4);
    }

    #[test]
    fn dag_defines_variables() {
        ok(
            "CHECK-DAG: def [[A:[a-z]+]]\nCHECK-DAG: def [[B:[0-9]+]]\nCHECK: use [[A]] [[B]]\n",
            "def 42\ndef xy\nuse xy 42\n",
        );
    }

    #[test]
    fn count_directive() {
        ok("CHECK-COUNT-3: op\nCHECK: end\n", "op\nop op\nend\n");
        let e = err("CHECK-COUNT-3: op\n", "op\nop\n");
        assert!(
            e.message
                .contains("CHECK-COUNT-3: expected string not found"),
            "{e}"
        );
        assert!(e.message.contains("(3 out of 3)"), "{e}");
        let e = err("CHECK-COUNT-0: op\n", "op\n");
        assert!(e.message.contains("invalid count"), "{e}");
        ok("CHECK-COUNT-1: op\n", "op\n");
    }

    #[test]
    fn label_blocks_isolate_checks() {
        let checks = "CHECK-LABEL: func @a\nCHECK: ret1\nCHECK-LABEL: func @b\nCHECK: ret2\n";
        ok(checks, "func @a\nret1\nfunc @b\nret2\n");
        // ret1 only exists in @b's block: it must not be found across the label.
        let e = err(checks, "func @a\nfunc @b\nret1\nret2\n");
        assert_eq!(e.check_line, 2);
        assert!(e.message.contains("expected string not found"), "{e}");
        // A failing label is reported.
        let e = err(checks, "func @a\nret1\nfunc @c\nret2\n");
        assert_eq!(e.check_line, 3);
        assert!(
            e.message.contains("CHECK-LABEL: expected string not found"),
            "{e}"
        );
        // Checks of a later block cannot match in an earlier block.
        err(checks, "func @a\nret1\nret2\nfunc @b\n");
    }

    #[test]
    fn label_block_not_and_dag() {
        let checks = "CHECK-LABEL: @a\nCHECK-NOT: bad\nCHECK-LABEL: @b\nCHECK-DAG: y\nCHECK-DAG: x\nCHECK-LABEL: @c\n";
        ok(checks, "@a\nfine\n@b\nx\ny\n@c\nbad\n");
        err(checks, "@a\nbad\n@b\nx\ny\n@c\n");
        err(checks, "@a\n@b\nx\n@c\ny\n");
    }

    #[test]
    fn variables_define_and_use() {
        ok(
            "CHECK: %[[V:.*]] = add\nCHECK: use %[[V]]\n",
            "%x7 = add\nuse %x7\n",
        );
        let e = err(
            "CHECK: %[[V:.*]] = add\nCHECK: use %[[V]]\n",
            "%x7 = add\nuse %x8\n",
        );
        assert!(e.message.contains("with \"V\" equal to \"x7\""), "{e}");
        // Redefinition takes the new value.
        ok(
            "CHECK: [[V:[0-9]+]]\nCHECK: [[V:[a-z]+]]\nCHECK: =[[V]]\n",
            "1\nab\n=ab\n",
        );
        // Undefined variable.
        let e = err("CHECK: [[NOPE]]\n", "x\n");
        assert!(e.message.contains("undefined variable"), "{e}");
        // Variables persist across label blocks (no --enable-var-scope).
        ok(
            "CHECK-LABEL: f1\nCHECK: [[G:g[0-9]]]\nCHECK-LABEL: f2\nCHECK: [[G]]\n",
            "f1\ng3\nf2\ng3\n",
        );
    }

    #[test]
    fn variables_same_line_use() {
        ok("CHECK: [[X:[a-z]+]] + [[X]]\n", "ab + cd\nqq + qq\n");
        err("CHECK: [[X:[a-z]+]] + [[X]]\n", "ab + cd\n");
        ok("CHECK: %[[X:.+]] = {{.*}} %[[X]]\n", "%a = op %a\n");
        // Use before the same-line redefinition takes the old value.
        ok(
            "CHECK: [[X:[0-9]]]\nCHECK: [[X]] [[X:[a-z]]] [[X]]\n",
            "5\n5 q q\n",
        );
    }

    #[test]
    fn regex_blocks() {
        ok("CHECK: v{{[0-9]+}} = x\n", "v123 = x\n");
        err("CHECK: v{{[0-9]+}} = x\n", "vab = x\n");
        ok(
            "CHECK: %{{.*}} = constant <i8: 127>\n",
            "%c127_i8 = constant <i8: 127>\n",
        );
        ok("CHECK: a{{.*}}b\n", "ab\n");
        // Regexes do not span lines.
        err("CHECK: a{{.*}}b\n", "a\nb\n");
        // Literal regex metacharacters are escaped.
        ok("CHECK: a.b(c)*\n", "a.b(c)*\n");
        err("CHECK: a.b\n", "axb\n");
        let e = err("CHECK: {{[}}\n", "x\n");
        assert!(e.message.contains("invalid regex"), "{e}");
        let e = err("CHECK: {{abc\n", "x\n");
        assert!(e.message.contains("no end '}}'"), "{e}");
    }

    #[test]
    fn bracket_literal_after_regex() {
        let checks = "// CHECK: %[[c_tensor:.*]] = constant <f32: {{\\[}}[1.000000e+00, 2.000000e+00], [4.000000e+00, 5.000000e+00]]> : tile<2x2xf32>\n\
                      // CHECK: use %[[c_tensor]]\n";
        ok(
            checks,
            "%cst_2 = constant <f32: [[1.000000e+00, 2.000000e+00], [4.000000e+00, 5.000000e+00]]> : tile<2x2xf32>\nuse %cst_2\n",
        );
        ok(
            "// CHECK: %{{.*}} = constant <i8: {{\\[}}1, 2, 3, 4{{\\]}}> : tile<4xi8>\n",
            "  %0 = constant <i8: [1, 2, 3, 4]> : tile<4xi8>\n",
        );
        // `[[` not followed by a variable name is literal text.
        ok("CHECK: x = [[1, 2]]\n", "x = [[1, 2]]\n");
        ok(
            "CHECK: x\nCHECK-SAME: tensor_view<?x2xf32, strides=[1,?]>\n",
            "x tensor_view<?x2xf32, strides=[1,?]>\n",
        );
    }

    #[test]
    fn variable_regex_with_brackets() {
        ok("CHECK: [[X:[a-z]]]!\nCHECK: [[X]]?\n", "q!\nq?\n");
        ok("CHECK: [[X:a[\\]]b]]\nCHECK: <[[X]]>\n", "a]b\n<a]b>\n");
        let e = err("CHECK: [[X:a]b]]\n", "a]b\n");
        assert!(e.message.contains("missing closing"), "{e}");
        let pieces = parse_pattern("%[[X:.*]] = [[Y:[0-9]+]]", false).unwrap();
        assert_eq!(
            pieces,
            vec![
                Piece::Lit("%".into()),
                Piece::Def {
                    name: "X".into(),
                    re: ".*".into()
                },
                Piece::Lit(" = ".into()),
                Piece::Def {
                    name: "Y".into(),
                    re: "[0-9]+".into()
                },
            ]
        );
    }

    #[test]
    fn numeric_substitution_unsupported() {
        let e = err("CHECK: [[#VAR]]\n", "1\n");
        assert!(e.message.contains("not supported"), "{e}");
        assert_eq!(e.check_line, 1);
    }

    #[test]
    fn line_pseudo_variable() {
        ok(
            "\nCHECK: line [[@LINE]]\nCHECK: next [[@LINE+1]] prev [[@LINE-2]]\n",
            "line 2\nnext 4 prev 1\n",
        );
    }

    #[test]
    fn literal_modifier() {
        ok("CHECK{LITERAL}: [[x]] {{y}}\n", "[[x]] {{y}}\n");
        ok("CHECK: a\nCHECK-NEXT{LITERAL}: {{b}}\n", "a\n{{b}}\n");
    }

    #[test]
    fn whitespace_canonicalization() {
        ok("CHECK: a b   c\n", "a  \t b c\n");
        ok("CHECK:    padded pattern   \n", "x padded pattern y\n");
        // Non-strict: a blank still requires at least one blank.
        err("CHECK: a b\n", "ab\n");
        // Strict mode compares blanks exactly.
        assert!(check("CHECK: a b\n", "a  b\n", &opts_strict()).is_err());
        assert!(check("CHECK: a  b\n", "a  b\n", &opts_strict()).is_ok());
        assert!(check("CHECK: a\tb\n", "a\tb\n", &opts_strict()).is_ok());
        // Regex parts are left alone.
        ok("CHECK: a{{ }}b\n", "a   b\n");
    }

    #[test]
    fn match_full_lines() {
        let o = Options {
            match_full_lines: true,
            ..Options::default()
        };
        assert!(check("CHECK: foo bar\n", "  foo bar  \n", &o).is_ok());
        assert!(check("CHECK: foo\n", "foo bar\n", &o).is_err());
        assert!(check("CHECK: bar\n", "foo bar\n", &o).is_err());
        assert!(check("CHECK: a\nCHECK-NEXT: b\n", "a\nb\n", &o).is_ok());
        // NOT is not subject to full-line matching.
        assert!(check("CHECK-NOT: x\nCHECK: a\n", "yxy\na\n", &o).is_err());
        // Strict + full lines: blanks count.
        let s = Options {
            match_full_lines: true,
            strict_whitespace: true,
            ..Options::default()
        };
        assert!(check("CHECK:foo\n", "foo\n", &s).is_ok());
        assert!(check("CHECK:foo\n", " foo\n", &s).is_err());
    }

    #[test]
    fn disabled_lines_are_not_directives() {
        let checks = "// CHECK-LABEL (DISABLED): testing$func @x\n\
                      // CHECK (DISABLED): nothing\n\
                      //    // CHECK-SAME (DISABLED): partition_view<tile=()>\n\
                      // CHECK: real\n";
        assert_eq!(ok(checks, "real\n"), 1);
    }

    #[test]
    fn prefix_must_not_be_part_of_a_word() {
        assert_eq!(ok("MYCHECK: nope\nX-CHECK: no\nCHECK: yes\n", "yes\n"), 1);
        assert_eq!(ok("// CHECKS: nope\nfoo;CHECK: yes\n", "yes\n"), 1);
    }

    #[test]
    fn multiple_prefixes() {
        let o = Options {
            prefixes: vec!["CHECK".into(), "CHECK-FOO".into()],
            ..Options::default()
        };
        assert_eq!(
            check("CHECK: a\nCHECK-FOO-NEXT: b\n", "a\nb\n", &o).unwrap(),
            2
        );
        let e = check("CHECK: a\nCHECK-FOO-NEXT: b\n", "a\n\nb\n", &o).unwrap_err();
        assert!(
            e.message
                .contains("CHECK-FOO-NEXT: is not on the line after"),
            "{e}"
        );
        let o = Options {
            prefixes: vec!["A".into()],
            ..Options::default()
        };
        assert_eq!(check("CHECK: x\nA: y\n", "y\n", &o).unwrap(), 1);
        let bad = Options {
            prefixes: vec!["1X".into()],
            ..Options::default()
        };
        assert!(check("1X: y\n", "y\n", &bad).is_err());
    }

    #[test]
    fn empty_check_is_error() {
        let e = err("CHECK: a\n// CHECK:   \n", "a\n");
        assert_eq!(e.check_line, 2);
        assert!(
            e.message
                .contains("found empty check string with prefix 'CHECK:'"),
            "{e}"
        );
        let e = err("CHECK-NEXT:\n", "a\n");
        assert!(e.message.contains("empty check string"), "{e}");
    }

    #[test]
    fn no_directives_is_error() {
        let e = err("// RUN: foo\n// nothing here\n", "a\n");
        assert_eq!(e.check_line, 0);
        assert!(
            e.message
                .contains("no check strings found with prefix 'CHECK:'"),
            "{e}"
        );
        let o = Options {
            prefixes: vec!["A".into(), "B".into()],
            ..Options::default()
        };
        let e = check("CHECK: x\n", "x\n", &o).unwrap_err();
        assert!(e.message.contains("prefixes 'A:', 'B:'"), "{e}");
    }

    #[test]
    fn directive_found_mid_line_and_multibyte_text() {
        ok(
            "  %0 = op  // CHECK: héllo → [[V:w.rld]]\nCHECK: [[V]]\n",
            "héllo → wörld\nwörld\n",
        );
    }

    #[test]
    fn failure_message_reports_input_line() {
        let e = err("CHECK: a\nCHECK-NEXT: zzz\n", "a\nfirst line\nsecond\n");
        assert!(
            e.message.starts_with(
                "check:2: error: CHECK-NEXT: expected string not found in input\nCHECK-NEXT: zzz\n"
            ),
            "{e}"
        );
        assert!(
            e.message
                .contains("<stdin>:1: note: scanning from here\na\n"),
            "{e}"
        );
    }

    #[test]
    fn next_after_label() {
        ok(
            "CHECK-LABEL: func @f(\nCHECK-NEXT: (%{{.+}}: tile<f32>, %{{.+}}: tile<f32>) {\n",
            "func @f(\n(%a: tile<f32>, %b: tile<f32>) {\n",
        );
    }

    const CONFORMANCE: &str = "/work/shared/conformance/cuda-tile-13.1";

    #[test]
    fn conformance_types_mlir() {
        let path = format!("{CONFORMANCE}/types.mlir");
        let checks = std::fs::read_to_string(&path).expect("read types.mlir");
        let pv = |extra: &str| {
            format!("partition_view<tile=(2), {extra}tensor_view<16xf32, strides=[1]>>")
        };
        let pv2 = "partition_view<tile=(2x2), tensor_view<16x16xf32, strides=[16,1]>>";
        let func = |name: &str, args: &[String]| {
            let args: Vec<String> = args
                .iter()
                .enumerate()
                .map(|(i, t)| format!("%arg{i}: {t}"))
                .collect();
            format!(
                "  testing$func @{name}({}) {{\n    return\n  }}\n",
                args.join(", ")
            )
        };
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let mut out = String::from("cuda_tile.module @kernels {\n");
        out += &func("test_ptr_types", &s(&["ptr<i1>"]));
        out += &func("test_tile_types", &s(&["tile<2xf32>", "tile<f32>"]));
        out += &func(
            "test_tensor_view_types",
            &s(&[
                "tensor_view<f32>",
                "tensor_view<2xf32, strides=[1]>",
                "tensor_view<?x2xf32, strides=[1,?]>",
                "tensor_view<?x?xf32, strides=[?,?]>",
                "tensor_view<4x?xf32, strides=[5,?]>",
                "tensor_view<4x?xf32, strides=[5,?]>",
                "tensor_view<f32>",
            ]),
        );
        let pvs = vec![
            pv(""),
            pv("padding_value = zero, "),
            pv("padding_value = nan, "),
            pv("padding_value = neg_zero, "),
            pv("padding_value = pos_inf, "),
            pv("padding_value = neg_inf, "),
            pv(""),
            pv2.to_string(),
            pv2.to_string(),
            "partition_view<tile=(2x2), tensor_view<16x16xf32, strides=[16,1]>, dim_map=[1, 0]>"
                .to_string(),
        ];
        out += &func("test_tile_partition_view_types", &pvs);
        out += "}\n";
        // 4 labels + 1 + 2 + 7 + 10 SAMEs.
        assert_eq!(check(&checks, &out, &Options::default()).unwrap(), 24);

        // A type printed on the next line instead breaks the CHECK-SAME chain.
        let broken = out.replace(", %arg1: tile<f32>", ",\n %arg1: tile<f32>");
        let e = check(&checks, &broken, &Options::default()).unwrap_err();
        assert!(
            e.message.contains("CHECK-SAME: is not on the same line"),
            "{e}"
        );
        // A wrong type is caught within its label block.
        let wrong = out.replace("ptr<i1>", "ptr<i8>");
        let e = check(&checks, &wrong, &Options::default()).unwrap_err();
        assert_eq!(e.check_line, 7, "{e}");
    }

    #[test]
    fn conformance_check_files_parse() {
        let Ok(entries) = std::fs::read_dir(CONFORMANCE) else {
            return;
        };
        let mut parsed = 0;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "mlir") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let dirs = parse_check_file(&text, &Options::default())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            // Every pattern compiles to a valid regex (with placeholder variable values).
            let opts = Options::default();
            let mut m = Matcher::new("", &opts, &dirs);
            for d in &dirs {
                for p in &d.pieces {
                    if let Piece::Def { name, .. } | Piece::Use(name) = p {
                        m.vars.insert(name.clone(), "v".into());
                    }
                }
                m.compile(d)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            }
            parsed += 1;
        }
        assert!(parsed > 0);
    }
}
