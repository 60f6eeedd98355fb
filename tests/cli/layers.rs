//! The source keeps the layers that docs/code-layout.md draws: every top-level module of
//! `src/` and of the workspace's crates (`crates/NAME/src/`, which the package re-exports)
//! stands in one row of its table, a module imports only modules of the rows below
//! its own (or of its own row), and no modules import each other in a circle; nor do
//! files (a module's file may use what its submodules hold, and they what it holds).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The crate's root folder.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The layers of docs/code-layout.md, top row first: each row's name and the top-level
/// modules its second column names (`src/NAME/` or `src/NAME.rs`, or the same under a
/// crate's `crates/CRATE/src/`).
fn layers(doc: &str) -> Vec<(String, BTreeSet<String>)> {
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in doc.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 {
            if in_table {
                break;
            }
            continue;
        }
        if cells[1] == "layer" {
            in_table = true;
            continue;
        }
        if !in_table || cells[1].starts_with("---") {
            continue;
        }
        let modules = cells[2]
            .split('`')
            .filter_map(|item| {
                let item = match item.strip_prefix("crates/") {
                    Some(rest) => rest.split_once("/src/")?.1,
                    None => item.strip_prefix("src/")?,
                };
                Some(item)
            })
            .map(|item| {
                let name = item.trim_end_matches('/');
                name.strip_suffix(".rs").unwrap_or(name).to_string()
            })
            .collect();
        rows.push((cells[1].to_string(), modules));
    }
    rows
}

/// The source folders: the package's `src/` and each workspace crate's.
fn sources() -> Vec<PathBuf> {
    let mut dirs = vec![root().join("src")];
    let crates = fs::read_dir(root().join("crates")).unwrap();
    let mut more: Vec<PathBuf> = crates.map(|e| e.unwrap().path().join("src")).collect();
    more.sort();
    dirs.extend(more);
    dirs
}

/// A source folder as the messages name it: `src`, `crates/sim/src` (`src` outside the
/// project).
fn shown(src: &Path) -> String {
    let inside = src.strip_prefix(root());
    inside.unwrap_or(Path::new("src")).display().to_string()
}

/// The top-level modules of `src/`: its folders and its files but `lib.rs` and `main.rs`.
fn top_level_modules(src: &Path) -> BTreeSet<String> {
    fs::read_dir(src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_string();
            if p.is_dir() {
                Some(name)
            } else {
                let stem = name.strip_suffix(".rs")?;
                (stem != "lib" && stem != "main").then(|| stem.to_string())
            }
        })
        .collect()
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules a line of code names through `crate::`: `crate::NAME…` and
/// the first names of a group, `use crate::{NAME, NAME::…}`.
fn named_modules(line: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names = Vec::new();
    for (at, _) in line.match_indices("crate::") {
        let rest = &line[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut expect_name = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 1 => break,
                    '}' => depth -= 1,
                    ',' if depth == 1 => expect_name = true,
                    c if c.is_whitespace() => {}
                    _ if expect_name && depth == 1 => {
                        names.push(ident(&group[i..]));
                        expect_name = false;
                    }
                    _ => {}
                }
            }
        } else {
            names.push(ident(rest));
        }
    }
    names
}

/// What each top-level module imports of the others: module -> module -> where.
fn imports(src: &Path, modules: &BTreeSet<String>) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let from = first.strip_suffix(".rs").unwrap_or(&first).to_string();
        if !modules.contains(&from) {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        // A whole `use crate::{…}` group may span lines: read each statement as one.
        let mut statement = String::new();
        let mut start = 0;
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if statement.is_empty() {
                start = n + 1;
            }
            statement.push_str(code);
            statement.push(' ');
            let open = statement.matches('{').count() > statement.matches('}').count();
            if open && statement.contains("use crate::{") {
                continue;
            }
            for to in named_modules(&statement) {
                if to != from && modules.contains(&to) {
                    edges
                        .entry(from.clone())
                        .or_default()
                        .entry(to)
                        .or_insert_with(|| format!("{}/{}:{start}", shown(src), rel.display()));
                }
            }
            statement.clear();
        }
    }
    edges
}

/// A circle among `nodes` over `edges`, if there is one (as the path that closes it).
fn circle(
    nodes: &BTreeSet<String>,
    edges: &BTreeMap<String, BTreeMap<String, String>>,
) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        nodes: &BTreeSet<String>,
        edges: &BTreeMap<String, BTreeMap<String, String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == node) {
            let mut c = path[i..].to_vec();
            c.push(node.to_string());
            return Some(c);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flat_map(|e| e.keys()) {
            if nodes.contains(next) {
                if let Some(c) = visit(next, nodes, edges, path, done) {
                    return Some(c);
                }
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    nodes
        .iter()
        .find_map(|n| visit(n, nodes, edges, &mut Vec::new(), &mut done))
}

#[test]
fn every_import_goes_down_the_table_of_layers() {
    let doc = fs::read_to_string(root().join("docs/code-layout.md")).unwrap();
    let rows = layers(&doc);
    assert!(
        rows.len() >= 8,
        "the table of layers in docs/code-layout.md: {rows:?}"
    );
    let dirs = sources();
    let modules: BTreeSet<String> = dirs.iter().flat_map(|d| top_level_modules(d)).collect();

    // Every module in exactly one row, and every row's module in src/.
    let mut rank = BTreeMap::new();
    for (i, (layer, names)) in rows.iter().enumerate() {
        for name in names {
            assert!(
                modules.contains(name),
                "the row {layer:?} names src/{name}, which is not a module"
            );
            if let Some(j) = rank.insert(name.clone(), i) {
                panic!(
                    "src/{name} stands in two rows: {:?} and {layer:?}",
                    rows[j].0
                );
            }
        }
    }
    let missing: Vec<_> = modules.iter().filter(|m| !rank.contains_key(*m)).collect();
    assert!(
        missing.is_empty(),
        "modules in no row of docs/code-layout.md: {missing:?}"
    );

    // Rows are listed from the top: a module imports only rows of a larger index.
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for dir in &dirs {
        for (from, tos) in imports(dir, &modules) {
            edges.entry(from).or_default().extend(tos);
        }
    }
    let mut upward = Vec::new();
    for (from, tos) in &edges {
        for (to, at) in tos {
            if rank[to] < rank[from] {
                upward.push(format!(
                    "{at}: {from} ({}) imports {to} ({}), a layer above it",
                    rows[rank[from]].0, rows[rank[to]].0
                ));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports that go up the table:\n{}",
        upward.join("\n")
    );

    // Within a row, no circle.
    for (layer, names) in &rows {
        if let Some(c) = circle(names, &edges) {
            panic!(
                "the modules of the row {layer:?} import each other: {}",
                c.join(" -> ")
            );
        }
    }
}

#[test]
fn group_imports_and_paths_name_their_modules() {
    assert_eq!(named_modules("use crate::chess::{Game, Kind};"), ["chess"]);
    assert_eq!(
        named_modules("use crate::{chess::{fen, Game}, game::Playable};"),
        ["chess", "game"]
    );
    assert_eq!(
        named_modules("let x = crate::quantum::bell::bell(b);"),
        ["quantum"]
    );
    assert!(named_modules("use super::board::Board;").is_empty());
}

#[test]
fn an_upward_import_is_found() {
    let modules: BTreeSet<String> = ["a", "b"].map(String::from).into();
    let dir = std::env::temp_dir().join(format!("qchess-layers-{}", std::process::id()));
    fs::create_dir_all(dir.join("a")).unwrap();
    fs::write(dir.join("a/mod.rs"), "use crate::{\n    b::Thing,\n};\n").unwrap();
    fs::write(dir.join("b.rs"), "// crate::a in a comment is no import\n").unwrap();
    let edges = imports(&dir, &modules);
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(edges.len(), 1, "{edges:?}");
    assert_eq!(edges["a"]["b"], "src/a/mod.rs:1");
    let both: BTreeSet<String> = modules.clone();
    let mut circular = edges.clone();
    circular
        .entry("b".into())
        .or_default()
        .insert("a".into(), "src/b.rs:1".into());
    assert_eq!(
        circle(&both, &circular),
        Some(vec!["a".into(), "b".into(), "a".into()])
    );
    assert_eq!(circle(&both, &edges), None);
}

/// The module path of a file of `src/`: `a/b.rs` and `a/b/mod.rs` are `a::b`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    if last != "mod.rs" && last != "lib.rs" && last != "main.rs" {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
}

/// The paths a statement of code names from `here` (a file's module path), made whole:
/// `crate::a::b`, `super::c` and `self::d`, and every leaf of a `use` tree with groups.
fn named_paths(statement: &str, here: &[String], is_mod_file: bool) -> Vec<Vec<String>> {
    // `super` in a file `a/b.rs` is `a`; in `a/b/mod.rs` also `a`: both are module a::b.
    let _ = is_mod_file;
    let words: Vec<&str> = statement
        .split(|c: char| {
            !(c.is_ascii_alphanumeric() || c == '_' || c == ':' || c == '{' || c == '}' || c == ',')
        })
        .filter(|w| !w.is_empty())
        .collect();
    let text = words.join(" ");
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let starts = ["crate::", "super::", "self::"].into_iter().find(|p| {
            rest.starts_with(p)
                && (i == 0
                    || !(bytes[i - 1].is_ascii_alphanumeric()
                        || bytes[i - 1] == b'_'
                        || bytes[i - 1] == b':'))
        });
        let Some(_) = starts else {
            i += 1;
            continue;
        };
        // The tree runs to the end of its braces, or to the first character no path has.
        let mut depth = 0;
        let mut end = rest.len();
        for (k, c) in rest.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    end = k;
                    break;
                }
                '}' => depth -= 1,
                ' ' | ',' if depth == 0 => {
                    end = k;
                    break;
                }
                _ => {}
            }
        }
        for leaf in expand(&rest[..end]) {
            let mut path: Vec<String> = Vec::new();
            let mut segments = leaf.split("::").filter(|s| !s.is_empty()).peekable();
            match segments.next() {
                Some("crate") => {}
                Some("self") => path = here.to_vec(),
                Some("super") => {
                    path = here.to_vec();
                    path.pop();
                    while segments.peek() == Some(&"super") {
                        segments.next();
                        path.pop();
                    }
                }
                _ => continue,
            }
            path.extend(segments.map(str::to_string));
            out.push(path);
        }
        i += end.max(1);
    }
    out
}

/// The leaves of a `use` tree written without spaces: `a::{b, c::{d}}` is `a::b`, `a::c::d`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.replace(' ', "");
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (k, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| {
            expand(p)
                .into_iter()
                .map(move |leaf| format!("{prefix}{leaf}"))
        })
        .collect()
}

/// What each file of `src/` takes from other files, tests left out: file -> file -> where.
/// A file's own submodules are left out too: a module holds them.
fn file_imports(src: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let by_module: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(src).unwrap();
            (module_path(rel), rel.display().to_string())
        })
        .filter(|(m, _)| !m.is_empty())
        .collect();
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for file in &files {
        let rel = file.strip_prefix(src).unwrap();
        let here = module_path(rel);
        let name = rel.display().to_string();
        let text = fs::read_to_string(file).unwrap();
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
        let code = code
            .split("#[cfg(test)]\npub(crate) mod tests")
            .next()
            .unwrap();
        // A `use` whose group spans lines is read as one statement.
        let mut statement = String::new();
        let mut start = 0;
        for (n, line) in code.lines().enumerate() {
            if statement.is_empty() {
                start = n;
            }
            statement.push_str(line.split("//").next().unwrap_or(""));
            statement.push(' ');
            let open = statement.matches('{').count() > statement.matches('}').count();
            let is_use = statement
                .trim_start()
                .split_once("use ")
                .is_some_and(|(before, _)| before.is_empty() || before.starts_with("pub"));
            if open && is_use {
                continue;
            }
            let line = std::mem::take(&mut statement);
            for path in named_paths(&line, &here, false) {
                // The longest start of the path that is a file's module.
                let target = (1..=path.len())
                    .rev()
                    .find_map(|k| by_module.get(&path[..k]).map(|f| (k, f)));
                let Some((k, to)) = target else { continue };
                let inside = path[..k].starts_with(&here) && k > here.len();
                if *to != name && !inside {
                    edges
                        .entry(name.clone())
                        .or_default()
                        .entry(to.clone())
                        .or_insert_with(|| format!("{}/{name}:{}", shown(src), start + 1));
                }
            }
        }
    }
    edges
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    for dir in sources() {
        no_circle_of_files(&dir);
    }
}

/// Fails when files of the source folder `src` import each other in a circle.
fn no_circle_of_files(src: &Path) {
    let edges = file_imports(src);
    let files: BTreeSet<String> = edges.keys().cloned().collect();
    if let Some(c) = circle(&files, &edges) {
        let steps: Vec<String> = c
            .windows(2)
            .map(|w| format!("{} ({})", w[0], edges[&w[0]][&w[1]]))
            .collect();
        panic!(
            "files that import each other: {} -> {}",
            steps.join(" -> "),
            c[0]
        );
    }
}

#[test]
fn use_trees_expand_to_whole_paths() {
    let here = vec![
        "server".to_string(),
        "room".to_string(),
        "seats".to_string(),
    ];
    let paths = named_paths(
        "use super::{index, referee::{self, run_clock}}, crate::game::Playable;",
        &here,
        false,
    );
    let want: Vec<Vec<String>> = [
        "server::room::index",
        "server::room::referee::self",
        "server::room::referee::run_clock",
        "game::Playable",
    ]
    .iter()
    .map(|p| p.split("::").map(String::from).collect())
    .collect();
    assert_eq!(paths, want);
    assert_eq!(
        named_paths("let b = super::super::ui::App::new();", &here, false)[0],
        ["server", "ui", "App", "new"]
    );
}

#[test]
fn a_circle_through_a_use_group_over_several_lines_is_found() {
    let src = std::env::temp_dir().join(format!("qchess-layers-files-{}", std::process::id()));
    let _ = fs::remove_dir_all(&src);
    fs::create_dir_all(src.join("learn")).unwrap();
    fs::write(src.join("lib.rs"), "pub mod learn;\n").unwrap();
    fs::write(src.join("learn/mod.rs"), "mod checks;\nmod lessons;\n").unwrap();
    fs::write(
        src.join("learn/checks.rs"),
        "use super::lessons::{\n    Goal,\n    LESSONS,\n};\n",
    )
    .unwrap();
    fs::write(
        src.join("learn/lessons.rs"),
        "pub(super) use super::checks::{\n    take_king, Verdict,\n};\n",
    )
    .unwrap();
    let found = std::panic::catch_unwind(|| no_circle_of_files(&src));
    fs::remove_dir_all(&src).unwrap();
    assert!(found.is_err(), "the circle of checks.rs and lessons.rs");
}
