//! What every page of the site shares: the head with its inline style (no
//! file, font or script is fetched: a page reads the same off a disk, with
//! no network), the navigation bar, the legend, and small HTML helpers.
//! The only links out of the site are to failopen's own repository
//! ([`repo_link`]): its docs and its guards' scripts.

use std::fmt::Write;

use super::paths;
use crate::report::svg::{esc, fill, NOT_RUN_FILL};
use crate::report::LEGEND;
use crate::tally::Summary;

/// The verdicts, in the legend's order.
pub const SUMMARIES: [Summary; 4] = [Summary::Blocked, Summary::Wrote, Summary::Invalid, Summary::Mixed];

fn style() -> String {
    let mut css = String::from(
        "body{font-family:DejaVu Sans,Verdana,Arial,sans-serif;margin:0 auto;padding:0 2em 3em;color:#111;\
         max-width:80em;line-height:1.4}\
         nav{padding:.8em 0;border-bottom:1px solid #ddd;margin-bottom:1em}nav a{margin:0 .5em}\
         a{color:#0645ad}code,pre{font-family:DejaVu Sans Mono,Menlo,Consolas,monospace;font-size:90%}\
         pre{background:#f6f6f6;padding:.8em;overflow:auto;white-space:pre-wrap}\
         table{border-collapse:separate;border-spacing:3px;margin:.5em 0 1.5em}\
         th{text-align:left;padding:4px 8px;vertical-align:bottom}\
         td{padding:4px 8px;border-radius:3px;vertical-align:top}\
         td.v{min-width:6em;white-space:nowrap}td.v a{color:#111;text-decoration:none;display:block}\
         td.v a:hover{text-decoration:underline}td[hidden]{display:table-cell;visibility:hidden}\
         .off{display:none!important}small{color:#333}\
         table.rows td{background:#fafafa;font-size:90%;max-width:30em;overflow-wrap:break-word}\
         table.kv th{font-weight:normal;color:#444;vertical-align:top}.verdict{display:inline-block;padding:.3em .8em;\
         border-radius:4px;font-size:120%}.filters{margin:1em 0}.filters label{margin-right:1.2em;\
         white-space:nowrap}#shown{color:#444}.ok{color:#1a6b1a}.bad{color:#a11}\
         blockquote{margin:.5em 0;padding:.2em 1em;border-left:4px solid #ddd;color:#333}\
         .scroll{overflow-x:auto;max-width:100%}h1,h2,h3,code{overflow-wrap:anywhere}\
         pre.cmd{background:#f0f4ff;white-space:pre-wrap;overflow-wrap:anywhere}\
         @media (max-width:40em){body{padding:0 .6em 2em}.wide{display:none}nav a{margin:0 .3em 0 0}\
         td,th{padding:3px 4px}td.v{min-width:4em}h1{font-size:140%}}",
    );
    let _ = write!(css, "td.notrun{{background:{NOT_RUN_FILL};color:#999}}");
    for s in SUMMARIES {
        let _ = write!(css, ".{0}{{background:{1}}}", s.as_str(), fill(s));
    }
    css
}

/// A whole page at site path `at`: the head, the navigation, `body`.
pub fn page(at: &str, title: &str, body: &str) -> String {
    let mut s = String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    s.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(s, "<title>{} · failopen</title>", esc(title));
    let _ = writeln!(s, "<style>{}</style>\n</head>\n<body>", style());
    s.push_str(&nav(at));
    s.push_str(body);
    s.push_str("</body>\n</html>\n");
    s
}

/// The bar at the top of every page: the front page, the timeline, the
/// versions, and how to install, audit and seal (the repository's docs).
pub fn nav(at: &str) -> String {
    let l = |to: &str| esc(&paths::link(at, to));
    let d = |doc: &str| esc(&repo_link(doc));
    format!(
        "<nav><a href=\"{}\">failopen: the findings</a> · <a href=\"{}\">timeline</a> · <a href=\"{}\">every release</a> · \
         <a href=\"{}\">install</a> · <a href=\"{}\">audit</a> · <a href=\"{}\">seal</a></nav>\n",
        l(paths::INDEX),
        l(paths::TIMELINE),
        l(paths::VERSIONS),
        d("docs/install.md"),
        d("docs/audit.md"),
        d("docs/seal.md")
    )
}

/// A file of failopen's repository (`docs/seal.md`, `guards/crash.sh`), on
/// its main branch: the one kind of link out of the site.
pub fn repo_link(path: &str) -> String {
    format!("{}/blob/main/{path}", env!("CARGO_PKG_REPOSITORY"))
}

/// The legend of the verdict colours.
pub fn legend() -> String {
    let mut s = String::from("<table class=\"legend\">\n");
    for (summary, (word, meaning)) in SUMMARIES.iter().zip(LEGEND) {
        let _ = writeln!(s, "<tr><td class=\"v {}\">{word}</td><td>{}</td></tr>", summary.as_str(), esc(meaning));
    }
    s.push_str("<tr><td class=\"v notrun\">—</td><td>not run</td></tr>\n</table>\n");
    s
}

/// A link.
pub fn a(href: &str, text: &str) -> String {
    format!("<a href=\"{}\">{}</a>", esc(href), esc(text))
}
