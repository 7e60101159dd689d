//! The post-filter of the paper's section 8.1: after all tetrahedron pairs of
//! a body pair are done, drop every contact whose position and normal equal
//! an earlier contact's within tolerance (position within 10 × touch_tol,
//! normals within 1e-6 in dot product). Counts are reported after it.

use super::Contact;

/// Filters `contacts` in place, keeping the first of each group of equal
/// contacts. Contacts of different body pairs are never merged.
pub fn post_filter(contacts: &mut Vec<Contact>, touch_tol: f64) {
    let radius = 10.0 * touch_tol;
    let mut kept: Vec<Contact> = Vec::with_capacity(contacts.len());
    for c in contacts.drain(..) {
        let duplicate = kept
            .iter()
            .rev()
            .take_while(|k| (k.a, k.b) == (c.a, c.b))
            .any(|k| {
                (k.position - c.position).length() <= radius && k.normal.dot(c.normal) >= 1.0 - 1e-6
            });
        if !duplicate {
            kept.push(c);
        }
    }
    *contacts = kept;
}
