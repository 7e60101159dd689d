//! What a check does when something it needs is missing. On a developer's
//! machine it says it skipped and why, and passes; on CI (`CI=true`, which
//! GitHub Actions sets, and any run that sets it) it fails, naming what is
//! missing: a green CI run has run every check.

use crate::cmd::{Error, Result};

/// Whether this run is CI's: `CI` set to anything but empty, `0` or
/// `false` (GitHub Actions sets `CI=true`).
pub fn on_ci() -> bool {
    is_ci_value(std::env::var("CI").ok().as_deref())
}

fn is_ci_value(value: Option<&str>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
}

/// `check` cannot run because `missing`: a failure on CI, a "skipped" line
/// otherwise. `missing` says what is missing and how to install it.
pub fn cannot_run(check: &str, missing: &str) -> Result<()> {
    cannot_run_on(on_ci(), check, missing)
}

fn cannot_run_on(ci: bool, check: &str, missing: &str) -> Result<()> {
    if ci {
        Err(Error::new(format!(
            "{check} cannot run: {missing}. CI=true, so this fails rather than skipping"
        )))
    } else {
        println!("skipped: {check}: {missing} (CI is not set, so this is a skip, not a failure)");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ci_is_any_value_but_empty_zero_and_false() {
        for yes in ["true", "1", "yes", "TRUE"] {
            assert!(is_ci_value(Some(yes)), "{yes}");
        }
        for no in [None, Some(""), Some("0"), Some("false"), Some("False")] {
            assert!(!is_ci_value(no), "{no:?}");
        }
    }

    #[test]
    fn on_ci_a_check_that_cannot_run_fails_naming_what_is_missing() {
        let failed = cannot_run_on(true, "the mesh check", "tetgen is not installed")
            .unwrap_err()
            .to_string();
        assert!(
            failed.contains("the mesh check") && failed.contains("tetgen is not installed"),
            "{failed}"
        );
        assert!(cannot_run_on(false, "the mesh check", "tetgen is not installed").is_ok());
    }
}
