//! The order of the movement phase's pairs: each after the subspaces its
//! removals lead into.

use crate::sector::Subspace;
use morris_rules::Rules;

/// Most stones one removing move can take with these rules.
pub(crate) fn max_removals(rules: &Rules) -> u8 {
    if rules.remove_per_mill { 3 } else { 1 }
}

/// The subspaces solving `sub`'s pair needs first.
pub(crate) fn dependencies(rules: &Rules, sub: Subspace) -> Vec<Subspace> {
    let mut deps = Vec::new();
    for s in [sub, sub.swapped()] {
        for k in 1..=max_removals(rules) {
            if s.theirs >= 3 + k {
                deps.push(Subspace::new(s.theirs - k, s.mine));
            }
        }
    }
    deps
}

/// The pairs to solve for `targets`, dependencies first, each pair named
/// by its member with more stones to move.
pub fn plan(rules: &Rules, targets: &[Subspace]) -> Vec<Subspace> {
    let mut todo: Vec<Subspace> = Vec::new();
    let mut stack: Vec<Subspace> = targets.to_vec();
    while let Some(s) = stack.pop() {
        let key = if s.mine >= s.theirs { s } else { s.swapped() };
        if !todo.contains(&key) {
            todo.push(key);
            stack.extend(dependencies(rules, key));
        }
    }
    todo.sort_by_key(|s| (s.mine + s.theirs, s.mine, s.theirs));
    todo
}

/// Every subspace with both sides between 3 and `max` stones.
pub fn up_to(max: u8) -> Vec<Subspace> {
    (3..=max)
        .flat_map(|a| (3..=max).map(move |b| Subspace::new(a, b)))
        .collect()
}
