/** JSON Schemas of the area of interest (docs/reference/v2-reference-and-contributions-format.md §1.3). The parser (params/aoi.ts) checks geometry validity. */

export const BBOX_SCHEMA = {
  type: 'array',
  description:
    'Bounding box [xmin, ymin, xmax, ymax] in WGS84 longitude/latitude. A bbox crossing the antimeridian (xmin < -180 or xmax > 180) is split in two.',
  items: { type: 'number' },
  minItems: 4,
  maxItems: 4,
  examples: [[1.515, 42.5, 1.54, 42.515]],
} as const;

export const GEOJSON_POLYGONAL_SCHEMA = {
  type: 'object',
  description:
    'A GeoJSON geometry of type Polygon or MultiPolygon (not a Feature or FeatureCollection). Positions may be 2D or 3D; rings need at least 4 positions.',
  properties: {
    type: { type: 'string', enum: ['Polygon', 'MultiPolygon'] },
    coordinates: { type: 'array', items: { type: 'array' } },
    bbox: { type: 'array', items: { type: 'number' } },
  },
  required: ['type', 'coordinates'],
  additionalProperties: false,
  examples: [
    {
      type: 'Polygon',
      coordinates: [
        [
          [1.5, 42.5],
          [1.56, 42.5],
          [1.53, 42.55],
          [1.5, 42.5],
        ],
      ],
    },
  ],
} as const;

export const WKT_OR_JSON_TEXT_SCHEMA = {
  type: 'string',
  description: 'WKT POLYGON or MULTIPOLYGON; a string that looks like JSON is parsed as a bbox array or GeoJSON geometry.',
  examples: ['POLYGON((1.5 42.5, 1.56 42.5, 1.53 42.55, 1.5 42.5))'],
} as const;

export const AOI_SCHEMA = {
  title: 'a bounding box [xmin, ymin, xmax, ymax], a GeoJSON Polygon or MultiPolygon, or a WKT string',
  description: 'The area of interest.',
  anyOf: [BBOX_SCHEMA, GEOJSON_POLYGONAL_SCHEMA, WKT_OR_JSON_TEXT_SCHEMA],
} as const;

/** GET extraction. */
export const AOI_TEXT_SCHEMA = {
  type: 'string',
  description: 'Bounding box as `xmin,ymin,xmax,ymax` (WGS84 longitude/latitude).',
  examples: ['1.515,42.500,1.540,42.515'],
} as const;
