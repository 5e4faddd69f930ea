#ifndef VMSIM_CONTRACT_WORKER_HOOK_H
#define VMSIM_CONTRACT_WORKER_HOOK_H

/*
 * The entry of a contract worker: a copy of the test process started by ContractKit to run the
 * app's code (decoders) apart from the tests. A constructor in this target runs when the image
 * holding the app's tests loads (before main, before any test): when the environment names a
 * worker (VIETMAP_CONTRACT_WORKER), it calls ContractKit's Swift entry, which serves calls on
 * descriptors 3 and 4 and ends the process; otherwise it does nothing.
 */

/* 1 when this process was started as a contract worker (the environment variable is set). */
int vmsim_contract_worker_requested(void);

/* Referenced from Swift so that the linker keeps this target's object (and its constructor). */
int vmsim_contract_worker_hook_linked(void);

#endif
