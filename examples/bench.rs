//! Runs the fixed benchmark: `cargo run --release --example bench [depth]`.

fn main() {
    let depth = std::env::args().nth(1).map(|d| d.parse().expect("a depth"));
    let r = morris::search::bench::bench(depth);
    println!(
        "bench: {} nodes  {} ms  {} nps",
        r.nodes,
        r.elapsed.as_millis(),
        r.nps
    );
}
