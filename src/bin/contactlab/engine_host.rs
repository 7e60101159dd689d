//! An engine's adapter run in Node for the command line
//! (`docs/design/engines.md`): `contactlab` starts `node
//! tools/engine-host.mjs`, hands it the engine scene, and asks it for each
//! step's contacts in lines of JSON, the `Float64Array`s as hexadecimal
//! bytes so that no number is rounded on the way (the host's own comment
//! has the protocol). This file only translates; the engine runs in the
//! adapter, the run in `Simulation`.

use contactlab::contact::Contact;
use contactlab::dynamics::stepper::Pose;
use contactlab::engines::{
    contacts_from_values, poses_from_values, poses_to_values, ContactSource, EngineInfo, EngineMode,
};
use contactlab::export::{engine::engine_scene, Export};
use contactlab::scene::Scene;
use contactlab::settings::Choice;
use contactlab::sim::{SimError, SimSettings, Simulation};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The Node script that runs adapters: `CONTACTLAB_ENGINE_HOST` when set,
/// else the repository's own.
fn host_script() -> PathBuf {
    std::env::var_os("CONTACTLAB_ENGINE_HOST")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools/engine-host.mjs"))
}

/// An engine's adapter in a Node process.
pub struct NodeEngine {
    name: &'static str,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    fixed: Vec<bool>,
}

impl NodeEngine {
    /// Starts `engine`'s adapter on `scene` (at its initial pose, with the
    /// run's time step and friction) in `mode`.
    pub fn start(
        engine: &'static EngineInfo,
        mode: EngineMode,
        scene: &Scene,
        settings: &SimSettings,
    ) -> Result<NodeEngine, String> {
        let script = host_script();
        if !script.is_file() {
            return Err(format!(
                "{} runs in Node through {}, which is not there (set CONTACTLAB_ENGINE_HOST to the repository's tools/engine-host.mjs)",
                engine.name,
                script.display()
            ));
        }
        let node = std::env::var_os("CONTACTLAB_NODE").unwrap_or_else(|| "node".into());
        let mut child = Command::new(&node)
            .arg(&script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| {
                format!(
                    "{} runs in Node, which could not be started ({}: {e}); install Node 20 or later, or set CONTACTLAB_NODE",
                    engine.name,
                    node.to_string_lossy()
                )
            })?;
        let input = child.stdin.take().expect("stdin was piped");
        let output = BufReader::new(child.stdout.take().expect("stdout was piped"));
        let mut export = Export::initial(scene);
        export.dt = settings.dt.unwrap_or(scene.settings.dt);
        export.mu = settings.mu;
        let mut host = NodeEngine {
            name: engine.name,
            child,
            input,
            output,
            fixed: scene.bodies.iter().map(|b| b.fixed).collect(),
        };
        host.ask(
            &json!({ "engine": engine.id, "mode": mode.id(), "scene": engine_scene(&export) }),
        )?;
        Ok(host)
    }

    /// Sends one request and reads its answer; an `error` answer, or none,
    /// is the engine's failure.
    fn ask(&mut self, request: &Value) -> Result<Value, String> {
        let mut line = request.to_string();
        line.push('\n');
        let sent = self
            .input
            .write_all(line.as_bytes())
            .and_then(|()| self.input.flush());
        let mut answer = String::new();
        let read = sent.and_then(|()| self.output.read_line(&mut answer));
        if read.is_err() || answer.is_empty() {
            return Err(format!(
                "{}'s Node process ended without an answer (its messages are above)",
                self.name
            ));
        }
        let value: Value = serde_json::from_str(&answer).map_err(|e| {
            format!(
                "{}'s Node process answered something that is not JSON: {e}",
                self.name
            )
        })?;
        if let Some(error) = value.get("error").and_then(Value::as_str) {
            return Err(error.to_string());
        }
        Ok(value)
    }

    fn array(&self, value: &Value, key: &str) -> Result<Vec<f64>, String> {
        let hex = value
            .get(key)
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{}'s answer has no \"{key}\"", self.name))?;
        from_hex(hex)
            .ok_or_else(|| format!("{}'s \"{key}\" is not hexadecimal f64 bytes", self.name))
    }
}

impl ContactSource for NodeEngine {
    fn contacts_at(&mut self, poses: &[Pose]) -> Result<Vec<Contact>, String> {
        let answer = self.ask(&json!({ "poses": to_hex(&poses_to_values(poses)) }))?;
        contacts_from_values(&self.array(&answer, "contacts")?, &self.fixed)
    }

    fn own_step(&mut self) -> Result<(Vec<Pose>, Vec<Contact>), String> {
        let answer = self.ask(&json!({ "ownStep": true }))?;
        let poses = poses_from_values(&self.array(&answer, "poses")?, self.fixed.len())?;
        let contacts = contacts_from_values(&self.array(&answer, "contacts")?, &self.fixed)?;
        Ok((poses, contacts))
    }
}

impl Drop for NodeEngine {
    fn drop(&mut self) {
        // Closing its input ends the host's loop; a host that hangs is killed.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The run `settings` ask for on `scene`: a method's, or an engine's (in
/// the `engine` setting's mode) with its adapter started in Node.
pub fn simulation(scene: Scene, settings: SimSettings) -> Result<Simulation, SimError> {
    let mode = settings.engine;
    match settings.engine_info() {
        Some(engine) => {
            let host =
                NodeEngine::start(engine, mode, &scene, &settings).map_err(SimError::Engine)?;
            Simulation::with_engine(scene, settings, mode, Box::new(host))
        }
        None => Simulation::from_scene(scene, settings),
    }
}

fn to_hex(values: &[f64]) -> String {
    values
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn from_hex(hex: &str) -> Option<Vec<f64>> {
    if hex.len() % 16 != 0 || !hex.is_ascii() {
        return None;
    }
    hex.as_bytes()
        .chunks_exact(16)
        .map(|chunk| {
            let mut bytes = [0u8; 8];
            for (k, pair) in chunk.chunks_exact(2).enumerate() {
                bytes[k] = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
            }
            Some(f64::from_le_bytes(bytes))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_every_bit() {
        let values = [0.0, -0.0, 1.0 / 3.0, f64::MIN_POSITIVE, -1e300];
        let back = from_hex(&to_hex(&values)).unwrap();
        assert_eq!(
            back.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            values.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
        assert!(from_hex("zz").is_none());
        assert!(from_hex(&"g".repeat(16)).is_none());
    }
}
