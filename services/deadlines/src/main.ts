// The service as its own process (distributed mode): the kit parses its settings, waits for PostgreSQL
// and Kafka, registers it under /api/<name> and listens (services/kit/src/service-main.ts).
import { startService } from '@countinghouse/kit';
import { service } from './service.js';

await startService(service);
