//! The paper's published numbers (Erleben 2018, tables 7 and 8), kept beside ours
//! in the tables the CLI prints and docs/results.md records. Every row is
//! keyed by method id; methods the paper does not have get no paper column
//! values (see [`row`]).

/// Table 7: Pillar at simulation step 3: (method id, quality %, contacts,
/// excess).
pub const TABLE_7: [(&str, (f64, u32, f64)); 8] = [
    ("closest-points", (97.9, 188, 4.7)),
    ("intersection", (15.4, 722, 18.1)),
    ("vertex-only", (60.8, 51, 1.3)),
    ("consistent-vertex", (35.3, 34, 0.8)),
    ("volume-sat", (20.9, 540, 13.5)),
    ("surface-sat", (52.9, 607, 15.2)),
    ("opposing", (91.6, 214, 5.3)),
    ("growth", (24.6, 622, 15.6)),
];

/// Table 8's columns: our scene ids in the paper's column order.
pub const TABLE_8_CASES: [&str; 10] = [
    "spike-in-crack",
    "spike-in-hole",
    "wedge-in-crack",
    "sliding-spike",
    "sliding-wedge",
    "spikes",
    "spike-wedge",
    "wedges",
    "cliff-edges",
    "internal-edges",
];

/// Table 8, coverage %, per method, per case (in `TABLE_8_CASES` order).
pub const TABLE_8_COVERAGE: [(&str, [f64; 10]); 8] = [
    (
        "closest-points",
        [
            100.0, 100.0, 100.0, 100.0, 100.0, 0.0, 0.0, 0.0, 100.0, 100.0,
        ],
    ),
    (
        "intersection",
        [0.0, 0.0, 0.0, 0.0, 0.0, 100.0, 100.0, 0.0, 100.0, 100.0],
    ),
    (
        "vertex-only",
        [50.0, 0.0, 50.0, 100.0, 100.0, 0.0, 0.0, 0.0, 100.0, 100.0],
    ),
    (
        "consistent-vertex",
        [
            50.0, 0.0, 50.0, 100.0, 100.0, 0.0, 100.0, 100.0, 100.0, 100.0,
        ],
    ),
    (
        "volume-sat",
        [50.0, 25.0, 50.0, 100.0, 100.0, 0.0, 0.0, 0.0, 100.0, 100.0],
    ),
    (
        "surface-sat",
        [50.0, 25.0, 50.0, 100.0, 100.0, 0.0, 0.0, 0.0, 100.0, 100.0],
    ),
    (
        "opposing",
        [
            0.0, 0.0, 0.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0,
        ],
    ),
    (
        "growth",
        [50.0, 25.0, 50.0, 100.0, 100.0, 0.0, 0.0, 0.0, 100.0, 100.0],
    ),
];

/// Table 8, quality %. The paper prints "73.5.0" for Opposing on the cliff
/// edges; we read it as 73.5.
pub const TABLE_8_QUALITY: [(&str, [f64; 10]); 8] = [
    (
        "closest-points",
        [100.0, 100.0, 100.0, 100.0, 100.0, 0.0, 0.0, 0.0, 62.5, 58.3],
    ),
    (
        "intersection",
        [0.0, 0.0, 0.0, 0.0, 0.0, 10.0, 33.3, 0.0, 55.6, 50.0],
    ),
    (
        "vertex-only",
        [100.0, 0.0, 100.0, 100.0, 100.0, 0.0, 0.0, 0.0, 60.0, 83.3],
    ),
    (
        "consistent-vertex",
        [
            100.0, 0.0, 100.0, 100.0, 100.0, 0.0, 50.0, 25.0, 50.0, 100.0,
        ],
    ),
    (
        "volume-sat",
        [100.0, 100.0, 100.0, 100.0, 100.0, 0.0, 0.0, 0.0, 61.5, 65.2],
    ),
    (
        "surface-sat",
        [100.0, 100.0, 100.0, 100.0, 100.0, 0.0, 0.0, 0.0, 70.0, 83.3],
    ),
    (
        "opposing",
        [0.0, 0.0, 0.0, 100.0, 100.0, 22.2, 55.6, 47.4, 73.5, 93.3],
    ),
    (
        "growth",
        [100.0, 100.0, 100.0, 100.0, 100.0, 0.0, 0.0, 0.0, 37.5, 63.0],
    ),
];

/// Table 8, excess (a multiple of the minimal count; the paper's "(*)",
/// no contacts found, is NaN).
pub const TABLE_8_EXCESS: [(&str, [f64; 10]); 8] = [
    (
        "closest-points",
        [1.0, 1.0, 1.0, 1.0, 1.0, 10.0, 3.0, 3.5, 2.0, 3.0],
    ),
    (
        "intersection",
        [0.5, 1.2, 1.5, 3.0, 0.5, 20.0, 6.0, 3.5, 2.2, 3.0],
    ),
    (
        "vertex-only",
        [0.5, f64::NAN, 0.5, 1.0, 0.5, 2.0, 1.0, 1.0, 1.2, 1.5],
    ),
    (
        "consistent-vertex",
        [0.5, f64::NAN, 0.5, 1.0, 0.5, 4.0, 2.0, 2.0, 1.5, 1.0],
    ),
    (
        "volume-sat",
        [2.0, 1.8, 2.2, 5.0, 1.0, 14.0, 9.0, 8.5, 3.2, 5.8],
    ),
    (
        "surface-sat",
        [2.0, 1.8, 2.2, 5.0, 1.0, 14.0, 9.0, 9.0, 2.5, 4.5],
    ),
    (
        "opposing",
        [3.0, 2.2, 1.8, 5.0, 1.0, 18.0, 9.0, 9.5, 8.5, 3.8],
    ),
    (
        "growth",
        [2.0, 2.2, 1.5, 5.0, 1.0, 15.0, 11.0, 10.5, 6.0, 6.8],
    ),
];

/// Table 6: Pillar contact counts over the first 500 steps: (method id,
/// mean, min, max, standard deviation).
/// A row of table 6: mean, min, max and standard deviation of the count.
pub type CountRow = (f64, u32, u32, f64);

pub const TABLE_6: [(&str, CountRow); 8] = [
    ("closest-points", (267.11, 102, 375, 59.40)),
    ("intersection", (867.97, 504, 1332, 163.07)),
    ("vertex-only", (65.94, 6, 119, 19.62)),
    ("consistent-vertex", (93.26, 32, 113, 10.44)),
    ("volume-sat", (1248.52, 339, 1399, 69.37)),
    ("surface-sat", (1186.44, 333, 1362, 89.06)),
    ("opposing", (403.12, 117, 459, 24.83)),
    ("growth", (1257.45, 400, 1539, 162.75)),
];

/// The row of `table` for `method`, if the paper has that method.
pub fn row<'a, T>(table: &'a [(&str, T)], method: &str) -> Option<&'a T> {
    table.iter().find(|(id, _)| *id == method).map(|(_, r)| r)
}
