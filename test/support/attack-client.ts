/**
 * The attackers as a process of their own (see startAttack in attack.ts), at the lowest CPU
 * priority:
 *   node --import tsx test/support/attack-client.ts '{"port":3000,"groups":[...]}'
 * prints "attacking" once every connection is open, and when its stdin ends, closes them all
 * and prints its report as one JSON line.
 */
import { constants, setPriority } from 'node:os';
import { type AttackGroup, type AttackReport, attackerOf, Sockets } from './attack.js';

const { port, groups } = JSON.parse(process.argv[2] ?? '{}') as { port: number; groups: AttackGroup[] };
setPriority(constants.priority.PRIORITY_LOW);
const sockets = new Sockets();
const report: AttackReport = { closedByServer: 0, answered400: 0 };
await Promise.all(groups.map((group) => sockets.open(port, group.count, { localAddress: group.localAddress, reconnect: group.reconnect, onOpen: attackerOf(group, report) })));
process.stdout.write('attacking\n');
process.stdin.resume();
process.stdin.on('end', () => {
  sockets.destroy();
  report.closedByServer = sockets.closedByServer;
  process.stdout.write(`${JSON.stringify(report)}\n`);
  process.exit(0);
});
