//! `failopen report`: render result CSVs in one format (one exporter per
//! format, behind [`failopen::report::Exporter`]).

use failopen::report::{csv, html, json, markdown, svg, timeline, Exporter};

use super::args::{FormatArg, ReportArgs};
use super::output::{check_out, emit};
use super::ExitCode;

fn exporter(format: FormatArg) -> Box<dyn Exporter> {
    match format {
        FormatArg::Md => Box::new(markdown::Markdown),
        FormatArg::Json => Box::new(json::Json),
        FormatArg::Csv => Box::new(csv::SummaryCsv),
        FormatArg::Svg => Box::new(svg::Svg),
        FormatArg::Html => Box::new(html::Html),
        FormatArg::TimelineSvg => Box::new(timeline::TimelineSvg),
        FormatArg::TimelineHtml => Box::new(timeline::TimelineHtml),
        FormatArg::TimelineMd => Box::new(timeline::TimelineMarkdown),
    }
}

/// The error with its cause chain on one line (`file: cause`).
pub fn flat(e: impl std::error::Error + Send + Sync + 'static) -> anyhow::Error {
    anyhow::anyhow!("{:#}", anyhow::Error::new(e))
}

/// `failopen report`: render the files' rows in one format.
pub fn main(args: ReportArgs) -> anyhow::Result<ExitCode> {
    if let Some(out) = &args.out {
        check_out(out, false)?;
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
    Ok(ExitCode::Success)
}
