//! `failopen report`, `diff` and `merge`: arguments to library calls.

use std::io::Write;
use std::path::Path;

use failopen::report::{csv, html, json, markdown, svg, Exporter};

use crate::cli::{DiffArgs, FormatArg, MergeArgs, ReportArgs};

fn exporter(format: FormatArg) -> Box<dyn Exporter> {
    match format {
        FormatArg::Md => Box::new(markdown::Markdown),
        FormatArg::Json => Box::new(json::Json),
        FormatArg::Csv => Box::new(csv::SummaryCsv),
        FormatArg::Svg => Box::new(svg::Svg),
        FormatArg::Html => Box::new(html::Html),
    }
}

/// Refuse an `--out` whose directory is missing, before any work.
fn check_out(out: &Path) -> anyhow::Result<()> {
    let dir = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if out.file_name().is_none() {
        anyhow::bail!("--out {}: not a file path", out.display());
    }
    if !dir.is_dir() {
        anyhow::bail!("--out {}: directory {} does not exist", out.display(), dir.display());
    }
    Ok(())
}

/// The error with its cause chain on one line (`file: cause`).
fn flat(e: impl std::error::Error + Send + Sync + 'static) -> anyhow::Error {
    anyhow::anyhow!("{:#}", anyhow::Error::new(e))
}

/// Write to stdout; a closed pipe (`| head`) is not an error.
fn emit(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(anyhow::anyhow!("writing to stdout: {e}")),
        _ => Ok(()),
    }
}

/// `failopen report`: render the files' rows in one format.
pub fn report(args: ReportArgs) -> anyhow::Result<i32> {
    if let Some(out) = &args.out {
        check_out(out)?;
    }
    let mut rows = Vec::new();
    for f in &args.files {
        rows.extend(failopen::record::read_rows(f).map_err(flat)?);
    }
    let text = exporter(args.format).render(&rows)?;
    match args.out {
        Some(path) => std::fs::write(&path, text).map_err(|e| anyhow::anyhow!("--out {}: {e}", path.display()))?,
        None => emit(&text)?,
    }
    Ok(0)
}

/// Exit 0 unchanged, 3 a guard opened, 4 another change; errors exit 1.
pub fn diff(args: DiffArgs) -> anyhow::Result<i32> {
    let d = failopen::diff::diff_files(&args.old, &args.new).map_err(flat)?;
    emit(&d.to_string())?;
    Ok(d.exit_code())
}

/// `failopen merge`: concatenate result files into `--out`.
pub fn merge(args: MergeArgs) -> anyhow::Result<i32> {
    let m = failopen::merge::merge(&args.files, &args.out).map_err(flat)?;
    eprintln!("merged {} rows from {} files into {}", m.rows, m.files, m.out.display());
    Ok(0)
}
