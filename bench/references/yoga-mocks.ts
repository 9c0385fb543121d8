/**
 * Reference (d), the usual way to mock a GraphQL schema with graphql-yoga: `addMocksToSchema` from
 * @graphql-tools/mock over schema.graphql, served by `createYoga` on node:http with yoga's defaults (its parse and
 * validation caches included). Logging is off, as the mock runs with `--quiet`.
 *
 * Usage: node yoga-mocks.js <schema.graphql>
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { addMocksToSchema } from '@graphql-tools/mock';
import { buildSchema } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { listenAndReport, schemaPathArg } from './listen.ts';

const schema = addMocksToSchema({ schema: buildSchema(readFileSync(schemaPathArg(), 'utf8')) });
const yoga = createYoga({ schema, logging: false, graphiql: false });
const server = createServer(yoga);
server.keepAliveTimeout = 60_000;

listenAndReport(server, 'yoga mocks reference');
