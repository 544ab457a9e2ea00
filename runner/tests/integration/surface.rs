//! Where guards live and which calls they see (arms/surface.json, issue 16):
//! every arm's expected verdict, with its reasoning beside it in the file,
//! checked on both versions.

use crate::support::{expectations_hold, OLD, PINNED};

#[test]
fn surface_expectations_hold_on_the_pinned_version() {
    expectations_hold("surface.json", PINNED);
}

#[test]
fn surface_expectations_hold_on_2_1_240() {
    expectations_hold("surface.json", OLD);
}
