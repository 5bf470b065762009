// SPDX-License-Identifier: MIT
/* libFuzzer target: the module page decoders and the saved-page reader.
 * Input byte 0 even: the rest is module memory (lower page, then upper
 * pages 00h, 01h, 02h, 03h, 11h, then address A2h), decoded, judged and
 * written as JSON, gauges and text; odd: the rest is a 50-lower.hex file.
 * Invariants: a refusal says why; lanes stay within the array; a margin
 * has its text; no reading is a NaN. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/json.h"
#include "core/export/expo.h"
#include "core/optics/optics.h"
#include "core/optics/report.h"
#include "core/optics/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int pages[] = { 0, 1, 2, 3, 0x11 };

static void fill(struct optics_pages *pg, const uint8_t *d, size_t n)
{
	size_t at = 0;

	memset(pg, 0, sizeof(*pg));
	for (int k = -1; k < 6 && at < n; k++) {
		size_t len = n - at < OPTICS_PAGE_LEN ? n - at : OPTICS_PAGE_LEN;
		uint8_t *dst = k < 0 ? pg->lower[0] : k == 5 ? pg->lower[1] : pg->upper[0][pages[k]];

		memcpy(dst, d + at, len);
		at += len;
		if (k < 0)
			pg->have_lower[0] = true;
		else if (k == 5)
			pg->have_lower[1] = true, pg->have_upper[1] = 1;
		else
			pg->have_upper[0] |= 1u << pages[k];
	}
}

static void outputs(struct optics_port *p)
{
	static char line[12][OPTICS_LINE];
	const char *labels[1] = { "device=\"x\",port=\"1\"" };
	FILE *devnull = fopen("/dev/null", "w");
	struct expo_buf b;
	struct json j;
	char text[96];
	int n;

	if (!devnull)
		__builtin_trap();
	json_init(&j, devnull);
	optics_json(&j, NULL, p);
	fclose(devnull);
	expo_init(&b);
	optics_expo(&b, (const struct optics_port *const *)&p, labels, 1);
	expo_free(&b);
	n = optics_lines(p, line, 12);
	if (n < 1 || n > 12)
		__builtin_trap();
	for (int i = 0; p->readable && i < p->m.nlanes; i++) {
		const struct optics_lane *l = &p->m.lane[i];

		optics_margin_text(l, text, sizeof(text));
		if (l->margin_valid != (text[0] != '\0') || (l->margin_valid && isnan(l->margin_db)))
			__builtin_trap();
		if ((l->rx.valid && isnan(l->rx.value)) || (l->bias.valid && isnan(l->bias.value)))
			__builtin_trap();
	}
}

static void decode(const uint8_t *d, size_t n)
{
	static struct optics_pages pg;
	static struct optics_port p;

	fill(&pg, d, n);
	memset(&p, 0, sizeof(p));
	if (optics_decode(&pg, &p.m, p.why, sizeof(p.why)) < 0) {
		if (!p.why[0])
			__builtin_trap();
	} else {
		if (p.m.nlanes < 0 || p.m.nlanes > OPTICS_MAX_LANES)
			__builtin_trap();
		p.readable = true;
		optics_judge(&p.m, 2.0, 1);
	}
	outputs(&p);
}

static char dir[64], path[96];

static void cleanup(void)
{
	unlink(path);
	rmdir(dir);
}

static void hexfile(const uint8_t *d, size_t n)
{
	static struct optics_pages pg;
	char err[256] = "";
	FILE *f;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/fuzz-optics.XXXXXX");
		if (!mkdtemp(dir))
			__builtin_trap();
		snprintf(path, sizeof(path), "%s/50-lower.hex", dir);
		atexit(cleanup);
	}
	f = fopen(path, "w");
	if (!f || fwrite(d, 1, n, f) != n || fclose(f) != 0)
		__builtin_trap();
	if (optics_load_dump(dir, &pg, err, sizeof(err)) < 0 && !err[0])
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] & 1)
		hexfile(data + 1, size - 1);
	else
		decode(data + 1, size - 1);
	return 0;
}
