//! Where the geometric oracle (`docs/design/oracle.md`) and the paper's
//! hand-written oracles (Erleben 2018, §5.1 and table 4;
//! `measures::contact_quality`) disagree on the contacts of every method at
//! each of the paper's 13 scenes' measure step, and semi-local's measures
//! under the geometric oracle (issue 21, "What it must reach").
//!
//! Every contact is judged twice, both as its step record says: by the
//! scene's oracle (`correct`) and by the geometric one (`geo`). The harness
//! also builds a [`PairOracle`] of the contact's two bodies at the midpoint
//! poses the method saw, from the un-eroded meshes (Closest points erodes
//! its bodies at load; the judge looks at the bodies as the scene defines
//! them): its verdict must be the record's, and it classifies the
//! disagreements. A disagreement is allowed only where the design note names one:
//!
//! - `cone`: in the two-points cases (Spikes, Spike on wedge, Wedges) the
//!   shapes single out no normal, the paper's oracle picks one of an
//!   indeterminate cone by the initial velocity (table 4 †): a normal in
//!   the cone but off the picked one is indeterminate-right to the
//!   geometric oracle and wrong to the paper's;
//! - `arch`: at the Arch's two pier–voussoir joints the paper's centre line
//!   is 6° off the joint's plane;
//! - `far`: the paper's oracles judge the normal only, so they accept a
//!   contact farther than the envelope from everything the two bodies
//!   touch, which the geometric oracle calls wrong (far).
//!
//! Three more kinds were found by measuring, and are pinned too
//! (`docs/design/oracle.md`, "What it agrees with so far"):
//!
//! - `reversed`: a normal pointing from B into A, the exact reverse of a
//!   right one, which the paper's sign-free `up`, `wall` and `arch` oracles
//!   (q = |n · r|) accept: the method is wrong and the paper's oracle
//!   misses it;
//! - `screened`: the far wall of a crack or hole the spike has slid 4 mm
//!   into the near one, which the old nearest-features rule set aside
//!   though the region requires it. None since a nearer pair supersedes
//!   only the pieces its features contain (`docs/design/oracle.md`, item
//!   6); kept at 0 so that it cannot come back unseen;
//! - `crossed`: geometric right only by touching pairs whose features lie
//!   farther apart than the bodies overlap (Spikes: side faces 7.6 mm
//!   behind each other beside an apex sunk 1.9 mm), wrong to the paper's
//!   oracle: the open overlap question of the design note.
//!
//! Every other disagreement fails the test with its pair, point and normal,
//! and the count of each kind per method and scene is pinned in a table
//! here, so that any count that moves fails too. Semi-local's quality and
//! coverage under the geometric oracle (issue 21's second target) are
//! printed by the ignored `semi_local_geometric`; they do not reach the
//! target yet, so no test asserts them.

use contactlab::contact::methods_and_variants;
use contactlab::dynamics::stepper::half_step;
use contactlab::measures::oracle::{BodyFeatures, PairOracle, Tolerances, Verdict, Why};
use contactlab::measures::overlap::OverlapMeter;
use contactlab::scene::builtin::{builtin_text, load_builtin, BUILTIN_SCENES};
use contactlab::scene::LoadOptions;
use contactlab::sim::{SimSettings, Simulation};
use glam::{DQuat, DVec3};
use std::collections::BTreeMap;

/// The paper's three cases whose shapes single out no normal.
const TWO_POINTS: [&str; 3] = ["spikes", "spike-wedge", "wedges"];

/// A disagreement's kind: the three the design note names, then the two
/// found by measuring (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
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

const KINDS: [Kind; 7] = [
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
struct Judges {
    features: Vec<BodyFeatures>,
    meshes: Vec<contactlab::mesh::TetMesh>,
    /// (position, rotation) of each un-eroded body at load.
    load: Vec<(DVec3, DQuat)>,
    names: Vec<String>,
    /// The un-eroded scene and the judges' overlap measure of it.
    scene: contactlab::scene::Scene,
    overlap: OverlapMeter,
}

impl Judges {
    fn of(id: &str, settings: &SimSettings) -> Judges {
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
                .map(|b| (b.position, b.rotation))
                .collect(),
            names: scene.bodies.iter().map(|b| b.name.clone()).collect(),
            overlap: OverlapMeter::new(&scene),
            scene,
        }
    }

    /// The pose of un-eroded body `i` when the simulated body, which was
    /// at `sim_load` at load, is at `now`.
    fn pose(&self, i: usize, sim_load: (DVec3, DQuat), now: (DVec3, DQuat)) -> (DVec3, DQuat) {
        let turn = now.1 * sim_load.1.inverse();
        let (p_u, r_u) = self.load[i];
        (now.0 + turn * (p_u - sim_load.0), turn * r_u)
    }

    fn oracle(&self, a: usize, b: usize, poses: &[(DVec3, DQuat)], s: &SimSettings) -> PairOracle {
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
struct Judged {
    a: usize,
    b: usize,
    p: DVec3,
    n: DVec3,
    paper: bool,
    paper_q: f64,
    /// The step record's geometric verdict (what the page shows).
    geo: Verdict,
    geo_q: f64,
    /// This harness's own verdict from a [`PairOracle`] of the pair; it
    /// must be the record's.
    own: Verdict,
    /// The geometric oracle's verdict on −n.
    reversed_right: bool,
    /// n lies within θ of a feasible set of a touching pair within ε of p.
    in_a_near_set: bool,
    /// The bodies overlap, and every touching pair within ε of p with a set
    /// holding n has its features farther apart than the bodies overlap.
    only_crossed_faces: bool,
}

/// The un-eroded poses at the midpoint of the step `sim` takes next.
fn midpoint_poses(sim: &Simulation, judges: &Judges) -> Vec<(DVec3, DQuat)> {
    let h = sim.dt();
    sim.bodies()
        .iter()
        .zip(&sim.scene().bodies)
        .enumerate()
        .map(|(i, (body, loaded))| {
            let now = if body.fixed {
                (body.position, body.rotation)
            } else {
                half_step(body, h)
            };
            judges.pose(i, (loaded.position, loaded.rotation), now)
        })
        .collect()
}

/// Steps `sim` once and judges its contacts with both oracles.
fn step_judged(sim: &mut Simulation, judges: &Judges) -> Vec<Judged> {
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

fn kind(scene: &str, judges: &Judges, c: &Judged) -> Option<Kind> {
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

fn paper_scenes() -> Vec<&'static str> {
    BUILTIN_SCENES
        .iter()
        .filter(|s| s.paper)
        .map(|s| s.id)
        .collect()
}

/// (contacts, agreeing, per-kind counts, unclassified descriptions) of one
/// method on one scene at its measure step.
struct Cell {
    contacts: usize,
    agree: usize,
    kinds: BTreeMap<Kind, usize>,
    unclassified: Vec<String>,
}

impl Cell {
    fn count(&self, kind: Kind) -> usize {
        self.kinds.get(&kind).copied().unwrap_or(0)
    }
}

/// The envelope of these settings, which set it (the paper's).
fn envelope(settings: &SimSettings) -> f64 {
    settings.envelope.expect("the paper's envelope, set")
}

fn measure_cell(method: &str, scene: &str) -> Cell {
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

/// The whole matrix, printed (`cargo test --release --test
/// oracle_agreement -- --ignored --nocapture matrix`).
#[test]
#[ignore]
fn matrix() {
    let methods: Vec<&str> = methods_and_variants()
        .filter(|m| m.in_this_build())
        .map(|m| m.id)
        .collect();
    let only = std::env::var("AGREE_SCENES").ok();
    let only_m = std::env::var("AGREE_METHODS").ok();
    println!("| method | scene | contacts | agree | cone | arch | far | reversed | screened | crossed | unclassified |");
    for scene in paper_scenes() {
        if only
            .as_ref()
            .is_some_and(|o| !o.split(',').any(|s| s == scene))
        {
            continue;
        }
        for &m in &methods {
            if only_m
                .as_ref()
                .is_some_and(|o| !o.split(',').any(|s| s == m))
            {
                continue;
            }
            let cell = measure_cell(m, scene);
            let counts: Vec<String> = KINDS.iter().map(|&k| cell.count(k).to_string()).collect();
            println!(
                "| {m} | {scene} | {} | {} | {} |",
                cell.contacts,
                cell.agree,
                counts.join(" | ")
            );
            for u in &cell.unclassified {
                println!("    {u}");
            }
        }
    }
}

/// The disagreements of every method on every paper scene at its measure
/// step, by kind: (method, scene, [cone, arch, far, reversed, screened]).
/// A (method, scene) not listed has none. Computed by `matrix`; any count
/// that moves fails the test, and so does any disagreement of no kind.
const PINNED: &[(&str, &str, [usize; 6])] = &[
    // Reversed normals the sign-free `up` and `wall` oracles accept.
    ("vertex-only", "pillar", [0, 0, 0, 6, 0, 0]),
    ("vertex-only@paper-code", "pillar", [0, 0, 0, 5, 0, 0]),
    ("consistent-vertex", "pillar", [0, 0, 0, 6, 0, 0]),
    ("opposing@paper-code", "pillar", [0, 0, 0, 32, 0, 0]),
    ("vertex-only@paper-code", "wall", [0, 0, 0, 140, 0, 0]),
    ("opposing@paper-code", "wall", [0, 0, 0, 52, 0, 0]),
    // Contacts 20 cm up a brick's side, far from its joint.
    ("intersection@paper-code", "wall", [0, 0, 17, 0, 0, 0]),
    // The pier–voussoir joints.
    ("semi-local", "arch", [0, 8, 0, 0, 0, 0]),
    ("closest-points", "arch", [0, 12, 0, 0, 0, 0]),
    ("closest-points@paper-code", "arch", [0, 9, 0, 0, 0, 0]),
    ("intersection", "arch", [0, 8, 0, 0, 0, 0]),
    ("intersection@paper-code", "arch", [0, 14, 0, 0, 0, 0]),
    ("vertex-only", "arch", [0, 8, 0, 0, 0, 0]),
    ("vertex-only@paper-code", "arch", [0, 5, 0, 0, 0, 0]),
    ("consistent-vertex", "arch", [0, 8, 0, 0, 0, 0]),
    ("consistent-vertex@paper-code", "arch", [0, 2, 0, 0, 0, 0]),
    ("volume-sat", "arch", [0, 8, 0, 0, 0, 0]),
    ("volume-sat@paper-code", "arch", [0, 13, 0, 0, 0, 0]),
    ("surface-sat", "arch", [0, 7, 0, 0, 0, 0]),
    ("surface-sat@paper-code", "arch", [0, 20, 0, 0, 0, 0]),
    ("opposing", "arch", [0, 8, 0, 0, 0, 0]),
    ("opposing@paper-code", "arch", [0, 12, 0, 0, 0, 0]),
    ("growth", "arch", [0, 8, 0, 0, 0, 0]),
    ("growth@paper-code", "arch", [0, 18, 0, 0, 0, 0]),
    ("contour-region", "arch", [0, 8, 0, 0, 0, 0]),
    ("region-analysis", "arch", [0, 8, 0, 0, 0, 0]),
    ("sat-mtd", "arch", [0, 8, 0, 0, 0, 0]),
    ("parry", "arch", [0, 9, 0, 0, 0, 0]),
    // parry's manifold points on the far side of the moving body's hull.
    ("parry", "sliding-spike", [0, 0, 2, 0, 0, 0]),
    ("parry", "sliding-wedge", [0, 0, 2, 0, 0, 0]),
    ("parry", "spike-in-hole", [0, 0, 2, 0, 0, 0]),
    ("parry", "spike-in-crack", [0, 0, 4, 0, 0, 0]),
    ("parry", "wedge-in-crack", [0, 0, 4, 0, 0, 0]),
    // Spikes' side faces behind the sunk apex, crossing deeper than the
    // bodies overlap (docs/design/oracle.md, "Open").
    ("intersection@paper-code", "spikes", [0, 0, 0, 0, 0, 10]),
    ("consistent-vertex@paper-code", "spikes", [0, 0, 0, 0, 0, 2]),
    ("opposing", "spikes", [0, 0, 0, 0, 0, 12]),
    ("opposing@paper-code", "spikes", [0, 0, 0, 0, 0, 2]),
];

#[test]
fn at_the_measure_step_the_oracles_disagree_only_where_the_counts_say() {
    let mut failures = Vec::new();
    let methods: Vec<&str> = methods_and_variants()
        .filter(|m| m.in_this_build())
        .map(|m| m.id)
        .collect();
    for &(m, scene, _) in PINNED {
        assert!(
            methods.contains(&m) && paper_scenes().contains(&scene),
            "pinned {m} on {scene} is no method and paper scene of this build"
        );
    }
    for scene in paper_scenes() {
        for &m in &methods {
            let cell = measure_cell(m, scene);
            let want = PINNED
                .iter()
                .find(|&&(pm, ps, _)| pm == m && ps == scene)
                .map_or([0; 6], |&(_, _, counts)| counts);
            let got: Vec<usize> = KINDS[..6].iter().map(|&k| cell.count(k)).collect();
            if got != want {
                failures.push(format!(
                    "{m} on {scene}: [cone, arch, far, reversed, screened, crossed] = {got:?}, pinned {want:?}"
                ));
            }
            failures.extend(cell.unclassified);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The step records' own (geo_quality, geo_coverage), per step, as the
/// page shows them.
static RECORDED: std::sync::Mutex<Vec<(Option<f64>, Option<f64>)>> =
    std::sync::Mutex::new(Vec::new());

/// Why semi-local's contacts were wrong, tallied by `geometric_step`.
static CAUSES: std::sync::Mutex<BTreeMap<&'static str, usize>> =
    std::sync::Mutex::new(BTreeMap::new());

/// Semi-local's step under the geometric oracle: (contacts, right or
/// indeterminate-right, required directions matched, required), over every
/// body pair whose bounding boxes come within ε at the midpoint poses.
fn geometric_step(sim: &mut Simulation, judges: &Judges) -> (usize, usize, usize, usize) {
    let poses = midpoint_poses(sim, judges);
    let record = sim.step().unwrap_or_else(|e| panic!("{e}"));
    let penetration = record.penetration;
    RECORDED
        .lock()
        .unwrap()
        .push((record.measures.geo_quality, record.measures.geo_coverage));
    let settings = sim.settings().clone();
    let boxes: Vec<(DVec3, DVec3)> = judges
        .features
        .iter()
        .zip(&poses)
        .map(|(f, &(t, q))| {
            f.vertices.iter().fold(
                (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
                |(lo, hi), v| (lo.min(t + q * *v), hi.max(t + q * *v)),
            )
        })
        .collect();
    let fixed: Vec<bool> = sim.bodies().iter().map(|b| b.fixed).collect();
    let (mut right, mut matched, mut required) = (0, 0, 0);
    let contacts = sim.contacts();
    for i in 0..boxes.len() {
        for j in i + 1..boxes.len() {
            let apart = (boxes[i].0 - boxes[j].1)
                .max(boxes[j].0 - boxes[i].1)
                .max_element();
            let ours: Vec<(DVec3, DVec3)> = contacts
                .iter()
                .filter_map(|c| match (c.a, c.b) {
                    (a, b) if (a, b) == (i, j) => Some((c.position, c.normal)),
                    (a, b) if (a, b) == (j, i) => Some((c.position, -c.normal)),
                    _ => None,
                })
                .collect();
            if (fixed[i] && fixed[j]) || (apart > envelope(&settings) && ours.is_empty()) {
                continue;
            }
            let o = judges.oracle(i, j, &poses, &settings);
            for &(p, n) in &ours {
                let verdict = o.judge(p, n).verdict;
                if verdict.is_right() {
                    right += 1;
                    continue;
                }
                let near_set = o.touches.iter().any(|t| {
                    t.distance(p) <= o.tol.envelope
                        && t.feasible.iter().any(|f| f.contains(n, o.tol.angle))
                });
                let cause = match verdict {
                    Verdict::Wrong(Why::Far) if penetration > envelope(&settings) => {
                        "far, overlap > ε"
                    }
                    Verdict::Wrong(Why::Far) => "far",
                    _ if near_set => "normal, screened",
                    _ => "normal, other",
                };
                *CAUSES.lock().unwrap().entry(cause).or_insert(0) += 1;
                if std::env::var("SEMI_WRONG").is_ok() {
                    println!(
                        "    step {}: {}–{} at {p:.4?} n {n:.4?}: {verdict:?} ({cause}; penetration {penetration:.4})",
                        sim.step_index(),
                        judges.names[i],
                        judges.names[j]
                    );
                }
            }
            let (m, r) = o.coverage(&ours);
            matched += m;
            required += r;
        }
    }
    (contacts.len(), right, matched, required)
}

fn semi_local(scene: &str) -> (Simulation, Judges) {
    let settings = SimSettings {
        method: "semi-local".to_string(),
        ..SimSettings::paper()
    };
    let judges = Judges::of(scene, &settings);
    let text = builtin_text(scene).expect("a built-in scene");
    let sim = Simulation::new(&format!("builtin:{scene}"), text, settings)
        .unwrap_or_else(|e| panic!("{scene}: {e}"));
    (sim, judges)
}

/// Semi-local under the geometric oracle, printed: each paper scene at its
/// measure step, and each fundamental case's run means.
#[test]
#[ignore]
fn semi_local_geometric() {
    for scene in paper_scenes() {
        let (mut sim, judges) = semi_local(scene);
        let measure = sim.scene().settings.measure_step;
        let steps = sim.scene().settings.steps;
        let fundamental = !["pillar", "wall", "arch"].contains(&scene);
        let (mut qs, mut cs) = (Vec::new(), Vec::new());
        let mut at_measure = None;
        let mut short = Vec::new();
        while sim.step_index() < if fundamental { steps } else { measure } {
            let (count, right, matched, required) = geometric_step(&mut sim, &judges);
            let q = (count > 0).then(|| 100.0 * right as f64 / count as f64);
            let c = (required > 0).then(|| 100.0 * matched as f64 / required as f64);
            qs.extend(q);
            cs.extend(c);
            if sim.step_index() == measure {
                at_measure = Some((count, right, matched, required));
            }
            if q.is_some_and(|q| q < 100.0) || c.is_some_and(|c| c < 100.0) {
                short.push(sim.step_index());
            }
        }
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
        println!(
            "{scene}: measure step {measure}: {at_measure:?}; run ({} steps with contacts): quality {:.2} %, coverage {:.2} % ({} steps with requirements); short at {} steps, first {:?}",
            qs.len(),
            mean(&qs),
            mean(&cs),
            cs.len(),
            short.len(),
            &short[..short.len().min(12)]
        );
        let recorded = std::mem::take(&mut *RECORDED.lock().unwrap());
        let rq: Vec<f64> = recorded.iter().filter_map(|r| r.0).collect();
        let rc: Vec<f64> = recorded.iter().filter_map(|r| r.1).collect();
        println!(
            "    the records' geo_quality {:.2} % ({} steps), geo_coverage {:.2} % ({} steps)",
            mean(&rq),
            rq.len(),
            mean(&rc),
            rc.len()
        );
        println!(
            "    wrong: {:?}",
            std::mem::take(&mut *CAUSES.lock().unwrap())
        );
    }
}
