//! The paper's quality measures for the contacts of one step
//! (`docs/design/measures.md`; paper sections 5, 5.1 and 8): per contact the
//! quality q
//! against the scene's oracle, and per step the quality %, coverage %, area
//! coverage P, excess, the sorted quality curve and its histogram; and
//! [`reference`](mod@reference), the answer's contacts, which the simulation can run as if
//! they were a method's; and [`overlap`], how far the bodies really
//! overlap, which judges a method's depths without using them; and
//! [`oracle`], the geometric oracle, which derives the right normals from
//! the bodies' surfaces at any pose (`docs/design/oracle.md`): every step
//! is measured against both oracles, and the `oracle` setting picks the
//! headline (the geometric one when the scene has no oracle of its own);
//! [`measure`] is the one way a step is judged and measured.

mod measure;
pub mod oracle;
pub mod overlap;
pub mod reference;

pub use measure::{measure, Measured};

use crate::contact::Contact;
use crate::geometry::Pose;
use crate::geometry::{convex_hull_2d, polygon_area_2d, PlaneFrame};
use crate::scene::{Oracle, Scene};
use glam::DVec3;
use oracle::{GeoStep, GeometricOracle, Verdict};
use serde::{Serialize, Serializer};

/// Bins of the quality histogram over [0, 1].
pub const HISTOGRAM_BINS: usize = 20;

/// Which oracle a step's headline measures use (the `oracle` setting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OracleChoice {
    /// The scene's hand-written oracle (`scene::Oracle`), when it has one.
    #[default]
    Scene,
    /// The geometric oracle (`oracle`), derived from the bodies' surfaces.
    Geometric,
}

impl crate::settings::Choice for OracleChoice {
    fn id(self) -> &'static str {
        match self {
            OracleChoice::Scene => "scene",
            OracleChoice::Geometric => "geometric",
        }
    }

    fn from_id(id: &str) -> Option<Self> {
        match id {
            "scene" => Some(OracleChoice::Scene),
            "geometric" => Some(OracleChoice::Geometric),
            _ => None,
        }
    }
}

/// What the measures of a step read of the run's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasureSettings {
    /// θ (°): the angle tolerance of both oracles.
    pub tol_deg: f64,
    /// ε (m): the geometric oracle's envelope; `None`: the `envelope`
    /// setting's size-relative default, per pair of bodies.
    pub envelope: Option<f64>,
    pub oracle: OracleChoice,
}

fn verdict_id<S: Serializer>(verdict: &Verdict, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(verdict.id())
}

/// Quality of one contact.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ContactQuality {
    /// q ∈ [−1, 1] against the headline oracle; `None` when it is the
    /// scene's and the scene has none (never: the headline is then the
    /// geometric oracle's).
    pub q: Option<f64>,
    pub correct: Option<bool>,
    /// The geometric oracle's verdict.
    #[serde(serialize_with = "verdict_id")]
    pub geo: Verdict,
    /// The cosine of the angle to the nearest candidate feasible set of the
    /// geometric oracle (0 when far).
    pub geo_q: f64,
}

/// The measures of one step. Fields that do not apply to an oracle are
/// `None`. Serialised, it is the numbers alone, under the keys of a step
/// record (`crate::sim::StepRecord` flattens it in): the headline keys
/// (`count` … `excess`, against the oracle `oracle` names), then the scene
/// oracle's (`scene_*`) and the geometric oracle's (`geo_*`); the
/// distributions (of the headline) are serialised on their own, where a
/// front end wants them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepMeasures {
    pub count: usize,
    /// How many contacts have a correct normal: `quality` is 100 × correct
    /// / count ("50 of 62 normals right"). Under the geometric oracle,
    /// right + indeterminate-right.
    pub correct: Option<usize>,
    pub quality: Option<f64>,
    pub coverage: Option<f64>,
    pub area_coverage: Option<f64>,
    pub excess: Option<f64>,
    /// The oracle of the headline keys above.
    pub oracle: OracleChoice,
    pub scene_correct: Option<usize>,
    pub scene_quality: Option<f64>,
    pub scene_coverage: Option<f64>,
    pub scene_area_coverage: Option<f64>,
    pub scene_min_contacts: Option<u64>,
    pub scene_excess: Option<f64>,
    pub geo_right: usize,
    pub geo_indeterminate_right: usize,
    pub geo_wrong: usize,
    pub geo_quality: Option<f64>,
    pub geo_coverage: Option<f64>,
    pub geo_area_coverage: Option<f64>,
    pub geo_min_contacts: usize,
    pub geo_excess: Option<f64>,
    #[serde(skip)]
    pub distributions: StepDistributions,
}

/// The distributions of one step's measures: what the page plots.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StepDistributions {
    /// The q values sorted ascending (paper figures 21, 24, 27, 30, 32, 34).
    pub sorted_quality: Vec<f64>,
    /// Counts of q in HISTOGRAM_BINS equal bins over [0, 1] (q < 0 in the
    /// first).
    pub histogram: Vec<usize>,
    /// Contact-region areas per body pair, sorted (paper figures 25, 28),
    /// for the wall and arch oracles.
    pub region_areas: Vec<f64>,
}

/// A contact with its quality, as the front ends list it (`contactlab
/// contacts --json` and the page's `contactList()`): the contact's fields
/// and q, with its bodies by name.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ContactRecord<'a> {
    pub a: &'a str,
    pub b: &'a str,
    #[serde(flatten)]
    pub contact: &'a Contact,
    #[serde(flatten)]
    pub quality: &'a ContactQuality,
}

/// The records of `contacts`, whose qualities are `qualities` (in the same
/// order), between bodies of `scene`.
pub fn contact_records<'a>(
    scene: &'a Scene,
    contacts: &'a [Contact],
    qualities: &'a [ContactQuality],
) -> Vec<ContactRecord<'a>> {
    let name = |i: usize| scene.bodies[i].name.as_str();
    contacts
        .iter()
        .zip(qualities)
        .map(|(contact, quality)| ContactRecord {
            a: name(contact.a),
            b: name(contact.b),
            contact,
            quality,
        })
        .collect()
}

/// The reference normal of the wall and arch oracles for a body pair, and
/// for the up oracle (sign free: q = |n · ref|).
fn reference_normal(oracle: &Oracle, a: usize, b: usize, centres: &[DVec3]) -> Option<DVec3> {
    match oracle {
        Oracle::Up { axis, .. } => Some(*axis),
        Oracle::Wall {
            up, along, layer, ..
        } => Some(if layer.get(a) == layer.get(b) {
            *along
        } else {
            *up
        }),
        Oracle::Arch { up, ground, .. } => {
            if a == *ground || b == *ground {
                Some(*up)
            } else {
                (centres[b] - centres[a]).try_normalize()
            }
        }
        _ => None,
    }
}

/// q against the scene's oracle of one contact (`None` without one).
/// `centres` are the bodies' current centres of mass (the arch oracle uses
/// them).
pub fn scene_q(oracle: &Oracle, contact: &Contact, centres: &[DVec3]) -> Option<f64> {
    match oracle {
        Oracle::None => None,
        Oracle::Pairs { pairs } => Some(
            pairs
                .iter()
                .find_map(|p| {
                    // The oracle's normals point from its a to its b.
                    let n = if (p.a, p.b) == (contact.a, contact.b) {
                        contact.normal
                    } else if (p.b, p.a) == (contact.a, contact.b) {
                        -contact.normal
                    } else {
                        return None;
                    };
                    Some(
                        p.normals
                            .iter()
                            .map(|f| n.dot(*f))
                            .fold(f64::NEG_INFINITY, f64::max),
                    )
                })
                .unwrap_or(0.0),
        ),
        other => reference_normal(other, contact.a, contact.b, centres)
            .map(|r| contact.normal.dot(r).abs()),
    }
}

/// The scene oracle's measures of one step.
struct SceneMeasures {
    q: Vec<Option<f64>>,
    correct: Option<usize>,
    quality: Option<f64>,
    coverage: Option<f64>,
    area_coverage: Option<f64>,
    min_contacts: Option<u64>,
    excess: Option<f64>,
    region_areas: Vec<f64>,
}

fn scene_measures(
    scene: &Scene,
    contacts: &[Contact],
    centres: &[DVec3],
    cos_tol: f64,
) -> SceneMeasures {
    let oracle = &scene.oracle;
    let q: Vec<Option<f64>> = contacts
        .iter()
        .map(|c| scene_q(oracle, c, centres))
        .collect();
    let count = contacts.len();
    let has_oracle = !matches!(oracle, Oracle::None);
    let correct = q.iter().filter(|q| q.is_some_and(|q| q >= cos_tol)).count();
    let quality = (has_oracle && count > 0).then(|| 100.0 * correct as f64 / count as f64);
    let coverage = match oracle {
        Oracle::Pairs { pairs } => {
            let total: usize = pairs.iter().map(|p| p.normals.len()).sum();
            let matched: usize = pairs
                .iter()
                .map(|p| {
                    p.normals
                        .iter()
                        .filter(|f| {
                            contacts.iter().any(|c| {
                                let n = if (p.a, p.b) == (c.a, c.b) {
                                    c.normal
                                } else if (p.b, p.a) == (c.a, c.b) {
                                    -c.normal
                                } else {
                                    return false;
                                };
                                n.dot(**f) >= cos_tol
                            })
                        })
                        .count()
                })
                .sum();
            Some(100.0 * matched as f64 / total.max(1) as f64)
        }
        _ => None,
    };
    let (area_coverage, region_areas) = match oracle {
        Oracle::Wall { expected_area, .. } | Oracle::Arch { expected_area, .. } => {
            let areas = pair_hull_areas(oracle, contacts, centres, solid_size(scene) * 1e-9);
            (Some(areas.iter().sum::<f64>() / expected_area), areas)
        }
        _ => (None, Vec::new()),
    };
    let min_contacts = oracle.min_contacts();
    let excess = min_contacts
        .filter(|&m| m > 0)
        .map(|m| count as f64 / m as f64);
    SceneMeasures {
        q,
        correct: has_oracle.then_some(correct),
        quality,
        coverage,
        area_coverage,
        min_contacts,
        excess,
        region_areas,
    }
}

/// All measures of one step whose `contacts` were found with the bodies at
/// `poses` (world position of the centre of mass, rotation): the scene's
/// oracle's, the geometric oracle's (`geo`, from
/// [`GeometricOracle::judge_step`] on the same contacts and poses), and the
/// headline `settings.oracle` picks (the geometric oracle's when the scene
/// has no oracle of its own).
pub fn measures_of_step(
    scene: &Scene,
    contacts: &[Contact],
    poses: &[Pose],
    geo: &GeoStep,
    settings: &MeasureSettings,
) -> (Vec<ContactQuality>, StepMeasures) {
    let cos_tol = settings.tol_deg.to_radians().cos();
    // The bodies' centres as the scene defines them (un-eroded): the
    // centre lines of the arch oracle, and the wall's, run between them.
    let centres: Vec<DVec3> = poses
        .iter()
        .zip(&scene.bodies)
        .map(|(p, body)| p.position + p.rotation * body.solid_centre())
        .collect();
    let scene_side = scene_measures(scene, contacts, &centres, cos_tol);
    let headline = if matches!(scene.oracle, Oracle::None) {
        OracleChoice::Geometric
    } else {
        settings.oracle
    };
    let geometric = headline == OracleChoice::Geometric;
    let qualities: Vec<ContactQuality> = scene_side
        .q
        .iter()
        .zip(&geo.judgements)
        .map(|(&q, j)| {
            let (q, correct) = if geometric {
                (Some(j.q), Some(j.verdict.is_right()))
            } else {
                (q, q.map(|q| q >= cos_tol))
            };
            ContactQuality {
                q,
                correct,
                geo: j.verdict,
                geo_q: j.q,
            }
        })
        .collect();
    let count = contacts.len();
    let g = &geo.measures;
    let mut sorted_quality: Vec<f64> = qualities.iter().filter_map(|q| q.q).collect();
    sorted_quality.sort_by(f64::total_cmp);
    let has_headline = geometric || scene_side.correct.is_some();
    let mut histogram = vec![0; if has_headline { HISTOGRAM_BINS } else { 0 }];
    for &q in &sorted_quality {
        let bin = ((q.max(0.0) * HISTOGRAM_BINS as f64) as usize).min(HISTOGRAM_BINS - 1);
        histogram[bin] += 1;
    }
    let measures = StepMeasures {
        count,
        correct: if geometric {
            Some(g.right + g.indeterminate_right)
        } else {
            scene_side.correct
        },
        quality: if geometric {
            g.quality
        } else {
            scene_side.quality
        },
        coverage: if geometric {
            g.coverage
        } else {
            scene_side.coverage
        },
        area_coverage: if geometric {
            g.area_coverage
        } else {
            scene_side.area_coverage
        },
        excess: if geometric {
            g.excess
        } else {
            scene_side.excess
        },
        oracle: headline,
        scene_correct: scene_side.correct,
        scene_quality: scene_side.quality,
        scene_coverage: scene_side.coverage,
        scene_area_coverage: scene_side.area_coverage,
        scene_min_contacts: scene_side.min_contacts,
        scene_excess: scene_side.excess,
        geo_right: g.right,
        geo_indeterminate_right: g.indeterminate_right,
        geo_wrong: g.wrong,
        geo_quality: g.quality,
        geo_coverage: g.coverage,
        geo_area_coverage: g.area_coverage,
        geo_min_contacts: g.min_contacts,
        geo_excess: g.excess,
        distributions: StepDistributions {
            sorted_quality,
            histogram,
            region_areas: scene_side.region_areas,
        },
    };
    (qualities, measures)
}

/// The geometric oracle's envelope for the `envelope` setting's value:
/// metres when set, else its size-relative default per pair of bodies.
pub fn oracle_envelope(envelope: Option<f64>) -> oracle::Envelope {
    envelope.map_or(
        oracle::Envelope::OfSmallerBody(crate::settings::default_fraction("envelope")),
        oracle::Envelope::Metres,
    )
}

/// All measures of `contacts` found at the scene's loaded poses, with the
/// scene's oracle as the headline where it has one and the paper's
/// envelope (0.01 m) for the geometric oracle: for tables and tests that
/// measure a scene as loaded. `centres` are the bodies' centres (the arch
/// oracle's), the loaded ones.
pub fn step_measures(
    scene: &Scene,
    contacts: &[Contact],
    centres: &[DVec3],
    angle_tolerance_deg: f64,
) -> (Vec<ContactQuality>, StepMeasures) {
    let poses: Vec<Pose> = scene
        .bodies
        .iter()
        .zip(centres)
        .map(|(b, c)| Pose::new(*c, b.rotation))
        .collect();
    let settings = MeasureSettings {
        tol_deg: angle_tolerance_deg,
        envelope: Some(crate::settings::PAPER_EPSILON),
        oracle: OracleChoice::Scene,
    };
    let measured = measure(
        scene,
        &GeometricOracle::new(scene),
        contacts,
        &poses,
        &settings,
    );
    (measured.qualities, measured.measures)
}

/// The diagonal of the scene's bounding box as the judges see the bodies:
/// un-eroded (a method that erodes its bodies must not change the
/// tolerance its contacts are measured with, or a file of the same
/// contacts, scored on the bodies as they are, would measure otherwise).
fn solid_size(scene: &Scene) -> f64 {
    let (mut lo, mut hi) = (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
    for body in &scene.bodies {
        let mesh = body.solid_mesh.as_ref().unwrap_or(&body.mesh);
        for v in &mesh.vertices {
            let w = body.world_point(*v);
            lo = lo.min(w);
            hi = hi.max(w);
        }
    }
    if lo.x > hi.x {
        0.0
    } else {
        (hi - lo).length()
    }
}

/// Paper eq. 3: for each body pair, the area of the convex hull of its
/// contacts projected onto the plane orthogonal to the pair's reference
/// normal; sorted ascending.
fn pair_hull_areas(oracle: &Oracle, contacts: &[Contact], centres: &[DVec3], tol: f64) -> Vec<f64> {
    let mut keyed: Vec<((usize, usize), DVec3)> = contacts
        .iter()
        .map(|c| ((c.a.min(c.b), c.a.max(c.b)), c.position))
        .collect();
    keyed.sort_by_key(|x| x.0);
    let mut areas = Vec::new();
    for group in keyed.chunk_by(|x, y| x.0 == y.0) {
        let (a, b) = group[0].0;
        let Some(n) = reference_normal(oracle, a, b, centres) else {
            continue;
        };
        let frame = PlaneFrame::new(group[0].1, n);
        let flat: Vec<_> = group.iter().map(|(_, p)| frame.to_2d(*p)).collect();
        let hull = convex_hull_2d(&flat, tol);
        areas.push(if hull.len() >= 3 {
            polygon_area_2d(&hull)
        } else {
            0.0
        });
    }
    areas.sort_by(f64::total_cmp);
    areas
}

/// The distinct areas of the exact contact regions at the scene's current
/// pose, for the wall and arch oracles: the plateaus the sorted region areas
/// of a good method should show (the paper's figures 25 and 28). Empty for
/// other oracles.
pub fn expected_region_areas(scene: &Scene) -> Vec<f64> {
    if !matches!(scene.oracle, Oracle::Wall { .. } | Oracle::Arch { .. }) {
        return Vec::new();
    }
    let exact = crate::contact::exact_contacts(scene, crate::contact::RELATIVE_TOUCH_TOL);
    let mut areas: Vec<f64> = exact.pairs.iter().map(|p| p.area()).collect();
    areas.sort_by(f64::total_cmp);
    areas.dedup_by(|a, b| (*a - *b).abs() <= 1e-9 * b.abs().max(1e-12));
    areas
}
