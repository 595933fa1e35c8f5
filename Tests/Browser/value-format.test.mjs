// site/value-format.js: every value type is shown as what it is, and named queries read like
// pipeline.yml.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parseBundle } from '../../site/bundle-reader.js';
import { describeQuery, describeValue, formatByteSize, formatTimestamp } from '../../site/value-format.js';
import { exampleManifest, siteDirectory } from './support.mjs';

const P = 'projects/demo/databases/(default)/documents';

test('shows each value type as such', () => {
  const cases = [
    [{ nullValue: null }, 'null', 'null'],
    [{ booleanValue: false }, 'boolean', 'false'],
    [{ integerValue: '9007199254740993' }, 'integer', '9007199254740993'],
    [{ integerValue: 42 }, 'integer', '42'],
    [{ doubleValue: 1.0 }, 'double', '1.0'],
    [{ doubleValue: -0.0 }, 'double', '-0.0'],
    [{ doubleValue: 0.25 }, 'double', '0.25'],
    [{ doubleValue: 'NaN' }, 'double', 'NaN'],
    [{ doubleValue: '-Infinity' }, 'double', '-Infinity'],
    [{ timestampValue: '2026-10-31T23:23:09.353000000Z' }, 'timestamp', '2026-10-31T23:23:09.353Z'],
    [{ timestampValue: '2026-10-31T23:23:09.000000001Z' }, 'timestamp', '2026-10-31T23:23:09.000000001Z'],
    [{ timestampValue: { seconds: '0', nanos: 0 } }, 'timestamp', '1970-01-01T00:00:00Z'],
    [{ stringValue: 'Zürich 😀' }, 'string', 'Zürich 😀'],
    [{ bytesValue: 'AAH+/w==' }, 'bytes', '4 bytes 0x0001feff'],
    [{ bytesValue: 'AAECAwQFBgcICQ==' }, 'bytes', '10 bytes 0x0001020304050607…'],
    [{ bytesValue: '' }, 'bytes', '0 bytes'],
    [{ referenceValue: `${P}/authors/zoe` }, 'reference', 'authors/zoe'],
    [{ geoPointValue: { latitude: 48.8566, longitude: -2.35 } }, 'geopoint', '48.8566° N, 2.35° W'],
    [{ geoPointValue: { latitude: -33.9 } }, 'geopoint', '33.9° S, 0° E'],
    [{ arrayValue: {} }, 'array', '[]'],
    [{ arrayValue: { values: [{ stringValue: 'a' }, { integerValue: '1' }, { nullValue: null }] } }, 'array', '["a", 1, null]'],
    [{ mapValue: { fields: { k: { stringValue: 'v' }, n: { mapValue: {} } } } }, 'map', '{k: "v", n: {}}'],
    [{ mapValue: { fields: { __type__: { stringValue: '__vector__' }, value: { arrayValue: { values: [{ doubleValue: 1.5 }] } } } } }, 'vector', 'vector[1.5]'],
    [{ somethingElse: 1 }, 'unknown', '{"somethingElse":1}'],
  ];
  for (const [value, kind, text] of cases) {
    assert.deepEqual([describeValue(value).kind, describeValue(value).text], [kind, text], JSON.stringify(value));
  }
});

test('titles carry the exact form', () => {
  assert.equal(describeValue({ bytesValue: 'AAH+/w==' }).title, 'bytes: base64 AAH+/w==');
  assert.equal(describeValue({ referenceValue: `${P}/a/b` }).title, `reference: ${P}/a/b`);
  assert.equal(describeValue({ timestampValue: '2026-01-01T00:00:00.100000000Z' }).title, 'timestamp: 2026-01-01T00:00:00.100000000Z');
  assert.equal(describeValue({ geoPointValue: { latitude: 1.5, longitude: 2 } }).title, 'geopoint: 1.5, 2');
  assert.equal(describeValue({ stringValue: 'x' }).title, 'string: "x"');
});

test('formats times and sizes', () => {
  assert.equal(formatTimestamp('2026-10-31T23:23:09.353100000Z'), '2026-10-31T23:23:09.353100Z');
  assert.equal(formatTimestamp('2026-10-31T23:23:09+02:00'), '2026-10-31T21:23:09Z');
  assert.equal(formatTimestamp('0001-01-01T00:00:00Z'), '0001-01-01T00:00:00Z');
  assert.equal(formatTimestamp('yesterday'), 'yesterday');
  assert.equal(formatByteSize(999), '999 B');
  assert.equal(formatByteSize(43206), '43.2 kB');
  assert.equal(formatByteSize(2_500_000), '2.5 MB');
});

test('describes every named query of the example in the words of pipeline.yml', () => {
  const descriptions = {};
  for (const entry of exampleManifest().bundles) {
    for (const { name, bundledQuery } of parseBundle(readFileSync(path.join(siteDirectory, entry.url))).namedQueries) {
      descriptions[name] = describeQuery(bundledQuery);
    }
  }
  assert.equal(descriptions['latest-stories'], 'stories where published == true order by publishedAt desc limit 20');
  assert.equal(descriptions['tech-and-science'], 'stories where category in ["tech", "science"] and published == true order by publishedAt desc limit 30');
  assert.equal(descriptions['high-score-archive'], 'stories where published == true order by score desc start after [400] limit 25');
  assert.equal(descriptions['first-stories'], 'stories where published == true order by publishedAt desc limit to last 5');
  assert.equal(descriptions['top-comments'], 'collection group comments where approved == true order by likes desc limit 25');
  assert.match(descriptions['recent-stories'], /^stories where published == true and publishedAt >= \d{4}-\d\d-\d\dT[\d:.]+Z order by publishedAt desc$/);
});

test('describes subcollections, OR groups, unary filters and end cursors', () => {
  const query = {
    parent: `${P}/stories/s1`,
    structuredQuery: {
      from: [{ collectionId: 'comments' }],
      where: {
        compositeFilter: {
          op: 'OR',
          filters: [
            { unaryFilter: { field: { fieldPath: 'flag' }, op: 'IS_NULL' } },
            {
              compositeFilter: {
                op: 'AND',
                filters: [
                  { fieldFilter: { field: { fieldPath: 'a' }, op: 'GREATER_THAN', value: { integerValue: '1' } } },
                  { fieldFilter: { field: { fieldPath: 'b' }, op: 'ARRAY_CONTAINS', value: { stringValue: 'x' } } },
                ],
              },
            },
          ],
        },
      },
      endAt: { values: [{ integerValue: '9' }], before: true },
      limit: { value: 3 },
    },
  };
  assert.equal(describeQuery(query), 'stories/s1/comments where flag == null or (a > 1 and b array-contains "x") end before [9] limit 3');
  const group = { parent: `${P}/stories/s1`, structuredQuery: { from: [{ collectionId: 'c', allDescendants: true }], endAt: { values: [], before: false } } };
  assert.equal(describeQuery(group), 'collection group c under stories/s1 end at []');
});
