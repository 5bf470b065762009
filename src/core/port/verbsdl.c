// SPDX-License-Identifier: MIT
/* Verbsdl (see verbsdl.h). The code that uses verbs keeps calling the
 * ibv_* functions of <infiniband/verbs.h>: this file defines each one
 * we call, with the header's own prototype, as a call through a pointer
 * that dlsym() filled, so nothing links libibverbs. A verbs function
 * that is not defined here fails the link; add it to VERBS_FUNCS and
 * below. */
#include "config.h"
#include "core/port/verbsdl.h"

#include <errno.h>
#include <infiniband/verbs.h>

#include "core/base/dynlib.h"

/* verbs.h makes these macros around inline helpers that end up calling
 * the exported functions defined below. */
#undef ibv_query_port
#undef ibv_reg_mr

/* Called through iv, named without the ibv_ prefix: iv.open_device() is
 * libibverbs' ibv_open_device(). */
#define VERBS_FUNCS(X) X(ack_async_event) X(alloc_pd) X(close_device) \
	X(create_ah) X(create_cq) X(create_qp) X(dealloc_pd) X(dereg_mr) \
	X(destroy_ah) X(destroy_cq) X(destroy_qp) X(free_device_list) \
	X(get_async_event) X(get_device_list) X(get_device_name) X(modify_qp) \
	X(open_device) X(query_device) X(query_gid) X(query_port) X(reg_mr) \
	X(reg_mr_iova2) X(wc_status_str)

static struct {
#define IV_FIELD(f) __typeof__(ibv_##f) *f;
	VERBS_FUNCS(IV_FIELD)
#undef IV_FIELD
	__typeof__(_ibv_query_gid_ex) *query_gid_ex;
	__typeof__(_ibv_query_gid_table) *query_gid_table;
} iv;
#define IV_SYM(f) { "ibv_" #f, (void **)&iv.f },
static const struct dynlib_sym iv_syms[] = {
	VERBS_FUNCS(IV_SYM)
	{ "_ibv_query_gid_ex", (void **)&iv.query_gid_ex },
	{ "_ibv_query_gid_table", (void **)&iv.query_gid_table },
};
#undef IV_SYM
static struct dynlib iv_lib = DYNLIB(VERBS_SONAME, "libibverbs", "libibverbs1", iv_syms);

int verbsdl_load(char *err, size_t errlen)
{
	return dynlib_need(&iv_lib, err, errlen);
}

/* The one way in: every other function takes what this one listed. */
struct ibv_device **ibv_get_device_list(int *num_devices)
{
	if (dynlib_need(&iv_lib, NULL, 0)) {
		errno = ELIBACC;
		return NULL;
	}
	return iv.get_device_list(num_devices);
}

void ibv_free_device_list(struct ibv_device **list)
{
	iv.free_device_list(list);
}

const char *ibv_get_device_name(struct ibv_device *device)
{
	return iv.get_device_name(device);
}

struct ibv_context *ibv_open_device(struct ibv_device *device)
{
	return iv.open_device(device);
}

int ibv_close_device(struct ibv_context *context)
{
	return iv.close_device(context);
}

int ibv_get_async_event(struct ibv_context *context, struct ibv_async_event *event)
{
	return iv.get_async_event(context, event);
}

void ibv_ack_async_event(struct ibv_async_event *event)
{
	iv.ack_async_event(event);
}

int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *device_attr)
{
	return iv.query_device(context, device_attr);
}

int ibv_query_port(struct ibv_context *context, uint8_t port_num,
		   struct _compat_ibv_port_attr *port_attr)
{
	return iv.query_port(context, port_num, port_attr);
}

int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)
{
	return iv.query_gid(context, port_num, index, gid);
}

int _ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num, uint32_t gid_index,
		      struct ibv_gid_entry *entry, uint32_t flags, size_t entry_size)
{
	return iv.query_gid_ex(context, port_num, gid_index, entry, flags, entry_size);
}

ssize_t _ibv_query_gid_table(struct ibv_context *context, struct ibv_gid_entry *entries,
			     size_t max_entries, uint32_t flags, size_t entry_size)
{
	return iv.query_gid_table(context, entries, max_entries, flags, entry_size);
}

struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
{
	return iv.alloc_pd(context);
}

int ibv_dealloc_pd(struct ibv_pd *pd)
{
	return iv.dealloc_pd(pd);
}

struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	return iv.reg_mr(pd, addr, length, access);
}

struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova,
				unsigned int access)
{
	return iv.reg_mr_iova2(pd, addr, length, iova, access);
}

int ibv_dereg_mr(struct ibv_mr *mr)
{
	return iv.dereg_mr(mr);
}

struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context,
			     struct ibv_comp_channel *channel, int comp_vector)
{
	return iv.create_cq(context, cqe, cq_context, channel, comp_vector);
}

int ibv_destroy_cq(struct ibv_cq *cq)
{
	return iv.destroy_cq(cq);
}

struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)
{
	return iv.create_qp(pd, qp_init_attr);
}

int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
{
	return iv.modify_qp(qp, attr, attr_mask);
}

int ibv_destroy_qp(struct ibv_qp *qp)
{
	return iv.destroy_qp(qp);
}

struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	return iv.create_ah(pd, attr);
}

int ibv_destroy_ah(struct ibv_ah *ah)
{
	return iv.destroy_ah(ah);
}

const char *ibv_wc_status_str(enum ibv_wc_status status)
{
	return iv.wc_status_str(status);
}
