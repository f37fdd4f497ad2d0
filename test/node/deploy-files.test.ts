/**
 * The container recipes in deploy/, read with a Dockerfile parser (no
 * container engine runs here, so they are checked as files): each image runs
 * as a non-root user and holds only what it serves.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
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
