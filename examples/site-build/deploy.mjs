// Copies the site `bundlepress build` published into deploy/, the folder the host publishes,
// without the .gz copies (Netlify and Cloudflare Pages compress by themselves) and dot files
// (state, lock, .bundlepress-hosting/: not for the web). Which folder the build published is
// read from its report, saved by `npm run prebuild` (`bundlepress build --json`): its
// outputDirectory is pipeline.yml's output: (or --output), so nothing here names it.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { basename } from 'node:path';

const { outputDirectory } = JSON.parse(readFileSync('bundlepress-report.json', 'utf8'));
rmSync('deploy', { recursive: true, force: true });
cpSync(outputDirectory, 'deploy', {
  recursive: true,
  filter: (source) => source === outputDirectory || !(basename(source).startsWith('.') || source.endsWith('.gz')),
});
console.log(`deploy/: ${outputDirectory} without its .gz copies and dot files`);
