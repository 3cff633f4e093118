//! The crate's layers: each module imports only from its own layer and
//! the layers before it (README's layout section lists them), and only
//! the command line (`src/cli/`, part of the binary) knows clap.

use std::path::Path;

/// The layers in order, as the folders under `src/` name them.
const LAYERS: [&str; 7] = [
    "rules",
    "tablebase",
    "search",
    "engine",
    "protocol",
    "tools",
    "cli",
];

fn rank(layer: &str) -> Option<usize> {
    LAYERS.iter().position(|&l| l == layer)
}

/// Every `.rs` file below `dir`.
fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The layers a source file names through `crate::`.
fn imported_layers(text: &str) -> Vec<String> {
    text.match_indices("crate::")
        .filter_map(|(i, _)| {
            let name: String = text[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            rank(&name).map(|_| name)
        })
        .collect()
}

#[test]
fn no_module_imports_a_later_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut violations = Vec::new();
    let mut checked = 0;
    for file in files {
        let relative = file.strip_prefix(&src).expect("below src");
        let layer = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .and_then(rank);
        let Some(layer) = layer else { continue };
        checked += 1;
        let text = std::fs::read_to_string(&file).expect("a readable source file");
        if LAYERS[layer] != "cli" && text.contains("clap::") {
            violations.push(format!("{} uses clap", relative.display()));
        }
        for name in imported_layers(&text) {
            if rank(&name).expect("a layer") > layer {
                violations.push(format!("{} imports crate::{name}", relative.display()));
            }
        }
    }
    assert!(checked > 30, "only {checked} files found under src/");
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

/// The tablebase's parts in order (src/tablebase/mod.rs): the vocabulary
/// (the files at its top), then `format`, `probe`, `generator`, and
/// `open_tables` above them all.
const TABLEBASE_PARTS: [&str; 5] = ["vocabulary", "format", "probe", "generator", "open_tables"];

/// The part of a file under src/tablebase, by its path there.
fn tablebase_part(relative: &str) -> usize {
    let part = match relative.split_once('/') {
        Some((dir, _)) => dir,
        None if relative == "open_tables.rs" => "open_tables",
        None => "vocabulary",
    };
    TABLEBASE_PARTS
        .iter()
        .position(|&p| p == part)
        .unwrap_or_else(|| panic!("src/tablebase/{relative} is in no part"))
}

/// The files under src/tablebase that `text` (a file there, its tests
/// left out) names through `crate::tablebase::`; an error for a path that
/// names no file (a re-export hides which file is used) and for `super::`.
fn tablebase_imports(dir: &Path, text: &str) -> Result<Vec<String>, String> {
    if text.matches("super::").count() != text.matches("use super::*;").count() {
        return Err("super:: (write crate::tablebase:: paths)".to_string());
    }
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for (i, _) in text.match_indices("crate::tablebase::") {
        let rest = &text[i + "crate::tablebase::".len()..];
        let first = word(rest);
        if dir.join(&first).is_dir() {
            let after = &rest[first.len()..];
            let names: Vec<String> = match after.strip_prefix("::{") {
                Some(list) => list[..list.find('}').unwrap_or(list.len())]
                    .split(',')
                    .map(|n| word(n.trim()))
                    .collect(),
                None => vec![word(after.trim_start_matches("::"))],
            };
            for name in names {
                let file = format!("{first}/{name}.rs");
                if !dir.join(&file).is_file() {
                    return Err(format!("crate::tablebase::{first}::{name} is no file"));
                }
                out.push(file);
            }
        } else if dir.join(format!("{first}.rs")).is_file() {
            out.push(format!("{first}.rs"));
        } else {
            return Err(format!(
                "crate::tablebase::{first}: name the file that defines it"
            ));
        }
    }
    Ok(out)
}

#[test]
fn the_tablebase_parts_import_only_earlier_parts_and_no_file_circles() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tablebase");
    let mut files = Vec::new();
    sources(&dir, &mut files);
    let mut edges: Vec<(String, Vec<String>)> = Vec::new();
    let mut violations = Vec::new();
    for file in &files {
        let relative = file
            .strip_prefix(&dir)
            .expect("below src/tablebase")
            .to_str()
            .expect("a file name")
            .replace('\\', "/");
        // mod.rs files only declare and re-export.
        if relative.ends_with("mod.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("a readable source file");
        // A file's tests may use any part to check it.
        let code = &text[..text.find("#[cfg(test)]").unwrap_or(text.len())];
        match tablebase_imports(&dir, code) {
            Ok(imports) => {
                for import in &imports {
                    if tablebase_part(import) > tablebase_part(&relative) {
                        violations.push(format!("{relative} imports the later {import}"));
                    }
                }
                edges.push((relative, imports));
            }
            Err(e) => violations.push(format!("{relative}: {e}")),
        }
    }
    assert!(edges.len() > 20, "only {} files found", edges.len());
    // A circle: a path from a file back to itself (depth-first, colours).
    fn visit(
        file: &str,
        edges: &[(String, Vec<String>)],
        state: &mut std::collections::HashMap<String, bool>,
        path: &mut Vec<String>,
        circles: &mut Vec<String>,
    ) {
        match state.get(file) {
            Some(true) => return,
            Some(false) => {
                let from = path.iter().position(|f| f == file).expect("on the path");
                circles.push(format!("{} -> {file}", path[from..].join(" -> ")));
                return;
            }
            None => {}
        }
        state.insert(file.to_string(), false);
        path.push(file.to_string());
        let next = edges
            .iter()
            .find(|(f, _)| f == file)
            .map(|(_, n)| n.clone());
        for n in next.unwrap_or_default() {
            if n != file {
                visit(&n, edges, state, path, circles);
            }
        }
        path.pop();
        state.insert(file.to_string(), true);
    }
    let mut state = std::collections::HashMap::new();
    let mut circles = Vec::new();
    for (file, _) in &edges {
        visit(file, &edges, &mut state, &mut Vec::new(), &mut circles);
    }
    violations.extend(circles.into_iter().map(|c| format!("circle: {c}")));
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}
