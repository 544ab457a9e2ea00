//! The timeline: many Claude Code versions side by side, one row per arm
//! (a "cell" of the grid reports), and the versions where an arm's verdict
//! changed. One file per job: [`model`] builds the [`Timeline`] from rows;
//! [`svg::TimelineSvg`], [`html::TimelineHtml`] and
//! [`markdown::TimelineMarkdown`] draw it.

pub mod html;
pub mod markdown;
pub mod model;
pub mod svg;

#[cfg(test)]
mod tests;

pub use html::TimelineHtml;
pub use markdown::TimelineMarkdown;
pub use model::{ChangePoint, Timeline};
pub use svg::TimelineSvg;

/// How the formats write a change: `wrote → blocked`.
pub fn change_text(c: &ChangePoint) -> String {
    format!("{} → {}", c.from, c.to)
}
