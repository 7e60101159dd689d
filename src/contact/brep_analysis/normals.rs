//! Contact normals by the dimension and kind of the two entities (Bouma &
//! Vaněček 1993, §3, "Contact Normals", figures 7 and 8): two faces, a
//! reflex edge or non-convex corner, a face against a convex entity, two
//! convex edges crossing, and the indeterminate rest, decided among the
//! separating normals by the local geometry and the n · v rule.

use super::entities::{edge_direction, face_normal, faces_at, is_convex};
use super::local_solids::{local_cone, separates};
use super::Choices;
use crate::contact::body_pair::{BodyPair, PairSide};
use crate::contact::regions::{Entity, EntityContact};
use glam::DVec3;

/// Which body's frame a normal is kept in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Frame {
    A,
    B,
}

/// A normal in world coordinates (from A to B) and the body it belongs to.
#[derive(Clone, Copy, Debug)]
pub struct Normal {
    /// Unit, world frame, from A to B.
    pub world: DVec3,
    pub(super) frame: Frame,
}

/// Normals from the local geometry, by the dimension and kind of the
/// piece's entities (the analysis' step 3).
pub(super) fn local_normals(
    pair: &BodyPair,
    piece: &EntityContact,
    margin: f64,
    choices: &dyn Choices,
) -> Vec<Normal> {
    let (x, y) = (piece.a, piece.b);
    let a_normals: Vec<DVec3> = faces_at(&pair.a, x)
        .iter()
        .map(|&f| face_normal(&pair.a, f))
        .collect();
    let b_normals: Vec<DVec3> = faces_at(&pair.b, y)
        .iter()
        .map(|&f| face_normal(&pair.b, f))
        .collect();
    // Face on face: the bisector of A's normal and minus B's.
    if let (Entity::Face(_), Entity::Face(_)) = (x, y) {
        let n = (a_normals[0] - b_normals[0]).normalize_or_zero();
        return vec![Normal {
            world: n,
            frame: Frame::A,
        }];
    }
    // A reflex side: its faces' normals, those that separate when any do.
    let (reflex_a, reflex_b) = (is_reflex(&pair.a, x, y), is_reflex(&pair.b, y, x));
    if reflex_a || reflex_b {
        let candidates = reflex_candidates(&a_normals, &b_normals, reflex_a, reflex_b);
        let separating =
            separating_candidates(pair, piece, (reflex_a, reflex_b), &candidates, margin);
        let pool = if separating.is_empty() {
            candidates
        } else {
            separating
        };
        return choices.reflex_normals(distinct(&pool, margin), margin);
    }
    // A face and a convex entity: the face's normal.
    if let Entity::Face(_) = x {
        return vec![Normal {
            world: a_normals[0],
            frame: Frame::A,
        }];
    }
    if let Entity::Face(_) = y {
        return vec![Normal {
            world: -b_normals[0],
            frame: Frame::B,
        }];
    }
    let at = piece.points.iter().sum::<DVec3>() / piece.points.len().max(1) as f64;
    if let Some(crossing) =
        crossing_normal(pair, piece, at, &a_normals, &b_normals, margin, choices)
    {
        return vec![crossing];
    }
    vec![Normal {
        world: indeterminate_normal(pair, x, y, at, &a_normals, &b_normals, margin),
        frame: Frame::A,
    }]
}

/// A reflex edge gives its two faces' normals whatever it touches (a face
/// counts as convex, Bouma & Vaněček's reflex–convex case); a non-convex
/// corner resting on a face is held by that face, so is not reflex here.
fn is_reflex(side: &PairSide, e: Entity, other: Entity) -> bool {
    match e {
        Entity::Edge(_) => !is_convex(side, e),
        Entity::Vertex(_) => !is_convex(side, e) && !matches!(other, Entity::Face(_)),
        Entity::Face(_) => false,
    }
}

/// The face normals of each reflex side, B's turned to point from A to B.
fn reflex_candidates(
    a_normals: &[DVec3],
    b_normals: &[DVec3],
    reflex_a: bool,
    reflex_b: bool,
) -> Vec<Normal> {
    let mut candidates: Vec<Normal> = Vec::new();
    if reflex_a {
        candidates.extend(a_normals.iter().map(|&n| Normal {
            world: n,
            frame: Frame::A,
        }));
    }
    if reflex_b {
        candidates.extend(b_normals.iter().map(|&n| Normal {
            world: -n,
            frame: Frame::B,
        }));
    }
    candidates
}

/// The candidates that separate the other entity where it is a convex edge
/// or corner (a face is separated by its own normal only).
fn separating_candidates(
    pair: &BodyPair,
    piece: &EntityContact,
    (reflex_a, reflex_b): (bool, bool),
    candidates: &[Normal],
    margin: f64,
) -> Vec<Normal> {
    let (x, y) = (piece.a, piece.b);
    candidates
        .iter()
        .copied()
        .filter(|n| {
            let a_ok = reflex_a
                || matches!(x, Entity::Face(_))
                || local_cone(&pair.a, x)
                    .iter()
                    .all(|c| c.rays.iter().all(|g| g.dot(n.world) <= margin));
            let b_ok = reflex_b
                || matches!(y, Entity::Face(_))
                || local_cone(&pair.b, y)
                    .iter()
                    .all(|c| c.rays.iter().all(|g| g.dot(n.world) >= -margin));
            a_ok && b_ok
        })
        .collect()
}

/// Convex edges crossing at a point: their cross product, oriented from A
/// to B. `None` when they are parallel, or when the cross product does not
/// separate the bodies and the method treats that as indeterminate.
fn crossing_normal(
    pair: &BodyPair,
    piece: &EntityContact,
    at: DVec3,
    a_normals: &[DVec3],
    b_normals: &[DVec3],
    margin: f64,
    choices: &dyn Choices,
) -> Option<Normal> {
    let (x, y) = (piece.a, piece.b);
    let (Entity::Edge(ea), Entity::Edge(eb), 0) = (x, y, piece.dimension()) else {
        return None;
    };
    let cross = edge_direction(&pair.a, ea, at).cross(edge_direction(&pair.b, eb, at));
    if cross.length() > margin {
        let n = cross.normalize();
        let toward = (mean(a_normals) - mean(b_normals)).dot(n);
        let (plus, minus) = (
            separates(pair, x, y, n, margin),
            separates(pair, x, y, -n, margin),
        );
        let world = if plus {
            n
        } else if minus || toward < 0.0 {
            -n
        } else {
            n
        };
        // Edges that cross without their cross product separating the
        // bodies there (two end edges in one plane) are a crossing contact
        // or not as the method chooses.
        if plus || minus || !choices.crossing_must_separate() {
            return Some(Normal {
                world,
                frame: Frame::A,
            });
        }
    }
    None
}

fn mean(v: &[DVec3]) -> DVec3 {
    v.iter().sum::<DVec3>() / v.len().max(1) as f64
}

/// The normals without repeats (within `margin`), in order.
pub(super) fn distinct(normals: &[Normal], margin: f64) -> Vec<Normal> {
    let mut distinct: Vec<Normal> = Vec::new();
    for n in normals {
        if !distinct
            .iter()
            .any(|d| (d.world - n.world).length() <= margin)
        {
            distinct.push(*n);
        }
    }
    distinct
}

/// An indeterminate normal (two convex entities that are not a face and do
/// not cross transversally): among the normals that separate the two
/// local solids, the one nearest the local choice (A's mean face normal
/// minus B's), or by the n · v rule.
fn indeterminate_normal(
    pair: &BodyPair,
    x: Entity,
    y: Entity,
    at: DVec3,
    a_normals: &[DVec3],
    b_normals: &[DVec3],
    margin: f64,
) -> DVec3 {
    // Separating normals n: n · g ≤ 0 for A's rays g, n · g ≥ 0 for B's.
    let mut constraints: Vec<DVec3> = Vec::new();
    for c in local_cone(&pair.a, x) {
        constraints.extend(c.rays);
    }
    for c in local_cone(&pair.b, y) {
        constraints.extend(c.rays.iter().map(|g| -*g));
    }
    let local = (mean(a_normals) - mean(b_normals))
        .try_normalize()
        .or_else(|| a_normals.first().copied())
        .unwrap_or(DVec3::ZERO);
    let Some(chosen) = best_direction(&constraints, local, margin) else {
        // No separating plane: the local solids overlap (the bodies
        // interpenetrate there); the local choice is all there is.
        return local;
    };
    let v = pair.relative_velocity(at);
    if chosen.dot(v) >= 0.0 {
        return chosen;
    }
    // n · v ≥ 0 among the separating normals, nearest the local choice;
    // failing that, the separating normal with the largest n · v.
    constraints.push(-v);
    if let Some(n) = best_direction(&constraints, local, margin) {
        return n;
    }
    constraints.pop();
    best_direction(&constraints, v, margin).unwrap_or(chosen)
}

/// The unit n that maximises n · objective subject to ĉ · n ≤ slack for
/// every constraint c, or `None` when no unit n meets them. The maximum
/// of a linear function over a convex spherical polygon is the direction
/// of the objective itself, or its projection on one bounding great
/// circle, or a corner where two meet; all of these are tried.
fn best_direction(constraints: &[DVec3], objective: DVec3, slack: f64) -> Option<DVec3> {
    let unit: Vec<DVec3> = constraints
        .iter()
        .filter_map(|c| c.try_normalize())
        .collect();
    let feasible = |n: DVec3| unit.iter().all(|c| c.dot(n) <= slack);
    let mut candidates: Vec<DVec3> = Vec::new();
    candidates.extend(objective.try_normalize());
    for c in &unit {
        candidates.extend((objective - *c * c.dot(objective)).try_normalize());
    }
    for i in 0..unit.len() {
        for j in i + 1..unit.len() {
            if let Some(d) = unit[i].cross(unit[j]).try_normalize() {
                candidates.push(d);
                candidates.push(-d);
            }
        }
    }
    let mut best: Option<(DVec3, f64)> = None;
    for n in candidates.into_iter().filter(|&n| feasible(n)) {
        let value = n.dot(objective);
        if best.is_none_or(|(_, b)| value > b + slack * objective.length()) {
            best = Some((n, value));
        }
    }
    best.map(|(n, _)| n)
}
