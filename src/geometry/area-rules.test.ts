import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isAreaRelation, isAreaWay } from './area-rules.js';

const closed = [1, 2, 3, 1];

describe('isAreaWay (reference DefaultTagInterpreter)', () => {
  it('needs at least 4 refs with the same first and last id (docs/reference/history-engine-semantics.md §7.2 item 4)', () => {
    assert.equal(isAreaWay(['building', 'yes'], [1, 2, 3, 1]), true);
    assert.equal(isAreaWay(['building', 'yes'], [1, 2, 3, 4]), false);
    assert.equal(isAreaWay(['building', 'yes'], [1, 2, 1]), false);
    assert.equal(isAreaWay([], closed), false);
  });

  it('area=no makes any closed way a line, wherever it stands', () => {
    assert.equal(isAreaWay(['building', 'yes', 'area', 'no'], closed), false);
    assert.equal(isAreaWay(['area', 'no', 'landuse', 'forest'], closed), false);
    assert.equal(isAreaWay(['area', 'yes'], closed), true);
  });

  it('"all" keys: any value except no', () => {
    for (const key of [
      'building',
      'landuse',
      'amenity',
      'leisure',
      'boundary',
      'place',
      'shop',
      'tourism',
      'historic',
      'public_transport',
      'office',
      'building:part',
      'military',
      'ruins',
      'area:highway',
      'craft',
      'golf',
      'indoor',
    ]) {
      assert.equal(isAreaWay([key, 'whatever'], closed), true, key);
      assert.equal(isAreaWay([key, 'no'], closed), false, `${key}=no`);
    }
  });

  it('whitelist keys: listed values only, plus the reference quirk that "no" counts as an area', () => {
    assert.equal(isAreaWay(['highway', 'residential'], closed), false);
    assert.equal(isAreaWay(['highway', 'services'], closed), true);
    assert.equal(isAreaWay(['highway', 'no'], closed), true); // quirk reproduced on purpose
    assert.equal(isAreaWay(['waterway', 'riverbank'], closed), true);
    assert.equal(isAreaWay(['waterway', 'stream'], closed), false);
    assert.equal(isAreaWay(['barrier', 'fence'], closed), false);
    assert.equal(isAreaWay(['barrier', 'hedge'], closed), true);
    assert.equal(isAreaWay(['barrier', 'no'], closed), true);
    assert.equal(isAreaWay(['railway', 'platform'], closed), true);
    assert.equal(isAreaWay(['railway', 'rail'], closed), false);
    assert.equal(isAreaWay(['power', 'substation'], closed), true);
    assert.equal(isAreaWay(['power', 'line'], closed), false);
  });

  it('blacklist keys: any value except the listed ones ("no" included)', () => {
    assert.equal(isAreaWay(['natural', 'wood'], closed), true);
    assert.equal(isAreaWay(['natural', 'coastline'], closed), false);
    assert.equal(isAreaWay(['natural', 'tree_row'], closed), false);
    assert.equal(isAreaWay(['natural', 'no'], closed), true); // quirk reproduced on purpose
    assert.equal(isAreaWay(['man_made', 'pipeline'], closed), false);
    assert.equal(isAreaWay(['man_made', 'works'], closed), true);
    assert.equal(isAreaWay(['aeroway', 'taxiway'], closed), false);
    assert.equal(isAreaWay(['aeroway', 'apron'], closed), true);
  });

  it('any matching tag decides; keys outside the table are ignored', () => {
    assert.equal(isAreaWay(['name', 'X', 'highway', 'footway', 'landuse', 'grass'], closed), true);
    assert.equal(isAreaWay(['name', 'X', 'highway', 'footway'], closed), false);
    assert.equal(isAreaWay(['source', 'survey'], closed), false);
  });
});

describe('isAreaRelation', () => {
  it('type=multipolygon or type=boundary; other tags (area=no included) do not matter', () => {
    assert.equal(isAreaRelation(['type', 'multipolygon']), true);
    assert.equal(isAreaRelation(['name', 'X', 'type', 'boundary']), true);
    assert.equal(isAreaRelation(['type', 'boundary', 'area', 'no']), true);
    assert.equal(isAreaRelation(['type', 'route']), false);
    assert.equal(isAreaRelation(['building', 'yes']), false);
    assert.equal(isAreaRelation([]), false);
  });
});
