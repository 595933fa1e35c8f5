// Firestore values as they appear in a bundle (proto3 JSON, bundle-format.md §4): their kind,
// and the pieces the explorer formats and sorts by. Shared by value-format.js and query-order.js.

/**
 * The kind of a value: `null`, `boolean`, `integer`, `double`, `timestamp`, `string`, `bytes`,
 * `reference`, `geopoint`, `array`, `vector`, `map`, or `unknown` for anything else.
 * @param {object} value a proto3 JSON value such as `{"integerValue": "42"}`
 * @returns {string}
 */
export function valueKind(value) {
  if (value === null || typeof value !== 'object') return 'unknown';
  if ('nullValue' in value) return 'null';
  if ('booleanValue' in value) return 'boolean';
  if ('integerValue' in value) return 'integer';
  if ('doubleValue' in value) return 'double';
  if ('timestampValue' in value) return 'timestamp';
  if ('stringValue' in value) return 'string';
  if ('bytesValue' in value) return 'bytes';
  if ('referenceValue' in value) return 'reference';
  if ('geoPointValue' in value) return 'geopoint';
  if ('arrayValue' in value) return 'array';
  if ('mapValue' in value) return isVector(value) ? 'vector' : 'map';
  return 'unknown';
}

function isVector(value) {
  return value.mapValue?.fields?.__type__?.stringValue === '__vector__';
}

/**
 * A number value as the Firebase JS SDK sees it: a JS double, so integers beyond ±2^53 lose
 * precision exactly as they do in the client (`"NaN"` and `"Infinity"` strings included).
 * @param {object} value an `integerValue` or `doubleValue`
 * @returns {number}
 */
export function numberOf(value) {
  return Number('integerValue' in value ? value.integerValue : value.doubleValue);
}

/** The elements of an array value (`{}` stands for an empty array). */
export function arrayElements(value) {
  return value.arrayValue?.values ?? [];
}

/** The `[key, value]` pairs of a map value, in the bundle's order (`{}` is an empty map). */
export function mapEntries(value) {
  return Object.entries(value.mapValue?.fields ?? {});
}

/** The numbers of a vector value (a map `{__type__: "__vector__", value: [numbers]}`). */
export function vectorElements(value) {
  return arrayElements(value.mapValue?.fields?.value ?? {});
}

const TIMESTAMP = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/;

/**
 * Splits a timestamp into whole seconds since the epoch and nanoseconds, from the RFC 3339
 * string a bundle normally carries or the `{seconds, nanos}` object some SDKs write.
 * @param {string|{seconds?: number|string, nanos?: number|string}} timestamp
 * @returns {{seconds: number, nanos: number}|null} null when the text is not RFC 3339
 */
export function timestampParts(timestamp) {
  if (typeof timestamp === 'object' && timestamp !== null) {
    return { seconds: Number(timestamp.seconds ?? 0), nanos: Number(timestamp.nanos ?? 0) };
  }
  const match = TIMESTAMP.exec(String(timestamp));
  if (match === null) return null;
  const [, year, month, day, hour, minute, second, fraction = '', zone] = match;
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second));
  let seconds = date.getTime() / 1000;
  if (zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    seconds -= sign * (Number(zone.slice(1, 3)) * 3600 + Number(zone.slice(4, 6)) * 60);
  }
  return { seconds, nanos: Number(fraction.padEnd(9, '0')) };
}

/**
 * Decodes base64 (standard or URL-safe alphabet, padding optional) into bytes.
 * @param {string} text
 * @returns {Uint8Array}
 * @throws {Error} when the text is not base64
 */
export function base64Bytes(text) {
  const standard = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(standard.padEnd(standard.length + ((4 - (standard.length % 4)) % 4), '='));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

/**
 * The path segments of a document below the database's `documents` root: `stories/s1` for
 * `projects/p/databases/(default)/documents/stories/s1`. A name that is not a resource name is
 * taken as such a path already.
 * @param {string} name
 * @returns {string[]}
 */
export function documentPathSegments(name) {
  const segments = name.split('/');
  const root = segments.indexOf('documents');
  return segments[0] === 'projects' && root === 4 ? segments.slice(5) : segments;
}

/**
 * Parses a field path in the server format clients use (`FieldPath.fromServerFormat`):
 * dot-separated segments, backticks quote a segment, `\` escapes the next character.
 * @param {string} text e.g. `stats.views` or `` `a.b`.c ``
 * @returns {string[]} the segments
 */
export function fieldPathSegments(text) {
  const segments = [];
  let current = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === '\\') {
      index += 1;
      current += text[index] ?? '';
    } else if (character === '`') {
      quoted = !quoted;
    } else if (character === '.' && !quoted) {
      segments.push(current);
      current = '';
    } else {
      current += character;
    }
  }
  segments.push(current);
  return segments;
}

/**
 * The value at a field path inside a document's `fields`, or undefined when a segment is
 * missing or crosses a non-map value.
 * @param {object|undefined} fields a document's `fields`
 * @param {string[]} segments
 * @returns {object|undefined}
 */
export function fieldValue(fields, segments) {
  let value = { mapValue: { fields: fields ?? {} } };
  for (const segment of segments) {
    const children = value?.mapValue?.fields;
    if (children === undefined || !Object.hasOwn(children, segment)) return undefined;
    value = children[segment];
  }
  return value;
}
