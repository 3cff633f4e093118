//! What README.md quotes about this build must be true of it.

use morris::search::bench;

/// The number after `marker` in README.md.
fn quoted_number(marker: &str) -> u64 {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md is readable");
    let at = readme
        .find(marker)
        .unwrap_or_else(|| panic!("README.md has no '{marker}'"));
    let digits: String = readme[at + marker.len()..]
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number after '{marker}' in README.md"))
}

#[test]
fn readme_quotes_this_builds_bench_signature() {
    assert_eq!(
        quoted_number("`morris bench` signature:"),
        bench::bench(None).nodes,
        "README.md quotes another search's signature: update it (and say why in the commit)"
    );
}
