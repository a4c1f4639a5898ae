/* The thesis's gas simulation kernels of thesis_gas_kernel_list.h, one
 * program per layout (-DTS_VARIANT=0 AoS, 1 SoA). */
#include "thesis_gas_kernel_list.h"

TS_THESIS_KERNELS(TS_CL_KERNEL)
