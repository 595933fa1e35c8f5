#!/usr/bin/env node
// Local check of the returning-clients model (Tests/PublishingTests/ClientCacheModel.swift)
// against the real Firebase JS SDK: the Swift tests, run with BUNDLEPRESS_MODEL_DUMP=DIR, keep
// every bundle sequence they modelled and the model's answer for each named query; this loads
// each sequence into one SDK instance (memory cache, offline), as a returning user's app does,
// and compares what `getDocsFromCache(namedQuery(name))` returns with the model's answer.
//
//   BUNDLEPRESS_MODEL_DUMP=/tmp/model swift test --filter ReturningClientTests
//   FIRESTORE_JS_VENDOR=/path/to/node_modules node scripts/check_returning_clients.mjs /tmp/model [--every N]
//
// Needs ../shared/tools/js-client and the SDK it loads (its README says how to bring it); the
// SDK is never committed. Prints one line per disagreement and `N passed, M failed`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const client = path.resolve(here, '../../shared/tools/js-client/lib/sdk.mjs');
const { loadSdk, openFirestore, closeFirestore, readBundleFile, describeBundle, runLoadBundle } = await import(client);

const folder = process.argv[2];
// --every N: only every Nth sequence of each file (a file of the sets of bundles holds hundreds).
const everyAt = process.argv.indexOf('--every');
const every = everyAt > 0 ? Number(process.argv[everyAt + 1]) : 1;
if (!folder) {
  console.error('usage: node scripts/check_returning_clients.mjs DUMP_DIR');
  process.exit(2);
}
const sdk = await loadSdk();
let passed = 0;
let failed = 0;
for (const file of fs.readdirSync(folder).filter((name) => name.endsWith('.json')).sort()) {
  const { project, sequences } = JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8'));
  console.error(`${file}: ${Math.ceil(sequences.length / every)} sequences`);
  for (const [index, { bundles, results }] of sequences.entries()) {
    if (index % every !== 0) continue;
    const handle = await openFirestore(sdk, { project });
    const names = new Set();
    for (const bundle of bundles) {
      const { bytes } = readBundleFile(bundle);
      describeBundle(bytes).namedQueries.forEach((name) => names.add(name));
      await runLoadBundle(sdk, handle.db, bytes);
    }
    // Only the named queries the model answered for (a cross-bundle sequence: the last bundle's).
    for (const name of Object.keys(results).length ? Object.keys(results).sort() : names) {
      const query = await sdk.fs.namedQuery(handle.db, name);
      const got = query ? (await sdk.fs.getDocsFromCache(query)).docs.map((doc) => doc.ref.path) : null;
      const expected = results[name] ?? null;
      if (JSON.stringify(got) === JSON.stringify(expected)) {
        passed += 1;
      } else {
        failed += 1;
        console.log(`${file}: ${bundles.map((b) => path.basename(path.dirname(b)) + '/' + path.basename(b)).join(' → ')}: ${name}: SDK ${JSON.stringify(got)} model ${JSON.stringify(expected)}`);
      }
    }
    await closeFirestore(sdk, handle);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
