/** The attribution every response carries: the data is OpenStreetMap's, under the ODbL. */
export const ATTRIBUTION = {
  url: 'https://www.openstreetmap.org/copyright',
  text: '© OpenStreetMap contributors',
} as const;

/** The version reported as `apiVersion`. */
export const API_VERSION = '1.10.4-maphist.0.1.0';
export const API_VERSION_V2 = '2.0.0-maphist.0.1.0';
