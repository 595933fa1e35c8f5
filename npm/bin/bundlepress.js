#!/usr/bin/env node
// Runs the native bundlepress binary that this package carries, as if it had been called
// directly: the same arguments, standard streams, exit status, and death by the same signal.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** Platforms (`process.platform-process.arch`) this package carries a binary for. */
const SUPPORTED = ['linux-x64'];

/** The shell's status for a command that was found but cannot be executed. */
const CANNOT_EXECUTE = 126;

/**
 * Signals passed on to the binary. SIGINT and SIGQUIT come from the keyboard when the shim runs
 * on a terminal: the terminal sends them to the whole foreground process group, the binary
 * included, so passing them on as well would deliver them twice (and a second SIGINT makes
 * `bundlepress serve` stop at once instead of gracefully).
 */
const FORWARDED = ['SIGTERM', 'SIGHUP', 'SIGUSR1', 'SIGUSR2'];
const KEYBOARD = ['SIGINT', 'SIGQUIT'];

const platform = `${process.platform}-${process.arch}`;
const fromTerminal = Boolean(process.stdin.isTTY);

function fail(message) {
  process.stderr.write(`bundlepress: ${message}\n`);
  process.exit(CANNOT_EXECUTE);
}

const requirements =
  'The bundlepress npm package runs on Linux x86-64 with glibc (the README\'s "Install" ' +
  'section lists the minimum version and the build images it covers), not on musl (Alpine). ' +
  'Elsewhere, build it from source with Swift 6: `swift build -c release`.';

if (!SUPPORTED.includes(platform)) {
  fail(`no binary for ${platform} in this package (it has: ${SUPPORTED.join(', ')}). ${requirements}`);
}

// The handlers go in first: a signal that arrives just after the spawn (the binary may already
// be running when this process gets its next time slice) must not end this process instead.
let child;
const handlers = new Map();
for (const signal of [...FORWARDED, ...KEYBOARD]) {
  const handler = () => {
    if (!(fromTerminal && KEYBOARD.includes(signal))) child.kill(signal);
  };
  handlers.set(signal, handler);
  process.on(signal, handler);
}

const binary = path.join(__dirname, '..', 'native', platform, 'bundlepress');
child = spawn(binary, process.argv.slice(2), { stdio: 'inherit' });

child.on('error', (error) => {
  const reason = error.code === 'ENOENT' && fs.existsSync(binary)
    ? 'its ELF interpreter /lib64/ld-linux-x86-64.so.2 is missing: this system has no glibc'
    : error.message;
  fail(`cannot run ${binary}: ${reason}. ${requirements}`);
});

child.on('exit', (code, signal) => {
  if (code !== null) process.exit(code);
  // Die by the same signal, so the caller (a shell, npm, a CI runner) sees what really happened.
  for (const [name, handler] of handlers) process.removeListener(name, handler);
  process.kill(process.pid, signal);
  // A signal whose default action is not to end a process: end the way a shell reports it.
  process.exit(128 + os.constants.signals[signal]);
});
