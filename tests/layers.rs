//! The layers: each module imports only from its own layer and the
//! layers before it (README's layout section lists them), only the
//! command line (`src/cli/`, part of the binary) knows clap, and no files
//! of the layers import one another in a circle. Cargo already forbids an
//! import from a later crate (`crates/`) and a circle of crates; these
//! checks see the layers inside a crate, and the files.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// The layers in order, each with its folder (a new layer is one more
/// entry here, for the layer and circle checks alike). A crate's own
/// layers are the modules `crate::<layer>`; the root crate names the
/// crates below it by their layers too (`pub use morris_rules as rules;`).
const LAYERS: [(&str, &str); 7] = [
    ("rules", "crates/rules/src"),
    ("tablebase", "crates/tablebase/src"),
    ("search", "crates/engine/src/search"),
    ("engine", "crates/engine/src/engine"),
    ("protocol", "crates/engine/src/protocol"),
    ("tools", "src/tools"),
    ("cli", "src/cli"),
];

/// The crates (the library name and its `src/`), for the circle check.
const CRATES: [(&str, &str); 4] = [
    ("morris_rules", "crates/rules/src"),
    ("morris_tablebase", "crates/tablebase/src"),
    ("morris_engine", "crates/engine/src"),
    (env!("CARGO_CRATE_NAME"), "src"),
];

fn rank(layer: &str) -> Option<usize> {
    LAYERS.iter().position(|&(l, _)| l == layer)
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
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
    let mut violations = Vec::new();
    let mut checked = 0;
    for (layer, (name, dir)) in LAYERS.iter().enumerate() {
        let mut files = Vec::new();
        sources(&root().join(dir), &mut files);
        for file in files {
            let relative = file.strip_prefix(root()).expect("below the root");
            checked += 1;
            let text = std::fs::read_to_string(&file).expect("a readable source file");
            if *name != "cli" && text.contains("clap::") {
                violations.push(format!("{} uses clap", relative.display()));
            }
            for name in imported_layers(&text) {
                if rank(&name).expect("a layer") > layer {
                    violations.push(format!("{} imports crate::{name}", relative.display()));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} files found in the layers");
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

/// The tablebase's parts in order (crates/tablebase/src/lib.rs): the vocabulary
/// (the files at its top), then `format`, `probe`, `generator`, and
/// `open_tables` above them all.
const TABLEBASE_PARTS: [&str; 5] = ["vocabulary", "format", "probe", "generator", "open_tables"];

/// The part of a file of the tablebase crate, by its path under its `src/`.
fn tablebase_part(relative: &str) -> usize {
    let part = match relative.split_once('/') {
        Some((dir, _)) => dir,
        None if relative == "open_tables.rs" => "open_tables",
        None => "vocabulary",
    };
    TABLEBASE_PARTS
        .iter()
        .position(|&p| p == part)
        .unwrap_or_else(|| panic!("crates/tablebase/src/{relative} is in no part"))
}

/// The files of the tablebase crate that `text` (a file there, its tests
/// left out) names through `crate::`; an error for a path that
/// names no file (a re-export hides which file is used) and for `super::`.
fn tablebase_imports(dir: &Path, text: &str) -> Result<Vec<String>, String> {
    if text.matches("super::").count() != text.matches("use super::*;").count() {
        return Err("super:: (write crate:: paths)".to_string());
    }
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
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
                    return Err(format!("crate::{first}::{name} is no file"));
                }
                out.push(file);
            }
        } else if dir.join(format!("{first}.rs")).is_file() {
            out.push(format!("{first}.rs"));
        } else {
            return Err(format!("crate::{first}: name the file that defines it"));
        }
    }
    Ok(out)
}

#[test]
fn the_tablebase_parts_import_only_earlier_parts_and_no_file_circles() {
    let dir = root().join("crates/tablebase/src");
    let mut files = Vec::new();
    sources(&dir, &mut files);
    let mut edges: Vec<(String, Vec<String>)> = Vec::new();
    let mut violations = Vec::new();
    for file in &files {
        let relative = file
            .strip_prefix(&dir)
            .expect("below the tablebase's src")
            .to_str()
            .expect("a file name")
            .replace('\\', "/");
        // lib.rs and mod.rs files only declare and re-export.
        if relative.ends_with("mod.rs") || relative == "lib.rs" {
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
    let mut state = std::collections::HashMap::new();
    let mut circles = Vec::new();
    for (file, _) in &edges {
        visit(file, &edges, &mut state, &mut Vec::new(), &mut circles);
    }
    violations.extend(circles.into_iter().map(|c| format!("circle: {c}")));
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

/// A circle: a path from a file back to itself (depth-first, colours:
/// `false` while a file is on the path, `true` once all it reaches is done).
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

// Every layer's files, with no circle of imports among them. Outside the
// tablebase the files import through re-exports (`crate::Game`, where
// crates/rules/src/lib.rs has `pub use game::Game;`) and `super::`, so each
// imported name is followed to the file that defines it.

/// The files of every crate and the files each imports there (by its path
/// from the root). A `mod.rs` is a file like the others for the items it defines
/// (a search's types, the loop of the protocol); its re-exports only lead
/// names through it, and its module declarations are no imports. A file's
/// own name is no import.
#[test]
fn no_circle_of_file_imports_in_any_layer() {
    let mut circles = Vec::new();
    let mut found = 0;
    for (name, src) in CRATES {
        let tree = Tree::read(root().join(src), name);
        let files = tree.layer_files();
        found += files.len();
        circles.extend(circles_in(&tree, &files));
    }
    assert!(found > 120, "only {found} files found");
    assert!(circles.is_empty(), "circles:\n{}", circles.join("\n"));
}

/// The circles of imports among `files` of `tree`'s crate.
fn circles_in(tree: &Tree, files: &BTreeSet<PathBuf>) -> Vec<String> {
    let edges: Vec<(String, Vec<String>)> = files
        .iter()
        .map(|file| {
            let imports = tree
                .imports(file)
                .into_iter()
                .filter(|i| i != file && files.contains(i))
                .map(|i| tree.name(&i))
                .collect();
            (tree.name(file), imports)
        })
        .collect();
    let mut state = HashMap::new();
    let mut circles = Vec::new();
    for (file, _) in &edges {
        visit(file, &edges, &mut state, &mut Vec::new(), &mut circles);
    }
    circles
}

/// The parsing this rests on: `use` groups over several lines, `self`,
/// `as`, globs, comments and strings that only look like paths.
#[test]
fn the_layers_import_parser_reads_use_groups_and_inline_paths() {
    let text = "use super::{\n    a::X,\n    b::{self, Y as Z}, // super::c::W\n};\n\
                use std::io::*;\nfn f() { let s = \"crate::d::E\"; let c = '\"'; crate::e::f(s, c) }\n";
    let (uses, rest) = use_statements(&code_only(text));
    let read: Vec<(Option<&str>, String)> = uses
        .iter()
        .map(|u| (u.name.as_deref(), u.path.join("::")))
        .collect();
    assert_eq!(
        read,
        [
            (Some("X"), "super::a::X".to_string()),
            (Some("b"), "super::b".to_string()),
            (Some("Z"), "super::b::Y".to_string()),
            (None, "std::io".to_string()),
        ]
    );
    let inline: Vec<String> = paths(&rest)
        .into_iter()
        .filter(|p| p.len() > 1)
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(inline, ["crate::e::f"]);
}

/// The source tree: every file's `use` bindings, read once, to follow
/// paths through the modules.
struct Tree {
    src: PathBuf,
    /// The crate's library name, a path's first segment naming its root.
    name: &'static str,
    uses: HashMap<PathBuf, Vec<Use>>,
}

/// One name a `use` binds (`None` for a glob or `_`) and the path it names,
/// as written (relative to the module the `use` is in).
struct Use {
    name: Option<String>,
    path: Vec<String>,
}

/// Where a path leads: into a module (its file, where later segments are
/// looked up) or to an item of a file (later segments are its variants or
/// associated items).
enum Target {
    Module(PathBuf),
    Item(PathBuf),
}

impl Target {
    fn file(self) -> PathBuf {
        match self {
            Target::Module(f) | Target::Item(f) => f,
        }
    }
}

impl Tree {
    /// Reads every file's bindings, tests included: a `mod.rs` may
    /// re-export after a `#[cfg(test)] mod` line (crates/rules/src/lib.rs).
    fn read(src: PathBuf, name: &'static str) -> Tree {
        let mut files = Vec::new();
        sources(&src, &mut files);
        let uses = files
            .into_iter()
            .map(|f| {
                let text = std::fs::read_to_string(&f).expect("a readable source file");
                let (uses, _) = use_statements(&code_only(&text));
                (f, uses)
            })
            .collect();
        Tree { src, name, uses }
    }

    /// The files of the crate's layers, in order (the root crate's own
    /// files, `lib.rs` and `main.rs`, belong to none).
    fn layer_files(&self) -> BTreeSet<PathBuf> {
        let mut out = BTreeSet::new();
        for (_, dir) in LAYERS {
            let dir = root().join(dir);
            if dir.starts_with(&self.src) {
                let mut files = Vec::new();
                sources(&dir, &mut files);
                out.extend(files);
            }
        }
        out
    }

    /// A file's path from the root, as the failure lists it.
    fn name(&self, file: &Path) -> String {
        let relative = file.strip_prefix(root()).expect("below the root");
        relative.to_str().expect("a file name").replace('\\', "/")
    }

    /// The files `file` imports, its tests left out (they may use anything
    /// to check it): what its `use` statements name, and the paths in its
    /// code that start at `crate`, `super`, `self`, the library's name, a
    /// child module, or a name it imported (`tablebase::sample(..)` after `use
    /// crate::tablebase;`).
    fn imports(&self, file: &Path) -> BTreeSet<PathBuf> {
        let text = std::fs::read_to_string(file).expect("a readable source file");
        let mut code = code_only(&text[..text.find("#[cfg(test)]").unwrap_or(text.len())]);
        if file.ends_with("mod.rs") {
            code = without_reexports(&code);
        }
        let (uses, rest) = use_statements(&code);
        // A module named is no import of its `mod.rs`; an item defined
        // there is.
        let imported = |t: Target| match t {
            Target::Module(f) if f.ends_with("mod.rs") => None,
            t => Some(t.file()),
        };
        let mut out: BTreeSet<PathBuf> = uses
            .iter()
            .filter_map(|u| self.resolve(file, &u.path, 0))
            .filter_map(imported)
            .collect();
        out.extend(
            uses.iter()
                .filter_map(|u| self.module_entered(file, &u.path)),
        );
        let starts = ["crate", "$crate", "super", "self", self.name];
        for path in paths(&rest).into_iter().filter(|p| p.len() > 1) {
            // A path from a child module (`analyze::run(..)` in a
            // `mod.rs`) leads into it as well.
            let full = if starts.contains(&path[0].as_str()) || self.child(file, &path[0]).is_some()
            {
                path
            } else if let Some(u) = uses.iter().find(|u| u.name.as_ref() == Some(&path[0])) {
                u.path.iter().chain(&path[1..]).cloned().collect()
            } else {
                continue;
            };
            out.extend(self.module_entered(file, &full));
            out.extend(self.resolve(file, &full, 0).and_then(imported));
        }
        out
    }

    /// The `mod.rs` of another module that `path` (written in `from`)
    /// takes a name from, an item of its own or one it re-exports: using
    /// a module from outside depends on the whole module, whatever file
    /// the name is defined in (`solve.rs` taking `tb::generate_command`
    /// depends on `tb/`, and so on every file `tb/mod.rs` names).
    fn module_entered(&self, from: &Path, path: &[String]) -> Option<PathBuf> {
        let (first, rest) = path.split_first()?;
        let mut module = match first.as_str() {
            "crate" | "$crate" => self.crate_root(from),
            "self" => from.to_path_buf(),
            "super" => self.parent(from)?,
            name if name == self.name => self.src.join("lib.rs"),
            name => self.child(from, name)?,
        };
        for segment in rest {
            module = match segment.as_str() {
                "self" => module,
                "super" => self.parent(&module)?,
                name => match self.child(&module, name) {
                    Some(child) => child,
                    None => {
                        let folder = module.parent()?;
                        let outside = module.ends_with("mod.rs") && !from.starts_with(folder);
                        return outside.then_some(module);
                    }
                },
            };
        }
        None
    }

    /// Follows `path` (as written in module `from`, a file) to where it
    /// leads; `None` for another crate's path (`std::`, `clap::`).
    fn resolve(&self, from: &Path, path: &[String], depth: usize) -> Option<Target> {
        // Re-exports lead on to other re-exports; a macro's `pub(crate)
        // use out;` names itself.
        if depth > 8 {
            return None;
        }
        let (first, rest) = path.split_first()?;
        let mut at = match first.as_str() {
            "crate" | "$crate" => Target::Module(self.crate_root(from)),
            "self" => Target::Module(from.to_path_buf()),
            "super" => Target::Module(self.parent(from)?),
            name if name == self.name => Target::Module(self.src.join("lib.rs")),
            name => match self.child(from, name) {
                Some(child) => Target::Module(child),
                None => self.through_use(from, name, depth)?,
            },
        };
        for segment in rest {
            let Target::Module(module) = &at else { break };
            at = self.step(module, segment, depth);
        }
        Some(at)
    }

    /// One segment down from `module`: a child module, a name it imports
    /// or re-exports, or else an item its own file defines.
    fn step(&self, module: &Path, segment: &str, depth: usize) -> Target {
        let found = match segment {
            "self" => Some(Target::Module(module.to_path_buf())),
            "super" => self.parent(module).map(Target::Module),
            name => self
                .child(module, name)
                .map(Target::Module)
                .or_else(|| self.through_use(module, name, depth)),
        };
        found.unwrap_or_else(|| Target::Item(module.to_path_buf()))
    }

    /// Where a name that `module`'s `use` statements bind leads (a child
    /// module sees its parent's private imports too, so any `use` counts).
    fn through_use(&self, module: &Path, name: &str, depth: usize) -> Option<Target> {
        self.uses
            .get(module)?
            .iter()
            .filter(|u| u.name.as_deref() == Some(name))
            .find_map(|u| self.resolve(module, &u.path, depth + 1))
    }

    /// The root of the crate `file` is in: the binary's `main.rs` for a
    /// module it declares (the cli), else the library's `lib.rs`.
    fn crate_root(&self, file: &Path) -> PathBuf {
        let main = self.src.join("main.rs");
        let module = file
            .strip_prefix(&self.src)
            .ok()
            .and_then(|r| r.components().next())
            .and_then(|c| c.as_os_str().to_str())
            .unwrap_or("")
            .trim_end_matches(".rs");
        let declared =
            std::fs::read_to_string(&main).is_ok_and(|t| t.contains(&format!("mod {module};")));
        if file == main || declared {
            main
        } else {
            self.src.join("lib.rs")
        }
    }

    /// The folder holding a module's children: `src/` for a crate root,
    /// `x/` for `x/mod.rs` and for `x.rs`.
    fn children_dir(&self, module: &Path) -> PathBuf {
        if module.parent() == Some(self.src.as_path())
            && (module.ends_with("lib.rs") || module.ends_with("main.rs"))
        {
            self.src.clone()
        } else if module.ends_with("mod.rs") {
            module.parent().expect("a folder").to_path_buf()
        } else {
            module.with_extension("")
        }
    }

    /// The file of module `module`'s child `name`, if there is one.
    fn child(&self, module: &Path, name: &str) -> Option<PathBuf> {
        let dir = self.children_dir(module);
        let name = name.trim_start_matches("r#");
        [
            dir.join(format!("{name}.rs")),
            dir.join(name).join("mod.rs"),
        ]
        .into_iter()
        .find(|f| f.is_file())
    }

    /// The file of `module`'s parent (`super`): for `foo/bar.rs` the module
    /// of `foo/`, for `foo/mod.rs` the module above `foo/`.
    fn parent(&self, module: &Path) -> Option<PathBuf> {
        let dir = self.children_dir(module);
        if dir == self.src {
            return None;
        }
        let owner = dir.parent()?;
        if owner == self.src {
            return Some(self.crate_root(module));
        }
        [owner.join("mod.rs"), owner.with_extension("rs")]
            .into_iter()
            .find(|f| f.is_file())
    }
}

/// `text` with its comments and the insides of its string and character
/// literals blanked out (lines kept): a path in a doc comment or in a
/// message is no import.
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let blank = |ch: char| if ch == '\n' { '\n' } else { ' ' };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        let end = if c[i] == '/' && c.get(i + 1) == Some(&'/') {
            (i..c.len()).find(|&j| c[j] == '\n').unwrap_or(c.len())
        } else if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            block_comment_end(&c, i)
        } else if let Some(end) = string_end(&c, i) {
            end
        } else if c[i] == '\'' && c.get(i + 1) == Some(&'\\') {
            (i + 3..c.len())
                .find(|&j| c[j] == '\'')
                .map_or(c.len(), |j| j + 1)
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            i + 3
        } else {
            out.push(c[i]);
            i += 1;
            continue;
        };
        out.extend(c[i..end].iter().map(|&ch| blank(ch)));
        i = end;
    }
    out
}

/// The end of the (nested) block comment starting at `i`.
fn block_comment_end(c: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < c.len() {
        if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            depth += 1;
            i += 2;
        } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    c.len()
}

/// The end of the string literal starting at `i` (`"..."`, `b"..."`,
/// `r#"..."#`), if one starts there.
fn string_end(c: &[char], i: usize) -> Option<usize> {
    if i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_') && c[i] != '"' {
        return None;
    }
    let mut j = i;
    if c.get(j) == Some(&'b') {
        j += 1;
    }
    let raw = c.get(j) == Some(&'r');
    if raw {
        j += 1;
    }
    let hashes = c[j.min(c.len())..]
        .iter()
        .take_while(|&&ch| ch == '#')
        .count();
    j += hashes;
    if c.get(j) != Some(&'"') || (!raw && hashes > 0) {
        return None;
    }
    j += 1;
    while j < c.len() {
        if !raw && c[j] == '\\' {
            j += 2;
        } else if c[j] == '"'
            && c[j + 1..]
                .iter()
                .take(hashes)
                .filter(|&&h| h == '#')
                .count()
                == hashes
        {
            return Some(j + 1 + hashes);
        } else {
            j += 1;
        }
    }
    Some(c.len())
}

/// The `use` statements of `code` (comments blanked), parsed, and `code`
/// with them blanked out (what is left holds the paths written inline).
fn use_statements(code: &str) -> (Vec<Use>, String) {
    let mut uses = Vec::new();
    let mut rest = code.to_string();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    for (i, _) in code.match_indices("use") {
        let bytes = code.as_bytes();
        let before = i == 0 || !is_word(bytes[i - 1]);
        let after = bytes
            .get(i + 3)
            .is_some_and(|&b| b.is_ascii_whitespace() || b == b'{');
        if !before || !after {
            continue;
        }
        let end = code[i..].find(';').map_or(code.len(), |e| i + e);
        let tokens = tokens(&code[i + 3..end]);
        let mut at = 0;
        use_tree(&tokens, &mut at, Vec::new(), &mut uses);
        rest.replace_range(i..end, &" ".repeat(end - i));
    }
    (uses, rest)
}

/// `code` with its re-exports (`pub use ...;`, `pub(crate) use ...;`)
/// blanked out: in a `mod.rs` they lead names through, and are no imports.
fn without_reexports(code: &str) -> String {
    let mut out = code.to_string();
    for (i, _) in code.match_indices("pub") {
        let after = code[i + 3..].trim_start();
        let after = match after.strip_prefix('(') {
            Some(v) => v[v.find(')').map_or(0, |e| e + 1)..].trim_start(),
            None => after,
        };
        if after.starts_with("use ") || after.starts_with("use{") {
            let end = code[i..].find(';').map_or(code.len(), |e| i + e);
            out.replace_range(i..end, &" ".repeat(end - i));
        }
    }
    out
}

/// The tokens of a `use` tree: names, `::`, `{`, `}`, `,` and `*`.
fn tokens(tree: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = tree.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || c == '_' || c == '#' || c == '$' {
            let mut word = c.to_string();
            while let Some(&n) = chars
                .peek()
                .filter(|n| n.is_alphanumeric() || **n == '_' || **n == '#')
            {
                word.push(n);
                chars.next();
            }
            out.push(word);
        } else if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            out.push("::".to_string());
        } else if !c.is_whitespace() {
            out.push(c.to_string());
        }
    }
    out
}

/// One `use` tree from `tokens[*at]` on, below `prefix`: `a::b`, `a::b as
/// c`, `a::*`, `a::{self, b::C, d::{E, F}}`.
fn use_tree(tokens: &[String], at: &mut usize, prefix: Vec<String>, out: &mut Vec<Use>) {
    let mut path = prefix;
    if tokens.get(*at).is_some_and(|t| t == "::") {
        *at += 1; // `::std::..`
    }
    while let Some(token) = tokens.get(*at) {
        *at += 1;
        match token.as_str() {
            "{" => {
                while tokens.get(*at).is_some_and(|t| t != "}") {
                    use_tree(tokens, at, path.clone(), out);
                    if tokens.get(*at).is_some_and(|t| t == ",") {
                        *at += 1;
                    }
                }
                *at += 1;
                return;
            }
            "*" => {
                out.push(Use { name: None, path });
                return;
            }
            word => {
                if word != "self" {
                    path.push(word.to_string());
                }
                if tokens.get(*at).is_some_and(|t| t == "::") {
                    *at += 1;
                    continue;
                }
                let mut name = path.last().cloned();
                if tokens.get(*at).is_some_and(|t| t == "as") {
                    name = tokens.get(*at + 1).filter(|n| *n != "_").cloned();
                    *at += 2;
                }
                out.push(Use { name, path });
                return;
            }
        }
    }
}

/// The paths written in `code` (`a::b::c` as its names), each from its
/// start: a name after `::` or inside another name starts none.
fn paths(code: &str) -> Vec<Vec<String>> {
    let b = code.as_bytes();
    let is_word = |i: usize| {
        b.get(i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
    };
    // A name at `i`: `$crate`, `r#name` or a word; its end.
    let name_end = |i: usize| -> Option<usize> {
        let start = if b[i..].starts_with(b"$crate") {
            i + 1
        } else if b[i..].starts_with(b"r#") {
            i + 2
        } else {
            i
        };
        let end = (start..b.len()).find(|&j| !is_word(j)).unwrap_or(b.len());
        (end > start && !b[start].is_ascii_digit()).then_some(end)
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = (i == 0 || !is_word(i - 1)) && !b[..i].ends_with(b"::");
        match name_end(i).filter(|_| starts) {
            Some(mut end) => {
                let mut path = vec![code[i..end].to_string()];
                while b[end..].starts_with(b"::") {
                    let Some(next) = name_end(end + 2) else { break };
                    path.push(code[end + 2..next].to_string());
                    end = next;
                }
                out.push(path);
                i = end;
            }
            None => i += 1,
        }
    }
    out
}
