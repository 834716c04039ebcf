/**
 * The demo community's hand-written content (`npm run seed`): questions and answers in
 * Markdown with code in many languages, comments, votes and accepted answers, direct
 * threads, forums and PorpChat history, so a new user sees a lived-in place. Data only:
 * seed-demo-content.ts writes it through the app's own commands.
 */
import type { DemoAuthor } from './demo-accounts.ts';
import { blocks, codeBlock, lines } from './markdown-source.ts';

export interface DemoComment {
  by: DemoAuthor;
  /** Inline Markdown only: code spans, emphasis, links. */
  text: string;
}

export interface DemoVotes {
  up?: DemoAuthor[];
  down?: DemoAuthor[];
}

export interface DemoAnswer {
  by: DemoAuthor;
  text: string;
  votes?: DemoVotes;
  comments?: DemoComment[];
  /** Accepted by the question's asker. */
  accepted?: boolean;
}

/**
 * An image the asker shows (docs/product.md section 14): drawn from SVG shapes at seed time
 * (no text: fonts differ from machine to machine), then uploaded as any image is, re-encoded
 * and embedded at the end of the question with its description.
 */
export interface DemoImage {
  description: string;
  svg: string;
}

export interface DemoQuestion {
  by: DemoAuthor;
  title: string;
  tags: string[];
  text: string;
  image?: DemoImage;
  votes?: DemoVotes;
  comments?: DemoComment[];
  answers: DemoAnswer[];
}

export interface DemoMessage {
  by: DemoAuthor;
  text: string;
}

/** A direct thread, started by the first of the two. */
export interface DemoDirectThread {
  between: [DemoAuthor, DemoAuthor];
  messages: DemoMessage[];
}

export interface DemoForum {
  name: string;
  description: string;
  createdBy: DemoAuthor;
  messages: DemoMessage[];
}

/** A PorpChat message: `sender` is a visitor's typed name, or a demo account posting as itself. */
export interface DemoChatMessage {
  sender: string;
  text: string;
}

export interface DemoContent {
  questions: DemoQuestion[];
  directThreads: DemoDirectThread[];
  forums: DemoForum[];
  porpchat: DemoChatMessage[];
}

export const DEMO_QUESTIONS: DemoQuestion[] = [
  {
    by: 'alice',
    title: "Why doesn't filter() narrow my union type in TypeScript?",
    tags: ['typescript', 'type-guards'],
    text: blocks(
      'I have a list of results, some of them failures, and I want the values of the successful ones. After `filter` TypeScript still thinks every item can be a `Failure`:',
      codeBlock(
        'ts',
        `
        type Success = { ok: true; value: number };
        type Failure = { ok: false; error: string };
        type Result = Success | Failure;

        const results: Result[] = [{ ok: true, value: 1 }, { ok: false, error: 'timeout' }];
        const values = results.filter((r) => r.ok).map((r) => r.value);
        // error TS2339: Property 'value' does not exist on type 'Failure'.
        `,
      ),
      'This is TypeScript 5.3. Is there a way to write it without a cast?',
    ),
    votes: { up: ['bob', 'carol', 'dave'] },
    comments: [
      { by: 'carol', text: 'Which TypeScript version does your editor use? It matters here, see the answers.' },
    ],
    answers: [
      {
        by: 'bob',
        accepted: true,
        text: blocks(
          'Before TypeScript 5.5, `filter` only narrows when its callback is a *type predicate*. Write one and pass it:',
          codeBlock(
            'ts',
            `
            const isSuccess = (r: Result): r is Success => r.ok;

            const values = results.filter(isSuccess).map((r) => r.value); // number[]
            `,
          ),
          'Since 5.5 the compiler infers the predicate from simple callbacks like `(r) => r.ok`, so upgrading fixes your original line too: see [inferred type predicates](https://devblogs.microsoft.com/typescript/announcing-typescript-5-5/) in the release notes.',
        ),
        votes: { up: ['alice', 'carol', 'erin'] },
        comments: [
          {
            by: 'carol',
            text: 'Careful: the predicate is *not* checked, `(r): r is Success => true` compiles as well. Keep it next to the type.',
          },
        ],
      },
      {
        by: 'dave',
        text: blocks(
          'If you need the values only, `flatMap` does both steps in one pass and narrows inside the callback:',
          codeBlock('ts', `const values = results.flatMap((r) => (r.ok ? [r.value] : []));`),
        ),
        votes: { up: ['alice'] },
      },
    ],
  },
  {
    by: 'bob',
    title: 'How do I run HTTP requests concurrently with asyncio?',
    tags: ['python', 'asyncio', 'aiohttp'],
    text: blocks(
      'I fetch about 50 pages and it takes a minute. I switched to `asyncio` and `aiohttp`, but the requests still run one after another:',
      codeBlock(
        'python',
        `
        import asyncio
        import aiohttp

        async def fetch(session, url):
            async with session.get(url) as response:
                return await response.text()

        async def main(urls):
            async with aiohttp.ClientSession() as session:
                pages = []
                for url in urls:
                    pages.append(await fetch(session, url))
                return pages
        `,
      ),
      'What am I doing wrong?',
    ),
    votes: { up: ['alice', 'erin'] },
    answers: [
      {
        by: 'carol',
        accepted: true,
        text: blocks(
          '`await` inside the loop waits for each request to finish before the next one starts. Start them all, then wait for all of them with `asyncio.gather`:',
          codeBlock(
            'python',
            `
            async def main(urls):
                async with aiohttp.ClientSession() as session:
                    return await asyncio.gather(*(fetch(session, url) for url in urls))
            `,
          ),
          'If the server should not see 50 connections at once, put a semaphore around the request:',
          codeBlock(
            'python',
            `
            limit = asyncio.Semaphore(10)

            async def fetch(session, url):
                async with limit:
                    async with session.get(url) as response:
                        return await response.text()
            `,
          ),
          'On Python 3.11 and later, `asyncio.TaskGroup` does the same as `gather` and cancels the other tasks when one fails. The [asyncio docs](https://docs.python.org/3/library/asyncio-task.html) have both.',
        ),
        votes: { up: ['bob', 'dave', 'erin'] },
        comments: [{ by: 'bob', text: 'The semaphore did it: all 50 pages in about 4 s now. Thanks!' }],
      },
      {
        by: 'dave',
        text: blocks(
          'Worth adding: `gather` raises the first exception it sees. With a few dead URLs in the list you probably want the others anyway:',
          codeBlock(
            'python',
            `
            pages = await asyncio.gather(*(fetch(session, url) for url in urls), return_exceptions=True)
            failed = [p for p in pages if isinstance(p, Exception)]
            `,
          ),
        ),
        votes: { up: ['bob'] },
      },
    ],
  },
  {
    by: 'carol',
    title: 'PostgreSQL: latest row per group without a subquery per row',
    tags: ['postgres', 'sql', 'performance'],
    text: blocks(
      "I need each user's most recent order from `orders (id, user_id, created_at, total)`, about 2 million rows. This works but takes seconds:",
      codeBlock(
        'sql',
        `
        select o.*
        from orders o
        where o.created_at = (
          select max(created_at) from orders where user_id = o.user_id
        );
        `,
      ),
      'It also returns two rows for a user who placed two orders in the same second. Is there a better way?',
    ),
    votes: { up: ['dave', 'erin', 'alice'] },
    answers: [
      {
        by: 'dave',
        accepted: true,
        text: blocks(
          'PostgreSQL has `DISTINCT ON` for exactly this: it keeps the first row of each group, in the order you give.',
          codeBlock(
            'sql',
            `
            select distinct on (user_id) *
            from orders
            order by user_id, created_at desc, id desc;
            `,
          ),
          'Give it an index in the same order and it reads the index instead of sorting the table:',
          codeBlock('sql', `create index orders_user_latest_idx on orders (user_id, created_at desc, id desc);`),
          lines(
            'Notes:',
            '',
            '- `id desc` breaks ties, so each user gets exactly one row.',
            '- The `order by` must start with the `distinct on` expressions.',
            '- See [SELECT DISTINCT](https://www.postgresql.org/docs/current/sql-select.html#SQL-DISTINCT) in the manual.',
          ),
        ),
        votes: { up: ['carol', 'erin', 'bob'] },
        comments: [{ by: 'carol', text: 'From 2.1 s to *90 ms* with the index. Accepted!' }],
      },
      {
        by: 'erin',
        text: blocks(
          'If the query has to run on other databases too, a window function does the same:',
          codeBlock(
            'sql',
            `
            select *
            from (
              select o.*,
                     row_number() over (partition by user_id order by created_at desc, id desc) as rn
              from orders o
            ) ranked
            where rn = 1;
            `,
          ),
        ),
        votes: { up: ['carol'] },
      },
    ],
  },
  {
    by: 'dave',
    title: 'All my goroutines print the same loop value',
    tags: ['go', 'concurrency'],
    text: blocks(
      'I expected `0 1 2` in some order, but this prints `3 3 3`:',
      codeBlock(
        'go',
        `
        package main

        import (
        	"fmt"
        	"sync"
        )

        func main() {
        	var wg sync.WaitGroup
        	for i := 0; i < 3; i++ {
        		wg.Add(1)
        		go func() {
        			defer wg.Done()
        			fmt.Println(i)
        		}()
        	}
        	wg.Wait()
        }
        `,
      ),
      'The `go` line in my go.mod says 1.21.',
    ),
    votes: { up: ['erin', 'bob'] },
    comments: [{ by: 'alice', text: '`go vet` flags this one too: its *loopclosure* check.' }],
    answers: [
      {
        by: 'erin',
        accepted: true,
        text: blocks(
          'Up to Go 1.21 a `for` loop has **one** `i` shared by every iteration, and the goroutines run after the loop has already set it to 3. Go 1.22 gives each iteration its own variable ([Fixing For Loops in Go 1.22](https://go.dev/blog/loopvar-preview)); which rule applies depends on the `go` line in go.mod, not on the toolchain you build with.',
          'So either raise go.mod to `go 1.22`, or pass the value in:',
          codeBlock(
            'go',
            `
            go func(i int) {
            	defer wg.Done()
            	fmt.Println(i)
            }(i)
            `,
          ),
        ),
        votes: { up: ['dave', 'alice', 'carol'] },
      },
    ],
  },
  {
    by: 'erin',
    title: 'Rust: cannot borrow as mutable because it is also borrowed as immutable',
    tags: ['rust', 'borrow-checker'],
    text: blocks(
      'A small example of what I keep running into:',
      codeBlock(
        'rust',
        `
        fn main() {
            let mut scores = vec![10, 20, 30];
            let first = &scores[0];
            scores.push(40);
            println!("first is {first}");
        }
        `,
      ),
      codeBlock('text', 'error[E0502]: cannot borrow `scores` as mutable because it is also borrowed as immutable'),
      'Why is pushing to the vector a problem when I only read `first`?',
    ),
    votes: { up: ['alice', 'dave'] },
    answers: [
      {
        by: 'alice',
        accepted: true,
        text: blocks(
          '`push` may have to reallocate the vector, which would leave `first` pointing at freed memory, so the compiler refuses while the reference is still in use. Copy the value out (an `i32` is `Copy`):',
          codeBlock(
            'rust',
            `
            let first = scores[0];
            scores.push(40);
            println!("first is {first}");
            `,
          ),
          'or finish with the reference before changing the vector:',
          codeBlock(
            'rust',
            `
            let first = &scores[0];
            println!("first is {first}");
            scores.push(40);
            `,
          ),
          'The rule is *many shared borrows or one mutable borrow*, never both at once; the book explains it in [References and Borrowing](https://doc.rust-lang.org/book/ch04-02-references-and-borrowing.html).',
        ),
        votes: { up: ['erin', 'bob', 'carol'] },
        comments: [{ by: 'erin', text: 'That reallocation detail is what I was missing, thank you.' }],
      },
      {
        by: 'bob',
        text: 'When you need to remember *which* element across pushes, keep its index (`let first = 0;`) and read `scores[first]` when you need it.',
        votes: { up: ['erin'] },
      },
    ],
  },
  {
    by: 'bob',
    title: 'Bash loop breaks on file names with spaces',
    tags: ['bash', 'linux'],
    text: blocks(
      'This script halves every photo in a folder:',
      codeBlock(
        'bash',
        `
        for f in $(ls *.jpg); do
          convert "$f" -resize 50% "small/$f"
        done
        `,
      ),
      'A file called `summer trip.jpg` comes out as two names, `summer` and `trip.jpg`, and both fail.',
    ),
    votes: { up: ['carol'] },
    answers: [
      {
        by: 'carol',
        text: blocks(
          "Don't parse `ls`: let the shell expand the glob, and quote the variable.",
          codeBlock(
            'bash',
            `
            shopt -s nullglob
            for f in *.jpg; do
              convert "$f" -resize 50% "small/$f"
            done
            `,
          ),
          '`nullglob` makes the loop run zero times when nothing matches, instead of once with the literal `*.jpg`. For subfolders use `find` with NUL separators:',
          codeBlock(
            'sh',
            `
            find . -name '*.jpg' -print0 |
              while IFS= read -r -d '' f; do
                convert "$f" -resize 50% "small/$(basename "$f")"
              done
            `,
          ),
          'https://www.shellcheck.net warns about the original loop (SC2045), worth running on every script.',
        ),
        votes: { up: ['bob', 'dave'] },
      },
    ],
  },
  {
    by: 'carol',
    title: 'Hide the focus outline for mouse clicks but keep it for keyboard users?',
    tags: ['css', 'accessibility'],
    text: blocks(
      'Our designer wants the outline gone after a button is clicked, so we shipped this:',
      codeBlock(
        'css',
        `
        button:focus {
          outline: none;
        }
        `,
      ),
      'Now keyboard users cannot see where they are. What is the right way to do it? This is what the button looked like before, focused after a click:',
    ),
    image: {
      description: 'A blue button with a thick dark focus ring around it, drawn after a mouse click',
      svg: `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="200" viewBox="0 0 480 200">
        <rect width="480" height="200" fill="#f6f8fa"/>
        <rect x="120" y="60" width="240" height="80" rx="14" fill="none" stroke="#1f2328" stroke-width="6"/>
        <rect x="132" y="72" width="216" height="56" rx="8" fill="#0969da"/>
        <rect x="196" y="94" width="88" height="12" rx="6" fill="#ffffff"/>
        <path d="M300 120 l0 44 l12 -12 l10 22 l8 -4 l-10 -22 l16 0 z" fill="#1f2328" stroke="#ffffff" stroke-width="2"/>
      </svg>`,
    },
    votes: { up: ['erin', 'alice', 'bob', 'dave'] },
    answers: [
      {
        by: 'dave',
        accepted: true,
        text: blocks(
          'Style `:focus-visible` instead of `:focus`. Browsers match it when focus should be shown (keyboard navigation, any text field) and not after a mouse click on a button:',
          codeBlock(
            'css',
            `
            button:focus-visible {
              outline: 3px solid #1a5fb4;
              outline-offset: 2px;
            }
            `,
          ),
          'And delete the `outline: none` rule: the default focus ring already follows the same heuristic in current browsers. Support is good, see https://caniuse.com/css-focus-visible',
        ),
        votes: { up: ['carol', 'erin'] },
      },
      {
        by: 'erin',
        text: blocks(
          'The checklist I go through before shipping a focus style:',
          lines(
            '- [x] every control can be reached with the Tab key, in reading order',
            '- [x] the ring contrasts at least 3:1 with what is around it',
            '- [x] nothing cuts it off (`overflow: hidden` on a parent clips an outline drawn outside the element)',
            '- [ ] test with Windows High Contrast, where `box-shadow` rings disappear',
          ),
          'The last one is why an `outline` is better than a `box-shadow` ring.',
        ),
        votes: { up: ['carol', 'alice'] },
        comments: [
          {
            by: 'dave',
            text: 'Good list. The WCAG page on [focus appearance](https://www.w3.org/WAI/WCAG22/Understanding/focus-appearance.html) has the details.',
          },
        ],
      },
    ],
  },
  {
    by: 'dave',
    title: 'Why does JSON.stringify drop some of my fields?',
    tags: ['javascript', 'json'],
    text: blocks(
      'I send this object to our API:',
      codeBlock(
        'js',
        `
        const event = { id: 7, at: new Date(0), tags: new Set(['a']), note: undefined, score: NaN };
        console.log(JSON.stringify(event));
        `,
      ),
      'and the body is:',
      codeBlock('json', `{"id":7,"at":"1970-01-01T00:00:00.000Z","tags":{},"score":null}`),
      '`note` is gone, `tags` is empty and `score` is `null`. Is this a bug?',
    ),
    votes: { up: ['alice'] },
    answers: [
      {
        by: 'alice',
        accepted: true,
        text: blocks(
          'No, JSON has no way to write those values, so `JSON.stringify` does this:',
          lines(
            '| Value | In an object | In an array |',
            '| --- | --- | --- |',
            '| `undefined`, a function, a symbol | property left out | `null` |',
            '| `NaN`, `Infinity` | `null` | `null` |',
            '| `Date` | ISO string (its `toJSON`) | ISO string |',
            '| `Map`, `Set` | `{}` | `{}` |',
            '| `BigInt` | throws a `TypeError` | throws a `TypeError` |',
          ),
          'Convert what you need before sending it, or pass a replacer:',
          codeBlock('js', `JSON.stringify(event, (key, value) => (value instanceof Set ? [...value] : value));`),
          'Everything is on [MDN](https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/JSON/stringify).',
        ),
        votes: { up: ['dave', 'bob', 'erin'] },
        comments: [{ by: 'bob', text: 'Bookmarking this table. I really thought a `Map` became an array.' }],
      },
    ],
  },
  {
    by: 'erin',
    title: 'GitHub Actions: tests cannot reach the Postgres service container',
    tags: ['github-actions', 'postgres', 'testing'],
    image: {
      description:
        'Diagram: the job runs in its own container, the Postgres service in another; the arrow from the job to port 5432 is crossed out',
      svg: `<svg xmlns="http://www.w3.org/2000/svg" width="560" height="240" viewBox="0 0 560 240">
        <rect width="560" height="240" fill="#ffffff"/>
        <rect x="30" y="60" width="180" height="120" rx="12" fill="#ddf4ff" stroke="#0969da" stroke-width="4"/>
        <rect x="350" y="60" width="180" height="120" rx="12" fill="#dafbe1" stroke="#1a7f37" stroke-width="4"/>
        <circle cx="440" cy="120" r="30" fill="#1a7f37"/>
        <line x1="215" y1="120" x2="340" y2="120" stroke="#57606a" stroke-width="6"/>
        <path d="M340 120 l-18 -12 l0 24 z" fill="#57606a"/>
        <line x1="258" y1="96" x2="298" y2="144" stroke="#cf222e" stroke-width="8" stroke-linecap="round"/>
        <line x1="298" y1="96" x2="258" y2="144" stroke="#cf222e" stroke-width="8" stroke-linecap="round"/>
      </svg>`,
    },
    text: blocks(
      'My workflow starts Postgres as a service, but every test fails with `connect ECONNREFUSED 127.0.0.1:5432`:',
      codeBlock(
        'yaml',
        `
        name: test
        on: [push]
        jobs:
          test:
            runs-on: ubuntu-latest
            services:
              postgres:
                image: postgres:16
                env:
                  POSTGRES_PASSWORD: postgres
            steps:
              - uses: actions/checkout@v4
              - run: npm ci
              - run: npm test
                env:
                  DATABASE_URL: postgres://postgres:postgres@localhost:5432/postgres
        `,
      ),
      'What I tried so far: ~~a `sleep 10` before `npm test`~~ (no change), and `127.0.0.1` instead of `localhost` (same error).',
    ),
    votes: { up: ['bob', 'carol'] },
    answers: [
      {
        by: 'bob',
        accepted: true,
        text: blocks(
          'When the job runs straight on the runner, a service container is reachable on `localhost` only through a mapped port, and your steps may start before Postgres accepts connections. Map the port and add a health check, and the runner waits for it:',
          codeBlock(
            'yaml',
            `
            services:
              postgres:
                image: postgres:16
                env:
                  POSTGRES_PASSWORD: postgres
                ports:
                  - 5432:5432
                options: >-
                  --health-cmd pg_isready
                  --health-interval 5s
                  --health-timeout 5s
                  --health-retries 10
            `,
          ),
          'If the job itself runs in a `container:`, drop the port mapping and use the service name `postgres` as the host instead. The docs on service containers are under https://docs.github.com/en/actions',
        ),
        votes: { up: ['erin', 'dave'] },
        comments: [{ by: 'erin', text: 'It was the missing `ports:`. Green now!' }],
      },
    ],
  },
  {
    by: 'alice',
    title: 'ConcurrentModificationException when removing from a list in a for loop',
    tags: ['java', 'collections'],
    text: blocks(
      'This throws `java.util.ConcurrentModificationException` on the line with the `for`:',
      codeBlock(
        'java',
        `
        List<String> names = new ArrayList<>(List.of("ann", "bob", "cid", "dan"));
        for (String name : names) {
            if (name.startsWith("b")) {
                names.remove(name);
            }
        }
        `,
      ),
      'I am not using threads at all, so what is concurrent here?',
    ),
    votes: { up: ['carol', 'bob'] },
    answers: [
      {
        by: 'carol',
        accepted: true,
        text: blocks(
          'Nothing is concurrent: the enhanced `for` walks the list with an `Iterator`, and `names.remove` changes the list behind its back, so the iterator fails on its next `next()`. Since Java 8 the simplest fix is:',
          codeBlock('java', `names.removeIf(name -> name.startsWith("b"));`),
          'If you need the loop, remove through the iterator itself:',
          codeBlock(
            'java',
            `
            for (Iterator<String> it = names.iterator(); it.hasNext(); ) {
                if (it.next().startsWith("b")) {
                    it.remove();
                }
            }
            `,
          ),
        ),
        votes: { up: ['alice', 'dave', 'erin'] },
      },
      {
        by: 'dave',
        text: 'Fun detail: remove the *second to last* element and there is no exception at all, because `hasNext()` returns false before the check runs. That is why this bug can hide for a long time.',
        votes: { up: ['alice', 'carol'] },
        comments: [{ by: 'alice', text: 'That explains why it only failed with some inputs!' }],
      },
    ],
  },
  {
    by: 'dave',
    title: 'C# WPF app freezes when I call .Result on an async method',
    tags: ['csharp', 'async-await', 'wpf'],
    text: blocks(
      'A button click calls `GetGreeting()`, and the window freezes for good:',
      codeBlock(
        'csharp',
        `
        public string GetGreeting()
        {
            return GetGreetingAsync().Result;
        }

        private async Task<string> GetGreetingAsync()
        {
            await Task.Delay(100);
            return "hello";
        }
        `,
      ),
      'The same code works in a console app. Why?',
    ),
    votes: { up: ['erin'] },
    answers: [
      {
        by: 'erin',
        accepted: true,
        text: blocks(
          '`.Result` blocks the UI thread until the task finishes, but the `await` inside wants to continue *on* the UI thread (it captured the synchronization context). Each waits for the other: a deadlock. A console app has no such context, which is why it works there. Make it async all the way up:',
          codeBlock(
            'cs',
            `
            private async void OnGreetClick(object sender, RoutedEventArgs e)
            {
                GreetingLabel.Content = await GetGreetingAsync();
            }
            `,
          ),
          "`async void` is right for event handlers, and only there. In library code, `await Task.Delay(100).ConfigureAwait(false);` also avoids the deadlock, but fixing the caller is the real cure. Stephen Cleary explains it in [Don't Block on Async Code](https://blog.stephencleary.com/2012/07/dont-block-on-async-code.html).",
        ),
        votes: { up: ['dave', 'alice', 'bob'] },
      },
    ],
  },
  {
    by: 'carol',
    title: 'Node.js: SyntaxError: Cannot use import statement outside a module',
    tags: ['node', 'javascript', 'esm'],
    text: blocks(
      'My first script with `import`:',
      codeBlock(
        'js',
        `
        import { readFile } from 'node:fs/promises';

        const config = JSON.parse(await readFile('config.json', 'utf8'));
        console.log(config.port);
        `,
      ),
      codeBlock(
        'console',
        `
        $ node index.js
        SyntaxError: Cannot use import statement outside a module
        `,
      ),
    ),
    votes: { up: ['bob'] },
    answers: [
      {
        by: 'alice',
        text: blocks(
          'Node treats a `.js` file as CommonJS unless the nearest `package.json` says otherwise. Add `"type": "module"`:',
          codeBlock(
            'json',
            `
            {
              "name": "my-tool",
              "version": "1.0.0",
              "type": "module"
            }
            `,
          ),
          'or rename the file to `index.mjs`. Top-level `await` only works in ES modules, so this also fixes the next error you would have hit. Details in [Modules: Packages](https://nodejs.org/api/packages.html).',
        ),
        votes: { up: ['carol', 'dave'] },
      },
      {
        by: 'dave',
        text: 'Note it is the *nearest* `package.json` going up from the file, so one in a subfolder (even without a `"type"` field, which means CommonJS) wins over the one at the root.',
        votes: { up: ['carol'] },
      },
    ],
  },
];

export const DEMO_DIRECT_THREADS: DemoDirectThread[] = [
  {
    between: ['alice', 'bob'],
    messages: [
      {
        by: 'alice',
        text: 'Hi Bob! Did you get a chance to look at my PR? The one that swaps `moment` for `date-fns`.',
      },
      { by: 'bob', text: 'Yes, left two comments. Looks good otherwise, *really* nice cleanup.' },
      { by: 'alice', text: 'Thanks! For the time zone one: `date-fns-tz` or plain `Intl.DateTimeFormat`?' },
      {
        by: 'bob',
        text: '`Intl` if you only format. The options are all on [MDN](https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Intl/DateTimeFormat).',
      },
      { by: 'alice', text: 'Perfect, merging after lunch.' },
    ],
  },
  {
    between: ['carol', 'dave'],
    messages: [
      { by: 'carol', text: 'Your `distinct on` answer saved my afternoon, thank you!' },
      { by: 'dave', text: 'Glad it helped. Did the index make the difference?' },
      { by: 'carol', text: 'Huge: **2.1 s to 90 ms**. `explain analyze` now shows an index scan.' },
      {
        by: 'dave',
        text: 'Nice. If the table keeps growing, look at https://www.postgresql.org/docs/current/indexes-index-only-scans.html too.',
      },
    ],
  },
  {
    between: ['erin', 'alice'],
    messages: [
      { by: 'erin', text: 'Quick one: are you going to the Rust meetup on Thursday?' },
      { by: 'alice', text: 'Planning to! Are you giving the talk about `async` traits?' },
      { by: 'erin', text: 'Yes, 15 minutes. Slides are still a *bit* rough.' },
      { by: 'alice', text: 'Send them over, happy to have a look tonight.' },
      { by: 'erin', text: 'Done, they are in [the shared folder](https://example.com/slides/async-traits). Thanks!' },
      { by: 'alice', text: 'Read them: clear and fun. Maybe one more example with `Box<dyn Future>`?' },
    ],
  },
  {
    between: ['bob', 'erin'],
    messages: [
      { by: 'bob', text: 'Your CI answer was spot on, I had the same `ECONNREFUSED` last month.' },
      { by: 'erin', text: 'Ha, it got me twice. The `ports:` mapping is easy to forget.' },
      { by: 'bob', text: 'Do you cache `~/.npm` in that workflow? Ours takes 3 minutes to install.' },
      { by: 'erin', text: '`actions/setup-node` with `cache: npm` does it for you, we went down to *40 s*.' },
    ],
  },
];

export const DEMO_FORUMS: DemoForum[] = [
  {
    name: 'TypeScript help',
    description: 'Type errors, generics, tsconfig puzzles: ask and help each other with TypeScript.',
    createdBy: 'alice',
    messages: [
      {
        by: 'alice',
        text: 'Welcome! Paste the error and the smallest code that shows it, it makes helping much easier.',
      },
      { by: 'bob', text: 'Is `satisfies` worth using everywhere, or only for config objects?' },
      {
        by: 'carol',
        text: 'Mostly where you want the literal types kept *and* the shape checked, like `const routes = {...} satisfies Routes`.',
      },
      { by: 'dave', text: 'TIL `noUncheckedIndexedAccess`. It found three real bugs in our code on day one.' },
      {
        by: 'erin',
        text: 'The [TypeScript playground](https://www.typescriptlang.org/play) is great for sharing a minimal example here.',
      },
    ],
  },
  {
    name: 'Show and tell',
    description: 'Share what you built this week: side projects, tools, small wins.',
    createdBy: 'bob',
    messages: [
      {
        by: 'bob',
        text: 'I wrote a tiny CLI that renames photos by the date they were taken: `photo-rename ~/Pictures`.',
      },
      { by: 'erin', text: 'Nice! Does it read the EXIF date or the file time?' },
      {
        by: 'bob',
        text: 'EXIF first, the file time when there is none. Code is at https://example.com/bob/photo-rename',
      },
      {
        by: 'dave',
        text: 'Mine this week: a **Go** service that turns webhooks into chat messages, 200 lines in total.',
      },
      { by: 'carol', text: 'I finally moved my blog to a static site generator. Build time went from 40 s to *2 s*.' },
    ],
  },
  {
    name: 'Accessibility',
    description: 'Keyboard, screen readers, contrast and motion: making things work for everyone.',
    createdBy: 'erin',
    messages: [
      {
        by: 'erin',
        text: 'Tip of the day: test a page with the keyboard only before you ship it. No mouse for five minutes.',
      },
      { by: 'carol', text: 'And with zoom at 200%: half of our layout broke the first time we tried.' },
      {
        by: 'alice',
        text: 'Which screen reader do you test with? I use NVDA on Windows and VoiceOver on the Mac.',
      },
      {
        by: 'erin',
        text: 'Same two. The [WebAIM survey](https://webaim.org/projects/screenreadersurvey10/) says they cover most users.',
      },
      { by: 'dave', text: 'Reminder that `prefers-reduced-motion` is one media query away, please respect it.' },
    ],
  },
];

export const DEMO_PORPCHAT: DemoChatMessage[] = [
  { sender: 'tidepool', text: 'Hello everyone! First time here.' },
  { sender: 'krill_fan', text: 'Welcome! Ask away, people here are friendly.' },
  { sender: 'tidepool', text: 'Is this a good place to ask about `useEffect` running twice?' },
  { sender: 'carol', text: 'Sure, but post it as a question so others find it later. *Hint:* React strict mode.' },
  { sender: 'tidepool', text: 'Strict mode, that was it. Thanks!' },
  { sender: 'night_owl', text: 'Anyone else up late fighting a flaky test?' },
  { sender: 'sea_otter', text: 'Always. Mine only fails in CI, never locally.' },
  { sender: 'night_owl', text: 'Same! Turned out to be a `setTimeout` racing the assertion.' },
  { sender: 'krill_fan', text: 'Fake timers fix most of those: https://vitest.dev/guide/mocking' },
  { sender: 'bob', text: 'Small reminder that code in messages goes between backticks: `like this`.' },
  { sender: 'sea_otter', text: 'Does anyone have a good intro to Rust lifetimes?' },
  {
    sender: 'erin',
    text: 'Chapter 10 of [the Rust book](https://doc.rust-lang.org/book/ch10-03-lifetime-syntax.html) is the best I know.',
  },
  { sender: 'sea_otter', text: 'Reading it now, **thank you**.' },
  { sender: 'coral_reef', text: 'Just lurking, this chat is nice to have on a second screen.' },
];

/** Everything the demo seed writes besides the generated questions. */
export const DEMO_CONTENT: DemoContent = {
  questions: DEMO_QUESTIONS,
  directThreads: DEMO_DIRECT_THREADS,
  forums: DEMO_FORUMS,
  porpchat: DEMO_PORPCHAT,
};
