/**
 * @file WebGL2 renderer for the bodies of a scene: flat-shaded solids with
 * their surface wireframe on top, or the wireframe alone, or the
 * tetrahedron edges; then the outlines of the contact regions of a region
 * method (regions.js), and the contacts (contacts.js). Geometry arrives in body frames and stays on the GPU;
 * each frame only uploads one world-from-body matrix per body, so moving
 * bodies later costs 16 floats each.
 */

import { ContactGlyphs } from './contacts.js';
import { RegionOutlines } from './regions.js';
import { cross, normalize, scale, add } from './math.js';

/** @typedef {'solid' | 'wireframe' | 'tetrahedra'} ViewMode */

/**
 * Render buffers of one body, all in its body frame.
 * @typedef {object} BodyMesh
 * @property {boolean} fixed
 * @property {Float32Array} triangles 9 floats per surface triangle
 * @property {Float32Array} normals 3 floats per surface triangle
 * @property {Float32Array} edges 6 floats per surface edge
 * @property {Float32Array} tetEdges 6 floats per tetrahedron edge
 */

const BACKGROUND = [0.925, 0.933, 0.945];
const FIXED_COLOUR = [0.6, 0.62, 0.64];
// Warm stone tones so neighbouring free bodies stay distinguishable.
const STONE_COLOURS = [
  [0.84, 0.7, 0.52], // sandstone
  [0.74, 0.5, 0.38], // terracotta
  [0.87, 0.81, 0.69], // limestone
  [0.79, 0.6, 0.4], // ochre
  [0.76, 0.6, 0.56], // rose granite
  [0.7, 0.63, 0.5], // tuff
];
const SOLID_EDGE_COLOUR = [0.16, 0.14, 0.12, 0.5];

const SOLID_VERTEX = `#version 300 es
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
uniform mat4 uViewProjection;
uniform mat4 uModel;
out vec3 vNormal;
void main() {
  // Body transforms are rigid, so the upper 3x3 also rotates normals.
  vNormal = mat3(uModel) * aNormal;
  gl_Position = uViewProjection * uModel * vec4(aPosition, 1.0);
}`;

const SOLID_FRAGMENT = `#version 300 es
precision highp float;
in vec3 vNormal;
uniform vec3 uColour;
uniform vec3 uLight;
uniform vec3 uFill;
uniform vec3 uUp;
out vec4 outColour;
void main() {
  vec3 n = normalize(vNormal);
  float diffuse = max(dot(n, uLight), 0.0);
  // Hemisphere ambient: faces turned to the sky are a little brighter, so
  // faces the key light misses still read as distinct planes.
  float sky = 0.5 + 0.5 * dot(n, uUp);
  // A weak fill from the other side keeps faces turned from the key
  // light from going flat black.
  float fill = max(dot(n, uFill), 0.0);
  outColour = vec4(uColour * (0.3 + 0.12 * sky + 0.58 * diffuse + 0.2 * fill), 1.0);
}`;

const LINE_VERTEX = `#version 300 es
layout(location = 0) in vec3 aPosition;
uniform mat4 uViewProjection;
uniform mat4 uModel;
void main() {
  gl_Position = uViewProjection * uModel * vec4(aPosition, 1.0);
}`;

const LINE_FRAGMENT = `#version 300 es
precision highp float;
uniform vec4 uColour;
out vec4 outColour;
void main() {
  outColour = uColour;
}`;

const IDENTITY = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

/** Draws the bodies and contacts of one scene into a WebGL2 canvas. */
export class Renderer {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {WebGL2RenderingContext} gl
   */
  constructor(canvas, gl) {
    this.canvas = canvas;
    this.gl = gl;
    this.solidProgram = linkProgram(gl, SOLID_VERTEX, SOLID_FRAGMENT);
    this.lineProgram = linkProgram(gl, LINE_VERTEX, LINE_FRAGMENT);
    this.solidUniforms = uniformLocations(gl, this.solidProgram, ['uViewProjection', 'uModel', 'uColour', 'uLight', 'uFill', 'uUp']);
    this.lineUniforms = uniformLocations(gl, this.lineProgram, ['uViewProjection', 'uModel', 'uColour']);
    /** @type {ViewMode} */
    this.viewMode = 'solid';
    /** @type {Array<{colour: number[], solid: GpuMesh, edges: GpuMesh, tetEdges: GpuMesh}>} */
    this.bodies = [];
    this.transforms = new Float32Array(0);
    this.contacts = new ContactGlyphs(gl, linkProgram);
    this.regions = new RegionOutlines(gl, linkProgram);
    /** Width of the region outlines relative to their normal size (presentation mode). */
    this.regionScale = 1;
    /** Contact glyph sizes in metres, set from the scene's size. */
    this.contactRadius = 0.02;
    this.contactLength = 0.15;
    /** The last frame's projection × view, for picking what is drawn. */
    this.viewProjection = new Float32Array(16);
  }

  /**
   * Replaces the drawn contacts.
   * @param {Float32Array} instances see contacts.js
   */
  setContacts(instances) {
    this.contacts.setInstances(instances);
  }

  /**
   * Replaces the drawn region outlines.
   * @param {Float32Array} vertices see regions.js
   */
  setRegions(vertices) {
    this.regions.setVertices(vertices);
  }

  /**
   * Replaces the drawn bodies.
   * @param {BodyMesh[]} bodies
   * @param {Float32Array} transforms 16 floats per body, column-major world-from-body
   */
  setScene(bodies, transforms) {
    const gl = this.gl;
    for (const body of this.bodies) {
      for (const mesh of [body.solid, body.edges, body.tetEdges]) deleteMesh(gl, mesh);
    }
    let freeIndex = 0;
    this.bodies = bodies.map((body) => ({
      colour: body.fixed ? FIXED_COLOUR : STONE_COLOURS[freeIndex++ % STONE_COLOURS.length],
      solid: uploadMesh(gl, body.triangles, perVertexNormals(body.normals, body.triangles.length / 9)),
      edges: uploadMesh(gl, body.edges),
      tetEdges: uploadMesh(gl, body.tetEdges),
    }));
    this.setTransforms(transforms);
  }

  /**
   * Updates the body poses.
   * @param {Float32Array} transforms 16 floats per body
   */
  setTransforms(transforms) {
    this.transforms = transforms;
  }

  /** @param {ViewMode} mode */
  setViewMode(mode) {
    this.viewMode = mode;
  }

  /**
   * Matches the drawing buffer to the canvas's displayed size.
   * @returns {boolean} whether the size changed
   */
  resize() {
    // More than 2 device pixels per CSS pixel costs fill rate for no visible gain.
    const ratio = Math.min(window.devicePixelRatio || 1, 2);
    const width = Math.max(1, Math.round(this.canvas.clientWidth * ratio));
    const height = Math.max(1, Math.round(this.canvas.clientHeight * ratio));
    if (this.canvas.width === width && this.canvas.height === height) return false;
    this.canvas.width = width;
    this.canvas.height = height;
    return true;
  }

  /** @returns {number} width / height of the drawing buffer */
  aspect() {
    return this.canvas.width / Math.max(this.canvas.height, 1);
  }

  /**
   * Draws one frame.
   * @param {import('./camera.js').OrbitCamera} camera
   */
  draw(camera) {
    const gl = this.gl;
    gl.viewport(0, 0, this.canvas.width, this.canvas.height);
    gl.clearColor(BACKGROUND[0], BACKGROUND[1], BACKGROUND[2], 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    const viewProjection = camera.viewProjection(this.aspect());
    this.viewProjection = viewProjection;
    // The key light sits above and to the left of the viewer, so whatever
    // faces the camera is lit whichever way the scene is turned.
    const back = camera.direction();
    const right = normalize(cross(camera.up, back));
    const screenUp = cross(back, right);
    const light = normalize(add(add(scale(right, -0.45), scale(screenUp, 0.65)), scale(back, 0.6)));

    if (this.viewMode === 'solid') {
      gl.useProgram(this.solidProgram);
      gl.uniformMatrix4fv(this.solidUniforms.uViewProjection, false, viewProjection);
      gl.uniform3fv(this.solidUniforms.uLight, light);
      gl.uniform3fv(this.solidUniforms.uFill, normalize(add(scale(right, 0.7), scale(back, 0.3))));
      gl.uniform3fv(this.solidUniforms.uUp, camera.up);
      // Push the solids back a little so the wireframe drawn on top wins
      // the depth test without z-fighting.
      gl.enable(gl.POLYGON_OFFSET_FILL);
      gl.polygonOffset(1, 1);
      this.bodies.forEach((body, index) => {
        gl.uniformMatrix4fv(this.solidUniforms.uModel, false, this.transform(index));
        gl.uniform3fv(this.solidUniforms.uColour, body.colour);
        drawMesh(gl, body.solid, gl.TRIANGLES);
      });
      gl.disable(gl.POLYGON_OFFSET_FILL);
    }

    gl.useProgram(this.lineProgram);
    gl.uniformMatrix4fv(this.lineUniforms.uViewProjection, false, viewProjection);
    gl.enable(gl.BLEND);
    // Blend colour only: the canvas must stay opaque, or the page behind it
    // shows through wherever a translucent line was drawn.
    gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE);
    gl.depthMask(false);
    this.bodies.forEach((body, index) => {
      gl.uniformMatrix4fv(this.lineUniforms.uModel, false, this.transform(index));
      if (this.viewMode === 'solid') {
        gl.uniform4fv(this.lineUniforms.uColour, SOLID_EDGE_COLOUR);
        drawMesh(gl, body.edges, gl.LINES);
      } else {
        // Without solids the lines carry the body colour, darkened to stand
        // out against the light background.
        const c = body.colour;
        gl.uniform4f(this.lineUniforms.uColour, c[0] * 0.55, c[1] * 0.55, c[2] * 0.55, 0.9);
        drawMesh(gl, this.viewMode === 'wireframe' ? body.edges : body.tetEdges, gl.LINES);
      }
    });
    gl.depthMask(true);
    gl.disable(gl.BLEND);

    // Outlines before the contacts: a contact at a region's corner stays on top.
    const pixels = (this.canvas.width / Math.max(this.canvas.clientWidth, 1)) * this.regionScale;
    this.regions.draw(viewProjection, this.canvas.width, this.canvas.height, pixels);
    this.contacts.draw(viewProjection, light, this.contactRadius, this.contactLength);
  }

  /** @param {number} index @returns {Float32Array} */
  transform(index) {
    const offset = index * 16;
    if (this.transforms.length < offset + 16) return IDENTITY;
    return this.transforms.subarray(offset, offset + 16);
  }
}

/**
 * @typedef {object} GpuMesh
 * @property {WebGLVertexArrayObject | null} vao
 * @property {WebGLBuffer[]} buffers
 * @property {number} count vertices to draw
 */

/**
 * @param {WebGL2RenderingContext} gl
 * @param {Float32Array} positions 3 floats per vertex
 * @param {Float32Array} [normals] 3 floats per vertex
 * @returns {GpuMesh}
 */
function uploadMesh(gl, positions, normals) {
  const vao = gl.createVertexArray();
  gl.bindVertexArray(vao);
  const buffers = [];
  [positions, normals].forEach((data, location) => {
    if (!data) return;
    const buffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
    gl.enableVertexAttribArray(location);
    gl.vertexAttribPointer(location, 3, gl.FLOAT, false, 0, 0);
    buffers.push(buffer);
  });
  gl.bindVertexArray(null);
  return { vao, buffers, count: Math.floor(positions.length / 3) };
}

/** @param {WebGL2RenderingContext} gl @param {GpuMesh} mesh @param {number} mode */
function drawMesh(gl, mesh, mode) {
  if (mesh.count === 0) return;
  gl.bindVertexArray(mesh.vao);
  gl.drawArrays(mode, 0, mesh.count);
  gl.bindVertexArray(null);
}

/** @param {WebGL2RenderingContext} gl @param {GpuMesh} mesh */
function deleteMesh(gl, mesh) {
  mesh.buffers.forEach((buffer) => gl.deleteBuffer(buffer));
  gl.deleteVertexArray(mesh.vao);
}

/**
 * Repeats each triangle's normal for its three vertices: flat shading with
 * one vertex stream, no index buffer needed.
 * @param {Float32Array} normals 3 floats per triangle
 * @param {number} triangleCount
 * @returns {Float32Array}
 */
function perVertexNormals(normals, triangleCount) {
  const out = new Float32Array(triangleCount * 9);
  for (let t = 0; t < triangleCount; t++) {
    for (let v = 0; v < 3; v++) out.set(normals.subarray(t * 3, t * 3 + 3), t * 9 + v * 3);
  }
  return out;
}

/**
 * @param {WebGL2RenderingContext} gl
 * @param {string} vertexSource
 * @param {string} fragmentSource
 * @returns {WebGLProgram}
 */
function linkProgram(gl, vertexSource, fragmentSource) {
  const program = gl.createProgram();
  for (const [type, source] of [[gl.VERTEX_SHADER, vertexSource], [gl.FRAGMENT_SHADER, fragmentSource]]) {
    const shader = gl.createShader(type);
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) {
      throw new Error(`WebGL shader failed to compile: ${gl.getShaderInfoLog(shader)}`);
    }
    gl.attachShader(program, shader);
  }
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
    throw new Error(`WebGL program failed to link: ${gl.getProgramInfoLog(program)}`);
  }
  return program;
}

/**
 * @param {WebGL2RenderingContext} gl
 * @param {WebGLProgram} program
 * @param {string[]} names
 * @returns {Record<string, WebGLUniformLocation | null>}
 */
function uniformLocations(gl, program, names) {
  return Object.fromEntries(names.map((name) => [name, gl.getUniformLocation(program, name)]));
}
