//! What one detection may cost: the most candidate tetrahedron pairs and
//! the most contacts of one pass over the scene. Inside the scene limits
//! (`scene::limits`) a scene can still ask for more than any machine holds:
//! 500 bodies piled on one spot, or two 20 000-vertex spheres through each
//! other, whose cone meshes put every tetrahedron of one in the box of
//! every tetrahedron of the other (1.6 · 10⁹ pairs). The dispatcher counts
//! as the work grows and stops at these budgets with an [`OverBudget`]
//! naming the pair of bodies that asked for the most, rather than
//! allocating until the process aborts (or the page's tab dies).
//!
//! The budgets sit far above every shipped scene at every setting (the
//! largest, the Wall refined twice, has 743 495 candidate pairs and 36 283
//! contacts with Intersection) and far below what exhausts 2 GB: a
//! candidate is 16 bytes, a contact about 100 (`README.md`, "Limits").

/// Most candidate tetrahedron pairs of one detection (64 MB of them).
pub const MAX_CANDIDATE_PAIRS: usize = 4_000_000;
/// Most contacts of one detection, before the post-filter.
pub const MAX_CONTACTS: usize = 500_000;

/// The budgets as "name: value" lines, for the README and its test.
pub fn described() -> Vec<String> {
    vec![
        format!("candidate tetrahedron pairs per step: at most {MAX_CANDIDATE_PAIRS}"),
        format!("contacts per step: at most {MAX_CONTACTS}"),
    ]
}

/// Which budget a detection ran over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    CandidatePairs,
    Contacts,
}

impl Budget {
    pub fn limit(self) -> usize {
        match self {
            Budget::CandidatePairs => MAX_CANDIDATE_PAIRS,
            Budget::Contacts => MAX_CONTACTS,
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Budget::CandidatePairs => "candidate tetrahedron pairs",
            Budget::Contacts => "contacts",
        }
    }
}

/// A detection stopped at a budget: the pair of bodies (indices, `a < b`)
/// that contributed the most when it stopped, and how much it had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverBudget {
    pub budget: Budget,
    pub a: usize,
    pub b: usize,
    /// What the pair (a, b) alone had reached.
    pub of_pair: usize,
    /// How many pairs of bodies had given some.
    pub pairs: usize,
}

impl OverBudget {
    /// The sentence for people, naming bodies with `name`: one pair that
    /// asked for most of the budget overlaps deeply; otherwise the scene
    /// as a whole asks for too much.
    pub fn message(&self, name: impl Fn(usize) -> String) -> String {
        let (limit, noun) = (self.budget.limit(), self.budget.noun());
        let (a, b, count) = (name(self.a), name(self.b), self.of_pair);
        if count * 2 > limit {
            format!(
                "contact detection stopped at its budget of {limit} {noun} per step (README, \"Limits\"): bodies \"{a}\" and \"{b}\" alone gave {count}. They overlap deeply (copies on one spot, or one body far inside the other); move them apart"
            )
        } else {
            format!(
                "contact detection stopped at its budget of {limit} {noun} per step (README, \"Limits\"): {pairs} pairs of bodies gave more, the most \"{a}\" and \"{b}\" ({count}). The scene asks for too much work per step; use fewer or coarser bodies (less refinement), or move them apart",
                pairs = self.pairs
            )
        }
    }
}

/// Counts per body pair while a detection grows, and says when the total
/// passes its budget.
pub(crate) struct Tally {
    budget: Budget,
    total: usize,
    pairs: usize,
    /// (a, b, count) of the current pair and of the largest finished one.
    current: (usize, usize, usize),
    largest: (usize, usize, usize),
}

impl Tally {
    pub(crate) fn new(budget: Budget) -> Tally {
        Tally {
            budget,
            total: 0,
            pairs: 0,
            current: (0, 0, 0),
            largest: (0, 0, 0),
        }
    }

    /// Adds `count` for the pair (a, b); `Err` once the total passes the
    /// budget. Pairs arrive grouped (all of one pair, then the next).
    pub(crate) fn add(&mut self, a: usize, b: usize, count: usize) -> Result<(), OverBudget> {
        if (self.current.0, self.current.1) != (a, b) || self.pairs == 0 {
            self.current = (a, b, 0);
            self.pairs += 1;
        }
        self.current.2 += count;
        if self.current.2 > self.largest.2 {
            self.largest = self.current;
        }
        self.total += count;
        if self.total > self.budget.limit() {
            let (a, b, of_pair) = self.largest;
            return Err(OverBudget {
                budget: self.budget,
                a: a.min(b),
                b: a.max(b),
                of_pair,
                pairs: self.pairs,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tally_names_the_pair_that_gave_the_most() {
        let mut tally = Tally::new(Budget::Contacts);
        assert!(tally.add(0, 1, 10).is_ok());
        assert!(tally.add(0, 2, MAX_CONTACTS - 20).is_ok());
        assert!(tally.add(1, 2, 10).is_ok());
        let over = tally.add(1, 2, 1).unwrap_err();
        assert_eq!(
            over,
            OverBudget {
                budget: Budget::Contacts,
                a: 0,
                b: 2,
                of_pair: MAX_CONTACTS - 20,
                pairs: 3,
            }
        );
        let name = |i: usize| ["x", "y", "z"][i].to_string();
        let text = over.message(name);
        assert!(text.contains("500000 contacts per step"), "{text}");
        assert!(
            text.contains("\"x\" and \"z\" alone gave 499980. They overlap deeply"),
            "{text}"
        );
        let spread = OverBudget {
            of_pair: 10,
            pairs: 60_000,
            ..over
        };
        let text = spread.message(name);
        assert!(
            text.contains("60000 pairs of bodies gave more, the most \"x\" and \"z\" (10)"),
            "{text}"
        );
    }
}
