/**
 * A circle of `radius` metres around a point as a 32-gon on the WGS84 ellipsoid (docs/reference/v1-reference-behaviour.md §1.4: the
 * reference buffered in UTM with 8 segments per quadrant; we place the 32 vertices at the true
 * geodesic distance, which is what "a circle of r metres" means anywhere on the globe).
 */
import type { Polygon, Position } from '../../../geometry/types.js';

const A = 6378137;
const F = 1 / 298.257223563;
const B = A * (1 - F);

export const CIRCLE_SEGMENTS = 32;

/** Vincenty's direct formula: the point `distance` metres from (lon, lat) at `azimuth` degrees (clockwise from north). */
export function destination(lon: number, lat: number, azimuthDeg: number, distance: number): Position {
  const rad = Math.PI / 180;
  const alpha1 = azimuthDeg * rad;
  const sinAlpha1 = Math.sin(alpha1);
  const cosAlpha1 = Math.cos(alpha1);
  const tanU1 = (1 - F) * Math.tan(lat * rad);
  const cosU1 = 1 / Math.sqrt(1 + tanU1 * tanU1);
  const sinU1 = tanU1 * cosU1;
  const sigma1 = Math.atan2(tanU1, cosAlpha1);
  const sinAlpha = cosU1 * sinAlpha1;
  const cosSqAlpha = 1 - sinAlpha * sinAlpha;
  const uSq = (cosSqAlpha * (A * A - B * B)) / (B * B);
  const bigA = 1 + (uSq / 16384) * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)));
  const bigB = (uSq / 1024) * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)));
  let sigma = distance / (B * bigA);
  let cos2SigmaM = 0;
  let sinSigma = 0;
  let cosSigma = 0;
  for (let i = 0; i < 100; i++) {
    cos2SigmaM = Math.cos(2 * sigma1 + sigma);
    sinSigma = Math.sin(sigma);
    cosSigma = Math.cos(sigma);
    const deltaSigma =
      bigB *
      sinSigma *
      (cos2SigmaM +
        (bigB / 4) *
          (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - (bigB / 6) * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)));
    const next = distance / (B * bigA) + deltaSigma;
    if (Math.abs(next - sigma) < 1e-12) {
      sigma = next;
      break;
    }
    sigma = next;
  }
  cos2SigmaM = Math.cos(2 * sigma1 + sigma);
  sinSigma = Math.sin(sigma);
  cosSigma = Math.cos(sigma);
  const tmp = sinU1 * sinSigma - cosU1 * cosSigma * cosAlpha1;
  const lat2 = Math.atan2(sinU1 * cosSigma + cosU1 * sinSigma * cosAlpha1, (1 - F) * Math.sqrt(sinAlpha * sinAlpha + tmp * tmp));
  const lambda = Math.atan2(sinSigma * sinAlpha1, cosU1 * cosSigma - sinU1 * sinSigma * cosAlpha1);
  const c = (F / 16) * cosSqAlpha * (4 + F * (4 - 3 * cosSqAlpha));
  const l = lambda - (1 - c) * F * sinAlpha * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)));
  return [lon + l / rad, lat2 / rad];
}

/**
 * The counter-clockwise 32-gon around (lon, lat), first vertex due east. Longitudes are not
 * wrapped: a circle across the antimeridian has longitudes beyond ±180 (and so lies outside any
 * data extent). The caller checks the radius and the poles.
 */
export function geodesicCircle(lon: number, lat: number, radius: number, segments = CIRCLE_SEGMENTS): Polygon {
  const ring: Position[] = [];
  for (let k = 0; k < segments; k++) {
    const p = destination(lon, lat, 90 - (k * 360) / segments, radius);
    ring.push([round7(p[0]), round7(p[1])]);
  }
  ring.push([ring[0]![0], ring[0]![1]]);
  return { type: 'Polygon', coordinates: [ring] };
}

/** Snaps to the reference's 1e-7 degree precision. */
export function round7(x: number): number {
  return Math.round(x * 1e7) / 1e7;
}
