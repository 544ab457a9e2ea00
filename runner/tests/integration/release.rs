//! The release workflow (`.github/workflows/release.yml`), its steps run here
//! as the YAML states them (see [`support::actions`]): a pack step per
//! target puts the binary, README.md and LICENSE into
//! `failopen-TAG-TARGET.tar.gz` beside its SHA-256, and the publish step
//! checks every checksum, gathers them into SHA256SUMS and attaches it all to
//! the tag's release (through `gh`, a recording stand-in here).

use std::path::Path;

use crate::support::actions::{scalar, Runner, Yaml};
use crate::support::{self, scripts};

const RELEASE: &str = ".github/workflows/release.yml";
const TAG: &str = "v0.1.0";

/// The build matrix's targets.
fn targets(wf: &Yaml) -> Vec<String> {
    let include = wf.doc["jobs"]["build"]["strategy"]["matrix"]["include"].as_sequence().unwrap();
    include.iter().map(|c| scalar(&c["target"])).collect()
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

#[test]
fn release_packs_each_target_with_its_checksum_and_publishes_them_all() {
    let wf = Yaml::load(RELEASE);
    let want = ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu", "aarch64-apple-darwin", "x86_64-apple-darwin"];
    assert_eq!(targets(&wf), want, "Linux x64 and arm64, macOS on Apple silicon and Intel");
    assert_eq!(scalar(&wf.doc["on"]["push"]["tags"][0]), "v*");

    let d = tempfile::tempdir().unwrap();
    let co = d.path().join("checkout");
    std::fs::create_dir(&co).unwrap();
    for f in ["README.md", "LICENSE"] {
        std::fs::copy(support::repo().join(f), co.join(f)).unwrap();
    }
    // This machine's build stands for its target's; arm64's is a binary this x64 machine cannot run.
    let place = |target: &str, from: &Path| {
        let dir = co.join("target").join(target).join("release");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(from, dir.join("failopen")).unwrap();
    };
    place("x86_64-unknown-linux-gnu", &support::bin());
    let foreign = d.path().join("foreign");
    scripts::write(&foreign, "#!/bin/sh\necho 'run on the wrong machine' >&2\nexit 99\n");
    place("aarch64-unknown-linux-gnu", &foreign);
    let runner = Runner::new(&d.path().join("runner"), support::bin().parent().unwrap());
    for target in ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"] {
        let exprs = [("matrix.target", target), ("github.ref_name", TAG)];
        let pack = runner.run(&wf, Some("build"), "pack", &co, &exprs, &[]);
        assert_eq!(pack.code, 0, "{}", pack.log);
        let name = format!("failopen-{TAG}-{target}");
        assert_eq!(pack.outputs["archive"], format!("dist/{name}.tar.gz"));
        let (files, checked) = listing(&co.join("dist"), &format!("{name}.tar.gz"));
        let inside: Vec<String> =
            ["", "LICENSE", "README.md", "failopen"].iter().map(|f| format!("{name}/{f}")).collect();
        assert_eq!(files, inside, "{}", pack.log);
        assert!(checked, "the checksum file checks out");
        if target.starts_with("x86_64") {
            assert!(
                pack.log.contains(&format!("failopen {}", env!("CARGO_PKG_VERSION"))),
                "it ran --version\n{}",
                pack.log
            );
        }
    }
    let dist: Vec<String> =
        std::fs::read_dir(co.join("dist")).unwrap().flatten().map(|e| e.file_name().into_string().unwrap()).collect();
    assert_eq!(dist.len(), 4, "two archives and two checksums, no folder left: {dist:?}");

    // publish: the artifacts downloaded into dist/, gh a recorder.
    let fake = d.path().join("fake-bin");
    std::fs::create_dir(&fake).unwrap();
    let log = d.path().join("gh.log");
    scripts::write(
        &fake.join("gh"),
        &format!("#!/bin/sh\necho \"$*\" >> '{}'\n[ \"$1 $2\" = 'release view' ] && exit 1\nexit 0\n", log.display()),
    );
    let publisher = Runner::new(&d.path().join("publisher"), &fake);
    let exprs = [("github.ref_name", TAG), ("github.token", "t0ken")];
    let publish = publisher.run(&wf, Some("publish"), "publish", &co, &exprs, &[]);
    assert_eq!(publish.code, 0, "{}", publish.log);
    let calls = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = calls.lines().collect();
    assert_eq!(lines[0], format!("release view {TAG}"));
    assert!(lines[1].starts_with(&format!("release create {TAG} --verify-tag")), "{calls}");
    let upload = lines[2];
    for f in dist.iter().map(String::as_str).chain(["SHA256SUMS"]) {
        assert!(upload.contains(f), "{f} is attached: {upload}");
    }
    let sums = std::fs::read_to_string(co.join("dist/SHA256SUMS")).unwrap();
    assert_eq!(sums.lines().count(), 2, "{sums}");

    // A corrupt archive is refused before anything is attached.
    std::fs::write(co.join(format!("dist/failopen-{TAG}-x86_64-unknown-linux-gnu.tar.gz")), "corrupt").unwrap();
    std::fs::remove_file(&log).unwrap();
    let bad = publisher.run(&wf, Some("publish"), "publish", &co, &exprs, &[]);
    assert_ne!(bad.code, 0, "{}", bad.log);
    assert!(!log.exists(), "nothing went to the release: {:?}", std::fs::read_to_string(&log));
}

/// docs/install.md names an archive for every target the release builds, in
/// the pack step's naming, and the repository the crate's manifest gives.
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
}
