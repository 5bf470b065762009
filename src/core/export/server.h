/* SPDX-License-Identifier: MIT */
/* Serving the exposition: published pieces of text shared by the scrapes
 * in flight, the HTTP endpoint (libmicrohttpd) and the textfile writer. */
#ifndef IBC_EXPORT_SERVER_H
#define IBC_EXPORT_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "core/export/expo.h"

/* Immutable text with a reference count. */
struct export_blob;

/* Takes over b's memory (b is left empty); NULL when out of memory. */
struct export_blob *export_blob_take(struct expo_buf *b);
/* One more reference to x (NULL: none). */
struct export_blob *export_blob_ref(struct export_blob *x);
void export_blob_put(struct export_blob *x);
/* Drops the caller's reference to x; when it was the last one (no store
 * and no scrape holds x any more) b takes x's memory, emptied, and true:
 * a writer that keeps its previous piece this way writes the next one
 * into memory already mapped, instead of faulting in a fresh buffer
 * page by page. x is gone either way. */
bool export_blob_reuse(struct export_blob *x, struct expo_buf *b);

/* What a scrape answers: a head written at scrape time by head_fn (build
 * information, ages), then the newest published piece of each slot. */
#define EXPORT_SLOTS 2
struct export_store;
typedef void (*export_head_fn)(struct expo_buf *b, void *arg);

struct export_store *export_store_new(export_head_fn head, void *arg);
void export_store_free(struct export_store *st);
/* Replaces slot i's piece (NULL clears it); takes the reference. */
void export_store_publish(struct export_store *st, int slot, struct export_blob *x);

/* Writes the scrape text to DIR/ibconsole.prom through a temporary file in
 * DIR and a rename, so node_exporter's textfile collector never reads half
 * a file. 0, or -1 with err. */
int export_textfile_write(struct export_store *st, const char *dir, char *err,
			  size_t errlen);
/* The scrape text to f (one collection to standard output). */
int export_store_print(struct export_store *st, FILE *f);

/* "ADDR:PORT", "[V6ADDR]:PORT", ":PORT" (every address) or "PORT".
 * Binds and listens; NULL with a one-line err (*status: 2 a bad address,
 * 3 cannot bind or listen). Serves /metrics on its own thread. */
struct export_server;
struct export_server *export_server_start(struct export_store *st, const char *listen,
					  int *status, char *err, size_t errlen);
void export_server_stop(struct export_server *s);

#endif
