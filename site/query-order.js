// Puts a named query's documents in query order.
//
// A bundle lists its documents in key order and says only which named queries each belongs
// to (documentMetadata.queries); the order is what a Firebase client computes when it re-runs
// the query against its cache. This module computes the same order from the query's orderBy,
// with the implicit orderBys the clients add (inequality fields, then __name__) and Firestore's
// total order over values (firebase-js-sdk model/values.ts valueCompare), as BundlePress's
// query engine does (FirestoreModel/Value+Ordering.swift).

import {
  arrayElements,
  documentPathSegments,
  fieldPathSegments,
  fieldValue,
  mapEntries,
  numberOf,
  base64Bytes,
  timestampParts,
  valueKind,
  vectorElements,
} from './firestore-values.js';

const TYPE_ORDER = {
  null: 0,
  boolean: 1,
  integer: 2,
  double: 2,
  timestamp: 3,
  string: 5,
  bytes: 6,
  reference: 7,
  geopoint: 8,
  array: 9,
  vector: 10,
  map: 11,
  unknown: 12,
};

const INEQUALITY_OPERATORS = new Set([
  'LESS_THAN',
  'LESS_THAN_OR_EQUAL',
  'GREATER_THAN',
  'GREATER_THAN_OR_EQUAL',
  'NOT_EQUAL',
  'NOT_IN',
  'IS_NOT_NULL',
  'IS_NOT_NAN',
]);

const KEY_FIELD = '__name__';

function sign(number) {
  return number < 0 ? -1 : number > 0 ? 1 : 0;
}

function compareScalars(left, right) {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Compares sequences element by element with `compareElements`; a prefix sorts first. */
function compareLexicographically(left, right, compareElements) {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    const order = compareElements(left[index], right[index]);
    if (order !== 0) return sign(order);
  }
  return sign(left.length - right.length);
}

/**
 * Compares two strings by their UTF-8 bytes (Unicode code point order), as Firestore does.
 * JavaScript's `<` compares UTF-16 code units instead, which differs when a character above
 * U+FFFF (a surrogate pair) meets one in U+E000…U+FFFF.
 * @param {string} left
 * @param {string} right
 * @returns {number} negative, zero or positive
 */
export function compareUtf8(left, right) {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    const a = left.charCodeAt(index);
    const b = right.charCodeAt(index);
    if (a !== b) return codePointRank(a) - codePointRank(b);
  }
  return left.length - right.length;
}

// Moves surrogates (U+D800…U+DFFF, which start characters above U+FFFF) above U+E000…U+FFFF.
function codePointRank(unit) {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

/** NaN sorts below every number and equals NaN; -0 equals 0. */
function compareNumbers(left, right) {
  if (Number.isNaN(left)) return Number.isNaN(right) ? 0 : -1;
  if (Number.isNaN(right)) return 1;
  return compareScalars(left, right);
}

/**
 * Compares two timestamps by time.
 * @param {string|object} left an RFC 3339 string or a `{seconds, nanos}` object
 * @param {string|object} right
 * @returns {number} negative, 0 or positive
 */
export function compareTimestamps(left, right) {
  const a = timestampParts(left) ?? { seconds: NaN, nanos: 0 };
  const b = timestampParts(right) ?? { seconds: NaN, nanos: 0 };
  return compareNumbers(a.seconds, b.seconds) || compareScalars(a.nanos, b.nanos);
}

const compareBytes = (left, right) => compareLexicographically(base64Bytes(left), base64Bytes(right), compareScalars);

/** References compare by full name, segment by segment in UTF-16 order (JS `<`). */
const compareReferences = (left, right) => compareLexicographically(left.split('/'), right.split('/'), compareScalars);

const compareSequences = (left, right) => compareLexicographically(left, right, compareValues);

/** Maps: keys sorted in UTF-16 order, then pairs compared (key by UTF-8, then value), then size. */
function compareMaps(left, right) {
  const a = mapEntries(left).sort(([x], [y]) => compareScalars(x, y));
  const b = mapEntries(right).sort(([x], [y]) => compareScalars(x, y));
  return compareLexicographically(a, b, ([keyA, valueA], [keyB, valueB]) => compareUtf8(keyA, keyB) || compareValues(valueA, valueB));
}

/**
 * Compares two values in Firestore's total order: null < booleans < numbers (NaN first; 1 and
 * 1.0 equal) < timestamps < strings (UTF-8) < bytes < references < geopoints < arrays <
 * vectors < maps.
 * @param {object} left a proto3 JSON value
 * @param {object} right a proto3 JSON value
 * @returns {number} negative, zero or positive
 */
export function compareValues(left, right) {
  const kind = valueKind(left);
  const otherKind = valueKind(right);
  const typeOrder = TYPE_ORDER[kind] - TYPE_ORDER[otherKind];
  if (typeOrder !== 0) return sign(typeOrder);
  switch (kind) {
    case 'boolean':
      return Number(left.booleanValue === true) - Number(right.booleanValue === true);
    case 'integer':
    case 'double':
      return compareNumbers(numberOf(left), numberOf(right));
    case 'timestamp':
      return compareTimestamps(left.timestampValue, right.timestampValue);
    case 'string':
      return sign(compareUtf8(left.stringValue, right.stringValue));
    case 'bytes':
      return compareBytes(left.bytesValue, right.bytesValue);
    case 'reference':
      return compareReferences(left.referenceValue, right.referenceValue);
    case 'geopoint':
      return (
        compareNumbers(Number(left.geoPointValue.latitude ?? 0), Number(right.geoPointValue.latitude ?? 0)) ||
        compareNumbers(Number(left.geoPointValue.longitude ?? 0), Number(right.geoPointValue.longitude ?? 0))
      );
    case 'array':
      return compareSequences(arrayElements(left), arrayElements(right));
    case 'vector': {
      const a = vectorElements(left);
      const b = vectorElements(right);
      return sign(a.length - b.length) || compareSequences(a, b);
    }
    case 'map':
      return compareMaps(left, right);
    default:
      return 0;
  }
}

const NUMERIC_ID = /^__id(-?)0*(\d*)__$/;

/**
 * Compares two segments of a document path or field path as the clients do
 * (`BasePath.compareSegments`): `__id<integer>__` segments numerically and before all others,
 * the rest by UTF-8.
 * @param {string} left
 * @param {string} right
 * @returns {number}
 */
export function compareSegments(left, right) {
  const a = NUMERIC_ID.exec(left);
  const b = NUMERIC_ID.exec(right);
  if (a && b) return compareNumericIds(a, b);
  if (a || b) return a ? -1 : 1;
  return sign(compareUtf8(left, right));
}

function compareNumericIds([, leftMinus, leftDigits], [, rightMinus, rightDigits]) {
  const leftNegative = leftMinus === '-' && leftDigits !== '';
  const rightNegative = rightMinus === '-' && rightDigits !== '';
  if (leftNegative !== rightNegative) return leftNegative ? -1 : 1;
  const magnitude = leftDigits.length - rightDigits.length || compareScalars(leftDigits, rightDigits);
  return sign(leftNegative ? -magnitude : magnitude);
}

/**
 * Compares two document names by their path below the database root, segment by segment.
 * @param {string} left a document resource name or relative path
 * @param {string} right
 * @returns {number}
 */
export function compareDocumentNames(left, right) {
  return compareLexicographically(documentPathSegments(left), documentPathSegments(right), compareSegments);
}

const compareFieldPaths = (left, right) => compareLexicographically(left, right, compareSegments);

function inequalityFieldPaths(filter, found) {
  if (filter === undefined) return found;
  if (filter.compositeFilter) {
    for (const child of filter.compositeFilter.filters ?? []) inequalityFieldPaths(child, found);
  }
  const leaf = filter.fieldFilter ?? filter.unaryFilter;
  if (leaf && INEQUALITY_OPERATORS.has(leaf.op)) found.push(leaf.field.fieldPath);
  return found;
}

/**
 * The orderBys clients really sort by (JS `queryNormalizedOrderBy`): the explicit ones, then
 * every inequality field not yet ordered (in field-path order), then `__name__`; the implicit
 * ones take the direction of the last explicit one. `limitType: LAST` keeps this order (the
 * bundle stores the query as written, and clients return limitToLast results in query order).
 * @param {object} structuredQuery a named query's `bundledQuery.structuredQuery`
 * @returns {{fieldPath: string, segments: string[], descending: boolean}[]}
 */
export function normalizedOrderBy(structuredQuery) {
  const explicit = (structuredQuery.orderBy ?? []).map((order) => ({
    fieldPath: order.field.fieldPath,
    segments: fieldPathSegments(order.field.fieldPath),
    descending: order.direction === 'DESCENDING',
  }));
  const descending = explicit.at(-1)?.descending ?? false;
  const ordered = new Set(explicit.map((order) => order.segments.join('\u0000')));
  const implicit = [];
  for (const fieldPath of inequalityFieldPaths(structuredQuery.where, [])) {
    const segments = fieldPathSegments(fieldPath);
    const key = segments.join('\u0000');
    if (!ordered.has(key) && key !== KEY_FIELD) {
      ordered.add(key);
      implicit.push({ fieldPath, segments, descending });
    }
  }
  implicit.sort((a, b) => compareFieldPaths(a.segments, b.segments));
  const result = [...explicit, ...implicit];
  if (!ordered.has(KEY_FIELD)) result.push({ fieldPath: KEY_FIELD, segments: [KEY_FIELD], descending });
  return result;
}

/**
 * A comparator over bundle documents (`{name, fields}`) for a list of orderBys. A document
 * lacking an order field (which a consistent bundle never lists for the query) sorts first.
 * @param {{segments: string[], descending: boolean}[]} orderBy
 * @returns {(left: object, right: object) => number}
 */
export function documentComparator(orderBy) {
  return (left, right) => {
    for (const { segments, descending } of orderBy) {
      const order = segments.length === 1 && segments[0] === KEY_FIELD
        ? compareDocumentNames(left.name, right.name)
        : compareOptionalValues(fieldValue(left.fields, segments), fieldValue(right.fields, segments));
      if (order !== 0) return descending ? -order : order;
    }
    return 0;
  };
}

function compareOptionalValues(left, right) {
  if (left === undefined || right === undefined) return Number(left !== undefined) - Number(right !== undefined);
  return compareValues(left, right);
}

/**
 * Returns a named query's documents in query order (a new array).
 * @param {object} bundledQuery the named query's `bundledQuery` (`{parent, structuredQuery, limitType}`)
 * @param {object[]} documents bundle `document` elements whose metadata lists the query
 * @returns {object[]}
 */
export function sortQueryResults(bundledQuery, documents) {
  return [...documents].sort(documentComparator(normalizedOrderBy(bundledQuery.structuredQuery ?? {})));
}
