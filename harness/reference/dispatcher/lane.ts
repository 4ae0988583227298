// A FIFO lane: runs its jobs one after another, each to its end (delivered or
// dropped) before the next starts. One lane per checkout gives spec 6.8 ("an
// event is not delivered until the previous one is acknowledged") without any
// checkout waiting for another (6.9); the `webhook-global-queue` fault puts
// every checkout in one lane.

export class Lane {
  private readonly jobs: Array<() => Promise<void>> = [];
  private running = false;

  constructor(private readonly onEmpty: () => void = () => {}) {}

  push(job: () => Promise<void>): void {
    this.jobs.push(job);
    if (!this.running) void this.drain();
  }

  get busy(): boolean {
    return this.running;
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      // Jobs settle their own failures; a throw here is a bug, reported but not allowed to stall the lane.
      for (let job = this.jobs.shift(); job; job = this.jobs.shift())
        await job().catch(e => { process.emitWarning(`webhook dispatcher job failed: ${(e as Error)?.stack ?? e}`); });
    } finally {
      this.running = false;
      this.onEmpty();
    }
  }
}
