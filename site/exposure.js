// What a site publishes, field by field: bundles are public files, so every field of every
// document they carry is public. The inventory is the one `bundlepress inspect --exposure --json`
// prints as `collections`: per collection, each field path its published documents carry, the
// value types found there and how many distinct documents carry it.

import { documentsByRole } from './bundle-reader.js';
import { documentPathSegments, mapEntries, valueKind } from './firestore-values.js';
import { compareUtf8 } from './query-order.js';

/** The type names, in the order a field's types are listed. */
export const TYPE_NAMES = ['null', 'boolean', 'integer', 'double', 'timestamp', 'string', 'bytes', 'reference', 'geopoint', 'array', 'vector', 'map'];

const BARE_SEGMENT = /^[A-Za-z_][A-Za-z_0-9]*$/;

/**
 * A field path in the canonical server format: segments like identifiers as they are, others
 * in backquotes with `` ` `` and `\` escaped; joined by `.`.
 * @param {string[]} segments
 * @returns {string} e.g. `` stats.`follower count` ``
 */
export function canonicalFieldPath(segments) {
  return segments.map((segment) => (BARE_SEGMENT.test(segment) ? segment : `\`${segment.replace(/[`\\]/g, '\\$&')}\``)).join('.');
}

/**
 * Calls `visit(segments, type)` for every path to a value below `prefix`: a map value, then the
 * paths inside it; an array or a vector as a whole (their elements are not paths).
 * @param {[string, object][]} entries the `[key, value]` pairs of a map
 */
function visitFieldPaths(entries, prefix, visit) {
  for (const [key, value] of entries) {
    const segments = [...prefix, key];
    const type = valueKind(value);
    visit(segments, type);
    if (type === 'map') visitFieldPaths(mapEntries(value), segments, visit);
  }
}

/** The documents a bundle publishes: query results, listed documents and leavers, not the markers of deleted ones. */
function publishedDocuments(bundle) {
  const { results, unqueried } = documentsByRole(bundle);
  return [...results, ...unqueried];
}

/** A collection's inventory as it is gathered: sets of document names and bundle ids, fields by canonical path. */
function emptyInventory() {
  return { documents: new Set(), bundles: new Set(), fields: new Map() };
}

function addDocument(inventory, bundleId, document) {
  inventory.documents.add(document.name);
  inventory.bundles.add(bundleId);
  visitFieldPaths(Object.entries(document.fields ?? {}), [], (segments, type) => {
    const path = canonicalFieldPath(segments);
    if (!inventory.fields.has(path)) inventory.fields.set(path, { types: new Set(), documents: new Set() });
    const field = inventory.fields.get(path);
    field.types.add(type);
    field.documents.add(document.name);
  });
}

/**
 * Every field the site's bundles publish, per collection (a document's collection is the last
 * collection of its path: `comments` for `stories/s1/comments/c1`). Only existing documents
 * count; a document in several bundles counts once, and carries a field if any of its
 * published versions does.
 * @param {{bundles: {id: string}[]}} manifest the site's manifest
 * @param {{namedQueries: object[], documents: {metadata: object, document: object|null}[]}[]} bundles
 *   the parsed bundles (bundle-reader.js), in the manifest's order
 * @returns {{collection: string, documents: number, bundles: string[],
 *   fields: {path: string, types: string[], documents: number}[]}[]}
 *   collections by id and fields by canonical path, both in UTF-8 byte order; `bundles` in
 *   manifest order, `types` in the order of TYPE_NAMES
 */
export function exposureSummary(manifest, bundles) {
  const collections = new Map();
  manifest.bundles.forEach((entry, index) => {
    for (const document of publishedDocuments(bundles[index])) {
      const id = documentPathSegments(document.name).at(-2);
      if (!collections.has(id)) collections.set(id, emptyInventory());
      addDocument(collections.get(id), entry.id, document);
    }
  });
  return [...collections.keys()].sort(compareUtf8).map((id) => {
    const inventory = collections.get(id);
    return {
      collection: id,
      documents: inventory.documents.size,
      bundles: manifest.bundles.map((entry) => entry.id).filter((bundleId) => inventory.bundles.has(bundleId)),
      fields: [...inventory.fields.keys()].sort(compareUtf8).map((path) => {
        const field = inventory.fields.get(path);
        return { path, types: TYPE_NAMES.filter((type) => field.types.has(type)), documents: field.documents.size };
      }),
    };
  });
}
