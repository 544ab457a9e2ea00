//! HTML timeline: a self-contained page (inline CSS and JS, no network).
//! The timeline's data is embedded as JSON in
//! `<script type="application/json" id="timeline-data">`, and the page's
//! script draws the table from it: a row per arm (`data-arm`, `data-guard`,
//! `data-wrapper`, `data-hook-type`), a cell per version (`data-arm`,
//! `data-version`, `data-verdict`, `data-change="1"` at a change point).
//! The table scrolls with the arm column sticky; three selects filter the
//! rows by guard, wrapper and hook type, read from and written to the URL
//! fragment (`#guard=crash&wrapper=native&hook_type=command`); filtered-out
//! rows get the `hidden` attribute. The list of change points and the
//! identical-binary versions are written into the page as well.

use std::collections::HashMap;
use std::fmt::Write;

use serde_json::{json, Map, Value};

use super::change_text;
use super::model::Timeline;
use crate::record::Row;
use crate::report::svg::{esc, fill, NOT_RUN_FILL};
use crate::report::{fragment_filter, Exporter, LEGEND};
use crate::tally::Summary;

/// The HTML timeline.
#[derive(Debug, Default)]
pub struct TimelineHtml;

/// The filters' selects: (id, label), in [`Timeline::facets`]' order. The
/// script's `FACETS` pair each id with its URL fragment key and row attribute.
const FILTERS: [(&str, &str); 3] = [("f-guard", "guard"), ("f-wrapper", "wrapper"), ("f-hook-type", "hook type")];

impl Exporter for TimelineHtml {
    fn render(&self, rows: &[Row]) -> anyhow::Result<String> {
        render(&Timeline::from_rows(rows))
    }
}

/// The timeline as the JSON the page's script draws: `versions` (version,
/// identical_to) and `arms` (arm, guard, wrapper, hook_type, and `cells`,
/// one per version: null where not run, else verdict, label, and when
/// they apply identical_to and change {from_version, from, to}).
pub fn data(t: &Timeline) -> Value {
    let versions: Vec<Value> =
        t.versions.iter().map(|c| json!({"version": c.version, "identical_to": c.identical_to})).collect();
    let arms: Vec<Value> = t
        .arms
        .iter()
        .enumerate()
        .map(|(a, arm)| {
            let cells: Vec<Value> = (0..t.versions.len())
                .map(|v| {
                    let Some(e) = t.entry(a, v) else { return Value::Null };
                    let mut cell = Map::new();
                    cell.insert("verdict".into(), e.summary.as_str().into());
                    cell.insert("label".into(), e.tally.label().into());
                    if let Some(x) = &e.identical_to {
                        cell.insert("identical_to".into(), x.as_str().into());
                    }
                    if let Some(c) = t.change(a, v) {
                        cell.insert(
                            "change".into(),
                            json!({"from_version": c.from_version, "from": c.from, "to": c.to}),
                        );
                    }
                    Value::Object(cell)
                })
                .collect();
            json!({
                "arm": arm.name,
                "guard": arm.guard,
                "wrapper": arm.wrapper,
                "hook_type": arm.hook_type,
                "cells": cells,
            })
        })
        .collect();
    json!({"versions": versions, "arms": arms})
}

/// JSON that is safe inside a `<script>` element: no `<`, `>` or `&`
/// (escaped as `\u003c` and so on, which JSON reads back the same), so a
/// `</script>` in a name cannot end the element.
pub fn script_json(v: &Value) -> anyhow::Result<String> {
    Ok(serde_json::to_string(v)?.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026"))
}

fn style() -> String {
    let mut css = String::from(
        "body{font-family:DejaVu Sans,Verdana,Arial,sans-serif;margin:2em;color:#111}\
         .filters{margin:1em 0}.filters label{margin-right:1.5em}#shown{color:#444}\
         .scroll{overflow:auto;max-height:80vh;border:1px solid #ddd}\
         #timeline{border-collapse:separate;border-spacing:1px}\
         #timeline thead th{position:sticky;top:0;background:#fff;z-index:2}\
         #timeline th.arm{position:sticky;left:0;background:#fff;z-index:1;text-align:right;\
         padding:0 8px;font-weight:normal;white-space:nowrap;font-size:12px}\
         #timeline thead th.arm{z-index:3;vertical-align:bottom}\
         #timeline th.v{vertical-align:bottom;font-weight:normal;font-size:11px;padding:2px 0}\
         #timeline th.v span{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap}\
         #timeline th.v.identical{color:#888}\
         #timeline td{width:14px;min-width:14px;height:14px;padding:0;font-size:9px;line-height:14px;\
         text-align:center}",
    );
    let _ = write!(css, "td.notrun{{background-color:{NOT_RUN_FILL}}}");
    for s in [Summary::Blocked, Summary::Wrote, Summary::Invalid, Summary::Mixed] {
        let _ = write!(css, "td.{}{{background-color:{}}}", s.as_str(), fill(s));
    }
    css.push_str(
        "td.identical{opacity:.5;background-image:repeating-linear-gradient(45deg,rgba(0,0,0,.4) 0 1px,\
         transparent 1px 4px)}\
         td.change{outline:2px solid #111;outline-offset:-1px;font-weight:bold}\
         table.legend{border-spacing:3px}table.legend td{padding:2px 8px}table.legend td:first-child{min-width:3em}",
    );
    css
}

/// The page's script: draw the table from the JSON, then filter it (after
/// [`fragment_filter::SCRIPT`]).
const SCRIPT: &str = r##"(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("timeline-data").textContent);
  var table = document.getElementById("timeline");
  var FACETS = [["guard", "f-guard", "data-guard"], ["wrapper", "f-wrapper", "data-wrapper"],
                ["hook_type", "f-hook-type", "data-hook-type"]];
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  var thead = el("thead", {}), head = el("tr", {});
  head.appendChild(el("th", {"class": "arm"}, "cell \\ version"));
  data.versions.forEach(function (c) {
    var th = el("th", {"class": c.identical_to ? "v identical" : "v", "data-version": c.version,
      "title": c.identical_to ? c.version + ": not run, identical binary of " + c.identical_to : c.version});
    th.appendChild(el("span", {}, c.identical_to ? c.version + " = " + c.identical_to : c.version));
    head.appendChild(th);
  });
  thead.appendChild(head);
  table.appendChild(thead);
  var tbody = el("tbody", {});
  data.arms.forEach(function (a) {
    var tr = el("tr", {"data-arm": a.arm, "data-guard": a.guard, "data-wrapper": a.wrapper,
      "data-hook-type": a.hook_type});
    tr.appendChild(el("th", {"class": "arm", "title": a.guard + " · " + a.wrapper + " · " + a.hook_type}, a.arm));
    a.cells.forEach(function (c, i) {
      var version = data.versions[i].version;
      var attrs = {"data-arm": a.arm, "data-version": version};
      if (!c) {
        attrs["class"] = "notrun";
        attrs.title = a.arm + " on " + version + ": not run";
        tr.appendChild(el("td", attrs));
        return;
      }
      var cls = c.verdict, title = a.arm + " on " + version + ": " + c.label, mark;
      attrs["data-verdict"] = c.verdict;
      if (c.identical_to) {
        cls += " identical";
        attrs["data-identical-to"] = c.identical_to;
        title += "\nnot run: identical binary of " + c.identical_to + ", verdict copied";
      }
      if (c.change) {
        cls += " change";
        attrs["data-change"] = "1";
        title += "\nchanged at " + version + ": " + c.change.from + " \u2192 " + c.change.to +
          " (after " + c.change.from_version + ")";
        mark = "\u25c6";
      }
      attrs["class"] = cls;
      attrs.title = title;
      tr.appendChild(el("td", attrs, mark));
    });
    tbody.appendChild(tr);
  });
  table.appendChild(tbody);

  var selects = FACETS.map(function (f) { return document.getElementById(f[1]); });
  function matches(node) {
    return FACETS.every(function (f, i) { return !selects[i].value || node.getAttribute(f[2]) === selects[i].value; });
  }
  function apply() {
    var shown = 0;
    Array.prototype.forEach.call(tbody.rows, function (tr) {
      var ok = matches(tr);
      tr.hidden = !ok;
      if (ok) { shown += 1; }
    });
    Array.prototype.forEach.call(document.querySelectorAll("#changes li"), function (li) { li.hidden = !matches(li); });
    document.getElementById("shown").textContent = "showing " + shown + " of " + data.arms.length + " cells";
  }
  fragmentFilter(FACETS.map(function (f) { return f[0]; }), selects, apply);
})();
"##;

/// The page for a timeline.
pub fn render(t: &Timeline) -> anyhow::Result<String> {
    page(t, "")
}

/// The page for a timeline, with `nav` (HTML: the site's navigation) at the top.
pub fn page(t: &Timeline, nav: &str) -> anyhow::Result<String> {
    let mut s = String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    s.push_str("<title>failopen timeline</title>\n<style>");
    s.push_str(&style());
    s.push_str("</style>\n</head>\n<body>\n");
    s.push_str(nav);
    s.push_str("<h1>Does the hook fail open? Timeline</h1>\n");
    let headline = if t.is_empty() { "No rows.".to_string() } else { format!("{}.", t.headline()) };
    writeln!(s, "<p>{}</p>", esc(&headline))?;
    s.push_str("<div class=\"filters\">");
    for ((id, label), values) in FILTERS.iter().zip(t.facets()) {
        write!(s, "<label>{label} <select id=\"{id}\"><option value=\"\">all</option>")?;
        for v in values {
            write!(s, "<option value=\"{0}\">{0}</option>", esc(v))?;
        }
        s.push_str("</select></label>");
    }
    s.push_str("<span id=\"shown\"></span></div>\n");
    s.push_str("<div class=\"scroll\"><table id=\"timeline\"></table></div>\n");
    s.push_str(
        "<noscript><p>The table is drawn by the page's script; the change points are listed below.</p></noscript>\n",
    );

    writeln!(s, "<h2>Change points ({})</h2>", t.changes.len())?;
    if t.changes.is_empty() {
        s.push_str("<p>No cell's verdict changed between versions.</p>\n");
    }
    let arm_at: HashMap<&str, usize> = t.arms.iter().enumerate().map(|(i, a)| (a.name.as_str(), i)).collect();
    s.push_str("<ul id=\"changes\">\n");
    for c in &t.changes {
        let a = &t.arms[arm_at[c.arm.as_str()]];
        writeln!(
            s,
            "<li data-guard=\"{}\" data-wrapper=\"{}\" data-hook-type=\"{}\"><strong>{}</strong>: <code>{}</code> {} (after {})</li>",
            esc(&a.guard),
            esc(&a.wrapper),
            esc(&a.hook_type),
            esc(&c.to_version),
            esc(&c.arm),
            esc(&change_text(c)),
            esc(&c.from_version)
        )?;
    }
    s.push_str("</ul>\n");
    let identical: Vec<_> = t.identical_columns().collect();
    if !identical.is_empty() {
        s.push_str("<h2>Identical binaries</h2>\n<p>Not run: their binary is byte-identical to another version's, whose verdicts they carry (hatched, dimmed).</p>\n<ul>\n");
        for c in identical {
            writeln!(
                s,
                "<li>{}: identical to {}</li>",
                esc(&c.version),
                esc(c.identical_to.as_deref().unwrap_or_default())
            )?;
        }
        s.push_str("</ul>\n");
    }

    s.push_str("<h2>Legend</h2>\n<table class=\"legend\">\n");
    for (summary, (word, meaning)) in
        [Summary::Blocked, Summary::Wrote, Summary::Invalid, Summary::Mixed].iter().zip(LEGEND)
    {
        writeln!(s, "<tr><td class=\"{}\">{word}</td><td>{}</td></tr>", summary.as_str(), esc(meaning))?;
    }
    s.push_str("<tr><td class=\"notrun\"></td><td>not run</td></tr>\n");
    s.push_str("<tr><td class=\"blocked change\">\u{25c6}</td><td>change point: the verdict differs from the version before (hover for the old one)</td></tr>\n");
    s.push_str("<tr><td class=\"blocked identical\"></td><td>identical binary, not run (verdict copied)</td></tr>\n");
    s.push_str("</table>\n");

    writeln!(s, "<script type=\"application/json\" id=\"timeline-data\">{}</script>", script_json(&data(t))?)?;
    writeln!(s, "<script>\n{}{SCRIPT}</script>", fragment_filter::SCRIPT)?;
    s.push_str("</body>\n</html>\n");
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_helpers::row;
    use crate::verdict::VerdictKind::{Blocked as B, Wrote as W};

    #[test]
    fn embedded_json_cannot_end_its_script_element() {
        let rows = [row("2.1.9", "x</script><b>&/bare", 1, B, ""), row("2.1.10", "x</script><b>&/bare", 1, W, "")];
        let html = TimelineHtml.render(&rows).unwrap();
        let start = html.find("id=\"timeline-data\">").unwrap() + "id=\"timeline-data\">".len();
        let json = &html[start..start + html[start..].find("</script>").unwrap()];
        assert!(!json.contains('<') && !json.contains('>') && !json.contains('&'), "{json}");
        let v: Value = serde_json::from_str(json).unwrap();
        assert_eq!(v["arms"][0]["arm"], "x</script><b>&/bare", "the name reads back whole");
        assert_eq!(v["arms"][0]["cells"][1]["change"]["from"], "blocked", "2.1.9 blocked, then 2.1.10 wrote\n{json}");
        assert!(!html.contains("src=") && !html.contains("http://") && !html.contains("https://"), "self-contained");
    }
}
