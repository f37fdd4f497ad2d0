/**
 * The container recipes in deploy/, read with a Dockerfile parser (no
 * container engine runs here, so they are checked as files): each image runs
 * as a non-root user and holds only what it serves.
 */
import {spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {filesUnder} from '../../plugins/support/files';
import {DockerfileParser, type Instruction} from 'dockerfile-ast';

const ROOT = path.resolve(__dirname, '../..');

function stagesOf(file: string): Instruction[][] {
  const dockerfile = DockerfileParser.parse(readFileSync(path.join(ROOT, file), 'utf8'));
  const stages: Instruction[][] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      stages.push([]);
    }
    stages[stages.length - 1]?.push(instruction);
  }
  return stages;
}

const args = (instruction: Instruction) => instruction.getArgumentsContent() ?? '';
const all = (stage: Instruction[], keyword: string) => stage.filter((instruction) => instruction.getKeyword() === keyword).map(args);

describe('deploy/members.Dockerfile (the members site: gate + both builds)', () => {
  const stages = stagesOf('deploy/members.Dockerfile');
  const runtime = stages[stages.length - 1] ?? [];

  it('builds in one stage and runs from another', () => {
    expect(stages.length).toBe(2);
    expect(args(runtime[0] as Instruction)).toMatch(/^node:20[-\w.]*$/);
  });

  it('builds with the leak check and prunes dev dependencies before anything is copied out', () => {
    expect(all(stages[0] ?? [], 'RUN').join('\n')).toMatch(/npm run build && npm run leak-check && npm prune --omit=dev/);
  });

  it('runs as a non-root user, with node on the compiled server', () => {
    const users = all(runtime, 'USER');
    expect(users).toHaveLength(1);
    expect(users[0]).not.toMatch(/^(root|0)(:|$)/);
    const userIndex = runtime.findIndex((instruction) => instruction.getKeyword() === 'USER');
    // Nothing after USER may need root (no RUN, no COPY that writes as root after the switch).
    expect(runtime.slice(userIndex + 1).map((instruction) => instruction.getKeyword())).not.toContain('RUN');
    expect(all(runtime, 'CMD')).toEqual(['["node", "build/server/server/main.js"]']);
    expect(all(runtime, 'HEALTHCHECK')[0]).toMatch(/_portal\/health/);
  });

  it('copies only the build output and the production dependencies: no sources, no local sign-in provider', () => {
    const sources = all(runtime, 'COPY').map(
      (value) =>
        value
          .replace(/^--\S+\s+/g, '')
          .replace(/^--\S+\s+/g, '')
          .split(/\s+/)[0],
    );
    expect(sources.sort()).toEqual(
      [
        '/src/build/access-manifest.json',
        '/src/build/file-index.json',
        '/src/build/members',
        '/src/build/public',
        '/src/build/server/server',
        '/src/build/server/src',
        '/src/node_modules',
        '/src/package.json',
      ].sort(),
    );
    expect(sources.some((source) => source?.includes('scripts'))).toBe(false);
  });

  it('keeps this machine out of the build context', () => {
    const ignored = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'build']));
  });
});

describe('deploy/Dockerfile (the public site: nginx, static)', () => {
  const [stage = []] = stagesOf('deploy/Dockerfile');

  it('serves only the public build, never build/members', () => {
    const copies = all(stage, 'COPY').join('\n');
    expect(copies).toMatch(/build\/public/);
    expect(copies).not.toMatch(/members/);
  });
});

describe('.github/workflows/deploy.yml (GitHub Pages)', () => {
  const workflow = readFileSync(path.join(ROOT, '.github/workflows/deploy.yml'), 'utf8');
  /** The `run: |` block of the step with this name, unindented. */
  const runOf = (stepName: string): string => {
    const lines = workflow.split('\n');
    const start = lines.findIndex((line) => line.trim() === `- name: ${stepName}`);
    const run = lines.findIndex((line, index) => index > start && /^\s+run: \|$/.test(line));
    expect([start, run].every((index) => index > 0)).toBe(true);
    const indent = /^\s*/.exec(lines[run + 1] ?? '')?.[0].length ?? 0;
    const body: string[] = [];
    for (const line of lines.slice(run + 1)) {
      if (line.trim() !== '' && (/^\s*/.exec(line)?.[0].length ?? 0) < indent) {
        break;
      }
      body.push(line.slice(indent));
    }
    return body.join('\n');
  };

  it("uploads the public build without the gate's and nginx's server files (_headers, _headers.json, _nginx/)", () => {
    const upload = /uses: actions\/upload-pages-artifact@\S+\n\s+with:\n(?:\s+#.*\n)*\s+path: (\S+)/.exec(workflow);
    const uploaded = upload?.[1] ?? '';
    expect(uploaded).not.toBe('');
    expect(uploaded).not.toMatch(/^build\//);
    // Run the step that fills the upload folder on a build with every kind of server file.
    const work = mkdtempSync(path.join(os.tmpdir(), 'portal-pages-'));
    try {
      for (const file of [
        'index.html',
        'docs/intro/index.html',
        'assets/js/main.1234.js',
        '_headers',
        '_headers.json',
        '_nginx/security-headers.conf',
      ]) {
        mkdirSync(path.dirname(path.join(work, 'build/public', file)), {recursive: true});
        writeFileSync(path.join(work, 'build/public', file), file);
      }
      const result = spawnSync('bash', ['-e', '-c', runOf('Copy the public build without server files')], {cwd: work, encoding: 'utf8'});
      expect(result.status).toBe(0);
      expect(
        filesUnder(path.join(work, uploaded))
          .map(({relative}) => relative)
          .sort(),
      ).toEqual(['assets/js/main.1234.js', 'docs/intro/index.html', 'index.html'].sort());
    } finally {
      rmSync(work, {recursive: true, force: true});
    }
  });

  it('never passes a blank WORKOS_CLIENT_ID to the build: it is exported only when the variable is set', () => {
    expect(workflow).not.toMatch(/^\s+WORKOS_CLIENT_ID: \$\{\{/m);
    const script = runOf('Export WORKOS_CLIENT_ID when it is set');
    const exported = (value: string) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-env-'));
      const env = path.join(dir, 'env');
      writeFileSync(env, '');
      try {
        const result = spawnSync('bash', ['-e', '-c', script], {
          env: {PATH: process.env.PATH, GITHUB_ENV: env, CONFIGURED_CLIENT_ID: value},
        });
        expect(result.status).toBe(0);
        return readFileSync(env, 'utf8');
      } finally {
        rmSync(dir, {recursive: true, force: true});
      }
    };
    expect(exported('')).toBe('');
    expect(exported('client_123')).toBe('WORKOS_CLIENT_ID=client_123\n');
    // Spaces reach the build, which stops naming the variable, rather than choosing the local provider.
    expect(exported('  ')).toBe('WORKOS_CLIENT_ID=  \n');
  });
});
