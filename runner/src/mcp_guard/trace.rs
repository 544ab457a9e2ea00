//! `--trace FILE`: one JSON line per `guard` call, like the command guards'
//! `$FAILOPEN_TRACE` (the count of lines is the count of calls).

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use rmcp::model::JsonObject;

/// Where the calls are recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    path: PathBuf,
}

impl Trace {
    /// Record into `path` (created on the first call, appended to after).
    pub fn new(path: impl Into<PathBuf>) -> Trace {
        Trace { path: path.into() }
    }

    /// The file the calls go to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append the call's arguments as one line (`null` when the call had none).
    /// The line is written with one `write` on an `O_APPEND` file, so lines
    /// from calls running at once do not interleave.
    pub fn record(&self, arguments: Option<&JsonObject>) -> io::Result<()> {
        let mut line = match arguments {
            Some(args) => serde_json::to_string(args)?,
            None => "null".to_string(),
        };
        line.push('\n');
        let mut file = OpenOptions::new().create(true).append(true).open(&self.path)?;
        file.write_all(line.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_call_appends_one_line_of_its_arguments() {
        let dir = tempfile::tempdir().unwrap();
        let trace = Trace::new(dir.path().join("trace.jsonl"));
        let args = json!({"tool_name": "Bash", "tool_input": {"command": "printf 'a\\nb'"}});
        trace.record(args.as_object()).unwrap();
        trace.record(None).unwrap();
        let text = std::fs::read_to_string(trace.path()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(serde_json::from_str::<serde_json::Value>(lines[0]).unwrap(), args);
        assert_eq!(lines[1], "null");
    }

    #[test]
    fn an_unwritable_trace_is_an_error() {
        let trace = Trace::new("/nonexistent-dir-failopen/trace.jsonl");
        assert!(trace.record(None).is_err());
    }
}
