//! The site in a real browser: `failopen report results --format site`,
//! loaded in headless Chromium (a few loads, a few seconds each). The front
//! page names every agent of `results/`, and its headline matrices hold, for
//! each agent's newest version, the verdicts failopen's tally gives the
//! reference CSVs' rows; a grid page filtered from its URL fragment hides
//! exactly the cells (and rows) the filter leaves out and draws every cell's
//! tallied verdict; a screenshot of the front page's first screen is not
//! blank: it shows the verdict colours; a cell page of a non-Claude agent
//! shows its tally, its guard's script and a command that, run, gives the
//! same verdict; the census page shows every guard's row linked to its
//! evidence and rerun command; and on a phone's width no page is wider than
//! the screen.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use failopen::agent::Agent;
use failopen::mode::Mode;
use failopen::record::{read_rows, Row};
use failopen::tally::{Summary, Tally};

use crate::support::browser::{dump_dom, dump_dom_with, element, screenshot, set_diff, tags};
use crate::support::{self, failopen, run_battery};

/// A cell: agent, version, mode, arm.
type Cell = (Agent, String, Mode, String);

/// Every reference CSV's rows (the files the site reads), tallied per cell.
fn tallies() -> (BTreeMap<Cell, Tally>, Vec<Row>) {
    let results = support::repo().join("results");
    let mut rows = Vec::new();
    for entry in std::fs::read_dir(&results).unwrap().flatten() {
        let name = entry.file_name().into_string().unwrap();
        if failopen::report::site::input::is_reference(&name) {
            rows.extend(read_rows(&entry.path()).unwrap_or_else(|e| panic!("{name}: {e}")));
        }
    }
    let mut t: BTreeMap<Cell, Tally> = BTreeMap::new();
    for r in &rows {
        t.entry((r.agent(), r.agent_version.clone(), r.mode(), r.arm.clone())).or_default().add(r);
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

/// The agents named by the rows of every CSV in `results/` that reads as
/// rows (whatever its name: a reference run, a history, a side run).
fn agents_in_results() -> BTreeSet<Agent> {
    let mut out = BTreeSet::new();
    for entry in std::fs::read_dir(support::repo().join("results")).unwrap().flatten() {
        if entry.path().extension().is_some_and(|x| x == "csv") {
            if let Ok(rows) = read_rows(&entry.path()) {
                out.extend(rows.iter().map(Row::agent));
            }
        }
    }
    out
}

#[test]
fn the_front_page_names_every_agent_and_its_headlines_draw_the_tallies() {
    let (tallies, _) = tallies();
    let dir = tempfile::tempdir().unwrap();
    let site = build(dir.path());
    let dom = dump_dom(&format!("file://{}", site.join("index.html").display()));

    // Every agent with rows anywhere in results/ has its line, with its grids.
    let listed: BTreeSet<Agent> = tags(element(&dom, "table", "agents"), "tr")
        .iter()
        .filter_map(|t| t.get("data-agent"))
        .map(|a| agent(a))
        .collect();
    let present = agents_in_results();
    assert!(present.len() >= 11, "{present:?}");
    assert!(listed == present, "every agent of results/ is on the front page\n{}", set_diff(&listed, &present));

    let mut newest: BTreeMap<Agent, &str> = BTreeMap::new();
    for (a, v, _, _) in tallies.keys().filter(|(_, _, m, _)| *m == Mode::Print) {
        let n = newest.entry(*a).or_insert(v);
        if failopen::version::compare(v, n).is_gt() {
            *n = v;
        }
    }
    // An agent is in a headline when its newest version ran a guard that objects both bare and sealed.
    let paired = |a: Agent, v: &str| {
        tallies.keys().any(|(x, y, m, arm)| {
            let guard = arm.strip_suffix("/bare").unwrap_or("allow");
            *x == a && y == v && *m == Mode::Print && !guard.ends_with("allow") && {
                tallies.contains_key(&(a, v.to_string(), Mode::Print, format!("{guard}/sealed")))
            }
        })
    };
    let want_versions: BTreeSet<(Agent, String)> =
        newest.iter().filter(|(a, v)| paired(**a, v)).map(|(a, v)| (*a, v.to_string())).collect();
    assert!(want_versions.len() >= 10, "{want_versions:?}");

    let mut drawn_versions = BTreeSet::new();
    let mut drawn = BTreeSet::new();
    let mut cells = 0;
    let links = regex::Regex::new(r#"<td [^>]*data-arm="([^"]+)"[^>]*><a href="([^"]+)""#).unwrap();
    for n in 1.. {
        let id = format!("headline-{n}");
        if !dom.contains(&format!("<table id=\"{id}\"")) {
            assert!(n > 2, "the agents' guards fall in several groups: command hooks, plugins, callbacks");
            break;
        }
        let table = element(&dom, "table", &id);
        let tds: Vec<_> = tags(table, "td").into_iter().filter(|t| t.contains_key("data-arm")).collect();
        let columns: BTreeSet<(Agent, String)> =
            tds.iter().map(|t| (agent(&t["data-agent"]), t["data-version"].clone())).collect();
        drawn_versions.extend(columns.iter().cloned());
        for td in &tds {
            let cell = (agent(&td["data-agent"]), td["data-version"].clone(), Mode::Print, td["data-arm"].clone());
            let tally = tallies.get(&cell).unwrap_or_else(|| panic!("{cell:?} is drawn but was never run"));
            drawn.insert((cell.0, cell.3.clone(), td["data-verdict"].clone()));
            assert_eq!(td["data-verdict"], tally.summary().as_str(), "{cell:?}");
        }
        let verdict_cells =
            tags(table, "td").iter().filter(|t| t.get("class").is_some_and(|c| c.starts_with("v "))).count();
        let rows = tags(table, "tr").len() - 2;
        assert_eq!(verdict_cells, rows * 2 * columns.len(), "{id}: bare and sealed under each agent, on every row");
        // The cells link to their evidence, which says the same.
        let hrefs: Vec<String> = links.captures_iter(table).map(|c| c[2].to_string()).collect();
        assert_eq!(hrefs.len(), tds.len(), "every cell is a link");
        for href in hrefs {
            let page = std::fs::read_to_string(site.join(&href)).unwrap_or_else(|e| panic!("{href}: {e}"));
            assert!(page.contains("id=\"verdict\""), "{href} is a cell's page");
        }
        cells += tds.len();
    }
    assert!(
        drawn_versions == want_versions,
        "each agent's newest version\n{}",
        set_diff(&drawn_versions, &want_versions)
    );
    assert!(cells > 200, "{cells} cells in the headlines");
    let must = |agents: &[Agent], arms: &[&str]| {
        for a in agents {
            for arm in arms {
                assert!(drawn.iter().any(|(x, y, _)| x == a && y == arm), "{arm} on {a:?} is in the headline");
            }
        }
    };
    use Agent::*;
    must(
        &[ClaudeCode, Codex, Gemini, Copilot, Cline, Qwen],
        &["crash/bare", "crash/sealed", "hang/bare", "hang/sealed"],
    );
    must(&[OpenCode, Kilo], &["opencode-crash/bare", "opencode-hang/sealed"]);
    must(&[AgentSdkTs, AgentSdkPy], &["callback-throw/bare", "callback-throw/sealed"]);
}

/// A cell of a non-Claude agent, in the browser: its verdict is its rows'
/// tally, it links to its guard's script and to install, seal and audit, and
/// the command it prints gives the same verdict when run (one session of
/// Codex CLI, the pinned release that `.ci/run` installs).
#[test]
fn a_codex_cell_page_shows_its_evidence_and_a_command_that_reproduces_it() {
    let (tallies, _) = tallies();
    let (a, version, arm) = (Agent::Codex, failopen::agent::Agent::Codex.driver().pinned_version(), "crash/bare");
    let tally = &tallies[&(a, version.to_string(), Mode::Print, arm.to_string())];
    let dir = tempfile::tempdir().unwrap();
    let site = build(dir.path());
    let page = site.join(format!("codex/{version}/crash/bare.html"));
    let dom = dump_dom(&format!("file://{}", page.display()));
    let verdict = tags(&dom, "span").into_iter().find(|t| t.get("id").is_some_and(|i| i == "verdict")).unwrap();
    assert_eq!(verdict["data-verdict"], tally.summary().as_str());
    let repo = env!("CARGO_PKG_REPOSITORY");
    for doc in ["guards/crash.sh", "docs/install.md", "docs/seal.md", "docs/audit.md"] {
        assert!(dom.contains(&format!("href=\"{repo}/blob/main/{doc}\"")), "{doc} is linked");
    }
    let pre = regex::Regex::new(r#"<pre [^>]*\bid="reproduce"[^>]*>([^<]*)</pre>"#).unwrap();
    let cmd = &pre.captures(&dom).unwrap_or_else(|| panic!("no command to run the cell again:\n{dom}"))[1];
    assert_eq!(cmd, format!("failopen run --agent codex --agent-version {version} --arms article --only crash/bare"));
    let args: Vec<&str> = cmd.strip_prefix("failopen run ").unwrap().split_whitespace().collect();
    let (rows, _dir) = run_battery(&args);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!((rows[0].arm.as_str(), rows[0].verdict.as_str()), (arm, tally.summary().as_str()), "{rows:?}");
}

/// On a phone (390 px wide), no page is wider than the screen: wide tables
/// scroll inside their box. Each page is loaded in a 390 px frame of a page
/// that writes the frame's scroll width into its DOM; and a screenshot of a
/// cell page at that width is not blank.
#[test]
fn on_a_phones_width_no_page_is_wider_than_the_screen() {
    let dir = tempfile::tempdir().unwrap();
    let site = build(dir.path());
    for page in [
        "index.html",
        "census.html",
        "codex/0.171.0.html",
        "qwen/0.24.4/crash/bare.html",
        "claude-code/2.1.328/crash/bare.html",
    ] {
        assert!(site.join(page).is_file(), "{page}");
        let probe = site.join("phone-probe.html");
        std::fs::write(
            &probe,
            format!(
                "<!DOCTYPE html><html><body style=\"margin:0\"><iframe id=\"f\" src=\"{page}\" \
                 style=\"width:390px;height:844px;border:0\"></iframe><script>\
                 document.getElementById('f').onload = function () {{\
                   var d = this.contentDocument.documentElement;\
                   document.body.setAttribute('data-width', String(d.scrollWidth));\
                 }};</script></body></html>"
            ),
        )
        .unwrap();
        let dom = dump_dom_with(
            &format!("file://{}", probe.display()),
            &["--allow-file-access-from-files", "--virtual-time-budget=5000"],
        );
        let width: u32 = tags(&dom, "body")
            .first()
            .and_then(|b| b.get("data-width").cloned())
            .unwrap_or_else(|| panic!("{page}: the probe read no width:\n{}", &dom[..dom.len().min(400)]))
            .parse()
            .unwrap();
        assert!(width <= 390, "{page} is {width} px wide on a 390 px screen");
    }
    let png = dir.path().join("phone.png");
    screenshot(&format!("file://{}", site.join("qwen/0.24.4/crash/bare.html").display()), &png, 390, 844);
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (390, 844));
    let channels = info.color_type.samples();
    let white = buf[..info.buffer_size()].chunks(channels).filter(|p| p[..3] == [255, 255, 255]).count();
    let total = (info.width * info.height) as usize;
    assert!(white < total * 97 / 100, "the phone screenshot is {white} of {total} pixels white: blank");
    if let Ok(keep) = std::env::var("FAILOPEN_KEEP_SCREENSHOT") {
        std::fs::copy(&png, keep).unwrap();
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
        .filter(|r| r.agent() == agent && r.agent_version == version && r.mode() == Mode::Print)
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

/// The census page, loaded in Chromium: one row per guard of
/// `results/census.csv`, linking its project and naming its version; each
/// fault's cell shows the row's verdict and links the row's evidence (copied
/// into the site, the audit report the row was read from) with the command
/// that reproduces it; the page states its method and its date, and the
/// front page links it.
#[test]
fn the_census_page_shows_every_guards_row_linked_to_its_evidence_and_rerun() {
    let rows = failopen::census::row::read_rows(&support::repo().join("results/census.csv")).unwrap();
    let census: serde_json::Value =
        serde_json::from_slice(&std::fs::read(support::repo().join("guards/census.json")).unwrap()).unwrap();
    assert!(rows.len() >= 10, "{} rows", rows.len());
    let dir = tempfile::tempdir().unwrap();
    let site = build(dir.path());
    let dom = dump_dom(&format!("file://{}", site.join("census.html").display()));
    assert!(dom.contains("id=\"method\""), "the page states its method");
    let first = rows.iter().map(|r| &r.measured[..10]).min().unwrap();
    assert!(dom.contains(&format!("<time id=\"measured\">{first}</time>")), "the page states when");
    let tr = regex::Regex::new(r#"(?s)<tr data-guard="([^"]+)">(.*?)</tr>"#).unwrap();
    let shown: BTreeMap<String, String> =
        tr.captures_iter(&dom).map(|c| (c[1].to_string(), c[2].to_string())).collect();
    let listed: BTreeSet<String> = rows.iter().map(|r| r.guard.clone()).collect();
    assert_eq!(
        shown.keys().cloned().collect::<BTreeSet<_>>(),
        listed,
        "{}",
        set_diff(&shown.keys().cloned().collect(), &listed)
    );
    let cell = regex::Regex::new(r#"<td class="v ([a-z]+)" data-fault="([a-z-]+)"><a href="([^"]+)" title="evidence; reproduce: ([^"]+)">([^<]*)</a></td>"#).unwrap();
    for r in &rows {
        let html = &shown[&r.guard];
        let g = census["guards"].as_array().unwrap().iter().find(|g| g["name"] == r.guard.as_str()).unwrap();
        assert!(html.contains(&format!("href=\"{}\"", g["url"].as_str().unwrap())), "{}: its project", r.guard);
        assert!(html.contains(&format!("@{}", r.version)), "{}: its version", r.guard);
        let cells: Vec<_> = cell.captures_iter(html).collect();
        assert_eq!(cells.len(), failopen::census::row::FAULTS.len(), "{}: {html}", r.guard);
        for c in cells {
            assert_eq!(&c[5], r.verdict(&c[2]).unwrap(), "{} {}", r.guard, &c[2]);
            assert_eq!(&c[4], format!("failopen census --only {} --force", r.guard), "{}", r.guard);
            let evidence: serde_json::Value =
                serde_json::from_slice(&std::fs::read(site.join(&c[3])).unwrap_or_else(|e| panic!("{}: {e}", &c[3])))
                    .unwrap();
            assert_eq!(evidence["row"]["guard"], r.guard.as_str(), "{}", &c[3]);
            assert_eq!(evidence["audit"]["exit_code"], r.exit_code, "{}", &c[3]);
        }
    }
    let front = dump_dom(&format!("file://{}", site.join("index.html").display()));
    assert!(front.contains("href=\"census.html\""), "the front page links the census");
}
