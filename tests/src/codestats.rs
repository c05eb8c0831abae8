//! Static counts of a kernel's memory traffic and tensor-core work, read from tilec's PTX
//! and from the SASS of any cubin (`cuobjdump -sass`, `cuobjdump -res-usage`), so that
//! tilec's code and tileiras' code for the same kernel can be set side by side
//! (`cargo xtask bench-ptx`, tests/code_stats.rs).
//!
//! These are counts of instructions in the program text, not of executions: an access in
//! a loop counts once. The byte figures weigh each static global access by its width, so
//! "share of global bytes moved by 128-bit accesses" says how the code is written, not how
//! many bytes a launch moves.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// `bits:n` pairs of a histogram by access width (`"16:4 128:2"`; `-` when empty).
pub fn width_list<T: std::fmt::Display>(h: &BTreeMap<u32, T>) -> String {
    if h.is_empty() {
        return "-".into();
    }
    h.iter()
        .map(|(w, n)| match w {
            0 => format!("tma:{n}"),
            1 => format!("tma-store:{n}"),
            w => format!("{w}:{n}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The share (0 to 1) of the bytes moved by 128-bit accesses or the copy engine (width 0
/// for its loads, 1 for its stores),
/// from bytes by access width; `None` when nothing moved.
pub fn share_128_of_bytes(bytes: &BTreeMap<u32, u64>) -> Option<f64> {
    let all: u64 = bytes.values().sum();
    let wide = [128, 0, 1]
        .iter()
        .map(|w| bytes.get(w).copied().unwrap_or(0))
        .sum::<u64>();
    (all > 0).then(|| wide as f64 / all as f64)
}

/// Bytes by access width from instruction counts by width.
fn bytes_of_counts(counts: &BTreeMap<u32, u32>) -> BTreeMap<u32, u64> {
    counts
        .iter()
        .map(|(bits, n)| (*bits, u64::from(*bits / 8) * u64::from(*n)))
        .collect()
}

/// Static counts of one PTX entry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PtxCounts {
    /// The entry's name.
    pub name: String,
    /// Global loads and stores (`ld/st.*.global*`, any ordering) by access width in bits
    /// (8, 16, 32, 64, 128), and `cp.async` copies by copy size in bits.
    pub global: BTreeMap<u32, u32>,
    /// `cp.async` copies (global to shared), any size.
    pub cp_async: u32,
    /// Shared-memory loads (`ld.shared`), any width.
    pub ld_shared: u32,
    /// Shared-memory stores (`st.shared`), any width.
    pub st_shared: u32,
    /// `ldmatrix` instructions.
    pub ldmatrix: u32,
    /// `stmatrix` instructions.
    pub stmatrix: u32,
    /// Tensor-core instructions (`mma.sync`, `wgmma.mma_async`).
    pub mma: u32,
    /// Global atomics and reductions (`atom.global`, `red.global`).
    pub atomics: u32,
}

impl PtxCounts {
    /// Bytes of the static global accesses (the sum of their widths).
    pub fn global_bytes(&self) -> u64 {
        bytes_of_counts(&self.global).values().sum()
    }

    /// The share (0 to 1) of [`Self::global_bytes`] moved by 128-bit accesses; `None` for a
    /// kernel without global loads or stores.
    pub fn share_128(&self) -> Option<f64> {
        share_128_of_bytes(&bytes_of_counts(&self.global))
    }

    /// The global accesses by width, `w:count` separated by spaces (`"16:4 128:2"`).
    pub fn widths(&self) -> String {
        width_list(&self.global)
    }
}

/// Bytes of one element of a PTX type suffix (`f32`, `b16`, `u8`, ...).
fn type_bytes(t: &str) -> Option<u32> {
    let bits: u32 = t.get(1..)?.parse().ok()?;
    matches!(t.as_bytes().first(), Some(b'b' | b'f' | b'u' | b's'))
        .then_some(bits / 8)
        .filter(|b| [1, 2, 4, 8, 16].contains(b))
}

/// Width in bits of an `ld`/`st` opcode (`ld.global.v4.f32` is 128); `None` when its type
/// cannot be read.
fn access_bits(parts: &[&str]) -> Option<u32> {
    let elem = type_bytes(parts.last()?)?;
    let lanes = parts
        .iter()
        .find_map(|p| p.strip_prefix('v').and_then(|n| n.parse::<u32>().ok()))
        .unwrap_or(1);
    Some(elem * lanes * 8)
}

/// The opcode of one PTX instruction line (predicate guard and label removed), or `None`
/// for a line that is not an instruction.
fn ptx_opcode(line: &str) -> Option<&str> {
    let mut l = line.trim_start();
    if l.starts_with("//") || l.starts_with('.') || l.is_empty() {
        return None;
    }
    if l.starts_with('@') {
        l = l.split_once(char::is_whitespace)?.1.trim_start();
    }
    let op = l.split(|c: char| c.is_whitespace() || c == ';').next()?;
    (!op.is_empty() && !op.ends_with(':')).then_some(op)
}

/// The static counts of every `.entry` of a PTX module, in order.
pub fn ptx_counts(ptx: &str) -> Vec<PtxCounts> {
    let mut out: Vec<PtxCounts> = Vec::new();
    for line in ptx.lines() {
        if let Some(i) = line.find(".entry ") {
            let name = line[i + 7..]
                .split(|c: char| c == '(' || c.is_whitespace())
                .next()
                .unwrap_or_default();
            out.push(PtxCounts {
                name: name.to_string(),
                ..PtxCounts::default()
            });
            continue;
        }
        let (Some(k), Some(op)) = (out.last_mut(), ptx_opcode(line)) else {
            continue;
        };
        let parts: Vec<&str> = op.split('.').collect();
        match parts[0] {
            "ld" | "st" if parts.contains(&"global") => {
                if let Some(bits) = access_bits(&parts) {
                    *k.global.entry(bits).or_insert(0) += 1;
                }
            }
            "ld" if parts.contains(&"shared") => k.ld_shared += 1,
            "st" if parts.contains(&"shared") => k.st_shared += 1,
            "cp" if parts.get(1) == Some(&"async") && parts.contains(&"global") => {
                k.cp_async += 1;
                // `cp.async.ca.shared.global [dst], [src], SIZE[, SRC_SIZE];`
                let size = line
                    .split(',')
                    .nth(2)
                    .and_then(|s| s.trim().trim_end_matches(';').trim().parse::<u32>().ok());
                if let Some(size) = size {
                    *k.global.entry(size * 8).or_insert(0) += 1;
                }
            }
            "ldmatrix" => k.ldmatrix += 1,
            "stmatrix" => k.stmatrix += 1,
            "mma" | "wgmma" if parts.contains(&"sync") || parts.contains(&"mma_async") => {
                k.mma += 1
            }
            "atom" | "red" if parts.contains(&"global") => k.atomics += 1,
            _ => {}
        }
    }
    out
}

/// Static counts of one function of a cubin's SASS.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SassCounts {
    /// The function's name.
    pub name: String,
    /// Global loads, stores and asynchronous copies (`LDG`, `STG`, `LDGSTS`) by width in
    /// bits.
    pub global: BTreeMap<u32, u32>,
    /// `LDGSTS` (cp.async) instructions.
    pub ldgsts: u32,
    /// `LDSM` (ldmatrix) instructions.
    pub ldsm: u32,
    /// Tensor-core instructions (`HMMA`, `IMMA`, `HGMMA`, `IGMMA`, `QGMMA`, ...).
    pub mma: u32,
    /// Tensor memory accelerator copies (`UTMALDG`, `UTMASTG`, ...).
    pub tma: u32,
    /// Instructions, `NOP`s left out.
    pub instructions: u32,
    /// Registers per thread (`cuobjdump -res-usage`).
    pub registers: u32,
    /// Local memory bytes per thread (spills and local arrays).
    pub local: u32,
    /// Shared memory bytes (static, as the cubin records it).
    pub shared: u32,
}

impl SassCounts {
    /// The share (0 to 1) of the static global bytes moved by 128-bit instructions.
    pub fn share_128(&self) -> Option<f64> {
        share_128_of_bytes(&bytes_of_counts(&self.global))
    }
}

/// Width in bits of a SASS global memory opcode's modifiers (`LDG.E.128`, `STG.E.U16`,
/// `LDGSTS.E.BYPASS.128.ZFILL`); 32 when no width is named.
fn sass_bits(mods: &[&str]) -> u32 {
    for m in mods {
        match *m {
            "128" => return 128,
            "64" => return 64,
            "U16" | "S16" => return 16,
            "U8" | "S8" => return 8,
            _ => {}
        }
    }
    32
}

/// The static counts of every function in `cuobjdump -sass` output, with the registers,
/// local and shared memory of `cuobjdump -res-usage` output merged in by name.
pub fn sass_counts(sass: &str, res_usage: &str) -> Vec<SassCounts> {
    let mut out: Vec<SassCounts> = Vec::new();
    for line in sass.lines() {
        if let Some(i) = line.find("Function : ") {
            out.push(SassCounts {
                name: line[i + 11..].trim().to_string(),
                ..SassCounts::default()
            });
            continue;
        }
        let Some(k) = out.last_mut() else { continue };
        // `        /*0770*/   @!P0 LDGSTS.E.64.ZFILL [R7], desc[UR12][R12.64], P3 ;`
        let l = line.trim_start();
        let Some(rest) = l.strip_prefix("/*") else {
            continue;
        };
        let Some((addr, rest)) = rest.split_once("*/") else {
            continue;
        };
        if !addr.chars().all(|c| c.is_ascii_hexdigit()) {
            continue;
        }
        let mut words = rest.split_whitespace();
        let mut op = words.next().unwrap_or_default();
        if op.starts_with('@') {
            op = words.next().unwrap_or_default();
        }
        if op.is_empty() || op == "NOP" {
            continue;
        }
        k.instructions += 1;
        let parts: Vec<&str> = op.split('.').collect();
        match parts[0] {
            "LDG" | "STG" => *k.global.entry(sass_bits(&parts[1..])).or_insert(0) += 1,
            "LDGSTS" => {
                k.ldgsts += 1;
                *k.global.entry(sass_bits(&parts[1..])).or_insert(0) += 1;
            }
            "LDSM" => k.ldsm += 1,
            "HMMA" | "IMMA" | "DMMA" | "HGMMA" | "IGMMA" | "QGMMA" | "OMMA" | "UTCHMMA"
            | "UTCQMMA" | "UTCIMMA" | "UTCOMMA" => k.mma += 1,
            o if o.starts_with("UTMA") => k.tma += 1,
            _ => {}
        }
    }
    // ` Function NAME:` then `  REG:96 STACK:0 SHARED:33792 LOCAL:0 ...`
    let mut current: Option<String> = None;
    for line in res_usage.lines() {
        let t = line.trim();
        if let Some(name) = t
            .strip_prefix("Function ")
            .and_then(|n| n.strip_suffix(':'))
        {
            current = Some(name.to_string());
            continue;
        }
        let Some(name) = &current else { continue };
        let Some(k) = out.iter_mut().find(|k| &k.name == name) else {
            continue;
        };
        for field in t.split_whitespace() {
            let Some((key, value)) = field.split_once(':') else {
                continue;
            };
            let Ok(value) = value.parse::<u32>() else {
                continue;
            };
            match key {
                "REG" => k.registers = value,
                "LOCAL" => k.local = value,
                "SHARED" => k.shared = value,
                _ => {}
            }
        }
        current = None;
    }
    out
}

/// Runs `cuobjdump -sass` and `cuobjdump -res-usage` on `cubin` (with `nvdisasm`, which
/// `-sass` needs, looked for beside `cuobjdump` and on `PATH`) and counts each function.
pub fn sass_of_cubin(cuobjdump: &Path, cubin: &Path) -> Result<Vec<SassCounts>, String> {
    let run = |flag: &str| -> Result<String, String> {
        let mut cmd = Command::new(cuobjdump);
        cmd.arg(flag).arg(cubin);
        if let Some(dir) = cuobjdump.parent() {
            let path = std::env::var_os("PATH").unwrap_or_default();
            let mut dirs = vec![dir.to_path_buf()];
            dirs.extend(std::env::split_paths(&path));
            if let Ok(joined) = std::env::join_paths(dirs) {
                cmd.env("PATH", joined);
            }
        }
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run {}: {e}", cuobjdump.display()))?;
        if !out.status.success() {
            return Err(format!(
                "cuobjdump {flag} {}: {}",
                cubin.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    Ok(sass_counts(&run("-sass")?, &run("-res-usage")?))
}
