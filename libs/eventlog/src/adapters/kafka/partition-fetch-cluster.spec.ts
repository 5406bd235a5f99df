import { Kafka, logLevel } from 'kafkajs';
import { partitionFetchCluster } from './partition-fetch-cluster';

describe('partitionFetchCluster (the one use of kafkajs internals)', () => {
  it('finds kafkajs’ cluster factory and gets a cluster of the shape read uses, without connecting', () => {
    const kafka = new Kafka({ clientId: 'spec', brokers: ['127.0.0.1:9'], logLevel: logLevel.NOTHING });
    const cluster = partitionFetchCluster(kafka, 1);
    for (const method of ['connect', 'disconnect', 'refreshMetadata', 'addTargetTopic', 'findLeaderForPartitions', 'findBroker'] as const) {
      expect(typeof cluster[method]).toBe('function');
    }
  });

  it('says which kafkajs feature is missing when the factory is gone', () => {
    expect(() => partitionFetchCluster({} as Kafka, 1)).toThrow('lacks the cluster factory (private:Kafka:createCluster)');
  });
});
