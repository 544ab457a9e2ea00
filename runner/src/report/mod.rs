//! Reports from result rows: one file per format behind [`Exporter`].

pub mod article;

use crate::record::Row;

/// A report format.
pub trait Exporter {
    /// Render the rows.
    fn render(&self, rows: &[Row]) -> anyhow::Result<String>;
}
