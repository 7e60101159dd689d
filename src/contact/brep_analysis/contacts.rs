//! The contacts of a region (Bouma & Vaněček 1993, §3: a contact region's
//! contacts are the corners of its convex hull): the kept entity pairs with
//! the same normals taken together, one contact per normal at every corner
//! of the hull of their pieces, at the analysis' resolution, with the
//! depth measured between the two entities along the normal.

use super::entities::closest_on;
use super::normals::Normal;
use super::{Choices, Tolerances};
use crate::contact::body_pair::BodyPair;
use crate::contact::features::features_from_dimensions;
use crate::contact::method_output::{PairContact, PairOutput, RawContact};
use crate::contact::regions::EntityContact;
use crate::geometry::{convex_hull_2d, PlaneFrame};
use glam::{DVec2, DVec3};

/// The contacts of one region: kept pieces with the same normals together,
/// one contact per normal at every vertex of the convex hull of their
/// points, or per cluster of those vertices where the method's
/// [`Choices::clusters`] makes some.
pub(super) fn emit_contacts(
    pair: &BodyPair,
    pieces: &[EntityContact],
    chosen: &[(usize, Vec<Normal>, bool)],
    region: u32,
    tolerances: &Tolerances,
    choices: &dyn Choices,
    out: &mut PairOutput,
) {
    let (fine, tol, margin) = (
        tolerances.touch_tol,
        tolerances.envelope,
        tolerances.parallel_sin,
    );
    let same = |x: &[Normal], y: &[Normal]| {
        x.len() == y.len()
            && x.iter()
                .zip(y)
                .all(|(p, q)| (p.world - q.world).length() <= margin)
    };
    let mut done = vec![false; chosen.len()];
    for g in 0..chosen.len() {
        if done[g] {
            continue;
        }
        let normals = &chosen[g].1;
        let Some(first) = normals.first() else {
            continue;
        };
        // The group: every chosen piece with these normals; (point, piece).
        let mut points: Vec<(DVec3, usize, bool)> = Vec::new();
        for (h, (piece, other, kept)) in chosen.iter().enumerate().skip(g) {
            if !done[h] && same(normals, other) {
                done[h] = true;
                points.extend(pieces[*piece].points.iter().map(|&p| (p, *piece, *kept)));
            }
        }
        let plane = PlaneFrame::new(points[0].0, first.world);
        let flat: Vec<DVec2> = points.iter().map(|(p, _, _)| plane.to_2d(*p)).collect();
        let corners: Vec<usize> = hull_corners(&flat, fine, tol)
            .iter()
            .filter_map(|corner| flat.iter().position(|q| q == corner))
            .collect();
        let contact = |k: usize, n: &Normal| {
            let (p, piece, kept) = points[k];
            let piece = &pieces[piece];
            let depth =
                (closest_on(&pair.b, piece.b, p) - closest_on(&pair.a, piece.a, p)).dot(n.world);
            PairContact {
                raw: RawContact {
                    position: p,
                    normal: n.world,
                    depth,
                    features: features_from_dimensions(piece.a.dimension(), piece.b.dimension()),
                },
                sources: [piece.a.index(), piece.b.index()],
                region,
                kept_normal: kept,
            }
        };
        if let Some(clusters) = choices.clusters(&flat, &corners, tol) {
            // One contact per cluster of corners (a point's, a segment's
            // two ends), at the cluster's centre with its deepest corner's
            // gap and features (its identity for warm starting).
            for cluster in clusters {
                let centre =
                    cluster.iter().map(|&k| points[k].0).sum::<DVec3>() / cluster.len() as f64;
                for n in normals {
                    let deepest = cluster
                        .iter()
                        .map(|&k| contact(k, n))
                        .min_by(|x, y| x.raw.depth.total_cmp(&y.raw.depth));
                    if let Some(mut c) = deepest {
                        c.raw.position = centre;
                        out.contacts.push(c);
                    }
                }
            }
            continue;
        }
        for &k in &corners {
            for n in normals {
                out.contacts.push(contact(k, n));
            }
        }
    }
}

/// The corners of the convex hull of `points` at the analysis' resolution:
/// the strict hull (collinear and repeated points within `fine`, the
/// touching tolerance, dropped), then, of corners closer than `coarse`
/// (the envelope) to each other, only the one farthest from the hull's
/// centre. Two faces a few micrometres out of line give a pair of corners
/// where one is meant; which of them stays depends on the geometry alone,
/// not on the order of the points, so not on the frame.
fn hull_corners(points: &[DVec2], fine: f64, coarse: f64) -> Vec<DVec2> {
    let hull = convex_hull_2d(points, fine);
    if hull.len() < 2 {
        return hull;
    }
    let centre = hull.iter().sum::<DVec2>() / hull.len() as f64;
    let mut order: Vec<usize> = (0..hull.len()).collect();
    order.sort_by(|&i, &j| {
        (hull[j] - centre)
            .length_squared()
            .total_cmp(&(hull[i] - centre).length_squared())
    });
    let mut keep = vec![false; hull.len()];
    for &i in &order {
        if !(0..hull.len()).any(|j| keep[j] && (hull[j] - hull[i]).length() <= coarse) {
            keep[i] = true;
        }
    }
    (0..hull.len())
        .filter(|&i| keep[i])
        .map(|i| hull[i])
        .collect()
}
