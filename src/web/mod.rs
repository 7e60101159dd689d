//! The wasm-bindgen facade used by the page's worker (design
//! `playground.md`, "The boundary between Rust and JavaScript"). It only
//! translates: every number is computed by the core, and JavaScript gets
//! plain objects (serde-wasm-bindgen) and flat `Float32Array` buffers.

use crate::scene::builtin::{builtin_text, BUILTIN_SCENES};
use crate::scene::{load_scene, LoadOptions, Scene};
use glam::DVec3;
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[derive(Serialize)]
struct SceneEntry {
    id: String,
    title: String,
    group: String,
    description: String,
    bodies: usize,
    min_contacts: Option<u64>,
}

#[derive(Serialize)]
struct BodyInfo {
    name: String,
    fixed: bool,
}

#[derive(Serialize)]
struct SceneInfo {
    id: String,
    title: String,
    group: String,
    description: String,
    bounds_min: [f64; 3],
    bounds_max: [f64; 3],
    /// The part of the scene the camera frames first.
    focus_min: [f64; 3],
    focus_max: [f64; 3],
    up: [f64; 3],
    bodies: Vec<BodyInfo>,
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    serde_wasm_bindgen::to_value(value).map_err(|e| JsError::new(&e.to_string()))
}

fn push3(out: &mut Vec<f32>, v: DVec3) {
    out.extend_from_slice(&[v.x as f32, v.y as f32, v.z as f32]);
}

/// One playground session: the loaded scene and what the page draws of it.
#[wasm_bindgen]
pub struct Playground {
    scene: Option<Scene>,
}

#[wasm_bindgen]
impl Playground {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Playground {
        console_error_panic_hook::set_once();
        Playground { scene: None }
    }

    /// The built-in scenes, in picker order.
    pub fn scenes() -> Result<JsValue, JsError> {
        let mut entries = Vec::with_capacity(BUILTIN_SCENES.len());
        for (id, text) in BUILTIN_SCENES {
            let scene = load_scene(&format!("builtin:{id}"), text, &LoadOptions::default())
                .map_err(|e| JsError::new(&e.to_string()))?;
            entries.push(SceneEntry {
                id: scene.id,
                title: scene.title,
                group: scene.group,
                description: scene.description,
                bodies: scene.bodies.len(),
                min_contacts: scene.oracle.min_contacts(),
            });
        }
        to_js(&entries)
    }

    /// Loads a built-in scene by id.
    #[wasm_bindgen(js_name = loadScene)]
    pub fn load_scene(&mut self, id: &str) -> Result<(), JsError> {
        let text = builtin_text(id)
            .ok_or_else(|| JsError::new(&format!("no built-in scene is called \"{id}\"")))?;
        self.load(&format!("builtin:{id}"), text)
    }

    /// Loads a user's scene file (its JSON text).
    #[wasm_bindgen(js_name = loadSceneText)]
    pub fn load_scene_text(&mut self, text: &str) -> Result<(), JsError> {
        self.load("your scene file", text)
    }

    fn load(&mut self, source: &str, text: &str) -> Result<(), JsError> {
        // The previous scene stays when the new one fails to load.
        let scene = load_scene(source, text, &LoadOptions::default())
            .map_err(|e| JsError::new(&e.to_string()))?;
        self.scene = Some(scene);
        Ok(())
    }

    fn scene(&self) -> Result<&Scene, JsError> {
        self.scene
            .as_ref()
            .ok_or_else(|| JsError::new("no scene is loaded"))
    }

    fn body(&self, body: usize) -> Result<&crate::scene::SceneBody, JsError> {
        let scene = self.scene()?;
        scene.bodies.get(body).ok_or_else(|| {
            JsError::new(&format!(
                "body {body} does not exist (the scene has {})",
                scene.bodies.len()
            ))
        })
    }

    #[wasm_bindgen(js_name = sceneInfo)]
    pub fn scene_info(&self) -> Result<JsValue, JsError> {
        let scene = self.scene()?;
        let (lo, hi) = scene.bounds();
        let (focus_lo, focus_hi) = scene.focus_bounds();
        to_js(&SceneInfo {
            id: scene.id.clone(),
            title: scene.title.clone(),
            group: scene.group.clone(),
            description: scene.description.clone(),
            bounds_min: lo.to_array(),
            bounds_max: hi.to_array(),
            focus_min: focus_lo.to_array(),
            focus_max: focus_hi.to_array(),
            up: scene.up.to_array(),
            bodies: scene
                .bodies
                .iter()
                .map(|b| BodyInfo {
                    name: b.name.clone(),
                    fixed: b.fixed,
                })
                .collect(),
        })
    }

    #[wasm_bindgen(js_name = bodyCount)]
    pub fn body_count(&self) -> usize {
        self.scene.as_ref().map_or(0, |s| s.bodies.len())
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

    /// World-from-body matrices, 16 floats per body, column-major.
    #[wasm_bindgen(js_name = bodyTransforms)]
    pub fn body_transforms(&self) -> Result<Vec<f32>, JsError> {
        let scene = self.scene()?;
        let mut out = Vec::with_capacity(scene.bodies.len() * 16);
        for body in &scene.bodies {
            let m = glam::DMat4::from_rotation_translation(body.rotation, body.position);
            out.extend(m.to_cols_array().iter().map(|&x| x as f32));
        }
        Ok(out)
    }
}

impl Default for Playground {
    fn default() -> Self {
        Playground::new()
    }
}
