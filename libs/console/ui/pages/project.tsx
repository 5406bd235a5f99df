import { Link } from '../router';
import { JobsTab } from './jobs';
import { PeriodicTab } from './periodic';
import { DeploysTab } from './deploys';
import { CollectionsTab } from './collections';
import { FrontierTab } from './frontier';

const TABS: [string, string][] = [
  ['jobs', 'Jobs'],
  ['periodic', 'Periodic jobs'],
  ['deploys', 'Code & deploys'],
  ['collections', 'Collections'],
  ['frontier', 'Frontier'],
];

export function ProjectPage(props: { project: number; tab: string; rest: string[] }) {
  const { project, tab } = props;
  return (
    <section>
      <h1>
        <Link href="/">Projects</Link> › Project {project}
      </h1>
      <nav class="tabs">
        {TABS.map(([id, label]) => (
          <Link key={id} href={id === 'jobs' ? `/p/${project}` : `/p/${project}/${id}`} class={tab === id ? 'active' : undefined}>
            {label}
          </Link>
        ))}
      </nav>
      {tab === 'jobs' && <JobsTab project={project} />}
      {tab === 'periodic' && <PeriodicTab project={project} />}
      {tab === 'deploys' && <DeploysTab project={project} />}
      {tab === 'collections' && <CollectionsTab project={project} rest={props.rest} />}
      {tab === 'frontier' && <FrontierTab project={project} />}
    </section>
  );
}
