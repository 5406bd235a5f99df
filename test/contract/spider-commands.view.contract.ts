import { RegisteredSpider, SpiderCommandsView } from '@crawlhub/runner';
import { eachViewFixture, FakeProjector, ViewFixture, ViewHarness } from './view-fixture';

const spider = (project: number, name: string, extra: Partial<RegisteredSpider> = {}): RegisteredSpider => ({
  spider: name,
  command: ['node', `${name}.js`],
  cwd: null,
  env: {},
  project,
  registeredAt: 1_000,
  registeredBy: 'key:test',
  ...extra,
});

export function spiderCommandsViewContract(name: string, harness: ViewHarness<SpiderCommandsView>): void {
  describe(`SpiderCommandsView contract: ${name}`, () => {
    let f: ViewFixture<SpiderCommandsView>;
    let view: SpiderCommandsView;
    let p: FakeProjector;
    eachViewFixture(harness, (fixture, projector) => ((f = fixture), (view = fixture.view), (p = projector)));

    it('has nothing before anything is registered', async () => {
      expect(await view.list(1)).toEqual([]);
      expect(await view.get(1, 'a')).toBeNull();
      expect(await view.projects()).toEqual([]);
    });

    it('registers spiders per project, lists them by name, and keeps every field as written', async () => {
      const full = spider(1, 'b', { command: ['scrapy', 'crawl', 'b', '-s', 'X=é "q"'], cwd: '/srv/project one', env: { A: '1', Z_ORDER: '' } });
      await p.batch((at) => view.register(at, [full, spider(1, 'a')]), (at) => view.register(at, [spider(7, 'a')]));
      expect(await view.list(1)).toEqual([spider(1, 'a'), full]);
      expect(await view.get(1, 'b')).toEqual(full);
      expect(await view.get(7, 'a')).toEqual(spider(7, 'a'));
      expect(await view.get(7, 'b')).toBeNull();
      expect(await view.projects()).toEqual([1, 7]);
    });

    it('sorts names by code unit', async () => {
      await p.batch((at) => view.register(at, ['b', 'B', 'a', '_x', 'é', 'a-1'].map((n) => spider(2, n))));
      expect((await view.list(2)).map((s) => s.spider)).toEqual(['B', '_x', 'a', 'a-1', 'b', 'é']);
    });

    it('replaces a registration, and removes spiders on unregister', async () => {
      await p.batch((at) => view.register(at, [spider(1, 'a'), spider(1, 'b')]));
      await p.batch((at) => view.register(at, [spider(1, 'a', { command: ['python', 'a.py'], registeredAt: 2_000 })]));
      expect((await view.get(1, 'a'))!.command).toEqual(['python', 'a.py']);
      await p.batch((at) => view.unregister(at, 1, ['b', 'never-registered']));
      expect((await view.list(1)).map((s) => s.spider)).toEqual(['a']);
      await p.batch((at) => view.unregister(at, 1, ['a']));
      expect(await view.list(1)).toEqual([]);
      expect(await view.projects()).toEqual([]);
      await p.batch((at) => view.register(at, [spider(1, 'a')]));
      expect((await view.get(1, 'a'))!.command).toEqual(['node', 'a.js']);
    });

    it('changes nothing when events are applied again, and an older event never undoes a newer one', async () => {
      const first = await p.batch((at) => view.register(at, [spider(3, 'a'), spider(3, 'b')]));
      const second = await p.batch((at) => view.register(at, [spider(3, 'a', { command: ['v2'] })]));
      const third = await p.batch((at) => view.unregister(at, 3, ['b']));
      await p.replay([...first, ...second, ...third]);
      await p.replay(first);
      expect(await view.list(3)).toEqual([spider(3, 'a', { command: ['v2'] })]);
      expect(await view.projects()).toEqual([3]);
    });
  });
}
