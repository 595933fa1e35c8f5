#!/usr/bin/env node
// Local check of a built site's server-rendering snapshots (bundles/snapshots/) in the real
// Firebase JS SDK, offline:
// - every named query of the manifest: `querySnapshotFromJSON(db, json)` must accept its
//   `snapshot`, and hold the documents (paths and data) that `namedQuery` + `getDocsFromCache`
//   return after `loadBundle` of the query's bundle; and `onSnapshotResume(db, json, …)` (what a
//   live page calls) must deliver the same documents;
// - every document of the manifest's `documents` map: `documentSnapshotFromJSON(db, json)` must
//   give the document, with the data `getDocFromCache` returns after `loadBundle` of its bundle.
// firebase 12.14.0 returns a query snapshot's documents in key order, not query order (an
// upstream bug, fixed later), so documents are compared as sets and a different order is only
// counted (`orderDiffers`).
//
//   FIRESTORE_JS_VENDOR=/path/to/node_modules node scripts/check_snapshots.mjs SITE_DIR
//
// Needs ../shared/tools/js-client and the SDK it loads (its README says how to bring it); the
// SDK is never committed, and CI does not run this. Prints one JSON object and exits 0 when
// every snapshot matches.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const client = path.resolve(here, '../../shared/tools/js-client/lib/sdk.mjs');
const { loadSdk, openFirestore, closeFirestore, readBundleFile, runLoadBundle } = await import(client);

const site = process.argv[2];
if (!site) {
  console.error('usage: node scripts/check_snapshots.mjs SITE_DIR');
  process.exit(2);
}
const manifest = JSON.parse(fs.readFileSync(path.join(site, 'bundles', 'manifest.json'), 'utf8'));
const project = manifest.project;
const database = manifest.database;
const sdk = await loadSdk();
const F = sdk.fs;

/** Data as comparable JSON: timestamps, references and bytes spelled out. */
function plain(value) {
  return JSON.parse(JSON.stringify(value ?? null, (key, x) => {
    if (x && typeof x.toDate === 'function' && typeof x.seconds === 'number') return { $timestamp: [x.seconds, x.nanoseconds] };
    if (x && x.firestore && typeof x.path === 'string') return { $ref: x.path };
    if (x && typeof x.toBase64 === 'function') return { $bytes: x.toBase64() };
    return x;
  }));
}
const docs = (snapshot) => snapshot.docs.map((doc) => ({ path: doc.ref.path, data: plain(doc.data()) }));
const asSet = (list) => JSON.stringify([...list].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)));
const readJSON = (relative) => JSON.parse(fs.readFileSync(path.join(site, relative), 'utf8'));

/** Runs `body` with a fresh Firestore instance (memory cache, offline). */
async function withFirestore(body) {
  const handle = await openFirestore(sdk, { project, database });
  try {
    return await body(handle.db);
  } finally {
    await closeFirestore(sdk, handle);
  }
}

/** A fresh instance after `loadBundle` of the site's bundle at `url`. */
async function withBundle(url, body) {
  return withFirestore(async (db) => {
    const load = await runLoadBundle(sdk, db, readBundleFile(path.join(site, url)).bytes);
    if (!load.ok) throw new Error(`loadBundle ${url} failed`);
    return body(db);
  });
}

/** The documents `onSnapshotResume` delivers first for the snapshot `json`. */
async function resumed(db, json) {
  await F.disableNetwork(db);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('onSnapshotResume delivered nothing in 10 s')), 10000);
    const stop = F.onSnapshotResume(db, json, (snapshot) => {
      clearTimeout(timer);
      stop();
      resolve(docs(snapshot));
    }, (error) => { clearTimeout(timer); reject(error); });
  });
}

const out = { queries: 0, queryDocuments: 0, resumed: 0, orderDiffers: 0, documents: 0, missing: [], failed: [] };
for (const [name, entry] of Object.entries(manifest.named_queries ?? {}).sort()) {
  if (!entry.snapshot) { out.missing.push(name); continue; }
  try {
    const json = readJSON(entry.snapshot);
    const fromJSON = await withFirestore(async (db) => docs(F.querySnapshotFromJSON(db, json)));
    const fromBundle = await withBundle(entry.url, async (db) => docs(await F.getDocsFromCache(await F.namedQuery(db, name))));
    const fromResume = await withFirestore((db) => resumed(db, json));
    out.queries++;
    out.queryDocuments += fromJSON.length;
    if (fromJSON.map((d) => d.path).join() !== fromBundle.map((d) => d.path).join()) out.orderDiffers++;
    if (asSet(fromJSON) !== asSet(fromBundle)) {
      out.failed.push({ name, why: `querySnapshotFromJSON: ${fromJSON.length} documents, the bundle's query ${fromBundle.length}, or their data differ` });
    } else if (JSON.stringify(fromResume) !== JSON.stringify(fromBundle)) {
      out.failed.push({ name, why: `onSnapshotResume delivered ${fromResume.length} documents, not the bundle query's ${fromBundle.length} in its order` });
    } else {
      out.resumed++;
    }
  } catch (error) {
    out.failed.push({ name, why: String(error.message ?? error) });
  }
}
for (const [documentPath, entry] of Object.entries(manifest.documents ?? {}).sort()) {
  try {
    const json = readJSON(entry.snapshot);
    const fromJSON = await withFirestore(async (db) => {
      const snapshot = F.documentSnapshotFromJSON(db, json);
      return { path: snapshot.ref.path, exists: snapshot.exists(), data: plain(snapshot.data()) };
    });
    const fromBundle = await withBundle(entry.url, async (db) => {
      const snapshot = await F.getDocFromCache(F.doc(db, documentPath));
      return { path: snapshot.ref.path, exists: snapshot.exists(), data: plain(snapshot.data()) };
    });
    if (JSON.stringify(fromJSON) !== JSON.stringify(fromBundle)) {
      out.failed.push({ document: documentPath, why: 'documentSnapshotFromJSON differs from the bundle\'s document' });
    } else {
      out.documents++;
    }
  } catch (error) {
    out.failed.push({ document: documentPath, why: String(error.message ?? error) });
  }
}
console.log(JSON.stringify(out, null, 2));
process.exit(out.failed.length === 0 && out.missing.length === 0 && out.queries > 0 ? 0 : 1);
