//! Bodies that start deeply inside one another: a scene with two copies of
//! one body on one spot (a duplicated line in a file) asks every contact
//! method, and the measures, for the contacts of two whole surfaces lying
//! on each other, which is not a contact problem at all and can cost
//! minutes and gigabytes. Such a scene is refused when it loads, naming
//! the two bodies.
//!
//! "Deeply" means that one body's inner point lies inside the other's
//! material. The inner point is the centre of mass (the body frame's
//! origin) when it lies in the body's own tetrahedra, and otherwise the
//! centre of the body's largest inscribed sphere among its tetrahedra (a
//! ring's centre of mass is in its hole). Bodies that touch, or overlap by
//! less than half their thickness, never trip it; a peg through a ring
//! does not either, since the ring's inner point lies in the ring.

use super::SceneBody;
use crate::geometry::Aabb;
use crate::mesh::tetmesh::tet_volume;
use crate::mesh::TetMesh;
use glam::DVec3;

/// The first pair (i < j, at least one free) with one body's inner point
/// inside the other, as the message that refuses the scene.
pub fn refuse_deep_overlap(bodies: &[SceneBody]) -> Result<(), String> {
    let inner: Vec<DVec3> = bodies
        .iter()
        .map(|b| b.position + b.rotation * inner_point(&b.mesh))
        .collect();
    let boxes: Vec<Aabb> = bodies
        .iter()
        .map(|b| {
            let world: Vec<DVec3> = b
                .mesh
                .vertices
                .iter()
                .map(|&v| b.position + b.rotation * v)
                .collect();
            Aabb::of(&world)
        })
        .collect();
    for i in 0..bodies.len() {
        for j in i + 1..bodies.len() {
            if bodies[i].fixed && bodies[j].fixed || !boxes[i].overlaps(&boxes[j]) {
                continue;
            }
            for (inside, outer) in [(i, j), (j, i)] {
                let body = &bodies[outer];
                let local = body.rotation.inverse() * (inner[inside] - body.position);
                if deep_inside(&body.mesh, local) {
                    return Err(format!(
                        "bodies: \"{}\" and \"{}\" start deeply inside each other (the middle of \"{}\" lies inside \"{}\"; copies on one spot?). Contact methods need bodies that touch or overlap a little: move one of them",
                        bodies[i].name, bodies[j].name, bodies[inside].name, body.name
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The centre of mass (origin of the body frame) if one of the mesh's
/// tetrahedra holds it, else the incentre of its fattest tetrahedron.
fn inner_point(mesh: &TetMesh) -> DVec3 {
    if contains(mesh, DVec3::ZERO) {
        return DVec3::ZERO;
    }
    (0..mesh.tets.len())
        .map(|t| incentre(mesh.tet_corners(t)))
        .max_by(|x, y| x.1.total_cmp(&y.1))
        .map_or(DVec3::ZERO, |(centre, _)| centre)
}

/// The incentre of a tetrahedron and its inradius.
fn incentre(c: [DVec3; 4]) -> (DVec3, f64) {
    // Each corner weighted by the area of the face opposite it.
    let area = |a: DVec3, b: DVec3, d: DVec3| 0.5 * (b - a).cross(d - a).length();
    let w = [
        area(c[1], c[2], c[3]),
        area(c[0], c[2], c[3]),
        area(c[0], c[1], c[3]),
        area(c[0], c[1], c[2]),
    ];
    let total: f64 = w.iter().sum();
    if total <= 0.0 {
        return (c[0], 0.0);
    }
    let centre = (c[0] * w[0] + c[1] * w[1] + c[2] * w[2] + c[3] * w[3]) / total;
    let volume = tet_volume(c[0], c[1], c[2], c[3]).abs();
    (centre, 3.0 * volume / total)
}

/// Whether `p` (body frame) lies inside the mesh and not on its surface:
/// two stones pushed exactly half into each other have each one's centre
/// on the other's face, which the README allows (it loads with a notice
/// that they overlap, `measures::overlap`). On the surface means on a
/// surface face of every tetrahedron that holds `p`.
fn deep_inside(mesh: &TetMesh, p: DVec3) -> bool {
    holding_tet(mesh, p, true)
}

/// Whether `p` (body frame) lies in one of the mesh's tetrahedra, its
/// boundary included (a kernel vertex shared by every cone).
fn contains(mesh: &TetMesh, p: DVec3) -> bool {
    holding_tet(mesh, p, false)
}

/// Whether a tetrahedron holds `p` (round-off on its boundary counts as
/// inside), and with `off_surface` also not on one of its surface faces.
fn holding_tet(mesh: &TetMesh, p: DVec3, off_surface: bool) -> bool {
    let slack = 1e-12 * mesh.diagonal().powi(3);
    let query = Aabb { lo: p, hi: p }.inflated(1e-9 * mesh.diagonal());
    let holds = |t: u32| {
        let [a, b, c, d] = mesh.tet_corners(t as usize);
        let v = tet_volume;
        let sign = v(a, b, c, d).signum();
        // parts[i]: the volume with corner i moved to p, zero when p lies
        // on the face opposite corner i.
        let parts = [v(p, b, c, d), v(a, p, c, d), v(a, b, p, d), v(a, b, c, p)].map(|x| x * sign);
        parts.iter().all(|&part| part >= -slack)
            && (!off_surface
                || (0..4)
                    .all(|i| parts[i] > slack || mesh.tet_surface_faces[t as usize][i].is_none()))
    };
    mesh.tet_tree().find_overlapping(&query, holds).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::shapes::{Cuboid, Shape};

    #[test]
    fn a_box_holds_its_centre_and_its_corners_but_not_a_point_outside() {
        let mesh = Shape::from(Cuboid {
            size: DVec3::new(2.0, 1.0, 1.0),
        })
        .build(1e-6)
        .unwrap();
        assert_eq!(inner_point(&mesh), DVec3::ZERO);
        assert!(contains(&mesh, DVec3::ZERO));
        assert!(contains(&mesh, DVec3::new(1.0, 0.5, 0.5)));
        assert!(!contains(&mesh, DVec3::new(1.01, 0.0, 0.0)));
        assert!(deep_inside(&mesh, DVec3::new(0.9, 0.0, 0.0)));
        assert!(!deep_inside(&mesh, DVec3::new(1.0, 0.0, 0.0)));
        assert!(!deep_inside(&mesh, DVec3::new(1.0, 0.5, 0.5)));
    }
}
