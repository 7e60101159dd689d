//! How long the geometric oracle (`docs/design/oracle.md`, "Cost") takes
//! to judge one step: a scene (the Wall by default) run with Semi-local
//! for a few steps, then `GeometricOracle::judge_step` on that step's
//! contacts at the bodies' poses, timed 30 times; and, for comparison, at
//! the loaded pose. Run `cargo run --release --example oracle_wall [scene]
//! [steps]`; a timing, never a test assertion (`cargo xtask bench` reports
//! the same cost inside real steps as `ms_oracle`).

use contactlab::geometry::Pose;
use contactlab::measures::oracle::GeometricOracle;
use contactlab::measures::oracle_envelope;
use contactlab::scene::builtin::builtin_text;
use contactlab::sim::{SimSettings, Simulation};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_else(|| "wall".into());
    let steps: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(5);
    let Some(text) = builtin_text(&id) else {
        eprintln!("oracle_wall: no built-in scene \"{id}\"");
        std::process::exit(2);
    };
    let settings = SimSettings {
        method: "semi-local".into(),
        ..SimSettings::default()
    };
    let mut sim = match Simulation::new(&format!("builtin:{id}"), text, settings.clone()) {
        Ok(sim) => sim,
        Err(e) => {
            eprintln!("oracle_wall: {e}");
            std::process::exit(2);
        }
    };
    let oracle = GeometricOracle::new(sim.scene());
    // The run's envelope: the size-relative default unless a setting gives one.
    let envelope = oracle_envelope(sim.settings().envelope);
    let time = |label: &str, sim: &Simulation| {
        let poses: Vec<Pose> = sim
            .bodies()
            .iter()
            .map(|b| Pose::new(b.position, b.rotation))
            .collect();
        let contacts = sim.contacts();
        let mut times: Vec<f64> = (0..30)
            .map(|_| {
                let start = Instant::now();
                std::hint::black_box(oracle.judge_step(contacts, &poses, envelope, 1.0));
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let judged = oracle.judge_step(contacts, &poses, envelope, 1.0);
        println!(
            "{id} {label}: {} contacts, {} right, min {:.2} ms, median {:.2} ms, max {:.2} ms (30 runs)",
            contacts.len(),
            judged.measures.right,
            times[0],
            times[15],
            times[29]
        );
    };
    time("loaded pose", &sim);
    for _ in 0..steps {
        if let Err(e) = sim.step() {
            eprintln!("oracle_wall: {e}");
            std::process::exit(1);
        }
    }
    time(&format!("after {steps} steps"), &sim);
    // The same poses with no contacts: the cost of the touching pairs and
    // regions alone.
    let poses: Vec<Pose> = sim
        .bodies()
        .iter()
        .map(|b| Pose::new(b.position, b.rotation))
        .collect();
    let start = Instant::now();
    for _ in 0..30 {
        std::hint::black_box(oracle.judge_step(&[], &poses, envelope, 1.0));
    }
    println!(
        "{id} after {steps} steps, no contacts: mean {:.2} ms",
        start.elapsed().as_secs_f64() * 1e3 / 30.0
    );
}
