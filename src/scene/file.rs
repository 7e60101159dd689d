//! Loading a `contactlab-scene/1` file (design `scenes.md`): parse, validate
//! every key, build each body's tetrahedral mesh (refined and eroded when
//! asked), compute its mass properties and re-express it in its own
//! centre-of-mass frame. A bad file gives one error naming the source, the
//! body and the key; it never panics and never half-loads.

use super::oracle::{parse_oracle, Oracle};
use super::reader::ObjectReader;
use crate::dynamics::MassProperties;
use crate::mesh::shapes::Shape;
use crate::mesh::{erode::erode, refine::refine, TetMesh};
use glam::{DQuat, DVec3};
use serde_json::Value;
use std::fmt;

pub const FORMAT_TAG: &str = "contactlab-scene/1";
pub const DEFAULT_DENSITY: f64 = 2000.0;
pub const DEFAULT_FRICTION: f64 = 0.5;
/// Largest angle between two face normals for their shared edge to be flat.
/// Authored shapes are flat to round-off; 1e-6 rad leaves a wide margin.
pub const FLAT_ANGLE: f64 = 1e-6;
pub const MAX_REFINE: u8 = 2;

#[derive(Clone, Debug, PartialEq)]
pub struct SceneError {
    /// The file name, or `builtin:<id>`.
    pub source: String,
    pub message: String,
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.source, self.message)
    }
}

impl std::error::Error for SceneError {}

/// Settings that change the geometry, so they are applied when loading.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadOptions {
    /// 1 → 8 refinements of every body (0, 1 or 2).
    pub refine: u8,
    /// Erode every body by ε (the Closest points method's envelope).
    pub erosion: Option<f64>,
    /// Horizontal displacement magnitude of every free body, metres.
    pub perturb: f64,
    pub seed: u64,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            refine: 0,
            erosion: None,
            perturb: 0.0,
            seed: 1,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct SceneSettings {
    pub dt: f64,
    pub steps: u64,
    pub measure_step: u64,
    pub friction: f64,
}

#[derive(Clone, Debug)]
pub struct SceneBody {
    pub name: String,
    pub fixed: bool,
    pub density: f64,
    /// The mesh in the body frame: origin at the centre of mass.
    pub mesh: TetMesh,
    /// Mass and inertia about the centre of mass, body frame.
    pub mass: MassProperties,
    /// World position of the centre of mass and orientation of the body frame.
    pub position: DVec3,
    pub rotation: DQuat,
    pub velocity: DVec3,
    pub angular_velocity: DVec3,
}

impl SceneBody {
    pub fn world_point(&self, body_point: DVec3) -> DVec3 {
        self.position + self.rotation * body_point
    }

    pub fn world_vertices(&self) -> Vec<DVec3> {
        self.mesh
            .vertices
            .iter()
            .map(|&v| self.world_point(v))
            .collect()
    }
}

#[derive(Clone, Debug)]
pub struct Scene {
    /// Where the scene came from: a file name or `builtin:<id>`.
    pub source: String,
    pub id: String,
    pub title: String,
    pub group: String,
    pub description: String,
    pub gravity: DVec3,
    /// The scene's up direction: against gravity, or the file's +y when the
    /// scene has no gravity. Transforms of the scene carry it along.
    pub up: DVec3,
    /// A unit vector orthogonal to `up` (the file's +x when y is up), the
    /// first axis of the perturbation plane.
    pub horizontal: DVec3,
    pub settings: SceneSettings,
    pub bodies: Vec<SceneBody>,
    pub oracle: Oracle,
}

impl Scene {
    pub fn body_index(&self, name: &str) -> Option<usize> {
        self.bodies.iter().position(|b| b.name == name)
    }

    /// Corners of the world-space bounding box of all bodies.
    pub fn bounds(&self) -> (DVec3, DVec3) {
        let all: Vec<DVec3> = self
            .bodies
            .iter()
            .flat_map(|b| b.world_vertices())
            .collect();
        crate::mesh::tetmesh::bounds(&all)
    }

    /// The region worth looking at: the free bodies, plus every fixed body
    /// that is not much larger than them, and of the larger fixed bodies (a
    /// 10 m ground under a 5 m wall) only the part near the free bodies.
    pub fn focus_bounds(&self) -> (DVec3, DVec3) {
        let body_bounds = |b: &SceneBody| crate::mesh::tetmesh::bounds(&b.world_vertices());
        let free: Vec<(DVec3, DVec3)> = self
            .bodies
            .iter()
            .filter(|b| !b.fixed)
            .map(body_bounds)
            .collect();
        let Some(&first) = free.first() else {
            return self.bounds();
        };
        let (lo, hi) = free
            .iter()
            .fold(first, |(lo, hi), (l, h)| (lo.min(*l), hi.max(*h)));
        let size = (hi - lo).length();
        let (near_lo, near_hi) = (lo - (hi - lo) * 0.25, hi + (hi - lo) * 0.25);
        let (mut focus_lo, mut focus_hi) = (lo, hi);
        for (l, h) in self.bodies.iter().filter(|b| b.fixed).map(body_bounds) {
            let (l, h) = if (h - l).length() <= 2.0 * size {
                (l, h)
            } else {
                (l.max(near_lo), h.min(near_hi))
            };
            if l.cmple(h).all() {
                focus_lo = focus_lo.min(l);
                focus_hi = focus_hi.max(h);
            }
        }
        (focus_lo, focus_hi)
    }

    /// How far a free body may move from its start before a scene meant to
    /// rest (the Pillar, the Wall, the Arch) counts as collapsed: 0.2 % of
    /// the scene's size (1.1 cm for the Pillar).
    pub fn standing_tolerance(&self) -> f64 {
        0.002 * self.size()
    }

    /// The diagonal of the scene's bounding box: the length that tolerances
    /// scale with, so that a scaled scene behaves the same.
    pub fn size(&self) -> f64 {
        let (lo, hi) = self.bounds();
        (hi - lo).length()
    }
}

/// Parses, validates and builds a scene from its JSON text. `source` names
/// the file in error messages.
pub fn load_scene(source: &str, text: &str, options: &LoadOptions) -> Result<Scene, SceneError> {
    let fail = |message: String| SceneError {
        source: source.to_string(),
        message,
    };
    if options.refine > MAX_REFINE {
        return Err(fail(format!(
            "refine must be 0, 1 or 2, got {}",
            options.refine
        )));
    }
    if let Some(e) = options.erosion {
        if !(e > 0.0 && e.is_finite()) {
            return Err(fail(format!(
                "erosion ε must be a positive number of metres, got {e}"
            )));
        }
    }
    if !(options.perturb >= 0.0 && options.perturb.is_finite()) {
        return Err(fail(format!(
            "perturb must be a non-negative number of metres, got {}",
            options.perturb
        )));
    }
    let value: Value =
        serde_json::from_str(text).map_err(|e| fail(format!("not valid JSON: {e}")))?;
    let mut scene = parse_scene(source, &value, options).map_err(fail)?;
    if options.perturb > 0.0 {
        super::perturb::perturb(&mut scene, options.perturb, options.seed);
    }
    Ok(scene)
}

fn parse_scene(source: &str, value: &Value, options: &LoadOptions) -> Result<Scene, String> {
    let mut root = ObjectReader::new("", value)?;
    let format = root.string("format")?;
    if format != FORMAT_TAG {
        return Err(format!(
            "format: expected \"{FORMAT_TAG}\", found \"{format}\""
        ));
    }
    let id = root.string("id")?;
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(format!(
            "id: must be a non-empty name of letters, digits, '-' and '_', got \"{id}\""
        ));
    }
    let title = root.optional_string("title")?.unwrap_or_else(|| id.clone());
    let group = root
        .optional_string("group")?
        .unwrap_or_else(|| "Your scenes".to_string());
    let description = root.optional_string("description")?.unwrap_or_default();
    let gravity = root
        .optional_vec3("gravity")?
        .unwrap_or(DVec3::new(0.0, -9.81, 0.0));
    let settings = match root.optional_object("settings")? {
        None => default_settings(),
        Some(mut s) => {
            let defaults = default_settings();
            let settings = SceneSettings {
                dt: s.optional_positive("dt")?.unwrap_or(defaults.dt),
                steps: s
                    .optional_whole_number("steps", 1, 1_000_000)?
                    .unwrap_or(defaults.steps),
                measure_step: s
                    .optional_whole_number("measure_step", 1, 1_000_000)?
                    .unwrap_or(defaults.measure_step),
                friction: match s.optional_number("friction")? {
                    Some(mu) if mu < 0.0 => {
                        return Err(format!(
                            "settings.friction: must be zero or positive, got {mu}"
                        ))
                    }
                    Some(mu) => mu,
                    None => defaults.friction,
                },
            };
            s.finish()?;
            settings
        }
    };
    let body_values = root.array("bodies")?;
    if body_values.is_empty() {
        return Err("bodies: the scene has no bodies".to_string());
    }
    let mut bodies: Vec<SceneBody> = Vec::with_capacity(body_values.len());
    for (i, v) in body_values.iter().enumerate() {
        let body = parse_body(i, v, options)?;
        if bodies.iter().any(|b| b.name == body.name) {
            return Err(format!(
                "bodies[{i}] \"{}\": name: another body already has this name",
                body.name
            ));
        }
        bodies.push(body);
    }
    if bodies.iter().all(|b| b.fixed) {
        return Err("bodies: every body is fixed; at least one must be free to move".to_string());
    }
    let up = if gravity.length() > 0.0 {
        -gravity.normalize()
    } else {
        DVec3::Y
    };
    let horizontal = (DVec3::X - up * up.dot(DVec3::X))
        .try_normalize()
        .unwrap_or_else(|| (DVec3::Z - up * up.dot(DVec3::Z)).normalize());
    let mut scene = Scene {
        source: source.to_string(),
        id,
        title,
        group,
        description,
        gravity,
        up,
        horizontal,
        settings,
        bodies,
        oracle: Oracle::None,
    };
    if let Some(v) = root.optional("oracle") {
        scene.oracle = parse_oracle(v, &scene)?;
    }
    root.finish()?;
    Ok(scene)
}

fn default_settings() -> SceneSettings {
    SceneSettings {
        dt: 0.01,
        steps: 500,
        measure_step: 3,
        friction: DEFAULT_FRICTION,
    }
}

fn parse_body(index: usize, value: &Value, options: &LoadOptions) -> Result<SceneBody, String> {
    let mut body = ObjectReader::new(format!("bodies[{index}]"), value)?;
    let name = body.string("name")?;
    if name.is_empty() {
        return Err(format!("bodies[{index}].name: must not be empty"));
    }
    // From here on the path names the body too.
    let label = format!("bodies[{index}] \"{name}\"");
    let mut body = ObjectReader::new(label.clone(), value)?;
    body.string("name")?;
    let fixed = body.bool_or("fixed", false)?;
    let density = body
        .optional_positive("density")?
        .unwrap_or(DEFAULT_DENSITY);
    let model_position = body.optional_vec3("position")?.unwrap_or(DVec3::ZERO);
    let rotation = match body.optional_object("rotation")? {
        None => DQuat::IDENTITY,
        Some(mut r) => {
            let axis = r.direction("axis")?;
            let degrees = r.number("degrees")?;
            r.finish()?;
            DQuat::from_axis_angle(axis, degrees.to_radians())
        }
    };
    let velocity = body.optional_vec3("velocity")?.unwrap_or(DVec3::ZERO);
    let angular_velocity = body
        .optional_vec3("angular_velocity")?
        .unwrap_or(DVec3::ZERO);
    let shape_reader = body.object("shape")?;
    let shape_path = shape_reader.path().to_string();
    let shape = parse_shape(shape_reader)?;
    body.finish()?;

    let mut mesh = shape
        .build(FLAT_ANGLE)
        .map_err(|e| format!("{shape_path}: {e}"))?;
    for level in 0..options.refine {
        mesh = refine(&mesh, FLAT_ANGLE)
            .map_err(|e| format!("{shape_path}: refinement level {}: {e}", level + 1))?;
    }
    if let Some(epsilon) = options.erosion {
        mesh = erode(&mesh, epsilon, FLAT_ANGLE).map_err(|e| format!("{shape_path}: eroding by ε = {epsilon} m leaves an invalid mesh ({e}); the body is too thin for this ε"))?;
    }
    let model_mass = MassProperties::of_mesh(&mesh, density);
    let centre = model_mass.centre;
    let mesh = mesh.map_vertices(|v| v - centre);
    let mass = MassProperties {
        centre: DVec3::ZERO,
        ..model_mass
    };
    Ok(SceneBody {
        name,
        fixed,
        density,
        mesh,
        mass,
        position: model_position + rotation * centre,
        rotation,
        velocity,
        angular_velocity,
    })
}

fn parse_shape(mut s: ObjectReader<'_>) -> Result<Shape, String> {
    let kind = s.string("type")?;
    let shape = match kind.as_str() {
        "box" => {
            let size = s.vec3("size")?;
            if size.min_element() <= 0.0 {
                return Err(format!(
                    "{}: every extent must be positive, got [{}, {}, {}]",
                    s.key_path("size"),
                    size.x,
                    size.y,
                    size.z
                ));
            }
            Shape::Box { size }
        }
        "frustum" => Shape::Frustum {
            sides: s.whole_number("sides", 3, 256)? as u32,
            bottom_radius: s.positive("bottom_radius")?,
            top_radius: s.positive("top_radius")?,
            height: s.positive("height")?,
        },
        "pyramid" => Shape::Pyramid {
            half_width: s.positive("half_width")?,
            height: s.positive("height")?,
        },
        "wedge" => Shape::Wedge {
            half_width: s.positive("half_width")?,
            height: s.positive("height")?,
            half_length: s.positive("half_length")?,
        },
        "prism" => {
            let profile = s.vec2_list("profile")?;
            if profile.len() < 3 {
                return Err(format!(
                    "{}: needs at least 3 points, got {}",
                    s.key_path("profile"),
                    profile.len()
                ));
            }
            Shape::Prism {
                profile,
                depth: s.positive("depth")?,
                kernel: s.optional_vec3("kernel")?,
            }
        }
        "mesh" => {
            let vertices = s.vec3_list("vertices")?;
            let triangles = s.index_list::<3>("triangles")?;
            if triangles.len() < 4 {
                return Err(format!(
                    "{}: a closed surface needs at least 4 triangles, got {}",
                    s.key_path("triangles"),
                    triangles.len()
                ));
            }
            Shape::Mesh {
                vertices,
                triangles,
                kernel: s.optional_vec3("kernel")?,
            }
        }
        "tetmesh" => {
            let vertices = s.vec3_list("vertices")?;
            let tets = s.index_list::<4>("tets")?;
            Shape::TetMesh { vertices, tets }
        }
        other => {
            return Err(format!("{}: unknown shape type \"{other}\" (expected one of: box, frustum, pyramid, wedge, prism, mesh, tetmesh)", s.key_path("type")));
        }
    };
    s.finish()?;
    Ok(shape)
}
