/**
 * The reference's error texts (docs/reference/v1-reference-behaviour.md §1–§2), quoted verbatim because clients match
 * on them. Texts the reference never produced (it answered 500, or accepted nonsense) are ours and
 * are built where they are thrown; README.md lists them.
 */
export const MSG = {
  CONTENT_TYPE: "Unsupported content-type header found. Please make sure to use either 'multipart/form-data' or 'application/x-www-form-urlencoded'.",
  NO_PARAMS: 'The query did not specify any parameter. Please remember: You need to define one of the boundary parameters (bboxes, bcircles, bpolys).',
  METADATA_NO_PARAMS: "The endpoint 'metadata' does not require parameters",
  duplicate: (name: string) => `Every parameter has to be unique. You can't give more than one '${name}' parameter.`,

  NO_BOUNDARY: 'You need to define one of the boundary parameters (bboxes, bcircles, bpolys).',
  BOUNDARY_MULTIPLE: 'Your provided boundary parameter (bboxes, bcircles, or bpolys) does not fit its format, or you defined more than one boundary parameter.',
  BOUNDARY_PARAM_FORMAT:
    'Error in processing the boundary parameter. Please remember to follow the format, where you separate every coordinate with a comma, each boundary object with a pipe-sign and add optional custom ids to every first coordinate with a colon.',
  BOUNDARY_IDS_FORMAT:
    "One or more boundary object(s) have a custom id (or at least a colon), whereas other(s) don't. You can either set custom ids for all your boundary objects, or for none.",
  BBOXES_NUMBERS: 'Apart from the custom ids, the bboxeses array must contain double-parseable values in the following order: minLon, minLat, maxLon, maxLat.',
  BCIRCLES_FORMAT: 'Each bcircle must consist of a lon/lat coordinate pair plus a buffer in meters.',
  BPOLYS_FORMAT: 'The bpolys parameter must contain double-parseable values in form of lon/lat coordinate pairs.',
  BPOLYS_INVALID_PREFIX: 'The defined bpolys parameter contains some invalid geometry: ',
  GEOJSON_NOT_FC:
    "Error in reading the provided GeoJSON. The given GeoJSON has to be of the type 'FeatureCollection'. Please take a look at the documentation page for the bpolys parameter to see an example of a fitting GeoJSON input file.",
  GEOJSON_CONVERT:
    'The provided GeoJSON cannot be converted. Please take a look at the documentation page for the bpolys parameter to see an example of a fitting GeoJSON input file.',
  GEOJSON_ID: 'The provided custom id(s) could not be parsed.',
  CSV_ID_SEMICOLON: 'The given custom ids cannot contain semicolons, if you want to use csv as output format.',
  BOUNDARY_OUTSIDE: 'The provided boundary parameter does not lie completely within the underlying data-extract polygon.',

  TIME_FORMAT: 'The provided time parameter is not ISO-8601 conform.',
  TIME_PERIOD: 'The interval (period) of the provided time parameter is not ISO-8601 conform.',
  timeOutside: (from: string, to: string) => `The given time parameter is not completely within the timeframe (${from} to ${to}) of the underlying osh-data.`,
  TIME_AT_LEAST_TWO: 'You need to give at least two timestamps or a time interval for this resource.',
  TIME_EXACTLY_TWO: 'Wrong time parameter. You need to give exactly two ISO-8601 conform timestamps.',

  FILTER_SYNTAX_PREFIX:
    'Invalid filter syntax. Please look at the additional info and examples about the filter parameter at https://docs.ohsome.org/ohsome-api. Detailed error message: ',
  FILTER_CHANGESET:
    'Invalid filter: The changeset filters can only be used in contribution based API endpoints. Please look at the additional info and examples about the filter parameter at https://docs.ohsome.org/ohsome-api.',
  FILTER_WITH_DEPRECATED: 'The keys, values and types parameters must be empty, when you set the filter parameter.',
  VALUES_MORE_THAN_KEYS: 'There cannot be more input values in the values|values2 than in the keys|keys2 parameter, as values_n must fit to keys_n.',
  TYPES_TOO_MANY: "Parameter 'types' (and 'types2') cannot have more than 4 entries.",
  TYPES_INVALID:
    "Parameter 'types' (and 'types2') can only have 'node' and/or 'way' and/or 'relation' OR 'point' and/or 'line' and/or 'polygon' and/or 'other'",
  FILTER2_MISSING: 'The filter2 parameter has to be defined when using a /ratio endpoint.',

  GROUP_BY_KEYS: 'You need to give one groupByKeys parameter, if you want to use groupBy/key.',
  GROUP_BY_KEY: 'You need to give one groupByKey parameter, if you want to use groupBy/tag.',

  FORMAT:
    "The given 'format' parameter is invalid. Please choose between 'geojson'(only available for /groupBy/boundary and data extraction requests), 'json', or 'csv'.",
  SHOW_METADATA: "The given parameter showMetadata can only contain the values 'true', 'yes', 'false', or 'no'.",
  CLIP_GEOMETRY: "The given parameter clipGeometry can only contain the values 'true', 'yes', 'false', or 'no'.",
  PROPERTIES: "The properties parameter of this resource can only contain the values 'tags' and/or 'metadata' and/or 'unclipped'.",
  PROPERTIES_CONTRIBUTIONS:
    "The properties parameter of this resource can only contain the values 'tags' and/or 'metadata' and/or 'contributionTypes' and/or 'unclipped'.",
  CONTRIBUTION_TYPE: "The contribution type must be 'creation', 'deletion','geometryChange', 'tagChange' or a combination of them",
  TIMEOUT_FORMAT: 'The given timeout does not fit to its format. Please give one value in seconds and use a point as the decimal delimiter, if needed.',
  timeoutTooLong: (limit: string) => `The given timeout is too long. It has to be shorter than ${limit} seconds`,
} as const;
