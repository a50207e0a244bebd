/**
 * The dashboard page (served at `/` by src/api/dashboard/plugin.ts, bundled by
 * scripts/build-dashboard.mjs): a form for a v1 aggregation query, the answer as a uPlot chart and
 * a table, downloads, the API URL and `curl` command, and the query in the page URL (a permalink
 * that runs the query when opened). Every request goes to the server that served the page.
 */
import L from 'leaflet';
import 'leaflet-draw';
import uPlot from 'uplot';
import 'leaflet/dist/leaflet.css';
import 'leaflet-draw/dist/leaflet.draw.css';
import 'uplot/dist/uPlot.min.css';
import './style.css';
import {
  apiPath,
  bboxOfCoordinates,
  bboxText,
  curlCommand,
  endpointOf,
  epochSeconds,
  extraParameters,
  filterErrorPosition,
  type Grouping,
  INTERVALS,
  type Measure,
  offsetOf,
  parseBboxes,
  partsOf,
  permalinkSearch,
  type Query,
  queryOfSearch,
  type ResultTable,
  tableOf,
  timeFormOf,
  timeOfForm,
} from '../query.js';

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing`);
  return el as T;
};
const input = (id: string) => $<HTMLInputElement>(id);
const select = (id: string) => $<HTMLSelectElement>(id);
const textarea = (id: string) => $<HTMLTextAreaElement>(id);

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
const CONTRIBUTION_TYPES = ['creation', 'deletion', 'tagChange', 'geometryChange'];

interface Metadata {
  extent?: [number, number, number, number];
  from?: string;
  to?: string;
}
const metadata: Metadata = {};

// ---------------------------------------------------------------- the form ↔ the query

function formQuery(): Query {
  const measure = select('measure').value as Measure;
  const grouping = select('grouping').value as Grouping;
  let endpoint = endpointOf(measure, input('density').checked, grouping);
  if (!partsOf(endpoint)) endpoint = endpointOf(measure, input('density').checked, '');
  if (!partsOf(endpoint)) endpoint = measure;
  const params: Record<string, string> = {};
  const kind = select('area-kind').value;
  params[kind] = textarea('area').value.trim();
  const timeMode = select('time-mode').value;
  params.time =
    timeMode === 'list'
      ? timeOfForm({ mode: 'list', list: textarea('time-list').value })
      : timeOfForm({ mode: 'range', start: input('time-start').value, end: input('time-end').value, interval: intervalValue() });
  params.filter = textarea('filter').value.trim();
  params.groupByKey = input('groupByKey').value.trim();
  params.groupByValues = input('groupByValues').value.trim();
  params.groupByKeys = input('groupByKeys').value.trim();
  const types = CONTRIBUTION_TYPES.filter((t) => input(`ct-${t}`).checked);
  params.contributionType = types.join(',');
  return { endpoint, params };
}

function intervalValue(): string {
  const v = select('time-interval').value;
  return v === 'custom' ? input('time-interval-custom').value.trim() : v;
}

function setForm(q: Query): void {
  const parts = partsOf(q.endpoint)!;
  select('measure').value = parts.measure;
  input('density').checked = parts.density;
  select('grouping').value = parts.grouping;
  const kind = q.params.bpolys ? 'bpolys' : q.params.bcircles ? 'bcircles' : 'bboxes';
  select('area-kind').value = kind;
  textarea('area').value = q.params[kind] ?? '';
  const t = timeFormOf(q.params.time ?? '');
  select('time-mode').value = t.mode;
  if (t.mode === 'list') textarea('time-list').value = t.list;
  else {
    input('time-start').value = t.start;
    input('time-end').value = t.end;
    const preset = INTERVALS.some((i) => i.value === t.interval) || t.interval === '' ? t.interval : 'custom';
    select('time-interval').value = preset;
    input('time-interval-custom').value = preset === 'custom' ? t.interval : '';
  }
  textarea('filter').value = q.params.filter ?? '';
  input('groupByKey').value = q.params.groupByKey ?? '';
  input('groupByValues').value = q.params.groupByValues ?? '';
  input('groupByKeys').value = q.params.groupByKeys ?? '';
  const types = (q.params.contributionType ?? '').split(',');
  for (const t of CONTRIBUTION_TYPES) input(`ct-${t}`).checked = types.includes(t);
  updateVisibility();
  drawArea();
  validateFilter();
}

/** Shows the inputs the chosen endpoint takes; greys out the groupings it lacks. */
function updateVisibility(): void {
  const measure = select('measure').value as Measure;
  const density = input('density').checked;
  for (const option of Array.from(select('grouping').options))
    option.disabled = !partsOf(endpointOf(measure, density, option.value as Grouping)) && option.value !== '';
  if (select('grouping').selectedOptions[0]?.disabled) select('grouping').value = '';
  input('density').disabled = !partsOf(endpointOf(measure, true, ''));
  if (input('density').disabled) input('density').checked = false;
  const extra = extraParameters(endpointOf(measure, input('density').checked, select('grouping').value as Grouping));
  $('row-groupByTag').hidden = !extra.includes('groupByKey');
  $('row-groupByKeys').hidden = !extra.includes('groupByKeys');
  $('row-contributionType').hidden = !extra.includes('contributionType');
  const list = select('time-mode').value === 'list';
  $('time-range').hidden = list;
  $('time-list-row').hidden = !list;
  input('time-interval-custom').hidden = select('time-interval').value !== 'custom';
}

// ---------------------------------------------------------------- filter validation as you type

let filterTimer: ReturnType<typeof setTimeout> | undefined;
let filterController: AbortController | undefined;

function validateFilter(): void {
  clearTimeout(filterTimer);
  filterTimer = setTimeout(runFilterValidation, 200);
}

async function runFilterValidation(): Promise<void> {
  filterController?.abort();
  const controller = (filterController = new AbortController());
  const text = textarea('filter').value;
  const status = $('filter-status');
  const mark = $('filter-mark');
  if (text.trim() === '') {
    status.textContent = 'no filter: every element';
    status.className = 'hint';
    mark.hidden = true;
    return;
  }
  try {
    const r = await fetch(`/v2-rc/filter/validate?${new URLSearchParams({ filter: text })}`, { signal: controller.signal });
    if (controller.signal.aborted) return;
    if (r.ok) {
      status.textContent = '✓ valid filter';
      status.className = 'ok';
      mark.hidden = true;
      return;
    }
    const body = (await r.json().catch(() => ({}))) as { detail?: { msg?: string }[]; message?: string };
    const message = body.detail?.[0]?.msg ?? body.message ?? `HTTP ${r.status}`;
    status.textContent = message;
    status.className = 'error';
    const pos = filterErrorPosition(message);
    if (pos) {
      const offset = offsetOf(text, pos);
      mark.replaceChildren(
        document.createTextNode(text.slice(0, offset)),
        Object.assign(document.createElement('mark'), { textContent: text.slice(offset, offset + 1) || ' ' }),
        document.createTextNode(text.slice(offset + 1)),
      );
      mark.dataset.offset = String(offset);
      mark.hidden = false;
    } else mark.hidden = true;
  } catch (e) {
    if ((e as Error).name !== 'AbortError') {
      status.textContent = `could not validate the filter: ${(e as Error).message}`;
      status.className = 'error';
    }
  }
}

// ---------------------------------------------------------------- the map

let map: L.Map | undefined;
/** The area's shapes take no clicks: a shape drawn over them gets every click. */
const AREA_STYLE: L.PathOptions = { weight: 2, interactive: false };
const areaLayer = L.featureGroup();

function setupMap(basemapUrl: string | undefined): void {
  map = L.map('map', { zoomControl: true, attributionControl: true }).setView([42.5, 1.55], 9);
  if (basemapUrl) L.tileLayer(basemapUrl, { maxZoom: 19, attribution: $('config').dataset.basemapAttribution || '© OpenStreetMap contributors' }).addTo(map);
  areaLayer.addTo(map);
  const draw = new L.Control.Draw({
    draw: { polyline: false, circle: false, marker: false, circlemarker: false, rectangle: { showArea: false }, polygon: {} },
  });
  map.addControl(draw);
  map.on(L.Draw.Event.CREATED, (e) => {
    const layer = (e as L.DrawEvents.Created).layer as L.Polygon;
    addDrawn(layer, (e as L.DrawEvents.Created).layerType === 'rectangle');
  });
  const drop = (ev: DragEvent) => {
    ev.preventDefault();
    const file = ev.dataTransfer?.files[0];
    if (file) void file.text().then(useGeoJson);
  };
  for (const el of [$('map'), textarea('area')]) {
    el.addEventListener('dragover', (ev) => ev.preventDefault());
    el.addEventListener('drop', drop);
  }
}

/** A rectangle adds to `bboxes`; a polygon (or a rectangle while the area is polygons) to `bpolys`. */
function addDrawn(layer: L.Polygon, rectangle: boolean): void {
  const kind = select('area-kind').value;
  const area = textarea('area');
  if (rectangle && kind === 'bboxes') {
    const b = layer.getBounds();
    const box = bboxText([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()]);
    area.value = area.value.trim() ? `${area.value.trim()}|${box}` : box;
  } else {
    const features = currentFeatures();
    const geometry = (layer.toGeoJSON() as GeoJSON.Feature).geometry;
    features.push({ type: 'Feature', id: String(features.length + 1), properties: {}, geometry });
    select('area-kind').value = 'bpolys';
    area.value = JSON.stringify({ type: 'FeatureCollection', features });
  }
  drawArea();
}

function boxFeature([w, s, e, n]: readonly number[], id: string): GeoJSON.Feature {
  const ring = [
    [w!, s!],
    [e!, s!],
    [e!, n!],
    [w!, n!],
    [w!, s!],
  ];
  return { type: 'Feature', id, properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } };
}

/** The area as GeoJSON features (boxes become polygons), for adding a polygon to it. */
function currentFeatures(): GeoJSON.Feature[] {
  const kind = select('area-kind').value;
  const text = textarea('area').value.trim();
  if (!text) return [];
  if (kind === 'bboxes') return parseBboxes(text).map((b, i) => boxFeature(b.box, b.id ?? String(i + 1)));
  if (kind === 'bpolys' && text.startsWith('{')) {
    try {
      const g = JSON.parse(text) as GeoJSON.GeoJSON;
      if (g.type === 'FeatureCollection') return g.features;
      if (g.type === 'Feature') return [g];
      return [{ type: 'Feature', properties: {}, geometry: g as GeoJSON.Geometry }];
    } catch {
      return [];
    }
  }
  return [];
}

function useGeoJson(text: string): void {
  try {
    JSON.parse(text);
  } catch (e) {
    $('area-status').textContent = `not GeoJSON: ${(e as Error).message}`;
    return;
  }
  select('area-kind').value = 'bpolys';
  textarea('area').value = text.trim();
  drawArea();
}

/** Draws the area of the form on the map (what can be read of it). */
function drawArea(): void {
  areaLayer.clearLayers();
  $('area-status').textContent = '';
  const kind = select('area-kind').value;
  const text = textarea('area').value.trim();
  if (!text) return;
  if (kind === 'bboxes') {
    for (const b of parseBboxes(text)) {
      const [w, s, e, n] = b.box;
      L.rectangle(
        [
          [s, w],
          [n, e],
        ],
        AREA_STYLE,
      ).addTo(areaLayer);
    }
  } else if (kind === 'bpolys') {
    if (text.startsWith('{')) {
      try {
        L.geoJSON(JSON.parse(text) as GeoJSON.GeoJsonObject, { style: AREA_STYLE, interactive: false }).addTo(areaLayer);
      } catch (e) {
        $('area-status').textContent = `not GeoJSON: ${(e as Error).message}`;
      }
    } else {
      for (const part of text.split('|')) {
        const n = part
          .replace(/^[^:]*:/, '')
          .split(',')
          .map(Number);
        const ring: [number, number][] = [];
        for (let i = 0; i + 1 < n.length; i += 2) ring.push([n[i + 1]!, n[i]!]);
        if (ring.length >= 3 && ring.every(([a, b]) => Number.isFinite(a) && Number.isFinite(b))) L.polygon(ring, AREA_STYLE).addTo(areaLayer);
      }
    }
  } else if (kind === 'bcircles') {
    for (const part of text.split('|')) {
      const [lon, lat, r] = part
        .replace(/^[^:]*:/, '')
        .split(',')
        .map(Number);
      if ([lon, lat, r].every((x) => Number.isFinite(x))) L.circle([lat!, lon!], { ...AREA_STYLE, radius: r! }).addTo(areaLayer);
    }
  }
  const bounds = areaLayer.getBounds();
  if (map && bounds.isValid()) map.fitBounds(bounds, { padding: [10, 10], maxZoom: 14 });
}

// ---------------------------------------------------------------- running a query

let running: AbortController | undefined;
let plot: uPlot | undefined;
let jsonUrl: string | undefined;

async function run(q: Query): Promise<void> {
  running?.abort();
  const controller = (running = new AbortController());
  const path = apiPath(q);
  const status = $('status');
  $('api-url').textContent = `${location.origin}${path}`;
  $<HTMLAnchorElement>('api-url').href = path;
  $('curl').textContent = curlCommand(location.origin, q);
  $('query-info').hidden = false;
  status.className = 'loading';
  status.textContent = 'running the query…';
  document.body.dataset.state = 'loading';
  $<HTMLButtonElement>('cancel').hidden = false;
  $<HTMLButtonElement>('run').disabled = true;
  $('downloads').hidden = true;
  const started = performance.now();
  const tick = setInterval(() => (status.textContent = `running the query… ${((performance.now() - started) / 1000).toFixed(0)} s`), 1000);
  try {
    // Long areas go in a form body (the API takes both).
    const body = new URLSearchParams(path.split('?')[1] ?? '');
    const r =
      path.length > 4000
        ? await fetch(`/v1/${q.endpoint}`, { method: 'POST', body, signal: controller.signal })
        : await fetch(path, { signal: controller.signal, headers: { accept: 'application/json' } });
    const text = await r.text();
    if (running !== controller) return;
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      throw new Error(`HTTP ${r.status}: ${text.slice(0, 500)}`);
    }
    if (!r.ok) throw new Error((answer as { message?: string }).message ?? `HTTP ${r.status}`);
    const table = tableOf(answer);
    showResult(q, table, text);
    status.className = 'ok';
    status.textContent = `${plural(table.timestamps.length, 'timestamp')} × ${table.columns.length === 1 ? '1 series' : plural(table.columns.length, 'group')} in ${((performance.now() - started) / 1000).toFixed(2)} s`;
    document.body.dataset.state = 'done';
    performance.mark('maphist:chart');
  } catch (e) {
    if (running !== controller) return;
    const aborted = (e as Error).name === 'AbortError';
    status.className = aborted ? 'hint' : 'error';
    status.textContent = aborted ? 'cancelled' : (e as Error).message;
    document.body.dataset.state = aborted ? 'cancelled' : 'error';
  } finally {
    clearInterval(tick);
    if (running === controller) {
      running = undefined;
      $<HTMLButtonElement>('cancel').hidden = true;
      $<HTMLButtonElement>('run').disabled = false;
    }
  }
}

function showResult(q: Query, table: ResultTable, json: string): void {
  const name = q.endpoint.replace(/\//g, '-');
  if (jsonUrl) URL.revokeObjectURL(jsonUrl);
  jsonUrl = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
  const dj = $<HTMLAnchorElement>('download-json');
  dj.href = jsonUrl;
  dj.download = `maphist-${name}.json`;
  const dc = $<HTMLAnchorElement>('download-csv');
  dc.href = apiPath(q, 'csv');
  dc.download = `maphist-${name}.csv`;
  $('downloads').hidden = false;
  renderTable(table);
  renderChart(table, q);
}

function renderTable(t: ResultTable): void {
  const head = document.createElement('tr');
  const th = (s: string) => Object.assign(document.createElement('th'), { textContent: s });
  const td = (s: string) => Object.assign(document.createElement('td'), { textContent: s });
  head.append(...(t.interval ? [th('fromTimestamp'), th('toTimestamp')] : [th('timestamp')]), ...t.columns.map((c) => th(c.name)));
  const rows = t.timestamps.map((ts, i) => {
    const tr = document.createElement('tr');
    tr.append(...(t.interval ? [td(ts), td(t.ends[i]!)] : [td(ts)]), ...t.columns.map((c) => td(c.values[i] === null ? '' : String(c.values[i]))));
    return tr;
  });
  const thead = document.createElement('thead');
  thead.append(head);
  const tbody = document.createElement('tbody');
  tbody.append(...rows);
  $('result-table').replaceChildren(thead, tbody);
}

function renderChart(t: ResultTable, q: Query): void {
  plot?.destroy();
  const el = $('chart');
  el.replaceChildren();
  const xs = t.timestamps.map(epochSeconds);
  const data: uPlot.AlignedData = [xs, ...t.columns.map((c) => c.values)];
  const unit =
    q.endpoint.startsWith('elements/length') || q.endpoint.startsWith('elements/perimeter') ? 'm' : q.endpoint.startsWith('elements/area') ? 'm²' : '';
  plot = new uPlot(
    {
      width: Math.max(300, el.clientWidth),
      height: 320,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      series: [
        { label: t.interval ? 'from (UTC)' : 'time (UTC)' },
        ...t.columns.map((c, i) => ({
          label: c.name,
          stroke: COLORS[i % COLORS.length],
          width: 2,
          points: { show: xs.length < 60 },
          value: (_u: uPlot, v: number | null) => (v === null ? '–' : v.toLocaleString('en-US', { maximumFractionDigits: 3 })),
        })),
      ],
      axes: [{}, { label: unit, size: 70 }],
      scales: { x: { time: true } },
      legend: { live: true },
    },
    data,
    el,
  );
}

// ---------------------------------------------------------------- metadata, defaults, start

async function loadMetadata(): Promise<void> {
  try {
    const r = await fetch('/v1/metadata');
    const m = (await r.json()) as {
      extractRegion?: {
        spatialExtent?: { coordinates?: unknown };
        temporalExtent?: { fromTimestamp?: string; toTimestamp?: string };
        replicationSequenceNumber?: number;
      };
    };
    const region = m.extractRegion ?? {};
    metadata.extent = bboxOfCoordinates(region.spatialExtent?.coordinates);
    metadata.from = region.temporalExtent?.fromTimestamp;
    metadata.to = region.temporalExtent?.toTimestamp;
    $('meta-extent').textContent = metadata.extent ? metadata.extent.map((x) => x.toFixed(4)).join(', ') : '–';
    $('meta-time').textContent = `${metadata.from ?? '?'} – ${metadata.to ?? '?'}`;
    $('meta-sequence').textContent = String(region.replicationSequenceNumber ?? '–');
    if (metadata.extent && map) {
      const [w, s, e, n] = metadata.extent;
      L.rectangle(
        [
          [s, w],
          [n, e],
        ],
        { color: '#888', weight: 1, dashArray: '4 4', fill: false, interactive: false },
      ).addTo(map);
    }
  } catch (e) {
    $('meta-extent').textContent = `metadata unavailable: ${(e as Error).message}`;
  }
}

function defaultQuery(): Query {
  const year = (iso: string | undefined, fallback: number) => (iso ? Number(iso.slice(0, 4)) : fallback);
  const end = year(metadata.to, 2020);
  const start = Math.max(year(metadata.from, 2008) + 1, end - 10);
  const extent = metadata.extent;
  // The middle ninth of the data's extent: a question that answers quickly.
  const box = extent
    ? bboxText([
        extent[0] + (extent[2] - extent[0]) / 3,
        extent[1] + (extent[3] - extent[1]) / 3,
        extent[2] - (extent[2] - extent[0]) / 3,
        extent[3] - (extent[3] - extent[1]) / 3,
      ])
    : '';
  return { endpoint: 'elements/count', params: { bboxes: box, time: `${start}-01-01/${end}-01-01/P1Y`, filter: 'type:way and building=*' } };
}

function submit(): void {
  const q = formQuery();
  const search = `?${permalinkSearch(q)}`;
  if (location.search !== search) history.pushState(null, '', search);
  void run(q);
}

async function main(): Promise<void> {
  const config = $('config').dataset;
  setupMap(config.basemapUrl || undefined);
  for (const i of INTERVALS) select('time-interval').append(new Option(`${i.label} (${i.value})`, i.value));
  select('time-interval').append(new Option('none (start and end)', ''), new Option('custom…', 'custom'));
  for (const id of ['measure', 'grouping', 'density', 'time-mode', 'time-interval']) $(id).addEventListener('change', updateVisibility);
  // Boxes become polygons when the area is switched to bpolys (a polygon needs 6 numbers or more: 4 are a box).
  select('area-kind').addEventListener('change', () => {
    const text = textarea('area').value.trim();
    const boxes = parseBboxes(text);
    if (select('area-kind').value === 'bpolys' && text && boxes.length === text.split('|').length) {
      const features = boxes.map((b, i) => boxFeature(b.box, b.id ?? String(i + 1)));
      textarea('area').value = JSON.stringify({ type: 'FeatureCollection', features });
    }
    drawArea();
  });
  // A list of timestamps starts from the range's start and end.
  select('time-mode').addEventListener('change', () => {
    if (select('time-mode').value === 'list' && !textarea('time-list').value.trim())
      textarea('time-list').value = [input('time-start').value.trim(), input('time-end').value.trim()].filter(Boolean).join(',');
  });
  // Ctrl+Enter (⌘+Enter) runs the query from any field.
  $('query-form').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      submit();
    }
  });
  textarea('area').addEventListener('input', () => {
    if (select('area-kind').value === 'bboxes' && textarea('area').value.trim().startsWith('{')) select('area-kind').value = 'bpolys';
    drawArea();
  });
  textarea('filter').addEventListener('input', validateFilter);
  $('area-clear').addEventListener('click', () => {
    textarea('area').value = '';
    drawArea();
  });
  $('area-extent').addEventListener('click', () => {
    if (!metadata.extent) return;
    select('area-kind').value = 'bboxes';
    textarea('area').value = bboxText(metadata.extent);
    drawArea();
  });
  for (const preset of document.querySelectorAll<HTMLButtonElement>('[data-preset]'))
    preset.addEventListener('click', () => {
      select('time-mode').value = 'range';
      select('time-interval').value = preset.dataset.preset!;
      updateVisibility();
    });
  $('query-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    submit();
  });
  $('cancel').addEventListener('click', () => running?.abort());
  window.addEventListener('popstate', () => {
    const q = queryOfSearch(location.search);
    if (q) {
      setForm(q);
      void run(q);
    }
  });
  window.addEventListener('resize', () => plot?.setSize({ width: Math.max(300, $('chart').clientWidth), height: 320 }));

  const linked = queryOfSearch(location.search);
  if (linked) {
    setForm(linked);
    void run(linked);
    await loadMetadata();
  } else {
    await loadMetadata();
    setForm(defaultQuery());
    if (location.search.includes('endpoint=')) {
      $('status').className = 'error';
      $('status').textContent = `the link names an endpoint the dashboard does not offer: ${new URLSearchParams(location.search).get('endpoint')}`;
    }
  }
  document.body.dataset.ready = 'true';
}

void main();

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
