//! The judging harness of `tests/oracle_agreement.rs` and of the examples
//! `oracle_agreement_matrix` and `semi_local_geometric`: each contact of a
//! method's step judged by the scene's paper oracle (Erleben 2018, §5.1 and
//! table 4) and by the geometric oracle (`docs/design/oracle.md`), and each
//! disagreement sorted into the kinds the test's module doc describes.
//! Included by `#[path]` into each of them (a test file and an example are
//! crates of their own), so not every includer uses every item.
#![allow(dead_code)]

use contactlab::contact::methods_and_variants;
use contactlab::dynamics::stepper::half_step;
use contactlab::geometry::Pose;
use contactlab::measures::oracle::{BodyFeatures, PairOracle, Tolerances, Verdict, Why};
use contactlab::measures::overlap::OverlapMeter;
use contactlab::scene::builtin::{builtin_text, load_builtin, BUILTIN_SCENES};
use contactlab::scene::LoadOptions;
use contactlab::sim::{SimSettings, Simulation};
use glam::DVec3;
use std::collections::BTreeMap;

/// The paper's three cases whose shapes single out no normal.
pub const TWO_POINTS: [&str; 3] = ["spikes", "spike-wedge", "wedges"];

/// A disagreement's kind: the three the design note names, then the two
/// found by measuring (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// Named: a two-points case's normal inside the indeterminate cone,
    /// off the one the paper picked.
    Cone,
    /// Named: an Arch pier–voussoir joint, 6° between its normal and the
    /// centre line.
    Arch,
    /// Named: accepted by a normal-only oracle, farther than ε from every
    /// touching pair.
    Far,
    /// Found: the normal points from B into A, the reverse of a right one;
    /// the paper's `up`, `wall` and `arch` oracles compare |n · r|.
    Reversed,
    /// Found: the normal of a touching pair within ε of the point that the
    /// nearest-features rule set aside (the far wall of a crack or hole
    /// the spike has slid 4 mm into the near one). None since a nearer
    /// pair supersedes only the pieces its features contain.
    Screened,
    /// Found: geometric right only by touching pairs within ε of the point
    /// whose features lie farther apart than the two bodies overlap (the
    /// judges' `overlap` measure at the same poses): Spikes' side faces
    /// 7.6 mm behind each other beside the apex sunk 1.9 mm. The paper's
    /// oracle calls them wrong; whether such a pair touches is the open
    /// overlap question of `docs/design/oracle.md`.
    Crossed,
    Unclassified,
}

pub const KINDS: [Kind; 7] = [
    Kind::Cone,
    Kind::Arch,
    Kind::Far,
    Kind::Reversed,
    Kind::Screened,
    Kind::Crossed,
    Kind::Unclassified,
];

/// The bodies as the scene defines them (no erosion), their features, and
/// the poses at which the scene's loaded bodies start: the map from a
/// simulated body's pose to its un-eroded mesh's.
pub struct Judges {
    pub features: Vec<BodyFeatures>,
    pub meshes: Vec<contactlab::mesh::TetMesh>,
    /// The pose of each un-eroded body at load.
    pub load: Vec<Pose>,
    pub names: Vec<String>,
    /// The un-eroded scene and the judges' overlap measure of it.
    pub scene: contactlab::scene::Scene,
    pub overlap: OverlapMeter,
}

impl Judges {
    pub fn of(id: &str, settings: &SimSettings) -> Judges {
        let options = LoadOptions {
            erosion: None,
            ..settings.load_options().expect("valid settings")
        };
        let scene = load_builtin(id, &options).unwrap_or_else(|e| panic!("{id}: {e}"));
        Judges {
            features: scene
                .bodies
                .iter()
                .map(|b| BodyFeatures::of(&b.mesh))
                .collect(),
            meshes: scene.bodies.iter().map(|b| b.mesh.clone()).collect(),
            load: scene
                .bodies
                .iter()
                .map(|b| Pose::new(b.position, b.rotation))
                .collect(),
            names: scene.bodies.iter().map(|b| b.name.clone()).collect(),
            overlap: OverlapMeter::new(&scene),
            scene,
        }
    }

    /// The pose of un-eroded body `i` when the simulated body, which was
    /// at `sim_load` at load, is at `now`.
    pub fn pose(&self, i: usize, sim_load: Pose, now: Pose) -> Pose {
        let turn = now.rotation * sim_load.rotation.inverse();
        let (p_u, r_u) = (self.load[i].position, self.load[i].rotation);
        Pose::new(now.position + turn * (p_u - sim_load.position), turn * r_u)
    }

    pub fn oracle(&self, a: usize, b: usize, poses: &[Pose], s: &SimSettings) -> PairOracle {
        PairOracle::new(
            &self.features[a],
            poses[a],
            &self.features[b],
            poses[b],
            Tolerances::for_bodies(&self.meshes[a], &self.meshes[b], envelope(s), s.tol_deg),
        )
    }
}

/// One contact judged twice.
#[derive(Clone, Debug)]
pub struct Judged {
    pub a: usize,
    pub b: usize,
    pub p: DVec3,
    pub n: DVec3,
    pub paper: bool,
    pub paper_q: f64,
    /// The step record's geometric verdict (what the page shows).
    pub geo: Verdict,
    pub geo_q: f64,
    /// This harness's own verdict from a [`PairOracle`] of the pair; it
    /// must be the record's.
    pub own: Verdict,
    /// The geometric oracle's verdict on −n.
    pub reversed_right: bool,
    /// n lies within θ of a feasible set of a touching pair within ε of p.
    pub in_a_near_set: bool,
    /// The bodies overlap, and every touching pair within ε of p with a set
    /// holding n has its features farther apart than the bodies overlap.
    pub only_crossed_faces: bool,
}

/// The un-eroded poses at the midpoint of the step `sim` takes next.
pub fn midpoint_poses(sim: &Simulation, judges: &Judges) -> Vec<Pose> {
    let h = sim.dt();
    sim.bodies()
        .iter()
        .zip(&sim.scene().bodies)
        .enumerate()
        .map(|(i, (body, loaded))| {
            let now = if body.fixed {
                Pose::new(body.position, body.rotation)
            } else {
                half_step(body, h)
            };
            judges.pose(i, Pose::new(loaded.position, loaded.rotation), now)
        })
        .collect()
}

/// Steps `sim` once and judges its contacts with both oracles.
pub fn step_judged(sim: &mut Simulation, judges: &Judges) -> Vec<Judged> {
    let poses = midpoint_poses(sim, judges);
    sim.step().unwrap_or_else(|e| panic!("{e}"));
    let settings = sim.settings().clone();
    let overlaps = judges.overlap.overlaps(&judges.scene, &poses, 0.0);
    let depth = |a: usize, b: usize| {
        overlaps
            .iter()
            .find(|o| (o.a, o.b) == (a.min(b), a.max(b)))
            .map_or(0.0, |o| o.depth)
    };
    let mut oracles: BTreeMap<(usize, usize), PairOracle> = BTreeMap::new();
    sim.contacts()
        .iter()
        .zip(sim.contact_qualities())
        .map(|(c, q)| {
            let o = oracles
                .entry((c.a, c.b))
                .or_insert_with(|| judges.oracle(c.a, c.b, &poses, &settings));
            let j = o.judge(c.position, c.normal);
            let holding: Vec<_> = o
                .touches
                .iter()
                .filter(|t| {
                    t.distance(c.position) <= o.tol.envelope
                        && t.feasible.iter().any(|f| f.contains(c.normal, o.tol.angle))
                })
                .collect();
            let in_a_near_set = !holding.is_empty();
            let real = depth(c.a, c.b) + o.tol.touch;
            let only_crossed_faces = in_a_near_set
                && depth(c.a, c.b) > o.tol.touch
                && holding.iter().all(|t| t.gap > real);
            Judged {
                a: c.a,
                b: c.b,
                p: c.position,
                n: c.normal,
                paper: q.correct == Some(true),
                paper_q: q.q.unwrap_or(f64::NAN),
                geo: q.geo,
                geo_q: q.geo_q,
                own: j.verdict,
                reversed_right: o.judge(c.position, -c.normal).verdict.is_right(),
                in_a_near_set,
                only_crossed_faces,
            }
        })
        .collect()
}

pub fn kind(scene: &str, judges: &Judges, c: &Judged) -> Option<Kind> {
    if c.paper == c.geo.is_right() {
        return None;
    }
    let (a, b) = (&judges.names[c.a], &judges.names[c.b]);
    let pier_voussoir = (a.contains("pier") && b.contains("voussoir"))
        || (a.contains("voussoir") && b.contains("pier"));
    let arch_joint = scene == "arch" && pier_voussoir;
    Some(match c.geo {
        Verdict::Wrong(Why::Far) if c.paper => Kind::Far,
        Verdict::Wrong(Why::Normal) if c.paper && c.reversed_right => Kind::Reversed,
        Verdict::IndeterminateRight if !c.paper && TWO_POINTS.contains(&scene) => Kind::Cone,
        Verdict::Right if !c.paper && arch_joint => Kind::Arch,
        Verdict::Right if !c.paper && c.only_crossed_faces => Kind::Crossed,
        Verdict::Wrong(Why::Normal) if c.paper && arch_joint => Kind::Arch,
        Verdict::Wrong(Why::Normal) if c.paper && c.in_a_near_set => Kind::Screened,
        _ => Kind::Unclassified,
    })
}

pub fn paper_scenes() -> Vec<&'static str> {
    BUILTIN_SCENES
        .iter()
        .filter(|s| s.paper)
        .map(|s| s.id)
        .collect()
}

/// (contacts, agreeing, per-kind counts, unclassified descriptions) of one
/// method on one scene at its measure step.
pub struct Cell {
    pub contacts: usize,
    pub agree: usize,
    pub kinds: BTreeMap<Kind, usize>,
    pub unclassified: Vec<String>,
}

impl Cell {
    pub fn count(&self, kind: Kind) -> usize {
        self.kinds.get(&kind).copied().unwrap_or(0)
    }
}

/// The envelope of these settings, which set it (the paper's).
pub fn envelope(settings: &SimSettings) -> f64 {
    settings.envelope.expect("the paper's envelope, set")
}

pub fn measure_cell(method: &str, scene: &str) -> Cell {
    let settings = SimSettings {
        method: method.to_string(),
        // The paper's envelope and ε, with which the table is pinned.
        ..SimSettings::paper()
    };
    let judges = Judges::of(scene, &settings);
    let text = builtin_text(scene).expect("a built-in scene");
    let mut sim = Simulation::new(&format!("builtin:{scene}"), text, settings)
        .unwrap_or_else(|e| panic!("{scene}: {e}"));
    let measure = sim.scene().settings.measure_step;
    let mut judged = Vec::new();
    while sim.step_index() < measure {
        judged = step_judged(&mut sim, &judges);
    }
    let mut cell = Cell {
        contacts: judged.len(),
        agree: 0,
        kinds: BTreeMap::new(),
        unclassified: Vec::new(),
    };
    for c in &judged {
        if c.own != c.geo {
            cell.unclassified.push(format!(
                "{method} on {scene}: {}–{} at {:.5?} n {:.5?}: the record says {:?}, a PairOracle at the midpoint poses {:?}",
                judges.names[c.a], judges.names[c.b], c.p, c.n, c.geo, c.own
            ));
        }
        match kind(scene, &judges, c) {
            None => cell.agree += 1,
            Some(k) => {
                *cell.kinds.entry(k).or_insert(0) += 1;
                if k == Kind::Unclassified || std::env::var("AGREE_ALL").is_ok() {
                    cell.unclassified.push(format!(
                        "{k:?} {method} on {scene}: {}–{} at {:.5?} n {:.5?}: paper {} (q {:.5}), geometric {:?} (q {:.5})",
                        judges.names[c.a], judges.names[c.b], c.p, c.n,
                        if c.paper { "right" } else { "wrong" }, c.paper_q, c.geo, c.geo_q
                    ));
                }
            }
        }
    }
    cell
}

/// Every method and variant of this build, by id.
pub fn methods_of_this_build() -> Vec<&'static str> {
    methods_and_variants()
        .filter(|m| m.in_this_build())
        .map(|m| m.id)
        .collect()
}
