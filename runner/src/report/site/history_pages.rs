//! The history's two pages: the timeline (the `timeline-html` format's own
//! page, under the site's navigation) and the ledger of every release it
//! ran (`history-versions.csv`: the binary, what ran it, its sessions).

use std::fmt::Write;

use super::page::page;
use super::{paths, Model};
use crate::report::svg::esc;
use crate::report::timeline::html;

/// The timeline page.
pub fn timeline(m: &Model) -> anyhow::Result<String> {
    html::page(&m.timeline, &super::page::nav(paths::TIMELINE))
}

/// The ledger page: one row per release, oldest first.
pub fn versions(m: &Model) -> String {
    let mut s = String::from("<h1>Every release the history ran</h1>\n");
    let ledger = &m.site.ledger;
    if ledger.is_empty() {
        s.push_str("<p>No ledger was recorded.</p>\n");
        return page(paths::VERSIONS, "Every release", &s);
    }
    let mut entries: Vec<_> = ledger.iter().collect();
    entries.sort_by(|a, b| crate::version::compare(&a.version, &b.version));
    let distinct: std::collections::HashSet<&str> = entries.iter().map(|e| e.binary_sha256.as_str()).collect();
    let _ = writeln!(
        s,
        "<p>{} releases, {} distinct binaries (SHA-256 of the file the agent's command resolves to). \
         A release whose binary is identical to an earlier one's was not run: its verdicts are that release's.</p>",
        entries.len(),
        distinct.len()
    );
    s.push_str(
        "<table class=\"rows\" id=\"ledger\"><thead><tr><th>version</th><th>runtime</th><th>binary bytes</th>\
         <th>SHA-256</th><th>identical to</th><th>sessions</th><th>invalid</th><th>run seconds</th></tr></thead>\n<tbody>\n",
    );
    for e in entries {
        let _ = writeln!(
            s,
            "<tr data-version=\"{0}\"><td>{0}</td><td>{1}</td><td>{2}</td><td><code>{3}</code></td><td>{4}</td>\
             <td>{5}</td><td>{6}</td><td>{7}</td></tr>",
            esc(&e.version),
            esc(&e.runtime),
            e.binary_bytes,
            esc(&e.binary_sha256),
            esc(&e.identical_to),
            e.sessions,
            e.invalid,
            e.run_secs
        );
    }
    s.push_str("</tbody></table>\n");
    page(paths::VERSIONS, "Every release", &s)
}
