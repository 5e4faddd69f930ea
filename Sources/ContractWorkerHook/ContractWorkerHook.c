#include "ContractWorkerHook.h"
#include <stdlib.h>

/* ContractKit's Swift entry (@_cdecl); weak so that an image without it still links. */
extern void vmsim_contract_worker_main(void) __attribute__((weak));

int vmsim_contract_worker_requested(void) {
  const char *value = getenv("VIETMAP_CONTRACT_WORKER");
  return value != NULL && value[0] != '\0';
}

int vmsim_contract_worker_hook_linked(void) { return 1; }

__attribute__((constructor)) static void vmsim_contract_worker_hook(void) {
  if (vmsim_contract_worker_requested() && vmsim_contract_worker_main != NULL) vmsim_contract_worker_main();
}
