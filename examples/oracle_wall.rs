//! How long the geometric oracle (`docs/design/oracle.md`, "Cost") takes
//! on the Wall at its initial pose: each body posed once, then a
//! PairOracle for every body pair whose bounding spheres come within the
//! envelope, as one step would build them. Run
//! `cargo run --release --example oracle_wall [scene]`; a timing, never a
//! test assertion.

use contactlab::measures::oracle::{BodyFeatures, PairOracle, Posed, Tolerances};
use contactlab::scene::builtin::load_builtin;
use contactlab::scene::LoadOptions;
use std::time::Instant;

fn main() {
    let id = std::env::args().nth(1).unwrap_or_else(|| "wall".into());
    let scene = load_builtin(&id, &LoadOptions::default()).expect("a built-in scene");
    let envelope = 0.01;
    let features: Vec<BodyFeatures> = scene
        .bodies
        .iter()
        .map(|b| BodyFeatures::of(&b.mesh))
        .collect();
    let radius: Vec<f64> = scene
        .bodies
        .iter()
        .map(|b| {
            b.mesh
                .vertices
                .iter()
                .map(|v| v.length())
                .fold(0.0, f64::max)
        })
        .collect();
    let step = || {
        let posed: Vec<Posed> = scene
            .bodies
            .iter()
            .zip(&features)
            .map(|(b, f)| Posed::new(f, (b.position, b.rotation)))
            .collect();
        let (mut pairs, mut regions, mut touches) = (0, 0, 0);
        for i in 0..scene.bodies.len() {
            for j in i + 1..scene.bodies.len() {
                let (a, b) = (&scene.bodies[i], &scene.bodies[j]);
                if a.position.distance(b.position) > radius[i] + radius[j] + envelope {
                    continue;
                }
                let tol = Tolerances::for_bodies(&a.mesh, &b.mesh, envelope, 1.0);
                let o = PairOracle::of_posed(&posed[i], &posed[j], tol);
                pairs += 1;
                regions += o.regions.len();
                touches += o.touches.len();
            }
        }
        (pairs, regions, touches)
    };
    let (pairs, regions, touches) = step();
    let mut times: Vec<f64> = (0..30)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(step());
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "{id}: {} bodies, {pairs} near pairs, {regions} regions, {touches} touching pairs; \
         per step: min {:.2} ms, median {:.2} ms, max {:.2} ms (30 steps)",
        scene.bodies.len(),
        times[0],
        times[15],
        times[29]
    );
}
