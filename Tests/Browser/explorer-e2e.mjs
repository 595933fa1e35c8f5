// End to end in real headless Chromium: `bundlepress serve` serves a copy of the example site,
// the explorer page must list every bundle, show each named query's documents in the order
// `bundlepress query` prints, show a rebuilt site's leavers and deleted documents apart from
// the results, list in "What this site publishes" the fields `bundlepress inspect --exposure`
// lists, show errors on the page, and the manifest and bundles must arrive with the caching and
// encoding headers of docs/design.md ("Serving"). Served by `bundlepress serve --watch` over a
// copy of the example project, the page must reload after an edit to pipeline.yml, show a broken
// config's file:line:column while the last good site stays served, and recover once it is fixed.
//
//   node Tests/Browser/explorer-e2e.mjs [--screenshot FILE] [--phone-screenshot FILE] [--returning-screenshot FILE]
//     [--exposure-screenshot FILE]
//
// Needs the built binary and example site (swift build; swift run bundlepress build) and
// Chromium ($CHROMIUM, default `chromium`). $BUNDLEPRESS_SERVE_CMD replaces `bundlepress serve`.

import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { Browser } from './devtools.mjs';
import { startServer } from './site-server.mjs';
import { bundlepress, exampleManifest, expectedQueryPaths, repositoryRoot, returningSite, siteDirectory } from './support.mjs';
import { formatTimestamp } from '../../site/value-format.js';

const OVERALL_TIMEOUT_MS = 180000;
const WAIT_TIMEOUT_MS = 15000;
const BUNDLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const MANIFEST_CACHE_CONTROL = 'public, max-age=60, s-maxage=300';

const { values: options } = parseArgs({
  options: {
    screenshot: { type: 'string' },
    'phone-screenshot': { type: 'string' },
    'returning-screenshot': { type: 'string' },
    'exposure-screenshot': { type: 'string' },
  },
});
const results = [];

function check(description, passed, detail = '') {
  results.push({ description, passed });
  console.log(`${passed ? 'ok' : 'not ok'} ${results.length} - ${description}${passed || !detail ? '' : `\n  ${detail.replaceAll('\n', '\n  ')}`}`);
}

function checkEqual(description, actual, expected) {
  const passed = JSON.stringify(actual) === JSON.stringify(expected);
  check(description, passed, `expected ${JSON.stringify(expected)}\nactual   ${JSON.stringify(actual)}`);
}

/** Cache-Control directives as a sorted list, so order and spacing do not matter. */
function directives(cacheControl) {
  return (cacheControl ?? '').split(',').map((part) => part.trim().toLowerCase()).filter(Boolean).sort();
}

const withoutDotFiles = (source) => !path.basename(source).startsWith('.');

/**
 * A copy of the example site, plus
 * - `broken/bundles/`: its manifest, the first bundle truncated, the second missing and the
 *   third replaced by the first's (valid) bytes;
 * - `older/`: the example with a manifest without `create_time` and `results` (as before leavers);
 * - `returning/`: the example rebuilt after a deletion and an unpublishing (support.mjs);
 * - `miscounted/`: `returning/` with a manifest whose `results` for front-page is off by 100.
 */
function makeFixtureSite(manifest, returning) {
  const directory = mkdtempSync(path.join(tmpdir(), 'bundlepress-explorer-'));
  cpSync(siteDirectory, directory, { recursive: true, filter: withoutDotFiles });
  const [truncated, missing, replaced] = manifest.bundles;
  if (replaced === undefined) throw new Error('the example site needs at least three bundles for the error cases');
  const broken = path.join(directory, 'broken');
  mkdirSync(path.join(broken, 'bundles'), { recursive: true });
  cpSync(path.join(siteDirectory, 'bundles', 'manifest.json'), path.join(broken, 'bundles', 'manifest.json'));
  const firstBytes = readFileSync(path.join(siteDirectory, truncated.url));
  writeFileSync(path.join(broken, truncated.url), firstBytes.subarray(0, Math.floor(firstBytes.length / 2)));
  writeFileSync(path.join(broken, replaced.url), firstBytes);
  cpSync(path.join(siteDirectory, 'bundles'), path.join(directory, 'older', 'bundles'), { recursive: true });
  const older = { ...manifest, bundles: manifest.bundles.map(({ create_time, results, ...entry }) => entry) };
  writeFileSync(path.join(directory, 'older', 'bundles', 'manifest.json'), JSON.stringify(older));
  cpSync(returning.siteDirectory, path.join(directory, 'returning'), { recursive: true, filter: withoutDotFiles });
  cpSync(returning.siteDirectory, path.join(directory, 'miscounted'), { recursive: true, filter: withoutDotFiles });
  const miscounted = {
    ...returning.manifest,
    bundles: returning.manifest.bundles.map((entry) => (entry.id === 'front-page' ? { ...entry, results: entry.results + 100 } : entry)),
  };
  writeFileSync(path.join(directory, 'miscounted', 'bundles', 'manifest.json'), JSON.stringify(miscounted));
  return { directory, truncated, missing, replaced };
}

/**
 * `serve --watch` on a copy of the example project: an edit reloads the open page with the new
 * results, a broken config shows its error on the page (and on a page opened meanwhile) while the
 * last good site is served, and fixing it reloads the page without the error.
 */
async function checkWatch(browser, page, consoleErrors, cleanup) {
  const project = mkdtempSync(path.join(tmpdir(), 'bundlepress-watch-'));
  cleanup.push(() => rmSync(project, { recursive: true, force: true }));
  cpSync(path.join(repositoryRoot, 'exports'), path.join(project, 'exports'), { recursive: true });
  const config = path.join(project, 'pipeline.yml');
  const original = readFileSync(path.join(repositoryRoot, 'pipeline.yml'), 'utf8');
  writeFileSync(config, original);
  const server = await startServer(path.join(project, 'site'), { args: ['--watch', '--config', config], timeoutMs: 60000 });
  cleanup.push(Object.assign(() => server.stop(), { kill: server.kill }));
  const latestRows = `document.querySelector('#bundle-view table[data-query="latest-stories"]')?.tBodies[0].rows.length`;
  await browser.send('Page.navigate', { url: `${server.url}index.html#front-page` }, page);
  await waitFor(browser, page, bundleShown('front-page', 'ready'), consoleErrors);
  checkEqual('watch: the first build is served', await browser.evaluate(page, latestRows), 20);

  await browser.evaluate(page, 'window.beforeRebuild = true');
  writeFileSync(config, original.replace('limit: 20', 'limit: 3'));
  await waitFor(browser, page, `window.beforeRebuild === undefined && ${latestRows} === 3`, consoleErrors);
  check('watch: an edit to pipeline.yml reloads the page with the rebuilt results', true);

  await browser.evaluate(page, 'window.beforeRebuild = true');
  const manifestBefore = await (await fetch(`${server.url}bundles/manifest.json`)).text();
  writeFileSync(config, original.replace('limit: 20', 'limit: -3'));
  await waitFor(browser, page, `!document.getElementById('build-error').hidden`, consoleErrors);
  const shown = await browser.evaluate(page, `document.getElementById('build-error').textContent`);
  check('watch: a broken config shows its file:line:column on the page', /pipeline\.yml:\d+:\d+: /.test(shown), shown);
  check('watch: the page is not reloaded by a failed build', await browser.evaluate(page, 'window.beforeRebuild === true'));
  checkEqual('watch: the last good site is still served', await (await fetch(`${server.url}bundles/manifest.json`)).text(), manifestBefore);
  check('watch: the terminal says the same', server.output().stderr.includes(shown.match(/pipeline\.yml:\d+:\d+: [^\n]*/)?.[0] ?? '?'), server.output().stderr);
  await browser.send('Page.navigate', { url: `${server.url}index.html#front-page` }, page);
  await waitFor(browser, page, `!document.getElementById('build-error').hidden && ${bundleShown('front-page', 'ready')}`, consoleErrors);
  check('watch: a page opened while the build is failing shows the error', true);

  await browser.evaluate(page, 'window.beforeRebuild = true');
  writeFileSync(config, original);
  await waitFor(browser, page, `window.beforeRebuild === undefined && document.getElementById('build-error').hidden && ${latestRows} === 20`, consoleErrors);
  check('watch: fixing the config reloads the page without the error', true);
  await server.stop();
}

/** Page state for failure messages: what the page says, and what the console said. */
async function pageReport(browser, page, consoleErrors) {
  const state = await browser.evaluate(
    page,
    `JSON.stringify({ body: document.body.dataset.state, view: document.getElementById('bundle-view')?.dataset, status: document.getElementById('status')?.textContent, error: document.getElementById('error')?.textContent })`,
  );
  return `page: ${state}\nconsole errors: ${consoleErrors.join('\n') || 'none'}`;
}

/** Polls `expression` in the page until it is true; right after a navigation the document may still be parsing. */
async function waitFor(browser, page, expression, consoleErrors) {
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await browser.evaluate(page, `(() => { try { return ${expression}; } catch { return false; } })()`)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out after ${WAIT_TIMEOUT_MS / 1000} s waiting for ${expression}\n${await pageReport(browser, page, consoleErrors)}`);
}

const bundleShown = (id, state) =>
  `(() => { const view = document.getElementById('bundle-view'); return view.dataset.bundle === ${JSON.stringify(id)} && view.dataset.state === ${JSON.stringify(state)}; })()`;

/** Every query table's document paths, in row order: `{name: [path, …]}`. */
const QUERY_TABLES = `Object.fromEntries([...document.querySelectorAll('#bundle-view table[data-query]')].map((table) =>
  [table.dataset.query, [...table.tBodies[0].rows].map((row) => row.dataset.path)]))`;

/** Every table of what is no query's result, by `data-role` (listed, leavers, unqueried, missing): its paths, sorted. */
const ROLE_TABLES = `Object.fromEntries([...document.querySelectorAll('#bundle-view table[data-role]')].map((table) =>
  [table.dataset.role, [...table.tBodies[0].rows].map((row) => row.dataset.path).sort()]))`;

/** Each badge as `[row path, text]`. */
const BADGES = `[...document.querySelectorAll('#bundle-view .badge')].map((badge) => [badge.closest('tr').dataset.path, badge.textContent])`;

/** The bundle table's Created, Documents and For returning clients cells: `{id: [created, documents, returning]}`. */
const BUNDLE_COUNTS = `Object.fromEntries([...document.querySelectorAll('#bundle-table tbody tr')].map((row) =>
  [row.dataset.bundle, [6, 2, 3].map((column) => row.cells[column].textContent)]))`;

const manifestCounts = (manifest) =>
  Object.fromEntries(manifest.bundles.map((entry) => [entry.id, [formatTimestamp(entry.create_time), String(entry.results), String(entry.documents - entry.results)]]));

async function pressEnterOn(browser, page, selector) {
  await browser.evaluate(page, `document.querySelector(${JSON.stringify(selector)}).focus()`);
  const key = { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 };
  await browser.send('Input.dispatchKeyEvent', { type: 'keyDown', text: '\r', ...key }, page);
  await browser.send('Input.dispatchKeyEvent', { type: 'keyUp', ...key }, page);
}

/** Captures the viewport from `selector` down (default: the bundle list, the chosen bundle, its first rows). */
async function screenshot(browser, page, file, { width, height, selector = '#bundles' }) {
  await browser.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false }, page);
  await browser.evaluate(page, `document.querySelector(${JSON.stringify(selector)}).scrollIntoView()`);
  const { data } = await browser.send('Page.captureScreenshot', { format: 'png' }, page);
  writeFileSync(file, Buffer.from(data, 'base64'));
  await browser.send('Emulation.clearDeviceMetricsOverride', {}, page);
  console.log(`# screenshot ${width}x${height}: ${file}`);
}

/** The role tables of the example's bundle `id`: its listed documents, as the rebuilt site's first build shipped them. */
function listedOnly(returning, id) {
  const listed = [...returning.shippedBefore.get(id).unqueried].sort();
  return listed.length > 0 ? { listed } : {};
}

async function checkExplorer(browser, page, server, manifest, returning, consoleErrors) {
  await browser.send('Page.navigate', { url: `${server.url}index.html` }, page);
  await waitFor(browser, page, `document.body.dataset.state !== 'loading'`, consoleErrors);
  checkEqual('the page loads the manifest', await browser.evaluate(page, 'document.body.dataset.state'), 'ready');
  checkEqual(
    'the page lists every bundle of the manifest',
    await browser.evaluate(page, `[...document.querySelectorAll('#bundle-table tbody tr')].map((row) => row.dataset.bundle)`),
    manifest.bundles.map((entry) => entry.id),
  );
  checkEqual('the bundle list shows each bundle\'s create_time, results and (none) for returning clients', await browser.evaluate(page, BUNDLE_COUNTS), manifestCounts(manifest));
  for (const [index, entry] of manifest.bundles.entries()) {
    if (index > 0) await pressEnterOn(browser, page, `#bundle-table tr[data-bundle="${entry.id}"] button`);
    await waitFor(browser, page, bundleShown(entry.id, 'ready'), consoleErrors);
    const tables = await browser.evaluate(page, QUERY_TABLES);
    checkEqual(`${entry.id}: one table per named query`, Object.keys(tables).sort(), entry.named_queries);
    for (const name of entry.named_queries) {
      checkEqual(`${entry.id}/${name}: the documents bundlepress query returns, in order`, tables[name], expectedQueryPaths(name));
    }
    checkEqual(`${entry.id}: its listed documents, and no leavers or deleted documents`, await browser.evaluate(page, ROLE_TABLES), listedOnly(returning, entry.id));
    const facts = await browser.evaluate(page, `document.querySelector('#bundle-view .facts').innerText`);
    check(`${entry.id}: the page saw Content-Encoding: gzip and a matching SHA-256`, /Content-Encoding: gzip/.test(facts) && /SHA-256\s*matches the manifest/.test(facts), facts);
    if (index > 0) {
      checkEqual(`${entry.id}: chosen with the keyboard, focus moves to the bundle`, await browser.evaluate(page, 'document.activeElement.id'), 'bundle-heading');
    }
  }
  if (options.screenshot || options['phone-screenshot']) {
    await browser.send('Page.navigate', { url: `${server.url}index.html#${manifest.bundles[0].id}` }, page);
    await waitFor(browser, page, bundleShown(manifest.bundles[0].id, 'ready'), consoleErrors);
    if (options.screenshot) await screenshot(browser, page, options.screenshot, { width: 1280, height: 900 });
    if (options['phone-screenshot']) await screenshot(browser, page, options['phone-screenshot'], { width: 390, height: 844 });
  }
}

/** What the rebuilt site's bundle `id` must show apart from its results: `{role: [paths]}` and the badges. */
function expectedNonResults(returning, id) {
  const before = returning.shippedBefore.get(id);
  const listed = [...before.unqueried];
  const leavers = before.paths.has(returning.unpublished) ? [returning.unpublished] : [];
  const missing = before.paths.has(returning.deleted) ? [returning.deleted] : [];
  const roles = {};
  if (listed.length + leavers.length > 0) {
    const role = leavers.length === 0 ? 'listed' : listed.length === 0 ? 'leavers' : 'unqueried';
    roles[role] = [...listed, ...leavers].sort();
  }
  if (missing.length > 0) roles.missing = missing;
  const badges = [...(roles.leavers ?? []).map((leaver) => [leaver, 'left the query']), ...missing.map((path) => [path, 'deleted'])];
  return { roles, badges, leavers, missing };
}

async function checkReturning(browser, page, server, returning, consoleErrors) {
  const { manifest } = returning;
  await browser.send('Page.navigate', { url: `${server.url}index.html?manifest=returning/bundles/manifest.json` }, page);
  await waitFor(browser, page, `document.body.dataset.state === 'ready'`, consoleErrors);
  checkEqual('rebuilt site: the bundle list counts leavers and deleted documents for returning clients only', await browser.evaluate(page, BUNDLE_COUNTS), manifestCounts(manifest));
  for (const entry of manifest.bundles) {
    await browser.evaluate(page, `location.hash = ${JSON.stringify(`#${encodeURIComponent(entry.id)}`)}`);
    await waitFor(browser, page, bundleShown(entry.id, 'ready'), consoleErrors);
    const tables = await browser.evaluate(page, QUERY_TABLES);
    const results = entry.named_queries.map((name) => [name, expectedQueryPaths(name, { cwd: returning.project })]);
    checkEqual(`rebuilt ${entry.id}: each named query shows exactly the documents bundlepress query returns`, entry.named_queries.map((name) => [name, tables[name]]), results);
    const expected = expectedNonResults(returning, entry.id);
    checkEqual(`rebuilt ${entry.id}: listed documents, leavers and deleted documents shown apart`, await browser.evaluate(page, ROLE_TABLES), expected.roles);
    checkEqual(`rebuilt ${entry.id}: badges`, await browser.evaluate(page, BADGES), expected.badges);
    const facts = await browser.evaluate(page, `document.querySelector('#bundle-view .facts').innerText`);
    const counted = [
      [expected.leavers.length, `${expected.leavers.length} left a query`],
      [expected.missing.length, `${expected.missing.length} deleted`],
    ];
    check(
      `rebuilt ${entry.id}: the document count names leavers and deleted documents`,
      counted.every(([count, text]) => (count > 0) === facts.includes(text)) && facts.includes(`${entry.documents} documents: `),
      facts,
    );
  }
  const shown = manifest.bundles.find((entry) => {
    const { roles } = expectedNonResults(returning, entry.id);
    return roles.leavers && roles.missing;
  });
  if (shown === undefined) throw new Error('the rebuilt site needs a bundle with a leaver and a deleted document');
  if (options['returning-screenshot']) {
    await browser.evaluate(page, `location.hash = ${JSON.stringify(`#${encodeURIComponent(shown.id)}`)}`);
    await waitFor(browser, page, bundleShown(shown.id, 'ready'), consoleErrors);
    await screenshot(browser, page, options['returning-screenshot'], { width: 1280, height: 900, selector: '#leavers-documents' });
  }

  await browser.send('Page.navigate', { url: `${server.url}index.html?manifest=miscounted/bundles/manifest.json#front-page` }, page);
  await waitFor(browser, page, bundleShown('front-page', 'ready'), consoleErrors);
  const warnings = await browser.evaluate(page, `document.querySelector('#bundle-view .warnings')?.innerText ?? ''`);
  check('a manifest whose results disagree with the bundle is reported', /the manifest counts \d+ results, but the bundle holds \d+ query results and \d+ other documents?/.test(warnings), warnings);
  checkEqual('…and its documents outside the queries are shown without telling leavers from listed ones', Object.keys(await browser.evaluate(page, ROLE_TABLES)), ['unqueried', 'missing']);
}

async function checkOlderManifest(browser, page, server, manifest, returning, consoleErrors) {
  const [first] = manifest.bundles;
  await browser.send('Page.navigate', { url: `${server.url}index.html?manifest=older/bundles/manifest.json#${first.id}` }, page);
  await waitFor(browser, page, bundleShown(first.id, 'ready'), consoleErrors);
  const counts = Object.fromEntries(manifest.bundles.map((entry) => [entry.id, ['not listed', String(entry.documents), '0']]));
  checkEqual('a manifest without create_time and results (before leavers): every document counts', await browser.evaluate(page, BUNDLE_COUNTS), counts);
  checkEqual('…and what its bundles carry outside the named queries is listed', await browser.evaluate(page, ROLE_TABLES), listedOnly(returning, first.id));
}

/**
 * The tables of "What this site publishes", read back into what `bundlepress inspect --exposure
 * --json` prints as `collections`: each caption `<collection> — <n> documents in <k> bundles:
 * <ids>` (bundles null when k is not the number of ids) and each row's field, types and count.
 */
const EXPOSURE_TABLES = `[...document.querySelectorAll('#exposure table[data-collection]')].map((table) => {
  const [, collection, documents, count, bundles] = /^(.*) — (\\d+) documents? in (\\d+) bundles?: (.*)$/.exec(table.caption.textContent);
  const ids = bundles.split(', ');
  return {
    collection,
    documents: Number(documents),
    bundles: Number(count) === ids.length ? ids : null,
    fields: [...table.tBodies[0].rows].map((row) => ({
      path: row.cells[0].textContent,
      types: row.cells[1].textContent.split(' | '),
      documents: Number(row.cells[2].textContent),
    })),
  };
})`;

/** Opens "What this site publishes" on the page at `url` (the `site` of check descriptions) and waits until it is `state`. */
async function openExposure(browser, page, { site, url }, state, consoleErrors) {
  await browser.send('Page.navigate', { url }, page);
  await waitFor(browser, page, `document.body.dataset.state === 'ready'`, consoleErrors);
  checkEqual(`${site}: "What this site publishes" reads no bundle until opened`, await browser.evaluate(page, `document.getElementById('exposure').dataset.state ?? null`), null);
  await browser.evaluate(page, `document.querySelector('#exposure summary').click()`);
  await waitFor(browser, page, `document.getElementById('exposure').dataset.state === ${JSON.stringify(state)}`, consoleErrors);
}

/** "What this site publishes" on the site in `directory` (served at `url`) lists what `bundlepress inspect --exposure` lists. */
async function checkExposureOf(browser, page, { site, url, directory }, consoleErrors) {
  await openExposure(browser, page, { site, url }, 'ready', consoleErrors);
  const shown = await browser.evaluate(page, EXPOSURE_TABLES);
  let expected;
  try {
    expected = JSON.parse(bundlepress(['inspect', '--exposure', '--json', directory])).collections;
  } catch (error) {
    check(`${site}: bundlepress inspect --exposure --json ${directory} runs`, false, error.message);
    return;
  }
  checkEqual(`${site}: one exposure table per collection inspect --exposure lists`, shown.map((table) => table.collection), expected.map((collection) => collection.collection));
  for (const collection of expected) {
    const table = shown.find((candidate) => candidate.collection === collection.collection);
    const detail = `expected ${JSON.stringify(collection)}\nactual   ${JSON.stringify(table)}`;
    check(`${site}: ${collection.collection}: the documents, bundles and fields inspect --exposure lists`, isDeepStrictEqual(table, collection), detail);
  }
}

async function checkExposure(browser, page, server, fixture, consoleErrors) {
  await checkExposureOf(browser, page, { site: 'example site', url: `${server.url}index.html`, directory: fixture.directory }, consoleErrors);
  if (options['exposure-screenshot']) await screenshot(browser, page, options['exposure-screenshot'], { width: 1280, height: 900, selector: '#exposure' });
  // The rebuilt site: its leavers are published, its deleted documents' markers are not.
  const rebuilt = { site: 'rebuilt site', url: `${server.url}index.html?manifest=returning/bundles/manifest.json`, directory: path.join(fixture.directory, 'returning') };
  await checkExposureOf(browser, page, rebuilt, consoleErrors);
  await openExposure(browser, page, { site: 'broken site', url: `${server.url}index.html?manifest=broken/bundles/manifest.json` }, 'error', consoleErrors);
  const text = await browser.evaluate(page, `document.getElementById('exposure-error').textContent`);
  check('a bundle "What this site publishes" cannot read is reported there', /^Could not read the bundle \S*broken\/bundles\//.test(text), text);
}

function checkHeaders(responses, server, manifest) {
  const manifestResponse = responses.get(`${server.url}bundles/manifest.json`);
  checkEqual('manifest.json: Cache-Control', directives(manifestResponse?.headers['cache-control']), directives(MANIFEST_CACHE_CONTROL));
  for (const entry of manifest.bundles) {
    const response = responses.get(`${server.url}${entry.url}`);
    checkEqual(`${entry.url}: Content-Encoding`, response?.headers['content-encoding'], 'gzip');
    checkEqual(`${entry.url}: Cache-Control`, directives(response?.headers['cache-control']), directives(BUNDLE_CACHE_CONTROL));
  }
  const script = responses.get(`${server.url}explorer.js`);
  check('explorer.js is served as JavaScript (module scripts need it)', /javascript/.test(script?.headers['content-type'] ?? ''), `Content-Type: ${script?.headers['content-type']}`);
}

async function checkErrors(browser, page, server, fixture, consoleErrors) {
  const errorText = `document.getElementById('error').textContent`;
  await browser.send('Page.navigate', { url: `${server.url}index.html?manifest=missing/bundles/manifest.json` }, page);
  await waitFor(browser, page, `document.body.dataset.state === 'error'`, consoleErrors);
  const missingManifest = await browser.evaluate(page, errorText);
  check('a missing manifest is reported on the page', /missing\/bundles\/manifest\.json: HTTP 404/.test(missingManifest), missingManifest);

  const cases = [
    [fixture.truncated, /is the file truncated\?/, 'a truncated bundle'],
    [fixture.missing, /HTTP 404/, 'a missing bundle'],
    [fixture.replaced, /SHA-256 is [0-9a-f]{64}, but the manifest lists/, 'a bundle that is not the published one'],
  ];
  for (const [entry, message, description] of cases) {
    await browser.send('Page.navigate', { url: `${server.url}index.html?manifest=broken/bundles/manifest.json#${entry.id}` }, page);
    await waitFor(browser, page, bundleShown(entry.id, 'error'), consoleErrors);
    const text = await browser.evaluate(page, errorText);
    check(`${description} is reported on the page`, text.includes(`broken/${entry.url}`) && message.test(text), text);
  }
}

async function main() {
  const manifest = exampleManifest();
  const returning = returningSite();
  const fixture = makeFixtureSite(manifest, returning);
  const cleanup = [() => rmSync(fixture.directory, { recursive: true, force: true })];
  const watchdog = setTimeout(() => {
    console.log(`not ok - the run took longer than ${OVERALL_TIMEOUT_MS / 1000} s`);
    for (const step of cleanup.reverse()) (step.kill ?? step)();
    process.exit(1);
  }, OVERALL_TIMEOUT_MS);
  try {
    const server = await startServer(fixture.directory);
    cleanup.push(Object.assign(() => server.stop(), { kill: server.kill }));
    console.log(`# serving ${fixture.directory} at ${server.url}`);
    const browser = Browser.launch();
    cleanup.push(Object.assign(() => browser.close(), { kill: () => browser.kill() }));
    const page = await browser.newPage();
    const responses = new Map();
    const consoleErrors = [];
    browser.onEvent(({ method, params }) => {
      if (method === 'Network.responseReceived' && !responses.has(params.response.url)) {
        const headers = Object.fromEntries(Object.entries(params.response.headers).map(([name, value]) => [name.toLowerCase(), value]));
        responses.set(params.response.url, { status: params.response.status, headers });
      } else if (method === 'Runtime.exceptionThrown') {
        consoleErrors.push(params.exceptionDetails.exception?.description ?? params.exceptionDetails.text);
      } else if (method === 'Log.entryAdded' && params.entry.level === 'error') {
        consoleErrors.push(`${params.entry.text} ${params.entry.url ?? ''}`.trim());
      }
    });
    await checkExplorer(browser, page, server, manifest, returning, consoleErrors);
    await checkOlderManifest(browser, page, server, manifest, returning, consoleErrors);
    checkHeaders(responses, server, manifest);
    await checkReturning(browser, page, server, returning, consoleErrors);
    await checkExposure(browser, page, server, fixture, consoleErrors);
    await checkErrors(browser, page, server, fixture, consoleErrors);
    await checkWatch(browser, page, consoleErrors, cleanup);
  } catch (error) {
    check('the run completes', false, error.stack ?? String(error));
  } finally {
    for (const step of cleanup.reverse()) await step();
    clearTimeout(watchdog);
  }
  const failed = results.filter((result) => !result.passed).length;
  console.log(`1..${results.length}\n# ${results.length - failed} passed, ${failed} failed`);
  process.exitCode = failed === 0 && results.length > 0 ? 0 : 1;
}

await main();
