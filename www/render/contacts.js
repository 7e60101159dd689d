/**
 * @file Contacts in the 3D view: a small sphere (a cube for a contact whose
 * normal is wrong) at each contact position and an arrow along its normal
 * (A→B), drawn with instancing (one mesh per glyph shape, per-contact
 * position, direction, colour and shape), so the wall's thousand-odd
 * contacts cost three draw calls. Right is blue and wrong is orange: unlike
 * green and red, they stay apart under deuteranopia, protanopia and
 * tritanopia, and the shape tells them apart without colour at all. Contacts hidden inside or
 * behind bodies are drawn faintly first, then the visible ones in full,
 * because the contacts between stacked stones are always hidden by them.
 */

/**
 * Where a contact's fields sit in `contactBuffer()`: `Playground.contactLayout()`,
 * `{stride, position, normal, q, correct, depth, feature, a, b, region, kept_normal, geo}`
 * (offsets in floats; q and correct follow the headline oracle, geo is the geometric
 * oracle's verdict: 1 right, 0.5 indeterminate-right, 0 wrong).
 * @typedef {Record<'stride' | 'position' | 'normal' | 'q' | 'correct' | 'depth' | 'feature' | 'a' | 'b' | 'region' | 'kept_normal' | 'geo', number>} ContactLayout
 */

/** Floats per instance: position 3, direction 3, colour 3, shape 1. */
export const INSTANCE_STRIDE = 10;
/** Glyph shapes (the instance's last float). */
const SPHERE = 0;
const CUBE = 1;
/** A cube reads as big as a sphere when its half-side is a bit under the radius. */
const CUBE_SCALE = 0.9;

const GREY = [0.55, 0.56, 0.6];
const BLUE = [0.1, 0.4, 0.85];
/** The wrong contacts' ramp: deep orange for q ≤ 0 to light orange for q just short of right. */
const DEEP_ORANGE = [0.8, 0.25, 0.0];
const LIGHT_ORANGE = [1.0, 0.7, 0.25];
/** One colour per feature kind, in `featureKinds()` order. */
export const FEATURE_COLOURS = [
  [0.55, 0.2, 0.7], // (V,V)
  [0.93, 0.35, 0.6], // (V,E)
  [0.75, 0.25, 0.45], // (E,V)
  [0.1, 0.45, 0.85], // (V,F)
  [0.2, 0.7, 0.9], // (F,V)
  [0.95, 0.5, 0.05], // (E,E)
  [0.45, 0.7, 0.1], // (E,F)
  [0.2, 0.55, 0.35], // (F,E)
  [0.35, 0.35, 0.4], // (F,F)
];

/**
 * The colour of a contact from the core's verdict: blue when correct,
 * grey when the scene has no oracle, otherwise a ramp from deep orange
 * (q ≤ 0) to light orange (q just short of correct).
 * @param {number} q
 * @param {number} correct 1, 0 or NaN
 * @returns {number[]}
 */
export function qualityColour(q, correct) {
  if (Number.isNaN(correct)) return GREY;
  if (correct === 1) return BLUE;
  const t = Math.min(1, Math.max(0, q));
  return DEEP_ORANGE.map((r, i) => r + (LIGHT_ORANGE[i] - r) * t);
}

/** @param {number[]} c @returns {string} CSS colour */
export function cssColour(c) {
  return `rgb(${c.map((v) => Math.round(v * 255)).join(' ')})`;
}

const VERTEX = `#version 300 es
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec3 iPosition;
layout(location = 3) in vec3 iDirection;
layout(location = 4) in vec3 iColour;
layout(location = 5) in float iShape;
uniform mat4 uViewProjection;
uniform vec3 uScale; // model x, y scale and z (arrow length) scale
uniform float uShape; // the shape this draw call is for; negative: every instance
out vec3 vNormal;
out vec3 vColour;
void main() {
  // A frame whose z axis is the contact normal; the arrow mesh points along z.
  vec3 z = normalize(iDirection);
  vec3 helper = abs(z.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
  vec3 x = normalize(cross(helper, z));
  vec3 y = cross(z, x);
  mat3 basis = mat3(x, y, z);
  vNormal = basis * aNormal;
  vColour = iColour;
  gl_Position = uViewProjection * vec4(iPosition + basis * (aPosition * uScale), 1.0);
  // An instance of another shape is moved outside the clip volume: its
  // triangles are culled, so one buffer serves every shape's draw call.
  if (uShape >= 0.0 && abs(iShape - uShape) > 0.5) gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
}`;

const FRAGMENT = `#version 300 es
precision highp float;
in vec3 vNormal;
in vec3 vColour;
uniform vec3 uLight;
uniform float uAlpha;
out vec4 outColour;
void main() {
  float diffuse = max(dot(normalize(vNormal), uLight), 0.0);
  outColour = vec4(vColour * (0.45 + 0.6 * diffuse), uAlpha);
}`;

/** The instanced sphere-and-arrow glyphs of the current contacts. */
export class ContactGlyphs {
  /**
   * @param {WebGL2RenderingContext} gl
   * @param {(gl: WebGL2RenderingContext, vertex: string, fragment: string) => WebGLProgram} linkProgram
   *   the renderer's shader linker (passed in to keep the imports one-way)
   */
  constructor(gl, linkProgram) {
    this.gl = gl;
    this.program = linkProgram(gl, VERTEX, FRAGMENT);
    this.uniforms = Object.fromEntries(['uViewProjection', 'uScale', 'uLight', 'uAlpha', 'uShape'].map((n) => [n, gl.getUniformLocation(this.program, n)]));
    this.instances = gl.createBuffer();
    this.count = 0;
    this.sphere = this.mesh(sphereMesh());
    this.cube = this.mesh(cubeMesh());
    this.arrow = this.mesh(arrowMesh());
  }

  /**
   * @param {{positions: Float32Array, normals: Float32Array}} geometry
   * @returns {{vao: WebGLVertexArrayObject, count: number}}
   */
  mesh({ positions, normals }) {
    const gl = this.gl;
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    [positions, normals].forEach((data, location) => {
      const buffer = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, 3, gl.FLOAT, false, 0, 0);
    });
    gl.bindBuffer(gl.ARRAY_BUFFER, this.instances);
    for (let i = 0; i < 4; i++) {
      gl.enableVertexAttribArray(2 + i);
      gl.vertexAttribPointer(2 + i, i < 3 ? 3 : 1, gl.FLOAT, false, INSTANCE_STRIDE * 4, i * 12);
      gl.vertexAttribDivisor(2 + i, 1);
    }
    gl.bindVertexArray(null);
    return { vao, count: positions.length / 3 };
  }

  /**
   * Replaces the drawn contacts.
   * @param {Float32Array} instances INSTANCE_STRIDE floats each: position, normal, colour, shape
   */
  setInstances(instances) {
    const gl = this.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.instances);
    gl.bufferData(gl.ARRAY_BUFFER, instances, gl.DYNAMIC_DRAW);
    this.count = instances.length / INSTANCE_STRIDE;
  }

  /**
   * @param {Float32Array} viewProjection
   * @param {number[]} light unit vector towards the light
   * @param {number} radius sphere radius in metres
   * @param {number} length arrow length in metres
   */
  draw(viewProjection, light, radius, length) {
    if (this.count === 0) return;
    const gl = this.gl;
    gl.useProgram(this.program);
    gl.uniformMatrix4fv(this.uniforms.uViewProjection, false, viewProjection);
    gl.uniform3fv(this.uniforms.uLight, light);
    gl.enable(gl.BLEND);
    gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE);
    // First the hidden parts, faint: only where something is in front.
    gl.depthMask(false);
    gl.depthFunc(gl.GREATER);
    gl.uniform1f(this.uniforms.uAlpha, 0.35);
    this.drawGlyphs(radius, length);
    // Then the visible parts, opaque.
    gl.depthMask(true);
    gl.depthFunc(gl.LEQUAL);
    gl.uniform1f(this.uniforms.uAlpha, 1);
    this.drawGlyphs(radius, length);
    gl.disable(gl.BLEND);
  }

  /** @param {number} radius @param {number} length */
  drawGlyphs(radius, length) {
    const gl = this.gl;
    gl.uniform3f(this.uniforms.uScale, radius, radius, radius);
    gl.uniform1f(this.uniforms.uShape, SPHERE);
    gl.bindVertexArray(this.sphere.vao);
    gl.drawArraysInstanced(gl.TRIANGLES, 0, this.sphere.count, this.count);
    const half = radius * CUBE_SCALE;
    gl.uniform3f(this.uniforms.uScale, half, half, half);
    gl.uniform1f(this.uniforms.uShape, CUBE);
    gl.bindVertexArray(this.cube.vao);
    gl.drawArraysInstanced(gl.TRIANGLES, 0, this.cube.count, this.count);
    gl.uniform3f(this.uniforms.uScale, radius, radius, length);
    gl.uniform1f(this.uniforms.uShape, -1);
    gl.bindVertexArray(this.arrow.vao);
    gl.drawArraysInstanced(gl.TRIANGLES, 0, this.arrow.count, this.count);
    gl.bindVertexArray(null);
  }
}

/**
 * A unit sphere as a subdivided octahedron, flat-shaded.
 * @returns {{positions: Float32Array, normals: Float32Array}}
 */
function sphereMesh() {
  const corners = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [-1, 0, 0], [0, -1, 0], [0, 0, -1]];
  let triangles = [];
  for (const sx of [0, 3]) {
    for (const sy of [1, 4]) {
      for (const sz of [2, 5]) triangles.push([corners[sx], corners[sy], corners[sz]]);
    }
  }
  const unit = (v) => {
    const l = Math.hypot(...v);
    return v.map((c) => c / l);
  };
  const mid = (a, b) => unit(a.map((c, i) => c + b[i]));
  for (let level = 0; level < 2; level++) {
    triangles = triangles.flatMap(([a, b, c]) => {
      const ab = mid(a, b);
      const bc = mid(b, c);
      const ca = mid(c, a);
      return [[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]];
    });
  }
  const positions = [];
  const normals = [];
  for (const triangle of triangles) {
    for (const v of triangle) {
      positions.push(...v);
      // Smooth normals: on a unit sphere the position is the normal. The
      // winding does not matter, back faces are not culled.
      normals.push(...v);
    }
  }
  return { positions: new Float32Array(positions), normals: new Float32Array(normals) };
}

/**
 * A cube from −1 to 1, flat-shaded: the glyph of a wrong contact.
 * @returns {{positions: Float32Array, normals: Float32Array}}
 */
function cubeMesh() {
  const positions = [];
  const normals = [];
  for (let axis = 0; axis < 3; axis++) {
    for (const sign of [-1, 1]) {
      const u = (axis + 1) % 3;
      const v = (axis + 2) % 3;
      const corner = (a, b) => {
        const p = [0, 0, 0];
        p[axis] = sign;
        p[u] = a;
        p[v] = b;
        return p;
      };
      const normal = [0, 0, 0];
      normal[axis] = sign;
      for (const p of [corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, -1), corner(1, 1), corner(-1, 1)]) {
        positions.push(...p);
        normals.push(...normal);
      }
    }
  }
  return { positions: new Float32Array(positions), normals: new Float32Array(normals) };
}

/**
 * An arrow along +z from 0 to 1: a thin shaft and a cone head. x and y are
 * in sphere radii, z in arrow lengths (see uScale).
 * @returns {{positions: Float32Array, normals: Float32Array}}
 */
function arrowMesh() {
  const sides = 10;
  const shaft = 0.32;
  const head = 0.85;
  const headStart = 0.7;
  const positions = [];
  const normals = [];
  const push = (p, n) => {
    positions.push(...p);
    normals.push(...n);
  };
  for (let k = 0; k < sides; k++) {
    const a0 = (2 * Math.PI * k) / sides;
    const a1 = (2 * Math.PI * (k + 1)) / sides;
    const c0 = [Math.cos(a0), Math.sin(a0)];
    const c1 = [Math.cos(a1), Math.sin(a1)];
    const n0 = [c0[0], c0[1], 0];
    const n1 = [c1[0], c1[1], 0];
    // Shaft side.
    const s00 = [c0[0] * shaft, c0[1] * shaft, 0];
    const s10 = [c1[0] * shaft, c1[1] * shaft, 0];
    const s01 = [c0[0] * shaft, c0[1] * shaft, headStart];
    const s11 = [c1[0] * shaft, c1[1] * shaft, headStart];
    push(s00, n0); push(s10, n1); push(s11, n1);
    push(s00, n0); push(s11, n1); push(s01, n0);
    // Cone head and its base disc.
    const h0 = [c0[0] * head, c0[1] * head, headStart];
    const h1 = [c1[0] * head, c1[1] * head, headStart];
    const tip = [0, 0, 1];
    const coneNormal = (c) => [c[0] * 0.8, c[1] * 0.8, 0.6];
    push(h0, coneNormal(c0)); push(h1, coneNormal(c1)); push(tip, coneNormal([(c0[0] + c1[0]) / 2, (c0[1] + c1[1]) / 2]));
    push(h1, [0, 0, -1]); push(h0, [0, 0, -1]); push([0, 0, headStart], [0, 0, -1]);
  }
  return { positions: new Float32Array(positions), normals: new Float32Array(normals) };
}

/**
 * The instances to draw for the current contacts: each moved with its body A
 * by the explode offsets, filtered and coloured as the view asks.
 * @param {Float32Array} contacts `contactBuffer()`
 * @param {ContactLayout} layout `contactLayout()`
 * @param {Float32Array} offsets 3 floats per body (explode)
 * @param {{onlyWrong: boolean, featureColours: boolean}} options
 * @returns {{instances: Float32Array, indices: number[]}} indices: contact index of each instance
 */
export function contactInstances(contacts, layout, offsets, { onlyWrong, featureColours }) {
  const count = contactCount(contacts, layout);
  const instances = new Float32Array(count * INSTANCE_STRIDE);
  const indices = [];
  for (let i = 0; i < count; i++) {
    const c = contacts.subarray(i * layout.stride, (i + 1) * layout.stride);
    const q = c[layout.q];
    const correct = c[layout.correct];
    const feature = c[layout.feature];
    const bodyA = c[layout.a];
    // "Wrong" is the core's verdict; without an oracle nothing is wrong.
    if (onlyWrong && correct !== 0) continue;
    const o = indices.length * INSTANCE_STRIDE;
    const offset = offsets.subarray(bodyA * 3, bodyA * 3 + 3);
    for (let k = 0; k < 3; k++) instances[o + k] = c[layout.position + k] + (offset[k] ?? 0);
    instances.set(c.subarray(layout.normal, layout.normal + 3), o + 3);
    instances.set(featureColours ? (FEATURE_COLOURS[feature] ?? GREY) : qualityColour(q, correct), o + 6);
    // The shape says "wrong" in feature colouring too.
    instances[o + 9] = correct === 0 ? CUBE : SPHERE;
    indices.push(i);
  }
  return { instances: instances.subarray(0, indices.length * INSTANCE_STRIDE), indices };
}

/**
 * @param {Float32Array} contacts `contactBuffer()`
 * @param {ContactLayout} layout
 * @returns {number} how many contacts the buffer holds
 */
export function contactCount(contacts, layout) {
  return Math.floor(contacts.length / layout.stride);
}
