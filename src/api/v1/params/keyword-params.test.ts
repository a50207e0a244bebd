/** Tests of the small keyword parameters: format, showMetadata, clipGeometry, timeout, contributionType, properties. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseClipGeometry } from './clip-geometry.js';
import { parseContributionType } from './contribution-type.js';
import { parseFormat } from './format.js';
import { javaDoubleToString } from './java-text.js';
import { MSG } from './messages.js';
import { parseProperties } from './properties.js';
import { findV1Route } from './route-parameters.js';
import { parseShowMetadata } from './show-metadata.js';
import { throwsCode } from './test-support.js';
import { parseTimeout } from './timeout.js';

test('format', () => {
  assert.equal(parseFormat(undefined), 'json');
  assert.equal(parseFormat(''), 'json');
  assert.equal(parseFormat('CSV'), 'csv');
  assert.equal(parseFormat('GeoJSON', findV1Route('/elements/count/groupBy/boundary')), 'geojson');
  assert.equal(parseFormat('geojson', findV1Route('/elements/count/ratio/groupBy/boundary')), 'geojson');
  assert.equal(parseFormat('geojson', findV1Route('/elements/count/ratio')), 'json');
  assert.equal(parseFormat('geojson', findV1Route('/users/count/groupBy/boundary')), 'geojson');
  throwsCode(() => parseFormat('xml'), 'PARAM_INVALID', MSG.FORMAT);
});

test('showMetadata and clipGeometry', () => {
  assert.equal(parseShowMetadata(undefined), false);
  assert.equal(parseShowMetadata(''), false);
  assert.equal(parseShowMetadata(' T rue'), true);
  assert.equal(parseShowMetadata('YES'), true);
  assert.equal(parseShowMetadata('no'), false);
  throwsCode(() => parseShowMetadata('1'), 'PARAM_INVALID', MSG.SHOW_METADATA);
  assert.equal(parseClipGeometry(undefined), true);
  assert.equal(parseClipGeometry('False'), false);
  throwsCode(() => parseClipGeometry('maybe'), 'PARAM_INVALID', MSG.CLIP_GEOMETRY);
});

test('timeout', () => {
  assert.equal(parseTimeout(undefined, 100), 100);
  assert.equal(parseTimeout('2.5', 100), 2.5);
  assert.equal(parseTimeout('100', 100), 100);
  assert.equal(parseTimeout('500', 100, 600), 500);
  throwsCode(() => parseTimeout('1,5', 100), 'PARAM_INVALID', MSG.TIMEOUT_FORMAT);
  throwsCode(() => parseTimeout('abc', 100), 'PARAM_INVALID', MSG.TIMEOUT_FORMAT);
  throwsCode(() => parseTimeout('100.5', 100), 'PARAM_INVALID', 'The given timeout is too long. It has to be shorter than 100.0 seconds');
  assert.equal(javaDoubleToString(600), '600.0');
  assert.equal(javaDoubleToString(0.5), '0.5');
  assert.equal(javaDoubleToString(1e7), '1.0E7');
  assert.equal(javaDoubleToString(12345678.5), '1.23456785E7');
});

test('contributionType', () => {
  assert.equal(parseContributionType(undefined), undefined);
  assert.deepEqual(parseContributionType('tagchange,GeometryChange,tagChange'), ['tagChange', 'geometryChange']);
  assert.deepEqual(parseContributionType('creation,deletion'), ['creation', 'deletion']);
  throwsCode(() => parseContributionType(''), 'PARAM_INVALID', MSG.CONTRIBUTION_TYPE);
  throwsCode(() => parseContributionType('creation, deletion'), 'PARAM_INVALID', MSG.CONTRIBUTION_TYPE);
  throwsCode(() => parseContributionType('edit'), 'PARAM_INVALID', MSG.CONTRIBUTION_TYPE);
});

test('properties', () => {
  assert.deepEqual(parseProperties('Tags, metadata', { contributions: false }), { tags: true, metadata: true, contributionTypes: false, unclipped: false });
  assert.deepEqual(parseProperties(undefined, { contributions: false }).tags, false);
  assert.equal(parseProperties('contributionTypes,unclipped', { contributions: true }).contributionTypes, true);
  throwsCode(() => parseProperties('contributionTypes', { contributions: false }), 'PARAM_INVALID', MSG.PROPERTIES);
  throwsCode(() => parseProperties('geometry', { contributions: true }), 'PARAM_INVALID', MSG.PROPERTIES_CONTRIBUTIONS);
});
