import { SetMetadata } from '@nestjs/common';

export const PROJECTION_METADATA = 'crawlhub:projection';

/** Marks a provider as a projection; the projector finds it through Nest's discovery. */
export const AsProjection = (): ClassDecorator => SetMetadata(PROJECTION_METADATA, true);
