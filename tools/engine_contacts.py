#!/usr/bin/env python3
"""Contacts of real engines on a ContactLab scene: MuJoCo and PyBullet.

Given a directory written by `contactlab export` (`--format mjcf` for
MuJoCo, `--format urdf` for PyBullet), this loads the model in the engine,
records the engine's contacts at the exported pose (step 0: collision
detection only, no step), takes 3 of the engine's own steps (its own solver
and integrator), records its contacts again at the pose it reached (step 3),
and writes into the same directory

- contacts.csv: the contact file format contactlab-contacts/1 (README,
  "Scenes out, contacts in"), with `# poses: poses.csv`, and the optional
  columns engine (the library that ran and its version: "MuJoCo 3.14.0",
  "PyBullet 3.2.7 (Bullet 3.26)") and note;
- poses.csv: every body's pose at steps 0 and 3 (`step,body,x,y,z,qw,qx,qy,qz`,
  the body frame's origin, which the export puts at the centre of mass).

    python3 tools/engine_contacts.py --mjcf pillar-mjcf
    python3 tools/engine_contacts.py --urdf pillar-urdf [--contacts FILE --poses FILE]

Conventions: ours, a normal from body_a to body_b and a depth that is
negative when the bodies penetrate. The exported models keep our world
frame and set gravity explicitly, so nothing changes axes.

- MuJoCo: a contact's frame[:3] points from geom1 to geom2 and dist < 0
  means penetration, so body_a is geom1's body, body_b geom2's, the normal
  is frame[:3] and the depth dist, as they are. The position is MuJoCo's
  (midway between the two surfaces). Step 0 contacts come from mj_forward
  at the exported pose (keyframe 0 carries the velocities); step 3 contacts
  from mj_forward after three mj_step calls (mj_step's own contacts belong
  to the pose before its integration).
- PyBullet: getContactPoints' contactNormalOnB points from B towards A
  (PyBullet quickstart guide; checked on a box resting on a ground: the
  normal on the ground body B points up, into the box A), so body_a is A,
  body_b is B and the normal is minus contactNormalOnB; contactDistance is
  negative when penetrating, as ours. The position is the midpoint of
  positionOnA and positionOnB. Step 0: performCollisionDetection, no step;
  step 3: three stepSimulation calls, then performCollisionDetection at the
  pose reached.

The engines' defaults everywhere, with these deviations, each needed to
reproduce the scene:

- MuJoCo: none beyond what the model file says (timestep, gravity, our
  masses and inertias, the scene's sliding friction; see its header).
- PyBullet: loadURDF with URDF_USE_INERTIA_FROM_FILE (without it PyBullet
  recomputes the inertia from the collision shapes and ignores ours);
  setGravity and setTimeStep from the manifest; useFixedBase for fixed
  bodies; resetBaseVelocity with the exported velocities. Bullet keeps
  contact points up to its contact breaking threshold apart, so some of its
  contacts have a positive depth; they are kept as it reports them.

A model that fails to load (or an engine error) writes a contacts file with
no rows and a `# failed:` comment saying why, and exits with status 1.

Standard library, numpy and the engine packages only (tools/requirements.txt).
"""

import argparse
import csv
import importlib.metadata
import math
import os
import re
import sys
import tempfile

FORMAT_LINE = "# contactlab-contacts/1"
HEADER = ["step", "body_a", "body_b", "x", "y", "z", "nx", "ny", "nz", "depth", "engine", "note"]
OWN_STEPS = 3


def num(x):
    """A float written so that it reads back the same."""
    x = float(x)
    return "0" if x == 0.0 else repr(x)


def unit(v):
    length = math.sqrt(sum(c * c for c in v))
    return [c / length for c in v] if length > 0 else list(v)


def export_header(path):
    """The export's header lines (export, scene, pose, bodies), without
    comment markers."""
    with open(path, encoding="utf-8") as f:
        head = [next(f, "") for _ in range(16)]
    stripped = [line.strip().lstrip("#").strip() for line in head]
    for i, line in enumerate(stripped):
        if line.startswith("ContactLab export"):
            return stripped[i : i + 4]
    return []


# ---------------------------------------------------------------- MuJoCo


def mujoco_run(directory):
    import mujoco

    engine = f"MuJoCo {mujoco.__version__}"
    model = mujoco.MjModel.from_xml_path(os.path.join(directory, "model.xml"))
    data = mujoco.MjData(model)
    if model.nkey > 0:
        mujoco.mj_resetDataKeyframe(model, data, 0)
    names = [mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_BODY, b) for b in range(model.nbody)]
    geom_names = [mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_GEOM, g) for g in range(model.ngeom)]

    def contacts(step):
        rows = []
        for c in data.contact[: data.ncon]:
            g1, g2 = int(c.geom1), int(c.geom2)
            a, b = int(model.geom_bodyid[g1]), int(model.geom_bodyid[g2])
            normal = unit(c.frame[:3])
            rows.append([step, names[a], names[b], *c.pos, *normal, c.dist, engine,
                         f"geoms {geom_names[g1]} {geom_names[g2]}"])
        return rows

    def poses(step):
        return [[step, names[b], *data.xpos[b], *data.xquat[b]] for b in range(1, model.nbody)]

    mujoco.mj_forward(model, data)
    rows, pose_rows = contacts(0), poses(0)
    for _ in range(OWN_STEPS):
        mujoco.mj_step(model, data)
    mujoco.mj_forward(model, data)
    rows += contacts(OWN_STEPS)
    pose_rows += poses(OWN_STEPS)
    return engine, rows, pose_rows


# ---------------------------------------------------------------- PyBullet


def read_manifest(directory):
    settings, bodies = {}, []
    with open(os.path.join(directory, "bodies.csv"), encoding="utf-8", newline="") as f:
        lines = []
        for line in f:
            if line.startswith("#"):
                key, _, value = line[1:].partition(":")
                if key.strip() in ("gravity", "timestep"):
                    settings[key.strip()] = [float(x) for x in value.split()]
            else:
                lines.append(line)
        for row in csv.DictReader(lines):
            bodies.append(row)
    return settings["gravity"], settings["timestep"][0], bodies


def bundled_bullet_version(pybullet):
    """The version of the Bullet library PyBullet bundles ("3.26"), read from
    the header of an empty world it serialises ("BULLETd-v326"): PyBullet's
    own version (3.2.7) is its package's, and no call of its API returns
    the library's."""
    client = pybullet.connect(pybullet.DIRECT)
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "empty.bullet")
            pybullet.saveBullet(path, physicsClientId=client)
            with open(path, "rb") as f:
                header = f.read(12)
    finally:
        pybullet.disconnect(client)
    match = re.fullmatch(rb"BULLET[fd][-_]v(\d)(\d\d)", header)
    if not match:
        raise RuntimeError(f"PyBullet wrote a .bullet file with the unknown header {header!r}")
    return f"{int(match[1])}.{int(match[2])}"


def bullet_run(directory):
    import pybullet

    # The rows name the library that ran and its version, as the page's
    # engines do: PyBullet's package and the Bullet inside it.
    package = importlib.metadata.version("pybullet")
    engine = f"PyBullet {package} (Bullet {bundled_bullet_version(pybullet)})"
    gravity, dt, bodies = read_manifest(directory)
    client = pybullet.connect(pybullet.DIRECT)
    try:
        pybullet.setGravity(*gravity, physicsClientId=client)
        pybullet.setTimeStep(dt, physicsClientId=client)
        ids = {}
        for row in bodies:
            f = lambda k: float(row[k])
            uid = pybullet.loadURDF(
                os.path.join(directory, row["urdf"]),
                basePosition=[f("x"), f("y"), f("z")],
                baseOrientation=[f("qx"), f("qy"), f("qz"), f("qw")],
                useFixedBase=row["fixed"] == "1",
                flags=pybullet.URDF_USE_INERTIA_FROM_FILE,
                physicsClientId=client,
            )
            if row["fixed"] != "1":
                pybullet.resetBaseVelocity(uid, [f("vx"), f("vy"), f("vz")],
                                           [f("wx"), f("wy"), f("wz")], physicsClientId=client)
            ids[uid] = row["name"]

        def contacts(step):
            pybullet.performCollisionDetection(physicsClientId=client)
            rows = []
            for c in pybullet.getContactPoints(physicsClientId=client):
                a, b = ids[c[1]], ids[c[2]]
                on_a, on_b, normal_on_b, distance = c[5], c[6], c[7], c[8]
                position = [(p + q) / 2 for p, q in zip(on_a, on_b)]
                normal = unit([-n for n in normal_on_b])
                rows.append([step, a, b, *position, *normal, distance, engine, ""])
            return rows

        def poses(step):
            # getBasePositionAndOrientation gives the base's inertial frame,
            # which Bullet turns to the inertia's principal axes; our body
            # frame is the URDF link frame: undo the local inertial frame.
            out = []
            for uid, name in ids.items():
                p, q = pybullet.getBasePositionAndOrientation(uid, physicsClientId=client)
                info = pybullet.getDynamicsInfo(uid, -1, physicsClientId=client)
                inverse_p, inverse_q = pybullet.invertTransform(info[3], info[4])
                p, q = pybullet.multiplyTransforms(p, q, inverse_p, inverse_q)
                out.append([step, name, *p, q[3], q[0], q[1], q[2]])
            return out

        rows, pose_rows = contacts(0), poses(0)
        for _ in range(OWN_STEPS):
            pybullet.stepSimulation(physicsClientId=client)
        rows += contacts(OWN_STEPS)
        pose_rows += poses(OWN_STEPS)
        return engine, rows, pose_rows
    finally:
        pybullet.disconnect(physicsClientId=client)


# ---------------------------------------------------------------- output


def write(contacts_path, poses_path, header, rows, pose_rows, failure=None):
    poses_name = os.path.relpath(poses_path, os.path.dirname(os.path.abspath(contacts_path)))
    with open(contacts_path, "w", encoding="utf-8", newline="") as f:
        f.write(FORMAT_LINE + "\n")
        for line in header:
            f.write(f"# {line}\n")
        if failure is not None:
            f.write(f"# failed: {failure}\n")
        else:
            f.write(f"# poses: {poses_name}\n")
        f.write(",".join(HEADER) + "\n")
        out = csv.writer(f, lineterminator="\n")
        for r in rows:
            out.writerow([r[0], r[1], r[2], *[num(x) for x in r[3:10]], r[10], r[11]])
    if failure is None:
        with open(poses_path, "w", encoding="utf-8", newline="") as f:
            f.write("step,body,x,y,z,qw,qx,qy,qz\n")
            out = csv.writer(f, lineterminator="\n")
            for r in pose_rows:
                out.writerow([r[0], r[1], *[num(x) for x in r[2:]]])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--mjcf", metavar="DIR", help="a `contactlab export --format mjcf` directory (MuJoCo)")
    which.add_argument("--urdf", metavar="DIR", help="a `contactlab export --format urdf` directory (PyBullet)")
    parser.add_argument("--contacts", metavar="FILE", help="where to write the contacts (default DIR/contacts.csv)")
    parser.add_argument("--poses", metavar="FILE", help="where to write the poses (default DIR/poses.csv)")
    args = parser.parse_args()
    directory = args.mjcf or args.urdf
    contacts_path = args.contacts or os.path.join(directory, "contacts.csv")
    poses_path = args.poses or os.path.join(directory, "poses.csv")
    exported = os.path.join(directory, "model.xml" if args.mjcf else "bodies.csv")
    if not os.path.isfile(exported):
        print(f"engine_contacts: {exported}: no such file; run contactlab export first", file=sys.stderr)
        return 2
    header = export_header(exported)
    try:
        engine, rows, pose_rows = mujoco_run(directory) if args.mjcf else bullet_run(directory)
    except Exception as error:  # the engine's own errors: a model it refuses
        message = " ".join(str(error).split())
        write(contacts_path, poses_path, header, [], [], failure=message)
        print(f"engine_contacts: {directory}: {message}", file=sys.stderr)
        return 1
    header = header + [f"engine: {engine}; {OWN_STEPS} own steps; contacts at steps 0 and {OWN_STEPS}"]
    write(contacts_path, poses_path, header, rows, pose_rows)
    print(f"{contacts_path}: {len(rows)} contacts ({engine})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
