//! The site in a real browser: `failopen report results --format site`,
//! loaded in headless Chromium (three loads, a few seconds). The front
//! page's headline matrix holds, for each agent's newest version, the
//! verdicts failopen's tally gives the reference CSVs' rows; a grid page
//! filtered from its URL fragment hides exactly the cells (and rows) the
//! filter leaves out and draws every cell's tallied verdict; and a
//! screenshot of the front page's first screen is not blank: it shows the
//! verdict colours.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use failopen::agent::Agent;
use failopen::mode::Mode;
use failopen::record::{read_rows, Row};
use failopen::tally::{Summary, Tally};

use crate::support::browser::{dump_dom, element, screenshot, set_diff, tags};
use crate::support::{self, failopen};

/// A cell: agent, version, mode, arm.
type Cell = (Agent, String, Mode, String);

/// Every reference CSV's rows (the files the site reads), tallied per cell.
fn tallies() -> (BTreeMap<Cell, Tally>, Vec<Row>) {
    let results = support::repo().join("results");
    let mut rows = Vec::new();
    for entry in std::fs::read_dir(&results).unwrap().flatten() {
        let name = entry.file_name().into_string().unwrap();
        let reference = ["claude-", "codex-", "gemini-", "interactive-"].iter().any(|p| name.starts_with(p));
        if reference && name.ends_with(".csv") {
            rows.extend(read_rows(&entry.path()).unwrap_or_else(|e| panic!("{name}: {e}")));
        }
    }
    let mut t: BTreeMap<Cell, Tally> = BTreeMap::new();
    for r in &rows {
        t.entry((r.agent(), r.claude_version.clone(), r.mode(), r.arm.clone())).or_default().add(r);
    }
    (t, rows)
}

/// `failopen report results --format site --out DIR/site`.
fn build(dir: &Path) -> PathBuf {
    let site = dir.join("site");
    failopen()
        .arg("report")
        .arg(support::repo().join("results"))
        .args(["--format", "site", "--out"])
        .arg(&site)
        .assert()
        .success();
    site
}

fn agent(name: &str) -> Agent {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_headline_draws_the_tallies_of_each_agents_newest_version() {
    let (tallies, _) = tallies();
    let dir = tempfile::tempdir().unwrap();
    let site = build(dir.path());
    let dom = dump_dom(&format!("file://{}", site.join("index.html").display()));
    let table = element(&dom, "table", "headline");
    let tds: Vec<_> = tags(table, "td").into_iter().filter(|t| t.contains_key("data-arm")).collect();

    let mut newest: BTreeMap<Agent, &str> = BTreeMap::new();
    for (a, v, _, _) in tallies.keys().filter(|(_, _, m, _)| *m == Mode::Print) {
        let n = newest.entry(*a).or_insert(v);
        if failopen::version::compare(v, n).is_gt() {
            *n = v;
        }
    }
    let drawn_versions: BTreeSet<(Agent, String)> =
        tds.iter().map(|t| (agent(&t["data-agent"]), t["data-version"].clone())).collect();
    let want_versions: BTreeSet<(Agent, String)> = newest.iter().map(|(a, v)| (*a, v.to_string())).collect();
    assert!(
        drawn_versions == want_versions,
        "each agent's newest version\n{}",
        set_diff(&drawn_versions, &want_versions)
    );

    let mut drawn = BTreeSet::new();
    for td in &tds {
        let cell = (agent(&td["data-agent"]), td["data-version"].clone(), Mode::Print, td["data-arm"].clone());
        let tally = tallies.get(&cell).unwrap_or_else(|| panic!("{cell:?} is drawn but was never run"));
        drawn.insert((cell.0, cell.3.clone(), td["data-verdict"].clone()));
        assert_eq!(td["data-verdict"], tally.summary().as_str(), "{cell:?}");
    }
    for a in newest.keys() {
        for arm in ["crash/bare", "crash/sealed", "hang/bare", "hang/sealed", "missing/bare", "missing/sealed"] {
            assert!(drawn.iter().any(|(x, y, _)| x == a && y == arm), "{arm} on {a:?} is in the headline");
        }
    }
    let rows = tags(table, "tr").len() - 2;
    assert_eq!(tds.len(), rows * 2 * newest.len(), "bare and sealed under each agent, on every row");
    // The cells link to their evidence, which says the same.
    let links = regex::Regex::new(r#"<td [^>]*data-arm="([^"]+)"[^>]*><a href="([^"]+)""#).unwrap();
    let hrefs: Vec<(String, String)> =
        links.captures_iter(table).map(|c| (c[1].to_string(), c[2].to_string())).collect();
    assert_eq!(hrefs.len(), tds.len(), "every cell is a link");
    for (_, href) in hrefs {
        let page = std::fs::read_to_string(site.join(&href)).unwrap_or_else(|e| panic!("{href}: {e}"));
        assert!(page.contains("id=\"verdict\""), "{href} is a cell's page");
    }
}

#[test]
fn a_grid_filtered_from_its_fragment_hides_exactly_what_the_filter_leaves_out() {
    let (tallies, rows) = tallies();
    let (agent, version) = (Agent::ClaudeCode, "2.1.328");
    // Where each arm's hook lives, from the arm sets (the default: --settings).
    let mut source: HashMap<String, String> = HashMap::new();
    for (name, _) in failopen::arms::BUILTIN {
        for arm in failopen::arms::load(name).unwrap() {
            source.entry(arm.name.clone()).or_insert_with(|| arm.source.as_str().to_string());
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let site = build(dir.path());
    let page = site.join("claude-code").join(format!("{version}.html"));
    let dom = dump_dom(&format!("file://{}#source=plugin&verdict=wrote", page.display()));
    let table = element(&dom, "table", "grid");

    let cells: BTreeMap<&str, &Tally> = tallies
        .iter()
        .filter(|((a, v, m, _), _)| *a == agent && v == version && *m == Mode::Print)
        .map(|((_, _, _, arm), t)| (arm.as_str(), t))
        .collect();
    let shown = |arm: &str| source[arm] == "plugin" && cells[arm].summary() == Summary::Wrote;
    let tds: Vec<_> = tags(table, "td").into_iter().filter(|t| t.contains_key("data-arm")).collect();
    let drawn: BTreeSet<&str> = tds.iter().map(|t| t["data-arm"].as_str()).collect();
    let want: BTreeSet<&str> = cells.keys().copied().collect();
    assert!(drawn == want, "a cell per arm run on {version}\n{}", set_diff(&drawn, &want));
    let mut hidden = BTreeSet::new();
    let mut kept = BTreeSet::new();
    for td in &tds {
        let arm = td["data-arm"].as_str();
        assert_eq!(td["data-verdict"], cells[arm].summary().as_str(), "{arm}");
        if td.contains_key("hidden") {
            hidden.insert(arm);
        } else {
            kept.insert(arm);
        }
    }
    let want_kept: BTreeSet<&str> = want.iter().copied().filter(|a| shown(a)).collect();
    assert!(!want_kept.is_empty() && want_kept.len() < want.len(), "the filter keeps some cells and hides some");
    assert!(
        kept == want_kept,
        "#source=plugin&verdict=wrote keeps exactly those cells\n{}",
        set_diff(&kept, &want_kept)
    );
    assert_eq!(hidden.len() + kept.len(), want.len());

    // A row is hidden exactly when none of its cells is shown.
    let row_re = regex::Regex::new(r#"(?s)<tr data-row="[^"]*"( hidden(?:="")?)?>(.*?)</tr>"#).unwrap();
    let mut rows_seen = 0;
    for c in row_re.captures_iter(table) {
        rows_seen += 1;
        let any_shown = tags(&c[2], "td").iter().any(|t| t.contains_key("data-arm") && !t.contains_key("hidden"));
        assert_eq!(c.get(1).is_none(), any_shown, "row {}", &c[0][..c[0].len().min(120)]);
    }
    let labels: BTreeSet<&str> = rows
        .iter()
        .filter(|r| r.agent() == agent && r.claude_version == version && r.mode() == Mode::Print)
        .map(|r| r.arm.strip_suffix(&format!("/{}", r.wrapper)).unwrap_or(&r.arm))
        .collect();
    assert_eq!(rows_seen, labels.len(), "a row per guard");
    assert!(
        dom.contains(&format!("showing {} of {} cells", want_kept.len(), want.len())),
        "the count follows the filter"
    );
}

#[test]
fn the_front_page_renders_its_verdict_colours_in_the_first_screen() {
    let dir = tempfile::tempdir().unwrap();
    let site = build(dir.path());
    let png = dir.path().join("front.png");
    screenshot(&format!("file://{}", site.join("index.html").display()), &png, 1280, 900);
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (1280, 900));
    let channels = info.color_type.samples();
    assert!(channels >= 3, "{:?}", info.color_type);
    let mut colours: HashMap<[u8; 3], usize> = HashMap::new();
    for px in buf[..info.buffer_size()].chunks(channels) {
        *colours.entry([px[0], px[1], px[2]]).or_default() += 1;
    }
    let white = colours.get(&[255, 255, 255]).copied().unwrap_or(0);
    let total = (info.width * info.height) as usize;
    assert!(white < total * 95 / 100, "the page is {white} of {total} pixels white: blank");
    assert!(colours.len() > 50, "only {} colours: no text drawn", colours.len());
    let rgb = |hex: &str| -> [u8; 3] {
        let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
        [(v >> 16) as u8, (v >> 8) as u8, v as u8]
    };
    for s in [Summary::Blocked, Summary::Wrote] {
        let n = colours.get(&rgb(failopen::report::svg::fill(s))).copied().unwrap_or(0);
        assert!(n > 5000, "the first screen shows {n} pixels of the {s} colour: the matrix is not drawn");
    }
}
