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

use super::code_arithmetic::CODE_SAME;
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

/// The post-filter of the paper's reference code
/// (`docs/design/reference-code.md`, "What every variant shares"): the
/// contacts are sorted (the two bodies, then position y, x, z, then normal
/// y, x, z, then depth) and a contact is dropped when it equals its
/// neighbour before it, every component within
/// [`crate::contact::code_arithmetic::CODE_SAME`]. Only neighbours are
/// compared, so two near-equal contacts that the sort puts apart (a
/// position a round-off apart that flips the order of y) both stay, and
/// near-duplicates with another depth or a normal a hair off stay too:
/// several of the paper's counts come from that.
pub fn sorted_neighbours(contacts: &mut Vec<Contact>) {
    let key = |c: &Contact| {
        let (p, n) = (c.position, c.normal);
        [p.y, p.x, p.z, n.y, n.x, n.z, c.depth]
    };
    contacts.sort_by(|x, y| {
        (x.a, x.b).cmp(&(y.a, y.b)).then_with(|| {
            key(x)
                .iter()
                .zip(key(y))
                .map(|(u, v)| u.total_cmp(&v))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    });
    contacts.dedup_by(|later, kept| {
        (later.a, later.b) == (kept.a, kept.b)
            && key(later)
                .iter()
                .zip(key(kept))
                .all(|(u, v)| (u - v).abs() <= CODE_SAME)
    });
}
