/**
 * Changesets as the planet's changeset dump and its changeset replication diffs write them
 * (`<osm><changeset id=… created_at=… closed_at=… open=… …><tag k v/></changeset></osm>`), for
 * tests that make their own dumps and diffs.
 */
import type { ChangesetRecord } from '../io/changesets/open-changesets.js';

const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Epoch seconds as the files write times (`2020-09-01T12:00:00Z`). */
export const isoZ = (e: number) => new Date(e * 1000).toISOString().replace('.000Z', 'Z');

/** The changesets as one XML document (a dump, or a replication diff once gzipped). */
export function changesetsXml(records: readonly ChangesetRecord[]): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="maphist test">'];
  for (const c of records) {
    const a: string[] = [`id="${c.id}"`, `created_at="${isoZ(c.createdAt)}"`];
    if (c.closedAt !== null) a.push(`closed_at="${isoZ(c.closedAt)}"`);
    a.push(`open="${c.open}"`);
    if (c.userName !== null) a.push(`user="${esc(c.userName)}"`, `uid="${c.userId}"`);
    if (c.bbox) a.push(`min_lat="${c.bbox[1]}"`, `min_lon="${c.bbox[0]}"`, `max_lat="${c.bbox[3]}"`, `max_lon="${c.bbox[2]}"`);
    a.push(`num_changes="${c.numChanges}"`, `comments_count="${c.commentsCount}"`);
    const tags: string[] = [];
    for (let i = 0; i < c.tags.length; i += 2) tags.push(`  <tag k="${esc(c.tags[i]!)}" v="${esc(c.tags[i + 1]!)}"/>`);
    lines.push(tags.length === 0 ? ` <changeset ${a.join(' ')}/>` : ` <changeset ${a.join(' ')}>\n${tags.join('\n')}\n </changeset>`);
  }
  lines.push('</osm>', '');
  return lines.join('\n');
}
