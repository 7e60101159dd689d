//! A millisecond clock for the step timings. `std::time::Instant` panics on
//! `wasm32-unknown-unknown`, so there the clock reads `performance.now()`
//! of the page or worker (`docs/design/measures.md`, "Timings").

/// Milliseconds since an arbitrary origin, for differences only.
#[cfg(not(target_arch = "wasm32"))]
pub fn now_ms() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

#[cfg(target_arch = "wasm32")]
pub fn now_ms() -> f64 {
    use wasm_bindgen::JsCast;
    // Both Window and WorkerGlobalScope have `performance`; read it from the
    // global object so the same code runs on the page and in the worker.
    let performance = js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok());
    match performance {
        Some(p) => p.now(),
        None => js_sys::Date::now(),
    }
}
