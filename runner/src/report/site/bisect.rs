//! The bisect files of a results folder (`bisect-*.txt`): what `failopen
//! bisect` printed (or a manual bisect's notes), kept whole. Each answers for
//! one arm, named on its answer line: `first version whose <arm> verdict ...`.

/// One bisect file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bisect {
    /// The file's name (`bisect-crash-native.txt`).
    pub file: String,
    /// The arm it bisected (`crash/native`).
    pub arm: String,
    /// Its answer line (`first version whose crash/native verdict differs
    /// from 2.1.240: 2.1.295 (last with the good verdict: 2.1.294)`).
    pub answer: String,
    /// The whole text.
    pub text: String,
}

/// What an answer line starts with.
const ANSWER: &str = "first version whose ";

impl Bisect {
    /// Read a bisect file's text; `file` names it in the error when no line
    /// says which arm and version it found.
    pub fn parse(file: &str, text: &str) -> anyhow::Result<Bisect> {
        let line = text.lines().rev().find(|l| l.starts_with(ANSWER)).ok_or_else(|| {
            anyhow::anyhow!("{file}: no answer line (`{ANSWER}<arm> verdict ...`): not a bisect's output")
        })?;
        let arm = line[ANSWER.len()..].split_whitespace().next().unwrap_or_default();
        if arm.is_empty() {
            anyhow::bail!("{file}: the answer line names no arm: {line}");
        }
        Ok(Bisect { file: file.to_string(), arm: arm.to_string(), answer: line.to_string(), text: text.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_line_names_the_arm() {
        let text = "bisect crash/native: 76 published versions\nstep 1: 2.1.240: wrote [wrote]\n\n\
                    first version whose crash/native verdict differs from 2.1.240: 2.1.295 (last with the good verdict: 2.1.294)\n";
        let b = Bisect::parse("bisect-crash-native.txt", text).unwrap();
        assert_eq!(b.arm, "crash/native");
        assert!(b.answer.ends_with("2.1.295 (last with the good verdict: 2.1.294)"));
        assert_eq!(b.text, text);
        let manual =
            "manual bisect\nfirst version whose perm-deny/bare@PermissionRequest verdict is blocked: 2.1.268\n";
        assert_eq!(Bisect::parse("m.txt", manual).unwrap().arm, "perm-deny/bare@PermissionRequest");
        let err = Bisect::parse("bisect-x.txt", "notes\n").unwrap_err().to_string();
        assert!(err.starts_with("bisect-x.txt: no answer line"), "{err}");
    }
}
