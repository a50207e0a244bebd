/**
 * OSM XML (history flavour) to records, fed chunk by chunk. saxes does the XML; this class keeps
 * only the element being built, so memory does not grow with the file.
 *
 *   <osm version="0.6" generator="…">
 *     <bounds minlat=… minlon=… maxlat=… maxlon=…/>
 *     <node id version timestamp uid user changeset visible lat lon> <tag k v/>… </node>
 *     <way …> <nd ref/>… <tag/>… </way>
 *     <relation …> <member type ref role/>… <tag/>… </relation>
 *   </osm>
 *
 * With `change: true` it reads an OsmChange file (`.osc`) instead:
 *
 *   <osmChange version="0.6"> <create>|<modify>|<delete> <node …/> <way …/> … </…> </osmChange>
 *
 * Every element of a `<delete>` block is a deleted version (visible false, no tags, node
 * references or members, as deleted versions of a history file); the order is not checked (the
 * caller sorts the versions: a change file may list an element in any block and order).
 *
 * Defaults for missing attributes: visible true, uid -1, user '', changeset 0, version 0,
 * timestamp 0. Coordinates become 1e-7 fixed-point integers by Math.round(x × 1e7); a deleted
 * node has lon = lat = 0 whatever the file says.
 */

import type { SaxesTagPlain } from 'saxes';
import { MaphistError } from '../../core/errors.js';
import { OSM_TYPE_CODE, type FileHeader, type NodeVersion, type OsmType, type OsmVersion, type RelationVersion, type WayVersion } from '../../core/osm.js';
import { VersionOrderChecker } from '../version-order.js';
import { parseIsoTimestamp } from './iso-timestamp.js';
import { XmlChunkFeed } from './xml-chunk-feed.js';
import { Batches } from '../batches.js';

export class OsmXmlParser {
  readonly header: FileHeader = { requiredFeatures: [], optionalFeatures: [] };
  /** True once nothing more can be added to the header: the first element began, or the document ended. */
  headerComplete = false;

  private readonly feed: XmlChunkFeed;
  private readonly order = new VersionOrderChecker();
  private ended = false;
  private depth = 0;
  private current: OsmVersion | null = null;
  /** Change mode: the block being read (`create`, `modify`, `delete`), or undefined outside one. */
  private action: string | undefined;
  /** The depth of element tags: 1 in a history file, 2 in a change file (inside an action block). */
  private readonly elementDepth: number;
  /** Records parsed and not yet taken, cut into batches of at most `batchSize`. */
  private readonly batches: Batches<OsmVersion>;

  constructor(
    private readonly path: string,
    batchSize: number,
    private readonly change = false,
  ) {
    this.elementDepth = change ? 2 : 1;
    this.batches = new Batches(batchSize);
    this.feed = new XmlChunkFeed(path, (why) => this.corrupt(why));
    this.feed.sax.on('opentag', (tag) => this.openTag(tag));
    this.feed.sax.on('closetag', () => this.closeTag());
  }

  /** The next full batch of parsed records, in file order, or undefined if there is none yet. */
  takeFullBatch(): OsmVersion[] | undefined {
    return this.batches.takeFull();
  }

  /** The records of the batch still filling (after end(), and after the full batches are taken). */
  takeRest(): OsmVersion[] {
    return this.batches.takeRest();
  }

  write(bytes: Uint8Array): void {
    this.feed.write(bytes);
  }

  /** Call at the end of the input; an unfinished document means the file was cut off. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.feed.end();
    this.headerComplete = true;
  }

  private openTag(tag: SaxesTagPlain): void {
    const depth = this.depth++;
    const a = tag.attributes;
    if (depth === 0) {
      this.openRoot(tag.name, a);
    } else if (this.change && depth === 1) {
      this.headerComplete = true;
      this.action = tag.name === 'create' || tag.name === 'modify' || tag.name === 'delete' ? tag.name : undefined;
    } else if (this.change && depth === 2) {
      const type = tag.name;
      if (this.action !== undefined && (type === 'node' || type === 'way' || type === 'relation')) {
        const deleted = this.action === 'delete';
        const v = this.startVersion(type, deleted ? { ...a, visible: 'false' } : a);
        this.current = v;
      }
    } else if (depth === 1) {
      const type = tag.name;
      if (type === 'node' || type === 'way' || type === 'relation') {
        this.headerComplete = true;
        this.current = this.startVersion(type, a);
      } else if (type === 'bounds' && !this.headerComplete) {
        this.header.bbox = [this.number(a.minlon), this.number(a.minlat), this.number(a.maxlon), this.number(a.maxlat)];
      } else if (type === 'bound' && !this.headerComplete && a.box !== undefined) {
        // Osmosis's old form: box="minlat,minlon,maxlat,maxlon"
        const [minlat, minlon, maxlat, maxlon] = a.box.split(',').map((v) => this.number(v));
        this.header.bbox = [minlon!, minlat!, maxlon!, maxlat!];
      }
      // Anything else at this level (changesets, notes, <meta>) is not a version: skipped.
    } else if (depth === this.elementDepth + 1 && this.current !== null) {
      const v = this.current;
      // A deleted version carries no tags, node references or members (as in a history file).
      if (this.change && !v.visible) return;
      if (tag.name === 'tag') {
        v.tags.push(a.k ?? '', a.v ?? '');
      } else if (tag.name === 'nd' && v.type === 'way') {
        v.refs.push(this.integer(a.ref, 'nd ref'));
      } else if (tag.name === 'member' && v.type === 'relation') {
        const type = a.type;
        if (type !== 'node' && type !== 'way' && type !== 'relation') throw this.corrupt(`relation ${v.id} has a member of unknown type "${type}"`);
        v.members.push({ type: type as OsmType, ref: this.integer(a.ref, 'member ref'), role: a.role ?? '' });
      }
    }
  }

  private closeTag(): void {
    const depth = --this.depth;
    if (depth === this.elementDepth && this.current !== null) {
      const v = this.current;
      this.current = null;
      if (!this.change) this.order.check(OSM_TYPE_CODE[v.type], v.id, v.version);
      this.batches.push(v);
    } else if (depth === 0) {
      this.headerComplete = true;
    }
  }

  private openRoot(name: string, a: Record<string, string>): void {
    if (this.change) {
      if (name !== 'osmChange') {
        throw new MaphistError(
          'INPUT_NOT_OSM',
          `${this.path} is not an OsmChange file: its root element is <${name}>, not <osmChange>. Give change files (.osc, .osc.gz, .osc.bz2); import a history file with \`maphist import\`.`,
          { path: this.path },
        );
      }
      if (a.generator !== undefined) this.header.generator = a.generator;
      return;
    }
    if (name === 'osmChange') {
      throw new MaphistError(
        'INPUT_UNSUPPORTED',
        `${this.path} is an OsmChange file (a diff), not a history file. Apply it to a history with ` +
          '`osmium apply-changes --with-history HISTORY.osh.pbf CHANGES.osc -o NEW.osh.pbf` and import the result.',
        { path: this.path },
      );
    }
    if (name !== 'osm') {
      throw new MaphistError('INPUT_NOT_OSM', `${this.path} is XML but not OSM XML: its root element is <${name}>, not <osm>. Give an OSM history file.`, {
        path: this.path,
      });
    }
    if (a.version !== undefined && a.version !== '0.6') {
      throw new MaphistError(
        'INPUT_UNSUPPORTED',
        `${this.path} is OSM XML version ${a.version}; maphist reads version 0.6 (the current OSM API). Convert it with osmium first.`,
        { path: this.path },
      );
    }
    if (a.generator !== undefined) this.header.generator = a.generator;
  }

  private startVersion(type: 'node' | 'way' | 'relation', a: Record<string, string>): OsmVersion {
    const id = this.integer(a.id, `${type} id`);
    const version = a.version === undefined ? 0 : this.integer(a.version, `${type} ${id} version`);
    let timestamp = 0;
    if (a.timestamp !== undefined) {
      timestamp = parseIsoTimestamp(a.timestamp);
      if (Number.isNaN(timestamp)) throw this.corrupt(`${type} ${id} has an invalid timestamp "${a.timestamp}"`);
    }
    const changeset = a.changeset === undefined ? 0 : this.integer(a.changeset, `${type} ${id} changeset`);
    const uid = a.uid === undefined ? -1 : this.integer(a.uid, `${type} ${id} uid`);
    const user = a.user ?? '';
    const visible = a.visible !== 'false';
    const tags: string[] = [];
    // Same property order as the PBF reader's records (one object shape per type).
    if (type === 'node') {
      let lon = 0;
      let lat = 0;
      if (visible) {
        if (a.lat === undefined || a.lon === undefined) throw this.corrupt(`visible node ${id} version ${version} has no location`);
        lon = Math.round(this.number(a.lon) * 1e7);
        lat = Math.round(this.number(a.lat) * 1e7);
      }
      const node: NodeVersion = { type, id, version, timestamp, changeset, uid, user, visible, tags, lon, lat };
      return node;
    }
    if (type === 'way') {
      const way: WayVersion = { type, id, version, timestamp, changeset, uid, user, visible, tags, refs: [] };
      return way;
    }
    const relation: RelationVersion = { type, id, version, timestamp, changeset, uid, user, visible, tags, members: [] };
    return relation;
  }

  private integer(text: string | undefined, what: string): number {
    const value = text === undefined || text === '' ? Number.NaN : Number(text);
    if (!Number.isSafeInteger(value)) throw this.corrupt(`${what} is "${text ?? ''}", not an integer`);
    return value;
  }

  private number(text: string | undefined): number {
    const value = text === undefined || text === '' ? Number.NaN : Number(text);
    if (!Number.isFinite(value)) throw this.corrupt(`"${text ?? ''}" is not a number`);
    return value;
  }

  private corrupt(what: string): MaphistError {
    return new MaphistError(
      'INPUT_CORRUPT',
      `${this.path} is damaged near line ${this.feed.sax.line}: ${what}. Fix or re-export the file (\`osmium fileinfo -e\` helps find the problem).`,
      { path: this.path, line: this.feed.sax.line },
    );
  }
}
