// Text for what a bundle holds: typed values, named queries, sizes and times, so the explorer
// shows a timestamp as a time, a reference as a document path, bytes as bytes.

import {
  arrayElements,
  base64Bytes,
  documentPathSegments,
  mapEntries,
  timestampParts,
  valueKind,
  vectorElements,
} from './firestore-values.js';

const PREVIEW_BYTES = 8;

/**
 * A value's kind, its display text, and a longer title (the exact form, for a tooltip).
 * Strings are shown as they are at the top level and quoted inside arrays and maps.
 * @param {object} value a proto3 JSON value
 * @returns {{kind: string, text: string, title: string}}
 */
export function describeValue(value) {
  const kind = valueKind(value);
  return { kind, text: valueText(value, false), title: `${kind}: ${exactText(value, kind)}` };
}

function exactText(value, kind) {
  switch (kind) {
    case 'bytes':
      return `base64 ${value.bytesValue}`;
    case 'reference':
      return value.referenceValue;
    case 'timestamp':
      return String(value.timestampValue);
    case 'geopoint':
      return `${Number(value.geoPointValue.latitude ?? 0)}, ${Number(value.geoPointValue.longitude ?? 0)}`;
    default:
      return valueText(value, true);
  }
}

function valueText(value, nested) {
  switch (valueKind(value)) {
    case 'null':
      return 'null';
    case 'boolean':
      return String(value.booleanValue);
    case 'integer':
      return String(value.integerValue);
    case 'double':
      return doubleText(Number(value.doubleValue));
    case 'timestamp':
      return formatTimestamp(value.timestampValue);
    case 'string':
      return nested ? JSON.stringify(value.stringValue) : value.stringValue;
    case 'bytes':
      return bytesText(value.bytesValue);
    case 'reference':
      return documentPathSegments(value.referenceValue).join('/');
    case 'geopoint':
      return geoPointText(value.geoPointValue);
    case 'array':
      return `[${arrayElements(value).map((element) => valueText(element, true)).join(', ')}]`;
    case 'vector':
      return `vector[${vectorElements(value).map((element) => valueText(element, true)).join(', ')}]`;
    case 'map':
      return `{${mapEntries(value).map(([key, child]) => `${key}: ${valueText(child, true)}`).join(', ')}}`;
    default:
      return JSON.stringify(value);
  }
}

/** Doubles always show that they are doubles: `1.0`, `-0.0`, `NaN`, `Infinity`. */
function doubleText(number) {
  if (Object.is(number, -0)) return '-0.0';
  return Number.isInteger(number) ? number.toFixed(1) : String(number);
}

function bytesText(base64) {
  let bytes;
  try {
    bytes = base64Bytes(base64);
  } catch {
    return `invalid base64 ${JSON.stringify(base64)}`;
  }
  const preview = Array.from(bytes.subarray(0, PREVIEW_BYTES), (byte) => byte.toString(16).padStart(2, '0')).join('');
  const more = bytes.length > PREVIEW_BYTES ? '…' : '';
  return `${bytes.length} bytes${preview ? ` 0x${preview}${more}` : ''}`;
}

function geoPointText({ latitude = 0, longitude = 0 }) {
  const lat = Number(latitude);
  const lng = Number(longitude);
  return `${Math.abs(lat)}° ${lat < 0 ? 'S' : 'N'}, ${Math.abs(lng)}° ${lng < 0 ? 'W' : 'E'}`;
}

/**
 * A timestamp as RFC 3339 UTC with the fraction trimmed to milli-, micro- or nanoseconds:
 * `2026-10-31T23:23:09.353Z`. Text that is not a timestamp is returned unchanged.
 * @param {string|{seconds: number|string, nanos: number|string}} timestamp
 * @returns {string}
 */
export function formatTimestamp(timestamp) {
  const parts = timestampParts(timestamp);
  if (parts === null || !Number.isFinite(parts.seconds)) return String(timestamp);
  const whole = new Date(parts.seconds * 1000).toISOString().slice(0, 19);
  let fraction = String(parts.nanos).padStart(9, '0');
  while (fraction.endsWith('000')) fraction = fraction.slice(0, -3);
  return `${whole}${fraction ? `.${fraction}` : ''}Z`;
}

/**
 * A byte count for people: `43.2 kB` (SI units, as `bundlepress build` prints them).
 * @param {number} count
 * @returns {string}
 */
export function formatByteSize(count) {
  if (count < 1000) return `${count} B`;
  const units = ['kB', 'MB', 'GB'];
  let value = count / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

const OPERATORS = {
  EQUAL: '==',
  NOT_EQUAL: '!=',
  LESS_THAN: '<',
  LESS_THAN_OR_EQUAL: '<=',
  GREATER_THAN: '>',
  GREATER_THAN_OR_EQUAL: '>=',
  ARRAY_CONTAINS: 'array-contains',
  ARRAY_CONTAINS_ANY: 'array-contains-any',
  IN: 'in',
  NOT_IN: 'not-in',
  IS_NULL: '== null',
  IS_NAN: '== NaN',
  IS_NOT_NULL: '!= null',
  IS_NOT_NAN: '!= NaN',
};

function filterText(filter, nested) {
  if (filter.compositeFilter) {
    const { op, filters = [] } = filter.compositeFilter;
    const text = filters.map((child) => filterText(child, true)).join(op === 'OR' ? ' or ' : ' and ');
    return nested && filters.length > 1 ? `(${text})` : text;
  }
  if (filter.unaryFilter) {
    return `${filter.unaryFilter.field.fieldPath} ${OPERATORS[filter.unaryFilter.op] ?? filter.unaryFilter.op}`;
  }
  const { field, op, value } = filter.fieldFilter;
  return `${field.fieldPath} ${OPERATORS[op] ?? op} ${valueText(value, true)}`;
}

function cursorText(cursor, [whenBefore, otherwise]) {
  const values = (cursor.values ?? []).map((value) => valueText(value, true)).join(', ');
  return `${cursor.before ? whenBefore : otherwise} [${values}]`;
}

/**
 * A named query in the words of pipeline.yml: what it reads, its filters, order, cursors and
 * limit, e.g. `stories where published == true order by publishedAt desc limit 20`.
 * @param {{parent: string, structuredQuery: object, limitType?: string}} bundledQuery
 * @returns {string}
 */
export function describeQuery(bundledQuery) {
  const query = bundledQuery.structuredQuery ?? {};
  const [from = {}] = query.from ?? [];
  const parent = documentPathSegments(bundledQuery.parent ?? '').join('/');
  const parts = [
    from.allDescendants
      ? `collection group ${from.collectionId}${parent ? ` under ${parent}` : ''}`
      : [parent, from.collectionId].filter(Boolean).join('/'),
  ];
  if (query.where) parts.push(`where ${filterText(query.where, false)}`);
  if (query.orderBy?.length) {
    const orders = query.orderBy.map((order) => `${order.field.fieldPath} ${order.direction === 'DESCENDING' ? 'desc' : 'asc'}`);
    parts.push(`order by ${orders.join(', ')}`);
  }
  if (query.startAt) parts.push(cursorText(query.startAt, ['start at', 'start after']));
  if (query.endAt) parts.push(cursorText(query.endAt, ['end before', 'end at']));
  const limit = query.limit?.value ?? query.limit;
  if (limit !== undefined) parts.push(`${bundledQuery.limitType === 'LAST' ? 'limit to last' : 'limit'} ${limit}`);
  return parts.join(' ');
}
