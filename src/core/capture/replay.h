/* SPDX-License-Identifier: MIT */
/* --from FILE: a capture opened for the read-only views. The archive is
 * checked and extracted into a private temporary folder (removed by
 * replay_close, and on SIGINT / SIGTERM / SIGHUP before the program dies
 * of it); its sysfs tree becomes the sysfs root, and every JSON document
 * written meanwhile carries "capture": {"host", "time"}. */
#ifndef IBC_CAPTURE_REPLAY_H
#define IBC_CAPTURE_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

/* The archive's layout (capture writes it, replay reads it). */
#define CAPTURE_MANIFEST "manifest.json"
#define CAPTURE_SYSFS "sysfs"		/* the sysfs files, under their paths */
#define CAPTURE_TOPO "fabric.topo"	/* ibnetdiscover text; .json: ours */
#define CAPTURE_LINKS "links"		/* the sysfs links read: PATH TAB NAME */
#define CAPTURE_FABPORTS "fabric.ports"	/* its ports' PortInfo fields */
#define CAPTURE_SWEEP "errors-%d.sweep"	/* errors' two rounds, 1 and 2 */

/* 0, or an exit status (2: a bad or hostile archive, 5: internal) with a
 * one-line reason in err. */
int replay_open(const char *archive, char *err, size_t errlen);
bool replay_active(void);
/* The extracted file NAME's path (NULL when no capture is open). */
const char *replay_path(const char *name, char *buf, size_t len);
const char *replay_host(void);
const char *replay_time(void);	/* the first counter sample, ISO 8601 UTC */
/* The captured fabric (our JSON, else the ibnetdiscover text), or NULL
 * with err filled (none captured: --no-smp, or no MAD path). */
struct fabric;
struct fabric *replay_fabric(char *err, size_t errlen);
/* The seconds between the two counter samples (the manifest's
 * interval_s), < 0 when it names none. */
double replay_interval(void);
/* The captured fabric-wide sweeps of `errors` into sw[0] and sw[1], the first and second
 * round, and the second's time: 0, or 3 (none captured) / 2 (a bad
 * file) with err; on failure sw holds nothing. */
struct sweep;
int replay_sweeps(struct sweep *sw, char *time, size_t tlen, char *err, size_t errlen);
/* Removes the folder; safe to call twice. */
void replay_close(void);

#endif
