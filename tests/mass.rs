//! Mass, centre of mass and inertia from the tetrahedra equal their closed
//! forms for a box, a square pyramid, a wedge and a hexagonal frustum, to
//! 1e-12 relative, also after refinement (which must not change them).

use contactlab::mesh::refine::refine;
use contactlab::mesh::shapes::{Cuboid, Frustum, Pyramid, Shape, Wedge};
use contactlab::mesh::MassProperties;
use glam::{DMat3, DVec3};

const RHO: f64 = 2000.0;

fn assert_close(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() <= 1e-12 * want.abs().max(1e-300),
        "{what}: got {got}, want {want}, rel {:e}",
        (got - want).abs() / want.abs()
    );
}

fn check(shape: Shape, mass: f64, centre: DVec3, inertia_diagonal: DVec3) {
    let mesh = shape.build(1e-6).unwrap();
    for (label, mesh) in [
        ("coarse", mesh.clone()),
        ("refined", refine(&mesh, 1e-6).unwrap()),
    ] {
        let props = MassProperties::of_mesh(&mesh, RHO);
        let what = format!("{shape:?} {label}");
        assert_close(&format!("{what} mass"), props.mass, mass);
        // The centre's coordinates can be zero: compare against the size.
        let size = inertia_diagonal.max_element().sqrt();
        assert!(
            (props.centre - centre).length() <= 1e-12 * size.max(1.0),
            "{what} centre: {} vs {centre}",
            props.centre
        );
        let diag = DVec3::new(
            props.inertia.x_axis.x,
            props.inertia.y_axis.y,
            props.inertia.z_axis.z,
        );
        for k in 0..3 {
            assert_close(&format!("{what} I[{k}{k}]"), diag[k], inertia_diagonal[k]);
        }
        let off = DMat3::from_diagonal(diag) - props.inertia;
        let off_max = off
            .to_cols_array()
            .iter()
            .fold(0.0_f64, |m, x| m.max(x.abs()));
        assert!(
            off_max <= 1e-12 * inertia_diagonal.max_element(),
            "{what}: products of inertia {off_max:e}"
        );
    }
}

#[test]
fn box_closed_form() {
    let (a, b, c) = (0.5, 0.21, 0.7);
    let m = RHO * a * b * c;
    check(
        Shape::from(Cuboid {
            size: DVec3::new(a, b, c),
        }),
        m,
        DVec3::ZERO,
        DVec3::new(
            m * (b * b + c * c),
            m * (a * a + c * c),
            m * (a * a + b * b),
        ) / 12.0,
    );
}

#[test]
fn square_pyramid_closed_form() {
    // Base side s = 2b, height h: V = s²h/3, centre h/4 above the base,
    // I_axis = m s²/10, I_transverse = m (s²/20 + 3h²/80).
    let (b, h) = (0.8, 2.4);
    let s = 2.0 * b;
    let m = RHO * s * s * h / 3.0;
    let transverse = m * (s * s / 20.0 + 3.0 * h * h / 80.0);
    check(
        Shape::from(Pyramid {
            half_width: b,
            height: h,
        }),
        m,
        DVec3::new(0.0, h / 4.0, 0.0),
        DVec3::new(transverse, m * s * s / 10.0, transverse),
    );
}

#[test]
fn wedge_closed_form() {
    // Triangle (±b, 0), (0, h) extruded over z ∈ [−l, l]. Per unit mass the
    // triangle gives ⟨x²⟩ = b²/6 and central ⟨y²⟩ = h²/18; z gives l²/3.
    let (b, h, l) = (0.8, 2.4, 1.6);
    let m = RHO * b * h * 2.0 * l;
    let (xx, yy, zz) = (b * b / 6.0, h * h / 18.0, l * l / 3.0);
    check(
        Shape::from(Wedge {
            half_width: b,
            height: h,
            half_length: l,
        }),
        m,
        DVec3::new(0.0, h / 3.0, 0.0),
        DVec3::new(m * (yy + zz), m * (xx + zz), m * (xx + yy)),
    );
}

#[test]
fn hexagonal_frustum_closed_form() {
    // A regular n-gon of circumradius r has area A = k r², k = (n/2) sin(2π/n),
    // and in-plane second moments ∫x² = ∫z² = A r² (2 + cos(2π/n)) / 12.
    // With r(y) linear from r0 to r1 over the height, every integral below is
    // a polynomial of degree ≤ 5 in y, which 3-point Gauss–Legendre
    // quadrature integrates exactly.
    let (n, r0, r1, h) = (
        6.0_f64,
        0.2_f64,
        0.18333333333333333_f64,
        0.9333333333333333_f64,
    );
    let theta = std::f64::consts::TAU / n;
    let k = 0.5 * n * theta.sin();
    let c = (2.0 + theta.cos()) / 12.0;
    let r = |y: f64| r0 + (r1 - r0) * y / h;
    let gauss = |f: &dyn Fn(f64) -> f64| {
        let (x, w) = (
            [-(0.6_f64).sqrt(), 0.0, (0.6_f64).sqrt()],
            [5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0],
        );
        (0..3)
            .map(|i| w[i] * f(0.5 * h * (x[i] + 1.0)))
            .sum::<f64>()
            * 0.5
            * h
    };
    let volume = gauss(&|y| k * r(y).powi(2));
    let y_bar = gauss(&|y| y * k * r(y).powi(2)) / volume;
    let m = RHO * volume;
    let in_plane = RHO * gauss(&|y| k * c * r(y).powi(4)); // ∫x² dV = ∫z² dV
    let along_axis = RHO * gauss(&|y| (y - y_bar).powi(2) * k * r(y).powi(2));
    check(
        Shape::from(Frustum {
            sides: 6,
            bottom_radius: r0,
            top_radius: r1,
            height: h,
        }),
        m,
        DVec3::new(0.0, y_bar, 0.0),
        DVec3::new(in_plane + along_axis, 2.0 * in_plane, in_plane + along_axis),
    );
}
