/**
 * The technologies the generated questions' titles name ("How do I parse JSON safely in
 * {x}?"). At the demo size (CommunitySize.topical) each question's first tag is its
 * technology's and its text carries a snippet in that technology's language.
 */
import { dedent } from './markdown-source.ts';

export interface Snippet {
  /** The language named after the fence, as people write it. */
  fence: string;
  source: string;
}

export interface Topic {
  /** The name a title uses. */
  tech: string;
  /** The seeded tag (community.ts TAGS) that a question about it gets first. */
  tag: string;
  /** As many as every other topic: the seed picks one by position (SNIPPETS_PER_TOPIC). */
  snippets: [Snippet, Snippet];
}

export const SNIPPETS_PER_TOPIC = 2;

const snippet = (fence: string, source: string): Snippet => ({ fence, source: dedent(source) });

export const TOPICS: Topic[] = [
  {
    tech: 'JavaScript',
    tag: 'javascript',
    snippets: [
      snippet(
        'js',
        `
        const items = JSON.parse(text);
        const total = items.reduce((sum, item) => sum + item.price, 0);
        console.log(total.toFixed(2));
        `,
      ),
      snippet(
        'js',
        `
        button.addEventListener('click', async () => {
          const response = await fetch('/api/items');
          if (!response.ok) throw new Error('HTTP ' + response.status);
          render(await response.json());
        });
        `,
      ),
    ],
  },
  {
    tech: 'TypeScript',
    tag: 'typescript',
    snippets: [
      snippet(
        'ts',
        `
        interface User {
          id: number;
          name: string;
        }

        function byId(users: User[], id: number): User | undefined {
          return users.find((user) => user.id === id);
        }
        `,
      ),
      snippet(
        'ts',
        `
        const settings = { theme: 'dark', fontSize: 14 } as const;
        type Settings = typeof settings;
        `,
      ),
    ],
  },
  {
    tech: 'React',
    tag: 'react',
    snippets: [
      snippet(
        'jsx',
        `
        function Counter() {
          const [count, setCount] = useState(0);
          return <button onClick={() => setCount(count + 1)}>Clicked {count} times</button>;
        }
        `,
      ),
      snippet(
        'jsx',
        `
        useEffect(() => {
          const id = setInterval(tick, 1000);
          return () => clearInterval(id);
        }, []);
        `,
      ),
    ],
  },
  {
    tech: 'Node.js',
    tag: 'node',
    snippets: [
      snippet(
        'js',
        `
        import { readFile } from 'node:fs/promises';

        const config = JSON.parse(await readFile('config.json', 'utf8'));
        `,
      ),
      snippet(
        'js',
        `
        import http from 'node:http';

        http.createServer((req, res) => res.end('ok')).listen(3000);
        `,
      ),
    ],
  },
  {
    tech: 'PostgreSQL',
    tag: 'postgres',
    snippets: [
      snippet(
        'sql',
        `
        select id, title, created_at
        from posts
        where author_id = $1
        order by created_at desc
        limit 20;
        `,
      ),
      snippet('sql', `create index posts_author_created_idx on posts (author_id, created_at desc);`),
    ],
  },
  {
    tech: 'Python',
    tag: 'python',
    snippets: [
      snippet(
        'python',
        `
        with open("data.json", encoding="utf-8") as f:
            data = json.load(f)
        print(len(data["items"]))
        `,
      ),
      snippet('python', `rows.sort(key=lambda row: row["created"], reverse=True)`),
    ],
  },
  {
    tech: 'Rust',
    tag: 'rust',
    snippets: [
      snippet(
        'rust',
        `
        let text = std::fs::read_to_string("config.toml")?;
        let lines: Vec<&str> = text.lines().collect();
        `,
      ),
      snippet(
        'rust',
        `
        match value.parse::<i32>() {
            Ok(n) => println!("got {n}"),
            Err(e) => eprintln!("not a number: {e}"),
        }
        `,
      ),
    ],
  },
  {
    tech: 'Go',
    tag: 'go',
    snippets: [
      snippet(
        'go',
        `
        data, err := os.ReadFile("config.json")
        if err != nil {
        	return fmt.Errorf("read config: %w", err)
        }
        `,
      ),
      snippet(
        'go',
        `
        ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
        defer cancel()
        `,
      ),
    ],
  },
  {
    tech: 'CSS',
    tag: 'css',
    snippets: [
      snippet(
        'css',
        `
        .layout {
          display: grid;
          grid-template-columns: 200px 1fr;
          gap: 1rem;
        }
        `,
      ),
      snippet(
        'css',
        `
        .menu a:focus-visible {
          outline: 2px solid currentColor;
        }
        `,
      ),
    ],
  },
  {
    tech: 'Docker',
    tag: 'docker',
    snippets: [
      snippet('bash', `docker run --rm -p 8080:8080 -e NODE_ENV=production my-app:latest`),
      snippet(
        'yaml',
        `
        services:
          web:
            build: .
            ports:
              - "8080:8080"
        `,
      ),
    ],
  },
];
