import {
  AWS_ACCOUNTS,
  ENVIRONMENTS,
  FEATURE_FLAG_SCHEMA,
  QUEUES,
  QUEUE_RETENTION,
  SERVICES,
  featureFlagAreas,
  libraryById,
} from '../../src/data/platform';

describe('platform data of the issue-31 guides', () => {
  it('has one AWS account per environment plus shared, each with a distinct 12-digit id and an acme-<name> profile', () => {
    expect(AWS_ACCOUNTS.map((account) => account.name).sort()).toEqual(
      ['shared', ...ENVIRONMENTS.map((environment) => environment.name)].sort(),
    );
    for (const account of AWS_ACCOUNTS) {
      expect(account.id).toMatch(/^\d{12}$/);
      expect(account.profile).toBe(`acme-${account.name}`);
    }
    expect(new Set(AWS_ACCOUNTS.map((account) => account.id)).size).toBe(AWS_ACCOUNTS.length);
  });

  it('names flag keys after the area of a product service, and the example follows the pattern', () => {
    const areas = featureFlagAreas().map(({area}) => area);
    expect(areas).toContain('kira');
    expect(areas).not.toContain('admin');
    expect(FEATURE_FLAG_SCHEMA.example).toMatch(FEATURE_FLAG_SCHEMA.keyRegex);
    expect(areas.some((area) => FEATURE_FLAG_SCHEMA.example.startsWith(`${area}-`))).toBe(true);
    expect(() => libraryById(FEATURE_FLAG_SCHEMA.keysLibrary)).not.toThrow();
    expect(() => libraryById(FEATURE_FLAG_SCHEMA.readerLibrary)).not.toThrow();
  });

  it('gives every queue one worker in a stateful service, with a positive concurrency', () => {
    expect(new Set(QUEUES.map((queue) => queue.name)).size).toBe(QUEUES.length);
    for (const queue of QUEUES) {
      const service = SERVICES.find((candidate) => candidate.id === queue.service);
      expect(service?.database).toBeTruthy();
      expect(Number.isInteger(queue.concurrency) && queue.concurrency > 0).toBe(true);
    }
  });

  it('keeps screening-jobs the default of SCREENING_QUEUE, which its producers use', () => {
    const screening = SERVICES.find((service) => service.id === 'cleverscreen-service');
    const variable = screening?.env.find((candidate) => candidate.name === 'SCREENING_QUEUE');
    expect(QUEUES.find((queue) => queue.service === 'cleverscreen-service')?.name).toBe(variable?.localDefault);
  });

  it('keeps failed jobs at least as long as completed ones', () => {
    expect(QUEUE_RETENTION.failed.ageSeconds).toBeGreaterThanOrEqual(QUEUE_RETENTION.completed.ageSeconds);
  });
});
