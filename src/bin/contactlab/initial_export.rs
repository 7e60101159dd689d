//! The scene as an export and an engine's adapter take it: at its initial
//! pose, with the run's time step and friction. Its own file because both
//! the run's loading (through the engine host) and the `export` command use
//! it, and the engine host is below the loading.

use contactlab::export::Export;
use contactlab::scene::Scene;
use contactlab::sim::SimSettings;

/// The scene at its initial pose with the run's time step and friction,
/// as an export and an engine's adapter take it.
pub fn initial_export<'a>(scene: &'a Scene, settings: &SimSettings) -> Export<'a> {
    let mut export = Export::initial(scene);
    export.dt = settings.dt.unwrap_or(scene.settings.dt);
    export.mu = settings.mu;
    export
}
