//! The scene argument of a command, loaded as the run settings say, and the
//! run started on it; the scene's notices go to standard error.

use crate::args::Args;
use crate::engine_host;
use crate::output::note;
use contactlab::scene::{load_scene, Scene};
use contactlab::sim::{SimSettings, Simulation};

/// The scene of `source` and `text`, loaded as `settings` say (eroded for a
/// method that needs it); its notices not yet printed.
pub fn scene_of(source: &str, text: &str, settings: &SimSettings) -> Result<Scene, String> {
    let options = settings.load_options().map_err(|e| e.to_string())?;
    load_scene(source, text, &options).map_err(|e| e.to_string())
}

/// The scene argument loaded; its notices printed.
pub fn scene(args: &Args, command: &str) -> Result<Scene, String> {
    let (source, text) = args.scene_text(command)?;
    let scene = scene_of(&source, &text, &args.settings)?;
    print_notices(&scene);
    Ok(scene)
}

/// The scene's notices (a body that did not get the mesher it asked for),
/// on standard error so that JSON on standard output stays clean.
pub fn print_notices(scene: &Scene) {
    for notice in &scene.notices {
        note(&format!("{}: {notice}", scene.source));
    }
}

/// The run the arguments ask for: the scene with a method, or with an
/// engine whose adapter runs in Node; the scene's notices printed.
pub fn simulation(args: &Args, command: &str) -> Result<Simulation, String> {
    let (source, text) = args.scene_text(command)?;
    let sim = match args.settings.engine_info() {
        Some(_) => {
            let scene = scene_of(&source, &text, &args.settings)?;
            engine_host::simulation(scene, args.settings.clone()).map_err(|e| e.to_string())?
        }
        None => {
            Simulation::new(&source, &text, args.settings.clone()).map_err(|e| e.to_string())?
        }
    };
    print_notices(sim.scene());
    Ok(sim)
}
