//! Exact signs of small polynomials in `f64` coordinates, by Shewchuk's
//! floating-point expansions (J. R. Shewchuk, "Adaptive Precision
//! Floating-Point Arithmetic and Fast Robust Geometric Predicates",
//! Discrete & Computational Geometry 18, 1997: §2, Two-Sum, Split,
//! Two-Product and Grow-Expansion with zero elimination).
//!
//! The `robust` crate gives the exact sign of orient2d and orient3d; the
//! symbolic perturbation of [`super::perturbed`] also needs the exact sign
//! of a few other determinants of coordinate differences, which only arise
//! where orient3d is exactly zero. [`ExactSum`] accumulates a sum of
//! products of doubles without any rounding and reports its sign. It is
//! slow (hundreds of flops per term) and meant only for those rare
//! degenerate cases.
//!
//! Valid while no intermediate product overflows or underflows into the
//! subnormals: coordinates between about 1e-60 and 1e60 in magnitude (or
//! zero), far beyond any scene.

use glam::DVec3;

/// a + b = s + e exactly, |e| ≤ ulp(s) / 2 (Knuth's Two-Sum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let b_virtual = s - a;
    let a_virtual = s - b_virtual;
    (s, (a - a_virtual) + (b - b_virtual))
}

/// a = hi + lo exactly, each with at most 26 significant bits (Dekker's
/// split, Shewchuk's Split with 2^27 + 1).
fn split(a: f64) -> (f64, f64) {
    let c = 134_217_729.0 * a;
    let big = c - a;
    let hi = c - big;
    (hi, a - hi)
}

/// a · b = p + e exactly (Dekker's Two-Product).
fn two_product(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    let e = al * bl - (((p - ah * bh) - al * bh) - ah * bl);
    (p, e)
}

/// a − b = hi + lo exactly: the two doubles whose sum is the difference.
pub fn exact_difference(a: f64, b: f64) -> [f64; 2] {
    let (s, e) = two_sum(a, -b);
    [s, e]
}

/// A sum of doubles held exactly, as a nonoverlapping expansion in
/// increasing magnitude without zeros.
#[derive(Clone, Debug, Default)]
pub struct ExactSum {
    terms: Vec<f64>,
}

impl ExactSum {
    pub fn new() -> Self {
        ExactSum::default()
    }

    /// Adds one double (Grow-Expansion with zero elimination).
    pub fn add(&mut self, x: f64) {
        // In place: the i-th output term is written at an index ≤ i.
        let mut q = x;
        let mut kept = 0;
        for i in 0..self.terms.len() {
            let (s, e) = two_sum(q, self.terms[i]);
            if e != 0.0 {
                self.terms[kept] = e;
                kept += 1;
            }
            q = s;
        }
        self.terms.truncate(kept);
        if q != 0.0 {
            self.terms.push(q);
        }
    }

    /// Adds `sign` times the product of the factors, each factor given as
    /// doubles whose exact sum it is (a coordinate, or the two parts of an
    /// [`exact_difference`]). The product is expanded into products of
    /// single doubles (one part per factor), and each of those into exact
    /// pieces by Two-Product: a product of k doubles is at most 2^(k−1)
    /// pieces.
    pub fn add_product(&mut self, sign: f64, factors: &[&[f64]]) {
        self.add_monomials(&[sign], factors);
    }

    /// Adds the products of the doubles whose exact sum is `pieces` with
    /// every choice of one part per factor.
    fn add_monomials(&mut self, pieces: &[f64], factors: &[&[f64]]) {
        let Some((first, rest)) = factors.split_first() else {
            for &piece in pieces {
                if piece != 0.0 {
                    self.add(piece);
                }
            }
            return;
        };
        for &part in first.iter() {
            if part == 0.0 {
                continue;
            }
            let mut next = Vec::with_capacity(2 * pieces.len());
            for &piece in pieces {
                let (p, e) = two_product(piece, part);
                next.push(p);
                if e != 0.0 {
                    next.push(e);
                }
            }
            self.add_monomials(&next, rest);
        }
    }

    /// −1, 0 or 1: the sign of the exact sum (that of its largest term).
    pub fn sign(&self) -> i8 {
        match self.terms.last() {
            Some(&t) if t > 0.0 => 1,
            Some(&t) if t < 0.0 => -1,
            _ => 0,
        }
    }
}

/// One column of a 3 × 3 determinant: either a point difference
/// `p − q` (each coordinate held exactly as two doubles) or a vector of
/// doubles taken as they are.
#[derive(Clone, Copy, Debug)]
pub enum Column {
    Difference(DVec3, DVec3),
    Vector(DVec3),
}

impl Column {
    /// Coordinate `i` as doubles whose exact sum it is.
    fn coordinate(&self, i: usize) -> [f64; 2] {
        match *self {
            Column::Difference(p, q) => exact_difference(p[i], q[i]),
            Column::Vector(v) => [v[i], 0.0],
        }
    }
}

/// The exact sign of det[c0, c1, c2] (columns), −1, 0 or 1.
pub fn determinant_sign(columns: [Column; 3]) -> i8 {
    let mut sum = ExactSum::new();
    add_determinant(&mut sum, 1.0, columns);
    sum.sign()
}

/// Adds `sign` · det[c0, c1, c2] to `sum`, exactly.
pub fn add_determinant(sum: &mut ExactSum, sign: f64, columns: [Column; 3]) {
    // det = Σ over permutations σ of sgn(σ) c0[σ0] c1[σ1] c2[σ2].
    const PERMUTATIONS: [([usize; 3], f64); 6] = [
        ([0, 1, 2], 1.0),
        ([1, 2, 0], 1.0),
        ([2, 0, 1], 1.0),
        ([0, 2, 1], -1.0),
        ([2, 1, 0], -1.0),
        ([1, 0, 2], -1.0),
    ];
    let coordinates: [[[f64; 2]; 3]; 3] =
        columns.map(|c| [c.coordinate(0), c.coordinate(1), c.coordinate(2)]);
    for (rows, parity) in PERMUTATIONS {
        sum.add_product(
            sign * parity,
            &[
                &coordinates[0][rows[0]],
                &coordinates[1][rows[1]],
                &coordinates[2][rows[2]],
            ],
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact integer value of a determinant of integer-valued columns.
    fn det_i128(c: [[i128; 3]; 3]) -> i128 {
        c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1])
            - c[1][0] * (c[0][1] * c[2][2] - c[0][2] * c[2][1])
            + c[2][0] * (c[0][1] * c[1][2] - c[0][2] * c[1][1])
    }

    #[test]
    fn sums_that_cancel_in_floating_point_keep_their_sign() {
        let mut s = ExactSum::new();
        for x in [1e20, 1.0, -1e20] {
            s.add(x);
        }
        assert_eq!(s.sign(), 1);
        assert_eq!(1e20 + 1.0 - 1e20, 0.0);
        let mut s = ExactSum::new();
        s.add_product(1.0, &[&[1.0 + f64::EPSILON], &[1.0 - f64::EPSILON]]);
        s.add(-1.0);
        // (1 + ε)(1 − ε) − 1 = −ε², lost entirely in one f64 product.
        assert_eq!(s.sign(), -1);
        assert_eq!((1.0 + f64::EPSILON) * (1.0 - f64::EPSILON) - 1.0, 0.0);
        let mut s = ExactSum::new();
        s.add(0.5);
        s.add(-0.5);
        assert_eq!(s.sign(), 0);
    }

    #[test]
    fn determinants_of_differences_agree_with_integer_arithmetic() {
        // Large integers with a tiny scale: the coordinates are exact, the
        // differences and products are not representable in one double.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let scale = 2f64.powi(-40);
        for round in 0..2000 {
            let mut int = || (next() % (1 << 40)) as i64 - (1 << 39);
            let mut p: [[i64; 3]; 4] = [[0; 3]; 4];
            for point in &mut p {
                for c in point.iter_mut() {
                    *c = int();
                }
            }
            // Make some configurations exactly degenerate: the fourth
            // point in the plane of the first three (an integer
            // combination p3 = p0 + (p1 − p0) − (p2 − p0)).
            if round % 3 == 0 {
                p[3] = [0, 1, 2].map(|c| p[1][c] - p[2][c] + p[0][c]);
            }
            let as_vec = |q: [i64; 3]| DVec3::new(q[0] as f64, q[1] as f64, q[2] as f64) * scale;
            let cols = [0, 1, 2].map(|i| Column::Difference(as_vec(p[i]), as_vec(p[3])));
            let exact = det_i128([0, 1, 2].map(|i| [0, 1, 2].map(|c| (p[i][c] - p[3][c]) as i128)));
            assert_eq!(
                determinant_sign(cols) as i128,
                exact.signum(),
                "round {round}"
            );
        }
    }

    #[test]
    fn a_vector_column_is_taken_as_it_is() {
        let w = DVec3::new(3.0, -2.0, 0.5);
        let cols = [
            Column::Difference(DVec3::new(1.0, 0.0, 0.0), DVec3::ZERO),
            Column::Difference(DVec3::new(0.0, 1.0, 0.0), DVec3::ZERO),
            Column::Vector(w),
        ];
        // det[x, y, w] = w.z.
        assert_eq!(determinant_sign(cols), 1);
        let cols = [cols[0], cols[1], Column::Vector(DVec3::new(1.0, 1.0, 0.0))];
        assert_eq!(determinant_sign(cols), 0);
    }
}
