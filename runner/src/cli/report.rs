//! `failopen report`: render result CSVs in one format (one exporter per
//! format, behind [`failopen::report::Exporter`]); `--format site` renders a
//! results folder as a folder of pages.

use failopen::record::Row;
use failopen::report::{csv, html, json, markdown, site, svg, timeline, Exporter, Output};

use super::args::{FormatArg, ReportArgs};
use super::output::{check_out, emit, write_folder};
use super::ExitCode;

fn exporter(format: FormatArg, site: Option<site::Site>) -> Box<dyn Exporter> {
    match format {
        FormatArg::Md => Box::new(markdown::Markdown),
        FormatArg::Json => Box::new(json::Json),
        FormatArg::Csv => Box::new(csv::SummaryCsv),
        FormatArg::Svg => Box::new(svg::Svg),
        FormatArg::Html => Box::new(html::Html),
        FormatArg::TimelineSvg => Box::new(timeline::TimelineSvg),
        FormatArg::TimelineHtml => Box::new(timeline::TimelineHtml),
        FormatArg::TimelineMd => Box::new(timeline::TimelineMarkdown),
        FormatArg::Site => Box::new(site.unwrap_or_default()),
    }
}

/// The format as the command line spells it.
fn name(format: FormatArg) -> String {
    clap::ValueEnum::to_possible_value(&format).map(|v| v.get_name().to_string()).unwrap_or_default()
}

/// The error with its cause chain on one line (`file: cause`).
pub fn flat(e: impl std::error::Error + Send + Sync + 'static) -> anyhow::Error {
    anyhow::anyhow!("{:#}", anyhow::Error::new(e))
}

/// The rows to render, and for the site its other inputs: the site reads one
/// results folder, every other format the CSVs given.
fn inputs(args: &ReportArgs) -> anyhow::Result<(Vec<Row>, Option<site::Site>)> {
    if args.format == FormatArg::Site {
        let [dir] = args.files.as_slice() else {
            anyhow::bail!("--format site reads one results folder (such as results), not {} paths", args.files.len());
        };
        let (rows, site) = site::input::read(dir)?;
        return Ok((rows, Some(site)));
    }
    if args.files.is_empty() {
        anyhow::bail!("give the result CSVs to report on (failopen report FILE.csv... --format {})", name(args.format));
    }
    let mut rows = Vec::new();
    for f in &args.files {
        rows.extend(failopen::record::read_rows(f).map_err(flat)?);
    }
    Ok((rows, None))
}

/// `failopen report`: render the files' rows in one format.
pub fn main(args: ReportArgs) -> anyhow::Result<ExitCode> {
    if let Some(out) = &args.out {
        check_out(out, false)?;
    } else if args.format == FormatArg::Site {
        anyhow::bail!("--format site writes a folder of pages: give it with --out DIR");
    }
    let (rows, site) = inputs(&args)?;
    match (exporter(args.format, site).export(&rows)?, args.out) {
        (Output::Folder(pages), Some(dir)) => write_folder(&dir, &pages)?,
        (Output::Folder(_), None) => {
            anyhow::bail!("--format {:?} writes a folder: give it with --out DIR", args.format)
        }
        (Output::Text(text), Some(path)) => {
            std::fs::write(&path, text).map_err(|e| anyhow::anyhow!("--out {}: {e}", path.display()))?
        }
        (Output::Text(text), None) => emit(&text)?,
    }
    Ok(ExitCode::Success)
}
