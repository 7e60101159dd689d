//! Cheng Yi & Drumwright's unit test (§V-A, table I): SAT-MTD's signed
//! distance of two randomly posed 2 × 2 × 2 boxes against the origin's
//! distance to their explicitly built Minkowski difference. Cheng Yi &
//! Drumwright's SAT erred at most 2.7e-15; ours must stay within 1e-14 over
//! 1000 seeded poses, overlapping and disjoint alike.

use contactlab::report::sat_unit::{sat_unit_errors, DEFAULT_SEED};

#[test]
fn sat_mtd_signed_distance_is_within_1e_14_of_the_minkowski_difference() {
    let poses = 1000;
    let (stats, overlapping) = sat_unit_errors(poses, DEFAULT_SEED, &mut |_, _, _| {});
    // Both branches (SAT when overlapping, closest features when disjoint)
    // are exercised.
    assert!(
        (100..=900).contains(&overlapping),
        "{overlapping} of {poses} overlap"
    );
    let sat = stats
        .iter()
        .find(|s| s.name.starts_with("SAT-MTD"))
        .expect("SAT-MTD is a row");
    assert_eq!(sat.poses, poses, "SAT-MTD judged every pose");
    assert!(sat.max <= 1e-14, "{sat:?}");
    assert!(
        sat.max_overlapping <= 1e-14 && sat.max_disjoint <= 1e-14,
        "{sat:?}"
    );
}
