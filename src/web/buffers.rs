//! The flat `Float32Array` buffers the page draws from: the bodies'
//! surfaces, edges and transforms, the last step's contacts and regions,
//! and the one statement of each buffer's layout; and the last step's
//! contacts in full for export.

use super::{to_js, Playground};
use crate::contact::FeatureKind;
use crate::measures::contact_records;
use crate::measures::oracle::Verdict;
use glam::DVec3;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Where each field of a contact sits in `contactBuffer()`'s floats: the
/// one statement of the layout, which the page reads through
/// `contactLayout()`.
#[derive(Serialize)]
struct ContactLayout {
    stride: usize,
    position: usize,
    normal: usize,
    q: usize,
    correct: usize,
    depth: usize,
    feature: usize,
    a: usize,
    b: usize,
    region: usize,
    kept_normal: usize,
    /// The geometric oracle's verdict: 1 right, 0.5 indeterminate-right,
    /// 0 wrong.
    geo: usize,
}

const CONTACT_LAYOUT: ContactLayout = ContactLayout {
    stride: 15,
    position: 0,
    normal: 3,
    q: 6,
    correct: 7,
    depth: 8,
    feature: 9,
    a: 10,
    b: 11,
    region: 12,
    kept_normal: 13,
    geo: 14,
};

/// Where each field of a region sits in `regionBuffer()`'s floats: the one
/// statement of that layout, which the page reads through `regionLayout()`.
/// A region is `header` floats followed by its `point_count` points, three
/// floats each, so records differ in length.
#[derive(Serialize)]
struct RegionLayout {
    header: usize,
    a: usize,
    b: usize,
    region: usize,
    dimension: usize,
    point_count: usize,
}

const REGION_LAYOUT: RegionLayout = RegionLayout {
    header: 5,
    a: 0,
    b: 1,
    region: 2,
    dimension: 3,
    point_count: 4,
};

fn push3(out: &mut Vec<f32>, v: DVec3) {
    out.extend_from_slice(&[v.x as f32, v.y as f32, v.z as f32]);
}

#[wasm_bindgen]
impl Playground {
    /// The layout of `contactBuffer()`: the stride and each field's offset.
    #[wasm_bindgen(js_name = contactLayout)]
    pub fn contact_layout() -> Result<JsValue, JsError> {
        to_js(&CONTACT_LAYOUT)
    }

    /// The layout of `regionBuffer()`: each region's header fields.
    #[wasm_bindgen(js_name = regionLayout)]
    pub fn region_layout() -> Result<JsValue, JsError> {
        to_js(&REGION_LAYOUT)
    }

    /// Body-frame corners of every surface triangle, 9 floats each.
    #[wasm_bindgen(js_name = surfaceTriangles)]
    pub fn surface_triangles(&self, body: usize) -> Result<Vec<f32>, JsError> {
        let mesh = &self.body(body)?.mesh;
        let mut out = Vec::with_capacity(mesh.surface_faces.len() * 9);
        for f in 0..mesh.surface_faces.len() {
            for p in mesh.face_corners(f) {
                push3(&mut out, p);
            }
        }
        Ok(out)
    }

    /// Outward unit normal of every surface triangle, 3 floats each.
    #[wasm_bindgen(js_name = surfaceNormals)]
    pub fn surface_normals(&self, body: usize) -> Result<Vec<f32>, JsError> {
        let mesh = &self.body(body)?.mesh;
        let mut out = Vec::with_capacity(mesh.surface_faces.len() * 3);
        for face in &mesh.surface_faces {
            push3(&mut out, face.normal);
        }
        Ok(out)
    }

    /// Body-frame end points of every surface edge, 6 floats each.
    #[wasm_bindgen(js_name = surfaceEdges)]
    pub fn surface_edges(&self, body: usize) -> Result<Vec<f32>, JsError> {
        let mesh = &self.body(body)?.mesh;
        let mut out = Vec::with_capacity(mesh.surface_edges.len() * 6);
        for edge in &mesh.surface_edges {
            for v in edge.vertices {
                push3(&mut out, mesh.vertices[v as usize]);
            }
        }
        Ok(out)
    }

    /// Body-frame end points of every tetrahedron edge, 6 floats each.
    #[wasm_bindgen(js_name = tetEdges)]
    pub fn tet_edges(&self, body: usize) -> Result<Vec<f32>, JsError> {
        let mesh = &self.body(body)?.mesh;
        let edges = mesh.tet_edges();
        let mut out = Vec::with_capacity(edges.len() * 6);
        for edge in edges {
            for v in edge {
                push3(&mut out, mesh.vertices[v as usize]);
            }
        }
        Ok(out)
    }

    /// World-from-body matrices at the current state, 16 floats per body,
    /// column-major.
    #[wasm_bindgen(js_name = bodyTransforms)]
    pub fn body_transforms(&self) -> Result<Vec<f32>, JsError> {
        let sim = self.sim()?;
        let mut out = Vec::with_capacity(sim.bodies().len() * 16);
        for body in sim.bodies() {
            let m = glam::DMat4::from_rotation_translation(body.rotation, body.position);
            out.extend(m.to_cols_array().iter().map(|&x| x as f32));
        }
        Ok(out)
    }

    /// The last step's contacts for drawing, `contactLayout()` floats each:
    /// position (3), normal A→B (3), q (NaN without an oracle), correct (1,
    /// 0, or NaN), depth, feature kind (index into `featureKinds()`), body a,
    /// body b, region (its index among its body pair's regions in
    /// `regionBuffer()`; NaN for a local method's contact), kept normal (1
    /// when a region method kept it from the previous step, else 0).
    #[wasm_bindgen(js_name = contactBuffer)]
    pub fn contact_buffer(&self) -> Result<Vec<f32>, JsError> {
        let sim = self.sim()?;
        let layout = &CONTACT_LAYOUT;
        let mut out = Vec::with_capacity(sim.contacts().len() * layout.stride);
        for (c, q) in sim.contacts().iter().zip(sim.contact_qualities()) {
            // Written in the layout's field order; the debug assertion below
            // keeps the two in step.
            let first = out.len();
            push3(&mut out, c.position);
            push3(&mut out, c.normal);
            out.push(q.q.map_or(f32::NAN, |x| x as f32));
            out.push(q.correct.map_or(f32::NAN, |x| if x { 1.0 } else { 0.0 }));
            out.push(c.depth as f32);
            out.push(
                FeatureKind::ALL
                    .iter()
                    .position(|k| *k == c.features)
                    .unwrap_or(0) as f32,
            );
            out.push(c.a as f32);
            out.push(c.b as f32);
            out.push(c.region.map_or(f32::NAN, |r| r as f32));
            out.push(if c.kept_normal { 1.0 } else { 0.0 });
            out.push(match q.geo {
                Verdict::Right => 1.0,
                Verdict::IndeterminateRight => 0.5,
                Verdict::Wrong(_) => 0.0,
            });
            debug_assert_eq!(out.len() - first, layout.stride);
            debug_assert_eq!(out[first + layout.b], c.b as f32);
            debug_assert_eq!(out[first + layout.kept_normal], f32::from(c.kept_normal));
        }
        Ok(out)
    }

    /// The last step's contact regions for drawing (region methods only;
    /// empty for the others), in the core's order, each as `regionLayout()`
    /// says: body a, body b, its index among its body pair's regions (what a
    /// contact's `region` names), dimension (0 point, 1 segment, 2 polygon),
    /// the number of points, then the points (world frame, 3 floats each; a
    /// polygon is closed, its last point joining the first).
    #[wasm_bindgen(js_name = regionBuffer)]
    pub fn region_buffer(&self) -> Result<Vec<f32>, JsError> {
        let regions = self.sim()?.regions();
        let layout = &REGION_LAYOUT;
        let floats: usize = regions
            .iter()
            .map(|r| layout.header + 3 * r.outline.points.len())
            .sum();
        let mut out = Vec::with_capacity(floats);
        // A contact's `region` indexes its body pair's regions in the core's
        // order (`ContactSet::regions`), so each pair counts from 0.
        let mut per_pair = std::collections::BTreeMap::new();
        for region in regions {
            let next = per_pair.entry((region.a, region.b)).or_insert(0u32);
            let index = *next;
            *next += 1;
            let first = out.len();
            out.push(region.a as f32);
            out.push(region.b as f32);
            out.push(index as f32);
            out.push(f32::from(region.outline.dimension));
            out.push(region.outline.points.len() as f32);
            debug_assert_eq!(out.len() - first, layout.header);
            debug_assert_eq!(
                out[first + layout.dimension],
                f32::from(region.outline.dimension)
            );
            for &p in &region.outline.points {
                push3(&mut out, p);
            }
        }
        Ok(out)
    }

    /// Labels of the feature kinds, in `contactBuffer`'s index order.
    #[wasm_bindgen(js_name = featureKinds)]
    pub fn feature_kinds() -> Vec<JsValue> {
        FeatureKind::ALL
            .iter()
            .map(|k| JsValue::from_str(k.label()))
            .collect()
    }

    /// The last step's contacts in full (for export and hover details), in
    /// full f64 precision, as `contactlab contacts --json` lists them.
    #[wasm_bindgen(js_name = contactList)]
    pub fn contact_list(&self) -> Result<JsValue, JsError> {
        let sim = self.sim()?;
        to_js(&contact_records(
            sim.scene(),
            sim.contacts(),
            sim.contact_qualities(),
        ))
    }
}
