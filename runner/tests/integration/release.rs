//! The release workflow (`.github/workflows/release.yml`), its steps run here
//! as the YAML states them (see [`support::actions`]): the version step checks
//! the tag against the crate's version; a pack step per target puts the
//! binary, README.md and LICENSE into `failopen-TAG-TARGET.tar.gz` beside its
//! SHA-256, and the same binary into the npm platform package; the publish
//! step checks every checksum, gathers them into SHA256SUMS and attaches it
//! all to the tag's release (through `gh`, a recording stand-in here); the npm
//! step builds the launcher and publishes the platform packages before it
//! (through an `npm` whose `view` and `publish` are recorded, the rest real).

use std::path::{Path, PathBuf};

use crate::support::actions::{scalar, Runner, Yaml};
use crate::support::{self, scripts};

const RELEASE: &str = ".github/workflows/release.yml";
const VERSION: &str = env!("CARGO_PKG_VERSION");

fn tag() -> String {
    format!("v{VERSION}")
}

/// The build matrix's cells: (target, npm platform).
fn cells(wf: &Yaml) -> Vec<(String, String)> {
    let include = wf.doc["jobs"]["build"]["strategy"]["matrix"]["include"].as_sequence().unwrap();
    include.iter().map(|c| (scalar(&c["target"]), scalar(&c["npm"]))).collect()
}

/// The build matrix's targets.
fn targets(wf: &Yaml) -> Vec<String> {
    cells(wf).into_iter().map(|(t, _)| t).collect()
}

/// `tar -tzf` of an archive, and `sha256sum -c` of its checksum file, in `dir`.
fn listing(dir: &Path, archive: &str) -> (Vec<String>, bool) {
    let tar = std::process::Command::new("tar").arg("-tzf").arg(dir.join(archive)).output().unwrap();
    assert!(tar.status.success(), "{archive}: {}", String::from_utf8_lossy(&tar.stderr));
    let mut names: Vec<String> = String::from_utf8(tar.stdout).unwrap().lines().map(str::to_string).collect();
    names.sort();
    let check = std::process::Command::new("sha256sum")
        .arg("-c")
        .arg(format!("{archive}.sha256"))
        .current_dir(dir)
        .output()
        .unwrap();
    (names, check.status.success())
}

/// One file of a tarball, read with `tar -xOzf`.
fn file_in(tarball: &Path, member: &str) -> Vec<u8> {
    let out = std::process::Command::new("tar").arg("-xOzf").arg(tarball).arg(member).output().unwrap();
    assert!(out.status.success(), "{}: {member}: {}", tarball.display(), String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// A checkout with what the release steps read: README.md, LICENSE, the
/// manifests (the version) and `npm/`.
fn checkout(dir: &Path) -> PathBuf {
    let co = dir.join("checkout");
    std::fs::create_dir_all(co.join("runner")).unwrap();
    std::fs::create_dir_all(co.join("npm/failopen/bin")).unwrap();
    for f in [
        "README.md",
        "LICENSE",
        "Cargo.toml",
        "runner/Cargo.toml",
        "npm/build.mjs",
        "npm/failopen/package.json",
        "npm/failopen/README.md",
    ] {
        std::fs::copy(support::repo().join(f), co.join(f)).unwrap();
    }
    let launcher = std::fs::read(support::repo().join("npm/failopen/bin/failopen")).unwrap();
    scripts::write_mode(&co.join("npm/failopen/bin/failopen"), &launcher, 0o755);
    co
}

/// npm kept inside the test's directory: its own cache and an empty user config.
fn npm_env(runner: &mut Runner, dir: &Path) {
    std::fs::write(dir.join("npmrc"), "").unwrap();
    runner.env.push(("npm_config_cache".into(), dir.join("npm-cache").display().to_string()));
    runner.env.push(("npm_config_userconfig".into(), dir.join("npmrc").display().to_string()));
    runner.env.push(("npm_config_update_notifier".into(), "false".into()));
}

#[test]
fn release_checks_the_tag_against_the_crate_version() {
    let wf = Yaml::load(RELEASE);
    let d = tempfile::tempdir().unwrap();
    let co = checkout(d.path());
    let runner = Runner::new(&d.path().join("runner"), support::bin().parent().unwrap());
    let good = runner.run(&wf, Some("version"), "check", &co, &[("github.ref_name", &tag())], &[]);
    assert_eq!(good.code, 0, "{}", good.log);
    assert_eq!(good.outputs["version"], VERSION);
    let bad = runner.run(&wf, Some("version"), "check", &co, &[("github.ref_name", "v9.9.9")], &[]);
    assert_eq!(bad.code, 1, "{}", bad.log);
    assert!(bad.log.contains(&format!("tag v9.9.9 does not match the crate's version {VERSION}")), "{}", bad.log);
    for job in ["build", "npm", "crates"] {
        let needs = yaml_serde::to_string(&wf.doc["jobs"][job]["needs"]).unwrap();
        assert!(needs.contains("version"), "{job} waits for the version check: {needs}");
    }
}

#[test]
fn release_packs_each_target_with_its_checksum_and_npm_package_and_publishes_them_all() {
    let wf = Yaml::load(RELEASE);
    let want = [
        ("x86_64-unknown-linux-musl", "linux-x64"),
        ("aarch64-unknown-linux-musl", "linux-arm64"),
        ("aarch64-apple-darwin", "darwin-arm64"),
        ("x86_64-apple-darwin", "darwin-x64"),
    ];
    let got = cells(&wf);
    let got: Vec<(&str, &str)> = got.iter().map(|(t, n)| (t.as_str(), n.as_str())).collect();
    assert_eq!(got, want, "Linux x64 and arm64 (static), macOS on Apple silicon and Intel");
    assert_eq!(scalar(&wf.doc["on"]["push"]["tags"][0]), "v*");
    // Every platform package the launcher lists is built, and no other.
    let launcher: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(support::repo().join("npm/failopen/package.json")).unwrap())
            .unwrap();
    let mut listed: Vec<String> = launcher["optionalDependencies"].as_object().unwrap().keys().cloned().collect();
    let mut built: Vec<String> = want.iter().map(|(_, n)| format!("@failopen/{n}")).collect();
    listed.sort();
    built.sort();
    assert_eq!(listed, built);

    let d = tempfile::tempdir().unwrap();
    let co = checkout(d.path());
    // This machine's build stands for the x64 targets' (it runs here, so the step runs
    // its --version); the arm64 ones are a binary this x64 machine cannot run.
    let foreign = d.path().join("foreign");
    scripts::write(&foreign, "#!/bin/sh\necho 'run on the wrong machine' >&2\nexit 99\n");
    let binary_of = |target: &str| if target.starts_with("x86_64") { support::bin() } else { foreign.clone() };
    let mut runner = Runner::new(&d.path().join("runner"), support::bin().parent().unwrap());
    npm_env(&mut runner, d.path());
    let tag = tag();
    for (target, npm) in want {
        let dir = co.join("target").join(target).join("release");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(binary_of(target), dir.join("failopen")).unwrap();
        let exprs = [("matrix.target", target), ("matrix.npm", npm), ("github.ref_name", tag.as_str())];
        let pack = runner.run(&wf, Some("build"), "pack", &co, &exprs, &[]);
        assert_eq!(pack.code, 0, "{}", pack.log);
        let name = format!("failopen-{tag}-{target}");
        assert_eq!(pack.outputs["archive"], format!("dist/{name}.tar.gz"));
        let (files, checked) = listing(&co.join("dist"), &format!("{name}.tar.gz"));
        let inside: Vec<String> =
            ["", "LICENSE", "README.md", "failopen"].iter().map(|f| format!("{name}/{f}")).collect();
        assert_eq!(files, inside, "{}", pack.log);
        assert!(checked, "the checksum file checks out");
        if target.starts_with("x86_64") {
            assert!(pack.log.contains(&format!("failopen {VERSION}")), "it ran --version\n{}", pack.log);
        }
        let tarball = co.join(format!("dist-npm/failopen-{npm}-{VERSION}.tgz"));
        assert_eq!(file_in(&tarball, "package/bin/failopen"), std::fs::read(binary_of(target)).unwrap());
        let manifest: serde_json::Value = serde_json::from_slice(&file_in(&tarball, "package/package.json")).unwrap();
        assert_eq!(manifest["name"], format!("@failopen/{npm}"));
        assert_eq!(manifest["version"], VERSION);
        let (os, cpu) = npm.split_once('-').unwrap();
        assert_eq!((manifest["os"][0].as_str(), manifest["cpu"][0].as_str()), (Some(os), Some(cpu)));
    }
    let listed = |dir: &str| -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(co.join(dir)).unwrap().flatten().map(|e| e.file_name().into_string().unwrap()).collect();
        names.sort();
        names
    };
    let dist = listed("dist");
    assert_eq!(dist.len(), 8, "four archives and four checksums, no folder left: {dist:?}");
    assert_eq!(listed("dist-npm").len(), 4, "four npm tarballs, no folder left: {:?}", listed("dist-npm"));

    // release: the artifacts downloaded into dist/, gh a recorder.
    let fake = d.path().join("fake-bin");
    std::fs::create_dir(&fake).unwrap();
    let log = d.path().join("gh.log");
    scripts::write(
        &fake.join("gh"),
        &format!("#!/bin/sh\necho \"$*\" >> '{}'\n[ \"$1 $2\" = 'release view' ] && exit 1\nexit 0\n", log.display()),
    );
    let publisher = Runner::new(&d.path().join("publisher"), &fake);
    let exprs = [("github.ref_name", tag.as_str()), ("github.token", "t0ken")];
    let publish = publisher.run(&wf, Some("release"), "publish", &co, &exprs, &[]);
    assert_eq!(publish.code, 0, "{}", publish.log);
    let calls = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = calls.lines().collect();
    assert_eq!(lines[0], format!("release view {tag}"));
    assert!(lines[1].starts_with(&format!("release create {tag} --verify-tag")), "{calls}");
    let upload = lines[2];
    for f in dist.iter().map(String::as_str).chain(["SHA256SUMS"]) {
        assert!(upload.contains(f), "{f} is attached: {upload}");
    }
    let sums = std::fs::read_to_string(co.join("dist/SHA256SUMS")).unwrap();
    assert_eq!(sums.lines().count(), 4, "{sums}");

    // A corrupt archive is refused before anything is attached.
    std::fs::write(co.join(format!("dist/failopen-{tag}-x86_64-unknown-linux-musl.tar.gz")), "corrupt").unwrap();
    std::fs::remove_file(&log).unwrap();
    let bad = publisher.run(&wf, Some("release"), "publish", &co, &exprs, &[]);
    assert_ne!(bad.code, 0, "{}", bad.log);
    assert!(!log.exists(), "nothing went to the release: {:?}", std::fs::read_to_string(&log));

    npm_publishes_the_platform_packages_then_the_launcher(&wf, &co, d.path());
}

/// The npm job's step on the four platform tarballs the pack steps made: an
/// `npm` whose `view` says linux-x64 is on the registry already and whose
/// `publish` records, everything else the real npm.
fn npm_publishes_the_platform_packages_then_the_launcher(wf: &Yaml, co: &Path, dir: &Path) {
    let real = which("npm");
    let fake = dir.join("fake-npm");
    std::fs::create_dir(&fake).unwrap();
    let log = dir.join("npm.log");
    let script = format!(
        "#!/bin/sh\ncase \"$1\" in\n\
         view) echo \"$*\" >> '{log}'; [ \"$2\" = '@failopen/linux-x64@{VERSION}' ] && echo {VERSION} && exit 0; exit 1;;\n\
         publish) echo \"$*\" >> '{log}'; exit 0;;\n\
         esac\nexec '{real}' \"$@\"\n",
        log = log.display(),
        real = real.display()
    );
    scripts::write(&fake.join("npm"), &script);
    let mut runner = Runner::new(&dir.join("npm-runner"), &fake);
    npm_env(&mut runner, dir);
    let exprs = [("needs.version.outputs.version", VERSION), ("secrets.NPM_TOKEN", "t0ken")];
    let step = runner.run(wf, Some("npm"), "npm", co, &exprs, &[]);
    assert_eq!(step.code, 0, "{}", step.log);
    let calls = std::fs::read_to_string(&log).unwrap();
    let publishes: Vec<&str> = calls.lines().filter(|l| l.starts_with("publish ")).collect();
    let published: Vec<String> =
        ["linux-arm64", "darwin-x64", "darwin-arm64"].iter().map(|p| format!("failopen-{p}-{VERSION}.tgz")).collect();
    let launcher = format!("dist-npm/failopen-{VERSION}.tgz");
    assert_eq!(publishes.len(), 4, "three platform packages and the launcher; linux-x64 was there already: {calls}");
    for (line, name) in publishes.iter().zip(&published) {
        assert_eq!(*line, format!("publish --access public --provenance dist-npm/{name}"), "{calls}");
    }
    assert_eq!(publishes[3], format!("publish --access public --provenance {launcher}"), "the launcher last: {calls}");
    let manifest: serde_json::Value =
        serde_json::from_slice(&file_in(&co.join(&launcher), "package/package.json")).unwrap();
    assert_eq!(manifest["version"], VERSION);
    assert!(manifest["optionalDependencies"].as_object().unwrap().values().all(|v| v == VERSION), "{manifest}");

    // A platform tarball missing: nothing is published.
    std::fs::remove_file(co.join(format!("dist-npm/failopen-darwin-x64-{VERSION}.tgz"))).unwrap();
    std::fs::remove_file(co.join(&launcher)).unwrap();
    std::fs::remove_file(&log).unwrap();
    let bad = runner.run(wf, Some("npm"), "npm", co, &exprs, &[]);
    assert_ne!(bad.code, 0, "{}", bad.log);
    assert!(bad.log.contains("the build made no @failopen/darwin-x64"), "{}", bad.log);
    let calls = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(!calls.contains("publish"), "nothing was published: {calls}");
}

/// The absolute path of `program` on PATH.
fn which(program: &str) -> PathBuf {
    std::env::var("PATH")
        .unwrap_or_default()
        .split(':')
        .map(|d| Path::new(d).join(program))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("no {program} on PATH"))
}

/// docs/install.md names an archive and an npm package for every target the
/// release builds, in the pack step's naming, the repository the crate's
/// manifest gives, and the crate's rust-version.
#[test]
fn the_install_page_names_every_released_archive_and_the_repository() {
    let wf = Yaml::load(RELEASE);
    let page = std::fs::read_to_string(support::repo().join("docs/install.md")).unwrap();
    for target in targets(&wf) {
        let archive = format!("`failopen-TAG-{target}.tar.gz`");
        assert!(page.contains(&archive), "docs/install.md does not name {archive}");
    }
    let repository = env!("CARGO_PKG_REPOSITORY");
    assert!(repository.starts_with("https://github.com/"), "{repository}");
    assert!(page.contains(&format!("cargo install --locked --git {repository} failopen")), "{repository}");
    assert!(page.contains(&format!("{repository}/releases/download/")));
    assert!(page.contains("cargo install --locked failopen"));
    for (_, npm) in cells(&wf) {
        assert!(page.contains(&format!("`@failopen/{npm}`")), "docs/install.md does not name @failopen/{npm}");
    }
    assert!(page.contains("npx failopen audit") && page.contains("npm install -g failopen"));
    let rust = env!("CARGO_PKG_RUST_VERSION");
    assert!(!rust.is_empty(), "runner/Cargo.toml declares rust-version");
    assert!(page.contains(&format!("rust-version = \"{rust}\"")), "docs/install.md gives rust-version {rust}");
    assert!(page.contains(&format!("Rust {rust}+")), "docs/install.md gives Rust {rust}+");
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// What `cargo publish` packs is a crate's own folder (symlinks followed), so
/// a file it embeds by a path that climbs out of that folder exists in the
/// checkout and not in the package: the build from the registry fails (as CI's
/// `cargo publish --dry-run` did on `../../../../guards/…`). The embedded
/// paths are resolved lexically, as `cargo package` lays the crate out.
#[test]
fn every_file_a_crate_embeds_lies_inside_that_crate() {
    let include = regex::Regex::new(r#"include_(?:str|bytes)!\(\s*(?:concat!\(\s*)?"([^"]+)""#).unwrap();
    let mut outside = Vec::new();
    let mut seen = 0;
    for krate in ["runner", "seal"] {
        let root = support::repo().join(krate);
        let mut files = Vec::new();
        rust_files(&root.join("src"), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for cap in include.captures_iter(&text) {
                seen += 1;
                let rel = file.parent().unwrap().strip_prefix(&root).unwrap().join(&cap[1]);
                let mut depth = 0i32;
                for part in rel.components() {
                    match part {
                        std::path::Component::ParentDir => depth -= 1,
                        std::path::Component::Normal(_) => depth += 1,
                        _ => {}
                    }
                    if depth < 0 {
                        outside.push(format!("{}: {}", file.display(), &cap[1]));
                        break;
                    }
                }
            }
        }
    }
    assert!(seen > 20, "found only {seen} embedded files: is the pattern still right?");
    assert!(outside.is_empty(), "embedded from outside the crate's folder:\n{}", outside.join("\n"));
}
