/** The replica suite on the shared in-memory test store (issue 23); the lead runs the same suite on Redis. */
import { createSharedMemorySandbox, type SharedMemoryHandle } from '../../support/shared-memory-store.ts';
import { describeReplicas } from './replica-suite.ts';

describeReplicas('the shared in-memory test store', () => {
  const sandbox = createSharedMemorySandbox();
  return {
    replica: () => sandbox.replica(),
    sever: (store) => (store as SharedMemoryHandle).sever(),
    dispose: async () => {},
  };
});
