#!/usr/bin/env node
// Runs the fuzzers (core-cpp/fuzz/README.md): the libFuzzer targets of the sanitizer build
// (build/asan) and the link decoder's mutation fuzzer (web/share/link.fuzz.test.ts).
//
//   npm run fuzz                                   # every target, 60 s each
//   npm run fuzz -- --seconds N --target NAME      # one target (scenario, set, access_log, link)
//   npm run fuzz -- --faults                       # a model fault in a capped run is a finding too
//
// Seeds are generated from the presets at each run (build/fuzz/seeds/<target>/); what libFuzzer
// learns stays in build/fuzz/corpus/<target>/; crashes, timeouts and out-of-memory inputs go to
// build/fuzz/findings/<target>/. The committed crashes (core-cpp/fuzz/crashes/<target>/) are
// replayed first. Exit status 1 when a target finds something or cannot run.
//
// As a module: `await runFuzz({ seconds, targets, fresh, output })` → [{target, execs,
// findings, ok, note}], which `npm test` uses for its short run (fresh: an empty corpus).

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { ensureTools, EnsureToolsError, repoRoot } from './ensure-tools.mjs';
import { buildNative, SANITIZE } from './native.mjs';

export const NATIVE_TARGETS = ['scenario', 'set', 'access_log'];
export const TARGETS = [...NATIVE_TARGETS, 'link'];

const fuzzDir = path.join(repoRoot, 'build', 'fuzz');
const asanBin = (name) => path.join(repoRoot, SANITIZE.dir, name);
const sourceDir = path.join(repoRoot, 'core-cpp', 'fuzz');
const scenariosDir = path.join(repoRoot, 'scenarios');

function presets() {
  return readdirSync(scenariosDir)
    .filter((f) => f.endsWith('.json') && !f.includes('.schema.'))
    .sort()
    .map((f) => ({ id: f.slice(0, -5), text: readFileSync(path.join(scenariosDir, f), 'utf8') }));
}

/** The parameter registry, from the sanitized CLI (so seeds follow the core, not a copy). */
function parameters() {
  const r = spawnSync(asanBin('nicsim'), ['--list-parameters'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  try {
    return JSON.parse(r.stdout);
  } catch {
    return [];
  }
}

/** Flattens a scenario's system/workload/run sections to path → value. */
function flatParams(doc) {
  const out = {};
  const walk = (v, p) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      for (const [k, x] of Object.entries(v)) walk(x, `${p}.${k}`);
    } else out[p] = v;
  };
  for (const section of ['system', 'workload', 'run'])
    if (doc[section]) walk(doc[section], section);
  return out;
}

const setLine = (p, v) => `${p}=${typeof v === 'string' ? v : JSON.stringify(v)}`;

/** Seeds of each native target, written afresh to build/fuzz/seeds/<target>/. */
function writeSeeds(params) {
  const all = presets();
  const seeds = { scenario: [], set: [], access_log: [] };
  for (const p of all) {
    seeds.scenario.push([`${p.id}.json`, p.text]);
    let doc;
    try {
      doc = JSON.parse(p.text);
    } catch {
      continue;
    }
    // --set: the preset's own values, then what its tour's questions and A/B variants change.
    const own = Object.entries(flatParams(doc)).map(([k, v]) => setLine(k, v));
    seeds.set.push([`${p.id}-own`, [p.id, ...own].join('\n')]);
    const sets = [];
    for (const step of Array.isArray(doc.tour) ? doc.tour : []) {
      if (step?.predict?.set) sets.push(step.predict.set);
    }
    for (const side of Object.values(doc.compare ?? {})) if (side?.set) sets.push(side.set);
    sets.forEach((s, i) => {
      const lines = Object.entries(s).map(([k, v]) => setLine(k, v));
      seeds.set.push([`${p.id}-set${i}`, [p.id, ...lines].join('\n')]);
    });
  }
  // Every parameter at its minimum and at its maximum (first and last choice), sixteen to a seed
  // (chosen: few seeds keep the suite's short run short; the fuzzer recombines them).
  const ends = (spec, last) =>
    spec.type === 'choice' ? spec.choices.at(last ? -1 : 0) : last ? spec.max : spec.min;
  for (let i = 0; i * 16 < params.length; i++) {
    const chunk = params.slice(i * 16, i * 16 + 16);
    const id = all[i % all.length]?.id ?? '';
    for (const last of [false, true]) {
      const lines = chunk.map((spec) => setLine(spec.path, ends(spec, last)));
      seeds.set.push([`params-${i}-${last ? 'max' : 'min'}`, [id, ...lines].join('\n')]);
    }
  }
  // Access logs: the shapes the parser takes and rejects, in Common and Combined Log Format.
  const line = (host, method, p, status, bytes, extra = '') =>
    `${host} - - [01/Jul/1995:00:00:${String(status % 60).padStart(2, '0')} -0400] "${method} ${p} HTTP/1.0" ${status} ${bytes}${extra}`;
  const lines = [];
  const paths = ['/', '/index.html', '/images/logo.gif', '/a/b/c.txt', '/cgi-bin/q', '/s?q=1'];
  for (const [i, p] of paths.entries()) {
    lines.push(line(`h${i}`, 'GET', p, 200, 1000 * (i + 1)));
    lines.push(line(`h${i}`, 'GET', p, 304, '-'));
  }
  lines.push(line('h', 'HEAD', '/x', 200, 10), line('h', 'POST', '/x', 200, 10));
  lines.push(line('h', 'GET', '/big', 200, 4294967295), line('h', 'GET', '/zero', 200, 0));
  lines.push(
    line('h', 'GET', '/c', 200, 512, ' "http://ref/" "Mozilla/5.0"'),
    'not a log line',
    '',
  );
  seeds.access_log.push(['clf', lines.join('\n')]);
  seeds.access_log.push(['crlf', lines.join('\r\n')]);
  seeds.access_log.push(['repeat', Array.from({ length: 60 }, (_, i) => lines[i % 4]).join('\n')]);

  for (const target of NATIVE_TARGETS) {
    const dir = path.join(fuzzDir, 'seeds', target);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of seeds[target]) {
      writeFileSync(path.join(dir, name.replace(/[^A-Za-z0-9._-]/g, '_')), text);
    }
  }
  return Object.fromEntries(NATIVE_TARGETS.map((t) => [t, seeds[t].length]));
}

/** The committed dictionary of a target, plus the registry's paths, choices and preset ids. */
function writeDictionary(target, params) {
  const quote = (s) =>
    `"${[...Buffer.from(String(s), 'utf8')].map((b) => (b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('')}"`;
  let text = readFileSync(path.join(sourceDir, `${target}.dict`), 'utf8');
  if (target !== 'access_log') {
    const words = new Set();
    for (const spec of params) {
      words.add(target === 'set' ? `${spec.path}=` : `"${spec.path.split('.').pop()}"`);
      for (const c of spec.choices ?? []) words.add(target === 'set' ? c : JSON.stringify(c));
    }
    if (target === 'set') for (const p of presets()) words.add(p.id);
    text += `\n# generated by fuzz.mjs\n${[...words].map(quote).join('\n')}\n`;
  }
  const file = path.join(fuzzDir, `${target}.dict`);
  writeFileSync(file, text);
  return file;
}

function listFiles(dir) {
  try {
    return readdirSync(dir).filter((f) => !f.startsWith('.') && f !== 'README.md');
  } catch {
    return [];
  }
}

/** Runs a command, its output to our stdout or stderr, keeping it. */
function run(cmd, args, { env = {}, output = 'inherit', timeoutMs } = {}) {
  const write = (d) => (output === 'stderr' ? process.stderr : process.stdout).write(d);
  write(`$ ${[cmd, ...args].join(' ')}\n`);
  return new Promise((resolve) => {
    let text = '';
    const child = spawn(cmd, args, {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const timer = timeoutMs ? setTimeout(() => child.kill('SIGKILL'), timeoutMs) : null;
    const take = (d) => {
      text += d;
      write(d);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (e) => resolve({ status: 127, text: text + String(e) }));
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ status: code ?? (signal ? 128 : 1), text });
    });
  });
}

async function fuzzNative(target, seconds, { faults, output, params, fresh }) {
  const bin = asanBin(`fuzz/nicsim_fuzz_${target}`);
  const crashes = path.join(sourceDir, 'crashes', target);
  const findings = path.join(fuzzDir, 'findings', target);
  // What libFuzzer learns is kept for the next `npm run fuzz`; the suite starts afresh each time
  // (its time then does not grow with the corpus).
  const corpus = path.join(fuzzDir, fresh ? 'suite-corpus' : 'corpus', target);
  if (fresh) rmSync(corpus, { recursive: true, force: true });
  mkdirSync(findings, { recursive: true });
  mkdirSync(corpus, { recursive: true });
  // LeakSanitizer needs ptrace, which containers often refuse; a leak is not what we look for.
  const env = {
    ASAN_OPTIONS: 'detect_leaks=0',
    ...(faults ? { NICSIM_FUZZ_FAULTS: 'abort' } : {}),
  };
  // The committed crashes first: each must now run cleanly.
  const past = listFiles(crashes).map((f) => path.join(crashes, f));
  if (past.length) {
    const r = await run(bin, past, { env, output });
    if (r.status !== 0) {
      return { target, execs: 0, findings: [], ok: false, note: 'a committed crash fails again' };
    }
  }
  const before = new Set(listFiles(findings));
  const r = await run(
    bin,
    [
      `-max_total_time=${seconds}`,
      // chosen: a capped run takes milliseconds (a web trace's first generation a second or two
      // under the sanitizers); a minute, even on a busy machine, means a loop.
      '-timeout=60',
      '-report_slow_units=60',
      '-rss_limit_mb=2560',
      '-print_final_stats=1',
      `-dict=${writeDictionary(target, params)}`,
      `-artifact_prefix=${findings}/`,
      corpus,
      path.join(fuzzDir, 'seeds', target),
    ],
    { env, output, timeoutMs: (seconds + 600) * 1000 },
  );
  const execs = Number(/stat::number_of_executed_units:\s*(\d+)/.exec(r.text)?.[1] ?? 0);
  // crash-, timeout-, oom- and leak- files (slow units are not kept: -report_slow_units).
  const found = listFiles(findings)
    .filter((f) => !before.has(f) && !f.startsWith('slow-unit-'))
    .map((f) => path.relative(repoRoot, path.join(findings, f)));
  const ok = r.status === 0 && found.length === 0;
  const note = found.length
    ? `found: ${found.join(', ')}`
    : r.status !== 0
      ? `exit ${r.status}`
      : '';
  return { target, execs, findings: found, ok, note };
}

async function fuzzLink(seconds, { output }) {
  const vitest = path.join(repoRoot, 'node_modules', '.bin', 'vitest');
  const r = await run(vitest, ['run', 'web/share/link.fuzz.test.ts'], {
    env: { NICSIM_FUZZ_SECONDS: String(seconds) },
    output,
  });
  const execs = Number(/link fuzz: (\d+) links/.exec(r.text)?.[1] ?? 0);
  const found = /reproducer: (\S+)/.exec(r.text)?.[1];
  return {
    target: 'link',
    execs,
    findings: found ? [found] : [],
    ok: r.status === 0,
    note: r.status === 0 ? '' : `vitest exited ${r.status}`,
  };
}

/** Builds what is needed and runs each target for `seconds`. */
export async function runFuzz({
  seconds = 60,
  targets = TARGETS,
  faults = false,
  fresh = false,
  output = 'inherit',
} = {}) {
  const native = targets.filter((t) => NATIVE_TARGETS.includes(t));
  let params = [];
  const results = [];
  if (native.length) {
    const status = buildNative({
      build: SANITIZE,
      targets: ['nicsim', ...native.map((t) => `nicsim_fuzz_${t}`)],
      output: output === 'inherit' ? 'inherit' : 'quiet',
    });
    if (status !== 0) {
      return native.map((t) => ({
        target: t,
        execs: 0,
        findings: [],
        ok: false,
        note: 'build failed',
      }));
    }
    mkdirSync(fuzzDir, { recursive: true });
    params = parameters();
    writeSeeds(params);
  }
  for (const t of targets) {
    if (t === 'link') results.push(await fuzzLink(seconds, { output }));
    else results.push(await fuzzNative(t, seconds, { faults, output, params, fresh }));
  }
  return results;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let seconds = 60;
  let targets = TARGETS;
  let faults = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--seconds' && /^\d+$/.test(args[i + 1] ?? '')) seconds = Number(args[++i]);
    else if (a === '--target' && TARGETS.includes(args[i + 1])) targets = [args[++i]];
    else if (a === '--faults') faults = true;
    else {
      process.stderr.write(
        `usage: npm run fuzz -- [--seconds N] [--target ${TARGETS.join('|')}] [--faults]\n`,
      );
      process.exit(a === '--help' || a === '-h' ? 0 : 2);
    }
  }
  try {
    await ensureTools(['sanitize', 'npm'], { quiet: true });
  } catch (e) {
    if (!(e instanceof EnsureToolsError)) throw e;
    process.stderr.write(`fuzz: ${e.message}\n`);
    process.exit(1);
  }
  const results = await runFuzz({ seconds, targets, faults });
  process.stdout.write('\nfuzz summary\n');
  for (const r of results) {
    process.stdout.write(
      `  ${r.ok ? 'ok  ' : 'FAIL'} ${r.target.padEnd(11)} ${String(r.execs).padStart(9)} inputs` +
        (r.note ? `   (${r.note})` : '') +
        '\n',
    );
  }
  if (results.some((r) => r.findings.length)) {
    process.stdout.write(
      '\nOnce fixed, copy each reproducer to core-cpp/fuzz/crashes/<target>/ (ctest replays it).\n',
    );
  }
  process.exitCode = results.every((r) => r.ok) ? 0 : 1;
}
