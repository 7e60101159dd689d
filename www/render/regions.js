/**
 * @file Contact regions in the 3D view, for the region methods: each
 * region's outline (a closed polygon, a segment, or a point) as lines a few
 * pixels wide, in one colour per region from a small fixed palette. WebGL
 * draws lines one pixel wide, so each segment is a screen-space quad built
 * in the vertex shader (with square caps, which also close a polygon's
 * corners); a point is a square marker. Outlines lie on the bodies'
 * surfaces, mostly between two of them, so the parts hidden behind a body
 * are drawn faintly first and the visible parts in full, as the contacts
 * are.
 *
 * `readRegions` and `outlineVertices` are DOM-free, for `node --test`.
 */

/**
 * Where a region's header fields sit in `regionBuffer()`: `Playground.regionLayout()`,
 * `{header, a, b, region, dimension, point_count}` (offsets in floats; the
 * points, 3 floats each, follow the header).
 * @typedef {Record<'header' | 'a' | 'b' | 'region' | 'dimension' | 'point_count', number>} RegionLayout
 */

/**
 * One region as the page draws it.
 * @typedef {object} Region
 * @property {number} a body A of its pair
 * @property {number} b body B
 * @property {number} region its index among its pair's regions (what a contact's region names)
 * @property {number} dimension 0 point, 1 segment, 2 polygon
 * @property {Float32Array} points world points, 3 floats each
 */

/**
 * The region colours, cycled in the core's region order: apart from each
 * other, from the contacts' blue and orange, and from the stone colours.
 */
export const REGION_COLOURS = [
  [0.86, 0.05, 0.56], // magenta
  [0.0, 0.6, 0.33], // green
  [0.47, 0.22, 0.86], // violet
  [0.0, 0.58, 0.68], // teal
  [0.52, 0.62, 0.0], // olive
  [0.72, 0.05, 0.2], // crimson
];

/** Line width of an outline, and side of a point's marker, in CSS pixels. */
export const LINE_WIDTH_PX = 3;
export const POINT_SIZE_PX = 11;
/** The light halo around each outline, in CSS pixels on each side, so it reads on stone and background alike. */
const HALO_PX = 1.5;
const HALO_COLOUR = [1, 1, 1, 0.85];
/** Opacity of the outline parts hidden behind a body. */
const HIDDEN_ALPHA = 0.5;

/** Floats per vertex: start 3, end 3, corner 2 (along 0/1, side −1/1), colour 3, width 1 (CSS pixels). */
export const VERTEX_STRIDE = 12;

/**
 * @param {number} index the region's place in `regionBuffer()`
 * @returns {number[]} its colour
 */
export function regionColour(index) {
  return REGION_COLOURS[index % REGION_COLOURS.length];
}

/**
 * Splits `regionBuffer()` into regions. A buffer that ends inside a record
 * (never written by the core) stops the reading there.
 * @param {Float32Array} buffer
 * @param {RegionLayout} layout
 * @returns {Region[]}
 */
export function readRegions(buffer, layout) {
  const regions = [];
  let at = 0;
  while (at + layout.header <= buffer.length) {
    const count = buffer[at + layout.point_count];
    const end = at + layout.header + 3 * count;
    if (!Number.isInteger(count) || count < 0 || end > buffer.length) break;
    regions.push({
      a: buffer[at + layout.a],
      b: buffer[at + layout.b],
      region: buffer[at + layout.region],
      dimension: buffer[at + layout.dimension],
      points: buffer.subarray(at + layout.header, end),
    });
    at = end;
  }
  return regions;
}

/**
 * The line segments of one region: a polygon's sides (its last point joined
 * to the first), a segment, or a point as a segment of zero length (drawn
 * as a square marker).
 * @param {Region} region
 * @returns {Array<[number, number]>} pairs of point indices
 */
export function outlineSegments(region) {
  const n = region.points.length / 3;
  if (n === 0) return [];
  if (n === 1) return [[0, 0]];
  if (n === 2 || region.dimension < 2) {
    const segments = [];
    for (let i = 0; i + 1 < n; i++) segments.push([i, i + 1]);
    return segments;
  }
  return Array.from({ length: n }, (_, i) => /** @type {[number, number]} */ ([i, (i + 1) % n]));
}

/**
 * The vertices of every region's outline: two triangles per segment, each
 * moved with its body A by the explode offsets, as the contacts are.
 * @param {Region[]} regions
 * @param {Float32Array} offsets 3 floats per body (explode)
 * @returns {Float32Array} VERTEX_STRIDE floats per vertex
 */
export function outlineVertices(regions, offsets) {
  const segmentCount = regions.reduce((sum, region) => sum + outlineSegments(region).length, 0);
  const out = new Float32Array(segmentCount * 6 * VERTEX_STRIDE);
  let o = 0;
  // The two triangles of a quad, as (along, side) corners.
  const corners = [[0, -1], [1, -1], [1, 1], [0, -1], [1, 1], [0, 1]];
  regions.forEach((region, index) => {
    const colour = regionColour(index);
    const width = region.points.length === 3 ? POINT_SIZE_PX : LINE_WIDTH_PX;
    const shift = [0, 1, 2].map((k) => offsets[region.a * 3 + k] ?? 0);
    const point = (i) => [0, 1, 2].map((k) => region.points[i * 3 + k] + shift[k]);
    for (const [i, j] of outlineSegments(region)) {
      const start = point(i);
      const end = point(j);
      for (const [along, side] of corners) {
        out.set(start, o);
        out.set(end, o + 3);
        out[o + 6] = along;
        out[o + 7] = side;
        out.set(colour, o + 8);
        out[o + 11] = width;
        o += VERTEX_STRIDE;
      }
    }
  });
  return out;
}

const VERTEX = `#version 300 es
layout(location = 0) in vec3 aStart;
layout(location = 1) in vec3 aEnd;
layout(location = 2) in vec2 aCorner;
layout(location = 3) in vec3 aColour;
layout(location = 4) in float aWidth; // CSS pixels
uniform mat4 uViewProjection;
uniform vec2 uViewport; // drawing buffer size in pixels
uniform float uPixels; // drawing buffer pixels per CSS pixel of width
uniform float uGrow; // extra CSS pixels on each side (the halo pass)
out vec3 vColour;
void main() {
  vec4 s = uViewProjection * vec4(aStart, 1.0);
  vec4 e = uViewProjection * vec4(aEnd, 1.0);
  vColour = aColour;
  // A segment reaching behind the camera has no screen direction: it is
  // dropped (moved outside the clip volume) rather than drawn inverted.
  if (s.w <= 0.0 || e.w <= 0.0) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    return;
  }
  vec2 half_viewport = 0.5 * uViewport;
  // The segment's direction on screen, in pixels; a point has none, and
  // its quad becomes a square.
  vec2 d = e.xy / e.w * half_viewport - s.xy / s.w * half_viewport;
  float len = length(d);
  vec2 along = len > 1e-3 ? d / len : vec2(1.0, 0.0);
  vec2 across = vec2(-along.y, along.x);
  float half_width = (0.5 * aWidth + uGrow) * uPixels;
  // Square caps: each end reaches half a width past its point.
  vec2 offset = across * aCorner.y * half_width + along * (2.0 * aCorner.x - 1.0) * half_width;
  vec4 p = mix(s, e, aCorner.x);
  p.xy += offset / half_viewport * p.w;
  gl_Position = p;
}`;

const FRAGMENT = `#version 300 es
precision highp float;
in vec3 vColour;
uniform vec4 uTint; // the halo's colour when its alpha is positive
uniform float uAlpha;
out vec4 outColour;
void main() {
  vec3 colour = uTint.a > 0.0 ? uTint.rgb : vColour;
  float alpha = uTint.a > 0.0 ? uTint.a : 1.0;
  outColour = vec4(colour, alpha * uAlpha);
}`;

/** The outlines of the current regions on the GPU. */
export class RegionOutlines {
  /**
   * @param {WebGL2RenderingContext} gl
   * @param {(gl: WebGL2RenderingContext, vertex: string, fragment: string) => WebGLProgram} linkProgram
   *   the renderer's shader linker (passed in to keep the imports one-way)
   */
  constructor(gl, linkProgram) {
    this.gl = gl;
    this.program = linkProgram(gl, VERTEX, FRAGMENT);
    this.uniforms = Object.fromEntries(['uViewProjection', 'uViewport', 'uPixels', 'uGrow', 'uTint', 'uAlpha'].map((n) => [n, gl.getUniformLocation(this.program, n)]));
    this.buffer = gl.createBuffer();
    this.vao = gl.createVertexArray();
    gl.bindVertexArray(this.vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    const sizes = [3, 3, 2, 3, 1];
    let offset = 0;
    sizes.forEach((size, location) => {
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, size, gl.FLOAT, false, VERTEX_STRIDE * 4, offset * 4);
      offset += size;
    });
    gl.bindVertexArray(null);
    this.count = 0;
  }

  /** @param {Float32Array} vertices `outlineVertices(...)` */
  setVertices(vertices) {
    const gl = this.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    gl.bufferData(gl.ARRAY_BUFFER, vertices, gl.DYNAMIC_DRAW);
    this.count = vertices.length / VERTEX_STRIDE;
  }

  /**
   * @param {Float32Array} viewProjection
   * @param {number} width drawing buffer width in pixels
   * @param {number} height
   * @param {number} pixels drawing buffer pixels per CSS pixel of line width (device pixels, presentation mode)
   */
  draw(viewProjection, width, height, pixels) {
    if (this.count === 0) return;
    const gl = this.gl;
    gl.useProgram(this.program);
    gl.uniformMatrix4fv(this.uniforms.uViewProjection, false, viewProjection);
    gl.uniform2f(this.uniforms.uViewport, width, height);
    gl.uniform1f(this.uniforms.uPixels, pixels);
    gl.bindVertexArray(this.vao);
    gl.enable(gl.BLEND);
    gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE);
    gl.depthMask(false);
    // Hidden parts first, faint (only where a body is in front), then the
    // visible parts; each with its halo under it.
    for (const [func, alpha] of [[gl.GREATER, HIDDEN_ALPHA], [gl.LEQUAL, 1]]) {
      gl.depthFunc(func);
      gl.uniform1f(this.uniforms.uAlpha, alpha);
      gl.uniform1f(this.uniforms.uGrow, HALO_PX);
      gl.uniform4fv(this.uniforms.uTint, HALO_COLOUR);
      gl.drawArrays(gl.TRIANGLES, 0, this.count);
      gl.uniform1f(this.uniforms.uGrow, 0);
      gl.uniform4f(this.uniforms.uTint, 0, 0, 0, 0);
      gl.drawArrays(gl.TRIANGLES, 0, this.count);
    }
    gl.bindVertexArray(null);
    gl.depthMask(true);
    gl.depthFunc(gl.LEQUAL);
    gl.disable(gl.BLEND);
  }
}
