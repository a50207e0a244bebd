/** What the API plugins share of HTTP: the reference's CORS headers and gzip (docs/reference/v1-reference-behaviour.md §7). */

/**
 * The reference's CORS headers (docs/reference/v1-reference-behaviour.md §7), but without
 * `Access-Control-Allow-Credentials: true`: the reference sends it beside the wildcard origin, a
 * pair browsers refuse and the CORS rules forbid. maphist reads no cookies and no browser
 * credentials (a v2 key is an explicit `Authorization` header, which CORS allows without them), so
 * any origin may call it and none with credentials (SECURITY.md). v2 narrows the methods.
 */
export const CORS_OPTIONS = {
  origin: '*',
  methods: ['POST', 'GET'],
  maxAge: 3600,
  credentials: false,
  allowedHeaders: ['Origin', 'X-Requested-With', 'Content-Type', 'Accept', 'Authorization', 'X-REQUEST-URI'],
};

/** gzip for JSON, CSV and GeoJSON answers of at least 1400 bytes (docs/reference/v1-reference-behaviour.md §7); v2 narrows the types. */
export const COMPRESS_OPTIONS = {
  global: true,
  threshold: 1400,
  encodings: ['gzip' as const],
  customTypes: /^(application\/(json|geo\+json)|text\/csv)/,
};
