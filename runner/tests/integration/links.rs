//! Every relative link resolves: in README.md and docs/*.md (to a file or
//! folder of the repository, and a `#fragment` into a Markdown file to one of
//! its headings, by GitHub's anchors), and in the committed site
//! (`results/site/`: to a page, and a `#fragment` to an element's id; a
//! fragment holding `=` is a grid's filter, read by its script). The site's
//! one kind of link out, to a file of failopen's repository on GitHub
//! (docs, guard scripts), names a file that is in this checkout.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use crate::support;

/// A link that is not to a file of the repository (a scheme, or a bare domain).
fn external(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:") || target.starts_with("//")
}

/// GitHub's anchor for a heading: lower case, spaces to `-`, punctuation
/// other than `-` and `_` dropped; a repeated anchor gets `-1`, `-2`, ...
fn anchor(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The links (destination, line) and the heading anchors of a Markdown text.
fn markdown(text: &str) -> (Vec<(String, usize)>, BTreeSet<String>) {
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let mut links = Vec::new();
    let mut anchors = BTreeSet::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut heading: Option<String> = None;
    for (event, range) in Parser::new(text).into_offset_iter() {
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                links.push((dest_url.to_string(), line_of(range.start)))
            }
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let base = anchor(&heading.take().unwrap_or_default());
                let n = seen.entry(base.clone()).or_insert(0);
                anchors.insert(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
                *n += 1;
            }
            _ => {}
        }
    }
    (links, anchors)
}

/// README.md and every docs/*.md.
fn markdown_files() -> Vec<PathBuf> {
    let repo = support::repo();
    let mut files = vec![repo.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repo.join("docs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn relative_links_in_the_readme_and_docs_resolve() {
    let mut anchors_of: HashMap<PathBuf, BTreeSet<String>> = HashMap::new();
    let mut anchors = |path: &Path| -> BTreeSet<String> {
        anchors_of
            .entry(path.to_path_buf())
            .or_insert_with(|| markdown(&std::fs::read_to_string(path).unwrap_or_default()).1)
            .clone()
    };
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let rel = file.strip_prefix(support::repo()).unwrap().display().to_string();
        for (target, line) in markdown(&text).0 {
            if external(&target) {
                continue;
            }
            checked += 1;
            let (path, fragment) = target.split_once('#').map(|(p, f)| (p, Some(f))).unwrap_or((&target, None));
            let resolved = if path.is_empty() { file.clone() } else { file.parent().unwrap().join(path) };
            if !resolved.exists() {
                broken.push(format!("{rel}:{line}: {target}: no such file"));
                continue;
            }
            if let Some(fragment) = fragment.filter(|_| resolved.extension().is_some_and(|x| x == "md")) {
                if !anchors(&resolved).contains(fragment) {
                    broken.push(format!("{rel}:{line}: {target}: no heading with that anchor"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked > 20, "only {checked} relative links: is the parser reading them?");
}

/// Every page of `root`, by its path under it.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "html") {
                found.push(p);
            }
        }
    }
    found.sort();
    found
}

#[test]
fn links_between_the_site_pages_resolve() {
    let root = support::repo().join("results/site");
    let href = regex::Regex::new(r#"\b(?:href|src)="([^"]*)""#).unwrap();
    let id = regex::Regex::new(r#"\bid="([^"]*)""#).unwrap();
    let mut ids: HashMap<PathBuf, BTreeSet<String>> = HashMap::new();
    let mut broken = Vec::new();
    let mut checked = 0;
    let mut out = 0;
    let repo_blob = format!("{}/blob/main/", env!("CARGO_PKG_REPOSITORY"));
    // The census page links each guard's own project (issue 48: fair to the projects), as
    // guards/census.json names it; nothing else outside the site.
    let census: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(support::repo().join("guards/census.json")).unwrap()).unwrap();
    let projects: BTreeSet<String> =
        census["guards"].as_array().unwrap().iter().filter_map(|g| g["url"].as_str().map(str::to_string)).collect();
    assert!(projects.len() >= 10, "the census names its guards' projects: {projects:?}");
    let pages = pages(&root);
    assert!(pages.len() > 1000, "{} pages under {}", pages.len(), root.display());
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for c in href.captures_iter(&text) {
            let target = c[1].replace("&amp;", "&");
            checked += 1;
            if let Some(file) = target.strip_prefix(&repo_blob) {
                if !support::repo().join(file).exists() {
                    broken.push(format!("{}: {target}: no such file in the repository", page.display()));
                }
                out += 1;
                continue;
            }
            if page.ends_with("census.html") && projects.contains(&target) {
                out += 1;
                continue;
            }
            assert!(
                !external(&target),
                "{}: {target}: the site links nowhere outside itself but to its repository",
                page.display()
            );
            let (path, fragment) = target.split_once('#').map(|(p, f)| (p, Some(f))).unwrap_or((&target, None));
            let resolved = if path.is_empty() { page.clone() } else { page.parent().unwrap().join(path) };
            if !resolved.is_file() {
                broken.push(format!("{}: {target}", page.strip_prefix(&root).unwrap().display()));
                continue;
            }
            if let Some(fragment) = fragment.filter(|f| !f.contains('=') && !f.is_empty()) {
                let known = ids.entry(resolved.clone()).or_insert_with(|| {
                    let t = std::fs::read_to_string(&resolved).unwrap();
                    id.captures_iter(&t).map(|c| c[1].to_string()).collect()
                });
                if !known.contains(fragment) {
                    broken.push(format!("{}: {target}: no element with that id", page.display()));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{} broken links, the first:\n{}",
        broken.len(),
        broken[..broken.len().min(20)].join("\n")
    );
    assert!(checked > pages.len() * 3, "{checked} links in {} pages", pages.len());
    assert!(out > pages.len() * 2, "{out} links to the repository in {} pages: install, audit, seal", pages.len());
}

#[test]
fn the_anchors_are_githubs() {
    let (links, anchors) = markdown(
        "# How a session is judged\n## `seal`: the recipe\n## Findings\n## Findings\n[a](x.md#findings-1) ![i](p.png)\n",
    );
    let want: BTreeSet<String> = ["how-a-session-is-judged", "seal-the-recipe", "findings", "findings-1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(anchors, want);
    assert_eq!(links, [("x.md#findings-1".to_string(), 5), ("p.png".to_string(), 5)]);
    assert!(external("https://x.org") && external("mailto:a@b") && !external("docs/x.md"));
}
