//! One agent version's grid: a row per guard (the grid's row label), a
//! column per wrapper, each cell its tally and a link to its evidence.
//!
//! Every cell is `<td data-arm data-guard data-wrapper data-hook-type
//! data-event data-source data-route data-verdict>` (event, source and route
//! from the arm's set file; `unknown` for an arm failopen does not ship). The
//! selects filter by each of them, read from and written to the URL fragment
//! (`#event=UserPromptSubmit&verdict=wrote`): a cell that does not match gets
//! the `hidden` attribute (its place kept), a row with no matching cell is
//! `hidden`, a wrapper column with none is folded away.

use std::fmt::Write;

use super::page::{a, legend, page};
use super::{paths, Model};
use crate::report::fragment_filter;
use crate::report::grid::{ArmTally, Grid};
use crate::report::svg::esc;

/// The facets a cell is filtered by: (URL fragment key, label).
pub const FACETS: [(&str, &str); 7] = [
    ("guard", "guard"),
    ("wrapper", "wrapper"),
    ("hook_type", "hook type"),
    ("event", "event"),
    ("source", "source"),
    ("route", "route"),
    ("verdict", "verdict"),
];

/// A cell's value for each of [`FACETS`].
pub fn facets(m: &Model, g: &Grid, a: &ArmTally) -> [String; 7] {
    let known = m.site.catalog.get(&a.arm);
    let axis = |f: fn(&crate::arms::Arm) -> &'static str| known.map(|k| f(&k.arm)).unwrap_or("unknown").to_string();
    let hook_type = m.sessions(g, &a.arm).first().map(|r| r.hook_type().to_string()).unwrap_or_default();
    [
        a.guard.clone(),
        a.wrapper.clone(),
        hook_type,
        axis(|k| k.event.as_str()),
        axis(|k| k.source.as_str()),
        axis(|k| k.route.as_str()),
        a.tally.summary().as_str().to_string(),
    ]
}

/// The attribute of a facet: `data-hook-type` for `hook_type`.
pub fn attribute(key: &str) -> String {
    format!("data-{}", key.replace('_', "-"))
}

const SCRIPT: &str = r##"(function () {
  "use strict";
  var table = document.getElementById("grid");
  var FACETS = JSON.parse(table.getAttribute("data-facets"));
  var selects = FACETS.map(function (f) { return document.getElementById("f-" + f); });
  var attrs = FACETS.map(function (f) { return "data-" + f.replace(/_/g, "-"); });
  var cells = Array.prototype.slice.call(table.querySelectorAll("td[data-arm]"));
  function matches(td) {
    return selects.every(function (s, i) { return !s.value || td.getAttribute(attrs[i]) === s.value; });
  }
  function apply() {
    var shown = 0, columns = {};
    cells.forEach(function (td) {
      var ok = matches(td);
      td.hidden = !ok;
      if (ok) { shown += 1; columns[td.getAttribute("data-wrapper")] = true; }
    });
    Array.prototype.forEach.call(table.tBodies[0].rows, function (tr) {
      tr.hidden = !tr.querySelector("td[data-arm]:not([hidden])");
    });
    Array.prototype.forEach.call(table.querySelectorAll("[data-column]"), function (e) {
      e.classList.toggle("off", !columns[e.getAttribute("data-column")]);
    });
    document.getElementById("shown").textContent = "showing " + shown + " of " + cells.length + " cells";
  }
  fragmentFilter(FACETS, selects, apply);
})();
"##;

fn filters(values: &[Vec<String>], s: &mut String) {
    s.push_str("<div class=\"filters\">");
    for ((key, label), values) in FACETS.iter().zip(values) {
        let _ = write!(s, "<label>{label} <select id=\"f-{key}\"><option value=\"\">all</option>");
        for v in values {
            let _ = write!(s, "<option value=\"{0}\">{0}</option>", esc(v));
        }
        s.push_str("</select></label>");
    }
    s.push_str("<span id=\"shown\"></span></div>\n");
}

fn cell(g: &Grid, at: &str, arm: &ArmTally, values: &[String; 7]) -> String {
    let verdict = arm.tally.summary().as_str();
    let mut td =
        format!("<td class=\"v {verdict}\" data-column=\"{}\" data-arm=\"{}\"", esc(&arm.wrapper), esc(&arm.arm));
    for ((key, _), v) in FACETS.iter().zip(values) {
        let _ = write!(td, " {}=\"{}\"", attribute(key), esc(v));
    }
    let reasons = arm.tally.reasons_text().map(|r| format!("<small>{}</small>", esc(&r))).unwrap_or_default();
    let href = paths::link(at, &Model::cell_path(g, arm));
    let _ = write!(td, " title=\"{}\">{}{reasons}</td>", esc(&arm.arm), a(&href, &arm.tally.headline()));
    td
}

/// The grid page of `g`.
pub fn render(m: &Model, g: &Grid) -> String {
    let at = paths::grid(g.agent, &g.agent_version, g.mode);
    let title = Model::title(g);
    let mut s = format!("<h1>{}: guard × wrapper</h1>\n", esc(&title));
    let others: Vec<String> = m
        .report
        .versions
        .iter()
        .filter(|o| o.agent == g.agent && !std::ptr::eq(*o, g))
        .map(|o| a(&paths::link(&at, &paths::grid(o.agent, &o.agent_version, o.mode)), &Model::title(o)))
        .collect();
    let _ = writeln!(
        s,
        "<p>{} cells, one per arm; each opens to its evidence. {}</p>",
        g.arms.len(),
        if others.is_empty() { String::new() } else { format!("Other versions: {}.", others.join(", ")) }
    );
    let cells: Vec<(&ArmTally, [String; 7])> = g.arms.iter().map(|arm| (arm, facets(m, g, arm))).collect();
    let mut values: Vec<Vec<String>> = vec![Vec::new(); FACETS.len()];
    for (_, v) in &cells {
        for (list, value) in values.iter_mut().zip(v) {
            if !list.contains(value) {
                list.push(value.clone());
            }
        }
    }
    filters(&values, &mut s);
    let keys: Vec<&str> = FACETS.iter().map(|(k, _)| *k).collect();
    let _ = write!(
        s,
        "<div class=\"scroll\"><table id=\"grid\" data-facets=\"{}\">\n<thead><tr><th>guard</th>",
        esc(&serde_json::json!(keys).to_string())
    );
    for w in &g.wrappers {
        let _ = write!(s, "<th data-column=\"{0}\">{0}</th>", esc(w));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for row in &g.rows {
        let _ = write!(s, "<tr data-row=\"{0}\"><th><code>{0}</code></th>", esc(row));
        for w in &g.wrappers {
            match cells.iter().find(|(arm, _)| &arm.row == row && &arm.wrapper == w) {
                Some((arm, v)) => s.push_str(&cell(g, &at, arm, v)),
                None => {
                    let _ = write!(s, "<td class=\"v notrun\" data-column=\"{}\">—</td>", esc(w));
                }
            }
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></div>\n<h2>Legend</h2>\n");
    s.push_str(&legend());
    let _ = writeln!(s, "<script>\n{}{SCRIPT}</script>", fragment_filter::SCRIPT);
    page(&at, &title, &s)
}
