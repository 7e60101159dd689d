//! The loaded scene (`docs/design/scenes.md`): bodies as tetrahedral meshes in
//! their centre-of-mass frames with their poses, velocities and mass
//! properties, the scene's settings and its oracle. Parsing the file lives
//! apart, in [`super::parse`]; these types know nothing of JSON.

use super::oracle::Oracle;
use crate::mesh::{MassProperties, Mesher, TetMesh};
use glam::{DQuat, DVec3};
use std::fmt;

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

/// How far to erode every body (Erleben 2018 §6: one ε for all bodies, so
/// that two eroded bodies' closest points within 2ε mean touching).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Erosion {
    /// By this many metres (a value given explicitly; the paper's 0.01).
    Metres(f64),
    /// By this fraction of the diagonal of the scene's smallest free body
    /// (the `epsilon` setting's default): the smallest body moving decides,
    /// since ε must stay small beside every body that makes contacts, and a
    /// huge fixed ground must not decide it.
    OfSmallestFreeBody(f64),
}

/// Settings that change the geometry, so they are applied when loading.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadOptions {
    /// 1 → 8 refinements of every body (0, 1 or 2).
    pub refine: u8,
    /// Erode every body by ε (the Closest points method's envelope).
    pub erosion: Option<Erosion>,
    /// Horizontal displacement magnitude of every free body, metres.
    pub perturb: f64,
    pub seed: u64,
    /// The mesher of every body; `None` keeps each file's own choice (and
    /// their bodies'), which name TetGen unless they say otherwise.
    pub mesher: Option<Mesher>,
}

impl LoadOptions {
    /// The `mesher` setting's schema default: `None` (each file's choice)
    /// when it is "the scene's", else the mesher it names. Loading with
    /// default options and running with default settings then give the
    /// same bodies.
    pub fn default_mesher() -> Option<Mesher> {
        crate::settings::default_of("mesher")
    }
}

impl Default for LoadOptions {
    /// The schema's defaults.
    fn default() -> Self {
        use crate::settings::default_of;
        LoadOptions {
            refine: default_of("refine"),
            erosion: None,
            perturb: default_of("perturb"),
            seed: default_of("seed"),
            mesher: Self::default_mesher(),
        }
    }
}

/// The `settings` of a scene file; the fields are named, and serialised,
/// as the file's keys.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SceneSettings {
    pub dt: f64,
    pub steps: u64,
    pub measure_step: u64,
    pub friction: f64,
}

impl SceneSettings {
    /// The scene's own value of a run setting that defaults to it: the
    /// file's value under the setting's `scene_key` (`None` for a setting
    /// without one).
    pub fn own_value(&self, spec: &crate::settings::SettingSpec) -> Option<f64> {
        let key = spec.scene_key?;
        serde_json::to_value(self).ok()?.get(key)?.as_f64()
    }
}

#[derive(Clone, Debug)]
pub struct SceneBody {
    pub name: String,
    pub fixed: bool,
    pub density: f64,
    /// How the mesh was made; `None` for a `tetmesh` shape, used as given.
    pub mesher: Option<Mesher>,
    /// The mesh in the body frame: origin at the centre of mass.
    pub mesh: TetMesh,
    /// The mesh before erosion, in the same body frame, when the method
    /// eroded `mesh` (Closest points): the body as it is, which the
    /// geometric oracle judges on. `None` when `mesh` is not eroded.
    pub solid_mesh: Option<TetMesh>,
    /// Mass and inertia about the centre of mass, body frame.
    pub mass: MassProperties,
    /// World position of the centre of mass and orientation of the body frame.
    pub position: DVec3,
    pub rotation: DQuat,
    pub velocity: DVec3,
    pub angular_velocity: DVec3,
}

impl SceneBody {
    /// The body's un-eroded mesh (body frame).
    pub fn solid(&self) -> &TetMesh {
        self.solid_mesh.as_ref().unwrap_or(&self.mesh)
    }

    /// The un-eroded body's centre of mass in the body frame: the origin,
    /// unless the body was eroded, which moves the centre of mass of a body
    /// that is not symmetric (the body frame is the eroded body's). The
    /// judges take a body's centre from the body as the scene defines it.
    pub fn solid_centre(&self) -> DVec3 {
        match &self.solid_mesh {
            None => DVec3::ZERO,
            Some(solid) => crate::mesh::mass::MassProperties::of_mesh(solid, self.density).centre,
        }
    }

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
    /// Friction coefficients of particular body pairs (`friction_pairs` in
    /// the file); every other pair has `settings.friction`.
    pub friction_pairs: Vec<FrictionPair>,
    pub oracle: Oracle,
    /// What the person should know about how the scene was loaded (a body
    /// that could not get the mesher it asked for); the CLI prints these on
    /// standard error, the page shows them.
    pub notices: Vec<String>,
    /// The ε every body was eroded by, metres (`None`: not eroded).
    pub erosion: Option<f64>,
}

/// The friction coefficient of one pair of bodies (by index, either order).
#[derive(Clone, Debug, PartialEq)]
pub struct FrictionPair {
    pub bodies: [usize; 2],
    pub friction: f64,
}

impl Scene {
    /// The bounding-box diagonal of the smallest free body (of the smallest
    /// body, were every body fixed): the size the erosion ε follows.
    pub fn smallest_free_diagonal(&self) -> f64 {
        smallest_free_diagonal(self.bodies.iter().map(|b| (b.fixed, b.mesh.diagonal())))
    }

    /// The scene's friction coefficient between bodies `a` and `b`: the
    /// pair's own (`friction_pairs`) or the scene's `settings.friction`.
    pub fn friction_between(&self, a: usize, b: usize) -> f64 {
        self.friction_pairs
            .iter()
            .find(|p| p.bodies == [a, b] || p.bodies == [b, a])
            .map_or(self.settings.friction, |p| p.friction)
    }

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

/// The smallest diagonal among free bodies, or among all when none is free,
/// from (fixed, diagonal) pairs.
pub(crate) fn smallest_free_diagonal(bodies: impl Iterator<Item = (bool, f64)>) -> f64 {
    let (mut free, mut any) = (f64::INFINITY, f64::INFINITY);
    for (fixed, diagonal) in bodies {
        any = any.min(diagonal);
        if !fixed {
            free = free.min(diagonal);
        }
    }
    if free.is_finite() {
        free
    } else {
        any
    }
}
