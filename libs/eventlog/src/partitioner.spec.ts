import { partitionForKey } from './partitioner';
// The reference: kafkajs's own default partitioner (Java-compatible murmur2).
// eslint-disable-next-line @typescript-eslint/no-var-requires
const { Partitioners } = require('kafkajs');

describe('partitionForKey', () => {
  const reference = Partitioners.DefaultPartitioner();
  const keys = ['', 'a', 'ab', 'abc', 'abcd', '1/2/3', '2222222/79/3', 'héllo wörld', 'collection:s:things', 'x'.repeat(1000)];

  it.each(keys)('places %j where Kafka does', (key) => {
    for (const n of [1, 3, 8, 16]) {
      const partitionMetadata = Array.from({ length: n }, (_, i) => ({ partitionId: i, leader: 0 }));
      const expected = reference({ topic: 't', partitionMetadata, message: { key } });
      expect(partitionForKey(key, n)).toBe(expected);
    }
  });
});
