import { dash, Me } from '../api';
import { Link } from '../router';
import { Empty, Show, useLoad } from '../ui';

export function Projects(props: { me: Me }) {
  const loaded = useLoad(() => dash.get<{ projects: number[] }>('scrapyd/listprojects.json'), []);
  return (
    <section>
      <h1>Projects</h1>
      <Show loaded={loaded} label="Loading projects…">
        {({ projects }) =>
          projects.length === 0 ? (
            <Empty>{props.me.admin ? 'No project has data or jobs yet: schedule a job (run.json) or deploy with shub to start one.' : 'This key sees no project.'}</Empty>
          ) : (
            <ul class="cards">
              {projects.map((p) => (
                <li key={p}>
                  <Link href={`/p/${p}`}>Project {p}</Link>
                </li>
              ))}
            </ul>
          )
        }
      </Show>
    </section>
  );
}
