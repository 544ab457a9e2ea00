//! The npm packages (`npm/`): `npm/build.mjs` makes the launcher `failopen`
//! and this machine's platform package (`@failopen/linux-x64`...) around the
//! binary under test, `npm pack` packs both, and `npm install --offline`
//! installs the two tarballs into a temp project, with npm's cache, config
//! and registry all pointed at nothing (no registry is reached). Then the
//! installed command runs as a user runs it: `npx failopen ...`, and the
//! launcher in `node_modules/.bin` (what `npm install -g` puts on PATH).

use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use crate::support::{self, procs};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Node's `${process.platform}-${process.arch}` on this machine: the platform package's name.
fn node_platform() -> String {
    let os = match std::env::consts::OS {
        "macos" => "darwin",
        other => other,
    };
    let cpu = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => other,
    };
    format!("{os}-{cpu}")
}

/// A temp directory with npm pointed at it: its own cache and an empty user
/// config, offline, and a registry where nothing listens (so a request for
/// anything not in the tarballs fails rather than downloads), plus a tag in
/// every process's environment for the leftover scan.
struct Npm {
    dir: tempfile::TempDir,
    tag: String,
}

impl Npm {
    fn new() -> Npm {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("npmrc"), "").unwrap();
        let tag = format!("FAILOPEN_NPM_TEST={}", dir.path().display());
        Npm { dir, tag }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `program args` in `cwd`, in a process group of its own.
    fn command(&self, program: impl AsRef<std::ffi::OsStr>, args: &[&str], cwd: &Path) -> Command {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .current_dir(cwd)
            .env("npm_config_cache", self.path().join("cache"))
            .env("npm_config_userconfig", self.path().join("npmrc"))
            .env("npm_config_registry", "http://127.0.0.1:9/")
            .env("npm_config_offline", "true")
            .env("npm_config_audit", "false")
            .env("npm_config_fund", "false")
            .env("npm_config_update_notifier", "false")
            .env("npm_config_loglevel", "error")
            .env("FAILOPEN_NPM_TEST", self.path())
            .env_remove("FAILOPEN_BINARY")
            .env("CI", "true")
            .process_group(0);
        cmd
    }

    /// Run to the end (with a minute's bound), stdin closed.
    fn run(&self, program: impl AsRef<std::ffi::OsStr>, args: &[&str], cwd: &Path) -> Output {
        let mut cmd = self.command(program, args, cwd);
        let child = cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        wait_output(child, Duration::from_secs(60))
    }

    /// `node npm/build.mjs args`, which must succeed.
    fn build(&self, args: &[&str]) {
        let out =
            self.run("node", &[&[support::repo().join("npm/build.mjs").to_str().unwrap()], args].concat(), self.path());
        assert!(out.status.success(), "npm/build.mjs {args:?}: {}", text(&out));
    }

    /// `npm pack` of the package directory `dir`: the tarball's path.
    fn pack(&self, dir: &Path) -> PathBuf {
        let dest = self.path().join("tarballs");
        std::fs::create_dir_all(&dest).unwrap();
        let out = self.run("npm", &["pack", "--json", "--pack-destination", dest.to_str().unwrap()], dir);
        assert!(out.status.success(), "npm pack {}: {}", dir.display(), text(&out));
        let packed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        dest.join(packed[0]["filename"].as_str().unwrap())
    }

    /// A project in `name` with `tarballs` installed offline.
    fn install(&self, name: &str, tarballs: &[&Path]) -> PathBuf {
        let project = self.path().join(name);
        std::fs::create_dir(&project).unwrap();
        let tarballs: Vec<&str> = tarballs.iter().map(|t| t.to_str().unwrap()).collect();
        let out = self.run("npm", &[&["install", "--offline", "--no-save"][..], &tarballs].concat(), &project);
        assert!(out.status.success(), "npm install --offline {tarballs:?}: {}", text(&out));
        project
    }

    /// Live processes started by this test.
    fn leftovers(&self) -> Vec<(u32, String)> {
        procs::with_env(&self.tag)
    }
}

impl Drop for Npm {
    fn drop(&mut self) {
        for (pid, _) in self.leftovers() {
            let _ = kill(Pid::from_raw(pid as i32), Signal::SIGKILL);
        }
    }
}

fn text(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The child's output, after it ends or, past `limit`, after its group is killed.
fn wait_output(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = kill(Pid::from_raw(-(child.id() as i32)), Signal::SIGKILL);
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Waits for the one live process of the test whose command line starts with `binary`.
fn process_of(npm: &Npm, binary: &Path) -> u32 {
    let start = Instant::now();
    loop {
        let found: Vec<u32> = npm
            .leftovers()
            .into_iter()
            .filter(|(_, cmd)| cmd.starts_with(binary.to_str().unwrap()))
            .map(|(pid, _)| pid)
            .collect();
        if let [pid] = found[..] {
            return pid;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "{} did not start: {:?}", binary.display(), npm.leftovers());
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits until process `pid` catches SIGTERM (bit 15 of `SigCgt` in its
/// `/proc` status): a process that merely exists may not have installed its
/// handler yet, and a SIGTERM then ends it by the default action.
fn catches_sigterm(pid: u32) {
    let start = Instant::now();
    let catches = || {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let mask = status.lines().find_map(|l| l.strip_prefix("SigCgt:")).map(str::trim).unwrap_or("0");
        u64::from_str_radix(mask, 16).is_ok_and(|m| m & (1 << (15 - 1)) != 0)
    };
    while !catches() {
        assert!(start.elapsed() < Duration::from_secs(30), "process {pid} never caught SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The launcher and this machine's platform package, built and packed.
struct Packed {
    launcher: PathBuf,
    platform: PathBuf,
}

fn build_and_pack(npm: &Npm) -> Packed {
    let launcher = npm.path().join("launcher");
    let platform = npm.path().join("platform");
    npm.build(&["launcher", launcher.to_str().unwrap()]);
    npm.build(&["platform", &node_platform(), support::bin().to_str().unwrap(), platform.to_str().unwrap()]);
    Packed { launcher: npm.pack(&launcher), platform: npm.pack(&platform) }
}

/// `tar -tvzf`: each entry's mode string and path.
fn tar_listing(tarball: &Path) -> Vec<(String, String)> {
    let out = Command::new("tar").arg("-tvzf").arg(tarball).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            (fields[0].to_string(), fields.last().unwrap().to_string())
        })
        .collect()
}

#[test]
fn npm_package_installs_offline_and_npx_runs_the_binary_with_its_exit_codes_and_signals() {
    let npm = Npm::new();
    let packed = build_and_pack(&npm);
    let plat = node_platform();
    assert_eq!(packed.launcher.file_name().unwrap(), format!("failopen-{VERSION}.tgz").as_str());
    assert_eq!(packed.platform.file_name().unwrap(), format!("failopen-{plat}-{VERSION}.tgz").as_str());

    // What each tarball holds: the binary executable, nothing else of the repository.
    let mut launcher_files: Vec<String> = tar_listing(&packed.launcher).into_iter().map(|(_, p)| p).collect();
    launcher_files.sort();
    assert_eq!(
        launcher_files,
        ["package/LICENSE", "package/README.md", "package/bin/failopen", "package/package.json"]
    );
    let platform_files = tar_listing(&packed.platform);
    let binary = platform_files.iter().find(|(_, p)| p == "package/bin/failopen").expect("the binary is packed");
    assert!(binary.0.starts_with("-rwx"), "the binary is executable in the tarball: {platform_files:?}");
    assert_eq!(platform_files.len(), 4, "{platform_files:?}");

    let project = npm.install("project", &[&packed.launcher, &packed.platform]);
    let modules = project.join("node_modules");
    let installed = modules.join("@failopen").join(&plat).join("bin/failopen");
    assert_eq!(std::fs::read(&installed).unwrap(), std::fs::read(support::bin()).unwrap(), "the binary, byte for byte");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(modules.join("failopen/package.json")).unwrap()).unwrap();
    assert_eq!(manifest["version"], VERSION, "stamped from Cargo.toml");
    let optional = manifest["optionalDependencies"].as_object().unwrap();
    let names: Vec<&str> = optional.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        ["@failopen/linux-x64", "@failopen/linux-arm64", "@failopen/darwin-x64", "@failopen/darwin-arm64"]
    );
    assert!(optional.values().all(|v| v == VERSION), "{optional:?}");

    // npx failopen --version: the binary answered, through npm exec and the launcher.
    let version = npm.run("npx", &["--offline", "failopen", "--version"], &project);
    assert!(version.status.success(), "{}", text(&version));
    assert_eq!(String::from_utf8_lossy(&version.stdout), format!("failopen {VERSION}\n"));

    // An exit code of the binary's own (diff: 3, a guard opened), with its stdout, passes through.
    let (old, new) = (support::fixture("report/v328.csv"), support::fixture("report/v240.csv"));
    let diff =
        npm.run("npx", &["--offline", "failopen", "diff", old.to_str().unwrap(), new.to_str().unwrap()], &project);
    assert_eq!(diff.status.code(), Some(3), "{}", text(&diff));
    assert!(String::from_utf8_lossy(&diff.stdout).contains("(guard opened)"), "{}", text(&diff));

    // A SIGTERM sent to the launcher alone reaches the binary: seal, waiting for its
    // payload on a stdin that stays open, refuses naming the signal (without it, seal
    // would wait out its 60 s deadline and name that).
    let launcher = modules.join(".bin/failopen");
    let seal = ["seal", "--deadline", "60", "--", "sleep", "1000"];
    let mut cmd = npm.command(&launcher, &seal, &project);
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let stdin = child.stdin.take();
    let binary = installed.canonicalize().unwrap();
    // Sent once both are ready for it: the launcher forwards it, seal refuses on it.
    catches_sigterm(child.id());
    catches_sigterm(process_of(&npm, &binary));
    kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM).unwrap();
    let sealed = wait_output(child, Duration::from_secs(30));
    drop(stdin);
    assert_eq!(sealed.status.code(), Some(2), "{}", text(&sealed));
    assert!(String::from_utf8_lossy(&sealed.stderr).contains("seal received SIGTERM"), "{}", text(&sealed));

    // The binary killed by a signal: the launcher dies of the same signal.
    let mut cmd = npm.command(&launcher, &seal, &project);
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let stdin = child.stdin.take();
    let pid = process_of(&npm, &binary);
    kill(Pid::from_raw(pid as i32), Signal::SIGKILL).unwrap();
    let killed = wait_output(child, Duration::from_secs(30));
    drop(stdin);
    assert_eq!(killed.status.signal(), Some(Signal::SIGKILL as i32), "{:?}", killed.status);

    let start = Instant::now();
    while !npm.leftovers().is_empty() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(npm.leftovers(), [], "no process of the test is left");
}

/// Without the platform package (npm skips an optional dependency it cannot
/// get, as with --omit=optional), the launcher names the package to install
/// and exits 2, so a hook command run through it blocks rather than allows.
#[test]
fn npm_launcher_without_its_platform_package_names_it_and_exits_2() {
    let npm = Npm::new();
    let packed = build_and_pack(&npm);
    let project = npm.install("project", &[&packed.launcher]);
    assert!(!project.join("node_modules/@failopen").exists(), "npm skipped the optional dependency it could not get");
    let out = npm.run("npx", &["--offline", "failopen", "--version"], &project);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let wanted = format!("@failopen/{}@{VERSION}", node_platform());
    assert!(stderr.contains(&format!("{wanted}, the package that holds the binary")), "{}", text(&out));
    assert!(stderr.contains(&format!("npm install {wanted}")), "{}", text(&out));
    assert!(out.stdout.is_empty(), "{}", text(&out));

    // A machine no platform package is built for (Node made to report a riscv64
    // CPU): the launcher lists the platforms there are, and exits 2 too.
    let preload = npm.path().join("riscv64.js");
    std::fs::write(&preload, "Object.defineProperty(process, 'arch', { value: 'riscv64' });\n").unwrap();
    let mut cmd = npm.command(project.join("node_modules/.bin/failopen"), &["--version"], &project);
    cmd.env("NODE_OPTIONS", format!("--require {}", preload.display()));
    let out = wait_output(cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap(), Duration::from_secs(60));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let os = node_platform().split('-').next().unwrap().to_string();
    assert!(stderr.contains(&format!("no binary for this machine ({os} riscv64)")), "{}", text(&out));
    assert!(stderr.contains("It has one for: linux-x64, linux-arm64, darwin-x64, darwin-arm64."), "{}", text(&out));
    assert!(stderr.contains("cargo install --locked failopen"), "{}", text(&out));
}

/// The build script refuses a platform the launcher does not list, and a missing binary.
#[test]
fn npm_build_refuses_an_unknown_platform_and_a_missing_binary() {
    let npm = Npm::new();
    let script = support::repo().join("npm/build.mjs");
    let bin = support::bin();
    let cases = [
        (vec!["platform", "win32-x64", bin.to_str().unwrap(), "out1"], "no platform \"win32-x64\""),
        (vec!["platform", "linux-x64", "no-such-binary", "out2"], "no-such-binary: no such file"),
        (vec!["launch"], "usage: build.mjs"),
    ];
    for (args, said) in cases {
        let out = npm.run("node", &[&[script.to_str().unwrap()], &args[..]].concat(), npm.path());
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", text(&out));
        assert!(String::from_utf8_lossy(&out.stderr).contains(said), "{args:?}: {}", text(&out));
    }
    assert!(!npm.path().join("out1").exists() && !npm.path().join("out2").exists());
}
