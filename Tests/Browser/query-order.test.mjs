// site/query-order.js must put documents in the order BundlePress's query engine (which
// matches the Firebase clients) returns them: for every named query of the example, and for
// values of every type compared across types, with the engine itself as the oracle.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { documentsOfQuery, parseBundle } from '../../site/bundle-reader.js';
import { documentPathSegments } from '../../site/firestore-values.js';
import { compareSegments, compareUtf8, compareValues, normalizedOrderBy, sortQueryResults } from '../../site/query-order.js';
import { bundlepress, exampleManifest, expectedQueryPaths, siteDirectory } from './support.mjs';

const pathOf = (document) => documentPathSegments(document.name).join('/');

for (const entry of exampleManifest().bundles) {
  const bundle = parseBundle(readFileSync(path.join(siteDirectory, entry.url)));
  for (const { name, bundledQuery } of bundle.namedQueries) {
    test(`${entry.id}/${name}: documents in the order bundlepress query prints`, () => {
      const sorted = sortQueryResults(bundledQuery, documentsOfQuery(bundle, name)).map(pathOf);
      assert.deepEqual(sorted, expectedQueryPaths(name));
    });
  }
}

// Field v holds values of every type, several per type, chosen where orders are subtle:
// int/double mixes, NaN, -0, integers beyond 2^53, UTF-8 vs UTF-16 string order, numeric
// document ids, nanosecond timestamps, references, maps compared key by key, vectors.
const P = 'projects/demo/databases/(default)/documents';
const VALUES = [
  { nullValue: null },
  { booleanValue: false },
  { booleanValue: true },
  { doubleValue: 'NaN' },
  { doubleValue: '-Infinity' },
  { integerValue: '-5' },
  { doubleValue: -0.0 },
  { integerValue: '0' },
  { doubleValue: 0.5 },
  { integerValue: '1' },
  { doubleValue: 1.0 },
  { integerValue: '9007199254740992' },
  { integerValue: '9007199254740993' },
  { doubleValue: 'Infinity' },
  { timestampValue: '1969-12-31T23:59:59.999999999Z' },
  { timestampValue: '2026-01-01T00:00:00.000000001Z' },
  { timestampValue: '2026-01-01T00:00:00.000000010Z' },
  { stringValue: '' },
  { stringValue: 'B' },
  { stringValue: 'a' },
  { stringValue: 'é' },
  { stringValue: '\uff5a' },
  { stringValue: '😀' },
  { bytesValue: '' },
  { bytesValue: 'AA==' },
  { bytesValue: '/w==' },
  { referenceValue: `${P}/a/__id2__` },
  { referenceValue: `${P}/a/b` },
  { referenceValue: `${P}/a/b/c/d` },
  { geoPointValue: { latitude: -10, longitude: 5 } },
  { geoPointValue: { latitude: 10, longitude: -5 } },
  { geoPointValue: { latitude: 10, longitude: 5 } },
  { arrayValue: {} },
  { arrayValue: { values: [{ integerValue: '1' }] } },
  { arrayValue: { values: [{ integerValue: '1' }, { stringValue: 'a' }] } },
  { arrayValue: { values: [{ stringValue: 'a' }] } },
  { mapValue: { fields: { __type__: { stringValue: '__vector__' }, value: { arrayValue: { values: [{ doubleValue: 9.0 }] } } } } },
  { mapValue: { fields: { __type__: { stringValue: '__vector__' }, value: { arrayValue: { values: [{ doubleValue: 1.0 }, { doubleValue: 2.0 }] } } } } },
  { mapValue: {} },
  { mapValue: { fields: { a: { integerValue: '1' } } } },
  { mapValue: { fields: { a: { integerValue: '1' }, b: { integerValue: '0' } } } },
  { mapValue: { fields: { a: { integerValue: '2' } } } },
  { mapValue: { fields: { b: { integerValue: '0' } } } },
];

/** Ids that test the key order: numeric `__id<n>__` ones (negatives too) and UTF-8 vs UTF-16. */
function documentId(index) {
  switch (index % 4) {
    case 0:
      return `__id${((index * 37) % 101) - 50}__`;
    case 1:
      return `d${index}`;
    case 2:
      return `\uff5a${index}`;
    default:
      return `😀${index}`;
  }
}

/** Documents with `v` (every value above, twice, so ties fall to the document id) and `w`. */
function valueDocuments() {
  return [...VALUES, ...VALUES].map((v, index) => ({
    name: `${P}/values/${documentId(index)}`,
    fields: { v, w: { integerValue: String((index * 7) % 5) } },
    createTime: '2026-01-01T00:00:00.000000000Z',
    updateTime: '2026-01-01T00:00:00.000000000Z',
  }));
}

/** Each query, with the documents it selects as written here (not as the engine selects them). */
const QUERIES = {
  'v ascending': { query: { orderBy: [{ field: { fieldPath: 'v' }, direction: 'ASCENDING' }] }, selects: () => true },
  'v descending': { query: { orderBy: [{ field: { fieldPath: 'v' }, direction: 'DESCENDING' }] }, selects: () => true },
  'implicit order by an inequality field': {
    query: { where: { fieldFilter: { field: { fieldPath: 'w' }, op: 'GREATER_THAN_OR_EQUAL', value: { integerValue: '1' } } } },
    selects: (document) => Number(document.fields.w.integerValue) >= 1,
  },
  'explicit then implicit, taking the last direction': {
    query: {
      where: { fieldFilter: { field: { fieldPath: 'v' }, op: 'NOT_EQUAL', value: { nullValue: null } } },
      orderBy: [{ field: { fieldPath: 'w' }, direction: 'DESCENDING' }],
    },
    selects: (document) => !('nullValue' in document.fields.v),
  },
  '__name__ descending': { query: { orderBy: [{ field: { fieldPath: '__name__' }, direction: 'DESCENDING' }] }, selects: () => true },
};

test('orders values of every type exactly as the query engine does', (t) => {
  const directory = mkdtempSync(path.join(tmpdir(), 'bundlepress-order-'));
  t.after(() => rmSync(directory, { recursive: true, force: true }));
  const documents = valueDocuments();
  const exportFile = path.join(directory, 'values.ndjson');
  writeFileSync(exportFile, documents.map((document) => JSON.stringify(document)).join('\n') + '\n');
  for (const [label, { query, selects }] of Object.entries(QUERIES)) {
    const structuredQuery = { from: [{ collectionId: 'values' }], ...query };
    const queryFile = path.join(directory, 'query.json');
    writeFileSync(queryFile, JSON.stringify({ parent: P, structuredQuery }));
    const expected = bundlepress(['query', '--structured-query', queryFile, '--input', exportFile, '--format', 'paths']).split('\n').filter(Boolean);
    const selected = documents.filter(selects);
    assert.ok(selected.length > 0, label);
    assert.deepEqual(sortQueryResults({ parent: P, structuredQuery }, selected).map(pathOf), expected, label);
  }
});

test('compares strings by code point, not UTF-16 unit', () => {
  assert.ok(compareUtf8('\uff5a', '😀') < 0);
  assert.ok('\uff5a' > '😀', 'JavaScript itself orders these the other way');
  assert.ok(compareUtf8('B', 'a') < 0);
  assert.ok(compareUtf8('a', 'ab') < 0);
  assert.equal(compareUtf8('é', 'é'), 0);
});

test('orders __id<n>__ segments numerically, before other ids', () => {
  assert.ok(compareSegments('__id9__', '__id10__') < 0);
  assert.ok(compareSegments('__id-10__', '__id-9__') < 0);
  assert.ok(compareSegments('__id-0__', '__id0__') === 0);
  assert.ok(compareSegments('__id99__', 'a') < 0);
  assert.ok(compareSegments('__idx__', 'a') < 0, '__idx__ is not numeric: plain string order');
});

test('numbers: 1 equals 1.0, -0 equals 0, NaN sorts first and equals NaN', () => {
  assert.equal(compareValues({ integerValue: '1' }, { doubleValue: 1.0 }), 0);
  assert.equal(compareValues({ doubleValue: -0.0 }, { integerValue: 0 }), 0);
  assert.equal(compareValues({ doubleValue: 'NaN' }, { doubleValue: 'NaN' }), 0);
  assert.equal(compareValues({ doubleValue: 'NaN' }, { doubleValue: '-Infinity' }), -1);
  assert.equal(compareValues({ timestampValue: '2026-01-01T00:00:00Z' }, { timestampValue: { seconds: '1767225600', nanos: 0 } }), 0);
});

test('normalizes orderBy as the clients do', () => {
  const where = {
    compositeFilter: {
      op: 'AND',
      filters: [
        { fieldFilter: { field: { fieldPath: 'b' }, op: 'LESS_THAN', value: { integerValue: '1' } } },
        { unaryFilter: { field: { fieldPath: 'a.`x.y`' }, op: 'IS_NOT_NAN' } },
        { fieldFilter: { field: { fieldPath: 'c' }, op: 'EQUAL', value: { integerValue: '1' } } },
        { fieldFilter: { field: { fieldPath: 'z' }, op: 'NOT_IN', value: { arrayValue: {} } } },
      ],
    },
  };
  const orderBy = [{ field: { fieldPath: 'z' }, direction: 'DESCENDING' }];
  const normalized = normalizedOrderBy({ where, orderBy }).map(({ fieldPath, segments, descending }) => [fieldPath, segments, descending]);
  assert.deepEqual(normalized, [
    ['z', ['z'], true],
    ['a.`x.y`', ['a', 'x.y'], true],
    ['b', ['b'], true],
    ['__name__', ['__name__'], true],
  ]);
  assert.deepEqual(normalizedOrderBy({}).map((order) => [order.fieldPath, order.descending]), [['__name__', false]]);
});
