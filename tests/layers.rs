//! The crate's layers: each module imports only from its own layer and
//! the layers before it (README's layout section lists them), and only
//! the command line (`src/cli/`, part of the binary) knows clap.

use std::path::Path;

/// The layers in order, as the folders under `src/` name them.
const LAYERS: [&str; 6] = ["rules", "tablebase", "search", "protocol", "tools", "cli"];

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
