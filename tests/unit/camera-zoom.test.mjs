// OrbitCamera.zoomAt, a pinch's zoom (issue 29): the point of the target's
// plane under the pinch centre stays under it; at the view's centre it is
// the wheel's plain zoom.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OrbitCamera } from '../../www/render/camera.js';

/** Where the ray through (ndcX, ndcY) meets the plane through `point` facing the camera. */
function underPoint(camera, ndcX, ndcY, aspect, point) {
  const { origin, direction } = camera.ray(ndcX, ndcY, aspect);
  const back = camera.direction();
  const t = back.reduce((sum, b, k) => sum + b * (point[k] - origin[k]), 0) / back.reduce((sum, b, k) => sum + b * direction[k], 0);
  return origin.map((o, k) => o + direction[k] * t);
}

function framed() {
  const camera = new OrbitCamera();
  camera.fit([[-1, 0, -1], [1, 3, 1]], [0, 1, 0], 1.4);
  return camera;
}

test('a pinch keeps the point under its centre where it is, in and out, and moves the target towards it', () => {
  for (const factor of [0.5, 0.8, 1.25]) {
    const camera = framed();
    const [ndcX, ndcY, aspect] = [0.4, -0.3, 1.4];
    const before = underPoint(camera, ndcX, ndcY, aspect, camera.target);
    const { target, distance, yaw, pitch } = camera;
    camera.zoomAt(factor, ndcX, ndcY, aspect);
    assert.ok(Math.abs(camera.distance - distance * factor) < 1e-12);
    assert.equal(camera.yaw, yaw);
    assert.equal(camera.pitch, pitch);
    const after = underPoint(camera, ndcX, ndcY, aspect, camera.target);
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(after[k] - before[k]) < 1e-9, `factor ${factor}: ${after} vs ${before}`);
    const towards = (p) => Math.hypot(...p.map((v, k) => v - before[k]));
    assert.equal(towards(camera.target) < towards(target), factor < 1, `factor ${factor}: the target should move ${factor < 1 ? 'towards' : 'away from'} the point`);
  }
});

test('zooming about the view centre is the plain zoom; a clamped zoom moves the target only as far as the distance changed', () => {
  const camera = framed();
  const target = [...camera.target];
  camera.zoomAt(0.5, 0, 0, 1.4);
  assert.deepEqual(camera.target.map((v) => Number(v.toFixed(12))), target.map((v) => Number(v.toFixed(12))));
  const limit = framed();
  limit.zoomAt(1e-9, 0.5, 0.5, 1.4);
  const again = [...limit.target];
  limit.zoomAt(1e-9, 0.5, 0.5, 1.4); // already at the nearest distance: nothing moves
  assert.deepEqual(limit.target, again);
});
