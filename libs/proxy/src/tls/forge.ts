/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * node-forge (a dependency of http-mitm-proxy, which signs its certificates with it): the
 * little of it we use, typed loosely (it ships no types).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const forge: any = require('node-forge');
