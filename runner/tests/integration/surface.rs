//! Where guards live and which calls they see (arms/surface.json, issue 16):
//! every arm's expected verdict, with its reasoning beside it in the file,
//! checked live on the pinned version; 2.1.240 is checked in the reference
//! run (results/claude-2.1.240.csv, `results::reference_csvs_give_every_arms_expectation_on_both_versions`).

use crate::support::{expectations_hold, PINNED};

#[test]
fn surface_expectations_hold_on_the_pinned_version() {
    expectations_hold("surface.json", PINNED);
}
