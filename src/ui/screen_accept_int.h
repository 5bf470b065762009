/* SPDX-License-Identifier: MIT */
/* The acceptance screen's two halves: the cards (screen_accept.c) and the
 * pair heat map of an `accept --hosts` results directory with its cell
 * cursor (screen_accept_heat.c). */
#ifndef IBC_SCREEN_ACCEPT_INT_H
#define IBC_SCREEN_ACCEPT_INT_H

#include <stdbool.h>
#include "screen.h"
#include "core/accept/acceptres.h"

/* Draws the heat map of r over the whole window: legend, the visible
 * rows and columns around the cursor, the cursor's pair on the status
 * line, its evidence when open, the bad hosts and paths, the footer. */
void acc_heat_draw(WINDOW *win, const struct acceptres *r, int w, int h);
/* A key on the heat map: SCREEN_* flags, 0 when not the map's. */
int acc_heat_key(enum ui_action a, const struct acceptres *r);
/* Closes the pair's evidence; false when it was not open. */
bool acc_heat_close(void);

#endif
