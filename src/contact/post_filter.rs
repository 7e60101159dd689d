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
