/**
 * The planet changeset dump (`changesets-latest.osm.bz2`, also the API's changeset XML) to records,
 * fed chunk by chunk; memory holds only the changeset being read and the batches not yet taken.
 *
 *   <osm version="0.6" generator="planet-dump-ng …">
 *     <bound box="…"/>
 *     <changeset id created_at closed_at open user uid min_lat min_lon max_lat max_lon
 *                num_changes comments_count>
 *       <tag k v/>…  <discussion>…</discussion>
 *     </changeset>
 *   </osm>
 *
 * Attributes may be missing (anonymous edits have no user; an empty changeset no bbox); they become
 * null. Discussions are skipped. A file whose elements are nodes, ways or relations is an OSM data
 * file, not a changeset dump, and is refused at its first element.
 */
import type { SaxesTagPlain } from 'saxes';
import { MaphistError } from '../../core/errors.js';
import { parseIsoTimestamp } from '../xml/iso-timestamp.js';
import { XmlChunkFeed } from '../xml/xml-chunk-feed.js';
import { Batches } from '../batches.js';

export interface ChangesetRecord {
  id: number;
  /** Epoch seconds. */
  createdAt: number;
  /** Epoch seconds; null while open. */
  closedAt: number | null;
  open: boolean;
  userId: number | null;
  userName: string | null;
  numChanges: number | null;
  commentsCount: number | null;
  /** [min lon, min lat, max lon, max lat]; null for a changeset without a bbox. */
  bbox: [number, number, number, number] | null;
  /** Flat key, value, key, value, … */
  tags: string[];
}

export class ChangesetParser {
  private readonly feed: XmlChunkFeed;
  private depth = 0;
  private current: ChangesetRecord | null = null;
  /** Records parsed and not yet taken, cut into batches of at most `batchSize`. */
  private readonly batches: Batches<ChangesetRecord>;
  private sawRoot = false;
  /** Whether a <changeset> has begun: the file is a changeset dump (map data is refused before one). */
  sawChangeset = false;
  /** Changesets read so far. */
  count = 0;

  constructor(
    private readonly path: string,
    batchSize: number,
  ) {
    this.batches = new Batches(batchSize);
    this.feed = new XmlChunkFeed(path, (why) => this.corrupt(why));
    this.feed.sax.on('opentag', (tag) => this.openTag(tag));
    this.feed.sax.on('closetag', () => this.closeTag());
  }

  takeFullBatch(): ChangesetRecord[] | undefined {
    return this.batches.takeFull();
  }

  takeRest(): ChangesetRecord[] {
    return this.batches.takeRest();
  }

  write(bytes: Uint8Array): void {
    this.feed.write(bytes);
  }

  /** The end of the input: an unfinished document means the file was cut off. */
  end(): void {
    this.feed.end();
    if (!this.sawRoot) throw this.notChangesets('it has no <osm> element');
  }

  private openTag(tag: SaxesTagPlain): void {
    const depth = this.depth++;
    const a = tag.attributes;
    if (depth === 0) {
      if (tag.name !== 'osm') throw this.notChangesets(`its root element is <${tag.name}>, not <osm>`);
      this.sawRoot = true;
    } else if (depth === 1) {
      if (tag.name === 'changeset') {
        this.sawChangeset = true;
        this.current = this.start(a);
      } else if (tag.name === 'node' || tag.name === 'way' || tag.name === 'relation') {
        throw this.notChangesets(`it holds map data (<${tag.name}>): import it as a history file, and give the changeset dump (changesets-*.osm.bz2) here`);
      }
    } else if (depth === 2 && this.current !== null && tag.name === 'tag') {
      this.current.tags.push(a.k ?? '', a.v ?? '');
    }
  }

  private closeTag(): void {
    const depth = --this.depth;
    if (depth === 1 && this.current !== null) {
      this.batches.push(this.current);
      this.current = null;
      this.count++;
    }
  }

  private start(a: Record<string, string>): ChangesetRecord {
    const id = this.integer(a.id, 'changeset id');
    const time = (text: string | undefined, what: string): number | null => {
      if (text === undefined || text === '') return null;
      const t = parseIsoTimestamp(text);
      if (Number.isNaN(t)) throw this.corrupt(`changeset ${id} has an invalid ${what} "${text}"`);
      return t;
    };
    const createdAt = time(a.created_at, 'created_at');
    if (createdAt === null) throw this.corrupt(`changeset ${id} has no created_at`);
    const optional = (text: string | undefined, what: string) => (text === undefined || text === '' ? null : this.integer(text, `changeset ${id} ${what}`));
    const coordinate = (text: string | undefined) => (text === undefined || text === '' ? Number.NaN : Number(text));
    const box = [coordinate(a.min_lon), coordinate(a.min_lat), coordinate(a.max_lon), coordinate(a.max_lat)] as [number, number, number, number];
    return {
      id,
      createdAt,
      closedAt: time(a.closed_at, 'closed_at'),
      open: a.open === 'true',
      userId: optional(a.uid, 'uid'),
      userName: a.user ?? null,
      numChanges: optional(a.num_changes, 'num_changes'),
      commentsCount: optional(a.comments_count, 'comments_count'),
      bbox: box.every(Number.isFinite) ? box : null,
      tags: [],
    };
  }

  private integer(text: string | undefined, what: string): number {
    const value = text === undefined || text === '' ? Number.NaN : Number(text);
    if (!Number.isSafeInteger(value)) throw this.corrupt(`${what} "${text ?? ''}" is not a whole number`);
    return value;
  }

  private notChangesets(why: string): MaphistError {
    return new MaphistError('INPUT_NOT_OSM', `${this.path} is not an OSM changeset dump: ${why}.`, { path: this.path });
  }

  private corrupt(why: string): MaphistError {
    const { line, column } = this.feed.sax;
    return new MaphistError('INPUT_CORRUPT', `${this.path} is damaged near line ${line}, column ${column}: ${why}.`, { path: this.path, line, column });
  }
}
