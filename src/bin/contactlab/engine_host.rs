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
    contacts_from_values, poses_from_values, poses_to_values, ContactSource, EngineInfo,
    EngineMode, ENGINES,
};
use contactlab::export::engine::engine_scene;
use contactlab::scene::Scene;
use contactlab::settings::Choice;
use contactlab::sim::{EngineRunner, SimError, SimSettings, Simulation};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::rc::Rc;

/// The Node script that runs adapters: `CONTACTLAB_ENGINE_HOST` when set,
/// else the repository's own.
fn host_script() -> PathBuf {
    std::env::var_os("CONTACTLAB_ENGINE_HOST")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools/engine-host.mjs"))
}

/// The Node program: `CONTACTLAB_NODE` when set, else `node`.
fn node_program() -> std::ffi::OsString {
    std::env::var_os("CONTACTLAB_NODE").unwrap_or_else(|| "node".into())
}

/// An engine's adapter in a Node process.
pub struct NodeEngine {
    name: &'static str,
    id: &'static str,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    fixed: Vec<bool>,
    /// Whether a request failed: the host has ended (it exits after an
    /// error), so the process is not reused.
    failed: bool,
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
        let node = node_program();
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
        let mut host = NodeEngine {
            name: engine.name,
            id: engine.id,
            child,
            input,
            output,
            fixed: Vec::new(),
            failed: false,
        };
        host.load(engine, mode, scene, settings)?;
        Ok(host)
    }

    /// Gives the host `engine`'s world of `scene` in `mode`, in place of
    /// the one it had (the package stays loaded when the engine is the
    /// same).
    fn load(
        &mut self,
        engine: &'static EngineInfo,
        mode: EngineMode,
        scene: &Scene,
        settings: &SimSettings,
    ) -> Result<(), String> {
        let export = crate::initial_export::initial_export(scene, settings);
        self.name = engine.name;
        self.id = engine.id;
        self.fixed = scene.bodies.iter().map(|b| b.fixed).collect();
        self.ask(
            &json!({ "engine": engine.id, "mode": mode.id(), "scene": engine_scene(&export) }),
        )?;
        Ok(())
    }

    /// Sends one request and reads its answer; an `error` answer, or none,
    /// is the engine's failure.
    fn ask(&mut self, request: &Value) -> Result<Value, String> {
        let answer = self.exchange(request);
        self.failed |= answer.is_err();
        answer
    }

    fn exchange(&mut self, request: &Value) -> Result<Value, String> {
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
    Simulation::with_runner(scene, settings, Some(&NodeRunner::default()))
}

/// Starts adapters in Node for library code (the tables), reusing a host
/// whose run has ended: each engine's package is loaded once per command,
/// not once per run (the Perturbation table alone makes 20 runs an engine).
/// Every answer is the adapter's at that call's poses alone (adapters keep
/// no history between calls), so reuse changes no number.
#[derive(Default)]
pub struct NodeRunner {
    idle: Rc<RefCell<Vec<NodeEngine>>>,
}

impl NodeRunner {
    /// A runner for the tables, once it has checked what every engine's
    /// row needs: the host script, Node 20 or later, and every engine's
    /// package files. The error is one sentence.
    pub fn for_tables() -> Result<NodeRunner, String> {
        let script = host_script();
        let hint = "or leave the engines' rows out with --no-engines";
        if !script.is_file() {
            return Err(format!(
                "the engines' rows run in Node through {}, which is not there (set CONTACTLAB_ENGINE_HOST to the repository's tools/engine-host.mjs), {hint}",
                script.display()
            ));
        }
        check_node_version(hint)?;
        // The host loads packages from the node_modules beside its tools folder.
        let modules = script
            .parent()
            .and_then(|tools| tools.parent())
            .map(|root| root.join("node_modules"))
            .unwrap_or_else(|| PathBuf::from("node_modules"));
        let missing: Vec<String> = ENGINES
            .iter()
            .filter(|e| e.files.iter().any(|f| !modules.join(f).is_file()))
            .map(|e| format!("{}@{}", e.package, e.version))
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "the engines' rows need the npm packages {}, which are not in {} (`npm ci` in the repository installs them from package-lock.json; `cargo xtask results` runs it), {hint}",
                missing.join(", "),
                modules.display()
            ));
        }
        Ok(NodeRunner::default())
    }
}

/// Refuses a Node that does not start or is older than 20; `hint` ends the
/// sentence.
fn check_node_version(hint: &str) -> Result<(), String> {
    let node = node_program();
    let version = Command::new(&node)
        .arg("--version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let major = version
        .as_deref()
        .and_then(|v| v.strip_prefix('v')?.split('.').next()?.parse::<u32>().ok());
    match (&version, major) {
        (None, _) => Err(format!(
            "the engines' rows run in Node, which could not be started ({}); install Node 20 or later or set CONTACTLAB_NODE, {hint}",
            node.to_string_lossy()
        )),
        (Some(v), m) if m.is_none_or(|m| m < 20) => Err(format!(
            "the engines' rows need Node 20 or later, and {} is {v}; install a newer Node or set CONTACTLAB_NODE, {hint}",
            node.to_string_lossy()
        )),
        _ => Ok(()),
    }
}

impl EngineRunner for NodeRunner {
    fn start(
        &self,
        engine: &'static EngineInfo,
        mode: EngineMode,
        scene: &Scene,
        settings: &SimSettings,
    ) -> Result<Box<dyn ContactSource>, String> {
        // A host that last ran this engine has its package loaded; one
        // host an engine is kept (a table's rows alternate engines).
        let reused = {
            let mut idle = self.idle.borrow_mut();
            let at = idle.iter().position(|h| h.id == engine.id);
            at.map(|at| idle.swap_remove(at))
        };
        let host = match reused {
            Some(mut host) => {
                host.load(engine, mode, scene, settings)?;
                host
            }
            None => NodeEngine::start(engine, mode, scene, settings)?,
        };
        Ok(Box::new(PooledEngine {
            host: Some(host),
            idle: Rc::clone(&self.idle),
        }))
    }
}

/// A host lent to one run, back to its runner's idle hosts when the run
/// drops it (unless it failed).
struct PooledEngine {
    host: Option<NodeEngine>,
    idle: Rc<RefCell<Vec<NodeEngine>>>,
}

impl PooledEngine {
    fn host(&mut self) -> &mut NodeEngine {
        self.host
            .as_mut()
            .expect("a lent host is returned only when dropped")
    }
}

impl ContactSource for PooledEngine {
    fn contacts_at(&mut self, poses: &[Pose]) -> Result<Vec<Contact>, String> {
        self.host().contacts_at(poses)
    }

    fn own_step(&mut self) -> Result<(Vec<Pose>, Vec<Contact>), String> {
        self.host().own_step()
    }
}

impl Drop for PooledEngine {
    fn drop(&mut self) {
        if let Some(host) = self.host.take().filter(|h| !h.failed) {
            self.idle.borrow_mut().push(host);
        }
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
