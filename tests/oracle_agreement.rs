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
//! here, so that any count that moves fails too. The whole matrix is
//! printed by `cargo run --release --example oracle_agreement_matrix`;
//! semi-local's quality and coverage under the geometric oracle (issue 21's
//! second target) by `--example semi_local_geometric`: they do not reach
//! the target yet, so no test asserts them. The judging harness both share
//! is `tests/oracle_agreement/judges.rs`.

#[path = "oracle_agreement/judges.rs"]
mod judges;

use judges::{measure_cell, methods_of_this_build, paper_scenes, KINDS};

/// The disagreements of every method on every paper scene at its measure
/// step, by kind: (method, scene, [cone, arch, far, reversed, screened]).
/// A (method, scene) not listed has none. Computed by the example `oracle_agreement_matrix`; any count
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
    let methods = methods_of_this_build();
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
