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

pub mod article;
pub mod csv;
pub mod grid;
pub mod html;
pub mod json;
pub mod markdown;
pub mod svg;
pub mod timeline;

use crate::record::Row;

/// A report format.
pub trait Exporter {
    /// Render the rows.
    fn render(&self, rows: &[Row]) -> anyhow::Result<String>;
}

/// The text every format uses to explain the verdict words.
pub const LEGEND: [(&str, &str); 4] = [
    ("blocked", "every run refused the write, with evidence"),
    ("wrote", "the file was written (a refusing guard failed open)"),
    ("invalid", "the run cannot say (its reason is shown)"),
    ("mixed", "the runs disagree (b = blocked, w = wrote, i = invalid)"),
];
