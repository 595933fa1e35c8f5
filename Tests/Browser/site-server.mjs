// Starts `bundlepress serve` on 127.0.0.1 with a free port and learns its URL from the line it
// prints ("Serving DIR at http://127.0.0.1:PORT/").

import { spawn } from 'node:child_process';
import { bundlepressBinary } from './support.mjs';

const SERVING = /Serving .* at (http:\/\/127\.0\.0\.1:\d+)\/?/;

/**
 * Serves `directory`. The command is `bundlepress serve`, or $BUNDLEPRESS_SERVE_CMD (words
 * separated by spaces) for another server that takes the same options and prints the same line.
 * `options.args` come before the others (e.g. `['--watch', '--config', file]`).
 * @param {string} directory
 * @param {{timeoutMs?: number, args?: string[]}} [options]
 * @returns {Promise<{url: string, stop: () => Promise<void>, kill: () => void, output: () => {stdout: string, stderr: string}}>} `url` ends with `/`
 */
export function startServer(directory, { timeoutMs = 20000, args = [] } = {}) {
  const [command, ...prefix] = (process.env.BUNDLEPRESS_SERVE_CMD ?? `${bundlepressBinary} serve`).split(/\s+/).filter(Boolean);
  const child = spawn(command, [...prefix, ...args, '--dir', directory, '--host', '127.0.0.1', '--port', '0', '--quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.on('close', resolve));
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const kill = () => child.kill('SIGKILL');
  return new Promise((resolve, reject) => {
    const fail = (reason) => {
      clearTimeout(timer);
      kill();
      reject(new Error(`the server (${[command, ...prefix].join(' ')}) did not start: ${reason}\nstdout: ${stdout}\nstderr: ${stderr}`));
    };
    const timer = setTimeout(() => fail(`no "Serving … at http://127.0.0.1:PORT/" line within ${timeoutMs / 1000} s`), timeoutMs);
    child.on('error', (error) => fail(error.message));
    child.on('exit', (code, signal) => fail(`it exited (${signal ?? code})`));
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = SERVING.exec(stdout);
      if (match) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({ url: `${match[1]}/`, stop, kill, output: () => ({ stdout, stderr }) });
      }
    });
  });
}
