import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTimeline, changesWithin, type MemberChange } from './timeline.js';

const v = (timestamp: number, changeset: number, visible = true) => ({ timestamp, changeset, uid: changeset, visible });

describe('buildTimeline (docs/reference/history-engine-semantics.md §4.1)', () => {
  it('adds member changes strictly inside a visible version’s interval', () => {
    const versions = [v(10, 1), v(50, 5)];
    const member: MemberChange[] = [
      { timestamp: 5, changeset: 90, uid: 9 }, // before the element existed: ignored
      { timestamp: 10, changeset: 91, uid: 9 }, // same second as the version: the version wins
      { timestamp: 20, changeset: 92, uid: 9 },
      { timestamp: 60, changeset: 93, uid: 9 }, // during v2
    ];
    const points = buildTimeline(versions, (_i, from, to) => {
      const out: MemberChange[] = [];
      changesWithin(member, from, to, out);
      return out;
    });
    assert.deepEqual(
      points.map((p) => [p.timestamp, p.versionIndex, p.changeset, p.major]),
      [
        [10, 0, 1, true],
        [20, 0, 92, false],
        [50, 1, 5, true],
        [60, 1, 93, false],
      ],
    );
  });

  it('adds nothing while a version is deleted', () => {
    const points = buildTimeline([v(10, 1), v(20, 2, false), v(40, 4)], (i) => (i === 1 ? [{ timestamp: 30, changeset: 9, uid: 9 }] : []));
    assert.deepEqual(
      points.map((p) => p.timestamp),
      [10, 20, 40],
    );
  });

  it('of several member changes in one second, the first member gives the changeset', () => {
    const points = buildTimeline([v(10, 1)], () => [
      { timestamp: 30, changeset: 7, uid: 7 },
      { timestamp: 20, changeset: 8, uid: 8 },
      { timestamp: 30, changeset: 6, uid: 6 },
    ]);
    assert.deepEqual(
      points.map((p) => [p.timestamp, p.changeset]),
      [
        [10, 1],
        [20, 8],
        [30, 7],
      ],
    );
  });
});
