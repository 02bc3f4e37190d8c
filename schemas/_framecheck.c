/* The C fast path of ``schemas/validate.py``'s batch-frame checks, for a frame the typed decoder has already read
 * into records. In Python the checks cost twice the decode (a few attribute reads and comparisons per event, each a
 * Python operation); a walk over the frame's bytes cost a tenth of the decode; reading the few fields from each
 * decoded record's slots costs a few hundredths.
 *
 * typed(events, decisions, first_event, first_decision, last_at, seats, end_type, event_base, decision_type)
 *     -> (events, end_events, decisions, last_at), or None
 *
 * The same checks as ``FrameCheck.frame`` (its docstring and the module's say what they are): events numbered on
 * from ``first_event`` one by one, each event's player a seat or -1; decisions numbered on from ``first_decision``,
 * each at an event number of the frame not before ``last_at``, by a seat, with a decision point's name, at least one
 * option and ``chosen`` an index into them; plus the count of events of type ``end_type`` (the ruleset's end event).
 * Anything else gives None: the reference then runs and names what is wrong (or accepts the frame), so this path
 * never accepts a frame the reference refuses. Optional: without a compiler the reference does all the work
 * (tests/test_framecheck.py compares the two). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <structmember.h>

#include "_framelayer.h" /* the frame layer: scan, heads, seal */

/* The reader has the frame decoded already (msgspec's typed decoder has checked every field's type), so the checks
 * read the few fields they need straight from each record's slot: the offsets of ``n`` and ``player`` of
 * ``event_base`` (records.Event, whose fields every event inherits at the same place) and of the six fields of
 * ``decision_type`` (records.Decision), taken from their member descriptors. A record of another type, an empty
 * slot or an int that is not exactly an int gives None, and the reference looks. */

static int slot_offset(PyTypeObject *type, const char *name, Py_ssize_t *offset) {
    PyObject *descr = PyObject_GetAttrString((PyObject *)type, name);
    if (descr == NULL) return -1;
    int ok = Py_IS_TYPE(descr, &PyMemberDescr_Type) && ((PyMemberDescrObject *)descr)->d_member->type == T_OBJECT_EX;
    if (ok) *offset = ((PyMemberDescrObject *)descr)->d_member->offset;
    Py_DECREF(descr);
    if (!ok) PyErr_Format(PyExc_TypeError, "%s.%s is not a slot", type->tp_name, name);
    return ok ? 0 : -1;
}

#define SLOT(obj, offset) (*(PyObject **)((char *)(obj) + (offset)))

/* An exact int that fits an int64; 0 on success. */
static inline int int_of(PyObject *v, int64_t *out) {
    if (v == NULL || !PyLong_CheckExact(v)) return -1;
    /* Most numbers of a log fit one digit: read it in place rather than call into the interpreter for each. */
#if PY_VERSION_HEX >= 0x030C0000
    if (PyUnstable_Long_IsCompact((PyLongObject *)v)) {
        *out = PyUnstable_Long_CompactValue((PyLongObject *)v);
        return 0;
    }
#else
    Py_ssize_t size = Py_SIZE(v);
    if (size >= -1 && size <= 1) {
        *out = size * (int64_t)((PyLongObject *)v)->ob_digit[0];
        return 0;
    }
#endif
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow || (x == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return -1;
    }
    *out = x;
    return 0;
}

static PyTypeObject *cached_event = NULL, *cached_decision = NULL;
static Py_ssize_t off_n, off_player, off_dn, off_at, off_dplayer, off_point, off_offered, off_chosen, off_automatic;

/* The slots' offsets, looked up once per type (the types live as long as the module that made them: a borrowed
 * pointer is enough for a compare). */
static int event_offsets(PyTypeObject *event) {
    if (event == cached_event) return 0;
    cached_event = NULL;
    if (slot_offset(event, "n", &off_n) < 0 || slot_offset(event, "player", &off_player) < 0) return -1;
    cached_event = event;
    return 0;
}

static int decision_offsets(PyTypeObject *decision) {
    if (decision == cached_decision) return 0;
    cached_decision = NULL;
    if (slot_offset(decision, "n", &off_dn) < 0 || slot_offset(decision, "at", &off_at) < 0 ||
        slot_offset(decision, "player", &off_dplayer) < 0 || slot_offset(decision, "point", &off_point) < 0 ||
        slot_offset(decision, "offered", &off_offered) < 0 || slot_offset(decision, "chosen", &off_chosen) < 0 ||
        slot_offset(decision, "automatic", &off_automatic) < 0)
        return -1;
    cached_decision = decision;
    return 0;
}

static PyObject *typed(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9 || !PyList_CheckExact(args[0]) || !PyList_CheckExact(args[1]) || !PyType_Check(args[7]) ||
        !PyType_Check(args[8])) {
        PyErr_SetString(PyExc_TypeError, "typed(events, decisions, first_event, first_decision, last_at, seats, "
                                         "end_type, event_base, decision_type): lists, five ints and three types");
        return NULL;
    }
    PyTypeObject *event_base = (PyTypeObject *)args[7], *decision_type = (PyTypeObject *)args[8];
    if (event_offsets(event_base) < 0 || decision_offsets(decision_type) < 0) return NULL;
    int64_t numbers[4];
    for (int i = 0; i < 4; i++) {
        numbers[i] = PyLong_AsLongLong(args[i + 2]);
        if (numbers[i] == -1 && PyErr_Occurred()) return NULL;
    }
    int64_t first = numbers[0], first_decision = numbers[1], last_at = numbers[2], seats = numbers[3];
    PyObject *end_type = args[6];
    PyObject *events = args[0], *decisions = args[1];
    Py_ssize_t count = PyList_GET_SIZE(events), ends = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *e = PyList_GET_ITEM(events, i);
        int64_t n, player;
        /* an event's class derives from event_base directly; anything else asks the interpreter */
        if (Py_TYPE(e)->tp_base != event_base && !PyObject_TypeCheck(e, event_base)) Py_RETURN_NONE;
        if (int_of(SLOT(e, off_n), &n) < 0 || n != first + i) Py_RETURN_NONE;
        if (int_of(SLOT(e, off_player), &player) < 0 || player < -1 || player >= seats) Py_RETURN_NONE;
        ends += (PyObject *)Py_TYPE(e) == end_type;
    }
    int64_t high = first + count;
    Py_ssize_t decided = PyList_GET_SIZE(decisions);
    for (Py_ssize_t i = 0; i < decided; i++) {
        PyObject *d = PyList_GET_ITEM(decisions, i);
        int64_t n, at, player, chosen;
        if (Py_TYPE(d) != decision_type) Py_RETURN_NONE;
        if (int_of(SLOT(d, off_dn), &n) < 0 || n != first_decision + i) Py_RETURN_NONE;
        if (int_of(SLOT(d, off_at), &at) < 0 || at < (first > last_at ? first : last_at) || at > high)
            Py_RETURN_NONE;
        if (int_of(SLOT(d, off_dplayer), &player) < 0 || player < 0 || player >= seats) Py_RETURN_NONE;
        PyObject *point = SLOT(d, off_point), *offered = SLOT(d, off_offered);
        if (point == NULL || !PyUnicode_CheckExact(point) || PyUnicode_GET_LENGTH(point) == 0) Py_RETURN_NONE;
        if (offered == NULL || !PyList_CheckExact(offered) || PyList_GET_SIZE(offered) == 0) Py_RETURN_NONE;
        if (int_of(SLOT(d, off_chosen), &chosen) < 0 || chosen < 0 || chosen >= PyList_GET_SIZE(offered))
            Py_RETURN_NONE;
        last_at = at;
    }
    return Py_BuildValue("(nnnL)", count, ends, decided, (long long)last_at);
}

/* six_values(decisions, decision_type) -> list: each decision the table did not answer (``automatic`` false) as the
 * tuple of its first six fields, the others as they are: what ``LogWriter.write_batch`` writes, so that a log
 * without automatic answers keeps the bytes it always had (msgspec writes an array-like struct's every field). In
 * Python a tuple a decision costs a sixth of encoding the frame. */
static PyObject *six_values(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyList_CheckExact(args[0]) || !PyType_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "six_values(decisions, decision_type): a list and a type");
        return NULL;
    }
    PyTypeObject *decision_type = (PyTypeObject *)args[1];
    if (decision_offsets(decision_type) < 0) return NULL;
    Py_ssize_t offs[6] = {off_dn, off_at, off_dplayer, off_point, off_offered, off_chosen};
    PyObject *decisions = args[0];
    Py_ssize_t count = PyList_GET_SIZE(decisions);
    PyObject *out = PyList_New(count);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *d = PyList_GET_ITEM(decisions, i), *item = d;
        if (Py_TYPE(d) == decision_type && SLOT(d, off_automatic) != Py_True) {
            item = PyTuple_New(6);
            if (item == NULL) {
                Py_DECREF(out);
                return NULL;
            }
            for (int k = 0; k < 6; k++) {
                PyObject *v = SLOT(d, offs[k]);
                if (v == NULL) {
                    Py_DECREF(item);
                    Py_DECREF(out);
                    PyErr_SetString(PyExc_AttributeError, "a decision without all its fields");
                    return NULL;
                }
                Py_INCREF(v);
                PyTuple_SET_ITEM(item, k, v);
            }
        } else
            Py_INCREF(item);
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"typed", (PyCFunction)(void (*)(void))typed, METH_FASTCALL,
     "typed(events, decisions, first_event, first_decision, last_at, seats, end_type, event_base, decision_type) -> "
     "(events, end_events, decisions, last_at), or None where the reference must look."},
    {"six_values", (PyCFunction)(void (*)(void))six_values, METH_FASTCALL,
     "six_values(decisions, decision_type) -> list: each decision not answered automatically as a 6-tuple."},
    {"scan", (PyCFunction)(void (*)(void))fl_scan, METH_FASTCALL,
     "scan(data, offset, index, link, frames, max_length) -> (frames, offset, index, link, problem): frames verified "
     "as the reader does (schemas/_framelayer.h)."},
    {"heads", (PyCFunction)(void (*)(void))fl_heads, METH_FASTCALL,
     "heads(data, offset, max_length) -> (kinds, judges): the unverified walk over the frame headers."},
    {"seal", (PyCFunction)(void (*)(void))fl_seal, METH_FASTCALL,
     "seal(buffer, start, kind, index, link) -> digest: a frame's header, CRC and chain digest written."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_framecheck", NULL, 0, methods};

PyMODINIT_FUNC PyInit__framecheck(void) {
    fl_crc_init();
    return PyModule_Create(&module);
}
