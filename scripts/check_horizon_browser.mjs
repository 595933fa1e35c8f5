#!/usr/bin/env node
// Local check of the horizon (docs/returning-clients.md, "The horizon") with the real Firebase JS
// SDK in headless Chromium, IndexedDB persistence, and site/bundlepress.js: an app opens the
// example site's home page at build 1, the newest story is deleted and the site is next built
// past the horizon (leavers: {keep: 2d}, snapshot time ten days later), so no bundle carries the
// deleted story's marker any more. The app, opened again, must be reset by bundlepress.js and
// show what a fresh app shows; a control app that keeps its cache (storage: null) still shows
// the deleted story, which is what the reset is for.
//
//   FIRESTORE_JS_VENDOR=/path/to/node_modules node scripts/check_horizon_browser.mjs [BUNDLEPRESS]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Browser } from '../Tests/Browser/devtools.mjs';
import { IMPORTS } from './firebase-browser-imports.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repository = path.resolve(here, '..');
const vendor = process.env.FIRESTORE_JS_VENDOR ?? path.resolve(repository, '../shared/tools/js-client/vendor/node_modules');
const binary = process.argv[2] ?? path.join(repository, '.build/debug/bundlepress');
const project = fs.mkdtempSync(path.join(os.tmpdir(), 'bundlepress-horizon-'));
fs.copyFileSync(path.join(repository, 'pipeline.yml'), path.join(project, 'pipeline.yml'));
fs.cpSync(path.join(repository, 'exports'), path.join(project, 'exports'), { recursive: true });
const config = path.join(project, 'pipeline.yml');
fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('leavers: {keep: 30d}', 'leavers: {keep: 2d}'));
const build = () => execFileSync(binary, ['build', '--quiet'], { cwd: project, env: { ...process.env, CI: '' } });
build();
const site = path.join(project, 'site');
const manifest1 = JSON.parse(fs.readFileSync(path.join(site, 'bundles/manifest.json'), 'utf8'));

const PAGE = `<!doctype html><meta charset="utf-8"><title>app</title>
<script type="importmap">${JSON.stringify({ imports: IMPORTS })}</script>
<script type="module">
import { initializeApp } from 'firebase/app';
import * as F from 'firebase/firestore';
import { loadNamedQuery } from '/site/bundlepress.js';
F.setLogLevel('silent');
window.visit = async ({ name, project, keepCache }) => {
  const app = initializeApp({ projectId: project, apiKey: 'none', appId: 'none' }, name);
  const open = () => { const db = F.initializeFirestore(app, { localCache: F.persistentLocalCache() }); return F.disableNetwork(db).then(() => db); };
  let db = await open();
  const resets = [];
  const query = await loadNamedQuery(db, {
    manifestUrl: '/site/bundles/manifest.json', name: 'latest-stories', loadBundle: F.loadBundle, namedQuery: F.namedQuery,
    terminate: F.terminate, clearIndexedDbPersistence: F.clearIndexedDbPersistence,
    onReset: (details) => resets.push(details.lastSiteTime + ' < ' + details.horizonStart),
    reopen: async () => (db = await open()),
    storage: keepCache ? null : { getItem: (k) => localStorage.getItem(name + k), setItem: (k, v) => localStorage.setItem(name + k, v), removeItem: (k) => localStorage.removeItem(name + k) },
  });
  const paths = (await F.getDocsFromCache(query)).docs.map((doc) => doc.ref.path);
  await F.terminate(query.firestore);
  return { paths, resets };
};
window.ready = true;
</script>`;
const server = http.createServer((request, response) => {
  const url = new URL(request.url, 'http://127.0.0.1');
  if (url.pathname === '/app.html') {
    response.writeHead(200, { 'Content-Type': 'text/html', 'Cache-Control': 'no-store' });
    return response.end(PAGE);
  }
  let file = null;
  if (url.pathname.startsWith('/vendor/')) file = path.join(vendor, decodeURIComponent(url.pathname.slice(8)));
  if (url.pathname.startsWith('/site/')) file = path.join(site, decodeURIComponent(url.pathname.slice(6)));
  if (!file || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    response.writeHead(404);
    return response.end();
  }
  const type = /\.m?js$/.test(file) ? 'text/javascript' : file.endsWith('.json') ? 'application/json' : 'application/octet-stream';
  response.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  fs.createReadStream(file).pipe(response);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = Browser.launch();
const visit = (argument) => browser.visit(`${origin}/app.html`, argument);

let failures = 0;
const check = (what, ok, detail) => {
  console.log(`${ok ? 'ok' : 'FAILED'}: ${what}${ok ? '' : `: ${detail}`}`);
  if (!ok) failures += 1;
};
try {
  const first = await visit({ name: 'returning', project: manifest1.project });
  await visit({ name: 'control', project: manifest1.project, keepCache: true });
  check('build 1 shows the newest story', first.paths.length > 0 && first.resets.length === 0, JSON.stringify(first));
  const newest = first.paths[0];
  const storiesFile = path.join(project, 'exports/stories.ndjson');
  const lines = fs.readFileSync(storiesFile, 'utf8').split('\n').filter(Boolean);
  fs.writeFileSync(storiesFile, lines.filter((line) => !line.includes(`/documents/${newest}"`)).join('\n') + '\n');
  const later = new Date(Date.parse(manifest1.snapshot_time) + 10 * 86400e3).toISOString();
  fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('previous: none', `previous: none\nsnapshot_time: ${later}`));
  build();
  const manifest2 = JSON.parse(fs.readFileSync(path.join(site, 'bundles/manifest.json'), 'utf8'));
  check('the manifest moves the horizon past build 1', manifest2.horizon_start > manifest1.site_time, `${manifest2.horizon_start} vs ${manifest1.site_time}`);
  const fresh = await visit({ name: 'fresh', project: manifest1.project });
  const returning = await visit({ name: 'returning', project: manifest1.project });
  const control = await visit({ name: 'control', project: manifest1.project, keepCache: true });
  check('a fresh app does not show the deleted story', !fresh.paths.includes(newest), JSON.stringify(fresh.paths));
  check('the returning app was reset (onReset called once)', returning.resets.length === 1, JSON.stringify(returning.resets));
  check('the returning app shows what a fresh app shows', JSON.stringify(returning.paths) === JSON.stringify(fresh.paths), `${JSON.stringify(returning.paths)} vs ${JSON.stringify(fresh.paths)}`);
  check('without the reset the app still shows the deleted story (what the horizon reset is for)', control.paths.includes(newest), JSON.stringify(control.paths));
  const again = await visit({ name: 'returning', project: manifest1.project });
  check('opened again within the horizon: no further reset', again.resets.length === 0 && JSON.stringify(again.paths) === JSON.stringify(fresh.paths), JSON.stringify(again));
} finally {
  await browser.close();
  server.close();
  fs.rmSync(project, { recursive: true, force: true });
}
console.log(failures ? `${failures} failed` : 'all passed');
process.exit(failures ? 1 : 0);
