import { Actor } from '@crawlhub/contracts';
import { FetchParams, fetchParamsOf } from '../../domain/fetch-params';

/**
 * Fetch (or render) one page for a user: POST /fetch/v2. The parameters are checked here
 * (fetchParamsOf: a FetchApiError 400 naming the first problem), so every caller gets the
 * API's checks, not only the controller.
 */
export class FetchPageCommand {
  readonly params: FetchParams;

  constructor(readonly user: string, readonly actor: Actor, params: Record<string, unknown>) {
    this.params = fetchParamsOf(params);
  }
}
