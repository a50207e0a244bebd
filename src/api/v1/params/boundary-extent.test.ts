import { test } from 'node:test';
import { assertWithinDataExtent } from './boundary-extent.js';
import { parseBoundary } from './boundary.js';
import { MSG } from './messages.js';
import { HEIDELBERG_METADATA, WORLD_METADATA, throwsCode } from './test-support.js';

const areas = (p: Parameters<typeof parseBoundary>[0]) => parseBoundary(p).areas;

test('inside the extent passes (also touching its edge)', () => {
  assertWithinDataExtent(areas({ bboxes: '8.6,49.35,8.7,49.45' }), HEIDELBERG_METADATA.spatialExtent);
  assertWithinDataExtent(areas({ bboxes: '8.5,49.3,8.9,49.5' }), HEIDELBERG_METADATA.spatialExtent);
  assertWithinDataExtent(areas({ bcircles: '8.6528,49.3683,1000' }), HEIDELBERG_METADATA.spatialExtent);
  assertWithinDataExtent(areas({ bboxes: '-180,-90,180,90' }), WORLD_METADATA.spatialExtent);
});

test('partly outside passes (a deliberate difference: the reference wants it completely within)', () => {
  assertWithinDataExtent(areas({ bboxes: '8.6,49.4,8.95,49.45' }), HEIDELBERG_METADATA.spatialExtent);
  assertWithinDataExtent(areas({ bboxes: '-180,-90,180,90' }), HEIDELBERG_METADATA.spatialExtent);
});

test('wholly outside is 404 BOUNDARY_OUTSIDE_DATA, with the reference message', () => {
  throwsCode(
    () => assertWithinDataExtent(areas({ bcircles: '8.2,49.0,100' }), HEIDELBERG_METADATA.spatialExtent),
    'BOUNDARY_OUTSIDE_DATA',
    MSG.BOUNDARY_OUTSIDE,
  );
  throwsCode(() => assertWithinDataExtent(areas({ bboxes: '9,49.6,9.5,50' }), HEIDELBERG_METADATA.spatialExtent), 'BOUNDARY_OUTSIDE_DATA');
  throwsCode(() => assertWithinDataExtent(areas({ bboxes: '8.6,49.35,8.7,49.45|9,49.6,9.5,50' }), HEIDELBERG_METADATA.spatialExtent), 'BOUNDARY_OUTSIDE_DATA');
});

test('a non-rectangular extent is checked exactly', () => {
  const triangle = {
    type: 'Polygon' as const,
    coordinates: [
      [
        [0, 0],
        [10, 0],
        [0, 10],
        [0, 0],
      ] as [number, number][],
    ],
  };
  assertWithinDataExtent(areas({ bboxes: '1,1,2,2' }), triangle);
  assertWithinDataExtent(areas({ bboxes: '4,4,7,7' }), triangle); // partly inside
  throwsCode(() => assertWithinDataExtent(areas({ bboxes: '6,6,7,7' }), triangle), 'BOUNDARY_OUTSIDE_DATA'); // inside the triangle's bbox, outside the triangle
});
