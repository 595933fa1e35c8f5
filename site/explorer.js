// The explorer page (index.html): lists the manifest's bundles and shows a chosen bundle's
// named queries as tables of typed values, in query order.
//
// `?manifest=URL` explores another manifest; `#<bundle id>` opens a bundle. The page marks its
// progress for tests and tools: body[data-state] is loading | ready | error, and
// #bundle-view[data-bundle][data-state] says which bundle is shown and whether it loaded.

import { readManifest, siteUrl } from './bundlepress.js';
import { documentsOfQuery, parseBundle } from './bundle-reader.js';
import { documentPathSegments, fieldValue } from './firestore-values.js';
import { compareUtf8, normalizedOrderBy, sortQueryResults } from './query-order.js';
import { describeQuery, describeValue, formatByteSize, formatTimestamp } from './value-format.js';

const page = {
  status: document.getElementById('status'),
  error: document.getElementById('error'),
  siteFacts: document.getElementById('site-facts'),
  bundles: document.getElementById('bundles'),
  bundleRows: document.querySelector('#bundle-table tbody'),
  view: document.getElementById('bundle-view'),
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

function setStatus(text) {
  page.status.textContent = text;
}

function showError(text) {
  page.error.textContent = text;
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
  const manifestUrl = new URLSearchParams(location.search).get('manifest') ?? 'bundles/manifest.json';
  try {
    // Revalidate (a 304 when unchanged): the explorer should show the latest build.
    const { manifest, url, response } = await readManifest(manifestUrl, { cache: 'no-cache' });
    site = { manifest, url };
    showSite(manifest, url, response);
  } catch (error) {
    document.body.dataset.state = 'error';
    setStatus('');
    showError(error.message);
    return;
  }
  document.body.dataset.state = 'ready';
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
        h('td', { class: 'number' }, String(entry.documents)),
        h('td', { class: 'number' }, formatByteSize(entry.bytes)),
        h('td', { class: 'number' }, formatByteSize(entry.gzip_bytes)),
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
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
    const bytes = new Uint8Array(await response.arrayBuffer());
    const bundle = parseBundle(bytes);
    const checksum = await verifyChecksum(bytes, entry.sha256);
    if (current !== selection) return;
    shown = bundleView(entry, url, bundle, response, checksum);
  } catch (error) {
    if (current !== selection) return;
    page.view.replaceChildren(h('h2', { id: 'bundle-heading', tabindex: '-1' }, `Bundle ${id}`));
    page.view.dataset.state = 'error';
    page.view.removeAttribute('aria-busy');
    page.view.hidden = false;
    setStatus('');
    showError(`Could not read the bundle ${url}: ${error.message}`);
    return;
  }
  page.view.replaceChildren(...shown.nodes.filter(Boolean));
  page.view.dataset.state = 'ready';
  page.view.removeAttribute('aria-busy');
  page.view.hidden = false;
  setStatus(`Bundle ${id}: ${shown.summary}.`);
  if (focus) document.getElementById('bundle-heading').focus();
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
  const unqueried = bundle.documents
    .filter((item) => item.document !== null && (item.metadata.queries ?? []).length === 0)
    .map((item) => item.document);
  const nodes = [
    h('h2', { id: 'bundle-heading', tabindex: '-1' }, `Bundle ${entry.id}`),
    h(
      'dl',
      { class: 'facts' },
      ...facts([
        ['File', h('a', { href: url }, entry.url)],
        ['Created', timeElement(bundle.metadata.createTime)],
        ['Documents', String(bundle.documents.length)],
        ['Size', `${formatByteSize(entry.bytes)} (${formatByteSize(entry.gzip_bytes)} gzip)`],
        ['Served with', ...headerFacts(response)],
        ['SHA-256', checksum],
      ]),
    ),
    bundle.warnings.length > 0
      ? h('ul', { class: 'warnings', 'aria-label': 'Problems in this bundle' }, ...bundle.warnings.map((text) => h('li', {}, text)))
      : null,
    ...queries.map(({ namedQuery, documents }, index) => querySection(namedQuery, documents, `query-${index + 1}`)),
    unqueried.length > 0 ? otherDocumentsSection(unqueried) : null,
  ];
  const summary = `${queries.length} named queries, ${bundle.documents.length} documents`;
  return { nodes, summary };
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
      caption: `${name}: ${documents.length} documents in query order (${orderText})`,
      documents,
      leadingFields: orderBy.filter((order) => order.fieldPath !== '__name__').map((order) => order.segments),
    }),
  );
}

function otherDocumentsSection(documents) {
  return h(
    'section',
    { class: 'query', 'aria-labelledby': 'other-documents' },
    h('h3', { id: 'other-documents' }, 'Other documents'),
    h('p', {}, 'Documents the bundle carries outside any named query (read them with getDoc).'),
    documentTable({ id: 'other-documents', name: null, caption: `${documents.length} documents by path`, documents, leadingFields: [] }),
  );
}

/** Columns: the order fields first (they explain the order), then every top-level field. */
function columnsFor(documents, leadingFields) {
  const leading = leadingFields.map((segments) => segments.join('.'));
  const topLevel = new Set(documents.flatMap((document) => Object.keys(document.fields ?? {})));
  const rest = [...topLevel].filter((field) => !leading.includes(field)).sort(compareUtf8);
  return [...leadingFields, ...rest.map((field) => [field])].map((segments) => ({ label: segments.join('.'), segments }));
}

function documentTable({ id, name, caption, documents, leadingFields }) {
  const columns = columnsFor(documents, leadingFields);
  const cells = documents.map((document) => columns.map((column) => fieldValue(document.fields, column.segments)));
  const captionId = `${id}-caption`;
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
  const rows = documents.map((document, row) => {
    const path = documentPathSegments(document.name).join('/');
    return h(
      'tr',
      { 'data-path': path },
      h('td', { class: 'number' }, String(row + 1)),
      h('th', { scope: 'row' }, path),
      ...cells[row].map(valueCell),
    );
  });
  return h(
    'div',
    { class: 'table-scroll', role: 'region', 'aria-labelledby': captionId, tabindex: '0' },
    h('table', { 'data-query': name }, h('caption', { id: captionId }, caption), h('thead', {}, header), h('tbody', {}, ...rows)),
  );
}

function valueCell(value) {
  if (value === undefined) {
    return h('td', { class: 'absent' }, h('span', { 'aria-hidden': 'true' }, '–'), h('span', { class: 'visually-hidden' }, 'not set'));
  }
  const { kind, text, title } = describeValue(value);
  const content = kind === 'timestamp' ? timeElement(value.timestampValue) : h('span', { class: 'clamp' }, text);
  return h('td', { class: `value value-${kind}`, title }, content);
}

start();
