//! Self-overlapping solids are refused at load time, naming the body: a
//! pentagram prism (its surface winds twice around its centre) as `prism`,
//! as `mesh` and as `tetmesh`. Ordinary convex and non-convex shapes are not
//! flagged.

use contactlab::mesh::self_intersection::find_self_intersection;
use contactlab::mesh::shapes::{Cuboid, Frustum, Shape, Wedge};
use contactlab::scene::{load_scene, LoadOptions};
use glam::{DVec2, DVec3};

/// The star's five points in drawing order: each is 144° on from the last,
/// so the outline turns counter-clockwise twice around the origin.
fn star_points() -> Vec<DVec2> {
    (0..5)
        .map(|k| {
            let angle = (90.0 + 144.0 * k as f64).to_radians();
            DVec2::new(angle.cos(), angle.sin())
        })
        .collect()
}

/// The star extruded by 1 m along z: 5 points at z = −0.5, 5 at z = +0.5,
/// then the two cap centres. Each cap is fanned around its centre (every
/// fan triangle turns 144°, so each is positive on its own) and each side
/// is a quad cut in two, outward to the right of the counter-clockwise
/// outline: closed, consistently oriented, star-shaped about the origin.
fn star_surface() -> (Vec<DVec3>, Vec<[u32; 3]>) {
    let star = star_points();
    let mut vertices: Vec<DVec3> = star.iter().map(|p| DVec3::new(p.x, p.y, -0.5)).collect();
    vertices.extend(star.iter().map(|p| DVec3::new(p.x, p.y, 0.5)));
    vertices.push(DVec3::new(0.0, 0.0, -0.5));
    vertices.push(DVec3::new(0.0, 0.0, 0.5));
    let mut triangles = Vec::new();
    for i in 0..5u32 {
        let j = (i + 1) % 5;
        triangles.push([10, j, i]);
        triangles.push([11, 5 + i, 5 + j]);
        triangles.push([i, j, 5 + j]);
        triangles.push([i, 5 + j, 5 + i]);
    }
    (vertices, triangles)
}

fn json_points<const N: usize>(points: impl Iterator<Item = [f64; N]>) -> String {
    let items: Vec<String> = points
        .map(|p| {
            let coordinates: Vec<String> = p.iter().map(|x| format!("{x}")).collect();
            format!("[{}]", coordinates.join(", "))
        })
        .collect();
    format!("[{}]", items.join(", "))
}

fn json_indices<const N: usize>(items: &[[u32; N]]) -> String {
    json_points(items.iter().map(|t| t.map(|v| v as f64)))
}

/// A scene with a fixed ground box and the star above it, with `shape` as
/// the star's shape object.
fn scene_with_star(shape: &str) -> String {
    format!(
        r#"{{
  "format": "contactlab-scene/1",
  "id": "star",
  "bodies": [
    {{ "name": "ground", "fixed": true, "shape": {{ "type": "box", "size": [4, 1, 4] }}, "position": [0, -0.5, 0] }},
    {{ "name": "star", "shape": {shape}, "position": [0, 1.5, 0] }}
  ]
}}"#
    )
}

fn assert_refused_naming_the_star(kind: &str, shape: &str) {
    let text = scene_with_star(shape);
    let error = load_scene("star.json", &text, &LoadOptions::default())
        .err()
        .unwrap_or_else(|| panic!("the pentagram {kind} loaded"));
    let message = error.to_string();
    assert!(
        message.contains(r#"bodies[1] "star""#) && message.contains("intersect"),
        "{kind}: {message}"
    );
}

#[test]
fn pentagram_prism_is_refused_as_prism_naming_the_body() {
    let profile = json_points(star_points().iter().map(|p| [p.x, p.y]));
    let shape = format!(r#"{{ "type": "prism", "profile": {profile}, "depth": 1 }}"#);
    assert_refused_naming_the_star("prism", &shape);
    let message = load_scene(
        "star.json",
        &scene_with_star(&shape),
        &LoadOptions::default(),
    )
    .err()
    .unwrap()
    .to_string();
    assert!(message.contains("not a simple polygon"), "{message}");
}

#[test]
fn pentagram_prism_is_refused_as_mesh_naming_the_body() {
    let (vertices, triangles) = star_surface();
    let shape = format!(
        r#"{{ "type": "mesh", "vertices": {}, "triangles": {} }}"#,
        json_points(vertices.iter().map(|v| v.to_array())),
        json_indices(&triangles)
    );
    assert_refused_naming_the_star("mesh", &shape);
}

#[test]
fn pentagram_prism_is_refused_as_tetmesh_naming_the_body() {
    // Cone every surface triangle to a kernel vertex at the origin, which
    // sees each of them from inside: every tetrahedron is positive.
    let (mut vertices, triangles) = star_surface();
    let kernel = vertices.len() as u32;
    vertices.push(DVec3::ZERO);
    let tets: Vec<[u32; 4]> = triangles
        .iter()
        .map(|&[a, b, c]| [kernel, a, b, c])
        .collect();
    let shape = format!(
        r#"{{ "type": "tetmesh", "vertices": {}, "tets": {} }}"#,
        json_points(vertices.iter().map(|v| v.to_array())),
        json_indices(&tets)
    );
    assert_refused_naming_the_star("tetmesh", &shape);
}

#[test]
fn the_same_prism_with_a_pentagon_profile_loads() {
    // The control: the same construction on a convex outline (each point
    // 72° on) is a valid body, so the refusals above are the star's.
    let pentagon: Vec<[f64; 2]> = (0..5)
        .map(|k| {
            let angle = (90.0 + 72.0 * k as f64).to_radians();
            [angle.cos(), angle.sin()]
        })
        .collect();
    let shape = format!(
        r#"{{ "type": "prism", "profile": {}, "depth": 1 }}"#,
        json_points(pentagon.into_iter())
    );
    load_scene(
        "pentagon.json",
        &scene_with_star(&shape),
        &LoadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn box_hexagonal_frustum_and_wedge_are_not_flagged() {
    let shapes = [
        Shape::from(Cuboid {
            size: DVec3::new(0.625, 0.4, 0.5),
        }),
        Shape::from(Frustum {
            sides: 6,
            bottom_radius: 0.25,
            top_radius: 0.2,
            height: 0.21,
        }),
        Shape::from(Wedge {
            half_width: 0.8,
            height: 2.4,
            half_length: 1.6,
        }),
    ];
    for shape in shapes {
        let mesh = shape
            .build(1e-6)
            .unwrap_or_else(|e| panic!("{shape:?}: {e}"));
        let triangles: Vec<[u32; 3]> = mesh.surface_faces.iter().map(|f| f.vertices).collect();
        assert_eq!(
            find_self_intersection(&mesh.vertices, &triangles, 1e-6),
            None,
            "{shape:?}"
        );
    }
}
