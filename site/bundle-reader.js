// Reads a Firestore data bundle: `<decimal byte length><JSON object>` elements, back to back
// (bundle-format.md §1–2). No Firebase SDK needed; errors name the byte offset and element.
// Like the Firebase SDKs, it accepts missing documents (a `documentMetadata` with `exists: false`
// and no `document`): the markers that tell a returning client's cache a document was deleted.

import { compareTimestamps } from './query-order.js';

const OPEN_BRACE = 0x7b;
const DIGIT_ZERO = 0x30;
const DIGIT_NINE = 0x39;
const MAX_PREFIX_DIGITS = 16;
const ELEMENT_KINDS = ['metadata', 'namedQuery', 'documentMetadata', 'document'];

/** A bundle that cannot be read, with where (byte offset, element number) and why. */
export class BundleFormatError extends Error {
  /**
   * @param {string} message what is wrong, as a sentence
   * @param {{offset: number, element: number}} position byte offset and 1-based element number
   */
  constructor(message, { offset, element }) {
    super(`element ${element} at byte ${offset}: ${message}`);
    this.name = 'BundleFormatError';
    this.offset = offset;
    this.element = element;
  }
}

/**
 * Parses a whole bundle.
 *
 * Documents come back in the bundle's order (key order for BundlePress bundles, not query
 * order: see query-order.js); a missing document has `document: null`. `warnings` lists
 * inconsistencies that clients tolerate, such as a `totalBytes` or `totalDocuments` that does
 * not match the content, or a missing document listed as a query's result.
 * @param {Uint8Array|ArrayBuffer} data the raw (not gzip-compressed) bundle bytes
 * @returns {{metadata: object, namedQueries: object[], documents: {metadata: object, document: object|null}[], warnings: string[]}}
 * @throws {BundleFormatError} when the bytes are not a well-formed bundle
 */
export function parseBundle(data) {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    throw new BundleFormatError(
      'the bytes are gzip-compressed: the server sent a .gz file without "Content-Encoding: gzip" ' +
        '(serve the .bundle URL and let the server negotiate the encoding)',
      { offset: 0, element: 1 },
    );
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const bundle = { metadata: null, namedQueries: [], documents: [], warnings: [] };
  let offset = 0;
  let bodyStart = 0;
  let number = 1;
  for (; offset < bytes.length; number += 1) {
    const position = { offset, element: number };
    const { kind, body, end } = readElement(bytes, decoder, position);
    addElement(bundle, kind, body, position);
    if (kind === 'metadata') bodyStart = end;
    offset = end;
  }
  const atEnd = { offset, element: number };
  if (bundle.metadata === null) {
    throw new BundleFormatError('the bundle is empty; it must start with a metadata element', atEnd);
  }
  const last = bundle.documents.at(-1);
  if (last && last.metadata.exists === true && last.document === null) {
    throw new BundleFormatError(`the bundle ends before the document ${last.metadata.name} that its documentMetadata announces`, atEnd);
  }
  checkTotals(bundle, bytes.length - bodyStart);
  checkMissingDocuments(bundle);
  return bundle;
}

function readElement(bytes, decoder, position) {
  const { offset } = position;
  let cursor = offset;
  while (cursor < bytes.length && bytes[cursor] >= DIGIT_ZERO && bytes[cursor] <= DIGIT_NINE) cursor += 1;
  const digits = cursor - offset;
  if (digits === 0 || digits > MAX_PREFIX_DIGITS || bytes[cursor] !== OPEN_BRACE) {
    const found = cursor < bytes.length ? `byte 0x${bytes[cursor].toString(16).padStart(2, '0')}` : 'the end of the bundle';
    throw new BundleFormatError(`expected a decimal length followed by "{", found ${found} at byte ${cursor}`, position);
  }
  const length = Number(decoder.decode(bytes.subarray(offset, cursor)));
  const end = cursor + length;
  if (end > bytes.length) {
    throw new BundleFormatError(
      `the length prefix says ${length} bytes but only ${bytes.length - cursor} remain (is the file truncated?)`,
      position,
    );
  }
  let element;
  try {
    element = JSON.parse(decoder.decode(bytes.subarray(cursor, end)));
  } catch (error) {
    throw new BundleFormatError(`the ${length} bytes after the length prefix are not one JSON object (${error.message})`, position);
  }
  const keys = element !== null && typeof element === 'object' && !Array.isArray(element) ? Object.keys(element) : [];
  if (keys.length !== 1 || !ELEMENT_KINDS.includes(keys[0])) {
    throw new BundleFormatError(`expected an object with one key of ${ELEMENT_KINDS.join(', ')}; found ${JSON.stringify(keys)}`, position);
  }
  return { kind: keys[0], body: element[keys[0]], end };
}

function addElement(bundle, kind, body, position) {
  if ((bundle.metadata === null) !== (kind === 'metadata')) {
    throw new BundleFormatError(
      kind === 'metadata' ? 'a second metadata element' : `the bundle must start with a metadata element, not ${kind}`,
      position,
    );
  }
  const previous = bundle.documents.at(-1);
  const awaitingDocument = previous !== undefined && previous.metadata.exists === true && previous.document === null;
  if (awaitingDocument !== (kind === 'document')) {
    throw new BundleFormatError(
      awaitingDocument
        ? `expected the document ${previous.metadata.name} after its documentMetadata, found ${kind}`
        : 'a document must directly follow a documentMetadata with "exists": true',
      position,
    );
  }
  switch (kind) {
    case 'metadata':
      bundle.metadata = body;
      break;
    case 'namedQuery':
      bundle.namedQueries.push(body);
      break;
    case 'documentMetadata':
      if (body.readTime === undefined) {
        // The version of a missing document, the read time of a found one: the SDKs fail without it.
        throw new BundleFormatError(`the documentMetadata of ${body.name} has no readTime (every Firebase SDK fails to load the bundle)`, position);
      }
      bundle.documents.push({ metadata: body, document: null });
      break;
    case 'document':
      if (body.name !== previous.metadata.name) {
        throw new BundleFormatError(`the document ${body.name} follows the documentMetadata of ${previous.metadata.name}`, position);
      }
      previous.document = body;
      break;
  }
}

function checkTotals(bundle, bodyBytes) {
  const { totalBytes, totalDocuments } = bundle.metadata;
  if (Number(totalBytes) !== bodyBytes) {
    bundle.warnings.push(`metadata.totalBytes is ${totalBytes}, but the elements after the metadata take ${bodyBytes} bytes`);
  }
  const distinct = new Set(bundle.documents.map((entry) => entry.metadata.name)).size;
  if (Number(totalDocuments) !== distinct) {
    bundle.warnings.push(`metadata.totalDocuments is ${totalDocuments}, but the bundle holds ${distinct} documents`);
  }
}

/** Missing documents the SDKs load, but that break a rule of bundle-format.md (§7). */
function checkMissingDocuments(bundle) {
  const { createTime } = bundle.metadata;
  for (const { metadata } of bundle.documents.filter((entry) => entry.document === null)) {
    const queries = metadata.queries ?? [];
    if (queries.length > 0) {
      bundle.warnings.push(`the missing document ${metadata.name} is listed as a result of ${queries.join(', ')}: a deleted document is no query's result`);
    }
    if (compareTimestamps(metadata.readTime, createTime) > 0) {
      bundle.warnings.push(`the missing document ${metadata.name} has readTime ${metadata.readTime}, after the bundle's createTime ${createTime}`);
    }
  }
}

/**
 * The bundle's documents by role: `results`, the found documents some named query of the
 * bundle returns; `unqueried`, the found documents none returns (listed with `documents:` in
 * pipeline.yml, or leavers: documents that left a named query and changed since a returning
 * client may have cached them, shipped in their current version); `missing`, the
 * `documentMetadata` of missing documents (markers that a document a client may hold was
 * deleted). Only `results` are query results. Each list is in bundle order.
 * @param {{namedQueries: object[], documents: {metadata: object, document: object|null}[]}} bundle a parsed bundle
 * @returns {{results: object[], unqueried: object[], missing: object[]}} `document` elements, and `documentMetadata` for `missing`
 */
export function documentsByRole(bundle) {
  const names = new Set(bundle.namedQueries.map((query) => query.name));
  const roles = { results: [], unqueried: [], missing: [] };
  for (const { metadata, document } of bundle.documents) {
    if (document === null) roles.missing.push(metadata);
    else if ((metadata.queries ?? []).some((name) => names.has(name))) roles.results.push(document);
    else roles.unqueried.push(document);
  }
  return roles;
}

/**
 * The documents a named query returns: those whose documentMetadata lists its name, in bundle
 * order (sort them with query-order.js for query order).
 * @param {{documents: {metadata: object, document: object|null}[]}} bundle a parsed bundle
 * @param {string} name the named query
 * @returns {object[]} `document` elements
 */
export function documentsOfQuery(bundle, name) {
  return bundle.documents
    .filter((entry) => entry.document !== null && (entry.metadata.queries ?? []).includes(name))
    .map((entry) => entry.document);
}
