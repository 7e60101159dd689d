//! The run's settings as one struct, [`SimSettings`], built from the
//! settings table (`crate::settings::SETTINGS`): parsing, checking, links'
//! `key=value` pairs, and what each layer below reads of them (the method's
//! tolerances, the measures' settings, the load options).

use crate::contact::{method_by_id, methods::method_ids, MethodInfo, MethodParams};
// `Mesher`, `SolverRules`, `OracleChoice` and `EngineMode` are field types of the settings table.
use crate::engines::{engine_by_id, engine_ids, EngineInfo, EngineMode};
use crate::measures::{MeasureSettings, OracleChoice};
use crate::mesh::Mesher;
use crate::scene::{Erosion, LoadOptions, Scene};
use crate::settings::{
    self, SettingError, SettingField, SettingKind, SettingSpec, SettingValue, SETTINGS,
};
use crate::solver::SolverRules;
use serde::{Deserialize, Serialize};

/// Every value the `method` setting takes: the methods' ids, then the
/// engines'.
pub fn contestant_ids() -> Vec<&'static str> {
    let mut ids = method_ids();
    ids.extend(engine_ids());
    ids
}

/// Builds [`SimSettings`] from the settings table
/// ([`crate::settings::for_each_setting`]): a field per setting, named by its
/// id and of the type the entry gives, its schema default, and its `get` and
/// `set` arms.
macro_rules! sim_settings {
    ($( $(#[$field_doc:meta])* $id:ident: $field_type:ty { $($spec:tt)* } ),* $(,)?) => {
        /// Everything that decides a run besides the scene file. Each field
        /// is a setting of [`crate::settings::SETTINGS`] under the same id,
        /// where its range, default, flag and URL key are declared; the
        /// struct is built from that table, so they cover each other exactly.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct SimSettings {
            $( $(#[$field_doc])* pub $id: $field_type, )*
        }

        impl Default for SimSettings {
            /// The schema's defaults (the paper's settings).
            fn default() -> Self {
                SimSettings {
                    $( $id: settings::default_of(stringify!($id)), )*
                }
            }
        }

        impl SimSettings {
            /// The value of the setting `id`.
            pub fn get(&self, id: &str) -> Option<SettingValue> {
                match id {
                    $( stringify!($id) => Some(self.$id.to_value()), )*
                    _ => None,
                }
            }

            /// Checks `value` against `spec` into its field; on error
            /// nothing changes.
            fn set_field(
                &mut self,
                spec: &SettingSpec,
                value: &SettingValue,
            ) -> Result<(), SettingError> {
                match spec.id {
                    $( stringify!($id) => self.$id = SettingField::from_value(spec, value)?, )*
                    id => unreachable!("the settings table gives \"{id}\" a field"),
                }
                Ok(())
            }
        }
    };
}
settings::for_each_setting!(sim_settings);

impl SimSettings {
    /// Sets the setting `id` after checking it against the schema (and a
    /// method id against the registry). On error nothing changes.
    pub fn set(&mut self, id: &str, value: SettingValue) -> Result<(), SettingError> {
        let spec = settings::spec(id).ok_or_else(|| SettingError {
            id: "setting",
            message: format!("there is no setting called \"{id}\""),
        })?;
        if spec.kind == SettingKind::Method {
            let id = match &value {
                SettingValue::Text(t) => t.trim(),
                _ => "",
            };
            if method_by_id(id).is_none() && engine_by_id(id).is_none() {
                return Err(settings::unknown_method(id, &contestant_ids()));
            }
        }
        self.set_field(spec, &value)
    }

    /// Parses and sets `id` from text typed by a person.
    pub fn set_text(&mut self, id: &str, text: &str) -> Result<(), SettingError> {
        let spec = settings::spec(id).ok_or_else(|| SettingError {
            id: "setting",
            message: format!("there is no setting called \"{id}\""),
        })?;
        let value = spec.parse(text)?;
        self.set(id, value)
    }

    /// Settings from a link's `key=value` pairs (keys are the schema's URL
    /// keys; others are not settings and are skipped): the defaults with
    /// every valid pair applied, and one problem text per refused pair,
    /// worded as the CLI words it after its own prefix.
    ///
    /// A link that names no solver ran the printed one: every link made
    /// before the accelerated solver was the default (release 0.5.0 and
    /// older) did, so it still does ([`SolverRules::UNNAMED_IN_LINKS`]);
    /// [`Self::to_url_pairs`] always names it.
    pub fn from_url_pairs(pairs: &[(String, String)]) -> (SimSettings, Vec<String>) {
        SimSettings {
            solver: SolverRules::UNNAMED_IN_LINKS,
            ..SimSettings::default()
        }
        .with_url_pairs(pairs)
    }

    /// These settings with a link's valid pairs applied, and one problem
    /// text per refused pair (as [`Self::from_url_pairs`], from `self`
    /// rather than a link's starting point).
    pub fn with_url_pairs(mut self, pairs: &[(String, String)]) -> (SimSettings, Vec<String>) {
        let mut problems = Vec::new();
        for (key, text) in pairs {
            let Some(spec) = settings::spec_by_url_key(key) else {
                continue;
            };
            if let Err(e) = self.set_text(spec.id, text) {
                problems.push(format!("{key}: {e}; using the default"));
            }
        }
        (self, problems)
    }

    /// The settings as a link's `key=value` pairs: those the schema puts
    /// in every link (the method, and the solver: a link that names none
    /// means the printed one, [`Self::from_url_pairs`]), the others where
    /// they differ from the default, in schema order.
    pub fn to_url_pairs(&self) -> Vec<(&'static str, String)> {
        let defaults = SimSettings::default();
        SETTINGS
            .iter()
            .filter_map(|spec| {
                let value = self.get(spec.id)?;
                (spec.in_every_link || defaults.get(spec.id).as_ref() != Some(&value))
                    .then(|| (spec.url_key, settings::SettingSpec::format(&value)))
            })
            .collect()
    }

    /// Checks every setting against the schema (settings built in code or
    /// read through serde bypass `set`).
    pub fn validate(&self) -> Result<(), SettingError> {
        let mut copy = self.clone();
        for spec in SETTINGS {
            let value = self.get(spec.id).expect("every schema id has a field");
            copy.set(spec.id, value)?;
        }
        Ok(())
    }

    /// The registry entry of the chosen method (valid after `validate`);
    /// an error for an engine ([`Self::engine_info`]).
    pub fn method_info(&self) -> Result<&'static MethodInfo, SettingError> {
        method_by_id(&self.method).ok_or_else(|| match engine_by_id(&self.method) {
            Some(engine) => SettingError {
                id: "method",
                message: format!(
                    "{} is an engine, whose contacts come from its adapter (docs/design/engines.md), not a method of this core",
                    engine.name
                ),
            },
            None => settings::unknown_method(&self.method, &contestant_ids()),
        })
    }

    /// The engine chosen as the `method`, if it is one.
    pub fn engine_info(&self) -> Option<&'static EngineInfo> {
        engine_by_id(&self.method)
    }

    /// The tolerances the method reads on `scene` (as loaded with
    /// [`Self::load_options`]): an envelope set in metres replaces the
    /// per-pair relative one; the erosion ε is the one the bodies were
    /// eroded by, else the setting's, else its relative default on `scene`.
    pub fn method_params(&self, scene: &Scene) -> MethodParams {
        let per_pair = MethodParams::per_pair();
        MethodParams {
            epsilon: scene.erosion.or(self.epsilon).unwrap_or_else(|| {
                settings::default_fraction("epsilon") * scene.smallest_free_diagonal()
            }),
            two_way: self.two_way,
            envelope: self.envelope.unwrap_or(per_pair.envelope),
            relative_envelope: per_pair
                .relative_envelope
                .filter(|_| self.envelope.is_none()),
            ..per_pair
        }
    }

    /// The paper's settings: its absolute envelope and erosion ε (1 cm,
    /// Erleben 2018 §6 and §8) in place of the size-relative defaults, and
    /// its solver (the printed Gauss-Seidel, 1000 sweeps), so the paper's
    /// tables and presets keep the paper's numbers.
    pub fn paper() -> SimSettings {
        SimSettings {
            envelope: Some(MethodParams::PAPER_EPSILON),
            epsilon: Some(MethodParams::PAPER_EPSILON),
            solver: SolverRules::Printed,
            ..SimSettings::default()
        }
    }

    /// These settings with the paper's absolute envelope and erosion ε
    /// wherever they are left at their size-relative defaults (a value set
    /// explicitly stays): the base of the paper's tables.
    pub fn with_paper_lengths(&self) -> SimSettings {
        let paper = SimSettings::paper();
        SimSettings {
            envelope: self.envelope.or(paper.envelope),
            epsilon: self.epsilon.or(paper.epsilon),
            ..self.clone()
        }
    }

    /// What the step measures read.
    pub fn measure_settings(&self) -> MeasureSettings {
        MeasureSettings {
            tol_deg: self.tol_deg,
            envelope: self.envelope,
            oracle: self.oracle,
        }
    }

    /// The settings that change the bodies as loaded.
    pub fn load_options(&self) -> Result<LoadOptions, SettingError> {
        let probe = MethodParams {
            epsilon: self.epsilon.unwrap_or(MethodParams::PAPER_EPSILON),
            ..MethodParams::default()
        };
        // An engine collides the bodies as they are.
        let erosion = match self.engine_info() {
            Some(_) => None,
            None => self.method_info()?.erosion(&probe),
        }
        .map(|metres| match self.epsilon {
            Some(_) => Erosion::Metres(metres),
            None => Erosion::OfSmallestFreeBody(settings::default_fraction("epsilon")),
        });
        Ok(LoadOptions {
            refine: self.refine,
            erosion,
            perturb: self.perturb,
            seed: self.seed,
            mesher: self.mesher,
        })
    }
}
