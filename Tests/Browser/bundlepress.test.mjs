// site/bundlepress.js with fake fetch/loadBundle/namedQuery: URL resolution, load-once,
// preloading and every error. With FIRESTORE_JS_VENDOR set (a local copy of the Firebase JS
// SDK's node_modules, never committed), also against the real SDK on the example site, and as a
// returning client on a rebuilt one.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { BundlePressError, fetchSnapshot, loadNamedQuery, preloadBundles, readManifest, siteUrl, stableBundleURL } from '../../site/bundlepress.js';
import { exampleManifest, expectedQueryPaths, returningSite, siteDirectory } from './support.mjs';

const MANIFEST_URL = 'https://cdn.test/site/bundles/manifest.json';
const manifest = {
  schema_version: 1,
  bundles: [
    { id: 'front', url: 'bundles/front.00aa.bundle', named_queries: ['latest', 'top'] },
    { id: 'archive', url: 'bundles/archive.00bb.bundle', named_queries: ['old'] },
  ],
  named_queries: {
    latest: { bundle: 'front', url: 'bundles/front.00aa.bundle' },
    top: { bundle: 'front', url: 'bundles/front.00aa.bundle' },
    old: { bundle: 'archive', url: 'bundles/archive.00bb.bundle' },
  },
};
const bundleBytes = new TextEncoder().encode('12{"metadata":1}');

/** A fetch serving `routes` (URL → Response factory) that records every call. */
function fakeFetch(routes) {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url: String(url), init });
    const route = routes[String(url)];
    return route ? route() : new Response('not found', { status: 404, statusText: 'Not Found' });
  };
  return { fetch, calls };
}

function siteRoutes(overrides = {}) {
  return {
    [MANIFEST_URL]: () => Response.json(manifest),
    'https://cdn.test/site/bundles/front.00aa.bundle': () => new Response(bundleBytes),
    'https://cdn.test/site/bundles/archive.00bb.bundle': () => new Response(bundleBytes),
    ...overrides,
  };
}

/** Fake Firebase functions that record their calls. */
function fakeFirebase({ failLoad = false, knownQueries = ['latest', 'top', 'old'] } = {}) {
  const loads = [];
  return {
    loads,
    loadBundle: async (firestore, data) => {
      loads.push({ firestore, data });
      if (failLoad) throw new Error('Invalid bundle format');
      return { taskState: 'Success', documentsLoaded: 1 };
    },
    namedQuery: async (firestore, name) => (knownQueries.includes(name) ? { firestore, name } : null),
  };
}

async function rejectsWith(promise, code, message) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof BundlePressError, `expected a BundlePressError, got ${error}`);
    assert.equal(error.code, code);
    assert.match(error.message, message);
    return true;
  });
}

test('resolves manifest URLs against the site root above bundles/', () => {
  assert.equal(siteUrl(MANIFEST_URL, 'bundles/front.00aa.bundle'), 'https://cdn.test/site/bundles/front.00aa.bundle');
  assert.equal(siteUrl('http://127.0.0.1:8080/bundles/manifest.json', 'bundles/x.bundle'), 'http://127.0.0.1:8080/bundles/x.bundle');
});

test('stableBundleURL: the path the build publishes a spec bundle at, parameters in name order, encoded', () => {
  assert.equal(stableBundleURL('latest'), 'bundles/latest');
  assert.equal(stableBundleURL('by-city', { year: 2024, city: 'new york', maxPrice: undefined, tag: null }), 'bundles/by-city/city/new%20york/year/2024');
  // By UTF-8 bytes, as the build orders them: upper case before lower, "é" after "z".
  assert.equal(stableBundleURL('s', { é: 1, z: 2, Z: 3 }), 'bundles/s/Z/3/z/2/%C3%A9/1');
  assert.equal(stableBundleURL('tagged', { tags: ['a', 'b&c'], flag: false }), 'bundles/tagged/flag/false/tags/a%2Cb%26c');
  assert.equal(siteUrl(MANIFEST_URL, stableBundleURL('latest')), 'https://cdn.test/site/bundles/latest');
  for (const [spec, params] of [['by-city', { city: '' }], ['by-city', { city: 'a/b' }], ['by-city', { city: '.hidden' }], ['', {}]]) {
    assert.throws(() => stableBundleURL(spec, params), (error) => error instanceof BundlePressError && error.code === 'invalid-options');
  }
});

test('loadNamedQuery fetches the manifest with HTTP caching, loads the bundle bytes, returns the query', async () => {
  const { fetch, calls } = fakeFetch(siteRoutes());
  const firebase = fakeFirebase();
  const firestore = {};
  const query = await loadNamedQuery(firestore, { manifestUrl: MANIFEST_URL, name: 'latest', fetch, ...firebase });
  assert.deepEqual(query, { firestore, name: 'latest' });
  assert.deepEqual(calls.map((call) => call.url), [MANIFEST_URL, 'https://cdn.test/site/bundles/front.00aa.bundle']);
  assert.deepEqual(calls[0].init, { cache: 'default' });
  assert.equal(firebase.loads.length, 1);
  assert.ok(firebase.loads[0].data instanceof Uint8Array);
  assert.deepEqual(firebase.loads[0].data, bundleBytes);
});

test('a bundle is loaded once per Firestore instance', async () => {
  const { fetch, calls } = fakeFetch(siteRoutes());
  const firebase = fakeFirebase();
  const first = {};
  await loadNamedQuery(first, { manifestUrl: MANIFEST_URL, name: 'latest', fetch, ...firebase });
  await loadNamedQuery(first, { manifestUrl: MANIFEST_URL, name: 'top', fetch, ...firebase });
  await loadNamedQuery({}, { manifestUrl: MANIFEST_URL, name: 'top', fetch, ...firebase });
  assert.equal(firebase.loads.length, 2);
  assert.equal(calls.filter((call) => call.url.endsWith('.bundle')).length, 2);
});

test('an unknown name is an error that lists the known ones', async () => {
  const { fetch } = fakeFetch(siteRoutes());
  await rejectsWith(
    loadNamedQuery({}, { manifestUrl: MANIFEST_URL, name: 'lates', fetch, ...fakeFirebase() }),
    'unknown-named-query',
    /has no named query "lates"; it has: latest, old, top\./,
  );
  await rejectsWith(
    loadNamedQuery({}, { manifestUrl: MANIFEST_URL, name: 'toString', fetch, ...fakeFirebase() }),
    'unknown-named-query',
    /"toString"/,
  );
});

test('a failed fetch or load is an error, and is retried on the next call', async () => {
  const firestore = {};
  const missing = fakeFetch(siteRoutes({ 'https://cdn.test/site/bundles/front.00aa.bundle': undefined }));
  await rejectsWith(
    loadNamedQuery(firestore, { manifestUrl: MANIFEST_URL, name: 'latest', fetch: missing.fetch, ...fakeFirebase() }),
    'bundle-unavailable',
    /Could not fetch the bundle https:\/\/cdn\.test\/site\/bundles\/front\.00aa\.bundle: HTTP 404 Not Found/,
  );
  const failing = fakeFirebase({ failLoad: true });
  const { fetch } = fakeFetch(siteRoutes());
  await assert.rejects(loadNamedQuery(firestore, { manifestUrl: MANIFEST_URL, name: 'latest', fetch, ...failing }), (error) => {
    assert.equal(error.code, 'bundle-load-failed');
    assert.match(error.message, /Firestore could not load the bundle .*front\.00aa\.bundle: Invalid bundle format/);
    assert.equal(error.cause.message, 'Invalid bundle format');
    return true;
  });
  const working = fakeFirebase();
  await loadNamedQuery(firestore, { manifestUrl: MANIFEST_URL, name: 'latest', fetch, ...working });
  assert.equal(working.loads.length, 1);
});

test('gzip bytes without Content-Encoding are reported as such', async () => {
  const { fetch } = fakeFetch(siteRoutes({ 'https://cdn.test/site/bundles/front.00aa.bundle': () => new Response(gzipSync(bundleBytes)) }));
  const firebase = fakeFirebase();
  await rejectsWith(
    loadNamedQuery({}, { manifestUrl: MANIFEST_URL, name: 'latest', fetch, ...firebase }),
    'bundle-load-failed',
    /arrived gzip-compressed without "Content-Encoding: gzip"/,
  );
  assert.equal(firebase.loads.length, 0);
});

test('a bundle without the named query is an error', async () => {
  const { fetch } = fakeFetch(siteRoutes());
  await rejectsWith(
    loadNamedQuery({}, { manifestUrl: MANIFEST_URL, name: 'old', fetch, ...fakeFirebase({ knownQueries: [] }) }),
    'named-query-missing',
    /archive\.00bb\.bundle loaded, but Firestore has no named query "old"/,
  );
});

test('manifest problems are errors that say what to do', async () => {
  const cases = [
    [{}, 'manifest-unavailable', /HTTP 404 Not Found\. Is the site built \(bundlepress build\) and the URL right\?/],
    [{ [MANIFEST_URL]: () => new Response('<html>') }, 'manifest-invalid', /is not JSON/],
    [{ [MANIFEST_URL]: () => Response.json({ ...manifest, schema_version: 2 }) }, 'manifest-invalid', /schema_version 2; this bundlepress\.js reads version 1/],
    [{ [MANIFEST_URL]: () => Response.json({ schema_version: 1 }) }, 'manifest-invalid', /lacks its "bundles" list/],
    [{ [MANIFEST_URL]: () => Response.json([]) }, 'manifest-invalid', /schema_version undefined/],
  ];
  for (const [routes, code, message] of cases) {
    const { fetch } = fakeFetch(routes);
    await rejectsWith(readManifest(MANIFEST_URL, { fetch }), code, message);
  }
  const offline = async () => {
    throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
  };
  await rejectsWith(readManifest(MANIFEST_URL, { fetch: offline }), 'manifest-unavailable', /fetch failed \(connect ECONNREFUSED 127\.0\.0\.1:9\)/);
});

test('options are checked', async () => {
  const { fetch } = fakeFetch(siteRoutes());
  await rejectsWith(loadNamedQuery({}, { manifestUrl: MANIFEST_URL, name: 'latest', fetch }), 'invalid-options', /Pass loadBundle and namedQuery from 'firebase\/firestore'/);
  await rejectsWith(preloadBundles({}, { manifestUrl: MANIFEST_URL, fetch }), 'invalid-options', /Pass loadBundle from/);
  await rejectsWith(readManifest('/bundles/manifest.json', { fetch }), 'invalid-options', /outside a browser it must be absolute/);
});

test('preloadBundles loads every bundle of the manifest, which later loads reuse', async () => {
  const { fetch, calls } = fakeFetch(siteRoutes());
  const firebase = fakeFirebase();
  const firestore = {};
  const loaded = await preloadBundles(firestore, { manifestUrl: MANIFEST_URL, fetch, loadBundle: firebase.loadBundle });
  assert.deepEqual(loaded, [
    { id: 'front', url: 'https://cdn.test/site/bundles/front.00aa.bundle', progress: { taskState: 'Success', documentsLoaded: 1 } },
    { id: 'archive', url: 'https://cdn.test/site/bundles/archive.00bb.bundle', progress: { taskState: 'Success', documentsLoaded: 1 } },
  ]);
  await loadNamedQuery(firestore, { manifestUrl: MANIFEST_URL, name: 'old', fetch, ...firebase });
  assert.equal(firebase.loads.length, 2);
  assert.equal(calls.filter((call) => call.url.endsWith('.bundle')).length, 2);
  const failing = fakeFetch(siteRoutes({ 'https://cdn.test/site/bundles/archive.00bb.bundle': undefined }));
  await rejectsWith(preloadBundles({}, { manifestUrl: MANIFEST_URL, fetch: failing.fetch, loadBundle: firebase.loadBundle }), 'bundle-unavailable', /archive/);
});

const vendor = process.env.FIRESTORE_JS_VENDOR;
const sdkSkip = vendor && existsSync(path.join(vendor, 'firebase')) ? false : 'set FIRESTORE_JS_VENDOR to a Firebase JS SDK node_modules (local check)';

/** Runs `body` with the real SDK and an offline, memory-cached Firestore for `project`. */
async function withSdk(project, body) {
  const { initializeApp, deleteApp } = await import(pathToFileURL(path.join(vendor, 'firebase', 'app', 'dist', 'index.mjs')).href);
  const sdk = await import(pathToFileURL(path.join(vendor, 'firebase', 'firestore', 'dist', 'index.mjs')).href);
  const app = initializeApp({ apiKey: 'fake', projectId: project, appId: '1:0:web:0' }, 'bundlepress-test');
  const firestore = sdk.initializeFirestore(app, { localCache: sdk.memoryLocalCache() });
  await sdk.disableNetwork(firestore);
  try {
    await body(sdk, firestore);
  } finally {
    await sdk.terminate(firestore);
    await deleteApp(app);
  }
}

/** A fetch serving `directory` as https://example.test/ (only the path of the URL counts). */
const directoryFetch = (directory) => async (url) => new Response(readFileSync(path.join(directory, new URL(url).pathname)));

test('with the real Firebase JS SDK: every example named query returns bundlepress query results', { skip: sdkSkip }, async () => {
  const example = exampleManifest();
  await withSdk(example.project, async (sdk, firestore) => {
    const options = { manifestUrl: 'https://example.test/bundles/manifest.json', fetch: directoryFetch(siteDirectory), loadBundle: sdk.loadBundle, namedQuery: sdk.namedQuery };
    const loaded = await preloadBundles(firestore, options);
    assert.deepEqual(loaded.map((entry) => [entry.id, entry.progress.taskState]), example.bundles.map((entry) => [entry.id, 'Success']));
    for (const name of Object.keys(example.named_queries)) {
      const snapshot = await sdk.getDocsFromCache(await loadNamedQuery(firestore, { ...options, name }));
      assert.deepEqual(snapshot.docs.map((document) => document.ref.path), expectedQueryPaths(name), name);
    }
    await rejectsWith(loadNamedQuery(firestore, { ...options, name: 'nope' }), 'unknown-named-query', /"nope"/);
  });
});

test('fetchSnapshot returns the snapshot JSON of every example named query and listed document', async () => {
  const example = exampleManifest();
  const options = { manifestUrl: 'https://example.test/bundles/manifest.json', fetch: directoryFetch(siteDirectory) };
  const names = Object.keys(example.named_queries);
  assert.ok(names.length > 0 && Object.keys(example.documents ?? {}).length > 0);
  for (const name of names) {
    const json = await fetchSnapshot({ ...options, name });
    assert.deepEqual(json, JSON.parse(readFileSync(path.join(siteDirectory, example.named_queries[name].snapshot), 'utf8')));
    assert.deepEqual([json.type, json.bundleSource, json.bundleName, typeof json.bundle], ['firestore/querySnapshot/1.0', 'QuerySnapshot', name, 'string']);
  }
  for (const document of Object.keys(example.documents)) {
    const json = await fetchSnapshot({ ...options, document });
    assert.deepEqual([json.type, json.bundleSource, json.bundleName], ['firestore/documentSnapshot/1.0', 'DocumentSnapshot', document]);
  }
  await rejectsWith(fetchSnapshot({ ...options, name: 'nope' }), 'unknown-named-query', /"nope"/);
  await rejectsWith(fetchSnapshot({ ...options, document: 'site/nope' }), 'unknown-document', /site\/nope/);
  await rejectsWith(fetchSnapshot({ ...options }), 'invalid-options', /either name/);
});

test('fetchSnapshot: a site without snapshots, or a file that is not the snapshot asked for, is an error', async () => {
  const { fetch } = fakeFetch(siteRoutes());
  await rejectsWith(fetchSnapshot({ manifestUrl: MANIFEST_URL, name: 'latest', fetch }), 'snapshot-unavailable', /snapshots: false/);
  const withSnapshot = { ...manifest, named_queries: { ...manifest.named_queries, latest: { ...manifest.named_queries.latest, snapshot: 'bundles/snapshots/latest.00cc.json' } } };
  const routes = (body) => fakeFetch(siteRoutes({ [MANIFEST_URL]: () => Response.json(withSnapshot), 'https://cdn.test/site/bundles/snapshots/latest.00cc.json': () => new Response(body) }));
  await rejectsWith(fetchSnapshot({ manifestUrl: MANIFEST_URL, name: 'latest', fetch: routes('{').fetch }), 'snapshot-invalid', /not JSON/);
  const other = JSON.stringify({ type: 'firestore/querySnapshot/1.0', bundleSource: 'QuerySnapshot', bundleName: 'top', bundle: '' });
  await rejectsWith(fetchSnapshot({ manifestUrl: MANIFEST_URL, name: 'latest', fetch: routes(other).fetch }), 'snapshot-invalid', /QuerySnapshot of "latest"/);
  const own = JSON.stringify({ type: 'firestore/querySnapshot/1.0', bundleSource: 'QuerySnapshot', bundleName: 'latest', bundle: '' });
  assert.equal((await fetchSnapshot({ manifestUrl: MANIFEST_URL, name: 'latest', fetch: routes(own).fetch })).bundleName, 'latest');
});

test('with the real Firebase JS SDK: querySnapshotFromJSON of every example snapshot holds the query\'s results', { skip: sdkSkip }, async () => {
  const example = exampleManifest();
  await withSdk(example.project, async (sdk, firestore) => {
    const options = { manifestUrl: 'https://example.test/bundles/manifest.json', fetch: directoryFetch(siteDirectory) };
    for (const name of Object.keys(example.named_queries)) {
      const snapshot = sdk.querySnapshotFromJSON(firestore, await fetchSnapshot({ ...options, name }));
      // firebase 12.14.0 keeps a snapshot's documents in key order (an upstream bug): compared as sets.
      assert.deepEqual(snapshot.docs.map((document) => document.ref.path).sort(), [...expectedQueryPaths(name)].sort(), name);
    }
    for (const document of Object.keys(example.documents)) {
      const snapshot = sdk.documentSnapshotFromJSON(firestore, await fetchSnapshot({ ...options, document }));
      assert.equal(snapshot.ref.path, document);
      assert.ok(snapshot.exists());
    }
  });
});

test('with the real Firebase JS SDK: a client that cached the earlier build gets what bundlepress query returns after the rebuild', { skip: sdkSkip }, async () => {
  const site = returningSite();
  const serveSite = directoryFetch(site.siteDirectory);
  // The earlier manifest at /earlier/bundles/manifest.json; its bundles are still published (retention).
  const fetch = async (url) => {
    const { pathname } = new URL(url);
    if (pathname === '/earlier/bundles/manifest.json') return Response.json(site.earlierManifest);
    return serveSite(`https://example.test${pathname.replace(/^\/earlier\//, '/')}`);
  };
  await withSdk(site.manifest.project, async (sdk, firestore) => {
    const earlier = await preloadBundles(firestore, { manifestUrl: 'https://example.test/earlier/bundles/manifest.json', fetch, loadBundle: sdk.loadBundle });
    assert.ok(earlier.every((entry) => entry.progress.taskState === 'Success'));
    const cached = await sdk.getDocsFromCache(await sdk.namedQuery(firestore, 'latest-stories'));
    assert.equal(cached.docs[0].ref.path, site.deleted, 'the cache starts with the earlier build');
    const options = { manifestUrl: 'https://example.test/bundles/manifest.json', fetch, loadBundle: sdk.loadBundle, namedQuery: sdk.namedQuery };
    for (const name of Object.keys(site.manifest.named_queries)) {
      const snapshot = await sdk.getDocsFromCache(await loadNamedQuery(firestore, { ...options, name }));
      assert.deepEqual(snapshot.docs.map((document) => document.ref.path), expectedQueryPaths(name, { cwd: site.project }), name);
    }
    const deleted = await sdk.getDocFromCache(sdk.doc(firestore, site.deleted));
    assert.equal(deleted.exists(), false, 'the missing-document marker replaced the cached copy');
    const unpublished = await sdk.getDocFromCache(sdk.doc(firestore, site.unpublished));
    assert.equal(unpublished.get('published'), false, 'the leaver replaced the cached copy');
  });
});

/** A Storage stand-in (localStorage's getItem, setItem, removeItem). */
function memoryStorage() {
  const items = new Map();
  return {
    items,
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => items.set(key, String(value)),
    removeItem: (key) => items.delete(key),
  };
}

test('past the horizon: the cache of an app last opened before horizon_start is reset before anything loads', async () => {
  const storage = memoryStorage();
  const at = (siteTime, horizonStart) => ({ ...manifest, site_time: siteTime, horizon_start: horizonStart });
  const calls = [];
  const firebase = fakeFirebase();
  const base = {
    manifestUrl: MANIFEST_URL, name: 'latest', loadBundle: firebase.loadBundle, namedQuery: firebase.namedQuery, storage,
    terminate: async (db) => calls.push(['terminate', db.id]),
    clearIndexedDbPersistence: async (db) => calls.push(['clear', db.id]),
  };
  // First visit: nothing remembered, nothing reset; the site time is remembered once loaded.
  let served = at('2026-11-01T00:00:00.000000000Z', '2026-10-02T00:00:00.000000000Z');
  const { fetch } = fakeFetch(siteRoutes({ [MANIFEST_URL]: () => Response.json(served) }));
  const first = { id: 'first' };
  await loadNamedQuery(first, { ...base, fetch });
  assert.deepEqual(calls, []);
  assert.equal(storage.getItem(`bundlepress:site-time:${MANIFEST_URL}`), '2026-11-01T00:00:00.000000000Z');
  // Within the horizon: no reset.
  served = at('2026-11-20T00:00:00.000000000Z', '2026-10-21T00:00:00.000000000Z');
  const second = { id: 'second' };
  await loadNamedQuery(second, { ...base, fetch });
  assert.deepEqual(calls, []);
  // Opened again 45 days later: the callback, then terminate and clear, then the new instance loads.
  served = at('2027-01-05T00:00:00.000000000Z', '2026-12-06T00:00:00.000000000Z');
  const reopened = { id: 'reopened' };
  const query = await loadNamedQuery(second, {
    ...base, fetch,
    onReset: async (details) => calls.push(['onReset', details.lastSiteTime, details.horizonStart]),
    reopen: async () => reopened,
  });
  assert.deepEqual(calls, [['onReset', '2026-11-20T00:00:00.000000000Z', '2026-12-06T00:00:00.000000000Z'], ['terminate', 'second'], ['clear', 'second']]);
  assert.equal(query.firestore, reopened);
  assert.equal(firebase.loads.at(-1).firestore, reopened);
  assert.equal(storage.getItem(`bundlepress:site-time:${MANIFEST_URL}`), '2027-01-05T00:00:00.000000000Z');
  // Without reopen the reset still happens, and the app is told to open Firestore again.
  storage.setItem(`bundlepress:site-time:${MANIFEST_URL}`, '2026-01-01T00:00:00.000000000Z');
  calls.length = 0;
  const loadsBefore = firebase.loads.length;
  await assert.rejects(loadNamedQuery({ id: 'old' }, { ...base, fetch }), (error) => error instanceof BundlePressError && error.code === 'cache-reset');
  assert.deepEqual(calls, [['terminate', 'old'], ['clear', 'old']]);
  assert.equal(firebase.loads.length, loadsBefore, 'nothing loads into a cleared instance');
  // Without terminate and clearIndexedDbPersistence a reset cannot happen: the options are named.
  storage.setItem(`bundlepress:site-time:${MANIFEST_URL}`, '2026-01-01T00:00:00.000000000Z');
  await assert.rejects(
    loadNamedQuery({ id: 'bare' }, { manifestUrl: MANIFEST_URL, name: 'latest', loadBundle: firebase.loadBundle, namedQuery: firebase.namedQuery, storage, fetch }),
    (error) => error.code === 'invalid-options' && /terminate and clearIndexedDbPersistence/.test(error.message),
  );
});
