// Unit tests of the DOM-free parts of the region outlines
// (www/render/regions.js) and of a region method's hover details
// (www/ui/tooltip.js): reading the core's region buffer by its layout,
// turning outlines into line segments, and what a contact's details say
// about its region and normal. Run with `node --test tests/unit/`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REGION_COLOURS, VERTEX_STRIDE, outlineSegments, outlineVertices, readRegions, regionColour } from '../../www/render/regions.js';
import { NORMAL_FRESH, NORMAL_KEPT, regionDetails } from '../../www/ui/tooltip.js';

/** The facade's layouts (`regionLayout()`, `contactLayout()`), as the worker passes them on. */
const REGION_LAYOUT = { header: 5, a: 0, b: 1, region: 2, dimension: 3, point_count: 4 };
const CONTACT_LAYOUT = { stride: 15, position: 0, normal: 3, q: 6, correct: 7, depth: 8, feature: 9, a: 10, b: 11, region: 12, kept_normal: 13, geo: 14 };

/** A region buffer as the core writes it: header fields in layout order, then the points. */
function regionBuffer(regions, layout = REGION_LAYOUT) {
  const out = [];
  for (const { a, b, region, dimension, points } of regions) {
    const header = new Array(layout.header).fill(0);
    header[layout.a] = a;
    header[layout.b] = b;
    header[layout.region] = region;
    header[layout.dimension] = dimension;
    header[layout.point_count] = points.length;
    out.push(...header, ...points.flat());
  }
  return new Float32Array(out);
}

const SQUARE = { a: 0, b: 1, region: 0, dimension: 2, points: [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]] };
const SEGMENT = { a: 0, b: 1, region: 1, dimension: 1, points: [[0, 1, 0], [2, 1, 0]] };
const POINT = { a: 2, b: 3, region: 0, dimension: 0, points: [[5, 6, 7]] };

test('readRegions reads records of every length by the layout, in order', () => {
  const regions = readRegions(regionBuffer([SQUARE, SEGMENT, POINT]), REGION_LAYOUT);
  assert.equal(regions.length, 3);
  assert.deepEqual(
    regions.map(({ a, b, region, dimension, points }) => ({ a, b, region, dimension, points: Array.from(points) })),
    [SQUARE, SEGMENT, POINT].map((r) => ({ ...r, points: r.points.flat() })),
  );
  // The layout is the core's: another order of the header fields reads the same.
  const shuffled = { header: 6, point_count: 0, dimension: 1, region: 2, b: 3, a: 5 };
  assert.deepEqual(readRegions(regionBuffer([POINT, SQUARE], shuffled), shuffled).map((r) => [r.a, r.b, r.dimension, r.points.length]), [
    [2, 3, 0, 3],
    [0, 1, 2, 12],
  ]);
  assert.deepEqual(readRegions(new Float32Array(0), REGION_LAYOUT), []);
});

test('readRegions stops at a record the buffer cuts short instead of reading past it', () => {
  const whole = regionBuffer([SEGMENT, SQUARE]);
  assert.equal(readRegions(whole.subarray(0, whole.length - 1), REGION_LAYOUT).length, 1);
  assert.equal(readRegions(whole.subarray(0, 3), REGION_LAYOUT).length, 0);
});

test('a polygon is closed, a segment is one line, a point one marker', () => {
  const [square, segment, point] = readRegions(regionBuffer([SQUARE, SEGMENT, POINT]), REGION_LAYOUT);
  assert.deepEqual(outlineSegments(square), [[0, 1], [1, 2], [2, 3], [3, 0]]);
  assert.deepEqual(outlineSegments(segment), [[0, 1]]);
  assert.deepEqual(outlineSegments(point), [[0, 0]]);
});

test('outline vertices: two triangles per segment, coloured by region, moved with body A', () => {
  const regions = readRegions(regionBuffer([SQUARE, SEGMENT, POINT]), REGION_LAYOUT);
  const offsets = new Float32Array([0, 10, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0]);
  const vertices = outlineVertices(regions, offsets);
  assert.equal(vertices.length, (4 + 1 + 1) * 6 * VERTEX_STRIDE);
  const vertex = (i) => vertices.subarray(i * VERTEX_STRIDE, (i + 1) * VERTEX_STRIDE);
  // The square's first side, from (0,0,0) to (1,0,0), lifted by body 0's offset.
  assert.deepEqual(Array.from(vertex(0).subarray(0, 6)), [0, 10, 0, 1, 10, 0]);
  assert.deepEqual(Array.from(vertex(0).subarray(8, 11)), REGION_COLOURS[0].map(Math.fround));
  // The segment is the second region: the second colour.
  assert.deepEqual(Array.from(vertex(24).subarray(8, 11)), REGION_COLOURS[1].map(Math.fround));
  // The point, on body 2: start and end coincide, moved by body 2's offset,
  // and its marker is wider than a line.
  const point = vertex(30);
  assert.deepEqual(Array.from(point.subarray(0, 6)), [5, 6, 107, 5, 6, 107]);
  assert.ok(point[11] > vertex(0)[11]);
  // Every quad has the four corners of a rectangle.
  const corners = new Set();
  for (let i = 0; i < 6; i++) corners.add(`${vertex(i)[6]},${vertex(i)[7]}`);
  assert.deepEqual([...corners].sort(), ['0,-1', '0,1', '1,-1', '1,1']);
});

test('region colours cycle through the palette', () => {
  assert.deepEqual(regionColour(0), REGION_COLOURS[0]);
  assert.deepEqual(regionColour(REGION_COLOURS.length + 2), REGION_COLOURS[2]);
  assert.equal(new Set(REGION_COLOURS.map(String)).size, REGION_COLOURS.length, 'the palette repeats a colour');
});

test("a contact's details name its region and where its normal came from; a local method's contact has none", () => {
  const contact = (region, kept) => {
    const c = new Float32Array(CONTACT_LAYOUT.stride);
    c[CONTACT_LAYOUT.region] = region;
    c[CONTACT_LAYOUT.kept_normal] = kept;
    return c;
  };
  assert.deepEqual(regionDetails(contact(0, 1), CONTACT_LAYOUT), { region: 1, normal: NORMAL_KEPT });
  assert.deepEqual(regionDetails(contact(2, 0), CONTACT_LAYOUT), { region: 3, normal: NORMAL_FRESH });
  assert.equal(regionDetails(contact(NaN, 0), CONTACT_LAYOUT), null);
  assert.match(NORMAL_KEPT, /previous step \(temporal coherence\)/);
  assert.match(NORMAL_FRESH, /current geometry/);
});
