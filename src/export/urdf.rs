//! The `urdf` export, for PyBullet: one URDF file per body (`<robot>` with
//! one `<link>`: `<inertial>`, `<visual>`, `<collision>`, `<contact>`), its
//! meshes as OBJ files in the body frame under `meshes/`, and a manifest,
//! `bodies.csv`, with every body's URDF file, whether it is fixed, its pose
//! and velocities, and in its comment lines the gravity and the time step
//! (URDF has no place for them).
//!
//! - The link frame is our body frame: origin at the centre of mass, so the
//!   `<inertial>` origin is zero; the inertia is ours, all six entries.
//! - A fixed body has mass 0 (PyBullet's static body) and `fixed` 1 in the
//!   manifest (load it with `useFixedBase`).
//! - Collision shapes: PyBullet makes a mesh's convex hull; so a convex
//!   body (every B-rep edge convex) is one mesh, its surface. A fixed
//!   non-convex body is its surface as PyBullet's static triangle mesh
//!   (`concave="yes"`, its own extension of URDF); a free non-convex body is
//!   one collision element per convex piece (`export::pieces`).
//! - Friction: Bullet multiplies the two bodies' lateral friction, so each
//!   link gets √μ and every pair μ. A pair's own μ (`friction_pairs`) has
//!   no place in URDF; the manifest's comments list those pairs, and the
//!   client sets nothing for them (left out, said in the header).
//! - Everything else is Bullet's default (its collision margins included).

use super::obj::obj_text;
use super::pieces::{body_surface, convex_pieces};
use super::{num, vec3, xml_comment, xml_escape, Export, ExportFile, Format};
use crate::geometry::Pose;
use glam::{DQuat, DVec3};

pub static FORMAT: Format = Format {
    id: "urdf",
    purpose: "PyBullet (Bullet)",
    summary: "one URDF per body (<body>.urdf) with OBJ meshes in the body frame (meshes/), our masses and inertias, fixed bodies with mass 0, and bodies.csv: every body's URDF, fixed flag, pose and velocities, gravity and time step in its comments",
    write,
};

fn write(export: &Export) -> Vec<ExportFile> {
    let stems = export.file_stems();
    let notes = friction_notes(export);
    let mut files = Vec::new();
    let mut manifest = manifest_header(export, &notes);
    for (i, body) in export.scene.bodies.iter().enumerate() {
        let stem = &stems[i];
        let header = export.header("urdf, PyBullet", &notes);
        let mut body_header = header.clone();
        body_header.push(format!(
            "this file: body \"{}\", body frame (origin at its centre of mass)",
            body.name
        ));
        let link = link_meshes(export, i, stem, &body_header, &mut files);
        let urdf_path = format!("{stem}.urdf");
        files.push(ExportFile {
            path: urdf_path.clone(),
            text: urdf_text(export, i, header, &link),
        });
        manifest.push_str(&manifest_row(export, i, &urdf_path));
    }
    files.push(ExportFile {
        path: "bodies.csv".to_string(),
        text: manifest,
    });
    files
}

/// The friction lines of every file's header: √μ per link, and the pairs
/// with a μ of their own, which URDF cannot say.
fn friction_notes(export: &Export) -> Vec<String> {
    let scene = export.scene;
    let mu = export.friction();
    let mut notes = vec![format!(
        "friction: lateral friction √μ = {} per link, so that Bullet's product gives every pair μ = {}",
        num(mu.sqrt()),
        num(mu)
    )];
    for (a, b, pair_mu) in export.friction_pairs() {
        notes.push(format!(
            "left out: the pair \"{}\", \"{}\" has μ = {} of its own, which URDF cannot say",
            scene.bodies[a].name,
            scene.bodies[b].name,
            num(pair_mu)
        ));
    }
    notes
}

/// `bodies.csv` up to its first row: the header as comments, gravity and
/// time step, the column names.
fn manifest_header(export: &Export, notes: &[String]) -> String {
    let mut manifest = String::new();
    for line in export.header("urdf, PyBullet manifest", notes) {
        manifest.push_str(&format!("# {line}\n"));
    }
    manifest.push_str(&format!("# gravity: {}\n", vec3(export.scene.gravity)));
    manifest.push_str(&format!("# timestep: {}\n", num(export.dt)));
    manifest.push_str("name,urdf,fixed,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n");
    manifest
}

/// The meshes one body's link names: its surface (the visual), the
/// collision meshes, and whether the collision is a static concave mesh.
struct LinkMeshes {
    surface_path: String,
    collision_paths: Vec<String>,
    pieces: usize,
    concave_static: bool,
}

/// Writes body `i`'s OBJ files (its surface, and its convex pieces when it
/// is free and not convex) to `files`; says which the link uses.
fn link_meshes(
    export: &Export,
    i: usize,
    stem: &str,
    body_header: &[String],
    files: &mut Vec<ExportFile>,
) -> LinkMeshes {
    let body = &export.scene.bodies[i];
    let mesh = export.mesh(i);
    let surface_path = format!("meshes/{stem}.obj");
    files.push(ExportFile {
        path: surface_path.clone(),
        text: obj_text(
            body_header,
            &body.name,
            &body_surface(mesh),
            DVec3::ZERO,
            DQuat::IDENTITY,
        ),
    });
    let pieces = convex_pieces(mesh);
    let concave_static = pieces.len() > 1 && body.fixed;
    let collision_paths: Vec<String> = if pieces.len() == 1 || concave_static {
        vec![surface_path.clone()]
    } else {
        pieces
            .iter()
            .enumerate()
            .map(|(k, piece)| {
                let path = format!("meshes/{stem}-piece-{k}.obj");
                let mut piece_header = body_header.to_vec();
                piece_header.push(format!("convex piece {k} of {}", pieces.len()));
                files.push(ExportFile {
                    path: path.clone(),
                    text: obj_text(
                        &piece_header,
                        &body.name,
                        piece,
                        DVec3::ZERO,
                        DQuat::IDENTITY,
                    ),
                });
                path
            })
            .collect()
    };
    LinkMeshes {
        surface_path,
        collision_paths,
        pieces: pieces.len(),
        concave_static,
    }
}

/// Body `i`'s URDF file: a robot of one link with its contact friction,
/// inertial, visual and collision elements, `header` as its comment.
fn urdf_text(export: &Export, i: usize, header: Vec<String>, link: &LinkMeshes) -> String {
    let body = &export.scene.bodies[i];
    let mu = export.friction();
    let mut body_notes = header;
    body_notes.push(match (link.pieces, link.concave_static) {
        (1, _) => "collision: the body's surface (convex)".to_string(),
        (_, true) => "collision: the body's surface as a static triangle mesh (concave=\"yes\"), the body being fixed and not convex".to_string(),
        (n, false) => format!("collision: {n} convex pieces of the body's own tetrahedra, the body being free and not convex"),
    });
    let mut x = String::from("<?xml version=\"1.0\"?>\n");
    x.push_str(&xml_comment(&body_notes));
    let concave = if link.concave_static {
        " concave=\"yes\""
    } else {
        ""
    };
    x.push_str(&format!(
        "<robot name=\"{}\">\n  <link name=\"body\"{concave}>\n",
        xml_escape(&body.name)
    ));
    x.push_str(&format!(
        "    <contact>\n      <lateral_friction value=\"{}\"/>\n    </contact>\n",
        num(mu.sqrt())
    ));
    let m = body.mass.inertia;
    let mass = if body.fixed { 0.0 } else { body.mass.mass };
    x.push_str(&format!(
        "    <inertial>\n      <origin xyz=\"0 0 0\" rpy=\"0 0 0\"/>\n      <mass value=\"{}\"/>\n      <inertia ixx=\"{}\" ixy=\"{}\" ixz=\"{}\" iyy=\"{}\" iyz=\"{}\" izz=\"{}\"/>\n    </inertial>\n",
        num(mass),
        num(m.x_axis.x),
        num(m.y_axis.x),
        num(m.z_axis.x),
        num(m.y_axis.y),
        num(m.z_axis.y),
        num(m.z_axis.z)
    ));
    x.push_str(&format!(
        "    <visual>\n      <origin xyz=\"0 0 0\" rpy=\"0 0 0\"/>\n      <geometry>\n        <mesh filename=\"{}\"/>\n      </geometry>\n    </visual>\n",
        xml_escape(&link.surface_path)
    ));
    for path in &link.collision_paths {
        x.push_str(&format!(
            "    <collision{concave}>\n      <origin xyz=\"0 0 0\" rpy=\"0 0 0\"/>\n      <geometry>\n        <mesh filename=\"{}\"/>\n      </geometry>\n    </collision>\n",
            xml_escape(path)
        ));
    }
    x.push_str("  </link>\n</robot>\n");
    x
}

/// Body `i`'s row of `bodies.csv`: name, URDF file, fixed flag, pose and
/// velocities.
fn manifest_row(export: &Export, i: usize, urdf_path: &str) -> String {
    let body = &export.scene.bodies[i];
    let Pose { position, rotation } = export.poses[i];
    let q = rotation.normalize();
    let (v, w) = export.velocities[i];
    format!(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
        csv_field(&body.name),
        csv_field(urdf_path),
        u8::from(body.fixed),
        num(position.x),
        num(position.y),
        num(position.z),
        num(q.w),
        num(q.x),
        num(q.y),
        num(q.z),
        num(v.x),
        num(v.y),
        num(v.z),
        num(w.x),
        num(w.y),
        num(w.z)
    )
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}
