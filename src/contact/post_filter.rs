//! The post-filter of the paper's section 8.1: after all tetrahedron pairs of
//! a body pair are done, drop every contact whose position and normal equal
//! an earlier contact's within tolerance (position within 10 × touch_tol,
//! normals within 1e-6 in dot product). Counts are reported after it.
//!
//! Duplicates can disagree on depth (Intersection's (E,E) contacts at one
//! point take the overlap of different triangle pairs). The kept contact
//! takes the deepest of its duplicates' depths: conservative, and unlike
//! "the first one's" it does not depend on the order the pairs were visited
//! in, which changes when the bodies are numbered the other way round.

use super::Contact;

/// Filters `contacts` in place, keeping the first of each group of equal
/// contacts. Contacts of different body pairs are never merged;
/// `touch_tol(a, b)` is the touching tolerance of bodies a and b.
pub fn post_filter(contacts: &mut Vec<Contact>, touch_tol: impl Fn(usize, usize) -> f64) {
    let mut kept: Vec<Contact> = Vec::with_capacity(contacts.len());
    for c in contacts.drain(..) {
        let radius = 10.0 * touch_tol(c.a, c.b);
        let duplicate = kept
            .iter_mut()
            .rev()
            .take_while(|k| (k.a, k.b) == (c.a, c.b))
            .find(|k| {
                (k.position - c.position).length() <= radius && k.normal.dot(c.normal) >= 1.0 - 1e-6
            });
        match duplicate {
            Some(k) => k.depth = k.depth.min(c.depth),
            None => kept.push(c),
        }
    }
    *contacts = kept;
}

/// How close two numbers of contacts must be to count as the same in the
/// paper's code: 10 machine epsilons, absolute (its coordinates are of
/// order one metre).
const EXACT: f64 = 10.0 * f64::EPSILON;

/// The post-filter of the paper's reference code
/// (`docs/design/reference-code.md`, "What every variant shares"): a contact
/// is dropped only when an earlier one of the same body pair has the same
/// position, normal *and* depth, component by component within [`EXACT`].
/// Near-duplicates (the same point found from two tetrahedron pairs with a
/// round-off apart, or with another depth) are kept, which is where several
/// of the paper's counts come from.
pub fn exact_duplicates(contacts: &mut Vec<Contact>) {
    let same = |x: f64, y: f64| (x - y).abs() <= EXACT;
    let same3 = |x: glam::DVec3, y: glam::DVec3| same(x.x, y.x) && same(x.y, y.y) && same(x.z, y.z);
    let mut kept: Vec<Contact> = Vec::with_capacity(contacts.len());
    for c in contacts.drain(..) {
        let duplicate = kept
            .iter()
            .rev()
            .take_while(|k| (k.a, k.b) == (c.a, c.b))
            .any(|k| {
                same3(k.position, c.position) && same3(k.normal, c.normal) && same(k.depth, c.depth)
            });
        if !duplicate {
            kept.push(c);
        }
    }
    *contacts = kept;
}
