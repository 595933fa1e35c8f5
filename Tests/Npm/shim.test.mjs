// npm/bin/bundlepress.js runs the binary the npm package carries as if it had been called
// directly. Each test copies the shim into a scratch package next to a fake binary (a shell
// script) and checks what the caller of the shim sees: arguments, streams, exit statuses,
// signals, and the errors on a platform the package has no binary for.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'bundlepress-npm-shim-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * What the fake binary does, by its first argument. It is a Node script rather than a shell
 * script so that its signal handling is Node's (inherited dispositions reset at start, handlers
 * run at once), not a shell's (a trap waits for the foreground command to end).
 */
const fakeBinary = `#!${process.execPath}
const [command, ...rest] = process.argv.slice(2);
switch (command) {
  case 'args':
    for (const a of rest) process.stdout.write('[' + a + ']\\n');
    break;
  case 'cat':
    process.stdin.pipe(process.stdout);
    process.stdin.on('end', () => process.stderr.write('to stderr\\n'));
    break;
  case 'exit':
    process.exitCode = Number(rest[0]);
    break;
  case 'die':
    process.kill(process.pid, 'SIG' + rest[0]);
    setTimeout(() => {}, 5000);
    break;
  case 'trap': {
    // Counts the signals that reach it: the first one, then a little longer to see whether a
    // second copy arrives; 5 s at most for the first.
    let count = 0;
    for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGUSR1']) {
      process.on(signal, () => {
        if (count++ === 0) setTimeout(() => process.exit(40 + count), 500);
        process.stdout.write('got ' + signal.slice(3) + '\\n');
      });
    }
    setTimeout(() => process.exit(40), 5000);
    process.stdout.write('ready\\n');
    break;
  }
}
`;

let packages = 0;
/** A scratch copy of the npm package: the shim, and the fake binary unless `binary` is false. */
function makePackage({ binary = true, shebang } = {}) {
  const root = path.join(scratch, `package-${++packages}`);
  mkdirSync(path.join(root, 'bin'), { recursive: true });
  copyFileSync(path.join(repositoryRoot, 'npm', 'bin', 'bundlepress.js'), path.join(root, 'bin', 'bundlepress.js'));
  if (binary) {
    const native = path.join(root, 'native', 'linux-x64');
    mkdirSync(native, { recursive: true });
    const file = path.join(native, 'bundlepress');
    writeFileSync(file, shebang === undefined ? fakeBinary : `${shebang}\n`);
    chmodSync(file, 0o755);
  }
  return path.join(root, 'bin', 'bundlepress.js');
}

/**
 * Runs `node shim args…`; resolves to its exit code or signal and output. `onStdout` sees each
 * chunk of standard output with the child, to send it signals at the right moment.
 */
function runShim(shim, args, { input = '', nodeOptions = [], onStdout } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeOptions, shim, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      onStdout?.(stdout, child);
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(input);
  });
}

test('passes the arguments on verbatim', async () => {
  const args = ['build', '--config', 'my site/pipeline.yml', '', '--', '-x', 'Zürich 😀', '$HOME', '*'];
  const result = await runShim(makePackage(), ['args', ...args]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, args.map((a) => `[${a}]\n`).join(''));
});

test('passes standard input, output and error through', async () => {
  const result = await runShim(makePackage(), ['cat'], { input: 'line one\nline two\n' });
  assert.equal(result.code, 0);
  assert.equal(result.stdout, 'line one\nline two\n');
  assert.equal(result.stderr, 'to stderr\n');
});

test('exits with the exit status of the binary', async () => {
  const shim = makePackage();
  for (const status of [0, 1, 3, 64, 75, 78]) {
    const result = await runShim(shim, ['exit', String(status)]);
    assert.deepEqual([result.code, result.signal], [status, null], `exit ${status}`);
  }
});

test('dies by the signal that ended the binary', async () => {
  const shim = makePackage();
  for (const signal of ['SIGTERM', 'SIGKILL', 'SIGINT']) {
    const result = await runShim(shim, ['die', signal.slice(3)]);
    assert.deepEqual([result.code, result.signal], [null, signal], signal);
  }
});

test('passes SIGTERM, SIGHUP, SIGUSR1 and (off a terminal) SIGINT on to the binary, once', async () => {
  const shim = makePackage();
  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGUSR1', 'SIGINT']) {
    let sent = false;
    const result = await runShim(shim, ['trap'], {
      onStdout: (stdout, child) => {
        if (!sent && stdout.includes('ready\n')) {
          sent = true;
          child.kill(signal);
        }
      },
    });
    assert.equal(result.stdout, `ready\ngot ${signal.slice(3)}\n`, signal);
    assert.deepEqual([result.code, result.signal], [41, null], `${signal}: the binary saw it exactly once`);
  }
});

test('Ctrl-C on a terminal reaches the binary once, from the terminal', async () => {
  // script(1) runs the shim on a pseudo-terminal; ^C written to it makes the terminal send
  // SIGINT to the foreground process group: the shim and the binary both. The shell script(1)
  // starts ($SHELL, or sh when it is unset) execs the shim: a shell left waiting in that group
  // would get the ^C too, and sh (dash) then dies of it, whatever its child does.
  const shim = makePackage();
  const result = await new Promise((resolve, reject) => {
    const command = `exec '${process.execPath}' '${shim}' trap`;
    const child = spawn('script', ['-qec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('ready') && !stdout.includes('^C')) child.stdin.write('\x03');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
  assert.equal(result.stdout.match(/got INT/g)?.length, 1, result.stdout);
  assert.equal(result.code, 41, 'the binary saw SIGINT exactly once');
});

test('names the supported platforms on another platform', async () => {
  const preload = path.join(scratch, 'darwin.cjs');
  writeFileSync(preload, "Object.defineProperty(process, 'platform', { value: 'darwin' });\n");
  const result = await runShim(makePackage(), ['--version'], { nodeOptions: ['--require', preload] });
  assert.equal(result.code, 126);
  assert.match(result.stderr, new RegExp(`no binary for darwin-${process.arch} in this package \\(it has: linux-x64\\)`));
  assert.match(result.stderr, /build it from source/);
});

test('says why when the binary cannot be started', async () => {
  const missing = await runShim(makePackage({ binary: false }), ['--version']);
  assert.equal(missing.code, 126);
  assert.match(missing.stderr, /cannot run .*native\/linux-x64\/bundlepress: spawn .* ENOENT/);

  // What a musl system (Alpine) does with a glibc binary: the file is there, its interpreter is not.
  const noInterpreter = await runShim(makePackage({ shebang: '#!/nonexistent/ld-linux-x86-64.so.2' }), ['--version']);
  assert.equal(noInterpreter.code, 126);
  assert.match(noInterpreter.stderr, /this system has no glibc/);
  assert.match(noInterpreter.stderr, /not on musl \(Alpine\)/);
});
