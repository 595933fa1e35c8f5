// site/exposure.js: the inventory of what a site publishes (the explorer's "What this site
// publishes"), on small hand-made bundles. explorer-e2e.mjs compares it on the example site
// with `bundlepress inspect --exposure --json`.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalFieldPath, exposureSummary } from '../../site/exposure.js';

const P = 'projects/demo/databases/(default)/documents';
const READ_TIME = '2026-01-01T00:00:00.000000000Z';

/** A found document of a bundle: `fields` at `path`, returned by the named queries `queries`. */
function found(path, fields, queries = ['q']) {
  const name = `${P}/${path}`;
  return { metadata: { name, readTime: READ_TIME, exists: true, queries }, document: { name, fields, createTime: READ_TIME, updateTime: READ_TIME } };
}

/** A missing-document marker: `path` was deleted. */
function deleted(path) {
  return { metadata: { name: `${P}/${path}`, readTime: READ_TIME, exists: false, queries: [] }, document: null };
}

/** A parsed bundle (as bundle-reader.js returns it) with the named query `q` and `documents`. */
function bundle(...documents) {
  return { metadata: { id: 'b', createTime: READ_TIME }, namedQueries: [{ name: 'q', bundledQuery: {} }], documents, warnings: [] };
}

/** The summary of `bundles`, given as `[id, bundle]` pairs in manifest order. */
function summary(...bundles) {
  return exposureSummary({ bundles: bundles.map(([id]) => ({ id })) }, bundles.map(([, parsed]) => parsed));
}

const string = (text) => ({ stringValue: text });
const integer = (number) => ({ integerValue: String(number) });
const map = (fields) => ({ mapValue: { fields } });

test('lists a map, then the paths inside it; an array as a whole', () => {
  const stats = map({ followers: integer(3), recent: map({ views: integer(9) }), empty: { mapValue: {} } });
  const tags = { arrayValue: { values: [string('a'), map({ hidden: string('x') })] } };
  assert.deepEqual(summary(['one', bundle(found('authors/zoe', { name: string('Zoe'), stats, tags }))]), [
    {
      collection: 'authors',
      documents: 1,
      bundles: ['one'],
      fields: [
        { path: 'name', types: ['string'], documents: 1 },
        { path: 'stats', types: ['map'], documents: 1 },
        { path: 'stats.empty', types: ['map'], documents: 1 },
        { path: 'stats.followers', types: ['integer'], documents: 1 },
        { path: 'stats.recent', types: ['map'], documents: 1 },
        { path: 'stats.recent.views', types: ['integer'], documents: 1 },
        { path: 'tags', types: ['array'], documents: 1 },
      ],
    },
  ]);
});

test('lists every type a field holds, in type order, and counts the documents carrying each path', () => {
  const documents = [
    found('scores/a', { value: { doubleValue: 1.5 }, note: { nullValue: null } }),
    found('scores/b', { value: integer(2) }),
    found('scores/c', { value: map({ v: { referenceValue: `${P}/x/y` } }), when: { timestampValue: READ_TIME } }),
    found('scores/d', { flags: { booleanValue: true }, raw: { bytesValue: 'AA==' }, at: { geoPointValue: { latitude: 1, longitude: 2 } } }),
  ];
  const [scores] = summary(['one', bundle(...documents)]);
  assert.deepEqual(scores.fields, [
    { path: 'at', types: ['geopoint'], documents: 1 },
    { path: 'flags', types: ['boolean'], documents: 1 },
    { path: 'note', types: ['null'], documents: 1 },
    { path: 'raw', types: ['bytes'], documents: 1 },
    { path: 'value', types: ['integer', 'double', 'map'], documents: 3 },
    { path: 'value.v', types: ['reference'], documents: 1 },
    { path: 'when', types: ['timestamp'], documents: 1 },
  ]);
});

test('counts a document in several bundles once, with the fields of all its published versions', () => {
  const full = found('stories/s1', { title: string('Hello'), body: string('…') });
  const masked = found('stories/s1', { title: string('Hello') });
  const other = found('stories/s2', { title: string('Bye') });
  assert.deepEqual(summary(['front-page', bundle(masked, other)], ['archive', bundle(full)], ['empty', bundle()]), [
    {
      collection: 'stories',
      documents: 2,
      bundles: ['front-page', 'archive'],
      fields: [
        { path: 'body', types: ['string'], documents: 1 },
        { path: 'title', types: ['string'], documents: 2 },
      ],
    },
  ]);
});

test('counts leavers, not the markers of deleted documents', () => {
  const leaver = found('stories/left', { secret: string('still public') }, []);
  const [stories, ...others] = summary(['one', bundle(found('stories/s1', { title: string('Hi') }), leaver, deleted('stories/gone'), deleted('drafts/d1'))]);
  assert.deepEqual(others, [], 'a collection with only deleted documents publishes nothing');
  assert.equal(stories.documents, 2);
  assert.deepEqual(stories.fields.map((field) => [field.path, field.documents]), [['secret', 1], ['title', 1]]);
});

test('groups documents by collection id, subcollections included, sorted in UTF-8 byte order', () => {
  const documents = [
    found('stories/s1', {}),
    found('stories/s1/comments/c1', { text: string('first') }),
    found('authors/zoe/comments/c9', { text: string('other') }),
    found('émoji/e1', {}),
    found('Zebras/z1', {}),
    found('\u{FF5E}/w1', {}),
    found('\u{1F600}/u1', {}),
  ];
  assert.deepEqual(
    summary(['one', bundle(...documents)]).map(({ collection, documents: count, fields }) => [collection, count, fields.length]),
    [['Zebras', 1, 0], ['comments', 2, 1], ['stories', 1, 0], ['émoji', 1, 0], ['\u{FF5E}', 1, 0], ['\u{1F600}', 1, 0]],
  );
});

test('writes field paths in the canonical format and sorts them as strings in UTF-8 byte order', () => {
  const fields = {
    'follower count': map({ 'a.b': integer(1), 'back`tick\\': integer(2), _ok9: integer(3) }),
    '9lives': integer(1),
    Zeta: integer(1),
    é: integer(1),
    '': integer(1),
  };
  assert.deepEqual(summary(['one', bundle(found('c/d', fields))])[0].fields.map((field) => field.path), [
    'Zeta',
    '`9lives`',
    '``',
    '`follower count`',
    '`follower count`._ok9',
    '`follower count`.`a.b`',
    '`follower count`.`back\\`tick\\\\`',
    '`é`',
  ]);
  assert.equal(canonicalFieldPath(['stats', 'followers']), 'stats.followers');
  assert.equal(canonicalFieldPath(['a-b', '_x']), '`a-b`._x');
});

test('a vector is listed as a vector, as Firestore types it, without the parts it is written with', () => {
  const embedding = map({ __type__: string('__vector__'), value: { arrayValue: { values: [{ doubleValue: 0.5 }] } } });
  assert.deepEqual(summary(['one', bundle(found('c/d', { embedding }))])[0].fields, [
    { path: 'embedding', types: ['vector'], documents: 1 },
  ]);
});
