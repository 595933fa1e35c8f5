// site/bundle-reader.js against the bundles BundlePress wrote: the parse must equal what the
// Swift strict reader reports (`bundlepress inspect --json`), raw and after gunzip; a rebuilt
// site's leavers and missing-document markers must be read as such, never as query results;
// and broken bundles must fail with the element and byte offset.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { BundleFormatError, documentsByRole, documentsOfQuery, parseBundle } from '../../site/bundle-reader.js';
import { documentPathSegments } from '../../site/firestore-values.js';
import { bundlepress, exampleManifest, returningSite, siteDirectory } from './support.mjs';

const encoder = new TextEncoder();

/** Frames JSON elements as a bundle: `<byte length><json>` each. */
function frame(...elements) {
  return encoder.encode(elements.map((element) => {
    const json = JSON.stringify(element);
    return `${encoder.encode(json).length}${json}`;
  }).join(''));
}

const metadata = { metadata: { id: 'b', createTime: '2026-01-01T00:00:00.000000000Z', version: 1, totalDocuments: 1, totalBytes: 0 } };
const name = 'projects/p/databases/(default)/documents/c/d';
const documentMetadata = { documentMetadata: { name, readTime: '2026-01-01T00:00:00.000000000Z', exists: true, queries: ['q'] } };
const document = { document: { name, fields: { s: { stringValue: 'é😀' } }, createTime: '2026-01-01T00:00:00.000000000Z', updateTime: '2026-01-01T00:00:00.000000000Z' } };
const namedQuery = {
  namedQuery: {
    name: 'q',
    bundledQuery: { parent: 'projects/p/databases/(default)/documents', structuredQuery: { from: [{ collectionId: 'c' }] } },
    readTime: '2026-01-01T00:00:00.000000000Z',
  },
};
const leaverName = 'projects/p/databases/(default)/documents/c/left';
const leaverMetadata = { documentMetadata: { name: leaverName, readTime: '2026-01-01T00:00:00.000000000Z', exists: true, queries: [] } };
const leaver = { document: { ...document.document, name: leaverName } };
const missingName = 'projects/p/databases/(default)/documents/c/gone';
/** A missing-document marker: its read time (the deletion's version) is earlier than the bundle's createTime. */
const missing = { documentMetadata: { name: missingName, readTime: '2025-12-31T00:00:00.000000000Z', exists: false, queries: [] } };

/** A bundle of `elements` after a metadata element whose totals match them, but for `overrides`. */
function bundleOf(elements, overrides = {}) {
  const names = new Set(elements.filter((element) => element.documentMetadata).map((element) => element.documentMetadata.name));
  return frame({ metadata: { ...metadata.metadata, totalDocuments: names.size, totalBytes: frame(...elements).length, ...overrides } }, ...elements);
}

for (const entry of exampleManifest().bundles) {
  test(`parses ${entry.id} exactly as bundlepress inspect reads it (raw and gzip)`, () => {
    const file = path.join(siteDirectory, entry.url);
    const expected = JSON.parse(bundlepress(['inspect', '--json', file]));
    delete expected.gzip;
    const raw = readFileSync(file);
    for (const bytes of [raw, gunzipSync(readFileSync(path.join(siteDirectory, entry.gzip_url)))]) {
      const { warnings, ...parsed } = parseBundle(bytes);
      assert.deepEqual(parsed, expected);
      assert.deepEqual(warnings, []);
    }
    const parsed = parseBundle(raw);
    assert.deepEqual(parsed.namedQueries.map((query) => query.name).sort(), entry.named_queries);
    assert.equal(parsed.documents.length, entry.documents);
  });
}

test('counts the length prefix in UTF-8 bytes and returns documents of a query', () => {
  const bundle = parseBundle(frame({ metadata: { ...metadata.metadata, totalBytes: frame(documentMetadata, document).length } }, documentMetadata, document));
  assert.deepEqual(bundle.warnings, []);
  assert.equal(bundle.documents[0].document.fields.s.stringValue, 'é😀');
  assert.deepEqual(documentsOfQuery(bundle, 'q'), [document.document]);
  assert.deepEqual(documentsOfQuery(bundle, 'other'), []);
});

test('accepts missing documents, as the Firebase SDKs do, and never counts them or leavers as query results', () => {
  const bundle = parseBundle(bundleOf([namedQuery, documentMetadata, document, missing, leaverMetadata, leaver]));
  assert.deepEqual(bundle.warnings, []);
  assert.equal(bundle.metadata.totalDocuments, 3);
  assert.deepEqual(bundle.documents[1], { metadata: missing.documentMetadata, document: null });
  assert.deepEqual(documentsOfQuery(bundle, 'q'), [document.document]);
  assert.deepEqual(documentsByRole(bundle), { results: [document.document], unqueried: [leaver.document], missing: [missing.documentMetadata] });
  // Android and iOS require totalDocuments to count missing documents too.
  const uncounted = parseBundle(bundleOf([documentMetadata, document, missing], { totalDocuments: 1 }));
  assert.deepEqual(uncounted.warnings, ['metadata.totalDocuments is 1, but the bundle holds 2 documents']);
});

test('a document listing only names that are not named queries of the bundle is outside the queries', () => {
  const stray = { documentMetadata: { ...documentMetadata.documentMetadata, queries: ['not-here'] } };
  assert.deepEqual(documentsByRole(parseBundle(bundleOf([namedQuery, stray, document]))), { results: [], unqueried: [document.document], missing: [] });
});

test('warns about missing documents the SDKs load but no correct bundle has', () => {
  const listed = { documentMetadata: { ...missing.documentMetadata, queries: ['q'] } };
  const late = { documentMetadata: { ...missing.documentMetadata, readTime: '2026-01-01T00:00:00.000000001Z' } };
  const bundle = parseBundle(bundleOf([namedQuery, listed]));
  assert.deepEqual(bundle.warnings, [`the missing document ${missingName} is listed as a result of q: a deleted document is no query's result`]);
  assert.deepEqual(documentsOfQuery(bundle, 'q'), []);
  assert.deepEqual(parseBundle(bundleOf([late])).warnings, [
    `the missing document ${missingName} has readTime 2026-01-01T00:00:00.000000001Z, after the bundle's createTime 2026-01-01T00:00:00.000000000Z`,
  ]);
});

test('reports totals that do not match the content as warnings', () => {
  const bundle = parseBundle(frame({ metadata: { ...metadata.metadata, totalDocuments: 2, totalBytes: 5 } }, documentMetadata, document));
  assert.equal(bundle.warnings.length, 2);
  assert.match(bundle.warnings[0], /totalBytes is 5, but the elements after the metadata take \d+ bytes/);
  assert.match(bundle.warnings[1], /totalDocuments is 2, but the bundle holds 1 documents/);
});

function assertFormatError(bytes, { element, offset, message }) {
  assert.throws(() => parseBundle(bytes), (error) => {
    assert.ok(error instanceof BundleFormatError, `expected a BundleFormatError, got ${error}`);
    assert.equal(error.element, element);
    assert.equal(error.offset, offset);
    assert.match(error.message, message);
    return true;
  });
}

test('rejects broken bundles, naming the element and byte offset', () => {
  const good = frame(metadata, documentMetadata, document);
  const metadataLength = frame(metadata).length;
  assertFormatError(good.subarray(0, good.length - 10), { element: 3, offset: frame(metadata, documentMetadata).length, message: /only \d+ remain \(is the file truncated\?\)/ });
  assertFormatError(gzipSync(good), { element: 1, offset: 0, message: /gzip-compressed.*Content-Encoding: gzip/ });
  assertFormatError(frame(documentMetadata), { element: 1, offset: 0, message: /must start with a metadata element, not documentMetadata/ });
  assertFormatError(frame(metadata, metadata), { element: 2, offset: metadataLength, message: /a second metadata element/ });
  assertFormatError(frame(metadata, documentMetadata), { element: 3, offset: frame(metadata, documentMetadata).length, message: /ends before the document .*c\/d/ });
  assertFormatError(frame(metadata, document), { element: 2, offset: metadataLength, message: /must directly follow a documentMetadata/ });
  assertFormatError(frame(metadata, documentMetadata, documentMetadata), { element: 3, offset: frame(metadata, documentMetadata).length, message: /expected the document .* found documentMetadata/ });
  // A document after a missing document's metadata: Android and iOS fail ("does not match the stored metadata").
  assertFormatError(frame(metadata, missing, leaver), { element: 3, offset: frame(metadata, missing).length, message: /must directly follow a documentMetadata with "exists": true/ });
  const { exists, ...withoutExists } = documentMetadata.documentMetadata;
  assert.equal(exists, true);
  assertFormatError(frame(metadata, { documentMetadata: withoutExists }, document), { element: 3, offset: frame(metadata, { documentMetadata: withoutExists }).length, message: /must directly follow/ });
  const { readTime, ...withoutReadTime } = missing.documentMetadata;
  assert.ok(readTime);
  assertFormatError(frame(metadata, { documentMetadata: withoutReadTime }), { element: 2, offset: metadataLength, message: /documentMetadata of .*c\/gone has no readTime/ });
  assertFormatError(frame(metadata, { unknown: {} }), { element: 2, offset: metadataLength, message: /one key of metadata, namedQuery/ });
  assertFormatError(encoder.encode(`${new TextDecoder().decode(frame(metadata))}\n`), { element: 2, offset: metadataLength, message: /expected a decimal length followed by "\{", found byte 0x0a/ });
  assertFormatError(encoder.encode('5{"a":1}'), { element: 1, offset: 0, message: /are not one JSON object/ });
  assertFormatError(new Uint8Array(), { element: 1, offset: 0, message: /the bundle is empty/ });
});

test('reads a rebuilt site: leavers and missing-document markers where the earlier build shipped what changed', () => {
  const site = returningSite();
  for (const entry of site.manifest.bundles) {
    const file = path.join(site.siteDirectory, entry.url);
    const raw = readFileSync(file);
    const bundle = parseBundle(raw);
    assert.deepEqual(parseBundle(gunzipSync(readFileSync(path.join(site.siteDirectory, entry.gzip_url)))), bundle);
    assert.deepEqual(bundle.warnings, [], entry.id);
    const before = site.shippedBefore.get(entry.id) ?? { paths: new Set(), unqueried: new Set() };
    const { results, unqueried, missing } = documentsByRole(bundle);
    const paths = (documents) => documents.map((document) => documentPathSegments(document.name).join('/'));
    const expectedMissing = before.paths.has(site.deleted) ? [site.deleted] : [];
    const expectedLeavers = before.paths.has(site.unpublished) ? [site.unpublished] : [];
    assert.deepEqual(paths(missing), expectedMissing, entry.id);
    assert.deepEqual(
      paths(unqueried).filter((documentPath) => !before.unqueried.has(documentPath)),
      expectedLeavers,
      `${entry.id}: the leavers are the changed documents it shipped before`,
    );
    for (const marker of missing) assert.deepEqual({ exists: marker.exists, queries: marker.queries }, { exists: false, queries: [] });
    assert.ok(!paths(results).includes(site.unpublished) && !paths(results).includes(site.deleted), entry.id);
    assert.equal(bundle.documents.length, entry.documents, `${entry.id}: the manifest's documents count every entry`);
    assert.equal(entry.documents - entry.results, expectedMissing.length + expectedLeavers.length, `${entry.id}: the manifest's results leave them out`);
    assert.equal(bundle.metadata.createTime, entry.create_time);
    // The strict reader reads it alike; its JSON leaves out a missing document's `document`.
    const { gzip, ...expected } = JSON.parse(bundlepress(['inspect', '--json', file]));
    assert.equal(gzip, false);
    assert.deepEqual(bundle, { ...expected, documents: expected.documents.map((read) => ({ document: null, ...read })), warnings: [] });
  }
  const changed = site.manifest.bundles.filter((entry) => entry.documents > entry.results).map((entry) => entry.id);
  assert.ok(changed.includes('front-page') && changed.length > 1, `bundles with leavers or markers: ${changed}`);
});
