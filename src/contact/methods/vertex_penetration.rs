//! Vertex penetration (the ArtiSynth manual, §7.4.1, "Vertex
//! penetration", its default for deformable bodies;
//! `docs/design/other-methods.md`, "Vertex penetration"): every surface
//! vertex of A
//! inside B, or on B's surface within the touching tolerance, is a contact
//! at the vertex, its normal from the nearest point of B's whole surface,
//! its depth minus the distance to that point. With `two_way` (the manual's
//! two-way contact, figure 7.10, its setting when both bodies deform) B's
//! vertices in A count too.
//!
//! **Normal and depth.** The manual directs the normal "toward the nearest
//! point on the opposing mesh": the way A's vertex must go to leave B. Our
//! convention (`docs/design/conventions.md`) is the way B must go to
//! separate, the opposite: for A's vertex p inside B, nearest surface point q
//! on a face with outward normal m (q − p = d m), B must move along −m by d
//! for its surface to pass p, so n = −m (= (p − q)/d) and depth = −d. A
//! vertex just outside B within the tolerance gets the same normal and depth
//! +d, so depth is the signed distance and the normal never flips across the
//! surface. B's vertex in A is the same computation with the bodies' roles
//! swapped, its normal reversed so it still points from A to B.
//!
//! **Ties.** The nearest point is searched over B's whole surface
//! (`point_queries::nearest_on_surface`); B-rep faces within the touching
//! tolerance of the nearest distance tie. A single face gives its plane's
//! normal (its nearest point is inside the face, where −m is exactly the
//! direction to the vertex and needs no division by a possibly tiny d).
//! Several faces tie where the nearest point is on a B-rep edge or vertex
//! (a vertex near a box's rim, from inside or outside) or the vertex is
//! equally deep under two faces. Our rule (`docs/design/other-methods.md`,
//! "Vertex penetration"): the face whose normal
//! best opposes the relative velocity, then the normalised average of the
//! tied normals. Read literally, with the face's outward normal m and
//! `BodyPair::relative_velocity` v (B's velocity relative to A, for B's
//! vertices in A the other way round): the face with the smallest m · v,
//! i.e. the largest n · v for the contact normal n = −m (equal within
//! `parallel_sin` |v|). That is the face the vertex stays nearest to as the
//! motion goes on (its depth under face f changes at the rate −n_f · v), and
//! of the candidate normals the one along which the bodies approach least
//! or separate, the preference Bouma & Vaněček (figure 8) gives for indeterminate
//! normals. On the paper's Spikes case it picks the face the tip slides
//! along, as the paper's table 4 (†) expects; the other reading (smallest
//! n · v, the face the vertex came in through) picks the opposite face
//! there.
//! Among faces still tied (v = 0, or v along the edge) the normals are
//! averaged. Where that average vanishes (a vertex midway between two
//! opposite faces of a thin body) no direction is preferred and the
//! nearest hit's face, the lowest-numbered among equals, is used.
//!
//! **Which vertices.** The manual's mesh vertices: every surface vertex of
//! the triangle mesh, not only B-rep corners. This is why the method
//! depends on mesh resolution: a refined or TetGen face has vertices inside
//! it and on its edges, and each of them inside B is one more contact with
//! the same normal (a resting face gives one contact per vertex of the
//! contact patch instead of its corners), while a contact that no vertex
//! reaches (two edges crossing, a small face pressed into the middle of a
//! large one with `two_way` off) gives none. The manual uses it for FEM
//! bodies, whose vertices are the degrees of freedom; for rigid bodies it
//! notes the contacts over-constrain the solver.
//!
//! **Features and sources.** A contact's A-side entity is the open B-rep
//! entity its vertex lies in: a B-rep vertex (V), a point inside a B-rep
//! edge (E), or a vertex inside a B-rep face (F). B's side is the face
//! that gave the normal (F), or, for an averaged tie, the entity the nearest
//! point lies on (the B-rep edge or vertex the tied faces share). So a
//! contact is (V,F), (E,F), (F,F), (V,E), …; under `two_way` B's vertices
//! give the mirrored kinds ((F,V), …), and swapping the bodies swaps every
//! contact's kind and sources.
//!
//! **Regions.** Penetrating vertices of one body joined by one of its
//! surface edges are one region; a vertex of A and a vertex of B are joined
//! when one is a corner of the tetrahedron of its own body that holds the
//! other (or that owns the surface triangle nearest to it, for a vertex
//! just outside). Each region's outline is the convex hull of its contact
//! points in the plane of their mean normal (a point or a segment when
//! they are one or collinear).

use super::{
    Algorithm, BodyPair, BodyPairMethod, MethodInfo, MethodParams, PairContact, PairMemory,
    PairOutput, PairSide, RawContact, RegionOutline,
};
use crate::contact::features::features_from_dimensions;
use crate::contact::point_queries::{entity_of_mesh_vertex, probe, Probe};
use crate::contact::regions::Entity;
use crate::geometry::{closest_point_on_segment, convex_hull_2d, PlaneFrame};
use glam::DVec3;

pub struct VertexPenetration;

/// The registry entry (see [`super::REGISTRY`]).
pub static METHOD: MethodInfo = MethodInfo {
    id: "vertex-penetration",
    name: "Vertex penetration",
    source: help_text!("the ArtiSynth manual, section 7.4.1, vertex penetration"),
    summary: "Every mesh vertex of A inside B is a contact, its normal from the nearest point of B's surface; two-way adds B's vertices in A.",
    help: help_text!("ArtiSynth's default for deformable bodies (the ArtiSynth manual, section 7.4.1). Each surface vertex of body A that lies inside body B (or on its surface) becomes a contact at the vertex, with the normal of B's nearest surface face and the distance to it as depth; with the two-way setting, B's vertices inside A count as well. Where two faces of B are equally near (a vertex at a rim), the face whose normal best opposes the relative velocity wins (the face the vertex keeps sliding along), else their normals are averaged. It depends on the mesh: every vertex is a contact, so refined faces give many, and contacts that no vertex reaches (crossing edges, a corner of B in A's face with two-way off) are missed."),
    reads: &["two_way"],
    algorithm: Algorithm::BodyPair(&VertexPenetration),
    paper_code: None,
};

/// One penetrating vertex of body P in body Q, computed with P as "A".
struct VertexHit {
    /// Which body the vertex belongs to: false for A, true for B.
    of_b: bool,
    /// Its mesh vertex in its own body.
    vertex: u32,
    /// The tetrahedron of the other body that holds it (or owns its
    /// nearest surface triangle when it lies just outside).
    other_tet: u32,
    /// The contact, oriented from A to B.
    contact: PairContact,
}

impl BodyPairMethod for VertexPenetration {
    fn body_pair(
        &self,
        pair: &BodyPair,
        params: &MethodParams,
        _memory: &mut PairMemory,
        out: &mut PairOutput,
    ) {
        let mut hits = Vec::new();
        penetrating_vertices(
            &pair.a,
            &pair.b,
            |p| pair.relative_velocity(p),
            params,
            false,
            &mut hits,
        );
        if params.two_way {
            let swapped = pair.swapped();
            penetrating_vertices(
                &pair.b,
                &pair.a,
                |p| swapped.relative_velocity(p),
                params,
                true,
                &mut hits,
            );
        }
        let region_of = group_regions(pair, &hits);
        let region_count = region_of.iter().map(|&r| r + 1).max().unwrap_or(0);
        for (hit, &region) in hits.iter().zip(&region_of) {
            out.contacts.push(PairContact {
                region,
                ..hit.contact
            });
        }
        for region in 0..region_count {
            let members: Vec<&RawContact> = hits
                .iter()
                .zip(&region_of)
                .filter(|(_, &r)| r == region)
                .map(|(h, _)| &h.contact.raw)
                .collect();
            out.regions.push(outline(&members, params.touch_tol));
        }
    }
}

/// Appends a hit for every surface vertex of P inside Q or within the
/// touching tolerance of Q's surface. `velocity(p)` is Q's velocity
/// relative to P at p. Everything is computed with P as "A" (normal from P
/// to Q); `of_b` says P is the pair's B, and the contact is then mirrored.
fn penetrating_vertices(
    p_side: &PairSide,
    q_side: &PairSide,
    velocity: impl Fn(DVec3) -> DVec3,
    params: &MethodParams,
    of_b: bool,
    hits: &mut Vec<VertexHit>,
) {
    let tol = params.touch_tol;
    let p_mesh = p_side.world.mesh;
    let q_world = q_side.world;
    let q_bounds = q_world.mesh.tet_tree().bounds().inflated(tol);
    for (v, &point) in p_side.world.vertices.iter().enumerate() {
        if !p_mesh.is_surface_vertex(v) || !q_bounds.contains(q_world.to_body(point)) {
            continue;
        }
        // Ties within the touching tolerance, like touching itself.
        let Some(found) = probe(q_world, point, tol, tol) else {
            continue;
        };
        let (normal, q_entity) = normal_and_entity(&found, q_side, velocity(point), params);
        let Some(p_entity) = entity_of_mesh_vertex(p_mesh, p_side.brep, v as u32) else {
            continue;
        };
        let other_tet = found.tet.unwrap_or_else(|| {
            q_world.mesh.surface_faces[found.nearest.nearest().triangle as usize].tet
        });
        let (normal, a, b) = if of_b {
            (-normal, q_entity, p_entity)
        } else {
            (normal, p_entity, q_entity)
        };
        hits.push(VertexHit {
            of_b,
            vertex: v as u32,
            other_tet,
            contact: PairContact {
                raw: RawContact {
                    position: point,
                    normal,
                    depth: found.signed_distance(),
                    features: features_from_dimensions(a.dimension(), b.dimension()),
                },
                sources: [a.index(), b.index()],
                region: 0,
                kept_normal: false,
            },
        });
    }
}

/// The contact normal (from P to Q) of a probed vertex and Q's entity that
/// gave it, by the tie rule of the module doc. `v` is Q's velocity relative
/// to P at the vertex.
fn normal_and_entity(
    found: &Probe,
    q_side: &PairSide,
    v: DVec3,
    params: &MethodParams,
) -> (DVec3, Entity) {
    let faces = &q_side.brep.faces;
    let hits = &found.nearest.hits;
    let contact_normal = |face: u32| -q_side.to_world(faces[face as usize].normal);
    if hits.len() == 1 {
        return (contact_normal(hits[0].face), Entity::Face(hits[0].face));
    }
    // The face's outward normal m = −n against the relative velocity:
    // smallest m · v first (largest n · v).
    let scores: Vec<f64> = hits
        .iter()
        .map(|h| -contact_normal(h.face).dot(v))
        .collect();
    let best = scores.iter().copied().fold(f64::INFINITY, f64::min);
    let slack = params.parallel_sin * v.length();
    let chosen: Vec<usize> = (0..hits.len())
        .filter(|&i| scores[i] <= best + slack)
        .collect();
    if let [only] = chosen[..] {
        return (
            contact_normal(hits[only].face),
            Entity::Face(hits[only].face),
        );
    }
    let sum: DVec3 = chosen.iter().map(|&i| contact_normal(hits[i].face)).sum();
    // The sum of k unit normals is shorter than k·parallel_sin only when
    // they (nearly) cancel: no direction to prefer.
    if sum.length() <= params.parallel_sin * chosen.len() as f64 {
        let first = hits[chosen[0]].face;
        return (contact_normal(first), Entity::Face(first));
    }
    let tied: Vec<u32> = chosen.iter().map(|&i| hits[i].face).collect();
    (
        sum.normalize(),
        shared_entity(q_side, &tied, hits[chosen[0]].point),
    )
}

/// The B-rep entity of Q that the tied faces share nearest to `point`: an
/// edge between two faces, a vertex where three or more meet; the first
/// face when they share none (a vertex equally deep under two faces that
/// do not meet). Decided from the B-rep's incidences, not from which part
/// of a triangle round-off put the nearest point on.
fn shared_entity(q_side: &PairSide, faces: &[u32], point: DVec3) -> Entity {
    let brep = q_side.brep;
    let world = q_side.world;
    let mesh_point = |v: u32| world.vertices[v as usize];
    let nearest = |candidates: Vec<(f64, Entity)>| {
        candidates
            .into_iter()
            .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)))
            .map(|(_, e)| e)
    };
    let shared = if let [f, g] = faces[..] {
        let edges = brep.faces[f as usize]
            .edges
            .iter()
            .filter(|&&e| {
                let ef = brep.edges[e as usize].faces;
                (ef[0] == f && ef[1] == g) || (ef[0] == g && ef[1] == f)
            })
            .map(|&e| {
                let path = &brep.edges[e as usize].path;
                let distance = path
                    .windows(2)
                    .map(|w| {
                        let (q, _) =
                            closest_point_on_segment(point, mesh_point(w[0]), mesh_point(w[1]));
                        (q - point).length()
                    })
                    .fold(f64::INFINITY, f64::min);
                (distance, Entity::Edge(e))
            })
            .collect();
        nearest(edges)
    } else {
        let corners = brep.faces[faces[0] as usize]
            .vertices
            .iter()
            .filter(|&&v| {
                let at = &brep.vertices[v as usize].faces;
                faces.iter().all(|f| at.binary_search(f).is_ok())
            })
            .map(|&v| {
                let corner = mesh_point(brep.vertices[v as usize].mesh_vertex);
                ((corner - point).length(), Entity::Vertex(v))
            })
            .collect();
        nearest(corners)
    };
    shared.unwrap_or(Entity::Face(faces[0]))
}

/// The region of each hit (numbered by first appearance), by union–find
/// over the joins of the module doc.
fn group_regions(pair: &BodyPair, hits: &[VertexHit]) -> Vec<u32> {
    let mut parent: Vec<usize> = (0..hits.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let join = |parent: &mut Vec<usize>, i: usize, j: usize| {
        let (ri, rj) = (root(parent, i), root(parent, j));
        // The smaller index becomes the root, so numbering follows order.
        parent[ri.max(rj)] = ri.min(rj);
    };
    // Hit index of each (body, vertex), sorted for lookup.
    let mut index: Vec<((bool, u32), usize)> = hits
        .iter()
        .enumerate()
        .map(|(i, h)| ((h.of_b, h.vertex), i))
        .collect();
    index.sort_unstable();
    let find = |key: (bool, u32)| {
        index
            .binary_search_by(|probe| probe.0.cmp(&key))
            .ok()
            .map(|k| index[k].1)
    };
    for (i, hit) in hits.iter().enumerate() {
        let (own, other) = if hit.of_b {
            (&pair.b, &pair.a)
        } else {
            (&pair.a, &pair.b)
        };
        for &u in &own.world.mesh.surface_neighbours[hit.vertex as usize] {
            if let Some(j) = find((hit.of_b, u)) {
                join(&mut parent, i, j);
            }
        }
        for &corner in &other.world.mesh.tets[hit.other_tet as usize] {
            if let Some(j) = find((!hit.of_b, corner)) {
                join(&mut parent, i, j);
            }
        }
    }
    // Number the roots by first appearance.
    let mut number = vec![u32::MAX; hits.len()];
    let mut next = 0;
    (0..hits.len())
        .map(|i| {
            let r = root(&mut parent, i);
            if number[r] == u32::MAX {
                number[r] = next;
                next += 1;
            }
            number[r]
        })
        .collect()
}

/// A region's outline: the convex hull of its contact points in the plane
/// of their mean normal (through their centroid), a point or a segment
/// when degenerate.
fn outline(members: &[&RawContact], tol: f64) -> RegionOutline {
    let count = members.len().max(1) as f64;
    let centroid = members.iter().map(|c| c.position).sum::<DVec3>() / count;
    let mean = members.iter().map(|c| c.normal).sum::<DVec3>();
    // Opposite normals in one region cancel; any member's normal then
    // serves to draw it.
    let normal = mean
        .try_normalize()
        .unwrap_or_else(|| members.first().map_or(DVec3::Y, |c| c.normal));
    let plane = PlaneFrame::new(centroid, normal);
    let flat: Vec<_> = members.iter().map(|c| plane.to_2d(c.position)).collect();
    let hull = convex_hull_2d(&flat, tol);
    RegionOutline {
        dimension: hull.len().saturating_sub(1).min(2) as u8,
        points: hull.into_iter().map(|q| plane.to_3d(q)).collect(),
    }
}
