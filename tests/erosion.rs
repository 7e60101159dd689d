//! Erosion refuses to invert a body, not only to flatten it, and says which
//! body is too thin for the ε asked.

use contactlab::scene::builtin::load_builtin;
use contactlab::scene::{Erosion, LoadOptions};

fn eroded(epsilon: f64) -> LoadOptions {
    LoadOptions {
        erosion: Some(Erosion::Metres(epsilon)),
        ..Default::default()
    }
}

#[test]
fn wedges_eroded_past_the_inradius_are_refused_naming_the_wedge() {
    // The wedges' cross-section (base 1.6 m, height 2.4 m) has inradius
    // 0.577 m; 1.5 m used to turn both wedges upside down and load.
    let message = load_builtin("wedges", &eroded(1.5))
        .unwrap_err()
        .to_string();
    assert!(
        message.contains(r#"bodies[0] "wedge""#)
            && message.contains("too thin")
            && message.contains("turn over"),
        "{message}"
    );
}

#[test]
fn wedges_eroded_within_the_inradius_load() {
    load_builtin("wedges", &eroded(0.5)).unwrap_or_else(|e| panic!("{e}"));
}
