// The items a host's agent sends during one job (a scan's or verify's entries, an apply's result),
// checked before the Session keeps anything by their id (issue 26): the agent decides the ids, so a
// broken or hostile one could send endless items for destinations it never listed and grow the
// workspace's maps without bound. One item per listed destination is kept; the first other one is
// dropped and ends that host's part of the job as agent_protocol, naming the host and the id. Pure.
// Must never let a job keep more items than the destinations it was asked about.

import { fail, type ApiFailure } from '../../shared/apiError';

export class HostItemGuard {
  private readonly seen = new Set<string>();
  private failure: ApiFailure | undefined;

  /** `method`: the job's name in messages (scan, verify, apply); `listed`: the host's own ids of the destinations it is about. */
  constructor(
    private readonly host: string,
    private readonly method: string,
    private readonly listed: ReadonlySet<string>,
  ) {}

  /** True when the item for `id` (the host's own id) may be kept; false when it is dropped (`refusal` says why). */
  admit(id: unknown): boolean {
    if (this.failure) return false;
    const shown = JSON.stringify(String(id).slice(0, 80));
    if (typeof id !== 'string' || !this.listed.has(id))
      this.failure = this.refuse(
        `${this.article} ${this.method} result for ${shown}, a destination it was not asked about (${this.listedText()})`,
        id,
      );
    else if (this.seen.has(id)) this.failure = this.refuse(`a second ${this.method} result for ${shown} in one job`, id);
    else this.seen.add(id);
    return this.failure === undefined;
  }

  /** Why an item was dropped (the first such item), once one was. */
  get refusal(): ApiFailure | undefined {
    return this.failure;
  }

  private get article(): string {
    return /^[aeiou]/.test(this.method) ? 'an' : 'a';
  }

  private listedText(): string {
    const count = this.listed.size;
    return `it listed ${count.toLocaleString('en-US')} for it`;
  }

  private refuse(what: string, id: unknown): ApiFailure {
    return fail(
      'agent_protocol',
      `${this.host}: the agent sent ${what}: it was dropped and this host's part of the job ends as failed, its outcome ` +
        'unknown here (inspect that host again). That agent is broken or not the distributor-inspector agent: check what runs there as the agent (its --version).',
      { host: this.host, method: this.method, field: 'destination', destination: String(id).slice(0, 80) },
    );
  }
}
