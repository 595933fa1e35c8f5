// The explorer page (index.html): lists the manifest's bundles and shows a chosen bundle's
// named queries as tables of typed values, in query order. What a bundle carries only for
// returning clients (leavers, missing-document markers) is shown apart, never as results.
//
// `?manifest=URL` explores another manifest; `#<bundle id>` opens a bundle. The page marks its
// progress for tests and tools: body[data-state] is loading | ready | error, and
// #bundle-view[data-bundle][data-state] says which bundle is shown and whether it loaded.
// Opening "What this site publishes" (#exposure) reads every bundle and lists the fields the
// site publishes per collection; #exposure[data-state] is loading | ready | error.
// Served by `bundlepress serve --watch`, the page reloads after every rebuild and shows a failed
// build's error in #build-error (see live-reload.js).

import { readManifest, siteUrl } from './bundlepress.js';
import { documentsByRole, documentsOfQuery, parseBundle } from './bundle-reader.js';
import { exposureSummary } from './exposure.js';
import { listenForBuilds, liveReloadPath } from './live-reload.js';
import { documentPathSegments, fieldValue } from './firestore-values.js';
import { compareUtf8, normalizedOrderBy, sortQueryResults } from './query-order.js';
import { describeQuery, describeValue, formatByteSize, formatTimestamp } from './value-format.js';

const page = {
  status: document.getElementById('status'),
  error: document.getElementById('error'),
  buildError: document.getElementById('build-error'),
  siteFacts: document.getElementById('site-facts'),
  bundles: document.getElementById('bundles'),
  bundleRows: document.querySelector('#bundle-table tbody'),
  view: document.getElementById('bundle-view'),
  exposure: document.getElementById('exposure'),
  exposureStatus: document.getElementById('exposure-status'),
  exposureError: document.getElementById('exposure-error'),
  exposureTables: document.getElementById('exposure-tables'),
};

/** The manifest being explored, once loaded: `{manifest, url}`. */
let site = null;
/** Increases with every bundle selection, so a slow earlier load cannot overwrite a later one. */
let selection = 0;

/**
 * Creates an element: `h('td', {class: 'number'}, '42')`. Attributes set to null or false are
 * left out; children are nodes or strings.
 */
function h(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value === true ? '' : String(value));
  }
  node.append(...children.flat().filter((child) => child !== null && child !== undefined));
  return node;
}

/** `1 document`, `2 documents`. */
function counted(count, noun) {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function setStatus(text) {
  page.status.textContent = text;
}

function showError(text) {
  page.error.textContent = text;
}

/** A failed build's error, above the last good site (which is what is still served). */
function showBuildError(message) {
  page.buildError.replaceChildren(
    h('h2', {}, 'The last build failed'),
    h('p', {}, 'This page shows the last good site, which is still the one served. Fix the error and save: the page reloads after the next build.'),
    h('pre', {}, message),
  );
  page.buildError.hidden = false;
}

function facts(pairs) {
  return pairs.map(([term, ...description]) => h('div', {}, h('dt', {}, term), h('dd', {}, ...description)));
}

/** A `<time>`: the full precision as text, milliseconds at most in `datetime` (as HTML allows). */
function timeElement(timestamp) {
  const text = formatTimestamp(timestamp);
  return h('time', { datetime: text.replace(/(\.\d{3})\d+Z$/, '$1Z') }, text);
}

function headerFacts(response) {
  const encoding = response.headers.get('content-encoding') ?? 'none (identity)';
  const cacheControl = response.headers.get('cache-control') ?? 'not sent';
  return [h('code', {}, `Content-Encoding: ${encoding}`), ' · ', h('code', {}, `Cache-Control: ${cacheControl}`)];
}

async function start() {
  // The build points the page at the site's manifest when it writes the explorer into a folder.
  const published = document.querySelector('meta[name="bundlepress-manifest"]')?.getAttribute('content') ?? 'bundles/manifest.json';
  const manifestUrl = new URLSearchParams(location.search).get('manifest') ?? published;
  try {
    // Revalidate (a 304 when unchanged): the explorer should show the latest build.
    const { manifest, url, response } = await readManifest(manifestUrl, { cache: 'no-cache' });
    site = { manifest, url };
    showSite(manifest, url, response);
    const events = liveReloadPath(response);
    if (events) listenForBuilds(events, { onRebuilt: () => location.reload(), onFailed: showBuildError });
  } catch (error) {
    document.body.dataset.state = 'error';
    setStatus('');
    showError(error.message);
    return;
  }
  document.body.dataset.state = 'ready';
  page.exposure.addEventListener('toggle', showExposure, { once: true });
  window.addEventListener('hashchange', () => {
    const id = bundleIdInHash();
    if (id !== undefined) openBundle(id, { focus: true });
  });
  await openBundle(bundleIdInHash() ?? site.manifest.bundles[0]?.id, { focus: false });
}

/** The bundle `#<id>` names, if it is one of the manifest's (other fragments are in-page links). */
function bundleIdInHash() {
  const id = decodeURIComponent(location.hash.slice(1));
  return site.manifest.bundles.some((entry) => entry.id === id) ? id : undefined;
}

function showSite(manifest, url, response) {
  page.siteFacts.replaceChildren(
    ...facts([
      ['Manifest', h('a', { href: url }, url)],
      ['Project', manifest.project],
      ['Database', manifest.database],
      ['Snapshot', timeElement(manifest.snapshot_time)],
      ['Clients', (manifest.clients ?? ['web', 'android', 'ios']).join(', ')],
      ['Served with', ...headerFacts(response)],
    ]),
  );
  page.siteFacts.hidden = false;
  page.bundleRows.replaceChildren(
    ...manifest.bundles.map((entry) =>
      h(
        'tr',
        { 'data-bundle': entry.id },
        h('th', { scope: 'row' }, h('button', { type: 'button', 'aria-pressed': 'false', 'aria-controls': 'bundle-view' }, entry.id)),
        h('td', {}, entry.named_queries.join(', ') || 'none'),
        h('td', { class: 'number' }, String(entry.results ?? entry.documents)),
        h('td', { class: 'number' }, String(entry.documents - (entry.results ?? entry.documents))),
        h('td', { class: 'number' }, formatByteSize(entry.bytes)),
        h('td', { class: 'number' }, formatByteSize(entry.gzip_bytes)),
        h('td', { class: 'time' }, entry.create_time === undefined ? 'not listed' : timeElement(entry.create_time)),
      ),
    ),
  );
  for (const button of page.bundleRows.querySelectorAll('button')) {
    button.addEventListener('click', () => {
      const id = button.textContent;
      if (location.hash === `#${encodeURIComponent(id)}`) openBundle(id, { focus: true });
      else location.hash = encodeURIComponent(id);
    });
  }
  page.bundles.hidden = false;
  setStatus(`${manifest.bundles.length} bundles, ${Object.keys(manifest.named_queries).length} named queries.`);
}

async function openBundle(id, { focus }) {
  if (id === undefined) return;
  const current = (selection += 1);
  const entry = site.manifest.bundles.find((candidate) => candidate.id === id);
  for (const row of page.bundleRows.rows) {
    row.querySelector('button').setAttribute('aria-pressed', String(row.dataset.bundle === id));
  }
  const url = siteUrl(site.url, entry.url);
  page.view.dataset.bundle = id;
  page.view.dataset.state = 'loading';
  page.view.setAttribute('aria-busy', 'true');
  showError('');
  setStatus(`Loading bundle ${id}…`);
  let shown;
  try {
    const { response, bundle, checksum } = await loadBundle(url, entry);
    if (current !== selection) return;
    shown = bundleView(entry, url, bundle, response, checksum);
  } catch (error) {
    if (current !== selection) return;
    page.view.replaceChildren(h('h2', { id: 'bundle-heading', tabindex: '-1' }, `Bundle ${id}`));
    page.view.dataset.state = 'error';
    page.view.removeAttribute('aria-busy');
    page.view.hidden = false;
    setStatus('');
    showError(bundleProblem(url, error));
    return;
  }
  page.view.replaceChildren(...shown.nodes.filter(Boolean));
  page.view.dataset.state = 'ready';
  page.view.removeAttribute('aria-busy');
  page.view.hidden = false;
  setStatus(`Bundle ${id}: ${shown.summary}.`);
  if (focus) document.getElementById('bundle-heading').focus();
}

/**
 * Fetches and parses the bundle of a manifest entry from `url` and checks it against the
 * manifest's SHA-256: `{response, bundle, checksum}`, where `checksum` says what was checked.
 */
async function loadBundle(url, entry) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
  const bytes = new Uint8Array(await response.arrayBuffer());
  const bundle = parseBundle(bytes);
  const checksum = await verifyChecksum(bytes, entry.sha256);
  return { response, bundle, checksum };
}

/** What the page says when the bundle at `url` cannot be read. */
function bundleProblem(url, error) {
  return `Could not read the bundle ${url}: ${error.message}`;
}

/** Checks the bytes against the manifest's SHA-256; returns what to show, throws on a mismatch. */
async function verifyChecksum(bytes, expected) {
  if (globalThis.crypto?.subtle === undefined) return 'not checked (the browser computes it only on https or localhost)';
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  const actual = Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
  if (actual !== expected) {
    throw new Error(`its SHA-256 is ${actual}, but the manifest lists ${expected}: the file is not the one that was published (a stale or damaged copy?)`);
  }
  return 'matches the manifest';
}

function bundleView(entry, url, bundle, response, checksum) {
  const queries = bundle.namedQueries.map((namedQuery) => ({
    namedQuery,
    documents: sortQueryResults(namedQuery.bundledQuery, documentsOfQuery(bundle, namedQuery.name)),
  }));
  const roles = documentsByRole(bundle);
  const counts = roleCounts(entry, roles);
  const warnings = [...bundle.warnings, counts.mismatch].filter(Boolean);
  const nodes = [
    h('h2', { id: 'bundle-heading', tabindex: '-1' }, `Bundle ${entry.id}`),
    h(
      'dl',
      { class: 'facts' },
      ...facts([
        ['File', h('a', { href: url }, entry.url)],
        ['Created', timeElement(bundle.metadata.createTime)],
        ['Documents', countsText(counts)],
        ['Size', `${formatByteSize(entry.bytes)} (${formatByteSize(entry.gzip_bytes)} gzip)`],
        ['Served with', ...headerFacts(response)],
        ['SHA-256', checksum],
      ]),
    ),
    warnings.length > 0
      ? h('ul', { class: 'warnings', 'aria-label': 'Problems in this bundle' }, ...warnings.map((text) => h('li', {}, text)))
      : null,
    ...queries.map(({ namedQuery, documents }, index) => querySection(namedQuery, documents, `query-${index + 1}`)),
    roles.unqueried.length > 0 ? unqueriedSection(roles.unqueried, counts) : null,
    roles.missing.length > 0 ? missingSection(roles.missing) : null,
  ];
  const summary = `${queries.length} named queries, ${countsText(counts)}`;
  return { nodes, summary };
}

/**
 * How many documents of each role the bundle carries. The bundle marks found documents outside
 * its named queries alike, whether listed with `documents:` or leavers; the manifest's `results`
 * (query results plus listed documents) tells how many of each. When the manifest disagrees
 * with the bundle, `listed` and `leavers` are null and `mismatch` says so. A manifest without
 * `results` predates leavers: everything outside the queries is listed.
 */
function roleCounts(entry, roles) {
  const { results, unqueried, missing } = roles;
  const listed = (entry.results ?? results.length + unqueried.length) - results.length;
  const counts = { total: results.length + unqueried.length + missing.length, results: results.length, missing: missing.length, mismatch: null };
  if (listed < 0 || listed > unqueried.length) {
    const held = `${counted(results.length, 'query result')} and ${counted(unqueried.length, 'other document')}`;
    return { ...counts, listed: null, leavers: null, mismatch: `the manifest counts ${entry.results} results, but the bundle holds ${held}` };
  }
  return { ...counts, listed, leavers: unqueried.length - listed };
}

/** `31 documents: 26 query results, 2 listed, 2 left a query, 1 deleted` (zero counts left out). */
function countsText({ total, results, listed, leavers, missing }) {
  const parts = [
    counted(results, 'query result'),
    listed === null ? `${total - results - missing} outside the named queries` : null,
    listed > 0 ? `${listed} listed` : null,
    leavers > 0 ? `${leavers} left a query` : null,
    missing > 0 ? `${missing} deleted` : null,
  ];
  return `${counted(total, 'document')}: ${parts.filter(Boolean).join(', ')}`;
}

/** A named query's heading, its text and its table; `id` names them (query names may hold any character). */
function querySection(namedQuery, documents, id) {
  const { name, bundledQuery } = namedQuery;
  const orderBy = normalizedOrderBy(bundledQuery.structuredQuery ?? {});
  const orderText = orderBy.map((order) => `${order.fieldPath} ${order.descending ? 'desc' : 'asc'}`).join(', ');
  const headingId = `${id}-heading`;
  return h(
    'section',
    { class: 'query', 'aria-labelledby': headingId },
    h('h3', { id: headingId }, name),
    h('p', { class: 'query-text' }, h('code', {}, describeQuery(bundledQuery))),
    documentTable({
      id,
      name,
      caption: `${name}: ${counted(documents.length, 'document')} in query order (${orderText})`,
      documents,
      leadingFields: orderBy.filter((order) => order.fieldPath !== '__name__').map((order) => order.segments),
    }),
  );
}

const LISTED_TEXT = 'listed with documents: in pipeline.yml (read them with getDoc)';
const LEAVERS_TEXT =
  'left a named query of this bundle since an earlier build and changed: they ship in their current version, outside every ' +
  'query, so that a returning client’s cache stops returning them';

/**
 * The found documents no named query returns. When they are all listed or all leavers, each
 * row says which; when both kinds are there, the bundle does not tell them apart, so the
 * section gives the counts.
 */
function unqueriedSection(documents, { listed, leavers }) {
  let section;
  if (leavers === 0) {
    section = { role: 'listed', heading: 'Listed documents', explanation: [h('p', {}, `Documents ${LISTED_TEXT}.`)], badge: null };
  } else if (listed === 0) {
    section = { role: 'leavers', heading: 'Left the named queries', explanation: [h('p', {}, `Documents that ${LEAVERS_TEXT}. No named query returns them.`)], badge: 'leaver' };
  } else {
    const kinds = [
      [listed, LISTED_TEXT],
      [leavers, LEAVERS_TEXT],
    ].map(([count, text]) => h('li', {}, count === null ? text : `${count} ${text}`));
    section = {
      role: 'unqueried',
      heading: 'Outside the named queries',
      explanation: [h('p', {}, 'No named query returns these documents, and the bundle does not mark which of them are which:'), h('ul', {}, ...kinds)],
      badge: null,
    };
  }
  const id = `${section.role}-documents`;
  return h(
    'section',
    { class: 'query', 'aria-labelledby': id },
    h('h3', { id }, section.heading),
    ...section.explanation,
    documentTable({ id, name: null, role: section.role, badge: section.badge, caption: `${counted(documents.length, 'document')} by path`, documents, leadingFields: [] }),
  );
}

/** The markers of deleted documents: a path and the read time clients give the deletion. */
function missingSection(markers) {
  const rows = markers.map((metadata, row) =>
    h(
      'tr',
      { 'data-path': documentPathSegments(metadata.name).join('/') },
      h('td', { class: 'number' }, String(row + 1)),
      pathCell(metadata.name, 'deleted'),
      h('td', { class: 'value value-timestamp' }, timeElement(metadata.readTime)),
    ),
  );
  return h(
    'section',
    { class: 'query', 'aria-labelledby': 'missing-documents' },
    h('h3', { id: 'missing-documents' }, 'Deleted documents'),
    h(
      'p',
      {},
      'Markers (exists: false, no document) for documents this bundle shipped in an earlier build and that were deleted since: ' +
        'a returning client’s cache holds them as deleted from the marker’s read time on. No named query returns them.',
    ),
    scrollingTable({
      id: 'missing-documents',
      attributes: { 'data-role': 'missing' },
      caption: `${counted(markers.length, 'deleted document')} by path`,
      header: h('tr', {}, h('th', { scope: 'col', class: 'number' }, '#'), h('th', { scope: 'col' }, 'Document'), h('th', { scope: 'col' }, 'Deleted as of')),
      rows,
    }),
  );
}

/** A table in a region that scrolls sideways, labelled by its caption. */
function scrollingTable({ id, attributes, caption, header, rows }) {
  const captionId = `${id}-caption`;
  return h(
    'div',
    { class: 'table-scroll', role: 'region', 'aria-labelledby': captionId, tabindex: '0' },
    h('table', attributes, h('caption', { id: captionId }, caption), h('thead', {}, header), h('tbody', {}, ...rows)),
  );
}

const BADGES = { leaver: 'left the query', deleted: 'deleted' };

/** A row's header cell: the document path, and a badge (a key of BADGES) saying why a non-result is there. */
function pathCell(name, badge) {
  return h('th', { scope: 'row' }, documentPathSegments(name).join('/'), badge ? h('span', { class: `badge badge-${badge}` }, BADGES[badge]) : null);
}

/** Columns: the order fields first (they explain the order), then every top-level field. */
function columnsFor(documents, leadingFields) {
  const leading = leadingFields.map((segments) => segments.join('.'));
  const topLevel = new Set(documents.flatMap((document) => Object.keys(document.fields ?? {})));
  const rest = [...topLevel].filter((field) => !leading.includes(field)).sort(compareUtf8);
  return [...leadingFields, ...rest.map((field) => [field])].map((segments) => ({ label: segments.join('.'), segments }));
}

function documentTable({ id, name, role = null, badge = null, caption, documents, leadingFields }) {
  const columns = columnsFor(documents, leadingFields);
  const cells = documents.map((document) => columns.map((column) => fieldValue(document.fields, column.segments)));
  const header = h(
    'tr',
    {},
    h('th', { scope: 'col', class: 'number' }, '#'),
    h('th', { scope: 'col' }, 'Document'),
    ...columns.map((column, index) => {
      const kinds = [...new Set(cells.map((row) => row[index]).filter(Boolean).map((value) => describeValue(value).kind))];
      return h('th', { scope: 'col' }, column.label, h('span', { class: 'kinds' }, kinds.join(' | ')));
    }),
  );
  const rows = documents.map((document, row) =>
    h(
      'tr',
      { 'data-path': documentPathSegments(document.name).join('/') },
      h('td', { class: 'number' }, String(row + 1)),
      pathCell(document.name, badge),
      ...cells[row].map(valueCell),
    ),
  );
  return scrollingTable({ id, attributes: { 'data-query': name, 'data-role': role }, caption, header, rows });
}

function valueCell(value) {
  if (value === undefined) {
    return h('td', { class: 'absent' }, h('span', { 'aria-hidden': 'true' }, '–'), h('span', { class: 'visually-hidden' }, 'not set'));
  }
  const { kind, text, title } = describeValue(value);
  const content = kind === 'timestamp' ? timeElement(value.timestampValue) : h('span', { class: 'clamp' }, text);
  return h('td', { class: `value value-${kind}`, title }, content);
}

/**
 * Reads every bundle of the manifest and shows, per collection, each field path the site
 * publishes (exposure.js). Runs when "What this site publishes" is first opened.
 */
async function showExposure() {
  const { manifest } = site;
  setExposureState('loading', `Reading ${counted(manifest.bundles.length, 'bundle')}…`);
  let collections;
  try {
    collections = exposureSummary(manifest, await Promise.all(manifest.bundles.map(readBundle)));
  } catch (error) {
    page.exposureError.textContent = error.message;
    setExposureState('error', '');
    return;
  }
  page.exposureTables.replaceChildren(...collections.map(collectionTable));
  const fields = collections.reduce((sum, collection) => sum + collection.fields.length, 0);
  setExposureState('ready', `${counted(collections.length, 'collection')}, ${counted(fields, 'field path')}.`);
}

/** Marks #exposure loading | ready | error and says so in its status line. */
function setExposureState(state, status) {
  page.exposure.dataset.state = state;
  if (state === 'loading') page.exposure.setAttribute('aria-busy', 'true');
  else page.exposure.removeAttribute('aria-busy');
  page.exposureStatus.textContent = status;
}

/** The parsed bundle of a manifest entry; an error names its URL. */
async function readBundle(entry) {
  const url = siteUrl(site.url, entry.url);
  try {
    return (await loadBundle(url, entry)).bundle;
  } catch (error) {
    throw new Error(bundleProblem(url, error));
  }
}

/** A collection's published fields: each path, the types of its values and how many documents carry it. */
function collectionTable({ collection, documents, bundles, fields }, index) {
  const rows = fields.map((field) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, h('code', {}, field.path)),
      h('td', {}, field.types.join(' | ')),
      h('td', { class: 'number' }, String(field.documents)),
    ),
  );
  return scrollingTable({
    id: `exposure-${index + 1}`,
    attributes: { 'data-collection': collection },
    caption: `${collection} — ${counted(documents, 'document')} in ${counted(bundles.length, 'bundle')}: ${bundles.join(', ')}`,
    header: h('tr', {}, h('th', { scope: 'col' }, 'Field'), h('th', { scope: 'col' }, 'Types'), h('th', { scope: 'col', class: 'number' }, 'Documents')),
    rows,
  });
}

start();
