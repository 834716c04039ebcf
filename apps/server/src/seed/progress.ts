import type { SeedProgress } from './community.ts';

const BAR_WIDTH = 30;
const count = (n: number) => n.toLocaleString('en-US');

/** One line saying how far a seed has come: counts, elapsed time and the rate so far. */
export function describeProgress({ step, done, total, seconds }: SeedProgress): string {
  if (step === 'vacuum') {
    return done < total
      ? `vacuum analyze (statistics for the planner)...`
      : `vacuum analyze done at ${seconds.toFixed(0)} s`;
  }
  const rate = seconds > 0 ? Math.round(done / seconds) : 0;
  return `questions ${count(done)} / ${count(total)} in ${seconds.toFixed(0)} s (${count(rate)} per second)`;
}

/**
 * Prints a seed's progress: on a terminal one line redrawn with a bar, elsewhere (CI, a
 * log file) one line per step, so a long seed never runs in silence.
 */
export function progressPrinter(stream: NodeJS.WriteStream = process.stdout): (progress: SeedProgress) => void {
  return (progress) => {
    const text = describeProgress(progress);
    if (!stream.isTTY) {
      stream.write(`${text}\n`);
      return;
    }
    const filled = progress.total > 0 ? Math.round((progress.done / progress.total) * BAR_WIDTH) : 0;
    const bar = `[${'#'.repeat(filled)}${' '.repeat(BAR_WIDTH - filled)}]`;
    stream.write(`\r${bar} ${text}\x1b[K`);
    if (progress.step === 'vacuum' && progress.done === progress.total) stream.write('\n');
  };
}
