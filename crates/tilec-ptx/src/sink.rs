//! The small interface through which code generators write PTX: fresh virtual registers,
//! fresh labels, and instruction lines.

/// The PTX register classes tilec declares (`.reg .pred %p<N>`, `.reg .b16 %rs<N>`, ...).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegClass {
    /// `.pred`, prefix `%p`.
    Pred,
    /// `.b16`, prefix `%rs` (i8, i16, f16, bf16 values).
    B16,
    /// `.b32`, prefix `%r` (i32 values, packed pairs of 16-bit values).
    B32,
    /// `.b64`, prefix `%rd` (i64 values, pointers).
    B64,
    /// `.f32`, prefix `%f`.
    F32,
    /// `.f64`, prefix `%fd`.
    F64,
}

impl RegClass {
    /// Every class, in declaration order.
    pub const ALL: [RegClass; 6] = [
        RegClass::Pred,
        RegClass::B16,
        RegClass::B32,
        RegClass::B64,
        RegClass::F32,
        RegClass::F64,
    ];

    /// The register name prefix.
    pub fn prefix(self) -> &'static str {
        match self {
            RegClass::Pred => "%p",
            RegClass::B16 => "%rs",
            RegClass::B32 => "%r",
            RegClass::B64 => "%rd",
            RegClass::F32 => "%f",
            RegClass::F64 => "%fd",
        }
    }

    /// The PTX type used in the `.reg` declaration.
    pub fn decl(self) -> &'static str {
        match self {
            RegClass::Pred => ".pred",
            RegClass::B16 => ".b16",
            RegClass::B32 => ".b32",
            RegClass::B64 => ".b64",
            RegClass::F32 => ".f32",
            RegClass::F64 => ".f64",
        }
    }
}

/// Where generated instructions go.
pub trait Sink {
    /// A fresh virtual register of the class, e.g. `%f12`.
    fn reg(&mut self, class: RegClass) -> String;
    /// A fresh label name, e.g. `$L__7` (without the colon).
    fn label(&mut self) -> String;
    /// One line of the function body: an instruction with its `;`
    /// (`add.f32 %f1, %f2, %f3;`, optionally predicated `@%p1 bra $L__2;`) or a label
    /// definition (`$L__2:`). No indentation, no newline.
    fn line(&mut self, text: String);
}

/// A sink that records lines and counts registers; used by tests and by the math library's
/// standalone checks.
#[derive(Debug, Default, Clone)]
pub struct VecSink {
    /// Lines in order.
    pub lines: Vec<String>,
    /// Registers handed out per class, indexed by `RegClass as usize`.
    pub counts: [u32; 6],
    /// Labels handed out.
    pub labels: u32,
}

impl Sink for VecSink {
    fn reg(&mut self, class: RegClass) -> String {
        let n = &mut self.counts[class as usize];
        *n += 1;
        format!("{}{}", class.prefix(), *n)
    }

    fn label(&mut self) -> String {
        self.labels += 1;
        format!("$L__{}", self.labels)
    }

    fn line(&mut self, text: String) {
        self.lines.push(text);
    }
}

impl VecSink {
    /// The `.reg` declarations for everything handed out, one line per class used.
    pub fn declarations(&self) -> Vec<String> {
        RegClass::ALL
            .iter()
            .filter(|c| self.counts[**c as usize] > 0)
            .map(|c| {
                format!(
                    ".reg {} {}<{}>;",
                    c.decl(),
                    c.prefix(),
                    self.counts[*c as usize] + 1
                )
            })
            .collect()
    }
}
