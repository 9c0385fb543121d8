/**
 * Reference (e), the usual way to mock a GraphQL schema with Apollo Server 5: `addMocksToSchema` from
 * @graphql-tools/mock over schema.graphql, served by `startStandaloneServer` with Apollo's defaults.
 *
 * Usage: node apollo-mocks.js <schema.graphql>
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { addMocksToSchema } from '@graphql-tools/mock';
import { buildSchema } from 'graphql';
import { schemaPathArg, stopWithParent } from './listen.ts';

const schema = addMocksToSchema({ schema: buildSchema(readFileSync(schemaPathArg(), 'utf8')) });
const server = new ApolloServer({ schema });
const { url } = await startStandaloneServer(server, { listen: { port: 0, host: '127.0.0.1' } });
process.stdout.write(`apollo mocks reference listening on ${url.replace(/\/$/, '')}\n`);
stopWithParent();
