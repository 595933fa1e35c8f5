// bundlepress.js: load BundlePress named queries into a Firestore app.
//
// The app passes its own `loadBundle` and `namedQuery` (from `firebase/firestore`), so this
// module works with any Firebase JS SDK version and imports nothing. It reads the site's
// bundles/manifest.json (with normal HTTP caching: the manifest is short-lived, the
// content-hashed bundles are immutable), fetches the bundle that holds a named query, loads it
// once per Firestore instance, and returns the query to run against the local cache.
//
//   import { getFirestore, loadBundle, namedQuery, getDocsFromCache } from 'firebase/firestore';
//   import { loadNamedQuery } from 'https://example.com/bundlepress.js';
//   const query = await loadNamedQuery(getFirestore(app), {
//     manifestUrl: 'https://example.com/bundles/manifest.json', name: 'latest-stories', loadBundle, namedQuery });
//   const snapshot = await getDocsFromCache(query);
//
// `stableBundleURL` gives the URL of a bundle of the firestore-bundle-builder extension's spec.
//
// For server rendering, `fetchSnapshot` returns the JSON of a named query's (or a listed
// document's) snapshot, which `querySnapshotFromJSON` / `onSnapshotResume` take.

/** The manifest schema this module reads (`schema_version`). */
export const MANIFEST_SCHEMA_VERSION = 1;

/**
 * A failure of this module, with a `code` to branch on and a message to show:
 * `invalid-options`, `manifest-unavailable`, `manifest-invalid`, `unknown-named-query`,
 * `unknown-document`, `snapshot-unavailable`, `snapshot-invalid`,
 * `bundle-unavailable`, `bundle-load-failed`, `named-query-missing` or `cache-reset` (the app's
 * cache was older than the site's horizon and was cleared: open Firestore again, or reload the page). `url` is the manifest or
 * bundle concerned; `cause` the underlying error, if any.
 */
export class BundlePressError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {{url?: string, cause?: unknown}} [details]
   */
  constructor(code, message, { url, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'BundlePressError';
    this.code = code;
    this.url = url;
  }
}

/**
 * Fetches and checks a site's manifest.
 * @param {string|URL} manifestUrl absolute, or relative to the page (e.g. `/bundles/manifest.json`)
 * @param {{fetch?: typeof fetch, cache?: RequestCache}} [options] `cache` is the fetch cache mode
 *   (default `default`: normal HTTP caching)
 * @returns {Promise<{manifest: object, url: string, response: Response}>} `url` is the absolute manifest URL
 * @throws {BundlePressError} `manifest-unavailable` or `manifest-invalid`
 */
export async function readManifest(manifestUrl, { fetch = globalThis.fetch, cache = 'default' } = {}) {
  const url = absoluteUrl(manifestUrl);
  let response;
  try {
    response = await fetch(url, { cache });
  } catch (error) {
    throw new BundlePressError('manifest-unavailable', `Could not fetch the manifest ${url}: ${errorText(error)}`, { url, cause: error });
  }
  if (!response.ok) {
    throw new BundlePressError(
      'manifest-unavailable',
      `Could not fetch the manifest ${url}: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}. ` +
        'Is the site built (bundlepress build) and the URL right?',
      { url },
    );
  }
  let manifest;
  try {
    manifest = JSON.parse(await response.text());
  } catch (error) {
    throw new BundlePressError('manifest-invalid', `The manifest ${url} is not JSON: ${error.message}`, { url, cause: error });
  }
  const problem = manifestProblem(manifest);
  if (problem) throw new BundlePressError('manifest-invalid', `The manifest ${url} ${problem}`, { url });
  return { manifest, url, response };
}

function manifestProblem(manifest) {
  if (manifest === null || typeof manifest !== 'object') return 'is not a JSON object.';
  if (manifest.schema_version !== MANIFEST_SCHEMA_VERSION) {
    return `has schema_version ${JSON.stringify(manifest.schema_version)}; this bundlepress.js reads version ${MANIFEST_SCHEMA_VERSION} (use the bundlepress.js published with the site).`;
  }
  if (!Array.isArray(manifest.bundles) || typeof manifest.named_queries !== 'object' || manifest.named_queries === null) {
    return 'lacks its "bundles" list or "named_queries" object.';
  }
  return null;
}

// fetch() rejects with "fetch failed" or "Failed to fetch"; the reason, if any, is in `cause`.
function errorText(error) {
  return error.cause?.message ? `${error.message} (${error.cause.message})` : error.message;
}

function absoluteUrl(url) {
  const base = globalThis.document?.baseURI ?? globalThis.location?.href;
  try {
    return new URL(String(url), base).href;
  } catch (error) {
    throw new BundlePressError('invalid-options', `manifestUrl ${JSON.stringify(String(url))} is not a URL (outside a browser it must be absolute).`, {
      cause: error,
    });
  }
}

/**
 * The absolute URL of a file the manifest lists. Manifest URLs are relative to the site root,
 * the directory above `bundles/manifest.json`.
 * @param {string} manifestUrl the absolute manifest URL
 * @param {string} relativeUrl e.g. `bundles/front-page.439cfd870e789558.bundle`
 * @returns {string}
 */
export function siteUrl(manifestUrl, relativeUrl) {
  return new URL(relativeUrl, new URL('../', manifestUrl)).href;
}

/**
 * The stable URL of a bundle of the firestore-bundle-builder extension's spec (`extension:` in
 * pipeline.yml), relative to the site root as the manifest's `stable_url`: `bundles/<specId>`,
 * then each parameter's name and value, parameters in name order (by UTF-8 bytes, as the build
 * orders them), an array's values joined by commas, every segment URL-encoded. It replaces the
 * extension's `/bundles/<specId>?param=value`: `fetch('/' + stableBundleURL('by-city', {city}))`.
 * @param {string} specId the spec document's id
 * @param {Object<string, string|number|boolean|Array<string|number|boolean>|null|undefined>} [params]
 *   the parameters' values; a null or undefined one is left out (an optional parameter not given)
 * @returns {string}
 * @throws {BundlePressError} `invalid-options` for a spec id or value that a stable URL cannot hold
 *   (empty, holding `/`, or starting with `.`: the build publishes such bundles by their hashed
 *   names only)
 */
export function stableBundleURL(specId, params = {}) {
  const segment = (text, what) => {
    if (text === '' || text.includes('/') || text.startsWith('.')) {
      throw new BundlePressError(
        'invalid-options',
        `${what} ${JSON.stringify(text)} has no stable URL (it is empty, holds "/" or starts with "."); find its bundle in the manifest.`,
      );
    }
    return encodeURIComponent(text);
  };
  const bytes = (text) => new TextEncoder().encode(text);
  const byUtf8 = (a, b) => {
    const [x, y] = [bytes(a), bytes(b)];
    for (let i = 0; i < Math.min(x.length, y.length); i += 1) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  };
  const names = Object.keys(params).filter((name) => params[name] !== null && params[name] !== undefined).sort(byUtf8);
  const parts = ['bundles', segment(String(specId), 'the spec id')];
  for (const name of names) {
    const value = params[name];
    const text = Array.isArray(value) ? value.map(String).join(',') : String(value);
    parts.push(segment(name, 'the parameter name'), segment(text, `the value of ${name}`));
  }
  return parts.join('/');
}

// Firestore instance → bundle URL → the promise of its load. Bundle URLs are content-hashed,
// so a bundle loaded once never needs loading again; failed loads are forgotten.
const loads = new WeakMap();

function loadOnce(firestore, url, { loadBundle, fetch }) {
  let byUrl = loads.get(firestore);
  if (byUrl === undefined) {
    byUrl = new Map();
    loads.set(firestore, byUrl);
  }
  if (!byUrl.has(url)) {
    const load = fetchAndLoad(firestore, url, { loadBundle, fetch });
    byUrl.set(url, load);
    load.catch(() => byUrl.delete(url));
  }
  return byUrl.get(url);
}

async function fetchAndLoad(firestore, url, { loadBundle, fetch }) {
  let bytes;
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw new BundlePressError('bundle-unavailable', `Could not fetch the bundle ${url}: ${errorText(error)}`, { url, cause: error });
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    throw new BundlePressError(
      'bundle-load-failed',
      `The bundle ${url} arrived gzip-compressed without "Content-Encoding: gzip"; configure the server to send that header for .gz files, or serve the raw bundle.`,
      { url },
    );
  }
  try {
    // A Uint8Array, not response.body: the SDK's node build accepts only bytes.
    return await loadBundle(firestore, bytes);
  } catch (error) {
    throw new BundlePressError('bundle-load-failed', `Firestore could not load the bundle ${url}: ${error.message}`, { url, cause: error });
  }
}

// The horizon (docs/returning-clients.md): bundles account for what an app cached from any build
// whose site time is not before the manifest's `horizon_start`. This module remembers, per
// manifest, the `site_time` it last loaded (localStorage); when that is older than the horizon,
// the cache may hold documents no bundle will ever correct, so it is reset before anything loads.
const SITE_TIME_KEY = 'bundlepress:site-time:';

function storageOf(options) {
  if (options.storage !== undefined) return options.storage;
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled (a sandboxed frame, some privacy modes)
  }
}

/**
 * Resets `firestore`'s cache when the site time this app last loaded from `url` is before the
 * manifest's horizon: `options.onReset` first (if given), then `terminate` and
 * `clearIndexedDbPersistence`, then `options.reopen` for the instance to load into.
 * @returns {Promise<object>} the Firestore instance to use
 */
async function checkHorizon(firestore, manifest, url, options) {
  const storage = storageOf(options);
  if (!storage || typeof manifest.horizon_start !== 'string') return firestore;
  let remembered = null;
  try {
    remembered = storage.getItem(SITE_TIME_KEY + url);
  } catch {
    return firestore;
  }
  // RFC 3339 times with nine fraction digits and `Z` compare as strings.
  if (remembered === null || remembered >= manifest.horizon_start) return firestore;
  const details = { firestore, lastSiteTime: remembered, horizonStart: manifest.horizon_start, manifestUrl: url };
  if (typeof options.onReset === 'function') await options.onReset(details);
  requireFunctions(options, ['terminate', 'clearIndexedDbPersistence']);
  await options.terminate(firestore);
  await options.clearIndexedDbPersistence(firestore);
  loads.delete(firestore);
  try {
    storage.removeItem(SITE_TIME_KEY + url);
  } catch {
    // nothing remembered is the same as the removed time
  }
  if (typeof options.reopen !== 'function') {
    throw new BundlePressError(
      'cache-reset',
      `This app last loaded ${url} at site time ${remembered}, before the site's horizon (${manifest.horizon_start}): its Firestore cache was cleared. ` +
        'Open Firestore again (or reload the page) and call again, or pass reopen to do it here.',
      { url },
    );
  }
  return options.reopen(details);
}

function rememberSiteTime(manifest, url, options) {
  const storage = storageOf(options);
  if (!storage || typeof manifest.site_time !== 'string') return;
  try {
    const key = SITE_TIME_KEY + url;
    const known = storage.getItem(key);
    if (known === null || known < manifest.site_time) storage.setItem(key, manifest.site_time);
  } catch {
    // a full or disabled storage: the horizon is then not checked on the next visit
  }
}

function requireFunctions(options, names) {
  const missing = names.filter((name) => typeof options[name] !== 'function');
  if (missing.length > 0) {
    throw new BundlePressError(
      'invalid-options',
      `Pass ${missing.join(' and ')} from 'firebase/firestore' in the options (bundlepress.js does not import the Firebase SDK itself).`,
    );
  }
}

/**
 * Loads the bundle that holds a named query (once per Firestore instance) and returns the
 * query, to run with `getDocsFromCache`, `getDocs` or `onSnapshot`.
 * @param {object} firestore the app's Firestore instance (`getFirestore(app)`)
 * @param {object} options
 * @param {string|URL} options.manifestUrl the site's `bundles/manifest.json`
 * @param {string} options.name the named query
 * @param {Function} options.loadBundle `loadBundle` from `firebase/firestore`
 * @param {Function} options.namedQuery `namedQuery` from `firebase/firestore`
 * @param {typeof fetch} [options.fetch] defaults to the global fetch
 * @param {Function} [options.terminate] `terminate` from `firebase/firestore`, and
 * @param {Function} [options.clearIndexedDbPersistence] `clearIndexedDbPersistence`: needed to reset
 *   the cache of an app last opened before the site's horizon (`horizon_start` in the manifest)
 * @param {Function} [options.reopen] `({firestore, lastSiteTime, horizonStart, manifestUrl}) => Firestore`:
 *   a new instance once the cache was cleared (e.g. `initializeFirestore(app, settings)`); without
 *   it a reset throws `cache-reset` for the app to open Firestore again
 * @param {Function} [options.onReset] called first, with the same argument, when the cache is
 *   about to be reset (to tell the user, flush pending writes, …)
 * @param {Storage|null} [options.storage] where the last site time is kept (default `localStorage`; null: never reset)
 * @returns {Promise<object>} the Firestore `Query` (of the new instance after a reset)
 * @throws {BundlePressError} `unknown-named-query` when the manifest does not list `name`;
 *   `bundle-unavailable` or `bundle-load-failed` when the bundle cannot be fetched or loaded;
 *   `manifest-unavailable`, `manifest-invalid`, `invalid-options`, `named-query-missing`
 */
export async function loadNamedQuery(firestore, options) {
  requireFunctions(options, ['loadBundle', 'namedQuery']);
  const { name, fetch = globalThis.fetch } = options;
  const { manifest, url } = await readManifest(options.manifestUrl, { fetch });
  const location = Object.hasOwn(manifest.named_queries, name) ? manifest.named_queries[name] : undefined;
  if (location === undefined) {
    const known = Object.keys(manifest.named_queries).sort();
    throw new BundlePressError(
      'unknown-named-query',
      `The manifest ${url} has no named query ${JSON.stringify(name)}; it has: ${known.join(', ') || 'none'}.`,
      { url },
    );
  }
  const bundle = siteUrl(url, location.url);
  firestore = await checkHorizon(firestore, manifest, url, options);
  await loadOnce(firestore, bundle, { loadBundle: options.loadBundle, fetch });
  rememberSiteTime(manifest, url, options);
  const query = await options.namedQuery(firestore, name);
  if (query === null || query === undefined) {
    throw new BundlePressError(
      'named-query-missing',
      `The bundle ${bundle} loaded, but Firestore has no named query ${JSON.stringify(name)} from it (was the bundle replaced without its manifest?).`,
      { url: bundle },
    );
  }
  return query;
}

/**
 * Loads every bundle of a manifest (each once per Firestore instance), e.g. at start-up so
 * later `loadNamedQuery` calls and reads are served from the cache.
 * @param {object} firestore the app's Firestore instance
 * @param {object} options
 * @param {string|URL} options.manifestUrl the site's `bundles/manifest.json`
 * @param {Function} options.loadBundle `loadBundle` from `firebase/firestore`
 * @param {typeof fetch} [options.fetch] defaults to the global fetch
 * @param {Function} [options.terminate] with `clearIndexedDbPersistence`, `reopen`, `onReset`
 *   and `storage`: the horizon's reset, as for {@link loadNamedQuery}
 * @returns {Promise<{id: string, url: string, progress: object}[]>} per bundle, in manifest order,
 *   the final `LoadBundleTaskProgress`. Its `documentsLoaded` and `totalDocuments` count every
 *   document the bundle carries, the ones only returning clients need included (leavers and
 *   markers of deleted documents, which no query returns): the manifest's `results` counts a
 *   bundle's query results and listed documents.
 * @throws {BundlePressError} the first failure (the other bundles still finish loading)
 */
export async function preloadBundles(firestore, options) {
  requireFunctions(options, ['loadBundle']);
  const { fetch = globalThis.fetch } = options;
  const { manifest, url } = await readManifest(options.manifestUrl, { fetch });
  firestore = await checkHorizon(firestore, manifest, url, options);
  const loaded = await Promise.all(
    manifest.bundles.map(async (entry) => {
      const bundle = siteUrl(url, entry.url);
      const progress = await loadOnce(firestore, bundle, { loadBundle: options.loadBundle, fetch });
      return { id: entry.id, url: bundle, progress };
    }),
  );
  rememberSiteTime(manifest, url, options);
  return loaded;
}

/**
 * Fetches the server-rendering snapshot of a named query (`name`) or of a document a bundle
 * lists (`document`, its path): the JSON that `querySnapshotFromJSON(db, json)` /
 * `documentSnapshotFromJSON(db, json)` turn into a snapshot at build time, and that a page
 * hydrates from (`onSnapshotResume(db, json, observer)` for a live app). Runs in node (a site
 * generator's data file) as in a browser; imports nothing.
 * @param {object} options
 * @param {string|URL} options.manifestUrl the site's `bundles/manifest.json`
 * @param {string} [options.name] the named query
 * @param {string} [options.document] or a listed document's path, e.g. `site/settings`
 * @param {typeof fetch} [options.fetch] defaults to the global fetch
 * @returns {Promise<{type: string, bundleSource: string, bundleName: string, bundle: string}>}
 * @throws {BundlePressError} `unknown-named-query` or `unknown-document` when the manifest does
 *   not list it; `snapshot-unavailable` when the site has no snapshot of it (`snapshots: false`)
 *   or it cannot be fetched; `snapshot-invalid` when it is not a snapshot's JSON;
 *   `manifest-unavailable`, `manifest-invalid`, `invalid-options`
 */
export async function fetchSnapshot(options) {
  const { name, document, fetch = globalThis.fetch } = options ?? {};
  if ((name === undefined) === (document === undefined)) {
    throw new BundlePressError('invalid-options', 'Pass either name (a named query) or document (a listed document\'s path) to fetchSnapshot.');
  }
  const { manifest, url } = await readManifest(options.manifestUrl, { fetch });
  const [kind, table, key] = name !== undefined ? ['named query', manifest.named_queries, name] : ['document', manifest.documents ?? {}, document];
  const location = Object.hasOwn(table, key) ? table[key] : undefined;
  if (location === undefined) {
    throw new BundlePressError(
      name !== undefined ? 'unknown-named-query' : 'unknown-document',
      `The manifest ${url} has no ${kind} ${JSON.stringify(key)}; it has: ${Object.keys(table).sort().join(', ') || 'none'}.`,
      { url },
    );
  }
  if (typeof location.snapshot !== 'string') {
    throw new BundlePressError('snapshot-unavailable', `The site ${url} has no snapshot of the ${kind} ${JSON.stringify(key)} (snapshots: false in its pipeline.yml?).`, { url });
  }
  const snapshotUrl = siteUrl(url, location.snapshot);
  let response;
  try {
    response = await fetch(snapshotUrl);
  } catch (error) {
    throw new BundlePressError('snapshot-unavailable', `Could not fetch the snapshot ${snapshotUrl}: ${errorText(error)}`, { url: snapshotUrl, cause: error });
  }
  if (!response.ok) {
    throw new BundlePressError('snapshot-unavailable', `Could not fetch the snapshot ${snapshotUrl}: HTTP ${response.status}`, { url: snapshotUrl });
  }
  let json;
  try {
    json = JSON.parse(await response.text());
  } catch (error) {
    throw new BundlePressError('snapshot-invalid', `The snapshot ${snapshotUrl} is not JSON: ${error.message}`, { url: snapshotUrl, cause: error });
  }
  const source = name !== undefined ? 'QuerySnapshot' : 'DocumentSnapshot';
  if (json === null || typeof json !== 'object' || json.bundleSource !== source || json.bundleName !== key || typeof json.bundle !== 'string') {
    throw new BundlePressError('snapshot-invalid', `The snapshot ${snapshotUrl} is not the ${source} of ${JSON.stringify(key)}.`, { url: snapshotUrl });
  }
  return json;
}
