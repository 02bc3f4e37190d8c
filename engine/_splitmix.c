/* The C fast path of ``engine/rng.py``: ``Rng.below``'s SplitMix64 step and rejection sampling, on 64-bit
 * integers instead of Python's arbitrary-precision ones (a random bot asks for one number per decision, and in
 * Python the twelve big-integer operations of one step cost about as much as the rest of the decision).
 *
 * below(state, n) -> (state', x): x uniform in [0, n) exactly as ``Rng.below`` draws it, state' the generator's
 * state after the draw. Optional: without a compiler ``Rng`` runs on its pure-Python steps, which give the same
 * numbers (tests/test_rng.py compares the two). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define GOLDEN 0x9E3779B97F4A7C15ULL

static PyObject *below(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "below(state, n) takes two integers");
        return NULL;
    }
    uint64_t s = PyLong_AsUnsignedLongLong(args[0]);
    if (s == (uint64_t)-1 && PyErr_Occurred()) {
        return NULL;
    }
    if (!PyLong_Check(args[1])) {
        PyErr_Format(PyExc_TypeError, "below() needs an integer n, got %R", args[1]);
        return NULL;
    }
    int overflow = 0;
    long long signed_n = PyLong_AsLongLongAndOverflow(args[1], &overflow);
    if (signed_n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (overflow < 0 || (overflow == 0 && signed_n <= 0)) {
        PyErr_Format(PyExc_ValueError, "below() needs n >= 1, got %R", args[1]);
        return NULL;
    }
    uint64_t n = PyLong_AsUnsignedLongLong(args[1]); /* OverflowError from 2**64 on */
    if (n == (uint64_t)-1 && PyErr_Occurred()) {
        return NULL;
    }
    uint64_t rest = (0 - n) % n; /* 2**64 % n: the draws at or above 2**64 - rest are rejected */
    uint64_t x;
    for (;;) {
        s += GOLDEN;
        uint64_t z = s;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        x = z ^ (z >> 31);
        if (rest == 0 || x < 0 - rest) {
            break;
        }
    }
    PyObject *state = PyLong_FromUnsignedLongLong(s);
    if (state == NULL) {
        return NULL;
    }
    PyObject *value = PyLong_FromUnsignedLongLong(x % n);
    if (value == NULL) {
        Py_DECREF(state);
        return NULL;
    }
    PyObject *pair = PyTuple_Pack(2, state, value);
    Py_DECREF(state);
    Py_DECREF(value);
    return pair;
}

static PyMethodDef methods[] = {
    {"below", (PyCFunction)(void (*)(void))below, METH_FASTCALL,
     "below(state, n) -> (state, x): Rng.below's draw of x in [0, n) and the generator's state after it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_splitmix", NULL, 0, methods};

PyMODINIT_FUNC PyInit__splitmix(void) { return PyModule_Create(&module); }
