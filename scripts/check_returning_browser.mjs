#!/usr/bin/env node
// Local check of the returning-clients invariant in a real browser: headless Chromium, the
// Firebase JS SDK's browser build with IndexedDB persistence (`persistentLocalCache`), the app
// page closed and opened again between builds. The Swift tests, run with
// BUNDLEPRESS_MODEL_DUMP=DIR, keep every sequence of bundles they modelled (the earlier bundles,
// then one of the last build) and the model's answer for the last bundle's named queries,
// which the tests checked to be a fresh app's. For each sequence this opens the app page once
// per bundle, each visit loading that bundle into the page's persistent cache and closing the
// page, then, on the last visit, runs the named queries from the cache.
//
//   BUNDLEPRESS_MODEL_DUMP=/tmp/model swift test --skip-build --filter ReturningClientTests
//   FIRESTORE_JS_VENDOR=/path/to/node_modules node scripts/check_returning_browser.mjs /tmp/model [--every N]
//
// Needs chromium and the SDK (../shared/tools/js-client/README.md says how to bring it; never
// committed). `--every N` checks every Nth sequence of each file (default 1: all). Prints one
// line per disagreement and `N passed, M failed`.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Browser } from '../Tests/Browser/devtools.mjs';
import { IMPORTS } from './firebase-browser-imports.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const vendor = process.env.FIRESTORE_JS_VENDOR ?? path.resolve(here, '../../shared/tools/js-client/vendor/node_modules');
const folder = process.argv[2];
const everyAt = process.argv.indexOf('--every');
const every = everyAt > 0 ? Number(process.argv[everyAt + 1]) : 1;
if (!folder || !fs.existsSync(path.join(vendor, 'firebase'))) {
  console.error('usage: FIRESTORE_JS_VENDOR=… node scripts/check_returning_browser.mjs DUMP_DIR [--every N]');
  process.exit(2);
}

// The app page: opens Firestore with IndexedDB persistence under app `name`, loads the bundles
// given, and, asked to, runs named queries from the cache. Offline: nothing reaches a backend.
const PAGE = `<!doctype html><meta charset="utf-8"><title>app</title>
<script type="importmap">${JSON.stringify({ imports: IMPORTS })}</script>
<script type="module">
import { initializeApp } from 'firebase/app';
import * as F from 'firebase/firestore';
F.setLogLevel('silent');
window.visit = async ({ name, project, bundles, queries }) => {
  const app = initializeApp({ projectId: project, apiKey: 'none', appId: 'none' }, name);
  const db = F.initializeFirestore(app, { localCache: F.persistentLocalCache() });
  await F.disableNetwork(db);
  for (const url of bundles) {
    const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
    await F.loadBundle(db, bytes);
  }
  const results = {};
  for (const query of queries) {
    const named = await F.namedQuery(db, query);
    results[query] = named ? (await F.getDocsFromCache(named)).docs.map((doc) => doc.ref.path) : null;
  }
  await F.terminate(db);
  return results;
};
window.ready = true;
</script>`;

const files = new Map();
const server = http.createServer((request, response) => {
  const url = new URL(request.url, 'http://127.0.0.1');
  let file = null;
  if (url.pathname === '/app.html') {
    response.writeHead(200, { 'Content-Type': 'text/html' });
    return response.end(PAGE);
  }
  if (url.pathname.startsWith('/vendor/')) file = path.join(vendor, decodeURIComponent(url.pathname.slice(8)));
  if (url.pathname.startsWith('/bundle/')) file = files.get(url.pathname);
  if (!file || !file.startsWith(path.sep) || !fs.existsSync(file)) {
    response.writeHead(404);
    return response.end();
  }
  const type = file.endsWith('.js') || file.endsWith('.mjs') ? 'text/javascript' : 'application/octet-stream';
  response.writeHead(200, { 'Content-Type': type });
  fs.createReadStream(file).pipe(response);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const urlOf = (file) => {
  const key = `/bundle/${files.size}/${path.basename(file)}`;
  for (const [known, value] of files) if (value === file) return origin + known;
  files.set(key, file);
  return origin + key;
};

const browser = Browser.launch();
/** Opens the app page, runs one visit, closes the page. */
const visit = (argument) => browser.visit(`${origin}/app.html`, argument);

let passed = 0;
let failed = 0;
let sequenceNumber = 0;
try {
  for (const file of fs.readdirSync(folder).filter((name) => name.endsWith('.json')).sort()) {
    const { project, sequences } = JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8'));
    for (const [index, { bundles, results }] of sequences.entries()) {
      if (index % every !== 0) continue;
      sequenceNumber += 1;
      const name = `app${sequenceNumber}`;
      const queries = Object.keys(results).sort();
      for (const bundle of bundles.slice(0, -1)) await visit({ name, project, bundles: [urlOf(bundle)], queries: [] });
      const got = await visit({ name, project, bundles: [urlOf(bundles.at(-1))], queries });
      for (const query of queries) {
        if (JSON.stringify(got[query]) === JSON.stringify(results[query])) {
          passed += 1;
        } else {
          failed += 1;
          console.log(`${file}: ${bundles.map((b) => path.basename(path.dirname(b)) + '/' + path.basename(b)).join(' → ')}: ${query}: Chromium ${JSON.stringify(got[query])} model ${JSON.stringify(results[query])}`);
        }
      }
    }
  }
} finally {
  await browser.close();
  server.close();
}
console.log(`${passed} passed, ${failed} failed (${sequenceNumber} sequences, a page visit per bundle, IndexedDB persistence)`);
process.exit(failed ? 1 : 0);
