// The horizon's reset in headless Chromium (docs/returning-clients.md, "The horizon"):
// site/bundlepress.js with stand-ins for the SDK's calls, real localStorage, the app page closed
// and opened again between builds. With the real SDK and IndexedDB persistence:
// scripts/check_horizon_browser.mjs (local).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import { Browser } from './devtools.mjs';
import { repositoryRoot } from './support.mjs';

const PAGE = `<!doctype html><meta charset="utf-8"><title>app</title>
<script type="module">
import { loadNamedQuery } from '/bundlepress.js';
window.visit = async (reopenGiven) => {
  const calls = [];
  let next = 1;
  const db = { id: 'db' + next };
  const query = await loadNamedQuery(db, {
    manifestUrl: '/bundles/manifest.json', name: 'latest',
    loadBundle: async (firestore) => { calls.push('loadBundle ' + firestore.id); return {}; },
    namedQuery: async (firestore, name) => ({ firestore, name }),
    terminate: async (firestore) => calls.push('terminate ' + firestore.id),
    clearIndexedDbPersistence: async (firestore) => calls.push('clear ' + firestore.id),
    onReset: (details) => calls.push('onReset ' + details.lastSiteTime),
    ...(reopenGiven ? { reopen: async () => ({ id: 'db' + (next += 1) }) } : {}),
  }).catch((error) => ({ error: error.code }));
  return { calls, used: query.firestore?.id ?? query.error, remembered: localStorage.getItem('bundlepress:site-time:' + new URL('/bundles/manifest.json', location.href).href) };
};
window.ready = true;
</script>`;

test('in Chromium: an app opened again past the horizon is reset before anything loads, and only then', async (t) => {
  let manifest = null;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    const routes = {
      '/app.html': ['text/html', PAGE],
      '/bundlepress.js': ['text/javascript', readFileSync(path.join(repositoryRoot, 'site/bundlepress.js'))],
      '/bundles/manifest.json': ['application/json', JSON.stringify(manifest)],
      '/bundles/front.00aa.bundle': ['application/octet-stream', '12{"metadata":1}'],
    };
    const route = routes[url.pathname];
    response.writeHead(route ? 200 : 404, { 'Content-Type': route?.[0] ?? 'text/plain', 'Cache-Control': 'no-store' });
    response.end(route?.[1] ?? '');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  let browser;
  try {
    browser = Browser.launch();
  } catch (error) {
    t.skip(`no chromium: ${error.message}`);
    server.close();
    return;
  }
  const at = (siteTime, horizonStart) => ({
    schema_version: 1, site_time: siteTime, horizon_start: horizonStart,
    bundles: [{ id: 'front', url: 'bundles/front.00aa.bundle', named_queries: ['latest'] }],
    named_queries: { latest: { bundle: 'front', url: 'bundles/front.00aa.bundle' } },
  });
  const visit = (reopenGiven = true) => browser.visit(`${origin}/app.html`, reopenGiven);
  try {
    manifest = at('2026-11-01T00:00:00.000000000Z', '2026-10-02T00:00:00.000000000Z');
    assert.deepEqual(await visit(), { calls: ['loadBundle db1'], used: 'db1', remembered: '2026-11-01T00:00:00.000000000Z' });
    manifest = at('2026-11-20T00:00:00.000000000Z', '2026-10-21T00:00:00.000000000Z');
    assert.deepEqual(await visit(), { calls: ['loadBundle db1'], used: 'db1', remembered: '2026-11-20T00:00:00.000000000Z' });
    // Opened again 45 days later: reset first, then the bundle loads into the new instance.
    manifest = at('2027-01-05T00:00:00.000000000Z', '2026-12-06T00:00:00.000000000Z');
    assert.deepEqual(await visit(), {
      calls: ['onReset 2026-11-20T00:00:00.000000000Z', 'terminate db1', 'clear db1', 'loadBundle db2'],
      used: 'db2',
      remembered: '2027-01-05T00:00:00.000000000Z',
    });
    assert.deepEqual(await visit(), { calls: ['loadBundle db1'], used: 'db1', remembered: '2027-01-05T00:00:00.000000000Z' });
    // Without reopen: cleared, nothing loaded, the app told to open Firestore again.
    manifest = at('2027-03-01T00:00:00.000000000Z', '2027-01-30T00:00:00.000000000Z');
    assert.deepEqual(await visit(false), { calls: ['onReset 2027-01-05T00:00:00.000000000Z', 'terminate db1', 'clear db1'], used: 'cache-reset', remembered: null });
  } finally {
    await browser.close();
    server.close();
  }
});
