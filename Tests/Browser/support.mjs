// Shared by the browser-side tests: where the repository, the built example site and the
// bundlepress binary are, and how to run the binary.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is Tests/Browser/support.mjs). */
export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The example site, built by `bundlepress build` from pipeline.yml. */
export const siteDirectory = path.join(repositoryRoot, 'site');

/** The bundlepress executable: $BUNDLEPRESS_BIN, or the debug build. */
export const bundlepressBinary = process.env.BUNDLEPRESS_BIN ?? path.join(repositoryRoot, '.build', 'debug', 'bundlepress');

/**
 * Runs bundlepress in the repository root and returns its standard output.
 * @param {string[]} args
 * @returns {string}
 */
export function bundlepress(args) {
  if (!existsSync(bundlepressBinary)) {
    throw new Error(`${bundlepressBinary} does not exist: run "swift build" first (or set BUNDLEPRESS_BIN).`);
  }
  return execFileSync(bundlepressBinary, args, { cwd: repositoryRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/**
 * The example site's manifest.
 * @returns {object}
 */
export function exampleManifest() {
  const file = path.join(siteDirectory, 'bundles', 'manifest.json');
  if (!existsSync(file)) throw new Error(`${file} does not exist: run "swift run bundlepress build" first.`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * The documents of a named query in result order, as `bundlepress query NAME` prints them.
 * @param {string} name
 * @returns {string[]} document paths below the database root
 */
export function expectedQueryPaths(name) {
  return bundlepress(['query', name, '--format', 'paths']).split('\n').filter(Boolean);
}
