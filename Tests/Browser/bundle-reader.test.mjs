// site/bundle-reader.js against the bundles BundlePress wrote: the parse must equal what the
// Swift strict reader reports (`bundlepress inspect --json`), raw and after gunzip; and broken
// bundles must fail with the element and byte offset.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { BundleFormatError, documentsOfQuery, parseBundle } from '../../site/bundle-reader.js';
import { bundlepress, exampleManifest, siteDirectory } from './support.mjs';

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
  assertFormatError(frame(metadata, { unknown: {} }), { element: 2, offset: metadataLength, message: /one key of metadata, namedQuery/ });
  assertFormatError(encoder.encode(`${new TextDecoder().decode(frame(metadata))}\n`), { element: 2, offset: metadataLength, message: /expected a decimal length followed by "\{", found byte 0x0a/ });
  assertFormatError(encoder.encode('5{"a":1}'), { element: 1, offset: 0, message: /are not one JSON object/ });
  assertFormatError(new Uint8Array(), { element: 1, offset: 0, message: /the bundle is empty/ });
});
