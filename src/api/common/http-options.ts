/** What the API plugins share of HTTP: the reference's CORS headers and gzip (docs/reference/v1-reference-behaviour.md §7). */

/** The reference's CORS headers (docs/reference/v1-reference-behaviour.md §7); v2 narrows methods and credentials. */
export const CORS_OPTIONS = {
  origin: '*',
  methods: ['POST', 'GET'],
  maxAge: 3600,
  credentials: true,
  allowedHeaders: ['Origin', 'X-Requested-With', 'Content-Type', 'Accept', 'Authorization', 'X-REQUEST-URI'],
};

/** gzip for JSON, CSV and GeoJSON answers of at least 1400 bytes (docs/reference/v1-reference-behaviour.md §7); v2 narrows the types. */
export const COMPRESS_OPTIONS = {
  global: true,
  threshold: 1400,
  encodings: ['gzip' as const],
  customTypes: /^(application\/(json|geo\+json)|text\/csv)/,
};
