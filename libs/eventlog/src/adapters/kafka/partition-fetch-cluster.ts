import type { Kafka } from 'kafkajs';

/**
 * The one place crawlhub reaches inside kafkajs. `EventLog.read` (replay, audit, the CLI)
 * reads a partition from an offset without a consumer group: no group to join (seconds of
 * rebalance per read), no offsets committed. kafkajs has no public API for a plain Fetch:
 * its consumers always join a group. Its cluster (the connection pool its consumers and
 * producers use) does, and `Kafka` makes one through a factory kept under a private
 * symbol. kafkajs 2.2.4 is its final release (package.json pins ^2.2.4), so the shape
 * below cannot move under us; partition-fetch-cluster.spec.ts checks that the factory is
 * there and answers this shape, and the Kafka contract suite reads through it on a broker.
 */
export interface FetchedRecord {
  offset: string;
  value: Buffer | null;
  isControlRecord?: boolean;
}
export interface FetchedPartition {
  partition: number;
  highWatermark: string;
  lastStableOffset?: string;
  messages: FetchedRecord[];
}
export interface FetchBroker {
  fetch(request: {
    isolationLevel: number;
    maxWaitTime: number;
    minBytes: number;
    maxBytes: number;
    topics: { topic: string; partitions: { partition: number; fetchOffset: string; maxBytes: number }[] }[];
  }): Promise<{ responses: { topicName: string; partitions: FetchedPartition[] }[] }>;
}
/** The part of kafkajs' cluster that `read` uses. */
export interface PartitionFetchCluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  refreshMetadata(): Promise<void>;
  addTargetTopic(topic: string): Promise<void>;
  findLeaderForPartitions(topic: string, partitions: number[]): Record<string, number[]>;
  findBroker(options: { nodeId: string }): Promise<FetchBroker>;
}
type CreateCluster = (options: { metadataMaxAge?: number; allowAutoTopicCreation?: boolean; isolationLevel?: number }) => PartitionFetchCluster;

const FACTORY = 'private:Kafka:createCluster';

/** A new, unconnected cluster of `kafka` for plain Fetch requests at `isolationLevel`. */
export function partitionFetchCluster(kafka: Kafka, isolationLevel: number): PartitionFetchCluster {
  const symbol = Object.getOwnPropertySymbols(kafka).find((s) => s.description === FACTORY);
  const create = symbol ? (kafka as unknown as Record<symbol, CreateCluster | undefined>)[symbol] : undefined;
  if (typeof create !== 'function') throw new Error(`this kafkajs version lacks the cluster factory (${FACTORY}) that KafkaEventLog.read uses`);
  return create({ metadataMaxAge: 60_000, allowAutoTopicCreation: false, isolationLevel });
}
