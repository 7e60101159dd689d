//! Loading a `contactlab-scene/1` file (`docs/design/scenes.md`): parse,
//! validate every key, build each body's tetrahedral mesh (refined and eroded
//! when asked), compute its mass properties and re-express it in its own
//! centre-of-mass frame. A bad file gives one error naming the source, the
//! body and the key; it never panics and never half-loads.

mod oracle;

use super::limits;
use super::meshing::mesh_shape;
use super::oracle::Oracle;
use super::types::{
    smallest_free_diagonal, Erosion, FrictionPair, LoadOptions, Scene, SceneBody, SceneError,
    SceneSettings,
};
pub use crate::mesh::shapes::parse_shape_value;
use crate::mesh::shapes::reader::ObjectReader;
use crate::mesh::shapes::Shape;
use crate::mesh::{erode::erode, refine::refine, MassProperties, Mesher, TetMesh};
use crate::number_text::readable;
use crate::settings;
use glam::{DQuat, DVec3};
use oracle::parse_oracle;
use serde_json::Value;

pub const FORMAT_TAG: &str = "contactlab-scene/1";
pub const DEFAULT_DENSITY: f64 = 2000.0;
pub const DEFAULT_FRICTION: f64 = 0.5;
/// Largest angle between two face normals for their shared edge to be flat.
/// Authored shapes are flat to round-off; 1e-6 rad leaves a wide margin.
pub const FLAT_ANGLE: f64 = 1e-6;
pub const MAX_REFINE: u8 = 2;
/// The mesher of a scene file that names none (`docs/design/meshing.md`: the
/// paper's meshes). The `mesher` setting, when not "the scene's", overrides
/// every file's choice.
pub const DEFAULT_MESHER: Mesher = Mesher::TetGen;

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
    match options.erosion {
        Some(Erosion::Metres(e)) if !(e > 0.0 && e.is_finite()) => {
            return Err(fail(format!(
                "erosion ε must be a positive number of metres, got {e}"
            )));
        }
        Some(Erosion::OfSmallestFreeBody(k)) if !(k > 0.0 && k.is_finite()) => {
            return Err(fail(format!(
                "erosion ε must be a positive fraction of the smallest free body, got {k}"
            )));
        }
        _ => {}
    }
    if !(options.perturb >= 0.0 && options.perturb.is_finite()) {
        return Err(fail(format!(
            "perturb must be a non-negative number of metres, got {}",
            options.perturb
        )));
    }
    if text.len() as u64 > limits::MAX_SCENE_FILE_BYTES {
        return Err(fail(format!(
            "the file has {} MB, more than the {} MB a scene file may have",
            text.len() / 1_000_000,
            limits::MAX_SCENE_FILE_BYTES / 1_000_000
        )));
    }
    // Editors on Windows often save UTF-8 with a byte-order mark; JSON
    // parsers refuse it, people should not have to know.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
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
    let id = parse_format_and_id(&mut root)?;
    let title = root.optional_string("title")?.unwrap_or_else(|| id.clone());
    let group = root
        .optional_string("group")?
        .unwrap_or_else(|| "Your scenes".to_string());
    let description = root.optional_string("description")?.unwrap_or_default();
    let gravity = parse_gravity(&mut root)?;
    let settings = parse_settings(&mut root)?;
    let scene_mesher = optional_mesher(&mut root)?.unwrap_or(DEFAULT_MESHER);
    let (uneroded, fallbacks) = parse_bodies(&mut root, scene_mesher, options)?;
    let (bodies, erosion) = erode_bodies(uneroded, options)?;
    check_bodies(&bodies)?;
    let (up, horizontal) = up_and_horizontal(gravity);
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
        friction_pairs: Vec::new(),
        oracle: Oracle::None,
        notices: fallback_notices(&fallbacks),
        erosion,
    };
    // Both refer to bodies by name, so they are read once the bodies exist.
    if let Some(pairs) = root.optional("friction_pairs") {
        scene.friction_pairs = parse_friction_pairs(pairs, &scene)?;
    }
    if let Some(v) = root.optional("oracle") {
        scene.oracle = parse_oracle(v, &scene)?;
    }
    root.finish()?;
    Ok(scene)
}

/// `format` and `id`: the id names the scene in URLs and file names, so it
/// is kept to a safe alphabet.
fn parse_format_and_id(root: &mut ObjectReader<'_>) -> Result<String, String> {
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
    Ok(id)
}

/// `gravity`, Earth's downward by default, bounded so a step stays stable.
fn parse_gravity(root: &mut ObjectReader<'_>) -> Result<DVec3, String> {
    let gravity = root
        .optional_vec3("gravity")?
        .unwrap_or(DVec3::new(0.0, -9.81, 0.0));
    if gravity.length() > limits::MAX_GRAVITY {
        return Err(format!(
            "gravity: at most {} m/s² is supported, got {:e} m/s²",
            limits::MAX_GRAVITY,
            gravity.length()
        ));
    }
    Ok(gravity)
}

/// `settings`: each key it omits keeps the default run's value.
fn parse_settings(root: &mut ObjectReader<'_>) -> Result<SceneSettings, String> {
    let Some(mut s) = root.optional_object("settings")? else {
        return Ok(default_settings());
    };
    let defaults = default_settings();
    let settings = SceneSettings {
        dt: run_setting(&mut s, "dt")?.unwrap_or(defaults.dt),
        steps: s
            .optional_whole_number("steps", 1, 1_000_000)?
            .unwrap_or(defaults.steps),
        measure_step: s
            .optional_whole_number("measure_step", 1, 1_000_000)?
            .unwrap_or(defaults.measure_step),
        friction: run_setting(&mut s, "friction")?.unwrap_or(defaults.friction),
    };
    s.finish()?;
    Ok(settings)
}

/// Each body whose mesher fell back to another: its name and why.
type Fallbacks = Vec<(String, String)>;

/// `bodies`, meshed but not yet eroded, with the reason for each body whose
/// mesher fell back to another.
fn parse_bodies(
    root: &mut ObjectReader<'_>,
    scene_mesher: Mesher,
    options: &LoadOptions,
) -> Result<(Vec<UnerodedBody>, Fallbacks), String> {
    let body_values = root.array("bodies")?;
    if body_values.is_empty() {
        return Err("bodies: the scene has no bodies".to_string());
    }
    if body_values.len() > limits::MAX_BODIES {
        return Err(format!(
            "bodies: at most {} bodies are supported, the scene has {}",
            limits::MAX_BODIES,
            body_values.len()
        ));
    }
    let mut uneroded: Vec<UnerodedBody> = Vec::with_capacity(body_values.len());
    let mut fallbacks: Fallbacks = Vec::new();
    for (i, v) in body_values.iter().enumerate() {
        let (body, fallback) = parse_body(i, v, scene_mesher, options)?;
        if let Some(reason) = fallback {
            fallbacks.push((body.name.clone(), reason));
        }
        if uneroded.iter().any(|b| b.name == body.name) {
            return Err(format!(
                "bodies[{i}] \"{}\": name: another body already has this name",
                body.name
            ));
        }
        uneroded.push(body);
    }
    Ok((uneroded, fallbacks))
}

/// Erodes every body by the asked ε and finishes it; returns the ε in metres.
fn erode_bodies(
    uneroded: Vec<UnerodedBody>,
    options: &LoadOptions,
) -> Result<(Vec<SceneBody>, Option<f64>), String> {
    // One ε for every body; a relative one needs every body's size first.
    let erosion = options.erosion.map(|e| match e {
        Erosion::Metres(metres) => metres,
        Erosion::OfSmallestFreeBody(fraction) => {
            fraction * smallest_free_diagonal(uneroded.iter().map(|b| (b.fixed, b.mesh.diagonal())))
        }
    });
    let bodies = uneroded
        .into_iter()
        .map(|b| b.finish(erosion))
        .collect::<Result<Vec<SceneBody>, String>>()?;
    Ok((bodies, erosion))
}

/// Refuses scenes the finished bodies make unrunnable: too large, nothing
/// free to move, or bodies sunk deep into each other.
fn check_bodies(bodies: &[SceneBody]) -> Result<(), String> {
    let tetrahedra: usize = bodies.iter().map(|b| b.mesh.tets.len()).sum();
    if tetrahedra > limits::MAX_TETRAHEDRA {
        return Err(format!(
            "bodies: the scene has {tetrahedra} tetrahedra after refinement, more than the {} supported",
            limits::MAX_TETRAHEDRA
        ));
    }
    if bodies.iter().all(|b| b.fixed) {
        return Err("bodies: every body is fixed; at least one must be free to move".to_string());
    }
    super::deep_overlap::refuse_deep_overlap(bodies)
}

/// The scene's up (against gravity; +Y without gravity) and a horizontal
/// direction perpendicular to it, X's projection unless X is up.
fn up_and_horizontal(gravity: DVec3) -> (DVec3, DVec3) {
    let up = if gravity.length() > 0.0 {
        -gravity.normalize()
    } else {
        DVec3::Y
    };
    let horizontal = (DVec3::X - up * up.dot(DVec3::X))
        .try_normalize()
        .unwrap_or_else(|| (DVec3::Z - up * up.dot(DVec3::Z)).normalize());
    (up, horizontal)
}

/// `friction_pairs`: `[{"bodies": ["a", "b"], "friction": μ}, …]`, the
/// friction coefficient of particular body pairs (Cheng Yi & Drumwright's benchmarks need
/// no slip between two spheres and none at all against the box's walls).
fn parse_friction_pairs(value: &Value, scene: &Scene) -> Result<Vec<FrictionPair>, String> {
    let Some(list) = value.as_array() else {
        return Err(format!(
            "friction_pairs: must be a list of {{\"bodies\": [name, name], \"friction\": μ}}, got {value}"
        ));
    };
    let mut pairs: Vec<FrictionPair> = Vec::with_capacity(list.len());
    for (i, item) in list.iter().enumerate() {
        let mut r = ObjectReader::new(format!("friction_pairs[{i}]"), item)?;
        let bodies_path = r.key_path("bodies");
        let names: Vec<&str> = r
            .array("bodies")?
            .iter()
            .map(|v| {
                v.as_str()
                    .ok_or_else(|| format!("{bodies_path}: must be two body names, got {v}"))
            })
            .collect::<Result<_, _>>()?;
        let [first, second] = names.as_slice() else {
            return Err(format!(
                "{bodies_path}: must name exactly two bodies, got {}",
                names.len()
            ));
        };
        let index = |name: &str| {
            scene
                .body_index(name)
                .ok_or_else(|| format!("{bodies_path}: no body is named \"{name}\""))
        };
        let bodies = [index(first)?, index(second)?];
        if bodies[0] == bodies[1] {
            return Err(format!(
                "{bodies_path}: names \"{first}\" twice; a pair is two different bodies"
            ));
        }
        let friction = r.number("friction")?;
        if !(0.0..=limits::MAX_PAIR_FRICTION).contains(&friction) {
            return Err(format!(
                "{}: must be from 0 to {} (0: frictionless; 10 is as good as no slip), got {friction}",
                r.key_path("friction"),
                limits::MAX_PAIR_FRICTION
            ));
        }
        r.finish()?;
        let pair = FrictionPair { bodies, friction };
        if pairs
            .iter()
            .any(|p| p.bodies == bodies || p.bodies == [bodies[1], bodies[0]])
        {
            return Err(format!(
                "{bodies_path}: the pair \"{first}\", \"{second}\" already has a friction coefficient"
            ));
        }
        pairs.push(pair);
    }
    Ok(pairs)
}

/// A scene's own value of a run setting (`settings.dt`, `settings.friction`),
/// checked against that setting's range in the schema, so a file gets the
/// same message as a CLI flag or a link.
fn run_setting(s: &mut ObjectReader<'_>, key: &'static str) -> Result<Option<f64>, String> {
    let spec = settings::spec_by_scene_key(key)
        .unwrap_or_else(|| panic!("the settings schema has no setting with scene key \"{key}\""));
    match s.optional_number(key)? {
        None => Ok(None),
        Some(x) => spec
            .check_number(x)
            .map(Some)
            .map_err(|e| format!("{}: {e}", s.key_path(key))),
    }
}

/// A `mesher` key of the scene or of a body, if present.
fn optional_mesher(reader: &mut ObjectReader<'_>) -> Result<Option<Mesher>, String> {
    match reader.optional_string("mesher")? {
        None => Ok(None),
        Some(id) => Mesher::from_id(&id).map(Some).ok_or_else(|| {
            format!(
                "{}: must be one of {}, got \"{id}\"",
                reader.key_path("mesher"),
                Mesher::IDS.join(", ")
            )
        }),
    }
}

/// One notice per distinct fallback reason, naming its bodies (a wall of
/// 80 equal bricks gives one line, not 80).
fn fallback_notices(fallbacks: &[(String, String)]) -> Vec<String> {
    let mut reasons: Vec<&str> = fallbacks.iter().map(|(_, r)| r.as_str()).collect();
    reasons.sort_unstable();
    reasons.dedup();
    reasons
        .into_iter()
        .map(|reason| {
            let names: Vec<&str> = fallbacks
                .iter()
                .filter(|(_, r)| r == reason)
                .map(|(n, _)| n.as_str())
                .collect();
            let shown = names.len().min(3);
            let more = match names.len() - shown {
                0 => String::new(),
                n => format!(" and {n} more"),
            };
            format!("{}{more}: {reason}", names[..shown].join(", "))
        })
        .collect()
}

fn default_settings() -> SceneSettings {
    SceneSettings {
        dt: 0.01,
        steps: 500,
        measure_step: 3,
        friction: DEFAULT_FRICTION,
    }
}

/// A body as read, meshed and refined, in the file's model frame, before
/// erosion (whose ε may depend on every body's size) and mass properties.
struct UnerodedBody {
    name: String,
    fixed: bool,
    density: f64,
    mesher: Option<Mesher>,
    /// The mesh in the model frame.
    mesh: TetMesh,
    shape_path: String,
    model_position: DVec3,
    rotation: DQuat,
    velocity: DVec3,
    angular_velocity: DVec3,
}

fn parse_body(
    index: usize,
    value: &Value,
    scene_mesher: Mesher,
    options: &LoadOptions,
) -> Result<(UnerodedBody, Option<String>), String> {
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
    if !(limits::MIN_DENSITY..=limits::MAX_DENSITY).contains(&density) {
        return Err(format!(
            "{label}.density: must be from {} to {} kg/m³, got {density:e}",
            limits::MIN_DENSITY,
            limits::MAX_DENSITY
        ));
    }
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
    if velocity.length() > limits::MAX_SPEED {
        return Err(format!(
            "{label}.velocity: at most {} m/s is supported, got {:e} m/s",
            limits::MAX_SPEED,
            velocity.length()
        ));
    }
    if angular_velocity.length() > limits::MAX_SPIN {
        return Err(format!(
            "{label}.angular_velocity: at most {} rad/s is supported, got {:e} rad/s",
            limits::MAX_SPIN,
            angular_velocity.length()
        ));
    }
    let shape_reader = body.object("shape")?;
    let shape_path = shape_reader.path().to_string();
    let shape = Shape::read(shape_reader)?;
    // Before meshing: a length of 1e300 makes every volume infinite, and
    // the mesher's complaint would hide the real cause.
    let largest = shape.largest_length();
    if largest > limits::MAX_COORDINATE {
        return Err(format!(
            "{shape_path}: every length and coordinate must be within ±{} m, but the shape holds {}",
            limits::MAX_COORDINATE,
            readable(largest)
        ));
    }
    let body_mesher = optional_mesher(&mut body)?;
    body.finish()?;

    let requested = options.mesher.or(body_mesher).unwrap_or(scene_mesher);
    let meshed =
        mesh_shape(&shape, requested, FLAT_ANGLE).map_err(|e| format!("{shape_path}: {e}"))?;
    let mut mesh = meshed.mesh;
    within_limits(&label, &mesh, model_position, rotation, options.refine)?;
    for level in 0..options.refine {
        mesh = refine(&mesh, FLAT_ANGLE)
            .map_err(|e| format!("{shape_path}: refinement level {}: {e}", level + 1))?;
    }
    let body = UnerodedBody {
        name,
        fixed,
        density,
        mesher: meshed.mesher,
        mesh,
        shape_path,
        model_position,
        rotation,
        velocity,
        angular_velocity,
    };
    Ok((body, meshed.fallback))
}

impl UnerodedBody {
    /// The body eroded by `erosion` metres (if any), with its mass
    /// properties, in its body frame (origin at the centre of mass).
    fn finish(self, erosion: Option<f64>) -> Result<SceneBody, String> {
        let mut mesh = self.mesh;
        let mut solid_mesh = None;
        if let Some(epsilon) = erosion {
            solid_mesh = Some(mesh.clone());
            let shape_path = &self.shape_path;
            mesh = erode(&mesh, epsilon, FLAT_ANGLE).map_err(|e| format!("{shape_path}: eroding by ε = {epsilon} m leaves an invalid mesh ({e}); the body is too thin for this ε"))?;
        }
        let model_mass = MassProperties::of_mesh(&mesh, self.density);
        let centre = model_mass.centre;
        let mesh = mesh.map_vertices(|v| v - centre);
        // The un-eroded mesh in the same body frame (the eroded body's).
        let solid_mesh = solid_mesh.map(|m: TetMesh| m.map_vertices(|v| v - centre));
        let mass = MassProperties {
            centre: DVec3::ZERO,
            ..model_mass
        };
        Ok(SceneBody {
            name: self.name,
            fixed: self.fixed,
            density: self.density,
            mesher: self.mesher,
            mesh,
            solid_mesh,
            mass,
            position: self.model_position + self.rotation * centre,
            rotation: self.rotation,
            velocity: self.velocity,
            angular_velocity: self.angular_velocity,
        })
    }
}

/// The body's size, its place and its refined tetrahedron count against
/// [`limits`], checked before refinement allocates anything.
fn within_limits(
    label: &str,
    mesh: &TetMesh,
    position: DVec3,
    rotation: DQuat,
    refine: u8,
) -> Result<(), String> {
    let size = mesh.diagonal();
    if !(limits::MIN_BODY_SIZE..=limits::MAX_BODY_SIZE).contains(&size) {
        return Err(format!(
            "{label}: the body's size (its bounding-box diagonal) must be from {} m to {} m, got {size:e} m",
            limits::MIN_BODY_SIZE,
            limits::MAX_BODY_SIZE
        ));
    }
    let farthest = mesh
        .vertices
        .iter()
        .map(|&v| (position + rotation * v).abs().max_element())
        .fold(0.0, f64::max);
    if farthest.is_nan() || farthest > limits::MAX_COORDINATE {
        return Err(format!(
            "{label}: every coordinate must be within ±{} m, but the body reaches {farthest:e} m",
            limits::MAX_COORDINATE
        ));
    }
    let refined = mesh
        .tets
        .len()
        .saturating_mul(8usize.pow(u32::from(refine)));
    if refined > limits::MAX_TETRAHEDRA {
        return Err(format!(
            "{label}: refined {refine} times the body would have {refined} tetrahedra, more than the {} supported",
            limits::MAX_TETRAHEDRA
        ));
    }
    Ok(())
}
