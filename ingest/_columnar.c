/* Batch frames of a log (msgpack) straight into the column buffers of the events and decisions tables.

   The pure-Python reference is ingest/flatten.py; this is the same transformation without a Python object per
   value: each frame is parsed once, each event appended to its columns in file order (so the table needs no
   sort), and the `extra`, `offered` and `chosen_option` JSON texts are written while parsing. Anything this code
   does not handle exactly as the reference does (an unknown tag, a short row from an older log, a value of
   another type, a float, a string needing JSON escapes, invalid UTF-8) raises `Unsupported`, and the caller
   flattens the chunk with the reference, which accepts the row or names what is wrong with it.

   Columns (_columnar_buffers.h): int32 and int8 values with a validity bitmap; strings and lists of int32 as Arrow
   offsets + data. Reading msgpack and writing JSON: _columnar_msgpack.h. `finish()` copies each column's buffers
   into pyarrow buffers, for Array.from_buffers. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_columnar_buffers.h"
#include "_columnar_msgpack.h"

static PyObject *Unsupported; /* the exception: this frame needs the reference flattener */

/* ---------------------------------------------------------------- plans: what each event kind's fields become */

enum { T_INT, T_STR, T_LIST_INT, T_BOOL }; /* field types, as ingest/columnar.py numbers them */

enum { /* the events table's columns, in ingest.plans.EVENT_SCHEMA order */
       E_FILE, E_N, E_TURN, E_STEP, E_PLAYER, E_KIND, E_CONV, /* + 11 convention columns */
       E_EXTRA = E_CONV + 11, E_NCOLS };

enum { D_FILE, D_N, D_AT, D_PLAYER, D_POINT, D_NOFFERED, D_CHOSEN, D_CHOSEN_KIND, D_CHOSEN_OPTION, D_OFFERED,
       D_NCOLS };
static const int event_col_type[E_NCOLS] = {COL_I32, COL_I32, COL_I32, COL_STR, COL_I8, COL_STR,
                                            COL_I32, COL_LIST, COL_STR, COL_STR, COL_STR, COL_I32,
                                            COL_I32, COL_I32, COL_I32, COL_STR, COL_STR, COL_STR};
static const int decision_col_type[D_NCOLS] = {COL_I32, COL_I32, COL_I32, COL_I8,  COL_STR,
                                               COL_I32, COL_I32, COL_STR, COL_STR, COL_STR};

typedef struct {
    int column; /* convention column 0..10, or -1 for `extra` */
    int type;
    char *key;  /* extra: `{"name":` for the first, `,"name":` after */
    Py_ssize_t key_len;
    int has_absent;     /* a convention field with an absent-value sentinel, stored as NULL (ingest.plans.ABSENT, per
                           kind): an int field's value `absent`, a text field's "" */
    int32_t absent;
} Field;

typedef struct {
    char *name;
    Py_ssize_t name_len;
    Py_ssize_t width; /* tag + every field */
    Field *fields;    /* for row positions 5..width-1 */
    int conv_set[11];
    int unset[11], n_unset; /* the convention columns this kind leaves NULL */
    int has_extra;
} Kind;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n_kinds, n_options;
    int64_t end_tag;   /* the ruleset's end event (-1: none): counted per file, for the closing record's check */
    Kind *kinds;       /* indexed by tag; width 0 where no kind has that tag */
    PyObject **option; /* option class names, indexed by tag; NULL where none */
    const char **option_utf8;
    Py_ssize_t *option_len;
    Py_ssize_t *option_required, *option_width; /* fields an option row must have, and may have */
    signed char **option_types;                  /* each field's type (T_INT, T_STR, T_BOOL; -1: any) */
} PlanObject;

static void plan_dealloc(PlanObject *self) {
    for (Py_ssize_t t = 0; t < self->n_kinds; t++) {
        Kind *k = &self->kinds[t];
        if (k->fields)
            for (Py_ssize_t i = 5; i < k->width; i++) PyMem_Free(k->fields[i - 5].key);
        PyMem_Free(k->fields);
        PyMem_Free(k->name);
    }
    PyMem_Free(self->kinds);
    for (Py_ssize_t t = 0; t < self->n_options; t++) {
        Py_XDECREF(self->option[t]);
        if (self->option_types) PyMem_Free(self->option_types[t]);
    }
    PyMem_Free(self->option_types);
    PyMem_Free(self->option_required);
    PyMem_Free(self->option_width);
    PyMem_Free(self->option);
    PyMem_Free(self->option_utf8);
    PyMem_Free(self->option_len);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static char *copy_utf8(PyObject *s, Py_ssize_t *len, const char *prefix, const char *suffix) {
    Py_ssize_t n;
    const char *u = PyUnicode_AsUTF8AndSize(s, &n);
    if (!u) return NULL;
    size_t a = strlen(prefix), z = strlen(suffix);
    char *p = PyMem_Malloc(a + (size_t)n + z + 1);
    if (!p) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(p, prefix, a);
    memcpy(p + a, u, (size_t)n);
    memcpy(p + a + n, suffix, z + 1);
    *len = (Py_ssize_t)(a + (size_t)n + z);
    return p;
}

/* Plan(kinds, options, end_tag): kinds[tag] is None or (name, width, fields), fields[i] = (column, type, key) for
   row position 5 + i; options[tag] is None or (class name, required fields, field types); end_tag the end event's
   tag or -1. */
static int plan_init(PlanObject *self, PyObject *args, PyObject *kw) {
    PyObject *kinds, *options;
    long long end_tag;
    if (!PyArg_ParseTuple(args, "O!O!L:Plan", &PyList_Type, &kinds, &PyList_Type, &options, &end_tag)) return -1;
    self->end_tag = end_tag;
    Py_ssize_t nk = PyList_GET_SIZE(kinds), no = PyList_GET_SIZE(options);
    self->kinds = PyMem_Calloc((size_t)(nk ? nk : 1), sizeof(Kind));
    self->option = PyMem_Calloc((size_t)(no ? no : 1), sizeof(PyObject *));
    self->option_utf8 = PyMem_Calloc((size_t)(no ? no : 1), sizeof(char *));
    self->option_len = PyMem_Calloc((size_t)(no ? no : 1), sizeof(Py_ssize_t));
    self->option_required = PyMem_Calloc((size_t)(no ? no : 1), sizeof(Py_ssize_t));
    self->option_width = PyMem_Calloc((size_t)(no ? no : 1), sizeof(Py_ssize_t));
    self->option_types = PyMem_Calloc((size_t)(no ? no : 1), sizeof(signed char *));
    if (!self->kinds || !self->option || !self->option_utf8 || !self->option_len || !self->option_required ||
        !self->option_width || !self->option_types) {
        PyErr_NoMemory();
        return -1;
    }
    self->n_kinds = nk;
    self->n_options = no;
    for (Py_ssize_t t = 0; t < nk; t++) {
        PyObject *spec = PyList_GET_ITEM(kinds, t), *name, *fields;
        Py_ssize_t width;
        if (spec == Py_None) continue;
        if (!PyArg_ParseTuple(spec, "UnO!:kind", &name, &width, &PyTuple_Type, &fields)) return -1;
        Kind *k = &self->kinds[t];
        if (width < 5 || PyTuple_GET_SIZE(fields) != width - 5) {
            PyErr_SetString(PyExc_ValueError, "a kind's fields must cover row positions 5..width-1");
            return -1;
        }
        if (!(k->name = copy_utf8(name, &k->name_len, "", ""))) return -1;
        k->width = width;
        k->fields = PyMem_Calloc((size_t)(width - 5 ? width - 5 : 1), sizeof(Field));
        if (!k->fields) {
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t i = 0; i < width - 5; i++) {
            Field *f = &k->fields[i];
            PyObject *key;
            PyObject *absent;
            if (!PyArg_ParseTuple(PyTuple_GET_ITEM(fields, i), "iiUO:field", &f->column, &f->type, &key, &absent))
                return -1;
            if (f->column < -1 || f->column > 10 || f->type < T_INT || f->type > T_BOOL) {
                PyErr_SetString(PyExc_ValueError, "a field's column must be -1..10 and its type 0..3");
                return -1;
            }
            if (absent != Py_None) {
                int ok = f->column >= 0 &&
                         ((f->type == T_INT && PyLong_Check(absent)) ||
                          (f->type == T_STR && PyUnicode_Check(absent) && PyUnicode_GET_LENGTH(absent) == 0));
                if (!ok) {
                    PyErr_SetString(PyExc_ValueError,
                                    "an absent value must be an int of an int convention field or \"\" of a text one");
                    return -1;
                }
                if (f->type == T_INT) {
                    long v = PyLong_AsLong(absent);
                    if ((v == -1 && PyErr_Occurred()) || v < INT32_MIN || v > INT32_MAX) {
                        PyErr_Clear();
                        PyErr_SetString(PyExc_ValueError, "an absent value must fit 32 bits");
                        return -1;
                    }
                    f->absent = (int32_t)v;
                }
                f->has_absent = 1;
            }
            if (f->column >= 0) {
                static const int want[4] = {COL_I32, COL_STR, COL_LIST, -1};
                if (want[f->type] != event_col_type[E_CONV + f->column]) {
                    PyErr_SetString(PyExc_ValueError, "a convention field's type differs from its column's");
                    return -1;
                }
                k->conv_set[f->column] = 1;
            } else {
                f->key = copy_utf8(key, &f->key_len, k->has_extra ? ",\"" : "{\"", "\":");
                if (!f->key) return -1;
                k->has_extra = 1;
            }
        }
        for (int c = 0; c < 11; c++)
            if (!k->conv_set[c]) k->unset[k->n_unset++] = c;
    }
    for (Py_ssize_t t = 0; t < no; t++) {
        PyObject *spec = PyList_GET_ITEM(options, t), *o, *types;
        if (spec == Py_None) continue;
        Py_ssize_t required;
        if (!PyArg_ParseTuple(spec, "UnO!:option", &o, &required, &PyTuple_Type, &types)) return -1;
        Py_ssize_t width = PyTuple_GET_SIZE(types);
        if (required < 0 || required > width) {
            PyErr_SetString(PyExc_ValueError, "an option's required fields must be 0..its width");
            return -1;
        }
        self->option_types[t] = PyMem_Calloc((size_t)(width ? width : 1), 1);
        if (!self->option_types[t]) return (void)PyErr_NoMemory(), -1;
        for (Py_ssize_t i = 0; i < width; i++) {
            long code = PyLong_AsLong(PyTuple_GET_ITEM(types, i));
            if (code == -1 && PyErr_Occurred()) return -1;
            self->option_types[t][i] = (signed char)code;
        }
        self->option_required[t] = required;
        self->option_width[t] = width;
        if (!(self->option_utf8[t] = PyUnicode_AsUTF8AndSize(o, &self->option_len[t]))) return -1;
        Py_INCREF(o);
        self->option[t] = o;
    }
    return 0;
}

static PyTypeObject PlanType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ingest._columnar.Plan",
    .tp_basicsize = sizeof(PlanObject),
    .tp_dealloc = (destructor)plan_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Where each event kind's fields go, and each option tag's class name (see ingest/columnar.py).",
    .tp_init = (initproc)plan_init,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------- the builder */

typedef struct {
    PyObject_HEAD
    Col ev[E_NCOLS];
    Col de[D_NCOLS];
    int busy; /* add_frame runs without the GIL: refuse a second thread on the same builder */
} BuilderObject;

static void builder_dealloc(BuilderObject *self) {
    for (int i = 0; i < E_NCOLS; i++) col_free(&self->ev[i]);
    for (int i = 0; i < D_NCOLS; i++) col_free(&self->de[i]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int builder_init(BuilderObject *self, PyObject *args, PyObject *kw) {
    if (!PyArg_ParseTuple(args, ":Builder")) return -1;
    for (int i = 0; i < E_NCOLS; i++) {
        col_free(&self->ev[i]);
        if (col_init(&self->ev[i], event_col_type[i]) < 0) return (void)PyErr_NoMemory(), -1;
    }
    for (int i = 0; i < D_NCOLS; i++) {
        col_free(&self->de[i]);
        if (col_init(&self->de[i], decision_col_type[i]) < 0) return (void)PyErr_NoMemory(), -1;
    }
    return 0;
}

static int read_field(Rd *r, const Field *f, Col *ev) {
    if (f->column >= 0) {
        Col *c = &ev[E_CONV + f->column];
        if (f->type == T_INT) {
            int32_t v;
            if (rd_i32(r, &v) < 0) return -1;
            return f->has_absent && v == f->absent ? col_null(c) : col_i32(c, v);
        }
        if (f->type == T_STR) {
            const char *s;
            Py_ssize_t n;
            if (rd_str(r, &s, &n) < 0) return -1;
            return n == 0 && f->has_absent ? col_null(c) : col_str(c, s, n);
        }
        Py_ssize_t n;
        if (rd_array(r, &n) < 0) return -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            int32_t v;
            if (rd_i32(r, &v) < 0 || buf_put(&c->values, &v, 4) < 0) return -1;
        }
        return col_close(c);
    }
    Buf *out = &ev[E_EXTRA].values;
    if (buf_put(out, f->key, f->key_len) < 0) return -1;
    switch (f->type) {
    case T_INT: {
        int64_t v;
        int big;
        if (rd_int(r, &v, &big) < 0) return -1;
        if (big) return unsupported("integer out of int64 range");
        return json_int(out, v, 0);
    }
    case T_STR: {
        const char *s;
        Py_ssize_t n;
        return rd_str(r, &s, &n) < 0 ? -1 : json_str(out, s, n);
    }
    case T_BOOL:
        if (!NEED(r, 1) || (*r->p != 0xc2 && *r->p != 0xc3)) return unsupported("expected a bool");
        return *r->p++ == 0xc3 ? buf_put(out, "true", 4) : buf_put(out, "false", 5);
    default: {
        Py_ssize_t n;
        if (rd_array(r, &n) < 0 || buf_byte(out, '[') < 0) return -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            int64_t v;
            int big;
            if ((i && buf_byte(out, ',') < 0) || rd_int(r, &v, &big) < 0) return -1;
            if (big) return unsupported("integer out of int64 range");
            if (json_int(out, v, 0) < 0) return -1;
        }
        return buf_byte(out, ']');
    }
    }
}

/* One file of an add_files() call, and what its frames have shown so far: the structural checks of
   schemas/validate.py (FrameCheck) made here the same way, so that what this refuses the reference names. */
typedef struct {
    PlanObject *plan;
    int file_idx;
    int seats;                   /* players in the header: an event's player is -1 or a seat, a decision's a seat */
    Py_ssize_t first_payload, n_payloads;
    Py_ssize_t events, decisions; /* so far: the next event's and decision's numbers */
    int64_t last_at;              /* the last decision's event number */
    Py_ssize_t end_events;
    int first;
} FileJob;

static int read_event(Rd *r, const PlanObject *plan, Col *ev, FileJob *job, int64_t expected) {
    int32_t file_idx = job->file_idx;
    int *first = &job->first;
    Py_ssize_t width;
    int64_t tag;
    int big;
    if (rd_array(r, &width) < 0 || rd_int(r, &tag, &big) < 0) return -1;
    if (big || tag < 0 || tag >= plan->n_kinds || plan->kinds[tag].width == 0) return unsupported("unknown tag");
    const Kind *k = &plan->kinds[tag];
    if (width != k->width) return unsupported("a row of another width than its kind's");
    int32_t n, turn;
    int64_t player;
    const char *step;
    Py_ssize_t step_len;
    if (rd_i32(r, &n) < 0 || rd_i32(r, &turn) < 0 || rd_str(r, &step, &step_len) < 0 ||
        rd_int(r, &player, &big) < 0)
        return -1;
    if (n != expected) return unsupported("an event out of sequence");
    if (big || player < -1 || player >= job->seats) return unsupported("an event's player is neither -1 nor a seat");
    if (tag == plan->end_tag) job->end_events++;
    if (*first < 0 && turn >= 1 && player >= 0) *first = (int)player;
    if (col_i32(&ev[E_FILE], file_idx) < 0 || col_i32(&ev[E_N], n) < 0 || col_i32(&ev[E_TURN], turn) < 0 ||
        col_str(&ev[E_STEP], step, step_len) < 0 || col_i8(&ev[E_PLAYER], (int8_t)player) < 0 ||
        col_str(&ev[E_KIND], k->name, k->name_len) < 0)
        return -1;
    for (Py_ssize_t i = 5; i < width; i++)
        if (read_field(r, &k->fields[i - 5], ev) < 0) return -1;
    for (int i = 0; i < k->n_unset; i++)
        if (col_null(&ev[E_CONV + k->unset[i]]) < 0) return -1;
    if (k->has_extra) {
        if (buf_byte(&ev[E_EXTRA].values, '}') < 0) return -1;
        return col_close(&ev[E_EXTRA]);
    }
    return col_null(&ev[E_EXTRA]);
}

/* An option's fields (the reader `r` past its tag) against its kind: as many as it needs and may have, each of its
   type (what the typed decoder of schemas/logfile.py checks of every option offered). */
static int check_option(Rd *r, const PlanObject *plan, int64_t tag, Py_ssize_t fields) {
    if (fields < plan->option_required[tag] || fields > plan->option_width[tag])
        return unsupported("an option of another width than its kind's");
    const signed char *types = plan->option_types[tag];
    for (Py_ssize_t i = 0; i < fields; i++) {
        int64_t v;
        int big;
        const char *s;
        Py_ssize_t n;
        switch (types[i]) {
        case T_INT:
            if (rd_int(r, &v, &big) < 0) return -1;
            break;
        case T_STR:
            if (rd_str(r, &s, &n) < 0) return -1;
            break;
        case T_BOOL:
            if (!NEED(r, 1) || (*r->p != 0xc2 && *r->p != 0xc3)) return unsupported("expected a bool");
            r->p++;
            break;
        default:
            return 0; /* a field of another type: the values after it are not checked here (json_any reads them) */
        }
    }
    return 0;
}

static int read_decision(Rd *r, const PlanObject *plan, Col *de, FileJob *job, int64_t low, int64_t high) {
    int32_t file_idx = job->file_idx;
    Py_ssize_t width, n_offered;
    int32_t n, at, chosen;
    int64_t player;
    int big;
    const char *point;
    Py_ssize_t point_len;
    if (rd_array(r, &width) < 0) return -1;
    if (width != 6) return unsupported("a decision row of other than 6 values");
    if (rd_i32(r, &n) < 0 || rd_i32(r, &at) < 0 || rd_int(r, &player, &big) < 0 ||
        rd_str(r, &point, &point_len) < 0 || rd_array(r, &n_offered) < 0)
        return -1;
    if (n != job->decisions) return unsupported("a decision out of sequence");
    if (at < low || at < job->last_at || at > high) return unsupported("a decision's event number outside its frame");
    if (big || player < 0 || player >= job->seats) return unsupported("a decision's player is not a seat");
    if (n_offered < 1) return unsupported("a decision without options");
    if (point_len == 0) return unsupported("a decision without its point's name");
    /* offered, as JSON: remember where each option's text starts, and its tag */
    Buf *out = &de[D_OFFERED].values;
    Py_ssize_t starts_small[65], *starts = starts_small;
    int64_t tags_small[64], *tags = tags_small;
    if (n_offered > 64) {
        starts = PyMem_RawMalloc(sizeof(Py_ssize_t) * (size_t)(n_offered + 1));
        tags = PyMem_RawMalloc(sizeof(int64_t) * (size_t)n_offered);
        if (!starts || !tags) {
            PyMem_RawFree(starts);
            PyMem_RawFree(tags);
            return fail(FAIL_MEMORY, "out of memory");
        }
    }
    int rc = -1;
    if (buf_byte(out, '[') < 0) goto done;
    for (Py_ssize_t i = 0; i < n_offered; i++) {
        if (i && buf_byte(out, ',') < 0) goto done;
        starts[i] = out->len;
        /* an option is an array led by its tag */
        Rd peek = *r;
        Py_ssize_t len;
        if (rd_array(&peek, &len) < 0) goto done;
        if (len < 1) {
            unsupported("an empty option");
            goto done;
        }
        if (rd_int(&peek, &tags[i], &big) < 0) goto done;
        if (big || tags[i] < 0 || tags[i] >= plan->n_options || !plan->option[tags[i]]) {
            unsupported("an unknown option tag");
            goto done;
        }
        if (check_option(&peek, plan, tags[i], len - 1) < 0) goto done;
        if (json_any(r, out, 1) < 0) goto done;
    }
    starts[n_offered] = out->len;
    if (buf_byte(out, ']') < 0 || rd_i32(r, &chosen) < 0) goto done;
    if (chosen < 0 || chosen >= n_offered) {
        unsupported("a chosen index outside the options");
        goto done;
    }
    int64_t tag = tags[chosen];
    Py_ssize_t kind_len = plan->option_len[tag];
    const char *kind = plan->option_utf8[tag];
    /* the chosen option's text, copied out of offered (the end is the next ',' or the closing ']') */
    Py_ssize_t a = starts[chosen], z = chosen + 1 < n_offered ? starts[chosen + 1] - 1 : out->len - 1;
    if (col_close(&de[D_OFFERED]) < 0 || col_i32(&de[D_FILE], file_idx) < 0 || col_i32(&de[D_N], n) < 0 ||
        col_i32(&de[D_AT], at) < 0 || col_i8(&de[D_PLAYER], (int8_t)player) < 0 ||
        col_str(&de[D_POINT], point, point_len) < 0 || col_i32(&de[D_NOFFERED], (int32_t)n_offered) < 0 ||
        col_i32(&de[D_CHOSEN], chosen) < 0 || col_str(&de[D_CHOSEN_KIND], kind, kind_len) < 0 ||
        col_str(&de[D_CHOSEN_OPTION], out->p + a, z - a) < 0)
        goto done;
    job->decisions++;
    job->last_at = at;
    rc = 0;
done:
    if (starts != starts_small) PyMem_RawFree(starts);
    if (tags != tags_small) PyMem_RawFree(tags);
    return rc;
}

PyDoc_STRVAR(add_files_doc,
             "add_files(files) -> [(events, decisions, first_player, end_events), ...]\n\n"
             "Append the rows of each (plan, file_idx, payloads, seats) in order, each file's events and decisions "
             "numbered from 0 and checked as schemas/validate.py does; ``first_player`` is the player of the "
             "file's first event from turn 1 on (-1: none), ``end_events`` how many end events it holds. One call per "
             "chunk of files: the GIL is released for the whole of it, so threads parse side by side without "
             "handing the GIL back and forth at every frame. Raises Unsupported for anything the reference "
             "flattener must handle; rows are then left half-written, so the caller drops the builder's rows.");

static int parse_frame(Rd *r, BuilderObject *self, FileJob *job) {
    const PlanObject *plan = job->plan;
    Py_ssize_t top, n_events, n_decisions;
    int64_t low = job->events;
    if (rd_array(r, &top) < 0) return -1;
    if (top != 2) return unsupported("a payload of other than [events, decisions]");
    if (rd_array(r, &n_events) < 0) return -1;
    for (Py_ssize_t i = 0; i < n_events; i++)
        if (read_event(r, plan, self->ev, job, low + i) < 0) return -1;
    job->events += n_events;
    if (rd_array(r, &n_decisions) < 0) return -1;
    for (Py_ssize_t i = 0; i < n_decisions; i++)
        if (read_decision(r, plan, self->de, job, low, job->events) < 0) return -1;
    if (r->p != r->end) return unsupported("trailing bytes after the payload");
    return 0;
}

static PyObject *builder_add_files(BuilderObject *self, PyObject *files) {
    if (!PyList_Check(files)) {
        PyErr_SetString(PyExc_TypeError, "add_files takes a list of (plan, file_idx, payloads, seats)");
        return NULL;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "a Builder is filled by one thread at a time");
        return NULL;
    }
    Py_ssize_t n_files = PyList_GET_SIZE(files), n_payloads = 0;
    for (Py_ssize_t i = 0; i < n_files; i++) {
        PyObject *item = PyList_GET_ITEM(files, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 4 || !PyList_Check(PyTuple_GET_ITEM(item, 2))) {
            PyErr_SetString(PyExc_TypeError, "add_files takes a list of (plan, file_idx, payloads, seats)");
            return NULL;
        }
        n_payloads += PyList_GET_SIZE(PyTuple_GET_ITEM(item, 2));
    }
    FileJob *jobs = PyMem_Calloc((size_t)(n_files ? n_files : 1), sizeof(FileJob));
    Py_buffer *views = PyMem_Calloc((size_t)(n_payloads ? n_payloads : 1), sizeof(Py_buffer));
    if (!jobs || !views) {
        PyMem_Free(jobs);
        PyMem_Free(views);
        return PyErr_NoMemory();
    }
    Py_ssize_t held = 0, files_held = 0; /* buffers and plans to release */
    PyObject *result = NULL;
    for (Py_ssize_t i = 0; i < n_files; i++) {
        PyObject *item = PyList_GET_ITEM(files, i), *payloads = PyTuple_GET_ITEM(item, 2);
        FileJob *job = &jobs[i];
        if (!PyObject_TypeCheck(PyTuple_GET_ITEM(item, 0), &PlanType)) {
            PyErr_SetString(PyExc_TypeError, "a file's plan must be a Plan");
            goto done;
        }
        job->file_idx = (int)PyLong_AsLong(PyTuple_GET_ITEM(item, 1));
        if (job->file_idx == -1 && PyErr_Occurred()) goto done;
        job->seats = (int)PyLong_AsLong(PyTuple_GET_ITEM(item, 3));
        if (job->seats == -1 && PyErr_Occurred()) goto done;
        job->plan = (PlanObject *)Py_NewRef(PyTuple_GET_ITEM(item, 0));
        files_held++;
        job->first_payload = held;
        job->n_payloads = PyList_GET_SIZE(payloads);
        for (Py_ssize_t k = 0; k < job->n_payloads; k++) {
            if (PyObject_GetBuffer(PyList_GET_ITEM(payloads, k), &views[held], PyBUF_SIMPLE) < 0) goto done;
            held++;
        }
    }
    int rc = 0;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    fail_kind = FAIL_NONE;
    for (Py_ssize_t i = 0; i < n_files && rc == 0; i++) {
        FileJob *job = &jobs[i];
        job->first = -1;
        for (Py_ssize_t k = 0; k < job->n_payloads && rc == 0; k++) {
            Py_buffer *v = &views[job->first_payload + k];
            Rd r = {(const unsigned char *)v->buf, (const unsigned char *)v->buf + v->len};
            rc = parse_frame(&r, self, job);
        }
    }
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (rc < 0) {
        PyObject *kind = fail_kind == FAIL_MEMORY ? PyExc_MemoryError
                         : fail_kind == FAIL_OVERFLOW ? PyExc_OverflowError : Unsupported;
        PyErr_SetString(kind, fail_what ? fail_what : "failed");
        goto done;
    }
    result = PyList_New(n_files);
    for (Py_ssize_t i = 0; result && i < n_files; i++) {
        PyObject *t = Py_BuildValue("nnin", jobs[i].events, jobs[i].decisions, jobs[i].first, jobs[i].end_events);
        if (!t) Py_CLEAR(result);
        else PyList_SET_ITEM(result, i, t);
    }
done:
    for (Py_ssize_t k = 0; k < held; k++) PyBuffer_Release(&views[k]);
    for (Py_ssize_t i = 0; i < files_held; i++) Py_DECREF(jobs[i].plan);
    PyMem_Free(views);
    PyMem_Free(jobs);
    return result;
}

static int builder_busy(BuilderObject *self);

static PyObject *builder_rows(BuilderObject *self, PyObject *unused) {
    return Py_BuildValue("nn", self->ev[0].rows, self->de[0].rows);
}

static PyObject *builder_truncate(BuilderObject *self, PyObject *args) {
    Py_ssize_t events, decisions;
    if (!PyArg_ParseTuple(args, "nn:truncate", &events, &decisions) || builder_busy(self) < 0) return NULL;
    for (int i = 0; i < E_NCOLS; i++) col_truncate(&self->ev[i], events);
    for (int i = 0; i < D_NCOLS; i++) col_truncate(&self->de[i], decisions);
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- handing the columns over */

/* The buffer's bytes, copied into a new object from allocate(size) (a pyarrow buffer from its memory pool). The
   builder keeps its own buffers for the next chunk: fresh memory for every chunk would spend about half as long
   in page faults as in parsing, while the pool reuses what the tables of earlier chunks freed. */
static PyObject *copy_out(Buf *b, PyObject *allocate) {
    PyObject *obj = PyObject_CallFunction(allocate, "n", b->len);
    if (!obj) return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_WRITABLE) < 0) {
        Py_DECREF(obj);
        return NULL;
    }
    if (view.len != b->len) {
        PyBuffer_Release(&view);
        Py_DECREF(obj);
        PyErr_SetString(PyExc_ValueError, "allocate(size) gave a buffer of another size");
        return NULL;
    }
    if (b->len) memcpy(view.buf, b->p, (size_t)b->len);
    PyBuffer_Release(&view);
    return obj;
}

/* (rows, nulls, validity, offsets or None, values) */
static PyObject *col_export(Col *c, PyObject *allocate) {
    int offsets = c->type == COL_STR || c->type == COL_LIST;
    PyObject *valid = c->nulls ? copy_out(&c->valid, allocate) : Py_NewRef(Py_None);
    PyObject *values = valid ? copy_out(&c->values, allocate) : NULL;
    PyObject *off = !values ? NULL : offsets ? copy_out(&c->offsets, allocate) : Py_NewRef(Py_None);
    PyObject *t = off ? Py_BuildValue("nnOOO", c->rows, c->nulls, valid, off, values) : NULL;
    Py_XDECREF(valid);
    Py_XDECREF(values);
    Py_XDECREF(off);
    return t;
}

static PyObject *export_all(Col *cols, int n, PyObject *allocate) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = col_export(&cols[i], allocate);
        if (!t) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static int builder_busy(BuilderObject *self) {
    if (!self->busy) return 0;
    PyErr_SetString(PyExc_RuntimeError, "a Builder is filled by one thread at a time");
    return -1;
}

static PyObject *builder_finish(BuilderObject *self, PyObject *allocate) {
    if (builder_busy(self) < 0) return NULL;
    PyObject *ev = export_all(self->ev, E_NCOLS, allocate);
    PyObject *de = ev ? export_all(self->de, D_NCOLS, allocate) : NULL;
    PyObject *t = de ? PyTuple_Pack(2, ev, de) : NULL;
    Py_XDECREF(ev);
    Py_XDECREF(de);
    if (t) {
        for (int i = 0; i < E_NCOLS; i++) col_truncate(&self->ev[i], 0);
        for (int i = 0; i < D_NCOLS; i++) col_truncate(&self->de[i], 0);
    }
    return t;
}

static PyMethodDef builder_methods[] = {
    {"add_files", (PyCFunction)builder_add_files, METH_O, add_files_doc},
    {"rows", (PyCFunction)builder_rows, METH_NOARGS, "rows() -> (event rows, decision rows) so far"},
    {"truncate", (PyCFunction)builder_truncate, METH_VARARGS,
     "truncate(events, decisions): drop the rows after these counts (a file that failed after some frames)"},
    {"finish", (PyCFunction)builder_finish, METH_O,
     "finish(allocate) -> (event columns, decision columns), each (rows, nulls, validity, offsets or None, "
     "values), every buffer copied into allocate(size); the builder is then empty, its memory kept for reuse"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BuilderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ingest._columnar.Builder",
    .tp_basicsize = sizeof(BuilderObject),
    .tp_dealloc = (destructor)builder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The events and decisions columns of a chunk of log files, filled frame by frame.",
    .tp_methods = builder_methods,
    .tp_init = (initproc)builder_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "ingest._columnar",
    "Batch frames of annals logs straight to Arrow column buffers (the fast path of ingest/columnar.py).", -1, NULL,
};

PyMODINIT_FUNC PyInit__columnar(void) {
    if (PyType_Ready(&PlanType) < 0 || PyType_Ready(&BuilderType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Unsupported = PyErr_NewExceptionWithDoc(
        "ingest._columnar.Unsupported",
        "A frame holds something only the reference flattener (ingest/flatten.py) handles.", NULL, NULL);
    if (!Unsupported || PyModule_AddObjectRef(m, "Unsupported", Unsupported) < 0 ||
        PyModule_AddObjectRef(m, "Plan", (PyObject *)&PlanType) < 0 ||
        PyModule_AddObjectRef(m, "Builder", (PyObject *)&BuilderType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
