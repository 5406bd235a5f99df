import { SetMetadata } from '@nestjs/common';

export const PROJECTION_METADATA = 'crawlhub:projection';

/** Marks a provider as a projection; the projector finds it through Nest's discovery. */
export const AsProjection = (): ClassDecorator => SetMetadata(PROJECTION_METADATA, true);

export const DECIDER_METADATA = 'crawlhub:decider';

/**
 * Marks a provider as a decider (LogDecider): the projector starts it once the views have
 * caught up and stops it first; its replay has it decide what the log holds undecided.
 */
export const AsDecider = (): ClassDecorator => SetMetadata(DECIDER_METADATA, true);
