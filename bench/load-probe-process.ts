/**
 * The load bench's probe as a process of its own (see `startProbeProcess`): says it is ready, then
 * answers every plan it is sent with its outcome, and exits when the bench lets go.
 */
import { runProbe, type ProbePlan } from './load-probe.ts';

process.on('message', (plan: ProbePlan) => {
  void runProbe(plan).then((outcome) => process.send!(outcome));
});
process.send!({ ready: true });
