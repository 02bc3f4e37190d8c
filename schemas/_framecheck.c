/* The C fast path of ``schemas/validate.py``'s batch-frame checks, over the frame's msgpack bytes, for a frame the
 * typed decoder has already accepted. In Python the checks cost twice the decode (a few attribute reads and
 * comparisons per event, each a Python operation); here they cost a walk over the bytes.
 *
 * check(payload, first_event, first_decision, last_at, seats, end_tag)
 *     -> (events, end_events, decisions, last_at), or None
 *
 * The same checks as ``FrameCheck.frame`` (its docstring and the module's say what they are): events numbered on
 * from ``first_event`` one by one, each event's player a seat or -1; decisions numbered on from ``first_decision``,
 * each at an event number of the frame not before ``last_at``, by a seat, with a decision point's name, at least one
 * option and ``chosen`` an index into them; plus the count of events tagged ``end_tag`` (the ruleset's end event).
 * Anything else, or anything unexpected in the bytes, gives None: the reference then runs and names what is wrong
 * (or accepts the frame), so this path never accepts a frame the reference refuses. Optional: without a compiler
 * the reference does all the work (tests/test_framecheck.py compares the two). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef struct {
    const unsigned char *p, *end;
} Rd;

#define NEED(r, n) ((r)->end - (r)->p >= (Py_ssize_t)(n))

static inline uint32_t be16(const unsigned char *p) { return ((uint32_t)p[0] << 8) | p[1]; }
static inline uint32_t be32(const unsigned char *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline uint64_t be64(const unsigned char *p) { return ((uint64_t)be32(p) << 32) | be32(p + 4); }

/* An array header; 0 on success. */
static int rd_array(Rd *r, Py_ssize_t *n) {
    if (!NEED(r, 1)) return -1;
    unsigned char b = *r->p;
    if ((b & 0xf0) == 0x90) {
        *n = b & 0x0f;
        r->p += 1;
    } else if (b == 0xdc && NEED(r, 3)) {
        *n = be16(r->p + 1);
        r->p += 3;
    } else if (b == 0xdd && NEED(r, 5)) {
        *n = be32(r->p + 1);
        r->p += 5;
    } else
        return -1;
    return 0;
}

/* An integer (never a bool) that fits an int64; 0 on success. */
static int rd_int(Rd *r, int64_t *v) {
    if (!NEED(r, 1)) return -1;
    unsigned char b = *r->p;
    if (b <= 0x7f || b >= 0xe0) { /* positive and negative fixints */
        *v = b <= 0x7f ? (int64_t)b : (int64_t)(int8_t)b;
        r->p += 1;
        return 0;
    }
    static const int size[8] = {1, 2, 4, 8, 1, 2, 4, 8}; /* 0xcc..0xd3 */
    if (b < 0xcc || b > 0xd3) return -1;
    int n = size[b - 0xcc];
    if (!NEED(r, 1 + n)) return -1;
    const unsigned char *q = r->p + 1;
    switch (b) {
    case 0xcc: *v = q[0]; break;
    case 0xcd: *v = be16(q); break;
    case 0xce: *v = be32(q); break;
    case 0xcf: {
        uint64_t u = be64(q);
        if (u > INT64_MAX) return -1;
        *v = (int64_t)u;
        break;
    }
    case 0xd0: *v = (int8_t)q[0]; break;
    case 0xd1: *v = (int16_t)be16(q); break;
    case 0xd2: *v = (int32_t)be32(q); break;
    default: *v = (int64_t)be64(q);
    }
    r->p += 1 + n;
    return 0;
}

/* A string's length (its bytes skipped: the typed decoder has checked them); 0 on success. */
static int rd_str_len(Rd *r, Py_ssize_t *len) {
    if (!NEED(r, 1)) return -1;
    unsigned char b = *r->p;
    Py_ssize_t head;
    if ((b & 0xe0) == 0xa0) {
        *len = b & 0x1f;
        head = 1;
    } else if (b == 0xd9 && NEED(r, 2)) {
        *len = r->p[1];
        head = 2;
    } else if (b == 0xda && NEED(r, 3)) {
        *len = be16(r->p + 1);
        head = 3;
    } else if (b == 0xdb && NEED(r, 5)) {
        *len = be32(r->p + 1);
        head = 5;
    } else
        return -1;
    if (!NEED(r, head + *len)) return -1;
    r->p += head + *len;
    return 0;
}

/* ``count`` values, skipped; 0 on success. Iterative: a container adds its members to the count. Only what a typed
 * frame holds: nil, bools, integers, strings, arrays, maps (floats, binaries and extensions, which no record has,
 * give -1). */
static int skip(Rd *r, Py_ssize_t count) {
    const unsigned char *p = r->p, *end = r->end;
    while (count > 0) {
        if (count > end - p) return -1; /* every value takes a byte at least */
        unsigned char b = *p;
        Py_ssize_t size; /* the bytes of this value, or of its container's header */
        count -= 1;
        if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3)
            size = 1;
        else if ((b & 0xe0) == 0xa0)
            size = 1 + (b & 0x1f);
        else if ((b & 0xf0) == 0x90) {
            count += b & 0x0f;
            size = 1;
        } else if ((b & 0xf0) == 0x80) {
            count += 2 * (b & 0x0f);
            size = 1;
        } else if (b >= 0xcc && b <= 0xd3)
            size = 1 + ((Py_ssize_t)1 << ((b - 0xcc) & 3));
        else if (end - p < 5)
            return -1;
        else if (b == 0xd9)
            size = 2 + p[1];
        else if (b == 0xda)
            size = 3 + be16(p + 1);
        else if (b == 0xdb)
            size = 5 + (Py_ssize_t)be32(p + 1);
        else if (b == 0xdc) {
            count += be16(p + 1);
            size = 3;
        } else if (b == 0xdd) {
            count += be32(p + 1);
            size = 5;
        } else if (b == 0xde) {
            count += 2 * (Py_ssize_t)be16(p + 1);
            size = 3;
        } else if (b == 0xdf) {
            count += 2 * (Py_ssize_t)be32(p + 1);
            size = 5;
        } else
            return -1;
        if (size > end - p) return -1;
        p += size;
    }
    r->p = p;
    return 0;
}

/* The events array: [tag, n, turn, step, player, ...] each (records.Event's envelope). */
static int check_events(Rd *r, int64_t first, int64_t seats, int64_t end_tag, Py_ssize_t *count, Py_ssize_t *ends) {
    if (rd_array(r, count) < 0) return -1;
    *ends = 0;
    for (Py_ssize_t i = 0; i < *count; i++) {
        Py_ssize_t fields, len;
        int64_t tag, n, turn, player;
        if (rd_array(r, &fields) < 0 || fields < 5) return -1;
        if (rd_int(r, &tag) < 0 || rd_int(r, &n) < 0 || n != first + i) return -1;
        if (rd_int(r, &turn) < 0 || rd_str_len(r, &len) < 0 || rd_int(r, &player) < 0) return -1;
        if (player < -1 || player >= seats) return -1;
        *ends += tag == end_tag;
        if (skip(r, fields - 5) < 0) return -1;
    }
    return 0;
}

/* The decisions array: [n, at, player, point, offered, chosen] each, and a seventh value when the table answered
 * it (records.Decision.automatic, a bool the typed decoder has checked). */
static int check_decisions(Rd *r, int64_t first, int64_t low, int64_t high, int64_t seats, int64_t *last_at,
                           Py_ssize_t *count) {
    if (rd_array(r, count) < 0) return -1;
    for (Py_ssize_t i = 0; i < *count; i++) {
        Py_ssize_t fields, len, options;
        int64_t n, at, player, chosen;
        if (rd_array(r, &fields) < 0 || (fields != 6 && fields != 7)) return -1;
        if (rd_int(r, &n) < 0 || n != first + i) return -1;
        if (rd_int(r, &at) < 0 || at < (low > *last_at ? low : *last_at) || at > high) return -1;
        if (rd_int(r, &player) < 0 || player < 0 || player >= seats) return -1;
        if (rd_str_len(r, &len) < 0 || len == 0) return -1;
        if (rd_array(r, &options) < 0 || options == 0) return -1;
        if (skip(r, options) < 0) return -1;
        if (rd_int(r, &chosen) < 0 || chosen < 0 || chosen >= options) return -1;
        if (fields == 7 && skip(r, 1) < 0) return -1;
        *last_at = at;
    }
    return 0;
}

static PyObject *check(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "check(payload, first_event, first_decision, last_at, seats, end_tag) takes six arguments");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) return NULL;
    int64_t numbers[5];
    for (int i = 0; i < 5; i++) {
        numbers[i] = PyLong_AsLongLong(args[i + 1]);
        if (numbers[i] == -1 && PyErr_Occurred()) {
            PyBuffer_Release(&view);
            return NULL;
        }
    }
    int64_t first_event = numbers[0], first_decision = numbers[1], last_at = numbers[2], seats = numbers[3];
    Rd r = {(const unsigned char *)view.buf, (const unsigned char *)view.buf + view.len};
    Py_ssize_t top, events, ends, decisions;
    int ok = rd_array(&r, &top) == 0 && top == 2 &&
             check_events(&r, first_event, seats, numbers[4], &events, &ends) == 0 &&
             check_decisions(&r, first_decision, first_event, first_event + events, seats, &last_at, &decisions) ==
                 0 &&
             r.p == r.end;
    PyBuffer_Release(&view);
    if (!ok) Py_RETURN_NONE;
    return Py_BuildValue("(nnnL)", events, ends, decisions, (long long)last_at);
}

static PyMethodDef methods[] = {
    {"check", (PyCFunction)(void (*)(void))check, METH_FASTCALL,
     "check(payload, first_event, first_decision, last_at, seats, end_tag) -> (events, end_events, decisions, "
     "last_at), or None where the reference must look."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_framecheck", NULL, 0, methods};

PyMODINIT_FUNC PyInit__framecheck(void) { return PyModule_Create(&module); }
