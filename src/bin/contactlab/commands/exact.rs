//! `contactlab exact <scene>`: the exact contact regions of the scene at its
//! initial pose, per touching body pair, and their totals.

use crate::args::{Args, Command, JSON};
use crate::load;
use crate::output::{outln, CliResult, Out};
use contactlab::contact::exact_regions::{exact_contacts, ExactContacts};
use contactlab::contact::{FeatureKind, RELATIVE_TOUCH_TOL};
use contactlab::scene::Scene;
use contactlab::settings::Stage;
use serde_json::json;

pub const COMMAND: Command = Command {
    name: "exact",
    arguments: "<scene>",
    summary: "Exact contact regions of the scene at its initial pose: per touching body pair the regions, convex hull vertices, area and touching feature pairs by type, then the totals.",
    stages: &[Stage::Geometry],
    settings: &[],
    options: &[JSON],
    more_help: None,
    run: exact,
};

/// The kinds of touching feature pair the exact regions report, (V,V) to
/// (E,E): the first six of `FeatureKind::ALL`.
const REPORTED_KINDS: &[FeatureKind] = FeatureKind::ALL.split_at(6).0;

fn exact(args: &Args, out: &mut Out) -> CliResult {
    let scene = load::scene(args, "exact")?;
    let exact = exact_contacts(&scene, RELATIVE_TOUCH_TOL);
    if args.flag("--json") {
        print_json(out, &scene, &exact)
    } else {
        print_text(out, &scene, &exact)
    }
}

fn print_json(out: &mut Out, scene: &Scene, exact: &ExactContacts) -> CliResult {
    let name = |i: usize| scene.bodies[i].name.as_str();
    let pairs: Vec<_> = exact
        .pairs
        .iter()
        .map(|p| {
            let features: serde_json::Map<String, serde_json::Value> = REPORTED_KINDS.iter().map(|&k| (serde_json::to_value(k).unwrap_or_default().as_str().unwrap_or("?").to_string(), json!(p.count_features(k)))).collect();
            json!({ "a": name(p.a), "b": name(p.b), "touch_tol": p.touch_tol, "regions": p.regions.len(), "hull_vertices": p.hull_vertices(), "area": p.area(), "feature_pairs": features })
        })
        .collect();
    let report = json!({
        "scene": scene.id,
        "relative_touch_tol": exact.relative_touch_tol,
        "regions": exact.region_count(),
        "min_contacts": exact.min_contacts(),
        "max_feature_contacts": exact.max_feature_contacts(),
        "total_area": exact.total_area(),
        "oracle_min_contacts": scene.oracle.min_contacts(),
        "pairs": pairs,
    });
    outln!(out, "{report}")?;
    Ok(())
}

fn print_text(out: &mut Out, scene: &Scene, exact: &ExactContacts) -> CliResult {
    let name = |i: usize| scene.bodies[i].name.as_str();
    outln!(
        out,
        "{} ({}): exact contact regions at the initial pose, touching tolerance {:e} × the larger body of each pair",
        scene.title,
        scene.source,
        exact.relative_touch_tol
    )?;
    let header: Vec<&str> = REPORTED_KINDS.iter().map(|k| k.label()).collect();
    outln!(
        out,
        "{:<32} {:>7} {:>5} {:>10}  {}",
        "pair (a — b)",
        "regions",
        "hull",
        "area m²",
        header.join(" ")
    )?;
    for p in &exact.pairs {
        let counts: Vec<String> = REPORTED_KINDS
            .iter()
            .map(|&k| format!("{:>5}", p.count_features(k)))
            .collect();
        outln!(
            out,
            "{:<32} {:>7} {:>5} {:>10.6}  {}",
            format!("{} — {}", name(p.a), name(p.b)),
            p.regions.len(),
            p.hull_vertices(),
            p.area(),
            counts.join(" ")
        )?;
    }
    outln!(out, "total: {} touching pairs, {} regions, {} hull vertices (minimal contacts; the oracle says {}), {} unique touching-feature contacts, area {:.6} m²",
        exact.pairs.len(),
        exact.region_count(),
        exact.min_contacts(),
        scene.oracle.min_contacts().map_or("nothing".to_string(), |m| m.to_string()),
        exact.max_feature_contacts(),
        exact.total_area()
    )?;
    Ok(())
}
