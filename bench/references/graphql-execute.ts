/**
 * Reference (b), the GraphQL limit: bare node:http that reads and parses the JSON body, then runs graphql-js
 * `execute` on a cached parsed (and validated once) document against a schema built from schema.graphql, with
 * plain resolvers returning a fixed fee list. Only the fee list query is cached; any other query text gets a 400.
 *
 * Usage: node graphql-execute.js <schema.graphql> <fee list query file>
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { buildSchema, type DocumentNode, execute, parse, validate } from 'graphql';
import { listenAndReport, schemaPathArg } from './listen.ts';

const schema = buildSchema(readFileSync(schemaPathArg(), 'utf8'));
const feesQuery = readFileSync(process.argv[3] ?? '', 'utf8');

const document = parse(feesQuery);
const problems = validate(schema, document);
if (problems.length > 0) throw new Error(`fee list query does not validate: ${problems.map((p) => p.message)}`);
const documents = new Map<string, DocumentNode>([[feesQuery, document]]);

const feeList = [
  { amount: 100, fees: 1.8, total_settlement_amount: 101.8, card_type: 'visa' },
  { amount: 100, fees: 1.8, total_settlement_amount: 101.8, card_type: 'mastercard' },
  { amount: 100, fees: 3.2, total_settlement_amount: 103.2, card_type: 'amex' },
  { amount: 100, fees: 3.2, total_settlement_amount: 103.2, card_type: 'diners' },
];
const rootValue = { paymentGatewayFeesCalc: () => feeList };

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let status = 200;
    let payload: string;
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query?: string; variables?: unknown };
      const doc = typeof body.query === 'string' ? documents.get(body.query) : undefined;
      if (doc) {
        const result = execute({
          schema,
          document: doc,
          rootValue,
          variableValues: body.variables as Record<string, unknown> | undefined,
        });
        // The resolvers are synchronous, so graphql-js answers synchronously; a promise here would be a bug.
        if ('then' in result) throw new Error('execute went asynchronous');
        payload = JSON.stringify(result);
      } else {
        status = 400;
        payload = '{"errors":[{"message":"only the fee list query is served"}]}';
      }
    } catch {
      status = 400;
      payload = '{"errors":[{"message":"body is not JSON"}]}';
    }
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
    res.end(payload);
  });
});
server.keepAliveTimeout = 60_000;

listenAndReport(server, 'graphql-execute reference');
