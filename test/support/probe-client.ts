/**
 * The probe client as a process of its own (see probeFromAnotherProcess in attack.ts):
 *   node --import tsx test/support/probe-client.ts '{"port":3000,"count":80,...}'
 * prints "probing", then, once `count` probes have ended, their report as one JSON line.
 */
import { probe, type ProbeOptions } from './attack.js';

const options = JSON.parse(process.argv[2] ?? '{}') as ProbeOptions & { port: number; count: number };
const probes = probe(options.port, options);
process.stdout.write('probing\n');
const report = await probes.until(options.count);
process.stdout.write(`${JSON.stringify(report)}\n`);
