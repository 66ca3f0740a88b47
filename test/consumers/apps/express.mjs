// Express 4 or 5 (EXPRESS=express4 or express), optionally behind a global express.json()
// (JSON_PARSER=global), the companion mounted with app.use as the README shows.
import { toExpressMiddleware } from 'paydrop/server/node';
import { announce, checkout, outcomes } from './merchant.mjs';

const { default: express } = await import(process.env.EXPRESS ?? 'express');
const app = express();
if (process.env.JSON_PARSER === 'global') app.use(express.json());
app.use('/api/checkout', toExpressMiddleware(checkout));
app.get('/outcomes', (_request, response) => response.json(outcomes));
const server = app.listen(0, '127.0.0.1', () => announce(server.address().port));
