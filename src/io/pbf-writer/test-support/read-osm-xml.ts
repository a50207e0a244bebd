/**
 * A deliberately tiny OSM XML reader for the writer's tests: regular expressions over the
 * element lines osmium and the handmade test cases write. Not a general XML parser.
 */
import type { NodeVersion, OsmType, OsmVersion, RelationMember } from '../../../core/osm.js';

const ELEMENT = /<(node|way|relation)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/g;
const ATTRIBUTE = /([\w:]+)="([^"]*)"/g;
const TAG = /<tag k="([^"]*)" v="([^"]*)"\s*\/>/g;
const NODE_REF = /<nd ref="(-?\d+)"\s*\/>/g;
const MEMBER = /<member type="(\w+)" ref="(-?\d+)" role="([^"]*)"\s*\/>/g;

export function readOsmXml(xml: string): OsmVersion[] {
  const withoutComments = xml.replace(/<!--[\s\S]*?-->/g, '');
  const versions: OsmVersion[] = [];
  for (const [, type, attributeText, body = ''] of withoutComments.matchAll(ELEMENT)) {
    const a = attributes(attributeText!);
    const base = {
      id: Number(a.id),
      version: Number(a.version),
      timestamp: Date.parse(a.timestamp!) / 1000,
      changeset: Number(a.changeset ?? 0),
      uid: a.uid === undefined ? -1 : Number(a.uid),
      user: a.user ?? '',
      visible: a.visible !== 'false',
      tags: [...body.matchAll(TAG)].flatMap(([, k, v]) => [unescapeXml(k!), unescapeXml(v!)]),
    };
    if (type === 'node') {
      versions.push({ ...base, type: 'node', lon: fixed(a.lon), lat: fixed(a.lat) } satisfies NodeVersion);
    } else if (type === 'way') {
      versions.push({ ...base, type: 'way', refs: [...body.matchAll(NODE_REF)].map(([, ref]) => Number(ref)) });
    } else {
      const members: RelationMember[] = [...body.matchAll(MEMBER)].map(([, memberType, ref, role]) => ({
        type: memberType as OsmType,
        ref: Number(ref),
        role: unescapeXml(role!),
      }));
      versions.push({ ...base, type: 'relation', members });
    }
  }
  return versions;
}

function attributes(text: string): Record<string, string | undefined> {
  const result: Record<string, string> = {};
  for (const [, name, value] of text.matchAll(ATTRIBUTE)) result[name!] = unescapeXml(value!);
  return result;
}

function fixed(degrees: string | undefined): number {
  return degrees === undefined ? 0 : Math.round(Number(degrees) * 1e7);
}

function unescapeXml(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos|#x[0-9a-fA-F]+|#\d+);/g, (_, entity: string) => {
    switch (entity) {
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'amp':
        return '&';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
      default:
        return String.fromCodePoint(entity.startsWith('#x') ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10));
    }
  });
}
