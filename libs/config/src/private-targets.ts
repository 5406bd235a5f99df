/**
 * Said wherever a fetch, render, extraction or proxy request is refused because its target
 * is a private or loopback address, so the user learns which setting allows it.
 */
export const PRIVATE_TARGETS_REFUSED = 'private and loopback targets are refused unless ALLOW_PRIVATE_TARGETS is set';
