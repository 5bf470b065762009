/* SPDX-License-Identifier: MIT */
/* Verbsdl: libibverbs loaded by the commands that use verbs, not linked
 * into every one; the ibv_* functions we call forward to it. */
#ifndef IBC_PORT_VERBSDL_H
#define IBC_PORT_VERBSDL_H

#include <stddef.h>

/* Loads libibverbs (VERBS_SONAME) on the first call; later calls only
 * report the outcome. 0, or -1 with err: one line that names the
 * library and the package to install. Call it before the first ibv_*
 * call and report err: ibv_get_device_list() without the library only
 * fails with ELIBACC. */
int verbsdl_load(char *err, size_t errlen);

#endif
