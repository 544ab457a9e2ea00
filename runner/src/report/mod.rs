//! Reports from result rows: one file per format behind [`Exporter`], all
//! drawn from the shared model in [`grid`] (which groups
//! [`crate::tally::Tally`]s by version, guard and wrapper).
//!
//! - [`article::ArticleTable`]: the article's table (what `failopen run` prints).
//! - [`markdown::Markdown`]: article tables, guard × wrapper grids, and a
//!   cross-version comparison that marks the cells whose verdict differs.
//! - [`json::Json`], [`csv::SummaryCsv`]: machine-readable summaries.
//! - [`svg::Svg`], [`html::Html`]: self-contained pictures of the grids.
//! - [`timeline`]: many versions along one axis, arms along the other, and
//!   the versions where an arm's verdict changed ([`timeline::TimelineSvg`],
//!   [`timeline::TimelineHtml`] with filters, [`timeline::TimelineMarkdown`]:
//!   what changed when). Its own model, [`timeline::Timeline`], orders arms
//!   as [`grid`] orders rows.
//! - [`site::Site`]: the findings as a static site, a folder of pages (the
//!   one format that is not one file: see [`Exporter::export`]).

pub mod article;
pub mod csv;
pub mod fail_open;
pub mod fragment_filter;
pub mod grid;
pub mod html;
pub mod json;
pub mod markdown;
pub mod site;
pub mod svg;
pub mod timeline;

use crate::record::Row;

/// A report format.
pub trait Exporter {
    /// Render the rows (for the site: its front page alone).
    fn render(&self, rows: &[Row]) -> anyhow::Result<String>;

    /// The report as it is written out: one text for every format but the
    /// site, which is a folder of pages.
    fn export(&self, rows: &[Row]) -> anyhow::Result<Output> {
        self.render(rows).map(Output::Text)
    }
}

/// What an [`Exporter`] writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// One text: a file, or stdout.
    Text(String),
    /// A folder of files, each by its path inside the folder (`/`-separated).
    Folder(Vec<Page>),
}

/// One file of a folder [`Output`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The path inside the folder, `/`-separated (`claude-code/2.1.328.html`).
    pub path: String,
    /// The file's text.
    pub text: String,
}

/// The text every format uses to explain the verdict words.
pub const LEGEND: [(&str, &str); 4] = [
    ("blocked", "every run refused the write, with evidence"),
    ("wrote", "the file was written (a refusing guard failed open)"),
    ("invalid", "the run cannot say (its reason is shown)"),
    ("mixed", "the runs disagree (b = blocked, w = wrote, i = invalid)"),
];
