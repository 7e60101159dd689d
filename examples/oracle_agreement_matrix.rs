//! Prints the agreement matrix of `tests/oracle_agreement.rs`: for every
//! method and variant of this build on every paper scene (Erleben 2018,
//! table 4) at its measure step, the contacts, how many the paper's oracle
//! and the geometric oracle (`docs/design/oracle.md`) agree on, and the
//! disagreements by kind (cone, arch, far, reversed, screened, crossed,
//! unclassified) as a Markdown table, each unclassified disagreement on a
//! line below its row. The test pins these counts; this is how they are
//! found again after a change.
//!
//! `cargo run --release --example oracle_agreement_matrix`. Environment:
//! `AGREE_SCENES=pillar,arch` and `AGREE_METHODS=opposing` narrow the
//! matrix; `AGREE_ALL=1` lists every disagreement, not only the
//! unclassified ones.

#[path = "../tests/oracle_agreement/judges.rs"]
mod judges;

use judges::{measure_cell, methods_of_this_build, paper_scenes, KINDS};

fn main() {
    let methods = methods_of_this_build();
    let only = std::env::var("AGREE_SCENES").ok();
    let only_m = std::env::var("AGREE_METHODS").ok();
    println!("| method | scene | contacts | agree | cone | arch | far | reversed | screened | crossed | unclassified |");
    for scene in paper_scenes() {
        if only
            .as_ref()
            .is_some_and(|o| !o.split(',').any(|s| s == scene))
        {
            continue;
        }
        for &m in &methods {
            if only_m
                .as_ref()
                .is_some_and(|o| !o.split(',').any(|s| s == m))
            {
                continue;
            }
            let cell = measure_cell(m, scene);
            let counts: Vec<String> = KINDS.iter().map(|&k| cell.count(k).to_string()).collect();
            println!(
                "| {m} | {scene} | {} | {} | {} |",
                cell.contacts,
                cell.agree,
                counts.join(" | ")
            );
            for u in &cell.unclassified {
                println!("    {u}");
            }
        }
    }
}
