//! The timeline: many Claude Code versions side by side, one row per arm
//! (a "cell" of the grid reports), and the versions where an arm's verdict
//! changed. [`model`] builds the [`Timeline`] from rows.

pub mod model;

#[cfg(test)]
mod tests;

pub use model::{ChangePoint, Timeline};
