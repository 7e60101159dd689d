//! The touching tolerance is a property of each pair of bodies (issue 9):
//! a body far away, or a huge one, must not change the contacts of the
//! others. Before, it was a millionth of the whole scene's size, so a body
//! 10 km away turned the Pillar's 62 Opposing contacts into 16.

use contactlab::contact::{
    detect, exact_contacts, methods_under_test, MethodHistory, RELATIVE_TOUCH_TOL,
};
use contactlab::scene::builtin::builtin_text;
use contactlab::scene::{load_scene, LoadOptions, Scene};
use contactlab::sim::SimSettings;

/// The Pillar with one more body, moved to the end of the list so that the
/// Pillar's bodies keep their indices (the file gets it first, which is
/// easier to splice in).
fn pillar_with(extra: &str, options: &LoadOptions) -> Scene {
    let text = builtin_text("pillar").unwrap();
    let at = text
        .find("\"bodies\": [")
        .expect("the Pillar lists its bodies")
        + "\"bodies\": [".len();
    let edited = format!("{}{extra},{}", &text[..at], &text[at..]);
    let mut scene = load_scene("pillar+far", &edited, options).unwrap();
    let far = scene.bodies.remove(0);
    scene.bodies.push(far);
    scene
}

const FAR_BOX: &str = r#"{ "name": "far", "fixed": true, "shape": { "type": "box", "size": [1, 1, 1] }, "position": [10000, 0.5, 0] }"#;

#[test]
fn a_body_ten_kilometres_away_leaves_every_method_s_pillar_contacts_unchanged() {
    for method in methods_under_test() {
        let options = SimSettings {
            method: method.id.to_string(),
            ..SimSettings::default()
        }
        .load_options()
        .unwrap();
        let text = builtin_text("pillar").unwrap();
        let alone = load_scene("builtin:pillar", text, &options).unwrap();
        let with_far = pillar_with(FAR_BOX, &options);
        let params = SimSettings::default().method_params(&alone);
        let contacts = |scene: &Scene| {
            detect(
                &scene.poses(),
                method,
                &params,
                &mut MethodHistory::default(),
            )
            .expect("a method, not the reference")
            .contacts
        };
        let (before, after) = (contacts(&alone), contacts(&with_far));
        assert!(!before.is_empty(), "{}", method.id);
        assert_eq!(before, after, "{}", method.id);
    }
    let text = builtin_text("pillar").unwrap();
    let alone = load_scene("builtin:pillar", text, &LoadOptions::default()).unwrap();
    let with_far = pillar_with(FAR_BOX, &LoadOptions::default());
    let (a, b) = (
        exact_contacts(&alone, RELATIVE_TOUCH_TOL),
        exact_contacts(&with_far, RELATIVE_TOUCH_TOL),
    );
    assert_eq!(a.region_count(), 7);
    assert_eq!(b.region_count(), 7);
    assert_eq!(a.min_contacts(), b.min_contacts());
}
