/** The typed version 2 requests: the contract with the engines lives below the API (src/query/v2-requests.ts). */
export * from '../../query/v2-requests.js';
