#!/usr/bin/env node
// Builds failopen's npm packages, as directories ready for `npm pack`, with
// the version of the failopen crate (runner/Cargo.toml, or the workspace's
// [workspace.package] when the crate takes its version from there):
//
//   node npm/build.mjs version                          prints the version
//   node npm/build.mjs launcher OUT                     the launcher, `failopen`
//   node npm/build.mjs platform NAME BINARY OUT         @failopen/NAME holding BINARY
//
// NAME is one of the launcher's optionalDependencies without the scope
// (linux-x64, linux-arm64, darwin-x64, darwin-arm64): Node's
// `${process.platform}-${process.arch}`, which is how the launcher finds it.
// OUT must not exist yet. The release workflow and the npm package test
// (runner/tests/integration/npm_package.rs) run it.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.dirname(here);
const template = path.join(here, "failopen");

function die(message) {
  process.stderr.write(`npm/build.mjs: ${message}\n`);
  process.exit(1);
}

/** The `key = "value"` of `section` in a Cargo.toml's text, or a `{ workspace = true }` marker. */
function tomlValue(text, section, key) {
  let current = null;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const header = line.match(/^\[([^\]]+)\]$/);
    if (header) {
      current = header[1].trim();
      continue;
    }
    if (current !== section) {
      continue;
    }
    const plain = line.match(new RegExp(`^${key}\\s*=\\s*"([^"]*)"`));
    if (plain) {
      return plain[1];
    }
    if (new RegExp(`^${key}(\\.workspace\\s*=\\s*true|\\s*=\\s*\\{\\s*workspace\\s*=\\s*true\\s*\\})`).test(line)) {
      return { workspace: true };
    }
  }
  return undefined;
}

/** The failopen crate's version. */
function version() {
  const manifest = path.join(repo, "runner", "Cargo.toml");
  const text = fs.readFileSync(manifest, "utf8");
  if (tomlValue(text, "package", "name") !== "failopen") {
    die(`${manifest}: [package] name is not "failopen"`);
  }
  let v = tomlValue(text, "package", "version");
  if (typeof v === "object") {
    const root = path.join(repo, "Cargo.toml");
    v = tomlValue(fs.readFileSync(root, "utf8"), "workspace.package", "version");
    if (typeof v !== "string") {
      die(`${root}: [workspace.package] has no version, which runner/Cargo.toml takes`);
    }
  }
  if (typeof v !== "string" || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(v)) {
    die(`${manifest}: [package] version ${JSON.stringify(v)} is not a semver version`);
  }
  return v;
}

function readTemplate() {
  return JSON.parse(fs.readFileSync(path.join(template, "package.json"), "utf8"));
}

function fresh(out) {
  if (fs.existsSync(out)) {
    die(`${out} exists; give a directory that does not`);
  }
  fs.mkdirSync(path.join(out, "bin"), { recursive: true });
  fs.copyFileSync(path.join(repo, "LICENSE"), path.join(out, "LICENSE"));
}

function writeJson(file, value) {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function launcher(out) {
  const v = version();
  const pkg = readTemplate();
  pkg.version = v;
  for (const name of Object.keys(pkg.optionalDependencies)) {
    pkg.optionalDependencies[name] = v;
  }
  fresh(out);
  writeJson(path.join(out, "package.json"), pkg);
  fs.copyFileSync(path.join(template, "README.md"), path.join(out, "README.md"));
  fs.copyFileSync(path.join(template, "bin", "failopen"), path.join(out, "bin", "failopen"));
  fs.chmodSync(path.join(out, "bin", "failopen"), 0o755);
}

function platform(name, binary, out) {
  const launcherPkg = readTemplate();
  const names = Object.keys(launcherPkg.optionalDependencies).map((p) => p.replace(/^@failopen\//, ""));
  if (!names.includes(name)) {
    die(`no platform ${JSON.stringify(name)}: the launcher's optionalDependencies name ${names.join(", ")}`);
  }
  if (!fs.existsSync(binary) || !fs.statSync(binary).isFile()) {
    die(`${binary}: no such file (the failopen binary for ${name})`);
  }
  const [os, cpu] = name.split("-");
  const v = version();
  const pkg = {
    name: `@failopen/${name}`,
    version: v,
    description: `The failopen binary for ${os} ${cpu}; install the package failopen, which runs it.`,
    license: launcherPkg.license,
    homepage: launcherPkg.homepage,
    repository: launcherPkg.repository,
    os: [os],
    cpu: [cpu],
    files: ["bin/failopen", "README.md", "LICENSE"],
    // Yarn's Plug'n'Play keeps it on disk, where the launcher can run it.
    preferUnplugged: true,
  };
  fresh(out);
  writeJson(path.join(out, "package.json"), pkg);
  fs.writeFileSync(
    path.join(out, "README.md"),
    `# @failopen/${name}\n\nThe \`failopen\` binary for ${os} ${cpu}, version ${v}. Install the package ` +
      "[`failopen`](https://www.npmjs.com/package/failopen), which depends on this one on this platform and runs it.\n",
  );
  fs.copyFileSync(binary, path.join(out, "bin", "failopen"));
  fs.chmodSync(path.join(out, "bin", "failopen"), 0o755);
}

const [command, ...args] = process.argv.slice(2);
const usage = "usage: build.mjs version | launcher OUT | platform NAME BINARY OUT";
if (command === "version" && args.length === 0) {
  process.stdout.write(`${version()}\n`);
} else if (command === "launcher" && args.length === 1) {
  launcher(path.resolve(args[0]));
} else if (command === "platform" && args.length === 3) {
  platform(args[0], path.resolve(args[1]), path.resolve(args[2]));
} else {
  die(usage);
}
