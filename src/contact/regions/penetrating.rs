//! Where two bodies' surfaces intersect: the intersection contours and the
//! vertices of each body inside the other, grouped into regions (design
//! `docs/design/other-methods.md`, "Shared machinery", steps 1–3; the ArtiSynth manual,
//! §7.4.2, its AJL_CONTOUR collider: "intersection points are connected,
//! using robust geometric predicates, to find the intersection contours",
//! which "are then used to identify the contact regions on each surface
//! mesh" and "the interpenetrating vertices").
//!
//! 1. **Candidate triangle pairs**: the surface triangles of each body whose
//!    boxes reach into the overlap of the two bodies' boxes, paired by a
//!    sort-and-sweep on their boxes ([`crate::contact::broad_phase`]).
//! 2. **Crossings**: every point where an edge of one surface passes
//!    through a triangle of the other. An edge `pq` crosses triangle `abc`
//!    when `p` and `q` lie strictly on opposite sides of its plane and the
//!    line `pq` passes on the same side of the three edge lines (the signs
//!    of orient3d(p, q, a, b), (p, q, b, c), (p, q, c, a) agree). Every
//!    sign is exact (Shewchuk's predicates) and every tie is broken by one
//!    symbolic translation of body B ([`crate::geometry::perturbed`]), so
//!    all tests describe one arrangement of the two surfaces, in which they
//!    are in general position: two triangles then meet in a segment whose
//!    two ends are crossings, or not at all.
//! 3. **Contours**: the crossing of edge `e` of one body with triangle `t`
//!    of the other ends the segments of `t` with each of the two triangles
//!    at `e`, so every crossing has two neighbours and the segments close
//!    into loops. The perturbation separates surfaces that only touch
//!    across the line of the bodies' centres (coplanar faces of a stack, a
//!    corner resting on a face): those give no contour; they are the
//!    touching part of the contact regions. A contour point names the open
//!    B-rep entities it lies on in each body, from the *unperturbed* exact
//!    signs: the edge's B-rep edge (or its end vertex's entity, when that
//!    end lies exactly in the other triangle's plane), and the triangle's
//!    face (or the edge or vertex of it the point lies on exactly). A point
//!    on a flat internal edge lies on the face.
//! 4. **Penetrating vertices**: a vertex of A strictly inside B (further
//!    than the touching tolerance from B's surface, by
//!    [`crate::contact::point_queries`]) and vice versa. They are found
//!    from the contours: the ends of the crossed edges, then, across
//!    surface edges that no contour crosses, their neighbours, until the
//!    patch of surface inside the other body is covered. A patch belongs to
//!    the region of the contours on its crossed edges; contours bounding
//!    one patch (an annulus) are one region. A body entirely inside the
//!    other, which no contour bounds, is one region of its vertices.
//!
//! A region's depth is minus the largest distance of its penetrating
//! vertices from the other body's surface (0 when it has none, as where two
//! edges cross and no vertex is inside).

use super::{ContactRegion, Contour, ContourPoint, Entity};
use crate::contact::body_pair::{BodyPair, PairSide};
use crate::contact::broad_phase::sweep;
use crate::contact::point_queries::{containing_tet, entity_of_mesh_vertex, nearest_on_surface};
use crate::geometry::perturbed::{exact_orient3d, Perturbation};
use crate::geometry::Aabb;
use crate::mesh::{Brep, TetMesh};
use glam::DVec3;
use std::collections::{BTreeMap, HashMap, HashSet};

/// The penetrating regions of `pair`: its intersection contours grouped
/// with the vertices of each body strictly inside the other (further than
/// `tol`, the touching tolerance, from its surface). See the module doc.
/// Regions are ordered by their first contour (those without contours, a
/// body entirely inside the other, last).
pub fn penetrating_regions(pair: &BodyPair, tol: f64) -> Vec<ContactRegion> {
    let intersection = intersection_contours(pair);
    let contour_count = intersection.contours.len();
    let mut crossed_a: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let mut crossed_b: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for (c, crossings) in intersection.crossings.iter().enumerate() {
        for crossing in crossings {
            let (map, edge) = match *crossing {
                Crossing::EdgeOfA { edge, .. } => (&mut crossed_a, edge),
                Crossing::EdgeOfB { edge, .. } => (&mut crossed_b, edge),
            };
            let list = map.entry(edge).or_default();
            if !list.contains(&(c as u32)) {
                list.push(c as u32);
            }
        }
    }
    let patches_a = inside_patches(&pair.a, &pair.b, &crossed_a, tol);
    let patches_b = inside_patches(&pair.b, &pair.a, &crossed_b, tol);

    // Contours bounding one patch are one region.
    let mut parent: Vec<usize> = (0..contour_count).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for patch in patches_a.iter().chain(&patches_b) {
        if let Some((&first, rest)) = patch.contours.split_first() {
            for &other in rest {
                let (r1, r2) = (
                    root(&mut parent, first as usize),
                    root(&mut parent, other as usize),
                );
                // The smaller root stays, so region order follows contours.
                parent[r1.max(r2)] = r1.min(r2);
            }
        }
    }
    let mut region_of_root: BTreeMap<usize, usize> = BTreeMap::new();
    let mut regions: Vec<ContactRegion> = Vec::new();
    let mut region_of_contour = vec![0; contour_count];
    for (c, region) in region_of_contour.iter_mut().enumerate() {
        let r = root(&mut parent, c);
        *region = *region_of_root.entry(r).or_insert_with(|| {
            regions.push(ContactRegion::default());
            regions.len() - 1
        });
    }
    for (c, contour) in intersection.contours.into_iter().enumerate() {
        regions[region_of_contour[c]].contours.push(contour);
    }
    for (patches, is_a) in [(patches_a, true), (patches_b, false)] {
        for patch in patches {
            let region = match patch.contours.first() {
                Some(&c) => region_of_contour[c as usize],
                None => {
                    regions.push(ContactRegion::default());
                    regions.len() - 1
                }
            };
            let target = &mut regions[region];
            let list = if is_a {
                &mut target.penetrating_a
            } else {
                &mut target.penetrating_b
            };
            for (v, distance) in patch.vertices {
                list.push(v);
                target.depth = target.depth.min(-distance);
            }
        }
    }
    for region in &mut regions {
        region.penetrating_a.sort_unstable();
        region.penetrating_b.sort_unstable();
    }
    regions
}

/// A connected patch of one body's surface vertices inside the other body.
struct InsidePatch {
    /// Its vertices strictly inside, with their distances from the other
    /// surface.
    vertices: Vec<(u32, f64)>,
    /// The contours crossing the edges that leave it, ascending.
    contours: Vec<u32>,
}

/// The vertices of `side` strictly inside `other`, in connected patches:
/// seeded at the ends of the edges the contours cross (`crossed`: surface
/// edge → contours), grown across edges no contour crosses. With no
/// crossed edge at all, `side` may still lie wholly inside `other`; one
/// vertex decides.
fn inside_patches(
    side: &PairSide,
    other: &PairSide,
    crossed: &BTreeMap<u32, Vec<u32>>,
    tol: f64,
) -> Vec<InsidePatch> {
    let mesh = side.world.mesh;
    // Distance from `other`'s surface of each vertex looked at, `None` when
    // it is not strictly inside.
    let mut depth_of: HashMap<u32, Option<f64>> = HashMap::new();
    let mut classify = |v: u32| -> Option<f64> {
        *depth_of.entry(v).or_insert_with(|| {
            let p = side.world.vertices[v as usize];
            containing_tet(other.world, p)?;
            let distance = nearest_on_surface(other.world, p, f64::INFINITY, 0.0)?.distance();
            (distance > tol).then_some(distance)
        })
    };
    let mut seeds: Vec<u32> = crossed
        .keys()
        .flat_map(|&e| mesh.surface_edges[e as usize].vertices)
        .collect();
    if crossed.is_empty() {
        let (mine, theirs) = (side.world.aabb(), other.world.aabb());
        let within = theirs.lo.cmple(mine.lo).all() && mine.hi.cmple(theirs.hi).all();
        if let Some(v) = (0..mesh.vertices.len()).find(|&v| mesh.is_surface_vertex(v)) {
            if within {
                seeds.push(v as u32);
            }
        }
    }
    let mut patches = Vec::new();
    let mut in_patch: HashSet<u32> = HashSet::new();
    for seed in seeds {
        if in_patch.contains(&seed) {
            continue;
        }
        let Some(distance) = classify(seed) else {
            continue;
        };
        let mut patch = InsidePatch {
            vertices: Vec::new(),
            contours: Vec::new(),
        };
        let mut stack = vec![(seed, distance)];
        in_patch.insert(seed);
        while let Some((v, distance)) = stack.pop() {
            patch.vertices.push((v, distance));
            for &u in &mesh.surface_neighbours[v as usize] {
                let Some(edge) = mesh.surface_edge_between(u, v) else {
                    continue;
                };
                if let Some(contours) = crossed.get(&edge) {
                    patch.contours.extend(contours);
                } else if !in_patch.contains(&u) {
                    if let Some(d) = classify(u) {
                        in_patch.insert(u);
                        stack.push((u, d));
                    }
                }
            }
        }
        patch.contours.sort_unstable();
        patch.contours.dedup();
        patches.push(patch);
    }
    patches
}

/// One crossing: a surface edge of one body through a surface triangle of
/// the other (indices into `TetMesh::surface_edges` and `surface_faces`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Crossing {
    /// An edge of A through a triangle of B.
    EdgeOfA { edge: u32, triangle: u32 },
    /// An edge of B through a triangle of A.
    EdgeOfB { edge: u32, triangle: u32 },
}

/// The intersection curves of two surfaces.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SurfaceIntersection {
    /// The contours, each point with its crossing in `crossings`.
    pub contours: Vec<Contour>,
    /// For each contour, the crossing of each of its points, in order.
    pub crossings: Vec<Vec<Crossing>>,
}

/// One node of the contour graph while it is built.
struct Node {
    crossing: Crossing,
    point: ContourPoint,
    /// The nodes it is joined to, by the segments of the two triangle
    /// pairs it ends.
    links: Vec<u32>,
}

/// The two surfaces of a pair as the crossing tests read them: A's points
/// fixed, B's moved by the symbolic translation.
struct Arrangement<'a> {
    pair: &'a BodyPair<'a>,
    perturbation: Perturbation,
}

/// What one side's edge crossing another side's triangle looks like.
struct EdgeThroughTriangle {
    position: DVec3,
    /// The entity of the edge's body the point lies on.
    on_edge_body: Entity,
    /// The entity of the triangle's body the point lies on.
    on_triangle_body: Entity,
}

impl Arrangement<'_> {
    /// Whether surface edge `edge` of `edge_side` passes through surface
    /// triangle `triangle` of the other side, and where. `edge_is_a` says
    /// which body the edge belongs to; `signs` are the perturbed orient3d
    /// signs of the edge's ends against the triangle's plane.
    fn crossing(
        &self,
        edge_is_a: bool,
        edge: u32,
        triangle: u32,
        ends: [(DVec3, f64); 2],
    ) -> Option<EdgeThroughTriangle> {
        let (edge_side, triangle_side) = if edge_is_a {
            (&self.pair.a, &self.pair.b)
        } else {
            (&self.pair.b, &self.pair.a)
        };
        let [p, q] = ends.map(|(x, _)| x);
        let tri = triangle_side.world.face(triangle as usize);
        // The edge's points are fixed and the triangle's moved, or the
        // other way round.
        let moved = [!edge_is_a, !edge_is_a, edge_is_a, edge_is_a];
        let mut exact = [0.0; 3];
        let mut signs = [0i8; 3];
        for k in 0..3 {
            let points = [p, q, tri[k], tri[(k + 1) % 3]];
            exact[k] = exact_orient3d(points);
            signs[k] = self.perturbation.resolve(exact[k], points, moved);
            if signs[k] == 0 || signs[k] != signs[0] {
                return None;
            }
        }
        let (edge_mesh, edge_brep) = (edge_side.world.mesh, edge_side.brep);
        let (tri_mesh, tri_brep) = (triangle_side.world.mesh, triangle_side.brep);
        let [u, v] = edge_mesh.surface_edges[edge as usize].vertices;
        let [(_, dp), (_, dq)] = ends;
        // Unperturbed: an end exactly in the triangle's plane is the point.
        let along_edge = edge_entity(edge_mesh, edge_brep, edge);
        let (position, on_edge_body) = if dp == 0.0 {
            (
                p,
                entity_of_mesh_vertex(edge_mesh, edge_brep, u).unwrap_or(along_edge),
            )
        } else if dq == 0.0 {
            (
                q,
                entity_of_mesh_vertex(edge_mesh, edge_brep, v).unwrap_or(along_edge),
            )
        } else {
            let t = dp / (dp - dq);
            (p + (q - p) * t, along_edge)
        };
        let corners = tri_mesh.surface_faces[triangle as usize].vertices;
        let in_face = Entity::Face(tri_brep.face_of_triangle[triangle as usize]);
        let zeros: Vec<usize> = (0..3).filter(|&k| exact[k] == 0.0).collect();
        let on_triangle_body = match *zeros.as_slice() {
            // On the line of edge k of the triangle, inside the triangle.
            [k] => {
                let (s, e) = (corners[k], corners[(k + 1) % 3]);
                tri_mesh
                    .surface_edge_between(s, e)
                    .map_or(in_face, |surface_edge| {
                        edge_entity(tri_mesh, tri_brep, surface_edge)
                    })
            }
            // On two edge lines: their common corner (edges k, k + 1 share
            // corner k + 1; edges 2, 0 share corner 0).
            [k, l] => {
                let corner = if l == k + 1 { k + 1 } else { 0 };
                entity_of_mesh_vertex(tri_mesh, tri_brep, corners[corner]).unwrap_or(in_face)
            }
            _ => in_face,
        };
        Some(EdgeThroughTriangle {
            position,
            on_edge_body,
            on_triangle_body,
        })
    }
}

/// The open B-rep entity a surface edge lies on: its B-rep edge, or the
/// face it is a flat (internal) edge of.
fn edge_entity(mesh: &TetMesh, brep: &Brep, edge: u32) -> Entity {
    match brep.edge_of_surface_edge[edge as usize] {
        Some(e) => Entity::Edge(e),
        None => {
            Entity::Face(brep.face_of_triangle[mesh.surface_edges[edge as usize].faces[0] as usize])
        }
    }
}

/// The surface triangles of `side` whose boxes reach into `region`, and
/// those boxes.
fn triangles_in(side: &PairSide, region: &Aabb) -> (Vec<u32>, Vec<Aabb>) {
    let mut ids = Vec::new();
    let mut boxes = Vec::new();
    for f in 0..side.world.mesh.surface_faces.len() {
        let b = Aabb::of(&side.world.face(f));
        if b.overlaps(region) {
            ids.push(f as u32);
            boxes.push(b);
        }
    }
    (ids, boxes)
}

/// The intersection contours of the two surfaces of `pair` (see the module
/// doc). Open contours arise only where the symbolic perturbation cannot
/// separate a coincidence (never for valid bodies).
pub fn intersection_contours(pair: &BodyPair) -> SurfaceIntersection {
    let region = pair.a.world.aabb().intersection(&pair.b.world.aabb());
    if !(region.lo.cmple(region.hi).all()) {
        return SurfaceIntersection::default();
    }
    let (ids_a, boxes_a) = triangles_in(&pair.a, &region);
    let (ids_b, boxes_b) = triangles_in(&pair.b, &region);
    // Local indices into ids_a, ids_b (both ascending, so this order is
    // that of the triangle indices).
    let mut candidates = Vec::new();
    sweep(
        &boxes_a,
        &boxes_b,
        |i, j| {
            candidates.push((i, j));
            true
        },
        &region,
    );
    candidates.sort_unstable();
    // How a point exactly in a triangle's plane lies once B is moved,
    // computed at most once per triangle (it does not depend on the point;
    // `Perturbation::plane_shift_sign`).
    let mut plane_shift_a: Vec<Option<i8>> = vec![None; ids_a.len()];
    let mut plane_shift_b: Vec<Option<i8>> = vec![None; ids_b.len()];

    let arrangement = Arrangement {
        pair,
        perturbation: Perturbation::new(pair.b.position - pair.a.position),
    };
    let mut graph = ContourGraph::default();
    for (i, j) in candidates {
        let (ta, tb) = (ids_a[i as usize], ids_b[j as usize]);
        let (pa, pb) = (
            pair.a.world.face(ta as usize),
            pair.b.world.face(tb as usize),
        );
        // Each body's corners against the other's plane: exact value and
        // perturbed sign.
        let sides_a = arrangement.corner_sides(pa, pb, &mut plane_shift_b[j as usize], true);
        if sides_a.iter().all(|s| s.1 == sides_a[0].1) {
            continue;
        }
        let sides_b = arrangement.corner_sides(pb, pa, &mut plane_shift_a[i as usize], false);
        if sides_b.iter().all(|s| s.1 == sides_b[0].1) {
            continue;
        }
        let ends = graph.add_crossings(
            &arrangement,
            SidedTriangle {
                triangle: ta,
                points: pa,
                sides: sides_a,
            },
            SidedTriangle {
                triangle: tb,
                points: pb,
                sides: sides_b,
            },
        );
        // In general position two triangles meet in one segment with two
        // crossing ends; anything else is an unresolved coincidence, whose
        // crossings stay unlinked here.
        if let [s, t] = ends[..] {
            graph.nodes[s as usize].links.push(t);
            graph.nodes[t as usize].links.push(s);
        }
    }
    join_contours(graph.nodes)
}

/// A surface triangle of one body with its corners (world) and each
/// corner's side of the other triangle's plane: exact orient3d value and
/// perturbed sign.
struct SidedTriangle {
    triangle: u32,
    points: [DVec3; 3],
    sides: [(f64, i8); 3],
}

impl Arrangement<'_> {
    /// orient3d(plane, x) exactly for each of `points`, and its sign with B
    /// moved: a point exactly in the plane takes the plane's shift sign
    /// (B's plane moves by δ; A's plane stays and B's point moves, the
    /// opposite), computed once into `shift`.
    fn corner_sides(
        &self,
        points: [DVec3; 3],
        plane: [DVec3; 3],
        shift: &mut Option<i8>,
        plane_moves: bool,
    ) -> [(f64, i8); 3] {
        points.map(|x| {
            let exact = exact_orient3d([plane[0], plane[1], plane[2], x]);
            let sign = if exact > 0.0 {
                1
            } else if exact < 0.0 {
                -1
            } else {
                let s = *shift.get_or_insert_with(|| self.perturbation.plane_shift_sign(plane));
                if plane_moves {
                    s
                } else {
                    -s
                }
            };
            (exact, sign)
        })
    }
}

/// The contour graph while it is built: one node per crossing, found once
/// whichever triangle pair meets it first.
#[derive(Default)]
struct ContourGraph {
    nodes: Vec<Node>,
    index: HashMap<Crossing, u32>,
}

impl ContourGraph {
    /// The node of `crossing`, added with `point` the first time.
    fn node_of(&mut self, crossing: Crossing, point: ContourPoint) -> u32 {
        let nodes = &mut self.nodes;
        *self.index.entry(crossing).or_insert_with(|| {
            nodes.push(Node {
                crossing,
                point,
                links: Vec::new(),
            });
            nodes.len() as u32 - 1
        })
    }

    /// The crossings of triangle `a` of A and `b` of B: each edge of one
    /// whose corners lie on both sides of the other's plane and that
    /// passes through the other triangle. Returns their nodes.
    fn add_crossings(
        &mut self,
        arrangement: &Arrangement,
        a: SidedTriangle,
        b: SidedTriangle,
    ) -> Vec<u32> {
        let (mesh_a, mesh_b) = (arrangement.pair.a.world.mesh, arrangement.pair.b.world.mesh);
        let corners_a = mesh_a.surface_faces[a.triangle as usize].vertices;
        let corners_b = mesh_b.surface_faces[b.triangle as usize].vertices;
        let mut ends: Vec<u32> = Vec::with_capacity(2);
        for (edge_is_a, corners, points, sides, triangle) in [
            (true, corners_a, a.points, a.sides, b.triangle),
            (false, corners_b, b.points, b.sides, a.triangle),
        ] {
            for k in 0..3 {
                let l = (k + 1) % 3;
                if sides[k].1 * sides[l].1 >= 0 {
                    continue;
                }
                let mesh = if edge_is_a { mesh_a } else { mesh_b };
                let Some(edge) = mesh.surface_edge_between(corners[k], corners[l]) else {
                    continue;
                };
                // Orient the edge as stored (smaller vertex first), so the
                // point computed is the same from both of its triangles.
                let ((p, dp), (q, dq)) = if corners[k] < corners[l] {
                    ((points[k], sides[k].0), (points[l], sides[l].0))
                } else {
                    ((points[l], sides[l].0), (points[k], sides[k].0))
                };
                if let Some(hit) =
                    arrangement.crossing(edge_is_a, edge, triangle, [(p, dp), (q, dq)])
                {
                    let (crossing, a, b) = if edge_is_a {
                        (
                            Crossing::EdgeOfA { edge, triangle },
                            hit.on_edge_body,
                            hit.on_triangle_body,
                        )
                    } else {
                        (
                            Crossing::EdgeOfB { edge, triangle },
                            hit.on_triangle_body,
                            hit.on_edge_body,
                        )
                    };
                    let point = ContourPoint {
                        position: hit.position,
                        a,
                        b,
                    };
                    ends.push(self.node_of(crossing, point));
                }
            }
        }
        ends
    }
}

/// Walks the contour graph into chains: open chains from their ends first,
/// then closed loops, each from its lowest-numbered node.
fn join_contours(nodes: Vec<Node>) -> SurfaceIntersection {
    let mut visited = vec![false; nodes.len()];
    let mut out = SurfaceIntersection::default();
    let walk = |start: usize, visited: &mut Vec<bool>, out: &mut SurfaceIntersection| {
        let mut order = vec![start];
        visited[start] = true;
        let mut here = start;
        while let Some(&next) = nodes[here].links.iter().find(|&&n| !visited[n as usize]) {
            here = next as usize;
            visited[here] = true;
            order.push(here);
        }
        let closed = order.len() > 2
            && nodes[start].links.len() == 2
            && nodes[here].links.contains(&(start as u32));
        out.contours.push(Contour {
            points: order.iter().map(|&n| nodes[n].point).collect(),
            closed,
        });
        out.crossings
            .push(order.iter().map(|&n| nodes[n].crossing).collect());
    };
    for start in 0..nodes.len() {
        if !visited[start] && nodes[start].links.len() != 2 {
            walk(start, &mut visited, &mut out);
        }
    }
    for start in 0..nodes.len() {
        if !visited[start] {
            walk(start, &mut visited, &mut out);
        }
    }
    out
}
