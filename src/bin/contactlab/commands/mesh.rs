//! `contactlab mesh <scene>`: per body how its tetrahedra were made and
//! their statistics.

use crate::args::{Args, Command, JSON};
use crate::load;
use crate::output::{outln, CliResult, Out};
use contactlab::mesh::stats::MeshStats;
use contactlab::mesh::Mesher;
use contactlab::scene::Scene;
use contactlab::settings::Stage;
use serde_json::json;

pub const COMMAND: Command = Command {
    name: "mesh",
    arguments: "<scene>",
    summary: "Per body how its tetrahedra were made (tetgen, cones, paper-fine, or given), whether it is convex (every B-rep edge convex: what sat-mtd needs), the tetrahedra, surface triangles, tetrahedra with 1, 2 and 3 surface faces, volume and the largest radius-edge ratio.",
    stages: &[Stage::Geometry],
    settings: &[],
    options: &[JSON],
    more_help: None,
    run: mesh,
};

/// One body's line: its name, mesher, statistics and whether it is convex.
type BodyRow<'a> = (&'a str, &'a str, MeshStats, bool);

fn mesh(args: &Args, out: &mut Out) -> CliResult {
    let scene = load::scene(args, "mesh")?;
    let rows: Vec<BodyRow> = scene
        .bodies
        .iter()
        .map(|b| {
            (
                b.name.as_str(),
                b.mesher.map_or("given", Mesher::id),
                MeshStats::of(&b.mesh),
                b.mesh.brep().is_convex(),
            )
        })
        .collect();
    if args.flag("--json") {
        print_json(out, &rows)
    } else {
        print_text(out, &scene, &rows)
    }
}

fn print_json(out: &mut Out, rows: &[BodyRow]) -> CliResult {
    let bodies: Vec<_> = rows
        .iter()
        .map(|(name, mesher, s, convex)| {
            json!({
                "name": name, "mesher": mesher, "convex": convex, "tetrahedra": s.tetrahedra,
                "surface_triangles": s.surface_triangles,
                "tets_by_surface_faces": s.tets_by_surface_faces,
                "volume": s.volume, "max_radius_edge_ratio": s.max_radius_edge_ratio,
            })
        })
        .collect();
    outln!(out, "{}", json!({ "bodies": bodies }))?;
    Ok(())
}

fn print_text(out: &mut Out, scene: &Scene, rows: &[BodyRow]) -> CliResult {
    outln!(
        out,
        "{} ({}): tetrahedra per body",
        scene.title,
        scene.source
    )?;
    outln!(
        out,
        "{:<16} {:<10} {:>6} {:>10} {:>9} {:>7} {:>7} {:>7} {:>12} {:>9}",
        "body",
        "mesher",
        "convex",
        "tetrahedra",
        "surface",
        "1 face",
        "2 faces",
        "3 faces",
        "volume m³",
        "max r/e"
    )?;
    for (name, mesher, s, convex) in rows {
        let [one, two, three] = s.tets_by_surface_faces;
        outln!(
            out,
            "{:<16} {:<10} {:>6} {:>10} {:>9} {:>7} {:>7} {:>7} {:>12.6} {:>9.3}",
            name,
            mesher,
            if *convex { "yes" } else { "no" },
            s.tetrahedra,
            s.surface_triangles,
            one,
            two,
            three,
            s.volume,
            s.max_radius_edge_ratio
        )?;
    }
    Ok(())
}
