/**
 * The moments at which an element's state changes: its own versions ("major" points) and, while a
 * version is visible, every change of a member it references ("minor" points). This implements
 * the reference's modification timestamps (docs/reference/history-engine-semantics.md §4.1): member changes before
 * the version existed or after it was replaced are ignored, and a member change at the same second
 * as another point adds nothing (the element's own version wins; otherwise the first member).
 */

export interface VersionMoment {
  timestamp: number;
  changeset: number;
  uid: number;
  visible: boolean;
}

/** A change of a member (a node version, or a member way's state). */
export interface MemberChange {
  timestamp: number;
  changeset: number;
  uid: number;
}

export interface TimelinePoint {
  timestamp: number;
  /** Index of the element's own version in force at this point. */
  versionIndex: number;
  changeset: number;
  uid: number;
  major: boolean;
}

/**
 * @param memberChanges called for each visible version with its validity interval (from, to);
 *   returns the member changes with from < timestamp < to, in member order (any time order), in an
 *   array of its own, which this sorts in place. A member listed twice may give its changes twice:
 *   the second of two changes at the same second adds nothing.
 */
export function buildTimeline(
  versions: readonly VersionMoment[],
  memberChanges: (versionIndex: number, from: number, to: number) => MemberChange[],
): TimelinePoint[] {
  const points: TimelinePoint[] = [];
  for (let i = 0; i < versions.length; i++) {
    const v = versions[i];
    points.push({ timestamp: v.timestamp, versionIndex: i, changeset: v.changeset, uid: v.uid, major: true });
    if (!v.visible) continue;
    const to = i + 1 < versions.length ? versions[i + 1].timestamp : Infinity;
    const changes = memberChanges(i, v.timestamp, to);
    if (changes.length === 0) continue;
    // Stable sort keeps member order among changes at the same second: the first member wins.
    const sorted = changes.sort((a, b) => a.timestamp - b.timestamp);
    let last = v.timestamp;
    for (const c of sorted) {
      if (c.timestamp <= last || c.timestamp >= to) continue;
      points.push({ timestamp: c.timestamp, versionIndex: i, changeset: c.changeset, uid: c.uid, major: false });
      last = c.timestamp;
    }
  }
  return points;
}

/** The member changes of one member history that fall strictly inside (from, to). */
export function changesWithin<T extends MemberChange>(history: readonly T[], from: number, to: number, out: MemberChange[]): void {
  for (const h of history) {
    if (h.timestamp > from && h.timestamp < to) out.push(h);
  }
}
