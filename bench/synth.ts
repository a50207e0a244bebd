/**
 * Makes a large synthetic history file by tiling a real one N times:
 *
 *   npm run bench:synth -- --times N [--input FILE] [--out FILE]
 *
 * Copy k (0 … N−1) of the input gets every id offset by k × the id stride of its type (the type's
 * largest id + 1, rounded up to a power of 10; node refs and relation members by their target
 * type's stride) and every coordinate moved by the k-th step of a longitude/latitude grid over the
 * globe. Timestamps, users, changesets and tags stay as they are. Copy 0 is the input itself.
 *
 * The output must be sorted by type, id, version, so it is written type by type and, within a
 * type, copy by copy. To keep memory bounded, nothing is held in memory: a first pass splits the
 * input into one temporary file per type (and finds the largest ids), then each (type, copy) pass
 * streams that type's file again.
 */

import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { OSM_TYPE_CODE, OSM_TYPE_NAME, type FileHeader, type OsmVersion } from '../src/core/osm.js';
import { openHistory } from '../src/io/open-history.js';
import { createPbfWriter, type PbfWriter } from '../src/io/pbf-writer/index.js';
import { FOUR_COUNTRIES } from '../src/testing/test-data.js';

const DEFAULT_INPUT = FOUR_COUNTRIES;
const PROGRESS_EVERY_MS = 5_000;

/** Fixed-point (1e-7 degree) limits: longitudes wrap at ±180, latitudes fold back at ±85. */
const LON_LIMIT = 1_800_000_000;
const LAT_LIMIT = 850_000_000;

interface Options {
  times: number;
  input: string;
  out: string;
}

/** Per type (indexed by OSM_TYPE_CODE): what copy k adds to an id of that type is k × stride. */
type IdStrides = [node: number, way: number, relation: number];

interface CoordinateShift {
  lon: number;
  lat: number;
}

interface SplitInput {
  header: FileHeader;
  /** Per type: a temporary PBF holding only that type's versions. */
  files: [string, string, string];
  versions: [number, number, number];
  maxIds: [number, number, number];
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const tempDir = mkdtempSync(join(tmpdir(), 'maphist-synth-'));
  try {
    const input = await splitByType(options.input, tempDir);
    const strides = idStrides(input.maxIds);
    checkIdsStaySafe(input.maxIds, strides, options.times);
    console.log(
      `synth: input ${options.input}: ${input.versions.join(' / ')} node / way / relation versions; ` +
        `id strides ${strides.join(' / ')}; ${options.times} copies → ${options.out}`,
    );

    mkdirSync(dirname(options.out), { recursive: true });
    const writer = createPbfWriter(options.out, outputHeader(input.header));
    const progress = new ProgressReporter(options.out, started);
    for (const type of OSM_TYPE_NAME) {
      for (let copy = 0; copy < options.times; copy++) {
        await writeCopy(writer, input.files[OSM_TYPE_CODE[type]], copy, strides, coordinateShift(copy, options.times), progress);
        progress.maybeReport(`${type}s copy ${copy + 1}/${options.times}`);
      }
      progress.report(`${type}s done`);
    }
    await writer.close();

    const seconds = (performance.now() - started) / 1000;
    const bytes = statSync(options.out).size;
    console.log(
      `synth: wrote ${progress.versions} versions, ${bytes} bytes (${(bytes / 2 ** 20).toFixed(1)} MiB) ` +
        `to ${options.out} in ${seconds.toFixed(1)} s (${Math.round(progress.versions / seconds)} versions/s)`,
    );
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      times: { type: 'string' },
      input: { type: 'string', default: DEFAULT_INPUT },
      out: { type: 'string' },
    },
  });
  const times = Number(values.times);
  if (!Number.isInteger(times) || times < 1) {
    throw new Error('usage: npm run bench:synth -- --times N [--input FILE] [--out FILE]   (N ≥ 1)');
  }
  return { times, input: values.input, out: values.out ?? `bench/out/synth-x${times}.osh.pbf` };
}

/** One pass over the input: copies each type's versions to a file of its own and finds the largest ids. */
async function splitByType(inputPath: string, tempDir: string): Promise<SplitInput> {
  const history = await openHistory(inputPath);
  const files = OSM_TYPE_NAME.map((type) => join(tempDir, `${type}s.osh.pbf`)) as SplitInput['files'];
  const writers = files.map((file) => createPbfWriter(file, history.header));
  const split: SplitInput = { header: history.header, files, versions: [0, 0, 0], maxIds: [0, 0, 0] };
  try {
    for await (const batch of history.batches()) {
      for (const v of batch) {
        if (v.id < 0) throw new Error(`synth: ${v.type} ${v.id}: negative ids cannot be tiled`);
        const t = OSM_TYPE_CODE[v.type];
        split.versions[t]++;
        if (v.id > split.maxIds[t]) split.maxIds[t] = v.id;
        const wait = writers[t]!.write(v);
        if (wait) await wait;
      }
    }
  } finally {
    await history.close();
    await Promise.all(writers.map((w) => w.close()));
  }
  return split;
}

/** Per type: the smallest power of 10 above its largest id, so copies never share an id. */
function idStrides(maxIds: readonly number[]): IdStrides {
  return maxIds.map((maxId) => {
    let stride = 1;
    while (stride < maxId + 1) stride *= 10;
    return stride;
  }) as IdStrides;
}

function checkIdsStaySafe(maxIds: readonly number[], strides: IdStrides, times: number): void {
  for (const t of [0, 1, 2] as const) {
    const largest = (times - 1) * strides[t] + maxIds[t]!;
    if (largest > Number.MAX_SAFE_INTEGER) {
      throw new Error(`synth: ${times} copies would give ${OSM_TYPE_NAME[t]} ids past 2^53`);
    }
  }
}

/**
 * Copy k's place on the globe: copies fill a grid of about twice as many columns as rows, so
 * every copy of a run sits somewhere else. Copy 0 stays where the input is.
 */
function coordinateShift(copy: number, times: number): CoordinateShift {
  const columns = Math.ceil(Math.sqrt(2 * times));
  const rows = Math.ceil(times / columns);
  return {
    lon: (copy % columns) * Math.round((2 * LON_LIMIT) / columns),
    lat: Math.floor(copy / columns) * Math.round((2 * LAT_LIMIT) / rows),
  };
}

/** Streams one type's file, shifted to copy `copy`, into the writer. */
async function writeCopy(
  writer: PbfWriter,
  typeFile: string,
  copy: number,
  strides: IdStrides,
  shift: CoordinateShift,
  progress: ProgressReporter,
): Promise<void> {
  const history = await openHistory(typeFile);
  try {
    for await (const batch of history.batches()) {
      for (const v of batch) {
        moveToCopy(v, copy, strides, shift);
        const wait = writer.write(v);
        if (wait) await wait;
      }
      progress.versions += batch.length;
    }
  } finally {
    await history.close();
  }
}

/**
 * Turns a version of the input into its copy `copy`, in place: every pass reads the file anew,
 * so the reader's objects are this pass's own, and not copying them saves allocating tens of
 * millions of objects.
 */
function moveToCopy(v: OsmVersion, copy: number, strides: IdStrides, shift: CoordinateShift): void {
  if (copy === 0) return;
  v.id += copy * strides[OSM_TYPE_CODE[v.type]];
  switch (v.type) {
    case 'node':
      // Deleted nodes have no location (0/0) and keep it.
      if (v.visible) {
        v.lon = wrapLongitude(v.lon + shift.lon);
        v.lat = foldLatitude(v.lat + shift.lat);
      }
      break;
    case 'way': {
      const nodeOffset = copy * strides[OSM_TYPE_CODE.node];
      const refs = v.refs;
      for (let i = 0; i < refs.length; i++) refs[i]! += nodeOffset;
      break;
    }
    case 'relation':
      for (const member of v.members) member.ref += copy * strides[OSM_TYPE_CODE[member.type]];
      break;
  }
}

/** Into [−180°, 180°): the globe wraps around in longitude. */
function wrapLongitude(lon: number): number {
  const period = 2 * LON_LIMIT;
  return ((((lon + LON_LIMIT) % period) + period) % period) - LON_LIMIT;
}

/** Into [−85°, 85°], mirrored at the limits, so that neighbouring points stay neighbours. */
function foldLatitude(lat: number): number {
  const period = 4 * LAT_LIMIT;
  let t = (((lat + LAT_LIMIT) % period) + period) % period;
  if (t > 2 * LAT_LIMIT) t = period - t;
  return t - LAT_LIMIT;
}

/** The input's header minus its bounding box, which the copies spread far beyond. */
function outputHeader(input: FileHeader): FileHeader {
  const { bbox: _inputBbox, ...rest } = input;
  return rest;
}

class ProgressReporter {
  versions = 0;
  private lastReport = performance.now();

  constructor(
    private readonly out: string,
    private readonly started: number,
  ) {}

  maybeReport(step: string): void {
    if (performance.now() - this.lastReport >= PROGRESS_EVERY_MS) this.report(step);
  }

  report(step: string): void {
    this.lastReport = performance.now();
    const seconds = (this.lastReport - this.started) / 1000;
    const mib = statSync(this.out).size / 2 ** 20;
    console.log(`synth: ${step}: ${this.versions} versions, ${mib.toFixed(1)} MiB, ${seconds.toFixed(1)} s`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
