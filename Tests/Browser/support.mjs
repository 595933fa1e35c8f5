// Shared by the browser-side tests: where the repository, the built example site and the
// bundlepress binary are, and how to run the binary.

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentPathSegments } from '../../site/firestore-values.js';

/** The repository root (this file is Tests/Browser/support.mjs). */
export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The example site, built by `bundlepress build` from pipeline.yml. */
export const siteDirectory = path.join(repositoryRoot, 'site');

/** The bundlepress executable: $BUNDLEPRESS_BIN, or the debug build. */
export const bundlepressBinary = process.env.BUNDLEPRESS_BIN ?? path.join(repositoryRoot, '.build', 'debug', 'bundlepress');

/**
 * Runs bundlepress and returns its standard output.
 * @param {string[]} args
 * @param {{cwd?: string}} [options] the project directory (default: the repository root, the example)
 * @returns {string}
 */
export function bundlepress(args, { cwd = repositoryRoot } = {}) {
  if (!existsSync(bundlepressBinary)) {
    throw new Error(`${bundlepressBinary} does not exist: run "swift build" first (or set BUNDLEPRESS_BIN).`);
  }
  return execFileSync(bundlepressBinary, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
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
 * @param {{cwd?: string}} [options] the project directory (default: the example)
 * @returns {string[]} document paths below the database root
 */
export function expectedQueryPaths(name, { cwd = repositoryRoot } = {}) {
  return bundlepress(['query', name, '--format', 'paths'], { cwd }).split('\n').filter(Boolean);
}

let returning = null;

/**
 * A copy of the example project built twice, as a returning client meets it: between the
 * builds the newest published story is deleted from the exports and the next one unpublished
 * (`published: false`, a newer `updateTime`). So the second build's bundles that shipped them
 * carry a missing-document marker and a leaver (bundle-format.md §7;
 * docs/returning-clients.md). Built once per process in a temporary directory, removed at exit.
 * @returns {{project: string, siteDirectory: string, manifest: object, earlierManifest: object,
 *   deleted: string, unpublished: string, shippedBefore: Map<string, {paths: Set<string>, unqueried: Set<string>}>}}
 *   `deleted` and `unpublished` are document paths; `shippedBefore` maps each bundle id of the
 *   first build to the document paths it shipped, and those no named query returned (listed ones).
 */
export function returningSite() {
  if (returning !== null) return returning;
  const project = mkdtempSync(path.join(tmpdir(), 'bundlepress-returning-'));
  process.on('exit', () => rmSync(project, { recursive: true, force: true }));
  cpSync(path.join(repositoryRoot, 'pipeline.yml'), path.join(project, 'pipeline.yml'));
  cpSync(path.join(repositoryRoot, 'exports'), path.join(project, 'exports'), { recursive: true });
  const site = path.join(project, 'site');
  const manifestFile = path.join(site, 'bundles', 'manifest.json');
  bundlepress(['build', '--quiet'], { cwd: project });
  const earlierManifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  const shippedBefore = new Map(
    earlierManifest.bundles.map((entry) => {
      const contents = JSON.parse(bundlepress(['inspect', '--json', path.join(site, entry.url)]));
      const paths = (documents) => new Set(documents.map((document) => documentPath(document.metadata.name)));
      return [entry.id, { paths: paths(contents.documents), unqueried: paths(contents.documents.filter((document) => document.metadata.queries.length === 0)) }];
    }),
  );
  const [deleted, unpublished] = expectedQueryPaths('latest-stories', { cwd: project });
  const storiesFile = path.join(project, 'exports', 'stories.ndjson');
  const stories = readFileSync(storiesFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  const newest = Math.max(...stories.map((story) => Date.parse(story.updateTime)));
  const kept = stories.filter((story) => documentPath(story.name) !== deleted);
  const story = kept.find((candidate) => documentPath(candidate.name) === unpublished);
  story.fields.published = { booleanValue: false };
  story.updateTime = new Date(newest + 1000).toISOString();
  writeFileSync(storiesFile, kept.map((line) => `${JSON.stringify(line)}\n`).join(''));
  bundlepress(['build', '--quiet'], { cwd: project });
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  returning = { project, siteDirectory: site, manifest, earlierManifest, deleted, unpublished, shippedBefore };
  return returning;
}

function documentPath(name) {
  return documentPathSegments(name).join('/');
}
