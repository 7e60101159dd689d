//! Small dense linear algebra on symmetric 3 × 3 matrices: eigen-decomposition
//! by cyclic Jacobi rotations (Golub and Van Loan, 8.5), used for the
//! least-squares vertex displacement of erosion and for principal inertia.

use glam::{DMat3, DVec3};

/// Eigenvalues (ascending) and matching unit eigenvectors (columns) of a
/// symmetric matrix. Only the symmetric part of `m` is read.
pub fn symmetric_eigen(m: DMat3) -> (DVec3, DMat3) {
    let mut a = [
        [m.x_axis.x, m.y_axis.x, m.z_axis.x],
        [m.x_axis.y, m.y_axis.y, m.z_axis.y],
        [m.x_axis.z, m.y_axis.z, m.z_axis.z],
    ];
    let mut v = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    // Jacobi converges quadratically; 50 sweeps is far beyond what any
    // 3 × 3 matrix needs and bounds the loop for non-finite input.
    for _sweep in 0..50 {
        let off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        let diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
        // NaN compares false both ways: stop on it as on convergence.
        if off.is_nan() || off <= 1e-32 * diag {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if a[p][q] == 0.0 {
                continue;
            }
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let t = if theta == 0.0 { 1.0 } else { t };
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            for row in a.iter_mut() {
                let (akp, akq) = (row[p], row[q]);
                row[p] = c * akp - s * akq;
                row[q] = s * akp + c * akq;
            }
            let (row_p, row_q) = (a[p], a[q]);
            for k in 0..3 {
                a[p][k] = c * row_p[k] - s * row_q[k];
                a[q][k] = s * row_p[k] + c * row_q[k];
            }
            for row in v.iter_mut() {
                let vkp = row[p];
                let vkq = row[q];
                row[p] = c * vkp - s * vkq;
                row[q] = s * vkp + c * vkq;
            }
        }
    }
    let mut order = [0usize, 1, 2];
    order.sort_by(|&i, &j| a[i][i].total_cmp(&a[j][j]));
    let values = DVec3::new(
        a[order[0]][order[0]],
        a[order[1]][order[1]],
        a[order[2]][order[2]],
    );
    let col = |i: usize| DVec3::new(v[0][i], v[1][i], v[2][i]);
    (
        values,
        DMat3::from_cols(col(order[0]), col(order[1]), col(order[2])),
    )
}

/// Moore–Penrose pseudo-inverse of a symmetric matrix, treating eigenvalues
/// below `rel_tol` × the largest one as zero.
pub fn symmetric_pseudo_inverse(m: DMat3, rel_tol: f64) -> DMat3 {
    let (values, vectors) = symmetric_eigen(m);
    let largest = values.abs().max_element();
    let mut inv = DMat3::ZERO;
    for i in 0..3 {
        let lambda = values[i];
        if largest > 0.0 && lambda.abs() > rel_tol * largest {
            let e = vectors.col(i);
            inv += DMat3::from_cols(e * e.x, e * e.y, e * e.z) * (1.0 / lambda);
        }
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eigen_reconstructs_the_matrix() {
        let m = DMat3::from_cols(
            DVec3::new(4.0, 1.0, -2.0),
            DVec3::new(1.0, 3.0, 0.5),
            DVec3::new(-2.0, 0.5, 6.0),
        );
        let (values, vectors) = symmetric_eigen(m);
        let back = vectors * DMat3::from_diagonal(values) * vectors.transpose();
        for i in 0..3 {
            assert!((back.col(i) - m.col(i)).length() < 1e-12);
        }
        assert!(values.x <= values.y && values.y <= values.z);
    }

    #[test]
    fn pseudo_inverse_of_rank_one() {
        let n = DVec3::new(0.0, 2.0, 0.0);
        let m = DMat3::from_cols(n * n.x, n * n.y, n * n.z);
        let p = symmetric_pseudo_inverse(m, 1e-12);
        assert!((p.y_axis.y - 0.25).abs() < 1e-15 && p.x_axis.x.abs() < 1e-15);
    }
}
