// Long Markdown posts full of code, for the bench's Markdown question page and for
// bench/render-location.ts: a question and ten answers of prose, lists, a table and
// fenced blocks in several languages (about 4,300 characters an answer), the same every run.

const SNIPPETS: Array<[string, string]> = [
  [
    'ts',
    `interface Porpoise {
  id: number;
  name: string;
  pod?: string;
}

export async function loadPod(ids: readonly number[]): Promise<Porpoise[]> {
  const found = await Promise.all(ids.map((id) => fetch(\`/api/porpoise/\${id}\`)));
  return Promise.all(found.filter((res) => res.ok).map((res) => res.json() as Promise<Porpoise>));
}

// Sort by name, then by id, without mutating the input.
export const byName = (pod: Porpoise[]) =>
  [...pod].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);`,
  ],
  [
    'python',
    `from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class Sighting:
    name: str
    depth: float  # metres


def deepest(sightings: Iterable[Sighting], limit: int = 3) -> list[Sighting]:
    """The deepest sightings first; ties keep their order."""
    return sorted(sightings, key=lambda s: s.depth, reverse=True)[:limit]


if __name__ == "__main__":
    print(deepest([Sighting("finn", 12.5), Sighting("pip", 30.0)]))`,
  ],
  [
    'sql',
    `-- Questions per tag in the last 30 days, busiest first.
select t.name, count(*) as asked
from question_tags qt
join tags t on t.id = qt.tag_id
where qt.ask_date_time > now() - interval '30 days'
  and not qt.deleted
group by t.name
having count(*) > 10
order by asked desc, t.name
limit 20;`,
  ],
  [
    'go',
    `package main

import (
	"context"
	"fmt"
	"time"
)

func ping(ctx context.Context, host string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	select {
	case <-time.After(50 * time.Millisecond):
		fmt.Println("pong from", host)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}`,
  ],
  [
    'rust',
    `use std::collections::HashMap;

#[derive(Debug, Clone)]
struct Pod {
    members: Vec<String>,
}

fn count_names(pods: &[Pod]) -> HashMap<&str, usize> {
    let mut counts = HashMap::new();
    for pod in pods {
        for name in &pod.members {
            *counts.entry(name.as_str()).or_insert(0) += 1;
        }
    }
    counts
}`,
  ],
  [
    'bash',
    `#!/usr/bin/env bash
set -euo pipefail
for file in recordings/*.wav; do
  name="$(basename "$file" .wav)"
  ffmpeg -loglevel error -i "$file" -ar 16000 "out/$name.flac" && echo "converted $name"
done`,
  ],
  [
    'json',
    `{
  "name": "porpoise-sonar",
  "version": "1.4.2",
  "scripts": { "build": "tsc -p .", "test": "vitest run" },
  "dependencies": { "zod": "^4.1.0" },
  "private": true
}`,
  ],
  [
    'css',
    `.pod-list {
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr));
  gap: 1rem;
}

.pod-list__item:focus-visible {
  outline: 3px solid #0550ae;
  outline-offset: 2px;
}`,
  ],
];

/** One long answer: prose, a list, a table and eight code blocks (every language once), chosen by `n`. */
export function markdownAnswer(n: number): string {
  // Each answer names things its own way, so the ten do not compress into one.
  const blocks = [0, 1, 2, 3, 4, 5, 6, 7]
    .map((k) => SNIPPETS[(n + k * 3) % SNIPPETS.length]!)
    .map(([language, code]): [string, string] => [
      language,
      code
        .replaceAll('pod', `pod${n}`)
        .replaceAll('name', `name_${n}`)
        .replaceAll('depth', `depth${n * 7}`),
    ]);
  return [
    `## Approach ${n + 1}`,
    '',
    `The usual cause is **shared state** between calls: each \`request\` keeps a reference to the _same_ buffer, so the second call sees the first one's data. See [the MDN guide](https://developer.mozilla.org/en-US/docs/Web/JavaScript/Guide) and https://nodejs.org/api/stream.html for the details.`,
    '',
    ...blocks.flatMap(([language, code], k) => [
      `${k + 1}. Step ${k + 1}, in ${language}: keep the \`${language}\` version small and test it alone.`,
      '',
      `\`\`\`${language}`,
      code,
      '```',
      '',
    ]),
    '| Option | Cost | Safe |',
    '|:--|--:|:-:|',
    '| copy the buffer | O(n) | yes |',
    '| share and lock | O(1) | ~~no~~ mostly |',
    '',
    '> Measure before you choose: the copy is often cheaper than it looks.',
    '',
    '- [x] reproduce it',
    '- [ ] write the failing test',
  ].join('\n');
}

/** The question the ten answers answer. */
export const MARKDOWN_QUESTION_TEXT = [
  'My handler returns **stale data** on the second call. Here is the smallest version:',
  '',
  '```ts',
  SNIPPETS[0]![1],
  '```',
  '',
  'What am I missing?',
].join('\n');
