// A minimal Chrome DevTools Protocol client over --remote-debugging-pipe (no WebSocket, no
// dependencies): Chromium reads commands on fd 3 and writes replies and events on fd 4, each
// a JSON message followed by a NUL byte.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A headless Chromium driven over the DevTools protocol. */
export class Browser {
  #process;
  #profile;
  #nextId = 1;
  #pending = new Map();
  #listeners = new Set();
  #buffer = Buffer.alloc(0);
  #exited;

  /**
   * Starts Chromium headless in a throw-away profile.
   * @param {{executable?: string, windowSize?: string}} [options]
   * @returns {Browser}
   */
  static launch({ executable = process.env.CHROMIUM ?? 'chromium', windowSize = '1280,900' } = {}) {
    return new Browser(executable, windowSize);
  }

  constructor(executable, windowSize) {
    this.#profile = mkdtempSync(path.join(tmpdir(), 'bundlepress-chromium-'));
    const args = [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-extensions',
      '--disable-background-networking',
      '--no-first-run',
      '--no-default-browser-check',
      '--remote-debugging-pipe',
      `--user-data-dir=${this.#profile}`,
      `--window-size=${windowSize}`,
      'about:blank',
    ];
    this.#process = spawn(executable, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.#process.stderr.on('data', (chunk) => {
      this.stderr = (this.stderr + chunk).slice(-20000);
    });
    this.#exited = new Promise((resolve) => {
      this.#process.on('error', (error) => {
        this.#failAll(new Error(`cannot start ${executable}: ${error.message}`));
        resolve();
      });
      this.#process.on('exit', (code, signal) => {
        this.#failAll(new Error(`Chromium exited (${signal ?? code}); its last output: ${this.stderr.slice(-2000)}`));
        resolve();
      });
    });
    this.#process.stdio[4].on('data', (chunk) => this.#receive(chunk));
    // A write after Chromium died fails here; the pending command is rejected by 'exit'.
    this.#process.stdio[3].on('error', () => {});
  }

  #receive(chunk) {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    for (let end = this.#buffer.indexOf(0); end >= 0; end = this.#buffer.indexOf(0)) {
      const message = JSON.parse(this.#buffer.subarray(0, end).toString('utf8'));
      this.#buffer = this.#buffer.subarray(end + 1);
      const pending = this.#pending.get(message.id);
      if (pending) {
        this.#pending.delete(message.id);
        if (message.error) pending.reject(new Error(`${pending.method}: ${message.error.message}`));
        else pending.resolve(message.result);
      } else if (message.method) {
        for (const listener of this.#listeners) listener(message);
      }
    }
  }

  #failAll(error) {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  /**
   * Sends a command and waits for its result.
   * @param {string} method e.g. `Page.navigate`
   * @param {object} [params]
   * @param {string} [sessionId] the page session (from `Target.attachToTarget`)
   * @returns {Promise<object>}
   */
  send(method, params = {}, sessionId = undefined) {
    const id = this.#nextId++;
    const message = JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) });
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, method });
      this.#process.stdio[3].write(`${message}\0`);
    });
  }

  /**
   * Calls `listener` with every event (`{method, params, sessionId}`).
   * @param {(event: object) => void} listener
   */
  onEvent(listener) {
    this.#listeners.add(listener);
  }

  /**
   * Opens a page and returns its session id, with the Page, Runtime, Network and Log domains on.
   * @returns {Promise<string>}
   */
  async newPage() {
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
    for (const domain of ['Page', 'Runtime', 'Network', 'Log']) await this.send(`${domain}.enable`, {}, sessionId);
    return sessionId;
  }

  /**
   * Evaluates an expression in the page and returns its value (awaiting promises).
   * @param {string} sessionId
   * @param {string} expression
   * @returns {Promise<unknown>}
   */
  async evaluate(sessionId, expression) {
    const { result, exceptionDetails } = await this.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId);
    if (exceptionDetails) throw new Error(`in the page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value;
  }

  /**
   * Opens `url` in a new page, waits until the page sets `window.ready = true`, evaluates
   * `window.visit(argument)` there (`argument` as JSON), closes the page and returns the result:
   * one visit of an app, as a user opening it again would make.
   * @param {string} url
   * @param {unknown} argument
   * @returns {Promise<unknown>}
   */
  async visit(url, argument) {
    const { targetId } = await this.send('Target.createTarget', { url });
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
    await this.send('Runtime.enable', {}, sessionId);
    for (let tries = 0; !(await this.evaluate(sessionId, 'window.ready === true')); tries += 1) {
      if (tries > 200) throw new Error(`the page ${url} did not set window.ready`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const result = await this.evaluate(sessionId, `window.visit(${JSON.stringify(argument)})`);
    await this.send('Target.closeTarget', { targetId });
    return result;
  }

  /** Stops Chromium at once (for a watchdog) and removes its profile. */
  kill() {
    this.#process.kill('SIGKILL');
    rmSync(this.#profile, { recursive: true, force: true });
  }

  /** Closes Chromium and removes its profile. */
  async close() {
    if (this.#process.exitCode === null && this.#process.signalCode === null) {
      this.send('Browser.close').catch(() => {});
      const timer = setTimeout(() => this.#process.kill('SIGKILL'), 5000);
      await this.#exited;
      clearTimeout(timer);
    }
    rmSync(this.#profile, { recursive: true, force: true });
  }
}
