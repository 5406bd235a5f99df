import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ACTIVITY_POSTED, ACTIVITY_TOPIC, ActivityPosted } from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { EventWriter } from '@crawlhub/views';
import { parseActivityMessages, readActivityBody } from '../../ingestion/activity-body';
import { PostActivityCommand } from './post-activity.command';

/**
 * The whole body is checked first, then its messages travel in one `activity.posted`
 * event: a POST is stored whole or not at all. Answers once the activity view has
 * applied it (read-your-writes).
 */
@CommandHandler(PostActivityCommand)
export class PostActivityHandler implements ICommandHandler<PostActivityCommand, { messages: number }> {
  constructor(
    private readonly writer: EventWriter,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
  ) {}

  async execute(cmd: PostActivityCommand): Promise<{ messages: number }> {
    const limit = Math.max(this.config.eventChunkBytes, this.config.maxRecordBytes);
    const messages = parseActivityMessages(await readActivityBody(cmd.body, limit), this.config.maxRecordBytes);
    if (messages.length === 0) return { messages: 0 };
    const event = this.writer.createEvent<ActivityPosted>({
      type: ACTIVITY_POSTED,
      key: String(cmd.project),
      data: { project: cmd.project },
      lines: messages,
      actor: cmd.actor,
    });
    await this.writer.appendAndWait(ACTIVITY_TOPIC, [event]);
    return { messages: messages.length };
  }
}
