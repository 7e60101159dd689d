//! parry3d as a contact method: the contact manifolds a Rapier user gets, as
//! an industry baseline beside the paper's and the other sources' methods
//! (`docs/design/other-methods.md`, "An industry baseline: parry3d"; issue
//! 12, deliverable 5). We call the library; nothing of its algorithm is ours.
//!
//! - **Shapes.** A convex body (every B-rep edge convex) is parry's
//!   `ConvexPolyhedron`, the hull of its surface vertices; any other body is
//!   its surface as a `TriMesh` with `FIX_INTERNAL_EDGES` (parry's
//!   pseudo-normal correction of contacts on internal triangle edges, the
//!   paper's §4.4 failure). Both are built once per mesh and kept with it
//!   ([`crate::mesh::TetMesh::parry_shape`]), never per step.
//! - **Query.** `DefaultQueryDispatcher::contact_manifolds` between the two
//!   shapes at their relative pose, with the prediction distance set to the
//!   `envelope` setting, the same envelope within which Region analysis
//!   counts features as touching. So, like Region analysis and like Rapier
//!   with its default prediction, it reports speculative contacts up to the
//!   envelope apart (depth > 0) as well as touching and penetrating ones.
//!   The broad phase asks about bodies that far apart too ([`Parry::margin`]).
//! - **Memory.** The manifolds and parry's workspace for the pair are kept
//!   between steps and handed back to parry, as Rapier does: parry then
//!   only updates the contacts when the relative pose has barely changed
//!   (`try_update_contacts_eps`) and keeps a triangle mesh's per-triangle
//!   state. The memory is dropped when the pair's meshes change.
//! - **Contacts.** One per manifold point, at the midpoint of parry's two
//!   witness points (on A's and on B's surface), with the manifold's normal
//!   (`local_n1`, outward from shape 1 = A, so from A to B, ours) and
//!   parry's signed distance as depth (negative when penetrating, ours).
//! - **Features.** parry names a hull vertex, hull edge or hull face (for a
//!   triangle mesh: a triangle's vertex, edge or face). We name the B-rep
//!   entity it lies on ([`crate::mesh::parry_shape::ConvexShape`] keeps the
//!   map), and the feature kind is that entity's dimension: a hull vertex at
//!   a B-rep corner is a vertex, one inside a B-rep edge (the hull kept a
//!   collinear point) an edge, a triangle edge that is flat an entity of
//!   its face. In 3D parry adds to the clipped polygon's points one contact
//!   at GJK's closest points with unknown features; for such a point (and
//!   any other unknown feature) the rule is: the lowest-dimensional B-rep
//!   entity of that body within the touching tolerance of its witness
//!   point (a corner, else an edge, else the face whose plane is nearest).
//! - **Regions.** Each manifold with points is one region, outlined by the
//!   convex hull of its contacts in the plane of its normal.
//!
//! Conversions between our glam and parry's live in
//! [`crate::mesh::parry_shape`]. The method also exports `signed_distance`,
//! parry's GJK/EPA signed distance of two posed convex hulls, which the
//! SAT unit table compares with SAT.
//!
//! All of this is behind the cargo feature `parry`. Without it (the page's
//! lean wasm module, `--no-default-features`) only [`METHOD`] is compiled,
//! the same entry with [`Algorithm::NotInThisBuild`] for its algorithm, so
//! the method is listed everywhere and refused, with a message, when run.

use super::{Algorithm, MethodInfo};
// Everything below that calls parry3d, or serves only what does, is behind
// the cargo feature: the page's lean wasm module is built without it and
// keeps only the registry entry.
#[cfg(feature = "parry")]
use {
    super::{
        BodyPair, BodyPairMethod, MethodParams, PairContact, PairMemory, PairOutput, PairSide,
        RawContact, RegionOutline,
    },
    crate::contact::features::features_from_dimensions,
    crate::contact::point_queries::entity_of_mesh_vertex,
    crate::contact::regions::Entity,
    crate::geometry::closest::closest_point_on_segment,
    crate::geometry::{convex_hull_2d, PlaneFrame},
    crate::mesh::parry_shape::{from_parry, parry_pose, to_parry, ConvexShape, ParryShape},
    crate::mesh::{Brep, TetMesh},
    glam::{DQuat, DVec3},
    parry3d_f64::query::{
        ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher,
        PersistentQueryDispatcher,
    },
    parry3d_f64::shape::{ConvexPolyhedron, FeatureId, Shape},
};

#[cfg(feature = "parry")]
pub struct Parry;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "parry",
    name: "parry3d (Rapier's contacts)",
    source: help_text!("parry3d-f64 0.31 contact manifolds (docs/design/other-methods.md, \"An industry baseline: parry3d\"; issue 12)"),
    summary: "The contact manifolds of the parry3d library, which the Rapier physics engine uses: hulls for convex bodies, triangle meshes with internal-edge fixing otherwise.",
    help: help_text!("Not from a paper: what a game or robotics developer using Rapier gets. A convex body is given to parry3d as its convex hull, any other body as its surface triangles with parry's internal-edge fixing. Between two hulls parry finds the closest points or the penetration with GJK and EPA, takes the two features facing each other along that normal and clips them: a face on a face gives the corners of their overlap, plus one more contact at GJK's closest points. Between a triangle mesh and anything, it does the same per triangle, and corrects normals on internal triangle edges by the triangles' pseudo-normals. Contacts are reported up to the envelope apart (speculative contacts, like Rapier's prediction distance). Every manifold has one normal; a triangle mesh against a triangle mesh only meets surfaces, so a body sunk deeper than a triangle is not seen."),
    reads: &["envelope"],
    #[cfg(feature = "parry")]
    algorithm: Algorithm::BodyPair(&Parry),
    #[cfg(not(feature = "parry"))]
    algorithm: Algorithm::NotInThisBuild {
        feature: "parry",
        kind: "region",
    },
    paper_code: None,
};

/// What the method keeps of a body pair between detections: parry's own
/// manifolds and workspace (what Rapier keeps), and which meshes they are
/// for.
#[cfg(feature = "parry")]
#[derive(Default)]
struct Kept {
    /// The addresses of the two meshes (only compared).
    meshes: Option<[usize; 2]>,
    manifolds: Vec<ContactManifold<(), ()>>,
    workspace: Option<ContactManifoldsWorkspace>,
}

#[cfg(feature = "parry")]
impl BodyPairMethod for Parry {
    fn margin(&self, params: &MethodParams) -> f64 {
        params.envelope
    }

    fn body_pair(
        &self,
        pair: &BodyPair,
        params: &MethodParams,
        memory: &mut PairMemory,
        out: &mut PairOutput,
    ) {
        let (Some(shape_a), Some(shape_b)) = (as_shape(&pair.a), as_shape(&pair.b)) else {
            return;
        };
        let kept = memory.get_or_default::<Kept>();
        let meshes = [
            std::ptr::from_ref(pair.a.world.mesh) as usize,
            std::ptr::from_ref(pair.b.world.mesh) as usize,
        ];
        if kept.meshes != Some(meshes) {
            *kept = Kept {
                meshes: Some(meshes),
                ..Kept::default()
            };
        }
        let pose_a = parry_pose(pair.a.position, pair.a.rotation);
        let pose_b = parry_pose(pair.b.position, pair.b.rotation);
        let pose_ab = pose_a.inv_mul(&pose_b);
        if DefaultQueryDispatcher
            .contact_manifolds(
                &pose_ab,
                shape_a,
                shape_b,
                params.envelope,
                &mut kept.manifolds,
                &mut kept.workspace,
            )
            .is_err()
        {
            // Every shape pair we build (hull or triangle mesh) is supported;
            // an unsupported one would have no contacts to give.
            kept.manifolds.clear();
            return;
        }
        for manifold in &kept.manifolds {
            emit_manifold(pair, manifold, params, out);
        }
    }
}

/// The parry shape of one side, or nothing when parry could not build one.
#[cfg(feature = "parry")]
fn as_shape<'a>(side: &PairSide<'a>) -> Option<&'a dyn Shape> {
    match side.world.mesh.parry_shape() {
        ParryShape::Convex(convex) => Some(&convex.polyhedron as &ConvexPolyhedron),
        ParryShape::Mesh(trimesh) => Some(trimesh),
        ParryShape::Unavailable(_) => None,
    }
}

/// Appends the contacts of one manifold and its outline as one region.
#[cfg(feature = "parry")]
fn emit_manifold(
    pair: &BodyPair,
    manifold: &ContactManifold<(), ()>,
    params: &MethodParams,
    out: &mut PairOutput,
) {
    if manifold.points.is_empty() {
        return;
    }
    // Sub-shape poses (none for a triangle mesh or a hull) take a witness
    // point from the sub-shape's frame into the body's.
    let sub_a = manifold.subshape_pos1().copied();
    let sub_b = manifold.subshape_pos2().copied();
    let normal_body_a = match sub_a {
        Some(pose) => pose.rotation * manifold.local_n1,
        None => manifold.local_n1,
    };
    let normal = (pair.a.rotation * from_parry(normal_body_a)).normalize_or_zero();
    if normal == DVec3::ZERO {
        return;
    }
    let region = out.regions.len() as u32;
    let first = out.contacts.len();
    for point in &manifold.points {
        let p_a = match sub_a {
            Some(pose) => pose * point.local_p1,
            None => point.local_p1,
        };
        let p_b = match sub_b {
            Some(pose) => pose * point.local_p2,
            None => point.local_p2,
        };
        let p_a = pair.a.world.to_world(from_parry(p_a));
        let p_b = pair.b.world.to_world(from_parry(p_b));
        let tol = params.touch_tol;
        let a = entity(&pair.a, manifold.subshape1, point.fid1.unpack(), p_a, tol);
        let b = entity(&pair.b, manifold.subshape2, point.fid2.unpack(), p_b, tol);
        out.contacts.push(PairContact {
            raw: RawContact {
                position: (p_a + p_b) * 0.5,
                normal,
                depth: point.dist,
                features: features_from_dimensions(a.dimension(), b.dimension()),
            },
            sources: [a.index(), b.index()],
            region,
            kept_normal: false,
        });
    }
    let frame = PlaneFrame::new(out.contacts[first].raw.position, normal);
    let projected: Vec<_> = out.contacts[first..]
        .iter()
        .map(|c| frame.to_2d(c.raw.position))
        .collect();
    let points: Vec<DVec3> = convex_hull_2d(&projected, params.touch_tol)
        .into_iter()
        .map(|q| frame.to_3d(q))
        .collect();
    out.regions.push(RegionOutline {
        dimension: points.len().clamp(1, 3) as u8 - 1,
        points,
    });
}

/// The B-rep entity of `side` that parry's feature `feature` (of sub-shape
/// `subshape`, a triangle of a triangle mesh) lies on; `witness` is the
/// contact's world point on that body, for unknown features.
#[cfg(feature = "parry")]
fn entity(side: &PairSide, subshape: u32, feature: FeatureId, witness: DVec3, tol: f64) -> Entity {
    let mesh = side.world.mesh;
    let brep = side.brep;
    let located = || entity_at(mesh, brep, side.world.to_body(witness), tol);
    match mesh.parry_shape() {
        ParryShape::Convex(convex) => {
            convex_entity(mesh, brep, convex, feature).unwrap_or_else(located)
        }
        ParryShape::Mesh(_) | ParryShape::Unavailable(_) => {
            let triangle = subshape as usize;
            let face = Entity::Face(brep.face_of_triangle[triangle]);
            let corners = mesh.surface_faces[triangle].vertices;
            match feature {
                FeatureId::Vertex(k) => {
                    entity_of_mesh_vertex(mesh, brep, corners[k as usize % 3]).unwrap_or(face)
                }
                FeatureId::Edge(k) => {
                    let (u, v) = (corners[k as usize % 3], corners[(k as usize + 1) % 3]);
                    mesh.surface_edge_between(u, v)
                        .and_then(|e| brep.edge_of_surface_edge[e as usize])
                        .map_or(face, Entity::Edge)
                }
                FeatureId::Face(_) => face,
                FeatureId::Unknown => located(),
            }
        }
    }
}

/// For a contact parry gives no features for: the lowest-dimensional B-rep
/// entity within `tol` of the body-frame point `p` (a corner, else an edge,
/// else the face whose plane is nearest).
#[cfg(feature = "parry")]
fn entity_at(mesh: &TetMesh, brep: &Brep, p: DVec3, tol: f64) -> Entity {
    let near = |q: DVec3| q.distance(p) <= tol;
    if let Some(v) = brep
        .vertices
        .iter()
        .position(|v| near(mesh.vertices[v.mesh_vertex as usize]))
    {
        return Entity::Vertex(v as u32);
    }
    if let Some(e) = brep.edges.iter().position(|e| {
        e.path.windows(2).any(|s| {
            let [a, b] = [s[0], s[1]].map(|v| mesh.vertices[v as usize]);
            near(closest_point_on_segment(p, a, b).0)
        })
    }) {
        return Entity::Edge(e as u32);
    }
    let plane_distance = |f: usize| {
        let face = &brep.faces[f];
        (face.normal.dot(p) - face.offset).abs()
    };
    let nearest = (0..brep.faces.len())
        .min_by(|&f, &g| plane_distance(f).total_cmp(&plane_distance(g)))
        .unwrap_or(0);
    Entity::Face(nearest as u32)
}

/// The B-rep entity of a hull feature; `None` for an unknown feature.
#[cfg(feature = "parry")]
fn convex_entity(
    mesh: &TetMesh,
    brep: &Brep,
    convex: &ConvexShape,
    feature: FeatureId,
) -> Option<Entity> {
    match feature {
        FeatureId::Vertex(i) => {
            let vertex = *convex.point_vertex.get(i as usize)?;
            entity_of_mesh_vertex(mesh, brep, vertex)
        }
        FeatureId::Edge(i) => {
            let hull_edge = convex.polyhedron.edges().get(i as usize)?;
            Some(match convex.edge_edge[i as usize] {
                Some(edge) => Entity::Edge(edge),
                None => Entity::Face(convex.face_face[hull_edge.faces[0] as usize]),
            })
        }
        FeatureId::Face(i) => convex.face_face.get(i as usize).copied().map(Entity::Face),
        FeatureId::Unknown => None,
    }
}

/// A convex point set at a pose, for [`signed_distance`].
#[cfg(feature = "parry")]
#[derive(Clone, Copy)]
pub struct PosedHull<'a> {
    /// The points, body frame; their convex hull is the body.
    pub points: &'a [DVec3],
    pub position: DVec3,
    pub rotation: DQuat,
}

/// The signed distance of two posed convex hulls by parry3d's GJK (apart)
/// and EPA (penetrating): the distance when apart, minus the penetration
/// depth when overlapping; `None` when parry cannot build a hull or does not
/// answer. This is the GJK/EPA column of the SAT unit table (issue 12,
/// deliverable 2, Cheng Yi & Drumwright's table I compares libccd's GJK+EPA the same
/// way).
#[cfg(feature = "parry")]
pub fn signed_distance(a: PosedHull, b: PosedHull) -> Option<f64> {
    let hull = |h: PosedHull| {
        let points: Vec<_> = h.points.iter().map(|&p| to_parry(p)).collect();
        ConvexPolyhedron::from_convex_hull(&points)
    };
    let (hull_a, hull_b) = (hull(a)?, hull(b)?);
    // The prediction must exceed any distance the bodies can be apart, so
    // that parry always answers: their diameters plus the distance of their
    // frames bounds it.
    let reach = |h: &PosedHull| h.points.iter().map(|p| p.length()).fold(0.0, f64::max);
    let prediction = 2.0 * (reach(&a) + reach(&b)) + (a.position - b.position).length();
    parry3d_f64::query::contact(
        &parry_pose(a.position, a.rotation),
        &hull_a,
        &parry_pose(b.position, b.rotation),
        &hull_b,
        prediction,
    )
    .ok()
    .flatten()
    .map(|contact| contact.dist)
}

#[cfg(all(test, feature = "parry"))]
mod tests {
    use super::*;

    fn posed(points: &[DVec3], position: DVec3, rotation: DQuat) -> PosedHull<'_> {
        PosedHull {
            points,
            position,
            rotation,
        }
    }

    #[test]
    fn gjk_epa_signed_distance_of_two_boxes_apart_and_sunk() {
        // A 2 × 2 × 2 box's mesh (its corners, and for a cone mesh its
        // centre, which the hull leaves inside).
        let cube = crate::mesh::shapes::Shape::from(crate::mesh::shapes::Cuboid {
            size: DVec3::splat(2.0),
        })
        .build(1e-6)
        .expect("a box")
        .vertices;
        let at = |x: f64| posed(&cube, DVec3::new(x, 0.0, 0.0), DQuat::IDENTITY);
        // 2 × 2 × 2 boxes: faces 0.5 apart, touching, 0.25 deep.
        let apart = signed_distance(at(0.0), at(2.5)).unwrap();
        assert!((apart - 0.5).abs() < 1e-9, "{apart}");
        let touching = signed_distance(at(0.0), at(2.0)).unwrap();
        assert!(touching.abs() < 1e-9, "{touching}");
        let sunk = signed_distance(at(0.0), at(1.75)).unwrap();
        assert!((sunk + 0.25).abs() < 1e-9, "{sunk}");
        // A box turned 45° about z with its edge 0.1 from the other's face:
        // the edge reaches √2 from its centre.
        let turned = posed(
            &cube,
            DVec3::new(1.0 + 2f64.sqrt() + 0.1, 0.0, 0.0),
            DQuat::from_rotation_z(std::f64::consts::FRAC_PI_4),
        );
        let edge = signed_distance(at(0.0), turned).unwrap();
        assert!((edge - 0.1).abs() < 1e-9, "{edge}");
    }
}
