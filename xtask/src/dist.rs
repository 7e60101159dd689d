//! `cargo xtask dist --out SITE [--version V]`: the page as a static site
//! that any host can serve from any sub-path, with no special headers.
//!
//! ```text
//! SITE/index.html               the current release's page (assets in v/…)
//! SITE/sw.js                    service worker: the current build offline
//! SITE/manifest.webmanifest     installable web app
//! SITE/versions.json            which releases the site holds, which is current
//! SITE/CHANGELOG.txt            what changed in the numbers, release by release
//! SITE/v/<version>/index.html   every release's page, kept forever
//! SITE/v/<version>/app-<hash>/  its files: scripts, styles, wasm, meshes
//! ```
//!
//! A link names its release (`#v=0.1.0&…`) and points at the site's root;
//! the root page sends a link of another release to `v/<version>/`, so a
//! link keeps its numbers after later releases. The asset folder's name is
//! a hash of everything in it, so no cache (the browser's, a proxy's, the
//! service worker's) can hand out a script of one build beside a module of
//! another: a new build is a new folder.
//!
//! Running `dist` into a folder that holds an earlier site adds this
//! release and makes it current; it keeps every `v/` folder and refuses to
//! replace one with a different build (a release's build never changes). A
//! folder that is neither empty nor an earlier site is refused, naming what
//! it found.

use crate::cmd::{Error, Result};
use crate::fnv::fnv1a;
use crate::wasm;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The marker that says a folder is a ContactLab site.
const SITE_FORMAT: &str = "contactlab-site/1";

/// What the root of a site may hold besides `v/`: the files dist writes,
/// and what a host's publishing branch keeps beside them.
const ROOT_ENTRIES: &[&str] = &[
    "index.html",
    "sw.js",
    "manifest.webmanifest",
    "versions.json",
    "CHANGELOG.txt",
    ".nojekyll",
    ".git",
    "CNAME",
];

/// The line by which a page module says it is loaded with `import()` when
/// first needed (after the first frame, or only in a page that needs it:
/// the view's stand-in without WebGL2, the bench mode), so the page does
/// not preload it.
const LOADED_WHEN_NEEDED: &str =
    "// Loaded with import() when first needed: not preloaded (xtask/src/dist.rs).";

/// The service worker's code; dist puts the cache name and the precache
/// list in front of it.
const SERVICE_WORKER: &str = include_str!("site/sw.js");

/// Command-line options of `dist`.
pub struct Options {
    out: PathBuf,
    version: Option<String>,
}

impl Options {
    /// Options as `--out out [--version version]` would give them.
    pub fn new(out: PathBuf, version: Option<String>) -> Self {
        Options { out, version }
    }

    /// Parses `--out DIR` and `--version V` (also as `--out=DIR`).
    pub fn parse(args: &[String]) -> Result<Self> {
        const USAGE: &str = "usage: cargo xtask dist --out SITE [--version V]";
        let mut out = None;
        let mut version = None;
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let (name, inline) = match arg.split_once('=') {
                Some((name, value)) => (name, Some(value.to_string())),
                None => (arg.as_str(), None),
            };
            let slot = match name {
                "--out" => &mut out,
                "--version" => &mut version,
                _ => return Err(Error::new(format!("unknown option `{arg}` ({USAGE})"))),
            };
            let value = inline
                .or_else(|| args.next().cloned())
                .filter(|value| !value.is_empty())
                .ok_or_else(|| Error::new(format!("{name} needs a value ({USAGE})")))?;
            *slot = Some(value);
        }
        let out = out.ok_or_else(|| Error::new(format!("--out is required ({USAGE})")))?;
        if let Some(version) = &version {
            check_version(version)
                .map_err(|problem| Error::new(format!("--version {version:?}: {problem}")))?;
        }
        Ok(Options {
            out: PathBuf::from(out),
            version,
        })
    }
}

/// Builds the page and writes (or adds to) the site.
pub fn run(root: &Path, options: &Options) -> Result<()> {
    let version = match &options.version {
        Some(version) => version.clone(),
        None => cargo_version(root)?,
    };
    // Refuse a wrong folder before minutes of building.
    let earlier = inspect(&options.out)?;
    wasm::build(root)?;
    let build = Build::collect(root, &version)?;
    let written = write_site(&options.out, &build, &earlier)?;
    println!(
        "\nContactLab {version} is in {} (build {}; releases: {}).\n\
         Serve the folder from any static host, or try it: cd {} && python3 -m http.server 8000",
        options.out.display(),
        build.id,
        written.join(", "),
        options.out.display()
    );
    Ok(())
}

/// The version in Cargo.toml's `[package]`.
pub fn cargo_version(root: &Path) -> Result<String> {
    let manifest = root.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest)
        .map_err(|e| Error::new(format!("cannot read {}: {e}", manifest.display())))?;
    let version = text
        .lines()
        .skip_while(|line| line.trim() != "[package]")
        .find_map(|line| line.trim().strip_prefix("version = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .ok_or_else(|| Error::new(format!("{} has no [package] version", manifest.display())))?;
    check_version(version).map_err(|problem| {
        Error::new(format!(
            "{}: version {version:?}: {problem}",
            manifest.display()
        ))
    })?;
    Ok(version.to_string())
}

/// A release's version: `MAJOR.MINOR.PATCH`, optionally `-` and a
/// pre-release label of letters, digits, dots and hyphens. Links carry it
/// and it names a folder, so nothing else is allowed in it.
pub fn check_version(version: &str) -> std::result::Result<(), String> {
    let (core, label) = match version.split_once('-') {
        Some((core, label)) => (core, Some(label)),
        None => (version, None),
    };
    let numbers: Vec<&str> = core.split('.').collect();
    let numbers_ok = numbers.len() == 3
        && numbers
            .iter()
            .all(|n| !n.is_empty() && n.len() <= 9 && n.bytes().all(|b| b.is_ascii_digit()));
    let label_ok = label.is_none_or(|label| {
        !label.is_empty()
            && label.len() <= 40
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
    });
    if numbers_ok && label_ok {
        Ok(())
    } else {
        Err("a version is three numbers such as 0.2.0, optionally followed by - and a label of letters, digits, dots and hyphens (0.2.0-rc.1)".into())
    }
}

/// One build of the page: its files (paths relative to the asset folder)
/// and the id that names the asset folder.
struct Build {
    version: String,
    id: String,
    files: Vec<(String, Vec<u8>)>,
    index_template: String,
    changelog: String,
}

impl Build {
    /// Reads `www/` (with the freshly built `pkg/`) and hashes it.
    fn collect(root: &Path, version: &str) -> Result<Build> {
        let www = root.join("www");
        let mut files = Vec::new();
        collect_files(&www, &www, &mut files)?;
        files.retain(|(path, _)| path != "index.html");
        files.sort();
        crate::minify::scripts_and_styles(root, &mut files, LOADED_WHEN_NEEDED)?;
        let index_path = www.join("index.html");
        let index_template = std::fs::read_to_string(&index_path)
            .map_err(|e| Error::new(format!("cannot read {}: {e}", index_path.display())))?;
        let changelog_path = root.join("CHANGELOG.md");
        let changelog = std::fs::read_to_string(&changelog_path)
            .map_err(|e| Error::new(format!("cannot read {}: {e}", changelog_path.display())))?;
        let mut hashed = Vec::new();
        hashed.extend_from_slice(version.as_bytes());
        hashed.push(0);
        hashed.extend_from_slice(index_template.as_bytes());
        for (path, bytes) in &files {
            hashed.extend_from_slice(path.as_bytes());
            hashed.push(0);
            hashed.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
            hashed.extend_from_slice(bytes);
        }
        Ok(Build {
            version: version.to_string(),
            id: format!("{:016x}", fnv1a(&hashed)),
            files,
            index_template,
            changelog,
        })
    }

    fn asset_folder(&self) -> String {
        format!("app-{}", self.id)
    }

    /// The page, with its asset references pointing into `asset_prefix`
    /// and the facts the page reads about itself in `<meta>` tags.
    fn page(&self, asset_prefix: &str, site_root: &str) -> Result<String> {
        let mut html = self.index_template.clone();
        // The icon is inline in index.html (a data: URL of favicon.svg, which
        // stays for the manifest): no requests of its own before the first
        // view, which has 600 kB (issue 27).
        for reference in [
            "href=\"style.css\"",
            "src=\"start-worker.js\"",
            "src=\"main.js\"",
        ] {
            let (attribute, path) = reference.split_once('=').unwrap_or_default();
            let rewritten = format!("{attribute}=\"{asset_prefix}{}", &path[1..]);
            if !html.contains(reference) {
                return Err(Error::new(format!(
                    "www/index.html no longer has `{reference}`; xtask/src/dist.rs rewrites it to {rewritten}\" and must learn the new form"
                )));
            }
            html = html.replace(reference, &rewritten);
        }
        let head = format!(
            "<meta name=\"contactlab-version\" content=\"{}\">\n  \
             <meta name=\"contactlab-build\" content=\"{}\">\n  \
             <meta name=\"contactlab-site-root\" content=\"{site_root}\">\n  \
             <link rel=\"manifest\" href=\"{site_root}manifest.webmanifest\">\n  \
             <meta name=\"theme-color\" content=\"#1d2733\">\n  ",
            self.version, self.id
        );
        let anchor = "<link rel=\"icon\"";
        let at = html.find(anchor).ok_or_else(|| {
            Error::new(
                "www/index.html has no <link rel=\"icon\">; dist puts its <meta> tags before it",
            )
        })?;
        html.insert_str(at, &head);
        // Every module of the page's own thread, asked for at once: without
        // this the browser finds them level by level of the import tree, one
        // round trip each, which on a slow link costs more than their bytes.
        // (The worker's modules cannot be preloaded from the page.)
        // A module that marks itself as loaded after the first frame (the
        // lessons) is left out: it is not part of the first load.
        let preloads: String = self
            .files
            .iter()
            .filter(|(path, bytes)| {
                path.ends_with(".js")
                    && *path != "main.js"
                    && *path != "start-worker.js"
                    && *path != "worker/worker.js"
                    && !path.starts_with("pkg/")
                    // The engine adapters run in the worker, when chosen.
                    && !path.starts_with("engines/")
                    && !String::from_utf8_lossy(bytes).contains(LOADED_WHEN_NEEDED)
            })
            .map(|(path, _)| path)
            .map(|path| format!("<link rel=\"modulepreload\" href=\"{asset_prefix}{path}\">\n  "))
            .collect();
        let script = format!("<script type=\"module\" src=\"{asset_prefix}main.js\">");
        let at = html.find(&script).ok_or_else(|| {
            Error::new("dist lost the page's <script type=\"module\"> while rewriting it")
        })?;
        html.insert_str(at, &preloads);
        Ok(html)
    }

    /// Every file of `v/<version>/`, by path relative to that folder.
    fn version_tree(&self) -> Result<Vec<(String, Vec<u8>)>> {
        let folder = self.asset_folder();
        let mut tree = vec![(
            "index.html".to_string(),
            self.page(&format!("{folder}/"), "../../")?.into_bytes(),
        )];
        tree.extend(
            self.files
                .iter()
                .map(|(path, bytes)| (format!("{folder}/{path}"), bytes.clone())),
        );
        tree.sort();
        Ok(tree)
    }
}

/// Every file below `dir` as (path relative to `base` with `/`, bytes);
/// TypeScript declarations and dot files are not part of the page.
fn collect_files(base: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) -> Result<()> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Error::new(format!("cannot read {}: {e}", dir.display())))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::new(format!("cannot read {}: {e}", dir.display())))?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name.ends_with(".d.ts") {
            continue;
        }
        if path.is_dir() {
            collect_files(base, &path, out)?;
        } else {
            let bytes = std::fs::read(&path)
                .map_err(|e| Error::new(format!("cannot read {}: {e}", path.display())))?;
            let relative = path
                .strip_prefix(base)
                .map_err(|_| {
                    Error::new(format!("{} is outside {}", path.display(), base.display()))
                })?
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            out.push((relative, bytes));
        }
    }
    Ok(())
}

/// The releases an earlier site holds (empty for an empty or new folder).
#[derive(Debug, PartialEq)]
struct EarlierSite {
    versions: Vec<String>,
}

/// Accepts a missing or empty folder, or an earlier ContactLab site
/// (then lists its releases); refuses anything else, naming what it found.
fn inspect(out: &Path) -> Result<EarlierSite> {
    let none = EarlierSite {
        versions: Vec::new(),
    };
    if !out.exists() {
        return Ok(none);
    }
    if !out.is_dir() {
        return Err(Error::new(format!(
            "{} is a file; dist writes a site into a folder",
            out.display()
        )));
    }
    let names = entry_names(out)?;
    if names.is_empty() || names == [".git"] {
        return Ok(none);
    }
    let marker = out.join("versions.json");
    let is_site = std::fs::read_to_string(&marker).is_ok_and(|text| {
        serde_json::from_str::<SiteMarker>(&text).is_ok_and(|m| m.format == SITE_FORMAT)
    });
    if !is_site {
        return Err(Error::new(format!(
            "{} is neither empty nor a ContactLab site (no versions.json of format {SITE_FORMAT}; it holds {}); \
             dist writes only into an empty folder or over a site it wrote before",
            out.display(),
            list_for_message(&names)
        )));
    }
    if let Some(stranger) = names
        .iter()
        .find(|name| name.as_str() != "v" && !ROOT_ENTRIES.contains(&name.as_str()))
    {
        return Err(Error::new(format!(
            "{} is a ContactLab site but also holds `{stranger}`, which dist does not write; \
             move it away (dist replaces only its own files and adds releases under v/)",
            out.display()
        )));
    }
    let mut versions = Vec::new();
    let releases = out.join("v");
    if releases.is_dir() {
        for name in entry_names(&releases)? {
            if check_version(&name).is_err() || !releases.join(&name).is_dir() {
                return Err(Error::new(format!(
                    "{} holds `{name}`, which is not a release folder (v/<version>/)",
                    releases.display()
                )));
            }
            versions.push(name);
        }
    }
    Ok(EarlierSite { versions })
}

fn entry_names(dir: &Path) -> Result<Vec<String>> {
    let mut names = std::fs::read_dir(dir)
        .map_err(|e| Error::new(format!("cannot read {}: {e}", dir.display())))?
        .map(|entry| {
            entry
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .map_err(|e| Error::new(format!("cannot read {}: {e}", dir.display())))
        })
        .collect::<Result<Vec<_>>>()?;
    names.sort();
    Ok(names)
}

fn list_for_message(names: &[String]) -> String {
    let shown: Vec<String> = names.iter().take(5).map(|n| format!("`{n}`")).collect();
    let more = names.len().saturating_sub(5);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// Writes this release (unless the site has exactly this build of it
/// already) and the root files; returns the site's releases.
fn write_site(out: &Path, build: &Build, earlier: &EarlierSite) -> Result<Vec<String>> {
    let release_dir = out.join("v").join(&build.version);
    let tree = build.version_tree()?;
    if earlier.versions.contains(&build.version) {
        if let Some(difference) = first_difference(&release_dir, &tree)? {
            return Err(Error::new(format!(
                "{} holds a different build of {} ({difference}). A release's build never \
                 changes, so that links made with it keep their numbers: give this build a new \
                 version (Cargo.toml and a CHANGELOG.md entry), or dist into an empty folder",
                release_dir.display(),
                build.version
            )));
        }
        println!(
            "{} already holds this build of {}; kept",
            release_dir.display(),
            build.version
        );
    } else {
        // Written beside its place and renamed, so an interrupted run
        // leaves no half release that a later run would refuse.
        let partial = out.join("v").join(format!(".{}.partial", build.version));
        if partial.exists() {
            std::fs::remove_dir_all(&partial)
                .map_err(|e| Error::new(format!("cannot remove {}: {e}", partial.display())))?;
        }
        for (path, bytes) in &tree {
            write_file(&partial.join(path), bytes)?;
        }
        std::fs::rename(&partial, &release_dir).map_err(|e| {
            Error::new(format!(
                "cannot move {} to {}: {e}",
                partial.display(),
                release_dir.display()
            ))
        })?;
    }

    let mut versions = earlier.versions.clone();
    if !versions.contains(&build.version) {
        versions.push(build.version.clone());
    }
    versions.sort();
    let assets = format!("v/{}/{}/", build.version, build.asset_folder());
    let root_files = [
        ("index.html", build.page(&assets, "")?),
        ("versions.json", versions_json(&build.version, &versions)),
        ("manifest.webmanifest", manifest(&assets)),
        ("CHANGELOG.txt", build.changelog.clone()),
        (".nojekyll", String::new()),
        ("sw.js", service_worker(build, &tree)),
    ];
    for (name, text) in &root_files {
        write_file(&out.join(name), text.as_bytes())?;
    }
    Ok(versions)
}

/// The first way the folder differs from the tree, if it does.
fn first_difference(dir: &Path, tree: &[(String, Vec<u8>)]) -> Result<Option<String>> {
    let mut found = Vec::new();
    collect_files(dir, dir, &mut found)?;
    found.sort();
    for (path, bytes) in tree {
        match found.iter().find(|(p, _)| p == path) {
            None => return Ok(Some(format!("it lacks {path}"))),
            Some((_, existing)) if existing != bytes => return Ok(Some(format!("{path} differs"))),
            Some(_) => {}
        }
    }
    Ok(found
        .iter()
        .find(|(path, _)| !tree.iter().any(|(p, _)| p == path))
        .map(|(path, _)| format!("it has {path}, which this build does not")))
}

/// Writes through a temporary file and a rename, creating folders.
fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| Error::new(format!("cannot create {}: {e}", parent.display())))?;
    }
    let temporary = path.with_extension("dist-partial");
    std::fs::write(&temporary, bytes)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| Error::new(format!("cannot write {}: {e}", path.display())))
}

/// `versions.json`: the marker of a site, its current release and all it
/// holds. The root page reads it to send an older link to its release.
#[derive(Serialize)]
struct Versions<'a> {
    format: &'a str,
    current: &'a str,
    versions: &'a [String],
}

/// What [`inspect`] reads of a `versions.json`: the marker alone.
#[derive(Deserialize)]
struct SiteMarker {
    format: String,
}

fn versions_json(current: &str, versions: &[String]) -> String {
    pretty(&Versions {
        format: SITE_FORMAT,
        current,
        versions,
    })
}

/// The web app manifest: installable, opening the site's root.
#[derive(Serialize)]
struct WebManifest<'a> {
    name: &'a str,
    short_name: &'a str,
    description: &'a str,
    start_url: &'a str,
    scope: &'a str,
    display: &'a str,
    background_color: &'a str,
    theme_color: &'a str,
    icons: [Icon; 1],
}

#[derive(Serialize)]
struct Icon {
    src: String,
    sizes: &'static str,
    #[serde(rename = "type")]
    media_type: &'static str,
}

fn manifest(assets: &str) -> String {
    pretty(&WebManifest {
        name: "ContactLab",
        short_name: "ContactLab",
        description: "Judge how good a rigid-body simulator's contact points are, in the browser.",
        start_url: "./",
        scope: "./",
        display: "standalone",
        background_color: "#10161d",
        theme_color: "#1d2733",
        icons: [Icon {
            src: format!("{assets}favicon.svg"),
            sizes: "any",
            media_type: "image/svg+xml",
        }],
    })
}

/// A root file's JSON: two-space indented, with a final newline. The types
/// written hold only strings, which always serialise.
fn pretty(value: &impl Serialize) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default() + "\n"
}

/// The service worker: this build's cache name and precache list (every
/// file this release's page can load, and the root files), then its code.
fn service_worker(build: &Build, tree: &[(String, Vec<u8>)]) -> String {
    let mut urls = vec![
        "./".to_string(),
        "versions.json".to_string(),
        "manifest.webmanifest".to_string(),
        "CHANGELOG.txt".to_string(),
    ];
    for (path, _) in tree {
        // The engines' packages (megabytes each) are fetched when an engine
        // is first chosen and kept then, as a visited release's files are.
        if path.contains(&format!("/{}/", wasm::ENGINE_FILES)) {
            continue;
        }
        let url = format!("v/{}/{path}", build.version);
        // A folder's page is asked for by the folder's address.
        urls.push(url.strip_suffix("index.html").unwrap_or(&url).to_string());
    }
    // A string and a list of strings always serialise.
    let build_name = serde_json::to_string(&format!("{} {}", build.version, build.id));
    let precache = serde_json::to_string(&urls);
    format!(
        "// Written by `cargo xtask dist`; the code below the two constants is\n\
         // xtask/src/site/sw.js.\n\
         const BUILD = {};\n\
         const PRECACHE = {};\n\n{SERVICE_WORKER}",
        build_name.unwrap_or_default(),
        precache.unwrap_or_default()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-dist-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn build(version: &str, script: &str) -> Build {
        Build {
            version: version.into(),
            id: format!("{:016x}", fnv1a(format!("{version}{script}").as_bytes())),
            files: vec![
                ("main.js".into(), script.as_bytes().to_vec()),
                ("lib.js".into(), b"export const x = 1;".to_vec()),
                ("pkg/contactlab_bg.wasm".into(), vec![0, 97, 115, 109]),
            ],
            index_template: "<head>\n  <link rel=\"icon\" href=\"favicon.svg\">\n  <link rel=\"stylesheet\" href=\"style.css\">\n  <script type=\"module\" src=\"start-worker.js\"></script>\n  <script type=\"module\" src=\"main.js\"></script>\n</head>".into(),
            changelog: "# Changelog\n".into(),
        }
    }

    #[test]
    fn versions_are_three_numbers_and_an_optional_label() {
        for good in ["0.1.0", "10.20.30", "0.2.0-rc.1", "0.0.0-test-a"] {
            assert_eq!(check_version(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "1",
            "1.2",
            "1.2.3.4",
            "v1.2.3",
            "1.2.x",
            "1.2.3-",
            "1.2.3-a/b",
            "../1.2.3",
            "1.2.3-<b>",
        ] {
            assert!(check_version(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn options_need_an_out_folder_and_a_valid_version() {
        let args = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(Options::parse(&args(&[])).is_err());
        assert!(Options::parse(&args(&["--out"])).is_err());
        assert!(Options::parse(&args(&["--out", "site", "--version", "1.x"])).is_err());
        assert!(Options::parse(&args(&["--out", "site", "--colour"])).is_err());
        let options = Options::parse(&args(&["--out=site", "--version", "0.3.0"])).unwrap();
        assert_eq!(options.out, PathBuf::from("site"));
        assert_eq!(options.version.as_deref(), Some("0.3.0"));
    }

    #[test]
    fn a_module_loaded_after_the_first_frame_is_not_preloaded() {
        let mut b = build("0.1.0", "one");
        b.files.push((
            "later.js".into(),
            format!("{LOADED_WHEN_NEEDED}\nexport const y = 2;").into_bytes(),
        ));
        let root = b.page("v/0.1.0/app-x/", "").unwrap();
        assert!(root.contains("<link rel=\"modulepreload\" href=\"v/0.1.0/app-x/lib.js\">"));
        assert!(!root.contains("later.js"), "{root}");
    }

    #[test]
    fn pages_point_into_their_asset_folder_and_say_their_version() {
        let b = build("0.1.0", "one");
        let root = b.page("v/0.1.0/app-x/", "").unwrap();
        assert!(root.contains("src=\"v/0.1.0/app-x/main.js\""));
        assert!(root.contains("href=\"v/0.1.0/app-x/style.css\""));
        assert!(root.contains("<meta name=\"contactlab-version\" content=\"0.1.0\">"));
        assert!(root.contains("<meta name=\"contactlab-site-root\" content=\"\">"));
        assert!(root.contains("<link rel=\"modulepreload\" href=\"v/0.1.0/app-x/lib.js\">"));
        assert!(
            !root.contains("modulepreload\" href=\"v/0.1.0/app-x/main.js"),
            "main.js is the script itself"
        );
        let mut changed = build("0.1.0", "one");
        changed.index_template = changed
            .index_template
            .replace("src=\"main.js\"", "src=\"./main.js\"");
        assert!(
            changed.page("x/", "").is_err(),
            "an unknown reference form is refused, not left pointing nowhere"
        );
    }

    #[test]
    fn a_site_grows_release_by_release_and_keeps_each_build() {
        let out = scratch("grow");
        let first = build("0.1.0", "one");
        write_site(&out, &first, &inspect(&out).unwrap()).unwrap();
        let second = build("0.2.0", "two");
        let versions = write_site(&out, &second, &inspect(&out).unwrap()).unwrap();
        assert_eq!(versions, ["0.1.0", "0.2.0"]);
        assert!(out.join("v/0.1.0/index.html").is_file());
        let root = std::fs::read_to_string(out.join("index.html")).unwrap();
        assert!(root.contains(&format!("v/0.2.0/app-{}/main.js", second.id)));
        let listed = std::fs::read_to_string(out.join("versions.json")).unwrap();
        assert!(listed.contains("\"current\": \"0.2.0\""), "{listed}");
        let worker = std::fs::read_to_string(out.join("sw.js")).unwrap();
        assert!(worker.contains(&format!(
            "\"v/0.2.0/app-{}/pkg/contactlab_bg.wasm\"",
            second.id
        )));
        assert!(worker.contains("\"v/0.2.0/\""));

        // The same build again is kept; another build of 0.1.0 is refused.
        write_site(&out, &first, &inspect(&out).unwrap()).unwrap();
        let other = build("0.1.0", "one, changed");
        let refused = write_site(&out, &other, &inspect(&out).unwrap())
            .unwrap_err()
            .to_string();
        assert!(refused.contains("different build of 0.1.0"), "{refused}");
        assert!(std::fs::read_to_string(out.join("v/0.1.0/index.html"))
            .unwrap()
            .contains(&first.id));
        std::fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn only_empty_folders_and_earlier_sites_are_written_to() {
        let out = scratch("refuse");
        assert_eq!(inspect(&out).unwrap().versions, Vec::<String>::new());
        std::fs::create_dir_all(&out).unwrap();
        assert_eq!(inspect(&out).unwrap().versions, Vec::<String>::new());
        std::fs::write(out.join("notes.txt"), "mine").unwrap();
        let refused = inspect(&out).unwrap_err().to_string();
        assert!(
            refused.contains("neither empty nor a ContactLab site")
                && refused.contains("`notes.txt`"),
            "{refused}"
        );
        std::fs::remove_file(out.join("notes.txt")).unwrap();

        write_site(&out, &build("0.1.0", "one"), &inspect(&out).unwrap()).unwrap();
        std::fs::write(out.join("notes.txt"), "mine").unwrap();
        let refused = inspect(&out).unwrap_err().to_string();
        assert!(refused.contains("also holds `notes.txt`"), "{refused}");
        std::fs::remove_file(out.join("notes.txt")).unwrap();
        std::fs::create_dir_all(out.join("v/latest")).unwrap();
        let refused = inspect(&out).unwrap_err().to_string();
        assert!(refused.contains("`latest`"), "{refused}");
        std::fs::remove_dir_all(&out).unwrap();
    }
}
